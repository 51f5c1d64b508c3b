#pragma once
/// @file agent_scenario.hpp
/// Scripted agent scenarios: a designer's test bench for the agent runtime, and its acceptance test.
///
/// Overview
/// --------
/// A `Scenario` holds a domain, the initial world (shared atoms), agent types whose actions are bound
/// to *scripted* behaviours (an action takes K ticks, then succeeds or fails; optional dynamic cost and
/// context check whose values the timeline can change), agents (type, private state, goals with
/// fixed priorities or priority rules), and a timeline of game events:
///
/// | event    | effect, applied just before the think phase of tick N                       |
/// |----------|-----------------------------------------------------------------------------|
/// | `Set`    | set shared atoms on the blackboard, or an agent's private atoms             |
/// | `Fail`   | the agent's running action, if it is the named one, fails in tick N         |
/// | `Abort`  | `Agent::abort()`                                                            |
/// | `Cost`   | the agent's dynamic cost of an action becomes `value` (context changed)     |
/// | `Enable` | the agent's context check of an action returns `enabled` (context changed)  |
/// | `Add`    | add to integer variables (world or agent), clamped to their bounds          |
/// | `Expect` | check a condition (atoms, comparisons) on the world or an agent's live view |
///
/// `ScenarioRunner` builds an `AgentSystem` from it (every binding is validated as the runtime does:
/// unknown or unbound actions are reported by `error()`), then runs tick by tick, reporting agent
/// events and timeline notes to a `ScenarioObserver`. Runs are deterministic: the same scenario gives
/// the same events for any executor and thread count. The JSON form is in docs/formats.md
/// ("Scenario JSON"); `gameplan simulate` runs it.
///
/// Thread-safety: a runner is driven by one thread; its scripted callbacks only read per-agent data,
/// so an executor may run the think phase in parallel.

#include <gameplan/goap/agent.hpp>
#include <gameplan/goap/domain.hpp>
#include <gameplan/goap/world_state.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gameplan::goap {

/// The scripted behaviour of one action in one agent type.
struct ScenarioAction {
    std::string action;            ///< action name in the domain
    std::string behaviour;         ///< label shown in traces (empty = the action name)
    std::uint32_t ticks = 1;       ///< update() calls until the action finishes (>= 1)
    bool succeeds = true;          ///< outcome after `ticks` updates
    std::optional<double> cost;    ///< initial dynamic cost (installs a cost function)
    std::optional<bool> enabled;   ///< initial context-check result (installs a context check)
};

/// An agent type: scripted behaviours for the actions it may plan, and the actions it never plans.
struct ScenarioType {
    std::string name;
    std::vector<ScenarioAction> actions;
    std::vector<std::string> excluded;
};

/// A priority rule: when the view satisfies `when` (an empty condition always holds), the priority is
/// `value`. A goal's rules are tried in order; if none holds the goal is inactive.
struct PriorityRule {
    Condition when;
    double value = 0;
};

/// A goal of a scenario agent: fixed `priority`, or `rules` when non-empty, or the variable priority
/// `priority_scale * value(priority_var) + priority_offset` when `priority_var` is valid. `when` (empty =
/// always) and `retry` as in AgentGoal.
struct ScenarioGoal {
    std::string name;
    Condition condition;
    double priority = 0;
    std::vector<PriorityRule> rules;
    Condition when{};
    VarId priority_var{};
    double priority_scale = 1;
    double priority_offset = 0;
    RetryPolicy retry{};
};

/// An agent of a scenario.
struct ScenarioAgent {
    std::string name;                                    ///< unique within the scenario
    std::string type;                                    ///< a ScenarioType name
    WorldState state;                                    ///< private atoms and variables (shared ones ignored)
    std::vector<ScenarioGoal> goals;
    std::uint64_t max_expansions_per_tick = UINT64_MAX;  ///< node budget per tick
};

/// Kind of a timeline event. See the file overview.
enum class ScenarioEventKind : std::uint8_t { Set, Fail, Abort, Cost, Enable, Add, Expect };
/// Stable lower-case name ("set", "fail", "abort", "cost", "enable", "add", "expect").
[[nodiscard]] std::string_view to_string(ScenarioEventKind kind) noexcept;

/// One timeline event.
struct ScenarioEvent {
    std::uint64_t tick = 0;
    ScenarioEventKind kind = ScenarioEventKind::Set;
    std::string agent;              ///< agent name; empty = the world (Set on shared atoms only)
    std::vector<Literal> literals;  ///< Set: atoms and values
    /// Set: variables and their new values (op Set); Add: integer variables and signed amounts (op Add,
    /// `value` may be negative; the result is clamped to the variable's bounds).
    std::vector<NumericEffect> values;
    Condition expect{};             ///< Expect: what must hold (in the world, or the agent's live view)
    std::string action;             ///< Fail / Cost / Enable: the action name
    double value = 0;               ///< Cost: the new cost
    bool enabled = true;            ///< Enable: the new context-check result
};

/// A whole scenario. See the file overview.
struct Scenario {
    std::string name;                    ///< for messages (e.g. the file name)
    Domain domain;
    WorldState world;                    ///< initial shared atoms and variables (private ones ignored)
    std::vector<ScenarioType> types;
    std::vector<ScenarioAgent> agents;
    std::vector<ScenarioEvent> timeline; ///< in any order; applied by tick, then file order
    std::uint64_t ticks = 20;            ///< default length of a run
    Direction direction = kDefaultDirection;
};

