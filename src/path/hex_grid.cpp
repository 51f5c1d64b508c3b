// Hex grids (path/hex_grid.hpp): islands and the HexPathfinder on the generic engine.
#include <gameplan/path/hex_grid.hpp>

#include "exact_growth.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace gameplan::path {

namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();
constexpr std::uint32_t kNoIsland = UINT32_MAX;
}  // namespace

void HexIslands::build(const GridMap& map) {
    m_width = map.width();
    m_height = map.height();
    m_map = &map;
    m_version = map.passability_version();
    m_count = 0;
    m_sizes.clear();
    m_label.assign(map.cell_count(), kNoIsland);
    const auto at = [&](GridPoint p) { return std::size_t(p.y) * std::size_t(m_width) + std::size_t(p.x); };
    std::vector<GridPoint> queue;
    for (std::int32_t y = 0; y < m_height; ++y)
        for (std::int32_t x = 0; x < m_width; ++x) {
            if (!map.passable({x, y}) || m_label[at({x, y})] != kNoIsland) continue;
            const std::uint32_t label = m_count++;
            queue.clear();
            queue.push_back({x, y});
            m_label[at({x, y})] = label;
            for (std::size_t head = 0; head < queue.size(); ++head)
                for (const GridPoint q : hex_neighbours(queue[head]))
                    if (map.passable(q) && m_label[at(q)] == kNoIsland) {
                        m_label[at(q)] = label;
                        queue.push_back(q);
                    }
            m_sizes.push_back(static_cast<std::uint32_t>(queue.size()));
        }
}

std::uint32_t HexIslands::island(GridPoint p) const noexcept {
    if (p.x < 0 || p.y < 0 || p.x >= m_width || p.y >= m_height) return kNoIsland;
    return m_label[std::size_t(p.y) * std::size_t(m_width) + std::size_t(p.x)];
}

bool HexIslands::connected(GridPoint a, GridPoint b) const noexcept {
    const std::uint32_t ia = island(a);
    return ia != kNoIsland && ia == island(b);
}

namespace {
using detail::grow_exactly;
using detail::growth_bytes;
}  // namespace

void HexPathfinder::reserve(const GridMap& map) {
    m_context.reserve(map.node_bound(), 1u << 12);
    grow_exactly(m_goal_mark, map.node_bound());
}

Status HexPathfinder::begin(const GridMap& map, GridPoint start, GridPoint goal, const HexSearchOptions& options) {
    return begin(map, std::span<const GridPoint>(&start, 1), std::span<const GridPoint>(&goal, 1), options);
}

Status HexPathfinder::begin(const GridMap& map, std::span<const GridPoint> sources, std::span<const GridPoint> goals,
                            const HexSearchOptions& options) {
    m_space = Space{&map, this};
    m_goal = search::kNoNode;
    m_multi_goal = false;
    m_h_goal_count = 0;
    m_h_scale = 0.0;
    m_pending_bytes = 0;
    m_limit = search::BudgetLimit::None;
    const std::size_t max_bytes = options.budget.max_memory_bytes;
    // Forget the previous search (its stamps), so reached()/g() answer for this one even when it ends
    // early; the engine grows its arrays for the map only as far as `grow_to` bytes allow.
    const auto stop = [&](Status status, std::size_t grow_to) {
        search::Budget forget;
        forget.max_memory_bytes = grow_to;
        m_context.begin(m_space, std::span<const search::NodeIndex>{}, std::span<const double>{}, forget);
        return m_status = status;
    };
    if (map.empty() || sources.empty() || !std::isfinite(options.weight) || options.weight < 1.0)
        return stop(Status::InvalidQuery, max_bytes);
    for (const GridPoint s : sources)
        if (!map.passable(s)) return stop(Status::InvalidQuery, max_bytes);
    for (const GridPoint t : goals)
        if (!map.passable(t)) return stop(Status::InvalidQuery, max_bytes);
    if (options.islands && options.islands->current(map) && !goals.empty()) {
        bool any = false;
        for (const GridPoint s : sources)
            for (const GridPoint t : goals) any = any || options.islands->connected(s, t);
        if (!any) return stop(Status::NoPath, max_bytes);
    }
    // The memory budget: what the pathfinder holds plus the goal marks and sources this query adds must
    // fit, else nothing is allocated. The engine's own growth is checked by the engine, counting the
    // goal marks still to come (m_pending_bytes, reported through Space::memory_bytes).
    const std::size_t mark_bytes = goals.size() > 1 ? growth_bytes(m_goal_mark, map.node_bound()) : 0;
    if (max_bytes != SIZE_MAX) {
        const std::size_t held = memory_bytes();
        const std::size_t more = mark_bytes + growth_bytes(m_sources, sources.size());
        if (detail::passes_budget(held, more, max_bytes)) {
            m_limit = search::BudgetLimit::Memory;
            return stop(Status::BudgetExhausted, 0);
        }
    }
    if (options.heuristic == HexHeuristic::Auto && !goals.empty() && goals.size() <= kMaxHeuristicGoals) {
        m_h_scale = options.weight * static_cast<double>(map.min_cost());
        for (const GridPoint t : goals) m_h_goals[m_h_goal_count++] = t;
    }
    // The engine takes node indices; the buffer grows to the most sources seen (no allocation after).
    if (m_sources.capacity() < sources.size()) m_sources.reserve(sources.size());
    m_sources.resize(sources.size());
    for (std::size_t i = 0; i < sources.size(); ++i) m_sources[i] = map.index(sources[i]);
    m_pending_bytes = mark_bytes;
    m_context.begin(m_space, std::span<const search::NodeIndex>(m_sources), std::span<const double>{}, options.budget);
    m_pending_bytes = 0;
    if (m_context.status() == Status::BudgetExhausted) return m_status = Status::BudgetExhausted;  // engine: Memory
    if (goals.size() == 1) {
        m_goal = map.index(goals[0]);
    } else if (goals.size() > 1) {
        m_multi_goal = true;
        grow_exactly(m_goal_mark, map.node_bound());
        search::advance_generation(m_goal_generation, [&] { std::fill(m_goal_mark.begin(), m_goal_mark.end(), 0u); });
        for (const GridPoint t : goals) m_goal_mark[map.index(t)] = m_goal_generation;
    }
    return m_status = Status::InProgress;
}

