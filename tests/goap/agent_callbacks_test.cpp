// Procedural preconditions (context checks) and dynamic costs: when they run, and that every plan the
// runtime adopts is optimal for the costs and enable mask they produced (checked against an
// independent brute-force Dijkstra over complete states).
#include "agent_test_util.hpp"

#include <gameplan/goap/agent.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace gameplan::goap {
namespace {

using test::Recorder;
using test::Script;
using Names = std::vector<std::string>;

Domain routes_domain() {
    DomainBuilder b;
    (void)b.add_action("walk_to_tree", 1, {}, {{"at_tree", true}});
    (void)b.add_action("chop", 1, {{"at_tree", true}}, {{"has_wood", true}});
    (void)b.add_action("buy_wood", 6, {}, {{"has_wood", true}});
    (void)b.add_action("sing", 1, {}, {{"happy", true}});  // irrelevant to the wood goal
    return b.build();
}

TEST(AgentCallbacks, DynamicCostsDecideThePlanAndOnlyRelevantActionsAreAsked) {
    const Domain d = routes_domain();
    double tree_distance = 2;
    int walk_calls = 0, sing_calls = 0;
    const auto type = test::scripted_type(d, {}, {}, [&](AgentTypeBuilder& b) {
        b.set_cost("walk_to_tree", [&](const PlanningContext&) {
            ++walk_calls;
            return tree_distance;
        });
        b.set_cost("sing", [&](const PlanningContext&) {
            ++sing_calls;
            return 1.0;
        });
    });
    for (const double distance : {2.0, 10.0, std::numeric_limits<double>::infinity(), std::nan(""), -1.0}) {
        tree_distance = distance;
        AgentSystem s(d);
        Recorder rec;
        s.set_observer(&rec);
        AgentParams p;
        p.name = "v";
        p.type = type;
        p.goals = {test::goal(d, "wood", {{"has_wood", true}})};
        ASSERT_TRUE(s.add_agent(std::move(p)).valid());
        walk_calls = 0;
        s.tick();
        EXPECT_EQ(walk_calls, 1) << distance;
        const auto found = rec.of("v", AgentEventKind::PlanFound).at(0);
        if (distance == 2.0) {
            EXPECT_EQ(found.plan, (Names{"walk_to_tree", "chop"}));
            EXPECT_EQ(found.cost, 3);
        } else {  // too far, no tree at all (+inf), or a bad value: walking is not an option
            EXPECT_EQ(found.plan, (Names{"buy_wood"})) << distance;
            EXPECT_EQ(found.cost, 6);
        }
    }
    EXPECT_EQ(sing_calls, 0);
}

TEST(AgentCallbacks, NotifyContextChangedRetriesAnIdleAgent) {
    const Domain d = routes_domain();
    bool tree_nearby = false;
    const auto type = test::scripted_type(d, {}, {"buy_wood"}, [&](AgentTypeBuilder& b) {
        b.set_check("walk_to_tree", [&](const PlanningContext&) { return tree_nearby; });
    });
    AgentSystem s(d);
    Recorder rec;
    s.set_observer(&rec);
    AgentParams p;
    p.name = "v";
    p.type = type;
    p.goals = {test::goal(d, "wood", {{"has_wood", true}})};
    const AgentId id = s.add_agent(std::move(p));
    for (int i = 0; i < 50; ++i) s.tick();
    EXPECT_EQ(s.find(id)->idle_reason(), IdleReason::NoPlan);
    EXPECT_EQ(s.find(id)->stats().checks, 1u);
    const auto failed = rec.of("v", AgentEventKind::PlanFailed);
    ASSERT_EQ(failed.size(), 1u);
    ASSERT_EQ(failed[0].unreachable.size(), 1u);  // the check disabled walking, so nothing reaches has_wood
    EXPECT_EQ(failed[0].unreachable[0].atom, d.find_atom("has_wood"));
    tree_nearby = true;  // a tree was planted: atoms did not change, so the game tells the agent
    s.find(id)->notify_context_changed();
    for (int i = 0; i < 4; ++i) s.tick();
    EXPECT_EQ(rec.started("v"), (Names{"walk_to_tree", "chop"}));
}

// ---- property test against a brute-force reference ----------------------------------------------

struct Rng {
    std::mt19937_64 gen;
    explicit Rng(std::uint64_t seed) : gen(seed) {}
    std::uint64_t below(std::uint64_t n) { return std::uniform_int_distribution<std::uint64_t>(0, n - 1)(gen); }
    bool coin(double p) { return std::uniform_real_distribution<double>(0, 1)(gen) < p; }
};

Domain random_domain(Rng& rng, std::size_t atoms, std::size_t actions) {
    DomainBuilder b;
    for (std::size_t i = 0; i < atoms; ++i) b.add_atom("a" + std::to_string(i), i < 2);  // two shared atoms
    for (std::size_t k = 0; k < actions; ++k) {
        std::vector<Literal> pre, eff;
        for (std::size_t i = 0; i < atoms; ++i) {
            if (rng.coin(0.2)) pre.push_back({AtomId(static_cast<std::uint32_t>(i)), rng.coin(0.5)});
            else if (rng.coin(0.25)) eff.push_back({AtomId(static_cast<std::uint32_t>(i)), rng.coin(0.6)});
        }
        if (eff.empty()) eff.push_back({AtomId(static_cast<std::uint32_t>(rng.below(atoms))), true});
        EXPECT_EQ(b.add_action("act" + std::to_string(k), static_cast<double>(1 + rng.below(6)), pre, eff), DomainError::None);
    }
    return b.build();
}

// Pure functions of (agent, action, view) so that the test can recompute what the runtime was given.
std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    return x ^ (x >> 33);
}
double dyn_cost(std::uint64_t agent, ActionId a, const WorldState& view) {
    const std::uint64_t h = mix(agent * 1315423911ULL + a.value * 2654435761ULL + view.words()[0]);
    return static_cast<double>(h % 9);  // 0..8: zero costs included
}
bool dyn_check(std::uint64_t agent, ActionId a, const WorldState& view) {
    return mix(agent * 97 + a.value * 31 + view.words()[0] * 7) % 5 != 0;
}

