#include <gameplan/goap/planner.hpp>
#include <gameplan/io/domain_json.hpp>

#include <test_data.hpp>

#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::goap;

// "prefix" + std::to_string(n) without GCC 12's false -Wrestrict positive on operator+(const char*, string&&).
[[maybe_unused]] static std::string cat(std::string prefix, long long n) {
    prefix += std::to_string(n);
    return prefix;
}


namespace {

constexpr Direction kBoth[] = {Direction::Forward, Direction::Backward};

std::vector<std::string> names(const Domain& d, std::span<const ActionId> plan) {
    std::vector<std::string> out;
    for (const ActionId a : plan) out.push_back(d.action_name(a));
    return out;
}

// Independent check: the plan is executable from start, reaches the goal, and costs `cost`.
void expect_valid_plan(const Domain& d, const WorldState& start, const Condition& goal, const PlanResult& r,
                       std::span<const double> costs = {}) {
    WorldState s = start;
    double total = 0;
    for (const ActionId a : r.plan) {
        ASSERT_TRUE(s.satisfies(d.preconditions(a))) << d.action_name(a) << " not applicable";
        s.apply(d.effects(a));
        total += costs.empty() ? d.action_cost(a) : costs[a.value];
    }
    EXPECT_TRUE(s.satisfies(goal));
    EXPECT_DOUBLE_EQ(total, r.cost);
}

io::DomainFile example(const char* name) { return io::load_domain_json(test::source_dir() / "examples/goap" / name); }

AtomId atom(const Domain& d, const char* name) {
    const AtomId a = d.find_atom(name);
    EXPECT_TRUE(a.valid()) << name;
    return a;
}

}  // namespace

// Seed 001: restaurant (30, 1 action) and buy+cook+eat (15+10+5 = 30, 3 actions) tie; fewer actions wins.
TEST(Planner, HungerPrefersFewerActionsAmongEqualCost) {
    const io::DomainFile f = example("hunger.json");
    Planner planner(f.domain);
    for (const Direction dir : kBoth) {
        PlanOptions o;
        o.direction = dir;
        const PlanResult r = planner.plan(f.start, *f.goal, o);
        ASSERT_EQ(r.status, Status::Found) << to_string(dir);
        EXPECT_EQ(r.cost, 30);
        EXPECT_EQ(names(f.domain, r.plan), std::vector<std::string>{"go_to_restaurant"}) << to_string(dir);
        expect_valid_plan(f.domain, f.start, *f.goal, r);
    }
    // Without the restaurant the 3-action cooking plan (30) beats bread from the fridge (55).
    WorldState no_restaurant = f.start;
    no_restaurant.set(atom(f.domain, "has_restaurant"), false);
    for (const Direction dir : kBoth) {
        PlanOptions o;
        o.direction = dir;
        const PlanResult r = planner.plan(no_restaurant, *f.goal, o);
        ASSERT_EQ(r.status, Status::Found);
        EXPECT_EQ(r.cost, 30);
        EXPECT_EQ(names(f.domain, r.plan), (std::vector<std::string>{"buy_vegetables", "cook", "eat"}));
    }
    // A restaurant price hike (per-call cost override) flips the choice without rebuilding the domain.
    std::vector<double> costs(f.domain.action_costs().begin(), f.domain.action_costs().end());
    costs[f.domain.find_action("go_to_restaurant").value] = 31;
    for (const Direction dir : kBoth) {
        PlanOptions o;
        o.direction = dir;
        o.costs = costs;
        const PlanResult r = planner.plan(f.start, *f.goal, o);
        ASSERT_EQ(r.status, Status::Found);
        EXPECT_EQ(r.cost, 30);
        EXPECT_EQ(names(f.domain, r.plan), (std::vector<std::string>{"buy_vegetables", "cook", "eat"}));
        expect_valid_plan(f.domain, f.start, *f.goal, r, costs);
    }
}

