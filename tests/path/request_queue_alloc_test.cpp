// "Allocation-free after warm-up" for the scale features, with the counting operator new: distance
// fields, nearest-of-many queries, the request queue (submit / update / take), batches on two threads,
// and the islands precheck.
#include <gameplan/path/batch.hpp>
#include <gameplan/path/distance_field.hpp>
#include <gameplan/path/islands.hpp>
#include <gameplan/path/request_queue.hpp>

#include <alloc_counter.hpp>

#include <random>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;

namespace {
GridMap random_map(std::mt19937& rng, int w, int h, double density) {
    GridMap map;
    EXPECT_EQ(map.reset(w, h), GridSizeCheck::Ok);
    std::uniform_real_distribution<double> u(0, 1);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            if (u(rng) < density) map.set_passable({x, y}, false);
    return map;
}

std::vector<GridPoint> free_cells(std::mt19937& rng, const GridMap& map, std::size_t count) {
    std::vector<GridPoint> cells;
    while (cells.size() < count) {
        const GridPoint p{int(rng() % unsigned(map.width())), int(rng() % unsigned(map.height()))};
        if (map.passable(p)) cells.push_back(p);
    }
    return cells;
}
}  // namespace

TEST(ScaleAlloc, DistanceFieldAndNearestTargets) {
    std::mt19937 rng(1);
    const GridMap map = random_map(rng, 100, 80, 0.3);
    const std::vector<GridPoint> cells = free_cells(rng, map, 64);
    Islands islands;
    islands.build(map);
    GridSearchOptions options;
    options.islands = &islands;
    DistanceField field;
    NearestTargets nearest_finder;
    GridPath path;
    const auto round = [&] {
        double sum = 0;
        for (std::size_t i = 0; i + 8 < cells.size(); i += 8) {
            (void)field.compute(map, std::span<const GridPoint>(cells.data() + i, 1 + i % 5));
            sum += field.distance(cells[i + 7]);
            field.path_to_source(cells[i + 6], path);
            const NearestTarget r = nearest_finder.find(map, cells[i], std::span<const GridPoint>(cells.data() + i + 1, 7), options, &path);
            sum += r.cost;
            sum += nearest(map, cells[i + 1], std::span<const GridPoint>(cells.data(), 20)).cost;  // > 16 targets: Dijkstra
        }
        return sum;
    };
    const double warm = round();
    gameplan::test::AllocationScope scope;
    const double again = round();
    EXPECT_EQ(scope.count(), 0u);
    EXPECT_EQ(warm, again);
}

TEST(ScaleAlloc, RequestQueueSteadyState) {
    std::mt19937 rng(2);
    const GridMap map = random_map(rng, 100, 80, 0.25);
    const std::vector<GridPoint> cells = free_cells(rng, map, 200);
    PathRequestQueue queue(map, QueueOptions{2, 4, true});
    queue.reserve(64, 1024);
    PathResult result;
    result.path.cells.reserve(1024);
    std::uint64_t found = 0;
    const auto cycle = [&](std::size_t first) {
        for (std::size_t i = first; i < first + 40; ++i)
            (void)queue.submit({cells[i % cells.size()], cells[(i * 7 + 3) % cells.size()], {}, int(i % 3)});
        while (queue.size() > 0) {
            (void)queue.update(300);
            for (const PathHandle h : queue.completed()) {
                ASSERT_TRUE(queue.take(h, result));
                found += result.status == Status::Found;
            }
        }
    };
    for (std::size_t warm = 0; warm < 5; ++warm) cycle(warm * 40);  // buffers reach their final sizes
    gameplan::test::AllocationScope scope;
    for (std::size_t run = 0; run < 5; ++run) cycle(run * 40);
    EXPECT_EQ(scope.count(), 0u);
    EXPECT_GT(found, 300u);
}

// Costs painted between updates (running searches go on and their paths are priced again at the end)
// allocate nothing either, once the map has its cost array.
TEST(ScaleAlloc, RequestQueueThroughCostChanges) {
    std::mt19937 rng(3);
    GridMap map = random_map(rng, 100, 80, 0.25);
    const std::vector<GridPoint> cells = free_cells(rng, map, 200);
    ASSERT_TRUE(map.set_cost(cells[0], 2));  // the cost array exists before the counted part
    PathRequestQueue queue(map, QueueOptions{2, 0, true});
    queue.reserve(64, 1024);
    PathResult result;
    result.path.cells.reserve(1024);
    std::uint64_t found = 0, spanned = 0;
    const auto cycle = [&](std::size_t first) {
        for (std::size_t i = first; i < first + 40; ++i)
            (void)queue.submit({cells[i % cells.size()], cells[(i * 7 + 3) % cells.size()], {}, 0});
        while (queue.size() > 0) {
            const std::uint64_t before = map.version();
            (void)map.set_cost(cells[rng() % cells.size()], 1 + std::uint32_t(rng() % 4));
            spanned += map.version() != before;
            (void)queue.update(60);
            for (const PathHandle h : queue.completed()) {
                ASSERT_TRUE(queue.take(h, result));
                found += result.status == Status::Found;
            }
        }
    };
    for (std::size_t warm = 0; warm < 5; ++warm) cycle(warm * 40);
    gameplan::test::AllocationScope scope;
    for (std::size_t run = 0; run < 5; ++run) cycle(run * 40);
    EXPECT_EQ(scope.count(), 0u);
    EXPECT_GT(found, 150u);
    EXPECT_GT(spanned, 100u);
}

TEST(ScaleAlloc, BatchOnTwoThreads) {
    std::mt19937 rng(3);
    const GridMap map = random_map(rng, 100, 80, 0.25);
    const std::vector<GridPoint> cells = free_cells(rng, map, 200);
    std::vector<PathQuery> queries;
    for (std::size_t i = 0; i + 1 < cells.size(); ++i) queries.push_back({cells[i], cells[i + 1]});
    std::vector<PathQueryResult> results(queries.size());
    BatchPathfinder pool(2);
    BatchOptions options;
    options.paths = true;
    pool.run(map, queries, results, options);
    pool.run(map, queries, results, options);
    gameplan::test::AllocationScope scope;
    pool.run(map, queries, results, options);
    EXPECT_EQ(scope.count(), 0u);
}

TEST(ScaleAlloc, IslandsPrecheckAndMergeUpdates) {
    std::mt19937 rng(4);
    GridMap map = random_map(rng, 100, 80, 0.45);
    Islands islands;
    islands.build(map);
    const std::vector<GridPoint> cells = free_cells(rng, map, 100);
    GridPathfinder finder;
    finder.reserve(map);
    GridPath path;
    GridSearchOptions options;
    options.islands = &islands;
    for (std::size_t i = 0; i + 1 < cells.size(); ++i) (void)finder.find_path(map, cells[i], cells[i + 1], options, path);
    gameplan::test::AllocationScope scope;
    std::uint64_t no_path = 0;
    for (std::size_t i = 0; i + 1 < cells.size(); ++i)
        no_path += finder.find_path(map, cells[i], cells[i + 1], options, path) == Status::NoPath;
    EXPECT_EQ(scope.count(), 0u);
    EXPECT_GT(no_path, 10u);
}
