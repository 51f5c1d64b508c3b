// `gameplan dot DOMAIN [--goal NAME] [--plan [--max-nodes N] [--time-limit S] [--max-memory MB]] [-o FILE]
// [--json]`: the domain as a Graphviz DOT graph.
#include "cli_support.hpp"
#include "commands.hpp"
#include "domain_util.hpp"
#include "dot_util.hpp"
#include "results_json.hpp"

#include <gameplan/goap/planner.hpp>
#include <gameplan/io/domain_file.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <iostream>

#include <memory>
#include <string>
#include <vector>

namespace gameplan::cli {

namespace {

struct DotArgs {
    std::string file;
    std::string goal;
    std::string out = "-";
    bool plan = false;
    bool json = false;
    std::uint64_t max_nodes = 0;  // 0 = unlimited
    ResourceLimits limits;        // --time-limit (default 5 s, as plan) and --max-memory, for --plan
};

int run_dot(const DotArgs& args) {
    const io::DomainFile file = io::load_domain(args.file);
    const goap::Domain& d = file.domain;
    const goap::Condition* goal = nullptr;
    if (!args.goal.empty() || args.plan || file.goal || !file.goals.empty())
        goal = choose_goal(file, args.goal, io::input_name(args.file)).condition;
    std::vector<int> step_of(d.action_count(), 0);  // 1-based plan step, 0 = not in the plan
    int status = 0;
    nlohmann::ordered_json plan_out;
    if (args.plan) {
        // The same budgets as `gameplan plan`: a domain whose search explodes stops, and is drawn without a plan.
        goap::PlanOptions options;
        if (args.max_nodes > 0) options.budget.max_expansions = args.max_nodes;
        options.budget.deadline = args.limits.deadline(std::chrono::steady_clock::now());
        options.budget.max_memory_bytes = args.limits.max_memory_bytes();
        goap::Planner planner(d);
        const goap::PlanResult r = planner.plan(file.start, *goal, options);
        if (r.status == Status::InvalidQuery) throw UsageError(io::input_name(args.file) + ": the planner refused the query");
        if (r.status != Status::Found) status = 1;
        for (std::size_t i = 0; i < r.plan.size(); ++i)
            if (step_of[r.plan[i].value] == 0) step_of[r.plan[i].value] = static_cast<int>(i + 1);
        if (args.json) plan_out = plan_json(file, *goal, r, planner);
        else if (r.status == Status::BudgetExhausted)
            std::cerr << "gameplan dot: no plan drawn: the search used up its "
                      << budget_text(r.limit, args.limits, args.max_nodes, "--max-nodes") << '\n';
        else if (r.status == Status::NoPath)
            std::cerr << "gameplan dot: no plan drawn: the goal cannot be reached (gameplan explain says why)\n";
    }
    std::string s = "digraph domain {\n  rankdir=LR;\n  node [fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\", fontsize=10];\n";
    s += "  // atoms: ellipses (grey = true at the start, double border = in the goal);\n"
         "  // actions: boxes (gold = in the plan, with its step). Edges: atom -> action for a precondition,\n"
         "  // action -> atom for an effect; dashed = the atom must be / becomes false.\n";
    for (std::uint32_t i = 0; i < d.atom_count(); ++i) {
        const goap::AtomId a(i);
        std::string label = d.atom_name(a);
        std::string attrs = "shape=ellipse";
        if (file.start.get(a)) attrs += ", style=filled, fillcolor=\"#dddddd\"";
        if (goal && goal->cares(a)) {
            attrs += ", peripheries=2";
            label = (goal->value(a) ? "goal: " : "goal: !") + label;
        }
        if (d.is_shared(a)) attrs += ", color=\"#1f5fbf\"";
        s += "  a" + std::to_string(i) + " [label=" + dot_quote(label) + ", " + attrs + "];\n";
    }
    for (std::uint32_t i = 0; i < d.action_count(); ++i) {
        const goap::ActionId a(i);
        std::string label = d.action_name(a) + "\ncost " + cost_text(d.action_cost(a));
        std::string attrs = "shape=box";
        if (step_of[i]) {
            label = std::to_string(step_of[i]) + ". " + label;
            attrs += ", style=\"filled,bold\", fillcolor=\"#ffd54f\"";
        }
        s += "  x" + std::to_string(i) + " [label=" + dot_quote(label) + ", " + attrs + "];\n";
    }
    for (std::uint32_t i = 0; i < d.action_count(); ++i) {
        const goap::ActionId a(i);
        const std::string bold = step_of[i] ? ", penwidth=2" : "";
        for (const goap::Literal l : d.precondition_literals(a))
            s += "  a" + std::to_string(l.atom.value) + " -> x" + std::to_string(i) + " [" +
                 (l.value ? "color=\"#333333\"" : "style=dashed, color=\"#333333\"") + bold + "];\n";
        for (const goap::Literal l : d.effect_literals(a))
            s += "  x" + std::to_string(i) + " -> a" + std::to_string(l.atom.value) + " [" +
                 (l.value ? "color=\"#2e7d32\"" : "style=dashed, color=\"#c62828\"") + bold + "];\n";
    }
    s += "}\n";
    if (!args.json) {
        write_output(args.out, s);
        return status;
    }
    // --json: one object on standard output; the graph goes to --output, or into the object ("dot").
    nlohmann::ordered_json out;
    out["atoms"] = d.atom_count();
    out["actions"] = d.action_count();
    if (args.plan) out["plan"] = std::move(plan_out);
    if (args.out == "-") {
        out["dot"] = s;
    } else {
        write_output(args.out, s);
        out["output"] = args.out;
    }
    std::cout << out.dump() << '\n';
    return status;
}

}  // namespace

void add_dot_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<DotArgs>();
    CLI::App* cmd = app.add_subcommand(
        "dot", "Draw a domain as a Graphviz DOT graph: atoms, actions, preconditions, effects (exit 0, 1 --plan found none, 2 bad input)");
    cmd->add_option("domain", args->file, "Domain file, JSON or CSV ('-' = standard input)")->required();
    cmd->add_option("--goal", args->goal, "Mark this named goal from \"goals\" (default: \"goal\", else the highest priority)");
    cmd->add_flag("--plan", args->plan, "Plan for the goal and highlight the plan's actions with their step numbers");
    cmd->add_option("-o,--output", args->out, "Write the graph here (default: standard output)");
    add_integer_option(cmd, "--max-nodes", args->max_nodes, 1, UINT64_MAX, "--plan: node expansion budget (default: unlimited)");
    add_limit_options(cmd, args->limits, kDefaultPlanTimeLimitS, "the --plan search");
    cmd->add_flag("--json", args->json,
                  "Print one JSON object: atoms, actions, [plan] (as gameplan plan --json prints it), and output "
                  "(the --output file) or dot (the graph itself)");
    cmd->callback([args, &exit_code] { exit_code = run_dot(*args); });
}

}  // namespace gameplan::cli
