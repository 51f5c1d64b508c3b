#pragma once
/// @file agent.hpp
/// The GOAP agent runtime: agents that own a plan, run its actions tick by tick, watch the world, choose
/// between prioritised goals, and replan when (and only when) something happened.
///
/// Overview
/// --------
/// An `AgentSystem` owns the world `Blackboard` (shared atoms), the agents, and the planners. Each agent
/// has a type (`AgentType`: behaviours bound by action name, see behaviour.hpp), private atoms, a list
/// of goals with priorities, and an optional user-data pointer for the game. One call to `tick()`
/// advances every agent by one tick in two phases:
///
/// 1. **Think** (parallel over agents when given an `Executor`; reads shared data only). The agent
///    merges its view = world shared atoms + private atoms, and decides whether to (re)plan. Triggers
///    (`ReplanTrigger`), checked in this order:
///    - `Start` (first tick), `ActionAborted` (`Agent::abort()`), `ActionFailed` (behaviour returned
///      Failure last tick), `GoalReached` (last action succeeded), `PreconditionsFailed` (see below),
///      `Requested` (`Agent::request_replan()`).
///    - Otherwise, only if the view or the agent's context changed since the agent last looked
///      (`Blackboard::version`, private writes, `Agent::notify_context_changed`), and the change is not
///      just the agent's own effects: the running action's preconditions no longer hold (it is aborted,
///      `PreconditionsFailed`); the goal is satisfied (`GoalReached`); goal priorities are re-evaluated
///      and the current goal became inactive (`GoalDropped`); the rest of the plan, simulated from the
///      new view, no longer reaches the goal (`PlanInvalidated`); a goal of higher priority is active and
///      unsatisfied (`HigherPriorityGoal`). An idle agent re-tries its goals (`ViewChanged`).
///    - If nothing changed, nothing is evaluated: no callback, no planner call, O(1) per agent.
///    *Goal selection*: priorities are evaluated (numbers, or callbacks reading the view), goals that are
///    inactive or already satisfied are skipped, and the rest are planned in decreasing priority
///    (declaration order among equals) until one has a plan: the agent commits to it (`GoalChosen`).
///    Goals without a plan are reported (`PlanFailed` with the unreachable goal atoms) and the next
///    one is tried. If none has a plan the agent is `Idle` and tries again only when its view or context
///    changes: never a busy loop. A `HigherPriorityGoal` selection only tries the more important goals;
///    if none of them has a plan, the current plan simply continues. When the new plan starts with the
///    action already running, that action keeps running; otherwise it is aborted (`Replaced`).
///    *Budgets*: with `max_expansions_per_tick`, the planner's resumable search runs at most that many
///    node expansions per tick and continues next tick (`PlanningPaused`); the plan is exactly the one an
///    unbudgeted search returns. While a search is paused the running action (if any) is paused too.
///    Before an action starts, its preconditions and context check are checked against the view
///    (`PreconditionsFailed` replans in the same tick).
/// 2. **Act** (calling thread, agent order). The current action's behaviour is updated once. Before an
///    action starts, its preconditions are re-checked against the *live* view (another agent may have
///    changed the world earlier in this tick; a failure replans next tick). On `Success` the action's
///    effects are applied to the world's shared atoms and the agent's private atoms, and the next
///    action starts next tick; on `Failure` the agent replans next tick.
///
/// Changes the game makes between ticks (blackboard writes, `Agent::set`) are seen at the next tick;
/// changes made during a tick's act phase (effects, behaviours writing the world) are seen by later
/// agents' precondition re-checks in that tick and by everyone's think phase in the next tick.
///
/// Determinism: for the same inputs the same events happen in the same order on every run, with or
/// without an executor, for any thread count (planners are deterministic; events produced in parallel
/// are buffered per agent and delivered in agent order).
///
/// Plan cache: each worker keeps an exact cache of planner answers keyed by every input of the query
/// (AgentSystemOptions::plan_cache_entries), so agents in the same situation share one search. A hit
/// returns exactly what the search would, and is only used where the search would have finished within
/// the tick's budget: the cache never changes a plan, an event or a timing.
///
/// Memory and speed: after warm-up a tick allocates nothing unless an observer is set (events are
/// buffered), the agent set changes, or (with several workers) budgeted searches paused across ticks
/// need more planners than the pool holds; an agent with nothing to do costs a few comparisons per tick.
///
/// Thread-safety: one thread drives a system (tick, add/remove agents, blackboard and agent writes
/// between ticks). During `tick(executor)`, context checks, cost functions and priority functions run
/// on worker threads (concurrently for different agents); behaviours and the observer run on the
/// calling thread.

