#pragma once
/// @file domain.hpp
/// GOAP domains: named atoms and actions (preconditions, effects, cost), built once and then immutable.
///
/// Overview
/// --------
/// A `Domain` is a GOAP action set: STRIPS-like actions over boolean atoms. Build one with
/// a `DomainBuilder` (or load one with `gameplan::io::load_domain_json`), then share it: a built domain
/// never changes, so any number of planners on any number of threads may read it at once.
///
/// Atoms are interned by name (any UTF-8 string; names are compared byte-wise) to dense `AtomId`s in
/// the order they are first added; actions get dense `ActionId`s in declaration order. Action names
/// are unique. Costs are finite real numbers >= 0. An atom may be marked *shared* (owned by the world
/// blackboard rather than by one agent, see world_state.hpp).
///
/// Besides the per-action `Condition`s the domain keeps the flat literal lists and the *achiever*
/// index (literal -> actions whose effects set it) the planner's relevance analysis walks; literal
/// index = 2 * atom + value.
///
/// Complexity: building is O(total literals · log); lookups by name are O(log n) and never allocate.

#include <gameplan/goap/world_state.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gameplan::goap {

/// Literal index used by per-literal tables: 2 * atom + value.
[[nodiscard]] constexpr std::uint32_t literal_index(Literal literal) noexcept {
    return literal.atom.value * 2u + (literal.value ? 1u : 0u);
}

/// Why `DomainBuilder::add_action` rejected an action.
enum class DomainError : std::uint8_t {
    None,                ///< accepted
    EmptyName,           ///< the action name is empty
    DuplicateAction,     ///< another action already has this name
    InvalidCost,         ///< cost is negative, NaN or infinite
    UnknownAtom,         ///< a literal names an atom id the builder never handed out
    ConflictingLiteral,  ///< the same atom is required (or set) to both true and false
    UnknownVariable,     ///< a comparison or effect names a variable id the builder never handed out
    InvalidComparison,   ///< an ordering (`<`, `<=`, `>`, `>=`) on an enumerated variable, or a value
                         ///< that is not one of its values
    InvalidEffect,       ///< `+`/`-` on an enumerated variable, `=` outside the variable's bounds
                         ///< (or not one of its values), or a negative amount
    ConflictingEffect,   ///< two effects on the same variable
};

/// Kind of a non-boolean variable.
enum class VariableKind : std::uint8_t {
    Integer,      ///< an integer in [min, max]
    Enumeration,  ///< one of a list of named values, held as its index 0 .. count-1
};

/// Stable lower-case name of a DomainError, for messages.
[[nodiscard]] std::string_view to_string(DomainError error) noexcept;

class Domain;

/// Back-off policy of an action (or a goal): after `after_failures` failures in a row the agent runtime
/// skips it (an action: disabled for planning; a goal: left out of goal selection) for `cooldown_ticks` ticks. `after_failures` = 0 disables back-off, the
/// default for actions built in code (their behaviour is unchanged); a domain file's `"retry": {}`
/// turns it on with kDefaultRetry (3 failures, 60 ticks).
struct RetryPolicy {
    std::uint32_t after_failures = 0;   ///< consecutive failures that trigger a cool-down (0 = never)
    std::uint32_t cooldown_ticks = 60;  ///< ticks the action is skipped
    friend constexpr bool operator==(const RetryPolicy&, const RetryPolicy&) noexcept = default;
};

/// The back-off a domain file's `"retry"` object starts from: 3 failures in a row, then 60 ticks.
inline constexpr RetryPolicy kDefaultRetry{3, 60};

/// A named goal with a priority (higher = more important), as designers author them next to a domain.
/// The agent runtime pursues the highest-priority unsatisfied goal that has a plan.
struct Goal {
    std::string name;     ///< unique within its list
    Condition condition;  ///< the atoms to reach
    double priority = 0;  ///< larger first (the priority when `priority_var` is invalid)
    /// Only considered while this holds (empty = always). From a domain file's `"when"`.
    Condition when{};
    /// When valid, the priority is `priority_scale * value(priority_var) + priority_offset`, read from
    /// the state at every goal selection (a domain file's `{"variable": ..., "scale": ..., "offset": ...}`).
    VarId priority_var{};
    double priority_scale = 1;   ///< see priority_var
    double priority_offset = 0;  ///< see priority_var
    /// Goal back-off in the agent runtime (a domain file's goal `"retry"`; off by default): after
    /// `after_failures` failures in a row (no plan found, or an action of its plan failed) the goal is
    /// skipped by goal selection for `cooldown_ticks` ticks.
    RetryPolicy retry{};

