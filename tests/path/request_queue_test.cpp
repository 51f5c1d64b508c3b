// PathRequestQueue: exact frame budgets, order and fairness, cancellation, salted handles, map changes,
// determinism. Costs are checked against the reference Dijkstra, expansion counts against a standalone
// GridPathfinder running the same query.
#include <gameplan/path/islands.hpp>
#include <gameplan/path/request_queue.hpp>

#include "random_grid.hpp"
#include "scale_support.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>
#include <random>
#include <string>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;
using gameplan::test::RefDiagonal;
using gameplan::test::RefGrid;
using gameplan::test::ScaleRule;

namespace {

struct Submitted {
    PathHandle handle;
    PathRequest request;
    std::size_t order;  // submission index
};

/// Runs the queue until every request finished, checking each update's budget. Returns the results in
/// completion order (request index, result).
std::vector<std::pair<std::size_t, PathResult>> drain(PathRequestQueue& queue, std::vector<Submitted>& submitted,
                                                      std::mt19937& rng, std::uint64_t max_budget,
                                                      std::uint64_t* total_expanded = nullptr) {
    std::vector<std::pair<std::size_t, PathResult>> done;
    std::map<std::uint32_t, std::size_t> by_slot;
    std::uint64_t total = 0;
    for (int frame = 0; queue.size() > 0; ++frame) {
        EXPECT_LT(frame, 1000000) << "queue does not drain";
        if (frame >= 1000000) break;
        const std::uint64_t budget = 1 + rng() % max_budget;
        const QueueUpdateStats stats = queue.update(budget);
        EXPECT_LE(stats.expanded, budget) << "frame " << frame;
        // Work-conserving: a budget is left unused only when nothing is left to do.
        if (queue.pending_count() + queue.running_count() > 0) {
            EXPECT_EQ(stats.expanded, budget) << "frame " << frame;
        }
        EXPECT_EQ(stats.completed, queue.completed().size());
        total += stats.expanded;
        for (const PathHandle h : queue.completed()) {
            EXPECT_EQ(queue.state(h), RequestState::Done);
            const auto it = std::find_if(submitted.begin(), submitted.end(), [&](const Submitted& s) { return s.handle == h; });
            EXPECT_NE(it, submitted.end());
            if (it == submitted.end()) continue;
            PathResult result;
            EXPECT_TRUE(queue.take(h, result));
            EXPECT_EQ(queue.state(h), RequestState::Unknown);
            EXPECT_FALSE(queue.take(h, result));
            done.emplace_back(it->order, std::move(result));
        }
    }
    if (total_expanded) *total_expanded = total;
    return done;
}

}  // namespace

TEST(PathRequestQueue, BudgetIsNeverExceededAndCountsAreExact) {
    std::mt19937 rng(303);
    for (const std::uint32_t lanes : {1u, 3u})
        for (const ScaleRule& rule : gameplan::test::kScaleRules) {
            const RefGrid g = gameplan::test::ref_random_grid(rng, 48, 40, 0.3, rule.ref == RefDiagonal::OneFree);
            const GridMap map = gameplan::test::to_grid_map(g);
            QueueOptions qopt;
            qopt.lanes = lanes;
            PathRequestQueue queue(map, qopt);
            std::vector<Submitted> submitted;
            for (std::size_t i = 0; i < 40; ++i) {
                const auto [sx, sy] = gameplan::test::random_free(rng, g);
                const auto [tx, ty] = gameplan::test::random_free(rng, g);
                PathRequest request{{sx, sy}, {tx, ty}, gameplan::test::options_for(rule), int(rng() % 3)};
                if (i % 9 == 0) request.options.heuristic = Heuristic::Zero;
                submitted.push_back({queue.submit(request), request, i});
                EXPECT_EQ(queue.state(submitted.back().handle), RequestState::Pending);
            }
            EXPECT_EQ(queue.size(), 40u);
            EXPECT_EQ(queue.pending_count(), 40u);
            std::uint64_t total = 0;
            const auto done = drain(queue, submitted, rng, 400, &total);
            ASSERT_EQ(done.size(), 40u);
            std::uint64_t sum_of_requests = 0;
            GridPathfinder standalone;
            GridPath path;
            for (const auto& [index, result] : done) {
                const PathRequest& request = submitted[index].request;
                SCOPED_TRACE(std::string(rule.name) + " lanes " + std::to_string(lanes) + " request " + std::to_string(index));
                // The count is real: the same query on its own expands exactly as many cells.
                const Status alone = standalone.find_path(map, request.start, request.goal, request.options, path);
                EXPECT_EQ(result.status, alone);
                EXPECT_EQ(result.expanded, standalone.stats().expanded);
                EXPECT_EQ(result.restarts, 0u);
                sum_of_requests += result.expanded;
                const double expect = gameplan::test::ref_dijkstra(g, {{request.start.x, request.start.y}},
                                                                   rule.ref)[std::size_t(request.goal.y) * 48 + request.goal.x];
                if (std::isinf(expect)) {
                    EXPECT_EQ(result.status, Status::NoPath);
                    continue;
                }
                ASSERT_EQ(result.status, Status::Found);
                EXPECT_NEAR(result.path.cost, expect, 1e-9 * expect);
                EXPECT_EQ(gameplan::test::ref_check_path(g, gameplan::test::pairs_of(result.path.cells), request.start.x,
                                                         request.start.y, request.goal.x, request.goal.y, rule.ref,
                                                         result.path.cost),
                          "");
            }
            EXPECT_EQ(sum_of_requests, total);
        }
}

