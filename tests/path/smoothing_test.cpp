// Line of sight and smoothing against independent oracles: an exact geometric line-of-sight test, the
// reference Dijkstra, the step-by-step path checker, and a Bresenham line written here.
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/smoothing.hpp>

#include "hpa_test_support.hpp"

#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;
using gameplan::test::ref_check_path;
using gameplan::test::ref_dijkstra;
using gameplan::test::ref_random_grid;
using gameplan::test::ref_step_cost;
using gameplan::test::ref_step_legal;

namespace {

struct Rule {
    Movement movement;
    DiagonalRule diagonal;
    const char* name;
};
const Rule kRules[] = {
    {Movement::Four, DiagonalRule::Always, "4-connected"},
    {Movement::Eight, DiagonalRule::Never, "8/never"},
    {Movement::Eight, DiagonalRule::NoCornerCutting, "8/no-corner-cutting"},
    {Movement::Eight, DiagonalRule::OneObstacle, "8/one-obstacle"},
    {Movement::Eight, DiagonalRule::Always, "8/always"},
};

// A shortest path under `rule`, read off the reference distances backwards from the goal.
std::vector<GridPoint> reference_path(const RefGrid& g, GridPoint s, GridPoint t, RefDiagonal rule) {
    const std::vector<double> dist = ref_dijkstra(g, {{s.x, s.y}}, rule);
    std::vector<GridPoint> out;
    if (!std::isfinite(dist[std::size_t(t.y) * g.width + t.x])) return out;
    GridPoint at = t;
    out.push_back(at);
    while (!(at == s)) {
        const double here = dist[std::size_t(at.y) * g.width + at.x];
        GridPoint next = at;
        for (int dy = -1; dy <= 1 && next == at; ++dy)
            for (int dx = -1; dx <= 1 && next == at; ++dx) {
                const int px = at.x + dx, py = at.y + dy;
                if (!g.inside(px, py) || !ref_step_legal(g, px, py, -dx, -dy, rule)) continue;
                const double d = dist[std::size_t(py) * g.width + px];
                if (std::abs(d + ref_step_cost(g, -dx, -dy, at.x, at.y) - here) < 1e-9 * std::max(1.0, here)) next = {px, py};
            }
        at = next;
        out.push_back(at);
    }
    std::reverse(out.begin(), out.end());
    return out;
}

// The plain Bresenham-style octile line (minor coordinate round(i m / n), halves up), written here.
std::vector<GridPoint> bresenham(GridPoint a, GridPoint b) {
    const int dx = b.x - a.x, dy = b.y - a.y, n = std::max(std::abs(dx), std::abs(dy)), m = std::min(std::abs(dx), std::abs(dy));
    std::vector<GridPoint> out;
    for (int i = 1; i <= n; ++i) {
        const int minor = (2 * i * m + n) / (2 * n);
        const int major = i;
        if (std::abs(dx) >= std::abs(dy)) out.push_back({a.x + (dx < 0 ? -major : major), a.y + (dy < 0 ? -minor : minor)});
        else out.push_back({a.x + (dx < 0 ? -minor : minor), a.y + (dy < 0 ? -major : major)});
    }
    return out;
}

}  // namespace

