// "Allocation-free after warm-up" for the movement layer: a lifelong crowd (new destinations as units
// arrive, a map that changes under the routes) makes no heap allocation per tick once reserved and warm.
#include <gameplan/path/movement.hpp>

#include <alloc_counter.hpp>

#include <random>
#include <vector>

#include <gtest/gtest.h>

using namespace gameplan;
using namespace gameplan::path;

TEST(MovementAlloc, UpdatesAllocateNothingAfterWarmUp) {
    GridMap map;
    ASSERT_EQ(map.reset(48, 48), GridSizeCheck::Ok);
    std::mt19937 rng(5);
    for (int i = 0; i < 300; ++i) (void)map.set_passable({int(rng() % 48), int(rng() % 48)}, false);
    MovementSystem ms(map);
    ms.reserve(100, 512);
    // Destinations drawn up front: the test's own bookkeeping must not allocate either.
    std::vector<GridPoint> goals;
    while (goals.size() < 4096) {
        const GridPoint p{int(rng() % 48), int(rng() % 48)};
        if (map.passable(p)) goals.push_back(p);
    }
    std::vector<UnitId> ids;
    for (std::size_t g = 0; ids.size() < 100; ++g) {
        const UnitId id = ms.add_unit(goals[g]);
        if (id != kNoUnit) ids.push_back(id);
    }
    std::size_t next_goal = 0;
    const auto tick = [&](int t) {
        for (const UnitId id : ids) {
            const UnitStatus s = ms.status(id);
            if (s == UnitStatus::Idle || s == UnitStatus::Arrived || s == UnitStatus::Failed)
                (void)ms.move_to(id, Destination::at(goals[next_goal++ % goals.size()], 1));
        }
        if (t % 50 == 25) (void)map.set_passable(goals[std::size_t(t) % goals.size()], !map.passable(goals[std::size_t(t) % goals.size()]));
        if (t % 97 == 0) (void)ms.stop(ids[std::size_t(t) % ids.size()]);
        ms.update();
    };
    for (int t = 0; t < 600; ++t) tick(t);  // warm-up
    const std::uint64_t steps = ms.stats().steps;
    gameplan::test::AllocationScope scope;
    for (int t = 600; t < 1200; ++t) tick(t);
    EXPECT_EQ(scope.count(), 0u);
    EXPECT_GT(ms.stats().steps, steps + 1000) << "the crowd kept walking";
}
