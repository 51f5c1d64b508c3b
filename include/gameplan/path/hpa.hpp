#pragma once
/// @file hpa.hpp
/// Two-tier hierarchical pathfinding (HPA*, Botea, Mueller and Schaeffer 2004) over a GridMap.
///
/// Overview
/// --------
/// `HierarchicalMap` cuts the map into square *clusters* of `cluster_size` x `cluster_size` cells (the
/// last row and column of clusters may be narrower). Along the border between two side-by-side clusters
/// a cell pair (a, b), a on one side and b on the other, is *open* when both are passable, so the
/// cardinal step a -> b is legal. A maximal run of open pairs is an *entrance*; with `merge_entrances`,
/// consecutive runs form one entrance when the gap between them is bridged on both sides by the cells
/// one step inside each cluster. An entrance gets *transitions* (open pairs): one in its middle if it is
/// shorter than `entrance_split`, otherwise one at each end and more in between, at most
/// `entrance_spacing` cells apart. The two cells of a transition are *abstract nodes*; a cell is at
/// most one node.
///
/// The abstract graph has two kinds of directed edges:
/// - *inter* edges: the single step a -> b of a transition (and b -> a), cost = one step's cost;
/// - *intra* edges: between two nodes of one cluster, cost = the exact shortest distance of a path that
///   stays inside the cluster, found by a Dijkstra flood from every node restricted to the cluster. The
///   cell path of every intra edge is cached (one byte per step): refinement copies, it does not search.
/// With `prune_implied_edges`, u -> w is dropped when some node v of the cluster has
/// d(u, v) + d(v, w) = d(u, w); abstract distances do not change.
///
/// Diagonal rules. With `DiagonalRule::Always` a diagonal step may squeeze between two blocked cells;
/// such a step that crosses a cluster border (or a cluster corner) is a transition of its own. For the
/// other rules every legal diagonal crossing has a cardinal detour through one of its side cells, which
/// lies on an entrance: the abstract graph keeps every connection, and whenever a path exists HPA*
/// finds one.
///
/// Queries (`HpaPathfinder`): start and goal are linked to the nodes of their clusters with the
/// in-cluster distances, read from the `distance_tables` (or found by one Dijkstra flood per cluster
/// without them; the goal's runs on reversed steps, terrain costs being directed); if both lie in one
/// cluster, the direct in-cluster distance (an A* inside the cluster) is a link too. A* over the
/// abstract graph (octile distance times the map's minimum terrain cost: consistent) finds the cheapest
/// abstract path, which is *refined* to cells from the tables and the cached edge paths; its cost is
/// summed exactly over the cells. An optional smoothing pass (smoothing.hpp) shortens the result while
/// keeping it a legal grid path. The search is a specialised loop beside `search::SearchContext`
/// (reusing its heap, key, stamps, Budget, SearchStats and Status) with one rule the generic engine
/// cannot express: a node entered through an intra edge does not relax its cluster's intra edges again
/// (exact in-cluster distances obey the triangle inequality, so the node it came from offered each of
/// them at least as cheaply).
///
/// Optimality. The abstract distance is the cost of a real grid path, never below the optimum; it
/// exceeds it when the optimal path crosses a border away from a transition. Measured figures on the
/// MovingAI maps are in docs/benchmarks.md. Each query reports a certified lower bound of the optimal
/// cost (`HpaPathfinder::lower_bound`), hence a certified upper bound of its own suboptimality.
///
/// Map changes (`update_cell`). After changing one cell (passability or terrain cost), call
/// `update_cell` with it: transitions depend on cells at most one step from a border, so it rescans
/// the borders among the clusters holding p's 5 x 5 neighbourhood (at most 4 clusters once clusters
/// have side 5 or more), and rebuilds the cluster holding p, both clusters of every border whose
/// transitions changed, and any neighbour with an inter edge into p. The result is identical to a fresh
/// `build` (the tests check it). Queries refuse a hierarchy whose recorded map version differs from the
/// map's (`InvalidQuery`), which catches a forgotten update of the last change; call `update_cell` for
/// *every* changed cell. Its cost is that of re-flooding the rebuilt clusters from each of their nodes:
/// smaller clusters repair faster.
///
/// Cost profiles. The per-query costs of grid searches (area_filter.hpp: an area map with a filter of
/// forbidden areas and multipliers; `penalties` and weighted `layers`) shape the abstract graph itself,
/// so a hierarchy is built *for* one such profile: the `areas`, `filter`, `penalties` /
/// `penalty_weight` and `layers` of the `GridSearchOptions` given to `build`. Forbidden cells count as
/// blocked (transitions, floods, the diagonal rule's side cells), and every cost - intra edges,
/// distance tables, inter edges, insertion, refinement windows, smoothing and the reported cost - is
/// the combined cost of `query_step_cost`: length x terrain x multiplier + weighted layers of the cell
/// entered. The heuristic and `lower_bound` are scaled by the smallest allowed multiplier, as in
/// `GridPathfinder`. The hierarchy copies the filter and keeps pointers to the area map and layers
/// (which must outlive it), with their `version()`s; it stores a price per cell (17 bytes per cell).
/// Queries must carry the same profile (`matches_costs`: the same area map and layers by address, equal
/// weights and filter contents; layers of weight 0 and an area map without a filter do not count), or
/// they get `InvalidQuery` - so does every query on a hierarchy built without one that carries any of
/// them. After changing layer values or areas, call `update_cells` with the changed cells (as
/// `update_cell` after a map change): only the clusters involved are rebuilt, and the result equals a
/// fresh build (tested). Queries refuse a hierarchy whose recorded area map or layer version differs
/// from the current one (`InvalidQuery`), which catches a forgotten repair of the last change; after a
/// layer's `clear` or `scale`, repair every cell it had touched, or build again. Build one hierarchy per
/// profile for unit kinds that must differ (a hierarchy is read-only during queries: all units of a
/// kind share it).
///
/// Memory: 4 bytes per map cell (cell -> node table); per node about 60 bytes, 8 bytes per edge and
/// one byte per cached step; with distance tables 4 bytes per cell *per node of its cluster* (twice on
/// maps with terrain costs), which dominates: see `memory_bytes()` and docs/benchmarks.md.
///
/// Thread-safety: a built `HierarchicalMap` is read-only during queries: many `HpaPathfinder`s (one per
/// thread) may query it at once. `build` and `update_cell` must not overlap any other call on it.

