// `gameplan simulate SCENARIO.json [--ticks N] [--threads N] [--time-limit S] [--max-memory MB] [--json]`
#include "cli_support.hpp"
#include "commands.hpp"
#include "results_json.hpp"

#include <gameplan/goap/agent_scenario.hpp>
#include <gameplan/io/domain_file.hpp>
#include <gameplan/io/scenario_json.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <memory>
#include <span>
#include <string>
#include <string_view>

namespace gameplan::cli {

namespace {

struct SimulateArgs {
    std::string file;
    std::uint64_t ticks = 0;  // 0 = the scenario's "ticks"
    std::size_t threads = 1;
    bool json = false;
    ResourceLimits limits;
};

/// Default --time-limit of `simulate`, in seconds: a scripted scenario runs in milliseconds; one still
/// running after this long has a search that explodes or an absurd number of ticks.
constexpr double kDefaultSimulateTimeLimitS = 60;

using Json = nlohmann::ordered_json;

Json number(double v) {
    if (v == std::floor(v) && std::fabs(v) < 9.0e15) return static_cast<std::int64_t>(v);
    return v;
}

Json goal_json(const goap::Agent& agent, std::uint32_t goal) {
    if (goal == goap::kNoGoal || goal >= agent.goals().size()) return nullptr;
    return agent.goals()[goal].name;
}

// JSON Lines: one object per event, flushed as it happens.
class JsonTrace final : public goap::ScenarioObserver {
public:
    JsonTrace(const goap::ScenarioRunner& runner, const goap::Domain& domain) : m_runner(runner), m_domain(domain) {}

    void on_event(const goap::Agent& agent, const goap::AgentEvent& e) override {
        Json j;
        j["tick"] = e.tick;
        j["agent"] = agent.name();
        j["event"] = std::string(to_string(e.kind));
        const auto action = [&](goap::ActionId a) { return Json(m_domain.action_name(a)); };
        switch (e.kind) {
            case goap::AgentEventKind::Replan:
                j["trigger"] = std::string(to_string(e.trigger));
                j["goal"] = goal_json(agent, e.goal);
                if (e.action.valid()) j["action"] = action(e.action);
                break;
            case goap::AgentEventKind::PlanFound: {
                j["goal"] = goal_json(agent, e.goal);
                j["priority"] = number(e.priority);
                Json plan = Json::array();
                for (const goap::ActionId a : e.plan) plan.push_back(m_domain.action_name(a));
                j["plan"] = plan;
                j["cost"] = number(e.cost);
                j["expanded"] = e.expanded;
                break;
            }
            case goap::AgentEventKind::PlanFailed: {
                j["goal"] = goal_json(agent, e.goal);
                j["priority"] = number(e.priority);
                Json unreachable = Json::object();
                for (const goap::Literal l : e.unreachable) unreachable[m_domain.atom_name(l.atom)] = l.value;
                j["unreachable"] = unreachable;
                j["expanded"] = e.expanded;
                j["search"] = std::string(to_string(e.search_status));
                add_budget_limit(j, e.search_status, e.search_limit);
                if (e.analyzed) {
                    // The analysis of `gameplan explain`, items in the CSV cell syntax (atom / !atom).
                    const auto items = [&](std::span<const goap::Literal> ls) {
                        Json a = Json::array();
                        for (const goap::Literal l : ls) a.push_back((l.value ? "" : "!") + m_domain.atom_name(l.atom));
                        return a;
                    };
                    Json why;
                    why["unreachable"] = items(e.unreachable);
                    for (const goap::Comparison& c : e.unreachable_comparisons) why["unreachable"].push_back(comparison_item(m_domain, c));
                    why["root_causes"] = items(e.root_causes);
                    for (const goap::Comparison& c : e.numeric_root_causes) why["root_causes"].push_back(comparison_item(m_domain, c));
                    Json cycles = Json::array();
                    for (std::size_t k = 0, at = 0; k < e.cycle_sizes.size(); at += e.cycle_sizes[k], ++k)
                        cycles.push_back(items(e.cycle_literals.subspan(at, e.cycle_sizes[k])));
                    why["cycles"] = cycles;
                    Json disabled = Json::array();
                    for (const goap::ActionId a : e.disabled) disabled.push_back(m_domain.action_name(a));
                    why["disabled"] = disabled;
                    j["why"] = why;
                }
                break;
            }
            case goap::AgentEventKind::PlanningPaused:
                j["goal"] = goal_json(agent, e.goal);
                j["expanded"] = e.expanded;
                break;
            case goap::AgentEventKind::GoalChosen:
                j["goal"] = goal_json(agent, e.goal);
                j["priority"] = number(e.priority);
                j["previous_goal"] = goal_json(agent, e.previous_goal);
                break;
            case goap::AgentEventKind::Idle: j["reason"] = std::string(to_string(e.idle_reason)); break;
            case goap::AgentEventKind::ActionStarted:
                j["action"] = action(e.action);
                j["behaviour"] = m_runner.behaviour_label(agent, e.action);
                break;
            case goap::AgentEventKind::ActionSucceeded:
            case goap::AgentEventKind::ActionFailed:
                j["action"] = action(e.action);
                j["ticks"] = e.ticks;
                break;
            case goap::AgentEventKind::ActionAborted:
                j["action"] = action(e.action);
                j["reason"] = std::string(to_string(e.abort_reason));
                j["ticks"] = e.ticks;
                break;
            case goap::AgentEventKind::ActionBackedOff:
                j["action"] = action(e.action);
                j["failures"] = e.expanded;
                j["cooldown_ticks"] = e.ticks;
                break;
            case goap::AgentEventKind::BackOffEnded: j["action"] = action(e.action); break;
            case goap::AgentEventKind::GoalBackedOff:
                j["goal"] = goal_json(agent, e.goal);
                j["failures"] = e.expanded;
                j["cooldown_ticks"] = e.ticks;
                break;
            case goap::AgentEventKind::GoalBackOffEnded: j["goal"] = goal_json(agent, e.goal); break;
        }
        std::cout << j.dump() << '\n';
    }

