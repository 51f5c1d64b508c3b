// Save files: round trips of every saved object against the same object run on without saving (the
// independent reference is the uninterrupted run: its events, results and positions), and hostile
// files (every truncation of a small save, flipped fields, foreign formats, wrong versions).
#include <gameplan/goap/agent.hpp>
#include <gameplan/io/domain_json.hpp>
#include <gameplan/io/save.hpp>
#include <gameplan/path/movement.hpp>
#include <gameplan/path/request_queue.hpp>

#include <gtest/gtest.h>

#include <cctype>
#include <cstdint>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace gameplan;
using path::GridPoint;

std::uint64_t mix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

path::GridMap random_map(std::int32_t w, std::int32_t h, std::uint64_t seed, int wall_percent) {
    path::GridMap m;
    (void)m.reset(w, h);
    for (std::int32_t y = 0; y < h; ++y)
        for (std::int32_t x = 0; x < w; ++x)
            if (mix(seed * 1000003 + std::uint64_t(y) * 7919 + std::uint64_t(x)) % 100 < std::uint64_t(wall_percent))
                (void)m.set_passable({x, y}, false);
    return m;
}

GridPoint random_free(const path::GridMap& m, std::uint64_t key) {
    for (std::uint64_t k = 0;; ++k) {
        const std::uint64_t r = mix(key * 31 + k);
        const GridPoint p{std::int32_t(r % std::uint64_t(m.width())), std::int32_t((r >> 32) % std::uint64_t(m.height()))};
        if (m.passable(p)) return p;
    }
}

// ---- the request queue -----------------------------------------------------------------------------

// The game's side of a queue run: per frame, submissions, a cancellation, a map change, an update with a
// small budget (so searches span frames), and a log of everything that finished.
struct QueueGame {
    path::GridMap map;
    std::unique_ptr<path::PathRequestQueue> queue;
    std::vector<path::PathHandle> live;
    std::ostringstream log;

    void frame(std::uint64_t f) {
        const std::uint64_t r = mix(f);
        if (r % 3 != 0) {
            path::PathRequest req;
            req.start = random_free(map, f * 2);
            req.goal = random_free(map, f * 2 + 1);
            req.priority = std::int32_t(r % 3);
            live.push_back(queue->submit(req));
        }
        if (r % 7 == 0 && !live.empty()) (void)queue->cancel(live[(r >> 8) % live.size()]);
        if (r % 11 == 0) {
            const GridPoint p{std::int32_t((r >> 16) % std::uint64_t(map.width())), std::int32_t((r >> 24) % std::uint64_t(map.height()))};
            (void)map.set_passable(p, !map.passable(p));
        }
        if (r % 5 == 0) {  // a cost painted: running searches go on through it
            const GridPoint p{std::int32_t((r >> 20) % std::uint64_t(map.width())), std::int32_t((r >> 28) % std::uint64_t(map.height()))};
            (void)map.set_cost(p, 1 + std::uint32_t((r >> 40) % 6));
        }
        const path::QueueUpdateStats s = queue->update(40);
        log << f << ": expanded " << s.expanded << " restarted " << s.restarted << " requeued " << s.requeued << "\n";
        // Results are taken one frame in five, so some wait finished (and are re-checked) across a save.
        if (f % 5 != 0) return;
        for (const path::PathHandle h : live) {
            path::PathResult out;
            if (queue->state(h) != path::RequestState::Done || !queue->take(h, out)) continue;
            log << "  " << h.index << "/" << h.generation << " " << int(out.status) << " limit " << int(out.limit) << " cost "
                << out.path.cost << " cells " << out.path.cells.size() << " expanded " << out.expanded << " restarts "
                << out.restarts << " version " << out.map_version << " frames " << out.submitted_frame << ".."
                << out.completed_frame << "\n";
        }
    }
};

void queue_round_trip(const path::QueueOptions& options);

TEST(SaveQueue, RoundTripWithSearchesInProgressMatchesTheUninterruptedQueue) {
    path::QueueOptions options;
    options.lanes = 3;
    options.aging_frames = 4;
    queue_round_trip(options);
}

