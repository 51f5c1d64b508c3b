// Random layered STRIPS tasks (goap/task_generator.hpp) of growing size, planned forward, backward and
// with the automatic direction (goap/auto_direction.hpp), with h_max and LM-cut. Each benchmark plans
// the 8 seeds of one size once (a wall-clock limit of kLimitSeconds per query) and reports how many it
// solved, their expansions and the thread CPU time; the per-seed table goes to stderr.
// Usage: bench_layered [--benchmark_filter=layered/100x500] 2> table.txt
#include <gameplan/goap/auto_direction.hpp>
#include <gameplan/goap/planner.hpp>
#include <gameplan/goap/task_generator.hpp>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

using namespace gameplan;
using namespace gameplan::goap;

namespace {

constexpr double kLimitSeconds = 5.0;
constexpr std::uint64_t kSeeds = 8;

struct Size {
    std::uint32_t atoms, actions, layers;
};
const Size kSizes[] = {{20, 50, 3}, {40, 120, 4}, {60, 200, 4}, {100, 500, 5}};

double thread_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

// direction: 0 forward, 1 backward, 2 automatic (both at once), 3 the defaults (PlanOptions{}: direction
// and heuristic by size; the heuristic argument is then ignored).
void BM_Layered(benchmark::State& state) {
    const Size size = kSizes[state.range(0)];
    const int direction = static_cast<int>(state.range(1));
    const Heuristic heuristic = direction == 3 ? Heuristic::BySize : state.range(2) ? Heuristic::LmCut : Heuristic::HMax;
    static const char* const names[] = {"forward", "backward", "auto", "default"};
    std::vector<GeneratedTask> tasks;
    for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
        LayeredTaskOptions o;
        o.atoms = size.atoms, o.actions = size.actions, o.layers = size.layers, o.delete_probability = 0.3, o.seed = seed;
        tasks.push_back(generate_layered_task(o));
    }
    std::uint64_t solved = 0, expanded = 0;
    double cpu = 0;
    for (auto _ : state) {
        solved = expanded = 0;
        cpu = 0;
        for (std::uint64_t seed = 0; seed < kSeeds; ++seed) {
            const GeneratedTask& t = tasks[seed];
            PlanOptions po;
            po.heuristic = heuristic;
            po.direction = direction == 0 ? Direction::Forward : direction == 3 ? Direction::BySize : Direction::Backward;
            po.budget.deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(kLimitSeconds));
            po.budget.max_memory_bytes = std::size_t{500} << 20;
            const double c0 = thread_seconds();
            PlanResult r;
            const char* chosen = names[direction];
            Heuristic p_heuristic = heuristic;
            if (direction == 2) {
                AutoDirectionPlanner p(t.domain);
                r = p.plan(t.start, t.goal, po);
                chosen = r.status == Status::Found || r.status == Status::NoPath ? (p.direction() == Direction::Forward ? "auto=fwd" : "auto=bwd") : "auto";
            } else {
                Planner p(t.domain);
                r = p.plan(t.start, t.goal, po);
                if (direction == 3) {
                    chosen = p.direction() == Direction::Forward ? "default=fwd" : "default=bwd";
                    p_heuristic = p.heuristic();
                }
            }
            const double c = thread_seconds() - c0;
            cpu += c;
            expanded += r.stats.expanded;
            solved += r.status == Status::Found || r.status == Status::NoPath;
            std::fprintf(stderr, "| %ux%u | %s | %s | %llu | %s | %g | %llu | %.3f |\n", size.atoms, size.actions,
                         std::string(to_string(direction == 3 ? p_heuristic : heuristic)).c_str(), chosen, static_cast<unsigned long long>(seed),
                         std::string(to_string(r.status)).c_str(), r.status == Status::Found ? r.cost : 0.0,
                         static_cast<unsigned long long>(r.stats.expanded), c);
        }
    }
    state.counters["solved"] = static_cast<double>(solved);
    state.counters["expanded"] = static_cast<double>(expanded);
    state.counters["cpu_s"] = cpu;
    state.SetLabel(std::to_string(size.atoms) + "x" + std::to_string(size.actions) + " " + std::string(to_string(heuristic)) + " " +
                   names[direction]);
}

void sizes(benchmark::internal::Benchmark* b) {
    for (int s = 0; s < 4; ++s) {
        for (int h = 0; h < 2; ++h)
            for (int d = 0; d < 3; ++d) b->Args({s, d, h});
        b->Args({s, 3, 0});
    }
}

}  // namespace

BENCHMARK(BM_Layered)->Name("layered")->Apply(sizes)->Iterations(1)->Unit(benchmark::kMillisecond);

BENCHMARK_MAIN();