TEST(LineOfSight, HandMadeCorners) {
    // Two cells touching diagonally with both, one or none of the side cells blocked.
    GridMap map;
    ASSERT_EQ(map.reset(4, 4), GridSizeCheck::Ok);
    EXPECT_TRUE(line_of_sight(map, {0, 0}, {3, 3}, Movement::Eight, DiagonalRule::NoCornerCutting));
    map.set_passable({3, 0}, false);  // nowhere near the segment
    EXPECT_TRUE(line_of_sight(map, {0, 0}, {3, 3}, Movement::Eight, DiagonalRule::NoCornerCutting));
    map.set_passable({3, 0}, true);
    map.set_passable({1, 0}, false);  // side cell of the vertex (0.5, 0.5)
    EXPECT_FALSE(line_of_sight(map, {0, 0}, {3, 3}, Movement::Eight, DiagonalRule::NoCornerCutting));
    EXPECT_FALSE(line_of_sight(map, {0, 0}, {3, 3}, Movement::Four, DiagonalRule::Always));
    EXPECT_FALSE(line_of_sight(map, {0, 0}, {3, 3}, Movement::Eight, DiagonalRule::Never));
    EXPECT_TRUE(line_of_sight(map, {0, 0}, {3, 3}, Movement::Eight, DiagonalRule::OneObstacle));
    EXPECT_TRUE(line_of_sight(map, {0, 0}, {3, 3}, Movement::Eight, DiagonalRule::Always));
    map.set_passable({0, 1}, false);  // both side cells blocked: a squeeze
    EXPECT_FALSE(line_of_sight(map, {0, 0}, {3, 3}, Movement::Eight, DiagonalRule::OneObstacle));
    EXPECT_TRUE(line_of_sight(map, {0, 0}, {3, 3}, Movement::Eight, DiagonalRule::Always));
    // (0,0) -> (4,1) passes (0,0) (1,0) (2,0) (2,1) (3,1) (4,1), crossing y = 0.5 inside column 2: no
    // vertex, so (1,1) and (3,0), right beside it, do not matter.
    GridMap open;
    ASSERT_EQ(open.reset(5, 3), GridSizeCheck::Ok);
    open.set_passable({1, 1}, false);
    open.set_passable({3, 0}, false);
    EXPECT_TRUE(line_of_sight(open, {0, 0}, {4, 1}, Movement::Eight, DiagonalRule::NoCornerCutting));
    open.set_passable({2, 1}, false);
    EXPECT_FALSE(line_of_sight(open, {0, 0}, {4, 1}, Movement::Eight, DiagonalRule::Always));
    // (0,0) -> (3,1) passes exactly through the vertex (1.5, 0.5), touching (2,0) and (1,1) there.
    GridMap vertex;
    ASSERT_EQ(vertex.reset(4, 2), GridSizeCheck::Ok);
    vertex.set_passable({1, 1}, false);
    EXPECT_FALSE(line_of_sight(vertex, {0, 0}, {3, 1}, Movement::Eight, DiagonalRule::NoCornerCutting));
    EXPECT_TRUE(line_of_sight(vertex, {0, 0}, {3, 1}, Movement::Eight, DiagonalRule::OneObstacle));
    vertex.set_passable({2, 0}, false);
    EXPECT_FALSE(line_of_sight(vertex, {0, 0}, {3, 1}, Movement::Eight, DiagonalRule::OneObstacle));
    EXPECT_TRUE(line_of_sight(vertex, {0, 0}, {3, 1}, Movement::Eight, DiagonalRule::Always));
}

TEST(LineOfSight, MatchesExactOracleOnRandomMaps) {
    std::mt19937 rng(11);
    std::size_t agreed = 0, visible = 0;
    for (int map_index = 0; map_index < 12; ++map_index) {
        const int w = 10 + static_cast<int>(rng() % 40), h = 10 + static_cast<int>(rng() % 40);
        const RefGrid ref = ref_random_grid(rng, w, h, 0.05 + 0.05 * (map_index % 5), false);
        const GridMap map = to_map(ref);
        for (int q = 0; q < 400; ++q) {
            const GridPoint a{static_cast<int>(rng() % w), static_cast<int>(rng() % h)};
            const GridPoint b{static_cast<int>(rng() % w), static_cast<int>(rng() % h)};
            if (!ref.free(a.x, a.y) || !ref.free(b.x, b.y)) continue;
            for (const Rule& rule : kRules) {
                const bool expected = oracle_line_of_sight(ref, a, b, ref_rule(rule.movement, rule.diagonal));
                ASSERT_EQ(line_of_sight(map, a, b, rule.movement, rule.diagonal), expected)
                    << rule.name << " (" << a.x << "," << a.y << ") -> (" << b.x << "," << b.y << ")";
                ASSERT_EQ(line_of_sight(map, b, a, rule.movement, rule.diagonal), expected) << "not symmetric";
                ++agreed;
                visible += expected;
            }
        }
    }
    EXPECT_GT(visible, agreed / 10);  // the sample has both answers in number
    EXPECT_LT(visible, agreed - agreed / 10);
}

