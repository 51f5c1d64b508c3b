#pragma once
/// @file navmesh_hierarchy.hpp
/// A preprocessed any-angle tier over a navigation mesh: the sparse visibility graph of the mesh's corners,
/// searched through a contraction hierarchy or, where the graph is too dense to contract, by goal-directed
/// A* with landmarks. Same paths (Euclidean-optimal, same free space) as `NavmeshPathfinder` (navmesh.hpp),
/// found much faster on maps with many small obstacles.
///
/// Overview
/// --------
/// Nodes are the mesh vertices that are corners (exactly one of the four cells around the grid point is
/// blocked or off the map): a shortest path turns only there. Two corners are joined when they see each
/// other through the free space (see navmesh.hpp) and the edge is *taut* at both ends: the line through
/// it, extended past a corner, does not enter the interior of that corner's blocked cell (the sparse
/// visibility graph of Oh and Leong, 2016; it keeps every shortest path). An edge that passes straight
/// through a third corner is left out (the two edges through that corner are as long). Each corner's
/// visible corners come from a visibility sweep through the mesh's rectangles: angular intervals
/// projected through shared edges, closed at their ends (a path may graze corners and run along walls),
/// never through a point where two rectangles only touch.
///
/// Method::Contraction. The graph is contracted (nodes ordered by twice the shortcuts added minus the
/// edges removed, plus contracted neighbours and depth); a shortcut is added only for a locally taut turn
/// that neither a sight check, a common neighbour nor a bounded witness search avoids, and records its
/// middle node for unpacking. When the cheapest node left has more than `set_core_degree()` neighbours,
/// contraction stops: the nodes left form a core that keeps all its edges. A query sweeps the corners
/// visible from start and goal, keeps those at which a path can turn (taut), and runs a bidirectional
/// Dijkstra upwards through the hierarchy and across the core, seeded with them at their Euclidean
/// distances, until neither side's smallest key is below the best meeting.
///
/// Method::Landmarks. No contraction: each corner keeps its edges sorted by direction, and
/// `set_landmark_count()` corners (32 by default) are chosen farthest-first, each storing its shortest
/// distance in the free space to every corner (Dijkstra from the landmark as a point, then, for every
/// corner, the least over the corners it sees of their distance plus the segment: the last corner
/// before a corner need not be taut there). A query runs A* from the start's taut seeds: at a corner
/// reached from p it reads only the edges whose direction lies between the straight continuation and
/// the blocked cell's nearer side (the taut turns, found by binary search); a node is queued by
/// g + max(|v goal|, |d(L, goal) - d(L, v)| over the 4 landmarks that bound the start's distance best)
/// less a margin for the float rounding (the ALT bound of Goldberg and Harrelson, 2005; d(L, goal) is
/// read as the least over the goal's taut seeds u of d(L, u) + |u goal|: at least the exact distance,
/// and never more than through the seed where a path from v ends, so the bound stays admissible). A
/// node's landmark distances are asked of the cache with its label; the start's seeds, swept before the
/// landmarks are chosen, are queued by g + |v goal| and get the landmarks' bound when they reach the top.
/// The sweeps read a compact copy of the mesh's edges (start point and node inline, 20 bytes per mesh
/// edge); the edge range is found over 16-bit quantized angles. Only keys below |start goal| plus a band
/// (0.2% of it, at least 1) are kept ordered, the others in an unordered overflow from which the next
/// band is taken when the band runs dry (most corners generated are never settled). The band is cut into
/// 4,096 buckets of equal width: a binary heap holds the current bucket, the later ones are lists poured
/// into it in turn (the order stays exact). The goal's taut seeds (marked in a bitset) end it; it stops
/// when the smallest key reaches the best path. A landmark that reaches the goal but not a node cuts that
/// node off (it cannot reach the goal).
///
/// Method::Auto (default) picks Landmarks when the graph averages 18 or more edges per corner, else
/// Contraction: sparse single-cell noise (random512-10-0: 76,000 corners, 1.2 million edges, where
/// contraction leaves a core of 33,000 corners and takes two minutes) and very open maps (AR0011SR,
/// Aftershock: the endpoints' sweeps seed many corners, which the upward search all settles, while A*
/// heads for the goal) get landmarks; mazes, rooms, dense noise and most game maps contract.
///
/// Either way a query first locates start and goal and tries the straight segment (walked through the
/// rectangles); a goal seen from the start is answered by the straight segment. The path is the start,
/// the (unpacked) corners (integer coordinates) and the goal; its cost is its Euclidean length.
///
/// Cost: the build sweeps once per corner (twice with landmarks) and contracts: 1 ms to 0.4 s of CPU on
/// the 512 x 512 MovingAI maps of docs/benchmarks.md, but about 4-6 s on random512-10-0 (landmarks).
/// Contraction holds 24 bytes per node and 16 per upward edge; Landmarks 24 bytes per node, 10 per edge
/// end (both directions), 4 per node and landmark and 20 per mesh edge. A pathfinder holds 32 bytes per
/// hierarchy node plus its open lists and sweep stack (with landmarks one bit per node more, 16.5 KiB of
/// buckets, and the parts of the start's sweep set aside, 48 bytes each); after warm-up a query
/// allocates nothing.
///
/// Thread-safety: a built hierarchy is immutable; any number of pathfinders (one per thread) may read it
/// (and the mesh it was built from, which must outlive it and stay unchanged).

