// The C API allocates nothing per query after warm-up (the C++ contexts inside are reused, and so are
// the arrays results point into). A counting operator new in this executable sees the allocations made
// inside libgameplan_c (which takes operator new from the C++ runtime). Usage: c_api_alloc_test SOURCE_DIR
#include <gameplan/c/gameplan.h>

#include "alloc_counter.hpp"

#include <cstdio>
#include <string>

namespace {
int g_failures = 0;
void check(bool ok, const char* what) {
    if (!ok) {
        ++g_failures;
        std::fprintf(stderr, "FAILED: %s (last error: %s)\n", what, gameplan_last_error());
    }
}
}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) return 2;
    const std::string dir = argv[1];
    {  // the counter does see allocations made inside the library
        const gameplan::test::AllocationScope scope;
        gameplan_map* scratch = nullptr;
        check(gameplan_map_create(64, 64, 1, &scratch) == GAMEPLAN_OK, "map_create");
        check(scope.count() > 0, "allocations inside libgameplan_c are counted");
        gameplan_map_destroy(scratch);
    }
    gameplan_map* map = nullptr;
    check(gameplan_map_load((dir + "/examples/maps/rooms.map").c_str(), &map) == GAMEPLAN_OK, "map loads");
    const gameplan_point ends[4][2] = {{{24, 7}, {30, 3}}, {{9, 9}, {28, 14}}, {{1, 1}, {30, 18}}, {{30, 18}, {2, 2}}};
    for (const gameplan_algorithm algorithm : {GAMEPLAN_ASTAR, GAMEPLAN_JPS}) {
        gameplan_pathfinder* finder = nullptr;
        check(gameplan_pathfinder_create(algorithm, &finder) == GAMEPLAN_OK, "pathfinder");
        gameplan_path_result r{};
        for (const auto& e : ends) check(gameplan_find_path(finder, map, e[0], e[1], nullptr, &r) == GAMEPLAN_OK, "warm-up");
        const gameplan::test::AllocationScope scope;
        for (int round = 0; round < 3; ++round)
            for (const auto& e : ends) check(gameplan_find_path(finder, map, e[0], e[1], nullptr, &r) == GAMEPLAN_OK, "query");
        check(scope.count() == 0, algorithm == GAMEPLAN_ASTAR ? "A* queries allocate nothing" : "JPS queries allocate nothing");
        gameplan_pathfinder_destroy(finder);
    }

    gameplan_domain* domain = nullptr;
    check(gameplan_domain_load((dir + "/examples/goap/hunger.json").c_str(), &domain) == GAMEPLAN_OK, "domain loads");
    gameplan_planner* planner = nullptr;
    check(gameplan_planner_create(domain, &planner) == GAMEPLAN_OK, "planner");
    std::uint32_t hungry = 0, food = 0;
    check(gameplan_domain_find_atom(domain, "hungry", &hungry) == GAMEPLAN_OK, "atom hungry");
    check(gameplan_domain_find_atom(domain, "has_food", &food) == GAMEPLAN_OK, "atom has_food");
    const gameplan_literal goals[2][1] = {{{hungry, 0}}, {{food, 1}}};
    gameplan_plan_result pr{};
    for (int round = 0; round < 2; ++round)
        for (const auto& g : goals) check(gameplan_plan(planner, nullptr, g, 1, nullptr, &pr) == GAMEPLAN_OK, "warm-up plan");
    {
        const gameplan::test::AllocationScope scope;
        for (int round = 0; round < 3; ++round)
            for (const auto& g : goals) {
                check(gameplan_plan(planner, nullptr, g, 1, nullptr, &pr) == GAMEPLAN_OK, "plan");
                check(pr.status == GAMEPLAN_STATUS_FOUND, "plan found");
            }
        check(scope.count() == 0, "plans allocate nothing");
    }
    gameplan_planner_destroy(planner);
    gameplan_domain_destroy(domain);
    gameplan_map_destroy(map);
    std::printf("%s\n", g_failures ? "FAILED" : "ok");
    return g_failures ? 1 : 0;
}