// The same with searches that go on through changes of passability: after loading they make the same
// choices (go on, or run again at the end) as the queue that was never saved.
TEST(SaveQueue, RoundTripOfSearchesGoingOnThroughPassabilityChanges) {
    path::QueueOptions options;
    options.lanes = 2;
    options.restart_on_passability_change = false;
    queue_round_trip(options);
}

void queue_round_trip(const path::QueueOptions& options) {
    QueueGame straight{random_map(48, 40, 1, 25), nullptr, {}, {}};
    straight.queue = std::make_unique<path::PathRequestQueue>(straight.map, options);
    QueueGame first{random_map(48, 40, 1, 25), nullptr, {}, {}};
    first.queue = std::make_unique<path::PathRequestQueue>(first.map, options);
    constexpr std::uint64_t kEnd = 120;
    for (std::uint64_t f = 0; f < kEnd; ++f) straight.frame(f);
    // Saved after the first frame past 30 that leaves both searches in progress and results not taken.
    const auto waiting = [&](path::RequestState state) {
        return std::any_of(first.live.begin(), first.live.end(), [&](path::PathHandle h) { return first.queue->state(h) == state; });
    };
    std::uint64_t save_at = 0;
    while (save_at < kEnd - 20 && (save_at <= 30 || !waiting(path::RequestState::Running) || !waiting(path::RequestState::Done)))
        first.frame(save_at++);
    io::SaveFile save;
    save.maps.push_back(first.map);
    first.queue->save_state(save.queues.emplace_back());
    std::size_t running = 0, done = 0;
    for (const auto& r : save.queues[0].requests) {
        running += r.state == path::RequestState::Running ? 1 : 0;
        done += r.state == path::RequestState::Done ? 1 : 0;
    }
    ASSERT_GT(running, 0u) << "the test needs searches in progress at the save";
    ASSERT_GT(done, 0u) << "the test needs finished results not yet taken at the save";
    const io::SaveFile loaded = io::parse_save(io::write_save(save), "queue.save");
    QueueGame second{loaded.maps[0], nullptr, first.live, {}};
    second.queue = std::make_unique<path::PathRequestQueue>(second.map, options);
    io::restore(*second.queue, loaded, 0);
    second.log << first.log.str();
    for (std::uint64_t f = save_at; f < kEnd; ++f) second.frame(f);
    EXPECT_EQ(second.log.str(), straight.log.str());
    EXPECT_EQ(second.map.version(), straight.map.version());
}

// Finished results keep the budget limit that ended them through a save; a limit on a result that did not
// run out of budget is refused, naming the field.
TEST(SaveQueue, FinishedResultsKeepTheirBudgetLimit) {
    const path::GridMap map = random_map(40, 30, 3, 10);
    path::PathRequestQueue queue(map, {});
    std::vector<path::PathHandle> handles;
    for (int kind = 0; kind < 3; ++kind) {
        path::PathRequest r{random_free(map, 1), random_free(map, 2), {}, 0};
        if (kind == 1) r.options.budget.max_expansions = 2;
        if (kind == 2) r.options.budget.max_memory_bytes = 64;
        handles.push_back(queue.submit(r));
    }
    for (int frame = 0; frame < 1000 && queue.pending_count() + queue.running_count() > 0; ++frame) (void)queue.update(50);
    io::SaveFile save;
    save.maps.push_back(map);
    queue.save_state(save.queues.emplace_back());
    const io::SaveFile loaded = io::parse_save(io::write_save(save), "limits.save");
    path::PathRequestQueue restored(map, {});
    io::restore(restored, loaded, 0);
    const search::BudgetLimit expected[] = {search::BudgetLimit::None, search::BudgetLimit::Expansions,
                                            search::BudgetLimit::Memory};
    for (std::size_t i = 0; i < handles.size(); ++i) {
        path::PathResult before, after;
        ASSERT_TRUE(queue.take(handles[i], before));
        ASSERT_TRUE(restored.take(handles[i], after));
        EXPECT_EQ(before.limit, expected[i]) << i;
        EXPECT_EQ(after.limit, before.limit) << i;
        EXPECT_EQ(after.status, before.status) << i;
    }
    // The first result was found: a limit on it does not fit.
    std::string text = io::write_save(save);
    const std::size_t at = text.find("\"status\"");
    ASSERT_NE(at, std::string::npos);
    text.insert(at, "\"limit\": 1, ");
    try {
        path::PathRequestQueue target(map, {});
        io::restore(target, io::parse_save(text, "limits.save"), 0);
        FAIL() << "restored a found result with a budget limit";
    } catch (const io::LoadError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("limits.save:"), std::string::npos) << what;
        EXPECT_NE(what.find(".result.limit"), std::string::npos) << what;
    }
}

