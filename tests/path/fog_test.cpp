// Fog of war (fog.hpp) and influence maps (influence.hpp). Exploration is checked against a BFS
// reachability reference and a reference Dijkstra written here, on random maps; influence maps against
// hand-computed values and a GOAP plan whose action costs read the influence along walking routes.
#include <gameplan/goap/domain.hpp>
#include <gameplan/goap/planner.hpp>
#include <gameplan/path/fog.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/influence.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <deque>
#include <functional>
#include <limits>
#include <queue>
#include <random>
#include <vector>

namespace {

using namespace gameplan;
using namespace gameplan::path;

bool legal(const GridMap& m, GridPoint a, GridPoint b, Movement movement, DiagonalRule rule) {
    const int dx = b.x - a.x, dy = b.y - a.y;
    if (std::abs(dx) > 1 || std::abs(dy) > 1 || (dx == 0 && dy == 0) || !m.passable(b)) return false;
    if (dx == 0 || dy == 0) return true;
    if (movement == Movement::Four) return false;
    const bool s1 = m.passable({b.x, a.y}), s2 = m.passable({a.x, b.y});
    switch (rule) {
        case DiagonalRule::Never: return false;
        case DiagonalRule::NoCornerCutting: return s1 && s2;
        case DiagonalRule::OneObstacle: return s1 || s2;
        case DiagonalRule::Always: return true;
    }
    return false;
}

// Reference: BFS reachability and Dijkstra distance on the true map.
double reference_distance(const GridMap& m, GridPoint s, GridPoint g, Movement movement, DiagonalRule rule) {
    const int w = m.width();
    std::vector<double> dist(m.cell_count(), std::numeric_limits<double>::infinity());
    using Item = std::pair<double, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> q;
    dist[std::size_t(s.y * w + s.x)] = 0;
    q.push({0, s.y * w + s.x});
    while (!q.empty()) {
        const auto [d, i] = q.top();
        q.pop();
        if (d > dist[std::size_t(i)]) continue;
        const GridPoint a{i % w, i / w};
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                const GridPoint b{a.x + dx, a.y + dy};
                if (!legal(m, a, b, movement, rule)) continue;
                const double nd = d + (dx && dy ? std::sqrt(2.0) : 1.0) * m.cost(b);
                if (nd < dist[std::size_t(b.y * w + b.x)]) dist[std::size_t(b.y * w + b.x)] = nd, q.push({nd, b.y * w + b.x});
            }
    }
    return dist[std::size_t(g.y * w + g.x)];
}

bool bfs_reachable(const GridMap& m, GridPoint s, GridPoint g, Movement movement, DiagonalRule rule) {
    std::vector<char> seen(m.cell_count(), 0);
    std::deque<GridPoint> q{s};
    seen[std::size_t(s.y * m.width() + s.x)] = 1;
    while (!q.empty()) {
        const GridPoint a = q.front();
        q.pop_front();
        if (a == g) return true;
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                const GridPoint b{a.x + dx, a.y + dy};
                if (!legal(m, a, b, movement, rule) || seen[std::size_t(b.y * m.width() + b.x)]) continue;
                seen[std::size_t(b.y * m.width() + b.x)] = 1;
                q.push_back(b);
            }
    }
    return false;
}