TEST(LineOfSight, EveryLegalStepIsVisible) {
    std::mt19937 rng(3);
    const RefGrid ref = ref_random_grid(rng, 30, 30, 0.35, false);
    const GridMap map = to_map(ref);
    for (const Rule& rule : kRules)
        for (int y = 0; y < 30; ++y)
            for (int x = 0; x < 30; ++x)
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dx = -1; dx <= 1; ++dx)
                        if (ref.free(x, y) && ref_step_legal(ref, x, y, dx, dy, ref_rule(rule.movement, rule.diagonal))) {
                            ASSERT_TRUE(line_of_sight(map, {x, y}, {x + dx, y + dy}, rule.movement, rule.diagonal)) << rule.name;
                        }
}

TEST(WalkableLine, IsAShortestLegalGridPath) {
    std::mt19937 rng(21);
    std::size_t walkable = 0, bresenham_walkable = 0, total = 0;
    for (int map_index = 0; map_index < 10; ++map_index) {
        const int w = 12 + static_cast<int>(rng() % 30), h = 12 + static_cast<int>(rng() % 30);
        const bool terrain = map_index % 3 == 2;
        const RefGrid ref = ref_random_grid(rng, w, h, 0.04 * (map_index % 6), terrain, 1, 4);
        const GridMap map = to_map(ref);
        std::vector<GridPoint> line(200);
        for (int q = 0; q < 300; ++q) {
            const GridPoint a{static_cast<int>(rng() % w), static_cast<int>(rng() % h)};
            const GridPoint b{static_cast<int>(rng() % w), static_cast<int>(rng() % h)};
            if (!ref.free(a.x, a.y) || !ref.free(b.x, b.y)) continue;
            for (const Rule& rule : kRules) {
                const RefDiagonal ref_diagonal = ref_rule(rule.movement, rule.diagonal);
                double cost = -1;
                const bool ok = walkable_line(map, a, b, rule.movement, rule.diagonal, &cost);
                const std::size_t written = write_walkable_line(map, a, b, rule.movement, rule.diagonal, line.data());
                ++total;
                // The Bresenham line, when every step of it is legal, is always accepted.
                const std::vector<GridPoint> straight = bresenham(a, b);
                bool straight_ok = ref_diagonal != RefDiagonal::None;
                for (std::size_t i = 0; i < straight.size() && straight_ok; ++i) {
                    const GridPoint from = i == 0 ? a : straight[i - 1];
                    straight_ok = ref_step_legal(ref, from.x, from.y, straight[i].x - from.x, straight[i].y - from.y, ref_diagonal);
                }
                if (straight_ok) {
                    ++bresenham_walkable;
                    ASSERT_TRUE(ok) << rule.name;
                }
                if (a == b) {
                    EXPECT_TRUE(ok);
                    EXPECT_EQ(written, 0u);
                    continue;
                }
                ASSERT_EQ(ok, written > 0) << rule.name;
                if (!ok) continue;
                ++walkable;
                std::vector<GridPoint> cells{a};
                cells.insert(cells.end(), line.begin(), line.begin() + static_cast<std::ptrdiff_t>(written));
                ASSERT_EQ(ref_check_path(ref, pairs_of(cells), a.x, a.y, b.x, b.y, ref_diagonal, cost), "") << rule.name;
                const int adx = std::abs(b.x - a.x), ady = std::abs(b.y - a.y);
                if (ref_diagonal == RefDiagonal::None) {
                    EXPECT_EQ(written, static_cast<std::size_t>(adx + ady));
                } else {
                    EXPECT_EQ(written, static_cast<std::size_t>(std::max(adx, ady)));
                    if (!terrain) {
                        EXPECT_NEAR(cost, std::max(adx, ady) + (std::sqrt(2.0) - 1) * std::min(adx, ady), 1e-9);
                    }
                }
            }
        }
    }
    EXPECT_GT(walkable, bresenham_walkable);  // stepping aside finds lines Bresenham misses
    EXPECT_GT(bresenham_walkable, total / 10);
}

