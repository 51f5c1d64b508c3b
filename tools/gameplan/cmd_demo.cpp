// `gameplan demo [--map MAP] [--agents N] [--ticks N] [--seed S] [--threads T] [--json]
//                [--png-every K --png-dir DIR]`: the village simulation (docs/demo.md).
#include "cli_support.hpp"
#include "commands.hpp"
#include "progress.hpp"

#include <gameplan/io/image.hpp>
#include <gameplan/io/movingai.hpp>
#include <gameplan/io/save.hpp>
#include <gameplan_village/generate.hpp>
#include <gameplan_village/render.hpp>
#include <gameplan_village/village.hpp>

#include <nlohmann/json.hpp>

#include <span>

#include <sys/ioctl.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>

namespace gameplan::cli {

namespace {

using Json = nlohmann::ordered_json;
using Clock = std::chrono::steady_clock;

struct DemoArgs {
    std::string map;
    std::string size;  // "WxH" of the generated map
    std::string domains;
    std::size_t agents = 48;
    std::uint64_t ticks = 1000;
    std::uint64_t seed = 1;
    std::size_t threads = 1;
    std::uint64_t png_every = 0;
    std::string png_dir;
    double fps = 30;
    std::uint64_t path_budget = 60000;
    bool json = false;
    bool no_wolves = false;
    std::string save;             // write a save file here (at save_at, else at the end)
    std::uint64_t save_at = 0;    // tick to save at (0 = the last tick)
    std::string load;             // continue the village saved in this file
    ProgressMode progress = ProgressMode::Auto;
    std::uint64_t max_memory_mb = 4096;  // --max-memory: refuse villages estimated above it
};

// What a village of `cells` map cells and `agents` villagers takes, measured (docs/limits.md, "demo
// --size"): about 135 bytes per cell (distance fields, places, crowd state) and 9 KB per villager, plus
// the program; rounded up so the estimate stays above what was measured.
double village_bytes(double cells, double agents) { return 16.0 * 1024 * 1024 + 140.0 * cells + 9.5 * 1024 * agents; }

void require_village_memory(const DemoArgs& args, std::int64_t w, std::int64_t h) {
    require_memory(ResourceLimits{0, args.max_memory_mb},
                   village_bytes(static_cast<double>(w) * static_cast<double>(h), static_cast<double>(args.agents)),
                   "a " + std::to_string(w) + "x" + std::to_string(h) + " village with " + std::to_string(args.agents) +
                       " villagers");
}

volatile std::sig_atomic_t g_interrupted = 0;
extern "C" void on_sigint(int) { g_interrupted = 1; }

// Restores the terminal and the previous SIGINT handler however the run ends.
class TerminalGuard {
public:
    explicit TerminalGuard(bool live) : m_live(live) {
        struct sigaction sa {};
        sa.sa_handler = on_sigint;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, &m_old);
        if (m_live) std::cout << "\x1b[?1049h\x1b[?25l\x1b[2J" << std::flush;  // alternate screen, hide cursor
    }
    ~TerminalGuard() {
        if (m_live) std::cout << "\x1b[0m\x1b[?25h\x1b[?1049l" << std::flush;
        sigaction(SIGINT, &m_old, nullptr);
    }
    TerminalGuard(const TerminalGuard&) = delete;
    TerminalGuard& operator=(const TerminalGuard&) = delete;

private:
    bool m_live;
    struct sigaction m_old {};
};

std::pair<std::int32_t, std::int32_t> parse_size(const std::string& text) {
    const std::size_t x = text.find('x');
    std::int64_t w = 0, h = 0;
    try {
        std::size_t used = 0;
        if (x == std::string::npos) throw std::invalid_argument("x");
        w = std::stoll(text.substr(0, x), &used);
        if (used != x) throw std::invalid_argument("w");
        h = std::stoll(text.substr(x + 1), &used);
        if (used != text.size() - x - 1) throw std::invalid_argument("h");
    } catch (const std::exception&) {
        throw UsageError("--size '" + text + "': expected WIDTHxHEIGHT, e.g. 512x512");
    }
    if (w < 16 || h < 16 || w > 4096 || h > 4096)
        throw UsageError("--size " + text + ": each side must be in [16, 4096]");
    return {static_cast<std::int32_t>(w), static_cast<std::int32_t>(h)};
}

void prepare_png_dir(const std::string& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw UsageError("--png-dir " + dir + ": cannot create the directory: " + ec.message());
    if (!std::filesystem::is_directory(dir, ec)) throw UsageError("--png-dir " + dir + ": not a directory");
    const std::filesystem::path probe = std::filesystem::path(dir) / ".gameplan_write_test";
    {
        std::ofstream out(probe);
        if (!out) throw UsageError("--png-dir " + dir + ": cannot write files there");
    }
    std::filesystem::remove(probe, ec);
}

std::filesystem::path png_name(const std::string& dir, std::uint64_t tick) {
    char name[32];
    std::snprintf(name, sizeof name, "village_%06llu.png", static_cast<unsigned long long>(tick));
    return std::filesystem::path(dir) / name;
}

std::string kinds_text(const village::Summary& s) {
    std::ostringstream o;
    o << s.kind_agents[0] << " woodcutters, " << s.kind_agents[1] << " miners, " << s.kind_agents[2] << " cooks";
    return o.str();
}

Json summary_json(const village::Summary& s, const DemoArgs& args, const std::string& map_name, const path::GridMap& map,
                  std::span<const path::GridPoint> dens, bool interrupted) {
    Json j;
    j["ticks"] = s.ticks;
    j["agents"] = s.agents;
    j["plans"] = s.plans;
    j["replans"] = s.replans;
    j["paths"] = s.paths;
    j["plan_us_mean"] = s.plan_us_mean;
    j["path_us_mean"] = s.path_us_mean;
    j["tick_ms_mean"] = s.tick_ms_mean;
    j["tick_ms_p99"] = s.tick_ms_p99;
    j["wood"] = s.wood;
    j["ore"] = s.ore;
    j["meals"] = s.meals;
    j["seed"] = args.seed;
    j["map"] = map_name;
    j["width"] = map.width();
    j["height"] = map.height();
    j["threads"] = args.threads;
    Json den_cells = Json::array();  // the wolf dens' cells, [x, y] (empty with --no-wolves)
    for (const path::GridPoint& d : dens) den_cells.push_back(Json::array({d.x, d.y}));
    j["dens"] = den_cells;
    Json kinds = Json::object();
    for (std::size_t k = 0; k < village::kKindCount; ++k)
        kinds[std::string(village::to_string(village::Kind(k)))] = Json{{"agents", s.kind_agents[k]}, {"cycles", s.cycles[k]}};
    j["kinds"] = kinds;
    j["searches"] = s.searches;
    j["replans_action_failed"] = s.replans_failed;
    j["replans_preconditions_failed"] = s.replans_preconditions;
    j["actions_failed"] = s.actions_failed;
    j["resource_failures"] = s.resource_failures;
    j["cost_queries"] = s.cost_queries;
    j["path_requests"] = s.path_requests;
    j["repaths"] = s.repaths;
    j["repaths_map_changed"] = s.repaths_map;
    j["steps"] = s.steps;
    j["collisions"] = s.collisions;
    j["waits"] = s.waits;
    j["detours"] = s.detours;
    j["pushes"] = s.pushes;
    j["jams"] = s.jams;
    j["longest_still"] = s.longest_still;
    j["walk_failures"] = s.walk_failures;
    j["map_changes"] = s.map_changes;
    j["wolf_attacks"] = s.wolf_attacks;
    j["meals_eaten"] = s.meals_eaten;
    j["vegetables_eaten"] = s.vegetables_eaten;
    j["sleeps"] = s.sleeps;
    j["wood_stock"] = s.wood_stock;
    j["meals_stock"] = s.meals_stock;
    j["tick_ms_max"] = s.tick_ms_max;
    char hex[24];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(s.checksum));
    j["checksum"] = hex;  // over the state and every count; timings excluded
    j["interrupted"] = interrupted;
    return j;
}

