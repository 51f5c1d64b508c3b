// Proves "no heap allocation per query after warm-up" for the two navmesh searches, NavmeshPathfinder
// (Polyanya) and NavmeshHierarchyPathfinder, with the counting operator new, in both the one-call and the
// resumable form, and for their request queues (submit, update, take).
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/navmesh.hpp>
#include <gameplan/path/navmesh_hierarchy.hpp>
#include <gameplan/path/request_queue_navmesh.hpp>

#include <alloc_counter.hpp>
#include <random_grid.hpp>

#include "queue_round.hpp"

#include <random>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;

namespace {

// Random obstacles on a 160 x 120 map; `build` gives what the search runs on: the mesh or a hierarchy built from it.
template <class Finder, class Build>
void expect_no_allocation_per_query(Build&& build) {
    std::mt19937 rng(8);
    const GridMap map = test::random_map(rng, 160, 120, 0.25);
    Navmesh mesh;
    ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
    const auto& searched = build(mesh);
    std::vector<NavPoint> points;
    while (points.size() < 300) {
        const GridPoint p{int(rng() % 160u), int(rng() % 120u)};
        if (map.passable(p)) points.push_back(cell_centre(p));
    }
    Finder finder;
    NavmeshPath path;
    // Warm-up: the same calls as below.
    const auto sliced = [&](std::size_t i) {
        if (finder.begin(searched, points[i], points[i + 1]) == Status::InProgress)
            while (finder.step(4) == Status::InProgress) {
            }
        return finder.finish(path) == Status::Found;
    };
    for (std::size_t i = 0; i + 1 < points.size(); ++i) {
        (void)finder.find_path(searched, points[i], points[i + 1], {}, path);
        (void)sliced(i);
    }
    std::uint64_t found = 0;
    gameplan::test::AllocationScope scope;
    for (std::size_t i = 0; i + 1 < points.size(); ++i) {
        found += finder.find_path(searched, points[i], points[i + 1], {}, path) == Status::Found;
        found += sliced(i);
    }
    EXPECT_EQ(scope.count(), 0u) << "allocations during " << found << " found paths";
    EXPECT_GT(found, 300u);
}

// A wall across a 64 x 64 map: after reserve(), even the first query allocates nothing.
template <class Finder, class Build>
void expect_reserved_first_query(Build&& build) {
    GridMap map;
    ASSERT_EQ(map.reset(64, 64), GridSizeCheck::Ok);
    for (int y = 4; y < 60; ++y) map.set_passable({32, y}, false);
    Navmesh mesh;
    ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
    const auto& searched = build(mesh);
    Finder finder;
    finder.reserve(searched, 1u << 12);
    NavmeshPath path;
    path.points.reserve(64);
    gameplan::test::AllocationScope scope;
    EXPECT_EQ(finder.find_path(searched, {2.5, 30.5}, {60.5, 30.5}, {}, path), Status::Found);
    EXPECT_EQ(scope.count(), 0u);
    EXPECT_EQ(path.points.size(), 4u);  // start, the wall's two ends, goal
}

const Navmesh& the_mesh(const Navmesh& mesh) { return mesh; }

// Builds the hierarchy of `mesh` (kept until the next call; the tests run one at a time).
const NavmeshHierarchy& a_hierarchy(const Navmesh& mesh) {
    static NavmeshHierarchy hierarchy;
    EXPECT_EQ(hierarchy.build(mesh), JpsSupport::Ok);
    return hierarchy;
}

// The same, forced to the goal-directed search over the whole graph (landmarks).
const NavmeshHierarchy& a_landmark_hierarchy(const Navmesh& mesh) {
    static NavmeshHierarchy hierarchy;
    hierarchy.set_method(NavmeshHierarchy::Method::Landmarks);
    EXPECT_EQ(hierarchy.build(mesh), JpsSupport::Ok);
    EXPECT_FALSE(hierarchy.landmarks().empty());
    return hierarchy;
}

// A queue over `searched` on a 120 x 90 map with random obstacles: after warm-up (reserve, then one round
// of the same requests), a round of submitting, updating and taking into the same results allocates nothing.
template <class Queue, class Build>
void expect_queue_allocates_nothing(Build&& build) {
    std::mt19937 rng(6);
    const GridMap map = test::random_map(rng, 120, 90, 0.25);
    Navmesh mesh;
    ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
    const auto& searched = build(mesh);
    std::vector<NavmeshRequest> requests;
    while (requests.size() < 40) {
        const GridPoint s{int(rng() % 120u), int(rng() % 90u)}, g{int(rng() % 120u), int(rng() % 90u)};
        if (map.passable(s) && map.passable(g)) requests.push_back(NavmeshRequest{cell_centre(s), cell_centre(g), {}, int(rng() % 3)});
    }
    QueueOptions qo;
    qo.lanes = 3;
    Queue queue(searched, qo);
    queue.reserve(requests.size(), 256);
    std::vector<NavmeshRequestResult> out(5);
    for (NavmeshRequestResult& r : out) r.path.points.reserve(256);
    const std::uint64_t warm = test::run_queue_round(queue, requests, out, 16);
    EXPECT_GT(warm, 30u);
    gameplan::test::AllocationScope scope;
    const std::uint64_t again = test::run_queue_round(queue, requests, out, 16);
    EXPECT_EQ(scope.count(), 0u);
    EXPECT_EQ(again, warm);
}

}  // namespace

TEST(NavmeshAlloc, NoAllocationPerQueryAfterWarmUp) { expect_no_allocation_per_query<NavmeshPathfinder>(the_mesh); }

TEST(NavmeshAlloc, ReserveMakesTheFirstQueryAllocationFree) { expect_reserved_first_query<NavmeshPathfinder>(the_mesh); }

TEST(NavmeshHierarchyAlloc, NoAllocationPerQueryAfterWarmUp) {
    expect_no_allocation_per_query<NavmeshHierarchyPathfinder>(a_hierarchy);
}

TEST(NavmeshHierarchyAlloc, ReserveMakesTheFirstQueryAllocationFree) {
    expect_reserved_first_query<NavmeshHierarchyPathfinder>(a_hierarchy);
}

TEST(NavmeshHierarchyAlloc, LandmarksNoAllocationPerQueryAfterWarmUp) {
    expect_no_allocation_per_query<NavmeshHierarchyPathfinder>(a_landmark_hierarchy);
}

TEST(NavmeshHierarchyAlloc, LandmarksReserveMakesTheFirstQueryAllocationFree) {
    expect_reserved_first_query<NavmeshHierarchyPathfinder>(a_landmark_hierarchy);
}

TEST(NavmeshRequestQueueAlloc, BothQueuesAllocateNothingAfterWarmUp) {
    expect_queue_allocates_nothing<NavmeshRequestQueue>(the_mesh);
    expect_queue_allocates_nothing<NavmeshHierarchyRequestQueue>(a_hierarchy);
    expect_queue_allocates_nothing<NavmeshHierarchyRequestQueue>(a_landmark_hierarchy);
}
