// Proves "no heap allocation per query after warm-up" with the counting operator new.
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/penalty_layer.hpp>

#include <alloc_counter.hpp>

#include <random>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;

namespace {
GridMap random_map(std::mt19937& rng, int w, int h, double density, bool terrain) {
    GridMap map;
    EXPECT_EQ(map.reset(w, h), GridSizeCheck::Ok);
    std::uniform_real_distribution<double> u(0, 1);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            if (u(rng) < density) map.set_passable({x, y}, false);
            if (terrain) map.set_cost({x, y}, 1 + std::uint32_t(rng() % 5));
        }
    return map;
}
}  // namespace

TEST(GridPathfinderAlloc, NoAllocationPerQueryAfterWarmUp) {
    std::mt19937 rng(8);
    for (bool terrain : {false, true}) {
        const GridMap map = random_map(rng, 128, 96, 0.25, terrain);
        std::vector<GridPoint> cells;
        for (int i = 0; i < 200; ++i) {
            GridPoint p{int(rng() % 128), int(rng() % 96)};
            if (map.passable(p)) cells.push_back(p);
        }
        GridPathfinder finder;
        GridPath path;
        const GridSearchOptions variants[] = {
            {},
            {Movement::Four, DiagonalRule::Never, Heuristic::Auto, 1.0, {}},
            {Movement::Eight, DiagonalRule::Always, Heuristic::Zero, 1.0, {}},
            {Movement::Eight, DiagonalRule::OneObstacle, Heuristic::Euclidean, 2.0, {}},
        };
        // Warm-up: the same queries, so every buffer reaches its final size.
        for (const auto& opt : variants)
            for (std::size_t i = 0; i + 1 < cells.size(); ++i) (void)finder.find_path(map, cells[i], cells[i + 1], opt, path);
        std::uint64_t found = 0, expanded = 0;
        gameplan::test::AllocationScope scope;
        for (const auto& opt : variants)
            for (std::size_t i = 0; i + 1 < cells.size(); ++i) {
                found += finder.find_path(map, cells[i], cells[i + 1], opt, path) == Status::Found;
                expanded += finder.stats().expanded;
            }
        EXPECT_EQ(scope.count(), 0u) << "allocations during " << found << " found paths, " << expanded << " expansions";
        EXPECT_GT(found, 100u);
    }
}

TEST(GridPathfinderAlloc, ReserveMakesEvenTheFirstQueryAllocationFree) {
    GridMap map;
    ASSERT_EQ(map.reset(64, 64), GridSizeCheck::Ok);
    GridPathfinder finder;
    GridPath path;
    path.cells.reserve(256);
    finder.reserve(map, 64 * 64);
    gameplan::test::AllocationScope scope;
    EXPECT_EQ(finder.find_path(map, {0, 0}, {63, 40}, {}, path), Status::Found);
    ASSERT_EQ(finder.begin(map, {63, 63}, {0, 5}), Status::InProgress);
    while (finder.step(3) == Status::InProgress) {
    }
    EXPECT_EQ(finder.finish(path), Status::Found);
    EXPECT_EQ(scope.count(), 0u);
}

TEST(GridPathfinderAlloc, NoAllocationPerQueryWithAreasFilterAndLayers) {
    std::mt19937 rng(11);
    const GridMap map = random_map(rng, 128, 96, 0.2, true);
    AreaMap areas(map);
    PenaltyLayer a(map), b(map), c(map);
    for (int y = 0; y < 96; ++y)
        for (int x = 0; x < 128; ++x) {
            areas.set({x, y}, std::uint32_t(rng() % 4));
            a.set({x, y}, float(rng() % 5));
            b.set({x, y}, float(rng() % 3));
            c.set({x, y}, float(rng() % 7));
        }
    AreaFilter filter;
    filter.set_multiplier(1, 2.5);
    filter.set_multiplier(2, 0.5);
    filter.forbid(3);
    const CostLayer two[] = {{&a, 1.0}, {&b, 0.5}};
    const CostLayer three[] = {{&a, 1.0}, {&b, 0.5}, {&c, 2.0}};
    std::vector<GridPoint> cells;
    for (int i = 0; i < 200; ++i) {
        GridPoint p{int(rng() % 128), int(rng() % 96)};
        if (map.passable(p) && areas.at(p) != 3) cells.push_back(p);
    }
    GridSearchOptions variants[3];
    variants[0].areas = &areas, variants[0].filter = &filter;
    variants[1].areas = &areas, variants[1].filter = &filter, variants[1].layers = two;
    variants[2].layers = three, variants[2].heuristic = Heuristic::Zero;
    GridPathfinder finder;
    GridPath path;
    for (const auto& opt : variants)
        for (std::size_t i = 0; i + 1 < cells.size(); ++i) (void)finder.find_path(map, cells[i], cells[i + 1], opt, path);
    std::uint64_t found = 0;
    gameplan::test::AllocationScope scope;
    for (const auto& opt : variants)
        for (std::size_t i = 0; i + 1 < cells.size(); ++i)
            found += finder.find_path(map, cells[i], cells[i + 1], opt, path) == Status::Found;
    EXPECT_EQ(scope.count(), 0u);
    EXPECT_GT(found, 100u);
}
