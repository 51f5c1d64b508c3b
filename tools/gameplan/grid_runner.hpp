#pragma once
/// The grid-query core of the `gameplan` tool, shared by `path`, `scen` and the WebAssembly pages
/// (web/): the algorithm dispatch (GridRunner) and the usage error it throws. No CLI11 here, so
/// programs without a command line link it too (target gameplan_cli_core).
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/hpa.hpp>
#include <gameplan/path/jps.hpp>
#include <gameplan/path/jps_plus.hpp>
#include <gameplan/path/subgoal.hpp>
#include <gameplan/path/theta_star.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gameplan::cli {
/// Thrown by commands for bad input; main prints the message to stderr and exits 2.
struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// Grid search algorithms behind `gameplan path` and `gameplan scen`: the one dispatch point both
/// commands go through, so a new algorithm plugs into both at once.
enum class GridAlgorithm : std::uint8_t {
    AStar,     ///< "astar": GridPathfinder with the options' heuristic (optimal)
    Dijkstra,  ///< "dijkstra": GridPathfinder with the zero heuristic (optimal)
    Jps,       ///< "jps": online jump point search (optimal)
    JpsPlus,   ///< "jps-plus": preprocessed jump tables (optimal)
    Hpa,       ///< "hpa": two-tier hierarchical search (inexact)
    Theta,     ///< "theta": Theta*, any-angle paths (waypoints; segment costs under the query's prices, at most the grid optimum)
    Subgoal,   ///< "subgoal": preprocessed subgoal graph with a contraction hierarchy (optimal)
};
/// The --algorithm value that selects the navigation mesh in `path` and `scen` (not a GridAlgorithm:
/// it searches a mesh built from the map, cmd_navmesh.cpp).
inline constexpr std::string_view kNavmeshAlgorithm = "navmesh";
/// The --algorithm value that selects the navmesh contraction hierarchy (path/navmesh_hierarchy.hpp):
/// the same paths as "navmesh", after a preprocessing step.
inline constexpr std::string_view kNavmeshChAlgorithm = "navmesh-ch";
/// Every algorithm, in the order --help lists them.
inline constexpr GridAlgorithm kGridAlgorithms[] = {GridAlgorithm::AStar, GridAlgorithm::Dijkstra, GridAlgorithm::Jps,
                                                    GridAlgorithm::JpsPlus, GridAlgorithm::Hpa, GridAlgorithm::Theta,
                                                    GridAlgorithm::Subgoal};
/// Name of an algorithm as the command line spells it.
std::string_view to_string(GridAlgorithm algorithm) noexcept;
/// Parses a name produced by to_string; nullopt for anything else.
std::optional<GridAlgorithm> parse_grid_algorithm(std::string_view name) noexcept;
/// Every algorithm name, for CLI11's IsMember check.
std::vector<std::string> grid_algorithm_names();
/// True if the algorithm returns optimal grid costs (then results are checked for equality with the
/// optimum; otherwise "suboptimality" is reported).
bool grid_algorithm_exact(GridAlgorithm algorithm) noexcept;
/// Relative excess cost / optimal - 1, with rounding noise of equal costs (summed in another order)
/// reported as exactly 0.
[[nodiscard]] inline double suboptimality_of(double cost, double optimal) noexcept {
    if (!(optimal > 0)) return 0.0;
    const double r = cost / optimal - 1.0;
    return (r < 1e-12 && r > -1e-12) ? 0.0 : r;
}
/// Throws UsageError for a combination that makes no sense (`--smooth` with an any-angle algorithm).
void require_supported(GridAlgorithm algorithm, bool smooth);

/// Outcome of one grid query.
struct GridRun {
    Status status = Status::NoPath;
    std::uint64_t expanded = 0;  ///< cells expanded (jump points for JPS; abstract nodes for HPA*)
    double micros = 0.0;         ///< wall-clock time of the search alone (smoothing included)
    search::BudgetLimit limit = search::BudgetLimit::None;  ///< the budget limit that ended it, if any
};

/// Default of `--preprocess-time-limit`: seconds a subgoal graph's build may take before the command gives
/// up (the 512 x 512 benchmark maps take 0.1 to 25 s; a 2000 x 2000 map of random noise takes many minutes).
inline constexpr double kDefaultPreprocessSeconds = 120.0;
/// `seconds` as `--preprocess-time-limit` messages print it ("%g").
[[nodiscard]] std::string preprocess_seconds_text(double seconds);

/// Per-runner settings beyond the search options.
struct GridRunnerSettings {
    bool smooth = false;               ///< string-pull each path found (grid-legal; see path/smoothing.hpp)
    std::int32_t cluster_size = 64;    ///< HPA* cluster side
    std::size_t max_memory_bytes = 0;  ///< HPA*, subgoal: refuse a hierarchy / graph larger than this (0 = no cap)
    double preprocess_time_limit_s = kDefaultPreprocessSeconds;  ///< subgoal: give up building after this (0 = none)
    /// Each run's search stops after this many seconds (`--time-limit`; 0 = none), counted from the start
    /// of the run: the preprocessing has its own limit and does not use it up.
    double time_limit_s = 0.0;
    /// Every run's search also stops at this instant (`scen --time-limit`: the whole run's end).
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};

