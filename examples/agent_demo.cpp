// agent_demo: the GOAP agent runtime in a small game loop.
//
// One action set, two agent types: "attack" is a bow shot for the archer and a rifle shot
// for the gunner. Units live on a line; "approach" walks one step per tick until the target is in the
// unit's range (a behaviour that runs over many ticks), its cost is the walking distance (a dynamic
// cost read from the game through the agent's user data), and it is only usable while a target exists
// (a context check). The target is a shared atom on the world blackboard; when one unit brings it
// down, the other's goal is reached by someone else and its running action is aborted.
#include <gameplan/goap/agent.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace gameplan::goap;

namespace {

struct Unit {           // the game's side of an agent (its user data)
    double position;
    double range;
    int shot_ticks;     // how long its attack takes
};

struct Game {
    double target_position = 20;
    bool target_exists = true;
};

Game game;

Unit& unit_of(void* user_data) { return *static_cast<Unit*>(user_data); }

std::shared_ptr<const AgentType> make_type(const Domain& domain, const char* name, const char* shot) {
    AgentTypeBuilder b(domain, name);
    b.bind("approach", Behaviour([](ActionContext& c) {
        Unit& u = unit_of(c.user_data);
        const double gap = game.target_position - u.position;
        if (std::fabs(gap) <= u.range) return ActionStatus::Success;
        u.position += gap > 0 ? 1 : -1;  // one step per tick
        return std::fabs(game.target_position - u.position) <= u.range ? ActionStatus::Success : ActionStatus::Running;
    }));
    b.bind("ready_weapon", Behaviour([](ActionContext&) { return ActionStatus::Success; }));
    b.bind("attack", Behaviour([shot](ActionContext& c) {
        if (c.ticks_running + 1 < static_cast<std::uint64_t>(unit_of(c.user_data).shot_ticks)) return ActionStatus::Running;
        std::printf("           %s: %s hits the target\n", c.agent.name().c_str(), shot);
        return ActionStatus::Success;
    }));
    // Dynamic cost: the walking distance, evaluated once per planning call against the agent's situation.
    b.set_cost("approach", [](const PlanningContext& c) {
        const Unit& u = unit_of(c.user_data);
        return std::max(0.0, std::fabs(game.target_position - u.position) - u.range);
    });
    // Procedural precondition: there must be something to approach.
    b.set_check("approach", [](const PlanningContext&) { return game.target_exists; });
    const BindResult r = b.build();
    if (!r.ok()) {
        std::fprintf(stderr, "%s\n", r.message().c_str());
        std::exit(1);
    }
    return r.type;
}

class Printer final : public AgentObserver {
public:
    void on_event(const Agent& agent, const AgentEvent& e) override {
        std::printf("tick %2llu  %-7s %s\n", static_cast<unsigned long long>(e.tick), agent.name().c_str(),
                    describe(agent, e).c_str());
    }
};

}  // namespace

int main() {
    DomainBuilder b;
    b.add_atom("target_down", true);  // world-owned
    (void)b.add_action("approach", 1, {{"in_range", false}}, {{"in_range", true}});
    (void)b.add_action("ready_weapon", 1, {{"weapon_ready", false}}, {{"weapon_ready", true}});
    (void)b.add_action("attack", 1, {{"in_range", true}, {"weapon_ready", true}}, {{"target_down", true}, {"weapon_ready", false}});
    const Domain domain = b.build();

    AgentSystem system(domain);
    Printer printer;
    system.set_observer(&printer);

    Condition goal = domain.make_condition();
    goal.set(domain.find_atom("target_down"), true);
    Unit archer{0, 8, 3}, gunner{4, 1, 1};  // the archer shoots from farther away, but slowly
    AgentParams a;
    a.name = "archer";
    a.type = make_type(domain, "archer", "an arrow");
    a.goals = {AgentGoal{"bring_down_target", goal, 1, {}}};
    a.user_data = &archer;
    AgentParams g = a;
    g.name = "gunner";
    g.type = make_type(domain, "gunner", "a rifle bullet");
    g.user_data = &gunner;
    (void)system.add_agent(std::move(a));
    (void)system.add_agent(std::move(g));

    ThreadPool pool(2);  // planning runs on the pool; behaviours on this thread; same trace either way
    for (int tick = 0; tick < 30; ++tick) {
        if (tick == 18) {  // a new target appears elsewhere: the game writes the blackboard between ticks
            game.target_position = 2;
            (void)system.blackboard().set("target_down", false);
            system.for_each_agent([](Agent& agent) {
                (void)agent.set("in_range", false);  // positions changed: the game updates private atoms
            });
            std::printf("           (a new target appears at 2)\n");
        }
        system.tick(&pool);
    }
    const AgentStats s = system.total_stats();
    std::printf("%llu replans, %llu planner queries, %llu actions started\n", static_cast<unsigned long long>(s.replans),
                static_cast<unsigned long long>(s.searches), static_cast<unsigned long long>(s.actions_started));
    return 0;
}
