// Pathfinding at scale on the shared MovingAI maps: islands (build, unreachable queries, incremental
// updates), dead-end pruning, distance fields and nearest-of-many, the frame-budgeted request queue, and
// batches on one and two threads. Counters carry checksums so a speedup cannot silently change results.
//
//   build/bench/bench_scale --benchmark_min_time=0.2
//   build/bench/bench_scale --benchmark_filter='batch' --benchmark_min_time=1
//
// Each map uses a fixed sample of its scenarios (every k-th line, at most kSample).
//
// Timing. The machine these figures come from is shared: other jobs keep both cores busy, so wall-clock
// time per query is inflated by however long the OS schedules others. The custom counters of the
// single-threaded benchmarks are therefore measured in *thread CPU time* (CLOCK_THREAD_CPUTIME_ID), like
// the "CPU" column; the batch benchmark reports both wall-clock throughput and throughput per CPU-second.
#include <gameplan/io/movingai.hpp>
#include "shared_scenarios.hpp"
#include <gameplan/path/batch.hpp>
#include <gameplan/path/dead_ends.hpp>
#include <gameplan/path/distance_field.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/islands.hpp>
#include <gameplan/path/request_queue.hpp>

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <sys/resource.h>
#include <time.h>

using namespace gameplan;
using namespace gameplan::path;

namespace {

constexpr std::size_t kSample = 128;
using Clock = std::chrono::steady_clock;

using bench::MapCase;

std::vector<std::unique_ptr<MapCase>>& cases() {
    static std::vector<std::unique_ptr<MapCase>> all;
    return all;
}

std::vector<GridPoint> passable_cells(const GridMap& map, std::size_t count, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<GridPoint> cells;
    while (cells.size() < count) {
        const GridPoint p{int(rng() % unsigned(map.width())), int(rng() % unsigned(map.height()))};
        if (map.passable(p)) cells.push_back(p);
    }
    return cells;
}

void load_cases() {
    bench::load_shared_cases(cases(), kSample, "bench_scale");
    if (cases().empty()) return;
    // The shared maps have one island each, except AR0011SR (2) and Aftershock (6): add a 512 x 512
    // random map with 45 % obstacles, not cleaned up, whose thousands of islands make unreachable
    // queries common. Its sample queries are reachable pairs, found with the islands.
    auto c = std::make_unique<MapCase>();
    c->name = "synthetic-random512-45";
    c->map.reset(512, 512);
    std::mt19937 rng(45);
    for (int y = 0; y < 512; ++y)
        for (int x = 0; x < 512; ++x)
            if (rng() % 100 < 45) c->map.set_passable({x, y}, false);
    Islands islands;
    islands.build(c->map);
    const std::vector<GridPoint> cells = passable_cells(c->map, 20000, 46);
    for (std::size_t i = 0; i + 1 < cells.size() && c->sample.size() < kSample; i += 2)
        if (islands.island(cells[i]) == islands.island(cells[i + 1]) && islands.island_size(islands.island(cells[i])) > 1000) {
            io::Scenario s;
            s.start = cells[i];
            s.goal = cells[i + 1];
            c->sample.push_back(s);
        }
    cases().push_back(std::move(c));
}

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

/// CPU time of the calling thread, in seconds.
double thread_cpu_now() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}
double cpu_since(double t0) { return thread_cpu_now() - t0; }

/// User + system CPU time of the whole process (all threads), in seconds.
double process_cpu_seconds() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + 1e-6 * double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

// ---- islands ------------------------------------------------------------------------------------------

void bm_islands_build(benchmark::State& state, const MapCase* c) {
    Islands islands;
    for (auto _ : state) {
        islands.build(c->map);
        benchmark::DoNotOptimize(islands.island_count());
    }
    state.counters["islands"] = double(islands.island_count());
    state.counters["cells"] = double(c->map.cell_count());
}

