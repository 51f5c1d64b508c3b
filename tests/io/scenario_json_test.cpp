// Scenario JSON: what it reads, and errors that name file, line, column and JSON path.
#include <gameplan/goap/agent_scenario.hpp>
#include <gameplan/io/load_error.hpp>
#include <gameplan/io/scenario_json.hpp>

#include <load_errors.hpp>
#include <test_data.hpp>

#include <gtest/gtest.h>

#include <fstream>

namespace gameplan::io {
namespace {

LoadError error_of(std::string_view text, const ScenarioParseOptions& options = {}) {
    return test::load_error_of([&] { (void)parse_scenario_json(text, "s.json", options); }, text);
}

void expect_error(std::string_view text, std::string_view field, std::string_view message_part, std::string_view at,
                  std::size_t nth = 0) {
    const LoadError e = error_of(text);
    EXPECT_EQ(e.file(), "s.json");
    test::expect_load_error(e, text, field, message_part, at, nth);
}

const char* kDomain = R"("domain": {"atoms": ["door", "mine", "x"], "shared": ["door"],
             "actions": [{"name": "a", "cost": 1, "effects": {"x": true}},
                         {"name": "b", "cost": 2, "preconditions": {"x": true}, "effects": {"mine": true}}],
             "start": {"door": true, "mine": true},
             "goals": {"own": {"conditions": {"mine": true}, "priority": 3}}})";

std::string scenario(std::string_view rest) { return std::string("{") + kDomain + ",\n" + std::string(rest) + "\n}"; }

const char* kTypes = R"("types": {"t": {"actions": {"a": 2, "b": {"ticks": 1, "behaviour": "bee", "cost": 4, "enabled": true}}}})";

TEST(ScenarioJson, ReadsEverything) {
    const std::string text = scenario(std::string(kTypes) + R"(,
  "shared": ["x"],
  "world": {"x": true},
  "ticks": 7,
  "direction": "forward",
  "agents": [{"name": "ann", "type": "t", "goals": ["own", {"name": "g2", "conditions": {"mine": false},
               "priority": [{"if": {"door": true}, "value": 5}, {"value": 1}]}], "max_expansions_per_tick": 3}],
  "timeline": [{"tick": 2, "set": {"door": false}}, {"tick": 3, "agent": "ann", "set": {"mine": false}},
               {"tick": 4, "agent": "ann", "fail": "a"}, {"tick": 5, "agent": "ann", "abort": true},
               {"tick": 6, "agent": "ann", "cost": {"a": 9, "b": 0.5}}, {"tick": 6, "agent": "ann", "enable": {"b": false}}])");
    const goap::Scenario s = parse_scenario_json(text, "s.json");
    const goap::Domain& d = s.domain;
    EXPECT_TRUE(d.is_shared(d.find_atom("door")));
    EXPECT_TRUE(d.is_shared(d.find_atom("x")));  // from the scenario's "shared"
    EXPECT_FALSE(d.is_shared(d.find_atom("mine")));
    EXPECT_TRUE(s.world.get(d.find_atom("door")));  // the domain's start...
    EXPECT_TRUE(s.world.get(d.find_atom("x")));     // ...plus "world"
    EXPECT_EQ(s.ticks, 7u);
    EXPECT_EQ(s.direction, goap::Direction::Forward);
    ASSERT_EQ(s.types.size(), 1u);
    ASSERT_EQ(s.types[0].actions.size(), 2u);
    EXPECT_EQ(s.types[0].actions[0].ticks, 2u);
    EXPECT_EQ(s.types[0].actions[1].behaviour, "bee");
    EXPECT_EQ(s.types[0].actions[1].cost, 4.0);
    EXPECT_EQ(s.types[0].actions[1].enabled, true);
    ASSERT_EQ(s.agents.size(), 1u);
    const goap::ScenarioAgent& ann = s.agents[0];
    EXPECT_TRUE(ann.state.get(d.find_atom("mine")));  // private part of the domain's start
    EXPECT_EQ(ann.max_expansions_per_tick, 3u);
    ASSERT_EQ(ann.goals.size(), 2u);
    EXPECT_EQ(ann.goals[0].name, "own");
    EXPECT_EQ(ann.goals[0].priority, 3);
    ASSERT_EQ(ann.goals[1].rules.size(), 2u);
    EXPECT_EQ(ann.goals[1].rules[0].value, 5);
    EXPECT_TRUE(ann.goals[1].rules[0].when.cares(d.find_atom("door")));
    EXPECT_EQ(ann.goals[1].rules[1].when.atom_count(), d.atom_count());
    EXPECT_TRUE(ann.goals[1].rules[1].when.empty());
    ASSERT_EQ(s.timeline.size(), 7u);  // the cost entry holds two events
    EXPECT_EQ(s.timeline[0].kind, goap::ScenarioEventKind::Set);
    EXPECT_TRUE(s.timeline[0].agent.empty());
    EXPECT_EQ(s.timeline[2].kind, goap::ScenarioEventKind::Fail);
    EXPECT_EQ(s.timeline[3].kind, goap::ScenarioEventKind::Abort);
    EXPECT_EQ(s.timeline[5].action, "b");
    EXPECT_EQ(s.timeline[5].value, 0.5);
    EXPECT_EQ(s.timeline[6].kind, goap::ScenarioEventKind::Enable);
    EXPECT_FALSE(s.timeline[6].enabled);
    goap::ScenarioRunner runner(s);
    EXPECT_EQ(runner.error(), "");
}

