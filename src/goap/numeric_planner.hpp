#pragma once
// The numeric engine behind goap::Planner for domains with integer or enumerated variables.
//
// Queries of such domains are planned forward (progression) with the generic engine
// (search::SearchContext) over states interned by the StateRegistry. A state is the relevant atoms'
// bits (the domain's atom words, masked) followed by one word per variable (irrelevant variables are
// held at 0). The heuristic is h_max over a *value* relaxation: every (variable, value) pair is a fact,
// like an atom; an effect `x = c` achieves (x, c) and an effect `x += d` achieves (x, u + d) from every
// reached (x, u) it keeps within bounds, at the action's cost plus the larger of its preconditions'
// cost and (x, u)'s. A comparison is reached with its cheapest satisfying value. That is h_max of a
// STRIPS relaxation of the domain (delete effects ignored, an action's effects on different variables
// treated separately), hence admissible and consistent, and it counts steps: reaching wood >= 40 in
// steps of 5 costs eight chops. Variables with more than kMaxExactRange values are relaxed completely
// (comparisons on them are free and effects on them ignored), which stays admissible.
//
// Relevance: the goal's atoms and variables are relevant; an enabled action is relevant if it changes
// a relevant atom or variable; its precondition atoms and variables, and the variables its `+`/`-`
// effects change (their bounds decide whether it applies), become relevant. Deleting the other
// actions from a plan leaves the relevant part of every state unchanged, so it stays valid and no
// more expensive. Irrelevant atoms and variables are projected out of the search states.

#include <gameplan/goap/domain.hpp>
#include <gameplan/goap/planner.hpp>
#include <gameplan/search/search_context.hpp>

#include "plan_cost.hpp"
#include "state_registry.hpp"

#include <cstdint>
#include <vector>

namespace gameplan::goap::detail {

struct NumericPlanner {
    static constexpr std::int64_t kMaxExactRange = 4096;

    explicit NumericPlanner(const Domain& d);

    const Domain* domain;
    std::size_t atoms = 0, vars = 0, actions = 0, words = 1;

    // Relevance.
    std::vector<std::uint8_t> atom_relevant, var_relevant, action_relevant;
    std::vector<std::uint64_t> atom_mask;  // relevant atoms, `words` words

    // Search actions (relevant, enabled), in declaration order.
    struct SearchAction {
        std::uint32_t id;
        double cost;
        std::uint32_t cmp_begin, cmp_end;  // into cmps
        std::uint32_t eff_begin, eff_end;  // into effs (relevant variables only)
    };
    std::vector<SearchAction> search_actions;
    std::vector<std::uint64_t> action_words;  // per search action [pre_care | pre_values | eff_care | eff_values]
    std::vector<Comparison> cmps;
    std::vector<NumericEffect> effs;

    // Goal.
    std::vector<std::uint64_t> goal_care, goal_values;
    std::vector<Comparison> goal_cmps;
    std::vector<Literal> goal_literals;

    // h_max over facts: atom literal facts 2 * atom + value in [0, 2 * atoms); value facts of exact
    // variables from value_base[x] + (v - min).
    std::vector<std::uint32_t> value_base;  // per variable; UINT32_MAX = relaxed completely
    std::vector<std::uint32_t> fact_var;    // per value fact - 2 * atoms: its variable
    std::size_t fact_count = 0;
    std::vector<double> fact_cost;
    std::vector<std::uint8_t> fact_settled;
    struct Unit {  // a comparison to reach: of a search action (owner < count) or of the goal (kGoal)
        Comparison cmp;
        std::uint32_t owner;
    };
    static constexpr std::uint32_t kGoal = UINT32_MAX;
    std::vector<Unit> units;
    std::vector<std::uint32_t> units_of_var_offset, units_of_var;  // CSR by variable
    std::vector<std::uint8_t> unit_done;
    std::vector<std::uint32_t> consumer_offset, consumer_list;  // search actions, CSR by literal fact
    std::vector<std::uint8_t> goal_literal_fact;                // per literal fact
    std::vector<std::uint32_t> pre_count, remaining;            // per search action
    std::vector<double> fired_at;                               // per search action
    struct RelEffect {
        std::uint32_t action;
        std::int32_t delta;
    };
    std::vector<std::uint32_t> rel_offset;  // CSR by variable of relative effects
    std::vector<RelEffect> rel_list;
    std::vector<std::uint32_t> settled_values;  // per exact variable, the settled values (CSR by value_base)
    std::vector<std::uint32_t> settled_count;   // per variable
    std::size_t goal_units = 0;
    struct HeapEntry {
        double cost;
        std::uint32_t fact;
    };
    std::vector<HeapEntry> heap;
    std::vector<std::uint32_t> scratch_u32;

    // Search.
    StateRegistry registry;
    search::SearchContext<PlanCost> context;
    std::vector<std::uint64_t> scratch;  // 2 * width
    std::size_t width = 1;

    // Result.
    Status status = Status::InvalidQuery;
    search::BudgetLimit limit = search::BudgetLimit::None;
    search::SearchStats stats;
    double cost = 0;
    std::vector<ActionId> plan;
    std::vector<Literal> unreachable;
    std::vector<Comparison> unreachable_cmps;

    Status begin(const WorldState& start, const Condition& goal, const PlanOptions& options);
    Status step(std::uint64_t slice);
    void reserve(std::size_t states);

    // Helpers.
    void compile(const Condition& goal, const PlanOptions& options);
    double h_max(const std::uint64_t* state, bool stop_at_goal);
    [[nodiscard]] bool is_goal(const std::uint64_t* state) const noexcept;
};

}  // namespace gameplan::goap::detail
