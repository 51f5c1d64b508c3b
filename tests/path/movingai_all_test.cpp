// The whole shared MovingAI set (12 maps, 38,804 scenarios). Labelled `long`. Runs on up to two
// threads, each with its own pathfinder over the same const map (which the API promises is safe).
#include <gameplan/io/movingai.hpp>
#include <gameplan/path/grid_search.hpp>

#include <test_data.hpp>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
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
    const unsigned workers = std::clamp(std::thread::hardware_concurrency(), 1u, 2u);
    std::size_t total = 0, mismatches = 0;
    for (const auto& file : files) {
        const io::ScenarioFile scen = io::load_movingai_scenarios(file);
        const auto map_file = io::resolve_scenario_map(file, scen.scenarios.front());
        const path::GridMap map = io::load_movingai_map(map_file);
        io::check_scenarios_fit(scen, map, map_file.string());
        std::atomic<std::size_t> bad{0};
        std::mutex report;
        const auto work = [&](unsigned worker) {
            path::GridPathfinder finder;
            path::GridPath result;
            for (std::size_t i = worker; i < scen.scenarios.size(); i += workers) {
                const io::Scenario& s = scen.scenarios[i];
                const Status st = finder.find_path(map, s.start, s.goal, {}, result);
                const bool ok = st == Status::Found && io::matches_optimal(s, result.cost) &&
                                result.cells.front() == s.start && result.cells.back() == s.goal;
                if (!ok && bad++ < 5) {
                    std::lock_guard<std::mutex> lock(report);
                    ADD_FAILURE() << file.filename() << " scenario " << i << ": status " << to_string(st) << " cost "
                                  << result.cost << " optimal " << s.optimal;
                }
            }
        };
        std::vector<std::thread> threads;
        for (unsigned w = 1; w < workers; ++w) threads.emplace_back(work, w);
        work(0);
        for (auto& t : threads) t.join();
        std::cout << "[ info     ] " << file.filename().string() << ": " << scen.scenarios.size() << " scenarios, "
                  << bad.load() << " mismatches" << std::endl;
        total += scen.scenarios.size();
        mismatches += bad.load();
    }
    EXPECT_EQ(mismatches, 0u);
    EXPECT_EQ(total, 38804u);
}
