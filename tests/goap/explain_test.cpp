// "Why no plan?" against brute force on random domains (naive relaxed reachability, dependency closure
// and transitive closure written here), the two root-cause shapes of the issue (an atom nothing sets, a
// cycle of atoms that only need each other), and plan explanations.
#include <gameplan/goap/explain.hpp>
#include <gameplan/goap/planner.hpp>

#include <algorithm>
#include <random>
#include <set>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::goap;

namespace {

std::string numbered(const char* prefix, int i) {
    std::string s = prefix;
    s += std::to_string(i);
    return s;
}

struct Problem {
    Domain domain;
    WorldState start;
    Condition goal;
    std::vector<std::uint8_t> enabled;
};

Problem random_problem(std::mt19937& rng) {
    const int atoms = std::uniform_int_distribution<int>(2, 9)(rng);
    const int actions = std::uniform_int_distribution<int>(0, 12)(rng);
    DomainBuilder b;
    for (int i = 0; i < atoms; ++i) b.add_atom(numbered("a", i));
    std::uniform_int_distribution<int> atom(0, atoms - 1), coin(0, 1), count(0, 3);
    for (int k = 0; k < actions; ++k) {
        std::vector<Literal> pre, eff;
        std::set<int> used;
        for (int c = count(rng); c > 0; --c) {
            const int a = atom(rng);
            if (used.insert(a).second) pre.push_back(Literal{AtomId(static_cast<std::uint32_t>(a)), coin(rng) == 1});
        }
        used.clear();
        for (int c = 1 + count(rng) / 2; c > 0; --c) {
            const int a = atom(rng);
            if (used.insert(a).second) eff.push_back(Literal{AtomId(static_cast<std::uint32_t>(a)), coin(rng) == 1});
        }
        EXPECT_EQ(b.add_action(numbered("act", k), 1.0 + count(rng), pre, eff), DomainError::None);
    }
    Problem p{b.build(), WorldState(static_cast<std::size_t>(atoms)), Condition(static_cast<std::size_t>(atoms)), {}};
    for (int i = 0; i < atoms; ++i) p.start.set(AtomId(static_cast<std::uint32_t>(i)), coin(rng) == 1);
    for (int c = 1 + count(rng) / 2; c > 0; --c) p.goal.set(AtomId(static_cast<std::uint32_t>(atom(rng))), coin(rng) == 1);
    if (coin(rng)) {
        p.enabled.resize(static_cast<std::size_t>(actions));
        for (auto& e : p.enabled) e = std::uniform_int_distribution<int>(0, 3)(rng) != 0;
    }
    return p;
}

bool on(const Problem& p, std::uint32_t a) { return p.enabled.empty() || p.enabled[a]; }

// Literal l as an index (2 * atom + value), independently of the library's helper.
std::uint32_t idx(Literal l) { return l.atom.value * 2 + (l.value ? 1 : 0); }

bool sets(const Problem& p, std::uint32_t a, std::uint32_t l) {
    const Condition& e = p.domain.effects(ActionId(a));
    return e.cares(AtomId(l / 2)) && e.value(AtomId(l / 2)) == ((l & 1) != 0);
}

// Naive relaxed reachability: sweep all actions until nothing changes.
std::vector<bool> brute_reached(const Problem& p) {
    const std::size_t n = p.domain.atom_count();
    std::vector<bool> r(2 * n, false);
    for (std::uint32_t a = 0; a < n; ++a) r[a * 2 + (p.start.get(AtomId(a)) ? 1 : 0)] = true;
    for (bool changed = true; changed;) {
        changed = false;
        for (std::uint32_t a = 0; a < p.domain.action_count(); ++a) {
            if (!on(p, a)) continue;
            bool ok = true;
            for (std::uint32_t l = 0; l < 2 * n; ++l) {
                const Condition& pre = p.domain.preconditions(ActionId(a));
                if (pre.cares(AtomId(l / 2)) && pre.value(AtomId(l / 2)) == ((l & 1) != 0) && !r[l]) ok = false;
            }
            if (!ok) continue;
            for (std::uint32_t l = 0; l < 2 * n; ++l)
                if (sets(p, a, l) && !r[l]) r[l] = changed = true;
        }
    }
    return r;
}

std::set<std::uint32_t> as_set(const std::vector<Literal>& v) {
    std::set<std::uint32_t> s;
    for (const Literal l : v) s.insert(idx(l));
    return s;
}

}  // namespace

