#include <gameplan/goap/domain.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace gameplan::goap {

std::string_view to_string(DomainError error) noexcept {
    switch (error) {
        case DomainError::None: return "none";
        case DomainError::EmptyName: return "empty action name";
        case DomainError::DuplicateAction: return "duplicate action name";
        case DomainError::InvalidCost: return "cost must be a finite number >= 0";
        case DomainError::UnknownAtom: return "unknown atom id";
        case DomainError::ConflictingLiteral: return "atom required to be both true and false";
        case DomainError::UnknownVariable: return "unknown variable id";
        case DomainError::InvalidComparison: return "comparison of the wrong kind or value for its variable";
        case DomainError::InvalidEffect: return "effect of the wrong kind or value for its variable";
        case DomainError::ConflictingEffect: return "two effects on the same variable";
    }
    return "unknown";
}

AtomId DomainBuilder::add_atom(std::string_view name, bool shared) {
    const auto [it, inserted] = m_atom_index.try_emplace(std::string(name), static_cast<std::uint32_t>(m_atom_names.size()));
    if (inserted) {
        m_atom_names.emplace_back(name);
        m_atom_shared.push_back(shared);
    } else if (shared) {
        m_atom_shared[it->second] = true;
    }
    return AtomId(it->second);
}

AtomId DomainBuilder::find_atom(std::string_view name) const {
    const auto it = m_atom_index.find(std::string(name));
    return it == m_atom_index.end() ? AtomId() : AtomId(it->second);
}

void DomainBuilder::set_shared(AtomId atom, bool shared) {
    if (atom.valid() && atom.value < m_atom_shared.size()) m_atom_shared[atom.value] = shared;
}

VarId DomainBuilder::add_integer_variable(std::string_view name, std::int32_t min, std::int32_t max, bool shared) {
    if (name.empty() || max < min || m_var_index.count(std::string(name)) || m_atom_index.count(std::string(name)))
        return VarId();
    const auto id = static_cast<std::uint32_t>(m_vars.size());
    m_vars.push_back(VarDef{std::string(name), VariableKind::Integer, min, max, {}, shared});
    m_var_index.emplace(std::string(name), id);
    return VarId(id);
}

