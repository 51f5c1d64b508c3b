#pragma once
/// @file world_state.hpp
/// GOAP world states and conditions as fixed-width bit sets.
///
/// Overview
/// --------
/// A GOAP domain names a set of boolean *atoms* ("hungry", "安全区内", ...) and interns each name once to
/// a dense `AtomId`. Everything the planner reasons about is then a set of bits over those ids:
///
/// - `AtomSet`: a set of atoms (one bit per atom). Used for masks, e.g. the domain's *shared* atoms.
/// - `WorldState`: the value of every atom (bit set = true). A complete assignment.
/// - `Condition`: a partial assignment as a *care* mask plus *values* (values ⊆ care). Preconditions,
///   effects and goals are conditions; atoms outside `care` are "don't care" (preconditions, goals) or
///   "unchanged" (effects).
///
/// There is no limit on the number of atoms: a set holds ceil(atoms / 64) 64-bit words, sized once when
/// it is created for a domain (`Domain::make_state()` etc.). Operations on sets of the same size never
/// allocate; copy-assigning a set to one of the same size reuses its storage. Bits past the last atom are
/// always zero, so two sets of one domain compare equal exactly when their atoms do.
///
/// Shared and private atoms: a world blackboard owns the *shared* atoms, each agent owns its
/// *private* ones, and the agent plans over its *view* = the world's shared atoms + its private atoms.
/// `WorldState::assign_view` builds that view; `WorldState::assign_masked` writes a view's atoms back to
/// the owner after effects were applied.
///
/// Thread-safety: plain values. Concurrent reads are safe; writes need exclusive access.

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

namespace gameplan::goap {

/// Dense index of an atom within its domain. Default-constructed ids are invalid.
struct AtomId {
    /// The invalid id's value.
    static constexpr std::uint32_t kInvalid = UINT32_MAX;
    /// Dense index (declaration order); kInvalid when invalid.
    std::uint32_t value = kInvalid;

    /// The invalid id.
    constexpr AtomId() noexcept = default;
    /// The id with index `v` (explicit: no implicit integer conversion).
    constexpr explicit AtomId(std::uint32_t v) noexcept : value(v) {}
    /// True unless this is the invalid id.
    [[nodiscard]] constexpr bool valid() const noexcept { return value != kInvalid; }
    friend constexpr bool operator==(AtomId, AtomId) noexcept = default;
    friend constexpr auto operator<=>(AtomId, AtomId) noexcept = default;
};

/// Dense index of an action within its domain (declaration order). Default-constructed ids are invalid.
struct ActionId {
    /// The invalid id's value.
    static constexpr std::uint32_t kInvalid = UINT32_MAX;
    /// Dense index (declaration order); kInvalid when invalid.
    std::uint32_t value = kInvalid;

    /// The invalid id.
    constexpr ActionId() noexcept = default;
    /// The id with index `v` (explicit: no implicit integer conversion).
    constexpr explicit ActionId(std::uint32_t v) noexcept : value(v) {}
    /// True unless this is the invalid id.
    [[nodiscard]] constexpr bool valid() const noexcept { return value != kInvalid; }
    friend constexpr bool operator==(ActionId, ActionId) noexcept = default;
    friend constexpr auto operator<=>(ActionId, ActionId) noexcept = default;
};

/// One atom with a required or assigned value: `atom = value`.
struct Literal {
    AtomId atom;        ///< the atom
    bool value = true;  ///< its required or assigned value
    friend constexpr bool operator==(const Literal&, const Literal&) noexcept = default;
};

/// Dense index of a numeric or enumerated variable within its domain (declaration order).
/// Default-constructed ids are invalid.
struct VarId {
    /// The invalid id's value.
    static constexpr std::uint32_t kInvalid = UINT32_MAX;
    /// Dense index; kInvalid when invalid.
    std::uint32_t value = kInvalid;

