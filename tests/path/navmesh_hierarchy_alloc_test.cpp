// Proves "no heap allocation per query after warm-up" for NavmeshHierarchyPathfinder with the counting operator
// new, in both the one-call and the resumable form.
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/navmesh.hpp>
#include <gameplan/path/navmesh_hierarchy.hpp>

#include <alloc_counter.hpp>

#include <random>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;

TEST(NavmeshHierarchyAlloc, NoAllocationPerQueryAfterWarmUp) {
    std::mt19937 rng(8);
    GridMap map;
    ASSERT_EQ(map.reset(160, 120), GridSizeCheck::Ok);
    std::uniform_real_distribution<double> u(0, 1);
    for (int y = 0; y < 120; ++y)
        for (int x = 0; x < 160; ++x)
            if (u(rng) < 0.25) map.set_passable({x, y}, false);
    Navmesh mesh;
    ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
    NavmeshHierarchy hierarchy;
    ASSERT_EQ(hierarchy.build(mesh), JpsSupport::Ok);
    std::vector<NavPoint> points;
    while (points.size() < 300) {
        const GridPoint p{int(rng() % 160u), int(rng() % 120u)};
        if (map.passable(p)) points.push_back(cell_centre(p));
    }
    NavmeshHierarchyPathfinder finder;
    NavmeshPath path;
    // Warm-up: the same calls as below.
    const auto sliced = [&](std::size_t i) {
        if (finder.begin(hierarchy, points[i], points[i + 1]) == Status::InProgress)
            while (finder.step(4) == Status::InProgress) {
            }
        return finder.finish(path) == Status::Found;
    };
    for (std::size_t i = 0; i + 1 < points.size(); ++i) {
        (void)finder.find_path(hierarchy, points[i], points[i + 1], {}, path);
        (void)sliced(i);
    }
    std::uint64_t found = 0;
    gameplan::test::AllocationScope scope;
    for (std::size_t i = 0; i + 1 < points.size(); ++i) {
        found += finder.find_path(hierarchy, points[i], points[i + 1], {}, path) == Status::Found;
        found += sliced(i);
    }
    EXPECT_EQ(scope.count(), 0u) << "allocations during " << found << " found paths";
    EXPECT_GT(found, 300u);
}

TEST(NavmeshHierarchyAlloc, ReserveMakesTheFirstQueryAllocationFree) {
    GridMap map;
    ASSERT_EQ(map.reset(64, 64), GridSizeCheck::Ok);
    for (int y = 4; y < 60; ++y) map.set_passable({32, y}, false);
    Navmesh mesh;
    ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
    NavmeshHierarchy hierarchy;
    ASSERT_EQ(hierarchy.build(mesh), JpsSupport::Ok);
    NavmeshHierarchyPathfinder finder;
    finder.reserve(hierarchy, 1u << 12);
    NavmeshPath path;
    path.points.reserve(64);
    gameplan::test::AllocationScope scope;
    EXPECT_EQ(finder.find_path(hierarchy, {2.5, 30.5}, {60.5, 30.5}, {}, path), Status::Found);
    EXPECT_EQ(scope.count(), 0u);
    EXPECT_EQ(path.points.size(), 4u);  // start, the wall's two ends, goal
}