#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/search/search_context.hpp>
#include <gameplan/status.hpp>

#include <gameplan/path/area_filter.hpp>
#include <gameplan/path/penalty_layer.hpp>

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

namespace gameplan::path {

/// Smallest accepted cluster side.
inline constexpr std::int32_t kMinClusterSize = 1;
/// Largest accepted cluster side (a cluster's local search arrays hold side^2 cells).
inline constexpr std::int32_t kMaxClusterSize = 256;

/// How a hierarchy is built: cluster geometry and a memory cap (the movement rules are a
/// `GridSearchOptions`, given to `build` beside these, as to every grid pathfinder). The defaults were chosen on the
/// shared MovingAI maps (docs/benchmarks.md): large clusters keep the abstract graph small, merged
/// entrances with regular spacing keep paths short, distance tables make start/goal insertion free.
/// Smaller clusters make `update_cell` cheaper (it re-floods whole clusters) and use less memory.
struct HierarchyOptions {
    std::int32_t cluster_size = 64;  ///< cluster side in cells, [1, 256]
    /// Entrances shorter than this get one transition in their middle; longer ones one at each end.
    std::int32_t entrance_split = 6;
    /// If > 0, long entrances also get transitions in between, at most this many cells apart.
    /// More transitions: shorter paths, slower queries. 0 = ends only (Botea et al.).
    std::int32_t entrance_spacing = 12;
    /// Drop intra edges implied by two others (see the overview). Off by default: the search's rule
    /// of not relaxing intra edges from a node entered through one (which needs every intra edge)
    /// saves more, even in mazes.
    bool prune_implied_edges = false;
    /// Merge neighbouring runs of a border into one entrance when the gap between them is bridged on
    /// both sides by the row (column) of cells one step inside each cluster: crossing anywhere in the
    /// merged entrance then costs at most two extra steps, and scattered obstacles no longer shred a
    /// border into many short entrances, each with its own transition.
    bool merge_entrances = true;
    /// Keep every node's in-cluster distance to every cell of its cluster (4 bytes per cell and node
    /// of the cluster; twice that on maps with terrain costs, whose distances are directed). Start and
    /// goal are then connected by table lookups instead of two Dijkstra floods per query. This is most
    /// of the hierarchy's memory (see `memory_bytes`); turn it off for huge maps.
    bool distance_tables = true;
    /// If > 0, `build` refuses (`HierarchyBuild::OverMemory`, nothing built) when the hierarchy's
    /// estimated memory (`HierarchicalMap::estimate_memory_bytes`) exceeds this many bytes.
    std::size_t max_memory_bytes = 0;
};

/// Outcome of `HierarchicalMap::build`.
enum class HierarchyBuild : std::uint8_t {
    Ok,             ///< built
    EmptyMap,       ///< the map has no cells
    BadOptions,     ///< cluster_size outside [1, 256], entrance_split < 1 or entrance_spacing < 0
    OverMemory,     ///< the estimated memory exceeds HierarchyOptions::max_memory_bytes
    BadCosts,       ///< the cost profile's area map or a layer is sized for another map, or a weight is
                    ///< negative or not finite
};

/// Human-readable description of a build outcome ("" for Ok).
[[nodiscard]] std::string_view describe(HierarchyBuild outcome) noexcept;

/// One directed abstract edge, as reported by `HierarchicalMap::edges` (for tests, tools and figures).
struct AbstractEdgeView {
    GridPoint from;       ///< cell of the source node
    GridPoint to;         ///< cell of the target node
    double cost = 0.0;    ///< exact cost of the cached cell path
    bool inter = false;   ///< true for a border step between clusters, false for an in-cluster edge
    friend bool operator==(const AbstractEdgeView&, const AbstractEdgeView&) = default;
};

/// Counters of the last build or update.
struct HierarchyBuildStats {
    std::uint64_t clusters_rebuilt = 0;  ///< clusters whose nodes and edges were recomputed
    std::uint64_t borders_scanned = 0;   ///< borders (and corners) whose transitions were recomputed
    std::uint64_t local_expanded = 0;    ///< cells expanded by the in-cluster Dijkstra floods
    double micros = 0.0;                 ///< wall-clock time of the build or update
};

/// The abstract graph of HPA*. See the file overview.
class HierarchicalMap {
public:
    /// An empty (not built) hierarchy. Never allocates.
    HierarchicalMap();
    ~HierarchicalMap();
    /// Moves the graph; the moved-from hierarchy reads as not built.
    HierarchicalMap(HierarchicalMap&&) noexcept;
    /// Moves the graph; the moved-from hierarchy reads as not built.
    HierarchicalMap& operator=(HierarchicalMap&&) noexcept;
    HierarchicalMap(const HierarchicalMap&) = delete;
    HierarchicalMap& operator=(const HierarchicalMap&) = delete;