TEST(SmoothPath, LegalNeverDearerNeverBelowOptimal) {
    std::mt19937 rng(8);
    double before = 0, after = 0, optimal_sum = 0;
    for (int map_index = 0; map_index < 40; ++map_index) {
        const int w = 15 + static_cast<int>(rng() % 40), h = 15 + static_cast<int>(rng() % 40);
        const bool terrain = map_index % 4 == 3;
        const Rule& rule = kRules[map_index % 5];
        const RefDiagonal ref_diagonal = ref_rule(rule.movement, rule.diagonal);
        const RefGrid ref = ref_random_grid(rng, w, h, 0.03 * (map_index % 8), terrain, 1, 5);
        const GridMap map = to_map(ref);
        for (int q = 0; q < 8; ++q) {
            const GridPoint s{static_cast<int>(rng() % w), static_cast<int>(rng() % h)};
            const GridPoint t{static_cast<int>(rng() % w), static_cast<int>(rng() % h)};
            if (!ref.free(s.x, s.y) || !ref.free(t.x, t.y)) continue;
            // A legal but poor input: a shortest 4-connected path, smoothed under the 8-connected rule.
            GridPath path{reference_path(ref, s, t, gameplan::test::RefDiagonal::None), 0.0};
            if (path.cells.empty()) continue;
            path.cost = grid_path_cost(map, path);
            const double input = path.cost;
            SmoothingOptions options;
            options.movement = rule.movement;
            options.diagonal = rule.diagonal;
            options.lookahead = static_cast<std::uint32_t>(q % 3) * 4;
            smooth_path(map, path, options);
            ASSERT_EQ(ref_check_path(ref, pairs_of(path.cells), s.x, s.y, t.x, t.y, ref_diagonal, path.cost), "")
                << rule.name << " terrain " << terrain;
            const double optimal = ref_dijkstra(ref, {{s.x, s.y}}, ref_diagonal)[std::size_t(t.y) * w + t.x];
            ASSERT_LE(path.cost, input + 1e-9 * input);
            ASSERT_GE(path.cost, optimal - 1e-9 * optimal);
            before += input;
            after += path.cost;
            optimal_sum += optimal;
        }
    }
    EXPECT_LT(after, before);  // it does shorten poor paths
    std::printf("[ smooth_path ] total cost %.1f -> %.1f (optimal %.1f)\n", before, after, optimal_sum);
}

// The backward pass (on by default) pulls again from the goal: never dearer than the forward pass alone,
// cheaper on some paths, and legal either way.
TEST(SmoothPath, TheBackwardPassNeverCostsMoreAndSometimesLess) {
    std::mt19937 rng(21);
    int cheaper = 0;
    for (int map_index = 0; map_index < 30; ++map_index) {
        const int w = 20 + static_cast<int>(rng() % 30), h = 20 + static_cast<int>(rng() % 30);
        const RefGrid ref = ref_random_grid(rng, w, h, 0.05 + 0.02 * (map_index % 6), map_index % 3 == 2, 1, 5);
        const GridMap map = to_map(ref);
        for (int q = 0; q < 8; ++q) {
            const GridPoint s{static_cast<int>(rng() % w), static_cast<int>(rng() % h)};
            const GridPoint t{static_cast<int>(rng() % w), static_cast<int>(rng() % h)};
            if (!ref.free(s.x, s.y) || !ref.free(t.x, t.y)) continue;
            GridPath input{reference_path(ref, s, t, gameplan::test::RefDiagonal::None), 0.0};
            if (input.cells.empty()) continue;
            input.cost = grid_path_cost(map, input);
            double cost[2];
            for (const bool backward : {false, true}) {
                GridPath path = input;
                SmoothingOptions options;
                options.backward_pass = backward;
                smooth_path(map, path, options);
                ASSERT_EQ(ref_check_path(ref, pairs_of(path.cells), s.x, s.y, t.x, t.y, gameplan::test::RefDiagonal::BothFree, path.cost), "");
                cost[backward] = path.cost;
            }
            ASSERT_LE(cost[1], cost[0] + 1e-9 * cost[0]);
            if (cost[1] < cost[0] - 1e-9 * cost[0]) ++cheaper;
        }
    }
    EXPECT_GT(cheaper, 0) << "the backward pass never shortened a path";
}

