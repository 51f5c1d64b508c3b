#pragma once
/// @file grid_map.hpp
/// A rectangular grid of passable / blocked cells with optional per-cell terrain costs.
///
/// Overview
/// --------
/// `GridMap` is the data every grid search reads. Cells are addressed by `GridPoint{x, y}`: (0, 0) is
/// the upper-left cell, x grows to the right (column), y grows downwards (row), as in the MovingAI
/// format.
///
/// Layout. The map stores flat arrays over a *padded* rectangle of (width + 2) x (height + 2) cells: a
/// one-cell border of blocked cells surrounds the real map, so a neighbour loop never needs a bounds
/// check (stepping off the map lands on a blocked border cell). A cell's *node index* is
/// `(y + 1) * stride() + (x + 1)` with `stride() == width + 2`; searches use node indices as their dense
/// state ids, and `node_bound()` bounds them. Passability is one byte per cell (0 blocked, 1 passable),
/// so 8192 x 8192 costs 64 MiB; terrain costs, when used, add 4 bytes per cell.
///
/// Terrain costs. Each cell has an integer cost in [1, kMaxTerrainCost], 1 by default. The cost array
/// is only allocated when the first cell gets a cost other than 1. The cost of a move is the cost of
/// the cell being *entered* times the step length (1 for a cardinal step, sqrt(2) for a diagonal one):
/// a diagonal step into a swamp of cost 3 costs 3 * sqrt(2). The cell being left and the two cells beside
/// a diagonal step do not contribute to the cost; whether the diagonal is *allowed* depends on their
/// passability only (see `DiagonalRule` in grid_search.hpp).
///
/// `min_cost()` is a lower bound of every cell's cost, used to keep heuristics admissible. Lowering a cost
/// lowers the bound immediately; raising costs never lowers it, so the bound may become loose (still
/// admissible) until `recompute_min_cost()` is called. This keeps `set_cost` O(1) and keeps every const
/// member free of hidden mutation, so many threads may search one map at once.
///
/// Changes. `set_passable` and `set_cost` are O(1) and bump `version()` when they change a cell, so a
/// cache (jump tables, a hierarchy, a request queue's pending queries) can tell the map changed. A cache
/// of connectivity alone (islands) watches `passability_version()`, which cost changes leave alone.
///
/// Size limits. Width and height must each be in [1, kMaxGridSide] and width * height at most
/// kMaxGridCells (16384 x 16384); larger maps are refused by `reset` with `GridSizeCheck`, never by a
/// crash. The limits keep node indices (uint32) and the per-search state of a pathfinder
/// (about 20 bytes per cell) within reason.
///
/// Thread-safety: const members may be called from many threads at once; a mutating call must not
/// overlap any other call on the same map.

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace gameplan::path {

/// A cell coordinate. (0, 0) is the upper-left cell; x is the column, y the row.
struct GridPoint {
    std::int32_t x = 0;  ///< column, 0 = leftmost
    std::int32_t y = 0;  ///< row, 0 = topmost
    friend constexpr bool operator==(const GridPoint&, const GridPoint&) noexcept = default;
};

/// Largest accepted width or height.
inline constexpr std::int64_t kMaxGridSide = 32768;
/// Largest accepted cell count (width * height): 2^28, i.e. 16384 x 16384.
inline constexpr std::int64_t kMaxGridCells = std::int64_t{1} << 28;
/// Largest terrain cost of a cell. Small enough that sums of many steps stay exact in a double to
/// well below the MovingAI printing precision.
inline constexpr std::uint32_t kMaxTerrainCost = 1u << 24;

/// Outcome of a size check (`GridMap::check_size`, `GridMap::reset`).
enum class GridSizeCheck : std::uint8_t {
    Ok,            ///< the size is accepted
    NotPositive,   ///< width or height is zero or negative
    SideTooLarge,  ///< width or height exceeds kMaxGridSide
    TooManyCells,  ///< width * height exceeds kMaxGridCells
};

/// Human-readable explanation of a size check result, naming the limit ("" for Ok).
[[nodiscard]] std::string_view describe(GridSizeCheck check) noexcept;

/// Width x height passable/blocked cells with optional terrain costs. See the file overview.
class GridMap {
public:
    /// An empty 0 x 0 map. Searches on it return `InvalidQuery`.
    GridMap() = default;

    /// Checks whether a map of `width` x `height` cells would be accepted. O(1), never allocates.
    [[nodiscard]] static GridSizeCheck check_size(std::int64_t width, std::int64_t height) noexcept;

    /// Makes this a `width` x `height` map with every cell passable (or every cell blocked) and cost 1.
    /// Returns the size check result; on anything but Ok the map is left unchanged. Allocates
    /// (width + 2) * (height + 2) bytes; may throw std::bad_alloc. Bumps version().
    GridSizeCheck reset(std::int64_t width, std::int64_t height, bool passable = true);

    /// Width in cells.
    [[nodiscard]] std::int32_t width() const noexcept { return m_width; }
    /// Height in cells.
    [[nodiscard]] std::int32_t height() const noexcept { return m_height; }
    /// Number of cells, width * height.
    [[nodiscard]] std::size_t cell_count() const noexcept {
        return static_cast<std::size_t>(m_width) * static_cast<std::size_t>(m_height);
    }
    /// True for a 0 x 0 map.
    [[nodiscard]] bool empty() const noexcept { return m_width == 0; }

    /// True if (x, y) lies on the map.
    [[nodiscard]] bool contains(std::int64_t x, std::int64_t y) const noexcept {
        return x >= 0 && y >= 0 && x < m_width && y < m_height;
    }
    /// True if `p` lies on the map.
    [[nodiscard]] bool contains(GridPoint p) const noexcept { return contains(p.x, p.y); }

    /// Number of passable cells. O(cells).
    [[nodiscard]] std::size_t passable_count() const noexcept;
    /// True if the cell is passable; false for blocked cells and for points off the map.
    [[nodiscard]] bool passable(GridPoint p) const noexcept { return contains(p) && m_passable[index(p)] != 0; }
    /// Terrain cost of entering the cell (1 when the map has no costs). Precondition: contains(p).
    [[nodiscard]] std::uint32_t cost(GridPoint p) const noexcept {
        return m_cost.empty() ? 1u : m_cost[index(p)];
    }

    /// Marks a cell passable or blocked. Returns false (and changes nothing) if `p` is off the map.
    /// Bumps version() if the cell changed. O(1).
    bool set_passable(GridPoint p, bool passable) noexcept;
    /// Sets the terrain cost of entering the cell, in [1, kMaxTerrainCost]. Returns false (and changes
    /// nothing) if `p` is off the map or `cost` is out of range. The first cost other than 1 allocates
    /// the cost array (4 bytes per cell). Bumps version() if the cell changed. O(1) after that.
    bool set_cost(GridPoint p, std::uint32_t cost);

    /// True once any cell has had a cost other than 1 (the cost array exists).
    [[nodiscard]] bool has_terrain_costs() const noexcept { return !m_cost.empty(); }
    /// A lower bound of every cell's terrain cost (see the overview); 1 for a map without costs.
    [[nodiscard]] std::uint32_t min_cost() const noexcept { return m_min_cost; }
    /// Makes min_cost() exact again after costs were raised. O(cells).
    void recompute_min_cost() noexcept;

    /// Counter bumped by every change of a cell's passability or cost and by reset(). Never decreases.
    [[nodiscard]] std::uint64_t version() const noexcept { return m_version; }
    /// Counter bumped by every change of a cell's passability, by reset() and by restore_version(), but
    /// not by cost changes. Never decreases.
    [[nodiscard]] std::uint64_t passability_version() const noexcept { return m_passability_version; }
    /// The value of version() right after the last change of passability (set_passable, reset, or the
    /// saved value given to restore_version). A cache stamped with version() v has seen every change of
    /// passability iff `passability_changed_at() <= v`; what changed after it were costs only (request
    /// queues keep running searches then, units keep their routes).
    [[nodiscard]] std::uint64_t passability_changed_at() const noexcept { return m_passability_changed_at; }
    /// True if a cache stamped with version() `since` may not have seen the map's passability as it is now:
    /// passability changed after `since`, or `since` is a version the map never had (a restored stamp).
    [[nodiscard]] bool passability_changed_since(std::uint64_t since) const noexcept {
        return m_passability_changed_at > since || since > m_version;
    }
    /// Counter bumped by reset() alone (every cell may have changed). Never decreases.
    [[nodiscard]] std::uint64_t reset_count() const noexcept { return m_resets; }
    /// For loading a saved map (io/save.hpp): after its cells were set, puts back the saved version(),
    /// min_cost() and passability_changed_at() so that searches and queues saved with it continue
    /// unchanged. `min_cost` is clamped to [1, the smallest cost on the map], `passability_changed_at` to
    /// at most `version` (the default, UINT64_MAX, gives `version`: as if passability had just changed).
    /// O(1), or O(cells) for a map with costs.
    void restore_version(std::uint64_t version, std::uint32_t min_cost = 1,
                         std::uint64_t passability_changed_at = UINT64_MAX) noexcept;

    /// Row length of the padded arrays: width() + 2.
    [[nodiscard]] std::uint32_t stride() const noexcept { return m_stride; }
    /// One past the largest node index: (width + 2) * (height + 2).
    [[nodiscard]] std::uint32_t node_bound() const noexcept { return static_cast<std::uint32_t>(m_passable.size()); }
    /// Node index of an on-map point (see the overview). Precondition: contains(p).
    [[nodiscard]] std::uint32_t index(GridPoint p) const noexcept {
        return static_cast<std::uint32_t>(p.y + 1) * m_stride + static_cast<std::uint32_t>(p.x + 1);
    }
    /// Point of a node index inside the real map. Precondition: the index came from index().
    [[nodiscard]] GridPoint point(std::uint32_t node) const noexcept {
        return GridPoint{static_cast<std::int32_t>(node % m_stride) - 1, static_cast<std::int32_t>(node / m_stride) - 1};
    }
    /// Padded passability bytes (0 blocked, 1 passable), node_bound() entries; the border is blocked.
    /// For specialised search loops. Invalidated by reset().
    [[nodiscard]] std::span<const std::uint8_t> passable_data() const noexcept { return m_passable; }
    /// Padded terrain costs, node_bound() entries, or an empty span for a map without costs.
    /// Invalidated by reset() and by the first set_cost() that allocates the array.
    [[nodiscard]] std::span<const std::uint32_t> cost_data() const noexcept { return m_cost; }

private:
    std::vector<std::uint8_t> m_passable;  // padded; border cells are 0
    std::vector<std::uint32_t> m_cost;     // padded; empty until a cost other than 1 is set
    std::int32_t m_width = 0;
    std::int32_t m_height = 0;
    std::uint32_t m_stride = 0;
    std::uint32_t m_min_cost = 1;
    std::uint64_t m_version = 0;
    std::uint64_t m_passability_version = 0;
    std::uint64_t m_passability_changed_at = 0;
    std::uint64_t m_resets = 0;
};

}  // namespace gameplan::path
