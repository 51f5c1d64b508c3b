// Area types, per-query filters and weighted cost layers in GridPathfinder (area_filter.hpp): A* and
// Dijkstra against an independent reference Dijkstra written here over the combined cost function, on
// random maps with terrain, random areas, filters and layers, every diagonal rule; JPS and JPS+ refusing
// per-query costs; distance fields, nearest targets and the request queue honouring them; HPA* built
// for a cost profile (and repaired after layer and area changes), Theta* with forbidden areas, and
// smoothing with filters and layers, each against the same reference.
#include <gameplan/path/area_filter.hpp>
#include <gameplan/path/distance_field.hpp>
#include <gameplan/path/fog.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/hpa.hpp>
#include <gameplan/path/jps.hpp>
#include <gameplan/path/jps_plus.hpp>
#include <gameplan/path/penalty_layer.hpp>
#include <gameplan/path/request_queue.hpp>
#include <gameplan/path/smoothing.hpp>
#include <gameplan/path/subgoal.hpp>
#include <reference_rules.hpp>
#include <gameplan/path/theta_star.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <limits>
#include <queue>
#include <random>
#include <utility>
#include <vector>

namespace {

using namespace gameplan;
using namespace gameplan::path;

constexpr double kInf = std::numeric_limits<double>::infinity();

// The world as the reference sees it: row-major arrays, nothing shared with the library's layout.
struct World {
    int w = 0, h = 0;
    std::vector<int> terrain;                // 0 = blocked, else the terrain cost
    std::vector<int> area;                   // area id per cell
    std::vector<std::vector<double>> layer;  // per layer, per cell
    std::vector<double> weight;              // per layer
    std::vector<bool> forbidden;             // per area id
    std::vector<double> multiplier;          // per area id

