// Scenario JSON with numeric and enumerated variables: the world, agents' states and timeline events
// set, add to and check variables; goals compare them, read their priority from one, carry "when" and
// goal back-off. Expected traces are worked out by hand from the documented semantics (every scripted
// action takes one tick, effects apply when it succeeds, timeline events apply before the think phase).
#include <gameplan/goap/agent_scenario.hpp>
#include <gameplan/io/load_error.hpp>
#include <gameplan/io/scenario_json.hpp>

#include <load_errors.hpp>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gameplan::io {
namespace {

using goap::AgentEventKind;

// A woodcutter who sells wood for gold: wood is private, gold shared, location an enumeration.
const char* kDomain = R"("domain": {
  "variables": {"wood": {"max": 20}, "gold": {"max": 9, "shared": true}, "hunger": {"max": 10},
                "location": {"values": ["home", "forest"]}},
  "actions": [
    {"name": "walk", "cost": 4, "preconditions": {"location": ["!=", "forest"]}, "effects": {"location": ["=", "forest"]}},
    {"name": "chop", "cost": 1, "preconditions": {"location": ["==", "forest"]}, "effects": {"wood": ["+", 2]}},
    {"name": "sell", "cost": 1, "preconditions": {"wood": [">=", 2]}, "effects": {"wood": ["-", 2], "gold": ["+", 1]}},
    {"name": "eat", "cost": 1, "preconditions": {"hunger": [">=", 1]}, "effects": {"hunger": ["=", 0]}},
    {"name": "pray", "cost": 1, "effects": {"blessed": true}}
  ],
  "goals": {"rich": {"conditions": {"gold": [">=", 2]}, "priority": 1}}
})";
const char* kTypes = R"("types": {"cutter": {"actions": {"walk": 1, "chop": 1, "sell": 1, "eat": 1, "pray": {"succeeds": false}}}})";

std::string scenario(const std::string& rest) { return std::string("{") + kDomain + ",\n" + kTypes + ",\n" + rest + "\n}"; }

struct Run {
    goap::Scenario scenario;
    std::unique_ptr<goap::ScenarioRunner> runner;
    std::unique_ptr<goap::ScenarioTrace> trace;
};

std::unique_ptr<Run> run(const std::string& text, std::uint64_t ticks) {
    auto r = std::make_unique<Run>();
    r->scenario = parse_scenario_json(text, "n.json");
    r->runner = std::make_unique<goap::ScenarioRunner>(r->scenario);
    EXPECT_EQ(r->runner->error(), "");
    r->trace = std::make_unique<goap::ScenarioTrace>(*r->runner, r->scenario.domain);
    r->runner->set_observer(r->trace.get());
    r->runner->run(ticks);
    return r;
}

std::vector<std::string> texts(const Run& r, const std::string& agent, bool timeline_only = false) {
    std::vector<std::string> out;
    for (const goap::TraceRecord& t : r.trace->records())
        if (t.agent == agent && (!timeline_only || t.timeline)) out.push_back("t" + std::to_string(t.tick) + " " + t.text);
    return out;
}

std::vector<std::uint64_t> ticks_of(const Run& r, const std::string& agent, AgentEventKind kind) {
    std::vector<std::uint64_t> out;
    for (const goap::TraceRecord& t : r.trace->of(agent, kind)) out.push_back(t.tick);
    return out;
}

void expect_error(const std::string& text, std::string_view field, std::string_view message_part, std::string_view at,
                  std::size_t nth = 0) {
    const LoadError e = test::load_error_of([&] { (void)parse_scenario_json(text, "n.json"); }, text);
    test::expect_load_error(e, text, field, message_part, at, nth);
}

}  // namespace