    /// The priority in `state`: `priority`, or the variable-based formula.
    [[nodiscard]] double priority_in(const WorldState& state) const noexcept {
        return priority_var.valid() ? priority_scale * state.value(priority_var) + priority_offset : priority;
    }
};


/// Collects atoms and actions, then builds an immutable `Domain`. Not thread-safe; allocation is fine
/// here (building is not a per-frame operation).
class DomainBuilder {
public:
    /// Interns `name` and returns its id; adding an existing name returns the existing id. When `shared`
    /// is true the atom is marked shared (an existing atom is never un-marked). O(1) expected.
    AtomId add_atom(std::string_view name, bool shared = false);
    /// Id of `name`, or an invalid id.
    [[nodiscard]] AtomId find_atom(std::string_view name) const;
    /// Marks `atom` shared (world-owned) or private (agent-owned).
    void set_shared(AtomId atom, bool shared);

    /// Adds an integer variable with inclusive bounds [min, max]. Returns an invalid id, adding nothing,
    /// if the name is empty or already used by a variable or an atom, or max < min. O(1) expected.
    VarId add_integer_variable(std::string_view name, std::int32_t min, std::int32_t max, bool shared = false);
    /// Adds an enumerated variable taking one of `values` (non-empty, distinct). Returns an invalid id,
    /// adding nothing, on an empty or used name, no values, or a repeated value.
    VarId add_enum_variable(std::string_view name, std::span<const std::string> values, bool shared = false);
    /// Id of the variable `name`, or an invalid id.
    [[nodiscard]] VarId find_variable(std::string_view name) const;
    /// Marks `var` shared (world-owned) or private (agent-owned).
    void set_shared(VarId var, bool shared);
    /// Number of variables so far.
    [[nodiscard]] std::size_t variable_count() const noexcept { return m_vars.size(); }
    /// Sets the back-off policy of the action called `name` (default: RetryPolicy{}). False if no such action.
    bool set_retry(std::string_view action, RetryPolicy policy);
    /// Number of atoms so far.
    [[nodiscard]] std::size_t atom_count() const noexcept { return m_atom_names.size(); }
    /// Number of actions so far.
    [[nodiscard]] std::size_t action_count() const noexcept { return m_actions.size(); }

    /// Adds an action. Literals repeating an atom with the same value are merged; with opposite values
    /// the action is rejected. Returns `DomainError::None` on success; otherwise nothing is added.
    [[nodiscard]] DomainError add_action(std::string_view name, double cost, std::span<const Literal> preconditions,
                                         std::span<const Literal> effects);
    /// Adds an action with comparisons on variables among its preconditions and effects on variables.
    /// Besides the errors above: UnknownVariable, InvalidComparison, InvalidEffect, ConflictingEffect.
    [[nodiscard]] DomainError add_action(std::string_view name, double cost, std::span<const Literal> preconditions,
                                         std::span<const Literal> effects, std::span<const Comparison> comparisons,
                                         std::span<const NumericEffect> numeric_effects);
    /// Convenience overload naming atoms by string (atoms are interned as needed).
    [[nodiscard]] DomainError add_action(std::string_view name, double cost,
                                         std::initializer_list<std::pair<std::string_view, bool>> preconditions,
                                         std::initializer_list<std::pair<std::string_view, bool>> effects);

    /// Builds the domain. The builder keeps its contents and can build again.
    [[nodiscard]] Domain build() const;

private:
    struct ActionDef {
        std::string name;
        double cost;
        std::vector<Literal> preconditions;
        std::vector<Literal> effects;
        std::vector<Comparison> comparisons;
        std::vector<NumericEffect> numeric_effects;
        RetryPolicy retry;
    };
    struct VarDef {
        std::string name;
        VariableKind kind;
        std::int32_t min, max;
        std::vector<std::string> values;
        bool shared;
    };
    [[nodiscard]] bool comparison_ok(const Comparison& c) const noexcept;
    [[nodiscard]] bool effect_ok(const NumericEffect& e) const noexcept;
    std::vector<VarDef> m_vars;
    std::unordered_map<std::string, std::uint32_t> m_var_index;
    std::vector<std::string> m_atom_names;
    std::vector<bool> m_atom_shared;
    std::unordered_map<std::string, std::uint32_t> m_atom_index;
    std::vector<ActionDef> m_actions;
    std::unordered_map<std::string, std::uint32_t> m_action_index;
};

