#include <gameplan/path/fog.hpp>

#include <algorithm>
#include <chrono>
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

// The unit's view of what it may enter: open on the belief and not in an area its filter forbids.
struct Enterable {
    const GridMap& belief;
    const AreaMap& areas;
    const AreaFilter* filter;
    [[nodiscard]] bool operator()(GridPoint p) const noexcept {
        return belief.passable(p) && (filter == nullptr || !filter->forbidden(areas.at(p)));
    }
};

// A step of a route is still legal on the belief: the cell entered is enterable and the diagonal's
// sides satisfy the rule.
bool step_legal(const Enterable& enterable, GridPoint from, GridPoint to, DiagonalRule rule) noexcept {
    if (!enterable(to)) return false;
    if (from.x == to.x || from.y == to.y) return true;
    return diagonal_allowed(rule, enterable({to.x, from.y}), enterable({from.x, to.y}));
}

double true_step_cost(const GridMap& truth, GridPoint from, GridPoint to, const ExploreOptions& options) noexcept {
    const double length = (from.x != to.x && from.y != to.y) ? kDiagonalStep : 1.0;
    double cost = length * static_cast<double>(truth.cost(to));
    if (options.filter != nullptr)
        cost *= options.filter->multiplier(options.areas != nullptr ? options.areas->at(to) : 0u);
    for (const CostLayer& layer : options.layers) cost += layer.weight * static_cast<double>(layer.layer->at(to));
    return cost;
}

}  // namespace

Status Explorer::explore(const GridMap& truth, TeamKnowledge& team, GridPoint start, GridPoint goal,
                         const ExploreOptions& options, ExploreResult& out) {
    out.path.clear();
    out.travelled = 0.0;
    out.steps = 0;
    out.replans = 0;
    out.expanded = 0;
    out.limit = search::BudgetLimit::None;
    if (!team.matches(truth) || !truth.passable(start) || !truth.contains(goal) || options.sight < 1 ||
        options.sight > kMaxSightRadius || !(options.unknown_multiplier > 0.0) ||
        !(options.unknown_multiplier <= kMaxAreaMultiplier))
        return Status::InvalidQuery;
    if (options.areas != nullptr && !options.areas->matches(truth)) return Status::InvalidQuery;
    for (const CostLayer& layer : options.layers)
        if (layer.layer == nullptr || !layer.layer->matches(truth) || !(layer.weight >= 0.0) || !std::isfinite(layer.weight))
            return Status::InvalidQuery;
    if (options.filter != nullptr &&
        options.filter->forbidden(options.areas != nullptr ? options.areas->at(start) : 0u))
        return Status::InvalidQuery;
    const DiagonalRule rule = effective_diagonal(options.movement, options.diagonal);
    GridSearchOptions search;
    search.movement = options.movement;
    search.diagonal = options.diagonal;
    search.layers = options.layers;
    search.budget.deadline = options.budget.deadline;
    search.budget.max_memory_bytes = options.budget.max_memory_bytes;
    const bool has_deadline = options.budget.deadline != std::chrono::steady_clock::time_point::max();
    const bool filtered = options.filter != nullptr;
    if (options.unknown_multiplier != 1.0 || filtered) {
        // the unit's filter over the team's areas, plus the price of unknown cells
        m_filter = filtered ? *options.filter : AreaFilter{};
        if (!m_filter.forbidden(kAreaUnknown)) (void)m_filter.set_multiplier(kAreaUnknown, options.unknown_multiplier);
        search.areas = &team.areas();
        search.filter = &m_filter;
    }
    const Enterable enterable{team.belief(), team.areas(), filtered ? &m_filter : nullptr};
    const AreaMap* const true_areas = options.areas;
    const std::uint64_t max_steps =
        options.max_steps != 0 ? options.max_steps : 4 * static_cast<std::uint64_t>(truth.cell_count()) + 16;

    GridPoint at = start;
    out.path.push_back(at);
    (void)team.reveal(truth, at, options.sight, true_areas);
    bool first = true;
    while (!(at == goal)) {
        // plan on what the team knows now
        if (!first) ++out.replans;
        first = false;
        // the walk's budget: what its plans expanded so far counts, and the deadline holds between plans too
        if (out.expanded >= options.budget.max_expansions) {
            out.limit = search::BudgetLimit::Expansions;
            return Status::BudgetExhausted;
        }
        if (has_deadline && std::chrono::steady_clock::now() >= options.budget.deadline) {
            out.limit = search::BudgetLimit::Time;
            return Status::BudgetExhausted;
        }
        search.budget.max_expansions = options.budget.max_expansions == UINT64_MAX ? UINT64_MAX
                                                                                  : options.budget.max_expansions - out.expanded;
        const Status planned = m_finder.find_path(team.belief(), at, goal, search, m_plan);
        out.expanded += m_finder.stats().expanded;
        if (planned == Status::BudgetExhausted) {
            out.limit = m_finder.budget_limit();
            return Status::BudgetExhausted;
        }
        if (planned == Status::InvalidQuery && !enterable(goal)) return Status::NoPath;  // goal seen blocked or forbidden
        if (planned != Status::Found) return planned == Status::InvalidQuery ? Status::InvalidQuery : Status::NoPath;
        // follow it while the rest of it stays legal
        std::size_t next = 1;
        while (next < m_plan.cells.size()) {
            const GridPoint to = m_plan.cells[next];
            if (!step_legal(enterable, at, to, rule)) break;  // (sight >= 1: never true for a blocked cell)
            if (out.steps >= max_steps) return Status::BudgetExhausted;
            out.travelled += true_step_cost(truth, at, to, options);
            ++out.steps;
            at = to;
            out.path.push_back(at);
            ++next;
            const std::size_t known = team.known_count();
            const std::size_t walls = team.reveal(truth, at, options.sight, true_areas);
            // new walls (or, with a filter, newly seen cells of forbidden areas): replan at once if the
            // remaining route meets one
            if (walls == 0 && !(filtered && team.known_count() != known)) continue;
            bool blocked = false;
            for (std::size_t k = next; k < m_plan.cells.size() && !blocked; ++k)
                blocked = !step_legal(enterable, m_plan.cells[k - 1], m_plan.cells[k], rule);
            if (blocked) break;
        }
    }
    return Status::Found;
}

}  // namespace gameplan::path