void print_text_summary(std::ostream& o, const village::Summary& s, const DemoArgs& args, const std::string& map_name,
                        const path::GridMap& map, bool interrupted) {
    o << "village on " << map_name << " (" << map.width() << "x" << map.height() << "), seed " << args.seed << ", "
      << s.agents << " villagers (" << kinds_text(s) << "), " << s.ticks << " ticks, " << args.threads
      << (args.threads == 1 ? " thread" : " threads") << (interrupted ? " (interrupted)" : "") << '\n';
    o << "  work cycles: woodcutters " << s.cycles[0] << ", miners " << s.cycles[1] << ", cooks " << s.cycles[2] << '\n';
    o << "  delivered: wood " << s.wood << ", ore " << s.ore << "; meals cooked " << s.meals << ", eaten "
      << s.meals_eaten << "; vegetables eaten " << s.vegetables_eaten << "; sleeps " << s.sleeps << '\n';
    o << "  planning: " << s.plans << " plans from " << s.searches << " searches, " << s.replans << " replans ("
      << s.replans_failed << " after a failed action, " << s.replans_preconditions << " after failed preconditions), "
      << s.resource_failures << " actions found their resource gone; " << s.plan_us_mean << " us per search\n";
    o << "  paths: " << s.paths << " found of " << s.path_requests << " requests, " << s.repaths << " repaths ("
      << s.repaths_map << " for map changes), " << s.path_us_mean << " us per path\n";
    o << "  crowd: " << s.steps << " steps, " << s.collisions << " collisions, " << s.waits << " waits and " << s.detours
      << " detours caused by other villagers, " << s.pushes << " steps aside; longest stand-still of a walker "
      << s.longest_still << " ticks, " << s.jams << " jams (100 ticks still), " << s.walk_failures << " walks failed\n";
    o << "  ticks: mean " << s.tick_ms_mean << " ms, p99 " << s.tick_ms_p99 << " ms, max " << s.tick_ms_max << " ms\n";
    char hex[24];
    std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(s.checksum));
    o << "  checksum " << hex << " (state and counts; identical for the same seed on any thread count)\n";
}