TEST(AgentCallbacks, EveryAdoptedPlanIsOptimalForTheGivenCostsAndMask) {
    int checked_found = 0, checked_failed = 0;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        Rng rng(seed);
        const Domain d = random_domain(rng, 7 + rng.below(3), 8 + rng.below(8));
        // Half the actions have a dynamic cost, a third a context check.
        std::vector<bool> has_cost(d.action_count()), has_check(d.action_count());
        for (std::size_t a = 0; a < d.action_count(); ++a) {
            has_cost[a] = rng.coin(0.5);
            has_check[a] = rng.coin(0.33);
        }
        AgentTypeBuilder b(d, "random");
        for (std::uint32_t a = 0; a < d.action_count(); ++a) {
            const std::string& name = d.action_name(ActionId(a));
            // Behaviours succeed after 1-2 ticks, or fail, depending on the action (deterministically).
            const Script script{static_cast<std::uint32_t>(1 + a % 2), a % 5 != 3};
            b.bind(name, test::scripted(script));
            if (has_cost[a])
                b.set_cost(name, [](const PlanningContext& c) {
                    return dyn_cost(reinterpret_cast<std::uintptr_t>(c.user_data), c.action, c.view);
                });
            if (has_check[a])
                b.set_check(name, [](const PlanningContext& c) {
                    return dyn_check(reinterpret_cast<std::uintptr_t>(c.user_data), c.action, c.view);
                });
        }
        const BindResult type = b.build();
        ASSERT_TRUE(type.ok()) << type.message();

        AgentSystem s(d);
        struct Checker final : AgentObserver {
            const Domain* d;
            std::vector<bool>* has_cost;
            std::vector<bool>* has_check;
            int* found;
            int* failed;
            void on_event(const Agent& agent, const AgentEvent& e) override {
                if (e.kind != AgentEventKind::PlanFound && e.kind != AgentEventKind::PlanFailed) return;
                // Events of the think phase are delivered before the act phase: the agent's view is still
                // the one it planned from.
                const WorldState& view = agent.view();
                const auto who = reinterpret_cast<std::uintptr_t>(agent.user_data());
                std::vector<bool> enabled(d->action_count());
                std::vector<double> costs(d->action_count());
                for (std::uint32_t a = 0; a < d->action_count(); ++a) {
                    enabled[a] = !(*has_check)[a] || dyn_check(who, ActionId(a), view);
                    costs[a] = (*has_cost)[a] ? dyn_cost(who, ActionId(a), view) : d->action_cost(ActionId(a));
                }
                const Condition& goal = agent.goals()[e.goal].condition;
                const std::optional<double> best = test::brute_force_cost(*d, view, goal, enabled, costs);
                if (e.kind == AgentEventKind::PlanFailed) {
                    EXPECT_FALSE(best.has_value());
                    ++*failed;
                    return;
                }
                ASSERT_TRUE(best.has_value());
                EXPECT_DOUBLE_EQ(e.cost, *best);
                // The plan is executable from the view with enabled actions, costs what it says, and
                // reaches the goal.
                WorldState s = view;
                double total = 0;
                for (const ActionId a : e.plan) {
                    EXPECT_TRUE(enabled[a.value]);
                    EXPECT_TRUE(s.satisfies(d->preconditions(a)));
                    s.apply(d->effects(a));
                    total += costs[a.value];
                }
                EXPECT_TRUE(s.satisfies(goal));
                EXPECT_DOUBLE_EQ(total, e.cost);
                ++*found;
            }
        } checker;
        checker.d = &d;
        checker.has_cost = &has_cost;
        checker.has_check = &has_check;
        checker.found = &checked_found;
        checker.failed = &checked_failed;
        s.set_observer(&checker);
        for (std::uintptr_t i = 1; i <= 4; ++i) {
            AgentParams p;
            p.name = "agent" + std::to_string(i);
            p.type = type.type;
            p.user_data = reinterpret_cast<void*>(i);
            for (int g = 0; g < 3; ++g) {
                Condition c = d.make_condition();
                for (std::uint32_t k = 0; k < 1 + rng.below(2); ++k) c.set(AtomId(static_cast<std::uint32_t>(rng.below(d.atom_count()))), rng.coin(0.7));
                p.goals.push_back(AgentGoal{"g" + std::to_string(g), c, static_cast<double>(rng.below(3)), {}});
            }
            p.direction = rng.coin(0.5) ? Direction::Forward : Direction::Backward;
            ASSERT_TRUE(s.add_agent(std::move(p)).valid());
        }
        for (int t = 0; t < 40; ++t) {
            if (rng.coin(0.2)) (void)s.blackboard().set(AtomId(static_cast<std::uint32_t>(rng.below(2))), rng.coin(0.5));
            s.tick();
        }
    }
    EXPECT_GT(checked_found, 200);
    EXPECT_GT(checked_failed, 20);
}

}  // namespace
}  // namespace gameplan::goap

