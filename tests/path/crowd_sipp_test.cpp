// Safe-interval path planning (the crowd solver's single-agent replanner) against a brute-force
// time-expanded breadth-first search over the same reserved paths.
#include "../../src/path/sipp.hpp"

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

using gameplan::path::detail::kSippNone;
using gameplan::path::detail::Reservation;
using gameplan::path::detail::SippGraph;
using gameplan::path::detail::SippPlanner;

namespace {

constexpr std::uint32_t kNil = UINT32_MAX;

struct Graph {
    std::uint32_t w = 0, h = 0;
    std::vector<char> free;               // per cell
    std::vector<std::uint32_t> vertex;    // cell -> vertex or kNil
    std::vector<std::uint32_t> nbr;       // 4 per vertex
    std::vector<std::uint8_t> degree;
    std::uint32_t count = 0;
};

Graph random_graph(std::mt19937& rng, std::uint32_t w, std::uint32_t h) {
    Graph g;
    g.w = w;
    g.h = h;
    g.free.resize(static_cast<std::size_t>(w) * h);
    g.vertex.assign(g.free.size(), kNil);
    for (std::size_t c = 0; c < g.free.size(); ++c) {
        g.free[c] = rng() % 5 != 0;
        if (g.free[c]) g.vertex[c] = g.count++;
    }
    g.nbr.assign(static_cast<std::size_t>(g.count) * 4, kNil);
    g.degree.assign(g.count, 0);
    for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x) {
            const std::uint32_t v = g.vertex[y * w + x];
            if (v == kNil) continue;
            const int dx[4] = {0, -1, 1, 0}, dy[4] = {-1, 0, 0, 1};
            for (int k = 0; k < 4; ++k) {
                const int nx = static_cast<int>(x) + dx[k], ny = static_cast<int>(y) + dy[k];
                if (nx < 0 || ny < 0 || nx >= static_cast<int>(w) || ny >= static_cast<int>(h)) continue;
                const std::uint32_t u = g.vertex[static_cast<std::uint32_t>(ny) * w + static_cast<std::uint32_t>(nx)];
                if (u != kNil) g.nbr[v * 4 + g.degree[v]++] = u;
            }
        }
    return g;
}

// The reserved paths, as a plain list: other[i][t] is agent i's vertex at step t; it stays on its
// last vertex forever.
struct Others {
    std::vector<std::vector<std::uint32_t>> paths;
    [[nodiscard]] std::uint32_t at(std::size_t i, std::uint32_t t) const {
        return t < paths[i].size() ? paths[i][t] : paths[i].back();
    }
    [[nodiscard]] bool occupied(std::uint32_t v, std::uint32_t t) const {
        for (std::size_t i = 0; i < paths.size(); ++i)
            if (at(i, t) == v) return true;
        return false;
    }
    // someone moves from `to` to `from` while the agent moves from `from` to `to` (t -> t + 1)
    [[nodiscard]] bool swaps(std::uint32_t from, std::uint32_t to, std::uint32_t t) const {
        for (std::size_t i = 0; i < paths.size(); ++i)
            if (at(i, t) == to && at(i, t + 1) == from) return true;
        return false;
    }
    [[nodiscard]] std::uint32_t horizon() const {
        std::uint32_t hz = 0;
        for (const auto& p : paths) hz = std::max<std::uint32_t>(hz, static_cast<std::uint32_t>(p.size()));
        return hz;
    }
};

// Collision-free random walks, each ending parked on its last vertex.
Others random_others(std::mt19937& rng, const Graph& g, std::size_t agents, std::uint32_t avoid_start) {
    Others o;
    for (std::size_t a = 0; a < agents; ++a) {
        std::uint32_t v = static_cast<std::uint32_t>(rng() % g.count);
        if (v == avoid_start || o.occupied(v, 0)) continue;
        std::vector<std::uint32_t> path{v};
        const std::uint32_t len = rng() % 14;
        bool ok = true;
        for (std::uint32_t t = 0; t < len && ok; ++t) {
            std::vector<std::uint32_t> moves{v};
            for (std::uint32_t k = 0; k < g.degree[v]; ++k) moves.push_back(g.nbr[v * 4 + k]);
            std::shuffle(moves.begin(), moves.end(), rng);
            ok = false;
            for (const std::uint32_t u : moves)
                if (!o.occupied(u, t + 1) && (u == v || !o.swaps(v, u, t))) {
                    path.push_back(u);
                    v = u;
                    ok = true;
                    break;
                }
        }
        // parking must not block an earlier walk later on
        for (std::size_t i = 0; ok && i < o.paths.size(); ++i)
            for (std::uint32_t t = static_cast<std::uint32_t>(path.size()); t <= o.horizon() + 1; ++t)
                if (o.at(i, t) == v) ok = false;
        if (ok) o.paths.push_back(path);
    }
    return o;
}

