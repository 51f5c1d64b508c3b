// Islands against an independent BFS labelling (scale_support.hpp), for every movement rule, on random
// maps and under random sequences of cell changes; the GridPathfinder precheck; dead-end analysis.
#include <gameplan/path/dead_ends.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/islands.hpp>
#include <gameplan/path/jps.hpp>
#include <gameplan/path/jps_plus.hpp>
#include <gameplan/path/subgoal.hpp>

#include "scale_support.hpp"

#include <map>
#include <random>
#include <string>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;
using gameplan::test::RefDiagonal;
using gameplan::test::RefGrid;
using gameplan::test::ScaleRule;

namespace {

GridSearchOptions rules(Movement movement, DiagonalRule diagonal) {
    GridSearchOptions options;
    options.movement = movement;
    options.diagonal = diagonal;
    return options;
}

/// Islands equal the reference partition: same count, and a bijection between component numbers and
/// island ids. `exact` false checks only soundness: cells in different components never share an
/// island... the reverse (coarser labels) is what a pending split allows.
::testing::AssertionResult same_partition(const RefGrid& g, RefDiagonal rule, const Islands& islands, bool exact = true) {
    int count = 0;
    const std::vector<int> ref = gameplan::test::ref_components(g, rule, &count);
    std::map<int, std::uint32_t> ref_to_island;
    std::map<std::uint32_t, int> island_to_ref;
    for (int y = 0; y < g.height; ++y)
        for (int x = 0; x < g.width; ++x) {
            const int c = ref[std::size_t(y) * g.width + x];
            const std::uint32_t id = islands.island({x, y});
            if (c < 0) {
                if (id != Islands::kNoIsland)
                    return ::testing::AssertionFailure() << "blocked cell (" << x << "," << y << ") has island " << id;
                continue;
            }
            if (id == Islands::kNoIsland)
                return ::testing::AssertionFailure() << "passable cell (" << x << "," << y << ") has no island";
            const auto [it, fresh] = ref_to_island.emplace(c, id);
            if (it->second != id)
                return ::testing::AssertionFailure() << "one component split over islands " << it->second << " and " << id
                                                     << " at (" << x << "," << y << ")";
            if (exact) {
                const auto [jt, fresh2] = island_to_ref.emplace(id, c);
                if (jt->second != c)
                    return ::testing::AssertionFailure() << "island " << id << " joins components " << jt->second << " and "
                                                         << c << " at (" << x << "," << y << ")";
            }
        }
    if (exact && islands.island_count() != std::size_t(count))
        return ::testing::AssertionFailure() << "island_count " << islands.island_count() << ", reference " << count;
    if (exact) {
        for (const auto& [c, id] : ref_to_island) {
            std::size_t cells = 0;
            for (int v : ref) cells += v == c;
            if (islands.island_size(id) != cells)
                return ::testing::AssertionFailure() << "island " << id << " size " << islands.island_size(id) << ", reference " << cells;
        }
    }
    return ::testing::AssertionSuccess();
}

}  // namespace

TEST(Islands, RandomMapsMatchReferenceComponents) {
    std::mt19937 rng(2024);
    int maps = 0;
    for (double density : {0.0, 0.2, 0.35, 0.45, 0.55, 0.7})
        for (int round = 0; round < 4; ++round) {
            const RefGrid g = gameplan::test::ref_random_grid(rng, 3 + int(rng() % 40), 3 + int(rng() % 30), density, false);
            const GridMap map = gameplan::test::to_grid_map(g);
            for (const ScaleRule& rule : gameplan::test::kScaleRules) {
                SCOPED_TRACE(std::string(rule.name) + " density " + std::to_string(density));
                Islands islands;
                islands.build(map, gameplan::test::options_for(rule));
                EXPECT_TRUE(islands.current(map));
                EXPECT_TRUE(islands.exact());
                EXPECT_TRUE(same_partition(g, rule.ref, islands));
                ++maps;
            }
        }
    EXPECT_EQ(maps, 6 * 4 * 4);
}