#include <gameplan/path/jps.hpp>
#include <gameplan/path/navmesh.hpp>

#include <chrono>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace gameplan::path {

namespace detail {
/// A mesh edge as a landmark query's sweeps read it (navmesh_hierarchy.cpp): its start point, the node of
/// that vertex (or UINT32_MAX: not a corner), the polygon across and the twin edge.
struct NavSweepEdge {
    std::int32_t x, y;
    std::uint32_t node, neighbour, twin;
};
struct NavmeshHierarchyInspector;  // white-box reads (the benchmark of the search's bounds, a test of its band)
}  // namespace detail

/// The sparse visibility graph of a mesh's corners, contracted into a hierarchy or prepared for a
/// goal-directed search with landmarks. See the file overview.
class NavmeshHierarchy {
public:
    /// Builds the hierarchy of `mesh`. Returns `JpsSupport::Ok`; `EmptyMap` (the mesh has no polygon;
    /// an empty hierarchy is built, on which every query is `InvalidQuery`); `MemoryBudget`: the graph
    /// would hold more than `max_memory_bytes` during the build (nothing is built); or `TimeBudget`: the
    /// build was still running at `deadline` (the clock is read every 64 corners swept or contracted, and
    /// per landmark; nothing is built). Allocates (may throw std::bad_alloc).
    JpsSupport build(const Navmesh& mesh, std::size_t max_memory_bytes = SIZE_MAX,
                     std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max());

    /// Contraction stops when the cheapest node left has more than this many neighbours; the nodes left
    /// form a *core* that keeps all its edges (searched in both directions by a query). Default 192.
    void set_core_degree(std::uint32_t degree) noexcept { m_core_degree = degree; }

    /// How queries search the graph.
    enum class Method : std::uint8_t {
        Auto,         ///< chosen by the build from the graph (default)
        Contraction,  ///< contraction hierarchy, bidirectional Dijkstra
        Landmarks,    ///< no contraction: goal-directed A* over the whole graph
    };
    /// The method the next build uses (Auto: chosen from the graph).
    void set_method(Method method) noexcept { m_method_wanted = method; }
    /// The method the built hierarchy uses (Contraction or Landmarks once built). With Landmarks there are
    /// no upward edges (`up()` is empty, `upward_edge_count()` 0) and every node counts as core.
    [[nodiscard]] Method method() const noexcept { return m_method; }
    /// Landmarks the next build chooses when it uses `Method::Landmarks` (default 32; 0: A* with the
    /// straight-line bound only). More settle fewer corners per query but cost a Dijkstra each at build
    /// and 4 bytes per corner each.
    void set_landmark_count(std::uint32_t count) noexcept { m_landmark_count = count; }
    /// Landmarks chosen by the last build (nodes).
    [[nodiscard]] std::span<const std::uint32_t> landmarks() const noexcept { return m_landmarks; }
    /// Shortest distance in the free space from landmark `i` (< landmarks().size()) to node `v` (rounded
    /// to float; +infinity when unreachable).
    [[nodiscard]] float landmark_distance(std::size_t i, std::uint32_t v) const noexcept {
        return m_landmark_dist[std::size_t(v) * m_landmarks.size() + i];
    }
    /// Nodes of the uncontracted core (the top ranks).
    [[nodiscard]] std::size_t core_count() const noexcept { return m_core; }

