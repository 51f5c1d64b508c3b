#pragma once
/// @file hex_grid.hpp
/// Hex grids on the ordinary GridMap: the "odd-r" offset layout, A* / Dijkstra (`HexPathfinder`) and
/// islands (`HexIslands`).
///
/// Overview
/// --------
/// A hex map is stored exactly like a square one (a `GridMap`, loaded from the same `.map` and
/// plain-text files); only the neighbourhood differs. Layout "odd-r" (pointy-top hexagons, rows offset):
/// every odd row is shifted half a cell to the right, so cell (x, y) touches
///
///     even y: (x-1, y-1) (x, y-1)      (x-1, y) (x+1, y)      (x-1, y+1) (x, y+1)
///     odd  y: (x, y-1)   (x+1, y-1)    (x-1, y) (x+1, y)      (x, y+1)   (x+1, y+1)
///
/// Six neighbours, no diagonal rule (hexes share whole edges). A step costs the terrain cost of the cell
/// entered (1 on maps without terrain costs: the path cost is then the number of steps). The heuristic
/// is the hex distance (`hex_distance`, steps on an empty map) times the map's smallest terrain cost:
/// admissible and consistent, so A* is optimal. `HexSearchOptions::heuristic = HexHeuristic::Zero`
/// gives Dijkstra; `weight` > 1 weighted A*.
///
/// `HexPathfinder` has the shape of every gameplan search: one object per thread, `begin` / `step` /
/// `finish` or `find_path`, `search::Budget`, `search::SearchStats`, `gameplan::Status`, the path in a
/// caller-owned `GridPath` (cells from start to goal). It runs the generic engine
/// (`search::SearchContext<double>`); once sized for the largest map seen a query allocates nothing.
///
/// Statuses: `Found`; `NoPath`; `BudgetExhausted` (`budget_limit()` says which limit: expansions, the
/// deadline, or the memory the pathfinder would hold, `memory_bytes()`); `InvalidQuery` (empty map, a
/// point off the map or blocked, no source, weight < 1 or not finite).
///
/// Thread-safety: one pathfinder per thread; many may search the same const map at once. `HexIslands`:
/// const members may be called from many threads; `build`, `cell_changed` and `set_passable` must not
/// overlap any other call.

#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/islands.hpp>
#include <gameplan/search/search_context.hpp>
#include <gameplan/status.hpp>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <vector>

