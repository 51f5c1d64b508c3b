#pragma once
// The diagonal rules of grid_rules.hpp written out once for the tests' reference searches (kept apart
// from the library's own `diagonal_allowed`, so that the references stay independent of it).
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

}  // namespace gameplan::test
