// Hex grids: A* and Dijkstra against a breadth-first search written here (its neighbours come from axial
// coordinates, not from hex_neighbours' offset table), terrain costs against a reference Dijkstra, and
// islands against the BFS's reachability.
#include <gameplan/path/hex_grid.hpp>

#include <chrono>
#include <cmath>
#include <deque>
#include <limits>
#include <random>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Odd-r neighbours through axial coordinates (q = x - floor(y / 2), r = y) and the six axial directions.
std::vector<GridPoint> axial_neighbours(GridPoint p) {
    const int q = p.x - (p.y - (p.y & 1)) / 2, r = p.y;
    const int dirs[6][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, -1}, {-1, 1}};
    std::vector<GridPoint> out;
    for (const auto& d : dirs) {
        const int nq = q + d[0], nr = r + d[1];
        out.push_back({nq + (nr - (nr & 1)) / 2, nr});
    }
    return out;
}

std::vector<double> reference(const GridMap& map, GridPoint source) {
    // Dijkstra by repeated scans (BFS when every cost is 1: the same answer, checked separately below).
    const auto at = [&](GridPoint p) { return std::size_t(p.y) * std::size_t(map.width()) + std::size_t(p.x); };
    std::vector<double> dist(map.cell_count(), kInf);
    std::vector<bool> done(map.cell_count(), false);
    dist[at(source)] = 0;
    for (;;) {
        std::size_t best = dist.size();
        for (std::size_t i = 0; i < dist.size(); ++i)
            if (!done[i] && dist[i] < kInf && (best == dist.size() || dist[i] < dist[best])) best = i;
        if (best == dist.size()) return dist;
        done[best] = true;
        const GridPoint p{int(best % std::size_t(map.width())), int(best / std::size_t(map.width()))};
        for (const GridPoint q : axial_neighbours(p))
            if (map.passable(q) && dist[best] + map.cost(q) < dist[at(q)]) dist[at(q)] = dist[best] + map.cost(q);
    }
}

std::vector<double> bfs(const GridMap& map, GridPoint source) {
    const auto at = [&](GridPoint p) { return std::size_t(p.y) * std::size_t(map.width()) + std::size_t(p.x); };
    std::vector<double> dist(map.cell_count(), kInf);
    std::deque<GridPoint> queue{source};
    dist[at(source)] = 0;
    while (!queue.empty()) {
        const GridPoint p = queue.front();
        queue.pop_front();
        for (const GridPoint q : axial_neighbours(p))
            if (map.passable(q) && dist[at(q)] == kInf) {
                dist[at(q)] = dist[at(p)] + 1;
                queue.push_back(q);
            }
    }
    return dist;
}

GridMap random_map(std::mt19937& rng, int w, int h, double density, bool terrain) {
    GridMap map;
    EXPECT_EQ(map.reset(w, h), GridSizeCheck::Ok);
    std::uniform_real_distribution<double> u(0, 1);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            if (u(rng) < density) map.set_passable({x, y}, false);
            if (terrain) map.set_cost({x, y}, 1 + static_cast<std::uint32_t>(rng() % 5));
        }
    return map;
}

GridPoint random_free(std::mt19937& rng, const GridMap& map) {
    for (;;) {
        const GridPoint p{int(rng() % unsigned(map.width())), int(rng() % unsigned(map.height()))};
        if (map.passable(p)) return p;
    }
}

// Each step of `path` is a hex neighbour step and the costs add up.
void expect_valid(const GridMap& map, const GridPath& path, GridPoint from, GridPoint to, double expected) {
    ASSERT_FALSE(path.cells.empty());
    EXPECT_EQ(path.cells.front(), from);
    EXPECT_EQ(path.cells.back(), to);
    double sum = 0;
    for (std::size_t i = 0; i + 1 < path.cells.size(); ++i) {
        const auto n = axial_neighbours(path.cells[i]);
        ASSERT_NE(std::find(n.begin(), n.end(), path.cells[i + 1]), n.end());
        ASSERT_TRUE(map.passable(path.cells[i + 1]));
        sum += map.cost(path.cells[i + 1]);
    }
    EXPECT_DOUBLE_EQ(sum, path.cost);
    EXPECT_DOUBLE_EQ(path.cost, expected);
}

}  // namespace