TEST(ExplainNoPlan, MatchesBruteForceOnRandomDomains) {
    std::mt19937 rng(20261202);
    int with_roots = 0, with_cycles = 0, interfering = 0;
    for (int trial = 0; trial < 3000; ++trial) {
        const Problem p = random_problem(rng);
        const std::size_t n = p.domain.atom_count();
        const std::vector<bool> r = brute_reached(p);
        ASSERT_EQ(relaxed_reachable(p.domain, p.start, p.enabled), r) << "trial " << trial;
        const NoPlanAnalysis a = analyze_no_plan(p.domain, p.start, p.goal, p.enabled);

        std::set<std::uint32_t> unreachable;
        for (std::uint32_t l = 0; l < 2 * n; ++l)
            if (p.goal.cares(AtomId(l / 2)) && p.goal.value(AtomId(l / 2)) == ((l & 1) != 0) && !r[l]) unreachable.insert(l);
        ASSERT_EQ(as_set(a.unreachable), unreachable) << "trial " << trial;

        // Dependency closure: unreached preconditions of enabled achievers, transitively.
        std::set<std::uint32_t> closure = unreachable;
        for (bool changed = true; changed;) {
            changed = false;
            for (const std::uint32_t l : std::set<std::uint32_t>(closure))
                for (std::uint32_t act = 0; act < p.domain.action_count(); ++act) {
                    if (!on(p, act) || !sets(p, act, l)) continue;
                    p.domain.preconditions(ActionId(act)).for_each([&](Literal q) {
                        if (!r[idx(q)] && closure.insert(idx(q)).second) changed = true;
                    });
                }
        }
        std::set<std::uint32_t> roots;
        for (const std::uint32_t l : closure) {
            bool achieved = false;
            for (std::uint32_t act = 0; act < p.domain.action_count(); ++act) achieved |= on(p, act) && sets(p, act, l);
            if (!achieved) roots.insert(l);
        }
        ASSERT_EQ(as_set(a.root_causes), roots) << "trial " << trial;
        for (const Literal l : a.root_causes) {
            EXPECT_FALSE(p.start.get(l.atom) == l.value) << "a root cause true at the start, trial " << trial;
            for (std::uint32_t act = 0; act < p.domain.action_count(); ++act)
                EXPECT_FALSE(on(p, act) && sets(p, act, idx(l))) << "an enabled action sets a root cause, trial " << trial;
        }

        // Cycles: mutual reachability in the waits-for relation (transitive closure by Warshall).
        std::vector<std::uint32_t> nodes(closure.begin(), closure.end());
        const std::size_t m = nodes.size();
        std::vector<std::vector<bool>> reach(m, std::vector<bool>(m, false));
        for (std::size_t i = 0; i < m; ++i)
            for (std::size_t j = 0; j < m; ++j)
                for (std::uint32_t act = 0; act < p.domain.action_count(); ++act) {
                    if (!on(p, act) || !sets(p, act, nodes[i])) continue;
                    const Condition& pre = p.domain.preconditions(ActionId(act));
                    if (pre.cares(AtomId(nodes[j] / 2)) && pre.value(AtomId(nodes[j] / 2)) == ((nodes[j] & 1) != 0)) reach[i][j] = true;
                }
        for (std::size_t k = 0; k < m; ++k)
            for (std::size_t i = 0; i < m; ++i)
                for (std::size_t j = 0; j < m; ++j)
                    if (reach[i][k] && reach[k][j]) reach[i][j] = true;
        std::set<std::set<std::uint32_t>> cycles;
        for (std::size_t i = 0; i < m; ++i) {
            if (!reach[i][i]) continue;
            std::set<std::uint32_t> c;
            for (std::size_t j = 0; j < m; ++j)
                if (reach[i][j] && reach[j][i]) c.insert(nodes[j]);
            cycles.insert(c);
        }
        std::set<std::set<std::uint32_t>> got;
        for (const auto& c : a.cycles) got.insert(as_set(c));
        ASSERT_EQ(got, cycles) << "trial " << trial;
        ASSERT_EQ(got.size(), a.cycles.size()) << "a cycle reported twice, trial " << trial;

        // Every unreachable goal has an explanation; with none unreachable a NoPath means interference.
        if (!unreachable.empty()) {
            EXPECT_FALSE(roots.empty() && cycles.empty()) << "trial " << trial;
        }
        with_roots += !roots.empty();
        with_cycles += !cycles.empty();
        if (unreachable.empty()) {
            Planner planner(p.domain);
            PlanOptions o;
            o.enabled = p.enabled;
            interfering += planner.plan(p.start, p.goal, o).status == Status::NoPath;
        }
    }
    // The random family exercises every case.
    EXPECT_GT(with_roots, 100);
    EXPECT_GT(with_cycles, 20);
    EXPECT_GT(interfering, 5);
}

