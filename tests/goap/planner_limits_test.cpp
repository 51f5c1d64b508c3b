// The planner's brakes and its guard against cost overflow: a memory budget and a deadline stop
// searches that would grow without end, and costs whose sums could overflow are refused rather than
// turned into a wrong "no plan".
#include <gameplan/goap/planner.hpp>

#include <chrono>
#include <cmath>
#include <string>

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
            o.max_memory_bytes = std::size_t{4} << 20;
            const PlanResult r = planner.plan(p.start, p.goal, o);
            EXPECT_EQ(r.status, Status::BudgetExhausted) << to_string(dir) << generic;
            EXPECT_EQ(r.exhausted, search::BudgetLimit::Memory) << to_string(dir) << generic;
            EXPECT_GT(r.stats.expanded, 100u);
            // Within budget the same planner still finds plans (8 goals: 256 states).
            const Independent small(8);
            Planner planner2(small.domain);
            const PlanResult ok = planner2.plan(small.start, small.goal, o);
            EXPECT_EQ(ok.status, Status::Found);
            EXPECT_EQ(ok.cost, 8.0);
            EXPECT_EQ(ok.exhausted, search::BudgetLimit::None);
        }
}

TEST(PlannerLimits, DeadlineStopsExponentialSearch) {
    const Independent p(40);
    for (const Direction dir : {Direction::Forward, Direction::Backward}) {
        Planner planner(p.domain);
        PlanOptions o;
        o.direction = dir;
        o.deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
        const PlanResult r = planner.plan(p.start, p.goal, o);
        EXPECT_EQ(r.status, Status::BudgetExhausted);
        EXPECT_EQ(r.exhausted, search::BudgetLimit::Time);
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