    /// The invalid id.
    constexpr VarId() noexcept = default;
    /// The id with index `v` (explicit: no implicit integer conversion).
    constexpr explicit VarId(std::uint32_t v) noexcept : value(v) {}
    /// True unless this is the invalid id.
    [[nodiscard]] constexpr bool valid() const noexcept { return value != kInvalid; }
    friend constexpr bool operator==(VarId, VarId) noexcept = default;
    friend constexpr auto operator<=>(VarId, VarId) noexcept = default;
};

/// Comparison operator of a numeric condition. Enumerated variables allow only `Eq` and `Ne`.
enum class CompareOp : std::uint8_t {
    Eq,  ///< `==`
    Ne,  ///< `!=`
    Lt,  ///< `<`
    Le,  ///< `<=`
    Gt,  ///< `>`
    Ge,  ///< `>=`
};

/// A condition on one variable: `var op value`. For an enumerated variable `value` is the index of one
/// of its values (declaration order).
struct Comparison {
    VarId var;                    ///< the variable
    CompareOp op = CompareOp::Eq; ///< the operator
    std::int32_t value = 0;       ///< the constant it is compared with
    friend constexpr bool operator==(const Comparison&, const Comparison&) noexcept = default;
};

/// True if `lhs op rhs`. O(1).
[[nodiscard]] constexpr bool compare(std::int32_t lhs, CompareOp op, std::int32_t rhs) noexcept {
    switch (op) {
        case CompareOp::Eq: return lhs == rhs;
        case CompareOp::Ne: return lhs != rhs;
        case CompareOp::Lt: return lhs < rhs;
        case CompareOp::Le: return lhs <= rhs;
        case CompareOp::Gt: return lhs > rhs;
        case CompareOp::Ge: return lhs >= rhs;
    }
    return false;
}

/// Operator of a numeric effect. Enumerated variables allow only `Set`.
enum class EffectOp : std::uint8_t {
    Set,  ///< `=`: the variable becomes `value`
    Add,  ///< `+`: the variable grows by `value`
    Sub,  ///< `-`: the variable shrinks by `value`
};

/// An effect on one variable, computed from the state *before* the action. An action whose effect would
/// take a variable outside its bounds is not applicable in that state.
struct NumericEffect {
    VarId var;                   ///< the variable
    EffectOp op = EffectOp::Set; ///< the operator
    std::int32_t value = 0;      ///< the constant (an enumerated value's index for `Set`)
    friend constexpr bool operator==(const NumericEffect&, const NumericEffect&) noexcept = default;
};

/// The value `effect` gives a variable whose value before the action is `before` (64-bit, so that
/// the caller can check bounds without overflow). O(1).
[[nodiscard]] constexpr std::int64_t effect_result(std::int32_t before, const NumericEffect& effect) noexcept {
    switch (effect.op) {
        case EffectOp::Set: return effect.value;
        case EffectOp::Add: return std::int64_t{before} + effect.value;
        case EffectOp::Sub: return std::int64_t{before} - effect.value;
    }
    return before;
}

/// Number of 64-bit words needed for `atom_count` atoms.
[[nodiscard]] constexpr std::size_t words_for_atoms(std::size_t atom_count) noexcept { return (atom_count + 63) / 64; }

/// A set of atoms of one domain (one bit per atom). See the file overview.
class AtomSet {
public:
    /// An empty set for zero atoms.
    AtomSet() = default;
    /// An empty set able to hold atoms [0, atom_count). Allocates ceil(atom_count / 64) words.
    explicit AtomSet(std::size_t atom_count) : m_atoms(atom_count), m_words(words_for_atoms(atom_count), 0) {}

    /// Number of atoms the set ranges over (not the number of members; see `count()`).
    [[nodiscard]] std::size_t atom_count() const noexcept { return m_atoms; }
    /// Number of 64-bit words of storage.
    [[nodiscard]] std::size_t word_count() const noexcept { return m_words.size(); }
    /// The storage words; bit (i % 64) of word (i / 64) is atom i. Bits past atom_count() are zero.
    [[nodiscard]] std::span<const std::uint64_t> words() const noexcept { return m_words; }

