// One-shot crowd solver (LaCAM over PIBT): every solution checked by an independent validator.
#include "crowd_support.hpp"

#include <gameplan/io/movingai.hpp>
#include <gameplan/path/crowd.hpp>

#include <test_data.hpp>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <thread>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;
using crowd_test::validate;

namespace {

struct Instance {
    GridMap map;
    std::vector<GridPoint> starts, goals;
};

// Random map with obstacles; agents' starts and goals drawn from the largest component so every
// agent can reach its goal.
Instance random_instance(std::mt19937& rng, int w, int h, double density, std::size_t agents) {
    Instance inst;
    (void)inst.map.reset(w, h);
    std::uniform_real_distribution<double> u(0, 1);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            if (u(rng) < density) inst.map.set_passable({x, y}, false);
    std::vector<GridPoint> free;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            if (inst.map.passable({x, y})) free.push_back({x, y});
    // largest component by repeated BFS from unassigned cells
    std::vector<GridPoint> best;
    std::vector<char> seen(static_cast<std::size_t>(w * h), 0);
    for (const GridPoint p : free) {
        if (seen[static_cast<std::size_t>(p.y * w + p.x)]) continue;
        std::vector<GridPoint> comp{p};
        seen[static_cast<std::size_t>(p.y * w + p.x)] = 1;
        for (std::size_t k = 0; k < comp.size(); ++k) {
            const GridPoint q = comp[k];
            const GridPoint next[4] = {{q.x + 1, q.y}, {q.x - 1, q.y}, {q.x, q.y + 1}, {q.x, q.y - 1}};
            for (const GridPoint r : next)
                if (inst.map.passable(r) && !seen[static_cast<std::size_t>(r.y * w + r.x)]) {
                    seen[static_cast<std::size_t>(r.y * w + r.x)] = 1;
                    comp.push_back(r);
                }
        }
        if (comp.size() > best.size()) best = comp;
    }
    agents = std::min(agents, best.size());
    std::vector<GridPoint> a = best, b = best;
    std::shuffle(a.begin(), a.end(), rng);
    std::shuffle(b.begin(), b.end(), rng);
    inst.starts.assign(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(agents));
    inst.goals.assign(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(agents));
    return inst;
}

}  // namespace

TEST(Crowd, RandomSmallInstancesAreSolvedAndValid) {
    std::mt19937 rng(7);
    CrowdSolver solver;
    CrowdSolution solution;
    int solved = 0;
    for (int round = 0; round < 120; ++round) {
        const int w = 4 + static_cast<int>(rng() % 9);
        const int h = 4 + static_cast<int>(rng() % 9);
        const double density = (rng() % 4) * 0.1;
        const std::size_t agents = 1 + rng() % static_cast<std::size_t>(w * h / 2);
        const Instance inst = random_instance(rng, w, h, density, agents);
        CrowdOptions options;
        options.seed = round;
        options.budget.max_expansions = 200000;
        const Status status = solver.solve(inst.map, inst.starts, inst.goals, options, solution);
        ASSERT_NE(status, Status::InvalidQuery) << "round " << round;
        if (status != Status::Found) continue;  // unsolvable or too hard within the budget: never wrong
        ++solved;
        ASSERT_EQ(validate(inst.map, inst.starts, inst.goals, solution), "") << "round " << round;
    }
    EXPECT_GE(solved, 100);
}

TEST(Crowd, DenseRandomInstancesAreSolvedAndValid) {
    std::mt19937 rng(11);
    CrowdSolver solver;
    CrowdSolution solution;
    for (int round = 0; round < 10; ++round) {
        const Instance inst = random_instance(rng, 20, 20, 0.15, 150);
        const Status status = solver.solve(inst.map, inst.starts, inst.goals, CrowdOptions{}, solution);
        ASSERT_EQ(status, Status::Found) << "round " << round;
        ASSERT_EQ(validate(inst.map, inst.starts, inst.goals, solution), "") << "round " << round;
    }
}

