// Subgoal graphs against an independent reference Dijkstra (jps_test_support.hpp, no library code):
// exact optimal costs and legal paths on random, room and open maps, the query corner cases, the
// resumable form, a shared graph, unsupported options, and the online-JPS fallback after a cell change.
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/subgoal.hpp>

#include "jps_test_support.hpp"

#include <chrono>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;
namespace ref = gameplan::test::jps;

namespace {

bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)); }

// Every query from `sources` random sources to every passable cell, checked against the reference.
void check_all_from(const ref::Grid& g, const GridMap& map, SubgoalPathfinder& sg, std::mt19937& rng, int sources,
                    const std::string& what) {
    GridPath path;
    int found = 0, unreachable = 0;
    for (int s = 0; s < sources; ++s) {
        const GridPoint start = ref::random_free(rng, g);
        const auto dist = ref::dijkstra(g, start.x, start.y);
        for (int y = 0; y < g.height; ++y)
            for (int x = 0; x < g.width; ++x) {
                if (!g.free(x, y)) continue;
                const GridPoint goal{x, y};
                const double expected = dist[std::size_t(y) * g.width + x];
                const Status st = sg.find_path(map, start, goal, {}, path);
                SCOPED_TRACE(what + " from (" + std::to_string(start.x) + "," + std::to_string(start.y) + ") to (" +
                             std::to_string(x) + "," + std::to_string(y) + ")");
                if (std::isinf(expected)) {
                    ASSERT_EQ(st, Status::NoPath);
                    EXPECT_TRUE(path.cells.empty());
                    ++unreachable;
                    continue;
                }
                ASSERT_EQ(st, Status::Found);
                ASSERT_TRUE(near(path.cost, expected)) << path.cost << " vs " << expected;
                ASSERT_TRUE(near(sg.cost(), expected));
                ASSERT_EQ(ref::check_path(g, path.cells, start, goal, path.cost), "");
                ++found;
            }
    }
    EXPECT_GT(found, 0) << what;
    (void)unreachable;
}

// `queries` random queries, each checked against the reference: cost, status and a legal path.
void check_random_queries(const ref::Grid& g, const GridMap& map, SubgoalPathfinder& sg, std::mt19937& rng, int queries) {
    GridPath path;
    for (int q = 0; q < queries; ++q) {
        const GridPoint s = ref::random_free(rng, g), t = ref::random_free(rng, g);
        const double expected = ref::dijkstra(g, s.x, s.y)[std::size_t(t.y) * g.width + t.x];
        const Status st = sg.find_path(map, s, t, {}, path);
        if (std::isinf(expected)) {
            EXPECT_EQ(st, Status::NoPath);
            continue;
        }
        ASSERT_EQ(st, Status::Found);
        EXPECT_TRUE(near(path.cost, expected)) << path.cost << " vs " << expected;
        EXPECT_EQ(ref::check_path(g, path.cells, s, t, path.cost), "");
    }
}

}  // namespace

TEST(Subgoal, RandomMapsAreExactlyOptimal) {
    std::mt19937 rng(11);
    for (int round = 0; round < 24; ++round) {
        const int w = 8 + int(rng() % 40), h = 8 + int(rng() % 40);
        const double density = 0.05 + 0.05 * (round % 8);
        const ref::Grid g = ref::random_grid(rng, w, h, density);
        const GridMap map = ref::to_map(g);
        SubgoalPathfinder sg;
        ASSERT_EQ(sg.build(map), JpsSupport::Ok);
        check_all_from(g, map, sg, rng, 3, "random " + std::to_string(round));
        EXPECT_EQ(sg.fallback_count(), 0u);
    }
}

TEST(Subgoal, RoomMapsAreExactlyOptimal) {
    std::mt19937 rng(5);
    for (int round = 0; round < 16; ++round) {
        const int w = 20 + int(rng() % 50), h = 20 + int(rng() % 50);
        const ref::Grid g = ref::room_grid(rng, w, h, 4 + round, round % 2 ? 0.02 : 0.0);
        const GridMap map = ref::to_map(g);
        SubgoalPathfinder sg;
        ASSERT_EQ(sg.build(map), JpsSupport::Ok);
        check_all_from(g, map, sg, rng, 3, "rooms " + std::to_string(round));
    }
}

