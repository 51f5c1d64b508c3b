// Geometry shared by the navmesh searches (internal to the library).
#pragma once

#include <gameplan/path/navmesh.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace gameplan::path::detail {

/// True if the segment s -> t lies in the free space, walked through the mesh's rectangles from `from`
/// (a polygon holding s) to one of the `at_t_count` >= 1 polygons `at_t` holding t (navmesh_locate).
/// Exact when every coordinate of s and t is a multiple of 1/1024 (a segment through a grid point is then
/// decided too); otherwise a segment that leaves a rectangle within rounding of a grid point is not
/// decided: false, like a blocked one (the caller must then search), as is a segment along a grid line.
/// O(rectangles crossed).
/// Defined in navmesh_search.cpp.
bool navmesh_straight_line_free(const Navmesh& mesh, std::uint32_t from, NavPoint s, NavPoint t, const std::uint32_t* at_t,
                                std::size_t at_t_count) noexcept;

/// Writes into `out` the distinct polygons holding point `p` (up to four when it lies on a grid line or
/// point: those of the free cells around it, in the order top-left, top-right, bottom-left, bottom-right)
/// and returns how many: 0 when `p` is not in the free space (off the map, inside a blocked cell, on a
/// diagonal squeeze point, not a finite number). `out[0]` is then `mesh.locate(p)`.
inline std::size_t navmesh_locate(const Navmesh& mesh, NavPoint p, std::uint32_t (&out)[4]) noexcept {
    if (!(p.x >= 0.0 && p.y >= 0.0 && p.x <= double(mesh.width()) && p.y <= double(mesh.height()))) return 0;
    // p >= 0 here, so truncation is the floor: one conversion each, without std::floor's rounding sequence.
    const auto cx = static_cast<std::int32_t>(p.x), cy = static_cast<std::int32_t>(p.y);
    const bool on_x = double(cx) == p.x, on_y = double(cy) == p.y;
    if (!on_x && !on_y) {  // inside a cell (the usual case)
        out[0] = mesh.polygon_of(GridPoint{cx, cy});
        return out[0] != kNoPolygon;
    }
    std::size_t count = 0;
    const auto add = [&](std::uint32_t polygon) {
        if (polygon != kNoPolygon && std::find(out, out + count, polygon) == out + count) out[count++] = polygon;
    };
    if (on_x && on_y) {
        const std::uint32_t tl = mesh.polygon_of(GridPoint{cx - 1, cy - 1}), tr = mesh.polygon_of(GridPoint{cx, cy - 1});
        const std::uint32_t bl = mesh.polygon_of(GridPoint{cx - 1, cy}), br = mesh.polygon_of(GridPoint{cx, cy});
        const bool ftl = tl != kNoPolygon, ftr = tr != kNoPolygon, fbl = bl != kNoPolygon, fbr = br != kNoPolygon;
        if ((ftl && fbr && !ftr && !fbl) || (ftr && fbl && !ftl && !fbr)) return 0;  // a diagonal squeeze point
        add(tl), add(tr), add(bl), add(br);
    } else if (on_x) {
        add(mesh.polygon_of(GridPoint{cx - 1, cy})), add(mesh.polygon_of(GridPoint{cx, cy}));
    } else {
        add(mesh.polygon_of(GridPoint{cx, cy - 1})), add(mesh.polygon_of(GridPoint{cx, cy}));
    }
    return count;
}

}  // namespace gameplan::path::detail
