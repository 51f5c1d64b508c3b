// The agent runtime with variables: sensors writing atoms and variables drive replans, conditional
// goals switch on and off with the view, variable priorities re-rank goals, and back-off skips an
// action that keeps failing, says so in the event trace, and recovers after its cool-down.
#include <gameplan/goap/agent.hpp>
#include <gameplan/io/domain_json.hpp>

#include <string>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::goap;

namespace {

const char* kDomain = R"({
  "variables": {"ammo": {"max": 10}, "hunger": {"max": 10}},
  "actions": [
    {"name": "shoot", "cost": 1, "preconditions": {"ammo": [">=", 1], "player_visible": true},
     "effects": {"ammo": ["-", 1], "target_hit": true}, "retry": {"after_failures": 2, "cooldown_ticks": 5}},
    {"name": "reload", "cost": 2, "effects": {"ammo": ["=", 10]}},
    {"name": "eat", "cost": 1, "preconditions": {"hunger": [">=", 1]}, "effects": {"hunger": ["=", 0]}}
  ],
  "goals": {
    "attack": {"conditions": {"target_hit": true}, "when": {"player_visible": true}, "priority": 5},
    "eat": {"conditions": {"hunger": ["==", 0]}, "priority": {"variable": "hunger", "scale": 1, "offset": 0}}
  }
})";

struct Recorder final : AgentObserver {
    std::vector<std::pair<std::uint64_t, std::string>> events;
    void on_event(const Agent& agent, const AgentEvent& e) override { events.emplace_back(e.tick, describe(agent, e)); }
    [[nodiscard]] bool saw(const std::string& part) const {
        for (const auto& [t, s] : events)
            if (s.find(part) != std::string::npos) return true;
        return false;
    }
};

struct Game {
    bool player_seen = false;
    int ammo = 3;
    int hunger = 0;
    int shoot_failures_left = 0;
};

}  // namespace

TEST(NumericAgent, SensorsConditionalGoalsVariablePrioritiesAndBackOff) {
    const io::DomainFile f = io::parse_domain_json(kDomain, "agent.json");
    const Domain& d = f.domain;
    const AtomId visible = d.find_atom("player_visible"), hit = d.find_atom("target_hit");
    const VarId ammo = d.find_variable("ammo"), hunger = d.find_variable("hunger");
    Game game;
    AgentTypeBuilder b(d, "guard");
    b.bind("shoot", Behaviour([](ActionContext& c) {
        Game& g = *static_cast<Game*>(c.user_data);
        if (g.shoot_failures_left > 0) {
            --g.shoot_failures_left;
            return ActionStatus::Failure;
        }
        return ActionStatus::Success;
    }));
    b.bind("reload", Behaviour([](ActionContext&) { return ActionStatus::Success; }));
    b.bind("eat", Behaviour([](ActionContext&) { return ActionStatus::Success; }));
    // Sensors: the game's own state copied into the agent before it decides.
    b.add_sensor("eyes", [](SensorContext& c) {
        (void)c.agent.set(c.agent.domain().find_atom("player_visible"), static_cast<Game*>(c.user_data)->player_seen);
    });
    b.add_sensor("stomach", [](SensorContext& c) {
        (void)c.agent.set_value(c.agent.domain().find_variable("hunger"), static_cast<Game*>(c.user_data)->hunger);
    }, 2);
    const BindResult type = b.build();
    ASSERT_TRUE(type.ok()) << type.message();

    AgentSystem s(d);
    Recorder rec;
    s.set_observer(&rec);
    AgentParams p;
    p.name = "guard";
    p.type = type.type;
    for (const Goal& g : f.goals) p.goals.push_back(AgentGoal::from(g));
    p.state = d.make_state();
    p.state.set_value(ammo, 3);
    p.user_data = &game;
    const AgentId id = s.add_agent(std::move(p));
    Agent& agent = *s.find(id);

    s.tick();  // tick 0: player unseen -> "attack" inactive; hunger 0 -> "eat" satisfied: idle
    EXPECT_EQ(agent.status(), AgentStatus::Idle);
    EXPECT_FALSE(rec.saw("plan found"));

    // Conditional goal switches on: the sensor writes player_visible, the view changes, the agent plans.
    game.player_seen = true;
    game.shoot_failures_left = 2;
    s.tick();  // tick 1: plan [shoot], shoot fails (1)
    EXPECT_TRUE(rec.saw("plan found for attack: shoot"));
    EXPECT_TRUE(rec.saw("action failed: shoot"));
    s.tick();  // tick 2: replan, shoot fails (2): backed off for 5 ticks
    EXPECT_TRUE(rec.saw("action backed off: shoot (failed 2 times in a row"));
    EXPECT_TRUE(agent.backed_off(d.find_action("shoot"), 3));
    s.tick();  // tick 3: no plan without shoot -> idle, no busy loop
    EXPECT_EQ(agent.status(), AgentStatus::Idle);
    const std::size_t before = rec.events.size();
    s.tick();  // tick 4: nothing changed: nothing happens
    EXPECT_EQ(rec.events.size(), before);
    for (int i = 0; i < 4; ++i) s.tick();  // ticks 5..8: the cool-down ends at tick 8
    EXPECT_TRUE(rec.saw("back-off ended: shoot"));
    s.tick();
    EXPECT_TRUE(agent.view().get(hit));
    EXPECT_EQ(agent.private_state().value(ammo), 2);  // 3 - 1: the numeric effect was applied
    EXPECT_TRUE(agent.private_state().get(visible));

    // The conditional goal switches off again and a variable priority takes over.
    game.player_seen = false;
    game.hunger = 7;  // the stomach sensor runs on even ticks
    for (int i = 0; i < 3; ++i) s.tick();
    EXPECT_TRUE(rec.saw("plan found for eat: eat"));
    EXPECT_EQ(agent.private_state().value(hunger), 0);
}
