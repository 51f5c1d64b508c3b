// Strong stubborn sets and deferred LM-cut evaluation: optimal costs against a brute-force forward
// Dijkstra over the reachable states of random tasks (deletes, negative preconditions, zero-cost
// actions), in both search engines and both directions; and the size rule of the defaults.
#include <gameplan/goap/auto_direction.hpp>
#include <gameplan/goap/planner.hpp>
#include <gameplan/goap/task_generator.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <goap_reference.hpp>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::goap;

namespace {

using test::indexed_name;

// Random task: 1-3 preconditions (a third of them negative when `negative`), 1-3 effects (a third of
// them deletes), costs 0..max_cost.
Domain random_task(std::mt19937& rng, int atoms, int actions, bool negative, int max_cost) {
    DomainBuilder b;
    for (int i = 0; i < atoms; ++i) b.add_atom(indexed_name("p", i));
    for (int a = 0; a < actions; ++a) {
        std::vector<Literal> pre, eff;
        const int np = 1 + static_cast<int>(rng() % 3), ne = 1 + static_cast<int>(rng() % 3);
        for (int k = 0; k < np; ++k)
            pre.push_back(Literal{AtomId(static_cast<std::uint32_t>(rng() % atoms)), negative ? rng() % 3 != 0 : true});
        for (int k = 0; k < ne; ++k) eff.push_back(Literal{AtomId(static_cast<std::uint32_t>(rng() % atoms)), rng() % 3 != 0});
        (void)b.add_action(indexed_name("a", a), static_cast<double>(rng() % static_cast<unsigned>(max_cost + 1)), pre, eff);
    }
    return b.build();
}

// The cheapest cost by the test reference (a Dijkstra over complete states), infinity if none.
double brute_force(const Domain& d, const WorldState& start, const Condition& goal) {
    return test::brute_force_cost(d, start, goal).value_or(std::numeric_limits<double>::infinity());
}

struct Config {
    Direction direction;
    Heuristic heuristic;
    Pruning pruning;
    bool generic;
};

std::string describe(const Config& c) {
    return std::string(to_string(c.direction)) + " " + std::string(to_string(c.heuristic)) + " " +
           std::string(to_string(c.pruning)) + (c.generic ? " generic" : " word");
}

}  // namespace

// The generic engine (forced on these one-word tasks) defers LM-cut evaluations; stubborn sets prune
// forward search in both engines. Every configuration must find the brute-force optimum.
TEST(Pruning, OptimalCostsMatchBruteForce) {
    std::mt19937 rng(2026);
    std::vector<Config> configs;
    for (const bool generic : {false, true}) {
        for (const Heuristic h : {Heuristic::LmCut, Heuristic::HMax, Heuristic::Blind})
            configs.push_back({Direction::Forward, h, Pruning::StubbornSets, generic});
        configs.push_back({Direction::Forward, Heuristic::LmCut, Pruning::None, generic});
        configs.push_back({Direction::Backward, Heuristic::LmCut, Pruning::Auto, generic});
    }
    int found = 0, pruned_something = 0;
    for (int task = 0; task < 120; ++task) {
        const int atoms = 10 + task % 7;
        const Domain d = random_task(rng, atoms, 20 + task % 25, task % 3 != 0, task % 2 == 0 ? 3 : 5);
        Condition goal = d.make_condition();
        for (int k = 0; k < 2 + task % 4; ++k) goal.set(AtomId(static_cast<std::uint32_t>(rng() % atoms)), rng() % 3 != 0);
        WorldState start = d.make_state();
        for (int i = 0; i < atoms; ++i) start.set(AtomId(static_cast<std::uint32_t>(i)), rng() % 2 == 0);
        const double optimum = brute_force(d, start, goal);
        Planner planner(d);
        std::uint64_t generated_unpruned = 0, generated_pruned = 0;
        for (const Config& c : configs) {
            PlanOptions o;
            o.direction = c.direction;
            o.heuristic = c.heuristic;
            o.pruning = c.pruning;
            o.force_generic_representation = c.generic;
            const PlanResult r = planner.plan(start, goal, o);
            if (std::isinf(optimum)) {
                EXPECT_EQ(r.status, Status::NoPath) << task << " " << describe(c);
                continue;
            }
            ASSERT_EQ(r.status, Status::Found) << task << " " << describe(c);
            EXPECT_EQ(r.cost, optimum) << task << " " << describe(c);
            EXPECT_EQ(test::replay_cost(d, start, goal, r.plan), r.cost) << task << " " << describe(c);
            if (c.direction == Direction::Forward && c.heuristic == Heuristic::LmCut && !c.generic)
                (c.pruning == Pruning::None ? generated_unpruned : generated_pruned) += r.stats.generated;
        }
        if (!std::isinf(optimum)) ++found;
        if (generated_pruned < generated_unpruned) ++pruned_something;
    }
    EXPECT_GT(found, 60);            // most tasks are solvable: the comparison is not vacuous
    EXPECT_GT(pruned_something, 20);  // and stubborn sets do cut successors on many of them
}