VarId DomainBuilder::add_enum_variable(std::string_view name, std::span<const std::string> values, bool shared) {
    if (name.empty() || values.empty() || m_var_index.count(std::string(name)) || m_atom_index.count(std::string(name)))
        return VarId();
    for (std::size_t i = 0; i < values.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
            if (values[i] == values[j]) return VarId();
    const auto id = static_cast<std::uint32_t>(m_vars.size());
    m_vars.push_back(VarDef{std::string(name), VariableKind::Enumeration, 0, static_cast<std::int32_t>(values.size() - 1),
                            {values.begin(), values.end()}, shared});
    m_var_index.emplace(std::string(name), id);
    return VarId(id);
}

VarId DomainBuilder::find_variable(std::string_view name) const {
    const auto it = m_var_index.find(std::string(name));
    return it == m_var_index.end() ? VarId() : VarId(it->second);
}

void DomainBuilder::set_shared(VarId var, bool shared) {
    if (var.valid() && var.value < m_vars.size()) m_vars[var.value].shared = shared;
}

bool DomainBuilder::set_retry(std::string_view action, RetryPolicy policy) {
    const auto it = m_action_index.find(std::string(action));
    if (it == m_action_index.end()) return false;
    m_actions[it->second].retry = policy;
    return true;
}

bool DomainBuilder::comparison_ok(const Comparison& c) const noexcept {
    const VarDef& v = m_vars[c.var.value];
    if (v.kind == VariableKind::Integer) return true;
    return (c.op == CompareOp::Eq || c.op == CompareOp::Ne) && c.value >= v.min && c.value <= v.max;
}

bool DomainBuilder::effect_ok(const NumericEffect& e) const noexcept {
    const VarDef& v = m_vars[e.var.value];
    if (e.op == EffectOp::Set) return e.value >= v.min && e.value <= v.max;
    return v.kind == VariableKind::Integer && e.value >= 0;
}

namespace {
// Sorts by atom, merges duplicates; false if an atom appears with both values.
bool normalise(std::vector<Literal>& literals) {
    std::sort(literals.begin(), literals.end(), [](const Literal& a, const Literal& b) {
        return a.atom.value != b.atom.value ? a.atom.value < b.atom.value : a.value < b.value;
    });
    std::size_t out = 0;
    for (std::size_t i = 0; i < literals.size(); ++i) {
        if (out > 0 && literals[out - 1].atom == literals[i].atom) {
            if (literals[out - 1].value != literals[i].value) return false;
            continue;
        }
        literals[out++] = literals[i];
    }
    literals.resize(out);
    return true;
}
}  // namespace

DomainError DomainBuilder::add_action(std::string_view name, double cost, std::span<const Literal> preconditions,
                                      std::span<const Literal> effects) {
    if (name.empty()) return DomainError::EmptyName;
    if (!std::isfinite(cost) || cost < 0) return DomainError::InvalidCost;
    if (m_action_index.count(std::string(name))) return DomainError::DuplicateAction;
    ActionDef def{std::string(name), cost, {preconditions.begin(), preconditions.end()}, {effects.begin(), effects.end()}, {}, {}, RetryPolicy{}};
    for (const auto* list : {&def.preconditions, &def.effects})
        for (const Literal& l : *list)
            if (!l.atom.valid() || l.atom.value >= m_atom_names.size()) return DomainError::UnknownAtom;
    if (!normalise(def.preconditions) || !normalise(def.effects)) return DomainError::ConflictingLiteral;
    m_action_index.emplace(def.name, static_cast<std::uint32_t>(m_actions.size()));
    m_actions.push_back(std::move(def));
    return DomainError::None;
}

DomainError DomainBuilder::add_action(std::string_view name, double cost, std::span<const Literal> preconditions,
                                      std::span<const Literal> effects, std::span<const Comparison> comparisons,
                                      std::span<const NumericEffect> numeric_effects) {
    for (const Comparison& c : comparisons)
        if (!c.var.valid() || c.var.value >= m_vars.size()) return DomainError::UnknownVariable;
    for (const NumericEffect& e : numeric_effects)
        if (!e.var.valid() || e.var.value >= m_vars.size()) return DomainError::UnknownVariable;
    for (const Comparison& c : comparisons)
        if (!comparison_ok(c)) return DomainError::InvalidComparison;
    for (const NumericEffect& e : numeric_effects)
        if (!effect_ok(e)) return DomainError::InvalidEffect;
    std::vector<NumericEffect> eff(numeric_effects.begin(), numeric_effects.end());
    std::sort(eff.begin(), eff.end(), [](const NumericEffect& a, const NumericEffect& b) { return a.var < b.var; });
    for (std::size_t i = 1; i < eff.size(); ++i)
        if (eff[i].var == eff[i - 1].var) return DomainError::ConflictingEffect;
    const DomainError e = add_action(name, cost, preconditions, effects);
    if (e != DomainError::None) return e;
    m_actions.back().comparisons.assign(comparisons.begin(), comparisons.end());
    m_actions.back().numeric_effects = std::move(eff);
    return DomainError::None;
}

DomainError DomainBuilder::add_action(std::string_view name, double cost,
                                      std::initializer_list<std::pair<std::string_view, bool>> preconditions,
                                      std::initializer_list<std::pair<std::string_view, bool>> effects) {
    std::vector<Literal> pre;
    std::vector<Literal> eff;
    for (const auto& [atom, value] : preconditions) pre.push_back(Literal{add_atom(atom), value});
    for (const auto& [atom, value] : effects) eff.push_back(Literal{add_atom(atom), value});
    return add_action(name, cost, pre, eff);
}

Domain DomainBuilder::build() const {
    Domain d;
    const std::size_t atoms = m_atom_names.size();
    const std::size_t actions = m_actions.size();
    d.m_atom_names = m_atom_names;
    d.m_atoms_by_name.resize(atoms);
    std::iota(d.m_atoms_by_name.begin(), d.m_atoms_by_name.end(), 0u);
    std::sort(d.m_atoms_by_name.begin(), d.m_atoms_by_name.end(),
              [&](std::uint32_t a, std::uint32_t b) { return m_atom_names[a] < m_atom_names[b]; });
    d.m_shared = AtomSet(atoms);
    for (std::size_t i = 0; i < atoms; ++i)
        if (m_atom_shared[i]) d.m_shared.set(AtomId(static_cast<std::uint32_t>(i)));

    d.m_action_names.reserve(actions);
    d.m_costs.reserve(actions);
    d.m_pre_offset.assign(1, 0);
    d.m_eff_offset.assign(1, 0);
    d.m_num_eff_offset.assign(1, 0);
    for (const VarDef& v : m_vars) {
        d.m_var_names.push_back(v.name);
        d.m_var_kind.push_back(v.kind);
        d.m_var_min.push_back(v.min);
        d.m_var_max.push_back(v.max);
        d.m_var_values.push_back(v.values);
        d.m_var_shared.push_back(v.shared ? 1 : 0);
    }
    std::vector<std::uint32_t> achiever_count(2 * atoms + 1, 0);
    for (const ActionDef& a : m_actions) {
        d.m_action_names.push_back(a.name);
        d.m_costs.push_back(a.cost);
        Condition pre(atoms);
        Condition eff(atoms);
        for (const Literal& l : a.preconditions) {
            pre.set(l.atom, l.value);
            d.m_pre_literals.push_back(l);
        }
        for (const Literal& l : a.effects) {
            eff.set(l.atom, l.value);
            d.m_eff_literals.push_back(l);
            ++achiever_count[literal_index(l)];
        }
        for (const Comparison& c : a.comparisons) pre.require(c);
        d.m_num_eff.insert(d.m_num_eff.end(), a.numeric_effects.begin(), a.numeric_effects.end());
        d.m_num_eff_offset.push_back(static_cast<std::uint32_t>(d.m_num_eff.size()));
        d.m_retry.push_back(a.retry);
        d.m_pre.push_back(std::move(pre));
        d.m_eff.push_back(std::move(eff));
        d.m_pre_offset.push_back(static_cast<std::uint32_t>(d.m_pre_literals.size()));
        d.m_eff_offset.push_back(static_cast<std::uint32_t>(d.m_eff_literals.size()));
    }
    d.m_actions_by_name.resize(actions);
    std::iota(d.m_actions_by_name.begin(), d.m_actions_by_name.end(), 0u);
    std::sort(d.m_actions_by_name.begin(), d.m_actions_by_name.end(),
              [&](std::uint32_t a, std::uint32_t b) { return m_actions[a].name < m_actions[b].name; });

    d.m_achiever_offset.assign(2 * atoms + 1, 0);
    for (std::size_t l = 0; l < 2 * atoms; ++l) d.m_achiever_offset[l + 1] = d.m_achiever_offset[l] + achiever_count[l];
    d.m_achievers.resize(d.m_eff_literals.size());
    std::vector<std::uint32_t> fill(d.m_achiever_offset.begin(), d.m_achiever_offset.end() - 1);
    for (std::size_t a = 0; a < actions; ++a)
        for (const Literal& l : m_actions[a].effects)
            d.m_achievers[fill[literal_index(l)]++] = ActionId(static_cast<std::uint32_t>(a));
    return d;
}

AtomId Domain::find_atom(std::string_view name) const noexcept {
    const auto it = std::lower_bound(m_atoms_by_name.begin(), m_atoms_by_name.end(), name,
                                     [&](std::uint32_t id, std::string_view n) { return m_atom_names[id] < n; });
    if (it == m_atoms_by_name.end() || m_atom_names[*it] != name) return AtomId();
    return AtomId(*it);
}

VarId Domain::find_variable(std::string_view name) const noexcept {
    for (std::size_t i = 0; i < m_var_names.size(); ++i)
        if (m_var_names[i] == name) return VarId(static_cast<std::uint32_t>(i));
    return VarId();
}

std::int32_t Domain::find_variable_value(VarId var, std::string_view name) const noexcept {
    const auto& values = m_var_values[var.value];
    for (std::size_t i = 0; i < values.size(); ++i)
        if (values[i] == name) return static_cast<std::int32_t>(i);
    return -1;
}

ActionId Domain::find_action(std::string_view name) const noexcept {
    const auto it = std::lower_bound(m_actions_by_name.begin(), m_actions_by_name.end(), name,
                                     [&](std::uint32_t id, std::string_view n) { return m_action_names[id] < n; });
    if (it == m_actions_by_name.end() || m_action_names[*it] != name) return ActionId();
    return ActionId(*it);
}

}  // namespace gameplan::goap
