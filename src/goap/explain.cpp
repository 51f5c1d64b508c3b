#include <gameplan/goap/explain.hpp>

#include <algorithm>
#include <functional>
#include <limits>
#include <map>
#include <queue>
#include <tuple>

namespace gameplan::goap {

namespace {

bool is_enabled(std::span<const std::uint8_t> enabled, ActionId a) { return enabled.empty() || enabled[a.value] != 0; }

Literal literal_of(std::uint32_t index) { return Literal{AtomId(index / 2), (index & 1u) != 0}; }

// ---- the relaxation with variables -------------------------------------------------------------------

// What the relaxation reaches: literals, and per variable a range (integers) or a value set (enumerations).
struct Relaxed {
    std::vector<bool> literals;                 // by literal_index
    std::vector<std::int64_t> lo, hi;           // by variable
    std::vector<std::vector<bool>> values;      // by variable: an enumeration's reached values (empty: an integer)
};

class Relaxation {
public:
    Relaxation(const Domain& d, std::span<const std::uint8_t> enabled) : m_d(d), m_enabled(enabled) {}

    // The values of `x` that are reached and satisfy every comparison of `cmps` on `x`, as a range
    // (an enumeration: the smallest and largest such value index; empty when lo > hi). With `free_hi`
    // / `free_lo`, that end is not cut by the reached range (the cap an action's own comparisons and
    // the bounds put on repeated `+=` / `-=`).
    struct Range {
        std::int64_t lo = 0, hi = -1;
        [[nodiscard]] bool empty() const noexcept { return lo > hi; }
    };
    Range accepted(const Relaxed& r, VarId x, std::span<const Comparison> cmps, bool free_lo = false, bool free_hi = false) const {
        const std::uint32_t v = x.value;
        if (!r.values[v].empty()) {  // an enumeration: reached values passing every comparison
            Range out{1, 0};
            for (std::size_t i = 0; i < r.values[v].size(); ++i) {
                if (!r.values[v][i]) continue;
                bool ok = true;
                for (const Comparison& c : cmps)
                    if (c.var == x && !compare(static_cast<std::int32_t>(i), c.op, c.value)) ok = false;
                if (!ok) continue;
                if (out.empty()) out = {static_cast<std::int64_t>(i), static_cast<std::int64_t>(i)};
                else out.hi = static_cast<std::int64_t>(i);
            }
            return out;
        }
        Range out{free_lo ? m_d.variable_min(x) : r.lo[v], free_hi ? m_d.variable_max(x) : r.hi[v]};
        for (const Comparison& c : cmps) {
            if (c.var != x) continue;
            const std::int64_t k = c.value;
            switch (c.op) {
                case CompareOp::Eq: out.lo = std::max(out.lo, k); out.hi = std::min(out.hi, k); break;
                case CompareOp::Lt: out.hi = std::min(out.hi, k - 1); break;
                case CompareOp::Le: out.hi = std::min(out.hi, k); break;
                case CompareOp::Gt: out.lo = std::max(out.lo, k + 1); break;
                case CompareOp::Ge: out.lo = std::max(out.lo, k); break;
                case CompareOp::Ne: break;
            }
        }
        // `!=` cuts a range only at its ends.
        for (bool again = true; again && !out.empty();) {
            again = false;
            for (const Comparison& c : cmps) {
                if (c.var != x || c.op != CompareOp::Ne) continue;
                if (out.lo == c.value) { ++out.lo; again = true; }
                if (!out.empty() && out.hi == c.value) { --out.hi; again = true; }
            }
        }
        return out;
    }

    // The values an action with effect `e` accepts for its variable: its comparisons on it, and the
    // bounds the effect must stay within.
    Range source(const Relaxed& r, ActionId a, const NumericEffect& e, bool free_lo = false, bool free_hi = false) const {
        Range s = accepted(r, e.var, m_d.preconditions(a).comparisons(), free_lo, free_hi);
        if (!r.values[e.var.value].empty()) return s;
        if (e.op == EffectOp::Add) s.hi = std::min<std::int64_t>(s.hi, std::int64_t{m_d.variable_max(e.var)} - e.value);
        if (e.op == EffectOp::Sub) s.lo = std::max<std::int64_t>(s.lo, std::int64_t{m_d.variable_min(e.var)} + e.value);
        return s;
    }