// Seed 000's three situations.
TEST(Planner, SpaceShooterSituations) {
    const io::DomainFile f = example("space_shooter.json");
    const Domain& d = f.domain;
    ASSERT_EQ(d.atom_count(), 6u);
    const Condition& kill = *f.goal;
    Planner planner(d);

    WorldState healthy = d.make_state();
    healthy.set(atom(d, "安全"), true);
    EXPECT_EQ(healthy, f.start) << "the file's start is the healthy situation";

    WorldState unsafe = d.make_state();

    WorldState weak = d.make_state();
    weak.set(atom(d, "安全"), true);
    weak.set(atom(d, "玩家无力"), true);
    weak.set(atom(d, "弹药充足"), true);

    struct Case {
        const WorldState* start;
        std::vector<std::string> plan;
        double cost;
    };
    const Case cases[] = {{&healthy, {"aim", "shoot"}, 5},
                          {&unsafe, {"evade", "low_accuracy_shot"}, 2},
                          {&weak, {"chase"}, 4}};
    for (const Case& c : cases)
        for (const Direction dir : kBoth) {
            PlanOptions o;
            o.direction = dir;
            const PlanResult r = planner.plan(*c.start, kill, o);
            ASSERT_EQ(r.status, Status::Found);
            EXPECT_EQ(names(d, r.plan), c.plan) << to_string(dir);
            EXPECT_EQ(r.cost, c.cost);
            expect_valid_plan(d, *c.start, kill, r);
        }
    // Named goals from the file.
    ASSERT_NE(f.find_goal("kill_player"), nullptr);
    EXPECT_EQ(f.find_goal("kill_player")->priority, 10);
    const PlanResult r = planner.plan(unsafe, f.find_goal("reach_safe_zone")->condition);
    ASSERT_EQ(r.status, Status::Found);
    EXPECT_EQ(names(d, r.plan), std::vector<std::string>{"evade"});
}

TEST(Planner, GoalAlreadySatisfied) {
    const io::DomainFile f = example("hunger.json");
    WorldState fed = f.start;
    fed.set(atom(f.domain, "hungry"), false);
    Planner planner(f.domain);
    for (const Direction dir : kBoth) {
        PlanOptions o;
        o.direction = dir;
        const PlanResult r = planner.plan(fed, *f.goal, o);
        EXPECT_EQ(r.status, Status::Found);
        EXPECT_TRUE(r.plan.empty());
        EXPECT_EQ(r.cost, 0);
        EXPECT_EQ(r.stats.expanded, 0u);
        // An empty goal is satisfied everywhere.
        const PlanResult e = planner.plan(f.start, f.domain.make_condition(), o);
        EXPECT_EQ(e.status, Status::Found);
        EXPECT_TRUE(e.plan.empty());
    }
}

// Procedural preconditions: the per-call enable mask, and the failure explanation.
TEST(Planner, EnableMaskAndUnreachableGoals) {
    const io::DomainFile f = example("hunger.json");
    const Domain& d = f.domain;
    Planner planner(d);
    std::vector<std::uint8_t> enabled(d.action_count(), 1);
    enabled[d.find_action("go_to_restaurant").value] = 0;
    for (const Direction dir : kBoth) {
        PlanOptions o;
        o.direction = dir;
        o.enabled = enabled;
        PlanResult r = planner.plan(f.start, *f.goal, o);
        ASSERT_EQ(r.status, Status::Found);
        EXPECT_EQ(names(d, r.plan), (std::vector<std::string>{"buy_vegetables", "cook", "eat"}));
        // Disable every way to stop being hungry: no plan, and the explanation names the goal atom.
        std::vector<std::uint8_t> none(d.action_count(), 1);
        for (const char* n : {"eat", "go_to_restaurant", "bread_from_fridge"}) none[d.find_action(n).value] = 0;
        o.enabled = none;
        r = planner.plan(f.start, *f.goal, o);
        EXPECT_EQ(r.status, Status::NoPath);
        EXPECT_TRUE(r.plan.empty());
        ASSERT_EQ(planner.unreachable_goals().size(), 1u);
        EXPECT_EQ(planner.unreachable_goals()[0], (Literal{atom(d, "hungry"), false}));
        // Enable eat but close the supermarket: eat needs food nobody can make. The goal atom itself is
        // reported (no relevant action can reach it), not the missing food.
        none[d.find_action("eat").value] = 1;
        o.enabled = none;
        WorldState closed = f.start;
        closed.set(atom(d, "has_supermarket"), false);
        r = planner.plan(closed, *f.goal, o);
        EXPECT_EQ(r.status, Status::NoPath);
        ASSERT_EQ(planner.unreachable_goals().size(), 1u);
        // Found plans leave the explanation empty.
        r = planner.plan(f.start, *f.goal, PlanOptions{.direction = dir});
        EXPECT_EQ(r.status, Status::Found);
        EXPECT_TRUE(planner.unreachable_goals().empty());
    }
}

// Goal literals that interfere: each is reachable alone, never together.
TEST(Planner, InterferingGoalsHaveNoPlan) {
    DomainBuilder b;
    ASSERT_EQ(b.add_action("set_x", 1, {}, {{"x", true}, {"y", false}}), DomainError::None);
    ASSERT_EQ(b.add_action("set_y", 1, {}, {{"y", true}, {"x", false}}), DomainError::None);
    const Domain d = b.build();
    Condition goal = d.make_condition();
    goal.set(d.find_atom("x"), true);
    goal.set(d.find_atom("y"), true);
    Planner planner(d);
    for (const Direction dir : kBoth) {
        PlanOptions o;
        o.direction = dir;
        const PlanResult r = planner.plan(d.make_state(), goal, o);
        EXPECT_EQ(r.status, Status::NoPath) << to_string(dir);
        EXPECT_TRUE(planner.unreachable_goals().empty());
    }
}