TEST(Fog, ExploreArrivesWhenReachableAndNeverEntersWalls) {
    std::mt19937 rng(2011);
    Explorer explorer;
    ExploreResult result;
    int arrived = 0, unreachable = 0, replanned = 0;
    for (int round = 0; round < 150; ++round) {
        GridMap truth;
        const int w = 6 + int(rng() % 30), h = 6 + int(rng() % 20);
        ASSERT_EQ(truth.reset(w, h), GridSizeCheck::Ok);
        const double density = 0.1 + 0.35 * double(rng() % 100) / 100.0;
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                if (double(rng() % 1000) / 1000.0 < density) truth.set_passable({x, y}, false);
                else if (round % 3 == 0) truth.set_cost({x, y}, 1 + std::uint32_t(rng() % 3));
            }
        GridPoint s{int(rng() % std::uint32_t(w)), int(rng() % std::uint32_t(h))};
        const GridPoint g{int(rng() % std::uint32_t(w)), int(rng() % std::uint32_t(h))};
        truth.set_passable(s, true);
        if (round % 5 != 0) truth.set_passable(g, true);  // sometimes the goal itself is a wall
        const Movement movement = round % 4 == 1 ? Movement::Four : Movement::Eight;
        const DiagonalRule rule = round % 4 == 2 ? DiagonalRule::OneObstacle : DiagonalRule::NoCornerCutting;
        ExploreOptions options;
        options.movement = movement;
        options.diagonal = rule;
        options.sight = 1 + int(rng() % 4);
        if (round % 7 == 3) options.unknown_multiplier = 2.0;
        TeamKnowledge team(truth);
        const Status status = explorer.explore(truth, team, s, g, options, result);
        const bool reachable = bfs_reachable(truth, s, g, movement, rule);
        if (reachable) {
            ASSERT_EQ(status, Status::Found) << "round " << round;
            ++arrived;
            const double optimal = reference_distance(truth, s, g, movement, rule);
            EXPECT_GE(result.travelled, optimal - 1e-9);
            EXPECT_EQ(result.path.back(), g);
        } else {
            ASSERT_EQ(status, Status::NoPath) << "round " << round;
            ++unreachable;
        }
        replanned += result.replans > 0;
        ASSERT_EQ(result.path.front(), s);
        EXPECT_EQ(result.steps + 1, result.path.size());
        double travelled = 0;
        for (std::size_t i = 1; i < result.path.size(); ++i) {
            ASSERT_TRUE(legal(truth, result.path[i - 1], result.path[i], movement, rule)) << "round " << round << " step " << i;
            const bool diagonal = result.path[i].x != result.path[i - 1].x && result.path[i].y != result.path[i - 1].y;
            travelled += (diagonal ? std::sqrt(2.0) : 1.0) * truth.cost(result.path[i]);
        }
        EXPECT_NEAR(travelled, result.travelled, 1e-9 * std::max(1.0, travelled));
        // the team learnt exactly the truth of what it saw
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) {
                const CellKnowledge k = team.state({x, y});
                if (k == CellKnowledge::Unknown) continue;
                EXPECT_EQ(k == CellKnowledge::Free, truth.passable({x, y}));
            }
    }
    EXPECT_GT(arrived, 60);
    EXPECT_GT(unreachable, 10);
    EXPECT_GT(replanned, 20);
}

TEST(Fog, WallDiscoveredOnTheWayForcesAReplan) {
    // A wall across the middle with a gap at the bottom; the unit sees 1 cell and heads straight east.
    GridMap truth;
    ASSERT_EQ(truth.reset(11, 7), GridSizeCheck::Ok);
    for (int y = 0; y < 6; ++y) truth.set_passable({5, y}, false);
    TeamKnowledge team(truth);
    Explorer explorer;
    ExploreResult result;
    ExploreOptions options;
    options.sight = 1;
    ASSERT_EQ(explorer.explore(truth, team, {0, 0}, {10, 0}, options, result), Status::Found);
    EXPECT_GE(result.replans, 1u);
    EXPECT_GT(result.travelled, reference_distance(truth, {0, 0}, {10, 0}, Movement::Eight, DiagonalRule::NoCornerCutting) - 1e-9);
    for (const GridPoint& p : result.path) EXPECT_TRUE(truth.passable(p));
}

// A serpentine: walls across every other row with the gap at alternate ends. A unit that sees one cell
// walks into every dead end first, so the walk replans many times, each plan a search of the belief.
GridMap serpentine(int w, int h) {
    GridMap m;
    EXPECT_EQ(m.reset(w, h), GridSizeCheck::Ok);
    for (int y = 1; y < h; y += 2)
        for (int x = 0; x < w; ++x)
            if (x != ((y / 2) % 2 == 0 ? w - 1 : 0)) m.set_passable({x, y}, false);
    return m;
}

