#pragma once
/// @file area_filter.hpp
/// Area types per cell and per-query filters: one map serves every kind of unit.
///
/// Overview
/// --------
/// An `AreaMap` gives every cell of a map an *area type*, a small integer in [0, kMaxAreas) (0 for
/// every cell until set). What an area means is the game's choice: ground, swamp, water, trees, roads,
/// "door only guards with keys may pass". The MovingAI terrain letters have standard areas
/// (`kAreaGround` for `.` and `G`, `kAreaSwamp` for `S`, `kAreaWater` for `W`, `kAreaTrees` for `T`;
/// io::load_map_areas reads them).
///
/// An `AreaFilter` travels with one query (`GridSearchOptions::areas` + `GridSearchOptions::filter`):
/// the areas the unit may not enter (a forbidden cell counts as blocked, also for the diagonal rule's
/// side cells) and a cost multiplier per area. With `GridSearchOptions::layers` (any number of
/// `PenaltyLayer`s, each with a weight) the cost of a step entering cell c is
///
///     length x terrain(c) x multiplier(area(c)) + sum over layers of weight x layer(c)
///
/// (length 1 for a cardinal step, sqrt(2) for a diagonal one). Multipliers are > 0 and layers >= 0,
/// and the heuristic is scaled by the smallest multiplier of an area the filter allows, so A* with
/// weight 1 stays exact for these costs.
///
/// Which searches honour areas, filters and layers: `GridPathfinder` (A*, Dijkstra, multi-source and
/// multi-goal, distance fields through its flood form) reads them live at every step, so changing a
/// layer or an area between queries needs no rebuild. JPS and JPS+ need uniform costs and return
/// `Status::InvalidQuery` (`JpsSupport::NonUniformCosts`) when a query carries areas, a filter, layers
/// or penalties. HPA* (hpa.hpp) builds its hierarchy for one such profile and repairs the clusters a
/// layer or area change touches (`HierarchicalMap::update_cells`); queries with another profile are
/// `InvalidQuery`. Theta* (theta_star.hpp) honours them too: grid steps priced as here, straight links
/// only through cells of one price factor and no layer cost. `smooth_path` has an overload taking a query's costs
/// (smoothing.hpp): shortcuts stay out of forbidden areas and never raise the combined cost.
///
/// Thread-safety: any number of searches may read one AreaMap and one AreaFilter at once while nobody
/// writes them.

#include <gameplan/path/grid_map.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace gameplan::path {

class PenaltyLayer;  // penalty_layer.hpp

/// Number of distinct area types (area ids are 0 .. kMaxAreas - 1).
inline constexpr std::uint32_t kMaxAreas = 64;
/// Standard area of MovingAI `.` and `G` cells (and of every cell of a fresh AreaMap).
inline constexpr std::uint8_t kAreaGround = 0;
/// Standard area of MovingAI `S` (swamp) cells.
inline constexpr std::uint8_t kAreaSwamp = 1;
/// Standard area of MovingAI `W` (water) cells.
inline constexpr std::uint8_t kAreaWater = 2;
/// Standard area of MovingAI `T` (trees) cells.
inline constexpr std::uint8_t kAreaTrees = 3;
/// Largest accepted area cost multiplier.
inline constexpr double kMaxAreaMultiplier = 1e6;

/// One area type per cell of a map shape. Memory: 1 byte per padded cell.
class AreaMap {
public:
    /// An empty area map (matches no map until `reset`).
    AreaMap() = default;
    /// Area 0 for every cell of `map`'s shape. May throw std::bad_alloc.
    explicit AreaMap(const GridMap& map) { reset(map); }