TEST(ScenarioNumeric, SetAddAndExpectDriveAndCheckTheRun) {
    // Plan from home: walk, then two chop/sell rounds (cost 4 + 4); one tick per action, so gold reaches 2
    // in the act phase of tick 4 and the expectation at tick 5 holds. At tick 6 the world loses 5 gold
    // (clamped to 0, checked by the next expectation), and the wood expectation fails: all wood was sold.
    const std::string text = scenario(R"("agents": [{"name": "ann", "type": "cutter", "goals": ["rich"]}],
 "timeline": [
   {"tick": 0, "expect": {"gold": ["==", 0]}},
   {"tick": 0, "agent": "ann", "expect": {"location": "home", "wood": 0}},
   {"tick": 5, "expect": {"gold": [">=", 2]}},
   {"tick": 5, "agent": "ann", "expect": {"location": ["==", "forest"], "wood": ["<", 2]}},
   {"tick": 6, "add": {"gold": -5}},
   {"tick": 6, "expect": {"gold": 0}},
   {"tick": 6, "agent": "ann", "expect": {"wood": [">=", 7], "location": "home"}}
 ])");
    const auto r = run(text, 7);
    std::vector<std::string> started = r->trace->actions_started("ann");
    ASSERT_GE(started.size(), 5u);
    started.resize(5);
    EXPECT_EQ(started[0], "walk");
    EXPECT_EQ(std::count(started.begin(), started.end(), "chop"), 2);
    EXPECT_EQ(std::count(started.begin(), started.end(), "sell"), 2);
    EXPECT_EQ(r->runner->expectations_checked(), 6u);
    EXPECT_EQ(r->runner->expectations_failed(), 1u);
    const std::vector<std::string> world = texts(*r, "world", true);
    EXPECT_EQ(world, (std::vector<std::string>{"t0 timeline: expect gold==0", "t0 expectation met", "t5 timeline: expect gold>=2",
                                               "t5 expectation met", "t6 timeline: add gold-5", "t6 timeline: expect gold==0",
                                               "t6 expectation met"}));
    const std::vector<std::string> ann = texts(*r, "ann", true);
    ASSERT_EQ(ann.size(), 6u);
    EXPECT_EQ(ann[4], "t6 timeline: expect wood>=7, location==home");
    EXPECT_EQ(ann[5], "t6 expectation FAILED: wood=0, location=forest");
}

TEST(ScenarioNumeric, WorldAndAgentValuesAndTimelineSet) {
    // Gold 1 in the world, ann already in the forest with 2 wood: one sale reaches the goal. At tick 2
    // the timeline takes the gold back to 0 and gives her 4 wood: two sales.
    const auto r = run(scenario(R"("world": {"gold": 1},
 "agents": [{"name": "ann", "type": "cutter", "state": {"wood": 2, "location": "forest"}, "goals": ["rich"]}],
 "timeline": [{"tick": 2, "set": {"gold": 0}}, {"tick": 2, "agent": "ann", "set": {"wood": 4}}])"),
                       6);
    EXPECT_EQ(r->trace->actions_started("ann"), (std::vector<std::string>{"sell", "sell", "sell"}));
    EXPECT_EQ(texts(*r, "world", true), (std::vector<std::string>{"t2 timeline: set gold=0"}));
}

TEST(ScenarioNumeric, GoalsCompareReadTheirPriorityFromAVariableAndSwitchWithWhen) {
    // "eat" is as urgent as ann is hungry; "rich" has priority 1 but only while she is in the forest.
    const auto r = run(scenario(R"("agents": [{"name": "ann", "type": "cutter", "state": {"hunger": 0, "location": "forest"},
   "goals": [{"name": "eat", "conditions": {"hunger": ["==", 0]}, "priority": {"variable": "hunger", "scale": 2, "offset": -1}},
             {"name": "rich", "conditions": {"gold": [">=", 1]}, "priority": 1, "when": {"location": "forest"}}]}],
 "timeline": [{"tick": 1, "agent": "ann", "set": {"hunger": 3}}])"),
                       4);
    // t0: eat (priority -1) is satisfied anyway; rich is chosen (chop, sell). t1: hunger 3 -> eat has
    // priority 5 and pre-empts; after eating (t1) ann resumes rich.
    const std::vector<std::string> chosen = [&] {
        std::vector<std::string> out;
        for (const goap::TraceRecord& t : r->trace->of("ann", AgentEventKind::GoalChosen)) out.push_back("t" + std::to_string(t.tick) + " " + t.text);
        return out;
    }();
    ASSERT_GE(chosen.size(), 3u);
    EXPECT_EQ(chosen[0], "t0 goal chosen: rich (priority 1)");
    EXPECT_EQ(chosen[1], "t1 goal chosen: eat (priority 5), was rich");
    EXPECT_EQ(chosen[2], "t2 goal chosen: rich (priority 1), was eat");
}

TEST(ScenarioNumeric, GoalBackOffSkipsAFailingGoalAndRecovers) {
    // "pray" always fails. Failures at t0 and t1 back the goal off (2 in a row) for 3 ticks: idle at
    // t2..t4, the cool-down ends at t5 (1 + 1 + 3), it fails at t5 and t6 and backs off again until t10.
    const auto r = run(scenario(R"("agents": [{"name": "ann", "type": "cutter",
   "goals": [{"name": "holy", "conditions": {"blessed": true}, "retry": {"after_failures": 2, "cooldown_ticks": 3}}]}])"),
                       12);
    EXPECT_EQ(ticks_of(*r, "ann", AgentEventKind::ActionStarted), (std::vector<std::uint64_t>{0, 1, 5, 6, 10, 11}));
    EXPECT_EQ(ticks_of(*r, "ann", AgentEventKind::GoalBackedOff), (std::vector<std::uint64_t>{1, 6, 11}));
    EXPECT_EQ(ticks_of(*r, "ann", AgentEventKind::GoalBackOffEnded), (std::vector<std::uint64_t>{5, 10}));
    const auto backed = r->trace->of("ann", AgentEventKind::GoalBackedOff);
    EXPECT_EQ(backed.front().text, "goal backed off: holy (failed 2 times in a row; skipped for 3 ticks)");
    const auto idle = r->trace->of("ann", AgentEventKind::Idle);
    ASSERT_FALSE(idle.empty());
    EXPECT_EQ(idle.front().tick, 2u);
    EXPECT_EQ(idle.front().text, "idle: no_plan");
}

