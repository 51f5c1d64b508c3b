// lint finds every planted problem of a guard domain (in JSON and in CSV), reports all errors of a file
// at once, and says nothing about clean domains.
#include <gameplan/io/domain_csv.hpp>
#include <gameplan/io/lint.hpp>

#include <test_data.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;

namespace {

// Planted: an unknown field ("precondition"), a typo ("sees_playr" read, "sees_player" set), an atom
// needed but never set ("door_open"), so an action that can never apply ("escape") and an unreachable
// goal ("flee"), a duplicate action ("attack_again"), an effect that changes nothing ("reload").
const char* const kGuardJson = R"({
  "actions": [
    {"name": "spot", "cost": 1, "effects": {"sees_player": true}},
    {"name": "attack", "cost": 2, "preconditions": {"sees_playr": true}, "effects": {"target_hit": true}},
    {"name": "attack_again", "cost": 2, "preconditions": {"sees_playr": true}, "effects": {"target_hit": true}},
    {"name": "reload", "cost": 1, "preconditions": {"armed": true}, "effects": {"armed": true}},
    {"name": "escape", "cost": 1, "preconditions": {"door_open": true}, "effects": {"safe": true}},
    {"name": "draw", "cost": 1, "precondition": {"armed": false}, "effects": {"armed": true}}
  ],
  "start": {},
  "goals": {"kill": {"conditions": {"target_hit": true}, "priority": 2},
            "flee": {"conditions": {"safe": true}, "priority": 1}}
})";

const io::LintFinding* find(const io::LintReport& r, io::LintKind kind, const std::string& needle) {
    for (const io::LintFinding& f : r.findings)
        if (f.kind == kind && f.message.find(needle) != std::string::npos) return &f;
    return nullptr;
}

void expect_guard_findings(const io::LintReport& r, bool json) {
    ASSERT_TRUE(r.readable);
    std::string all;
    for (const io::LintFinding& f : r.findings) all += io::format_finding(r, f) + "\n";
    SCOPED_TRACE(all);
    const io::LintFinding* typo = find(r, io::LintKind::LikelyTypo, "'sees_playr' is read but never set; did you mean 'sees_player'?");
    ASSERT_NE(typo, nullptr);
    EXPECT_EQ(typo->suggestion, "sees_player");
    EXPECT_EQ(typo->line, json ? 4u : 3u);
    ASSERT_NE(find(r, io::LintKind::NeverSet, "'door_open' is needed by 'escape' but no action sets it"), nullptr);
    ASSERT_NE(find(r, io::LintKind::NeverApplies, "action 'escape' can never apply from the start state: nothing makes 'door_open' hold"), nullptr);
    ASSERT_NE(find(r, io::LintKind::NeverApplies, "action 'attack' can never apply"), nullptr);
    const io::LintFinding* dup = find(r, io::LintKind::DuplicateAction, "action 'attack_again' has the same preconditions and effects as 'attack' (line " + std::string(json ? "4" : "3") + ") and the same cost");
    ASSERT_NE(dup, nullptr);
    EXPECT_EQ(dup->line, json ? 5u : 4u);
    ASSERT_NE(find(r, io::LintKind::NoEffect, "action 'reload': effect 'armed' changes nothing"), nullptr);
    ASSERT_NE(find(r, io::LintKind::UnreachableGoal, "goal 'flee' can never be reached: nothing reaches 'safe'; root cause 'door_open'"), nullptr);
    // The typo'd atom is the root cause of the other goal.
    ASSERT_NE(find(r, io::LintKind::UnreachableGoal, "goal 'kill' can never be reached: nothing reaches 'target_hit'; root cause 'sees_playr'"), nullptr);
    // Findings come in file order.
    EXPECT_TRUE(std::is_sorted(r.findings.begin(), r.findings.end(), [](const io::LintFinding& a, const io::LintFinding& b) {
        return (a.line ? a.line : SIZE_MAX) < (b.line ? b.line : SIZE_MAX);
    }));
}

}  // namespace

