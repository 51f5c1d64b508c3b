// `gameplan graph GRAPH.json|GRAPH.csv --from ID --to ID [--to ID ...] ...`: one query on a weighted graph.
#include "cli_support.hpp"
#include "commands.hpp"
#include "results_json.hpp"

#include <gameplan/io/graph_io.hpp>
#include <gameplan/path/graph.hpp>
#include <gameplan/path/graph_search.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace gameplan::cli {

namespace {

struct GraphArgs {
    std::string file;
    std::string from;
    std::vector<std::string> to;
    std::string algorithm = "astar";
    double weight = 1.0;
    std::uint64_t max_expansions = 0;
    ResourceLimits limits;  // --time-limit (default none) and --max-memory (the search state)
    bool json = false;
};

path::GraphNode node_of(const path::Graph& graph, const std::string& id, const char* option, const std::string& file) {
    const path::GraphNode n = graph.find(id);
    if (n == path::kNoGraphNode)
        throw UsageError(std::string(option) + " '" + id + "': no node with this id in " + file + " (" +
                         std::to_string(graph.node_count()) + " nodes)");
    return n;
}

void run_graph(const GraphArgs& args, int& exit_code) {
    if (args.algorithm == "dijkstra" && args.weight != 1.0)
        throw UsageError("--weight applies to --algorithm astar only");
    const path::Graph graph = io::load_graph(args.file);
    const path::GraphNode from = node_of(graph, args.from, "--from", args.file);
    std::vector<path::GraphNode> goals;
    for (const std::string& id : args.to) goals.push_back(node_of(graph, id, "--to", args.file));

    path::GraphSearchOptions options;
    options.heuristic = args.algorithm == "dijkstra" ? path::GraphHeuristic::Zero : path::GraphHeuristic::Auto;
    options.weight = args.weight;
    if (args.max_expansions > 0) options.budget.max_expansions = args.max_expansions;
    options.budget.max_memory_bytes = args.limits.max_memory_bytes();  // counted before the state grows
    path::GraphPathfinder finder;
    path::GraphPath result;
    const auto t0 = std::chrono::steady_clock::now();
    options.budget.deadline = args.limits.deadline(t0);
    Status status = finder.begin(graph, std::span<const path::GraphNode>(&from, 1), goals, options);
    if (status == Status::InProgress) status = finder.step();
    (void)finder.finish(result);
    const double micros = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();

    if (args.json) {
        nlohmann::ordered_json j;
        j["status"] = to_string(status);
        j["cost"] = status == Status::Found ? nlohmann::ordered_json(result.cost) : nlohmann::ordered_json(nullptr);
        nlohmann::ordered_json ids = nlohmann::ordered_json::array();
        for (const path::GraphNode n : result.nodes) ids.push_back(graph.id(n));
        j["path"] = std::move(ids);
        j["expanded"] = finder.stats().expanded;
        add_budget_limit(j, status, finder.budget_limit());
        j["micros"] = std::round(micros * 10.0) / 10.0;
        std::cout << j.dump() << '\n';
    } else {
        std::cout << "status: " << to_string(status);
        if (status == Status::BudgetExhausted)
            std::cout << " (the search used up its "
                      << budget_text(finder.budget_limit(), args.limits, args.max_expansions, "--max-expansions") << ')';
        std::cout << '\n';
        if (status == Status::Found) {
            std::cout << "cost: " << std::setprecision(10) << result.cost << '\n' << "path:";
            for (std::size_t i = 0; i < result.nodes.size(); ++i) std::cout << (i ? " -> " : " ") << graph.id(result.nodes[i]);
            std::cout << '\n';
        }
        std::cout << "expanded: " << finder.stats().expanded << '\n'
                  << "micros: " << std::fixed << std::setprecision(1) << micros << std::defaultfloat << '\n';
    }
    exit_code = status == Status::Found ? 0 : 1;
}

}  // namespace

void add_graph_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<GraphArgs>();
    CLI::App* cmd = app.add_subcommand("graph", "Find a path on a weighted graph (graph JSON or CSV edge list)");
    cmd->add_option("graph", args->file, "Graph file (.json, or .csv for an edge list)")->required();
    cmd->add_option("--from", args->from, "Start node id")->required();
    cmd->add_option("--to", args->to, "Goal node id; repeat for the nearest of several goals")->required();
    cmd->add_option("--algorithm", args->algorithm,
                    "astar (straight-line heuristic when nodes have positions) or dijkstra")
        ->check(CLI::IsMember({"astar", "dijkstra"}))
        ->capture_default_str();
    add_real_option(cmd, "--weight", args->weight, 1.0, 1e6, "Weighted A*: f = g + W*h, W in [1, 1e6] (cost at most W x optimal; default 1)");
    add_integer_option(cmd, "--max-expansions", args->max_expansions, 0, UINT64_MAX, "Expansion budget (0 = unlimited)");
    add_limit_options(cmd, args->limits, 0.0, "the search");
    cmd->add_flag("--json", args->json, "Print one JSON object");
    cmd->callback([args, &exit_code] { run_graph(*args, exit_code); });
}

}  // namespace gameplan::cli
