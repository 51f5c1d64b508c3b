#pragma once
// Independent references for the crowd tests: a 4-connected BFS and a MAPF solution validator written
// from the benchmark rules, sharing no code with the solver.
#include <gameplan/path/crowd.hpp>
#include <gameplan/path/grid_map.hpp>

#include <cstdint>
#include <cstdlib>
#include <deque>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

namespace crowd_test {
using gameplan::path::CrowdSolution;
using gameplan::path::GridMap;
using gameplan::path::GridPoint;

// 4-connected BFS distance, -1 if unreachable.
inline long bfs_distance(const GridMap& map, GridPoint from, GridPoint to) {
    if (!map.passable(from) || !map.passable(to)) return -1;
    std::vector<long> dist(static_cast<std::size_t>(map.width()) * static_cast<std::size_t>(map.height()), -1);
    auto at = [&](GridPoint p) -> long& { return dist[static_cast<std::size_t>(p.y) * static_cast<std::size_t>(map.width()) + static_cast<std::size_t>(p.x)]; };
    std::deque<GridPoint> queue{from};
    at(from) = 0;
    while (!queue.empty()) {
        const GridPoint p = queue.front();
        queue.pop_front();
        if (p == to) return at(p);
        const GridPoint next[4] = {{p.x + 1, p.y}, {p.x - 1, p.y}, {p.x, p.y + 1}, {p.x, p.y - 1}};
        for (const GridPoint q : next)
            if (map.passable(q) && at(q) < 0) {
                at(q) = at(p) + 1;
                queue.push_back(q);
            }
    }
    return -1;
}

// Checks a solution against the classic MAPF rules. Returns "" when valid, else the first violation.
inline std::string validate(const GridMap& map, const std::vector<GridPoint>& starts, const std::vector<GridPoint>& goals,
                            const CrowdSolution& s) {
    const std::size_t n = starts.size();
    if (s.agents != n) return "agent count";
    const std::size_t steps = static_cast<std::size_t>(s.makespan) + 1;
    if (s.cells.size() != steps * n) return "cells size";
    auto cell = [&](std::size_t t, std::size_t i) { return s.cells[t * n + i]; };
    for (std::size_t i = 0; i < n; ++i) {
        if (!(cell(0, i) == starts[i])) return "agent " + std::to_string(i) + " does not start at its start";
        if (!(cell(steps - 1, i) == goals[i])) return "agent " + std::to_string(i) + " does not end at its goal";
    }
    for (std::size_t t = 0; t < steps; ++t) {
        std::set<std::pair<int, int>> used;
        for (std::size_t i = 0; i < n; ++i) {
            const GridPoint p = cell(t, i);
            if (!map.passable(p)) return "blocked cell at t=" + std::to_string(t);
            if (!used.insert({p.x, p.y}).second) return "vertex conflict at t=" + std::to_string(t);
            if (t > 0) {
                const GridPoint q = cell(t - 1, i);
                if (std::abs(p.x - q.x) + std::abs(p.y - q.y) > 1) return "illegal move at t=" + std::to_string(t);
            }
        }
        if (t > 0) {
            std::map<std::pair<int, int>, std::size_t> before;
            for (std::size_t i = 0; i < n; ++i) before[{cell(t - 1, i).x, cell(t - 1, i).y}] = i;
            for (std::size_t i = 0; i < n; ++i) {
                const GridPoint now = cell(t, i);
                const GridPoint was = cell(t - 1, i);
                if (now == was) continue;
                auto it = before.find({now.x, now.y});
                if (it != before.end() && cell(t, it->second) == was) return "swap conflict at t=" + std::to_string(t);
            }
        }
    }
    std::uint64_t soc = 0;
    std::uint32_t makespan = 0;
    for (std::size_t i = 0; i < n; ++i) {
        std::size_t cost = steps - 1;
        while (cost > 0 && cell(cost - 1, i) == goals[i]) --cost;
        if (s.costs.size() != n || s.costs[i] != cost) return "cost of agent " + std::to_string(i);
        soc += cost;
        makespan = std::max<std::uint32_t>(makespan, static_cast<std::uint32_t>(cost));
    }
    if (soc != s.sum_of_costs) return "sum of costs " + std::to_string(s.sum_of_costs) + " != " + std::to_string(soc);
    if (makespan != s.makespan) return "makespan";
    std::uint64_t lb = 0;
    for (std::size_t i = 0; i < n; ++i) lb += static_cast<std::uint64_t>(bfs_distance(map, starts[i], goals[i]));
    if (lb != s.lower_bound) return "lower bound " + std::to_string(s.lower_bound) + " != " + std::to_string(lb);
    if (soc < lb) return "sum of costs below the lower bound";
    return "";
}

// Optimal sum of costs by Dijkstra over joint states (every agent's cell plus which agents have
// settled on their goal for good), for a handful of agents on a tiny map; -1 if unsolvable. A step
// costs the number of agents not yet settled; settling is free but final (the agent never moves
// again), so an agent's cost is the step of its last arrival, as in the benchmark rules.
inline long optimal_sum_of_costs(const GridMap& map, const std::vector<GridPoint>& starts,
                                 const std::vector<GridPoint>& goals) {
    const std::size_t n = starts.size();
    std::vector<GridPoint> cells;
    for (int y = 0; y < map.height(); ++y)
        for (int x = 0; x < map.width(); ++x)
            if (map.passable({x, y})) cells.push_back({x, y});
    auto index_of = [&](GridPoint p) {
        for (std::size_t c = 0; c < cells.size(); ++c)
            if (cells[c] == p) return c;
        return cells.size();
    };
    std::vector<std::vector<std::size_t>> moves(cells.size());
    for (std::size_t c = 0; c < cells.size(); ++c) {
        moves[c].push_back(c);
        for (std::size_t e = 0; e < cells.size(); ++e)
            if (std::abs(cells[c].x - cells[e].x) + std::abs(cells[c].y - cells[e].y) == 1) moves[c].push_back(e);
    }
    std::vector<std::size_t> goal(n);
    for (std::size_t i = 0; i < n; ++i) goal[i] = index_of(goals[i]);
    // state key: positions in base cells.size(), then the settled mask
    using State = std::pair<std::vector<std::size_t>, unsigned>;
    std::map<State, long> best;
    std::set<std::pair<long, State>> open;
    State first{std::vector<std::size_t>(n), 0u};
    for (std::size_t i = 0; i < n; ++i) first.first[i] = index_of(starts[i]);
    best[first] = 0;
    open.insert({0, first});
    const unsigned all = (1u << n) - 1;
    auto relax = [&](const State& s, long cost) {
        auto it = best.find(s);
        if (it != best.end() && it->second <= cost) return;
        if (it != best.end()) open.erase({it->second, s});
        best[s] = cost;
        open.insert({cost, s});
    };
    while (!open.empty()) {
        const auto [cost, state] = *open.begin();
        open.erase(open.begin());
        const auto& pos = state.first;
        const unsigned settled = state.second;
        if (settled == all) return cost;
        for (std::size_t i = 0; i < n; ++i)
            if (!(settled >> i & 1u) && pos[i] == goal[i]) relax({pos, settled | (1u << i)}, cost);
        const long step = static_cast<long>(n) - static_cast<long>(__builtin_popcount(settled));
        // every combination of moves of the unsettled agents
        std::vector<std::size_t> choice(n, 0), next(n);
        while (true) {
            bool ok = true;
            for (std::size_t i = 0; i < n && ok; ++i) {
                next[i] = (settled >> i & 1u) ? pos[i] : moves[pos[i]][choice[i]];
                for (std::size_t j = 0; j < i && ok; ++j)
                    ok = next[i] != next[j] && !(next[i] == pos[j] && next[j] == pos[i]);
            }
            if (ok) relax({next, settled}, cost + step);
            std::size_t i = 0;
            for (; i < n; ++i) {
                if (settled >> i & 1u) continue;
                if (++choice[i] < moves[pos[i]].size()) break;
                choice[i] = 0;
            }
            if (i == n) break;
        }
    }
    return -1;
}

inline GridMap parse(const std::vector<std::string>& rows) {
    GridMap map;
    (void)map.reset(static_cast<std::int64_t>(rows[0].size()), static_cast<std::int64_t>(rows.size()));
    for (std::size_t y = 0; y < rows.size(); ++y)
        for (std::size_t x = 0; x < rows[y].size(); ++x)
            if (rows[y][x] == '@') map.set_passable({static_cast<int>(x), static_cast<int>(y)}, false);
    return map;
}
}  // namespace crowd_test