#include <gameplan/goap/agent_batch.hpp>
#include <gameplan/goap/agent_events.hpp>
#include <gameplan/goap/behaviour.hpp>
#include <gameplan/goap/blackboard.hpp>
#include <gameplan/goap/domain.hpp>
#include <gameplan/goap/planner.hpp>
#include <gameplan/goap/world_state.hpp>
#include <gameplan/restore.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace gameplan::goap {

class AgentSystem;
namespace detail {
class PlanCache;
}

/// Priority meaning "this goal is not active now" (also any NaN): the agent ignores the goal.
inline constexpr double kInactivePriority = -std::numeric_limits<double>::infinity();

/// Goal priority callback: reads the view (and the game through user data); larger = more important;
/// `kInactivePriority` or NaN = not active now. Runs at every goal selection and, while the agent acts,
/// whenever its view or context changed (never on ticks where nothing changed). `PlanningContext::action`
/// is invalid and `goal` is the goal's index. May run on executor worker threads.
using PriorityFunction = std::function<double(const PlanningContext&)>;

/// One goal of an agent.
struct AgentGoal {
    std::string name;             ///< for events and traces
    Condition condition;          ///< the atoms to reach (over the system's domain)
    double priority = 0;          ///< used when `priority_fn` is empty and `priority_var` is invalid
    PriorityFunction priority_fn; ///< optional dynamic priority (see PriorityFunction)
    /// Only considered while this holds in the view (empty = always): "attack only while the player is
    /// visible". While it does not hold the goal is inactive, as with kInactivePriority.
    Condition when{};
    /// When valid (and no priority_fn): priority = priority_scale * view value + priority_offset,
    /// re-read whenever the view changes ("hungrier means more urgent").
    VarId priority_var{};
    double priority_scale = 1;   ///< see priority_var
    double priority_offset = 0;  ///< see priority_var
    /// Goal back-off (default off): a goal that fails `retry.after_failures` times in a row is left out
    /// of goal selection for `retry.cooldown_ticks` ticks. A failure is a PlanFailed event for it (no
    /// plan, or the search budget ran out) or an action of its plan failing; reaching the goal resets
    /// the count. The trace shows GoalBackedOff and GoalBackOffEnded.
    RetryPolicy retry{};

    /// A goal from a domain file's named goal (its fixed or variable priority, its "when" and "retry").
    [[nodiscard]] static AgentGoal from(const Goal& goal) {
        return AgentGoal{goal.name,       goal.condition,      goal.priority,        {},         goal.when,
                         goal.priority_var, goal.priority_scale, goal.priority_offset, goal.retry};
    }
};

/// Everything needed to add an agent.
struct AgentParams {
    std::string name;                       ///< for events and traces (need not be unique)
    std::shared_ptr<const AgentType> type;  ///< required; bound against the system's domain
    std::vector<AgentGoal> goals;           ///< in declaration order (ties in priority keep this order)
    WorldState state;                       ///< private atoms; an empty state means all false; values of
                                            ///< shared atoms are ignored (the world owns them)
    void* user_data = nullptr;              ///< handed to behaviours and callbacks (e.g. the game entity)
    std::uint64_t max_expansions_per_tick = UINT64_MAX;  ///< node budget per tick (see the overview)
    Direction direction = kDefaultDirection;             ///< planner search direction
};

/// What an agent is doing.
enum class AgentStatus : std::uint8_t {
    Idle,      ///< no plan (not started yet, every goal satisfied, or no goal achievable)
    Planning,  ///< a budgeted search is in progress over several ticks (a running action is paused)
    Acting,    ///< executing a plan: its current action is running or starts this tick
};
/// Stable snake_case name ("idle", "planning", "acting").
[[nodiscard]] std::string_view to_string(AgentStatus status) noexcept;

