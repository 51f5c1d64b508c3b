#pragma once
/// @file grid_space.hpp
/// A GridMap seen as a `search::SearchSpace`, for the generic `search::SearchContext<double>`.
///
/// Overview
/// --------
/// `GridPathfinder` (grid_search.hpp) is the fast way to search a grid. `GridSpace` exposes the same
/// movement rules, step costs and heuristics through the engine's generic interface, for code that wants
/// to drive `SearchContext` itself: custom goal tests, composite costs, or comparing the specialised loop
/// against the generic engine (the grid benchmark does). Node ids are the map's node indices; the edge
/// label of a step is its direction 0..7 (`kGridDirections`).
///
/// Thread-safety: a GridSpace only reads its map; any number may share one map.

#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/search/indexed_heap.hpp>

#include <array>
#include <cstdint>
#include <cstdlib>

namespace gameplan::path {

/// The eight step directions, indexed by edge label: 0..3 cardinal (up, down, left, right),
/// 4..7 diagonal (up-left, up-right, down-left, down-right).
inline constexpr std::array<GridPoint, 8> kGridDirections{
    GridPoint{0, -1}, GridPoint{0, 1},  GridPoint{-1, 0}, GridPoint{1, 0},
    GridPoint{-1, -1}, GridPoint{1, -1}, GridPoint{-1, 1}, GridPoint{1, 1}};

/// Single-goal grid search space for `search::SearchContext<double>`. See the file overview.
class GridSpace {
public:
    /// A space on `map` (which must outlive it) toward `goal`. `heuristic` Auto is resolved for the
    /// movement rule; distances are scaled by `weight * map.min_cost()`.
    GridSpace(const GridMap& map, GridPoint goal, Movement movement = Movement::Eight,
              DiagonalRule rule = DiagonalRule::NoCornerCutting, Heuristic heuristic = Heuristic::Auto,
              double weight = 1.0) noexcept
        : m_map(&map),
          m_goal(map.contains(goal) ? map.index(goal) : search::kNoNode),
          m_goal_x(goal.x + 1),
          m_goal_y(goal.y + 1),
          m_rule(effective_diagonal(movement, rule)),
          m_heuristic(resolve_heuristic(movement, rule, heuristic)),
          m_scale(weight * static_cast<double>(map.min_cost())) {}

    /// One past the largest node index (the map's padded cell count).
    [[nodiscard]] std::size_t node_bound() const noexcept { return m_map->node_bound(); }
    /// True for the goal cell.
    [[nodiscard]] bool is_goal(search::NodeIndex node) const noexcept { return node == m_goal; }
    /// Scaled heuristic distance from `node` to the goal.
    [[nodiscard]] double heuristic(search::NodeIndex node) const noexcept {
        const auto x = static_cast<std::int32_t>(node % m_map->stride());
        const auto y = static_cast<std::int32_t>(node / m_map->stride());
        return m_scale * heuristic_distance(m_heuristic, std::abs(x - m_goal_x), std::abs(y - m_goal_y));
    }
    /// Calls `sink(successor, step_cost, direction)` for every legal step out of `node`.
    template <class Sink>
    void expand(search::NodeIndex node, Sink&& sink) const {
        const std::uint8_t* pass = m_map->passable_data().data();
        const auto stride = static_cast<std::int64_t>(m_map->stride());
        const bool terrain = m_map->has_terrain_costs();
        const auto step_cost = [&](search::NodeIndex to, double length) {
            return terrain ? length * static_cast<double>(m_map->cost_data()[to]) : length;
        };
        bool open[4];
        for (std::uint32_t d = 0; d < 4; ++d) {
            const auto to = static_cast<search::NodeIndex>(node + kGridDirections[d].y * stride + kGridDirections[d].x);
            open[d] = pass[to] != 0;
            if (open[d]) sink(to, step_cost(to, 1.0), d);
        }
        if (m_rule == DiagonalRule::Never) return;
        for (std::uint32_t d = 4; d < 8; ++d) {
            const GridPoint dir = kGridDirections[d];
            const auto to = static_cast<search::NodeIndex>(node + dir.y * stride + dir.x);
            const bool side_x = open[dir.x < 0 ? 2 : 3];
            const bool side_y = open[dir.y < 0 ? 0 : 1];
            if (pass[to] && diagonal_allowed(m_rule, side_x, side_y)) sink(to, step_cost(to, kDiagonalStep), d);
        }
    }

private:
    const GridMap* m_map;
    search::NodeIndex m_goal;
    std::int32_t m_goal_x;  // padded coordinates
    std::int32_t m_goal_y;
    DiagonalRule m_rule;
    Heuristic m_heuristic;
    double m_scale;
};

}  // namespace gameplan::path