    /// Builds the hierarchy of `map` for the movement rule of `rules` (its `movement` and `diagonal`)
    /// and the *cost profile* of `rules` (its `areas` + `filter`, `penalties` + `penalty_weight` and
    /// `layers`; see "Cost profiles" in the overview), replacing any previous one, and remembers the
    /// map and the profile's area map and layers: queries read them, so they must outlive them (the
    /// filter is copied). The other fields are ignored. O(cells * transitions per cluster). Allocates;
    /// may throw std::bad_alloc. On anything but Ok the hierarchy is left empty.
    HierarchyBuild build(const GridMap& map, const GridSearchOptions& rules = {}, const HierarchyOptions& options = {});
    /// Shorthand: build with default rules and options and the given cluster side.
    HierarchyBuild build(const GridMap& map, std::int32_t cluster_size) {
        HierarchyOptions options;
        options.cluster_size = cluster_size;
        return build(map, GridSearchOptions{}, options);
    }

    /// Estimated bytes of the hierarchy `build` would make (what `memory_bytes` reports after it, to
    /// within the cached paths' lengths, which are estimated at one cluster side per intra edge), found
    /// by scanning the borders only: O(border cells + nodes), allocating 4 bytes per cell. 0 for an
    /// empty map or bad options.
    [[nodiscard]] static std::size_t estimate_memory_bytes(const GridMap& map, const GridSearchOptions& rules = {},
                                                           const HierarchyOptions& options = {});