TEST(Planner, InvalidQueries) {
    const io::DomainFile f = example("hunger.json");
    Planner planner(f.domain);
    EXPECT_EQ(planner.plan(WorldState(3), *f.goal).status, Status::InvalidQuery);
    EXPECT_EQ(planner.plan(f.start, Condition(9)).status, Status::InvalidQuery);
    std::vector<std::uint8_t> short_mask(2, 1);
    EXPECT_EQ(planner.plan(f.start, *f.goal, PlanOptions{.enabled = short_mask}).status, Status::InvalidQuery);
    std::vector<double> bad_costs(f.domain.action_count(), 1.0);
    bad_costs[0] = -1;
    EXPECT_EQ(planner.plan(f.start, *f.goal, PlanOptions{.costs = bad_costs}).status, Status::InvalidQuery);
    bad_costs[0] = std::numeric_limits<double>::infinity();
    EXPECT_EQ(planner.plan(f.start, *f.goal, PlanOptions{.costs = bad_costs}).status, Status::InvalidQuery);
    // The planner recovers for the next query.
    EXPECT_EQ(planner.plan(f.start, *f.goal).status, Status::Found);
}

namespace {
// A ladder of `rungs` climbs (cost 1) and skips (cost 3) over many atoms, plus distractors that touch
// the rungs only in preconditions. Optimal: climb every rung, cost rungs - 1.
Domain ladder(int atoms, int rungs, int distractors) {
    DomainBuilder b;
    for (int i = 0; i < atoms; ++i) b.add_atom(cat("a", i));
    const auto r = [](int i) { return cat("a", i); };
    for (int i = 0; i + 1 < rungs; ++i) EXPECT_EQ(b.add_action(cat("climb_", i), 1, {{r(i), true}}, {{r(i + 1), true}}), DomainError::None);
    for (int i = 0; i + 2 < rungs; ++i) EXPECT_EQ(b.add_action(cat("skip_", i), 3, {{r(i), true}}, {{r(i + 2), true}}), DomainError::None);
    for (int k = 0; k < distractors; ++k) {
        const int p = (k * 7) % rungs, x = rungs + (k * 13) % (atoms - rungs), y = rungs + (k * 31 + 5) % (atoms - rungs);
        EXPECT_EQ(b.add_action(cat("dist_", k), 1 + k % 3, {{r(p), true}, {r(x), k % 2 == 0}}, {{r(y), k % 3 == 0}}), DomainError::None);
    }
    return b.build();
}
}  // namespace

// No 64-atom limit: 600 atoms, 150 of them relevant (three words per state), in both directions, and
// the same plan through the one-word and the generic representation on a small goal.
TEST(Planner, HundredsOfAtoms) {
    const Domain d = ladder(600, 150, 300);
    ASSERT_EQ(d.atom_count(), 600u);
    WorldState start = d.make_state();
    start.set(d.find_atom("a0"), true);
    Condition goal = d.make_condition();
    goal.set(d.find_atom("a149"), true);
    goal.set(d.find_atom("a0"), true);
    Planner planner(d);
    for (const Direction dir : kBoth) {
        PlanOptions o;
        o.direction = dir;
        const PlanResult r = planner.plan(start, goal, o);
        ASSERT_EQ(r.status, Status::Found);
        EXPECT_EQ(r.cost, 149);
        EXPECT_EQ(r.plan.size(), 149u);
        EXPECT_GE(planner.relevant_atom_count(), 150u);
        EXPECT_LE(r.stats.expanded, 200u);
        expect_valid_plan(d, start, goal, r);
    }
    Condition small = d.make_condition();
    small.set(d.find_atom("a40"), true);
    for (const Direction dir : kBoth) {
        PlanOptions o;
        o.direction = dir;
        const PlanResult fast = planner.plan(start, small, o);
        const std::vector<ActionId> fast_plan(fast.plan.begin(), fast.plan.end());
        EXPECT_LE(planner.relevant_atom_count(), 64u);
        o.force_generic_representation = true;
        const PlanResult generic = planner.plan(start, small, o);
        ASSERT_EQ(fast.status, Status::Found);
        EXPECT_EQ(generic.status, Status::Found);
        EXPECT_EQ(fast.cost, 40);
        EXPECT_EQ(generic.cost, fast.cost);
        EXPECT_EQ(std::vector<ActionId>(generic.plan.begin(), generic.plan.end()), fast_plan);
        EXPECT_EQ(generic.stats.expanded, fast.stats.expanded);
    }
}