/// Counters of one agent (or, summed, of a system). Never reset by the runtime.
struct AgentStats {
    std::uint64_t replans = 0;                                      ///< goal selections started
    std::array<std::uint64_t, kReplanTriggerCount> replans_by_trigger{};  ///< indexed by ReplanTrigger
    std::uint64_t searches = 0;           ///< planner queries started (one per goal tried)
    std::uint64_t plans_found = 0;        ///< queries that found a plan
    std::uint64_t plans_failed = 0;       ///< queries that proved no plan exists
    std::uint64_t expanded = 0;           ///< node expansions of the searches whose answers were used
                                          ///< (a plan-cache hit counts the expansions of the search it
                                          ///< repeats, so this does not depend on the cache)
    std::uint64_t cache_hits = 0;         ///< searches answered by the plan cache (depends on the cache
                                          ///< size and, with an executor, on which worker ran the agent)
    std::uint64_t checks = 0;             ///< context-check calls
    std::uint64_t cost_calls = 0;         ///< cost-function calls
    std::uint64_t priority_calls = 0;     ///< priority-function calls
    std::uint64_t actions_started = 0;    ///< behaviours started
    std::uint64_t actions_succeeded = 0;  ///< behaviours that returned Success
    std::uint64_t actions_failed = 0;     ///< behaviours that returned Failure
    std::uint64_t actions_aborted = 0;    ///< behaviours stopped by the runtime
    std::uint64_t updates = 0;            ///< behaviour update() calls

    /// Adds `other` field by field.
    void add(const AgentStats& other) noexcept;
    /// Replans caused by `trigger`.
    [[nodiscard]] std::uint64_t replans_for(ReplanTrigger trigger) const noexcept {
        return replans_by_trigger[static_cast<std::size_t>(trigger)];
    }
};

/// Running state of an `AgentSystem` as plain data (`AgentSystem::save_state` / `restore_state`), for
/// saving a game; io/save.hpp writes it to a save file and reads it back. Saved: the tick, the blackboard
/// (values and version), every agent slot (live or free, its generation) and, per agent, its private
/// state, its believed view, its goal, plan and position in it, the running action and how long it has
/// run, pending replans and requests, the goal selection in progress (a budgeted search paused across
/// ticks is saved by its query and the expansions it made; restoring replays them, so it continues
/// exactly where it stopped), back-off counters and cool-downs, and its counters. Not saved: behaviours,
/// priority functions, sensors and user data (the game binds them again on restore, by agent type and
/// goal name), the plan caches (a cache never changes a plan, an event or a timing; only
/// `AgentStats::cache_hits` may differ from an uninterrupted run), the observer.
/// A world state as saved: the atom words (bit i % 64 of word i / 64 is atom i) and the variable values.
struct SavedWorldState {
    std::vector<std::uint64_t> words;
    std::vector<std::int32_t> values;
};

