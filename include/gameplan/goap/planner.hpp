#pragma once
/// @file planner.hpp
/// The GOAP planner: cost-optimal A* over world states, forward or backward, allocation-free when reused.
///
/// Overview
/// --------
/// `Planner` finds the cheapest action sequence that takes a start `WorldState` to a state satisfying a
/// goal `Condition`, proves that none exists, or reports that its budget ran out. One planner object is
/// created per thread (or per agent batch) for one `Domain` and reused for every query.
///
/// Each planning call runs in two phases:
///
/// 1. *Compile the query* (O(size of the relevant part of the domain), no allocation after warm-up).
///    Per-call inputs are applied first: an optional enable mask (one byte per action; procedural
///    preconditions such as "is there a tree within reach?") and optional cost overrides
///    (dynamic costs such as a walking distance), both evaluated once by the caller per call. Then a
///    *relevance analysis* walks back from the goal: a literal is relevant if the goal needs it or a
///    relevant action needs it, an action is relevant if it is enabled and sets a relevant literal.
///    Other actions can never be part of an optimal plan (removing them from any plan leaves a valid
///    plan that is no more expensive), and atoms that no relevant literal mentions are projected away.
///    The relevant atoms are renumbered densely, so a 1,000-atom domain whose goal touches 40 atoms
///    is searched with one 64-bit word per state. Finally h_max is computed from the start over the
///    relevant part: goal literals it cannot reach are reported (`unreachable_goals()`), and actions
///    with an unreachable precondition are dropped. The goal-dependent part of this (relevance,
///    compaction, action tables) is reused by the next query if goal, mask and costs are unchanged;
///    on one-word queries the start-dependent part is reused too when the start's projection onto
///    the relevant atoms also repeats (an exact memo).
/// 2. *Search*. When the relevant atoms fit in one 64-bit word, a specialised engine for one-word
///    states (node records holding their keys, a small scanned open list that moves into
///    `search::IndexedHeap` when it grows); otherwise `gameplan::search::SearchContext` with states
///    interned by a registry (hash table over fixed-width bit states in flat storage, dense ids,
///    generation-stamped so a new query resets in O(1)). Both follow the same rules and return
///    identical results (plan, cost, statistics).
///    - Forward: states are complete assignments of the relevant atoms; h = h_max from the state
///      (a relaxed-reachability Dijkstra over the relevant literals, stopped once the goal is reached).
///    - Backward (regression, as in classic GOAP): states are sub-goals (care + values); an action
///      regresses a sub-goal if it sets one of its literals and contradicts none; the search ends at a
///      sub-goal the start satisfies; h = max over the sub-goal's literals of their h_max from the start
///      (computed once in phase 1, so a node costs O(words)).
///    Both heuristics are admissible and consistent, so both directions return optimal plans.
///
/// Cost and ties: the search minimises the pair (total cost, number of actions) lexicographically, so
/// among equal-cost plans the one with fewer actions wins. Among plans equal in both, the result is
/// the first one the search reaches: successors are generated in action declaration order, and the
/// open list breaks f ties by smaller h, then most recently generated (the engine's rule). That order
/// depends only on the domain, the query and the direction, so the same call always returns the same
/// plan, on every run and thread. Costs are doubles: for costs whose sums are exact (integers, binary
/// fractions) optimality is exact; otherwise it holds up to floating-point rounding.
///
/// Resumable: `begin()` then `step(budget)` until it returns a final status gives exactly the plan a
/// single `plan()` call gives (the search pauses between slices, it never restarts).
///
/// Memory: all per-query storage (registry, search arrays, heuristic tables, plan) is owned by the
/// planner and only grows; after a warm-up query of the same or larger size a call allocates nothing.
/// Thread-safety: a planner is used by one thread at a time. Many planners may share one const
/// `Domain` on many threads; the domain must outlive its planners.

#include <gameplan/goap/domain.hpp>
#include <gameplan/goap/world_state.hpp>
#include <gameplan/search/search_context.hpp>
#include <gameplan/status.hpp>

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>

