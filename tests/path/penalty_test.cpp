// Per-cell penalties in GridPathfinder (penalty_layer.hpp): penalised searches against an independent
// reference Dijkstra written here, on random maps with terrain, every diagonal rule and several weights.
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/penalty_layer.hpp>
#include <gameplan/path/request_queue.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <random>
#include <utility>
#include <vector>

namespace {

using namespace gameplan;
using namespace gameplan::path;

// Reference: textbook Dijkstra on a row-major grid; step cost = length x cost(entered) + w x pen(entered).
struct Ref {
    int w = 0, h = 0;
    std::vector<int> cost;     // 0 = blocked
    std::vector<double> pen;   // >= 0
    [[nodiscard]] bool free(int x, int y) const { return x >= 0 && y >= 0 && x < w && y < h && cost[std::size_t(y * w + x)] > 0; }
};

bool ref_legal(const Ref& g, int x, int y, int dx, int dy, DiagonalRule rule, Movement movement) {
    if (!g.free(x + dx, y + dy)) return false;
    if (dx == 0 || dy == 0) return true;
    if (movement == Movement::Four) return false;
    const bool a = g.free(x + dx, y), b = g.free(x, y + dy);
    switch (rule) {
        case DiagonalRule::Never: return false;
        case DiagonalRule::NoCornerCutting: return a && b;
        case DiagonalRule::OneObstacle: return a || b;
        case DiagonalRule::Always: return true;
    }
    return false;
}

double ref_step(const Ref& g, int dx, int dy, int tx, int ty, double weight) {
    const std::size_t i = std::size_t(ty * g.w + tx);
    return (dx != 0 && dy != 0 ? std::sqrt(2.0) : 1.0) * g.cost[i] + weight * g.pen[i];
}

double ref_distance(const Ref& g, int sx, int sy, int gx, int gy, DiagonalRule rule, Movement movement, double weight) {
    std::vector<double> dist(g.cost.size(), std::numeric_limits<double>::infinity());
    using Item = std::pair<double, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<>> open;
    dist[std::size_t(sy * g.w + sx)] = 0;
    open.push({0.0, sy * g.w + sx});
    while (!open.empty()) {
        const auto [d, i] = open.top();
        open.pop();
        if (d > dist[std::size_t(i)]) continue;
        const int x = i % g.w, y = i / g.w;
        if (x == gx && y == gy) return d;
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                if ((dx == 0 && dy == 0) || !ref_legal(g, x, y, dx, dy, rule, movement)) continue;
                const double nd = d + ref_step(g, dx, dy, x + dx, y + dy, weight);
                const std::size_t j = std::size_t((y + dy) * g.w + x + dx);
                if (nd < dist[j]) {
                    dist[j] = nd;
                    open.push({nd, int(j)});
                }
            }
    }
    return std::numeric_limits<double>::infinity();
}

struct Case {
    Ref ref;
    GridMap map;
    PenaltyLayer layer;
};

Case random_case(std::mt19937& rng, int w, int h, bool terrain, double wall_rate, double pen_rate) {
    Case c;
    c.ref.w = w, c.ref.h = h;
    c.ref.cost.assign(std::size_t(w * h), 1);
    c.ref.pen.assign(std::size_t(w * h), 0.0);
    (void)c.map.reset(w, h, true);
    c.layer.reset(c.map);
    std::uniform_real_distribution<double> u(0, 1);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const std::size_t i = std::size_t(y * w + x);
            if (u(rng) < wall_rate) {
                c.ref.cost[i] = 0;
                (void)c.map.set_passable({x, y}, false);
                continue;
            }
            if (terrain && u(rng) < 0.3) {
                const int cost = 1 + int(rng() % 5);
                c.ref.cost[i] = cost;
                (void)c.map.set_cost({x, y}, std::uint32_t(cost));
            }
            if (u(rng) < pen_rate) {
                const float p = float(rng() % 40) * 0.25f;  // exactly representable
                c.ref.pen[i] = p;
                EXPECT_TRUE(c.layer.set({x, y}, p));
            }
        }
    return c;
}

