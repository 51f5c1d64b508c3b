// GraphRequestQueue and HexRequestQueue: every result equals a direct find_path with the same options
// (status, path, cost, expansions), found costs equal a Dijkstra written here, the per-update budget is
// never exceeded, priorities and submission order decide the order, handles are salted, and a hex map
// change restarts running searches and re-queues finished ones.
#include <gameplan/path/graph.hpp>
#include <gameplan/path/graph_search.hpp>
#include <gameplan/path/hex_grid.hpp>
#include <gameplan/path/request_queue_graph.hpp>

#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct TestGraph {
    Graph graph;
    std::vector<std::vector<std::pair<GraphNode, double>>> arcs;  // the reference's own adjacency
};

TestGraph random_graph(std::uint32_t seed, int nodes, int edges) {
    std::mt19937 rng(seed);
    GraphBuilder b;
    std::vector<GraphPosition> pos;
    TestGraph t;
    t.arcs.resize(std::size_t(nodes));
    for (int i = 0; i < nodes; ++i) {
        pos.push_back({double(rng() % 100), double(rng() % 100)});
        (void)b.add_node("n" + std::to_string(i), pos.back().x, pos.back().y);
    }
    for (int k = 0; k < edges; ++k) {
        const auto u = GraphNode(rng() % std::uint32_t(nodes)), v = GraphNode(rng() % std::uint32_t(nodes));
        const double d = std::hypot(pos[u].x - pos[v].x, pos[u].y - pos[v].y);
        const double cost = d + double(rng() % 20);  // never below the straight line: positions stay admissible
        EXPECT_EQ(b.add_edge(u, v, cost), GraphError::None);
        t.arcs[u].push_back({v, cost});
    }
    t.graph = b.build();
    return t;
}

// Dijkstra by repeated scans over the test's own adjacency lists.
double reference_cost(const TestGraph& t, GraphNode s, GraphNode goal) {
    std::vector<double> dist(t.arcs.size(), kInf);
    std::vector<bool> done(t.arcs.size(), false);
    dist[s] = 0;
    for (;;) {
        std::size_t best = dist.size();
        for (std::size_t i = 0; i < dist.size(); ++i)
            if (!done[i] && dist[i] < kInf && (best == dist.size() || dist[i] < dist[best])) best = i;
        if (best == dist.size()) return kInf;
        if (best == goal) return dist[best];
        done[best] = true;
        for (const auto& [to, c] : t.arcs[best]) dist[to] = std::min(dist[to], dist[best] + c);
    }
}

// Odd-r hex neighbours, written here: odd rows sit half a cell right.
bool hex_adjacent(GridPoint a, GridPoint b) {
    const int dy = b.y - a.y, dx = b.x - a.x;
    if (dy == 0) return dx == 1 || dx == -1;
    if (dy != 1 && dy != -1) return false;
    return (a.y % 2 == 0) ? (dx == -1 || dx == 0) : (dx == 0 || dx == 1);
}

// A 40 x 40 map with about one cell in `one_in` blocked, its corners (0, 0) and (39, 39) open.
GridMap corner_to_corner_map(std::mt19937& rng, unsigned one_in) {
    GridMap map;
    EXPECT_EQ(map.reset(40, 40), GridSizeCheck::Ok);
    for (int y = 0; y < 40; ++y)
        for (int x = 0; x < 40; ++x)
            if (rng() % one_in == 0) (void)map.set_passable({x, y}, false);
    (void)map.set_passable({0, 0}, true);
    (void)map.set_passable({39, 39}, true);
    return map;
}

}  // namespace

