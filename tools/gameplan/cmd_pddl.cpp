// `gameplan plan --pddl DOMAIN PROBLEM ...` and `gameplan ground DOMAIN PROBLEM [--json]`
#include "pddl_cli.hpp"

#include "commands.hpp"
#include "results_json.hpp"
#include "domain_util.hpp"

#include <gameplan/goap/auto_direction.hpp>
#include <gameplan/goap/planner.hpp>
#include <gameplan/io/pddl.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <optional>
#include <span>
#include <string>

namespace gameplan::cli {

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

std::string cost_string(double c) {
    char buf[64];
    if (c == std::floor(c) && std::fabs(c) < 9.0e15) std::snprintf(buf, sizeof buf, "%lld", static_cast<long long>(c));
    else std::snprintf(buf, sizeof buf, "%.17g", c);
    return buf;
}

nlohmann::ordered_json pddl_cost_json(double c) {
    if (c == std::floor(c) && std::fabs(c) < 9.0e15) return static_cast<std::int64_t>(c);
    return c;
}

}  // namespace

int run_pddl_plan(const PddlPlanRequest& rq) {
    const Clock::time_point t0 = Clock::now();
    const io::PddlTask task = io::load_pddl(rq.domain, rq.problem);
    const double grounding_ms = ms_since(t0);
    goap::PlanOptions options;
    options.direction = rq.direction == "backward" ? goap::Direction::Backward : goap::Direction::Forward;
    options.pruning = parse_pruning(rq.pruning);
    options.heuristic = rq.heuristic == "hmax"    ? goap::Heuristic::HMax
                        : rq.heuristic == "blind" ? goap::Heuristic::Blind
                                                  : goap::Heuristic::LmCut;
    if (rq.max_nodes > 0) options.budget.max_expansions = rq.max_nodes;
    options.budget.deadline = rq.limits.deadline(t0);
    options.budget.max_memory_bytes = rq.limits.max_memory_bytes();
    goap::Planner planner(task.domain);
    const bool automatic = rq.direction == "auto";  // both directions at once (goap/auto_direction.hpp)
    std::optional<goap::AutoDirectionPlanner> both;
    if (automatic) both.emplace(task.domain);
    const goap::PlanResult r = automatic ? both->plan(task.start, task.goal, options) : planner.plan(task.start, task.goal, options);
    if (automatic) options.direction = both->direction();
    const std::span<const goap::Literal> unreachable_goals = automatic ? both->unreachable_goals() : planner.unreachable_goals();
    if (r.status == Status::InvalidQuery)
        throw UsageError(rq.problem + ": the planner refused the grounded task (an action cost is out of range)");
    const std::string status = r.status == Status::NoPath ? "no_plan" : std::string(to_string(r.status));

    if (!rq.write_plan.empty() && r.status == Status::Found) {
        std::string text;
        for (const goap::ActionId a : r.plan) text += task.domain.action_name(a) + "\n";
        text += "; cost = " + cost_string(r.cost) + (task.general_cost ? " (general cost)\n" : " (unit cost)\n");
        write_output(rq.write_plan, text);
    }
    if (rq.json) {
        nlohmann::ordered_json out;
        out["status"] = status;
        out["cost"] = r.status == Status::Found ? pddl_cost_json(r.cost) : nlohmann::ordered_json(nullptr);
        nlohmann::ordered_json plan = nlohmann::ordered_json::array();
        for (const goap::ActionId a : r.plan) plan.push_back(task.domain.action_name(a));
        out["plan"] = plan;
        out["expanded"] = r.stats.expanded;
        out["generated"] = r.stats.generated;
        add_budget_limit(out, r.status, r.limit);
        out["micros"] = r.micros;
        out["grounding_ms"] = grounding_ms;
        out["atoms"] = task.domain.atom_count();
        out["actions"] = task.domain.action_count();
        out["heuristic"] = std::string(goap::to_string(options.heuristic));
        out["direction"] = std::string(goap::to_string(options.direction));
        if (r.status == Status::NoPath) {
            nlohmann::ordered_json unreachable = nlohmann::ordered_json::object();
            for (const goap::Literal& l : unreachable_goals) unreachable[task.domain.atom_name(l.atom)] = l.value;
            out["unreachable_goals"] = unreachable;
        }
        std::cout << out.dump() << '\n';
    } else {
        std::cout << "grounded: " << task.domain.atom_count() << " atoms, " << task.domain.action_count() << " actions in "
                  << human_number(grounding_ms) << " ms\n";
        if (r.status == Status::Found) {
            std::cout << "plan (" << r.plan.size() << (r.plan.size() == 1 ? " action" : " actions") << ", cost "
                      << cost_string(r.cost) << "):\n";
            for (const goap::ActionId a : r.plan) std::cout << "  " << printable(task.domain.action_name(a)) << '\n';
        } else if (r.status == Status::NoPath) {
            std::cout << "no plan: the goal cannot be reached from the initial state\n";
            for (const goap::Literal& l : unreachable_goals)
                std::cout << "  unreachable: " << (l.value ? "" : "(not ") << printable(task.domain.atom_name(l.atom))
                          << (l.value ? "" : ")") << '\n';
        } else {
            std::cout << "no plan: " << status << " (the search used up its "
                      << budget_text(r.limit, rq.limits, rq.max_nodes, "--max-nodes") << ")\n";
        }
        std::cout << "heuristic " << goap::to_string(options.heuristic) << ", direction " << (automatic ? "auto: " : "")
                  << goap::to_string(options.direction)
                  << ", expanded " << r.stats.expanded << ", generated " << r.stats.generated << ", " << r.micros << " us\n";
    }
    return r.status == Status::Found ? 0 : 1;
}

void add_ground_command(CLI::App& app, int& exit_code) {
    struct Args {
        std::string domain, problem;
        bool json = false;
    };
    auto args = std::make_shared<Args>();
    CLI::App* cmd = app.add_subcommand("ground", "Ground a PDDL domain and problem and print the task's size (exit 0, 2 bad input)");
    cmd->add_option("domain", args->domain, "PDDL domain file")->required();
    cmd->add_option("problem", args->problem, "PDDL problem file")->required();
    cmd->add_flag("--json", args->json, "Print one JSON object: atoms, actions, static_facts, grounding_ms");
    cmd->callback([args, &exit_code] {
        const Clock::time_point t0 = Clock::now();
        const io::PddlTask task = io::load_pddl(args->domain, args->problem);
        const double ms = ms_since(t0);
        std::size_t goal_atoms = 0;
        task.goal.care().for_each([&](goap::AtomId) { ++goal_atoms; });
        if (args->json) {
            nlohmann::ordered_json out;
            out["atoms"] = task.domain.atom_count();
            out["actions"] = task.domain.action_count();
            out["static_facts"] = task.static_facts;
            out["goal_atoms"] = goal_atoms;
            out["cost"] = task.general_cost ? "general" : "unit";
            out["grounding_ms"] = ms;
            std::cout << out.dump() << '\n';
        } else {
            std::cout << task.domain.atom_count() << " atoms, " << task.domain.action_count() << " actions, "
                      << task.static_facts << " static facts compiled away, " << goal_atoms << " goal atoms ("
                      << (task.general_cost ? "general" : "unit") << " cost); grounded in " << human_number(ms) << " ms\n";
        }
        exit_code = 0;
    });
}

}  // namespace gameplan::cli
