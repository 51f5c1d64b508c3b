#pragma once
/// @file jps.hpp
/// Jump Point Search on uniform-cost 8-connected grids under the no-corner-cutting rule: `JpsPathfinder`.
///
/// Overview
/// --------
/// On a grid where every step costs 1 (cardinal) or sqrt(2) (diagonal), most optimal paths have many
/// equally short twins that differ only in the order of their moves. Jump Point Search (Harabor and
/// Grastien, AAAI 2011; the no-corner-cutting variant and the improvements used here from "Improving
/// Jump Point Search", ICAPS 2014) keeps one canonical representative, "diagonal moves first, then
/// straight", and prunes the others. A node is only put on the open list when it is a *jump point*:
/// the goal, or a cell where a wall ends beside a straight run so that the canonical order must turn
/// there (a *forced neighbour*). Everything between two jump points is scanned, not searched.
///
/// Rules (no corner cutting; a diagonal step needs both orthogonal cells passable):
/// - Moving straight, say east, a cell n is a jump point when a cell beside the move (north or south)
///   is blocked at n - 1 and free at n. From it the search continues east, and also north and
///   north-east (or south and south-east) as the blocked cell requires.
/// - Moving diagonally there are no forced neighbours under this rule. Every diagonal step scans both
///   straight components (north and east for north-east); a jump point found by such a scan becomes a
///   successor of the node being expanded directly, without the diagonal cell in between ("pruning
///   intermediate nodes", the JPS2 improvement), and the diagonal scan goes on until it hits a wall.
///   An edge of the search is therefore "k diagonal steps, then m straight steps" and costs
///   k sqrt(2) + m, the octile distance between its ends.
/// - Straight scans read 63 cells at a time from bit-packed rows (and from a transposed copy for
///   vertical scans) and find the first wall or forced neighbour with one count-trailing-zeros
///   ("block-based" jumping).
///
/// Short queries: an expansion within 64 cells of the goal first checks the canonical line to it and,
/// when it is free, generates the goal at once; once the goal is generated with cost U, successors
/// whose cost plus octile distance reaches U are dropped and diagonal walks stop where that bound
/// reaches U. A short query in open space thus expands the start only (docs/jps.md, "Short queries").
///
/// The result is the same optimal cost as A* with the octile heuristic; the path returned is one of
/// the optimal paths (possibly a different one than A* returns), expanded to every cell (`GridPath`),
/// or reduced to its jump points or its cost on request (`GridSearchOptions::detail`).
///
/// Snapshot. The pathfinder keeps its own copy of the map's passability (a byte per cell plus the two
/// bit-packed copies, about 1.25 bytes per cell), synchronised automatically: a query on a map whose
/// address, size or `version()` differs from the snapshot first rebuilds it (O(cells), about 0.5 ms for
/// 512 x 512; see docs/benchmarks.md). To avoid the rebuild after a change, call `update_cell` for each
/// changed cell (O(1)): it updates the copy and its version count. A search only ever reads the
/// snapshot, so a sliced search is memory-safe and self-consistent even if the map changes between
/// slices (compare `map_version()` with the map's `version()` to notice it). If a map object is
/// replaced wholesale by assignment from another map with an equal version, call `sync`.
///
/// Supported queries (anything else returns `Status::InvalidQuery`; `check_jps_support` says why):
/// `Movement::Eight` with `DiagonalRule::NoCornerCutting`, and a map with uniform costs (no passable
/// cell with a terrain cost other than 1) and a query without per-query costs (no `penalties`, `layers`,
/// `areas` or `filter`: those return `InvalidQuery`, `JpsSupport::NonUniformCosts`). The pruning argument of JPS needs every straight step to
/// cost the same and the corner rule fixed: with terrain costs a detour may be cheaper than the
/// canonical path, and with corner cutting the forced-neighbour rules are different. Use
/// `GridPathfinder` for those. Every heuristic and weight of `GridSearchOptions` is accepted with the
/// same meaning as for `GridPathfinder` (Auto = octile; weight > 1 gives bounded-suboptimal paths).
///
/// Search machinery: the engine's `search::IndexedHeap` with `SearchContext<double>::Key` (tie-break
/// smallest f, then smallest h, then last pushed), generation stamps, `search::Budget`,
/// `search::SearchStats` (`expanded` = jump points expanded, `generated` = successors relaxed) and
/// `gameplan::Status`. After warm-up a query performs no heap allocation. Resumable: `begin`, `step(n)`,
/// `finish`.
///
/// Budget (`GridSearchOptions::budget`, whole search; `budget_limit()` says which limit ended it):
/// `max_expansions` counts jump points expanded; the deadline is read every 64 of them;
/// `max_memory_bytes` caps the search state, `memory_bytes()`: the per-cell state (16 bytes per padded
/// cell), the open list's position array (4 bytes per padded cell) and its entries (24 bytes each, at
/// capacity). `begin` checks what the pathfinder holds plus the per-cell arrays it would add before
/// allocating them and, over the budget, allocates nothing and returns `BudgetExhausted` (storage held
/// from earlier, larger queries or from `sync` counts: a pathfinder that already holds more stops at
/// once); the open list grows only within the budget, else the search stops after that expansion. The
/// snapshot is not counted (`snapshot_bytes()`): like JPS+'s jump table and the subgoal graph it is the
/// pathfinder's copy of the map, not the query's storage, and a query on a changed map rebuilds it
/// whatever the budget. Without a memory limit nothing of this costs more than one predictable compare
/// per open-list push.
///
/// Memory: the snapshot (about 1.25 bytes per cell) plus the search state (about 20 bytes per cell,
/// only touched where the search goes, plus the open list).
///
/// Thread-safety: one pathfinder per thread; the map is only read (at synchronisation).

