// Navigation meshes and Polyanya: the mesh covers exactly the free cells with convex pieces and honest
// adjacency; paths equal an independent visibility-graph optimum (navmesh_reference.hpp: exact segment / closed
// square tests, the diagonal squeeze rule, Dijkstra over every free grid point), never longer than
// Theta*, never shorter than the straight line; degenerate queries.
#include <gameplan/io/movingai.hpp>
#include <gameplan/path/navmesh.hpp>
#include <gameplan/path/theta_star.hpp>

#include <random_grid.hpp>

#include "navmesh_reference.hpp"

#include <test_data.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <queue>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;

namespace {
using test::random_map;

using test::navref::parse;

// The reference (free space, exact segment test, visibility graph) is in navmesh_reference.hpp.
using test::navref::expect_valid_path;
using test::navref::free_point;
using test::navref::length;
using test::navref::reference_cost;
using test::navref::segment_free;

// A 7 x 5 open map with one blocked cell, at (2, 2).
GridMap one_block_map() {
    return parse({
        ".......",
        ".......",
        "..@....",
        ".......",
        ".......",
    });
}

void expect_optimal(const GridMap& map, const Navmesh& mesh, NavmeshPathfinder& finder, NavPoint s, NavPoint t) {
    NavmeshPath path;
    const Status status = finder.find_path(mesh, s, t, {}, path);
    const double expected = reference_cost(map, s, t);
    SCOPED_TRACE("from (" + std::to_string(s.x) + "," + std::to_string(s.y) + ") to (" + std::to_string(t.x) + "," +
                 std::to_string(t.y) + ")");
    if (expected == std::numeric_limits<double>::infinity()) {
        EXPECT_EQ(status, Status::NoPath);
        EXPECT_TRUE(path.points.empty());
        return;
    }
    ASSERT_EQ(status, Status::Found);
    EXPECT_NEAR(path.cost, expected, 1e-6 * std::max(1.0, expected));
    EXPECT_GE(path.cost, length(s, t) - 1e-9);
    expect_valid_path(map, path, s, t);
}

}  // namespace

TEST(Navmesh, PolygonsTileTheFreeCellsAndEdgesMatchTheirTwins) {
    std::mt19937 rng(5);
    for (int round = 0; round < 30; ++round) {
        const GridMap map = random_map(rng, 5 + int(rng() % 30), 5 + int(rng() % 30), 0.05 * double(rng() % 8));
        Navmesh mesh;
        ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
        std::vector<int> covered(map.cell_count(), 0);
        const auto polys = mesh.polygons();
        const auto edges = mesh.edges();
        const auto verts = mesh.vertices();
        for (std::uint32_t p = 0; p < polys.size(); ++p) {
            const NavPolygon& poly = polys[p];
            for (int y = poly.y0; y < poly.y1; ++y)
                for (int x = poly.x0; x < poly.x1; ++x) {
                    ASSERT_TRUE(map.passable({x, y}));
                    ++covered[std::size_t(y) * std::size_t(map.width()) + std::size_t(x)];
                    EXPECT_EQ(mesh.polygon_of({x, y}), p);
                }
            // Boundary: consecutive vertices on the rectangle's sides, in order, each edge shared with
            // the cells across it.
            double perimeter = 0;
            for (std::uint32_t i = 0; i < poly.edge_count; ++i) {
                const NavEdge& e = edges[poly.first_edge + i];
                const NavVertex& a = verts[e.vertex];
                const NavVertex& b = verts[edges[poly.first_edge + (i + 1) % poly.edge_count].vertex];
                ASSERT_TRUE(a.x == b.x || a.y == b.y);
                perimeter += std::abs(a.x - b.x) + std::abs(a.y - b.y);
                // the cell across the middle of the edge
                const double mx = 0.5 * (a.x + b.x), my = 0.5 * (a.y + b.y);
                const double dx = b.x - a.x, dy = b.y - a.y;
                const double norm = std::hypot(dx, dy);
                // outside is to the right of the direction of travel in map coordinates: (-dy, dx) points inside
                const double ox = mx + 0.25 * dy / norm, oy = my - 0.25 * dx / norm;
                const GridPoint across{int(std::floor(ox)), int(std::floor(oy))};
                const std::uint32_t expect = map.passable(across) ? mesh.polygon_of(across) : kNoPolygon;
                ASSERT_EQ(e.neighbour, expect);
                if (e.neighbour != kNoPolygon) {
                    const NavEdge& twin = edges[e.twin];
                    EXPECT_EQ(twin.neighbour, p);
                    EXPECT_EQ(twin.vertex, edges[poly.first_edge + (i + 1) % poly.edge_count].vertex);
                }
            }
            EXPECT_EQ(perimeter, 2.0 * ((poly.x1 - poly.x0) + (poly.y1 - poly.y0)));
            // open_ahead (the search steps over walls with it): the distance to the next edge with a
            // neighbour, scanned forward here; the edge count when no other edge has one. A value one too
            // large steps over a shared edge (a search then misses successors); too small only costs time.
            for (std::uint32_t i = 0; i < poly.edge_count; ++i) {
                std::uint32_t ahead = 1;
                while (ahead < poly.edge_count &&
                       edges[poly.first_edge + (i + ahead) % poly.edge_count].neighbour == kNoPolygon)
                    ++ahead;
                EXPECT_EQ(edges[poly.first_edge + i].open_ahead, std::min<std::uint32_t>(ahead, 65535u))
                    << "polygon " << p << " edge " << i;
            }
        }
        for (std::int64_t y = 0; y < map.height(); ++y)
            for (std::int64_t x = 0; x < map.width(); ++x)
                EXPECT_EQ(covered[std::size_t(y * map.width() + x)], map.passable({int(x), int(y)}) ? 1 : 0);
    }
}

