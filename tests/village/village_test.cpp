// The village simulation of `gameplan demo`: work cycles, replanning on depletion, exclusive cells,
// nearest places, determinism across runs and thread counts, and PNG snapshots.
#include <gameplan_village/generate.hpp>
#include <gameplan_village/render.hpp>
#include <gameplan_village/village.hpp>

#include <gameplan/io/image.hpp>
#include <gameplan/io/map_image.hpp>
#include <gameplan/io/movingai.hpp>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <queue>
#include <set>
#include <string>
#include <unistd.h>
#include <utility>
#include <vector>

#include "test_data.hpp"

namespace {

using namespace gameplan;
using namespace gameplan::village;
using path::GridPoint;

constexpr std::uint64_t kMealsPerPotForTest = 3;  // a pot makes three meals (the village's rule)

DomainSet domains() {
    return load_domains(std::filesystem::path(test::source_dir()) / "examples/goap/village");
}

std::unique_ptr<Village> make(std::size_t agents, std::uint64_t seed, std::size_t threads = 1, std::int32_t w = 64,
                              std::int32_t h = 48) {
    Config c;
    c.agents = agents;
    c.seed = seed;
    c.threads = threads;
    return Village::create(generate_village_map(w, h, seed), domains(), c);
}

// Reference: octile Dijkstra with no corner cutting, written plainly (no gameplan search code).
std::vector<double> reference_distances(const path::GridMap& map, GridPoint from) {
    const auto W = map.width(), H = map.height();
    std::vector<double> dist(static_cast<std::size_t>(W) * static_cast<std::size_t>(H), std::numeric_limits<double>::infinity());
    using Entry = std::pair<double, int>;
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
    const auto id = [&](GridPoint p) { return p.y * W + p.x; };
    dist[static_cast<std::size_t>(id(from))] = 0;
    open.push({0.0, id(from)});
    while (!open.empty()) {
        const auto [d, i] = open.top();
        open.pop();
        if (d > dist[static_cast<std::size_t>(i)]) continue;
        const GridPoint p{i % W, i / W};
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                if (dx == 0 && dy == 0) continue;
                const GridPoint q{p.x + dx, p.y + dy};
                if (!map.passable(q)) continue;
                if (dx != 0 && dy != 0 && (!map.passable({p.x + dx, p.y}) || !map.passable({p.x, p.y + dy}))) continue;
                const double nd = d + (dx != 0 && dy != 0 ? std::sqrt(2.0) : 1.0);
                if (nd < dist[static_cast<std::size_t>(id(q))] - 1e-9) {
                    dist[static_cast<std::size_t>(id(q))] = nd;
                    open.push({nd, id(q)});
                }
            }
    }
    return dist;
}

// Invariants that must hold after every tick.
void check_cells(const Village& v) {
    std::set<std::pair<int, int>> seen;
    for (const Villager& x : v.villagers()) {
        ASSERT_TRUE(v.map().passable(x.cell)) << "villager " << x.index << " in a wall at " << x.cell.x << "," << x.cell.y
                                               << " tick " << v.tick();
        ASSERT_TRUE(seen.insert({x.cell.x, x.cell.y}).second)
            << "two villagers on " << x.cell.x << "," << x.cell.y << " at tick " << v.tick();
        ASSERT_EQ(v.occupant(x.cell), x.index);
        // A route is a chain of single steps from (next to) where the villager stands.
        const auto route = v.route(x);
        for (std::size_t i = 1; i < route.size(); ++i)
            ASSERT_LE(std::max(std::abs(route[i].x - route[i - 1].x), std::abs(route[i].y - route[i - 1].y)), 1);
    }
}

