// `gameplan plan DOMAIN.json [--direction forward|backward|auto] [--heuristic ...] [--pruning ...] [--max-nodes N]
// [--goal NAME] [--json]`
#include "cli_support.hpp"
#include "commands.hpp"
#include "domain_util.hpp"
#include "dot_util.hpp"
#include "pddl_cli.hpp"

#include <gameplan/goap/explain.hpp>

#include <gameplan/goap/auto_direction.hpp>
#include <gameplan/goap/planner.hpp>
#include <gameplan/io/domain_file.hpp>
#include <gameplan/io/domain_json.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace gameplan::cli {

namespace {

struct PlanArgs {
    std::string file;
    std::string problem;    // with --pddl: the PDDL problem file
    bool pddl = false;      // --pddl DOMAIN.pddl PROBLEM.pddl
    std::string heuristic;  // empty: hmax (JSON/CSV domains), lmcut (PDDL)
    std::string pruning;    // empty: auto
    std::string write_plan;  // --write-plan FILE (PDDL: IPC plan format)
    std::string direction;  // empty: the default (backward; PDDL: forward)
    std::uint64_t max_nodes = 0;  // 0 = unlimited
    std::string goal;
    bool json = false;
    std::string trace;              // --trace FILE.dot: the search tree as Graphviz
    std::uint64_t trace_nodes = 500;  // --trace-nodes: expanded states drawn at most
    ResourceLimits limits;
};

// Writes the search tree of a traced forward A* (same optimal cost as the planner) as Graphviz DOT:
// the first `max_nodes` expanded states with g and h, and the plan's path in bold.
void write_trace(const PlanArgs& args, const io::DomainFile& file, const goap::Condition& goal) {
    const goap::Domain& d = file.domain;
    const goap::SearchTrace t = goap::trace_search(d, file.start, goal, 100000);
    std::vector<bool> on_plan(t.nodes.size(), false);
    for (const std::uint32_t n : t.plan_nodes) on_plan[n] = true;
    const auto drawn = [&](std::uint32_t n) {
        return on_plan[n] || (t.nodes[n].expanded > 0 && t.nodes[n].expanded <= args.trace_nodes);
    };
    std::string s = "digraph search {\n  node [shape=box, fontname=\"Helvetica\", fontsize=10];\n"
                    "  edge [fontname=\"Helvetica\", fontsize=9];\n";
    s += "  label=" + dot_quote("forward A* with h_max: " + std::string(to_string(t.status)) +
                                (t.status == Status::Found ? ", cost " + cost_text(t.cost) : std::string()) + ", " +
                                std::to_string(t.expanded) + " expanded, " + std::to_string(t.nodes.size()) + " generated" +
                                (t.expanded > args.trace_nodes ? "; the first " + std::to_string(args.trace_nodes) +
                                                                     " expansions and the plan are drawn"
                                                               : std::string())) +
         ";\n";
    std::size_t shown = 0;
    for (std::uint32_t n = 0; n < t.nodes.size(); ++n) {
        if (!drawn(n)) continue;
        ++shown;
        const goap::TraceNode& node = t.nodes[n];
        std::string label = (node.expanded ? "#" + std::to_string(node.expanded) : std::string("goal")) +
                            "  g=" + cost_text(node.g) + " h=" + cost_text(node.h) + "\n";
        std::vector<goap::Literal> change;
        if (node.parent == UINT32_MAX) {
            node.state.true_atoms().for_each([&](goap::AtomId a) { change.push_back(goap::Literal{a, true}); });
        } else {
            const goap::WorldState& before = t.nodes[node.parent].state;
            for (std::uint32_t a = 0; a < d.atom_count(); ++a)
                if (before.get(goap::AtomId(a)) != node.state.get(goap::AtomId(a)))
                    change.push_back(goap::Literal{goap::AtomId(a), node.state.get(goap::AtomId(a))});
        }
        std::string items;
        for (std::size_t i = 0; i < change.size() && i < 8; ++i)
            items += (i ? ", " : "") + std::string(node.parent == UINT32_MAX ? "" : change[i].value ? "+" : "-") +
                     d.atom_name(change[i].atom);
        if (change.size() > 8) items += ", ...";
        label += node.parent == UINT32_MAX ? "start: " + (items.empty() ? std::string("(nothing true)") : items) : items;
        s += "  n" + std::to_string(n) + " [label=" + dot_quote(label) +
             (on_plan[n] ? ", style=\"filled,bold\", fillcolor=\"#ffd54f\"" : "") + "];\n";
        if (node.parent != UINT32_MAX && drawn(node.parent))
            s += "  n" + std::to_string(node.parent) + " -> n" + std::to_string(n) + " [label=" +
                 dot_quote(d.action_name(node.action)) + (on_plan[n] ? ", penwidth=2.5, color=\"#c62828\"" : "") + "];\n";
    }
    s += "}\n";
    write_output(args.trace, s);
    if (!args.json)
        std::cerr << "trace: " << shown << " states drawn (" << t.expanded << " expanded) -> " << args.trace << '\n';
}

// "ammo >= 3" / "location == forest" for messages.
const char* op_text(goap::CompareOp op) {
    static const char* const names[] = {"==", "!=", "<", "<=", ">", ">="};
    return names[static_cast<int>(op)];
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
    if (args.pddl) {
        if (args.problem.empty()) throw UsageError("--pddl needs a domain and a problem file: plan --pddl DOMAIN.pddl PROBLEM.pddl");
        PddlPlanRequest rq;
        rq.domain = args.file;
        rq.problem = args.problem;
        rq.direction = args.direction;
        rq.heuristic = args.heuristic;
        rq.pruning = args.pruning;
        rq.max_nodes = args.max_nodes;
        rq.json = args.json;
        rq.write_plan = args.write_plan;
        rq.limits = args.limits;
        return run_pddl_plan(rq);
    }
    if (!args.problem.empty()) throw UsageError("a second file is only read with --pddl (DOMAIN.pddl PROBLEM.pddl)");
    if (!args.write_plan.empty()) throw UsageError("--write-plan needs --pddl");
    const auto t0 = std::chrono::steady_clock::now();
    const io::DomainFile file = load_domain_reporting_all(args.file);
    for (std::size_t a = 0; a < file.domain.action_count(); ++a) {
        const goap::ActionId id(static_cast<std::uint32_t>(a));
        if (file.domain.action_cost(id) > goap::kMaxActionCost)
            throw UsageError(args.file + ": action '" + printable(file.domain.action_name(id)) + "' costs " +
                             human_number(file.domain.action_cost(id)) + ", more than the planner's maximum " +
                             human_number(goap::kMaxActionCost) + " (sums of such costs could overflow)");
    }
    const ChosenGoal chosen = choose_goal(file, args.goal, io::input_name(args.file));
    const goap::Condition* goal = chosen.condition;
    if (!args.trace.empty()) write_trace(args, file, *goal);

    goap::PlanOptions options;
    const bool automatic = args.direction == "auto";  // both directions at once (goap/auto_direction.hpp)
    options.direction = args.direction.empty() || automatic ? goap::Direction::BySize
                        : args.direction == "forward"           ? goap::Direction::Forward
                                                                : goap::Direction::Backward;
    options.heuristic = args.heuristic == "lmcut"   ? goap::Heuristic::LmCut
                        : args.heuristic == "blind" ? goap::Heuristic::Blind
                        : args.heuristic == "hmax"  ? goap::Heuristic::HMax
                                                    : goap::Heuristic::BySize;
    options.pruning = parse_pruning(args.pruning);
    if (args.max_nodes > 0) options.budget.max_expansions = args.max_nodes;
    options.budget.deadline = args.limits.deadline(t0);
    options.budget.max_memory_bytes = args.limits.max_memory_bytes();
    goap::Planner planner(file.domain);
    std::optional<goap::AutoDirectionPlanner> both;
    if (automatic) both.emplace(file.domain);
    const goap::PlanResult r = automatic ? both->plan(file.start, *goal, options) : planner.plan(file.start, *goal, options);
    options.direction = automatic ? both->direction() : planner.direction();  // BySize resolved
    const std::span<const goap::Literal> unreachable_goals = automatic ? both->unreachable_goals() : planner.unreachable_goals();
    const std::span<const goap::Comparison> unreachable_comparisons =
        automatic ? both->unreachable_goal_comparisons() : planner.unreachable_goal_comparisons();
    if (r.status == Status::InvalidQuery)  // the costs were checked above; nothing else can be wrong
        throw UsageError(args.file + ": the planner refused the query (the start, goal or costs do not fit the domain)");

    if (args.json) {
        std::cout << plan_json(file, *goal, r, unreachable_goals, unreachable_comparisons,
                               automatic ? goap::to_string(options.direction).data() : nullptr)
                         .dump()
                  << '\n';
    } else if (r.status == Status::Found) {
        std::cout << "goal: " << chosen.description << '\n';
        if (r.plan.empty()) std::cout << "the goal already holds at the start: nothing to do\n";
        std::cout << "plan (" << r.plan.size() << (r.plan.size() == 1 ? " action" : " actions") << ", cost "
                  << format_cost(r.cost) << "):\n";
        for (const goap::ActionId a : r.plan)
            std::cout << "  " << printable(file.domain.action_name(a)) << "  (cost " << format_cost(file.domain.action_cost(a)) << ")\n";
    } else if (r.status == Status::NoPath) {
        std::cout << "goal: " << chosen.description << '\n';
        std::cout << "no plan: the goal cannot be reached from the start state\n";
        if (!unreachable_goals.empty() || !unreachable_comparisons.empty()) {
            // What no sequence of actions reaches, and why (goap/explain.hpp): the atoms nothing sets and
            // the atoms that only need each other, not merely the goal atoms themselves.
            const goap::NoPlanAnalysis why = goap::analyze_no_plan(file.domain, file.start, *goal);
            std::cout << "unreachable goal conditions (no sequence of actions makes them hold):\n";
            for (const goap::Literal& l : unreachable_goals)
                std::cout << "  " << printable(file.domain.atom_name(l.atom)) << " = " << (l.value ? "true" : "false") << '\n';
            for (const goap::Comparison& c : unreachable_comparisons)
                std::cout << "  " << printable(comparison_text(file.domain, c)) << '\n';
            if (!why.root_causes.empty())
                std::cout << "because nothing sets (not true at the start, and no action sets them): "
                          << items_text(file.domain, why.root_causes) << '\n';
            for (const auto& c : why.cycles)
                std::cout << "because these only need each other (nothing outside them starts them): "
                          << items_text(file.domain, c) << '\n';
            for (const goap::NumericBlock& b : why.numeric)
                if (b.root_cause())
                    std::cout << "because no " << (b.disabled.empty() ? "" : "enabled ") << "action changes "
                              << printable(file.domain.variable_name(b.condition.var)) << " so that "
                              << printable(comparison_item(file.domain, b.condition)) << " holds\n";
            std::cout << "(gameplan explain " << args.file << " says more)\n";
        } else {
            std::cout << "every goal atom is reachable on its own, but not all of them together\n";
        }
    } else {
        std::cout << "no plan: " << plan_status_name(r.status) << " (the search used up its " << budget_text(r.limit, args.limits, args.max_nodes, "--max-nodes")
                  << ")\n";
    }
    if (!args.json)
        std::cout << "direction " << (automatic ? "auto: " : "")
                  << to_string(file.domain.has_variables() ? goap::Direction::Forward : options.direction)
                  << (file.domain.has_variables() && options.direction == goap::Direction::Backward ? " (domains with variables plan forward)" : "")
                  << (automatic && options.heuristic == goap::Heuristic::BySize
                          ? std::string()
                          : ", heuristic " + std::string(goap::to_string(automatic ? options.heuristic : planner.heuristic())))
                  << ", expanded " << r.stats.expanded << ", generated "
                  << r.stats.generated << ", " << r.micros << " us\n";
    return r.status == Status::Found ? 0 : 1;
}

}  // namespace

