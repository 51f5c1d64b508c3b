// Jump Point Search (online) and JPS+ (jump tables) against an independent reference Dijkstra.
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/jps.hpp>
#include <gameplan/path/jps_plus.hpp>

#include "jps_test_support.hpp"
#include "test_data.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;
namespace ref = gameplan::test::jps;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

bool near(double a, double b, double tol = 1e-9) { return std::abs(a - b) <= tol * std::max(1.0, std::abs(b)); }

/// Runs one query through JPS, JPS+ and A* and checks everything against the reference distance.
struct Checker {
    JpsPathfinder jps;
    JpsPlusPathfinder plus;
    GridPathfinder astar;
    GridPath path_jps, path_plus, path_astar;
    int found = 0;
    int unreachable = 0;

    void query(const ref::Grid& g, const GridMap& map, GridPoint s, GridPoint t, double expected, const std::string& what) {
        SCOPED_TRACE(what + " from (" + std::to_string(s.x) + "," + std::to_string(s.y) + ") to (" + std::to_string(t.x) +
                     "," + std::to_string(t.y) + ")");
        const Status sj = jps.find_path(map, s, t, {}, path_jps);
        const Status sp = plus.find_path(map, s, t, {}, path_plus);
        const Status sa = astar.find_path(map, s, t, {}, path_astar);
        if (expected == kInf) {
            ++unreachable;
            EXPECT_EQ(sj, Status::NoPath);
            EXPECT_EQ(sp, Status::NoPath);
            EXPECT_EQ(sa, Status::NoPath);
            EXPECT_TRUE(path_jps.cells.empty());
            EXPECT_EQ(path_jps.cost, kInf);
            return;
        }
        ++found;
        ASSERT_EQ(sj, Status::Found);
        ASSERT_EQ(sp, Status::Found);
        ASSERT_EQ(sa, Status::Found);
        EXPECT_TRUE(near(path_jps.cost, expected)) << path_jps.cost << " vs reference " << expected;
        EXPECT_TRUE(near(path_plus.cost, expected)) << path_plus.cost << " vs reference " << expected;
        EXPECT_TRUE(near(path_jps.cost, path_astar.cost)) << path_jps.cost << " vs A* " << path_astar.cost;
        EXPECT_EQ(ref::check_path(g, path_jps.cells, s, t, path_jps.cost), "");
        EXPECT_EQ(ref::check_path(g, path_plus.cells, s, t, path_plus.cost), "");
        EXPECT_DOUBLE_EQ(jps.cost(), path_jps.cost);
        // The two successor generators are designed to emit the same jump points in the same order.
        EXPECT_EQ(jps.stats().expanded, plus.stats().expanded);
        EXPECT_EQ(jps.stats().generated, plus.stats().generated);
        EXPECT_EQ(path_jps.cells, path_plus.cells);
        EXPECT_EQ(jps.jump_point_count(), plus.jump_point_count());
        check_detail(map, s, t);
    }

    // PathDetail: the waypoints (jump points for JPS, corner points for A*), expanded by
    // expand_waypoints, give back exactly the full cell path; CostOnly gives the cost and no cells.
    void check_detail(const GridMap& map, GridPoint s, GridPoint t) {
        GridSearchOptions waypoints;
        waypoints.detail = PathDetail::Waypoints;
        GridSearchOptions cost_only;
        cost_only.detail = PathDetail::CostOnly;
        GridPath reduced;
        std::vector<GridPoint> expanded;
        ASSERT_EQ(jps.find_path(map, s, t, waypoints, reduced), Status::Found);
        EXPECT_EQ(reduced.cells.size(), jps.jump_point_count());
        EXPECT_EQ(reduced.cost, path_jps.cost);
        expand_waypoints(reduced.cells, expanded);
        EXPECT_EQ(expanded, path_jps.cells);
        ASSERT_EQ(plus.find_path(map, s, t, waypoints, reduced), Status::Found);
        expand_waypoints(reduced.cells, expanded);
        EXPECT_EQ(expanded, path_plus.cells);
        ASSERT_EQ(astar.find_path(map, s, t, waypoints, reduced), Status::Found);
        expand_waypoints(reduced.cells, expanded);
        EXPECT_EQ(expanded, path_astar.cells);
        std::vector<GridPoint> corners;
        corner_points(path_astar.cells, corners);
        EXPECT_EQ(reduced.cells, corners);
        for (int k = 0; k < 3; ++k) {
            const Status status = k == 0   ? jps.find_path(map, s, t, cost_only, reduced)
                                  : k == 1 ? plus.find_path(map, s, t, cost_only, reduced)
                                           : astar.find_path(map, s, t, cost_only, reduced);
            ASSERT_EQ(status, Status::Found);
            EXPECT_TRUE(reduced.cells.empty());
            EXPECT_TRUE(near(reduced.cost, path_jps.cost));
        }
    }
};

void check_grid(Checker& checker, std::mt19937& rng, const ref::Grid& g, int queries, const std::string& what) {
    const GridMap map = ref::to_map(g);
    // A new map object may sit at the address of the previous one with an equal version count: the
    // snapshots cannot tell them apart (see jps.hpp), so take them explicitly.
    checker.jps.sync(map);
    ASSERT_EQ(checker.plus.build(map), JpsSupport::Ok);
    bool any = false;
    for (char c : g.open) any = any || c;
    if (!any) return;
    for (int q = 0; q < queries; ++q) {
        const GridPoint s = ref::random_free(rng, g);
        const auto dist = ref::dijkstra(g, s.x, s.y);
        for (int k = 0; k < 4; ++k) {
            const GridPoint t = ref::random_free(rng, g);
            checker.query(g, map, s, t, dist[std::size_t(t.y) * g.width + t.x], what);
            if (::testing::Test::HasFatalFailure()) return;
        }
    }
}

}  // namespace