TEST(Crowd, AnytimeStoppedDuringThePortfolioRunsKeepsAValidSolution) {
    // Jammed first solutions (sum of costs >= 3.5 x the lower bound) are followed by more runs of the
    // search with other ties; a budget that ends in the middle of them must still give a valid
    // solution no worse than the first.
    std::mt19937 rng(5);
    CrowdSolver solver;
    CrowdSolution first, stopped;
    int jammed = 0;
    for (int round = 0; round < 3; ++round) {
        const Instance inst = random_instance(rng, 16, 16, 0.2, 110);
        ASSERT_EQ(solver.solve(inst.map, inst.starts, inst.goals, CrowdOptions{}, first), Status::Found);
        const std::uint64_t calls = solver.stats().search.expanded;
        if (first.sum_of_costs * 2 >= first.lower_bound * 7) ++jammed;
        for (const std::uint64_t extra : {1u, 7u, 40u, 300u}) {
            CrowdOptions options;
            options.anytime = true;
            options.budget.max_expansions = calls + extra;
            ASSERT_EQ(solver.solve(inst.map, inst.starts, inst.goals, options, stopped), Status::Found);
            ASSERT_EQ(validate(inst.map, inst.starts, inst.goals, stopped), "") << "round " << round << " +" << extra;
            EXPECT_LE(stopped.sum_of_costs, first.sum_of_costs);
            EXPECT_TRUE(solver.has_solution());
        }
    }
    EXPECT_GE(jammed, 1);  // the portfolio was exercised
}

// A hold given before a save still holds after it (the state keeps the flag), as in the stepper that
// was never saved; without the hold the unit walks on.
TEST(CrowdStepper, AHoldSurvivesASaveAndRestore) {
    GridMap map;
    (void)map.reset(6, 1);
    const std::vector<GridPoint> route{{2, 0}, {3, 0}, {4, 0}};
    for (const bool hold : {true, false}) {
        CrowdStepper straight;
        straight.reset(map);
        const CrowdAgentId a = straight.add({1, 0});
        ASSERT_TRUE(straight.set_goal(a, route));
        if (hold) {
            ASSERT_TRUE(straight.hold(a));
        }
        CrowdStepperState state;
        straight.save_state(state);
        CrowdStepper restored;
        restored.reset(map);
        ASSERT_FALSE(restored.restore_state(state).has_value());
        ASSERT_TRUE(restored.set_goal(a, route));
        straight.tick();
        restored.tick();
        EXPECT_EQ(restored.position(a), straight.position(a));
        EXPECT_EQ(restored.last_move(a), straight.last_move(a));
        EXPECT_EQ(restored.position(a), (hold ? GridPoint{1, 0} : GridPoint{2, 0}));
    }
}

TEST(Crowd, CorridorSwapWithAPocket) {
    // Two agents swap ends of a one-wide corridor that has a single side pocket.
    const GridMap map = crowd_test::parse({
        ".......",
        "@@@.@@@",
    });
    const std::vector<GridPoint> starts{{0, 0}, {6, 0}};
    const std::vector<GridPoint> goals{{6, 0}, {0, 0}};
    CrowdSolver solver;
    CrowdSolution solution;
    ASSERT_EQ(solver.solve(map, starts, goals, CrowdOptions{}, solution), Status::Found);
    EXPECT_EQ(validate(map, starts, goals, solution), "");
    // three agents through the same corridor, all reversing their order
    const std::vector<GridPoint> s3{{0, 0}, {1, 0}, {6, 0}};
    const std::vector<GridPoint> g3{{6, 0}, {5, 0}, {0, 0}};
    ASSERT_EQ(solver.solve(map, s3, g3, CrowdOptions{}, solution), Status::Found);
    EXPECT_EQ(validate(map, s3, g3, solution), "");
    // the anytime search keeps both valid and never worse; the optimum is a known reference
    CrowdOptions anytime;
    anytime.anytime = true;
    anytime.budget.max_expansions = 5000;
    for (const auto& [s, g] : {std::pair{starts, goals}, std::pair{s3, g3}}) {
        CrowdSolution first, improved;
        ASSERT_EQ(solver.solve(map, s, g, CrowdOptions{}, first), Status::Found);
        ASSERT_EQ(solver.solve(map, s, g, anytime, improved), Status::Found);
        EXPECT_EQ(validate(map, s, g, improved), "");
        EXPECT_LE(improved.sum_of_costs, first.sum_of_costs);
        EXPECT_GE(static_cast<long>(improved.sum_of_costs), crowd_test::optimal_sum_of_costs(map, s, g));
    }
}

