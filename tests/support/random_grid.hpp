// Random grid maps for tests: the same generator everywhere, so a map seed means the same map in every test.
#pragma once

#include <gameplan/path/grid_map.hpp>

#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace gameplan::test {

/// A w x h map whose cells are blocked independently with probability `density`.
inline path::GridMap random_map(std::mt19937& rng, int w, int h, double density) {
    path::GridMap map;
    EXPECT_EQ(map.reset(w, h), path::GridSizeCheck::Ok);
    std::uniform_real_distribution<double> u(0, 1);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            if (u(rng) < density) map.set_passable({x, y}, false);
    return map;
}

/// `count` passable cells drawn uniformly (with repetition). The map must have a passable cell.
inline std::vector<path::GridPoint> free_cells(std::mt19937& rng, const path::GridMap& map, int count) {
    std::vector<path::GridPoint> cells;
    while (int(cells.size()) < count) {
        const path::GridPoint p{int(rng() % std::uint32_t(map.width())), int(rng() % std::uint32_t(map.height()))};
        if (map.passable(p)) cells.push_back(p);
    }
    return cells;
}

}  // namespace gameplan::test