int run_demo(DemoArgs args) {
    if (args.png_every > 0) prepare_png_dir(args.png_dir);
    path::GridMap map;
    std::string map_name;
    const village::DomainSet domains = args.domains.empty() ? village::builtin_domains() : village::load_domains(args.domains);
    std::unique_ptr<village::Village> sim;
    // Set-up progress on stderr (a big village takes seconds before its first tick): the stage number,
    // the time, what is being done and how far.
    ProgressLines setup_progress("demo set-up", 0, args.progress);
    std::uint64_t setup_stage = 0;
    std::string setup_detail;
    const auto on_setup = [&](std::string_view stage, std::size_t done, std::size_t total) {
        if (setup_detail.compare(0, stage.size(), stage) != 0 || done == 0) ++setup_stage;
        setup_detail = std::string(stage);
        if (total > 0) setup_detail += " (" + std::to_string(done) + " of " + std::to_string(total) + ")";
        setup_progress.update(setup_stage, setup_detail);
    };
    if (!args.load.empty()) {
        const io::SaveFile save = io::load_save(args.load);
        try {
            sim = village::Village::load(save, domains, args.threads);
        } catch (const village::SetupError& e) {
            throw UsageError(e.what());
        }
        args.seed = sim->config().seed;
        args.agents = sim->config().agents;
        map_name = args.load;
    } else if (!args.map.empty()) {
        map = io::load_movingai_map(args.map);
        map_name = args.map;
        require_village_memory(args, map.width(), map.height());
    } else {
        std::int32_t w = village::kDefaultMapWidth, h = village::kDefaultMapHeight;
        if (!args.size.empty()) std::tie(w, h) = parse_size(args.size);
        require_village_memory(args, w, h);
        on_setup("generating the map", 0, 0);
        map = village::generate_village_map(w, h, args.seed);
        map_name = "generated";
    }
    if (!sim) {
        village::Config config;
        config.agents = args.agents;
        config.seed = args.seed;
        config.threads = args.threads;
        config.path_budget = args.path_budget;
        config.wolves = !args.no_wolves;
        try {
            sim = village::Village::create(std::move(map), domains, config, on_setup);
        } catch (const village::SetupError& e) {
            throw UsageError(e.what());
        }
    }
    setup_progress.finish(setup_stage + 1, "ready");
    const std::uint64_t save_at = args.save.empty() ? UINT64_MAX : args.save_at > 0 ? args.save_at : args.ticks;
    if (save_at != UINT64_MAX && save_at < sim->tick())
        throw UsageError("--save-at " + std::to_string(save_at) + ": the loaded village is already at tick " + std::to_string(sim->tick()));
    const auto write_save = [&] {
        io::SaveFile file;
        sim->save(file);
        io::write_save_file(args.save, file);
        if (!args.json) std::cerr << "saved tick " << sim->tick() << " to " << args.save << '\n';
    };
    if (sim->tick() == save_at) write_save();

    const bool live = !args.json && isatty(STDOUT_FILENO) != 0;
    g_interrupted = 0;
    TerminalGuard guard(live);
    std::int32_t term_cols = 80, term_rows = 24;
    if (live) {
        winsize ws{};
        if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0 && ws.ws_row > 2)
            term_cols = ws.ws_col, term_rows = ws.ws_row;
    }
    const auto write_snapshot = [&] {
        io::write_png(png_name(args.png_dir, sim->tick()), village::render_snapshot(*sim, village::snapshot_scale(sim->map())));
    };
    if (args.png_every > 0) write_snapshot();

    // Progress lines on stderr when there is no live view (the live view shows the tick itself).
    ProgressLines progress("demo tick", args.ticks, live ? ProgressMode::Never : args.progress);
    const auto progress_detail = [&] {
        const village::Summary s = sim->summary();
        char buf[200];
        std::snprintf(buf, sizeof buf, "plans %llu, paths %llu, wood %llu, ore %llu, meals %llu, tick mean %.3f ms",
                      static_cast<unsigned long long>(s.plans), static_cast<unsigned long long>(s.paths),
                      static_cast<unsigned long long>(s.wood), static_cast<unsigned long long>(s.ore),
                      static_cast<unsigned long long>(s.meals), s.tick_ms_mean);
        return std::string(buf);
    };
    const auto frame = args.fps > 0 ? std::chrono::duration<double>(1.0 / args.fps) : std::chrono::duration<double>(0);
    auto next_frame = Clock::now();
    auto rate_time = Clock::now();
    std::uint64_t rate_plans = 0, rate_paths = 0;
    double plans_per_s = 0, paths_per_s = 0;
    while (sim->tick() < args.ticks && !g_interrupted) {
        sim->step();
        if (sim->tick() == save_at) write_save();
        if (args.png_every > 0 && sim->tick() % args.png_every == 0) write_snapshot();
        if (live) {
            const village::Summary s = sim->summary();
            const auto now = Clock::now();
            const double dt = std::chrono::duration<double>(now - rate_time).count();
            if (dt >= 0.5) {
                plans_per_s = static_cast<double>(s.plans - rate_plans) / dt;
                paths_per_s = static_cast<double>(s.paths - rate_paths) / dt;
                rate_plans = s.plans, rate_paths = s.paths, rate_time = now;
            }
            const std::int32_t cols = std::min(term_cols, sim->map().width());
            const std::int32_t rows = std::min(term_rows - 2, sim->map().height());
            std::string out = "\x1b[H";
            out += village::render_text(*sim, village::view_origin(*sim, cols, rows), cols, rows, true);
            char status[320];
            std::snprintf(status, sizeof status,
                          "\x1b[7m tick %llu/%llu  villagers %zu  plans/s %.0f  paths/s %.0f  frame %.2f ms  "
                          "wood %llu  ore %llu  meals %llu  (Ctrl-C quits) \x1b[0m\x1b[K\n",
                          static_cast<unsigned long long>(sim->tick()), static_cast<unsigned long long>(args.ticks),
                          s.agents, plans_per_s, paths_per_s, sim->last_tick_us() / 1000.0,
                          static_cast<unsigned long long>(s.wood), static_cast<unsigned long long>(s.ore),
                          static_cast<unsigned long long>(s.meals));
            out += status;
            std::cout << out << std::flush;
            next_frame += std::chrono::duration_cast<Clock::duration>(frame);
            const auto now2 = Clock::now();
            if (next_frame > now2) std::this_thread::sleep_until(next_frame);
            else next_frame = now2;
        } else if (progress.due()) {
            progress.update(sim->tick(), progress_detail());
        }
    }
    if (progress.enabled()) progress.finish(sim->tick(), progress_detail());
    const bool interrupted = g_interrupted != 0;
    if (args.png_every > 0 && sim->tick() % args.png_every != 0) write_snapshot();  // the final state too
    const village::Summary s = sim->summary();
    if (live) std::cout << "\x1b[0m\x1b[?25h\x1b[?1049l" << std::flush;  // leave the view before the summary
    if (args.json) std::cout << summary_json(s, args, map_name, sim->map(), sim->dens(), interrupted).dump() << '\n';
    else print_text_summary(std::cout, s, args, map_name, sim->map(), interrupted);
    return interrupted ? 130 : 0;
}

}  // namespace

