// The movement layer (movement.hpp): walks, statuses, map changes under a route, cancellation, moving
// destinations, pushes, claimed-path penalties and collision-free crowds. Every tick of the crowd tests
// is checked by an independent referee written here: legal single steps, no shared cells, no swaps.
#include <gameplan/path/islands.hpp>
#include <gameplan/path/movement.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <cmath>
#include <map>
#include <queue>
#include <random>
#include <set>
#include <utility>
#include <vector>

namespace {

using namespace gameplan;
using namespace gameplan::path;

// Referee: 8-connected without corner cutting (or 4-connected), written without the library's rules.
bool legal_step(const GridMap& map, GridPoint a, GridPoint b, bool four) {
    const int dx = b.x - a.x, dy = b.y - a.y;
    if (dx == 0 && dy == 0) return true;
    if (std::abs(dx) > 1 || std::abs(dy) > 1) return false;
    if (!map.passable(b)) return false;
    if (dx != 0 && dy != 0) return !four && map.passable({a.x + dx, a.y}) && map.passable({a.x, a.y + dy});
    return true;
}

// BFS step distance (8-connected, no corner cutting) as a reference for walk lengths.
int bfs_steps(const GridMap& map, GridPoint from, GridPoint to) {
    std::vector<int> dist(std::size_t(map.width() * map.height()), -1);
    std::queue<GridPoint> q;
    dist[std::size_t(from.y * map.width() + from.x)] = 0;
    q.push(from);
    while (!q.empty()) {
        const GridPoint p = q.front();
        q.pop();
        if (p == to) return dist[std::size_t(p.y * map.width() + p.x)];
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                const GridPoint n{p.x + dx, p.y + dy};
                if ((dx || dy) && legal_step(map, p, n, false) && dist[std::size_t(n.y * map.width() + n.x)] < 0) {
                    dist[std::size_t(n.y * map.width() + n.x)] = dist[std::size_t(p.y * map.width() + p.x)] + 1;
                    q.push(n);
                }
            }
    }
    return -1;
}

// Checks one tick of a crowd: legal steps, distinct cells, no swaps. Returns the number of violations.
int referee(const MovementSystem& ms, const std::vector<UnitId>& ids, bool four) {
    int bad = 0;
    std::map<std::pair<int, int>, UnitId> now, before;
    for (const UnitId id : ids) {
        const GridPoint p = ms.position(id), q = ms.previous_position(id);
        if (!legal_step(ms.map(), q, p, four)) ++bad;
        if (!ms.map().passable(p)) ++bad;
        if (!now.emplace(std::pair{p.x, p.y}, id).second) ++bad;
        before.emplace(std::pair{q.x, q.y}, id);
    }
    for (const UnitId id : ids) {
        const GridPoint p = ms.position(id), q = ms.previous_position(id);
        if (p == q) continue;
        const auto it = before.find({p.x, p.y});  // who stood where I went
        if (it != before.end() && it->second != id && ms.position(it->second) == q) ++bad;  // swapped
    }
    return bad;
}

GridMap open_map(int w, int h) {
    GridMap m;
    (void)m.reset(w, h, true);
    return m;
}

TEST(Movement, OneUnitWalksAShortestRouteAndArrives) {
    GridMap map = open_map(30, 20);
    for (int y = 0; y < 15; ++y) (void)map.set_passable({12, y}, false);  // a wall to go around
    MovementSystem ms(map);
    const UnitId u = ms.add_unit({2, 2});
    ASSERT_NE(u, kNoUnit);
    ASSERT_TRUE(ms.move_to(u, Destination::at({25, 3})));
    EXPECT_EQ(ms.status(u), UnitStatus::Planning);
    const int expected = bfs_steps(map, {2, 2}, {25, 3});
    int ticks = 0;
    while (ms.status(u) != UnitStatus::Arrived && ticks < 200) {
        ms.update();
        ++ticks;
        ASSERT_TRUE(legal_step(map, ms.previous_position(u), ms.position(u), false));
    }
    EXPECT_EQ(ms.status(u), UnitStatus::Arrived);
    EXPECT_EQ(ms.position(u), (GridPoint{25, 3}));
    EXPECT_EQ(ms.stats().steps, std::uint64_t(expected)) << "one path, walked without detours, is a shortest walk";
    EXPECT_EQ(ticks, expected) << "the first step is taken in the update that finds the path";
    EXPECT_EQ(ms.stats().waits, 0u);
}

