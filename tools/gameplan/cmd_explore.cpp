// `gameplan explore MAP --from X,Y --to X,Y [--sight R] [--area-cost ...] [--avoid ...] [--layer ...]
// [--json]`: a unit that starts knowing nothing walks toward the goal under fog of war (path/fog.hpp),
// discovering cells within its sight and replanning when its route meets a wall (or an avoided area).
#include "area_options.hpp"
#include "cli_support.hpp"
#include "commands.hpp"
#include "domain_util.hpp"

#include <gameplan/path/fog.hpp>
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/path/grid_search.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <iomanip>
#include <iostream>
#include <memory>
#include <string>

namespace gameplan::cli {

namespace {

struct ExploreArgs {
    std::string map_file;
    std::string from;
    std::string to;
    std::uint64_t sight = 5;
    std::string movement = "8";
    std::string diagonal = "no-corner-cutting";
    bool json = false;
    std::uint64_t max_expansions = 0;
    AreaArgs area;
    ResourceLimits limits;
};

// A walk replans once per wall it meets, each plan a search of the whole map: on a large maze, many
// thousands of searches. Unless --time-limit says otherwise, it stops after this long.
constexpr double kDefaultExploreTimeLimitS = 60;

void run_explore(const ExploreArgs& args, int& exit_code) {
    AreaSetup area;
    const io::MapLoadOptions load = parse_area_args(args.area, area);  // before loading: bad letters fail fast
    const path::GridMap truth = read_grid_map(args.map_file, load);
    const path::GridPoint from = parse_point(args.from, "--from", truth);
    const path::GridPoint to = parse_point(args.to, "--to", truth);
    if (!truth.passable(from)) throw UsageError("start " + args.from + " is blocked");
    if (area.use_areas && area.filter.forbidden(area.areas.at(from)))
        throw UsageError("start " + args.from + " is in an avoided area");
    // Two searches' state (~20 bytes per cell each) and the team's view (3 to 7 bytes per padded cell),
    // plus 1 byte per cell of areas and 4 (+ parsing) per cell of each layer.
    const double cells = double(truth.width() + 2) * double(truth.height() + 2);
    require_memory(args.limits, (48.0 + 9.0 * double(args.area.layers.size())) * cells,
                   "exploring this " + std::to_string(truth.width()) + " x " + std::to_string(truth.height()) + " map");
    load_layers(args.area, truth, area);

    path::ExploreOptions options;
    options.movement = *path::parse_movement(args.movement);
    options.diagonal = *path::parse_diagonal_rule(args.diagonal);
    options.sight = static_cast<std::int32_t>(args.sight);
    if (area.use_areas) {
        options.areas = &area.areas;
        options.filter = &area.filter;
    }
    options.layers = area.cost_layers;
    options.budget.max_expansions = args.max_expansions == 0 ? UINT64_MAX : args.max_expansions;
    options.budget.deadline = args.limits.deadline(std::chrono::steady_clock::now());
    options.budget.max_memory_bytes = args.limits.max_memory_bytes();
    path::TeamKnowledge team(truth);
    path::Explorer explorer;
    path::ExploreResult result;
    const Status status = explorer.explore(truth, team, from, to, options, result);

    path::GridSearchOptions full;
    full.movement = options.movement;
    full.diagonal = options.diagonal;
    area.apply(full);  // the optimum of the same costs with full knowledge
    path::GridPathfinder finder;
    path::GridPath optimal;
    const bool reachable = truth.passable(to) && !(area.use_areas && area.filter.forbidden(area.areas.at(to))) &&
                           finder.find_path(truth, from, to, full, optimal) == Status::Found;

    const char* name = status == Status::Found ? "arrived" : status == Status::NoPath ? "unreachable" : "budget_exhausted";
    // Which limit stopped the walk: one of the budget's, or the step budget (4 x cells + 16).
    const std::string limit = result.limit != search::BudgetLimit::None ? std::string(search::to_string(result.limit)) : "steps";
    if (args.json) {
        std::ostream& out = std::cout;
        out << "{\"status\":\"" << name << '"';
        if (status == Status::BudgetExhausted) out << ",\"limit\":\"" << limit << '"';
        out << ",\"travelled\":" << nlohmann::json(result.travelled).dump()
            << ",\"optimal\":" << (reachable ? nlohmann::json(optimal.cost).dump() : std::string("null"))
            << ",\"replans\":" << result.replans << ",\"steps\":" << result.steps << ",\"path\":[";
        for (std::size_t i = 0; i < result.path.size(); ++i)
            out << (i ? ",[" : "[") << result.path[i].x << ',' << result.path[i].y << ']';
        out << "],\"known_cells\":" << team.known_count() << ",\"team_bytes\":" << team.memory_bytes() << "}\n";
    } else {
        std::cout << "status: " << name;
        if (status == Status::BudgetExhausted) {
            std::cout << " (the walk used up its "
                      << (result.limit == search::BudgetLimit::None
                              ? std::string("step limit of 4 x cells + 16")
                              : budget_text(result.limit, args.limits, args.max_expansions, "--max-expansions"))
                      << ')';
        }
        std::cout << '\n'
                  << "travelled: " << std::setprecision(10) << result.travelled << '\n'
                  << "optimal: " << (reachable ? std::to_string(optimal.cost) : std::string("none")) << '\n'
                  << "replans: " << result.replans << '\n'
                  << "steps: " << result.steps << '\n'
                  << "known cells: " << team.known_count() << " of " << truth.cell_count() << '\n'
                  << "team memory: " << human_bytes(double(team.memory_bytes())) << '\n';
    }
    exit_code = status == Status::Found ? 0 : 1;
}

}  // namespace

void add_explore_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<ExploreArgs>();
    CLI::App* cmd = app.add_subcommand(
        "explore", "Walk a unit that starts knowing nothing of the map to a goal (fog of war: discovery and replanning)");
    cmd->add_option("map", args->map_file, "Map file (MovingAI .map or plain-text grid; - = standard input)")->required();
    cmd->add_option("--from", args->from, "Start cell X,Y")->required();
    cmd->add_option("--to", args->to, "Goal cell X,Y")->required();
    add_integer_option(cmd, "--sight", args->sight, 1, path::kMaxSightRadius,
                       "Sight radius in cells (Chebyshev), in [1, 1024] (default 5)");
    cmd->add_option("--movement", args->movement, "4- or 8-connected movement")
        ->check(CLI::IsMember({"4", "8"}))
        ->capture_default_str();
    cmd->add_option("--diagonal", args->diagonal, "Diagonal rule for 8-connected movement")
        ->check(CLI::IsMember({"never", "no-corner-cutting", "one-obstacle", "always"}))
        ->capture_default_str();
    add_area_options(cmd, args->area);
    add_integer_option(cmd, "--max-expansions", args->max_expansions, 0, UINT64_MAX,
                       "Expansion budget of the walk: cells expanded by all its plans together (0 = unlimited)");
    add_limit_options(cmd, args->limits, kDefaultExploreTimeLimitS, "the walk (all its plans)");
    cmd->add_flag("--json", args->json,
                  "Print one JSON object: status (arrived|unreachable|budget_exhausted), limit (when budget_exhausted: "
                  "expansions|time|memory|steps), travelled, optimal, replans, steps, path, known_cells, team_bytes");
    cmd->callback([args, &exit_code] { run_explore(*args, exit_code); });
}

}  // namespace gameplan::cli
