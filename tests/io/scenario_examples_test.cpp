// The shipped scenarios (examples/goap/scenarios/) are the runtime's acceptance test: each story's exact
// action sequence and replanning reasons, derived by hand from the seeds' domains, and the same trace
// for any thread count.
#include <gameplan/goap/agent_scenario.hpp>
#include <gameplan/io/load_error.hpp>
#include <gameplan/io/scenario_json.hpp>

#include <test_data.hpp>

#include <gtest/gtest.h>

namespace gameplan::goap {
namespace {

using Names = std::vector<std::string>;

Scenario load(const char* name) {
    return io::load_scenario_json(gameplan::test::source_dir() / "examples" / "goap" / "scenarios" / name);
}

struct ScenarioRun {
    std::unique_ptr<ScenarioRunner> runner;
    std::unique_ptr<ScenarioTrace> trace;
};

ScenarioRun run(const Scenario& s, Executor* executor = nullptr) {
    ScenarioRun r;
    r.runner = std::make_unique<ScenarioRunner>(s);
    EXPECT_EQ(r.runner->error(), "");
    r.trace = std::make_unique<ScenarioTrace>(*r.runner, s.domain);
    r.runner->set_observer(r.trace.get());
    r.runner->run(0, executor);
    return r;
}

std::vector<ReplanTrigger> triggers(const ScenarioTrace& t, std::string_view agent) {
    std::vector<ReplanTrigger> out;
    for (const TraceRecord& r : t.of(agent, AgentEventKind::Replan)) {
        for (std::size_t i = 0; i < kReplanTriggerCount; ++i)
            if (r.text == "replan: " + std::string(to_string(static_cast<ReplanTrigger>(i))) ||
                r.text.rfind("replan: " + std::string(to_string(static_cast<ReplanTrigger>(i))) + " (", 0) == 0)
                out.push_back(static_cast<ReplanTrigger>(i));
    }
    return out;
}

std::vector<std::string> texts(const ScenarioTrace& t, std::string_view agent, AgentEventKind kind) {
    std::vector<std::string> out;
    for (const TraceRecord& r : t.of(agent, kind)) {
        std::string line(1, 't');  // (not "t" + ...: GCC 12 -Wrestrict false positive at -O3)
        line += std::to_string(r.tick);
        line += ' ';
        line += r.text;
        out.push_back(std::move(line));
    }
    return out;
}

TEST(ScenarioExamples, SpaceShooter) {
    const Scenario s = load("space_shooter.json");
    const ScenarioRun r = run(s);
    const ScenarioTrace& t = *r.trace;
    // Healthy: aim then shoot. Hit mid-aim (unsafe, aim fails): evade then the low-accuracy shot.
    // Player weak and ammunition: chase.
    EXPECT_EQ(t.actions_started("enemy"), (Names{"aim", "shoot", "aim", "evade", "low_accuracy_shot", "chase"}));
    EXPECT_EQ(texts(t, "enemy", AgentEventKind::PlanFound),
              (Names{"t0 plan found for kill_player: aim, shoot (cost 5)", "t5 plan found for kill_player: aim, shoot (cost 5)",
                     "t7 plan found for kill_player: evade, low_accuracy_shot (cost 2)", "t12 plan found for kill_player: chase (cost 4)"}));
    EXPECT_EQ(texts(t, "enemy", AgentEventKind::ActionFailed), (Names{"t6 action failed: aim (2 ticks)"}));
    using T = ReplanTrigger;
    EXPECT_EQ(triggers(t, "enemy"), (std::vector<T>{T::Start, T::GoalReached, T::ViewChanged, T::ActionFailed, T::GoalReached,
                                                    T::ViewChanged, T::GoalReached}));
    EXPECT_EQ(texts(t, "enemy", AgentEventKind::ActionStarted).at(0), "t0 action started: aim [lock_on]");
    const Agent& enemy = *r.runner->system().find(r.runner->agents().at(0));
    EXPECT_EQ(enemy.status(), AgentStatus::Idle);
    EXPECT_TRUE(r.runner->system().blackboard().get(s.domain.find_atom("击杀玩家")));
}

TEST(ScenarioExamples, HungerReplansToTheRestaurantWhenTheSupermarketCloses) {
    const Scenario s = load("hunger.json");
    const ScenarioRun r = run(s);
    const ScenarioTrace& t = *r.trace;
    EXPECT_EQ(texts(t, "alice", AgentEventKind::PlanFound),
              (Names{"t0 plan found for not_hungry: buy_vegetables, cook, eat (cost 30)",
                     "t1 plan found for not_hungry: go_to_restaurant (cost 40)"}));
    EXPECT_EQ(t.actions_started("alice"), (Names{"buy_vegetables", "go_to_restaurant"}));
    EXPECT_EQ(texts(t, "alice", AgentEventKind::ActionAborted),
              (Names{"t1 action aborted: buy_vegetables (preconditions_lost, after 1 tick)"}));
    using T = ReplanTrigger;
    EXPECT_EQ(triggers(t, "alice"), (std::vector<T>{T::Start, T::PreconditionsFailed, T::GoalReached}));
    // Bob had vegetables: the closing does not concern his plan, so he never replans because of it.
    EXPECT_EQ(t.actions_started("bob"), (Names{"cook", "eat"}));
    EXPECT_EQ(triggers(t, "bob"), (std::vector<T>{T::Start, T::GoalReached}));
    const AtomId hungry = s.domain.find_atom("hungry");
    for (const AgentId id : r.runner->agents()) EXPECT_FALSE(r.runner->system().find(id)->private_state().get(hungry));
}

TEST(ScenarioExamples, ArcherAndGunnerShareOneActionSet) {
    const Scenario s = load("archer_gunner.json");
    const ScenarioRun r = run(s);
    const ScenarioTrace& t = *r.trace;
    EXPECT_EQ(texts(t, "archer", AgentEventKind::ActionStarted),
              (Names{"t0 action started: approach [walk]", "t2 action started: ready_weapon [nock_arrow]",
                     "t3 action started: attack [bow_shot]", "t6 action started: attack [bow_shot]"}));
    EXPECT_EQ(texts(t, "gunner", AgentEventKind::ActionStarted),
              (Names{"t0 action started: approach [walk]", "t2 action started: ready_weapon [load_magazine]",
                     "t3 action started: attack [rifle_shot]", "t6 action started: ready_weapon [load_magazine]",
                     "t7 action started: attack [rifle_shot]"}));
    // The gunner brings the shared target down first; the archer's goal is then reached by someone else.
    EXPECT_EQ(texts(t, "archer", AgentEventKind::ActionAborted),
              (Names{"t4 action aborted: attack (goal_reached, after 1 tick)", "t8 action aborted: attack (goal_reached, after 2 ticks)"}));
    EXPECT_TRUE(t.of("gunner", AgentEventKind::ActionAborted).empty());
    for (const TraceRecord& rec : t.records()) EXPECT_EQ(rec.text.find("bayonet"), std::string::npos) << rec.text;
}

TEST(ScenarioExamples, HigherPriorityGoalPreemptsAndTheOldGoalResumes) {
    const Scenario s = load("flee_priority.json");
    const ScenarioRun r = run(s);
    const ScenarioTrace& t = *r.trace;
    EXPECT_EQ(t.actions_started("woodcutter"),
              (Names{"go_to_forest", "chop_wood", "flee_to_shelter", "rest", "go_to_forest", "chop_wood", "carry_home"}));
    EXPECT_EQ(texts(t, "woodcutter", AgentEventKind::GoalChosen),
              (Names{"t0 goal chosen: gather_wood (priority 1)", "t3 goal chosen: recover (priority 10), was gather_wood",
                     "t6 goal chosen: gather_wood (priority 1), was recover"}));
    EXPECT_EQ(texts(t, "woodcutter", AgentEventKind::ActionAborted),
              (Names{"t3 action aborted: chop_wood (replaced, after 1 tick)"}));
    // The more important but impossible goal is reported, with its unreachable atom and the root cause
    // the no-plan analysis finds (nothing in the domain sets has_meat), and skipped.
    const std::string why = " no plan for hunt: unreachable has_meat=true; root causes (nothing enabled sets them) has_meat=true";
    EXPECT_EQ(texts(t, "woodcutter", AgentEventKind::PlanFailed), (Names{"t0" + why, "t6" + why, "t13" + why}));
    using T = ReplanTrigger;
    EXPECT_EQ(triggers(t, "woodcutter"), (std::vector<T>{T::Start, T::HigherPriorityGoal, T::GoalReached, T::GoalReached}));
    const Agent& w = *r.runner->system().find(r.runner->agents().at(0));
    EXPECT_EQ(w.status(), AgentStatus::Idle);
    EXPECT_EQ(w.idle_reason(), IdleReason::NoPlan);
    EXPECT_TRUE(w.private_state().get(s.domain.find_atom("wood_stored")));
}

TEST(ScenarioExamples, SameTraceOnAnyThreadCount) {
    for (const char* name : {"space_shooter.json", "hunger.json", "archer_gunner.json", "flee_priority.json"}) {
        const Scenario s = load(name);
        const std::string reference = run(s).trace->text();
        for (const std::size_t threads : {1, 2, 4}) {
            ThreadPool pool(threads);
            EXPECT_EQ(run(s, &pool).trace->text(), reference) << name << " on " << threads << " threads";
        }
    }
}

}  // namespace
}  // namespace gameplan::goap
