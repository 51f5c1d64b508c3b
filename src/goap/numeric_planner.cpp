#include "numeric_planner.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace gameplan::goap::detail {

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr std::uint32_t kNone = UINT32_MAX;

inline bool bit(const std::uint64_t* words, std::size_t i) noexcept { return (words[i >> 6] >> (i & 63)) & 1u; }
inline void set_bit(std::uint64_t* words, std::size_t i) noexcept { words[i >> 6] |= std::uint64_t{1} << (i & 63); }

// Forward search space over registry ids.
struct NumericSpace {
    NumericPlanner& p;

    [[nodiscard]] std::size_t node_bound() const noexcept { return p.registry.size(); }
    [[nodiscard]] bool is_goal(search::NodeIndex node) const noexcept { return p.is_goal(p.registry.state(node)); }
    [[nodiscard]] PlanCost heuristic(search::NodeIndex node) { return PlanCost{p.h_max(p.registry.state(node), true), 0}; }
    [[nodiscard]] std::size_t memory_bytes() const noexcept { return p.registry.budget_bytes(); }

    template <class Sink>
    void expand(search::NodeIndex node, Sink&& sink) {
        const std::size_t W = p.words;
        const std::size_t width = p.width;
        std::uint64_t* cur = p.scratch.data();
        std::uint64_t* next = cur + width;
        std::memcpy(cur, p.registry.state(node), width * sizeof(std::uint64_t));
        const Domain& d = *p.domain;
        for (std::size_t s = 0; s < p.search_actions.size(); ++s) {
            const NumericPlanner::SearchAction& sa = p.search_actions[s];
            const std::uint64_t* a = p.action_words.data() + s * 4 * W;
            bool ok = true;
            for (std::size_t w = 0; w < W && ok; ++w) ok = (cur[w] & a[w]) == a[W + w];
            for (std::uint32_t i = sa.cmp_begin; i < sa.cmp_end && ok; ++i) {
                const Comparison& c = p.cmps[i];
                ok = compare(static_cast<std::int32_t>(cur[W + c.var.value]), c.op, c.value);
            }
            if (!ok) continue;
            bool changed = false;
            for (std::size_t w = 0; w < W; ++w) {
                next[w] = (cur[w] & ~a[2 * W + w]) | a[3 * W + w];
                changed |= next[w] != cur[w];
            }
            std::memcpy(next + W, cur + W, (width - W) * sizeof(std::uint64_t));
            for (std::uint32_t i = sa.eff_begin; i < sa.eff_end && ok; ++i) {
                const NumericEffect& e = p.effs[i];
                const std::int64_t v = effect_result(static_cast<std::int32_t>(cur[W + e.var.value]), e);
                if (!d.in_bounds(e.var, v)) {
                    ok = false;
                    break;
                }
                const auto stored = static_cast<std::uint64_t>(static_cast<std::uint32_t>(static_cast<std::int32_t>(v)));
                changed |= stored != next[W + e.var.value];
                next[W + e.var.value] = stored;
            }
            if (!ok || !changed) continue;  // out of bounds, or a self-loop (never improves a path)
            const std::uint32_t id = p.registry.intern<0>(next);
            if (id == StateRegistry::kFull) return;  // out of memory: the engine stops
            sink(id, PlanCost{sa.cost, 1}, sa.id);
        }
    }
};

}  // namespace

