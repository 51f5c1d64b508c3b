// Automatic choice of the search direction (auto_direction.hpp): both directions in turn, first answer wins.
#include <gameplan/goap/auto_direction.hpp>

#include <algorithm>
#include <cstddef>

namespace gameplan::goap {

PlanResult AutoDirectionPlanner::plan(const WorldState& start, const Condition& goal, const PlanOptions& options) {
    if (begin(start, goal, options) == Status::InProgress) (void)step(UINT64_MAX);
    return result();
}

Status AutoDirectionPlanner::begin(const WorldState& start, const Condition& goal, const PlanOptions& options) {
    m_forward_expanded = m_backward_expanded = 0;
    m_used = 0;
    m_forward_alive = m_backward_alive = true;
    m_backward_turn = true;
    PlanOptions o = options;
    if (m_forward.domain().has_variables()) {  // one direction only
        o.direction = Direction::Forward;
        m_mode = Mode::ForwardOnly;
        m_direction = Direction::Forward;
        return m_status = m_forward.begin(start, goal, o);
    }
    m_budget = options.budget.max_expansions;
    o.budget.max_expansions = UINT64_MAX;  // the pair's budget is enforced here, slice by slice
    if (options.budget.max_memory_bytes != SIZE_MAX) o.budget.max_memory_bytes = options.budget.max_memory_bytes / 2;
    PlanOptions fo = o, bo = o;
    fo.direction = Direction::Forward;
    bo.direction = Direction::Backward;

    m_direction = Direction::Backward;
    m_mode = Mode::BackwardOnly;
    const Status b0 = m_backward.begin(start, goal, bo);
    if (b0 != Status::InProgress) return m_status = b0;  // invalid, or unreachable even relaxed
    const Status f0 = m_forward.begin(start, goal, fo);
    if (f0 != Status::InProgress) {  // cannot differ from backward's verdict, but take it if it comes
        m_mode = Mode::ForwardOnly;
        m_direction = Direction::Forward;
        return m_status = f0;
    }
    m_mode = Mode::Both;
    m_forward_slice = m_forward.heuristic() == Heuristic::HMax ? kBackwardSlice / 4 : kBackwardSlice;  // BySize resolved
    m_slice_left = kBackwardSlice;  // backward's turn first
    return m_status = Status::InProgress;
}

void AutoDirectionPlanner::next_turn() noexcept {
    m_backward_turn = !m_backward_turn;
    m_slice_left = m_backward_turn ? kBackwardSlice : m_forward_slice;
}

Status AutoDirectionPlanner::step(std::uint64_t max_expansions) {
    if (m_mode != Mode::Both) {
        Planner& p = m_mode == Mode::ForwardOnly ? m_forward : m_backward;
        m_status = p.step(max_expansions);
        (m_mode == Mode::ForwardOnly ? m_forward_expanded : m_backward_expanded) = p.result().stats.expanded;
        return m_status;
    }
    if (m_status != Status::InProgress) return m_status;
    // The schedule: turns alternate, each turn a slice of its direction's size; the slice in progress
    // (m_slice_left) and the turn survive between calls, so any split of the work into calls runs the
    // two planners through exactly the same sequence of expansions.
    std::uint64_t left = max_expansions;
    for (;;) {
        if ((!m_forward_alive && !m_backward_alive) || m_used >= m_budget) return m_status = Status::BudgetExhausted;
        if (left == 0) return Status::InProgress;
        if (m_backward_turn ? !m_backward_alive : !m_forward_alive) {
            next_turn();
            continue;
        }
        Planner& p = m_backward_turn ? m_backward : m_forward;
        std::uint64_t& expanded = m_backward_turn ? m_backward_expanded : m_forward_expanded;
        const std::uint64_t slice = std::min({m_slice_left, m_budget - m_used, left});
        const Status s = p.step(slice);
        const std::uint64_t now = p.result().stats.expanded;
        const std::uint64_t spent = std::min(now - expanded, slice);  // at most the slice asked for
        m_used += spent;
        left -= spent;
        m_slice_left -= spent;
        expanded = now;
        m_direction = m_backward_turn ? Direction::Backward : Direction::Forward;
        if (s == Status::Found || s == Status::NoPath) return m_status = s;
        if (s != Status::InProgress) {  // its own budget (time, memory) ran out
            (m_backward_turn ? m_backward_alive : m_forward_alive) = false;
            next_turn();
        } else if (m_slice_left == 0) {
            next_turn();
        }
    }
}

search::BudgetLimit AutoDirectionPlanner::budget_limit() const noexcept {
    if (m_mode == Mode::ForwardOnly) return m_forward.budget_limit();
    if (m_mode == Mode::BackwardOnly) return m_backward.budget_limit();
    if (m_status != Status::BudgetExhausted) return search::BudgetLimit::None;
    if (m_used >= m_budget) return search::BudgetLimit::Expansions;
    const search::BudgetLimit b = m_backward.budget_limit();
    return b != search::BudgetLimit::None ? b : m_forward.budget_limit();
}

search::SearchStats AutoDirectionPlanner::stats() const noexcept {
    if (m_mode == Mode::ForwardOnly) return m_forward.stats();
    if (m_mode == Mode::BackwardOnly) return m_backward.stats();
    const search::SearchStats f = m_forward.stats(), b = m_backward.stats();
    return {f.expanded + b.expanded, f.generated + b.generated, f.reopened + b.reopened};
}

PlanResult AutoDirectionPlanner::result() const noexcept {
    if (m_mode == Mode::ForwardOnly) return m_forward.result();
    if (m_mode == Mode::BackwardOnly) return m_backward.result();
    const PlanResult f = m_forward.result(), b = m_backward.result();
    PlanResult out = m_direction == Direction::Forward ? f : b;
    out.status = m_status;
    out.stats = stats();
    out.micros = f.micros + b.micros;
    if (m_status != Status::Found && m_status != Status::NoPath) {
        out.cost = 0;
        out.plan = {};
        out.limit = budget_limit();
    }
    return out;
}

}  // namespace gameplan::goap