// The pocket marks agree with breadth-first searches over the polygons: every shared edge is classified
// and every bridge (an edge pair whose removal disconnects its two sides) is Into or OutOf; `Into` ranges
// are exactly the polygons cut off with the neighbour when the polygon is removed; `OutOf` ranges are
// exactly this side of a bridge; door chains are exactly the polygons whose removal cuts a polygon off
// from its component's first polygon, and `Back` edges lead to that polygon's side.
TEST(Navmesh, PocketEdgesMatchTheCutsOfTheAdjacencyGraph) {
    std::mt19937 rng(31);
    int bridges = 0, articulations = 0, doors = 0, backs = 0;
    for (int round = 0; round < 40; ++round) {
        const GridMap map = random_map(rng, 4 + int(rng() % 20), 4 + int(rng() % 20), 0.1 + 0.05 * double(rng() % 6));
        Navmesh mesh;
        ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
        const auto polys = mesh.polygons();
        const auto edges = mesh.edges();
        // Polygons reached from `from` without crossing edge `cut` (or its twin; kNoPolygon: none) and
        // without entering `removed`.
        const auto reach = [&](std::uint32_t from, std::uint32_t cut, std::uint32_t removed) {
            std::vector<bool> seen(polys.size(), false);
            std::vector<std::uint32_t> queue{from};
            seen[from] = true;
            for (std::size_t i = 0; i < queue.size(); ++i) {
                const NavPolygon& poly = polys[queue[i]];
                for (std::uint32_t j = poly.first_edge; j < poly.first_edge + poly.edge_count; ++j) {
                    const std::uint32_t next = edges[j].neighbour;
                    const bool crosses_cut = cut != kNoPolygon && (j == cut || j == edges[cut].twin);
                    if (next == kNoPolygon || next == removed || crosses_cut || seen[next]) continue;
                    seen[next] = true;
                    queue.push_back(next);
                }
            }
            return seen;
        };
        const auto in_range = [&](const NavPolygon& range, std::uint32_t q) {
            return polys[q].order >= range.order && polys[q].order < range.order_end;
        };
        for (std::uint32_t p = 0; p < polys.size(); ++p)
            for (std::uint32_t j = polys[p].first_edge; j < polys[p].first_edge + polys[p].edge_count; ++j) {
                const NavEdge& e = edges[j];
                if (e.neighbour == kNoPolygon) {
                    EXPECT_EQ(e.cut, NavCut::None);
                    continue;
                }
                EXPECT_NE(e.cut, NavCut::None) << "polygon " << p << " edge " << j;  // every shared edge is classified
                const std::vector<bool> beyond = reach(e.neighbour, j, kNoPolygon), here = reach(p, j, kNoPolygon);
                const bool bridge = !beyond[p];
                if (bridge) {
                    EXPECT_NE(e.cut, NavCut::None) << "polygon " << p << " edge " << j;
                }
                if (e.cut == NavCut::Into) {
                    const std::vector<bool> cut_off = reach(e.neighbour, kNoPolygon, p);
                    bridges += bridge;
                    articulations += !bridge;
                    for (std::uint32_t q = 0; q < polys.size(); ++q)
                        if (q != p) {
                            EXPECT_EQ(cut_off[q], in_range(polys[e.pocket], q)) << "polygon " << q;
                        }
                } else if (e.cut == NavCut::OutOf) {
                    ASSERT_TRUE(bridge) << "polygon " << p << " edge " << j;
                    for (std::uint32_t q = 0; q < polys.size(); ++q)
                        if (here[q] || beyond[q]) {
                            EXPECT_EQ(here[q], in_range(polys[p], q)) << "polygon " << q;
                        }
                }
            }
        // Doors: X is on polygon G's door chain exactly when removing X cuts G off from the first polygon
        // (in depth-first order) of its component; a Back edge of X leads to that polygon's side.
        for (std::uint32_t g = 0; g < polys.size(); ++g) {
            const std::vector<bool> component = reach(g, kNoPolygon, kNoPolygon);
            std::uint32_t root = g;
            for (std::uint32_t q = 0; q < polys.size(); ++q)
                if (component[q] && polys[q].order < polys[root].order) root = q;
            std::vector<bool> chain(polys.size(), false);
            for (std::uint32_t d = polys[g].door; d != kNoPolygon; d = polys[d].door) chain[d] = true;
            for (std::uint32_t x = 0; x < polys.size(); ++x) {
                if (!component[x] || x == g || x == root) continue;
                const std::vector<bool> without_x = reach(root, kNoPolygon, x);
                EXPECT_EQ(chain[x], !without_x[g]) << "polygon " << g << " door " << x;
                doors += chain[x];
            }
            EXPECT_TRUE(polys[root].door == kNoPolygon);
        }
        for (std::uint32_t x = 0; x < polys.size(); ++x) {
            const std::vector<bool> component = reach(x, kNoPolygon, kNoPolygon);
            std::uint32_t root = x;
            for (std::uint32_t q = 0; q < polys.size(); ++q)
                if (component[q] && polys[q].order < polys[root].order) root = q;
            const std::vector<bool> without_x = reach(root, kNoPolygon, x);
            for (std::uint32_t j = polys[x].first_edge; j < polys[x].first_edge + polys[x].edge_count; ++j) {
                if (edges[j].cut != NavCut::Back) continue;
                EXPECT_NE(x, root);
                EXPECT_TRUE(without_x[edges[j].neighbour]) << "polygon " << x << " edge " << j;
                ++backs;
            }
        }
    }
    EXPECT_GT(bridges, 100);
    EXPECT_GT(articulations, 20);
    EXPECT_GT(doors, 100);
    EXPECT_GT(backs, 100);
}

