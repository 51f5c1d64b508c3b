// DistanceField and NearestTargets against the reference Dijkstra of grid_reference.hpp.
#include <gameplan/path/distance_field.hpp>
#include <gameplan/path/islands.hpp>

#include "scale_support.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;
using gameplan::test::RefGrid;
using gameplan::test::ScaleRule;

namespace {
constexpr double kInf = std::numeric_limits<double>::infinity();

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)); }
}  // namespace

TEST(DistanceField, MatchesReferenceDijkstraFromManySources) {
    std::mt19937 rng(101);
    DistanceField field;
    GridPath route;
    int cells_checked = 0;
    for (const ScaleRule& rule : gameplan::test::kScaleRules)
        for (bool terrain : {false, true})
            for (double density : {0.1, 0.35}) {
                const RefGrid g = gameplan::test::ref_random_grid(rng, 5 + int(rng() % 30), 5 + int(rng() % 30), density, terrain);
                if (std::none_of(g.cost.begin(), g.cost.end(), [](int c) { return c > 0; })) continue;
                const GridMap map = gameplan::test::to_grid_map(g);
                std::vector<std::pair<int, int>> ref_sources;
                std::vector<GridPoint> sources;
                const int count = 1 + int(rng() % 4);
                for (int i = 0; i < count; ++i) {
                    const auto s = gameplan::test::random_free(rng, g);
                    ref_sources.push_back(s);
                    sources.push_back({s.first, s.second});
                }
                SCOPED_TRACE(std::string(rule.name) + (terrain ? " terrain" : "") + " sources " + std::to_string(count));
                const std::vector<double> expect = gameplan::test::ref_dijkstra(g, ref_sources, rule.ref);
                ASSERT_EQ(field.compute(map, sources, gameplan::test::options_for(rule)), Status::Found);
                for (int y = 0; y < g.height; ++y)
                    for (int x = 0; x < g.width; ++x) {
                        const double want = expect[std::size_t(y) * g.width + x];
                        const GridPoint p{x, y};
                        if (std::isinf(want)) {
                            EXPECT_FALSE(field.reached(p));
                            EXPECT_EQ(field.distance(p), kInf);
                            EXPECT_EQ(field.nearest_source(p), kNoIndex);
                            EXPECT_EQ(field.toward_source(p), (GridPoint{-1, -1}));
                            continue;
                        }
                        ++cells_checked;
                        ASSERT_TRUE(field.final_cost(p));
                        ASSERT_TRUE(near(field.distance(p), want)) << "(" << x << "," << y << ") " << field.distance(p) << " vs " << want;
                        // The route from the nearest source is legal and costs the field's value.
                        field.path_from_source(p, route);
                        const std::size_t source = field.nearest_source(p);
                        ASSERT_LT(source, sources.size());
                        EXPECT_EQ(route.cells.front(), sources[source]);
                        const auto [sx, sy] = ref_sources[source];
                        EXPECT_EQ(gameplan::test::ref_check_path(g, gameplan::test::pairs_of(route.cells), sx, sy, x, y, rule.ref,
                                                                 route.cost),
                                  "");
                        // The reported source is a nearest one.
                        const double from_that = gameplan::test::ref_dijkstra(g, {{sx, sy}}, rule.ref)[std::size_t(y) * g.width + x];
                        EXPECT_TRUE(near(from_that, want));
                        // One step toward the source lowers the cost by that step's cost.
                        const GridPoint up = field.toward_source(p);
                        if (up == p) {
                            EXPECT_EQ(field.distance(p), 0.0);
                        } else {
                            EXPECT_TRUE(near(field.distance(p), field.distance(up) + step_cost(map, up, p)));
                        }
                        field.path_to_source(p, route);
                        EXPECT_EQ(route.cells.front(), p);
                        EXPECT_EQ(route.cells.back(), sources[source]);
                    }
            }
    EXPECT_GT(cells_checked, 3000);
}