TEST(HexGrid, LayoutAndDistanceByHand) {
    // Even row 0 leans left: (1,0) touches (0,1) and (1,1); odd row 1 leans right: (1,1) touches (1,0), (2,0).
    const auto n10 = hex_neighbours({1, 0});
    EXPECT_NE(std::find(n10.begin(), n10.end(), GridPoint{0, 1}), n10.end());
    EXPECT_NE(std::find(n10.begin(), n10.end(), GridPoint{1, 1}), n10.end());
    EXPECT_EQ(std::find(n10.begin(), n10.end(), GridPoint{2, 1}), n10.end());
    const auto n11 = hex_neighbours({1, 1});
    EXPECT_NE(std::find(n11.begin(), n11.end(), GridPoint{2, 0}), n11.end());
    EXPECT_NE(std::find(n11.begin(), n11.end(), GridPoint{2, 2}), n11.end());
    EXPECT_EQ(std::find(n11.begin(), n11.end(), GridPoint{0, 0}), n11.end());
    EXPECT_EQ(hex_distance({0, 0}, {1, 1}), 2);
    EXPECT_EQ(hex_distance({0, 1}, {1, 0}), 1);
    EXPECT_EQ(hex_distance({0, 0}, {0, 4}), 4);  // zig-zag straight down
    EXPECT_EQ(hex_distance({0, 0}, {5, 0}), 5);
    // Every offset-table neighbour is an axial neighbour, and hex_distance matches BFS on an empty map.
    GridMap empty;
    ASSERT_EQ(empty.reset(13, 11), GridSizeCheck::Ok);
    for (int y = 0; y < 11; ++y)
        for (int x = 0; x < 13; ++x) {
            auto a = hex_neighbours({x, y});
            auto b = axial_neighbours({x, y});
            std::sort(a.begin(), a.end(), [](auto p, auto q) { return p.y != q.y ? p.y < q.y : p.x < q.x; });
            std::sort(b.begin(), b.end(), [](auto p, auto q) { return p.y != q.y ? p.y < q.y : p.x < q.x; });
            EXPECT_TRUE(std::equal(a.begin(), a.end(), b.begin()));
        }
    const std::vector<double> d = bfs(empty, {6, 5});
    for (int y = 0; y < 11; ++y)
        for (int x = 0; x < 13; ++x) EXPECT_EQ(d[std::size_t(y) * 13 + std::size_t(x)], double(hex_distance({6, 5}, {x, y})));
}

// hex_path_cost by hand: the cost of every cell entered; infinity for a blocked cell or two cells in a row
// that are not neighbours.
TEST(HexGrid, PathCostByHand) {
    GridMap map;
    ASSERT_EQ(map.reset(5, 4), GridSizeCheck::Ok);
    ASSERT_TRUE(map.set_cost({1, 1}, 3));
    const std::vector<GridPoint> path{{1, 0}, {1, 1}, {1, 2}, {2, 2}};  // (1,0)-(1,1): even row leans left
    EXPECT_EQ(hex_path_cost(map, path), 3.0 + 1.0 + 1.0);
    EXPECT_EQ(hex_path_cost(map, std::span(path).first(1)), 0.0);
    EXPECT_EQ(hex_path_cost(map, {}), 0.0);
    const std::vector<GridPoint> skips{{1, 0}, {2, 1}};  // (2,1) is not next to (1,0)
    EXPECT_TRUE(std::isinf(hex_path_cost(map, skips)));
    ASSERT_TRUE(map.set_passable({1, 2}, false));
    EXPECT_TRUE(std::isinf(hex_path_cost(map, path)));
    const std::vector<GridPoint> off{{0, 0}, {-1, 0}};
    EXPECT_TRUE(std::isinf(hex_path_cost(map, off)));
}

