#pragma once
/// Subcommands of the `gameplan` tool. Each `add_*` registers one subcommand on `app`; when it runs,
/// its callback stores the process exit code in `exit_code`:
///   0 success, 1 "computed, but the answer is negative" (no plan / no path / mismatch), 2 bad input or usage.
#include <CLI/CLI.hpp>

#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/jps.hpp>
#include <gameplan/path/jps_plus.hpp>

#include <cstdint>
#include <optional>
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
/// `gameplan demo [--map MAP] [--agents N] [--ticks N] [--seed S] [--threads T] [--json]
/// [--png-every K --png-dir DIR]`: the village simulation (docs/demo.md).
void add_demo_command(CLI::App& app, int& exit_code);
}  // namespace gameplan::cli

namespace gameplan::cli {
void add_path_command(CLI::App& app, int& exit_code);
void add_scen_command(CLI::App& app, int& exit_code);

/// Grid search algorithms behind `gameplan path` and `gameplan scen`: the one dispatch point both
/// commands go through, so a new algorithm plugs into both at once.
///
/// Merge hooks (JPS, JPS+ and HPA* live on other branches): each has its enum value, its name, and a
/// `case` in every switch of cmd_path.cpp (`grid_algorithm_available`, `grid_algorithm_exact`,
/// `GridRunner::GridRunner`, `GridRunner::run`); `--smooth` has `grid_smoothing_available` and the
/// smoothing step at the end of `GridRunner::run`. Until wired, selecting one is refused with
/// "algorithm X is not available in this build" (exit 2): never a silent fallback to A*.
enum class GridAlgorithm : std::uint8_t {
    AStar,     ///< "astar": GridPathfinder with the options' heuristic (optimal)
    Dijkstra,  ///< "dijkstra": GridPathfinder with the zero heuristic (optimal)
    Jps,       ///< "jps": online jump point search (optimal; merge hook)
    JpsPlus,   ///< "jps-plus": preprocessed jump tables (optimal; merge hook)
    Hpa,       ///< "hpa": two-tier hierarchical search (inexact; merge hook)
};
/// Every algorithm, in the order --help lists them.
inline constexpr GridAlgorithm kGridAlgorithms[] = {GridAlgorithm::AStar, GridAlgorithm::Dijkstra, GridAlgorithm::Jps,
                                                    GridAlgorithm::JpsPlus, GridAlgorithm::Hpa};
/// Name of an algorithm as the command line spells it.
std::string_view to_string(GridAlgorithm algorithm) noexcept;
/// Parses a name produced by to_string; nullopt for anything else.
std::optional<GridAlgorithm> parse_grid_algorithm(std::string_view name) noexcept;
/// True if the algorithm is wired into this build.
bool grid_algorithm_available(GridAlgorithm algorithm) noexcept;
/// True if the algorithm returns optimal costs (then results are checked for equality with the optimum;
/// otherwise "suboptimality" is reported).
bool grid_algorithm_exact(GridAlgorithm algorithm) noexcept;
/// True if path smoothing (`--smooth`) is wired into this build.
bool grid_smoothing_available() noexcept;
/// Throws UsageError unless the algorithm (and smoothing, if asked for) is available in this build.
void require_available(GridAlgorithm algorithm, bool smooth);

/// Outcome of one grid query.
struct GridRun {
    Status status = Status::NoPath;
    std::uint64_t expanded = 0;  ///< cells expanded (abstract nodes too, for hierarchical search)
    double micros = 0.0;         ///< wall-clock time of the search alone
};

/// Runs grid queries on one map with one algorithm, reusing its search state between queries. One
/// runner per thread.
class GridRunner {
public:
    /// Prepares `algorithm` on `map` (preprocessing, if the algorithm has any, happens here). Throws
    /// UsageError if the algorithm or smoothing is not available in this build.
    GridRunner(const path::GridMap& map, GridAlgorithm algorithm, const path::GridSearchOptions& options,
               bool smooth = false);
    /// Finds a path from `from` to `to` into `out` (cells and cost).
    GridRun run(path::GridPoint from, path::GridPoint to, path::GridPath& out);
    /// True if the costs `run` returns are optimal (exact algorithm, no smoothing).
    [[nodiscard]] bool exact() const noexcept { return grid_algorithm_exact(m_algorithm) && !m_smooth; }

private:
    const path::GridMap& m_map;
    GridAlgorithm m_algorithm;
    path::GridSearchOptions m_options;
    bool m_smooth;
    path::GridPathfinder m_astar;  // astar and dijkstra
    path::JpsPathfinder m_jps;
    path::JpsPlusPathfinder m_jps_plus;
    // Merge hook: the JPS / JPS+ / HPA* search objects (and their preprocessing) become members here.
};
}  // namespace gameplan::cli
