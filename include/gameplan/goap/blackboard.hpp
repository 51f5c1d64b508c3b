#pragma once
/// @file blackboard.hpp
/// The world blackboard: the values of a domain's *shared* atoms, owned by the world, read by every agent.
///
/// Overview
/// --------
/// The runtime splits a GOAP world state in two: atoms marked *shared* in the domain (time of day, "the
/// supermarket is open", "the player is dead") belong to the world; every other atom is *private* to
/// one agent ("I am hungry", "my aim is ready"). An agent plans over its *view* = the world's shared
/// atoms + its own private atoms (`WorldState::assign_view`).
///
/// A `Blackboard` holds the shared half. Its state is a full `WorldState` over the domain's atoms in
/// which the private atoms are always false, so a view is one word-wise merge. Every write that changes
/// a value bumps `version()`; agents compare versions to notice, in O(1), that the world moved since
/// their last tick (and do nothing at all when it did not).
///
/// Thread-safety: plain value semantics. Reads from many threads are safe while nobody writes;
/// `AgentSystem` only reads it from worker threads during its think phase and writes it from the
/// calling thread during the act phase (see agent.hpp).

#include <gameplan/goap/domain.hpp>
#include <gameplan/goap/world_state.hpp>

#include <cstdint>
#include <string_view>

namespace gameplan::goap {

/// The world's shared atoms. See the file overview.
class Blackboard {
public:
    /// A blackboard for `domain` (which must outlive it) with every shared atom false.
    explicit Blackboard(const Domain& domain) : m_domain(&domain), m_state(domain.make_state()) {}

    /// The domain whose shared atoms this blackboard holds.
    [[nodiscard]] const Domain& domain() const noexcept { return *m_domain; }
    /// The shared atoms' values as a full state (private atoms always false).
    [[nodiscard]] const WorldState& state() const noexcept { return m_state; }
    /// Value of a shared atom (false for private or invalid atoms).
    [[nodiscard]] bool get(AtomId atom) const noexcept {
        return atom.valid() && atom.value < m_state.atom_count() && m_state.get(atom);
    }

    /// Sets a shared atom. Returns false, writing nothing, if `atom` is invalid or not shared (private
    /// atoms belong to agents: use `Agent::set`). Bumps version() when the value changes. O(1).
    [[nodiscard]] bool set(AtomId atom, bool value) noexcept {
        if (!atom.valid() || atom.value >= m_state.atom_count() || !m_domain->is_shared(atom)) return false;
        if (m_state.get(atom) != value) {
            m_state.set(atom, value);
            ++m_version;
        }
        return true;
    }
    /// Sets the shared atom called `name`; false if there is none. O(log atoms), no allocation.
    [[nodiscard]] bool set(std::string_view name, bool value) noexcept { return set(m_domain->find_atom(name), value); }

    /// Value of a shared variable (its minimum for private or invalid variables: the world does not hold those).
    [[nodiscard]] std::int32_t value(VarId var) const noexcept {
        return var.valid() && var.value < m_state.var_count() ? m_state.value(var) : 0;
    }
    /// Sets a shared variable. Returns false, writing nothing, if `var` is invalid, not shared, or
    /// `value` is outside its bounds. Bumps version() when the value changes. O(1).
    [[nodiscard]] bool set_value(VarId var, std::int32_t value) noexcept {
        if (!var.valid() || var.value >= m_state.var_count() || !m_domain->is_shared(var) || !m_domain->in_bounds(var, value))
            return false;
        if (m_state.value(var) != value) {
            m_state.set_value(var, value);
            ++m_version;
        }
        return true;
    }

    /// Copies the shared atoms of `source` (a view over the same domain), e.g. after an action's effects
    /// were applied to a view. Bumps version() if anything changed. O(words), no allocation.
    void assign_shared(const WorldState& source) noexcept {
        const auto dst = m_state.mutable_words();
        const auto src = source.words();
        const auto mask = m_domain->shared_atoms().words();
        bool changed = false;
        for (std::size_t w = 0; w < dst.size(); ++w) {
            const std::uint64_t v = (dst[w] & ~mask[w]) | (src[w] & mask[w]);
            changed |= v != dst[w];
            dst[w] = v;
        }
        if (m_state.var_count() == source.var_count() && m_state.var_count() > 0)
            changed |= m_state.assign_values_masked(source, m_domain->shared_variables());
        if (changed) ++m_version;
    }

    /// Change counter: increases whenever a shared value changes (never when a write leaves it equal).
    [[nodiscard]] std::uint64_t version() const noexcept { return m_version; }

    /// For restoring a saved game (`AgentSystem::restore_state`): takes the shared values of `state` (a
    /// full state over the domain) and the saved version counter. O(words + variables).
    void restore(const WorldState& state, std::uint64_t version) {
        m_state = state;
        m_version = version;
    }

private:
    const Domain* m_domain;
    WorldState m_state;
    std::uint64_t m_version = 0;
};

}  // namespace gameplan::goap