TEST(HexGrid, AStarAndDijkstraEqualBfsOnRandomMaps) {
    std::mt19937 rng(31);
    HexPathfinder finder;
    GridPath path;
    int found = 0, unreachable = 0;
    for (int round = 0; round < 40; ++round) {
        const GridMap map = random_map(rng, 5 + int(rng() % 40), 5 + int(rng() % 30), 0.1 + 0.05 * (round % 7), false);
        for (int q = 0; q < 15; ++q) {
            const GridPoint s = random_free(rng, map), t = random_free(rng, map);
            const std::vector<double> ref = bfs(map, s);
            const double want = ref[std::size_t(t.y) * std::size_t(map.width()) + std::size_t(t.x)];
            for (const HexHeuristic h : {HexHeuristic::Auto, HexHeuristic::Zero}) {
                HexSearchOptions o;
                o.heuristic = h;
                const Status st = finder.find_path(map, s, t, o, path);
                if (want == kInf) {
                    EXPECT_EQ(st, Status::NoPath);
                    EXPECT_EQ(finder.cost(), kInf);
                    ++unreachable;
                    continue;
                }
                ASSERT_EQ(st, Status::Found);
                expect_valid(map, path, s, t, want);
                EXPECT_EQ(finder.cost(), want);
                EXPECT_EQ(finder.stats().reopened, 0u);
                ++found;
            }
        }
    }
    EXPECT_GT(found, 600);
    EXPECT_GT(unreachable, 10);
}

// The distance heuristic does its work: across an open map A* expands only the cells of a narrow band
// (a few per step of the path), Dijkstra a disc; both at the BFS distance.
TEST(HexGrid, TheHeuristicNarrowsTheSearch) {
    GridMap map;
    (void)map.reset(60, 60);
    HexPathfinder finder;
    GridPath path;
    const GridPoint s{5, 30}, t{55, 30};
    std::uint64_t expanded[2] = {0, 0};
    for (const HexHeuristic h : {HexHeuristic::Auto, HexHeuristic::Zero}) {
        HexSearchOptions o;
        o.heuristic = h;
        ASSERT_EQ(finder.find_path(map, s, t, o, path), Status::Found);
        EXPECT_EQ(finder.cost(), 50.0);
        expanded[h == HexHeuristic::Zero] = finder.stats().expanded;
    }
    EXPECT_LE(expanded[0], 3u * 51u) << "A* with the hex distance";
    EXPECT_GT(expanded[1], 1500u) << "Dijkstra";
}

TEST(HexGrid, TerrainCostsEqualReferenceDijkstra) {
    std::mt19937 rng(8);
    HexPathfinder finder;
    GridPath path;
    for (int round = 0; round < 20; ++round) {
        const GridMap map = random_map(rng, 6 + int(rng() % 20), 6 + int(rng() % 20), 0.2, true);
        const GridPoint s = random_free(rng, map);
        const std::vector<double> ref = reference(map, s);
        for (int q = 0; q < 10; ++q) {
            const GridPoint t = random_free(rng, map);
            const double want = ref[std::size_t(t.y) * std::size_t(map.width()) + std::size_t(t.x)];
            const Status st = finder.find_path(map, s, t, {}, path);
            if (want == kInf) {
                EXPECT_EQ(st, Status::NoPath);
            } else {
                ASSERT_EQ(st, Status::Found);
                expect_valid(map, path, s, t, want);
            }
        }
        // Flood: every cell's g equals the reference.
        ASSERT_EQ(finder.begin(map, std::span<const GridPoint>(&s, 1), std::span<const GridPoint>{}), Status::InProgress);
        EXPECT_EQ(finder.step(), Status::NoPath);
        for (int y = 0; y < map.height(); ++y)
            for (int x = 0; x < map.width(); ++x) EXPECT_EQ(finder.g({x, y}), ref[std::size_t(y) * std::size_t(map.width()) + std::size_t(x)]);
    }
}