TEST(Fog, TheWalksBudgetStopsItWhereTheUnitStandsAndNamesTheLimit) {
    const GridMap truth = serpentine(30, 21);
    const GridPoint start{0, 0}, goal{0, 20};
    ExploreOptions options;
    options.sight = 1;
    Explorer explorer;
    ExploreResult full;
    {
        TeamKnowledge team(truth);
        ASSERT_EQ(explorer.explore(truth, team, start, goal, options, full), Status::Found);
        EXPECT_EQ(full.limit, search::BudgetLimit::None);
        ASSERT_GT(full.replans, 5u);
    }
    // The expansions of all plans count together: any budget below the walk's total stops it (the plans
    // before the last within the budget), the total itself lets the same walk arrive.
    for (const std::uint64_t budget : {std::uint64_t{1}, full.expanded / 3, full.expanded - 1, full.expanded}) {
        TeamKnowledge team(truth);
        ExploreResult result;
        options.budget = {};
        options.budget.max_expansions = budget;
        const Status status = explorer.explore(truth, team, start, goal, options, result);
        EXPECT_LE(result.expanded, budget);
        if (budget == full.expanded) {
            EXPECT_EQ(status, Status::Found);
            EXPECT_EQ(result.path, full.path);
            EXPECT_EQ(result.limit, search::BudgetLimit::None);
            continue;
        }
        ASSERT_EQ(status, Status::BudgetExhausted) << "budget " << budget;
        EXPECT_EQ(result.limit, search::BudgetLimit::Expansions);
        // stopped part way along the same walk
        ASSERT_LT(result.path.size(), full.path.size());
        EXPECT_TRUE(std::equal(result.path.begin(), result.path.end(), full.path.begin()));
    }
    {  // a deadline already past: no plan is made, the unit has not moved
        TeamKnowledge team(truth);
        ExploreResult result;
        options.budget = {};
        options.budget.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
        ASSERT_EQ(explorer.explore(truth, team, start, goal, options, result), Status::BudgetExhausted);
        EXPECT_EQ(result.limit, search::BudgetLimit::Time);
        EXPECT_EQ(result.path, std::vector<GridPoint>{start});
        EXPECT_EQ(result.expanded, 0u);
    }
    {  // the pathfinder's state for this map does not fit in 1 KiB (a fresh explorer: nothing held yet)
        Explorer fresh;
        TeamKnowledge team(truth);
        ExploreResult result;
        options.budget = {};
        options.budget.max_memory_bytes = 1024;
        ASSERT_EQ(fresh.explore(truth, team, start, goal, options, result), Status::BudgetExhausted);
        EXPECT_EQ(result.limit, search::BudgetLimit::Memory);
        EXPECT_EQ(result.path, std::vector<GridPoint>{start});
    }
    // max_steps stops the walk after that many steps, where the unit stands, along the same walk; it is
    // not a limit of the budget (limit None).
    options.budget = {};
    ASSERT_GT(full.steps, 20u);
    for (const std::uint64_t steps : {std::uint64_t{1}, std::uint64_t{17}, full.steps - 1, full.steps}) {
        TeamKnowledge team(truth);
        ExploreResult result;
        options.max_steps = steps;
        const Status status = explorer.explore(truth, team, start, goal, options, result);
        EXPECT_EQ(result.limit, search::BudgetLimit::None);
        if (steps == full.steps) {
            EXPECT_EQ(status, Status::Found);
            EXPECT_EQ(result.path, full.path);
            continue;
        }
        ASSERT_EQ(status, Status::BudgetExhausted) << "max_steps " << steps;
        EXPECT_EQ(result.steps, steps);
        ASSERT_EQ(result.path.size(), steps + 1);
        EXPECT_TRUE(std::equal(result.path.begin(), result.path.end(), full.path.begin()));
    }
}

TEST(Fog, TwoTeamsSeeDifferentThings) {
    GridMap truth;
    ASSERT_EQ(truth.reset(20, 10), GridSizeCheck::Ok);
    truth.set_passable({3, 3}, false);
    truth.set_passable({16, 6}, false);
    TeamKnowledge red(truth), blue(truth);
    EXPECT_EQ(red.reveal(truth, {2, 2}, 2), 1u);   // red sees the west wall
    EXPECT_EQ(blue.reveal(truth, {17, 7}, 2), 1u);  // blue sees the east wall
    EXPECT_EQ(red.state({3, 3}), CellKnowledge::Blocked);
    EXPECT_EQ(blue.state({3, 3}), CellKnowledge::Unknown);
    EXPECT_EQ(blue.state({16, 6}), CellKnowledge::Blocked);
    EXPECT_EQ(red.state({16, 6}), CellKnowledge::Unknown);
    EXPECT_TRUE(blue.belief().passable({3, 3}));  // unknown counts as walkable
    EXPECT_FALSE(red.belief().passable({3, 3}));
    EXPECT_EQ(red.known_count(), 25u);
    EXPECT_EQ(red.state({2, 2}), CellKnowledge::Free);
    // A second unit of the red team plans with what the first one saw.
    GridPathfinder finder;
    GridPath path;
    ASSERT_EQ(finder.find_path(red.belief(), {3, 0}, {3, 6}, GridSearchOptions{}, path), Status::Found);
    for (const GridPoint& p : path.cells) EXPECT_FALSE(p == (GridPoint{3, 3}));
    ASSERT_EQ(finder.find_path(blue.belief(), {3, 0}, {3, 6}, GridSearchOptions{}, path), Status::Found);
    EXPECT_DOUBLE_EQ(path.cost, 6.0);  // blue walks straight through the wall it does not know
    // Forbid unknown cells through the team's areas: only known ground.
    AreaFilter known_only;
    known_only.forbid(kAreaUnknown);
    GridSearchOptions o;
    o.areas = &red.areas();
    o.filter = &known_only;
    EXPECT_EQ(finder.find_path(red.belief(), {0, 0}, {4, 4}, o, path), Status::Found);
    EXPECT_EQ(finder.find_path(red.belief(), {0, 0}, {6, 6}, o, path), Status::InvalidQuery);  // goal unknown
    // Memory per team: 3 bytes per padded cell without terrain costs.
    EXPECT_EQ(red.memory_bytes(), 3u * 22u * 12u);
}

