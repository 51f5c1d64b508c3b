// Proves "no heap allocation per query after warm-up" for JPS and JPS+ with the counting operator new,
// including the resumable form, incremental map changes, and a table shared between pathfinders.
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/jps.hpp>
#include <gameplan/path/jps_plus.hpp>

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

TEST(JpsAlloc, NoAllocationPerQueryAfterWarmUp) {
    std::mt19937 rng(8);
    const GridMap map = random_map(rng, 160, 120, 0.25);
    const auto cells = free_cells(rng, map, 300);
    JpsPathfinder jps;
    JpsPlusPathfinder plus;
    GridPath path;
    const GridSearchOptions weighted{Movement::Eight, DiagonalRule::NoCornerCutting, Heuristic::Auto, 1.5, {}};
    for (std::size_t i = 0; i + 1 < cells.size(); ++i) {  // warm-up: the same queries
        (void)jps.find_path(map, cells[i], cells[i + 1], {}, path);
        (void)jps.find_path(map, cells[i], cells[i + 1], weighted, path);
        (void)plus.find_path(map, cells[i], cells[i + 1], {}, path);
    }
    std::uint64_t found = 0;
    gameplan::test::AllocationScope scope;
    for (std::size_t i = 0; i + 1 < cells.size(); ++i) {
        found += jps.find_path(map, cells[i], cells[i + 1], {}, path) == Status::Found;
        found += jps.find_path(map, cells[i], cells[i + 1], weighted, path) == Status::Found;
        found += plus.find_path(map, cells[i], cells[i + 1], {}, path) == Status::Found;
        if (plus.begin(map, cells[i + 1], cells[i]) == Status::InProgress)
            while (plus.step(5) == Status::InProgress) {
            }
        found += plus.finish(path) == Status::Found;
    }
    EXPECT_EQ(scope.count(), 0u) << "allocations during " << found << " found paths";
    EXPECT_GT(found, 800u);
}

TEST(JpsAlloc, SyncAndBuildMakeEvenTheFirstQueryAllocationFree) {
    std::mt19937 rng(3);
    const GridMap map = random_map(rng, 100, 100, 0.2);
    const auto cells = free_cells(rng, map, 2);
    JpsPathfinder jps;
    JpsPlusPathfinder plus;
    GridPath path;
    path.cells.reserve(1024);
    jps.sync(map, 100 * 100);
    ASSERT_EQ(plus.build(map, 100 * 100), JpsSupport::Ok);
    gameplan::test::AllocationScope scope;
    (void)jps.find_path(map, cells[0], cells[1], {}, path);
    (void)plus.find_path(map, cells[0], cells[1], {}, path);
    EXPECT_EQ(scope.count(), 0u);
}

TEST(JpsAlloc, ReserveSizesLikeSyncAndKeepsASnapshotInStep) {
    std::mt19937 rng(5);
    GridMap map = random_map(rng, 100, 100, 0.1);
    const auto cells = free_cells(rng, map, 2);
    JpsPathfinder jps;
    GridPath path;
    path.cells.reserve(1024);
    const auto query_allocations = [&] {  // (the status is checked outside the scope: a failure allocates)
        gameplan::test::AllocationScope scope;
        const Status found = jps.find_path(map, cells[0], cells[1], {}, path);
        const auto allocations = scope.count();
        EXPECT_EQ(found, Status::Found);
        return allocations;
    };
    jps.reserve(map, 100 * 100);  // no snapshot yet: takes one
    EXPECT_EQ(jps.sync_count(), 1u);
    EXPECT_EQ(query_allocations(), 0u) << "the first query after reserve allocated";
    jps.reserve(map, 100 * 100);  // in step: the snapshot stays
    EXPECT_EQ(jps.sync_count(), 1u);
    GridPoint wall{0, 0};
    while (wall == cells[0] || wall == cells[1]) ++wall.x;
    map.set_passable(wall, !map.passable(wall));  // an unreported change
    jps.reserve(map, 100 * 100);
    EXPECT_EQ(jps.sync_count(), 2u);
    EXPECT_EQ(query_allocations(), 0u);
    EXPECT_EQ(jps.sync_count(), 2u) << "the query resynchronised: reserve left a stale snapshot";
}

TEST(JpsAlloc, ChangesAndResyncsOfTheSameMapDoNotAllocate) {
    std::mt19937 rng(17);
    GridMap map = random_map(rng, 128, 128, 0.2);
    const auto cells = free_cells(rng, map, 200);
    JpsPathfinder jps;
    JpsPlusPathfinder plus;
    JumpTable shared;
    ASSERT_EQ(shared.build(map), JpsSupport::Ok);
    GridPath path;
    // Paths and open lists of changed maps can outgrow anything the warm-up saw: size them up front.
    path.cells.reserve(128 * 128);
    jps.sync(map, 128 * 128);
    ASSERT_EQ(plus.build(map, 128 * 128), JpsSupport::Ok);
    const auto churn = [&](bool count_found) {
        std::uint64_t found = 0;
        for (std::size_t i = 0; i + 1 < cells.size(); ++i) {
            const GridPoint p{int(rng() % 128), int(rng() % 128)};
            if (p == cells[i] || p == cells[i + 1]) continue;
            map.set_passable(p, !map.passable(p));
            (void)jps.update_cell(map, p);
            (void)plus.update_cell(map, p);
            (void)shared.update_cell(map, p);
            if (i % 10 == 0) map.set_passable(p, !map.passable(p));  // unreported: full resync / rebuild
            found += jps.find_path(map, cells[i], cells[i + 1], {}, path) == Status::Found;
            found += plus.find_path(map, cells[i], cells[i + 1], {}, path) == Status::Found;
            if (!shared.in_sync(map)) (void)shared.build(map);  // same size: reuses its buffers
            if (plus.begin(shared, cells[i], cells[i + 1]) == Status::InProgress) (void)plus.step();
        }
        return count_found ? found : 0;
    };
    for (int warm = 0; warm < 3; ++warm) (void)churn(false);
    gameplan::test::AllocationScope scope;
    const std::uint64_t found = churn(true);
    EXPECT_EQ(scope.count(), 0u);
    EXPECT_GT(found, 100u);
    EXPECT_GT(plus.rebuild_count(), 0u);
    EXPECT_GT(jps.sync_count(), 1u);
}
