// `gameplan plan DOMAIN.json [--direction forward|backward] [--max-nodes N] [--goal NAME] [--json]`
#include "cli_support.hpp"
#include "commands.hpp"

#include <gameplan/goap/planner.hpp>
#include <gameplan/io/domain_json.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
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
    ResourceLimits limits;
};

// The GOAP name of a status ("no_plan" rather than the engine's generic "no_path").
std::string status_name(Status s) {
    return s == Status::NoPath ? "no_plan" : std::string(to_string(s));
}

std::string format_cost(double c) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.17g", c);
    return buf;
}

// Why a search ran out of budget, for the text output.
std::string budget_text(const PlanArgs& args, search::BudgetLimit limit) {
    switch (limit) {
        case search::BudgetLimit::Expansions: return "node budget of " + std::to_string(args.max_nodes) + " expansions (--max-nodes)";
        case search::BudgetLimit::Time: return "time limit of " + human_number(args.limits.time_limit_s) + " s (--time-limit)";
        case search::BudgetLimit::Memory:
            return "memory budget of " + std::to_string(args.limits.max_memory_mb) + " MiB (--max-memory)";
        case search::BudgetLimit::None: break;
    }
    return "budget";
}

int run_plan(const PlanArgs& args) {
    const auto t0 = std::chrono::steady_clock::now();
    const io::DomainFile file = io::load_domain_json(args.file);
    for (std::size_t a = 0; a < file.domain.action_count(); ++a) {
        const goap::ActionId id(static_cast<std::uint32_t>(a));
        if (file.domain.action_cost(id) > goap::kMaxActionCost)
            throw UsageError(args.file + ": action '" + printable(file.domain.action_name(id)) + "' costs " +
                             human_number(file.domain.action_cost(id)) + ", more than the planner's maximum " +
                             human_number(goap::kMaxActionCost) + " (sums of such costs could overflow)");
    }
    const goap::Condition* goal = nullptr;
    if (!args.goal.empty()) {
        const goap::Goal* g = file.find_goal(args.goal);
        if (!g) {
            std::string names;
            std::size_t listed = 0;
            for (const goap::Goal& x : file.goals) {
                if (listed == 20) {
                    names += ", ... (" + std::to_string(file.goals.size()) + " goals)";
                    break;
                }
                names += (names.empty() ? "" : ", ") + printable(x.name, 60);
                ++listed;
            }
            throw UsageError(args.file + ": no goal named '" + printable(args.goal) + "' in \"goals\"" +
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
    options.deadline = args.limits.deadline(t0);
    options.max_memory_bytes = args.limits.max_memory_bytes();
    goap::Planner planner(file.domain);
    const goap::PlanResult r = planner.plan(file.start, *goal, options);
    if (r.status == Status::InvalidQuery)  // the costs were checked above; nothing else can be wrong
        throw UsageError(args.file + ": the planner refused the query (the start, goal or costs do not fit the domain)");

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
        if (r.status == Status::BudgetExhausted) out["exhausted"] = std::string(search::to_string(r.exhausted));
        out["micros"] = r.micros;
        if (r.status == Status::NoPath) {
            nlohmann::ordered_json unreachable = nlohmann::ordered_json::object();
            for (const goap::Literal& l : planner.unreachable_goals()) unreachable[file.domain.atom_name(l.atom)] = l.value;
            out["unreachable_goals"] = unreachable;
        }
        std::cout << out.dump() << '\n';
    } else if (r.status == Status::Found) {
        std::cout << "plan (" << r.plan.size() << (r.plan.size() == 1 ? " action" : " actions") << ", cost "
                  << format_cost(r.cost) << "):\n";
        for (const goap::ActionId a : r.plan)
            std::cout << "  " << printable(file.domain.action_name(a)) << "  (cost " << format_cost(file.domain.action_cost(a)) << ")\n";
    } else if (r.status == Status::NoPath) {
        std::cout << "no plan: the goal cannot be reached from the start state\n";
        if (!planner.unreachable_goals().empty()) {
            std::cout << "unreachable goal atoms (no enabled action can ever set them):\n";
            for (const goap::Literal& l : planner.unreachable_goals())
                std::cout << "  " << printable(file.domain.atom_name(l.atom)) << " = " << (l.value ? "true" : "false") << '\n';
        } else {
            std::cout << "every goal atom is reachable on its own, but not all of them together\n";
        }
    } else {
        std::cout << "no plan: " << status_name(r.status) << " (the search used up its " << budget_text(args, r.exhausted)
                  << ")\n";
    }
    if (!args.json)
        std::cout << "direction " << to_string(options.direction) << ", expanded " << r.stats.expanded << ", generated "
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
    add_integer_option(cmd, "--max-nodes", args->max_nodes, 1, UINT64_MAX, "Node expansion budget (default: unlimited)");
    add_limit_options(cmd, args->limits, kDefaultPlanTimeLimitS, "the search");
    cmd->add_option("--goal", args->goal, "Plan for this named goal from \"goals\" (default: \"goal\", else the highest priority)");
    cmd->add_flag("--json", args->json, "Print one JSON object: status, cost, plan, expanded, generated, micros");
    cmd->callback([args, &exit_code] { exit_code = run_plan(*args); });
}

}  // namespace gameplan::cli
