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
    std::uint32_t involved[25] = {};                             // clusters near the changed cell
    std::size_t involved_count = 0;

    // The prices the floods, the abstract edges and refinement use: the cost profile's, else the map's.
    [[nodiscard]] static detail::CellCosts costs(const HierarchicalMap& h, const GridMap& map) noexcept {
        if (!h.m_profiled) return detail::plain_costs(map);
        detail::CellCosts c;
        c.pass = h.m_pass.data();
        c.scale = h.m_scale.data();
        c.add = h.m_add.data();
        c.h_scale = static_cast<double>(map.min_cost()) * h.m_min_multiplier;
        return c;
    }
    // The cost profile as query options (movement rule included): what query_path_cost, the refinement
    // windows and smoothing read. Points into `h`.
    [[nodiscard]] static GridSearchOptions cost_options(const HierarchicalMap& h) noexcept {
        GridSearchOptions o;
        o.movement = h.m_movement;
        o.diagonal = h.m_diagonal;
        if (!h.m_profiled) return o;
        o.areas = h.m_areas;
        o.filter = &h.m_filter;
        o.layers = h.m_layers;
        return o;
    }
};

}  // namespace gameplan::path
