// `gameplan waypoints MAP [--waypoint X,Y ...] [--no-corners] [--max-distance D] [--out FILE] [--png FILE]
// [--from X,Y --to X,Y] [--json]`: a map's waypoint (visibility) graph, written as a graph file that
// `gameplan graph` reads, and optionally a path over it between any two cells.
#include "cli_support.hpp"
#include "commands.hpp"
#include "domain_util.hpp"
#include "results_json.hpp"

#include <gameplan/io/graph_io.hpp>
#include <gameplan/io/image.hpp>
#include <gameplan/io/map_image.hpp>
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/path/waypoints.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iomanip>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

namespace gameplan::cli {

namespace {

struct WaypointArgs {
    std::string map_file;
    std::vector<std::string> waypoints;
    bool no_corners = false;
    double max_distance = 0;  // 0 = no limit
    std::string movement = "8";
    std::string diagonal = "no-corner-cutting";
    std::string from, to;  // a query on the graph ("" = none)
    std::string out;
    std::string png;
    std::uint64_t png_scale = 0;
    ResourceLimits limits;
    bool json = false;
};

io::Image draw_waypoints(const path::GridMap& map, const path::WaypointGraph& wg, std::size_t given, std::int32_t scale) {
    const io::MapPalette palette;
    io::Image image = io::render_map(map, scale, palette);
    const io::Rgb edge{150, 190, 235};
    const auto centre = [&](path::GridPoint p, std::int32_t& x, std::int32_t& y) {
        x = p.x * scale + scale / 2;
        y = p.y * scale + scale / 2;
    };
    for (path::GraphNode u = 0; u < wg.graph.node_count(); ++u)
        for (const path::GraphArc& a : wg.graph.arcs(u)) {
            if (a.to < u) continue;  // each edge once
            std::int32_t x0 = 0, y0 = 0, x1 = 0, y1 = 0;
            centre(wg.cells[u], x0, y0);
            centre(wg.cells[a.to], x1, y1);
            image.line(x0, y0, x1, y1, edge);
        }
    const io::Rgb corner{230, 140, 30};
    for (std::size_t n = 0; n < wg.cells.size(); ++n) io::mark_cell(image, wg.cells[n], scale, n < given ? palette.start : corner);
    return image;
}

void run_waypoints(const WaypointArgs& args, int& exit_code) {
    if (args.json && args.out == "-") throw UsageError("--out - writes the graph to standard output: leave out --json");
    const path::GridMap map = read_grid_map(args.map_file);
    if (map.has_terrain_costs())
        throw UsageError("waypoints: the map has terrain costs (line-of-sight lengths are defined on uniform maps)");
    std::vector<path::GridPoint> given;
    for (const std::string& text : args.waypoints) {
        const path::GridPoint p = parse_point(text, "--waypoint", map);
        if (!map.passable(p)) throw UsageError("--waypoint " + text + " is a blocked cell");
        given.push_back(p);
    }
    if (args.from.empty() != args.to.empty()) throw UsageError("--from and --to go together (a query on the graph)");
    const bool query = !args.from.empty();
    path::GridPoint from{}, to{};
    if (query) {
        from = parse_point(args.from, "--from", map);
        to = parse_point(args.to, "--to", map);
        if (!map.passable(from)) throw UsageError("--from " + args.from + " is a blocked cell");
        if (!map.passable(to)) throw UsageError("--to " + args.to + " is a blocked cell");
    }
    path::WaypointOptions options;
    options.corners = !args.no_corners;
    if (args.max_distance > 0) options.max_distance = args.max_distance;
    options.movement = *path::parse_movement(args.movement);
    options.diagonal = *path::parse_diagonal_rule(args.diagonal);
    // The waypoints as the library will place them (given cells first, duplicates merged). It refuses more
    // than kMaxWaypoints (all pairs are checked): say so before it starts.
    std::size_t count = 0, given_count = 0;
    {
        std::vector<path::GridPoint> cells;
        path::waypoint_cells(map, given, false, cells);
        given_count = cells.size();
        path::waypoint_cells(map, given, options.corners, cells);
        count = cells.size();
        if (count > path::kMaxWaypoints) {
            std::vector<path::GridPoint> corners;
            path::convex_corners(map, corners);
            throw UsageError("waypoints: this map gives " + std::to_string(count) + " waypoints (" + std::to_string(corners.size()) +
                             " obstacle corners), more than the " + std::to_string(path::kMaxWaypoints) +
                             " a graph may have (every pair is checked): use --no-corners with --waypoint cells");
        }
    }
    const std::int32_t scale = args.png.empty() ? 0 : picture_scale(args.png_scale, map);

    const auto t0 = std::chrono::steady_clock::now();
    options.budget.deadline = args.limits.deadline(t0);
    options.budget.max_memory_bytes = args.limits.max_memory_bytes();
    path::WaypointGraph wg;
    const Status status = path::build_waypoint_graph(map, given, options, wg);
    const double build_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (status != Status::Found && status != Status::BudgetExhausted)
        throw UsageError("waypoints: the graph could not be built (" + std::string(to_string(status)) + ")");
    const bool found = status == Status::Found;

    if (found && !args.out.empty()) {
        write_output(args.out, io::is_csv_graph_file(args.out) ? io::write_graph_csv(wg.graph) : io::write_graph_json(wg.graph));
    }
    // The query: the ends joined to the graph by its own rule, then A*; --time-limit and --max-memory bound
    // it too (what the build left of the time).
    path::WaypointPathfinder finder;
    path::GridPath route;
    Status query_status = Status::NoPath;
    double query_micros = 0;
    if (found && query) {
        path::GraphSearchOptions o;
        o.budget.deadline = options.budget.deadline;
        o.budget.max_memory_bytes = args.limits.max_memory_bytes();
        const auto q0 = std::chrono::steady_clock::now();
        query_status = finder.find_path(wg, map, from, to, o, route);
        query_micros = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - q0).count();
    }
    if (found && !args.png.empty()) {
        io::Image image = draw_waypoints(map, wg, given_count, scale);
        if (query) {
            const io::MapPalette palette;
            io::draw_path(image, route.cells, scale, palette.path);
            io::mark_cell(image, from, scale, palette.start);
            io::mark_cell(image, to, scale, palette.goal);
        }
        io::write_png(args.png, image);
    }

