#pragma once
/// PDDL input of the `gameplan` tool: `gameplan plan --pddl DOMAIN PROBLEM` and `gameplan ground`.
#include "cli_support.hpp"

#include <gameplan/goap/planner.hpp>

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

namespace gameplan::cli {

/// The value of `plan --pruning` ("none", "stubborn"; empty or "auto": Pruning::Auto).
inline goap::Pruning parse_pruning(const std::string& name) noexcept {
    return name == "none" ? goap::Pruning::None : name == "stubborn" ? goap::Pruning::StubbornSets : goap::Pruning::Auto;
}

/// What `gameplan plan --pddl` was asked.
struct PddlPlanRequest {
    std::string domain, problem;
    std::string direction;  ///< "forward" / "backward"; empty = forward
    std::string heuristic;  ///< "lmcut" / "hmax" / "blind"; empty = lmcut
    std::string pruning;    ///< "auto" / "none" / "stubborn"; empty = auto
    std::uint64_t max_nodes = 0;  ///< 0 = unlimited
    bool json = false;
    std::string write_plan;  ///< IPC plan file, or empty
    ResourceLimits limits;
};

/// Grounds the task, plans, prints the result; returns the exit code (0 found, 1 none).
int run_pddl_plan(const PddlPlanRequest& request);

/// `gameplan ground DOMAIN.pddl PROBLEM.pddl [--json]`: the grounded task's sizes and grounding time.
void add_ground_command(CLI::App& app, int& exit_code);

}  // namespace gameplan::cli