    /// Repairs the hierarchy after cell `p` of `map` changed (passability or terrain cost): recomputes
    /// the transitions of the borders and corners `p` touches and rebuilds the clusters involved (the
    /// cluster of `p` always; a neighbour only if a shared border changed or `p` is one of its
    /// transition targets). Returns false (changing nothing) if the hierarchy is empty, `p` is off the
    /// map, or the map's size differs from the one built. Records map.version(). Allocates.
    bool update_cell(const GridMap& map, GridPoint p);
    /// `update_cell` for every cell of `cells` at once: each involved cluster is rebuilt once (cheaper
    /// than one call per cell when several cells of a cluster changed, as a layer update usually does).
    /// Also the repair after a change of the cost profile's area map or layers at these cells. Returns
    /// false (changing nothing) if the hierarchy is empty, a cell is off the map, or the map's size
    /// differs from the one built. Records map.version() and the profile's versions (an empty `cells`
    /// changes and records nothing). Allocates.
    bool update_cells(const GridMap& map, std::span<const GridPoint> cells);

    /// True if the hierarchy was built with a cost profile (a filter, penalties or a layer of weight > 0).
    [[nodiscard]] bool has_cost_profile() const noexcept { return m_profiled; }
    /// True if the per-query costs of `options` (areas + filter, penalties, layers) are those the
    /// hierarchy was built for: the same area map and layers (by address), weights and filter
    /// contents, ignoring layers of weight 0 and an area map without a filter. What queries require.
    [[nodiscard]] bool matches_costs(const GridSearchOptions& options) const noexcept;

    /// True after a successful build.
    [[nodiscard]] bool built() const noexcept { return m_width > 0; }
    /// The options of the last build.
    [[nodiscard]] const HierarchyOptions& options() const noexcept { return m_options; }
    /// The movement rule of the last build.
    [[nodiscard]] Movement movement() const noexcept { return m_movement; }
    /// The diagonal rule in force (DiagonalRule::Never for 4-connected movement).
    [[nodiscard]] DiagonalRule diagonal() const noexcept { return m_diagonal; }
    /// The map of the last build or update (queries read it); null when not built.
    [[nodiscard]] const GridMap* map() const noexcept { return built() ? m_map : nullptr; }
    /// map.version() at the last build or update: queries refuse a map with another version.
    [[nodiscard]] std::uint64_t map_version() const noexcept { return m_map_version; }
    /// Map width the hierarchy was built for.
    [[nodiscard]] std::int32_t width() const noexcept { return m_width; }
    /// Map height the hierarchy was built for.
    [[nodiscard]] std::int32_t height() const noexcept { return m_height; }
    /// Number of clusters.
    [[nodiscard]] std::size_t cluster_count() const noexcept { return m_clusters.size(); }
    /// Number of live abstract nodes.
    [[nodiscard]] std::size_t node_count() const noexcept { return m_live_nodes; }
    /// One past the largest abstract node id (ids of removed nodes are reused).
    [[nodiscard]] std::uint32_t node_bound() const noexcept { return static_cast<std::uint32_t>(m_nodes.size()); }
    /// Number of directed abstract edges (intra + inter).
    [[nodiscard]] std::size_t edge_count() const noexcept;
    /// Bytes held by the hierarchy's arrays (approximate: vector capacities).
    [[nodiscard]] std::size_t memory_bytes() const noexcept;
    /// Counters of the last build or update_cell.
    [[nodiscard]] const HierarchyBuildStats& last_build_stats() const noexcept { return m_build_stats; }

