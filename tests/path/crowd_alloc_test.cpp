// Crowds allocate nothing per tick (stepper) or per repeated solve (one-shot solver) after warm-up.
#include "crowd_support.hpp"

#include <gameplan/path/crowd.hpp>

#include <alloc_counter.hpp>

#include <random>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;

TEST(CrowdAlloc, StepperTickAllocatesNothing) {
    GridMap map;
    ASSERT_EQ(map.reset(40, 40), GridSizeCheck::Ok);
    for (int y = 5; y < 35; y += 6)
        for (int x = 3; x < 37; ++x)
            if (x % 9 != 0) map.set_passable({x, y}, false);
    CrowdStepper stepper;
    stepper.reset(map, Movement::Eight, DiagonalRule::NoCornerCutting);
    stepper.reserve(200);
    std::mt19937 rng(2);
    std::vector<CrowdAgentId> ids;
    while (ids.size() < 150) {
        const GridPoint p{static_cast<int>(rng() % 40), static_cast<int>(rng() % 40)};
        const CrowdAgentId id = stepper.add(p);
        if (id != kNoCrowdAgent) ids.push_back(id);
    }
    // straight-line "routes" toward fixed targets, prepared before the measured ticks
    std::vector<std::vector<GridPoint>> routes(ids.size());
    for (std::size_t i = 0; i < ids.size(); ++i) {
        GridPoint p = stepper.position(ids[i]);
        const GridPoint target{static_cast<int>(rng() % 40), static_cast<int>(rng() % 40)};
        while (!(p == target)) {
            p.x += (target.x > p.x) - (target.x < p.x);
            p.y += (target.y > p.y) - (target.y < p.y);
            routes[i].push_back(p);
        }
        if (i % 5 == 0) continue;  // some idle units
        stepper.set_goal(ids[i], routes[i]);
    }
    for (int t = 0; t < 5; ++t) stepper.tick();  // warm-up
    test::AllocationScope scope;
    for (int t = 0; t < 200; ++t) {
        if (t % 7 == 0) stepper.hold(ids[static_cast<std::size_t>(t) % ids.size()]);
        stepper.tick();
    }
    EXPECT_EQ(scope.count(), 0u);
}

TEST(CrowdAlloc, RepeatedSolveAllocatesNothing) {
    GridMap map;
    ASSERT_EQ(map.reset(20, 20), GridSizeCheck::Ok);
    std::mt19937 rng(4);
    for (int k = 0; k < 50; ++k) map.set_passable({static_cast<int>(rng() % 20), static_cast<int>(rng() % 20)}, false);
    std::vector<GridPoint> cells;
    for (int y = 0; y < 20; ++y)
        for (int x = 0; x < 20; ++x)
            if (map.passable({x, y}) && crowd_test::bfs_distance(map, {x, y}, {0, 0}) >= 0) cells.push_back({x, y});
    std::shuffle(cells.begin(), cells.end(), rng);
    const std::vector<GridPoint> starts(cells.begin(), cells.begin() + 100);
    std::shuffle(cells.begin(), cells.end(), rng);
    const std::vector<GridPoint> goals(cells.begin(), cells.begin() + 100);
    CrowdSolver solver;
    CrowdSolution solution;
    ASSERT_EQ(solver.solve(map, starts, goals, CrowdOptions{}, solution), Status::Found);  // warm-up
    test::AllocationScope scope;
    ASSERT_EQ(solver.solve(map, starts, goals, CrowdOptions{}, solution), Status::Found);
    EXPECT_EQ(scope.count(), 0u);
}

TEST(CrowdAlloc, RepeatedAnytimeSolveAllocatesNothing) {
    // The improvement phase (prioritized planning, large neighbourhood search with SIPP) reuses its
    // buffers too: a repeat of the same capped anytime solve allocates nothing.
    GridMap map;
    ASSERT_EQ(map.reset(16, 16), GridSizeCheck::Ok);
    std::mt19937 rng(8);
    for (int k = 0; k < 30; ++k) map.set_passable({static_cast<int>(rng() % 16), static_cast<int>(rng() % 16)}, false);
    std::vector<GridPoint> cells;
    for (int y = 0; y < 16; ++y)
        for (int x = 0; x < 16; ++x)
            if (map.passable({x, y}) && crowd_test::bfs_distance(map, {x, y}, {0, 0}) >= 0) cells.push_back({x, y});
    std::shuffle(cells.begin(), cells.end(), rng);
    const std::vector<GridPoint> starts(cells.begin(), cells.begin() + 60);
    std::shuffle(cells.begin(), cells.end(), rng);
    const std::vector<GridPoint> goals(cells.begin(), cells.begin() + 60);
    CrowdOptions options;
    options.anytime = true;
    options.budget.max_expansions = 1500;
    CrowdSolver solver;
    CrowdSolution solution;
    ASSERT_EQ(solver.solve(map, starts, goals, options, solution), Status::Found);  // warm-up
    ASSERT_LT(solution.sum_of_costs, solver.stats().first_sum_of_costs);         // it did improve
    ASSERT_EQ(solver.solve(map, starts, goals, options, solution), Status::Found);
    test::AllocationScope scope;
    ASSERT_EQ(solver.solve(map, starts, goals, options, solution), Status::Found);
    EXPECT_EQ(scope.count(), 0u);
}