TEST(Planner, BudgetExhaustedThenResumableMatchesUnbudgeted) {
    const Domain d = ladder(80, 40, 60);
    WorldState start = d.make_state();
    start.set(d.find_atom("a0"), true);
    Condition goal = d.make_condition();
    goal.set(d.find_atom("a39"), true);
    Planner planner(d);
    for (const Direction dir : kBoth) {
        PlanOptions o;
        o.direction = dir;
        const PlanResult full = planner.plan(start, goal, o);
        ASSERT_EQ(full.status, Status::Found);
        const std::vector<ActionId> full_plan(full.plan.begin(), full.plan.end());
        ASSERT_GT(full.stats.expanded, 10u);

        o.budget.max_expansions = 5;
        const PlanResult cut = planner.plan(start, goal, o);
        EXPECT_EQ(cut.status, Status::BudgetExhausted);
        EXPECT_TRUE(cut.plan.empty());
        EXPECT_EQ(cut.stats.expanded, 5u);

        o.budget.max_expansions = UINT64_MAX;
        ASSERT_EQ(planner.begin(start, goal, o), Status::InProgress);
        int slices = 0;
        Status s = Status::InProgress;
        while ((s = planner.step(3)) == Status::InProgress) {
            ++slices;
            EXPECT_EQ(planner.result().status, Status::InProgress);
        }
        EXPECT_EQ(s, Status::Found);
        EXPECT_GT(slices, 2);
        EXPECT_EQ(planner.step(3), Status::Found);  // final status repeats
        const PlanResult resumed = planner.result();
        EXPECT_EQ(std::vector<ActionId>(resumed.plan.begin(), resumed.plan.end()), full_plan);
        EXPECT_EQ(resumed.cost, full.cost);
        EXPECT_EQ(resumed.stats.expanded, full.stats.expanded);
        EXPECT_EQ(resumed.stats.generated, full.stats.generated);
    }
}

TEST(Planner, DeadlineInThePastExhaustsBudget) {
    const Domain d = ladder(80, 60, 60);
    WorldState start = d.make_state();
    start.set(d.find_atom("a0"), true);
    Condition goal = d.make_condition();
    goal.set(d.find_atom("a59"), true);
    Planner planner(d);
    PlanOptions o;
    o.budget.deadline = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    EXPECT_EQ(planner.plan(start, goal, o).status, Status::BudgetExhausted);
}

TEST(Planner, DeterministicAcrossRunsAndPlanners) {
    const io::DomainFile f = example("space_shooter.json");
    Planner a(f.domain), b(f.domain);
    for (int i = 0; i < 20; ++i) {
        const PlanResult ra = a.plan(f.start, *f.goal);
        const std::vector<ActionId> pa(ra.plan.begin(), ra.plan.end());
        const PlanResult rb = b.plan(f.start, *f.goal);
        EXPECT_EQ(pa, std::vector<ActionId>(rb.plan.begin(), rb.plan.end()));
    }
}

TEST(Planner, MovedPlannerKeepsWorking) {
    const io::DomainFile f = example("hunger.json");
    Planner a(f.domain);
    Planner b = std::move(a);
    EXPECT_EQ(b.plan(f.start, *f.goal).cost, 30);
    EXPECT_EQ(&b.domain(), &f.domain);
}

// PlanOptions::measure_time = false skips the clock: micros stays 0 and nothing else changes, in the
// one-call and the resumable form.
TEST(Planner, UntimedQueriesGiveTheSameResults) {
    const Domain d = ladder(80, 40, 60);
    WorldState start = d.make_state();
    start.set(d.find_atom("a0"), true);
    Condition goal = d.make_condition();
    goal.set(d.find_atom("a39"), true);
    Planner timed(d), untimed(d);
    for (const Direction dir : kBoth) {
        PlanOptions o;
        o.direction = dir;
        const PlanResult a = timed.plan(start, goal, o);
        o.measure_time = false;
        const PlanResult b = untimed.plan(start, goal, o);
        ASSERT_EQ(a.status, Status::Found);
        EXPECT_EQ(b.status, a.status);
        EXPECT_EQ(std::vector<ActionId>(b.plan.begin(), b.plan.end()), std::vector<ActionId>(a.plan.begin(), a.plan.end()));
        EXPECT_EQ(b.cost, a.cost);
        EXPECT_EQ(b.stats.expanded, a.stats.expanded);
        EXPECT_EQ(b.stats.generated, a.stats.generated);
        EXPECT_EQ(b.micros, 0.0);
        ASSERT_EQ(untimed.begin(start, goal, o), Status::InProgress);
        while (untimed.step(3) == Status::InProgress) {
        }
        EXPECT_EQ(untimed.result().status, Status::Found);
        EXPECT_EQ(untimed.result().micros, 0.0);
        EXPECT_EQ(untimed.result().cost, a.cost);
    }
}