TEST(ExplainNoPlan, GuardBlockedBySeesPlayerNotTargetHit) {
    // attack sets target_hit but needs sees_player, which nothing sets: the root cause is sees_player.
    DomainBuilder b;
    ASSERT_EQ(b.add_action("draw", 1, {}, {{"armed", true}}), DomainError::None);
    ASSERT_EQ(b.add_action("attack", 2, {{"armed", true}, {"sees_player", true}}, {{"target_hit", true}}), DomainError::None);
    ASSERT_EQ(b.add_action("patrol", 1, {}, {{"tired", true}}), DomainError::None);
    const Domain d = b.build();
    Condition goal = d.make_condition();
    goal.set(d.find_atom("target_hit"), true);
    const NoPlanAnalysis a = analyze_no_plan(d, d.make_state(), goal);
    ASSERT_EQ(a.unreachable.size(), 1u);
    EXPECT_EQ(literal_text(d, a.unreachable[0]), "target_hit");
    ASSERT_EQ(a.root_causes.size(), 1u);
    EXPECT_EQ(literal_text(d, a.root_causes[0]), "sees_player");
    EXPECT_TRUE(a.cycles.empty());
    // With draw switched off (a context check), armed becomes a root cause too, and draw is named.
    const std::uint8_t mask[] = {0, 1, 1};
    const NoPlanAnalysis off = analyze_no_plan(d, d.make_state(), goal, mask);
    ASSERT_EQ(off.root_causes.size(), 2u);
    EXPECT_EQ(literal_text(d, off.root_causes[0]), "armed");
    EXPECT_EQ(literal_text(d, off.root_causes[1]), "sees_player");
    ASSERT_EQ(off.disabled.size(), 1u);
    EXPECT_EQ(d.action_name(off.disabled[0]), "draw");
}

TEST(ExplainNoPlan, CycleOfAtomsThatOnlyNeedEachOther) {
    // key opens the chest, but the key is in the chest: has_key <- open_chest <- has_key.
    DomainBuilder b;
    ASSERT_EQ(b.add_action("open_chest", 1, {{"has_key", true}}, {{"chest_open", true}}), DomainError::None);
    ASSERT_EQ(b.add_action("take_key", 1, {{"chest_open", true}}, {{"has_key", true}}), DomainError::None);
    ASSERT_EQ(b.add_action("loot", 1, {{"chest_open", true}}, {{"rich", true}}), DomainError::None);
    const Domain d = b.build();
    Condition goal = d.make_condition();
    goal.set(d.find_atom("rich"), true);
    const NoPlanAnalysis a = analyze_no_plan(d, d.make_state(), goal);
    EXPECT_TRUE(a.root_causes.empty());
    ASSERT_EQ(a.cycles.size(), 1u);
    ASSERT_EQ(a.cycles[0].size(), 2u);
    EXPECT_EQ(literal_text(d, a.cycles[0][0]), "has_key");
    EXPECT_EQ(literal_text(d, a.cycles[0][1]), "chest_open");
}

