// Proves "no heap allocation per query after warm-up" for GraphPathfinder: single queries (A* and
// Dijkstra), nearest of many, sliced searches and distance fields, with the counting operator new.
#include <gameplan/path/graph.hpp>
#include <gameplan/path/graph_search.hpp>

#include <alloc_counter.hpp>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;

TEST(GraphAlloc, QueriesAllocateNothingAfterWarmUp) {
    std::mt19937 rng(21);
    GraphBuilder b;
    std::vector<GraphPosition> pos;
    for (int i = 0; i < 2000; ++i) {
        pos.push_back({double(rng() % 1000), double(rng() % 1000)});
        std::string id = "w";
        id += std::to_string(i);
        (void)b.add_node(id, pos.back().x, pos.back().y);
    }
    for (int k = 0; k < 8000; ++k) {
        const auto u = static_cast<GraphNode>(rng() % 2000), v = static_cast<GraphNode>(rng() % 2000);
        ASSERT_EQ(b.add_edge(u, v, true), GraphError::None);
    }
    const Graph graph = b.build();
    std::vector<GraphNode> ends;
    for (int i = 0; i < 100; ++i) ends.push_back(static_cast<GraphNode>(rng() % 2000));
    const std::vector<GraphNode> goals(ends.begin(), ends.begin() + 12);
    GraphPathfinder finder;
    GraphPath path;
    std::vector<double> field;
    const auto run_all = [&] {
        std::uint64_t found = 0;
        for (std::size_t i = 0; i + 1 < ends.size(); ++i) {
            GraphSearchOptions o;
            o.heuristic = i % 2 ? GraphHeuristic::Zero : GraphHeuristic::Auto;
            found += finder.find_path(graph, ends[i], ends[i + 1], o, path) == Status::Found;
        }
        for (std::size_t i = 0; i + 2 < ends.size(); i += 7) {
            Status st = finder.begin(graph, std::span<const GraphNode>(&ends[i], 2), goals);
            while (st == Status::InProgress) st = finder.step(50);
            found += finder.finish(path) == Status::Found;
        }
        (void)distance_field(graph, std::span<const GraphNode>(&ends[0], 3), finder, field);
        return found;
    };
    const std::uint64_t warm = run_all();  // warm-up: state, heap and output buffers grow here
    EXPECT_GT(warm, 50u);
    test::AllocationScope scope;
    const std::uint64_t again = run_all();
    EXPECT_EQ(scope.count(), 0u);
    EXPECT_EQ(again, warm);
}