    /// Writes every directed abstract edge into `out` (cleared first), sorted by (from, to) in row-major
    /// cell order: a canonical listing, equal for equal hierarchies whatever their node ids. O(E log E).
    void edges(std::vector<AbstractEdgeView>& out) const;
    /// Writes the cells of every abstract node into `out` (cleared first), in row-major order.
    void node_cells(std::vector<GridPoint>& out) const;

private:
    friend class HpaPathfinder;
    struct Impl;
    // What the abstract search reads lives in one block of 32-bit words per node, inside its cluster's
    // pool: [edge count, intra count, cluster, slot, then per edge: float cost bits, target id]. The
    // intra edges come first. One block is one or a few consecutive cache lines, reached through
    // m_node_block. The cost is a float: the search only orders by it, and a refined path's cost is
    // summed exactly from its cells. Cold data (cells, cached paths) lives elsewhere.
    static constexpr std::uint32_t kBlockHeader = 4;
    struct Node {
        std::int32_t x, y;
        std::uint32_t cell;          // padded map index
        std::uint32_t cluster;       // kNoNode for a free id
        std::uint32_t slot;          // position in its cluster's node list
        std::uint32_t block_offset;  // start of its block in the cluster's pool
        std::uint32_t edge_begin;    // index of its first edge among the cluster's edges
        std::uint32_t edge_count;
        std::uint32_t intra_count;   // the first intra_count edges stay inside the cluster
    };
    struct Transition {
        std::uint32_t a;            // padded index of the cell in the lower-numbered cluster
        std::uint32_t b;            // padded index of the cell in the other cluster
        friend bool operator==(const Transition&, const Transition&) = default;
    };
    struct Cluster {
        std::int32_t x0, y0, w, h;
        std::vector<std::uint32_t> nodes;  // node ids, in row-major cell order
        std::vector<std::uint32_t> blocks;      // the nodes' search blocks (see Node)
        std::vector<std::uint32_t> edge_steps;  // per edge: offset of its direction codes in `steps`
        std::vector<std::uint8_t> steps;        // direction codes 0..7; a path ends at its target
        // With distance tables: [slot * w * h + local cell] = distance node -> cell (`from`) and
        // cell -> node (`to`; empty when equal to `from`, i.e. without terrain costs). Node-major, so
        // that refinement, which reads a cell's neighbours in one node's table, stays in cache.
        std::vector<float> dist_from, dist_to;
        // Transitions to the right, lower, lower-right and lower-left neighbours.
        std::vector<Transition> right, down, down_right, down_left;
    };

    void scan_transitions(const GridMap& map, std::uint32_t cluster);
    void add_entrance_transitions(std::vector<Transition>& out, const std::uint8_t* pass, std::uint32_t first_a,
                                  std::uint32_t along, std::uint32_t across, std::int32_t begin, std::int32_t end) const;
    template <class Visit>
    void for_each_transition(std::uint32_t cluster, Visit&& visit) const;
    void assign_nodes(std::uint32_t cluster);
    void build_edges(const GridMap& map, std::uint32_t cluster);
    bool set_profile(const GridMap& map, const GridSearchOptions& rules);
    void price_cell(const GridMap& map, std::uint32_t cell) noexcept;
    void record_versions(const GridMap& map) noexcept;
    [[nodiscard]] bool versions_current() const noexcept;
    void collect_dirty(const GridMap& map, GridPoint p);
    [[nodiscard]] std::uint32_t cluster_of(std::int32_t x, std::int32_t y) const noexcept {
        return static_cast<std::uint32_t>((y / m_options.cluster_size) * m_clusters_x + x / m_options.cluster_size);
    }