    /// Resizes to `map`'s shape with every cell in area 0. O(cells). May throw std::bad_alloc.
    void reset(const GridMap& map);
    /// True if sized for a map of this shape.
    [[nodiscard]] bool matches(const GridMap& map) const noexcept {
        return map.width() == m_width && map.height() == m_height && m_areas.size() == map.node_bound();
    }
    /// Area of `p` (0 off the map). O(1).
    [[nodiscard]] std::uint8_t at(GridPoint p) const noexcept;
    /// Sets the area of `p`. Returns false (changing nothing) off the map or for area >= kMaxAreas. O(1).
    bool set(GridPoint p, std::uint32_t area) noexcept;
    /// Padded per-node areas (`GridMap::index` order), node_bound() entries; what the search reads.
    [[nodiscard]] std::span<const std::uint8_t> data() const noexcept { return m_areas; }
    /// Width of the map shape.
    [[nodiscard]] std::int32_t width() const noexcept { return m_width; }
    /// Height of the map shape.
    [[nodiscard]] std::int32_t height() const noexcept { return m_height; }
    /// Bitmask of the areas present on the map (bit a set if some cell is in area a; may include areas
    /// no cell holds any more after `set` overwrote them).
    [[nodiscard]] std::uint64_t present() const noexcept { return m_present; }
    /// Counter bumped by every `reset` and successful `set`. What an HPA* hierarchy built with this
    /// area map checks to refuse queries after an unrepaired change.
    [[nodiscard]] std::uint64_t version() const noexcept { return m_version; }

private:
    std::vector<std::uint8_t> m_areas;
    std::int32_t m_width = 0, m_height = 0;
    std::uint32_t m_stride = 0;
    std::uint64_t m_present = 0;
    std::uint64_t m_version = 0;
};

/// What one query may enter and what each area costs it. The default filter allows every area at
/// multiplier 1 (the same costs as no filter).
class AreaFilter {
public:
    AreaFilter() { m_multiplier.fill(1.0); }

    /// Forbids (or allows again) entering cells of `area`. False for area >= kMaxAreas.
    bool forbid(std::uint32_t area, bool forbidden = true) noexcept {
        if (area >= kMaxAreas) return false;
        const std::uint64_t bit = std::uint64_t{1} << area;
        m_forbidden = forbidden ? (m_forbidden | bit) : (m_forbidden & ~bit);
        return true;
    }
    /// Sets the cost multiplier of `area`, in (0, kMaxAreaMultiplier]. False (changing nothing) for an
    /// area out of range or a multiplier that is not finite and positive or exceeds the limit.
    bool set_multiplier(std::uint32_t area, double multiplier) noexcept {
        if (area >= kMaxAreas || !(multiplier > 0.0) || !(multiplier <= kMaxAreaMultiplier)) return false;
        m_multiplier[area] = multiplier;
        return true;
    }
    /// True if cells of `area` may not be entered (true for area >= kMaxAreas).
    [[nodiscard]] bool forbidden(std::uint32_t area) const noexcept {
        return area >= kMaxAreas || ((m_forbidden >> area) & 1u) != 0;
    }
    /// Bitmask of forbidden areas (bit a for area a).
    [[nodiscard]] std::uint64_t forbidden_mask() const noexcept { return m_forbidden; }
    /// Cost multiplier of `area` (1 by default).
    [[nodiscard]] double multiplier(std::uint32_t area) const noexcept { return area < kMaxAreas ? m_multiplier[area] : 1.0; }
    /// All multipliers, indexed by area.
    [[nodiscard]] const std::array<double, kMaxAreas>& multipliers() const noexcept { return m_multiplier; }
    /// Smallest multiplier among the areas in `present` (a bitmask) that are not forbidden; 1 when
    /// there is none. What the search scales its heuristic by.
    [[nodiscard]] double min_allowed_multiplier(std::uint64_t present = ~std::uint64_t{0}) const noexcept;
    /// Equal forbidden areas and multipliers.
    friend bool operator==(const AreaFilter&, const AreaFilter&) = default;

private:
    std::array<double, kMaxAreas> m_multiplier{};
    std::uint64_t m_forbidden = 0;
};

/// One weighted cost layer of a query: entering cell c adds `weight x layer->at(c)`.
struct CostLayer {
    const PenaltyLayer* layer = nullptr;  ///< not owned; must match the map and outlive the search
    double weight = 1.0;                  ///< >= 0 and finite
};

}  // namespace gameplan::path
