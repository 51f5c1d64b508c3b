#pragma once
/// @file behaviour.hpp
/// Agent types: the behaviours, context checks and dynamic costs one kind of agent binds to a domain's
/// action names.
///
/// Overview
/// --------
/// A domain is an action *set*: names, preconditions, effects, costs. It says nothing about what an
/// action does in the game. The runtime binds each action *name* to a behaviour function per agent type,
/// so one action set serves many kinds of agent: "attack" is a bow shot for an archer and a rifle shot
/// for a gunner. An `AgentType` is that binding, built once with an `AgentTypeBuilder` and shared (by
/// `std::shared_ptr`) by every agent of the type.
///
/// Per action name a type gives:
/// - a **behaviour** (required for every action the type may plan): `update` is called once per tick
///   while the action runs and returns `Running`, `Success` or `Failure`; optional `start` runs once
///   before the first update, optional `abort` when the runtime stops the action early (see
///   `AbortReason`). Behaviours run on the thread that calls `AgentSystem::tick`, one agent after the
///   other, so they may touch game state freely.
/// - an optional **context check** (a "usability check": is there a tree within reach?). It
///   runs (1) once per planning call, for each action relevant to the goal being planned, before the
///   search (false = the planner may not use the action in this call), and (2) once more in the tick
///   the action is about to start, unless its plan was found in that same tick (false = the plan is
///   dropped and the agent replans with trigger `PreconditionsFailed`).
/// - an optional **cost function** (e.g. the walking distance to the nearest tree). It runs only in
///   (1), once per planning call for each relevant action, and replaces the domain's cost for that
///   call. A result that is not a finite number >= 0 (e.g. +infinity for "no tree at all") disables the
///   action for that call.
///
/// "Relevant" means backward-reachable from the goal through achievers (an action that sets a goal
/// literal, or a precondition literal of a relevant action); other actions can never be part of an
/// optimal plan, so their callbacks are not called. The planner then searches with exactly the
/// enable mask and costs the callbacks produced, and its result is optimal for those costs. Context
/// checks and cost functions may run on executor worker threads (`AgentSystem::tick` with an
/// `Executor`), concurrently for different agents: they must only read shared game data.
///
/// Binding errors are caught when the type is built, never at run time: binding a name the domain does
/// not have, binding one name twice, or leaving an action the type may plan without a behaviour. An
/// action the type must never plan is `exclude`d (it then needs no behaviour, and the planner never
/// sees it for agents of this type).
///
/// Thread-safety: an `AgentType` is immutable after `build()`; its callbacks are called by the runtime
/// as described above.

