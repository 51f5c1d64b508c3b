// HPA*, smoothing and Theta* on the shared MovingAI maps.
//
//   hpa_summary/<map>   one pass over the map's scenarios: suboptimality of HPA* without refinement
//                       (unrefined_*), with it (the default, subopt_*) and with refinement and smoothing
//                       (smoothed_*), mean / worst over every scenario, and per-query CPU time of A*
//                       (GridPathfinder) and HPA* measured side by side on every k-th scenario, so
//                       the speedup is not skewed by load from other processes; build time, update
//                       time, abstract graph size, memory.
//   astar/<map>, hpa/<map>, hpa_smooth/<map>, theta/<map>
//                       one query per iteration, cycling through the scenarios; counters: expansions
//                       per query and a cost checksum (so a speedup cannot silently change paths).
//   hpa_build/<map>, hpa_update/<map>
//                       a full build; one cell toggled and repaired with update_cell.
#include <gameplan/io/load_error.hpp>
#include <gameplan/io/movingai.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/hpa.hpp>
#include <gameplan/path/smoothing.hpp>
#include <gameplan/path/theta_star.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace gameplan;
using namespace gameplan::path;

namespace {

struct Scenario {
    GridPoint start, goal;
    double optimal;
};

struct MapData {
    std::string name;
    GridMap map;
    std::vector<Scenario> scenarios;
};

std::filesystem::path data_dir() { return std::filesystem::path(GAMEPLAN_BENCHMARK_DATA_DIR) / "movingai"; }

// The io module's loaders; an unreadable map or scenario file leaves the map empty (benchmark skipped).
GridMap read_map(const std::filesystem::path& file) {
    try {
        return io::load_movingai_map(file);
    } catch (const io::LoadError&) {
        return GridMap{};
    }
}

std::vector<Scenario> read_scenarios(const std::filesystem::path& file) {
    std::vector<Scenario> out;
    try {
        for (const io::Scenario& s : io::load_movingai_scenarios(file).scenarios) out.push_back({s.start, s.goal, s.optimal});
    } catch (const io::LoadError&) {
        out.clear();
    }
    return out;
}

const MapData* load(const std::string& set, const std::string& name) {
    static std::map<std::string, std::unique_ptr<MapData>> cache;
    auto& slot = cache[name];
    if (!slot) {
        slot = std::make_unique<MapData>();
        slot->name = name;
        slot->map = read_map(data_dir() / "maps" / set / (name + ".map"));
        slot->scenarios = read_scenarios(data_dir() / "scenarios" / set / (name + ".map.scen"));
    }
    return slot->map.empty() || slot->scenarios.empty() ? nullptr : slot.get();
}

// One hierarchy per map, built with the default options, shared by the query benchmarks.
const HierarchicalMap& hierarchy_of(const MapData& data) {
    static std::map<std::string, std::unique_ptr<HierarchicalMap>> cache;
    auto& slot = cache[data.name];
    if (!slot) {
        slot = std::make_unique<HierarchicalMap>();
        (void)slot->build(data.map);
    }
    return *slot;
}

double cpu_micros() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) / 1e3;
}

struct MapArg {
    const char* set;
    const char* name;
};
const MapArg kMaps[] = {
    {"mazes", "maze512-1-0"}, {"mazes", "maze512-8-0"}, {"random", "random512-10-0"}, {"random", "random512-40-0"},
    {"rooms", "16room_000"},  {"sc1", "Aftershock"},    {"bg512", "AR0011SR"},         {"dao", "brc202d"},
    {"dao", "arena"},         {"dao", "den312d"},       {"dao", "lak303d"},            {"dao", "orz900d"},
};

