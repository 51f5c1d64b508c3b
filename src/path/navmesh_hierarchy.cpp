// Contraction hierarchy over the sparse visibility graph of a navigation mesh's corners. See
// navmesh_hierarchy.hpp for the overview.
//
// Visibility sweep. From a root r, every polygon holding r is seen whole (it is convex and closed). Through
// each shared edge whose line does not hold r, the part of the next polygon seen is the cone of rays from
// r between the edge's ends; each later polygon narrows the cone to the edge it leaves through. A cone is
// kept as two points on its boundary rays (mesh vertices, so integer points: from a corner every test is
// exact) and is closed: a vertex on a boundary ray is seen (a path may graze a corner or run along a wall).
// A cone narrowed to a single ray is dropped: the segment along it then grazes corners on both sides, and
// passing through those corners is as short. Rectangles that only touch at a point never share an edge, so
// no cone passes a diagonal squeeze point.
#include <gameplan/path/navmesh_hierarchy.hpp>

#include <gameplan/search/generation.hpp>

#include "exact_growth.hpp"
#include "force_inline.hpp"
#include "navmesh_geometry.hpp"
#include "prefetch.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <numeric>
#include <queue>

namespace gameplan::path {

struct detail::NavSweepPiece {
    std::uint32_t polygon;  // polygon entered
    std::uint32_t entry;    // edge entered through (absolute, in the polygon's boundary)
    NavPoint right, left;   // points on the cone's boundary rays (cross(right - r, left - r) > 0)
};

namespace {

using Piece = detail::NavSweepPiece;
constexpr double kInf = std::numeric_limits<double>::infinity();

// The open lists' heap order (std heap functions): the least key on top.
constexpr auto key_after = [](const auto& a, const auto& b) { return a.key > b.key; };

inline double cross(NavPoint o, NavPoint a, NavPoint b) noexcept {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

using detail::prefetch;

inline double dist(NavPoint a, NavPoint b) noexcept {
    const double dx = a.x - b.x, dy = a.y - b.y;
    return std::sqrt(dx * dx + dy * dy);
}

// The mesh's edges as the sweep reads them: an edge's start point, its vertex (the id passed to
// on_vertex), the polygon across it and its twin.
struct MeshEdges {
    const NavEdge* edges;
    const NavVertex* vertices;
    [[nodiscard]] NavPoint point(std::uint32_t e) const noexcept {
        const NavVertex& p = vertices[edges[e].vertex];
        return NavPoint{double(p.x), double(p.y)};
    }
    [[nodiscard]] std::uint32_t id(std::uint32_t e) const noexcept { return edges[e].vertex; }
    [[nodiscard]] std::uint32_t neighbour(std::uint32_t e) const noexcept { return edges[e].neighbour; }
    [[nodiscard]] std::uint32_t twin(std::uint32_t e) const noexcept { return edges[e].twin; }
    void prefetch(std::uint32_t, std::uint32_t) const noexcept {}
};

// The same from the hierarchy's compact copy (landmarks): the id is the vertex's node (or kNoNode).
struct CompactEdges {
    const detail::NavSweepEdge* edges;
    const NavPolygon* polygons;
    [[nodiscard]] NavPoint point(std::uint32_t e) const noexcept { return NavPoint{double(edges[e].x), double(edges[e].y)}; }
    [[nodiscard]] std::uint32_t id(std::uint32_t e) const noexcept { return edges[e].node; }
    [[nodiscard]] std::uint32_t neighbour(std::uint32_t e) const noexcept { return edges[e].neighbour; }
    [[nodiscard]] std::uint32_t twin(std::uint32_t e) const noexcept { return edges[e].twin; }
    // A polygon about to be swept, entered through edge `entry`: its record and the edges from there.
    void prefetch(std::uint32_t polygon, std::uint32_t entry) const noexcept {
        gameplan::path::prefetch(polygons + polygon);
        gameplan::path::prefetch(edges + entry);
    }
};

// The rest of a sweep: the pieces on `stack` and those seen through them. hold(piece) may set a piece
// aside instead (returns true): then neither it nor what is seen through it is swept, and the sweep can
// go on from it later (the piece back on the stack). room(stack) is asked before each push: false drops
// the piece (a search out of memory).
template <class Edges, class OnPolygon, class OnVertex, class Hold, class Room>
void sweep_pieces(const Navmesh& mesh, const Edges& edges, NavPoint r, std::vector<Piece>& stack, double eps,
                  OnPolygon&& on_polygon, OnVertex&& on_vertex, Hold&& hold, Room&& room) {
    const auto polygons = mesh.polygons();
    while (!stack.empty()) {
        const Piece piece = stack.back();
        stack.pop_back();
        if (hold(piece)) continue;
        on_polygon(piece.polygon, &piece);
        const NavPolygon& poly = polygons[piece.polygon];
        NavPoint v0 = edges.point(poly.first_edge);
        for (std::uint32_t j = 0; j < poly.edge_count; ++j) {
            const std::uint32_t e = poly.first_edge + j;
            const NavPoint v1 = edges.point(j + 1 == poly.edge_count ? poly.first_edge : e + 1);
            if (cross(r, piece.right, v0) >= -eps && cross(r, v0, piece.left) >= -eps) on_vertex(edges.id(e));
            const std::uint32_t neighbour = edges.neighbour(e);
            if (neighbour != kNoPolygon && e != piece.entry) {
                const double c = cross(r, v0, v1);
                if (c > eps || c < -eps) {
                    const NavPoint er = c > 0 ? v0 : v1, el = c > 0 ? v1 : v0;
                    const NavPoint nr = cross(r, piece.right, er) > 0 ? er : piece.right;
                    const NavPoint nl = cross(r, el, piece.left) > 0 ? el : piece.left;
                    if (cross(r, nr, nl) > eps && room(stack)) {
                        stack.push_back(Piece{neighbour, edges.twin(e), nr, nl});
                        edges.prefetch(neighbour, stack.back().entry);
                    }
                }
            }
            v0 = v1;
        }
    }
}

// Sweeps the polygons seen from `r` (a point of the free space): calls on_polygon(polygon, piece) for each
// polygon part seen (piece == nullptr: the whole polygon) and on_vertex(id) for every vertex seen
// (possibly more than once; the id as `edges` gives it). `eps` is the tolerance of the orientation tests
// (0 from a grid point). `hold` and `room` as in sweep_pieces (the polygons holding `r` are always swept).
template <class Edges, class OnPolygon, class OnVertex, class Hold, class Room>
void sweep_edges(const Navmesh& mesh, const Edges& edges, NavPoint r, std::vector<Piece>& stack, double eps,
                 OnPolygon&& on_polygon, OnVertex&& on_vertex, Hold&& hold, Room&& room) {
    stack.clear();
    const auto polygons = mesh.polygons();
    std::uint32_t seeded[4];
    const std::size_t seeds = detail::navmesh_locate(mesh, r, seeded);
    for (std::size_t s = 0; s < seeds; ++s) {
        const NavPolygon& poly = polygons[seeded[s]];
        on_polygon(seeded[s], static_cast<const Piece*>(nullptr));
        for (std::uint32_t j = 0; j < poly.edge_count; ++j) {
            const std::uint32_t e = poly.first_edge + j;
            on_vertex(edges.id(e));
            const std::uint32_t neighbour = edges.neighbour(e);
            if (neighbour == kNoPolygon || std::find(seeded, seeded + seeds, neighbour) != seeded + seeds) continue;
            const NavPoint v0 = edges.point(e);
            const NavPoint v1 = edges.point(j + 1 == poly.edge_count ? poly.first_edge : e + 1);
            const double c = cross(r, v0, v1);
            if ((c > eps || c < -eps) && room(stack))
                stack.push_back(c > eps ? Piece{neighbour, edges.twin(e), v0, v1} : Piece{neighbour, edges.twin(e), v1, v0});
        }
    }
    sweep_pieces(mesh, edges, r, stack, eps, on_polygon, on_vertex, hold, room);
}

// The sweep over the mesh's own arrays (on_vertex receives mesh vertices).
template <class OnPolygon, class OnVertex, class Room>
void sweep(const Navmesh& mesh, NavPoint r, std::vector<Piece>& stack, double eps, OnPolygon&& on_polygon,
           OnVertex&& on_vertex, Room&& room) {
    sweep_edges(mesh, MeshEdges{mesh.edges().data(), mesh.vertices().data()}, r, stack, eps, on_polygon, on_vertex,
                [](const Piece&) { return false; }, room);
}

// A monotone stand-in for the angle of direction (dx, dy), in [0, 4): the four axis directions map to 0,
// 1, 2, 3 ((1,0), (0,1), (-1,0), (0,-1)) and each quadrant between them onto the unit interval between.
inline double pseudo_angle(double dx, double dy) noexcept {
    if (dy >= 0) return dx >= 0 ? (dx + dy == 0 ? 0.0 : dy / (dx + dy)) : 1.0 - dx / (dy - dx);
    return dx < 0 ? 2.0 - dy / (-dx - dy) : 3.0 + dx / (dx - dy);
}

// A pseudo-angle in [0, 4] scaled to 16 bits, rounded down (monotone: a range of pseudo-angles [lo, hi]
// holds only edges whose quantized angle lies in [quantized_angle(lo), quantized_angle(hi)]).
inline std::uint16_t quantized_angle(double a) noexcept {
    const double q = std::floor(a * 16384.0);
    return q <= 0 ? std::uint16_t(0) : q >= 65535.0 ? std::uint16_t(65535) : static_cast<std::uint16_t>(q);
}

// The landmark pass's sweeps (vertices only) share one instantiation of `sweep`, called through a plain
// function pointer, so that the query's own sweeps stay as compact as they were.
void sweep_vertices_of(const Navmesh& mesh, NavPoint r, std::vector<Piece>& stack, void* context,
                       void (*visit)(void*, std::uint32_t)) {
    sweep(mesh, r, stack, 0.0, [](std::uint32_t, const Piece*) {}, [&](std::uint32_t vertex) { visit(context, vertex); },
          [](const std::vector<Piece>&) { return true; });
}

template <class Visit>
void sweep_vertices(const Navmesh& mesh, NavPoint r, std::vector<Piece>& stack, Visit&& visit) {
    using V = std::remove_reference_t<Visit>;
    sweep_vertices_of(mesh, r, stack, &visit, [](void* context, std::uint32_t vertex) { (*static_cast<V*>(context))(vertex); });
}

inline bool in_cone(NavPoint r, const Piece& piece, NavPoint p, double eps) noexcept {
    return cross(r, piece.right, p) >= -eps && cross(r, p, piece.left) >= -eps;
}

// True if a path arriving at corner (x, y) along direction (dx, dy) may go on turning there: the
// direction does not point into the interior of the corner's blocked cell (quadrant sx, sy).
inline bool taut_end(std::int8_t sx, std::int8_t sy, double dx, double dy) noexcept {
    return !(dx * sx > 0 && dy * sy > 0);
}

// True if d lies strictly inside the cone from p1 to p2 (cross(p1, p2) > 0).
inline bool strictly_inside(double p1x, double p1y, double p2x, double p2y, double dx, double dy) noexcept {
    return p1x * dy - p1y * dx > 0 && dx * p2y - dy * p2x > 0;
}

// True if the path n1 -> v -> n2 (v a corner with blocked quadrant sx, sy) is locally taut at v: it goes
// straight on, or every shortcut near v cuts the blocked cell (the open wedge between the directions
// back to n1 and on to n2 meets the cell's open quadrant).
bool taut_turn(const NavmeshHierarchy::Node& v, double n1x, double n1y, double n2x, double n2y) noexcept {
    double p1x = n1x - v.x, p1y = n1y - v.y, p2x = n2x - v.x, p2y = n2y - v.y;
    const double c = p1x * p2y - p1y * p2x;
    if (c == 0) return p1x * p2x + p1y * p2y < 0;  // straight on (taut) or back (not)
    if (c < 0) std::swap(p1x, p2x), std::swap(p1y, p2y);
    double k1x = v.sx, k1y = 0, k2x = 0, k2y = v.sy;
    if (k1x * k2y - k1y * k2x < 0) std::swap(k1x, k2x), std::swap(k1y, k2y);
    if (strictly_inside(p1x, p1y, p2x, p2y, k1x, k1y) || strictly_inside(p1x, p1y, p2x, p2y, k2x, k2y) ||
        strictly_inside(k1x, k1y, k2x, k2y, p1x, p1y) || strictly_inside(k1x, k1y, k2x, k2y, p2x, p2y))
        return true;
    const double l1 = std::sqrt(p1x * p1x + p1y * p1y), l2 = std::sqrt(p2x * p2x + p2y * p2y);
    return strictly_inside(k1x, k1y, k2x, k2y, p1x / l1 + p2x / l2, p1y / l1 + p2y / l2);
}

// True if the segment between grid points a and b lies in the free space (exact: integer walk). A cell
// whose inside the segment crosses must be free; a grid point it passes through must not be a diagonal
// squeeze point; a piece along a grid line needs a free cell on one side.
bool grid_segment_free(const Navmesh& mesh, std::int32_t ax, std::int32_t ay, std::int32_t bx, std::int32_t by) noexcept {
    const auto free = [&](std::int32_t x, std::int32_t y) { return mesh.polygon_of(GridPoint{x, y}) != kNoPolygon; };
    const auto squeeze = [&](std::int32_t x, std::int32_t y) {
        const bool tl = free(x - 1, y - 1), tr = free(x, y - 1), bl = free(x - 1, y), br = free(x, y);
        return (tl && br && !tr && !bl) || (tr && bl && !tl && !br);
    };
    const std::int32_t dx = bx - ax, dy = by - ay;
    if (dx == 0 && dy == 0) return true;
    const std::int32_t sx = dx > 0 ? 1 : -1, sy = dy > 0 ? 1 : -1;
    if (dy == 0 || dx == 0) {
        // Along a grid line: each unit piece needs a free cell beside it; inner grid points no squeeze.
        const std::int32_t steps = dy == 0 ? dx * sx : dy * sy;
        for (std::int32_t k = 0; k < steps; ++k) {
            if (dy == 0) {
                const std::int32_t x = ax + k * sx, cx = sx > 0 ? x : x - 1;
                if (!free(cx, ay - 1) && !free(cx, ay)) return false;
                if (k > 0 && squeeze(x, ay)) return false;
            } else {
                const std::int32_t y = ay + k * sy, cy = sy > 0 ? y : y - 1;
                if (!free(ax - 1, cy) && !free(ax, cy)) return false;
                if (k > 0 && squeeze(ax, y)) return false;
            }
        }
        return true;
    }
    // Cells crossed, walking from a: the next vertical line is at distance i (in x steps), the next
    // horizontal at j; compare i / |dx| with j / |dy| exactly.
    const std::int64_t adx = dx * sx, ady = dy * sy;
    std::int32_t cx = sx > 0 ? ax : ax - 1, cy = sy > 0 ? ay : ay - 1;  // current cell
    std::int64_t i = 1, j = 1;  // lines crossed so far + 1
    for (;;) {
        if (!free(cx, cy)) return false;
        const std::int64_t lhs = i * ady, rhs = j * adx;  // compare i/adx vs j/ady
        if (i == adx && j == ady) return true;
        if (lhs < rhs) {
            cx += sx, ++i;
        } else if (lhs > rhs) {
            cy += sy, ++j;
        } else {
            // Through a grid point.
            const std::int32_t px = ax + std::int32_t(i) * sx, py = ay + std::int32_t(j) * sy;
            if (squeeze(px, py)) return false;
            cx += sx, cy += sy, ++i, ++j;
        }
    }
}

// ---- Contraction ------------------------------------------------------------------------------------

struct Arc {
    double w;
    std::uint32_t to;
    std::uint32_t mid;   // middle node of a shortcut, kNoNode for a graph edge
    std::uint32_t near;  // the corner next to the arc's owner on the unpacked path
    std::uint32_t far;   // the corner next to the other end
};

struct Shortcut {
    double w;
    std::uint32_t u, x;            // ends
    std::uint32_t near_u, near_x;  // corners next to each end on the path
};

class Contractor {
public:
    Contractor(const Navmesh& mesh, std::vector<NavmeshHierarchy::Node>& nodes, std::vector<std::vector<Arc>>& adj)
        : m_mesh(mesh), m_nodes(nodes), m_adj(adj), m_dist(nodes.size(), 0.0), m_stamp(nodes.size(), 0), m_target(nodes.size(), 0), m_mark(nodes.size(), 0), m_mark_dist(nodes.size(), 0.0) {}

    // The shortcuts that contracting v needs (into m_shortcuts).
    void simulate(std::uint32_t v) {
        m_shortcuts.clear();
        const std::vector<Arc>& arcs = m_adj[v];
        const NavmeshHierarchy::Node& node = m_nodes[v];
        for (std::size_t i = 0; i < arcs.size(); ++i) {
            const Arc& a = arcs[i];
            const NavmeshHierarchy::Node& na = m_nodes[a.near];
            m_targets.clear();
            double bound = 0.0;
            for (std::size_t k = i + 1; k < arcs.size(); ++k) {
                const NavmeshHierarchy::Node& nb = m_nodes[arcs[k].near];
                if (!taut_turn(node, na.x, na.y, nb.x, nb.y)) continue;
                // Seen from each other (and not straight through v): the segment is shorter.
                const NavmeshHierarchy::Node& ua = m_nodes[a.to];
                const NavmeshHierarchy::Node& ub = m_nodes[arcs[k].to];
                if (std::int64_t(ua.x - node.x) * (ub.y - node.y) != std::int64_t(ua.y - node.y) * (ub.x - node.x) &&
                    grid_segment_free(m_mesh, ua.x, ua.y, ub.x, ub.y))
                    continue;
                m_targets.push_back(static_cast<std::uint32_t>(k));
                bound = std::max(bound, a.w + arcs[k].w);
            }
            if (m_targets.empty()) continue;
            // Two hops first: the arc a-b, or a common neighbour x with a-x-b no longer.
            ++m_mark_generation;
            for (const Arc& x : m_adj[a.to])
                if (x.to != v) m_mark[x.to] = m_mark_generation, m_mark_dist[x.to] = x.w;
            std::size_t kept = 0;
            for (const std::uint32_t k : m_targets) {
                const Arc& b = arcs[k];
                const double limit = (a.w + b.w) * (1.0 + 1e-12);
                bool witnessed = m_mark[b.to] == m_mark_generation && m_mark_dist[b.to] <= limit;
                for (std::size_t q = 0; !witnessed && q < m_adj[b.to].size(); ++q) {
                    const Arc& x = m_adj[b.to][q];
                    witnessed = x.to != v && m_mark[x.to] == m_mark_generation && m_mark_dist[x.to] + x.w <= limit;
                }
                if (!witnessed) m_targets[kept++] = k;
            }
            m_targets.resize(kept);
            if (m_targets.empty()) continue;
            witness(a.to, v, bound, arcs, a.w);
            for (const std::uint32_t k : m_targets) {
                const Arc& b = arcs[k];
                const double through = a.w + b.w;
                if (m_stamp[b.to] == m_generation && m_dist[b.to] <= through * (1.0 + 1e-12)) continue;
                m_shortcuts.push_back(Shortcut{through, a.to, b.to, a.far, b.far});
            }
        }
    }

    [[nodiscard]] const std::vector<Shortcut>& shortcuts() const noexcept { return m_shortcuts; }
    std::uint32_t settle_limit = 16;

private:
    // Dijkstra from `source` avoiding `excluded`, up to `bound`, settling at most settle_limit nodes or
    // until every target is settled.
    void witness(std::uint32_t source, std::uint32_t excluded, double bound, const std::vector<Arc>& arcs, double source_w) {
        search::advance_generation(m_generation, [&] { std::fill(m_stamp.begin(), m_stamp.end(), 0u); std::fill(m_target.begin(), m_target.end(), 0u); });
        std::size_t remaining = 0;
        m_goals.clear();
        for (const std::uint32_t k : m_targets)
            if (m_target[arcs[k].to] != m_generation) {
                m_target[arcs[k].to] = m_generation, ++remaining;
                const NavmeshHierarchy::Node& t = m_nodes[arcs[k].to];
                m_goals.push_back(Goal{double(t.x), double(t.y), (source_w + arcs[k].w) * (1.0 + 1e-12)});
            }
        m_heap.clear();
        m_dist[source] = 0.0;
        m_stamp[source] = m_generation;
        m_heap.push_back({0.0, source});
        std::uint32_t settled = 0;
        const auto order = [](const std::pair<double, std::uint32_t>& x, const std::pair<double, std::uint32_t>& y) {
            return x.first > y.first;
        };
        while (!m_heap.empty()) {
            std::pop_heap(m_heap.begin(), m_heap.end(), order);
            const auto [d, x] = m_heap.back();
            m_heap.pop_back();
            if (d > m_dist[x]) continue;
            if (d > bound) break;
            if (m_target[x] == m_generation && --remaining == 0) break;
            if (++settled > settle_limit) break;
            for (const Arc& arc : m_adj[x]) {
                if (arc.to == excluded) continue;
                const double nd = d + arc.w;
                if (nd > bound) continue;
                if (m_stamp[arc.to] == m_generation && nd >= m_dist[arc.to]) continue;
                // Only within the ellipse of some target: no witness through here can be short enough.
                const NavmeshHierarchy::Node& y = m_nodes[arc.to];
                bool useful = false;
                for (const Goal& g : m_goals) {
                    const double ex = g.x - y.x, ey = g.y - y.y, room = g.limit - nd;
                    if (room >= 0 && ex * ex + ey * ey <= room * room) {
                        useful = true;
                        break;
                    }
                }
                if (!useful) continue;
                m_stamp[arc.to] = m_generation;
                m_dist[arc.to] = nd;
                m_heap.push_back({nd, arc.to});
                std::push_heap(m_heap.begin(), m_heap.end(), order);
            }
        }
    }

    struct Goal {
        double x, y, limit;
    };
    std::vector<Goal> m_goals;
    const Navmesh& m_mesh;
    std::vector<NavmeshHierarchy::Node>& m_nodes;
    std::vector<std::vector<Arc>>& m_adj;
    std::vector<double> m_dist;
    std::vector<std::uint32_t> m_stamp, m_target;
    std::vector<std::uint32_t> m_targets;
    std::vector<std::uint64_t> m_mark;
    std::vector<double> m_mark_dist;
    std::uint64_t m_mark_generation = 0;
    std::vector<std::pair<double, std::uint32_t>> m_heap;
    std::vector<Shortcut> m_shortcuts;
    std::uint32_t m_generation = 0;
};

}  // namespace

std::size_t NavmeshHierarchy::memory_bytes() const noexcept {
    return m_nodes.capacity() * sizeof(Node) + m_node_of_vertex.capacity() * sizeof(std::uint32_t) +
           m_up_offsets.capacity() * sizeof(std::uint32_t) + m_up.capacity() * sizeof(UpEdge) +
           m_edge_offsets.capacity() * sizeof(std::uint32_t) + m_edges.capacity() * sizeof(FlatEdge) +
           m_edge_angle.capacity() * sizeof(std::uint16_t) +
           m_sweep_edges.capacity() * sizeof(detail::NavSweepEdge) + m_landmarks.capacity() * sizeof(std::uint32_t) +
           m_landmark_dist.capacity() * sizeof(float);
}

JpsSupport NavmeshHierarchy::build(const Navmesh& mesh, std::size_t max_memory_bytes,
                                   std::chrono::steady_clock::time_point deadline) {
    const auto t0 = std::chrono::steady_clock::now();
    m_built = false;
    m_method = Method::Auto;
    m_mesh = &mesh;
    m_graph_edges = m_shortcuts = 0;
    m_nodes.clear();
    m_up.clear();
    m_up_offsets.assign(1, 0);
    m_edges.clear();
    m_edge_angle.clear();
    m_edge_offsets.clear();
    m_sweep_edges.clear();
    m_landmarks.clear();
    m_landmark_dist.clear();
    const auto fail = [&](JpsSupport why) {
        m_nodes = {};
        m_up = {};
        m_up_offsets.assign(1, 0);
        m_node_of_vertex = {};
        m_edges = {};
        m_edge_angle = {};
        m_edge_offsets = {};
        m_sweep_edges = {};
        m_landmarks = {};
        m_landmark_dist = {};
        m_mesh = nullptr;
        return why;
    };
    const bool has_deadline = deadline != std::chrono::steady_clock::time_point::max();
    const auto vertices = mesh.vertices();
    m_node_of_vertex.assign(vertices.size(), kNoNode);
    if (mesh.polygon_count() == 0) return fail(JpsSupport::EmptyMap);

    // Nodes (in vertex order for now) and the quadrant of each one's blocked cell.
    std::vector<Node> nodes;
    for (std::uint32_t v = 0; v < vertices.size(); ++v) {
        if (!vertices[v].corner) continue;
        const std::int32_t x = vertices[v].x, y = vertices[v].y;
        Node n{x, y, 0, 0, v};
        for (std::int32_t dy = -1; dy <= 0; ++dy)
            for (std::int32_t dx = -1; dx <= 0; ++dx)
                if (mesh.polygon_of(GridPoint{x + dx, y + dy}) == kNoPolygon) n.sx = dx == 0 ? 1 : -1, n.sy = dy == 0 ? 1 : -1;
        m_node_of_vertex[v] = static_cast<std::uint32_t>(nodes.size());
        nodes.push_back(n);
    }
    const std::size_t n = nodes.size();
    std::size_t bytes = n * (sizeof(Node) + sizeof(std::uint32_t)) + vertices.size() * sizeof(std::uint32_t);

    // The sparse visibility graph: each corner's sweep adds the taut edges to corners of higher index.
    std::vector<std::vector<Arc>> adj(n);
    {
        std::vector<Piece> stack;
        std::vector<std::uint32_t> seen(n, kNoNode);
        // Corners by grid point: an edge that passes straight through another corner is left out (the
        // two edges through that corner are as short, and taut there: the segment goes on through free
        // space). Along a free grid line every corner would otherwise see every other one.
        const std::size_t row = std::size_t(mesh.width()) + 1;
        std::vector<bool> corner_at(row * (std::size_t(mesh.height()) + 1), false);
        for (const Node& c : nodes) corner_at[std::size_t(c.y) * row + std::size_t(c.x)] = true;
        bytes += corner_at.size() / 8;
        const auto passes_corner = [&](const Node& a, const Node& b) {
            const std::int32_t dx = b.x - a.x, dy = b.y - a.y;
            std::int32_t g = std::gcd(dx < 0 ? -dx : dx, dy < 0 ? -dy : dy);
            const std::int32_t sx = dx / g, sy = dy / g;
            for (std::int32_t k = 1; k < g; ++k)
                if (corner_at[std::size_t(a.y + k * sy) * row + std::size_t(a.x + k * sx)]) return true;
            return false;
        };
        std::size_t arcs = 0;
        for (std::uint32_t i = 0; i < n; ++i) {
            if (has_deadline && (i & 63u) == 0 && std::chrono::steady_clock::now() >= deadline)
                return fail(JpsSupport::TimeBudget);
            const Node& a = nodes[i];
            const NavPoint r{double(a.x), double(a.y)};
            sweep(mesh, r, stack, 0.0, [](std::uint32_t, const Piece*) {}, [&](std::uint32_t vertex) {
                const std::uint32_t j = m_node_of_vertex[vertex];
                if (j == kNoNode || j <= i || seen[j] == i) return;
                seen[j] = i;
                const Node& b = nodes[j];
                const double dx = double(b.x - a.x), dy = double(b.y - a.y);
                if (!taut_end(a.sx, a.sy, -dx, -dy) || !taut_end(b.sx, b.sy, dx, dy)) return;
                if (passes_corner(a, b)) return;
                const double w = std::sqrt(dx * dx + dy * dy);
                adj[i].push_back(Arc{w, j, kNoNode, j, i});
                adj[j].push_back(Arc{w, i, kNoNode, i, j});
                arcs += 2;
            }, [](const std::vector<Piece>&) { return true; });
            if ((i & 63u) == 0 && bytes + arcs * sizeof(Arc) > max_memory_bytes) return fail(JpsSupport::MemoryBudget);
        }
        m_graph_edges = arcs / 2;
        if (bytes + arcs * sizeof(Arc) > max_memory_bytes) return fail(JpsSupport::MemoryBudget);
    }

    m_method = m_method_wanted;
    if (m_method == Method::Auto)
        m_method = n > 0 && 2.0 * double(m_graph_edges) / double(n) >= 18.0 ? Method::Landmarks : Method::Contraction;
    if (m_method == Method::Landmarks) {
        // No contraction: the whole graph, each node's edges by direction (so that a query reads only the
        // taut continuations), nodes in their corners' order.
        m_core = n;
        // Nodes in Z order of their points, so that the corners a search meets together lie close in memory.
        const auto z_order = [](const Node& c) {
            std::uint64_t z = 0;
            for (int b = 0; b < 16; ++b)
                z |= ((std::uint64_t(c.x) >> b & 1u) << (2 * b)) | ((std::uint64_t(c.y) >> b & 1u) << (2 * b + 1));
            return z;
        };
        std::vector<std::uint32_t> order(n), rank(n);
        std::iota(order.begin(), order.end(), 0u);
        std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return z_order(nodes[a]) < z_order(nodes[b]); });
        m_nodes.resize(n);
        for (std::uint32_t r = 0; r < n; ++r) {
            rank[order[r]] = r;
            m_nodes[r] = nodes[order[r]];
            m_node_of_vertex[m_nodes[r].vertex] = r;
        }
        std::vector<Node>().swap(nodes);
        m_up_offsets.assign(n + 1, 0);
        m_edge_offsets.assign(n + 1, 0);
        m_edges.clear();
        if (bytes + m_graph_edges * 2 * (sizeof(FlatEdge) + sizeof(std::uint16_t) + sizeof(Arc)) > max_memory_bytes)
            return fail(JpsSupport::MemoryBudget);
        m_edges.reserve(m_graph_edges * 2);
        m_edge_angle.clear();
        m_edge_angle.reserve(m_graph_edges * 2);
        std::vector<std::pair<double, FlatEdge>> sorted;
        for (std::uint32_t v = 0; v < n; ++v) {
            sorted.clear();
            const Node& a = m_nodes[v];
            for (const Arc& arc : adj[order[v]]) {
                const std::uint32_t to = rank[arc.to];
                const Node& b = m_nodes[to];
                const std::int32_t dx = b.x - a.x, dy = b.y - a.y;  // |dx|, |dy| < 32768: corners lie inside the map
                sorted.emplace_back(pseudo_angle(dx, dy), FlatEdge{to, static_cast<std::int16_t>(dx), static_cast<std::int16_t>(dy)});
            }
            std::vector<Arc>().swap(adj[order[v]]);
            std::sort(sorted.begin(), sorted.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
            for (const auto& e : sorted) {
                m_edges.push_back(e.second);
                m_edge_angle.push_back(quantized_angle(e.first));
            }
            m_edge_offsets[v + 1] = static_cast<std::uint32_t>(m_edges.size());
        }
        // Landmarks: farthest-point choice (each the node farthest from those chosen, within the component
        // of the first), and every corner's shortest distance from each in the free space, exactly (then
        // rounded to float). From landmark L as a point: Dijkstra over the graph seeded with the corners L
        // sees taut (exact at every corner where a shortest path from L may turn); then each corner v takes
        // the least, over the corners u it sees (L itself too), of d(L, u) + |u v| (the last corner before
        // v need not be taut at v).
        m_landmarks.clear();
        m_landmark_dist.clear();
        const std::size_t k = std::min<std::size_t>(m_landmark_count, n);
        if (memory_bytes() + k * n * (sizeof(float) + sizeof(double)) +
                n * (2 * sizeof(double) + sizeof(std::pair<double, std::uint32_t>)) >
            max_memory_bytes)
            return fail(JpsSupport::MemoryBudget);
        if (k > 0) {
            std::vector<double> d(n), nearest(n, kInf), through(k * n);
            std::vector<std::pair<double, std::uint32_t>> heap;
            std::vector<Piece> stack;
            const auto order = [](const auto& x, const auto& y) { return x.first > y.first; };
            const auto dijkstra = [&](std::uint32_t root, bool as_point) {
                std::fill(d.begin(), d.end(), kInf);
                heap.clear();
                d[root] = 0.0;
                heap.push_back({0.0, root});
                if (as_point) {
                    const Node& r = m_nodes[root];
                    sweep_vertices(mesh, NavPoint{double(r.x), double(r.y)}, stack, [&](std::uint32_t vertex) {
                              const std::uint32_t u = m_node_of_vertex[vertex];
                              if (u == kNoNode) return;
                              const Node& c = m_nodes[u];
                              const double dx = double(c.x - r.x), dy = double(c.y - r.y);
                              if (!taut_end(c.sx, c.sy, dx, dy)) return;
                              const double du = std::sqrt(dx * dx + dy * dy);
                              if (du < d[u]) d[u] = du, heap.push_back({du, u});
                          });
                    std::make_heap(heap.begin(), heap.end(), order);
                }
                while (!heap.empty()) {
                    std::pop_heap(heap.begin(), heap.end(), order);
                    const auto [dv, v] = heap.back();
                    heap.pop_back();
                    if (dv > d[v]) continue;
                    for (std::uint32_t e = m_edge_offsets[v]; e < m_edge_offsets[v + 1]; ++e) {
                        const FlatEdge& edge = m_edges[e];
                        const double nd = dv + std::sqrt(double(edge.dx) * edge.dx + double(edge.dy) * edge.dy);
                        if (nd < d[edge.to]) {
                            d[edge.to] = nd;
                            heap.push_back({nd, edge.to});
                            std::push_heap(heap.begin(), heap.end(), order);
                        }
                    }
                }
            };
            const auto farthest = [&](const std::vector<double>& from) {
                std::uint32_t best = 0;
                for (std::uint32_t v = 1; v < n; ++v)
                    if (from[v] < kInf && (from[best] == kInf || from[v] > from[best])) best = v;
                return best;
            };
            // The first: the node farthest from the node of most edges (in the largest component, likely).
            std::uint32_t hub = 0;
            for (std::uint32_t v = 1; v < n; ++v)
                if (m_edge_offsets[v + 1] - m_edge_offsets[v] > m_edge_offsets[hub + 1] - m_edge_offsets[hub]) hub = v;
            dijkstra(hub, false);
            std::uint32_t next = farthest(d);
            for (std::size_t i = 0; i < k; ++i) {
                if (has_deadline && std::chrono::steady_clock::now() >= deadline) return fail(JpsSupport::TimeBudget);
                m_landmarks.push_back(next);
                dijkstra(next, true);
                for (std::uint32_t v = 0; v < n; ++v) {
                    through[std::size_t(v) * k + i] = d[v];
                    nearest[v] = std::min(nearest[v], d[v]);
                }
                next = farthest(nearest);
            }
            m_landmark_dist.resize(k * n);
            std::vector<double> best(k);
            for (std::uint32_t v = 0; v < n; ++v) {
                if (has_deadline && (v & 63u) == 0 && std::chrono::steady_clock::now() >= deadline) return fail(JpsSupport::TimeBudget);
                const Node& a = m_nodes[v];
                std::copy(through.begin() + std::ptrdiff_t(std::size_t(v) * k), through.begin() + std::ptrdiff_t(std::size_t(v + 1) * k), best.begin());
                sweep_vertices(mesh, NavPoint{double(a.x), double(a.y)}, stack, [&](std::uint32_t vertex) {
                          const std::uint32_t u = m_node_of_vertex[vertex];
                          if (u == kNoNode || u == v) return;
                          const Node& c = m_nodes[u];
                          const double dx = double(c.x - a.x), dy = double(c.y - a.y);
                          const double du = std::sqrt(dx * dx + dy * dy);
                          const double* row = through.data() + std::size_t(u) * k;
                          for (std::size_t i = 0; i < k; ++i) best[i] = std::min(best[i], row[i] + du);
                      });
                for (std::size_t i = 0; i < k; ++i) m_landmark_dist[std::size_t(v) * k + i] = static_cast<float>(best[i]);
            }
        }
        // The mesh's edges with their start points and nodes inline, for the query's sweeps.
        const auto mesh_edges = mesh.edges();
        if (memory_bytes() + mesh_edges.size() * sizeof(detail::NavSweepEdge) > max_memory_bytes) return fail(JpsSupport::MemoryBudget);
        m_sweep_edges.resize(mesh_edges.size());
        for (std::size_t e = 0; e < mesh_edges.size(); ++e) {
            const NavEdge& edge = mesh_edges[e];
            m_sweep_edges[e] = detail::NavSweepEdge{vertices[edge.vertex].x, vertices[edge.vertex].y, m_node_of_vertex[edge.vertex],
                                                    edge.neighbour, edge.twin};
        }
        m_built = true;
        m_build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        return JpsSupport::Ok;
    }

