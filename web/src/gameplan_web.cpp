// The WebAssembly side of the pages in web/site: a small C interface over the library for JavaScript.
//
// Every function that computes something returns a JSON text (owned by this module, valid until the
// next call): the same objects as the CLI's `--json`, written by the same code (tools/gameplan/
// grid_runner.cpp and results_json.cpp), or {"error": "..."} for input the CLI would refuse with exit
// code 2. Bulk data for drawing (map cells, expanded cells, villagers) is handed over as pointers into
// the module's memory that JavaScript reads through HEAPU8 / HEAP32 views.
//
// Single-threaded: one page drives one module instance; nothing here is re-entrant.
#include "grid_runner.hpp"
#include "results_json.hpp"

#include <gameplan/goap/planner.hpp>
#include <gameplan/io/domain_file.hpp>
#include <gameplan/io/lint.hpp>
#include <gameplan/io/load_error.hpp>
#include <gameplan/io/movingai.hpp>
#include <gameplan/path/grid_map.hpp>
#include <gameplan/path/grid_rules.hpp>
#include <gameplan/path/hex_grid.hpp>
#include <gameplan/path/influence.hpp>
#include <gameplan/path/navmesh.hpp>
#include <gameplan/path/navmesh_hierarchy.hpp>
#include <gameplan/search/search_context.hpp>
#include <gameplan_village/generate.hpp>
#include <gameplan_village/village.hpp>

#include <nlohmann/json.hpp>

#include <emscripten/emscripten.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace gameplan;
using Clock = std::chrono::steady_clock;

std::string g_out;  // the text the last call returned

// `gameplan plan`'s default --time-limit in seconds (cli_support.hpp, kDefaultPlanTimeLimitS).
constexpr double kPlanTimeLimitS = 5;

const char* reply(std::string text) {
    g_out = std::move(text);
    return g_out.c_str();
}

const char* error_reply(const std::string& message) {
    nlohmann::ordered_json j;
    j["error"] = message;
    return reply(j.dump());
}

// A LoadError as {"file", "line", "column", "field", "message"} for the editor to point at.
nlohmann::ordered_json load_error_json(const io::LoadError& e) {
    nlohmann::ordered_json j;
    j["file"] = e.file();
    j["line"] = e.line();
    j["column"] = e.column();
    j["field"] = e.field();
    j["message"] = e.what();
    return j;
}

// ---- the pathfinding playground -------------------------------------------------------------------

struct PathPage {
    std::unique_ptr<path::GridMap> map;
    std::vector<std::uint8_t> cells;          // 0 blocked, else the cell's cost (capped at 255)
    std::vector<std::int32_t> expanded;       // x, y pairs in replay order
};
PathPage g_path;

void refresh_cells() {
    const path::GridMap& m = *g_path.map;
    g_path.cells.assign(m.cell_count(), 0);
    for (std::int32_t y = 0; y < m.height(); ++y)
        for (std::int32_t x = 0; x < m.width(); ++x)
            if (m.passable({x, y}))
                g_path.cells[std::size_t(y) * std::size_t(m.width()) + std::size_t(x)] =
                    static_cast<std::uint8_t>(std::min<std::uint32_t>(m.cost({x, y}), 255));
}

// Octile distance: the replay order estimate for searches that keep no g values.
double octile(path::GridPoint a, path::GridPoint b) {
    const double dx = std::abs(a.x - b.x), dy = std::abs(a.y - b.y);
    return std::max(dx, dy) + (std::sqrt(2.0) - 1.0) * std::min(dx, dy);
}

struct PathQuery {
    std::string algorithm;
    path::GridPoint from, to;
    path::GridSearchOptions options;
    bool smooth = false;
    bool hex = false;  // --topology hex
};

