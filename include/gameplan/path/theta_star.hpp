#pragma once
/// @file theta_star.hpp
/// Any-angle pathfinding: Theta* (Nash, Daniel, Koenig and Felner 2007) on a GridMap.
///
/// Overview
/// --------
/// Theta* searches the grid like A*, but when it relaxes a neighbour s' of the expanded cell s it
/// first tries to link s' straight to s's *parent*: if the segment parent(s) -> s' has line of sight
/// (`line_of_sight`, smoothing.hpp: every cell the segment passes through is passable, and where it
/// passes exactly through a grid corner the two cells touched there satisfy the diagonal rule), s' gets
/// g = g(parent(s)) + |parent(s) s'| and inherits that parent; otherwise it is linked to s by the grid
/// step. Paths are therefore chains of straight segments between cell centres.
///
/// Result semantics (`GridPath`): `cells` holds the *waypoints* - the start, every corner where the
/// path turns, and the goal - not adjacent cells; consecutive waypoints are joined by a segment with
/// line of sight; `cost` is the sum of the Euclidean segment lengths (cell side = 1). Theta* is
/// defined for maps without terrain costs (a map with a cost array gets `InvalidQuery`).
///
/// Areas and filters (`ThetaStarOptions::areas`, `filter`; area_filter.hpp): forbidden areas are
/// honoured (they block like walls: no segment passes through or corner-cuts past a forbidden cell), and
/// a multiplier shared by every allowed area on the map scales all costs. Non-uniform area multipliers
/// and cost layers are not supported: the any-angle cost of a segment through cells of different
/// prices is left undefined, and such a filter makes `find_path` return `InvalidQuery` (run
/// `GridPathfinder` with the filter and layers, then `smooth_path` with the same costs, smoothing.hpp).
///
/// Guarantees (checked by the tests on random maps and the MovingAI scenarios):
/// - every segment has line of sight under the query's diagonal rule;
/// - the cost is at least the Euclidean distance start -> goal and at most the optimal *grid* path
///   cost under the same movement rule: every grid step has line of sight, the Euclidean heuristic is
///   consistent for both kinds of link, and a parent link never costs more than the grid step it
///   replaces (triangle inequality), so the usual A* argument bounds g(goal) by the grid optimum.
/// Theta* is not guaranteed to find the shortest any-angle path (it is usually within a fraction of a
/// percent of it).
///
/// Engine reuse: the loop is specialised (a parent link is not expressible in `SearchContext`) but
/// uses the engine's `IndexedHeap` and key (ties: smaller f, then smaller h, then LIFO), generation
/// stamps, `Budget`, `SearchStats` and `Status`. After warm-up a query allocates nothing (the path
/// buffer is the caller's). Memory: 16 bytes per map cell plus the open list.
///
/// Thread-safety: one ThetaStar per thread; any number may read one map.

#include <gameplan/path/area_filter.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/search/generation.hpp>
#include <gameplan/search/indexed_heap.hpp>
#include <gameplan/search/search_context.hpp>
#include <gameplan/status.hpp>

#include <cstdint>
#include <vector>

namespace gameplan::path {

/// How a Theta* query moves. The base moves (the grid steps Theta* falls back to) follow `movement`
/// and `diagonal`; the line-of-sight corner rule follows `diagonal` (`Never` / 4-connected are judged
/// as `NoCornerCutting`).
struct ThetaStarOptions {
    Movement movement = Movement::Eight;                    ///< base moves: 4- or 8-connected
    DiagonalRule diagonal = DiagonalRule::NoCornerCutting;  ///< diagonal and corner rule
    search::Budget budget{};                                ///< expansion / deadline limits
    /// Optional area type of every cell (area_filter.hpp), read with `filter`; without it every cell is
    /// in area 0. Must match the map (else `InvalidQuery`). Not owned; must outlive the query.
    const AreaMap* areas = nullptr;
    /// Optional filter: cells of forbidden areas block movement and line of sight like blocked cells
    /// (also as the side cells of a diagonal and at grid corners). Every allowed area on the map must
    /// have the same multiplier m (`InvalidQuery` otherwise: the cost of a segment crossing areas of
    /// different prices is not defined here); costs are then m x the Euclidean lengths. Not owned.
    const AreaFilter* filter = nullptr;
};

/// Reusable Theta* search object. See the file overview.
class ThetaStar {
public:
    /// Sizes the per-cell state for `map` so that even the first query does not allocate. Optional.
    void reserve(const GridMap& map, std::size_t open_entries = 1u << 14);

    /// Finds an any-angle path from `start` to `goal`, writing its waypoints and Euclidean length into
    /// `out` (cleared when there is none). Statuses: `Found`, `NoPath`, `BudgetExhausted`,
    /// `InvalidQuery` (empty map, a point off the map, blocked or in a forbidden area, a map with
    /// terrain costs, an area map sized for another map, allowed areas with different multipliers).
    /// Cost: A*-like expansions, each with up to 8 line-of-sight tests of O(segment length).
    Status find_path(const GridMap& map, GridPoint start, GridPoint goal, GridPath& out, const ThetaStarOptions& options = {});

    /// Counters of the last query.
    [[nodiscard]] const search::SearchStats& stats() const noexcept { return m_stats; }
    /// True if the last query expanded cell `p` (for pictures and debugging). False off the map.
    [[nodiscard]] bool closed(GridPoint p) const noexcept;
    /// Line-of-sight tests made by the last query.
    [[nodiscard]] std::uint64_t line_of_sight_checks() const noexcept { return m_los_checks; }

private:
    struct State {
        double g;
        std::uint32_t parent;
        std::uint32_t stamp;
    };
    using Key = search::SearchContext<double>::Key;

    std::vector<State> m_state;
    search::IndexedHeap<Key> m_heap;
    search::SearchStats m_stats{};
    std::uint64_t m_los_checks = 0;
    std::uint32_t m_generation = search::kUnvisitedStamp;
    std::uint32_t m_stride = 0;  // map row stride of the last query (for closed())
    std::int32_t m_width = 0;
};

}  // namespace gameplan::path
