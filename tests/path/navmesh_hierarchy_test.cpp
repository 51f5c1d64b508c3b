// The navmesh contraction hierarchy: path costs equal the independent visibility-graph reference of
// navmesh_reference.hpp (Dijkstra over every free grid point, exact segment tests) and Polyanya's on random
// maps of several densities and sizes, diagonal squeeze patterns and map borders; every path is valid;
// degenerate queries, unreachable goals, points outside the free space, budgets and resumed steps; the
// landmark query's buckets of keys stay in order after every step.
#include <gameplan/path/navmesh.hpp>
#include <gameplan/path/navmesh_hierarchy.hpp>

#include "navmesh_reference.hpp"
#include <random_grid.hpp>
#include <test_data.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;
using namespace gameplan::test::navref;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

using test::navref::parse;
using Method = NavmeshHierarchy::Method;
struct Built {
    GridMap map;
    Navmesh mesh;
    NavmeshHierarchy hierarchy;
    explicit Built(GridMap m, std::uint32_t core_degree = 192, Method method = Method::Auto, std::uint32_t landmarks = 32)
        : map(std::move(m)) {
        EXPECT_EQ(mesh.build(map), NavmeshBuild::Ok);
        hierarchy.set_core_degree(core_degree);
        hierarchy.set_method(method);
        hierarchy.set_landmark_count(landmarks);
        EXPECT_EQ(hierarchy.build(mesh), JpsSupport::Ok);
        if (method != Method::Auto) {
            EXPECT_EQ(hierarchy.method(), method);
        }
    }
};

// Checks one query against the reference and Polyanya; returns the cost found (+inf when none).
double expect_exact(const Built& b, NavmeshHierarchyPathfinder& finder, NavmeshPathfinder& polyanya, NavPoint s, NavPoint t) {
    SCOPED_TRACE("from (" + std::to_string(s.x) + "," + std::to_string(s.y) + ") to (" + std::to_string(t.x) + "," +
                 std::to_string(t.y) + ")");
    NavmeshPath path;
    const Status status = finder.find_path(b.hierarchy, s, t, {}, path);
    const bool valid = free_point(b.map, s.x, s.y) && free_point(b.map, t.x, t.y);
    if (!valid) {
        EXPECT_EQ(status, Status::InvalidQuery);
        EXPECT_TRUE(path.points.empty());
        return kInf;
    }
    const double expected = reference_cost(b.map, s, t);
    NavmeshPath other;
    (void)polyanya.find_path(b.mesh, s, t, {}, other);
    if (expected == kInf) {
        EXPECT_EQ(status, Status::NoPath);
        EXPECT_TRUE(path.points.empty());
        EXPECT_EQ(finder.cost(), kInf);
        return kInf;
    }
    EXPECT_EQ(status, Status::Found);
    if (status != Status::Found) return kInf;
    EXPECT_NEAR(path.cost, expected, 1e-6 * std::max(1.0, expected));
    EXPECT_NEAR(path.cost, other.cost, 1e-6 * std::max(1.0, expected));
    EXPECT_EQ(finder.cost(), path.cost);
    expect_valid_path(b.map, path, s, t);
    return path.cost;
}

// A point of the map: a cell centre, a grid point, a point on a grid line, or anywhere.
NavPoint random_point(std::mt19937& rng, const GridMap& map) {
    std::uniform_real_distribution<double> u(0, 1);
    const double x = u(rng) * map.width(), y = u(rng) * map.height();
    switch (rng() % 4) {
        case 0: return NavPoint{std::floor(x) + 0.5, std::floor(y) + 0.5};
        case 1: return NavPoint{std::round(x), std::round(y)};
        case 2: return NavPoint{std::round(x), y};
        default: return NavPoint{x, y};
    }
}

}  // namespace

// White-box reads of the landmark query's band (a friend of the pathfinder; this test's own definition).
struct gameplan::path::detail::NavmeshHierarchyInspector {
    // True if the band is in order: the entries of the heap that holds the current bucket form a heap
    // (the least key on top), and none of them has a key above a key in a later bucket. Counts in `later`
    // the entries in later buckets.
    static bool band_in_order(const NavmeshHierarchyPathfinder& f, std::size_t& later) {
        using P = NavmeshHierarchyPathfinder;
        const auto& heap = f.m_open[0];
        const auto after = [](const P::OpenEntry& a, const P::OpenEntry& b) { return a.key > b.key; };
        if (!std::is_heap(heap.begin(), heap.end(), after)) return false;
        double highest = -kInf;
        for (const P::OpenEntry& e : heap) highest = std::max(highest, e.key);
        // The non-empty buckets after the current one, through the bitmap.
        for (std::size_t w = (f.m_cursor + 1) >> 6; w < P::kBuckets / 64; ++w) {
            std::uint64_t bits = f.m_bucket_bits[w];
            if (w == (f.m_cursor + 1) >> 6) bits &= ~std::uint64_t(0) << ((f.m_cursor + 1) & 63u);
            for (; bits != 0; bits &= bits - 1) {
                const std::size_t b = (w << 6) + std::size_t(std::countr_zero(bits));
                for (std::uint32_t s = f.m_bucket[b]; s != P::kNoSlot; s = f.m_slots[s].next) {
                    if (f.m_slots[s].entry.key < highest) return false;
                    ++later;
                }
            }
        }
        return true;
    }
};