// ---- the movement layer ----------------------------------------------------------------------------

struct Walkers {
    path::GridMap map;
    std::unique_ptr<path::MovementSystem> ms;
    std::ostringstream log;
    void tick(std::uint64_t t) {
        for (path::UnitId u = 0; u < ms->id_bound(); ++u) {
            const path::UnitStatus s = ms->status(u);
            if (s == path::UnitStatus::Idle || s == path::UnitStatus::Arrived || s == path::UnitStatus::Failed)
                if (mix(t * 131 + u) % 4 == 0) (void)ms->move_to(u, path::Destination::at(random_free(map, t * 977 + u), 1));
        }
        if (t % 17 == 5) (void)ms->set_anchored(t % ms->id_bound(), true);
        if (t % 17 == 9) (void)ms->set_anchored(t % ms->id_bound(), false);
        if (t % 23 == 0) {
            const GridPoint p = random_free(map, t * 5);
            if (ms->occupant(p) == path::kNoUnit) (void)map.set_passable(p, false);
        }
        ms->update();
        for (path::UnitId u = 0; u < ms->id_bound(); ++u)
            log << ms->position(u).x << "," << ms->position(u).y << ":" << int(ms->status(u)) << " ";
        log << "\n";
    }
};

TEST(SaveMovement, RoundTripMatchesTheUninterruptedSystem) {
    path::MovementOptions mo;
    mo.path_budget = 50;  // searches span ticks
    mo.lanes = 2;
    mo.give_up_ticks = 60;
    const auto make = [&](Walkers& w) {
        w.ms = std::make_unique<path::MovementSystem>(w.map, mo);
        for (int i = 0; i < 12; ++i) (void)w.ms->add_unit(random_free(w.map, 4242 + std::uint64_t(i)));
        (void)w.ms->remove_unit(3);  // a free id in the save
    };
    Walkers straight{random_map(40, 32, 2, 20), nullptr, {}};
    Walkers first{random_map(40, 32, 2, 20), nullptr, {}};
    make(straight);
    make(first);
    constexpr std::uint64_t kSaveAt = 45, kEnd = 160;
    for (std::uint64_t t = 0; t < kEnd; ++t) straight.tick(t);
    for (std::uint64_t t = 0; t < kSaveAt; ++t) first.tick(t);
    io::SaveFile save;
    save.maps.push_back(first.map);
    first.ms->save_state(save.movement.emplace_back());
    std::size_t running = 0;
    for (const auto& r : save.movement[0].queue.requests) running += r.state == path::RequestState::Running ? 1 : 0;
    ASSERT_GT(running, 0u) << "the test needs searches in progress at the save";
    const io::SaveFile loaded = io::parse_save(io::write_save(save), "walkers.save");
    Walkers second{loaded.maps[0], nullptr, {}};
    second.ms = std::make_unique<path::MovementSystem>(second.map, mo);
    io::restore(*second.ms, loaded, 0);
    second.log << first.log.str();
    for (std::uint64_t t = kSaveAt; t < kEnd; ++t) second.tick(t);
    EXPECT_EQ(second.log.str(), straight.log.str());
    EXPECT_EQ(second.ms->stats().paths, straight.ms->stats().paths);
    EXPECT_EQ(second.ms->stats().steps, straight.ms->stats().steps);
}

