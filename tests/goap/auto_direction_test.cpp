// Random layered tasks (task_generator.hpp) and the automatic search direction (auto_direction.hpp):
// the generator's shape is checked against its specification, the planner in both directions and the
// automatic choice against a brute-force optimum on small tasks, and the automatic choice against both
// single directions (LM-cut, an independent heuristic) on tasks where one direction blows up.
#include <gameplan/goap/auto_direction.hpp>
#include <gameplan/goap/planner.hpp>
#include <gameplan/goap/task_generator.hpp>
#include <gameplan/io/domain_json.hpp>

#include <alloc_counter.hpp>
#include <goap_reference.hpp>
#include <test_data.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::goap;

namespace {

std::uint32_t layer_of(const std::string& name) {  // "l<layer>_<i>" / "a<layer>_<i>"
    return static_cast<std::uint32_t>(std::stoul(name.substr(1, name.find('_') - 1)));
}

// The independent references (goap_reference.hpp) on a generated task: -1 for no plan.
double brute_force_cost(const GeneratedTask& t) { return gameplan::test::brute_force_cost(t.domain, t.start, t.goal).value_or(-1); }
double replay(const GeneratedTask& t, std::span<const ActionId> plan) {
    return gameplan::test::replay_cost(t.domain, t.start, t.goal, plan);
}

// Everything a query's answer holds (the plan copied out of the planner), for comparing two runs.
struct Outcome {
    Status status = Status::InvalidQuery;
    double cost = 0;
    std::vector<ActionId> plan;
    std::uint64_t expanded = 0, generated = 0, reopened = 0, forward = 0, backward = 0;
    Direction direction = Direction::Backward;
    search::BudgetLimit limit = search::BudgetLimit::None;
    bool operator==(const Outcome&) const = default;
};

Outcome outcome_of(const AutoDirectionPlanner& p, const PlanResult& r) {
    // The accessors every search has say what the result says.
    EXPECT_EQ(p.status(), r.status);
    EXPECT_EQ(p.budget_limit(), r.limit);
    EXPECT_EQ(p.stats().expanded, r.stats.expanded);
    EXPECT_EQ(p.stats().generated, r.stats.generated);
    return {r.status, r.cost, std::vector<ActionId>(r.plan.begin(), r.plan.end()), r.stats.expanded, r.stats.generated,
            r.stats.reopened, p.forward_expanded(), p.backward_expanded(), p.direction(), r.limit};
}

// begin() then step(k) until final; each step may spend at most k expansions of the pair.
Outcome stepped(AutoDirectionPlanner& p, const GeneratedTask& t, const PlanOptions& o, std::uint64_t k) {
    Status s = p.begin(t.start, t.goal, o);
    while (s == Status::InProgress) {
        const std::uint64_t before = p.result().stats.expanded;
        s = p.step(k);
        const PlanResult r = p.result();
        EXPECT_LE(r.stats.expanded - before, k);
        EXPECT_EQ(r.status, s);
        EXPECT_EQ(r.stats.expanded, p.forward_expanded() + p.backward_expanded());
    }
    EXPECT_EQ(p.step(k), s) << "a final status repeats";
    return outcome_of(p, p.result());
}

constexpr std::uint64_t kSliceSizes[] = {1, 3, 17, UINT64_MAX};

}  // namespace

