#pragma once
/// @file penalty_layer.hpp
/// A non-negative additive cost per grid cell, read by `GridPathfinder` when a step enters the cell.
///
/// Overview
/// --------
/// A `PenaltyLayer` holds one `float` per cell of a map (same padded layout as the map's node index).
/// Set it in `GridSearchOptions::penalties` with a `penalty_weight` w and every step of that search
/// costs `length x terrain(entered cell) + w x penalty(entered cell)`: cells become dearer, never walls.
/// Because penalties are >= 0, every built-in admissible heuristic stays admissible and consistent and
/// A* with weight 1 stays exact for the penalised costs. A search without a layer runs the same code
/// as before (the inner loop is instantiated with and without penalties).
///
/// Uses: the movement layer's claimed-path penalties (movement.hpp: cells that moving units are about
/// to enter cost more to others), danger or influence maps, "prefer roads" costs that change often
/// (cheaper to update than terrain costs, which bump the map's version).
///
/// Changing a layer never bumps `GridMap::version()`: searches in a `PathRequestQueue` that read the layer
/// while it changes see a mix of old and new values (their paths stay legal; their cost is the penalised
/// cost as read). The queue does not re-check the cost of a finished penalised result after a map
/// change, only the legality of its steps (penalties are advice that may change every frame).
///
/// Clearing is O(cells touched since the last clear): the layer remembers which cells are non-zero.
///
/// Memory: 4 bytes per map cell (padded) plus 4 bytes per touched cell. After `reset` (and once the
/// largest number of touched cells has been seen), `set`, `add` and `clear` allocate nothing.
///
/// Thread-safety: any number of searches may read one layer at once while nobody writes it.

#include <gameplan/path/grid_map.hpp>

#include <cstdint>
#include <span>
#include <vector>

namespace gameplan::path {

/// Per-cell additive step penalties for one map shape. See the file overview.
class PenaltyLayer {
public:
    /// An empty layer (matches no map until `reset`).
    PenaltyLayer() = default;
    /// A layer of zeros for `map`'s shape. May throw std::bad_alloc.
    explicit PenaltyLayer(const GridMap& map) { reset(map); }

    /// Resizes to `map`'s shape and sets every penalty to 0. O(cells). May throw std::bad_alloc.
    void reset(const GridMap& map);
    /// True if the layer was sized for a map of this shape (width, height).
    [[nodiscard]] bool matches(const GridMap& map) const noexcept {
        return map.width() == m_width && map.height() == m_height && m_values.size() == map.node_bound();
    }

    /// Penalty of entering `p` (0 off the map or for an empty layer). O(1).
    [[nodiscard]] float at(GridPoint p) const noexcept;
    /// Sets the penalty of `p`. Returns false (and changes nothing) off the map or for a negative or
    /// non-finite value. O(1).
    bool set(GridPoint p, float penalty) noexcept;
    /// Adds `delta` (may be negative; the result is clamped at 0). Returns false off the map or for a
    /// non-finite delta. O(1).
    bool add(GridPoint p, float delta) noexcept;
    /// Sets every penalty back to 0. O(cells changed since the last clear).
    void clear() noexcept;
    /// Multiplies every penalty by `factor` in [0, 1]; values that end below `floor` (>= 0) become 0
    /// (decay of an influence map). Returns false (changing nothing) for a factor or floor out of range.
    /// O(cells changed since the last clear); never allocates.
    bool scale(float factor, float floor = 0.0f) noexcept;
    /// Pre-sizes the list of touched cells so that `set`/`add` of that many distinct cells never allocate.
    void reserve_touched(std::size_t cells) { m_touched.reserve(cells); }
    /// Cells whose penalty may be non-zero (touched since the last clear), in first-touch order.
    [[nodiscard]] std::size_t touched_count() const noexcept { return m_touched.size(); }

    /// Padded per-node values (`GridMap::index` order), node_bound() entries; what the search reads.
    [[nodiscard]] std::span<const float> data() const noexcept { return m_values; }
    /// Width of the map shape the layer was sized for.
    [[nodiscard]] std::int32_t width() const noexcept { return m_width; }
    /// Height of the map shape the layer was sized for.
    [[nodiscard]] std::int32_t height() const noexcept { return m_height; }
    /// Counter bumped by every change (`reset`, a successful `set` or `add`, `clear`, `scale`). What an
    /// HPA* hierarchy built with this layer checks to refuse queries after an unrepaired change.
    [[nodiscard]] std::uint64_t version() const noexcept { return m_version; }

private:
    [[nodiscard]] std::uint32_t node(GridPoint p) const noexcept {
        return static_cast<std::uint32_t>(p.y + 1) * m_stride + static_cast<std::uint32_t>(p.x + 1);
    }
    [[nodiscard]] bool inside(GridPoint p) const noexcept {
        return p.x >= 0 && p.y >= 0 && p.x < m_width && p.y < m_height;
    }
    void touch(std::uint32_t n);

    std::vector<float> m_values;
    std::vector<std::uint8_t> m_marked;  // 1 when n is in m_touched
    std::vector<std::uint32_t> m_touched;
    std::int32_t m_width = 0, m_height = 0;
    std::uint32_t m_stride = 0;
    std::uint64_t m_version = 0;
};

}  // namespace gameplan::path
