#pragma once
/// @file auto_direction.hpp
/// Automatic choice of the search direction: plan forward and backward at once, keep the first answer.
///
/// Overview
/// --------
/// Forward and backward search are both optimal, but on some tasks one of them expands a handful of
/// states while the other explodes, and no cheap test of the task tells which (random layered tasks,
/// task_generator.hpp, have both kinds among seeds of the same size; docs/benchmarks.md,
/// "Search direction"). `AutoDirectionPlanner` owns one `Planner` per direction and runs them in turn,
/// in slices, on the same query; the first search that ends with a final answer (Found or NoPath) gives
/// the result, and the other is abandoned. Since both searches are optimal, the answer is the optimal
/// plan whichever wins, and the work spent is at most about twice that of the better direction.
///
/// The rule (deterministic: it counts expansions, never reads a clock, so the same query always
/// returns the same plan):
/// - backward runs `kBackwardSlice` expansions, then forward runs a slice, and so on;
/// - forward's slice is `kBackwardSlice / 4` expansions with `Heuristic::HMax` (a forward expansion
///   re-computes h_max over the relevant actions, a backward one looks it up: measured about 4-5 times
///   dearer per expansion on the generated tasks) and `kBackwardSlice` with `LmCut` or `Blind` (the same
///   work per expansion in both directions);
/// - backward starts because it is the default and the cheaper one on game domains: a query backward
///   solves within its first slice costs one forward slice at most.
///
/// Budgets apply to the pair: `max_expansions` to the sum of both searches' expansions, the deadline
/// to both, and `max_memory_bytes` is split in half between them. Domains with variables are planned
/// forward (their only direction), by the forward planner alone.
///
/// Memory: two planners; after warm-up a query allocates nothing, as with `Planner`.
/// Thread-safety: one object per thread, like `Planner`.

#include <gameplan/goap/planner.hpp>

#include <cstdint>
#include <span>

namespace gameplan::goap {

/// Plans in both directions at once, keeping the first answer. See the file overview.
class AutoDirectionPlanner {
public:
    /// Expansions per backward slice (see the overview).
    static constexpr std::uint64_t kBackwardSlice = 256;

    /// A planner for `domain`, which must outlive it.
    explicit AutoDirectionPlanner(const Domain& domain) : m_forward(domain), m_backward(domain) {}

    /// Plans from `start` to `goal`; `options.direction` is ignored. The result is the winning
    /// direction's (`direction()`), with statistics summed over both searches; its plan points into
    /// this object and stays valid until the next call.
    [[nodiscard]] PlanResult plan(const WorldState& start, const Condition& goal, const PlanOptions& options = {});

    /// The direction whose answer the last plan() returned (for BudgetExhausted: the one that searched last).
    [[nodiscard]] Direction direction() const noexcept { return m_direction; }
    /// The goal literals (and comparisons) unreachable even in the relaxation, as `Planner` reports
    /// them, for the last plan(). Valid until the next call.
    [[nodiscard]] std::span<const Literal> unreachable_goals() const noexcept {
        return m_forward.domain().has_variables() ? m_forward.unreachable_goals() : m_backward.unreachable_goals();
    }
    [[nodiscard]] std::span<const Comparison> unreachable_goal_comparisons() const noexcept {
        return m_forward.unreachable_goal_comparisons();
    }
    /// Expansions each direction made in the last plan().
    [[nodiscard]] std::uint64_t forward_expanded() const noexcept { return m_forward_expanded; }
    [[nodiscard]] std::uint64_t backward_expanded() const noexcept { return m_backward_expanded; }

private:
    Planner m_forward;
    Planner m_backward;
    Direction m_direction = Direction::Backward;
    std::uint64_t m_forward_expanded = 0;
    std::uint64_t m_backward_expanded = 0;
};

}  // namespace gameplan::goap