TEST(Jps, RandomMapsOfSeveralDensitiesMatchReferenceDijkstra) {
    std::mt19937 rng(2024);
    Checker checker;
    // Sizes around the 63-cell scan blocks and the 64-bit words, thin maps, and larger ones.
    const std::pair<int, int> sizes[] = {{1, 1}, {1, 23}, {23, 1}, {2, 2}, {5, 7}, {61, 9},  {62, 5},   {63, 8},
                                         {64, 6}, {65, 7}, {66, 3}, {9, 127}, {127, 9}, {128, 20}, {130, 66}, {200, 190}};
    const double densities[] = {0.0, 0.05, 0.15, 0.25, 0.35, 0.45};
    for (auto [w, h] : sizes)
        for (double density : densities) {
            const ref::Grid g = ref::random_grid(rng, w, h, density);
            const int queries = w * h > 4000 ? 6 : 10;
            check_grid(checker, rng, g, queries,
                       "random " + std::to_string(w) + "x" + std::to_string(h) + " density " + std::to_string(density));
            if (HasFatalFailure()) return;
        }
    EXPECT_GT(checker.found, 1000);
    EXPECT_GT(checker.unreachable, 20);
}

TEST(Jps, RoomMapsMatchReferenceDijkstra) {
    std::mt19937 rng(77);
    Checker checker;
    const std::pair<int, int> sizes[] = {{40, 40}, {64, 64}, {100, 70}, {129, 131}, {257, 90}};
    for (auto [w, h] : sizes)
        for (int walls : {5, 20, 60})
            for (double noise : {0.0, 0.02}) {
                const ref::Grid g = ref::room_grid(rng, w, h, walls, noise);
                check_grid(checker, rng, g, 8,
                           "rooms " + std::to_string(w) + "x" + std::to_string(h) + " walls " + std::to_string(walls));
                if (HasFatalFailure()) return;
            }
    EXPECT_GT(checker.found, 500);
}

TEST(Jps, OpenSpaceQueriesExpandOnlyTheStart) {
    // In open space the goal lies on the canonical line from the start: the start's expansion
    // generates it directly, every other successor is pruned against its cost, and the next pop is
    // the goal. The cost is the octile distance (computed here independently).
    GridMap map;
    ASSERT_EQ(map.reset(90, 70), GridSizeCheck::Ok);
    std::mt19937 rng(8);
    JpsPathfinder jps;
    JpsPlusPathfinder plus;
    jps.sync(map, 1u << 12, true);  // pre-faulted state: queries behave the same
    GridPath path;
    for (int q = 0; q < 200; ++q) {
        const GridPoint s{int(rng() % 90), int(rng() % 70)}, t{int(rng() % 90), int(rng() % 70)};
        const double dx = std::abs(s.x - t.x), dy = std::abs(s.y - t.y);
        const double octile = std::max(dx, dy) + (std::sqrt(2.0) - 1.0) * std::min(dx, dy);
        ASSERT_EQ(jps.find_path(map, s, t, {}, path), Status::Found);
        EXPECT_TRUE(near(path.cost, octile));
        EXPECT_EQ(jps.stats().expanded, s == t ? 0u : 1u);
        ASSERT_EQ(plus.find_path(map, s, t, {}, path), Status::Found);
        EXPECT_TRUE(near(path.cost, octile));
        EXPECT_EQ(plus.stats().expanded, s == t ? 0u : 1u);
    }
}

