#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/grid_space.hpp>
#include <gameplan/search/search_context.hpp>

#include "grid_reference.hpp"

#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;
using gameplan::test::RefDiagonal;
using gameplan::test::RefGrid;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

GridMap to_map(const RefGrid& g) {
    GridMap map;
    EXPECT_EQ(map.reset(g.width, g.height, false), GridSizeCheck::Ok);
    for (int y = 0; y < g.height; ++y)
        for (int x = 0; x < g.width; ++x) {
            const int c = g.at(x, y);
            if (c > 0) {
                map.set_passable({x, y}, true);
                map.set_cost({x, y}, static_cast<std::uint32_t>(c));
            } else {
                map.set_cost({x, y}, 7);  // blocked cells' costs must not matter
            }
        }
    map.recompute_min_cost();
    return map;
}

std::vector<std::pair<int, int>> cells_of(const GridPath& p) {
    std::vector<std::pair<int, int>> out;
    for (auto c : p.cells) out.emplace_back(c.x, c.y);
    return out;
}

struct Rule {
    Movement movement;
    DiagonalRule diagonal;
    RefDiagonal ref;
    const char* name;
};

const Rule kRules[] = {
    {Movement::Four, DiagonalRule::NoCornerCutting, RefDiagonal::None, "4-connected"},
    {Movement::Eight, DiagonalRule::Never, RefDiagonal::None, "8/never"},
    {Movement::Eight, DiagonalRule::NoCornerCutting, RefDiagonal::BothFree, "8/no-corner-cutting"},
    {Movement::Eight, DiagonalRule::OneObstacle, RefDiagonal::OneFree, "8/one-obstacle"},
    {Movement::Eight, DiagonalRule::Always, RefDiagonal::Always, "8/always"},
};

std::pair<int, int> random_free_cell(std::mt19937& rng, const RefGrid& g) {
    for (;;) {
        const int x = int(rng() % g.width), y = int(rng() % g.height);
        if (g.free(x, y)) return {x, y};
    }
}

bool admissible(const Rule& rule, Heuristic h) {
    if (h == Heuristic::Manhattan) return rule.ref == RefDiagonal::None;
    return true;
}

/// Runs many random queries on random maps with every rule/heuristic; compares with the oracle.
void check_random_maps(bool terrain, int min_cost) {
    std::mt19937 rng(terrain ? 4242 : 1234);
    GridPathfinder finder;
    GridPath path;
    int checked = 0, unreachable = 0;
    for (double density : {0.0, 0.1, 0.25, 0.4}) {
        for (int round = 0; round < 3; ++round) {
            const int w = 5 + int(rng() % 40), h = 5 + int(rng() % 40);
            const RefGrid g = gameplan::test::ref_random_grid(rng, w, h, density, terrain, min_cost, 9);
            bool any_free = false;
            for (int c : g.cost) any_free = any_free || c > 0;
            if (!any_free) continue;
            const GridMap map = to_map(g);
            for (const Rule& rule : kRules) {
                for (int q = 0; q < 6; ++q) {
                    const auto [sx, sy] = random_free_cell(rng, g);
                    const auto [tx, ty] = random_free_cell(rng, g);
                    const std::vector<double> dist = gameplan::test::ref_dijkstra(g, {{sx, sy}}, rule.ref);
                    const double expect = dist[std::size_t(ty) * w + tx];
                    for (Heuristic heur : {Heuristic::Auto, Heuristic::Manhattan, Heuristic::Octile, Heuristic::Euclidean,
                                           Heuristic::Chebyshev, Heuristic::Zero}) {
                        for (double weight : {1.0, 1.5}) {
                            GridSearchOptions opt;
                            opt.movement = rule.movement;
                            opt.diagonal = rule.diagonal;
                            opt.heuristic = heur;
                            opt.weight = weight;
                            const Status st = finder.find_path(map, {sx, sy}, {tx, ty}, opt, path);
                            SCOPED_TRACE(std::string(rule.name) + " heuristic " + std::string(to_string(heur)) + " weight " +
                                         std::to_string(weight) + " density " + std::to_string(density) + " from (" +
                                         std::to_string(sx) + "," + std::to_string(sy) + ") to (" + std::to_string(tx) +
                                         "," + std::to_string(ty) + ")");
                            if (expect == kInf) {
                                ASSERT_EQ(st, Status::NoPath);
                                EXPECT_TRUE(path.cells.empty());
                                ++unreachable;
                                continue;
                            }
                            ASSERT_EQ(st, Status::Found);
                            ASSERT_EQ(gameplan::test::ref_check_path(g, cells_of(path), sx, sy, tx, ty, rule.ref, path.cost), "");
                            EXPECT_DOUBLE_EQ(path.cost, finder.cost());
                            if (weight == 1.0 && admissible(rule, heur))
                                EXPECT_NEAR(path.cost, expect, 1e-9 * std::max(1.0, expect));
                            else if (admissible(rule, heur))
                                EXPECT_LE(path.cost, weight * expect + 1e-9 * std::max(1.0, expect));
                            else
                                EXPECT_GE(path.cost, expect - 1e-9 * std::max(1.0, expect));
                            ++checked;
                        }
                    }
                }
            }
        }
    }
    EXPECT_GT(checked, 1000);
    EXPECT_GT(unreachable, 0) << "the densest maps should produce some unreachable queries";
}

}  // namespace

TEST(GridPathfinder, RandomMapsMatchReferenceDijkstra) { check_random_maps(false, 1); }

TEST(GridPathfinder, RandomTerrainMapsMatchReferenceDijkstra) { check_random_maps(true, 1); }

