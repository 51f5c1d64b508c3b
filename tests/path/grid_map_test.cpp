#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>

#include <gtest/gtest.h>

using namespace gameplan::path;

TEST(GridMap, DefaultIsEmpty) {
    GridMap map;
    EXPECT_TRUE(map.empty());
    EXPECT_EQ(map.width(), 0);
    EXPECT_FALSE(map.contains(GridPoint{0, 0}));
    EXPECT_FALSE(map.passable({0, 0}));
}

// passable_count() counts what passable() says, cell by cell, on maps blocked at random.
TEST(GridMap, PassableCountMatchesTheCells) {
    GridMap map;
    EXPECT_EQ(map.passable_count(), 0u);
    ASSERT_EQ(map.reset(13, 6), GridSizeCheck::Ok);
    EXPECT_EQ(map.passable_count(), 78u);
    unsigned seed = 1;
    for (int round = 0; round < 20; ++round) {
        for (int k = 0; k < 10; ++k) {
            seed = seed * 1103515245u + 12345u;
            (void)map.set_passable({static_cast<int>((seed >> 8) % 13), static_cast<int>((seed >> 20) % 6)}, (seed >> 30) & 1u);
        }
        std::size_t expected = 0;
        for (int y = 0; y < 6; ++y)
            for (int x = 0; x < 13; ++x) expected += map.passable({x, y}) ? 1 : 0;
        EXPECT_EQ(map.passable_count(), expected) << "round " << round;
    }
    ASSERT_EQ(map.reset(4, 4, false), GridSizeCheck::Ok);
    EXPECT_EQ(map.passable_count(), 0u);
}

TEST(GridMap, ResetAndCells) {
    GridMap map;
    ASSERT_EQ(map.reset(7, 3), GridSizeCheck::Ok);
    EXPECT_EQ(map.width(), 7);
    EXPECT_EQ(map.height(), 3);
    EXPECT_EQ(map.cell_count(), 21u);
    EXPECT_EQ(map.stride(), 9u);
    EXPECT_EQ(map.node_bound(), 9u * 5u);
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 7; ++x) {
            EXPECT_TRUE(map.passable({x, y}));
            EXPECT_EQ(map.cost({x, y}), 1u);
            EXPECT_EQ(map.point(map.index({x, y})), (GridPoint{x, y}));
        }
    // The padded border is blocked, so neighbour loops never leave the arrays.
    const auto bytes = map.passable_data();
    for (std::uint32_t i = 0; i < map.stride(); ++i) {
        EXPECT_EQ(bytes[i], 0);
        EXPECT_EQ(bytes[map.node_bound() - 1 - i], 0);
    }
    EXPECT_FALSE(map.passable({-1, 0}));
    EXPECT_FALSE(map.passable({7, 0}));
    EXPECT_FALSE(map.passable({0, 3}));
    GridMap blocked;
    ASSERT_EQ(blocked.reset(4, 4, false), GridSizeCheck::Ok);
    EXPECT_FALSE(blocked.passable({2, 2}));
}

TEST(GridMap, RefusesAbsurdSizes) {
    GridMap map;
    ASSERT_EQ(map.reset(3, 3), GridSizeCheck::Ok);
    const auto version = map.version();
    EXPECT_EQ(map.reset(0, 5), GridSizeCheck::NotPositive);
    EXPECT_EQ(map.reset(5, -2), GridSizeCheck::NotPositive);
    EXPECT_EQ(map.reset(kMaxGridSide + 1, 1), GridSizeCheck::SideTooLarge);
    EXPECT_EQ(map.reset(1, INT64_MAX), GridSizeCheck::SideTooLarge);
    EXPECT_EQ(map.reset(16385, 16384), GridSizeCheck::TooManyCells);
    EXPECT_EQ(GridMap::check_size(16384, 16384), GridSizeCheck::Ok);
    EXPECT_EQ(GridMap::check_size(kMaxGridSide, kMaxGridCells / kMaxGridSide), GridSizeCheck::Ok);
    EXPECT_EQ(map.width(), 3);  // unchanged by refusals
    EXPECT_EQ(map.version(), version);
    EXPECT_FALSE(describe(GridSizeCheck::TooManyCells).empty());
    EXPECT_TRUE(describe(GridSizeCheck::Ok).empty());
}

