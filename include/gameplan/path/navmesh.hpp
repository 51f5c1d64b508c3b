#pragma once
/// @file navmesh.hpp
/// Navigation meshes from grid maps, and Euclidean-optimal any-angle paths through them (Polyanya).
///
/// Overview
/// --------
/// Geometry. A map's cell (x, y) is the closed unit square [x, x + 1] x [y, y + 1] (y grows downwards,
/// as in the map). The *free space* is the union of the passable cells, except the points where two
/// blocked cells touch diagonally (a path may never squeeze through such a point: the no-corner-cutting
/// rule of the grids) and nothing outside the map. Paths may run along walls and touch obstacle corners.
///
/// `Navmesh` decomposes the free space into convex polygons: axis-aligned rectangles of free cells. While
/// the largest rectangle of uncovered free cells holds at least a tenth of the free cells, it is taken
/// first (a dominant rectangle: a large open area stays one polygon); the rest are grown greedily from
/// the first uncovered cell in row order, as the larger of "widest, then as tall as possible" and
/// "tallest, then as wide as possible". Each rectangle's boundary is split at
/// every point where what lies across it changes, so each boundary *edge* is either a wall or shared with
/// exactly one neighbour rectangle (its twin runs the other way). Two rectangles that only touch at a
/// corner are not adjacent: at a diagonal squeeze point the mesh never connects through the corner.
/// Vertices are grid points; a vertex is a *corner* (a possible turning point of a shortest path) when
/// exactly one of the four cells around it is blocked or off the map. Shared edges that lead into a
/// *pocket* (a part of the mesh that only this polygon links to the rest: an articulation point or a
/// bridge of the adjacency graph) are marked with the pocket's polygons, so a search can skip every
/// pocket that does not hold its goal.
///
/// `NavmeshPathfinder` finds Euclidean shortest paths with Polyanya (Cui, Harabor and Grastien, IJCAI
/// 2017): a best-first search over *intervals* of mesh edges, each with a *root* (the start or a corner)
/// from which every point of the interval is visible. A node's f is g(root) plus the exact length of the
/// shortest path from the root through the interval to the goal ignoring obstacles, an admissible and
/// consistent estimate, so the first goal node popped is optimal. Successors are the parts of the next
/// polygon's boundary seen through the interval (same root) and, behind a corner endpoint, the parts
/// hidden from the root (root = that corner). Nodes rooted at a corner reached more cheaply before are
/// pruned (root-level pruning); a pocket that does not hold the goal is never entered, and a polygon
/// that cuts the goal off from its depth-first root's side (a door of the goal) is never left towards
/// that side: a path that does either must come back to the same (convex) polygon, and the straight
/// piece inside that polygon is never longer. A query whose straight segment lies in the free space
/// (walked through the rectangles first; a segment meeting a grid point on a rectangle's boundary is
/// left to the search) is answered by that segment without a search. The path is the start, the
/// turning corners (integer coordinates) and the goal; its cost is its Euclidean length.
///
/// Memory: the mesh holds 4 bytes per padded map cell (the rectangle of each cell, for locating points)
/// plus about 24 bytes per boundary edge, 40 per polygon and 12 per vertex. A pathfinder holds about 90
/// bytes per stored search node (a node per interval generated, one per corridor of single successors
/// with the same root; reused across queries) plus 16 bytes per mesh vertex and 4 per polygon. After
/// warm-up a query allocates nothing.
///
/// Thread-safety: a built mesh is immutable; any number of pathfinders (one per thread) may read it.

#include <gameplan/path/grid_map.hpp>
#include <gameplan/search/search_context.hpp>
#include <gameplan/status.hpp>

#include <cstdint>
#include <limits>
#include <span>
#include <vector>