TEST(GridPathfinder, TerrainHeuristicScalesByMinimumCost) {
    // Every cell costs at least 3: an admissible heuristic may be 3x octile, and the search must
    // still be optimal and expand fewer cells than with the unscaled heuristic would allow.
    std::mt19937 rng(99);
    const RefGrid g = gameplan::test::ref_random_grid(rng, 60, 60, 0.2, true, 3, 6);
    const GridMap map = to_map(g);
    EXPECT_EQ(map.min_cost(), 3u);
    GridPathfinder finder;
    GridPath path;
    for (int q = 0; q < 50; ++q) {
        const auto [sx, sy] = random_free_cell(rng, g);
        const auto [tx, ty] = random_free_cell(rng, g);
        const double expect = gameplan::test::ref_dijkstra(g, {{sx, sy}}, RefDiagonal::BothFree)[std::size_t(ty) * 60 + tx];
        const Status st = finder.find_path(map, {sx, sy}, {tx, ty}, {}, path);
        if (expect == kInf) {
            EXPECT_EQ(st, Status::NoPath);
            continue;
        }
        ASSERT_EQ(st, Status::Found);
        EXPECT_NEAR(path.cost, expect, 1e-9 * expect);
        const auto expanded_scaled = finder.stats().expanded;
        GridSearchOptions dijkstra;
        dijkstra.heuristic = Heuristic::Zero;
        ASSERT_EQ(finder.find_path(map, {sx, sy}, {tx, ty}, dijkstra, path), Status::Found);
        EXPECT_NEAR(path.cost, expect, 1e-9 * expect);
        EXPECT_LE(expanded_scaled, finder.stats().expanded);
    }
}

TEST(GridPathfinder, GenericEngineOverGridSpaceMatchesReference) {
    std::mt19937 rng(77);
    search::SearchContext<double> context;
    std::vector<search::NodeIndex> nodes;
    for (bool terrain : {false, true})
        for (const Rule& rule : kRules) {
            const RefGrid g = gameplan::test::ref_random_grid(rng, 30, 25, 0.3, terrain);
            const GridMap map = to_map(g);
            for (int q = 0; q < 20; ++q) {
                const auto [sx, sy] = random_free_cell(rng, g);
                const auto [tx, ty] = random_free_cell(rng, g);
                const double expect = gameplan::test::ref_dijkstra(g, {{sx, sy}}, rule.ref)[std::size_t(ty) * 30 + tx];
                GridSpace space(map, {tx, ty}, rule.movement, rule.diagonal);
                const Status st = context.run(space, map.index({sx, sy}));
                if (expect == kInf) {
                    EXPECT_EQ(st, Status::NoPath);
                    continue;
                }
                ASSERT_EQ(st, Status::Found);
                EXPECT_NEAR(context.g(context.goal()), expect, 1e-9 * expect);
                context.path_to(context.goal(), nodes);
                std::vector<std::pair<int, int>> cells;
                for (auto n : nodes) cells.emplace_back(map.point(n).x, map.point(n).y);
                EXPECT_EQ(gameplan::test::ref_check_path(g, cells, sx, sy, tx, ty, rule.ref, context.g(context.goal())), "");
            }
        }
}

TEST(GridPathfinder, StartEqualsGoal) {
    GridMap map;
    ASSERT_EQ(map.reset(5, 5), GridSizeCheck::Ok);
    GridPathfinder finder;
    GridPath path;
    ASSERT_EQ(finder.find_path(map, {2, 3}, {2, 3}, {}, path), Status::Found);
    ASSERT_EQ(path.cells.size(), 1u);
    EXPECT_EQ(path.cells[0], (GridPoint{2, 3}));
    EXPECT_EQ(path.cost, 0.0);
    EXPECT_EQ(finder.stats().expanded, 0u);
}

TEST(GridPathfinder, BlockedStartOrGoalIsInvalid) {
    GridMap map;
    ASSERT_EQ(map.reset(5, 5), GridSizeCheck::Ok);
    map.set_passable({0, 0}, false);
    GridPathfinder finder;
    GridPath path;
    EXPECT_EQ(finder.find_path(map, {0, 0}, {4, 4}, {}, path), Status::InvalidQuery);
    EXPECT_TRUE(path.cells.empty());
    EXPECT_EQ(finder.find_path(map, {4, 4}, {0, 0}, {}, path), Status::InvalidQuery);
    EXPECT_EQ(finder.find_path(map, {0, 0}, {0, 0}, {}, path), Status::InvalidQuery);
    EXPECT_EQ(finder.step(), Status::InvalidQuery);
}

TEST(GridPathfinder, OutOfRangeCoordinatesAreInvalid) {
    GridMap map;
    ASSERT_EQ(map.reset(4, 3), GridSizeCheck::Ok);
    GridPathfinder finder;
    GridPath path;
    for (GridPoint bad : {GridPoint{-1, 0}, GridPoint{0, -1}, GridPoint{4, 0}, GridPoint{0, 3}, GridPoint{INT32_MIN, INT32_MAX},
                          GridPoint{INT32_MAX, 0}}) {
        EXPECT_EQ(finder.find_path(map, bad, {1, 1}, {}, path), Status::InvalidQuery);
        EXPECT_EQ(finder.find_path(map, {1, 1}, bad, {}, path), Status::InvalidQuery);
    }
    EXPECT_FALSE(finder.reached({-1, 0}));
    EXPECT_EQ(finder.g({99, 99}), kInf);
}

