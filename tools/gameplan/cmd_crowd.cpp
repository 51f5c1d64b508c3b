// `gameplan crowd MAP SCEN --agents N [--time-limit SECONDS] [--improve SECONDS] [--seed S] [--paths] [--json]`:
// the classic multi-agent pathfinding benchmark (MovingAI MAPF scenarios) solved by path::CrowdSolver.
#include "cli_support.hpp"
#include "commands.hpp"
#include "results_json.hpp"

#include <gameplan/io/load_error.hpp>
#include <gameplan/io/movingai.hpp>
#include <gameplan/path/crowd.hpp>
#include <gameplan/search/search_context.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace gameplan::cli {

namespace {

struct CrowdArgs {
    std::string map_file;
    std::string scen_file;
    std::uint64_t agents = 0;
    double time_limit = 60.0;
    double improve = 0.0;
    std::uint64_t seed = 0;
    std::uint64_t max_memory_mb = kDefaultCrowdMemoryMb;
    bool paths = false;
    bool json = false;
};

std::string status_name(Status status) {
    switch (status) {
        case Status::Found: return "solved";
        case Status::NoPath: return "failed";
        default: return "timeout";
    }
}

void run_crowd(const CrowdArgs& args, int& exit_code) {
    const path::GridMap map = io::load_movingai_map(args.map_file);
    const io::ScenarioFile scen = io::load_movingai_scenarios(args.scen_file);
    if (args.agents > scen.scenarios.size())
        throw UsageError(args.scen_file + ": --agents " + std::to_string(args.agents) + " but the scenario file holds only " +
                         std::to_string(scen.scenarios.size()) + " agents");
    io::check_scenarios_fit(scen, map, args.map_file);
    std::vector<path::GridPoint> starts, goals;
    std::unordered_map<std::int64_t, std::size_t> start_line, goal_line;
    for (std::size_t i = 0; i < args.agents; ++i) {
        const io::Scenario& s = scen.scenarios[i];
        if (!map.passable(s.start))
            throw io::LoadError(scen.file, s.line, 0, "start-x",
                                "agent " + std::to_string(i) + " starts on a blocked cell of " + args.map_file);
        if (!map.passable(s.goal))
            throw io::LoadError(scen.file, s.line, 0, "goal-x",
                                "agent " + std::to_string(i) + " has its goal on a blocked cell of " + args.map_file);
        const std::int64_t sk = std::int64_t{s.start.y} * map.width() + s.start.x;
        const std::int64_t gk = std::int64_t{s.goal.y} * map.width() + s.goal.x;
        if (const auto [it, fresh] = start_line.emplace(sk, s.line); !fresh)
            throw io::LoadError(scen.file, s.line, 0, "start-x",
                                "agent " + std::to_string(i) + " starts on the start cell of line " + std::to_string(it->second));
        if (const auto [it, fresh] = goal_line.emplace(gk, s.line); !fresh)
            throw io::LoadError(scen.file, s.line, 0, "goal-x",
                                "agent " + std::to_string(i) + " has the goal cell of line " + std::to_string(it->second));
        starts.push_back(s.start);
        goals.push_back(s.goal);
    }

    // The distance tables (4 bytes per agent and free cell) are the solve's fixed part: refuse an instance
    // whose tables alone pass --max-memory before building anything, naming what it would need.
    const std::size_t free_cells = map.passable_count();
    ResourceLimits limits;
    limits.max_memory_mb = args.max_memory_mb;
    require_memory(limits, static_cast<double>(args.agents) * static_cast<double>(free_cells) * sizeof(std::uint32_t),
                   "a crowd of " + std::to_string(args.agents) + " agents on " + args.map_file + " (distance tables for " +
                       std::to_string(free_cells) + " free cells)");

    path::CrowdOptions options;
    options.max_memory_bytes = limits.max_memory_bytes();  // tables and stored configurations together
    const auto t0 = std::chrono::steady_clock::now();
    options.budget.deadline = search::deadline_after(args.time_limit, t0);
    options.anytime = args.improve > 0;
    if (options.anytime)
        options.improve_for =
            std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(args.improve));
    options.seed = args.seed;
    path::CrowdSolver solver;
    path::CrowdSolution solution;
    const Status status = solver.solve(map, starts, goals, options, solution);
    const auto micros = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - t0).count();
    if (status == Status::InvalidQuery) throw UsageError("invalid crowd instance");  // checked above; defensive
    const bool solved = status == Status::Found;
    const path::CrowdStats& stats = solver.stats();

    if (args.json) {
        nlohmann::ordered_json out;
        out["status"] = status_name(status);
        // "timeout" is any budget that ran out: the time limit, or the memory cap of the configurations.
        add_budget_limit(out, status, solver.budget_limit());
        out["agents"] = args.agents;
        out["sum_of_costs"] = solved ? solution.sum_of_costs : 0;
        out["makespan"] = solved ? solution.makespan : 0;
        out["lower_bound"] = solver.lower_bound();
        if (solver.unreachable_agent() != UINT32_MAX) out["unreachable_agent"] = solver.unreachable_agent();
        out["micros"] = micros;
        out["first_solution_micros"] = solved ? static_cast<std::int64_t>(stats.first_solution_seconds * 1e6) : 0;
        out["first_sum_of_costs"] = stats.first_sum_of_costs;
        out["configurations"] = stats.configurations;
        out["expansions"] = stats.search.expanded;
        if (args.paths && solved) {
            nlohmann::json paths = nlohmann::json::array();
            std::vector<path::GridPoint> cells;
            for (std::uint32_t i = 0; i < solution.agents; ++i) {
                solution.path(i, cells);
                nlohmann::json p = nlohmann::json::array();
                for (const path::GridPoint c : cells) p.push_back({c.x, c.y});
                paths.push_back(std::move(p));
            }
            out["paths"] = std::move(paths);
        }
        std::cout << out.dump() << '\n';
    } else {
        std::cout << status_name(status);
        if (status == Status::BudgetExhausted) {
            limits.time_limit_s = args.time_limit;
            std::cout << " (the solver used up its " << budget_text(solver.budget_limit(), limits, 0, "") << ')';
        }
        if (const std::uint32_t a = solver.unreachable_agent(); a != UINT32_MAX) {
            const io::Scenario& s = scen.scenarios[a];
            std::cout << " (agent " << a << ", line " << s.line << ", cannot reach its goal " << s.goal.x << ',' << s.goal.y
                      << " from " << s.start.x << ',' << s.start.y << ')';
        }
        std::cout << ": " << args.agents << " agents on " << args.map_file;
        if (solved) {
            std::cout << ", sum of costs " << solution.sum_of_costs << " (lower bound " << solver.lower_bound() << ", ratio "
                      << static_cast<double>(solution.sum_of_costs) / static_cast<double>(std::max<std::uint64_t>(1, solver.lower_bound()))
                      << "), makespan " << solution.makespan;
        }
        std::cout << ", " << static_cast<double>(micros) / 1000.0 << " ms, " << stats.configurations << " configurations\n";
        if (args.paths && solved) {
            std::vector<path::GridPoint> cells;
            for (std::uint32_t i = 0; i < solution.agents; ++i) {
                solution.path(i, cells);
                std::cout << "agent " << i << ':';
                for (const path::GridPoint c : cells) std::cout << " (" << c.x << ',' << c.y << ')';
                std::cout << '\n';
            }
        }
    }
    exit_code = solved ? 0 : 1;
}

}  // namespace