// True if `islands` partition the open cells of `map` as the reference flood (axial neighbours) does,
// with the right count and sizes.
::testing::AssertionResult same_hex_partition(const GridMap& map, const HexIslands& islands) {
    const auto at = [&](GridPoint p) { return std::size_t(p.y) * std::size_t(map.width()) + std::size_t(p.x); };
    std::vector<int> component(map.cell_count(), -1);
    std::vector<std::size_t> sizes;
    for (int y = 0; y < map.height(); ++y)
        for (int x = 0; x < map.width(); ++x) {
            if (!map.passable({x, y}) || component[at({x, y})] >= 0) continue;
            const int c = int(sizes.size());
            std::deque<GridPoint> queue{{x, y}};
            component[at({x, y})] = c;
            std::size_t cells = 0;
            while (!queue.empty()) {
                const GridPoint p = queue.front();
                queue.pop_front();
                ++cells;
                for (const GridPoint q : axial_neighbours(p))
                    if (map.passable(q) && component[at(q)] < 0) {
                        component[at(q)] = c;
                        queue.push_back(q);
                    }
            }
            sizes.push_back(cells);
        }
    if (islands.count() != sizes.size())
        return ::testing::AssertionFailure() << "count " << islands.count() << ", reference " << sizes.size();
    std::vector<std::uint32_t> id_of(sizes.size(), UINT32_MAX);
    std::vector<int> component_of_id;
    for (int y = 0; y < map.height(); ++y)
        for (int x = 0; x < map.width(); ++x) {
            const std::uint32_t id = islands.island({x, y});
            const int c = component[at({x, y})];
            if (c < 0) {
                if (id != UINT32_MAX) return ::testing::AssertionFailure() << "blocked (" << x << "," << y << ") has an island";
                continue;
            }
            if (id == UINT32_MAX) return ::testing::AssertionFailure() << "open (" << x << "," << y << ") has no island";
            if (id >= component_of_id.size()) component_of_id.resize(id + 1, -1);
            if (id_of[std::size_t(c)] == UINT32_MAX) id_of[std::size_t(c)] = id;
            if (component_of_id[id] == -1) component_of_id[id] = c;
            if (id_of[std::size_t(c)] != id || component_of_id[id] != c)
                return ::testing::AssertionFailure() << "(" << x << "," << y << ") is on the wrong island";
        }
    for (std::size_t c = 0; c < sizes.size(); ++c)
        if (islands.island_size(id_of[c]) != sizes[c])
            return ::testing::AssertionFailure() << "island " << id_of[c] << " has size " << islands.island_size(id_of[c])
                                                 << ", reference " << sizes[c];
    return ::testing::AssertionSuccess();
}

TEST(HexGrid, IslandsFollowCellsOpenedAndClosed) {
    std::mt19937 rng(57);
    HexPathfinder finder;
    GridPath path;
    int steps = 0;
    for (int round = 0; round < 12; ++round) {
        GridMap map = random_map(rng, 6 + int(rng() % 25), 6 + int(rng() % 20), 0.25 + 0.05 * (round % 6), false);
        HexIslands islands;
        islands.build(map);
        ASSERT_TRUE(same_hex_partition(map, islands));
        for (int k = 0; k < 200; ++k, ++steps) {
            const GridPoint p{int(rng() % unsigned(map.width())), int(rng() % unsigned(map.height()))};
            ASSERT_TRUE(islands.set_passable(map, p, !map.passable(p)));
            ASSERT_TRUE(islands.current(map));
            ASSERT_TRUE(same_hex_partition(map, islands)) << "round " << round << " step " << k << " toggled (" << p.x << "," << p.y << ")";
        }
        // Two changes made through the map, reported one at a time: current only once both are.
        for (int k = 0; k < 2; ++k) {
            GridPoint a{}, b{};
            do {
                a = {int(rng() % unsigned(map.width())), int(rng() % unsigned(map.height()))};
                b = {int(rng() % unsigned(map.width())), int(rng() % unsigned(map.height()))};
            } while (a == b);
            map.set_passable(a, !map.passable(a));
            map.set_passable(b, !map.passable(b));
            ASSERT_TRUE(islands.cell_changed(map, a));
            EXPECT_FALSE(islands.current(map));
            ASSERT_TRUE(islands.cell_changed(map, b));
            EXPECT_TRUE(islands.current(map));
            ASSERT_TRUE(same_hex_partition(map, islands));
        }
        // A change made through the map and reported afterwards.
        const GridPoint q{int(rng() % unsigned(map.width())), int(rng() % unsigned(map.height()))};
        map.set_passable(q, !map.passable(q));
        EXPECT_FALSE(islands.current(map));
        ASSERT_TRUE(islands.cell_changed(map, q));
        EXPECT_TRUE(islands.current(map));
        ASSERT_TRUE(same_hex_partition(map, islands));
        // The precheck on the updated islands agrees with the search.
        HexSearchOptions o;
        o.islands = &islands;
        for (int k = 0; k < 20; ++k) {
            const GridPoint s = random_free(rng, map), t = random_free(rng, map);
            const bool reachable = bfs(map, s)[std::size_t(t.y) * std::size_t(map.width()) + std::size_t(t.x)] < kInf;
            EXPECT_EQ(finder.find_path(map, s, t, o, path), reachable ? Status::Found : Status::NoPath);
        }
    }
    EXPECT_EQ(steps, 12 * 200);
    // Misuse: another map, a cell off the map; a reset to another size rebuilds.
    GridMap map = random_map(rng, 10, 10, 0.3, false), other = map;
    HexIslands islands;
    islands.build(map);
    EXPECT_FALSE(islands.cell_changed(other, {1, 1}));
    EXPECT_FALSE(islands.set_passable(map, {10, 0}, true));
    ASSERT_EQ(map.reset(7, 5), GridSizeCheck::Ok);
    EXPECT_TRUE(islands.cell_changed(map, {0, 0}));
    EXPECT_EQ(islands.count(), 1u);
    EXPECT_EQ(islands.island_size(islands.island({0, 0})), 35u);
    // A reset to the same size changes every cell: one report afterwards must not keep the others.
    for (int y = 0; y < 5; ++y) map.set_passable({3, y}, false);
    ASSERT_TRUE(islands.cell_changed(map, {3, 0}) && islands.cell_changed(map, {3, 1}) && islands.cell_changed(map, {3, 2}) &&
                islands.cell_changed(map, {3, 3}) && islands.cell_changed(map, {3, 4}));
    EXPECT_EQ(islands.count(), 2u);
    ASSERT_EQ(map.reset(7, 5), GridSizeCheck::Ok);
    map.set_passable({0, 0}, false);
    EXPECT_TRUE(islands.cell_changed(map, {0, 0}));
    EXPECT_TRUE(same_hex_partition(map, islands));
}