// Pockets (parts of the mesh behind a single shared edge, nested ones, a winding dead-end corridor) are
// skipped unless they hold the goal: start, goal or both inside pockets, points on the pocket edges
// themselves; every cost equals the visibility-graph optimum.
TEST(Navmesh, PocketsHoldingStartOrGoalMatchTheReference) {
    const GridMap map = parse({
        "..........@.........",
        ".@@@@.@@@.@.@@@@@@@.",
        ".@...@..@.@.@.....@.",
        ".@.@.@@.@...@.@@@.@.",
        ".@.@....@@@@@.@.@.@.",
        ".@.@@@@@@.....@...@.",
        "...........@@@@@@@@.",
        "@@@@.@@@@@.@........",
        "...@.@...@.@.@@@@@@.",
        ".@.....@.....@......",
    });
    Navmesh mesh;
    ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
    int pocket_edges = 0;
    for (const NavEdge& e : mesh.edges()) pocket_edges += e.cut == NavCut::Into;
    ASSERT_GT(pocket_edges, 5);
    std::vector<NavPoint> points;
    for (int y = 0; y < map.height(); y += 2)
        for (int x = y % 4 == 0 ? 0 : 1; x < map.width(); x += 2)
            if (map.passable({x, y})) points.push_back(cell_centre({x, y}));
    // The ends and middles of pocket edges (points on both sides of a cut).
    const auto polys = mesh.polygons();
    for (const NavPolygon& poly : polys)
        for (std::uint32_t j = 0; j < poly.edge_count; ++j) {
            const NavEdge& e = mesh.edges()[poly.first_edge + j];
            if (e.cut != NavCut::Into) continue;
            const NavVertex& a = mesh.vertices()[e.vertex];
            const NavVertex& b = mesh.vertices()[mesh.edges()[poly.first_edge + (j + 1) % poly.edge_count].vertex];
            for (const NavPoint p : {NavPoint{double(a.x), double(a.y)}, NavPoint{0.5 * (a.x + b.x), 0.5 * (a.y + b.y)}})
                if (mesh.locate(p) != kNoPolygon) points.push_back(p);
        }
    NavmeshPathfinder finder;
    for (std::size_t i = 0; i < points.size(); i += 7)
        for (std::size_t j = 1; j < points.size(); j += 3) {
            expect_optimal(map, mesh, finder, points[i], points[j]);
            if (HasFatalFailure()) return;
        }
}

// Dominant rectangles: while the largest rectangle of free cells not yet covered holds a tenth of the
// free cells, it is a polygon (found here by brute force over every rectangle, ties allowed: some polygon
// of that area covers only such cells). A room whose top wall has notches is the case the row-order cover
// alone gets wrong (strips hanging from the notches, none of them the room's open middle); random maps
// of low density have dominant rectangles too. Paths across the room equal the visibility-graph optimum.
TEST(Navmesh, DominantRectanglesArePolygonsAndPathsStayOptimal) {
    std::vector<GridMap> maps;
    maps.push_back(parse({"@@@.@@@@.@@..@@@@.@@@.@@@@",
                          "@@...@@...@....@@...@...@@",
                          "..........................",
                          "..........................",
                          "..........@@..............",
                          "..........@@..............",
                          "..........................",
                          "..........................",
                          "..........................",
                          "@@@..@@@@.......@@@@..@@@@",
                          "@@@..@@@@.......@@@@..@@@@",
                          "..........................",
                          "..........................",
                          ".........................."}));
    std::mt19937 rng(23);
    for (int round = 0; round < 16; ++round)
        maps.push_back(random_map(rng, 6 + int(rng() % 14), 6 + int(rng() % 14), 0.02 * double(rng() % 6)));
    NavmeshPathfinder finder;
    int dominant = 0;
    for (const GridMap& map : maps) {
        Navmesh mesh;
        ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
        const int w = map.width(), h = map.height();
        std::vector<char> taken(std::size_t(w * h), 0);
        const auto usable = [&](int x, int y) { return map.passable({x, y}) && !taken[std::size_t(y * w + x)]; };
        int free_cells = 0;
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) free_cells += map.passable({x, y});
        for (;;) {
            // The largest rectangle of usable cells, by brute force.
            int best = 0;
            for (int y0 = 0; y0 < h; ++y0)
                for (int x0 = 0; x0 < w; ++x0)
                    for (int y1 = y0 + 1; y1 <= h; ++y1)
                        for (int x1 = x0 + 1; x1 <= w; ++x1) {
                            bool ok = true;
                            for (int y = y0; y < y1 && ok; ++y)
                                for (int x = x0; x < x1 && ok; ++x) ok = usable(x, y);
                            if (!ok) break;  // wider ones from x0 hold the same cell
                            best = std::max(best, (x1 - x0) * (y1 - y0));
                        }
            if (best == 0 || best * 10 < free_cells) break;
            ++dominant;
            bool matched = false;
            for (const NavPolygon& poly : mesh.polygons()) {
                if ((poly.x1 - poly.x0) * (poly.y1 - poly.y0) != best) continue;
                bool ok = true;
                for (int y = poly.y0; y < poly.y1 && ok; ++y)
                    for (int x = poly.x0; x < poly.x1 && ok; ++x) ok = usable(x, y);
                if (!ok) continue;
                for (int y = poly.y0; y < poly.y1; ++y)
                    for (int x = poly.x0; x < poly.x1; ++x) taken[std::size_t(y * w + x)] = 1;
                matched = true;
                break;
            }
            ASSERT_TRUE(matched) << "no polygon is a largest rectangle of " << best << " cells";
        }
        // Paths between random cell centres and points on cell sides across the mesh.
        std::vector<GridPoint> cells;
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                if (map.passable({x, y})) cells.push_back({x, y});
        for (int q = 0; q < 25 && cells.size() >= 2; ++q) {
            const GridPoint a = cells[rng() % cells.size()], b = cells[rng() % cells.size()];
            expect_optimal(map, mesh, finder, cell_centre(a), cell_centre(b));
            expect_optimal(map, mesh, finder, NavPoint{double(a.x), double(a.y) + 0.5}, NavPoint{double(b.x) + 0.5, double(b.y)});
            if (HasFatalFailure()) return;
        }
    }
    EXPECT_GT(dominant, 20);
}

