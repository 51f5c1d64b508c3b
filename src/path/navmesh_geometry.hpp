// Geometry shared by the navmesh searches (internal to the library).
#pragma once

#include <gameplan/path/navmesh.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace gameplan::path::detail {

/// True if the segment s -> t lies in the free space, walked through the mesh's rectangles from `from`
/// (a polygon holding s). A segment that leaves a rectangle at a grid point or runs along a grid line is
/// not decided: false, like a blocked one (the caller must then search). O(rectangles crossed).
/// Defined in navmesh_search.cpp.
bool navmesh_straight_line_free(const Navmesh& mesh, std::uint32_t from, NavPoint s, NavPoint t) noexcept;

/// Writes into `out` the distinct polygons holding point `p` (up to four when it lies on a grid line or
/// point: those of the free cells around it) and returns how many.
inline std::size_t navmesh_polygons_at(const Navmesh& mesh, NavPoint p, std::uint32_t (&out)[4]) noexcept {
    const double fx = std::floor(p.x), fy = std::floor(p.y);
    const auto cx = static_cast<std::int32_t>(fx), cy = static_cast<std::int32_t>(fy);
    std::size_t count = 0;
    for (std::int32_t dy = fy == p.y ? -1 : 0; dy <= 0; ++dy)
        for (std::int32_t dx = fx == p.x ? -1 : 0; dx <= 0; ++dx) {
            const std::uint32_t polygon = mesh.polygon_of(GridPoint{cx + dx, cy + dy});
            if (polygon != kNoPolygon && std::find(out, out + count, polygon) == out + count) out[count++] = polygon;
        }
    return count;
}

}  // namespace gameplan::path::detail