// Small layered tasks (real deletes of intermediate goods) against the brute force, with every pruning
// and deferral on.
TEST(Pruning, LayeredTasksMatchBruteForce) {
    for (std::uint64_t seed = 0; seed < 12; ++seed) {
        LayeredTaskOptions lo;
        lo.atoms = 18, lo.actions = 45, lo.layers = 3, lo.delete_probability = 0.5, lo.seed = seed;
        const GeneratedTask t = generate_layered_task(lo);
        const double optimum = brute_force(t.domain, t.start, t.goal);
        ASSERT_FALSE(std::isinf(optimum)) << seed;  // layered tasks are always solvable
        Planner planner(t.domain);
        for (const bool generic : {false, true})
            for (const Direction dir : {Direction::Forward, Direction::Backward}) {
                PlanOptions o;
                o.direction = dir;
                o.heuristic = Heuristic::LmCut;
                o.pruning = Pruning::StubbornSets;
                o.force_generic_representation = generic;
                const PlanResult r = planner.plan(t.start, t.goal, o);
                ASSERT_EQ(r.status, Status::Found) << seed;
                EXPECT_EQ(r.cost, optimum) << seed << " " << to_string(dir) << (generic ? " generic" : "");
                EXPECT_EQ(test::replay_cost(t.domain, t.start, t.goal, r.plan), r.cost) << seed;
            }
    }
}

// A hand-made case where postponing an action with a contradicting effect loses the optimum: the goal
// needs p and q; the only cheap way to q deletes p. Pruning must keep "make q, kill p" as a first step
// although it is not needed to enable the goal action's chosen precondition p (q has two achievers).
TEST(Pruning, ConflictingEffectsAreNotPostponed) {
    DomainBuilder b;
    const AtomId p = b.add_atom("p"), q = b.add_atom("q"), g = b.add_atom("g");
    const std::vector<Literal> none, finish_pre{{p, true}, {q, true}}, finish_eff{{g, true}}, make_p{{p, true}},
        kill{{q, true}, {p, false}}, make_q{{q, true}};
    ASSERT_EQ(b.add_action("finish", 1, finish_pre, finish_eff), DomainError::None);
    ASSERT_EQ(b.add_action("make_p", 1, none, make_p), DomainError::None);
    ASSERT_EQ(b.add_action("make_q_kill_p", 1, none, kill), DomainError::None);
    ASSERT_EQ(b.add_action("make_q_slowly", 10, none, make_q), DomainError::None);
    const Domain d = b.build();
    Condition goal = d.make_condition();
    goal.set(g, true);
    const WorldState start = d.make_state();
    ASSERT_EQ(brute_force(d, start, goal), 3.0);
    Planner planner(d);
    for (const bool generic : {false, true})
        for (const Heuristic h : {Heuristic::LmCut, Heuristic::HMax, Heuristic::Blind}) {
            PlanOptions o;
            o.direction = Direction::Forward;
            o.heuristic = h;
            o.pruning = Pruning::StubbornSets;
            o.force_generic_representation = generic;
            const PlanResult r = planner.plan(start, goal, o);
            ASSERT_EQ(r.status, Status::Found);
            EXPECT_EQ(r.cost, 3.0) << to_string(h) << (generic ? " generic" : "");
        }
}