TEST(LayeredTask, FollowsItsSpecification) {
    LayeredTaskOptions o;
    o.atoms = 60, o.actions = 150, o.layers = 4, o.goal_atoms = 3, o.seed = 11;
    const GeneratedTask t = generate_layered_task(o);
    ASSERT_EQ(t.domain.atom_count(), 60u);
    ASSERT_EQ(t.domain.action_count(), 150u);
    std::vector<char> reached(60, 0);
    for (std::uint32_t a = 0; a < 60; ++a) {
        const std::uint32_t l = layer_of(t.domain.atom_name(AtomId(a)));
        EXPECT_EQ(l, a * 4 / 60) << "atoms are split into equal layers";
        if (t.start.get(AtomId(a))) {
            EXPECT_EQ(l, 0u) << "only raw resources at the start";
        }
        reached[a] = t.start.get(AtomId(a));
    }
    for (std::uint32_t a = 0; a < 150; ++a) {
        const ActionId id(a);
        const std::uint32_t k = layer_of(t.domain.action_name(id));
        ASSERT_GE(k, 1u);
        ASSERT_LT(k, 4u);
        const auto pre = t.domain.precondition_literals(id);
        ASSERT_FALSE(pre.empty());
        EXPECT_LE(pre.size(), o.max_preconditions);
        for (const Literal l : pre) {
            EXPECT_TRUE(l.value);
            EXPECT_EQ(layer_of(t.domain.atom_name(l.atom)), k - 1);
        }
        std::size_t adds = 0;
        for (const Literal l : t.domain.effect_literals(id)) {
            if (l.value) {
                ++adds;
                EXPECT_EQ(layer_of(t.domain.atom_name(l.atom)), k);
            } else {  // a consumed precondition, never a raw resource
                EXPECT_GE(k, 2u);
                EXPECT_TRUE(t.domain.preconditions(id).cares(l.atom));
            }
        }
        EXPECT_GE(adds, 1u);
        EXPECT_LE(adds, o.max_effects);
        const double c = t.domain.action_cost(id);
        EXPECT_TRUE(c >= o.min_cost && c <= o.max_cost && c == std::floor(c));
    }
    // The goal: goal_atoms atoms of the top layer, each reachable when deletes are ignored.
    for (bool changed = true; changed;) {
        changed = false;
        for (std::uint32_t a = 0; a < 150; ++a) {
            bool ok = true;
            for (const Literal l : t.domain.precondition_literals(ActionId(a))) ok = ok && reached[l.atom.value];
            if (ok)
                for (const Literal l : t.domain.effect_literals(ActionId(a)))
                    if (l.value && !reached[l.atom.value]) reached[l.atom.value] = 1, changed = true;
        }
    }
    std::size_t goals = 0;
    t.goal.for_each([&](Literal l) {
        ++goals;
        EXPECT_TRUE(l.value);
        EXPECT_EQ(layer_of(t.domain.atom_name(l.atom)), 3u);
        EXPECT_TRUE(reached[l.atom.value]);
    });
    EXPECT_EQ(goals, 3u);
    // The same seed gives the same task; another seed another one.
    const GeneratedTask again = generate_layered_task(o);
    EXPECT_EQ(again.start, t.start);
    EXPECT_EQ(again.goal, t.goal);
    for (std::uint32_t a = 0; a < 150; ++a) {
        EXPECT_EQ(again.domain.preconditions(ActionId(a)), t.domain.preconditions(ActionId(a)));
        EXPECT_EQ(again.domain.effects(ActionId(a)), t.domain.effects(ActionId(a)));
    }
    o.seed = 12;
    const GeneratedTask other = generate_layered_task(o);
    bool differs = !(other.goal == t.goal) || !(other.start == t.start);
    for (std::uint32_t a = 0; a < 150 && !differs; ++a) differs = !(other.domain.effects(ActionId(a)) == t.domain.effects(ActionId(a)));
    EXPECT_TRUE(differs);
    o.layers = 1;
    EXPECT_THROW((void)generate_layered_task(o), std::invalid_argument);
}