TEST(NavmeshHierarchy, RandomMapsMatchTheReferenceAndPolyanya) {
    std::mt19937 rng(2024);
    int found = 0, none = 0, invalid = 0;
    for (int round = 0; round < 60; ++round) {
        const double density = 0.05 + 0.05 * double(round % 9);  // 5% .. 45%
        // Default contraction, a core of the nodes with more than 4 neighbours, or no contraction at all.
        const std::uint32_t core_degree = round % 3 == 0 ? 192 : round % 3 == 1 ? 4 : 0;
        const Built b(test::random_map(rng, 4 + int(rng() % 20), 4 + int(rng() % 20), density), core_degree);
        NavmeshHierarchyPathfinder finder;
        NavmeshPathfinder polyanya;
        for (int q = 0; q < 8; ++q) {
            const NavPoint s = random_point(rng, b.map), t = random_point(rng, b.map);
            const bool valid = free_point(b.map, s.x, s.y) && free_point(b.map, t.x, t.y);
            const double c = expect_exact(b, finder, polyanya, s, t);
            if (!valid) ++invalid;
            else if (c == kInf) ++none;
            else ++found;
        }
    }
    EXPECT_GT(found, 200);
    EXPECT_GT(none, 5);
    EXPECT_GT(invalid, 5);
}

TEST(NavmeshHierarchy, CornerToCornerOnDenseNoise) {
    // Every query between two grid points (corners among them) of dense noise.
    std::mt19937 rng(77);
    for (int round = 0; round < 12; ++round) {
        const Built b(test::random_map(rng, 10 + int(rng() % 10), 10 + int(rng() % 10), 0.25 + 0.05 * double(round % 4)),
                      round % 2 == 0 ? 192 : 6);
        NavmeshHierarchyPathfinder finder;
        NavmeshPathfinder polyanya;
        const auto nodes = b.hierarchy.nodes();
        ASSERT_GT(nodes.size(), 2u);
        for (int q = 0; q < 10; ++q) {
            const auto& a = nodes[rng() % nodes.size()];
            const auto& c = nodes[rng() % nodes.size()];
            (void)expect_exact(b, finder, polyanya, NavPoint{double(a.x), double(a.y)}, NavPoint{double(c.x), double(c.y)});
        }
    }
}

TEST(NavmeshHierarchy, DiagonalSqueezePatternsAndBorders) {
    const std::vector<std::vector<std::string>> maps = {
        {"..........", ".@.@.@.@..", "..@.@.@.@.", ".@.@.@.@..", "..@.@.@.@.", "..........", "...@......"},
        {"....@.....", "...@......", "..@...@...", ".@...@....", "....@.....", "...@......"},
        {"@.@.@.@", ".@.@.@.", "@.@.@.@", ".@.@.@.", "@.@.@.@"},
        {".....", ".@@@.", ".@.@.", ".@@@.", "....."},
        {"..@..", "..@..", "@@@@@", "..@..", "..@.."},
        {"........@", ".@@@@@..@", ".@...@...", ".@.@.@@@.", ".@.@.....", "...@@@@@."},
    };
    for (const auto& rows : maps) {
        const Built b(parse(rows));
        NavmeshHierarchyPathfinder finder;
        NavmeshPathfinder polyanya;
        const int w = int(rows[0].size()), h = int(rows.size());
        for (int sy = 0; sy <= h; ++sy)
            for (int sx = 0; sx <= w; ++sx) {
                const NavPoint s{double(sx), double(sy)};
                (void)expect_exact(b, finder, polyanya, s, NavPoint{w - 0.5, h - 0.5});
                (void)expect_exact(b, finder, polyanya, NavPoint{0.5, 0.5}, s);
            }
    }
}

