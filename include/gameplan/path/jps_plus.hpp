#pragma once
/// @file jps_plus.hpp
/// Preprocessed Jump Point Search for static (or slowly changing) maps: `JumpTable` and
/// `JpsPlusPathfinder`.
///
/// Overview
/// --------
/// JPS+ (Harabor and Grastien, "Improving Jump Point Search", ICAPS 2014; Rabin's JPS+) moves the
/// scanning of online JPS (jps.hpp) into a table built once per map. For every cell and each of the
/// eight directions the `JumpTable` stores one signed 16-bit entry:
///
/// - straight directions: `+d` when the first jump point in that direction (a cell with a forced
///   neighbour for a move in that direction) is d cells away, or `-d` when there is none before the
///   first wall and d cells are free before it (`0`: the neighbour is blocked);
/// - diagonal directions: `+d` when, after d legal diagonal steps, the cell reached has a straight
///   jump point in one of the two straight components of the diagonal (north or east for north-east),
///   or `-d` when no such cell comes before the diagonal is blocked after d steps.
///
/// The diagonal entries go beyond JPS2+ (which scans diagonals online): a diagonal scan jumps from one
/// cell that has straight jump points to the next in one lookup. The search then generates exactly
/// the successors of online JPS with intermediate pruning (same jump points, same order, same
/// expansions) at the cost of a few table reads per expansion: goals are found by checking, per
/// direction, whether the goal lies on the ray (straight) or where the diagonal crosses the goal's row
/// or column (diagonal) within the entry's reach.
///
/// Every entry follows a one-step recurrence: the entry of cell z in direction d is a function of the
/// passability around z, of whether z + d is a jump point, and of the entry of z + d. The build
/// evaluates it in sweep order (O(cells)); `update_cell` re-evaluates it only where a changed cell can
/// matter, walking backwards along each affected ray and stopping as soon as an entry comes out
/// unchanged, so the work is proportional to the number of entries that really change (on average
/// about a hundred on a dungeon map like brc202d, a few thousand on open maps like Aftershock, where
/// diagonal rays are long: microseconds against milliseconds for a rebuild; see docs/benchmarks.md). The table after any sequence of updates equals a fresh
/// build (the tests check it entry by entry).
///
/// Snapshot. A table keeps its own copy of the passability it was built from and searches read only
/// the table, never the map. A table is in step with a map (`in_sync`) when it was built from that
/// map object (same address and size) and its version count equals the map's `version()`:
/// `update_cell` advances the count by one per cell it changes, exactly as `GridMap::set_passable`
/// advances the map's. `JpsPlusPathfinder` rebuilds its own table automatically when it is out of step
/// (counted by `rebuild_count`).
///
/// Supported maps and options: as for JpsPathfinder (jps.hpp): 8-connected, no corner cutting, uniform
/// costs; otherwise `InvalidQuery`. Maps up to kMaxGridSide fit the 16-bit entries.
///
/// Memory: 16 bytes of entries plus 1 byte of passability per padded cell, plus the search state of
/// each pathfinder (about 20 bytes per cell, plus the open list).
///
/// Budget: as for JpsPathfinder (jps.hpp, "Budget"): `max_expansions` counts jump points, and
/// `max_memory_bytes` caps the search state, `JpsPlusPathfinder::memory_bytes()` (the per-cell state,
/// the open list's positions and entries), checked before each part is allocated or grows. The jump
/// table is not counted, whether shared or owned (`table().memory_bytes()`): it is the preprocessing
/// the query reads, built by `build` (or rebuilt by `begin(map, ...)` for a changed map, whatever the
/// budget), not the query's storage.
///
/// Thread-safety: a built table is read-only during searches, so many `JpsPlusPathfinder`s (one per
/// thread) may search one shared const table at once (`begin(const JumpTable&, ...)`). `build` and
/// `update_cell` must not overlap any search on that table.