    HierarchyOptions m_options{};
    Movement m_movement = Movement::Eight;
    DiagonalRule m_diagonal = DiagonalRule::NoCornerCutting;  // effective rule
    const GridMap* m_map = nullptr;
    bool m_has_costs = false;  // distance tables directed (dist_to kept)
    [[nodiscard]] std::size_t estimate_after_scan() const noexcept;
    HierarchyBuild start_build(const GridMap& map, const GridSearchOptions& rules, const HierarchyOptions& options);
    void clear() noexcept;
    std::int32_t m_width = 0;
    std::int32_t m_height = 0;
    std::uint32_t m_stride = 0;
    std::int32_t m_clusters_x = 0;
    std::int32_t m_clusters_y = 0;
    std::uint64_t m_map_version = 0;
    std::vector<Cluster> m_clusters;
    std::vector<Node> m_nodes;
    std::vector<const std::uint32_t*> m_node_block;  // per node id: its search block
    std::vector<std::uint32_t> m_node_xy;  // per node id: x | y << 16 (the heuristic's input, cache-dense)
    std::vector<std::uint32_t> m_free_nodes;
    std::vector<std::uint32_t> m_node_of_cell;  // padded index -> node id or kNoNode
    std::size_t m_live_nodes = 0;
    // Cost profile (see the overview). Layers of weight 0 are left out; penalties come first.
    bool m_profiled = false;
    const AreaMap* m_areas = nullptr;  // with a filter, else null
    AreaFilter m_filter{};             // a copy; the default filter without one
    bool m_has_filter = false;
    std::vector<CostLayer> m_layers;
    std::vector<std::uint64_t> m_layer_versions;
    std::uint64_t m_areas_version = 0;
    double m_min_multiplier = 1.0;     // smallest multiplier of an allowed area on the map
    std::vector<std::uint8_t> m_pass;  // per padded cell: passable and not forbidden
    std::vector<double> m_scale;       // per padded cell: terrain x multiplier
    std::vector<double> m_add;         // per padded cell: sum of weight x layer value
    HierarchyBuildStats m_build_stats{};
    std::unique_ptr<Impl> m_impl;  // build scratch (local search context, buffers), made on first build
};

/// Per-query options of `HpaPathfinder`: the grid search options (the same rules as every grid
/// pathfinder) plus the HPA* post-processing.
///
/// `movement` and `diagonal` must match the hierarchy's rule (else `InvalidQuery`); `heuristic` must
/// be `Auto` (the abstract search uses the octile or Manhattan distance); `weight` >= 1 weights the
/// abstract search's heuristic (fewer expansions, at most w times the abstract optimum); `budget`
/// limits the abstract search's expansions and time over all slices (the in-cluster insertion is
/// bounded by the cluster size and not counted; refinement windows have expansion budgets of their
/// own) and, with `max_memory_bytes`, what the query object holds (`HpaPathfinder::memory_bytes()`):
/// `begin` checks the abstract search's state, the insertion floods and buffers before they grow, the
/// search its open list, and each refinement window gets what is left as its own memory limit (a
/// window stopped by it is kept, as one stopped by its expansions); storage held from earlier queries
/// counts. The hierarchy's own memory is `HierarchyOptions::max_memory_bytes`'s; `islands`, when they apply,
/// answer unreachable goals at once; `dead_ends` is ignored.
/// Per-query costs (`penalties`, `areas` + `filter`, `layers`) must be those the hierarchy was built
/// for (`HierarchicalMap::matches_costs`; see "Cost profiles" in the overview), else `InvalidQuery`:
/// the abstract graph's entrances and edge costs are those of its profile, so another filter would get
/// paths through cells it forbids, other layers a cost that leaves them out. Run queries with other
/// costs on `GridPathfinder` (grid_search.hpp) or on a hierarchy built for them.
struct HpaQueryOptions : GridSearchOptions {
    /// Shorten the refined path (docs/hierarchy.md, "Refinement"): overlapping windows of two cluster
    /// sides along the path, each replaced by an optimal path between its ends when that is cheaper.
    /// A window already at the octile (Manhattan) lower bound of its ends is kept without a search; the
    /// others are searched by a budgeted JPS (8-connected, no corner cutting, uniform costs; the
    /// pathfinder then holds a JPS snapshot of the map, about 21 bytes per cell) or else a budgeted A*
    /// (about 16 bytes per cell). Never lengthens the path.
    bool refine = true;
    /// Apply `smooth_path` (smoothing.hpp) to the result before returning it.
    bool smooth = false;
};

/// Reusable HPA* query object (one per thread). See the file overview.
///
/// After warm-up (the first queries on a hierarchy of a given size, or `reserve`) a query performs no
/// heap allocation, refinement and smoothing included; the path is written into a caller-owned `GridPath`.
class HpaPathfinder {
public:
    /// An empty query object; its buffers are made and sized by the first queries. Never allocates.
    HpaPathfinder();
    ~HpaPathfinder();
    /// Moves the buffers; the moved-from object stays usable (it starts over with empty buffers).
    HpaPathfinder(HpaPathfinder&&) noexcept;
    /// Moves the buffers; the moved-from object stays usable (it starts over with empty buffers).
    HpaPathfinder& operator=(HpaPathfinder&&) noexcept;
    HpaPathfinder(const HpaPathfinder&) = delete;
    HpaPathfinder& operator=(const HpaPathfinder&) = delete;

