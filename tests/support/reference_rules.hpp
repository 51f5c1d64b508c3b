#pragma once
// The diagonal rules of grid_rules.hpp written out once for the tests' reference searches (kept apart
// from the library's own `diagonal_allowed`, so that the references stay independent of it), and the
// movement rules the grid tests run through.
#include <gameplan/path/grid_rules.hpp>

namespace gameplan::test {

/// May a diagonal step be taken under `rule` when the two side cells it passes are open (`a`, `b`)?
inline bool reference_diagonal_ok(path::DiagonalRule rule, bool a, bool b) {
    switch (rule) {
        case path::DiagonalRule::Never: return false;
        case path::DiagonalRule::NoCornerCutting: return a && b;
        case path::DiagonalRule::OneObstacle: return a || b;
        case path::DiagonalRule::Always: return true;
    }
    return false;
}

/// A movement rule with its name for messages.
struct MovementRule {
    path::Movement movement;
    path::DiagonalRule diagonal;
    const char* name;
};

/// Every movement rule: 4-connected and the four diagonal rules of 8-connected movement.
inline constexpr MovementRule kMovementRules[] = {
    {path::Movement::Four, path::DiagonalRule::NoCornerCutting, "4-connected"},
    {path::Movement::Eight, path::DiagonalRule::Never, "8/never"},
    {path::Movement::Eight, path::DiagonalRule::NoCornerCutting, "8/no-corner-cutting"},
    {path::Movement::Eight, path::DiagonalRule::OneObstacle, "8/one-obstacle"},
    {path::Movement::Eight, path::DiagonalRule::Always, "8/always"},
};

/// The rules of any-angle searches (8/never is the same as 4-connected there).
inline constexpr MovementRule kAnyAngleRules[] = {
    {path::Movement::Four, path::DiagonalRule::NoCornerCutting, "4-connected"},
    {path::Movement::Eight, path::DiagonalRule::NoCornerCutting, "8/no-corner-cutting"},
    {path::Movement::Eight, path::DiagonalRule::OneObstacle, "8/one-obstacle"},
    {path::Movement::Eight, path::DiagonalRule::Always, "8/always"},
};

}  // namespace gameplan::test