// The crowd stepper as resolver: its units' priorities (age), progress (stuck, best) and last moves are
// part of the save. Many units on a small map with few free cells, so that priorities decide who waits.
TEST(SaveMovement, CrowdResolverRoundTripMatchesTheUninterruptedSystemAtEverySaveTick) {
    path::MovementOptions mo;
    mo.resolver = path::StepResolver::Crowd;
    mo.path_budget = 200;
    mo.lanes = 2;
    mo.give_up_ticks = 60;
    const auto make = [&](Walkers& w) {
        w.ms = std::make_unique<path::MovementSystem>(w.map, mo);
        for (int i = 0; i < 90; ++i) (void)w.ms->add_unit(random_free(w.map, 777 + std::uint64_t(i)));
        (void)w.ms->remove_unit(5);
        (void)w.ms->remove_unit(17);
    };
    constexpr std::uint64_t kEnd = 140;
    Walkers straight{random_map(30, 20, 7, 25), nullptr, {}};
    make(straight);
    ASSERT_GT(straight.ms->unit_count(), 60u);
    for (std::uint64_t t = 0; t < kEnd; ++t) straight.tick(t);
    ASSERT_GT(straight.ms->stats().waits, 0u) << "the test needs units waiting for each other";
    for (const std::uint64_t save_at : {1u, 23u, 58u, 101u}) {
        for (const bool through_file : {false, true}) {
            SCOPED_TRACE("save at tick " + std::to_string(save_at) + (through_file ? ", through the file" : ", in memory"));
            Walkers first{random_map(30, 20, 7, 25), nullptr, {}};
            make(first);
            for (std::uint64_t t = 0; t < save_at; ++t) first.tick(t);
            path::MovementState state;
            first.ms->save_state(state);
            ASSERT_EQ(state.crowd.units.size(), state.units.size());
            Walkers second{first.map, nullptr, {}};
            second.ms = std::make_unique<path::MovementSystem>(second.map, mo);
            if (through_file) {
                io::SaveFile save;
                save.maps.push_back(first.map);
                save.movement.push_back(state);
                const io::SaveFile loaded = io::parse_save(io::write_save(save), "crowd.save");
                second.map = loaded.maps[0];
                second.ms = std::make_unique<path::MovementSystem>(second.map, mo);
                io::restore(*second.ms, loaded, 0);
            } else {
                ASSERT_FALSE(second.ms->restore_state(state).has_value());
            }
            second.log << first.log.str();
            for (std::uint64_t t = save_at; t < kEnd; ++t) second.tick(t);
            EXPECT_EQ(second.log.str(), straight.log.str());
            EXPECT_EQ(second.ms->stats().waits, straight.ms->stats().waits);
            EXPECT_EQ(second.ms->stats().steps, straight.ms->stats().steps);
        }
    }
}

TEST(SaveMovement, CrowdStateThatDoesNotFitIsRefusedNamingTheField) {
    path::MovementOptions crowd_options;
    crowd_options.resolver = path::StepResolver::Crowd;
    path::GridMap map = random_map(20, 12, 3, 10);
    path::MovementSystem ms(map, crowd_options);
    for (int i = 0; i < 6; ++i) (void)ms.add_unit(random_free(map, 50 + std::uint64_t(i)));
    for (int t = 0; t < 3; ++t) ms.update();
    path::MovementState good;
    ms.save_state(good);
    ASSERT_EQ(good.crowd.units.size(), 6u);

    const auto refused = [&](const path::MovementState& s) {
        path::MovementSystem other(map, crowd_options);
        const RestoreResult r = other.restore_state(s);
        EXPECT_EQ(other.unit_count(), 0u);  // a refused restore leaves no units
        return r.has_value() ? r->field : std::string("(restored)");
    };
    path::MovementState two_on_one = good;
    two_on_one.crowd.units[1].cell = two_on_one.crowd.units[0].cell;
    EXPECT_EQ(refused(two_on_one), "crowd.units[1].cell");
    path::MovementState off_map = good;
    off_map.crowd.units[2].goal = GridPoint{99, 3};
    off_map.crowd.units[2].has_goal = true;
    EXPECT_EQ(refused(off_map), "crowd.units[2].goal");
    path::MovementState bad_free = good;
    bad_free.crowd.free_ids.push_back(0);
    EXPECT_EQ(refused(bad_free), "crowd.free_ids[0]");
    path::MovementState builtin_save = good;
    builtin_save.crowd = {};  // what a system with the built-in resolver saves
    EXPECT_EQ(refused(builtin_save), "crowd.units");
    path::MovementState moved_away = good;  // a crowd unit that is not where the movement unit stands
    for (GridPoint p{0, 0}; p.y < map.height(); ++p.y)
        for (p.x = 0; p.x < map.width(); ++p.x)
            if (map.passable(p) && ms.occupant(p) == path::kNoUnit && moved_away.crowd.units[3].cell == good.crowd.units[3].cell)
                moved_away.crowd.units[3].cell = p;
    EXPECT_EQ(refused(moved_away), "units[3].pos");

    // Through a file: the error names file, line, column and field.
    io::SaveFile save;
    save.maps.push_back(map);
    save.movement.push_back(two_on_one);
    const io::SaveFile loaded = io::parse_save(io::write_save(save), "crowd.save");
    path::MovementSystem target(map, crowd_options);
    try {
        io::restore(target, loaded, 0);
        FAIL() << "restored a save with two units on one cell";
    } catch (const io::LoadError& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find("crowd.save:"), std::string::npos) << what;
        EXPECT_NE(what.find("movement[0].crowd.units[1].cell"), std::string::npos) << what;
    }
}

