#pragma once
// Neighbour enumeration over a GridMap's padded passability bytes, shared by the flood fills and graph
// analyses of the path module (islands, dead ends). Private to the library.
//
// The padded border is blocked, so no bounds checks are needed. A step and its reverse are legal together
// under every DiagonalRule (a diagonal step's two side cells are the same from both ends), so the legal
// steps form an undirected graph over the passable cells: the graph these helpers walk.
#include <gameplan/path/grid_rules.hpp>

#include <array>
#include <cstdint>

namespace gameplan::path::detail {

/// Node offsets of the eight directions in the order of kGridDirections: up, down, left, right,
/// up-left, up-right, down-left, down-right.
inline std::array<std::int64_t, 8> neighbour_offsets(std::uint32_t stride) noexcept {
    const auto s = static_cast<std::int64_t>(stride);
    return {-s, s, -1, 1, -s - 1, -s + 1, s - 1, s + 1};
}

/// Calls `f(neighbour)` for every legal step out of `node` under `rule` (already effective: Never for
/// 4-connected movement). `node` itself need not be passable.
template <class F>
inline void for_each_neighbour(const std::uint8_t* pass, std::uint32_t stride, std::uint32_t node, DiagonalRule rule,
                               F&& f) {
    const std::uint32_t up = node - stride, down = node + stride;
    const bool u = pass[up] != 0, d = pass[down] != 0, l = pass[node - 1] != 0, r = pass[node + 1] != 0;
    if (u) f(up);
    if (d) f(down);
    if (l) f(node - 1);
    if (r) f(node + 1);
    if (rule == DiagonalRule::Never) return;
    if (pass[up - 1] && diagonal_allowed(rule, u, l)) f(up - 1);
    if (pass[up + 1] && diagonal_allowed(rule, u, r)) f(up + 1);
    if (pass[down - 1] && diagonal_allowed(rule, d, l)) f(down - 1);
    if (pass[down + 1] && diagonal_allowed(rule, d, r)) f(down + 1);
}

/// True if the step from `node` in direction `dir` (0..7, kGridDirections order) is legal under `rule`.
inline bool step_legal(const std::uint8_t* pass, std::uint32_t stride, std::uint32_t node, unsigned dir,
                       DiagonalRule rule) noexcept {
    const auto off = neighbour_offsets(stride);
    const auto to = static_cast<std::uint32_t>(static_cast<std::int64_t>(node) + off[dir]);
    if (!pass[to]) return false;
    if (dir < 4) return true;
    const bool vertical_side = pass[static_cast<std::uint32_t>(static_cast<std::int64_t>(node) + off[dir < 6 ? 0 : 1])] != 0;
    const bool horizontal_side = pass[static_cast<std::uint32_t>(static_cast<std::int64_t>(node) + off[(dir & 1) == 0 ? 2 : 3])] != 0;
    return diagonal_allowed(rule, vertical_side, horizontal_side);
}

}  // namespace gameplan::path::detail
