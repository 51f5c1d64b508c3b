// Proves "no heap allocation per query after warm-up" for HPA* queries (with and without smoothing and
// distance tables), smoothing, any-angle smoothing and Theta* (also under per-query costs, sliced), with the
// counting operator new.
#include <gameplan/path/area_filter.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/hpa.hpp>
#include <gameplan/path/penalty_layer.hpp>
#include <gameplan/path/smoothing.hpp>
#include <gameplan/path/theta_star.hpp>

#include <alloc_counter.hpp>

#include <random>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;

namespace {
GridMap random_map(std::mt19937& rng, int w, int h, double density, bool terrain) {
    GridMap map;
    EXPECT_EQ(map.reset(w, h), GridSizeCheck::Ok);
    std::uniform_real_distribution<double> u(0, 1);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            if (u(rng) < density) map.set_passable({x, y}, false);
            if (terrain) map.set_cost({x, y}, 1 + static_cast<std::uint32_t>(rng() % 4));
        }
    return map;
}

std::vector<GridPoint> passable_cells(std::mt19937& rng, const GridMap& map, int count) {
    std::vector<GridPoint> cells;
    while (static_cast<int>(cells.size()) < count) {
        const GridPoint p{static_cast<int>(rng() % static_cast<unsigned>(map.width())),
                          static_cast<int>(rng() % static_cast<unsigned>(map.height()))};
        if (map.passable(p)) cells.push_back(p);
    }
    return cells;
}

// A hierarchy of 16-cell clusters over `map`, with or without distance tables.
void build_16(HierarchicalMap& h, const GridMap& map, bool tables) {
    HierarchyOptions options;
    options.cluster_size = 16;
    options.distance_tables = tables;
    ASSERT_EQ(h.build(map, {}, options), HierarchyBuild::Ok);
}
}  // namespace

TEST(HpaAlloc, QueriesAndSmoothingAllocateNothingAfterWarmUp) {
    std::mt19937 rng(4);
    for (bool terrain : {false, true})
        for (bool tables : {true, false}) {
            const GridMap map = random_map(rng, 150, 110, 0.2, terrain);
            HierarchicalMap h;
            ASSERT_NO_FATAL_FAILURE(build_16(h, map, tables));
            const std::vector<GridPoint> cells = passable_cells(rng, map, 120);
            HpaPathfinder finder;
            GridPath path;
            HpaQueryOptions smooth;
            smooth.smooth = true;
            const auto run_all = [&] {
                std::uint64_t found = 0;
                for (std::size_t i = 0; i + 1 < cells.size(); ++i) {
                    found += finder.find_path(h, cells[i], cells[i + 1], HpaQueryOptions{}, path) == Status::Found;
                    found += finder.find_path(h, cells[i], cells[i + 1], smooth, path) == Status::Found;
                }
                return found;
            };
            (void)run_all();  // warm-up: every buffer reaches its final size
            test::AllocationScope scope;
            const std::uint64_t found = run_all();
            EXPECT_EQ(scope.count(), 0u) << "terrain " << terrain << " tables " << tables;
            EXPECT_GT(found, 150u);
        }
}

// reserve sizes a query object for a hierarchy: its first query (refined by JPS or, with terrain, by A*;
// with and without distance tables; smoothed or not) allocates nothing, where the same first query on a
// fresh object does (what reserve saves), and finds the same path.
TEST(HpaAlloc, ReserveMakesTheFirstQueryAllocationFree) {
    std::mt19937 rng(21);
    for (bool terrain : {false, true})
        for (bool tables : {true, false}) {
            const GridMap map = random_map(rng, 140, 100, 0.2, terrain);
            HierarchicalMap h;
            ASSERT_NO_FATAL_FAILURE(build_16(h, map, tables));
            const std::vector<GridPoint> cells = passable_cells(rng, map, 12);
            GridPath path;
            path.cells.reserve(4096);
            for (std::size_t i = 0; i + 1 < cells.size(); i += 2) {
                HpaQueryOptions query;
                query.smooth = i % 4 == 0;
                const auto first_query = [&](HpaPathfinder& finder) {
                    test::AllocationScope scope;
                    (void)finder.find_path(h, cells[i], cells[i + 1], query, path);
                    return scope.count();
                };
                HpaPathfinder fresh;
                EXPECT_GT(first_query(fresh), 0u);
                const double cost = path.cost;
                HpaPathfinder reserved;
                reserved.reserve(h);
                const std::size_t held = reserved.memory_bytes();
                EXPECT_EQ(first_query(reserved), 0u) << "terrain " << terrain << " tables " << tables << " query " << i;
                EXPECT_EQ(path.cost, cost);
                EXPECT_EQ(reserved.memory_bytes(), held);  // nothing grew
            }
        }
}

