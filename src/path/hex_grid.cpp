// Hex grids (path/hex_grid.hpp): islands and the HexPathfinder on the generic engine.
#include <gameplan/path/hex_grid.hpp>

#include <gameplan/search/generation.hpp>

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

double hex_path_cost(const GridMap& map, std::span<const GridPoint> cells) noexcept {
    if (cells.empty()) return 0.0;
    if (!map.passable(cells.front())) return kInfinity;
    double cost = 0.0;
    for (std::size_t i = 1; i < cells.size(); ++i) {
        if (!map.passable(cells[i]) || hex_distance(cells[i - 1], cells[i]) != 1) return kInfinity;
        cost += static_cast<double>(map.cost(cells[i]));
    }
    return cost;
}

void HexIslands::build(const GridMap& map) {
    m_width = map.width();
    m_height = map.height();
    m_map = &map;
    m_version = map.passability_version();
    m_resets = map.reset_count();
    m_count = 0;
    m_sizes.clear();
    m_label.assign(map.cell_count(), kNoIsland);
    std::vector<GridPoint>& queue = m_flood;
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

bool HexIslands::set_passable(GridMap& map, GridPoint p, bool passable) {
    if (!map.set_passable(p, passable)) return false;
    return cell_changed(map, p);
}

bool HexIslands::cell_changed(const GridMap& map, GridPoint p) {
    if (m_map != &map || !map.contains(p)) return false;
    if (map.width() != m_width || map.height() != m_height || map.reset_count() != m_resets) {
        build(map);
        return true;
    }
    const bool was = m_label[at(p)] != kNoIsland, now = map.passable(p);
    if (was != now) {
        if (now) cell_opened(p);
        else cell_closed(p);
        ++m_version;  // in step with the map once every change is reported (as each bumps it once)
    }
    // Labels of merged and emptied islands pile up; start afresh now and then.
    if (m_sizes.size() > 2 * map.cell_count() + 1024) build(map);
    return true;
}

void HexIslands::relabel(std::span<const GridPoint> cells, std::uint32_t label) noexcept {
    for (const GridPoint q : cells) m_label[at(q)] = label;
}

void HexIslands::cell_opened(GridPoint p) {
    // The distinct islands around p; the largest absorbs the others (their cells are relabelled).
    std::uint32_t around[6];
    int n = 0;
    for (const GridPoint q : hex_neighbours(p)) {
        if (!open(q)) continue;
        const std::uint32_t label = m_label[at(q)];
        if (std::find(around, around + n, label) == around + n) around[n++] = label;
    }
    if (n == 0) {
        m_label[at(p)] = static_cast<std::uint32_t>(m_sizes.size());
        m_sizes.push_back(1);
        ++m_count;
        return;
    }
    const std::uint32_t keep =
        *std::max_element(around, around + n, [&](std::uint32_t a, std::uint32_t b) { return m_sizes[a] < m_sizes[b]; });
    for (int k = 0; k < n; ++k) {
        const std::uint32_t gone = around[k];
        if (gone == keep) continue;
        // Flood the absorbed island from a neighbour of p on it.
        m_flood.clear();
        for (const GridPoint q : hex_neighbours(p))
            if (open(q) && m_label[at(q)] == gone) {
                m_flood.push_back(q);
                m_label[at(q)] = keep;
                break;
            }
        for (std::size_t head = 0; head < m_flood.size(); ++head)
            for (const GridPoint q : hex_neighbours(m_flood[head]))
                if (open(q) && m_label[at(q)] == gone) {
                    m_label[at(q)] = keep;
                    m_flood.push_back(q);
                }
        m_sizes[keep] += m_sizes[gone];
        m_sizes[gone] = 0;
        --m_count;
    }
    m_label[at(p)] = keep;
    ++m_sizes[keep];
}

void HexIslands::cell_closed(GridPoint p) {
    const std::uint32_t label = m_label[at(p)];
    m_label[at(p)] = kNoIsland;
    if (--m_sizes[label] == 0) {
        --m_count;
        return;
    }
    // The six neighbours in ring order (east, south-east, south-west, west, north-west, north-east):
    // each touches the next, so open neighbours in a row around p are still joined without p. One
    // side per run of open neighbours.
    const std::array<GridPoint, 6> n = hex_neighbours(p);
    const GridPoint ring[6] = {n[0], n[5], n[4], n[1], n[2], n[3]};
    GridPoint side[6];
    int sides = 0, first_closed = -1;
    for (int k = 0; k < 6; ++k)
        if (!open(ring[k])) {
            first_closed = k;
            break;
        }
    if (first_closed < 0) return;  // all six open: one ring around p
    for (int k = 1; k <= 6; ++k) {
        const int i = (first_closed + k) % 6, prev = (first_closed + k + 5) % 6;
        if (open(ring[i]) && !open(ring[prev])) side[sides++] = ring[i];
    }
    if (sides <= 1) return;
    // Lock-step searches, one per side, over the open cells. Sides that meet join one group; the search
    // stops when one group is left (no split) or only one group can still grow: every other group has
    // then reached all of its cells, and becomes an island of its own.
    if (m_visit.size() != m_label.size()) m_visit.assign(m_label.size(), search::kUnvisitedStamp);
    const std::uint32_t base =
        search::next_stamp_block(m_stamp, 6, [&] { std::fill(m_visit.begin(), m_visit.end(), search::kUnvisitedStamp); });
    int group[6];
    std::size_t head[6];
    for (int s = 0; s < sides; ++s) {
        group[s] = s;
        head[s] = 0;
        m_queue[s].clear();
        m_queue[s].push_back(side[s]);
        m_visit[at(side[s])] = base + static_cast<std::uint32_t>(s);
    }
    const auto root = [&](int s) {
        while (group[s] != s) s = group[s];
        return s;
    };
    const auto group_count = [&] {
        int count = 0;
        for (int s = 0; s < sides; ++s) count += group[s] == s;
        return count;
    };
    const auto growing_groups = [&] {
        bool grows[6] = {};
        for (int s = 0; s < sides; ++s)
            if (head[s] < m_queue[s].size()) grows[root(s)] = true;
        int count = 0;
        for (int s = 0; s < sides; ++s) count += grows[s];
        return count;
    };
    while (group_count() > 1 && growing_groups() > 1) {
        for (int s = 0; s < sides; ++s) {
            if (head[s] >= m_queue[s].size()) continue;
            const GridPoint c = m_queue[s][head[s]++];
            for (const GridPoint q : hex_neighbours(c)) {
                if (!open(q)) continue;
                std::uint32_t& v = m_visit[at(q)];
                if (v >= base && v < base + 6) {
                    const int a = root(s), b = root(static_cast<int>(v - base));
                    if (a != b) group[std::max(a, b)] = std::min(a, b);
                    continue;
                }
                v = base + static_cast<std::uint32_t>(s);
                m_queue[s].push_back(q);
            }
        }
    }
    if (group_count() == 1) return;
    // Every group that stopped growing is a new island: its sides' cells, all reached. The group still
    // growing (or, when all stopped at once, the first) keeps the old label.
    const bool one_grows = growing_groups() == 1;
    for (int g = 0; g < sides; ++g) {
        if (group[g] != g) continue;
        bool grows = false;
        std::uint32_t cells = 0;
        for (int s = 0; s < sides; ++s)
            if (root(s) == g) {
                grows = grows || head[s] < m_queue[s].size();
                cells += static_cast<std::uint32_t>(m_queue[s].size());
            }
        if (grows || (!one_grows && g == 0)) continue;
        const auto fresh = static_cast<std::uint32_t>(m_sizes.size());
        m_sizes.push_back(cells);
        m_sizes[label] -= cells;
        ++m_count;
        for (int s = 0; s < sides; ++s)
            if (root(s) == g) relabel(m_queue[s], fresh);
    }
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