TEST(ExplainPlan, StepsSayWhatTheyLeaveAndWhy) {
    DomainBuilder b;
    ASSERT_EQ(b.add_action("buy", 3, {}, {{"has_food", true}}), DomainError::None);
    ASSERT_EQ(b.add_action("eat", 5, {{"has_food", true}}, {{"hungry", false}, {"has_food", false}}), DomainError::None);
    const Domain d = b.build();
    WorldState start = d.make_state();
    start.set(d.find_atom("hungry"), true);
    Condition goal = d.make_condition();
    goal.set(d.find_atom("hungry"), false);
    Planner planner(d);
    const PlanResult r = planner.plan(start, goal);
    ASSERT_EQ(r.status, Status::Found);
    const std::vector<PlanStep> steps = explain_plan(d, start, goal, r.plan);
    ASSERT_EQ(steps.size(), 2u);
    EXPECT_EQ(d.action_name(steps[0].action), "buy");
    ASSERT_EQ(steps[0].reasons.size(), 1u);
    EXPECT_EQ(steps[0].reasons[0].step, 1u);
    EXPECT_EQ(literal_text(d, steps[0].reasons[0].literal), "has_food");
    EXPECT_TRUE(steps[0].state.get(d.find_atom("has_food")));
    ASSERT_EQ(steps[1].reasons.size(), 1u);
    EXPECT_EQ(steps[1].reasons[0].step, 2u);  // the goal
    EXPECT_EQ(literal_text(d, steps[1].reasons[0].literal), "!hungry");
    EXPECT_EQ(steps[1].changes.size(), 2u);
    EXPECT_FALSE(steps[1].state.get(d.find_atom("hungry")));
}

TEST(TraceSearch, SameOptimalCostAsThePlannerOnRandomDomains) {
    std::mt19937 rng(7);
    int found = 0;
    for (int trial = 0; trial < 400; ++trial) {
        const Problem p = random_problem(rng);
        Planner planner(p.domain);
        PlanOptions o;
        o.enabled = p.enabled;
        const PlanResult r = planner.plan(p.start, p.goal, o);
        const SearchTrace t = trace_search(p.domain, p.start, p.goal, 1'000'000, p.enabled);
        ASSERT_EQ(t.status, r.status) << "trial " << trial;
        if (r.status != Status::Found) continue;
        ++found;
        EXPECT_EQ(t.cost, r.cost) << "trial " << trial;
        // The recorded path is a valid plan: each node is its parent plus the action's effects.
        ASSERT_FALSE(t.plan_nodes.empty());
        EXPECT_EQ(t.plan_nodes.front(), 0u);
        WorldState s = p.start;
        double cost = 0;
        for (std::size_t i = 1; i < t.plan_nodes.size(); ++i) {
            const TraceNode& n = t.nodes[t.plan_nodes[i]];
            EXPECT_EQ(n.parent, t.plan_nodes[i - 1]);
            ASSERT_TRUE(s.satisfies(p.domain.preconditions(n.action)));
            s.apply(p.domain.effects(n.action));
            cost += p.domain.action_cost(n.action);
            EXPECT_EQ(n.g, cost);
            EXPECT_TRUE(s == n.state);
        }
        EXPECT_TRUE(s.satisfies(p.goal));
        for (const std::uint32_t id : t.plan_nodes) EXPECT_LE(t.nodes[id].h, r.cost - t.nodes[id].g + 1e-9);  // admissible
    }
    EXPECT_GT(found, 100);
}

TEST(TraceSearch, BudgetStopsTheSearch) {
    DomainBuilder b;
    for (int i = 0; i < 6; ++i) ASSERT_EQ(b.add_action(numbered("flip", i), 1, {}, {{numbered("x", i), true}}), DomainError::None);
    const Domain d = b.build();
    Condition goal = d.make_condition();
    for (std::uint32_t i = 0; i < 6; ++i) goal.set(AtomId(i), true);
    const SearchTrace t = trace_search(d, d.make_state(), goal, 3);
    EXPECT_EQ(t.status, Status::BudgetExhausted);
    EXPECT_EQ(t.expanded, 3u);
    EXPECT_TRUE(t.plan_nodes.empty());
}

// ---- numeric goals -----------------------------------------------------------------------------------