// The defaults (Direction::BySize, Heuristic::BySize): small queries plan backward with h_max; large ones
// forward with LM-cut where LM-cut sees more than h_max at the start (layered tasks, three goal atoms),
// backward with h_max where it does not (one long chain). The 100-atom / 500-action layered tasks are in
// planner_layered_test.cpp.
TEST(Pruning, SizeRuleChoosesPerQuery) {
    {
        LayeredTaskOptions lo;
        lo.atoms = 40, lo.actions = 120, lo.layers = 4, lo.seed = 1;
        const GeneratedTask t = generate_layered_task(lo);
        Planner planner(t.domain);
        const PlanResult r = planner.plan(t.start, t.goal, PlanOptions{});
        ASSERT_EQ(r.status, Status::Found);
        EXPECT_LE(planner.relevant_atom_count(), kSizeThresholdAtoms);
        EXPECT_EQ(planner.direction(), Direction::Backward);
        EXPECT_EQ(planner.heuristic(), Heuristic::HMax);
    }
    {  // 70 independent one-step goals: LM-cut 70, h_max 1 at the start
        DomainBuilder b;
        constexpr int kGoals = 70;
        for (int i = 0; i < kGoals; ++i) (void)b.add_atom(indexed_name("g", i));
        const std::vector<Literal> none;
        for (int i = 0; i < kGoals; ++i) {
            const std::vector<Literal> eff{{AtomId(static_cast<std::uint32_t>(i)), true}};
            ASSERT_EQ(b.add_action(indexed_name("set", i), 1, none, eff), DomainError::None);
        }
        const Domain d = b.build();
        Condition goal = d.make_condition();
        for (int i = 0; i < kGoals; ++i) goal.set(AtomId(static_cast<std::uint32_t>(i)), true);
        Planner planner(d);
        PlanOptions o;
        o.budget.max_expansions = 10 * kGoals;  // linear: backward h_max would need about 2^70
        const PlanResult r = planner.plan(d.make_state(), goal, o);
        ASSERT_EQ(r.status, Status::Found);
        EXPECT_EQ(r.cost, kGoals);
        EXPECT_EQ(planner.direction(), Direction::Forward);
        EXPECT_EQ(planner.heuristic(), Heuristic::LmCut);
    }
    {
        DomainBuilder b;
        constexpr int kRungs = 100;
        for (int i = 0; i < kRungs; ++i) (void)b.add_atom(indexed_name("r", i));
        for (int i = 0; i + 1 < kRungs; ++i) {
            const std::vector<Literal> pre{{AtomId(static_cast<std::uint32_t>(i)), true}};
            const std::vector<Literal> eff{{AtomId(static_cast<std::uint32_t>(i + 1)), true}};
            ASSERT_EQ(b.add_action(indexed_name("climb", i), 1, pre, eff), DomainError::None);
        }
        const Domain d = b.build();
        WorldState start = d.make_state();
        start.set(AtomId(0), true);
        Condition goal = d.make_condition();
        goal.set(AtomId(kRungs - 1), true);
        Planner planner(d);
        const PlanResult r = planner.plan(start, goal, PlanOptions{});
        ASSERT_EQ(r.status, Status::Found);
        EXPECT_EQ(r.cost, kRungs - 1);
        EXPECT_GT(planner.relevant_atom_count(), kSizeThresholdAtoms);
        EXPECT_EQ(planner.direction(), Direction::Backward);
        EXPECT_EQ(planner.heuristic(), Heuristic::HMax);
    }
}
