// Jump Point Search (online) and JPS+ (jump tables) on the shared MovingAI maps.
//
// One benchmark iteration runs every scenario of a map once. Counters:
//   us_per_query   mean CPU microseconds per query over all the map's scenarios (Google Benchmark prints
//                  it with an "s" suffix because it is an inverted rate; the number is microseconds)
//   exp_per_query  mean jump points expanded per query
//   cost_sum       sum of the path costs of one pass (a checksum: a speedup must not change it)
//   mismatches     scenarios whose cost differs from the .scen optimal length by more than one unit in
//                  its last printed digit (must be 0)
// Build / update benchmarks report the preprocessing time, the table memory, and the cost of one cell
// change (`us_per_update`, `entries_per_update`).
//
//   build/bench/bench_jps --benchmark_min_time=0.2 [--benchmark_filter=brc202d|Aftershock] [--astar]
//   build/bench/bench_jps --benchmark_filter='_short/(brc202d|Aftershock|den520d|CatwalkAlley)'  (optimal < 50)
//   (add --benchmark_repetitions=5 --benchmark_report_aggregates_only=true for mean/median/min)
//   build/bench/bench_jps --benchmark_filter=astar_expansions   (A*'s mean expansions per map, one pass)
#include <gameplan/io/load_error.hpp>
#include <gameplan/io/movingai.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/jps.hpp>
#include <gameplan/path/jps_plus.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace gameplan;
using namespace gameplan::path;