TEST(Islands, DiagonalConnectivityFollowsTheRule) {
    // .@
    // @.   two cells touching only at a corner, both sides blocked
    RefGrid g{2, 2, {1, 0, 0, 1}};
    const GridMap map = gameplan::test::to_grid_map(g);
    const std::pair<DiagonalRule, bool> cases[] = {{DiagonalRule::Never, false},
                                                   {DiagonalRule::NoCornerCutting, false},
                                                   {DiagonalRule::OneObstacle, false},
                                                   {DiagonalRule::Always, true}};
    for (const auto& [rule, joined] : cases) {
        Islands islands;
        islands.build(map, rules(Movement::Eight, rule));
        EXPECT_EQ(islands.island_count(), joined ? 1u : 2u) << to_string(rule);
        EXPECT_EQ(islands.connectivity({0, 0}, {1, 1}), joined ? Reachability::Reachable : Reachability::Unreachable);
    }
    // ..
    // @.   one side free: joined by the diagonal under one-obstacle and always, and by the free side
    //      anyway under every rule.
    RefGrid h{2, 2, {1, 1, 0, 1}};
    const GridMap map2 = gameplan::test::to_grid_map(h);
    Islands islands;
    islands.build(map2, rules(Movement::Four, DiagonalRule::NoCornerCutting));
    EXPECT_EQ(islands.island_count(), 1u);
    // A 4-connected map ignores the diagonal rule.
    islands.build(map, rules(Movement::Four, DiagonalRule::Always));
    EXPECT_EQ(islands.rule(), DiagonalRule::Never);
    EXPECT_EQ(islands.island_count(), 2u);
}

TEST(Islands, BlockedAndOffMapPoints) {
    RefGrid g{3, 1, {1, 0, 1}};
    const GridMap map = gameplan::test::to_grid_map(g);
    Islands islands;
    EXPECT_FALSE(islands.built());
    EXPECT_EQ(islands.island({0, 0}), Islands::kNoIsland);
    islands.build(map);
    EXPECT_EQ(islands.island({1, 0}), Islands::kNoIsland);
    EXPECT_EQ(islands.island({-1, 0}), Islands::kNoIsland);
    EXPECT_EQ(islands.island({3, 0}), Islands::kNoIsland);
    EXPECT_EQ(islands.connectivity({0, 0}, {1, 0}), Reachability::Unreachable);
    EXPECT_EQ(islands.connectivity({0, 0}, {2, 0}), Reachability::Unreachable);
    EXPECT_EQ(islands.connectivity({0, 0}, {0, 0}), Reachability::Reachable);
    EXPECT_EQ(islands.island_size(islands.island({0, 0})), 1u);
    EXPECT_EQ(islands.island_size(12345), 0u);
}

namespace {

/// Random toggles of cells through Islands::set_passable, comparing with the reference after each one
/// (Eager) or after each refresh (Lazy, with soundness checked in between).
void check_incremental(IslandUpdate policy, unsigned seed) {
    std::mt19937 rng(seed);
    int changes = 0, splits_seen = 0;
    for (const ScaleRule& rule : gameplan::test::kScaleRules) {
        for (double density : {0.3, 0.45, 0.6}) {
            RefGrid g = gameplan::test::ref_random_grid(rng, 8 + int(rng() % 20), 8 + int(rng() % 20), density, false);
            GridMap map = gameplan::test::to_grid_map(g);
            Islands islands;
            islands.build(map, gameplan::test::options_for(rule), policy);
            for (int step = 0; step < 150; ++step) {
                const int x = int(rng() % unsigned(g.width)), y = int(rng() % unsigned(g.height));
                const bool passable = !g.free(x, y);
                g.cost[std::size_t(y) * g.width + x] = passable ? 1 : 0;
                ASSERT_TRUE(islands.set_passable(map, {x, y}, passable));
                ++changes;
                SCOPED_TRACE(std::string(rule.name) + " step " + std::to_string(step) + " toggled (" + std::to_string(x) + "," +
                             std::to_string(y) + ") to " + (passable ? "passable" : "blocked"));
                ASSERT_TRUE(islands.current(map));
                if (policy == IslandUpdate::Eager) {
                    ASSERT_TRUE(islands.exact());
                    ASSERT_TRUE(same_partition(g, rule.ref, islands));
                } else {
                    ASSERT_TRUE(same_partition(g, rule.ref, islands, false));  // coarser, never wrong
                    if (step % 7 == 6) {
                        islands.refresh();
                        ASSERT_TRUE(islands.exact());
                        ASSERT_TRUE(same_partition(g, rule.ref, islands));
                    }
                }
                // A cost-only change and a repeated notification change nothing.
                map.set_cost({x, y}, 3);
                EXPECT_TRUE(islands.current(map));
                ASSERT_TRUE(islands.cell_changed(map, {x, y}));
                EXPECT_TRUE(islands.current(map));
                map.set_cost({x, y}, 1);
                ASSERT_TRUE(islands.cell_changed(map, {x, y}));
            }
            islands.update(map);
            EXPECT_TRUE(same_partition(g, rule.ref, islands));
            splits_seen += int(islands.stats().splits);
        }
    }
    EXPECT_EQ(changes, 4 * 3 * 150);
    EXPECT_GT(splits_seen, 10) << "the random toggles should split some islands";
}

}  // namespace

