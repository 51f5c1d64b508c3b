// Theta* under per-query costs (terrain, areas with different multipliers, forbidden areas, weighted
// layers) against independent references written here: a world in plain row-major arrays, a reference
// Dijkstra over the combined grid cost, a pricing of every returned segment (a legal grid step, or a
// link whose entered cells - found by the exact cell oracle of hpa_test_support.hpp, not by the
// library's line walk - share one factor and carry no penalty), and the exact line-of-sight oracle.
// Also: the resumable form (begin / step in slices / finish) equals find_path.
#include <gameplan/path/area_filter.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/penalty_layer.hpp>
#include <gameplan/path/theta_star.hpp>

#include "hpa_test_support.hpp"
#include <reference_rules.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <limits>
#include <queue>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// The world as the reference sees it.
struct World {
    int w = 0, h = 0;
    std::vector<int> terrain;  // 0 = blocked, else the terrain cost
    std::vector<int> area;     // area id per cell
    std::vector<double> multiplier;
    std::vector<bool> forbidden;
    std::vector<std::vector<double>> layer;  // per layer, per cell
    std::vector<double> weight;              // per layer

    [[nodiscard]] std::size_t at(int x, int y) const { return std::size_t(y) * std::size_t(w) + std::size_t(x); }
    [[nodiscard]] bool open(int x, int y) const {
        if (x < 0 || y < 0 || x >= w || y >= h) return false;
        return terrain[at(x, y)] > 0 && !forbidden[std::size_t(area[at(x, y)])];
    }
    [[nodiscard]] double factor(int x, int y) const {
        return double(terrain[at(x, y)]) * multiplier[std::size_t(area[at(x, y)])];
    }
    [[nodiscard]] double penalty(int x, int y) const {
        double p = 0.0;
        for (std::size_t k = 0; k < layer.size(); ++k) p += weight[k] * layer[k][at(x, y)];
        return p;
    }
    [[nodiscard]] bool legal(int x, int y, int dx, int dy, Movement movement, DiagonalRule rule) const {
        if (std::abs(dx) > 1 || std::abs(dy) > 1 || (dx == 0 && dy == 0) || !open(x, y) || !open(x + dx, y + dy))
            return false;
        if (dx == 0 || dy == 0) return true;
        if (movement == Movement::Four) return false;
        const bool a = open(x + dx, y), b = open(x, y + dy);
        return test::reference_diagonal_ok(rule, a, b);
    }
    // length x terrain x multiplier of the entered cell + its weighted layers
    [[nodiscard]] double step(int dx, int dy, int tx, int ty) const {
        return (dx != 0 && dy != 0 ? std::sqrt(2.0) : 1.0) * factor(tx, ty) + penalty(tx, ty);
    }
    // Optimal grid cost from s to g (infinity when unreachable).
    [[nodiscard]] double distance(GridPoint s, GridPoint g, Movement movement, DiagonalRule rule) const {
        std::vector<double> dist(terrain.size(), kInf);
        using Item = std::pair<double, int>;
        std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
        dist[at(s.x, s.y)] = 0.0;
        queue.push({0.0, int(at(s.x, s.y))});
        while (!queue.empty()) {
            const double d = queue.top().first;
            const int i = queue.top().second;
            queue.pop();
            if (d > dist[std::size_t(i)]) continue;
            const int x = i % w, y = i / w;
            if (x == g.x && y == g.y) return d;
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    if (!legal(x, y, dx, dy, movement, rule)) continue;
                    const double nd = d + step(dx, dy, x + dx, y + dy);
                    const std::size_t j = at(x + dx, y + dy);
                    if (nd < dist[j]) {
                        dist[j] = nd;
                        queue.push({nd, int(j)});
                    }
                }
        }
        return kInf;
    }
    // The grid for the line-of-sight oracle: open cells free, everything else blocked.
    [[nodiscard]] RefGrid sight_grid() const {
        RefGrid g{w, h, std::vector<int>(terrain.size(), 0)};
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x) g.cost[at(x, y)] = open(x, y) ? 1 : 0;
        return g;
    }
};

struct Scene {
    World world;
    GridMap map;
    AreaMap areas;
    AreaFilter filter;
    std::vector<PenaltyLayer> layers;
    std::vector<CostLayer> cost_layers;
};