TEST(GridPathfinder, InvalidWeightAndEmptyMap) {
    GridMap map;
    GridPathfinder finder;
    GridPath path;
    EXPECT_EQ(finder.find_path(map, {0, 0}, {0, 0}, {}, path), Status::InvalidQuery);
    ASSERT_EQ(map.reset(3, 3), GridSizeCheck::Ok);
    for (double w : {0.5, 0.0, -1.0, std::nan(""), kInf}) {
        GridSearchOptions opt;
        opt.weight = w;
        EXPECT_EQ(finder.find_path(map, {0, 0}, {2, 2}, opt, path), Status::InvalidQuery) << w;
    }
}

TEST(GridPathfinder, UnreachableGoal) {
    // A closed ring around the goal.
    GridMap map;
    ASSERT_EQ(map.reset(7, 7), GridSizeCheck::Ok);
    for (int i = 2; i <= 4; ++i) {
        map.set_passable({i, 2}, false);
        map.set_passable({i, 4}, false);
        map.set_passable({2, i}, false);
        map.set_passable({4, i}, false);
    }
    GridPathfinder finder;
    GridPath path;
    EXPECT_EQ(finder.find_path(map, {0, 0}, {3, 3}, {}, path), Status::NoPath);
    EXPECT_TRUE(path.cells.empty());
    EXPECT_EQ(finder.stats().expanded, 49u - 9u);  // everything outside the ring, once
    // Diagonally touching walls: the goal is reachable only if squeezing through is allowed.
    GridMap squeeze;
    ASSERT_EQ(squeeze.reset(2, 2), GridSizeCheck::Ok);
    squeeze.set_passable({1, 0}, false);
    squeeze.set_passable({0, 1}, false);
    GridSearchOptions opt;
    EXPECT_EQ(finder.find_path(squeeze, {0, 0}, {1, 1}, opt, path), Status::NoPath);
    opt.diagonal = DiagonalRule::OneObstacle;
    EXPECT_EQ(finder.find_path(squeeze, {0, 0}, {1, 1}, opt, path), Status::NoPath);
    opt.diagonal = DiagonalRule::Always;
    ASSERT_EQ(finder.find_path(squeeze, {0, 0}, {1, 1}, opt, path), Status::Found);
    EXPECT_DOUBLE_EQ(path.cost, std::sqrt(2.0));
}

TEST(GridPathfinder, CornerRulesDoWhatTheySay) {
    // . @      one blocked orthogonal neighbour: the diagonal (0,0)->(1,1) is legal under
    // . .      one-obstacle and always, not under no-corner-cutting.
    GridMap map;
    ASSERT_EQ(map.reset(2, 2), GridSizeCheck::Ok);
    map.set_passable({1, 0}, false);
    GridPathfinder finder;
    GridPath path;
    GridSearchOptions opt;
    ASSERT_EQ(finder.find_path(map, {0, 0}, {1, 1}, opt, path), Status::Found);
    EXPECT_DOUBLE_EQ(path.cost, 2.0);
    opt.diagonal = DiagonalRule::OneObstacle;
    ASSERT_EQ(finder.find_path(map, {0, 0}, {1, 1}, opt, path), Status::Found);
    EXPECT_DOUBLE_EQ(path.cost, std::sqrt(2.0));
    opt.diagonal = DiagonalRule::Never;
    ASSERT_EQ(finder.find_path(map, {0, 0}, {1, 1}, opt, path), Status::Found);
    EXPECT_DOUBLE_EQ(path.cost, 2.0);
    opt.movement = Movement::Four;
    opt.diagonal = DiagonalRule::Always;  // ignored for 4-connected movement
    ASSERT_EQ(finder.find_path(map, {0, 0}, {1, 1}, opt, path), Status::Found);
    EXPECT_DOUBLE_EQ(path.cost, 2.0);
}

TEST(GridPathfinder, OneCellAndOneRowMaps) {
    GridPathfinder finder;
    GridPath path;
    GridMap one;
    ASSERT_EQ(one.reset(1, 1), GridSizeCheck::Ok);
    ASSERT_EQ(finder.find_path(one, {0, 0}, {0, 0}, {}, path), Status::Found);
    EXPECT_EQ(path.cells.size(), 1u);
    EXPECT_EQ(finder.find_path(one, {0, 0}, {1, 0}, {}, path), Status::InvalidQuery);

    GridMap row;
    ASSERT_EQ(row.reset(40, 1), GridSizeCheck::Ok);
    ASSERT_EQ(finder.find_path(row, {0, 0}, {39, 0}, {}, path), Status::Found);
    EXPECT_EQ(path.cells.size(), 40u);
    EXPECT_DOUBLE_EQ(path.cost, 39.0);
    EXPECT_EQ(finder.stats().expanded, 39u);
    row.set_passable({20, 0}, false);
    EXPECT_EQ(finder.find_path(row, {0, 0}, {39, 0}, {}, path), Status::NoPath);

    GridMap column;
    ASSERT_EQ(column.reset(1, 33), GridSizeCheck::Ok);
    column.set_cost({0, 10}, 5);
    ASSERT_EQ(finder.find_path(column, {0, 32}, {0, 0}, {}, path), Status::Found);
    EXPECT_DOUBLE_EQ(path.cost, 32.0 + 4.0);
    EXPECT_EQ(path.cells.front(), (GridPoint{0, 32}));
    EXPECT_EQ(path.cells.back(), (GridPoint{0, 0}));
}

