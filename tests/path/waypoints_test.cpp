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

// ---- WaypointPathfinder: queries from any cell over a built graph ----

namespace {

// The shortest path from `start` to `goal` turning only at the graph's waypoints, by a Dijkstra written
// here over {start, goal} + the waypoints, joined where line_of_sight holds within max_distance (the
// rule the tests above check against exact geometry). +infinity when there is none.
double reference_cost(const GridMap& map, const WaypointGraph& wg, GridPoint start, GridPoint goal) {
    std::vector<GridPoint> v = {start, goal};
    for (const GridPoint c : wg.cells) v.push_back(c);
    const std::size_t n = v.size();
    std::vector<double> dist(n, std::numeric_limits<double>::infinity());
    std::vector<bool> done(n, false);
    dist[0] = 0;
    for (;;) {
        std::size_t u = n;
        for (std::size_t i = 0; i < n; ++i)
            if (!done[i] && std::isfinite(dist[i]) && (u == n || dist[i] < dist[u])) u = i;
        if (u == n) return std::numeric_limits<double>::infinity();
        if (u == 1) return dist[1];
        done[u] = true;
        for (std::size_t w = 0; w < n; ++w) {
            if (done[w]) continue;
            const double d = std::hypot(double(v[u].x - v[w].x), double(v[u].y - v[w].y));
            if (d <= wg.max_distance && (v[u] == v[w] || line_of_sight(map, v[u], v[w], wg.movement, wg.diagonal)))
                dist[w] = std::min(dist[w], dist[u] + d);
        }
    }
}

GridPoint random_free(std::mt19937& rng, const GridMap& map) {
    for (;;) {
        const GridPoint p{int(rng() % unsigned(map.width())), int(rng() % unsigned(map.height()))};
        if (map.passable(p)) return p;
    }
}

}  // namespace

TEST(WaypointPathfinder, MatchesAReferenceDijkstraFromAnyCell) {
    std::mt19937 rng(21);
    WaypointPathfinder finder;
    GridPath path;
    int found = 0, none = 0, direct = 0;
    for (int round = 0; round < 30; ++round) {
        const GridMap map = random_map(rng, 10 + int(rng() % 20), 10 + int(rng() % 20), round % 5 == 0 ? 0.35 : 0.2);
        WaypointOptions options;
        if (round % 3 == 1) options.max_distance = 5.5;
        if (round % 4 == 2) options.movement = Movement::Four;
        WaypointGraph wg;
        ASSERT_EQ(build_waypoint_graph(map, {}, options, wg), Status::Found);
        for (int q = 0; q < 12; ++q) {
            const GridPoint s = q == 0 && !wg.cells.empty() ? wg.cells[0] : random_free(rng, map);
            const GridPoint g = q == 1 && !wg.cells.empty() ? wg.cells.back() : random_free(rng, map);
            const double want = reference_cost(map, wg, s, g);
            GraphSearchOptions o;
            o.heuristic = q % 2 == 0 ? GraphHeuristic::Auto : GraphHeuristic::Zero;
            const Status st = finder.find_path(wg, map, s, g, o, path);
            if (!std::isfinite(want)) {
                EXPECT_EQ(st, Status::NoPath) << s.x << "," << s.y << " -> " << g.x << "," << g.y;
                EXPECT_TRUE(path.cells.empty());
                ++none;
                continue;
            }
            ASSERT_EQ(st, Status::Found) << s.x << "," << s.y << " -> " << g.x << "," << g.y;
            EXPECT_NEAR(path.cost, want, 1e-9 * (1 + want));
            // The path: from s to g, through waypoints, each link in sight and in range, lengths adding up.
            ASSERT_FALSE(path.cells.empty());
            EXPECT_EQ(path.cells.front(), s);
            EXPECT_EQ(path.cells.back(), g);
            double sum = 0;
            for (std::size_t i = 1; i < path.cells.size(); ++i) {
                const GridPoint a = path.cells[i - 1], b = path.cells[i];
                EXPECT_FALSE(a == b);
                EXPECT_TRUE(line_of_sight(map, a, b, options.movement, options.diagonal));
                sum += euclidean_distance(a, b);
                EXPECT_LE(euclidean_distance(a, b), options.max_distance);
                if (i + 1 < path.cells.size()) {
                    EXPECT_NE(wg.node_at(b), kNoGraphNode);
                }
            }
            EXPECT_NEAR(sum, path.cost, 1e-9 * (1 + sum));
            direct += path.cells.size() <= 2 ? 1 : 0;
            ++found;
        }
    }
    EXPECT_GT(found, 200);
    EXPECT_GT(none, 5);
    EXPECT_GT(direct, 10);
}

