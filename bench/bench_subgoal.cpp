// The preprocessed exact tier (subgoal graphs, subgoal.hpp) against online JPS on the shared MovingAI maps,
// queries interleaved in one process.
//
// One benchmark iteration runs every scenario of a map through both searches, in blocks of 32 scenarios:
// JPS on the block, then the subgoal graph on the same block, each block timed with the thread's CPU
// clock, so both see the same machine state. Both write the same detail of the path: every cell
// (interleaved/<map>), waypoints (waypoints/<map>: JPS its jump points, the subgoal tier its subgoals and
// turning cells) or the cost only (cost_only/<map>). Counters:
//   jps_us, subgoal_us  mean CPU microseconds per query
//   speedup             jps_us / subgoal_us
//   mismatches          scenarios where either cost differs from the .scen optimal length by more than
//                       one unit in its last printed digit (must be 0)
//   exp_per_query       mean subgoal-graph nodes expanded per query (both directions; 1 for a table answer)
//   table_answers       fraction of the queries answered by the transit-node table without search
//   gen_per_query       mean edges relaxed per query
// The build benchmark reports the preprocessing (build_ms, thread CPU), the graph's memory (graph_bytes),
// subgoals and edges, and memory_ratio = graph bytes / the bytes of a warmed-up JpsPathfinder on the same
// map (its snapshot and per-cell search state); and for the transit-node tables: transit (their number of
// transit nodes), transit_bytes, access_per_cell and tops_per_cell (means over passable cells), and
// table_fraction (the scenarios the table answers alone: not direct, search spaces apart).
// build_transit/<map>/<t> and cost_only_transit/<map>/<t> build with t transit nodes (0: none) instead of the
// default. query_kinds/<map> splits the subgoal tier's queries (every cell written) by kind: the goal in
// octile freespace (direct), a table answer (table), a local query whose search stops at once
// (local_at_once) or searches (local_search); per kind its share of the queries (_share), its mean
// microseconds, each query timed alone (_us), and its share of the time (_time_share).
//
//   build/bench/bench_subgoal --benchmark_min_time=1x [--benchmark_filter='interleaved/(brc202d|Aftershock)']
#include <gameplan/io/load_error.hpp>
#include <gameplan/io/movingai.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/jps.hpp>
#include <gameplan/path/subgoal.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

using namespace gameplan;
using namespace gameplan::path;