TEST(GridPathfinder, TerrainCostRuleIsEnteredCellTimesStepLength) {
    // Diagonal into a cost-4 corner costs 4 * sqrt(2); leaving the cost-10 centre costs nothing extra.
    GridMap map;
    ASSERT_EQ(map.reset(3, 3), GridSizeCheck::Ok);
    map.set_cost({1, 1}, 10);
    map.set_cost({2, 1}, 10);
    map.set_cost({1, 2}, 10);
    map.set_cost({2, 2}, 4);
    GridPathfinder finder;
    GridPath path;
    ASSERT_EQ(finder.find_path(map, {1, 1}, {2, 2}, {}, path), Status::Found);
    EXPECT_DOUBLE_EQ(path.cost, 4.0 * std::sqrt(2.0));
    EXPECT_EQ(path.cells.size(), 2u);
    // Straight through a cost-10 centre is 11; around it 2 * sqrt(2).
    GridMap centre;
    ASSERT_EQ(centre.reset(3, 3), GridSizeCheck::Ok);
    centre.set_cost({1, 1}, 10);
    ASSERT_EQ(finder.find_path(centre, {0, 1}, {2, 1}, {}, path), Status::Found);
    EXPECT_DOUBLE_EQ(path.cost, 2.0 * std::sqrt(2.0));
    ASSERT_EQ(path.cells.size(), 3u);
    GridSearchOptions four;
    four.movement = Movement::Four;
    ASSERT_EQ(finder.find_path(centre, {0, 1}, {2, 1}, four, path), Status::Found);
    EXPECT_DOUBLE_EQ(path.cost, 4.0);  // around: 4 cardinal steps beat 10 + 1
}

TEST(GridPathfinder, BudgetExhaustedThenNoMore) {
    GridMap map;
    ASSERT_EQ(map.reset(50, 50), GridSizeCheck::Ok);
    for (int y = 0; y < 49; ++y) map.set_passable({25, y}, false);
    GridPathfinder finder;
    GridPath path;
    GridSearchOptions opt;
    opt.budget.max_expansions = 10;
    EXPECT_EQ(finder.find_path(map, {0, 0}, {49, 0}, opt, path), Status::BudgetExhausted);
    EXPECT_EQ(finder.stats().expanded, 10u);
    EXPECT_TRUE(path.cells.empty());
    EXPECT_EQ(finder.step(), Status::BudgetExhausted);
    opt.budget = {};
    opt.budget.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    EXPECT_EQ(finder.find_path(map, {0, 0}, {49, 0}, opt, path), Status::BudgetExhausted);
    opt.budget = {};
    EXPECT_EQ(finder.find_path(map, {0, 0}, {49, 0}, opt, path), Status::Found);
}

TEST(GridPathfinder, SlicedSearchEqualsUnsliced) {
    std::mt19937 rng(5);
    const RefGrid g = gameplan::test::ref_random_grid(rng, 64, 64, 0.3, true);
    const GridMap map = to_map(g);
    GridPathfinder whole, sliced;
    GridPath a, b;
    for (int q = 0; q < 40; ++q) {
        const auto [sx, sy] = random_free_cell(rng, g);
        const auto [tx, ty] = random_free_cell(rng, g);
        const Status expect = whole.find_path(map, {sx, sy}, {tx, ty}, {}, a);
        for (std::uint64_t slice : {1u, 7u, 100u}) {
            ASSERT_EQ(sliced.begin(map, {sx, sy}, {tx, ty}), Status::InProgress);
            Status st = Status::InProgress;
            int calls = 0;
            while (st == Status::InProgress) {
                st = sliced.step(slice);
                ++calls;
                ASSERT_LE(sliced.stats().expanded, slice * std::uint64_t(calls));
            }
            EXPECT_EQ(st, expect);
            EXPECT_EQ(sliced.finish(b), expect);
            EXPECT_EQ(a.cells, b.cells);
            EXPECT_EQ(a.cost, b.cost);
            EXPECT_EQ(whole.stats().expanded, sliced.stats().expanded);
            EXPECT_EQ(whole.stats().generated, sliced.stats().generated);
        }
    }
}

TEST(GridPathfinder, DeterministicAcrossInstancesAndHistory) {
    std::mt19937 rng(11);
    const RefGrid g = gameplan::test::ref_random_grid(rng, 50, 50, 0.2, false);
    const GridMap map = to_map(g);
    GridPathfinder reused;
    GridPath a, b;
    std::vector<std::pair<std::pair<int, int>, std::pair<int, int>>> queries;
    for (int q = 0; q < 60; ++q) queries.push_back({random_free_cell(rng, g), random_free_cell(rng, g)});
    for (auto& [s, t] : queries) (void)reused.find_path(map, {s.first, s.second}, {t.first, t.second}, {}, a);
    for (auto& [s, t] : queries) {
        GridPathfinder fresh;
        const Status sa = reused.find_path(map, {s.first, s.second}, {t.first, t.second}, {}, a);
        const Status sb = fresh.find_path(map, {s.first, s.second}, {t.first, t.second}, {}, b);
        EXPECT_EQ(sa, sb);
        EXPECT_EQ(a.cells, b.cells);
        EXPECT_EQ(reused.stats().expanded, fresh.stats().expanded);
    }
}