// ---- the agent runtime -----------------------------------------------------------------------------

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
    "eat": {"conditions": {"hungry": false}, "priority": 10, "retry": {"after_failures": 2, "cooldown_ticks": 5}},
    "rest": {"conditions": {"tired": false, "rested": true}, "priority": 5}
  }
})";

struct Log : goap::AgentObserver {
    std::ostringstream out;
    void on_event(const goap::Agent& agent, const goap::AgentEvent& e) override {
        out << e.tick << " " << agent.id().index << " " << int(e.kind) << " a" << e.action.value << " g" << e.goal << " t" << int(e.trigger)
            << " x" << e.expanded << " k" << e.ticks << " p" << e.plan.size() << " r" << e.root_causes.size() << "\n";
    }
};

struct Town {
    io::DomainFile file;
    std::shared_ptr<const goap::AgentType> type;
    std::unique_ptr<goap::AgentSystem> system;
    Log log;

    explicit Town(const io::DomainFile& f) : file(f) {
        goap::AgentTypeBuilder b(file.domain, "villager");
        const goap::Domain& d = file.domain;
        for (std::uint32_t a = 0; a < d.action_count(); ++a) {
            const std::string name = d.action_name(goap::ActionId(a));
            goap::Behaviour beh([name](goap::ActionContext& c) {
                // "forage" fails now and then (back-off); everything else takes a few ticks.
                if (name == "forage" && mix(c.tick) % 2 == 0) return goap::ActionStatus::Failure;
                return c.ticks_running + 1 >= 1 + mix(c.tick ^ c.agent.id().index) % 4 ? goap::ActionStatus::Success
                                                                                          : goap::ActionStatus::Running;
            });
            beh.abort = [](goap::ActionContext&, goap::AbortReason) {};
            EXPECT_EQ(b.bind(name, std::move(beh)), goap::BindErrorKind::None);
        }
        goap::BindResult r = b.build();
        EXPECT_TRUE(r.ok());
        type = r.type;
        system = std::make_unique<goap::AgentSystem>(file.domain);
        system->set_observer(&log);
    }
    goap::AgentParams params(std::size_t i) const {
        goap::AgentParams p;
        p.name = "v" + std::to_string(i);
        p.type = type;
        for (const goap::Goal& g : file.goals) p.goals.push_back(goap::AgentGoal::from(g));
        p.state = file.start;
        p.max_expansions_per_tick = i % 2 == 0 ? 1 : UINT64_MAX;  // budgeted searches pause across ticks
        return p;
    }
    void populate() {
        for (std::size_t i = 0; i < 6; ++i) (void)system->add_agent(params(i));
        (void)system->remove_agent(goap::AgentId{2, 0});  // a free slot
    }
    // The game between ticks, keyed by the tick only (so a loaded game does the same).
    void tick() {
        const std::uint64_t t = system->current_tick();
        const goap::Domain& d = file.domain;
        (void)system->blackboard().set(d.find_atom("raining"), mix(t) % 5 == 0);
        if (t % 13 == 0) (void)system->blackboard().set(d.find_atom("market_open"), false);
        system->for_each_agent([&](goap::Agent& a) {
            const std::uint64_t r = mix(t * 977 + a.id().index);
            if (r % 9 == 0) (void)a.set(d.find_atom("hungry"), true);
            if (r % 31 == 0) a.abort();
            if (r % 37 == 0) a.request_replan();
            if (r % 41 == 0) a.notify_context_changed();
        });
        system->tick();
    }
};