TEST(ScenarioJson, SyntaxErrors) {
    EXPECT_NE(error_of("").message().find("empty file"), std::string::npos);
    EXPECT_NE(error_of("  \n ").message().find("empty file"), std::string::npos);
    const LoadError truncated = error_of("{\"domain\": {\"actions\": [");
    EXPECT_NE(truncated.message().find("truncated JSON"), std::string::npos) << truncated.what();
    EXPECT_EQ(truncated.line(), 1u);
    const LoadError bad = error_of("{\n  \"ticks\": 3,\n  \"types\": {,}\n}");
    EXPECT_EQ(bad.line(), 3u);
    EXPECT_EQ(bad.column(), 13u);
    EXPECT_EQ(bad.field(), "types");  // inside "types", before any member
    const LoadError utf8 = error_of("{\"domain\": \"\xff\"}");
    EXPECT_NE(utf8.message().find("invalid UTF-8"), std::string::npos);
    EXPECT_EQ(utf8.field(), "domain");
    expect_error("{\"ticks\": 1,\n \"ticks\": 2}", "ticks", "duplicate key", "\"ticks\": 2");
}

TEST(ScenarioJson, SchemaErrorsNameTheField) {
    expect_error(scenario(std::string(kTypes) + ",\n \"agents\": [],\n \"tiks\": 3"), "tiks", "unknown field", "\"tiks\"");
    expect_error(scenario(std::string(kTypes) + ",\n \"agents\": [], \"ticks\": 0"), "ticks", "integer >= 1", "\"ticks\"", 1);
    expect_error(scenario(std::string(kTypes) + ",\n \"agents\": [], \"direction\": \"up\""), "direction", "forward", "\"direction\"");
    expect_error(scenario("\"agents\": []"), "types", "missing required field", "");
    expect_error(scenario(std::string(kTypes)), "agents", "missing required field", "");
    // Types: unknown action, unbound action (the runtime's bind-time rule), both bound and excluded.
    expect_error(scenario(R"("types": {"t": {"actions": {"a": 1, "b": 1, "nope": 1}}}, "agents": [])"), "types.t.actions.nope",
                 "unknown action 'nope' (the domain's actions: a, b)", "\"nope\"");
    expect_error(scenario(R"("types": {"t": {"actions": {"a": 1}}}, "agents": [])"), "types.t.actions",
                 "action 'b' is not bound (bind it here or list it in \"exclude\")", "\"actions\"", 1);
    expect_error(scenario(R"("types": {"t": {"actions": {"a": 1, "b": 1}, "exclude": ["b"]}}, "agents": [])"),
                 "types.t.actions.b", "both bound and excluded", "\"b\": 1");
    expect_error(scenario(R"("types": {"t": {"actions": {"a": 0, "b": 1}}}, "agents": [])"), "types.t.actions.a",
                 "integer >= 1", "\"a\": 0");
    expect_error(scenario(R"("types": {"t": {"actions": {"a": {"tics": 2}, "b": 1}}}, "agents": [])"),
                 "types.t.actions.a.tics", "unknown field", "\"tics\"");
    expect_error(scenario(R"("types": {"t": {"actions": {"a": {"cost": -1}, "b": 1}}}, "agents": [])"),
                 "types.t.actions.a.cost", "finite number >= 0", "\"cost\": -1");
    // Agents.
    const std::string types = std::string(kTypes) + ",\n";
    expect_error(scenario(types + R"("agents": [{"name": "ann", "type": "q"}])"), "agents[0].type", "unknown type 'q'", "\"type\"", 2);
    expect_error(scenario(types + R"("agents": [{"name": "ann", "type": "t"}, {"name": "ann", "type": "t"}])"),
                 "agents[1].name", "duplicate agent name 'ann'", "\"name\": \"ann\"", 1);
    expect_error(scenario(types + R"("agents": [{"name": "ann", "type": "t", "state": {"door": false}}])"),
                 "agents[0].state.door", "is shared (world-owned)", "\"door\": false");
    expect_error(scenario(types + R"("agents": [{"name": "ann", "type": "t", "goals": ["nope"]}])"), "agents[0].goals[0]",
                 "no goal named 'nope' in the domain's \"goals\" (available: own)", "\"nope\"");
    expect_error(scenario(types + R"("agents": [{"name": "ann", "type": "t", "goals": [{"name": "g", "conditions": {"zz": true}}]}])"),
                 "agents[0].goals[0].conditions.zz", "unknown atom 'zz'", "\"zz\"");
    expect_error(scenario(types + R"("agents": [{"name": "ann", "type": "t", "goals": [{"name": "g", "conditions": {}, "priority": "high"}]}])"),
                 "agents[0].goals[0].priority", "a number, an array of rules", "\"priority\"", 1);
    expect_error(scenario(types + R"("agents": [{"name": "world", "type": "t"}])"), "agents[0].name", "reserved", "\"name\"", 2);
    expect_error(scenario(types + R"("world": {"mine": true}, "agents": [])"), "world.mine", "is private (agent-owned)", "\"mine\": true", 3);
    // Timeline.
    const std::string agents = types + R"("agents": [{"name": "ann", "type": "t"}],)" + "\n";
    expect_error(scenario(agents + R"("timeline": [{"tick": 1, "agent": "bob", "abort": true}])"), "timeline[0].agent",
                 "unknown agent 'bob'", "\"agent\": \"bob\"");
    expect_error(scenario(agents + R"("timeline": [{"tick": 1, "fail": "a"}])"), "timeline[0].fail", "needs an \"agent\"", "\"fail\"");
    expect_error(scenario(agents + R"("timeline": [{"tick": -1, "set": {"door": true}}])"), "timeline[0].tick", "integer >= 0", "\"tick\"");
    expect_error(scenario(agents + R"("timeline": [{"tick": 1.5, "set": {"door": true}}])"), "timeline[0].tick", "integer >= 0", "\"tick\"");
    expect_error(scenario(agents + R"("timeline": [{"tick": 1}])"), "timeline[0]", "exactly one of", "{\"tick\": 1}");
    expect_error(scenario(agents + R"("timeline": [{"tick": 1, "set": {"door": true}, "abort": true, "agent": "ann"}])"), "timeline[0]",
                 "exactly one of", "{\"tick\": 1,");
    expect_error(scenario(agents + R"("timeline": [{"tick": 1, "set": {"mine": true}}])"), "timeline[0].set.mine", "is private",
                 "\"mine\": true}}]", 1);
    expect_error(scenario(agents + R"("timeline": [{"tick": 1, "agent": "ann", "set": {"door": true}}])"), "timeline[0].set.door",
                 "is shared", "\"door\": true}}]");
    expect_error(scenario(agents + R"("timeline": [{"tick": 1, "agent": "ann", "cost": {"a": -2}}])"), "timeline[0].cost.a",
                 "finite number >= 0", "\"a\": -2");
    expect_error(scenario(agents + R"("timeline": [{"tick": 1, "agent": "ann", "enable": {"zz": true}}])"), "timeline[0].enable.zz",
                 "unknown action 'zz'", "\"zz\"");
}

