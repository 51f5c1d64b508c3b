#pragma once
/// @file grid_search.hpp
/// A* and Dijkstra on a GridMap: the reusable `GridPathfinder`.
///
/// Overview
/// --------
/// `GridPathfinder` is a search object in the style of Detour's `dtNavMeshQuery`: create one per thread,
/// size it once for a map (`reserve`, or implicitly by the first query), then run any number of queries.
/// It owns all per-cell search state in flat arrays indexed by the map's node index, each entry stamped
/// with the generation of the search that last touched it (search/generation.hpp), so a new query
/// starts in O(1) and nothing is ever cleared. After warm-up a query performs **no heap allocation**
/// (the path is written into a caller-owned `GridPath` whose buffer is reused).
///
/// The inner loop is a specialised 8-neighbour expansion over the map's padded passability bytes (no
/// bounds checks, no callbacks), instantiated per diagonal rule, per "terrain costs or not" and per
/// heuristic shape. It reuses the generic engine's pieces: `search::IndexedHeap` (4-ary here), the
/// generation-stamp protocol, `search::Budget`, `search::SearchStats` and `gameplan::Status`. The open
/// list orders like the engine's `SearchContext`: smallest f, then smallest h, then the most recently
/// pushed (LIFO); the key is packed into two integers for a branch-free comparison, which compares f at
/// 32 significant bits (so routes of equal exact cost, summed in another order, tie and the goal is taken
/// first; docs/pathfinding.md, "Determinism") and h at float precision (ties closer than that fall to LIFO). `grid_space.hpp` offers the same grid as a plain
/// `search::SearchSpace` for the generic `SearchContext`.
///
/// Costs are doubles: 1 per cardinal step and sqrt(2) per diagonal step, times the terrain cost of the
/// cell entered, plus (optionally) a weighted per-cell penalty of the cell entered (`GridSearchOptions::
/// penalties`, penalty_layer.hpp). Results match the MovingAI optimal lengths to within rounding of the printed digits.
/// A query may also carry area types and a filter (forbidden areas, a cost multiplier per area) and any
/// number of weighted cost layers (`areas`, `filter`, `layers`; area_filter.hpp): a step entering c then
/// costs `length x terrain(c) x multiplier(area(c)) + sum of weight x layer(c)`, forbidden cells count as
/// blocked, and the heuristic is scaled by the smallest allowed multiplier. Queries without any of these
/// run the same specialised loop as before (the loop is instantiated with and without them).
///
/// Optimality. With weight 1 and an admissible heuristic (Auto, and every built-in heuristic except
/// Manhattan on 8-connected movement) the returned path is optimal. All built-in admissible heuristics are
/// also consistent, so a cell is expanded at most once and closed cells are never re-opened. With weight
/// w > 1 the path costs at most w times the optimum (weighted A* without re-expansion keeps that bound
/// for consistent heuristics; Likhachev, Gordon and Thrun 2003) and is usually found with far fewer
/// expansions.
///
/// Resumable form: `begin` validates the query and seeds the open list; `step(n)` expands at most n cells
/// and returns `InProgress` while unfinished; `finish` writes the path. `find_path` does all three.
/// Several sources (multi-source Dijkstra / A*) and several goals (nearest of many) are supported by the
/// span overload of `begin`; with no goals at all the search floods every reachable cell (a distance
/// field readable through `g()`) and ends with `NoPath`.
///
/// Statuses: `Found`; `NoPath` (the goal is not reachable); `BudgetExhausted` (options.budget ran out:
/// `budget_limit()` says whether expansions, time or memory);
/// `InvalidQuery` (empty map, a point off the map, a blocked start or goal, weight < 1 or not finite, an
/// area map or layer sized for another map shape, a start or goal in a forbidden area, a negative or
/// non-finite layer weight, or the map was `reset` to another size during a sliced search).
///
/// Map changes. The pathfinder keeps a pointer to the map between `begin` and `finish`; the map must
/// outlive the search. Cells may change between slices without any risk to memory safety, but the
/// result then mixes old and new map states. After a change of passability
/// (`map.passability_changed_since(map_version())`) restart: the path may cross a blocked cell. After
/// cost changes alone the path stays legal and the search reads the new costs from then on, so its cost
/// mixes the two (`query_path_cost` prices it on the map as it is); the request queue
/// (request_queue.hpp) goes on with such a search and prices the path again.
///
/// Memory: about 20 bytes per map cell (16 bytes of state plus the heap's 4-byte position), allocated
/// when a larger map is first seen, plus 4 bytes per cell of goal marks once a query has several goals,
/// plus 24 bytes per open-list entry (its capacity, grown by doubling). `memory_bytes()` sums these
/// capacities; a memory budget (`Budget::max_memory_bytes`) caps that sum: the per-cell arrays are
/// allocated only if they fit, the open list grows only if its doubling fits, and otherwise the search
/// ends with `BudgetExhausted` and `budget_limit() == Memory` (storage held from earlier queries
/// counts). State pages a search never touches are never written, so a short query on a huge map
/// stays cheap.
///
/// Thread-safety: one pathfinder per thread; many pathfinders may search the same const map at once.