TEST(NavmeshHierarchy, DegenerateQueries) {
    const Built b(parse({
        "..........",
        "..@@@.....",
        "..@@@..@..",
        "..........",
        "@@@@@@@@.@",
        "...@......",
        "...@..@@..",
    }));
    NavmeshHierarchyPathfinder finder;
    NavmeshPathfinder polyanya;
    NavmeshPath path;
    // start = goal
    EXPECT_EQ(finder.find_path(b.hierarchy, {0.5, 0.5}, {0.5, 0.5}, {}, path), Status::Found);
    EXPECT_EQ(path.points.size(), 1u);
    EXPECT_EQ(path.cost, 0.0);
    EXPECT_EQ(finder.find_path(b.hierarchy, {2.0, 1.0}, {2.0, 1.0}, {}, path), Status::Found);  // on a corner
    EXPECT_EQ(path.cost, 0.0);
    // goal seen from the start, same polygon, grazing corners, starts on corners
    (void)expect_exact(b, finder, polyanya, {0.5, 0.5}, {9.5, 0.5});
    (void)expect_exact(b, finder, polyanya, {0.2, 0.3}, {0.7, 0.9});
    (void)expect_exact(b, finder, polyanya, {0.0, 0.0}, {5.0, 3.0});
    (void)expect_exact(b, finder, polyanya, {2.0, 1.0}, {5.0, 3.0});
    (void)expect_exact(b, finder, polyanya, {2.0, 1.0}, {9.0, 6.0});
    (void)expect_exact(b, finder, polyanya, {1.0, 2.5}, {6.0, 3.0});
    (void)expect_exact(b, finder, polyanya, {0.5, 3.5}, {4.5, 6.5});
    (void)expect_exact(b, finder, polyanya, {0.5, 5.5}, {9.5, 6.5});
    // unreachable (closed room on the left below the wall)
    EXPECT_EQ(finder.find_path(b.hierarchy, {0.5, 6.5}, {0.5, 0.5}, {}, path), Status::NoPath);
    EXPECT_TRUE(path.points.empty());
    EXPECT_EQ(finder.cost(), kInf);
    // outside the free space
    EXPECT_EQ(finder.find_path(b.hierarchy, {3.5, 1.5}, {0.5, 0.5}, {}, path), Status::InvalidQuery);
    EXPECT_EQ(finder.find_path(b.hierarchy, {0.5, 0.5}, {-1.0, 0.5}, {}, path), Status::InvalidQuery);
    EXPECT_EQ(finder.find_path(b.hierarchy, {0.5, 0.5}, {10.5, 0.5}, {}, path), Status::InvalidQuery);
    EXPECT_EQ(finder.find_path(b.hierarchy, {0.5, 0.5}, {std::nan(""), 0.5}, {}, path), Status::InvalidQuery);
    NavmeshHierarchy unbuilt;
    EXPECT_EQ(finder.find_path(unbuilt, {0.5, 0.5}, {1.5, 0.5}, {}, path), Status::InvalidQuery);
}

class NavmeshHierarchyMethods : public ::testing::TestWithParam<Method> {};
INSTANTIATE_TEST_SUITE_P(Both, NavmeshHierarchyMethods, ::testing::Values(Method::Contraction, Method::Landmarks));

TEST_P(NavmeshHierarchyMethods, BudgetsAndResumedSteps) {
    std::mt19937 rng(99);
    const Built b(test::random_map(rng, 96, 96, 0.2), 192, GetParam());
    NavmeshHierarchyPathfinder finder, sliced;
    NavmeshPath path, other;
    int resumed = 0, exhausted = 0;
    for (int q = 0; q < 40; ++q) {
        const auto cells = test::free_cells(rng, b.map, 2);
        const NavPoint s = cell_centre(cells[0]), t = cell_centre(cells[1]);
        const Status full = finder.find_path(b.hierarchy, s, t, {}, path);
        NavmeshSearchOptions tight;
        tight.budget.max_expansions = 3;
        const Status limited = sliced.find_path(b.hierarchy, s, t, tight, other);
        if (limited == Status::BudgetExhausted) {
            ++exhausted;
            EXPECT_EQ(sliced.budget_limit(), search::BudgetLimit::Expansions);
            EXPECT_LE(sliced.stats().expanded, 3u);
            EXPECT_TRUE(other.points.empty());
        }
        // The same query one node at a time: slicing changes nothing (same nodes, same path, same counts).
        if (sliced.begin(b.hierarchy, s, t) == Status::InProgress) {
            while (sliced.step(1) == Status::InProgress) ++resumed;
        }
        EXPECT_EQ(sliced.finish(other), full);
        EXPECT_EQ(sliced.stats().expanded, finder.stats().expanded);
        EXPECT_EQ(sliced.stats().generated, finder.stats().generated);
        EXPECT_EQ(other.points, path.points);
        if (full == Status::Found) {
            EXPECT_EQ(other.cost, path.cost);
            expect_valid_path(b.map, other, s, t);
        }
    }
    EXPECT_GT(exhausted, 10);
    EXPECT_GT(resumed, 100);
    // A memory budget smaller than the search's arrays stops it.
    NavmeshSearchOptions small;
    small.budget.max_memory_bytes = 64;
    NavmeshHierarchyPathfinder fresh;
    const auto cells = test::free_cells(rng, b.map, 2);
    const Status s = fresh.find_path(b.hierarchy, {0.5, 0.5}, {95.5, 95.5}, small, path);
    if (s != Status::InvalidQuery && fresh.stats().expanded + fresh.stats().generated > 0) {
        EXPECT_EQ(s, Status::BudgetExhausted);
        EXPECT_EQ(fresh.budget_limit(), search::BudgetLimit::Memory);
    }
    // A deadline in the past.
    NavmeshSearchOptions late;
    late.budget.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    const Status d = fresh.find_path(b.hierarchy, cell_centre(cells[0]), cell_centre(cells[1]), late, path);
    EXPECT_TRUE(d == Status::BudgetExhausted || d == Status::Found || d == Status::NoPath);
    if (d == Status::BudgetExhausted) {
        EXPECT_EQ(fresh.budget_limit(), search::BudgetLimit::Time);
    }
}