TEST(Jps, EdgeCases) {
    ref::Grid g{6, 4, std::vector<char>(24, 1)};
    g.set(2, 0, false);
    g.set(2, 1, false);
    g.set(2, 2, false);
    g.set(2, 3, false);  // a full wall: the right part is unreachable from the left
    const GridMap map = ref::to_map(g);
    JpsPathfinder jps;
    JpsPlusPathfinder plus;
    GridPath path;
    for (int which = 0; which < 2; ++which) {
        SCOPED_TRACE(which == 0 ? "jps" : "jps+");
        const auto run = [&](GridPoint s, GridPoint t, const GridSearchOptions& o = {}) {
            return which == 0 ? jps.find_path(map, s, t, o, path) : plus.find_path(map, s, t, o, path);
        };
        EXPECT_EQ(run({0, 0}, {0, 0}), Status::Found);
        EXPECT_EQ(path.cells, (std::vector<GridPoint>{{0, 0}}));
        EXPECT_EQ(path.cost, 0.0);
        EXPECT_EQ(run({0, 0}, {5, 3}), Status::NoPath);
        EXPECT_TRUE(path.cells.empty());
        EXPECT_EQ(path.cost, kInf);
        EXPECT_EQ(run({0, 0}, {2, 1}), Status::InvalidQuery);  // blocked goal
        EXPECT_EQ(run({2, 2}, {0, 1}), Status::InvalidQuery);  // blocked start
        EXPECT_EQ(run({-1, 0}, {0, 1}), Status::InvalidQuery);
        EXPECT_EQ(run({0, 0}, {6, 0}), Status::InvalidQuery);
        EXPECT_EQ(run({0, 0}, {0, 4}), Status::InvalidQuery);
        EXPECT_EQ(run({0, 0}, {1, 3}), Status::Found);
        EXPECT_NEAR(path.cost, 2 + std::sqrt(2.0), 1e-12);
        // Unsupported options.
        EXPECT_EQ(run({0, 0}, {1, 3}, {Movement::Four, DiagonalRule::NoCornerCutting, Heuristic::Auto, 1.0, {}}),
                  Status::InvalidQuery);
        for (DiagonalRule rule : {DiagonalRule::Never, DiagonalRule::OneObstacle, DiagonalRule::Always})
            EXPECT_EQ(run({0, 0}, {1, 3}, {Movement::Eight, rule, Heuristic::Auto, 1.0, {}}), Status::InvalidQuery);
        EXPECT_EQ(run({0, 0}, {1, 3}, {Movement::Eight, DiagonalRule::NoCornerCutting, Heuristic::Auto, 0.5, {}}),
                  Status::InvalidQuery);
        EXPECT_EQ(run({0, 0}, {1, 3}, {Movement::Eight, DiagonalRule::NoCornerCutting, Heuristic::Auto, NAN, {}}),
                  Status::InvalidQuery);
        EXPECT_TRUE(path.cells.empty());
    }
    const GridMap empty;
    EXPECT_EQ(jps.find_path(empty, {0, 0}, {0, 0}, {}, path), Status::InvalidQuery);
    EXPECT_EQ(plus.find_path(empty, {0, 0}, {0, 0}, {}, path), Status::InvalidQuery);
    EXPECT_EQ(check_jps_support(empty, {}), JpsSupport::EmptyMap);
    EXPECT_EQ(check_jps_support(map, {}), JpsSupport::Ok);
    EXPECT_EQ(check_jps_support(map, {Movement::Four, DiagonalRule::NoCornerCutting, Heuristic::Auto, 1.0, {}}),
              JpsSupport::NotEightConnected);
    EXPECT_EQ(check_jps_support(map, {Movement::Eight, DiagonalRule::Always, Heuristic::Auto, 1.0, {}}),
              JpsSupport::NotNoCornerCutting);
    EXPECT_FALSE(describe(JpsSupport::TerrainCosts).empty());
    EXPECT_TRUE(describe(JpsSupport::Ok).empty());
}

TEST(Jps, TerrainCostsAreRefusedButUniformCostArraysAreFine) {
    GridMap map;
    ASSERT_EQ(map.reset(10, 10), GridSizeCheck::Ok);
    map.set_passable({5, 5}, false);
    ASSERT_TRUE(map.set_cost({5, 5}, 9));  // a blocked cell's cost does not matter
    JpsPathfinder jps;
    JpsPlusPathfinder plus;
    GridPath path;
    EXPECT_EQ(check_jps_support(map, {}), JpsSupport::Ok);
    EXPECT_EQ(jps.find_path(map, {0, 0}, {9, 9}, {}, path), Status::Found);
    EXPECT_EQ(plus.find_path(map, {0, 0}, {9, 9}, {}, path), Status::Found);
    ASSERT_TRUE(map.set_cost({3, 4}, 2));
    EXPECT_EQ(check_jps_support(map, {}), JpsSupport::TerrainCosts);
    EXPECT_EQ(jps.find_path(map, {0, 0}, {9, 9}, {}, path), Status::InvalidQuery);
    EXPECT_EQ(plus.find_path(map, {0, 0}, {9, 9}, {}, path), Status::InvalidQuery);
    JumpTable table;
    EXPECT_EQ(table.build(map), JpsSupport::TerrainCosts);
    // Making the costly passable cell blocked restores uniform costs, through the incremental paths too.
    map.set_passable({3, 4}, false);
    EXPECT_TRUE(jps.update_cell(map, {3, 4}));
    EXPECT_GT(table.update_cell(map, {3, 4}), 0u);
    EXPECT_TRUE(table.uniform_costs());
    EXPECT_TRUE(table.in_sync(map));
    const std::uint64_t syncs = jps.sync_count();
    EXPECT_EQ(jps.find_path(map, {0, 0}, {9, 9}, {}, path), Status::Found);
    EXPECT_EQ(jps.sync_count(), syncs);
    EXPECT_EQ(plus.find_path(map, {0, 0}, {9, 9}, {}, path), Status::Found);
    // And the reverse: a costly blocked cell opening up makes the map non-uniform again.
    map.set_passable({5, 5}, true);
    EXPECT_TRUE(jps.update_cell(map, {5, 5}));
    EXPECT_EQ(jps.find_path(map, {0, 0}, {9, 9}, {}, path), Status::InvalidQuery);
    EXPECT_EQ(jps.sync_count(), syncs);
}

