#include <gameplan/goap/planner.hpp>
#include <gameplan/io/domain_json.hpp>
#include <gameplan/io/load_error.hpp>

#include <test_data.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::goap;

namespace {

struct Expected {
    std::size_t line;
    std::size_t column;
    std::string field;
    std::string message_part;
};

void expect_error(const std::string& text, const Expected& e) {
    try {
        (void)io::parse_domain_json(text, "test.json");
        ADD_FAILURE() << "no error for:\n" << text;
    } catch (const io::LoadError& err) {
        EXPECT_EQ(err.file(), "test.json");
        EXPECT_EQ(err.line(), e.line) << err.what();
        EXPECT_EQ(err.column(), e.column) << err.what();
        EXPECT_EQ(err.field(), e.field) << err.what();
        EXPECT_NE(err.message().find(e.message_part), std::string::npos) << err.what();
        // what() carries everything a designer needs
        const std::string what = err.what();
        EXPECT_NE(what.find("test.json:" + std::to_string(e.line) + ":" + std::to_string(e.column) + ": "), std::string::npos) << what;
        if (!e.field.empty()) {
            EXPECT_NE(what.find(e.field + ": "), std::string::npos) << what;
        }
    }
}

}  // namespace

TEST(DomainJson, ReadmeFormWithoutAtomsList) {
    const io::DomainFile f = io::parse_domain_json(R"({
      "actions": [{"name": "scout", "cost": 1, "preconditions": {"armed": true}, "effects": {"visible": true}},
                  {"name": "shoot", "cost": 2.5, "preconditions": {"visible": true}, "effects": {"alive": false}}],
      "start": {"armed": true, "alive": true},
      "goal": {"alive": false}})");
    const Domain& d = f.domain;
    EXPECT_EQ(d.atom_count(), 3u);
    // interned in order of first use
    EXPECT_EQ(d.find_atom("armed"), AtomId(0));
    EXPECT_EQ(d.find_atom("visible"), AtomId(1));
    EXPECT_EQ(d.find_atom("alive"), AtomId(2));
    EXPECT_EQ(d.action_count(), 2u);
    EXPECT_EQ(d.action_cost(d.find_action("shoot")), 2.5);
    EXPECT_TRUE(f.start.get(d.find_atom("armed")));
    EXPECT_FALSE(f.start.get(d.find_atom("visible")));  // unlisted start atoms are false
    ASSERT_TRUE(f.goal.has_value());
    EXPECT_EQ(f.default_goal(), &*f.goal);
    Planner planner(d);
    const PlanResult r = planner.plan(f.start, *f.goal);
    ASSERT_EQ(r.status, Status::Found);
    EXPECT_EQ(r.cost, 3.5);
}

TEST(DomainJson, SharedAtomsNamedGoalsAndComments) {
    const io::DomainFile f = io::parse_domain_json(R"({
      "_comment": "ignored",
      "atoms": ["door_open", "inside", "hungry"],
      "shared": ["door_open"],
      "actions": [{"name": "open", "cost": 1, "effects": {"door_open": true}, "_note": "ignored too"},
                  {"name": "enter", "cost": 1, "preconditions": {"door_open": true}, "effects": {"inside": true}}],
      "goals": {"get_in": {"conditions": {"inside": true}, "priority": 2},
                "idle": {"conditions": {}},
                "eat": {"conditions": {"hungry": false}, "priority": 5}}})");
    EXPECT_TRUE(f.domain.is_shared(f.domain.find_atom("door_open")));
    EXPECT_FALSE(f.domain.is_shared(f.domain.find_atom("inside")));
    EXPECT_FALSE(f.goal.has_value());
    ASSERT_EQ(f.goals.size(), 3u);
    EXPECT_EQ(f.goals[0].name, "get_in");  // file order kept
    EXPECT_EQ(f.goals[1].priority, 0);      // default priority
    ASSERT_NE(f.find_goal("get_in"), nullptr);
    EXPECT_EQ(f.find_goal("get_in")->priority, 2);
    EXPECT_EQ(f.find_goal("nope"), nullptr);
    EXPECT_EQ(f.default_goal(), &f.find_goal("eat")->condition);  // highest priority
    Planner planner(f.domain);
    const PlanResult r = planner.plan(f.start, f.find_goal("get_in")->condition);
    ASSERT_EQ(r.status, Status::Found);
    EXPECT_EQ(r.plan.size(), 2u);
}