void check_path(const Case& c, const GridPath& path, GridPoint s, GridPoint g, DiagonalRule rule, Movement movement,
                double weight) {
    ASSERT_FALSE(path.cells.empty());
    EXPECT_EQ(path.cells.front(), s);
    EXPECT_EQ(path.cells.back(), g);
    double sum = 0;
    for (std::size_t i = 1; i < path.cells.size(); ++i) {
        const int dx = path.cells[i].x - path.cells[i - 1].x, dy = path.cells[i].y - path.cells[i - 1].y;
        ASSERT_TRUE(std::abs(dx) <= 1 && std::abs(dy) <= 1 && (dx || dy));
        ASSERT_TRUE(ref_legal(c.ref, path.cells[i - 1].x, path.cells[i - 1].y, dx, dy, rule, movement));
        sum += ref_step(c.ref, dx, dy, path.cells[i].x, path.cells[i].y, weight);
    }
    EXPECT_NEAR(sum, path.cost, 1e-9 * std::max(1.0, sum)) << "the reported cost is not the path's penalised cost";
}

TEST(PenaltyLayer, PenalisedSearchIsExactAgainstReferenceDijkstra) {
    std::mt19937 rng(20261202);
    GridPathfinder finder;
    GridPath path;
    int compared = 0, penalty_changed_route = 0;
    for (int round = 0; round < 120; ++round) {
        const bool terrain = round % 2 == 1;
        Case c = random_case(rng, 12 + int(rng() % 20), 10 + int(rng() % 16), terrain, 0.2, 0.4);
        const DiagonalRule rule = DiagonalRule(round % 4);
        const Movement movement = round % 5 == 0 ? Movement::Four : Movement::Eight;
        const double weights[] = {0.0, 0.5, 1.0, 3.0};
        const double weight = weights[round % 4];
        for (int q = 0; q < 8; ++q) {
            const GridPoint s{int(rng() % std::uint32_t(c.ref.w)), int(rng() % std::uint32_t(c.ref.h))};
            const GridPoint g{int(rng() % std::uint32_t(c.ref.w)), int(rng() % std::uint32_t(c.ref.h))};
            if (!c.ref.free(s.x, s.y) || !c.ref.free(g.x, g.y)) continue;
            GridSearchOptions o;
            o.movement = movement;
            o.diagonal = rule;
            o.penalties = &c.layer;
            o.penalty_weight = weight;
            const double expected = ref_distance(c.ref, s.x, s.y, g.x, g.y, rule, movement, weight);
            const Status st = finder.find_path(c.map, s, g, o, path);
            if (std::isinf(expected)) {
                EXPECT_EQ(st, Status::NoPath);
                continue;
            }
            ASSERT_EQ(st, Status::Found);
            EXPECT_NEAR(path.cost, expected, 1e-9 * std::max(1.0, expected)) << "round " << round;
            check_path(c, path, s, g, rule, movement, weight);
            // Dijkstra (heuristic zero) agrees too.
            o.heuristic = Heuristic::Zero;
            ASSERT_EQ(finder.find_path(c.map, s, g, o, path), Status::Found);
            EXPECT_NEAR(path.cost, expected, 1e-9 * std::max(1.0, expected));
            const double plain = ref_distance(c.ref, s.x, s.y, g.x, g.y, rule, movement, 0.0);
            penalty_changed_route += weight > 0 && std::abs(plain - (expected - 0)) > 1e-9;
            ++compared;
        }
    }
    EXPECT_GT(compared, 300);
    EXPECT_GT(penalty_changed_route, 50) << "the penalties should have mattered in many queries";
}

