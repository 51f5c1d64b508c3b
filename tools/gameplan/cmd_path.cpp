// `gameplan path MAP --from X,Y --to X,Y ...`: one grid query, printed as text, JSON or an ASCII picture.
#include "area_options.hpp"
#include "cli_support.hpp"
#include "commands.hpp"
#include "domain_util.hpp"
#include "navmesh_cli.hpp"
#include "results_json.hpp"

#include <gameplan/io/movingai.hpp>
#include <gameplan/path/dead_ends.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/path/grid_search.hpp>
#include <gameplan/path/islands.hpp>
#include <gameplan/path/smoothing.hpp>
#include <gameplan/io/map_image.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gameplan::cli {

namespace {

struct PathArgs {
    std::string map_file;
    std::string from;
    std::string to;
    std::string movement = "8";
    std::string diagonal = "no-corner-cutting";
    std::string heuristic = "auto";
    double weight = 1.0;
    std::uint64_t max_expansions = 0;
    std::string algorithm = "astar";
    bool smooth = false;
    std::uint64_t cluster_size = 64;
    std::string png;
    std::uint64_t png_scale = 0;
    bool islands = false;
    bool dead_ends = false;
    bool json = false;
    bool render = false;
    bool corners = false;
    std::string topology = "square";
    AreaArgs area;
    ResourceLimits limits;
    double preprocess_time_limit_s = kDefaultPreprocessSeconds;
};

}  // namespace

std::size_t hpa_memory_estimate(const path::GridMap& map, std::uint64_t cluster_size) {
    if (cluster_size < std::uint64_t(path::kMinClusterSize) || cluster_size > std::uint64_t(path::kMaxClusterSize)) return 0;
    path::HierarchyOptions h;
    h.cluster_size = static_cast<std::int32_t>(cluster_size);
    // The HPA* query's refinement windows add a grid search state (about 20 bytes per cell).
    return path::HierarchicalMap::estimate_memory_bytes(map, {}, h) + 20 * map.cell_count();
}

double grid_memory_estimate(const path::GridMap& map, GridAlgorithm algorithm, std::uint64_t cluster_size, bool islands,
                            bool dead_ends, std::size_t search_states) {
    const double cells = double(map.width()) * double(map.height());
    const double padded = (double(map.width()) + 2) * (double(map.height()) + 2);
    double bytes = 20.0 * cells * double(search_states);
    if (algorithm == GridAlgorithm::JpsPlus) bytes += 17.0 * padded;
    // subgoal graph: 25 bytes per padded cell before its edges and joins (docs/subgoal.md)
    if (algorithm == GridAlgorithm::Subgoal) bytes += 25.0 * padded;
    if (islands) bytes += 8.0 * cells;
    if (dead_ends) bytes += 38.0 * cells;
    if (algorithm == GridAlgorithm::Hpa) bytes += static_cast<double>(hpa_memory_estimate(map, cluster_size));
    return bytes;
}

