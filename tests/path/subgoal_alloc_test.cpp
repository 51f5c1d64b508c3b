// Proves "no heap allocation per query after warm-up" for the subgoal tier with the counting operator new:
// find_path (answered by the transit-node table or by the search), the resumable form on a shared graph, and
// (after build, or reserve for a shared graph) even the first query.
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/subgoal.hpp>

#include <random_grid.hpp>
#include <alloc_counter.hpp>

#include <random>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;

namespace {
using test::random_map;
using test::free_cells;
}  // namespace

TEST(SubgoalAlloc, NoAllocationPerQueryAfterWarmUp) {
    std::mt19937 rng(8);
    const GridMap map = random_map(rng, 160, 120, 0.25);
    const auto cells = free_cells(rng, map, 300);
    SubgoalPathfinder sg;
    ASSERT_EQ(sg.build(map), JpsSupport::Ok);
    GridPath path;
    for (std::size_t i = 0; i + 1 < cells.size(); ++i) {  // warm-up: the same queries
        (void)sg.find_path(map, cells[i], cells[i + 1], {}, path);
        (void)sg.find_path(map, cells[i + 1], cells[i], {}, path);
    }
    ASSERT_GT(sg.graph().transit_count(), 0u);
    std::uint64_t found = 0, table = 0;
    gameplan::test::AllocationScope scope;
    for (std::size_t i = 0; i + 1 < cells.size(); ++i) {
        found += sg.find_path(map, cells[i], cells[i + 1], {}, path) == Status::Found;
        table += sg.stats().expanded == 1;  // answered by the transit-node table
        if (sg.begin(sg.graph(), cells[i + 1], cells[i]) == Status::InProgress)
            while (sg.step(3) == Status::InProgress) {
            }
        found += sg.finish(path) == Status::Found;
    }
    EXPECT_EQ(scope.count(), 0u) << "allocations during " << found << " found paths";
    EXPECT_GT(found, 400u);
    EXPECT_GT(table, 20u);
    EXPECT_EQ(sg.fallback_count(), 0u);
}

TEST(SubgoalAlloc, BuildMakesTheFirstQueryAllocationFree) {
    std::mt19937 rng(3);
    const GridMap map = random_map(rng, 100, 100, 0.2);
    const auto cells = free_cells(rng, map, 2);
    SubgoalPathfinder sg;
    GridPath path;
    path.cells.reserve(1024);
    ASSERT_EQ(sg.build(map), JpsSupport::Ok);
    gameplan::test::AllocationScope scope;
    (void)sg.find_path(map, cells[0], cells[1], {}, path);
    EXPECT_EQ(scope.count(), 0u);
}

// A second pathfinder on the first one's graph (shared, as threads would): reserve sizes it, so its first
// query allocates nothing; the same first query on a fresh pathfinder does allocate (what reserve saves).
TEST(SubgoalAlloc, ReserveMakesTheFirstQueryOnASharedGraphAllocationFree) {
    std::mt19937 rng(5);
    const GridMap map = random_map(rng, 120, 90, 0.2);
    const auto cells = free_cells(rng, map, 2);
    SubgoalPathfinder owner;
    ASSERT_EQ(owner.build(map), JpsSupport::Ok);
    const SubgoalGraph& graph = owner.graph();
    GridPath path;
    path.cells.reserve(1024);
    const auto first_query = [&](SubgoalPathfinder& sg) {
        gameplan::test::AllocationScope scope;
        if (sg.begin(graph, cells[0], cells[1]) == Status::InProgress)
            while (sg.step(4) == Status::InProgress) {
            }
        EXPECT_EQ(sg.finish(path), Status::Found);
        return scope.count();
    };
    SubgoalPathfinder fresh;
    EXPECT_GT(first_query(fresh), 0u);
    SubgoalPathfinder reserved;
    reserved.reserve(graph);
    EXPECT_EQ(first_query(reserved), 0u);
    EXPECT_EQ(reserved.cost(), fresh.cost());
}
