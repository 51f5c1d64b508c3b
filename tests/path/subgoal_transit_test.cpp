// Transit-node routing of the subgoal tier against independent references (jps_test_support.hpp, no
// library code): the table between transit nodes against grid Dijkstra, and every query of random maps,
// with few transit nodes so that both the table and the local search answer, against the reference
// distances, in every path detail.
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/subgoal.hpp>

#include "jps_test_support.hpp"

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;
namespace ref = gameplan::test::jps;

namespace {
bool near(double a, double b) { return std::abs(a - b) <= 1e-9 * std::max(1.0, std::abs(b)); }
}  // namespace

// Every entry of the table is the grid distance between its two transit nodes.
TEST(SubgoalTransit, TableHoldsGridDistances) {
    std::mt19937 rng(41);
    for (int round = 0; round < 6; ++round) {
        const ref::Grid g = round % 2 ? ref::random_grid(rng, 50, 40, 0.1 + 0.05 * round)
                                      : ref::room_grid(rng, 50, 40, 6 + round, 0.02);
        const GridMap map = ref::to_map(g);
        SubgoalGraph graph;
        const std::uint32_t wanted = 16u << (round % 3);
        ASSERT_EQ(graph.build(map, SIZE_MAX, wanted), JpsSupport::Ok);
        const std::uint32_t t = graph.transit_count();
        ASSERT_EQ(t, std::min<std::uint32_t>(wanted, static_cast<std::uint32_t>(graph.subgoal_count())));
        int finite = 0;
        for (std::uint32_t a = 0; a < t; ++a) {
            const GridPoint pa = graph.subgoal(graph.transit_id(a));
            EXPECT_EQ(graph.transit_position(graph.transit_id(a)), a);
            EXPECT_LT(graph.transit_id(a), t);  // the top of the hierarchy
            const auto dist = ref::dijkstra(g, pa.x, pa.y);
            for (std::uint32_t b = 0; b < t; ++b) {
                const GridPoint pb = graph.subgoal(graph.transit_id(b));
                const double expected = dist[std::size_t(pb.y) * g.width + pb.x];
                const double got = graph.transit_distance(a, b);
                if (std::isinf(expected)) {
                    EXPECT_TRUE(std::isinf(got)) << round << ": " << a << " -> " << b;
                    continue;
                }
                ASSERT_TRUE(near(got, expected)) << round << ": " << a << " -> " << b << ": " << got << " vs " << expected;
                finite += a != b;
            }
        }
        EXPECT_GT(finite, 0);
    }
}

// Random maps of several densities with 8 to 64 transit nodes: every query from a few sources to every
// cell, in every path detail, against the reference; the table and the local search both answer.
TEST(SubgoalTransit, QueriesAreExactlyOptimal) {
    std::mt19937 rng(43);
    GridPath path;
    std::vector<GridPoint> cells;
    long table = 0, local = 0;
    for (int round = 0; round < 12; ++round) {
        const int w = 24 + int(rng() % 30), h = 24 + int(rng() % 30);
        const double density = 0.05 + 0.05 * (round % 6);
        const ref::Grid g = round % 4 == 3 ? ref::room_grid(rng, w, h, 5 + round, 0.03) : ref::random_grid(rng, w, h, density);
        const GridMap map = ref::to_map(g);
        SubgoalPathfinder sg;
        ASSERT_EQ(sg.build(map, SIZE_MAX, 8u << (round % 4)), JpsSupport::Ok);
        const SubgoalGraph& graph = sg.graph();
        if (graph.subgoal_count() > 0) {
            ASSERT_GT(graph.transit_count(), 0u);
        }
        for (int s = 0; s < 3; ++s) {
            const GridPoint start = ref::random_free(rng, g);
            const auto dist = ref::dijkstra(g, start.x, start.y);
            for (int y = 0; y < g.height; ++y)
                for (int x = 0; x < g.width; ++x) {
                    if (!g.free(x, y)) continue;
                    const GridPoint goal{x, y};
                    const double expected = dist[std::size_t(y) * g.width + x];
                    SCOPED_TRACE("round " + std::to_string(round) + " from (" + std::to_string(start.x) + "," +
                                 std::to_string(start.y) + ") to (" + std::to_string(x) + "," + std::to_string(y) + ")");
                    GridSearchOptions options;
                    for (const PathDetail detail : {PathDetail::Cells, PathDetail::Waypoints, PathDetail::CostOnly}) {
                        options.detail = detail;
                        const Status st = sg.find_path(map, start, goal, options, path);
                        if (std::isinf(expected)) {
                            ASSERT_EQ(st, Status::NoPath);
                            continue;
                        }
                        ASSERT_EQ(st, Status::Found);
                        ASSERT_TRUE(near(path.cost, expected)) << path.cost << " vs " << expected;
                        if (detail == PathDetail::CostOnly) {
                            EXPECT_TRUE(path.cells.empty());
                        } else if (detail == PathDetail::Waypoints) {
                            expand_waypoints(path.cells, cells);
                            ASSERT_EQ(ref::check_path(g, cells, start, goal, path.cost), "");
                        } else {
                            ASSERT_EQ(ref::check_path(g, path.cells, start, goal, path.cost), "");
                        }
                    }
                    // A table answer counts one expansion; a search at least the two ends.
                    const auto expanded = sg.stats().expanded;
                    table += expanded == 1;
                    local += expanded >= 2;
                }
        }
    }
    EXPECT_GT(table, 1000);
    EXPECT_GT(local, 1000);
}

