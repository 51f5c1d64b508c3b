// libFuzzer target: the save file loader, then restoring every section it holds into fresh objects
// (agent systems of a small built-in domain, request queues and movement systems on the saved maps)
// and running them a few ticks. Any input must give restored objects or a LoadError, never a crash, a
// hang or a sanitizer report.
#include <gameplan/goap/agent.hpp>
#include <gameplan/io/domain_json.hpp>
#include <gameplan/io/load_error.hpp>
#include <gameplan/io/save.hpp>
#include <gameplan/path/movement.hpp>
#include <gameplan/path/request_queue.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

namespace {

// The domain the agent sections are restored into (the corpus saves were written with it).
constexpr const char* kDomain = R"({
  "atoms": ["raining", "market_open", "hungry", "has_food", "has_money", "tired", "rested"],
  "shared": ["raining", "market_open"],
  "actions": [
    {"name": "work", "cost": 3, "effects": {"has_money": true, "tired": true}},
    {"name": "buy", "cost": 2, "preconditions": {"has_money": true, "market_open": true}, "effects": {"has_food": true, "has_money": false}},
    {"name": "forage", "cost": 1, "preconditions": {"raining": false}, "effects": {"has_food": true},
     "retry": {"after_failures": 1, "cooldown_ticks": 9}},
    {"name": "eat", "cost": 1, "preconditions": {"has_food": true}, "effects": {"hungry": false, "has_food": false}},
    {"name": "sleep", "cost": 4, "preconditions": {"tired": true}, "effects": {"tired": false, "rested": true}},
    {"name": "open_market", "cost": 5, "effects": {"market_open": true}}
  ],
  "start": {"hungry": true},
  "goals": {
    "eat": {"conditions": {"hungry": false}, "priority": 10},
    "rest": {"conditions": {"tired": false, "rested": true}, "priority": 5}
  }
})";

struct Fixture {
    gameplan::io::DomainFile file = gameplan::io::parse_domain_json(kDomain, "town.json");
    std::shared_ptr<const gameplan::goap::AgentType> type;
    Fixture() {
        gameplan::goap::AgentTypeBuilder b(file.domain, "villager");
        for (std::uint32_t a = 0; a < file.domain.action_count(); ++a) {
            gameplan::goap::Behaviour beh([](gameplan::goap::ActionContext& c) {
                return c.ticks_running >= 1 ? gameplan::goap::ActionStatus::Success : gameplan::goap::ActionStatus::Running;
            });
            beh.abort = [](gameplan::goap::ActionContext&, gameplan::goap::AbortReason) {};
            (void)b.bind(file.domain.action_name(gameplan::goap::ActionId(a)), std::move(beh));
        }
        type = b.build().type;
    }
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace gameplan;
    static const Fixture fixture;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    io::SaveFile save;
    try {
        save = io::parse_save(text, "fuzz.save");
    } catch (const io::LoadError&) {
        return 0;
    }
    for (std::size_t i = 0; i < save.agent_systems.size() && i < 4; ++i) {
        goap::AgentSystem system(fixture.file.domain);
        try {
            io::restore(system, save, i, [&](const goap::AgentState&, goap::AgentParams& p) {
                p.type = fixture.type;
                for (const goap::Goal& g : fixture.file.goals) p.goals.push_back(goap::AgentGoal::from(g));
                return true;
            });
        } catch (const io::LoadError&) {
            continue;
        }
        if (system.agent_count() > 64) continue;
        for (int t = 0; t < 5; ++t) system.tick();
    }
    // Paths on the saved maps (small ones only: each lane sizes its search state for the map).
    if (save.maps.empty() || save.maps[0].cell_count() > (1u << 16)) return 0;
    for (std::size_t i = 0; i < save.queues.size() && i < 4; ++i) {
        path::GridMap map = save.maps[0];
        path::QueueOptions options;
        options.lanes = std::max<std::uint32_t>(1, std::min<std::uint32_t>(save.queues[i].lanes, 8));
        path::PathRequestQueue queue(map, options);
        try {
            io::restore(queue, save, i);
        } catch (const io::LoadError&) {
            continue;
        }
        for (int t = 0; t < 5; ++t) (void)queue.update(200);
    }
    for (std::size_t i = 0; i < save.movement.size() && i < 2; ++i) {
        path::GridMap map = save.maps[0];
        path::MovementOptions options;
        options.lanes = std::max<std::uint32_t>(1, std::min<std::uint32_t>(save.movement[i].queue.lanes, 8));
        // A save with the crowd stepper's state is restored into a system that steps with it.
        if (!save.movement[i].crowd.units.empty()) options.resolver = path::StepResolver::Crowd;
        path::MovementSystem movement(map, options);
        try {
            io::restore(movement, save, i);
        } catch (const io::LoadError&) {
            continue;
        }
        for (int t = 0; t < 5; ++t) movement.update();
    }
    return 0;
}