TEST(GraphRequestQueue, ResultsEqualDirectCallsAndTheReference) {
    const TestGraph t = random_graph(5, 300, 900);
    std::mt19937 rng(9);
    QueueOptions qo;
    qo.lanes = 3;
    qo.aging_frames = 4;
    GraphRequestQueue queue(t.graph, qo);
    std::vector<GraphRequest> requests;
    std::vector<PathHandle> handles;
    for (int i = 0; i < 60; ++i) {
        GraphRequest r;
        r.start = GraphNode(rng() % 300);
        r.goal = GraphNode(rng() % 300);
        if (i % 7 == 3) r.goal = 5000;  // not a node: InvalidQuery
        if (i % 5 == 1) r.options.heuristic = GraphHeuristic::Zero;
        if (i % 9 == 2) r.options.budget.max_expansions = 3;  // BudgetExhausted (or found within 3)
        r.priority = int(rng() % 3);
        requests.push_back(r);
        handles.push_back(queue.submit(r));
    }
    EXPECT_EQ(queue.pending_count(), 60u);
    std::vector<GraphRequestResult> results(requests.size());
    std::size_t taken = 0;
    for (int frame = 0; frame < 10000 && taken < requests.size(); ++frame) {
        const QueueUpdateStats s = queue.update(37);
        EXPECT_LE(s.expanded, 37u);
        for (const PathHandle h : queue.completed()) {
            const auto i = std::size_t(std::find(handles.begin(), handles.end(), h) - handles.begin());
            ASSERT_LT(i, handles.size());
            ASSERT_TRUE(queue.take(h, results[i]));
            EXPECT_EQ(queue.state(h), RequestState::Unknown);  // stale after take
            ++taken;
        }
    }
    ASSERT_EQ(taken, requests.size());
    GraphPathfinder direct;
    GraphPath path;
    int found = 0, budget = 0, invalid = 0;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        const Status st = direct.find_path(t.graph, requests[i].start, requests[i].goal, requests[i].options, path);
        EXPECT_EQ(results[i].status, st) << i;
        EXPECT_EQ(results[i].limit, direct.budget_limit()) << i;
        EXPECT_EQ(results[i].path.nodes, path.nodes) << i;
        EXPECT_EQ(results[i].expanded, direct.stats().expanded) << i;
        if (st == Status::Found) {
            ++found;
            EXPECT_EQ(results[i].path.cost, path.cost) << i;
            EXPECT_NEAR(results[i].path.cost, reference_cost(t, requests[i].start, requests[i].goal), 1e-9) << i;
        }
        budget += st == Status::BudgetExhausted;
        invalid += st == Status::InvalidQuery;
    }
    EXPECT_GT(found, 30);
    EXPECT_GT(budget, 0);
    EXPECT_GT(invalid, 0);
}

TEST(GraphRequestQueue, PrioritiesThenSubmissionOrderAndSaltedHandles) {
    const TestGraph t = random_graph(7, 50, 200);
    GraphRequestQueue queue(t.graph);  // one lane: strict order
    const int priorities[] = {0, 2, 1, 2, 0};
    std::vector<PathHandle> handles;
    for (const int p : priorities) handles.push_back(queue.submit(GraphRequest{0, 1, {}, p}));
    EXPECT_TRUE(queue.cancel(handles[4]));
    EXPECT_FALSE(queue.cancel(handles[4]));
    std::vector<PathHandle> order;
    for (int frame = 0; frame < 1000 && order.size() < 4; ++frame) {
        (void)queue.update(1);
        for (const PathHandle h : queue.completed()) order.push_back(h);
    }
    const std::vector<PathHandle> expected = {handles[1], handles[3], handles[2], handles[0]};
    EXPECT_EQ(order, expected);
    GraphRequestResult r;
    ASSERT_TRUE(queue.take(handles[1], r));
    const PathHandle reused = queue.submit(GraphRequest{1, 0, {}, 0});
    EXPECT_EQ(reused.index, handles[1].index);  // the freed slot ...
    EXPECT_EQ(queue.state(handles[1]), RequestState::Unknown);  // ... is not reachable by the old handle
    EXPECT_EQ(queue.state(reused), RequestState::Pending);
    EXPECT_EQ(queue.result(handles[1]), nullptr);
}