TEST(Jps, BudgetAndSlicesGiveTheSameResultAsOneShot) {
    std::mt19937 rng(5);
    const ref::Grid g = ref::room_grid(rng, 120, 90, 40, 0.05);
    const GridMap map = ref::to_map(g);
    JpsPathfinder jps, sliced;
    JpsPlusPathfinder plus, plus_sliced;
    GridPath a, b;
    int long_queries = 0;
    for (int q = 0; q < 60; ++q) {
        const GridPoint s = ref::random_free(rng, g), t = ref::random_free(rng, g);
        const Status one = jps.find_path(map, s, t, {}, a);
        if (one != Status::Found) continue;
        const std::uint64_t expanded = jps.stats().expanded;
        ASSERT_EQ(sliced.begin(map, s, t), Status::InProgress);
        int slices = 0;
        while (sliced.step(1) == Status::InProgress) ++slices;
        EXPECT_EQ(sliced.finish(b), Status::Found);
        EXPECT_EQ(a.cells, b.cells);
        EXPECT_EQ(a.cost, b.cost);
        EXPECT_EQ(sliced.stats().expanded, expanded);
        EXPECT_EQ(static_cast<std::uint64_t>(slices) + 1, expanded);  // the last slice also finds the goal
        ASSERT_EQ(plus_sliced.begin(map, s, t), Status::InProgress);
        while (plus_sliced.step(2) == Status::InProgress) {
        }
        EXPECT_EQ(plus_sliced.finish(b), Status::Found);
        EXPECT_EQ(a.cells, b.cells);
        if (expanded > 3) {
            ++long_queries;
            GridSearchOptions limited;
            limited.budget.max_expansions = expanded - 1;
            EXPECT_EQ(jps.find_path(map, s, t, limited, b), Status::BudgetExhausted);
            EXPECT_TRUE(b.cells.empty());
            EXPECT_EQ(jps.stats().expanded, expanded - 1);
            EXPECT_EQ(plus.find_path(map, s, t, limited, b), Status::BudgetExhausted);
            limited.budget.max_expansions = expanded;
            EXPECT_EQ(jps.find_path(map, s, t, limited, b), Status::Found);
        }
    }
    EXPECT_GT(long_queries, 10);
}

TEST(Jps, OtherHeuristicsAndWeights) {
    std::mt19937 rng(99);
    const ref::Grid g = ref::room_grid(rng, 80, 80, 30, 0.1);
    const GridMap map = ref::to_map(g);
    JpsPathfinder jps;
    JpsPlusPathfinder plus;
    GridPath path;
    int checked = 0;
    for (int q = 0; q < 40; ++q) {
        const GridPoint s = ref::random_free(rng, g), t = ref::random_free(rng, g);
        const double expected = ref::dijkstra(g, s.x, s.y)[std::size_t(t.y) * g.width + t.x];
        if (expected == kInf) continue;
        ++checked;
        for (Heuristic h : {Heuristic::Zero, Heuristic::Chebyshev, Heuristic::Euclidean, Heuristic::Octile}) {
            const GridSearchOptions o{Movement::Eight, DiagonalRule::NoCornerCutting, h, 1.0, {}};
            ASSERT_EQ(jps.find_path(map, s, t, o, path), Status::Found);
            EXPECT_TRUE(near(path.cost, expected));
            ASSERT_EQ(plus.find_path(map, s, t, o, path), Status::Found);
            EXPECT_TRUE(near(path.cost, expected));
        }
        const GridSearchOptions weighted{Movement::Eight, DiagonalRule::NoCornerCutting, Heuristic::Auto, 2.0, {}};
        ASSERT_EQ(jps.find_path(map, s, t, weighted, path), Status::Found);
        EXPECT_LE(path.cost, 2.0 * expected + 1e-9);
        EXPECT_EQ(ref::check_path(g, path.cells, s, t, path.cost), "");
    }
    EXPECT_GT(checked, 20);
}

TEST(Jps, OnlineSnapshotFollowsMapChanges) {
    std::mt19937 rng(31);
    ref::Grid g = ref::room_grid(rng, 90, 70, 25, 0.05);
    GridMap map = ref::to_map(g);
    Checker checker;
    checker.jps.sync(map);
    const std::uint64_t syncs = checker.jps.sync_count();
    for (int round = 0; round < 60; ++round) {
        const bool report = round % 3 != 2;  // every third change is not reported: a full resync follows
        for (int k = 0; k < 1 + round % 4; ++k) {
            const int x = int(rng() % g.width), y = int(rng() % g.height);
            g.set(x, y, !g.free(x, y));
            map.set_passable({x, y}, g.free(x, y));
            if (report) {
                EXPECT_TRUE(checker.jps.update_cell(map, {x, y}));
            }
        }
        const GridPoint s = ref::random_free(rng, g), t = ref::random_free(rng, g);
        const double expected = ref::dijkstra(g, s.x, s.y)[std::size_t(t.y) * g.width + t.x];
        checker.query(g, map, s, t, expected, "changed map round " + std::to_string(round));
        if (HasFatalFailure()) return;
    }
    EXPECT_EQ(checker.jps.sync_count(), syncs + 20);  // only the unreported rounds resynchronised
    EXPECT_EQ(checker.jps.map_version(), map.version());
    // A map object the snapshot was not taken from is never confused with it.
    const GridMap copy = map;
    EXPECT_FALSE(checker.jps.update_cell(copy, {0, 0}));
    GridPath path;
    (void)checker.jps.find_path(copy, ref::random_free(rng, g), ref::random_free(rng, g), {}, path);
    EXPECT_EQ(checker.jps.sync_count(), syncs + 21);
}