TEST(GridPathfinder, MultiSourceAndNearestOfManyGoals) {
    std::mt19937 rng(21);
    const RefGrid g = gameplan::test::ref_random_grid(rng, 40, 40, 0.25, true);
    const GridMap map = to_map(g);
    GridPathfinder finder;
    GridPath path;
    for (int q = 0; q < 30; ++q) {
        std::vector<std::pair<int, int>> sources{random_free_cell(rng, g), random_free_cell(rng, g), random_free_cell(rng, g)};
        std::vector<GridPoint> src, goals;
        for (auto [x, y] : sources) src.push_back({x, y});
        const int goal_count = 1 + int(rng() % 20);  // also more than kMaxHeuristicGoals
        for (int i = 0; i < goal_count; ++i) {
            auto [x, y] = random_free_cell(rng, g);
            goals.push_back({x, y});
        }
        const auto dist = gameplan::test::ref_dijkstra(g, sources, RefDiagonal::BothFree);
        double best = kInf;
        for (auto p : goals) best = std::min(best, dist[std::size_t(p.y) * 40 + p.x]);
        ASSERT_EQ(finder.begin(map, src, goals), Status::InProgress);
        const Status st = finder.step();
        if (best == kInf) {
            EXPECT_EQ(st, Status::NoPath);
            continue;
        }
        ASSERT_EQ(st, Status::Found);
        ASSERT_EQ(finder.finish(path), Status::Found);
        EXPECT_NEAR(path.cost, best, 1e-9 * std::max(1.0, best));
        EXPECT_NEAR(dist[std::size_t(finder.goal_reached().y) * 40 + finder.goal_reached().x], best, 1e-9 * std::max(1.0, best));
        const auto first = path.cells.front();
        EXPECT_NE(std::find(src.begin(), src.end(), first), src.end());
        EXPECT_EQ(gameplan::test::ref_check_path(g, cells_of(path), first.x, first.y, path.cells.back().x,
                                                 path.cells.back().y, RefDiagonal::BothFree, path.cost),
                  "");
    }
}

TEST(GridPathfinder, FloodGivesDistanceField) {
    std::mt19937 rng(31);
    const RefGrid g = gameplan::test::ref_random_grid(rng, 45, 30, 0.3, true);
    const GridMap map = to_map(g);
    GridPathfinder finder;
    const auto s1 = random_free_cell(rng, g), s2 = random_free_cell(rng, g);
    const GridPoint sources[] = {{s1.first, s1.second}, {s2.first, s2.second}};
    ASSERT_EQ(finder.begin(map, sources, {}), Status::InProgress);
    EXPECT_EQ(finder.step(), Status::NoPath);
    const auto dist = gameplan::test::ref_dijkstra(g, {s1, s2}, RefDiagonal::BothFree);
    for (int y = 0; y < 30; ++y)
        for (int x = 0; x < 45; ++x) {
            const double d = dist[std::size_t(y) * 45 + x];
            if (d == kInf) {
                EXPECT_FALSE(finder.reached({x, y}));
                EXPECT_EQ(finder.g({x, y}), kInf);
            } else {
                EXPECT_TRUE(finder.closed({x, y}));
                EXPECT_NEAR(finder.g({x, y}), d, 1e-9 * std::max(1.0, d));
            }
        }
    EXPECT_EQ(finder.begin(map, std::span<const GridPoint>{}, {}), Status::InvalidQuery);
}

TEST(GridPathfinder, MapChangesBetweenSlices) {
    GridMap map;
    ASSERT_EQ(map.reset(100, 100), GridSizeCheck::Ok);
    for (int y = 0; y < 99; ++y) map.set_passable({50, y}, false);
    GridPathfinder finder;
    GridPath path;
    ASSERT_EQ(finder.begin(map, {0, 0}, {99, 0}), Status::InProgress);
    ASSERT_EQ(finder.step(10), Status::InProgress);
    EXPECT_EQ(finder.map_version(), map.version());
    map.set_passable({50, 0}, true);  // opens a shortcut mid-search: safe, and detectable
    EXPECT_NE(finder.map_version(), map.version());
    EXPECT_EQ(finder.step(), Status::Found);
    EXPECT_EQ(finder.finish(path), Status::Found);
    // A reset to another size mid-search invalidates the query instead of reading out of bounds.
    ASSERT_EQ(finder.begin(map, {0, 0}, {99, 99}), Status::InProgress);
    ASSERT_EQ(finder.step(5), Status::InProgress);
    ASSERT_EQ(map.reset(20, 20), GridSizeCheck::Ok);
    EXPECT_EQ(finder.step(), Status::InvalidQuery);
    // Terrain costs dropped by an equal-size reset.
    GridMap costly;
    ASSERT_EQ(costly.reset(30, 30), GridSizeCheck::Ok);
    costly.set_cost({3, 3}, 5);
    ASSERT_EQ(finder.begin(costly, {0, 0}, {29, 29}), Status::InProgress);
    ASSERT_EQ(finder.step(3), Status::InProgress);
    ASSERT_EQ(costly.reset(30, 30), GridSizeCheck::Ok);
    EXPECT_EQ(finder.step(), Status::InvalidQuery);
}

TEST(GridPathfinder, CornerPointsKeepOnlyTurns) {
    const std::vector<GridPoint> cells{{0, 0}, {1, 0}, {2, 0}, {3, 1}, {4, 2}, {4, 3}, {4, 4}};
    std::vector<GridPoint> corners;
    corner_points(cells, corners);
    EXPECT_EQ(corners, (std::vector<GridPoint>{{0, 0}, {2, 0}, {4, 2}, {4, 4}}));
    corner_points(std::vector<GridPoint>{{3, 3}}, corners);
    EXPECT_EQ(corners, (std::vector<GridPoint>{{3, 3}}));
    corner_points({}, corners);
    EXPECT_TRUE(corners.empty());
}