#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/search/search_context.hpp>
#include <gameplan/status.hpp>

#include <cstdint>
#include <memory>
#include <string_view>

namespace gameplan::path {

/// Whether JPS (and JPS+) can answer queries on a map with some options.
enum class JpsSupport : std::uint8_t {
    Ok,                 ///< supported
    EmptyMap,           ///< the map has no cells
    NotEightConnected,  ///< options.movement is not Movement::Eight
    NotNoCornerCutting, ///< options.diagonal is not DiagonalRule::NoCornerCutting
    TerrainCosts,       ///< a passable cell has a terrain cost other than 1
    BadWeight,          ///< options.weight is below 1 or not finite
    NonUniformCosts,    ///< options carry penalties, cost layers, areas or an area filter (area_filter.hpp)
    MemoryBudget,       ///< a preprocessing would exceed its memory budget (SubgoalGraph::build)
    TimeBudget,         ///< a preprocessing was still running at its deadline (SubgoalGraph::build)
};

/// Human-readable reason for a JpsSupport value ("" for Ok).
[[nodiscard]] std::string_view describe(JpsSupport support) noexcept;

/// Checks whether JPS supports `options` on `map`. O(1) for a map without a terrain-cost array,
/// otherwise O(cells) (every passable cell's cost is checked). Thread-safe (reads only).
[[nodiscard]] JpsSupport check_jps_support(const GridMap& map, const GridSearchOptions& options) noexcept;

/// Reusable online Jump Point Search. See the file overview.
class JpsPathfinder {
public:
    JpsPathfinder();
    ~JpsPathfinder();
    JpsPathfinder(JpsPathfinder&&) noexcept;
    JpsPathfinder& operator=(JpsPathfinder&&) noexcept;
    JpsPathfinder(const JpsPathfinder&) = delete;
    JpsPathfinder& operator=(const JpsPathfinder&) = delete;

    /// Takes a fresh snapshot of `map` (see the overview) and sizes the search state and the open list
    /// (`open_entries` entries), so that the next queries do not allocate. With `prefault`, also touches
    /// every page of the search state, so that not even the first queries pay page faults (the state is
    /// otherwise mapped lazily, page by page, as searches first reach it). O(cells). May throw
    /// std::bad_alloc.
    void sync(const GridMap& map, std::size_t open_entries = 1u << 12, bool prefault = false);