/// One agent's running state. Field names follow the save file.
struct AgentState {
    std::string name;                     ///< AgentParams::name
    std::string type;                     ///< its AgentType's name
    std::vector<std::string> goals;       ///< its goals' names, in order
    std::uint64_t budget = UINT64_MAX;    ///< max_expansions_per_tick
    Direction direction = kDefaultDirection;
    SavedWorldState private_state;        ///< private atoms and variables
    SavedWorldState view;                 ///< the believed view
    std::uint64_t private_version = 0, seen_world_version = UINT64_MAX, seen_private_version = UINT64_MAX;
    std::uint64_t context_version = 0, seen_context_version = 0;
    AgentStatus status = AgentStatus::Idle;
    IdleReason idle_reason = IdleReason::GoalsSatisfied;
    std::uint32_t goal = kNoGoal;         ///< current goal
    std::vector<std::uint32_t> plan;      ///< action ids
    std::uint64_t step = 0;               ///< position in plan
    double plan_cost = 0;
    bool running = false;                 ///< the current action's behaviour has started
    std::uint64_t ticks_running = 0;
    bool has_pending = true;              ///< a replan is due at the next think phase
    ReplanTrigger pending = ReplanTrigger::Start;
    std::uint32_t pending_action = ActionId::kInvalid;
    bool abort_requested = false, replan_requested = false, dirty = false;
    bool abort_hook_pending = false;      ///< an abort hook runs in the next act phase
    std::uint32_t abort_hook_action = ActionId::kInvalid;
    AbortReason abort_hook_reason = AbortReason::External;
    std::uint64_t abort_hook_ticks = 0;
    std::vector<double> priorities;       ///< per goal, as last evaluated (-infinity = inactive)
    // Goal selection in progress.
    bool selecting = false, speculative = false, any_failed = false;
    std::vector<std::uint32_t> candidates;  ///< goals to try, in order
    std::uint64_t candidate = 0;            ///< the one being tried
    bool search_active = false;             ///< a budgeted search is paused between ticks
    SavedWorldState search_start;           ///< its start (the view when it began)
    std::uint8_t search_mask = 0;           ///< 0: all actions, 1: the type's plannable mask, 2: the mask and costs below
    std::vector<std::uint8_t> search_enabled;  ///< per action, when search_mask == 2
    std::vector<double> search_costs;          ///< per action, when search_mask == 2 (empty: the domain's)
    std::uint64_t search_expanded = 0;         ///< expansions it has made
    // Back-off.
    std::vector<std::uint32_t> failures;         ///< consecutive failures per action
    std::vector<std::uint64_t> cooldown_until;   ///< per action, 0 = none
    std::uint64_t next_cooldown_end = UINT64_MAX;
    std::vector<std::uint32_t> goal_failures;        ///< consecutive failures per goal (empty = all 0)
    std::vector<std::uint64_t> goal_cooldown_until;  ///< per goal, 0 = none (empty = none)
    AgentStats stats;
};

/// A whole system's running state.
struct AgentSystemState {
    std::uint64_t tick = 0;
    SavedWorldState blackboard;
    std::uint64_t blackboard_version = 0;
    std::vector<std::uint32_t> generations;           ///< per slot
    std::vector<std::optional<AgentState>> agents;    ///< per slot: the agent, or nothing for a free slot
    std::vector<std::uint32_t> free_slots;            ///< the free list as stored (the next reused last)
};

/// One agent. Created and owned by an `AgentSystem` (`add_agent`); reached through `AgentSystem::find`
/// or the contexts passed to callbacks. See the file overview for the tick semantics.
class Agent {
public:
    Agent(const Agent&) = delete;
    Agent& operator=(const Agent&) = delete;
    ~Agent();

    /// This agent's handle.
    [[nodiscard]] AgentId id() const noexcept { return m_id; }
    /// Its name (AgentParams::name).
    [[nodiscard]] const std::string& name() const noexcept { return m_name; }
    /// Its type.
    [[nodiscard]] const AgentType& type() const noexcept { return *m_type_ptr; }
    /// The domain it plans in.
    [[nodiscard]] const Domain& domain() const noexcept { return *m_domain; }
    /// The system that owns it.
    [[nodiscard]] AgentSystem& system() const noexcept { return *m_system; }
    /// The game's user data pointer.
    [[nodiscard]] void* user_data() const noexcept { return m_user_data; }
    /// Replaces the user data pointer.
    void set_user_data(void* data) noexcept { m_user_data = data; }

    /// What it is doing.
    [[nodiscard]] AgentStatus status() const noexcept { return m_status; }
    /// Why it is idle (meaningful when status() is Idle and it has ticked at least once).
    [[nodiscard]] IdleReason idle_reason() const noexcept { return m_idle_reason; }
    /// Its private atoms (shared atoms are always false here).
    [[nodiscard]] const WorldState& private_state() const noexcept { return m_private; }
    /// Sets a private atom; the agent sees the change at its next tick. Returns false, writing nothing,
    /// for shared or invalid atoms (write those on the blackboard). O(1).
    bool set(AtomId atom, bool value) noexcept;
    /// Sets the private atom called `name`; false if there is none (or it is shared).
    bool set(std::string_view name, bool value) noexcept { return set(m_domain->find_atom(name), value); }
    /// Sets a private variable; false, writing nothing, for shared or invalid variables or a value
    /// outside its bounds. The agent sees the change at its next think phase. O(1).
    bool set_value(VarId var, std::int32_t value) noexcept;
    /// True while `action` is skipped after repeated failures (see RetryPolicy), at tick `tick`.
    [[nodiscard]] bool backed_off(ActionId action, std::uint64_t tick) const noexcept {
        return action.value < m_cooldown_until.size() && m_cooldown_until[action.value] > tick;
    }
    /// True while goal `goal` is skipped after repeated failures (see AgentGoal::retry), at tick `tick`.
    [[nodiscard]] bool goal_backed_off(std::uint32_t goal, std::uint64_t tick) const noexcept {
        return goal < m_goal_cooldown_until.size() && m_goal_cooldown_until[goal] > tick;
    }
    /// The agent's view as of its last think phase, plus its own effects since (what it believes).
    [[nodiscard]] const WorldState& view() const noexcept { return m_view; }