// A costly band (a danger layer) across the straight line between start and goal, with gaps at the
// map's edges: the search goes round it, and smoothing must not straighten the route back through it
// (line of sight alone would: the band is walkable).
TEST(Movement, SmoothingKeepsRoutesOutOfCostlyLayerCells) {
    const GridMap map = open_map(21, 11);
    PenaltyLayer danger(map);
    for (int y = 1; y <= 9; ++y) ASSERT_TRUE(danger.set({10, y}, 100.0f));
    const CostLayer layers[] = {{&danger, 1.0}};
    MovementOptions options;
    options.layers = layers;
    options.claim_weight = 0.0;
    MovementSystem ms(map, options);
    const UnitId u = ms.add_unit({0, 5});
    ASSERT_TRUE(ms.move_to(u, Destination::at({20, 5})));
    for (int ticks = 0; ms.status(u) != UnitStatus::Arrived && ticks < 100; ++ticks) {
        ms.update();
        ASSERT_TRUE(legal_step(map, ms.previous_position(u), ms.position(u), false));
        EXPECT_EQ(danger.at(ms.position(u)), 0.0f) << "walked into the band at " << ms.position(u).x << ","
                                                     << ms.position(u).y;
    }
    EXPECT_EQ(ms.status(u), UnitStatus::Arrived);
}

TEST(Movement, StatusesForBadAndTrivialDestinations) {
    GridMap map = open_map(20, 20);
    for (int i = 10; i < 20; ++i) (void)map.set_passable({i, 10}, false), (void)map.set_passable({10, i}, false);
    MovementSystem ms(map);
    const UnitId u = ms.add_unit({1, 1});
    EXPECT_EQ(ms.add_unit({1, 1}), kNoUnit) << "a cell holds one unit";
    EXPECT_EQ(ms.add_unit({10, 10}), kNoUnit) << "a wall";
    EXPECT_EQ(ms.add_unit({-1, 0}), kNoUnit);
    EXPECT_FALSE(ms.move_to(u, Destination::at({10, 12})));
    EXPECT_EQ(ms.status(u), UnitStatus::Failed);
    EXPECT_EQ(ms.failure(u), MoveFailure::InvalidGoal);
    EXPECT_TRUE(ms.move_to(u, Destination::at({3, 2}, 2)));
    EXPECT_EQ(ms.status(u), UnitStatus::Arrived) << "already within the radius";
    ASSERT_TRUE(ms.move_to(u, Destination::at({15, 15})));  // walled in: no path
    for (int t = 0; t < 3; ++t) ms.update();
    EXPECT_EQ(ms.status(u), UnitStatus::Failed);
    EXPECT_EQ(ms.failure(u), MoveFailure::NoPath);
    EXPECT_EQ(ms.position(u), (GridPoint{1, 1}));
    EXPECT_FALSE(ms.move_to(999, Destination::at({2, 2})));
    EXPECT_EQ(to_string(UnitStatus::Waiting), "waiting");
    EXPECT_EQ(to_string(MoveFailure::Stuck), "stuck");
}

