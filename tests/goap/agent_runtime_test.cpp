// The agent tick loop, every replanning trigger, goal selection, idle behaviour and counters.
// Expected traces are derived by hand from each tiny domain (see the comments), not recorded.
#include "agent_test_util.hpp"

#include <gameplan/goap/agent.hpp>

#include <gtest/gtest.h>

#include <cmath>
#include <thread>

namespace gameplan::goap {
namespace {

using test::cond;
using test::Lits;
using test::Recorder;
using test::Script;

using Trig = ReplanTrigger;
using Names = std::vector<std::string>;

AgentId add(AgentSystem& s, std::string name, std::shared_ptr<const AgentType> type, std::vector<AgentGoal> goals,
            WorldState st = {}, void* user = nullptr) {
    AgentParams p;
    p.name = std::move(name);
    p.type = std::move(type);
    p.goals = std::move(goals);
    p.state = std::move(st);
    p.user_data = user;
    const AgentId id = s.add_agent(std::move(p));
    EXPECT_TRUE(id.valid());
    return id;
}

Domain build(const std::function<void(DomainBuilder&)>& fn) {
    DomainBuilder b;
    fn(b);
    return b.build();
}

void tick(AgentSystem& s, int n) {
    for (int i = 0; i < n; ++i) s.tick();
}

TEST(AgentRuntime, TickLoopRunsThePlanAndAppliesEffectsOnSuccessOnly) {
    const Domain d = build([](DomainBuilder& b) {
        (void)b.add_action("step1", 1, {}, {{"a", true}});
        (void)b.add_action("step2", 1, {{"a", true}}, {{"b", true}});
        (void)b.add_action("finish", 1, {{"b", true}}, {{"done", true}});
    });
    AgentSystem s(d);
    Recorder rec;
    s.set_observer(&rec);
    const AgentId id = add(s, "w", test::scripted_type(d, {{"step1", Script{2}}}), {test::goal(d, "g", {{"done", true}})});
    Agent& w = *s.find(id);
    EXPECT_EQ(w.status(), AgentStatus::Idle);

    s.tick();  // tick 0: plan, start step1 (running)
    EXPECT_EQ(w.status(), AgentStatus::Acting);
    EXPECT_TRUE(w.action_running());
    EXPECT_FALSE(w.private_state().get(d.find_atom("a")));  // effects only on success
    s.tick();  // tick 1: step1 succeeds
    EXPECT_TRUE(w.private_state().get(d.find_atom("a")));
    EXPECT_FALSE(w.action_running());
    tick(s, 3);  // 2: step2, 3: finish, 4: goal reached -> idle
    EXPECT_EQ(w.status(), AgentStatus::Idle);
    EXPECT_EQ(w.idle_reason(), IdleReason::GoalsSatisfied);
    EXPECT_TRUE(w.private_state().get(d.find_atom("done")));

    EXPECT_EQ(rec.of("w", AgentEventKind::PlanFound).at(0).plan, (Names{"step1", "step2", "finish"}));
    EXPECT_EQ(rec.of("w", AgentEventKind::PlanFound).at(0).cost, 3);
    EXPECT_EQ(rec.started("w"), (Names{"step1", "step2", "finish"}));
    const auto ok = rec.of("w", AgentEventKind::ActionSucceeded);
    ASSERT_EQ(ok.size(), 3u);
    EXPECT_EQ(ok[0].tick, 1u);
    EXPECT_EQ(ok[0].ticks, 2u);
    EXPECT_EQ(ok[1].tick, 2u);
    EXPECT_EQ(ok[2].tick, 3u);
    EXPECT_EQ(rec.triggers("w"), (std::vector<Trig>{Trig::Start, Trig::GoalReached}));
    EXPECT_EQ(rec.of("w", AgentEventKind::Idle).at(0).tick, 4u);
    const AgentStats& st = w.stats();
    EXPECT_EQ(st.replans, 2u);
    EXPECT_EQ(st.searches, 1u);
    EXPECT_EQ(st.actions_started, 3u);
    EXPECT_EQ(st.actions_succeeded, 3u);
    EXPECT_EQ(st.updates, 4u);
}

TEST(AgentRuntime, SharedEffectsGoToTheWorldAndStartsAreRecheckedLive) {
    // Both agents plan open_door + enter. A opens the door in tick 0; B's open_door, checked against the
    // live view right before it starts (later in the same tick), no longer applies: B replans at tick 1
    // and only enters.
    const Domain d = build([](DomainBuilder& b) {
        b.add_atom("door_open", true);
        (void)b.add_action("open_door", 1, {{"door_open", false}}, {{"door_open", true}});
        (void)b.add_action("enter", 1, {{"door_open", true}}, {{"inside", true}});
    });
    AgentSystem s(d);
    Recorder rec;
    s.set_observer(&rec);
    const auto type = test::scripted_type(d);
    const AgentId a = add(s, "A", type, {test::goal(d, "in", {{"inside", true}})});
    const AgentId b = add(s, "B", type, {test::goal(d, "in", {{"inside", true}})});
    tick(s, 3);
    EXPECT_TRUE(s.blackboard().get(d.find_atom("door_open")));
    EXPECT_FALSE(s.find(a)->private_state().get(d.find_atom("door_open")));  // shared atoms live in the world
    EXPECT_TRUE(s.find(a)->private_state().get(d.find_atom("inside")));
    EXPECT_TRUE(s.find(b)->private_state().get(d.find_atom("inside")));
    EXPECT_EQ(rec.started("A"), (Names{"open_door", "enter"}));
    EXPECT_EQ(rec.started("B"), (Names{"enter"}));
    EXPECT_EQ(rec.triggers("A"), (std::vector<Trig>{Trig::Start, Trig::GoalReached}));
    EXPECT_EQ(rec.triggers("B"), (std::vector<Trig>{Trig::Start, Trig::PreconditionsFailed, Trig::GoalReached}));
    EXPECT_EQ(rec.of("B", AgentEventKind::Replan).at(1).action, "open_door");
    EXPECT_EQ(rec.of("B", AgentEventKind::Replan).at(1).tick, 1u);
}

TEST(AgentRuntime, FailureReplansAndBehaviourWritesAreSeenNextTick) {
    const Domain d = build([](DomainBuilder& b) {
        (void)b.add_action("way_a", 1, {{"a_broken", false}}, {{"done", true}});
        (void)b.add_action("way_b", 5, {}, {{"done", true}});
    });
    AgentTypeBuilder tb(d, "t");
    tb.bind("way_a", Behaviour([](ActionContext& c) {
        EXPECT_TRUE(c.agent.set("a_broken", true));
        return ActionStatus::Failure;
    }));
    tb.bind("way_b", test::scripted({}));
    const BindResult type = tb.build();
    ASSERT_TRUE(type.ok());
    AgentSystem s(d);
    Recorder rec;
    s.set_observer(&rec);
    add(s, "w", type.type, {test::goal(d, "g", {{"done", true}})});
    tick(s, 3);
    EXPECT_EQ(rec.started("w"), (Names{"way_a", "way_b"}));
    const auto failed = rec.of("w", AgentEventKind::ActionFailed);
    ASSERT_EQ(failed.size(), 1u);
    EXPECT_EQ(failed[0].action, "way_a");
    EXPECT_EQ(failed[0].tick, 0u);
    EXPECT_EQ(rec.triggers("w"), (std::vector<Trig>{Trig::Start, Trig::ActionFailed, Trig::GoalReached}));
    EXPECT_EQ(rec.of("w", AgentEventKind::Replan).at(1).action, "way_a");
    EXPECT_EQ(rec.of("w", AgentEventKind::PlanFound).at(1).plan, (Names{"way_b"}));
}

TEST(AgentRuntime, ExternalAbortStopsTheActionAndReplans) {
    const Domain d = build([](DomainBuilder& b) { (void)b.add_action("work", 1, {}, {{"done", true}}); });
    struct Hook {
        AbortReason reason;
        std::uint64_t tick;
        std::uint64_t ticks;
        std::thread::id thread;
    };
    std::vector<Hook> hooks;
    AgentTypeBuilder tb(d, "t");
    Behaviour work = test::scripted(Script{10});
    work.abort = [&hooks](ActionContext& c, AbortReason r) { hooks.push_back({r, c.tick, c.ticks_running, std::this_thread::get_id()}); };
    tb.bind("work", std::move(work));
    const auto type = tb.build().type;
    AgentSystem s(d);
    Recorder rec;
    s.set_observer(&rec);
    const AgentId id = add(s, "w", type, {test::goal(d, "g", {{"done", true}})});
    tick(s, 3);  // ticks 0-2: three updates
    s.find(id)->abort();
    s.tick();  // tick 3
    const auto aborted = rec.of("w", AgentEventKind::ActionAborted);
    ASSERT_EQ(aborted.size(), 1u);
    EXPECT_EQ(aborted[0].abort_reason, AbortReason::External);
    EXPECT_EQ(aborted[0].ticks, 3u);
    EXPECT_EQ(aborted[0].tick, 3u);
    ASSERT_EQ(hooks.size(), 1u);
    EXPECT_EQ(hooks[0].reason, AbortReason::External);
    EXPECT_EQ(hooks[0].thread, std::this_thread::get_id());
    EXPECT_EQ(rec.triggers("w"), (std::vector<Trig>{Trig::Start, Trig::ActionAborted}));
    EXPECT_EQ(rec.started("w"), (Names{"work", "work"}));  // restarted from scratch
    tick(s, 10);
    EXPECT_EQ(rec.of("w", AgentEventKind::ActionSucceeded).at(0).ticks, 10u);

    // Aborting an idle agent replans (nothing to abort) and changes nothing else.
    s.find(id)->abort();
    s.tick();
    EXPECT_EQ(rec.triggers("w").back(), Trig::ActionAborted);
    EXPECT_EQ(rec.of("w", AgentEventKind::ActionAborted).size(), 1u);
    EXPECT_EQ(s.find(id)->status(), AgentStatus::Idle);
}

TEST(AgentRuntime, RunningActionThatLosesItsPreconditionsIsAbortedAndReplaced) {
    const Domain d = build([](DomainBuilder& b) {
        b.add_atom("tree_exists", true);
        (void)b.add_action("chop", 1, {{"tree_exists", true}}, {{"has_wood", true}});
        (void)b.add_action("buy_wood", 10, {}, {{"has_wood", true}});
    });
    AgentSystem s(d);
    ASSERT_TRUE(s.blackboard().set("tree_exists", true));
    Recorder rec;
    s.set_observer(&rec);
    add(s, "w", test::scripted_type(d, {{"chop", Script{5}}}), {test::goal(d, "g", {{"has_wood", true}})});
    tick(s, 2);
    ASSERT_TRUE(s.blackboard().set("tree_exists", false));  // between tick 1 and 2: someone felled it
    tick(s, 2);
    const auto aborted = rec.of("w", AgentEventKind::ActionAborted);
    ASSERT_EQ(aborted.size(), 1u);
    EXPECT_EQ(aborted[0].action, "chop");
    EXPECT_EQ(aborted[0].abort_reason, AbortReason::PreconditionsLost);
    EXPECT_EQ(aborted[0].tick, 2u);
    EXPECT_EQ(rec.triggers("w"), (std::vector<Trig>{Trig::Start, Trig::PreconditionsFailed, Trig::GoalReached}));
    EXPECT_EQ(rec.started("w"), (Names{"chop", "buy_wood"}));
}

TEST(AgentRuntime, NextActionWhosePreconditionsNoLongerHoldTriggersAReplan) {
    const Domain d = build([](DomainBuilder& b) {
        b.add_atom("bridge_up", true);
        (void)b.add_action("step_a", 1, {}, {{"a", true}});
        (void)b.add_action("step_b", 1, {{"a", true}, {"bridge_up", true}}, {{"done", true}});
        (void)b.add_action("detour", 10, {}, {{"done", true}});
    });
    AgentSystem s(d);
    ASSERT_TRUE(s.blackboard().set("bridge_up", true));
    Recorder rec;
    s.set_observer(&rec);
    add(s, "w", test::scripted_type(d), {test::goal(d, "g", {{"done", true}})});
    s.tick();  // tick 0: step_a succeeds
    ASSERT_TRUE(s.blackboard().set("bridge_up", false));
    s.tick();  // tick 1: step_b can no longer start
    EXPECT_EQ(rec.triggers("w"), (std::vector<Trig>{Trig::Start, Trig::PreconditionsFailed}));
    EXPECT_EQ(rec.of("w", AgentEventKind::Replan).at(1).action, "step_b");
    EXPECT_TRUE(rec.of("w", AgentEventKind::ActionAborted).empty());
    EXPECT_EQ(rec.started("w"), (Names{"step_a", "detour"}));
}

TEST(AgentRuntime, ContextCheckRunsOncePerPlanningCallAndAgainBeforeStart) {
    const Domain d = build([](DomainBuilder& b) {
        (void)b.add_action("step_a", 1, {}, {{"a", true}});
        (void)b.add_action("step_b", 1, {{"a", true}}, {{"done", true}});
        (void)b.add_action("detour", 10, {}, {{"done", true}});
    });
    bool usable = true;
    int calls = 0;
    const auto type = test::scripted_type(d, {}, {}, [&](AgentTypeBuilder& b) {
        EXPECT_EQ(b.set_check("step_b", [&](const PlanningContext& c) {
                      EXPECT_EQ(c.action, c.agent.domain().find_action("step_b"));
                      ++calls;
                      return usable;
                  }),
                  BindErrorKind::None);
    });
    AgentSystem s(d);
    Recorder rec;
    s.set_observer(&rec);
    const AgentId id = add(s, "w", type, {test::goal(d, "g", {{"done", true}})});
    s.tick();  // planning call: 1 check; step_a runs
    EXPECT_EQ(calls, 1);
    usable = false;  // the game changed something the check reads, without telling the agent
    s.tick();  // before step_b starts: check again (false) -> replan, whose planning call checks once more
    EXPECT_EQ(calls, 3);
    EXPECT_EQ(s.find(id)->stats().checks, 3u);
    EXPECT_EQ(rec.triggers("w"), (std::vector<Trig>{Trig::Start, Trig::PreconditionsFailed}));
    EXPECT_EQ(rec.started("w"), (Names{"step_a", "detour"}));
    tick(s, 20);
    EXPECT_EQ(calls, 3);  // nothing changed since: never called again
}

TEST(AgentRuntime, PlanInvalidatedByTheWorldKeepsTheRunningActionWhenTheNewPlanStartsWithIt) {
    const Domain d = build([](DomainBuilder& b) {
        b.add_atom("power", true);
        (void)b.add_action("a", 1, {}, {{"x", true}});
        (void)b.add_action("b", 1, {{"x", true}}, {{"y", true}});
        (void)b.add_action("c", 1, {{"y", true}, {"power", true}}, {{"done", true}});
        (void)b.add_action("c_alt", 5, {{"y", true}}, {{"done", true}});
    });
    AgentSystem s(d);
    ASSERT_TRUE(s.blackboard().set("power", true));
    Recorder rec;
    s.set_observer(&rec);
    add(s, "w", test::scripted_type(d, {{"a", Script{3}}}), {test::goal(d, "g", {{"done", true}})});
    s.tick();
    ASSERT_TRUE(s.blackboard().set("power", false));  // c, two steps ahead, can no longer run
    tick(s, 6);
    EXPECT_EQ(rec.triggers("w"), (std::vector<Trig>{Trig::Start, Trig::PlanInvalidated, Trig::GoalReached}));
    EXPECT_EQ(rec.of("w", AgentEventKind::PlanFound).at(1).plan, (Names{"a", "b", "c_alt"}));
    EXPECT_TRUE(rec.of("w", AgentEventKind::ActionAborted).empty());
    EXPECT_EQ(rec.started("w"), (Names{"a", "b", "c_alt"}));  // a was not restarted
    EXPECT_EQ(rec.of("w", AgentEventKind::ActionSucceeded).at(0).ticks, 3u);
}

TEST(AgentRuntime, GoalThatBecomesUnreachableFallsBackToTheNextGoal) {
    // Crossing needs the bridge; when it collapses mid-plan the crossing goal has no plan any more
    // (its failure names the unreachable atom) and the agent falls back to its next goal.
    const Domain d = build([](DomainBuilder& b) {
        b.add_atom("bridge_up", true);
        (void)b.add_action("walk_to_bridge", 1, {}, {{"at_bridge", true}});
        (void)b.add_action("cross", 1, {{"at_bridge", true}, {"bridge_up", true}}, {{"across", true}});
        (void)b.add_action("fish", 1, {}, {{"fed", true}});
    });
    AgentSystem s(d);
    ASSERT_TRUE(s.blackboard().set("bridge_up", true));
    Recorder rec;
    s.set_observer(&rec);
    add(s, "w", test::scripted_type(d, {{"walk_to_bridge", Script{3}}}),
        {test::goal(d, "cross", {{"across", true}}, 2), test::goal(d, "eat", {{"fed", true}}, 1)});
    s.tick();
    ASSERT_TRUE(s.blackboard().set("bridge_up", false));
    tick(s, 2);
    EXPECT_EQ(rec.triggers("w"), (std::vector<Trig>{Trig::Start, Trig::PlanInvalidated, Trig::GoalReached}));
    const auto failed = rec.of("w", AgentEventKind::PlanFailed);
    ASSERT_EQ(failed.size(), 2u);  // at the replan (tick 1), and again once eating is done (tick 2)
    EXPECT_EQ(failed[0].goal, "cross");
    EXPECT_EQ(failed[0].tick, 1u);
    ASSERT_EQ(failed[0].unreachable.size(), 1u);
    EXPECT_EQ(failed[0].unreachable[0].atom, d.find_atom("across"));
    EXPECT_EQ(rec.of("w", AgentEventKind::GoalChosen).at(1).goal, "eat");
    EXPECT_EQ(rec.of("w", AgentEventKind::Idle).at(0).idle_reason, IdleReason::NoPlan);
    EXPECT_EQ(rec.of("w", AgentEventKind::ActionAborted).at(0).abort_reason, AbortReason::Replaced);
    EXPECT_EQ(rec.started("w"), (Names{"walk_to_bridge", "fish"}));
}

TEST(AgentRuntime, NoPlanLeftAbortsTheRunningActionAndIdles) {
    const Domain d = build([](DomainBuilder& b) {
        b.add_atom("power", true);
        (void)b.add_action("a", 1, {}, {{"x", true}});
        (void)b.add_action("b", 1, {{"x", true}, {"power", true}}, {{"done", true}});
    });
    AgentSystem s(d);
    ASSERT_TRUE(s.blackboard().set("power", true));
    Recorder rec;
    s.set_observer(&rec);
    const AgentId id = add(s, "w", test::scripted_type(d, {{"a", Script{3}}}), {test::goal(d, "g", {{"done", true}})});
    s.tick();
    ASSERT_TRUE(s.blackboard().set("power", false));
    s.tick();
    EXPECT_EQ(rec.triggers("w"), (std::vector<Trig>{Trig::Start, Trig::PlanInvalidated}));
    const auto aborted = rec.of("w", AgentEventKind::ActionAborted);
    ASSERT_EQ(aborted.size(), 1u);
    EXPECT_EQ(aborted[0].abort_reason, AbortReason::NoPlan);
    EXPECT_EQ(s.find(id)->status(), AgentStatus::Idle);
    EXPECT_EQ(s.find(id)->idle_reason(), IdleReason::NoPlan);
    EXPECT_TRUE(s.find(id)->plan().empty());
    ASSERT_TRUE(s.blackboard().set("power", true));  // back: the idle agent tries again
    tick(s, 5);
    EXPECT_EQ(rec.triggers("w").back(), Trig::GoalReached);
    EXPECT_EQ(rec.started("w"), (Names{"a", "a", "b"}));
}

TEST(AgentRuntime, GoalReachedByTheWorldAbortsTheRunningAction) {
    const Domain d = build([](DomainBuilder& b) {
        b.add_atom("done", true);
        (void)b.add_action("work", 1, {}, {{"done", true}});
    });
    AgentSystem s(d);
    Recorder rec;
    s.set_observer(&rec);
    add(s, "w", test::scripted_type(d, {{"work", Script{10}}}), {test::goal(d, "g", {{"done", true}})});
    tick(s, 3);
    ASSERT_TRUE(s.blackboard().set("done", true));  // someone else did it
    s.tick();
    const auto aborted = rec.of("w", AgentEventKind::ActionAborted);
    ASSERT_EQ(aborted.size(), 1u);
    EXPECT_EQ(aborted[0].abort_reason, AbortReason::GoalReached);
    EXPECT_EQ(rec.triggers("w"), (std::vector<Trig>{Trig::Start, Trig::GoalReached}));
    EXPECT_EQ(rec.of("w", AgentEventKind::Idle).at(0).idle_reason, IdleReason::GoalsSatisfied);
}

TEST(AgentRuntime, GoalDroppedWhenItsPriorityBecomesInactive) {
    const Domain d = build([](DomainBuilder& b) {
        b.add_atom("danger", true);
        (void)b.add_action("flee", 1, {}, {{"in_shelter", true}});
        (void)b.add_action("gather", 3, {}, {{"wood", true}});
    });
    AgentSystem s(d);
    ASSERT_TRUE(s.blackboard().set("danger", true));
    Recorder rec;
    s.set_observer(&rec);
    AgentGoal flee = test::goal(d, "flee", {{"in_shelter", true}});
    const AtomId danger = d.find_atom("danger");
    flee.priority_fn = [danger](const PlanningContext& c) { return c.view.get(danger) ? 10.0 : kInactivePriority; };
    add(s, "w", test::scripted_type(d, {{"flee", Script{5}}}), {flee, test::goal(d, "gather", {{"wood", true}}, 1)});
    tick(s, 2);
    ASSERT_TRUE(s.blackboard().set("danger", false));
    s.tick();
    EXPECT_EQ(rec.triggers("w"), (std::vector<Trig>{Trig::Start, Trig::GoalDropped}));
    EXPECT_EQ(rec.of("w", AgentEventKind::ActionAborted).at(0).abort_reason, AbortReason::Replaced);
    EXPECT_EQ(rec.started("w"), (Names{"flee", "gather"}));
    const auto chosen = rec.of("w", AgentEventKind::GoalChosen);
    EXPECT_EQ(chosen.at(1).goal, "gather");
    EXPECT_EQ(chosen.at(1).previous_goal, "flee");
}

TEST(AgentRuntime, HigherPriorityGoalPreemptsAndTheOldGoalResumes) {
    const Domain d = build([](DomainBuilder& b) {
        (void)b.add_action("work", 1, {}, {{"job_done", true}});
        (void)b.add_action("heal", 1, {{"hurt", true}}, {{"hurt", false}});
    });
    AgentSystem s(d);
    Recorder rec;
    s.set_observer(&rec);
    AgentGoal heal = test::goal(d, "heal", {{"hurt", false}});
    const AtomId hurt = d.find_atom("hurt");
    heal.priority_fn = [hurt](const PlanningContext& c) { return c.view.get(hurt) ? 10.0 : kInactivePriority; };
    const AgentId id = add(s, "w", test::scripted_type(d, {{"work", Script{5}}}), {test::goal(d, "job", {{"job_done", true}}, 1), heal});
    tick(s, 2);
    EXPECT_TRUE(s.find(id)->set(hurt, true));
    tick(s, 8);  // tick 2: heal (1 tick); 3-7: work again; 8: goal reached
    EXPECT_EQ(rec.triggers("w"), (std::vector<Trig>{Trig::Start, Trig::HigherPriorityGoal, Trig::GoalReached, Trig::GoalReached}));
    EXPECT_EQ(rec.started("w"), (Names{"work", "heal", "work"}));
    std::vector<std::string> goals;
    for (const auto& r : rec.of("w", AgentEventKind::GoalChosen)) goals.push_back(r.goal);
    EXPECT_EQ(goals, (Names{"job", "heal", "job"}));
    EXPECT_EQ(rec.of("w", AgentEventKind::ActionAborted).at(0).abort_reason, AbortReason::Replaced);
    EXPECT_EQ(rec.of("w", AgentEventKind::ActionSucceeded).back().tick, 7u);
    EXPECT_EQ(s.find(id)->status(), AgentStatus::Idle);
}

TEST(AgentRuntime, UnachievableHigherPriorityGoalLeavesThePlanAlone) {
    const Domain d = build([](DomainBuilder& b) {
        (void)b.add_action("work", 1, {}, {{"job_done", true}});
        b.add_atom("rich");
        b.add_atom("noise");
    });
    AgentSystem s(d);
    Recorder rec;
    s.set_observer(&rec);
    const AgentId id = add(s, "w", test::scripted_type(d, {{"work", Script{10}}}),
                           {test::goal(d, "job", {{"job_done", true}}, 1), test::goal(d, "dream", {{"rich", true}}, 5)});
    tick(s, 3);
    EXPECT_TRUE(s.find(id)->set("noise", true));
    tick(s, 7);  // tick 3: dream re-tried (view changed), still no plan: work continues to its end at tick 9
    EXPECT_EQ(rec.triggers("w"), (std::vector<Trig>{Trig::Start, Trig::HigherPriorityGoal}));
    EXPECT_TRUE(rec.of("w", AgentEventKind::ActionAborted).empty());
    EXPECT_EQ(rec.started("w"), (Names{"work"}));
    const auto failed = rec.of("w", AgentEventKind::PlanFailed);
    ASSERT_EQ(failed.size(), 2u);
    EXPECT_EQ(failed[0].goal, "dream");
    ASSERT_EQ(failed[0].unreachable.size(), 1u);
    EXPECT_EQ(failed[0].unreachable[0].atom, d.find_atom("rich"));
    EXPECT_TRUE(failed[0].unreachable[0].value);
    EXPECT_EQ(rec.of("w", AgentEventKind::ActionSucceeded).at(0).ticks, 10u);
    EXPECT_EQ(s.find(id)->stats().searches, 3u);
}

TEST(AgentRuntime, IdleAgentRetriesOnlyWhenItsViewOrContextChanges) {
    const Domain d = build([](DomainBuilder& b) {
        b.add_atom("shop_open", true);
        b.add_atom("weather", true);
        (void)b.add_action("buy_food", 1, {{"shop_open", true}}, {{"fed", true}});
    });
    AgentSystem s(d);
    Recorder rec;
    s.set_observer(&rec);
    const AgentId id = add(s, "w", test::scripted_type(d), {test::goal(d, "eat", {{"fed", true}})});
    const Agent& w = *s.find(id);
    tick(s, 1000);
    EXPECT_EQ(w.status(), AgentStatus::Idle);
    EXPECT_EQ(w.idle_reason(), IdleReason::NoPlan);
    EXPECT_EQ(w.stats().replans, 1u);
    EXPECT_EQ(w.stats().searches, 1u);
    const auto failed = rec.of("w", AgentEventKind::PlanFailed);
    ASSERT_EQ(failed.size(), 1u);
    ASSERT_EQ(failed[0].unreachable.size(), 1u);
    EXPECT_EQ(failed[0].unreachable[0].atom, d.find_atom("fed"));

    ASSERT_TRUE(s.blackboard().set("weather", true));  // a change: worth one more try
    tick(s, 100);
    EXPECT_EQ(w.stats().replans, 2u);
    EXPECT_EQ(w.stats().searches, 2u);
    ASSERT_TRUE(s.blackboard().set("weather", true));  // same value: not a change
    s.find(id)->notify_context_changed();               // but the game says its context changed
    tick(s, 100);
    EXPECT_EQ(w.stats().replans, 3u);
    ASSERT_TRUE(s.blackboard().set("shop_open", true));
    tick(s, 3);
    EXPECT_EQ(rec.triggers("w"), (std::vector<Trig>{Trig::Start, Trig::ViewChanged, Trig::ViewChanged, Trig::ViewChanged,
                                                    Trig::GoalReached}));
    EXPECT_EQ(rec.started("w"), (Names{"buy_food"}));
    EXPECT_EQ(w.idle_reason(), IdleReason::GoalsSatisfied);
}

TEST(AgentRuntime, RequestedReplan) {
    const Domain d = build([](DomainBuilder& b) { (void)b.add_action("work", 1, {}, {{"done", true}}); });
    AgentSystem s(d);
    Recorder rec;
    s.set_observer(&rec);
    const AgentId id = add(s, "w", test::scripted_type(d, {{"work", Script{5}}}), {test::goal(d, "g", {{"done", true}})});
    tick(s, 2);
    s.find(id)->request_replan();
    tick(s, 3);
    EXPECT_EQ(rec.triggers("w"), (std::vector<Trig>{Trig::Start, Trig::Requested}));
    EXPECT_TRUE(rec.of("w", AgentEventKind::ActionAborted).empty());  // same first action: it keeps running
    EXPECT_EQ(rec.of("w", AgentEventKind::ActionSucceeded).at(0).tick, 4u);
}

TEST(AgentRuntime, GoalsAreTriedByPriorityWithFallbackAndStableTies) {
    const Domain d = build([](DomainBuilder& b) {
        (void)b.add_action("get_x", 1, {}, {{"x", true}});
        (void)b.add_action("get_y", 1, {}, {{"y", true}});
        b.add_atom("z");
        b.add_atom("w");
    });
    AgentSystem s(d);
    Recorder rec;
    s.set_observer(&rec);
    const AgentId id = add(s, "a", test::scripted_type(d),
                           {test::goal(d, "gsat", {{"w", false}}, 100),  // already satisfied: skipped
                            test::goal(d, "gnan", {{"x", true}}, std::nan("")),  // inactive: skipped
                            test::goal(d, "gz", {{"z", true}}, 5),        // no plan: falls back
                            test::goal(d, "gy", {{"y", true}}, 3),        // ties with gx, declared first
                            test::goal(d, "gx", {{"x", true}}, 3)});
    s.tick();
    const auto failed = rec.of("a", AgentEventKind::PlanFailed);
    ASSERT_EQ(failed.size(), 1u);
    EXPECT_EQ(failed[0].goal, "gz");
    EXPECT_EQ(failed[0].priority, 5);
    EXPECT_EQ(rec.of("a", AgentEventKind::GoalChosen).at(0).goal, "gy");
    EXPECT_EQ(s.find(id)->stats().searches, 2u);
    tick(s, 2);  // gy done at tick 0; tick 1: gz fails again, gx chosen; tick 2... 
    std::vector<std::string> chosen;
    for (const auto& r : rec.of("a", AgentEventKind::GoalChosen)) chosen.push_back(r.goal);
    EXPECT_EQ(chosen, (Names{"gy", "gx"}));
    tick(s, 2);
    EXPECT_EQ(s.find(id)->status(), AgentStatus::Idle);
    EXPECT_EQ(s.find(id)->idle_reason(), IdleReason::NoPlan);  // gz is still active, unsatisfied, unplannable
}

TEST(AgentRuntime, AgentWithoutGoalsIsIdle) {
    const Domain d = build([](DomainBuilder& b) { (void)b.add_action("work", 1, {}, {{"done", true}}); });
    AgentSystem s(d);
    const AgentId id = add(s, "w", test::scripted_type(d), {});
    tick(s, 100);
    EXPECT_EQ(s.find(id)->status(), AgentStatus::Idle);
    EXPECT_EQ(s.find(id)->idle_reason(), IdleReason::GoalsSatisfied);
    EXPECT_EQ(s.find(id)->stats().replans, 1u);
    EXPECT_EQ(s.find(id)->stats().searches, 0u);
}

TEST(AgentRuntime, NoReplanningWhenNothingChanges) {
    // The counter property: ticks where nothing changed evaluate nothing (no replan, no search, no
    // callback), whatever the agent is doing; own effects are not news.
    const Domain d = build([](DomainBuilder& b) {
        b.add_atom("shop_open", true);
        b.add_atom("noise", true);
        (void)b.add_action("long_job", 1, {}, {{"job", true}});
        (void)b.add_action("buy", 1, {{"shop_open", true}}, {{"fed", true}});
        (void)b.add_action("s1", 1, {}, {{"p1", true}});
        (void)b.add_action("s2", 1, {{"p1", true}}, {{"p2", true}});
        (void)b.add_action("s3", 1, {{"p2", true}}, {{"p3", true}});
    });
    AgentSystem s(d);
    const auto type = test::scripted_type(d, {{"long_job", Script{100000}}});
    int priority_calls = 0;
    AgentGoal job = test::goal(d, "job", {{"job", true}});
    job.priority_fn = [&](const PlanningContext&) {
        ++priority_calls;
        return 1.0;
    };
    AgentGoal chain = test::goal(d, "chain", {{"p3", true}});
    chain.priority_fn = job.priority_fn;
    const AgentId busy = add(s, "busy", type, {job});
    const AgentId hungry = add(s, "hungry", type, {test::goal(d, "eat", {{"fed", true}})});
    const AgentId content = add(s, "content", type, {test::goal(d, "nothing", {{"fed", false}})});
    const AgentId walker = add(s, "walker", type, {chain});
    tick(s, 1000);
    const auto replans = [&](AgentId id) { return s.find(id)->stats().replans; };
    const auto searches = [&](AgentId id) { return s.find(id)->stats().searches; };
    EXPECT_EQ(replans(busy), 1u);
    EXPECT_EQ(searches(busy), 1u);
    EXPECT_EQ(replans(hungry), 1u);
    EXPECT_EQ(searches(hungry), 1u);
    EXPECT_EQ(replans(content), 1u);
    EXPECT_EQ(searches(content), 0u);
    EXPECT_EQ(replans(walker), 2u);  // start + goal reached after s1, s2, s3 (own effects are expected)
    EXPECT_EQ(searches(walker), 1u);
    EXPECT_EQ(priority_calls, 3);    // busy: 1 selection; walker: 2 selections
    EXPECT_EQ(s.find(busy)->stats().updates, 1000u);

    ASSERT_TRUE(s.blackboard().set("noise", true));  // one unrelated change
    tick(s, 1000);
    EXPECT_EQ(replans(busy), 1u);    // checked (plan still valid, no better goal): no replan
    EXPECT_EQ(searches(busy), 1u);
    EXPECT_EQ(replans(hungry), 2u);  // idle: one retry
    EXPECT_EQ(searches(hungry), 2u);
    EXPECT_EQ(replans(content), 2u);
    EXPECT_EQ(searches(content), 0u);
    EXPECT_EQ(priority_calls, 5);    // busy re-evaluated once for the change, walker's idle retry once
    EXPECT_EQ(s.total_stats().replans, 1u + 2u + 2u + 3u);
}

TEST(AgentRuntime, RemovedAgentsAbortTheirActionAndTheirHandlesDie) {
    const Domain d = build([](DomainBuilder& b) { (void)b.add_action("work", 1, {}, {{"done", true}}); });
    std::vector<AbortReason> hooks;
    AgentTypeBuilder tb(d, "t");
    Behaviour work = test::scripted(Script{10});
    work.abort = [&hooks](ActionContext&, AbortReason r) { hooks.push_back(r); };
    tb.bind("work", std::move(work));
    const auto type = tb.build().type;
    AgentSystem s(d);
    Recorder rec;
    s.set_observer(&rec);
    const AgentId a = add(s, "a", type, {test::goal(d, "g", {{"done", true}})});
    const AgentId b = add(s, "b", type, {test::goal(d, "g", {{"done", true}})});
    tick(s, 2);
    EXPECT_TRUE(s.remove_agent(a));
    EXPECT_FALSE(s.remove_agent(a));
    EXPECT_EQ(s.find(a), nullptr);
    EXPECT_EQ(hooks, (std::vector<AbortReason>{AbortReason::Removed}));
    EXPECT_EQ(rec.of("a", AgentEventKind::ActionAborted).at(0).abort_reason, AbortReason::Removed);
    EXPECT_EQ(s.agent_count(), 1u);
    const AgentId c = add(s, "c", type, {});
    EXPECT_EQ(c.index, a.index);  // slot reused...
    EXPECT_NE(c.generation, a.generation);  // ...under a new generation
    EXPECT_EQ(s.find(a), nullptr);
    EXPECT_NE(s.find(b), nullptr);
    tick(s, 10);
    EXPECT_EQ(s.find(b)->stats().actions_succeeded, 1u);
}

TEST(AgentRuntime, AtomOwnership) {
    const Domain d = build([](DomainBuilder& b) {
        b.add_atom("world_atom", true);
        b.add_atom("mine");
        (void)b.add_action("noop", 1, {}, {{"mine", true}});
    });
    AgentSystem s(d);
    WorldState st = d.make_state();
    st.set(d.find_atom("world_atom"), true);  // ignored: the world owns it
    st.set(d.find_atom("mine"), true);
    const AgentId id = add(s, "w", test::scripted_type(d), {}, st);
    Agent& w = *s.find(id);
    EXPECT_FALSE(w.private_state().get(d.find_atom("world_atom")));
    EXPECT_TRUE(w.private_state().get(d.find_atom("mine")));
    EXPECT_FALSE(w.set("world_atom", true));
    EXPECT_FALSE(w.set("no_such_atom", true));
    EXPECT_FALSE(s.blackboard().set("mine", true));
    const std::uint64_t v = s.blackboard().version();
    EXPECT_TRUE(s.blackboard().set("world_atom", false));  // unchanged value: no new version
    EXPECT_EQ(s.blackboard().version(), v);
    EXPECT_TRUE(s.blackboard().set("world_atom", true));
    EXPECT_EQ(s.blackboard().version(), v + 1);
    s.tick();
    EXPECT_TRUE(w.view().get(d.find_atom("world_atom")));
    EXPECT_TRUE(w.view().get(d.find_atom("mine")));
}

TEST(AgentRuntime, EventDescriptions) {
    const Domain d = build([](DomainBuilder& b) {
        (void)b.add_action("get_x", 2, {}, {{"x", true}});
        (void)b.add_action("use_x", 1.5, {{"x", true}}, {{"y", true}});
        b.add_atom("z");
    });
    AgentSystem s(d);
    Recorder rec;
    s.set_observer(&rec);
    add(s, "w", test::scripted_type(d), {test::goal(d, "gz", {{"z", true}}, 2), test::goal(d, "gy", {{"y", true}}, 1)});
    s.tick();
    EXPECT_EQ(rec.text(),
              "tick 0 w replan: start\n"
              "tick 0 w no plan for gz: unreachable z=true; root causes (nothing enabled sets them) z=true\n"
              "tick 0 w plan found for gy: get_x, use_x (cost 3.5)\n"
              "tick 0 w goal chosen: gy (priority 1)\n"
              "tick 0 w action started: get_x\n"
              "tick 0 w action succeeded: get_x (1 tick)\n");
}

// 24 independent goal atoms (2^24 states, h_max = 1): the goal's search explodes. The system's search
// memory budget and deadline stop it; the goal fails with BudgetExhausted (no unreachable literals: nothing
// is known), and the agent falls back to its next goal, whose small search is unaffected.
std::string numbered(const char* prefix, int i) {
    std::string s(prefix);
    s += std::to_string(i);  // (not prefix + to_string: GCC 12 -O3 warns falsely with -Wrestrict)
    return s;
}

Domain independent_goals(int n) {
    return build([n](DomainBuilder& b) {
        for (int i = 0; i < n; ++i) (void)b.add_action(numbered("set", i), 1, {}, {{numbered("g", i), true}});
        (void)b.add_action("rest", 1, {}, {{"rested", true}});
    });
}

std::vector<AgentGoal> all_or_rest(const Domain& d, int n) {
    Condition all = d.make_condition();
    for (int i = 0; i < n; ++i) all.set(d.find_atom(numbered("g", i)), true);
    return {AgentGoal{"all", all, 10, {}}, test::goal(d, "rest", {{"rested", true}}, 1)};
}

TEST(AgentBrakes, SearchMemoryBudgetFailsTheGoalAndTheAgentFallsBack) {
    const Domain d = independent_goals(24);
    AgentSystemOptions options;
    options.max_search_memory_bytes = std::size_t{1} << 20;
    AgentSystem s(d, options);
    Recorder rec;
    s.set_observer(&rec);
    (void)add(s, "w", test::scripted_type(d), all_or_rest(d, 24));
    s.tick();
    const auto failed = rec.of("w", AgentEventKind::PlanFailed);
    ASSERT_EQ(failed.size(), 1u);
    EXPECT_EQ(failed[0].goal, "all");
    EXPECT_EQ(failed[0].search_status, Status::BudgetExhausted);
    EXPECT_EQ(failed[0].search_limit, search::BudgetLimit::Memory);
    EXPECT_TRUE(failed[0].unreachable.empty());
    EXPECT_GT(failed[0].expanded, 0u);
    EXPECT_NE(failed[0].text.find("the search budget ran out"), std::string::npos) << failed[0].text;
    EXPECT_NE(failed[0].text.find("(memory limit)"), std::string::npos) << failed[0].text;
    const auto found = rec.of("w", AgentEventKind::PlanFound);
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].goal, "rest");
    EXPECT_EQ(found[0].plan, (Names{"rest"}));
}