    /// Sizes the query object for `hierarchy` (built), so that even the first query allocates nothing:
    /// the abstract search's state and open list for all its nodes, the insertion floods and their
    /// buffers for its largest cluster, the refinement windows' pathfinder for its map (per-cell state,
    /// and an open list of 4,096 entries for JPS, 16,384 for A*), and the path buffers for paths of up
    /// to 2 x (width + height) cells. A query that needs more (a longer path, a larger open list) grows
    /// them as it would have. Optional; a hierarchy not built sizes nothing. What it sizes counts in
    /// memory_bytes() and against a query's memory budget, as if queries had grown it. May throw
    /// std::bad_alloc.
    void reserve(const HierarchicalMap& hierarchy);

    /// Starts a query from `start` to `goal` on the map of `hierarchy` (`hierarchy.map()`): checks it,
    /// links start and goal to the abstract graph (table lookups, or without distance tables two floods
    /// of at most cluster_size^2 cells; an in-cluster search when both share a cluster) and opens the
    /// abstract search. Returns `InProgress`; `NoPath` when `options.islands` proves the goal
    /// unreachable; `BudgetExhausted` (budget_limit() `Memory`) when what the query object holds, or
    /// would add for this query, passes `options.budget.max_memory_bytes` (nothing is allocated then);
    /// `InvalidQuery` (hierarchy not built, its map's size or version differs from the
    /// build's, the version of its profile's area map or a layer differs from the one recorded, options
    /// not supported (see HpaQueryOptions), a point off the map, blocked or in a forbidden area). Any
    /// previous query is forgotten. `hierarchy` and its map must outlive the query and not change until
    /// it ends (a change between slices makes `step` return `InvalidQuery`).
    Status begin(const HierarchicalMap& hierarchy, GridPoint start, GridPoint goal, const HpaQueryOptions& options = {});

    /// Expands at most `slice_expansions` abstract nodes. Returns `InProgress` if the slice ran out first,
    /// else the final status (`Found`, `NoPath`, `BudgetExhausted` when `options.budget` ran out, see
    /// budget_limit(); the budget counts the expansions of all slices together), which later calls
    /// return again. The slice
    /// that finds the goal also turns the abstract path into cells, refines and smooths it (bounded:
    /// see HpaQueryOptions::refine).
    Status step(std::uint64_t slice_expansions = UINT64_MAX);

