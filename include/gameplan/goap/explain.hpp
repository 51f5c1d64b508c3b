#pragma once
/// @file explain.hpp
/// "Why no plan?" and "why this plan?": analyses of a GOAP query for designers.
///
/// Overview
/// --------
/// `analyze_no_plan` explains a goal that cannot be reached, using *relaxed reachability* (delete
/// effects ignored): starting from the literals the start state makes true, every enabled action whose
/// preconditions are all reached adds its effect literals, until nothing changes. Then
///
/// - `unreachable`: the goal literals the relaxation never reaches (no plan can reach them either);
/// - `root_causes`: literals, not true at the start, that no enabled action sets, on which an
///   unreachable goal literal depends directly or through its achievers' unreached preconditions. No
///   enabled action sets a root cause, by construction; fixing the domain means making one reachable;
/// - `cycles`: groups of unreached literals that wait for each other: each member's achievers are
///   blocked by a member of the group (the strongly connected components, of two or more literals or
///   one that needs itself, of the relation "l waits for p": p is an unreached precondition of an
///   enabled action that sets l). Nothing outside the group can start it;
/// - `disabled`: actions switched off by the caller's enable mask (a context check) that set a literal
///   the unreachable goal literals depend on.
///
/// When every goal literal is reachable on its own but no plan exists, the literals interfere (reaching
/// one undoes another) and all lists are empty.
///
/// `explain_plan` walks a found plan and says for each step which state it leaves and why it is there:
/// the later steps whose preconditions its effects provide, and the goal literals it sets last.
///
/// Complexity: O(total literals of the domain + atoms) per call, plus the states of the plan's steps.
/// These functions allocate (they are designer tools, not per-frame paths). Thread-safety: reentrant;
/// the domain is only read.

#include <gameplan/goap/domain.hpp>
#include <gameplan/goap/world_state.hpp>
#include <gameplan/status.hpp>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace gameplan::goap {

/// Why a goal has no plan. See the file overview.
struct NoPlanAnalysis {
    std::vector<Literal> unreachable;           ///< goal literals the relaxation never reaches, by atom id
    std::vector<Literal> root_causes;           ///< unreached literals nothing enabled sets, by atom id
    std::vector<std::vector<Literal>> cycles;   ///< groups of literals that only each other could set
    std::vector<ActionId> disabled;             ///< disabled actions that set a literal the goal depends on
};

/// Analyses the query (start, goal) on `domain`; `enabled` is an optional mask, one byte per action
/// (0 = switched off), as in `PlanOptions::enabled`. Precondition: start and goal have the domain's
/// atom count and `enabled` is empty or has one entry per action.
[[nodiscard]] NoPlanAnalysis analyze_no_plan(const Domain& domain, const WorldState& start, const Condition& goal,
                                             std::span<const std::uint8_t> enabled = {});

/// The literals the relaxation reaches from `start` (delete effects ignored, only enabled actions),
/// as a table indexed by `literal_index`.
[[nodiscard]] std::vector<bool> relaxed_reachable(const Domain& domain, const WorldState& start,
                                                  std::span<const std::uint8_t> enabled = {});

/// Why one step of a plan is there.
struct PlanStepReason {
    std::uint32_t step = 0;         ///< index of a later step that needs `literal`, or the plan length for the goal
    Literal literal;                ///< the literal this step provides
};

/// One step of an explained plan.
struct PlanStep {
    ActionId action;                       ///< the action
    WorldState state;                      ///< the state after this step
    std::vector<Literal> changes;          ///< the literals this step changed (by atom id)
    std::vector<PlanStepReason> reasons;   ///< who uses what it changed (empty: nothing does)
};

/// Replays `plan` from `start` and explains each step. A step's reasons are the literals it changed
/// that a later step requires before anything changes them again (step = that step's index), and the
/// goal literals it sets that hold from then on (step = plan.size()). Precondition: the plan is
/// applicable from `start` (a planner's result is).
[[nodiscard]] std::vector<PlanStep> explain_plan(const Domain& domain, const WorldState& start, const Condition& goal,
                                                 std::span<const ActionId> plan);

/// One state of a traced search.
struct TraceNode {
    WorldState state;                 ///< the state
    double g = 0;                     ///< cost from the start
    double h = 0;                     ///< h_max estimate to the goal
    std::uint32_t parent = UINT32_MAX;///< the node it was generated from (UINT32_MAX for the start)
    ActionId action;                  ///< the action from the parent
    std::uint32_t expanded = 0;       ///< 1-based expansion order; 0 = generated, never expanded
};

/// A recorded search: every generated state with g and h, the expansion order, and the plan's nodes.
struct SearchTrace {
    Status status = Status::NoPath;         ///< Found, NoPath, or BudgetExhausted
    double cost = 0;                        ///< plan cost when Found
    std::vector<TraceNode> nodes;           ///< node 0 is the start
    std::vector<std::uint32_t> plan_nodes;  ///< start ... goal node when Found
    std::uint64_t expanded = 0;             ///< expansions made
};

/// Runs a forward A* search with the planner's forward heuristic (h_max, admissible, so the cost is
/// optimal) and records it, for drawing (`gameplan plan --trace`). States are full assignments kept in
/// an ordered map: this is a readable reference search, much slower than `Planner`, and stops with
/// BudgetExhausted after `max_expansions`. Ties break on f, then smaller h, then the newer node.
[[nodiscard]] SearchTrace trace_search(const Domain& domain, const WorldState& start, const Condition& goal,
                                       std::uint64_t max_expansions, std::span<const std::uint8_t> enabled = {});

/// A literal in the CSV cell syntax: `atom` for true, `!atom` for false.
[[nodiscard]] std::string literal_text(const Domain& domain, Literal literal);

}  // namespace gameplan::goap