namespace gameplan::path {

/// A point of the plane in map units: cell (x, y) covers [x, x + 1] x [y, y + 1].
struct NavPoint {
    double x = 0.0;  ///< to the right
    double y = 0.0;  ///< downwards
    friend constexpr bool operator==(const NavPoint&, const NavPoint&) noexcept = default;
};

/// The centre (x + 0.5, y + 0.5) of a cell.
[[nodiscard]] constexpr NavPoint cell_centre(GridPoint cell) noexcept {
    return NavPoint{static_cast<double>(cell.x) + 0.5, static_cast<double>(cell.y) + 0.5};
}

/// "No polygon" (a wall edge's neighbour, a point outside the free space).
inline constexpr std::uint32_t kNoPolygon = std::numeric_limits<std::uint32_t>::max();

/// A convex polygon of the mesh: the rectangle [x0, x1] x [y0, y1] (grid coordinates) with its boundary
/// edges `first_edge .. first_edge + edge_count - 1` in `Navmesh::edges()`, starting at (x0, y0) and
/// running (x1, y0), (x1, y1), (x0, y1) — positively oriented in map coordinates.
struct NavPolygon {
    std::int32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;  ///< bounds in grid coordinates (x1 > x0, y1 > y0)
    std::uint32_t first_edge = 0;                 ///< first boundary edge
    std::uint32_t edge_count = 0;                 ///< number of boundary edges (>= 4)
    std::uint32_t traversable = 0;                ///< edges shared with a neighbour
    /// Depth-first numbering of the mesh's adjacency graph: the polygons explored from this one are
    /// those numbered `order .. order_end - 1` (see `NavEdge::cut`).
    std::uint32_t order = 0, order_end = 0;
    /// The nearest polygon on the way back to the depth-first root whose removal cuts this polygon off
    /// from the root's side (`kNoPolygon` if none): the doors around a point are this chain.
    std::uint32_t door = 0;
};

/// How a shared edge splits the mesh (`NavEdge::cut`).
enum class NavCut : std::uint8_t {
    None,     ///< a wall, or the two sides stay connected without this edge
    Into,     ///< leads into a pocket: without this polygon, the polygons [order, order_end) of
              ///< `NavEdge::pocket` (the neighbour or a polygon between) are cut off from the rest
    OutOf,    ///< the only link (a bridge) out of this polygon's polygons [order, order_end) to the rest
    Back,     ///< towards the depth-first root's side of this polygon: leads away from every pocket that
              ///< this polygon cuts off (a point whose door chain holds this polygon is not that way)
};

/// One boundary edge of a polygon: from `vertex` to the next edge's vertex (cyclically).
struct NavEdge {
    std::uint32_t vertex = 0;             ///< start vertex (index into `Navmesh::vertices()`)
    std::uint32_t neighbour = kNoPolygon; ///< polygon across the edge, kNoPolygon for a wall
    std::uint32_t twin = 0;               ///< the same edge in the neighbour's boundary (absolute index)
    std::int32_t along = 0;               ///< perimeter distance of `vertex` from the polygon's (x0, y0)
    std::uint32_t pocket = kNoPolygon;    ///< with `NavCut::Into`: the polygon whose order range is the pocket
    NavCut cut = NavCut::None;            ///< whether the part of the mesh beyond is reached only through here
    bool corner = false;                  ///< `vertex` is a corner (a copy of `NavVertex::corner`, beside the edge)
    /// How many edges ahead (cyclically, in boundary order) the next edge with a neighbour is, at most
    /// 65535 (the edge count when there is no other): the search steps over walls with it.
    std::uint16_t open_ahead = 1;
};

/// A mesh vertex (a grid point).
struct NavVertex {
    std::int32_t x = 0, y = 0;  ///< grid coordinates
    bool corner = false;        ///< exactly one of the four cells around it is blocked or off the map
};

/// Outcome of `Navmesh::build`.
enum class NavmeshBuild : std::uint8_t {
    Ok,        ///< built (possibly with no polygon, if every cell is blocked)
    EmptyMap,  ///< the map is 0 x 0
};

/// A navigation mesh of a grid map's free space. See the file overview.
class Navmesh {
public:
    /// Builds the mesh of `map` (passability only; terrain costs are ignored). O(cells + edges), plus
    /// O(width) per row whose upward runs of free cells a dominant rectangle changes (at most ten).
    /// Reuses this object's buffers. May throw std::bad_alloc.
    NavmeshBuild build(const GridMap& map);

    /// Map width and height the mesh was built for (0 before build).
    [[nodiscard]] std::int32_t width() const noexcept { return m_width; }
    [[nodiscard]] std::int32_t height() const noexcept { return m_height; }
    /// `GridMap::version()` of the map when the mesh was built; a later change makes the mesh stale.
    [[nodiscard]] std::uint64_t map_version() const noexcept { return m_map_version; }