    [[nodiscard]] bool open(int x, int y) const {
        if (x < 0 || y < 0 || x >= w || y >= h) return false;
        const std::size_t i = std::size_t(y * w + x);
        return terrain[i] > 0 && !forbidden[std::size_t(area[i])];
    }
    [[nodiscard]] bool legal(int x, int y, int dx, int dy, Movement movement, DiagonalRule rule) const {
        if (!open(x + dx, y + dy)) return false;
        if (dx == 0 || dy == 0) return true;
        if (movement == Movement::Four) return false;
        const bool a = open(x + dx, y), b = open(x, y + dy);
        return test::reference_diagonal_ok(rule, a, b);
    }
    [[nodiscard]] double step(int dx, int dy, int tx, int ty) const {
        const std::size_t i = std::size_t(ty * w + tx);
        double c = (dx != 0 && dy != 0 ? std::sqrt(2.0) : 1.0) * terrain[i] * multiplier[std::size_t(area[i])];
        for (std::size_t k = 0; k < layer.size(); ++k) c += weight[k] * layer[k][i];
        return c;
    }
    [[nodiscard]] double distance(int sx, int sy, int gx, int gy, Movement movement, DiagonalRule rule) const {
        std::vector<double> dist(terrain.size(), kInf);
        using Item = std::pair<double, int>;
        std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
        dist[std::size_t(sy * w + sx)] = 0;
        queue.push({0.0, sy * w + sx});
        while (!queue.empty()) {
            const auto [d, i] = queue.top();
            queue.pop();
            if (d > dist[std::size_t(i)]) continue;
            const int x = i % w, y = i / w;
            if (x == gx && y == gy) return d;
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    if ((dx == 0 && dy == 0) || !legal(x, y, dx, dy, movement, rule)) continue;
                    const double nd = d + step(dx, dy, x + dx, y + dy);
                    const std::size_t j = std::size_t((y + dy) * w + x + dx);
                    if (nd < dist[j]) {
                        dist[j] = nd;
                        queue.push({nd, int(j)});
                    }
                }
        }
        return kInf;
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

void build(Scene& s, std::mt19937& rng, int w, int h, bool terrain, int area_count, int layer_count) {
    std::uniform_real_distribution<double> u(0, 1);
    World& world = s.world;
    world = World{};
    world.w = w, world.h = h;
    world.terrain.assign(std::size_t(w * h), 1);
    world.area.assign(std::size_t(w * h), 0);
    ASSERT_EQ(s.map.reset(w, h), GridSizeCheck::Ok);
    s.areas.reset(s.map);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            const std::size_t i = std::size_t(y * w + x);
            if (u(rng) < 0.2) {
                world.terrain[i] = 0;
                s.map.set_passable({x, y}, false);
            } else if (terrain) {
                world.terrain[i] = 1 + int(rng() % 4);
                s.map.set_cost({x, y}, std::uint32_t(world.terrain[i]));
            }
            world.area[i] = int(rng() % std::uint32_t(area_count));
            s.areas.set({x, y}, std::uint32_t(world.area[i]));
        }
    s.filter = AreaFilter{};
    world.forbidden.assign(kMaxAreas, false);
    world.multiplier.assign(kMaxAreas, 1.0);
    for (int a = 0; a < area_count; ++a) {
        const double m = 0.25 + 4.0 * u(rng);
        ASSERT_TRUE(s.filter.set_multiplier(std::uint32_t(a), m));
        world.multiplier[std::size_t(a)] = m;
        if (a > 0 && u(rng) < 0.3) {
            s.filter.forbid(std::uint32_t(a));
            world.forbidden[std::size_t(a)] = true;
        }
    }
    s.layers.assign(std::size_t(layer_count), PenaltyLayer(s.map));
    s.cost_layers.clear();
    for (int k = 0; k < layer_count; ++k) {
        std::vector<double> values(std::size_t(w * h), 0.0);
        for (int y = 0; y < h; ++y)
            for (int x = 0; x < w; ++x)
                if (u(rng) < 0.4) {
                    const auto v = static_cast<float>(std::floor(u(rng) * 20.0) / 4.0);  // exact in float
                    s.layers[std::size_t(k)].set({x, y}, v);
                    values[std::size_t(y * w + x)] = double(v);
                }
        const double weight = k == 0 ? 1.0 : std::floor(u(rng) * 8.0) / 4.0;  // may be 0
        world.layer.push_back(std::move(values));
        world.weight.push_back(weight);
        s.cost_layers.push_back(CostLayer{&s.layers[std::size_t(k)], weight});
    }
}

// Cost of `path` under the reference's cost function, or NaN if a step is illegal.
double path_cost(const World& world, const GridPath& path, Movement movement, DiagonalRule rule) {
    double cost = 0.0;
    for (std::size_t i = 1; i < path.cells.size(); ++i) {
        const int dx = path.cells[i].x - path.cells[i - 1].x, dy = path.cells[i].y - path.cells[i - 1].y;
        if (std::abs(dx) > 1 || std::abs(dy) > 1 || (dx == 0 && dy == 0)) return std::nan("");
        if (!world.legal(path.cells[i - 1].x, path.cells[i - 1].y, dx, dy, movement, rule)) return std::nan("");
        cost += world.step(dx, dy, path.cells[i].x, path.cells[i].y);
    }
    return cost;
}

TEST(AreaFilter, MultipliersAndForbiddenAreas) {
    AreaFilter f;
    EXPECT_EQ(f.multiplier(5), 1.0);
    EXPECT_FALSE(f.set_multiplier(3, 0.0));
    EXPECT_FALSE(f.set_multiplier(3, -1.0));
    EXPECT_FALSE(f.set_multiplier(3, std::nan("")));
    EXPECT_FALSE(f.set_multiplier(kMaxAreas, 2.0));
    EXPECT_FALSE(f.set_multiplier(3, kMaxAreaMultiplier * 2));
    EXPECT_TRUE(f.set_multiplier(3, 0.5));
    EXPECT_TRUE(f.set_multiplier(4, 0.25));
    EXPECT_TRUE(f.forbid(4));
    EXPECT_TRUE(f.forbidden(4));
    EXPECT_FALSE(f.forbidden(3));
    EXPECT_EQ(f.min_allowed_multiplier(), 0.5);
    EXPECT_EQ(f.min_allowed_multiplier(0b1), 1.0);  // only area 0 present
    EXPECT_TRUE(f.forbid(4, false));
    EXPECT_EQ(f.min_allowed_multiplier(), 0.25);
}

TEST(AreaMapTest, SetAndRead) {
    GridMap map;
    ASSERT_EQ(map.reset(5, 4), GridSizeCheck::Ok);
    AreaMap areas(map);
    EXPECT_TRUE(areas.matches(map));
    EXPECT_EQ(areas.at({2, 2}), 0);
    EXPECT_TRUE(areas.set({2, 2}, 7));
    EXPECT_FALSE(areas.set({5, 0}, 1));
    EXPECT_FALSE(areas.set({0, 0}, kMaxAreas));
    EXPECT_EQ(areas.at({2, 2}), 7);
    EXPECT_EQ(areas.present(), (std::uint64_t{1} << 7) | 1u);
    GridMap other;
    ASSERT_EQ(other.reset(4, 5), GridSizeCheck::Ok);
    EXPECT_FALSE(areas.matches(other));
}

TEST(AreaSearch, MatchesReferenceDijkstraOnRandomWorlds) {
    std::mt19937 rng(1101);
    GridPathfinder finder;
    GridPath path;
    int found = 0, no_path = 0, invalid = 0;
    for (int round = 0; round < 60; ++round) {
        Scene s;
        const int w = 8 + int(rng() % 20), h = 8 + int(rng() % 16);
        build(s, rng, w, h, round % 2 == 1, 1 + int(rng() % 5), int(rng() % 4));
        if (HasFatalFailure()) return;
        for (const Movement movement : {Movement::Eight, Movement::Four})
            for (const DiagonalRule rule :
                 {DiagonalRule::NoCornerCutting, DiagonalRule::OneObstacle, DiagonalRule::Always, DiagonalRule::Never})
                for (const Heuristic heuristic : {Heuristic::Auto, Heuristic::Zero}) {
                    if (movement == Movement::Four && rule != DiagonalRule::NoCornerCutting) continue;
                    GridSearchOptions options;
                    options.movement = movement;
                    options.diagonal = rule;
                    options.heuristic = heuristic;
                    options.areas = &s.areas;
                    options.filter = &s.filter;
                    options.layers = s.cost_layers;
                    for (int q = 0; q < 6; ++q) {
                        const GridPoint a{int(rng() % std::uint32_t(w)), int(rng() % std::uint32_t(h))};
                        const GridPoint b{int(rng() % std::uint32_t(w)), int(rng() % std::uint32_t(h))};
                        const Status status = finder.find_path(s.map, a, b, options, path);
                        if (!s.world.open(a.x, a.y) || !s.world.open(b.x, b.y)) {
                            EXPECT_EQ(status, Status::InvalidQuery);
                            ++invalid;
                            continue;
                        }
                        const double expected = s.world.distance(a.x, a.y, b.x, b.y, movement, rule);
                        if (expected == kInf) {
                            EXPECT_EQ(status, Status::NoPath);
                            ++no_path;
                            continue;
                        }
                        ASSERT_EQ(status, Status::Found) << "round " << round;
                        ++found;
                        EXPECT_NEAR(path.cost, expected, 1e-9 * std::max(1.0, expected)) << "round " << round;
                        EXPECT_NEAR(path_cost(s.world, path, movement, rule), path.cost, 1e-9 * std::max(1.0, expected));
                        EXPECT_EQ(path.cells.front(), a);
                        EXPECT_EQ(path.cells.back(), b);
                    }
                }
    }
    EXPECT_GT(found, 1000);
    EXPECT_GT(no_path, 10);
    EXPECT_GT(invalid, 10);
}

TEST(AreaSearch, FloodHonoursTheFilter) {
    std::mt19937 rng(77);
    int checked = 0;
    for (int round = 0; round < 20 && checked <= 100; ++round) {
    checked = 0;
    Scene s;
    build(s, rng, 30, 20, true, 4, 2);
    GridSearchOptions options;
    options.areas = &s.areas;
    options.filter = &s.filter;
    options.layers = s.cost_layers;
    GridPoint source{0, 0};
    while (!s.world.open(source.x, source.y)) source.x++;
    GridPathfinder finder;
    ASSERT_EQ(finder.begin(s.map, std::span<const GridPoint>(&source, 1), std::span<const GridPoint>(), options),
              Status::InProgress);
    EXPECT_EQ(finder.step(), Status::NoPath);  // a flood: the distance field of every reachable cell
    for (int y = 0; y < 20; ++y)
        for (int x = 0; x < 30; ++x) {
            if (!s.world.open(x, y)) {
                EXPECT_FALSE(finder.reached({x, y}));
                continue;
            }
            const double expected = s.world.distance(source.x, source.y, x, y, Movement::Eight, DiagonalRule::NoCornerCutting);
            if (expected == kInf) {
                EXPECT_FALSE(finder.reached({x, y}));
            } else {
                EXPECT_NEAR(finder.g({x, y}), expected, 1e-9 * std::max(1.0, expected));
                ++checked;
            }
        }
    }
    EXPECT_GT(checked, 100);
}

TEST(AreaSearch, LayersAreReadLiveBetweenQueries) {
    GridMap map;
    ASSERT_EQ(map.reset(9, 3), GridSizeCheck::Ok);
    PenaltyLayer danger(map);
    const CostLayer layers[] = {{&danger, 2.0}};
    GridSearchOptions options;
    options.movement = Movement::Four;
    options.layers = layers;
    GridPathfinder finder;
    GridPath path;
    ASSERT_EQ(finder.find_path(map, {0, 1}, {8, 1}, options, path), Status::Found);
    EXPECT_DOUBLE_EQ(path.cost, 8.0);
    for (int x = 1; x < 8; ++x) ASSERT_TRUE(danger.set({x, 1}, 5.0f));  // the middle row becomes dangerous
    const std::uint64_t version = map.version();
    ASSERT_EQ(finder.find_path(map, {0, 1}, {8, 1}, options, path), Status::Found);
    EXPECT_DOUBLE_EQ(path.cost, 10.0);  // around: up, 8 across, down
    EXPECT_EQ(map.version(), version);  // no map change, no rebuild
    for (std::size_t i = 1; i + 1 < path.cells.size(); ++i) EXPECT_NE(path.cells[i].y, 1);
}

TEST(AreaSearch, BadOptionsAreInvalidQueries) {
    GridMap map, other;
    ASSERT_EQ(map.reset(6, 6), GridSizeCheck::Ok);
    ASSERT_EQ(other.reset(7, 6), GridSizeCheck::Ok);
    PenaltyLayer wrong(other), good(map);
    AreaMap wrong_areas(other);
    GridPathfinder finder;
    GridPath path;
    {
        const CostLayer layers[] = {{&wrong, 1.0}};
        GridSearchOptions o;
        o.layers = layers;
        EXPECT_EQ(finder.find_path(map, {0, 0}, {5, 5}, o, path), Status::InvalidQuery);
    }
    for (const double w : {-1.0, std::nan(""), std::numeric_limits<double>::infinity()}) {
        const CostLayer layers[] = {{&good, w}};
        GridSearchOptions o;
        o.layers = layers;
        EXPECT_EQ(finder.find_path(map, {0, 0}, {5, 5}, o, path), Status::InvalidQuery);
    }
    {
        const CostLayer layers[] = {{nullptr, 1.0}};
        GridSearchOptions o;
        o.layers = layers;
        EXPECT_EQ(finder.find_path(map, {0, 0}, {5, 5}, o, path), Status::InvalidQuery);
    }
    {
        AreaFilter f;
        GridSearchOptions o;
        o.areas = &wrong_areas;
        o.filter = &f;
        EXPECT_EQ(finder.find_path(map, {0, 0}, {5, 5}, o, path), Status::InvalidQuery);
    }
    {
        // a filter without an area map: every cell is area 0
        AreaFilter f;
        f.set_multiplier(0, 3.0);
        GridSearchOptions o;
        o.movement = Movement::Four;
        o.filter = &f;
        EXPECT_EQ(finder.find_path(map, {0, 0}, {5, 0}, o, path), Status::Found);
        EXPECT_DOUBLE_EQ(path.cost, 15.0);
        f.forbid(0);
        EXPECT_EQ(finder.find_path(map, {0, 0}, {5, 0}, o, path), Status::InvalidQuery);
    }
}

TEST(AreaSearch, ForbiddenAreaBlocksCornerCutting) {
    GridMap map;
    ASSERT_EQ(map.reset(2, 2), GridSizeCheck::Ok);
    AreaMap areas(map);
    areas.set({1, 0}, kAreaWater);
    AreaFilter filter;
    filter.forbid(kAreaWater);
    GridSearchOptions o;
    o.areas = &areas;
    o.filter = &filter;
    GridPathfinder finder;
    GridPath path;
    ASSERT_EQ(finder.find_path(map, {0, 0}, {1, 1}, o, path), Status::Found);
    EXPECT_DOUBLE_EQ(path.cost, 2.0);  // the diagonal would cut the water corner
    o.diagonal = DiagonalRule::OneObstacle;
    ASSERT_EQ(finder.find_path(map, {0, 0}, {1, 1}, o, path), Status::Found);
    EXPECT_DOUBLE_EQ(path.cost, std::sqrt(2.0));
}

TEST(AreaSearch, JumpPointSearchRefusesNonUniformCosts) {
    GridMap map;
    ASSERT_EQ(map.reset(16, 16), GridSizeCheck::Ok);
    PenaltyLayer layer(map);
    AreaMap areas(map);
    AreaFilter filter;
    const CostLayer layers[] = {{&layer, 1.0}};
    GridSearchOptions with_layers, with_filter, with_areas, with_penalties;
    with_layers.layers = layers;
    with_filter.filter = &filter;
    with_areas.areas = &areas;
    with_penalties.penalties = &layer;
    JpsPathfinder jps;
    JpsPlusPathfinder jps_plus;
    JumpTable table;
    ASSERT_EQ(table.build(map), JpsSupport::Ok);
    // The subgoal graph jumps over cells as JPS does: it must refuse them too, on its graph and on its
    // JPS fallback (a map it was not built for).
    SubgoalPathfinder subgoals;
    ASSERT_EQ(subgoals.build(map), JpsSupport::Ok);
    GridMap other = map;
    GridPath path;
    for (const GridSearchOptions* o : {&with_layers, &with_filter, &with_areas, &with_penalties}) {
        EXPECT_EQ(check_jps_support(map, *o), JpsSupport::NonUniformCosts);
        EXPECT_FALSE(describe(JpsSupport::NonUniformCosts).empty());
        EXPECT_EQ(jps.find_path(map, {0, 0}, {15, 15}, *o, path), Status::InvalidQuery);
        EXPECT_EQ(jps_plus.begin(table, {0, 0}, {15, 15}, *o), Status::InvalidQuery);
        EXPECT_EQ(jps_plus.begin(map, {0, 0}, {15, 15}, *o), Status::InvalidQuery);
        EXPECT_EQ(subgoals.find_path(map, {0, 0}, {15, 15}, *o, path), Status::InvalidQuery);
        EXPECT_EQ(subgoals.begin(subgoals.graph(), {0, 0}, {15, 15}, *o), Status::InvalidQuery);
        EXPECT_EQ(subgoals.find_path(other, {0, 0}, {15, 15}, *o, path), Status::InvalidQuery);
    }
    EXPECT_EQ(jps.find_path(map, {0, 0}, {15, 15}, GridSearchOptions{}, path), Status::Found);
    EXPECT_EQ(subgoals.find_path(map, {0, 0}, {15, 15}, GridSearchOptions{}, path), Status::Found);
}

// Every cell of the world that is open, in row-major order.
std::vector<GridPoint> open_cells(const World& world) {
    std::vector<GridPoint> out;
    for (int y = 0; y < world.h; ++y)
        for (int x = 0; x < world.w; ++x)
            if (world.open(x, y)) out.push_back({x, y});
    return out;
}

TEST(AreaSearches, DistanceFieldAndNearestTargetsMatchTheReference) {
    std::mt19937 rng(4711);
    DistanceField field;
    NearestTargets nearest_finder;
    GridPath route;
    int cells_checked = 0, nearest_checked = 0, nearest_none = 0;
    for (int round = 0; round < 12; ++round) {
        Scene s;
        const int w = 10 + int(rng() % 12), h = 8 + int(rng() % 10);
        build(s, rng, w, h, round % 2 == 0, 2 + int(rng() % 3), 1 + int(rng() % 3));
        if (HasFatalFailure()) return;
        const std::vector<GridPoint> open = open_cells(s.world);
        if (open.size() < 4) continue;
        GridSearchOptions options;
        options.areas = &s.areas;
        options.filter = &s.filter;
        options.layers = s.cost_layers;
        // a field from two sources: each cell's cost from the nearer one, and a flow field toward it
        const GridPoint sources[] = {open[rng() % open.size()], open[rng() % open.size()]};
        ASSERT_EQ(field.compute(s.map, sources, options), Status::Found);
        for (const GridPoint p : open) {
            double expected = kInf;
            for (const GridPoint src : sources)
                expected = std::min(expected, s.world.distance(src.x, src.y, p.x, p.y, Movement::Eight,
                                                                DiagonalRule::NoCornerCutting));
            if (expected == kInf) {
                EXPECT_FALSE(field.reached(p));
                continue;
            }
            ASSERT_TRUE(field.reached(p));
            EXPECT_NEAR(field.distance(p), expected, 1e-9 * std::max(1.0, expected));
            field.path_from_source(p, route);
            EXPECT_NEAR(path_cost(s.world, route, Movement::Eight, DiagonalRule::NoCornerCutting), expected,
                        1e-9 * std::max(1.0, expected));
            ++cells_checked;
        }
        // nearest of several targets, some of them in forbidden areas or walls (skipped)
        for (int q = 0; q < 8; ++q) {
            const GridPoint from = open[rng() % open.size()];
            std::vector<GridPoint> targets;
            for (int t = 0; t < 5; ++t) targets.push_back({int(rng() % std::uint32_t(w)), int(rng() % std::uint32_t(h))});
            double expected = kInf;
            for (const GridPoint t : targets)
                if (s.world.open(t.x, t.y))
                    expected = std::min(expected, s.world.distance(from.x, from.y, t.x, t.y, Movement::Eight,
                                                                    DiagonalRule::NoCornerCutting));
            const NearestTarget got = nearest_finder.find(s.map, from, targets, options, &route);
            if (expected == kInf) {
                EXPECT_EQ(got.status, Status::NoPath);
                ++nearest_none;
                continue;
            }
            ASSERT_EQ(got.status, Status::Found);
            EXPECT_NEAR(got.cost, expected, 1e-9 * std::max(1.0, expected));
            ASSERT_LT(got.index, targets.size());
            EXPECT_TRUE(s.world.open(targets[got.index].x, targets[got.index].y));
            EXPECT_NEAR(path_cost(s.world, route, Movement::Eight, DiagonalRule::NoCornerCutting), expected,
                        1e-9 * std::max(1.0, expected));
            ++nearest_checked;
        }
    }
    EXPECT_GT(cells_checked, 300);
    EXPECT_GT(nearest_checked, 40);
    EXPECT_GT(nearest_none, 0);
}

TEST(AreaSearches, RequestQueueResultsEqualDirectQueries) {
    std::mt19937 rng(909);
    GridPathfinder direct;
    GridPath expected_path;
    int compared = 0;
    for (int round = 0; round < 6; ++round) {
        Scene s;
        build(s, rng, 24, 18, round % 2 == 1, 4, 2);
        if (HasFatalFailure()) return;
        const std::vector<GridPoint> open = open_cells(s.world);
        QueueOptions qo;
        qo.lanes = 1 + std::uint32_t(round % 3);
        PathRequestQueue queue(s.map, qo);
        std::vector<PathRequest> requests;
        std::vector<PathHandle> handles;
        for (int q = 0; q < 12; ++q) {
            PathRequest r;
            r.start = open[rng() % open.size()];
            r.goal = open[rng() % open.size()];
            r.options.areas = &s.areas;
            r.options.filter = &s.filter;
            if (q % 2 == 0) r.options.layers = s.cost_layers;  // odd ones: areas and filter only (cost re-checked)
            r.options.heuristic = q % 3 == 0 ? Heuristic::Zero : Heuristic::Auto;
            requests.push_back(r);
            handles.push_back(queue.submit(r));
        }
        for (int frame = 0; frame < 10000 && queue.size() > queue.completed().size(); ++frame) {
            (void)queue.update(7);  // small slices: every search spans many updates
            bool all_done = true;
            for (const PathHandle h : handles) all_done = all_done && queue.state(h) == RequestState::Done;
            if (all_done) break;
        }
        for (std::size_t i = 0; i < requests.size(); ++i) {
            ASSERT_EQ(queue.state(handles[i]), RequestState::Done);
            const PathResult* got = queue.result(handles[i]);
            const Status want = direct.find_path(s.map, requests[i].start, requests[i].goal, requests[i].options, expected_path);
            EXPECT_EQ(got->status, want);
            EXPECT_EQ(got->path.cells, expected_path.cells);
            EXPECT_EQ(got->expanded, direct.stats().expanded);
            if (want != Status::Found) continue;
            EXPECT_EQ(got->path.cost, expected_path.cost);
            ++compared;
            if (requests[i].options.layers.empty()) continue;  // the reference world carries the layers
            const GridPoint a = requests[i].start, b = requests[i].goal;
            const double reference = s.world.distance(a.x, a.y, b.x, b.y, Movement::Eight, DiagonalRule::NoCornerCutting);
            EXPECT_NEAR(got->path.cost, reference, 1e-9 * std::max(1.0, reference));
        }
        // A map change elsewhere: found paths are re-checked under the request's own rule (forbidden
        // areas, multipliers) and kept, not sent back to the queue; results without a path go back.
        std::uint32_t not_found = 0;
        for (const PathHandle h : handles) not_found += queue.result(h)->status == Status::Found ? 0u : 1u;
        GridPoint far{-1, -1};
        for (const GridPoint p : open) {
            bool used = false;
            for (std::size_t i = 0; i < requests.size() && !used; ++i)
                for (const GridPoint c : queue.result(handles[i])->path.cells) used = used || c == p;
            if (!used) far = p;
        }
        ASSERT_NE(far.x, -1);
        s.map.set_passable(far, false);
        const QueueUpdateStats st = queue.update(100);
        EXPECT_EQ(st.revalidated, requests.size());
        EXPECT_EQ(st.requeued, not_found);
    }
    EXPECT_GT(compared, 30);
}

TEST(AreaSearches, LayerUpdatesDuringQueueProcessing) {
    // Open 20 x 9 field; a danger layer is raised across the middle while searches run.
    GridMap map;
    ASSERT_EQ(map.reset(20, 9), GridSizeCheck::Ok);
    AreaMap areas(map);
    for (int y = 0; y < 9; ++y) areas.set({10, y}, kAreaSwamp);
    AreaFilter filter;
    filter.set_multiplier(kAreaSwamp, 3.0);
    PenaltyLayer danger(map);
    const CostLayer layers[] = {{&danger, 1.0}};
    PathRequestQueue queue(map, QueueOptions{2, 0, true});
    PathRequest r;
    r.options.areas = &areas;
    r.options.filter = &filter;
    r.options.layers = layers;
    r.start = {0, 4};
    r.goal = {19, 4};
    const PathHandle early = queue.submit(r);
    (void)queue.update(5);  // running, half-way
    ASSERT_EQ(queue.state(early), RequestState::Running);
    for (int y = 0; y < 9; ++y)
        if (y != 0) danger.set({12, y}, 50.0f);  // only row 0 stays cheap at column 12
    const PathHandle late = queue.submit(r);
    for (int i = 0; i < 1000 && (queue.state(early) != RequestState::Done || queue.state(late) != RequestState::Done); ++i)
        (void)queue.update(5);
    ASSERT_EQ(queue.state(late), RequestState::Done);
    ASSERT_EQ(queue.state(early), RequestState::Done);
    // The early search read a mix of old and new values: its path is legal and it is found.
    const PathResult* e = queue.result(early);
    ASSERT_EQ(e->status, Status::Found);
    EXPECT_TRUE(std::isfinite(query_path_cost(map, e->path.cells, r.options)));
    // The late one saw only the new layer: exactly the direct query's answer, through row 0 at x = 12.
    GridPathfinder direct;
    GridPath want;
    ASSERT_EQ(direct.find_path(map, r.start, r.goal, r.options, want), Status::Found);
    const PathResult* l = queue.result(late);
    EXPECT_EQ(l->path.cells, want.cells);
    EXPECT_EQ(l->path.cost, want.cost);
    bool crossed_row0 = false;
    for (const GridPoint c : l->path.cells) crossed_row0 = crossed_row0 || (c.x == 12 && c.y == 0);
    EXPECT_TRUE(crossed_row0);
    // Saved requests name their per-query costs; a restore without them is refused by field.
    PathRequestQueue more(map, QueueOptions{2, 0, true});
    (void)more.submit(r);
    PathRequestQueueState state;
    more.save_state(state);
    ASSERT_EQ(state.requests.size(), 1u);
    EXPECT_TRUE(state.requests[0].uses_areas && state.requests[0].uses_filter && state.requests[0].uses_layers);
    EXPECT_EQ(state.requests[0].request.options.filter, nullptr);
    PathRequestQueue restored(map, QueueOptions{2, 0, true});
    const RestoreResult bad = restored.restore_state(state, QueueBindings{nullptr, nullptr, nullptr, &areas, nullptr, layers});
    ASSERT_TRUE(bad.has_value());
    EXPECT_NE(bad->field.find("filter"), std::string::npos);
    ASSERT_FALSE(restored.restore_state(state, QueueBindings{nullptr, nullptr, nullptr, &areas, &filter, layers}).has_value());
    for (int i = 0; i < 100 && restored.completed().empty(); ++i) (void)restored.update(1000);
    ASSERT_EQ(restored.completed().size(), 1u);
    const PathResult* got = restored.result(restored.completed()[0]);
    EXPECT_EQ(got->path.cells, want.cells);
    EXPECT_EQ(got->path.cost, want.cost);
}

// Options carrying the scene's per-query costs under a rule.
GridSearchOptions costs_of(Scene& s, Movement movement, DiagonalRule rule) {
    GridSearchOptions o;
    o.movement = movement;
    o.diagonal = rule;
    o.areas = &s.areas;
    o.filter = &s.filter;
    o.layers = s.cost_layers;
    return o;
}

HpaQueryOptions hpa_query(const GridSearchOptions& costs) {
    HpaQueryOptions q;
    static_cast<GridSearchOptions&>(q) = costs;
    return q;
}

struct RuleCase {
    Movement movement;
    DiagonalRule diagonal;
};
constexpr RuleCase kRuleCases[] = {{Movement::Eight, DiagonalRule::NoCornerCutting},
                                   {Movement::Eight, DiagonalRule::OneObstacle},
                                   {Movement::Eight, DiagonalRule::Always},
                                   {Movement::Four, DiagonalRule::NoCornerCutting}};

TEST(AreaSearches, HierarchicalSearchHonoursItsCostProfile) {
    // HPA* built for a cost profile (random multipliers, forbidden areas, one random layer): every path
    // is legal under the reference's rules (never in a forbidden area), costs what the reference says
    // it costs, never less than the reference optimum and at most the reported bound above it; NoPath
    // exactly when the reference finds none.
    std::mt19937 rng(4242);
    HpaPathfinder finder;
    GridPath path;
    int found = 0, no_path = 0;
    double worst = 0.0, worst_refined = 0.0;
    for (int round = 0; round < 60; ++round) {
        Scene s;
        const int w = 10 + int(rng() % 24), h = 10 + int(rng() % 18);
        build(s, rng, w, h, round % 2 == 1, 2 + int(rng() % 4), 1);
        if (HasFatalFailure()) return;
        const RuleCase rule = kRuleCases[round % 4];
        const GridSearchOptions costs = costs_of(s, rule.movement, rule.diagonal);
        HierarchyOptions options;
        options.cluster_size = std::vector<int>{3, 4, 6, 8}[rng() % 4];
        options.distance_tables = rng() % 3 != 0;
        options.prune_implied_edges = rng() % 2 == 0;
        options.entrance_spacing = rng() % 2 == 0 ? 3 : 0;
        HierarchicalMap hierarchy;
        ASSERT_EQ(hierarchy.build(s.map, costs, options), HierarchyBuild::Ok);
        ASSERT_TRUE(hierarchy.has_cost_profile());
        for (int q = 0; q < 14; ++q) {
            const GridPoint a{int(rng() % std::uint32_t(w)), int(rng() % std::uint32_t(h))};
            const GridPoint b{int(rng() % std::uint32_t(w)), int(rng() % std::uint32_t(h))};
            HpaQueryOptions query = hpa_query(costs);
            query.refine = q % 3 != 0;
            query.smooth = q % 2 == 1;
            const Status status = finder.find_path(hierarchy, a, b, query, path);
            if (!s.world.open(a.x, a.y) || !s.world.open(b.x, b.y)) {
                EXPECT_EQ(status, Status::InvalidQuery);
                continue;
            }
            const double optimal = s.world.distance(a.x, a.y, b.x, b.y, rule.movement, rule.diagonal);
            if (optimal == kInf) {
                EXPECT_EQ(status, Status::NoPath) << "round " << round;
                ++no_path;
                continue;
            }
            ASSERT_EQ(status, Status::Found) << "round " << round << " query " << q;
            ++found;
            const double eps = 1e-9 * std::max(1.0, optimal);
            const double walked = path_cost(s.world, path, rule.movement, rule.diagonal);
            ASSERT_FALSE(std::isnan(walked)) << "illegal or forbidden step, round " << round << " query " << q;
            EXPECT_NEAR(walked, path.cost, eps);
            EXPECT_GE(path.cost, optimal - eps) << "round " << round;
            EXPECT_LE(finder.lower_bound(), optimal + eps);
            EXPECT_LE(path.cost, optimal * (1.0 + finder.suboptimality_bound()) + eps);
            EXPECT_EQ(path.cells.front(), a);
            EXPECT_EQ(path.cells.back(), b);
            if (optimal > 0) worst = std::max(worst, path.cost / optimal - 1.0);
            if (optimal > 0 && query.refine) worst_refined = std::max(worst_refined, path.cost / optimal - 1.0);
        }
    }
    EXPECT_GT(found, 250);
    EXPECT_GT(no_path, 20);
    std::printf("[ HPA* cost profiles ] %d found, %d unreachable, worst suboptimality %.2f%% (refined %.2f%%)\n", found,
                no_path, 100 * worst, 100 * worst_refined);
}

// The abstract graph of `h` equals that of a fresh build for the same map and profile.
void expect_same_graph(const HierarchicalMap& h, const HierarchicalMap& fresh, const std::string& context) {
    std::vector<GridPoint> na, nb;
    h.node_cells(na);
    fresh.node_cells(nb);
    ASSERT_EQ(na, nb) << context;
    std::vector<AbstractEdgeView> ea, eb;
    h.edges(ea);
    fresh.edges(eb);
    ASSERT_EQ(ea.size(), eb.size()) << context;
    for (std::size_t i = 0; i < ea.size(); ++i) ASSERT_EQ(ea[i], eb[i]) << context << " edge " << i;
}

TEST(AreaSearches, HierarchyRepairAfterLayerAndAreaChangesEqualsFreshBuild) {
    std::mt19937 rng(9001);
    HpaPathfinder finder, fresh_finder;
    GridPath path, fresh_path;
    for (int round = 0; round < 8; ++round) {
        Scene s;
        const int w = 24 + int(rng() % 12), h = 20 + int(rng() % 10);
        build(s, rng, w, h, round % 2 == 0, 3, 1);
        if (HasFatalFailure()) return;
        const RuleCase rule = kRuleCases[round % 4];
        const GridSearchOptions costs = costs_of(s, rule.movement, rule.diagonal);
        HierarchyOptions options;
        options.cluster_size = round < 4 ? 5 : 8;
        options.distance_tables = round % 3 != 2;
        HierarchicalMap hierarchy;
        ASSERT_EQ(hierarchy.build(s.map, costs, options), HierarchyBuild::Ok);
        for (int change = 0; change < 6; ++change) {
            // A blob of layer changes (and now and then an area change), then one repair of its cells.
            std::vector<GridPoint> changed;
            const GridPoint centre{int(rng() % std::uint32_t(w)), int(rng() % std::uint32_t(h))};
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    const GridPoint p{centre.x + dx, centre.y + dy};
                    if (p.x < 0 || p.y < 0 || p.x >= w || p.y >= h) continue;
                    const std::size_t i = std::size_t(p.y * w + p.x);
                    if (change % 3 == 2 && dx == 0 && dy == 0) {
                        const int area = int(rng() % 3);
                        ASSERT_TRUE(s.areas.set(p, std::uint32_t(area)));
                        s.world.area[i] = area;
                    } else {
                        const auto v = static_cast<float>(rng() % 12) / 2.0f;
                        ASSERT_TRUE(s.layers[0].set(p, v));
                        s.world.layer[0][i] = double(v);
                    }
                    changed.push_back(p);
                }
            const std::string context = "round " + std::to_string(round) + " change " + std::to_string(change);
            // Before the repair the hierarchy is stale: queries are refused.
            GridPoint a{0, 0};
            while (!s.world.open(a.x, a.y) && a.x + 1 < w) ++a.x;
            if (s.world.open(a.x, a.y)) {
                EXPECT_EQ(finder.find_path(hierarchy, a, a, hpa_query(costs), path), Status::InvalidQuery) << context;
            }
            ASSERT_TRUE(hierarchy.update_cells(s.map, changed));
            EXPECT_LE(hierarchy.last_build_stats().clusters_rebuilt, 4u * 3u) << context;
            HierarchicalMap fresh;
            ASSERT_EQ(fresh.build(s.map, costs, options), HierarchyBuild::Ok);
            expect_same_graph(hierarchy, fresh, context);
            for (int q = 0; q < 8; ++q) {
                const GridPoint from{int(rng() % std::uint32_t(w)), int(rng() % std::uint32_t(h))};
                const GridPoint to{int(rng() % std::uint32_t(w)), int(rng() % std::uint32_t(h))};
                if (!s.world.open(from.x, from.y) || !s.world.open(to.x, to.y)) continue;
                const Status status = finder.find_path(hierarchy, from, to, hpa_query(costs), path);
                ASSERT_EQ(status, fresh_finder.find_path(fresh, from, to, hpa_query(costs), fresh_path)) << context;
                EXPECT_EQ(path.cells, fresh_path.cells) << context;
                EXPECT_EQ(path.cost, fresh_path.cost) << context;
                const double optimal = s.world.distance(from.x, from.y, to.x, to.y, rule.movement, rule.diagonal);
                if (optimal == kInf) {
                    EXPECT_EQ(status, Status::NoPath) << context;
                    continue;
                }
                ASSERT_EQ(status, Status::Found) << context;
                const double eps = 1e-9 * std::max(1.0, optimal);
                EXPECT_NEAR(path_cost(s.world, path, rule.movement, rule.diagonal), path.cost, eps) << context;
                EXPECT_GE(path.cost, optimal - eps) << context;
            }
        }
    }
}