    /// True once build() returned Ok.
    [[nodiscard]] bool built() const noexcept { return m_built; }
    /// The mesh it was built from (nullptr before build).
    [[nodiscard]] const Navmesh* mesh() const noexcept { return m_mesh; }

    /// Corners (hierarchy nodes).
    [[nodiscard]] std::size_t node_count() const noexcept { return m_nodes.size(); }
    /// Edges of the sparse visibility graph (each pair once).
    [[nodiscard]] std::size_t graph_edge_count() const noexcept { return m_graph_edges; }
    /// Upward edges stored (original edges and shortcuts).
    [[nodiscard]] std::size_t upward_edge_count() const noexcept { return m_up.size(); }
    /// Shortcuts among the upward edges.
    [[nodiscard]] std::size_t shortcut_count() const noexcept { return m_shortcuts; }
    /// Wall-clock time of the last build, in milliseconds.
    [[nodiscard]] double build_ms() const noexcept { return m_build_ms; }
    /// Bytes held by the hierarchy (capacities of its arrays).
    [[nodiscard]] std::size_t memory_bytes() const noexcept;

    /// A node: its grid point, the quadrant of its blocked cell (sx, sy: +1 when the blocked cell lies
    /// to the right / below the point) and its mesh vertex. Nodes are numbered by contraction rank.
    struct Node {
        std::int32_t x, y;
        std::int8_t sx, sy;
        std::uint32_t vertex;
    };
    /// An upward edge (to a node of higher rank; between core nodes, both ways), or a shortcut through
    /// `middle` (else kNoNode).
    struct UpEdge {
        double weight;
        std::uint32_t to;
        std::uint32_t middle;
    };
    static constexpr std::uint32_t kNoNode = UINT32_MAX;

    [[nodiscard]] std::span<const Node> nodes() const noexcept { return m_nodes; }
    /// The upward edges of node `v`.
    [[nodiscard]] std::span<const UpEdge> up(std::uint32_t v) const noexcept {
        return {m_up.data() + m_up_offsets[v], m_up.data() + m_up_offsets[v + 1]};
    }
    /// The node of mesh vertex `vertex`, or kNoNode (not a corner).
    [[nodiscard]] std::uint32_t node_of_vertex(std::uint32_t vertex) const noexcept { return m_node_of_vertex[vertex]; }

private:
    friend class NavmeshHierarchyPathfinder;
    friend struct detail::NavmeshHierarchyInspector;
    const Navmesh* m_mesh = nullptr;
    bool m_built = false;
    std::size_t m_graph_edges = 0, m_shortcuts = 0, m_core = 0;
    std::uint32_t m_core_degree = 192;
    Method m_method_wanted = Method::Auto, m_method = Method::Auto;
    std::uint32_t m_landmark_count = 32;
    double m_build_ms = 0.0;
    std::vector<Node> m_nodes;
    std::vector<std::uint32_t> m_node_of_vertex;
    std::vector<std::uint32_t> m_up_offsets;
    std::vector<UpEdge> m_up;
    struct FlatEdge {  // Landmarks: an edge to node `to`, whose point is the node's plus (dx, dy)
        std::uint32_t to;
        std::int16_t dx, dy;
    };
    std::vector<std::uint32_t> m_edge_offsets;
    std::vector<FlatEdge> m_edges;  // Landmarks: each node's edges, by increasing direction (pseudo-angle)
    std::vector<std::uint16_t> m_edge_angle;  // Landmarks: each edge's pseudo-angle in [0, 4) times 2^14, rounded down
    std::vector<detail::NavSweepEdge> m_sweep_edges;  // Landmarks: the mesh's edges, for the query's sweeps
    std::vector<std::uint32_t> m_landmarks;
    std::vector<float> m_landmark_dist;  // node-major: landmarks().size() per node
};

