// Waypoint graphs: corners against a brute-force definition, edges against an exact segment/square
// test (a joined pair never crosses the inside of a blocked cell) and against line_of_sight for every
// pair, and paths by hand.
#include <gameplan/path/graph_search.hpp>
#include <gameplan/path/smoothing.hpp>
#include <gameplan/path/waypoints.hpp>

#include <alloc_counter.hpp>
#include <random_grid.hpp>

#include <chrono>
#include <cmath>
#include <random>
#include <set>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;

namespace {
using test::random_map;

// True if the segment p-q passes through the open unit square (x, x+1) x (y, y+1) (Liang-Barsky clip).
bool crosses_open_square(double px, double py, double qx, double qy, int x, int y) {
    double t0 = 0, t1 = 1;
    const double dx = qx - px, dy = qy - py;
    const double p[4] = {-dx, dx, -dy, dy};
    const double q[4] = {px - x, (x + 1) - px, py - y, (y + 1) - py};
    for (int i = 0; i < 4; ++i) {
        if (p[i] == 0) {
            if (q[i] <= 0) return false;  // parallel and outside (or on the boundary line)
            continue;
        }
        const double t = q[i] / p[i];
        if (p[i] < 0) t0 = std::max(t0, t);
        else t1 = std::min(t1, t);
    }
    return t1 - t0 > 1e-12;
}


}  // namespace

TEST(Waypoints, ConvexCornersMatchBruteForce) {
    std::mt19937 rng(4);
    for (int round = 0; round < 20; ++round) {
        const GridMap map = random_map(rng, 5 + int(rng() % 30), 5 + int(rng() % 30), 0.25);
        // Brute force from the obstacles' side: each blocked cell marks the free cells diagonal to it
        // whose two shared orthogonal neighbours are free.
        std::set<std::pair<int, int>> want;
        for (int y = 0; y < map.height(); ++y)
            for (int x = 0; x < map.width(); ++x) {
                if (map.passable({x, y})) continue;
                for (int dy : {-1, 1})
                    for (int dx : {-1, 1})
                        if (map.passable({x + dx, y + dy}) && map.passable({x + dx, y}) && map.passable({x, y + dy}))
                            want.insert({x + dx, y + dy});
            }
        std::vector<GridPoint> got;
        convex_corners(map, got);
        std::set<std::pair<int, int>> have;
        for (const GridPoint p : got) have.insert({p.x, p.y});
        EXPECT_EQ(have, want);
        EXPECT_EQ(have.size(), got.size());
    }
}

TEST(Waypoints, EdgesAreExactlyTheVisiblePairs) {
    std::mt19937 rng(6);
    for (int round = 0; round < 12; ++round) {
        const GridMap map = random_map(rng, 8 + int(rng() % 20), 8 + int(rng() % 20), 0.2);
        std::vector<GridPoint> given;
        for (int k = 0; k < 4; ++k) {
            const GridPoint p{int(rng() % unsigned(map.width())), int(rng() % unsigned(map.height()))};
            if (map.passable(p)) given.push_back(p);
        }
        WaypointOptions options;
        options.max_distance = round % 3 == 0 ? 6.0 : options.max_distance;
        WaypointGraph wg;
        ASSERT_EQ(build_waypoint_graph(map, given, options, wg), Status::Found);
        ASSERT_EQ(wg.graph.node_count(), wg.cells.size());
        for (std::size_t i = 0; i < given.size(); ++i) EXPECT_NE(wg.node_at(given[i]), kNoGraphNode);
        const Graph& g = wg.graph;
        for (GraphNode u = 0; u < g.node_count(); ++u) {
            std::set<GraphNode> adjacent;
            for (const GraphArc& a : g.arcs(u)) {
                adjacent.insert(a.to);
                const GridPoint p = wg.cells[u], q = wg.cells[a.to];
                EXPECT_NEAR(a.cost, std::hypot(p.x - q.x, p.y - q.y), 1e-12);
                // Exact check: the segment between the centres never enters a blocked cell's inside.
                for (int y = 0; y < map.height(); ++y)
                    for (int x = 0; x < map.width(); ++x)
                        if (!map.passable({x, y})) {
                            ASSERT_FALSE(crosses_open_square(p.x + 0.5, p.y + 0.5, q.x + 0.5, q.y + 0.5, x, y))
                                << p.x << "," << p.y << " -> " << q.x << "," << q.y << " crosses " << x << "," << y;
                        }
            }
            for (GraphNode v = 0; v < g.node_count(); ++v) {
                if (v == u) continue;
                const bool visible = line_of_sight(map, wg.cells[u], wg.cells[v], Movement::Eight, DiagonalRule::NoCornerCutting) &&
                                     euclidean_distance(wg.cells[u], wg.cells[v]) <= options.max_distance;
                EXPECT_EQ(adjacent.count(v) == 1, visible);
            }
        }
    }
}