TEST(Islands, EagerUpdatesStayExact) { check_incremental(IslandUpdate::Eager, 11); }

TEST(Islands, LazyUpdatesStaySoundAndRefreshExactly) { check_incremental(IslandUpdate::Lazy, 12); }

TEST(Islands, SplitsAndMergesOfACorridor) {
    // A 1-wide corridor of 9 cells; blocking the middle splits it, re-opening joins it.
    RefGrid g{9, 1, std::vector<int>(9, 1)};
    GridMap map = gameplan::test::to_grid_map(g);
    for (IslandUpdate policy : {IslandUpdate::Eager, IslandUpdate::Lazy}) {
        Islands islands;
        islands.build(map, rules(Movement::Eight, DiagonalRule::NoCornerCutting), policy);
        EXPECT_EQ(islands.island_count(), 1u);
        ASSERT_TRUE(islands.set_passable(map, {4, 0}, false));
        if (policy == IslandUpdate::Lazy) {
            EXPECT_FALSE(islands.exact());
            EXPECT_EQ(islands.connectivity({0, 0}, {8, 0}), Reachability::Unknown);
            EXPECT_EQ(islands.stats().deferred, 1u);
            islands.refresh();
        } else {
            EXPECT_EQ(islands.stats().split_searches, 1u);
        }
        EXPECT_TRUE(islands.exact());
        EXPECT_EQ(islands.island_count(), 2u);
        EXPECT_EQ(islands.connectivity({0, 0}, {8, 0}), Reachability::Unreachable);
        EXPECT_EQ(islands.connectivity({0, 0}, {3, 0}), Reachability::Reachable);
        EXPECT_EQ(islands.island_size(islands.island({0, 0})), 4u);
        ASSERT_TRUE(islands.set_passable(map, {4, 0}, true));
        EXPECT_EQ(islands.island_count(), 1u);
        EXPECT_EQ(islands.connectivity({0, 0}, {8, 0}), Reachability::Reachable);
        EXPECT_EQ(islands.island_size(islands.island({8, 0})), 9u);
        // Blocking an end cell is settled locally (one neighbour).
        const auto local = islands.stats().blocked_local;
        ASSERT_TRUE(islands.set_passable(map, {0, 0}, false));
        EXPECT_EQ(islands.stats().blocked_local, local + 1);
        ASSERT_TRUE(islands.set_passable(map, {0, 0}, true));
    }
}

TEST(Islands, OpenAreaBlocksAreSettledLocally) {
    RefGrid g{20, 20, std::vector<int>(400, 1)};
    GridMap map = gameplan::test::to_grid_map(g);
    Islands islands;
    islands.build(map);
    for (int i = 2; i < 18; i += 3) ASSERT_TRUE(islands.set_passable(map, {i, i}, false));
    EXPECT_EQ(islands.stats().split_searches, 0u);
    EXPECT_EQ(islands.island_count(), 1u);
}