// Small generated tasks: every direction, heuristic and the automatic choice return the brute-force
// optimum (or prove there is none), with a valid plan.
TEST(AutoDirection, MatchesBruteForceOnSmallTasks) {
    int found = 0, none = 0;
    for (std::uint64_t seed = 0; seed < 60; ++seed) {
        LayeredTaskOptions o;
        o.atoms = 12 + static_cast<std::uint32_t>(seed % 5), o.actions = 20 + static_cast<std::uint32_t>(seed % 13);
        o.layers = 3 + static_cast<std::uint32_t>(seed % 2), o.goal_atoms = 1 + static_cast<std::uint32_t>(seed % 3);
        o.delete_probability = 0.6, o.seed = seed;
        const GeneratedTask t = generate_layered_task(o);
        const double expected = brute_force_cost(t);
        Planner planner(t.domain);
        AutoDirectionPlanner automatic(t.domain);
        for (const Heuristic h : {Heuristic::HMax, Heuristic::LmCut}) {
            PlanOptions po;
            po.heuristic = h;
            for (const Direction d : {Direction::Forward, Direction::Backward}) {
                po.direction = d;
                const PlanResult r = planner.plan(t.start, t.goal, po);
                if (expected < 0) {
                    EXPECT_EQ(r.status, Status::NoPath) << "seed " << seed;
                } else {
                    ASSERT_EQ(r.status, Status::Found) << "seed " << seed;
                    EXPECT_EQ(r.cost, expected) << "seed " << seed;
                    EXPECT_EQ(replay(t, r.plan), expected) << "seed " << seed;
                }
            }
            const PlanResult r = automatic.plan(t.start, t.goal, po);
            if (expected < 0) {
                EXPECT_EQ(r.status, Status::NoPath) << "seed " << seed;
            } else {
                ASSERT_EQ(r.status, Status::Found) << "seed " << seed;
                EXPECT_EQ(r.cost, expected) << "seed " << seed;
                EXPECT_EQ(replay(t, r.plan), expected) << "seed " << seed;
                EXPECT_EQ(r.stats.expanded, automatic.forward_expanded() + automatic.backward_expanded());
            }
        }
        (expected < 0 ? none : found) += 1;
    }
    EXPECT_GT(found, 40);  // mostly solvable, as the generator intends
}

// Tasks of 40 atoms and 120 actions, where backward h_max search explodes on some seeds (seed 3:
// about 17,000 expansions, against about 1,150 forward). The automatic choice returns the optimal cost
// that both single directions find with LM-cut, and on seed 3 it is decided by forward search with
// the backward search held to its share of the work.
TEST(AutoDirection, SameOptimalCostAsEitherDirectionAndNoBlowUp) {
    for (std::uint64_t seed = 0; seed < 8; ++seed) {
        LayeredTaskOptions o;
        o.atoms = 40, o.actions = 120, o.layers = 4, o.delete_probability = 0.3, o.seed = seed;
        const GeneratedTask t = generate_layered_task(o);
        AutoDirectionPlanner automatic(t.domain);
        const PlanResult r = automatic.plan(t.start, t.goal);  // h_max, as by default
        ASSERT_EQ(r.status, Status::Found) << "seed " << seed;
        EXPECT_EQ(replay(t, r.plan), r.cost);
        Planner reference(t.domain);
        PlanOptions lm;
        lm.heuristic = Heuristic::LmCut;
        for (const Direction d : {Direction::Forward, Direction::Backward}) {
            lm.direction = d;
            const PlanResult other = reference.plan(t.start, t.goal, lm);
            ASSERT_EQ(other.status, Status::Found) << "seed " << seed;
            EXPECT_EQ(other.cost, r.cost) << "seed " << seed << ", " << to_string(d);
        }
        if (seed == 3) {
            EXPECT_EQ(automatic.direction(), Direction::Forward);
            // Backward gets four times forward's expansions per round (and one slice ahead).
            EXPECT_LE(automatic.backward_expanded(), 4 * automatic.forward_expanded() + AutoDirectionPlanner::kBackwardSlice);
            EXPECT_LT(r.stats.expanded, 8000u);
        }
    }
}