namespace {

// ---- shared MovingAI data ------------------------------------------------------------------------

struct Scenario {
    GridPoint start;
    GridPoint goal;
    double optimal = 0;
    double tolerance = 0;
};

struct Dataset {
    std::string name;
    GridMap map;
    std::vector<Scenario> scenarios;
    std::vector<Scenario> short_scenarios;  // optimal length < 50: the queries a game asks most
};

// The io module's loaders (MovingAI rules: '.', 'G', 'S' passable; any other letter blocked).
bool read_map(const std::filesystem::path& file, GridMap& map) {
    try {
        map = io::load_movingai_map(file);
        return true;
    } catch (const io::LoadError& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return false;
    }
}

std::vector<Scenario> read_scenarios(const std::filesystem::path& file) {
    std::vector<Scenario> out;
    for (const io::Scenario& s : io::load_movingai_scenarios(file).scenarios)
        out.push_back({s.start, s.goal, s.optimal, s.tolerance});
    return out;
}

struct SharedMap {
    const char* name;
    const char* map;
    const char* scen;
};
constexpr SharedMap kSharedMaps[] = {
    {"arena", "maps/dao/arena.map", "scenarios/dao/arena.map.scen"},
    {"den312d", "maps/dao/den312d.map", "scenarios/dao/den312d.map.scen"},
    {"lak303d", "maps/dao/lak303d.map", "scenarios/dao/lak303d.map.scen"},
    {"brc202d", "maps/dao/brc202d.map", "scenarios/dao/brc202d.map.scen"},
    {"orz900d", "maps/dao/orz900d.map", "scenarios/dao/orz900d.map.scen"},
    {"maze512-1-0", "maps/mazes/maze512-1-0.map", "scenarios/mazes/maze512-1-0.map.scen"},
    {"maze512-8-0", "maps/mazes/maze512-8-0.map", "scenarios/mazes/maze512-8-0.map.scen"},
    {"random512-10-0", "maps/random/random512-10-0.map", "scenarios/random/random512-10-0.map.scen"},
    {"random512-40-0", "maps/random/random512-40-0.map", "scenarios/random/random512-40-0.map.scen"},
    {"16room_000", "maps/rooms/16room_000.map", "scenarios/rooms/16room_000.map.scen"},
    {"Aftershock", "maps/sc1/Aftershock.map", "scenarios/sc1/Aftershock.map.scen"},
    {"AR0011SR", "maps/bg512/AR0011SR.map", "scenarios/bg512/AR0011SR.map.scen"},
};

std::vector<Dataset>& datasets() {
    static std::vector<Dataset> all;
    return all;
}

// ---- query benchmarks ----------------------------------------------------------------------------

template <class Finder>
void run_queries(benchmark::State& state, const Dataset& data, Finder& finder, bool short_only = false) {
    GridPath path;
    path.cells.reserve(4096);
    const std::vector<Scenario>& scenarios = short_only ? data.short_scenarios : data.scenarios;
    // Warm-up pass: sizes every buffer, so the timed passes allocate nothing.
    for (const auto& s : scenarios) (void)finder.find_path(data.map, s.start, s.goal, {}, path);
    double cost_sum = 0, expanded = 0, generated = 0, mismatches = 0;
    for (auto _ : state) {
        cost_sum = expanded = generated = mismatches = 0;
        for (const auto& s : scenarios) {
            const Status status = finder.find_path(data.map, s.start, s.goal, {}, path);
            cost_sum += path.cost;
            expanded += static_cast<double>(finder.stats().expanded);
            generated += static_cast<double>(finder.stats().generated);
            if (status != Status::Found || std::abs(path.cost - s.optimal) > s.tolerance) mismatches += 1;
        }
        benchmark::DoNotOptimize(cost_sum);
    }
    const double n = static_cast<double>(scenarios.size());
    // CPU time per query (the benchmark's clock): robust on a machine shared with other jobs.
    state.counters["us_per_query"] =
        benchmark::Counter(n * 1e-6, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
    state.counters["exp_per_query"] = expanded / n;
    state.counters["gen_per_query"] = generated / n;
    state.counters["cost_sum"] = cost_sum;
    state.counters["mismatches"] = mismatches;
    state.counters["queries"] = n;
}

void BM_Jps(benchmark::State& state, const Dataset* data) {
    JpsPathfinder finder;
    finder.sync(data->map);
    run_queries(state, *data, finder);
    state.counters["snapshot_bytes"] = static_cast<double>(finder.snapshot_bytes());
}

void BM_JpsPlus(benchmark::State& state, const Dataset* data) {
    JpsPlusPathfinder finder;
    (void)finder.build(data->map);
    run_queries(state, *data, finder);
    state.counters["rebuilds"] = static_cast<double>(finder.rebuild_count());
}

// Short queries only (optimal length < 50): what a fixed per-query cost shows in.
void BM_JpsShort(benchmark::State& state, const Dataset* data) {
    JpsPathfinder finder;
    finder.sync(data->map);
    run_queries(state, *data, finder, true);
}

void BM_JpsPlusShort(benchmark::State& state, const Dataset* data) {
    JpsPlusPathfinder finder;
    (void)finder.build(data->map);
    run_queries(state, *data, finder, true);
}

void BM_AStar(benchmark::State& state, const Dataset* data) {
    GridPathfinder finder;
    finder.reserve(data->map);
    run_queries(state, *data, finder);
}

// ---- preprocessing and updates ----------------------------------------------------------------------

void BM_JpsPlusBuild(benchmark::State& state, const Dataset* data) {
    JumpTable table;
    for (auto _ : state) {
        benchmark::DoNotOptimize(table.build(data->map));
        benchmark::ClobberMemory();
    }
    state.counters["table_bytes"] = static_cast<double>(table.memory_bytes());
    state.counters["bytes_per_cell"] = static_cast<double>(table.memory_bytes()) / static_cast<double>(data->map.cell_count());
}

void BM_JpsSync(benchmark::State& state, const Dataset* data) {
    JpsPathfinder finder;
    for (auto _ : state) finder.sync(data->map);
    state.counters["snapshot_bytes"] = static_cast<double>(finder.snapshot_bytes());
}

// One iteration = two single-cell updates: a random cell is flipped and the table repaired, then
// flipped back and repaired again, so the map is the same after every iteration.
void BM_JpsPlusUpdate(benchmark::State& state, const Dataset* data) {
    GridMap map = data->map;  // a private copy: the shared one stays static
    JumpTable table;
    (void)table.build(map);
    std::mt19937 rng(1);
    std::vector<GridPoint> cells(4096);
    for (auto& p : cells) p = GridPoint{int(rng() % std::uint32_t(map.width())), int(rng() % std::uint32_t(map.height()))};
    std::size_t i = 0;
    double rewritten = 0, updates = 0;
    for (auto _ : state) {
        const GridPoint p = cells[i++ & 4095];
        const bool was = map.passable(p);
        map.set_passable(p, !was);
        rewritten += static_cast<double>(table.update_cell(map, p));
        map.set_passable(p, was);
        rewritten += static_cast<double>(table.update_cell(map, p));
        updates += 2;
    }
    state.counters["us_per_update"] = benchmark::Counter(updates * 1e-6, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    state.counters["entries_per_update"] = rewritten / std::max(1.0, updates);
    state.counters["in_sync"] = table.in_sync(map) ? 1 : 0;
}

// Unreported change: the next query rebuilds (JPS+) or resynchronises (JPS) in full.
void BM_JpsUpdate(benchmark::State& state, const Dataset* data) {
    GridMap map = data->map;
    JpsPathfinder finder;
    finder.sync(map);
    std::mt19937 rng(1);
    std::size_t updates = 0;
    for (auto _ : state) {
        const GridPoint p{int(rng() % std::uint32_t(map.width())), int(rng() % std::uint32_t(map.height()))};
        const bool was = map.passable(p);
        map.set_passable(p, !was);
        benchmark::DoNotOptimize(finder.update_cell(map, p));
        map.set_passable(p, was);
        benchmark::DoNotOptimize(finder.update_cell(map, p));
        updates += 2;
    }
    state.counters["us_per_update"] =
        benchmark::Counter(static_cast<double>(updates) * 1e-6, benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
    state.counters["full_syncs"] = static_cast<double>(finder.sync_count());
}

}  // namespace

int main(int argc, char** argv) {
    // `--astar` adds our A* on the same scenarios, for reference (minutes on the 512 x 512 maps).
    bool with_astar = false;
    int kept = 1;
    for (int i = 1; i < argc; ++i) {
        if (std::string(argv[i]) == "--astar") with_astar = true;
        else argv[kept++] = argv[i];
    }
    argc = kept;
    benchmark::Initialize(&argc, argv);
    const auto root = std::filesystem::path(GAMEPLAN_BENCHMARK_DATA_DIR) / "movingai";
    if (!std::filesystem::is_directory(root)) {
        std::fprintf(stderr, "bench_jps: benchmark data not found at %s\n", root.string().c_str());
        return 0;
    }
    auto& all = datasets();
    all.reserve(std::size(kSharedMaps));
    for (const auto& m : kSharedMaps) {
        Dataset d;
        d.name = m.name;
        if (!read_map(root / m.map, d.map)) {
            std::fprintf(stderr, "bench_jps: cannot read %s\n", m.map);
            return 1;
        }
        d.scenarios = read_scenarios(root / m.scen);
        for (const Scenario& s : d.scenarios)
            if (s.optimal < 50) d.short_scenarios.push_back(s);
        all.push_back(std::move(d));
    }
    // With --benchmark_repetitions=N the "min" aggregate is the least disturbed run on a shared machine.
    const auto min_of = [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); };
    for (const auto& d : all) {
        benchmark::RegisterBenchmark(("jps/" + d.name).c_str(), BM_Jps, &d)->Unit(benchmark::kMillisecond)->ComputeStatistics("min", min_of);
        benchmark::RegisterBenchmark(("jps_plus/" + d.name).c_str(), BM_JpsPlus, &d)->Unit(benchmark::kMillisecond)->ComputeStatistics("min", min_of);
    }
    for (const auto& d : all) {
        benchmark::RegisterBenchmark(("jps_short/" + d.name).c_str(), BM_JpsShort, &d)->ComputeStatistics("min", min_of);
        benchmark::RegisterBenchmark(("jps_plus_short/" + d.name).c_str(), BM_JpsPlusShort, &d)->ComputeStatistics("min", min_of);
    }
    for (const auto& d : all) {
        benchmark::RegisterBenchmark(("jps_plus_build/" + d.name).c_str(), BM_JpsPlusBuild, &d)->Unit(benchmark::kMillisecond)->ComputeStatistics("min", min_of);
        benchmark::RegisterBenchmark(("jps_sync/" + d.name).c_str(), BM_JpsSync, &d)->Unit(benchmark::kMicrosecond)->ComputeStatistics("min", min_of);
        benchmark::RegisterBenchmark(("jps_plus_update/" + d.name).c_str(), BM_JpsPlusUpdate, &d)->ComputeStatistics("min", min_of);
        benchmark::RegisterBenchmark(("jps_update/" + d.name).c_str(), BM_JpsUpdate, &d)->ComputeStatistics("min", min_of);
    }
    if (with_astar)
        for (const auto& d : all)
            benchmark::RegisterBenchmark(("astar/" + d.name).c_str(), BM_AStar, &d)->Unit(benchmark::kMillisecond);
    else
        for (const auto& d : all)  // one pass: the expansion counts (exp_per_query), not the time
            benchmark::RegisterBenchmark(("astar_expansions/" + d.name).c_str(), BM_AStar, &d)
                ->Unit(benchmark::kMillisecond)
                ->Iterations(1);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