    /// Its goals.
    [[nodiscard]] std::span<const AgentGoal> goals() const noexcept { return m_goals; }
    /// Index of the goal it pursues (kNoGoal when idle).
    [[nodiscard]] std::uint32_t current_goal() const noexcept { return m_goal; }
    /// Priority of `goal` as last evaluated (kInactivePriority if inactive).
    [[nodiscard]] double goal_priority(std::uint32_t goal) const noexcept { return m_priority[goal]; }
    /// The current plan (empty when idle).
    [[nodiscard]] std::span<const ActionId> plan() const noexcept { return m_plan; }
    /// Position of the current action in plan().
    [[nodiscard]] std::size_t plan_position() const noexcept { return m_step; }
    /// Cost of the current plan as planned.
    [[nodiscard]] double plan_cost() const noexcept { return m_plan_cost; }
    /// The action running or about to start (invalid when there is none).
    [[nodiscard]] ActionId current_action() const noexcept {
        return m_step < m_plan.size() ? m_plan[m_step] : ActionId{};
    }
    /// True while current_action()'s behaviour has started and not finished.
    [[nodiscard]] bool action_running() const noexcept { return m_running; }

    /// Asks the runtime to stop the running action (its "Aborted" outcome) and replan at the next tick
    /// (trigger `ActionAborted`; the behaviour's abort hook receives `AbortReason::External`). Also
    /// restarts a paused search. No effect on an idle agent beyond a replan.
    void abort() noexcept { m_abort_requested = true; }
    /// Asks for a full goal selection at the next tick (trigger `Requested`).
    void request_replan() noexcept { m_replan_requested = true; }
    /// Tells the agent that something its callbacks read (context checks, costs, priorities) may have
    /// changed although no atom did: at its next tick it reacts as to a change of its view.
    void notify_context_changed() noexcept { ++m_context_version; }

    /// Node budget per tick for its searches (UINT64_MAX = unlimited).
    [[nodiscard]] std::uint64_t max_expansions_per_tick() const noexcept { return m_budget; }
    /// Changes the node budget per tick (takes effect at the next tick; 0 is treated as 1).
    void set_max_expansions_per_tick(std::uint64_t budget) noexcept { m_budget = budget == 0 ? 1 : budget; }

    /// Its counters.
    [[nodiscard]] const AgentStats& stats() const noexcept { return m_stats; }

private:
    friend class AgentSystem;
    struct PendingEvent {
        AgentEvent event;
        std::uint32_t plan_offset = 0, plan_size = 0, literal_offset = 0, literal_size = 0;
        // The no-plan analysis (PlanFailed with event.analyzed): offsets into the agent's buffers.
        std::uint32_t root_offset = 0, root_size = 0, cycle_offset = 0, cycle_size = 0, sizes_offset = 0, sizes_size = 0,
                      disabled_offset = 0, disabled_size = 0, comparison_offset = 0, comparison_size = 0,
                      numeric_root_offset = 0, numeric_root_size = 0;
    };
    // Where a think phase gets its planner: the worker's scratch planner, swapped out (and replaced
    // from the system's pool) when a paused search must keep it until the next tick.
    struct PlannerSlot {
        std::unique_ptr<Planner>* scratch;
        AgentSystem* system;
        detail::PlanCache* cache;  // the worker's plan cache, or nullptr
    };

    Agent(AgentSystem& system, AgentId id, AgentParams&& params);