TEST(Navmesh, MeshIsMuchSmallerThanTheCellCount) {
    GridMap map = parse({"..........", "..........", "....@@....", "....@@....", "..........", ".........."});
    Navmesh mesh;
    ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
    EXPECT_LE(mesh.polygon_count(), 4u);
    GridMap open;
    ASSERT_EQ(open.reset(200, 100), GridSizeCheck::Ok);
    ASSERT_EQ(mesh.build(open), NavmeshBuild::Ok);
    EXPECT_EQ(mesh.polygon_count(), 1u);
    EXPECT_GT(mesh.memory_bytes(), 0u);
}

TEST(Navmesh, LocateRefusesBlockedOffMapAndSqueezePoints) {
    const GridMap map = parse({".@.", "@..", "..."});
    Navmesh mesh;
    ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
    EXPECT_EQ(mesh.locate({1.5, 0.5}), kNoPolygon);  // blocked
    EXPECT_EQ(mesh.locate({-0.1, 0.5}), kNoPolygon);
    EXPECT_EQ(mesh.locate({3.1, 0.5}), kNoPolygon);
    EXPECT_EQ(mesh.locate({std::nan(""), 0.5}), kNoPolygon);
    EXPECT_EQ(mesh.locate({1.0, 1.0}), kNoPolygon);  // (0,0) and (1,1) free, (1,0) and (0,1) blocked
    EXPECT_NE(mesh.locate({3.0, 3.0}), kNoPolygon);  // the map's far corner
    EXPECT_NE(mesh.locate({1.0, 0.5}), kNoPolygon);  // on the side of a free cell
    EXPECT_NE(mesh.locate({2.0, 1.0}), kNoPolygon);  // an obstacle corner
    Navmesh empty;
    EXPECT_EQ(empty.build(GridMap{}), NavmeshBuild::EmptyMap);
}

TEST(Navmesh, EqualsTheVisibilityGraphOptimumOnRandomMaps) {
    std::mt19937 rng(11);
    NavmeshPathfinder finder;
    ThetaStar theta;
    int found = 0;
    for (int round = 0; round < 60; ++round) {
        const int w = 6 + int(rng() % 16), h = 6 + int(rng() % 16);
        const GridMap map = random_map(rng, w, h, 0.1 + 0.05 * double(rng() % 6));
        Navmesh mesh;
        ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
        std::vector<GridPoint> cells;
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                if (map.passable({x, y})) cells.push_back({x, y});
        if (cells.size() < 2) continue;
        for (int q = 0; q < 8; ++q) {
            const GridPoint a = cells[rng() % cells.size()], b = cells[rng() % cells.size()];
            const NavPoint s = cell_centre(a), t = cell_centre(b);
            expect_optimal(map, mesh, finder, s, t);
            if (HasFatalFailure()) return;
            // never longer than Theta* between the same cell centres
            GridPath tpath;
            NavmeshPath npath;
            const Status ts = theta.find_path(map, a, b, tpath);
            const Status ns = finder.find_path(mesh, s, t, {}, npath);
            EXPECT_EQ(ts, ns);
            if (ts == Status::Found) {
                ++found;
                EXPECT_LE(npath.cost, tpath.cost + 1e-9);
            }
        }
    }
    EXPECT_GT(found, 200);
}

// A query whose straight segment lies in the free space (the reference's exact segment test) costs
// exactly its length; any other is longer (a detour) or has no path. Nearby pairs of cell
// centres, grid points and points on grid lines on dense random maps: segments through squeeze points,
// along walls and grid lines, grazing corners, leaving the map.
TEST(Navmesh, StraightLineExactlyWhenTheSegmentIsFree) {
    std::mt19937 rng(31);
    NavmeshPathfinder finder;
    NavmeshPath path;
    int straight = 0, detour = 0;
    for (int round = 0; round < 150; ++round) {
        const int w = 4 + int(rng() % 14), h = 4 + int(rng() % 14);
        const GridMap map = random_map(rng, w, h, 0.1 * double(rng() % 5));
        Navmesh mesh;
        ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
        if (mesh.polygon_count() == 0) continue;
        const auto pick = [&](NavPoint near, bool around) {
            for (int tries = 0; tries < 100; ++tries) {
                NavPoint p;
                switch (rng() % 4) {
                    case 0: p = {double(rng() % std::uint32_t(w)) + 0.5, double(rng() % std::uint32_t(h)) + 0.5}; break;
                    case 1: p = {double(rng() % std::uint32_t(w + 1)), double(rng() % std::uint32_t(h + 1))}; break;
                    case 2: p = {double(rng() % std::uint32_t(w * 2 + 1)) / 2, double(rng() % std::uint32_t(h + 1))}; break;
                    default: p = {double(rng() % std::uint32_t(w * 4 + 1)) / 4, double(rng() % std::uint32_t(h * 4 + 1)) / 4};
                }
                if (around && (std::abs(p.x - near.x) > 5 || std::abs(p.y - near.y) > 5)) continue;
                if (mesh.locate(p) != kNoPolygon) return p;
            }
            return near;
        };
        for (int q = 0; q < 30; ++q) {
            const NavPoint s = pick({}, false), t = pick(s, true);
            if (mesh.locate(s) == kNoPolygon) break;
            SCOPED_TRACE("from (" + std::to_string(s.x) + "," + std::to_string(s.y) + ") to (" + std::to_string(t.x) +
                         "," + std::to_string(t.y) + ")");
            const Status status = finder.find_path(mesh, s, t, {}, path);
            if (segment_free(map, s, t)) {
                ++straight;
                ASSERT_EQ(status, Status::Found);
                EXPECT_NEAR(path.cost, length(s, t), 1e-9 * std::max(1.0, path.cost));
                if (s == t) {
                    EXPECT_EQ(path.points.size(), 1u);
                }
            } else {
                ++detour;
                if (status == Status::Found) {
                    EXPECT_GT(path.cost, length(s, t) + 1e-9);
                    expect_valid_path(map, path, s, t);
                } else {
                    EXPECT_EQ(status, Status::NoPath);
                }
            }
        }
    }
    EXPECT_GT(straight, 1000);
    EXPECT_GT(detour, 500);
}