TEST(SaveAgents, RoundTripMatchesTheUninterruptedSystemEventForEvent) {
    const io::DomainFile file = io::parse_domain_json(kDomain, "town.json");
    std::size_t paused = 0, cooling = 0, goal_counting = 0;  // saves with a paused search, a cool-down, goal back-off state
    for (const std::uint64_t at : {1u, 2u, 5u, 17u, 23u, 40u, 61u, 77u}) {
        SCOPED_TRACE("saved at tick " + std::to_string(at));
        Town straight(file), first(file);
        straight.populate();
        first.populate();
        constexpr std::uint64_t kEnd = 120;
        while (straight.system->current_tick() < kEnd) straight.tick();
        while (first.system->current_tick() < at) first.tick();
        io::SaveFile save;
        first.system->save_state(save.agent_systems.emplace_back());
        for (const auto& a : save.agent_systems[0].agents) {
            paused += a && a->search_active ? 1 : 0;
            cooling += a && a->next_cooldown_end != UINT64_MAX ? 1 : 0;
            goal_counting += a && !a->goal_failures.empty() ? 1 : 0;
        }
        const io::SaveFile loaded = io::parse_save(io::write_save(save), "town.save");
        Town second(file);
        io::restore(*second.system, loaded, 0, [&](const goap::AgentState& s, goap::AgentParams& p) {
            p = second.params(std::stoul(s.name.substr(1)));
            return true;
        });
        second.log.out << first.log.out.str();
        while (second.system->current_tick() < kEnd) second.tick();
        EXPECT_EQ(second.log.out.str(), straight.log.out.str());
        goap::AgentStats a = second.system->total_stats(), b = straight.system->total_stats();
        EXPECT_EQ(a.replans, b.replans);
        EXPECT_EQ(a.expanded, b.expanded);
        EXPECT_EQ(a.actions_failed, b.actions_failed);
        EXPECT_EQ(second.system->blackboard().state(), straight.system->blackboard().state());
        EXPECT_EQ(second.system->blackboard().version(), straight.system->blackboard().version());
    }
    EXPECT_GT(paused, 0u) << "no save caught a paused search";
    EXPECT_GT(cooling, 0u) << "no save caught a cool-down";
    EXPECT_GT(goal_counting, 0u) << "no save caught a goal's failure count or cool-down";
}

TEST(SaveAgents, RefusesAgentsTheGameCannotBind) {
    const io::DomainFile file = io::parse_domain_json(kDomain, "town.json");
    Town t(file);
    t.populate();
    for (int i = 0; i < 4; ++i) t.tick();
    io::SaveFile save;
    t.system->save_state(save.agent_systems.emplace_back());
    const io::SaveFile loaded = io::parse_save(io::write_save(save), "town.save");
    Town other(file);
    try {
        io::restore(*other.system, loaded, 0, [&](const goap::AgentState&, goap::AgentParams& p) {
            p = other.params(0);
            p.goals.pop_back();  // a different goal list
            return true;
        });
        FAIL() << "restored agents with other goals";
    } catch (const io::LoadError& e) {
        EXPECT_EQ(e.field(), "agent_systems[0].agents[0].goals");
        EXPECT_GT(e.line(), 0u);
    }
    EXPECT_EQ(other.system->agent_count(), 0u);
}

