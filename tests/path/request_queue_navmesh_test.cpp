// NavmeshRequestQueue and NavmeshHierarchyRequestQueue: every result equals a direct find_path with the
// same options (status, turning points, cost, expansions), found costs equal the independent
// visibility-graph reference (navmesh_reference.hpp), the per-update budget is never exceeded, and a mesh
// rebuilt from its changed map restarts running searches and re-queues finished ones.
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/navmesh.hpp>
#include <gameplan/path/navmesh_hierarchy.hpp>
#include <gameplan/path/request_queue_navmesh.hpp>

#include <random_grid.hpp>

#include "navmesh_reference.hpp"

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;
namespace navref = gameplan::test::navref;

namespace {

using test::random_map;

NavPoint random_free_point(std::mt19937& rng, const GridMap& map) { return cell_centre(test::free_cells(rng, map, 1)[0]); }

// Requests of every kind: random cell centres, a few points outside the free space (InvalidQuery), a few
// with a budget of 3 expansions (BudgetExhausted unless found within 3), random priorities.
std::vector<NavmeshRequest> make_requests(std::mt19937& rng, const GridMap& map, int count) {
    std::vector<NavmeshRequest> requests;
    for (int i = 0; i < count; ++i) {
        NavmeshRequest r;
        r.start = random_free_point(rng, map);
        r.goal = random_free_point(rng, map);
        if (i % 11 == 4) r.goal = {-3.0, 2.5};  // off the map
        if (i % 9 == 2) r.options.budget.max_expansions = 3;
        r.priority = int(rng() % 3);
        requests.push_back(r);
    }
    return requests;
}

// Runs every request through `queue` with `per_update` expansions per update; `on_frame(done, running)`
// runs before each update with the number of results done and not taken and of searches running, and
// returns whether results may be taken yet. Each is taken once done into the request's place.
template <class Queue, class OnFrame>
std::vector<NavmeshRequestResult> run_all(Queue& queue, const std::vector<NavmeshRequest>& requests, std::uint64_t per_update,
                                          OnFrame&& on_frame, QueueUpdateStats& totals) {
    std::vector<PathHandle> handles;
    for (const NavmeshRequest& r : requests) handles.push_back(queue.submit(r));
    EXPECT_EQ(queue.pending_count(), requests.size());
    std::vector<NavmeshRequestResult> results(requests.size());
    std::vector<bool> taken(requests.size(), false);
    std::size_t count = 0;
    for (int frame = 0; frame < 100000 && count < requests.size(); ++frame) {
        std::size_t done = 0;
        for (std::size_t i = 0; i < handles.size(); ++i) done += !taken[i] && queue.state(handles[i]) == RequestState::Done;
        const bool take = on_frame(done, queue.running_count());
        const QueueUpdateStats s = queue.update(per_update);
        EXPECT_LE(s.expanded, per_update);
        totals.expanded += s.expanded;
        totals.restarted += s.restarted;
        totals.requeued += s.requeued;
        if (!take) continue;
        for (std::size_t i = 0; i < handles.size(); ++i) {
            if (taken[i] || queue.state(handles[i]) != RequestState::Done) continue;
            EXPECT_TRUE(queue.take(handles[i], results[i]));
            EXPECT_EQ(queue.state(handles[i]), RequestState::Unknown);  // stale after take
            taken[i] = true;
            ++count;
        }
    }
    EXPECT_EQ(count, requests.size());
    return results;
}

// Every result against a direct call of `Finder` on `space`; found paths are legal on `map`, and every
// `reference_every`-th found cost (none if 0) equals the reference's.
template <class Finder, class Space>
void expect_direct_and_reference(const Space& space, const GridMap& map, const std::vector<NavmeshRequest>& requests,
                                 const std::vector<NavmeshRequestResult>& results, bool exact_expansions,
                                 int reference_every) {
    Finder direct;
    NavmeshPath path;
    int found = 0, budget = 0, invalid = 0;
    for (std::size_t i = 0; i < requests.size(); ++i) {
        SCOPED_TRACE("request " + std::to_string(i));
        const NavmeshRequest& r = requests[i];
        const Status st = direct.find_path(space, r.start, r.goal, r.options, path);
        EXPECT_EQ(results[i].status, st);
        EXPECT_EQ(results[i].limit, direct.budget_limit());
        EXPECT_EQ(results[i].path.points, path.points);
        EXPECT_EQ(results[i].map_version, map.version());
        if (exact_expansions) {
            EXPECT_EQ(results[i].expanded, direct.stats().expanded);
        } else {
            EXPECT_GE(results[i].expanded, direct.stats().expanded);  // restarts and re-runs included
        }
        if (st == Status::Found) {
            ++found;
            EXPECT_EQ(results[i].path.cost, path.cost);
            navref::expect_valid_path(map, results[i].path, r.start, r.goal);
            if (reference_every > 0 && found % reference_every == 0) {  // (quadratic in the map's corners)
                const double expected = navref::reference_cost(map, r.start, r.goal);
                EXPECT_NEAR(results[i].path.cost, expected, 1e-6 * std::max(1.0, expected));
            }
        }
        budget += st == Status::BudgetExhausted;
        invalid += st == Status::InvalidQuery;
    }
    EXPECT_GT(found, int(requests.size()) / 2);
    EXPECT_GT(budget, 0);
    EXPECT_GT(invalid, 0);
}

}  // namespace

