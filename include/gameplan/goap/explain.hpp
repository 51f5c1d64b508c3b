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
/// Numeric and enumerated variables join the relaxation as *intervals*: each integer variable's reachable
/// values are kept as a range [lo, hi] that starts at its start value and grows with the effects of the
/// actions the relaxation applies (`=v` adds v; `+=k` raises hi to k above the largest value the action
/// accepts, `-=k` lowers lo likewise; clamped to the variable's bounds, so that an action whose effect
/// would leave them is applied only from values where it stays inside). An enumeration keeps the set of
/// its reached values. A comparison holds in the relaxation iff some value of the range (or set)
/// satisfies it, and an action applies iff its literals are reached and, per variable it compares or
/// changes, some reached value satisfies all of its comparisons on that variable (and keeps its effect
/// in bounds). The ranges over-approximate what plans reach, so a comparison the relaxation never
/// satisfies is truly unreachable. Then
///
/// - `unreachable_comparisons`: the goal comparisons the relaxation never satisfies;
/// - `numeric`: one `NumericBlock` per comparison that blocks the goal, the unreachable goal comparisons
///   first, then those that block the actions that could help (their changers' unsatisfiable
///   preconditions), in the order found. A block names the variable's reachable range and the actions
///   with an effect that would satisfy the comparison, with what stops each (literals never reached,
///   comparisons never satisfiable, and the action's own comparisons on the variable that cap it). A
///   block with no enabled changer is a numeric root cause: no action can move the variable there.
///   Literals the changers wait for join the literal analysis above (root causes, cycles), and disabled
///   changers are listed in `disabled`.
///
/// `explain_plan` walks a found plan and says for each step which state it leaves and why it is there:
/// the later steps whose preconditions its effects provide, and the goal literals it sets last.
///
/// Complexity: O(total literals of the domain + atoms) per call without variables; with variables the
/// relaxation repeats a pass over the actions until nothing grows, O((atoms + effects) x domain size)
/// at worst; plus the states of the plan's steps.
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

/// An action that could move a variable to where a comparison needs it, and what stops it.
struct BlockedChanger {
    ActionId action;                   ///< the action (enabled)
    std::vector<Literal> missing;      ///< its precondition literals the relaxation never reaches
    std::vector<Comparison> unsatisfiable;  ///< its precondition comparisons the relaxation never satisfies
    std::vector<Comparison> limits;    ///< its comparisons on the variable itself, which cap what it reaches
};

/// A comparison the relaxation never satisfies, and why. See the file overview.
struct NumericBlock {
    Comparison condition;                  ///< the comparison
    std::int32_t reachable_min = 0;        ///< the smallest value (an enumeration: value index) the relaxation reaches
    std::int32_t reachable_max = 0;        ///< the largest one
    std::vector<std::int32_t> reachable_values;  ///< an enumeration: the value indices reached (empty for an integer)
    std::vector<BlockedChanger> changers;  ///< enabled actions whose effect on the variable would satisfy it
    std::vector<ActionId> disabled;        ///< disabled actions whose effect would satisfy it
    /// True when no enabled action can move the variable there: a numeric root cause.
    [[nodiscard]] bool root_cause() const noexcept { return changers.empty(); }
};

/// Why a goal has no plan. See the file overview.
struct NoPlanAnalysis {
    std::vector<Literal> unreachable;           ///< goal literals the relaxation never reaches, by atom id
    std::vector<Literal> root_causes;           ///< unreached literals nothing enabled sets, by atom id
    std::vector<std::vector<Literal>> cycles;   ///< groups of literals that only each other could set
    std::vector<ActionId> disabled;             ///< disabled actions that set a literal (or change a variable) the goal depends on
    std::vector<Comparison> unreachable_comparisons;  ///< goal comparisons the relaxation never satisfies, in goal order
    std::vector<NumericBlock> numeric;          ///< the comparisons that block the goal (goal's first), with their causes
};

/// Analyses the query (start, goal) on `domain`; `enabled` is an optional mask, one byte per action
/// (0 = switched off), as in `PlanOptions::enabled`. Precondition: start and goal have the domain's
/// atom count and `enabled` is empty or has one entry per action.
[[nodiscard]] NoPlanAnalysis analyze_no_plan(const Domain& domain, const WorldState& start, const Condition& goal,
                                             std::span<const std::uint8_t> enabled = {});

/// The literals the relaxation reaches from `start` (delete effects ignored, only enabled actions),
/// as a table indexed by `literal_index`. With variables, an action applies only where its comparisons
/// can hold in the relaxation (see the file overview).
[[nodiscard]] std::vector<bool> relaxed_reachable(const Domain& domain, const WorldState& start,
                                                  std::span<const std::uint8_t> enabled = {});

/// The relaxed reachable values of each variable (see the file overview): by variable id, the smallest
/// and largest value reached. An enumeration's range spans its reached value indices.
struct RelaxedRange {
    std::int32_t min = 0;
    std::int32_t max = 0;
};
[[nodiscard]] std::vector<RelaxedRange> relaxed_ranges(const Domain& domain, const WorldState& start,
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