TEST(Movement, IslandsFailADestinationAcrossTheWaterAtOnce) {
    // A wall splits the map; with a small frame budget the request for the far side floods the unit's
    // half for many ticks, unless the islands answer it.
    GridMap map = open_map(60, 60);
    for (int y = 0; y < 60; ++y) (void)map.set_passable({30, y}, false);
    Islands islands;
    islands.build(map);
    MovementOptions slow;
    slow.path_budget = 16;
    MovementOptions checked = slow;
    checked.islands = &islands;
    MovementSystem plain(map, slow), fast(map, checked);
    const UnitId a = plain.add_unit({2, 2}), b = fast.add_unit({2, 2});
    ASSERT_TRUE(plain.move_to(a, Destination::at({50, 50})));
    ASSERT_TRUE(fast.move_to(b, Destination::at({50, 50})));
    plain.update();
    fast.update();
    EXPECT_EQ(plain.status(a), UnitStatus::Planning) << "1,800 cells to flood at 16 a tick";
    EXPECT_EQ(fast.status(b), UnitStatus::Failed);
    EXPECT_EQ(fast.failure(b), MoveFailure::NoPath);
    for (int t = 0; t < 200 && plain.status(a) == UnitStatus::Planning; ++t) plain.update();
    EXPECT_EQ(plain.failure(a), MoveFailure::NoPath) << "the same answer, later";
    // A door in the wall, reported to the islands: the destination is reachable and is reached.
    ASSERT_TRUE(islands.set_passable(map, {30, 40}, true));
    ASSERT_TRUE(fast.move_to(b, Destination::at({50, 50})));
    for (int t = 0; t < 400 && fast.status(b) != UnitStatus::Arrived; ++t) fast.update();
    EXPECT_EQ(fast.status(b), UnitStatus::Arrived);
    EXPECT_EQ(fast.position(b), (GridPoint{50, 50}));
}

TEST(Movement, AMapChangeUnderTheRouteMakesItRepathAndNeverEnterAWall) {
    GridMap map = open_map(20, 11);
    for (int y = 0; y < 11; ++y)
        if (y != 2 && y != 8) (void)map.set_passable({10, y}, false);  // two doors in a wall
    MovementSystem ms(map);
    const UnitId u = ms.add_unit({2, 3});
    ASSERT_TRUE(ms.move_to(u, Destination::at({17, 3})));
    for (int t = 0; t < 3; ++t) ms.update();
    ASSERT_EQ(ms.status(u), UnitStatus::Moving);
    const auto rest = ms.remaining_route(u);
    ASSERT_TRUE(std::find(rest.begin(), rest.end(), GridPoint{10, 2}) != rest.end()) << "the near door";
    (void)map.set_passable({10, 2}, false);  // the door shuts
    int ticks = 0;
    while (ms.status(u) != UnitStatus::Arrived && ticks < 100) {
        ms.update();
        ++ticks;
        ASSERT_TRUE(map.passable(ms.position(u)));
        ASSERT_TRUE(legal_step(map, ms.previous_position(u), ms.position(u), false));
    }
    EXPECT_EQ(ms.status(u), UnitStatus::Arrived);
    EXPECT_EQ(ms.stats().repaths_map, 1u);
    EXPECT_EQ(ms.stats().path_requests, 2u);
}

// Units behind a long wall (a long search at 16 expansions a tick), sent to the far side while `change`
// alters the map before every tick: checks every step (legal, on an open cell, no failure) and returns
// the ticks until all arrived (3,000 when they did not).
int walk_round_the_wall_while(GridMap& map, MovementOptions options, int count, const std::function<void()>& change) {
    for (int y = 0; y < 55; ++y) (void)map.set_passable({30, y}, false);
    options.path_budget = 16;
    MovementSystem ms(map, options);
    std::vector<UnitId> units;
    for (int i = 0; i < count; ++i) {
        units.push_back(ms.add_unit({2 + 3 * i, 2}));
        EXPECT_TRUE(ms.move_to(units.back(), Destination::at({50 + i, 4})));
    }
    const auto all_arrived = [&] {
        for (const UnitId u : units)
            if (ms.status(u) != UnitStatus::Arrived) return false;
        return true;
    };
    int ticks = 0;
    for (; ticks < 3000 && !all_arrived(); ++ticks) {
        change();
        ms.update();
        for (const UnitId u : units) {
            EXPECT_TRUE(map.passable(ms.position(u)));
            EXPECT_TRUE(legal_step(map, ms.previous_position(u), ms.position(u), false));
            EXPECT_NE(ms.status(u), UnitStatus::Failed);
            if (::testing::Test::HasFailure()) return -1;
        }
    }
    for (int i = 0; all_arrived() && i < count; ++i) EXPECT_EQ(ms.position(units[std::size_t(i)]), (GridPoint{50 + i, 4}));
    EXPECT_EQ(ms.stats().repaths_map, 0u) << "no change ever crossed a route";
    return ticks;
}

