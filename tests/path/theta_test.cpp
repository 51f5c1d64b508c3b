// Theta* against independent oracles: the reference Dijkstra (grid-optimal cost, reachability) and the
// exact line-of-sight oracle; on random maps under every rule and on the shared small maps.
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/islands.hpp>
#include <gameplan/path/smoothing.hpp>
#include <gameplan/path/theta_star.hpp>

#include "hpa_test_support.hpp"
#include "test_data.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <reference_rules.hpp>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;
using gameplan::test::ref_dijkstra;
using gameplan::test::ref_random_grid;

namespace {

using Rule = gameplan::test::MovementRule;
constexpr const auto& kRules = gameplan::test::kAnyAngleRules;

// "" when the any-angle path is fine: endpoints, every segment visible (oracle), cost = sum of the
// segment lengths, Euclidean <= cost <= grid optimum.
std::string check_any_angle(const RefGrid& ref, const GridPath& path, GridPoint s, GridPoint g, double grid_optimal,
                            RefDiagonal rule, double slack) {
    if (path.cells.empty() || !(path.cells.front() == s) || !(path.cells.back() == g)) return "wrong endpoints";
    double length = 0;
    for (std::size_t i = 1; i < path.cells.size(); ++i) {
        if (!oracle_line_of_sight(ref, path.cells[i - 1], path.cells[i], rule))
            return "segment " + std::to_string(i) + " has no line of sight";
        length += euclidean_distance(path.cells[i - 1], path.cells[i]);
    }
    if (std::abs(length - path.cost) > 1e-9 * std::max(1.0, length)) return "cost is not the sum of the segments";
    if (path.cost < euclidean_distance(s, g) - 1e-9) return "cost below the Euclidean distance";
    if (path.cost > grid_optimal + slack) return "cost " + std::to_string(path.cost) + " above the grid optimum " + std::to_string(grid_optimal);
    return "";
}

}  // namespace

TEST(ThetaStar, InvalidAndTrivialQueries) {
    ThetaStar theta;
    GridPath path;
    GridMap empty;
    EXPECT_EQ(theta.find_path(empty, {0, 0}, {0, 0}, path), Status::InvalidQuery);
    GridMap map;
    ASSERT_EQ(map.reset(10, 10), GridSizeCheck::Ok);
    map.set_passable({4, 4}, false);
    EXPECT_EQ(theta.find_path(map, {4, 4}, {0, 0}, path), Status::InvalidQuery);
    EXPECT_EQ(theta.find_path(map, {0, 0}, {10, 0}, path), Status::InvalidQuery);
    ASSERT_EQ(theta.find_path(map, {2, 2}, {2, 2}, path), Status::Found);
    EXPECT_EQ(path.cells.size(), 1u);
    EXPECT_EQ(path.cost, 0.0);
    // In open space the path is one straight segment.
    ASSERT_EQ(theta.find_path(map, {0, 0}, {9, 3}, path), Status::Found);
    EXPECT_EQ(path.cells, (std::vector<GridPoint>{{0, 0}, {9, 3}}));
    EXPECT_NEAR(path.cost, std::sqrt(90.0), 1e-12);
    // Terrain costs: a dearer cell the segment only touches at a grid corner (1.5, 0.5) leaves it
    // straight; one it enters (x = 4, y = 4/3) bends it.
    map.set_cost({1, 1}, 2);
    ASSERT_EQ(theta.find_path(map, {0, 0}, {9, 3}, path), Status::Found);
    EXPECT_EQ(path.cells, (std::vector<GridPoint>{{0, 0}, {9, 3}}));
    EXPECT_NEAR(path.cost, std::sqrt(90.0), 1e-12);
    map.set_cost({4, 1}, 2);
    ASSERT_EQ(theta.find_path(map, {0, 0}, {9, 3}, path), Status::Found);
    EXPECT_GT(path.cells.size(), 2u);
    EXPECT_GT(path.cost, std::sqrt(90.0));
}