/// Pairs of passable cells on different islands (empty if the map has one island): a random cell of the
/// map, then a random cell of another island, so small islands are represented too.
std::vector<std::pair<GridPoint, GridPoint>> unreachable_pairs(const MapCase& c, const Islands& islands, std::size_t count) {
    std::vector<std::pair<GridPoint, GridPoint>> pairs;
    if (islands.island_count() < 2) return pairs;
    std::vector<std::vector<GridPoint>> by_island;
    std::vector<std::uint32_t> ids;
    for (int y = 0; y < c.map.height(); ++y)
        for (int x = 0; x < c.map.width(); ++x) {
            const std::uint32_t id = islands.island({x, y});
            if (id == Islands::kNoIsland) continue;
            const auto it = std::find(ids.begin(), ids.end(), id);
            if (it == ids.end()) {
                ids.push_back(id);
                by_island.push_back({{x, y}});
            } else {
                by_island[std::size_t(it - ids.begin())].push_back({x, y});
            }
            if (ids.size() > 64) break;  // plenty of islands to draw from
        }
    std::mt19937 rng(7);
    const std::vector<GridPoint> starts = passable_cells(c.map, count, 8);
    for (const GridPoint& a : starts) {
        std::size_t other = rng() % by_island.size();
        if (ids[other] == islands.island(a)) other = (other + 1) % by_island.size();
        const auto& cells = by_island[other];
        pairs.emplace_back(a, cells[rng() % cells.size()]);
    }
    return pairs;
}

// An unreachable query through GridPathfinder::find_path with the islands precheck: begin, the O(1)
// proof, finish. The bar is < 1 µs per query.
void bm_unreachable_with_islands(benchmark::State& state, const MapCase* c) {
    Islands islands;
    islands.build(c->map);
    const auto pairs = unreachable_pairs(*c, islands, 256);
    if (pairs.empty()) {
        state.SkipWithError("one island only");
        return;
    }
    GridPathfinder finder;
    finder.reserve(c->map);
    GridPath out;
    GridSearchOptions options;
    options.islands = &islands;
    std::uint64_t queries = 0, expanded = 0, no_path = 0;
    const double t0 = thread_cpu_now();
    for (auto _ : state)
        for (const auto& [a, b] : pairs) {
            no_path += finder.find_path(c->map, a, b, options, out) == Status::NoPath;
            expanded += finder.stats().expanded;
            ++queries;
        }
    state.counters["ns_per_query"] = cpu_since(t0) * 1e9 / double(queries);
    state.counters["expanded_per_query"] = double(expanded) / double(queries);
    state.counters["no_path_fraction"] = double(no_path) / double(queries);
    state.counters["pairs"] = double(pairs.size());
}

// The same unreachable queries without the precheck: A* floods the start's island first.
void bm_unreachable_without_islands(benchmark::State& state, const MapCase* c) {
    Islands islands;
    islands.build(c->map);
    auto pairs = unreachable_pairs(*c, islands, 16);
    if (pairs.empty()) {
        state.SkipWithError("one island only");
        return;
    }
    GridPathfinder finder;
    finder.reserve(c->map);
    GridPath out;
    std::uint64_t queries = 0, expanded = 0;
    const double t0 = thread_cpu_now();
    for (auto _ : state)
        for (const auto& [a, b] : pairs) {
            benchmark::DoNotOptimize(finder.find_path(c->map, a, b, {}, out));
            expanded += finder.stats().expanded;
            ++queries;
        }
    state.counters["us_per_query"] = cpu_since(t0) * 1e6 / double(queries);
    state.counters["expanded_per_query"] = double(expanded) / double(queries);
}

// Incremental updates: block `kEvents` random passable cells one by one, then open them again in
// reverse order (the map ends as it began). Eager resolves possible splits at once; Lazy defers them to
// one refresh between the two halves. Reports µs per event of each half.
constexpr std::size_t kEvents = 200;

