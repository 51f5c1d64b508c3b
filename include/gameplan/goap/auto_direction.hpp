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
/// Budgets (`PlanOptions::budget`) apply to the pair: `max_expansions` to the sum of both searches'
/// expansions, the deadline to both, and `max_memory_bytes` is split in half between them. Domains
/// with variables are planned forward (their only direction), by the forward planner alone.
///
/// Resumable, like `Planner`: `begin()` then `step(n)` (at most n expansions of the pair per call)
/// until it returns a final status, then `result()`. The turn and the part of the current slice already
/// spent are kept between calls, so the interleaving resumes exactly where it stopped: for every n the
/// result (plan, cost, status, statistics, `direction()`) is the one `plan()` returns, and `plan()` is
/// begin() + step() until final + result().
///
/// Memory: two planners; after warm-up a query allocates nothing, as with `Planner`.
/// Thread-safety: one object per thread, like `Planner`.

#include <gameplan/goap/planner.hpp>

#include <cstddef>
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
    /// this object and stays valid until the next begin()/plan(). begin() + step() until final + result().
    [[nodiscard]] PlanResult plan(const WorldState& start, const Condition& goal, const PlanOptions& options = {});

    /// Starts a resumable query (`options.direction` is ignored; start, goal and options are copied).
    /// Returns InProgress, or a final status when the query is decided up front, as `Planner::begin`:
    /// InvalidQuery, or NoPath (a goal literal is unreachable even in the relaxation).
    [[nodiscard]] Status begin(const WorldState& start, const Condition& goal, const PlanOptions& options = {});
    /// Continues the current query for at most `max_expansions` expansions of both searches together,
    /// resuming the slice schedule where the last call stopped. Returns InProgress if they ran out,
    /// otherwise the final status (repeated on later calls).
    [[nodiscard]] Status step(std::uint64_t max_expansions = UINT64_MAX);
    /// The current query's result: the winner's plan and cost once Found, statistics summed over both
    /// searches (so far, while InProgress).
    [[nodiscard]] PlanResult result() const noexcept;

    /// Status of the current query (the pair's; InProgress until it is decided).
    [[nodiscard]] Status status() const noexcept { return m_status; }
    /// Statistics of the current query, summed over both searches (so far, while InProgress).
    [[nodiscard]] search::SearchStats stats() const noexcept;
    /// Which limit of the budget ended the current query: None unless status() is BudgetExhausted; the
    /// pair's expansions when they ran out, otherwise the limit that stopped the searches.
    [[nodiscard]] search::BudgetLimit budget_limit() const noexcept;
    /// Bytes of search storage both planners hold (what the halves of `Budget::max_memory_bytes` cap).
    [[nodiscard]] std::size_t memory_bytes() const noexcept { return m_forward.memory_bytes() + m_backward.memory_bytes(); }

    /// The direction whose answer the current query returned (for BudgetExhausted, and while
    /// InProgress: the one that searched last).
    [[nodiscard]] Direction direction() const noexcept { return m_direction; }
    /// The goal literals (and comparisons) unreachable even in the relaxation, as `Planner` reports
    /// them, for the current query. Valid until the next begin()/plan().
    [[nodiscard]] std::span<const Literal> unreachable_goals() const noexcept {
        return m_forward.domain().has_variables() ? m_forward.unreachable_goals() : m_backward.unreachable_goals();
    }
    [[nodiscard]] std::span<const Comparison> unreachable_goal_comparisons() const noexcept {
        return m_forward.unreachable_goal_comparisons();
    }
    /// Expansions each direction made in the current query (so far).
    [[nodiscard]] std::uint64_t forward_expanded() const noexcept { return m_forward_expanded; }
    [[nodiscard]] std::uint64_t backward_expanded() const noexcept { return m_backward_expanded; }

private:
    Planner m_forward;
    Planner m_backward;
    /// Which planners the current query runs: both in turn, or one alone (domains with variables, or
    /// a query decided by begin()).
    enum class Mode : std::uint8_t { Both, ForwardOnly, BackwardOnly };
    void next_turn() noexcept;

    Mode m_mode = Mode::Both;
    Status m_status = Status::InvalidQuery;  // Both: the pair's status
    Direction m_direction = Direction::Backward;
    bool m_backward_turn = true;
    bool m_forward_alive = true;
    bool m_backward_alive = true;
    std::uint64_t m_forward_expanded = 0;
    std::uint64_t m_backward_expanded = 0;
    std::uint64_t m_budget = UINT64_MAX;   // the pair's max_expansions
    std::uint64_t m_used = 0;              // expansions of both searches so far
    std::uint64_t m_forward_slice = kBackwardSlice;
    std::uint64_t m_slice_left = 0;        // expansions left in the current turn's slice
};

}  // namespace gameplan::goap