TEST(AutoDirection, BudgetsAndAllocations) {
    LayeredTaskOptions o;
    o.atoms = 40, o.actions = 120, o.layers = 4, o.delete_probability = 0.3, o.seed = 3;
    const GeneratedTask t = generate_layered_task(o);
    AutoDirectionPlanner automatic(t.domain);
    PlanOptions tight;
    tight.budget.max_expansions = 100;
    const PlanResult r = automatic.plan(t.start, t.goal, tight);
    EXPECT_EQ(r.status, Status::BudgetExhausted);
    EXPECT_EQ(r.limit, search::BudgetLimit::Expansions);
    EXPECT_LE(r.stats.expanded, 100u);
    EXPECT_TRUE(r.plan.empty());
    // After a warm-up query, the same queries allocate nothing.
    const PlanResult warm = automatic.plan(t.start, t.goal);
    ASSERT_EQ(warm.status, Status::Found);
    const double cost = warm.cost;
    const test::AllocationScope scope;
    for (int i = 0; i < 2; ++i) {
        const PlanResult again = automatic.plan(t.start, t.goal);
        EXPECT_EQ(again.cost, cost);
    }
    EXPECT_EQ(scope.count(), 0u);
}

// A memory budget stops both directions: 40 independent goals (2^40 states either way). The pair holds
// no more than the budget (each half no more than its half), and says the memory ran out.
TEST(AutoDirection, MemoryBudgetStopsBothDirections) {
    DomainBuilder b;
    for (int i = 0; i < 40; ++i) {
        std::string atom = "g", action = "set";
        atom += std::to_string(i);
        action += std::to_string(i);
        ASSERT_EQ(b.add_action(action, 1.0, {}, {{atom, true}}), DomainError::None);
    }
    const Domain d = b.build();
    Condition goal = d.make_condition();
    for (std::uint32_t i = 0; i < 40; ++i) goal.set(AtomId(i), true);
    AutoDirectionPlanner automatic(d);
    PlanOptions o;
    o.budget.max_memory_bytes = std::size_t{8} << 20;
    const PlanResult r = automatic.plan(d.make_state(), goal, o);
    EXPECT_EQ(r.status, Status::BudgetExhausted);
    EXPECT_EQ(r.limit, search::BudgetLimit::Memory);
    EXPECT_EQ(automatic.budget_limit(), search::BudgetLimit::Memory);
    EXPECT_EQ(automatic.status(), Status::BudgetExhausted);
    EXPECT_GT(automatic.forward_expanded(), 100u);
    EXPECT_GT(automatic.backward_expanded(), 100u);
    EXPECT_LE(automatic.memory_bytes(), o.budget.max_memory_bytes);
    EXPECT_GT(automatic.memory_bytes(), o.budget.max_memory_bytes / 4);
}

// The resumable form: begin() + step(k) for any k returns what plan() returns (plan, cost, status,
// statistics, direction), and that is the brute-force optimum. On these tasks (16 atoms, 3-4 goal
// atoms) many queries, blind ones above all, outlast backward's first slice, so the slice schedule is
// resumed mid-slice and across turns (k = 3 and 17 divide neither slice size).
TEST(AutoDirection, SteppedEqualsPlanAndBruteForceOnSmallTasks) {
    std::uint64_t interleaved = 0;
    for (std::uint64_t seed = 0; seed < 30; ++seed) {
        LayeredTaskOptions o;
        o.atoms = 16, o.actions = 40 + static_cast<std::uint32_t>(seed % 21);
        o.layers = 3, o.goal_atoms = 3 + static_cast<std::uint32_t>(seed % 2);
        o.delete_probability = 0.5, o.seed = seed;
        const GeneratedTask t = generate_layered_task(o);
        const double expected = brute_force_cost(t);
        AutoDirectionPlanner automatic(t.domain);
        for (const Heuristic h : {Heuristic::HMax, Heuristic::LmCut, Heuristic::Blind}) {
            PlanOptions po;
            po.heuristic = h;
            const Outcome whole = outcome_of(automatic, automatic.plan(t.start, t.goal, po));
            if (expected < 0) {
                EXPECT_EQ(whole.status, Status::NoPath) << "seed " << seed;
            } else {
                ASSERT_EQ(whole.status, Status::Found) << "seed " << seed;
                EXPECT_EQ(whole.cost, expected) << "seed " << seed;
                EXPECT_EQ(replay(t, whole.plan), expected) << "seed " << seed;
            }
            interleaved += whole.forward > 0;  // backward's first slice did not decide it
            for (const std::uint64_t k : kSliceSizes)
                EXPECT_TRUE(stepped(automatic, t, po, k) == whole) << "seed " << seed << ", " << to_string(h) << ", k " << k;
        }
    }
    EXPECT_GT(interleaved, 10u) << "many queries run several turns";
}

