#pragma once
// The any-angle cell walk behind `line_of_sight` (smoothing.hpp, "Any-angle segments"), shared with
// Theta*, whose links under per-query costs also ask what each entered cell costs.
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>

#include <cstdint>
#include <cstdlib>

namespace gameplan::path::detail {

// Walks the segment between the centres of `a` and `b` (both on the map) cell by cell, in padded node
// indices. `open(n)` judges the start cell and, wherever the segment passes exactly through a grid vertex,
// the two cells it only touches there (they must satisfy the diagonal rule, as a diagonal step's side
// cells do; `Movement::Four` and `Never` are judged as `NoCornerCutting`). `enter(n)` judges every cell
// after `a` whose interior the segment passes through, `b` last. Returns false at the first refusal.
// O(|dx| + |dy|).
template <class Open, class Enter>
bool sight_walk(const GridMap& map, GridPoint a, GridPoint b, Movement movement, DiagonalRule rule, Open&& open,
                Enter&& enter) noexcept {
    const auto stride = static_cast<std::int64_t>(map.stride());
    const auto index = [&](std::int32_t x, std::int32_t y) { return static_cast<std::size_t>((y + 1) * stride + (x + 1)); };
    DiagonalRule corner = effective_diagonal(movement, rule);
    if (corner == DiagonalRule::Never) corner = DiagonalRule::NoCornerCutting;
    const std::int32_t dx = b.x - a.x, dy = b.y - a.y;
    const std::int32_t sx = dx < 0 ? -1 : 1, sy = dy < 0 ? -1 : 1;
    const std::int64_t adx = std::abs(dx), ady = std::abs(dy);
    std::int32_t x = a.x, y = a.y;
    if (!open(index(x, y))) return false;
    std::int64_t ix = 0, iy = 0;
    while (ix < adx || iy < ady) {
        // The segment crosses the vertical grid line after ix column steps at t = (ix + 1/2) / adx and
        // the horizontal one after iy row steps at t = (iy + 1/2) / ady; compare without division.
        const std::int64_t cross_x = (2 * ix + 1) * ady, cross_y = (2 * iy + 1) * adx;
        if (iy == ady || (ix < adx && cross_x < cross_y)) {
            x += sx;
            ++ix;
        } else if (ix == adx || cross_y < cross_x) {
            y += sy;
            ++iy;
        } else {  // through a grid vertex: the two cells touched there must satisfy the diagonal rule
            if (!diagonal_allowed(corner, open(index(x + sx, y)), open(index(x, y + sy)))) return false;
            x += sx;
            y += sy;
            ++ix;
            ++iy;
        }
        if (!enter(index(x, y))) return false;
    }
    return true;
}

}  // namespace gameplan::path::detail