namespace gameplan::path {

/// The six neighbours of (x, y) in the odd-r layout, in the order east, west, then the two above, then
/// the two below (some may lie off the map).
[[nodiscard]] constexpr std::array<GridPoint, 6> hex_neighbours(GridPoint p) noexcept {
    const std::int32_t s = (p.y & 1) ? 0 : -1;  // even rows lean left, odd rows right
    return {GridPoint{p.x + 1, p.y}, GridPoint{p.x - 1, p.y}, GridPoint{p.x + s, p.y - 1},
            GridPoint{p.x + s + 1, p.y - 1}, GridPoint{p.x + s, p.y + 1}, GridPoint{p.x + s + 1, p.y + 1}};
}

/// Number of hex steps between two cells on an empty odd-r map. O(1).
[[nodiscard]] constexpr std::int64_t hex_distance(GridPoint a, GridPoint b) noexcept {
    // Axial coordinates: q = x - floor(y / 2), r = y.
    const auto axial_q = [](GridPoint p) { return std::int64_t{p.x} - ((std::int64_t{p.y} - (p.y & 1)) / 2); };
    const std::int64_t dq = axial_q(a) - axial_q(b), dr = std::int64_t{a.y} - b.y;
    const auto abs = [](std::int64_t v) { return v < 0 ? -v : v; };
    return (abs(dq) + abs(dr) + abs(dq + dr)) / 2;
}

/// Cost of a hex path on the map as it is now: the terrain cost of every cell entered (0 for a path of one
/// cell or none), or +infinity when a cell is off the map or blocked, or two cells in a row are not
/// neighbours. For checking and pricing a path found earlier. O(cells).
[[nodiscard]] double hex_path_cost(const GridMap& map, std::span<const GridPoint> cells) noexcept;

/// Connected components of the passable cells of a hex map. Keep them up to date as cells open and close
/// (`set_passable`, or `cell_changed` after changing the map), or rebuild; `current(map)` tells whether
/// the map's passability changed since. Memory: 4 bytes per cell and 4 per island label, and 4 more per
/// cell once a closed cell has needed a search.
class HexIslands {
public:
    /// Labels every passable cell of `map` (a breadth-first flood per island). O(cells).
    void build(const GridMap& map);
    /// Reports that the passability of `p` may have changed on `map`: call it after the change, once for
    /// every cell that changed. The islands are current again once every change is reported (each bumps
    /// the map's passability_version() once; each report counts once). Opening a cell joins the islands
    /// around it (the smaller ones are relabelled). Closing one may split its island: if its open neighbours form one arc of the six
    /// around it, nothing split (O(1)); otherwise one breadth-first search per arc runs in lock step and
    /// stops as soon as they all met or all but one ran out, so the cost follows the smaller sides.
    /// Returns false (and does nothing) if the islands were not built for this map object or `p` is off
    /// the map; a map `reset` since the build (of any size) is rebuilt. Ids of islands may change.
    bool cell_changed(const GridMap& map, GridPoint p);
    /// Sets the passability of a cell of `map` and updates the islands. Returns false if `p` is off the
    /// map (nothing changes) or the islands were not built for `map` (the map still changes).
    bool set_passable(GridMap& map, GridPoint p, bool passable);
    /// Island of `p`, or UINT32_MAX for a blocked or off-map cell.
    [[nodiscard]] std::uint32_t island(GridPoint p) const noexcept;
    /// True if both cells are passable and on the same island (a path exists).
    [[nodiscard]] bool connected(GridPoint a, GridPoint b) const noexcept;
    /// Whether a path from `a` to `b` exists, as `Islands::connectivity` answers: `Unknown` while a
    /// change of the map's passability went unreported (the map must outlive these calls), else
    /// `Reachable` or `Unreachable`. O(1).
    [[nodiscard]] Reachability connectivity(GridPoint a, GridPoint b) const noexcept {
        if (m_map != nullptr && !current(*m_map)) return Reachability::Unknown;
        return connected(a, b) ? Reachability::Reachable : Reachability::Unreachable;
    }
    /// Number of islands.
    [[nodiscard]] std::uint32_t count() const noexcept { return m_count; }
    /// Number of passable cells on island `island`, 0 for an unknown id. O(1).
    [[nodiscard]] std::size_t island_size(std::uint32_t island) const noexcept {
        return island < m_sizes.size() ? m_sizes[island] : 0;
    }
    /// True if built for `map` as it is now (same object, size and passability_version(); cost changes
    /// leave the islands current).
    [[nodiscard]] bool current(const GridMap& map) const noexcept {
        return m_map == &map && m_version == map.passability_version() && m_width == map.width() &&
               m_height == map.height();
    }

private:
    [[nodiscard]] std::size_t at(GridPoint p) const noexcept {
        return std::size_t(p.y) * std::size_t(m_width) + std::size_t(p.x);
    }
    [[nodiscard]] bool open(GridPoint p) const noexcept {
        return p.x >= 0 && p.y >= 0 && p.x < m_width && p.y < m_height && m_label[at(p)] != UINT32_MAX;
    }
    void cell_opened(GridPoint p);
    void cell_closed(GridPoint p);
    // Gives every cell of `cells` the island `label`.
    void relabel(std::span<const GridPoint> cells, std::uint32_t label) noexcept;

    std::vector<std::uint32_t> m_label;  // y * width + x; UINT32_MAX for blocked cells
    std::vector<std::uint32_t> m_sizes;  // cells per island label (0: a label merged away or emptied)
    std::vector<std::uint32_t> m_visit;  // split searches: side stamps per cell (allocated at the first)
    std::vector<GridPoint> m_queue[6];   // split searches: each side's cells, in the order reached
    std::vector<GridPoint> m_flood;      // merges: the cells of an island being relabelled
    std::uint32_t m_stamp = 0;           // split searches: the current one's sides stamp m_stamp + 0 .. 5
    std::int32_t m_width = 0, m_height = 0;
    std::uint32_t m_count = 0;
    const GridMap* m_map = nullptr;
    std::uint64_t m_version = 0;
    std::uint64_t m_resets = 0;  // map.reset_count() at the build
};

/// Which heuristic a hex search uses.
enum class HexHeuristic : std::uint8_t {
    Auto,  ///< hex distance times the map's smallest terrain cost
    Zero,  ///< Dijkstra
};

/// How a hex query searches.
struct HexSearchOptions {
    HexHeuristic heuristic = HexHeuristic::Auto;
    double weight = 1.0;       ///< weighted A*: f = g + weight * h, weight >= 1
    /// Expansion, deadline and memory limits (whole search). The memory limit caps what the pathfinder
    /// holds (`HexPathfinder::memory_bytes()`: the engine's per-cell arrays and open list, the goal
    /// marks, the sources), checked before any of it grows; storage held from earlier queries counts.
    search::Budget budget{};
    /// Optional unreachability precheck: when current for the map and no source shares an island with a
    /// goal, `begin` returns `NoPath` at once. Not owned; must outlive the search.
    const HexIslands* islands = nullptr;
};

/// Reusable A* / Dijkstra search on a hex map. See the file overview.
class HexPathfinder {
public:
    /// Goals the heuristic takes into account (the nearest of them); beyond, h = 0.
    static constexpr std::size_t kMaxHeuristicGoals = 16;