    /// Membership of `atom`. Precondition: atom.value < atom_count(). O(1).
    [[nodiscard]] bool test(AtomId atom) const noexcept { return (m_words[atom.value >> 6] >> (atom.value & 63)) & 1u; }
    /// Adds (`on` = true) or removes `atom`. Precondition: atom.value < atom_count(). O(1).
    void set(AtomId atom, bool on = true) noexcept {
        const std::uint64_t bit = std::uint64_t{1} << (atom.value & 63);
        if (on) m_words[atom.value >> 6] |= bit;
        else m_words[atom.value >> 6] &= ~bit;
    }
    /// Removes `atom`. O(1).
    void reset(AtomId atom) noexcept { set(atom, false); }
    /// Removes every atom. O(words).
    void clear() noexcept { std::fill(m_words.begin(), m_words.end(), std::uint64_t{0}); }
    /// Number of members. O(words).
    [[nodiscard]] std::size_t count() const noexcept {
        std::size_t n = 0;
        for (const std::uint64_t w : m_words) n += static_cast<std::size_t>(std::popcount(w));
        return n;
    }
    /// True if the set has no member. O(words).
    [[nodiscard]] bool empty() const noexcept {
        for (const std::uint64_t w : m_words)
            if (w) return false;
        return true;
    }
    /// Calls `fn(AtomId)` for each member in increasing id order.
    template <class Fn>
    void for_each(Fn&& fn) const {
        for (std::size_t w = 0; w < m_words.size(); ++w)
            for (std::uint64_t bits = m_words[w]; bits; bits &= bits - 1)
                fn(AtomId(static_cast<std::uint32_t>(w * 64 + static_cast<std::size_t>(std::countr_zero(bits)))));
    }

    /// Same atom count and same members.
    friend bool operator==(const AtomSet& a, const AtomSet& b) noexcept {
        return a.m_atoms == b.m_atoms && a.m_words == b.m_words;
    }

    /// Mutable storage, for code that builds sets word by word. Callers must keep bits past
    /// atom_count() zero.
    [[nodiscard]] std::span<std::uint64_t> mutable_words() noexcept { return m_words; }

private:
    std::size_t m_atoms = 0;
    std::vector<std::uint64_t> m_words;
};

class Condition;

/// A complete assignment: the value of every atom of a domain (member = true). See the file overview.
class WorldState {
public:
    /// A state over zero atoms.
    WorldState() = default;
    /// A state over atoms [0, atom_count), all false. Allocates ceil(atom_count / 64) words.
    explicit WorldState(std::size_t atom_count) : m_bits(atom_count) {}
    /// A state over atoms [0, atom_count), all false, and `var_count` variables, all 0. Prefer
    /// `Domain::make_state()`, which starts every variable at its minimum (first value).
    WorldState(std::size_t atom_count, std::size_t var_count) : m_bits(atom_count), m_vars(var_count, 0) {}

    /// Number of atoms the state assigns.
    [[nodiscard]] std::size_t atom_count() const noexcept { return m_bits.atom_count(); }
    /// Number of 64-bit words of storage.
    [[nodiscard]] std::size_t word_count() const noexcept { return m_bits.word_count(); }
    /// The storage words (bit i = atom i is true).
    [[nodiscard]] std::span<const std::uint64_t> words() const noexcept { return m_bits.words(); }
    /// The true atoms as a set.
    [[nodiscard]] const AtomSet& true_atoms() const noexcept { return m_bits; }

    /// Value of `atom`. Precondition: atom.value < atom_count(). O(1).
    [[nodiscard]] bool get(AtomId atom) const noexcept { return m_bits.test(atom); }
    /// Sets `atom` to `value`. O(1).
    void set(AtomId atom, bool value) noexcept { m_bits.set(atom, value); }
    /// Sets every atom to false (variables are left alone). O(words).
    void clear() noexcept { m_bits.clear(); }

