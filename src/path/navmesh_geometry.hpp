// Geometry shared by the navmesh searches (internal to the library).
#pragma once

#include <gameplan/path/navmesh.hpp>

#include <cstdint>

namespace gameplan::path::detail {

/// True if the segment s -> t lies in the free space, walked through the mesh's rectangles from `from`
/// (a polygon holding s). A segment that leaves a rectangle at a grid point or runs along a grid line is
/// not decided: false, like a blocked one (the caller must then search). O(rectangles crossed).
/// Defined in navmesh_search.cpp.
bool navmesh_straight_line_free(const Navmesh& mesh, std::uint32_t from, NavPoint s, NavPoint t) noexcept;

}  // namespace gameplan::path::detail