TEST(Islands, StaleOrForeignIslandsAreNeverUsed) {
    RefGrid g{5, 1, {1, 1, 0, 1, 1}};
    GridMap map = gameplan::test::to_grid_map(g);
    Islands islands;
    islands.build(map);
    EXPECT_TRUE(islands.proves_unreachable(map, rules(Movement::Eight, DiagonalRule::NoCornerCutting),
                                           std::vector<GridPoint>{{0, 0}}, std::vector<GridPoint>{{4, 0}}));
    EXPECT_EQ(islands.connectivity({0, 0}, {4, 0}), Reachability::Unreachable);
    // Opened behind the islands' back: no longer current, so no longer a proof.
    map.set_passable({2, 0}, true);
    EXPECT_FALSE(islands.current(map));
    // connectivity() sees the map's version too: a stale "unreachable" is never given.
    EXPECT_EQ(islands.connectivity({0, 0}, {4, 0}), Reachability::Unknown);
    EXPECT_EQ(islands.connectivity({0, 0}, {1, 0}), Reachability::Unknown);
    EXPECT_FALSE(islands.proves_unreachable(map, rules(Movement::Eight, DiagonalRule::NoCornerCutting),
                                            std::vector<GridPoint>{{0, 0}}, std::vector<GridPoint>{{4, 0}}));
    GridPathfinder finder;
    GridPath path;
    GridSearchOptions options;
    options.islands = &islands;
    EXPECT_EQ(finder.find_path(map, {0, 0}, {4, 0}, options, path), Status::Found);
    // A copy of the map is another map: not current for it.
    GridMap copy = map;
    islands.update(map);
    EXPECT_TRUE(islands.current(map));
    EXPECT_EQ(islands.connectivity({0, 0}, {4, 0}), Reachability::Reachable);
    EXPECT_FALSE(islands.current(copy));
    EXPECT_FALSE(islands.cell_changed(copy, {0, 0}));
    // Two cells changed through the map, reported one at a time: not current (no answer) until both are.
    map.set_passable({1, 0}, false);
    map.set_passable({3, 0}, false);
    ASSERT_TRUE(islands.cell_changed(map, {1, 0}));
    EXPECT_FALSE(islands.current(map));
    EXPECT_EQ(islands.connectivity({2, 0}, {4, 0}), Reachability::Unknown);
    ASSERT_TRUE(islands.cell_changed(map, {3, 0}));
    EXPECT_TRUE(islands.current(map));
    EXPECT_EQ(islands.connectivity({2, 0}, {4, 0}), Reachability::Unreachable);
    ASSERT_TRUE(islands.set_passable(map, {1, 0}, true) && islands.set_passable(map, {3, 0}, true));
    EXPECT_EQ(islands.connectivity({0, 0}, {4, 0}), Reachability::Reachable);
    // A reset to the same size changes every cell: reporting one cell afterwards must not leave the
    // others as they were (here: the blocked middle cell, now open).
    ASSERT_TRUE(islands.set_passable(map, {2, 0}, false));
    EXPECT_EQ(islands.connectivity({0, 0}, {3, 0}), Reachability::Unreachable);
    map.reset(5, 1);
    map.set_passable({4, 0}, false);
    EXPECT_TRUE(islands.cell_changed(map, {4, 0}));
    EXPECT_EQ(islands.connectivity({0, 0}, {3, 0}), Reachability::Reachable);
    EXPECT_EQ(islands.island_count(), 1u);
    // A reset to another size is noticed by cell_changed and rebuilds.
    map.reset(3, 3);
    EXPECT_TRUE(islands.cell_changed(map, {0, 0}));
    EXPECT_TRUE(islands.current(map));
    EXPECT_EQ(islands.island_count(), 1u);
    EXPECT_FALSE(islands.set_passable(map, {7, 7}, false));
}

TEST(Islands, TerrainCostChangesKeepThemCurrent) {
    // Islands depend on passability only: a cost change must not turn the precheck off (a game that
    // paints danger or traffic costs every frame would otherwise flood whole islands again, or pay a
    // rebuild per update()).
    RefGrid g{5, 1, {1, 1, 0, 1, 1}};
    GridMap map = gameplan::test::to_grid_map(g);
    Islands islands;
    islands.build(map);
    const std::uint64_t before = map.version();
    ASSERT_TRUE(map.set_cost({0, 0}, 7));
    EXPECT_NE(map.version(), before);  // caches of costs (HPA*, queues) still see the change
    EXPECT_TRUE(islands.current(map));
    EXPECT_EQ(islands.connectivity({0, 0}, {4, 0}), Reachability::Unreachable);
    GridPathfinder finder;
    GridPath path;
    GridSearchOptions options;
    options.islands = &islands;
    EXPECT_EQ(finder.find_path(map, {0, 0}, {4, 0}, options, path), Status::NoPath);
    EXPECT_EQ(finder.stats().expanded, 0u);
    islands.update(map);
    EXPECT_EQ(islands.stats().rebuilds, 1u);  // the build only
    // A passability change still makes them stale.
    map.set_passable({2, 0}, true);
    EXPECT_FALSE(islands.current(map));
    EXPECT_EQ(islands.connectivity({0, 0}, {4, 0}), Reachability::Unknown);
}

TEST(Islands, LabelCompactionKeepsAnswers) {
    // Toggling isolated cells creates a fresh label each time; compaction must rebuild transparently.
    RefGrid g{16, 16, std::vector<int>(256, 0)};
    GridMap map = gameplan::test::to_grid_map(g);
    Islands islands;
    islands.build(map);
    std::mt19937 rng(5);
    for (int i = 0; i < 5000; ++i) {
        const int x = int(rng() % 8) * 2, y = int(rng() % 8) * 2;  // never adjacent: always isolated
        const bool passable = !g.free(x, y);
        g.cost[std::size_t(y) * 16 + x] = passable ? 1 : 0;
        ASSERT_TRUE(islands.set_passable(map, {x, y}, passable));
    }
    EXPECT_GE(islands.stats().rebuilds, 2u);
    EXPECT_TRUE(same_partition(g, RefDiagonal::BothFree, islands));
}

// ---- the GridPathfinder precheck ----------------------------------------------------------------------