TEST(Lint, FindsEveryPlantedProblemInJson) {
    const io::LintReport r = io::lint_domain_text(kGuardJson, io::DomainFormat::Json, "guard.json");
    expect_guard_findings(r, true);
    const io::LintFinding* field = find(r, io::LintKind::UnknownField, "unknown field (did you mean 'preconditions'?)");
    ASSERT_NE(field, nullptr);
    EXPECT_EQ(field->field, "actions[5].precondition");
    EXPECT_EQ(field->line, 8u);
    EXPECT_EQ(field->suggestion, "preconditions");
    EXPECT_EQ(io::format_finding(r, *field).substr(0, 52), "guard.json:8:33: actions[5].precondition: unknown_fi");
}

TEST(Lint, FindsEveryPlantedProblemInCsv) {
    // The same domain as a spreadsheet, with an unknown column instead of the unknown field.
    const char* csv =
        "name,cost,preconditions,effects,Notse\n"
        "spot,1,,sees_player,\n"
        "attack,2,sees_playr,target_hit,\n"
        "attack_again,2,sees_playr,target_hit,\n"
        "reload,1,armed,armed,\n"
        "escape,1,door_open,safe,\n"
        "draw,1,!armed,armed,\n"
        "@goal:kill,2,target_hit,,\n"
        "@goal:flee,1,safe,,\n";
    const io::LintReport r = io::lint_domain_text(csv, io::DomainFormat::Csv, "guard.csv");
    expect_guard_findings(r, false);
    const io::LintFinding* column = find(r, io::LintKind::UnknownField, "unknown column 'Notse' (did you mean 'notes'?)");
    ASSERT_NE(column, nullptr);
    EXPECT_EQ(column->line, 1u);
}

TEST(Lint, NumbersAreEffectsAndTellActionsApart) {
    // chop_1 and chop_2 differ only in their numbers, fill only changes a variable: no finding; the
    // true copy of chop_1 is found.
    const char* csv =
        "name,cost,preconditions,effects\n"
        "@variable:wood,,,0..20\n"
        "@start,,,wood=0\n"
        "@goal,,wood>=5,\n"
        "chop_1,1,wood<=19,wood+=1\n"
        "chop_2,1,wood<=18,wood+=2\n"
        "fill,1,,wood=20\n"
        "chop_copy,1,wood<=19,wood+=1\n";
    const io::LintReport r = io::lint_domain_text(csv, io::DomainFormat::Csv, "wood.csv");
    EXPECT_EQ(find(r, io::LintKind::NoEffect, "fill"), nullptr);
    ASSERT_EQ(r.findings.size(), 1u);
    EXPECT_EQ(r.findings[0].kind, io::LintKind::DuplicateAction);
    EXPECT_NE(r.findings[0].message.find("'chop_copy' has the same preconditions and effects as 'chop_1'"), std::string::npos);
}

TEST(Lint, ReportsAllErrorsOfAFileNotJustTheFirst) {
    const char* json = R"({"atoms": ["a", "b"],
      "actions": [{"name": "x", "cost": -1, "effects": {"a": true}},
                  {"name": "y", "cost": 1, "effects": {"c": true}},
                  {"name": "x", "cost": 1, "effects": {"b": true}}],
      "goal": {"bb": true}})";
    const std::vector<io::LoadError> errors = io::domain_load_errors(json, io::DomainFormat::Json, "e.json");
    ASSERT_EQ(errors.size(), 4u);
    EXPECT_EQ(std::string(errors[0].what()), "e.json:2:33: actions[0].cost: must be a finite number >= 0");
    EXPECT_EQ(std::string(errors[1].what()), "e.json:3:56: actions[1].effects.c: unknown atom 'c' (not listed in \"atoms\")");
    EXPECT_EQ(std::string(errors[2].what()).substr(0, 42), "e.json:4:20: actions[2].name: duplicate ac");
    EXPECT_EQ(std::string(errors[3].what()), "e.json:5:16: goal.bb: unknown atom 'bb' (did you mean 'b'?)");
    const char* csv = "name,cost,preconditions,effects\n@atoms,,,a;b\nx,-1,,a\ny,1,,c\nz,1,ammo>=3,b\n";
    const std::vector<io::LoadError> csv_errors = io::domain_load_errors(csv, io::DomainFormat::Csv, "e.csv");
    ASSERT_EQ(csv_errors.size(), 3u);
    EXPECT_EQ(csv_errors[0].line(), 3u);
    EXPECT_EQ(csv_errors[1].line(), 4u);
    EXPECT_EQ(csv_errors[2].line(), 5u);
    EXPECT_TRUE(io::domain_load_errors(io::write_domain_csv(io::parse_domain_json(R"({"actions": []})")), io::DomainFormat::Csv, "ok.csv").empty());
}

