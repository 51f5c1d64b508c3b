#pragma once
/// Oracles and data readers for the JPS tests, written without any gameplan path code so they can catch
/// its mistakes: a plain boolean grid, a textbook Dijkstra under the no-corner-cutting rule (costs 1 and
/// sqrt(2)), a step-by-step path checker, random map generators, and a tiny private reader for MovingAI
/// `.map` / `.scen` files (the library's reader is owned by another module).
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/jps.hpp>
#include <gameplan/path/jps_plus.hpp>

#include "test_data.hpp"

#include <cmath>
#include <cstdio>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <limits>
#include <queue>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace gameplan::test::jps {

/// The grid as the oracle sees it.
struct Grid {
    int width = 0;
    int height = 0;
    std::vector<char> open;  // row-major, 1 = passable
    [[nodiscard]] bool free(int x, int y) const {
        return x >= 0 && y >= 0 && x < width && y < height && open[std::size_t(y) * width + x] != 0;
    }
    void set(int x, int y, bool passable) { open[std::size_t(y) * width + x] = passable ? 1 : 0; }
};

/// Whether the single step (x, y) -> (x + dx, y + dy) is legal without corner cutting.
inline bool step_legal(const Grid& g, int x, int y, int dx, int dy) {
    if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0)) return false;
    if (!g.free(x + dx, y + dy)) return false;
    if (dx == 0 || dy == 0) return true;
    return g.free(x + dx, y) && g.free(x, y + dy);
}

/// Textbook Dijkstra from one source; distances to every cell (infinity when unreachable).
inline std::vector<double> dijkstra(const Grid& g, int sx, int sy) {
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> dist(g.open.size(), inf);
    using Item = std::pair<double, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
    dist[std::size_t(sy) * g.width + sx] = 0;
    open.push({0.0, sy * g.width + sx});
    while (!open.empty()) {
        const auto [d, i] = open.top();
        open.pop();
        if (d > dist[i]) continue;
        const int x = i % g.width, y = i / g.width;
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                if (!step_legal(g, x, y, dx, dy)) continue;
                const int j = (y + dy) * g.width + (x + dx);
                const double nd = d + ((dx != 0 && dy != 0) ? std::sqrt(2.0) : 1.0);
                if (nd < dist[j]) {
                    dist[j] = nd;
                    open.push({nd, j});
                }
            }
    }
    return dist;
}

/// Checks a path step by step: endpoints, adjacency, legality, and that the steps sum to `cost`.
/// Returns "" when legal, else a description of the first problem.
inline std::string check_path(const Grid& g, const std::vector<path::GridPoint>& cells, path::GridPoint start,
                              path::GridPoint goal, double cost) {
    if (cells.empty()) return "empty path";
    if (cells.front() != start) return "path does not start at the start";
    if (cells.back() != goal) return "path does not end at the goal";
    if (!g.free(start.x, start.y)) return "start is blocked";
    double sum = 0;
    for (std::size_t i = 1; i < cells.size(); ++i) {
        const auto a = cells[i - 1], b = cells[i];
        if (!step_legal(g, a.x, a.y, b.x - a.x, b.y - a.y))
            return "illegal step " + std::to_string(i) + ": (" + std::to_string(a.x) + "," + std::to_string(a.y) +
                   ") -> (" + std::to_string(b.x) + "," + std::to_string(b.y) + ")";
        sum += (a.x != b.x && a.y != b.y) ? std::sqrt(2.0) : 1.0;
    }
    if (std::abs(sum - cost) > 1e-9 * std::max(1.0, cost))
        return "reported cost " + std::to_string(cost) + " but the steps sum to " + std::to_string(sum);
    return "";
}

/// Uniform random obstacles: each cell blocked with probability `density`.
inline Grid random_grid(std::mt19937& rng, int width, int height, double density) {
    Grid g{width, height, std::vector<char>(std::size_t(width) * height, 1)};
    std::uniform_real_distribution<double> u(0, 1);
    for (auto& c : g.open) c = u(rng) < density ? 0 : 1;
    return g;
}