// The straight-line check used to leave undecided every segment that left a rectangle at a grid point
// (within rounding), and the search answered it: a segment that only grazes an obstacle corner cost an
// expansion. Between points on a fine grid (here quarters and cell centres) it is decided exactly: every
// free segment not lying along a grid line is answered without expanding anything, and a segment through
// a diagonal squeeze point is not free.
TEST(Navmesh, StraightSegmentThroughAnObstacleCornerNeedsNoExpansion) {
    const GridMap map = parse({
        ".......",
        ".......",
        "..@....",
        ".......",
        "....@..",
        ".....@.",
    });
    Navmesh mesh;
    ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
    NavmeshPathfinder finder;
    NavmeshPath path;
    // x + y = 4 touches the block [2,3]^2 only at its corner (2, 2): free
    const NavPoint s{0.5, 3.5}, t{3.5, 0.5};
    ASSERT_EQ(finder.find_path(mesh, s, t, {}, path), Status::Found);
    EXPECT_EQ(finder.stats().expanded, 0u);
    EXPECT_NEAR(path.cost, reference_cost(map, s, t), 1e-12);
    EXPECT_EQ(path.points.size(), 2u);
    // through (3, 3), the block's opposite corner (free), and through (5, 5), the squeeze point of the two
    // blocks touching diagonally below (not free)
    ASSERT_EQ(finder.find_path(mesh, {4.5, 1.5}, {1.5, 4.5}, {}, path), Status::Found);
    EXPECT_EQ(finder.stats().expanded, 0u);
    EXPECT_EQ(path.points.size(), 2u);
    ASSERT_EQ(finder.find_path(mesh, {4.5, 5.5}, {5.5, 4.5}, {}, path), Status::Found);
    EXPECT_GT(path.cost, std::sqrt(2.0) + 1e-9);
    expect_optimal(map, mesh, finder, {4.5, 5.5}, {5.5, 4.5});

    std::mt19937 rng(47);
    int free_segments = 0;
    for (int round = 0; round < 60; ++round) {
        const int w = 4 + int(rng() % 12), h = 4 + int(rng() % 12);
        const GridMap noise = random_map(rng, w, h, 0.25);
        ASSERT_EQ(mesh.build(noise), NavmeshBuild::Ok);
        if (mesh.polygon_count() == 0) continue;
        // Cell centres and quarters lie on the fine grid; thirds do not (the walk may then leave a segment
        // near a grid point to the search, which must still find the straight line).
        bool fine = true;
        const auto pick = [&]() {
            for (int tries = 0; tries < 100; ++tries) {
                NavPoint p;
                switch (rng() % 3) {
                    case 0: p = {double(rng() % std::uint32_t(w)) + 0.5, double(rng() % std::uint32_t(h)) + 0.5}; break;
                    case 1: p = {double(rng() % std::uint32_t(w * 4 + 1)) / 4, double(rng() % std::uint32_t(h * 4 + 1)) / 4}; break;
                    default:
                        p = {double(rng() % std::uint32_t(w * 3 + 1)) / 3, double(rng() % std::uint32_t(h * 3 + 1)) / 3};
                        fine = false;
                }
                if (mesh.locate(p) != kNoPolygon) return p;
            }
            return NavPoint{-1.0, -1.0};
        };
        for (int q = 0; q < 40; ++q) {
            fine = true;
            const NavPoint a = pick(), b = pick();
            if (a.x < 0 || b.x < 0) break;
            const bool along_grid_line = (a.x == b.x && a.x == std::floor(a.x)) || (a.y == b.y && a.y == std::floor(a.y));
            if (along_grid_line) continue;
            SCOPED_TRACE("from (" + std::to_string(a.x) + "," + std::to_string(a.y) + ") to (" + std::to_string(b.x) +
                         "," + std::to_string(b.y) + ")");
            const Status status = finder.find_path(mesh, a, b, {}, path);
            if (segment_free(noise, a, b)) {
                ++free_segments;
                ASSERT_EQ(status, Status::Found);
                if (fine) {
                    EXPECT_EQ(finder.stats().expanded, 0u);
                }
                EXPECT_NEAR(path.cost, length(a, b), 1e-9 * std::max(1.0, path.cost));
            } else if (status == Status::Found) {
                EXPECT_GT(path.cost, length(a, b) + 1e-9);
                expect_valid_path(noise, path, a, b);
            }
        }
    }
    EXPECT_GT(free_segments, 500);
}

TEST(Navmesh, PointsOnVerticesAndEdgesMatchTheReference) {
    std::mt19937 rng(23);
    NavmeshPathfinder finder;
    for (int round = 0; round < 40; ++round) {
        const int w = 5 + int(rng() % 12), h = 5 + int(rng() % 12);
        const GridMap map = random_map(rng, w, h, 0.2);
        Navmesh mesh;
        ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
        const auto pick = [&]() {
            for (;;) {
                NavPoint p;
                switch (rng() % 4) {
                    case 0: p = {double(rng() % std::uint32_t(w + 1)), double(rng() % std::uint32_t(h + 1))}; break;  // grid points
                    case 1: p = {double(rng() % std::uint32_t(w + 1)), double(rng() % std::uint32_t(h * 4)) / 4}; break;  // on vertical lines
                    case 2: p = {double(rng() % std::uint32_t(w * 8)) / 8, double(rng() % std::uint32_t(h * 8)) / 8}; break;
                    default: {  // a mesh vertex
                        const auto v = mesh.vertices()[rng() % mesh.vertices().size()];
                        p = {double(v.x), double(v.y)};
                    }
                }
                if (mesh.locate(p) != kNoPolygon) return p;
                EXPECT_FALSE(free_point(map, p.x, p.y)) << p.x << "," << p.y;
            }
        };
        if (mesh.polygon_count() == 0) continue;
        for (int q = 0; q < 10; ++q) {
            expect_optimal(map, mesh, finder, pick(), pick());
            if (HasFatalFailure()) return;
        }
    }
}