void add_demo_command(CLI::App& app, int& exit_code) {
    auto args = std::make_shared<DemoArgs>();
    CLI::App* cmd = app.add_subcommand(
        "demo", "Village simulation: GOAP villagers (woodcutters, miners, cooks) walking a grid map (docs/demo.md)");
    cmd->add_option("--map", args->map, "MovingAI .map file (default: a village map generated from the seed)");
    cmd->add_option("--size", args->size, "Size of the generated map, WIDTHxHEIGHT (default 120x56)");
    add_integer_option(cmd, "--agents", args->agents, 1, village::kMaxAgents, "Number of villagers (default 48)");
    add_integer_option(cmd, "--ticks", args->ticks, 1, 1'000'000'000, "Ticks to simulate (default 1000)");
    add_integer_option(cmd, "--seed", args->seed, 0, UINT64_MAX, "Seed for the map, the places and the villagers (default 1)");
    add_integer_option(cmd, "--threads", args->threads, 1, village::kMaxThreads,
                       "Planning threads; results are identical for any value (default 1)");
    add_integer_option(cmd, "--path-budget", args->path_budget, 1, 1'000'000'000, "Path-search expansions per tick (default 60000)");
    cmd->add_option("--domains", args->domains,
                    "Directory with woodcutter.json, miner.json, cook.json (default: examples/goap/village, built in)");
    cmd->add_flag("--json", args->json, "Print one JSON summary object (no live view)");
    add_progress_flags(cmd, args->progress);
    add_integer_option(cmd, "--max-memory", args->max_memory_mb, 1, std::uint64_t{1} << 30,
                       "Refuse a generated or loaded map whose village is estimated to need more MiB than this "
                       "(about 140 bytes per cell and 9.5 KB per villager; default 4096)");
    cmd->add_flag("--no-wolves", args->no_wolves, "No wolf dens (and no danger for paths and walking costs to avoid)");
    CLI::Option* every = add_integer_option(cmd, "--png-every", args->png_every, 1, 1'000'000'000, "Write a PNG snapshot every K ticks");
    CLI::Option* dir = cmd->add_option("--png-dir", args->png_dir, "Directory for the snapshots (created if needed)");
    every->needs(dir);
    dir->needs(every);
    add_real_option(cmd, "--fps", args->fps, 0.01, 1000.0,
                    "Frames per second of the live terminal view, in [0.01, 1000] (0 = as fast as possible; default 30)", true);
    CLI::Option* save = cmd->add_option("--save", args->save,
                                        "Write the running village to this save file at --save-at (default: the last tick)");
    CLI::Option* save_at = add_integer_option(cmd, "--save-at", args->save_at, 1, 1'000'000'000, "Tick to save at (with --save)");
    save_at->needs(save);
    CLI::Option* load = cmd->add_option("--load", args->load,
                                        "Continue the village saved in this file up to tick --ticks (map, villagers and "
                                        "options come from the save; --threads and --domains may be given)");
    for (const char* name : {"--map", "--size", "--agents", "--seed", "--path-budget"}) load->excludes(cmd->get_option(name));
    cmd->callback([args, &exit_code] {
        if (!args->map.empty() && !args->size.empty()) throw UsageError("--map and --size exclude each other");
        if (!args->save.empty() && args->save_at > args->ticks)
            throw UsageError("--save-at " + std::to_string(args->save_at) + " is past --ticks " + std::to_string(args->ticks));
        exit_code = run_demo(*args);
    });
}

}  // namespace gameplan::cli