NumericPlanner::NumericPlanner(const Domain& d)
    : domain(&d), atoms(d.atom_count()), vars(d.variable_count()), actions(d.action_count()) {
    words = std::max<std::size_t>(1, words_for_atoms(atoms));
    width = words + vars;
    atom_relevant.assign(atoms, 0);
    var_relevant.assign(vars, 0);
    action_relevant.assign(actions, 0);
    atom_mask.assign(words, 0);
    goal_care.assign(words, 0);
    goal_values.assign(words, 0);
    scratch.assign(2 * width, 0);
    value_base.assign(vars, kNone);
    fact_count = 2 * atoms;
    for (std::size_t x = 0; x < vars; ++x) {
        const VarId v(static_cast<std::uint32_t>(x));
        const std::int64_t range = std::int64_t{d.variable_max(v)} - d.variable_min(v) + 1;
        if (range <= kMaxExactRange) {
            value_base[x] = static_cast<std::uint32_t>(fact_count);
            fact_count += static_cast<std::size_t>(range);
            fact_var.insert(fact_var.end(), static_cast<std::size_t>(range), static_cast<std::uint32_t>(x));
        }
    }
    fact_cost.assign(fact_count, kInf);
    fact_settled.assign(fact_count, 0);
    settled_values.assign(fact_count, 0);
    settled_count.assign(vars, 0);
    goal_literal_fact.assign(2 * atoms, 0);
    consumer_offset.assign(2 * atoms + 1, 0);
    units_of_var_offset.assign(vars + 1, 0);
    rel_offset.assign(vars + 1, 0);
    std::size_t pre_total = 0, cmp_total = 0, eff_total = 0;
    for (std::uint32_t a = 0; a < actions; ++a) {
        pre_total += d.precondition_literals(ActionId(a)).size();
        cmp_total += d.preconditions(ActionId(a)).comparisons().size();
        eff_total += d.numeric_effects(ActionId(a)).size();
    }
    search_actions.reserve(actions);
    action_words.reserve(actions * 4 * words);
    cmps.reserve(cmp_total);
    effs.reserve(eff_total);
    consumer_list.reserve(pre_total);
    pre_count.reserve(actions);
    remaining.reserve(actions);
    fired_at.reserve(actions);
    rel_list.reserve(eff_total);
    goal_cmps.reserve(16);
    goal_literals.reserve(atoms);
    units.reserve(cmp_total + 16);
    units_of_var.reserve(cmp_total + 16);
    unit_done.reserve(cmp_total + 16);
    scratch_u32.reserve(std::max(atoms, vars) + actions + 16);
    heap.reserve(fact_count + 64);
    plan.reserve(64);
    unreachable.reserve(atoms);
    unreachable_cmps.reserve(16);
}

void NumericPlanner::reserve(std::size_t states) {
    registry.reserve(states, width);
    context.reserve(states, states);
}

