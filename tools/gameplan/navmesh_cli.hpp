#pragma once
/// The navmesh side of the `gameplan` tool (cmd_navmesh.cpp): the `navmesh` subcommand, and the
/// `--algorithm navmesh` branch of `path` and `scen` (Euclidean-optimal any-angle paths between cell
/// centres; see path/navmesh.hpp).
#include "cli_support.hpp"
#include "grid_runner.hpp"

#include <CLI/CLI.hpp>
#include <gameplan/path/grid_map.hpp>

#include <cstdint>
#include <chrono>
#include <string>
#include <string_view>
#include <vector>

namespace gameplan::cli {

/// `names` (the grid algorithms) plus "navmesh" and "navmesh-ch", for CLI11's IsMember check.
[[nodiscard]] inline std::vector<std::string> with_navmesh(std::vector<std::string> names) {
    names.emplace_back(kNavmeshAlgorithm);
    names.emplace_back(kNavmeshChAlgorithm);
    return names;
}

/// `gameplan navmesh MAP [--png FILE] [--png-scale N] [--json]`: polygon count, build time, memory.
void add_navmesh_command(CLI::App& app, int& exit_code);

/// One `gameplan path --algorithm navmesh` query; the caller has loaded the map and checked that the
/// cells lie on it.
struct NavmeshPathRequest {
    const path::GridMap* map = nullptr;
    path::GridPoint from, to;
    std::string from_text, to_text;     ///< as typed, for messages
    std::uint64_t max_expansions = 0;   ///< 0 = unlimited
    ResourceLimits limits;
    bool json = false;
    std::string png;                    ///< picture of the mesh and the path ("" = none)
    std::uint64_t png_scale = 0;        ///< 0 = fit
    bool hierarchy = false;             ///< navmesh-ch: query a NavmeshHierarchy built first
    double preprocess_time_limit_s = kDefaultPreprocessSeconds;  ///< navmesh-ch: give up building after this (0 = none)
    /// --time-limit: the run stops here; the scenarios not finished by then are left out of the report.
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};
/// Runs the query and prints it like `gameplan path` (path = turning points as [x, y]). Returns the exit
/// code (0 found, 1 none, 2 invalid).
int run_navmesh_path(const NavmeshPathRequest& request);

/// `gameplan scen --algorithm navmesh`.
struct NavmeshScenRequest {
    std::string scen_file;
    std::string map_file;  ///< "" = the map named in the scenario lines
    ResourceLimits limits{0, kDefaultMaxMemoryMb};
    bool json = false;
    unsigned threads = 1;  ///< solve on this many threads (each with its own pathfinder); same results for any count
    bool hierarchy = false;  ///< navmesh-ch: query a NavmeshHierarchy built first
    double preprocess_time_limit_s = kDefaultPreprocessSeconds;  ///< navmesh-ch: give up building after this (0 = none)
    /// --time-limit: the run stops here; the scenarios not finished by then are left out of the report.
    std::chrono::steady_clock::time_point deadline = std::chrono::steady_clock::time_point::max();
};
/// Runs every scenario between cell centres; each must be found and no longer than the file's
/// 8-connected optimum. Reports how much shorter the any-angle paths are. Returns the exit code.
int run_navmesh_scen(const NavmeshScenRequest& request);

}  // namespace gameplan::cli