namespace gameplan::goap {

namespace detail {
struct PlannerImpl;
}

/// Search direction.
enum class Direction : std::uint8_t {
    Forward,   ///< progression from the start state; h = h_max per state
    Backward,  ///< regression from the goal over sub-goals; h = h_max from the start, computed once
    BySize,    ///< chosen per query by the domain's size (see kSizeThresholdAtoms): backward for game
               ///< domains, forward for large ones where LM-cut is chosen; Planner::direction() tells which ran
};

/// The direction of game domains, and of agents when a caller does not choose: backward. Measured on
/// every shared game benchmark domain it expands about as many nodes as forward search but each node
/// is several times cheaper (its heuristic is a table lookup, not a relaxed-planning pass); see
/// docs/benchmarks.md.
inline constexpr Direction kDefaultDirection = Direction::Backward;

/// The size rule of Direction::BySize and Heuristic::BySize, the defaults of PlanOptions. A query whose
/// relevant atoms (those the goal depends on) number at most this many plans backward with h_max: the
/// game-domain choice, measured fastest on every shared game domain. A larger query compares LM-cut
/// with h_max at the start state: where LM-cut sees more (goals made of several independent parts), it
/// plans forward with LM-cut (deferred evaluation and stubborn sets; see Pruning), the choice measured
/// on classical planning tasks and large random layered domains; where it does not (one long chain,
/// like a ladder), backward with h_max. Measurements in docs/benchmarks.md. The threshold is also where
/// states stop fitting one 64-bit word.
inline constexpr std::size_t kSizeThresholdAtoms = 64;

/// Heuristic of the search. All are admissible, so every choice returns optimal plans; they differ in
/// how many states the search expands and what each costs.
enum class Heuristic : std::uint8_t {
    HMax,   ///< h_max: the costliest single goal literal in the delete relaxation. Cheapest per state;
            ///< the right choice for game domains (tens of atoms and actions).
    LmCut,  ///< LM-cut (Helmert and Domshlak 2009): sums the costs of disjunctive action landmarks
            ///< found by repeated h_max passes. At least h_max everywhere and often far larger (it sees
            ///< every independent subgoal), at several h_max passes per state: the choice for classical
            ///< planning tasks (PDDL) and large domains. Forward: from each state to the goal; backward:
            ///< from the start to each sub-goal.
    Blind,  ///< 0 everywhere (uniform-cost search); a baseline.
    BySize, ///< h_max up to kSizeThresholdAtoms relevant atoms; above, LM-cut where it exceeds h_max at
            ///< the start (Planner::heuristic() tells which ran)
};

/// Pruning of successors in forward search. Every choice returns optimal plans (possibly a different
/// one among equally cheap plans); they differ in how many successors each expansion generates.
enum class Pruning : std::uint8_t {
    Auto,          ///< stubborn sets in forward search on domains of more than 64 relevant atoms (where a
                   ///< heuristic evaluation costs far more than the pruning), none otherwise
    None,          ///< every applicable action is a successor
    StubbornSets,  ///< strong stubborn sets (Wehrle and Helmert 2014) in forward search: per state, only
                   ///< the applicable actions of a set closed under interference and necessary enabling
                   ///< sets, which keeps at least one optimal plan; backward search is not pruned
};

/// "auto" / "none" / "stubborn".
[[nodiscard]] constexpr std::string_view to_string(Pruning pruning) noexcept {
    return pruning == Pruning::Auto ? "auto" : pruning == Pruning::None ? "none" : "stubborn";
}

/// "hmax" / "lmcut" / "blind" / "by-size".
[[nodiscard]] constexpr std::string_view to_string(Heuristic heuristic) noexcept {
    return heuristic == Heuristic::HMax    ? "hmax"
           : heuristic == Heuristic::LmCut ? "lmcut"
           : heuristic == Heuristic::Blind ? "blind"
                                           : "by-size";
}

/// "forward" / "backward" / "by-size".
[[nodiscard]] constexpr std::string_view to_string(Direction direction) noexcept {
    return direction == Direction::Forward ? "forward" : direction == Direction::Backward ? "backward" : "by-size";
}

/// The largest action cost the planner accepts (domain costs and PlanOptions::costs). A plan holds
/// fewer than 2^32 actions, so with every cost at most this value no plan cost, heuristic value or
/// sum of the two can overflow a double; a query with a larger relevant cost is refused
/// (`Status::InvalidQuery`) instead of computing infinite costs and a wrong answer.
inline constexpr double kMaxActionCost = 1e290;

/// Per-call inputs of a planning query besides start and goal. All fields are optional.
struct PlanOptions {
    /// Search direction; all are optimal. Default: by the query's size (see kSizeThresholdAtoms).
    Direction direction = Direction::BySize;
    /// Heuristic (domains without variables; domains with variables always use h_max). Default: by the
    /// query's size (see kSizeThresholdAtoms).
    Heuristic heuristic = Heuristic::BySize;
    /// Successor pruning of forward search (see Pruning).
    Pruning pruning = Pruning::Auto;
    /// Limits of the whole query, as for every search of the library (search::Budget): node expansions
    /// over all slices, a wall-clock deadline, and the memory of the search (the interned states, the
    /// node records and the open list; storage kept from earlier, larger queries counts). Running out
    /// of one ends the query with BudgetExhausted; `PlanResult::limit` and `Planner::budget_limit()`
    /// say which. Default: unlimited.
    search::Budget budget{};
    /// Per-call enable mask, one byte per action (0 = disabled); empty = all enabled. Read during
    /// begin()/plan() only, so the caller may reuse the buffer afterwards.
    std::span<const std::uint8_t> enabled = {};
    /// Per-call action costs, one per action (finite, in [0, kMaxActionCost]); empty = the domain's costs. Read during
    /// begin()/plan() only.
    std::span<const double> costs = {};
    /// Benchmarking aid: use the any-width state representation even when the relevant atoms fit in
    /// one 64-bit word. Results are identical; only speed differs.
    bool force_generic_representation = false;
    /// Time the query (`PlanResult::micros`). Each timed begin(), step() or plan() reads the steady
    /// clock twice, which on some virtual machines costs more than planning a small domain (about
    /// 0.03-0.1 µs per read where the clock is not served in user space); callers planning many small
    /// queries per frame may turn it off. Results are otherwise identical.
    bool measure_time = true;
};

/// Outcome of a planning query.
struct PlanResult {
    /// Found, NoPath (no plan exists: "no_plan"), BudgetExhausted, InvalidQuery (state/goal/options do
    /// not match the domain, or a relevant action costs more than kMaxActionCost), or InProgress
    /// (resumable search not finished).
    Status status = Status::InvalidQuery;
    /// Total cost of `plan` (0 unless Found).
    double cost = 0;
    /// The plan in execution order. Points into the planner; valid until its next begin()/plan().
    std::span<const ActionId> plan;
    /// Expanded / generated / reopened nodes of the search.
    search::SearchStats stats;
    /// Which limit of `PlanOptions::budget` ended the query: None unless status is BudgetExhausted,
    /// then Expansions, Time or Memory (as `budget_limit()` of every search).
    search::BudgetLimit limit = search::BudgetLimit::None;
    /// Wall-clock time spent in begin() and step() for this query, in microseconds; 0 when
    /// PlanOptions::measure_time is false.
    double micros = 0;
};

/// Reusable GOAP planner for one domain. See the file overview.
class Planner {
public:
    /// A planner for `domain`, which must outlive it. Allocates its per-domain tables.
    explicit Planner(const Domain& domain);
    /// Releases the planner's storage.
    ~Planner();
    /// Movable (the moved-from planner may only be destroyed or assigned to); not copyable.
    Planner(Planner&&) noexcept;
    /// Move assignment; see the move constructor.
    Planner& operator=(Planner&&) noexcept;
    Planner(const Planner&) = delete;
    Planner& operator=(const Planner&) = delete;