TEST(Village, EveryKindCompletesItsWorkCycleAndCellsStayExclusive) {
    auto v = make(24, 3);
    bool felled = false;
    std::uint64_t failures_before_first_fell = 0;
    for (int t = 0; t < 600; ++t) {
        v->step();
        ASSERT_NO_FATAL_FAILURE(check_cells(*v));
        if (!felled)
            for (const Place& p : v->places())
                if (p.kind == PlaceKind::Tree && p.stock == 0) felled = true, failures_before_first_fell = v->summary().resource_failures;
    }
    const Summary s = v->summary();
    EXPECT_EQ(s.kind_agents[0] + s.kind_agents[1] + s.kind_agents[2], 24u);
    for (std::size_t k = 0; k < kKindCount; ++k) EXPECT_GT(s.cycles[k], 0u) << to_string(Kind(k)) << " never finished a cycle";
    EXPECT_GT(s.wood, 0u);
    EXPECT_GT(s.ore, 0u);
    EXPECT_GT(s.meals, 0u);
    EXPECT_GT(s.paths, 0u);
    EXPECT_GT(s.plans, s.agents);
    EXPECT_TRUE(felled) << "no tree was ever used up";
    (void)failures_before_first_fell;
}

// The crowd bar, checked by the test itself every tick (not by trusting the village's counter): no two
// villagers on one cell, no swaps, every move a legal single step; and the walkers' stand-stills.
struct CrowdWatch {
    std::vector<GridPoint> before;
    std::vector<std::uint32_t> still;  // consecutive ticks a walking villager stood still
    std::uint32_t longest = 0;
    std::uint64_t violations = 0;

    void start(const Village& v) {
        before.clear();
        for (const Villager& x : v.villagers()) before.push_back(x.cell);
        still.assign(before.size(), 0);
    }
    void check(const Village& v) {
        std::map<std::pair<int, int>, std::uint32_t> now;
        for (const Villager& x : v.villagers()) {
            const GridPoint a = before[x.index], b = x.cell;
            const int dx = b.x - a.x, dy = b.y - a.y;
            const bool legal = std::abs(dx) <= 1 && std::abs(dy) <= 1 && v.map().passable(b) &&
                               (dx == 0 || dy == 0 || (v.map().passable({a.x + dx, a.y}) && v.map().passable({a.x, a.y + dy})));
            violations += !legal;
            violations += !now.emplace(std::pair{b.x, b.y}, x.index).second;
        }
        for (const Villager& x : v.villagers()) {
            const GridPoint a = before[x.index], b = x.cell;
            if (a == b) continue;
            const auto it = now.find({a.x, a.y});  // who stands where I stood
            if (it != now.end() && before[it->second] == b) ++violations;  // we swapped
        }
        for (const Villager& x : v.villagers()) {
            still[x.index] = x.walking && x.cell == before[x.index] ? still[x.index] + 1 : 0;
            longest = std::max(longest, still[x.index]);
            before[x.index] = x.cell;
        }
    }
};

TEST(Village, TheCrowdNeverCollidesAndWaitsAreRare) {
    // The default demo: 48 villagers on the generated 120 x 56 map, seed 1, 1000 ticks.
    Config c;
    auto v = Village::create(generate_village_map(120, 56, 1), domains(), c);
    CrowdWatch watch;
    watch.start(*v);
    for (int t = 0; t < 1000; ++t) {
        v->step();
        watch.check(*v);
        ASSERT_NO_FATAL_FAILURE(check_cells(*v));
    }
    const Summary s = v->summary();
    EXPECT_EQ(watch.violations, 0u);
    EXPECT_EQ(s.collisions, 0u);
    EXPECT_GT(s.steps, 10000u);
    EXPECT_LE(s.waits * 50, s.steps) << "waits caused by other villagers must stay under 2% of the steps";
    EXPECT_LE(watch.longest, 100u);
    // Production follows demand: cooks cook to order, so at most one pot per cook is ever left over,
    // and when meals run short the hungry eat vegetables.
    EXPECT_LE(s.meals, s.meals_eaten + kMealsPerPotForTest * s.kind_agents[std::size_t(Kind::Cook)]);
    EXPECT_GT(s.meals_eaten, 0u);
    EXPECT_GT(s.vegetables_eaten, 0u);
}