    // Phases.
    void think(PlannerSlot slot, std::uint64_t tick, bool record);
    void act(Blackboard& world, std::uint64_t tick, bool record);
    void release_for_removal(std::uint64_t tick, bool record);

    // Helpers (agent.cpp).
    bool refresh_view(const Blackboard& world);
    void check_changes(std::uint64_t tick);
    bool plan_reaches_goal();
    void evaluate_priorities(std::uint64_t tick);
    bool higher_priority_goal_pending() const;
    void begin_selection(ReplanTrigger trigger, ActionId action, bool speculative, bool evaluated, std::uint64_t tick);
    void continue_selection(PlannerSlot slot, std::uint64_t tick);
    void prepare_query(std::uint32_t goal, std::uint64_t tick, PlanOptions& options);
    void record_failure(std::uint32_t goal, std::uint64_t expanded, std::span<const Literal> unreachable, std::uint64_t tick,
                        Status status = Status::NoPath, search::BudgetLimit limit = search::BudgetLimit::None);
    void adopt_plan(std::uint32_t goal, const PlanResult& result, std::uint64_t tick);
    void end_selection_without_plan(std::uint64_t tick);
    void finish_search(PlannerSlot slot);
    void abort_running(AbortReason reason, std::uint64_t tick);
    bool next_action_startable(std::uint64_t tick);
    void set_pending(ReplanTrigger trigger, ActionId action) noexcept;
    PendingEvent& emit(AgentEventKind kind, std::uint64_t tick);
    void emit_plan(PendingEvent& event, std::span<const ActionId> plan);
    void emit_literals(PendingEvent& event, std::span<const Literal> literals);
    void merge_view(WorldState& out, const Blackboard& world) const noexcept;
    void run_sensors(std::uint64_t tick);
    bool update_back_off(std::uint64_t tick);
    void record_action_outcome(ActionId a, bool failed, std::uint64_t tick);
    void record_goal_failure(std::uint32_t goal, std::uint64_t tick);
    void analyze_failure(PendingEvent& event, std::uint32_t goal);

    // Hot state first: what every tick reads (one or two cache lines for an agent with nothing to do).
    AgentSystem* m_system;
    const Domain* m_domain;
    const AgentType* m_type_ptr;
    void* m_user_data;
    std::uint64_t m_private_version = 0;
    std::uint64_t m_seen_world_version = UINT64_MAX;
    std::uint64_t m_seen_private_version = UINT64_MAX;
    std::uint64_t m_context_version = 0;
    std::uint64_t m_seen_context_version = 0;
    std::uint64_t m_ticks_running = 0;
    std::size_t m_step = 0;
    AgentStatus m_status = AgentStatus::Idle;
    bool m_running = false;
    bool m_selecting = false;
    bool m_has_pending = true;
    bool m_abort_requested = false;
    bool m_replan_requested = false;
    bool m_dirty = false;       // a change arrived while a search was paused; examine it afterwards
    bool m_plan_fresh = false;  // plan adopted in this think phase (its first action was just checked)
    bool m_record = false;      // events are buffered (the system has an observer)
    bool m_abort_hook_pending = false;
    bool m_dynamic_priorities = false;  // some goal has a priority function
    bool m_speculative = false;
    bool m_search_active = false;
    bool m_any_failed = false;
    ReplanTrigger m_pending = ReplanTrigger::Start;
    IdleReason m_idle_reason = IdleReason::GoalsSatisfied;
    AbortReason m_abort_hook_reason = AbortReason::External;
    std::uint32_t m_goal = kNoGoal;
    ActionId m_pending_action;
    // An abort decided in the think phase (maybe on a worker thread) calls the behaviour's abort hook
    // in the act phase, on the calling thread.
    ActionId m_abort_hook_action;
    std::uint64_t m_abort_hook_ticks = 0;
    std::uint64_t m_budget;
    double m_plan_cost = 0;
    std::vector<ActionId> m_plan;
    std::vector<double> m_priority;
    std::vector<std::uint32_t> m_candidates;
    WorldState m_private;
    WorldState m_view;     // believed view: last observed + own effects since
    WorldState m_scratch;  // live view / plan simulation
    AgentStats m_stats;