TEST(ThetaStar, NoPathAndBudget) {
    GridMap map;
    ASSERT_EQ(map.reset(30, 10), GridSizeCheck::Ok);
    for (int y = 0; y < 10; ++y) map.set_passable({15, y}, false);
    ThetaStar theta;
    GridPath path;
    EXPECT_EQ(theta.find_path(map, {0, 0}, {29, 9}, path), Status::NoPath);
    map.set_passable({15, 5}, true);
    ThetaStarOptions tight;
    tight.budget.max_expansions = 3;
    EXPECT_EQ(theta.find_path(map, {0, 0}, {29, 9}, path, tight), Status::BudgetExhausted);
    EXPECT_EQ(theta.stats().expanded, 3u);
    ASSERT_EQ(theta.find_path(map, {0, 0}, {29, 9}, path), Status::Found);
    EXPECT_GT(theta.line_of_sight_checks(), 0u);
    // Through the one-cell gap: the path bends at cells beside it.
    EXPECT_GE(path.cells.size(), 3u);
}

TEST(ThetaStar, RandomMapsAgainstOracles) {
    std::mt19937 rng(2026);
    std::size_t found = 0, strictly_shorter = 0;
    for (int map_index = 0; map_index < 60; ++map_index) {
        const int w = 10 + static_cast<int>(rng() % 45), h = 10 + static_cast<int>(rng() % 45);
        const Rule& rule = kRules[map_index % 4];
        const RefDiagonal ref_diagonal = ref_rule(rule.movement, rule.diagonal);
        const RefGrid ref = ref_random_grid(rng, w, h, 0.05 * (map_index % 8), false);
        const GridMap map = to_map(ref);
        ThetaStar theta;
        GridPath path;
        ThetaStarOptions options;
        options.movement = rule.movement;
        options.diagonal = rule.diagonal;
        for (int q = 0; q < 10; ++q) {
            const GridPoint s{static_cast<int>(rng() % w), static_cast<int>(rng() % h)};
            const GridPoint g{static_cast<int>(rng() % w), static_cast<int>(rng() % h)};
            if (!ref.free(s.x, s.y) || !ref.free(g.x, g.y)) continue;
            const double optimal = ref_dijkstra(ref, {{s.x, s.y}}, ref_diagonal)[std::size_t(g.y) * w + g.x];
            const Status status = theta.find_path(map, s, g, path, options);
            if (!std::isfinite(optimal)) {
                ASSERT_EQ(status, Status::NoPath) << rule.name;
                continue;
            }
            ASSERT_EQ(status, Status::Found) << rule.name;
            ASSERT_EQ(check_any_angle(ref, path, s, g, optimal, ref_diagonal, 1e-9 * optimal), "")
                << rule.name << " map " << map_index << " (" << s.x << "," << s.y << ") -> (" << g.x << "," << g.y << ")";
            ++found;
            strictly_shorter += path.cost < optimal - 1e-9;
        }
    }
    EXPECT_GT(found, 300u);
    EXPECT_GT(strictly_shorter, found / 2);  // any-angle paths beat grid paths most of the time
}