TEST(Village, TwoHundredVillagersOn256NeverJam) {
    // The scale that used to lock up: 200 villagers on a generated 256 x 256 map, seed 3.
    Config c;
    c.agents = 200;
    c.seed = 3;
    auto v = Village::create(generate_village_map(256, 256, 3), domains(), c);
    CrowdWatch watch;
    watch.start(*v);
    for (int t = 0; t < 1500; ++t) {
        v->step();
        watch.check(*v);
    }
    EXPECT_EQ(watch.violations, 0u);
    EXPECT_LE(watch.longest, 100u) << "a walker stood still for more than 100 ticks";
    EXPECT_EQ(v->summary().jams, 0u);
    EXPECT_EQ(v->summary().collisions, 0u);
}

TEST(Village, HundredVillagersOnGameMapsNeverJam) {
    const std::filesystem::path dir = std::filesystem::path(GAMEPLAN_BENCHMARK_DATA_DIR) / "movingai/maps";
    if (!std::filesystem::exists(dir / "dao/den312d.map")) GTEST_SKIP() << "shared MovingAI maps absent: " << dir;
    for (const char* name : {"dao/den312d.map", "dao/arena.map"})
        for (std::uint64_t seed = 1; seed <= (gameplan::test::kSanitizedBuild ? 1u : 3u); ++seed) {
            const path::GridMap map = io::load_movingai_map(dir / name);
            Config c;
            c.agents = 100;
            c.seed = seed;
            auto v = Village::create(map, domains(), c);
            CrowdWatch watch;
            watch.start(*v);
            for (int t = 0; t < 1000; ++t) {
                v->step();
                watch.check(*v);
            }
            EXPECT_EQ(watch.violations, 0u) << name << " seed " << seed;
            EXPECT_LE(watch.longest, 100u) << name << " seed " << seed;
        }
}

TEST(Village, DepletedResourcesMakeAgentsReplan) {
    // Many villagers for the room: trees, mines and markets run out, walks and work fail, agents replan.
    auto v = make(60, 5, 1, 48, 32);
    for (int t = 0; t < 500; ++t) {
        v->step();
        ASSERT_NO_FATAL_FAILURE(check_cells(*v));
    }
    const Summary s = v->summary();
    EXPECT_GT(s.resource_failures, 0u);
    EXPECT_GT(s.replans_failed + s.replans_preconditions, 0u);
    EXPECT_GT(s.map_changes, 0u) << "trees should have been felled (and the map changed)";
    std::size_t stumps = 0;
    for (const Place& p : v->places()) stumps += p.kind == PlaceKind::Tree && !p.standing;
    EXPECT_GT(stumps + s.map_changes, 0u);
}

TEST(Village, WalksHeadForTheNearestFixedPlace) {
    auto v = make(30, 7);
    std::vector<bool> was_walking(v->villagers().size(), false);
    std::size_t checked = 0;
    // Before the first world pulse (tick 64) the map does not change.
    for (int t = 0; t < 60; ++t) {
        std::vector<GridPoint> before;
        for (const Villager& x : v->villagers()) before.push_back(x.cell);
        v->step();
        for (const Villager& x : v->villagers()) {
            const bool fresh = x.walking && !was_walking[x.index] && x.target != kNone;
            was_walking[x.index] = x.walking;
            if (!fresh) continue;
            const PlaceKind kind = v->places()[x.target].kind;
            if (has_stock(kind)) continue;
            // The target was chosen from where the villager stood when the walk started (this tick's start).
            const std::vector<double> dist = reference_distances(v->map(), before[x.index]);
            double best = std::numeric_limits<double>::infinity();
            for (const Place& p : v->places())
                if (p.kind == kind) best = std::min(best, dist[static_cast<std::size_t>(p.cell.y * v->map().width() + p.cell.x)]);
            const GridPoint c = v->places()[x.target].cell;
            EXPECT_NEAR(dist[static_cast<std::size_t>(c.y * v->map().width() + c.x)], best, 1e-6)
                << "villager " << x.index << " walks to a " << to_string(kind) << " that is not the nearest";
            ++checked;
        }
    }
    EXPECT_GT(checked, 5u);
}

Summary run(std::size_t agents, std::uint64_t seed, std::size_t threads, int ticks) {
    auto v = make(agents, seed, threads);
    for (int t = 0; t < ticks; ++t) v->step();
    return v->summary();
}