TEST(WaypointPathfinder, SlicesBudgetsAndRefusals) {
    // The pillar room: (0,1) to (4,1) around the pillar through (1,0) and (3,0), or (1,2) and (3,2).
    GridMap map;
    ASSERT_EQ(map.reset(5, 3), GridSizeCheck::Ok);
    map.set_passable({2, 1}, false);
    WaypointGraph wg;
    ASSERT_EQ(build_waypoint_graph(map, {}, {}, wg), Status::Found);
    WaypointPathfinder finder;
    GridPath path;
    // (0,1) sees (4,1)? No: the segment runs through the pillar.
    ASSERT_EQ(finder.find_path(wg, map, {0, 1}, {4, 1}, {}, path), Status::Found);
    EXPECT_NEAR(path.cost, 2 * std::sqrt(2.0) + 2.0, 1e-12);
    EXPECT_EQ(path.cells.size(), 4u);
    EXPECT_EQ(finder.start_links(), 2u);  // (1,0) and (1,2)
    EXPECT_EQ(finder.goal_links(), 2u);
    // Ends that are waypoints are not joined to themselves: corner to opposite corner, 2 + 2.
    ASSERT_EQ(finder.find_path(wg, map, {1, 0}, {3, 2}, {}, path), Status::Found);
    EXPECT_EQ(path.cost, 4.0);
    EXPECT_EQ(path.cells.size(), 3u);
    EXPECT_EQ(finder.start_links(), 2u);  // (3,0) and (1,2), not (1,0) itself
    EXPECT_EQ(finder.goal_links(), 2u);
    // Start = goal, and a straight segment: no search.
    ASSERT_EQ(finder.find_path(wg, map, {0, 0}, {0, 0}, {}, path), Status::Found);
    EXPECT_EQ(path.cells, (std::vector<GridPoint>{{0, 0}}));
    EXPECT_EQ(path.cost, 0.0);
    ASSERT_EQ(finder.find_path(wg, map, {0, 0}, {4, 0}, {}, path), Status::Found);
    EXPECT_EQ(path.cells, (std::vector<GridPoint>{{0, 0}, {4, 0}}));
    EXPECT_EQ(path.cost, 4.0);
    EXPECT_EQ(finder.stats().expanded, 0u);
    // In slices of one expansion: the same answer.
    ASSERT_EQ(finder.begin(wg, map, {0, 1}, {4, 1}), Status::InProgress);
    int slices = 0;
    while (finder.step(1) == Status::InProgress) ++slices;
    EXPECT_GT(slices, 0);
    ASSERT_EQ(finder.finish(path), Status::Found);
    EXPECT_NEAR(path.cost, 2 * std::sqrt(2.0) + 2.0, 1e-12);
    // Budgets.
    GraphSearchOptions o;
    o.budget.max_expansions = 1;
    EXPECT_EQ(finder.find_path(wg, map, {0, 1}, {4, 1}, o, path), Status::BudgetExhausted);
    EXPECT_EQ(finder.budget_limit(), search::BudgetLimit::Expansions);
    EXPECT_TRUE(path.cells.empty());
    o = {};
    o.budget.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    EXPECT_EQ(finder.find_path(wg, map, {0, 1}, {4, 1}, o, path), Status::BudgetExhausted);
    EXPECT_EQ(finder.budget_limit(), search::BudgetLimit::Time);
    WaypointPathfinder fresh;
    o = {};
    o.budget.max_memory_bytes = 16;
    EXPECT_EQ(fresh.find_path(wg, map, {0, 1}, {4, 1}, o, path), Status::BudgetExhausted);
    EXPECT_EQ(fresh.budget_limit(), search::BudgetLimit::Memory);
    EXPECT_EQ(fresh.memory_bytes(), 0u);  // nothing was allocated
    // Refusals: blocked or off-map ends, a weight below 1, a map the graph does not fit, terrain costs.
    EXPECT_EQ(finder.find_path(wg, map, {2, 1}, {4, 1}, {}, path), Status::InvalidQuery);
    EXPECT_EQ(finder.find_path(wg, map, {0, 1}, {9, 1}, {}, path), Status::InvalidQuery);
    o = {};
    o.weight = 0.5;
    EXPECT_EQ(finder.find_path(wg, map, {0, 1}, {4, 1}, o, path), Status::InvalidQuery);
    GridMap other = map;
    other.set_passable({1, 0}, false);
    EXPECT_EQ(finder.find_path(wg, other, {0, 1}, {4, 1}, {}, path), Status::InvalidQuery);
    other = map;
    other.set_cost({0, 0}, 2);
    EXPECT_EQ(finder.find_path(wg, other, {0, 1}, {4, 1}, {}, path), Status::InvalidQuery);
    // A wall cuts the room in two: no path, found without a search.
    for (int y = 0; y < 3; ++y) map.set_passable({2, y}, false);
    ASSERT_EQ(build_waypoint_graph(map, {}, {}, wg), Status::Found);
    EXPECT_EQ(finder.find_path(wg, map, {0, 1}, {4, 1}, {}, path), Status::NoPath);
}

TEST(WaypointPathfinder, AllocatesNothingPerQueryAfterWarmUp) {
    std::mt19937 rng(22);
    const GridMap map = random_map(rng, 40, 30, 0.2);
    WaypointGraph wg;
    ASSERT_EQ(build_waypoint_graph(map, {}, {}, wg), Status::Found);
    WaypointPathfinder finder;
    finder.reserve(wg);
    GridPath path;
    path.cells.reserve(1024);
    std::vector<std::pair<GridPoint, GridPoint>> queries;
    for (int i = 0; i < 50; ++i) queries.emplace_back(random_free(rng, map), random_free(rng, map));
    int found = 0;
    const test::AllocationScope scope;
    for (const auto& [s, g] : queries) found += finder.find_path(wg, map, s, g, {}, path) == Status::Found ? 1 : 0;
    EXPECT_EQ(scope.count(), 0u);
    EXPECT_GT(found, 30);
}