TEST(GridPathfinder, HugeMapShortQuery) {
    // 8192 x 8192 in memory; a query touches only the cells it needs.
    GridMap map;
    ASSERT_EQ(map.reset(8192, 8192), GridSizeCheck::Ok);
    for (int y = 8172; y < 8192; ++y) map.set_passable({8180, y}, false);
    GridPathfinder finder;
    GridPath path;
    ASSERT_EQ(finder.find_path(map, {0, 0}, {8191, 8191}, {}, path), Status::Found);
    // The wall (x = 8180, y >= 8172) must be passed by the step (8180, 8171) -> (8181, 8171): octile
    // distance to the first, one step, octile distance from the second.
    EXPECT_NEAR(path.cost, 8171 * std::sqrt(2.0) + 9 + 1 + 10 * std::sqrt(2.0) + 10, 1e-6);
    EXPECT_LT(finder.stats().expanded, 200000u);
    ASSERT_EQ(finder.find_path(map, {8191, 0}, {0, 8191}, {}, path), Status::Found);
    EXPECT_NEAR(path.cost, 8191 * std::sqrt(2.0), 1e-6);
    EXPECT_EQ(path.cells.size(), 8192u);
}

TEST(GridPathfinder, ExtremeShapes) {
    // The widest and tallest accepted maps: the largest strides and row indices.
    GridPathfinder finder;
    GridPath path;
    GridMap wide;
    ASSERT_EQ(wide.reset(kMaxGridSide, 3), GridSizeCheck::Ok);
    ASSERT_EQ(finder.find_path(wide, {0, 0}, {kMaxGridSide - 1, 2}, {}, path), Status::Found);
    EXPECT_NEAR(path.cost, (kMaxGridSide - 1 - 2) + 2 * std::sqrt(2.0), 1e-9);
    EXPECT_EQ(path.cells.back(), (GridPoint{kMaxGridSide - 1, 2}));
    GridMap tall;
    ASSERT_EQ(tall.reset(3, kMaxGridSide), GridSizeCheck::Ok);
    tall.set_passable({1, 20000}, false);
    tall.set_passable({0, 20000}, false);
    ASSERT_EQ(finder.find_path(tall, {0, kMaxGridSide - 1}, {0, 0}, {}, path), Status::Found);
    EXPECT_NEAR(path.cost, (kMaxGridSide - 1 - 4) + 4 * std::sqrt(2.0), 1e-9);  // two cells out and back
    for (std::size_t i = 1; i < path.cells.size(); ++i) {
        EXPECT_LE(std::abs(path.cells[i].x - path.cells[i - 1].x), 1);
        EXPECT_LE(std::abs(path.cells[i].y - path.cells[i - 1].y), 1);
    }
}

// ---- the memory budget ------------------------------------------------------------------------------

namespace {

// A 160 x 160 map with a quarter of its cells blocked, its corners open, and a penalty layer.
struct BudgetWorld {
    GridMap map;
    PenaltyLayer penalties;
    GridSearchState saved;  // a search of `query_single` stopped after 300 expansions
    BudgetWorld() {
        std::mt19937 rng(77);
        EXPECT_EQ(map.reset(160, 160), GridSizeCheck::Ok);
        for (int y = 0; y < 160; ++y)
            for (int x = 0; x < 160; ++x)
                if (rng() % 4 == 0) map.set_passable({x, y}, false);
        for (const GridPoint p : {GridPoint{0, 0}, GridPoint{159, 159}, GridPoint{0, 159}, GridPoint{159, 0}, GridPoint{80, 80}})
            map.set_passable(p, true);
        penalties.reset(map);
        for (int i = 0; i < 400; ++i) penalties.set({int(rng() % 160), int(rng() % 160)}, float(rng() % 4));
        GridPathfinder finder;
        EXPECT_EQ(finder.begin(map, {0, 0}, {159, 159}), Status::InProgress);
        EXPECT_EQ(finder.step(300), Status::InProgress);
        EXPECT_TRUE(finder.save_search(saved));
    }
};

const BudgetWorld& budget_world() {
    static const BudgetWorld world;
    return world;
}

// One of the ways a grid search begins; every one of them must honour the memory budget.
struct BudgetQuery {
    const char* name;
    Status (*begin)(GridPathfinder&, const BudgetWorld&, GridSearchOptions);
};

const BudgetQuery kBudgetQueries[] = {
    {"single goal",
     [](GridPathfinder& f, const BudgetWorld& w, GridSearchOptions o) { return f.begin(w.map, {0, 0}, {159, 159}, o); }},
    {"layers",
     [](GridPathfinder& f, const BudgetWorld& w, GridSearchOptions o) {
         o.penalties = &w.penalties;
         return f.begin(w.map, {0, 0}, {159, 159}, o);
     }},
    {"sources and goals",
     [](GridPathfinder& f, const BudgetWorld& w, GridSearchOptions o) {
         const GridPoint sources[] = {{0, 0}, {0, 159}};
         const GridPoint goals[] = {{159, 159}, {159, 0}, {80, 80}};
         return f.begin(w.map, sources, goals, o);
     }},
    {"flood",
     [](GridPathfinder& f, const BudgetWorld& w, GridSearchOptions o) {
         const GridPoint sources[] = {{80, 80}, {0, 0}};
         return f.begin(w.map, sources, {}, o);
     }},
    {"restore",
     [](GridPathfinder& f, const BudgetWorld& w, GridSearchOptions o) {
         return f.restore_search(w.map, {0, 0}, {159, 159}, o, w.saved);
     }},
};

GridSearchOptions with_memory(std::size_t bytes) {
    GridSearchOptions o;
    o.budget.max_memory_bytes = bytes;
    return o;
}

// Begins `q` and steps it to its end in slices of `slice` (checking memory_bytes() <= `cap` after each).
Status run_query(GridPathfinder& f, const BudgetQuery& q, const GridSearchOptions& o, std::uint64_t slice, std::size_t cap) {
    Status s = q.begin(f, budget_world(), o);
    EXPECT_LE(f.memory_bytes(), cap) << q.name;
    while (s == Status::InProgress) {
        s = f.step(slice);
        EXPECT_LE(f.memory_bytes(), cap) << q.name;
    }
    return s;
}

// What a fresh pathfinder holds after an unlimited run of `q`, with the run's status and cost.
struct Unlimited {
    std::size_t bytes;
    Status status;
    double cost;
};
Unlimited unlimited_run(const BudgetQuery& q) {
    GridPathfinder f;
    const Status s = run_query(f, q, {}, UINT64_MAX, SIZE_MAX);
    EXPECT_EQ(f.budget_limit(), search::BudgetLimit::None);
    return {f.memory_bytes(), s, f.cost()};
}

}  // namespace

