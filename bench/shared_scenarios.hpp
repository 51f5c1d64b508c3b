#pragma once
// The benchmarks' sample of the shared MovingAI set: for every `.scen` under
// GAMEPLAN_BENCHMARK_DATA_DIR/movingai/scenarios (sorted), its map and every k-th scenario, at most
// `sample` of them, so every difficulty bucket is represented.
#include <gameplan/io/movingai.hpp>
#include <gameplan/path/grid_map.hpp>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace gameplan::bench {

struct MapCase {
    std::string name;  // file name without ".map.scen"
    path::GridMap map;
    std::vector<io::Scenario> sample;
};

// Appends one case per shared scenario file to `out`; prints a note naming `program` and returns
// without adding anything when the data is absent.
inline void load_shared_cases(std::vector<std::unique_ptr<MapCase>>& out, std::size_t sample, const char* program) {
    const std::filesystem::path root = std::filesystem::path(GAMEPLAN_BENCHMARK_DATA_DIR) / "movingai" / "scenarios";
    if (!std::filesystem::is_directory(root)) {
        std::fprintf(stderr, "%s: no MovingAI data at %s\n", program, root.string().c_str());
        return;
    }
    std::vector<std::filesystem::path> files;
    for (const auto& e : std::filesystem::recursive_directory_iterator(root))
        if (e.path().extension() == ".scen") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& file : files) {
        auto c = std::make_unique<MapCase>();
        const io::ScenarioFile scen = io::load_movingai_scenarios(file);
        c->map = io::load_movingai_map(io::resolve_scenario_map(file, scen.scenarios.front()));
        c->name = file.filename().string().substr(0, file.filename().string().find(".map"));
        const std::size_t step = std::max<std::size_t>(1, scen.scenarios.size() / sample);
        for (std::size_t i = 0; i < scen.scenarios.size() && c->sample.size() < sample; i += step)
            c->sample.push_back(scen.scenarios[i]);
        out.push_back(std::move(c));
    }
}

}  // namespace gameplan::bench
