// Waypoint (visibility) graphs from grid maps (path/waypoints.hpp).
#include <gameplan/path/smoothing.hpp>
#include <gameplan/path/waypoints.hpp>

#include <algorithm>
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

    GraphBuilder b;
    std::string id;
    for (const GridPoint p : cells) {
        id = std::to_string(p.x);
        id += ',';
        id += std::to_string(p.y);
        (void)b.add_node(id, p.x + 0.5, p.y + 0.5);
    }
    for (std::size_t i = 0; i < cells.size(); ++i)
        for (std::size_t j = i + 1; j < cells.size(); ++j) {
            const double d = euclidean_distance(cells[i], cells[j]);
            if (d > options.max_distance) continue;
            if (!line_of_sight(map, cells[i], cells[j], options.movement, options.diagonal)) continue;
            (void)b.add_edge(GraphNode(i), GraphNode(j), d, true);
        }
    out.graph = b.build();
    out.cells = std::move(cells);
    return Status::Found;
}

}  // namespace gameplan::path
