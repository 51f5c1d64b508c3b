// Proves "no heap allocation after warm-up" for GraphRequestQueue and HexRequestQueue: submitting,
// updating and taking (into the same result objects) allocate nothing once the queue is reserved and
// the pathfinders have grown, with the counting operator new.
#include <gameplan/path/graph.hpp>
#include <gameplan/path/hex_grid.hpp>
#include <gameplan/path/request_queue_graph.hpp>

#include <alloc_counter.hpp>

#include "queue_round.hpp"

#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;

TEST(RequestQueueGraphAlloc, GraphAndHexQueuesAllocateNothingAfterWarmUp) {
    std::mt19937 rng(4);
    GraphBuilder b;
    for (int i = 0; i < 500; ++i) (void)b.add_node("n" + std::to_string(i), double(rng() % 200), double(rng() % 200));
    for (int k = 0; k < 2000; ++k)
        ASSERT_EQ(b.add_edge(GraphNode(rng() % 500), GraphNode(rng() % 500), true), GraphError::None);
    const Graph graph = b.build();
    std::vector<GraphRequest> graph_requests;
    for (int i = 0; i < 40; ++i)
        graph_requests.push_back(GraphRequest{GraphNode(rng() % 500), GraphNode(rng() % 500), {}, int(rng() % 3)});
    QueueOptions qo;
    qo.lanes = 3;
    GraphRequestQueue graph_queue(graph, qo);
    graph_queue.reserve(graph_requests.size(), 600);
    std::vector<GraphRequestResult> graph_out(5);
    for (auto& r : graph_out) r.path.nodes.reserve(600);

    GridMap map;
    ASSERT_EQ(map.reset(64, 64), GridSizeCheck::Ok);
    for (int k = 0; k < 800; ++k) (void)map.set_passable({int(rng() % 64), int(rng() % 64)}, false);
    std::vector<HexRequest> hex_requests;
    while (hex_requests.size() < 40) {
        const GridPoint s{int(rng() % 64), int(rng() % 64)}, g{int(rng() % 64), int(rng() % 64)};
        if (map.passable(s) && map.passable(g)) hex_requests.push_back(HexRequest{s, g, {}, 0});
    }
    HexRequestQueue hex_queue(map, qo);
    hex_queue.reserve(hex_requests.size(), 4096);
    std::vector<HexRequestResult> hex_out(5);
    for (auto& r : hex_out) r.path.cells.reserve(4096);

    const std::uint64_t warm_graph = test::run_queue_round(graph_queue, graph_requests, graph_out, 64);
    const std::uint64_t warm_hex = test::run_queue_round(hex_queue, hex_requests, hex_out, 64);
    EXPECT_GT(warm_graph, 20u);
    EXPECT_GT(warm_hex, 20u);
    test::AllocationScope scope;
    const std::uint64_t graph_again = test::run_queue_round(graph_queue, graph_requests, graph_out, 64);
    const std::uint64_t hex_again = test::run_queue_round(hex_queue, hex_requests, hex_out, 64);
    EXPECT_EQ(scope.count(), 0u);
    EXPECT_EQ(graph_again, warm_graph);
    EXPECT_EQ(hex_again, warm_hex);
}