// PathDetail::Waypoints expands (expand_waypoints, diagonal steps first) to a legal path of the reference
// cost, and PathDetail::CostOnly writes no cell and the reference cost: random and room maps, where many
// segments must go straight first.
TEST(Subgoal, WaypointsAndCostOnlyMatchTheReference) {
    std::mt19937 rng(17);
    GridPath path;
    std::vector<GridPoint> cells;
    for (int round = 0; round < 8; ++round) {
        const int w = 20 + int(rng() % 30), h = 20 + int(rng() % 30);
        const ref::Grid g = round % 2 ? ref::random_grid(rng, w, h, 0.1 + 0.05 * round)
                                      : ref::room_grid(rng, w, h, 4 + round, 0.02);
        const GridMap map = ref::to_map(g);
        SubgoalPathfinder sg;
        ASSERT_EQ(sg.build(map), JpsSupport::Ok);
        for (int s = 0; s < 3; ++s) {
            const GridPoint start = ref::random_free(rng, g);
            const auto dist = ref::dijkstra(g, start.x, start.y);
            for (int y = 0; y < g.height; ++y)
                for (int x = 0; x < g.width; ++x) {
                    const double expected = dist[std::size_t(y) * g.width + x];
                    if (!g.free(x, y) || std::isinf(expected)) continue;
                    const GridPoint goal{x, y};
                    SCOPED_TRACE("round " + std::to_string(round) + " from (" + std::to_string(start.x) + "," +
                                 std::to_string(start.y) + ") to (" + std::to_string(x) + "," + std::to_string(y) + ")");
                    GridSearchOptions options;
                    options.detail = PathDetail::Waypoints;
                    ASSERT_EQ(sg.find_path(map, start, goal, options, path), Status::Found);
                    ASSERT_TRUE(near(path.cost, expected)) << path.cost << " vs " << expected;
                    expand_waypoints(path.cells, cells);
                    ASSERT_EQ(ref::check_path(g, cells, start, goal, path.cost), "");
                    options.detail = PathDetail::CostOnly;
                    ASSERT_EQ(sg.find_path(map, start, goal, options, path), Status::Found);
                    ASSERT_TRUE(near(path.cost, expected)) << path.cost << " vs " << expected;
                    EXPECT_TRUE(path.cells.empty());
                }
        }
    }
    // A segment whose diagonal-first line is blocked: its waypoints carry the turning cell.
    ref::Grid g{6, 4, std::vector<char>(24, 1)};
    g.set(1, 1, false);
    const GridMap map = ref::to_map(g);
    SubgoalGraph graph;
    ASSERT_EQ(graph.build(map), JpsSupport::Ok);
    std::vector<GridPoint> waypoints{{0, 0}};
    ASSERT_TRUE(graph.refine_waypoints(graph.index({0, 0}), graph.index({3, 1}), waypoints));
    expand_waypoints(waypoints, cells);
    EXPECT_EQ(ref::check_path(g, cells, {0, 0}, {3, 1}, 2 + std::sqrt(2.0)), "");
    // Its cells, straight step first.
    std::vector<GridPoint> every{{0, 0}};
    ASSERT_TRUE(graph.refine(graph.index({0, 0}), graph.index({3, 1}), every));
    EXPECT_EQ(ref::check_path(g, every, {0, 0}, {3, 1}, 2 + std::sqrt(2.0)), "");
}