// A memory budget caps what the pathfinder holds (the capacities memory_bytes() reports, the unpacking of
// the path in finish() aside): a fresh one grows up to the budget and no further, stopping with Memory when
// the search needs more; a budget the search fits in changes nothing; storage held from an earlier query
// counts.
TEST_P(NavmeshHierarchyMethods, MemoryBudgetCapsWhatThePathfinderHolds) {
    std::mt19937 rng(43);
    const Built b(test::random_map(rng, 96, 96, 0.25), 192, GetParam());
    NavmeshHierarchyPathfinder probe;
    probe.reserve(b.hierarchy, 0);
    const std::size_t fixed = probe.memory_bytes();  // the per-node arrays
    ASSERT_GT(fixed, 0u);
    NavmeshHierarchyPathfinder unlimited;
    NavmeshPath path;
    int stopped = 0, completed = 0, queries = 0;
    while (queries < 6) {
        const auto cells = test::free_cells(rng, b.map, 2);
        const NavPoint s = cell_centre(cells[0]), t = cell_centre(cells[1]);
        const Status full = unlimited.find_path(b.hierarchy, s, t, {}, path);
        if (full != Status::Found || unlimited.stats().expanded < 30) continue;  // a search that grows
        ++queries;
        const double cost = path.cost;
        // Budgets growing by an eighth up to the per-node arrays, then in finer steps (the search's own
        // storage is small beside them).
        const auto next = [&](std::size_t limit) {
            return limit < fixed ? std::min(limit * 9 / 8, fixed) : limit + std::max<std::size_t>(64, (limit - fixed) / 4);
        };
        for (std::size_t limit = 64; limit < (std::size_t{64} << 20); limit = next(limit)) {
            SCOPED_TRACE("limit " + std::to_string(limit));
            NavmeshHierarchyPathfinder fresh;
            NavmeshSearchOptions options;
            options.budget.max_memory_bytes = limit;
            Status status = fresh.begin(b.hierarchy, s, t, options);
            while (status == Status::InProgress) status = fresh.step(3);
            EXPECT_LE(fresh.memory_bytes(), limit) << "the pathfinder grew past its budget";
            if (status == Status::BudgetExhausted) {
                EXPECT_EQ(fresh.budget_limit(), search::BudgetLimit::Memory);
                if (limit < fixed) {
                    EXPECT_EQ(fresh.memory_bytes(), 0u) << "allocated arrays the budget cannot hold";
                } else {
                    ++stopped;
                    EXPECT_GT(fresh.memory_bytes(), limit / 4) << "stopped far below its budget";
                }
                EXPECT_EQ(fresh.finish(path), Status::BudgetExhausted);
                EXPECT_TRUE(path.points.empty());
                continue;
            }
            ++completed;
            ASSERT_EQ(status, Status::Found);
            EXPECT_EQ(fresh.finish(path), Status::Found);
            EXPECT_NEAR(path.cost, cost, 1e-9 * cost);
            // What a search held counts in the next one: a budget below it stops the same query at once,
            // and one at it lets the query through without growing.
            const std::size_t held = fresh.memory_bytes();
            options.budget.max_memory_bytes = held - 1;
            EXPECT_EQ(fresh.find_path(b.hierarchy, s, t, options, path), Status::BudgetExhausted);
            EXPECT_EQ(fresh.budget_limit(), search::BudgetLimit::Memory);
            EXPECT_EQ(fresh.memory_bytes(), held);
            options.budget.max_memory_bytes = held;
            EXPECT_EQ(fresh.find_path(b.hierarchy, s, t, options, path), Status::Found);
            EXPECT_NEAR(path.cost, cost, 1e-9 * cost);
            EXPECT_EQ(fresh.memory_bytes(), held);
            break;
        }
    }
    EXPECT_GE(stopped, 6 * 4);
    EXPECT_EQ(completed, 6);
}