namespace {
void expect_tables_equal(const JumpTable& a, const JumpTable& b, const std::string& what) {
    ASSERT_EQ(a.width(), b.width());
    ASSERT_EQ(a.height(), b.height());
    int mismatches = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x)
            for (int d = 0; d < 8; ++d) {
                const auto dir = static_cast<JumpDirection>(d);
                if (a.entry({x, y}, dir) != b.entry({x, y}, dir) && ++mismatches <= 5)
                    ADD_FAILURE() << what << ": entry (" << x << "," << y << ") dir " << d << " is " << a.entry({x, y}, dir)
                                  << ", fresh build has " << b.entry({x, y}, dir);
            }
    EXPECT_EQ(mismatches, 0) << what;
}
}  // namespace

TEST(JpsPlus, TableEntriesFollowTheirDefinition) {
    // A hand-made map: row 1 has a wall end at x = 3 so (4, 2) is an eastward jump point of row 2.
    //   x: 0123456789
    //   0  ..........
    //   1  ...@@@@@@.
    //   2  ..........
    //   3  .....@....
    ref::Grid g{10, 4, std::vector<char>(40, 1)};
    for (int x = 3; x <= 8; ++x) g.set(x, 1, false);
    g.set(5, 3, false);
    const GridMap map = ref::to_map(g);
    JumpTable table;
    ASSERT_EQ(table.build(map), JpsSupport::Ok);
    // Row 2 eastward: moving east, (9, 2) has (9, 1) free after (8, 1) blocked -> jump point; (5, 2)'s
    // south neighbour (5, 3) is blocked, then (6, 3) free after (5, 3) blocked -> (6, 2) is a jump point.
    EXPECT_EQ(table.entry({0, 2}, JumpDirection::East), 6);
    EXPECT_EQ(table.entry({6, 2}, JumpDirection::East), 3);
    EXPECT_EQ(table.entry({9, 2}, JumpDirection::East), 0);   // wall next
    EXPECT_EQ(table.entry({7, 2}, JumpDirection::East), 2);
    // Row 0 eastward: (3, 0) follows (2, 1) free, (3, 1) blocked: no forced neighbour; (9, 0) has (9, 1)
    // free after (8, 1) blocked -> jump point 9 cells from (0, 0).
    EXPECT_EQ(table.entry({0, 0}, JumpDirection::East), 9);
    // Westward from (9, 2): (2, 2) has (2, 1) free after (3, 1) blocked -> jump point 7 away; (4, 2) has
    // (4, 3) free after (5, 3) blocked -> jump point 5 away, which comes first.
    EXPECT_EQ(table.entry({9, 2}, JumpDirection::West), 5);
    EXPECT_EQ(table.entry({3, 2}, JumpDirection::West), 1);
    EXPECT_EQ(table.entry({1, 2}, JumpDirection::West), -1);  // one free cell, then the border
    EXPECT_EQ(table.entry({0, 3}, JumpDirection::North), -3);
    EXPECT_EQ(table.entry({5, 3}, JumpDirection::North), 0);   // blocked cell
    EXPECT_EQ(table.entry({3, 2}, JumpDirection::North), 0);   // (3, 1) blocked
    // Diagonal: from (0, 3) north-east, (1, 2) has eastward jump point (4, 2) -> intermediate at 1 step.
    EXPECT_EQ(table.entry({0, 3}, JumpDirection::NorthEast), 1);
    EXPECT_EQ(table.entry({1, 2}, JumpDirection::NorthEast), 1);  // (2, 0) is a northward jump point of (2, 1)
    EXPECT_TRUE(table.passable({0, 0}));
    EXPECT_FALSE(table.passable({4, 1}));
    EXPECT_FALSE(table.passable({10, 1}));
    EXPECT_EQ(table.entry({10, 1}, JumpDirection::East), 0);
}

TEST(JpsPlus, UpdatesEqualAFreshBuildAndTheReference) {
    std::mt19937 rng(4711);
    for (int variant = 0; variant < 3; ++variant) {
        ref::Grid g = variant == 0   ? ref::random_grid(rng, 70, 50, 0.2)
                      : variant == 1 ? ref::room_grid(rng, 96, 64, 30, 0.03)
                                     : ref::random_grid(rng, 130, 20, 0.35);
        GridMap map = ref::to_map(g);
        Checker checker;
        ASSERT_EQ(checker.plus.build(map), JpsSupport::Ok);
        std::size_t rewritten = 0;
        for (int round = 0; round < 120; ++round) {
            const int x = int(rng() % g.width), y = int(rng() % g.height);
            g.set(x, y, !g.free(x, y));
            map.set_passable({x, y}, g.free(x, y));
            rewritten += checker.plus.update_cell(map, {x, y});
            EXPECT_TRUE(checker.plus.table().in_sync(map));
            if (round % 4 == 0) {
                JumpTable fresh;
                ASSERT_EQ(fresh.build(map), JpsSupport::Ok);
                expect_tables_equal(checker.plus.table(), fresh, "variant " + std::to_string(variant) + " round " + std::to_string(round));
                if (HasFailure()) return;
            }
            if (g.free(x, y) || round % 2 == 0) {
                const GridPoint s = ref::random_free(rng, g);
                const auto dist = ref::dijkstra(g, s.x, s.y);
                for (int k = 0; k < 3; ++k) {
                    const GridPoint t = ref::random_free(rng, g);
                    checker.query(g, map, s, t, dist[std::size_t(t.y) * g.width + t.x], "after update " + std::to_string(round));
                }
                if (HasFatalFailure()) return;
            }
        }
        EXPECT_EQ(checker.plus.rebuild_count(), 0u) << "every change was reported, no rebuild needed";
        EXPECT_GT(rewritten, 120u);
        // An unreported change makes the table stale: the next query rebuilds it.
        const GridPoint p = ref::random_free(rng, g);
        g.set(p.x, p.y, false);
        map.set_passable(p, false);
        EXPECT_FALSE(checker.plus.table().in_sync(map));
        const GridPoint s = ref::random_free(rng, g), t = ref::random_free(rng, g);
        checker.query(g, map, s, t, ref::dijkstra(g, s.x, s.y)[std::size_t(t.y) * g.width + t.x], "unreported change");
        EXPECT_EQ(checker.plus.rebuild_count(), 1u);
    }
}