// One object with 50,000 keys, in a field lint ignores, with and without an error after it (with one,
// the document is read twice: the loader stops at the error, the tolerant reader goes on). Lint used to
// rebuild the document with the JSON library's own parser, which inserts every member by a linear
// search: quadratic in the keys (bench_goap's load/huge_object/lint measures the time per key).
TEST(Lint, HugeObjectsAreRead) {
    constexpr std::size_t n = 50000;
    std::string notes;
    for (std::size_t i = 0; i < n; ++i) notes.append(i ? ",\"k" : "\"k").append(std::to_string(i)).append("\": 1");
    const std::string head = R"({"_notes": {)" + notes + R"(}, "actions": [{"name": "eat", "cost": )";
    const io::LintReport clean = io::lint_domain_text(head + R"(1, "effects": {"fed": true}}], "goal": {"fed": true}})",
                                                      io::DomainFormat::Json, "huge.json");
    EXPECT_TRUE(clean.readable);
    for (const io::LintFinding& f : clean.findings) ADD_FAILURE() << io::format_finding(clean, f);
    const std::string bad = head + R"(-1, "effects": {"fed": true}}], "goal": {"fed": true}})";
    const io::LintReport r = io::lint_domain_text(bad, io::DomainFormat::Json, "huge.json");
    EXPECT_TRUE(r.readable);
    std::string errors;
    for (const io::LintFinding& f : r.findings)
        if (f.kind == io::LintKind::Error) errors += io::format_finding(r, f) + "\n";
    EXPECT_NE(errors.find("actions[0].cost: error: must be a finite number >= 0\n"), std::string::npos) << errors;
    EXPECT_EQ(std::count(errors.begin(), errors.end(), '\n'), 1) << errors;
}

// Every error of a file with many is placed where it is: 400 actions with a bad cost each, found at the
// line and column of their `-1` (where the test's own search of the text finds them).
TEST(Lint, ManyErrorsAreEachPlaced) {
    std::string json = "{\"actions\": [";
    for (int i = 0; i < 400; ++i)
        json.append(i ? ",\n" : "\n").append(std::string(static_cast<std::size_t>(i % 7), ' '))
            .append(R"({"name": "a)").append(std::to_string(i)).append(R"(", "cost": -1, "effects": {"x": true}})");
    json += "],\n\"goal\": {\"x\": true}}";
    const std::vector<io::LoadError> errors = io::domain_load_errors(json, io::DomainFormat::Json, "many.json");
    ASSERT_EQ(errors.size(), 400u);
    std::size_t from = 0;
    for (std::size_t i = 0; i < errors.size(); ++i) {
        const std::size_t at = json.find("\"cost\": -1", from);
        ASSERT_NE(at, std::string::npos);
        from = at + 1;
        const std::size_t line = static_cast<std::size_t>(std::count(json.begin(), json.begin() + static_cast<std::ptrdiff_t>(at), '\n')) + 1;
        const std::size_t column = at - json.rfind('\n', at);
        EXPECT_EQ(errors[i].line(), line) << errors[i].what();
        EXPECT_EQ(errors[i].column(), column) << errors[i].what();
        EXPECT_EQ(errors[i].field(), "actions[" + std::to_string(i) + "].cost") << errors[i].what();
    }
}

TEST(Lint, UnreadableTextIsSaidOnce) {
    const io::LintReport r = io::lint_domain_text("{\"actions\": [", io::DomainFormat::Json, "broken.json");
    EXPECT_FALSE(r.readable);
    ASSERT_EQ(r.findings.size(), 1u);
    EXPECT_EQ(r.findings[0].kind, io::LintKind::Error);
    const io::LintReport c = io::lint_domain_text("name,cost\n\"open", io::DomainFormat::Csv, "broken.csv");
    EXPECT_FALSE(c.readable);
}