TEST(DistanceField, InvalidSourcesAndBudget) {
    RefGrid g{6, 6, std::vector<int>(36, 1)};
    g.cost[7] = 0;
    const GridMap map = gameplan::test::to_grid_map(g);
    DistanceField field;
    EXPECT_EQ(field.compute(map, std::vector<GridPoint>{}), Status::InvalidQuery);
    EXPECT_EQ(field.compute(map, GridPoint{1, 1}), Status::InvalidQuery);  // blocked
    EXPECT_EQ(field.compute(map, GridPoint{6, 0}), Status::InvalidQuery);  // off the map
    EXPECT_EQ(field.compute(GridMap{}, GridPoint{0, 0}), Status::InvalidQuery);
    GridSearchOptions budget;
    budget.budget.max_expansions = 5;
    EXPECT_EQ(field.compute(map, GridPoint{0, 0}, budget), Status::BudgetExhausted);
    EXPECT_EQ(field.status(), Status::BudgetExhausted);
    EXPECT_EQ(field.expanded(), 5u);
    // The settled cells are exact: they are the 5 cheapest.
    const std::vector<double> ref = gameplan::test::ref_dijkstra(g, {{0, 0}}, gameplan::test::RefDiagonal::BothFree);
    int settled = 0;
    for (int y = 0; y < 6; ++y)
        for (int x = 0; x < 6; ++x)
            if (field.final_cost({x, y})) {
                ++settled;
                EXPECT_TRUE(near(field.distance({x, y}), ref[std::size_t(y) * 6 + x]));
            }
    EXPECT_EQ(settled, 5);
    EXPECT_EQ(field.compute(map, GridPoint{0, 0}), Status::Found);
    EXPECT_EQ(field.expanded(), 35u);
}

TEST(NearestTargets, MatchesMinimumOverReferenceDistances) {
    std::mt19937 rng(202);
    NearestTargets finder;
    GridPath route;
    int found = 0, none = 0, many = 0;
    for (const ScaleRule& rule : gameplan::test::kScaleRules)
        for (bool terrain : {false, true})
            for (int round = 0; round < 5; ++round) {
                const RefGrid g = gameplan::test::ref_random_grid(rng, 30, 25, round < 2 ? 0.45 : 0.25, terrain);
                const GridMap map = gameplan::test::to_grid_map(g);
                for (int q = 0; q < 12; ++q) {
                    const auto [fx, fy] = gameplan::test::random_free(rng, g);
                    const std::vector<double> dist = gameplan::test::ref_dijkstra(g, {{fx, fy}}, rule.ref);
                    // Targets: some free, some blocked (skipped), sometimes more than the heuristic takes.
                    std::vector<GridPoint> targets;
                    const int count = q % 4 == 0 ? 20 + int(rng() % 20) : 1 + int(rng() % 6);
                    many += count > 16;
                    for (int i = 0; i < count; ++i)
                        targets.push_back({int(rng() % 30), int(rng() % 25)});
                    double best = kInf;
                    for (const auto& t : targets)
                        if (g.free(t.x, t.y)) best = std::min(best, dist[std::size_t(t.y) * 30 + t.x]);
                    GridSearchOptions options = gameplan::test::options_for(rule);
                    const NearestTarget r = finder.find(map, {fx, fy}, targets, options, &route);
                    SCOPED_TRACE(std::string(rule.name) + " query " + std::to_string(q));
                    if (std::isinf(best)) {
                        EXPECT_EQ(r.status, Status::NoPath);
                        EXPECT_EQ(r.index, kNoIndex);
                        EXPECT_TRUE(route.cells.empty());
                        ++none;
                        continue;
                    }
                    ASSERT_EQ(r.status, Status::Found);
                    ASSERT_LT(r.index, targets.size());
                    EXPECT_EQ(r.cell, targets[r.index]);
                    EXPECT_TRUE(near(r.cost, best));
                    EXPECT_TRUE(near(dist[std::size_t(r.cell.y) * 30 + r.cell.x], best));
                    // The lowest index of that cell.
                    EXPECT_EQ(std::find(targets.begin(), targets.end(), r.cell) - targets.begin(), std::ptrdiff_t(r.index));
                    EXPECT_EQ(gameplan::test::ref_check_path(g, gameplan::test::pairs_of(route.cells), fx, fy, r.cell.x, r.cell.y,
                                                             rule.ref, route.cost),
                              "");
                    // The one-line form agrees.
                    const NearestTarget simple = nearest(map, {fx, fy}, targets, options);
                    EXPECT_EQ(simple.index, r.index);
                    EXPECT_EQ(simple.cost, r.cost);
                    ++found;
                }
            }
    EXPECT_GT(found, 200);
    EXPECT_GT(none, 5);
    EXPECT_GT(many, 20);
}