TEST(HexGrid, IslandsStayCurrentAcrossCostChanges) {
    GridMap map;
    ASSERT_EQ(map.reset(5, 1), GridSizeCheck::Ok);
    map.set_passable({2, 0}, false);
    HexIslands islands;
    islands.build(map);
    ASSERT_TRUE(map.set_cost({0, 0}, 3));
    EXPECT_TRUE(islands.current(map));
    HexPathfinder finder;
    GridPath path;
    HexSearchOptions o;
    o.islands = &islands;
    EXPECT_EQ(finder.find_path(map, {0, 0}, {4, 0}, o, path), Status::NoPath);
    EXPECT_EQ(finder.stats().expanded, 0u);
    map.set_passable({2, 0}, true);
    EXPECT_FALSE(islands.current(map));
    EXPECT_EQ(finder.find_path(map, {0, 0}, {4, 0}, o, path), Status::Found);
}

TEST(HexGrid, IslandsNearestOfManyAndInvalidQueries) {
    std::mt19937 rng(55);
    HexPathfinder finder;
    GridPath path;
    for (int round = 0; round < 20; ++round) {
        const GridMap map = random_map(rng, 10 + int(rng() % 30), 10 + int(rng() % 30), 0.45, false);
        HexIslands islands;
        islands.build(map);
        EXPECT_TRUE(islands.current(map));
        const GridPoint s = random_free(rng, map);
        const std::vector<double> ref = bfs(map, s);
        std::size_t reached = 0;
        for (int y = 0; y < map.height(); ++y)
            for (int x = 0; x < map.width(); ++x)
                if (map.passable({x, y})) {
                    const bool connected = ref[std::size_t(y) * std::size_t(map.width()) + std::size_t(x)] < kInf;
                    EXPECT_EQ(islands.connected(s, {x, y}), connected);
                    reached += connected ? 1 : 0;
                }
        EXPECT_EQ(islands.island_size(islands.island(s)), reached);
        EXPECT_EQ(islands.island_size(islands.count()), 0u);
        std::vector<GridPoint> goals;
        for (int k = 0; k < 5; ++k) goals.push_back(random_free(rng, map));
        double nearest = kInf;
        for (const GridPoint t : goals) nearest = std::min(nearest, ref[std::size_t(t.y) * std::size_t(map.width()) + std::size_t(t.x)]);
        HexSearchOptions o;
        o.islands = &islands;
        Status st = finder.begin(map, std::span<const GridPoint>(&s, 1), goals, o);
        if (st == Status::InProgress) st = finder.step(7);
        while (st == Status::InProgress) st = finder.step(7);
        (void)finder.finish(path);
        if (nearest == kInf) {
            EXPECT_EQ(st, Status::NoPath);
            EXPECT_EQ(finder.stats().expanded, 0u);  // the islands answered
        } else {
            ASSERT_EQ(st, Status::Found);
            EXPECT_NE(std::find(goals.begin(), goals.end(), finder.goal_reached()), goals.end());
            expect_valid(map, path, s, finder.goal_reached(), nearest);
        }
    }
    GridMap map;
    ASSERT_EQ(map.reset(4, 4), GridSizeCheck::Ok);
    map.set_passable({2, 2}, false);
    HexSearchOptions o;
    EXPECT_EQ(finder.find_path(map, {0, 0}, {2, 2}, o, path), Status::InvalidQuery);
    EXPECT_EQ(finder.find_path(map, {0, 0}, {4, 0}, o, path), Status::InvalidQuery);
    o.weight = 0.9;
    EXPECT_EQ(finder.find_path(map, {0, 0}, {3, 3}, o, path), Status::InvalidQuery);
    o.weight = 1.0;
    o.budget.max_expansions = 1;
    EXPECT_EQ(finder.find_path(map, {0, 0}, {3, 3}, o, path), Status::BudgetExhausted);
    o.budget = {};
    ASSERT_EQ(finder.find_path(map, {1, 1}, {1, 1}, o, path), Status::Found);
    EXPECT_EQ(path.cells.size(), 1u);
    EXPECT_EQ(path.cost, 0.0);
    EXPECT_EQ(finder.find_path(GridMap{}, {0, 0}, {0, 0}, o, path), Status::InvalidQuery);
}