TEST(Crowd, FullRingRotation) {
    // Eight agents fill a ring around a wall; each goal is the next cell clockwise: only a rotation of
    // the whole ring (allowed: a cycle of 3+ agents) solves it, in one step.
    const GridMap map = crowd_test::parse({
        "...",
        ".@.",
        "...",
    });
    const std::vector<GridPoint> ring{{0, 0}, {1, 0}, {2, 0}, {2, 1}, {2, 2}, {1, 2}, {0, 2}, {0, 1}};
    std::vector<GridPoint> goals;
    for (std::size_t i = 0; i < ring.size(); ++i) goals.push_back(ring[(i + 1) % ring.size()]);
    CrowdSolver solver;
    CrowdSolution solution;
    ASSERT_EQ(solver.solve(map, ring, goals, CrowdOptions{}, solution), Status::Found);
    EXPECT_EQ(validate(map, ring, goals, solution), "");
    EXPECT_EQ(solution.makespan, 1u);
    EXPECT_EQ(solution.sum_of_costs, 8u);
    // already optimal: the anytime search must keep the rotation (prioritized planning cannot find it)
    CrowdOptions anytime;
    anytime.anytime = true;
    anytime.budget.max_expansions = 2000;
    ASSERT_EQ(solver.solve(map, ring, goals, anytime, solution), Status::Found);
    EXPECT_EQ(validate(map, ring, goals, solution), "");
    EXPECT_EQ(solution.sum_of_costs, 8u);
    // half the ring rotates, the other half stays: still one step for the movers
    std::vector<GridPoint> half_goals = ring;
    std::vector<GridPoint> half_starts = ring;
    half_starts.resize(5);
    half_goals.resize(5);
    for (std::size_t i = 0; i < 4; ++i) half_goals[i] = ring[i + 1];
    half_goals[4] = ring[5];
    CrowdSolution first;
    ASSERT_EQ(solver.solve(map, half_starts, half_goals, CrowdOptions{}, first), Status::Found);
    ASSERT_EQ(solver.solve(map, half_starts, half_goals, anytime, solution), Status::Found);
    EXPECT_EQ(validate(map, half_starts, half_goals, solution), "");
    EXPECT_LE(solution.sum_of_costs, first.sum_of_costs);
    EXPECT_EQ(static_cast<long>(solution.sum_of_costs), crowd_test::optimal_sum_of_costs(map, half_starts, half_goals));
}

TEST(Crowd, UnsolvableInstancesAreReportedFailed) {
    CrowdSolver solver;
    CrowdSolution solution;
    // a swap in a one-wide corridor without any pocket
    const GridMap corridor = crowd_test::parse({"....."});
    const std::vector<GridPoint> s{{0, 0}, {4, 0}};
    const std::vector<GridPoint> g{{4, 0}, {0, 0}};
    EXPECT_EQ(solver.solve(corridor, s, g, CrowdOptions{}, solution), Status::NoPath);
    EXPECT_FALSE(solver.has_solution());
    EXPECT_EQ(solver.unreachable_agent(), UINT32_MAX);  // each goal is reachable alone: proved by the search
    // a goal behind a wall: the agent is named (the second here; the first reaches its goal)
    const GridMap walled = crowd_test::parse({"..@..", "..@.."});
    const std::vector<GridPoint> s2{{0, 0}, {3, 1}};
    const std::vector<GridPoint> g2{{1, 1}, {1, 0}};
    EXPECT_EQ(solver.solve(walled, s2, g2, CrowdOptions{}, solution), Status::NoPath);
    EXPECT_EQ(solver.unreachable_agent(), 1u);
    // and forgotten by the next solve
    ASSERT_EQ(solver.solve(walled, std::vector<GridPoint>{{0, 0}}, std::vector<GridPoint>{{1, 1}}, CrowdOptions{}, solution), Status::Found);
    EXPECT_EQ(solver.unreachable_agent(), UINT32_MAX);
    // a full dead-end corridor cannot reorder its agents
    const GridMap line = crowd_test::parse({"...", "@@@"});
    const std::vector<GridPoint> s3{{0, 0}, {1, 0}, {2, 0}};
    const std::vector<GridPoint> g3{{1, 0}, {0, 0}, {2, 0}};
    EXPECT_EQ(solver.solve(line, s3, g3, CrowdOptions{}, solution), Status::NoPath);
}