TEST(AreaSearches, HierarchicalQueriesMustCarryTheBuildsProfile) {
    GridMap map, other;
    ASSERT_EQ(map.reset(32, 32), GridSizeCheck::Ok);
    ASSERT_EQ(other.reset(16, 16), GridSizeCheck::Ok);
    PenaltyLayer layer(map), second(map), small(other);
    AreaMap areas(map);
    AreaFilter filter, dearer;
    ASSERT_TRUE(dearer.set_multiplier(0, 2.0));
    const CostLayer layers[] = {{&layer, 1.0}};
    const CostLayer heavier[] = {{&layer, 2.0}};
    const CostLayer swapped[] = {{&second, 1.0}};
    const CostLayer with_zero[] = {{&layer, 1.0}, {&second, 0.0}};
    HpaPathfinder hpa;
    GridPath path;
    HierarchicalMap plain;
    ASSERT_EQ(plain.build(map, 8), HierarchyBuild::Ok);
    EXPECT_FALSE(plain.has_cost_profile());
    HpaQueryOptions query;
    ASSERT_EQ(hpa.find_path(plain, {0, 0}, {31, 31}, query, path), Status::Found);
    HpaQueryOptions with_layers, with_filter, with_penalties, areas_only;
    with_layers.layers = layers;
    with_filter.filter = &filter;
    with_filter.areas = &areas;
    with_penalties.penalties = &layer;
    areas_only.areas = &areas;  // an area map without a filter costs nothing: the plain profile
    for (const HpaQueryOptions* o : {&with_layers, &with_filter, &with_penalties}) {
        EXPECT_EQ(hpa.find_path(plain, {0, 0}, {31, 31}, *o, path), Status::InvalidQuery);
        EXPECT_TRUE(path.cells.empty());
    }
    EXPECT_EQ(hpa.find_path(plain, {0, 0}, {31, 31}, areas_only, path), Status::Found);

    // Built for filter + layer: only the same profile is accepted (a layer of weight 0 does not count).
    GridSearchOptions profile;
    profile.areas = &areas;
    profile.filter = &filter;
    profile.layers = layers;
    HierarchicalMap built;
    HierarchyOptions options;
    options.cluster_size = 8;
    ASSERT_EQ(built.build(map, profile, options), HierarchyBuild::Ok);
    HpaQueryOptions same = hpa_query(profile);
    EXPECT_EQ(hpa.find_path(built, {0, 0}, {31, 31}, same, path), Status::Found);
    EXPECT_NEAR(path.cost, 31.0 * std::sqrt(2.0), 1e-9);
    HpaQueryOptions zero = same;
    zero.layers = with_zero;
    EXPECT_EQ(hpa.find_path(built, {0, 0}, {31, 31}, zero, path), Status::Found);
    HpaQueryOptions wrong[5] = {same, same, same, same, same};
    wrong[0].layers = heavier;
    wrong[1].layers = swapped;
    wrong[2].filter = &dearer;
    wrong[3].filter = nullptr;
    wrong[4].areas = nullptr;
    for (const HpaQueryOptions& o : wrong) EXPECT_EQ(hpa.find_path(built, {0, 0}, {31, 31}, o, path), Status::InvalidQuery);
    EXPECT_EQ(hpa.find_path(built, {0, 0}, {31, 31}, query, path), Status::InvalidQuery);  // no profile at all

    // A profile sized for another map, or a bad weight, is refused by the build.
    GridSearchOptions bad;
    const CostLayer small_layers[] = {{&small, 1.0}};
    bad.layers = small_layers;
    EXPECT_EQ(built.build(map, bad, options), HierarchyBuild::BadCosts);
    EXPECT_FALSE(built.built());
    const CostLayer negative[] = {{&layer, -1.0}};
    bad.layers = negative;
    EXPECT_EQ(built.build(map, bad, options), HierarchyBuild::BadCosts);
}

