// Domain files with variables: the examples plan as documented (the wood-collection bar included),
// conditional goals and variable priorities load, and every bad input is a LoadError naming file,
// line, column and JSON path.
#include <gameplan/goap/planner.hpp>
#include <gameplan/io/domain_json.hpp>
#include <gameplan/io/load_error.hpp>

#include <test_data.hpp>

#include <map>
#include <optional>
#include <queue>
#include <string>
#include <tuple>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::goap;

namespace {

// Expects a LoadError at the first occurrence of `at` in `text` (1-based column on line 1 of a
// one-line document), with JSON path `field` and a message containing `part`.
void expect_error(const std::string& text, const std::string& at, const std::string& field, const std::string& part) {
    try {
        (void)io::parse_domain_json(text, "bad.json");
        ADD_FAILURE() << "no error for:\n" << text;
    } catch (const io::LoadError& e) {
        EXPECT_EQ(e.file(), "bad.json");
        EXPECT_EQ(e.line(), 1u) << e.what();
        ASSERT_NE(text.find(at), std::string::npos) << at;
        EXPECT_EQ(e.column(), text.find(at) + 1) << e.what();
        EXPECT_EQ(e.field(), field) << e.what();
        EXPECT_NE(e.message().find(part), std::string::npos) << e.what();
    }
}

std::string doc(const std::string& variables, const std::string& action_extra, const std::string& rest = "") {
    return R"({"variables": )" + variables + R"(, "actions": [{"name": "a", "cost": 1)" + action_extra + "}]" + rest + "}";
}

// An independent uniform-cost search over concrete states that reads the loaded domain through its
// accessors only and applies the format's semantics itself (effects from the state before; a result
// outside the bounds makes the action inapplicable).
std::optional<double> brute_force_cost(const Domain& d, const WorldState& start, const Condition& goal) {
    using Key = std::pair<std::vector<std::uint64_t>, std::vector<std::int32_t>>;
    const auto key = [](const WorldState& s) {
        return Key{{s.words().begin(), s.words().end()}, {s.values().begin(), s.values().end()}};
    };
    std::map<Key, double> best;
    using Entry = std::pair<double, WorldState>;
    const auto cmp = [](const Entry& a, const Entry& b) { return a.first > b.first; };
    std::priority_queue<Entry, std::vector<Entry>, decltype(cmp)> open(cmp);
    best[key(start)] = 0;
    open.push({0, start});
    while (!open.empty()) {
        const Entry e = open.top();
        open.pop();
        if (best[key(e.second)] < e.first) continue;
        bool goal_ok = true;
        goal.for_each([&](Literal l) { goal_ok = goal_ok && e.second.get(l.atom) == l.value; });
        for (const Comparison& c : goal.comparisons()) {
            const std::int32_t v = e.second.value(c.var);
            const bool ok[] = {v == c.value, v != c.value, v < c.value, v <= c.value, v > c.value, v >= c.value};
            goal_ok = goal_ok && ok[static_cast<int>(c.op)];
        }
        if (goal_ok) return e.first;
        for (std::uint32_t a = 0; a < d.action_count(); ++a) {
            const ActionId id(a);
            bool ok = true;
            d.preconditions(id).for_each([&](Literal l) { ok = ok && e.second.get(l.atom) == l.value; });
            for (const Comparison& c : d.preconditions(id).comparisons()) {
                const std::int32_t v = e.second.value(c.var);
                const bool r[] = {v == c.value, v != c.value, v < c.value, v <= c.value, v > c.value, v >= c.value};
                ok = ok && r[static_cast<int>(c.op)];
            }
            if (!ok) continue;
            WorldState n = e.second;
            d.effects(id).for_each([&](Literal l) { n.set(l.atom, l.value); });
            for (const NumericEffect& ne : d.numeric_effects(id)) {
                const std::int64_t before = e.second.value(ne.var);
                const std::int64_t after = ne.op == EffectOp::Set ? ne.value : ne.op == EffectOp::Add ? before + ne.value : before - ne.value;
                if (after < d.variable_min(ne.var) || after > d.variable_max(ne.var)) ok = false;
                else n.set_value(ne.var, static_cast<std::int32_t>(after));
            }
            if (!ok) continue;
            const double c = e.first + d.action_cost(id);
            const auto it = best.find(key(n));
            if (it == best.end() || c < it->second) {
                best[key(n)] = c;
                open.push({c, n});
            }
        }
    }
    return std::nullopt;
}

}  // namespace

