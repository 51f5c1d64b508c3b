// Graphs and GraphPathfinder: A*, Dijkstra, nearest-of-many and distance fields against a reference
// Dijkstra written here (a plain O(V^2) array scan, sharing nothing with the engine).
#include <gameplan/path/graph.hpp>
#include <gameplan/path/graph_search.hpp>

#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

struct RefEdge {
    std::uint32_t from, to;
    double cost;
};

// Reference: the textbook O(V^2) Dijkstra over an edge list, from several sources.
std::vector<double> reference_dijkstra(std::size_t n, const std::vector<RefEdge>& edges, const std::vector<std::uint32_t>& sources) {
    std::vector<double> dist(n, kInf);
    std::vector<bool> done(n, false);
    for (const auto s : sources) dist[s] = 0.0;
    for (;;) {
        std::size_t best = n;
        for (std::size_t i = 0; i < n; ++i)
            if (!done[i] && dist[i] < kInf && (best == n || dist[i] < dist[best])) best = i;
        if (best == n) break;
        done[best] = true;
        for (const RefEdge& e : edges)
            if (e.from == best && dist[best] + e.cost < dist[e.to]) dist[e.to] = dist[best] + e.cost;
    }
    return dist;
}

struct RandomGraph {
    Graph graph;
    std::vector<RefEdge> edges;  // directed arcs as the reference sees them
};

// Random graph: nodes at random positions; arcs cost length * factor (factor >= 1, or arbitrary costs
// when `positions` is false), some undirected, some zero-cost, some self-loops and parallel arcs.
RandomGraph random_graph(std::mt19937& rng, std::size_t n, std::size_t m, bool positions) {
    std::uniform_real_distribution<double> coord(0.0, 100.0), factor(1.0, 3.0), any(0.0, 50.0);
    GraphBuilder b;
    std::vector<GraphPosition> pos(n);
    for (std::size_t i = 0; i < n; ++i) {
        pos[i] = {coord(rng), coord(rng)};
        std::string id = "n";
        id += std::to_string(i);
        const GraphNode got = positions ? b.add_node(id, pos[i].x, pos[i].y) : b.add_node(id);
        EXPECT_EQ(got, i);
    }
    RandomGraph r;
    for (std::size_t k = 0; k < m; ++k) {
        const auto u = static_cast<std::uint32_t>(rng() % n), v = static_cast<std::uint32_t>(rng() % n);
        double cost = positions ? std::hypot(pos[u].x - pos[v].x, pos[u].y - pos[v].y) * factor(rng) : any(rng);
        if (!positions && rng() % 10 == 0) cost = 0.0;
        const bool undirected = rng() % 3 == 0;
        EXPECT_EQ(b.add_edge(u, v, cost, undirected), GraphError::None);
        r.edges.push_back({u, v, cost});
        if (undirected) r.edges.push_back({v, u, cost});
    }
    r.graph = b.build();
    return r;
}

// Checks that `path` is a real route from one of `sources` to `goal` whose arcs add up to its cost.
void expect_valid_path(const Graph& g, const GraphPath& path, GraphNode goal, double expected) {
    ASSERT_FALSE(path.nodes.empty());
    EXPECT_EQ(path.nodes.back(), goal);
    double sum = 0.0;
    for (std::size_t i = 0; i + 1 < path.nodes.size(); ++i) {
        double best = kInf;
        for (const GraphArc& a : g.arcs(path.nodes[i]))
            if (a.to == path.nodes[i + 1]) best = std::min(best, a.cost);
        ASSERT_LT(best, kInf) << "no arc " << path.nodes[i] << " -> " << path.nodes[i + 1];
        sum += best;
    }
    EXPECT_NEAR(sum, path.cost, 1e-9 * (1 + sum));
    EXPECT_NEAR(path.cost, expected, 1e-9 * (1 + expected));
}

}  // namespace

