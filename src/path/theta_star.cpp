#include <gameplan/path/theta_star.hpp>

#include <gameplan/path/smoothing.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <limits>

namespace gameplan::path {

namespace {
constexpr double kInfinity = std::numeric_limits<double>::infinity();
}  // namespace

void ThetaStar::reserve(const GridMap& map, std::size_t open_entries) {
    if (m_state.size() < map.node_bound())
        m_state.resize(map.node_bound(), State{0.0, search::kNoNode, search::kUnvisitedStamp});
    m_heap.reserve_nodes(map.node_bound());
    m_heap.reserve_entries(std::min<std::size_t>(open_entries, map.node_bound()));
}

Status ThetaStar::find_path(const GridMap& map, GridPoint start, GridPoint goal, GridPath& out,
                            const ThetaStarOptions& options) {
    m_stats = {};
    m_los_checks = 0;
    out.cells.clear();
    out.cost = kInfinity;
    if (map.empty() || !map.passable(start) || !map.passable(goal) || map.has_terrain_costs()) return Status::InvalidQuery;
    // Areas: forbidden cells block; the allowed areas on the map must share one multiplier.
    const std::uint8_t* area = nullptr;
    std::uint64_t forbidden = 0;
    double multiplier = 1.0;
    if (options.filter != nullptr) {
        if (options.areas != nullptr && !options.areas->matches(map)) return Status::InvalidQuery;
        area = options.areas != nullptr ? options.areas->data().data() : nullptr;
        forbidden = options.filter->forbidden_mask();
        const std::uint64_t present = options.areas != nullptr ? options.areas->present() : 1u;
        bool any = false;
        for (std::uint64_t allowed = present & ~forbidden; allowed != 0; allowed &= allowed - 1) {
            const double m = options.filter->multiplier(static_cast<std::uint32_t>(std::countr_zero(allowed)));
            if (any && m != multiplier) return Status::InvalidQuery;
            multiplier = m;
            any = true;
        }
    }
    const auto forbidden_at = [&](std::uint32_t node) {
        return forbidden != 0 && ((forbidden >> (area != nullptr ? area[node] : 0u)) & 1u) != 0;
    };
    if (forbidden_at(map.index(start)) || forbidden_at(map.index(goal))) return Status::InvalidQuery;
    GridSearchOptions sight;  // line of sight under the rule and the filter
    sight.movement = options.movement;
    sight.diagonal = options.diagonal;
    sight.areas = options.areas;
    sight.filter = forbidden != 0 ? options.filter : nullptr;
    if (m_state.size() < map.node_bound()) reserve(map, 0);
    search::advance_generation(m_generation, [&] {
        for (State& s : m_state) s.stamp = search::kUnvisitedStamp;
    });
    m_heap.clear();

    const DiagonalRule rule = effective_diagonal(options.movement, options.diagonal);
    const std::uint8_t* const passable = map.passable_data().data();
    const auto pass = [&](std::uint32_t node) { return passable[node] != 0 && !forbidden_at(node); };
    const std::uint32_t stride = map.stride();
    m_stride = stride;
    m_width = map.width();
    const std::uint32_t open = search::open_stamp(m_generation), closed = search::closed_stamp(m_generation);
    const std::uint32_t start_node = map.index(start), goal_node = map.index(goal);
    const auto point = [&](std::uint32_t node) { return map.point(node); };
    const auto heuristic = [&](GridPoint p) { return multiplier * euclidean_distance(p, goal); };
    std::uint32_t sequence = 0;

    const double h0 = heuristic(start);
    m_state[start_node] = State{0.0, start_node, open};  // the start is its own parent
    m_heap.push(start_node, Key{h0, h0, ++sequence});

    const bool has_deadline = options.budget.deadline != std::chrono::steady_clock::time_point::max();
    Status status = Status::NoPath;
    while (!m_heap.empty()) {
        const std::uint32_t node = m_heap.top().node;
        if (node == goal_node) {
            status = Status::Found;
            break;
        }
        if (m_stats.expanded >= options.budget.max_expansions ||
            (has_deadline && (m_stats.expanded & 63u) == 0 && std::chrono::steady_clock::now() >= options.budget.deadline)) {
            status = Status::BudgetExhausted;
            break;
        }
        m_heap.pop();
        m_state[node].stamp = closed;
        ++m_stats.expanded;
        const std::uint32_t parent = m_state[node].parent;
        const GridPoint parent_point = point(parent);
        const double g_here = m_state[node].g, g_parent = m_state[parent].g;

        const auto relax = [&](std::uint32_t next, double step) {
            ++m_stats.generated;
            State& s = m_state[next];
            if (s.stamp == closed) return;
            const GridPoint p = point(next);
            // Path 2: straight from the parent, if visible; it is never worse than path 1 then.
            double g_next;
            std::uint32_t via;
            ++m_los_checks;
            if (line_of_sight(map, parent_point, p, sight)) {
                g_next = g_parent + multiplier * euclidean_distance(parent_point, p);
                via = parent;
            } else {
                g_next = g_here + multiplier * step;
                via = node;
            }
            if (s.stamp == open) {
                if (!(g_next < s.g)) return;
                s.g = g_next;
                s.parent = via;
                const double h = heuristic(p);
                m_heap.decrease(next, Key{g_next + h, h, ++sequence});
                return;
            }
            const double h = heuristic(p);
            s = State{g_next, via, open};
            m_heap.push(next, Key{g_next + h, h, ++sequence});
        };

        const std::uint32_t up = node - stride, down = node + stride;
        const bool pass_up = pass(up), pass_down = pass(down);
        const bool pass_left = pass(node - 1), pass_right = pass(node + 1);
        if (pass_up) relax(up, 1.0);
        if (pass_down) relax(down, 1.0);
        if (pass_left) relax(node - 1, 1.0);
        if (pass_right) relax(node + 1, 1.0);
        if (rule != DiagonalRule::Never) {
            if (pass(up - 1) && diagonal_allowed(rule, pass_up, pass_left)) relax(up - 1, kDiagonalStep);
            if (pass(up + 1) && diagonal_allowed(rule, pass_up, pass_right)) relax(up + 1, kDiagonalStep);
            if (pass(down - 1) && diagonal_allowed(rule, pass_down, pass_left)) relax(down - 1, kDiagonalStep);
            if (pass(down + 1) && diagonal_allowed(rule, pass_down, pass_right)) relax(down + 1, kDiagonalStep);
        }
    }
    if (status != Status::Found) return status;

    std::size_t count = 1;
    for (std::uint32_t n = goal_node; n != start_node; n = m_state[n].parent) ++count;
    out.cells.resize(count);
    std::size_t at = count;
    for (std::uint32_t n = goal_node;; n = m_state[n].parent) {
        out.cells[--at] = point(n);
        if (n == start_node) break;
    }
    double cost = 0.0;
    for (std::size_t i = 1; i < out.cells.size(); ++i) cost += euclidean_distance(out.cells[i - 1], out.cells[i]);
    out.cost = multiplier * cost;
    return Status::Found;
}

bool ThetaStar::closed(GridPoint p) const noexcept {
    if (m_stride == 0 || p.x < 0 || p.y < 0 || p.x >= m_width) return false;
    const std::size_t node = (static_cast<std::size_t>(p.y) + 1) * m_stride + static_cast<std::size_t>(p.x) + 1;
    return node < m_state.size() && m_state[node].stamp == search::closed_stamp(m_generation);
}

}  // namespace gameplan::path