TEST(NumericDomainJson, WoodCollectionIsOptimalWithinTheExpansionBar) {
    const io::DomainFile f = io::load_domain_json(test::source_dir() / "examples/goap/wood_collection.json");
    ASSERT_EQ(f.domain.action_count(), 104u);  // walk, three chops, 100 distractors
    const auto expected = brute_force_cost(f.domain, f.start, *f.goal);
    ASSERT_TRUE(expected);
    EXPECT_EQ(*expected, 39);  // walk_to_forest (4) + 20 x chop_2 (1.75)
    Planner p(f.domain);
    for (const Direction dir : {Direction::Forward, Direction::Backward}) {
        PlanOptions o;
        o.direction = dir;
        const PlanResult r = p.plan(f.start, *f.goal, o);
        ASSERT_EQ(r.status, Status::Found);
        EXPECT_EQ(r.cost, *expected);
        EXPECT_LE(r.stats.expanded, 5000u);
        // A blind (h = 0) uniform-cost search needs far more: every (wood, location) pair cheaper than 39.
        EXPECT_LE(r.stats.expanded, 100u) << "the heuristic should follow the chop_2 chain closely";
    }
}

TEST(NumericDomainJson, GuardExamplePlansAndGoalsLoad) {
    const io::DomainFile f = io::load_domain_json(test::source_dir() / "examples/goap/guard_numbers.json");
    const VarId ammo = f.domain.find_variable("ammo"), wood = f.domain.find_variable("wood"),
                location = f.domain.find_variable("location"), cold = f.domain.find_variable("cold");
    ASSERT_TRUE(ammo.valid() && wood.valid() && location.valid() && cold.valid());
    EXPECT_EQ(f.start.value(ammo), 3);
    EXPECT_EQ(f.start.value(wood), 0);  // not in start: its minimum
    EXPECT_EQ(f.start.value(location), 0);
    EXPECT_EQ(f.domain.variable_values(location)[1], "forest");
    EXPECT_EQ(f.domain.retry_policy(f.domain.find_action("shoot")), (RetryPolicy{2, 30}));
    EXPECT_EQ(f.domain.retry_policy(f.domain.find_action("chop")), RetryPolicy{});
    Planner p(f.domain);
    const PlanResult r = p.plan(f.start, *f.goal);
    ASSERT_EQ(r.status, Status::Found);
    EXPECT_EQ(r.cost, *brute_force_cost(f.domain, f.start, *f.goal));
    EXPECT_EQ(r.cost, 15);
    // Conditional goal and variable priority.
    const Goal* defend = f.find_goal("defend");
    const Goal* warm = f.find_goal("warm_up");
    ASSERT_TRUE(defend && warm);
    EXPECT_FALSE(defend->when.empty());
    EXPECT_FALSE(f.start.satisfies(defend->when));
    EXPECT_EQ(warm->priority_in(f.start), 1.5 * 4);
    WorldState colder = f.start;
    colder.set_value(cold, 10);
    EXPECT_EQ(warm->priority_in(colder), 15);
}

TEST(NumericDomainJson, DefaultGoalHonoursWhenAndVariablePriorities) {
    const std::string text = R"({"variables": {"hunger": {"max": 10}}, "actions": [],
        "start": {"hunger": 4},
        "goals": {"fight": {"conditions": {"won": true}, "when": {"enemy": true}, "priority": 100},
                  "eat": {"conditions": {"hunger": ["==", 0]}, "priority": {"variable": "hunger", "scale": 2, "offset": 1}},
                  "rest": {"conditions": {"rested": true}, "priority": 8}}})";
    const io::DomainFile f = io::parse_domain_json(text, "t.json");
    EXPECT_EQ(f.default_goal(), &f.find_goal("eat")->condition);  // 2 * 4 + 1 = 9 > 8; fight is inactive
}