TEST(HpaAlloc, SlicedQueriesAllocateNothingAfterWarmUp) {
    // begin / step(slice) / finish, refined (JPS windows on this map: 8-connected, no corner cutting,
    // uniform costs) and unrefined, with budgets that run out.
    std::mt19937 rng(12);
    const GridMap map = random_map(rng, 160, 120, 0.2, false);
    HierarchyOptions options;
    options.cluster_size = 16;
    HierarchicalMap h;
    ASSERT_EQ(h.build(map, {}, options), HierarchyBuild::Ok);
    const std::vector<GridPoint> cells = passable_cells(rng, map, 100);
    HpaPathfinder finder;
    GridPath path;
    HpaQueryOptions plain;
    HpaQueryOptions unrefined;
    unrefined.refine = false;
    HpaQueryOptions tight;
    tight.budget.max_expansions = 5;
    const auto run_all = [&] {
        std::uint64_t found = 0;
        for (std::size_t i = 0; i + 1 < cells.size(); ++i)
            for (HpaQueryOptions* query : {&plain, &unrefined, &tight}) {
                Status status = finder.begin(h, cells[i], cells[i + 1], *query);
                while (status == Status::InProgress) status = finder.step(4);
                found += finder.finish(path) == Status::Found;
            }
        return found;
    };
    (void)run_all();  // warm-up
    test::AllocationScope scope;
    const std::uint64_t found = run_all();
    EXPECT_EQ(scope.count(), 0u);
    EXPECT_GT(found, 150u);
}

TEST(HpaAlloc, SmoothingAndThetaStarAllocateNothing) {
    std::mt19937 rng(6);
    const GridMap map = random_map(rng, 120, 90, 0.15, false);
    const std::vector<GridPoint> cells = passable_cells(rng, map, 60);
    HierarchicalMap h;
    ASSERT_EQ(h.build(map, 12), HierarchyBuild::Ok);
    HpaPathfinder finder;
    ThetaStar theta;
    theta.reserve(map);
    GridPath path, theta_path;
    path.cells.reserve(4096);
    theta_path.cells.reserve(4096);
    std::vector<GridPath> raw(cells.size());
    for (std::size_t i = 0; i + 1 < cells.size(); ++i) {
        (void)finder.find_path(h, cells[i], cells[i + 1], HpaQueryOptions{}, raw[i]);
        raw[i].cells.reserve(raw[i].cells.size() + 1);
    }
    (void)theta.find_path(map, cells[0], cells[1], theta_path);  // warm-up of the open list
    test::AllocationScope scope;
    std::uint64_t found = 0;
    for (std::size_t i = 0; i + 1 < cells.size(); ++i) {
        path.cells.assign(raw[i].cells.begin(), raw[i].cells.end());
        path.cost = raw[i].cost;
        smooth_path(map, path);
        path.cells.assign(raw[i].cells.begin(), raw[i].cells.end());
        (void)smooth_any_angle(map, path);
        found += theta.find_path(map, cells[i], cells[i + 1], theta_path) == Status::Found;
    }
    EXPECT_EQ(scope.count(), 0u);
    EXPECT_GT(found, 40u);
}