    const std::size_t edges = wg.graph.arc_count() / 2;
    if (args.json) {
        nlohmann::ordered_json j;
        j["status"] = to_string(status);
        j["nodes"] = count;
        j["given"] = given_count;
        j["corners"] = count - given_count;
        j["edges"] = found ? nlohmann::ordered_json(edges) : nlohmann::ordered_json(nullptr);
        add_budget_limit(j, status, wg.limit);
        j["build_ms"] = std::round(build_ms * 1000.0) / 1000.0;
        j["memory_bytes"] = wg.graph.memory_bytes();
        j["out"] = found && !args.out.empty() ? nlohmann::ordered_json(args.out) : nlohmann::ordered_json(nullptr);
        if (found && query) {
            nlohmann::ordered_json q;
            q["status"] = to_string(query_status);
            q["cost"] = query_status == Status::Found ? nlohmann::ordered_json(route.cost) : nlohmann::ordered_json(nullptr);
            nlohmann::ordered_json cells = nlohmann::ordered_json::array();
            for (const path::GridPoint c : route.cells) cells.push_back({c.x, c.y});
            q["path"] = std::move(cells);
            q["expanded"] = finder.stats().expanded;
            add_budget_limit(q, query_status, finder.budget_limit());
            q["start_links"] = finder.start_links();
            q["goal_links"] = finder.goal_links();
            q["micros"] = std::round(query_micros * 10.0) / 10.0;
            j["query"] = std::move(q);
        }
        std::cout << j.dump() << '\n';
    } else if (!found) {
        std::cout << "status: budget_exhausted (the build used up its " << budget_text(wg.limit, args.limits, 0, "")
                  << "; use --max-distance or fewer waypoints)\n";
    } else if (args.out != "-") {
        std::cout << "waypoints: " << count << " (" << given_count << " given, " << count - given_count
                  << " obstacle corners)\n"
                  << "edges: " << edges << " (pairs that see each other"
                  << (std::isfinite(options.max_distance) ? ", at most " + human_number(options.max_distance) + " apart" : std::string())
                  << ")\n"
                  << "build: " << std::fixed << std::setprecision(3) << build_ms << " ms, " << std::defaultfloat
                  << human_bytes(double(wg.graph.memory_bytes())) << '\n';
        if (!args.out.empty()) std::cout << "written: " << args.out << '\n';
        if (query) {
            std::cout << "query: " << to_string(query_status);
            if (query_status == Status::BudgetExhausted)
                std::cout << " (the search used up its " << budget_text(finder.budget_limit(), args.limits, 0, "") << ')';
            std::cout << '\n';
            if (query_status == Status::Found) {
                std::cout << "cost: " << std::setprecision(10) << route.cost << std::defaultfloat << "\npath:";
                for (const path::GridPoint c : route.cells) std::cout << " (" << c.x << ',' << c.y << ')';
                std::cout << '\n';
            }
            std::cout << "expanded: " << finder.stats().expanded << " (the start sees " << finder.start_links()
                      << " waypoints, " << finder.goal_links() << " see the goal)\n";
        }
    }
    exit_code = !found ? 1 : query && query_status != Status::Found ? 1 : 0;
}

}  // namespace