// Checks and options as `gameplan path` applies them (cmd_path.cpp, run_path). Throws UsageError.
PathQuery make_query(const char* algorithm, int fx, int fy, int tx, int ty, const char* movement, const char* diagonal,
                     const char* heuristic, double weight, int smooth, const char* topology) {
    if (!g_path.map) throw cli::UsageError("no map loaded");
    const path::GridMap& map = *g_path.map;
    PathQuery q;
    q.algorithm = algorithm;
    q.from = {fx, fy};
    q.to = {tx, ty};
    q.smooth = smooth != 0;
    const auto where = [&](const char* option, path::GridPoint p) {
        if (!map.contains(p.x, p.y))
            throw cli::UsageError(std::string(option) + " " + std::to_string(p.x) + "," + std::to_string(p.y) +
                                  " is outside the map (x in [0, " + std::to_string(map.width() - 1) + "], y in [0, " +
                                  std::to_string(map.height() - 1) + "])");
    };
    where("--from", q.from);
    where("--to", q.to);
    if (!(weight >= 1.0 && weight <= 1e6)) throw cli::UsageError("--weight must be in [1, 1e6]");
    const std::string shape(topology);
    if (shape != "square" && shape != "hex") throw cli::UsageError("--topology must be square or hex");
    if (shape == "hex") {  // as `gameplan path --topology hex` checks
        q.hex = true;
        if (q.algorithm != "astar" && q.algorithm != "dijkstra") throw cli::UsageError("--topology hex: --algorithm must be astar or dijkstra");
        if (std::string(movement) != "8" || std::string(diagonal) != "no-corner-cutting")
            throw cli::UsageError("--topology hex: hexes have six neighbours; --movement and --diagonal apply to square grids");
        if (std::string(heuristic) != "auto" && std::string(heuristic) != "zero")
            throw cli::UsageError("--topology hex: --heuristic must be auto (hex distance) or zero");
        if (q.smooth) throw cli::UsageError("--topology hex: --smooth, --corners and --dead-ends apply to square grids");
        q.options.heuristic = q.algorithm == "dijkstra" || std::string(heuristic) == "zero" ? path::Heuristic::Zero : path::Heuristic::Auto;
        q.options.weight = weight;
        return q;
    }
    if (q.algorithm == cli::kNavmeshAlgorithm || q.algorithm == cli::kNavmeshChAlgorithm) return q;
    const auto m = path::parse_movement(movement);
    const auto d = path::parse_diagonal_rule(diagonal);
    const auto h = path::parse_heuristic(heuristic);
    if (!m || !d || !h) throw cli::UsageError("unknown movement, diagonal rule or heuristic");
    const auto alg = cli::parse_grid_algorithm(q.algorithm);
    if (!alg) throw cli::UsageError("unknown algorithm '" + q.algorithm + "'");
    cli::require_supported(*alg, q.smooth);
    if (*alg == cli::GridAlgorithm::Dijkstra && std::string(heuristic) != "auto" && std::string(heuristic) != "zero")
        throw cli::UsageError("--heuristic " + std::string(heuristic) + " contradicts --algorithm dijkstra (a zero heuristic)");
    q.options.movement = *m;
    q.options.diagonal = *d;
    q.options.heuristic = *h;
    q.options.weight = weight;
    return q;
}

std::string point_text(path::GridPoint p) { return std::to_string(p.x) + "," + std::to_string(p.y); }