// Checks an any-angle segment without the library's line walk: points sampled densely along the
// segment, away from cell borders, must lie in open cells of the world.
bool segment_stays_open(const World& world, GridPoint a, GridPoint b) {
    const double length = std::hypot(b.x - a.x, b.y - a.y);
    const int samples = std::max(1, int(length * 97));
    for (int i = 0; i <= samples; ++i) {
        const double t = double(i) / samples;
        const double x = a.x + t * (b.x - a.x), y = a.y + t * (b.y - a.y);
        const double fx = x - std::floor(x), fy = y - std::floor(y);
        if (std::abs(fx - 0.5) < 1e-6 || std::abs(fy - 0.5) < 1e-6) continue;  // on a border
        if (!world.open(int(std::lround(x)), int(std::lround(y)))) return false;
    }
    return true;
}

TEST(AreaSearches, ThetaStarHonoursForbiddenAreas) {
    // Theta* with forbidden areas and one shared multiplier: segments never pass a forbidden (or
    // blocked) cell; the cost is m x the Euclidean length, between m x the straight distance and the
    // reference's optimal grid cost.
    std::mt19937 rng(515);
    ThetaStar theta;
    GridPath path;
    int found = 0, priced = 0, through_forbidden_without_filter = 0;
    for (int round = 0; round < 30; ++round) {
        Scene s;
        const int w = 10 + int(rng() % 24), h = 10 + int(rng() % 18);
        build(s, rng, w, h, false, 4, 0);
        if (HasFatalFailure()) return;
        const double m = 0.5 + double(rng() % 4) / 2.0;
        for (std::uint32_t area = 0; area < 4; ++area) {
            ASSERT_TRUE(s.filter.set_multiplier(area, m));
            s.world.multiplier[area] = m;
        }
        s.filter.forbid(1);
        s.world.forbidden[1] = true;
        const RuleCase rule = kRuleCases[round % 4];
        ThetaStarOptions options;
        options.movement = rule.movement;
        options.diagonal = rule.diagonal;
        options.areas = &s.areas;
        options.filter = &s.filter;
        for (int q = 0; q < 24; ++q) {
            const GridPoint a{int(rng() % std::uint32_t(w)), int(rng() % std::uint32_t(h))};
            const GridPoint b{int(rng() % std::uint32_t(w)), int(rng() % std::uint32_t(h))};
            const Status status = theta.find_path(s.map, a, b, path, options);
            if (!s.world.open(a.x, a.y) || !s.world.open(b.x, b.y)) {
                EXPECT_EQ(status, Status::InvalidQuery);
                continue;
            }
            const double optimal = s.world.distance(a.x, a.y, b.x, b.y, rule.movement, rule.diagonal);
            if (optimal == kInf) {
                EXPECT_EQ(status, Status::NoPath);
                continue;
            }
            ASSERT_EQ(status, Status::Found) << "round " << round;
            ++found;
            double length = 0.0;
            for (std::size_t i = 1; i < path.cells.size(); ++i) {
                EXPECT_TRUE(segment_stays_open(s.world, path.cells[i - 1], path.cells[i])) << "round " << round;
                length += std::hypot(path.cells[i].x - path.cells[i - 1].x, path.cells[i].y - path.cells[i - 1].y);
            }
            const double eps = 1e-9 * std::max(1.0, optimal);
            EXPECT_NEAR(path.cost, m * length, eps);
            EXPECT_GE(path.cost, m * std::hypot(b.x - a.x, b.y - a.y) - eps);
            EXPECT_LE(path.cost, optimal + eps) << "round " << round;
            // The same query without the filter would cut through forbidden cells now and then: the
            // test can tell.
            ThetaStarOptions unfiltered = options;
            unfiltered.filter = nullptr;
            GridPath free_path;
            if (theta.find_path(s.map, a, b, free_path, unfiltered) == Status::Found)
                for (std::size_t i = 1; i < free_path.cells.size(); ++i)
                    if (!segment_stays_open(s.world, free_path.cells[i - 1], free_path.cells[i])) {
                        ++through_forbidden_without_filter;
                        break;
                    }
        }
        // Allowed areas at different prices are accepted (priced cell by cell: theta_cost_test.cpp).
        ASSERT_TRUE(s.filter.set_multiplier(2, m + 1.0));
        s.filter.forbid(2, false);
        GridPoint a{0, 0};
        while (!s.world.open(a.x, a.y) && a.x + 1 < w) ++a.x;
        if (s.world.open(a.x, a.y) && (s.areas.present() & 0b100) != 0) {
            EXPECT_EQ(theta.find_path(s.map, a, a, path, options), Status::Found);
            ++priced;
        }
    }
    EXPECT_GT(found, 50);
    EXPECT_GT(priced, 10);
    EXPECT_GT(through_forbidden_without_filter, 5);
}

