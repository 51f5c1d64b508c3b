#pragma once
/// @file islands.hpp
/// Islands: the connected components of a grid map under one movement rule, kept up to date as cells
/// change, so a query between two islands is answered `NoPath` in O(1) without searching.
///
/// Overview
/// --------
/// Users of grid pathfinders report unreachable goals as their worst case: a plain A* floods the whole
/// start island before it can say "no path". `Islands` labels every passable cell with the island it
/// belongs to (a flood fill), and `GridSearchOptions::islands` makes
/// `GridPathfinder::begin` return `NoPath` at once when no source shares an island with any goal.
///
/// Exact for the rule. Which cells are connected depends on the movement rule: under 8-connected
/// no-corner-cutting movement two passable cells touching only diagonally, with both cells beside the
/// diagonal blocked, are *not* neighbours, while under `DiagonalRule::Always` they are. Islands are
/// computed for one (movement, diagonal rule) pair and are exact for it. The rules are nested (every step
/// legal under Never is legal under NoCornerCutting, then OneObstacle, then Always), so islands built for
/// a more permissive rule are coarser and still *prove* unreachability for a stricter one: the precheck is
/// applied whenever the query's rule is at most as permissive as the islands' rule, and ignored otherwise.
///
/// Representation. Each cell holds a *label*; labels are grouped into islands, each island a linked list
/// of labels headed by its *root* label, and every label stores its root. So `island(p)` is two array
/// reads and `connectivity(a, b)` four: O(1), no search, no union-find walk.
///
/// Changes (measure in docs/scale.md):
/// - a cell becoming passable joins the islands of its legal neighbours: the smaller island's labels are
///   re-pointed to the larger root (weighted merge, O(labels of the smaller island)); no cell is touched;
/// - a cell becoming blocked may split its island. First a local test: if the cells that were its legal
///   neighbours are still connected inside its 3 x 3 neighbourhood, nothing split (the common case, O(1)).
///   Otherwise, with `IslandUpdate::Eager`, one breadth-first search per side runs in lock step; the
///   searches stop as soon as all sides met (no split) or all but one are exhausted (each exhausted side
///   becomes a new island), so the cost is proportional to the *smaller* side(s), not to the map. With
///   `IslandUpdate::Lazy` the island is only marked dirty and re-flooded by the next `refresh` (batching
///   many changes into one O(island size) pass).
/// Blocking never merges and unblocking is handled exactly, so labels are always *at least as coarse*
/// as the true components: "different islands" is always a proof of unreachability, even while a split
/// is pending. Only "same island" of a dirty island is uncertain (`Reachability::Unknown`); the precheck
/// then simply lets the search run.
///
/// Keeping in sync. The islands remember the map object and its `passability_version()`. After changing
/// cells, call `cell_changed` for every cell whose passability changed (or change them through
/// `Islands::set_passable`, which does both). Each change bumps the map's passability version once and
/// each report counts once, so the versions agree again only when every change was reported: in the
/// middle of a batch the islands are not current. Terrain-cost changes need no call: they leave the
/// passability version, and so the islands, current. Until the versions
/// agree again, `current()` is false and the precheck is ignored (a stale answer is never used);
/// `update()` brings stale islands back by rebuilding. `connectivity` answers `Unknown` while stale, so a
/// change made behind the islands' back can never produce a wrong "unreachable".
///
/// Memory: 8 bytes per map cell (label and search stamp) plus 20 bytes per label.
///
/// Thread-safety: const members may be called from many threads at once (the precheck is const);
/// `build`, `cell_changed`, `set_passable`, `refresh` and `update` must not overlap any other call.

#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/path/grid_search.hpp>

#include <array>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace gameplan::path {

/// How a cell that becomes blocked is handled when it may split its island (see the overview).
enum class IslandUpdate : std::uint8_t {
    Eager,  ///< resolve at once with lock-step searches from each side (cost ~ the smaller sides)
    Lazy,   ///< mark the island dirty; `refresh` re-floods dirty islands (cost ~ their size)
};

/// Answer of `Islands::connectivity`.
enum class Reachability : std::uint8_t {
    Unreachable,  ///< different islands (or a point blocked / off the map): proven, no path exists
    Reachable,    ///< same island and the island is exact: a path exists
    Unknown,      ///< same island, but the island has a pending split (Lazy mode): search to know
};

/// "unreachable", "reachable" or "unknown".
[[nodiscard]] constexpr std::string_view to_string(Reachability r) noexcept {
    return r == Reachability::Unreachable ? "unreachable" : r == Reachability::Reachable ? "reachable" : "unknown";
}