TEST(ScenarioNumeric, ErrorsNameTheFieldLineAndColumn) {
    const std::string agents = R"("agents": [{"name": "ann", "type": "cutter"}],)";
    const auto timeline = [&](const std::string& entry) { return scenario(agents + "\n \"timeline\": [" + entry + "]"); };
    expect_error(timeline(R"({"tick": 1, "add": {"gold": 1.5}})"), "timeline[0].add.gold", "(found a non-integer number)", "\"gold\": 1.5");
    expect_error(timeline(R"({"tick": 1, "add": {"location": 1}})"), "timeline[0].add.location",
                 "'location' is an enumerated variable: only \"set\" changes it", "\"location\": 1");
    expect_error(timeline(R"({"tick": 1, "add": {"blessed": 1}})"), "timeline[0].add.blessed",
                 "'blessed' is an atom: atoms are changed with \"set\"", "\"blessed\": 1");
    expect_error(timeline(R"({"tick": 1, "add": {"gld": 1}})"), "timeline[0].add.gld", "unknown variable 'gld'", "\"gld\": 1");
    expect_error(timeline(R"({"tick": 1, "agent": "ann", "add": {"gold": 1}})"), "timeline[0].add.gold",
                 "variable 'gold' is shared (world-owned)", "\"gold\": 1");
    expect_error(timeline(R"({"tick": 1, "set": {"gold": 10}})"), "timeline[0].set.gold", "value 10 is outside the bounds [0, 9] of 'gold'",
                 "\"gold\": 10");
    expect_error(timeline(R"({"tick": 1, "agent": "ann", "set": {"location": "lake"}})"), "timeline[0].set.location",
                 "'lake' is not a value of 'location' (values: home, forest)", "\"location\": \"lake\"");
    expect_error(timeline(R"({"tick": 1, "agent": "ann", "set": {"wood": true}})"), "timeline[0].set.wood",
                 "expected an integer (found a boolean)", "\"wood\": true");
    expect_error(timeline(R"({"tick": 1, "set": {"wood": 1}})"), "timeline[0].set.wood", "variable 'wood' is private (agent-owned)",
                 "\"wood\": 1");
    expect_error(timeline(R"({"tick": 1, "expect": {"wood": 1}})"), "timeline[0].expect.wood",
                 "variable 'wood' is private (agent-owned): name the \"agent\" to check", "\"wood\": 1");
    expect_error(timeline(R"({"tick": 1, "agent": "ann", "expect": {"wood": ["=>", 1]}})"), "timeline[0].expect.wood[0]",
                 "unknown comparison '=>'", "\"=>\"");
    expect_error(timeline(R"({"tick": 1, "agent": "ann", "expect": {"location": ["<", "forest"]}})"), "timeline[0].expect.location[0]",
                 "only == and != compare it", "\"<\"");
    expect_error(timeline(R"({"tick": 1, "agent": "ann", "expect": {"wood": [">", 21]}})"), "timeline[0].expect.wood[1]",
                 "outside the bounds [0, 20]", "21");
    expect_error(scenario(R"("world": {"wood": 3}, )" + agents.substr(0, agents.size() - 1)), "world.wood",
                 "variable 'wood' is private", "\"wood\": 3");
    expect_error(scenario(R"("agents": [{"name": "ann", "type": "cutter", "state": {"gold": 3}}])"), "agents[0].state.gold",
                 "variable 'gold' is shared", "\"gold\": 3");
    expect_error(scenario(R"("agents": [{"name": "ann", "type": "cutter", "goals": [{"name": "g", "conditions": {}, "priority": {"variable": "location"}}]}])"),
                 "agents[0].goals[0].priority.variable", "'location' is an enumerated variable, not a number", "\"variable\"");
    expect_error(scenario(R"("agents": [{"name": "ann", "type": "cutter", "goals": [{"name": "g", "conditions": {}, "retry": {"after": 2}}]}])"),
                 "agents[0].goals[0].retry.after", "unknown field", "\"after\"");
    expect_error(scenario(R"("agents": [{"name": "ann", "type": "cutter", "goals": [{"name": "g", "conditions": {}, "when": {"wood": "x"}}]}])"),
                 "agents[0].goals[0].when.wood", "'wood' is an integer variable (found a string)", "\"wood\": \"x\"");
}

}  // namespace gameplan::io
