#include <gameplan/path/smoothing.hpp>

#include "sight_walk.hpp"

#include <algorithm>
#include <vector>
#include <cmath>
#include <cstdlib>

namespace gameplan::path {

namespace {

// Prices of entering cells as the walker reads them (padded indices). `open(n)`: the cell may be entered
// (also what the diagonal rule asks of a diagonal's side cells); `step(from, to, length)`: the cost of
// the step. With kReversed the costs are those of walking the result backwards (b -> a): each step
// costs the cell it leaves. Smoothing's backward pass runs on a reversed path and needs them.
struct UniformPrices {
    const std::uint8_t* pass;
    [[nodiscard]] bool open(std::int64_t n) const noexcept { return pass[n] != 0; }
    [[nodiscard]] double step(std::int64_t, std::int64_t, double length) const noexcept { return length; }
};
template <bool kReversed>
struct TerrainPrices {
    const std::uint8_t* pass;
    const std::uint32_t* terrain;
    [[nodiscard]] bool open(std::int64_t n) const noexcept { return pass[n] != 0; }
    [[nodiscard]] double step(std::int64_t from, std::int64_t to, double length) const noexcept {
        return length * static_cast<double>(terrain[kReversed ? from : to]);
    }
};
// The per-query costs of a GridSearchOptions (areas, filter, penalties, layers): a forbidden cell
// counts as blocked; entering c costs length x terrain(c) x multiplier(area(c)) + weighted layers,
// summed in the order query_step_cost sums them.
template <bool kReversed>
struct QueryPrices {
    const std::uint8_t* pass;
    const std::uint32_t* terrain;  // null on a uniform map
    const std::uint8_t* area;      // null: every cell in area 0
    const AreaFilter* filter;      // null: every area allowed at multiplier 1
    const GridSearchOptions* options;
    [[nodiscard]] std::uint32_t area_of(std::int64_t n) const noexcept { return area != nullptr ? area[n] : 0u; }
    [[nodiscard]] bool open(std::int64_t n) const noexcept {
        return pass[n] != 0 && (filter == nullptr || !filter->forbidden(area_of(n)));
    }
    [[nodiscard]] double step(std::int64_t from, std::int64_t to, double length) const noexcept {
        const std::int64_t n = kReversed ? from : to;
        double cost = length * (terrain != nullptr ? static_cast<double>(terrain[n]) : 1.0);
        if (filter != nullptr) cost *= filter->multiplier(area_of(n));
        const auto cell = static_cast<std::size_t>(n);
        if (options->penalties != nullptr) cost += options->penalty_weight * static_cast<double>(options->penalties->data()[cell]);
        for (const CostLayer& layer : options->layers)
            if (layer.layer != nullptr) cost += layer.weight * static_cast<double>(layer.layer->data()[cell]);
        return cost;
    }
};

// Walks the taut grid segment from a to b (see smoothing.hpp), calling emit(cell) for every cell after
// a and adding step costs (at `prices`) to `cost`. Returns false as soon as neither allowed move is legal.
//
// 8-connected: n = max(|dx|, |dy|) steps, m = min(|dx|, |dy|) of them diagonal. At step i the line's
// minor coordinate is round(i m / n) (halves up); the walker prefers the diagonal while it is behind
// that, the straight step otherwise, and takes the other move when the preferred one is illegal or
// used up. 4-connected: |dx| + |dy| unit steps, preferring the axis whose next grid line the real
// segment crosses first (major axis on a tie). Either way the walk has the minimum length.
template <bool kEmit, class Prices, class Emit>
bool walk_line(const GridMap& map, const Prices& prices, GridPoint a, GridPoint b, DiagonalRule rule, double& cost,
               Emit&& emit) noexcept {
    const auto stride = static_cast<std::int64_t>(map.stride());
    const std::int32_t dx = b.x - a.x, dy = b.y - a.y;
    const std::int32_t sx = dx < 0 ? -1 : 1, sy = dy < 0 ? -1 : 1;
    const std::int64_t adx = std::abs(dx), ady = std::abs(dy);
    const std::int64_t step_x = sx, step_y = sy * stride;  // padded-index offsets
    std::int64_t at = (a.y + 1) * stride + (a.x + 1);
    std::int32_t x = a.x, y = a.y;
    double total = 0.0;

    if (rule == DiagonalRule::Never) {
        std::int64_t ix = 0, iy = 0;
        while (ix < adx || iy < ady) {
            // The real segment crosses the next vertical grid line at t = (2 ix + 1) / (2 adx), the next
            // horizontal one at (2 iy + 1) / (2 ady); go along x first when that comes first (or ties).
            const bool x_first = iy == ady || (ix < adx && (2 * ix + 1) * ady <= (2 * iy + 1) * adx);
            const bool x_ok = ix < adx && prices.open(at + step_x), y_ok = iy < ady && prices.open(at + step_y);
            bool along_x;
            if (x_first ? x_ok : !y_ok) along_x = true;
            else if (y_ok) along_x = false;
            else return false;
            if (along_x && !x_ok) return false;
            const std::int64_t next = at + (along_x ? step_x : step_y);
            total += prices.step(at, next, 1.0);
            at = next;
            if (along_x) {
                ++ix;
                x += sx;
            } else {
                ++iy;
                y += sy;
            }
            if constexpr (kEmit) emit(GridPoint{x, y});
        }
        cost = total;
        return true;
    }

    const bool major_x = adx >= ady;
    const std::int64_t n = std::max(adx, ady), m = std::min(adx, ady);
    const std::int64_t major = major_x ? step_x : step_y, minor = major_x ? step_y : step_x;
    // Bresenham bookkeeping: after step i the line's minor coordinate is `wanted` = round(i m / n);
    // `numerator` = 2 i m + n and `threshold` = 2 n (wanted + 1).
    std::int64_t numerator = n, threshold = 2 * n, wanted = 0, taken = 0;
    for (std::int64_t i = 1; i <= n; ++i) {
        numerator += 2 * m;
        if (numerator >= threshold) {
            ++wanted;
            threshold += 2 * n;
        }
        const std::int64_t straights_left = (n - i + 1) - (m - taken);
        const bool want_diagonal = wanted > taken;
        const std::int64_t diagonal_to = at + major + minor, straight_to = at + major;
        const bool diagonal_ok = taken < m && prices.open(diagonal_to) &&
                                 diagonal_allowed(rule, prices.open(at + step_x), prices.open(at + step_y));
        const bool straight_ok = straights_left > 0 && prices.open(straight_to);
        bool diagonal;
        if (want_diagonal ? diagonal_ok : !straight_ok) diagonal = true;
        else if (straight_ok) diagonal = false;
        else return false;
        if (diagonal && !diagonal_ok) return false;
        const std::int64_t next = diagonal ? diagonal_to : straight_to;
        total += prices.step(at, next, diagonal ? kDiagonalStep : 1.0);
        at = next;
        if (diagonal) ++taken;
        if constexpr (kEmit) {
            if (major_x) {
                x += sx;
                if (diagonal) y += sy;
            } else {
                y += sy;
                if (diagonal) x += sx;
            }
            emit(GridPoint{x, y});
        }
    }
    cost = total;
    return true;
}

// Calls visit(prices) with the prices of `map` (and of `query`'s per-query costs when not null), in
// the direction `reversed` asks for.
template <class Visit>
decltype(auto) with_prices(const GridMap& map, const GridSearchOptions* query, bool reversed, Visit&& visit) noexcept {
    const std::uint8_t* pass = map.passable_data().data();
    const std::uint32_t* terrain = map.has_terrain_costs() ? map.cost_data().data() : nullptr;
    if (query != nullptr) {
        const std::uint8_t* area = query->filter != nullptr && query->areas != nullptr ? query->areas->data().data() : nullptr;
        if (reversed) return visit(QueryPrices<true>{pass, terrain, area, query->filter, query});
        return visit(QueryPrices<false>{pass, terrain, area, query->filter, query});
    }
    if (terrain == nullptr) return visit(UniformPrices{pass});
    if (reversed) return visit(TerrainPrices<true>{pass, terrain});
    return visit(TerrainPrices<false>{pass, terrain});
}

template <class Emit>
bool walk_grid_line(const GridMap& map, GridPoint a, GridPoint b, DiagonalRule rule, double& cost, Emit&& emit,
                    bool reversed = false, const GridSearchOptions* query = nullptr) noexcept {
    return with_prices(map, query, reversed,
                       [&](const auto& prices) { return walk_line<true>(map, prices, a, b, rule, cost, emit); });
}

// The same walk without emitting cells (a line-of-sight test that also prices the segment).
bool test_grid_line(const GridMap& map, GridPoint a, GridPoint b, DiagonalRule rule, double& cost, bool reversed,
                    const GridSearchOptions* query = nullptr) noexcept {
    const auto none = [](GridPoint) {};
    return with_prices(map, query, reversed,
                       [&](const auto& prices) { return walk_line<false>(map, prices, a, b, rule, cost, none); });
}

double step_cost_between(const GridMap& map, GridPoint from, GridPoint to) noexcept {
    const double length = (from.x != to.x && from.y != to.y) ? kDiagonalStep : 1.0;
    return length * static_cast<double>(map.cost(to));
}

// One string-pulling pass over `cells` (see smooth_path). With `reversed` the cells are a path stored
// backwards, and costs are those of walking it in the original direction.
// The next turning point after index j of a path: the first k > j where the step direction changes
// at k, or the last cell.
std::size_t next_turn(const std::vector<GridPoint>& cells, std::size_t j) noexcept {
    const std::size_t n = cells.size();
    std::size_t k = j + 1;
    while (k + 1 < n && cells[k].x - cells[k - 1].x == cells[k + 1].x - cells[k].x &&
           cells[k].y - cells[k - 1].y == cells[k + 1].y - cells[k].y)
        ++k;
    return k;
}

// The farthest index reachable from `anchor` by one straight segment (`reachable(j)`), searched among
// the path's turning points: the path runs straight from the anchor to its first turning point, which
// is therefore reached already (a straight run is its own segment). Galloping: probe 1, 2, 4, ...
// turning points further while the ends are reachable, bisect the cells between the last reachable
// and the first unreachable probe, then look up to `lookahead` turning points further for a reachable
// one and gallop on from there. Until something beyond the first turning point was reachable, one
// probe is enough to give up: in corridors nothing ever is, and a look-ahead there only costs time.
template <class Reachable>
std::size_t farthest_reachable(const std::vector<GridPoint>& cells, std::size_t anchor, std::uint32_t lookahead,
                               Reachable&& reachable) noexcept {
    const std::size_t n = cells.size();
    const std::size_t first = next_turn(cells, anchor);
    std::size_t best = first;
    while (best + 1 < n) {
        std::size_t reached = best, failed = 0, j = best;
        for (std::size_t stride = 1;; stride *= 2) {
            for (std::size_t k = 0; k < stride && j + 1 < n; ++k) j = next_turn(cells, j);
            if (!reachable(j)) {
                failed = j;
                break;
            }
            reached = j;
            if (j + 1 >= n) break;
        }
        best = reached;
        if (failed == 0) break;  // reached the last cell
        for (std::size_t lo = reached, hi = failed; hi - lo > 1;) {
            const std::size_t mid = lo + (hi - lo) / 2;
            if (reachable(mid)) best = lo = mid;
            else hi = mid;
        }
        const std::uint32_t probes = best == first ? std::min<std::uint32_t>(lookahead, 1) : lookahead;
        bool again = false;
        j = failed;
        for (std::uint32_t k = 0; k < probes && j + 1 < n && !again; ++k) {
            j = next_turn(cells, j);
            if (reachable(j)) {
                best = j;
                again = true;
            }
        }
        if (!again) break;
    }
    return best;
}

// Returns the number of shortcuts spliced in.
std::size_t pull_strings(const GridMap& map, std::vector<GridPoint>& cells, DiagonalRule rule, std::uint32_t lookahead,
                         bool reversed, const GridSearchOptions* query) noexcept {
    const std::size_t n = cells.size();
    if (n < 3) return 0;
    const bool priced = map.has_terrain_costs() || query != nullptr;
    const auto step_cost = [&](GridPoint from, GridPoint to) {
        if (query != nullptr) return reversed ? query_step_cost(map, to, from, *query) : query_step_cost(map, from, to, *query);
        return reversed ? step_cost_between(map, to, from) : step_cost_between(map, from, to);
    };
    // Invariant: write <= anchor. A grid line has at most as many cells as any path between its ends,
    // so splicing the line anchor -> best into positions write+1.. never passes `best`, and every cell
    // still to be read (index >= anchor) is intact.
    std::size_t write = 0, anchor = 0, shortcuts = 0;
    while (anchor + 1 < n) {
        const GridPoint from = cells[anchor];
        const auto shortcut = [&](std::size_t j) {
            const auto adx = static_cast<std::size_t>(std::abs(cells[j].x - from.x));
            const auto ady = static_cast<std::size_t>(std::abs(cells[j].y - from.y));
            const std::size_t length = rule == DiagonalRule::Never ? adx + ady : std::max(adx, ady);
            if (write + length > j) return false;  // never with a legal input path (see the invariant)
            double line = 0.0;
            if (!test_grid_line(map, from, cells[j], rule, line, reversed, query)) return false;
            if (!priced) return true;
            double stretch = 0.0;
            for (std::size_t i = anchor + 1; i <= j; ++i) stretch += step_cost(cells[i - 1], cells[i]);
            return line <= stretch * (1.0 + 1e-12);
        };
        const std::size_t first = next_turn(cells, anchor);
        const std::size_t best = farthest_reachable(cells, anchor, lookahead, shortcut);
        if (best == first) {
            // Nothing to pull from here: keep the straight run up to the turning point as it is and
            // continue from there (taut paths only bend at turning points).
            for (std::size_t i = anchor + 1; i <= first; ++i) cells[++write] = cells[i];
            anchor = first;
            continue;
        }
        const GridPoint target = cells[best];
        double unused = 0.0;
        (void)walk_grid_line(map, from, target, rule, unused, [&](GridPoint p) { cells[++write] = p; }, reversed, query);
        anchor = best;
        ++shortcuts;
    }
    cells.resize(write + 1);
    return shortcuts;
}

}  // namespace

bool walkable_line(const GridMap& map, GridPoint a, GridPoint b, Movement movement, DiagonalRule rule,
                   double* cost) noexcept {
    double c = 0.0;
    const bool ok = test_grid_line(map, a, b, effective_diagonal(movement, rule), c, false);
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

namespace {
void smooth(const GridMap& map, GridPath& path, const SmoothingOptions& options, const GridSearchOptions* query) noexcept {
    std::vector<GridPoint>& cells = path.cells;
    if (cells.size() < 3) {
        if (query != nullptr) path.cost = query_path_cost(map, cells, *query);
        return;
    }
    const DiagonalRule rule = effective_diagonal(options.movement, options.diagonal);
    const std::size_t shortcuts = pull_strings(map, cells, rule, options.lookahead, false, query);
    if (options.backward_pass && shortcuts > 0) {
        // Greedy pulling leaves each shortcut's far end hugging the old path; pulling again from the
        // goal's side straightens those ends.
        std::reverse(cells.begin(), cells.end());
        pull_strings(map, cells, rule, options.lookahead, true, query);
        std::reverse(cells.begin(), cells.end());
    }
    path.cost = query != nullptr ? query_path_cost(map, cells, *query) : grid_path_cost(map, path);
}
}  // namespace

void smooth_path(const GridMap& map, GridPath& path, const SmoothingOptions& options) noexcept {
    smooth(map, path, options, nullptr);
}

void smooth_path(const GridMap& map, GridPath& path, const SmoothingOptions& options, const GridSearchOptions& costs) noexcept {
    if (costs.filter == nullptr && costs.penalties == nullptr && costs.layers.empty()) return smooth(map, path, options, nullptr);
    GridSearchOptions query = costs;  // the per-query costs of `costs` under the rules of `options`
    query.movement = options.movement;
    query.diagonal = options.diagonal;
    smooth(map, path, options, &query);
}

bool line_of_sight(const GridMap& map, GridPoint a, GridPoint b, Movement movement, DiagonalRule rule) noexcept {
    const std::uint8_t* pass = map.passable_data().data();
    const auto open = [&](std::size_t n) { return pass[n] != 0; };
    return detail::sight_walk(map, a, b, movement, rule, open, open);
}

bool line_of_sight(const GridMap& map, GridPoint a, GridPoint b, const GridSearchOptions& options) noexcept {
    const std::uint8_t* pass = map.passable_data().data();
    const AreaFilter* filter = options.filter;
    if (filter == nullptr) {
        const auto open = [&](std::size_t n) { return pass[n] != 0; };
        return detail::sight_walk(map, a, b, options.movement, options.diagonal, open, open);
    }
    const std::uint8_t* area = options.areas != nullptr ? options.areas->data().data() : nullptr;
    const auto open = [&](std::size_t n) { return pass[n] != 0 && !filter->forbidden(area != nullptr ? area[n] : 0u); };
    return detail::sight_walk(map, a, b, options.movement, options.diagonal, open, open);
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
    // Waypoints only: the write position trails the anchor, so the pass runs in place.
    std::size_t write = 0, anchor = 0;
    double cost = 0.0;
    while (anchor + 1 < n) {
        const GridPoint from = cells[anchor];
        const std::size_t best = farthest_reachable(cells, anchor, options.lookahead, [&](std::size_t j) {
            return line_of_sight(map, from, cells[j], options.movement, options.diagonal);
        });
        cells[++write] = cells[best];
        cost += euclidean_distance(from, cells[best]);
        anchor = best;
    }
    cells.resize(write + 1);
    path.cost = cost;
    return true;
}

}  // namespace gameplan::path