/// Receives a scenario run's agent events (AgentObserver) and timeline notes.
class ScenarioObserver : public AgentObserver {
public:
    /// A timeline event was applied (`applied` = true, before the tick's think phase), or a `Fail`
    /// event found its action not running in that tick (`applied` = false, after the tick).
    virtual void on_timeline(const ScenarioEvent& event, bool applied) = 0;
    /// An `Expect` event was checked (after its on_timeline call): `passed`, and `actual` naming the
    /// values of the items that did not hold (e.g. `wood=3, has_axe=false`; empty when passed).
    virtual void on_expect(const ScenarioEvent& event, bool passed, std::string_view actual) {
        (void)event, (void)passed, (void)actual;
    }
};

/// A one-line English description of a timeline event, e.g. `set 安全=false` or `fail aim (ignored:
/// not running)`.
[[nodiscard]] std::string describe(const Domain& domain, const ScenarioEvent& event, bool applied);

/// Builds the agent system of a scenario and runs it. See the file overview.
class ScenarioRunner {
public:
    /// Validates `scenario` (which must outlive the runner) and builds its agents in a system made with
    /// `options`. On error `error()` says what is wrong (e.g. an unbound action) and the runner does nothing.
    explicit ScenarioRunner(const Scenario& scenario, AgentSystemOptions options = {});
    ~ScenarioRunner();
    ScenarioRunner(const ScenarioRunner&) = delete;
    ScenarioRunner& operator=(const ScenarioRunner&) = delete;

    /// Empty when the scenario is valid.
    [[nodiscard]] const std::string& error() const noexcept { return m_error; }
    /// The system (valid when error() is empty).
    [[nodiscard]] AgentSystem& system() noexcept { return *m_system; }
    /// Agent handles in scenario order.
    [[nodiscard]] const std::vector<AgentId>& agents() const noexcept { return m_agents; }
    /// The trace label of `action` for `agent` (its scripted behaviour name).
    [[nodiscard]] const std::string& behaviour_label(const Agent& agent, ActionId action) const;

    /// Sets the observer (nullptr = none).
    void set_observer(ScenarioObserver* observer) noexcept;
    /// Applies the timeline events of the current tick, then runs one tick.
    void step(Executor* executor = nullptr);
    /// Runs `ticks` ticks (0 = the scenario's `ticks`).
    void run(std::uint64_t ticks = 0, Executor* executor = nullptr);
    /// `Expect` events checked so far, and how many of them failed.
    [[nodiscard]] std::uint64_t expectations_checked() const noexcept { return m_expect_checked; }
    [[nodiscard]] std::uint64_t expectations_failed() const noexcept { return m_expect_failed; }

private:
    struct AgentData;
    std::string build(const AgentSystemOptions& options);
    void check_expectation(const ScenarioEvent& event, const Agent* agent);

    const Scenario* m_scenario;
    std::string m_error;
    std::unique_ptr<AgentSystem> m_system;
    std::vector<AgentId> m_agents;
    std::vector<std::unique_ptr<AgentData>> m_data;
    std::vector<std::size_t> m_timeline_order;
    static constexpr std::size_t kNoAgent = static_cast<std::size_t>(-1);
    std::vector<std::size_t> m_event_agent;  // per timeline event: index into agents, or kNoAgent (world)
    std::size_t m_next_event = 0;
    ScenarioObserver* m_observer = nullptr;
    std::uint64_t m_expect_checked = 0, m_expect_failed = 0;
};

/// One recorded line of a scenario trace.
struct TraceRecord {
    std::uint64_t tick = 0;
    std::string agent;           ///< agent name, or "world" for world timeline notes
    bool timeline = false;       ///< true for timeline notes
    AgentEventKind kind = AgentEventKind::Replan;  ///< agent events only
    std::string action;          ///< action name (action events), or the plan's first action
    std::string text;            ///< describe(...) plus the behaviour label for action events
};

/// A ScenarioObserver that records every event as a TraceRecord (tests, the CLI's text output).
class ScenarioTrace final : public ScenarioObserver {
public:
    /// Records events of `runner`'s scenario (needed for behaviour labels).
    explicit ScenarioTrace(const ScenarioRunner& runner, const Domain& domain) : m_runner(&runner), m_domain(&domain) {}
    void on_event(const Agent& agent, const AgentEvent& event) override;
    void on_timeline(const ScenarioEvent& event, bool applied) override;
    void on_expect(const ScenarioEvent& event, bool passed, std::string_view actual) override;
    /// Everything recorded so far.
    [[nodiscard]] const std::vector<TraceRecord>& records() const noexcept { return m_records; }
    /// Names of the actions `agent` started, in order.
    [[nodiscard]] std::vector<std::string> actions_started(std::string_view agent) const;
    /// Records of `agent` of one kind.
    [[nodiscard]] std::vector<TraceRecord> of(std::string_view agent, AgentEventKind kind) const;
    /// The whole trace as text, one `tick N  agent  text` line per record.
    [[nodiscard]] std::string text() const;

private:
    const ScenarioRunner* m_runner;
    const Domain* m_domain;
    std::vector<TraceRecord> m_records;
};

}  // namespace gameplan::goap