TEST(Navmesh, DegenerateQueries) {
    const GridMap map = one_block_map();
    Navmesh mesh;
    ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
    NavmeshPathfinder finder;
    NavmeshPath path;
    // start == goal
    ASSERT_EQ(finder.find_path(mesh, {3.5, 3.5}, {3.5, 3.5}, {}, path), Status::Found);
    EXPECT_EQ(path.cost, 0.0);
    ASSERT_EQ(path.points.size(), 1u);
    // start on an obstacle corner (a mesh vertex)
    expect_optimal(map, mesh, finder, {2.0, 2.0}, {5.5, 4.5});
    expect_optimal(map, mesh, finder, {3.0, 3.0}, {0.5, 0.5});
    // the same polygon: a straight line
    ASSERT_EQ(finder.find_path(mesh, {0.5, 0.5}, {6.5, 1.5}, {}, path), Status::Found);
    EXPECT_NEAR(path.cost, std::hypot(6.0, 1.0), 1e-12);
    EXPECT_EQ(path.points.size(), 2u);
    // grazing the block's corner (2, 2): x + y = 4 touches [2,3]^2 only there
    ASSERT_EQ(finder.find_path(mesh, {0.5, 3.5}, {3.5, 0.5}, {}, path), Status::Found);
    EXPECT_NEAR(path.cost, 3.0 * std::sqrt(2.0), 1e-12);
    EXPECT_EQ(path.points.size(), 2u);
    // grazing along the block's side: y = 2 from x = 0 to x = 7
    ASSERT_EQ(finder.find_path(mesh, {0.0, 2.0}, {7.0, 2.0}, {}, path), Status::Found);
    EXPECT_NEAR(path.cost, 7.0, 1e-12);
    // around the block: the shortest path turns at one of its corners
    expect_optimal(map, mesh, finder, {1.5, 2.5}, {4.5, 2.5});
    expect_optimal(map, mesh, finder, {2.5, 0.5}, {2.5, 4.5});
}

TEST(Navmesh, NeverSqueezesBetweenDiagonalBlocks) {
    // A diagonal wall of blocks: every joint is a squeeze point, so the path goes round its end.
    const GridMap map = parse({
        "@......",
        ".@.....",
        "..@....",
        "...@...",
        "....@..",
        ".......",
        ".......",
    });
    Navmesh mesh;
    ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
    NavmeshPathfinder finder;
    NavmeshPath path;
    ASSERT_EQ(finder.find_path(mesh, {0.5, 1.5}, {1.5, 0.5}, {}, path), Status::Found);
    EXPECT_GT(path.cost, 7.0);
    expect_optimal(map, mesh, finder, {0.5, 1.5}, {1.5, 0.5});
    expect_optimal(map, mesh, finder, {2.5, 1.5}, {1.5, 2.5});
    EXPECT_EQ(finder.find_path(mesh, {2.0, 2.0}, {0.5, 4.5}, {}, path), Status::InvalidQuery);  // on a squeeze point
    // Closed off completely: the wall reaches the map's corner.
    const GridMap closed = parse({"@...", ".@..", "..@.", "...@"});
    ASSERT_EQ(mesh.build(closed), NavmeshBuild::Ok);
    EXPECT_EQ(finder.find_path(mesh, {0.5, 1.5}, {1.5, 0.5}, {}, path), Status::NoPath);
    EXPECT_TRUE(path.points.empty());
    EXPECT_EQ(path.cost, std::numeric_limits<double>::infinity());
}

TEST(Navmesh, UnreachableInvalidAndBudget) {
    const GridMap map = parse({"...@...", "...@...", "...@..."});
    Navmesh mesh;
    ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
    NavmeshPathfinder finder;
    NavmeshPath path;
    EXPECT_EQ(finder.find_path(mesh, {0.5, 0.5}, {6.5, 2.5}, {}, path), Status::NoPath);
    EXPECT_EQ(finder.find_path(mesh, {3.5, 0.5}, {6.5, 2.5}, {}, path), Status::InvalidQuery);
    EXPECT_EQ(finder.find_path(mesh, {0.5, 0.5}, {7.5, 2.5}, {}, path), Status::InvalidQuery);
    Navmesh empty;
    EXPECT_EQ(finder.find_path(empty, {0.5, 0.5}, {0.5, 0.5}, {}, path), Status::InvalidQuery);

    std::mt19937 rng(2);
    const GridMap big = random_map(rng, 60, 60, 0.3);
    ASSERT_EQ(mesh.build(big), NavmeshBuild::Ok);
    NavmeshSearchOptions tight;
    tight.budget.max_expansions = 3;
    NavPoint s{}, t{};
    for (int y = 0; y < 60 && s.x == 0; ++y)
        for (int x = 0; x < 60; ++x)
            if (big.passable({x, y})) {
                s = cell_centre({x, y});
                break;
            }
    for (int y = 59; y >= 0 && t.x == 0; --y)
        for (int x = 59; x >= 0; --x)
            if (big.passable({x, y})) {
                t = cell_centre({x, y});
                break;
            }
    const Status full = finder.find_path(mesh, s, t, {}, path);
    ASSERT_NE(full, Status::InvalidQuery);
    if (finder.stats().expanded > 3) {
        EXPECT_EQ(finder.find_path(mesh, s, t, tight, path), Status::BudgetExhausted);
        EXPECT_EQ(finder.budget_limit(), search::BudgetLimit::Expansions);
    }
    NavmeshSearchOptions tiny_memory;
    tiny_memory.budget.max_memory_bytes = 1;
    EXPECT_EQ(finder.find_path(mesh, s, t, tiny_memory, path), Status::BudgetExhausted);
    EXPECT_EQ(finder.budget_limit(), search::BudgetLimit::Memory);
    // The resumable form gives the same answer as find_path.
    NavmeshPath whole;
    const Status expect = finder.find_path(mesh, s, t, {}, whole);
    ASSERT_EQ(finder.begin(mesh, s, t), Status::InProgress);
    Status st;
    while ((st = finder.step(2)) == Status::InProgress) {
    }
    EXPECT_EQ(st, expect);
    EXPECT_EQ(finder.finish(path), expect);
    EXPECT_EQ(path.cost, whole.cost);
}