TEST(Crowd, InvalidQueries) {
    const GridMap map = crowd_test::parse({"....", ".@..", "...."});
    CrowdSolver solver;
    CrowdSolution solution;
    const std::vector<GridPoint> a{{0, 0}, {0, 0}};
    const std::vector<GridPoint> b{{3, 0}, {3, 2}};
    EXPECT_EQ(solver.solve(map, a, b, CrowdOptions{}, solution), Status::InvalidQuery);  // shared start
    EXPECT_EQ(solver.solve(map, b, a, CrowdOptions{}, solution), Status::InvalidQuery);  // shared goal
    const std::vector<GridPoint> blocked{{1, 1}};
    const std::vector<GridPoint> one{{0, 0}};
    EXPECT_EQ(solver.solve(map, blocked, one, CrowdOptions{}, solution), Status::InvalidQuery);
    EXPECT_EQ(solver.solve(map, one, blocked, CrowdOptions{}, solution), Status::InvalidQuery);
    const std::vector<GridPoint> off{{9, 9}};
    EXPECT_EQ(solver.solve(map, off, one, CrowdOptions{}, solution), Status::InvalidQuery);
    EXPECT_EQ(solver.solve(map, one, std::vector<GridPoint>{}, CrowdOptions{}, solution), Status::InvalidQuery);
    // nobody to move, and everybody already home
    EXPECT_EQ(solver.solve(map, std::vector<GridPoint>{}, std::vector<GridPoint>{}, CrowdOptions{}, solution), Status::Found);
    EXPECT_EQ(solution.sum_of_costs, 0u);
    EXPECT_EQ(solver.solve(map, one, one, CrowdOptions{}, solution), Status::Found);
    EXPECT_EQ(solution.sum_of_costs, 0u);
    EXPECT_EQ(solution.makespan, 0u);
}

TEST(Crowd, DeterministicAcrossRunsAndThreads) {
    std::mt19937 rng(3);
    const Instance inst = random_instance(rng, 24, 24, 0.2, 200);
    CrowdSolution first, second, threaded;
    CrowdSolver solver;
    ASSERT_EQ(solver.solve(inst.map, inst.starts, inst.goals, CrowdOptions{}, first), Status::Found);
    CrowdSolver other;
    ASSERT_EQ(other.solve(inst.map, inst.starts, inst.goals, CrowdOptions{}, second), Status::Found);
    EXPECT_EQ(first.cells, second.cells);
    Status status = Status::InvalidQuery;
    std::thread worker([&] {
        CrowdSolver mine;
        status = mine.solve(inst.map, inst.starts, inst.goals, CrowdOptions{}, threaded);
    });
    ASSERT_EQ(solver.solve(inst.map, inst.starts, inst.goals, CrowdOptions{}, second), Status::Found);
    worker.join();
    ASSERT_EQ(status, Status::Found);
    EXPECT_EQ(first.cells, threaded.cells);
    EXPECT_EQ(first.cells, second.cells);
}

TEST(Crowd, ResumableSlicesGiveTheSameSolution) {
    std::mt19937 rng(5);
    const Instance inst = random_instance(rng, 16, 16, 0.25, 90);
    CrowdSolver solver;
    CrowdSolution whole, sliced;
    ASSERT_EQ(solver.solve(inst.map, inst.starts, inst.goals, CrowdOptions{}, whole), Status::Found);
    ASSERT_EQ(solver.begin(inst.map, inst.starts, inst.goals, CrowdOptions{}), Status::InProgress);
    Status status = Status::InProgress;
    int slices = 0;
    while ((status = solver.step(3)) == Status::InProgress) ++slices;
    ASSERT_EQ(status, Status::Found);
    EXPECT_GT(slices, 1);
    ASSERT_EQ(solver.finish(sliced), Status::Found);
    EXPECT_EQ(whole.cells, sliced.cells);
    // an expansion budget too small for the instance
    CrowdOptions tiny;
    tiny.budget.max_expansions = 2;
    EXPECT_EQ(solver.solve(inst.map, inst.starts, inst.goals, tiny, sliced), Status::BudgetExhausted);
}