    [[nodiscard]] std::span<const NavPolygon> polygons() const noexcept { return m_polygons; }
    [[nodiscard]] std::span<const NavEdge> edges() const noexcept { return m_edges; }
    [[nodiscard]] std::span<const NavVertex> vertices() const noexcept { return m_vertices; }
    [[nodiscard]] std::size_t polygon_count() const noexcept { return m_polygons.size(); }

    /// Bytes held by the mesh (capacities of its arrays).
    [[nodiscard]] std::size_t memory_bytes() const noexcept;

    /// The polygon holding free cell `cell`, or kNoPolygon (blocked or off the map).
    [[nodiscard]] std::uint32_t polygon_of(GridPoint cell) const noexcept {
        return free_cell(cell.x, cell.y) ? owner(cell.x, cell.y) : kNoPolygon;
    }
    /// A polygon holding `p` if `p` lies in the free space (see the overview), else kNoPolygon
    /// (off the map, inside a blocked cell, on a diagonal squeeze point, or not a finite number).
    [[nodiscard]] std::uint32_t locate(NavPoint p) const noexcept;

private:
    void dominant_rectangles(const GridMap& map);
    void mark_bridges();
    [[nodiscard]] bool free_cell(std::int64_t x, std::int64_t y) const noexcept {
        return x >= 0 && y >= 0 && x < m_width && y < m_height && owner(x, y) != kNoPolygon;
    }
    [[nodiscard]] std::uint32_t owner(std::int64_t x, std::int64_t y) const noexcept {
        return m_owner[static_cast<std::size_t>(y) * static_cast<std::size_t>(m_width) + static_cast<std::size_t>(x)];
    }

    std::int32_t m_width = 0, m_height = 0;
    std::uint64_t m_map_version = 0;
    std::vector<std::uint32_t> m_owner;  // polygon of each cell (row-major, width x height), kNoPolygon if blocked
    std::vector<NavPolygon> m_polygons;
    std::vector<NavEdge> m_edges;
    std::vector<NavVertex> m_vertices;
    std::vector<std::uint32_t> m_vertex_of;  // build scratch: mesh vertex of each grid point
};

/// An any-angle path: the start, every turning point and the goal (just the start when start == goal).
struct NavmeshPath {
    std::vector<NavPoint> points;                            ///< turning points, start first
    double cost = std::numeric_limits<double>::infinity();   ///< Euclidean length
};

/// Options of a navmesh query.
struct NavmeshSearchOptions {
    search::Budget budget{};  ///< expansions (popped search nodes), deadline, node memory
};

namespace detail {
struct NavEdgeSpan;  // an edge's geometry during a search (navmesh_search.cpp)
}  // namespace detail

/// Reusable Polyanya search object. See the file overview.
class NavmeshPathfinder {
public:
    /// Sizes the per-vertex arrays for `mesh` and room for `nodes` search nodes, so that even the first
    /// query does not allocate (unless it needs more nodes). Optional.
    void reserve(const Navmesh& mesh, std::size_t nodes = 1u << 12);

    /// Starts a search from `start` to `goal`. Returns `InProgress`, or `InvalidQuery` when the mesh is
    /// empty or a point is outside the free space (off the map, in a blocked cell, on a diagonal
    /// squeeze point, not finite). The mesh must outlive the search and stay unchanged.
    Status begin(const Navmesh& mesh, NavPoint start, NavPoint goal, const NavmeshSearchOptions& options = {});

    /// Expands at most `slice_expansions` search nodes. Returns `InProgress` if the slice ran out first,
    /// else the final status (`Found`, `NoPath`, `BudgetExhausted`), which later calls return again. How a
    /// search is sliced changes nothing: the same nodes are expanded in the same order as by one call.
    Status step(std::uint64_t slice_expansions = UINT64_MAX);

    /// Writes the path found into `out` (points cleared and cost +infinity when there is none) and
    /// returns the status. Allocates only if `out.points` must grow. O(path length).
    Status finish(NavmeshPath& out) const;

    /// begin + step + finish.
    Status find_path(const Navmesh& mesh, NavPoint start, NavPoint goal, const NavmeshSearchOptions& options,
                     NavmeshPath& out);