void bm_islands_update(benchmark::State& state, const MapCase* c, IslandUpdate policy) {
    GridMap map = c->map;
    Islands islands;
    islands.build(map, GridSearchOptions{}, policy);
    const std::vector<GridPoint> cells = passable_cells(map, kEvents, 11);
    double block_s = 0, refresh_s = 0, open_s = 0;
    std::uint64_t rounds = 0;
    for (auto _ : state) {
        double t0 = thread_cpu_now();
        for (const GridPoint& p : cells) islands.set_passable(map, p, false);
        block_s += cpu_since(t0);
        t0 = thread_cpu_now();
        islands.refresh();
        refresh_s += cpu_since(t0);
        t0 = thread_cpu_now();
        for (auto it = cells.rbegin(); it != cells.rend(); ++it) islands.set_passable(map, *it, true);
        open_s += cpu_since(t0);
        ++rounds;
    }
    const double events = double(rounds) * double(kEvents);
    state.counters["block_us_per_event"] = block_s * 1e6 / events;
    state.counters["refresh_us_per_round"] = refresh_s * 1e6 / double(rounds);
    state.counters["open_us_per_event"] = open_s * 1e6 / events;
    state.counters["splits_per_round"] = double(islands.stats().splits) / double(rounds);
    state.counters["split_searches_per_round"] = double(islands.stats().split_searches) / double(rounds);
    state.counters["searched_cells_per_round"] = double(islands.stats().searched_cells) / double(rounds);
    state.counters["islands"] = double(islands.island_count());
}

// ---- dead ends ------------------------------------------------------------------------------------------

void bm_astar(benchmark::State& state, const MapCase* c, bool dead_ends) {
    DeadEnds dead;
    const double t0 = thread_cpu_now();
    if (dead_ends) dead.build(c->map);
    const double build_ms = cpu_since(t0) * 1e3;
    GridPathfinder finder;
    finder.reserve(c->map);
    GridPath out;
    GridSearchOptions options;
    if (dead_ends) options.dead_ends = &dead;
    std::uint64_t queries = 0, expanded = 0;
    double checksum = 0;
    for (const auto& s : c->sample) {
        if (finder.find_path(c->map, s.start, s.goal, options, out) != Status::Found) state.SkipWithError("no path");
        checksum += out.cost;
    }
    const double t1 = thread_cpu_now();
    for (auto _ : state)
        for (const auto& s : c->sample) {
            benchmark::DoNotOptimize(finder.find_path(c->map, s.start, s.goal, options, out));
            expanded += finder.stats().expanded;
            ++queries;
        }
    state.counters["us_per_query"] = cpu_since(t1) * 1e6 / double(queries);
    state.counters["expanded_per_query"] = double(expanded) / double(queries);
    state.counters["cost_checksum"] = checksum;
    if (dead_ends) {
        state.counters["build_ms"] = build_ms;
        state.counters["regions"] = double(dead.region_count());
        state.counters["cells_in_regions"] = double(dead.cells_in_regions());
    }
}

// ---- distance fields and nearest-of-many ----------------------------------------------------------------

void bm_distance_field(benchmark::State& state, const MapCase* c) {
    DistanceField field;
    field.reserve(c->map);
    const GridPoint source = c->sample.front().start;
    std::uint64_t floods = 0;
    const double t0 = thread_cpu_now();
    for (auto _ : state) {
        benchmark::DoNotOptimize(field.compute(c->map, source));
        ++floods;
    }
    state.counters["ms_per_flood"] = cpu_since(t0) * 1e3 / double(floods);
    state.counters["settled"] = double(field.expanded());
    state.counters["ns_per_cell"] = cpu_since(t0) * 1e9 / double(floods) / double(field.expanded());
}

