// GridRunner: the one dispatch point of the grid algorithms behind `gameplan path`, `gameplan scen` and
// the WebAssembly pages (see grid_runner.hpp).
#include "grid_runner.hpp"

#include <gameplan/path/islands.hpp>
#include <gameplan/path/smoothing.hpp>
#include <gameplan/search/search_context.hpp>

#include <chrono>
#include <cstdio>
#include <limits>
#include <string>

namespace gameplan::cli {

std::string preprocess_seconds_text(double seconds) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", seconds);
    return text;
}

std::string_view to_string(GridAlgorithm algorithm) noexcept {
    switch (algorithm) {
        case GridAlgorithm::AStar: return "astar";
        case GridAlgorithm::Dijkstra: return "dijkstra";
        case GridAlgorithm::Jps: return "jps";
        case GridAlgorithm::JpsPlus: return "jps-plus";
        case GridAlgorithm::Hpa: return "hpa";
        case GridAlgorithm::Theta: return "theta";
        case GridAlgorithm::Subgoal: return "subgoal";
    }
    return "unknown";
}

std::optional<GridAlgorithm> parse_grid_algorithm(std::string_view name) noexcept {
    for (const GridAlgorithm algorithm : kGridAlgorithms)
        if (name == to_string(algorithm)) return algorithm;
    return std::nullopt;
}

std::vector<std::string> grid_algorithm_names() {
    std::vector<std::string> names;
    for (const GridAlgorithm algorithm : kGridAlgorithms) names.emplace_back(to_string(algorithm));
    return names;
}

bool grid_algorithm_exact(GridAlgorithm algorithm) noexcept {
    switch (algorithm) {
        case GridAlgorithm::AStar:
        case GridAlgorithm::Dijkstra:
        case GridAlgorithm::Jps:
        case GridAlgorithm::JpsPlus:
        case GridAlgorithm::Subgoal: return true;
        case GridAlgorithm::Hpa:
        case GridAlgorithm::Theta: return false;
    }
    return false;
}

void require_supported(GridAlgorithm algorithm, bool smooth) {
    if (smooth && algorithm == GridAlgorithm::Theta)
        throw UsageError("--smooth does not apply to --algorithm theta (its paths are already any-angle)");
}

std::shared_ptr<const GridPreparation> prepare_grid(const path::GridMap& map, GridAlgorithm algorithm,
                                                    const path::GridSearchOptions& options,
                                                    const GridRunnerSettings& settings) {
    require_supported(algorithm, settings.smooth);
    auto prepared = std::make_shared<GridPreparation>();
    const auto t0 = std::chrono::steady_clock::now();
    switch (algorithm) {
        case GridAlgorithm::AStar:
        case GridAlgorithm::Dijkstra: return prepared;
        case GridAlgorithm::Jps:
        case GridAlgorithm::JpsPlus: {
            const path::JpsSupport support = path::check_jps_support(map, options);
            if (support != path::JpsSupport::Ok)
                throw UsageError("algorithm " + std::string(to_string(algorithm)) + ": " +
                                 std::string(path::describe(support)));
            if (algorithm == GridAlgorithm::Jps) return prepared;  // its snapshot is per runner
            (void)prepared->jump_table.build(map);
            prepared->bytes = prepared->jump_table.memory_bytes();
            break;
        }
        case GridAlgorithm::Subgoal: {
            const path::JpsSupport support = path::check_jps_support(map, options);
            if (support != path::JpsSupport::Ok)
                throw UsageError("algorithm subgoal: " + std::string(path::describe(support)));
            // The graph's edges and joins are known only while it is built: the build itself keeps to the
            // budget (25 bytes per padded cell were counted before it, docs/subgoal.md).
            const std::size_t budget = settings.max_memory_bytes ? settings.max_memory_bytes : SIZE_MAX;  // 0 = no cap
            const auto deadline = search::deadline_after(settings.preprocess_time_limit_s);
            const path::JpsSupport built = prepared->subgoal.build(map, budget, path::SubgoalGraph::kAutoTransit, deadline);
            const std::string size = std::to_string(map.width()) + " x " + std::to_string(map.height());
            if (built == path::JpsSupport::MemoryBudget)
                throw UsageError("algorithm subgoal: the subgoal graph of this " + size + " map would need more than --max-memory " +
                                 std::to_string(settings.max_memory_bytes >> 20) + " (MiB) allows (its edges and joins "
                                 "grow with the open areas); raise it to try");
            if (built == path::JpsSupport::TimeBudget) {
                throw UsageError("algorithm subgoal: building the subgoal graph of this " + size +
                                 " map took longer than --preprocess-time-limit " +
                                 preprocess_seconds_text(settings.preprocess_time_limit_s) +
                                 " (s) allows (it grows fastest on maps of scattered obstacles); raise it, or use "
                                 "--algorithm jps, which needs no preprocessing");
            }
            prepared->bytes = prepared->subgoal.memory_bytes();
            break;
        }
        case GridAlgorithm::Hpa: {
            if (settings.cluster_size < path::kMinClusterSize || settings.cluster_size > path::kMaxClusterSize)
                throw UsageError("--cluster-size must be in [" + std::to_string(path::kMinClusterSize) + ", " +
                                 std::to_string(path::kMaxClusterSize) + "], got " + std::to_string(settings.cluster_size));
            if (options.weight != 1.0 || options.heuristic != path::Heuristic::Auto)
                throw UsageError("algorithm hpa: --weight and --heuristic apply to astar only");
            path::HierarchyOptions h;
            h.cluster_size = settings.cluster_size;
            h.max_memory_bytes = settings.max_memory_bytes;
            const path::HierarchyBuild built = prepared->hierarchy.build(map, options, h);
            if (built != path::HierarchyBuild::Ok)
                throw UsageError("algorithm hpa: " + std::string(path::describe(built)));
            break;
        }
        case GridAlgorithm::Theta: {
            // Terrain, area costs and layers are priced cell by cell (theta_star.hpp, "Costs").
            if (options.weight != 1.0 || options.heuristic != path::Heuristic::Auto)
                throw UsageError("algorithm theta: --weight and --heuristic apply to astar only");
            return prepared;
        }
    }
    prepared->micros = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    return prepared;
}

