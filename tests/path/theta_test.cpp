// Theta* against independent oracles: the reference Dijkstra (grid-optimal cost, reachability) and the
// exact line-of-sight oracle; on random maps under every rule and on the shared small maps.
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/smoothing.hpp>
#include <gameplan/path/theta_star.hpp>

#include "hpa_test_support.hpp"
#include "test_data.hpp"

#include <cmath>
#include <cstdio>
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