// A result says which of its request's own limits ended it, as a direct search with the same options does.
TEST(PathRequestQueue, ResultsSayWhichBudgetLimitEndedThem) {
    RefGrid g{40, 30, std::vector<int>(1200, 1)};
    for (int x = 0; x < 36; ++x) g.cost[std::size_t(15) * 40 + x] = 0;  // a wall to go around
    const GridMap map = gameplan::test::to_grid_map(g);
    PathRequestQueue queue(map, QueueOptions{2, 0, true});
    std::vector<PathRequest> requests;
    for (int kind = 0; kind < 4; ++kind) {
        PathRequest r{{2, 2}, {3 + kind, 27}, {}, 0};
        if (kind == 1) r.options.budget.max_expansions = 5;
        if (kind == 2) r.options.budget.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
        if (kind == 3) r.options.budget.max_memory_bytes = 64;
        requests.push_back(r);
    }
    std::vector<PathHandle> handles;
    for (const PathRequest& r : requests) handles.push_back(queue.submit(r));
    for (int frame = 0; frame < 1000 && queue.size() > 0; ++frame) {
        (void)queue.update(7);
        for (const PathHandle h : queue.completed()) {
            const auto i = std::size_t(std::find(handles.begin(), handles.end(), h) - handles.begin());
            ASSERT_LT(i, requests.size());
            PathResult result;
            ASSERT_TRUE(queue.take(h, result));
            GridPathfinder direct;
            GridPath path;
            const Status alone = direct.find_path(map, requests[i].start, requests[i].goal, requests[i].options, path);
            EXPECT_EQ(result.status, alone) << i;
            EXPECT_EQ(result.limit, direct.budget_limit()) << i;
            const search::BudgetLimit expected[] = {search::BudgetLimit::None, search::BudgetLimit::Expansions,
                                                    search::BudgetLimit::Time, search::BudgetLimit::Memory};
            EXPECT_EQ(result.limit, expected[i]) << i;
            EXPECT_EQ(result.status, i == 0 ? Status::Found : Status::BudgetExhausted) << i;
        }
    }
    EXPECT_EQ(queue.size(), 0u);
}

TEST(PathRequestQueue, OneExpansionBudgets) {
    // The tightest budget: exactly one expansion per update, never zero while work remains, never two.
    RefGrid g{12, 12, std::vector<int>(144, 1)};
    const GridMap map = gameplan::test::to_grid_map(g);
    PathRequestQueue queue(map, QueueOptions{2, 0, true});
    const PathHandle a = queue.submit({{0, 0}, {11, 11}});
    const PathHandle b = queue.submit({{11, 0}, {0, 11}});
    std::uint64_t frames = 0;
    while (queue.state(a) != RequestState::Done || queue.state(b) != RequestState::Done) {
        const QueueUpdateStats stats = queue.update(1);
        ASSERT_EQ(stats.expanded, 1u);
        ++frames;
    }
    EXPECT_EQ(frames, queue.expanded(a) + queue.expanded(b));
    EXPECT_EQ(queue.update(0).expanded, 0u);
    EXPECT_EQ(queue.update(1000).expanded, 0u);  // nothing left to do
}

TEST(PathRequestQueue, EqualPrioritiesAreFirstComeFirstServed) {
    std::mt19937 rng(404);
    const RefGrid g = gameplan::test::ref_random_grid(rng, 40, 40, 0.2, false);
    const GridMap map = gameplan::test::to_grid_map(g);
    PathRequestQueue queue(map);
    std::vector<Submitted> submitted;
    for (std::size_t i = 0; i < 30; ++i) {
        const auto [sx, sy] = gameplan::test::random_free(rng, g);
        const auto [tx, ty] = gameplan::test::random_free(rng, g);
        const PathRequest request{{sx, sy}, {tx, ty}};
        submitted.push_back({queue.submit(request), request, i});
    }
    const auto done = drain(queue, submitted, rng, 50);
    ASSERT_EQ(done.size(), 30u);
    for (std::size_t i = 0; i < done.size(); ++i) EXPECT_EQ(done[i].first, i);
}

TEST(PathRequestQueue, HigherPriorityFirstThenSubmissionOrder) {
    std::mt19937 rng(405);
    const RefGrid g = gameplan::test::ref_random_grid(rng, 40, 40, 0.2, false);
    const GridMap map = gameplan::test::to_grid_map(g);
    PathRequestQueue queue(map);
    std::vector<Submitted> submitted;
    std::vector<int> priority;
    for (std::size_t i = 0; i < 30; ++i) {
        const auto [sx, sy] = gameplan::test::random_free(rng, g);
        const auto [tx, ty] = gameplan::test::random_free(rng, g);
        priority.push_back(int(rng() % 4) - 1);
        const PathRequest request{{sx, sy}, {tx, ty}, {}, priority.back()};
        submitted.push_back({queue.submit(request), request, i});
    }
    const auto done = drain(queue, submitted, rng, 70);
    ASSERT_EQ(done.size(), 30u);
    std::vector<std::size_t> expected(30);
    for (std::size_t i = 0; i < 30; ++i) expected[i] = i;
    std::stable_sort(expected.begin(), expected.end(), [&](std::size_t a, std::size_t b) { return priority[a] > priority[b]; });
    for (std::size_t i = 0; i < 30; ++i) EXPECT_EQ(done[i].first, expected[i]) << "position " << i;
}