TEST(SmoothPath, ShortPathsAndIllegalInputAreSafe) {
    GridMap map;
    ASSERT_EQ(map.reset(5, 5), GridSizeCheck::Ok);
    GridPath empty;
    smooth_path(map, empty);
    EXPECT_TRUE(empty.cells.empty());
    GridPath two{{{0, 0}, {1, 1}}, std::sqrt(2.0)};
    smooth_path(map, two);
    EXPECT_EQ(two.cells.size(), 2u);
    // An L-shaped path in open space becomes the diagonal.
    GridPath corner{{{0, 0}, {1, 0}, {2, 0}, {2, 1}, {2, 2}}, 4.0};
    smooth_path(map, corner);
    EXPECT_EQ(corner.cells, (std::vector<GridPoint>{{0, 0}, {1, 1}, {2, 2}}));
    EXPECT_NEAR(corner.cost, 2 * std::sqrt(2.0), 1e-12);
    // Diagonal steps in a path smoothed as 4-connected (an illegal input) must not corrupt memory.
    GridPath diagonal{{{0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}}, 4 * std::sqrt(2.0)};
    SmoothingOptions four;
    four.movement = Movement::Four;
    smooth_path(map, diagonal, four);
    EXPECT_EQ(diagonal.cells.front(), (GridPoint{0, 0}));
    EXPECT_EQ(diagonal.cells.back(), (GridPoint{4, 4}));
}

TEST(SmoothAnyAngle, SegmentsHaveLineOfSightAndCostNoMore) {
    std::mt19937 rng(9);
    for (int map_index = 0; map_index < 30; ++map_index) {
        const int w = 15 + static_cast<int>(rng() % 40), h = 15 + static_cast<int>(rng() % 40);
        const Rule& rule = kRules[map_index % 5];
        const RefDiagonal ref_diagonal = ref_rule(rule.movement, rule.diagonal);
        const RefGrid ref = ref_random_grid(rng, w, h, 0.04 * (map_index % 7), false);
        const GridMap map = to_map(ref);
        for (int q = 0; q < 8; ++q) {
            const GridPoint s{static_cast<int>(rng() % w), static_cast<int>(rng() % h)};
            const GridPoint t{static_cast<int>(rng() % w), static_cast<int>(rng() % h)};
            if (!ref.free(s.x, s.y) || !ref.free(t.x, t.y)) continue;
            GridPath path{reference_path(ref, s, t, ref_diagonal), 0.0};
            if (path.cells.empty()) continue;
            path.cost = grid_path_cost(map, path);
            const double grid_cost = path.cost;
            SmoothingOptions options;
            options.movement = rule.movement;
            options.diagonal = rule.diagonal;
            ASSERT_TRUE(smooth_any_angle(map, path, options));
            ASSERT_EQ(path.cells.front(), s);
            ASSERT_EQ(path.cells.back(), t);
            double length = 0;
            for (std::size_t i = 1; i < path.cells.size(); ++i) {
                ASSERT_TRUE(oracle_line_of_sight(ref, path.cells[i - 1], path.cells[i], ref_diagonal)) << rule.name;
                length += euclidean_distance(path.cells[i - 1], path.cells[i]);
            }
            EXPECT_NEAR(path.cost, length, 1e-9 * std::max(1.0, length));
            EXPECT_LE(path.cost, grid_cost + 1e-9 * grid_cost);
            EXPECT_GE(path.cost, euclidean_distance(s, t) - 1e-9);
        }
    }
    GridMap weighted;
    ASSERT_EQ(weighted.reset(4, 4), GridSizeCheck::Ok);
    weighted.set_cost({1, 1}, 3);
    GridPath path{{{0, 0}, {1, 0}, {2, 0}}, 2.0};
    EXPECT_FALSE(smooth_any_angle(weighted, path));
    EXPECT_EQ(path.cells.size(), 3u);
}