/// Rooms and corridors: random wall segments with gaps, plus a little noise. Produces long straight
/// runs, wall ends and diagonal openings, which exercise the jump rules more than uniform noise.
inline Grid room_grid(std::mt19937& rng, int width, int height, int walls, double noise) {
    Grid g{width, height, std::vector<char>(std::size_t(width) * height, 1)};
    std::uniform_real_distribution<double> u(0, 1);
    for (int i = 0; i < walls; ++i) {
        const bool horizontal = rng() % 2 == 0;
        const int x0 = int(rng() % width), y0 = int(rng() % height);
        const int len = 2 + int(rng() % std::max(2, (horizontal ? width : height)));
        for (int k = 0; k < len; ++k) {
            const int x = horizontal ? x0 + k : x0, y = horizontal ? y0 : y0 + k;
            if (x >= width || y >= height) break;
            if (u(rng) < 0.08) continue;  // doors
            g.set(x, y, false);
        }
    }
    for (auto& c : g.open)
        if (u(rng) < noise) c = 0;
    return g;
}

inline path::GridMap to_map(const Grid& g) {
    path::GridMap map;
    (void)map.reset(g.width, g.height, false);
    for (int y = 0; y < g.height; ++y)
        for (int x = 0; x < g.width; ++x)
            if (g.free(x, y)) map.set_passable({x, y}, true);
    return map;
}

inline path::GridPoint random_free(std::mt19937& rng, const Grid& g) {
    for (;;) {
        const int x = int(rng() % g.width), y = int(rng() % g.height);
        if (g.free(x, y)) return {x, y};
    }
}

// ---- a tiny private MovingAI reader (the test's own; no library code) ----------------------------

struct Scenario {
    path::GridPoint start;
    path::GridPoint goal;
    double optimal = 0;
    double tolerance = 0;  // one unit in the last printed digit
};

/// Reads a `.map` file into a Grid ('.', 'G', 'S' passable; everything else blocked). Empty on failure.
inline Grid read_map(const std::filesystem::path& file) {
    std::ifstream in(file);
    Grid g;
    std::string word;
    while (in >> word && word != "map") {
        if (word == "height") in >> g.height;
        else if (word == "width") in >> g.width;
        else if (word == "type") in >> word;
    }
    if (g.width <= 0 || g.height <= 0) return {};
    g.open.assign(std::size_t(g.width) * g.height, 0);
    std::string line;
    std::getline(in, line);
    for (int y = 0; y < g.height && std::getline(in, line); ++y)
        for (int x = 0; x < g.width && x < int(line.size()); ++x) {
            const char c = line[std::size_t(x)];
            g.set(x, y, c == '.' || c == 'G' || c == 'S');
        }
    return g;
}

/// Reads the problems of a `.scen` file (version line skipped, fields split on any whitespace).
inline std::vector<Scenario> read_scenarios(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::vector<Scenario> out;
    std::string line;
    std::getline(in, line);  // version
    while (std::getline(in, line)) {
        std::istringstream fields(line);
        std::vector<std::string> f;
        for (std::string w; fields >> w;) f.push_back(w);
        if (f.size() < 9) continue;
        const std::size_t n = f.size();
        Scenario s;
        s.start = {std::stoi(f[n - 5]), std::stoi(f[n - 4])};
        s.goal = {std::stoi(f[n - 3]), std::stoi(f[n - 2])};
        const std::string& opt = f[n - 1];
        s.optimal = std::stod(opt);
        const auto dot = opt.find('.');
        const int decimals = dot == std::string::npos ? 0 : int(opt.size() - dot - 1);
        s.tolerance = std::pow(10.0, -decimals);
        out.push_back(s);
    }
    return out;
}

/// The 12 shared maps: scenario file relative to the movingai folder, and the map file.
struct SharedMap {
    const char* name;
    const char* map;
    const char* scen;
};
inline constexpr SharedMap kSharedMaps[] = {
    {"arena", "maps/dao/arena.map", "scenarios/dao/arena.map.scen"},
    {"den312d", "maps/dao/den312d.map", "scenarios/dao/den312d.map.scen"},
    {"lak303d", "maps/dao/lak303d.map", "scenarios/dao/lak303d.map.scen"},
    {"brc202d", "maps/dao/brc202d.map", "scenarios/dao/brc202d.map.scen"},
    {"orz900d", "maps/dao/orz900d.map", "scenarios/dao/orz900d.map.scen"},
    {"maze512-1-0", "maps/mazes/maze512-1-0.map", "scenarios/mazes/maze512-1-0.map.scen"},
    {"maze512-8-0", "maps/mazes/maze512-8-0.map", "scenarios/mazes/maze512-8-0.map.scen"},
    {"random512-10-0", "maps/random/random512-10-0.map", "scenarios/random/random512-10-0.map.scen"},
    {"random512-40-0", "maps/random/random512-40-0.map", "scenarios/random/random512-40-0.map.scen"},
    {"16room_000", "maps/rooms/16room_000.map", "scenarios/rooms/16room_000.map.scen"},
    {"Aftershock", "maps/sc1/Aftershock.map", "scenarios/sc1/Aftershock.map.scen"},
    {"AR0011SR", "maps/bg512/AR0011SR.map", "scenarios/bg512/AR0011SR.map.scen"},
};