TEST(PathRequestQueue, AgingPreventsStarvation) {
    // One lane; an old low-priority request against a stream of urgent ones, one new every frame, each
    // needing about one frame's budget.
    RefGrid g{30, 30, std::vector<int>(900, 1)};
    const GridMap map = gameplan::test::to_grid_map(g);
    for (const std::uint32_t aging : {0u, 4u}) {
        PathRequestQueue queue(map, QueueOptions{1, aging, true});
        const PathHandle old = queue.submit({{0, 0}, {29, 29}, {}, 0});
        std::uint64_t served_at = 0;
        std::vector<PathHandle> urgent;
        for (std::uint64_t frame = 1; frame <= 60 && served_at == 0; ++frame) {
            urgent.push_back(queue.submit({{0, 15}, {20, 15}, {}, 5}));  // 20 expansions
            (void)queue.update(20);
            for (const PathHandle h : queue.completed())
                if (h == old) served_at = frame;
        }
        if (aging == 0) {
            EXPECT_EQ(served_at, 0u) << "strict priorities: the stream starves the old request";
        } else {
            // Rank of the old request: 0 * 4 - 0 = 0; of an urgent one submitted before update f:
            // 5 * 4 - (f - 1). The old one overtakes the urgent ones submitted after frame 21.
            EXPECT_GT(served_at, 20u);
            EXPECT_LT(served_at, 40u);
        }
    }
}

TEST(PathRequestQueue, LanesShareTheBudgetEvenly) {
    // Three long searches (unreachable goals flood their island) on three lanes: every update each gets
    // a third of the budget, give or take the one expansion of the remainder, which rotates.
    RefGrid g{60, 60, std::vector<int>(3600, 1)};
    for (int y = 0; y < 60; ++y) g.cost[std::size_t(y) * 60 + 50] = 0;
    const GridMap map = gameplan::test::to_grid_map(g);
    PathRequestQueue queue(map, QueueOptions{3, 0, true});
    const PathHandle h[3] = {queue.submit({{0, 0}, {55, 5}}), queue.submit({{10, 59}, {55, 30}}),
                             queue.submit({{40, 20}, {59, 59}})};
    std::uint64_t before[3] = {0, 0, 0};
    std::uint64_t extra_count[3] = {0, 0, 0};
    for (int frame = 0; frame < 30; ++frame) {
        const QueueUpdateStats stats = queue.update(100);
        ASSERT_EQ(stats.expanded, 100u);
        for (int i = 0; i < 3; ++i) {
            ASSERT_EQ(queue.state(h[i]), RequestState::Running);
            const std::uint64_t got = queue.expanded(h[i]) - before[i];
            EXPECT_TRUE(got == 33 || got == 34) << "lane " << i << " got " << got;
            extra_count[i] += got == 34;
            before[i] = queue.expanded(h[i]);
        }
    }
    for (int i = 0; i < 3; ++i) EXPECT_EQ(extra_count[i], 10u) << "the remainder rotates over the lanes";
}

TEST(PathRequestQueue, FinishedSearchesPassTheirBudgetOn) {
    // A short and a long request on two lanes: when the short one finishes, the rest of its share goes
    // to the long one and to the next request in the same update.
    RefGrid g{40, 40, std::vector<int>(1600, 1)};
    const GridMap map = gameplan::test::to_grid_map(g);
    PathRequestQueue queue(map, QueueOptions{2, 0, true});
    const PathHandle shorter = queue.submit({{0, 0}, {3, 0}});  // 3 expansions
    const PathHandle longer = queue.submit({{0, 39}, {39, 0}});
    const PathHandle third = queue.submit({{20, 20}, {25, 20}});
    const QueueUpdateStats stats = queue.update(30);
    EXPECT_EQ(stats.expanded, 30u);
    EXPECT_EQ(queue.state(shorter), RequestState::Done);
    EXPECT_EQ(queue.expanded(shorter), 3u);
    EXPECT_EQ(queue.state(third), RequestState::Done);
    EXPECT_EQ(queue.expanded(third), 5u);
    EXPECT_EQ(queue.expanded(longer), 22u);
    EXPECT_EQ(stats.started, 3u);
    EXPECT_EQ(stats.completed, 2u);
    ASSERT_EQ(queue.completed().size(), 2u);
    EXPECT_EQ(queue.completed()[0], shorter);
    EXPECT_EQ(queue.completed()[1], third);
}