void summary(benchmark::State& state, MapArg arg) {
    const MapData* data = load(arg.set, arg.name);
    if (!data) {
        state.SkipWithError("benchmark data not found (GAMEPLAN_BENCHMARK_DATA_DIR)");
        return;
    }
    for (auto _ : state) {
        HierarchicalMap h;
        const double estimate_MB = static_cast<double>(HierarchicalMap::estimate_memory_bytes(data->map)) / (1 << 20);
        const double build_start = cpu_micros();
        (void)h.build(data->map);
        const double build_ms = (cpu_micros() - build_start) / 1e3;
        HpaPathfinder hpa;
        GridPathfinder astar;
        GridPath path;
        HpaQueryOptions smooth;
        smooth.smooth = true;
        HpaQueryOptions unrefined;
        unrefined.refine = false;
        double raw_sum = 0, raw_worst = 0, smooth_sum = 0, smooth_worst = 0, unrefined_sum = 0, unrefined_worst = 0;
        double astar_us = 0, hpa_us = 0, smooth_us = 0, unrefined_us = 0, bound_sum = 0;
        std::size_t timed = 0;
        const std::size_t stride = std::max<std::size_t>(1, data->scenarios.size() / 300);
        for (std::size_t i = 0; i < data->scenarios.size(); ++i) {
            const Scenario& s = data->scenarios[i];
            double t0 = cpu_micros();
            (void)hpa.find_path(h, s.start, s.goal, HpaQueryOptions{}, path);
            double t1 = cpu_micros();
            const double raw = path.cost / s.optimal - 1;
            bound_sum += hpa.suboptimality_bound();
            (void)hpa.find_path(h, s.start, s.goal, smooth, path);
            const double t2 = cpu_micros();
            const double smoothed = path.cost / s.optimal - 1;
            (void)hpa.find_path(h, s.start, s.goal, unrefined, path);
            const double t2u = cpu_micros();
            const double plain = path.cost / s.optimal - 1;
            unrefined_sum += plain;
            unrefined_worst = std::max(unrefined_worst, plain);
            raw_sum += raw;
            smooth_sum += smoothed;
            raw_worst = std::max(raw_worst, raw);
            smooth_worst = std::max(smooth_worst, smoothed);
            if (i % stride != 0) continue;
            const double t3 = cpu_micros();
            (void)astar.find_path(data->map, s.start, s.goal, {}, path);
            astar_us += cpu_micros() - t3;
            hpa_us += t1 - t0;
            smooth_us += t2 - t1;
            unrefined_us += t2u - t2;
            ++timed;
        }
        // Update: toggle cells on a fixed pseudo-random walk and repair.
        GridMap map = data->map;
        double update_us = 0;
        std::uint32_t seed = 12345, updates = 0;
        for (int k = 0; k < 200; ++k) {
            seed = seed * 1664525u + 1013904223u;
            const GridPoint p{static_cast<int>((seed >> 8) % static_cast<unsigned>(map.width())),
                              static_cast<int>((seed >> 20) % static_cast<unsigned>(map.height()))};
            map.set_passable(p, !map.passable(p));
            const double u0 = cpu_micros();
            (void)h.update_cell(map, p);
            update_us += cpu_micros() - u0;
            ++updates;
        }
        const double n = static_cast<double>(data->scenarios.size());
        state.counters["scenarios"] = n;
        state.counters["unrefined_mean_%"] = 100 * unrefined_sum / n;
        state.counters["unrefined_worst_%"] = 100 * unrefined_worst;
        state.counters["hpa_unrefined_us"] = unrefined_us / static_cast<double>(timed);
        state.counters["subopt_mean_%"] = 100 * raw_sum / n;
        state.counters["subopt_worst_%"] = 100 * raw_worst;
        state.counters["smoothed_mean_%"] = 100 * smooth_sum / n;
        state.counters["smoothed_worst_%"] = 100 * smooth_worst;
        state.counters["bound_mean_%"] = 100 * bound_sum / n;
        state.counters["astar_us"] = astar_us / static_cast<double>(timed);
        state.counters["hpa_us"] = hpa_us / static_cast<double>(timed);
        state.counters["hpa_smooth_us"] = smooth_us / static_cast<double>(timed);
        state.counters["speedup"] = astar_us / hpa_us;
        state.counters["speedup_smooth"] = astar_us / smooth_us;
        state.counters["build_ms"] = build_ms;
        state.counters["update_us"] = update_us / updates;
        state.counters["nodes"] = static_cast<double>(h.node_count());
        state.counters["edges"] = static_cast<double>(h.edge_count());
        state.counters["memory_MB"] = static_cast<double>(h.memory_bytes()) / (1 << 20);
        state.counters["estimate_MB"] = estimate_MB;
    }
}