namespace detail {
struct NavSweepPiece;  // a polygon seen through an angular interval (navmesh_hierarchy.cpp)
}  // namespace detail

/// Reusable query object over a `NavmeshHierarchy` (same shape as `NavmeshPathfinder`).
class NavmeshHierarchyPathfinder {
public:
    NavmeshHierarchyPathfinder();
    ~NavmeshHierarchyPathfinder();
    NavmeshHierarchyPathfinder(NavmeshHierarchyPathfinder&&) noexcept;
    NavmeshHierarchyPathfinder& operator=(NavmeshHierarchyPathfinder&&) noexcept;

    /// Sizes the per-node arrays for `hierarchy` and room for `nodes` open-list entries and sweep
    /// pieces, so that even the first query does not allocate (unless it needs more). Optional.
    void reserve(const NavmeshHierarchy& hierarchy, std::size_t nodes = 1u << 12);

    /// Starts a search from `start` to `goal`: locates both, sweeps the corners visible from each and
    /// seeds the two upward searches. Returns `InProgress`, or `InvalidQuery` when the hierarchy is not
    /// built or a point is outside the free space (off the map, in a blocked cell, on a diagonal squeeze
    /// point, not finite). The hierarchy and its mesh must outlive the search and stay unchanged.
    Status begin(const NavmeshHierarchy& hierarchy, NavPoint start, NavPoint goal, const NavmeshSearchOptions& options = {});

    /// Settles at most `slice_expansions` nodes. Returns `InProgress` if the slice ran out first, else
    /// the final status (`Found`, `NoPath`, `BudgetExhausted`), which later calls return again.
    Status step(std::uint64_t slice_expansions = UINT64_MAX);

    /// Writes the path found into `out` (points cleared and cost +infinity when there is none) and
    /// returns the status. Unpacks shortcuts; allocates only if `out.points` must grow.
    Status finish(NavmeshPath& out);

    /// begin + step + finish.
    Status find_path(const NavmeshHierarchy& hierarchy, NavPoint start, NavPoint goal, const NavmeshSearchOptions& options,
                     NavmeshPath& out);

    [[nodiscard]] Status status() const noexcept { return m_status; }
    [[nodiscard]] search::BudgetLimit budget_limit() const noexcept { return m_limit; }
    /// expanded = nodes settled (both directions), generated = labels set or improved (seeds included).
    [[nodiscard]] const search::SearchStats& stats() const noexcept { return m_stats; }
    /// Length of the path found, or +infinity.
    [[nodiscard]] double cost() const noexcept;
    /// Bytes held by this pathfinder (capacities of its arrays).
    [[nodiscard]] std::size_t memory_bytes() const noexcept;

private:
    friend struct detail::NavmeshHierarchyInspector;
    struct Label {
        double dist;
        std::uint32_t parent;  // node it was reached from, kNoNode for a seed
        std::uint32_t stamp;
    };
    struct OpenEntry {
        double key;
        std::uint32_t node;
        std::uint32_t kind = 0;  // Landmarks: kStraight, kRefined or kDeferred
    };
    // Landmarks: what an open entry's key is. kStraight: a corner, keyed by its distance plus the straight
    // line to the goal; kRefined: the same, with the landmarks' bound; kDeferred: a settled corner whose
    // other edges were left for later, keyed by the least key they lead to (partial expansion); kSweep: the
    // parts of the start's sweep set aside (no node), keyed by the least bound of their corners' keys.
    static constexpr std::uint32_t kStraight = 0, kRefined = 1, kDeferred = 2, kSweep = 3;
    static constexpr std::uint32_t kNoNode = NavmeshHierarchy::kNoNode;