// The landmark distances are stored as floats; the query's landmark bounds stay lower bounds only if
// their rounding is within landmark_slack(): for every landmark and every two subgoals a and b the
// bound term |d(L, a) - d(L, b)| - slack must not exceed the reference distance d(a, b) (tight for
// every b on a shortest path from L to a, where plain float rounding alone exceeds it).
TEST(Subgoal, LandmarkBoundsAreAdmissible) {
    std::mt19937 rng(23);
    for (int round = 0; round < 3; ++round) {
        const ref::Grid g = round == 2 ? ref::room_grid(rng, 60, 60, 10, 0.02) : ref::random_grid(rng, 60, 60, 0.15 + 0.1 * round);
        const GridMap map = ref::to_map(g);
        SubgoalGraph graph;
        ASSERT_EQ(graph.build(map), JpsSupport::Ok);
        ASSERT_GT(graph.landmark_count(), 0);
        const double slack = graph.landmark_slack();
        int tight = 0;
        for (std::uint32_t a = 0; a < graph.subgoal_count(); ++a) {
            const GridPoint pa = graph.subgoal(a);
            const auto dist = ref::dijkstra(g, pa.x, pa.y);
            for (std::uint32_t b = 0; b < graph.subgoal_count(); ++b) {
                const GridPoint pb = graph.subgoal(b);
                const double d = dist[std::size_t(pb.y) * g.width + pb.x];
                for (int l = 0; l < graph.landmark_count(); ++l) {
                    const double la = graph.landmark_distances(a)[l], lb = graph.landmark_distances(b)[l];
                    if (std::isinf(la) || std::isinf(lb)) {
                        ASSERT_TRUE(std::isinf(d) || (std::isinf(la) && std::isinf(lb)));
                        continue;
                    }
                    ASSERT_LE(std::abs(la - lb) - slack, d) << "round " << round << " landmark " << l;
                    tight += std::abs(std::abs(la - lb) - d) < 1e-3 ? 1 : 0;
                }
            }
        }
        EXPECT_GT(tight, 0);  // the check above is met with equality somewhere: it can fail
    }
}

TEST(Subgoal, OpenMapAndSingleObstacles) {
    ref::Grid g{30, 20, std::vector<char>(600, 1)};
    GridMap map = ref::to_map(g);
    SubgoalPathfinder sg;
    ASSERT_EQ(sg.build(map), JpsSupport::Ok);
    EXPECT_EQ(sg.graph().subgoal_count(), 0u);
    std::mt19937 rng(2);
    check_all_from(g, map, sg, rng, 2, "open");
    g.set(10, 10, false);
    g.set(11, 12, false);
    g.set(20, 5, false);
    map = ref::to_map(g);
    ASSERT_EQ(sg.build(map), JpsSupport::Ok);
    EXPECT_GT(sg.graph().subgoal_count(), 0u);
    EXPECT_TRUE(sg.graph().is_subgoal({9, 9}));
    EXPECT_FALSE(sg.graph().is_subgoal({0, 0}));
    check_all_from(g, map, sg, rng, 4, "few obstacles");
}

TEST(Subgoal, CornerCases) {
    // Two rooms with no connection: right half walled off.
    ref::Grid g{12, 6, std::vector<char>(72, 1)};
    for (int y = 0; y < 6; ++y) g.set(6, y, false);
    g.set(2, 2, false);
    const GridMap map = ref::to_map(g);
    SubgoalPathfinder sg;
    ASSERT_EQ(sg.build(map), JpsSupport::Ok);
    GridPath path;
    // start == goal
    ASSERT_EQ(sg.find_path(map, {1, 1}, {1, 1}, {}, path), Status::Found);
    EXPECT_EQ(path.cost, 0.0);
    ASSERT_EQ(path.cells.size(), 1u);
    EXPECT_EQ(path.cells[0], (GridPoint{1, 1}));
    // adjacent, straight and diagonal
    ASSERT_EQ(sg.find_path(map, {1, 1}, {1, 2}, {}, path), Status::Found);
    EXPECT_EQ(path.cost, 1.0);
    EXPECT_EQ(path.cells.size(), 2u);
    ASSERT_EQ(sg.find_path(map, {8, 1}, {9, 2}, {}, path), Status::Found);
    EXPECT_TRUE(near(path.cost, std::sqrt(2.0)));
    // diagonal neighbours across a corner of the obstacle: no corner cutting, cost 2
    ASSERT_EQ(sg.find_path(map, {1, 2}, {2, 1}, {}, path), Status::Found);
    EXPECT_TRUE(near(path.cost, 2.0));
    EXPECT_EQ(ref::check_path(g, path.cells, {1, 2}, {2, 1}, path.cost), "");
    // unreachable
    EXPECT_EQ(sg.find_path(map, {1, 1}, {10, 4}, {}, path), Status::NoPath);
    EXPECT_TRUE(path.cells.empty());
    EXPECT_TRUE(std::isinf(sg.cost()));
    // invalid: blocked ends, off the map, unsupported rules
    EXPECT_EQ(sg.find_path(map, {6, 1}, {1, 1}, {}, path), Status::InvalidQuery);
    EXPECT_EQ(sg.find_path(map, {1, 1}, {40, 1}, {}, path), Status::InvalidQuery);
    GridSearchOptions four;
    four.movement = Movement::Four;
    EXPECT_EQ(sg.find_path(map, {1, 1}, {3, 3}, four, path), Status::InvalidQuery);
    GridSearchOptions cutting;
    cutting.diagonal = DiagonalRule::Always;
    EXPECT_EQ(sg.find_path(map, {1, 1}, {3, 3}, cutting, path), Status::InvalidQuery);
    GridSearchOptions light;
    light.weight = 0.5;
    EXPECT_EQ(sg.find_path(map, {1, 1}, {3, 3}, light, path), Status::InvalidQuery);
    // terrain costs are refused at build
    GridMap weighted = map;
    ASSERT_TRUE(weighted.set_cost({0, 0}, 3));
    SubgoalGraph graph;
    EXPECT_EQ(graph.build(weighted), JpsSupport::TerrainCosts);
    EXPECT_FALSE(graph.built());
    EXPECT_EQ(graph.build(GridMap{}), JpsSupport::EmptyMap);
}

