#pragma once
// Dijkstra inside one rectangle of a GridMap (an HPA* cluster): the specialised loop behind building
// intra edges and inserting a query's start and goal.
//
// Like GridPathfinder it lives beside the generic engine for speed but reuses its pieces: the indexed
// heap with SearchContext<double>::Key (ties: smaller h - always 0 here - then LIFO), the generation
// stamp protocol, SearchStats. Local ids are ly * w + lx, so the state of a 16 x 16 cluster is 4 KiB
// and stays in L1. A flood may stop early, once every *target* cell has been settled.
//
// Reverse mode floods the reversed graph: the distance it computes for a cell c is the cost of the
// forward path c -> source (each step costs the terrain of the cell it enters, in the forward
// direction). Step legality is symmetric, so only the costs differ.

#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/search/generation.hpp>
#include <gameplan/search/indexed_heap.hpp>
#include <gameplan/search/search_context.hpp>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace gameplan::path::detail {

/// What a step costs and which cells may be entered, as the floods, the abstract graph and refinement
/// of HPA* read them: the map's own passability and terrain costs, or a cost profile's (forbidden
/// areas blocked; cost of entering c with a step of length l = l x scale(c) + add(c)). Padded indices.
struct CellCosts {
    const std::uint8_t* pass = nullptr;      ///< 0 = blocked (or in a forbidden area)
    const std::uint32_t* terrain = nullptr;  ///< terrain costs without a profile; null when uniform
    const double* scale = nullptr;           ///< profile: terrain x area multiplier (replaces terrain)
    const double* add = nullptr;             ///< profile: sum of weight x layer value (with scale)
    double h_scale = 1.0;                    ///< lower bound of scale over enterable cells
    /// Cost of a step of `length` entering `cell`.
    [[nodiscard]] double enter(std::uint32_t cell, double length) const noexcept {
        if (scale != nullptr) return length * scale[cell] + add[cell];
        return terrain != nullptr ? length * static_cast<double>(terrain[cell]) : length;
    }
    /// True when costs depend on the direction of travel (distances a -> b and b -> a differ).
    [[nodiscard]] bool directed() const noexcept { return terrain != nullptr || scale != nullptr; }
};

/// The map's own costs (no profile).
[[nodiscard]] inline CellCosts plain_costs(const GridMap& map) noexcept {
    CellCosts c;
    c.pass = map.passable_data().data();
    c.terrain = map.has_terrain_costs() ? map.cost_data().data() : nullptr;
    c.h_scale = static_cast<double>(map.min_cost());
    return c;
}

class ClusterFlood {
public:
    struct Rect {
        std::int32_t x0 = 0, y0 = 0, w = 0, h = 0;
    };

    /// Runs a Dijkstra from `source` (must be passable and inside `rect`) until every cell of
    /// `targets` (local ids) is settled, or the rectangle is exhausted. Allocates only when the
    /// rectangle is larger than any seen before.
    /// With `aim` (which must be the only target) the search is an A* toward it instead: octile
    /// distance (Manhattan for DiagonalRule::Never) times `costs.h_scale`, consistent, so the aim's g
    /// is still exact when it settles. Steps enter cells at the prices of `costs`.
    void run(const GridMap& map, const CellCosts& costs, const Rect& rect, DiagonalRule rule, bool reverse, GridPoint source,
             std::span<const std::uint32_t> targets, const GridPoint* aim = nullptr);

    /// Sizes the state for rectangles of up to `cells` cells (as a run over one would; growth_bytes()
    /// counts it), so that such runs do not allocate.
    void reserve(std::size_t cells);

    [[nodiscard]] std::uint32_t local(GridPoint p) const noexcept {
        return static_cast<std::uint32_t>((p.y - m_rect.y0) * m_rect.w + (p.x - m_rect.x0));
    }
    [[nodiscard]] std::uint32_t local_of_cell(std::uint32_t padded) const noexcept {
        return local(GridPoint{static_cast<std::int32_t>(padded % m_stride) - 1, static_cast<std::int32_t>(padded / m_stride) - 1});
    }
    [[nodiscard]] GridPoint point(std::uint32_t local) const noexcept {
        return GridPoint{m_rect.x0 + static_cast<std::int32_t>(local % static_cast<std::uint32_t>(m_rect.w)),
                         m_rect.y0 + static_cast<std::int32_t>(local / static_cast<std::uint32_t>(m_rect.w))};
    }
    /// True if the last run settled `local` (its g is then exact).
    [[nodiscard]] bool settled(std::uint32_t local) const noexcept {
        return m_state[local].stamp == search::closed_stamp(m_generation);
    }
    [[nodiscard]] double g(std::uint32_t local) const noexcept { return m_state[local].g; }
    /// Predecessor toward the source (local id), search::kNoNode for the source.
    [[nodiscard]] std::uint32_t parent(std::uint32_t local) const noexcept { return m_state[local].parent; }
    /// Direction code (index into kGridDirections) of the step parent -> local.
    [[nodiscard]] std::uint8_t direction(std::uint32_t local) const noexcept { return m_state[local].direction; }
    /// Counters of the last run.
    [[nodiscard]] const search::SearchStats& stats() const noexcept { return m_stats; }
    /// Bytes held: the per-cell states and the heap, at capacity.
    [[nodiscard]] std::size_t memory_bytes() const noexcept {
        return m_state.capacity() * sizeof(State) + m_heap.memory_bytes();
    }
    /// Bytes a run over a rectangle of `cells` cells would add to memory_bytes().
    [[nodiscard]] std::size_t growth_bytes(std::size_t cells) const noexcept {
        if (m_state.size() >= cells) return 0;
        const std::size_t after = std::max(m_state.capacity(), cells) * sizeof(State) +
                                  cells * (sizeof(std::uint32_t) + sizeof(search::IndexedHeap<Key>::Entry));
        const std::size_t now = memory_bytes();
        return after > now ? after - now : 0;
    }

private:
    struct State {
        double g;
        std::uint32_t parent;
        std::uint32_t stamp;
        std::uint32_t target_stamp;  // == generation: a target of the current run
        std::uint8_t direction;
    };
    using Key = search::SearchContext<double>::Key;

    enum class Pricing : std::uint8_t { Uniform, Terrain, Profile };
    template <DiagonalRule Rule, Pricing kPricing, bool kReverse>
    void flood(std::size_t targets_left);
    [[nodiscard]] double heuristic(std::uint32_t local) const noexcept;

    std::vector<State> m_state;
    search::IndexedHeap<Key> m_heap;
    search::SearchStats m_stats{};
    const GridMap* m_map = nullptr;
    CellCosts m_costs{};
    Rect m_rect{};
    std::uint32_t m_stride = 0;
    std::uint32_t m_generation = search::kUnvisitedStamp;
    bool m_aimed = false;
    GridPoint m_aim{};
    double m_h_scale = 0.0;  // lower bound of the cost of entering a cell per unit length
    bool m_four = false;     // Manhattan instead of octile
};

}  // namespace gameplan::path::detail