void NumericPlanner::compile(const Condition& goal, const PlanOptions& options) {
    const Domain& d = *domain;
    std::fill(atom_relevant.begin(), atom_relevant.end(), std::uint8_t{0});
    std::fill(var_relevant.begin(), var_relevant.end(), std::uint8_t{0});
    std::fill(action_relevant.begin(), action_relevant.end(), std::uint8_t{0});
    goal_literals.clear();
    goal_cmps.clear();
    goal.for_each([&](Literal l) {
        goal_literals.push_back(l);
        atom_relevant[l.atom.value] = 1;
    });
    for (const Comparison& c : goal.comparisons()) {
        goal_cmps.push_back(c);
        var_relevant[c.var.value] = 1;
    }
    // 1. Relevance, to a fixpoint (a pass over the actions per round; rounds <= longest chain).
    for (bool grew = true; grew;) {
        grew = false;
        for (std::uint32_t a = 0; a < actions; ++a) {
            if (action_relevant[a] || (!options.enabled.empty() && options.enabled[a] == 0)) continue;
            const ActionId id(a);
            bool rel = false;
            for (const Literal& l : d.effect_literals(id)) rel = rel || atom_relevant[l.atom.value];
            for (const NumericEffect& e : d.numeric_effects(id)) rel = rel || var_relevant[e.var.value];
            if (!rel) continue;
            action_relevant[a] = 1;
            grew = true;
            for (const Literal& l : d.precondition_literals(id)) atom_relevant[l.atom.value] = 1;
            for (const Comparison& c : d.preconditions(id).comparisons()) var_relevant[c.var.value] = 1;
            for (const NumericEffect& e : d.numeric_effects(id))
                if (e.op != EffectOp::Set) var_relevant[e.var.value] = 1;
        }
    }
    // 2. Search tables.
    const std::size_t W = words;
    std::fill(atom_mask.begin(), atom_mask.end(), std::uint64_t{0});
    for (std::size_t i = 0; i < atoms; ++i)
        if (atom_relevant[i]) set_bit(atom_mask.data(), i);
    std::fill(goal_care.begin(), goal_care.end(), std::uint64_t{0});
    std::fill(goal_values.begin(), goal_values.end(), std::uint64_t{0});
    for (const Literal& l : goal_literals) {
        set_bit(goal_care.data(), l.atom.value);
        if (l.value) set_bit(goal_values.data(), l.atom.value);
    }
    search_actions.clear();
    action_words.clear();
    cmps.clear();
    effs.clear();
    for (std::uint32_t a = 0; a < actions; ++a) {
        if (!action_relevant[a]) continue;
        const ActionId id(a);
        SearchAction sa{a, options.costs.empty() ? d.action_cost(id) : options.costs[a], 0, 0, 0, 0};
        const std::size_t base = action_words.size();
        action_words.resize(base + 4 * W, 0);
        std::uint64_t* aw = action_words.data() + base;
        for (const Literal& l : d.precondition_literals(id)) {
            set_bit(aw, l.atom.value);
            if (l.value) set_bit(aw + W, l.atom.value);
        }
        for (const Literal& l : d.effect_literals(id)) {
            if (!atom_relevant[l.atom.value]) continue;
            set_bit(aw + 2 * W, l.atom.value);
            if (l.value) set_bit(aw + 3 * W, l.atom.value);
        }
        sa.cmp_begin = static_cast<std::uint32_t>(cmps.size());
        for (const Comparison& c : d.preconditions(id).comparisons()) cmps.push_back(c);
        sa.cmp_end = static_cast<std::uint32_t>(cmps.size());
        sa.eff_begin = static_cast<std::uint32_t>(effs.size());
        for (const NumericEffect& e : d.numeric_effects(id))
            if (var_relevant[e.var.value]) effs.push_back(e);
        sa.eff_end = static_cast<std::uint32_t>(effs.size());
        search_actions.push_back(sa);
    }
    const std::size_t S = search_actions.size();

    // 3. h_max tables: literal consumers, comparison units, relative effects.
    std::fill(goal_literal_fact.begin(), goal_literal_fact.end(), std::uint8_t{0});
    for (const Literal& l : goal_literals) goal_literal_fact[2 * l.atom.value + (l.value ? 1u : 0u)] = 1;
    std::fill(consumer_offset.begin(), consumer_offset.end(), 0u);
    pre_count.assign(S, 0);
    for (std::size_t s = 0; s < S; ++s)
        for (const Literal& l : d.precondition_literals(ActionId(search_actions[s].id))) {
            ++consumer_offset[2 * l.atom.value + (l.value ? 1u : 0u) + 1];
            ++pre_count[s];
        }
    for (std::size_t f = 0; f < 2 * atoms; ++f) consumer_offset[f + 1] += consumer_offset[f];
    consumer_list.resize(consumer_offset[2 * atoms]);
    scratch_u32.assign(consumer_offset.begin(), consumer_offset.end() - 1);
    for (std::size_t s = 0; s < S; ++s)
        for (const Literal& l : d.precondition_literals(ActionId(search_actions[s].id)))
            consumer_list[scratch_u32[2 * l.atom.value + (l.value ? 1u : 0u)]++] = static_cast<std::uint32_t>(s);

    units.clear();
    for (std::size_t s = 0; s < S; ++s)
        for (std::uint32_t i = search_actions[s].cmp_begin; i < search_actions[s].cmp_end; ++i)
            if (value_base[cmps[i].var.value] != kNone) {
                units.push_back(Unit{cmps[i], static_cast<std::uint32_t>(s)});
                ++pre_count[s];
            }
    goal_units = goal_literals.size();
    for (const Comparison& c : goal_cmps)
        if (value_base[c.var.value] != kNone) {
            units.push_back(Unit{c, kGoal});
            ++goal_units;
        }
    std::fill(units_of_var_offset.begin(), units_of_var_offset.end(), 0u);
    for (const Unit& u : units) ++units_of_var_offset[u.cmp.var.value + 1];
    for (std::size_t x = 0; x < vars; ++x) units_of_var_offset[x + 1] += units_of_var_offset[x];
    units_of_var.resize(units.size());
    scratch_u32.assign(units_of_var_offset.begin(), units_of_var_offset.end() - 1);
    for (std::size_t u = 0; u < units.size(); ++u) units_of_var[scratch_u32[units[u].cmp.var.value]++] = static_cast<std::uint32_t>(u);
    unit_done.resize(units.size());

    std::fill(rel_offset.begin(), rel_offset.end(), 0u);
    std::size_t rel_total = 0;
    for (std::size_t s = 0; s < S; ++s)
        for (std::uint32_t i = search_actions[s].eff_begin; i < search_actions[s].eff_end; ++i)
            if (effs[i].op != EffectOp::Set && value_base[effs[i].var.value] != kNone) {
                ++rel_offset[effs[i].var.value + 1];
                ++rel_total;
            }
    for (std::size_t x = 0; x < vars; ++x) rel_offset[x + 1] += rel_offset[x];
    rel_list.resize(rel_total);
    scratch_u32.assign(rel_offset.begin(), rel_offset.end() - 1);
    for (std::size_t s = 0; s < S; ++s)
        for (std::uint32_t i = search_actions[s].eff_begin; i < search_actions[s].eff_end; ++i) {
            const NumericEffect& e = effs[i];
            if (e.op == EffectOp::Set || value_base[e.var.value] == kNone) continue;
            rel_list[scratch_u32[e.var.value]++] =
                RelEffect{static_cast<std::uint32_t>(s), e.op == EffectOp::Add ? e.value : -e.value};
        }
    remaining.resize(S);
    fired_at.resize(S);
}

