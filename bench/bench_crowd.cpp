// Multi-agent pathfinding on the shared MAPF benchmark (MovingAI, movingai.com/benchmarks/mapf):
// 6 maps x 2 random scenario files x N in {50, 100, 200, 400, 800} agents (capped at what the file
// holds), solved by path::CrowdSolver (first solution, 10 s limit, one thread). crowd_anytime: the 12
// instances LaCAM3 was measured on, first solution then improvement until the thread CPU time reaches
// LaCAM3's: a step is taken only if it fits were it as dear as the dearest improvement step so far,
// so the run ends within that time (wall-clock limit 120 s so machine load cannot cut it).
//
//   build/bench/bench_crowd                               # every instance, then a Markdown table
//   build/bench/bench_crowd --benchmark_filter='empty'    # a subset
//   build/bench/bench_crowd --benchmark_filter=crowd_anytime  # improvement within the LaCAM3 CPU times
//
// Counters: solved (1/0), cpu_s (thread CPU seconds of the whole solve: distance tables + search),
// soc_lb (sum of costs / lower bound), soc, lb, makespan, configurations. Each solution is checked for
// conflicts by a small validator below before it counts as solved. Timing is thread CPU time
// (CLOCK_THREAD_CPUTIME_ID) because the machine is shared.
#include <gameplan/io/movingai.hpp>
#include <gameplan/path/crowd.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <time.h>

using namespace gameplan;
using namespace gameplan::path;