// `gameplan path --algorithm navmesh|navmesh-ch --json` (cmd_navmesh.cpp, run_navmesh_path).
std::string navmesh_json(const PathQuery& q, int repeat, double* mean_micros) {
    const path::GridMap& map = *g_path.map;
    if (map.has_terrain_costs())
        throw cli::UsageError("algorithm navmesh: the map has terrain costs (any-angle lengths are defined on uniform maps)");
    path::Navmesh mesh;
    const auto b0 = Clock::now();
    (void)mesh.build(map);
    const double build_ms = std::chrono::duration<double, std::milli>(Clock::now() - b0).count();
    const bool on_hierarchy = q.algorithm == cli::kNavmeshChAlgorithm;
    path::NavmeshHierarchy hierarchy;
    double preprocess_ms = -1.0;
    if (on_hierarchy) {  // within the CLI's default --max-memory and --preprocess-time-limit
        const auto p0 = Clock::now();
        const path::JpsSupport built = hierarchy.build(mesh, std::size_t{512} << 20, search::deadline_after(cli::kDefaultPreprocessSeconds));
        if (built != path::JpsSupport::Ok) throw cli::UsageError("algorithm navmesh-ch: " + std::string(path::describe(built)));
        preprocess_ms = std::chrono::duration<double, std::milli>(Clock::now() - p0).count();
    }
    path::NavmeshPathfinder finder;
    path::NavmeshHierarchyPathfinder fast;
    const path::NavPoint from = path::cell_centre(q.from), to = path::cell_centre(q.to);
    path::NavmeshPath route;
    double total = 0, first = 0;
    Status status = Status::NoPath;
    for (int i = 0; i < std::max(1, repeat); ++i) {
        const auto t0 = Clock::now();
        status = on_hierarchy ? fast.find_path(hierarchy, from, to, {}, route) : finder.find_path(mesh, from, to, {}, route);
        const double us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
        if (i == 0) first = us;
        total += us;
    }
    if (mean_micros) *mean_micros = total / std::max(1, repeat);
    std::string problem;
    if (status == Status::InvalidQuery)
        problem = !map.passable(q.from) ? "start " + point_text(q.from) + " is blocked"
                  : !map.passable(q.to) ? "goal " + point_text(q.to) + " is blocked"
                                        : "invalid query";
    g_path.expanded.clear();
    std::ostringstream out;
    cli::write_navmesh_path_json(out, status, on_hierarchy ? fast.budget_limit() : finder.budget_limit(), route,
                                 on_hierarchy ? fast.stats().expanded : finder.stats().expanded, first, build_ms,
                                 mesh.polygon_count(), problem, preprocess_ms, on_hierarchy ? hierarchy.memory_bytes() : 0);
    return out.str();
}

// `gameplan path --topology hex --json` (cmd_hex.cpp, run_hex_path), plus the replay order: the cells the
// search closed by f = g + weight * h (h the hex distance times the map's min_cost(), as the search's), then h.
std::string hex_json(const PathQuery& q, int repeat, double* mean_micros) {
    const path::GridMap& map = *g_path.map;
    path::HexSearchOptions options;
    options.heuristic = q.options.heuristic == path::Heuristic::Zero ? path::HexHeuristic::Zero : path::HexHeuristic::Auto;
    options.weight = q.options.weight;
    options.budget.max_memory_bytes = std::size_t{512} << 20;  // the CLI's default --max-memory
    path::HexPathfinder finder;
    finder.reserve(map);
    path::GridPath result;
    double total = 0, first = 0;
    Status status = Status::NoPath;
    for (int i = 0; i < std::max(1, repeat); ++i) {
        const auto t0 = Clock::now();
        status = finder.find_path(map, q.from, q.to, options, result);
        const double us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
        if (i == 0) first = us;
        total += us;
    }
    if (mean_micros) *mean_micros = total / std::max(1, repeat);
    struct Closed {
        double f, h;
        path::GridPoint p;
    };
    std::vector<Closed> closed;
    for (std::int32_t y = 0; y < map.height(); ++y)
        for (std::int32_t x = 0; x < map.width(); ++x) {
            const path::GridPoint p{x, y};
            if (!finder.closed(p)) continue;
            const double h = options.heuristic == path::HexHeuristic::Zero ? 0.0 : double(path::hex_distance(p, q.to)) * map.min_cost();
            closed.push_back({finder.g(p) + options.weight * h, h, p});
        }
    std::stable_sort(closed.begin(), closed.end(),
                     [](const Closed& a, const Closed& b) { return a.f != b.f ? a.f < b.f : a.h < b.h; });
    g_path.expanded.clear();
    for (const Closed& c : closed) g_path.expanded.insert(g_path.expanded.end(), {c.p.x, c.p.y});
    std::string problem;
    if (status == Status::InvalidQuery)
        problem = !map.passable(q.from) ? "start " + point_text(q.from) + " is blocked"
                  : !map.passable(q.to) ? "goal " + point_text(q.to) + " is blocked"
                                        : "invalid query";
    return cli::hex_path_json(status, finder.budget_limit(), result, finder.stats().expanded, first, problem).dump();
}