TEST(HpaAlloc, ThetaStarWithCostsAllocatesNothingAfterWarmUp) {
    // Terrain, areas at different multipliers (one forbidden) and two weighted layers; find_path and the
    // sliced form.
    std::mt19937 rng(16);
    const GridMap map = random_map(rng, 100, 80, 0.12, true);
    const std::vector<GridPoint> cells = passable_cells(rng, map, 50);
    AreaMap areas(map);
    PenaltyLayer danger(map), crowd(map);
    for (int y = 0; y < map.height(); ++y)
        for (int x = 0; x < map.width(); ++x) {
            (void)areas.set({x, y}, static_cast<std::uint32_t>((x / 10 + y / 10) % 3));
            if ((x * 7 + y * 3) % 11 == 0) (void)danger.set({x, y}, 1.5f);
            if ((x + 2 * y) % 13 == 0) (void)crowd.set({x, y}, 0.5f);
        }
    AreaFilter filter;
    (void)filter.set_multiplier(1, 2.0);
    (void)filter.set_multiplier(2, 0.5);
    const CostLayer layers[] = {{&danger, 1.0}, {&crowd, 2.0}};
    ThetaStarOptions options;
    options.areas = &areas;
    options.filter = &filter;
    options.layers = layers;
    ThetaStar theta;
    GridPath path;
    const auto run_all = [&] {
        std::uint64_t found = 0;
        for (std::size_t i = 0; i + 1 < cells.size(); ++i) {
            found += theta.find_path(map, cells[i], cells[i + 1], options, path) == Status::Found;
            if (theta.begin(map, cells[i + 1], cells[i], options) == Status::InProgress)
                while (theta.step(7) == Status::InProgress) {
                }
            found += theta.finish(path) == Status::Found;
        }
        return found;
    };
    (void)run_all();  // warm-up
    test::AllocationScope scope;
    const std::uint64_t found = run_all();
    EXPECT_EQ(scope.count(), 0u);
    EXPECT_GT(found, 60u);
}

TEST(HpaAlloc, CostProfileQueriesAllocateNothingAfterWarmUp) {
    // A hierarchy built for a cost profile (areas + filter + a weighted layer): queries, refined (A*
    // windows with the profile) and smoothed with the profile, allocate nothing after warm-up.
    std::mt19937 rng(21);
    const GridMap map = random_map(rng, 140, 100, 0.15, true);
    AreaMap areas(map);
    PenaltyLayer layer(map);
    for (int y = 0; y < map.height(); ++y)
        for (int x = 0; x < map.width(); ++x) {
            (void)areas.set({x, y}, static_cast<std::uint32_t>(rng() % 3));
            if (rng() % 4 == 0) (void)layer.set({x, y}, static_cast<float>(rng() % 5));
        }
    AreaFilter filter;
    (void)filter.set_multiplier(1, 2.5);
    (void)filter.set_multiplier(2, 0.5);
    const CostLayer layers[] = {{&layer, 0.75}};
    HpaQueryOptions query;
    query.areas = &areas;
    query.filter = &filter;
    query.layers = layers;
    HierarchyOptions options;
    options.cluster_size = 12;
    HierarchicalMap h;
    ASSERT_EQ(h.build(map, query, options), HierarchyBuild::Ok);
    const std::vector<GridPoint> cells = passable_cells(rng, map, 80);
    HpaPathfinder finder;
    GridPath path;
    HpaQueryOptions smooth = query;
    smooth.smooth = true;
    const auto run_all = [&] {
        std::uint64_t found = 0;
        for (std::size_t i = 0; i + 1 < cells.size(); ++i) {
            found += finder.find_path(h, cells[i], cells[i + 1], query, path) == Status::Found;
            found += finder.find_path(h, cells[i], cells[i + 1], smooth, path) == Status::Found;
        }
        return found;
    };
    (void)run_all();  // warm-up
    test::AllocationScope scope;
    const std::uint64_t found = run_all();
    EXPECT_EQ(scope.count(), 0u);
    EXPECT_GT(found, 100u);
}
