// The independent any-angle reference of the navmesh tests: the free space of a grid map (closed free
// cells, no diagonal squeeze points, nothing off the map), an exact segment test, and Dijkstra over the
// free grid points on the boundary of the free space, joined wherever the segment is free. Shared by the Polyanya and hierarchy tests.
#pragma once

#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/navmesh.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace gameplan::test::navref {

using path::GridMap;
using path::NavmeshPath;
using path::NavPoint;


// A map from rows of text: '@' blocked, anything else passable.
inline GridMap parse(const std::vector<std::string>& rows) {
    GridMap map;
    EXPECT_EQ(map.reset(std::int64_t(rows[0].size()), std::int64_t(rows.size())), path::GridSizeCheck::Ok);
    for (std::size_t y = 0; y < rows.size(); ++y)
        for (std::size_t x = 0; x < rows[y].size(); ++x)
            if (rows[y][x] == '@') map.set_passable({int(x), int(y)}, false);
    return map;
}

// True if `p` lies in the free space: in some free closed cell, on the map, and not a point where two
// blocked cells touch diagonally between two free ones.
inline bool free_point(const GridMap& map, double x, double y) {
    if (!(x >= 0 && y >= 0 && x <= map.width() && y <= map.height())) return false;
    const double fx = std::floor(x), fy = std::floor(y);
    const int cx = int(fx), cy = int(fy);
    const auto cell = [&](int a, int b) { return map.passable({a, b}); };
    if (fx == x && fy == y) {
        const bool tl = cell(cx - 1, cy - 1), tr = cell(cx, cy - 1), bl = cell(cx - 1, cy), br = cell(cx, cy);
        if (tl && br && !tr && !bl) return false;
        if (tr && bl && !tl && !br) return false;
        return tl || tr || bl || br;
    }
    if (fx == x) return cell(cx - 1, cy) || cell(cx, cy);
    if (fy == y) return cell(cx, cy - 1) || cell(cx, cy);
    return cell(cx, cy);
}

// True if every point of the segment p -> q lies in the free space: the segment is cut at every grid
// line it crosses; each cut point and the middle of each piece (which lies inside one cell or on one
// cell side) are tested.
inline bool segment_free(const GridMap& map, NavPoint p, NavPoint q) {
    thread_local std::vector<double> cuts;  // reused: the reference calls this for most pairs of points
    cuts.assign({0.0, 1.0});
    const auto add = [&](double from, double to) {
        if (from == to) return;
        const double lo = std::min(from, to), hi = std::max(from, to);
        for (double k = std::ceil(lo); k <= hi; k += 1.0) cuts.push_back((k - from) / (to - from));
    };
    add(p.x, q.x);
    add(p.y, q.y);
    std::sort(cuts.begin(), cuts.end());
    // A cut point lies on a grid line; rounding must not move it off (next to a squeeze point, 3.9999999
    // instead of 4 would be wrongly free), so coordinates within 1e-9 of an integer are snapped to it.
    const auto snap = [](double v) { return std::abs(v - std::round(v)) < 1e-9 ? std::round(v) : v; };
    const auto at = [&](double t) { return NavPoint{snap(p.x + t * (q.x - p.x)), snap(p.y + t * (q.y - p.y))}; };
    for (std::size_t i = 0; i < cuts.size(); ++i) {
        const NavPoint c = at(cuts[i]);
        if (!free_point(map, c.x, c.y)) return false;
        if (i + 1 < cuts.size() && cuts[i + 1] > cuts[i]) {
            const NavPoint m = at(0.5 * (cuts[i] + cuts[i + 1]));
            if (!free_point(map, m.x, m.y)) return false;
        }
    }
    return true;
}

inline double length(NavPoint a, NavPoint b) { return std::hypot(a.x - b.x, a.y - b.y); }

// Dijkstra over start, goal and every free grid point that touches a blocked cell or the map's border,
// joined wherever the segment is free. (A shortest path bends only where the free space's boundary does:
// at a point whose four cells are all free and on the map, a bend could be cut short within them.)
inline double reference_cost(const GridMap& map, NavPoint s, NavPoint t) {
    std::vector<NavPoint> nodes{s, t};
    for (int y = 0; y <= map.height(); ++y)
        for (int x = 0; x <= map.width(); ++x) {
            const bool open = x > 0 && y > 0 && x < map.width() && y < map.height() && map.passable({x - 1, y - 1}) &&
                              map.passable({x, y - 1}) && map.passable({x - 1, y}) && map.passable({x, y});
            if (!open && free_point(map, x, y)) nodes.push_back({double(x), double(y)});
        }
    const std::size_t n = nodes.size();
    std::vector<double> dist(n, std::numeric_limits<double>::infinity());
    std::vector<bool> done(n, false);
    dist[0] = 0;
    for (;;) {
        std::size_t best = n;
        for (std::size_t i = 0; i < n; ++i)
            if (!done[i] && (best == n || dist[i] < dist[best])) best = i;
        if (best == n || dist[best] == std::numeric_limits<double>::infinity()) break;
        if (best == 1) return dist[1];
        done[best] = true;
        for (std::size_t i = 0; i < n; ++i) {
            if (done[i]) continue;
            const double d = dist[best] + length(nodes[best], nodes[i]);
            if (d < dist[i] && segment_free(map, nodes[best], nodes[i])) dist[i] = d;
        }
    }
    return dist[1];
}

inline void expect_valid_path(const GridMap& map, const NavmeshPath& path, NavPoint s, NavPoint t) {
    ASSERT_FALSE(path.points.empty());
    EXPECT_EQ(path.points.front(), s);
    EXPECT_EQ(path.points.back(), t);
    double total = 0;
    for (std::size_t i = 1; i < path.points.size(); ++i) {
        EXPECT_TRUE(segment_free(map, path.points[i - 1], path.points[i]))
            << "segment " << i << " (" << path.points[i - 1].x << "," << path.points[i - 1].y << ") -> ("
            << path.points[i].x << "," << path.points[i].y << ") leaves the free space";
        total += length(path.points[i - 1], path.points[i]);
    }
    EXPECT_NEAR(total, path.cost, 1e-9 * std::max(1.0, total));
    for (std::size_t i = 1; i + 1 < path.points.size(); ++i) {  // turning points are obstacle corners
        EXPECT_EQ(path.points[i].x, std::floor(path.points[i].x));
        EXPECT_EQ(path.points[i].y, std::floor(path.points[i].y));
    }
}

}  // namespace gameplan::test::navref
