// Proves "no heap allocation per query after warm-up" for NavmeshPathfinder with the counting operator
// new, in both the one-call and the resumable form.
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/navmesh.hpp>

#include <alloc_counter.hpp>

#include <random>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;

TEST(NavmeshAlloc, NoAllocationPerQueryAfterWarmUp) {
    std::mt19937 rng(8);
    GridMap map;
    ASSERT_EQ(map.reset(160, 120), GridSizeCheck::Ok);
    std::uniform_real_distribution<double> u(0, 1);
    for (int y = 0; y < 120; ++y)
        for (int x = 0; x < 160; ++x)
            if (u(rng) < 0.25) map.set_passable({x, y}, false);
    Navmesh mesh;
    ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
    std::vector<NavPoint> points;
    while (points.size() < 300) {
        const GridPoint p{int(rng() % 160u), int(rng() % 120u)};
        if (map.passable(p)) points.push_back(cell_centre(p));
    }
    NavmeshPathfinder finder;
    NavmeshPath path;
    // Warm-up: the same calls as below (a search sliced into small steps may keep more nodes than the
    // same search run at once, as it does not expand a corridor's single successors straight away).
    const auto sliced = [&](std::size_t i) {
        if (finder.begin(mesh, points[i], points[i + 1]) == Status::InProgress)
            while (finder.step(4) == Status::InProgress) {
            }
        return finder.finish(path) == Status::Found;
    };
    for (std::size_t i = 0; i + 1 < points.size(); ++i) {
        (void)finder.find_path(mesh, points[i], points[i + 1], {}, path);
        (void)sliced(i);
    }
    std::uint64_t found = 0;
    gameplan::test::AllocationScope scope;
    for (std::size_t i = 0; i + 1 < points.size(); ++i) {
        found += finder.find_path(mesh, points[i], points[i + 1], {}, path) == Status::Found;
        found += sliced(i);
    }
    EXPECT_EQ(scope.count(), 0u) << "allocations during " << found << " found paths";
    EXPECT_GT(found, 300u);
}

TEST(NavmeshAlloc, ReserveMakesTheFirstQueryAllocationFree) {
    GridMap map;
    ASSERT_EQ(map.reset(64, 64), GridSizeCheck::Ok);
    for (int y = 4; y < 60; ++y) map.set_passable({32, y}, false);
    Navmesh mesh;
    ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
    NavmeshPathfinder finder;
    finder.reserve(mesh, 1u << 12);
    NavmeshPath path;
    path.points.reserve(64);
    gameplan::test::AllocationScope scope;
    EXPECT_EQ(finder.find_path(mesh, {2.5, 30.5}, {60.5, 30.5}, {}, path), Status::Found);
    EXPECT_EQ(scope.count(), 0u);
    EXPECT_EQ(path.points.size(), 4u);
}