    /// The planner's domain.
    [[nodiscard]] const Domain& domain() const noexcept;

    /// Plans from `start` to any state satisfying `goal`: begin() + step() until final + result().
    /// Returns Found with an optimal plan, NoPath, BudgetExhausted or InvalidQuery. No allocation after
    /// warm-up.
    [[nodiscard]] PlanResult plan(const WorldState& start, const Condition& goal, const PlanOptions& options = {});

    /// Starts a resumable query (start, goal and options are copied; they need not outlive the call).
    /// Returns InProgress, or a final status when the query is decided up front: InvalidQuery, NoPath
    /// (a goal literal is unreachable even in the relaxation; see unreachable_goals()).
    [[nodiscard]] Status begin(const WorldState& start, const Condition& goal, const PlanOptions& options = {});
    /// Continues the current query for at most `max_expansions` expansions. Returns InProgress if the
    /// slice ran out, otherwise the final status (repeated on later calls).
    [[nodiscard]] Status step(std::uint64_t max_expansions = UINT64_MAX);
    /// The current query's result (plan and cost once Found; statistics so far otherwise).
    [[nodiscard]] PlanResult result() const noexcept;
    /// Status of the current query (InProgress until it is decided; InvalidQuery before the first).
    [[nodiscard]] Status status() const noexcept;
    /// Expanded / generated / reopened nodes of the current query so far.
    [[nodiscard]] search::SearchStats stats() const noexcept;
    /// Which limit of the budget ended the current query: None unless status() is BudgetExhausted.
    [[nodiscard]] search::BudgetLimit budget_limit() const noexcept;
    /// Bytes of search storage the planner holds (state registry, node records, open list): what
    /// `Budget::max_memory_bytes` caps. Only grows; not the per-domain tables.
    [[nodiscard]] std::size_t memory_bytes() const noexcept;