TEST(AreaSearches, SmoothingHonoursFiltersAndLayers) {
    // Input: the optimal path for the forbidden areas alone (legal, avoiding them, but blind to the
    // multipliers and the layer). Smoothing it with the full costs never enters a forbidden area and
    // never raises the combined cost; smoothing it blind (the plain overload) does both now and then.
    std::mt19937 rng(2718);
    GridPathfinder finder;
    GridPath input, smoothed, blind;
    int checked = 0, blind_forbidden = 0, blind_dearer = 0, improved = 0;
    for (int round = 0; round < 60; ++round) {
        Scene s;
        const int w = 16 + int(rng() % 24), h = 12 + int(rng() % 18);
        build(s, rng, w, h, round % 2 == 1, 3, 1);
        if (HasFatalFailure()) return;
        const RuleCase rule = kRuleCases[round % 4];
        const GridSearchOptions costs = costs_of(s, rule.movement, rule.diagonal);
        AreaFilter forbid_only;
        for (std::uint32_t area = 0; area < kMaxAreas; ++area)
            if (s.filter.forbidden(area)) forbid_only.forbid(area);
        GridSearchOptions walls = costs;
        walls.filter = &forbid_only;
        walls.layers = {};
        SmoothingOptions so;
        so.movement = rule.movement;
        so.diagonal = rule.diagonal;
        for (int q = 0; q < 10; ++q) {
            const GridPoint a{int(rng() % std::uint32_t(w)), int(rng() % std::uint32_t(h))};
            const GridPoint b{int(rng() % std::uint32_t(w)), int(rng() % std::uint32_t(h))};
            if (finder.find_path(s.map, a, b, walls, input) != Status::Found) continue;
            const double before = path_cost(s.world, input, rule.movement, rule.diagonal);
            ASSERT_FALSE(std::isnan(before));
            smoothed = input;
            smooth_path(s.map, smoothed, so, costs);
            const double after = path_cost(s.world, smoothed, rule.movement, rule.diagonal);
            ASSERT_FALSE(std::isnan(after)) << "round " << round << ": illegal or forbidden step after smoothing";
            const double eps = 1e-9 * std::max(1.0, before);
            EXPECT_LE(after, before + eps) << "round " << round;
            EXPECT_NEAR(smoothed.cost, after, eps);
            EXPECT_EQ(smoothed.cells.front(), a);
            EXPECT_EQ(smoothed.cells.back(), b);
            const double optimal = s.world.distance(a.x, a.y, b.x, b.y, rule.movement, rule.diagonal);
            EXPECT_GE(after, optimal - eps);
            ++checked;
            if (after < before - eps) ++improved;
            blind = input;
            smooth_path(s.map, blind, so);
            const double blind_cost = path_cost(s.world, blind, rule.movement, rule.diagonal);
            if (std::isnan(blind_cost)) ++blind_forbidden;
            else if (blind_cost > before + eps) ++blind_dearer;
        }
    }
    EXPECT_GT(checked, 200);
    EXPECT_GT(improved, 10);
    EXPECT_GT(blind_forbidden + blind_dearer, 10);  // the test can tell a smoother that ignores the costs
    std::printf("[ smoothing with costs ] %d paths, %d cheaper; blind smoothing: %d forbidden, %d dearer\n", checked,
                improved, blind_forbidden, blind_dearer);
}