TEST(HexRequestQueue, ResultsEqualDirectCallsAndMapChangesRestart) {
    std::mt19937 rng(3);
    GridMap map;
    ASSERT_EQ(map.reset(40, 30), GridSizeCheck::Ok);
    for (int y = 0; y < 30; ++y)
        for (int x = 0; x < 40; ++x)
            if (rng() % 4 == 0) (void)map.set_passable({x, y}, false);
    std::vector<GridPoint> free;
    for (int y = 0; y < 30; ++y)
        for (int x = 0; x < 40; ++x)
            if (map.passable({x, y})) free.push_back({x, y});
    QueueOptions qo;
    qo.lanes = 2;
    HexRequestQueue queue(map, qo);
    std::vector<HexRequest> requests;
    std::vector<PathHandle> handles;
    for (int i = 0; i < 24; ++i) {
        HexRequest r;
        r.start = free[rng() % free.size()];
        r.goal = free[rng() % free.size()];
        if (i == 5) r.goal = {-1, 3};  // off the map
        if (i % 4 == 2) r.options.heuristic = HexHeuristic::Zero;
        requests.push_back(r);
        handles.push_back(queue.submit(r));
    }
    // A few frames, then block a cell no request starts or ends on: running searches restart and
    // finished results are searched again on the new map.
    std::vector<HexRequestResult> results(requests.size());
    std::vector<bool> done(requests.size(), false);
    std::size_t taken = 0;
    std::uint32_t restarted = 0, requeued = 0;
    for (int frame = 0; frame < 10000 && taken < requests.size(); ++frame) {
        if (frame == 3) {
            for (const GridPoint p : free) {
                bool used = false;
                for (const HexRequest& r : requests) used = used || r.start == p || r.goal == p;
                if (!used) {
                    (void)map.set_passable(p, false);
                    break;
                }
            }
        }
        const QueueUpdateStats s = queue.update(25);
        EXPECT_LE(s.expanded, 25u);
        restarted += s.restarted;
        requeued += s.requeued;
        if (frame < 3) continue;  // leave early results in the queue so the change re-queues them
        for (std::size_t i = 0; i < handles.size(); ++i) {
            if (done[i] || queue.state(handles[i]) != RequestState::Done) continue;
            ASSERT_TRUE(queue.take(handles[i], results[i]));
            done[i] = true;
            ++taken;
        }
    }
    ASSERT_EQ(taken, requests.size());
    EXPECT_GT(restarted + requeued, 0u);
    HexPathfinder direct;
    GridPath path;
    int found = 0;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        const Status st = direct.find_path(map, requests[i].start, requests[i].goal, requests[i].options, path);
        EXPECT_EQ(results[i].status, st) << i;
        EXPECT_EQ(results[i].limit, direct.budget_limit()) << i;
        EXPECT_EQ(results[i].path.cells, path.cells) << i;
        EXPECT_EQ(results[i].map_version, map.version()) << i;
        EXPECT_GE(results[i].expanded, direct.stats().expanded) << i;  // restarts and re-runs included
        if (st == Status::Found) {
            ++found;
            EXPECT_EQ(results[i].path.cost, path.cost) << i;
        }
    }
    EXPECT_GT(found, 10);
    EXPECT_EQ(results[5].status, Status::InvalidQuery);
}