// `gameplan path --json` for a grid algorithm (cmd_path.cpp, run_path), plus the replay order.
std::string grid_json(const PathQuery& q, int repeat, double* mean_micros) {
    const path::GridMap& map = *g_path.map;
    const cli::GridAlgorithm algorithm = *cli::parse_grid_algorithm(q.algorithm);
    cli::GridRunner runner(map, algorithm, q.options, cli::GridRunnerSettings{q.smooth, 64, std::size_t{512} << 20, cli::kDefaultPreprocessSeconds});
    path::GridPath result;
    cli::GridRun run = runner.run(q.from, q.to, result);
    double total = run.micros;
    for (int i = 1; i < repeat; ++i) total += runner.run(q.from, q.to, result).micros;
    if (mean_micros) *mean_micros = total / std::max(1, repeat);
    const std::optional<double> suboptimality = cli::grid_suboptimality(map, q.from, q.to, q.options, runner, run, result);
    std::string problem;
    if (run.status == Status::InvalidQuery) {
        if (!map.passable(q.from)) problem = "start " + point_text(q.from) + " is blocked";
        else if (!map.passable(q.to)) problem = "goal " + point_text(q.to) + " is blocked";
        else problem = "invalid query";
    }
    // The replay: the cells the search closed, in the order an A* expands them (f, then h; g is the
    // exact cost from the start where the search keeps it, the octile distance otherwise).
    struct Closed {
        double f, h;
        path::GridPoint p;
    };
    std::vector<Closed> closed;
    const bool has_g = algorithm == cli::GridAlgorithm::AStar || algorithm == cli::GridAlgorithm::Dijkstra;
    const bool zero_h = algorithm == cli::GridAlgorithm::Dijkstra;
    for (std::int32_t y = 0; y < map.height(); ++y)
        for (std::int32_t x = 0; x < map.width(); ++x) {
            const path::GridPoint p{x, y};
            if (!runner.expanded(p)) continue;
            const double h = zero_h ? 0.0 : octile(p, q.to);
            const double g = has_g ? runner.astar().g(p) : octile(q.from, p);
            closed.push_back({g + q.options.weight * h, h, p});
        }
    std::stable_sort(closed.begin(), closed.end(),
                     [](const Closed& a, const Closed& b) { return a.f != b.f ? a.f < b.f : a.h < b.h; });
    g_path.expanded.clear();
    for (const Closed& c : closed) g_path.expanded.insert(g_path.expanded.end(), {c.p.x, c.p.y});
    std::ostringstream out;
    cli::write_grid_path_json(out, run, result, runner.setup_micros(), suboptimality, nullptr, problem);
    return out.str();
}

// ---- the planner playground -----------------------------------------------------------------------

struct PlanPage {
    std::unique_ptr<io::DomainFile> file;
};
PlanPage g_plan;

// ---- the village ----------------------------------------------------------------------------------

struct VillagePage {
    std::unique_ptr<village::Village> village;
    village::DomainSet domains;
    bool domains_loaded = false;
    std::vector<std::uint8_t> cells;    // 0 blocked, 1 free
    std::vector<std::int32_t> agents;   // x, y, kind, state (0 idle, 1 walking, 2 working)
    std::vector<std::int32_t> dens;     // x, y of each wolf den
    std::vector<float> danger;          // the danger of each cell, row by row
    std::vector<std::int32_t> places;   // x, y, kind, standing
    double plan_us = 0, path_us = 0;    // think and path time of the last stepped ticks
    std::uint64_t plans_before = 0, paths_before = 0;
};
VillagePage g_village;

}  // namespace