TEST(ScenarioJson, InlineDomainErrorsPointIntoTheScenarioFile) {
    const std::string text =
        "{\"ticks\": 3,\n"
        "  \"domain\": {\"actions\": [{\"name\": \"a\", \"cost\": 1},\n"
        "                         {\"name\": \"b\", \"cost\": -1}]},\n"
        "  \"types\": {}, \"agents\": []\n}";
    expect_error(text, "domain.actions[1].cost", "finite number >= 0", "\"cost\": -1");
    // An error on the domain's first line: columns are offset by where the domain starts.
    const std::string first_line = "{\"domain\": {\"actions\": [], \"atomz\": []}, \"types\": {}, \"agents\": []}";
    expect_error(first_line, "domain.atomz", "unknown field", "\"atomz\"");
}

TEST(ScenarioJson, DomainFiles) {
    const std::filesystem::path dir = gameplan::test::source_dir() / "examples" / "goap" / "scenarios";
    ScenarioParseOptions options;
    options.base_dir = dir;
    const std::string ok = R"({"domain": "../hunger.json", "types": {"p": {"actions": {}, "exclude": ["eat", "cook", "buy_vegetables", "go_to_restaurant", "bread_from_fridge"]}}, "agents": []})";
    const goap::Scenario s = parse_scenario_json(ok, "s.json", options);
    EXPECT_EQ(s.domain.action_count(), 5u);
    const std::string missing = R"({"domain": "../no_such_domain.json", "types": {}, "agents": []})";
    try {
        (void)parse_scenario_json(missing, "s.json", options);
        ADD_FAILURE();
    } catch (const LoadError& e) {
        EXPECT_EQ(e.field(), "domain");
        EXPECT_EQ(e.line(), 1u);
        EXPECT_EQ(e.column(), 2u);
        EXPECT_NE(e.message().find("no such file"), std::string::npos) << e.what();
    }
    options.allow_domain_files = false;
    EXPECT_THROW((void)parse_scenario_json(ok, "s.json", options), LoadError);
    // A broken domain file reports its own file and position.
    const std::filesystem::path tmp = std::filesystem::temp_directory_path() / "gameplan_scenario_test_domain.json";
    std::ofstream(tmp) << "{\"actions\": [\n  {\"name\": \"a\", \"cost\": \"x\"}]}";
    options.allow_domain_files = true;
    options.base_dir = tmp.parent_path();
    try {
        (void)parse_scenario_json("{\"domain\": \"" + tmp.filename().string() + "\", \"types\": {}, \"agents\": []}", "s.json", options);
        ADD_FAILURE();
    } catch (const LoadError& e) {
        EXPECT_EQ(e.file(), tmp.string());
        EXPECT_EQ(e.line(), 2u);
        EXPECT_EQ(e.field(), "actions[0].cost");
    }
    std::filesystem::remove(tmp);
    EXPECT_THROW((void)load_scenario_json(dir / "no_such_scenario.json"), LoadError);
}

