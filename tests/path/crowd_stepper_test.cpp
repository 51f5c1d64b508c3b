// Lifelong crowd stepping: every tick checked against the rules by an independent checker; goals keep
// arriving and everybody keeps reaching them.
#include "crowd_support.hpp"

#include <gameplan/path/crowd.hpp>

#include <algorithm>
#include <deque>
#include <map>
#include <random>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;

namespace {

bool legal_step(const GridMap& map, GridPoint a, GridPoint b, bool eight) {
    const int dx = b.x - a.x;
    const int dy = b.y - a.y;
    if (dx == 0 && dy == 0) return true;
    if (!map.passable(b) || std::abs(dx) > 1 || std::abs(dy) > 1) return false;
    if (dx != 0 && dy != 0) return eight && map.passable({a.x + dx, a.y}) && map.passable({a.x, a.y + dy});
    return true;
}

// Shortest route (BFS, one tick per step) from `from` to `to`, without `from`; empty if unreachable.
std::vector<GridPoint> route(const GridMap& map, GridPoint from, GridPoint to, bool eight) {
    const auto w = static_cast<std::size_t>(map.width());
    std::vector<int> parent(w * static_cast<std::size_t>(map.height()), -1);
    auto key = [w](GridPoint p) { return static_cast<std::size_t>(p.y) * w + static_cast<std::size_t>(p.x); };
    std::deque<GridPoint> queue{from};
    parent[key(from)] = static_cast<int>(key(from));
    while (!queue.empty()) {
        const GridPoint p = queue.front();
        queue.pop_front();
        if (p == to) break;
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                const GridPoint q{p.x + dx, p.y + dy};
                if ((dx == 0 && dy == 0) || !legal_step(map, p, q, eight) || (!eight && dx != 0 && dy != 0)) continue;
                if (parent[key(q)] >= 0) continue;
                parent[key(q)] = static_cast<int>(key(p));
                queue.push_back(q);
            }
    }
    std::vector<GridPoint> out;
    if (parent[key(to)] < 0) return out;
    for (GridPoint p = to; !(p == from);) {
        out.push_back(p);
        const auto k = static_cast<std::size_t>(parent[key(p)]);
        p = GridPoint{static_cast<int>(k % w), static_cast<int>(k / w)};
    }
    std::reverse(out.begin(), out.end());
    return out;
}

// The rules of one tick, checked from the positions before and after.
std::string check_tick(const GridMap& map, const std::vector<GridPoint>& before, const std::vector<GridPoint>& after,
                       bool eight) {
    std::map<std::pair<int, int>, std::size_t> was, now;
    for (std::size_t i = 0; i < before.size(); ++i) {
        if (!legal_step(map, before[i], after[i], eight)) return "illegal step of unit " + std::to_string(i);
        if (!now.emplace(std::pair{after[i].x, after[i].y}, i).second) return "two units in one cell";
        was.emplace(std::pair{before[i].x, before[i].y}, i);
    }
    for (std::size_t i = 0; i < before.size(); ++i) {
        if (before[i] == after[i]) continue;
        const auto it = was.find({after[i].x, after[i].y});
        if (it != was.end() && after[it->second] == before[i]) return "swap";
        if (before[i].x != after[i].x && before[i].y != after[i].y) {
            // the other diagonal of the same 2x2 block
            const auto other = was.find({after[i].x, before[i].y});
            if (other != was.end() && after[other->second] == GridPoint{before[i].x, after[i].y})
                return "crossing diagonals";
        }
    }
    return "";
}

struct Lifelong {
    int arrivals_min = 0;
    int longest_trip = 0;  // most ticks any unit needed for one goal
    std::vector<GridPoint> trace;  // every position of every tick, for determinism checks
};