// A game painting terrain costs every tick (danger, traffic): units whose path takes several ticks of
// search budget still get it and arrive (cost changes used to restart their searches every tick).
TEST(Movement, CostsPaintedEveryTickDoNotHoldUnitsUp) {
    GridMap map = open_map(60, 60);
    std::mt19937 rng(5);
    const int ticks = walk_round_the_wall_while(map, {}, 4, [&] {
        ASSERT_TRUE(map.set_cost({int(rng() % 60), int(rng() % 60)}, 1 + std::uint32_t(rng() % 5)));
    });
    EXPECT_LT(ticks, 3000) << "the units never arrived";
}

// A map whose cells open and close every tick (here inside a walled-off yard): with
// restart_on_passability_change off, searches spanning several ticks still finish and the units arrive,
// never on a closed cell.
TEST(Movement, CellsFlappingEveryTickNeedNotHoldUnitsUp) {
    GridMap map = open_map(60, 60);
    for (int i = 40; i < 52; ++i) {  // a yard walled off at the bottom left
        (void)map.set_passable({i - 40, 48}, false);
        (void)map.set_passable({12, i}, false);
    }
    MovementOptions options;
    options.restart_on_passability_change = false;
    std::mt19937 rng(8);
    const int ticks = walk_round_the_wall_while(map, options, 3, [&] {
        const GridPoint p{int(rng() % 11), 50 + int(rng() % 10)};  // inside the yard
        (void)map.set_passable(p, !map.passable(p));
    });
    EXPECT_LT(ticks, 3000) << "the units never arrived";
}

// The per-request budget: a walk round a long wall needs more expansions than the budget allows, so the
// unit fails and says why; the same walk within a larger budget arrives. The setter reaches the queue.
TEST(Movement, ASearchBudgetTooSmallFailsTheWalkAsBudget) {
    GridMap map = open_map(60, 60);
    for (int y = 0; y < 55; ++y) (void)map.set_passable({30, y}, false);
    for (const std::uint64_t budget : {50u, 100000u}) {
        MovementOptions options;
        options.search_budget = budget;
        options.path_budget = 16;  // the request spans updates: the budget is for all of them together
        MovementSystem ms(map, options);
        const UnitId u = ms.add_unit({2, 2});
        ASSERT_TRUE(ms.move_to(u, Destination::at({50, 4})));
        for (int t = 0; t < 3000 && ms.status(u) != UnitStatus::Arrived && ms.status(u) != UnitStatus::Failed; ++t) ms.update();
        if (budget == 50) {
            EXPECT_EQ(ms.status(u), UnitStatus::Failed);
            EXPECT_EQ(ms.failure(u), MoveFailure::Budget);
            EXPECT_EQ(ms.position(u), (GridPoint{2, 2}));
        } else {
            EXPECT_EQ(ms.status(u), UnitStatus::Arrived);
            EXPECT_EQ(ms.failure(u), MoveFailure::None);
        }
    }
}

// set_restart_on_passability_change after construction does what the option does at construction.
TEST(Movement, CellsFlappingNeedNotHoldUnitsUpWhenSetLater) {
    GridMap map = open_map(60, 60);
    for (int i = 40; i < 52; ++i) {
        (void)map.set_passable({i - 40, 48}, false);
        (void)map.set_passable({12, i}, false);
    }
    for (int y = 0; y < 55; ++y) (void)map.set_passable({30, y}, false);
    for (const bool restart : {true, false}) {
        MovementOptions options;
        options.path_budget = 16;
        MovementSystem ms(map, options);
        ms.set_restart_on_passability_change(restart);
        const UnitId u = ms.add_unit({2, 2});
        ASSERT_TRUE(ms.move_to(u, Destination::at({50, 4})));
        std::mt19937 rng(8);
        int t = 0;
        for (; t < 1500 && ms.status(u) != UnitStatus::Arrived; ++t) {
            const GridPoint p{int(rng() % 11), 50 + int(rng() % 10)};
            (void)map.set_passable(p, !map.passable(p));
            ms.update();
        }
        if (restart) EXPECT_EQ(ms.status(u), UnitStatus::Planning) << "restarted by every change";
        else EXPECT_EQ(ms.status(u), UnitStatus::Arrived) << "after " << t << " ticks";
    }
}

