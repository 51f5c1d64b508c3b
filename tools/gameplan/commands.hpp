#pragma once
/// Subcommands of the `gameplan` tool. Each `add_*` registers one subcommand on `app`; when it runs,
/// its callback stores the process exit code in `exit_code`:
///   0 success, 1 "computed, but the answer is negative" (no plan / no path / mismatch), 2 bad input or usage.
#include <CLI/CLI.hpp>

#include <gameplan/path/grid_search.hpp>

#include <cstdint>
#include <string_view>

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

namespace gameplan::cli {
void add_path_command(CLI::App& app, int& exit_code);
void add_scen_command(CLI::App& app, int& exit_code);

/// Grid search algorithms behind `gameplan path` and `gameplan scen`: the one dispatch point both
/// commands go through, so a new algorithm (JPS, HPA*, Dijkstra, smoothing) plugs into both at once.
enum class GridAlgorithm : std::uint8_t { AStar };
/// Name of an algorithm as the command line spells it.
std::string_view to_string(GridAlgorithm algorithm) noexcept;

/// Outcome of one grid query.
struct GridRun {
    Status status = Status::NoPath;
    std::uint64_t expanded = 0;  ///< cells expanded
    double micros = 0.0;         ///< wall-clock time of the search alone
};

/// Runs grid queries on one map with one algorithm, reusing its search state between queries.
class GridRunner {
public:
    GridRunner(const path::GridMap& map, GridAlgorithm algorithm, const path::GridSearchOptions& options);
    /// Finds a path from `from` to `to` into `out` (cells and cost).
    GridRun run(path::GridPoint from, path::GridPoint to, path::GridPath& out);

private:
    const path::GridMap& m_map;
    GridAlgorithm m_algorithm;
    path::GridSearchOptions m_options;
    path::GridPathfinder m_astar;
};
}  // namespace gameplan::cli
