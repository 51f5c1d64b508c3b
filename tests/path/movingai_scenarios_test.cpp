// Every scenario of the shared MovingAI maps: the cost must equal the file's optimal length within one
// unit of its last printed digit, and every path is checked step by step against the map file, read
// here by a tiny independent parser.
#include <gameplan/io/movingai.hpp>
#include <gameplan/path/grid_search.hpp>

#include <test_data.hpp>

#include "grid_reference.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;

namespace {

/// Independent reading of a MovingAI map: rows after the "map" line; . G S passable.
gameplan::test::RefGrid read_reference_grid(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::string line;
    gameplan::test::RefGrid g;
    while (std::getline(in, line)) {
        std::istringstream words(line);
        std::string key;
        words >> key;
        if (key == "height") words >> g.height;
        if (key == "width") words >> g.width;
        if (key == "map") break;
    }
    while (std::getline(in, line))
        for (std::size_t x = 0; x < std::size_t(g.width) && x < line.size(); ++x)
            g.cost.push_back(line[x] == '.' || line[x] == 'G' || line[x] == 'S' ? 1 : 0);
    g.cost.resize(std::size_t(g.width) * g.height, 0);
    return g;
}

struct Outcome {
    std::size_t scenarios = 0;
    std::size_t mismatches = 0;
    std::uint64_t expanded = 0;
};

Outcome run_scenarios(const std::filesystem::path& scen_file) {
    Outcome out;
    const io::ScenarioFile scen = io::load_movingai_scenarios(scen_file);
    EXPECT_FALSE(scen.scenarios.empty());
    if (scen.scenarios.empty()) return out;
    const auto map_file = io::resolve_scenario_map(scen_file, scen.scenarios.front());
    const path::GridMap map = io::load_movingai_map(map_file);
    io::check_scenarios_fit(scen, map, map_file.string());
    const gameplan::test::RefGrid ref = read_reference_grid(map_file);
    path::GridPathfinder finder;
    finder.reserve(map);
    path::GridPath result;
    std::vector<std::pair<int, int>> cells;
    for (std::size_t i = 0; i < scen.scenarios.size(); ++i) {
        const io::Scenario& s = scen.scenarios[i];
        const Status st = finder.find_path(map, s.start, s.goal, {}, result);
        ++out.scenarios;
        out.expanded += finder.stats().expanded;
        if (st != Status::Found || !io::matches_optimal(s, result.cost)) {
            ++out.mismatches;
            ADD_FAILURE() << scen_file.filename() << " scenario " << i << " (line " << s.line << "): status "
                          << to_string(st) << " cost " << result.cost << " optimal " << s.optimal;
            continue;
        }
        cells.clear();
        for (auto c : result.cells) cells.emplace_back(c.x, c.y);
        const std::string legal = gameplan::test::ref_check_path(ref, cells, s.start.x, s.start.y, s.goal.x, s.goal.y,
                                                                gameplan::test::RefDiagonal::BothFree, result.cost);
        if (!legal.empty()) {
            ++out.mismatches;
            ADD_FAILURE() << scen_file.filename() << " scenario " << i << ": " << legal;
        }
    }
    return out;
}

std::filesystem::path scen_path(const char* set, const char* name) {
    return gameplan::test::benchmark_dir() / "movingai" / "scenarios" / set / (std::string(name) + ".map.scen");
}

}  // namespace

TEST(MovingAiScenarios, Arena) {
    GAMEPLAN_REQUIRE_BENCHMARK_DATA();
    const Outcome o = run_scenarios(scen_path("dao", "arena"));
    EXPECT_EQ(o.scenarios, 160u);
    EXPECT_EQ(o.mismatches, 0u);
}

TEST(MovingAiScenarios, Den312d) {
    GAMEPLAN_REQUIRE_BENCHMARK_DATA();
    const Outcome o = run_scenarios(scen_path("dao", "den312d"));
    EXPECT_EQ(o.scenarios, 320u);  // 321 lines including "version 1"
    EXPECT_EQ(o.mismatches, 0u);
}

TEST(MovingAiScenarios, Lak303d) {
    GAMEPLAN_REQUIRE_BENCHMARK_DATA();
    const Outcome o = run_scenarios(scen_path("dao", "lak303d"));
    EXPECT_EQ(o.scenarios, 1060u);
    EXPECT_EQ(o.mismatches, 0u);
}
