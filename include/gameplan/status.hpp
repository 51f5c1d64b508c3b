#pragma once
/// @file status.hpp
/// Outcome codes shared by every search in gameplan (GOAP plans, grid and graph paths).
///
/// Runtime outcomes are values, never exceptions: a search that finds nothing, or runs out of its
/// budget, is a normal result. Only file loaders and the command-line tool throw.

#include <cstdint>
#include <string_view>

namespace gameplan {

/// Result of a search or of one slice of a resumable search.
enum class Status : std::uint8_t {
    Found,            ///< A goal was reached; the result holds an optimal (or bounded) solution.
    NoPath,           ///< The search space was exhausted: no solution exists (GOAP: "no_plan").
    BudgetExhausted,  ///< The node or time budget ran out before the search finished.
    InvalidQuery,     ///< The query itself is malformed (out-of-range cell, blocked start, ...).
    InProgress,       ///< A resumable search stopped after its slice budget; call step() again.
};

/// Stable lower-case name used in JSON output: "found", "no_path", "budget_exhausted",
/// "invalid_query", "in_progress".
[[nodiscard]] constexpr std::string_view to_string(Status status) noexcept {
    switch (status) {
        case Status::Found: return "found";
        case Status::NoPath: return "no_path";
        case Status::BudgetExhausted: return "budget_exhausted";
        case Status::InvalidQuery: return "invalid_query";
        case Status::InProgress: return "in_progress";
    }
    return "unknown";
}

}  // namespace gameplan