// "Closest of 10 trees": one nearest-of-many search vs ten separate A* searches, same answer.
void bm_nearest(benchmark::State& state, const MapCase* c, bool one_search) {
    std::mt19937 rng(5);
    const std::vector<GridPoint> cells = passable_cells(c->map, 64 * 11, 13);
    NearestTargets nearest_finder;
    nearest_finder.reserve(c->map);
    GridPathfinder finder;
    finder.reserve(c->map);
    GridPath out;
    std::uint64_t queries = 0, expanded = 0;
    double checksum = 0;
    const double t0 = thread_cpu_now();
    for (auto _ : state) {
        checksum = 0;
        for (std::size_t q = 0; q < 64; ++q) {
            const GridPoint from = cells[q * 11];
            const std::span<const GridPoint> targets(cells.data() + q * 11 + 1, 10);
            double best = std::numeric_limits<double>::infinity();
            if (one_search) {
                const NearestTarget r = nearest_finder.find(c->map, from, targets);
                best = r.cost;
                expanded += r.expanded;
            } else {
                for (const GridPoint& t : targets) {
                    if (finder.find_path(c->map, from, t, {}, out) == Status::Found) best = std::min(best, out.cost);
                    expanded += finder.stats().expanded;
                }
            }
            if (best < std::numeric_limits<double>::infinity()) checksum += best;
            ++queries;
        }
    }
    state.counters["us_per_query"] = cpu_since(t0) * 1e6 / double(queries);
    state.counters["expanded_per_query"] = double(expanded) / double(queries);
    state.counters["cost_checksum"] = checksum;
}

// ---- request queue ----------------------------------------------------------------------------------------

// The sample through the queue with a budget per update; compares the time with the searches alone and
// checks the budget in every update.
void bm_request_queue(benchmark::State& state, const MapCase* c, std::uint64_t budget, std::uint32_t lanes) {
    PathRequestQueue queue(c->map, QueueOptions{lanes, 0, true});
    queue.reserve(c->sample.size(), 4096);
    PathResult result;
    result.path.cells.reserve(4096);
    std::uint64_t updates = 0, expanded = 0, over_budget = 0, requests = 0;
    double checksum = 0;
    const double t0 = thread_cpu_now();
    for (auto _ : state) {
        checksum = 0;
        for (const auto& s : c->sample) (void)queue.submit({s.start, s.goal});
        while (queue.size() > 0) {
            const QueueUpdateStats stats = queue.update(budget);
            over_budget += stats.expanded > budget;
            expanded += stats.expanded;
            ++updates;
            for (const PathHandle h : queue.completed()) {
                (void)queue.take(h, result);
                checksum += result.path.cost;
                ++requests;
            }
        }
    }
    const double seconds = cpu_since(t0);
    state.counters["us_per_request"] = seconds * 1e6 / double(requests);
    state.counters["ns_per_expansion"] = seconds * 1e9 / double(expanded);
    state.counters["updates_per_request"] = double(updates) / double(requests);
    state.counters["us_per_update"] = seconds * 1e6 / double(updates);
    state.counters["updates_over_budget"] = double(over_budget);
    state.counters["cost_checksum"] = checksum;
}

// ---- batches --------------------------------------------------------------------------------------------

/// CPU time (ns) each thread of this process has run so far, by thread id, from
/// /proc/self/task/<tid>/schedstat (first field: time on a CPU, in ns). Empty where /proc is absent.
std::vector<std::pair<long, double>> thread_cpu_ns() {
    std::vector<std::pair<long, double>> out;
    std::error_code ec;
    for (const auto& task : std::filesystem::directory_iterator("/proc/self/task", ec)) {
        std::FILE* f = std::fopen((task.path() / "schedstat").c_str(), "r");
        if (!f) continue;
        double on_cpu = 0;
        if (std::fscanf(f, "%lf", &on_cpu) == 1) out.emplace_back(std::stol(task.path().filename().string()), on_cpu);
        std::fclose(f);
    }
    return out;
}