TEST(Graph, BuilderPacksArcsInInsertionOrder) {
    GraphBuilder b;
    const GraphNode a = b.add_node("a"), c = b.add_node("c"), bb = b.add_node("b");
    EXPECT_EQ(b.add_edge(a, c, 2.0), GraphError::None);
    EXPECT_EQ(b.add_edge(bb, a, 1.0, true), GraphError::None);
    EXPECT_EQ(b.add_edge(a, a, 0.0), GraphError::None);
    const Graph g = b.build();
    ASSERT_EQ(g.node_count(), 3u);
    EXPECT_EQ(g.arc_count(), 4u);
    ASSERT_EQ(g.arcs(a).size(), 3u);
    EXPECT_EQ(g.arcs(a)[0].to, c);
    EXPECT_EQ(g.arcs(a)[1].to, bb);
    EXPECT_EQ(g.arcs(a)[2].to, a);
    EXPECT_EQ(g.arcs(c).size(), 0u);
    EXPECT_EQ(g.find("b"), bb);
    EXPECT_EQ(g.find("c"), c);
    EXPECT_EQ(g.find("d"), kNoGraphNode);
    EXPECT_EQ(g.id(bb), "b");
    EXPECT_FALSE(g.has_positions());
    EXPECT_EQ(g.heuristic_scale(), 0.0);
}

TEST(Graph, BuilderRefusesBadInput) {
    GraphBuilder b;
    GraphError e = GraphError::None;
    EXPECT_EQ(b.add_node("a", &e), 0u);
    EXPECT_EQ(b.add_node("a", &e), kNoGraphNode);
    EXPECT_EQ(e, GraphError::DuplicateId);
    EXPECT_EQ(b.add_node("", &e), kNoGraphNode);
    EXPECT_EQ(e, GraphError::EmptyId);
    EXPECT_EQ(b.add_node("p", std::nan(""), 0.0, &e), kNoGraphNode);
    EXPECT_EQ(e, GraphError::InvalidPosition);
    EXPECT_EQ(b.add_node("q", 1.0, 2.0, &e), 1u);
    EXPECT_EQ(b.add_edge(0, 7, 1.0), GraphError::UnknownNode);
    EXPECT_EQ(b.add_edge(0, 1, -1.0), GraphError::InvalidCost);
    EXPECT_EQ(b.add_edge(0, 1, std::nan("")), GraphError::InvalidCost);
    EXPECT_EQ(b.add_edge(0, 1, kInf), GraphError::InvalidCost);
    EXPECT_EQ(b.add_edge(0, 1), GraphError::NoPosition);
    EXPECT_EQ(b.arc_count(), 0u);
}

TEST(Graph, HeuristicScaleIsTheSmallestCostPerLength) {
    GraphBuilder b;
    const GraphNode a = b.add_node("a", 0, 0), c = b.add_node("c", 3, 4), d = b.add_node("d", 3, 4);
    EXPECT_EQ(b.add_edge(a, c, 10.0), GraphError::None);  // 2 per unit
    EXPECT_EQ(b.add_edge(c, a, 7.5), GraphError::None);   // 1.5 per unit
    EXPECT_EQ(b.add_edge(c, d, 0.0), GraphError::None);   // coincident: ignored
    EXPECT_EQ(b.add_edge(a, d), GraphError::None);        // Euclidean: 1 per unit... but it is the lowest
    const Graph g = b.build();
    ASSERT_TRUE(g.has_positions());
    EXPECT_NEAR(g.heuristic_scale(), 1.0, 1e-9);
    EXPECT_LE(g.heuristic_scale(), 1.0);
    EXPECT_DOUBLE_EQ(g.arcs(a)[1].cost, 5.0);
}