TEST(PathRequestQueue, Cancellation) {
    RefGrid g{40, 40, std::vector<int>(1600, 1)};
    const GridMap map = gameplan::test::to_grid_map(g);
    PathRequestQueue queue(map);
    EXPECT_FALSE(queue.cancel(PathHandle{}));
    EXPECT_EQ(queue.state(PathHandle{}), RequestState::Unknown);
    EXPECT_FALSE(PathHandle{}.valid());

    const PathHandle running = queue.submit({{0, 0}, {39, 39}});
    const PathHandle pending = queue.submit({{0, 0}, {5, 5}});
    const PathHandle after = queue.submit({{1, 1}, {4, 1}});
    EXPECT_TRUE(running.valid());
    (void)queue.update(10);
    EXPECT_EQ(queue.state(running), RequestState::Running);
    EXPECT_EQ(queue.state(pending), RequestState::Pending);
    // Cancel a pending request: it never runs.
    EXPECT_TRUE(queue.cancel(pending));
    EXPECT_FALSE(queue.cancel(pending));
    EXPECT_EQ(queue.state(pending), RequestState::Unknown);
    EXPECT_EQ(queue.pending_count(), 1u);
    // Cancel the running one: its lane goes to the next request within the same update.
    EXPECT_TRUE(queue.cancel(running));
    EXPECT_EQ(queue.running_count(), 0u);
    EXPECT_EQ(queue.result(running), nullptr);
    const QueueUpdateStats stats = queue.update(100);
    EXPECT_EQ(stats.expanded, 3u);
    ASSERT_EQ(queue.completed().size(), 1u);
    EXPECT_EQ(queue.completed()[0], after);
    EXPECT_EQ(queue.size(), 1u);
    // Cancel a finished one: the result is discarded.
    ASSERT_NE(queue.result(after), nullptr);
    EXPECT_EQ(queue.result(after)->status, Status::Found);
    EXPECT_TRUE(queue.cancel(after));
    PathResult out;
    EXPECT_FALSE(queue.take(after, out));
    EXPECT_EQ(queue.size(), 0u);
    EXPECT_EQ(queue.update(100).expanded, 0u);

    // Salted handles: a reused slot gets a new generation; old handles stay dead.
    const PathHandle reused = queue.submit({{2, 2}, {3, 3}});
    EXPECT_TRUE(reused.index == running.index || reused.index == pending.index || reused.index == after.index);
    EXPECT_EQ(queue.state(after), RequestState::Unknown);
    EXPECT_EQ(queue.state(pending), RequestState::Unknown);
    EXPECT_EQ(queue.state(running), RequestState::Unknown);
    EXPECT_EQ(queue.state(reused), RequestState::Pending);
    EXPECT_FALSE(queue.cancel(PathHandle{reused.index, reused.generation + 1}));
    EXPECT_FALSE(queue.cancel(PathHandle{999, 1}));
}

TEST(PathRequestQueue, RunningSearchRestartsWhenTheMapChanges) {
    RefGrid g{40, 40, std::vector<int>(1600, 1)};
    GridMap map = gameplan::test::to_grid_map(g);
    PathRequestQueue queue(map);
    const PathHandle h = queue.submit({{0, 0}, {39, 39}});
    (void)queue.update(15);
    ASSERT_EQ(queue.state(h), RequestState::Running);
    // Wall across the diagonal with one gap.
    for (int x = 0; x < 39; ++x) {
        map.set_passable({x, 20}, false);
        g.cost[std::size_t(20) * 40 + x] = 0;
    }
    QueueUpdateStats total;
    while (queue.state(h) != RequestState::Done) {
        const QueueUpdateStats stats = queue.update(15);
        ASSERT_LE(stats.expanded, 15u);
        total.restarted += stats.restarted;
    }
    EXPECT_EQ(total.restarted, 1u);
    const PathResult* result = queue.result(h);
    ASSERT_NE(result, nullptr);
    EXPECT_EQ(result->restarts, 1u);
    EXPECT_EQ(result->map_version, map.version());
    const double expect = gameplan::test::ref_dijkstra(g, {{0, 0}}, RefDiagonal::BothFree)[std::size_t(39) * 40 + 39];
    EXPECT_NEAR(result->path.cost, expect, 1e-9 * expect);
    EXPECT_EQ(gameplan::test::ref_check_path(g, gameplan::test::pairs_of(result->path.cells), 0, 0, 39, 39, RefDiagonal::BothFree,
                                             result->path.cost),
              "");
    // Work before the restart counts too.
    GridPathfinder alone;
    GridPath path;
    (void)alone.find_path(map, {0, 0}, {39, 39}, {}, path);
    EXPECT_EQ(result->expanded, 15u + alone.stats().expanded);
}

TEST(PathRequestQueue, RunningSearchWhoseGoalIsBlockedBecomesInvalid) {
    RefGrid g{30, 30, std::vector<int>(900, 1)};
    GridMap map = gameplan::test::to_grid_map(g);
    PathRequestQueue queue(map);
    const PathHandle h = queue.submit({{0, 0}, {29, 29}});
    (void)queue.update(5);
    map.set_passable({29, 29}, false);
    (void)queue.update(5);
    ASSERT_EQ(queue.state(h), RequestState::Done);
    EXPECT_EQ(queue.result(h)->status, Status::InvalidQuery);
    EXPECT_TRUE(queue.result(h)->path.cells.empty());
}

