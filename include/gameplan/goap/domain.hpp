#pragma once
/// @file domain.hpp
/// GOAP domains: named atoms and actions (preconditions, effects, cost), built once and then immutable.
///
/// Overview
/// --------
/// A `Domain` is the action set of seed 000/001: STRIPS-like actions over boolean atoms. Build one with
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
};

/// Stable lower-case name of a DomainError, for messages.
[[nodiscard]] std::string_view to_string(DomainError error) noexcept;

class Domain;

/// A named goal with a priority (higher = more important), as designers author them next to a domain.
/// The agent runtime pursues the highest-priority unsatisfied goal that has a plan.
struct Goal {
    std::string name;     ///< unique within its list
    Condition condition;  ///< the atoms to reach
    double priority = 0;  ///< larger first
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
    /// Number of atoms so far.
    [[nodiscard]] std::size_t atom_count() const noexcept { return m_atom_names.size(); }
    /// Number of actions so far.
    [[nodiscard]] std::size_t action_count() const noexcept { return m_actions.size(); }

    /// Adds an action. Literals repeating an atom with the same value are merged; with opposite values
    /// the action is rejected. Returns `DomainError::None` on success; otherwise nothing is added.
    [[nodiscard]] DomainError add_action(std::string_view name, double cost, std::span<const Literal> preconditions,
                                         std::span<const Literal> effects);
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
    };
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
    /// True if `state` satisfies the preconditions of `action`.
    [[nodiscard]] bool applicable(ActionId action, const WorldState& state) const noexcept {
        return state.satisfies(m_pre[action.value]);
    }
    /// Total number of precondition plus effect literals over all actions.
    [[nodiscard]] std::size_t literal_total() const noexcept { return m_pre_literals.size() + m_eff_literals.size(); }

    /// A state over this domain's atoms, all false.
    [[nodiscard]] WorldState make_state() const { return WorldState(atom_count()); }
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
};

}  // namespace gameplan::goap