void add_waypoints_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<WaypointArgs>();
    CLI::App* cmd = app.add_subcommand(
        "waypoints", "Build a map's waypoint graph (obstacle corners and given cells joined where they see each other) and write it as a graph file");
    cmd->add_option("map", args->map_file, "Map file (MovingAI .map or plain-text grid; - = standard input)")->required();
    cmd->add_option("--waypoint", args->waypoints, "A waypoint cell X,Y; repeatable (they come first in the graph, in order)");
    cmd->add_flag("--no-corners", args->no_corners, "Only the --waypoint cells, no waypoints at obstacle corners");
    add_real_option(cmd, "--max-distance", args->max_distance, 1e-9, 1e9, "Join only waypoints at most this many cells apart (default: any distance)");
    cmd->add_option("--movement", args->movement, "Line-of-sight rule: 4- or 8-connected movement")
        ->check(CLI::IsMember({"4", "8"}))
        ->capture_default_str();
    cmd->add_option("--diagonal", args->diagonal, "Line-of-sight rule for 8-connected movement")
        ->check(CLI::IsMember({"never", "no-corner-cutting", "one-obstacle", "always"}))
        ->capture_default_str();
    cmd->add_option("--from", args->from, "With --to: also find a path from cell X,Y over the graph (ends joined to the waypoints they see)");
    cmd->add_option("--to", args->to, "The query's goal cell X,Y");
    cmd->add_option("--out", args->out, "Write the graph: FILE.json (ids \"x,y\", positions at cell centres), FILE.csv (edge list), - (JSON to standard output)");
    cmd->add_option("--png", args->png, "Write a picture of the map, the waypoints and their edges (PNG)");
    add_integer_option(cmd, "--png-scale", args->png_scale, 0, 64,
                       "Pixels per cell in the --png picture, at most 8192 x 8192 pixels in all (0 = fit to ~2048 px)");
    add_limit_options(cmd, args->limits, 120.0, "the build (and the --from/--to query)");
    cmd->add_flag("--json", args->json,
                  "Print one JSON object: status, nodes, given, corners, edges, build_ms, memory_bytes, out; with --from/--to "
                  "also query: status, cost, path, expanded, start_links, goal_links, micros");
    cmd->callback([args, &exit_code] { run_waypoints(*args, exit_code); });
}

}  // namespace gameplan::cli