TEST(GraphSearch, AStarAndDijkstraMatchReferenceOnRandomGraphs) {
    std::mt19937 rng(12);
    GraphPathfinder finder;
    GraphPath path;
    int found = 0, unreachable = 0;
    for (int round = 0; round < 60; ++round) {
        const bool positions = round % 2 == 0;
        const std::size_t n = 2 + rng() % 120;
        const RandomGraph r = random_graph(rng, n, n * (1 + rng() % 4), positions);
        for (int q = 0; q < 20; ++q) {
            const auto s = static_cast<GraphNode>(rng() % n), t = static_cast<GraphNode>(rng() % n);
            const std::vector<double> ref = reference_dijkstra(n, r.edges, {s});
            for (const GraphHeuristic h : {GraphHeuristic::Auto, GraphHeuristic::Zero}) {
                GraphSearchOptions options;
                options.heuristic = h;
                const Status st = finder.find_path(r.graph, s, t, options, path);
                if (ref[t] == kInf) {
                    EXPECT_EQ(st, Status::NoPath);
                    EXPECT_TRUE(path.nodes.empty());
                    EXPECT_EQ(finder.cost(), kInf);
                    ++unreachable;
                    continue;
                }
                ASSERT_EQ(st, Status::Found) << "round " << round << " query " << q;
                EXPECT_EQ(path.nodes.front(), s);
                expect_valid_path(r.graph, path, t, ref[t]);
                EXPECT_EQ(finder.goal_reached(), t);
                EXPECT_EQ(finder.stats().reopened, 0u);  // consistent heuristic
                ++found;
            }
        }
    }
    EXPECT_GT(found, 500);
    EXPECT_GT(unreachable, 20);
}

TEST(GraphSearch, HeuristicIsAdmissibleAndExpandsLess) {
    std::mt19937 rng(5);
    GraphPathfinder finder;
    GraphPath path;
    std::uint64_t astar = 0, dijkstra = 0;
    for (int round = 0; round < 20; ++round) {
        const std::size_t n = 200;
        const RandomGraph r = random_graph(rng, n, 800, true);
        const auto t = static_cast<GraphNode>(rng() % n);
        // Exact distance of every node to t: reference Dijkstra on the reversed edges.
        std::vector<RefEdge> rev;
        for (const RefEdge& e : r.edges) rev.push_back({e.to, e.from, e.cost});
        const std::vector<double> to_t = reference_dijkstra(n, rev, {t});
        const GraphPosition pt = r.graph.position(t);
        for (GraphNode v = 0; v < n; ++v) {
            const GraphPosition pv = r.graph.position(v);
            EXPECT_LE(r.graph.heuristic_scale() * std::hypot(pv.x - pt.x, pv.y - pt.y), to_t[v] + 1e-9);
        }
        for (int q = 0; q < 10; ++q) {
            const auto s = static_cast<GraphNode>(rng() % n);
            if (to_t[s] == kInf) continue;
            GraphSearchOptions o;
            ASSERT_EQ(finder.find_path(r.graph, s, t, o, path), Status::Found);
            astar += finder.stats().expanded;
            o.heuristic = GraphHeuristic::Zero;
            ASSERT_EQ(finder.find_path(r.graph, s, t, o, path), Status::Found);
            dijkstra += finder.stats().expanded;
        }
    }
    EXPECT_LT(astar, dijkstra);
}

