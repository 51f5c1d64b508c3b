// The whole shared MovingAI set (12 maps, 38,804 scenarios). Labelled `long`. One test per map, so ctest
// runs maps side by side; within a map, two threads share the same const map, each with its own
// pathfinder (which the API promises is safe).
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

namespace {
// The shared set: scenario files relative to movingai/scenarios, with their scenario counts.
struct ScenSet {
    const char* name;
    const char* file;
};
constexpr ScenSet kSets[] = {
    {"arena", "dao/arena.map.scen"},
    {"den312d", "dao/den312d.map.scen"},
    {"lak303d", "dao/lak303d.map.scen"},
    {"brc202d", "dao/brc202d.map.scen"},
    {"orz900d", "dao/orz900d.map.scen"},
    {"maze512_1_0", "mazes/maze512-1-0.map.scen"},
    {"maze512_8_0", "mazes/maze512-8-0.map.scen"},
    {"random512_10_0", "random/random512-10-0.map.scen"},
    {"random512_40_0", "random/random512-40-0.map.scen"},
    {"room16_000", "rooms/16room_000.map.scen"},
    {"Aftershock", "sc1/Aftershock.map.scen"},
    {"AR0011SR", "bg512/AR0011SR.map.scen"},
};
std::filesystem::path scen_dir() { return gameplan::test::benchmark_dir() / "movingai" / "scenarios"; }
}  // namespace

// The list above is the whole shared set: exactly these 12 files, 38,804 scenarios in all.
TEST(MovingAiSharedSet, TheListIsTheWholeSharedSet) {
    GAMEPLAN_REQUIRE_BENCHMARK_DATA();
    std::vector<std::string> found, listed;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(scen_dir()))
        if (entry.path().extension() == ".scen")
            found.push_back(entry.path().lexically_relative(scen_dir()).generic_string());
    for (const ScenSet& s : kSets) listed.emplace_back(s.file);
    std::sort(found.begin(), found.end());
    std::sort(listed.begin(), listed.end());
    EXPECT_EQ(found, listed);
    std::size_t total = 0;
    for (const ScenSet& s : kSets) total += io::load_movingai_scenarios(scen_dir() / s.file).scenarios.size();
    EXPECT_EQ(total, 38804u);
}

class MovingAiAllScenarios : public ::testing::TestWithParam<ScenSet> {};

TEST_P(MovingAiAllScenarios, EveryScenarioIsOptimal) {
    GAMEPLAN_REQUIRE_BENCHMARK_DATA();
    const std::filesystem::path file = scen_dir() / GetParam().file;
    const io::ScenarioFile scen = io::load_movingai_scenarios(file);
    ASSERT_FALSE(scen.scenarios.empty()) << file;
    const auto map_file = io::resolve_scenario_map(file, scen.scenarios.front());
    const path::GridMap map = io::load_movingai_map(map_file);
    io::check_scenarios_fit(scen, map, map_file.string());
    const unsigned workers = std::clamp(std::thread::hardware_concurrency(), 1u, 2u);
    const std::size_t stride = gameplan::test::scenario_stride();
    std::atomic<std::size_t> bad{0};
    std::mutex report;
    const auto work = [&](unsigned worker) {
        path::GridPathfinder finder;
        path::GridPath result;
        for (std::size_t i = worker * stride; i < scen.scenarios.size(); i += workers * stride) {
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
    std::cout << "[ info     ] " << file.filename().string() << ": " << (scen.scenarios.size() + stride - 1) / stride << " of "
              << scen.scenarios.size() << " scenarios (stride " << stride << "), "
              << bad.load() << " mismatches" << std::endl;
    EXPECT_EQ(bad.load(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Shared, MovingAiAllScenarios, ::testing::ValuesIn(kSets),
                         [](const auto& info) { return std::string(info.param.name); });