    // Contraction: lazy updates of (2 shortcuts - degree + contracted neighbours).
    Contractor contractor(mesh, nodes, adj);
    std::vector<std::int32_t> contracted_neighbours(n, 0);
    std::vector<std::uint32_t> rank(n, kNoNode);
    std::vector<std::vector<UpEdge>> up(n);
    using Entry = std::pair<std::int64_t, std::uint32_t>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> queue;
    std::vector<std::int32_t> level(n, 0);
    const auto priority = [&](std::uint32_t v) {
        contractor.simulate(v);
        return 2 * std::int64_t(contractor.shortcuts().size()) - std::int64_t(adj[v].size()) + contracted_neighbours[v] +
               level[v];
    };
    for (std::uint32_t v = 0; v < n; ++v) {
        if (has_deadline && (v & 63u) == 0 && std::chrono::steady_clock::now() >= deadline) return fail(JpsSupport::TimeBudget);
        queue.push({priority(v), v});
    }
    std::size_t arcs = m_graph_edges * 2, up_edges = 0;
    std::uint32_t next_rank = 0;
    while (!queue.empty()) {
        const std::uint32_t v = queue.top().second;
        queue.pop();
        if (rank[v] != kNoNode) continue;
        const std::int64_t p = priority(v);
        if (!queue.empty() && p > queue.top().first) {
            queue.push({p, v});
            continue;
        }
        // The cheapest node left is too well connected: the rest stays an uncontracted core.
        if (adj[v].size() > m_core_degree) break;
        if (has_deadline && (next_rank & 63u) == 0 && std::chrono::steady_clock::now() >= deadline)
            return fail(JpsSupport::TimeBudget);
        if ((next_rank & 63u) == 0 && bytes + arcs * sizeof(Arc) + up_edges * sizeof(UpEdge) > max_memory_bytes)
            return fail(JpsSupport::MemoryBudget);
        rank[v] = next_rank++;
        for (const Arc& a : adj[v]) up[v].push_back(UpEdge{a.w, a.to, a.mid});
        up_edges += adj[v].size();
        for (const Shortcut& s : contractor.shortcuts()) {
            const auto add = [&](std::uint32_t from, std::uint32_t to, std::uint32_t near, std::uint32_t far) {
                for (Arc& a : adj[from])
                    if (a.to == to) {
                        if (s.w < a.w) a = Arc{s.w, to, v, near, far};
                        return;
                    }
                adj[from].push_back(Arc{s.w, to, v, near, far});
                ++arcs;
            };
            add(s.u, s.x, s.near_u, s.near_x);
            add(s.x, s.u, s.near_x, s.near_u);
        }
        for (const Arc& a : adj[v]) {
            std::vector<Arc>& other = adj[a.to];
            for (std::size_t k = 0; k < other.size(); ++k)
                if (other[k].to == v) {
                    other[k] = other.back();
                    other.pop_back();
                    break;
                }
            ++contracted_neighbours[a.to];
            level[a.to] = std::max(level[a.to], level[v] + 1);
        }
        arcs -= 2 * adj[v].size();
        std::vector<Arc>().swap(adj[v]);
    }