TEST(GraphSearch, NearestOfManyAndDistanceFields) {
    std::mt19937 rng(77);
    GraphPathfinder finder;
    GraphPath path;
    std::vector<double> field;
    for (int round = 0; round < 30; ++round) {
        const std::size_t n = 5 + rng() % 80;
        const RandomGraph r = random_graph(rng, n, n * 3, round % 2 == 0);
        std::vector<GraphNode> sources, goals;
        for (std::size_t k = 1 + rng() % 3; k > 0; --k) sources.push_back(static_cast<GraphNode>(rng() % n));
        for (std::size_t k = 1 + rng() % 20; k > 0; --k) goals.push_back(static_cast<GraphNode>(rng() % n));
        const std::vector<double> ref = reference_dijkstra(n, r.edges, sources);
        double nearest = kInf;
        for (const GraphNode t : goals) nearest = std::min(nearest, ref[t]);
        const Status st = finder.begin(r.graph, sources, goals);
        ASSERT_EQ(st, Status::InProgress);
        const Status done = finder.step();
        (void)finder.finish(path);
        if (nearest == kInf) {
            EXPECT_EQ(done, Status::NoPath);
        } else {
            ASSERT_EQ(done, Status::Found);
            const GraphNode g = finder.goal_reached();
            EXPECT_NE(std::find(goals.begin(), goals.end(), g), goals.end());
            EXPECT_NE(std::find(sources.begin(), sources.end(), path.nodes.front()), sources.end());
            expect_valid_path(r.graph, path, g, nearest);
        }
        // Flood: a distance field from the sources equals the reference everywhere.
        ASSERT_EQ(distance_field(r.graph, sources, finder, field), Status::NoPath);
        for (GraphNode v = 0; v < n; ++v) {
            if (ref[v] == kInf) {
                EXPECT_EQ(field[v], kInf);
            } else {
                EXPECT_NEAR(field[v], ref[v], 1e-9 * (1 + ref[v]));
            }
            if (ref[v] < kInf) {
                const GraphNode p = finder.parent(v);
                ASSERT_NE(p, kNoGraphNode);
                if (p == v) {
                    EXPECT_EQ(ref[v], 0.0);
                }
            }
        }
        // The reversed graph gives distances *to* a node.
        const Graph rev = r.graph.reversed();
        std::vector<RefEdge> rev_edges;
        for (const RefEdge& e : r.edges) rev_edges.push_back({e.to, e.from, e.cost});
        const std::vector<double> to_ref = reference_dijkstra(n, rev_edges, {goals[0]});
        ASSERT_EQ(distance_field(rev, std::span<const GraphNode>(&goals[0], 1), finder, field), Status::NoPath);
        for (GraphNode v = 0; v < n; ++v) EXPECT_EQ(field[v] == kInf, to_ref[v] == kInf);
        for (GraphNode v = 0; v < n; ++v)
            if (to_ref[v] < kInf) {
                EXPECT_NEAR(field[v], to_ref[v], 1e-9 * (1 + to_ref[v]));
            }
    }
}

TEST(GraphSearch, SlicedSearchEqualsOneShot) {
    std::mt19937 rng(9);
    const RandomGraph r = random_graph(rng, 300, 1200, true);
    GraphPathfinder a, b;
    GraphPath pa, pb;
    for (int q = 0; q < 30; ++q) {
        const auto s = static_cast<GraphNode>(rng() % 300), t = static_cast<GraphNode>(rng() % 300);
        const Status one = a.find_path(r.graph, s, t, {}, pa);
        Status st = b.begin(r.graph, s, t);
        int slices = 0;
        while (st == Status::InProgress) {
            st = b.step(3);
            ++slices;
        }
        EXPECT_EQ(st, one);
        EXPECT_EQ(b.finish(pb), one);
        EXPECT_EQ(pa.nodes, pb.nodes);
        EXPECT_EQ(a.stats().expanded, b.stats().expanded);
        EXPECT_GE(static_cast<std::uint64_t>(slices) * 3, b.stats().expanded);
    }
}

