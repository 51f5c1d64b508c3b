// Graph search: GraphPathfinder on the shared MovingAI maps turned into graphs (every free cell a node
// at its centre, 8-connected without corner cutting, costs 1 and sqrt 2: the same optimum as the grid),
// next to the specialised grid A* on the same scenarios; the same maps read as hex maps; and a random
// geometric graph.
//
//   build/bench/bench_graph --benchmark_min_time=0.1
//
// Counters: us_per_query, expanded_per_query, cost_checksum (the grid and graph rows of one map must
// agree), and for the build rows the graph's size.
#include "shared_scenarios.hpp"

#include <gameplan/io/movingai.hpp>
#include <gameplan/path/graph.hpp>
#include <gameplan/path/graph_search.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/hex_grid.hpp>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cmath>
#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace gameplan;

namespace {

constexpr std::size_t kSample = 64;

std::vector<std::unique_ptr<bench::MapCase>>& cases() {
    static std::vector<std::unique_ptr<bench::MapCase>> all;
    return all;
}

// The grid as a graph: node per free cell (id "x,y", position the cell centre), 8-connected arcs with
// the grids' no-corner-cutting rule (a diagonal needs both orthogonal neighbours free).
path::Graph grid_graph(const path::GridMap& map, std::vector<path::GraphNode>& node_of_cell) {
    path::GraphBuilder b;
    node_of_cell.assign(std::size_t(map.width()) * std::size_t(map.height()), path::kNoGraphNode);
    const auto cell = [&](std::int32_t x, std::int32_t y) { return std::size_t(y) * std::size_t(map.width()) + std::size_t(x); };
    const auto free = [&](std::int32_t x, std::int32_t y) { return map.contains(x, y) && map.passable({x, y}); };
    std::string id;
    for (std::int32_t y = 0; y < map.height(); ++y)
        for (std::int32_t x = 0; x < map.width(); ++x)
            if (free(x, y)) {
                id = std::to_string(x);
                id += ',';
                id += std::to_string(y);
                node_of_cell[cell(x, y)] = b.add_node(id, x + 0.5, y + 0.5);
            }
    for (std::int32_t y = 0; y < map.height(); ++y)
        for (std::int32_t x = 0; x < map.width(); ++x) {
            if (!free(x, y)) continue;
            for (std::int32_t dy = -1; dy <= 1; ++dy)
                for (std::int32_t dx = -1; dx <= 1; ++dx) {
                    if ((dx == 0 && dy == 0) || !free(x + dx, y + dy)) continue;
                    if (dx != 0 && dy != 0 && !(free(x + dx, y) && free(x, y + dy))) continue;
                    (void)b.add_edge(node_of_cell[cell(x, y)], node_of_cell[cell(x + dx, y + dy)],
                                     dx != 0 && dy != 0 ? std::sqrt(2.0) : 1.0);
                }
        }
    return b.build();
}

struct GraphCase {
    const bench::MapCase* map_case;
    path::Graph graph;
    std::vector<path::GraphNode> node_of_cell;
};

std::vector<std::unique_ptr<GraphCase>>& graph_cases() {
    static std::vector<std::unique_ptr<GraphCase>> all;
    return all;
}

template <class Query>
void run(benchmark::State& state, const bench::MapCase& c, Query&& query) {
    std::uint64_t expansions = 0, queries = 0;
    double checksum = 0;
    for (const auto& s : c.sample) checksum += query(s).first;  // warm-up, and the result checksum
    const auto t0 = std::chrono::steady_clock::now();
    for (auto _ : state)
        for (const auto& s : c.sample) {
            const auto [cost, expanded] = query(s);
            benchmark::DoNotOptimize(cost);
            expansions += expanded;
            ++queries;
        }
    const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    state.counters["us_per_query"] = ns / 1000.0 / double(queries);
    state.counters["expanded_per_query"] = double(expansions) / double(queries);
    state.counters["cost_checksum"] = checksum;
}

void bm_grid_astar(benchmark::State& state, const GraphCase* g) {
    path::GridPathfinder finder;
    finder.reserve(g->map_case->map);
    path::GridPath out;
    run(state, *g->map_case, [&](const io::Scenario& s) {
        if (finder.find_path(g->map_case->map, s.start, s.goal, {}, out) != Status::Found) state.SkipWithError("no path");
        return std::pair{out.cost, finder.stats().expanded};
    });
}

void bm_graph(benchmark::State& state, const GraphCase* g, path::GraphHeuristic heuristic) {
    path::GraphPathfinder finder;
    finder.reserve(g->graph);
    path::GraphPath out;
    path::GraphSearchOptions options;
    options.heuristic = heuristic;
    const std::int32_t w = g->map_case->map.width();
    const auto node = [&](path::GridPoint p) { return g->node_of_cell[std::size_t(p.y) * std::size_t(w) + std::size_t(p.x)]; };
    run(state, *g->map_case, [&](const io::Scenario& s) {
        if (finder.find_path(g->graph, node(s.start), node(s.goal), options, out) != Status::Found) state.SkipWithError("no path");
        return std::pair{out.cost, finder.stats().expanded};
    });
}

// The same map read as a hex map (odd-r rows), the same scenario endpoints (hex costs differ from the
// octile optimum; endpoints a hex walk cannot connect count as queries with no path).
void bm_hex(benchmark::State& state, const bench::MapCase* c, path::HexHeuristic heuristic) {
    path::HexPathfinder finder;
    finder.reserve(c->map);
    path::GridPath out;
    path::HexSearchOptions options;
    options.heuristic = heuristic;
    run(state, *c, [&](const io::Scenario& s) {
        const Status st = finder.find_path(c->map, s.start, s.goal, options, out);
        return std::pair{st == Status::Found ? out.cost : 0.0, finder.stats().expanded};
    });
}

void bm_build(benchmark::State& state, const bench::MapCase* c) {
    std::vector<path::GraphNode> node_of_cell;
    path::Graph g;
    for (auto _ : state) {
        g = grid_graph(c->map, node_of_cell);
        benchmark::DoNotOptimize(g.arc_count());
    }
    state.counters["nodes"] = double(g.node_count());
    state.counters["arcs"] = double(g.arc_count());
    state.counters["MB"] = double(g.memory_bytes()) / 1e6;
}

// A random geometric graph: n points in a square, each joined to the points within radius r (about 8
// neighbours each), costs the distance times a random factor in [1, 2).
struct Geometric {
    path::Graph graph;
    std::vector<std::pair<path::GraphNode, path::GraphNode>> queries;
};

const Geometric& geometric() {
    static const Geometric built = [] {
    Geometric out;
    const std::size_t n = 100000;
    const double side = 1000.0, r = side * std::sqrt(8.0 / (3.14159265 * double(n)));
    std::mt19937 rng(1);
    std::uniform_real_distribution<double> u(0.0, side), f(1.0, 2.0);
    const auto buckets = static_cast<std::size_t>(side / r) + 1;
    std::vector<std::vector<path::GraphNode>> grid(buckets * buckets);
    std::vector<path::GraphPosition> pos(n);
    path::GraphBuilder b;
    for (std::size_t i = 0; i < n; ++i) {
        pos[i] = {u(rng), u(rng)};
        (void)b.add_node(std::to_string(i), pos[i].x, pos[i].y);
        grid[std::size_t(pos[i].y / r) * buckets + std::size_t(pos[i].x / r)].push_back(path::GraphNode(i));
    }
    for (std::size_t i = 0; i < n; ++i) {
        const auto bx = std::size_t(pos[i].x / r), by = std::size_t(pos[i].y / r);
        for (std::size_t y = by ? by - 1 : 0; y <= std::min(buckets - 1, by + 1); ++y)
            for (std::size_t x = bx ? bx - 1 : 0; x <= std::min(buckets - 1, bx + 1); ++x)
                for (const path::GraphNode j : grid[y * buckets + x]) {
                    const double d = std::hypot(pos[i].x - pos[j].x, pos[i].y - pos[j].y);
                    if (j > i && d <= r) (void)b.add_edge(path::GraphNode(i), j, d * f(rng), true);
                }
    }
    out.graph = b.build();
    for (int q = 0; q < 64; ++q) out.queries.emplace_back(path::GraphNode(rng() % n), path::GraphNode(rng() % n));
    return out;
    }();
    return built;
}

void bm_geometric(benchmark::State& state, path::GraphHeuristic heuristic) {
    const path::Graph& g = geometric().graph;
    const auto& queries = geometric().queries;
    path::GraphPathfinder finder;
    finder.reserve(g);
    path::GraphPath out;
    path::GraphSearchOptions options;
    options.heuristic = heuristic;
    double checksum = 0;
    for (const auto& [s, t] : queries)
        if (finder.find_path(g, s, t, options, out) == Status::Found) checksum += out.cost;
    std::uint64_t expansions = 0, count = 0;
    const auto t0 = std::chrono::steady_clock::now();
    for (auto _ : state)
        for (const auto& [s, t] : queries) {
            benchmark::DoNotOptimize(finder.find_path(g, s, t, options, out));
            expansions += finder.stats().expanded;
            ++count;
        }
    const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    state.counters["us_per_query"] = ns / 1000.0 / double(count);
    state.counters["expanded_per_query"] = double(expansions) / double(count);
    state.counters["cost_checksum"] = checksum;
    state.counters["arcs"] = double(g.arc_count());
}

}  // namespace