    bool satisfiable(const Relaxed& r, const Comparison& c) const {
        return !accepted(r, c.var, std::span<const Comparison>(&c, 1)).empty();
    }

    // True if `a` applies in the relaxation: literals reached, comparisons satisfiable per variable,
    // and each numeric effect has a value it may start from.
    bool applies(const Relaxed& r, ActionId a) const {
        for (const Literal p : m_d.precondition_literals(a))
            if (!r.literals[literal_index(p)]) return false;
        const std::span<const Comparison> cmps = m_d.preconditions(a).comparisons();
        for (const Comparison& c : cmps)
            if (accepted(r, c.var, cmps).empty()) return false;
        for (const NumericEffect& e : m_d.numeric_effects(a))
            if (source(r, a, e).empty()) return false;
        return true;
    }

    Relaxed run(const WorldState& start) const {
        Relaxed r;
        const std::size_t atoms = m_d.atom_count(), vars = m_d.variable_count();
        r.literals.assign(2 * atoms, false);
        for (std::uint32_t a = 0; a < atoms; ++a) r.literals[literal_index(Literal{AtomId(a), start.get(AtomId(a))})] = true;
        r.lo.resize(vars);
        r.hi.resize(vars);
        r.values.resize(vars);
        for (std::uint32_t x = 0; x < vars; ++x) {
            const VarId v(x);
            r.lo[x] = r.hi[x] = start.value(v);
            if (m_d.variable_kind(v) == VariableKind::Enumeration) {
                r.values[x].assign(static_cast<std::size_t>(m_d.variable_max(v)) + 1, false);
                r.values[x][static_cast<std::size_t>(start.value(v))] = true;
            }
        }
        // Passes over the actions until nothing grows. Range ends only move to constants of the domain
        // (set values, caps of += / -=), so the passes are bounded by the literals plus the effects.
        for (bool changed = true; changed;) {
            changed = false;
            for (std::uint32_t i = 0; i < m_d.action_count(); ++i) {
                const ActionId a(i);
                if (!is_enabled(m_enabled, a) || !applies(r, a)) continue;
                for (const Literal e : m_d.effect_literals(a)) {
                    if (r.literals[literal_index(e)]) continue;
                    r.literals[literal_index(e)] = true;
                    changed = true;
                }
                for (const NumericEffect& e : m_d.numeric_effects(a)) {
                    const std::uint32_t x = e.var.value;
                    if (!r.values[x].empty()) {  // an enumeration: only `=`
                        if (!r.values[x][static_cast<std::size_t>(e.value)]) {
                            r.values[x][static_cast<std::size_t>(e.value)] = true;
                            changed = true;
                        }
                        continue;
                    }
                    std::int64_t lo = r.lo[x], hi = r.hi[x];
                    if (e.op == EffectOp::Set) {
                        lo = std::min<std::int64_t>(lo, e.value);
                        hi = std::max<std::int64_t>(hi, e.value);
                    } else if (e.value != 0) {
                        // Repeated `+= k` climbs to k above the largest value the action accepts (its own
                        // comparisons and the bound), `-= k` likewise downwards: one step to that limit.
                        const Range cap = source(r, a, e, e.op == EffectOp::Sub, e.op == EffectOp::Add);
                        if (e.op == EffectOp::Add) hi = std::max(hi, cap.hi + e.value);
                        else lo = std::min(lo, cap.lo - e.value);
                    }
                    if (lo != r.lo[x] || hi != r.hi[x]) {
                        r.lo[x] = lo;
                        r.hi[x] = hi;
                        changed = true;
                    }
                }
            }
        }
        return r;
    }

private:
    const Domain& m_d;
    std::span<const std::uint8_t> m_enabled;
};

}  // namespace

std::string literal_text(const Domain& domain, Literal literal) {
    return (literal.value ? "" : "!") + domain.atom_name(literal.atom);
}

std::vector<RelaxedRange> relaxed_ranges(const Domain& domain, const WorldState& start, std::span<const std::uint8_t> enabled) {
    const Relaxed r = Relaxation(domain, enabled).run(start);
    std::vector<RelaxedRange> out(domain.variable_count());
    for (std::size_t x = 0; x < out.size(); ++x) {
        if (r.values[x].empty()) {
            out[x] = {static_cast<std::int32_t>(r.lo[x]), static_cast<std::int32_t>(r.hi[x])};
            continue;
        }
        const auto first = std::find(r.values[x].begin(), r.values[x].end(), true);
        const auto last = std::find(r.values[x].rbegin(), r.values[x].rend(), true);
        out[x] = {static_cast<std::int32_t>(first - r.values[x].begin()),
                  static_cast<std::int32_t>(r.values[x].rend() - last - 1)};
    }
    return out;
}

std::vector<bool> relaxed_reachable(const Domain& domain, const WorldState& start, std::span<const std::uint8_t> enabled) {
    if (domain.variable_count() != 0) return Relaxation(domain, enabled).run(start).literals;
    const std::size_t atoms = domain.atom_count();
    const std::size_t actions = domain.action_count();
    std::vector<bool> reached(2 * atoms, false);
    // Counting fixpoint: each action waits for its unreached preconditions; when the count drops to
    // zero it fires once and adds its effects. O(total literals).
    std::vector<std::uint32_t> missing(actions, 0);
    std::vector<std::vector<std::uint32_t>> waiting(2 * atoms);
    std::vector<std::uint32_t> queue;
    for (std::uint32_t a = 0; a < atoms; ++a) {
        const std::uint32_t l = literal_index(Literal{AtomId(a), start.get(AtomId(a))});
        reached[l] = true;
        queue.push_back(l);
    }
    std::vector<ActionId> ready;
    for (std::uint32_t i = 0; i < actions; ++i) {
        const ActionId a(i);
        if (!is_enabled(enabled, a)) {
            missing[i] = UINT32_MAX;
            continue;
        }
        for (const Literal p : domain.precondition_literals(a)) {
            waiting[literal_index(p)].push_back(i);
            ++missing[i];
        }
        if (missing[i] == 0) ready.push_back(a);
    }
    const auto fire = [&](ActionId a) {
        for (const Literal e : domain.effect_literals(a)) {
            const std::uint32_t l = literal_index(e);
            if (!reached[l]) {
                reached[l] = true;
                queue.push_back(l);
            }
        }
    };
    for (const ActionId a : ready) fire(a);
    for (std::size_t head = 0; head < queue.size(); ++head) {
        for (const std::uint32_t i : waiting[queue[head]]) {
            if (missing[i] == UINT32_MAX || --missing[i] != 0) continue;
            fire(ActionId(i));
        }
    }
    return reached;
}

NoPlanAnalysis analyze_no_plan(const Domain& domain, const WorldState& start, const Condition& goal,
                               std::span<const std::uint8_t> enabled) {
    NoPlanAnalysis out;
    const Relaxation relax(domain, enabled);
    Relaxed rel;
    if (domain.variable_count() != 0) rel = relax.run(start);
    else rel.literals = relaxed_reachable(domain, start, enabled);
    const std::vector<bool>& reached = rel.literals;
    goal.for_each([&](Literal l) {
        if (!reached[literal_index(l)]) out.unreachable.push_back(l);
    });
    for (const Comparison& c : goal.comparisons())
        if (!relax.satisfiable(rel, c) &&
            std::find(out.unreachable_comparisons.begin(), out.unreachable_comparisons.end(), c) == out.unreachable_comparisons.end())
            out.unreachable_comparisons.push_back(c);
    if (out.unreachable.empty() && out.unreachable_comparisons.empty()) return out;
    // Comparisons to explain (NumericBlock), in the order found: the goal's first.
    std::vector<Comparison> blocks = out.unreachable_comparisons;
    const auto block = [&](const Comparison& c) {
        if (std::find(blocks.begin(), blocks.end(), c) == blocks.end()) blocks.push_back(c);
    };

    // The "waits for" graph over unreached literals, explored from the unreachable goal literals.
    const std::size_t n = 2 * domain.atom_count();
    std::vector<bool> seen(n, false);
    std::vector<std::vector<std::uint32_t>> waits(n);
    std::vector<std::uint32_t> order;  // visited literals
    std::vector<bool> disabled_seen(domain.action_count(), false);
    std::vector<std::uint32_t> stack;
    for (const Literal l : out.unreachable) {
        const std::uint32_t i = literal_index(l);
        if (!seen[i]) {
            seen[i] = true;
            stack.push_back(i);
        }
    }
    std::size_t next_block = 0;
    while (!stack.empty() || next_block < blocks.size()) {
        if (stack.empty()) {
            // A comparison: the actions whose effect on its variable would satisfy it, and what stops them.
            const Comparison c = blocks[next_block++];
            NumericBlock b;
            b.condition = c;
            const std::uint32_t x = c.var.value;
            if (rel.values[x].empty()) {
                b.reachable_min = static_cast<std::int32_t>(rel.lo[x]);
                b.reachable_max = static_cast<std::int32_t>(rel.hi[x]);
            } else {
                for (std::size_t v = 0; v < rel.values[x].size(); ++v)
                    if (rel.values[x][v]) b.reachable_values.push_back(static_cast<std::int32_t>(v));
                b.reachable_min = b.reachable_values.front();
                b.reachable_max = b.reachable_values.back();
            }
            const bool up = c.op == CompareOp::Gt || c.op == CompareOp::Ge || c.op == CompareOp::Ne ||
                            (c.op == CompareOp::Eq && c.value > b.reachable_max);
            const bool down = c.op == CompareOp::Lt || c.op == CompareOp::Le || c.op == CompareOp::Ne ||
                              (c.op == CompareOp::Eq && c.value < b.reachable_min);
            for (std::uint32_t i = 0; i < domain.action_count(); ++i) {
                const ActionId a(i);
                bool helps = false;
                for (const NumericEffect& e : domain.numeric_effects(a)) {
                    if (e.var != c.var) continue;
                    helps = e.op == EffectOp::Set ? compare(e.value, c.op, c.value)
                                                  : e.value != 0 && (e.op == EffectOp::Add ? up : down);
                }
                if (!helps) continue;
                if (!is_enabled(enabled, a)) {
                    b.disabled.push_back(a);
                    disabled_seen[a.value] = true;
                    continue;
                }
                BlockedChanger ch;
                ch.action = a;
                for (const Literal p : domain.precondition_literals(a)) {
                    const std::uint32_t j = literal_index(p);
                    if (reached[j]) continue;
                    ch.missing.push_back(p);
                    if (!seen[j]) {
                        seen[j] = true;
                        stack.push_back(j);
                    }
                }
                for (const Comparison& p : domain.preconditions(a).comparisons()) {
                    if (!relax.satisfiable(rel, p)) {
                        ch.unsatisfiable.push_back(p);
                        block(p);
                    } else if (p.var == c.var) {
                        ch.limits.push_back(p);
                    }
                }
                b.changers.push_back(std::move(ch));
            }
            out.numeric.push_back(std::move(b));
            continue;
        }
        const std::uint32_t i = stack.back();
        stack.pop_back();
        order.push_back(i);
        bool achievable = false;
        for (const ActionId a : domain.achievers(literal_of(i))) {
            if (!is_enabled(enabled, a)) {
                disabled_seen[a.value] = true;
                continue;
            }
            achievable = true;
            for (const Literal p : domain.precondition_literals(a)) {
                const std::uint32_t j = literal_index(p);
                if (reached[j]) continue;
                if (std::find(waits[i].begin(), waits[i].end(), j) == waits[i].end()) waits[i].push_back(j);
                if (!seen[j]) {
                    seen[j] = true;
                    stack.push_back(j);
                }
            }
            for (const Comparison& p : domain.preconditions(a).comparisons())
                if (!relax.satisfiable(rel, p)) block(p);
        }
        if (!achievable) out.root_causes.push_back(literal_of(i));
    }
    std::sort(out.root_causes.begin(), out.root_causes.end(),
              [](Literal a, Literal b) { return literal_index(a) < literal_index(b); });
    for (std::uint32_t a = 0; a < domain.action_count(); ++a)
        if (disabled_seen[a]) out.disabled.push_back(ActionId(a));

    // Tarjan's strongly connected components, iteratively, over the visited literals in index order.
    std::sort(order.begin(), order.end());
    std::vector<std::uint32_t> index(n, UINT32_MAX), low(n, 0);
    std::vector<bool> on_stack(n, false);
    std::vector<std::uint32_t> scc_stack;
    std::uint32_t counter = 0;
    struct Frame {
        std::uint32_t node;
        std::size_t next;
    };
    std::vector<Frame> frames;
    for (const std::uint32_t root : order) {
        if (index[root] != UINT32_MAX) continue;
        frames.push_back({root, 0});
        index[root] = low[root] = counter++;
        scc_stack.push_back(root);
        on_stack[root] = true;
        while (!frames.empty()) {
            Frame& f = frames.back();
            const std::uint32_t v = f.node;
            if (f.next < waits[v].size()) {
                const std::uint32_t w = waits[v][f.next++];
                if (index[w] == UINT32_MAX) {
                    index[w] = low[w] = counter++;
                    scc_stack.push_back(w);
                    on_stack[w] = true;
                    frames.push_back({w, 0});
                } else if (on_stack[w]) {
                    low[v] = std::min(low[v], index[w]);
                }
                continue;
            }
            if (low[v] == index[v]) {
                std::vector<Literal> component;
                for (;;) {
                    const std::uint32_t w = scc_stack.back();
                    scc_stack.pop_back();
                    on_stack[w] = false;
                    component.push_back(literal_of(w));
                    if (w == v) break;
                }
                const bool self_loop = std::find(waits[v].begin(), waits[v].end(), v) != waits[v].end();
                if (component.size() >= 2 || self_loop) {
                    std::sort(component.begin(), component.end(),
                              [](Literal a, Literal b) { return literal_index(a) < literal_index(b); });
                    out.cycles.push_back(std::move(component));
                }
            }
            frames.pop_back();
            if (!frames.empty()) low[frames.back().node] = std::min(low[frames.back().node], low[v]);
        }
    }
    std::sort(out.cycles.begin(), out.cycles.end(), [](const std::vector<Literal>& a, const std::vector<Literal>& b) {
        return literal_index(a.front()) < literal_index(b.front());
    });
    return out;
}

std::vector<PlanStep> explain_plan(const Domain& domain, const WorldState& start, const Condition& goal,
                                   std::span<const ActionId> plan) {
    std::vector<PlanStep> steps;
    WorldState state = start;
    for (const ActionId a : plan) {
        PlanStep s;
        s.action = a;
        for (const Literal e : domain.effect_literals(a))
            if (state.get(e.atom) != e.value) s.changes.push_back(e);
        state.apply(domain.effects(a));
        s.state = state;
        steps.push_back(std::move(s));
    }
    const auto step_count = static_cast<std::uint32_t>(plan.size());
    for (std::uint32_t i = 0; i < step_count; ++i) {
        for (const Literal l : steps[i].changes) {
            bool overwritten = false;
            for (std::uint32_t j = i + 1; j < step_count && !overwritten; ++j) {
                const Condition& pre = domain.preconditions(plan[j]);
                if (pre.cares(l.atom) && pre.value(l.atom) == l.value) steps[i].reasons.push_back({j, l});
                overwritten = domain.effects(plan[j]).cares(l.atom);
            }
            if (!overwritten && goal.cares(l.atom) && goal.value(l.atom) == l.value)
                steps[i].reasons.push_back({step_count, l});
        }
    }
    return steps;
}

namespace {

// h_max from `state`: the cost of the goal's dearest literal when every action costs its precondition's
// dearest literal plus its own cost (Bellman-Ford to a fixpoint). Infinity when unreachable.
double h_max(const Domain& d, const WorldState& state, const Condition& goal, std::span<const std::uint8_t> enabled,
             std::vector<double>& cost) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    const std::size_t atoms = d.atom_count();
    cost.assign(2 * atoms, inf);
    for (std::uint32_t a = 0; a < atoms; ++a) cost[literal_index(Literal{AtomId(a), state.get(AtomId(a))})] = 0;
    for (bool changed = true; changed;) {
        changed = false;
        for (std::uint32_t i = 0; i < d.action_count(); ++i) {
            const ActionId a(i);
            if (!is_enabled(enabled, a)) continue;
            double c = 0;
            for (const Literal p : d.precondition_literals(a)) c = std::max(c, cost[literal_index(p)]);
            if (c == inf) continue;
            c += d.action_cost(a);
            for (const Literal e : d.effect_literals(a)) {
                double& slot = cost[literal_index(e)];
                if (c < slot) {
                    slot = c;
                    changed = true;
                }
            }
        }
    }
    double h = 0;
    goal.for_each([&](Literal l) { h = std::max(h, cost[literal_index(l)]); });
    return h;
}

}  // namespace

