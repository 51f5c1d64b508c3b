// Batches on several threads: identical to a sequential run (bit for bit), correct against the
// reference Dijkstra, on random maps and on the shared MovingAI scenarios.
#include <gameplan/io/movingai.hpp>
#include <gameplan/path/batch.hpp>
#include <gameplan/path/islands.hpp>

#include "scale_support.hpp"
#include "test_data.hpp"

#include <cmath>
#include <cstring>
#include <random>
#include <string>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;
using gameplan::test::RefDiagonal;
using gameplan::test::RefGrid;

namespace {

/// The sequential answer with one fresh GridPathfinder per call of this function.
std::vector<PathQueryResult> sequential(const GridMap& map, const std::vector<PathQuery>& queries, const BatchOptions& options) {
    std::vector<PathQueryResult> out(queries.size());
    GridPathfinder finder;
    GridPath path;
    for (std::size_t i = 0; i < queries.size(); ++i) {
        out[i].status = finder.find_path(map, queries[i].start, queries[i].goal, options.search, path);
        out[i].cost = path.cost;
        out[i].expanded = finder.stats().expanded;
        if (options.paths) out[i].cells = path.cells;
    }
    return out;
}

bool same_bits(double a, double b) { return std::memcmp(&a, &b, sizeof a) == 0; }

void expect_identical(const std::vector<PathQueryResult>& a, const std::vector<PathQueryResult>& b, std::size_t count) {
    for (std::size_t i = 0; i < count; ++i) {
        ASSERT_EQ(a[i].status, b[i].status) << "query " << i;
        ASSERT_TRUE(same_bits(a[i].cost, b[i].cost)) << "query " << i << ": " << a[i].cost << " vs " << b[i].cost;
        ASSERT_EQ(a[i].expanded, b[i].expanded) << "query " << i;
        ASSERT_EQ(a[i].cells, b[i].cells) << "query " << i;
    }
}

}  // namespace

TEST(BatchPathfinder, IdenticalToSequentialForAnyThreadCount) {
    std::mt19937 rng(606);
    const RefGrid g = gameplan::test::ref_random_grid(rng, 80, 60, 0.33, true);
    const GridMap map = gameplan::test::to_grid_map(g);
    std::vector<PathQuery> queries;
    for (int i = 0; i < 200; ++i) {
        const auto [sx, sy] = gameplan::test::random_free(rng, g);
        const auto [tx, ty] = gameplan::test::random_free(rng, g);
        queries.push_back({{sx, sy}, {tx, ty}});
    }
    queries.push_back({{-1, 0}, {0, 0}});  // invalid queries are answered too
    for (const bool paths : {false, true}) {
        BatchOptions options;
        options.paths = paths;
        const std::vector<PathQueryResult> expect = sequential(map, queries, options);
        for (const unsigned threads : {1u, 2u, 3u})
            for (const std::uint32_t chunk : {1u, 16u}) {
                SCOPED_TRACE("threads " + std::to_string(threads) + " chunk " + std::to_string(chunk));
                options.chunk = chunk;
                BatchPathfinder pool(threads);
                EXPECT_EQ(pool.threads(), threads);
                std::vector<PathQueryResult> results(queries.size());
                for (int repeat = 0; repeat < (threads == 2 ? 2 : 1); ++repeat) {  // pool and buffers are reusable
                    pool.run(map, queries, results, options);
                    expect_identical(results, expect, queries.size());
                }
            }
    }
}

TEST(BatchPathfinder, CorrectAgainstReferenceWithIslandsPrecheck) {
    std::mt19937 rng(607);
    const RefGrid g = gameplan::test::ref_random_grid(rng, 50, 50, 0.42, false);
    const GridMap map = gameplan::test::to_grid_map(g);
    Islands islands;
    islands.build(map);
    std::vector<PathQuery> queries;
    for (int i = 0; i < 200; ++i) {
        const auto [sx, sy] = gameplan::test::random_free(rng, g);
        const auto [tx, ty] = gameplan::test::random_free(rng, g);
        queries.push_back({{sx, sy}, {tx, ty}});
    }
    BatchOptions options;
    options.paths = true;
    options.search.islands = &islands;
    std::vector<PathQueryResult> results(queries.size() + 5);  // longer than needed: extra entries untouched
    results.back().expanded = 12345;
    find_paths_batch(map, queries, results, 2, options);
    EXPECT_EQ(results.back().expanded, 12345u);
    int unreachable = 0;
    for (std::size_t i = 0; i < queries.size(); ++i) {
        const auto& q = queries[i];
        const double expect = gameplan::test::ref_dijkstra(g, {{q.start.x, q.start.y}}, RefDiagonal::BothFree)[std::size_t(q.goal.y) * 50 + q.goal.x];
        if (std::isinf(expect)) {
            EXPECT_EQ(results[i].status, Status::NoPath);
            EXPECT_EQ(results[i].expanded, 0u);
            ++unreachable;
            continue;
        }
        ASSERT_EQ(results[i].status, Status::Found);
        EXPECT_NEAR(results[i].cost, expect, 1e-9 * expect);
        EXPECT_EQ(gameplan::test::ref_check_path(g, gameplan::test::pairs_of(results[i].cells), q.start.x, q.start.y, q.goal.x,
                                                 q.goal.y, RefDiagonal::BothFree, results[i].cost),
                  "");
    }
    EXPECT_GT(unreachable, 10);
}

TEST(BatchPathfinder, EmptyBatchAndZeroThreads) {
    GridMap map;
    ASSERT_EQ(map.reset(4, 4), GridSizeCheck::Ok);
    BatchPathfinder pool(0);
    EXPECT_EQ(pool.threads(), 1u);
    std::vector<PathQueryResult> results;
    pool.run(map, {}, results);
    const std::vector<PathQuery> one{{{0, 0}, {3, 3}}};
    results.resize(1);
    pool.run(map, one, results);
    EXPECT_EQ(results[0].status, Status::Found);
    EXPECT_DOUBLE_EQ(results[0].cost, 3.0 * std::sqrt(2.0));
}

TEST(BatchPathfinder, SharedScenariosIdenticalOnTwoThreads) {
    GAMEPLAN_REQUIRE_BENCHMARK_DATA();
    const auto root = gameplan::test::benchmark_dir() / "movingai" / "scenarios";
    for (const char* name : {"dao/den312d.map.scen", "dao/lak303d.map.scen", "random/random512-40-0.map.scen"}) {
        const io::ScenarioFile scen = io::load_movingai_scenarios(root / name);
        const GridMap map = io::load_movingai_map(io::resolve_scenario_map(root / name, scen.scenarios.front()));
        std::vector<PathQuery> queries;
        const std::size_t step = std::max<std::size_t>(1, scen.scenarios.size() / (gameplan::test::kSanitizedBuild ? 40 : 120));
        for (std::size_t i = 0; i < scen.scenarios.size(); i += step)
            queries.push_back({scen.scenarios[i].start, scen.scenarios[i].goal});
        BatchOptions options;
        const std::vector<PathQueryResult> expect = sequential(map, queries, options);
        std::vector<PathQueryResult> results(queries.size());
        find_paths_batch(map, queries, results, 2, options);
        expect_identical(results, expect, queries.size());
        for (std::size_t i = 0, k = 0; i < scen.scenarios.size(); i += step, ++k)
            EXPECT_TRUE(io::matches_optimal(scen.scenarios[i], results[k].cost)) << name << " line " << scen.scenarios[i].line;
    }
}