namespace {

struct Dataset {
    std::string name;
    GridMap map;
    std::vector<io::Scenario> scenarios;
};

struct SharedMap {
    const char* name;
    const char* map;
    const char* scen;
};
constexpr SharedMap kSharedMaps[] = {
    {"brc202d", "maps/dao/brc202d.map", "scenarios/dao/brc202d.map.scen"},
    {"Aftershock", "maps/sc1/Aftershock.map", "scenarios/sc1/Aftershock.map.scen"},
    {"random512-40-0", "maps/random/random512-40-0.map", "scenarios/random/random512-40-0.map.scen"},
    {"maze512-1-0", "maps/mazes/maze512-1-0.map", "scenarios/mazes/maze512-1-0.map.scen"},
    {"arena", "maps/dao/arena.map", "scenarios/dao/arena.map.scen"},
    {"den312d", "maps/dao/den312d.map", "scenarios/dao/den312d.map.scen"},
    {"lak303d", "maps/dao/lak303d.map", "scenarios/dao/lak303d.map.scen"},
    {"orz900d", "maps/dao/orz900d.map", "scenarios/dao/orz900d.map.scen"},
    {"maze512-8-0", "maps/mazes/maze512-8-0.map", "scenarios/mazes/maze512-8-0.map.scen"},
    {"random512-10-0", "maps/random/random512-10-0.map", "scenarios/random/random512-10-0.map.scen"},
    {"16room_000", "maps/rooms/16room_000.map", "scenarios/rooms/16room_000.map.scen"},
    {"AR0011SR", "maps/bg512/AR0011SR.map", "scenarios/bg512/AR0011SR.map.scen"},
};

std::vector<Dataset>& datasets() {
    static std::vector<Dataset> all;
    return all;
}

double thread_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// A query answered wrongly: not found, or a cost off the .scen file's optimal length by more than one unit
// in its last printed digit.
bool wrong(Status status, const GridPath& path, const io::Scenario& s) {
    return status != Status::Found || std::abs(path.cost - s.optimal) > s.tolerance;
}

// How the transit-node tables see a query, by the graph's own tests: start = goal or the goal in octile
// freespace of the start (Direct), search spaces apart (Table: the table alone answers), or sharing a top
// (Local: a search below the transit nodes competes with the table).
enum class QueryKind { Direct, Table, Local };
QueryKind query_kind(const SubgoalGraph& graph, const io::Scenario& s) {
    const std::uint32_t a = graph.index(s.start), b = graph.index(s.goal);
    if (a == b || graph.direct(a, b) || graph.direct(b, a)) return QueryKind::Direct;
    return graph.transit_local(a, b) ? QueryKind::Local : QueryKind::Table;
}

void BM_Interleaved(benchmark::State& state, const Dataset* data, PathDetail detail, std::uint32_t transit) {
    JpsPathfinder jps;
    SubgoalPathfinder sg;
    if (sg.build(data->map, SIZE_MAX, transit) != JpsSupport::Ok) {
        state.SkipWithError("subgoal graph not built");
        return;
    }
    GridPath path;
    path.cells.reserve(8192);
    GridSearchOptions options;
    options.detail = detail;
    const auto& scen = data->scenarios;
    for (const auto& s : scen) {  // warm-up: sizes every buffer
        (void)jps.find_path(data->map, s.start, s.goal, options, path);
        (void)sg.find_path(data->map, s.start, s.goal, options, path);
    }
    constexpr std::size_t kBlock = 32;
    double jps_time = 0, sg_time = 0, expanded = 0, generated = 0, mismatches = 0, queries = 0, table = 0;
    for (auto _ : state) {
        const double t0 = thread_seconds();
        for (std::size_t b = 0; b < scen.size(); b += kBlock) {
            const std::size_t e = std::min(scen.size(), b + kBlock);
            const double a = thread_seconds();
            for (std::size_t i = b; i < e; ++i) {
                if (wrong(jps.find_path(data->map, scen[i].start, scen[i].goal, options, path), path, scen[i])) mismatches += 1;
            }
            const double m = thread_seconds();
            for (std::size_t i = b; i < e; ++i) {
                if (wrong(sg.find_path(data->map, scen[i].start, scen[i].goal, options, path), path, scen[i])) mismatches += 1;
                expanded += static_cast<double>(sg.stats().expanded);
                table += sg.stats().expanded == 1 ? 1 : 0;
                generated += static_cast<double>(sg.stats().generated);
            }
            const double z = thread_seconds();
            jps_time += m - a;
            sg_time += z - m;
        }
        queries += static_cast<double>(scen.size());
        state.SetIterationTime(thread_seconds() - t0);
    }
    state.counters["jps_us"] = 1e6 * jps_time / queries;
    state.counters["subgoal_us"] = 1e6 * sg_time / queries;
    state.counters["speedup"] = jps_time / sg_time;
    state.counters["mismatches"] = mismatches;
    state.counters["exp_per_query"] = expanded / queries;
    state.counters["table_answers"] = table / queries;
    state.counters["gen_per_query"] = generated / queries;
    state.counters["fallbacks"] = static_cast<double>(sg.fallback_count());
}

// Per kind of query (the graph's own tests): the goal in octile freespace of the start ("direct"), a table
// answer (search spaces apart: "table"), a local query whose search stops at once ("local_at_once"), a
// local query that searches ("local_search"). Blocks of 32 as BM_Interleaved, every cell written; each
// subgoal query is timed alone with the steady clock (its own cost, some 20 ns, included).
void BM_Kinds(benchmark::State& state, const Dataset* data) {
    JpsPathfinder jps;
    SubgoalPathfinder sg;
    if (sg.build(data->map) != JpsSupport::Ok || sg.graph().transit_count() == 0) {
        state.SkipWithError("subgoal graph without transit-node tables");
        return;
    }
    const SubgoalGraph& graph = sg.graph();
    GridPath path;
    path.cells.reserve(8192);
    const auto& scen = data->scenarios;
    std::vector<QueryKind> kind(scen.size());
    for (std::size_t i = 0; i < scen.size(); ++i) {
        kind[i] = query_kind(graph, scen[i]);
        (void)jps.find_path(data->map, scen[i].start, scen[i].goal, {}, path);
        (void)sg.find_path(data->map, scen[i].start, scen[i].goal, {}, path);
    }
    constexpr std::size_t kBlock = 32;
    // Per kind: direct, table, local_search, local_at_once (a local query whose search stops at once).
    double seconds[4] = {}, count[4] = {}, mismatches = 0;
    for (auto _ : state) {
        const double t0 = thread_seconds();
        for (std::size_t b = 0; b < scen.size(); b += kBlock) {
            const std::size_t e = std::min(scen.size(), b + kBlock);
            for (std::size_t i = b; i < e; ++i) (void)jps.find_path(data->map, scen[i].start, scen[i].goal, {}, path);
            for (std::size_t i = b; i < e; ++i) {
                const auto a = std::chrono::steady_clock::now();
                const Status st = sg.find_path(data->map, scen[i].start, scen[i].goal, {}, path);
                const auto z = std::chrono::steady_clock::now();
                if (wrong(st, path, scen[i])) mismatches += 1;
                const int k = kind[i] == QueryKind::Direct ? 0 : kind[i] == QueryKind::Table ? 1 : sg.stats().expanded <= 1 ? 3 : 2;
                seconds[k] += std::chrono::duration<double>(z - a).count();
                count[k] += 1;
            }
        }
        state.SetIterationTime(thread_seconds() - t0);
    }
    const char* names[4] = {"direct", "table", "local_search", "local_at_once"};
    double total = 0, queries = 0;
    for (int k = 0; k < 4; ++k) total += seconds[k], queries += count[k];
    for (int k = 0; k < 4; ++k) {
        state.counters[std::string(names[k]) + "_share"] = count[k] / queries;
        state.counters[std::string(names[k]) + "_us"] = count[k] > 0 ? 1e6 * seconds[k] / count[k] : 0.0;
        state.counters[std::string(names[k]) + "_time_share"] = total > 0 ? seconds[k] / total : 0.0;
    }
    state.counters["mismatches"] = mismatches;
}

void BM_Build(benchmark::State& state, const Dataset* data, std::uint32_t transit) {
    SubgoalGraph graph;
    double seconds = 0, builds = 0;
    for (auto _ : state) {
        const double a = thread_seconds();
        benchmark::DoNotOptimize(graph.build(data->map, SIZE_MAX, transit));
        seconds += thread_seconds() - a;
        builds += 1;
    }
    JpsPathfinder jps;
    GridPath path;
    jps.sync(data->map);  // sizes the per-cell search state
    for (std::size_t i = 0; i < data->scenarios.size() && i < 200; ++i)
        (void)jps.find_path(data->map, data->scenarios[i].start, data->scenarios[i].goal, {}, path);
    state.counters["build_ms"] = 1e3 * seconds / builds;
    state.counters["graph_bytes"] = static_cast<double>(graph.memory_bytes());
    const std::size_t jps_bytes = jps.memory_bytes() + jps.snapshot_bytes();  // search state and snapshot
    state.counters["jps_bytes"] = static_cast<double>(jps_bytes);
    state.counters["memory_ratio"] = static_cast<double>(graph.memory_bytes()) / static_cast<double>(jps_bytes);
    state.counters["subgoals"] = static_cast<double>(graph.subgoal_count());
    state.counters["edges"] = static_cast<double>(graph.edge_count());
    state.counters["transit"] = static_cast<double>(graph.transit_count());
    state.counters["transit_bytes"] = static_cast<double>(graph.transit_bytes());
    if (graph.transit_count() > 0) {
        double cells = 0, accesses = 0, table = 0, tops = 0;
        for (std::int32_t y = 0; y < data->map.height(); ++y)
            for (std::int32_t x = 0; x < data->map.width(); ++x)
                if (graph.passable(GridPoint{x, y})) {
                    cells += 1;
                    accesses += static_cast<double>(graph.access(graph.index(GridPoint{x, y})).size());
                    tops += static_cast<double>(graph.top_count(graph.index(GridPoint{x, y})));
                }
        for (const auto& s : data->scenarios) table += query_kind(graph, s) == QueryKind::Table ? 1 : 0;
        state.counters["access_per_cell"] = accesses / cells;
        state.counters["tops_per_cell"] = tops / cells;
        state.counters["table_fraction"] = table / static_cast<double>(data->scenarios.size());
    }
}

}  // namespace