// How a search is sliced changes nothing: stepping one node, or a few, at a time gives the status, turning
// points, cost and expansion count of one call, with and without an expansion budget (a corridor cut by
// the end of a slice goes on at the next step instead of waiting in the open list).
TEST(Navmesh, SlicingChangesNothing) {
    std::mt19937 rng(17);
    const GridMap map = random_map(rng, 60, 45, 0.25);
    Navmesh mesh;
    ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
    NavmeshPathfinder whole, sliced;
    NavmeshPath a, b;
    int searched = 0, budgeted = 0;
    for (int q = 0; q < 120; ++q) {
        GridPoint s{}, t{};
        do s = {int(rng() % 60u), int(rng() % 45u)}; while (!map.passable(s));
        do t = {int(rng() % 60u), int(rng() % 45u)}; while (!map.passable(t));
        NavmeshSearchOptions options;
        if (q % 3 == 1) options.budget.max_expansions = 1 + rng() % 40;
        const Status expect = whole.find_path(mesh, cell_centre(s), cell_centre(t), options, a);
        const std::uint64_t slice = 1 + q % 4;
        Status st = sliced.begin(mesh, cell_centre(s), cell_centre(t), options);
        while (st == Status::InProgress) {
            const std::uint64_t before = sliced.stats().expanded;
            st = sliced.step(slice);
            EXPECT_LE(sliced.stats().expanded - before, slice);
        }
        SCOPED_TRACE("query " + std::to_string(q));
        EXPECT_EQ(st, expect);
        EXPECT_EQ(sliced.finish(b), expect);
        EXPECT_EQ(b.points, a.points);
        EXPECT_EQ(b.cost, a.cost);
        EXPECT_EQ(sliced.stats().expanded, whole.stats().expanded);
        EXPECT_EQ(sliced.stats().generated, whole.stats().generated);
        searched += whole.stats().expanded > 4;
        budgeted += expect == Status::BudgetExhausted;
    }
    EXPECT_GT(searched, 60);
    EXPECT_GT(budgeted, 10);
}

// A memory budget caps what the pathfinder holds (the capacities memory_bytes() reports): a fresh one grows
// up to the budget and no further, stopping with Memory when the search needs more; a budget the search
// fits in changes nothing; storage held from an earlier, larger query counts.
TEST(Navmesh, MemoryBudgetCapsWhatThePathfinderHolds) {
    std::mt19937 rng(41);
    const GridMap map = random_map(rng, 120, 120, 0.3);
    Navmesh mesh;
    ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
    NavmeshPathfinder probe;
    probe.reserve(mesh, 0);
    const std::size_t fixed = probe.memory_bytes();  // the per-vertex and per-polygon arrays
    ASSERT_GT(fixed, 0u);
    NavmeshPathfinder unlimited;
    NavmeshPath path;
    int stopped = 0, completed = 0, queries = 0;
    while (queries < 6) {
        const auto cells = test::free_cells(rng, map, 2);
        const NavPoint s = cell_centre(cells[0]), t = cell_centre(cells[1]);
        const Status full = unlimited.find_path(mesh, s, t, {}, path);
        if (full != Status::Found || unlimited.stats().expanded < 200) continue;  // a search that grows
        ++queries;
        const double cost = path.cost;
        for (std::size_t limit = 64; limit < (std::size_t{64} << 20); limit = limit * 5 / 4) {
            SCOPED_TRACE("limit " + std::to_string(limit));
            NavmeshPathfinder fresh;
            NavmeshSearchOptions options;
            options.budget.max_memory_bytes = limit;
            Status status = fresh.begin(mesh, s, t, options);
            while (status == Status::InProgress) status = fresh.step(7);
            EXPECT_LE(fresh.memory_bytes(), limit) << "the pathfinder grew past its budget";
            if (status == Status::BudgetExhausted) {
                ++stopped;
                EXPECT_EQ(fresh.budget_limit(), search::BudgetLimit::Memory);
                if (limit < fixed) {
                    EXPECT_EQ(fresh.memory_bytes(), 0u) << "allocated arrays the budget cannot hold";
                } else {
                    EXPECT_GT(fresh.memory_bytes(), limit / 4) << "stopped far below its budget";
                }
                EXPECT_EQ(fresh.finish(path), Status::BudgetExhausted);
                EXPECT_TRUE(path.points.empty());
                continue;
            }
            ++completed;
            ASSERT_EQ(status, Status::Found);
            EXPECT_EQ(fresh.finish(path), Status::Found);
            EXPECT_EQ(path.cost, cost);
            // What a search held counts in the next one: a budget below it stops the same query at once,
            // and one at it lets the query through without growing.
            const std::size_t held = fresh.memory_bytes();
            options.budget.max_memory_bytes = held - 1;
            EXPECT_EQ(fresh.find_path(mesh, s, t, options, path), Status::BudgetExhausted);
            EXPECT_EQ(fresh.budget_limit(), search::BudgetLimit::Memory);
            EXPECT_EQ(fresh.memory_bytes(), held);
            options.budget.max_memory_bytes = held;
            EXPECT_EQ(fresh.find_path(mesh, s, t, options, path), Status::Found);
            EXPECT_EQ(path.cost, cost);
            EXPECT_EQ(fresh.memory_bytes(), held);
            break;
        }
    }
    EXPECT_GT(stopped, 6 * 10);
    EXPECT_EQ(completed, 6);
}