TEST(NavmeshRequestQueue, ResultsEqualDirectCallsAndTheReference) {
    std::mt19937 rng(21);
    const GridMap map = random_map(rng, 32, 24, 0.25);
    Navmesh mesh;
    ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
    const std::vector<NavmeshRequest> requests = make_requests(rng, map, 60);
    QueueOptions qo;
    qo.lanes = 3;
    qo.aging_frames = 4;
    NavmeshRequestQueue queue(mesh, qo);
    QueueUpdateStats totals;
    const auto results = run_all(queue, requests, 7, [](std::size_t, std::size_t) { return true; }, totals);
    EXPECT_GT(totals.expanded, 60u);
    expect_direct_and_reference<NavmeshPathfinder>(mesh, map, requests, results, true, 5);
}

TEST(NavmeshHierarchyRequestQueue, ResultsEqualDirectCallsAndTheReference) {
    for (const auto method : {NavmeshHierarchy::Method::Contraction, NavmeshHierarchy::Method::Landmarks}) {
        SCOPED_TRACE(method == NavmeshHierarchy::Method::Contraction ? "contraction" : "landmarks");
        std::mt19937 rng(22);
        const GridMap map = random_map(rng, 32, 24, 0.2);
        Navmesh mesh;
        ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
        NavmeshHierarchy hierarchy;
        hierarchy.set_method(method);
        ASSERT_EQ(hierarchy.build(mesh), JpsSupport::Ok);
        ASSERT_EQ(hierarchy.method(), method);
        const std::vector<NavmeshRequest> requests = make_requests(rng, map, 60);
        QueueOptions qo;
        qo.lanes = 2;
        NavmeshHierarchyRequestQueue queue(hierarchy, qo);
        QueueUpdateStats totals;
        const auto results = run_all(queue, requests, 5, [](std::size_t, std::size_t) { return true; }, totals);
        EXPECT_GT(totals.expanded, 60u);
        expect_direct_and_reference<NavmeshHierarchyPathfinder>(hierarchy, map, requests, results, true, 5);
    }
}

TEST(NavmeshHierarchyRequestQueue, AnUnbuiltHierarchyAnswersInvalidQuery) {
    NavmeshHierarchy hierarchy;
    NavmeshHierarchyRequestQueue queue(hierarchy);
    const PathHandle h = queue.submit(NavmeshRequest{{0.5, 0.5}, {2.5, 0.5}, {}, 0});
    (void)queue.update(10);
    ASSERT_EQ(queue.state(h), RequestState::Done);
    NavmeshRequestResult r;
    ASSERT_TRUE(queue.take(h, r));
    EXPECT_EQ(r.status, Status::InvalidQuery);
    EXPECT_TRUE(r.path.points.empty());
}

// While requests run, a cell no request uses is blocked and the mesh (and the hierarchy) rebuilt in place:
// running searches restart, finished results not yet taken are searched again, and every result equals a
// direct call on the new mesh.
TEST(NavmeshRequestQueue, RebuildingTheMeshRestartsAndRequeues) {
    std::mt19937 rng(23);
    GridMap map = random_map(rng, 48, 36, 0.2);
    Navmesh mesh;
    ASSERT_EQ(mesh.build(map), NavmeshBuild::Ok);
    NavmeshHierarchy hierarchy;
    ASSERT_EQ(hierarchy.build(mesh), JpsSupport::Ok);
    const std::vector<NavmeshRequest> requests = make_requests(rng, map, 30);
    QueueOptions qo;
    qo.lanes = 2;
    NavmeshRequestQueue queue(mesh, qo);
    NavmeshHierarchyRequestQueue hqueue(hierarchy, qo);
    // The change, once per run: when some results are done (not taken) and some searches run, a cell no
    // request uses is blocked and the mesh and the hierarchy are rebuilt. Results are taken only after it.
    bool changed = false;
    const auto change = [&](std::size_t done, std::size_t running) {
        if (changed || done == 0 || running == 0) return changed;
        for (int k = 0; k < 100000 && !changed; ++k) {
            const GridPoint p{int(rng() % 48u), int(rng() % 36u)};
            if (!map.passable(p)) continue;
            bool used = false;
            for (const NavmeshRequest& r : requests) used = used || r.start == cell_centre(p) || r.goal == cell_centre(p);
            if (used) continue;
            map.set_passable(p, false);
            EXPECT_EQ(mesh.build(map), NavmeshBuild::Ok);
            EXPECT_EQ(hierarchy.build(mesh), JpsSupport::Ok);
            changed = true;
        }
        return changed;
    };
    QueueUpdateStats totals;
    const auto results = run_all(queue, requests, 2, change, totals);
    EXPECT_TRUE(changed);
    EXPECT_GT(totals.restarted, 0u);
    EXPECT_GT(totals.requeued, 0u);
    expect_direct_and_reference<NavmeshPathfinder>(mesh, map, requests, results, false, 0);
    // The hierarchy's queue, made before that change, sees it at its first update; then a second change.
    changed = false;
    QueueUpdateStats htotals;
    const auto hresults = run_all(hqueue, requests, 2, change, htotals);
    EXPECT_TRUE(changed);
    EXPECT_GT(htotals.restarted, 0u);
    EXPECT_GT(htotals.requeued, 0u);
    expect_direct_and_reference<NavmeshHierarchyPathfinder>(hierarchy, map, requests, hresults, false, 0);
}