int main(int argc, char** argv) {
    benchmark::Initialize(&argc, argv);
    const auto root = std::filesystem::path(GAMEPLAN_BENCHMARK_DATA_DIR) / "movingai";
    if (!std::filesystem::is_directory(root)) {
        std::fprintf(stderr, "bench_subgoal: benchmark data not found at %s\n", root.string().c_str());
        return 0;
    }
    auto& all = datasets();
    all.reserve(std::size(kSharedMaps));
    for (const auto& m : kSharedMaps) {
        Dataset d;
        d.name = m.name;
        try {
            d.map = io::load_movingai_map(root / m.map);
            d.scenarios = io::load_movingai_scenarios(root / m.scen).scenarios;
        } catch (const io::LoadError& e) {
            std::fprintf(stderr, "bench_subgoal: %s\n", e.what());
            return 1;
        }
        all.push_back(std::move(d));
    }
    for (const auto& [prefix, detail] : {std::pair{"interleaved/", PathDetail::Cells},
                                         std::pair{"waypoints/", PathDetail::Waypoints},
                                         std::pair{"cost_only/", PathDetail::CostOnly}})
        for (const auto& d : all)
            benchmark::RegisterBenchmark((prefix + d.name).c_str(), BM_Interleaved, &d, detail, SubgoalGraph::kAutoTransit)
                ->UseManualTime()
                ->Unit(benchmark::kMillisecond);
    for (const auto& d : all)
        for (const std::uint32_t transit : {0u, 128u, 256u, 512u, 1024u})
            benchmark::RegisterBenchmark(("cost_only_transit/" + d.name + "/" + std::to_string(transit)).c_str(),
                                         BM_Interleaved, &d, PathDetail::CostOnly, transit)
                ->UseManualTime()
                ->Unit(benchmark::kMillisecond);
    for (const auto& d : all)
        benchmark::RegisterBenchmark(("query_kinds/" + d.name).c_str(), BM_Kinds, &d)->UseManualTime()->Unit(benchmark::kMillisecond);
    for (const auto& d : all)
        benchmark::RegisterBenchmark(("build/" + d.name).c_str(), BM_Build, &d, SubgoalGraph::kAutoTransit)
            ->Unit(benchmark::kMillisecond);
    for (const auto& d : all)
        for (const std::uint32_t transit : {0u, 128u, 256u, 512u, 1024u})
            benchmark::RegisterBenchmark(("build_transit/" + d.name + "/" + std::to_string(transit)).c_str(), BM_Build, &d,
                                         transit)
                ->Unit(benchmark::kMillisecond);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
