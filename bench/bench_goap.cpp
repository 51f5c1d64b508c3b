// GOAP planner benchmarks: µs per plan and expansions for every shared domain in both directions, the
// one-word vs generic representation on the same domains, the cost of a query whose goal changed
// ("uncached") or whose start changed ("varied_start"), queries that skip the clock reads behind
// PlanResult::micros ("untimed"), and a deterministic scaling series. `load/huge_object/lint/N` lints a
// domain whose ignored `_notes` object has N keys (an input limit check: the time per key, `ns_per_key`,
// stays flat as N grows when reading is linear).
// Counters: `expanded` and `generated` per plan and `cost` (the plan cost: a checksum, so a speedup
// that changes results shows up).
//
// Run: build/bench/bench_goap --benchmark_min_time=0.2
#include <gameplan/goap/planner.hpp>
#include <gameplan/io/domain_json.hpp>
#include <gameplan/io/lint.hpp>

#include <benchmark/benchmark.h>

#include <filesystem>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace gameplan;
using namespace gameplan::goap;

namespace {

struct Problem {
    Domain domain;
    WorldState start;
    Condition goal;
};

void run(benchmark::State& state, const Problem& p, PlanOptions options) {
    Planner planner(p.domain);
    PlanResult r = planner.plan(p.start, p.goal, options);  // warm-up: sizes every buffer
    for (auto _ : state) {
        r = planner.plan(p.start, p.goal, options);
        benchmark::DoNotOptimize(r.cost);
    }
    if (r.status != Status::Found) state.SkipWithError("no plan found");
    state.counters["expanded"] = static_cast<double>(r.stats.expanded);
    state.counters["generated"] = static_cast<double>(r.stats.generated);
    state.counters["cost"] = r.cost;
    state.counters["length"] = static_cast<double>(r.plan.size());
    state.counters["relevant_atoms"] = static_cast<double>(planner.relevant_atom_count());
    state.counters["relevant_actions"] = static_cast<double>(planner.relevant_action_count());
}

// The same query, but alternating between "no cost overrides" and overrides equal to the domain's
// costs: the answer is identical, yet the planner cannot reuse its compiled goal, so this measures a
// query whose goal, mask or costs changed since the previous call.
void run_uncached(benchmark::State& state, const Problem& p, PlanOptions options) {
    Planner planner(p.domain);
    const std::span<const double> costs = p.domain.action_costs();
    PlanResult r = planner.plan(p.start, p.goal, options);
    bool flip = false;
    for (auto _ : state) {
        options.costs = flip ? costs : std::span<const double>{};
        flip = !flip;
        r = planner.plan(p.start, p.goal, options);
        benchmark::DoNotOptimize(r.cost);
    }
    if (r.status != Status::Found) state.SkipWithError("no plan found");
    state.counters["expanded"] = static_cast<double>(r.stats.expanded);
    state.counters["generated"] = static_cast<double>(r.stats.generated);
    state.counters["cost"] = r.cost;
    state.counters["length"] = static_cast<double>(r.plan.size());
}

// A second start for run_varied_start(): the start with one atom flipped, the first atom (in id order)
// that some action reads, that the goal does not mention, and whose flip keeps the optimal cost (else
// the first such atom whose flip keeps a plan at all). Such an atom is relevant whenever the reading
// action is, so the planner cannot reuse anything it derived from the previous start. Returns false
// if no atom qualifies.
bool varied_start(const Problem& p, PlanOptions options, WorldState& out) {
    Planner planner(p.domain);
    const PlanResult base = planner.plan(p.start, p.goal, options);
    if (base.status != Status::Found) return false;
    const double cost = base.cost;
    for (const bool same_cost : {true, false})
        for (std::uint32_t i = 0; i < p.domain.atom_count(); ++i) {
            const AtomId a(i);
            if (p.goal.cares(a)) continue;
            bool read = false;
            for (std::uint32_t k = 0; k < p.domain.action_count() && !read; ++k)
                read = p.domain.preconditions(ActionId(k)).cares(a);
            if (!read) continue;
            out = p.start;
            out.set(a, !p.start.get(a));
            const PlanResult r = planner.plan(out, p.goal, options);
            if (r.status == Status::Found && (!same_cost || r.cost == cost)) return true;
        }
    return false;
}

// The same goal, alternating between two starts that differ in one relevant atom (varied_start()):
// every query recomputes its start-dependent part (h_max from the start, reachable actions), as an
// agent whose world keeps changing does. Counters are those of the last plan.
void run_varied_start(benchmark::State& state, const Problem& p, PlanOptions options) {
    WorldState other;
    if (!varied_start(p, options, other)) {
        state.SkipWithError("no atom to vary");
        return;
    }
    Planner planner(p.domain);
    PlanResult r = planner.plan(other, p.goal, options);
    bool flip = false;
    for (auto _ : state) {
        r = planner.plan(flip ? other : p.start, p.goal, options);
        flip = !flip;
        benchmark::DoNotOptimize(r.cost);
    }
    if (r.status != Status::Found) state.SkipWithError("no plan found");
    state.counters["expanded"] = static_cast<double>(r.stats.expanded);
    state.counters["generated"] = static_cast<double>(r.stats.generated);
    state.counters["cost"] = r.cost;
    state.counters["length"] = static_cast<double>(r.plan.size());
}

// ---- deterministic generated domains (raw mt19937 output only, so identical on every platform) ----

std::string cat(std::string prefix, std::size_t n) {
    prefix += std::to_string(n);
    return prefix;
}

// Ladder: `rungs` rungs climbed by cost-1 steps or cost-3 skips, the rest of the atoms and actions are
// distractors (random STRIPS actions over the other atoms, some reading rungs). Optimal cost rungs - 1.
Problem ladder(std::size_t atoms, std::size_t actions, std::uint32_t seed) {
    std::mt19937 rng(seed);
    const std::size_t rungs = std::min<std::size_t>(atoms / 2, 1 + actions / 4);
    DomainBuilder b;
    for (std::size_t i = 0; i < atoms; ++i) b.add_atom(cat("a", i));
    const auto at = [](std::size_t i) { return AtomId(static_cast<std::uint32_t>(i)); };
    std::size_t made = 0;
    for (std::size_t i = 0; i + 1 < rungs; ++i, ++made) {
        const Literal pre[] = {{at(i), true}};
        const Literal eff[] = {{at(i + 1), true}};
        (void)b.add_action(cat("climb_", i), 1, pre, eff);
    }
    for (std::size_t i = 0; i + 2 < rungs && made < actions / 2; ++i, ++made) {
        const Literal pre[] = {{at(i), true}};
        const Literal eff[] = {{at(i + 2), true}};
        (void)b.add_action(cat("skip_", i), 3, pre, eff);
    }
    for (std::size_t k = 0; made < actions; ++k, ++made) {
        const std::size_t other = atoms - rungs;
        std::vector<Literal> pre{{at(rungs + rng() % other), rng() % 2 == 0}};
        if (rng() % 4 == 0) pre.push_back({at(rng() % rungs), true});
        const Literal eff[] = {{at(rungs + rng() % other), rng() % 2 == 0}, {at(rungs + rng() % other), rng() % 2 == 0}};
        (void)b.add_action(cat("dist_", k), 1 + rng() % 3, pre, eff);
    }
    Problem p{b.build(), {}, {}};
    p.start = p.domain.make_state();
    p.start.set(at(0), true);
    p.goal = p.domain.make_condition();
    p.goal.set(at(rungs - 1), true);
    return p;
}

// Random STRIPS with a planted solution: random actions (1-3 preconditions, 1-2 effects, cost 1-5);
// the goal is 3 literals of the state a random 8-step walk from the start reaches that differ from
// the start. Every action can touch every atom, so relevance prunes little: a stress test.
Problem random_strips(std::size_t atoms, std::size_t actions, std::uint32_t seed) {
    std::mt19937 rng(seed);
    DomainBuilder b;
    for (std::size_t i = 0; i < atoms; ++i) b.add_atom(cat("p", i));
    const auto at = [&](std::size_t i) { return AtomId(static_cast<std::uint32_t>(i)); };
    for (std::size_t a = 0; a < actions; ++a) {
        std::vector<Literal> pre, eff;
        const std::size_t npre = 1 + rng() % 3, neff = 1 + rng() % 2;
        for (std::size_t k = 0; k < npre; ++k) pre.push_back({at(rng() % atoms), rng() % 2 == 0});
        for (std::size_t k = 0; k < neff; ++k) eff.push_back({at(rng() % atoms), rng() % 2 == 0});
        (void)b.add_action(cat("a", a), 1 + rng() % 5, pre, eff);
    }
    Problem p{b.build(), {}, {}};
    p.start = p.domain.make_state();
    for (std::size_t i = 0; i < atoms; ++i) p.start.set(at(i), rng() % 2 == 0);
    WorldState s = p.start;
    for (int step = 0, tries = 0; step < 8 && tries < 100000; ++tries) {
        const ActionId a(static_cast<std::uint32_t>(rng() % p.domain.action_count()));
        if (!p.domain.applicable(a, s)) continue;
        s.apply(p.domain.effects(a));
        ++step;
    }
    p.goal = p.domain.make_condition();
    std::vector<std::size_t> changed;
    for (std::size_t i = 0; i < atoms; ++i)
        if (s.get(at(i)) != p.start.get(at(i))) changed.push_back(i);
    for (std::size_t k = 0; k < changed.size() && k < 3; ++k) p.goal.set(at(changed[k]), s.get(at(changed[k])));
    return p;
}

// ---- registration -----------------------------------------------------------------------------------

std::vector<std::unique_ptr<Problem>> g_problems;

const Problem* keep(Problem p) {
    g_problems.push_back(std::make_unique<Problem>(std::move(p)));
    return g_problems.back().get();
}

void register_problem(const std::string& name, const Problem* p, bool both_representations, bool forward = true) {
    // The defaults (PlanOptions{}: direction and heuristic by size, docs/goap.md).
    benchmark::RegisterBenchmark((name + "/default").c_str(), [p](benchmark::State& s) { run(s, *p, PlanOptions{}); })
        ->Unit(benchmark::kMicrosecond);
    for (const Direction dir : {Direction::Forward, Direction::Backward}) {
        if (dir == Direction::Forward && !forward) continue;
        PlanOptions o;
        o.direction = dir;
        o.heuristic = Heuristic::HMax;  // the rows below measure h_max in each direction
        benchmark::RegisterBenchmark((name + "/" + std::string(to_string(dir))).c_str(),
                                     [p, o](benchmark::State& s) { run(s, *p, o); })
            ->Unit(benchmark::kMicrosecond);
        if (both_representations) {
            benchmark::RegisterBenchmark((name + "/" + std::string(to_string(dir)) + "/uncached").c_str(),
                                         [p, o](benchmark::State& s) { run_uncached(s, *p, o); })
                ->Unit(benchmark::kMicrosecond);
            benchmark::RegisterBenchmark((name + "/" + std::string(to_string(dir)) + "/varied_start").c_str(),
                                         [p, o](benchmark::State& s) { run_varied_start(s, *p, o); })
                ->Unit(benchmark::kMicrosecond);
            PlanOptions untimed = o;
            untimed.measure_time = false;
            benchmark::RegisterBenchmark((name + "/" + std::string(to_string(dir)) + "/untimed").c_str(),
                                         [p, untimed](benchmark::State& s) { run(s, *p, untimed); })
                ->Unit(benchmark::kMicrosecond);
            benchmark::RegisterBenchmark((name + "/" + std::string(to_string(dir)) + "/varied_start/untimed").c_str(),
                                         [p, untimed](benchmark::State& s) { run_varied_start(s, *p, untimed); })
                ->Unit(benchmark::kMicrosecond);
            o.force_generic_representation = true;
            benchmark::RegisterBenchmark((name + "/" + std::string(to_string(dir)) + "/generic").c_str(),
                                         [p, o](benchmark::State& s) { run(s, *p, o); })
                ->Unit(benchmark::kMicrosecond);
        }
    }
}

// A valid domain with one ignored object of `keys` members, and an error after it (so that lint reads the
// document twice: the loader stops at the error, the tolerant reader goes on).
std::string huge_object_domain(std::size_t keys) {
    std::string text = R"({"_notes": {)";
    for (std::size_t i = 0; i < keys; ++i) text.append(i ? ",\"k" : "\"k").append(std::to_string(i)).append("\": 1");
    return text + R"(}, "actions": [{"name": "eat", "cost": -1, "effects": {"fed": true}}], "goal": {"fed": true}})";
}

void BM_LintHugeObject(benchmark::State& state) {
    const auto keys = static_cast<std::size_t>(state.range(0));
    const std::string text = huge_object_domain(keys);
    std::size_t findings = 0;
    for (auto _ : state) {
        const io::LintReport r = io::lint_domain_text(text, io::DomainFormat::Json, "huge.json");
        findings = r.findings.size();
        benchmark::DoNotOptimize(findings);
    }
    state.counters["findings"] = static_cast<double>(findings);
    state.counters["ns_per_key"] =
        benchmark::Counter(static_cast<double>(keys) * 1e-9, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void register_all() {
    benchmark::RegisterBenchmark("load/huge_object/lint", BM_LintHugeObject)
        ->Arg(25000)
        ->Arg(100000)
        ->Arg(400000)
        ->Unit(benchmark::kMillisecond);
    const std::filesystem::path dir = std::filesystem::path(GAMEPLAN_BENCHMARK_DATA_DIR) / "goap";
    if (std::filesystem::is_directory(dir)) {
        std::map<std::string, std::filesystem::path> files;  // sorted: stable report order
        for (const auto& e : std::filesystem::directory_iterator(dir))
            if (e.path().extension() == ".json") files[e.path().stem().string()] = e.path();
        for (const auto& [stem, path] : files) {
            io::DomainFile f = io::load_domain_json(path);
            const Problem* p = keep(Problem{std::move(f.domain), std::move(f.start), std::move(*f.goal)});
            register_problem("shared/" + stem, p, true);
        }
    }
    for (const std::string example : {"hunger", "space_shooter"}) {
        io::DomainFile f = io::load_domain_json(std::filesystem::path(GAMEPLAN_SOURCE_DIR) / "examples/goap" / (example + ".json"));
        const Problem* p = keep(Problem{std::move(f.domain), std::move(f.start), std::move(*f.goal)});
        register_problem("example/" + example, p, true);
    }
    // Domains with integer and enumerated variables (planned forward by the numeric engine whatever the
    // requested direction, so only "forward" is registered).
    for (const std::string example : {"guard_numbers", "wood_collection"}) {
        io::DomainFile f = io::load_domain_json(std::filesystem::path(GAMEPLAN_SOURCE_DIR) / "examples/goap" / (example + ".json"));
        const Problem* p = keep(Problem{std::move(f.domain), std::move(f.start), std::move(*f.goal)});
        PlanOptions o;
        o.direction = Direction::Forward;
        benchmark::RegisterBenchmark(("numeric/" + example).c_str(), [p, o](benchmark::State& s) { run(s, *p, o); })
            ->Unit(benchmark::kMicrosecond);
    }
    const std::pair<std::size_t, std::size_t> sizes[] = {{64, 20}, {64, 200}, {128, 200}, {256, 500}, {512, 1000}, {1024, 2000}};
    for (const auto& [atoms, actions] : sizes) {
        register_problem(cat(cat("scaling/ladder/atoms:", atoms) + "/actions:", actions), keep(ladder(atoms, actions, 1)), false);
        // Forward search on the larger random domains takes seconds per plan (h_max per generated
        // state, tens of thousands of states): it is left out of the series (see docs/benchmarks.md).
        register_problem(cat(cat("scaling/random/atoms:", atoms) + "/actions:", actions), keep(random_strips(atoms, actions, 7)), false,
                         atoms <= 256);
    }
}

}  // namespace

int main(int argc, char** argv) {
    register_all();
    benchmark::Initialize(&argc, argv);
    if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
