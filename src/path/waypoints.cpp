// Waypoint (visibility) graphs from grid maps (path/waypoints.hpp).
#include <gameplan/path/smoothing.hpp>
#include <gameplan/path/waypoints.hpp>

#include "exact_growth.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

namespace gameplan::path {

void convex_corners(const GridMap& map, std::vector<GridPoint>& out) {
    out.clear();
    for (std::int32_t y = 0; y < map.height(); ++y)
        for (std::int32_t x = 0; x < map.width(); ++x) {
            if (!map.passable({x, y})) continue;
            bool corner = false;
            for (const std::int32_t dy : {-1, 1})
                for (const std::int32_t dx : {-1, 1})
                    corner = corner || (map.contains(x + dx, y + dy) && !map.passable({x + dx, y + dy}) &&
                                        map.passable({x + dx, y}) && map.passable({x, y + dy}));
            if (corner) out.push_back({x, y});
        }
}

namespace {
// A waypoint's node id: "x,y".
std::string waypoint_id(GridPoint cell) {
    std::string id = std::to_string(cell.x);
    id += ',';
    id += std::to_string(cell.y);
    return id;
}
}  // namespace

GraphNode WaypointGraph::node_at(GridPoint cell) const { return graph.find(waypoint_id(cell)); }

void waypoint_cells(const GridMap& map, std::span<const GridPoint> given, bool corners, std::vector<GridPoint>& out) {
    out.assign(given.begin(), given.end());
    if (corners) {
        std::vector<GridPoint> found;
        convex_corners(map, found);
        out.insert(out.end(), found.begin(), found.end());
    }
    // Merge duplicates, keeping the first occurrence's place.
    std::vector<std::uint8_t> seen(map.cell_count(), 0);
    std::size_t kept = 0;
    for (const GridPoint p : out) {
        const std::size_t at = std::size_t(p.y) * std::size_t(map.width()) + std::size_t(p.x);
        if (seen[at]) continue;
        seen[at] = 1;
        out[kept++] = p;
    }
    out.resize(kept);
}

Status build_waypoint_graph(const GridMap& map, std::span<const GridPoint> given, const WaypointOptions& options,
                            WaypointGraph& out) {
    out = WaypointGraph{};
    if (map.empty() || map.has_terrain_costs() || !(options.max_distance > 0.0)) return Status::InvalidQuery;
    for (const GridPoint p : given)
        if (!map.passable(p)) return Status::InvalidQuery;
    std::vector<GridPoint> cells;
    waypoint_cells(map, given, options.corners, cells);
    if (cells.size() > kMaxWaypoints) return Status::InvalidQuery;

    // What the build holds, estimated as the overview says: per arc, the builder's 16-byte record (twice,
    // for the vector's growth) and the graph's 16-byte arc; per waypoint, the builder's and the graph's id,
    // position and index and its cell (192 bytes, ids of up to 15 characters stored inline); a byte per
    // cell for the table of waypoints seen. A test holds the build to it with a counting allocator.
    const std::size_t node_bytes = cells.capacity() * 192 + map.cell_count();
    const auto held_bytes = [&](std::size_t arcs) { return node_bytes + arcs * 48; };
    const search::Budget& budget = options.budget;
    const bool has_deadline = budget.deadline != std::chrono::steady_clock::time_point::max();
    const auto stop = [&](search::BudgetLimit limit) {
        out = WaypointGraph{};
        out.limit = limit;
        return Status::BudgetExhausted;
    };
    if (held_bytes(0) > budget.max_memory_bytes) return stop(search::BudgetLimit::Memory);

    GraphBuilder b;
    for (const GridPoint p : cells) (void)b.add_node(waypoint_id(p), p.x + 0.5, p.y + 0.5);
    std::uint64_t checked = 0, visited = 0;
    for (std::size_t i = 0; i < cells.size(); ++i)
        for (std::size_t j = i + 1; j < cells.size(); ++j) {
            if (has_deadline && (visited++ & 1023u) == 0 && std::chrono::steady_clock::now() >= budget.deadline)
                return stop(search::BudgetLimit::Time);
            const double d = euclidean_distance(cells[i], cells[j]);
            if (d > options.max_distance) continue;
            if (checked >= budget.max_expansions) return stop(search::BudgetLimit::Expansions);
            ++checked;
            if (!line_of_sight(map, cells[i], cells[j], options.movement, options.diagonal)) continue;
            if (held_bytes(b.arc_count() + 2) > budget.max_memory_bytes) return stop(search::BudgetLimit::Memory);
            (void)b.add_edge(GraphNode(i), GraphNode(j), d, true);
        }
    out.graph = b.build();
    out.cells = std::move(cells);
    out.movement = options.movement;
    out.diagonal = options.diagonal;
    out.max_distance = options.max_distance;
    return Status::Found;
}

// ---- WaypointPathfinder ----------------------------------------------------------------------------

void WaypointPathfinder::reserve(const WaypointGraph& graph) {
    const std::size_t n = graph.graph.node_count();
    m_context.reserve(n + 1, n + 1);
    m_sources.reserve(n);
    m_source_costs.reserve(n);
    detail::grow_exactly(m_goal_mark, n);
    detail::grow_exactly(m_goal_cost, n);
}

std::size_t WaypointPathfinder::own_bytes() const noexcept {
    return m_sources.capacity() * sizeof(search::NodeIndex) + m_source_costs.capacity() * sizeof(double) +
           m_goal_mark.capacity() * sizeof(std::uint32_t) + m_goal_cost.capacity() * sizeof(double);
}

std::size_t WaypointPathfinder::memory_bytes() const noexcept { return m_context.engine_bytes() + own_bytes(); }

search::BudgetLimit WaypointPathfinder::budget_limit() const noexcept {
    if (m_status != Status::BudgetExhausted) return search::BudgetLimit::None;
    return m_limit != search::BudgetLimit::None ? m_limit : m_context.budget_limit();
}

double WaypointPathfinder::heuristic(search::NodeIndex node) const noexcept {
    if (node == m_goal_node || m_h_scale == 0.0) return 0.0;
    const GraphPosition p = m_graph->graph.position(node);
    return m_h_scale * std::hypot(p.x - (m_goal.x + 0.5), p.y - (m_goal.y + 0.5));
}

Status WaypointPathfinder::begin(const WaypointGraph& graph, const GridMap& map, GridPoint start, GridPoint goal,
                                 const GraphSearchOptions& options) {
    m_graph = &graph;
    m_start = start;
    m_goal = goal;
    m_direct = false;
    m_limit = search::BudgetLimit::None;
    m_goal_links = 0;
    m_sources.clear();
    m_source_costs.clear();
    const std::size_t n = graph.graph.node_count();
    m_goal_node = static_cast<search::NodeIndex>(n);
    m_h_scale = options.heuristic == GraphHeuristic::Zero ? 0.0 : options.weight;
    Space space{this};
    // Ends the query before any search: the engine forgets the previous one (its stamps, its counters).
    const auto stop = [&](Status status) {
        search::Budget forget;
        forget.max_memory_bytes = 0;
        m_context.begin(space, std::span<const search::NodeIndex>{}, std::span<const double>{}, forget);
        return m_status = status;
    };
    if (graph.cells.size() != n || (n > 0 && !graph.graph.has_positions()) || map.empty() || map.has_terrain_costs() ||
        !map.passable(start) || !map.passable(goal) || !std::isfinite(options.weight) || options.weight < 1.0)
        return stop(Status::InvalidQuery);
    for (const GridPoint c : graph.cells)
        if (!map.passable(c)) return stop(Status::InvalidQuery);  // the graph was built from another map
    const auto sees = [&](GridPoint a, GridPoint b, double& d) {
        d = euclidean_distance(a, b);
        return d <= graph.max_distance && line_of_sight(map, a, b, graph.movement, graph.diagonal);
    };
    double direct = 0.0;
    if (start == goal || sees(start, goal, direct)) {
        m_direct = true;
        (void)stop(Status::Found);
        return m_status;
    }
    // The pathfinder's own arrays, counted against the memory budget before they grow.
    const std::size_t max_bytes = options.budget.max_memory_bytes;
    if (max_bytes != SIZE_MAX) {
        const std::size_t more = detail::growth_bytes(m_sources, n) + detail::growth_bytes(m_source_costs, n) +
                                 detail::growth_bytes(m_goal_mark, n) + detail::growth_bytes(m_goal_cost, n);
        if (detail::passes_budget(memory_bytes(), more, max_bytes)) {
            m_limit = search::BudgetLimit::Memory;
            return stop(Status::BudgetExhausted);
        }
    }
    m_sources.reserve(n);
    m_source_costs.reserve(n);
    detail::grow_exactly(m_goal_mark, n);
    detail::grow_exactly(m_goal_cost, n);
    search::advance_generation(m_generation, [&] { std::fill(m_goal_mark.begin(), m_goal_mark.end(), 0u); });
    // An end that is itself a waypoint is not joined to itself: its other links reach the same places at the
    // same costs, and the path never lists a cell twice.
    for (std::size_t u = 0; u < n; ++u) {
        double d = 0.0;
        if (!(graph.cells[u] == start) && sees(start, graph.cells[u], d)) {
            m_sources.push_back(static_cast<search::NodeIndex>(u));
            m_source_costs.push_back(d);
        }
        if (!(graph.cells[u] == goal) && sees(graph.cells[u], goal, d)) {
            m_goal_mark[u] = m_generation;
            m_goal_cost[u] = d;
            ++m_goal_links;
        }
    }
    if (m_sources.empty() || m_goal_links == 0) return stop(Status::NoPath);
    m_context.begin(space, std::span<const search::NodeIndex>(m_sources), std::span<const double>(m_source_costs), options.budget);
    m_status = m_context.status() == Status::BudgetExhausted ? Status::BudgetExhausted : Status::InProgress;
    return m_status;
}

Status WaypointPathfinder::step(std::uint64_t slice_expansions) {
    if (m_status != Status::InProgress) return m_status;
    Space space{this};
    m_status = m_context.step(space, slice_expansions);
    return m_status;
}

Status WaypointPathfinder::finish(GridPath& out) const {
    out.cells.clear();
    out.cost = std::numeric_limits<double>::infinity();
    if (m_status != Status::Found) return m_status;
    out.cells.push_back(m_start);
    if (m_direct) {
        if (!(m_goal == m_start)) out.cells.push_back(m_goal);
        out.cost = euclidean_distance(m_start, m_goal);
        return m_status;
    }
    // The engine's route: a waypoint the start sees, ..., a waypoint that sees the goal, the goal node.
    const std::size_t first = out.cells.size();
    for (search::NodeIndex v = m_context.parent(m_goal_node); v != search::kNoNode; v = m_context.parent(v))
        out.cells.push_back(m_graph->cells[v]);
    std::reverse(out.cells.begin() + static_cast<std::ptrdiff_t>(first), out.cells.end());
    out.cells.push_back(m_goal);
    out.cost = m_context.g(m_goal_node);
    return m_status;
}

Status WaypointPathfinder::find_path(const WaypointGraph& graph, const GridMap& map, GridPoint start, GridPoint goal,
                                     const GraphSearchOptions& options, GridPath& out) {
    if (begin(graph, map, start, goal, options) == Status::InProgress) (void)step();
    return finish(out);
}

}  // namespace gameplan::path
