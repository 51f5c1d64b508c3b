// `gameplan plan DOMAIN.json [--direction forward|backward] [--max-nodes N] [--goal NAME] [--json]`
#include "commands.hpp"

#include <gameplan/goap/planner.hpp>
#include <gameplan/io/domain_json.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <string>

namespace gameplan::cli {

namespace {

struct PlanArgs {
    std::string file;
    std::string direction = std::string(goap::to_string(goap::kDefaultDirection));
    std::uint64_t max_nodes = 0;  // 0 = unlimited
    std::string goal;
    bool json = false;
};

// The GOAP name of a status ("no_plan" rather than the engine's generic "no_path").
std::string status_name(Status s) {
    return s == Status::NoPath ? "no_plan" : std::string(to_string(s));
}

// "ammo >= 3" / "location == forest" for messages; [">=", 3] / ["==", "forest"] for JSON.
const char* op_text(goap::CompareOp op) {
    static const char* const names[] = {"==", "!=", "<", "<=", ">", ">="};
    return names[static_cast<int>(op)];
}
nlohmann::ordered_json comparison_json(const goap::Domain& d, const goap::Comparison& c) {
    nlohmann::ordered_json v = nlohmann::ordered_json::array();
    v.push_back(op_text(c.op));
    if (d.variable_kind(c.var) == goap::VariableKind::Enumeration) v.push_back(d.variable_values(c.var)[static_cast<std::size_t>(c.value)]);
    else v.push_back(c.value);
    return v;
}
std::string comparison_text(const goap::Domain& d, const goap::Comparison& c) {
    const auto j = comparison_json(d, c);
    return d.variable_name(c.var) + " " + op_text(c.op) + " " + (j[1].is_string() ? j[1].get<std::string>() : j[1].dump());
}

std::string format_cost(double c) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", c);
    return buf;
}

int run_plan(const PlanArgs& args) {
    const io::DomainFile file = io::load_domain_json(args.file);
    const goap::Condition* goal = nullptr;
    if (!args.goal.empty()) {
        const goap::Goal* g = file.find_goal(args.goal);
        if (!g) {
            std::string names;
            for (const goap::Goal& x : file.goals) names += (names.empty() ? "" : ", ") + x.name;
            throw UsageError(args.file + ": no goal named '" + args.goal + "' in \"goals\"" +
                             (names.empty() ? std::string(" (the file has no named goals)") : " (available: " + names + ")"));
        }
        goal = &g->condition;
    } else {
        goal = file.default_goal();
        if (!goal) throw UsageError(args.file + ": the domain has no \"goal\" and no \"goals\" to plan for");
    }

    goap::PlanOptions options;
    options.direction = args.direction == "forward" ? goap::Direction::Forward : goap::Direction::Backward;
    if (args.max_nodes > 0) options.max_expansions = args.max_nodes;
    goap::Planner planner(file.domain);
    const goap::PlanResult r = planner.plan(file.start, *goal, options);

    if (args.json) {
        nlohmann::ordered_json out;
        out["status"] = status_name(r.status);
        if (r.status != Status::Found) out["cost"] = nullptr;
        else if (r.cost == std::floor(r.cost) && std::fabs(r.cost) < 9.0e15) out["cost"] = static_cast<std::int64_t>(r.cost);
        else out["cost"] = r.cost;
        nlohmann::ordered_json plan = nlohmann::ordered_json::array();
        for (const goap::ActionId a : r.plan) plan.push_back(file.domain.action_name(a));
        out["plan"] = plan;
        out["expanded"] = r.stats.expanded;
        out["generated"] = r.stats.generated;
        out["micros"] = r.micros;
        if (r.status == Status::NoPath) {
            nlohmann::ordered_json unreachable = nlohmann::ordered_json::object();
            for (const goap::Literal& l : planner.unreachable_goals()) unreachable[file.domain.atom_name(l.atom)] = l.value;
            for (const goap::Comparison& c : planner.unreachable_goal_comparisons())
                unreachable[file.domain.variable_name(c.var)] = comparison_json(file.domain, c);
            out["unreachable_goals"] = unreachable;
        }
        std::cout << out.dump() << '\n';
    } else if (r.status == Status::Found) {
        std::cout << "plan (" << r.plan.size() << (r.plan.size() == 1 ? " action" : " actions") << ", cost "
                  << format_cost(r.cost) << "):\n";
        for (const goap::ActionId a : r.plan)
            std::cout << "  " << file.domain.action_name(a) << "  (cost " << format_cost(file.domain.action_cost(a)) << ")\n";
    } else if (r.status == Status::NoPath) {
        std::cout << "no plan: the goal cannot be reached from the start state\n";
        if (!planner.unreachable_goals().empty() || !planner.unreachable_goal_comparisons().empty()) {
            std::cout << "unreachable goal conditions (no enabled action can ever reach them):\n";
            for (const goap::Literal& l : planner.unreachable_goals())
                std::cout << "  " << file.domain.atom_name(l.atom) << " = " << (l.value ? "true" : "false") << '\n';
            for (const goap::Comparison& c : planner.unreachable_goal_comparisons())
                std::cout << "  " << comparison_text(file.domain, c) << '\n';
        } else {
            std::cout << "every goal atom is reachable on its own, but not all of them together\n";
        }
    } else {
        std::cout << "no plan: " << status_name(r.status) << " (node budget of " << args.max_nodes << " expansions)\n";
    }
    if (!args.json)
        std::cout << "direction " << to_string(file.domain.has_variables() ? goap::Direction::Forward : options.direction)
                  << (file.domain.has_variables() && options.direction == goap::Direction::Backward ? " (domains with variables plan forward)" : "")
                  << ", expanded " << r.stats.expanded << ", generated "
                  << r.stats.generated << ", " << r.micros << " us\n";
    return r.status == Status::Found ? 0 : 1;
}

}  // namespace

void add_plan_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<PlanArgs>();
    CLI::App* cmd = app.add_subcommand("plan", "Find a cost-optimal GOAP plan for a domain file (exit 0 found, 1 none, 2 bad input)");
    cmd->add_option("domain", args->file, "Domain JSON file (see docs/formats.md)")->required();
    cmd->add_option("--direction", args->direction, "Search direction (default: " +
                                                        std::string(goap::to_string(goap::kDefaultDirection)) + ")")
        ->check(CLI::IsMember({"forward", "backward"}));
    cmd->add_option("--max-nodes", args->max_nodes, "Node expansion budget (default: unlimited)")
        ->check(CLI::PositiveNumber);
    cmd->add_option("--goal", args->goal, "Plan for this named goal from \"goals\" (default: \"goal\", else the highest priority)");
    cmd->add_flag("--json", args->json, "Print one JSON object: status, cost, plan, expanded, generated, micros");
    cmd->callback([args, &exit_code] { exit_code = run_plan(*args); });
}

}  // namespace gameplan::cli
