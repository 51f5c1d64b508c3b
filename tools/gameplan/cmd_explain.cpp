// `gameplan explain DOMAIN [--goal NAME] [--json] [--max-nodes N] [--time-limit S] [--max-memory MB]`: the plan
// step by step with the reason for every action, or, when there is none, why (unreachable goal items, root
// causes, cycles).
#include "commands.hpp"
#include "results_json.hpp"
#include "cli_support.hpp"
#include "domain_util.hpp"

#include <gameplan/goap/explain.hpp>
#include <gameplan/goap/planner.hpp>
#include <gameplan/io/domain_file.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdint>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace gameplan::cli {

namespace {

struct ExplainArgs {
    std::string file;
    std::string goal;
    std::uint64_t max_nodes = 0;
    ResourceLimits limits;  // --time-limit (default 5 s, as plan) and --max-memory
    bool json = false;
};

constexpr std::size_t kStateShown = 40;  // atoms listed per "state after" line in text output

std::vector<goap::Literal> true_atoms(const goap::WorldState& s) {
    std::vector<goap::Literal> out;
    s.true_atoms().for_each([&](goap::AtomId a) { out.push_back(goap::Literal{a, true}); });
    return out;
}

// Why each blocking comparison cannot hold: the values its variable reaches, and what stops the actions
// that could move it there.
void print_numeric(const goap::Domain& d, const goap::NoPlanAnalysis& a) {
    const auto list = [&](std::span<const goap::Comparison> cs) {
        std::string out;
        for (const goap::Comparison& c : cs) out += (out.empty() ? "" : ", ") + printable(comparison_item(d, c));
        return out;
    };
    for (const goap::NumericBlock& b : a.numeric) {
        const goap::VarId x = b.condition.var;
        std::string reach;
        if (d.variable_kind(x) == goap::VariableKind::Enumeration) {
            for (const std::int32_t v : b.reachable_values)
                reach += (reach.empty() ? "" : ", ") + printable(d.variable_values(x)[static_cast<std::size_t>(v)]);
        } else {
            reach = std::to_string(b.reachable_min) + ".." + std::to_string(b.reachable_max);
        }
        std::cout << printable(comparison_item(d, b.condition)) << " never holds: " << printable(d.variable_name(x))
                  << " reaches only " << reach << '\n';
        if (b.root_cause())
            std::cout << "  root cause: no " << (b.disabled.empty() ? "" : "enabled ") << "action changes "
                      << printable(d.variable_name(x)) << " that way; change its start value or add an action that does\n";
        for (const goap::BlockedChanger& c : b.changers) {
            std::string why;
            if (!c.missing.empty()) why += "needs " + items_text(d, c.missing) + " (never true)";
            if (!c.unsatisfiable.empty()) why += (why.empty() ? "needs " : "; needs ") + list(c.unsatisfiable) + " (never holds)";
            if (!c.limits.empty()) why += (why.empty() ? "is capped by " : "; is capped by ") + list(c.limits);
            if (why.empty()) why = "is capped by the bounds of " + printable(d.variable_name(x));
            std::cout << "  " << printable(d.action_name(c.action)) << " could change it but " << why << '\n';
        }
        for (const goap::ActionId x2 : b.disabled)
            std::cout << "  " << printable(d.action_name(x2)) << " could change it but is switched off\n";
    }
}

int run_explain(const ExplainArgs& args) {
    const io::DomainFile file = io::load_domain(args.file);
    const std::string name = io::input_name(args.file);
    const ChosenGoal goal = choose_goal(file, args.goal, name);
    const goap::Domain& d = file.domain;

    goap::PlanOptions options;
    if (args.max_nodes > 0) options.budget.max_expansions = args.max_nodes;
    options.budget.deadline = args.limits.deadline(std::chrono::steady_clock::now());
    options.budget.max_memory_bytes = args.limits.max_memory_bytes();
    goap::Planner planner(d);
    const goap::PlanResult r = planner.plan(file.start, *goal.condition, options);

    if (r.status == Status::Found) {
        const std::vector<goap::PlanStep> steps = goap::explain_plan(d, file.start, *goal.condition, r.plan);
        if (args.json) {
            nlohmann::ordered_json out;
            out["status"] = "found";
            out["goal"] = goal.name;
            out["cost"] = cost_json(r.cost);
            nlohmann::ordered_json js = nlohmann::ordered_json::array();
            for (std::size_t i = 0; i < steps.size(); ++i) {
                const goap::PlanStep& s = steps[i];
                nlohmann::ordered_json j;
                j["action"] = d.action_name(s.action);
                j["cost"] = cost_json(d.action_cost(s.action));
                j["changes"] = items_json(d, s.changes);
                nlohmann::ordered_json why = nlohmann::ordered_json::array();
                for (const goap::PlanStepReason& reason : s.reasons) {
                    nlohmann::ordered_json w;
                    if (reason.step == steps.size()) {
                        w["for"] = "goal";
                    } else {
                        w["for"] = "step";
                        w["step"] = reason.step + 1;
                        w["action"] = d.action_name(steps[reason.step].action);
                    }
                    w["item"] = goap::literal_text(d, reason.literal);
                    why.push_back(std::move(w));
                }
                j["needed_for"] = std::move(why);
                j["state"] = items_json(d, true_atoms(s.state));
                js.push_back(std::move(j));
            }
            out["steps"] = std::move(js);
            std::cout << out.dump() << '\n';
            return 0;
        }
        std::cout << "goal: " << goal.description << '\n';
        if (steps.empty()) {
            std::cout << "the goal already holds at the start: no action is needed\n";
            return 0;
        }
        std::cout << "plan (" << steps.size() << (steps.size() == 1 ? " action" : " actions") << ", cost "
                  << cost_text(r.cost) << "):\n";
        for (std::size_t i = 0; i < steps.size(); ++i) {
            const goap::PlanStep& s = steps[i];
            std::cout << "  " << i + 1 << ". " << d.action_name(s.action) << "  (cost " << cost_text(d.action_cost(s.action))
                      << ")\n";
            std::cout << "       changes: " << (s.changes.empty() ? std::string("nothing") : items_text(d, s.changes)) << '\n';
            std::string why;
            for (const goap::PlanStepReason& reason : s.reasons) {
                why += why.empty() ? "" : "; ";
                why += reason.step == steps.size()
                           ? "the goal needs " + goap::literal_text(d, reason.literal)
                           : "step " + std::to_string(reason.step + 1) + " (" + d.action_name(steps[reason.step].action) +
                                 ") needs " + goap::literal_text(d, reason.literal);
            }
            std::cout << "       why: " << (why.empty() ? std::string("nothing later needs what it changes") : why) << '\n';
            const std::vector<goap::Literal> state = true_atoms(s.state);
            std::string shown = items_text(d, std::span(state).first(std::min(state.size(), kStateShown)));
            if (state.size() > kStateShown) shown += ", ... (" + std::to_string(state.size() - kStateShown) + " more)";
            std::cout << "       leaves true: " << (state.empty() ? std::string("nothing") : shown) << '\n';
        }
        return 0;
    }
    if (r.status == Status::NoPath) {
        const goap::NoPlanAnalysis a = goap::analyze_no_plan(d, file.start, *goal.condition);
        if (args.json) {
            nlohmann::ordered_json out;
            out["status"] = "no_plan";
            out["unreachable"] = items_json(d, a.unreachable);
            for (const goap::Comparison& c : a.unreachable_comparisons) out["unreachable"].push_back(comparison_item(d, c));
            out["root_causes"] = root_causes_json(d, a);
            nlohmann::ordered_json cycles = nlohmann::ordered_json::array();
            for (const auto& c : a.cycles) cycles.push_back(items_json(d, c));
            out["cycles"] = std::move(cycles);
            if (!a.numeric.empty()) out["numeric"] = numeric_json(d, a);
            std::cout << out.dump() << '\n';
            return 1;
        }
        std::cout << "goal: " << goal.description << '\n' << "no plan: the goal cannot be reached from the start state\n";
        if (a.unreachable.empty() && a.unreachable_comparisons.empty()) {
            std::cout << "every goal item can be reached on its own, but not all of them together (reaching one undoes "
                         "another)\n";
            return 1;
        }
        std::string unreachable = items_text(d, a.unreachable);
        for (const goap::Comparison& c : a.unreachable_comparisons)
            unreachable += (unreachable.empty() ? "" : ", ") + printable(comparison_item(d, c));
        std::cout << "unreachable goal items (no sequence of actions makes them true): " << unreachable << '\n';
        print_numeric(d, a);
        if (!a.root_causes.empty())
            std::cout << "root causes (not true at the start, and no action sets them): " << items_text(d, a.root_causes)
                      << "\n  make one true in the start state, or add an action that sets it\n";
        for (const auto& c : a.cycles)
            std::cout << "cycle (these only need each other; nothing outside them can start them): " << items_text(d, c)
                      << "\n  make one true in the start state, or give one an achiever that needs none of them\n";
        return 1;
    }
    if (args.json) {
        nlohmann::ordered_json out;
        out["status"] = std::string(to_string(r.status));
        out["expanded"] = r.stats.expanded;
        add_budget_limit(out, r.status, r.limit);
        std::cout << out.dump() << '\n';
    } else {
        std::cout << "goal: " << goal.description << '\n' << "no answer: " << to_string(r.status);
        if (r.status == Status::BudgetExhausted)
            std::cout << " (the search used up its " << budget_text(r.limit, args.limits, args.max_nodes, "--max-nodes") << ')';
        std::cout << " after " << r.stats.expanded << " expansions\n";
    }
    return 1;
}

}  // namespace

void add_explain_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<ExplainArgs>();
    CLI::App* cmd = app.add_subcommand(
        "explain", "Explain a domain's plan step by step, or why there is none (exit 0 plan, 1 none, 2 bad input)");
    cmd->add_option("domain", args->file, "Domain file, JSON or CSV ('-' = standard input)")->required();
    cmd->add_option("--goal", args->goal, "Explain this named goal from \"goals\" (default: \"goal\", else the highest priority)");
    add_integer_option(cmd, "--max-nodes", args->max_nodes, 1, UINT64_MAX, "Node expansion budget (default: unlimited)");
    add_limit_options(cmd, args->limits, kDefaultPlanTimeLimitS, "the search");
    cmd->add_flag("--json", args->json,
                  "One JSON object: {status: found, goal, cost, steps: [{action, cost, changes, needed_for, state}]} or "
                  "{status: no_plan, unreachable, root_causes, cycles, [numeric]}");
    cmd->callback([args, &exit_code] { exit_code = run_explain(*args); });
}

}  // namespace gameplan::cli