extern "C" {

/// Loads a map from its text (MovingAI `.map` or the plain-text grid); `name` names it in messages.
/// Returns {"width", "height", "terrain"} or {"error"}.
EMSCRIPTEN_KEEPALIVE const char* gp_load_map(const char* name, const char* text) {
    try {
        const std::string_view t(text);
        const std::size_t first = t.find_first_not_of(" \t\r\n");
        auto map = std::make_unique<path::GridMap>(first != std::string_view::npos && t.compare(first, 4, "type") == 0
                                                        ? io::parse_movingai_map(t, name)
                                                        : io::parse_text_map(t, name));
        g_path.map = std::move(map);
        g_path.expanded.clear();
        refresh_cells();
        nlohmann::ordered_json j;
        j["width"] = g_path.map->width();
        j["height"] = g_path.map->height();
        j["terrain"] = g_path.map->has_terrain_costs();
        return reply(j.dump());
    } catch (const io::LoadError& e) {
        nlohmann::ordered_json j;
        j["error"] = e.what();
        j["where"] = load_error_json(e);
        return reply(j.dump());
    } catch (const std::exception& e) {
        return error_reply(e.what());
    }
}

/// The loaded map's cells, row by row: 0 blocked, else the cell's cost (capped at 255).
EMSCRIPTEN_KEEPALIVE const std::uint8_t* gp_map_cells() { return g_path.cells.data(); }

/// One query as `gameplan path MAP --from FX,FY --to TX,TY --algorithm ALG --movement M --diagonal D
/// --heuristic H --weight W [--smooth] [--topology hex] --json` prints it. `repeat` > 1 runs the query that many times
/// on the same search state and adds "mean_micros" (the page's timing mode).
EMSCRIPTEN_KEEPALIVE const char* gp_path(const char* algorithm, int fx, int fy, int tx, int ty, const char* movement,
                                         const char* diagonal, const char* heuristic, double weight, int smooth,
                                         const char* topology, int repeat) {
    try {
        const PathQuery q = make_query(algorithm, fx, fy, tx, ty, movement, diagonal, heuristic, weight, smooth, topology);
        double mean = 0;
        const bool navmesh = q.algorithm == cli::kNavmeshAlgorithm || q.algorithm == cli::kNavmeshChAlgorithm;
        std::string line = q.hex ? hex_json(q, repeat, &mean) : navmesh ? navmesh_json(q, repeat, &mean) : grid_json(q, repeat, &mean);
        while (!line.empty() && line.back() == '\n') line.pop_back();
        if (repeat > 1) {
            line.pop_back();  // the closing brace
            line += ",\"repeat\":" + std::to_string(repeat) + ",\"mean_micros\":" +
                    nlohmann::json(std::round(mean * 100.0) / 100.0).dump() + "}";
        }
        return reply(std::move(line));
    } catch (const std::exception& e) {
        return error_reply(e.what());
    }
}

/// Cells the last grid query expanded, in replay order, as x, y pairs; gp_expanded_count() pairs.
EMSCRIPTEN_KEEPALIVE const std::int32_t* gp_expanded() { return g_path.expanded.data(); }
EMSCRIPTEN_KEEPALIVE int gp_expanded_count() { return static_cast<int>(g_path.expanded.size() / 2); }

/// Reads a domain (JSON, or CSV when `name` ends in .csv or the text looks like one). Returns
/// {"goals": [{"name", "priority"}], "default": NAME, "actions": N, "atoms": N} or {"error", "errors":
/// [{"file", "line", "column", "field", "message"}...]} listing every problem (io/lint.hpp).
EMSCRIPTEN_KEEPALIVE const char* gp_load_domain(const char* name, const char* text) {
    g_plan.file.reset();
    const io::DomainFormat format = io::domain_format_of(name, text);
    try {
        g_plan.file = std::make_unique<io::DomainFile>(io::parse_domain(text, format, name));
        nlohmann::ordered_json j;
        nlohmann::ordered_json goals = nlohmann::ordered_json::array();
        if (g_plan.file->goal) goals.push_back({{"name", "goal"}, {"priority", nullptr}});
        for (const goap::Goal& g : g_plan.file->goals) goals.push_back({{"name", g.name}, {"priority", g.priority}});
        j["goals"] = goals;
        try {
            j["default"] = cli::choose_goal(*g_plan.file, "", name).name;
        } catch (const std::exception&) {
            j["default"] = nullptr;
        }
        j["actions"] = g_plan.file->domain.action_count();
        j["atoms"] = g_plan.file->domain.atom_count();
        return reply(j.dump());
    } catch (const io::LoadError& first) {
        nlohmann::ordered_json j;
        j["error"] = first.what();
        nlohmann::ordered_json all = nlohmann::ordered_json::array();
        all.push_back(load_error_json(first));
        try {
            for (const io::LoadError& e : io::domain_load_errors(text, format, name))
                if (std::string(e.what()) != first.what()) all.push_back(load_error_json(e));
        } catch (const std::exception&) {
        }
        j["errors"] = all;
        return reply(j.dump());
    } catch (const std::exception& e) {
        return error_reply(e.what());
    }
}

/// Plans for goal `goal` ("" = the file's default) of the last loaded domain, as `gameplan plan DOMAIN
/// --goal GOAL --json` prints it (no-plan explanation included).
EMSCRIPTEN_KEEPALIVE const char* gp_plan(const char* goal_name, const char* direction) {
    try {
        if (!g_plan.file) throw cli::UsageError("no domain loaded");
        const io::DomainFile& file = *g_plan.file;
        for (std::size_t a = 0; a < file.domain.action_count(); ++a) {
            const goap::ActionId id(static_cast<std::uint32_t>(a));
            if (file.domain.action_cost(id) > goap::kMaxActionCost)
                throw cli::UsageError("action '" + file.domain.action_name(id) + "' costs more than the planner's maximum");
        }
        // "goal" names the file's default goal (`gameplan plan` without --goal) unless a named goal has it.
        std::string requested(goal_name);
        if (requested == "goal" && file.goal && !file.find_goal("goal")) requested.clear();
        const cli::ChosenGoal chosen = cli::choose_goal(file, requested, "domain");
        goap::PlanOptions options;
        const std::string dir(direction);
        options.direction = dir.empty() ? goap::Direction::BySize : dir == "forward" ? goap::Direction::Forward : goap::Direction::Backward;
        options.budget.deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(kPlanTimeLimitS));
        options.budget.max_memory_bytes = std::size_t{512} << 20;
        goap::Planner planner(file.domain);
        const goap::PlanResult r = planner.plan(file.start, *chosen.condition, options);
        if (r.status == Status::InvalidQuery) throw cli::UsageError("the planner refused the query");
        return reply(cli::plan_json(file, *chosen.condition, r, planner).dump());
    } catch (const std::exception& e) {
        return error_reply(e.what());
    }
}

