// The planner's brakes and its guard against cost overflow: a memory budget and a deadline stop
// searches that would grow without end, and costs whose sums could overflow are refused rather than
// turned into a wrong "no plan".
#include <gameplan/goap/planner.hpp>

#include <chrono>
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::goap;

namespace {

// n independent sub-goals, each set by its own action: 2^n sub-goal states, and the optimal plan is
// any order of the n actions, so best-first search explores exponentially many ties.
struct Independent {
    Domain domain;
    WorldState start;
    Condition goal;
    explicit Independent(int n) {
        DomainBuilder b;
        for (int i = 0; i < n; ++i) {
            // Appended, not "g" + to_string(i): GCC 12 warns falsely (-Wrestrict) on the latter.
            std::string atom = "g", action = "set";
            atom += std::to_string(i);
            action += std::to_string(i);
            b.add_atom(atom);
            EXPECT_EQ(b.add_action(action, 1.0, {}, {{atom, true}}), DomainError::None);
        }
        domain = b.build();
        start = WorldState(domain.atom_count());
        goal = domain.make_condition();
        for (int i = 0; i < n; ++i) goal.set(AtomId(static_cast<std::uint32_t>(i)), true);
    }
};

}  // namespace

// 40 independent goals (2^40 states): every direction and representation stops at the memory budget,
// having grown no further, and says it was the memory.
TEST(PlannerLimits, MemoryBudgetStopsExponentialSearch) {
    const Independent p(40);
    for (const Direction dir : {Direction::Forward, Direction::Backward})
        for (const bool generic : {false, true}) {
            Planner planner(p.domain);
            PlanOptions o;
            o.direction = dir;
            o.force_generic_representation = generic;
            o.budget.max_memory_bytes = std::size_t{4} << 20;
            const PlanResult r = planner.plan(p.start, p.goal, o);
            EXPECT_EQ(r.status, Status::BudgetExhausted) << to_string(dir) << generic;
            EXPECT_EQ(r.limit, search::BudgetLimit::Memory) << to_string(dir) << generic;
            EXPECT_EQ(planner.budget_limit(), search::BudgetLimit::Memory);
            EXPECT_EQ(planner.status(), Status::BudgetExhausted);
            EXPECT_EQ(planner.stats().expanded, r.stats.expanded);
            EXPECT_GT(r.stats.expanded, 100u);
            EXPECT_LE(planner.memory_bytes(), o.budget.max_memory_bytes) << to_string(dir) << generic;
            EXPECT_GT(planner.memory_bytes(), o.budget.max_memory_bytes / 4) << to_string(dir) << generic;
            // Within budget the same planner still finds plans (8 goals: 256 states).
            const Independent small(8);
            Planner planner2(small.domain);
            const PlanResult ok = planner2.plan(small.start, small.goal, o);
            EXPECT_EQ(ok.status, Status::Found);
            EXPECT_EQ(ok.cost, 8.0);
            EXPECT_EQ(ok.limit, search::BudgetLimit::None);
        }
}