    /// Sizes the state for `map` so even the first query does not allocate. May throw bad_alloc.
    void reserve(const GridMap& map);
    /// Starts a search from `start` to `goal`. Returns `InProgress`, `InvalidQuery`, `NoPath` (islands), or
    /// `BudgetExhausted` (budget_limit() Memory: what the pathfinder holds, or would add for this map,
    /// passes `options.budget.max_memory_bytes`; nothing is allocated then).
    Status begin(const GridMap& map, GridPoint start, GridPoint goal, const HexSearchOptions& options = {});
    /// Starts from every source to the nearest goal; with no goals, floods (distances via g()). Returns as
    /// the single-goal form.
    Status begin(const GridMap& map, std::span<const GridPoint> sources, std::span<const GridPoint> goals,
                 const HexSearchOptions& options = {});
    /// Expands at most `slice_expansions` cells; `InProgress` if the slice ran out first, else the final status.
    Status step(std::uint64_t slice_expansions = UINT64_MAX);
    /// Writes the path (cells, cost) to the goal reached into `out` (cleared when none); returns the status.
    Status finish(GridPath& out) const;
    /// begin + step + finish.
    Status find_path(const GridMap& map, GridPoint start, GridPoint goal, const HexSearchOptions& options, GridPath& out);

    /// Status of the current search.
    [[nodiscard]] Status status() const noexcept { return m_status; }
    /// Counters of the current search.
    [[nodiscard]] const search::SearchStats& stats() const noexcept { return m_context.stats(); }
    /// Which limit of `options.budget` ended the search (`None` unless status() is `BudgetExhausted`).
    [[nodiscard]] search::BudgetLimit budget_limit() const noexcept {
        if (m_status != Status::BudgetExhausted) return search::BudgetLimit::None;
        return m_limit != search::BudgetLimit::None ? m_limit : m_context.budget_limit();
    }
    /// Bytes the pathfinder holds, as the memory budget counts them: the capacities of the engine's
    /// per-cell arrays (28 bytes per padded cell), the open list (4 bytes per padded cell of positions,
    /// 32 per entry), the goal marks (4 bytes per padded cell, after `reserve` or once a query had several
    /// goals) and the source buffer. Not the map's. `reserve` sizes the per-cell parts for exactly the
    /// map (a first query does too; a later, larger map grows them by doubling).
    [[nodiscard]] std::size_t memory_bytes() const noexcept { return m_context.engine_bytes() + own_bytes(); }
    /// The goal cell reached (valid when Found).
    [[nodiscard]] GridPoint goal_reached() const noexcept;
    /// Cost of the path found, or +infinity when none.
    [[nodiscard]] double cost() const noexcept;
    /// True if the current search expanded `p` (its g() is then exact with weight 1).
    [[nodiscard]] bool closed(GridPoint p) const noexcept;
    /// Best known cost from the nearest source, +infinity if not reached.
    [[nodiscard]] double g(GridPoint p) const noexcept;
    /// Writes the best known route to a reached cell into `out` (empty if not reached).
    void path_to(GridPoint p, GridPath& out) const;

private:
    struct Space {
        const GridMap* map = nullptr;
        const HexPathfinder* owner = nullptr;
        [[nodiscard]] std::size_t node_bound() const noexcept { return map->node_bound(); }
        [[nodiscard]] double heuristic(search::NodeIndex node) const noexcept { return owner->heuristic(node); }
        [[nodiscard]] bool is_goal(search::NodeIndex node) const noexcept { return owner->is_goal(node); }
        // The pathfinder's own arrays (and those begin is about to add), for the engine's memory budget.
        [[nodiscard]] std::size_t memory_bytes() const noexcept { return owner->own_bytes() + owner->m_pending_bytes; }
        template <class Sink>
        void expand(search::NodeIndex node, Sink&& sink) const {
            const GridPoint p = map->point(node);
            for (const GridPoint q : hex_neighbours(p))
                if (map->passable(q)) sink(map->index(q), static_cast<double>(map->cost(q)), 0u);
        }
    };
    [[nodiscard]] double heuristic(search::NodeIndex node) const noexcept;
    [[nodiscard]] bool is_goal(search::NodeIndex node) const noexcept;
    [[nodiscard]] bool reached_cell(GridPoint p) const noexcept;
    [[nodiscard]] std::size_t own_bytes() const noexcept {
        return m_goal_mark.capacity() * sizeof(std::uint32_t) + m_sources.capacity() * sizeof(search::NodeIndex);
    }

    search::SearchContext<double> m_context;
    Space m_space{};
    std::vector<std::uint32_t> m_goal_mark;
    std::uint32_t m_goal_generation = 0;
    std::uint32_t m_goal = search::kNoNode;
    bool m_multi_goal = false;
    std::array<GridPoint, kMaxHeuristicGoals> m_h_goals{};
    std::size_t m_h_goal_count = 0;
    double m_h_scale = 0.0;
    std::vector<search::NodeIndex> m_sources;  // node indices of the current sources
    std::size_t m_pending_bytes = 0;  // goal marks begin allocates once the engine has its arrays
    search::BudgetLimit m_limit = search::BudgetLimit::None;  // a limit begin ran into itself
    Status m_status = Status::NoPath;
};

}  // namespace gameplan::path