TEST_P(NavmeshHierarchyMethods, BuildBudgetsAndCounts) {
    std::mt19937 rng(5);
    const GridMap map = test::random_map(rng, 64, 64, 0.2);
    Navmesh mesh;
    ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
    NavmeshHierarchy h;
    h.set_method(GetParam());
    EXPECT_EQ(h.build(mesh, 1000), JpsSupport::MemoryBudget);
    EXPECT_FALSE(h.built());
    EXPECT_EQ(h.build(mesh, SIZE_MAX, std::chrono::steady_clock::now() - std::chrono::seconds(1)), JpsSupport::TimeBudget);
    EXPECT_FALSE(h.built());
    ASSERT_EQ(h.build(mesh), JpsSupport::Ok);
    EXPECT_TRUE(h.built());
    std::size_t corners = 0;
    for (const NavVertex& v : mesh.vertices()) corners += v.corner;
    EXPECT_EQ(h.node_count(), corners);
    EXPECT_GT(h.graph_edge_count(), corners);
    EXPECT_EQ(h.method(), GetParam());
    EXPECT_GT(h.memory_bytes(), 0u);
    // A memory budget between the graph and the graph with its landmark tables.
    if (GetParam() == Method::Landmarks) {
        EXPECT_EQ(h.upward_edge_count(), 0u);
        EXPECT_EQ(h.landmarks().size(), 32u);
        NavmeshHierarchy few;
        few.set_method(Method::Landmarks);
        few.set_landmark_count(0);
        ASSERT_EQ(few.build(mesh), JpsSupport::Ok);
        NavmeshHierarchy tight;
        tight.set_method(Method::Landmarks);
        EXPECT_EQ(tight.build(mesh, few.memory_bytes() + 16), JpsSupport::MemoryBudget);
        EXPECT_FALSE(tight.built());
        EXPECT_LT(few.memory_bytes(), h.memory_bytes());
    } else {
        EXPECT_GE(h.upward_edge_count(), h.graph_edge_count());
    }
    // Every upward edge goes up (but between core nodes) and is at least as long as the straight line.
    const std::size_t contracted = h.node_count() - h.core_count();
    for (std::uint32_t v = 0; v < h.node_count(); ++v)
        for (const auto& e : h.up(v)) {
            if (v < contracted) {
                EXPECT_GT(e.to, v);
            } else {
                EXPECT_GE(e.to, contracted);
            }
            const auto& a = h.nodes()[v];
            const auto& c = h.nodes()[e.to];
            EXPECT_GE(e.weight, std::hypot(a.x - c.x, a.y - c.y) - 1e-9);
        }
    // An all-blocked map has no polygon.
    GridMap blocked;
    ASSERT_EQ(blocked.reset(4, 4), GridSizeCheck::Ok);
    for (int y = 0; y < 4; ++y)
        for (int x = 0; x < 4; ++x) blocked.set_passable({x, y}, false);
    Navmesh empty;
    ASSERT_EQ(empty.build(blocked), NavmeshBuild::Ok);
    EXPECT_EQ(h.build(empty), JpsSupport::EmptyMap);
    EXPECT_FALSE(h.built());
}

// ---- Landmarks (goal-directed A* over the whole graph) ------------------------------------------------

TEST(NavmeshHierarchyLandmarks, RandomMapsMatchTheReferenceAndPolyanya) {
    // Forced on maps of every density; no landmark, one, a few, more than the corners (then every corner).
    std::mt19937 rng(4242);
    int found = 0, none = 0, invalid = 0, direct = 0;
    const std::uint32_t counts[] = {0, 1, 4, 32};
    for (int round = 0; round < 60; ++round) {
        const double density = 0.05 + 0.05 * double(round % 9);
        const Built b(test::random_map(rng, 4 + int(rng() % 20), 4 + int(rng() % 20), density), 192, Method::Landmarks,
                      counts[round % 4]);
        EXPECT_EQ(b.hierarchy.landmarks().size(), std::min<std::size_t>(counts[round % 4], b.hierarchy.node_count()));
        NavmeshHierarchyPathfinder finder;
        NavmeshPathfinder polyanya;
        for (int q = 0; q < 10; ++q) {
            const NavPoint s = random_point(rng, b.map), t = q == 9 ? s : random_point(rng, b.map);
            const bool valid = free_point(b.map, s.x, s.y) && free_point(b.map, t.x, t.y);
            const double c = expect_exact(b, finder, polyanya, s, t);
            if (!valid) ++invalid;
            else if (c == kInf) ++none;
            else ++found;
            if (valid && c < kInf && finder.stats().expanded == 0) ++direct;  // the goal seen from the start
        }
    }
    EXPECT_GT(found, 250);
    EXPECT_GT(none, 5);
    EXPECT_GT(invalid, 5);
    EXPECT_GT(direct, 20);
}