// A unit blocked in a one-cell corridor by an anchored unit: after still_limit ticks standing it counts
// one jam, and after give_up_ticks without progress the walk fails as Stuck (never, with 0).
TEST(Movement, ABlockedUnitCountsAJamAndGivesUpWhenAsked) {
    GridMap map = open_map(12, 3);
    for (int x = 0; x < 12; ++x) {
        (void)map.set_passable({x, 0}, false);
        (void)map.set_passable({x, 2}, false);
    }
    for (const std::uint32_t give_up : {0u, 25u}) {
        MovementOptions options;
        options.still_limit = 7;
        options.give_up_ticks = give_up;
        MovementSystem ms(map, options);
        const UnitId blocker = ms.add_unit({6, 1});
        ASSERT_TRUE(ms.set_anchored(blocker, true));
        const UnitId u = ms.add_unit({0, 1});
        ASSERT_TRUE(ms.move_to(u, Destination::at({11, 1})));
        int t = 0;
        for (; t < 200 && ms.status(u) != UnitStatus::Failed; ++t) {
            ms.update();
            EXPECT_LT(ms.position(u).x, 6);
            EXPECT_EQ(ms.stats().jams, ms.stats().longest_still >= 7 ? 1u : 0u) << "tick " << t;
        }
        EXPECT_EQ(ms.position(blocker), (GridPoint{6, 1}));
        if (give_up == 0) {
            EXPECT_NE(ms.status(u), UnitStatus::Failed);
            EXPECT_GE(ms.stats().longest_still, 190u);
            EXPECT_EQ(ms.stats().jams, 1u);
        } else {
            ASSERT_EQ(ms.status(u), UnitStatus::Failed);
            EXPECT_EQ(ms.failure(u), MoveFailure::Stuck);
            EXPECT_LE(t, 5 + 25 + 1) << "it walks 5 cells, then stalls 25 ticks";
            EXPECT_GE(t, 25);
        }
    }
}

TEST(Movement, StopCancelsCleanlyAndTheUnitStaysPut) {
    GridMap map = open_map(40, 40);
    MovementSystem ms(map);
    const UnitId u = ms.add_unit({1, 1});
    ASSERT_TRUE(ms.move_to(u, Destination::at({38, 38})));
    EXPECT_TRUE(ms.stop(u));  // aborted before the path came
    EXPECT_EQ(ms.status(u), UnitStatus::Idle);
    for (int t = 0; t < 5; ++t) ms.update();
    EXPECT_EQ(ms.position(u), (GridPoint{1, 1}));
    EXPECT_EQ(ms.stats().paths, 0u) << "the cancelled request never completed";
    ASSERT_TRUE(ms.move_to(u, Destination::at({38, 38})));
    for (int t = 0; t < 6; ++t) ms.update();
    const GridPoint there = ms.position(u);
    EXPECT_NE(there, (GridPoint{1, 1}));
    EXPECT_TRUE(ms.stop(u));  // aborted mid-walk
    EXPECT_TRUE(ms.remaining_route(u).empty());
    for (int t = 0; t < 5; ++t) ms.update();
    EXPECT_EQ(ms.position(u), there);
    EXPECT_EQ(ms.status(u), UnitStatus::Idle);
    EXPECT_FALSE(ms.stop(77));
}

TEST(Movement, AMovingDestinationIsFollowed) {
    GridMap map = open_map(40, 30);
    MovementSystem ms(map);
    const UnitId u = ms.add_unit({1, 1});
    GridPoint target{30, 25};
    int moves = 0;
    for (int t = 0; t < 200 && ms.status(u) != UnitStatus::Arrived; ++t) {
        if (t % 5 == 0 && t < 40) {  // the target walks left
            target.x -= 2;
            ASSERT_TRUE(ms.move_to(u, Destination::at(target)));
            ++moves;
        }
        ms.update();
    }
    EXPECT_EQ(ms.status(u), UnitStatus::Arrived);
    EXPECT_EQ(ms.position(u), target);
    EXPECT_EQ(ms.stats().repaths_goal, std::uint64_t(moves - 1));
    // Same destination again: nothing happens.
    const std::uint64_t requests = ms.stats().path_requests;
    ASSERT_TRUE(ms.move_to(u, Destination::at(target)));
    EXPECT_EQ(ms.stats().path_requests, requests);
}