TEST(ScenarioJson, ChineseAtomNamesInPaths) {
    const std::string text = R"({"domain": "../space_shooter.json", "shared": ["击杀玩家"],
  "types": {"e": {"actions": {"low_accuracy_shot": 1, "chase": 1, "aim": 1, "shoot": 1, "evade": 1}}},
  "agents": [{"name": "enemy", "type": "e", "state": {"击杀玩家": true}}]})";
    ScenarioParseOptions options;
    options.base_dir = gameplan::test::source_dir() / "examples" / "goap" / "scenarios";
    try {
        (void)parse_scenario_json(text, "s.json", options);
        ADD_FAILURE();
    } catch (const LoadError& e) {
        EXPECT_EQ(e.field(), "agents[0].state.击杀玩家");
        EXPECT_EQ(e.line(), 3u);
        EXPECT_EQ(e.column(), 55u);  // columns count characters, not bytes
    }
}

TEST(ScenarioJson, EveryShippedScenarioLoadsAndValidates) {
    const std::filesystem::path dir = gameplan::test::source_dir() / "examples" / "goap" / "scenarios";
    int n = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".json") continue;
        const goap::Scenario s = load_scenario_json(entry.path());
        goap::ScenarioRunner runner(s);
        EXPECT_EQ(runner.error(), "") << entry.path();
        ++n;
    }
    EXPECT_GE(n, 4);
}

}  // namespace
}  // namespace gameplan::io