TEST(PathRequestQueue, FinishedResultsAreRevalidated) {
    RefGrid g{20, 20, std::vector<int>(400, 1)};
    GridMap map = gameplan::test::to_grid_map(g);
    PathRequestQueue queue(map);
    const PathHandle h = queue.submit({{0, 10}, {19, 10}});
    (void)queue.update(1000);
    ASSERT_EQ(queue.state(h), RequestState::Done);
    const std::vector<GridPoint> first = queue.result(h)->path.cells;
    ASSERT_EQ(first.size(), 20u);  // straight along row 10

    // A change away from the path: the result is checked and kept.
    map.set_passable({5, 2}, false);
    QueueUpdateStats stats = queue.update(1000);
    EXPECT_EQ(stats.revalidated, 1u);
    EXPECT_EQ(stats.requeued, 0u);
    EXPECT_EQ(queue.state(h), RequestState::Done);
    EXPECT_EQ(queue.result(h)->map_version, map.version());
    EXPECT_EQ(queue.result(h)->path.cells, first);

    // A wall on the path: the request goes back to the queue and is answered again in the same update.
    map.set_passable({10, 10}, false);
    g.cost[std::size_t(10) * 20 + 10] = 0;
    g.cost[std::size_t(2) * 20 + 5] = 0;
    stats = queue.update(1000);
    EXPECT_EQ(stats.revalidated, 1u);
    EXPECT_EQ(stats.requeued, 1u);
    EXPECT_EQ(stats.completed, 1u);
    ASSERT_EQ(queue.state(h), RequestState::Done);
    const PathResult* result = queue.result(h);
    EXPECT_EQ(std::find(result->path.cells.begin(), result->path.cells.end(), GridPoint{10, 10}), result->path.cells.end());
    const double expect = gameplan::test::ref_dijkstra(g, {{0, 10}}, RefDiagonal::BothFree)[std::size_t(10) * 20 + 19];
    EXPECT_NEAR(result->path.cost, expect, 1e-9);

    // A terrain cost change off the path: kept. On the path: its cost changed, so it is searched again.
    map.set_cost({15, 2}, 7);
    g.cost[std::size_t(2) * 20 + 15] = 7;
    stats = queue.update(1000);
    EXPECT_EQ(stats.revalidated, 1u);
    EXPECT_EQ(stats.requeued, 0u);
    const std::vector<GridPoint> before = queue.result(h)->path.cells;
    ASSERT_NE(std::find(before.begin(), before.end(), GridPoint{3, 10}), before.end());
    map.set_cost({3, 10}, 5);
    g.cost[std::size_t(10) * 20 + 3] = 5;
    stats = queue.update(1000);
    EXPECT_EQ(stats.revalidated, 1u);
    EXPECT_EQ(stats.requeued, 1u);
    ASSERT_EQ(queue.state(h), RequestState::Done);
    result = queue.result(h);
    EXPECT_EQ(result->map_version, map.version());
    const double again = gameplan::test::ref_dijkstra(g, {{0, 10}}, RefDiagonal::BothFree)[std::size_t(10) * 20 + 19];
    EXPECT_NEAR(result->path.cost, again, 1e-9);
    EXPECT_EQ(gameplan::test::ref_check_path(g, gameplan::test::pairs_of(result->path.cells), 0, 10, 19, 10, RefDiagonal::BothFree,
                                             result->path.cost),
              "");
}

// After cost changes alone a "no path" stands (costs open no way): it is not searched again, while a
// change of passability re-queues it.
TEST(PathRequestQueue, NoPathStandsThroughCostChanges) {
    RefGrid g{10, 6, std::vector<int>(60, 1)};
    for (int y = 0; y < 6; ++y) g.cost[std::size_t(y) * 10 + 5] = 0;
    GridMap map = gameplan::test::to_grid_map(g);
    PathRequestQueue queue(map);
    const PathHandle h = queue.submit({{0, 0}, {9, 5}});
    while (queue.state(h) != RequestState::Done) (void)queue.update(100);
    ASSERT_EQ(queue.result(h)->status, Status::NoPath);
    map.set_cost({2, 2}, 4);
    QueueUpdateStats stats = queue.update(100);
    EXPECT_EQ(stats.revalidated, 1u);
    EXPECT_EQ(stats.requeued, 0u);
    EXPECT_EQ(stats.expanded, 0u);
    EXPECT_EQ(queue.result(h)->map_version, map.version());
    (void)map.set_passable({5, 3}, true);
    stats = queue.update(1000);
    EXPECT_EQ(stats.requeued, 1u);
    ASSERT_EQ(queue.state(h), RequestState::Done);
    EXPECT_EQ(queue.result(h)->status, Status::Found);
}

// A strict queue re-queues every result a map change does not keep, as its documentation says, a no-path
// after a cost change included; the frames say when it was submitted and when it finished.
TEST(PathRequestQueue, StrictQueuesSearchANoPathAgainAfterCostChanges) {
    RefGrid g{10, 6, std::vector<int>(60, 1)};
    for (int y = 0; y < 6; ++y) g.cost[std::size_t(y) * 10 + 5] = 0;
    GridMap map = gameplan::test::to_grid_map(g);
    QueueOptions options;
    options.restart_on_cost_change = true;
    PathRequestQueue queue(map, options);
    (void)queue.update(100);
    (void)queue.update(100);
    const PathHandle h = queue.submit({{0, 0}, {9, 5}});
    EXPECT_EQ(queue.result(h), nullptr);
    const std::uint64_t submitted = queue.frame();
    while (queue.state(h) != RequestState::Done) (void)queue.update(5);
    ASSERT_EQ(queue.result(h)->status, Status::NoPath);
    EXPECT_EQ(queue.result(h)->submitted_frame, submitted);
    EXPECT_EQ(queue.result(h)->completed_frame, queue.frame());
    EXPECT_GT(queue.result(h)->completed_frame, submitted + 1);  // 30 cells at 5 expansions an update
    map.set_cost({2, 2}, 4);
    const QueueUpdateStats stats = queue.update(100);
    EXPECT_EQ(stats.revalidated, 1u);
    EXPECT_EQ(stats.requeued, 1u);
    EXPECT_GT(stats.expanded, 0u);
    ASSERT_EQ(queue.state(h), RequestState::Done);
    EXPECT_EQ(queue.result(h)->status, Status::NoPath);
    EXPECT_EQ(queue.result(h)->completed_frame, queue.frame());
    EXPECT_EQ(queue.result(h)->map_version, map.version());
}