TEST(Subgoal, SlicedSearchSharedGraphAndBudget) {
    std::mt19937 rng(21);
    const ref::Grid g = ref::room_grid(rng, 80, 60, 14, 0.03);
    const GridMap map = ref::to_map(g);
    SubgoalGraph graph;
    ASSERT_EQ(graph.build(map, SIZE_MAX, 0), JpsSupport::Ok);  // no transit nodes: every query searches
    SubgoalPathfinder a, b;
    GridPath pa, pb;
    int sliced = 0;
    for (int q = 0; q < 200; ++q) {
        const GridPoint s = ref::random_free(rng, g), t = ref::random_free(rng, g);
        const double expected = ref::dijkstra(g, s.x, s.y)[std::size_t(t.y) * g.width + t.x];
        ASSERT_EQ(a.begin(graph, s, t), Status::InProgress);
        Status st = Status::InProgress;
        int slices = 0;
        while ((st = a.step(2)) == Status::InProgress) ++slices;
        sliced += slices > 0;
        EXPECT_EQ(a.finish(pa), st);
        ASSERT_EQ(b.begin(graph, t, s), Status::InProgress);
        EXPECT_EQ(b.step(), st);
        EXPECT_EQ(b.finish(pb), st);
        if (std::isinf(expected)) {
            EXPECT_EQ(st, Status::NoPath);
            continue;
        }
        ASSERT_EQ(st, Status::Found);
        EXPECT_TRUE(near(pa.cost, expected));
        EXPECT_TRUE(near(pb.cost, expected));
        EXPECT_EQ(ref::check_path(g, pa.cells, s, t, pa.cost), "");
        EXPECT_EQ(ref::check_path(g, pb.cells, t, s, pb.cost), "");
        // a budget of one expansion stops every search that needs the graph
        GridSearchOptions tight;
        tight.budget.max_expansions = 1;
        const Status bs = a.find_path(map, s, t, tight, pa);
        EXPECT_TRUE(bs == Status::Found || bs == Status::BudgetExhausted);
    }
    EXPECT_GT(sliced, 10);
}