#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/jps.hpp>
#include <gameplan/search/search_context.hpp>
#include <gameplan/status.hpp>

#include <cstdint>
#include <memory>
#include <vector>

namespace gameplan::path {

/// The eight directions of a jump table, clockwise from north (north = decreasing y).
enum class JumpDirection : std::uint8_t { North, NorthEast, East, SouthEast, South, SouthWest, West, NorthWest };

/// Precomputed jump distances of a map (see the file overview).
class JumpTable {
public:
    JumpTable() = default;

    /// Builds the table for `map`. Returns `JpsSupport::Ok`; `EmptyMap` (nothing is built); or
    /// `TerrainCosts` (the table is built for the map's passability, but searches refuse it until
    /// updates leave no passable cell with a cost other than 1, see uniform_costs()). O(cells);
    /// allocates 17 bytes per padded cell (may throw std::bad_alloc); reuses its buffers when rebuilt
    /// for a map of the same size.
    JpsSupport build(const GridMap& map);

    /// Re-reads cell `p` of `map` and repairs the entries that depend on it. Returns the number of
    /// entries rewritten (0 when the cell did not change, when `p` is off the map, or when the table
    /// was not built from `map`). Proportional to the number of entries that change; never allocates
    /// (its work list is sized by build).
    std::size_t update_cell(const GridMap& map, GridPoint p);

    /// True if the table is built and in step with `map` (see the overview). O(1).
    [[nodiscard]] bool in_sync(const GridMap& map) const noexcept;
    /// True once build() built a table (and until a build for an empty map).
    [[nodiscard]] bool built() const noexcept { return m_built; }
    /// True if no passable cell of the snapshot has a terrain cost other than 1 (searches need it).
    [[nodiscard]] bool uniform_costs() const noexcept { return m_non_unit == 0; }
    /// The map version the table reflects.
    [[nodiscard]] std::uint64_t map_version() const noexcept { return m_version; }
    /// Width of the map the table was built from.
    [[nodiscard]] std::int32_t width() const noexcept { return m_width; }
    /// Height of the map the table was built from.
    [[nodiscard]] std::int32_t height() const noexcept { return m_height; }
    /// Passability of a cell in the table's snapshot (false off the map).
    [[nodiscard]] bool passable(GridPoint p) const noexcept;
    /// The entry of cell `p` in direction `d` (see the overview); 0 off the map. For tests and tools.
    [[nodiscard]] std::int32_t entry(GridPoint p, JumpDirection d) const noexcept;
    /// Bytes held by the table (entries and passability snapshot).
    [[nodiscard]] std::size_t memory_bytes() const noexcept;

    // For the search loop (internal layout: 8 entries per padded node index, then the snapshot).
    /// Entries, 8 per padded node index (GridMap::index), in JumpDirection order.
    [[nodiscard]] const std::int16_t* entries() const noexcept { return m_entries.data(); }
    /// Padded passability snapshot (0 blocked, 1 passable), like GridMap::passable_data().
    [[nodiscard]] const std::uint8_t* passable_data() const noexcept { return m_pass.data(); }
    /// Row length of the padded arrays: width() + 2.
    [[nodiscard]] std::uint32_t stride() const noexcept { return m_stride; }
    /// One past the largest padded node index.
    [[nodiscard]] std::uint32_t node_bound() const noexcept { return static_cast<std::uint32_t>(m_pass.size()); }

private:
    [[nodiscard]] std::int16_t compute(std::uint32_t node, int direction) const noexcept;
    [[nodiscard]] bool straight_jump_point(std::uint32_t node, int direction) const noexcept;
    std::size_t repair(std::uint32_t node, int direction);

