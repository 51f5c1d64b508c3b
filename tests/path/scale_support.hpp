#pragma once
/// Test helpers shared by the islands, distance-field, request-queue and batch tests: conversion of the
/// oracle's RefGrid to a GridMap, the movement rules in both vocabularies, and an independent BFS
/// labelling of connected components written only against grid_reference.hpp.
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/path/grid_search.hpp>

#include "grid_reference.hpp"

#include <deque>
#include <random>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

namespace gameplan::test {

/// A movement rule in the library's terms and in the oracle's.
struct ScaleRule {
    path::Movement movement;
    path::DiagonalRule diagonal;
    RefDiagonal ref;
    const char* name;
};

inline constexpr ScaleRule kScaleRules[] = {
    {path::Movement::Four, path::DiagonalRule::NoCornerCutting, RefDiagonal::None, "4-connected"},
    {path::Movement::Eight, path::DiagonalRule::NoCornerCutting, RefDiagonal::BothFree, "8/no-corner-cutting"},
    {path::Movement::Eight, path::DiagonalRule::OneObstacle, RefDiagonal::OneFree, "8/one-obstacle"},
    {path::Movement::Eight, path::DiagonalRule::Always, RefDiagonal::Always, "8/always"},
};


/// The GridMap of an oracle grid (cost 0 = blocked).
inline path::GridMap to_grid_map(const RefGrid& g) {
    path::GridMap map;
    EXPECT_EQ(map.reset(g.width, g.height, false), path::GridSizeCheck::Ok);
    for (int y = 0; y < g.height; ++y)
        for (int x = 0; x < g.width; ++x)
            if (g.at(x, y) > 0) {
                map.set_passable({x, y}, true);
                map.set_cost({x, y}, static_cast<std::uint32_t>(g.at(x, y)));
            }
    map.recompute_min_cost();
    return map;
}

/// Search options for a rule.
inline path::GridSearchOptions options_for(const ScaleRule& rule) {
    path::GridSearchOptions options;
    options.movement = rule.movement;
    options.diagonal = rule.diagonal;
    return options;
}

/// Independent component labelling: BFS with the oracle's step rule. Returns -1 for blocked cells and a
/// component number (0, 1, ...) for passable ones, row-major.
inline std::vector<int> ref_components(const RefGrid& g, RefDiagonal rule, int* count = nullptr) {
    std::vector<int> comp(g.cost.size(), -1);
    int next = 0;
    for (int y0 = 0; y0 < g.height; ++y0)
        for (int x0 = 0; x0 < g.width; ++x0) {
            if (!g.free(x0, y0) || comp[std::size_t(y0) * g.width + x0] >= 0) continue;
            std::deque<std::pair<int, int>> open{{x0, y0}};
            comp[std::size_t(y0) * g.width + x0] = next;
            while (!open.empty()) {
                const auto [x, y] = open.front();
                open.pop_front();
                for (int dy = -1; dy <= 1; ++dy)
                    for (int dx = -1; dx <= 1; ++dx) {
                        if (!ref_step_legal(g, x, y, dx, dy, rule)) continue;
                        int& c = comp[std::size_t(y + dy) * g.width + (x + dx)];
                        if (c >= 0) continue;
                        c = next;
                        open.push_back({x + dx, y + dy});
                    }
            }
            ++next;
        }
    if (count) *count = next;
    return comp;
}

/// A random passable cell (the grid must have one).
inline std::pair<int, int> random_free(std::mt19937& rng, const RefGrid& g) {
    for (;;) {
        const int x = int(rng() % unsigned(g.width)), y = int(rng() % unsigned(g.height));
        if (g.free(x, y)) return {x, y};
    }
}

/// Path cells as pairs, for ref_check_path.
inline std::vector<std::pair<int, int>> pairs_of(const std::vector<path::GridPoint>& cells) {
    std::vector<std::pair<int, int>> out;
    for (const auto& c : cells) out.emplace_back(c.x, c.y);
    return out;
}

}  // namespace gameplan::test
