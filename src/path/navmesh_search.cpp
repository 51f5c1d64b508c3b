// Polyanya on the rectangle mesh: interval nodes (a root and a part of an edge it sees), fan nodes (a
// corner root that sees the whole next polygon) and goal nodes. See navmesh.hpp for the overview.
//
// Geometry notes. Polygons are rectangles whose boundary runs from (x0, y0) through (x1, y0), (x1, y1),
// (x0, y1); a boundary position is its perimeter distance `along` from (x0, y0). An interval node's
// interval [a, b] is measured along its entry edge from the edge's start vertex. Expanding it walks the
// rest of the boundary in order, from the entry edge's end (u = 0) to its start (u = perimeter - entry
// length): rays from the root through b and through a leave the rectangle at u_b <= u_a; [u_b, u_a] is
// seen from the root, [0, u_b] is hidden behind the edge's end vertex, [u_a, end] behind its start.
// An edge collinear with the root (the root runs along a wall) cannot be entered through an interval:
// the path turns at the edge's near end if that is a corner, which becomes the root of a fan node.
#include <gameplan/path/navmesh.hpp>

#include "exact_growth.hpp"
#include "force_inline.hpp"
#include "navmesh_geometry.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

namespace gameplan::path {

// successor() and push() run for every piece of every expansion; inlining them into the expansions
// (GAMEPLAN_FORCE_INLINE) saves 2-6% of the search time. The other helpers of the search are defined
// `inline` too: the library is also built as position-independent code (C API, Python module), where GCC
// does not inline a function of external linkage (it could be interposed), which cost 5% of a query.

namespace {

constexpr double kEps = 1e-9;
constexpr double kInf = std::numeric_limits<double>::infinity();

// No limit of any kind: nothing can stop a search before it ends.
inline bool unlimited(const search::Budget& budget) noexcept {
    return budget.max_expansions == UINT64_MAX && budget.max_memory_bytes == SIZE_MAX &&
           budget.deadline == std::chrono::steady_clock::time_point::max();
}

// sqrt of the sum of squares: coordinates are small (at most 32768), so no overflow care is needed (hypot is
// several times slower and was a fifth of the search time).
inline double dist(NavPoint a, NavPoint b) noexcept {
    const double dx = a.x - b.x, dy = a.y - b.y;
    return std::sqrt(dx * dx + dy * dy);
}

}  // namespace

struct detail::NavEdgeSpan {
    NavPoint from;       // start vertex
    double dx, dy;       // unit axis direction
    double length;       // > 0
    [[nodiscard]] NavPoint at(double t) const noexcept { return NavPoint{from.x + t * dx, from.y + t * dy}; }
};

namespace {
using EdgeGeom = detail::NavEdgeSpan;

// The edge of `poly` from perimeter position `along` to `end` (both on one side of the rectangle),
// computed from the rectangle alone (no vertex loads).
inline EdgeGeom edge_at(const NavPolygon& poly, std::int32_t along, std::int32_t end) noexcept {
    const std::int32_t w = poly.x1 - poly.x0, h = poly.y1 - poly.y0;
    EdgeGeom g;
    g.length = double(end - along);
    if (along < w) g.from = NavPoint{double(poly.x0 + along), double(poly.y0)}, g.dx = 1.0, g.dy = 0.0;
    else if (along < w + h) g.from = NavPoint{double(poly.x1), double(poly.y0 + (along - w))}, g.dx = 0.0, g.dy = 1.0;
    else if (along < 2 * w + h) g.from = NavPoint{double(poly.x1 - (along - w - h)), double(poly.y1)}, g.dx = -1.0, g.dy = 0.0;
    else g.from = NavPoint{double(poly.x0), double(poly.y1 - (along - 2 * w - h))}, g.dx = 0.0, g.dy = -1.0;
    return g;
}

inline std::int32_t perimeter_of(const NavPolygon& poly) noexcept { return 2 * ((poly.x1 - poly.x0) + (poly.y1 - poly.y0)); }

// Perimeter position of the end of local edge `local` (the next edge's start, or the perimeter).
inline std::int32_t end_along(const NavEdge* boundary, const NavPolygon& poly, std::uint32_t local) noexcept {
    return local + 1 == poly.edge_count ? perimeter_of(poly) : boundary[local + 1].along;
}

// The shortest length of root -> (a point X of segment [a, b]) -> goal, where [a, b] is axis-aligned and
// the goal is first mirrored onto the far side of the segment's line when it lies on the root's side.
// `turn` receives 0 (straight through), 1 (bends at a) or 2 (bends at b).
inline double through_interval(NavPoint r, NavPoint a, NavPoint b, NavPoint t, int* turn = nullptr) noexcept {
    const bool horizontal = a.y == b.y;
    const double c = horizontal ? a.y : a.x;
    const double rp = horizontal ? r.y : r.x, ra = horizontal ? r.x : r.y;
    double tp = horizontal ? t.y : t.x;
    const double ta = horizontal ? t.x : t.y;
    if ((rp - c) * (tp - c) > 0.0) tp = 2.0 * c - tp;
    const NavPoint mirrored = horizontal ? NavPoint{ta, tp} : NavPoint{tp, ta};
    double cross;
    if (tp == c) cross = ta;
    else cross = ra + (c - rp) / (tp - rp) * (ta - ra);
    const double lo = std::min(horizontal ? a.x : a.y, horizontal ? b.x : b.y);
    const double hi = std::max(horizontal ? a.x : a.y, horizontal ? b.x : b.y);
    if (cross >= lo - kEps && cross <= hi + kEps) {
        if (turn) *turn = 0;
        return dist(r, mirrored);
    }
    // The length through a point of the segment's line is convex along it, smallest at `cross`: outside
    // [lo, hi] the best point is the end nearer to `cross`.
    const bool at_a = (cross < lo) == ((horizontal ? a.x : a.y) == lo);
    const NavPoint end = at_a ? a : b;
    if (turn) *turn = at_a ? 1 : 2;
    return dist(r, end) + dist(end, mirrored);
}

// True if the segment s -> t lies in the free space, walking it through the mesh from `from` (a polygon
// holding s) to one of the polygons holding t (`at_t`, at least one): inside one closed rectangle of free cells the segment is free, and it leaves each rectangle
// through a side, into the cell beyond, which must be free. It may leave through a grid point: a point
// inside a side (the cell beyond diagonally must be free; the rectangle's own cell beside it is free, so
// it is no squeeze point) or the rectangle's corner (the cell beyond diagonally must be free, and one of
// the two cells beside the corner too: two blocked cells touching there are a squeeze point; one blocked
// cell only has its corner grazed, which is free). Whether it does is decided exactly when every
// coordinate of s and t is a multiple of 1/1024 (cell centres, grid points, ...): coordinates are at
// most 32768, so a coordinate difference has at most 26 significant bits, their products at most 52, and
// the comparisons of products below are exact in double. Otherwise a segment that leaves a rectangle
// within rounding of a grid point is not decided here: false, like a blocked one (the search then
// answers), as is a segment along a grid line. O(rectangles crossed).
bool straight_line_free(const Navmesh& mesh, std::uint32_t from, NavPoint s, NavPoint t, const std::uint32_t* at_t,
                        std::size_t at_t_count) noexcept {
    const double dx = t.x - s.x, dy = t.y - s.y;
    const auto polygons = mesh.polygons();
    const auto fine = [](double v) { return v * 1024.0 == std::trunc(v * 1024.0); };
    const bool exact = fine(s.x) && fine(s.y) && fine(t.x) && fine(t.y);
    const bool along_grid_line = (dx == 0.0 && std::trunc(s.x) == s.x) || (dy == 0.0 && std::trunc(s.y) == s.y);
    const double ix = 1.0 / dx, iy = 1.0 / dy;  // once, not a division per rectangle (unused when 0)
    const double adx = std::abs(dx), ady = std::abs(dy);
    const std::uint32_t t_polygon = at_t[0];
    std::uint32_t current = from;
    for (std::size_t crossed = 0; crossed < polygons.size(); ++crossed) {
        // A polygon holding t (compared by index: t was located once, usually in a single polygon).
        if (current == t_polygon || (at_t_count > 1 && std::find(at_t + 1, at_t + at_t_count, current) != at_t + at_t_count))
            return true;
        const NavPolygon& p = polygons[current];
        if (along_grid_line) return false;
        // The corner ahead, (X, Y): the segment reaches the line x = X first (qx < qy), the line y = Y
        // first (qy < qx), or passes through the corner (qx == qy): qx, qy are those two distances along
        // the segment times |dx| |dy|.
        const std::int32_t X = dx > 0.0 ? p.x1 : p.x0, Y = dy > 0.0 ? p.y1 : p.y0;
        const double qx = std::abs(double(X) - s.x) * ady, qy = std::abs(double(Y) - s.y) * adx;
        std::int32_t cx, cy;  // the cell the segment enters
        if (qx != qy) {
            const bool vertical = qx < qy;  // leaves through the side on x = X (else on y = Y)
            const double line = vertical ? double(X) : double(Y);
            const double ps = vertical ? s.x : s.y, os = vertical ? s.y : s.x;  // s across / along the side
            const double pd = vertical ? dx : dy, od = vertical ? dy : dx;
            const double e = os + (line - ps) * od * (vertical ? ix : iy);  // where it crosses the side's line
            const double r = double(static_cast<std::int64_t>(e + 0.5));  // the nearest integer (e >= 0; not a libm call)
            std::int32_t cell;  // the row (column) beyond the side
            if (std::abs(e - r) > 1e-9) {
                cell = static_cast<std::int32_t>(e);  // e >= 0: truncation is the floor
            } else {
                if (!exact) return false;
                // The sign of e - r, exactly: (e - r) * pd = (line - ps) * od - (r - os) * pd.
                const double d = (line - ps) * od - (r - os) * pd;
                // Through the grid point (r on the side, never its corner): into the cell it heads for.
                if (d == 0.0) cell = static_cast<std::int32_t>(r) - (od > 0.0 ? 0 : 1);
                else cell = static_cast<std::int32_t>(r) - ((d > 0.0) == (pd > 0.0) ? 0 : 1);
            }
            const std::int32_t beyond = vertical ? (dx > 0.0 ? X : X - 1) : (dy > 0.0 ? Y : Y - 1);
            cx = vertical ? beyond : cell;
            cy = vertical ? cell : beyond;
        } else {
            if (!exact) return false;
            // Exactly through the corner (or from it, when s is that corner): into the cell beyond it
            // diagonally, unless both cells beside the corner are blocked (a squeeze point).
            cx = dx > 0.0 ? X : X - 1;
            cy = dy > 0.0 ? Y : Y - 1;
            const std::int32_t sx = dx > 0.0 ? X - 1 : X, sy = dy > 0.0 ? Y - 1 : Y;
            if (mesh.polygon_of(GridPoint{cx, sy}) == kNoPolygon && mesh.polygon_of(GridPoint{sx, cy}) == kNoPolygon)
                return false;
        }
        const std::uint32_t next = mesh.polygon_of(GridPoint{cx, cy});  // kNoPolygon off the map
        if (next == kNoPolygon || next == current) return false;
        current = next;
    }
    return false;
}

}  // namespace

bool detail::navmesh_straight_line_free(const Navmesh& mesh, std::uint32_t from, NavPoint s, NavPoint t,
                                        const std::uint32_t* at_t, std::size_t at_t_count) noexcept {
    return straight_line_free(mesh, from, s, t, at_t, at_t_count);
}

void NavmeshPathfinder::reserve(const Navmesh& mesh, std::size_t nodes) {
    // (exactly what fixed_growth() counts, never a doubling)
    detail::grow_exactly(m_roots, mesh.vertices().size(), RootRecord{0.0, 0});
    detail::grow_exactly(m_door_stamp, mesh.polygon_count(), 0u);
    m_nodes.reserve(nodes);
    m_open.reserve(nodes);
}

// Bytes reserve(mesh, 0) would add.
std::size_t NavmeshPathfinder::fixed_growth(const Navmesh& mesh) const noexcept {
    return detail::growth_bytes(m_roots, mesh.vertices().size()) + detail::growth_bytes(m_door_stamp, mesh.polygon_count());
}

// True, and the search marked out of memory (it stops at its next step), when holding `more` bytes on
// top of what the pathfinder holds would pass the memory budget.
bool NavmeshPathfinder::over_budget(std::size_t more) noexcept {
    const std::size_t held = memory_bytes();
    if (!detail::passes_budget(held, more, m_budget.max_memory_bytes)) return false;
    m_out_of_memory = true;
    return true;
}

// With a memory limit, the node store full: doubles it, and the open list with it, unless that would pass
// the budget (then the search is out of memory).
[[gnu::noinline]] bool NavmeshPathfinder::grow_nodes() {
    const std::size_t n = std::max<std::size_t>(64, 2 * m_nodes.capacity());
    const std::size_t more = (n - m_nodes.capacity()) * sizeof(Node) +
                             (n > m_open.capacity() ? (n - m_open.capacity()) * sizeof(OpenEntry) : 0);
    if (over_budget(more)) return false;
    m_nodes.reserve(n);
    m_open.reserve(std::max(n, m_open.capacity()));
    return true;
}

std::size_t NavmeshPathfinder::memory_bytes() const noexcept {
    return m_nodes.capacity() * sizeof(Node) + m_open.capacity() * sizeof(OpenEntry) +
           m_roots.capacity() * sizeof(RootRecord) + m_door_stamp.capacity() * sizeof(std::uint32_t);
}

double NavmeshPathfinder::cost() const noexcept {
    return m_status == Status::Found ? m_nodes[m_found].g : kInf;
}

inline bool NavmeshPathfinder::holds_goal(std::uint32_t lo, std::uint32_t hi) const noexcept {
    for (std::uint32_t i = 0; i < m_goal_polygons; ++i)
        if (m_goal_orders[i] >= lo && m_goal_orders[i] < hi) return true;
    return false;
}

inline bool NavmeshPathfinder::contains_goal(std::uint32_t polygon) const noexcept {
    const NavPolygon& p = m_mesh->polygons()[polygon];
    return m_goal.x >= p.x0 && m_goal.x <= p.x1 && m_goal.y >= p.y0 && m_goal.y <= p.y1;
}

Status NavmeshPathfinder::begin(const Navmesh& mesh, NavPoint start, NavPoint goal, const NavmeshSearchOptions& options) {
    m_mesh = &mesh;
    m_direct = false;
    m_corridor = kNoNode;
    m_stats = {};
    m_limit = search::BudgetLimit::None;
    m_found = kNoNode;
    m_out_of_memory = false;
    m_nodes.clear();
    m_open.clear();
    m_budget = options.budget;
    m_start = start;
    m_goal = goal;
    m_status = Status::InvalidQuery;
    if (mesh.polygon_count() == 0) return m_status;
    // The polygons holding the start and the goal (up to four each, when a point lies on a grid line),
    // located once: the straight-line test, the start's seeds and the goal's pocket test use them.
    std::uint32_t seeded[4], held[4];
    const std::size_t seeds = detail::navmesh_locate(mesh, start, seeded);
    const std::size_t goals = detail::navmesh_locate(mesh, goal, held);
    if (seeds == 0 || goals == 0) return m_status;
    const std::uint32_t from = seeded[0];
    m_status = Status::InProgress;
    // What the pathfinder holds counts against a memory budget (step() then stops at once); so do the
    // per-vertex arrays before they are allocated.
    const bool limited = m_budget.max_memory_bytes != SIZE_MAX;
    if (limited && over_budget(0)) return m_status;
    if (straight_line_free(mesh, from, start, goal, held, goals)) {
        // The straight line is the shortest path there is: the answer is a goal node, no search.
        Node direct{};
        direct.rx = start.x;
        direct.ry = start.y;
        direct.g = dist(start, goal);
        direct.parent = direct.edge = direct.root = direct.via = kNoNode;
        direct.polygon = from;
        direct.kind = Kind::Goal;
        if (unlimited(m_budget)) {
            // No budget can stop it: the node is the answer, without the open list (step() reports it).
            m_nodes.push_back(direct);
            m_stats.generated = 1;
            m_direct = true;
            return m_status;
        }
        push(direct);
        open_from(0);
        return m_status;
    }
    if (m_roots.size() < mesh.vertices().size() || m_door_stamp.size() < mesh.polygon_count()) {
        if (limited && over_budget(fixed_growth(mesh))) return m_status;
        reserve(mesh, 0);
    }
    search::advance_generation(m_generation, [&] {
        for (RootRecord& r : m_roots) r.stamp = 0;
        std::fill(m_door_stamp.begin(), m_door_stamp.end(), 0u);
    });
    m_expanding_root = kNoNode;
    // The goal's polygons, for the pocket test.
    m_goal_polygons = static_cast<std::uint32_t>(goals);
    for (std::uint32_t i = 0; i < m_goal_polygons; ++i) m_goal_orders[i] = mesh.polygons()[held[i]].order;
    // The doors around the goal: from each, the side towards the depth-first root does not hold the goal.
    // (When several polygons hold the goal they are linked around it, so their chains differ only by goal
    // polygons, which have no successors but the goal.)
    for (std::uint32_t d = mesh.polygons()[held[0]].door; d != kNoPolygon; d = mesh.polygons()[d].door)
        m_door_stamp[d] = m_generation;
    // Every polygon holding the start sees all of itself.
    for (std::size_t i = 0; i < seeds; ++i) {
        Node s{};
        s.via = kNoNode;
        s.rx = start.x;
        s.ry = start.y;
        s.parent = kNoNode;
        s.polygon = seeded[i];
        s.edge = kNoNode;
        s.root = kNoNode;
        s.kind = Kind::Fan;
        expand_fan(s, kNoNode);
    }
    open_from(0);
    return m_status;
}

Status NavmeshPathfinder::step(std::uint64_t slice_expansions) {
    if (m_status != Status::InProgress) return m_status;
    if (m_direct && slice_expansions != 0) {  // begin() found the straight segment free
        m_found = 0;
        return m_status = Status::Found;
    }
    const bool has_deadline = m_budget.deadline != std::chrono::steady_clock::time_point::max();
    for (std::uint64_t slice = 0; slice < slice_expansions; ++slice) {
        if (m_out_of_memory) {
            m_limit = search::BudgetLimit::Memory;
            return m_status = Status::BudgetExhausted;
        }
        std::uint32_t at;
        Node current;
        if (m_corridor != kNoNode) {
            // The last slice ended inside a corridor: go on with its next polygon, as a search run at once
            // would have (no check comes between two polygons of a corridor), so the slicing changes nothing.
            at = m_corridor;
            current = m_corridor_node;
            m_corridor = kNoNode;
        } else {
            if (m_open.empty()) return m_status = Status::NoPath;
            if (const auto limit = search::expansion_limit(m_budget, m_stats.expanded, has_deadline); limit != search::BudgetLimit::None) {
                m_limit = limit;
                return m_status = Status::BudgetExhausted;
            }
            std::pop_heap(m_open.begin(), m_open.end(), OpenOrder{});
            at = m_open.back().node;
            m_open.pop_back();
            current = m_nodes[at];
            if (current.kind == Kind::Goal) {
                m_found = at;
                return m_status = Status::Found;
            }
            if (current.root != kNoNode && m_roots[current.root].stamp == m_generation &&
                current.g > m_roots[current.root].g + kEps)
                continue;  // the root was reached more cheaply since this node was pushed
        }
        // Intermediate pruning: while an expansion makes a single successor (a corridor of polygons), that
        // successor is the only continuation of the path, so it is expanded at once instead of going
        // through the open list. Goal nodes always do, so the first goal popped is still optimal.
        for (;;) {
            ++m_stats.expanded;
            const std::size_t first = m_nodes.size();
            m_expanding_root = current.root;
            m_expanding_g = current.g;
            if (current.kind == Kind::Fan) expand_fan(current, at);
            else expand_interval(current, at);
            if (m_nodes.size() == first + 1 && m_nodes[first].kind != Kind::Goal &&
                m_stats.expanded < m_budget.max_expansions && !m_out_of_memory) {
                const Node& next = m_nodes[first];
                if (at + 1 == first && next.root == current.root && next.g == current.g && next.via == kNoNode &&
                    next.kind == current.kind) {
                    // Same root, no new turning point: the successor replaces the node it came from (nothing
                    // else refers to it), so a corridor keeps one stored node, not one per polygon. The stored
                    // copy keeps its root, g, parent and via, all that is read of it from now on (a parent's
                    // root by successors, the chain by finish): only `current` takes the new polygon, edge and
                    // interval.
                    current.polygon = next.polygon;
                    current.edge = next.edge;
                    current.a = next.a;
                    current.b = next.b;
                    m_nodes.pop_back();
                } else {
                    current = next;
                    at = static_cast<std::uint32_t>(first);
                }
                if (++slice < slice_expansions) continue;
                m_corridor = at;  // the slice ends inside the corridor: the next step goes on from here
                m_corridor_node = current;
                return m_status;
            }
            open_from(first);
            break;
        }
    }
    return m_status;
}

Status NavmeshPathfinder::finish(NavmeshPath& out) const {
    const auto vertex_point = [&](std::uint32_t v) {
        const NavVertex& p = m_mesh->vertices()[v];
        return NavPoint{double(p.x), double(p.y)};
    };
    out.points.clear();
    out.cost = kInf;
    if (m_status != Status::Found) return m_status;
    const auto same = [](NavPoint a, NavPoint b) { return a.x == b.x && a.y == b.y; };
    out.cost = m_nodes[m_found].g;
    if (m_direct) {  // the straight segment (just the start when start == goal)
        out.points.push_back(m_start);
        if (!same(m_start, m_goal)) out.points.push_back(m_goal);
        return m_status;
    }
    // One walk of the predecessor chain, goal first, then reversed (capacity kept: no allocation once
    // `out.points` has grown to the path's length).
    out.points.push_back(m_goal);
    NavPoint last = m_goal;
    for (std::uint32_t i = m_found; i != kNoNode; i = m_nodes[i].parent) {
        const NavPoint r{m_nodes[i].rx, m_nodes[i].ry};
        if (!same(r, last)) out.points.push_back(r), last = r;
        if (m_nodes[i].via != kNoNode && !same(vertex_point(m_nodes[i].via), last))
            out.points.push_back(vertex_point(m_nodes[i].via)), last = out.points.back();
    }
    // (Nodes made by the start's own expansion may be rooted at a corner.)
    if (!same(m_start, last)) out.points.push_back(m_start);
    std::reverse(out.points.begin(), out.points.end());
    return m_status;
}

Status NavmeshPathfinder::find_path(const Navmesh& mesh, NavPoint start, NavPoint goal, const NavmeshSearchOptions& options,
                                    NavmeshPath& out) {
    if (begin(mesh, start, goal, options) == Status::InProgress) (void)step();
    return finish(out);
}

GAMEPLAN_FORCE_INLINE inline void NavmeshPathfinder::push(const Node& node) {
    // A successor with the expanded node's own root and g needs no root-level check: that node passed it
    // (when popped, or when pushed just before as a single successor) and its root's g has not changed.
    const bool same_root = node.root == m_expanding_root && node.g == m_expanding_g;
    if (node.root != kNoNode && node.kind != Kind::Goal && !same_root) {
        RootRecord& best = m_roots[node.root];
        if (best.stamp == m_generation) {
            if (node.g > best.g + kEps) return;  // root-level pruning
            best.g = std::min(best.g, node.g);
        } else {
            best = RootRecord{node.g, m_generation};
        }
    }
    // A memory limit is checked only when the store must grow (the check sums the arrays' capacities).
    if (m_budget.max_memory_bytes != SIZE_MAX && m_nodes.size() == m_nodes.capacity() && !grow_nodes()) return;
    ++m_stats.generated;
    // The open list never holds more entries than there are nodes: growing it with the node store keeps
    // a query that needs no more nodes than an earlier one allocation-free, however it is sliced (reserve()
    // keeps the open list's capacity at least the store's, so only a push that grows the store can break it).
    const bool grows = m_nodes.size() == m_nodes.capacity();
    m_nodes.push_back(node);  // enters the open list in open_from() (or is expanded at once)
    if (grows && m_open.capacity() < m_nodes.capacity()) m_open.reserve(m_nodes.capacity());
}

inline void NavmeshPathfinder::open_from(std::size_t first) {
    const std::size_t end = m_nodes.size();  // (read once: the open list's pushes do not change it)
    for (std::size_t i = first; i < end; ++i) {
        // The estimate is only needed here: a node expanded at once (intermediate pruning) never gets one.
        const Node& node = m_nodes[i];
        const NavPoint root{node.rx, node.ry};
        double f = node.g;  // a goal node's g is exact
        if (node.kind == Kind::Fan) {
            f = node.g + dist(root, m_goal);
        } else if (node.kind == Kind::Interval) {
            const NavPolygon& poly = m_mesh->polygons()[node.polygon];
            const NavEdge* const boundary = m_mesh->edges().data() + poly.first_edge;
            const std::uint32_t k = node.edge - poly.first_edge;
            const EdgeGeom e = edge_at(poly, boundary[k].along, end_along(boundary, poly, k));
            f = node.g + through_interval(root, e.at(node.a), e.at(node.b), m_goal);
        }
        m_open.push_back(OpenEntry{f, node.g, static_cast<std::uint32_t>(i)});
        std::push_heap(m_open.begin(), m_open.end(), OpenOrder{});
    }
}

inline void NavmeshPathfinder::expand_fan(const Node& node, std::uint32_t index) {
    const NavPoint root{node.rx, node.ry};
    if (contains_goal(node.polygon)) {
        Node goal = node;
        goal.kind = Kind::Goal;
        goal.via = kNoNode;
        goal.parent = index;
        goal.g = node.g + dist(root, m_goal);
        push(goal);
        return;
    }
    const NavPolygon& poly = m_mesh->polygons()[node.polygon];
    const NavEdge* const boundary = m_mesh->edges().data() + poly.first_edge;
    const std::uint32_t entry = node.edge == kNoNode ? kNoNode : node.edge - poly.first_edge;
    for (std::uint32_t j = 0; j < poly.edge_count; j += boundary[j].open_ahead) {  // (over walls at once)
        if (j == entry || boundary[j].neighbour == kNoPolygon) continue;
        const EdgeGeom e = edge_at(poly, boundary[j].along, end_along(boundary, poly, j));
        successor(index, node.polygon, poly, boundary, j, e, 0.0, e.length, root, node.root, node.g, false);
    }
}

inline void NavmeshPathfinder::expand_interval(const Node& node, std::uint32_t index) {
    const NavPolygon& poly = m_mesh->polygons()[node.polygon];
    const NavEdge* const boundary = m_mesh->edges().data() + poly.first_edge;
    const std::uint32_t n = poly.edge_count, k = node.edge - poly.first_edge;
    const std::uint32_t k_next = k + 1 == n ? 0 : k + 1;
    const std::int32_t perimeter_along = perimeter_of(poly);
    const EdgeGeom entry = edge_at(poly, boundary[k].along, k + 1 == n ? perimeter_along : boundary[k_next].along);
    const NavPoint r{node.rx, node.ry};
    const NavPoint a = entry.at(node.a), b = entry.at(node.b);
    if (contains_goal(node.polygon)) {
        // The estimate is exact here, so this goal node's f equals the node's: no successor can do better.
        int turn = 0;
        const double rest = through_interval(r, a, b, m_goal, &turn);
        Node goal = node;
        goal.kind = Kind::Goal;
        goal.via = kNoNode;
        goal.parent = index;
        goal.g = node.g + rest;
        if (turn != 0) {
            const NavPoint via = turn == 1 ? a : b;
            goal.rx = via.x;
            goal.ry = via.y;
            goal.root = kNoNode;
        }
        push(goal);
        return;
    }
    const double perimeter = double(perimeter_along);
    const double u_end = perimeter - entry.length;
    // Where the rays from the root through b and through a leave the rectangle, in a frame with its
    // origin at the entry edge's end vertex, x along the entry edge's direction and y into the polygon:
    // the rectangle is [-e1, d] x [0, h] (e1: the entry side's length up to that vertex, d: the rest) and
    // the root lies above it (y < 0: an interval's root is never on its edge's line). A ray leaves
    // through the far side unless it passes x = d first (the side after the entry side) or x = -e1 (the
    // side before it); positions u then run d + y, 2d + h - x and 2d + 2h + e1 - y along those sides.
    const std::int32_t entry_end = k + 1 == n ? perimeter_along : boundary[k_next].along;
    const std::int32_t pw = poly.x1 - poly.x0, ph = poly.y1 - poly.y0;
    const bool across = entry.dy == 0.0;  // entry on the top or bottom side
    const std::int32_t side_end = entry_end <= pw ? pw : entry_end <= pw + ph ? pw + ph : entry_end <= 2 * pw + ph ? 2 * pw + ph : perimeter_along;
    const double fd = double(side_end - entry_end), fe = double((across ? pw : ph)) - fd, fh = double(across ? ph : pw);
    const double ox = r.x - (entry.from.x + entry.length * entry.dx), oy = r.y - (entry.from.y + entry.length * entry.dy);
    const double rx = ox * entry.dx + oy * entry.dy, depth = ox * entry.dy - oy * entry.dx;  // depth = -y of the root > 0
    const double slope = fh / depth;  // one division for both rays
    const auto exit_u = [&](double px) {
        const double dx = px - rx;
        const double xb = px + slope * dx;
        if (xb > fd) return fd + std::min(fh, (fd - px) * depth / dx);
        if (xb < -fe) return 2.0 * (fd + fh) + fe - std::min(fh, (-fe - px) * depth / dx);
        return 2.0 * fd + fh - xb;
    };
    const double u_b = exit_u(node.b - entry.length);
    const double u_a = std::max(u_b, exit_u(node.a - entry.length));

    // The entry edge's end vertex is b's end (u = 0), its start vertex a's end (u = u_end).
    const bool b_side = node.b == entry.length && u_b > kEps;
    const bool a_side = node.a == 0.0 && u_a < u_end - kEps;
    const NavPoint vb = entry.at(entry.length), va = entry.from;
    const std::uint32_t b_vertex = boundary[k_next].vertex, a_vertex = boundary[k].vertex;
    const bool b_corner = b_side && boundary[k_next].corner, a_corner = a_side && boundary[k].corner;
    double g_b = -1.0, g_a = -1.0;  // g of the hidden sides' roots, once needed

    std::int32_t u = 0;  // position of edge j's start, from the entry edge's end
    std::uint32_t j = k_next, step = 1;
    const std::int32_t u0 = boundary[k_next].along;  // 0 when the entry edge is the last one
    // The loops below step from an edge to the next one with a neighbour (walls make no successor):
    // `step` counts the edges passed since the entry edge, `u` is recomputed from the perimeter position.
    const auto advance = [&]() GAMEPLAN_FORCE_INLINE {
        const std::uint32_t jump = boundary[j].open_ahead;
        step += jump;
        j += jump;
        if (j >= n) j -= n;
        u = boundary[j].along - u0;
        if (u < 0) u += perimeter_along;
    };
    if (!b_side) {
        // Nothing is hidden behind b: the edges that end before the seen part starts make no successor.
        // Start at the edge holding u_b: the last edge (in perimeter order, from the entry edge's end)
        // whose start position is at most floor(u_b), found by a walk over integer positions.
        std::int32_t t = u0 + static_cast<std::int32_t>(u_b);  // u_b >= 0: truncation is the floor
        std::uint32_t i = k_next;
        if (t >= perimeter_along) t -= perimeter_along, i = 0;
        while (i + 1 < n && boundary[i + 1].along <= t) ++i;
        if (i == k) return;  // u_b is the end of the boundary (the entry edge's start): nothing is seen
        j = i;
        step = (i >= k_next ? i - k_next : i + n - k_next) + 1;
        u = boundary[i].along - u0;
        if (u < 0) u += perimeter_along;
    }
    if (!a_side && !b_side) {
        // Only the seen part [u_b, u_a] makes successors (the usual case, a corridor): walk its edges.
        for (; step < n; advance()) {
            const std::int32_t start_along = boundary[j].along;
            const std::int32_t stop_along = j + 1 == n ? perimeter_along : boundary[j + 1].along;
            const double lo = double(u);
            if (lo >= u_a) break;
            if (boundary[j].neighbour == kNoPolygon) continue;
            const double hi = double(u + (stop_along - start_along)), length = double(stop_along - start_along);
            double p1 = std::max(u_b, lo) - lo, p2 = std::min(u_a, hi) - lo;
            if (p2 - p1 <= kEps) continue;
            if (p1 < kEps) p1 = 0.0;
            if (p2 > length - kEps) p2 = length;
            successor(index, node.polygon, poly, boundary, j, edge_at(poly, start_along, stop_along), p1, p2, r, node.root,
                      node.g, false);
        }
        return;
    }
    for (; step < n; advance()) {
        if (boundary[j].neighbour == kNoPolygon) continue;
        const std::int32_t start_along = boundary[j].along;
        const std::int32_t stop_along = j + 1 == n ? perimeter_along : boundary[j + 1].along;
        const std::int32_t length_i = stop_along - start_along;
        const double lo = double(u), hi = double(u + length_i), length = double(length_i);
        if (lo >= u_a && !a_side) break;  // past the seen part, nothing hidden behind a
        // Which of the three views reach this edge: hidden behind b's vertex, seen, hidden behind a's vertex.
        const bool from_b = b_side && lo < u_b, seen = hi > u_b && lo < u_a, from_a = a_side && hi > u_a;
        if (!from_b && !seen && !from_a) continue;
        const EdgeGeom e = edge_at(poly, start_along, stop_along);
        const auto piece = [&](double from, double to, NavPoint root, std::uint32_t root_vertex, double g, bool collinear_only) GAMEPLAN_FORCE_INLINE {
            double p1 = std::max(from, lo) - lo, p2 = std::min(to, hi) - lo;
            if (p2 - p1 <= kEps) return;
            if (p1 < kEps) p1 = 0.0;
            if (p2 > length - kEps) p2 = length;
            successor(index, node.polygon, poly, boundary, j, e, p1, p2, root, root_vertex, g, collinear_only);
        };
        if (from_b) {
            if (g_b < 0.0) g_b = node.g + dist(r, vb);
            piece(0.0, u_b, vb, b_vertex, g_b, !b_corner);
        }
        if (seen) piece(u_b, u_a, r, node.root, node.g, false);
        if (from_a) {
            if (g_a < 0.0) g_a = node.g + dist(r, va);
            piece(u_a, u_end, va, a_vertex, g_a, !a_corner);
        }
    }
}

// `polygon` is the expanded polygon `poly`, `boundary` its first edge: passed by the expansion, which has
// them, instead of recomputed here.
GAMEPLAN_FORCE_INLINE inline void NavmeshPathfinder::successor(std::uint32_t parent, std::uint32_t polygon, const NavPolygon& poly,
                                                               const NavEdge* boundary, std::uint32_t local_edge, const EdgeGeom& e,
                                                               double p1, double p2, NavPoint root, std::uint32_t root_vertex,
                                                               double g, bool collinear_only) {
    const NavEdge& edge = boundary[local_edge];
    const std::uint32_t next = edge.neighbour;
    if (edge.cut == NavCut::Into) {  // a pocket: enter it only if it holds the goal
        const NavPolygon& beyond = m_mesh->polygons()[edge.pocket];
        if (!holds_goal(beyond.order, beyond.order_end)) return;
    } else if (edge.cut == NavCut::OutOf && m_goal_polygons != 0 && !holds_goal(0, poly.order) &&
               !holds_goal(poly.order_end, kNoPolygon)) {
        return;  // leaving a pocket that holds the goal
    } else if (edge.cut == NavCut::Back &&
               m_door_stamp[polygon] == m_generation) {
        return;  // this polygon cuts the goal off from the side this edge leads to
    }
    const bool horizontal = e.dy == 0.0;
    const double off_line = horizontal ? root.y - e.from.y : root.x - e.from.x;
    Node node{};
    node.via = kNoNode;
    node.parent = parent;
    node.polygon = next;
    node.edge = edge.twin;
    if (std::abs(off_line) < kEps) {
        // The root lies on the edge's line: the path can only enter `next` by turning at a point of
        // this edge, the root itself if it lies on the edge, else the edge's near end.
        const double q = horizontal ? (root.x - e.from.x) * e.dx : (root.y - e.from.y) * e.dy;
        if (q >= -kEps && q <= e.length + kEps) {
            // The start: every polygon holding it was seeded by begin().
            if (root_vertex == kNoNode || !m_mesh->vertices()[root_vertex].corner) return;
            node.rx = root.x, node.ry = root.y, node.g = g, node.root = root_vertex;
        } else {
            const bool before = q < 0.0;
            if (before ? p1 != 0.0 : p2 != e.length) return;
            const NavEdge& turn = before ? edge : boundary[local_edge + 1 == poly.edge_count ? 0 : local_edge + 1];
            if (!turn.corner) return;
            const std::uint32_t w = turn.vertex;
            const NavPoint wp = before ? e.from : e.at(e.length);
            node.rx = wp.x, node.ry = wp.y, node.g = g + dist(root, wp), node.root = w;
            // A hidden side's root (an end of the parent's interval) is a turning point of its own.
            const NavPoint parent_root = parent == kNoNode ? m_start : NavPoint{m_nodes[parent].rx, m_nodes[parent].ry};
            // (`root` then differs from the parent's root: it is an end of the parent's entry edge, the
            // mesh vertex `root_vertex`.)
            if (parent_root != root && root != wp) node.via = root_vertex;
        }
        node.kind = Kind::Fan;
        node.a = 0.0;
        node.b = e.length;
        push(node);  // f is set when the node enters the open list (open_from)
        return;
    }
    if (collinear_only) return;
    node.kind = Kind::Interval;
    node.rx = root.x, node.ry = root.y, node.g = g, node.root = root_vertex;
    // The twin runs the other way: [p1, p2] from this edge's start is [len - p2, len - p1] from the twin's
    // (exactly 0 and len at the ends, as the expansion's tests for hidden sides need).
    node.a = e.length - p2;
    node.b = e.length - p1;
    push(node);  // f is set when the node enters the open list (open_from)
}

}  // namespace gameplan::path