TEST(JpsPlus, ChangesDuringASlicedSearchAreSafeAndDetectable) {
    std::mt19937 rng(12);
    ref::Grid g = ref::room_grid(rng, 100, 100, 40, 0.02);
    GridMap map = ref::to_map(g);
    JpsPlusPathfinder plus;
    JpsPathfinder jps;
    ASSERT_EQ(plus.build(map), JpsSupport::Ok);
    jps.sync(map);
    GridPath path;
    int restarted = 0;
    for (int q = 0; q < 40; ++q) {
        const GridPoint s = ref::random_free(rng, g), t = ref::random_free(rng, g);
        ASSERT_EQ(plus.begin(map, s, t), Status::InProgress);
        ASSERT_EQ(jps.begin(map, s, t), Status::InProgress);
        (void)plus.step(2);
        (void)jps.step(2);
        const GridPoint c = ref::random_free(rng, g);
        if (c != s && c != t) {
            g.set(c.x, c.y, false);
            map.set_passable(c, false);
            (void)plus.update_cell(map, c);
            (void)jps.update_cell(map, c);
        }
        Status a = plus.step(), b = jps.step();
        EXPECT_NE(a, Status::InProgress);
        EXPECT_NE(b, Status::InProgress);
        (void)plus.finish(path);
        (void)jps.finish(path);
        // The caller notices the change through the version and restarts; the restart is exact.
        if (plus.table().map_version() != map.version()) continue;
        ++restarted;
        const double expected = ref::dijkstra(g, s.x, s.y)[std::size_t(t.y) * g.width + t.x];
        a = plus.find_path(map, s, t, {}, path);
        if (expected == kInf) {
            EXPECT_EQ(a, Status::NoPath);
        } else {
            ASSERT_EQ(a, Status::Found);
            EXPECT_TRUE(near(path.cost, expected));
            EXPECT_EQ(ref::check_path(g, path.cells, s, t, path.cost), "");
        }
    }
    EXPECT_GT(restarted, 30);
}

TEST(JpsPlus, SharedTableServesSeveralPathfinders) {
    std::mt19937 rng(8);
    const ref::Grid g = ref::room_grid(rng, 80, 60, 20, 0.05);
    const GridMap map = ref::to_map(g);
    JumpTable table;
    ASSERT_EQ(table.build(map), JpsSupport::Ok);
    EXPECT_TRUE(table.in_sync(map));
    EXPECT_GT(table.memory_bytes(), 16u * 80 * 60);
    JpsPlusPathfinder a, b;
    GridPath pa, pb;
    for (int q = 0; q < 30; ++q) {
        const GridPoint s = ref::random_free(rng, g), t = ref::random_free(rng, g);
        ASSERT_EQ(a.begin(table, s, t), Status::InProgress);
        ASSERT_EQ(b.begin(table, s, t), Status::InProgress);
        (void)a.step();
        (void)b.step();
        EXPECT_EQ(a.finish(pa), b.finish(pb));
        EXPECT_EQ(pa.cells, pb.cells);
        const double expected = ref::dijkstra(g, s.x, s.y)[std::size_t(t.y) * g.width + t.x];
        if (expected != kInf) {
            EXPECT_TRUE(near(pa.cost, expected));
        }
    }
    JumpTable unbuilt;
    EXPECT_EQ(a.begin(unbuilt, {0, 0}, {1, 1}), Status::InvalidQuery);
    EXPECT_EQ(a.begin(table, {-1, 0}, {1, 1}), Status::InvalidQuery);
}

// ---- memory budget ------------------------------------------------------------------------------------