    // The core (nodes left uncontracted) takes the top ranks; its nodes keep every arc among them.
    m_core = 0;
    for (std::uint32_t v = 0; v < n; ++v)
        if (rank[v] == kNoNode) {
            rank[v] = next_rank++;
            for (const Arc& a : adj[v]) up[v].push_back(UpEdge{a.w, a.to, a.mid});
            up_edges += adj[v].size();
            ++m_core;
        }
    // Number the nodes by rank; upward edges in one array.
    m_nodes.resize(n);
    for (std::uint32_t v = 0; v < n; ++v) {
        m_nodes[rank[v]] = nodes[v];
        m_node_of_vertex[nodes[v].vertex] = rank[v];
    }
    m_up_offsets.assign(n + 1, 0);
    m_up.clear();
    m_up.reserve(up_edges);
    std::vector<std::uint32_t> by_rank(n);
    for (std::uint32_t v = 0; v < n; ++v) by_rank[rank[v]] = v;
    for (std::uint32_t r = 0; r < n; ++r) {
        for (const UpEdge& e : up[by_rank[r]]) {
            m_up.push_back(UpEdge{e.weight, rank[e.to], e.middle == kNoNode ? kNoNode : rank[e.middle]});
            if (e.middle != kNoNode) ++m_shortcuts;
        }
        m_up_offsets[r + 1] = static_cast<std::uint32_t>(m_up.size());
    }
    m_built = true;
    m_build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    return JpsSupport::Ok;
}

// ---- Queries ------------------------------------------------------------------------------------------

NavmeshHierarchyPathfinder::NavmeshHierarchyPathfinder() = default;
NavmeshHierarchyPathfinder::~NavmeshHierarchyPathfinder() = default;
NavmeshHierarchyPathfinder::NavmeshHierarchyPathfinder(NavmeshHierarchyPathfinder&&) noexcept = default;
NavmeshHierarchyPathfinder& NavmeshHierarchyPathfinder::operator=(NavmeshHierarchyPathfinder&&) noexcept = default;

void NavmeshHierarchyPathfinder::reserve(const NavmeshHierarchy& hierarchy, std::size_t nodes) {
    // (exactly what fixed_growth() counts, never a doubling)
    const std::size_t n = hierarchy.node_count();
    for (int side = 0; side < 2; ++side) {
        detail::grow_exactly(m_label[side], n, Label{0.0, kNoNode, 0});
        m_open[side].reserve(nodes);
    }
    m_pieces.reserve(nodes);
    if (hierarchy.method() == NavmeshHierarchy::Method::Landmarks) {
        m_held.reserve(nodes);
        m_held_bound.reserve(nodes);
        m_slots.reserve(nodes);
        detail::grow_exactly(m_bucket, kBuckets);
        detail::grow_exactly(m_bucket_bits, kBuckets / 64);
        detail::grow_exactly(m_goal_bits, (n + 63) / 64);
        m_goal_seeds.reserve(nodes);
    }
    m_to_goal.reserve(hierarchy.landmarks().size());
    m_to_start.reserve(hierarchy.landmarks().size());
    m_unpack.reserve(256);
    m_chain.reserve(256);
}

std::size_t NavmeshHierarchyPathfinder::memory_bytes() const noexcept {
    return (m_label[0].capacity() + m_label[1].capacity()) * sizeof(Label) +
           (m_open[0].capacity() + m_open[1].capacity()) * sizeof(OpenEntry) + m_slots.capacity() * sizeof(Slot) +
           (m_pieces.capacity() + m_held.capacity()) * sizeof(detail::NavSweepPiece) +
           (m_held_bound.capacity() + m_to_goal.capacity() + m_to_start.capacity()) * sizeof(double) +
           (m_unpack.capacity() + m_chain.capacity() + m_goal_seeds.capacity() + m_bucket.capacity()) * sizeof(std::uint32_t) +
           (m_goal_bits.capacity() + m_bucket_bits.capacity()) * sizeof(std::uint64_t);
}

// Bytes reserve(hierarchy, 0) would add.
std::size_t NavmeshHierarchyPathfinder::fixed_growth(const NavmeshHierarchy& hierarchy) const noexcept {
    const auto more = [](const auto& v, std::size_t count) { return detail::growth_bytes(v, count); };
    const std::size_t n = hierarchy.node_count(), landmarks = hierarchy.landmarks().size();
    std::size_t bytes = more(m_label[0], n) + more(m_label[1], n) + more(m_to_goal, landmarks) + more(m_to_start, landmarks) +
                        more(m_unpack, 256) + more(m_chain, 256);
    if (hierarchy.method() == NavmeshHierarchy::Method::Landmarks)
        bytes += more(m_bucket, kBuckets) + more(m_bucket_bits, kBuckets / 64) + more(m_goal_bits, (n + 63) / 64);
    return bytes;
}

// True, and the search marked out of memory (it stops at its next step), when holding `more` bytes on
// top of what the pathfinder holds would pass the memory budget.
bool NavmeshHierarchyPathfinder::over_budget(std::size_t more) noexcept {
    const std::size_t held = memory_bytes();
    if (!detail::passes_budget(held, more, m_budget.max_memory_bytes)) return false;
    m_out_of_memory = true;
    return true;
}

// Room for one more element in `v`: without a memory limit always (the vector grows by itself); with one,
// when it has a free place or can double within the budget (grown here). Else the search is out of memory
// (it stops at its next step) and the element is dropped.
template <class T>
inline bool NavmeshHierarchyPathfinder::room(std::vector<T>& v) {
    return v.size() < v.capacity() || m_budget.max_memory_bytes == SIZE_MAX || grow(v);
}

template <class T>
[[gnu::noinline]] bool NavmeshHierarchyPathfinder::grow(std::vector<T>& v) {
    const std::size_t n = std::max<std::size_t>(16, 2 * v.capacity());
    if (m_out_of_memory || over_budget((n - v.capacity()) * sizeof(T))) return false;
    v.reserve(n);
    return true;
}

inline void NavmeshHierarchyPathfinder::pop_open(int side) {
    std::pop_heap(m_open[side].begin(), m_open[side].end(), key_after);
    m_open[side].pop_back();
}

double NavmeshHierarchyPathfinder::cost() const noexcept { return m_status == Status::Found ? m_best : kInf; }

inline void NavmeshHierarchyPathfinder::relax(int side, std::uint32_t node, double d, std::uint32_t parent) {
    Label& l = m_label[side][node];
    if (l.stamp == m_generation && l.dist <= d) return;
    if (!room(m_open[side])) return;
    l = Label{d, parent, m_generation};
    ++m_stats.generated;
    m_open[side].push_back(OpenEntry{d, node});
    std::push_heap(m_open[side].begin(), m_open[side].end(), key_after);
    const Label& o = m_label[1 - side][node];
    if (o.stamp == m_generation && d + o.dist < m_best) {
        m_best = d + o.dist;
        m_meet = node;
    }
}

inline void NavmeshHierarchyPathfinder::relax_forward(std::uint32_t node, double d, std::uint32_t parent, std::int32_t x,
                                                      std::int32_t y) {
    const double dx = double(x) - m_goal.x, dy = double(y) - m_goal.y;
    relax_forward(node, d, std::sqrt(dx * dx + dy * dy), parent, kStraight);
}

// `straight`: the straight line from the node to the goal. `kind` kStraight (the start's seeds, swept
// before the landmarks are chosen): keyed by d plus it, the landmarks' bound coming when it reaches the
// top; kRefined (a corner reached along an edge): keyed by d plus the landmarks' bound at once, its
// landmark distances having been asked of the cache with its label, and closed when the goal cannot be
// reached from it. (Re)opened: a closed node is reached more cheaply only when rounding made the
// potential a hair inconsistent.
inline void NavmeshHierarchyPathfinder::relax_forward(std::uint32_t node, double d, double straight, std::uint32_t parent,
                                                      std::uint32_t kind) {
    Label& l = m_label[0][node];
    if (l.stamp >= m_generation && l.dist <= d) return;  // open or closed, as short
    const double h = kind == kRefined ? landmark_bound(node, straight) : straight;
    ++m_stats.generated;
    if (h == kInf) {
        l = Label{d, parent, search::closed_stamp(m_generation)};
        return;
    }
    l = Label{d, parent, search::open_stamp(m_generation)};
    push_forward(OpenEntry{d + h, node, kind});
}

// Landmarks: an entry below the threshold goes into the band (band_push), the others into the overflow
// (m_open[1]), unordered: most entries A* generates are never settled (their key is above the best path's
// length), and there they cost an append instead of an ordered insertion.
inline void NavmeshHierarchyPathfinder::push_forward(const OpenEntry& entry) {
    if (entry.key < m_threshold) {
        if (entry.kind == kStraight) {  // a start seed, likely to reach the top: its landmark distances then (the bound)
            const float* row = m_hierarchy->m_landmark_dist.data() + std::size_t(entry.node) * m_hierarchy->m_landmarks.size();
            for (std::size_t a = 0; a < m_active_count; ++a) prefetch(row + m_active[a]);
        }
        // And its edges' angles (first and last line) and its edges, all of them up to 64 (random noise has
        // about 32 a corner), to be read when it is settled: the binary search over the angles and the scan
        // land anywhere in them.
        const std::uint32_t at = m_hierarchy->m_edge_offsets[entry.node], end = m_hierarchy->m_edge_offsets[entry.node + 1];
        prefetch(m_hierarchy->m_edge_angle.data() + at);
        if (end > at) prefetch(m_hierarchy->m_edge_angle.data() + end - 1);
        detail::prefetch_range(m_hierarchy->m_edges.data() + at, std::min<std::size_t>(end - at, 64) * sizeof(NavmeshHierarchy::FlatEdge));
        prefetch(m_hierarchy->m_nodes.data() + entry.node);  // and the corner itself (point, quadrant)
        band_push(entry);
    } else if (room(m_open[1])) {
        m_open[1].push_back(entry);
    }
}

// Landmarks, the heap empty: moves the overflow's entries below its least key plus the band into the heap
// (the threshold rises to there). Leaves the heap empty when none is below the best path.
void NavmeshHierarchyPathfinder::refill_forward() {
    std::vector<OpenEntry>& over = m_open[1];
    double least = kInf;
    for (const OpenEntry& e : over) least = std::min(least, e.key);
    if (!(least < m_best)) return;
    start_band(least);
    std::size_t kept = 0;
    for (const OpenEntry& e : over) {
        if (e.key < m_threshold) band_push(e);
        else over[kept++] = e;
    }
    over.resize(kept);
}

// Landmarks: the band [base, base + band) becomes the one kept ordered (the heap and the buckets empty).
inline void NavmeshHierarchyPathfinder::start_band(double base) {
    m_threshold = base + m_band;
    m_cursor = 0;
}

// Landmarks: queues an entry below the threshold. Its bucket is (key - base) / width; the heap holds the
// current bucket and all below it, the later buckets are lists, each poured into the heap when it comes
// up. The order is exact (a bucket's keys are all below the next one's), and a heap operation costs a
// few levels instead of log2 of all entries in the band: keys on sparse noise crowd a band of width 1.
inline void NavmeshHierarchyPathfinder::band_push(const OpenEntry& entry) {
    const double at = (entry.key - (m_threshold - m_band)) * m_per_bucket;
    std::size_t b = at > 0.0 ? std::size_t(at) : 0;
    if (b <= m_cursor) {
        if (!room(m_open[0])) return;
        m_open[0].push_back(entry);
        std::push_heap(m_open[0].begin(), m_open[0].end(), key_after);
        return;
    }
    b = std::min(b, kBuckets - 1);
    std::uint32_t slot = m_free_slot;
    if (slot != kNoSlot) {
        m_free_slot = m_slots[slot].next;
    } else {
        if (!room(m_slots)) return;
        slot = static_cast<std::uint32_t>(m_slots.size());
        m_slots.emplace_back();
    }
    std::uint64_t& word = m_bucket_bits[b >> 6];
    const std::uint64_t bit = std::uint64_t(1) << (b & 63u);
    m_slots[slot] = Slot{entry, word & bit ? m_bucket[b] : kNoSlot};
    word |= bit;
    m_bucket[b] = slot;
    ++m_queued;
}

// Landmarks: the least entry below the threshold (some must be queued): the heap's top, after pouring
// the next non-empty bucket into it if it is empty (m_none, keyed +infinity, if the heap cannot hold any
// of the bucket within the memory budget).
inline NavmeshHierarchyPathfinder::OpenEntry& NavmeshHierarchyPathfinder::band_top() {
    std::vector<OpenEntry>& open = m_open[0];
    if (open.empty()) {
        std::size_t w = (m_cursor + 1) >> 6;
        std::uint64_t bits = m_bucket_bits[w] & (~std::uint64_t(0) << ((m_cursor + 1) & 63u));
        while (bits == 0) bits = m_bucket_bits[++w];
        m_cursor = (w << 6) + std::size_t(std::countr_zero(bits));
        m_bucket_bits[w] &= ~(std::uint64_t(1) << (m_cursor & 63u));
        for (std::uint32_t s = m_bucket[m_cursor]; s != kNoSlot;) {
            if (!room(open)) break;  // (the search stops: the rest of the bucket is left)
            open.push_back(m_slots[s].entry);
            const std::uint32_t next = m_slots[s].next;
            m_slots[s].next = m_free_slot;
            m_free_slot = s;
            s = next;
            --m_queued;
        }
        if (open.empty()) return m_none;
        std::make_heap(open.begin(), open.end(), key_after);
    }
    return open.front();
}

// A lower bound of the distance from `node` to the goal: `straight` (the straight line), or for each
// active landmark L the difference |d(L, goal) - d(L, node)| (triangle inequality), less a margin for the
// float rounding of the stored distances. +infinity when a landmark reaches the goal and not the node.
inline double NavmeshHierarchyPathfinder::landmark_bound(std::uint32_t node, double straight) const noexcept {
    const float* row = m_hierarchy->m_landmark_dist.data() + std::size_t(node) * m_hierarchy->m_landmarks.size();
    double h = straight;
    for (std::size_t a = 0; a < m_active_count; ++a) {
        const double fv = row[m_active[a]], ft = m_active_goal[a];
        if (!(fv < kInf)) return kInf;
        h = std::max(h, std::abs(ft - fv) - (ft + fv) * 0x1p-20);
    }
    return h;
}

inline double NavmeshHierarchyPathfinder::potential(std::uint32_t node) const noexcept {
    const NavmeshHierarchy::Node& c = m_hierarchy->m_nodes[node];
    const double dx = double(c.x) - m_goal.x, dy = double(c.y) - m_goal.y;
    return landmark_bound(node, std::sqrt(dx * dx + dy * dy));
}

void NavmeshHierarchyPathfinder::seed(int side, NavPoint from) {
    const NavmeshHierarchy& h = *m_hierarchy;
    const NavPoint other = side == 0 ? m_goal : m_start;
    const auto nodes = h.nodes();
    const auto on_polygon = [&](std::uint32_t polygon, const Piece* piece) {
        if (side != 0 || m_direct) return;
        const NavPolygon& p = h.mesh()->polygons()[polygon];
        if (other.x < p.x0 || other.x > p.x1 || other.y < p.y0 || other.y > p.y1) return;
        if (piece == nullptr || in_cone(from, *piece, other, 1e-9)) m_direct = true;
    };
    if (!m_forward) {
        sweep(*h.mesh(), from, m_pieces, 1e-9, on_polygon, [&](std::uint32_t vertex) {
            const std::uint32_t v = h.node_of_vertex(vertex);
            if (v == kNoNode) return;
            const NavmeshHierarchy::Node& c = nodes[v];
            const double dx = double(c.x) - from.x, dy = double(c.y) - from.y;
            if (!taut_end(c.sx, c.sy, dx, dy)) return;
            relax(side, v, std::sqrt(dx * dx + dy * dy), kNoNode);
        }, [&](std::vector<Piece>& stack) { return room(stack); });
        return;
    }
    // Landmarks: the sweep reads the hierarchy's compact copy of the mesh's edges (nodes inline). For each
    // landmark L, `to` gets the least over the seeds u (the corners seen and taut here, each read once) of
    // d(L, u) + |u from|: at least d(L, from), and at most d(L, w) + d(w, from) for every seed w, so that
    // for any corner v, whose way to the goal ends at a seed w, d(L, goal) read so minus d(L, v) is at most
    // d(v, w) + |w goal| (triangle inequality) and d(L, v) minus it at most d(v, goal): the bound is
    // admissible, and larger than with d(L, goal) itself when the goal sees L only along a direction into
    // L's blocked cell (not taut there).
    std::vector<double>& to = side == 0 ? m_to_start : m_to_goal;
    const std::size_t k = to.size();
    const double limit = std::min(m_threshold, m_best);
    const auto hold = [&](const Piece& piece) { return side == 0 && hold_piece(piece, limit); };
    sweep_edges(*h.mesh(), CompactEdges{h.m_sweep_edges.data(), h.mesh()->polygons().data()}, from, m_pieces, 1e-9, on_polygon, [&](std::uint32_t v) {
        if (v == kNoNode) return;
        const NavmeshHierarchy::Node& c = nodes[v];
        const double dx = double(c.x) - from.x, dy = double(c.y) - from.y;
        if (!taut_end(c.sx, c.sy, dx, dy)) return;
        if (side == 0) {
            if (m_label[0][v].stamp == search::open_stamp(m_generation)) return;  // seen before
        } else {
            if (m_goal_bits[v >> 6] >> (v & 63u) & 1u) return;
        }
        const double d = std::sqrt(dx * dx + dy * dy);
        const float* row = h.m_landmark_dist.data() + std::size_t(v) * k;
        for (std::size_t i = 0; i < k; ++i) to[i] = std::min(to[i], d + double(row[i]));
        if (side == 0) {
            relax_forward(v, d, kNoNode, c.x, c.y);
        } else {
            if (!room(m_goal_seeds)) return;
            m_goal_bits[v >> 6] |= std::uint64_t(1) << (v & 63u);
            m_goal_seeds.push_back(v);
            m_label[1][v] = Label{d, kNoNode, m_generation};
        }
    }, hold, [&](std::vector<Piece>& stack) { return room(stack); });
    if (side == 0) queue_held();
}

// Landmarks: the start's sweep sets aside a part whose polygon lies, by its bounding box, at least `limit`
// (the heap's threshold, or the best path) from the start plus from the goal: every corner it shows, or
// that is seen through it, then has a key at least that (the distance from the start plus the straight
// line to the goal grows along every ray from the start). On sparse noise the start sees corners in every
// direction, and only those near the straight line are ever settled.
bool NavmeshHierarchyPathfinder::hold_piece(const Piece& piece, double limit) {
    const NavPolygon& p = m_hierarchy->mesh()->polygons()[piece.polygon];
    const auto box = [&](NavPoint q) {
        const double dx = std::max({double(p.x0) - q.x, 0.0, q.x - double(p.x1)});
        const double dy = std::max({double(p.y0) - q.y, 0.0, q.y - double(p.y1)});
        return std::sqrt(dx * dx + dy * dy);
    };
    const double bound = box(m_start) + box(m_goal);
    if (bound < limit) return false;
    if (!room(m_held) || !room(m_held_bound)) return true;  // (the part is dropped)
    m_held.push_back(piece);
    m_held_bound.push_back(bound);
    return true;
}

// Landmarks: one overflow entry for the parts set aside, keyed by the least of their bounds.
void NavmeshHierarchyPathfinder::queue_held() {
    double least = kInf;
    for (const double b : m_held_bound) least = std::min(least, b);
    if (least < m_best && room(m_open[1])) m_open[1].push_back(OpenEntry{least, kNoNode, kSweep});
}

// Landmarks: goes on with the start's sweep from the parts set aside below the limit (the others stay
// aside), seeding the corners seen as the first sweep did.
void NavmeshHierarchyPathfinder::resume_start_sweep() {
    const NavmeshHierarchy& h = *m_hierarchy;
    const auto nodes = h.nodes();
    const double limit = std::min(m_threshold, m_best);
    m_pieces.clear();
    std::size_t kept = 0;
    for (std::size_t i = 0; i < m_held.size(); ++i) {
        if (m_held_bound[i] < limit) {
            if (room(m_pieces)) m_pieces.push_back(m_held[i]);
        } else {
            m_held[kept] = m_held[i];
            m_held_bound[kept++] = m_held_bound[i];
        }
    }
    m_held.resize(kept);
    m_held_bound.resize(kept);
    sweep_pieces(
        *h.mesh(), CompactEdges{h.m_sweep_edges.data(), h.mesh()->polygons().data()}, m_start, m_pieces, 1e-9,
        [](std::uint32_t, const Piece*) {}, [&](std::uint32_t v) {
            if (v == kNoNode) return;
            const NavmeshHierarchy::Node& c = nodes[v];
            const double dx = double(c.x) - m_start.x, dy = double(c.y) - m_start.y;
            if (taut_end(c.sx, c.sy, dx, dy)) relax_forward(v, std::sqrt(dx * dx + dy * dy), kNoNode, c.x, c.y);
        },
        [&](const Piece& piece) { return hold_piece(piece, limit); }, [&](std::vector<Piece>& stack) { return room(stack); });
    queue_held();
}

void NavmeshHierarchyPathfinder::seed_forward() {
    // The goal's side first (its seeds and distances to the landmarks), then the start's (its seeds
    // queued by the straight-line bound; the landmarks' bound applies when they reach the top).
    for (const std::uint32_t v : m_goal_seeds) m_goal_bits[v >> 6] = 0;
    m_goal_seeds.clear();
    seed(1, m_goal);
    // Keys are at least |start goal|; the heap takes those below it plus the band, 0.2% of it (at least
    // 1): on sparse noise nearly every path is within 2% of the straight line, and most keys generated lie
    // above it.
    const double straight = dist(m_start, m_goal);
    m_band = std::max(1.0, 0.002 * straight);
    m_per_bucket = double(kBuckets) / m_band;
    start_band(straight);
    seed(0, m_start);
    if (m_direct) return;
    // The landmarks that bound the start's distance best (any that reaches one end and not the other
    // first: then no path exists, and every start seed is cut off at once).
    m_active_count = 0;
    double value[kActive] = {};
    for (std::size_t i = 0; i < m_to_goal.size(); ++i) {
        const double g = m_to_goal[i], s = m_to_start[i];
        if (g == kInf) continue;
        const double v = s == kInf ? kInf : std::abs(g - s);
        std::size_t at = m_active_count;
        while (at > 0 && value[at - 1] < v) --at;
        if (at >= kActive) continue;
        const std::size_t end = std::min(m_active_count + 1, kActive);
        for (std::size_t j = end - 1; j > at; --j) value[j] = value[j - 1], m_active[j] = m_active[j - 1];
        value[at] = v;
        m_active[at] = static_cast<std::uint32_t>(i);
        m_active_count = end;
    }
    for (std::size_t a = 0; a < m_active_count; ++a) m_active_goal[a] = m_to_goal[m_active[a]];
}

Status NavmeshHierarchyPathfinder::begin(const NavmeshHierarchy& hierarchy, NavPoint start, NavPoint goal,
                                         const NavmeshSearchOptions& options) {
    m_hierarchy = &hierarchy;
    m_stats = {};
    m_limit = search::BudgetLimit::None;
    m_out_of_memory = false;
    m_direct = false;
    m_forward = hierarchy.method() == NavmeshHierarchy::Method::Landmarks;
    m_best = kInf;
    m_meet = kNoNode;
    m_budget = options.budget;
    m_start = start;
    m_goal = goal;
    m_open[0].clear();
    m_open[1].clear();
    std::fill(m_bucket_bits.begin(), m_bucket_bits.end(), 0);
    m_slots.clear();
    m_free_slot = kNoSlot;
    m_queued = m_cursor = 0;
    m_held.clear();
    m_held_bound.clear();
    m_status = Status::InvalidQuery;
    const Navmesh* mesh = hierarchy.mesh();
    if (!hierarchy.built() || mesh == nullptr || mesh->polygon_count() == 0) return m_status;
    std::uint32_t from[4], held[4];
    const std::size_t goal_polygons = detail::navmesh_locate(*mesh, goal, held);
    if (detail::navmesh_locate(*mesh, start, from) == 0 || goal_polygons == 0) return m_status;
    m_status = Status::InProgress;
    if (start == goal) {
        m_direct = true;
        m_best = 0.0;
        return m_status;
    }
    // The straight segment, walked through the rectangles, before any sweep (cases it leaves undecided,
    // along a grid line or near a grid point between points off the 1/1024 grid, are settled by the
    // start's sweep).
    if (detail::navmesh_straight_line_free(*mesh, from[0], start, goal, held, goal_polygons)) {
        m_direct = true;
        m_best = dist(start, goal);
        return m_status;
    }
    // What the pathfinder holds counts against a memory budget (step() then stops at once); so do the
    // per-node arrays before they are allocated.
    const bool limited = m_budget.max_memory_bytes != SIZE_MAX;
    if (limited && over_budget(0)) return m_status;
    if (m_label[0].size() < hierarchy.node_count() ||
        (m_forward && (m_goal_bits.size() < (hierarchy.node_count() + 63) / 64 || m_bucket.empty()))) {
        if (limited && over_budget(fixed_growth(hierarchy))) return m_status;
        reserve(hierarchy, 0);
    }
    search::advance_generation(m_generation, [&] {
        for (auto& labels : m_label)
            for (Label& l : labels) l.stamp = 0;
    });
    if (m_forward) {
        m_to_goal.assign(hierarchy.landmarks().size(), kInf);
        m_to_start.assign(hierarchy.landmarks().size(), kInf);
        m_active_count = 0;
        seed_forward();
    } else {
        seed(0, start);
        if (!m_direct) seed(1, goal);
    }
    if (m_direct) m_best = dist(start, goal);
    return m_status;
}

// Landmarks: expands settled corner `x`, whose label is final. Of the edges along which a path can turn
// there, relaxes those whose key (the distance through them plus the straight line on to the goal) lies
// in [from_key, limit), the limit being the heap's threshold or the best path if shorter; those at or
// above it are left for later (partial expansion): an entry keyed by the least of them (below the best
// path) goes into the overflow, and when it reaches the top the corner is expanded again from that key.
// On sparse noise about four in five edges scanned lead to keys above the best path; those left for later
// are never relaxed, nor their corners' labels read. (A later expansion is bounded by the corner's edges
// and counts towards the slice, not towards `expanded`, which the budget counts: corners settled.)
void NavmeshHierarchyPathfinder::expand_forward(std::uint32_t x, double from_key) {
    const NavmeshHierarchy& h = *m_hierarchy;
    const auto nodes = h.nodes();
    const NavmeshHierarchy::FlatEdge* edges = h.m_edges.data();
    const Label& label = m_label[0][x];
    const double g = label.dist;
    const NavmeshHierarchy::Node& v = nodes[x];
    const NavPoint back = label.parent == kNoNode ? m_start : NavPoint{double(nodes[label.parent].x), double(nodes[label.parent].y)};
    // The taut continuations: directions from the arrival's to the nearer side of the blocked cell
    // (at most a quarter turn; widened a little, which only adds edges to try).
    const double a_in = pseudo_angle(double(v.x) - back.x, double(v.y) - back.y);
    const double q1 = pseudo_angle(v.sx, 0), q2 = pseudo_angle(0, v.sy);
    const double q_start = q1 + 1.0 == q2 ? q1 : q2, q_end = q_start == 3.0 ? 0.0 : q_start + 1.0;
    double t = a_in - q_end;
    if (t < 0) t += 4.0;
    double lo, hi;
    if (t <= 1.0) lo = q_end, hi = a_in;
    else if (t >= 2.0) lo = a_in, hi = q_start;
    else lo = 0.0, hi = 4.0;  // (not for a visible parent)
    if (hi < lo) hi += 4.0;
    lo -= 1e-5, hi += 1e-5;
    const double limit = std::min(m_threshold, m_best);
    double deferred = kInf;
    // The edges in range by their quantized angles (a few more at the ends: harmless), in batches: keys
    // first, then the labels of those to relax asked for, then the relaxations. The scan is forced inline:
    // called from two or three places, GCC kept it out of line, reloading every captured value per edge
    // (about 6 % of a query on random noise).
    const std::uint32_t first = h.m_edge_offsets[x], last = h.m_edge_offsets[x + 1];
    const std::uint16_t* angle = h.m_edge_angle.data();
    const Label* labels = m_label[0].data();
    const float* landmark_dist = h.m_landmark_dist.data();
    const std::size_t landmarks = h.m_landmarks.size();
    constexpr std::size_t kBatch = 32;
    std::uint32_t batch_edge[kBatch];
    double batch_dist[kBatch], batch_straight[kBatch];
    std::size_t n = 0;
    const auto flush = [&] {
        for (std::size_t i = 0; i < n; ++i) relax_forward(edges[batch_edge[i]].to, batch_dist[i], batch_straight[i], x, kRefined);
        n = 0;
    };
    const auto scan = [&](double from, double to) GAMEPLAN_FORCE_INLINE {
        const std::uint16_t qf = quantized_angle(from), qt = quantized_angle(to);
        for (std::uint32_t e = static_cast<std::uint32_t>(std::lower_bound(angle + first, angle + last, qf) - angle);
             e != last && angle[e] <= qt; ++e) {
            const NavmeshHierarchy::FlatEdge& f = edges[e];
            const double d = g + std::sqrt(double(f.dx) * f.dx + double(f.dy) * f.dy);
            const double dx = double(v.x + f.dx) - m_goal.x, dy = double(v.y + f.dy) - m_goal.y;
            const double straight = std::sqrt(dx * dx + dy * dy), key = d + straight;
            if (key < from_key) continue;  // relaxed by an earlier expansion
            if (key >= limit) {
                if (key < m_best) deferred = std::min(deferred, key);
                continue;
            }
            prefetch(labels + f.to);
            const float* row = landmark_dist + std::size_t(f.to) * landmarks;
            for (std::size_t a = 0; a < m_active_count; ++a) prefetch(row + m_active[a]);
            batch_edge[n] = e, batch_dist[n] = d, batch_straight[n] = straight;
            if (++n == kBatch) flush();
        }
    };
    if (lo < 0) scan(lo + 4.0, 4.0), scan(0.0, hi);
    else if (hi >= 4.0) scan(lo, 4.0), scan(0.0, hi - 4.0);
    else scan(lo, hi);
    flush();
    if (!(deferred < m_best) || !room(m_open[1])) return;
    m_open[1].push_back(OpenEntry{deferred, x, kDeferred});
}

Status NavmeshHierarchyPathfinder::step_forward(std::uint64_t slice_expansions) {
    const bool has_deadline = m_budget.deadline != std::chrono::steady_clock::time_point::max();
    const auto none_below = [&] { return m_open[0].empty() && m_queued == 0; };  // the threshold
    const std::uint32_t closed = search::closed_stamp(m_generation);
    for (std::uint64_t slice = 0; slice < slice_expansions;) {
        if (m_out_of_memory) {
            m_limit = search::BudgetLimit::Memory;
            return m_status = Status::BudgetExhausted;
        }
        if (none_below()) refill_forward();
        const bool done = none_below() || band_top().key >= m_best;
        if (m_out_of_memory) {  // (an entry the refill or the pour could not hold)
            m_limit = search::BudgetLimit::Memory;
            return m_status = Status::BudgetExhausted;
        }
        if (done) return m_status = m_best < kInf ? Status::Found : Status::NoPath;
        const OpenEntry top = band_top();
        if (top.kind == kSweep) {  // parts of the start's sweep set aside
            pop_open(0);
            resume_start_sweep();
            ++slice;
            continue;
        }
        Label& label = m_label[0][top.node];
        if (top.kind == kDeferred) {  // a settled corner's edges left for later
            pop_open(0);
            if (label.stamp == closed) {  // (else reopened since: it is expanded in full again)
                expand_forward(top.node, top.key);
                ++slice;
            }
            continue;
        }
        if (label.stamp != m_generation) {  // stale entry (closed since)
            pop_open(0);
            continue;
        }
        if (top.kind == kStraight && m_active_count > 0) {
            // Queued by the straight-line bound (a start seed): now the landmarks' bound, queued again if
            // it is larger.
            const double p = potential(top.node);
            if (p == kInf || label.dist + p > top.key) {
                pop_open(0);
                if (p == kInf) {  // the goal cannot be reached from here
                    label.stamp = closed;
                } else {
                    push_forward(OpenEntry{label.dist + p, top.node, kRefined});
                }
                continue;
            }
            band_top().kind = kRefined;
        }
        if (const auto limit = search::expansion_limit(m_budget, m_stats.expanded, has_deadline); limit != search::BudgetLimit::None) {
            m_limit = limit;
            return m_status = Status::BudgetExhausted;
        }
        pop_open(0);
        ++m_stats.expanded;
        ++slice;
        const std::uint32_t x = top.node;
        label.stamp = closed;
        // A goal seed: the goal is seen from here.
        if (m_goal_bits[x >> 6] >> (x & 63u) & 1u) {
            const Label& to_goal = m_label[1][x];
            if (label.dist + to_goal.dist < m_best) {
                m_best = label.dist + to_goal.dist;
                m_meet = x;
            }
        }
        expand_forward(x, -kInf);
    }
    return m_status;
}

Status NavmeshHierarchyPathfinder::step(std::uint64_t slice_expansions) {
    if (m_status != Status::InProgress) return m_status;
    if (m_direct) return m_status = Status::Found;
    if (m_forward) return step_forward(slice_expansions);
    const bool has_deadline = m_budget.deadline != std::chrono::steady_clock::time_point::max();
    for (std::uint64_t slice = 0; slice < slice_expansions;) {
        if (m_out_of_memory) {
            m_limit = search::BudgetLimit::Memory;
            return m_status = Status::BudgetExhausted;
        }
        // The side with the smaller key; a side whose smallest key reaches the best meeting is done.
        int side = -1;
        double key = m_best;
        for (int s = 0; s < 2; ++s)
            if (!m_open[s].empty() && m_open[s].front().key < key) key = m_open[s].front().key, side = s;
        if (side < 0) return m_status = m_best < kInf ? Status::Found : Status::NoPath;
        const std::uint32_t x = m_open[side].front().node;
        if (key > m_label[side][x].dist) {  // stale entry
            pop_open(side);
            continue;
        }
        if (const auto limit = search::expansion_limit(m_budget, m_stats.expanded, has_deadline); limit != search::BudgetLimit::None) {
            m_limit = limit;
            return m_status = Status::BudgetExhausted;
        }
        pop_open(side);
        ++m_stats.expanded;
        ++slice;
        // Stall on demand: a higher neighbour already reached more cheaply than this node plus the edge
        // between them shows this label is not the node's distance, so no shortest path continues here.
        const auto up = m_hierarchy->up(x);
        bool stalled = false;
        for (const NavmeshHierarchy::UpEdge& e : up) {
            const Label& l = m_label[side][e.to];
            if (l.stamp == m_generation && l.dist + e.weight < key) {
                stalled = true;
                break;
            }
        }
        if (stalled) continue;
        for (const NavmeshHierarchy::UpEdge& e : up) relax(side, e.to, key + e.weight, x);
    }
    return m_status;
}

void NavmeshHierarchyPathfinder::unpack(std::uint32_t from, std::uint32_t to, std::vector<NavPoint>& out) {
    // Appends the corners after `from` up to `to` along the hierarchy edge between them.
    const auto nodes = m_hierarchy->nodes();
    m_unpack.clear();
    m_unpack.push_back(from);
    m_unpack.push_back(to);
    while (!m_unpack.empty()) {
        const std::uint32_t y = m_unpack.back();
        m_unpack.pop_back();
        const std::uint32_t x = m_unpack.back();
        m_unpack.pop_back();
        const std::uint32_t lo = std::min(x, y), hi = std::max(x, y);
        std::uint32_t mid = kNoNode;
        for (const NavmeshHierarchy::UpEdge& e : m_hierarchy->up(lo))
            if (e.to == hi) {
                mid = e.middle;
                break;
            }
        if (mid == kNoNode) {
            out.push_back(NavPoint{double(nodes[y].x), double(nodes[y].y)});
            continue;
        }
        // x -> mid first, then mid -> y (a stack: pushed in reverse).
        m_unpack.push_back(mid);
        m_unpack.push_back(y);
        m_unpack.push_back(x);
        m_unpack.push_back(mid);
    }
}

Status NavmeshHierarchyPathfinder::finish(NavmeshPath& out) {
    out.points.clear();
    out.cost = kInf;
    if (m_status != Status::Found) return m_status;
    out.cost = m_best;
    out.points.push_back(m_start);
    if (m_direct) {
        if (!(m_goal == m_start)) out.points.push_back(m_goal);
        return m_status;
    }
    const auto nodes = m_hierarchy->nodes();
    // Forward chain from the meeting node back to a start seed, then walked from the seed.
    m_chain.clear();
    for (std::uint32_t v = m_meet; v != kNoNode; v = m_label[0][v].parent) m_chain.push_back(v);
    const std::uint32_t first = m_chain.back();
    out.points.push_back(NavPoint{double(nodes[first].x), double(nodes[first].y)});
    for (std::size_t i = m_chain.size() - 1; i > 0; --i) unpack(m_chain[i], m_chain[i - 1], out.points);
    for (std::uint32_t v = m_meet; m_label[1][v].parent != kNoNode; v = m_label[1][v].parent)
        unpack(v, m_label[1][v].parent, out.points);
    out.points.push_back(m_goal);
    // A seed on the start or the goal itself (a point on a corner) repeats it.
    out.points.erase(std::unique(out.points.begin(), out.points.end()), out.points.end());
    return m_status;
}

Status NavmeshHierarchyPathfinder::find_path(const NavmeshHierarchy& hierarchy, NavPoint start, NavPoint goal,
                                             const NavmeshSearchOptions& options, NavmeshPath& out) {
    if (begin(hierarchy, start, goal, options) == Status::InProgress) (void)step();
    return finish(out);
}

}  // namespace gameplan::path