TEST(GraphSearch, BudgetWeightAndInvalidQueries) {
    std::mt19937 rng(3);
    const RandomGraph r = random_graph(rng, 400, 2400, true);
    const std::vector<double> ref = reference_dijkstra(400, r.edges, {0});
    GraphNode far = 0;
    for (GraphNode v = 0; v < 400; ++v)
        if (ref[v] < kInf && ref[v] > ref[far]) far = v;
    GraphPathfinder finder;
    GraphPath path;
    GraphSearchOptions o;
    o.budget.max_expansions = 3;
    EXPECT_EQ(finder.find_path(r.graph, 0, far, o, path), Status::BudgetExhausted);
    EXPECT_TRUE(path.nodes.empty());
    EXPECT_LE(finder.stats().expanded, 3u);
    o.budget = {};
    o.weight = 2.5;
    ASSERT_EQ(finder.find_path(r.graph, 0, far, o, path), Status::Found);
    EXPECT_LE(path.cost, 2.5 * ref[far] + 1e-9);
    EXPECT_GE(path.cost, ref[far] - 1e-9);
    o.weight = 0.5;
    EXPECT_EQ(finder.find_path(r.graph, 0, far, o, path), Status::InvalidQuery);
    o.weight = std::nan("");
    EXPECT_EQ(finder.find_path(r.graph, 0, far, o, path), Status::InvalidQuery);
    o.weight = 1.0;
    EXPECT_EQ(finder.find_path(r.graph, 0, 400, o, path), Status::InvalidQuery);
    EXPECT_EQ(finder.find_path(r.graph, 400, 0, o, path), Status::InvalidQuery);
    EXPECT_FALSE(finder.reached(0));
    EXPECT_EQ(finder.begin(r.graph, std::span<const GraphNode>{}, std::span<const GraphNode>{}), Status::InvalidQuery);
    // start == goal
    ASSERT_EQ(finder.find_path(r.graph, 7, 7, o, path), Status::Found);
    EXPECT_EQ(path.nodes, std::vector<GraphNode>{7});
    EXPECT_EQ(path.cost, 0.0);
    // an empty graph
    const Graph empty;
    EXPECT_EQ(finder.find_path(empty, 0, 0, o, path), Status::InvalidQuery);
}

namespace {
Status run_sliced(GraphPathfinder& finder, const Graph& graph, std::span<const GraphNode> sources,
                  std::span<const GraphNode> goals, const GraphSearchOptions& options, GraphPath& path) {
    Status status = finder.begin(graph, sources, goals, options);
    while (status == Status::InProgress) status = finder.step(7);
    EXPECT_EQ(finder.status(), status);
    EXPECT_EQ(finder.finish(path), status);
    return status;
}
}  // namespace