TEST(DomainJson, UnicodeAtomNamesAndEscapes) {
    const io::DomainFile f = io::parse_domain_json(
        "\xEF\xBB\xBF{\"actions\": [{\"name\": \"shoot\", \"cost\": 2, \"preconditions\": {\"\\u7784\\u51c6\\u5c31\\u7eea\": true},"
        " \"effects\": {\"击杀玩家\": true}}], \"start\": {\"瞄准就绪\": true}, \"goal\": {\"击杀玩家\": true}}");
    EXPECT_TRUE(f.domain.find_atom("瞄准就绪").valid());
    EXPECT_EQ(f.domain.atom_count(), 2u);
    Planner planner(f.domain);
    EXPECT_EQ(planner.plan(f.start, *f.goal).cost, 2);
}

TEST(DomainJson, ExamplesAndSharedBenchmarksLoad) {
    for (const char* name : {"hunger.json", "space_shooter.json"}) {
        const io::DomainFile f = io::load_domain_json(test::source_dir() / "examples/goap" / name);
        EXPECT_GT(f.domain.action_count(), 0u);
        EXPECT_TRUE(f.goal.has_value());
    }
}

TEST(DomainJsonErrors, EmptyAndMissingFiles) {
    expect_error("", {1, 1, "", "empty"});
    expect_error("  \n\t ", {1, 1, "", "empty"});
    try {
        (void)io::load_domain_json("/nonexistent/dir/domain.json");
        ADD_FAILURE();
    } catch (const io::LoadError& e) {
        EXPECT_EQ(e.file(), "/nonexistent/dir/domain.json");
        EXPECT_NE(std::string(e.what()).find("no such file"), std::string::npos) << e.what();
    }
    const auto dir = std::filesystem::temp_directory_path() / "gameplan_domain_json_test";
    std::filesystem::create_directories(dir);
    { std::ofstream(dir / "empty.json"); }
    try {
        (void)io::load_domain_json(dir / "empty.json");
        ADD_FAILURE();
    } catch (const io::LoadError& e) {
        EXPECT_EQ(e.file(), (dir / "empty.json").string());
        EXPECT_NE(std::string(e.what()).find("empty"), std::string::npos);
    }
}

TEST(DomainJsonErrors, TruncatedJson) {
    expect_error("{\"actions\": [\n  {\"name\": \"a\", \"cost\": 1", {2, 26, "actions[0].cost", "truncated"});
    expect_error("{\"actions\": [", {1, 14, "actions[0]", "truncated"});
    expect_error("{\"actions\": [], \"start\": {\"x\": tru", {1, 32, "start.x", "syntax error"});
}

TEST(DomainJsonErrors, SyntaxErrorsMidFile) {
    expect_error("{\"actions\": [\n  {\"name\": \"a\" \"cost\": 1}]}", {2, 16, "actions[0].name", "syntax error"});
    expect_error("[1, 2]", {1, 1, "", "must be a JSON object"});
}

TEST(DomainJsonErrors, WrongTypes) {
    expect_error(R"({"actions": {}})", {1, 2, "actions", "must be an array"});
    expect_error(R"({"actions": [3]})", {1, 14, "actions[0]", "must be an object"});
    expect_error("{\"actions\": [\n {\"name\": 5, \"cost\": 1}]}", {2, 3, "actions[0].name", "non-empty string"});
    expect_error("{\"actions\": [\n {\"name\": \"\", \"cost\": 1}]}", {2, 3, "actions[0].name", "non-empty string"});
    expect_error("{\"actions\": [\n {\"name\": \"a\", \"cost\": 1, \"preconditions\": []}]}", {2, 27, "actions[0].preconditions", "must be an object"});
    expect_error("{\"actions\": [\n {\"name\": \"a\", \"cost\": 1, \"effects\": {\"x\": 1}}]}", {2, 39, "actions[0].effects.x", "true or false"});
    expect_error("{\"actions\": [], \"start\": {\"x\": \"yes\"}}", {1, 27, "start.x", "true or false"});
    expect_error("{\"atoms\": [\"a\", 7], \"actions\": []}", {1, 17, "atoms[1]", "must be a string"});
    expect_error("{\"atoms\": \"a\", \"actions\": []}", {1, 2, "atoms", "must be an array"});
    expect_error("{\"actions\": [], \"goal\": true}", {1, 17, "goal", "must be an object"});
}