// Random rectangles of one value each, so that the map has regions of equal price to link through.
template <class Paint>
void rectangles(std::mt19937& rng, int w, int h, int count, Paint&& paint) {
    for (int r = 0; r < count; ++r) {
        const int x0 = int(rng() % std::uint32_t(w)), y0 = int(rng() % std::uint32_t(h));
        const int x1 = std::min(w, x0 + 1 + int(rng() % 9)), y1 = std::min(h, y0 + 1 + int(rng() % 9));
        const std::uint32_t value = rng();
        for (int y = y0; y < y1; ++y)
            for (int x = x0; x < x1; ++x) paint(x, y, value);
    }
}

// Terrain (when asked), 4 areas at different multipliers (area 3 forbidden in some maps), 2 layers.
void build(Scene& s, std::mt19937& rng, int w, int h, bool terrain) {
    World& world = s.world;
    world = World{};
    world.w = w;
    world.h = h;
    world.terrain.assign(std::size_t(w * h), 1);
    world.area.assign(std::size_t(w * h), 0);
    ASSERT_EQ(s.map.reset(w, h), GridSizeCheck::Ok);
    s.areas.reset(s.map);
    std::uniform_real_distribution<double> u(0, 1);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            if (u(rng) < 0.12) {
                world.terrain[world.at(x, y)] = 0;
                s.map.set_passable({x, y}, false);
            }
    if (terrain)
        rectangles(rng, w, h, w * h / 40, [&](int x, int y, std::uint32_t v) {
            if (world.terrain[world.at(x, y)] == 0) return;
            world.terrain[world.at(x, y)] = 1 + int(v % 4);
            s.map.set_cost({x, y}, 1 + v % 4);
        });
    rectangles(rng, w, h, w * h / 40, [&](int x, int y, std::uint32_t v) {
        world.area[world.at(x, y)] = int(v % 4);
        ASSERT_TRUE(s.areas.set({x, y}, v % 4));
    });
    s.filter = AreaFilter{};
    world.multiplier.assign(kMaxAreas, 1.0);
    world.forbidden.assign(kMaxAreas, false);
    const double prices[] = {0.5, 1.0, 1.5, 2.0, 3.0};
    for (std::uint32_t a = 0; a < 4; ++a) {
        const double m = prices[rng() % 5];
        ASSERT_TRUE(s.filter.set_multiplier(a, m));
        world.multiplier[a] = m;
    }
    if (rng() % 2 == 0) {
        s.filter.forbid(3);
        world.forbidden[3] = true;
    }
    s.layers.assign(2, PenaltyLayer(s.map));
    s.cost_layers.clear();
    for (std::size_t k = 0; k < 2; ++k) {
        std::vector<double> values(std::size_t(w * h), 0.0);
        rectangles(rng, w, h, w * h / 150 + 1, [&](int x, int y, std::uint32_t v) {
            const float value = float(1 + v % 8) / 4.0f;  // exact in float
            ASSERT_TRUE(s.layers[k].set({x, y}, value));
            values[world.at(x, y)] = double(value);
        });
        const double weight = k == 0 ? 0.75 : double(rng() % 3) / 2.0;  // may be 0: such a layer adds nothing
        world.layer.push_back(std::move(values));
        world.weight.push_back(weight);
    }
    for (std::size_t k = 0; k < 2; ++k) s.cost_layers.push_back(CostLayer{&s.layers[k], world.weight[k]});
}

using Rule = gameplan::test::MovementRule;
constexpr const auto& kRules = gameplan::test::kAnyAngleRules;

// Cells other than a's whose interior the segment a -> b passes through, by exact geometry.
std::vector<GridPoint> entered_cells(const World& world, GridPoint a, GridPoint b) {
    std::vector<GridPoint> cells;
    for_each_cell_near(a, b, [&](int x, int y) {
        const GridPoint c{x, y};
        if (c == a || x < 0 || y < 0 || x >= world.w || y >= world.h) return;
        if (passes_interior(a, b, c)) cells.push_back(c);
    });
    return cells;
}