TEST(Movement, IdleUnitsArePushedAsideAndAnchoredOnesNever) {
    // A corridor 2 wide; idle units stand in it, one of them anchored.
    GridMap map = open_map(20, 2);
    MovementSystem ms(map);
    const UnitId walker = ms.add_unit({0, 0});
    const UnitId idle = ms.add_unit({8, 0});
    const UnitId anchor = ms.add_unit({12, 1});
    ASSERT_TRUE(ms.set_anchored(anchor, true));
    ASSERT_TRUE(ms.move_to(walker, Destination::at({19, 0})));
    const std::vector<UnitId> ids{walker, idle, anchor};
    for (int t = 0; t < 60 && ms.status(walker) != UnitStatus::Arrived; ++t) {
        ms.update();
        ASSERT_EQ(referee(ms, ids, false), 0) << "tick " << t;
        ASSERT_EQ(ms.position(anchor), (GridPoint{12, 1}));
    }
    EXPECT_EQ(ms.status(walker), UnitStatus::Arrived);
    EXPECT_GT(ms.stats().pushes + ms.stats().detours, 0u);
}

TEST(Movement, ClaimsPenaliseTheCellsAheadDecaying) {
    GridMap map = open_map(30, 5);
    MovementOptions o;
    o.claim_cells = 4;
    o.claim_penalty = 2.0f;
    o.still_penalty = 0.0f;
    MovementSystem ms(map, o);
    const UnitId u = ms.add_unit({0, 2});
    ASSERT_TRUE(ms.move_to(u, Destination::at({29, 2})));
    ms.update();  // path found, first step to (1, 2)
    ms.update();  // claims written from (1, 2): (2..5, 2); then the step to (2, 2)
    ASSERT_EQ(ms.position(u), (GridPoint{2, 2}));
    EXPECT_FLOAT_EQ(ms.claims().at({2, 2}), 2.0f);
    EXPECT_FLOAT_EQ(ms.claims().at({3, 2}), 1.5f);
    EXPECT_FLOAT_EQ(ms.claims().at({4, 2}), 1.0f);
    EXPECT_FLOAT_EQ(ms.claims().at({5, 2}), 0.5f);
    EXPECT_FLOAT_EQ(ms.claims().at({6, 2}), 0.0f);
    EXPECT_FLOAT_EQ(ms.claims().at({1, 2}), 0.0f) << "nothing behind the claimant";
}

TEST(Movement, HeadOnInACorridorWithABayNobodyCollides) {
    // Two groups swap ends of a one-wide corridor that has a bay to step into.
    GridMap map;
    (void)map.reset(24, 3, false);
    for (int x = 0; x < 24; ++x) (void)map.set_passable({x, 1}, true);
    for (int x = 10; x < 14; ++x) (void)map.set_passable({x, 0}, true);  // the bay
    MovementSystem ms(map);
    std::vector<UnitId> ids;
    for (int i = 0; i < 3; ++i) ids.push_back(ms.add_unit({i, 1}));
    for (int i = 0; i < 3; ++i) ids.push_back(ms.add_unit({23 - i, 1}));
    // Each group keeps its order (a one-wide dead end cannot reorder a file).
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(ms.move_to(ids[std::size_t(i)], Destination::at({21 + i, 1})));
    for (int i = 0; i < 3; ++i) ASSERT_TRUE(ms.move_to(ids[std::size_t(3 + i)], Destination::at({2 - i, 1})));
    int t = 0;
    const auto all_arrived = [&] {
        return std::all_of(ids.begin(), ids.end(), [&](UnitId id) { return ms.status(id) == UnitStatus::Arrived; });
    };
    for (; t < 400 && !all_arrived(); ++t) {
        ms.update();
        ASSERT_EQ(referee(ms, ids, false), 0) << "tick " << t;
    }
    EXPECT_TRUE(all_arrived()) << "after " << t << " ticks";
    EXPECT_GT(ms.stats().waits + ms.stats().detours, 0u) << "the groups had to give way";
}