TEST(Influence, EventsSpreadAndDecay) {
    GridMap map;
    ASSERT_EQ(map.reset(10, 10), GridSizeCheck::Ok);
    InfluenceMap danger(map);
    EXPECT_EQ(danger.add_event({5, 5}, 8.0f, 3), 29u);  // cells within Euclidean distance 3: 29
    EXPECT_FLOAT_EQ(danger.at({5, 5}), 8.0f);
    EXPECT_FLOAT_EQ(danger.at({6, 5}), 6.0f);   // 8 x (1 - 1/4)
    EXPECT_FLOAT_EQ(danger.at({5, 8}), 2.0f);   // 8 x (1 - 3/4)
    EXPECT_FLOAT_EQ(danger.at({8, 8}), 0.0f);   // distance 4.24 > 3
    EXPECT_EQ(danger.add_event({0, 0}, 4.0f, 1), 3u);  // clipped at the corner; (1, 1) is 1.41 away
    EXPECT_EQ(danger.add_event({0, 0}, -1.0f, 1), 0u);
    EXPECT_EQ(danger.add_event({0, 0}, 1.0f, kMaxInfluenceRadius + 1), 0u);
    EXPECT_TRUE(danger.decay(0.5f));
    EXPECT_FLOAT_EQ(danger.at({5, 5}), 4.0f);
    EXPECT_TRUE(danger.decay_for(2.0, 1.0));  // two half-lives
    EXPECT_FLOAT_EQ(danger.at({5, 5}), 1.0f);
    EXPECT_FALSE(danger.decay(1.5f));
    for (int i = 0; i < 20; ++i) danger.decay(0.5f);
    EXPECT_EQ(danger.at({5, 5}), 0.0f);  // below the floor: gone
    const std::vector<GridPoint> route{{4, 5}, {5, 5}, {6, 5}};
    danger.add_event({5, 5}, 8.0f, 3);
    EXPECT_DOUBLE_EQ(danger.sum_along(route), 14.0);  // entered cells only
    EXPECT_FLOAT_EQ(danger.max_along(route), 8.0f);
}

TEST(Influence, SearchesAvoidDangerAndGoapCostsReadIt) {
    // Two mines at equal walking distance from home; wolves killed someone near the east route.
    GridMap map;
    ASSERT_EQ(map.reset(21, 11), GridSizeCheck::Ok);
    const GridPoint home{10, 10}, west_mine{2, 2}, east_mine{18, 2};
    InfluenceMap danger(map);
    GridPathfinder finder;
    GridPath west, east;
    const auto routes = [&](double weight) {
        const CostLayer layers[] = {{&danger.layer(), weight}};
        GridSearchOptions o;
        o.layers = layers;
        EXPECT_EQ(finder.find_path(map, home, west_mine, o, west), Status::Found);
        EXPECT_EQ(finder.find_path(map, home, east_mine, o, east), Status::Found);
    };
    routes(1.0);
    EXPECT_NEAR(west.cost, east.cost, 1e-9);
    danger.add_event({14, 6}, 10.0f, 4);
    // GOAP: "how dangerous is the way to the mine?" as the cost of two otherwise equal actions.
    goap::DomainBuilder b;
    ASSERT_EQ(b.add_action("mine_west", 1.0, {{"at_home", true}}, {{"has_ore", true}}), goap::DomainError::None);
    ASSERT_EQ(b.add_action("mine_east", 1.0, {{"at_home", true}}, {{"has_ore", true}}), goap::DomainError::None);
    const goap::Domain domain = b.build();
    goap::WorldState start = domain.make_state();
    start.set(domain.find_atom("at_home"), true);
    goap::Condition goal = domain.make_condition();
    goal.set(domain.find_atom("has_ore"), true);
    routes(0.0);  // plain walking routes, then priced by the danger they cross
    const double costs[] = {west.cost + danger.sum_along(west.cells), east.cost + danger.sum_along(east.cells)};
    EXPECT_DOUBLE_EQ(danger.sum_along(west.cells), 0.0);
    EXPECT_GT(danger.sum_along(east.cells), 0.0);
    goap::Planner planner(domain);
    goap::PlanOptions po;
    po.costs = costs;
    const goap::PlanResult plan = planner.plan(start, goal, po);
    ASSERT_EQ(plan.status, Status::Found);
    ASSERT_EQ(plan.plan.size(), 1u);
    EXPECT_EQ(domain.action_name(plan.plan[0]), "mine_west");
    // The search itself, with the danger as a layer, detours around it (no rebuild needed): its cost
    // with the layer is at most the plain route's cost plus the danger that route crosses.
    const double plain_cost = east.cost, plain_danger = danger.sum_along(east.cells);
    routes(1.0);
    EXPECT_LT(east.cost, plain_cost + plain_danger);
    EXPECT_LT(danger.sum_along(east.cells), plain_danger);
}

}  // namespace