    /// Number of numeric / enumerated variables the state assigns.
    [[nodiscard]] std::size_t var_count() const noexcept { return m_vars.size(); }
    /// Value of `var` (an enumerated variable's value index). Precondition: var.value < var_count(). O(1).
    [[nodiscard]] std::int32_t value(VarId var) const noexcept { return m_vars[var.value]; }
    /// Sets `var`. No bounds check (the domain knows the bounds: `Domain::in_bounds`). O(1).
    void set_value(VarId var, std::int32_t v) noexcept { m_vars[var.value] = v; }
    /// All variable values, by variable id.
    [[nodiscard]] std::span<const std::int32_t> values() const noexcept { return m_vars; }
    /// Mutable variable values, by variable id.
    [[nodiscard]] std::span<std::int32_t> mutable_values() noexcept { return m_vars; }

    /// True if every atom `condition` cares about has the required value and every comparison holds.
    /// Sizes must match. O(words + comparisons).
    [[nodiscard]] bool satisfies(const Condition& condition) const noexcept;
    /// Applies `effects`: atoms in its care mask take its values, others are unchanged. Sizes must match.
    /// O(words).
    void apply(const Condition& effects) noexcept;

    /// Copies the atoms in `mask` from `source`, leaving the others. Sizes must match. O(words).
    /// Typical use: after an agent's effects changed its view, write the shared atoms back to the world
    /// (`world.assign_masked(view, shared)`).
    void assign_masked(const WorldState& source, const AtomSet& mask) noexcept;
    /// Copies the atoms *not* in `mask` from `source` (the private atoms when `mask` is the shared set).
    void assign_unmasked(const WorldState& source, const AtomSet& mask) noexcept;
    /// The runtime's merge: this = the world's shared atoms + the agent's private atoms, i.e.
    /// `(world & shared) | (agent & ~shared)`. Sizes must match; never allocates. O(words).
    void assign_view(const WorldState& world, const WorldState& agent, const AtomSet& shared) noexcept;
    /// The same for variables: variable i comes from `world` if `shared_vars[i]` is non-zero, otherwise
    /// from `agent` (`Domain::shared_variables()`). Sizes must match; never allocates. O(variables).
    void assign_view_values(const WorldState& world, const WorldState& agent,
                            std::span<const std::uint8_t> shared_vars) noexcept {
        for (std::size_t i = 0; i < m_vars.size(); ++i) m_vars[i] = shared_vars[i] ? world.m_vars[i] : agent.m_vars[i];
    }
    /// Copies the variables with non-zero `mask[i]` from `source` (or, with `invert`, the others).
    /// Returns true if any value changed. O(variables).
    bool assign_values_masked(const WorldState& source, std::span<const std::uint8_t> mask, bool invert = false) noexcept {
        bool changed = false;
        for (std::size_t i = 0; i < m_vars.size(); ++i)
            if ((mask[i] != 0) != invert && m_vars[i] != source.m_vars[i]) {
                m_vars[i] = source.m_vars[i];
                changed = true;
            }
        return changed;
    }

    /// Same atom count, same atom values and same variable values.
    friend bool operator==(const WorldState& a, const WorldState& b) noexcept {
        return a.m_bits == b.m_bits && a.m_vars == b.m_vars;
    }

    /// Mutable storage words. Callers must keep bits past atom_count() zero.
    [[nodiscard]] std::span<std::uint64_t> mutable_words() noexcept { return m_bits.mutable_words(); }

private:
    AtomSet m_bits;
    std::vector<std::int32_t> m_vars;
};

/// A partial assignment (values + care). See the file overview.
class Condition {
public:
    /// A condition over zero atoms (satisfied by everything).
    Condition() = default;
    /// An empty condition ("don't care" everywhere) over atoms [0, atom_count).
    explicit Condition(std::size_t atom_count) : m_care(atom_count), m_values(atom_count) {}

    /// Number of atoms the condition ranges over.
    [[nodiscard]] std::size_t atom_count() const noexcept { return m_care.atom_count(); }
    /// Number of 64-bit words of each mask.
    [[nodiscard]] std::size_t word_count() const noexcept { return m_care.word_count(); }
    /// Atoms the condition constrains.
    [[nodiscard]] const AtomSet& care() const noexcept { return m_care; }
    /// Required values; a subset of care().
    [[nodiscard]] const AtomSet& values() const noexcept { return m_values; }