namespace gameplan::goap {
namespace {

// Agents that share a situation share planner answers: with per-agent costs that take 25 values, only
// the first query of each distinct (view, goal, costs) is searched, and the trace is the same as with
// no cache at all.
TEST(AgentPlanCache, RepeatedQueriesAreAnsweredWithoutSearchingAndChangeNothing) {
    const Domain d = routes_domain();
    AgentTypeBuilder b(d, "t");
    for (std::uint32_t a = 0; a < d.action_count(); ++a)
        b.bind(d.action_name(ActionId(a)), Behaviour([](ActionContext&) { return ActionStatus::Failure; }));
    b.set_cost("walk_to_tree", [](const PlanningContext& c) { return static_cast<double>(c.agent.id().index % 25) / 4.0; });
    const auto type = b.build().type;
    const auto run = [&](std::size_t entries) {
        AgentSystemOptions options;
        options.plan_cache_entries = entries;
        AgentSystem s(d, options);
        Recorder rec;
        s.set_observer(&rec);
        for (int i = 0; i < 200; ++i) {
            AgentParams p;
            p.name = "villager";
            p.name += std::to_string(i);
            p.type = type;
            p.goals = {test::goal(d, "wood", {{"has_wood", true}})};
            (void)s.add_agent(std::move(p));
        }
        for (int t = 0; t < 5; ++t) s.tick();
        return std::make_pair(rec.text(), s.total_stats());
    };
    const auto [cached_trace, cached] = run(1024);
    const auto [plain_trace, plain] = run(0);
    EXPECT_EQ(cached_trace, plain_trace);
    EXPECT_EQ(cached.searches, plain.searches);
    EXPECT_EQ(cached.expanded, plain.expanded);
    EXPECT_EQ(plain.cache_hits, 0u);
    EXPECT_EQ(cached.searches, 1000u);
    EXPECT_EQ(cached.cache_hits, 1000u - 25u);  // 25 distinct cost values, one search each
}

}  // namespace
}  // namespace gameplan::goap