    std::vector<std::int16_t> m_entries;  // 8 per padded cell, direction-interleaved (one cache line per 4 cells)
    std::vector<std::uint8_t> m_pass;     // padded passability snapshot; border cells are 0
    std::vector<std::uint64_t> m_changed; // update_cell work list: node * 8 + direction of straight entries that changed sign
    const GridMap* m_map = nullptr;       // identity only, never dereferenced in a search
    std::uint64_t m_version = 0;
    std::int64_t m_non_unit = 0;          // passable cells with a terrain cost other than 1
    std::int32_t m_width = 0;
    std::int32_t m_height = 0;
    std::uint32_t m_stride = 0;
    bool m_built = false;
};

/// Reusable search over a JumpTable. See the file overview.
class JpsPlusPathfinder {
public:
    JpsPlusPathfinder();
    ~JpsPlusPathfinder();
    JpsPlusPathfinder(JpsPlusPathfinder&&) noexcept;
    JpsPlusPathfinder& operator=(JpsPlusPathfinder&&) noexcept;
    JpsPlusPathfinder(const JpsPlusPathfinder&) = delete;
    JpsPlusPathfinder& operator=(const JpsPlusPathfinder&) = delete;

    /// Builds the owned table for `map` (JumpTable::build) and sizes the search state and the open
    /// list so that the next queries do not allocate. O(cells).
    /// `prefault` as for JpsPathfinder::sync.
    JpsSupport build(const GridMap& map, std::size_t open_entries = 1u << 12, bool prefault = false);

    /// Sizes the search state and the open list for searches on a shared `table` (begin(const
    /// JumpTable&, ...)), so that even the first of them does not allocate; `prefault` as for
    /// JpsPathfinder::sync. O(cells) with `prefault`, else O(1) amortised.
    void reserve(const JumpTable& table, std::size_t open_entries = 1u << 12, bool prefault = false);

    /// Repairs the owned table after cell `p` of `map` changed (JumpTable::update_cell). Returns the
    /// number of entries rewritten.
    std::size_t update_cell(const GridMap& map, GridPoint p);

    /// The owned table.
    [[nodiscard]] const JumpTable& table() const noexcept;

    /// Starts a search on `map` with the owned table, rebuilding it first if it is not in step with
    /// `map`. Returns `InProgress`, `InvalidQuery` (unsupported options or map, a point off the map,
    /// a blocked start or goal), `NoPath` when `options.islands` apply to `map` and prove the goal
    /// unreachable (nothing expanded), or `BudgetExhausted` (`budget_limit()` Memory: the search state
    /// held plus what this query must add passes the memory budget; nothing is allocated).
    Status begin(const GridMap& map, GridPoint start, GridPoint goal, const GridSearchOptions& options = {});

    /// Starts a search on a shared, already built `table` (which must outlive the search and not change
    /// during it). The table's snapshot is the map. Returns `InProgress`, `InvalidQuery` (table not
    /// built, unsupported options, a point off the map, a blocked start or goal), or `BudgetExhausted`
    /// as begin(map, ...). `options.islands` are not used here: without the map they cannot be checked
    /// against it.
    Status begin(const JumpTable& table, GridPoint start, GridPoint goal, const GridSearchOptions& options = {});

    /// Expands at most `slice_expansions` jump points; see JpsPathfinder::step.
    Status step(std::uint64_t slice_expansions = UINT64_MAX);

    /// Writes the path found into `out` as `options.detail` asked; see JpsPathfinder::finish.
    Status finish(GridPath& out) const;

    /// begin (owned table) + step + finish.
    Status find_path(const GridMap& map, GridPoint start, GridPoint goal, const GridSearchOptions& options,
                     GridPath& out);

    /// Status of the current search.
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
    /// Number of automatic rebuilds of the owned table (stale table at begin).
    [[nodiscard]] std::uint64_t rebuild_count() const noexcept;
    /// Bytes held by the search state (per-cell state and open list, at capacity): what the memory
    /// budget counts. The jump table is not included (table().memory_bytes()).
    [[nodiscard]] std::size_t memory_bytes() const noexcept;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

}  // namespace gameplan::path