    void on_timeline(const goap::ScenarioEvent& e, bool applied) override {
        Json j;
        j["tick"] = e.tick;
        j["agent"] = e.agent.empty() ? std::string("world") : e.agent;
        j["event"] = "timeline";
        j["kind"] = std::string(to_string(e.kind));
        j["applied"] = applied;
        switch (e.kind) {
            case goap::ScenarioEventKind::Set: {
                Json set = Json::object();
                for (const goap::Literal l : e.literals) set[m_domain.atom_name(l.atom)] = l.value;
                for (const goap::NumericEffect& v : e.values) set[m_domain.variable_name(v.var)] = value_json(v.var, v.value);
                j["set"] = set;
                break;
            }
            case goap::ScenarioEventKind::Add: {
                Json add = Json::object();
                for (const goap::NumericEffect& v : e.values) add[m_domain.variable_name(v.var)] = v.value;
                j["add"] = add;
                break;
            }
            case goap::ScenarioEventKind::Expect: j["expect"] = describe(m_domain, e, true).substr(7); break;
            case goap::ScenarioEventKind::Fail: j["action"] = e.action; break;
            case goap::ScenarioEventKind::Abort: break;
            case goap::ScenarioEventKind::Cost:
                j["action"] = e.action;
                j["cost"] = number(e.value);
                break;
            case goap::ScenarioEventKind::Enable:
                j["action"] = e.action;
                j["enabled"] = e.enabled;
                break;
        }
        std::cout << j.dump() << '\n';
    }

