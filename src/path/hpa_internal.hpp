#pragma once
// Private scratch state of HierarchicalMap (build / update buffers) shared by the hpa_*.cpp files.
#include <gameplan/path/hpa.hpp>

#include "cluster_flood.hpp"

#include <array>
#include <utility>
#include <vector>

namespace gameplan::path {

struct HierarchicalMap::Impl {
    detail::ClusterFlood flood;              // in-cluster Dijkstra
    std::vector<std::uint32_t> targets;      // local ids of the cluster's nodes
    std::vector<std::uint32_t> cells;        // node cells of the cluster being assigned
    std::vector<double> dist;                // k x k in-cluster distances
    std::vector<std::uint32_t> path_begin;   // k x k offsets into pool
    std::vector<std::uint32_t> path_length;  // k x k step counts
    std::vector<std::uint8_t> pool;          // direction codes of all k x k paths
    std::vector<std::pair<std::uint32_t, std::uint32_t>> inter;  // (slot, target cell)
    std::array<std::vector<Transition>, 4> before;               // transition lists before a rescan
    std::vector<std::uint32_t> dirty;                            // clusters to rebuild
};

}  // namespace gameplan::path