// A free straight segment is answered by begin() without the open list when no budget applies: budgets,
// slicing and the queries after it must behave as for any other search.
TEST(Navmesh, StraightSegmentAnswerKeepsBudgetsSlicesAndLaterQueries) {
    const GridMap map = one_block_map();
    Navmesh mesh;
    ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
    NavmeshPathfinder finder;
    NavmeshPath path;
    const NavPoint s{0.5, 4.5}, t{6.5, 3.5};  // a free segment below the block: no expansion needed
    ASSERT_EQ(finder.find_path(mesh, s, t, {}, path), Status::Found);
    EXPECT_EQ(finder.stats().expanded, 0u);
    EXPECT_EQ(finder.stats().generated, 1u);
    ASSERT_EQ(path.points.size(), 2u);
    EXPECT_EQ(path.points[0], s);
    EXPECT_EQ(path.points[1], t);
    EXPECT_DOUBLE_EQ(path.cost, std::hypot(6.0, 1.0));
    EXPECT_DOUBLE_EQ(finder.cost(), path.cost);
    // A zero-expansion budget stops it before the answer is taken, as it stops every search.
    NavmeshSearchOptions none;
    none.budget.max_expansions = 0;
    EXPECT_EQ(finder.find_path(mesh, s, t, none, path), Status::BudgetExhausted);
    EXPECT_EQ(finder.budget_limit(), search::BudgetLimit::Expansions);
    EXPECT_TRUE(path.points.empty());
    NavmeshSearchOptions tiny_memory;
    tiny_memory.budget.max_memory_bytes = 1;
    EXPECT_EQ(finder.find_path(mesh, s, t, tiny_memory, path), Status::BudgetExhausted);
    EXPECT_EQ(finder.budget_limit(), search::BudgetLimit::Memory);
    NavmeshSearchOptions past;
    past.budget.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    EXPECT_EQ(finder.find_path(mesh, s, t, past, path), Status::BudgetExhausted);
    EXPECT_EQ(finder.budget_limit(), search::BudgetLimit::Time);
    // An empty slice does no work; the next one reports the answer.
    ASSERT_EQ(finder.begin(mesh, s, t), Status::InProgress);
    EXPECT_EQ(finder.step(0), Status::InProgress);
    EXPECT_EQ(finder.status(), Status::InProgress);
    EXPECT_EQ(finder.step(1), Status::Found);
    EXPECT_EQ(finder.finish(path), Status::Found);
    EXPECT_EQ(path.points.size(), 2u);
    // start == goal: just the start.
    ASSERT_EQ(finder.find_path(mesh, {4.5, 1.5}, {4.5, 1.5}, {}, path), Status::Found);
    EXPECT_EQ(path.points.size(), 1u);
    EXPECT_EQ(path.cost, 0.0);
    // The queries after it: a search round the block, an invalid query, then a straight one again.
    expect_optimal(map, mesh, finder, {1.5, 2.5}, {4.5, 2.5});
    EXPECT_GT(finder.stats().expanded, 0u);
    EXPECT_EQ(finder.find_path(mesh, s, {2.5, 2.5}, {}, path), Status::InvalidQuery);
    EXPECT_TRUE(path.points.empty());
    ASSERT_EQ(finder.find_path(mesh, s, t, {}, path), Status::Found);
    EXPECT_EQ(path.points.size(), 2u);
    expect_optimal(map, mesh, finder, {2.5, 0.5}, {2.5, 4.5});
}

// The shared MovingAI maps: every sampled scenario is found, no longer than its 8-connected optimum
// (from the benchmark file) or than Theta*, no shorter than the straight line, and every segment lies
// in the free space.
TEST(Navmesh, MovingAiScenariosAreNeverLongerThanTheGridOptimumOrThetaStar) {
    GAMEPLAN_REQUIRE_BENCHMARK_DATA();
    const auto root = gameplan::test::benchmark_dir() / "movingai";
    const std::pair<const char*, const char*> maps[] = {{"dao", "arena"}, {"dao", "den312d"}, {"dao", "lak303d"},
                                                        {"bg512", "AR0011SR"}, {"dao", "brc202d"}};
    NavmeshPathfinder finder;
    ThetaStar theta;
    std::size_t checked = 0, shorter = 0;
    for (const auto& [set, name] : maps) {
        const GridMap map = io::load_movingai_map(root / "maps" / set / (std::string(name) + ".map"));
        const auto scen = io::load_movingai_scenarios(root / "scenarios" / set / (std::string(name) + ".map.scen"));
        Navmesh mesh;
        ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
        const std::size_t stride = std::max<std::size_t>(1, scen.scenarios.size() / 60);
        for (std::size_t i = 0; i < scen.scenarios.size(); i += stride) {
            const io::Scenario& sc = scen.scenarios[i];
            SCOPED_TRACE(std::string(name) + " scenario " + std::to_string(i));
            const NavPoint s = cell_centre(sc.start), t = cell_centre(sc.goal);
            NavmeshPath path;
            ASSERT_EQ(finder.find_path(mesh, s, t, {}, path), Status::Found);
            EXPECT_LE(path.cost, sc.optimal + sc.tolerance);
            EXPECT_GE(path.cost, length(s, t) - 1e-9);
            expect_valid_path(map, path, s, t);
            GridPath tpath;
            ASSERT_EQ(theta.find_path(map, sc.start, sc.goal, tpath), Status::Found);
            EXPECT_LE(path.cost, tpath.cost + 1e-9);
            ++checked;
            shorter += path.cost < tpath.cost - 1e-9;
        }
    }
    EXPECT_GT(checked, 250u);
    EXPECT_GT(shorter, 0u);
}
