#pragma once
/// @file grid_rules.hpp
/// Movement rules, step costs and distance heuristics for grid search.
///
/// Overview
/// --------
/// A grid search moves between the 4 cardinal neighbours of a cell (4-connected) or between all 8
/// neighbours (8-connected). A cardinal step has length 1, a diagonal step length sqrt(2)
/// (`kDiagonalStep`, a double; path costs are doubles). The cost of a step is the terrain cost of the
/// cell entered times the step length (see grid_map.hpp).
///
/// Whether a diagonal step from (x, y) to (x + dx, y + dy) is legal depends on the target (it must be
/// passable) and on the two orthogonal cells it passes, (x + dx, y) and (x, y + dy):
///
/// | DiagonalRule      | diagonal step allowed when                                  |
/// |-------------------|-------------------------------------------------------------|
/// | Never             | never (same as 4-connected)                                 |
/// | NoCornerCutting   | both orthogonal cells passable (MovingAI / GPPC rule; default) |
/// | OneObstacle       | at least one orthogonal cell passable                       |
/// | Always            | always (squeezes between two diagonal walls)                |
///
/// Heuristics estimate the remaining length from dx = |x - goal.x|, dy = |y - goal.y|:
/// Manhattan dx + dy, octile max + (sqrt(2) - 1) min, Euclidean sqrt(dx^2 + dy^2), Chebyshev max, zero.
/// `Heuristic::Auto` picks the tightest admissible one for the movement rule: Manhattan when only
/// cardinal steps exist, octile otherwise. A search scales the chosen distance by the map's minimum
/// terrain cost (so it stays admissible on weighted terrain) and by the weight w >= 1.
/// Manhattan on an 8-connected grid overestimates and gives no optimality guarantee.
///
/// Thread-safety: everything here is a pure function.

#include <gameplan/path/grid_map.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <numbers>
#include <optional>
#include <string_view>

namespace gameplan::path {

/// Length of a diagonal step (a cardinal step has length 1).
inline constexpr double kDiagonalStep = std::numbers::sqrt2;

/// Which neighbours a cell has.
enum class Movement : std::uint8_t {
    Four,   ///< the 4 cardinal neighbours
    Eight,  ///< cardinal and diagonal neighbours, diagonals filtered by a DiagonalRule
};

/// When a diagonal step is legal (see the file overview). Ignored for Movement::Four.
enum class DiagonalRule : std::uint8_t { Never, NoCornerCutting, OneObstacle, Always };

/// Distance estimate used by A* (see the file overview).
enum class Heuristic : std::uint8_t { Auto, Manhattan, Octile, Euclidean, Chebyshev, Zero };

/// The diagonal rule actually in force: Never for 4-connected movement.
[[nodiscard]] constexpr DiagonalRule effective_diagonal(Movement movement, DiagonalRule rule) noexcept {
    return movement == Movement::Four ? DiagonalRule::Never : rule;
}

/// Resolves Heuristic::Auto to the tightest admissible heuristic for the movement rule.
[[nodiscard]] constexpr Heuristic resolve_heuristic(Movement movement, DiagonalRule rule, Heuristic heuristic) noexcept {
    if (heuristic != Heuristic::Auto) return heuristic;
    return effective_diagonal(movement, rule) == DiagonalRule::Never ? Heuristic::Manhattan : Heuristic::Octile;
}

/// True if a diagonal step passing orthogonal cells with the given passability is legal under `rule`
/// (the target's own passability is checked separately).
[[nodiscard]] constexpr bool diagonal_allowed(DiagonalRule rule, bool side_a_passable, bool side_b_passable) noexcept {
    switch (rule) {
        case DiagonalRule::Never: return false;
        case DiagonalRule::NoCornerCutting: return side_a_passable && side_b_passable;
        case DiagonalRule::OneObstacle: return side_a_passable || side_b_passable;
        case DiagonalRule::Always: return true;
    }
    return false;
}

/// Unscaled heuristic distance for absolute coordinate differences dx, dy >= 0.
/// `heuristic` must not be Auto (resolve it first); Auto is treated as Zero.
[[nodiscard]] inline double heuristic_distance(Heuristic heuristic, double dx, double dy) noexcept {
    switch (heuristic) {
        case Heuristic::Manhattan: return dx + dy;
        case Heuristic::Octile: return std::max(dx, dy) + (kDiagonalStep - 1.0) * std::min(dx, dy);
        case Heuristic::Euclidean: return std::sqrt(dx * dx + dy * dy);
        case Heuristic::Chebyshev: return std::max(dx, dy);
        case Heuristic::Zero:
        case Heuristic::Auto: return 0.0;
    }
    return 0.0;
}

/// True if one step from `from` to the neighbouring cell `to` is legal on `map` under the rule:
/// both on the map, `to` passable, |dx|, |dy| <= 1, not both zero, and diagonals filtered by `rule`.
/// (`from` itself is not required to be passable.) O(1).
[[nodiscard]] inline bool step_allowed(const GridMap& map, GridPoint from, GridPoint to, Movement movement,
                                       DiagonalRule rule) noexcept {
    const int dx = to.x - from.x;
    const int dy = to.y - from.y;
    if (!map.contains(from) || !map.passable(to)) return false;
    if (std::abs(dx) > 1 || std::abs(dy) > 1 || (dx == 0 && dy == 0)) return false;
    if (dx == 0 || dy == 0) return true;
    return diagonal_allowed(effective_diagonal(movement, rule), map.passable(GridPoint{from.x + dx, from.y}),
                            map.passable(GridPoint{from.x, from.y + dy}));
}

/// Cost of the step from `from` to its neighbour `to`: terrain cost of `to` times the step length.
/// Precondition: step_allowed(...).
[[nodiscard]] inline double step_cost(const GridMap& map, GridPoint from, GridPoint to) noexcept {
    const bool diagonal = from.x != to.x && from.y != to.y;
    return static_cast<double>(map.cost(to)) * (diagonal ? kDiagonalStep : 1.0);
}

/// Stable names used by the command line and JSON: "4"/"8"; "never", "no-corner-cutting",
/// "one-obstacle", "always"; "auto", "manhattan", "octile", "euclidean", "chebyshev", "zero".
[[nodiscard]] std::string_view to_string(Movement movement) noexcept;
/// See to_string(Movement).
[[nodiscard]] std::string_view to_string(DiagonalRule rule) noexcept;
/// See to_string(Movement).
[[nodiscard]] std::string_view to_string(Heuristic heuristic) noexcept;
/// Parses a name produced by to_string; nullopt for anything else.
[[nodiscard]] std::optional<Movement> parse_movement(std::string_view name) noexcept;
/// Parses a name produced by to_string; nullopt for anything else.
[[nodiscard]] std::optional<DiagonalRule> parse_diagonal_rule(std::string_view name) noexcept;
/// Parses a name produced by to_string; nullopt for anything else.
[[nodiscard]] std::optional<Heuristic> parse_heuristic(std::string_view name) noexcept;

}  // namespace gameplan::path
