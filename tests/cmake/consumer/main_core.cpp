// A downstream program using only the core library (gameplan::gameplan): a GOAP plan, a grid path and
// a search over the user's own graph. Built by every consumer test, including the one where libpng and
// nlohmann-json cannot be found, and by the pkg-config test.
#include <gameplan/gameplan.hpp>

#include <cstdio>
#include <cstring>

namespace {
// A 1-D corridor of 10 nodes; the goal is the last one.
struct Corridor {
    std::size_t node_bound() const { return 10; }
    double heuristic(gameplan::search::NodeIndex n) const { return 9.0 - n; }
    bool is_goal(gameplan::search::NodeIndex n) const { return n == 9; }
    template <class Sink>
    void expand(gameplan::search::NodeIndex n, Sink&& sink) const {
        if (n + 1 < 10) sink(n + 1, 1.0, 0);
        if (n > 0) sink(n - 1, 1.0, 1);
    }
};
}  // namespace

int main() {
    using namespace gameplan;
    if (std::strcmp(version(), GAMEPLAN_VERSION_STRING) != 0) return 1;

    Corridor space;
    search::SearchContext<double> ctx;
    if (ctx.run(space, 0) != Status::Found || ctx.g(9) != 9.0) return 1;

    goap::DomainBuilder builder;
    (void)builder.add_action("eat", 5, {{"has_food", true}}, {{"hungry", false}});
    (void)builder.add_action("cook", 10, {{"has_vegetables", true}}, {{"has_food", true}});
    (void)builder.add_action("buy_vegetables", 15, {{"has_supermarket", true}}, {{"has_vegetables", true}});
    const goap::Domain domain = builder.build();
    goap::WorldState start(domain.atom_count());
    start.set(domain.find_atom("hungry"), true);
    start.set(domain.find_atom("has_supermarket"), true);
    goap::Condition goal(domain.atom_count());
    goal.set(domain.find_atom("hungry"), false);
    goap::Planner planner(domain);
    const goap::PlanResult plan = planner.plan(start, goal);
    if (plan.status != Status::Found || plan.cost != 30.0) return 1;

    path::GridMap map;
    if (map.reset(16, 8) != path::GridSizeCheck::Ok) return 1;
    path::GridPathfinder finder;
    path::GridPath route;
    if (finder.find_path(map, {1, 1}, {14, 1}, {}, route) != Status::Found || route.cost != 13.0) return 1;

    std::printf("gameplan %s core consumer ok (plan cost %g, path cost %g)\n", version(), plan.cost, route.cost);
    return 0;
}