TEST(PenaltyLayer, PenaltiesBendTheRouteButNeverBlockIt) {
    // A corridor 3 wide; a heavy penalty on the middle row still lets the only door through.
    GridMap map;
    (void)map.reset(9, 3, true);
    for (int y = 0; y < 3; ++y) {
        if (y != 1) (void)map.set_passable({4, y}, false);  // a door at (4, 1)
    }
    PenaltyLayer layer(map);
    for (int x = 0; x < 9; ++x) ASSERT_TRUE(layer.set({x, 1}, 100.0f));
    GridPathfinder finder;
    GridPath path;
    GridSearchOptions o;
    o.penalties = &layer;
    ASSERT_EQ(finder.find_path(map, {0, 0}, {8, 0}, o, path), Status::Found);
    // Without corner cutting the door is entered and left straight: (3,1), (4,1), (5,1) are the only
    // penalised cells a path must enter, and nothing else on that row is.
    int on_row = 0;
    for (const GridPoint p : path.cells) {
        if (p.y == 1) {
            ++on_row;
            EXPECT_TRUE(p.x >= 3 && p.x <= 5) << "entered the penalised row at x = " << p.x;
        }
    }
    EXPECT_EQ(on_row, 3);
    EXPECT_NEAR(path.cost, 300.0 + 6 + 2 * std::sqrt(2.0), 1e-9);
    // Clearing the layer gives back the plain shortest cost.
    layer.clear();
    EXPECT_EQ(layer.touched_count(), 0u);
    ASSERT_EQ(finder.find_path(map, {0, 0}, {8, 0}, o, path), Status::Found);
    EXPECT_NEAR(path.cost, 6 + 2 * std::sqrt(2.0), 1e-9);
}

TEST(PenaltyLayer, RejectsBadInputs) {
    GridMap map;
    (void)map.reset(8, 8, true);
    PenaltyLayer layer(map);
    EXPECT_FALSE(layer.set({-1, 0}, 1.0f));
    EXPECT_FALSE(layer.set({0, 8}, 1.0f));
    EXPECT_FALSE(layer.set({0, 0}, -1.0f));
    EXPECT_FALSE(layer.set({0, 0}, std::numeric_limits<float>::quiet_NaN()));
    EXPECT_FALSE(layer.set({0, 0}, std::numeric_limits<float>::infinity()));
    EXPECT_TRUE(layer.add({1, 1}, 2.0f));
    EXPECT_TRUE(layer.add({1, 1}, -5.0f));
    EXPECT_EQ(layer.at({1, 1}), 0.0f) << "add clamps at zero";
    EXPECT_EQ(layer.at({100, 100}), 0.0f);
    GridPathfinder finder;
    GridPath path;
    GridSearchOptions o;
    o.penalties = &layer;
    o.penalty_weight = -1.0;
    EXPECT_EQ(finder.find_path(map, {0, 0}, {7, 7}, o, path), Status::InvalidQuery);
    o.penalty_weight = std::numeric_limits<double>::infinity();
    EXPECT_EQ(finder.find_path(map, {0, 0}, {7, 7}, o, path), Status::InvalidQuery);
    GridMap other;
    (void)other.reset(9, 8, true);
    o.penalty_weight = 1.0;
    EXPECT_EQ(finder.find_path(other, {0, 0}, {7, 7}, o, path), Status::InvalidQuery) << "layer of another shape";
}

TEST(PenaltyLayer, QueueKeepsAPenalisedResultAfterAnUnrelatedMapChange) {
    GridMap map;
    (void)map.reset(16, 16, true);
    PenaltyLayer layer(map);
    ASSERT_TRUE(layer.set({5, 5}, 3.0f));
    PathRequestQueue queue(map);
    PathRequest r;
    r.start = {0, 0};
    r.goal = {15, 15};
    r.options.penalties = &layer;
    const PathHandle h = queue.submit(r);
    (void)queue.update(100000);
    ASSERT_EQ(queue.state(h), RequestState::Done);
    ASSERT_TRUE(layer.set({6, 6}, 7.0f));       // penalties change: no effect on a finished result
    (void)map.set_passable({0, 15}, false);       // an unrelated map change: re-checked, still legal
    const QueueUpdateStats st = queue.update(100000);
    EXPECT_EQ(st.revalidated, 1u);
    EXPECT_EQ(st.requeued, 0u);
    PathResult out;
    ASSERT_TRUE(queue.take(h, out));
    EXPECT_EQ(out.status, Status::Found);
}

}  // namespace