TEST(DomainJsonErrors, BadCosts) {
    expect_error("{\"actions\": [\n {\"name\": \"a\", \"cost\": 1},\n {\"name\": \"b\", \"cost\": -2}]}",
                 {3, 16, "actions[1].cost", "must be a finite number >= 0"});
    expect_error("{\"actions\": [{\"name\": \"a\", \"cost\": \"5\"}]}", {1, 28, "actions[0].cost", "must be a finite number >= 0"});
    expect_error("{\"actions\": [{\"name\": \"a\", \"cost\": null}]}", {1, 28, "actions[0].cost", "must be a finite number >= 0"});
    expect_error("{\"actions\": [{\"name\": \"a\"}]}", {1, 14, "actions[0].cost", "missing required field"});
    expect_error("{\"actions\": [{\"name\": \"a\", \"cost\": 1e400}]}", {1, 36, "actions[0].cost", "out of range"});
}

TEST(DomainJsonErrors, DuplicatesAndUnknownAtoms) {
    expect_error("{\"actions\": [\n {\"name\": \"a\", \"cost\": 1},\n {\"name\": \"a\", \"cost\": 2}]}",
                 {3, 3, "actions[1].name", "duplicate action name 'a' (also actions[0])"});
    expect_error("{\"atoms\": [\"x\"], \"actions\": [\n {\"name\": \"a\", \"cost\": 1, \"effects\": {\"y\": true}}]}",
                 {2, 39, "actions[0].effects.y", "unknown atom 'y' (not listed in \"atoms\")"});
    expect_error("{\"atoms\": [\"x\"], \"actions\": [], \"goal\": {\"x\": true, \"z\": false}}",
                 {1, 53, "goal.z", "unknown atom 'z'"});
    expect_error("{\"atoms\": [\"x\", \"x\"], \"actions\": []}", {1, 17, "atoms[1]", "duplicate atom 'x'"});
    expect_error("{\"actions\": [{\"name\": \"a\", \"cost\": 1, \"effects\": {\"x\": true, \"x\": false}}]}",
                 {1, 62, "actions[0].effects.x", "duplicate key"});
    expect_error("{\"actions\": [{\"name\": \"a\", \"cost\": 1, \"effects\": {\"\": true}}]}",
                 {1, 51, "actions[0].effects[\"\"]", "must not be empty"});
}

TEST(DomainJsonErrors, UnknownFields) {
    expect_error("{\"actions\": [], \"gaol\": {}}", {1, 17, "gaol", "unknown field"});
    expect_error("{\"actions\": [{\"name\": \"a\", \"cost\": 1, \"precondition\": {}}]}",
                 {1, 39, "actions[0].precondition", "unknown field"});
    expect_error("{\"start\": {}}", {1, 1, "actions", "missing required field"});
}

TEST(DomainJsonErrors, NamedGoals) {
    expect_error("{\"actions\": [], \"goals\": {\"g\": {\"priority\": 1}}}", {1, 27, "goals.g.conditions", "missing required field"});
    expect_error("{\"actions\": [], \"goals\": {\"g\": {\"conditions\": {}, \"priority\": \"high\"}}}",
                 {1, 51, "goals.g.priority", "must be a finite number"});
    expect_error("{\"actions\": [], \"goals\": {\"g\": {\"conditions\": {}, \"prio\": 1}}}",
                 {1, 51, "goals.g.prio", "unknown field"});
    expect_error("{\"actions\": [], \"goals\": [1]}", {1, 17, "goals", "must be an object"});
}

TEST(DomainJsonErrors, InvalidUtf8) {
    // in a string value (line 2, column counted in characters: the Chinese name is 2 characters)
    expect_error("{\"actions\": [\n {\"name\": \"瞄准\xff\", \"cost\": 1}]}", {2, 14, "actions[0].name", "invalid UTF-8 (byte 0xFF)"});
    // in a key, and a truncated multi-byte sequence
    expect_error("{\"actions\": [], \"start\": {\"a\xe4\xb8\": true}}", {1, 29, "start", "invalid UTF-8"});
    // overlong encoding of '/'
    expect_error("{\"actions\": [], \"start\": {\"\xc0\xaf\": true}}", {1, 28, "start", "invalid UTF-8 (byte 0xC0)"});
    // outside any string
    expect_error("{\"actions\": []\x80}", {1, 15, "actions", "invalid UTF-8"});
}

TEST(DomainJsonErrors, LoadErrorMessageFormat) {
    try {
        (void)io::parse_domain_json("{\"actions\": [{\"name\": \"a\", \"cost\": -1}]}", "dir/my domain.json");
        FAIL();
    } catch (const io::LoadError& e) {
        EXPECT_STREQ(e.what(), "dir/my domain.json:1:28: actions[0].cost: must be a finite number >= 0");
    }
}