TEST(GridMap, VersionCountsRealChangesOnly) {
    GridMap map;
    ASSERT_EQ(map.reset(4, 4), GridSizeCheck::Ok);
    auto v = map.version();
    EXPECT_TRUE(map.set_passable({1, 1}, true));  // no change
    EXPECT_EQ(map.version(), v);
    EXPECT_TRUE(map.set_passable({1, 1}, false));
    EXPECT_EQ(map.version(), ++v);
    EXPECT_FALSE(map.passable({1, 1}));
    EXPECT_TRUE(map.set_cost({2, 2}, 1));  // still no cost array
    EXPECT_FALSE(map.has_terrain_costs());
    EXPECT_EQ(map.version(), v);
    EXPECT_TRUE(map.set_cost({2, 2}, 5));
    EXPECT_TRUE(map.has_terrain_costs());
    EXPECT_EQ(map.version(), ++v);
    EXPECT_EQ(map.cost({2, 2}), 5u);
    EXPECT_FALSE(map.set_passable({4, 0}, false));
    EXPECT_FALSE(map.set_cost({0, 4}, 2));
    EXPECT_FALSE(map.set_cost({0, 0}, 0));
    EXPECT_FALSE(map.set_cost({0, 0}, kMaxTerrainCost + 1));
    EXPECT_EQ(map.version(), v);
}

TEST(GridMap, MinCostIsAnAdmissibleLowerBound) {
    GridMap map;
    ASSERT_EQ(map.reset(3, 1), GridSizeCheck::Ok);
    EXPECT_EQ(map.min_cost(), 1u);
    for (int x = 0; x < 3; ++x) map.set_cost({x, 0}, 4);
    EXPECT_EQ(map.min_cost(), 1u);  // raising never tightens on its own
    map.recompute_min_cost();
    EXPECT_EQ(map.min_cost(), 4u);
    map.set_cost({1, 0}, 2);  // lowering tightens immediately
    EXPECT_EQ(map.min_cost(), 2u);
    map.set_cost({1, 0}, 9);
    EXPECT_EQ(map.min_cost(), 2u);
    map.recompute_min_cost();
    EXPECT_EQ(map.min_cost(), 4u);
}

TEST(GridMap, Holds8192x8192) {
    GridMap map;
    ASSERT_EQ(map.reset(8192, 8192), GridSizeCheck::Ok);
    EXPECT_EQ(map.cell_count(), 8192u * 8192u);
    EXPECT_TRUE(map.set_passable({8191, 8191}, false));
    EXPECT_FALSE(map.passable({8191, 8191}));
    EXPECT_TRUE(map.passable({8190, 8191}));
    EXPECT_TRUE(map.set_cost({4000, 4000}, 3));
    EXPECT_EQ(map.cost({4000, 4000}), 3u);
    EXPECT_EQ(map.point(map.index({8191, 8191})), (GridPoint{8191, 8191}));
}

TEST(GridRules, NamesRoundTrip) {
    for (auto r : {DiagonalRule::Never, DiagonalRule::NoCornerCutting, DiagonalRule::OneObstacle, DiagonalRule::Always})
        EXPECT_EQ(parse_diagonal_rule(to_string(r)), r);
    for (auto h : {Heuristic::Auto, Heuristic::Manhattan, Heuristic::Octile, Heuristic::Euclidean, Heuristic::Chebyshev,
                   Heuristic::Zero})
        EXPECT_EQ(parse_heuristic(to_string(h)), h);
    EXPECT_EQ(parse_movement("4"), Movement::Four);
    EXPECT_EQ(parse_movement("8"), Movement::Eight);
    EXPECT_FALSE(parse_movement("6"));
    EXPECT_FALSE(parse_heuristic("octagonal"));
    EXPECT_FALSE(parse_diagonal_rule(""));
}

TEST(GridRules, AutoHeuristicIsTightestAdmissible) {
    EXPECT_EQ(resolve_heuristic(Movement::Four, DiagonalRule::Always, Heuristic::Auto), Heuristic::Manhattan);
    EXPECT_EQ(resolve_heuristic(Movement::Eight, DiagonalRule::Never, Heuristic::Auto), Heuristic::Manhattan);
    EXPECT_EQ(resolve_heuristic(Movement::Eight, DiagonalRule::NoCornerCutting, Heuristic::Auto), Heuristic::Octile);
    EXPECT_EQ(resolve_heuristic(Movement::Eight, DiagonalRule::Always, Heuristic::Euclidean), Heuristic::Euclidean);
    EXPECT_DOUBLE_EQ(heuristic_distance(Heuristic::Octile, 5, 2), 3 + 2 * std::sqrt(2.0));
    EXPECT_DOUBLE_EQ(heuristic_distance(Heuristic::Manhattan, 5, 2), 7);
    EXPECT_DOUBLE_EQ(heuristic_distance(Heuristic::Chebyshev, 5, 2), 5);
    EXPECT_DOUBLE_EQ(heuristic_distance(Heuristic::Euclidean, 3, 4), 5);
    EXPECT_DOUBLE_EQ(heuristic_distance(Heuristic::Zero, 3, 4), 0);
}
