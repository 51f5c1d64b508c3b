#include <gameplan/path/grid_rules.hpp>

namespace gameplan::path {

std::string_view to_string(Movement movement) noexcept { return movement == Movement::Four ? "4" : "8"; }

std::string_view to_string(DiagonalRule rule) noexcept {
    switch (rule) {
        case DiagonalRule::Never: return "never";
        case DiagonalRule::NoCornerCutting: return "no-corner-cutting";
        case DiagonalRule::OneObstacle: return "one-obstacle";
        case DiagonalRule::Always: return "always";
    }
    return "unknown";
}

std::string_view to_string(Heuristic heuristic) noexcept {
    switch (heuristic) {
        case Heuristic::Auto: return "auto";
        case Heuristic::Manhattan: return "manhattan";
        case Heuristic::Octile: return "octile";
        case Heuristic::Euclidean: return "euclidean";
        case Heuristic::Chebyshev: return "chebyshev";
        case Heuristic::Zero: return "zero";
    }
    return "unknown";
}

std::optional<Movement> parse_movement(std::string_view name) noexcept {
    if (name == "4") return Movement::Four;
    if (name == "8") return Movement::Eight;
    return std::nullopt;
}

std::optional<DiagonalRule> parse_diagonal_rule(std::string_view name) noexcept {
    for (auto rule : {DiagonalRule::Never, DiagonalRule::NoCornerCutting, DiagonalRule::OneObstacle, DiagonalRule::Always})
        if (name == to_string(rule)) return rule;
    return std::nullopt;
}

std::optional<Heuristic> parse_heuristic(std::string_view name) noexcept {
    for (auto h : {Heuristic::Auto, Heuristic::Manhattan, Heuristic::Octile, Heuristic::Euclidean, Heuristic::Chebyshev,
                   Heuristic::Zero})
        if (name == to_string(h)) return h;
    return std::nullopt;
}

}  // namespace gameplan::path