/// Starts a village on a generated `width` x `height` map with `agents` villagers and `seed` (the
/// built-in domains). Returns {"width", "height", "agents"} or {"error"}.
EMSCRIPTEN_KEEPALIVE const char* gp_village_create(int width, int height, int agents, double seed) {
    try {
        if (!g_village.domains_loaded) {
            g_village.domains = village::builtin_domains();
            g_village.domains_loaded = true;
        }
        village::Config config;
        config.agents = static_cast<std::size_t>(std::max(1, agents));
        config.seed = static_cast<std::uint64_t>(seed);
        config.threads = 1;
        g_village.village.reset();
        g_village.village = village::Village::create(village::generate_village_map(width, height, config.seed), g_village.domains, config);
        g_village.plans_before = g_village.paths_before = 0;
        nlohmann::ordered_json j;
        j["width"] = width;
        j["height"] = height;
        j["agents"] = g_village.village->villagers().size();
        return reply(j.dump());
    } catch (const std::exception& e) {
        g_village.village.reset();
        return error_reply(e.what());
    }
}

/// Runs `ticks` ticks and returns the status line's figures: {"tick", "villagers", "plans", "paths",
/// "tick_us" (the last tick), "step_us" (all `ticks`), "wood", "ore", "meals", "collisions",
/// "wolf_attacks", "dens" (the number of wolf dens), "checksum"}.
EMSCRIPTEN_KEEPALIVE const char* gp_village_step(int ticks) {
    if (!g_village.village) return error_reply("no village");
    village::Village& v = *g_village.village;
    const auto t0 = Clock::now();
    for (int i = 0; i < ticks; ++i) v.step();
    const double step_us = std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
    const village::Summary s = v.summary();
    nlohmann::ordered_json j;
    j["tick"] = v.tick();
    j["villagers"] = v.villagers().size();
    j["plans"] = s.plans;
    j["paths"] = s.paths;
    j["tick_us"] = std::round(v.last_tick_us() * 10.0) / 10.0;
    j["step_us"] = std::round(step_us * 10.0) / 10.0;
    j["tick_ms_mean"] = s.tick_ms_mean;
    j["wood"] = s.wood;
    j["ore"] = s.ore;
    j["meals"] = s.meals;
    j["collisions"] = s.collisions;
    j["wolf_attacks"] = s.wolf_attacks;
    j["dens"] = v.dens().size();
    char hex[17];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(s.checksum));
    j["checksum"] = hex;  // as `gameplan demo --json`: over the state and every count, timings excluded
    return reply(j.dump());
}