SearchTrace trace_search(const Domain& domain, const WorldState& start, const Condition& goal, std::uint64_t max_expansions,
                         std::span<const std::uint8_t> enabled) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    SearchTrace t;
    std::vector<double> scratch;
    std::map<std::vector<std::uint64_t>, std::uint32_t> ids;
    // Open list entries: (f, h, -sequence, node); the smallest first.
    using Entry = std::tuple<double, double, std::int64_t, std::uint32_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
    std::int64_t sequence = 0;
    const auto key_of = [](const WorldState& s) { return std::vector<std::uint64_t>(s.words().begin(), s.words().end()); };
    const double h0 = h_max(domain, start, goal, enabled, scratch);
    t.nodes.push_back(TraceNode{start, 0, h0, UINT32_MAX, ActionId(), 0});
    ids.emplace(key_of(start), 0);
    if (h0 == inf) return t;
    open.emplace(h0, h0, -sequence++, 0);
    std::vector<bool> closed(1, false);
    while (!open.empty()) {
        const auto [f, h, neg_seq, id] = open.top();
        open.pop();
        (void)neg_seq;
        if (closed[id] || f > t.nodes[id].g + t.nodes[id].h) continue;  // stale entry
        if (t.nodes[id].state.satisfies(goal)) {
            t.status = Status::Found;
            t.cost = t.nodes[id].g;
            for (std::uint32_t n = id; n != UINT32_MAX; n = t.nodes[n].parent) t.plan_nodes.push_back(n);
            std::reverse(t.plan_nodes.begin(), t.plan_nodes.end());
            return t;
        }
        if (t.expanded >= max_expansions) {
            t.status = Status::BudgetExhausted;
            return t;
        }
        closed[id] = true;
        t.nodes[id].expanded = static_cast<std::uint32_t>(++t.expanded);
        const WorldState state = t.nodes[id].state;
        const double g = t.nodes[id].g;
        for (std::uint32_t i = 0; i < domain.action_count(); ++i) {
            const ActionId a(i);
            if (!is_enabled(enabled, a) || !domain.applicable(a, state)) continue;
            WorldState next = state;
            next.apply(domain.effects(a));
            const double ng = g + domain.action_cost(a);
            const auto [it, fresh] = ids.emplace(key_of(next), static_cast<std::uint32_t>(t.nodes.size()));
            if (fresh) {
                const double nh = h_max(domain, next, goal, enabled, scratch);
                t.nodes.push_back(TraceNode{std::move(next), ng, nh, id, a, 0});
                closed.push_back(false);
                if (nh != inf) open.emplace(ng + nh, nh, -sequence++, it->second);
                continue;
            }
            TraceNode& n = t.nodes[it->second];
            if (closed[it->second] || ng >= n.g || n.h == inf) continue;
            n.g = ng;
            n.parent = id;
            n.action = a;
            open.emplace(ng + n.h, n.h, -sequence++, it->second);
        }
    }
    return t;
}

}  // namespace gameplan::goap