TEST(Lint, CleanDomainsHaveNoFindings) {
    // (The village domains are not clean by lint's rules: the game, not an action, makes villagers
    // hungry and tired, so lint reports those atoms as never set.)
    std::vector<std::filesystem::path> files = {test::source_dir() / "examples/goap/hunger.json"};
    if (test::have_benchmark_data()) files.push_back(test::benchmark_dir() / "goap/gpgoap_example.json");
    for (const auto& name : files) {
        const io::LintReport r = io::lint_domain_file(name);
        std::string all;
        for (const io::LintFinding& f : r.findings) all += io::format_finding(r, f) + "\n";
        EXPECT_TRUE(r.readable) << name;
        EXPECT_EQ(all, "") << name;
    }
    const io::LintReport inline_clean = io::lint_domain_text(
        "name,cost,preconditions,effects\n@start,,,hungry\n@goal,,!hungry,\nbuy,3,!has_food,has_food\n"
        "eat,5,has_food; hungry,!hungry; !has_food\n",
        io::DomainFormat::Csv, "clean.csv");
    EXPECT_TRUE(inline_clean.findings.empty()) << io::format_finding(inline_clean, inline_clean.findings.front());
}

// A valid domain with the newer keys (variables, numeric conditions and effects, a goal's `when`, a
// variable priority, `retry`): lint reads it like the strict loader (no unknown field, no error) and
// still analyses it (an unreachable numeric goal, an action whose comparison never holds).
TEST(Lint, KnowsVariablesWhenAndRetry) {
    const char* json = R"({
  "variables": {"gold": {"min": 0, "max": 20}, "place": {"values": ["home", "mine"]}},
  "actions": [
    {"name": "walk", "cost": 1, "effects": {"place": "mine"}},
    {"name": "dig", "cost": 2, "preconditions": {"place": "mine", "gold": ["<", 5]}, "effects": {"gold": ["+", 1]}, "retry": {"after_failures": 2, "cooldown_ticks": 30}},
    {"name": "buy", "cost": 1, "preconditions": {"gold": [">=", 15]}, "effects": {"rich": true}}
  ],
  "start": {"gold": 0, "place": "home"},
  "goals": {"wealth": {"conditions": {"gold": [">=", 10]}, "priority": {"variable": "gold", "scale": -1, "offset": 20},
                       "when": {"place": ["==", "mine"]}, "retry": {"after_failures": 1, "cooldown_ticks": 5}},
            "shop": {"conditions": {"rich": true}, "priority": 1}}
})";
    // The strict loader accepts it, and so does lint's reader.
    const io::DomainFile strict = io::parse_domain_json(json, "mine.json");
    EXPECT_TRUE(io::domain_load_errors(json, io::DomainFormat::Json, "mine.json").empty());
    const io::LintReport r = io::lint_domain_text(json, io::DomainFormat::Json, "mine.json");
    std::string all;
    for (const io::LintFinding& f : r.findings) all += io::format_finding(r, f) + "\n";
    SCOPED_TRACE(all);
    for (const io::LintFinding& f : r.findings) {
        EXPECT_NE(f.kind, io::LintKind::UnknownField);
        EXPECT_NE(f.kind, io::LintKind::Error);
    }
    // dig stops at gold 5 (its own condition), so gold >= 10 and gold >= 15 never hold.
    const io::LintFinding* wealth = find(r, io::LintKind::UnreachableGoal, "goal 'wealth' can never be reached: nothing reaches 'gold>=10'");
    ASSERT_NE(wealth, nullptr);
    EXPECT_EQ(wealth->line, 9u);
    ASSERT_NE(find(r, io::LintKind::NeverApplies, "action 'buy' can never apply from the start state: nothing makes 'gold>=15' hold"), nullptr);
    ASSERT_NE(find(r, io::LintKind::UnreachableGoal, "goal 'shop' can never be reached: nothing reaches 'rich'"), nullptr);
    // The domain lint analysed is the strict loader's (same text when written back).
    EXPECT_EQ(io::write_domain_json(strict).empty(), false);
}

