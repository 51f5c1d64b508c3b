// The village demo at scale: 1,000 GOAP villagers on a 512 x 512 map, one core, planning, pathfinding
// and the collision-free crowd included, over 3,000 ticks (long enough for jams to show). One benchmark
// iteration = one simulation tick, from tick 0 (the start, when every villager plans at once, is
// included). Counters: the village's own tick statistics (mean, p99, max in ms), per-tick plans and
// paths, the crowd's collisions (must be 0), waits per step, jams (a walker still for 100 ticks) and the
// longest stand-still, and a checksum of the simulation state so that a speed-up cannot silently change
// what the villagers do.
//
// Maps: the generated village map (always), and the shared MovingAI maps 16room_000 and random512-10-0
// when ../shared/benchmarks is present (GAMEPLAN_BENCHMARK_DATA_DIR).
#include <gameplan_village/generate.hpp>
#include <gameplan_village/village.hpp>

#include <gameplan/io/movingai.hpp>

#include <benchmark/benchmark.h>

#include <filesystem>
#include <memory>
#include <string>

namespace {

using namespace gameplan;

void run_village(benchmark::State& state, const path::GridMap& map, std::size_t agents, std::size_t threads) {
    village::Config config;
    config.agents = agents;
    config.seed = 1;
    config.threads = threads;
    auto sim = village::Village::create(map, village::builtin_domains(), config);
    for (auto _ : state) sim->step();
    const village::Summary s = sim->summary();
    state.counters["tick_ms_mean"] = s.tick_ms_mean;
    state.counters["tick_ms_p99"] = s.tick_ms_p99;
    state.counters["tick_ms_max"] = s.tick_ms_max;
    state.counters["plan_us_mean"] = s.plan_us_mean;
    state.counters["path_us_mean"] = s.path_us_mean;
    const auto ticks = static_cast<double>(std::max<std::uint64_t>(1, s.ticks));
    state.counters["plans_per_tick"] = static_cast<double>(s.plans) / ticks;
    state.counters["paths_per_tick"] = static_cast<double>(s.paths) / ticks;
    state.counters["cycles"] = static_cast<double>(s.cycles[0] + s.cycles[1] + s.cycles[2]);
    state.counters["collisions"] = static_cast<double>(s.collisions);
    state.counters["jams"] = static_cast<double>(s.jams);
    state.counters["longest_still"] = static_cast<double>(s.longest_still);
    state.counters["waits_per_step"] = static_cast<double>(s.waits) / static_cast<double>(std::max<std::uint64_t>(1, s.steps));
    state.counters["checksum"] = static_cast<double>(s.checksum % 1000000007ull);
}

void BM_VillageGenerated512(benchmark::State& state) {
    static const path::GridMap map = village::generate_village_map(512, 512, 1);
    run_village(state, map, static_cast<std::size_t>(state.range(0)), static_cast<std::size_t>(state.range(1)));
}
BENCHMARK(BM_VillageGenerated512)->Args({1000, 1})->Iterations(3000)->Unit(benchmark::kMillisecond);

void BM_VillageShared512(benchmark::State& state, const char* relative) {
    const std::filesystem::path file = std::filesystem::path(GAMEPLAN_BENCHMARK_DATA_DIR) / relative;
    if (!std::filesystem::exists(file)) {
        state.SkipWithError(("shared benchmark data absent: " + file.string()).c_str());
        for (auto _ : state) {}
        return;
    }
    const path::GridMap map = io::load_movingai_map(file);
    run_village(state, map, static_cast<std::size_t>(state.range(0)), static_cast<std::size_t>(state.range(1)));
}
BENCHMARK_CAPTURE(BM_VillageShared512, 16room_000, "movingai/maps/rooms/16room_000.map")
    ->Args({1000, 1})->Iterations(3000)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_VillageShared512, random512_10, "movingai/maps/random/random512-10-0.map")
    ->Args({1000, 1})->Iterations(3000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