TEST(PathRequestQueue, StrictQueuesSearchAgainAfterCostChanges) {
    RefGrid g{20, 20, std::vector<int>(400, 1)};
    GridMap map = gameplan::test::to_grid_map(g);
    QueueOptions options;
    options.restart_on_cost_change = true;
    PathRequestQueue queue(map, options);
    const PathHandle h = queue.submit({{0, 10}, {19, 10}});
    (void)queue.update(1000);
    ASSERT_EQ(queue.state(h), RequestState::Done);
    // A cost on the path: the result goes back to the queue and the new path is the optimum of the new map.
    map.set_cost({3, 10}, 5);
    g.cost[std::size_t(10) * 20 + 3] = 5;
    QueueUpdateStats stats = queue.update(1000);
    EXPECT_EQ(stats.requeued, 1u);
    ASSERT_EQ(queue.state(h), RequestState::Done);
    const double expect = gameplan::test::ref_dijkstra(g, {{0, 10}}, RefDiagonal::BothFree)[std::size_t(10) * 20 + 19];
    EXPECT_NEAR(queue.result(h)->path.cost, expect, 1e-9);
    // A running search restarts on a cost change.
    PathResult taken;
    ASSERT_TRUE(queue.take(h, taken));
    const PathHandle h2 = queue.submit({{0, 0}, {19, 19}});
    (void)queue.update(5);
    ASSERT_EQ(queue.state(h2), RequestState::Running);
    map.set_cost({15, 15}, 9);
    g.cost[std::size_t(15) * 20 + 15] = 9;
    while (queue.state(h2) == RequestState::Running) (void)queue.update(5);
    ASSERT_EQ(queue.state(h2), RequestState::Done);
    EXPECT_EQ(queue.result(h2)->restarts, 1u);
    const double expect2 = gameplan::test::ref_dijkstra(g, {{0, 0}}, RefDiagonal::BothFree)[std::size_t(19) * 20 + 19];
    EXPECT_NEAR(queue.result(h2)->path.cost, expect2, 1e-9);
}

// A game that paints costs every frame (danger, traffic) must still get its long paths: cost changes do
// not restart running searches (they restarted every search longer than one update's budget forever).
TEST(PathRequestQueue, CostsPaintedEveryUpdateDoNotHoldSearchesUp) {
    std::mt19937 rng(77);
    for (int trial = 0; trial < 12; ++trial) {
        RefGrid g = gameplan::test::ref_random_grid(rng, 48, 48, 0.2, trial % 2 == 1);
        GridMap map = gameplan::test::to_grid_map(g);
        const auto cells = gameplan::test::free_cells(rng, map, 2);
        const GridPoint s = cells[0], t = cells[1];
        PathRequestQueue queue(map);
        const PathHandle h = queue.submit({s, t});
        std::uniform_int_distribution<int> coordinate(0, 47), cost(1, 9);
        int updates = 0;
        for (; updates < 100000 && queue.state(h) != RequestState::Done; ++updates) {
            // One cost painted on a random free cell before every update, often where the search goes.
            for (int tries = 0; tries < 100; ++tries) {
                const int x = coordinate(rng), y = coordinate(rng);
                if (!g.free(x, y)) continue;
                const int c = cost(rng);
                ASSERT_TRUE(map.set_cost({x, y}, static_cast<std::uint32_t>(c)));
                g.cost[std::size_t(y) * 48 + x] = c;
                break;
            }
            (void)queue.update(3);
        }
        ASSERT_EQ(queue.state(h), RequestState::Done) << "trial " << trial << ": not done after " << updates << " updates";
        const PathResult* result = queue.result(h);
        EXPECT_EQ(result->restarts, 0u);
        const double optimum = gameplan::test::ref_dijkstra(g, {{s.x, s.y}}, RefDiagonal::BothFree)[std::size_t(t.y) * 48 + t.x];
        if (!std::isfinite(optimum)) {
            EXPECT_EQ(result->status, Status::NoPath);
            continue;
        }
        ASSERT_EQ(result->status, Status::Found) << "trial " << trial;
        // Legal on the final map and priced on it; never cheaper than its optimum.
        EXPECT_EQ(gameplan::test::ref_check_path(g, gameplan::test::pairs_of(result->path.cells), s.x, s.y, t.x, t.y,
                                                 RefDiagonal::BothFree, result->path.cost),
                  "")
            << "trial " << trial;
        EXPECT_GE(result->path.cost, optimum - 1e-9 * optimum);
        EXPECT_EQ(result->map_version, map.version());
    }
}

// After cost changes alone a running search goes on; a change of passability still restarts it, even
// when cost changes came in between.
TEST(PathRequestQueue, PassabilityRestartsASearchThatWentOnThroughCostChanges) {
    RefGrid g{40, 40, std::vector<int>(1600, 1)};
    GridMap map = gameplan::test::to_grid_map(g);
    PathRequestQueue queue(map);
    const PathHandle h = queue.submit({{0, 0}, {39, 39}});
    (void)queue.update(15);
    map.set_cost({30, 5}, 4);
    g.cost[std::size_t(5) * 40 + 30] = 4;
    EXPECT_EQ(queue.update(15).restarted, 0u);
    for (int x = 0; x < 39; ++x) {
        map.set_passable({x, 20}, false);
        g.cost[std::size_t(20) * 40 + x] = 0;
    }
    map.set_cost({31, 5}, 4);  // a cost change after the wall: the wall still counts
    g.cost[std::size_t(5) * 40 + 31] = 4;
    std::uint32_t restarted = 0;
    while (queue.state(h) != RequestState::Done) restarted += queue.update(15).restarted;
    EXPECT_EQ(restarted, 1u);
    const PathResult* result = queue.result(h);
    const double expect = gameplan::test::ref_dijkstra(g, {{0, 0}}, RefDiagonal::BothFree)[std::size_t(39) * 40 + 39];
    EXPECT_NEAR(result->path.cost, expect, 1e-9 * expect);
    EXPECT_EQ(gameplan::test::ref_check_path(g, gameplan::test::pairs_of(result->path.cells), 0, 0, 39, 39, RefDiagonal::BothFree,
                                             result->path.cost),
              "");
}