// The memory budget caps the query's storage (memory_bytes(): search state, heaps, scratch; not the graph):
// over it nothing is allocated and the search ends with BudgetExhausted / Memory.
TEST(Subgoal, MemoryBudgetCapsTheQueryStorage) {
    std::mt19937 rng(37);
    const ref::Grid g = ref::room_grid(rng, 90, 70, 16, 0.04);
    const GridMap map = ref::to_map(g);
    SubgoalGraph graph;
    ASSERT_EQ(graph.build(map, SIZE_MAX, 0), JpsSupport::Ok);  // no transit nodes: every query searches
    GridPath path;
    const auto run = [&](SubgoalPathfinder& f, GridPoint s, GridPoint t, std::size_t limit) {
        GridSearchOptions options;
        options.budget.max_memory_bytes = limit;
        Status status = f.begin(graph, s, t, options);
        while (status == Status::InProgress) status = f.step(5);
        EXPECT_EQ(f.status(), status);
        return f.finish(path);
    };
    int queries = 0, stopped = 0;
    for (int attempt = 0; attempt < 300 && queries < 4; ++attempt) {
        const GridPoint s = ref::random_free(rng, g), t = ref::random_free(rng, g);
        SubgoalPathfinder unlimited;
        if (run(unlimited, s, t, SIZE_MAX) != Status::Found || unlimited.stats().expanded < 4) continue;
        ++queries;
        EXPECT_EQ(unlimited.budget_limit(), search::BudgetLimit::None);
        const double cost = path.cost;
        const std::size_t need = unlimited.memory_bytes();
        ASSERT_GT(need, 32 * graph.subgoal_count());
        ASSERT_LT(need, graph.memory_bytes()) << "the graph is not the query's storage";
        // (a) below it: stopped, nothing allocated, no path.
        for (const std::size_t limit : {std::size_t{0}, need / 2, need - 1}) {
            SubgoalPathfinder fresh;
            EXPECT_EQ(run(fresh, s, t, limit), Status::BudgetExhausted) << limit;
            EXPECT_EQ(fresh.budget_limit(), search::BudgetLimit::Memory);
            EXPECT_EQ(fresh.memory_bytes(), 0u);
            EXPECT_TRUE(path.cells.empty());
            EXPECT_TRUE(std::isinf(path.cost));
            EXPECT_TRUE(std::isinf(fresh.cost()));
        }
        // (b) exactly what an unlimited run held: the same answer, no more held.
        SubgoalPathfinder fresh;
        EXPECT_EQ(run(fresh, s, t, need), Status::Found);
        EXPECT_EQ(fresh.budget_limit(), search::BudgetLimit::None);
        EXPECT_EQ(path.cost, cost);
        EXPECT_EQ(fresh.memory_bytes(), need);
        // (c) holding more than the budget stops at once; at what it holds, through.
        EXPECT_EQ(run(fresh, s, t, need - 1), Status::BudgetExhausted);
        EXPECT_EQ(fresh.budget_limit(), search::BudgetLimit::Memory);
        EXPECT_EQ(fresh.stats().expanded, 0u);
        EXPECT_EQ(fresh.memory_bytes(), need);
        EXPECT_EQ(run(fresh, s, t, need), Status::Found);
        EXPECT_EQ(path.cost, cost);
        // (e) a sweep: never more held than allowed.
        for (std::size_t limit = 64; limit < 2 * need; limit = limit * 5 / 4 + 1) {
            SCOPED_TRACE("limit " + std::to_string(limit));
            SubgoalPathfinder swept;
            const Status status = run(swept, s, t, limit);
            EXPECT_LE(swept.memory_bytes(), limit);
            if (status == Status::BudgetExhausted) {
                ++stopped;
                EXPECT_EQ(swept.budget_limit(), search::BudgetLimit::Memory);
                continue;
            }
            ASSERT_EQ(status, Status::Found);
            EXPECT_EQ(path.cost, cost);
        }
    }
    EXPECT_EQ(queries, 4);
    EXPECT_GT(stopped, 4 * 10);

    // What build() sizes counts, the owned graph does not: a pathfinder that built its graph holds what one
    // sized by a query on the same graph holds.
    SubgoalPathfinder owner;
    ASSERT_EQ(owner.build(map, SIZE_MAX, 0), JpsSupport::Ok);
    SubgoalPathfinder user;
    (void)run(user, ref::random_free(rng, g), ref::random_free(rng, g), SIZE_MAX);
    EXPECT_EQ(owner.memory_bytes(), user.memory_bytes());
    const GridPoint s = ref::random_free(rng, g), t = ref::random_free(rng, g);
    GridSearchOptions options;
    options.budget.max_memory_bytes = owner.memory_bytes() - 1;
    EXPECT_EQ(owner.find_path(map, s, t, options, path), Status::BudgetExhausted);
    EXPECT_EQ(owner.budget_limit(), search::BudgetLimit::Memory);
    options.budget.max_memory_bytes = owner.memory_bytes();
    EXPECT_NE(owner.find_path(map, s, t, options, path), Status::BudgetExhausted);
    EXPECT_EQ(owner.budget_limit(), search::BudgetLimit::None);
}

