// Agent types: behaviours bound by action name, validated at bind time.
#include "agent_test_util.hpp"

#include <gameplan/goap/agent.hpp>

#include <gtest/gtest.h>

namespace gameplan::goap {
namespace {

using test::cond;
using test::scripted;

Domain attack_domain() {
    DomainBuilder b;
    EXPECT_EQ(b.add_action("approach", 2, {{"in_range", false}}, {{"in_range", true}}), DomainError::None);
    EXPECT_EQ(b.add_action("attack", 1, {{"in_range", true}}, {{"target_down", true}}), DomainError::None);
    EXPECT_EQ(b.add_action("charge", 1, {}, {{"target_down", true}}), DomainError::None);
    return b.build();
}

TEST(AgentBinding, UnknownNameIsAnErrorAtBindTime) {
    const Domain d = attack_domain();
    AgentTypeBuilder b(d, "archer");
    EXPECT_EQ(b.bind("atack", scripted({})), BindErrorKind::UnknownAction);
    EXPECT_EQ(b.set_check("nope", [](const PlanningContext&) { return true; }), BindErrorKind::UnknownAction);
    EXPECT_EQ(b.set_cost("nope", [](const PlanningContext&) { return 1.0; }), BindErrorKind::UnknownAction);
    EXPECT_EQ(b.exclude("nope"), BindErrorKind::UnknownAction);
    EXPECT_EQ(b.bind("approach", scripted({})), BindErrorKind::None);
    EXPECT_EQ(b.bind("attack", scripted({})), BindErrorKind::None);
    EXPECT_EQ(b.bind("charge", scripted({})), BindErrorKind::None);
    const BindResult r = b.build();
    EXPECT_FALSE(r.ok());
    ASSERT_EQ(r.errors.size(), 4u);  // recorded even though the return values were looked at only here
    EXPECT_EQ(r.errors[0].kind, BindErrorKind::UnknownAction);
    EXPECT_EQ(r.errors[0].action, "atack");
    EXPECT_NE(r.message().find("action 'atack': unknown_action"), std::string::npos) << r.message();
}

TEST(AgentBinding, UnboundPlannableActionIsAnError) {
    const Domain d = attack_domain();
    AgentTypeBuilder b(d, "archer");
    EXPECT_EQ(b.bind("approach", scripted({})), BindErrorKind::None);
    EXPECT_EQ(b.bind("attack", scripted({})), BindErrorKind::None);
    const BindResult r = b.build();
    ASSERT_FALSE(r.ok());
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_EQ(r.errors[0].kind, BindErrorKind::Unbound);
    EXPECT_EQ(r.errors[0].action, "charge");
    EXPECT_EQ(r.type, nullptr);
}

TEST(AgentBinding, DuplicatesEmptyBehavioursAndExclusionConflicts) {
    const Domain d = attack_domain();
    AgentTypeBuilder b(d, "x");
    EXPECT_EQ(b.bind("approach", scripted({})), BindErrorKind::None);
    EXPECT_EQ(b.bind("approach", scripted({})), BindErrorKind::AlreadyBound);
    EXPECT_EQ(b.bind("attack", Behaviour{}), BindErrorKind::EmptyBehaviour);
    EXPECT_EQ(b.exclude("charge"), BindErrorKind::None);
    EXPECT_EQ(b.exclude("charge"), BindErrorKind::Excluded);
    EXPECT_EQ(b.bind("charge", scripted({})), BindErrorKind::Excluded);
    EXPECT_EQ(b.set_cost("charge", [](const PlanningContext&) { return 1.0; }), BindErrorKind::Excluded);
    EXPECT_EQ(b.exclude("approach"), BindErrorKind::Excluded);  // already bound
    const BindResult r = b.build();
    EXPECT_FALSE(r.ok());
    // approach twice, empty attack, charge excluded twice, bind/cost on excluded, exclude bound + attack unbound
    EXPECT_EQ(r.errors.size(), 7u) << r.message();
}

TEST(AgentBinding, ExcludedActionsAreNeverPlanned) {
    // charge (cost 1) is cheaper than approach + attack (3); a type that excludes it must not use it.
    const Domain d = attack_domain();
    const auto with_charge = test::scripted_type(d);
    const auto without_charge = test::scripted_type(d, {}, {"charge"});
    EXPECT_TRUE(with_charge->all_plannable());
    EXPECT_FALSE(without_charge->all_plannable());
    EXPECT_FALSE(without_charge->plannable(d.find_action("charge")));
    EXPECT_EQ(without_charge->behaviour(d.find_action("charge")), nullptr);

    AgentSystem system(d);
    test::Recorder rec;
    system.set_observer(&rec);
    const AgentId a = system.add_agent({"gunner", with_charge, {test::goal(d, "down", {{"target_down", true}})}, {}, nullptr});
    const AgentId b = system.add_agent({"archer", without_charge, {test::goal(d, "down", {{"target_down", true}})}, {}, nullptr});
    ASSERT_TRUE(a.valid() && b.valid());
    system.tick();
    EXPECT_EQ(rec.of("gunner", AgentEventKind::PlanFound).at(0).plan, (std::vector<std::string>{"charge"}));
    EXPECT_EQ(rec.of("archer", AgentEventKind::PlanFound).at(0).plan, (std::vector<std::string>{"approach", "attack"}));
}

TEST(AgentBinding, OneActionSetDifferentBehavioursPerType) {
    const Domain d = attack_domain();
    std::vector<std::string> log;
    const auto make = [&](const char* bow_or_rifle) {
        AgentTypeBuilder b(d, bow_or_rifle);
        EXPECT_EQ(b.bind("approach", scripted({})), BindErrorKind::None);
        EXPECT_EQ(b.bind("attack", Behaviour([&log, bow_or_rifle](ActionContext& c) {
                              log.push_back(c.agent.name() + ":" + bow_or_rifle);
                              return ActionStatus::Success;
                          })),
                  BindErrorKind::None);
        EXPECT_EQ(b.exclude("charge"), BindErrorKind::None);
        BindResult r = b.build();
        EXPECT_TRUE(r.ok()) << r.message();
        return r.type;
    };
    AgentSystem system(d);
    const AgentId archer = system.add_agent({"archer", make("bow_shot"), {test::goal(d, "down", {{"target_down", true}})}, {}, nullptr});
    const AgentId gunner = system.add_agent({"gunner", make("rifle_shot"), {test::goal(d, "down", {{"target_down", true}})}, {}, nullptr});
    ASSERT_TRUE(archer.valid() && gunner.valid());
    for (int t = 0; t < 3; ++t) system.tick();
    EXPECT_EQ(log, (std::vector<std::string>{"archer:bow_shot", "gunner:rifle_shot"}));
}

TEST(AgentBinding, AddAgentRejectsMismatchedInputs) {
    const Domain d = attack_domain();
    const Domain other = attack_domain();
    AgentSystem system(d);
    EXPECT_FALSE(system.add_agent({"no type", nullptr, {}, {}, nullptr}).valid());
    EXPECT_FALSE(system.add_agent({"other domain", test::scripted_type(other), {}, {}, nullptr}).valid());
    EXPECT_FALSE(system.add_agent({"bad goal", test::scripted_type(d), {AgentGoal{"g", Condition(1), 0, {}}}, {}, nullptr}).valid());
    EXPECT_FALSE(system.add_agent({"bad state", test::scripted_type(d), {}, WorldState(1), nullptr}).valid());
    EXPECT_EQ(system.agent_count(), 0u);
    EXPECT_TRUE(system.add_agent({"ok", test::scripted_type(d), {}, {}, nullptr}).valid());
}

}  // namespace
}  // namespace gameplan::goap