TEST(Waypoints, PathAroundAWallByHand) {
    // A wall at x = 3 from the top down to y = 3, open below: from (1,1) to (5,1) the path rounds the
    // wall's end through the corner cells (2,4) and (4,4): sqrt(10) + 2 + sqrt(10).
    GridMap map;
    ASSERT_EQ(map.reset(7, 5), GridSizeCheck::Ok);
    for (int y = 0; y <= 3; ++y) map.set_passable({3, y}, false);
    const GridPoint given[] = {{1, 1}, {5, 1}};
    WaypointGraph wg;
    ASSERT_EQ(build_waypoint_graph(map, given, {}, wg), Status::Found);
    EXPECT_EQ(wg.graph.node_count(), 4u);
    EXPECT_NE(wg.node_at({2, 4}), kNoGraphNode);
    EXPECT_NE(wg.node_at({4, 4}), kNoGraphNode);
    GraphPathfinder finder;
    GraphPath path;
    ASSERT_EQ(finder.find_path(wg.graph, wg.node_at({1, 1}), wg.node_at({5, 1}), {}, path), Status::Found);
    EXPECT_NEAR(path.cost, 2.0 + 2.0 * std::sqrt(10.0), 1e-9);
    ASSERT_EQ(path.nodes.size(), 4u);
    EXPECT_EQ(wg.cells[path.nodes[1]], (GridPoint{2, 4}));
    EXPECT_EQ(wg.cells[path.nodes[2]], (GridPoint{4, 4}));
    // Refusals.
    const GridPoint blocked[] = {{3, 0}};
    EXPECT_EQ(build_waypoint_graph(map, blocked, {}, wg), Status::InvalidQuery);
    EXPECT_EQ(wg.graph.node_count(), 0u);
    const GridPoint off[] = {{9, 9}};
    EXPECT_EQ(build_waypoint_graph(map, off, {}, wg), Status::InvalidQuery);
    WaypointOptions bad;
    bad.max_distance = 0;
    EXPECT_EQ(build_waypoint_graph(map, given, bad, wg), Status::InvalidQuery);
    map.set_cost({0, 0}, 3);
    EXPECT_EQ(build_waypoint_graph(map, given, {}, wg), Status::InvalidQuery);
}

// The budget: pairs checked, the build's memory, the clock. The pairs are counted here from the cells
// (every pair no farther apart than max_distance), the memory against the finished graph's own figure.
TEST(Waypoints, BudgetStopsTheBuild) {
    std::mt19937 rng(17);
    for (int round = 0; round < 8; ++round) {
        const GridMap map = random_map(rng, 10 + int(rng() % 20), 10 + int(rng() % 20), 0.15);
        WaypointOptions options;
        options.max_distance = round % 2 == 0 ? 7.5 : options.max_distance;
        WaypointGraph full;
        ASSERT_EQ(build_waypoint_graph(map, {}, options, full), Status::Found);
        EXPECT_EQ(full.limit, search::BudgetLimit::None);
        std::uint64_t pairs = 0;
        for (std::size_t i = 0; i < full.cells.size(); ++i)
            for (std::size_t j = i + 1; j < full.cells.size(); ++j)
                pairs += euclidean_distance(full.cells[i], full.cells[j]) <= options.max_distance ? 1 : 0;
        ASSERT_GT(pairs, 0u);

        WaypointOptions limited = options;
        WaypointGraph wg;
        limited.budget.max_expansions = pairs;
        ASSERT_EQ(build_waypoint_graph(map, {}, limited, wg), Status::Found);
        EXPECT_EQ(wg.graph.arc_count(), full.graph.arc_count());
        limited.budget.max_expansions = pairs - 1;
        ASSERT_EQ(build_waypoint_graph(map, {}, limited, wg), Status::BudgetExhausted);
        EXPECT_EQ(wg.limit, search::BudgetLimit::Expansions);
        EXPECT_EQ(wg.graph.node_count(), 0u);
        EXPECT_TRUE(wg.cells.empty());

        // A build allowed less than it holds at its peak (counted by the test's allocator) never finishes:
        // the estimate it checks as it goes is never below what it holds.
        std::int64_t peak = 0;
        {
            WaypointGraph fresh;
            const test::PeakScope scope;
            ASSERT_EQ(build_waypoint_graph(map, {}, options, fresh), Status::Found);
            peak = scope.peak();
        }
        ASSERT_GT(peak, std::int64_t(full.graph.memory_bytes()));
        limited = options;
        limited.budget.max_memory_bytes = std::size_t(peak - 1);
        {
            WaypointGraph fresh;
            ASSERT_EQ(build_waypoint_graph(map, {}, limited, fresh), Status::BudgetExhausted);
            EXPECT_EQ(fresh.limit, search::BudgetLimit::Memory);
            EXPECT_EQ(fresh.graph.node_count(), 0u);
        }
        // ... and the estimate is not wildly above it either.
        limited.budget.max_memory_bytes = std::size_t(4 * peak);
        EXPECT_EQ(build_waypoint_graph(map, {}, limited, wg), Status::Found);

        limited = options;
        limited.budget.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
        ASSERT_EQ(build_waypoint_graph(map, {}, limited, wg), Status::BudgetExhausted);
        EXPECT_EQ(wg.limit, search::BudgetLimit::Time);
        // A successful build after a stopped one reports no limit.
        ASSERT_EQ(build_waypoint_graph(map, {}, options, wg), Status::Found);
        EXPECT_EQ(wg.limit, search::BudgetLimit::None);
    }
}