    // Colder state.
    AgentId m_id;
    Direction m_direction;
    std::shared_ptr<const AgentType> m_type;
    std::string m_name;
    // Goals: per goal, the relevant actions that have a check or cost callback (computed once).
    std::vector<AgentGoal> m_goals;
    std::vector<std::vector<ActionId>> m_callback_actions;
    // Goal selection / search.
    std::size_t m_candidate = 0;
    std::unique_ptr<Planner> m_planner;  // held while a search is paused across ticks
    std::vector<std::uint8_t> m_enabled;
    std::vector<double> m_costs;
    std::vector<std::uint64_t> m_query_key;  // plan-cache key of the search in progress
    // Back-off: consecutive failures and the tick a cool-down ends (0 = none), per action.
    std::vector<std::uint32_t> m_failures;
    std::vector<std::uint64_t> m_cooldown_until;
    std::uint64_t m_next_cooldown_end = UINT64_MAX;  // earliest end of an action or goal cool-down
    std::vector<std::uint32_t> m_goal_failures;
    std::vector<std::uint64_t> m_goal_cooldown_until;
    bool m_has_goal_conditions = false;  // some goal has "when" or a variable priority
    std::uint64_t m_query_hash = 0;
    // The query of the search in progress, for saving it (see AgentState::search_start).
    WorldState m_search_start;
    std::uint8_t m_search_mask = 0;
    // Buffered events (only when the system has an observer).
    std::vector<PendingEvent> m_events;
    std::vector<ActionId> m_event_actions;
    std::vector<Literal> m_event_literals;
    std::vector<Comparison> m_event_comparisons;
    std::vector<std::uint32_t> m_event_sizes;
    std::uint64_t m_analyses_this_tick = 0;
    std::uint64_t m_analysis_tick = UINT64_MAX;
    PendingEvent m_discard;  // target of emit() when nothing is recorded
};

/// Options of an `AgentSystem`.
struct AgentSystemOptions {
    /// Agents per executor task in the think phase (larger = less scheduling overhead).
    std::size_t chunk_size = 128;
    /// Entries of each worker's plan cache (rounded up to a power of two; 0 = no cache). The cache keys
    /// every input of a planner query (view, goal, direction, enable mask, costs) and returns exactly
    /// the answer the search would give, so it never changes a result, only skips repeated searches
    /// (many agents in the same situation). See AgentStats::cache_hits.
    std::size_t plan_cache_entries = 1024;
    /// Memory budget of each planner search in bytes (`PlanOptions::max_memory_bytes`: the interned states
    /// and per-node arrays the search grows; SIZE_MAX = none). A search that would pass it ends, and the
    /// goal fails for this selection with a PlanFailed event whose `search_status` is BudgetExhausted.
    std::size_t max_search_memory_bytes = SIZE_MAX;
    /// No-plan analyses per agent and tick (0 = none). While an observer is set, a goal whose search
    /// proves that no plan exists (`search_status` NoPath) gets the analysis of `gameplan explain`
    /// (`analyze_no_plan`: unreachable goal literals by relaxed reachability, unreachable goal
    /// comparisons by the variables' relaxed ranges, root causes, cycles, the actions switched off for
    /// the query) in its PlanFailed event, for at most this many failures per agent and tick; later ones
    /// carry the planner's unreachable literals only (`analyzed` false). An analysis costs O(literals
    /// of the domain) time (repeated passes over the actions with variables, explain.hpp) and allocates
    /// its working tables; without an
    /// observer nothing is analysed or allocated.
    std::uint32_t explain_no_plan = 4;
};

/// Owns the world blackboard, the agents and their planners, and ticks them. See the file overview.
class AgentSystem {
public:
    /// A system for `domain` (which must outlive it).
    explicit AgentSystem(const Domain& domain, AgentSystemOptions options = {});
    ~AgentSystem();
    AgentSystem(const AgentSystem&) = delete;
    AgentSystem& operator=(const AgentSystem&) = delete;

    /// The domain.
    [[nodiscard]] const Domain& domain() const noexcept { return *m_domain; }
    /// The world's shared atoms.
    [[nodiscard]] Blackboard& blackboard() noexcept { return m_blackboard; }
    [[nodiscard]] const Blackboard& blackboard() const noexcept { return m_blackboard; }