void expect_same(const Summary& a, const Summary& b) {
    EXPECT_EQ(a.checksum, b.checksum);
    EXPECT_EQ(a.plans, b.plans);
    EXPECT_EQ(a.searches, b.searches);
    EXPECT_EQ(a.replans, b.replans);
    EXPECT_EQ(a.paths, b.paths);
    EXPECT_EQ(a.path_requests, b.path_requests);
    EXPECT_EQ(a.steps, b.steps);
    EXPECT_EQ(a.wood, b.wood);
    EXPECT_EQ(a.ore, b.ore);
    EXPECT_EQ(a.meals, b.meals);
    EXPECT_EQ(a.cycles, b.cycles);
}

TEST(Village, SameSeedSameSummaryOnAnyThreadCount) {
    const Summary a = run(40, 11, 1, 300);
    const Summary b = run(40, 11, 1, 300);
    const Summary c = run(40, 11, 2, 300);
    const Summary d = run(40, 11, 3, 300);
    expect_same(a, b);
    expect_same(a, c);
    expect_same(a, d);
    const Summary other = run(40, 12, 1, 300);
    EXPECT_NE(a.checksum, other.checksum) << "the seed should matter";
}

TEST(Village, WorksOnAMovingAiMap) {
    const path::GridMap map = io::load_movingai_map(std::filesystem::path(test::source_dir()) / "examples/maps/rooms.map");
    Config c;
    c.agents = 12;
    c.seed = 2;
    auto v = Village::create(map, domains(), c);
    for (int t = 0; t < 200; ++t) {
        v->step();
        ASSERT_NO_FATAL_FAILURE(check_cells(*v));
    }
    EXPECT_GT(v->summary().paths, 0u);
}

TEST(Village, RejectsUnusableSetups) {
    Config c;
    c.agents = 0;
    EXPECT_THROW((void)Village::create(generate_village_map(32, 32, 1), domains(), c), SetupError);
    c.agents = 5000;  // more than the free cells of a 32 x 32 map
    try {
        (void)Village::create(generate_village_map(32, 32, 1), domains(), c);
        FAIL() << "expected SetupError";
    } catch (const SetupError& e) {
        EXPECT_NE(std::string(e.what()).find("free cells"), std::string::npos) << e.what();
    }
    path::GridMap walls;
    (void)walls.reset(20, 20, false);
    c.agents = 1;
    EXPECT_THROW((void)Village::create(walls, domains(), c), SetupError);
    // A domain action the game has no behaviour for is named in the message.
    DomainSet d = domains();
    d.files[0] = io::parse_domain_json(R"({"atoms":["hungry","tired","w"],"actions":[{"name":"dance","cost":1,"effects":{"w":true}}],
        "goals":{"work":{"conditions":{"w":true}}}})", "bad.json");
    d.names[0] = "bad.json";
    try {
        (void)Village::create(generate_village_map(32, 32, 1), d, c);
        FAIL() << "expected SetupError";
    } catch (const SetupError& e) {
        EXPECT_NE(std::string(e.what()).find("'dance'"), std::string::npos) << e.what();
    }
}

TEST(Village, BuiltinDomainsMatchTheExampleFiles) {
    const DomainSet a = builtin_domains(), b = domains();
    for (std::size_t k = 0; k < kKindCount; ++k) {
        ASSERT_EQ(a.files[k].domain.action_count(), b.files[k].domain.action_count());
        for (std::uint32_t i = 0; i < a.files[k].domain.action_count(); ++i)
            EXPECT_EQ(a.files[k].domain.action_name(goap::ActionId(i)), b.files[k].domain.action_name(goap::ActionId(i)));
    }
}