// Errors in the newer keys are all reported, each where the strict loader would put it: a variable
// typo (with a suggestion), an enumeration value that does not exist, a value out of bounds, a
// negative back-off, a `when` on an unknown variable, a priority reading an enumeration, and a bad
// variable declaration.
TEST(Lint, ReportsEveryErrorInVariablesWhenAndRetry) {
    const std::string json = R"({
  "variables": {"gold": {"min": 0, "max": 20}, "place": {"values": ["home", "mine"]}, "bad": {"min": 3, "max": 1}},
  "actions": [
    {"name": "dig", "cost": 2, "preconditions": {"gld": [">=", 1]}, "effects": {"gold": ["+", 1]}},
    {"name": "walk", "cost": 1, "effects": {"place": "mien"}},
    {"name": "hoard", "cost": 1, "preconditions": {"gold": ["<", 30]}, "effects": {"gold": 3}, "retry": {"after_failures": -1}}
  ],
  "start": {"gold": 0},
  "goals": {"wealth": {"conditions": {"gold": [">=", 10]}, "when": {"plase": ["==", "mine"]}, "priority": {"variable": "place"}}}
})";
    const std::vector<io::LoadError> errors = io::domain_load_errors(json, io::DomainFormat::Json, "bad.json");
    std::string all;
    for (const io::LoadError& e : errors) all += std::string(e.what()) + "\n";
    SCOPED_TRACE(all);
    const auto has = [&](const std::string& field, const std::string& needle) {
        for (const io::LoadError& e : errors)
            if (e.field() == field && e.message().find(needle) != std::string::npos) return &e;
        return static_cast<const io::LoadError*>(nullptr);
    };
    EXPECT_NE(has("variables.bad.max", "max (1) is less than min (3)"), nullptr);
    const io::LoadError* typo = has("actions[0].preconditions.gld", "unknown variable 'gld' (did you mean 'gold'?)");
    ASSERT_NE(typo, nullptr);
    EXPECT_EQ(typo->line(), 4u);
    EXPECT_NE(has("actions[1].effects.place", "'mien' is not a value of 'place' (did you mean 'mine'?)"), nullptr);
    EXPECT_NE(has("actions[2].preconditions.gold[1]", "value 30 is outside the bounds [0, 20] of 'gold'"), nullptr);
    EXPECT_NE(has("actions[2].retry.after_failures", "must be an integer >= 0"), nullptr);
    EXPECT_NE(has("goals.wealth.when.plase", "unknown variable 'plase' (did you mean 'place'?)"), nullptr);
    EXPECT_NE(has("goals.wealth.priority.variable", "'place' is an enumerated variable, not a number"), nullptr);
    EXPECT_EQ(errors.size(), 7u);
    // The strict loader stops at the first of them, at the same place.
    try {
        (void)io::parse_domain_json(json, "bad.json");
        ADD_FAILURE() << "the strict loader accepted it";
    } catch (const io::LoadError& e) {
        EXPECT_NE(has(e.field(), ""), nullptr) << e.what();
        EXPECT_EQ(e.field(), errors.front().field());
        EXPECT_EQ(e.line(), errors.front().line());
        EXPECT_EQ(e.column(), errors.front().column());
    }
    // lint reports them as errors (not unknown fields), with the suggestion taken from the message.
    const io::LintReport r = io::lint_domain_text(json, io::DomainFormat::Json, "bad.json");
    const io::LintFinding* f = find(r, io::LintKind::Error, "unknown variable 'gld'");
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->suggestion, "gold");
    EXPECT_EQ(find(r, io::LintKind::UnknownField, ""), nullptr);
}

// Two goal items that undo each other: each is reachable, both together never (the relaxation cannot
// tell). The planning check proves it and says so; with an expansion or memory budget too small to
// decide, it says nothing (running out is not a finding), so both budgets reach the search.
TEST(Lint, GoalItemsThatUndoEachOtherHaveNoPlanWithinTheBudgets) {
    const char* const text = R"({
  "actions": [
    {"name": "open", "cost": 1, "effects": {"door_open": true, "door_locked": false}},
    {"name": "lock", "cost": 1, "effects": {"door_locked": true, "door_open": false}}
  ],
  "start": {},
  "goal": {"door_open": true, "door_locked": true}
})";
    const std::string needle = "has no plan: each of its items can be reached, but not all together";
    const io::LintReport whole = io::lint_domain_text(text, io::DomainFormat::Json, "door.json");
    EXPECT_NE(find(whole, io::LintKind::UnreachableGoal, needle), nullptr);
    io::LintOptions no_memory;
    no_memory.plan_memory_bytes = 1;
    EXPECT_EQ(find(io::lint_domain_text(text, io::DomainFormat::Json, "door.json", no_memory), io::LintKind::UnreachableGoal,
                   needle),
              nullptr);
    io::LintOptions lots;
    lots.plan_memory_bytes = std::size_t{1} << 30;
    EXPECT_NE(find(io::lint_domain_text(text, io::DomainFormat::Json, "door.json", lots), io::LintKind::UnreachableGoal, needle),
              nullptr);
}