TEST(IslandsPrecheck, UnreachableQueriesExpandNothingAndReachableOnesAreUnchanged) {
    std::mt19937 rng(77);
    GridPathfinder finder;
    GridPath with, without;
    int unreachable = 0, reachable = 0;
    for (const ScaleRule& rule : gameplan::test::kScaleRules)
        for (int round = 0; round < 6; ++round) {
            const RefGrid g = gameplan::test::ref_random_grid(rng, 30, 30, 0.42, round % 2 == 1);
            const GridMap map = gameplan::test::to_grid_map(g);
            Islands islands;
            islands.build(map, gameplan::test::options_for(rule));
            GridSearchOptions plain = gameplan::test::options_for(rule);
            GridSearchOptions checked = plain;
            checked.islands = &islands;
            for (int q = 0; q < 40; ++q) {
                const auto [sx, sy] = gameplan::test::random_free(rng, g);
                const auto [tx, ty] = gameplan::test::random_free(rng, g);
                const double expect = gameplan::test::ref_dijkstra(g, {{sx, sy}}, rule.ref)[std::size_t(ty) * 30 + tx];
                const Status a = finder.find_path(map, {sx, sy}, {tx, ty}, checked, with);
                const auto expanded_with = finder.stats().expanded;
                const Status b = finder.find_path(map, {sx, sy}, {tx, ty}, plain, without);
                if (std::isinf(expect)) {
                    ASSERT_EQ(a, Status::NoPath);
                    EXPECT_EQ(expanded_with, 0u);
                    EXPECT_TRUE(with.cells.empty());
                    EXPECT_EQ(b, Status::NoPath);
                    ++unreachable;
                } else {
                    ASSERT_EQ(a, Status::Found);
                    EXPECT_EQ(with.cells, without.cells);
                    EXPECT_EQ(with.cost, without.cost);
                    EXPECT_NEAR(with.cost, expect, 1e-9 * expect);
                    ++reachable;
                }
            }
        }
    EXPECT_GT(unreachable, 50);
    EXPECT_GT(reachable, 50);
}

TEST(IslandsPrecheck, JpsJpsPlusAndSubgoalsTakeItToo) {
    // JPS, JPS+ and the subgoal graph take GridSearchOptions, so they must honour its islands as A* does.
    std::mt19937 rng(78);
    JpsPathfinder jps;
    JpsPlusPathfinder plus;
    SubgoalPathfinder subgoals;
    GridPath with, without;
    int unreachable = 0, reachable = 0;
    for (int round = 0; round < 8; ++round) {
        const RefGrid g = gameplan::test::ref_random_grid(rng, 30, 30, 0.42, false);
        const GridMap map = gameplan::test::to_grid_map(g);
        Islands islands;
        islands.build(map);
        GridSearchOptions checked;
        checked.islands = &islands;
        ASSERT_EQ(subgoals.build(map), JpsSupport::Ok);
        for (int q = 0; q < 30; ++q) {
            const auto [sx, sy] = gameplan::test::random_free(rng, g);
            const auto [tx, ty] = gameplan::test::random_free(rng, g);
            const GridPoint s{sx, sy}, t{tx, ty};  // clang 14 cannot capture structured bindings in a lambda
            const bool apart = islands.connectivity(s, t) == Reachability::Unreachable;
            for (const int which : {0, 1, 2}) {
                const auto run = [&](const GridSearchOptions& o, GridPath& out) {
                    if (which == 0) return jps.find_path(map, s, t, o, out);
                    if (which == 1) return plus.find_path(map, s, t, o, out);
                    return subgoals.find_path(map, s, t, o, out);
                };
                const Status a = run(checked, with);
                const std::uint64_t expanded =
                    which == 0 ? jps.stats().expanded : which == 1 ? plus.stats().expanded : subgoals.stats().expanded;
                const Status b = run(GridSearchOptions{}, without);
                EXPECT_EQ(a, b);
                if (apart) {
                    EXPECT_EQ(a, Status::NoPath);
                    EXPECT_EQ(expanded, 0u);
                    EXPECT_TRUE(with.cells.empty());
                } else {
                    ASSERT_EQ(a, Status::Found);
                    EXPECT_EQ(with.cost, without.cost);
                }
            }
            (apart ? unreachable : reachable) += 1;
        }
    }
    EXPECT_GT(unreachable, 30);
    EXPECT_GT(reachable, 30);
}

