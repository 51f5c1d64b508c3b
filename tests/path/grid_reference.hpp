#pragma once
/// Independent oracles for the grid tests: a plain grid of ints, a textbook Dijkstra over it, and a
/// step-by-step path checker. Written without any gameplan path code so they can catch its mistakes.
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace gameplan::test {

/// Grid as the oracle sees it: cost 0 = blocked, otherwise the cost of entering the cell.
struct RefGrid {
    int width = 0;
    int height = 0;
    std::vector<int> cost;  // row-major, y * width + x
    [[nodiscard]] bool inside(int x, int y) const { return x >= 0 && y >= 0 && x < width && y < height; }
    [[nodiscard]] bool free(int x, int y) const { return inside(x, y) && cost[std::size_t(y) * width + x] > 0; }
    [[nodiscard]] int at(int x, int y) const { return cost[std::size_t(y) * width + x]; }
};

/// Diagonal policies by name, so this file does not depend on the library's enum.
enum class RefDiagonal { None, BothFree, OneFree, Always };

/// Whether the single step (x,y) -> (x+dx,y+dy) is legal.
inline bool ref_step_legal(const RefGrid& g, int x, int y, int dx, int dy, RefDiagonal rule) {
    if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0)) return false;
    if (!g.free(x + dx, y + dy)) return false;
    if (dx == 0 || dy == 0) return true;
    const bool a = g.free(x + dx, y), b = g.free(x, y + dy);
    switch (rule) {
        case RefDiagonal::None: return false;
        case RefDiagonal::BothFree: return a && b;
        case RefDiagonal::OneFree: return a || b;
        case RefDiagonal::Always: return true;
    }
    return false;
}

inline double ref_step_cost(const RefGrid& g, int dx, int dy, int tx, int ty) {
    return g.at(tx, ty) * ((dx != 0 && dy != 0) ? std::sqrt(2.0) : 1.0);
}

/// Textbook Dijkstra from several sources; returns distances (infinity when unreachable).
inline std::vector<double> ref_dijkstra(const RefGrid& g, const std::vector<std::pair<int, int>>& sources, RefDiagonal rule) {
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> dist(g.cost.size(), inf);
    using Item = std::pair<double, int>;
    std::priority_queue<Item, std::vector<Item>, std::greater<Item>> open;
    for (auto [x, y] : sources) {
        dist[std::size_t(y) * g.width + x] = 0;
        open.push({0.0, y * g.width + x});
    }
    while (!open.empty()) {
        auto [d, i] = open.top();
        open.pop();
        if (d > dist[i]) continue;
        const int x = i % g.width, y = i / g.width;
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                if (!ref_step_legal(g, x, y, dx, dy, rule)) continue;
                const int j = (y + dy) * g.width + (x + dx);
                const double nd = d + ref_step_cost(g, dx, dy, x + dx, y + dy);
                if (nd < dist[j]) {
                    dist[j] = nd;
                    open.push({nd, j});
                }
            }
    }
    return dist;
}

/// Checks a path step by step: endpoints, adjacency, legality under `rule`, and that the step costs
/// sum to `cost`. Returns "" when legal, else a description of the first problem.
inline std::string ref_check_path(const RefGrid& g, const std::vector<std::pair<int, int>>& cells, int sx, int sy, int tx,
                                  int ty, RefDiagonal rule, double cost) {
    if (cells.empty()) return "empty path";
    if (cells.front() != std::pair{sx, sy}) return "path does not start at the start";
    if (cells.back() != std::pair{tx, ty}) return "path does not end at the goal";
    if (!g.free(sx, sy)) return "start is blocked";
    double sum = 0;
    for (std::size_t i = 1; i < cells.size(); ++i) {
        const auto [x0, y0] = cells[i - 1];
        const auto [x1, y1] = cells[i];
        if (!ref_step_legal(g, x0, y0, x1 - x0, y1 - y0, rule))
            return "illegal step " + std::to_string(i) + ": (" + std::to_string(x0) + "," + std::to_string(y0) + ") -> (" +
                   std::to_string(x1) + "," + std::to_string(y1) + ")";
        sum += ref_step_cost(g, x1 - x0, y1 - y0, x1, y1);
    }
    if (std::abs(sum - cost) > 1e-9 * std::max(1.0, cost))
        return "reported cost " + std::to_string(cost) + " but steps sum to " + std::to_string(sum);
    return "";
}

/// Random grid: each cell blocked with probability `density`; passable cells cost 1, or a random
/// cost in [min_cost, max_cost] when `terrain`.
inline RefGrid ref_random_grid(std::mt19937& rng, int width, int height, double density, bool terrain, int min_cost = 1,
                               int max_cost = 9) {
    RefGrid g{width, height, std::vector<int>(std::size_t(width) * height)};
    std::uniform_real_distribution<double> u(0, 1);
    std::uniform_int_distribution<int> c(min_cost, max_cost);
    for (auto& cell : g.cost) cell = u(rng) < density ? 0 : (terrain ? c(rng) : 1);
    return g;
}

}  // namespace gameplan::test