// A table answer is one expansion: a budget of none stops it, and sliced stepping of zero reports
// InProgress first.
TEST(SubgoalTransit, TableAnswersKeepTheSearchShape) {
    std::mt19937 rng(47);
    const ref::Grid g = ref::random_grid(rng, 60, 60, 0.2);
    const GridMap map = ref::to_map(g);
    SubgoalGraph graph;
    ASSERT_EQ(graph.build(map, SIZE_MAX, 256), JpsSupport::Ok);
    ASSERT_EQ(graph.transit_count(), std::min<std::size_t>(256, graph.subgoal_count()));
    SubgoalPathfinder sg;
    GridPath path;
    int table = 0;
    for (int q = 0; q < 300; ++q) {
        const GridPoint s = ref::random_free(rng, g), t = ref::random_free(rng, g);
        const std::uint32_t a = graph.index(s), b = graph.index(t);
        if (a == b || graph.direct(a, b) || graph.direct(b, a) || graph.transit_local(a, b)) continue;
        const double expected = ref::dijkstra(g, s.x, s.y)[std::size_t(t.y) * g.width + t.x];
        ASSERT_EQ(sg.begin(graph, s, t), Status::InProgress);
        ASSERT_EQ(sg.step(0), Status::InProgress);
        const Status st = sg.step(1);
        ASSERT_EQ(st, std::isinf(expected) ? Status::NoPath : Status::Found);
        EXPECT_EQ(sg.stats().expanded, 1u);
        EXPECT_EQ(sg.finish(path), st);
        if (st == Status::Found) {
            EXPECT_TRUE(near(sg.cost(), expected));
            EXPECT_EQ(ref::check_path(g, path.cells, s, t, path.cost), "");
        }
        GridSearchOptions none;
        none.budget.max_expansions = 0;
        ASSERT_EQ(sg.begin(graph, s, t, none), Status::InProgress);
        EXPECT_EQ(sg.step(), Status::BudgetExhausted);
        ++table;
    }
    EXPECT_GT(table, 50);
}

// The table stores each distance as its numbers of straight and diagonal steps, 15 bits each: a map
// whose transit nodes lie farther apart (a serpentine whose one corridor is about 66,000 steps long)
// must not get tables that would wrap; its queries stay exact (against grid Dijkstra) either way.
TEST(SubgoalTransit, StepCountsBeyondTheTableLimitDropTheTables) {
    const int w = 512, h = 259;
    ref::Grid g{w, h, std::vector<char>(std::size_t(w) * h, 1)};
    // Walls on every odd row, open at the right end, then the left end, alternately.
    for (int y = 1; y < h; y += 2)
        for (int x = 0; x < w; ++x)
            if (x != ((y / 2) % 2 == 0 ? w - 1 : 0)) g.set(x, y, false);
    const GridMap map = ref::to_map(g);
    SubgoalPathfinder sg;
    ASSERT_EQ(sg.build(map), JpsSupport::Ok);
    EXPECT_EQ(sg.graph().transit_count(), 0u);
    const GridPoint start{0, 0};
    const auto dist = ref::dijkstra(g, start.x, start.y);
    GridPath path;
    for (const GridPoint goal : {GridPoint{0, h - 1}, GridPoint{w - 1, h - 1}, GridPoint{300, 130}, GridPoint{5, 200}}) {
        const double expected = dist[std::size_t(goal.y) * w + goal.x];
        ASSERT_EQ(sg.find_path(map, start, goal, {}, path), Status::Found);
        EXPECT_TRUE(near(path.cost, expected)) << path.cost << " vs " << expected;
        EXPECT_EQ(ref::check_path(g, path.cells, start, goal, path.cost), "");
    }
    EXPECT_GT(dist[std::size_t(h - 1) * w], 65536.0);
}

// Two halves no path joins, each with transit nodes: a pair of access nodes in different halves is
// unreachable in the table and is never an answer (queries across are NoPath, within exact).
TEST(SubgoalTransit, UnreachablePairsAreNoPath) {
    std::mt19937 rng(53);
    ref::Grid g = ref::random_grid(rng, 60, 30, 0.15);
    for (int y = 0; y < g.height; ++y) g.set(30, y, false);
    const GridMap map = ref::to_map(g);
    SubgoalPathfinder sg;
    ASSERT_EQ(sg.build(map, SIZE_MAX, 32), JpsSupport::Ok);
    ASSERT_EQ(sg.graph().transit_count(), 32u);
    GridPath path;
    int across = 0, table = 0;
    for (int q = 0; q < 300; ++q) {
        const GridPoint s = ref::random_free(rng, g), t = ref::random_free(rng, g);
        const double expected = ref::dijkstra(g, s.x, s.y)[std::size_t(t.y) * g.width + t.x];
        const Status st = sg.find_path(map, s, t, {}, path);
        table += sg.stats().expanded == 1;
        if (std::isinf(expected)) {
            ASSERT_EQ(st, Status::NoPath) << s.x << "," << s.y << " -> " << t.x << "," << t.y;
            across += (s.x < 30) != (t.x < 30);
            continue;
        }
        ASSERT_EQ(st, Status::Found);
        EXPECT_TRUE(near(path.cost, expected));
        EXPECT_EQ(ref::check_path(g, path.cells, s, t, path.cost), "");
    }
    EXPECT_GT(across, 50);
    EXPECT_GT(table, 50);
}