#include <gameplan/goap/domain.hpp>
#include <gameplan/goap/world_state.hpp>

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace gameplan::goap {

class Agent;
class Blackboard;

/// What a behaviour's `update` reports for the current tick.
enum class ActionStatus : std::uint8_t {
    Running,  ///< not finished: call again next tick
    Success,  ///< finished: the runtime applies the action's effects and moves to the next action
    Failure,  ///< failed: the runtime drops the plan and replans (trigger `ActionFailed`)
};

/// Why the runtime stopped a running action before its behaviour finished it.
enum class AbortReason : std::uint8_t {
    External,           ///< `Agent::abort()` was called
    Replaced,           ///< a replan chose a plan that does not continue with this action
    GoalReached,        ///< the goal became satisfied by a change in the world (someone else did it)
    PreconditionsLost,  ///< the action's own preconditions stopped holding in the agent's view
    NoPlan,             ///< a replan found no achievable goal: the agent goes idle
    Removed,            ///< the agent was removed from its system
};

/// Stable snake_case name ("external", "replaced", ...).
[[nodiscard]] std::string_view to_string(AbortReason reason) noexcept;
/// Stable snake_case name ("running", "success", "failure").
[[nodiscard]] std::string_view to_string(ActionStatus status) noexcept;

/// What a behaviour sees while it runs. Valid for the duration of the call only.
struct ActionContext {
    Agent& agent;               ///< the agent running the action (private state, user data, abort())
    Blackboard& world;          ///< the world's shared atoms; behaviours may write them (game events)
    ActionId action;            ///< the action being run
    const WorldState& view;     ///< the agent's live view (world shared + private atoms) at this call
    std::uint64_t tick;         ///< the system's tick number
    std::uint64_t ticks_running;  ///< number of earlier update() calls of this run (0 on the first)
    void* user_data;            ///< the agent's user data pointer (AgentParams::user_data)
};

/// What a context check, cost function or goal priority function sees. Valid for the call only.
struct PlanningContext {
    const Agent& agent;      ///< the agent being planned for
    const WorldState& view;  ///< its view (world shared + private atoms) for this planning call
    ActionId action;         ///< the action being checked or costed (invalid for goal priorities)
    std::uint32_t goal;      ///< index of the goal being planned or evaluated (in the agent's goal list)
    std::uint64_t tick;      ///< the system's tick number
    void* user_data;         ///< the agent's user data pointer
};

/// What a sensor sees: the agent (write its private atoms and variables with `Agent::set` /
/// `Agent::set_value`), the world (read only), the tick and the user data. Valid for the call only.
struct SensorContext {
    Agent& agent;             ///< the agent being updated
    const Blackboard& world;  ///< the world's shared atoms and variables (read only during the think phase)
    std::uint64_t tick;       ///< the system's tick number
    void* user_data;          ///< the agent's user data pointer
};

/// A sensor: copies what the game knows (ammo left, "the player is in sight") into the agent's private
/// atoms and variables before it decides. Runs at the start of the agent's think phase (possibly on an
/// executor worker thread, concurrently for different agents), every `period` ticks. A change it writes
/// feeds the replan triggers exactly as any other change of the agent's view.
using SensorFunction = std::function<void(SensorContext&)>;

/// A sensor with its period in ticks (1 = every tick).
struct Sensor {
    std::string name;          ///< for traces
    SensorFunction fn;         ///< the function
    std::uint32_t period = 1;  ///< runs on ticks where tick % period == 0 (0 is treated as 1)
};

/// Procedural precondition: may the action be used now? See the file overview for when it runs.
using ContextCheck = std::function<bool(const PlanningContext&)>;
/// Dynamic cost of an action for one planning call. See the file overview for when it runs.
using CostFunction = std::function<double(const PlanningContext&)>;

/// The game-side implementation of one action for one agent type. `update` is required.
struct Behaviour {
    /// Called once per tick while the action runs (first call in the tick it starts).
    std::function<ActionStatus(ActionContext&)> update;
    /// Optional: called once when the action starts, before the first update.
    std::function<void(ActionContext&)> start;
    /// Optional: called when the runtime stops the action early (never after Success/Failure).
    std::function<void(ActionContext&, AbortReason)> abort;

    Behaviour() = default;
    /// A behaviour from an update callable (start/abort may be set afterwards).
    template <class Update>
        requires std::is_invocable_r_v<ActionStatus, Update&, ActionContext&>
    Behaviour(Update update_fn) : update(std::move(update_fn)) {}  // NOLINT: implicit on purpose
};

/// Kind of a binding error.
enum class BindErrorKind : std::uint8_t {
    None,            ///< no error
    UnknownAction,   ///< the domain has no action of this name
    AlreadyBound,    ///< the name was already given a behaviour / check / cost in this builder
    EmptyBehaviour,  ///< the behaviour has no update function
    Excluded,        ///< a behaviour, check or cost was given for an excluded action (or it was excluded twice)
    Unbound,         ///< the type may plan this action but no behaviour was bound to it
};

/// Stable snake_case name ("unknown_action", ...).
[[nodiscard]] std::string_view to_string(BindErrorKind kind) noexcept;

/// One binding error: its kind and the action name concerned.
struct BindError {
    BindErrorKind kind = BindErrorKind::None;
    std::string action;
};

class AgentType;

/// Result of `AgentTypeBuilder::build()`: the type, or the list of errors (then `type` is null).
struct BindResult {
    std::shared_ptr<const AgentType> type;  ///< null when errors is non-empty
    std::vector<BindError> errors;          ///< every error, in the order they were made / found
    /// True when the type was built.
    [[nodiscard]] bool ok() const noexcept { return type != nullptr; }
    /// One line per error, e.g. `action 'atack': unknown_action (the domain has no such action)`.
    [[nodiscard]] std::string message() const;
};

/// The behaviours, checks and costs of one kind of agent. Immutable; build with `AgentTypeBuilder`.
class AgentType {
public:
    /// The domain the type was bound against (it must outlive the type).
    [[nodiscard]] const Domain& domain() const noexcept { return *m_domain; }
    /// The type's name (for messages).
    [[nodiscard]] const std::string& name() const noexcept { return m_name; }
    /// True if agents of this type may plan `action` (bound and not excluded).
    [[nodiscard]] bool plannable(ActionId action) const noexcept { return m_enabled[action.value] != 0; }
    /// The behaviour bound to `action`, or nullptr for excluded actions.
    [[nodiscard]] const Behaviour* behaviour(ActionId action) const noexcept {
        return m_enabled[action.value] ? &m_behaviours[action.value] : nullptr;
    }
    /// The context check of `action` (empty function when none).
    [[nodiscard]] const ContextCheck& check(ActionId action) const noexcept { return m_checks[action.value]; }
    /// The cost function of `action` (empty function when none).
    [[nodiscard]] const CostFunction& cost(ActionId action) const noexcept { return m_costs[action.value]; }
    /// True if any action has a context check or cost function.
    [[nodiscard]] bool has_callbacks() const noexcept { return m_has_callbacks; }
    /// One byte per action, 1 = plannable: the static part of the planner's enable mask.
    [[nodiscard]] std::span<const std::uint8_t> plannable_mask() const noexcept { return m_enabled; }
    /// True if every action of the domain is plannable (the planner then needs no static mask).
    [[nodiscard]] bool all_plannable() const noexcept { return m_all_plannable; }
    /// The sensors, in the order they were added (and run).
    [[nodiscard]] std::span<const Sensor> sensors() const noexcept { return m_sensors; }

private:
    friend class AgentTypeBuilder;
    AgentType() = default;

    const Domain* m_domain = nullptr;
    std::string m_name;
    std::vector<Behaviour> m_behaviours;  // by action id
    std::vector<ContextCheck> m_checks;
    std::vector<CostFunction> m_costs;
    std::vector<std::uint8_t> m_enabled;
    bool m_has_callbacks = false;
    bool m_all_plannable = true;
    std::vector<Sensor> m_sensors;
};

/// Binds action names of a domain to behaviours, checks and costs; `build()` validates the whole type.
/// Every setter returns the error it detected (or None) and also records it, so `build()` reports all
/// errors even when the caller ignored the return values. Not thread-safe; allocation is fine here.
class AgentTypeBuilder {
public:
    /// A builder for agents of type `name` over `domain` (which must outlive the built type).
    AgentTypeBuilder(const Domain& domain, std::string name);

    /// Binds `behaviour` to the action called `action`.
    BindErrorKind bind(std::string_view action, Behaviour behaviour);
    /// Gives `action` a context check (procedural precondition).
    BindErrorKind set_check(std::string_view action, ContextCheck check);
    /// Gives `action` a dynamic cost function.
    BindErrorKind set_cost(std::string_view action, CostFunction cost);
    /// Declares that agents of this type never plan `action` (it then needs no behaviour).
    BindErrorKind exclude(std::string_view action);
    /// Adds a sensor run every `period_ticks` ticks (see SensorFunction). Sensors run in the order added.
    void add_sensor(std::string name, SensorFunction sensor, std::uint32_t period_ticks = 1) {
        m_sensors.push_back(Sensor{std::move(name), std::move(sensor), period_ticks == 0 ? 1u : period_ticks});
    }

    /// Builds the type, or reports every error (unknown names, duplicates, unbound plannable actions in
    /// action id order). The builder keeps its contents.
    [[nodiscard]] BindResult build() const;

private:
    BindErrorKind record(BindErrorKind kind, std::string_view action);

    const Domain* m_domain;
    std::string m_name;
    std::vector<Sensor> m_sensors;
    std::vector<Behaviour> m_behaviours;
    std::vector<ContextCheck> m_checks;
    std::vector<CostFunction> m_costs;
    std::vector<std::uint8_t> m_bound;
    std::vector<std::uint8_t> m_excluded;
    std::vector<BindError> m_errors;
};

}  // namespace gameplan::goap
