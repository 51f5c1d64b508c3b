// Shared by the graph fuzz targets: searches a loaded graph in every mode with a small budget.
#pragma once
#include <gameplan/path/graph_search.hpp>

#include <vector>

namespace gameplan::fuzz {
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