namespace {

double thread_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

struct Row {
    std::string mode = "first";
    std::string map;
    int scen = 0;
    std::size_t agents = 0;
    bool solved = false;
    double cpu = 0;
    std::uint64_t soc = 0, lb = 0;
    std::uint32_t makespan = 0;
};
std::vector<Row>& rows() {
    static std::vector<Row> all;
    return all;
}

// Vertex and swap conflicts, legal 4-connected moves, starts and goals.
bool valid(const GridMap& map, const std::vector<GridPoint>& starts, const std::vector<GridPoint>& goals,
           const CrowdSolution& s) {
    const std::size_t n = starts.size();
    for (std::size_t i = 0; i < n; ++i)
        if (!(s.at(static_cast<std::uint32_t>(i), 0) == starts[i]) ||
            !(s.at(static_cast<std::uint32_t>(i), s.makespan) == goals[i]))
            return false;
    std::vector<std::int64_t> owner(static_cast<std::size_t>(map.width()) * static_cast<std::size_t>(map.height()), -1);
    std::vector<std::int64_t> before(owner.size(), -1);
    auto key = [&](GridPoint p) { return static_cast<std::size_t>(p.y) * static_cast<std::size_t>(map.width()) + static_cast<std::size_t>(p.x); };
    for (std::uint32_t t = 0; t <= s.makespan; ++t) {
        std::fill(owner.begin(), owner.end(), -1);
        for (std::uint32_t i = 0; i < n; ++i) {
            const GridPoint p = s.at(i, t);
            if (!map.passable(p) || owner[key(p)] >= 0) return false;
            owner[key(p)] = i;
            if (t > 0) {
                const GridPoint q = s.at(i, t - 1);
                if (std::abs(p.x - q.x) + std::abs(p.y - q.y) > 1) return false;
                const std::int64_t j = before[key(p)];
                if (j >= 0 && j != i && s.at(static_cast<std::uint32_t>(j), t) == q) return false;
            }
        }
        before.swap(owner);
    }
    return true;
}

// mode "first": first solution (10 s limit). mode "anytime": first solution, then improvement until the
// thread CPU time reaches `cpu_limit` seconds (the LaCAM3 reference time of the instance).
void solve(benchmark::State& state, std::string map_name, int scen_index, std::size_t agents, double cpu_limit = 0) {
    const auto root = std::filesystem::path(GAMEPLAN_BENCHMARK_DATA_DIR) / "mapf";
    const GridMap map = io::load_movingai_map(root / "maps" / (map_name + ".map"));
    const io::ScenarioFile scen = io::load_movingai_scenarios(
        root / "scenarios" / (map_name + "-random-" + std::to_string(scen_index) + ".scen"));
    std::vector<GridPoint> starts, goals;
    for (std::size_t i = 0; i < agents; ++i) {
        starts.push_back(scen.scenarios[i].start);
        goals.push_back(scen.scenarios[i].goal);
    }
    CrowdSolver solver;
    CrowdSolution solution;
    Row row{cpu_limit > 0 ? "anytime" : "first", map_name, scen_index, agents};
    for (auto _ : state) {
        CrowdOptions options;
        options.budget.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(cpu_limit > 0 ? 120 : 10);
        const double t0 = thread_cpu_seconds();
        Status status = Status::InvalidQuery;
        if (cpu_limit <= 0) {
            status = solver.solve(map, starts, goals, options, solution);
        } else {
            options.anytime = true;
            // One step at a time; once a solution exists, the next step is taken only if it fits the
            // limit were it to cost as much as the dearest step since then (so the run does not overrun).
            status = solver.begin(map, starts, goals, options);
            double dearest = 0;
            while (status == Status::InProgress) {
                const double before = thread_cpu_seconds();
                if (solver.has_solution() && before - t0 + dearest > cpu_limit) {
                    solver.stop();
                    status = solver.status();
                    break;
                }
                const bool improving = solver.has_solution();
                status = solver.step(1);
                if (improving) dearest = std::max(dearest, thread_cpu_seconds() - before);
            }
            status = solver.finish(solution);
        }
        row.cpu = thread_cpu_seconds() - t0;
        row.solved = status == Status::Found && valid(map, starts, goals, solution);
        row.soc = row.solved ? solution.sum_of_costs : 0;
        row.lb = solver.lower_bound();
        row.makespan = row.solved ? solution.makespan : 0;
    }
    state.counters["solved"] = row.solved ? 1 : 0;
    state.counters["cpu_s"] = row.cpu;
    state.counters["soc_lb"] = row.lb ? static_cast<double>(row.soc) / static_cast<double>(row.lb) : 0;
    state.counters["soc"] = static_cast<double>(row.soc);
    state.counters["lb"] = static_cast<double>(row.lb);
    state.counters["makespan"] = row.makespan;
    state.counters["configurations"] = static_cast<double>(solver.stats().configurations);
    rows().push_back(row);
}

// LaCAM3 reference figures (first solution, one thread, *-random-1): CPU seconds.
struct Reference {
    const char* map;
    std::size_t agents;
    double cpu;
};
constexpr Reference kLacam3[] = {{"empty-32-32", 200, 0.09},           {"empty-32-32", 400, 0.33},
                                 {"random-32-32-20", 200, 0.15},       {"random-32-32-20", 400, 0.45},
                                 {"maze-32-32-2", 200, 0.20},          {"maze-32-32-2", 333, 0.56},
                                 {"room-32-32-4", 200, 0.17},          {"room-32-32-4", 341, 0.57},
                                 {"warehouse-10-20-10-2-1", 400, 1.33}, {"warehouse-10-20-10-2-1", 800, 3.76},
                                 {"den312d", 400, 0.81},               {"den312d", 800, 2.98}};

void register_all() {
    const auto root = std::filesystem::path(GAMEPLAN_BENCHMARK_DATA_DIR) / "mapf";
    if (!std::filesystem::is_directory(root)) {
        std::fprintf(stderr, "bench_crowd: no MAPF data at %s (set -DGAMEPLAN_BENCHMARK_DATA_DIR)\n", root.c_str());
        return;
    }
    const char* maps[] = {"empty-32-32", "random-32-32-20", "maze-32-32-2", "room-32-32-4", "warehouse-10-20-10-2-1",
                          "den312d"};
    for (const char* map : maps)
        for (int k = 1; k <= 2; ++k) {
            const auto file = root / "scenarios" / (std::string(map) + "-random-" + std::to_string(k) + ".scen");
            const std::size_t held = io::load_movingai_scenarios(file).scenarios.size();
            std::set<std::size_t> counts;
            for (const std::size_t n : {50u, 100u, 200u, 400u, 800u}) counts.insert(std::min<std::size_t>(n, held));
            for (const std::size_t n : counts)
                benchmark::RegisterBenchmark(
                    (std::string("crowd/") + map + "/random-" + std::to_string(k) + "/" + std::to_string(n)).c_str(),
                    [map = std::string(map), k, n](benchmark::State& s) { solve(s, map, k, n); })
                    ->Iterations(1)
                    ->Unit(benchmark::kMillisecond);
        }
    for (const Reference& r : kLacam3)
        benchmark::RegisterBenchmark(
            (std::string("crowd_anytime/") + r.map + "/random-1/" + std::to_string(r.agents)).c_str(),
            [r](benchmark::State& s) { solve(s, r.map, 1, r.agents, r.cpu); })
            ->Iterations(1)
            ->Unit(benchmark::kMillisecond);
}

void print_table() {
    if (rows().empty()) return;
    std::printf("\n| mode | map | scen | N | solved | CPU s | SoC / LB | SoC | LB | makespan |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for (const Row& r : rows())
        std::printf("| %s | %s | random-%d | %zu | %s | %.3f | %.3f | %llu | %llu | %u |\n", r.mode.c_str(), r.map.c_str(), r.scen, r.agents,
                    r.solved ? "yes" : "no", r.cpu, r.lb ? static_cast<double>(r.soc) / static_cast<double>(r.lb) : 0.0,
                    static_cast<unsigned long long>(r.soc), static_cast<unsigned long long>(r.lb), r.makespan);
}

}  // namespace

int main(int argc, char** argv) {
    register_all();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    print_table();
    return 0;
}