namespace {

// A small random domain with two integer variables, an enumeration and a few atoms, with comparisons in
// preconditions and `=`, `+=`, `-=` effects.
struct NumericProblem {
    Domain domain;
    WorldState start;
    std::vector<std::uint8_t> enabled;
};

NumericProblem random_numeric_problem(std::mt19937& rng) {
    std::uniform_int_distribution<int> coin(0, 1), count(0, 2);
    DomainBuilder b;
    const int atoms = std::uniform_int_distribution<int>(1, 3)(rng);
    for (int i = 0; i < atoms; ++i) b.add_atom(numbered("a", i));
    const std::int32_t x_max = std::uniform_int_distribution<std::int32_t>(2, 7)(rng);
    const std::int32_t y_max = std::uniform_int_distribution<std::int32_t>(0, 4)(rng);
    const VarId x = b.add_integer_variable("x", 0, x_max);
    const VarId y = b.add_integer_variable("y", -2, y_max);
    const std::vector<std::string> places = {"home", "forest", "store"};
    const VarId z = b.add_enum_variable("z", places);
    const std::int32_t lo[] = {0, -2, 0}, hi[] = {x_max, y_max, 2};
    const VarId vars[] = {x, y, z};
    const int actions = std::uniform_int_distribution<int>(0, 7)(rng);
    for (int k = 0; k < actions; ++k) {
        std::vector<Literal> pre, eff;
        std::vector<Comparison> cmps;
        std::vector<NumericEffect> neff;
        for (int c = count(rng); c > 0; --c)
            pre.push_back(Literal{AtomId(static_cast<std::uint32_t>(std::uniform_int_distribution<int>(0, atoms - 1)(rng))), coin(rng) == 1});
        for (int c = count(rng); c > 0; --c) {
            const int v = std::uniform_int_distribution<int>(0, 2)(rng);
            const int op = v == 2 ? std::uniform_int_distribution<int>(0, 1)(rng) : std::uniform_int_distribution<int>(0, 5)(rng);
            cmps.push_back(Comparison{vars[v], static_cast<CompareOp>(op), std::uniform_int_distribution<std::int32_t>(lo[v], hi[v])(rng)});
        }
        if (coin(rng))
            eff.push_back(Literal{AtomId(static_cast<std::uint32_t>(std::uniform_int_distribution<int>(0, atoms - 1)(rng))), coin(rng) == 1});
        bool used[3] = {false, false, false};
        for (int c = 1 + count(rng) / 2; c > 0; --c) {
            const int v = std::uniform_int_distribution<int>(0, 2)(rng);
            if (used[v]) continue;
            used[v] = true;
            const int op = v == 2 ? 0 : std::uniform_int_distribution<int>(0, 2)(rng);
            const std::int32_t value = op == 0 ? std::uniform_int_distribution<std::int32_t>(lo[v], hi[v])(rng)
                                               : std::uniform_int_distribution<std::int32_t>(0, 3)(rng);
            neff.push_back(NumericEffect{vars[v], static_cast<EffectOp>(op), value});
        }
        (void)b.add_action(numbered("act", k), 1.0, pre, eff, cmps, neff);  // a contradictory draw is left out
    }
    NumericProblem p{b.build(), {}, {}};
    p.start = p.domain.make_state();
    for (int i = 0; i < atoms; ++i) p.start.set(AtomId(static_cast<std::uint32_t>(i)), coin(rng) == 1);
    for (int v = 0; v < 3; ++v) p.start.set_value(vars[v], std::uniform_int_distribution<std::int32_t>(lo[v], hi[v])(rng));
    if (coin(rng)) {
        p.enabled.resize(p.domain.action_count());
        for (auto& e : p.enabled) e = std::uniform_int_distribution<int>(0, 3)(rng) != 0;
    }
    return p;
}

// Every state reachable from the start (real semantics: can_apply and apply), by breadth-first search.
std::vector<WorldState> reachable_states(const NumericProblem& p) {
    std::vector<WorldState> states{p.start};
    std::set<std::pair<std::vector<std::uint64_t>, std::vector<std::int32_t>>> seen;
    const auto key = [&](const WorldState& s) {
        std::vector<std::int32_t> values;
        for (std::uint32_t v = 0; v < p.domain.variable_count(); ++v) values.push_back(s.value(VarId(v)));
        return std::make_pair(std::vector<std::uint64_t>(s.words().begin(), s.words().end()), values);
    };
    seen.insert(key(p.start));
    for (std::size_t head = 0; head < states.size(); ++head) {
        for (std::uint32_t i = 0; i < p.domain.action_count(); ++i) {
            const ActionId a(i);
            if ((!p.enabled.empty() && !p.enabled[i]) || !p.domain.can_apply(a, states[head])) continue;
            WorldState next = states[head];
            p.domain.apply(a, next);
            if (seen.insert(key(next)).second) states.push_back(std::move(next));
        }
    }
    return states;
}

}  // namespace