TEST(Crowd, AnytimeNeverWorsensAndStaysValid) {
    std::mt19937 rng(9);
    CrowdSolver solver;
    CrowdSolution first, improved;
    int better = 0;
    for (int round = 0; round < 6; ++round) {
        const Instance inst = random_instance(rng, 10, 10, 0.1, 25);
        ASSERT_EQ(solver.solve(inst.map, inst.starts, inst.goals, CrowdOptions{}, first), Status::Found);
        CrowdOptions options;
        options.anytime = true;
        options.budget.max_expansions = 3000;
        ASSERT_EQ(solver.solve(inst.map, inst.starts, inst.goals, options, improved), Status::Found);
        ASSERT_EQ(validate(inst.map, inst.starts, inst.goals, improved), "");
        EXPECT_LE(improved.sum_of_costs, first.sum_of_costs);
        if (improved.sum_of_costs < first.sum_of_costs) ++better;
    }
    EXPECT_GT(better, 0);
}

// An anytime solve in one call must have something that ends it: without a deadline, `improve_for` or an
// expansion cap it is refused (it ran forever). Driven by slices it may go without limits, and ends by
// itself once the sum of costs reaches the lower bound (optimal: nothing left to improve).
TEST(Crowd, AnytimeNeedsALimitInOneCallAndStopsAtTheLowerBound) {
    GridMap map;
    ASSERT_EQ(map.reset(10, 10), GridSizeCheck::Ok);
    const std::vector<GridPoint> starts{{0, 0}, {0, 3}, {0, 6}}, goals{{9, 0}, {9, 3}, {9, 6}};
    CrowdSolver solver;
    CrowdSolution out;
    CrowdOptions endless;
    endless.anytime = true;
    EXPECT_EQ(solver.solve(map, starts, goals, endless, out), Status::InvalidQuery);
    EXPECT_FALSE(solver.has_solution());
    // The instance's own errors come first.
    const std::vector<GridPoint> off{{-1, 0}, {0, 3}, {0, 6}};
    EXPECT_EQ(solver.solve(map, off, goals, endless, out), Status::InvalidQuery);
    // Any one limit is enough.
    CrowdOptions capped = endless;
    capped.budget.max_expansions = 1000;
    ASSERT_EQ(solver.solve(map, starts, goals, capped, out), Status::Found);
    EXPECT_EQ(out.sum_of_costs, 27u);
    capped = endless;
    capped.improve_for = std::chrono::milliseconds(5);
    EXPECT_EQ(solver.solve(map, starts, goals, capped, out), Status::Found);
    // Resumable, without limits: the first solution is at the lower bound (3 x 9), so it ends.
    ASSERT_EQ(solver.begin(map, starts, goals, endless), Status::InProgress);
    Status status = Status::InProgress;
    for (int slice = 0; slice < 10000 && status == Status::InProgress; ++slice) status = solver.step(100);
    ASSERT_EQ(status, Status::Found) << "the improvement of an optimal solution did not end";
    ASSERT_EQ(solver.finish(out), Status::Found);
    EXPECT_EQ(out.sum_of_costs, solver.lower_bound());
    EXPECT_EQ(validate(map, starts, goals, out), "");
}

