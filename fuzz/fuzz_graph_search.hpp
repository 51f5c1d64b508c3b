// Shared by the graph fuzz targets: searches a loaded graph in every mode with a small budget, and writes it
// in both formats and reads it back (the arcs must come back the same, costs to the bit).
#pragma once
#include <gameplan/io/graph_io.hpp>
#include <gameplan/path/graph_search.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <tuple>
#include <vector>

namespace gameplan::fuzz {
// Every arc by ids and cost bits, sorted: what a written-and-read graph must give back.
inline std::vector<std::tuple<std::string, std::string, std::uint64_t>> arcs_by_id(const path::Graph& g) {
    std::vector<std::tuple<std::string, std::string, std::uint64_t>> out;
    for (path::GraphNode u = 0; u < g.node_count(); ++u)
        for (const path::GraphArc& a : g.arcs(u)) out.emplace_back(g.id(u), g.id(a.to), std::bit_cast<std::uint64_t>(a.cost));
    std::sort(out.begin(), out.end());
    return out;
}

inline void write_and_read_back(const path::Graph& graph) try {
    const auto arcs = arcs_by_id(graph);
    const path::Graph json = io::parse_graph_json(io::write_graph_json(graph), "written.json");
    if (json.node_count() != graph.node_count() || json.has_positions() != graph.has_positions() || arcs_by_id(json) != arcs)
        std::abort();
    for (path::GraphNode n = 0; n < graph.node_count(); ++n)
        if (json.id(n) != graph.id(n) || (graph.has_positions() && !(json.position(n) == graph.position(n)))) std::abort();
    if (arcs_by_id(io::parse_graph_csv(io::write_graph_csv(graph), "written.csv")) != arcs) std::abort();
} catch (...) {
    std::abort();  // what the writers write, the readers must read
}

inline void search_graph(const path::Graph& graph) {
    using namespace gameplan::path;
    const auto n = static_cast<GraphNode>(graph.node_count());
    GraphPathfinder finder;
    GraphPath out;
    GraphSearchOptions options;
    options.budget.max_expansions = 2000;
    if (n == 0) {
        (void)finder.find_path(graph, 0, 0, options, out);
        return;
    }
    const GraphNode ends[] = {0, n - 1, n / 2};
    for (const GraphNode a : ends)
        for (const GraphNode b : ends) {
            (void)finder.find_path(graph, a, b, options, out);
            options.heuristic = options.heuristic == GraphHeuristic::Auto ? GraphHeuristic::Zero : GraphHeuristic::Auto;
        }
    (void)finder.begin(graph, std::span<const GraphNode>(ends, 2), std::span<const GraphNode>(ends + 1, 2), options);
    (void)finder.step();
    (void)finder.finish(out);
    std::vector<double> field;
    (void)distance_field(graph, std::span<const GraphNode>(ends, 1), finder, field, options.budget);
    (void)graph.reversed();
}
}  // namespace gameplan::fuzz
