// The shared classical-planning tasks (PDDL from the International Planning Competitions and PDDLGym;
// optimal costs and Fast Downward's search times and expansions in pddl/optimal.csv): grounding, and
// A* with LM-cut (forward), each task planned once per iteration; times are thread CPU seconds.
// Counters: cost (must equal optimal), expanded, fd_expanded, expansions_ratio (ours / Fast Downward's),
// search_s (our search, thread CPU seconds), fd_s, time_ratio (ours / Fast Downward's search time).
// At the end a per-task table and the totals go to standard error.
//   build/bench/bench_pddl --benchmark_filter=pddl/ 2> table.txt
#include <gameplan/goap/planner.hpp>
#include <gameplan/io/pddl.hpp>

#include <benchmark/benchmark.h>

#include <chrono>
#include <ctime>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace gameplan;

namespace {

struct Row {
    std::string domain, problem;
    double optimal = 0, fd_seconds = 0, fd_expansions = 0;
    // results of the last run
    bool ran = false;
    Status status = Status::InvalidQuery;
    double cost = 0, search_s = 0, ground_s = 0;
    std::uint64_t expanded = 0;
    std::size_t atoms = 0, actions = 0;
};

std::vector<std::unique_ptr<Row>> g_rows;

// CPU time of this thread in seconds (the machine may be shared: wall time would count other work).
double thread_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}
// Wall-clock limit per search; the figures are thread CPU times (the bar is 60 s of CPU on one core).
constexpr int kWallLimitSeconds = 900;
const std::filesystem::path kDir = std::filesystem::path(GAMEPLAN_BENCHMARK_DATA_DIR) / "pddl";

void plan_task(benchmark::State& state, Row& row, goap::Heuristic heuristic) {
    for (auto _ : state) {
        const double c0 = thread_cpu_seconds();
        const io::PddlTask task = io::load_pddl(kDir / row.domain / "domain.pddl", kDir / row.domain / row.problem);
        const double c1 = thread_cpu_seconds();
        const auto t1 = std::chrono::steady_clock::now();
        goap::Planner planner(task.domain);
        goap::PlanOptions o;
        o.direction = goap::Direction::Forward;
        o.heuristic = heuristic;
        o.budget.deadline = t1 + std::chrono::seconds(kWallLimitSeconds);
        const goap::PlanResult r = planner.plan(task.start, task.goal, o);
        const double c2 = thread_cpu_seconds();
        row.ran = true;
        row.status = r.status;
        row.cost = r.cost;
        row.expanded = r.stats.expanded;
        row.search_s = c2 - c1;
        row.ground_s = c1 - c0;
        row.atoms = task.domain.atom_count();
        row.actions = task.domain.action_count();
        benchmark::DoNotOptimize(r.cost);
    }
    state.counters["cost"] = row.status == Status::Found ? row.cost : -1;
    state.counters["optimal"] = row.optimal;
    state.counters["expanded"] = static_cast<double>(row.expanded);
    state.counters["fd_expanded"] = row.fd_expansions;
    state.counters["expansions_ratio"] = row.fd_expansions > 0 ? static_cast<double>(row.expanded) / row.fd_expansions : 0;
    state.counters["search_s"] = row.search_s;
    state.counters["fd_s"] = row.fd_seconds;
    state.counters["time_ratio"] = row.fd_seconds > 0 ? row.search_s / row.fd_seconds : 0;
    state.counters["ground_s"] = row.ground_s;
    if (row.status != Status::Found || row.cost != row.optimal) state.SkipWithError("not solved with the optimal cost");
}

void ground_task(benchmark::State& state, const Row& row) {
    std::size_t actions = 0;
    for (auto _ : state) {
        const io::PddlTask task = io::load_pddl(kDir / row.domain / "domain.pddl", kDir / row.domain / row.problem);
        actions = task.domain.action_count();
        benchmark::DoNotOptimize(actions);
    }
    state.counters["actions"] = static_cast<double>(actions);
}

void register_all() {
    std::ifstream csv(kDir / "optimal.csv");
    if (!csv) return;
    std::string line;
    std::getline(csv, line);
    while (std::getline(csv, line)) {
        std::vector<std::string> f;
        std::stringstream ss(line);
        for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
        if (f.size() < 6) continue;
        auto row = std::make_unique<Row>();
        row->domain = f[0];
        row->problem = f[1];
        row->optimal = std::stod(f[2]);
        row->fd_seconds = std::stod(f[4]);
        row->fd_expansions = std::stod(f[5]);
        Row* r = row.get();
        g_rows.push_back(std::move(row));
        const std::string name = r->domain + "/" + r->problem.substr(0, r->problem.size() - 5);
        benchmark::RegisterBenchmark(("pddl/lmcut/" + name).c_str(), [r](benchmark::State& s) { plan_task(s, *r, goap::Heuristic::LmCut); })
            ->Unit(benchmark::kMillisecond)
            ->Iterations(1);
        benchmark::RegisterBenchmark(("ground/" + name).c_str(), [r](benchmark::State& s) { ground_task(s, *r); })
            ->Unit(benchmark::kMillisecond);
    }
}

void print_table() {
    double ours = 0, fd = 0;
    int fewer = 0, solved = 0, ran = 0;
    std::fprintf(stderr, "%-34s %6s %6s %10s %10s %8s %9s %9s %8s %8s\n", "task", "cost", "opt", "expanded", "fd_exp",
                 "exp_ratio", "search_s", "fd_s", "t_ratio", "ground_s");
    for (const auto& r : g_rows) {
        if (!r->ran) continue;
        ++ran;
        const bool ok = r->status == Status::Found && r->cost == r->optimal;
        solved += ok;
        ours += r->search_s;
        fd += r->fd_seconds;
        if (static_cast<double>(r->expanded) < r->fd_expansions) ++fewer;
        std::fprintf(stderr, "%-34s %6.0f %6.0f %10llu %10.0f %8.2f %9.3f %9.3f %8.2f %8.3f%s\n",
                     (r->domain + "/" + r->problem).c_str(), ok ? r->cost : -1, r->optimal,
                     static_cast<unsigned long long>(r->expanded), r->fd_expansions,
                     r->fd_expansions > 0 ? static_cast<double>(r->expanded) / r->fd_expansions : 0, r->search_s, r->fd_seconds,
                     r->fd_seconds > 0 ? r->search_s / r->fd_seconds : 0, r->ground_s, ok ? "" : "  NOT SOLVED");
    }
    if (ran)
        std::fprintf(stderr, "solved optimally: %d of %d; total search time ours %.2f s, Fast Downward %.2f s; fewer expansions "
                             "than Fast Downward on %d tasks\n",
                     solved, ran, ours, fd, fewer);
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