TEST(Crowd, TinyInstancesAgainstTheJointOptimum) {
    // Joint-state Dijkstra gives the optimal sum of costs: the first solution and the anytime one
    // are never below it, the anytime search never worsens the first solution, and with enough
    // iterations it reaches the optimum on almost all of these tiny instances.
    std::mt19937 rng(21);
    CrowdSolver solver;
    CrowdSolution first, improved;
    int compared = 0, optimal = 0, improved_count = 0;
    for (int round = 0; round < 60; ++round) {
        const int w = 3 + static_cast<int>(rng() % 3);
        const int h = 2 + static_cast<int>(rng() % 3);
        const Instance inst = random_instance(rng, w, h, 0.15, 2 + rng() % 2);
        const long best = crowd_test::optimal_sum_of_costs(inst.map, inst.starts, inst.goals);
        CrowdOptions options;
        options.seed = static_cast<std::uint64_t>(round);
        const Status status = solver.solve(inst.map, inst.starts, inst.goals, options, first);
        if (best < 0) {
            EXPECT_NE(status, Status::Found) << "round " << round;
            continue;
        }
        ASSERT_EQ(status, Status::Found) << "round " << round;
        ASSERT_EQ(validate(inst.map, inst.starts, inst.goals, first), "") << "round " << round;
        EXPECT_GE(static_cast<long>(first.sum_of_costs), best) << "round " << round;
        options.anytime = true;
        options.budget.max_expansions = solver.stats().search.expanded + 300;
        ASSERT_EQ(solver.solve(inst.map, inst.starts, inst.goals, options, improved), Status::Found) << "round " << round;
        ASSERT_EQ(validate(inst.map, inst.starts, inst.goals, improved), "") << "round " << round;
        EXPECT_GE(static_cast<long>(improved.sum_of_costs), best) << "round " << round;
        EXPECT_LE(improved.sum_of_costs, first.sum_of_costs) << "round " << round;
        ++compared;
        if (static_cast<long>(improved.sum_of_costs) == best) ++optimal;
        if (improved.sum_of_costs < first.sum_of_costs) ++improved_count;
    }
    EXPECT_GE(compared, 40);
    EXPECT_GE(optimal * 10, compared * 9) << optimal << " of " << compared << " optimal";
    EXPECT_GT(improved_count, 0);
}

TEST(Crowd, SharedMapfBenchmarkInstances) {
    GAMEPLAN_REQUIRE_BENCHMARK_DATA();
    const auto root = test::benchmark_dir() / "mapf";
    if (!std::filesystem::is_directory(root)) GTEST_SKIP() << "no MAPF data at " << root;
    struct Case {
        const char* map;
        std::size_t agents;
        std::uint64_t lower_bound;  // from the data set's README (4-connected BFS sums)
    };
    const Case cases[] = {{"empty-32-32", 100, 2128}, {"random-32-32-20", 200, 4429}, {"maze-32-32-2", 100, 5889},
                          {"room-32-32-4", 200, 5022}, {"den312d", 200, 10370}};
    CrowdSolver solver;
    CrowdSolution solution;
    for (const Case& c : cases) {
        const GridMap map = io::load_movingai_map(root / "maps" / (std::string(c.map) + ".map"));
        const io::ScenarioFile scen =
            io::load_movingai_scenarios(root / "scenarios" / (std::string(c.map) + "-random-1.scen"));
        std::vector<GridPoint> starts, goals;
        for (std::size_t i = 0; i < c.agents; ++i) {
            starts.push_back(scen.scenarios[i].start);
            goals.push_back(scen.scenarios[i].goal);
        }
        ASSERT_EQ(solver.solve(map, starts, goals, CrowdOptions{}, solution), Status::Found) << c.map;
        EXPECT_EQ(solution.lower_bound, c.lower_bound) << c.map;
        EXPECT_EQ(validate(map, starts, goals, solution), "") << c.map;
        // anytime improvement (large neighbourhood search), capped by iterations so it is deterministic
        if (c.agents > 100) continue;  // keep the test fast: the two smaller instances
        CrowdOptions anytime;
        anytime.anytime = true;
        anytime.budget.max_expansions = solver.stats().search.expanded + 100;
        CrowdSolution improved, again;
        ASSERT_EQ(solver.solve(map, starts, goals, anytime, improved), Status::Found) << c.map;
        EXPECT_EQ(validate(map, starts, goals, improved), "") << c.map;
        EXPECT_LT(improved.sum_of_costs, solution.sum_of_costs) << c.map;
        EXPECT_EQ(solver.stats().first_sum_of_costs, solution.sum_of_costs) << c.map;
        ASSERT_EQ(solver.solve(map, starts, goals, anytime, again), Status::Found) << c.map;
        EXPECT_EQ(improved.cells, again.cells) << c.map;
    }
}