// The same on a task where forward search wins after many turns (seed 3, see above), with budgets
// that stop the pair mid-slice, mid-turn or not at all; the cost is LM-cut's (an independent heuristic).
TEST(AutoDirection, SteppedEqualsPlanWithBudgets) {
    LayeredTaskOptions o;
    o.atoms = 40, o.actions = 120, o.layers = 4, o.delete_probability = 0.3, o.seed = 3;
    const GeneratedTask t = generate_layered_task(o);
    PlanOptions lm;
    lm.heuristic = Heuristic::LmCut;
    Planner reference(t.domain);
    const PlanResult best = reference.plan(t.start, t.goal, lm);
    ASSERT_EQ(best.status, Status::Found);
    AutoDirectionPlanner automatic(t.domain);
    for (const std::uint64_t budget : {std::uint64_t{0}, std::uint64_t{100}, std::uint64_t{1000}, std::uint64_t{3001}, UINT64_MAX}) {
        PlanOptions po;
        po.budget.max_expansions = budget;
        const Outcome whole = outcome_of(automatic, automatic.plan(t.start, t.goal, po));
        if (budget == UINT64_MAX) {
            ASSERT_EQ(whole.status, Status::Found);
            EXPECT_EQ(whole.cost, best.cost);
            EXPECT_EQ(whole.direction, Direction::Forward);
        } else {
            ASSERT_EQ(whole.status, Status::BudgetExhausted) << budget;
            EXPECT_EQ(whole.expanded, budget);
            EXPECT_EQ(whole.limit, search::BudgetLimit::Expansions);
        }
        for (const std::uint64_t k : kSliceSizes)
            EXPECT_TRUE(stepped(automatic, t, po, k) == whole) << "budget " << budget << ", k " << k;
    }
    // After warm-up the resumable form allocates nothing either.
    const test::AllocationScope scope;
    Status s = automatic.begin(t.start, t.goal);
    while (s == Status::InProgress) s = automatic.step(17);
    const double cost = automatic.result().cost;
    EXPECT_EQ(scope.count(), 0u);
    EXPECT_EQ(s, Status::Found);
    EXPECT_EQ(cost, best.cost);
}

// Domains with variables are planned forward alone; the resumable form delegates to that planner and
// returns what Planner returns forward.
TEST(AutoDirection, SteppedOnADomainWithVariables) {
    for (const char* file : {"guard_numbers.json", "wood_collection.json"}) {
        const io::DomainFile f = io::load_domain_json(test::source_dir() / "examples/goap" / file);
        ASSERT_TRUE(f.domain.has_variables()) << file;
        Planner reference(f.domain);
        PlanOptions forward;
        forward.direction = Direction::Forward;
        const PlanResult expected = reference.plan(f.start, *f.goal, forward);
        ASSERT_EQ(expected.status, Status::Found) << file;
        AutoDirectionPlanner automatic(f.domain);
        for (const std::uint64_t k : kSliceSizes) {
            Status s = automatic.begin(f.start, *f.goal);
            while (s == Status::InProgress) s = automatic.step(k);
            const PlanResult r = automatic.result();
            EXPECT_EQ(r.status, Status::Found) << file << ", k " << k;
            EXPECT_EQ(r.cost, expected.cost) << file << ", k " << k;
            EXPECT_TRUE(std::ranges::equal(r.plan, expected.plan)) << file << ", k " << k;
            EXPECT_EQ(r.stats.expanded, expected.stats.expanded) << file << ", k " << k;
            EXPECT_EQ(automatic.forward_expanded(), expected.stats.expanded);
            EXPECT_EQ(automatic.direction(), Direction::Forward);
        }
    }
}
