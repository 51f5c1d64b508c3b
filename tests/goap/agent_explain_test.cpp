// The runtime's no-plan event carries the analysis of `gameplan explain`: on random domains (some
// actions switched off by a context check) the event's unreachable goal literals equal those of an
// independent brute-force relaxed reachability written here, its root causes are never set by an
// enabled action, and the whole analysis equals analyze_no_plan on the same query. The per-tick
// budget (AgentSystemOptions::explain_no_plan) limits how many failures are analysed.
#include <gameplan/goap/agent.hpp>
#include <gameplan/goap/explain.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace gameplan;
using namespace gameplan::goap;

namespace {

struct Failure {
    std::uint32_t goal = 0;
    bool analyzed = false;
    std::vector<Literal> unreachable, root_causes, cycle_literals;
    std::vector<std::uint32_t> cycle_sizes;
    std::vector<ActionId> disabled;
    std::string text;
    std::vector<Comparison> unreachable_comparisons, numeric_root_causes;
};

struct Recorder final : AgentObserver {
    std::vector<Failure> failures;
    void on_event(const Agent& agent, const AgentEvent& e) override {
        if (e.kind != AgentEventKind::PlanFailed) return;
        Failure f;
        f.goal = e.goal;
        f.analyzed = e.analyzed;
        f.unreachable.assign(e.unreachable.begin(), e.unreachable.end());
        f.root_causes.assign(e.root_causes.begin(), e.root_causes.end());
        f.cycle_literals.assign(e.cycle_literals.begin(), e.cycle_literals.end());
        f.cycle_sizes.assign(e.cycle_sizes.begin(), e.cycle_sizes.end());
        f.disabled.assign(e.disabled.begin(), e.disabled.end());
        f.unreachable_comparisons.assign(e.unreachable_comparisons.begin(), e.unreachable_comparisons.end());
        f.numeric_root_causes.assign(e.numeric_root_causes.begin(), e.numeric_root_causes.end());
        f.text = describe(agent, e);
        failures.push_back(std::move(f));
    }
};

std::uint32_t key(Literal l) { return l.atom.value * 2 + (l.value ? 1 : 0); }

// Relaxed reachability, the plain way: apply every enabled applicable action's effects until nothing changes.
std::set<std::uint32_t> brute_reachable(const Domain& d, const WorldState& start, const std::vector<bool>& enabled) {
    std::set<std::uint32_t> reached;
    for (std::uint32_t a = 0; a < d.atom_count(); ++a) reached.insert(key(Literal{AtomId(a), start.get(AtomId(a))}));
    for (bool changed = true; changed;) {
        changed = false;
        for (std::uint32_t i = 0; i < d.action_count(); ++i) {
            if (!enabled[i]) continue;
            const auto pre = d.precondition_literals(ActionId(i));
            if (!std::all_of(pre.begin(), pre.end(), [&](Literal p) { return reached.count(key(p)) != 0; })) continue;
            for (const Literal e : d.effect_literals(ActionId(i))) changed |= reached.insert(key(e)).second;
        }
    }
    return reached;
}

std::vector<std::uint32_t> keys(const std::vector<Literal>& ls) {
    std::vector<std::uint32_t> out;
    for (const Literal l : ls) out.push_back(key(l));
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

TEST(AgentNoPlanAnalysis, MatchesBruteForceRelaxedReachabilityOnRandomDomains) {
    std::mt19937 rng(20261202);
    int analysed = 0, with_root_causes = 0, with_disabled = 0;
    for (int round = 0; round < 150; ++round) {
        const std::uint32_t atoms = 4 + rng() % 6, actions = 3 + rng() % 8;
        DomainBuilder b;
        for (std::uint32_t a = 0; a < atoms; ++a) b.add_atom("p" + std::to_string(a));
        for (std::uint32_t i = 0; i < actions; ++i) {
            std::vector<Literal> pre, eff;
            for (std::uint32_t a = 0; a < atoms; ++a) {
                const std::uint32_t r = rng() % 10;
                if (r == 0) pre.push_back(Literal{AtomId(a), true});
                else if (r == 1) pre.push_back(Literal{AtomId(a), false});
                const std::uint32_t s = rng() % 10;
                if (s == 0) eff.push_back(Literal{AtomId(a), true});
                else if (s == 1) eff.push_back(Literal{AtomId(a), false});
            }
            ASSERT_EQ(b.add_action("a" + std::to_string(i), 1 + rng() % 4, pre, eff), DomainError::None);
        }
        const Domain d = b.build();
        std::vector<bool> enabled(actions);
        AgentTypeBuilder tb(d, "t");
        for (std::uint32_t i = 0; i < actions; ++i) {
            enabled[i] = rng() % 4 != 0;
            const std::string name = "a" + std::to_string(i);
            tb.bind(name, Behaviour([](ActionContext&) { return ActionStatus::Running; }));
            if (!enabled[i]) tb.set_check(name, [](const PlanningContext&) { return false; });
        }
        const BindResult type = tb.build();
        ASSERT_TRUE(type.ok()) << type.message();
        WorldState start = d.make_state();
        for (std::uint32_t a = 0; a < atoms; ++a) start.set(AtomId(a), rng() % 3 == 0);
        Condition goal = d.make_condition();
        for (int k = 0; k < 3; ++k) goal.set(AtomId(rng() % atoms), rng() % 2 == 0);

        AgentSystem system(d);
        Recorder rec;
        system.set_observer(&rec);
        AgentParams p;
        p.name = "x";
        p.type = type.type;
        p.state = start;
        p.goals.push_back(AgentGoal{"g", goal, 1, {}});
        ASSERT_TRUE(system.add_agent(std::move(p)).valid());
        system.tick();
        if (rec.failures.empty()) continue;
        SCOPED_TRACE("round " + std::to_string(round));
        const Failure& f = rec.failures.front();
        ASSERT_TRUE(f.analyzed);
        ++analysed;
        const std::set<std::uint32_t> reached = brute_reachable(d, start, enabled);
        std::vector<Literal> expect_unreachable;
        goal.for_each([&](Literal l) {
            if (!reached.count(key(l))) expect_unreachable.push_back(l);
        });
        EXPECT_EQ(keys(f.unreachable), keys(expect_unreachable));
        for (const Literal r : f.root_causes) {
            EXPECT_FALSE(reached.count(key(r)));
            EXPECT_NE(start.get(r.atom), r.value);
            for (std::uint32_t i = 0; i < actions; ++i)
                if (enabled[i]) {
                    const auto eff = d.effect_literals(ActionId(i));
                    EXPECT_TRUE(std::none_of(eff.begin(), eff.end(), [&](Literal e) { return e == r; }))
                        << "root cause set by enabled action a" << i;
                }
        }
        if (!f.unreachable.empty()) {
            EXPECT_FALSE(f.root_causes.empty() && f.cycle_sizes.empty()) << f.text;
        }
        for (const ActionId a : f.disabled) {
            EXPECT_FALSE(enabled[a.value]);
            const auto eff = d.effect_literals(a);
            EXPECT_TRUE(std::any_of(eff.begin(), eff.end(), [&](Literal e) { return !reached.count(key(e)); }));
        }
        with_root_causes += f.root_causes.empty() ? 0 : 1;
        with_disabled += f.disabled.empty() ? 0 : 1;
        // The same analysis as `gameplan explain` on the query's enable mask.
        std::vector<std::uint8_t> mask(actions);
        for (std::uint32_t i = 0; i < actions; ++i) mask[i] = enabled[i] ? 1 : 0;
        const NoPlanAnalysis a = analyze_no_plan(d, start, goal, mask);
        EXPECT_EQ(keys(f.unreachable), keys(a.unreachable));
        EXPECT_EQ(f.root_causes, a.root_causes);
        std::vector<Literal> flat;
        std::vector<std::uint32_t> sizes;
        for (const auto& c : a.cycles) {
            flat.insert(flat.end(), c.begin(), c.end());
            sizes.push_back(static_cast<std::uint32_t>(c.size()));
        }
        EXPECT_EQ(f.cycle_literals, flat);
        EXPECT_EQ(f.cycle_sizes, sizes);
        EXPECT_EQ(f.disabled, a.disabled);
    }
    // The random domains exercise every part (figures for this seed, not tuned).
    EXPECT_GE(analysed, 20);
    EXPECT_GE(with_root_causes, 10);
    EXPECT_GE(with_disabled, 3);
}

TEST(AgentNoPlanAnalysis, NamesTheActionAContextCheckSwitchedOffAndRespectsTheBudget) {
    DomainBuilder b;
    ASSERT_EQ(b.add_action("attack", 1, {{"sees_player", true}}, {{"target_hit", true}}), DomainError::None);
    ASSERT_EQ(b.add_action("look", 1, {}, {{"sees_player", true}}), DomainError::None);
    ASSERT_EQ(b.add_action("fetch", 1, {{"has_key", true}}, {{"door_open", true}}), DomainError::None);
    const Domain d = b.build();
    AgentTypeBuilder tb(d, "guard");
    for (const char* a : {"attack", "look", "fetch"}) tb.bind(a, Behaviour([](ActionContext&) { return ActionStatus::Running; }));
    tb.set_check("look", [](const PlanningContext&) { return false; });
    const BindResult type = tb.build();
    ASSERT_TRUE(type.ok());
    Condition hit = d.make_condition(), open = d.make_condition();
    hit.set(d.find_atom("target_hit"), true);
    open.set(d.find_atom("door_open"), true);
    for (const std::uint32_t budget : {0u, 1u, 4u}) {
        SCOPED_TRACE("budget " + std::to_string(budget));
        AgentSystemOptions options;
        options.explain_no_plan = budget;
        AgentSystem system(d, options);
        Recorder rec;
        system.set_observer(&rec);
        AgentParams p;
        p.name = "guard";
        p.type = type.type;
        p.goals = {AgentGoal{"kill", hit, 2, {}}, AgentGoal{"open", open, 1, {}}};
        const AgentId id = system.add_agent(std::move(p));
        system.tick();
        ASSERT_EQ(rec.failures.size(), 2u);
        EXPECT_EQ(rec.failures[0].analyzed, budget >= 1);
        EXPECT_EQ(rec.failures[1].analyzed, budget >= 2);
        if (budget >= 1) {
            // target_hit waits for sees_player, which only the switched-off `look` sets.
            EXPECT_EQ(rec.failures[0].text,
                      "no plan for kill: unreachable target_hit=true; root causes (nothing enabled sets them) sees_player=true; "
                      "switched off: look");
        } else {
            EXPECT_EQ(rec.failures[0].text, "no plan for kill: unreachable target_hit=true");
        }
        if (budget >= 2) {
            EXPECT_EQ(rec.failures[1].text,
                      "no plan for open: unreachable door_open=true; root causes (nothing enabled sets them) has_key=true");
        }
        // The budget is per tick: a later selection is analysed again.
        system.find(id)->request_replan();
        system.tick();
        ASSERT_EQ(rec.failures.size(), 4u);
        EXPECT_EQ(rec.failures[2].analyzed, budget >= 1);
    }
}

// A numeric goal: gold >= 10, which only `mine` (switched off by its context check) raises; `trade`
// sets gold to 2. The event carries the unreachable comparison and the numeric root cause, the same
// as analyze_no_plan with the agent's mask.
TEST(AgentNoPlanAnalysis, NumericGoalsCarryTheUnreachableComparisonAndItsRootCause) {
    DomainBuilder b;
    const VarId gold = b.add_integer_variable("gold", 0, 20);
    const NumericEffect mine_eff[] = {{gold, EffectOp::Add, 3}};
    const NumericEffect trade_eff[] = {{gold, EffectOp::Set, 2}};
    ASSERT_EQ(b.add_action("mine", 1, {}, {}, {}, mine_eff), DomainError::None);
    ASSERT_EQ(b.add_action("trade", 1, {}, {}, {}, trade_eff), DomainError::None);
    const Domain d = b.build();
    AgentTypeBuilder tb(d, "miner");
    for (const char* a : {"mine", "trade"}) tb.bind(a, Behaviour([](ActionContext&) { return ActionStatus::Running; }));
    tb.set_check("mine", [](const PlanningContext&) { return false; });
    const BindResult type = tb.build();
    ASSERT_TRUE(type.ok());
    Condition rich = d.make_condition();
    const Comparison ten{gold, CompareOp::Ge, 10};
    rich.require(ten);
    AgentSystemOptions options;
    options.explain_no_plan = 1;
    AgentSystem system(d, options);
    Recorder rec;
    system.set_observer(&rec);
    AgentParams p;
    p.name = "miner";
    p.type = type.type;
    p.goals = {AgentGoal{"rich", rich, 1, {}}};
    (void)system.add_agent(std::move(p));
    system.tick();
    ASSERT_EQ(rec.failures.size(), 1u);
    const Failure& f = rec.failures[0];
    ASSERT_TRUE(f.analyzed);
    EXPECT_EQ(f.unreachable_comparisons, std::vector<Comparison>{ten});
    EXPECT_EQ(f.numeric_root_causes, std::vector<Comparison>{ten});
    ASSERT_EQ(f.disabled.size(), 1u);
    EXPECT_EQ(d.action_name(f.disabled[0]), "mine");
    EXPECT_EQ(f.text,
              "no plan for rich: unreachable gold>=10; never holds (no enabled action changes the variable that way) gold>=10; "
              "switched off: mine");
}
