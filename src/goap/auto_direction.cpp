// Automatic choice of the search direction (auto_direction.hpp): both directions in turn, first answer wins.
#include <gameplan/goap/auto_direction.hpp>

#include <algorithm>
#include <cstddef>

namespace gameplan::goap {

PlanResult AutoDirectionPlanner::plan(const WorldState& start, const Condition& goal, const PlanOptions& options) {
    m_forward_expanded = m_backward_expanded = 0;
    PlanOptions o = options;
    if (m_forward.domain().has_variables()) {  // one direction only
        o.direction = Direction::Forward;
        m_direction = Direction::Forward;
        PlanResult r = m_forward.plan(start, goal, o);
        m_forward_expanded = r.stats.expanded;
        return r;
    }
    const std::uint64_t budget = options.max_expansions;
    o.max_expansions = UINT64_MAX;  // the pair's budget is enforced here, slice by slice
    if (options.max_memory_bytes != SIZE_MAX) o.max_memory_bytes = options.max_memory_bytes / 2;
    PlanOptions fo = o, bo = o;
    fo.direction = Direction::Forward;
    bo.direction = Direction::Backward;

    m_direction = Direction::Backward;
    const Status b0 = m_backward.begin(start, goal, bo);
    if (b0 != Status::InProgress) return m_backward.result();  // invalid, or unreachable even relaxed
    const Status f0 = m_forward.begin(start, goal, fo);
    if (f0 != Status::InProgress) {  // cannot differ from backward's verdict, but take it if it comes
        m_direction = Direction::Forward;
        return m_forward.result();
    }
    const std::uint64_t backward_slice = kBackwardSlice;
    const std::uint64_t forward_slice = options.heuristic == Heuristic::HMax ? kBackwardSlice / 4 : kBackwardSlice;
    bool forward_alive = true, backward_alive = true;
    std::uint64_t used = 0;
    Status final_status = Status::BudgetExhausted;
    Planner* winner = nullptr;
    bool backward_turn = true;
    while ((forward_alive || backward_alive) && used < budget) {
        if (backward_turn ? !backward_alive : !forward_alive) {
            backward_turn = !backward_turn;
            continue;
        }
        Planner& p = backward_turn ? m_backward : m_forward;
        std::uint64_t& expanded = backward_turn ? m_backward_expanded : m_forward_expanded;
        const std::uint64_t slice = std::min(backward_turn ? backward_slice : forward_slice, budget - used);
        const Status s = p.step(slice);
        const std::uint64_t now = p.result().stats.expanded;
        used += now - expanded;
        expanded = now;
        m_direction = backward_turn ? Direction::Backward : Direction::Forward;
        if (s == Status::Found || s == Status::NoPath) {
            final_status = s;
            winner = &p;
            break;
        }
        if (s != Status::InProgress) (backward_turn ? backward_alive : forward_alive) = false;  // its own budget ran out
        backward_turn = !backward_turn;
    }
    const PlanResult f = m_forward.result(), b = m_backward.result();
    PlanResult out = winner ? winner->result() : (m_direction == Direction::Forward ? f : b);
    out.status = final_status;
    out.stats.expanded = f.stats.expanded + b.stats.expanded;
    out.stats.generated = f.stats.generated + b.stats.generated;
    out.stats.reopened = f.stats.reopened + b.stats.reopened;
    out.micros = f.micros + b.micros;
    if (!winner) {
        out.cost = 0;
        out.plan = {};
        out.exhausted = used >= budget ? search::BudgetLimit::Expansions
                                       : (b.exhausted != search::BudgetLimit::None ? b.exhausted : f.exhausted);
    }
    return out;
}

}  // namespace gameplan::goap