// h_max over literal and value facts from `state` (see the header). With stop_at_goal, returns as soon
// as every goal unit is reached; otherwise runs to the end (fact_cost then holds every fact's cost).
double NumericPlanner::h_max(const std::uint64_t* state, bool stop_at_goal) {
    const Domain& d = *domain;
    const std::size_t W = words;
    std::fill(fact_cost.begin(), fact_cost.end(), kInf);
    std::fill(fact_settled.begin(), fact_settled.end(), std::uint8_t{0});
    std::fill(settled_count.begin(), settled_count.end(), 0u);
    std::fill(unit_done.begin(), unit_done.end(), std::uint8_t{0});
    std::copy(pre_count.begin(), pre_count.end(), remaining.begin());
    std::fill(fired_at.begin(), fired_at.end(), kInf);
    heap.clear();
    std::size_t goal_left = goal_units;
    double h = 0;
    if (goal_left == 0 && stop_at_goal) return 0;
    const auto order = [](const HeapEntry& x, const HeapEntry& y) { return x.cost > y.cost; };
    const auto relax = [&](std::uint32_t f, double c) {
        if (c < fact_cost[f]) {
            fact_cost[f] = c;
            heap.push_back(HeapEntry{c, f});
            std::push_heap(heap.begin(), heap.end(), order);
        }
    };
    const auto value_fact = [&](std::uint32_t x, std::int64_t v) -> std::uint32_t {
        return value_base[x] + static_cast<std::uint32_t>(v - d.variable_min(VarId(x)));
    };
    const auto fire = [&](std::uint32_t s, double at) {
        fired_at[s] = at;
        const SearchAction& sa = search_actions[s];
        const double v = at + sa.cost;
        const std::uint64_t* aw = action_words.data() + std::size_t{s} * 4 * W;
        for (std::size_t w = 0; w < W; ++w)
            for (std::uint64_t bits = aw[2 * W + w]; bits; bits &= bits - 1) {
                const std::size_t atom = w * 64 + static_cast<std::size_t>(std::countr_zero(bits));
                relax(static_cast<std::uint32_t>(2 * atom + bit(aw + 3 * W, atom)), v);
            }
        for (std::uint32_t i = sa.eff_begin; i < sa.eff_end; ++i) {
            const NumericEffect& e = effs[i];
            const std::uint32_t x = e.var.value;
            if (value_base[x] == kNone) continue;
            if (e.op == EffectOp::Set) {
                relax(value_fact(x, e.value), v);
                continue;
            }
            // Every value of x settled so far (at a cost <= at) is a source.
            const std::int64_t delta = e.op == EffectOp::Add ? e.value : -std::int64_t{e.value};
            const std::int32_t lo = d.variable_min(VarId(x));
            for (std::uint32_t k = 0; k < settled_count[x]; ++k) {
                const std::int64_t u = std::int64_t{settled_values[value_base[x] + k]} + lo;
                if (d.in_bounds(VarId(x), u + delta)) relax(value_fact(x, u + delta), v);
            }
        }
    };
    const auto satisfy_owner = [&](std::uint32_t owner, double at) -> bool {
        if (owner == kGoal) {
            h = at;
            return --goal_left == 0 && stop_at_goal;
        }
        if (--remaining[owner] == 0) fire(owner, at);
        return false;
    };
    // Settles fact f at cost c; true when the caller may stop.
    const auto settle = [&](std::uint32_t f, double c) -> bool {
        fact_settled[f] = 1;
        if (f < 2 * atoms) {
            bool stop = false;
            if (goal_literal_fact[f]) {
                h = c;
                stop = --goal_left == 0 && stop_at_goal;
            }
            if (stop) return true;
            for (std::uint32_t i = consumer_offset[f]; i < consumer_offset[f + 1]; ++i) {
                const std::uint32_t s = consumer_list[i];
                if (--remaining[s] == 0) fire(s, c);
            }
            return false;
        }
        const std::uint32_t x = fact_var[f - 2 * atoms];
        const std::int32_t lo = d.variable_min(VarId(x));
        const std::uint32_t offset = f - value_base[x];
        const std::int32_t v = static_cast<std::int32_t>(std::int64_t{offset} + lo);
        settled_values[value_base[x] + settled_count[x]++] = offset;
        for (std::uint32_t i = units_of_var_offset[x]; i < units_of_var_offset[x + 1]; ++i) {
            const std::uint32_t u = units_of_var[i];
            if (unit_done[u] || !compare(v, units[u].cmp.op, units[u].cmp.value)) continue;
            unit_done[u] = 1;
            if (satisfy_owner(units[u].owner, c)) return true;
        }
        for (std::uint32_t i = rel_offset[x]; i < rel_offset[x + 1]; ++i) {
            const RelEffect& r = rel_list[i];
            if (fired_at[r.action] == kInf) continue;  // fires later: it will read this value then
            const std::int64_t to = std::int64_t{v} + r.delta;
            if (d.in_bounds(VarId(x), to)) relax(value_fact(x, to), c + search_actions[r.action].cost);
        }
        return false;
    };

    for (std::size_t a = 0; a < atoms; ++a)
        if (atom_relevant[a]) fact_cost[2 * a + bit(state, a)] = 0;
    for (std::uint32_t x = 0; x < vars; ++x)
        if (var_relevant[x] && value_base[x] != kNone) fact_cost[value_fact(x, static_cast<std::int32_t>(state[W + x]))] = 0;
    for (std::uint32_t s = 0; s < search_actions.size(); ++s)
        if (pre_count[s] == 0) fire(s, 0);
    for (std::size_t a = 0; a < atoms; ++a)
        if (atom_relevant[a] && settle(static_cast<std::uint32_t>(2 * a + bit(state, a)), 0)) return h;
    for (std::uint32_t x = 0; x < vars; ++x)
        if (var_relevant[x] && value_base[x] != kNone) {
            const std::uint32_t f = value_fact(x, static_cast<std::int32_t>(state[W + x]));
            if (!fact_settled[f] && settle(f, 0)) return h;
        }
    while (!heap.empty()) {
        std::pop_heap(heap.begin(), heap.end(), order);
        const HeapEntry top = heap.back();
        heap.pop_back();
        if (fact_settled[top.fact] || top.cost > fact_cost[top.fact]) continue;
        if (settle(top.fact, top.cost)) return h;
    }
    return goal_left == 0 ? h : kInf;
}