// ---- hostile files ---------------------------------------------------------------------------------

// A small save of every kind of section.
std::string small_save() {
    const io::DomainFile file = io::parse_domain_json(kDomain, "town.json");
    Town t(file);
    (void)t.system->add_agent(t.params(0));
    for (int i = 0; i < 3; ++i) t.tick();
    io::SaveFile save;
    save.application = "test";
    save.maps.push_back(random_map(6, 4, 3, 20));
    t.system->save_state(save.agent_systems.emplace_back());
    path::PathRequestQueue q(save.maps[0]);
    path::PathRequest r;
    r.start = random_free(save.maps[0], 1);
    r.goal = random_free(save.maps[0], 2);
    (void)q.submit(r);
    (void)q.update(2);
    q.save_state(save.queues.emplace_back());
    save.tables.push_back({"stock", {"wood", "ore"}, {{3, 4}}});
    return io::write_save(save);
}

// Loads and restores whatever `text` holds; only LoadError may come out.
void load_everything(const std::string& text) {
    const io::DomainFile file = io::parse_domain_json(kDomain, "town.json");
    const io::SaveFile s = io::parse_save(text, "hostile.save");
    for (std::size_t i = 0; i < s.agent_systems.size(); ++i) {
        Town t(file);
        io::restore(*t.system, s, i, [&](const goap::AgentState&, goap::AgentParams& p) {
            p = t.params(0);
            return true;
        });
        for (int k = 0; k < 3; ++k) t.tick();
    }
    for (std::size_t i = 0; i < s.queues.size() && !s.maps.empty(); ++i) {
        path::GridMap map = s.maps[0];
        path::PathRequestQueue q(map);
        io::restore(q, s, i);
        for (int k = 0; k < 3; ++k) (void)q.update(5);
    }
}

TEST(SaveHostile, EveryTruncationIsALoadErrorWithAPosition) {
    const std::string text = small_save();
    ASSERT_NO_THROW(load_everything(text));
    for (std::size_t n = 0; n + 1 < text.size(); ++n) {
        try {
            (void)io::parse_save(text.substr(0, n), "cut.save");
            FAIL() << "a save cut after " << n << " bytes loaded";
        } catch (const io::LoadError& e) {
            EXPECT_EQ(e.file(), "cut.save");
        }
    }
}

TEST(SaveHostile, FlippedFieldsAreLoadErrorsOrHarmless) {
    const std::string text = small_save();
    // Every number of the file, replaced by values of the wrong range or type.
    const char* replacements[] = {"-1", "4294967295", "18446744073709551615", "99999", "\"x\"", "null", "1.5", "true"};
    std::size_t refused = 0, tried = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (!std::isdigit(static_cast<unsigned char>(text[i])) || (i > 0 && (std::isalnum(static_cast<unsigned char>(text[i - 1])) ||
                                                                            text[i - 1] == '-' || text[i - 1] == '.' || text[i - 1] == '"')))
            continue;
        std::size_t j = i;
        while (j < text.size() && (std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == '.' || text[j] == 'e' || text[j] == '-')) ++j;
        for (const char* r : replacements) {
            const std::string bad = text.substr(0, i) + r + text.substr(j);
            ++tried;
            try {
                load_everything(bad);
            } catch (const io::LoadError& e) {
                ++refused;
                EXPECT_FALSE(e.message().empty());
            }
        }
        i = j;
    }
    EXPECT_GT(tried, 100u);
    EXPECT_GT(refused, tried / 2);
}