/// An immutable GOAP domain. See the file overview. Copyable and movable; all const member functions
/// are safe to call from many threads at once.
class Domain {
public:
    /// An empty domain (no atoms, no actions).
    Domain() = default;

    /// Number of atoms.
    [[nodiscard]] std::size_t atom_count() const noexcept { return m_atom_names.size(); }
    /// Name of `atom`. Precondition: valid id.
    [[nodiscard]] const std::string& atom_name(AtomId atom) const noexcept { return m_atom_names[atom.value]; }
    /// Id of the atom called `name`, or an invalid id. O(log atoms), no allocation.
    [[nodiscard]] AtomId find_atom(std::string_view name) const noexcept;
    /// True if `atom` is shared (world-owned).
    [[nodiscard]] bool is_shared(AtomId atom) const noexcept { return m_shared.test(atom); }
    /// The shared atoms as a set (use with `WorldState::assign_view`).
    [[nodiscard]] const AtomSet& shared_atoms() const noexcept { return m_shared; }

    /// Number of actions.
    [[nodiscard]] std::size_t action_count() const noexcept { return m_action_names.size(); }
    /// Name of `action`. Precondition: valid id.
    [[nodiscard]] const std::string& action_name(ActionId action) const noexcept { return m_action_names[action.value]; }
    /// Id of the action called `name`, or an invalid id. O(log actions), no allocation.
    [[nodiscard]] ActionId find_action(std::string_view name) const noexcept;
    /// Cost of `action` (finite, >= 0).
    [[nodiscard]] double action_cost(ActionId action) const noexcept { return m_costs[action.value]; }
    /// All action costs, indexed by action id (a starting point for per-call cost overrides).
    [[nodiscard]] std::span<const double> action_costs() const noexcept { return m_costs; }
    /// Preconditions of `action` as a condition.
    [[nodiscard]] const Condition& preconditions(ActionId action) const noexcept { return m_pre[action.value]; }
    /// Effects of `action` as a condition (care = atoms it sets).
    [[nodiscard]] const Condition& effects(ActionId action) const noexcept { return m_eff[action.value]; }
    /// Preconditions of `action` as a literal list, in increasing atom order.
    [[nodiscard]] std::span<const Literal> precondition_literals(ActionId action) const noexcept {
        return {m_pre_literals.data() + m_pre_offset[action.value], m_pre_literals.data() + m_pre_offset[action.value + 1]};
    }
    /// Effects of `action` as a literal list, in increasing atom order.
    [[nodiscard]] std::span<const Literal> effect_literals(ActionId action) const noexcept {
        return {m_eff_literals.data() + m_eff_offset[action.value], m_eff_literals.data() + m_eff_offset[action.value + 1]};
    }
    /// Actions whose effects set `literal`, in increasing id order.
    [[nodiscard]] std::span<const ActionId> achievers(Literal literal) const noexcept {
        const std::uint32_t l = literal_index(literal);
        return {m_achievers.data() + m_achiever_offset[l], m_achievers.data() + m_achiever_offset[l + 1]};
    }
    /// True if `state` satisfies the preconditions of `action` (atoms and comparisons; see can_apply()
    /// for the bounds of numeric effects).
    [[nodiscard]] bool applicable(ActionId action, const WorldState& state) const noexcept {
        return state.satisfies(m_pre[action.value]);
    }
    /// Total number of precondition plus effect literals over all actions.
    [[nodiscard]] std::size_t literal_total() const noexcept { return m_pre_literals.size() + m_eff_literals.size(); }

