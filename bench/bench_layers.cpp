// Per-query costs on the shared MovingAI maps: A* with two weighted cost layers and an area filter
// (area_filter.hpp) beside plain A* on the same queries, in thread CPU time.
//
//   build/bench/bench_layers --benchmark_min_time=0.2
//
// Three variants per map, over the same sample of scenarios:
// - `plain`: GridPathfinder with default options (the specialised loop without per-query costs);
// - `filter_two_layers_same`: random areas 0..3 with an area filter (multiplier 1 for every present
//   area, one forbidden area that no cell holds) and two all-zero layers of weight 1 and 0.5: the
//   general cost loop runs, but costs, expansions and paths are exactly the plain ones, so the time
//   ratio is the price of the general loop at equal expansions (the bar: at most 1.3x);
// - `filter_two_layers_random`: random layer values and multipliers (swamp-like areas cost 2x, no
//   area forbidden): other paths and expansion counts; compare its `cpu_ns_per_expansion`.
// Counters: `cpu_us_per_query` and `cpu_ns_per_expansion` (thread CPU time), `expanded_per_query`, and
// `cost_checksum` (the plain and `same` checksums must agree).
// - `ratio_same_vs_plain`: the bar's figure measured robustly on a loaded machine: the whole sample is
//   run plain, then with the filter and two zero layers, alternately, in blocks of one sample each, and
//   the thread CPU times of the two are summed separately (load swings then hit both alike). Counters
//   `ratio` (same / plain), `plain_us_per_query`, `same_us_per_query`.
#include "shared_scenarios.hpp"
#include <gameplan/path/area_filter.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/penalty_layer.hpp>

#include <benchmark/benchmark.h>

#include <ctime>
#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace gameplan;

namespace {

constexpr std::size_t kSample = 128;

struct LayerCase {
    bench::MapCase* base = nullptr;
    path::AreaMap areas;
    path::PenaltyLayer zero_a, zero_b, random_a, random_b;
    path::AreaFilter same_filter, random_filter;
};

std::vector<std::unique_ptr<bench::MapCase>>& maps() {
    static std::vector<std::unique_ptr<bench::MapCase>> all;
    return all;
}
std::vector<std::unique_ptr<LayerCase>>& cases() {
    static std::vector<std::unique_ptr<LayerCase>> all;
    return all;
}

double thread_cpu_ns() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return double(t.tv_sec) * 1e9 + double(t.tv_nsec);
}

void setup() {
    bench::load_shared_cases(maps(), kSample, "bench_layers");
    std::mt19937 rng(2026);
    for (const auto& m : maps()) {
        auto c = std::make_unique<LayerCase>();
        c->base = m.get();
        const path::GridMap& map = m->map;
        c->areas.reset(map);
        c->zero_a.reset(map);
        c->zero_b.reset(map);
        c->random_a.reset(map);
        c->random_b.reset(map);
        for (std::int32_t y = 0; y < map.height(); ++y)
            for (std::int32_t x = 0; x < map.width(); ++x) {
                c->areas.set({x, y}, rng() % 4);
                c->random_a.set({x, y}, float(rng() % 4));
                c->random_b.set({x, y}, float(rng() % 8) * 0.25f);
            }
        c->same_filter.forbid(7);  // present on no cell: nothing changes, but the check runs
        c->random_filter.set_multiplier(1, 2.0);
        c->random_filter.set_multiplier(2, 1.5);
        cases().push_back(std::move(c));
    }
}

void run(benchmark::State& state, const bench::MapCase& c, const path::GridSearchOptions& options) {
    path::GridPathfinder finder;
    finder.reserve(c.map);
    path::GridPath out;
    double checksum = 0;
    for (const auto& s : c.sample)  // warm-up and checksum
        if (finder.find_path(c.map, s.start, s.goal, options, out) == Status::Found) checksum += out.cost;
    std::uint64_t expansions = 0, queries = 0;
    const double cpu0 = thread_cpu_ns();
    for (auto _ : state)
        for (const auto& s : c.sample) {
            benchmark::DoNotOptimize(finder.find_path(c.map, s.start, s.goal, options, out));
            expansions += finder.stats().expanded;
            ++queries;
        }
    const double cpu = thread_cpu_ns() - cpu0;
    state.counters["cpu_us_per_query"] = cpu / 1000.0 / double(queries);
    state.counters["cpu_ns_per_expansion"] = cpu / double(expansions);
    state.counters["expanded_per_query"] = double(expansions) / double(queries);
    state.counters["cost_checksum"] = checksum;
}

void bm_plain(benchmark::State& state, const LayerCase* c) { run(state, *c->base, path::GridSearchOptions{}); }

void bm_ratio(benchmark::State& state, const LayerCase* c) {
    const path::CostLayer layers[] = {{&c->zero_a, 1.0}, {&c->zero_b, 0.5}};
    path::GridSearchOptions same;
    same.areas = &c->areas;
    same.filter = &c->same_filter;
    same.layers = layers;
    const path::GridSearchOptions plain;
    path::GridPathfinder finder;
    finder.reserve(c->base->map);
    path::GridPath out;
    for (const auto& s : c->base->sample) (void)finder.find_path(c->base->map, s.start, s.goal, same, out);  // warm-up
    double cpu_plain = 0, cpu_same = 0;
    std::uint64_t queries = 0;
    for (auto _ : state) {
        double t0 = thread_cpu_ns();
        for (const auto& s : c->base->sample) benchmark::DoNotOptimize(finder.find_path(c->base->map, s.start, s.goal, plain, out));
        double t1 = thread_cpu_ns();
        cpu_plain += t1 - t0;
        for (const auto& s : c->base->sample) benchmark::DoNotOptimize(finder.find_path(c->base->map, s.start, s.goal, same, out));
        cpu_same += thread_cpu_ns() - t1;
        queries += c->base->sample.size();
    }
    state.counters["ratio"] = cpu_same / cpu_plain;
    state.counters["plain_us_per_query"] = cpu_plain / 1000.0 / double(queries);
    state.counters["same_us_per_query"] = cpu_same / 1000.0 / double(queries);
}

void bm_same(benchmark::State& state, const LayerCase* c) {
    const path::CostLayer layers[] = {{&c->zero_a, 1.0}, {&c->zero_b, 0.5}};
    path::GridSearchOptions options;
    options.areas = &c->areas;
    options.filter = &c->same_filter;
    options.layers = layers;
    run(state, *c->base, options);
}

void bm_random(benchmark::State& state, const LayerCase* c) {
    const path::CostLayer layers[] = {{&c->random_a, 1.0}, {&c->random_b, 0.5}};
    path::GridSearchOptions options;
    options.areas = &c->areas;
    options.filter = &c->random_filter;
    options.layers = layers;
    run(state, *c->base, options);
}

}  // namespace

int main(int argc, char** argv) {
    setup();
    for (const auto& c : cases()) {
        const std::string name = c->base->name;
        benchmark::RegisterBenchmark(("plain/" + name).c_str(), bm_plain, c.get())->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("filter_two_layers_same/" + name).c_str(), bm_same, c.get())->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("filter_two_layers_random/" + name).c_str(), bm_random, c.get())->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("ratio_same_vs_plain/" + name).c_str(), bm_ratio, c.get())->Unit(benchmark::kMillisecond);
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