void add_crowd_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<CrowdArgs>();
    CLI::App* cmd = app.add_subcommand(
        "crowd", "Multi-agent pathfinding: move the first N agents of a MovingAI MAPF scenario to their goals without collisions");
    cmd->add_option("map", args->map_file, "Map file (MovingAI .map)")->required();
    cmd->add_option("scen", args->scen_file, "Scenario file (MovingAI .scen); agent i is line i + 2")->required();
    add_integer_option(cmd, "--agents", args->agents, 1, path::kMaxCrowdAgents,
                       "Number of agents (the first N lines of the scenario; at most " +
                           std::to_string(path::kMaxCrowdAgents) + ")")
        ->required();
    add_real_option(cmd, "--time-limit", args->time_limit, 1e-9, 86400.0,
                    "Give up after this many seconds (status timeout; default " + human_number(args->time_limit) + ")");
    add_real_option(cmd, "--improve", args->improve, 0.0, 86400.0,
                    "After the first solution, keep lowering the sum of costs for up to this many seconds (within "
                    "--time-limit; default 0)");
    add_integer_option(cmd, "--seed", args->seed, 0, UINT64_MAX, "Seed of the tie-breaking generator (default 0)");
    add_integer_option(cmd, "--max-memory", args->max_memory_mb, 1, std::uint64_t{1} << 30,
                       "Memory budget in MiB for the distance tables (4 bytes per agent and free cell) and the stored "
                       "configurations; tables past it are refused (exit 2), configurations past it end the solve "
                       "(status timeout, limit memory) (default " + std::to_string(kDefaultCrowdMemoryMb) + ")");
    cmd->add_flag("--paths", args->paths, "Print every agent's path (one cell per time step)");
    cmd->add_flag("--json", args->json, "One JSON object");
    cmd->callback([args, &exit_code] { run_crowd(*args, exit_code); });
}

}  // namespace gameplan::cli
