// The README's library example, compiled and run by the test suite so it stays true.
#include <gameplan/gameplan.hpp>

#include <cstdio>

using namespace gameplan;

int main() {
    // Decide what to do: a hungry character.
    goap::DomainBuilder builder;
    (void)builder.add_action("eat", 5, {{"has_food", true}}, {{"hungry", false}});
    (void)builder.add_action("cook", 10, {{"has_vegetables", true}}, {{"has_food", true}});
    (void)builder.add_action("buy_vegetables", 15, {{"has_supermarket", true}}, {{"has_vegetables", true}});
    (void)builder.add_action("go_to_restaurant", 30, {{"has_restaurant", true}}, {{"hungry", false}});
    const goap::Domain domain = builder.build();

    goap::WorldState start(domain.atom_count());
    start.set(domain.find_atom("hungry"), true);
    start.set(domain.find_atom("has_supermarket"), true);
    goap::Condition goal(domain.atom_count());
    goal.set(domain.find_atom("hungry"), false);

    goap::Planner planner(domain);  // reuse it: no allocation per plan after warm-up
    const goap::PlanResult plan = planner.plan(start, goal);
    if (plan.status != Status::Found) return 1;
    std::printf("plan (cost %g):", plan.cost);
    for (goap::ActionId a : plan.plan) std::printf(" %s", domain.action_name(a).c_str());

    // Decide how to get there: a 16 x 8 room with a wall and a door.
    path::GridMap map;
    (void)map.reset(16, 8);
    for (int y = 0; y < 8; ++y)
        if (y != 6) map.set_passable({8, y}, false);
    path::GridPathfinder finder;  // reuse it: no allocation per query after warm-up
    path::GridPath route;
    if (finder.find_path(map, {1, 1}, {14, 1}, {}, route) != Status::Found) return 1;
    std::printf("\npath: %zu cells, cost %.3f, %llu expansions\n", route.cells.size(), route.cost,
                static_cast<unsigned long long>(finder.stats().expanded));
    return 0;
}