// The cost of the any-angle path under the reference rule: every segment must have line of sight among
// the open cells and be a legal grid step (priced as one) or a link whose entered cells share one
// factor and have no penalty (priced factor x length). NaN with `why` set when a segment is neither.
double segment_costs(const World& world, const RefGrid& sight, const GridPath& path, const Rule& rule, std::string& why,
                     std::size_t* long_links = nullptr) {
    double cost = 0.0;
    for (std::size_t i = 1; i < path.cells.size(); ++i) {
        const GridPoint a = path.cells[i - 1], b = path.cells[i];
        const std::string where = "segment " + std::to_string(i) + " (" + std::to_string(a.x) + "," + std::to_string(a.y) +
                                  ") -> (" + std::to_string(b.x) + "," + std::to_string(b.y) + ")";
        if (!oracle_line_of_sight(sight, a, b, ref_rule(rule.movement, rule.diagonal))) {
            why = where + " crosses a blocked or forbidden cell";
            return std::nan("");
        }
        const int dx = b.x - a.x, dy = b.y - a.y;
        if (world.legal(a.x, a.y, dx, dy, rule.movement, rule.diagonal)) {
            cost += world.step(dx, dy, b.x, b.y);
            continue;
        }
        const std::vector<GridPoint> cells = entered_cells(world, a, b);
        if (cells.empty()) {
            why = where + " enters no cell";
            return std::nan("");
        }
        const double factor = world.factor(b.x, b.y);
        for (const GridPoint c : cells)
            if (!world.open(c.x, c.y) || world.factor(c.x, c.y) != factor || world.penalty(c.x, c.y) != 0.0) {
                why = where + " enters (" + std::to_string(c.x) + "," + std::to_string(c.y) + ") of another price";
                return std::nan("");
            }
        cost += factor * std::hypot(double(dx), double(dy));
        if (long_links != nullptr && cells.size() > 1) ++*long_links;
    }
    return cost;
}

ThetaStarOptions options_of(const Scene& s, const Rule& rule) {
    ThetaStarOptions options;
    options.movement = rule.movement;
    options.diagonal = rule.diagonal;
    options.areas = &s.areas;
    options.filter = &s.filter;
    options.layers = s.cost_layers;
    return options;
}

}  // namespace

TEST(ThetaStarCosts, RandomWorldsAgainstReferences) {
    std::mt19937 rng(4242);
    ThetaStar theta;
    GridPath path;
    std::size_t found = 0, no_path = 0, below_grid = 0, long_links = 0, bends_for_prices = 0;
    for (int round = 0; round < 48; ++round) {
        Scene s;
        const int w = 8 + int(rng() % 28), h = 8 + int(rng() % 22);
        build(s, rng, w, h, round % 3 != 0);
        if (HasFatalFailure()) return;
        const Rule& rule = kRules[std::size_t(round) % 4];
        const ThetaStarOptions options = options_of(s, rule);
        const RefGrid sight = s.world.sight_grid();
        double min_factor = kInf;  // smallest price factor of an open cell
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                if (s.world.open(x, y)) min_factor = std::min(min_factor, s.world.factor(x, y));
        for (int q = 0; q < 14; ++q) {
            const GridPoint a{int(rng() % std::uint32_t(w)), int(rng() % std::uint32_t(h))};
            const GridPoint b{int(rng() % std::uint32_t(w)), int(rng() % std::uint32_t(h))};
            const Status status = theta.find_path(s.map, a, b, options, path);
            const std::string context = std::string(rule.name) + " round " + std::to_string(round) + " (" +
                                        std::to_string(a.x) + "," + std::to_string(a.y) + ") -> (" + std::to_string(b.x) +
                                        "," + std::to_string(b.y) + ")";
            if (!s.world.open(a.x, a.y) || !s.world.open(b.x, b.y)) {
                EXPECT_EQ(status, Status::InvalidQuery) << context;
                continue;
            }
            const double optimal = s.world.distance(a, b, rule.movement, rule.diagonal);
            if (optimal == kInf) {  // (e)
                ASSERT_EQ(status, Status::NoPath) << context;
                EXPECT_TRUE(path.cells.empty());
                ++no_path;
                continue;
            }
            ASSERT_EQ(status, Status::Found) << context;
            ++found;
            ASSERT_FALSE(path.cells.empty()) << context;
            EXPECT_EQ(path.cells.front(), a) << context;
            EXPECT_EQ(path.cells.back(), b) << context;
            // (a) + (d): every segment legal and priced by the reference rule; the sum is the cost.
            std::string why;
            const double recomputed = segment_costs(s.world, sight, path, rule, why, &long_links);
            ASSERT_EQ(why, "") << context;
            const double eps = 1e-9 * std::max(1.0, optimal);
            EXPECT_NEAR(path.cost, recomputed, 1e-9 * std::max(1.0, recomputed)) << context;
            // (b) never above the optimal grid cost; (c) never below the cheapest straight line.
            EXPECT_LE(path.cost, optimal + eps) << context;
            EXPECT_GE(path.cost, min_factor * std::hypot(double(b.x - a.x), double(b.y - a.y)) - eps) << context;
            below_grid += path.cost < optimal - eps;
            // A straight segment a -> b with line of sight that Theta* did not take: prices made it bend.
            bends_for_prices += path.cells.size() > 2 && oracle_line_of_sight(sight, a, b, ref_rule(rule.movement, rule.diagonal));
        }
    }
    std::printf("[ Theta* costs ] %zu found, %zu without a path, %zu below the grid optimum, %zu links over 2+ "
                "cells, %zu bent by prices\n", found, no_path, below_grid, long_links, bends_for_prices);
    EXPECT_GT(found, 300u);
    EXPECT_GT(no_path, 5u);
    EXPECT_GT(below_grid, found / 3);  // any-angle links pay off under costs too
    EXPECT_GT(long_links, found);      // links through several cells of one price are common
    EXPECT_GT(bends_for_prices, 20u);  // and prices bend paths that would be straight on a uniform map
}