#include <gameplan/path/area_filter.hpp>
#include <gameplan/path/dead_ends.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/path/penalty_layer.hpp>
#include <gameplan/search/indexed_heap.hpp>
#include <gameplan/search/search_context.hpp>
#include <gameplan/status.hpp>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <span>
#include <vector>

namespace gameplan::path {

class Islands;  // islands.hpp

/// How much of a found path `finish` / `find_path` write (every grid pathfinder honours it).
enum class PathDetail : std::uint8_t {
    Cells,      ///< every cell from start to goal (the default)
    Waypoints,  ///< a subsequence of the cells, start and goal included, consecutive ones joined by the
                ///< canonical octile line "diagonal steps first, then straight steps" (`expand_waypoints`
                ///< restores every cell): JPS and JPS+ write their jump points, the others the corner
                ///< points of the cell path. Cheaper: no cell-by-cell walk.
    CostOnly,   ///< no cells at all: only `GridPath::cost` (the cheapest result)
};

/// How a grid query moves and searches. The defaults are the MovingAI rules with plain A*.
struct GridSearchOptions {
    Movement movement = Movement::Eight;                     ///< 4- or 8-connected
    DiagonalRule diagonal = DiagonalRule::NoCornerCutting;  ///< diagonal filter for Movement::Eight
    Heuristic heuristic = Heuristic::Auto;                   ///< Auto = tightest admissible; Zero = Dijkstra
    double weight = 1.0;                                     ///< weighted A*: f = g + weight * h, weight >= 1
    /// Expansion / deadline / memory limits (whole search). The memory limit caps what the pathfinder
    /// holds (`GridPathfinder::memory_bytes()`: per-cell state, heap positions, goal marks, open list).
    search::Budget budget{};
    /// Optional unreachability precheck (islands.hpp): when the islands apply to the map and rule and no
    /// source shares an island with a goal, `begin` returns `NoPath` at once, expanding nothing. Ignored
    /// when stale or built for a stricter rule. Not owned; must outlive the search.
    const Islands* islands = nullptr;
    /// Optional dead-end pruning (dead_ends.hpp) for single-source, single-goal queries: cells in dead-end
    /// regions holding neither end are never expanded. Same cost, fewer expansions on mazes; ignored when
    /// stale or built for a stricter rule. Not owned; must outlive the search.
    const DeadEnds* dead_ends = nullptr;
    /// Optional additive per-cell penalties (penalty_layer.hpp): a step entering cell c costs
    /// `length x terrain(c) + penalty_weight x penalties(c)`. Penalties are >= 0, so A* stays exact for
    /// those costs; the path's `cost` includes them. A layer sized for another map shape, or a negative
    /// or non-finite weight, makes `begin` return `InvalidQuery`. Not owned; must outlive the search.
    const PenaltyLayer* penalties = nullptr;
    double penalty_weight = 1.0;  ///< w above (>= 0); ignored without a layer
    /// Optional area type of every cell (area_filter.hpp); read together with `filter`. Without it every
    /// cell is in area 0. Must match the map (else `InvalidQuery`). Not owned; must outlive the search.
    const AreaMap* areas = nullptr;
    /// Optional per-query filter: forbidden areas (entered like blocked cells) and a cost multiplier per
    /// area. A start or goal in a forbidden area makes `begin` return `InvalidQuery`. Not owned.
    const AreaFilter* filter = nullptr;
    /// Optional weighted cost layers, any number (each: a PenaltyLayer and a weight >= 0). Entering c
    /// adds weight x layer(c). Layers are read live: changing one needs no rebuild. Not owned; the span
    /// and the layers must outlive the search.
    std::span<const CostLayer> layers{};
    PathDetail detail = PathDetail::Cells;  ///< how much of the path `finish` writes
};

/// A path: the cells from start to goal inclusive, and its cost.
struct GridPath {
    std::vector<GridPoint> cells;  ///< start first, goal last; empty when no path was found
    double cost = 0.0;             ///< sum of the step costs (0 for start == goal; +infinity when none)
};

/// Cost of one step from `from` to its neighbour `to` under the rules and per-query costs of `options`
/// (movement, diagonal rule, areas, filter, penalties, layers): exactly what `GridPathfinder` charges,
/// `length x terrain(to) x multiplier(area(to)) + penalty_weight x penalties(to) + sum of weight x layer(to)`.
/// +infinity when the step is illegal: off the map, blocked, in a forbidden area, or a diagonal whose
/// side cells (blocked or forbidden) the diagonal rule refuses. O(layers). Never allocates.
[[nodiscard]] double query_step_cost(const GridMap& map, GridPoint from, GridPoint to,
                                     const GridSearchOptions& options) noexcept;
/// Sum of `query_step_cost` along `cells` (0 for fewer than two cells; +infinity if a step is illegal or
/// the first cell is blocked or forbidden). O(cells x layers).
[[nodiscard]] double query_path_cost(const GridMap& map, std::span<const GridPoint> cells,
                                     const GridSearchOptions& options) noexcept;

/// Rewrites the cells of `path` in place to `detail`: Cells leaves them, Waypoints keeps the corner
/// points (see corner_points), CostOnly clears them. The cost is unchanged. Never allocates.
void reduce_path(GridPath& path, PathDetail detail) noexcept;

/// Writes into `out` (cleared first) every cell of the path through `waypoints`, each consecutive pair
/// joined by "diagonal steps first, then straight steps" (the shape of PathDetail::Waypoints). Allocates
/// only if `out` must grow.
void expand_waypoints(std::span<const GridPoint> waypoints, std::vector<GridPoint>& out);
/// The state of a search in progress (`GridPathfinder::save_search`), for saving a running game: every
/// cell the search reached (g, parent, open or closed), its open list and its counters. Node indices are
/// the map's (`GridMap::index`). The open-list keys are kept bit for bit, so a restored search expands
/// the same cells in the same order as the original would have.
struct GridSearchState {
    struct Cell {
        std::uint32_t node = 0;                ///< node index
        double g = 0.0;                        ///< best known cost from a source
        std::uint32_t parent = search::kNoNode;  ///< predecessor node, kNoNode for a source
        bool closed = false;                   ///< expanded (else open)
    };
    struct OpenEntry {
        std::uint32_t node = 0;     ///< an open cell
        std::uint64_t f_bits = 0;   ///< packed key: f as double bits
        std::uint64_t tie = 0;      ///< packed key: float bits of h << 32 | ~insertion sequence
    };
    std::vector<Cell> cells;        ///< reached cells, in node order
    std::vector<OpenEntry> open;    ///< the open list (heap entries)
    bool has_held = false;          ///< an open entry buffered in front of the heap
    OpenEntry held{};               ///< that entry
    std::uint32_t sequence = 0;     ///< insertion counter of the open list
    search::SearchStats stats{};    ///< counters so far
    std::uint64_t map_version = 0;  ///< the map's version() when the search began
};

/// Writes into `out` (cleared first) the corner points of a path: its first cell, every cell where the
/// step direction changes, and its last cell. Allocates only if `out` must grow. O(path length).
void corner_points(std::span<const GridPoint> cells, std::vector<GridPoint>& out);

/// Reusable A* / Dijkstra search over a GridMap. See the file overview.
class GridPathfinder {
public:
    /// Maximum number of goals the heuristic takes into account (the minimum over all of them). With
    /// more goals the search is a plain Dijkstra (heuristic zero), which is still exact.
    static constexpr std::size_t kMaxHeuristicGoals = 16;