TEST(GridPathfinder, MemoryBudgetBelowTheQueryStopsWithMemory) {
    for (const BudgetQuery& q : kBudgetQueries) {
        SCOPED_TRACE(q.name);
        const Unlimited full = unlimited_run(q);
        ASSERT_NE(full.status, Status::BudgetExhausted);
        // Too small for the per-cell arrays (nothing allocated), and one byte short of the whole search
        // (the arrays fit, the open list or the goal marks do not).
        for (const std::size_t budget : {std::size_t{4096}, full.bytes / 2, full.bytes - 1}) {
            GridPathfinder f;
            const Status s = run_query(f, q, with_memory(budget), UINT64_MAX, budget);
            EXPECT_EQ(s, Status::BudgetExhausted) << budget;
            EXPECT_EQ(f.status(), Status::BudgetExhausted);
            EXPECT_EQ(f.budget_limit(), search::BudgetLimit::Memory);
            EXPECT_LE(f.memory_bytes(), budget);
            EXPECT_EQ(f.step(), Status::BudgetExhausted);  // final
            GridPath path;
            path.cells.push_back({1, 1});
            EXPECT_EQ(f.finish(path), Status::BudgetExhausted);
            EXPECT_TRUE(path.cells.empty());
            EXPECT_EQ(path.cost, kInf);
            EXPECT_EQ(f.cost(), kInf);
        }
        GridPathfinder tiny;
        EXPECT_EQ(q.begin(tiny, budget_world(), with_memory(4096)), Status::BudgetExhausted);  // begin says so at once
        EXPECT_EQ(tiny.memory_bytes(), 0u);
    }
}

TEST(GridPathfinder, MemoryBudgetOfWhatTheQueryHoldsLetsItThrough) {
    for (const BudgetQuery& q : kBudgetQueries) {
        SCOPED_TRACE(q.name);
        const Unlimited full = unlimited_run(q);
        for (const std::uint64_t slice : {std::uint64_t{UINT64_MAX}, std::uint64_t{7}}) {
            GridPathfinder f;
            const Status s = run_query(f, q, with_memory(full.bytes), slice, full.bytes);
            EXPECT_EQ(s, full.status);
            EXPECT_EQ(f.budget_limit(), search::BudgetLimit::None);
            EXPECT_EQ(f.memory_bytes(), full.bytes);  // grown exactly as without a limit
            if (s == Status::Found) {
                EXPECT_EQ(f.cost(), full.cost);
            }
        }
    }
}

TEST(GridPathfinder, MemoryBudgetCountsWhatThePathfinderAlreadyHolds) {
    const BudgetWorld& w = budget_world();
    GridMap small;
    ASSERT_EQ(small.reset(20, 20), GridSizeCheck::Ok);
    GridPathfinder f;
    GridPath path;
    ASSERT_EQ(f.find_path(w.map, {0, 0}, {159, 159}, {}, path), Status::Found);  // sized for the big map
    const std::size_t held = f.memory_bytes();
    ASSERT_GT(held, 160u * 160u * 16u);
    const GridPoint sources[] = {{0, 0}, {5, 5}};
    const GridPoint goals[] = {{19, 19}, {19, 0}};
    // A budget below what it holds stops every form of query at once, allocating nothing.
    const GridSearchOptions tight = with_memory(held - 1);
    EXPECT_EQ(f.find_path(small, {0, 0}, {19, 19}, tight, path), Status::BudgetExhausted);
    EXPECT_EQ(f.budget_limit(), search::BudgetLimit::Memory);
    EXPECT_EQ(f.stats().expanded, 0u);
    EXPECT_TRUE(path.cells.empty());
    EXPECT_EQ(f.begin(small, sources, goals, tight), Status::BudgetExhausted);
    EXPECT_EQ(f.budget_limit(), search::BudgetLimit::Memory);
    EXPECT_EQ(f.begin(small, sources, {}, tight), Status::BudgetExhausted);
    EXPECT_EQ(f.budget_limit(), search::BudgetLimit::Memory);
    GridSearchState state;
    {
        GridPathfinder other;
        ASSERT_EQ(other.begin(small, {0, 0}, {19, 19}), Status::InProgress);
        ASSERT_EQ(other.step(5), Status::InProgress);
        ASSERT_TRUE(other.save_search(state));
    }
    EXPECT_EQ(f.restore_search(small, {0, 0}, {19, 19}, tight, state), Status::BudgetExhausted);
    EXPECT_EQ(f.budget_limit(), search::BudgetLimit::Memory);
    EXPECT_EQ(f.memory_bytes(), held);
    // Invalid queries are refused as such before the budget is looked at.
    EXPECT_EQ(f.begin(small, {-1, 0}, {19, 19}, tight), Status::InvalidQuery);
    EXPECT_EQ(f.budget_limit(), search::BudgetLimit::None);
    // With room for what it holds, the small queries run without growing anything.
    const GridSearchOptions roomy = with_memory(held);
    EXPECT_EQ(f.find_path(small, {0, 0}, {19, 19}, roomy, path), Status::Found);
    EXPECT_EQ(f.budget_limit(), search::BudgetLimit::None);
    EXPECT_EQ(f.restore_search(small, {0, 0}, {19, 19}, roomy, state), Status::InProgress);
    EXPECT_EQ(f.step(), Status::Found);
    EXPECT_EQ(f.memory_bytes(), held);
}