/// The village map now (0 blocked, 1 free), row by row.
EMSCRIPTEN_KEEPALIVE const std::uint8_t* gp_village_cells() {
    if (!g_village.village) return nullptr;
    const path::GridMap& m = g_village.village->map();
    g_village.cells.assign(m.cell_count(), 0);
    for (std::int32_t y = 0; y < m.height(); ++y)
        for (std::int32_t x = 0; x < m.width(); ++x)
            g_village.cells[std::size_t(y) * std::size_t(m.width()) + std::size_t(x)] = m.passable({x, y}) ? 1 : 0;
    return g_village.cells.data();
}

/// The villagers as x, y, kind (0 woodcutter, 1 miner, 2 cook), state (0 idle, 1 walking, 2 working).
EMSCRIPTEN_KEEPALIVE const std::int32_t* gp_village_agents() {
    g_village.agents.clear();
    if (!g_village.village) return nullptr;
    for (const village::Villager& a : g_village.village->villagers())
        g_village.agents.insert(g_village.agents.end(),
                                {a.cell.x, a.cell.y, std::int32_t(a.kind), a.working ? 2 : a.walking ? 1 : 0});
    return g_village.agents.data();
}

/// The places as x, y, kind (tree, mine, market, store, kitchen, home), standing (trees) / stock > 0.
EMSCRIPTEN_KEEPALIVE const std::int32_t* gp_village_places() {
    g_village.places.clear();
    if (!g_village.village) return nullptr;
    for (const village::Place& p : g_village.village->places())
        g_village.places.insert(g_village.places.end(),
                                {p.cell.x, p.cell.y, std::int32_t(p.kind), (p.kind == village::PlaceKind::Tree ? p.standing : true) ? 1 : 0});
    return g_village.places.data();
}
EMSCRIPTEN_KEEPALIVE int gp_village_place_count() {
    return g_village.village ? static_cast<int>(g_village.village->places().size()) : 0;
}

/// The wolf dens as x, y (gp_village_step's "dens" of them; none without wolves).
EMSCRIPTEN_KEEPALIVE const std::int32_t* gp_village_dens() {
    g_village.dens.clear();
    if (!g_village.village) return nullptr;
    for (const path::GridPoint d : g_village.village->dens()) g_village.dens.insert(g_village.dens.end(), {d.x, d.y});
    return g_village.dens.data();
}

/// The danger the wolves spread (Village::danger) now, one float per cell, row by row (0: none).
EMSCRIPTEN_KEEPALIVE const float* gp_village_danger() {
    if (!g_village.village) return nullptr;
    const path::GridMap& m = g_village.village->map();
    const path::InfluenceMap& danger = g_village.village->danger();
    g_village.danger.resize(m.cell_count());
    for (std::int32_t y = 0; y < m.height(); ++y)
        for (std::int32_t x = 0; x < m.width(); ++x)
            g_village.danger[std::size_t(y) * std::size_t(m.width()) + std::size_t(x)] = danger.at({x, y});
    return g_village.danger.data();
}

}  // extern "C"
