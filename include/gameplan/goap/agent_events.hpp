#pragma once
/// @file agent_events.hpp
/// "Why did it do that": the events an agent runtime reports to an observer, with their reasons.
///
/// Overview
/// --------
/// Every decision of an agent is reported as an `AgentEvent`: a replan and its trigger, each goal it
/// tried (plan found, or plan failed with the goal atoms no relevant action can reach), the goal it
/// chose, each action started / succeeded / failed / aborted (with the reason), and going idle.
/// Events carry the tick number and are delivered to an `AgentObserver` on the thread that calls
/// `AgentSystem::tick`, in a deterministic order: within a tick, first every agent's *think* events
/// (replans, planning) in agent order, then every agent's *act* events (actions) in agent order. The
/// order does not depend on the executor or its thread count.
///
/// A typical trace (the space-shooter enemy, see examples/goap/scenarios/space_shooter.json):
/// ```
/// tick 0  enemy  replan: start
/// tick 0  enemy  plan found for kill_player: aim, shoot (cost 5)
/// tick 0  enemy  goal chosen: kill_player (priority 10)
/// tick 0  enemy  action started: aim [lock_on]
/// tick 1  enemy  action succeeded: aim (2 ticks)
/// ...
/// tick 6  enemy  action failed: aim (2 ticks)
/// tick 7  enemy  replan: action_failed (aim)
/// tick 7  enemy  plan found for kill_player: evade, low_accuracy_shot (cost 2)
/// ```
///
/// Thread-safety: events are plain values; the spans inside point into runtime storage and are valid
/// only during the observer call.

#include <gameplan/goap/behaviour.hpp>
#include <gameplan/goap/world_state.hpp>
#include <gameplan/search/search_context.hpp>
#include <gameplan/status.hpp>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace gameplan::goap {

class Domain;

/// Handle of an agent in its `AgentSystem`: slot index plus a generation, so the handle of a removed
/// agent never names a later agent reusing the slot. Default-constructed handles are invalid.
struct AgentId {
    static constexpr std::uint32_t kInvalid = UINT32_MAX;
    std::uint32_t index = kInvalid;
    std::uint32_t generation = 0;

    /// True unless this is the invalid handle (it may still name a removed agent).
    [[nodiscard]] constexpr bool valid() const noexcept { return index != kInvalid; }
    friend constexpr bool operator==(AgentId, AgentId) noexcept = default;
};

/// "No goal": the value of goal indices when none applies.
inline constexpr std::uint32_t kNoGoal = UINT32_MAX;

/// Why an agent (re)started goal selection and planning.
enum class ReplanTrigger : std::uint8_t {
    Start,                ///< the agent's first tick
    ActionFailed,         ///< the running action's behaviour returned Failure
    ActionAborted,        ///< `Agent::abort()` was called
    PreconditionsFailed,  ///< the next action's preconditions or context check failed just before it
                          ///< started, or the running action's preconditions stopped holding
    PlanInvalidated,      ///< the view changed so that the rest of the plan no longer reaches the goal
    GoalReached,          ///< the plan completed, or the view now satisfies the goal (someone else did it)
    GoalDropped,          ///< the current goal's priority function now reports it inactive
    HigherPriorityGoal,   ///< a more important goal is active and unsatisfied (tried without dropping
                          ///< the current plan: if none of them has a plan, the current plan continues)
    ViewChanged,          ///< an idle agent's view or context changed: a goal may have become achievable
    Requested,            ///< `Agent::request_replan()` was called
};
/// Number of ReplanTrigger values (for per-trigger counters).
inline constexpr std::size_t kReplanTriggerCount = 10;

/// Why an agent is idle.
enum class IdleReason : std::uint8_t {
    GoalsSatisfied,  ///< every active goal is satisfied (or no goal is active)
    NoPlan,          ///< no active, unsatisfied goal has a plan from the current view
};

/// Kind of an `AgentEvent`.
enum class AgentEventKind : std::uint8_t {
    Replan,           ///< goal selection starts: `trigger`, `goal` (the goal being pursued), `action`
                      ///< (the action concerned for ActionFailed / ActionAborted / PreconditionsFailed)
    PlanFound,        ///< a goal has a plan: `goal`, `priority`, `plan`, `cost`, `expanded`
    PlanFailed,       ///< a goal has no plan: `goal`, `priority`, `unreachable` (goal literals no enabled
                      ///< relevant action can ever set; empty = reachable one by one but not together),
                      ///< `expanded`, `search_status` (NoPath, or BudgetExhausted when the system's
                      ///< search memory or deadline ran out first: then `unreachable` is empty)
    PlanningPaused,   ///< the per-tick node budget ran out; the search resumes next tick: `goal`, `expanded`
    GoalChosen,       ///< the agent commits to `goal` (with `priority`); `previous_goal` is the goal before
    Idle,             ///< the agent has nothing to do: `idle_reason`
    ActionStarted,    ///< `action` starts (its behaviour's start + first update run this tick)
    ActionSucceeded,  ///< `action`'s behaviour returned Success after `ticks` updates; effects applied
    ActionFailed,     ///< `action`'s behaviour returned Failure after `ticks` updates
    ActionAborted,    ///< the runtime stopped `action` after `ticks` updates: `abort_reason`
    ActionBackedOff,  ///< `action` failed `expanded` times in a row: it is skipped for `ticks` ticks
                      ///< (its RetryPolicy; planning treats it as disabled until then)
    BackOffEnded,     ///< the cool-down of `action` is over: it may be planned again (the agent re-decides)
    GoalBackedOff,    ///< `goal` failed `expanded` times in a row (no plan, or an action of its plan failed):
                      ///< goal selection skips it for `ticks` ticks (its AgentGoal::retry policy)
    GoalBackOffEnded, ///< the cool-down of `goal` is over: it is considered again (the agent re-decides)
};

