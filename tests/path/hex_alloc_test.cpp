// Proves "no heap allocation per query after warm-up" for HexPathfinder (A*, Dijkstra, nearest of many,
// sliced searches, floods) with the counting operator new.
#include <gameplan/path/hex_grid.hpp>

#include <alloc_counter.hpp>

#include <random>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;

TEST(HexAlloc, QueriesAllocateNothingAfterWarmUp) {
    std::mt19937 rng(2);
    GridMap map;
    ASSERT_EQ(map.reset(200, 150), GridSizeCheck::Ok);
    for (int i = 0; i < 6000; ++i) map.set_passable({int(rng() % 200), int(rng() % 150)}, false);
    std::vector<GridPoint> cells;
    while (cells.size() < 80) {
        const GridPoint p{int(rng() % 200), int(rng() % 150)};
        if (map.passable(p)) cells.push_back(p);
    }
    HexIslands islands;
    islands.build(map);
    HexPathfinder finder;
    GridPath path;
    const auto run_all = [&] {
        std::uint64_t found = 0;
        for (std::size_t i = 0; i + 1 < cells.size(); ++i) {
            HexSearchOptions o;
            o.heuristic = i % 2 ? HexHeuristic::Zero : HexHeuristic::Auto;
            o.islands = i % 3 ? &islands : nullptr;
            found += finder.find_path(map, cells[i], cells[i + 1], o, path) == Status::Found;
        }
        for (std::size_t i = 0; i + 10 < cells.size(); i += 9) {
            Status st = finder.begin(map, std::span<const GridPoint>(&cells[i], 3), std::span<const GridPoint>(&cells[i + 3], 6));
            while (st == Status::InProgress) st = finder.step(40);
            found += finder.finish(path) == Status::Found;
        }
        (void)finder.begin(map, std::span<const GridPoint>(&cells[0], 2), std::span<const GridPoint>{});
        (void)finder.step();
        return found;
    };
    const std::uint64_t warm = run_all();
    EXPECT_GT(warm, 40u);
    test::AllocationScope scope;
    EXPECT_EQ(run_all(), warm);
    EXPECT_EQ(scope.count(), 0u);
}