TEST(IslandsPrecheck, AppliesOnlyToRulesAtMostAsPermissive) {
    // .@.
    // @.@   diagonal-only connections: one island under Always, five under no-corner-cutting.
    // .@.
    RefGrid g{3, 3, {1, 0, 1, 0, 1, 0, 1, 0, 1}};
    const GridMap map = gameplan::test::to_grid_map(g);
    Islands strict, loose;
    strict.build(map, rules(Movement::Eight, DiagonalRule::NoCornerCutting));
    loose.build(map, rules(Movement::Eight, DiagonalRule::Always));
    EXPECT_EQ(strict.island_count(), 5u);
    EXPECT_EQ(loose.island_count(), 1u);
    GridPathfinder finder;
    GridPath path;
    GridSearchOptions always;
    always.diagonal = DiagonalRule::Always;
    // Strict islands must not be used for an Always query (they would wrongly say "no path").
    always.islands = &strict;
    EXPECT_FALSE(strict.applies_to(map, rules(Movement::Eight, DiagonalRule::Always)));
    EXPECT_EQ(finder.find_path(map, {0, 0}, {2, 2}, always, path), Status::Found);
    // Loose islands prove nothing here but are applicable to a stricter query.
    GridSearchOptions ncc;
    ncc.islands = &loose;
    EXPECT_TRUE(loose.applies_to(map, rules(Movement::Eight, DiagonalRule::NoCornerCutting)));
    EXPECT_TRUE(loose.applies_to(map, rules(Movement::Four, DiagonalRule::Always)));
    EXPECT_EQ(finder.find_path(map, {0, 0}, {2, 2}, ncc, path), Status::NoPath);
    EXPECT_GT(finder.stats().expanded, 0u);  // searched: the loose islands could not prove it
    ncc.islands = &strict;
    EXPECT_EQ(finder.find_path(map, {0, 0}, {2, 2}, ncc, path), Status::NoPath);
    EXPECT_EQ(finder.stats().expanded, 0u);
}

TEST(IslandsPrecheck, ManySourcesAndGoals) {
    // Three islands: columns 0-1, 3-4, 6-7 of an 8 x 4 map (columns 2 and 5 are walls).
    RefGrid g{8, 4, std::vector<int>(32, 1)};
    for (int y = 0; y < 4; ++y) g.cost[std::size_t(y) * 8 + 2] = g.cost[std::size_t(y) * 8 + 5] = 0;
    const GridMap map = gameplan::test::to_grid_map(g);
    Islands islands;
    islands.build(map);
    EXPECT_EQ(islands.island_count(), 3u);
    GridPathfinder finder;
    GridSearchOptions options;
    options.islands = &islands;
    const std::vector<GridPoint> sources{{0, 0}, {1, 3}};
    const std::vector<GridPoint> far_goals{{3, 0}, {7, 3}};
    const std::vector<GridPoint> one_near{{3, 0}, {7, 3}, {0, 2}};
    EXPECT_EQ(finder.begin(map, sources, far_goals, options), Status::NoPath);
    EXPECT_EQ(finder.begin(map, sources, one_near, options), Status::InProgress);
    EXPECT_EQ(finder.step(), Status::Found);
    EXPECT_EQ(finder.goal_reached(), (GridPoint{0, 2}));
    // A flood (no goal) is never cut short.
    EXPECT_EQ(finder.begin(map, sources, {}, options), Status::InProgress);
    // A blocked goal is still an invalid query, not "no path".
    EXPECT_EQ(finder.begin(map, sources, std::vector<GridPoint>{{2, 0}}, options), Status::InvalidQuery);
}

// ---- dead ends --------------------------------------------------------------------------------------

namespace {

/// Checks every region with the oracle's step rule: the cells of the region (all cells whose DFS key
/// lies in it) have exactly one passable neighbour outside the region, the choke.
::testing::AssertionResult regions_have_one_choke(const RefGrid& g, RefDiagonal rule, const GridMap& map,
                                                  const DeadEnds& dead) {
    std::map<std::uint32_t, std::vector<std::pair<int, int>>> members;  // region -> cells in it (nested)
    for (int y = 0; y < g.height; ++y)
        for (int x = 0; x < g.width; ++x) {
            if (!g.free(x, y)) continue;
            const std::uint32_t key = dead.key(map.index({x, y}));
            for (std::uint32_t r = 0; r < dead.region_count(); ++r)
                if (dead.region_contains(r, key)) members[r].emplace_back(x, y);
        }
    for (const auto& [r, cells] : members) {
        std::vector<char> inside(g.cost.size(), 0);
        for (auto [x, y] : cells) inside[std::size_t(y) * g.width + x] = 1;
        std::vector<std::pair<int, int>> chokes;
        for (auto [x, y] : cells)
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    if (!gameplan::test::ref_step_legal(g, x, y, dx, dy, rule)) continue;
                    if (inside[std::size_t(y + dy) * g.width + x + dx]) continue;
                    const std::pair<int, int> c{x + dx, y + dy};
                    if (std::find(chokes.begin(), chokes.end(), c) == chokes.end()) chokes.push_back(c);
                }
        if (chokes.size() != 1)
            return ::testing::AssertionFailure() << "region " << r << " of " << cells.size() << " cells has "
                                                 << chokes.size() << " neighbours outside";
    }
    return ::testing::AssertionSuccess();
}