namespace {

// One query with `options` on a pathfinder of either kind, sliced: begin, steps of 7, finish. JPS+ searches
// the shared `table` (its memory is not the query's).
template <class Finder>
Status budget_query(Finder& finder, const GridMap& map, const JumpTable& table, GridPoint s, GridPoint t,
                    const GridSearchOptions& options, GridPath& out) {
    Status status;
    if constexpr (std::is_same_v<Finder, JpsPlusPathfinder>) {
        (void)map;
        status = finder.begin(table, s, t, options);
    } else {
        (void)table;
        status = finder.begin(map, s, t, options);
    }
    while (status == Status::InProgress) status = finder.step(7);
    EXPECT_EQ(finder.status(), status);
    return finder.finish(out);
}

// The memory budget caps what the pathfinder holds (memory_bytes(): the search state, not the snapshot or
// table), and budget_limit() says which limit ended a search.
template <class Finder>
void check_memory_budget() {
    std::mt19937 rng(17);
    const ref::Grid g = ref::room_grid(rng, 160, 120, 50, 0.08);
    const GridMap map = ref::to_map(g);
    JumpTable table;
    ASSERT_EQ(table.build(map), JpsSupport::Ok);
    const std::size_t per_cell_arrays = std::size_t{map.node_bound()} * 20;  // 16 bytes of state, 4 of heap position
    GridPath path;
    int queries = 0, stopped = 0, grown_stops = 0;
    for (int attempt = 0; attempt < 400 && queries < 4; ++attempt) {
        const GridPoint s = ref::random_free(rng, g), t = ref::random_free(rng, g);
        // The reference: a fresh pathfinder without a limit, and what it holds afterwards.
        Finder unlimited;
        if (budget_query(unlimited, map, table, s, t, {}, path) != Status::Found || unlimited.stats().expanded < 40) continue;
        ++queries;
        EXPECT_EQ(unlimited.budget_limit(), search::BudgetLimit::None);
        const double cost = path.cost;
        const std::size_t need = unlimited.memory_bytes();
        ASSERT_GT(need, per_cell_arrays) << "the open list is counted";
        SCOPED_TRACE("query " + std::to_string(queries) + ", needs " + std::to_string(need) + " bytes");

        // (a) below what the query needs: stopped with Memory, nothing held past the budget, no path.
        for (const std::size_t limit : {std::size_t{0}, per_cell_arrays - 1, need - 1}) {
            Finder fresh;
            GridSearchOptions options;
            options.budget.max_memory_bytes = limit;
            EXPECT_EQ(budget_query(fresh, map, table, s, t, options, path), Status::BudgetExhausted) << limit;
            EXPECT_EQ(fresh.budget_limit(), search::BudgetLimit::Memory);
            EXPECT_LE(fresh.memory_bytes(), limit);
            if (limit < per_cell_arrays) {
                EXPECT_EQ(fresh.memory_bytes(), 0u) << "allocated arrays the budget cannot hold";
            }
            EXPECT_TRUE(path.cells.empty());
            EXPECT_EQ(path.cost, kInf);
            EXPECT_EQ(fresh.cost(), kInf);
        }
        // (b) exactly what an unlimited run held: the same query goes through, and holds no more.
        {
            Finder fresh;
            GridSearchOptions options;
            options.budget.max_memory_bytes = need;
            EXPECT_EQ(budget_query(fresh, map, table, s, t, options, path), Status::Found);
            EXPECT_EQ(fresh.budget_limit(), search::BudgetLimit::None);
            EXPECT_EQ(path.cost, cost);
            EXPECT_LE(fresh.memory_bytes(), need);
        }
        // (c) a pathfinder that holds more than the budget stops at once, even for a query it needs no
        // more for; at what it holds the query goes through without growing.
        {
            GridSearchOptions options;
            options.budget.max_memory_bytes = need - 1;
            EXPECT_EQ(budget_query(unlimited, map, table, s, t, options, path), Status::BudgetExhausted);
            EXPECT_EQ(unlimited.budget_limit(), search::BudgetLimit::Memory);
            EXPECT_EQ(unlimited.stats().expanded, 0u);
            EXPECT_EQ(unlimited.memory_bytes(), need);
            EXPECT_TRUE(path.cells.empty());
            options.budget.max_memory_bytes = need;
            EXPECT_EQ(budget_query(unlimited, map, table, s, t, options, path), Status::Found);
            EXPECT_EQ(path.cost, cost);
            EXPECT_EQ(unlimited.memory_bytes(), need);
        }
        // (e) sweeps of budgets, over the whole and over the open list's part (what grows during the
        // search): never more held than allowed; stopped with Memory, or the same answer.
        std::vector<std::size_t> limits;
        for (std::size_t limit = per_cell_arrays / 2; limit < 2 * need; limit = limit * 5 / 4 + 1) limits.push_back(limit);
        for (std::size_t open = 16; open < 2 * (need - per_cell_arrays); open = open * 5 / 4 + 1)
            limits.push_back(per_cell_arrays + open);
        for (const std::size_t limit : limits) {
            SCOPED_TRACE("limit " + std::to_string(limit));
            Finder fresh;
            GridSearchOptions options;
            options.budget.max_memory_bytes = limit;
            const Status status = budget_query(fresh, map, table, s, t, options, path);
            EXPECT_LE(fresh.memory_bytes(), limit) << "the pathfinder grew past its budget";
            if (status == Status::BudgetExhausted) {
                ++stopped;
                EXPECT_EQ(fresh.budget_limit(), search::BudgetLimit::Memory);
                if (limit >= per_cell_arrays + 64) {
                    ++grown_stops;
                    EXPECT_GT(fresh.stats().expanded, 0u) << "stopped while the open list grew";
                }
                EXPECT_TRUE(path.cells.empty());
                continue;
            }
            ASSERT_EQ(status, Status::Found);
            EXPECT_EQ(fresh.budget_limit(), search::BudgetLimit::None);
            EXPECT_EQ(path.cost, cost);
        }
    }
    EXPECT_EQ(queries, 4);
    EXPECT_GT(stopped, 4 * 3);
    EXPECT_GT(grown_stops, 0);

    // The storage held from a query on a larger map counts in a query on a smaller one.
    const ref::Grid small_grid = ref::room_grid(rng, 20, 20, 0, 0.0);
    const GridMap small = ref::to_map(small_grid);
    JumpTable small_table;
    ASSERT_EQ(small_table.build(small), JpsSupport::Ok);
    Finder big;
    ASSERT_NE(budget_query(big, map, table, ref::random_free(rng, g), ref::random_free(rng, g), {}, path), Status::InvalidQuery);
    const std::size_t held = big.memory_bytes();
    GridSearchOptions options;
    options.budget.max_memory_bytes = held - 1;
    EXPECT_EQ(budget_query(big, small, small_table, {1, 1}, {15, 12}, options, path), Status::BudgetExhausted);
    EXPECT_EQ(big.budget_limit(), search::BudgetLimit::Memory);
    EXPECT_EQ(big.memory_bytes(), held);
    Finder fresh;
    EXPECT_EQ(budget_query(fresh, small, small_table, {1, 1}, {15, 12}, options, path), Status::Found);
    EXPECT_LE(fresh.memory_bytes(), held - 1);
}

// budget_limit() names the limit that ended the search; None otherwise, and after every begin.
template <class Finder>
void check_budget_limits() {
    std::mt19937 rng(23);
    const ref::Grid g = ref::room_grid(rng, 120, 90, 40, 0.05);
    const GridMap map = ref::to_map(g);
    JumpTable table;
    ASSERT_EQ(table.build(map), JpsSupport::Ok);
    Finder finder;
    GridPath path;
    int checked = 0;
    for (int attempt = 0; attempt < 200 && checked < 3; ++attempt) {
        const GridPoint s = ref::random_free(rng, g), t = ref::random_free(rng, g);
        if (budget_query(finder, map, table, s, t, {}, path) != Status::Found || finder.stats().expanded < 3) continue;
        ++checked;
        EXPECT_EQ(finder.budget_limit(), search::BudgetLimit::None);
        GridSearchOptions options;
        options.budget.max_expansions = 1;
        EXPECT_EQ(budget_query(finder, map, table, s, t, options, path), Status::BudgetExhausted);
        EXPECT_EQ(finder.budget_limit(), search::BudgetLimit::Expansions);
        options = {};
        options.budget.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
        EXPECT_EQ(budget_query(finder, map, table, s, t, options, path), Status::BudgetExhausted);
        EXPECT_EQ(finder.budget_limit(), search::BudgetLimit::Time);
        // A new search forgets it: in progress, then found.
        if constexpr (std::is_same_v<Finder, JpsPlusPathfinder>) {
            ASSERT_EQ(finder.begin(table, s, t), Status::InProgress);
        } else {
            ASSERT_EQ(finder.begin(map, s, t), Status::InProgress);
        }
        EXPECT_EQ(finder.budget_limit(), search::BudgetLimit::None);
        EXPECT_EQ(finder.step(), Status::Found);
        EXPECT_EQ(finder.budget_limit(), search::BudgetLimit::None);
        options = {};
        options.budget.max_memory_bytes = 0;
        EXPECT_EQ(budget_query(finder, map, table, s, t, options, path), Status::BudgetExhausted);
        EXPECT_EQ(finder.budget_limit(), search::BudgetLimit::Memory);
        // An invalid query is not a budget stop.
        EXPECT_EQ(budget_query(finder, map, table, {-1, 0}, t, {}, path), Status::InvalidQuery);
        EXPECT_EQ(finder.budget_limit(), search::BudgetLimit::None);
    }
    EXPECT_EQ(checked, 3);
}

}  // namespace