Lifelong run_lifelong(std::uint32_t seed, Movement movement, int units, int idle, int ticks) {
    const bool eight = movement == Movement::Eight;
    std::mt19937 rng(seed);
    GridMap map;
    (void)map.reset(24, 24);
    // pillars: single blocked cells, no two touching, so every two neighbouring free cells lie on a
    // cycle (PIBT's reachability condition: no dead ends; none on the border either)
    for (int y = 1; y < 23; y += 2)
        for (int x = 1; x < 23; x += 2)
            if (rng() % 3 == 0) map.set_passable({x, y}, false);
    // units and goals live in the largest 4-connected component
    std::vector<GridPoint> free;
    {
        std::vector<char> seen(24 * 24, 0);
        for (int start = 0; start < 24 * 24; ++start) {
            const GridPoint s{start % 24, start / 24};
            if (!map.passable(s) || seen[static_cast<std::size_t>(start)]) continue;
            std::vector<GridPoint> comp{s};
            seen[static_cast<std::size_t>(start)] = 1;
            for (std::size_t k = 0; k < comp.size(); ++k) {
                const GridPoint p = comp[k];
                const GridPoint next[4] = {{p.x + 1, p.y}, {p.x - 1, p.y}, {p.x, p.y + 1}, {p.x, p.y - 1}};
                for (const GridPoint q : next)
                    if (map.passable(q) && !seen[static_cast<std::size_t>(q.y * 24 + q.x)]) {
                        seen[static_cast<std::size_t>(q.y * 24 + q.x)] = 1;
                        comp.push_back(q);
                    }
            }
            if (comp.size() > free.size()) free = comp;
        }
    }
    std::shuffle(free.begin(), free.end(), rng);
    CrowdStepper stepper;
    stepper.reset(map, movement, DiagonalRule::NoCornerCutting);
    std::vector<CrowdAgentId> ids;
    for (int i = 0; i < units + idle; ++i) ids.push_back(stepper.add(free[static_cast<std::size_t>(i)]));
    for (const CrowdAgentId id : ids) EXPECT_NE(id, kNoCrowdAgent);
    std::vector<std::vector<GridPoint>> routes(ids.size());
    std::vector<GridPoint> goals(ids.size());
    std::vector<int> arrivals(ids.size(), 0);
    std::vector<int> since(ids.size(), 0);
    auto new_goal = [&](std::size_t i) {
        for (;;) {
            const GridPoint g = free[rng() % free.size()];
            if (std::find(goals.begin(), goals.end(), g) != goals.end()) continue;
            goals[i] = g;
            break;
        }
        routes[i] = route(map, stepper.position(ids[i]), goals[i], eight);
        stepper.set_goal(ids[i], routes[i]);
    };
    for (int i = 0; i < units; ++i) new_goal(static_cast<std::size_t>(i));
    Lifelong result;
    std::vector<GridPoint> before(ids.size()), after(ids.size());
    for (int t = 0; t < ticks; ++t) {
        for (std::size_t i = 0; i < ids.size(); ++i) before[i] = stepper.position(ids[i]);
        stepper.tick();
        for (std::size_t i = 0; i < ids.size(); ++i) after[i] = stepper.position(ids[i]);
        const std::string error = check_tick(map, before, after, eight);
        EXPECT_EQ(error, "") << "tick " << t;
        if (!error.empty()) return result;
        result.trace.insert(result.trace.end(), after.begin(), after.end());
        for (int i = 0; i < units; ++i) {
            const auto k = static_cast<std::size_t>(i);
            result.longest_trip = std::max(result.longest_trip, ++since[k]);
            if (stepper.arrived(ids[k])) {
                since[k] = 0;
                ++arrivals[k];
                new_goal(k);
            } else if (stepper.off_route_ticks(ids[k]) > 0) {
                routes[k] = route(map, stepper.position(ids[k]), goals[k], eight);
                stepper.set_goal(ids[k], routes[k]);
            }
        }
    }
    result.arrivals_min = *std::min_element(arrivals.begin(), arrivals.begin() + units);
    return result;
}

}  // namespace

TEST(CrowdStepper, LifelongFourConnectedNoCollisionsEverybodyArrives) {
    for (std::uint32_t seed : {1u, 2u, 3u}) {
        const Lifelong r = run_lifelong(seed, Movement::Four, 60, 10, 1500);
        EXPECT_GE(r.arrivals_min, 5) << "seed " << seed;
        EXPECT_LT(r.longest_trip, 300) << "seed " << seed;
    }
}

TEST(CrowdStepper, LifelongEightConnectedNoCollisionsEverybodyArrives) {
    for (std::uint32_t seed : {4u, 5u, 6u}) {
        const Lifelong r = run_lifelong(seed, Movement::Eight, 60, 10, 1500);
        EXPECT_GE(r.arrivals_min, 5) << "seed " << seed;
        EXPECT_LT(r.longest_trip, 300) << "seed " << seed;
    }
}

TEST(CrowdStepper, Deterministic) {
    const Lifelong a = run_lifelong(9, Movement::Eight, 40, 5, 300);
    const Lifelong b = run_lifelong(9, Movement::Eight, 40, 5, 300);
    EXPECT_EQ(a.trace, b.trace);
}

