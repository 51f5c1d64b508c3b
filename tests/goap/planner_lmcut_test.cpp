// LM-cut: admissible against brute-force optimal costs on tiny random tasks (every reachable state),
// never below h_max, plans of the same optimal cost as h_max and blind search in both directions, and
// no allocation per plan after warm-up.
#include <gameplan/goap/planner.hpp>

#include <alloc_counter.hpp>
#include <goap_reference.hpp>

#include <cmath>
#include <limits>
#include <map>
#include <queue>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::goap;

namespace {

using test::indexed_name;

// Random STRIPS-like task over `atoms` atoms; costs 0..3 (zero-cost actions included).
Domain random_task(std::mt19937& rng, int atoms, int actions, bool negative) {
    DomainBuilder b;
    for (int i = 0; i < atoms; ++i) b.add_atom(indexed_name("p", i));
    for (int a = 0; a < actions; ++a) {
        std::vector<Literal> pre, eff;
        const int np = static_cast<int>(rng() % 3), ne = 1 + static_cast<int>(rng() % 3);
        for (int k = 0; k < np; ++k)
            pre.push_back(Literal{AtomId(static_cast<std::uint32_t>(rng() % atoms)), negative ? rng() % 3 != 0 : true});
        for (int k = 0; k < ne; ++k) eff.push_back(Literal{AtomId(static_cast<std::uint32_t>(rng() % atoms)), rng() % 3 != 0});
        (void)b.add_action(indexed_name("a", a), static_cast<double>(rng() % 4), pre, eff);
    }
    return b.build();
}

// Optimal cost from every state to the goal: Dijkstra backward over the explicit state space.
std::vector<double> optimal_costs(const Domain& d, const Condition& goal) {
    const std::size_t n = std::size_t{1} << d.atom_count();
    const auto state_of = [&](std::size_t bits) {
        WorldState s = d.make_state();
        for (std::size_t i = 0; i < d.atom_count(); ++i) s.set(AtomId(static_cast<std::uint32_t>(i)), (bits >> i) & 1u);
        return s;
    };
    const auto bits_of = [&](const WorldState& s) {
        std::size_t bits = 0;
        for (std::size_t i = 0; i < d.atom_count(); ++i)
            if (s.get(AtomId(static_cast<std::uint32_t>(i)))) bits |= std::size_t{1} << i;
        return bits;
    };
    std::vector<std::vector<std::pair<std::size_t, double>>> rev(n);
    for (std::size_t s = 0; s < n; ++s) {
        const WorldState st = state_of(s);
        for (std::uint32_t a = 0; a < d.action_count(); ++a) {
            if (!d.applicable(ActionId(a), st)) continue;
            WorldState next = st;
            d.apply(ActionId(a), next);
            rev[bits_of(next)].push_back({s, d.action_cost(ActionId(a))});
        }
    }
    std::vector<double> dist(n, std::numeric_limits<double>::infinity());
    using Item = std::pair<double, std::size_t>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> q;
    for (std::size_t s = 0; s < n; ++s)
        if (state_of(s).satisfies(goal)) {
            dist[s] = 0;
            q.push({0, s});
        }
    while (!q.empty()) {
        const auto [c, s] = q.top();
        q.pop();
        if (c > dist[s]) continue;
        for (const auto& [p, w] : rev[s])
            if (c + w < dist[p]) {
                dist[p] = c + w;
                q.push({c + w, p});
            }
    }
    return dist;
}

}  // namespace

TEST(LmCut, AdmissibleAndAtLeastHMaxOnTinyRandomTasks) {
    std::mt19937 rng(11);
    int informative = 0;
    for (int task = 0; task < 60; ++task) {
        const int atoms = 4 + task % 4;
        const Domain d = random_task(rng, atoms, 6 + task % 7, task % 2 == 1);
        Condition goal = d.make_condition();
        for (int k = 0; k < 2 + task % 2; ++k)
            goal.set(AtomId(static_cast<std::uint32_t>(rng() % atoms)), task % 3 != 0 || rng() % 2 == 0);
        const std::vector<double> hstar = optimal_costs(d, goal);
        Planner planner(d);
        for (std::size_t bits = 0; bits < hstar.size(); ++bits) {
            WorldState s = d.make_state();
            for (int i = 0; i < atoms; ++i) s.set(AtomId(static_cast<std::uint32_t>(i)), (bits >> i) & 1u);
            PlanOptions lm, hm;
            lm.heuristic = Heuristic::LmCut;
            hm.heuristic = Heuristic::HMax;
            const double h_lm = planner.estimate(s, goal, lm);
            const double h_max = planner.estimate(s, goal, hm);
            if (hstar[bits] == std::numeric_limits<double>::infinity()) {
                // Relaxed-unreachable goals give infinity; otherwise any value is admissible.
                EXPECT_EQ(std::isinf(h_lm), std::isinf(h_max));
                continue;
            }
            ASSERT_LE(h_lm, hstar[bits] + 1e-9) << "task " << task << " state " << bits;
            ASSERT_GE(h_lm, h_max - 1e-9) << "task " << task << " state " << bits;
            if (h_lm > h_max) ++informative;
        }
    }
    EXPECT_GT(informative, 50);  // LM-cut is strictly stronger than h_max somewhere
}