// budget_limit() names the limit that ended the search, on the graph and on the JPS fallback.
TEST(Subgoal, BudgetLimitSaysWhichLimitEndedTheSearch) {
    std::mt19937 rng(41);
    ref::Grid g = ref::room_grid(rng, 80, 60, 14, 0.03);
    GridMap map = ref::to_map(g);
    SubgoalPathfinder sg;
    ASSERT_EQ(sg.build(map, SIZE_MAX, 0), JpsSupport::Ok);
    GridPath path;
    int checked = 0;
    GridPoint s{}, t{};
    for (int attempt = 0; attempt < 300 && checked < 3; ++attempt) {
        s = ref::random_free(rng, g);
        t = ref::random_free(rng, g);
        if (sg.find_path(map, s, t, {}, path) != Status::Found || sg.stats().expanded < 4) continue;
        ++checked;
        EXPECT_EQ(sg.budget_limit(), search::BudgetLimit::None);
        GridSearchOptions options;
        options.budget.max_expansions = 1;
        EXPECT_EQ(sg.find_path(map, s, t, options, path), Status::BudgetExhausted);
        EXPECT_EQ(sg.budget_limit(), search::BudgetLimit::Expansions);
        options = {};
        options.budget.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
        EXPECT_EQ(sg.find_path(map, s, t, options, path), Status::BudgetExhausted);
        EXPECT_EQ(sg.budget_limit(), search::BudgetLimit::Time);
        ASSERT_EQ(sg.begin(map, s, t), Status::InProgress);
        EXPECT_EQ(sg.budget_limit(), search::BudgetLimit::None);
        EXPECT_EQ(sg.step(), Status::Found);
        EXPECT_EQ(sg.budget_limit(), search::BudgetLimit::None);
        EXPECT_EQ(sg.find_path(map, {-1, 0}, t, {}, path), Status::InvalidQuery);
        EXPECT_EQ(sg.budget_limit(), search::BudgetLimit::None);
    }
    ASSERT_EQ(checked, 3);

    // A stale graph: the JPS fallback answers, with the budget left after what the pathfinder holds.
    for (int x = 0; x < 80; ++x)
        if (x != s.x && x != t.x && g.free(x, 0)) {
            g.set(x, 0, false);
            ASSERT_TRUE(map.set_passable({x, 0}, false));
            break;
        }
    ASSERT_FALSE(sg.graph().in_sync(map));
    ASSERT_EQ(sg.find_path(map, s, t, {}, path), Status::Found);
    const double cost = path.cost;
    const std::size_t held = sg.memory_bytes();  // the query's arrays and now the fallback's search state
    GridSearchOptions options;
    options.budget.max_expansions = 1;
    EXPECT_EQ(sg.find_path(map, s, t, options, path), Status::BudgetExhausted);
    EXPECT_EQ(sg.budget_limit(), search::BudgetLimit::Expansions);
    options = {};
    options.budget.max_memory_bytes = held - 1;
    EXPECT_EQ(sg.find_path(map, s, t, options, path), Status::BudgetExhausted);
    EXPECT_EQ(sg.budget_limit(), search::BudgetLimit::Memory);
    EXPECT_EQ(sg.memory_bytes(), held);
    EXPECT_TRUE(path.cells.empty());
    options.budget.max_memory_bytes = held;
    EXPECT_EQ(sg.find_path(map, s, t, options, path), Status::Found);
    EXPECT_EQ(sg.budget_limit(), search::BudgetLimit::None);
    EXPECT_EQ(path.cost, cost);
    EXPECT_EQ(sg.memory_bytes(), held);
    // A fresh pathfinder on the stale map holds only the fallback's state, and within the budget.
    SubgoalPathfinder fresh;
    options.budget.max_memory_bytes = 1000;
    EXPECT_EQ(fresh.find_path(map, s, t, options, path), Status::BudgetExhausted);
    EXPECT_EQ(fresh.budget_limit(), search::BudgetLimit::Memory);
    EXPECT_LE(fresh.memory_bytes(), 1000u);
    EXPECT_EQ(fresh.fallback_count(), 1u);
}