TEST(ThetaStar, IslandsAnswerUnreachableQueriesWithoutSearching) {
    std::mt19937 rng(2027);
    int unreachable = 0, reachable = 0;
    ThetaStar theta;
    GridPath with, without;
    for (int map_index = 0; map_index < 24; ++map_index) {
        const Rule& rule = kRules[map_index % 4];
        const RefGrid ref = ref_random_grid(rng, 30, 24, 0.38 + 0.01 * (map_index % 5), false);
        const GridMap map = to_map(ref);
        GridSearchOptions island_rule;
        island_rule.movement = rule.movement;
        island_rule.diagonal = rule.diagonal;
        Islands islands, four;
        islands.build(map, island_rule);
        GridSearchOptions four_rule;
        four_rule.movement = Movement::Four;
        four.build(map, four_rule);  // stricter than three of the rules: never used for them
        ThetaStarOptions plain;
        plain.movement = rule.movement;
        plain.diagonal = rule.diagonal;
        ThetaStarOptions checked = plain, stricter = plain;
        checked.islands = &islands;
        stricter.islands = &four;
        for (int q = 0; q < 20; ++q) {
            const GridPoint s{static_cast<int>(rng() % 30), static_cast<int>(rng() % 24)};
            const GridPoint g{static_cast<int>(rng() % 30), static_cast<int>(rng() % 24)};
            if (!ref.free(s.x, s.y) || !ref.free(g.x, g.y)) continue;
            const bool apart = !std::isfinite(ref_dijkstra(ref, {{s.x, s.y}}, ref_rule(rule.movement, rule.diagonal))[std::size_t(g.y) * 30 + g.x]);
            const Status b = theta.find_path(map, s, g, without, plain);
            const Status c = theta.find_path(map, s, g, with, stricter);
            EXPECT_EQ(c, b) << rule.name;
            const Status a = theta.find_path(map, s, g, with, checked);
            EXPECT_EQ(a, b) << rule.name;
            if (apart) {
                EXPECT_EQ(a, Status::NoPath) << rule.name;
                EXPECT_EQ(theta.stats().expanded, 0u) << rule.name;
                EXPECT_TRUE(with.cells.empty());
                ++unreachable;
            } else {
                ASSERT_EQ(a, Status::Found) << rule.name;
                EXPECT_EQ(with.cost, without.cost);
                ++reachable;
            }
        }
    }
    EXPECT_GT(unreachable, 40);
    EXPECT_GT(reachable, 40);
}

TEST(ThetaStar, SmallSharedMaps) {
    GAMEPLAN_REQUIRE_BENCHMARK_DATA();
    for (const BenchmarkMap& m : kSmallMaps) {
        const GridMap map = read_movingai_map(map_file(m));
        ASSERT_FALSE(map.empty());
        const std::vector<TestScenario> scenarios = read_movingai_scenarios(scen_file(m));
        const RefGrid ref = to_ref(map);
        ThetaStar theta;
        GridPath path;
        double ratio = 0;
        std::size_t checked = 0;
        for (std::size_t i = 0; i < scenarios.size(); i += gameplan::test::kSanitizedBuild ? 4 : 1, ++checked) {
            const TestScenario& sc = scenarios[i];
            ASSERT_EQ(theta.find_path(map, sc.start, sc.goal, path), Status::Found) << m.name << " #" << i;
            ASSERT_EQ(check_any_angle(ref, path, sc.start, sc.goal, sc.optimal, RefDiagonal::BothFree, sc.tolerance), "")
                << m.name << " #" << i;
            if (sc.optimal > 0) ratio += path.cost / sc.optimal;
        }
        std::printf("[ Theta* %s ] %zu scenarios: mean cost / grid optimum %.4f\n", m.name, checked,
                    ratio / static_cast<double>(checked));
    }
}

// ---- the memory budget ------------------------------------------------------------------------------