void add_plan_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<PlanArgs>();
    CLI::App* cmd = app.add_subcommand("plan", "Find a cost-optimal GOAP plan for a domain file (exit 0 found, 1 none, 2 bad input)");
    cmd->add_option("domain", args->file, "Domain file, JSON or CSV (see docs/formats.md; '-' = standard input); with --pddl a PDDL domain")->required();
    cmd->add_option("problem", args->problem, "With --pddl: the PDDL problem file");
    cmd->add_flag("--pddl", args->pddl, "Read a PDDL domain and problem (plan --pddl DOMAIN.pddl PROBLEM.pddl; docs/goap.md)");
    cmd->add_option("--heuristic", args->heuristic,
                    "Search heuristic (default: by size, hmax up to 64 relevant atoms and lmcut above; with --pddl lmcut)")
        ->check(CLI::IsMember({"lmcut", "hmax", "blind"}));
    cmd->add_option("--pruning", args->pruning,
                    "Successor pruning of forward search: auto (stubborn sets above 64 relevant atoms), none, "
                    "stubborn (strong stubborn sets); every choice keeps plans optimal")
        ->check(CLI::IsMember({"auto", "none", "stubborn"}));
    cmd->add_option("--write-plan", args->write_plan, "With --pddl: write the plan in the IPC format to this file");
    cmd->add_option("--direction", args->direction,
                    "Search direction (default: by size, backward up to 64 relevant atoms and forward above; with "
                    "--pddl forward); auto = both at once, the first answer wins")
        ->check(CLI::IsMember({"forward", "backward", "auto"}));
    add_integer_option(cmd, "--max-nodes", args->max_nodes, 1, UINT64_MAX, "Node expansion budget (default: unlimited)");
    add_limit_options(cmd, args->limits, kDefaultPlanTimeLimitS, "the search");
    cmd->add_option("--goal", args->goal, "Plan for this named goal from \"goals\" (default: \"goal\", else the highest priority)");
    cmd->add_option("--trace", args->trace,
                    "Write the search tree as Graphviz DOT to this file: states with g and h, the plan in bold "
                    "(a traced forward A*, same optimal cost)");
    add_integer_option(cmd, "--trace-nodes", args->trace_nodes, 1, UINT64_MAX, "Expanded states drawn by --trace at most (default 500)");
    cmd->add_flag("--json", args->json, "Print one JSON object: status, cost, plan, expanded, generated, micros");
    cmd->callback([args, &exit_code] { exit_code = run_plan(*args); });
}

}  // namespace gameplan::cli