TEST(PathRequestQueue, NoPathIsRetriedAfterTheMapOpens) {
    // Wall at x = 5 with islands: "no path" at once; a door opens; the request is re-run.
    RefGrid g{10, 6, std::vector<int>(60, 1)};
    for (int y = 0; y < 6; ++y) g.cost[std::size_t(y) * 10 + 5] = 0;
    GridMap map = gameplan::test::to_grid_map(g);
    Islands islands;
    islands.build(map);
    PathRequest request{{0, 0}, {9, 5}};
    request.options.islands = &islands;
    PathRequestQueue queue(map);
    const PathHandle h = queue.submit(request);
    QueueUpdateStats stats = queue.update(100);
    EXPECT_EQ(stats.expanded, 0u);
    ASSERT_EQ(queue.state(h), RequestState::Done);
    EXPECT_EQ(queue.result(h)->status, Status::NoPath);
    ASSERT_TRUE(islands.set_passable(map, {5, 3}, true));
    stats = queue.update(100);
    EXPECT_EQ(stats.requeued, 1u);
    ASSERT_EQ(queue.state(h), RequestState::Done);
    EXPECT_EQ(queue.result(h)->status, Status::Found);
    EXPECT_GT(stats.expanded, 0u);
}

TEST(PathRequestQueue, RevalidationCanBeSwitchedOff) {
    RefGrid g{10, 1, std::vector<int>(10, 1)};
    GridMap map = gameplan::test::to_grid_map(g);
    PathRequestQueue queue(map, QueueOptions{1, 0, false});
    const PathHandle h = queue.submit({{0, 0}, {9, 0}});
    (void)queue.update(100);
    const std::uint64_t version = queue.result(h)->map_version;
    map.set_passable({4, 0}, false);
    const QueueUpdateStats stats = queue.update(100);
    EXPECT_EQ(stats.revalidated, 0u);
    EXPECT_EQ(queue.result(h)->map_version, version);  // stale, and says so
    EXPECT_NE(version, map.version());
}

TEST(PathRequestQueue, DeterministicAcrossRuns) {
    std::mt19937 rng(505);
    const RefGrid g = gameplan::test::ref_random_grid(rng, 50, 50, 0.3, true);
    const GridMap map = gameplan::test::to_grid_map(g);
    std::vector<PathRequest> requests;
    for (int i = 0; i < 60; ++i) {
        const auto [sx, sy] = gameplan::test::random_free(rng, g);
        const auto [tx, ty] = gameplan::test::random_free(rng, g);
        requests.push_back({{sx, sy}, {tx, ty}, {}, int(rng() % 3)});
    }
    const auto run = [&] {
        PathRequestQueue queue(map, QueueOptions{2, 3, true});
        std::vector<std::tuple<std::uint32_t, std::uint64_t, double, std::uint64_t>> log;
        std::size_t next = 0;
        for (int frame = 0; queue.size() > 0 || next < requests.size(); ++frame) {
            for (int k = 0; k < 3 && next < requests.size(); ++k) (void)queue.submit(requests[next++]);
            (void)queue.update(97);
            for (const PathHandle h : queue.completed()) {
                PathResult r;
                EXPECT_TRUE(queue.take(h, r));
                log.emplace_back(h.index, r.completed_frame, r.path.cost, r.expanded);
            }
        }
        return log;
    };
    const auto a = run();
    const auto b = run();
    EXPECT_EQ(a.size(), requests.size());
    EXPECT_EQ(a, b);
}

// A restored running search is continued only if the map's passability is the one it began on: one
// saved on a version the map never had is restarted (its cells were not checked against the map), even
// though the map changed no passability since.
TEST(PathRequestQueue, RestoredSearchesOfAnotherMapVersionRestart) {
    RefGrid g{30, 30, std::vector<int>(900, 1)};
    for (int x = 5; x < 30; ++x) g.cost[std::size_t(15) * 30 + x] = 0;
    GridMap map = gameplan::test::to_grid_map(g);
    PathRequestQueue queue(map);
    const PathHandle h = queue.submit({{0, 0}, {29, 29}});
    (void)queue.update(20);
    ASSERT_EQ(queue.state(h), RequestState::Running);
    PathRequestQueueState state;
    queue.save_state(state);
    ASSERT_EQ(state.requests.size(), 1u);
    // Forged: a reached cell on the wall, on a later map version.
    PathRequestQueueState forged = state;
    forged.requests[0].search.cells.push_back({map.index({20, 15}), 30.0, map.index({0, 0}), true});
    forged.requests[0].search.map_version = map.version() + 3;
    PathRequestQueue restored(map);
    ASSERT_FALSE(restored.restore_state(forged));
    std::uint32_t restarted = 0;
    while (restored.state(h) != RequestState::Done) restarted += restored.update(20).restarted;
    EXPECT_EQ(restarted, 1u);
    const PathResult* result = restored.result(h);
    ASSERT_EQ(result->status, Status::Found);
    const double expect = gameplan::test::ref_dijkstra(g, {{0, 0}}, RefDiagonal::BothFree)[std::size_t(29) * 30 + 29];
    EXPECT_NEAR(result->path.cost, expect, 1e-9 * expect);
    EXPECT_EQ(gameplan::test::ref_check_path(g, gameplan::test::pairs_of(result->path.cells), 0, 0, 29, 29, RefDiagonal::BothFree,
                                             result->path.cost),
              "");
    // The same forgery on the map's own version is refused when restored.
    forged.requests[0].search.map_version = map.version();
    PathRequestQueue refused(map);
    EXPECT_TRUE(refused.restore_state(forged));
}