TEST(ThetaStarCosts, LayersAloneAndUniformFiltersKeepClassicResults) {
    // A layer of weight 0, or one that is zero along the way, leaves the costs of a uniform map; a
    // penalised cell on the straight line bends the path around it at no more than the grid optimum.
    GridMap map;
    ASSERT_EQ(map.reset(12, 6), GridSizeCheck::Ok);
    PenaltyLayer layer(map);
    ThetaStar theta;
    GridPath plain, layered;
    ASSERT_EQ(theta.find_path(map, {0, 0}, {11, 5}, ThetaStarOptions{}, plain), Status::Found);
    EXPECT_EQ(plain.cells, (std::vector<GridPoint>{{0, 0}, {11, 5}}));
    ThetaStarOptions options;
    const CostLayer layers[] = {{&layer, 2.0}};
    options.layers = layers;
    ASSERT_TRUE(layer.set({5, 2}, 1.0f));  // on the line y = 5x/11 (x = 5: y = 2.27)
    ASSERT_EQ(theta.find_path(map, {0, 0}, {11, 5}, options, layered), Status::Found);
    EXPECT_GT(layered.cells.size(), 2u);
    EXPECT_GE(layered.cost, plain.cost);
    const CostLayer unweighted[] = {{&layer, 0.0}};
    options.layers = unweighted;
    ASSERT_EQ(theta.find_path(map, {0, 0}, {11, 5}, options, layered), Status::Found);
    EXPECT_EQ(layered.cells, plain.cells);
    EXPECT_EQ(layered.cost, plain.cost);
    // Bad layers are invalid queries, as for GridPathfinder.
    GridMap other;
    ASSERT_EQ(other.reset(5, 5), GridSizeCheck::Ok);
    PenaltyLayer wrong(other);
    const CostLayer bad_shape[] = {{&wrong, 1.0}};
    options.layers = bad_shape;
    EXPECT_EQ(theta.find_path(map, {0, 0}, {11, 5}, options, layered), Status::InvalidQuery);
    EXPECT_TRUE(layered.cells.empty());
    const CostLayer negative[] = {{&layer, -1.0}};
    options.layers = negative;
    EXPECT_EQ(theta.find_path(map, {0, 0}, {11, 5}, options, layered), Status::InvalidQuery);
    options.layers = {};
    options.penalties = &layer;
    options.penalty_weight = std::nan("");
    EXPECT_EQ(theta.find_path(map, {0, 0}, {11, 5}, options, layered), Status::InvalidQuery);
}