// The interval relaxation never calls a reachable goal unreachable (every value a real plan reaches is
// inside the relaxed range, every reachable literal is reached), and whatever it calls unreachable no
// state of the brute-force search satisfies. Every single comparison of every variable is tried as a goal.
TEST(ExplainNumeric, IntervalRelaxationIsSoundAgainstBruteForceReachability) {
    std::mt19937 rng(20261203);
    int proved_unreachable = 0, reachable = 0;
    for (int round = 0; round < 400; ++round) {
        const NumericProblem p = random_numeric_problem(rng);
        const Domain& d = p.domain;
        const std::vector<WorldState> states = reachable_states(p);
        const std::vector<RelaxedRange> ranges = relaxed_ranges(d, p.start, p.enabled);
        const std::vector<bool> literals = relaxed_reachable(d, p.start, p.enabled);
        for (const WorldState& s : states) {
            for (std::uint32_t v = 0; v < d.variable_count(); ++v) {
                EXPECT_GE(s.value(VarId(v)), ranges[v].min) << "round " << round;
                EXPECT_LE(s.value(VarId(v)), ranges[v].max) << "round " << round;
            }
            for (std::uint32_t a = 0; a < d.atom_count(); ++a)
                EXPECT_TRUE(literals[literal_index(Literal{AtomId(a), s.get(AtomId(a))})]) << "round " << round;
        }
        for (std::uint32_t v = 0; v < d.variable_count(); ++v) {
            const VarId x(v);
            const bool is_enum = d.variable_kind(x) == VariableKind::Enumeration;
            for (int op = 0; op < (is_enum ? 2 : 6); ++op) {
                for (std::int32_t value = d.variable_min(x); value <= d.variable_max(x); ++value) {
                    const Comparison c{x, static_cast<CompareOp>(op), value};
                    Condition goal = d.make_condition();
                    goal.require(c);
                    const bool brute = std::any_of(states.begin(), states.end(),
                                                   [&](const WorldState& s) { return compare(s.value(x), c.op, c.value); });
                    const NoPlanAnalysis a = analyze_no_plan(d, p.start, goal, p.enabled);
                    const bool reported = !a.unreachable_comparisons.empty();
                    if (brute) {
                        ++reachable;
                        EXPECT_FALSE(reported) << "round " << round << ": " << d.variable_name(x) << " op " << op << " " << value;
                    } else if (reported) {
                        ++proved_unreachable;
                    }
                    if (reported) {
                        ASSERT_EQ(a.unreachable_comparisons.size(), 1u);
                        EXPECT_EQ(a.unreachable_comparisons[0], c);
                        ASSERT_FALSE(a.numeric.empty());
                        EXPECT_EQ(a.numeric[0].condition, c);
                        // the reported range is the relaxed one, and excludes the goal
                        EXPECT_EQ(a.numeric[0].reachable_min, ranges[v].min);
                        EXPECT_EQ(a.numeric[0].reachable_max, ranges[v].max);
                    }
                }
            }
        }
    }
    EXPECT_GT(proved_unreachable, 300);  // the relaxation is not trivially silent
    EXPECT_GT(reachable, 1000);
}