// A saved search is checked against the map whenever the map's passability is still the one it began on,
// also after cost changes (the request queue goes on with such a search): a reached cell that is blocked is
// refused. After a change of passability the cells are not checked (the caller restarts the search).
TEST(GridPathfinder, RestoredSearchesAreCheckedAfterCostChanges) {
    GridMap map;
    ASSERT_EQ(map.reset(20, 20), GridSizeCheck::Ok);
    (void)map.set_passable({10, 10}, false);
    GridSearchState state;
    {
        GridPathfinder f;
        ASSERT_EQ(f.begin(map, {0, 0}, {19, 19}), Status::InProgress);
        ASSERT_EQ(f.step(30), Status::InProgress);
        ASSERT_TRUE(f.save_search(state));
    }
    ASSERT_GT(state.cells.size(), 1u);
    GridSearchState forged = state;
    forged.cells.push_back({map.index({10, 10}), 20.0, map.index({0, 0}), true});  // a reached cell on the wall
    GridPathfinder f;
    EXPECT_EQ(f.restore_search(map, {0, 0}, {19, 19}, {}, forged), Status::InvalidQuery);
    ASSERT_TRUE(map.set_cost({3, 17}, 4));  // costs only
    EXPECT_EQ(f.restore_search(map, {0, 0}, {19, 19}, {}, forged), Status::InvalidQuery);
    ASSERT_EQ(f.restore_search(map, {0, 0}, {19, 19}, {}, state), Status::InProgress);
    GridPath path;
    ASSERT_EQ(f.step(), Status::Found);
    ASSERT_EQ(f.finish(path), Status::Found);
    for (const GridPoint& p : path.cells) EXPECT_TRUE(map.passable(p));
    // A search saved on a version the map never had is not checked as if it were the map's.
    forged.map_version = map.version() + 5;
    EXPECT_EQ(f.restore_search(map, {0, 0}, {19, 19}, {}, forged), Status::InProgress);
    EXPECT_EQ(f.map_version(), map.version() + 5) << "the caller sees the mismatch and restarts";
}

TEST(GridPathfinder, BudgetLimitSaysWhichLimitRanOut) {
    const BudgetWorld& w = budget_world();
    GridPathfinder f;
    GridPath path;
    GridSearchOptions o;
    o.budget.max_expansions = 3;
    EXPECT_EQ(f.find_path(w.map, {0, 0}, {159, 159}, o, path), Status::BudgetExhausted);
    EXPECT_EQ(f.budget_limit(), search::BudgetLimit::Expansions);
    o.budget = {};
    o.budget.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    EXPECT_EQ(f.find_path(w.map, {0, 0}, {159, 159}, o, path), Status::BudgetExhausted);
    EXPECT_EQ(f.budget_limit(), search::BudgetLimit::Time);
    EXPECT_EQ(f.find_path(w.map, {0, 0}, {159, 159}, with_memory(1000), path), Status::BudgetExhausted);
    EXPECT_EQ(f.budget_limit(), search::BudgetLimit::Memory);
    EXPECT_EQ(f.find_path(w.map, {0, 0}, {159, 159}, {}, path), Status::Found);
    EXPECT_EQ(f.budget_limit(), search::BudgetLimit::None);  // reset by begin
    const GridPoint sources[] = {{0, 0}};
    EXPECT_EQ(f.begin(w.map, sources, {}, {}), Status::InProgress);
    EXPECT_EQ(f.step(), Status::NoPath);
    EXPECT_EQ(f.budget_limit(), search::BudgetLimit::None);
}

TEST(GridPathfinder, MemoryBudgetCapsWhatThePathfinderHolds) {
    // Budgets from far below the per-cell arrays to past the whole search, in steps of x1.25, and finely
    // over the range where only the open list (and goal marks) grow: the pathfinder never holds more
    // than the budget, and the query runs exactly when the budget covers what it holds without one.
    for (const BudgetQuery& q : kBudgetQueries) {
        SCOPED_TRACE(q.name);
        const Unlimited full = unlimited_run(q);
        GridPathfinder started;
        (void)q.begin(started, budget_world(), {});
        const std::size_t base = started.memory_bytes();  // what the search holds when it begins
        ASSERT_LT(base, full.bytes);
        std::vector<std::size_t> budgets;
        for (double b = 256; b < 1.5 * double(full.bytes); b *= 1.25) budgets.push_back(std::size_t(b));
        for (double r = 1.0 / 512; r < 1.5; r *= 1.25) budgets.push_back(base + std::size_t(r * double(full.bytes - base)));
        for (const std::size_t budget : budgets) {
            GridPathfinder f;
            const Status s = run_query(f, q, with_memory(budget), 64, budget);
            ASSERT_LE(f.memory_bytes(), budget);
            if (budget >= full.bytes) {
                EXPECT_EQ(s, full.status) << budget;
                if (s == Status::Found) {
                    EXPECT_EQ(f.cost(), full.cost);
                }
            } else {
                EXPECT_EQ(s, Status::BudgetExhausted) << budget;
                EXPECT_EQ(f.budget_limit(), search::BudgetLimit::Memory) << budget;
            }
        }
    }
}