TEST(NavmeshHierarchyLandmarks, CornerToCornerAndRoomsCutOff) {
    // Corners as ends (a landmark's own corner among them), and maps split into closed rooms, so that
    // landmarks lie in components the query cannot reach (distance +infinity in the bound).
    std::mt19937 rng(31);
    for (int round = 0; round < 16; ++round) {
        GridMap map = test::random_map(rng, 12 + int(rng() % 10), 12 + int(rng() % 10), 0.1 + 0.05 * double(round % 4));
        if (round % 2 == 1) {  // walls across, closing off rooms
            const int wx = 3 + int(rng() % std::uint32_t(map.width() - 6)), wy = 3 + int(rng() % std::uint32_t(map.height() - 6));
            for (int y = 0; y < map.height(); ++y) map.set_passable({wx, y}, false);
            for (int x = 0; x < wx; ++x) map.set_passable({x, wy}, false);
        }
        const Built b(std::move(map), 192, Method::Landmarks, 1 + std::uint32_t(round % 6));
        NavmeshHierarchyPathfinder finder;
        NavmeshPathfinder polyanya;
        const auto nodes = b.hierarchy.nodes();
        ASSERT_GT(nodes.size(), 2u);
        for (int q = 0; q < 12; ++q) {
            const auto& a = q < 3 && !b.hierarchy.landmarks().empty() ? nodes[b.hierarchy.landmarks()[std::size_t(q) % b.hierarchy.landmarks().size()]]
                                                                      : nodes[rng() % nodes.size()];
            const auto& c = nodes[rng() % nodes.size()];
            (void)expect_exact(b, finder, polyanya, NavPoint{double(a.x), double(a.y)}, NavPoint{double(c.x), double(c.y)});
            (void)expect_exact(b, finder, polyanya, random_point(rng, b.map), NavPoint{double(a.x), double(a.y)});
        }
    }
}

TEST(NavmeshHierarchyLandmarks, LandmarkDistancesAreShortestDistances) {
    // The bound is |d(L, goal) - d(L, v)|, a lower bound of d(v, goal) only if each stored d(L, v) is the
    // shortest distance in the free space (up to float rounding); checked against the reference for every
    // landmark and corner, unreachable ones +infinity. (A corner reached last along a direction into its
    // own blocked cell is the case a search of the graph's taut edges alone gets wrong.)
    std::mt19937 rng(12);
    std::size_t checked = 0, unreachable = 0;
    for (int round = 0; round < 8; ++round) {
        GridMap map = test::random_map(rng, 8 + int(rng() % 6), 8 + int(rng() % 6), 0.1 + 0.08 * double(round % 4));
        if (round % 2 == 1)
            for (int y = 0; y < map.height(); ++y) map.set_passable({map.width() / 2, y}, false);
        const Built b(std::move(map), 192, Method::Landmarks, 6);
        const auto nodes = b.hierarchy.nodes();
        for (std::size_t i = 0; i < b.hierarchy.landmarks().size(); ++i) {
            const auto& l = nodes[b.hierarchy.landmarks()[i]];
            for (std::uint32_t v = 0; v < nodes.size(); ++v) {
                const double expected = reference_cost(b.map, NavPoint{double(l.x), double(l.y)}, NavPoint{double(nodes[v].x), double(nodes[v].y)});
                const double stored = b.hierarchy.landmark_distance(i, v);
                if (expected == kInf) {
                    EXPECT_EQ(stored, kInf);
                    ++unreachable;
                } else {
                    EXPECT_NEAR(stored, expected, 1e-6 * std::max(1.0, expected)) << "landmark " << i << " node " << v;
                }
                ++checked;
            }
        }
    }
    EXPECT_GT(checked, 500u);
    EXPECT_GT(unreachable, 20u);
}