TEST(ExplainNumeric, GoldNeedsAPickaxeNothingGives) {
    // mine adds 3 gold but needs has_pick, which nothing sets; trade sets gold to 2 only.
    DomainBuilder b;
    const VarId gold = b.add_integer_variable("gold", 0, 20);
    const AtomId pick = b.add_atom("has_pick");
    const Literal need_pick[] = {{pick, true}};
    const NumericEffect mine_eff[] = {{gold, EffectOp::Add, 3}};
    const NumericEffect trade_eff[] = {{gold, EffectOp::Set, 2}};
    ASSERT_EQ(b.add_action("mine", 1, need_pick, {}, {}, mine_eff), DomainError::None);
    ASSERT_EQ(b.add_action("trade", 1, {}, {}, {}, trade_eff), DomainError::None);
    const Domain d = b.build();
    Condition goal = d.make_condition();
    goal.require(Comparison{gold, CompareOp::Ge, 10});
    const NoPlanAnalysis a = analyze_no_plan(d, d.make_state(), goal);
    EXPECT_TRUE(a.unreachable.empty());
    ASSERT_EQ(a.unreachable_comparisons.size(), 1u);
    ASSERT_EQ(a.numeric.size(), 1u);
    const NumericBlock& blk = a.numeric[0];
    EXPECT_EQ(blk.reachable_min, 0);
    EXPECT_EQ(blk.reachable_max, 2);
    EXPECT_FALSE(blk.root_cause());
    ASSERT_EQ(blk.changers.size(), 1u);  // trade's `= 2` cannot satisfy gold >= 10
    EXPECT_EQ(d.action_name(blk.changers[0].action), "mine");
    ASSERT_EQ(blk.changers[0].missing.size(), 1u);
    EXPECT_EQ(literal_text(d, blk.changers[0].missing[0]), "has_pick");
    ASSERT_EQ(a.root_causes.size(), 1u);  // the literal analysis takes over from the changer
    EXPECT_EQ(literal_text(d, a.root_causes[0]), "has_pick");
    // With mine switched off, nothing enabled can raise gold: a numeric root cause, mine named disabled.
    const std::uint8_t mask[] = {0, 1};
    const NoPlanAnalysis off = analyze_no_plan(d, d.make_state(), goal, mask);
    ASSERT_EQ(off.numeric.size(), 1u);
    EXPECT_TRUE(off.numeric[0].root_cause());
    ASSERT_EQ(off.numeric[0].disabled.size(), 1u);
    ASSERT_EQ(off.disabled.size(), 1u);
    EXPECT_EQ(d.action_name(off.disabled[0]), "mine");
}

TEST(ExplainNumeric, ACapInTheChangersOwnConditionAndAChainOfComparisons) {
    // chop adds wood while wood < 4 (so wood reaches 4 at most); sell needs wood >= 6 to give coins;
    // the goal needs coins >= 1. The chain: coins >= 1 <- sell <- wood >= 6 <- chop, capped by wood < 4.
    DomainBuilder b;
    const VarId wood = b.add_integer_variable("wood", 0, 10);
    const VarId coins = b.add_integer_variable("coins", 0, 5);
    const Comparison under4[] = {{wood, CompareOp::Lt, 4}};
    const Comparison six[] = {{wood, CompareOp::Ge, 6}};
    const NumericEffect chop_eff[] = {{wood, EffectOp::Add, 1}};
    const NumericEffect sell_eff[] = {{coins, EffectOp::Add, 1}};
    ASSERT_EQ(b.add_action("chop", 1, {}, {}, under4, chop_eff), DomainError::None);
    ASSERT_EQ(b.add_action("sell", 1, {}, {}, six, sell_eff), DomainError::None);
    const Domain d = b.build();
    EXPECT_EQ(relaxed_ranges(d, d.make_state())[wood.value].max, 4);
    Condition goal = d.make_condition();
    goal.require(Comparison{coins, CompareOp::Ge, 1});
    const NoPlanAnalysis a = analyze_no_plan(d, d.make_state(), goal);
    ASSERT_EQ(a.numeric.size(), 2u);
    EXPECT_EQ(a.numeric[0].condition, (Comparison{coins, CompareOp::Ge, 1}));
    ASSERT_EQ(a.numeric[0].changers.size(), 1u);
    EXPECT_EQ(d.action_name(a.numeric[0].changers[0].action), "sell");
    ASSERT_EQ(a.numeric[0].changers[0].unsatisfiable.size(), 1u);
    EXPECT_EQ(a.numeric[0].changers[0].unsatisfiable[0], six[0]);
    EXPECT_EQ(a.numeric[1].condition, six[0]);
    EXPECT_EQ(a.numeric[1].reachable_max, 4);
    ASSERT_EQ(a.numeric[1].changers.size(), 1u);
    EXPECT_EQ(d.action_name(a.numeric[1].changers[0].action), "chop");
    ASSERT_EQ(a.numeric[1].changers[0].limits.size(), 1u);
    EXPECT_EQ(a.numeric[1].changers[0].limits[0], under4[0]);
    EXPECT_TRUE(a.root_causes.empty());
}