// The budget's memory limit caps the stored configurations as CrowdOptions::max_memory_bytes does: the
// smaller of the two applies, a solve stopped by either says Memory, and a cap the solve fits in changes
// nothing.
TEST(Crowd, BudgetMemoryLimitCapsTheConfigurationsLikeMaxMemoryBytes) {
    std::mt19937 rng(5);
    const Instance inst = random_instance(rng, 16, 16, 0.25, 90);
    CrowdSolver solver;
    CrowdSolution whole, capped;
    ASSERT_EQ(solver.solve(inst.map, inst.starts, inst.goals, CrowdOptions{}, whole), Status::Found);
    EXPECT_EQ(solver.budget_limit(), search::BudgetLimit::None);
    const std::uint64_t configurations = solver.stats().configurations;
    ASSERT_GT(configurations, 20u);
    int stopped = 0, through = 0;
    for (std::size_t cap = 512; through < 3; cap = cap * 5 / 4) {
        SCOPED_TRACE("cap " + std::to_string(cap));
        CrowdOptions by_option;
        by_option.max_memory_bytes = cap;
        const Status expected = solver.solve(inst.map, inst.starts, inst.goals, by_option, capped);
        const std::uint64_t stored = solver.stats().configurations;
        EXPECT_EQ(solver.budget_limit(), expected == Status::BudgetExhausted ? search::BudgetLimit::Memory
                                                                               : search::BudgetLimit::None);
        for (const std::size_t other : {cap, cap + 1, std::size_t{2} << 30, SIZE_MAX}) {
            CrowdOptions by_budget;
            by_budget.budget.max_memory_bytes = cap;
            by_budget.max_memory_bytes = other;
            EXPECT_EQ(solver.solve(inst.map, inst.starts, inst.goals, by_budget, capped), expected);
            EXPECT_EQ(solver.stats().configurations, stored);
            EXPECT_EQ(solver.budget_limit(), expected == Status::BudgetExhausted ? search::BudgetLimit::Memory
                                                                                   : search::BudgetLimit::None);
            // ... and the option's cap still applies below the budget's.
            CrowdOptions both = by_budget;
            both.budget.max_memory_bytes = other;
            both.max_memory_bytes = cap;
            EXPECT_EQ(solver.solve(inst.map, inst.starts, inst.goals, both, capped), expected);
            EXPECT_EQ(solver.stats().configurations, stored);
        }
        if (expected == Status::BudgetExhausted) {
            ++stopped;
            EXPECT_EQ(through, 0) << "a cap stopped a solve a smaller one let through";
            continue;
        }
        ASSERT_EQ(expected, Status::Found);
        ++through;
        EXPECT_EQ(capped.cells, whole.cells);
    }
    EXPECT_GT(stopped, 5);
    // A cap below the start configuration: begin stops at once.
    CrowdOptions none;
    none.budget.max_memory_bytes = 1;
    EXPECT_EQ(solver.begin(inst.map, inst.starts, inst.goals, none), Status::BudgetExhausted);
    EXPECT_EQ(solver.budget_limit(), search::BudgetLimit::Memory);
    EXPECT_EQ(solver.finish(capped), Status::BudgetExhausted);
}

// memory_bytes() reports what the solver holds, as every search does: at least the distance tables
// (4 bytes per agent and free cell) and one stored configuration per configuration counted; a fresh
// solver holds nothing; a smaller solve after a larger one keeps the storage (it only grows).
TEST(Crowd, MemoryBytesCoversTablesAndConfigurations) {
    std::mt19937 rng(11);
    const Instance inst = random_instance(rng, 16, 16, 0.25, 90);
    const std::size_t free_cells = inst.map.passable_count();
    CrowdSolver solver;
    EXPECT_EQ(solver.memory_bytes(), 0u);
    CrowdSolution out;
    ASSERT_EQ(solver.solve(inst.map, inst.starts, inst.goals, CrowdOptions{}, out), Status::Found);
    const std::size_t agents = inst.starts.size();
    const std::size_t tables = agents * free_cells * sizeof(std::uint32_t);
    const std::size_t configurations = solver.stats().configurations * agents * sizeof(std::uint32_t);
    const std::size_t held = solver.memory_bytes();
    EXPECT_GE(held, tables + configurations);
    EXPECT_LT(held, 64 * (tables + configurations));  // nothing absurd either
    const std::vector<GridPoint> one_start(inst.starts.begin(), inst.starts.begin() + 1);
    const std::vector<GridPoint> one_goal(inst.goals.begin(), inst.goals.begin() + 1);
    ASSERT_EQ(solver.solve(inst.map, one_start, one_goal, CrowdOptions{}, out), Status::Found);
    EXPECT_EQ(solver.memory_bytes(), held);
}

