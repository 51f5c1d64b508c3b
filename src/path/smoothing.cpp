#include <gameplan/path/smoothing.hpp>

#include <algorithm>
#include <vector>
#include <cmath>
#include <cstdlib>

namespace gameplan::path {

namespace {

// Walks the taut grid segment from a to b (see smoothing.hpp), calling emit(cell) for every cell after
// a and adding step costs to `cost`. Returns false as soon as neither allowed move is legal.
//
// 8-connected: n = max(|dx|, |dy|) steps, m = min(|dx|, |dy|) of them diagonal. At step i the line's
// minor coordinate is round(i m / n) (halves up); the walker prefers the diagonal while it is behind
// that, the straight step otherwise, and takes the other move when the preferred one is illegal or
// used up. 4-connected: |dx| + |dy| unit steps, preferring the axis whose next grid line the real
// segment crosses first (major axis on a tie). Either way the walk has the minimum length.
//
// With `reversed` the costs are those of walking the result backwards (b -> a): each step costs the
// terrain of the cell it leaves. Smoothing's backward pass runs on a reversed path and needs them.
template <class Emit>
bool walk_grid_line(const GridMap& map, GridPoint a, GridPoint b, DiagonalRule rule, double& cost, Emit&& emit,
                    bool reversed = false) noexcept {
    const std::uint8_t* pass = map.passable_data().data();
    const std::uint32_t* terrain = map.has_terrain_costs() ? map.cost_data().data() : nullptr;
    const auto stride = static_cast<std::int64_t>(map.stride());
    const std::int32_t dx = b.x - a.x, dy = b.y - a.y;
    const std::int32_t sx = dx < 0 ? -1 : 1, sy = dy < 0 ? -1 : 1;
    const std::int64_t adx = std::abs(dx), ady = std::abs(dy);
    const auto index = [&](std::int32_t x, std::int32_t y) { return static_cast<std::size_t>((y + 1) * stride + (x + 1)); };
    const auto enter = [&](std::size_t cell) { return terrain ? static_cast<double>(terrain[cell]) : 1.0; };
    std::int32_t x = a.x, y = a.y;
    cost = 0.0;

    if (rule == DiagonalRule::Never) {
        std::int64_t ix = 0, iy = 0;
        while (ix < adx || iy < ady) {
            const bool x_first = iy == ady || (ix < adx && (2 * ix + 1) * ady <= (2 * iy + 1) * adx);
            bool moved = false;
            for (int attempt = 0; attempt < 2 && !moved; ++attempt) {
                const bool along_x = (attempt == 0) == x_first;
                if (along_x ? ix == adx : iy == ady) continue;
                const std::int32_t nx = along_x ? x + sx : x, ny = along_x ? y : y + sy;
                const std::size_t to = index(nx, ny);
                if (!pass[to]) continue;
                cost += enter(reversed ? index(x, y) : to);
                x = nx;
                y = ny;
                (along_x ? ix : iy) += 1;
                moved = true;
            }
            if (!moved) return false;
            emit(GridPoint{x, y});
        }
        return true;
    }

    const bool major_x = adx >= ady;
    const std::int64_t n = std::max(adx, ady), m = std::min(adx, ady);
    std::int64_t minor = 0;  // minor-axis progress so far
    for (std::int64_t i = 1; i <= n; ++i) {
        const std::int64_t straights_left = (n - i + 1) - (m - minor);
        const bool want_diagonal = (2 * i * m + n) / (2 * n) > minor;
        bool moved = false;
        for (int attempt = 0; attempt < 2 && !moved; ++attempt) {
            const bool diagonal = (attempt == 0) == want_diagonal;
            if (diagonal ? minor == m : straights_left == 0) continue;
            const std::int32_t nx = major_x || diagonal ? x + sx : x;
            const std::int32_t ny = !major_x || diagonal ? y + sy : y;
            const std::size_t to = index(nx, ny);
            if (!pass[to]) continue;
            const double entered = enter(reversed ? index(x, y) : to);
            if (diagonal) {
                if (!diagonal_allowed(rule, pass[index(nx, y)] != 0, pass[index(x, ny)] != 0)) continue;
                cost += kDiagonalStep * entered;
                ++minor;
            } else {
                cost += entered;
            }
            x = nx;
            y = ny;
            moved = true;
        }
        if (!moved) return false;
        emit(GridPoint{x, y});
    }
    return true;
}

double step_cost_between(const GridMap& map, GridPoint from, GridPoint to) noexcept {
    const double length = (from.x != to.x && from.y != to.y) ? kDiagonalStep : 1.0;
    return length * static_cast<double>(map.cost(to));
}

// One string-pulling pass over `cells` (see smooth_path). With `reversed` the cells are a path stored
// backwards, and costs are those of walking it in the original direction.
void pull_strings(const GridMap& map, std::vector<GridPoint>& cells, DiagonalRule rule, std::uint32_t lookahead,
                  bool reversed) noexcept {
    const std::size_t n = cells.size();
    if (n < 3) return;
    const bool terrain = map.has_terrain_costs();
    const auto step_cost = [&](GridPoint from, GridPoint to) {
        return reversed ? step_cost_between(map, to, from) : step_cost_between(map, from, to);
    };
    // The next turning point after index j: the first k > j where the step direction changes at k,
    // or the last cell. Only turning points are tried as shortcut ends; a straight run after the last
    // reachable one is then bisected.
    const auto next_turn = [&](std::size_t j) {
        std::size_t k = j + 1;
        while (k + 1 < n && cells[k].x - cells[k - 1].x == cells[k + 1].x - cells[k].x &&
               cells[k].y - cells[k - 1].y == cells[k + 1].y - cells[k].y)
            ++k;
        return k;
    };
    // Invariant: write <= anchor. A grid line has at most as many cells as any path between its ends,
    // so splicing the line anchor -> best into positions write+1.. never passes `best`, and every cell
    // still to be read (index >= anchor) is intact.
    std::size_t write = 0, anchor = 0;
    while (anchor + 1 < n) {
        const GridPoint from = cells[anchor];
        const auto shortcut = [&](std::size_t j) {
            const auto adx = static_cast<std::size_t>(std::abs(cells[j].x - from.x));
            const auto ady = static_cast<std::size_t>(std::abs(cells[j].y - from.y));
            const std::size_t length = rule == DiagonalRule::Never ? adx + ady : std::max(adx, ady);
            if (write + length > j) return false;  // never with a legal input path (see the invariant)
            double line = 0.0;
            if (!walk_grid_line(map, from, cells[j], rule, line, [](GridPoint) {}, reversed)) return false;
            if (!terrain) return true;
            double stretch = 0.0;
            for (std::size_t i = anchor + 1; i <= j; ++i) stretch += step_cost(cells[i - 1], cells[i]);
            return line <= stretch * (1.0 + 1e-12);
        };
        std::size_t best = anchor + 1, first_miss = 0;
        std::uint32_t misses = 0;
        for (std::size_t j = next_turn(anchor);; j = next_turn(j)) {
            if (shortcut(j)) {
                best = j;
                first_miss = 0;
                misses = 0;
            } else {
                if (first_miss == 0) first_miss = j;
                if (++misses > lookahead) break;
            }
            if (j + 1 >= n) break;
        }
        // Cells strictly between `best` and the first turning point it could not reach lie on one
        // straight run: find the farthest reachable one by bisection.
        if (first_miss > best + 1) {
            std::size_t lo = best, hi = first_miss;
            while (hi - lo > 1) {
                const std::size_t mid = lo + (hi - lo) / 2;
                (shortcut(mid) ? lo : hi) = mid;
            }
            if (lo > best && shortcut(lo)) best = lo;
        }
        if (best == anchor + 1) {
            // Nothing to pull from here: keep the straight run up to the next turning point as it is
            // and continue from there (taut paths only bend at turning points).
            const std::size_t until = next_turn(anchor);
            for (std::size_t i = anchor + 1; i <= until; ++i) cells[++write] = cells[i];
            anchor = until;
            continue;
        }
        const GridPoint target = cells[best];
        double unused = 0.0;
        (void)walk_grid_line(map, from, target, rule, unused, [&](GridPoint p) { cells[++write] = p; }, reversed);
        anchor = best;
    }
    cells.resize(write + 1);
}

}  // namespace

bool walkable_line(const GridMap& map, GridPoint a, GridPoint b, Movement movement, DiagonalRule rule,
                   double* cost) noexcept {
    double c = 0.0;
    const bool ok = walk_grid_line(map, a, b, effective_diagonal(movement, rule), c, [](GridPoint) {});
    if (ok && cost) *cost = c;
    return ok;
}

std::size_t write_walkable_line(const GridMap& map, GridPoint a, GridPoint b, Movement movement, DiagonalRule rule,
                                GridPoint* out) noexcept {
    double c = 0.0;
    std::size_t written = 0;
    const bool ok = walk_grid_line(map, a, b, effective_diagonal(movement, rule), c, [&](GridPoint p) { out[written++] = p; });
    return ok ? written : 0;
}

double grid_path_cost(const GridMap& map, const GridPath& path) noexcept {
    double cost = 0.0;
    for (std::size_t i = 1; i < path.cells.size(); ++i) cost += step_cost_between(map, path.cells[i - 1], path.cells[i]);
    return cost;
}

void smooth_path(const GridMap& map, GridPath& path, const SmoothingOptions& options) noexcept {
    std::vector<GridPoint>& cells = path.cells;
    if (cells.size() < 3) return;
    const DiagonalRule rule = effective_diagonal(options.movement, options.diagonal);
    pull_strings(map, cells, rule, options.lookahead, false);
    if (options.backward_pass) {
        // Greedy pulling leaves each shortcut's far end hugging the old path; pulling again from the
        // goal's side straightens those ends.
        std::reverse(cells.begin(), cells.end());
        pull_strings(map, cells, rule, options.lookahead, true);
        std::reverse(cells.begin(), cells.end());
    }
    path.cost = grid_path_cost(map, path);
}

bool line_of_sight(const GridMap& map, GridPoint a, GridPoint b, Movement movement, DiagonalRule rule) noexcept {
    const std::uint8_t* pass = map.passable_data().data();
    const auto stride = static_cast<std::int64_t>(map.stride());
    const auto index = [&](std::int32_t x, std::int32_t y) { return static_cast<std::size_t>((y + 1) * stride + (x + 1)); };
    DiagonalRule corner = effective_diagonal(movement, rule);
    if (corner == DiagonalRule::Never) corner = DiagonalRule::NoCornerCutting;
    const std::int32_t dx = b.x - a.x, dy = b.y - a.y;
    const std::int32_t sx = dx < 0 ? -1 : 1, sy = dy < 0 ? -1 : 1;
    const std::int64_t adx = std::abs(dx), ady = std::abs(dy);
    std::int32_t x = a.x, y = a.y;
    if (!pass[index(x, y)]) return false;
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
            if (!diagonal_allowed(corner, pass[index(x + sx, y)] != 0, pass[index(x, y + sy)] != 0)) return false;
            x += sx;
            y += sy;
            ++ix;
            ++iy;
        }
        if (!pass[index(x, y)]) return false;
    }
    return true;
}

double euclidean_distance(GridPoint a, GridPoint b) noexcept {
    const double dx = b.x - a.x, dy = b.y - a.y;
    return std::sqrt(dx * dx + dy * dy);
}

bool smooth_any_angle(const GridMap& map, GridPath& path, const SmoothingOptions& options) noexcept {
    if (map.has_terrain_costs()) return false;
    std::vector<GridPoint>& cells = path.cells;
    const std::size_t n = cells.size();
    if (n < 2) return true;
    std::size_t write = 0, anchor = 0;
    double cost = 0.0;
    while (anchor + 1 < n) {
        const GridPoint from = cells[anchor];
        std::size_t best = anchor + 1;
        std::uint32_t failures = 0;
        for (std::size_t j = anchor + 2; j < n; ++j) {
            if (line_of_sight(map, from, cells[j], options.movement, options.diagonal)) {
                best = j;
                failures = 0;
            } else if (++failures > options.lookahead) {
                break;
            }
        }
        cells[++write] = cells[best];
        cost += euclidean_distance(from, cells[best]);
        anchor = best;
    }
    cells.resize(write + 1);
    path.cost = cost;
    return true;
}

}  // namespace gameplan::path