    /// Adds an agent; it plans at its first tick. Returns an invalid id (adding nothing) if the type is
    /// missing or bound to another domain, or a goal or the state does not match the domain's atoms.
    /// Agents are ticked in the order of their slots (a removed agent's slot is reused by later adds).
    [[nodiscard]] AgentId add_agent(AgentParams params);
    /// Removes an agent (its running action is aborted with `AbortReason::Removed`). False if `id`
    /// names no live agent. Must not be called during tick().
    bool remove_agent(AgentId id);
    /// The live agent named by `id`, or nullptr.
    [[nodiscard]] Agent* find(AgentId id) noexcept;
    [[nodiscard]] const Agent* find(AgentId id) const noexcept;
    /// Number of live agents.
    [[nodiscard]] std::size_t agent_count() const noexcept { return m_live; }
    /// Calls `fn(Agent&)` for every live agent in tick order.
    template <class Fn>
    void for_each_agent(Fn&& fn) {
        for (const std::unique_ptr<Agent>& a : m_agents)
            if (a) fn(*a);
    }

    /// Sets (or clears, with nullptr) the observer receiving every agent's events. Events are only
    /// recorded while an observer is set.
    void set_observer(AgentObserver* observer) noexcept { m_observer = observer; }

    /// Runs one tick: think (on `executor` if given, else inline) then act. See the file overview.
    void tick(Executor* executor = nullptr);
    /// Number of the next tick (the first tick is 0).
    [[nodiscard]] std::uint64_t current_tick() const noexcept { return m_tick; }

    /// Searches begun or resumed from now on stop at `deadline` (steady clock; time_point::max() = none,
    /// the default): the goal then fails for this selection with `search_status` BudgetExhausted. A
    /// wall-clock guard for tools and tests; a game normally bounds planning per tick with
    /// `AgentParams::max_expansions_per_tick`, which keeps runs deterministic.
    void set_search_deadline(std::chrono::steady_clock::time_point deadline) noexcept { m_search_deadline = deadline; }
    [[nodiscard]] std::chrono::steady_clock::time_point search_deadline() const noexcept { return m_search_deadline; }

    /// Sum of every live agent's counters.
    [[nodiscard]] AgentStats total_stats() const noexcept;

    /// Makes the game's half of a saved agent: fills `params` (type, goals with their callbacks, user
    /// data; name, state, budget and direction are taken from the save) for `saved`, or returns false
    /// to refuse it. Called once per saved agent, in slot order.
    using AgentBinder = std::function<bool(const AgentState& saved, AgentParams& params)>;
    /// Copies the system's running state into `out` (for a saved game). Call between ticks.
    void save_state(AgentSystemState& out) const;
    /// Replaces every agent (no events, no abort hooks) and the blackboard by a saved state; the next
    /// tick continues exactly as the saved system's next tick would have. Each saved agent is bound by
    /// `bind`; its type must have the saved name and be bound to this system's domain, and its goals the
    /// saved names and count. Every saved value is checked (sizes, ids, ranges, the runtime's
    /// invariants). On error the system is left without agents and the error names the field
    /// (`agents[4].plan[1]`). Call between ticks.
    RestoreResult restore_state(const AgentSystemState& state, const AgentBinder& bind);

private:
    friend class Agent;
    void think(Executor* executor);
    void act();
    void deliver(Agent& agent);
    std::unique_ptr<Planner> acquire_planner();
    void release_planner(std::unique_ptr<Planner> planner);

    const Domain* m_domain;
    AgentSystemOptions m_options;
    Blackboard m_blackboard;
    std::vector<std::unique_ptr<Agent>> m_agents;
    std::vector<std::uint32_t> m_generations;
    std::vector<std::uint32_t> m_free_slots;
    std::size_t m_live = 0;
    AgentObserver* m_observer = nullptr;
    std::uint64_t m_tick = 0;
    std::chrono::steady_clock::time_point m_search_deadline = std::chrono::steady_clock::time_point::max();
    std::vector<std::unique_ptr<Planner>> m_worker_planners;
    std::vector<std::unique_ptr<detail::PlanCache>> m_worker_caches;
    std::mutex m_pool_mutex;
    std::vector<std::unique_ptr<Planner>> m_free_planners;
};

}  // namespace gameplan::goap