    /// Failure explanation of the current query: the goal literals that cannot be reached even when
    /// delete effects are ignored, using only enabled actions (no relevant action can ever set them from
    /// this start). Empty when every goal literal is reachable on its own; a NoPath with an empty list
    /// means the goal literals interfere (reaching one undoes another). Valid until the next begin().
    [[nodiscard]] std::span<const Literal> unreachable_goals() const noexcept;
    /// The same for the goal's comparisons on variables (domains with variables only): comparisons no
    /// value reachable in the relaxation satisfies. Valid until the next begin().
    [[nodiscard]] std::span<const Comparison> unreachable_goal_comparisons() const noexcept;

    /// The heuristic value `options.heuristic` gives `state` for reaching `goal` (an admissible lower
    /// bound on the cost of a plan; infinity when the goal is unreachable even in the relaxation), as
    /// the forward search would compute it. Ends the current query. For tests and tools; allocation-free
    /// after warm-up like plan(). Returns NaN when the query is invalid; domains with variables: NaN.
    [[nodiscard]] double estimate(const WorldState& state, const Condition& goal, const PlanOptions& options = {});

    /// Number of actions that survived relevance and reachability pruning in the current query.
    [[nodiscard]] std::size_t relevant_action_count() const noexcept;
    /// Number of atoms the current query searches over after projection.
    [[nodiscard]] std::size_t relevant_atom_count() const noexcept;
    /// The direction the current query searches in (BySize resolved; domains with variables: forward).
    [[nodiscard]] Direction direction() const noexcept;
    /// The heuristic the current query uses (BySize resolved; domains with variables: h_max).
    [[nodiscard]] Heuristic heuristic() const noexcept;

    /// Pre-sizes the state registry and search arrays for `states` states so that even the first
    /// query up to that size allocates nothing.
    void reserve(std::size_t states);

private:
    std::unique_ptr<detail::PlannerImpl> m_impl;
};

}  // namespace gameplan::goap
