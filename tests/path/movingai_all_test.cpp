// The whole shared MovingAI set (12 maps, ~39,000 scenarios). Labelled `long`.
#include <gameplan/io/movingai.hpp>
#include <gameplan/path/grid_search.hpp>

#include <test_data.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;

TEST(MovingAiAllScenarios, EverySharedScenarioIsOptimal) {
    GAMEPLAN_REQUIRE_BENCHMARK_DATA();
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(gameplan::test::benchmark_dir() / "movingai" / "scenarios"))
        if (entry.path().extension() == ".scen") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    ASSERT_EQ(files.size(), 12u);
    std::size_t total = 0, mismatches = 0;
    path::GridPathfinder finder;
    path::GridPath result;
    for (const auto& file : files) {
        const io::ScenarioFile scen = io::load_movingai_scenarios(file);
        const auto map_file = io::resolve_scenario_map(file, scen.scenarios.front());
        const path::GridMap map = io::load_movingai_map(map_file);
        io::check_scenarios_fit(scen, map, map_file.string());
        std::size_t bad = 0;
        for (std::size_t i = 0; i < scen.scenarios.size(); ++i) {
            const io::Scenario& s = scen.scenarios[i];
            const Status st = finder.find_path(map, s.start, s.goal, {}, result);
            const bool ok = st == Status::Found && io::matches_optimal(s, result.cost) && result.cells.front() == s.start &&
                            result.cells.back() == s.goal;
            if (!ok && bad++ < 5)
                ADD_FAILURE() << file.filename() << " scenario " << i << ": status " << to_string(st) << " cost "
                              << result.cost << " optimal " << s.optimal;
        }
        std::cout << "[ info     ] " << file.filename().string() << ": " << scen.scenarios.size() << " scenarios, " << bad
                  << " mismatches\n";
        total += scen.scenarios.size();
        mismatches += bad;
    }
    EXPECT_EQ(mismatches, 0u);
    EXPECT_GT(total, 38000u);
}