namespace {
Status run_sliced(HexPathfinder& finder, const GridMap& map, std::span<const GridPoint> sources,
                  std::span<const GridPoint> goals, const HexSearchOptions& options, GridPath& path) {
    Status status = finder.begin(map, sources, goals, options);
    while (status == Status::InProgress) status = finder.step(7);
    EXPECT_EQ(finder.status(), status);
    EXPECT_EQ(finder.finish(path), status);
    return status;
}
}  // namespace

// reserve sizes the state for exactly the map's cells: the engine's arrays (28 bytes a padded cell), the
// open list's positions (4) and the goal marks (4), and an open list of 4,096 entries (32 bytes each).
// A 64 x 64 map has 4,356 padded cells: sized by doubling from 64, as the engine grows later, it would
// hold 8,192 of each.
TEST(HexGrid, ReserveSizesTheStateForExactlyTheMap) {
    for (const int side : {64, 100}) {
        GridMap map;
        ASSERT_EQ(map.reset(side, side), GridSizeCheck::Ok);
        HexPathfinder finder;
        finder.reserve(map);
        EXPECT_EQ(finder.memory_bytes(), map.node_bound() * 36 + 4096 * 32) << side;
        GridPath path;
        ASSERT_EQ(finder.find_path(map, {0, 0}, {side - 1, side - 1}, {}, path), Status::Found);
        // the query added only its source buffer (one source)
        EXPECT_EQ(finder.memory_bytes(), map.node_bound() * 36 + 4096 * 32 + sizeof(search::NodeIndex)) << side;
    }
}