namespace {

// What the search state and the preprocessing of `args` take on `map` (the map itself excluded).
void check_path_memory(const PathArgs& args, GridAlgorithm algorithm, const path::GridMap& map) {
    const double cells = double(map.width()) * double(map.height());
    const bool hex = args.topology == "hex";
    // A hex search holds 36 bytes a padded cell (hex_grid.hpp: the engine's arrays, the open list's
    // positions, the goal marks); its islands 4 a cell, and up to 8 more while they are built.
    double bytes = hex ? 36.0 * double(map.node_bound()) + (args.islands ? 12.0 * cells : 0.0)
                       : grid_memory_estimate(map, algorithm, args.cluster_size, args.islands, args.dead_ends, 1);
    std::string what = "searching this " + std::to_string(map.width()) + " x " + std::to_string(map.height()) + " map with " +
                       (hex ? std::string("--topology hex") : "--algorithm " + std::string(to_string(algorithm)));
    if (args.islands) what += " --islands";
    if (args.dead_ends) what += " --dead-ends";
    if (args.area.any()) bytes += (1.0 + 9.0 * double(args.area.layers.size())) * cells, what += " with areas and layers";
    require_memory(args.limits, bytes, what);
}

/// The map around the path (or around start and goal when there is none), two cells of margin.
void render(std::ostream& out, const path::GridMap& map, const path::GridPath& result, path::GridPoint from, path::GridPoint to) {
    std::int32_t x0 = std::min(from.x, to.x), x1 = std::max(from.x, to.x);
    std::int32_t y0 = std::min(from.y, to.y), y1 = std::max(from.y, to.y);
    for (const auto& c : result.cells) {
        x0 = std::min(x0, c.x), x1 = std::max(x1, c.x);
        y0 = std::min(y0, c.y), y1 = std::max(y1, c.y);
    }
    x0 = std::max(0, x0 - 2), y0 = std::max(0, y0 - 2);
    x1 = std::min(map.width() - 1, x1 + 2), y1 = std::min(map.height() - 1, y1 + 2);
    const std::size_t w = std::size_t(x1 - x0 + 1);
    std::vector<std::string> rows(std::size_t(y1 - y0 + 1), std::string(w, ' '));
    for (std::int32_t y = y0; y <= y1; ++y)
        for (std::int32_t x = x0; x <= x1; ++x) {
            char c = '@';
            if (map.passable({x, y})) {
                const auto cost = map.cost({x, y});
                c = cost == 1 ? '.' : cost <= 9 ? char('0' + cost) : '+';
            }
            rows[std::size_t(y - y0)][std::size_t(x - x0)] = c;
        }
    for (const auto& c : result.cells) rows[std::size_t(c.y - y0)][std::size_t(c.x - x0)] = '*';
    rows[std::size_t(from.y - y0)][std::size_t(from.x - x0)] = 'S';
    rows[std::size_t(to.y - y0)][std::size_t(to.x - x0)] = 'G';
    out << "map region x " << x0 << ".." << x1 << ", y " << y0 << ".." << y1
        << "  (S start, G goal, * path, . free, 2-9 terrain cost, + cost > 9, @ blocked)\n";
    for (const auto& row : rows) out << row << '\n';
}

/// The debugging picture: the map, every cell the search expanded (HPA*: the abstract nodes), the path
/// and its ends. The legend is io::MapPalette's.
void write_search_png(const std::string& file, std::int32_t scale, const path::GridMap& map, const GridRunner& runner,
                      const path::GridPath& result, path::GridPoint from, path::GridPoint to) {
    const io::MapPalette palette;
    io::Image image = io::render_map(map, scale, palette);
    if (runner.algorithm() == GridAlgorithm::Hpa) {
        std::vector<path::GridPoint> nodes;
        runner.hierarchy().node_cells(nodes);
        for (const auto& p : nodes) io::paint_cell(image, p, scale, palette.generated);
    } else {
        for (std::int32_t y = 0; y < map.height(); ++y)
            for (std::int32_t x = 0; x < map.width(); ++x)
                if (runner.expanded({x, y})) io::paint_cell(image, {x, y}, scale, palette.expanded);
    }
    io::draw_path(image, result.cells, scale, palette.path);
    const auto marker = [&](path::GridPoint p, io::Rgb colour) {  // visible even at one pixel per cell
        if (scale >= 4) return io::mark_cell(image, p, scale, colour);
        const std::int32_t cx = p.x * scale + scale / 2, cy = p.y * scale + scale / 2;
        image.fill_rect(cx - 2, cy - 2, 5, 5, colour);
    };
    marker(from, palette.start);
    marker(to, palette.goal);
    io::write_png(file, image);
}

void run_path(const PathArgs& args, int& exit_code) {
    if (args.algorithm == kNavmeshAlgorithm || args.algorithm == kNavmeshChAlgorithm) {
        if (args.smooth || args.islands || args.dead_ends || args.corners || args.render || args.topology != "square" ||
            args.movement != "8" || args.diagonal != "no-corner-cutting" || args.heuristic != "auto" || args.weight != 1.0)
            throw UsageError("--algorithm navmesh: any-angle paths through the navigation mesh take no --smooth, --islands, "
                             "--dead-ends, --corners, --render, --topology, --movement, --diagonal, --heuristic or --weight");
        const path::GridMap map = read_grid_map(args.map_file);
        exit_code = run_navmesh_path(NavmeshPathRequest{&map, parse_point(args.from, "--from", map), parse_point(args.to, "--to", map),
                                                        args.from, args.to, args.max_expansions, args.limits, args.json,
                                                        args.png, args.png_scale, args.algorithm == kNavmeshChAlgorithm,
                                                        args.preprocess_time_limit_s});
        return;
    }
    const GridAlgorithm algorithm = *parse_grid_algorithm(args.algorithm);
    require_supported(algorithm, args.smooth);  // before loading a map it could not search
    if (algorithm == GridAlgorithm::Dijkstra && args.heuristic != "auto" && args.heuristic != "zero")
        throw UsageError("--heuristic " + args.heuristic + " contradicts --algorithm dijkstra (a zero heuristic)");
    AreaSetup area;
    const io::MapLoadOptions load = parse_area_args(args.area, area);  // before loading: bad letters fail fast
    if (args.area.any() && algorithm != GridAlgorithm::AStar && algorithm != GridAlgorithm::Dijkstra &&
        algorithm != GridAlgorithm::Hpa && algorithm != GridAlgorithm::Theta)
        throw UsageError("--area-cost, --avoid and --layer apply to --algorithm astar, dijkstra, hpa and theta (" +
                         std::string(to_string(algorithm)) + " needs uniform costs)");
    if (args.area.any() && args.topology == "hex")
        throw UsageError("--topology hex: --area-cost, --avoid and --layer apply to square grids");
    const path::GridMap map = read_grid_map(args.map_file, load);  // '-' = standard input
    const path::GridPoint from = parse_point(args.from, "--from", map);
    const path::GridPoint to = parse_point(args.to, "--to", map);
    check_path_memory(args, algorithm, map);
    load_layers(args.area, map, area);
    if (args.topology == "hex") {
        if (algorithm != GridAlgorithm::AStar && algorithm != GridAlgorithm::Dijkstra)
            throw UsageError("--topology hex: --algorithm must be astar or dijkstra");
        if (args.movement != "8" || args.diagonal != "no-corner-cutting")
            throw UsageError("--topology hex: hexes have six neighbours; --movement and --diagonal apply to square grids");
        if (args.heuristic != "auto" && args.heuristic != "zero")
            throw UsageError("--topology hex: --heuristic must be auto (hex distance) or zero");
        if (args.smooth || args.corners || args.dead_ends)
            throw UsageError("--topology hex: --smooth, --corners and --dead-ends apply to square grids");
        exit_code = run_hex_path(HexPathRequest{&map, from, to, args.from, args.to,
                                                algorithm == GridAlgorithm::Dijkstra || args.heuristic == "zero", args.weight,
                                                args.max_expansions, args.limits.time_limit_s, args.limits.max_memory_bytes(),
                                                args.islands, args.json, args.render, args.png,
                                                args.png.empty() ? 0 : picture_scale(args.png_scale, map)});
        return;
    }
    path::GridSearchOptions options;
    options.movement = *path::parse_movement(args.movement);
    options.diagonal = *path::parse_diagonal_rule(args.diagonal);
    options.heuristic = *path::parse_heuristic(args.heuristic);
    options.weight = args.weight;
    if (args.max_expansions > 0) options.budget.max_expansions = args.max_expansions;
    area.apply(options);

    path::Islands islands;
    if (args.islands) {
        islands.build(map, options);
        options.islands = &islands;
    }
    path::DeadEnds dead_ends;
    if (args.dead_ends) {
        dead_ends.build(map, options);
        options.dead_ends = &dead_ends;
    }

    const std::int32_t png_scale = args.png.empty() ? 0 : picture_scale(args.png_scale, map);
    GridRunner runner(map, algorithm, options,
                      GridRunnerSettings{args.smooth, static_cast<std::int32_t>(args.cluster_size), args.limits.max_memory_bytes(),
                                         args.preprocess_time_limit_s, args.limits.time_limit_s});
    path::GridPath result;
    const GridRun run = runner.run(from, to, result);
    // Inexact results are compared with the optimum of an exact search under the same rules.
    const std::optional<double> suboptimality = grid_suboptimality(map, from, to, options, runner, run, result);

    std::string problem;
    if (run.status == Status::InvalidQuery) {
        if (!map.passable(from)) problem = "start " + args.from + " is blocked";
        else if (!map.passable(to)) problem = "goal " + args.to + " is blocked";
        else if (area.use_areas && area.filter.forbidden(area.areas.at(from))) problem = "start " + args.from + " is in an avoided area";
        else if (area.use_areas && area.filter.forbidden(area.areas.at(to))) problem = "goal " + args.to + " is in an avoided area";
        else problem = "invalid query";
    }
    std::vector<path::GridPoint> corners;
    if (args.corners) path::corner_points(result.cells, corners);

    if (args.json) {
        write_grid_path_json(std::cout, run, result, runner.setup_micros(), suboptimality, args.corners ? &corners : nullptr,
                             problem);
    } else {
        std::cout << "status: " << to_string(run.status) << '\n';
        if (run.status == Status::Found) {
            std::cout << "cost: " << std::setprecision(10) << result.cost << '\n'
                      << "cells: " << result.cells.size() << '\n';
        }
        if (suboptimality) std::cout << "suboptimality: " << std::setprecision(4) << *suboptimality * 100.0 << "%\n";
        std::cout << "expanded: " << run.expanded << '\n'
                  << "micros: " << std::fixed << std::setprecision(1) << run.micros << std::defaultfloat << '\n';
        if (run.status == Status::Found) {
            const auto& shown = args.corners ? corners : result.cells;
            std::cout << (args.corners ? "corners:" : "path:");
            for (const auto& c : shown) std::cout << " (" << c.x << ',' << c.y << ')';
            std::cout << '\n';
        }
    }
    if (args.render) render(std::cout, map, result, from, to);
    if (!args.png.empty()) write_search_png(args.png, png_scale, map, runner, result, from, to);
    if (!problem.empty()) std::cerr << "gameplan: " << problem << '\n';
    switch (run.status) {
        case Status::Found: exit_code = 0; break;
        case Status::InvalidQuery: exit_code = 2; break;
        default: exit_code = 1; break;
    }
}

}  // namespace