/// A perfect maze (a tree of corridors) of (2n+1) x (2n+1) cells, by randomised depth-first carving.
RefGrid perfect_maze(std::mt19937& rng, int n) {
    const int side = 2 * n + 1;
    RefGrid g{side, side, std::vector<int>(std::size_t(side) * side, 0)};
    std::vector<std::pair<int, int>> stack{{0, 0}};
    std::vector<char> seen(std::size_t(n) * n, 0);
    seen[0] = 1;
    g.cost[std::size_t(1) * side + 1] = 1;
    while (!stack.empty()) {
        const auto [cx, cy] = stack.back();
        std::vector<std::pair<int, int>> next;
        for (auto [dx, dy] : {std::pair{1, 0}, std::pair{-1, 0}, std::pair{0, 1}, std::pair{0, -1}}) {
            const int nx = cx + dx, ny = cy + dy;
            if (nx >= 0 && ny >= 0 && nx < n && ny < n && !seen[std::size_t(ny) * n + nx]) next.emplace_back(nx, ny);
        }
        if (next.empty()) {
            stack.pop_back();
            continue;
        }
        const auto [nx, ny] = next[rng() % next.size()];
        seen[std::size_t(ny) * n + nx] = 1;
        g.cost[std::size_t(2 * ny + 1) * side + 2 * nx + 1] = 1;
        g.cost[std::size_t(cy + ny + 1) * side + cx + nx + 1] = 1;
        stack.emplace_back(nx, ny);
    }
    return g;
}

}  // namespace

TEST(DeadEnds, RegionsAreEnteredThroughOneChoke) {
    std::mt19937 rng(31);
    std::size_t regions = 0;
    for (const ScaleRule& rule : gameplan::test::kScaleRules)
        for (double density : {0.2, 0.4, 0.55}) {
            const RefGrid g = gameplan::test::ref_random_grid(rng, 14, 12, density, false);
            const GridMap map = gameplan::test::to_grid_map(g);
            DeadEnds dead;
            dead.build(map, gameplan::test::options_for(rule));
            EXPECT_TRUE(dead.current(map));
            EXPECT_TRUE(regions_have_one_choke(g, rule.ref, map, dead)) << rule.name << " density " << density;
            regions += dead.region_count();
        }
    EXPECT_GT(regions, 20u);
}

TEST(DeadEnds, PrunedSearchStaysOptimal) {
    std::mt19937 rng(32);
    GridPathfinder finder;
    GridPath path;
    std::uint64_t plain_expanded = 0, pruned_expanded = 0;
    for (const ScaleRule& rule : gameplan::test::kScaleRules)
        for (int round = 0; round < 6; ++round) {
            const RefGrid g = gameplan::test::ref_random_grid(rng, 40, 30, round < 3 ? 0.38 : 0.25, round % 2 == 0);
            const GridMap map = gameplan::test::to_grid_map(g);
            DeadEnds dead;
            dead.build(map, gameplan::test::options_for(rule));
            GridSearchOptions plain = gameplan::test::options_for(rule);
            GridSearchOptions pruned = plain;
            pruned.dead_ends = &dead;
            for (int q = 0; q < 30; ++q) {
                const auto [sx, sy] = gameplan::test::random_free(rng, g);
                const auto [tx, ty] = gameplan::test::random_free(rng, g);
                const double expect = gameplan::test::ref_dijkstra(g, {{sx, sy}}, rule.ref)[std::size_t(ty) * 40 + tx];
                const Status st = finder.find_path(map, {sx, sy}, {tx, ty}, pruned, path);
                pruned_expanded += finder.stats().expanded;
                if (std::isinf(expect)) {
                    EXPECT_EQ(st, Status::NoPath);
                } else {
                    ASSERT_EQ(st, Status::Found) << rule.name;
                    EXPECT_NEAR(path.cost, expect, 1e-9 * expect);
                    EXPECT_EQ(gameplan::test::ref_check_path(g, gameplan::test::pairs_of(path.cells), sx, sy, tx, ty, rule.ref,
                                                             path.cost),
                              "");
                }
                (void)finder.find_path(map, {sx, sy}, {tx, ty}, plain, path);
                plain_expanded += finder.stats().expanded;
            }
        }
    EXPECT_LT(pruned_expanded, plain_expanded);
}