TEST(CrowdStepper, IdleUnitStepsAsideInACorridor) {
    // A walker must pass an idle unit standing in a one-wide corridor with a pocket.
    const GridMap map = crowd_test::parse({
        "........",
        "@@@.@@@@",
    });
    CrowdStepper stepper;
    stepper.reset(map, Movement::Four);
    const CrowdAgentId walker = stepper.add({0, 0});
    const CrowdAgentId idle = stepper.add({3, 0});
    ASSERT_NE(walker, kNoCrowdAgent);
    ASSERT_NE(idle, kNoCrowdAgent);
    const std::vector<GridPoint> path = route(map, {0, 0}, {7, 0}, false);
    stepper.set_goal(walker, path);
    bool pushed = false;
    for (int t = 0; t < 30 && !stepper.arrived(walker); ++t) {
        const std::vector<GridPoint> before{stepper.position(walker), stepper.position(idle)};
        stepper.tick();
        const std::vector<GridPoint> after{stepper.position(walker), stepper.position(idle)};
        ASSERT_EQ(check_tick(map, before, after, false), "");
        pushed = pushed || stepper.last_move(idle) == CrowdMove::Pushed;
    }
    EXPECT_TRUE(stepper.arrived(walker));
    EXPECT_TRUE(pushed);
}

TEST(CrowdStepper, HeldUnitNeitherMovesNorIsEntered) {
    const GridMap map = crowd_test::parse({"....."});
    CrowdStepper stepper;
    stepper.reset(map, Movement::Four);
    const CrowdAgentId a = stepper.add({0, 0});
    const CrowdAgentId b = stepper.add({2, 0});
    const std::vector<GridPoint> path = route(map, {0, 0}, {4, 0}, false);
    stepper.set_goal(a, path);
    for (int t = 0; t < 5; ++t) {
        ASSERT_TRUE(stepper.hold(b));
        stepper.tick();
        EXPECT_EQ(stepper.position(b), (GridPoint{2, 0}));
        EXPECT_EQ(stepper.position(a), (GridPoint{1, 0}));
    }
    EXPECT_EQ(stepper.last_move(a), CrowdMove::Waited);
    EXPECT_GT(stepper.stuck_ticks(a), 0u);
    stepper.tick();  // released: the walker now pushes b ahead of it
    EXPECT_EQ(stepper.position(a), (GridPoint{2, 0}));
    EXPECT_EQ(stepper.position(b), (GridPoint{3, 0}));
}

TEST(CrowdStepper, CrossingDiagonalsAreRefused) {
    // Unit 0 goes (0,0)->(1,1) while unit 1 goes (1,0)->(0,1): both diagonal through one 2x2 block.
    const GridMap map = crowd_test::parse({"..", ".."});
    CrowdStepper stepper;
    stepper.reset(map, Movement::Eight, DiagonalRule::NoCornerCutting);
    const CrowdAgentId a = stepper.add({0, 0});
    const CrowdAgentId b = stepper.add({1, 0});
    const std::vector<GridPoint> ra{{1, 1}};
    const std::vector<GridPoint> rb{{0, 1}};
    stepper.set_goal(a, ra);
    stepper.set_goal(b, rb);
    for (int t = 0; t < 6; ++t) {
        const std::vector<GridPoint> before{stepper.position(a), stepper.position(b)};
        stepper.tick();
        const std::vector<GridPoint> after{stepper.position(a), stepper.position(b)};
        ASSERT_EQ(check_tick(map, before, after, true), "") << "tick " << t;
    }
    EXPECT_TRUE(stepper.arrived(a));
    EXPECT_TRUE(stepper.arrived(b));
}

TEST(CrowdStepper, AddRemoveReposition) {
    const GridMap map = crowd_test::parse({"...", ".@.", "..."});
    CrowdStepper stepper;
    stepper.reset(map, Movement::Four);
    const CrowdAgentId a = stepper.add({0, 0});
    EXPECT_EQ(stepper.add({0, 0}), kNoCrowdAgent);  // occupied
    EXPECT_EQ(stepper.add({1, 1}), kNoCrowdAgent);  // blocked
    EXPECT_EQ(stepper.add({5, 5}), kNoCrowdAgent);  // off the map
    const CrowdAgentId b = stepper.add({2, 2});
    EXPECT_EQ(stepper.size(), 2u);
    EXPECT_FALSE(stepper.reposition(a, {2, 2}));
    EXPECT_TRUE(stepper.reposition(a, {2, 0}));
    EXPECT_EQ(stepper.position(a), (GridPoint{2, 0}));
    EXPECT_TRUE(stepper.remove(b));
    EXPECT_FALSE(stepper.remove(b));
    EXPECT_FALSE(stepper.contains(b));
    EXPECT_EQ(stepper.add({2, 2}), b);  // the id is reused
    EXPECT_FALSE(stepper.set_goal(99, {}));
}