// The distance tables count against the memory cap, before they are built: a cap one byte below them
// refuses the instance at begin (BudgetExhausted, Memory) holding none of them; the tables plus room
// for the configurations solve it. (The tables are the fixed part: 16,384 agents on an open 4096 x 4096
// map would need 1.1 TB.)
TEST(Crowd, DistanceTablesCountAgainstTheMemoryCap) {
    std::mt19937 rng(12);
    const Instance inst = random_instance(rng, 16, 16, 0.25, 60);
    const std::size_t free_cells = inst.map.passable_count();
    const std::size_t tables = inst.starts.size() * free_cells * sizeof(std::uint32_t);
    for (const bool by_budget : {false, true}) {
        CrowdSolver solver;
        CrowdOptions o;
        (by_budget ? o.budget.max_memory_bytes : o.max_memory_bytes) = tables - 1;
        EXPECT_EQ(solver.begin(inst.map, inst.starts, inst.goals, o), Status::BudgetExhausted);
        EXPECT_EQ(solver.budget_limit(), search::BudgetLimit::Memory);
        EXPECT_LT(solver.memory_bytes(), tables);
        (by_budget ? o.budget.max_memory_bytes : o.max_memory_bytes) = tables + (std::size_t{4} << 20);
        CrowdSolution out;
        EXPECT_EQ(solver.solve(inst.map, inst.starts, inst.goals, o, out), Status::Found);
        EXPECT_GE(solver.memory_bytes(), tables);
    }
}

// budget_limit() names the limit that ended a solve, and is None otherwise (a solution kept by an anytime
// solve included).
TEST(Crowd, BudgetLimitNamesTheLimit) {
    std::mt19937 rng(5);
    const Instance inst = random_instance(rng, 16, 16, 0.25, 90);
    CrowdSolver solver;
    CrowdSolution solution;
    CrowdOptions options;
    options.budget.max_expansions = 2;
    EXPECT_EQ(solver.solve(inst.map, inst.starts, inst.goals, options, solution), Status::BudgetExhausted);
    EXPECT_EQ(solver.budget_limit(), search::BudgetLimit::Expansions);
    options.budget = {};
    options.budget.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    EXPECT_EQ(solver.solve(inst.map, inst.starts, inst.goals, options, solution), Status::BudgetExhausted);
    EXPECT_EQ(solver.budget_limit(), search::BudgetLimit::Time);
    options.budget = {};
    ASSERT_EQ(solver.begin(inst.map, inst.starts, inst.goals, options), Status::InProgress);
    EXPECT_EQ(solver.budget_limit(), search::BudgetLimit::None);
    solver.stop();
    EXPECT_EQ(solver.status(), Status::BudgetExhausted);
    EXPECT_EQ(solver.budget_limit(), search::BudgetLimit::Time);
    EXPECT_EQ(solver.solve(inst.map, inst.starts, inst.goals, options, solution), Status::Found);
    EXPECT_EQ(solver.budget_limit(), search::BudgetLimit::None);
    const std::uint64_t configurations = solver.stats().configurations;
    // An anytime solve that runs out of memory after its first solution keeps it: Found, no limit. (The
    // cap holds the distance tables, 4 bytes per agent and free cell, and the configurations.)
    const std::size_t free_cells = inst.map.passable_count();
    options.anytime = true;
    options.budget.max_expansions = solver.stats().search.expanded + 200;
    options.budget.max_memory_bytes =
        90 * free_cells * sizeof(std::uint32_t) + static_cast<std::size_t>(configurations + 1) * (90 * 10 + 140);
    EXPECT_EQ(solver.solve(inst.map, inst.starts, inst.goals, options, solution), Status::Found);
    EXPECT_EQ(solver.budget_limit(), search::BudgetLimit::None);
    options.budget.max_memory_bytes = 1;
    EXPECT_EQ(solver.solve(inst.map, inst.starts, inst.goals, options, solution), Status::BudgetExhausted);
    EXPECT_EQ(solver.budget_limit(), search::BudgetLimit::Memory);
    options.budget = {};
    EXPECT_EQ(solver.begin(inst.map, inst.starts, std::span<const GridPoint>(inst.goals).first(3), options),
              Status::InvalidQuery);
    EXPECT_EQ(solver.budget_limit(), search::BudgetLimit::None);
}