TEST(DeadEnds, PerfectMazeExpandsOnlyTheRoute) {
    std::mt19937 rng(33);
    const RefGrid g = perfect_maze(rng, 40);
    const GridMap map = gameplan::test::to_grid_map(g);
    DeadEnds dead;
    dead.build(map);
    GridPathfinder finder;
    GridPath path;
    GridSearchOptions options;
    options.dead_ends = &dead;
    std::uint64_t plain = 0, pruned = 0, route = 0;
    for (int q = 0; q < 40; ++q) {
        const auto [sx, sy] = gameplan::test::random_free(rng, g);
        const auto [tx, ty] = gameplan::test::random_free(rng, g);
        ASSERT_EQ(finder.find_path(map, {sx, sy}, {tx, ty}, options, path), Status::Found);
        pruned += finder.stats().expanded;
        route += path.cells.size() - 1;
        const double cost = path.cost;
        ASSERT_EQ(finder.find_path(map, {sx, sy}, {tx, ty}, {}, path), Status::Found);
        EXPECT_EQ(cost, path.cost);
        plain += finder.stats().expanded;
    }
    // In a tree every cell off the route is in a dead end: only the route's cells are expanded, plus
    // at most the choke of the region holding both ends (a neighbour of the route kept for shortcuts).
    EXPECT_GE(pruned, route);
    EXPECT_LE(pruned, route + 40);
    EXPECT_GT(plain, 2 * pruned);
}

TEST(DeadEnds, TerrainCostChangesKeepThePruning) {
    // Dead ends depend on passability only: painting costs must not switch the pruning off.
    std::mt19937 rng(34);
    const RefGrid g = perfect_maze(rng, 30);
    GridMap map = gameplan::test::to_grid_map(g);
    DeadEnds dead;
    dead.build(map);
    const auto [sx, sy] = gameplan::test::random_free(rng, g);
    const auto [tx, ty] = gameplan::test::random_free(rng, g);
    (void)map.set_cost({sx, sy}, 5);
    EXPECT_TRUE(dead.current(map));
    GridPathfinder finder;
    GridPath path;
    GridSearchOptions options;
    options.dead_ends = &dead;
    ASSERT_EQ(finder.find_path(map, {sx, sy}, {tx, ty}, options, path), Status::Found);
    EXPECT_LE(finder.stats().expanded, path.cells.size() + 1);  // the route (and the choke) only
}

TEST(DeadEnds, StaleAnalysisIsIgnored) {
    RefGrid g{5, 3, {1, 1, 1, 1, 1,  //
                     0, 0, 1, 0, 0,  //
                     1, 1, 1, 1, 1}};
    GridMap map = gameplan::test::to_grid_map(g);
    DeadEnds dead;
    dead.build(map);
    EXPECT_TRUE(dead.applies_to(map, rules(Movement::Eight, DiagonalRule::NoCornerCutting)));
    EXPECT_TRUE(dead.applies_to(map, rules(Movement::Four, DiagonalRule::NoCornerCutting)));
    EXPECT_FALSE(dead.applies_to(map, rules(Movement::Eight, DiagonalRule::Always)));
    map.set_passable({0, 1}, true);  // a second way between the rows: the analysis is stale
    EXPECT_FALSE(dead.current(map));
    GridPathfinder finder;
    GridPath path;
    GridSearchOptions options;
    options.dead_ends = &dead;
    ASSERT_EQ(finder.find_path(map, {0, 0}, {0, 2}, options, path), Status::Found);
    EXPECT_DOUBLE_EQ(path.cost, 2.0);
}

TEST(DeadEnds, BothEndsInOneRegionKeepItsChoke) {
    // The U below row 1 hangs off the choke c = (3,1); the cell above c is the rest of the map.
    //   @@@.@@@
    //   ...c...
    //   .@@@@@.
    //   .......
    RefGrid g{7, 4, {0, 0, 0, 1, 0, 0, 0,  //
                     1, 1, 1, 1, 1, 1, 1,  //
                     1, 0, 0, 0, 0, 0, 1,  //
                     1, 1, 1, 1, 1, 1, 1}};
    const GridMap map = gameplan::test::to_grid_map(g);
    DeadEnds dead;
    dead.build(map);
    GridPathfinder finder;
    GridPath path;
    GridSearchOptions options;
    options.dead_ends = &dead;
    // Both ends in the U: the shortest route passes the choke, which must not be pruned.
    ASSERT_EQ(finder.find_path(map, {2, 1}, {4, 1}, options, path), Status::Found);
    EXPECT_DOUBLE_EQ(path.cost, 2.0);
    // s and the choke are expanded, then t is reached.
    EXPECT_EQ(finder.stats().expanded, 2u);
    ASSERT_EQ(finder.find_path(map, {0, 3}, {3, 0}, options, path), Status::Found);
    EXPECT_DOUBLE_EQ(path.cost, 6.0);  // up the left arm, along row 1, up through the choke
}