/// Counters of the incremental updates since `build` (for benchmarks and tests).
struct IslandStats {
    std::uint64_t merges = 0;          ///< islands joined by cells becoming passable
    std::uint64_t blocked_local = 0;   ///< blocked cells settled by the 3 x 3 local test
    std::uint64_t split_searches = 0;  ///< lock-step searches run (Eager)
    std::uint64_t splits = 0;          ///< new islands split off (Eager and refresh)
    std::uint64_t searched_cells = 0;  ///< cells visited by lock-step searches and refresh floods
    std::uint64_t deferred = 0;        ///< possible splits left to `refresh` (Lazy)
    std::uint64_t rebuilds = 0;        ///< full rebuilds (build, label compaction, update of stale islands)
};

/// Connected components of a GridMap under one movement rule. See the file overview.
class Islands {
public:
    /// Island id of blocked and off-map cells.
    static constexpr std::uint32_t kNoIsland = UINT32_MAX;

    Islands() = default;

    /// Computes the islands of `map` for the movement rule of `rules` (its `movement` and `diagonal`; the
    /// other fields are ignored) by flood fill, O(cells), and remembers the map object and its version.
    /// Allocates; may throw std::bad_alloc.
    void build(const GridMap& map, const GridSearchOptions& rules = {}, IslandUpdate update = IslandUpdate::Eager);

    /// True once `build` has run.
    [[nodiscard]] bool built() const noexcept { return m_map != nullptr; }
    /// The diagonal rule in force (DiagonalRule::Never for 4-connected movement).
    [[nodiscard]] DiagonalRule rule() const noexcept { return m_rule; }
    /// The update policy chosen at build time.
    [[nodiscard]] IslandUpdate update_policy() const noexcept { return m_update; }

    /// True if these islands were built for this very map object and are in sync with its
    /// passability_version() (every passability change was reported). O(1).
    [[nodiscard]] bool current(const GridMap& map) const noexcept {
        return m_map == &map && m_version == map.passability_version() && m_bound == map.node_bound() && m_stride == map.stride();
    }
    /// True if no split is pending (always true with IslandUpdate::Eager): every answer is exact.
    [[nodiscard]] bool exact() const noexcept { return m_seeds.empty(); }
    /// True if the islands may serve as a precheck for queries on `map` under the given rule: current,
    /// and built for a rule at least as permissive (see the overview). O(1).
    [[nodiscard]] bool applies_to(const GridMap& map, const GridSearchOptions& rules) const noexcept {
        return current(map) &&
               static_cast<int>(effective_diagonal(rules.movement, rules.diagonal)) <= static_cast<int>(m_rule);
    }

    /// Id of the island holding `p`, or kNoIsland for a blocked cell or a point off the map. Ids are
    /// stable until the next change of a cell. O(1).
    [[nodiscard]] std::uint32_t island(GridPoint p) const noexcept {
        if (!m_map || p.x < 0 || p.y < 0 || p.x >= m_width || p.y >= m_height) return kNoIsland;
        const std::uint32_t label = m_label[node_of(p)];
        return label == kNoIsland ? kNoIsland : m_root[label];
    }
    /// Whether a path from `a` to `b` exists, as far as the islands know. O(1).
    /// Stale islands never answer: when the map's passability_version() moved on since the islands were
    /// last in sync (a cell opened or closed through the map, not through `set_passable` /
    /// `cell_changed`), the answer is `Unknown` until `update()` (or `build`) brings them back. The map the islands were built for must
    /// therefore outlive these calls, as it must for `update()`.
    [[nodiscard]] Reachability connectivity(GridPoint a, GridPoint b) const noexcept {
        if (m_map != nullptr && !current(*m_map)) return Reachability::Unknown;
        const std::uint32_t ia = island(a), ib = island(b);
        if (ia == kNoIsland || ib == kNoIsland || ia != ib) return Reachability::Unreachable;
        return m_dirty[ia] ? Reachability::Unknown : Reachability::Reachable;
    }
    /// True if the islands prove that no goal is reachable from any source on `map` under the rule:
    /// they apply (`applies_to`), every point is passable, and no source shares an island with a goal.
    /// False when not proven (including empty `goals`, and more than 16 distinct source islands).
    /// O(sources + goals). This is the precheck `GridPathfinder::begin` runs.
    [[nodiscard]] bool proves_unreachable(const GridMap& map, const GridSearchOptions& rules,
                                          std::span<const GridPoint> sources,
                                          std::span<const GridPoint> goals) const noexcept;

    /// Number of non-empty islands. Exact when exact(); otherwise a lower bound (pending splits). O(1).
    [[nodiscard]] std::size_t island_count() const noexcept { return m_live; }
    /// Number of passable cells on the island with id `island`, 0 for an unknown id. O(1).
    [[nodiscard]] std::size_t island_size(std::uint32_t island) const noexcept {
        return island < m_cells.size() && m_root[island] == island ? m_cells[island] : 0;
    }