    /// Requires (or assigns) `atom = value`, replacing an earlier requirement on the same atom. O(1).
    void set(AtomId atom, bool value) noexcept {
        m_care.set(atom, true);
        m_values.set(atom, value);
    }
    /// Makes `atom` "don't care" again. O(1).
    void reset(AtomId atom) noexcept {
        m_care.set(atom, false);
        m_values.set(atom, false);
    }
    /// Removes every requirement (atoms and comparisons). O(words).
    void clear() noexcept {
        m_care.clear();
        m_values.clear();
        m_comparisons.clear();
    }
    /// Adds the comparison `c` on a variable (a conjunction with everything else). Allocates when the
    /// list grows; used when conditions are built, not per query.
    void require(const Comparison& c) { m_comparisons.push_back(c); }
    /// The comparisons on variables, in the order they were added.
    [[nodiscard]] std::span<const Comparison> comparisons() const noexcept { return m_comparisons; }
    /// True if the condition constrains `atom`.
    [[nodiscard]] bool cares(AtomId atom) const noexcept { return m_care.test(atom); }
    /// Required value of `atom` (false when it is not constrained).
    [[nodiscard]] bool value(AtomId atom) const noexcept { return m_values.test(atom); }
    /// Number of constrained atoms plus the number of comparisons. O(words).
    [[nodiscard]] std::size_t size() const noexcept { return m_care.count() + m_comparisons.size(); }
    /// True if nothing is constrained (no atom, no comparison).
    [[nodiscard]] bool empty() const noexcept { return m_care.empty() && m_comparisons.empty(); }
    /// True if `state` satisfies every requirement. O(words).
    [[nodiscard]] bool satisfied_by(const WorldState& state) const noexcept { return state.satisfies(*this); }
    /// Calls `fn(Literal)` for each constrained atom in increasing id order.
    template <class Fn>
    void for_each(Fn&& fn) const {
        m_care.for_each([&](AtomId a) { fn(Literal{a, m_values.test(a)}); });
    }

    /// Same atom count, same constrained atoms, same values, same comparisons in the same order.
    friend bool operator==(const Condition& a, const Condition& b) noexcept {
        return a.m_care == b.m_care && a.m_values == b.m_values && a.m_comparisons == b.m_comparisons;
    }

private:
    AtomSet m_care;
    AtomSet m_values;
    std::vector<Comparison> m_comparisons;
};

inline bool WorldState::satisfies(const Condition& condition) const noexcept {
    const auto s = words();
    const auto care = condition.care().words();
    const auto values = condition.values().words();
    for (std::size_t w = 0; w < s.size(); ++w)
        if ((s[w] & care[w]) != values[w]) return false;
    for (const Comparison& c : condition.comparisons())
        if (!compare(m_vars[c.var.value], c.op, c.value)) return false;
    return true;
}

inline void WorldState::apply(const Condition& effects) noexcept {
    const auto s = mutable_words();
    const auto care = effects.care().words();
    const auto values = effects.values().words();
    for (std::size_t w = 0; w < s.size(); ++w) s[w] = (s[w] & ~care[w]) | values[w];
}

inline void WorldState::assign_masked(const WorldState& source, const AtomSet& mask) noexcept {
    const auto s = mutable_words();
    const auto src = source.words();
    const auto m = mask.words();
    for (std::size_t w = 0; w < s.size(); ++w) s[w] = (s[w] & ~m[w]) | (src[w] & m[w]);
}

inline void WorldState::assign_unmasked(const WorldState& source, const AtomSet& mask) noexcept {
    const auto s = mutable_words();
    const auto src = source.words();
    const auto m = mask.words();
    for (std::size_t w = 0; w < s.size(); ++w) s[w] = (s[w] & m[w]) | (src[w] & ~m[w]);
}

inline void WorldState::assign_view(const WorldState& world, const WorldState& agent, const AtomSet& shared) noexcept {
    const auto s = mutable_words();
    const auto wo = world.words();
    const auto ag = agent.words();
    const auto m = shared.words();
    for (std::size_t w = 0; w < s.size(); ++w) s[w] = (wo[w] & m[w]) | (ag[w] & ~m[w]);
}

}  // namespace gameplan::goap