inline bool close(double a, double b, double tol = 1e-9) { return std::abs(a - b) <= tol * std::max(1.0, std::abs(b)); }

/// Runs every scenario of a shared map through JPS and JPS+: both must match the file's optimal length
/// within one unit of its last printed digit, each other, and (every `astar_every`-th scenario when
/// `with_astar`) our A* within 1e-9. Every path is checked step by step. Prints a one-line summary.
inline void check_shared_map(const SharedMap& m, bool with_astar, std::size_t astar_every = 1) {
    using namespace gameplan::path;
    const auto root = gameplan::test::benchmark_dir() / "movingai";
    const Grid g = read_map(root / m.map);
    ASSERT_GT(g.width, 0) << m.map;
    const auto scenarios = read_scenarios(root / m.scen);
    ASSERT_FALSE(scenarios.empty()) << m.scen;
    const GridMap map = to_map(g);
    JpsPathfinder jps;
    JpsPlusPathfinder plus;
    GridPathfinder astar;
    ASSERT_EQ(plus.build(map), JpsSupport::Ok);
    GridPath pj, pp, pa;
    std::size_t mismatches = 0, astar_checked = 0;
    double worst_scen = 0, worst_astar = 0;
    const std::size_t stride = gameplan::test::scenario_stride();
    for (std::size_t i = 0; i < scenarios.size(); i += stride) {
        const auto& s = scenarios[i];
        SCOPED_TRACE(std::string(m.name) + " scenario " + std::to_string(i));
        ASSERT_EQ(jps.find_path(map, s.start, s.goal, {}, pj), Status::Found);
        ASSERT_EQ(plus.find_path(map, s.start, s.goal, {}, pp), Status::Found);
        const bool ok = std::abs(pj.cost - s.optimal) <= s.tolerance && std::abs(pp.cost - s.optimal) <= s.tolerance &&
                        close(pj.cost, pp.cost, 1e-12);
        if (!ok && ++mismatches <= 5)
            ADD_FAILURE() << "jps " << pj.cost << ", jps+ " << pp.cost << ", optimal " << s.optimal << " +- " << s.tolerance;
        worst_scen = std::max(worst_scen, std::abs(pj.cost - s.optimal) / s.tolerance);
        EXPECT_EQ(check_path(g, pj.cells, s.start, s.goal, pj.cost), "");
        if (i % 8 == 0) {
            EXPECT_EQ(check_path(g, pp.cells, s.start, s.goal, pp.cost), "");
        }
        EXPECT_EQ(pj.cells, pp.cells);
        if (with_astar && i % astar_every == 0) {
            ++astar_checked;
            ASSERT_EQ(astar.find_path(map, s.start, s.goal, {}, pa), Status::Found);
            EXPECT_TRUE(close(pj.cost, pa.cost)) << "jps " << pj.cost << " vs A* " << pa.cost;
            worst_astar = std::max(worst_astar, std::abs(pj.cost - pa.cost));
        }
    }
    std::printf("%s: %zu of %zu scenarios (stride %zu), %zu outside the .scen tolerance (worst %.3f of a last-digit unit), "
                "%zu compared with A* (worst |jps - A*| = %.3g)\n",
                m.name, (scenarios.size() + stride - 1) / stride, scenarios.size(), stride, mismatches, worst_scen,
                astar_checked, worst_astar);
    EXPECT_EQ(mismatches, 0u) << m.name;
    EXPECT_EQ(plus.rebuild_count(), 0u);
    ::testing::Test::RecordProperty("scenarios", static_cast<int>(scenarios.size()));
    ::testing::Test::RecordProperty("astar_checked", static_cast<int>(astar_checked));
}

}  // namespace gameplan::test::jps
