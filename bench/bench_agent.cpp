// Agent runtime benchmarks: agents per second when every agent replans every tick (plan + tick), the
// cost of ticks where nothing happens, and of ticks where the world changes but no plan breaks.
// Counters: agents/s (rate), replans and expansions per tick, and a checksum of adopted plan costs so
// that a speed-up cannot silently change the plans.
#include <gameplan/goap/agent.hpp>
#include <gameplan/goap/agent_batch.hpp>
#include <gameplan/io/domain_json.hpp>

#include <benchmark/benchmark.h>

#include <ctime>
#include <memory>
#include <string>

namespace {

using namespace gameplan;
using namespace gameplan::goap;

// Core time of the whole process (all threads), in seconds: the load-independent measure of work.
double process_cpu_seconds() {
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

const io::DomainFile& example(const char* name) {
    static const io::DomainFile shooter = io::load_domain_json(std::string(GAMEPLAN_SOURCE_DIR) + "/examples/goap/space_shooter.json");
    static const io::DomainFile hunger = io::load_domain_json(std::string(GAMEPLAN_SOURCE_DIR) + "/examples/goap/hunger.json");
    return std::string(name) == "space_shooter" ? shooter : hunger;
}

// A type whose every behaviour fails at once (the agent replans every tick) or runs "forever".
std::shared_ptr<const AgentType> make_type(const Domain& d, bool fail, bool dynamic_cost) {
    AgentTypeBuilder b(d, fail ? "failing" : "busy");
    for (std::uint32_t a = 0; a < d.action_count(); ++a) {
        if (fail) b.bind(d.action_name(ActionId(a)), Behaviour([](ActionContext&) { return ActionStatus::Failure; }));
        else b.bind(d.action_name(ActionId(a)), Behaviour([](ActionContext&) { return ActionStatus::Running; }));
    }
    if (dynamic_cost) {
        // A walking distance per agent (here: from its index), as issue 6's villagers will compute.
        const ActionId walk = d.find_action(d.find_action("go_to_restaurant").valid() ? "go_to_restaurant" : "chase");
        b.set_cost(d.action_name(walk), [](const PlanningContext& c) { return 20.0 + static_cast<double>(c.agent.id().index % 25); });
    }
    return b.build().type;
}

// Space shooter: a third healthy (aim, shoot), a third unsafe (evade, low-accuracy shot), a third with a
// weak player and ammunition (chase). Hunger: with or without vegetables / food.
void add_agents(AgentSystem& s, const io::DomainFile& f, std::shared_ptr<const AgentType> type, std::size_t n) {
    const Domain& d = f.domain;
    const Condition& goal = *f.default_goal();
    const bool shooter = d.find_atom("安全").valid();
    for (std::size_t i = 0; i < n; ++i) {
        AgentParams p;
        p.name = "a";
        p.type = type;
        p.goals = {AgentGoal{"goal", goal, 1, {}}};
        p.state = f.start;
        if (shooter) {
            if (i % 3 == 1) p.state.set(d.find_atom("安全"), false);
            if (i % 3 == 2) {
                p.state.set(d.find_atom("弹药充足"), true);
                p.state.set(d.find_atom("玩家无力"), true);
            }
        } else {
            if (i % 3 == 1) p.state.set(d.find_atom("has_vegetables"), true);
            if (i % 3 == 2) p.state.set(d.find_atom("has_food"), true);
        }
        (void)s.add_agent(std::move(p));
    }
}

// Every agent replans every tick: think (goal selection + one planner query each) + act (start the
// first action, which fails). Arguments: agents, threads, dynamic cost (0/1), plan cache (0/1). With
// the cache, agents in the same situation share answers (exact, see AgentSystemOptions); without it,
// every replan runs the planner's search.
template <const char* Domain>
void BM_AgentReplanEveryTick(benchmark::State& state) {
    const io::DomainFile& f = example(Domain);
    const std::size_t agents = static_cast<std::size_t>(state.range(0));
    const std::size_t threads = static_cast<std::size_t>(state.range(1));
    AgentSystemOptions options;
    options.plan_cache_entries = state.range(3) ? 1024 : 0;
    AgentSystem s(f.domain, options);
    add_agents(s, f, make_type(f.domain, true, state.range(2) != 0), agents);
    std::unique_ptr<ThreadPool> pool = threads > 1 ? std::make_unique<ThreadPool>(threads) : nullptr;
    for (int i = 0; i < 3; ++i) s.tick(pool.get());  // warm-up
    const AgentStats before = s.total_stats();
    const double cpu0 = process_cpu_seconds();
    for (auto _ : state) s.tick(pool.get());
    const double cpu = process_cpu_seconds() - cpu0;
    const AgentStats after = s.total_stats();
    const double ticks = static_cast<double>(state.iterations());
    state.counters["agents/s"] = benchmark::Counter(static_cast<double>(agents) * ticks, benchmark::Counter::kIsRate);
    state.counters["cpu_ms/tick"] = cpu * 1e3 / ticks;  // core time for all agents, all threads
    state.counters["replans/tick"] = static_cast<double>(after.replans - before.replans) / ticks;
    state.counters["expanded/tick"] = static_cast<double>(after.expanded - before.expanded) / ticks;
    state.counters["searches/tick"] = static_cast<double>((after.searches - after.cache_hits) - (before.searches - before.cache_hits)) / ticks;
    double cost_sum = 0;
    s.for_each_agent([&](Agent& a) { cost_sum += a.plan_cost(); });
    state.counters["plan_cost_sum"] = cost_sum;
}

// Nothing happens: agents run long actions (or idle after a failed search). Measures the per-tick cost
// of the runtime itself; replans/tick must be 0.
void BM_AgentQuietTicks(benchmark::State& state) {
    const io::DomainFile& f = example("space_shooter");
    const std::size_t agents = static_cast<std::size_t>(state.range(0));
    AgentSystem s(f.domain);
    add_agents(s, f, make_type(f.domain, false, false), agents);
    for (int i = 0; i < 3; ++i) s.tick();
    const AgentStats before = s.total_stats();
    for (auto _ : state) s.tick();
    const AgentStats after = s.total_stats();
    const double ticks = static_cast<double>(state.iterations());
    state.counters["agents/s"] = benchmark::Counter(static_cast<double>(agents) * ticks, benchmark::Counter::kIsRate);
    state.counters["replans/tick"] = static_cast<double>(after.replans - before.replans) / ticks;
    state.counters["updates/tick"] = static_cast<double>(after.updates - before.updates) / ticks;
}

// The world changes every tick (a shared atom no plan depends on) while agents run long actions:
// every agent re-checks its plan (preconditions, goal, priorities, plan simulation) but none replans.
void BM_AgentWorldChangesNoReplan(benchmark::State& state) {
    DomainBuilder b;
    b.add_atom("clock", true);
    for (const char* a : {"击杀玩家", "安全区内", "弹药充足", "玩家无力", "瞄准就绪", "安全"}) b.add_atom(a);
    (void)b.add_action("low_accuracy_shot", 1, {{"安全区内", true}}, {{"击杀玩家", true}});
    (void)b.add_action("chase", 4, {{"弹药充足", true}, {"玩家无力", true}}, {{"击杀玩家", true}});
    (void)b.add_action("aim", 3, {{"瞄准就绪", false}}, {{"瞄准就绪", true}});
    (void)b.add_action("shoot", 2, {{"瞄准就绪", true}}, {{"击杀玩家", true}});
    (void)b.add_action("evade", 1, {{"安全", false}}, {{"安全区内", true}});
    const Domain d = b.build();
    const std::size_t agents = static_cast<std::size_t>(state.range(0));
    AgentSystem s(d);
    const auto type = make_type(d, false, false);
    const Condition kill = [&] {
        Condition c = d.make_condition();
        c.set(d.find_atom("击杀玩家"), true);
        return c;
    }();
    for (std::size_t i = 0; i < agents; ++i) {
        AgentParams p;
        p.type = type;
        p.goals = {AgentGoal{"kill", kill, 1, {}}};
        p.state = d.make_state();
        p.state.set(d.find_atom("安全"), i % 2 == 0);
        (void)s.add_agent(std::move(p));
    }
    for (int i = 0; i < 3; ++i) s.tick();
    const AgentStats before = s.total_stats();
    bool clock = false;
    for (auto _ : state) {
        clock = !clock;
        (void)s.blackboard().set("clock", clock);
        s.tick();
    }
    const AgentStats after = s.total_stats();
    const double ticks = static_cast<double>(state.iterations());
    state.counters["agents/s"] = benchmark::Counter(static_cast<double>(agents) * ticks, benchmark::Counter::kIsRate);
    state.counters["replans/tick"] = static_cast<double>(after.replans - before.replans) / ticks;
}

// The planner alone on the same queries, for comparison with the runtime's replan cost.
void BM_PlannerOnlySpaceShooter(benchmark::State& state) {
    const io::DomainFile& f = example("space_shooter");
    const Domain& d = f.domain;
    Planner planner(d);
    WorldState s[3] = {f.start, f.start, f.start};
    s[1].set(d.find_atom("安全"), false);
    s[2].set(d.find_atom("弹药充足"), true);
    s[2].set(d.find_atom("玩家无力"), true);
    const Condition& goal = *f.default_goal();
    std::size_t i = 0;
    double cost = 0;
    for (auto _ : state) {
        const PlanResult r = planner.plan(s[i++ % 3], goal);
        cost += r.cost;
        benchmark::DoNotOptimize(r.plan.data());
    }
    state.counters["plans/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
    state.counters["mean_cost"] = cost / static_cast<double>(state.iterations());
}

constexpr char kShooter[] = "space_shooter";
constexpr char kHunger[] = "hunger";

}  // namespace

BENCHMARK_TEMPLATE(BM_AgentReplanEveryTick, kShooter)
    ->ArgNames({"agents", "threads", "dyncost", "cache"})
    ->ArgsProduct({{10000}, {1, 2}, {0, 1}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()  // CPU = core time of all threads; Time = wall clock
    ->UseRealTime();
BENCHMARK_TEMPLATE(BM_AgentReplanEveryTick, kHunger)
    ->ArgNames({"agents", "threads", "dyncost", "cache"})
    ->ArgsProduct({{10000}, {1, 2}, {0, 1}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->MeasureProcessCPUTime()  // CPU = core time of all threads; Time = wall clock
    ->UseRealTime();
BENCHMARK(BM_AgentQuietTicks)->ArgNames({"agents"})->Arg(1000)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_AgentWorldChangesNoReplan)->ArgNames({"agents"})->Arg(1000)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PlannerOnlySpaceShooter);

BENCHMARK_MAIN();
