// `gameplan scen SCEN [--map MAP] [--algorithm A] [--threads N] [--islands] [--json]`: runs every problem
// of a MovingAI scenario file and checks each cost against the file's optimal length (one unit of the
// last printed digit); inexact algorithms report their suboptimality instead.
#include "cli_support.hpp"
#include "commands.hpp"
#include "results_json.hpp"
#include "progress.hpp"
#include "navmesh_cli.hpp"

#include <gameplan/io/movingai.hpp>
#include <gameplan/path/dead_ends.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/hpa.hpp>
#include <gameplan/path/islands.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <cmath>
#include <map>
#include <optional>
#include <sstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

namespace gameplan::cli {
namespace {

struct ScenArgs {
    std::string scen_file;
    std::string map_file;
    std::string algorithm = "astar";
    std::uint64_t threads = 1;
    bool smooth = false;
    std::uint64_t cluster_size = 64;
    bool islands = false;
    bool dead_ends = false;
    bool json = false;
    std::uint64_t max_memory_mb = kDefaultMaxMemoryMb;
    double preprocess_time_limit_s = kDefaultPreprocessSeconds;
    double time_limit_s = 0;  // the whole run; 0 = none
    ProgressMode progress = ProgressMode::Auto;
};

void run_scen(const ScenArgs& args, int& exit_code) {
    ResourceLimits limits;
    limits.max_memory_mb = args.max_memory_mb;
    limits.time_limit_s = args.time_limit_s;
    const auto deadline = limits.deadline(std::chrono::steady_clock::now());
    if (args.algorithm == kNavmeshAlgorithm || args.algorithm == kNavmeshChAlgorithm) {
        if (args.smooth || args.islands || args.dead_ends)
            throw UsageError("--algorithm navmesh: takes no --smooth, --islands or --dead-ends");
        NavmeshScenRequest request;
        request.threads = static_cast<unsigned>(args.threads);
        request.scen_file = args.scen_file;
        request.map_file = args.map_file;
        request.json = args.json;
        request.limits = limits;
        request.deadline = deadline;
        request.hierarchy = args.algorithm == kNavmeshChAlgorithm;
        request.preprocess_time_limit_s = args.preprocess_time_limit_s;
        exit_code = run_navmesh_scen(request);
        return;
    }
    const GridAlgorithm algorithm = *parse_grid_algorithm(args.algorithm);
    require_supported(algorithm, args.smooth);
    const GridRunnerSettings settings{args.smooth, static_cast<std::int32_t>(args.cluster_size), limits.max_memory_bytes(),
                                      args.preprocess_time_limit_s, 0.0, deadline};
    const std::filesystem::path scen_path(args.scen_file);
    const io::ScenarioFile scen = io::load_movingai_scenarios(scen_path);

    // Scenario files normally name one map; several are supported. Scenarios are grouped by the map
    // file they resolve to, canonicalised (m.map, ./m.map and ././m.map are one file, loaded once).
    std::map<std::string, std::vector<std::size_t>> by_map;
    std::map<std::string, std::filesystem::path> resolved;  // written name -> file (resolved once per spelling)
    for (std::size_t i = 0; i < scen.scenarios.size(); ++i) {
        const std::string& written = scen.scenarios[i].map;
        auto it = resolved.find(written);
        if (it == resolved.end()) {
            std::filesystem::path file = args.map_file.empty() ? io::resolve_scenario_map(scen_path, scen.scenarios[i])
                                                               : std::filesystem::path(args.map_file);
            std::error_code ec;
            std::filesystem::path canonical = std::filesystem::weakly_canonical(file, ec);
            it = resolved.emplace(written, ec ? file.lexically_normal() : canonical).first;
        }
        by_map[it->second.string()].push_back(i);
    }
    struct LoadedMap {
        std::string name;
        path::GridMap map;
        path::Islands islands;
        path::DeadEnds dead_ends;
        path::GridSearchOptions options;
        std::shared_ptr<const GridPreparation> prepared;  // the algorithm's preprocessing, shared by the threads
        std::mutex setup_mutex;
        double setup_ms = 0;  // the algorithm's preprocessing (the largest over the threads' runners)
    };
    std::vector<std::unique_ptr<LoadedMap>> maps;
    std::vector<LoadedMap*> map_of(scen.scenarios.size(), nullptr);
    std::size_t island_count = 0;
    double prepare_ms = 0;
    // --max-memory: the threads that get work each hold one search state at a time.
    const std::size_t search_states = std::max<std::size_t>(1, std::min<std::size_t>(args.threads, scen.scenarios.size()));
    double held_bytes = 0, largest_cells = 0;
    std::string largest;
    std::size_t maps_checked = 0;
    for (const auto& [key, ids] : by_map) {
        auto loaded = std::make_unique<LoadedMap>();
        const std::filesystem::path file =
            args.map_file.empty() ? io::resolve_scenario_map(scen_path, scen.scenarios[ids.front()]) : std::filesystem::path(args.map_file);
        loaded->name = file.lexically_normal().string();
        loaded->map = io::load_grid_map(file);
        io::ScenarioFile subset{scen.file, scen.version, {}};
        for (std::size_t id : ids) subset.scenarios.push_back(scen.scenarios[id]);
        io::check_scenarios_fit(subset, loaded->map, loaded->name);
        // Before anything is built: this map's HPA* hierarchy alone, then everything the run holds at
        // once (every map loaded so far with its preprocessing, and one search state per thread on the
        // largest of them).
        if (algorithm == GridAlgorithm::Hpa)
            require_memory(limits, static_cast<double>(hpa_memory_estimate(loaded->map, args.cluster_size)),
                           "the HPA* hierarchy of " + printable(loaded->name) + " (--cluster-size " +
                               std::to_string(args.cluster_size) + ")");
        const double map_cells = double(loaded->map.width()) * double(loaded->map.height());
        held_bytes += (double(loaded->map.width()) + 2) * (double(loaded->map.height()) + 2) +  // the map: a byte per padded cell
                      grid_memory_estimate(loaded->map, algorithm, args.cluster_size, args.islands,
                                           args.dead_ends, 0);
        if (map_cells > largest_cells)
            largest_cells = map_cells, largest = std::to_string(loaded->map.width()) + " x " + std::to_string(loaded->map.height());
        ++maps_checked;
        require_memory(limits, held_bytes + 20.0 * largest_cells * double(search_states),
                       "running " + printable(scen_path.filename().string()) + " (" + std::to_string(maps_checked) +
                           (maps_checked == 1 ? " map" : " maps") + " so far, the largest " +
                           largest + ") with --algorithm " + std::string(to_string(algorithm)) +
                           (args.islands ? " --islands" : "") + (args.dead_ends ? " --dead-ends" : "") + " on " +
                           std::to_string(search_states) + (search_states == 1 ? " thread" : " threads"));
        const auto t0 = std::chrono::steady_clock::now();
        if (args.islands) {
            loaded->islands.build(loaded->map);
            loaded->options.islands = &loaded->islands;
            island_count += loaded->islands.island_count();
        }
        if (args.dead_ends) {
            loaded->dead_ends.build(loaded->map);
            loaded->options.dead_ends = &loaded->dead_ends;
        }
        prepare_ms += std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        loaded->prepared = prepare_grid(loaded->map, algorithm, loaded->options, settings);
        for (std::size_t id : ids) map_of[id] = loaded.get();
        maps.push_back(std::move(loaded));
    }

    // Solve every scenario (on --threads threads, each with its own runner), then report in file order.
    struct Outcome {
        GridRun run;
        double cost = 0;
        bool exact = true;
        bool ran = false;  // run to the end (not skipped or cut off by --time-limit)
    };
    std::vector<Outcome> outcomes(scen.scenarios.size());
    std::atomic<std::size_t> next{0}, done{0};
    ProgressLines progress("scen " + printable(scen_path.filename().string()), scen.scenarios.size(), args.progress);
    const auto solve = [&](bool report_progress) {
        path::GridPath result;
        std::unique_ptr<GridRunner> runner;
        const LoadedMap* runner_map = nullptr;
        for (std::size_t i = next.fetch_add(1); i < scen.scenarios.size(); i = next.fetch_add(1)) {
            if (std::chrono::steady_clock::now() >= deadline) break;  // --time-limit: the rest is left out
            if (map_of[i] != runner_map) {
                runner_map = map_of[i];
                runner = std::make_unique<GridRunner>(runner_map->map, algorithm, runner_map->options, settings,
                                                      runner_map->prepared);
                LoadedMap& m = *map_of[i];
                const std::lock_guard lock(m.setup_mutex);
                m.setup_ms = std::max(m.setup_ms, runner->setup_micros() / 1000.0);
            }
            const io::Scenario& s = scen.scenarios[i];
            outcomes[i].run = runner->run(s.start, s.goal, result);
            outcomes[i].cost = result.cost;
            outcomes[i].exact = runner->exact();
            outcomes[i].ran = !cut_off(outcomes[i].run.status, outcomes[i].run.limit, deadline);
            const std::size_t finished = done.fetch_add(1) + 1;
            if (report_progress) progress.update(finished);
        }
    };
    std::vector<std::thread> workers;
    for (std::uint64_t t = 1; t < args.threads; ++t) workers.emplace_back(solve, false);
    solve(true);
    for (std::thread& worker : workers) worker.join();
    progress.finish(scen.scenarios.size());

    std::size_t mismatches = 0, inexact = 0;
    double total_micros = 0, total_suboptimality = 0, max_suboptimality = 0;
    std::uint64_t total_expanded = 0;
    std::vector<std::string> mismatch_lines;
    std::size_t completed = 0;
    for (std::size_t i = 0; i < scen.scenarios.size(); ++i) {
        const io::Scenario& s = scen.scenarios[i];
        const Outcome& o = outcomes[i];
        if (!o.ran) continue;
        ++completed;
        const bool found = o.run.status == Status::Found;
        // Exact algorithms must hit the optimum; inexact ones must find a path no shorter than it
        // (smoothed, any-angle paths may be shorter than the grid optimum and are only measured).
        bool match = found && io::matches_optimal(s, o.cost);
        std::optional<double> suboptimality;
        if (!o.exact && found) {
            suboptimality = suboptimality_of(o.cost, s.optimal);
            match = args.smooth || algorithm == GridAlgorithm::Theta || match || o.cost >= s.optimal - s.tolerance;
            ++inexact;
            total_suboptimality += *suboptimality;
            max_suboptimality = std::max(max_suboptimality, *suboptimality);
        }
        total_micros += o.run.micros;
        total_expanded += o.run.expanded;
        if (!match) {
            ++mismatches;
            if (!args.json && mismatch_lines.size() < 20) {
                std::ostringstream line;
                line << "mismatch: scenario " << i << " (line " << s.line << ") from " << s.start.x << ',' << s.start.y
                     << " to " << s.goal.x << ',' << s.goal.y << ": " << to_string(o.run.status);
                if (found) line << " cost " << std::setprecision(10) << o.cost;
                line << ", optimal " << s.optimal;
                mismatch_lines.push_back(line.str());
            }
        }
        if (args.json) {
            nlohmann::ordered_json j;
            j["id"] = i;
            j["cost"] = found ? nlohmann::ordered_json(o.cost) : nlohmann::ordered_json(nullptr);
            j["optimal"] = s.optimal;
            j["expanded"] = o.run.expanded;
            j["micros"] = std::round(o.run.micros * 100.0) / 100.0;
            if (suboptimality) j["suboptimality"] = *suboptimality;
            j["match"] = match;
            if (!found) j["status"] = to_string(o.run.status);
            add_budget_limit(j, o.run.status, o.run.limit);
            std::cout << j.dump() << '\n';
        }
    }

    const double n = completed == 0 ? 1.0 : double(completed);
    const double mean_suboptimality = inexact ? total_suboptimality / double(inexact) : 0.0;
    const bool stopped = completed < scen.scenarios.size();
    if (args.json) {
        nlohmann::ordered_json summary;
        summary["summary"] = true;
        summary["scenarios"] = scen.scenarios.size();
        summary["mismatches"] = mismatches;
        summary["mean_micros"] = std::round(total_micros / n * 100.0) / 100.0;
        summary["mean_expanded"] = std::round(double(total_expanded) / n * 10.0) / 10.0;
        summary["algorithm"] = to_string(algorithm);
        nlohmann::ordered_json names = nlohmann::ordered_json::array();
        for (const auto& m : maps) names.push_back(m->name);
        summary["maps"] = std::move(names);
        summary["threads"] = args.threads;
        if (inexact) {
            summary["mean_suboptimality"] = mean_suboptimality;
            summary["max_suboptimality"] = max_suboptimality;
        }
        if (args.islands) summary["islands"] = island_count;
        if (args.islands || args.dead_ends) summary["prepare_ms"] = std::round(prepare_ms * 100.0) / 100.0;
        double setup_ms = 0;
        for (const auto& m : maps) setup_ms += m->setup_ms;
        if (setup_ms > 0) summary["preprocess_ms"] = std::round(setup_ms * 100.0) / 100.0;
        std::size_t preprocess_bytes = 0;
        for (const auto& m : maps) preprocess_bytes += m->prepared->bytes;
        if (preprocess_bytes > 0) summary["preprocess_bytes"] = preprocess_bytes;
        add_scen_stop(summary, stopped, completed);
        std::cout << summary.dump() << '\n';
    } else {
        for (const auto& line : mismatch_lines) std::cout << line << '\n';
        if (mismatches > mismatch_lines.size()) std::cout << "... and " << mismatches - mismatch_lines.size() << " more\n";
        for (const auto& m : maps) std::cout << "map: " << m->name << '\n';
        std::cout << "scenarios: " << scen.scenarios.size() << '\n';
        if (stopped) std::cout << scen_stop_text(limits, completed) << '\n';
        std::cout << "mismatches: " << mismatches << '\n'
                  << "mean µs: " << std::fixed << std::setprecision(2) << total_micros / n << '\n'
                  << "mean expansions: " << std::setprecision(1) << double(total_expanded) / n << std::defaultfloat << '\n';
        if (algorithm != GridAlgorithm::AStar) std::cout << "algorithm: " << to_string(algorithm) << '\n';
        if (inexact)
            std::cout << "mean suboptimality: " << std::setprecision(4) << mean_suboptimality * 100.0 << "%\n"
                      << "max suboptimality: " << max_suboptimality * 100.0 << "%\n";
        if (args.islands) std::cout << "islands: " << island_count << '\n';
        if (args.islands || args.dead_ends)
            std::cout << "preparation ms: " << std::fixed << std::setprecision(2) << prepare_ms << std::defaultfloat << '\n';
        double setup_ms = 0;
        for (const auto& m : maps) setup_ms += m->setup_ms;
        if (setup_ms > 0)
            std::cout << "preprocessing ms: " << std::fixed << std::setprecision(2) << setup_ms << std::defaultfloat << '\n';
        std::size_t preprocess_bytes = 0;
        for (const auto& m : maps) preprocess_bytes += m->prepared->bytes;
        if (preprocess_bytes > 0) std::cout << "preprocessing bytes: " << preprocess_bytes << '\n';
        if (args.threads > 1) std::cout << "threads: " << args.threads << '\n';
    }
    exit_code = mismatches == 0 && !stopped ? 0 : 1;
}

}  // namespace

void add_scen_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<ScenArgs>();
    CLI::App* cmd = app.add_subcommand("scen", "Run a MovingAI scenario file and check every optimal length");
    cmd->add_option("scen", args->scen_file, "Scenario file (.scen)")->required();
    cmd->add_option("--map", args->map_file, "Map file (default: the map named in the scenario lines, found next to it)");
    cmd->add_option("--algorithm", args->algorithm,
                    "Search algorithm (dijkstra = A* with a zero heuristic; hpa = two-tier, inexact; theta = any-angle; "
                    "navmesh = Euclidean-optimal any-angle between cell centres, reports how much shorter; navmesh-ch = the same "
                    "after preprocessing)")
        ->check(CLI::IsMember(with_navmesh(grid_algorithm_names())))
        ->capture_default_str();
    add_integer_option(cmd, "--cluster-size", args->cluster_size, path::kMinClusterSize, path::kMaxClusterSize,
                       "HPA* cluster side in cells, in [" + std::to_string(path::kMinClusterSize) + ", " +
                           std::to_string(path::kMaxClusterSize) + "] (default 64)");
    add_integer_option(cmd, "--threads", args->threads, 1, 256,
                       "Solve the scenarios on N threads, at most 256, each with its own search state (default 1)");
    cmd->add_flag("--smooth", args->smooth, "Smooth every path (string pulling); reports suboptimality");
    cmd->add_flag("--islands", args->islands, "Precompute islands: unreachable scenarios are answered without search");
    cmd->add_flag("--dead-ends", args->dead_ends, "Skip dead-end regions holding neither end (helps on mazes)");
    cmd->add_flag("--json", args->json, "One JSON object per scenario, then a summary object");
    add_progress_flags(cmd, args->progress);
    add_integer_option(cmd, "--max-memory", args->max_memory_mb, 1, std::uint64_t{1} << 30,
                       "Memory budget in MiB for the maps, their preprocessing (JPS+, subgoal graph, HPA* hierarchy, islands, "
                       "dead ends) and one search state per thread, estimated before anything is built (default " +
                           std::to_string(kDefaultMaxMemoryMb) + ")");
    add_preprocess_time_option(cmd, args->preprocess_time_limit_s);
    add_real_option(cmd, "--time-limit", args->time_limit_s, 0.001, 86400.0,
                    "Stop the run after this many seconds: the scenarios not finished by then are left out of the "
                    "report, which says how many were (status time_limit, exit 1; 0 = no limit, the default)",
                    true);
    cmd->callback([args, &exit_code] { run_scen(*args, exit_code); });
}

}  // namespace gameplan::cli
