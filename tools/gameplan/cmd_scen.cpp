// `gameplan scen SCEN [--map MAP] [--json]`: runs every problem of a MovingAI scenario file and checks
// each cost against the file's optimal length (one unit of the last printed digit).
#include "commands.hpp"

#include <gameplan/io/movingai.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_search.hpp>

#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <cmath>
#include <sstream>
#include <memory>
#include <string>
#include <vector>

#include <unistd.h>

namespace gameplan::cli {
namespace {

struct ScenArgs {
    std::string scen_file;
    std::string map_file;
    bool json = false;
};

/// A one-line progress bar, redrawn in place; only used when stdout is a terminal.
class ProgressBar {
public:
    explicit ProgressBar(std::size_t total) : m_total(total), m_enabled(isatty(fileno(stdout)) != 0) {}
    void update(std::size_t done) {
        if (!m_enabled || m_total == 0) return;
        const std::size_t percent = done * 100 / m_total;
        if (percent == m_last && done != m_total) return;
        m_last = percent;
        constexpr std::size_t kWidth = 40;
        const std::size_t fill = done * kWidth / m_total;
        std::cout << "\r[" << std::string(fill, '#') << std::string(kWidth - fill, ' ') << "] " << done << '/' << m_total
                  << std::flush;
    }
    void clear() {
        if (m_enabled) std::cout << '\r' << std::string(60 + 2 * std::to_string(m_total).size(), ' ') << '\r' << std::flush;
    }

private:
    std::size_t m_total;
    bool m_enabled;
    std::size_t m_last = SIZE_MAX;
};

void run_scen(const ScenArgs& args, int& exit_code) {
    const std::filesystem::path scen_path(args.scen_file);
    const io::ScenarioFile scen = io::load_movingai_scenarios(scen_path);

    // Scenario files normally name one map; group by the name as written to support several.
    std::map<std::string, std::vector<std::size_t>> by_map;
    for (std::size_t i = 0; i < scen.scenarios.size(); ++i) by_map[scen.scenarios[i].map].push_back(i);
    struct LoadedMap {
        std::string name;
        path::GridMap map;
    };
    std::vector<std::unique_ptr<LoadedMap>> maps;
    std::vector<const LoadedMap*> map_of(scen.scenarios.size(), nullptr);
    for (const auto& [written, ids] : by_map) {
        auto loaded = std::make_unique<LoadedMap>();
        const std::filesystem::path file =
            args.map_file.empty() ? io::resolve_scenario_map(scen_path, scen.scenarios[ids.front()]) : std::filesystem::path(args.map_file);
        loaded->name = file.string();
        loaded->map = io::load_grid_map(file);
        io::ScenarioFile subset{scen.file, scen.version, {}};
        for (std::size_t id : ids) subset.scenarios.push_back(scen.scenarios[id]);
        io::check_scenarios_fit(subset, loaded->map, loaded->name);
        for (std::size_t id : ids) map_of[id] = loaded.get();
        maps.push_back(std::move(loaded));
    }

    std::size_t mismatches = 0;
    double total_micros = 0;
    std::uint64_t total_expanded = 0;
    std::vector<std::string> mismatch_lines;
    ProgressBar progress(args.json ? 0 : scen.scenarios.size());
    path::GridPath result;
    std::unique_ptr<GridRunner> runner;
    const LoadedMap* runner_map = nullptr;
    for (std::size_t i = 0; i < scen.scenarios.size(); ++i) {
        const io::Scenario& s = scen.scenarios[i];
        if (map_of[i] != runner_map) {
            runner_map = map_of[i];
            runner = std::make_unique<GridRunner>(runner_map->map, GridAlgorithm::AStar, path::GridSearchOptions{});
        }
        const GridRun run = runner->run(s.start, s.goal, result);
        const bool found = run.status == Status::Found;
        const bool match = found && io::matches_optimal(s, result.cost);
        total_micros += run.micros;
        total_expanded += run.expanded;
        if (!match) {
            ++mismatches;
            if (!args.json && mismatch_lines.size() < 20) {
                std::ostringstream line;
                line << "mismatch: scenario " << i << " (line " << s.line << ") from " << s.start.x << ',' << s.start.y
                     << " to " << s.goal.x << ',' << s.goal.y << ": " << to_string(run.status);
                if (found) line << " cost " << std::setprecision(10) << result.cost;
                line << ", optimal " << s.optimal;
                mismatch_lines.push_back(line.str());
            }
        }
        if (args.json) {
            nlohmann::ordered_json j;
            j["id"] = i;
            j["cost"] = found ? nlohmann::ordered_json(result.cost) : nlohmann::ordered_json(nullptr);
            j["optimal"] = s.optimal;
            j["expanded"] = run.expanded;
            j["micros"] = std::round(run.micros * 100.0) / 100.0;
            j["match"] = match;
            if (!found) j["status"] = to_string(run.status);
            std::cout << j.dump() << '\n';
        }
        progress.update(i + 1);
    }
    progress.clear();

    const double n = scen.scenarios.empty() ? 1.0 : double(scen.scenarios.size());
    if (args.json) {
        nlohmann::ordered_json summary;
        summary["summary"] = true;
        summary["scenarios"] = scen.scenarios.size();
        summary["mismatches"] = mismatches;
        summary["mean_micros"] = std::round(total_micros / n * 100.0) / 100.0;
        summary["mean_expanded"] = std::round(double(total_expanded) / n * 10.0) / 10.0;
        summary["algorithm"] = to_string(GridAlgorithm::AStar);
        nlohmann::ordered_json names = nlohmann::ordered_json::array();
        for (const auto& m : maps) names.push_back(m->name);
        summary["maps"] = std::move(names);
        std::cout << summary.dump() << '\n';
    } else {
        for (const auto& line : mismatch_lines) std::cout << line << '\n';
        if (mismatches > mismatch_lines.size()) std::cout << "... and " << mismatches - mismatch_lines.size() << " more\n";
        for (const auto& m : maps) std::cout << "map: " << m->name << '\n';
        std::cout << "scenarios: " << scen.scenarios.size() << '\n'
                  << "mismatches: " << mismatches << '\n'
                  << "mean µs: " << std::fixed << std::setprecision(2) << total_micros / n << '\n'
                  << "mean expansions: " << std::setprecision(1) << double(total_expanded) / n << std::defaultfloat << '\n';
    }
    exit_code = mismatches == 0 ? 0 : 1;
}

}  // namespace

void add_scen_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<ScenArgs>();
    CLI::App* cmd = app.add_subcommand("scen", "Run a MovingAI scenario file and check every optimal length");
    cmd->add_option("scen", args->scen_file, "Scenario file (.scen)")->required();
    cmd->add_option("--map", args->map_file, "Map file (default: the map named in the scenario lines, found next to it)");
    cmd->add_flag("--json", args->json, "One JSON object per scenario, then a summary object");
    cmd->callback([args, &exit_code] { run_scen(*args, exit_code); });
}

}  // namespace gameplan::cli
