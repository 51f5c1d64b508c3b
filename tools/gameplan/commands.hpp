#pragma once
/// Subcommands of the `gameplan` tool. Each `add_*` registers one subcommand on `app`; when it runs,
/// its callback stores the process exit code in `exit_code`:
///   0 success, 1 "computed, but the answer is negative" (no plan / no path / mismatch), 2 bad input or usage.
#include <CLI/CLI.hpp>

namespace gameplan::cli {
/// Thrown by commands for bad input; main prints the message to stderr and exits 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// `gameplan plan DOMAIN.json [--direction forward|backward] [--max-nodes N] [--goal NAME] [--json]`.
void add_plan_command(CLI::App& app, int& exit_code);
/// `gameplan simulate SCENARIO.json [--ticks N] [--threads N] [--json]`.
void add_simulate_command(CLI::App& app, int& exit_code);
}  // namespace gameplan::cli