    void seed(int side, NavPoint from);
    void seed_forward();
    void relax(int side, std::uint32_t node, double dist, std::uint32_t parent);
    void relax_forward(std::uint32_t node, double dist, std::uint32_t parent, std::int32_t x, std::int32_t y);
    void relax_forward(std::uint32_t node, double dist, double straight, std::uint32_t parent, std::uint32_t kind);
    void expand_forward(std::uint32_t node, double from_key);
    [[nodiscard]] bool hold_piece(const detail::NavSweepPiece& piece, double limit);
    void queue_held();
    void resume_start_sweep();
    void push_forward(const OpenEntry& entry);
    void refill_forward();
    void start_band(double base);
    void band_push(const OpenEntry& entry);
    OpenEntry& band_top();
    [[nodiscard]] double potential(std::uint32_t node) const noexcept;
    [[nodiscard]] double landmark_bound(std::uint32_t node, double straight) const noexcept;
    Status step_forward(std::uint64_t slice_expansions);
    void unpack(std::uint32_t from, std::uint32_t to, std::vector<NavPoint>& out);
    [[nodiscard]] std::size_t fixed_growth(const NavmeshHierarchy& hierarchy) const noexcept;
    [[nodiscard]] bool over_budget(std::size_t more) noexcept;
    template <class T>
    [[nodiscard]] bool room(std::vector<T>& v);
    template <class T>
    [[nodiscard]] bool grow(std::vector<T>& v);
    void pop_open(int side);

    const NavmeshHierarchy* m_hierarchy = nullptr;
    NavPoint m_start{}, m_goal{};
    search::Budget m_budget{};
    search::SearchStats m_stats{};
    search::BudgetLimit m_limit = search::BudgetLimit::None;
    Status m_status = Status::InvalidQuery;
    bool m_direct = false;  // the goal is seen from the start
    bool m_out_of_memory = false;
    bool m_forward = false;  // A* from the start (Landmarks)
    double m_best = 0.0;
    double m_threshold = 0.0, m_band = 0.0;  // Landmarks: keys below the threshold are kept ordered
    std::uint32_t m_meet = kNoNode;
    std::vector<Label> m_label[2];
    static constexpr std::size_t kActive = 4;  // landmarks used per query
    std::vector<double> m_to_goal, m_to_start;  // per landmark: distance to the goal / start point
    std::uint32_t m_active[kActive] = {};
    double m_active_goal[kActive] = {};
    std::size_t m_active_count = 0;
    std::vector<std::uint64_t> m_goal_bits;  // Landmarks: one bit per node, set for the goal's seeds
    std::vector<std::uint32_t> m_goal_seeds;  // Landmarks: the goal's seeds (bits to clear)
    std::vector<OpenEntry> m_open[2];
    // Landmarks: the entries below the threshold, in kBuckets buckets of equal width over [threshold -
    // band, threshold): the heap m_open[0] holds bucket m_cursor and any key below it, each later bucket
    // is an unordered list (poured into the heap when the heap runs dry). The overflow, m_open[1], holds
    // the keys at or above the threshold.
    static constexpr std::size_t kBuckets = 4096;
    static constexpr std::uint32_t kNoSlot = UINT32_MAX;
    struct Slot {
        OpenEntry entry;
        std::uint32_t next;
    };
    std::vector<Slot> m_slots;  // the lists' entries; free ones chained from m_free_slot
    std::vector<std::uint32_t> m_bucket;  // kBuckets: the first entry of each non-empty one
    std::vector<std::uint64_t> m_bucket_bits;  // kBuckets / 64: which are non-empty
    std::uint32_t m_free_slot = kNoSlot;
    std::size_t m_cursor = 0, m_queued = 0;
    double m_per_bucket = 0.0;  // buckets per unit of key
    std::vector<detail::NavSweepPiece> m_pieces;
    std::vector<detail::NavSweepPiece> m_held;  // Landmarks: parts of the start's sweep set aside
    std::vector<double> m_held_bound;           // and a lower bound of the keys of the corners each shows
    std::vector<std::uint32_t> m_unpack, m_chain;
    OpenEntry m_none{std::numeric_limits<double>::infinity(), kNoNode};  // band_top() out of memory
    std::uint32_t m_generation = 0;
};

}  // namespace gameplan::path
