// The C API allocates nothing per query after warm-up (the C++ contexts inside are reused, and so are
// the arrays results point into). A counting operator new in this executable sees the allocations made
// inside libgameplan_c (which takes operator new from the C++ runtime). Usage: c_api_alloc_test SOURCE_DIR
#include <gameplan/c/gameplan.h>

#include "alloc_counter.hpp"

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

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
    for (const gameplan_algorithm algorithm : {GAMEPLAN_ASTAR, GAMEPLAN_JPS, GAMEPLAN_HEX, GAMEPLAN_THETA}) {
        gameplan_pathfinder* finder = nullptr;
        check(gameplan_pathfinder_create(algorithm, &finder) == GAMEPLAN_OK, "pathfinder");
        gameplan_islands* islands = nullptr;  // with the precheck: it allocates nothing either
        check((algorithm == GAMEPLAN_HEX ? gameplan_hex_islands_build(map, &islands)
                                         : gameplan_islands_build(map, nullptr, &islands)) == GAMEPLAN_OK, "islands");
        check(gameplan_pathfinder_set_islands(finder, islands) == GAMEPLAN_OK, "set_islands");
        gameplan_path_result r{};
        for (const auto& e : ends) check(gameplan_find_path(finder, map, e[0], e[1], nullptr, &r) == GAMEPLAN_OK, "warm-up");
        const gameplan::test::AllocationScope scope;
        for (int round = 0; round < 3; ++round)
            for (const auto& e : ends) check(gameplan_find_path(finder, map, e[0], e[1], nullptr, &r) == GAMEPLAN_OK, "query");
        check(scope.count() == 0, algorithm == GAMEPLAN_ASTAR ? "A* queries allocate nothing"
                                  : algorithm == GAMEPLAN_JPS ? "JPS queries allocate nothing"
                                  : algorithm == GAMEPLAN_HEX ? "hex queries allocate nothing"
                                                              : "Theta* queries allocate nothing");
        gameplan_pathfinder_destroy(finder);
        gameplan_islands_destroy(islands);
    }

    {  // under costs (areas, a filter, a layer): paths, the nearest of many targets and distance fields
        gameplan_areas* areas = nullptr;
        gameplan_area_filter* filter = nullptr;
        gameplan_layer* fear = nullptr;
        gameplan_pathfinder* finder = nullptr;
        check(gameplan_areas_create(map, &areas) == GAMEPLAN_OK && gameplan_area_filter_create(&filter) == GAMEPLAN_OK &&
                  gameplan_layer_create(map, &fear) == GAMEPLAN_OK && gameplan_pathfinder_create(GAMEPLAN_ASTAR, &finder) == GAMEPLAN_OK,
              "costs");
        check(gameplan_areas_set(areas, gameplan_point{20, 8}, 1) == GAMEPLAN_OK, "area");
        check(gameplan_area_filter_set_multiplier(filter, 1, 4.0) == GAMEPLAN_OK, "multiplier");
        check(gameplan_layer_add_event(fear, gameplan_point{16, 10}, 5.0f, 4) == GAMEPLAN_OK, "event");
        const gameplan_layer* layers[1] = {fear};
        const double weight = 2.0;
        check(gameplan_pathfinder_set_costs(finder, areas, filter, layers, &weight, 1) == GAMEPLAN_OK, "set_costs");
        const gameplan_point targets[3] = {{30, 3}, {28, 14}, {2, 2}};
        std::vector<double> dist(32 * 20);
        std::vector<gameplan_point> toward(32 * 20);
        gameplan_path_result r{};
        gameplan_status st{};
        std::vector<gameplan_point> smoothed(32 * 20);
        size_t smoothed_count = 0;
        const auto run = [&] {
            for (const auto& e : ends) {
                check(gameplan_find_path(finder, map, e[0], e[1], nullptr, &r) == GAMEPLAN_OK, "costed query");
                check(gameplan_find_nearest(finder, map, e[0], targets, 3, nullptr, nullptr, &r) == GAMEPLAN_OK, "nearest");
            }
            check(gameplan_distance_field(finder, map, targets, 3, nullptr, dist.data(), toward.data(), &st) == GAMEPLAN_OK, "field");
            check(gameplan_find_path(finder, map, ends[0][0], ends[0][1], nullptr, &r) == GAMEPLAN_OK, "a path to smooth");
            check(gameplan_smooth_path(finder, map, r.cells, r.cell_count, nullptr, smoothed.data(), &smoothed_count, nullptr) == GAMEPLAN_OK,
                  "smoothing");
        };
        run();  // warm-up
        const gameplan::test::AllocationScope scope;
        for (int round = 0; round < 3; ++round) run();
        check(scope.count() == 0, "costed queries, nearest targets, distance fields and smoothing allocate nothing");
        gameplan_pathfinder_destroy(finder);
        gameplan_layer_destroy(fear);
        gameplan_area_filter_destroy(filter);
        gameplan_areas_destroy(areas);
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

    {  // HPA* queries
        gameplan_hierarchy* h = nullptr;
        gameplan_hpa_pathfinder* hpa = nullptr;
        check(gameplan_hierarchy_build(map, nullptr, 8, &h) == GAMEPLAN_OK, "hierarchy");
        check(gameplan_hpa_pathfinder_create(&hpa) == GAMEPLAN_OK, "hpa pathfinder");
        gameplan_path_result r{};
        for (int round = 0; round < 2; ++round)
            for (const auto& e : ends) check(gameplan_hpa_find_path(hpa, h, e[0], e[1], nullptr, &r) == GAMEPLAN_OK, "warm-up hpa");
        const gameplan::test::AllocationScope scope;
        for (int round = 0; round < 3; ++round)
            for (const auto& e : ends) {
                check(gameplan_hpa_find_path(hpa, h, e[0], e[1], nullptr, &r) == GAMEPLAN_OK, "hpa query");
                check(r.status == GAMEPLAN_STATUS_FOUND, "hpa found");
            }
        check(scope.count() == 0, "HPA* queries allocate nothing");
        gameplan_hpa_pathfinder_destroy(hpa);
        gameplan_hierarchy_destroy(h);
    }

    {  // graph queries, whole and resumed
        gameplan_graph* g = nullptr;
        gameplan_graph_pathfinder* f = nullptr;
        check(gameplan_graph_load((dir + "/examples/graphs/dungeon.json").c_str(), &g) == GAMEPLAN_OK, "graph loads");
        check(gameplan_graph_pathfinder_create(&f) == GAMEPLAN_OK, "graph pathfinder");
        const auto n = static_cast<std::uint32_t>(gameplan_graph_node_count(g));
        std::vector<double> field(n);
        gameplan_graph_path_result r{};
        const auto queries = [&](const char* what) {
            for (std::uint32_t s = 0; s < n; ++s) {
                check(gameplan_graph_find_path(f, g, s, n - 1 - s, nullptr, &r) == GAMEPLAN_OK, what);
                gameplan_status st = GAMEPLAN_STATUS_IN_PROGRESS;
                check(gameplan_graph_begin(f, g, n - 1 - s, s, nullptr, &st) == GAMEPLAN_OK, what);
                while (st == GAMEPLAN_STATUS_IN_PROGRESS) check(gameplan_graph_step(f, 1, &st) == GAMEPLAN_OK, what);
                check(gameplan_graph_finish(f, &r) == GAMEPLAN_OK, what);
            }
            const std::uint32_t sources[2] = {0, n / 2}, goals[2] = {n - 1, n / 3};
            check(gameplan_graph_find_nearest(f, g, sources, 2, goals, 2, nullptr, &r) == GAMEPLAN_OK, what);
            check(gameplan_graph_distance_field(f, g, sources, 2, nullptr, field.data(), nullptr) == GAMEPLAN_OK, what);
        };
        for (int round = 0; round < 2; ++round) queries("warm-up graph");
        const gameplan::test::AllocationScope scope;
        for (int round = 0; round < 3; ++round) queries("graph query");
        check(scope.count() == 0, "graph queries allocate nothing");
        check(n > 3, "the graph has nodes");
        gameplan_graph_pathfinder_destroy(f);
        gameplan_graph_destroy(g);
    }

    {  // navmesh queries, on the mesh and on its hierarchy, whole and resumed
        gameplan_navmesh* mesh = nullptr;
        gameplan_navmesh_hierarchy* h = nullptr;
        gameplan_navmesh_pathfinder* f = nullptr;
        check(gameplan_navmesh_build(map, &mesh) == GAMEPLAN_OK, "navmesh");
        check(gameplan_navmesh_hierarchy_build(mesh, 0.0, 0, &h) == GAMEPLAN_OK, "navmesh hierarchy");
        check(gameplan_navmesh_pathfinder_create(&f) == GAMEPLAN_OK, "navmesh pathfinder");
        gameplan_navmesh_path_result r{};
        const auto queries = [&](const char* what) {
            for (const auto& e : ends) {
                const gameplan_vec2 a{e[0].x + 0.5, e[0].y + 0.5}, b{e[1].x + 0.5, e[1].y + 0.5};
                check(gameplan_navmesh_find_path(f, mesh, a, b, nullptr, &r) == GAMEPLAN_OK && r.status == GAMEPLAN_STATUS_FOUND, what);
                check(gameplan_navmesh_hierarchy_find_path(f, h, a, b, nullptr, &r) == GAMEPLAN_OK && r.status == GAMEPLAN_STATUS_FOUND, what);
                gameplan_status st = GAMEPLAN_STATUS_IN_PROGRESS;
                check(gameplan_navmesh_begin(f, mesh, a, b, nullptr, &st) == GAMEPLAN_OK, what);
                while (st == GAMEPLAN_STATUS_IN_PROGRESS) check(gameplan_navmesh_step(f, 2, &st) == GAMEPLAN_OK, what);
                check(gameplan_navmesh_finish(f, &r) == GAMEPLAN_OK && r.status == GAMEPLAN_STATUS_FOUND, what);
            }
        };
        for (int round = 0; round < 2; ++round) queries("warm-up navmesh");
        const gameplan::test::AllocationScope scope;
        for (int round = 0; round < 3; ++round) queries("navmesh query");
        check(scope.count() == 0, "navmesh queries allocate nothing");
        gameplan_navmesh_pathfinder_destroy(f);
        gameplan_navmesh_hierarchy_destroy(h);
        gameplan_navmesh_destroy(mesh);
    }

    {  // waypoint queries between any two cells, whole and resumed
        gameplan_graph* g = nullptr;
        gameplan_waypoint_pathfinder* f = nullptr;
        check(gameplan_waypoint_graph_build(map, nullptr, 0, nullptr, &g) == GAMEPLAN_OK, "waypoint graph");
        check(gameplan_waypoint_pathfinder_create(&f) == GAMEPLAN_OK, "waypoint pathfinder");
        gameplan_path_result r{};
        const auto queries = [&](const char* what) {
            for (const auto& e : ends) {
                check(gameplan_waypoint_find_path(f, g, map, e[0], e[1], nullptr, &r) == GAMEPLAN_OK && r.status == GAMEPLAN_STATUS_FOUND, what);
                gameplan_status st = GAMEPLAN_STATUS_IN_PROGRESS;
                check(gameplan_waypoint_begin(f, g, map, e[1], e[0], nullptr, &st) == GAMEPLAN_OK, what);
                while (st == GAMEPLAN_STATUS_IN_PROGRESS) check(gameplan_waypoint_step(f, 2, &st) == GAMEPLAN_OK, what);
                check(gameplan_waypoint_finish(f, &r) == GAMEPLAN_OK && r.status == GAMEPLAN_STATUS_FOUND, what);
            }
        };
        for (int round = 0; round < 2; ++round) queries("warm-up waypoints");
        const gameplan::test::AllocationScope scope;
        for (int round = 0; round < 3; ++round) queries("waypoint query");
        check(scope.count() == 0, "waypoint queries allocate nothing");
        gameplan_waypoint_pathfinder_destroy(f);
        gameplan_graph_destroy(g);
    }

    {  // plans over variables (gold in [0, 9]; work: gold += 1)
        gameplan_domain_builder* b = nullptr;
        gameplan_domain* d = nullptr;
        gameplan_planner* p = nullptr;
        std::uint32_t gold = 0;
        check(gameplan_domain_builder_create(&b) == GAMEPLAN_OK, "builder");
        check(gameplan_domain_builder_add_integer_variable(b, "gold", 0, 9, 0, &gold) == GAMEPLAN_OK, "variable");
        const gameplan_numeric_effect more{gold, GAMEPLAN_ADD, 1};
        const gameplan_numeric_effect two{gold, GAMEPLAN_ADD, 2};
        check(gameplan_domain_builder_add_numeric_action(b, "work", 1, nullptr, 0, nullptr, 0, nullptr, 0, &more, 1) == GAMEPLAN_OK, "work");
        check(gameplan_domain_builder_add_numeric_action(b, "trade", 1.5, nullptr, 0, nullptr, 0, nullptr, 0, &two, 1) == GAMEPLAN_OK, "trade");
        check(gameplan_domain_builder_build(b, &d) == GAMEPLAN_OK, "build");
        gameplan_domain_builder_destroy(b);
        check(gameplan_planner_create(d, &p) == GAMEPLAN_OK, "numeric planner");
        const gameplan_comparison goals[3] = {{gold, GAMEPLAN_GE, 5}, {gold, GAMEPLAN_EQ, 7}, {gold, GAMEPLAN_GE, 9}};
        gameplan_plan_result r{};
        for (int round = 0; round < 2; ++round)
            for (const auto& g : goals) check(gameplan_plan_values(p, nullptr, nullptr, nullptr, 0, &g, 1, nullptr, &r) == GAMEPLAN_OK, "warm-up");
        const gameplan::test::AllocationScope scope;
        for (int round = 0; round < 3; ++round)
            for (const auto& g : goals) {
                check(gameplan_plan_values(p, nullptr, nullptr, nullptr, 0, &g, 1, nullptr, &r) == GAMEPLAN_OK, "numeric plan");
                check(r.status == GAMEPLAN_STATUS_FOUND, "numeric plan found");
            }
        check(scope.count() == 0, "plans over variables allocate nothing");
        gameplan_planner_destroy(p);
        gameplan_domain_destroy(d);
    }

    {  // crowd solves of the same instance (the solver's buffers and the result arrays are reused)
        gameplan_crowd_solver* c = nullptr;
        check(gameplan_crowd_solver_create(&c) == GAMEPLAN_OK, "crowd solver");
        const gameplan_point starts[4] = {ends[0][0], ends[1][0], ends[2][0], ends[3][0]};
        const gameplan_point goals[4] = {ends[0][1], ends[1][1], ends[2][1], {2, 2}};
        gameplan_crowd_result r{};
        for (int round = 0; round < 2; ++round)
            check(gameplan_crowd_solve(c, map, starts, goals, 4, nullptr, &r) == GAMEPLAN_OK, "warm-up crowd");
        const gameplan::test::AllocationScope scope;
        for (int round = 0; round < 3; ++round) {
            check(gameplan_crowd_solve(c, map, starts, goals, 4, nullptr, &r) == GAMEPLAN_OK, "crowd solve");
            check(r.status == GAMEPLAN_STATUS_FOUND, "crowd found");
        }
        check(scope.count() == 0, "crowd solves allocate nothing");
        gameplan_crowd_solver_destroy(c);
    }

    {  // movement updates after reserve
        gameplan_movement* mv = nullptr;
        check(gameplan_movement_create(map, nullptr, &mv) == GAMEPLAN_OK, "movement");
        check(gameplan_movement_reserve(mv, 8, 256) == GAMEPLAN_OK, "reserve");
        std::uint32_t units[4] = {};
        for (int i = 0; i < 4; ++i) check(gameplan_movement_add_unit(mv, ends[i][0], &units[i]) == GAMEPLAN_OK, "unit");
        const auto send = [&](int leg) {
            for (int i = 0; i < 4; ++i) {
                const gameplan_point to = ends[i][leg % 2 == 0 ? 1 : 0];
                check(gameplan_movement_move_to(mv, units[i], gameplan_destination{to, to, 0}) == GAMEPLAN_OK, "move_to");
            }
        };
        send(0);
        for (int t = 0; t < 120; ++t) check(gameplan_movement_update(mv) == GAMEPLAN_OK, "warm-up update");
        send(1);
        gameplan_unit_info info{};
        {
            const gameplan::test::AllocationScope scope;
            for (int t = 0; t < 120; ++t) {
                check(gameplan_movement_update(mv) == GAMEPLAN_OK, "update");
                check(gameplan_movement_unit_info(mv, units[t % 4], &info) == GAMEPLAN_OK, "unit info");
            }
            check(scope.count() == 0, "movement updates allocate nothing");
        }
        gameplan_movement_destroy(mv);
    }
    gameplan_map_destroy(map);
    std::printf("%s\n", g_failures ? "FAILED" : "ok");
    return g_failures ? 1 : 0;
}