// A domain with variables searches its own way (numeric_planner) and honours the same budget: three
// counters to raise from 0 to 1,000 one step at a time, a billion states below the goal, nearly all
// of them under the optimal cost. The search stops at the memory budget (not at the expansion cap set
// as a backstop) holding no more than it, and the same planner then plans a small goal.
TEST(PlannerLimits, MemoryBudgetStopsSearchWithVariables) {
    DomainBuilder b;
    std::vector<VarId> vars;
    for (const char* name : {"x", "y", "z"}) {
        const VarId v = b.add_integer_variable(name, 0, 1000);
        vars.push_back(v);
        const NumericEffect inc[] = {{v, EffectOp::Add, 1}};
        std::string action = "inc_";
        action += name;
        ASSERT_EQ(b.add_action(action, 1, {}, {}, {}, inc), DomainError::None);
    }
    const Domain d = b.build();
    Condition far = d.make_condition();
    for (const VarId v : vars) far.require(Comparison{v, CompareOp::Eq, 1000});
    Planner planner(d);
    PlanOptions o;
    o.budget.max_memory_bytes = std::size_t{4} << 20;
    o.budget.max_expansions = 5'000'000;
    const PlanResult r = planner.plan(d.make_state(), far, o);
    EXPECT_EQ(r.status, Status::BudgetExhausted);
    EXPECT_EQ(r.limit, search::BudgetLimit::Memory);
    EXPECT_EQ(planner.budget_limit(), search::BudgetLimit::Memory);
    EXPECT_GT(r.stats.expanded, 1000u);
    EXPECT_LE(planner.memory_bytes(), o.budget.max_memory_bytes);
    EXPECT_GT(planner.memory_bytes(), o.budget.max_memory_bytes / 4);

    Condition near = d.make_condition();
    near.require(Comparison{vars[0], CompareOp::Ge, 3});
    near.require(Comparison{vars[1], CompareOp::Ge, 2});
    const PlanResult ok = planner.plan(d.make_state(), near, o);
    EXPECT_EQ(ok.status, Status::Found);
    EXPECT_EQ(ok.cost, 5.0);
    EXPECT_EQ(ok.limit, search::BudgetLimit::None);
    EXPECT_EQ(planner.budget_limit(), search::BudgetLimit::None);

    // The expansion limit is named as well.
    o.budget.max_memory_bytes = SIZE_MAX;
    o.budget.max_expansions = 50;
    const PlanResult capped = planner.plan(d.make_state(), far, o);
    EXPECT_EQ(capped.status, Status::BudgetExhausted);
    EXPECT_EQ(capped.limit, search::BudgetLimit::Expansions);
    EXPECT_EQ(capped.stats.expanded, 50u);
}

TEST(PlannerLimits, DeadlineStopsExponentialSearch) {
    const Independent p(40);
    for (const Direction dir : {Direction::Forward, Direction::Backward}) {
        Planner planner(p.domain);
        PlanOptions o;
        o.direction = dir;
        o.budget.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
        const PlanResult r = planner.plan(p.start, p.goal, o);
        EXPECT_EQ(r.status, Status::BudgetExhausted);
        EXPECT_EQ(r.limit, search::BudgetLimit::Time);
    }
}

// Two steps of cost 1e290 each: the largest accepted cost; the plan is found with its exact finite
// cost. One step above kMaxActionCost is refused (InvalidQuery), never reported as "no plan".
TEST(PlannerLimits, HugeCostsNeverOverflow) {
    for (const double c : {kMaxActionCost, 1e300, 1.7976931348623157e308}) {
        DomainBuilder b;
        ASSERT_EQ(b.add_action("x", c, {}, {{"a", true}}), DomainError::None);
        ASSERT_EQ(b.add_action("y", c, {{"a", true}}, {{"b", true}}), DomainError::None);
        const Domain d = b.build();
        Condition goal = d.make_condition();
        goal.set(d.find_atom("b"), true);
        for (const Direction dir : {Direction::Forward, Direction::Backward}) {
            Planner planner(d);
            PlanOptions o;
            o.direction = dir;
            const PlanResult r = planner.plan(WorldState(d.atom_count()), goal, o);
            if (c <= kMaxActionCost) {
                ASSERT_EQ(r.status, Status::Found);
                EXPECT_EQ(r.plan.size(), 2u);
                EXPECT_EQ(r.cost, c + c);
                EXPECT_TRUE(std::isfinite(r.cost));
            } else {
                EXPECT_EQ(r.status, Status::InvalidQuery) << c;
            }
            // Per-call costs are checked the same way.
            const double over[] = {1.0, 2 * kMaxActionCost};
            o.costs = over;
            EXPECT_EQ(planner.plan(WorldState(d.atom_count()), goal, o).status, Status::InvalidQuery);
        }
    }
}