TEST(AreaSearches, ExploringUnitsHonourTheirFilterAndLayers) {
    std::mt19937 rng(31337);
    Explorer explorer;
    ExploreResult result;
    int arrived = 0, unreachable = 0;
    for (int round = 0; round < 40; ++round) {
        Scene s;
        const int w = 10 + int(rng() % 14), h = 8 + int(rng() % 10);
        build(s, rng, w, h, round % 2 == 0, 2 + int(rng() % 3), int(rng() % 3));
        if (HasFatalFailure()) return;
        const std::vector<GridPoint> open = open_cells(s.world);
        if (open.size() < 2) continue;
        ExploreOptions options;
        options.sight = 1 + int(rng() % 3);
        options.areas = &s.areas;
        options.filter = &s.filter;
        options.layers = s.cost_layers;
        for (int q = 0; q < 4; ++q) {
            const GridPoint a = open[rng() % open.size()], b = open[rng() % open.size()];
            TeamKnowledge team(s.map);
            const Status status = explorer.explore(s.map, team, a, b, options, result);
            const double optimal = s.world.distance(a.x, a.y, b.x, b.y, Movement::Eight, DiagonalRule::NoCornerCutting);
            if (optimal == kInf) {
                EXPECT_EQ(status, Status::NoPath) << "round " << round;
                ++unreachable;
            } else {
                ASSERT_EQ(status, Status::Found) << "round " << round;
                EXPECT_EQ(result.path.back(), b);
                ++arrived;
            }
            // never a blocked or forbidden cell, every step legal, the true combined cost, >= the optimum
            GridPath walked;
            walked.cells = result.path;
            const double cost = path_cost(s.world, walked, Movement::Eight, DiagonalRule::NoCornerCutting);
            ASSERT_FALSE(std::isnan(cost)) << "round " << round;
            EXPECT_NEAR(result.travelled, cost, 1e-9 * std::max(1.0, cost));
            if (status == Status::Found) {
                EXPECT_GE(result.travelled, optimal - 1e-9 * std::max(1.0, optimal));
            }
        }
    }
    EXPECT_GT(arrived, 60);
    EXPECT_GT(unreachable, 3);
}

}  // namespace