    /// Number of numeric / enumerated variables.
    [[nodiscard]] std::size_t variable_count() const noexcept { return m_var_names.size(); }
    /// True if the domain has any variable (its queries are planned by the numeric engine).
    [[nodiscard]] bool has_variables() const noexcept { return !m_var_names.empty(); }
    /// Name of `var`. Precondition: valid id.
    [[nodiscard]] const std::string& variable_name(VarId var) const noexcept { return m_var_names[var.value]; }
    /// Id of the variable called `name`, or an invalid id. O(variables), no allocation.
    [[nodiscard]] VarId find_variable(std::string_view name) const noexcept;
    /// Kind of `var`.
    [[nodiscard]] VariableKind variable_kind(VarId var) const noexcept { return m_var_kind[var.value]; }
    /// Smallest value of `var` (0 for an enumeration).
    [[nodiscard]] std::int32_t variable_min(VarId var) const noexcept { return m_var_min[var.value]; }
    /// Largest value of `var` (value count - 1 for an enumeration).
    [[nodiscard]] std::int32_t variable_max(VarId var) const noexcept { return m_var_max[var.value]; }
    /// True if `v` is within the bounds of `var`.
    [[nodiscard]] bool in_bounds(VarId var, std::int64_t v) const noexcept {
        return v >= m_var_min[var.value] && v <= m_var_max[var.value];
    }
    /// The names of an enumerated variable's values (empty for an integer variable).
    [[nodiscard]] std::span<const std::string> variable_values(VarId var) const noexcept { return m_var_values[var.value]; }
    /// Index of the value `name` of the enumerated variable `var`, or -1.
    [[nodiscard]] std::int32_t find_variable_value(VarId var, std::string_view name) const noexcept;
    /// True if `var` is shared (world-owned).
    [[nodiscard]] bool is_shared(VarId var) const noexcept { return m_var_shared[var.value] != 0; }
    /// Per variable, 1 if shared (use with `WorldState::assign_view_values`).
    [[nodiscard]] std::span<const std::uint8_t> shared_variables() const noexcept { return m_var_shared; }
    /// Effects of `action` on variables, in increasing variable order.
    [[nodiscard]] std::span<const NumericEffect> numeric_effects(ActionId action) const noexcept {
        return {m_num_eff.data() + m_num_eff_offset[action.value], m_num_eff.data() + m_num_eff_offset[action.value + 1]};
    }
    /// Back-off policy of `action`.
    [[nodiscard]] const RetryPolicy& retry_policy(ActionId action) const noexcept { return m_retry[action.value]; }
    /// True if `action` can run in `state`: its preconditions (atoms and comparisons) hold and every
    /// effect on a variable stays within its bounds. O(words + comparisons + effects).
    [[nodiscard]] bool can_apply(ActionId action, const WorldState& state) const noexcept {
        if (!state.satisfies(m_pre[action.value])) return false;
        for (const NumericEffect& e : numeric_effects(action))
            if (!in_bounds(e.var, effect_result(state.value(e.var), e))) return false;
        return true;
    }
    /// Applies the effects of `action` to `state` (atoms and variables, all computed from the state
    /// before). Variables are clamped to their bounds (only relevant when can_apply() was false).
    void apply(ActionId action, WorldState& state) const noexcept {
        state.apply(m_eff[action.value]);
        for (const NumericEffect& e : numeric_effects(action)) {
            const std::int64_t v = effect_result(state.value(e.var), e);
            state.set_value(e.var, static_cast<std::int32_t>(std::clamp<std::int64_t>(v, m_var_min[e.var.value], m_var_max[e.var.value])));
        }
    }

    /// A state over this domain's atoms (all false) and variables (each at its minimum: an enumeration
    /// at its first value).
    [[nodiscard]] WorldState make_state() const {
        WorldState s(atom_count(), variable_count());
        for (std::size_t i = 0; i < m_var_min.size(); ++i) s.set_value(VarId(static_cast<std::uint32_t>(i)), m_var_min[i]);
        return s;
    }
    /// An empty condition over this domain's atoms.
    [[nodiscard]] Condition make_condition() const { return Condition(atom_count()); }
    /// An empty atom set over this domain's atoms.
    [[nodiscard]] AtomSet make_atom_set() const { return AtomSet(atom_count()); }

private:
    friend class DomainBuilder;

    std::vector<std::string> m_atom_names;
    std::vector<std::uint32_t> m_atoms_by_name;  // atom ids sorted by name, for find_atom
    AtomSet m_shared;
    std::vector<std::string> m_action_names;
    std::vector<std::uint32_t> m_actions_by_name;
    std::vector<double> m_costs;
    std::vector<Condition> m_pre;
    std::vector<Condition> m_eff;
    // Flat literal lists, CSR by action (offsets have action_count + 1 entries).
    std::vector<Literal> m_pre_literals;
    std::vector<std::uint32_t> m_pre_offset;
    std::vector<Literal> m_eff_literals;
    std::vector<std::uint32_t> m_eff_offset;
    // Achievers, CSR by literal index (offsets have 2 * atom_count + 1 entries).
    std::vector<ActionId> m_achievers;
    std::vector<std::uint32_t> m_achiever_offset;
    // Variables.
    std::vector<std::string> m_var_names;
    std::vector<VariableKind> m_var_kind;
    std::vector<std::int32_t> m_var_min, m_var_max;
    std::vector<std::vector<std::string>> m_var_values;
    std::vector<std::uint8_t> m_var_shared;
    std::vector<NumericEffect> m_num_eff;
    std::vector<std::uint32_t> m_num_eff_offset;
    std::vector<RetryPolicy> m_retry;
};

}  // namespace gameplan::goap
