#include <gameplan/path/fog.hpp>

#include <algorithm>
#include <cmath>

namespace gameplan::path {

void TeamKnowledge::reset(const GridMap& truth) {
    (void)m_belief.reset(truth.width(), truth.height(), true);
    m_areas.reset(m_belief);
    for (std::int32_t y = 0; y < truth.height(); ++y)
        for (std::int32_t x = 0; x < truth.width(); ++x) (void)m_areas.set({x, y}, kAreaUnknown);
    m_state.assign(m_belief.node_bound(), static_cast<std::uint8_t>(CellKnowledge::Unknown));
    m_known_count = 0;
}

CellKnowledge TeamKnowledge::state(GridPoint p) const noexcept {
    if (!m_belief.contains(p)) return CellKnowledge::Unknown;
    return static_cast<CellKnowledge>(m_state[m_belief.index(p)]);
}

std::size_t TeamKnowledge::reveal(const GridMap& truth, GridPoint center, std::int32_t radius, const AreaMap* truth_areas) {
    if (!matches(truth) || radius < 0 || radius > kMaxSightRadius) return 0;
    if (truth_areas != nullptr && !truth_areas->matches(truth)) truth_areas = nullptr;
    std::size_t walls = 0;
    const std::int32_t y0 = std::max(0, center.y - radius), y1 = std::min(truth.height() - 1, center.y + radius);
    const std::int32_t x0 = std::max(0, center.x - radius), x1 = std::min(truth.width() - 1, center.x + radius);
    for (std::int32_t y = y0; y <= y1; ++y)
        for (std::int32_t x = x0; x <= x1; ++x) {
            const GridPoint p{x, y};
            std::uint8_t& s = m_state[m_belief.index(p)];
            if (s != static_cast<std::uint8_t>(CellKnowledge::Unknown)) continue;
            ++m_known_count;
            (void)m_areas.set(p, truth_areas != nullptr ? truth_areas->at(p) : 0u);
            if (truth.passable(p)) {
                s = static_cast<std::uint8_t>(CellKnowledge::Free);
                if (truth.cost(p) != 1u) (void)m_belief.set_cost(p, truth.cost(p));
            } else {
                s = static_cast<std::uint8_t>(CellKnowledge::Blocked);
                (void)m_belief.set_passable(p, false);
                ++walls;
            }
        }
    return walls;
}

std::size_t TeamKnowledge::memory_bytes() const noexcept {
    return m_belief.passable_data().size() + m_belief.cost_data().size_bytes() + m_areas.data().size() + m_state.size();
}

namespace {

// A step of a route is still legal on the belief: the cell entered is open and the diagonal's sides
// satisfy the rule.
bool step_legal(const GridMap& map, GridPoint from, GridPoint to, DiagonalRule rule) noexcept {
    if (!map.passable(to)) return false;
    if (from.x == to.x || from.y == to.y) return true;
    return diagonal_allowed(rule, map.passable({to.x, from.y}), map.passable({from.x, to.y}));
}

double true_step_cost(const GridMap& truth, GridPoint from, GridPoint to) noexcept {
    const double length = (from.x != to.x && from.y != to.y) ? kDiagonalStep : 1.0;
    return length * static_cast<double>(truth.cost(to));
}

}  // namespace

Status Explorer::explore(const GridMap& truth, TeamKnowledge& team, GridPoint start, GridPoint goal,
                         const ExploreOptions& options, ExploreResult& out) {
    out.path.clear();
    out.travelled = 0.0;
    out.steps = 0;
    out.replans = 0;
    out.expanded = 0;
    if (!team.matches(truth) || !truth.passable(start) || !truth.contains(goal) || options.sight < 1 ||
        options.sight > kMaxSightRadius || !(options.unknown_multiplier > 0.0) ||
        !(options.unknown_multiplier <= kMaxAreaMultiplier))
        return Status::InvalidQuery;
    const DiagonalRule rule = effective_diagonal(options.movement, options.diagonal);
    GridSearchOptions search;
    search.movement = options.movement;
    search.diagonal = options.diagonal;
    if (options.unknown_multiplier != 1.0) {
        m_filter = AreaFilter{};
        (void)m_filter.set_multiplier(kAreaUnknown, options.unknown_multiplier);
        search.areas = &team.areas();
        search.filter = &m_filter;
    }
    const std::uint64_t max_steps =
        options.max_steps != 0 ? options.max_steps : 4 * static_cast<std::uint64_t>(truth.cell_count()) + 16;

    GridPoint at = start;
    out.path.push_back(at);
    (void)team.reveal(truth, at, options.sight);
    bool first = true;
    while (!(at == goal)) {
        // plan on what the team knows now
        if (!first) ++out.replans;
        first = false;
        const Status planned = m_finder.find_path(team.belief(), at, goal, search, m_plan);
        out.expanded += m_finder.stats().expanded;
        if (planned == Status::InvalidQuery && !team.belief().passable(goal)) return Status::NoPath;  // goal seen blocked
        if (planned != Status::Found) return planned == Status::InvalidQuery ? Status::InvalidQuery : Status::NoPath;
        // follow it while the rest of it stays legal
        std::size_t next = 1;
        while (next < m_plan.cells.size()) {
            const GridPoint to = m_plan.cells[next];
            if (!step_legal(team.belief(), at, to, rule)) break;  // (sight >= 1: never true for a blocked cell)
            if (out.steps >= max_steps) return Status::BudgetExhausted;
            out.travelled += true_step_cost(truth, at, to);
            ++out.steps;
            at = to;
            out.path.push_back(at);
            ++next;
            if (team.reveal(truth, at, options.sight) == 0) continue;
            // new walls: replan at once if the remaining route meets one
            bool blocked = false;
            for (std::size_t k = next; k < m_plan.cells.size() && !blocked; ++k)
                blocked = !step_legal(team.belief(), m_plan.cells[k - 1], m_plan.cells[k], rule);
            if (blocked) break;
        }
    }
    return Status::Found;
}

}  // namespace gameplan::path
