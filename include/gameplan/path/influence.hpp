#pragma once
/// @file influence.hpp
/// Influence maps: per-cell values raised by events, spread to a radius, decaying over time, read as a
/// cost layer by grid searches and as a query ("how dangerous is this route?") by game logic.
///
/// Overview
/// --------
/// An `InfluenceMap` wraps a `PenaltyLayer` (penalty_layer.hpp). `add_event(center, amount, radius)`
/// adds `amount x (1 - d / (radius + 1))` to every cell within Euclidean distance d <= radius of the
/// centre (a death, an explosion, a wolf sighting); walls do not stop the spread (influence is
/// nearness, not a route). `decay(factor)` multiplies every value by factor (values that fall below
/// `kInfluenceFloor` become 0); `decay_for(seconds, half_life)` does it for elapsed time.
///
/// Reading it:
/// - as a cost layer: `GridSearchOptions::layers = {CostLayer{&influence.layer(), weight}}` — units
///   prefer other passes. `GridPathfinder` reads layers live, so searches started after an event see it
///   without any rebuild (a sliced search in progress sees a mix of old and new values, its path stays
///   legal). Changing the influence never bumps `GridMap::version()`. JPS/JPS+ refuse layers; HPA*
///   ignores them (its abstract graph would need a rebuild).
/// - as a query: `at(p)`, `sum_along(path)` (the influence of every cell a path enters) and
///   `max_along(path)`. A GOAP action's cost callback (`goap::AgentType::set_cost`, or the planner's
///   per-call `PlanOptions::costs`) can add `weight x sum_along(route)` to a walking distance: goap and
///   path stay independent; the game joins them (docs/pathfinding.md has an example).
///
/// Memory: the layer (about 9 bytes per padded cell at most). `add_event` and `decay` never allocate
/// once every cell they touch has been touched before (see `PenaltyLayer::reserve_touched`).
///
/// Thread-safety: any number of readers at once while nobody writes.

#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/penalty_layer.hpp>

#include <cstdint>
#include <span>

namespace gameplan::path {

/// Values below this are dropped to 0 by `InfluenceMap::decay`.
inline constexpr float kInfluenceFloor = 1e-3f;
/// Largest radius of one influence event (cells).
inline constexpr std::int32_t kMaxInfluenceRadius = 1024;

/// Event-driven, decaying per-cell influence. See the file overview.
class InfluenceMap {
public:
    /// An empty influence map (matches no map until `reset`).
    InfluenceMap() = default;
    /// Zero influence for `map`'s shape. May throw std::bad_alloc.
    explicit InfluenceMap(const GridMap& map) : m_layer(map) {}

    /// Resizes to `map`'s shape, all zero. O(cells). May throw std::bad_alloc.
    void reset(const GridMap& map) { m_layer.reset(map); }
    /// Adds an event of `amount` (> 0, finite) at `center`, spreading linearly to `radius` cells
    /// (0 = the centre only; at most kMaxInfluenceRadius). Cells off the map are skipped. Returns the
    /// number of cells changed (0 for a bad amount or radius). O(radius^2).
    std::size_t add_event(GridPoint center, float amount, std::int32_t radius) noexcept;
    /// Multiplies every value by `factor` in [0, 1] (values below kInfluenceFloor become 0). False
    /// for a factor out of range. O(cells ever touched since the last clear).
    bool decay(float factor) noexcept { return m_layer.scale(factor, kInfluenceFloor); }
    /// Decay for `seconds` of game time with the given half-life (> 0): factor 0.5^(seconds / half_life).
    bool decay_for(double seconds, double half_life) noexcept;
    /// Sets every value back to 0.
    void clear() noexcept { m_layer.clear(); }
    /// Sets the influence of `p` (>= 0, finite; a saved game's values, say). False (changing nothing)
    /// off the map or for a bad value. O(1).
    bool set(GridPoint p, float value) noexcept { return m_layer.set(p, value); }

    /// Influence at `p` (0 off the map). O(1).
    [[nodiscard]] float at(GridPoint p) const noexcept { return m_layer.at(p); }
    /// Sum of the influence of every cell the path enters (all cells but the first). O(length).
    [[nodiscard]] double sum_along(std::span<const GridPoint> path) const noexcept;
    /// Largest influence of a cell on the path (all cells, the first included; 0 for an empty path).
    [[nodiscard]] float max_along(std::span<const GridPoint> path) const noexcept;

    /// The values as a cost layer for `GridSearchOptions::layers`.
    [[nodiscard]] const PenaltyLayer& layer() const noexcept { return m_layer; }
    /// True if sized for a map of this shape.
    [[nodiscard]] bool matches(const GridMap& map) const noexcept { return m_layer.matches(map); }

private:
    PenaltyLayer m_layer;
};

}  // namespace gameplan::path