    /// An empty pathfinder; it sizes itself on the first query (or `reserve`). Never allocates.
    GridPathfinder() = default;
    /// Movable (the state moves with it); not copyable, as the state can be hundreds of megabytes.
    GridPathfinder(GridPathfinder&&) noexcept = default;
    /// See the move constructor.
    GridPathfinder& operator=(GridPathfinder&&) noexcept = default;
    GridPathfinder(const GridPathfinder&) = delete;
    GridPathfinder& operator=(const GridPathfinder&) = delete;

    /// Sizes the per-cell state for `map` (and the open list for `open_entries` entries) so that even
    /// the first query does not allocate. Optional. May throw std::bad_alloc.
    void reserve(const GridMap& map, std::size_t open_entries = 1u << 14);

    /// Starts a search from `start` to `goal`. Returns `InProgress`, or `InvalidQuery` (see overview), or
    /// `BudgetExhausted` (`budget_limit() == Memory`, nothing allocated) when the per-cell arrays for
    /// `map` would take what the pathfinder holds past `options.budget.max_memory_bytes`.
    /// Any previous search is forgotten in O(1).
    Status begin(const GridMap& map, GridPoint start, GridPoint goal, const GridSearchOptions& options = {});

    /// Starts a search from every cell of `sources` (all with g = 0) to the nearest cell of `goals`.
    /// With empty `goals` the search floods all reachable cells and ends with `NoPath`.
    /// Returns `InProgress`, or `InvalidQuery` (no source, or a source/goal off the map or blocked), or
    /// `BudgetExhausted` for the memory budget as the single-goal form.
    Status begin(const GridMap& map, std::span<const GridPoint> sources, std::span<const GridPoint> goals,
                 const GridSearchOptions& options = {});