TEST(NearestTargets, OneSearchNotOnePerTarget) {
    // Open 60 x 60 map, 30 targets: the nearest-of-many search expands no more than the single
    // search to the nearest target would need plus the targets' frontier, far less than 30 searches.
    RefGrid g{60, 60, std::vector<int>(3600, 1)};
    const GridMap map = gameplan::test::to_grid_map(g);
    std::mt19937 rng(9);
    std::vector<GridPoint> targets;
    for (int i = 0; i < 30; ++i) targets.push_back({int(rng() % 60), int(rng() % 60)});
    NearestTargets finder;
    const NearestTarget r = finder.find(map, {30, 30}, targets);
    ASSERT_EQ(r.status, Status::Found);
    GridPathfinder single;
    GridPath path;
    std::uint64_t separate = 0;
    for (const auto& t : targets) {
        ASSERT_EQ(single.find_path(map, {30, 30}, t, {}, path), Status::Found);
        separate += single.stats().expanded;
    }
    // (A single A* on an open map expands little more than its path, since equal-cost ties go to the
    // goal: 30 of them still cost more than twice the one search.)
    EXPECT_LT(r.expanded * 2, separate);
}

TEST(NearestTargets, EdgeCases) {
    RefGrid g{5, 5, std::vector<int>(25, 1)};
    g.cost[std::size_t(2) * 5 + 2] = 0;  // (2,2) blocked
    const GridMap map = gameplan::test::to_grid_map(g);
    NearestTargets finder;
    EXPECT_EQ(finder.find(map, {2, 2}, std::vector<GridPoint>{{0, 0}}).status, Status::InvalidQuery);
    EXPECT_EQ(finder.find(map, {9, 0}, std::vector<GridPoint>{{0, 0}}).status, Status::InvalidQuery);
    EXPECT_EQ(finder.find(map, {0, 0}, std::vector<GridPoint>{}).status, Status::NoPath);
    EXPECT_EQ(finder.find(map, {0, 0}, std::vector<GridPoint>{{2, 2}, {-1, 3}}).status, Status::NoPath);
    // Start on a target: cost 0; duplicates report the lowest index.
    NearestTarget r = finder.find(map, {4, 4}, std::vector<GridPoint>{{0, 0}, {4, 4}, {4, 4}});
    EXPECT_EQ(r.status, Status::Found);
    EXPECT_EQ(r.index, 1u);
    EXPECT_EQ(r.cost, 0.0);
    const std::vector<GridPoint> tied{{2, 2}, {0, 3}, {3, 0}, {0, 3}};
    r = finder.find(map, {0, 0}, tied);
    EXPECT_TRUE(r.index == 1u || r.index == 2u);  // (0,3) and (3,0) both cost 3: the fixed tie-break picks one
    EXPECT_EQ(r.cost, 3.0);
    for (int again = 0; again < 3; ++again) EXPECT_EQ(NearestTargets().find(map, {0, 0}, tied).index, r.index);
    // Budget.
    GridSearchOptions tight;
    tight.budget.max_expansions = 2;
    EXPECT_EQ(finder.find(map, {0, 0}, std::vector<GridPoint>{{4, 4}}, tight).status, Status::BudgetExhausted);
}

TEST(NearestTargets, IslandsSkipUnreachableTargets) {
    // Two islands split by a wall at x = 3; targets on the far side are skipped without search.
    RefGrid g{7, 7, std::vector<int>(49, 1)};
    for (int y = 0; y < 7; ++y) g.cost[std::size_t(y) * 7 + 3] = 0;
    const GridMap map = gameplan::test::to_grid_map(g);
    Islands islands;
    islands.build(map);
    GridSearchOptions options;
    options.islands = &islands;
    NearestTargets finder;
    const std::vector<GridPoint> far{{5, 5}, {6, 0}, {4, 3}};
    NearestTarget r = finder.find(map, {0, 0}, far, options);
    EXPECT_EQ(r.status, Status::NoPath);
    EXPECT_EQ(r.expanded, 0u);
    // Without islands the same query floods the whole left island.
    r = finder.find(map, {0, 0}, far);
    EXPECT_EQ(r.status, Status::NoPath);
    EXPECT_EQ(r.expanded, 21u);
    const std::vector<GridPoint> mixed{{5, 5}, {2, 6}, {6, 0}};
    r = finder.find(map, {0, 0}, mixed, options);
    EXPECT_EQ(r.status, Status::Found);
    EXPECT_EQ(r.index, 1u);
    EXPECT_EQ(r.cost, 6.0 + 2.0 * (std::sqrt(2.0) - 1.0));  // 6 rows down, 2 of them diagonal
}