// The sample (twice) as one batch, on `threads` threads. Reports wall-clock throughput, throughput per
// CPU-second (user + system time of all threads) and the CPU time of the busiest thread. On a shared,
// oversubscribed machine the wall figure only shows how much CPU the OS granted; the busiest thread's CPU
// time is what the batch would take with a free core per thread (its critical path, load imbalance and
// any slowdown from the other thread included), so queries / busiest-thread-CPU is the projected
// throughput.
void bm_batch(benchmark::State& state, const MapCase* c, unsigned threads) {
    std::vector<PathQuery> queries;
    for (int repeat = 0; repeat < 2; ++repeat)
        for (const auto& s : c->sample) queries.push_back({s.start, s.goal});
    std::vector<PathQueryResult> results(queries.size());
    BatchPathfinder pool(threads);
    pool.run(c->map, queries, results);  // warm-up: every context sized
    std::uint64_t answered = 0, expanded = 0;
    double checksum = 0;
    const auto before = thread_cpu_ns();
    const double cpu0 = process_cpu_seconds();
    const auto t0 = Clock::now();
    for (auto _ : state) {
        pool.run(c->map, queries, results);
        answered += queries.size();
        for (const auto& r : results) expanded += r.expanded;
    }
    const double wall = seconds_since(t0), cpu = process_cpu_seconds() - cpu0;
    double busiest = 0;
    for (const auto& [tid, ns] : thread_cpu_ns()) {
        double start = 0;
        for (const auto& [tid0, ns0] : before)
            if (tid0 == tid) start = ns0;
        busiest = std::max(busiest, (ns - start) * 1e-9);
    }
    state.counters["busiest_thread_cpu_s"] = busiest;
    if (busiest > 0) state.counters["projected_queries_per_s"] = double(answered) / busiest;
    for (const auto& r : results) checksum += r.cost;
    state.counters["queries_per_s"] = double(answered) / wall;
    state.counters["queries_per_cpu_s"] = double(answered) / cpu;
    state.counters["cpu_utilisation"] = cpu / wall;  // ~threads when every thread had a core
    state.counters["expanded_per_query"] = double(expanded) / double(answered);
    state.counters["cost_checksum"] = checksum;
}

}  // namespace

int main(int argc, char** argv) {
    load_cases();
    for (const auto& c : cases()) {
        const MapCase* m = c.get();
        const std::string& n = c->name;
        benchmark::RegisterBenchmark(("islands_build/" + n).c_str(), bm_islands_build, m)->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("unreachable_islands/" + n).c_str(), bm_unreachable_with_islands, m)
            ->Unit(benchmark::kMicrosecond);
        benchmark::RegisterBenchmark(("unreachable_search/" + n).c_str(), bm_unreachable_without_islands, m)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("islands_update_eager/" + n).c_str(), bm_islands_update, m, IslandUpdate::Eager)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("islands_update_lazy/" + n).c_str(), bm_islands_update, m, IslandUpdate::Lazy)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("astar/" + n).c_str(), bm_astar, m, false)->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("astar_dead_ends/" + n).c_str(), bm_astar, m, true)->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("distance_field/" + n).c_str(), bm_distance_field, m)->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("nearest_of_10_one_search/" + n).c_str(), bm_nearest, m, true)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("nearest_of_10_ten_searches/" + n).c_str(), bm_nearest, m, false)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("request_queue_1000/" + n).c_str(), bm_request_queue, m, 1000, 1)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(("request_queue_1000_4lanes/" + n).c_str(), bm_request_queue, m, 1000, 4)
            ->Unit(benchmark::kMillisecond);
        for (const unsigned threads : {1u, 2u})
            benchmark::RegisterBenchmark(("batch/" + n + "/threads:" + std::to_string(threads)).c_str(), bm_batch, m, threads)
                ->Unit(benchmark::kMillisecond)
                ->UseRealTime();
    }
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