/// Estimated bytes of an HPA* hierarchy with clusters of side `cluster_size` on `map`, plus the query's
/// refinement search state (0 for a cluster size outside [1, 256]).
[[nodiscard]] std::size_t hpa_memory_estimate(const path::GridMap& map, std::uint64_t cluster_size);

/// Estimated bytes of `search_states` grid search states on `map` and of `algorithm`'s preprocessing
/// with the optional islands and dead ends (the map itself excluded), from the per-cell sizes the library
/// documents: search state about 20 bytes per cell; JPS+ table 17 bytes per padded cell; subgoal graph
/// 25 per padded cell before its edges and joins; islands 8 bytes per cell; dead ends 8 plus 30 while built; HPA*
/// as hpa_memory_estimate.
[[nodiscard]] double grid_memory_estimate(const path::GridMap& map, GridAlgorithm algorithm, std::uint64_t cluster_size,
                                          bool islands, bool dead_ends, std::size_t search_states);

/// The preprocessing of one map for one algorithm (JPS+ jump table, HPA* hierarchy), built once and
/// read-only afterwards, so the runners of every thread share it.
struct GridPreparation {
    path::JumpTable jump_table;      ///< built for GridAlgorithm::JpsPlus
    path::HierarchicalMap hierarchy; ///< built for GridAlgorithm::Hpa
    path::SubgoalGraph subgoal;      ///< built for GridAlgorithm::Subgoal
    double micros = 0.0;             ///< wall-clock time of the build (0 when there is nothing to build)
    std::size_t bytes = 0;           ///< memory held by the preprocessing (0 when there is none)
};
/// Checks that `map` and the options suit `algorithm` and builds its preprocessing. Throws UsageError.
std::shared_ptr<const GridPreparation> prepare_grid(const path::GridMap& map, GridAlgorithm algorithm,
                                                    const path::GridSearchOptions& options,
                                                    const GridRunnerSettings& settings);

/// Runs grid queries on one map with one algorithm, reusing its search state between queries. One
/// runner per thread.
class GridRunner {
public:
    /// Prepares `algorithm` on `map`, or uses `prepared` (from prepare_grid with the same arguments) so
    /// that several runners share one preprocessing. Throws UsageError if the map or options do not
    /// suit the algorithm.
    GridRunner(const path::GridMap& map, GridAlgorithm algorithm, const path::GridSearchOptions& options,
               GridRunnerSettings settings = {}, std::shared_ptr<const GridPreparation> prepared = nullptr);
    /// Finds a path from `from` to `to` into `out` (cells and cost; waypoints for Theta*).
    GridRun run(path::GridPoint from, path::GridPoint to, path::GridPath& out);
    /// True if the costs `run` returns are optimal (exact algorithm, no smoothing).
    [[nodiscard]] bool exact() const noexcept { return grid_algorithm_exact(m_algorithm) && !m_settings.smooth; }
    /// Wall-clock time of the preprocessing (the shared build, plus JPS's own snapshot; 0 for
    /// algorithms without any).
    [[nodiscard]] double setup_micros() const noexcept { return m_prepared->micros + m_sync_micros; }
    /// Bytes held by the shared preprocessing (jump table, subgoal graph; 0 for the others).
    [[nodiscard]] std::size_t preprocess_bytes() const noexcept { return m_prepared->bytes; }
    /// True if the last run() expanded cell `p` (jump points for JPS; abstract node cells on the
    /// abstract path's search for HPA* are not tracked: false).
    [[nodiscard]] bool expanded(path::GridPoint p) const noexcept;
    /// The HPA* hierarchy (built only for GridAlgorithm::Hpa).
    [[nodiscard]] const path::HierarchicalMap& hierarchy() const noexcept { return m_prepared->hierarchy; }
    /// The A* / Dijkstra search state (its g values after a run; used by the web pages' replay).
    [[nodiscard]] const path::GridPathfinder& astar() const noexcept { return m_astar; }
    /// The algorithm this runner runs.
    [[nodiscard]] GridAlgorithm algorithm() const noexcept { return m_algorithm; }

private:
    const path::GridMap& m_map;
    GridAlgorithm m_algorithm;
    path::GridSearchOptions m_options;
    GridRunnerSettings m_settings;
    std::shared_ptr<const GridPreparation> m_prepared;
    double m_sync_micros = 0.0;    // JPS's passability snapshot (per runner)
    path::GridPathfinder m_astar;  // astar and dijkstra
    path::JpsPathfinder m_jps;
    path::JpsPlusPathfinder m_jps_plus;  // searches m_prepared->jump_table
    path::HpaPathfinder m_hpa;
    path::ThetaStar m_theta;
    path::SubgoalPathfinder m_subgoal;  // searches m_prepared->subgoal
    bool m_answered_by_islands = false;  // the last run() expanded nothing: the islands answered it
};
}  // namespace gameplan::cli
