#pragma once
/// Locations of test data. Benchmark data lives outside the repository (../shared/benchmarks, set by
/// the GAMEPLAN_BENCHMARK_DATA_DIR cache variable); tests that need it call GAMEPLAN_REQUIRE_BENCHMARK_DATA
/// and are skipped with a clear message in a clone that does not have it.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

namespace gameplan::test {
inline std::filesystem::path source_dir() { return GAMEPLAN_SOURCE_DIR; }
inline std::filesystem::path benchmark_dir() { return GAMEPLAN_BENCHMARK_DATA_DIR; }
inline bool have_benchmark_data() { return std::filesystem::is_directory(benchmark_dir()); }
}  // namespace gameplan::test

#define GAMEPLAN_REQUIRE_BENCHMARK_DATA()                                                              \
    do {                                                                                               \
        if (!::gameplan::test::have_benchmark_data())                                                  \
            GTEST_SKIP() << "benchmark data not found at " << ::gameplan::test::benchmark_dir()         \
                         << " (set -DGAMEPLAN_BENCHMARK_DATA_DIR=...; a plain clone has no ../shared)"; \
    } while (0)