    /// Expands at most `slice_expansions` cells. Returns `InProgress` if the slice ran out first, else
    /// the final status, which later calls return again. O(slice * log(open)).
    Status step(std::uint64_t slice_expansions = UINT64_MAX);

    /// Writes the path to the goal reached into `out` (cleared when there is none) and returns the
    /// status. Allocates only if `out.cells` must grow.
    Status finish(GridPath& out) const;

    /// begin + step + finish.
    Status find_path(const GridMap& map, GridPoint start, GridPoint goal, const GridSearchOptions& options,
                     GridPath& out);

    /// Status of the current search (`InProgress` until finished).
    [[nodiscard]] Status status() const noexcept { return m_status; }

    /// Copies the state of the search in progress into `out` (for a saved game). Returns false, writing
    /// nothing, unless status() is InProgress. O(map cells).
    bool save_search(GridSearchState& out) const;
    /// Continues a saved search: begins the query (`map`, `start`, `goal`, `options` as the saved search
    /// began it; the wall-clock deadline of `options.budget` starts afresh) and replaces its state by
    /// `state`. Returns InProgress; BudgetExhausted (`budget_limit() == Memory`, no search) when the
    /// arrays or the saved open list would pass the memory budget; InvalidQuery, leaving no search, when `state` does not fit the map
    /// (a node off the map or blocked, a parent that was not reached or that forms a cycle, an open entry
    /// for a cell that is not open, a negative or non-finite g, a cell listed twice) or the query itself
    /// is invalid. When the map's passability changed after `state.map_version` the cells are not checked
    /// against the map (a caller restarts such a search anyway, as the request queue does); after cost
    /// changes alone they are.
    /// O(cells reached + open entries x log).
    Status restore_search(const GridMap& map, GridPoint start, GridPoint goal, const GridSearchOptions& options,
                          const GridSearchState& state);