GridRunner::GridRunner(const path::GridMap& map, GridAlgorithm algorithm, const path::GridSearchOptions& options,
                       GridRunnerSettings settings, std::shared_ptr<const GridPreparation> prepared)
    : m_map(map), m_algorithm(algorithm), m_options(options), m_settings(settings),
      m_prepared(prepared ? std::move(prepared) : prepare_grid(map, algorithm, options, settings)) {
    // Each runner sizes the search state its algorithm uses, so the first query's time is the search,
    // not the allocation.
    switch (m_algorithm) {
        case GridAlgorithm::Dijkstra: m_options.heuristic = path::Heuristic::Zero; [[fallthrough]];
        case GridAlgorithm::AStar: m_astar.reserve(map); break;
        case GridAlgorithm::Jps: {
            const auto t0 = std::chrono::steady_clock::now();
            m_jps.sync(map);
            m_sync_micros = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
            break;
        }
        case GridAlgorithm::JpsPlus:
        case GridAlgorithm::Hpa:
        case GridAlgorithm::Subgoal: break;
        case GridAlgorithm::Theta: m_theta.reserve(map); break;
    }
}

GridRun GridRunner::run(path::GridPoint from, path::GridPoint to, path::GridPath& out) {
    GridRun result;
    const auto t0 = std::chrono::steady_clock::now();
    // The islands' precheck, for every algorithm: JPS+ and the subgoal graph search shared preprocessing,
    // whose begin has no map to check the islands against.
    m_answered_by_islands = path::islands_prove_unreachable(m_map, m_options, from, to);
    if (m_answered_by_islands) {
        out.cells.clear();
        out.cost = std::numeric_limits<double>::infinity();
        result.status = Status::NoPath;
        result.micros = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
        return result;
    }
    m_options.budget.deadline = m_settings.time_limit_s > 0 ? std::min(m_settings.deadline, search::deadline_after(m_settings.time_limit_s))
                                                            : m_settings.deadline;
    switch (m_algorithm) {
        case GridAlgorithm::AStar:
        case GridAlgorithm::Dijkstra:
            result.status = m_astar.find_path(m_map, from, to, m_options, out);
            result.expanded = m_astar.stats().expanded;
            result.limit = m_astar.budget_limit();
            break;
        case GridAlgorithm::Jps:
            result.status = m_jps.find_path(m_map, from, to, m_options, out);
            result.expanded = m_jps.stats().expanded;
            result.limit = m_jps.budget_limit();
            break;
        case GridAlgorithm::JpsPlus:
            if (m_jps_plus.begin(m_prepared->jump_table, from, to, m_options) == Status::InProgress) (void)m_jps_plus.step();
            result.status = m_jps_plus.finish(out);
            result.expanded = m_jps_plus.stats().expanded;
            result.limit = m_jps_plus.budget_limit();
            break;
        case GridAlgorithm::Subgoal:
            if (m_subgoal.begin(m_prepared->subgoal, from, to, m_options) == Status::InProgress) (void)m_subgoal.step();
            result.status = m_subgoal.finish(out);
            result.expanded = m_subgoal.stats().expanded;
            result.limit = m_subgoal.budget_limit();
            break;
        case GridAlgorithm::Hpa: {
            path::HpaQueryOptions q;
            static_cast<path::GridSearchOptions&>(q) = m_options;
            result.status = m_hpa.find_path(m_prepared->hierarchy, from, to, q, out);
            result.expanded = m_hpa.stats().expanded;
            result.limit = m_hpa.budget_limit();
            break;
        }
        case GridAlgorithm::Theta: {
            result.status = m_theta.find_path(m_map, from, to, path::theta_star_options(m_options), out);
            result.expanded = m_theta.stats().expanded;
            result.limit = m_theta.budget_limit();
            break;
        }
    }
    if (m_settings.smooth && result.status == Status::Found) {
        path::SmoothingOptions s;
        s.movement = m_options.movement;
        s.diagonal = m_options.diagonal;
        path::smooth_path(m_map, out, s, m_options);  // honours the filter and layers of the query
    }
    result.micros = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    return result;
}

bool GridRunner::expanded(path::GridPoint p) const noexcept {
    if (m_answered_by_islands) return false;
    switch (m_algorithm) {
        case GridAlgorithm::AStar:
        case GridAlgorithm::Dijkstra: return m_astar.closed(p);
        case GridAlgorithm::Jps: return m_jps.closed(p);
        case GridAlgorithm::JpsPlus: return m_jps_plus.closed(p);
        case GridAlgorithm::Theta: return m_theta.closed(p);
        case GridAlgorithm::Hpa:
        case GridAlgorithm::Subgoal: return false;
    }
    return false;
}

}  // namespace gameplan::cli