    /// Status of the current search (`InProgress` until finished).
    [[nodiscard]] Status status() const noexcept { return m_status; }
    /// Which budget limit ended the search (None unless `BudgetExhausted`).
    [[nodiscard]] search::BudgetLimit budget_limit() const noexcept { return m_limit; }
    /// Counters of the current search: expanded = search nodes popped, generated = nodes pushed.
    [[nodiscard]] const search::SearchStats& stats() const noexcept { return m_stats; }
    /// Length of the path found, or +infinity.
    [[nodiscard]] double cost() const noexcept;
    /// Bytes held by this pathfinder (capacities of its arrays).
    [[nodiscard]] std::size_t memory_bytes() const noexcept;

private:
    enum class Kind : std::uint8_t { Interval, Fan, Goal };
    struct alignas(64) Node {  // one cache line (f lives in the open list only)
        double rx, ry;          // root
        double g;
        double a, b;            // interval [a, b] along the entry edge, measured from its start vertex
        std::uint32_t parent;   // generating node, or kNoNode
        std::uint32_t polygon;  // polygon entered
        std::uint32_t edge;     // entry edge (absolute), or kNoNode for the start
        std::uint32_t root;     // root vertex, or kNoNode for the start
        std::uint32_t via;      // a turning vertex between the parent's root and this root, or kNoNode
        Kind kind;
    };
    struct OpenEntry {
        double f, g;
        std::uint32_t node;
    };
    static constexpr std::uint32_t kNoNode = std::numeric_limits<std::uint32_t>::max();

    struct OpenOrder {  // a max-heap of this order pops smaller f, then larger g
        bool operator()(const OpenEntry& x, const OpenEntry& y) const noexcept {
            return x.f > y.f || (x.f == y.f && x.g < y.g);
        }
    };
    struct RootRecord {
        double g;             // best g of the vertex as a root in this search
        std::uint32_t stamp;  // search generation that set g
    };

    void expand_fan(const Node& node, std::uint32_t index);
    void expand_interval(const Node& node, std::uint32_t index);
    void successor(std::uint32_t parent, std::uint32_t polygon, const NavPolygon& poly, const NavEdge* boundary,
                   std::uint32_t local_edge, const detail::NavEdgeSpan& e, double p1, double p2, NavPoint root,
                   std::uint32_t root_vertex, double g, bool collinear_only);
    void push(const Node& node);
    void open_from(std::size_t first);
    [[nodiscard]] bool holds_goal(std::uint32_t lo, std::uint32_t hi) const noexcept;
    [[nodiscard]] bool contains_goal(std::uint32_t polygon) const noexcept;
    [[nodiscard]] double heuristic(NavPoint root, NavPoint a, NavPoint b) const noexcept;
    [[nodiscard]] std::size_t fixed_growth(const Navmesh& mesh) const noexcept;
    [[nodiscard]] bool over_budget(std::size_t more) noexcept;
    [[nodiscard]] bool grow_nodes();

    const Navmesh* m_mesh = nullptr;
    NavPoint m_start{}, m_goal{};
    search::Budget m_budget{};
    search::SearchStats m_stats{};
    search::BudgetLimit m_limit = search::BudgetLimit::None;
    Status m_status = Status::InvalidQuery;
    std::uint32_t m_found = kNoNode;
    bool m_out_of_memory = false;
    bool m_direct = false;  // begin() found the straight segment free and no budget applies: m_nodes[0] is the answer
    std::vector<Node> m_nodes;
    std::vector<OpenEntry> m_open;
    std::vector<RootRecord> m_roots;  // per mesh vertex
    std::vector<std::uint32_t> m_door_stamp;  // per polygon: m_generation if a door around the goal
    std::uint32_t m_goal_orders[4] = {};  // NavPolygon::order of each polygon holding the goal
    std::uint32_t m_goal_polygons = 0;
    std::uint32_t m_corridor = kNoNode;  // a step ended inside a corridor: the stored node it goes on from
    Node m_corridor_node{};              // and the corridor's next polygon (see step())
    std::uint32_t m_expanding_root = kNoNode;  // root and g of the node being expanded
    double m_expanding_g = 0.0;
    std::uint32_t m_generation = 0;
};

}  // namespace gameplan::path