TEST(NumericDomainJson, BadInputNamesFileLineColumnAndPath) {
    const std::string ints = R"({"n": {"min": 0, "max": 5}, "loc": {"values": ["a", "b"]}})";
    // unknown variable
    expect_error(doc(ints, R"(, "preconditions": {"m": [">=", 1]})"), R"("m")", "actions[0].preconditions.m", "unknown variable 'm'");
    expect_error(doc(ints, R"(, "effects": {"m": ["+", 1]})"), R"("m")", "actions[0].effects.m", "unknown variable 'm'");
    // value outside bounds / not in values
    expect_error(doc(ints, "", R"(, "start": {"n": 6})"), R"("n": 6)", "start.n", "outside the bounds [0, 5]");
    expect_error(doc(ints, R"(, "effects": {"n": ["=", -1]})"), "-1]", "actions[0].effects.n[1]", "outside the bounds");
    expect_error(doc(ints, R"(, "preconditions": {"loc": ["==", "c"]})"), R"("c")", "actions[0].preconditions.loc[1]",
                 "'c' is not a value of 'loc'");
    // a near miss of an enumeration value is suggested, as the CSV loader and lint do
    const std::string places = R"({"place": {"values": ["home", "forest"]}})";
    expect_error(doc(places, R"(, "effects": {"place": "forrest"})"), R"("place": "forrest")", "actions[0].effects.place",
                 "'forrest' is not a value of 'place' (did you mean 'forest'?) (values: home, forest)");
    expect_error(doc(ints, "", R"(, "goal": {"n": [">", 9]})"), "9]", "goal.n[1]", "outside the bounds");
    // comparison or effect of the wrong kind
    expect_error(doc(ints, R"(, "preconditions": {"loc": ["<", "b"]})"), R"("<")", "actions[0].preconditions.loc[0]",
                 "only == and != compare it");
    expect_error(doc(ints, R"(, "effects": {"loc": ["+", 1]})"), R"("+")", "actions[0].effects.loc[0]", "only = sets it");
    expect_error(doc(ints, R"(, "preconditions": {"n": ["+", 1]})"), R"("+")", "actions[0].preconditions.n[0]",
                 "unknown comparison '+'");
    expect_error(doc(ints, R"(, "effects": {"n": [">=", 1]})"), R"(">=")", "actions[0].effects.n[0]", "unknown effect '>='");
    expect_error(doc(ints, R"(, "effects": {"n": true})"), R"("n": true)", "actions[0].effects.n", "is a variable");
    expect_error(doc(ints, R"(, "preconditions": {"n": ["==", "a"]})"), R"("a"])", "actions[0].preconditions.n[1]",
                 "integer variable");
    // max < min, missing max, non-integer numbers
    expect_error(doc(R"({"n": {"min": 5, "max": 2}})", ""), R"("max")", "variables.n.max", "less than min");
    expect_error(doc(R"({"n": {"min": 5}})", ""), R"("n")", "variables.n.max", "missing required field");
    expect_error(doc(R"({"n": {"max": 2.5}})", ""), R"("max")", "variables.n.max", "non-integer");
    expect_error(doc(ints, R"(, "effects": {"n": ["+", 1.5]})"), "1.5", "actions[0].effects.n[1]", "non-integer");
    expect_error(doc(ints, "", R"(, "start": {"n": 1e1})"), R"("n": 1e1)", "start.n", "non-integer");
    expect_error(doc(R"({"n": {"max": 3000000000}})", ""), R"("max")", "variables.n.max", "32-bit");
    // retry and priorities
    expect_error(doc(ints, R"(, "retry": {"after_failures": -1})"), R"("after_failures")", "actions[0].retry.after_failures", ">= 0");
    expect_error(doc(ints, "", R"(, "goals": {"g": {"conditions": {}, "priority": {"variable": "loc"}}})"), R"("variable")",
                 "goals.g.priority.variable", "enumerated");
    expect_error(doc(ints, "", R"(, "goals": {"g": {"conditions": {}, "when": {"q": [">", 1]}}})"), R"("q")", "goals.g.when.q",
                 "unknown variable 'q'");
}