// Lanes are capped (each holds a pathfinder sized for the whole map, allocated up front).
TEST(PathRequestQueue, LanesPastTheCapAreRefused) {
    GridMap map;
    ASSERT_EQ(map.reset(8, 8), GridSizeCheck::Ok);
    QueueOptions options;
    options.lanes = kMaxQueueLanes + 1;
    EXPECT_THROW(PathRequestQueue(map, options), std::invalid_argument);
    options.lanes = 0;  // treated as 1
    PathRequestQueue one(map, options);
    const PathHandle h = one.submit({{0, 0}, {7, 7}});
    (void)one.update(100);
    EXPECT_EQ(one.state(h), RequestState::Done);
}

// With restart_on_passability_change off, cells that open and close before every update do not hold a
// long search up: it finishes, and what it returns is right for the map it finished on. A path is legal
// there (a step checker written here) and never cheaper than a reference Dijkstra; "no path" only when
// the reference finds none (a no_path reached through a change is searched again).
TEST(PathRequestQueue, CellsFlappingEveryUpdateNeedNotHoldSearchesUp) {
    std::mt19937 rng(91);
    int found = 0;
    for (int trial = 0; trial < 16; ++trial) {
        RefGrid g = gameplan::test::ref_random_grid(rng, 40, 40, 0.25, trial % 2 == 1);
        GridMap map = gameplan::test::to_grid_map(g);
        const auto ends = gameplan::test::free_cells(rng, map, 2);
        const GridPoint s = ends[0], t = ends[1];
        QueueOptions options;
        options.restart_on_passability_change = false;
        PathRequestQueue queue(map, options);
        const PathHandle h = queue.submit({s, t});
        std::uniform_int_distribution<int> coordinate(0, 39);
        int updates = 0;
        for (; updates < 100000 && queue.state(h) != RequestState::Done; ++updates) {
            for (int flips = 0; flips < 2; ++flips) {  // two cells open or close, anywhere but the endpoints
                const int x = coordinate(rng), y = coordinate(rng);
                if (GridPoint{x, y} == s || GridPoint{x, y} == t) continue;
                int& cell = g.cost[std::size_t(y) * 40 + x];
                cell = cell == 0 ? 1 + int(rng() % 3) : 0;
                ASSERT_TRUE(map.set_passable({x, y}, cell != 0));
                if (cell != 0) {
                    ASSERT_TRUE(map.set_cost({x, y}, std::uint32_t(cell)));
                }
            }
            (void)queue.update(4);
        }
        ASSERT_EQ(queue.state(h), RequestState::Done) << "trial " << trial << ": not done after " << updates << " updates";
        const PathResult* result = queue.result(h);
        const double optimum = gameplan::test::ref_dijkstra(g, {{s.x, s.y}}, RefDiagonal::BothFree)[std::size_t(t.y) * 40 + t.x];
        if (result->status == Status::NoPath) {
            EXPECT_TRUE(std::isinf(optimum)) << "trial " << trial << ": no_path, but the final map has one";
            continue;
        }
        ASSERT_EQ(result->status, Status::Found) << "trial " << trial;
        ++found;
        EXPECT_EQ(gameplan::test::ref_check_path(g, gameplan::test::pairs_of(result->path.cells), s.x, s.y, t.x, t.y,
                                                 RefDiagonal::BothFree, result->path.cost),
                  "")
            << "trial " << trial;
        EXPECT_GE(result->path.cost, optimum - 1e-9 * optimum) << "trial " << trial;
    }
    EXPECT_GE(found, 8);
}

// A search that went on through a change and found no path runs again: a door opened next to cells it had
// already closed is found then.
TEST(PathRequestQueue, ANoPathThroughAChangeIsSearchedAgain) {
    RefGrid g{30, 12, std::vector<int>(360, 1)};
    for (int y = 0; y < 12; ++y) g.cost[std::size_t(y) * 30 + 15] = 0;  // a wall with a shut door at (15, 1)
    GridMap map = gameplan::test::to_grid_map(g);
    QueueOptions options;
    options.restart_on_passability_change = false;
    PathRequestQueue queue(map, options);
    const PathHandle h = queue.submit({{0, 1}, {29, 1}});
    std::uint32_t restarted = 0;
    for (int update = 0; update < 60 && queue.state(h) != RequestState::Done; ++update) {
        if (update == 20) {  // A* went straight for the wall: (14, 1) is long closed, the flood not over
            ASSERT_TRUE(map.set_passable({15, 1}, true));
            g.cost[std::size_t(1) * 30 + 15] = 1;
        }
        restarted += queue.update(5).restarted;
    }
    while (queue.state(h) != RequestState::Done) restarted += queue.update(5).restarted;
    const PathResult* result = queue.result(h);
    ASSERT_EQ(result->status, Status::Found);
    EXPECT_EQ(restarted, 1u);
    const double optimum = gameplan::test::ref_dijkstra(g, {{0, 1}}, RefDiagonal::BothFree)[std::size_t(1) * 30 + 29];
    EXPECT_NEAR(result->path.cost, optimum, 1e-9 * optimum);
}