namespace {

// A 100 x 100 map with a quarter of its cells blocked (corners open) and a penalty layer.
struct ThetaBudgetWorld {
    GridMap map;
    PenaltyLayer penalties;
    ThetaBudgetWorld() {
        std::mt19937 rng(91);
        EXPECT_EQ(map.reset(100, 100), GridSizeCheck::Ok);
        for (int y = 0; y < 100; ++y)
            for (int x = 0; x < 100; ++x)
                if (rng() % 4 == 0) map.set_passable({x, y}, false);
        map.set_passable({0, 0}, true);
        map.set_passable({99, 99}, true);
        penalties.reset(map);
        for (int i = 0; i < 300; ++i) penalties.set({int(rng() % 100), int(rng() % 100)}, float(rng() % 4));
    }
};

const ThetaBudgetWorld& theta_world() {
    static const ThetaBudgetWorld world;
    return world;
}

// The query with uniform prices (classic Theta*) and with a penalty layer (links priced cell by cell).
ThetaStarOptions theta_options(bool layers, std::size_t max_memory_bytes) {
    ThetaStarOptions o;
    if (layers) o.penalties = &theta_world().penalties;
    o.budget.max_memory_bytes = max_memory_bytes;
    return o;
}

// Runs the query in slices of `slice`, checking memory_bytes() <= `cap` throughout.
Status theta_run(ThetaStar& t, const ThetaStarOptions& o, std::uint64_t slice, std::size_t cap) {
    Status s = t.begin(theta_world().map, {0, 0}, {99, 99}, o);
    EXPECT_LE(t.memory_bytes(), cap);
    while (s == Status::InProgress) {
        s = t.step(slice);
        EXPECT_LE(t.memory_bytes(), cap);
    }
    return s;
}

struct ThetaUnlimited {
    std::size_t bytes;
    double cost;
};
ThetaUnlimited theta_unlimited(bool layers) {
    ThetaStar t;
    GridPath path;
    EXPECT_EQ(theta_run(t, theta_options(layers, SIZE_MAX), UINT64_MAX, SIZE_MAX), Status::Found);
    EXPECT_EQ(t.budget_limit(), search::BudgetLimit::None);
    EXPECT_EQ(t.finish(path), Status::Found);
    return {t.memory_bytes(), path.cost};
}

}  // namespace

TEST(ThetaStar, MemoryBudgetBelowTheQueryStopsWithMemory) {
    for (const bool layers : {false, true}) {
        SCOPED_TRACE(layers ? "layers" : "uniform");
        const ThetaUnlimited full = theta_unlimited(layers);
        for (const std::size_t budget : {std::size_t{4096}, full.bytes / 2, full.bytes - 1}) {
            ThetaStar t;
            EXPECT_EQ(theta_run(t, theta_options(layers, budget), UINT64_MAX, budget), Status::BudgetExhausted) << budget;
            EXPECT_EQ(t.status(), Status::BudgetExhausted);
            EXPECT_EQ(t.budget_limit(), search::BudgetLimit::Memory);
            EXPECT_LE(t.memory_bytes(), budget);
            EXPECT_EQ(t.step(), Status::BudgetExhausted);  // final
            GridPath path;
            path.cells.push_back({1, 1});
            EXPECT_EQ(t.finish(path), Status::BudgetExhausted);
            EXPECT_TRUE(path.cells.empty());
            EXPECT_EQ(path.cost, std::numeric_limits<double>::infinity());
        }
        ThetaStar tiny;  // begin says so at once, allocating nothing
        EXPECT_EQ(tiny.begin(theta_world().map, {0, 0}, {99, 99}, theta_options(layers, 4096)), Status::BudgetExhausted);
        EXPECT_EQ(tiny.memory_bytes(), 0u);
    }
}

TEST(ThetaStar, MemoryBudgetOfWhatTheQueryHoldsLetsItThrough) {
    for (const bool layers : {false, true}) {
        SCOPED_TRACE(layers ? "layers" : "uniform");
        const ThetaUnlimited full = theta_unlimited(layers);
        for (const std::uint64_t slice : {std::uint64_t{UINT64_MAX}, std::uint64_t{7}}) {
            ThetaStar t;
            EXPECT_EQ(theta_run(t, theta_options(layers, full.bytes), slice, full.bytes), Status::Found);
            EXPECT_EQ(t.budget_limit(), search::BudgetLimit::None);
            EXPECT_EQ(t.memory_bytes(), full.bytes);  // grown exactly as without a limit
            GridPath path;
            EXPECT_EQ(t.finish(path), Status::Found);
            EXPECT_EQ(path.cost, full.cost);
        }
    }
}