    /// Sizes the search state and the open list (`open_entries` entries) for queries on `map`, so that
    /// even the first of them does not allocate, like every other pathfinder's `reserve`; takes a
    /// snapshot of `map` only when the one held is not of it (a map in step keeps its snapshot, and
    /// sync_count() does not move). `prefault` as for sync. O(cells) when it takes a snapshot or with
    /// `prefault`, else O(1) amortised. May throw std::bad_alloc.
    void reserve(const GridMap& map, std::size_t open_entries = 1u << 12, bool prefault = false);

    /// Reports that cell `p` of `map` may have changed passability. Updates the snapshot in O(1) if it
    /// is a snapshot of `map` and the cell differs from it; returns true when it changed something.
    /// Call it once per changed cell to keep the snapshot in step with `map.version()`; a query after
    /// an unreported change resynchronises fully. Never allocates.
    bool update_cell(const GridMap& map, GridPoint p) noexcept;

    /// Starts a search from `start` to `goal` (resynchronising the snapshot first if it is stale).
    /// Returns `InProgress`; `InvalidQuery`: unsupported options or map (see check_jps_support), a point
    /// off the map, or a blocked start or goal; `NoPath` when `options.islands` apply and prove the goal
    /// unreachable (nothing expanded); or `BudgetExhausted` with `budget_limit()` Memory: the
    /// search state held plus what this query must add passes `options.budget.max_memory_bytes`
    /// (nothing is allocated; see the overview).
    Status begin(const GridMap& map, GridPoint start, GridPoint goal, const GridSearchOptions& options = {});

    /// Expands at most `slice_expansions` jump points. Returns `InProgress` if the slice ran out first,
    /// else the final status (`Found`, `NoPath`, `BudgetExhausted`), which later calls return again.
    Status step(std::uint64_t slice_expansions = UINT64_MAX);

    /// Writes the path found into `out` (cleared when there is none) as `options.detail` of `begin`
    /// asked: every cell (O(path length)); the jump points only (`PathDetail::Waypoints`, O(jump
    /// points); consecutive ones are joined by "diagonal first, then straight", see
    /// expand_waypoints); or the cost only (`PathDetail::CostOnly`, O(1)). Returns the status.
    /// Allocates only if `out.cells` must grow.
    Status finish(GridPath& out) const;

    /// begin + step + finish.
    Status find_path(const GridMap& map, GridPoint start, GridPoint goal, const GridSearchOptions& options,
                     GridPath& out);

    /// Status of the current search (`InProgress` until finished).
    [[nodiscard]] Status status() const noexcept;
    /// Which limit of the budget ended the current search: `None` unless status() is
    /// `BudgetExhausted`, then `Expansions`, `Time` or `Memory`. Reset by every `begin`.
    [[nodiscard]] search::BudgetLimit budget_limit() const noexcept;
    /// Counters of the current search (expansions count jump points).
    [[nodiscard]] const search::SearchStats& stats() const noexcept;
    /// Cost of the path found, or +infinity.
    [[nodiscard]] double cost() const noexcept;
    /// True if the current search expanded cell `p` as a jump point (for pictures and debugging;
    /// cells a jump only scanned over are not expanded). False off the map.
    [[nodiscard]] bool closed(GridPoint p) const noexcept;
    /// Number of jump points on the path found (start and goal included), 0 when none.
    [[nodiscard]] std::size_t jump_point_count() const noexcept;
    /// The map version the snapshot reflects (the map's version() at the last sync, plus one per
    /// update_cell that changed a cell).
    [[nodiscard]] std::uint64_t map_version() const noexcept;
    /// Number of full snapshot rebuilds so far (explicit `sync` calls and automatic ones).
    [[nodiscard]] std::uint64_t sync_count() const noexcept;
    /// Bytes held by the search state (per-cell state and open list, at capacity): what the memory
    /// budget counts. The snapshot is not included (snapshot_bytes()).
    [[nodiscard]] std::size_t memory_bytes() const noexcept;
    /// Bytes held by the snapshot (the passability copies, about 1.25 bytes per cell).
    [[nodiscard]] std::size_t snapshot_bytes() const noexcept;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace gameplan::path