bool NumericPlanner::is_goal(const std::uint64_t* s) const noexcept {
    for (std::size_t w = 0; w < words; ++w)
        if ((s[w] & goal_care[w]) != goal_values[w]) return false;
    for (const Comparison& c : goal_cmps)
        if (!compare(static_cast<std::int32_t>(s[words + c.var.value]), c.op, c.value)) return false;
    return true;
}

Status NumericPlanner::begin(const WorldState& start, const Condition& goal, const PlanOptions& options) {
    plan.clear();
    unreachable.clear();
    unreachable_cmps.clear();
    stats = {};
    limit = search::BudgetLimit::None;
    cost = 0;
    const Domain& d = *domain;
    bool valid = start.atom_count() == atoms && goal.atom_count() == atoms && start.var_count() == vars &&
                 (options.enabled.empty() || options.enabled.size() == actions) &&
                 (options.costs.empty() || options.costs.size() == actions);
    if (valid)
        for (const double c : options.costs)
            if (!std::isfinite(c) || c < 0) valid = false;
    if (valid)
        for (std::uint32_t x = 0; x < vars; ++x)
            if (!d.in_bounds(VarId(x), start.value(VarId(x)))) valid = false;
    if (valid)
        for (const Comparison& c : goal.comparisons())
            if (!c.var.valid() || c.var.value >= vars) valid = false;
    if (!valid) return status = Status::InvalidQuery;
    compile(goal, options);

    // The start state, projected.
    std::uint64_t* root = scratch.data();
    const auto start_words = start.words();
    for (std::size_t w = 0; w < words; ++w) root[w] = (w < start_words.size() ? start_words[w] : 0) & atom_mask[w];
    for (std::uint32_t x = 0; x < vars; ++x)
        root[words + x] = var_relevant[x] ? static_cast<std::uint64_t>(static_cast<std::uint32_t>(start.value(VarId(x)))) : 0;

    // h_max from the start: failure explanation.
    h_max(root, false);
    for (const Literal& l : goal_literals)
        if (fact_cost[2 * l.atom.value + (l.value ? 1u : 0u)] == kInf) unreachable.push_back(l);
    for (const Comparison& c : goal_cmps) {
        if (value_base[c.var.value] == kNone) continue;
        bool reached = false;
        const VarId x = c.var;
        for (std::int32_t v = d.variable_min(x);; ++v) {
            if (compare(v, c.op, c.value) && fact_cost[value_base[x.value] + static_cast<std::uint32_t>(v - d.variable_min(x))] < kInf)
                reached = true;
            if (reached || v == d.variable_max(x)) break;
        }
        if (!reached) unreachable_cmps.push_back(c);
    }
    if (!unreachable.empty() || !unreachable_cmps.empty()) return status = Status::NoPath;

    registry.reset(width);
    registry.set_memory_limit(options.budget.max_memory_bytes, context);
    const std::uint32_t root_id = registry.intern<0>(root);
    if (root_id == StateRegistry::kFull) {
        limit = search::BudgetLimit::Memory;
        return status = Status::BudgetExhausted;
    }
    NumericSpace space{*this};
    context.begin(space, root_id, options.budget);
    return status = Status::InProgress;
}

Status NumericPlanner::step(std::uint64_t slice) {
    if (status != Status::InProgress) return status;
    NumericSpace space{*this};
    const Status s = context.step(space, slice);
    stats = context.stats();
    limit = context.budget_limit();
    if (s == Status::Found) {
        const search::NodeIndex goal_node = context.goal();
        cost = context.g(goal_node).cost;
        plan.clear();
        for (search::NodeIndex n = goal_node; context.parent(n) != search::kNoNode; n = context.parent(n))
            plan.push_back(ActionId(context.label(n)));
        std::reverse(plan.begin(), plan.end());
    }
    return status = s;
}

}  // namespace gameplan::goap::detail