TEST(ThetaStarCosts, SlicedSearchesEqualFindPath) {
    // begin + step(slice) + finish, for slices 1, 3, 17 and unlimited, gives find_path's status, path,
    // cost and statistics, with and without costs and with a budget that runs out.
    std::mt19937 rng(77);
    ThetaStar whole, sliced;
    GridPath expected, got;
    std::size_t compared = 0, resumed = 0;
    for (int round = 0; round < 16; ++round) {
        Scene s;
        const int w = 10 + int(rng() % 24), h = 10 + int(rng() % 20);
        build(s, rng, w, h, round % 2 == 0);
        if (HasFatalFailure()) return;
        const Rule& rule = kRules[std::size_t(round) % 4];
        ThetaStarOptions options = round % 4 == 3 ? ThetaStarOptions{} : options_of(s, rule);
        options.movement = rule.movement;
        options.diagonal = rule.diagonal;
        if (round % 5 == 4) options.budget.max_expansions = 40;
        for (int q = 0; q < 8; ++q) {
            const GridPoint a{int(rng() % std::uint32_t(w)), int(rng() % std::uint32_t(h))};
            const GridPoint b{int(rng() % std::uint32_t(w)), int(rng() % std::uint32_t(h))};
            const Status status = whole.find_path(s.map, a, b, options, expected);
            const search::SearchStats stats = whole.stats();
            for (const std::uint64_t slice : {std::uint64_t{1}, std::uint64_t{3}, std::uint64_t{17}, UINT64_MAX}) {
                Status step_status = sliced.begin(s.map, a, b, options);
                std::size_t calls = 0;
                while (step_status == Status::InProgress) {
                    step_status = sliced.step(slice);
                    ++calls;
                }
                resumed += calls > 1;
                EXPECT_EQ(sliced.step(slice), step_status);  // a finished search keeps its status
                EXPECT_EQ(sliced.finish(got), status) << "round " << round << " slice " << slice;
                EXPECT_EQ(step_status, status);
                EXPECT_EQ(got.cells, expected.cells) << "round " << round << " slice " << slice;
                EXPECT_EQ(got.cost, expected.cost);
                EXPECT_EQ(sliced.stats().expanded, stats.expanded);
                EXPECT_EQ(sliced.stats().generated, stats.generated);
                ++compared;
            }
        }
    }
    EXPECT_EQ(compared, 16u * 8u * 4u);
    EXPECT_GT(resumed, 200u);
}

// theta_star_options carries every part of a grid query Theta* knows (the CLI, the C API and Python build
// their Theta* queries with it): a field left behind would silently drop a unit's costs or budget.
TEST(ThetaStarCosts, OptionsFromAGridQueryKeepEveryField) {
    GridMap map;
    ASSERT_EQ(map.reset(4, 3), GridSizeCheck::Ok);
    const AreaMap areas(map);
    const AreaFilter filter;
    const PenaltyLayer penalties(map);
    const Islands* islands = reinterpret_cast<const Islands*>(&map);  // (only the address is compared)
    const CostLayer layers[2] = {{&penalties, 2.0}, {&penalties, 3.0}};
    GridSearchOptions g;
    g.movement = Movement::Four;
    g.diagonal = DiagonalRule::Always;
    g.budget.max_expansions = 17;
    g.budget.max_memory_bytes = 1234;
    g.budget.deadline = std::chrono::steady_clock::time_point(std::chrono::seconds(5));
    g.areas = &areas;
    g.filter = &filter;
    g.penalties = &penalties;
    g.penalty_weight = 0.25;
    g.layers = layers;
    g.islands = islands;
    const ThetaStarOptions t = theta_star_options(g);
    EXPECT_EQ(t.movement, Movement::Four);
    EXPECT_EQ(t.diagonal, DiagonalRule::Always);
    EXPECT_EQ(t.budget.max_expansions, 17u);
    EXPECT_EQ(t.budget.max_memory_bytes, 1234u);
    EXPECT_EQ(t.budget.deadline, g.budget.deadline);
    EXPECT_EQ(t.areas, &areas);
    EXPECT_EQ(t.filter, &filter);
    EXPECT_EQ(t.penalties, &penalties);
    EXPECT_EQ(t.penalty_weight, 0.25);
    EXPECT_EQ(t.layers.data(), layers);
    EXPECT_EQ(t.layers.size(), 2u);
    EXPECT_EQ(t.islands, islands);
}