void add_path_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<PathArgs>();
    CLI::App* cmd = app.add_subcommand("path", "Find a path on a grid map (MovingAI .map or plain-text grid)");
    cmd->add_option("map", args->map_file, "Map file")->required();
    cmd->add_option("--from", args->from, "Start cell X,Y (0,0 is the upper-left cell)")->required();
    cmd->add_option("--to", args->to, "Goal cell X,Y")->required();
    cmd->add_option("--movement", args->movement, "4- or 8-connected movement")
        ->check(CLI::IsMember({"4", "8"}))
        ->capture_default_str();
    cmd->add_option("--diagonal", args->diagonal, "Diagonal rule for 8-connected movement")
        ->check(CLI::IsMember({"never", "no-corner-cutting", "one-obstacle", "always"}))
        ->capture_default_str();
    cmd->add_option("--heuristic", args->heuristic, "Heuristic (auto = tightest admissible for the movement rule)")
        ->check(CLI::IsMember({"auto", "manhattan", "octile", "euclidean", "chebyshev", "zero"}))
        ->capture_default_str();
    add_real_option(cmd, "--weight", args->weight, 1.0, 1e6, "Weighted A*: f = g + W*h, W in [1, 1e6] (cost at most W x optimal; default 1)");
    add_integer_option(cmd, "--max-expansions", args->max_expansions, 0, UINT64_MAX, "Expansion budget (0 = unlimited)");
    cmd->add_option("--algorithm", args->algorithm,
                    "Search algorithm (dijkstra = A* with a zero heuristic; hpa = two-tier, inexact; theta = any-angle; "
                    "navmesh = Euclidean-optimal any-angle between cell centres; navmesh-ch = the same after preprocessing)")
        ->check(CLI::IsMember(with_navmesh(grid_algorithm_names())))
        ->capture_default_str();
    cmd->add_flag("--smooth", args->smooth, "Smooth the path (string pulling; stays a legal grid path)");
    add_integer_option(cmd, "--cluster-size", args->cluster_size, path::kMinClusterSize, path::kMaxClusterSize,
                       "HPA* cluster side in cells (default 64)");
    cmd->add_option("--png", args->png, "Write a picture of the map, the expanded cells and the path (PNG)");
    add_integer_option(cmd, "--png-scale", args->png_scale, 0, 64,
                       "Pixels per cell in the --png picture, at most 8192 x 8192 pixels in all (0 = fit to ~2048 px)");
    add_limit_options(cmd, args->limits, 0, "the search");
    add_preprocess_time_option(cmd, args->preprocess_time_limit_s);
    cmd->add_flag("--islands", args->islands, "Answer unreachable goals from precomputed islands, without searching");
    cmd->add_flag("--dead-ends", args->dead_ends, "Skip dead-end regions holding neither end (helps on mazes)");
    cmd->add_flag("--json", args->json, "Print one JSON object");
    cmd->add_flag("--render", args->render, "Print the map around the path in ASCII");
    cmd->add_flag("--corners", args->corners, "Report only the path's corner points");
    add_area_options(cmd, args->area);
    cmd->add_option("--topology", args->topology, "square (the default) or hex (odd-r offset rows, six neighbours)")
        ->check(CLI::IsMember({"square", "hex"}))
        ->capture_default_str();
    cmd->callback([args, &exit_code] { run_path(*args, exit_code); });
}

}  // namespace gameplan::cli