    /// Counters of the current search.
    [[nodiscard]] const search::SearchStats& stats() const noexcept { return m_stats; }
    /// Which limit of the budget ended the search: `None` unless status() is BudgetExhausted, then
    /// `Expansions`, `Time` or `Memory`. Reset by every begin.
    [[nodiscard]] search::BudgetLimit budget_limit() const noexcept { return m_limit; }
    /// Bytes the pathfinder holds: the capacities of its per-cell state (16 bytes a cell), the heap's
    /// position array (4) and entries (24 each), the goal marks (4 a cell, once a query had several
    /// goals) and the active layer lists. Not the map's. What `Budget::max_memory_bytes` caps.
    [[nodiscard]] std::size_t memory_bytes() const noexcept;
    /// The goal cell reached (valid when status() == Found).
    [[nodiscard]] GridPoint goal_reached() const noexcept;
    /// Cost of the path found, or +infinity when none.
    [[nodiscard]] double cost() const noexcept;
    /// The map's version() when the current search began.
    [[nodiscard]] std::uint64_t map_version() const noexcept { return m_map_version; }
    /// Cells currently on the open list.
    [[nodiscard]] std::size_t open_size() const noexcept {
        return m_heap.size() + (m_held_node != search::kNoNode ? 1 : 0);
    }

    /// True if the current search has generated the cell (open or closed). False off the map.
    [[nodiscard]] bool reached(GridPoint p) const noexcept;
    /// True if the current search has expanded the cell: its g() is then final (exact distance from the
    /// nearest source when the heuristic is consistent and the weight is 1). False off the map.
    [[nodiscard]] bool closed(GridPoint p) const noexcept;
    /// Best known cost from the nearest source, or +infinity if the cell was not reached.
    [[nodiscard]] double g(GridPoint p) const noexcept;
    /// Writes the best known route from a source to a reached cell into `out` (cleared first; empty
    /// if the cell was not reached).
    void path_to(GridPoint p, GridPath& out) const;
    /// The cell before `p` on its best known route from a source: one step toward the nearest source
    /// (a flow field's direction). Returns `p` itself for a source, {-1, -1} if `p` was not reached. O(1).
    [[nodiscard]] GridPoint parent(GridPoint p) const noexcept;

private:
    struct CellState {
        double g;              // best known cost from a source
        std::uint32_t parent;  // node index of the predecessor, search::kNoNode for a source
        std::uint32_t stamp;   // generation protocol (search/generation.hpp)
    };
    struct FreeDeleter {
        void operator()(CellState* p) const noexcept { std::free(p); }
    };
    // Open-list key with the engine's order (smallest f, then smallest h, then most recently pushed),
    // packed into two integers so a comparison is branch-free: f and h are non-negative doubles, whose
    // bit patterns order like their values; h is rounded to float to share a word with the sequence.
    struct Key {
        std::uint64_t f_bits;
        std::uint64_t tie;  // float bits of h << 32 | ~sequence
        friend bool operator<(const Key& a, const Key& b) noexcept {
#if defined(__SIZEOF_INT128__)
            __extension__ using U128 = unsigned __int128;
            return ((U128(a.f_bits) << 64) | a.tie) < ((U128(b.f_bits) << 64) | b.tie);
#else
            return a.f_bits < b.f_bits || (a.f_bits == b.f_bits && a.tie < b.tie);
#endif
        }
    };
    [[nodiscard]] static Key make_key(double f, double h, std::uint32_t sequence) noexcept;
    using StepFunction = Status (GridPathfinder::*)(std::uint64_t);
    // How the inner loop computes h: specialised for the common single-goal cases.
    enum class HMode : std::uint8_t { Generic, Octile, Manhattan, Zero };
    static constexpr unsigned kHeapArity = 4;  // measured faster than binary on the MovingAI maps