/// Stable snake_case names, used in JSON traces ("plan_found", "higher_priority_goal", ...).
[[nodiscard]] std::string_view to_string(ReplanTrigger trigger) noexcept;
[[nodiscard]] std::string_view to_string(IdleReason reason) noexcept;
[[nodiscard]] std::string_view to_string(AgentEventKind kind) noexcept;

/// One runtime event. Fields not listed for a kind (see AgentEventKind) keep their defaults.
struct AgentEvent {
    AgentEventKind kind = AgentEventKind::Replan;
    std::uint64_t tick = 0;                 ///< tick number of the system
    AgentId agent;                          ///< the agent
    std::uint32_t goal = kNoGoal;           ///< index into the agent's goals
    std::uint32_t previous_goal = kNoGoal;  ///< GoalChosen: the goal pursued before (kNoGoal if none)
    ActionId action;                        ///< the action concerned
    ReplanTrigger trigger = ReplanTrigger::Start;
    AbortReason abort_reason = AbortReason::External;
    IdleReason idle_reason = IdleReason::GoalsSatisfied;
    double cost = 0;                        ///< PlanFound: plan cost (under this call's costs)
    double priority = 0;                    ///< goal priority as evaluated for this selection
    std::uint64_t expanded = 0;             ///< planner expansions of the search (so far)
    std::uint64_t ticks = 0;                ///< ActionSucceeded/Failed/Aborted: update() calls of the run
    std::span<const ActionId> plan;         ///< PlanFound: the plan, in execution order
    std::span<const Literal> unreachable;   ///< PlanFailed: unreachable goal literals
    /// PlanFailed with `analyzed` set: the no-plan analysis of the query (goap/explain.hpp,
    /// `analyze_no_plan`, the same as `gameplan explain`): `unreachable` then holds the goal literals its
    /// relaxed reachability never reaches, `root_causes` the unreached literals no enabled action sets on
    /// which they depend, `cycle_literals` the groups of literals that only each other could set (group k
    /// is the next `cycle_sizes[k]` literals), `disabled` the actions switched off for this query (context
    /// check, back-off, the type's exclusions) that set a literal the goal depends on.
    /// See AgentSystemOptions::explain_no_plan.
    bool analyzed = false;
    std::span<const Literal> root_causes;
    std::span<const Literal> cycle_literals;
    std::span<const std::uint32_t> cycle_sizes;
    std::span<const ActionId> disabled;
    /// PlanFailed with `analyzed` set: the goal comparisons the relaxation (with variable ranges) never
    /// satisfies, and the comparisons no enabled action can make hold on which the goal depends
    /// (`NoPlanAnalysis::unreachable_comparisons`, the conditions of the numeric root causes).
    std::span<const Comparison> unreachable_comparisons;
    std::span<const Comparison> numeric_root_causes;
    /// PlanFailed: how the search ended: NoPath (no plan exists from the agent's view), BudgetExhausted
    /// (AgentSystemOptions::max_search_memory_bytes or AgentSystem::set_search_deadline stopped it: whether
    /// a plan exists is unknown), InvalidQuery (the query could not be searched, e.g. costs that overflow).
    Status search_status = Status::NoPath;
    /// PlanFailed with `search_status` BudgetExhausted: which limit stopped the search (Memory or Time);
    /// None otherwise.
    search::BudgetLimit search_limit = search::BudgetLimit::None;
};

/// Receives events. Called on the thread that runs `AgentSystem::tick`, never concurrently.
class AgentObserver {
public:
    virtual ~AgentObserver() = default;
    /// One event of `agent`. The event's spans are valid during this call only.
    virtual void on_event(const Agent& agent, const AgentEvent& event) = 0;
};

/// A one-line English description of `event` (without tick and agent name), e.g.
/// `plan found for kill_player: aim, shoot (cost 5)` or `action aborted: chop_wood (replaced)`.
/// Goal names come from `agent`, atom and action names from its domain.
[[nodiscard]] std::string describe(const Agent& agent, const AgentEvent& event);

}  // namespace gameplan::goap