TEST(SaveHostile, ForeignFormatsAndVersionsAreNamed) {
    try {
        (void)io::parse_save(R"({"format": "something-else", "version": 1})", "f.save");
        FAIL();
    } catch (const io::LoadError& e) {
        EXPECT_EQ(e.field(), "format");
        EXPECT_EQ(e.line(), 1u);
        EXPECT_NE(e.message().find("not a gameplan save file"), std::string::npos);
    }
    std::string text = small_save();
    const std::size_t v = text.find("\"version\": 1");
    ASSERT_NE(v, std::string::npos);
    text.replace(v, 12, "\"version\": 2");
    try {
        (void)io::parse_save(text, "v2.save");
        FAIL();
    } catch (const io::LoadError& e) {
        EXPECT_EQ(e.field(), "version");
        EXPECT_NE(e.message().find("version 2 is not supported"), std::string::npos) << e.what();
    }
    EXPECT_THROW((void)io::parse_save("", "empty.save"), io::LoadError);
    EXPECT_THROW((void)io::parse_save("[1, 2]", "array.save"), io::LoadError);
    EXPECT_THROW((void)io::load_save("no/such/file.save"), io::LoadError);
    io::SaveLimits tiny;
    tiny.max_bytes = 100;
    EXPECT_THROW((void)io::parse_save(small_save(), "big.save", tiny), io::LoadError);
}

TEST(SaveHostile, NumberOutOfRangeNamesItsStart) {
    // The parser stops after "1e400" (or one byte further); the error points at the number itself.
    try {
        (void)io::parse_save("{\"format\": \"gameplan-save\",\n \"version\": 1e400}", "huge.save");
        FAIL();
    } catch (const io::LoadError& e) {
        EXPECT_EQ(e.line(), 2u) << e.what();
        EXPECT_EQ(e.column(), 13u) << e.what();
        EXPECT_EQ(e.field(), "version") << e.what();
        EXPECT_NE(e.message().find("out of range"), std::string::npos) << e.what();
    }
}

TEST(SaveMap, CellsCostsAndVersionRoundTrip) {
    path::GridMap m = random_map(9, 7, 5, 30);
    (void)m.set_cost({2, 3}, 7);
    (void)m.set_cost({4, 1}, 3);
    io::SaveFile save;
    save.maps.push_back(m);
    const io::SaveFile back = io::parse_save(io::write_save(save), "map.save");
    const path::GridMap& r = back.maps.at(0);
    ASSERT_EQ(r.width(), m.width());
    ASSERT_EQ(r.height(), m.height());
    for (std::int32_t y = 0; y < m.height(); ++y)
        for (std::int32_t x = 0; x < m.width(); ++x) {
            EXPECT_EQ(r.passable({x, y}), m.passable({x, y}));
            EXPECT_EQ(r.cost({x, y}), m.cost({x, y}));
        }
    EXPECT_EQ(r.version(), m.version());
    EXPECT_EQ(r.min_cost(), m.min_cost());
    EXPECT_LT(m.passability_changed_at(), m.version()) << "costs were set after the last wall";
    EXPECT_EQ(r.passability_changed_at(), m.passability_changed_at());
}

// `passability_changed_at` is optional (files written before it load as if passability had changed at
// the saved version) and may not exceed the version.
TEST(SaveMap, PassabilityChangedAtIsOptionalAndChecked) {
    path::GridMap m = random_map(9, 7, 5, 30);
    (void)m.set_cost({2, 3}, 7);
    io::SaveFile save;
    save.maps.push_back(m);
    const std::string text = io::write_save(save);
    const std::string field = "\"passability_changed_at\": " + std::to_string(m.passability_changed_at());
    const std::size_t at = text.find(field);
    ASSERT_NE(at, std::string::npos) << text.substr(0, 400);
    // Without the field (and the comma before it).
    std::string old = text;
    const std::size_t comma = old.rfind(',', at);
    old.erase(comma, at + field.size() - comma);
    const io::SaveFile back = io::parse_save(old, "old.save");
    EXPECT_EQ(back.maps.at(0).version(), m.version());
    EXPECT_EQ(back.maps.at(0).passability_changed_at(), m.version());
    // Past the version.
    std::string bad = text;
    bad.replace(at, field.size(), "\"passability_changed_at\": " + std::to_string(m.version() + 1));
    try {
        (void)io::parse_save(bad, "bad.save");
        ADD_FAILURE() << "a passability change after the map's version was accepted";
    } catch (const io::LoadError& e) {
        EXPECT_EQ(e.field(), "maps[0].passability_changed_at");
        EXPECT_NE(std::string(e.what()).find("must not exceed"), std::string::npos) << e.what();
    }
}

}  // namespace