TEST(ThetaStar, MemoryBudgetCountsWhatItAlreadyHolds) {
    GridMap small;
    ASSERT_EQ(small.reset(20, 20), GridSizeCheck::Ok);
    ThetaStar t;
    GridPath path;
    ASSERT_EQ(t.find_path(theta_world().map, {0, 0}, {99, 99}, path), Status::Found);  // sized for the big map
    const std::size_t held = t.memory_bytes();
    ASSERT_GT(held, 100u * 100u * 16u);
    EXPECT_EQ(t.find_path(small, {0, 0}, {19, 19}, path, theta_options(false, held - 1)), Status::BudgetExhausted);
    EXPECT_EQ(t.budget_limit(), search::BudgetLimit::Memory);
    EXPECT_EQ(t.stats().expanded, 0u);
    EXPECT_TRUE(path.cells.empty());
    EXPECT_EQ(t.memory_bytes(), held);
    // Invalid queries are refused as such before the budget is looked at.
    EXPECT_EQ(t.find_path(small, {0, 0}, {20, 19}, path, theta_options(false, held - 1)), Status::InvalidQuery);
    EXPECT_EQ(t.budget_limit(), search::BudgetLimit::None);
    // With room for what it holds, the small query runs without growing anything.
    EXPECT_EQ(t.find_path(small, {0, 0}, {19, 19}, path, theta_options(false, held)), Status::Found);
    EXPECT_EQ(t.budget_limit(), search::BudgetLimit::None);
    EXPECT_EQ(t.memory_bytes(), held);
}

TEST(ThetaStar, BudgetLimitSaysWhichLimitRanOut) {
    const GridMap& map = theta_world().map;
    ThetaStar t;
    GridPath path;
    ThetaStarOptions o;
    o.budget.max_expansions = 3;
    EXPECT_EQ(t.find_path(map, {0, 0}, {99, 99}, path, o), Status::BudgetExhausted);
    EXPECT_EQ(t.budget_limit(), search::BudgetLimit::Expansions);
    o.budget = {};
    o.budget.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    EXPECT_EQ(t.find_path(map, {0, 0}, {99, 99}, path, o), Status::BudgetExhausted);
    EXPECT_EQ(t.budget_limit(), search::BudgetLimit::Time);
    EXPECT_EQ(t.find_path(map, {0, 0}, {99, 99}, path, theta_options(false, 1000)), Status::BudgetExhausted);
    EXPECT_EQ(t.budget_limit(), search::BudgetLimit::Memory);
    EXPECT_EQ(t.find_path(map, {0, 0}, {99, 99}, path), Status::Found);
    EXPECT_EQ(t.budget_limit(), search::BudgetLimit::None);  // reset by begin
}

TEST(ThetaStar, MemoryBudgetCapsWhatItHolds) {
    // Budgets from far below the per-cell arrays to past the whole search (x1.25 steps), and finely over
    // the range where only the open list grows: never more held than the budget, and the query runs
    // exactly when the budget covers what it holds without one.
    for (const bool layers : {false, true}) {
        SCOPED_TRACE(layers ? "layers" : "uniform");
        const ThetaUnlimited full = theta_unlimited(layers);
        ThetaStar started;
        ASSERT_EQ(started.begin(theta_world().map, {0, 0}, {99, 99}, theta_options(layers, SIZE_MAX)), Status::InProgress);
        const std::size_t base = started.memory_bytes();
        ASSERT_LT(base, full.bytes);
        std::vector<std::size_t> budgets;
        for (double b = 256; b < 1.5 * double(full.bytes); b *= 1.25) budgets.push_back(std::size_t(b));
        for (double r = 1.0 / 512; r < 1.5; r *= 1.25) budgets.push_back(base + std::size_t(r * double(full.bytes - base)));
        for (const std::size_t budget : budgets) {
            ThetaStar t;
            const Status s = theta_run(t, theta_options(layers, budget), 64, budget);
            ASSERT_LE(t.memory_bytes(), budget);
            if (budget >= full.bytes) {
                EXPECT_EQ(s, Status::Found) << budget;
            } else {
                EXPECT_EQ(s, Status::BudgetExhausted) << budget;
                EXPECT_EQ(t.budget_limit(), search::BudgetLimit::Memory) << budget;
            }
        }
    }
}
