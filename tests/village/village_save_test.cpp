// Saving and loading a running village: a village saved at a tick, loaded (through the save file's
// text) and run on must end exactly like the same village run straight through - the independent
// reference is the uninterrupted run, compared by its full summary and checksum.
#include <gameplan_village/generate.hpp>
#include <gameplan_village/village.hpp>

#include <gameplan/io/save.hpp>

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>

#include "test_data.hpp"

namespace {

using namespace gameplan;
using namespace gameplan::village;

DomainSet domains() { return load_domains(std::filesystem::path(test::source_dir()) / "examples/goap/village"); }

std::uint64_t g_path_budget = Config{}.path_budget;  // the tests below may lower it

std::unique_ptr<Village> make(std::size_t agents, std::uint64_t seed, std::size_t threads, std::int32_t w = 64, std::int32_t h = 48) {
    Config c;
    c.agents = agents;
    c.seed = seed;
    c.threads = threads;
    c.path_budget = g_path_budget;
    return Village::create(generate_village_map(w, h, seed), domains(), c);
}

std::size_t g_running_at_save = 0;  // path searches in progress in the saves so far

void expect_same(const Summary& a, const Summary& b) {
    EXPECT_EQ(a.ticks, b.ticks);
    EXPECT_EQ(a.plans, b.plans);
    EXPECT_EQ(a.searches, b.searches);
    EXPECT_EQ(a.replans, b.replans);
    EXPECT_EQ(a.paths, b.paths);
    EXPECT_EQ(a.path_requests, b.path_requests);
    EXPECT_EQ(a.steps, b.steps);
    EXPECT_EQ(a.waits, b.waits);
    EXPECT_EQ(a.wood, b.wood);
    EXPECT_EQ(a.ore, b.ore);
    EXPECT_EQ(a.meals, b.meals);
    EXPECT_EQ(a.map_changes, b.map_changes);
    EXPECT_EQ(a.collisions, 0u);
    EXPECT_EQ(a.checksum, b.checksum);
}

// Runs `seed` straight to `end`, and again saving at `at`, loading the text on `load_threads` workers
// and running on to `end`.
void round_trip(std::size_t agents, std::uint64_t seed, std::uint64_t at, std::uint64_t end, std::size_t threads,
                std::size_t load_threads, std::int32_t w = 64, std::int32_t h = 48) {
    SCOPED_TRACE("seed " + std::to_string(seed) + ", save at " + std::to_string(at));
    auto straight = make(agents, seed, threads, w, h);
    while (straight->tick() < end) straight->step();

    auto first = make(agents, seed, threads, w, h);
    while (first->tick() < at) first->step();
    io::SaveFile save;
    first->save(save);
    for (const auto& r : save.movement.at(0).queue.requests) g_running_at_save += r.state == path::RequestState::Running ? 1 : 0;
    const std::string text = io::write_save(save);
    first.reset();
    const io::SaveFile loaded = io::parse_save(text, "village.save");
    auto second = Village::load(loaded, domains(), load_threads);
    ASSERT_EQ(second->tick(), at);
    // A loaded village saves to the same text.
    io::SaveFile again;
    second->save(again);
    EXPECT_EQ(io::write_save(again), text);
    while (second->tick() < end) second->step();
    expect_same(second->summary(), straight->summary());
}

TEST(VillageSave, SaveAt300ContinuesTo1000LikeAStraightRunOnOneThread) { round_trip(48, 1, 300, 1000, 1, 1); }

TEST(VillageSave, SaveAt300ContinuesTo1000LikeAStraightRunOnTwoThreads) { round_trip(48, 1, 300, 1000, 2, 2); }

TEST(VillageSave, LoadsOnAnotherThreadCount) { round_trip(48, 3, 300, 700, 1, 2); }

TEST(VillageSave, RandomTicksAndSeeds) {
    // Save ticks drawn per seed (a fixed splitmix sequence): early (before every villager arrived),
    // around world pulses and in between.
    std::uint64_t state = 0x5A5E5A5Eull;
    const auto next = [&] {
        std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    };
    for (const std::uint64_t seed : {2u, 5u, 9u}) {
        const std::uint64_t at = 1 + next() % 400;
        round_trip(24, seed, at, 500, 1, 1, 48, 40);
    }
    round_trip(24, 7, 10, 200, 1, 1, 48, 40);  // before every villager has arrived
    round_trip(24, 7, 64, 300, 1, 1, 48, 40);  // right at a world pulse
}

TEST(VillageSave, PathSearchesInProgressAtTheSaveContinue) {
    // A small path budget per tick: searches span ticks, so saves catch them half done.
    g_path_budget = 60;
    g_running_at_save = 0;
    round_trip(32, 11, 120, 400, 1, 1);
    round_trip(32, 11, 201, 400, 2, 1);
    round_trip(32, 12, 333, 500, 1, 2);
    g_path_budget = Config{}.path_budget;
    EXPECT_GT(g_running_at_save, 0u) << "no save caught a path search in progress";
}

TEST(VillageSave, RefusesSavesOfOtherGamesAndBrokenTables) {
    auto v = make(16, 4, 1, 40, 32);
    for (int i = 0; i < 50; ++i) v->step();
    io::SaveFile save;
    v->save(save);
    {
        io::SaveFile other = io::parse_save(io::write_save(save), "x.save");
        other.application = "another game";
        other = io::parse_save(io::write_save(other), "x.save");
        EXPECT_THROW((void)Village::load(other, domains(), 1), io::LoadError);
    }
    {
        // A villager standing in a wall: the error names the table cell.
        io::SaveFile broken = save;
        for (io::SaveTable& t : broken.tables)
            if (t.name == "villagers") t.rows[0][3] = -5;
        broken = io::parse_save(io::write_save(broken), "x.save");
        try {
            (void)Village::load(broken, domains(), 1);
            FAIL() << "loaded a villager off the map";
        } catch (const io::LoadError& e) {
            EXPECT_GT(e.line(), 0u);
            EXPECT_NE(e.field().find("rows[0][3]"), std::string::npos) << e.what();
        }
    }
}

}  // namespace