TEST(AgentBrakes, PassedDeadlineStopsEverySearchAtOnce) {
    const Domain d = independent_goals(24);
    AgentSystem s(d);
    Recorder rec;
    s.set_observer(&rec);
    (void)add(s, "w", test::scripted_type(d), all_or_rest(d, 24));
    s.set_search_deadline(std::chrono::steady_clock::now() - std::chrono::seconds(1));
    s.tick();
    const auto failed = rec.of("w", AgentEventKind::PlanFailed);
    ASSERT_EQ(failed.size(), 2u);  // both goals: the deadline had passed before either search began
    for (const auto& f : failed) {
        EXPECT_EQ(f.search_status, Status::BudgetExhausted);
        EXPECT_EQ(f.search_limit, search::BudgetLimit::Time);
        EXPECT_LE(f.expanded, 64u);  // the deadline is checked every 64 expansions
    }
    EXPECT_TRUE(rec.of("w", AgentEventKind::PlanFound).empty());
    // Lifting the deadline lets the fallback goal plan again at the next selection.
    s.set_search_deadline(std::chrono::steady_clock::time_point::max());
    EXPECT_EQ(s.search_deadline(), std::chrono::steady_clock::time_point::max());
}

TEST(AgentBrakes, WithoutBrakesAnUnreachableGoalIsNoPathWithItsLiterals) {
    const Domain d = build([](DomainBuilder& b) {
        (void)b.add_action("a", 1, {}, {{"x", true}});
        (void)b.add_atom("never");
    });
    AgentSystem s(d);
    Recorder rec;
    s.set_observer(&rec);
    (void)add(s, "w", test::scripted_type(d), {test::goal(d, "g", {{"never", true}})});
    s.tick();
    const auto failed = rec.of("w", AgentEventKind::PlanFailed);
    ASSERT_EQ(failed.size(), 1u);
    EXPECT_EQ(failed[0].search_status, Status::NoPath);
    EXPECT_EQ(failed[0].search_limit, search::BudgetLimit::None);
    ASSERT_EQ(failed[0].unreachable.size(), 1u);
}

}  // namespace
}  // namespace gameplan::goap
