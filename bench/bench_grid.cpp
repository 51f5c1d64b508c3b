// Grid pathfinding on the shared MovingAI maps: µs per query, expansions per query, ns per expansion,
// and a checksum of the path costs so a speedup cannot silently change results.
//
//   build/bench/bench_grid --benchmark_min_time=0.2
//
// Each map uses a fixed sample of its scenarios: every k-th line, so all difficulty buckets are
// represented (at most kSample per map). One benchmark iteration runs the whole sample.
#include <gameplan/io/movingai.hpp>
#include "shared_scenarios.hpp"
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/grid_space.hpp>
#include <gameplan/search/search_context.hpp>

#include <benchmark/benchmark.h>

#include <chrono>
#include <ctime>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

using namespace gameplan;

namespace {

constexpr std::size_t kSample = 256;

using bench::MapCase;

std::vector<std::unique_ptr<MapCase>>& cases() {
    static std::vector<std::unique_ptr<MapCase>> all;
    return all;
}

void load_cases() {
    bench::load_shared_cases(cases(), kSample, "bench_grid");
}

template <class Query>
void run(benchmark::State& state, const MapCase& c, Query&& query) {
    std::uint64_t expansions = 0, queries = 0;
    double checksum = 0;
    for (const auto& s : c.sample) checksum += query(s).first;  // warm-up, and the result checksum
    const auto t0 = std::chrono::steady_clock::now();
    const std::clock_t c0 = std::clock();
    for (auto _ : state) {
        for (const auto& s : c.sample) {
            const auto [cost, expanded] = query(s);
            benchmark::DoNotOptimize(cost);
            expansions += expanded;
            ++queries;
        }
    }
    const double ns = std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count();
    const double cpu_ns = double(std::clock() - c0) * 1e9 / CLOCKS_PER_SEC;
    state.counters["us_per_query"] = ns / 1000.0 / double(queries);
    state.counters["expanded_per_query"] = double(expansions) / double(queries);
    state.counters["ns_per_expansion"] = ns / double(expansions);
    state.counters["cpu_ns_per_expansion"] = cpu_ns / double(expansions);
    state.counters["cost_checksum"] = checksum;
    state.counters["queries"] = double(c.sample.size());
}

void bm_pathfinder(benchmark::State& state, const MapCase* c) {
    path::GridPathfinder finder;
    finder.reserve(c->map);
    path::GridPath out;
    run(state, *c, [&](const io::Scenario& s) {
        if (finder.find_path(c->map, s.start, s.goal, {}, out) != Status::Found) state.SkipWithError("no path");
        return std::pair{out.cost, finder.stats().expanded};
    });
}

void bm_generic_engine(benchmark::State& state, const MapCase* c) {
    search::SearchContext<double> context;
    context.reserve(c->map.node_bound(), 1 << 14);
    run(state, *c, [&](const io::Scenario& s) {
        path::GridSpace space(c->map, s.goal);
        if (context.run(space, c->map.index(s.start)) != Status::Found) state.SkipWithError("no path");
        return std::pair{context.g(context.goal()), context.stats().expanded};
    });
}

}  // namespace

int main(int argc, char** argv) {
    load_cases();
    for (const auto& c : cases())
        benchmark::RegisterBenchmark(("grid_astar/" + c->name).c_str(), bm_pathfinder, c.get())->Unit(benchmark::kMillisecond);
    for (const auto& c : cases())
        benchmark::RegisterBenchmark(("generic_engine_astar/" + c->name).c_str(), bm_generic_engine, c.get())
            ->Unit(benchmark::kMillisecond);
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
