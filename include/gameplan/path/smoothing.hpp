#pragma once
/// @file smoothing.hpp
/// Line-of-sight tests and path smoothing (string pulling) on a GridMap.
///
/// Overview
/// --------
/// Two kinds of straight line are used, for two kinds of path:
///
/// **Taut grid segments (`walkable_line`) - the smoothed path stays a legal grid path.** Between
/// cells a and b, with n = max(|dx|, |dy|) and m = min(|dx|, |dy|), a taut segment is a path of exactly
/// n steps of which m are diagonal (for 4-connected movement or `DiagonalRule::Never`: |dx| + |dy|
/// cardinal steps): a shortest grid path in open space, octile length n + (sqrt(2) - 1) m. The walker
/// follows the real segment: at step i it prefers the diagonal while its minor coordinate is behind
/// round(i m / n) (halves up), the straight step otherwise, and takes the other move when the preferred
/// one is illegal or used up (4-connected: it prefers the axis whose next grid line the real segment
/// crosses first, the major axis on a tie). Every step is checked with the movement rule, exactly as
/// `step_allowed` does: the entered cell passable, and a diagonal step obeying the `DiagonalRule` (with
/// `NoCornerCutting` both side cells passable, so a diagonal never passes a blocked corner). The
/// segment is *walkable* when every step is legal. Whenever the plain Bresenham line (minor coordinate
/// round(i m / n) at every step) is walkable, so is the taut segment: the walker makes the same moves
/// until something blocks it.
///
/// `smooth_path` (string pulling): from an anchor, shortcut ends are tried at the path's turning points
/// (galloping: 1, 2, 4, ... turning points ahead), the straight run after the farthest reachable one is
/// bisected, and a few more turning points are probed (`lookahead`); a segment is taken only if it is
/// no dearer than the stretch of path it replaces (terrain costs count; on a uniform map a walkable
/// taut segment never is). The segment is spliced in and the pass continues from its end; then, by
/// default, a second pass runs from the goal back to the start. The result is a sequence of legal
/// single steps between the same end cells, its cost recomputed step by step, never dearer than the
/// input. It runs in place (a taut segment never has more cells than the stretch it replaces), so it
/// never allocates.
///
/// **Any-angle segments (`line_of_sight`) - for any-angle paths (Theta*, `smooth_any_angle`).** Cells
/// are unit squares centred on integer coordinates: cell (x, y) is [x - 0.5, x + 0.5] x
/// [y - 0.5, y + 0.5]. The segment between the centres of a and b has line of sight when every cell
/// whose interior it passes through is passable and, wherever it passes exactly through a grid vertex
/// (a corner shared by four cells), the two cells it only touches there satisfy the diagonal rule, as a
/// diagonal step would: both passable for `NoCornerCutting` (and for `Never` / 4-connected movement),
/// at least one for `OneObstacle`, no condition for `Always`. A segment between cell centres never runs
/// along a grid line, so these two cases are all. Every legal single step has line of sight under the
/// same rule, so any grid path is also a valid any-angle path. An any-angle path is a list of
/// *waypoints* (stored in `GridPath::cells`) joined by straight segments; its cost is the sum of the
/// Euclidean segment lengths. Any-angle paths are defined on uniform-cost maps only.
///
/// Thread-safety: all functions only read the map; the path argument is the caller's.

#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/path/grid_search.hpp>

#include <cstdint>

