#pragma once
/// @file distance_field.hpp
/// Dijkstra floods on a grid: a distance field from one or many sources, and the nearest of many
/// targets in one search (Dijkstra for the nearest of many targets).
///
/// Overview
/// --------
/// Both build on `GridPathfinder`'s multi-source / multi-goal search, so they share its movement rules,
/// terrain costs, budgets, statuses, tie-breaking and its "no allocation after warm-up" property.
///
/// `DistanceField` floods from a set of sources (multi-source Dijkstra) and then answers, for any cell,
/// its cost from the nearest source (O(1)), which source that is, the next step toward it (O(1), a flow
/// field: many units walking to the nearest exit or to one rally point share one flood) and the whole
/// route. A field is reusable: `compute` again in O(1) set-up, nothing is cleared.
///
/// `NearestTargets` answers "which of these targets is closest to me, at what cost, by which route" with
/// ONE search from the unit toward all targets at once, instead of one search per candidate: A* whose
/// heuristic is the minimum over the targets (up to `GridPathfinder::kMaxHeuristicGoals`, plain Dijkstra
/// beyond), stopping at the first target it reaches, which is the nearest. `nearest(map, from, targets)`
/// is the one-line form for GOAP action costs ("walking distance to the nearest tree").
///
/// Direction of costs. A step costs the terrain cost of the cell *entered* times its length, so with
/// terrain costs the cost from a to b differs from b to a. A field holds costs *from* its sources;
/// `NearestTargets` measures *from* the unit to the targets, which is what a walking unit pays. On maps
/// without terrain costs both directions are equal.
///
/// Per-query costs. Both honour every per-query cost of `GridSearchOptions` (areas, an area filter,
/// penalties, weighted cost layers; area_filter.hpp): a field holds the combined cost from its sources,
/// a flow field steers around forbidden areas and dear cells, and a target in an area the filter forbids
/// is skipped like a blocked one. A source or start in a forbidden area is `InvalidQuery`.
///
/// Targets. Targets that are blocked or off the map are skipped (a tree on a blocked cell is never
/// "reached"; give the cells next to it instead), duplicates are allowed (the lowest index is reported),
/// and when `GridSearchOptions::islands` applies, targets on other islands are skipped without search.
///
/// Thread-safety: one object per thread; any number may read the same const map at once. `nearest` uses
/// one object per calling thread (thread_local).

#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/status.hpp>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace gameplan::path {

/// Index meaning "no target" / "no source".
inline constexpr std::size_t kNoIndex = SIZE_MAX;

/// Distances from a set of sources to every reachable cell. See the file overview.
class DistanceField {
public:
    DistanceField() = default;

    /// Sizes the search state for `map` so that even the first `compute` does not allocate (other than
    /// growing the copy of the source list). Optional. May throw std::bad_alloc.
    void reserve(const GridMap& map, std::size_t sources = 64);

    /// Floods `map` from every cell of `sources` (all at cost 0). `options.heuristic` and `weight` are
    /// ignored (a field is a Dijkstra); movement, diagonal rule and budget apply.
    /// Returns `Found` when the field is complete (every cell reachable from a source has its exact
    /// cost), `BudgetExhausted` when `options.budget` stopped it (cells with `final_cost(p)` are exact,
    /// others are upper bounds or unreached), or `InvalidQuery` (empty map, no source, a source blocked
    /// or off the map). O(reachable cells * log) time; no allocation after warm-up. The map must outlive
    /// the field's use.
    Status compute(const GridMap& map, std::span<const GridPoint> sources, const GridSearchOptions& options = {});
    /// Single-source form of `compute`.
    Status compute(const GridMap& map, GridPoint source, const GridSearchOptions& options = {});