    void on_expect(const goap::ScenarioEvent& e, bool passed, std::string_view actual) override {
        Json j;
        j["tick"] = e.tick;
        j["agent"] = e.agent.empty() ? std::string("world") : e.agent;
        j["event"] = "expectation";
        j["passed"] = passed;
        if (!passed) j["actual"] = std::string(actual);
        std::cout << j.dump() << '\n';
    }

private:
    Json value_json(goap::VarId v, std::int32_t value) const {
        if (m_domain.variable_kind(v) == goap::VariableKind::Enumeration) return m_domain.variable_values(v)[static_cast<std::size_t>(value)];
        return value;
    }
    const goap::ScenarioRunner& m_runner;
    const goap::Domain& m_domain;
};

// Text: one line per event, flushed as it happens.
class TextTrace final : public goap::ScenarioObserver {
public:
    TextTrace(const goap::ScenarioRunner& runner, const goap::Domain& domain) : m_runner(runner), m_domain(domain) {}
    void on_event(const goap::Agent& agent, const goap::AgentEvent& e) override {
        std::string text = describe(agent, e);
        if (e.kind == goap::AgentEventKind::ActionStarted) {
            const std::string& label = m_runner.behaviour_label(agent, e.action);
            if (label != m_domain.action_name(e.action)) text += " [" + label + "]";
        }
        std::cout << "tick " << e.tick << "  " << printable(agent.name()) << "  " << printable(text, 4000) << '\n';
    }
    void on_timeline(const goap::ScenarioEvent& e, bool applied) override {
        std::cout << "tick " << e.tick << "  " << (e.agent.empty() ? std::string("world") : printable(e.agent))
                  << "  timeline: " << printable(describe(m_domain, e, applied), 4000) << '\n';
    }
    void on_expect(const goap::ScenarioEvent& e, bool passed, std::string_view actual) override {
        std::cout << "tick " << e.tick << "  " << (e.agent.empty() ? std::string("world") : printable(e.agent)) << "  "
                  << (passed ? std::string("expectation met") : "expectation FAILED: " + printable(std::string(actual), 4000))
                  << '\n';
    }

private:
    const goap::ScenarioRunner& m_runner;
    const goap::Domain& m_domain;
};

int run_simulate(const SimulateArgs& args) {
    // '-' reads the scenario from standard input; a "domain" file name is then relative to the current folder.
    const goap::Scenario scenario = args.file == "-" ? io::parse_scenario_json(io::read_text_input("-"), "<stdin>",
                                                                               io::ScenarioParseOptions{".", true, {}})
                                                     : io::load_scenario_json(args.file);
    const auto t0 = std::chrono::steady_clock::now();
    goap::AgentSystemOptions system_options;
    system_options.max_search_memory_bytes = args.limits.max_memory_bytes();
    goap::ScenarioRunner runner(scenario, system_options);
    if (!runner.error().empty()) throw UsageError(runner.error());
    const auto deadline = args.limits.deadline(t0);
    runner.system().set_search_deadline(deadline);
    const std::uint64_t ticks = args.ticks > 0 ? args.ticks : scenario.ticks;
    std::unique_ptr<goap::ThreadPool> pool;
    if (args.threads > 1) pool = std::make_unique<goap::ThreadPool>(args.threads);

    std::unique_ptr<goap::ScenarioObserver> observer;
    if (args.json) observer = std::make_unique<JsonTrace>(runner, scenario.domain);
    else observer = std::make_unique<TextTrace>(runner, scenario.domain);
    if (!args.json)
        std::cout << "scenario " << printable(args.file) << ": " << scenario.agents.size()
                  << (scenario.agents.size() == 1 ? " agent, " : " agents, ") << ticks << " ticks\n";
    runner.set_observer(observer.get());
    bool out_of_time = false;
    for (std::uint64_t t = 0; t < ticks; ++t) {
        if (std::chrono::steady_clock::now() >= deadline) {
            out_of_time = true;
            break;
        }
        runner.step(pool.get());
    }

    goap::AgentSystem& system = runner.system();
    if (args.json) {
        Json end;
        end["tick"] = system.current_tick();
        end["event"] = "end";
        end["status"] = out_of_time ? "time_limit" : "completed";
        end["expectations"] = runner.expectations_checked();
        end["expectations_failed"] = runner.expectations_failed();
        Json agents = Json::array();
        for (const goap::AgentId id : runner.agents()) {
            const goap::Agent& a = *system.find(id);
            Json j;
            j["agent"] = a.name();
            j["status"] = std::string(to_string(a.status()));
            j["goal"] = goal_json(a, a.current_goal());
            j["replans"] = a.stats().replans;
            j["searches"] = a.stats().searches;
            j["actions_started"] = a.stats().actions_started;
            j["actions_succeeded"] = a.stats().actions_succeeded;
            j["actions_failed"] = a.stats().actions_failed;
            j["actions_aborted"] = a.stats().actions_aborted;
            agents.push_back(j);
        }
        end["agents"] = agents;
        std::cout << end.dump() << '\n';
    } else {
        std::cout << "after " << system.current_tick() << " ticks:\n";
        for (const goap::AgentId id : runner.agents()) {
            const goap::Agent& a = *system.find(id);
            const goap::AgentStats& s = a.stats();
            std::cout << "  " << printable(a.name()) << ": " << to_string(a.status());
            if (a.status() == goap::AgentStatus::Idle) std::cout << " (" << to_string(a.idle_reason()) << ")";
            else if (a.current_goal() != goap::kNoGoal) std::cout << " (goal " << printable(a.goals()[a.current_goal()].name) << ")";
            std::cout << ", " << s.actions_started << " actions started (" << s.actions_succeeded << " succeeded, "
                      << s.actions_failed << " failed, " << s.actions_aborted << " aborted), " << s.replans
                      << " replans, " << s.searches << " searches\n";
        }
        if (runner.expectations_checked() > 0)
            std::cout << "expectations: " << runner.expectations_checked() - runner.expectations_failed() << " of "
                      << runner.expectations_checked() << " met\n";
    }
    if (out_of_time) {
        std::cout.flush();
        std::cerr << "gameplan simulate: stopped after " << system.current_tick() << " of " << ticks
                  << " ticks: time limit of " << human_number(args.limits.time_limit_s) << " s (--time-limit)\n";
        return 1;
    }
    if (runner.expectations_failed() > 0) {
        std::cout.flush();
        std::cerr << "gameplan simulate: " << runner.expectations_failed() << " of " << runner.expectations_checked()
                  << " expectations failed\n";
        return 1;
    }
    return 0;
}

}  // namespace

void add_simulate_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<SimulateArgs>();
    CLI::App* cmd = app.add_subcommand(
        "simulate",
        "Run a scripted agent scenario and print its trace (exit 0; 1 if an \"expect\" failed or time ran out; 2 on bad input)");
    cmd->add_option("scenario", args->file, "Scenario JSON file (see docs/formats.md, \"Scenario JSON\")")->required();
    add_integer_option(cmd, "--ticks", args->ticks, 1, 1'000'000'000,
                       "Number of ticks to run, at most a billion (default: the scenario's \"ticks\")");
    add_integer_option(cmd, "--threads", args->threads, 1, 256, "Plan on a thread pool of this size, at most 256 (same trace for any value)");
    add_limit_options(cmd, args->limits, kDefaultSimulateTimeLimitS, "the whole run (ticks and searches)");
    // What the two limits do here (not the shared wording: the run ends with its own status, and the
    // memory budget applies to each agent search).
    cmd->get_option("--time-limit")
        ->description("Stop the whole run (ticks and searches) after this many seconds: the run ends before the next tick "
                      "with status time_limit, exit 1 (0 = no limit; default " + human_number(kDefaultSimulateTimeLimitS) + ")");
    cmd->get_option("--max-memory")
        ->description("Memory budget in MiB of each agent search: a search that would outgrow it fails its goal with "
                      "search budget_exhausted and the run goes on (default " + std::to_string(kDefaultMaxMemoryMb) + ")");
    cmd->add_flag("--json", args->json, "Print JSON Lines: one event object per line with its tick, then an \"end\" record");
    cmd->callback([args, &exit_code] { exit_code = run_simulate(*args); });
}

}  // namespace gameplan::cli
