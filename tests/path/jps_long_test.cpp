// Every scenario of all 12 shared MovingAI maps through JPS and JPS+ (label `long`): each cost must match
// the .scen optimal length within one unit of its last printed digit, JPS and JPS+ must agree exactly, and
// every 10th scenario is also compared with our A* within 1e-9. Set GAMEPLAN_JPS_ASTAR_EVERY=1 to compare
// every scenario with A* (several minutes; docs/jps.md records such a run), or 0 to skip A*.
#include "jps_test_support.hpp"

#include <cstdlib>
#include <string>

#include <gtest/gtest.h>

namespace ref = gameplan::test::jps;

namespace {
std::size_t astar_every() {
    const char* text = std::getenv("GAMEPLAN_JPS_ASTAR_EVERY");
    return text ? static_cast<std::size_t>(std::strtoul(text, nullptr, 10)) : 10u;
}
}  // namespace

class JpsSharedMap : public ::testing::TestWithParam<ref::SharedMap> {};

TEST_P(JpsSharedMap, EveryScenarioIsExactlyOptimal) {
    GAMEPLAN_REQUIRE_BENCHMARK_DATA();
    const std::size_t every = astar_every();
    ref::check_shared_map(GetParam(), every != 0, every == 0 ? 1 : every);
}

INSTANTIATE_TEST_SUITE_P(All, JpsSharedMap, ::testing::ValuesIn(ref::kSharedMaps), [](const auto& info) {
    std::string name = info.param.name;
    for (char& c : name)
        if (c == '-') c = '_';
    return name;
});