TEST(VillagePng, SnapshotDecodesWithWallsAndVillagersWhereTheyAre) {
    auto v = make(16, 4, 1, 40, 30);
    for (int t = 0; t < 30; ++t) v->step();
    const std::int32_t scale = snapshot_scale(v->map());
    ASSERT_GE(scale, 3);
    const std::filesystem::path file =
        std::filesystem::temp_directory_path() / ("gameplan_village_test_" + std::to_string(::getpid()) + ".png");
    io::write_png(file, render_snapshot(*v, scale));
    const io::Image img = io::read_png(file);
    std::filesystem::remove(file);
    ASSERT_EQ(img.width(), v->map().width() * scale);
    ASSERT_EQ(img.height(), v->map().height() * scale);
    // The top-left cell is border rock: a wall pixel.
    const io::MapPalette map_palette;
    EXPECT_EQ(img.at(scale / 2, scale / 2), map_palette.wall);
    const SnapshotPalette palette;
    for (const Villager& x : v->villagers()) {
        const io::Rgb centre = img.at(x.cell.x * scale + scale / 2, x.cell.y * scale + scale / 2);
        EXPECT_EQ(centre, palette.villager[std::size_t(x.kind)]) << "villager " << x.index;
        EXPECT_EQ(img.at(x.cell.x * scale, x.cell.y * scale), palette.outline);
    }
    // A standing tree is painted in its colour.
    for (const Place& p : v->places())
        if (p.kind == PlaceKind::Tree && p.standing && v->occupant(p.cell) == kNone) {
            EXPECT_EQ(img.at(p.cell.x * scale + 1, p.cell.y * scale + 1), palette.tree);
            break;
        }
}

TEST(VillageText, TerminalViewShowsVillagersAndWalls) {
    auto v = make(8, 2, 1, 32, 20);
    const std::string text = render_text(*v, {0, 0}, 32, 20, false);
    EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 20);
    EXPECT_EQ(text.substr(0, 32), std::string(32, '#'));  // the border row
    std::size_t people = 0;
    for (const char ch : text) people += ch == 'w' || ch == 'm' || ch == 'c';
    EXPECT_EQ(people, 8u);
}

}  // namespace

namespace {

TEST(Village, WolvesAttackNearTheirDensAndTheDangerSteersPaths) {
    // Default demo with wolves: every pulse (64 ticks) each villager within 3 cells (Chebyshev) of a den
    // is attacked once per den; counted here from the villagers' cells, independently of the village.
    Config c;
    auto v = Village::create(generate_village_map(120, 56, 1), domains(), c);
    ASSERT_FALSE(v->dens().empty());
    // The danger is a cost layer of every walking path.
    ASSERT_EQ(v->movement().options().layers.size(), 1u);
    EXPECT_EQ(v->movement().options().layers[0].layer, &v->danger().layer());
    std::uint64_t expected = 0;
    std::vector<path::GridPoint> victims;
    for (int t = 0; t < 640; ++t) {
        if (v->tick() > 0 && v->tick() % 64 == 0) {
            victims.clear();
            for (const path::GridPoint den : v->dens())
                for (const Villager& x : v->villagers())
                    if (std::max(std::abs(x.cell.x - den.x), std::abs(x.cell.y - den.y)) <= 3) {
                        ++expected;
                        victims.push_back(x.cell);
                    }
            v->step();
            for (const path::GridPoint p : victims) EXPECT_GE(v->danger().at(p), 6.0f) << "an attack leaves danger where it happened";
            continue;
        }
        v->step();
    }
    const Summary s = v->summary();
    EXPECT_EQ(s.wolf_attacks, expected);
    EXPECT_GT(s.wolf_attacks, 0u) << "woodcutters work near the dens";
    EXPECT_EQ(s.collisions, 0u);
    EXPECT_EQ(s.jams, 0u);
    // The terminal view marks dens and danger.
    const std::string text = render_text(*v, {0, 0}, 120, 56, false);
    EXPECT_NE(text.find('W'), std::string::npos);

    // Without wolves: no dens, no danger, no layer.
    Config quiet;
    quiet.wolves = false;
    auto q = Village::create(generate_village_map(120, 56, 1), domains(), quiet);
    for (int t = 0; t < 200; ++t) q->step();
    EXPECT_TRUE(q->dens().empty());
    EXPECT_EQ(q->summary().wolf_attacks, 0u);
    EXPECT_TRUE(q->movement().options().layers.empty());
}

}  // namespace