// Lifelong crowds on random maps: every unit gets a new destination when it arrives or fails.
struct CrowdRun {
    std::uint64_t arrivals = 0, violations = 0, ticks = 0;
    std::vector<GridPoint> final_positions;
    MovementStats stats;
};

CrowdRun run_crowd(std::uint32_t seed, int w, int h, double walls, std::size_t units, int ticks, bool four,
                   StepResolver resolver = StepResolver::Builtin) {
    std::mt19937 rng(seed);
    GridMap map = open_map(w, h);
    std::uniform_real_distribution<double> u01(0, 1);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            if (u01(rng) < walls) (void)map.set_passable({x, y}, false);
    MovementOptions o;
    o.movement = four ? Movement::Four : Movement::Eight;
    o.resolver = resolver;
    MovementSystem ms(map, o);
    std::vector<UnitId> ids;
    const auto random_free = [&] {
        for (;;) {
            const GridPoint p{int(rng() % unsigned(w)), int(rng() % unsigned(h))};
            if (map.passable(p)) return p;
        }
    };
    while (ids.size() < units) {
        const UnitId id = ms.add_unit(random_free());
        if (id != kNoUnit) ids.push_back(id);
    }
    CrowdRun r;
    for (int t = 0; t < ticks; ++t) {
        for (const UnitId id : ids) {
            const UnitStatus s = ms.status(id);
            if (s == UnitStatus::Idle || s == UnitStatus::Arrived || s == UnitStatus::Failed) {
                r.arrivals += s == UnitStatus::Arrived;
                (void)ms.move_to(id, Destination::at(random_free(), std::int32_t(rng() % 2)));
            }
        }
        ms.update();
        r.violations += std::uint64_t(referee(ms, ids, four));
        ++r.ticks;
    }
    for (const UnitId id : ids) r.final_positions.push_back(ms.position(id));
    r.stats = ms.stats();
    return r;
}

TEST(MovementCrowd, LifelongCrowdsNeverCollideOnRandomMaps) {
    for (std::uint32_t seed = 1; seed <= 4; ++seed) {
        const bool four = seed % 2 == 0;
        const CrowdRun r = run_crowd(seed, 32, 32, 0.15, 120, 400, four);
        EXPECT_EQ(r.violations, 0u) << "seed " << seed;
        EXPECT_GT(r.arrivals, 120u) << "seed " << seed << ": the crowd should keep arriving";
        EXPECT_GT(r.stats.steps, 120u * 100u) << "seed " << seed;
    }
}

TEST(MovementCrowd, TheCrowdStepperResolverNeverCollidesEither) {
    // StepResolver::Crowd (crowd.hpp's CrowdStepper) on open maps, where its crow-flies guidance holds.
    for (std::uint32_t seed = 1; seed <= 2; ++seed) {
        const CrowdRun r = run_crowd(seed, 32, 32, 0.0, 120, 300, seed == 2, StepResolver::Crowd);
        EXPECT_EQ(r.violations, 0u) << "seed " << seed;
        EXPECT_GT(r.arrivals, 120u) << "seed " << seed;
    }
}

TEST(MovementCrowd, SameCallsSameResult) {
    const CrowdRun a = run_crowd(9, 24, 24, 0.1, 80, 200, false);
    const CrowdRun b = run_crowd(9, 24, 24, 0.1, 80, 200, false);
    EXPECT_EQ(a.final_positions, b.final_positions);
    EXPECT_EQ(a.stats.steps, b.stats.steps);
    EXPECT_EQ(a.stats.waits, b.stats.waits);
}

TEST(Movement, RejectsBadOptions) {
    GridMap map = open_map(4, 4);
    MovementOptions o;
    o.path_weight = 0.5;
    EXPECT_THROW(MovementSystem(map, o), std::invalid_argument);
    o = {};
    o.claim_penalty = -1;
    EXPECT_THROW(MovementSystem(map, o), std::invalid_argument);
    o = {};
    o.lanes = kMaxQueueLanes + 1;
    EXPECT_THROW(MovementSystem(map, o), std::invalid_argument);
    o.lanes = kMaxQueueLanes;
    EXPECT_NO_THROW(MovementSystem(map, o));
    GridMap empty;
    EXPECT_THROW(MovementSystem(empty, {}), std::invalid_argument);
}

}  // namespace