TEST(NavmeshHierarchyLandmarks, AutoChoosesByTheGraph) {
    // Sparse single-cell noise makes a dense visibility graph, 18+ edges per corner (Landmarks); a few walls
    // do not (Contraction).
    std::mt19937 rng(3);
    const Built noise(test::random_map(rng, 96, 96, 0.1));
    EXPECT_EQ(noise.hierarchy.method(), Method::Landmarks);
    EXPECT_EQ(noise.hierarchy.upward_edge_count(), 0u);
    EXPECT_EQ(noise.hierarchy.core_count(), noise.hierarchy.node_count());
    const Built walls(parse({"..........", "..@@@.....", "..@@@..@..", "..........", "@@@@@@@@.@", "...@......"}));
    EXPECT_EQ(walls.hierarchy.method(), Method::Contraction);
    EXPECT_TRUE(walls.hierarchy.landmarks().empty());
    // And queries on the noise agree with Polyanya (the reference is too slow on this size).
    NavmeshHierarchyPathfinder finder;
    NavmeshPathfinder polyanya;
    NavmeshPath path, other;
    for (int q = 0; q < 40; ++q) {
        const auto cells = test::free_cells(rng, noise.map, 2);
        const NavPoint s = cell_centre(cells[0]), t = cell_centre(cells[1]);
        const Status status = finder.find_path(noise.hierarchy, s, t, {}, path);
        EXPECT_EQ(status, polyanya.find_path(noise.mesh, s, t, {}, other));
        if (status == Status::Found) {
            EXPECT_NEAR(path.cost, other.cost, 1e-6 * std::max(1.0, other.cost));
            expect_valid_path(noise.map, path, s, t);
        }
    }
}

TEST(NavmeshHierarchyLandmarks, GoalBehindALandmarkCorner) {
    // A query reads d(L, goal) from the goal's seeds only (the corners it sees that are taut for it). When
    // the goal sees L along a direction into L's blocked cell (not taut there), the straight segment is
    // shorter than any value read so; the bound |d(L, goal) - d(L, v)| must stay a lower bound of the way
    // left. Goals (and starts) diagonally behind each landmark, one or two landmarks (always active).
    std::mt19937 rng(77);
    std::size_t behind = 0;
    for (int round = 0; round < 24; ++round) {
        const Built b(test::random_map(rng, 10 + int(rng() % 12), 10 + int(rng() % 12), 0.08 + 0.04 * double(round % 4)), 192,
                      Method::Landmarks, 1 + std::uint32_t(round % 2));
        NavmeshHierarchyPathfinder finder;
        NavmeshPathfinder polyanya;
        const auto nodes = b.hierarchy.nodes();
        for (const std::uint32_t l : b.hierarchy.landmarks()) {
            const auto& c = nodes[l];
            for (int k = 0; k < 6; ++k) {
                // A free point in the quadrant opposite the blocked cell, seen from L or not.
                const double gx = c.x - c.sx * (0.5 + double(rng() % 4)), gy = c.y - c.sy * (0.5 + double(rng() % 4));
                if (!free_point(b.map, gx, gy)) continue;
                ++behind;
                const NavPoint goal{gx, gy}, start = random_point(rng, b.map);
                (void)expect_exact(b, finder, polyanya, start, goal);
                (void)expect_exact(b, finder, polyanya, goal, start);
            }
        }
    }
    EXPECT_GT(behind, 60u);
}

TEST(NavmeshHierarchyLandmarks, FirstTurnsFarFromTheStraightLine) {
    // The start's sweep sets aside the parts of the map whose corners are keyed (distance from the start
    // plus the straight line on to the goal) above the heap's threshold, by a lower bound, and goes on
    // with them when the search gets there: a path whose first turn lies far off the straight line (or
    // behind the start) needs those parts, at the right moment. Many queries on cluttered maps, against
    // Polyanya; counted: paths whose first turning point is keyed above |start goal| plus the band.
    std::mt19937 rng(77);
    int far_first_turns = 0, found = 0;
    for (int round = 0; round < 120; ++round) {
        const double density = 0.1 + 0.05 * double(round % 6);
        const Built b(test::random_map(rng, 8 + int(rng() % 28), 8 + int(rng() % 28), density), 192, Method::Landmarks,
                      std::uint32_t(round % 3) * 4);
        NavmeshHierarchyPathfinder finder;
        NavmeshPathfinder polyanya;
        for (int q = 0; q < 40; ++q) {
            const NavPoint s = random_point(rng, b.map), t = random_point(rng, b.map);
            if (!free_point(b.map, s.x, s.y) || !free_point(b.map, t.x, t.y)) continue;
            SCOPED_TRACE("round " + std::to_string(round) + " from (" + std::to_string(s.x) + "," + std::to_string(s.y) + ") to (" +
                         std::to_string(t.x) + "," + std::to_string(t.y) + ")");
            NavmeshPath path, other;
            const Status status = finder.find_path(b.hierarchy, s, t, {}, path);
            const Status expected = polyanya.find_path(b.mesh, s, t, {}, other);
            ASSERT_EQ(status, expected);
            if (status != Status::Found) continue;
            ++found;
            ASSERT_NEAR(path.cost, other.cost, 1e-6 * std::max(1.0, other.cost));
            if (path.points.size() < 3) continue;
            const NavPoint u = path.points[1];
            const double straight = std::hypot(s.x - t.x, s.y - t.y);
            const double key = std::hypot(u.x - s.x, u.y - s.y) + std::hypot(t.x - u.x, t.y - u.y);
            if (key >= straight + std::max(1.0, 0.002 * straight)) ++far_first_turns;
        }
    }
    EXPECT_GT(found, 2800);
    EXPECT_GT(far_first_turns, 280);
}