TEST(Jps, MemoryBudgetCapsTheSearchState) { check_memory_budget<JpsPathfinder>(); }
TEST(JpsPlus, MemoryBudgetCapsTheSearchState) { check_memory_budget<JpsPlusPathfinder>(); }
TEST(Jps, BudgetLimitSaysWhichLimitEndedTheSearch) { check_budget_limits<JpsPathfinder>(); }
TEST(JpsPlus, BudgetLimitSaysWhichLimitEndedTheSearch) { check_budget_limits<JpsPlusPathfinder>(); }

TEST(Jps, MemoryBytesIsTheSearchStateAndNotTheSnapshot) {
    std::mt19937 rng(29);
    const ref::Grid g = ref::room_grid(rng, 100, 80, 20, 0.05);
    const GridMap map = ref::to_map(g);
    JpsPathfinder jps;
    jps.sync(map, 256);
    EXPECT_GT(jps.snapshot_bytes(), std::size_t{map.node_bound()});
    EXPECT_EQ(jps.memory_bytes(), std::size_t{map.node_bound()} * 20 + 256 * 24);
    JpsPlusPathfinder plus;
    ASSERT_EQ(plus.build(map, 256), JpsSupport::Ok);
    EXPECT_EQ(plus.memory_bytes(), std::size_t{map.node_bound()} * 20 + 256 * 24);
    EXPECT_GT(plus.table().memory_bytes(), 16u * map.node_bound());
}

// ---- shared MovingAI scenarios of the small maps --------------------------------------------------


TEST(JpsScenarios, SmallSharedMapsAreExactlyOptimal) {
    GAMEPLAN_REQUIRE_BENCHMARK_DATA();
    for (const char* name : {"arena", "den312d", "lak303d"})
        for (const auto& m : ref::kSharedMaps)
            if (std::string(m.name) == name) ref::check_shared_map(m, true);
}

// The full shared set is in jps_long_test.cpp (label `long`).