// Costs painted before every update: a long hex search still finishes (cost changes do not restart it),
// with a path legal on the final map (odd-r neighbours, written here) priced on its final costs.
TEST(HexRequestQueue, CostsPaintedEveryUpdateDoNotHoldSearchesUp) {
    std::mt19937 rng(11);
    for (int trial = 0; trial < 8; ++trial) {
        GridMap map = corner_to_corner_map(rng, 6);
        const GridPoint s{0, 0}, t{39, 39};
        HexRequestQueue queue(map);
        const PathHandle h = queue.submit(HexRequest{s, t, {}, 0});
        int updates = 0;
        for (; updates < 100000 && queue.state(h) != RequestState::Done; ++updates) {
            const GridPoint p{int(rng() % 40), int(rng() % 40)};
            ASSERT_TRUE(map.set_cost(p, 1 + rng() % 9));
            (void)queue.update(3);
        }
        ASSERT_EQ(queue.state(h), RequestState::Done) << "trial " << trial << ": not done after " << updates << " updates";
        const HexRequestResult* result = queue.result(h);
        EXPECT_EQ(result->restarts, 0u);
        EXPECT_EQ(result->map_version, map.version());
        if (result->status == Status::NoPath) continue;
        ASSERT_EQ(result->status, Status::Found);
        const std::vector<GridPoint>& cells = result->path.cells;
        ASSERT_FALSE(cells.empty());
        EXPECT_EQ(cells.front(), s);
        EXPECT_EQ(cells.back(), t);
        double cost = 0;
        for (std::size_t i = 1; i < cells.size(); ++i) {
            EXPECT_TRUE(hex_adjacent(cells[i - 1], cells[i])) << "trial " << trial << " step " << i;
            EXPECT_TRUE(map.passable(cells[i]));
            cost += map.cost(cells[i]);
        }
        EXPECT_DOUBLE_EQ(result->path.cost, cost) << "trial " << trial;
    }
}

// Cells opening and closing before every update, with restart_on_passability_change off: a long hex search
// still finishes, with a path legal on the final map, or no_path only when a hex BFS written here finds none.
TEST(HexRequestQueue, CellsFlappingEveryUpdateNeedNotHoldSearchesUp) {
    const auto reachable = [](const GridMap& map, GridPoint s, GridPoint t) {
        std::vector<char> seen(std::size_t(map.width() * map.height()), 0);
        std::vector<GridPoint> queue{s};
        seen[std::size_t(s.y * map.width() + s.x)] = 1;
        for (std::size_t head = 0; head < queue.size(); ++head) {
            if (queue[head] == t) return true;
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const GridPoint q{queue[head].x + dx, queue[head].y + dy};
                    if (!map.passable(q) || !hex_adjacent(queue[head], q) || seen[std::size_t(q.y * map.width() + q.x)]) continue;
                    seen[std::size_t(q.y * map.width() + q.x)] = 1;
                    queue.push_back(q);
                }
        }
        return false;
    };
    std::mt19937 rng(13);
    int found = 0;
    for (int trial = 0; trial < 8; ++trial) {
        GridMap map = corner_to_corner_map(rng, 5);
        const GridPoint s{0, 0}, t{39, 39};
        QueueOptions options;
        options.restart_on_passability_change = false;
        HexRequestQueue queue(map, options);
        const PathHandle h = queue.submit(HexRequest{s, t, {}, 0});
        int updates = 0;
        for (; updates < 100000 && queue.state(h) != RequestState::Done; ++updates) {
            const GridPoint p{int(rng() % 40), int(rng() % 40)};
            if (p != s && p != t) (void)map.set_passable(p, !map.passable(p));
            (void)queue.update(3);
        }
        ASSERT_EQ(queue.state(h), RequestState::Done) << "trial " << trial << ": not done after " << updates << " updates";
        const HexRequestResult* result = queue.result(h);
        if (result->status == Status::NoPath) {
            EXPECT_FALSE(reachable(map, s, t)) << "trial " << trial;
            continue;
        }
        ASSERT_EQ(result->status, Status::Found);
        ++found;
        const std::vector<GridPoint>& cells = result->path.cells;
        ASSERT_FALSE(cells.empty());
        EXPECT_EQ(cells.front(), s);
        EXPECT_EQ(cells.back(), t);
        for (std::size_t i = 1; i < cells.size(); ++i) {
            EXPECT_TRUE(hex_adjacent(cells[i - 1], cells[i])) << "trial " << trial << " step " << i;
            EXPECT_TRUE(map.passable(cells[i])) << "trial " << trial << " step " << i;
        }
    }
    EXPECT_GE(found, 3);
}