// Cheapest cost by BFS over (vertex, step) up to `limit` steps; kNil if none.
std::uint32_t brute_force(const Graph& g, const Others& o, std::uint32_t start, std::uint32_t goal, std::uint32_t limit) {
    if (o.occupied(start, 0)) return kNil;
    const std::uint32_t settle = o.horizon() + 1;  // after this step nobody moves any more
    std::vector<char> now(g.count, 0), next(g.count, 0);
    now[start] = 1;
    for (std::uint32_t t = 0; t <= limit; ++t) {
        if (now[goal]) {
            bool stays = true;
            for (std::uint32_t s = t; s <= settle + 1 && stays; ++s) stays = !o.occupied(goal, s);
            if (stays) return t;
        }
        std::fill(next.begin(), next.end(), 0);
        for (std::uint32_t v = 0; v < g.count; ++v) {
            if (!now[v]) continue;
            if (!o.occupied(v, t + 1)) next[v] = 1;
            for (std::uint32_t k = 0; k < g.degree[v]; ++k) {
                const std::uint32_t u = g.nbr[v * 4 + k];
                if (!o.occupied(u, t + 1) && !o.swaps(v, u, t)) next[u] = 1;
            }
        }
        now.swap(next);
    }
    return kNil;
}

std::vector<std::uint32_t> bfs_table(const Graph& g, std::uint32_t goal) {
    std::vector<std::uint32_t> dist(g.count, UINT32_MAX / 4);
    std::vector<std::uint32_t> queue{goal};
    dist[goal] = 0;
    for (std::size_t head = 0; head < queue.size(); ++head) {
        const std::uint32_t v = queue[head];
        for (std::uint32_t k = 0; k < g.degree[v]; ++k) {
            const std::uint32_t u = g.nbr[v * 4 + k];
            if (dist[u] > dist[v] + 1) {
                dist[u] = dist[v] + 1;
                queue.push_back(u);
            }
        }
    }
    return dist;
}

}  // namespace

TEST(CrowdSipp, MatchesBruteForceOverReservedPaths) {
    std::mt19937 rng(3);
    SippPlanner planner;
    Reservation table;
    std::vector<std::uint32_t> path;
    int found = 0, none = 0;
    for (int round = 0; round < 400; ++round) {
        const Graph g = random_graph(rng, 3 + rng() % 6, 3 + rng() % 6);
        if (g.count < 2) continue;
        const std::uint32_t start = static_cast<std::uint32_t>(rng() % g.count);
        std::uint32_t goal = static_cast<std::uint32_t>(rng() % g.count);
        const Others others = random_others(rng, g, 1 + rng() % 8, start);
        bool goal_taken = false;
        for (const auto& p : others.paths) goal_taken = goal_taken || p.back() == goal;
        if (goal_taken) continue;  // goals are distinct in a crowd instance
        table.reset(g.count);
        for (std::size_t i = 0; i < others.paths.size(); ++i)
            table.add(static_cast<std::uint32_t>(i), others.paths[i].data(),
                      static_cast<std::uint32_t>(others.paths[i].size() - 1));
        planner.reset(g.count);
        const std::vector<std::uint32_t> dist = bfs_table(g, goal);
        const SippGraph sg{g.nbr.data(), g.degree.data(), dist.data(), g.count};
        const std::uint32_t limit = 60;
        const std::uint32_t expected = brute_force(g, others, start, goal, limit);
        const std::uint32_t cost = planner.plan(sg, table, 0, start, goal, limit, path);
        ASSERT_EQ(cost == kSippNone ? kNil : cost, expected) << "round " << round;
        if (cost == kSippNone) {
            ++none;
            continue;
        }
        ++found;
        // the path itself: right length, legal moves, no vertex or swap conflict, parks at the goal
        ASSERT_EQ(path.size(), static_cast<std::size_t>(cost) + 1);
        ASSERT_EQ(path.front(), start);
        ASSERT_EQ(path.back(), goal);
        for (std::uint32_t t = 0; t + 1 < path.size(); ++t) {
            const std::uint32_t v = path[t], u = path[t + 1];
            bool legal = u == v;
            for (std::uint32_t k = 0; k < g.degree[v]; ++k) legal = legal || g.nbr[v * 4 + k] == u;
            ASSERT_TRUE(legal) << "round " << round;
            ASSERT_FALSE(others.occupied(u, t + 1)) << "round " << round;
            ASSERT_FALSE(u != v && others.swaps(v, u, t)) << "round " << round;
        }
        // bounds: the optimum is found with bound = cost and proved absent with bound = cost - 1
        EXPECT_EQ(planner.plan(sg, table, 0, start, goal, cost, path), cost);
        if (cost > 0) {
            EXPECT_EQ(planner.plan(sg, table, 0, start, goal, cost - 1, path), kSippNone);
        }
        // removing every reservation leaves the plain distance
        for (std::size_t i = 0; i < others.paths.size(); ++i)
            table.remove(static_cast<std::uint32_t>(i), others.paths[i].data(),
                         static_cast<std::uint32_t>(others.paths[i].size() - 1));
        if (dist[start] < UINT32_MAX / 4) {
            EXPECT_EQ(planner.plan(sg, table, 0, start, goal, limit, path), dist[start]);
        }
    }
    EXPECT_GT(found, 200);
    EXPECT_GT(none, 5);
}
