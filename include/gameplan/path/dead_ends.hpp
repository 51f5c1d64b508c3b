#pragma once
/// @file dead_ends.hpp
/// Dead ends: regions of a grid entered through a single choke cell, which a search between
/// two cells outside such a region never needs to expand.
///
/// Overview
/// --------
/// Over the passable cells and the legal steps of one movement rule (an undirected graph: a step and its
/// reverse are legal together), a depth-first search finds the articulation points (Tarjan's low-link).
/// For an articulation point c and a DFS child u of c whose subtree has no edge climbing above c, the
/// subtree of u is joined to the rest of the map by c alone: a *dead-end region*. Regions nest (they are
/// DFS subtrees), so each is an interval of DFS preorder numbers and each cell has an innermost region.
///
/// Pruning. A route that enters a region R through its choke must leave through the same choke, so a
/// shortest route (all step costs positive) between two cells outside R never enters R. Symmetrically,
/// when both ends lie inside a region R*, everything outside R* except its choke is a dead end for that
/// query (the map beyond the choke is entered through the choke alone). A search from s to t may
/// therefore skip every cell whose innermost region holds neither s nor t, and every cell outside the
/// innermost region holding both, except that region's choke. `GridSearchOptions::dead_ends` makes
/// `GridPathfinder` do that for single-source, single-goal queries: `query` prepares the test in
/// O(region nesting depth at s), after which `prunable` is a few loads and comparisons per expanded cell.
/// Costs stay optimal; only the expansion count changes.
///
/// When it pays (measured on the shared MovingAI maps, docs/scale.md): on corridor mazes almost every cell
/// off the route is in a dead end (maze512-1-0: 94 % fewer expansions) and on dense random maps many are
/// (random512-40-0: 58 % fewer); on game maps the open areas A* explores are not dead ends (0-2 % fewer),
/// so there it costs a little. It is therefore **opt-in**, not part of the default search.
///
/// The analysis is for a static map: any change of passability makes it stale, `applies_to` turns false
/// and the pathfinder ignores it until `build` runs again (O(cells)). Terrain-cost changes leave it
/// current (an optimal route never enters and leaves a region through one choke, whatever the costs).
///
/// Memory: 8 bytes per map cell plus 16 bytes per region.
///
/// Thread-safety: const members may be called from many threads at once; `build` must not overlap them.

#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>

#include <cstdint>
#include <vector>

namespace gameplan::path {

struct GridSearchOptions;  // grid_search.hpp

/// Dead-end regions of a GridMap under one movement rule. See the file overview.
class DeadEnds {
public:
    /// Innermost region of a cell in no region.
    static constexpr std::uint32_t kNoRegion = UINT32_MAX;

    DeadEnds() = default;

    /// Analyses `map` under the movement rule of `rules` (its `movement` and `diagonal`; the other
    /// fields are ignored), O(cells), and remembers the map object and its version. Allocates about 30
    /// bytes per cell of scratch space while it runs; may throw std::bad_alloc.
    void build(const GridMap& map, const GridSearchOptions& rules);
    /// build() under the default rules (8-connected, no corner cutting).
    void build(const GridMap& map);

    /// True if built for this very map object at its current passability_version().
    [[nodiscard]] bool current(const GridMap& map) const noexcept {
        return m_map == &map && m_version == map.passability_version() && m_cells.size() == map.node_bound();
    }
    /// True if pruning is sound for a query on `map` under the rule: current, and built for a rule at
    /// least as permissive (a stricter rule has fewer steps, so a choke stays a choke). O(1).
    [[nodiscard]] bool applies_to(const GridMap& map, const GridSearchOptions& rules) const noexcept;
    /// The diagonal rule in force (DiagonalRule::Never for 4-connected movement).
    [[nodiscard]] DiagonalRule rule() const noexcept { return m_rule; }

    /// Number of dead-end regions (nested regions counted separately).
    [[nodiscard]] std::size_t region_count() const noexcept { return m_lo.size(); }
    /// Number of passable cells inside at least one region.
    [[nodiscard]] std::size_t cells_in_regions() const noexcept { return m_cells_in_regions; }

    /// What a search between two cells needs to know. Built by `query`.
    struct Query {
        std::uint32_t key_s = 0;           ///< key (DFS preorder number) of the source
        std::uint32_t key_t = 0;           ///< key of the goal
        std::uint32_t lo = 0;              ///< innermost region holding both ends, as keys [lo, hi)
        std::uint32_t hi = UINT32_MAX;     ///< ([0, UINT32_MAX) when there is none: nothing is outside)
        std::uint32_t choke = UINT32_MAX;  ///< node index of that region's choke
    };

    /// Key of a cell, by node index (`GridMap::index`): its DFS preorder number, UINT32_MAX for a blocked
    /// cell. O(1).
    [[nodiscard]] std::uint32_t key(std::uint32_t node) const noexcept { return m_cells[node].key; }
    /// Innermost region of a cell by node index, kNoRegion if none. O(1).
    [[nodiscard]] std::uint32_t region(std::uint32_t node) const noexcept { return m_cells[node].region; }
    /// Innermost region strictly enclosing region `r`, kNoRegion if none. O(1).
    [[nodiscard]] std::uint32_t parent_region(std::uint32_t r) const noexcept { return m_parent[r]; }
    /// Node index of the choke of region `r`: the one cell outside it next to it. O(1).
    [[nodiscard]] std::uint32_t choke(std::uint32_t r) const noexcept { return m_choke[r]; }
    /// True if region `r` contains the cell whose key is `key`. O(1).
    [[nodiscard]] bool region_contains(std::uint32_t r, std::uint32_t key) const noexcept {
        return key - m_lo[r] < m_hi[r] - m_lo[r];  // unsigned: key in [lo, hi)
    }
    /// True if `query(s, t)` can prune anything at all for some s, t (the map has a dead end).
    [[nodiscard]] bool any() const noexcept { return m_cells_in_regions > 0; }
    /// Prepares the pruning test for a search between the passable cells with node indices `s` and `t`.
    /// O(number of regions nested around s).
    [[nodiscard]] Query query(std::uint32_t s, std::uint32_t t) const noexcept;
    /// True if a search prepared by `q` may skip the passable cell `node` (see the overview). O(1).
    [[nodiscard]] bool prunable(std::uint32_t node, const Query& q) const noexcept {
        const CellInfo cell = m_cells[node];  // one load: key and region share 8 bytes
        if (cell.key - q.lo >= q.hi - q.lo && node != q.choke) return true;  // beyond the region holding both
        return cell.region != kNoRegion && !region_contains(cell.region, q.key_s) && !region_contains(cell.region, q.key_t);
    }

private:
    const GridMap* m_map = nullptr;
    std::uint64_t m_version = 0;
    DiagonalRule m_rule = DiagonalRule::NoCornerCutting;
    struct CellInfo {
        std::uint32_t key;     // DFS preorder number (UINT32_MAX: blocked)
        std::uint32_t region;  // innermost region
    };
    std::vector<CellInfo> m_cells;        // per node
    std::vector<std::uint32_t> m_lo;      // per region: preorder interval [lo, hi)
    std::vector<std::uint32_t> m_hi;
    std::vector<std::uint32_t> m_parent;  // per region: enclosing region
    std::vector<std::uint32_t> m_choke;   // per region: node index of its choke
    std::size_t m_cells_in_regions = 0;
};

}  // namespace gameplan::path