TEST(NavmeshHierarchyLandmarks, DetoursFarLongerThanTheStraightLine) {
    // The A* keeps keys below |start goal| plus a band (0.2%, at least 1) in its heap and the rest unordered,
    // taking the next band when the heap runs dry: a path around long walls (a serpentine, gaps at
    // alternate ends) is many bands longer than the straight line, and every band must be taken in order.
    std::mt19937 rng(5);
    int long_detours = 0;
    for (int round = 0; round < 12; ++round) {
        GridMap map = test::random_map(rng, 16 + int(rng() % 10), 16 + int(rng() % 10), 0.03 + 0.03 * double(round % 3));
        for (int wy = 3; wy + 1 < map.height(); wy += 4)
            for (int x = 0; x < map.width(); ++x) map.set_passable({x, wy}, (wy / 4) % 2 == 0 ? x >= map.width() - 2 : x < 2);
        const Built b(std::move(map), 192, Method::Landmarks, std::uint32_t(round % 3) * 4);
        NavmeshHierarchyPathfinder finder;
        NavmeshPathfinder polyanya;
        for (int q = 0; q < 12; ++q) {
            const NavPoint s = random_point(rng, b.map), t = random_point(rng, b.map);
            const double c = expect_exact(b, finder, polyanya, s, t);
            const double straight = std::hypot(s.x - t.x, s.y - t.y);
            if (c < kInf && c > straight + 6 * std::max(1.0, 0.002 * straight)) ++long_detours;
        }
    }
    EXPECT_GT(long_detours, 30);
}

// The landmark query keeps the keys below its threshold in buckets, the current one in a heap: checked
// after every single step of queries on sparse noise and on lattices of blocked cells (where keys tie and
// buckets fill), so that corners are settled in the order of their keys. (A bucket poured into the heap
// unordered still gives paths within the tests' tolerance, at most a bucket's width longer, so only this
// check catches it; the lattices do, the noise maps alone did not.)
TEST(NavmeshHierarchyLandmarks, TheBandKeepsItsKeysInOrder) {
    std::mt19937 rng(77);
    int steps = 0, queries = 0;
    std::size_t later = 0;
    const int rounds = test::kSanitizedBuild ? 3 : 6;
    for (int round = 0; round < rounds; ++round) {
        // Sparse noise, or a lattice of single blocked cells two apart (with a little noise), where many
        // keys tie and a bucket holds several.
        const bool lattice = round % 3 != 0;
        const int side = lattice ? 40 : 64;
        GridMap map = test::random_map(rng, side, side, lattice ? 0.01 : 0.1);
        if (lattice)
            for (int y = 1; y < side; y += 2)
                for (int x = 1; x < side; x += 2) map.set_passable({x, y}, false);
        const Built b(std::move(map), 192, Method::Landmarks, 8);
        NavmeshHierarchyPathfinder finder;
        NavmeshPath path;
        for (int q = 0; q < 20; ++q) {
            const auto cells = test::free_cells(rng, b.map, 2);
            if (finder.begin(b.hierarchy, cell_centre(cells[0]), cell_centre(cells[1])) != Status::InProgress) continue;
            ++queries;
            Status s = Status::InProgress;
            while (s == Status::InProgress) {
                s = finder.step(1);
                ++steps;
                ASSERT_TRUE(detail::NavmeshHierarchyInspector::band_in_order(finder, later)) << "after step " << steps;
            }
            EXPECT_EQ(finder.finish(path), Status::Found);
        }
    }
    EXPECT_GT(queries, 12 * rounds);
    EXPECT_GT(steps, 200 * rounds);
    EXPECT_GT(later, 200u * std::size_t(rounds));  // entries were waiting in later buckets
}