    /// Status of the last `compute`.
    [[nodiscard]] Status status() const noexcept { return m_status; }
    /// Cost from the nearest source to `p`, +infinity if unreached (or off the map). O(1).
    [[nodiscard]] double distance(GridPoint p) const noexcept { return m_finder.g(p); }
    /// True if `p` was reached. O(1).
    [[nodiscard]] bool reached(GridPoint p) const noexcept { return m_finder.reached(p); }
    /// True if the cost of `p` is final (always, for a reached cell of a complete field). O(1).
    [[nodiscard]] bool final_cost(GridPoint p) const noexcept { return m_finder.closed(p); }
    /// The next cell from `p` toward its nearest source (p itself for a source, {-1, -1} if unreached).
    /// Following it from any reached cell walks a cheapest route in reverse. O(1).
    [[nodiscard]] GridPoint toward_source(GridPoint p) const noexcept { return m_finder.parent(p); }
    /// Index (into the last `compute`'s sources) of the source nearest to `p`, kNoIndex if unreached.
    /// O(route length + sources).
    [[nodiscard]] std::size_t nearest_source(GridPoint p) const noexcept;
    /// Writes the route from the nearest source to `p` into `out` (source first; empty if unreached).
    /// Allocates only if `out` must grow.
    void path_from_source(GridPoint p, GridPath& out) const { m_finder.path_to(p, out); }
    /// Writes the same route reversed: `p` first, the source last. `out.cost` is the field's cost (the
    /// cost *from* the source; equal to the walking cost toward it on maps without terrain costs).
    void path_to_source(GridPoint p, GridPath& out) const;
    /// Cells expanded by the last compute (its number of settled cells).
    [[nodiscard]] std::uint64_t expanded() const noexcept { return m_finder.stats().expanded; }

private:
    GridPathfinder m_finder;
    std::vector<GridPoint> m_sources;
    Status m_status = Status::InvalidQuery;
};

/// Outcome of a nearest-of-many query.
struct NearestTarget {
    Status status = Status::NoPath;  ///< Found, NoPath, BudgetExhausted or InvalidQuery
    std::size_t index = kNoIndex;    ///< index into the targets passed (lowest one if listed twice)
    double cost = std::numeric_limits<double>::infinity();  ///< cost from the start to that target
    GridPoint cell{-1, -1};          ///< the target's cell
    std::uint64_t expanded = 0;      ///< cells the search expanded
};

/// Reusable nearest-of-many search. See the file overview.
class NearestTargets {
public:
    NearestTargets() = default;

    /// Sizes the search state for `map` and `targets` entries so that even the first query does not
    /// allocate. Optional. May throw std::bad_alloc.
    void reserve(const GridMap& map, std::size_t targets = 64);

    /// Finds the target cheapest to reach from `from`, in one search. Blocked, off-map and (with
    /// applicable islands) other-island targets are skipped. If `path` is given, the route (from first,
    /// the target last) is written into it. Statuses: `Found`; `NoPath` (no usable target is reachable,
    /// including an empty or all-skipped list); `BudgetExhausted` (options.budget); `InvalidQuery`
    /// (`from` blocked or off the map, empty map, bad weight). With weight 1 and an admissible heuristic
    /// the cost is the minimum over the targets. No allocation after warm-up.
    NearestTarget find(const GridMap& map, GridPoint from, std::span<const GridPoint> targets,
                       const GridSearchOptions& options = {}, GridPath* path = nullptr);

    /// The pathfinder used by the last `find` (for its statistics, or `g`/`closed` of visited cells).
    [[nodiscard]] const GridPathfinder& pathfinder() const noexcept { return m_finder; }

private:
    GridPathfinder m_finder;
    std::vector<GridPoint> m_usable;
};

/// One-line nearest-of-many query for GOAP action costs: `nearest(map, from, targets).cost`. Uses a
/// thread_local `NearestTargets`, so it allocates only on a thread's first calls. See NearestTargets::find.
[[nodiscard]] NearestTarget nearest(const GridMap& map, GridPoint from, std::span<const GridPoint> targets,
                                    const GridSearchOptions& options = {});

}  // namespace gameplan::path
