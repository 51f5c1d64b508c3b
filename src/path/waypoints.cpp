// Waypoint (visibility) graphs from grid maps (path/waypoints.hpp).
#include <gameplan/path/smoothing.hpp>
#include <gameplan/path/waypoints.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

namespace gameplan::path {

void convex_corners(const GridMap& map, std::vector<GridPoint>& out) {
    out.clear();
    for (std::int32_t y = 0; y < map.height(); ++y)
        for (std::int32_t x = 0; x < map.width(); ++x) {
            if (!map.passable({x, y})) continue;
            bool corner = false;
            for (const std::int32_t dy : {-1, 1})
                for (const std::int32_t dx : {-1, 1})
                    corner = corner || (map.contains(x + dx, y + dy) && !map.passable({x + dx, y + dy}) &&
                                        map.passable({x + dx, y}) && map.passable({x, y + dy}));
            if (corner) out.push_back({x, y});
        }
}

GraphNode WaypointGraph::node_at(GridPoint cell) const {
    std::string id = std::to_string(cell.x);
    id += ',';
    id += std::to_string(cell.y);
    return graph.find(id);
}

Status build_waypoint_graph(const GridMap& map, std::span<const GridPoint> given, const WaypointOptions& options,
                            WaypointGraph& out) {
    out = WaypointGraph{};
    if (map.empty() || map.has_terrain_costs() || !(options.max_distance > 0.0)) return Status::InvalidQuery;
    for (const GridPoint p : given)
        if (!map.passable(p)) return Status::InvalidQuery;
    std::vector<GridPoint> cells(given.begin(), given.end());
    if (options.corners) {
        std::vector<GridPoint> corners;
        convex_corners(map, corners);
        cells.insert(cells.end(), corners.begin(), corners.end());
    }
    // Merge duplicates, keeping the first occurrence's place.
    std::vector<std::uint8_t> seen(map.cell_count(), 0);
    std::size_t kept = 0;
    for (const GridPoint p : cells) {
        const std::size_t at = std::size_t(p.y) * std::size_t(map.width()) + std::size_t(p.x);
        if (seen[at]) continue;
        seen[at] = 1;
        cells[kept++] = p;
    }
    cells.resize(kept);
    if (cells.size() > kMaxWaypoints) return Status::InvalidQuery;

    // What the build holds, estimated as the overview says: per arc, the builder's 16-byte record (twice,
    // for the vector's growth) and the graph's 16-byte arc; per waypoint, the builder's and the graph's id,
    // position and index and its cell (192 bytes, ids of up to 15 characters stored inline); a byte per
    // cell for the table of waypoints seen. A test holds the build to it with a counting allocator.
    const std::size_t node_bytes = cells.capacity() * 192 + seen.size();
    const auto held_bytes = [&](std::size_t arcs) { return node_bytes + arcs * 48; };
    const search::Budget& budget = options.budget;
    const bool has_deadline = budget.deadline != std::chrono::steady_clock::time_point::max();
    const auto stop = [&](search::BudgetLimit limit) {
        out = WaypointGraph{};
        out.limit = limit;
        return Status::BudgetExhausted;
    };
    if (held_bytes(0) > budget.max_memory_bytes) return stop(search::BudgetLimit::Memory);

    GraphBuilder b;
    std::string id;
    for (const GridPoint p : cells) {
        id = std::to_string(p.x);
        id += ',';
        id += std::to_string(p.y);
        (void)b.add_node(id, p.x + 0.5, p.y + 0.5);
    }
    std::uint64_t checked = 0, visited = 0;
    for (std::size_t i = 0; i < cells.size(); ++i)
        for (std::size_t j = i + 1; j < cells.size(); ++j) {
            if (has_deadline && (visited++ & 1023u) == 0 && std::chrono::steady_clock::now() >= budget.deadline)
                return stop(search::BudgetLimit::Time);
            const double d = euclidean_distance(cells[i], cells[j]);
            if (d > options.max_distance) continue;
            if (checked >= budget.max_expansions) return stop(search::BudgetLimit::Expansions);
            ++checked;
            if (!line_of_sight(map, cells[i], cells[j], options.movement, options.diagonal)) continue;
            if (held_bytes(b.arc_count() + 2) > budget.max_memory_bytes) return stop(search::BudgetLimit::Memory);
            (void)b.add_edge(GraphNode(i), GraphNode(j), d, true);
        }
    out.graph = b.build();
    out.cells = std::move(cells);
    return Status::Found;
}

}  // namespace gameplan::path