template <class Query>
void run_queries(benchmark::State& state, const MapData& data, Query&& query) {
    std::size_t i = 0;
    double checksum = 0, expanded = 0, count = 0;
    for (auto _ : state) {
        const Scenario& s = data.scenarios[i];
        i = (i + 1) % data.scenarios.size();
        const auto [cost, expansions] = query(s);
        checksum += cost;
        expanded += expansions;
        count += 1;
    }
    state.counters["expanded"] = expanded / count;
    state.counters["cost_checksum"] = checksum;
}

void astar(benchmark::State& state, MapArg arg) {
    const MapData* data = load(arg.set, arg.name);
    if (!data) return state.SkipWithError("benchmark data not found");
    GridPathfinder finder;
    GridPath path;
    run_queries(state, *data, [&](const Scenario& s) {
        (void)finder.find_path(data->map, s.start, s.goal, {}, path);
        return std::pair{path.cost, static_cast<double>(finder.stats().expanded)};
    });
}

void hpa(benchmark::State& state, MapArg arg, bool smooth) {
    const MapData* data = load(arg.set, arg.name);
    if (!data) return state.SkipWithError("benchmark data not found");
    const HierarchicalMap& h = hierarchy_of(*data);
    HpaPathfinder finder;
    GridPath path;
    HpaQueryOptions options;
    options.smooth = smooth;
    run_queries(state, *data, [&](const Scenario& s) {
        (void)finder.find_path(h, s.start, s.goal, options, path);
        return std::pair{path.cost, static_cast<double>(finder.stats().expanded)};
    });
}

void theta(benchmark::State& state, MapArg arg) {
    const MapData* data = load(arg.set, arg.name);
    if (!data) return state.SkipWithError("benchmark data not found");
    ThetaStar finder;
    GridPath path;
    run_queries(state, *data, [&](const Scenario& s) {
        (void)finder.find_path(data->map, s.start, s.goal, path);
        return std::pair{path.cost, static_cast<double>(finder.stats().expanded)};
    });
}

void build(benchmark::State& state, MapArg arg) {
    const MapData* data = load(arg.set, arg.name);
    if (!data) return state.SkipWithError("benchmark data not found");
    for (auto _ : state) {
        HierarchicalMap h;
        benchmark::DoNotOptimize(h.build(data->map));
        state.counters["nodes"] = static_cast<double>(h.node_count());
    }
}

void update(benchmark::State& state, MapArg arg) {
    const MapData* data = load(arg.set, arg.name);
    if (!data) return state.SkipWithError("benchmark data not found");
    GridMap map = data->map;
    HierarchicalMap h;
    (void)h.build(map);
    std::uint32_t seed = 99;
    double clusters = 0, count = 0;
    for (auto _ : state) {
        seed = seed * 1664525u + 1013904223u;
        const GridPoint p{static_cast<int>((seed >> 8) % static_cast<unsigned>(map.width())),
                          static_cast<int>((seed >> 20) % static_cast<unsigned>(map.height()))};
        map.set_passable(p, !map.passable(p));
        benchmark::DoNotOptimize(h.update_cell(map, p));
        clusters += static_cast<double>(h.last_build_stats().clusters_rebuilt);
        count += 1;
    }
    state.counters["clusters_rebuilt"] = clusters / count;
}

const int kRegistered = [] {
    for (const MapArg& m : kMaps) {
        const std::string name = m.name;
        benchmark::RegisterBenchmark(("hpa_summary/" + name).c_str(), summary, m)->Iterations(1)->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("astar/" + name).c_str(), astar, m)->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark(("hpa/" + name).c_str(), hpa, m, false)->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark(("hpa_smooth/" + name).c_str(), hpa, m, true)->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark(("theta/" + name).c_str(), theta, m)->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark(("hpa_build/" + name).c_str(), build, m)->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("hpa_update/" + name).c_str(), update, m)->Unit(benchmark::kMicrosecond);
    }
    return 0;
}();

}  // namespace

BENCHMARK_MAIN();