int main(int argc, char** argv) {
    bench::load_shared_cases(cases(), kSample, "bench_graph");
    for (const auto& c : cases()) {
        auto g = std::make_unique<GraphCase>();
        g->map_case = c.get();
        g->graph = grid_graph(c->map, g->node_of_cell);
        graph_cases().push_back(std::move(g));
    }
    for (const auto& g : graph_cases()) {
        const std::string name = g->map_case->name;
        benchmark::RegisterBenchmark(("grid_astar/" + name).c_str(), bm_grid_astar, g.get())->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("graph_astar/" + name).c_str(), bm_graph, g.get(), path::GraphHeuristic::Auto)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("graph_dijkstra/" + name).c_str(), bm_graph, g.get(), path::GraphHeuristic::Zero)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("graph_build/" + name).c_str(), bm_build, g->map_case)->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("hex_astar/" + name).c_str(), bm_hex, g->map_case, path::HexHeuristic::Auto)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("hex_dijkstra/" + name).c_str(), bm_hex, g->map_case, path::HexHeuristic::Zero)
            ->Unit(benchmark::kMillisecond);
    }
    benchmark::RegisterBenchmark("geometric_100k/astar", bm_geometric, path::GraphHeuristic::Auto)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("geometric_100k/dijkstra", bm_geometric, path::GraphHeuristic::Zero)->Unit(benchmark::kMillisecond);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