    // kExtras: areas, a filter or cost layers are in force (the general cost function).
    template <DiagonalRule Rule, bool kTerrain, bool kExtras, HMode kH>
    Status run(std::uint64_t slice_expansions);
    template <DiagonalRule Rule, bool kTerrain, bool kExtras>
    static StepFunction pick_step(HMode mode) noexcept;
    template <DiagonalRule Rule>
    static StepFunction pick_costs(bool terrain, bool extras, HMode mode) noexcept;
    [[nodiscard]] bool forbidden_node(std::uint32_t node) const noexcept;
    [[nodiscard]] double heuristic_at(std::int32_t x, std::int32_t y) const noexcept;
    [[nodiscard]] bool is_goal(std::uint32_t node) const noexcept;
    [[nodiscard]] bool reached_node(std::uint32_t node) const noexcept;
    Status prepare(const GridMap& map, const GridSearchOptions& options);
    bool allocate(const GridSearchOptions& options, bool goal_marks);
    void ensure_capacity(std::size_t bound);
    [[nodiscard]] bool over_budget(std::size_t more) const noexcept;
    [[gnu::noinline]] bool grow_open();
    Status out_of_memory() noexcept;

    std::unique_ptr<CellState[], FreeDeleter> m_cells;  // calloc'd: zero stamps, untouched pages stay lazy
    std::size_t m_capacity = 0;
    search::IndexedHeap<Key, kHeapArity> m_heap;
    std::uint32_t m_held_node = search::kNoNode;  // open-list entry buffered in front of the heap
    Key m_held_key{};
    std::vector<std::uint32_t> m_goal_stamp;  // multi-goal marks (stamp == generation), sized on first use

    const GridMap* m_map = nullptr;
    std::uint32_t m_bound = 0;   // map.node_bound() at begin; detects a reset map between slices
    std::uint32_t m_stride = 0;  // map.stride() at begin
    std::uint64_t m_map_version = 0;
    StepFunction m_step = nullptr;

    Heuristic m_heuristic = Heuristic::Zero;
    double m_h_scale = 0.0;  // weight * map.min_cost()
    std::array<GridPoint, kMaxHeuristicGoals> m_h_goals{};  // padded coordinates (x + 1, y + 1)
    std::size_t m_h_goal_count = 0;
    std::uint32_t m_goal_node = search::kNoNode;  // single goal; kNoNode with multi-goal or flood
    bool m_multi_goal = false;

    const DeadEnds* m_dead_ends = nullptr;  // pruning in force for this search, or null
    struct ActiveLayer {
        const PenaltyLayer* layer;
        double weight;
    };
    std::vector<ActiveLayer> m_layers;           // layers (and penalties) in force, weight > 0
    std::vector<const float*> m_layer_data;      // their data, refreshed by every slice
    const AreaMap* m_areas = nullptr;            // area map in force (with a filter), or null
    const double* m_multipliers = nullptr;       // the filter's multipliers by area
    std::uint64_t m_forbidden = 0;               // the filter's forbidden areas
    std::uint64_t m_present = 0;                 // areas on the map (AreaMap::present) when last looked at
    bool m_uniform_areas = false;                // every allowed present area has m_base_multiplier
    double m_base_multiplier = 1.0;              // multiplier of every cell without an area map
    bool m_extras = false;
    PathDetail m_detail = PathDetail::Cells;
    DeadEnds::Query m_dead_query{};

    search::Budget m_budget{};
    search::SearchStats m_stats{};
    Status m_status = Status::NoPath;
    search::BudgetLimit m_limit = search::BudgetLimit::None;
    bool m_out_of_memory = false;  // the open list could not grow within the memory budget
    std::size_t m_layer_count = 0;  // layers (and penalties) of positive weight the query puts in force
    std::uint32_t m_found = search::kNoNode;
    std::uint32_t m_generation = search::kUnvisitedStamp;
    std::uint32_t m_sequence = 0;
};

}  // namespace gameplan::path
