// `gameplan navmesh MAP [--png FILE] [--json]`: builds a map's navigation mesh and reports (and draws) it.
// Also the navmesh side of `gameplan path --algorithm navmesh` and `gameplan scen --algorithm navmesh`:
// Euclidean-optimal any-angle paths between cell centres (path/navmesh.hpp).
#include "cli_support.hpp"
#include "commands.hpp"
#include "domain_util.hpp"
#include "navmesh_cli.hpp"
#include "results_json.hpp"

#include <gameplan/io/image.hpp>
#include <gameplan/io/map_image.hpp>
#include <gameplan/io/movingai.hpp>
#include <gameplan/path/navmesh.hpp>
#include <gameplan/path/navmesh_hierarchy.hpp>
#include <gameplan/search/search_context.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace gameplan::cli {

namespace {

using Clock = std::chrono::steady_clock;

double millis_since(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

// Building takes the map-sized cell table (4 bytes a cell) and a grid-point table while it runs (4
// bytes a point), plus the mesh itself: at most about 96 bytes a grid point, measured on the worst
// layouts (a checkerboard: one polygon per free cell; a lattice of 1-wide corridors), 44 on the shared
// 512 x 512 mazes and random maps. 112 bytes a grid point bound all of it.
void check_navmesh_memory(const ResourceLimits& limits, const path::GridMap& map) {
    const double cells = double(map.width() + 1) * double(map.height() + 1);
    require_memory(limits, 112.0 * cells,
                   "building the navigation mesh of this " + std::to_string(map.width()) + " x " +
                       std::to_string(map.height()) + " map");
}

// navmesh-ch: builds the hierarchy of `mesh` within --preprocess-time-limit and --max-memory (a usage
// error, exit 2, when either runs out).
void build_hierarchy(path::NavmeshHierarchy& hierarchy, const path::Navmesh& mesh, const path::GridMap& map,
                     double time_limit_s, const ResourceLimits& limits) {
    const std::size_t budget = limits.max_memory_bytes() ? limits.max_memory_bytes() : SIZE_MAX;
    const path::JpsSupport built = hierarchy.build(mesh, budget, search::deadline_after(time_limit_s));
    const std::string size = std::to_string(map.width()) + " x " + std::to_string(map.height());
    if (built == path::JpsSupport::TimeBudget) {
        throw UsageError("algorithm navmesh-ch: building the navmesh hierarchy of this " + size +
                         " map took longer than --preprocess-time-limit " + preprocess_seconds_text(time_limit_s) +
                         " (s) allows (it grows fastest on maps of scattered obstacles); raise it, or use --algorithm navmesh");
    }
    if (built == path::JpsSupport::MemoryBudget)
        throw UsageError("algorithm navmesh-ch: the navmesh hierarchy of this " + size + " map would need more than --max-memory " +
                         std::to_string(limits.max_memory_mb) + " (MiB) allows; raise it to try");
}

void refuse_terrain_costs(const path::GridMap& map) {
    if (map.has_terrain_costs())
        throw UsageError("algorithm navmesh: the map has terrain costs (any-angle lengths are defined on uniform maps)");
}

// The map with every polygon tinted (neighbours in different tints) and outlined.
io::Image draw_mesh(const path::GridMap& map, const path::Navmesh& mesh, std::int32_t scale) {
    const io::MapPalette palette;
    io::Image image = io::render_map(map, scale, palette);
    static constexpr io::Rgb kTints[] = {{246, 226, 196}, {210, 236, 214}, {214, 224, 246}, {240, 214, 236}, {232, 240, 200}};
    const auto polys = mesh.polygons();
    for (std::size_t i = 0; i < polys.size(); ++i) {
        const path::NavPolygon& p = polys[i];
        image.fill_rect(p.x0 * scale, p.y0 * scale, (p.x1 - p.x0) * scale, (p.y1 - p.y0) * scale, kTints[(i * 7u) % 5u]);
    }
    if (scale >= 2) {
        const io::Rgb outline{120, 120, 130};
        for (const path::NavPolygon& p : polys) {
            const std::int32_t x0 = p.x0 * scale, y0 = p.y0 * scale, x1 = p.x1 * scale - 1, y1 = p.y1 * scale - 1;
            image.line(x0, y0, x1, y0, outline);
            image.line(x1, y0, x1, y1, outline);
            image.line(x1, y1, x0, y1, outline);
            image.line(x0, y1, x0, y0, outline);
        }
    }
    return image;
}

void draw_any_angle_path(io::Image& image, const path::NavmeshPath& route, std::int32_t scale, path::NavPoint from,
                         path::NavPoint to) {
    const io::MapPalette palette;
    const auto px = [&](double v) { return static_cast<std::int32_t>(std::lround(v * scale)); };
    for (std::size_t i = 1; i < route.points.size(); ++i)
        image.line(px(route.points[i - 1].x), px(route.points[i - 1].y), px(route.points[i].x), px(route.points[i].y),
                   palette.path);
    const auto marker = [&](path::NavPoint p, io::Rgb colour) {
        const std::int32_t r = std::max(2, scale / 3);
        image.fill_rect(px(p.x) - r, px(p.y) - r, 2 * r + 1, 2 * r + 1, colour);
    };
    marker(from, palette.start);
    marker(to, palette.goal);
}

struct NavmeshArgs {
    std::string map_file;
    std::string png;
    std::uint64_t png_scale = 0;
    bool json = false;
    ResourceLimits limits;
};

void run_navmesh(const NavmeshArgs& args, int& exit_code) {
    const path::GridMap map = read_grid_map(args.map_file);
    check_navmesh_memory(args.limits, map);
    const std::int32_t scale = args.png.empty() ? 0 : picture_scale(args.png_scale, map);
    path::Navmesh mesh;
    const auto t0 = Clock::now();
    (void)mesh.build(map);
    const double build_ms = millis_since(t0);
    std::size_t traversable = 0;
    for (const path::NavEdge& e : mesh.edges()) traversable += e.neighbour != path::kNoPolygon;
    const std::size_t free_cells = map.passable_count();
    if (args.json) {
        nlohmann::ordered_json j;
        j["width"] = map.width();
        j["height"] = map.height();
        j["free_cells"] = free_cells;
        j["polygons"] = mesh.polygon_count();
        j["vertices"] = mesh.vertices().size();
        j["edges"] = mesh.edges().size();
        j["shared_edges"] = traversable / 2;
        j["build_ms"] = std::round(build_ms * 1000.0) / 1000.0;
        j["memory_bytes"] = mesh.memory_bytes();
        std::cout << j.dump() << '\n';
    } else {
        std::cout << "map: " << map.width() << " x " << map.height() << " (" << free_cells << " free cells)\n"
                  << "polygons: " << mesh.polygon_count() << '\n'
                  << "vertices: " << mesh.vertices().size() << '\n'
                  << "edges: " << mesh.edges().size() << " (" << traversable / 2 << " shared)\n"
                  << "build ms: " << std::fixed << std::setprecision(3) << build_ms << std::defaultfloat << '\n'
                  << "memory bytes: " << mesh.memory_bytes() << '\n';
    }
    if (!args.png.empty()) io::write_png(args.png, draw_mesh(map, mesh, scale));
    exit_code = 0;
}

}  // namespace

int run_navmesh_path(const NavmeshPathRequest& request) {
    const path::GridMap& map = *request.map;
    refuse_terrain_costs(map);
    check_navmesh_memory(request.limits, map);
    const std::int32_t scale = request.png.empty() ? 0 : picture_scale(request.png_scale, map);
    path::Navmesh mesh;
    const auto b0 = Clock::now();
    (void)mesh.build(map);
    const double build_ms = millis_since(b0);
    path::NavmeshHierarchy hierarchy;
    double preprocess_ms = -1.0;
    if (request.hierarchy) {
        const auto p0 = Clock::now();
        build_hierarchy(hierarchy, mesh, map, request.preprocess_time_limit_s, request.limits);
        preprocess_ms = millis_since(p0);
    }
    path::NavmeshPathfinder polyanya;
    path::NavmeshHierarchyPathfinder ch;
    path::NavmeshSearchOptions options;
    if (request.max_expansions > 0) options.budget.max_expansions = request.max_expansions;
    options.budget.deadline = request.limits.deadline(Clock::now());
    options.budget.max_memory_bytes = request.limits.max_memory_bytes();
    const path::NavPoint from = path::cell_centre(request.from), to = path::cell_centre(request.to);
    path::NavmeshPath route;
    const auto t0 = Clock::now();
    const Status status = request.hierarchy ? ch.find_path(hierarchy, from, to, options, route)
                                            : polyanya.find_path(mesh, from, to, options, route);
    const double micros = millis_since(t0) * 1000.0;
    const std::uint64_t expanded = request.hierarchy ? ch.stats().expanded : polyanya.stats().expanded;
    const search::BudgetLimit limit = request.hierarchy ? ch.budget_limit() : polyanya.budget_limit();
    std::string problem;
    if (status == Status::InvalidQuery)
        problem = !map.passable(request.from) ? "start " + request.from_text + " is blocked"
                  : !map.passable(request.to) ? "goal " + request.to_text + " is blocked"
                                              : "invalid query";
    if (request.json) {
        write_navmesh_path_json(std::cout, status, limit, route, expanded, micros, build_ms, mesh.polygon_count(), problem,
                                preprocess_ms, request.hierarchy ? hierarchy.memory_bytes() : 0);
    } else {
        std::cout << "status: " << to_string(status) << '\n';
        if (status == Status::Found)
            std::cout << "cost: " << std::setprecision(10) << route.cost << '\n'
                      << "turning points: " << route.points.size() << '\n';
        std::cout << "expanded: " << expanded << '\n'
                  << "micros: " << std::fixed << std::setprecision(1) << micros << std::defaultfloat << '\n'
                  << "polygons: " << mesh.polygon_count() << '\n';
        if (request.hierarchy)
            std::cout << "preprocess ms: " << std::fixed << std::setprecision(2) << preprocess_ms << std::defaultfloat << '\n'
                      << "hierarchy bytes: " << hierarchy.memory_bytes() << '\n';
        if (status == Status::Found) {
            std::cout << "path:" << std::setprecision(17);
            for (const path::NavPoint& p : route.points) std::cout << " (" << p.x << ',' << p.y << ')';
            std::cout << '\n';
        }
    }
    if (!request.png.empty()) {
        io::Image image = draw_mesh(map, mesh, scale);
        draw_any_angle_path(image, route, scale, from, to);
        io::write_png(request.png, image);
    }
    if (!problem.empty()) std::cerr << "gameplan: " << problem << '\n';
    switch (status) {
        case Status::Found: return 0;
        case Status::InvalidQuery: return 2;
        default: return 1;
    }
}

int run_navmesh_scen(const NavmeshScenRequest& request) {
    const std::filesystem::path scen_path(request.scen_file);
    const io::ScenarioFile scen = io::load_movingai_scenarios(scen_path);
    struct Loaded {
        std::string name;  // the map file as first resolved (reported in the summary)
        path::GridMap map;
        path::Navmesh mesh;
        path::NavmeshHierarchy hierarchy;
        double build_ms = 0;
    };
    std::map<std::string, std::unique_ptr<Loaded>> maps;  // by canonical file name
    std::vector<Loaded*> map_of(scen.scenarios.size(), nullptr);
    std::map<std::string, std::string> resolved;  // written name -> canonical file
    double build_ms = 0, preprocess_ms = 0;
    std::size_t polygons = 0, hierarchy_bytes = 0;
    for (std::size_t i = 0; i < scen.scenarios.size(); ++i) {
        const std::string& written = scen.scenarios[i].map;
        auto it = resolved.find(written);
        if (it == resolved.end()) {
            const std::filesystem::path file = request.map_file.empty() ? io::resolve_scenario_map(scen_path, scen.scenarios[i])
                                                                        : std::filesystem::path(request.map_file);
            std::error_code ec;
            const std::filesystem::path canonical = std::filesystem::weakly_canonical(file, ec);
            it = resolved.emplace(written, (ec ? file.lexically_normal() : canonical).string()).first;
            if (!maps.count(it->second)) {
                auto loaded = std::make_unique<Loaded>();
                loaded->name = file.lexically_normal().string();  // as `scen` names it for the other algorithms
                loaded->map = io::load_grid_map(file);
                refuse_terrain_costs(loaded->map);
                check_navmesh_memory(request.limits, loaded->map);
                io::ScenarioFile subset{scen.file, scen.version, {}};
                for (const io::Scenario& s : scen.scenarios)
                    if (s.map == written) subset.scenarios.push_back(s);
                io::check_scenarios_fit(subset, loaded->map, file.string());
                const auto t0 = Clock::now();
                (void)loaded->mesh.build(loaded->map);
                loaded->build_ms = millis_since(t0);
                build_ms += loaded->build_ms;
                if (request.hierarchy) {
                    const auto p0 = Clock::now();
                    build_hierarchy(loaded->hierarchy, loaded->mesh, loaded->map, request.preprocess_time_limit_s, request.limits);
                    preprocess_ms += millis_since(p0);
                    hierarchy_bytes += loaded->hierarchy.memory_bytes();
                }
                polygons += loaded->mesh.polygon_count();
                maps.emplace(it->second, std::move(loaded));
            }
        }
        map_of[i] = maps.at(it->second).get();
    }

    // Solve every scenario on `threads` threads (each with its own pathfinder), then report in file order:
    // each query is independent of the ones before it, so the results do not depend on the thread count.
    struct Outcome {
        Status status = Status::InvalidQuery;
        double cost = 0;
        std::uint64_t expanded = 0;
        double micros = 0;
        bool ran = false;  // run to the end (not skipped or cut off by --time-limit)
    };
    std::vector<Outcome> outcomes(scen.scenarios.size());
    std::atomic<std::size_t> next{0};
    path::NavmeshSearchOptions options;
    options.budget.max_memory_bytes = request.limits.max_memory_bytes();
    options.budget.deadline = request.deadline;
    const auto solve = [&] {
        path::NavmeshPathfinder finder;
        path::NavmeshHierarchyPathfinder ch;
        path::NavmeshPath route;
        for (std::size_t i = next.fetch_add(1); i < scen.scenarios.size(); i = next.fetch_add(1)) {
            if (Clock::now() >= request.deadline) break;  // --time-limit: the rest is left out
            const io::Scenario& s = scen.scenarios[i];
            const auto t0 = Clock::now();
            Outcome& o = outcomes[i];
            const path::NavPoint from = path::cell_centre(s.start), to = path::cell_centre(s.goal);
            o.status = request.hierarchy ? ch.find_path(map_of[i]->hierarchy, from, to, options, route)
                                         : finder.find_path(map_of[i]->mesh, from, to, options, route);
            o.micros = millis_since(t0) * 1000.0;
            o.cost = route.cost;
            o.expanded = request.hierarchy ? ch.stats().expanded : finder.stats().expanded;
            o.ran = !cut_off(o.status, request.hierarchy ? ch.budget_limit() : finder.budget_limit(), request.deadline);
        }
    };
    {
        std::vector<std::thread> workers;
        for (unsigned t = 1; t < request.threads; ++t) workers.emplace_back(solve);
        solve();
        for (std::thread& worker : workers) worker.join();
    }

    std::size_t mismatches = 0, found_count = 0;
    double total_micros = 0, total_expanded = 0, total_shorter = 0, max_shorter = 0;
    std::vector<std::string> mismatch_lines;
    std::size_t completed = 0;
    for (std::size_t i = 0; i < scen.scenarios.size(); ++i) {
        const io::Scenario& s = scen.scenarios[i];
        const Outcome& o = outcomes[i];
        if (!o.ran) continue;
        ++completed;
        const path::NavPoint from = path::cell_centre(s.start), to = path::cell_centre(s.goal);
        const Status status = o.status;
        const double micros = o.micros;
        const bool found = status == Status::Found;
        // An 8-connected path between cell centres is itself an any-angle path, so the shortest any-angle
        // path is never longer than the optimum (and never shorter than the straight line).
        const double straight = std::hypot(to.x - from.x, to.y - from.y);
        const bool match = found && o.cost <= s.optimal + s.tolerance && o.cost >= straight - 1e-9;
        const double shorter = found && s.optimal > 0 ? 1.0 - o.cost / s.optimal : 0.0;
        if (found) {
            ++found_count;
            total_shorter += shorter;
            max_shorter = std::max(max_shorter, shorter);
        }
        total_micros += micros;
        total_expanded += double(o.expanded);
        if (!match) {
            ++mismatches;
            if (!request.json && mismatch_lines.size() < 20) {
                std::ostringstream line;
                line << "mismatch: scenario " << i << " (line " << s.line << ") from " << s.start.x << ',' << s.start.y << " to "
                     << s.goal.x << ',' << s.goal.y << ": " << to_string(status);
                if (found) line << " cost " << std::setprecision(10) << o.cost;
                line << ", 8-connected optimum " << s.optimal;
                mismatch_lines.push_back(line.str());
            }
        }
        if (request.json) {
            nlohmann::ordered_json j;
            j["id"] = i;
            j["cost"] = found ? nlohmann::ordered_json(o.cost) : nlohmann::ordered_json(nullptr);
            j["optimal"] = s.optimal;
            j["shorter"] = shorter;
            j["expanded"] = o.expanded;
            j["micros"] = std::round(micros * 100.0) / 100.0;
            j["match"] = match;
            if (!found) j["status"] = to_string(status);
            std::cout << j.dump() << '\n';
        }
    }
    const double n = completed == 0 ? 1.0 : double(completed);
    const double mean_shorter = found_count ? total_shorter / double(found_count) : 0.0;
    const bool stopped = completed < scen.scenarios.size();
    if (request.json) {
        nlohmann::ordered_json summary;
        summary["summary"] = true;
        summary["scenarios"] = scen.scenarios.size();
        summary["mismatches"] = mismatches;
        summary["mean_micros"] = std::round(total_micros / n * 100.0) / 100.0;
        summary["mean_expanded"] = std::round(total_expanded / n * 10.0) / 10.0;
        summary["algorithm"] = request.hierarchy ? "navmesh-ch" : "navmesh";
        nlohmann::ordered_json names = nlohmann::ordered_json::array();
        for (const auto& [key, loaded] : maps) names.push_back(loaded->name);
        summary["maps"] = std::move(names);
        summary["threads"] = request.threads;
        summary["mean_shorter"] = mean_shorter;
        summary["max_shorter"] = max_shorter;
        summary["polygons"] = polygons;
        summary["preprocess_ms"] = std::round((build_ms + preprocess_ms) * 100.0) / 100.0;
        if (request.hierarchy) summary["hierarchy_bytes"] = hierarchy_bytes;
        add_scen_stop(summary, stopped, completed);
        std::cout << summary.dump() << '\n';
    } else {
        for (const auto& line : mismatch_lines) std::cout << line << '\n';
        if (mismatches > mismatch_lines.size()) std::cout << "... and " << mismatches - mismatch_lines.size() << " more\n";
        for (const auto& [key, loaded] : maps) std::cout << "map: " << loaded->name << '\n';
        std::cout << "scenarios: " << scen.scenarios.size() << '\n';
        if (stopped) std::cout << scen_stop_text(request.limits, completed) << '\n';
        std::cout << "mismatches: " << mismatches << '\n'
                  << "mean µs: " << std::fixed << std::setprecision(2) << total_micros / n << '\n'
                  << "mean expansions: " << std::setprecision(1) << total_expanded / n << std::defaultfloat << '\n'
                  << "algorithm: " << (request.hierarchy ? "navmesh-ch" : "navmesh") << '\n'
                  << "threads: " << request.threads << '\n'
                  << "mean shorter than the 8-connected optimum: " << std::setprecision(4) << mean_shorter * 100.0 << "%\n"
                  << "max shorter: " << max_shorter * 100.0 << "%\n"
                  << "polygons: " << polygons << '\n'
                  << "preprocessing ms: " << std::fixed << std::setprecision(2) << build_ms + preprocess_ms << std::defaultfloat << '\n';
        if (request.hierarchy) std::cout << "hierarchy bytes: " << hierarchy_bytes << '\n';
    }
    return mismatches == 0 && !stopped ? 0 : 1;
}

void add_navmesh_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<NavmeshArgs>();
    CLI::App* cmd = app.add_subcommand("navmesh", "Build a map's navigation mesh (convex polygons) and report or draw it");
    cmd->add_option("map", args->map_file, "Map file (MovingAI .map or plain-text grid; - = standard input)")->required();
    cmd->add_option("--png", args->png, "Write a picture of the map and its polygons (PNG)");
    add_integer_option(cmd, "--png-scale", args->png_scale, 0, 64,
                       "Pixels per cell in the --png picture, at most 8192 x 8192 pixels in all (0 = fit to ~2048 px)");
    add_memory_option(cmd, args->limits, "the build (linear in the map's size: no time limit)");
    cmd->add_flag("--json", args->json, "Print one JSON object");
    cmd->callback([args, &exit_code] { run_navmesh(*args, exit_code); });
}

}  // namespace gameplan::cli
