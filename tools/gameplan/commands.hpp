#pragma once
/// Subcommands of the `gameplan` tool. Each `add_*` registers one subcommand on `app`; when it runs,
/// its callback stores the process exit code in `exit_code`:
///   0 success, 1 "computed, but the answer is negative" (no plan / no path / mismatch), 2 bad input or usage.
#include "grid_runner.hpp"

#include <CLI/CLI.hpp>

#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/hpa.hpp>
#include <gameplan/path/jps.hpp>
#include <gameplan/path/jps_plus.hpp>
#include <gameplan/path/subgoal.hpp>
#include <gameplan/path/theta_star.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gameplan::cli {
/// `gameplan plan DOMAIN.json [--direction forward|backward] [--max-nodes N] [--goal NAME] [--json]`.
void add_plan_command(CLI::App& app, int& exit_code);
/// `gameplan simulate SCENARIO.json [--ticks N] [--threads N] [--json]`.
void add_simulate_command(CLI::App& app, int& exit_code);
/// `gameplan demo [--map MAP] [--agents N] [--ticks N] [--seed S] [--threads T] [--json]
/// [--png-every K --png-dir DIR]`: the village simulation (docs/demo.md).
void add_demo_command(CLI::App& app, int& exit_code);
/// `gameplan crowd MAP SCEN --agents N [--time-limit S] [--improve S] [--seed S] [--paths] [--json]`: multi-agent
/// pathfinding on a MovingAI MAPF scenario (docs/crowds.md).
void add_crowd_command(CLI::App& app, int& exit_code);
/// `gameplan graph GRAPH.json|GRAPH.csv --from ID --to ID [--algorithm astar|dijkstra] [--json]` (docs/graphs.md).
void add_graph_command(CLI::App& app, int& exit_code);
/// `gameplan waypoints MAP [--waypoint X,Y ...] [--no-corners] [--max-distance D] [--out FILE] [--png FILE]
/// [--json]`: a map's waypoint graph, written as a graph file (docs/graphs.md).
void add_waypoints_command(CLI::App& app, int& exit_code);
/// Designers' tools (docs/designers.md): `convert IN OUT`, `explain DOMAIN`, `lint DOMAIN`, `dot DOMAIN`.
void add_convert_command(CLI::App& app, int& exit_code);
void add_explain_command(CLI::App& app, int& exit_code);
void add_lint_command(CLI::App& app, int& exit_code);
void add_dot_command(CLI::App& app, int& exit_code);
}  // namespace gameplan::cli

namespace gameplan::cli {
void add_path_command(CLI::App& app, int& exit_code);
void add_scen_command(CLI::App& app, int& exit_code);
/// `gameplan explore`: fog of war (cmd_explore.cpp).
void add_explore_command(CLI::App& app, int& exit_code);

/// One `gameplan path --topology hex` query (cmd_hex.cpp); the caller has loaded the map and checked the
/// points lie on it.
struct HexPathRequest {
    const path::GridMap* map = nullptr;
    path::GridPoint from, to;
    std::string from_text, to_text;  ///< as typed, for messages
    bool dijkstra = false;           ///< zero heuristic
    double weight = 1.0;
    std::uint64_t max_expansions = 0;  ///< 0 = unlimited
    double time_limit_s = 0.0;         ///< --time-limit of the search (0 = none)
    std::size_t max_memory_bytes = SIZE_MAX;  ///< --max-memory: what the pathfinder may hold
    bool islands = false;              ///< answer unreachable goals from hex islands without searching
    bool json = false;
    bool render = false;
    std::string png;             ///< picture of the map, the expanded cells and the path ("" = none)
    std::int32_t png_scale = 0;  ///< pixels per hex (checked by the caller)
};
/// Runs a hex query and prints it like `gameplan path`. Returns the exit code (0 found, 1 none, 2 invalid).
int run_hex_path(const HexPathRequest& request);

}  // namespace gameplan::cli