TEST(Subgoal, CellChangesFallBackToJpsUntilRebuilt) {
    std::mt19937 rng(4);
    ref::Grid g = ref::room_grid(rng, 50, 40, 8, 0.02);
    GridMap map = ref::to_map(g);
    SubgoalPathfinder sg;
    ASSERT_EQ(sg.build(map), JpsSupport::Ok);
    for (int change = 0; change < 30; ++change) {
        const GridPoint c{int(rng() % 50), int(rng() % 40)};
        const bool now = !g.free(c.x, c.y);
        g.set(c.x, c.y, now);
        ASSERT_TRUE(map.set_passable(c, now));
        EXPECT_FALSE(sg.graph().in_sync(map));
        const bool rebuild = change % 3 == 0;
        if (rebuild) {
            ASSERT_EQ(sg.build(map), JpsSupport::Ok);
        }
        const std::uint64_t before = sg.fallback_count();
        check_random_queries(g, map, sg, rng, 10);
        EXPECT_EQ(sg.fallback_count() - before, rebuild ? 0u : 10u);
    }
}

// A memory budget below what the graph takes refuses the build (nothing built, nothing held); the
// same map within budget builds and answers exactly.
TEST(Subgoal, BuildKeepsToItsMemoryBudget) {
    std::mt19937 rng(31);
    const ref::Grid g = ref::random_grid(rng, 48, 48, 0.12);  // open: many joins per cell
    const GridMap map = ref::to_map(g);
    SubgoalGraph full, base;
    ASSERT_EQ(full.build(map), JpsSupport::Ok);
    ASSERT_EQ(base.build(map, SIZE_MAX, 0), JpsSupport::Ok);  // without the optional transit-node tables
    ASSERT_GT(full.transit_count(), 0u);
    ASSERT_GT(full.memory_bytes(), base.memory_bytes());
    const std::size_t needed = base.memory_bytes();
    for (const std::size_t budget : {std::size_t{1}, needed / 4, needed / 2, needed - 1}) {
        SubgoalGraph graph;
        EXPECT_EQ(graph.build(map, budget), JpsSupport::MemoryBudget) << budget;
        EXPECT_FALSE(graph.built());
        EXPECT_LE(graph.memory_bytes(), budget);
        SubgoalPathfinder sg;
        EXPECT_EQ(sg.build(map, budget), JpsSupport::MemoryBudget) << budget;
    }
    // Room for the graph but not for its transit-node tables: built without them.
    SubgoalPathfinder lean;
    ASSERT_EQ(lean.build(map, full.memory_bytes() - 1), JpsSupport::Ok);
    EXPECT_EQ(lean.graph().transit_count(), 0u);
    EXPECT_EQ(lean.graph().memory_bytes(), needed);
    check_all_from(g, map, lean, rng, 1, "without transit nodes");
    SubgoalPathfinder sg;
    ASSERT_EQ(sg.build(map, 4 * full.memory_bytes()), JpsSupport::Ok);
    EXPECT_EQ(sg.graph().memory_bytes(), full.memory_bytes());
    check_all_from(g, map, sg, rng, 2, "within budget");
}

// A deadline that has passed stops the build: nothing built, nothing held, and queries are answered by
// the online JPS fallback; a deadline far off changes nothing.
TEST(Subgoal, BuildStopsAtItsDeadline) {
    std::mt19937 rng(37);
    const ref::Grid g = ref::random_grid(rng, 96, 96, 0.1);  // hundreds of subgoals: the clock is read
    const GridMap map = ref::to_map(g);
    const auto past = std::chrono::steady_clock::now();
    SubgoalGraph graph;
    EXPECT_EQ(graph.build(map, SIZE_MAX, SubgoalGraph::kAutoTransit, past), JpsSupport::TimeBudget);
    EXPECT_FALSE(graph.built());
    EXPECT_EQ(graph.memory_bytes(), SubgoalGraph{}.memory_bytes());
    SubgoalPathfinder sg;
    EXPECT_EQ(sg.build(map, SIZE_MAX, SubgoalGraph::kAutoTransit, past), JpsSupport::TimeBudget);
    check_random_queries(g, map, sg, rng, 5);
    EXPECT_EQ(sg.fallback_count(), 5u);
    ASSERT_EQ(sg.build(map, SIZE_MAX, SubgoalGraph::kAutoTransit, std::chrono::steady_clock::now() + std::chrono::hours(1)), JpsSupport::Ok);
    check_all_from(g, map, sg, rng, 1, "far deadline");
    EXPECT_EQ(sg.fallback_count(), 5u);
}
