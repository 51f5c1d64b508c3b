// The 100-atom / 500-action random layered tasks, where the planner used to run out of time (backward
// h_max on half the seeds): the defaults (forward LM-cut with deferred evaluation and stubborn sets)
// solve each of the 8 seeds within a fixed expansion budget, about 4x the most any seed needs, with a
// plan that replays to its cost under the domain's own rules; where backward LM-cut is also quick, both
// directions agree on the cost. Labelled `long`: a second in Release, a minute under the sanitizers.
#include <gameplan/goap/planner.hpp>
#include <gameplan/goap/task_generator.hpp>

#include <cstdint>
#include <span>

#include <goap_reference.hpp>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::goap;

TEST(LayeredTasks, HundredByFiveHundredWithinBudget) {
    for (std::uint64_t seed = 0; seed < 8; ++seed) {
        LayeredTaskOptions lo;
        lo.atoms = 100, lo.actions = 500, lo.layers = 5, lo.delete_probability = 0.3, lo.seed = seed;
        const GeneratedTask t = generate_layered_task(lo);
        Planner planner(t.domain);
        PlanOptions o;
        o.budget.max_expansions = 5000;
        const PlanResult r = planner.plan(t.start, t.goal, o);
        ASSERT_EQ(r.status, Status::Found) << seed;
        EXPECT_GT(planner.relevant_atom_count(), kSizeThresholdAtoms) << seed;
        EXPECT_EQ(planner.direction(), Direction::Forward) << seed;
        EXPECT_EQ(planner.heuristic(), Heuristic::LmCut) << seed;
        EXPECT_EQ(test::replay_cost(t.domain, t.start, t.goal, r.plan), r.cost) << seed;
        // Where backward search is also quick, both directions agree on the cost.
        PlanOptions back;
        back.direction = Direction::Backward;
        back.heuristic = Heuristic::LmCut;
        back.budget.max_expansions = 200;
        const double cost = r.cost;
        const PlanResult b = planner.plan(t.start, t.goal, back);
        if (b.status == Status::Found) {
            EXPECT_EQ(b.cost, cost) << seed;
        }
    }
}