// A memory budget caps what the pathfinder holds (memory_bytes(): the engine's arrays and open list, the
// goal marks of a query with several goals): a fresh pathfinder under a budget the query does not fit in
// stops with Memory without growing past it, a large enough budget changes nothing, and the storage held
// from an earlier query counts (one byte less than it stops a query at once).
TEST(GraphSearch, MemoryBudgetCapsWhatThePathfinderHolds) {
    std::mt19937 rng(19);
    const RandomGraph r = random_graph(rng, 3000, 9000, true);
    int queries = 0, stopped = 0;
    while (queries < 4) {
        const bool several = queries % 2 == 1;  // several goals: the goal marks count too
        const auto pick = [&] { return static_cast<GraphNode>(rng() % 3000); };
        std::vector<GraphNode> sources{pick()}, goals{pick()};
        if (several) {
            sources.push_back(pick());
            goals.push_back(pick());
            goals.push_back(pick());
        }
        GraphPathfinder unlimited;
        GraphPath path;
        if (run_sliced(unlimited, r.graph, sources, goals, {}, path) != Status::Found || unlimited.stats().expanded < 100)
            continue;
        ++queries;
        const double cost = path.cost;
        const std::size_t held = unlimited.memory_bytes();
        bool through = false;
        for (std::size_t limit = 64; limit < 4 * held; limit = limit * 5 / 4) {
            SCOPED_TRACE("limit " + std::to_string(limit) + (several ? ", several goals" : ""));
            GraphPathfinder fresh;
            GraphSearchOptions options;
            options.budget.max_memory_bytes = limit;
            const Status status = run_sliced(fresh, r.graph, sources, goals, options, path);
            EXPECT_LE(fresh.memory_bytes(), limit) << "the pathfinder grew past its budget";
            if (status == Status::BudgetExhausted) {
                ++stopped;
                EXPECT_FALSE(through) << "a budget stopped a query a smaller one let through";
                EXPECT_EQ(fresh.budget_limit(), search::BudgetLimit::Memory);
                EXPECT_TRUE(path.nodes.empty());
                continue;
            }
            ASSERT_EQ(status, Status::Found);
            through = true;
            EXPECT_EQ(fresh.budget_limit(), search::BudgetLimit::None);
            EXPECT_EQ(path.cost, cost);
        }
        EXPECT_TRUE(through) << "four times what the query holds did not let it through";
        // What the pathfinder holds counts: a budget of exactly that lets the same query through without
        // growing, one byte less stops this query and a one-node one at once.
        GraphSearchOptions options;
        options.budget.max_memory_bytes = held;
        EXPECT_EQ(run_sliced(unlimited, r.graph, sources, goals, options, path), Status::Found);
        EXPECT_EQ(path.cost, cost);
        EXPECT_EQ(unlimited.memory_bytes(), held);
        options.budget.max_memory_bytes = held - 1;
        EXPECT_EQ(unlimited.begin(r.graph, sources, goals, options), Status::BudgetExhausted);
        EXPECT_EQ(unlimited.status(), Status::BudgetExhausted);
        EXPECT_EQ(unlimited.budget_limit(), search::BudgetLimit::Memory);
        EXPECT_EQ(unlimited.stats().expanded, 0u);
        EXPECT_FALSE(unlimited.reached(sources[0])) << "the previous search was not forgotten";
        EXPECT_EQ(unlimited.finish(path), Status::BudgetExhausted);
        EXPECT_TRUE(path.nodes.empty());
        EXPECT_EQ(unlimited.find_path(r.graph, sources[0], sources[0], options, path), Status::BudgetExhausted);
        EXPECT_EQ(unlimited.budget_limit(), search::BudgetLimit::Memory);
        EXPECT_EQ(unlimited.memory_bytes(), held);
        std::vector<double> field;
        EXPECT_EQ(distance_field(r.graph, sources, unlimited, field, options.budget), Status::BudgetExhausted);
        EXPECT_EQ(unlimited.budget_limit(), search::BudgetLimit::Memory);
    }
    EXPECT_GT(stopped, 4 * 10);
}

// budget_limit() names the limit that ended the search, and is None otherwise.
TEST(GraphSearch, BudgetLimitNamesTheLimit) {
    std::mt19937 rng(5);
    const RandomGraph r = random_graph(rng, 400, 2400, true);
    const std::vector<double> ref = reference_dijkstra(400, r.edges, {0});
    GraphNode far = 0;
    for (GraphNode v = 0; v < 400; ++v)
        if (ref[v] < kInf && ref[v] > ref[far]) far = v;
    ASSERT_NE(far, 0u);
    GraphPathfinder finder;
    GraphPath path;
    GraphSearchOptions o;
    o.budget.max_expansions = 2;
    EXPECT_EQ(finder.find_path(r.graph, 0, far, o, path), Status::BudgetExhausted);
    EXPECT_EQ(finder.budget_limit(), search::BudgetLimit::Expansions);
    o.budget = {};
    o.budget.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    EXPECT_EQ(finder.find_path(r.graph, 0, far, o, path), Status::BudgetExhausted);
    EXPECT_EQ(finder.budget_limit(), search::BudgetLimit::Time);
    o.budget = {};
    EXPECT_EQ(finder.find_path(r.graph, 0, far, o, path), Status::Found);
    EXPECT_EQ(finder.budget_limit(), search::BudgetLimit::None);
    o.budget.max_memory_bytes = 0;
    EXPECT_EQ(finder.find_path(r.graph, 0, far, o, path), Status::BudgetExhausted);
    EXPECT_EQ(finder.budget_limit(), search::BudgetLimit::Memory);
    EXPECT_EQ(finder.find_path(r.graph, 0, 400, o, path), Status::InvalidQuery);  // validity first
    EXPECT_EQ(finder.budget_limit(), search::BudgetLimit::None);
}