    /// Writes the path found into `out` (cleared when there is none; reduced to `options.detail`) and
    /// returns the status. Allocates only if `out.cells` must grow.
    Status finish(GridPath& out) const;

    /// begin + step + finish: writes the cells and the cost into `out` (cleared when there is none).
    Status find_path(const HierarchicalMap& hierarchy, GridPoint start, GridPoint goal, const HpaQueryOptions& options,
                     GridPath& out);

    /// Status of the current query (`InProgress` until it ends).
    [[nodiscard]] Status status() const noexcept { return m_status; }
    /// Cost of the path found (after refinement and smoothing), or +infinity when none.
    [[nodiscard]] double cost() const noexcept { return m_cost; }

    /// Counters of the last query's abstract search (`expanded` = abstract nodes expanded).
    [[nodiscard]] const search::SearchStats& stats() const noexcept { return m_stats; }
    /// Which limit of `options.budget` ended the query (`None` unless status() is `BudgetExhausted`).
    [[nodiscard]] search::BudgetLimit budget_limit() const noexcept {
        return m_status == Status::BudgetExhausted ? m_limit : search::BudgetLimit::None;
    }
    /// Bytes the query object holds, as the memory budget counts them (capacities): the abstract
    /// search's per-node state (32 bytes per abstract node of the largest hierarchy seen) and open list,
    /// the insertion floods (about 60 bytes per cell of the largest cluster seen), their buffers, and the
    /// refinement windows' pathfinders (as their own `memory_bytes()` reports). Not the hierarchy's, nor
    /// the path buffers.
    [[nodiscard]] std::size_t memory_bytes() const noexcept;
    /// Cells expanded by the last query's start and goal insertion floods (0 with distance tables).
    [[nodiscard]] std::uint64_t insertion_expanded() const noexcept { return m_insertion_expanded; }
    /// Cells expanded by the last query's refinement windows.
    [[nodiscard]] std::uint64_t refinement_expanded() const noexcept { return m_refinement_expanded; }
    /// Abstract nodes on the last path, start and goal included.
    [[nodiscard]] std::uint64_t abstract_path_nodes() const noexcept { return m_abstract_path_nodes; }
    /// Cost of the last path as read off the abstract graph, before refinement and smoothing.
    [[nodiscard]] double abstract_cost() const noexcept { return m_abstract_cost; }
    /// A certified lower bound of the optimal cost of the last query (valid when it returned Found):
    /// the octile distance (Manhattan for 4-connected movement) times the map's minimum terrain cost
    /// (and the smallest allowed area multiplier with a cost profile).
    /// Equals the cost when the path found is a straight line in open space.
    [[nodiscard]] double lower_bound() const noexcept { return m_lower_bound; }
    /// Certified upper bound of the last path's relative suboptimality: cost / lower_bound() - 1, so
    /// cost <= optimum * (1 + bound) always holds; 0 for start == goal, +infinity when nothing was
    /// found. Tight in open space, loose in mazes (where the octile distance says little).
    [[nodiscard]] double suboptimality_bound() const noexcept;

private:
    struct Impl;
    void write_path();
    void refine(const HierarchicalMap& hierarchy, GridPath& out);
    [[nodiscard]] static bool refines_with_jps(const HierarchicalMap& hierarchy) noexcept;
    std::unique_ptr<Impl> m_impl;  // search contexts and buffers, made by the first query
    search::SearchStats m_stats{};
    std::uint64_t m_insertion_expanded = 0;
    std::uint64_t m_refinement_expanded = 0;
    std::uint64_t m_abstract_path_nodes = 0;
    double m_abstract_cost = 0.0;
    double m_lower_bound = 0.0;
    double m_cost = 0.0;
    search::BudgetLimit m_limit = search::BudgetLimit::None;
    Status m_status = Status::NoPath;
};

}  // namespace gameplan::path
