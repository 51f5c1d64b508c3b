// Navmesh construction: dominant rectangles, then greedy maximal rectangles of free cells, boundaries split wherever the cell
// across changes owner, twins, corner flags; point location.
#include <gameplan/path/navmesh.hpp>

#include "navmesh_geometry.hpp"

#include <algorithm>
#include <cmath>

namespace gameplan::path {

namespace {
template <class T>
std::size_t bytes_of(const std::vector<T>& v) noexcept {
    return v.capacity() * sizeof(T);
}
}  // namespace

// Dominant rectangles first: while the largest rectangle of free cells not yet covered holds at least a
// tenth of the free cells, it becomes a polygon (before the greedy cover, which would cut a large open
// area into the strips below the notches of its border). Found with the run of free uncovered cells ending
// at each cell (upwards) and, per row, the largest rectangle whose bottom row it is (a stack over the
// row's runs); placing a rectangle updates the runs of its columns and the rows whose runs changed. At
// most ten rectangles; O(cells) plus O(width) per row updated. Uses m_vertex_of as scratch (the runs).
// Not called from elsewhere: `build` runs it on an empty cover.
void Navmesh::dominant_rectangles(const GridMap& map) {
    const std::size_t w = static_cast<std::size_t>(m_width), h = static_cast<std::size_t>(m_height);
    const std::uint8_t* const pass = map.passable_data().data();
    const std::size_t stride = map.stride();
    // First a bound, with one row of runs: a rectangle whose bottom row is y lies in a stretch of that row's
    // nonzero runs, is at most as tall as the longest of them and holds at most their sum. Most maps have
    // no rectangle near a tenth of their free cells, and are done after this pass.
    std::size_t free_cells = 0;
    {
        std::vector<std::uint32_t> up(w, 0);
        std::size_t bound = 0;
        for (std::size_t y = 0; y < h; ++y) {
            const std::uint8_t* const p = pass + (y + 1) * stride + 1;
            std::size_t stretch = 0, tallest = 0, sum = 0;
            for (std::size_t x = 0; x <= w; ++x) {
                const std::uint32_t o = x < w && p[x] != 0;
                if (o) {
                    ++free_cells;
                    const std::uint32_t r = up[x] = up[x] + 1;
                    ++stretch;
                    sum += r;
                    tallest = std::max<std::size_t>(tallest, r);
                } else {
                    if (x < w) up[x] = 0;
                    bound = std::max(bound, std::min(stretch * tallest, sum));
                    stretch = tallest = sum = 0;
                }
            }
        }
        if (free_cells == 0 || bound * 10 < free_cells) return;
    }
    std::vector<std::uint32_t>& run = m_vertex_of;
    run.reserve((w + 1) * (h + 1));  // the size the boundaries need next: one allocation for both
    run.resize(w * h);
    const auto open = [&](std::size_t x, std::size_t y) { return pass[(y + 1) * stride + x + 1] != 0 && m_owner[y * w + x] == kNoPolygon; };
    // Nothing is covered yet: the runs follow from passability alone (row 0 above the first row).
    for (std::size_t y = 0; y < h; ++y) {
        const std::uint8_t* const p = pass + (y + 1) * stride + 1;
        std::uint32_t* const r = run.data() + y * w;
        const std::uint32_t* const up = y > 0 ? r - w : nullptr;
        for (std::size_t x = 0; x < w; ++x) r[x] = static_cast<std::uint32_t>(p[x] != 0) * ((up ? up[x] : 0) + 1);
    }
    struct Best {
        std::size_t area;
        std::uint32_t x0, x1, height;
    };
    std::vector<Best> best(h);
    std::vector<std::uint32_t> stack;
    const auto row_best = [&](std::size_t y) {
        const std::uint32_t* const r = run.data() + y * w;
        Best b{0, 0, 0, 0};
        // A rectangle whose bottom row this is holds at most the sum of the row's runs: most rows of a
        // map without a dominant rectangle are passed over after that sum alone.
        std::size_t sum = 0;
        for (std::size_t x = 0; x < w; ++x) sum += r[x];
        if (sum * 10 < free_cells) {
            best[y] = b;
            return;
        }
        stack.clear();
        for (std::size_t x = 0; x <= w; ++x) {
            const std::uint32_t hx = x < w ? r[x] : 0;
            while (!stack.empty() && r[stack.back()] >= hx) {
                const std::uint32_t top = stack.back();
                stack.pop_back();
                const std::size_t left = stack.empty() ? 0 : std::size_t(stack.back()) + 1;
                const std::size_t area = std::size_t(r[top]) * (x - left);
                if (area > b.area) b = Best{area, static_cast<std::uint32_t>(left), static_cast<std::uint32_t>(x), r[top]};
            }
            stack.push_back(static_cast<std::uint32_t>(x));
        }
        best[y] = b;
    };
    for (std::size_t y = 0; y < h; ++y) row_best(y);
    for (;;) {
        std::size_t by = 0;
        for (std::size_t y = 1; y < h; ++y)
            if (best[y].area > best[by].area) by = y;
        const Best b = best[by];
        if (b.area == 0 || b.area * 10 < free_cells) break;
        const auto id = static_cast<std::uint32_t>(m_polygons.size());
        const std::size_t y0 = by + 1 - b.height;
        for (std::size_t cy = y0; cy <= by; ++cy)
            for (std::size_t cx = b.x0; cx < b.x1; ++cx) m_owner[cy * w + cx] = id;
        NavPolygon poly;
        poly.x0 = static_cast<std::int32_t>(b.x0);
        poly.y0 = static_cast<std::int32_t>(y0);
        poly.x1 = static_cast<std::int32_t>(b.x1);
        poly.y1 = static_cast<std::int32_t>(by + 1);
        m_polygons.push_back(poly);
        // The runs of the rectangle's columns, from its top row down while any of them changes.
        for (std::size_t y = y0; y < h; ++y) {
            bool changed = false;
            for (std::size_t x = b.x0; x < b.x1; ++x) {
                const std::uint32_t v = open(x, y) ? (y > 0 ? run[(y - 1) * w + x] : 0) + 1 : 0;
                changed |= v != run[y * w + x];
                run[y * w + x] = v;
            }
            if (!changed) break;
            row_best(y);
        }
    }
}

NavmeshBuild Navmesh::build(const GridMap& map) {
    m_polygons.clear();
    m_edges.clear();
    m_vertices.clear();
    m_width = map.width();
    m_height = map.height();
    m_map_version = map.version();
    if (map.empty()) {
        m_owner.clear();
        return NavmeshBuild::EmptyMap;
    }
    const std::size_t w = static_cast<std::size_t>(m_width), h = static_cast<std::size_t>(m_height);
    m_owner.assign(w * h, kNoPolygon);
    const std::uint8_t* const pass = map.passable_data().data();
    const std::size_t stride = map.stride();
    const auto passable = [&](std::size_t x, std::size_t y) { return pass[(y + 1) * stride + x + 1] != 0; };

    dominant_rectangles(map);
    // Rectangles: from the first free unowned cell in row order, grow right as far as possible, then
    // down while the whole row segment is free and unowned (the largest of "widest first" and "tallest
    // first"), after the dominant rectangles.
    for (std::size_t y = 0; y < h; ++y) {
        for (std::size_t x = 0; x < w; ++x) {
            if (!passable(x, y) || m_owner[y * w + x] != kNoPolygon) continue;
            const auto open = [&](std::size_t cx, std::size_t cy) { return passable(cx, cy) && m_owner[cy * w + cx] == kNoPolygon; };
            // Wide first: the row as far right as it goes, then down while the whole segment is open.
            std::size_t x1 = x + 1;
            while (x1 < w && open(x1, y)) ++x1;
            std::size_t y1 = y + 1;
            for (; y1 < h; ++y1) {
                bool ok = true;
                for (std::size_t cx = x; cx < x1 && ok; ++cx) ok = open(cx, y1);
                if (!ok) break;
            }
            // Tall first: the column as far down as it goes, then right; the larger rectangle wins.
            std::size_t ty1 = y + 1;
            while (ty1 < h && open(x, ty1)) ++ty1;
            std::size_t tx1 = x + 1;
            for (; tx1 < w; ++tx1) {
                bool ok = true;
                for (std::size_t cy = y; cy < ty1 && ok; ++cy) ok = open(tx1, cy);
                if (!ok) break;
            }
            if ((tx1 - x) * (ty1 - y) > (x1 - x) * (y1 - y)) x1 = tx1, y1 = ty1;
            const auto id = static_cast<std::uint32_t>(m_polygons.size());
            for (std::size_t cy = y; cy < y1; ++cy)
                for (std::size_t cx = x; cx < x1; ++cx) m_owner[cy * w + cx] = id;
            NavPolygon poly;
            poly.x0 = static_cast<std::int32_t>(x);
            poly.y0 = static_cast<std::int32_t>(y);
            poly.x1 = static_cast<std::int32_t>(x1);
            poly.y1 = static_cast<std::int32_t>(y1);
            m_polygons.push_back(poly);
        }
    }

    // Boundaries. Each side is walked in the polygon's order; an edge starts at the side's start and at
    // every point where the owner of the cell across changes.
    const std::size_t vw = w + 1;
    m_vertex_of.assign(vw * (h + 1), kNoPolygon);
    const auto vertex = [&](std::int64_t x, std::int64_t y) {
        std::uint32_t& id = m_vertex_of[static_cast<std::size_t>(y) * vw + static_cast<std::size_t>(x)];
        if (id == kNoPolygon) {
            id = static_cast<std::uint32_t>(m_vertices.size());
            NavVertex v;
            v.x = static_cast<std::int32_t>(x);
            v.y = static_cast<std::int32_t>(y);
            int blocked = 0;
            for (std::int64_t dy = -1; dy <= 0; ++dy)
                for (std::int64_t dx = -1; dx <= 0; ++dx) {
                    const std::int64_t cx = x + dx, cy = y + dy;
                    const bool in = cx >= 0 && cy >= 0 && cx < m_width && cy < m_height;
                    blocked += !(in && passable(static_cast<std::size_t>(cx), static_cast<std::size_t>(cy)));
                }
            v.corner = blocked == 1;
            m_vertices.push_back(v);
        }
        return id;
    };
    const auto owner_at = [&](std::int64_t x, std::int64_t y) {
        return (x < 0 || y < 0 || x >= m_width || y >= m_height) ? kNoPolygon : owner(x, y);
    };
    for (NavPolygon& poly : m_polygons) {
        poly.first_edge = static_cast<std::uint32_t>(m_edges.size());
        const std::int32_t pw = poly.x1 - poly.x0, ph = poly.y1 - poly.y0;
        // side: start point, unit direction, offset of the cell across (relative to the unit step's cell)
        struct Side {
            std::int64_t sx, sy, dx, dy, len;
            std::int32_t along;
        };
        const Side sides[4] = {
            {poly.x0, poly.y0, 1, 0, pw, 0},
            {poly.x1, poly.y0, 0, 1, ph, pw},
            {poly.x1, poly.y1, -1, 0, pw, pw + ph},
            {poly.x0, poly.y1, 0, -1, ph, 2 * pw + ph},
        };
        for (const Side& side : sides) {
            std::uint32_t last = kNoPolygon - 1;  // never an owner
            for (std::int64_t i = 0; i < side.len; ++i) {
                // The unit segment from (px, py) to (px + dx, py + dy); the cell across it lies to the
                // segment's right-hand side in map coordinates (outside the positively oriented polygon).
                const std::int64_t px = side.sx + side.dx * i, py = side.sy + side.dy * i;
                std::int64_t cx, cy;
                if (side.dx == 1) cx = px, cy = py - 1;         // top side: the cell above
                else if (side.dy == 1) cx = px, cy = py;        // right side: the cell to the right
                else if (side.dx == -1) cx = px - 1, cy = py;   // bottom side: the cell below
                else cx = px - 1, cy = py - 1;                  // left side: the cell to the left
                const std::uint32_t across = owner_at(cx, cy);
                if (i == 0 || across != last) {
                    NavEdge e;
                    e.vertex = vertex(px, py);
                    e.corner = m_vertices[e.vertex].corner;
                    e.neighbour = across;
                    e.along = side.along + static_cast<std::int32_t>(i);
                    m_edges.push_back(e);
                    last = across;
                }
            }
        }
        poly.edge_count = static_cast<std::uint32_t>(m_edges.size()) - poly.first_edge;
    }

    // Twins: the neighbour's edge that runs between the same two vertices the other way.
    for (std::uint32_t p = 0; p < m_polygons.size(); ++p) {
        const NavPolygon& poly = m_polygons[p];
        std::uint32_t traversable = 0;
        for (std::uint32_t i = 0; i < poly.edge_count; ++i) {
            NavEdge& e = m_edges[poly.first_edge + i];
            if (e.neighbour == kNoPolygon) continue;
            ++traversable;
            const std::uint32_t end = m_edges[poly.first_edge + (i + 1) % poly.edge_count].vertex;
            const NavPolygon& other = m_polygons[e.neighbour];
            for (std::uint32_t j = 0; j < other.edge_count; ++j) {
                const NavEdge& f = m_edges[other.first_edge + j];
                if (f.neighbour == p && f.vertex == end) {
                    e.twin = other.first_edge + j;
                    break;
                }
            }
        }
        m_polygons[p].traversable = traversable;
        // open_ahead: walked backwards twice around the boundary, so that every edge sees the next
        // traversable edge after it (cyclically).
        const std::uint32_t n = poly.edge_count;
        std::uint32_t ahead = n;  // distance to the next traversable edge seen so far
        for (std::uint32_t round = 0; round < 2; ++round)
            for (std::uint32_t i = n; i-- > 0;) {
                NavEdge& e = m_edges[poly.first_edge + i];
                ahead = std::min(ahead + 1, n);
                if (round == 1) e.open_ahead = static_cast<std::uint16_t>(std::min<std::uint32_t>(ahead, 65535u));
                if (e.neighbour != kNoPolygon) ahead = 0;
            }
    }
    mark_bridges();
    m_vertex_of.clear();
    m_vertex_of.shrink_to_fit();
    return NavmeshBuild::Ok;
}

// Depth-first numbering, articulation points and bridges of the adjacency graph (a multigraph: two
// polygons may share several edges, and then none of them is a bridge), and each polygon's door. Iterative,
// as mazes give paths of tens of thousands of polygons. Uses m_vertex_of as scratch (low links), reusing
// its buffer.
void Navmesh::mark_bridges() {
    const auto count = static_cast<std::uint32_t>(m_polygons.size());
    std::vector<std::uint32_t>& low = m_vertex_of;
    low.assign(count, 0);
    std::vector<std::uint32_t> parent(count, kNoPolygon);  // depth-first tree parent
    std::vector<bool> cut_off(count, false);               // removing the parent cuts the subtree off
    for (NavPolygon& p : m_polygons) p.order = p.order_end = kNoPolygon;
    struct Frame {
        std::uint32_t polygon, next_edge, via;  // via: the edge (absolute) crossed to get here, or kNoPolygon
    };
    std::vector<Frame> stack;
    std::uint32_t counter = 0;
    for (std::uint32_t root = 0; root < count; ++root) {
        if (m_polygons[root].order != kNoPolygon) continue;
        m_polygons[root].order = low[root] = counter++;
        stack.push_back(Frame{root, 0, kNoPolygon});
        while (!stack.empty()) {
            Frame& f = stack.back();
            NavPolygon& poly = m_polygons[f.polygon];
            if (f.next_edge < poly.edge_count) {
                const std::uint32_t e = poly.first_edge + f.next_edge++;
                const NavEdge& edge = m_edges[e];
                if (edge.neighbour == kNoPolygon || (f.via != kNoPolygon && e == m_edges[f.via].twin)) continue;
                NavPolygon& next = m_polygons[edge.neighbour];
                if (next.order == kNoPolygon) {
                    next.order = low[edge.neighbour] = counter++;
                    parent[edge.neighbour] = f.polygon;
                    stack.push_back(Frame{edge.neighbour, 0, e});  // invalidates f and poly
                } else {
                    low[f.polygon] = std::min(low[f.polygon], next.order);
                }
                continue;
            }
            poly.order_end = counter;
            const Frame done = f;
            stack.pop_back();
            if (done.via == kNoPolygon) continue;
            const std::uint32_t up_id = stack.back().polygon;
            low[up_id] = std::min(low[up_id], low[done.polygon]);
            const NavPolygon& up = m_polygons[up_id];
            if (low[done.polygon] < up.order) continue;
            // Without `up`, the subtree of `done` is cut off from the rest (an articulation point): every
            // edge from `up` into `done` leads into that pocket. If the edge crossed is the only link (a
            // bridge), crossing it back leaves the pocket.
            cut_off[done.polygon] = true;
            for (std::uint32_t e = up.first_edge; e < up.first_edge + up.edge_count; ++e)
                if (m_edges[e].neighbour == done.polygon) m_edges[e].cut = NavCut::Into, m_edges[e].pocket = done.polygon;
            if (low[done.polygon] > up.order) m_edges[m_edges[done.via].twin].cut = NavCut::OutOf;
        }
    }
    // Doors, parents before children (depth-first order; `low` becomes the inverse of `order`).
    for (std::uint32_t p = 0; p < count; ++p) low[m_polygons[p].order] = p;
    for (std::uint32_t i = 0; i < count; ++i) {
        const std::uint32_t p = low[i];
        const std::uint32_t up = parent[p];
        m_polygons[p].door = up == kNoPolygon ? kNoPolygon : cut_off[p] ? up : m_polygons[up].door;
    }
    // The other edges: towards an ancestor, or into the subtree of a child, which is a pocket if that
    // child is cut off without this polygon and the root's side otherwise.
    for (std::uint32_t p = 0; p < count; ++p) {
        const NavPolygon& poly = m_polygons[p];
        for (std::uint32_t e = poly.first_edge; e < poly.first_edge + poly.edge_count; ++e) {
            NavEdge& edge = m_edges[e];
            if (edge.neighbour == kNoPolygon || edge.cut != NavCut::None) continue;
            std::uint32_t child = edge.neighbour;
            if (m_polygons[child].order < poly.order) {
                edge.cut = NavCut::Back;
                continue;
            }
            while (parent[child] != p) child = parent[child];  // a descendant: the child above it
            if (cut_off[child]) edge.cut = NavCut::Into, edge.pocket = child;
            else edge.cut = NavCut::Back;
        }
    }
}

std::size_t Navmesh::memory_bytes() const noexcept {
    return bytes_of(m_owner) + bytes_of(m_polygons) + bytes_of(m_edges) + bytes_of(m_vertices) + bytes_of(m_vertex_of);
}

std::uint32_t Navmesh::locate(NavPoint p) const noexcept {
    std::uint32_t held[4];
    return detail::navmesh_locate(*this, p, held) != 0 ? held[0] : kNoPolygon;
}

}  // namespace gameplan::path