    /// Reports that the passability of `p` may have changed on `map` (call it after the change; a cell
    /// whose passability did not change, e.g. a cost change, costs O(1) and changes nothing). Updates the
    /// islands as described in the overview and counts the change: once every changed cell is reported
    /// they are in sync with map.passability_version() again (until then `current()` is false).
    /// Returns false (and does nothing) if the islands were not built for this map object or `p` is off
    /// the map; a map `reset` since the build (of any size: every cell may have changed) triggers a
    /// rebuild. Allocates only when the label arrays grow.
    bool cell_changed(const GridMap& map, GridPoint p);
    /// `cell_changed` for each cell of `cells` (all changes made before the call).
    bool cells_changed(const GridMap& map, std::span<const GridPoint> cells);
    /// Sets the passability of a cell of `map` and updates the islands. Returns false if `p` is off the
    /// map (nothing changes) or the islands were not built for `map` (the map still changes).
    bool set_passable(GridMap& map, GridPoint p, bool passable);

    /// Settles every pending split (Lazy mode) by re-flooding the dirty islands from the cells next to
    /// the blocked ones. O(cells of the dirty islands). No-op when exact().
    void refresh();
    /// Makes the islands current and exact for `map`: rebuild if they are not current (another map, a
    /// reset, or unreported changes), otherwise `refresh`.
    void update(const GridMap& map);

    /// Counters of the incremental updates.
    [[nodiscard]] const IslandStats& stats() const noexcept { return m_stats; }

private:
    [[nodiscard]] std::uint32_t node_of(GridPoint p) const noexcept {
        return static_cast<std::uint32_t>(p.y + 1) * m_stride + static_cast<std::uint32_t>(p.x + 1);
    }
    std::uint32_t new_island(std::uint32_t cells);
    std::uint32_t merge(std::uint32_t root_a, std::uint32_t root_b);
    void add_cells(std::uint32_t root, std::int64_t delta) noexcept;
    void relabel(std::span<const std::uint32_t> nodes, std::uint32_t old_root);
    void cell_became_passable(std::uint32_t node);
    void cell_became_blocked(std::uint32_t node);
    void resolve_split(std::span<const std::uint32_t> seeds, std::uint32_t root);
    std::uint32_t next_visit_base(std::uint32_t span);
    void flood(std::uint32_t seed, std::uint32_t stamp, std::vector<std::uint32_t>& out);

    const GridMap* m_map = nullptr;
    const std::uint8_t* m_pass = nullptr;  // m_map->passable_data(), refreshed on every entry
    std::uint64_t m_version = 0;
    std::uint64_t m_resets = 0;  // map.reset_count() at the build
    std::uint32_t m_bound = 0;
    std::uint32_t m_stride = 0;
    std::int32_t m_width = 0;
    std::int32_t m_height = 0;
    DiagonalRule m_rule = DiagonalRule::NoCornerCutting;
    IslandUpdate m_update = IslandUpdate::Eager;

    std::vector<std::uint32_t> m_label;  // per node: label, kNoIsland for blocked cells and the border
    // Per label. A label's island is m_root[label]; an island's labels are chained through m_next from
    // its root (the list head) to m_tail[root]. m_count and m_cells are meaningful for roots only.
    std::vector<std::uint32_t> m_root;
    std::vector<std::uint32_t> m_next;
    std::vector<std::uint32_t> m_tail;
    std::vector<std::uint32_t> m_count;  // labels in the island
    std::vector<std::uint32_t> m_cells;  // passable cells in the island
    std::vector<std::uint8_t> m_dirty;   // island has a pending split (Lazy)
    std::size_t m_live = 0;              // islands with at least one cell

    std::vector<std::uint32_t> m_seeds;  // Lazy: cells next to blocked cells of dirty islands
    std::vector<std::uint32_t> m_visit;  // per node: search stamp
    std::uint32_t m_visit_base = 0;
    std::array<std::vector<std::uint32_t>, 4> m_queues;  // lock-step searches; a queue doubles as visit list
    std::vector<std::uint32_t> m_scratch;
    IslandStats m_stats;
};

/// The islands' precheck of a query from `start` to `goal`, as every single-pair grid search runs it: true
/// if `options.islands` is set and proves `goal` unreachable from `start` on `map` under the rule of
/// `options` (Islands::proves_unreachable). O(1).
[[nodiscard]] inline bool islands_prove_unreachable(const GridMap& map, const GridSearchOptions& options, GridPoint start,
                                                    GridPoint goal) noexcept {
    return options.islands != nullptr &&
           options.islands->proves_unreachable(map, options, std::span<const GridPoint>(&start, 1), std::span<const GridPoint>(&goal, 1));
}

}  // namespace gameplan::path