// A memory budget caps what the pathfinder holds (memory_bytes(): the engine's arrays and open list, the
// goal marks of a query with several goals, the sources): a fresh pathfinder under a budget the query does
// not fit in stops with Memory without growing past it, a large enough budget changes nothing, and the
// storage held from an earlier query counts (one byte less than it stops a query at once).
TEST(HexGrid, MemoryBudgetCapsWhatThePathfinderHolds) {
    std::mt19937 rng(2024);
    const GridMap map = random_map(rng, 90, 80, 0.2, false);
    int queries = 0, stopped = 0;
    while (queries < 4) {
        const bool several = queries % 2 == 1;  // several goals: the goal marks count too
        std::vector<GridPoint> sources{random_free(rng, map)}, goals{random_free(rng, map)};
        if (several) {
            sources.push_back(random_free(rng, map));
            goals.push_back(random_free(rng, map));
            goals.push_back(random_free(rng, map));
        }
        HexPathfinder unlimited;
        GridPath path;
        if (run_sliced(unlimited, map, sources, goals, {}, path) != Status::Found || unlimited.stats().expanded < 100) continue;
        ++queries;
        const double cost = path.cost;
        const std::size_t held = unlimited.memory_bytes();
        bool through = false;
        for (std::size_t limit = 64; limit < 4 * held; limit = limit * 5 / 4) {
            SCOPED_TRACE("limit " + std::to_string(limit) + (several ? ", several goals" : ""));
            HexPathfinder fresh;
            HexSearchOptions options;
            options.budget.max_memory_bytes = limit;
            const Status status = run_sliced(fresh, map, sources, goals, options, path);
            EXPECT_LE(fresh.memory_bytes(), limit) << "the pathfinder grew past its budget";
            if (status == Status::BudgetExhausted) {
                ++stopped;
                EXPECT_FALSE(through) << "a budget stopped a query a smaller one let through";
                EXPECT_EQ(fresh.budget_limit(), search::BudgetLimit::Memory);
                EXPECT_TRUE(path.cells.empty());
                continue;
            }
            ASSERT_EQ(status, Status::Found);
            through = true;
            EXPECT_EQ(fresh.budget_limit(), search::BudgetLimit::None);
            EXPECT_EQ(path.cost, cost);
        }
        EXPECT_TRUE(through) << "four times what the query holds did not let it through";
        // What the pathfinder holds counts: a budget of exactly that lets the same query through without
        // growing, one byte less stops this query and a one-step one at once.
        HexSearchOptions options;
        options.budget.max_memory_bytes = held;
        EXPECT_EQ(run_sliced(unlimited, map, sources, goals, options, path), Status::Found);
        EXPECT_EQ(path.cost, cost);
        EXPECT_EQ(unlimited.memory_bytes(), held);
        options.budget.max_memory_bytes = held - 1;
        EXPECT_EQ(unlimited.begin(map, sources, goals, options), Status::BudgetExhausted);
        EXPECT_EQ(unlimited.status(), Status::BudgetExhausted);
        EXPECT_EQ(unlimited.budget_limit(), search::BudgetLimit::Memory);
        EXPECT_EQ(unlimited.stats().expanded, 0u);
        EXPECT_FALSE(unlimited.closed(sources[0])) << "the previous search was not forgotten";
        EXPECT_EQ(unlimited.finish(path), Status::BudgetExhausted);
        EXPECT_TRUE(path.cells.empty());
        const GridPoint next = [&] {
            for (const GridPoint q : hex_neighbours(sources[0]))
                if (map.passable(q)) return q;
            return sources[0];
        }();
        EXPECT_EQ(unlimited.find_path(map, sources[0], next, options, path), Status::BudgetExhausted);
        EXPECT_EQ(unlimited.budget_limit(), search::BudgetLimit::Memory);
        EXPECT_EQ(unlimited.memory_bytes(), held);
    }
    EXPECT_GT(stopped, 4 * 10);
}

// budget_limit() names the limit that ended the search, and is None otherwise.
TEST(HexGrid, BudgetLimitNamesTheLimit) {
    GridMap map;
    ASSERT_EQ(map.reset(30, 30), GridSizeCheck::Ok);
    HexPathfinder finder;
    GridPath path;
    HexSearchOptions options;
    options.budget.max_expansions = 3;
    EXPECT_EQ(finder.find_path(map, {0, 0}, {20, 20}, options, path), Status::BudgetExhausted);
    EXPECT_EQ(finder.budget_limit(), search::BudgetLimit::Expansions);
    options.budget = {};
    options.budget.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    EXPECT_EQ(finder.find_path(map, {0, 0}, {20, 20}, options, path), Status::BudgetExhausted);
    EXPECT_EQ(finder.budget_limit(), search::BudgetLimit::Time);
    options.budget = {};
    EXPECT_EQ(finder.find_path(map, {0, 0}, {20, 20}, options, path), Status::Found);
    EXPECT_EQ(finder.budget_limit(), search::BudgetLimit::None);
    options.budget.max_memory_bytes = 0;
    EXPECT_EQ(finder.find_path(map, {0, 0}, {20, 20}, options, path), Status::BudgetExhausted);
    EXPECT_EQ(finder.budget_limit(), search::BudgetLimit::Memory);
    EXPECT_EQ(finder.find_path(map, {0, 0}, {40, 20}, options, path), Status::InvalidQuery);  // validity first
    EXPECT_EQ(finder.budget_limit(), search::BudgetLimit::None);
}