TEST(LmCut, SameOptimalCostAsHMaxAndBlindBothDirections) {
    std::mt19937 rng(12);
    for (int task = 0; task < 80; ++task) {
        const int atoms = 5 + task % 6;
        const Domain d = random_task(rng, atoms, 8 + task % 9, task % 2 == 0);
        Condition goal = d.make_condition();
        for (int k = 0; k < 3; ++k) goal.set(AtomId(static_cast<std::uint32_t>(rng() % atoms)), rng() % 3 != 0);
        WorldState start = d.make_state();
        for (int i = 0; i < atoms; ++i) start.set(AtomId(static_cast<std::uint32_t>(i)), rng() % 2 == 0);
        std::size_t start_bits = 0;
        for (int i = 0; i < atoms; ++i)
            if (start.get(AtomId(static_cast<std::uint32_t>(i)))) start_bits |= std::size_t{1} << i;
        const double optimum = optimal_costs(d, goal)[start_bits];
        Planner planner(d);
        for (const Direction dir : {Direction::Forward, Direction::Backward})
            for (const bool generic : {false, true})
                for (const Heuristic h : {Heuristic::LmCut, Heuristic::HMax, Heuristic::Blind}) {
                    PlanOptions o;
                    o.direction = dir;
                    o.heuristic = h;
                    o.force_generic_representation = generic;
                    const PlanResult r = planner.plan(start, goal, o);
                    if (std::isinf(optimum)) {
                        EXPECT_EQ(r.status, Status::NoPath);
                        continue;
                    }
                    ASSERT_EQ(r.status, Status::Found) << task;
                    EXPECT_EQ(r.cost, optimum) << task << " " << to_string(h) << " " << to_string(dir);
                    WorldState s = start;  // the plan is valid and reaches the goal
                    double cost = 0;
                    for (const ActionId a : r.plan) {
                        ASSERT_TRUE(d.applicable(a, s));
                        d.apply(a, s);
                        cost += d.action_cost(a);
                    }
                    EXPECT_TRUE(s.satisfies(goal));
                    EXPECT_EQ(cost, r.cost);
                }
    }
}

TEST(LmCut, ZeroAllocationsPerPlanAfterWarmUp) {
    std::mt19937 rng(13);
    for (const int atoms : {20, 130}) {
        const Domain d = random_task(rng, atoms, atoms * 2, true);
        std::vector<WorldState> starts;
        std::vector<Condition> goals;
        for (int q = 0; q < 20; ++q) {
            WorldState s = d.make_state();
            for (int i = 0; i < atoms; ++i) s.set(AtomId(static_cast<std::uint32_t>(i)), rng() % 2 == 0);
            Condition g = d.make_condition();
            for (int k = 0; k < 3; ++k) g.set(AtomId(static_cast<std::uint32_t>(rng() % atoms)), rng() % 2 == 0);
            starts.push_back(s);
            goals.push_back(g);
        }
        Planner planner(d);
        for (const Direction dir : {Direction::Forward, Direction::Backward}) {
            PlanOptions o;
            o.direction = dir;
            o.heuristic = Heuristic::LmCut;
            o.budget.max_expansions = 2000;
            for (int q = 0; q < 20; ++q) (void)planner.plan(starts[q], goals[q], o);  // warm-up
            test::AllocationScope scope;
            for (int q = 0; q < 20; ++q) (void)planner.plan(starts[q], goals[q], o);
            EXPECT_EQ(scope.count(), 0u) << atoms << " atoms, " << to_string(dir);
        }
    }
}

// K independent two-step goals (prepare_i then finish_i, optimum 2K): h_max sees only one goal and
// explodes; LM-cut sums the goals and expands O(K) states in both directions.
TEST(LmCut, IndependentTwoStepGoalsExpandLinearly) {
    for (const int k : {4, 8, 16, 32}) {
        DomainBuilder b;
        for (int i = 0; i < k; ++i) {
            (void)b.add_action(indexed_name("prepare", i), 1, {}, {{indexed_name("ready", i), true}});
            (void)b.add_action(indexed_name("finish", i), 1, {{indexed_name("ready", i), true}}, {{indexed_name("done", i), true}});
        }
        const Domain d = b.build();
        Condition goal = d.make_condition();
        for (int i = 0; i < k; ++i) goal.set(d.find_atom(indexed_name("done", i)), true);
        Planner planner(d);
        for (const Direction dir : {Direction::Forward, Direction::Backward}) {
            PlanOptions o;
            o.direction = dir;
            o.heuristic = Heuristic::LmCut;
            const PlanResult r = planner.plan(d.make_state(), goal, o);
            ASSERT_EQ(r.status, Status::Found);
            EXPECT_EQ(r.cost, 2 * k);
            EXPECT_LE(r.stats.expanded, static_cast<std::uint64_t>(2 * k + 1)) << k << " " << to_string(dir);
        }
    }
}
