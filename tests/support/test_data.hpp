#pragma once
/// Locations of test data. Benchmark data lives outside the repository (../shared/benchmarks, set by
/// the GAMEPLAN_BENCHMARK_DATA_DIR cache variable); tests that need it call GAMEPLAN_REQUIRE_BENCHMARK_DATA
/// and are skipped with a clear message in a clone that does not have it.
#include <cstddef>
#include <cstdlib>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

namespace gameplan::test {
inline std::filesystem::path source_dir() { return GAMEPLAN_SOURCE_DIR; }
inline std::filesystem::path benchmark_dir() { return GAMEPLAN_BENCHMARK_DATA_DIR; }
inline bool have_benchmark_data() { return std::filesystem::is_directory(benchmark_dir()); }
/// The exhaustive MovingAI sweeps (label `long`) check scenarios 0, k, 2k, ... of every map, where k is
/// the environment variable GAMEPLAN_SCENARIO_STRIDE (default 1: every scenario). `scripts/test` sets 4
/// to keep the whole suite inside CI's time (a quarter of each map's scenarios, spread over all its
/// lengths); `GAMEPLAN_SCENARIO_STRIDE=1 ctest -L long` checks all 38,804 (docs/pathfinding.md, "Tests").
inline std::size_t scenario_stride() {
    const char* text = std::getenv("GAMEPLAN_SCENARIO_STRIDE");
    if (text == nullptr || *text == '\0') return 1;
    const unsigned long k = std::strtoul(text, nullptr, 10);
    return k == 0 ? 1 : static_cast<std::size_t>(k);
}
#ifndef GAMEPLAN_TEST_SANITIZED
#define GAMEPLAN_TEST_SANITIZED 0
#endif
/// True in the sanitizer builds (`scripts/test --sanitize`: AddressSanitizer + UndefinedBehaviorSanitizer;
/// `--tsan`: ThreadSanitizer), where the library runs several times slower. The heaviest tests then
/// repeat their checks on fewer seeds, scenarios or changes (the same code paths; an error shows on the
/// first), to keep CI inside its time; the release suite runs them in full.
inline constexpr bool kSanitizedBuild = GAMEPLAN_TEST_SANITIZED != 0;
}  // namespace gameplan::test

#define GAMEPLAN_REQUIRE_BENCHMARK_DATA()                                                              \
    do {                                                                                               \
        if (!::gameplan::test::have_benchmark_data())                                                  \
            GTEST_SKIP() << "benchmark data not found at " << ::gameplan::test::benchmark_dir()         \
                         << " (set -DGAMEPLAN_BENCHMARK_DATA_DIR=...; a plain clone has no ../shared)"; \
    } while (0)
