// Every scenario of all 12 shared MovingAI maps through JPS and JPS+ (label `long`).
#include "jps_test_support.hpp"

#include <gtest/gtest.h>

namespace ref = gameplan::test::jps;

class JpsSharedMap : public ::testing::TestWithParam<ref::SharedMap> {};

TEST_P(JpsSharedMap, EveryScenarioIsExactlyOptimal) {
    GAMEPLAN_REQUIRE_BENCHMARK_DATA();
    ref::check_shared_map(GetParam(), true, 1);
}

INSTANTIATE_TEST_SUITE_P(All, JpsSharedMap, ::testing::ValuesIn(ref::kSharedMaps),
                         [](const auto& info) {
                             std::string name = info.param.name;
                             for (char& c : name)
                                 if (c == '-') c = '_';
                             return name;
                         });