namespace gameplan::path {

/// Which straight lines a smoothing pass may splice in (see the file overview).
struct SmoothingOptions {
    Movement movement = Movement::Eight;                    ///< movement rule of the path
    DiagonalRule diagonal = DiagonalRule::NoCornerCutting;  ///< diagonal rule of the path
    /// Shortcut ends are tried at the path's turning points (cells where the step direction changes)
    /// and at its last cell; this is how many consecutive unreachable turning points the look-ahead
    /// tolerates before settling on the farthest reachable one (then refined by bisection along the
    /// straight run that follows it). 0 = stop at the first failure. Before any turning point was
    /// reachable from an anchor at most one miss is tolerated (corridors: nothing ever is).
    std::uint32_t lookahead = 4;
    /// After the pass from start to goal, pull again from goal to start (about halves what is left
    /// to gain on open maps, for about 1.5 times the time). Skipped when the first pass found nothing.
    bool backward_pass = true;
};

/// True if the taut grid segment from `a` to `b` is walkable (see the file overview); both must be on
/// the map.
/// When it is and `cost` is not null, `*cost` receives its cost (terrain costs of the entered cells
/// times the step lengths). `a == b` is walkable with cost 0. O(max(|dx|, |dy|)).
[[nodiscard]] bool walkable_line(const GridMap& map, GridPoint a, GridPoint b, Movement movement, DiagonalRule rule,
                                 double* cost = nullptr) noexcept;

/// Writes the cells of the taut grid segment from `a` to `b` after `a` (so `b` last) into `out`, which must
/// have room for max(|dx|, |dy|) cells (|dx| + |dy| for 4-connected movement). Returns the number
/// written, or 0 if the line is not walkable (then `out` holds garbage). O(length).
std::size_t write_walkable_line(const GridMap& map, GridPoint a, GridPoint b, Movement movement, DiagonalRule rule,
                                GridPoint* out) noexcept;

/// Smooths a legal grid path in place by string pulling with taut grid segments (see the overview).
/// `path.cost` is recomputed. Paths of fewer than 3 cells are left alone. Never allocates.
/// Precondition: `path.cells` is a legal path on `map` under `options`' rules.
/// Cost O(path length x (segment length + lookahead x segment length)).
void smooth_path(const GridMap& map, GridPath& path, const SmoothingOptions& options = {}) noexcept;

/// `smooth_path` for a path found with per-query costs: the areas, filter, penalties and layers of
/// `costs` (its movement rule and the rest are ignored; `options` gives the rule). A shortcut is taken
/// only if every cell it enters (and, for a diagonal, each side cell the diagonal rule asks for) is
/// outside the forbidden areas and its cost under `query_step_cost` is no higher than that of the
/// stretch it replaces. `path.cost` becomes `query_path_cost` (also for paths of fewer than 3 cells,
/// which are otherwise left alone). Never allocates.
/// Precondition: `path.cells` is a legal path under `options`' rules that avoids the forbidden areas.
void smooth_path(const GridMap& map, GridPath& path, const SmoothingOptions& options, const GridSearchOptions& costs) noexcept;

/// True if the segment between the centres of `a` and `b` has line of sight under `rule` (see the
/// overview; `Movement::Four` is judged as `NoCornerCutting`). Both must be on the map. O(|dx| + |dy|).
[[nodiscard]] bool line_of_sight(const GridMap& map, GridPoint a, GridPoint b, Movement movement,
                                 DiagonalRule rule) noexcept;
/// `line_of_sight` under `options.movement` and `options.diagonal` where, besides blocked cells, the
/// cells of areas `options.filter` forbids (`options.areas`; area 0 without one) block the sight.
[[nodiscard]] bool line_of_sight(const GridMap& map, GridPoint a, GridPoint b, const GridSearchOptions& options) noexcept;

/// Euclidean distance between two cell centres.
[[nodiscard]] double euclidean_distance(GridPoint a, GridPoint b) noexcept;

/// Turns a legal grid path into an any-angle path in place: string pulling with `line_of_sight`,
/// keeping as waypoints only the cells where the path must turn. `path.cost` becomes the sum of the
/// Euclidean segment lengths. Leaves the path alone and returns false on a map with terrain costs
/// (any-angle costs are defined for uniform maps only). Never allocates.
bool smooth_any_angle(const GridMap& map, GridPath& path, const SmoothingOptions& options = {}) noexcept;

/// Sum of the step costs of a grid path (terrain cost of each entered cell times the step length).
/// Precondition: consecutive cells are neighbours. O(path length).
[[nodiscard]] double grid_path_cost(const GridMap& map, const GridPath& path) noexcept;

}  // namespace gameplan::path