double HexPathfinder::heuristic(search::NodeIndex node) const noexcept {
    if (m_h_goal_count == 0) return 0.0;
    const GridPoint p = m_space.map->point(node);
    std::int64_t best = INT64_MAX;
    for (std::size_t i = 0; i < m_h_goal_count; ++i) best = std::min(best, hex_distance(p, m_h_goals[i]));
    return m_h_scale * static_cast<double>(best);
}

bool HexPathfinder::is_goal(search::NodeIndex node) const noexcept {
    if (m_multi_goal) return m_goal_mark[node] == m_goal_generation;
    return node == m_goal;
}

Status HexPathfinder::step(std::uint64_t slice_expansions) {
    if (m_status != Status::InProgress) return m_status;
    return m_status = m_context.step(m_space, slice_expansions);
}

Status HexPathfinder::finish(GridPath& out) const {
    out.cells.clear();
    out.cost = kInfinity;
    if (m_status != Status::Found) return m_status;
    path_to(m_space.map->point(m_context.goal()), out);
    return m_status;
}

Status HexPathfinder::find_path(const GridMap& map, GridPoint start, GridPoint goal, const HexSearchOptions& options,
                                GridPath& out) {
    if (begin(map, start, goal, options) == Status::InProgress) (void)step();
    return finish(out);
}

double HexPathfinder::cost() const noexcept { return m_status == Status::Found ? m_context.g(m_context.goal()) : kInfinity; }

GridPoint HexPathfinder::goal_reached() const noexcept {
    return m_status == Status::Found ? m_space.map->point(m_context.goal()) : GridPoint{-1, -1};
}

bool HexPathfinder::reached_cell(GridPoint p) const noexcept {
    return m_space.map && m_space.map->contains(p) && m_context.reached(m_space.map->index(p));
}

bool HexPathfinder::closed(GridPoint p) const noexcept {
    return m_space.map && m_space.map->contains(p) && m_context.closed(m_space.map->index(p));
}

double HexPathfinder::g(GridPoint p) const noexcept {
    return reached_cell(p) ? m_context.g(m_space.map->index(p)) : kInfinity;
}

void HexPathfinder::path_to(GridPoint p, GridPath& out) const {
    out.cells.clear();
    out.cost = kInfinity;
    if (!reached_cell(p)) return;
    for (search::NodeIndex n = m_space.map->index(p); n != search::kNoNode; n = m_context.parent(n))
        out.cells.push_back(m_space.map->point(n));
    std::reverse(out.cells.begin(), out.cells.end());
    out.cost = m_context.g(m_space.map->index(p));
}

}  // namespace gameplan::path
