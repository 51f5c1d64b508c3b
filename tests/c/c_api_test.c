/* The C API, used from C99. Results are checked against independent references written here (brute-force
 * uniform-cost search over every world state, breadth-first search on grids) and against the optimal
 * lengths of the MovingAI scenario file shipped with the examples, and the optimal costs of the GOAP
 * benchmark domains when their folder is given. Usage: c_api_test SOURCE_DIR [BENCHMARK_DATA_DIR] */
#include <gameplan/c/gameplan.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int g_failures = 0;
static int g_checks = 0;

#define CHECK(cond)                                                                                  \
    do {                                                                                             \
        ++g_checks;                                                                                  \
        if (!(cond)) {                                                                               \
            ++g_failures;                                                                            \
            fprintf(stderr, "%s:%d: CHECK failed: %s (last error: %s)\n", __FILE__, __LINE__, #cond, \
                    gameplan_last_error());                                                          \
        }                                                                                            \
    } while (0)
#define CHECK_OK(call) CHECK((call) == GAMEPLAN_OK)

static char g_path[4096];
static const char* source_path(const char* dir, const char* rel) {
    snprintf(g_path, sizeof g_path, "%s/%s", dir, rel);
    return g_path;
}

/* ---- a small random number generator (deterministic) ---- */
static unsigned long g_rng = 12345u;
static unsigned rnd(unsigned n) {
    g_rng = (g_rng * 1103515245u + 12345u) & 0x7fffffffu;
    return (unsigned)((g_rng >> 8) % n);
}

/* ---- brute-force reference planner: Dijkstra over all 2^n states (n <= 12) ---- */
#define MAX_ATOMS 12
#define MAX_ACTIONS 24
typedef struct RefAction {
    unsigned pre_care, pre_val, eff_care, eff_val;
    double cost;
} RefAction;

static double ref_plan_cost(int n_atoms, const RefAction* actions, int n_actions, unsigned start, unsigned goal_care,
                            unsigned goal_val) {
    const unsigned states = 1u << n_atoms;
    double* dist = malloc(states * sizeof *dist);
    char* done = calloc(states, 1);
    unsigned s;
    double best = INFINITY;
    for (s = 0; s < states; ++s) dist[s] = INFINITY;
    dist[start] = 0;
    for (;;) {
        unsigned u = states;
        int a;
        for (s = 0; s < states; ++s)
            if (!done[s] && dist[s] < INFINITY && (u == states || dist[s] < dist[u])) u = s;
        if (u == states) break;
        done[u] = 1;
        if ((u & goal_care) == goal_val) {
            best = dist[u];
            break;
        }
        for (a = 0; a < n_actions; ++a) {
            const RefAction* x = &actions[a];
            if ((u & x->pre_care) != x->pre_val) continue;
            {
                const unsigned v = (u & ~x->eff_care) | x->eff_val;
                if (dist[u] + x->cost < dist[v]) dist[v] = dist[u] + x->cost;
            }
        }
    }
    free(dist);
    free(done);
    return best;
}

static void to_literals(unsigned care, unsigned val, int n_atoms, gameplan_literal* out, size_t* count) {
    int i;
    *count = 0;
    for (i = 0; i < n_atoms; ++i)
        if (care & (1u << i)) {
            out[*count].atom = (uint32_t)i;
            out[*count].value = (val >> i) & 1u;
            ++*count;
        }
}

/* Random domains built in code: the planner's cost equals the brute-force optimum in both directions,
 * and its plan is valid (simulated here) and costs what it says. */
static void test_random_domains(void) {
    int trial;
    int found = 0, none = 0;
    for (trial = 0; trial < 150; ++trial) {
        const int n_atoms = 3 + (int)rnd(6);
        const int n_actions = 3 + (int)rnd(12);
        RefAction acts[MAX_ACTIONS];
        gameplan_domain_builder* b = NULL;
        gameplan_domain* d = NULL;
        gameplan_planner* p = NULL;
        uint8_t start_bytes[MAX_ATOMS];
        unsigned start = 0, goal_care = 0, goal_val = 0;
        gameplan_literal goal[MAX_ATOMS];
        size_t goal_count;
        int i, dir, kept = 0;
        char name[32];
        CHECK_OK(gameplan_domain_builder_create(&b));
        for (i = 0; i < n_atoms; ++i) {
            uint32_t id = 99;
            snprintf(name, sizeof name, "a%d", i);
            CHECK_OK(gameplan_domain_builder_add_atom(b, name, 0, &id));
            CHECK(id == (uint32_t)i);
        }
        for (i = 0; i < n_actions; ++i) {
            RefAction x;
            gameplan_literal pre[MAX_ATOMS], eff[MAX_ATOMS];
            size_t np, ne;
            x.pre_care = rnd(1u << n_atoms) & rnd(1u << n_atoms);
            x.pre_val = rnd(1u << n_atoms) & x.pre_care;
            x.eff_care = (rnd(1u << n_atoms) & rnd(1u << n_atoms)) | (1u << rnd((unsigned)n_atoms));
            x.eff_val = rnd(1u << n_atoms) & x.eff_care;
            x.cost = 1 + (double)rnd(5);
            to_literals(x.pre_care, x.pre_val, n_atoms, pre, &np);
            to_literals(x.eff_care, x.eff_val, n_atoms, eff, &ne);
            snprintf(name, sizeof name, "act%d", i);
            CHECK_OK(gameplan_domain_builder_add_action(b, name, x.cost, pre, np, eff, ne));
            acts[kept++] = x;
        }
        CHECK_OK(gameplan_domain_builder_build(b, &d));
        gameplan_domain_builder_destroy(b);
        CHECK(gameplan_domain_atom_count(d) == (size_t)n_atoms);
        CHECK(gameplan_domain_action_count(d) == (size_t)n_actions);
        CHECK_OK(gameplan_planner_create(d, &p));
        start = rnd(1u << n_atoms);
        for (i = 0; i < n_atoms; ++i) start_bytes[i] = (uint8_t)((start >> i) & 1u);
        goal_care = rnd(1u << n_atoms) | 1u;
        goal_val = rnd(1u << n_atoms) & goal_care;
        to_literals(goal_care, goal_val, n_atoms, goal, &goal_count);
        {
            const double ref = ref_plan_cost(n_atoms, acts, kept, start, goal_care, goal_val);
            for (dir = 0; dir < 3; ++dir) { /* backward, forward, both at once */
                gameplan_plan_options o = gameplan_plan_options_default();
                gameplan_plan_result r;
                o.direction = dir == 2 ? GAMEPLAN_AUTO : dir ? GAMEPLAN_FORWARD : GAMEPLAN_BACKWARD;
                CHECK_OK(gameplan_plan(p, start_bytes, goal, goal_count, &o, &r));
                if (isinf(ref)) {
                    CHECK(r.status == GAMEPLAN_STATUS_NO_PATH);
                    ++none;
                } else {
                    unsigned s = start;
                    double sum = 0;
                    size_t k;
                    CHECK(r.status == GAMEPLAN_STATUS_FOUND);
                    CHECK(fabs(r.cost - ref) < 1e-9);
                    for (k = 0; k < r.action_count; ++k) {
                        const RefAction* x = &acts[r.actions[k]];
                        CHECK((s & x->pre_care) == x->pre_val);
                        s = (s & ~x->eff_care) | x->eff_val;
                        sum += x->cost;
                        CHECK(fabs(gameplan_domain_action_cost(d, r.actions[k]) - x->cost) < 1e-12);
                    }
                    CHECK((s & goal_care) == goal_val);
                    CHECK(fabs(sum - r.cost) < 1e-9);
                    ++found;
                }
            }
        }
        gameplan_planner_destroy(p);
        gameplan_domain_destroy(d);
    }
    CHECK(found > 50);
    CHECK(none > 5);
}

static void test_domain_files(const char* dir) {
    gameplan_domain* d = NULL;
    gameplan_planner* p = NULL;
    gameplan_plan_result r;
    gameplan_plan_options o = gameplan_plan_options_default();
    uint32_t spot = 0, attack = 0, atom = 0;

    /* The guard (CSV): "spot" (1) then "attack" (2) is the only way to hit the target: cost 3. */
    CHECK_OK(gameplan_domain_load(source_path(dir, "tests/io/data/guard.csv"), &d));
    CHECK_OK(gameplan_planner_create(d, &p));
    CHECK_OK(gameplan_plan_goal(p, NULL, NULL, &r));
    CHECK(r.status == GAMEPLAN_STATUS_FOUND);
    CHECK(r.cost == 3.0);
    CHECK_OK(gameplan_domain_find_action(d, "spot", &spot));
    CHECK_OK(gameplan_domain_find_action(d, "attack", &attack));
    CHECK(r.action_count == 2 && r.actions[0] == spot && r.actions[1] == attack);
    CHECK_OK(gameplan_domain_find_atom(d, "armed", &atom));
    CHECK(gameplan_domain_start_atom(d, atom) == 1);
    CHECK(gameplan_domain_goal_count(d) == 1 && strcmp(gameplan_domain_goal_name(d, 0), "rest") == 0);
    /* The named goal "rest" (!tired) already holds at the start: an empty plan. */
    CHECK_OK(gameplan_plan_goal(p, "rest", NULL, &r));
    CHECK(r.status == GAMEPLAN_STATUS_FOUND && r.action_count == 0 && r.cost == 0.0);
    CHECK(gameplan_plan_goal(p, "nope", NULL, &r) == GAMEPLAN_ERROR_NOT_FOUND);
    CHECK(strstr(gameplan_last_error(), "nope") != NULL);
    CHECK(gameplan_domain_find_atom(d, "nope", &atom) == GAMEPLAN_ERROR_NOT_FOUND);
    /* A budget of one expansion is not enough. */
    o.max_expansions = 1;
    o.direction = GAMEPLAN_FORWARD;
    CHECK_OK(gameplan_plan_goal(p, NULL, &o, &r));
    CHECK(r.status == GAMEPLAN_STATUS_BUDGET_EXHAUSTED && r.limit == GAMEPLAN_LIMIT_EXPANSIONS);
    gameplan_planner_destroy(p);
    gameplan_domain_destroy(d);

    /* Wood collection (JSON, numeric variables): walk_to_forest + 20 x chop_2, cost 39 (its comment). */
    CHECK_OK(gameplan_domain_load(source_path(dir, "examples/goap/wood_collection.json"), &d));
    CHECK(gameplan_domain_has_variables(d) == 1);
    CHECK_OK(gameplan_planner_create(d, &p));
    CHECK_OK(gameplan_plan_goal(p, NULL, NULL, &r));
    CHECK(r.status == GAMEPLAN_STATUS_FOUND && r.cost == 39.0 && r.action_count == 21 && r.limit == GAMEPLAN_LIMIT_NONE);
    gameplan_planner_destroy(p);
    gameplan_domain_destroy(d);

    /* Three counters to raise to 1,000 (a billion states): a memory budget of 2 MiB stops the search. */
    CHECK_OK(gameplan_domain_load(source_path(dir, "tests/cli/data/counters_3x1000.json"), &d));
    CHECK_OK(gameplan_planner_create(d, &p));
    o = gameplan_plan_options_default();
    CHECK(o.max_memory_bytes == 0);
    o.max_memory_bytes = (uint64_t)2 << 20;
    o.max_expansions = 5000000; /* a backstop: without the memory budget the search would end here */
    CHECK_OK(gameplan_plan_goal(p, NULL, &o, &r));
    CHECK(r.status == GAMEPLAN_STATUS_BUDGET_EXHAUSTED && r.expanded > 1000 && r.expanded < 5000000);
    CHECK(r.limit == GAMEPLAN_LIMIT_MEMORY);
    gameplan_planner_destroy(p);
    gameplan_domain_destroy(d);

    /* Errors: a missing file and a broken text name the place; nothing is returned. */
    d = NULL;
    CHECK(gameplan_domain_load(source_path(dir, "no/such/domain.json"), &d) == GAMEPLAN_ERROR_LOAD && d == NULL);
    CHECK(strstr(gameplan_last_error(), "domain.json") != NULL);
    {
        const char* text = "{\"actions\": [ {\"name\": \"x\", \"cost\": -1} ]}";
        CHECK(gameplan_domain_parse(text, strlen(text), "broken.json", &d) == GAMEPLAN_ERROR_LOAD && d == NULL);
        CHECK(strstr(gameplan_last_error(), "broken.json") != NULL);
    }
    CHECK(gameplan_domain_load(NULL, &d) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
}

/* The GOAP benchmark domains (GAMEPLAN_BENCHMARK_DATA_DIR/goap): their README's optimal costs, computed
 * there by an independent uniform-cost search. */
static void test_benchmark_domains(const char* data_dir) {
    static const struct {
        const char* file;
        double optimal;
    } cases[] = {{"gpgoap_example.json", 4},  {"ladder_N16_M20.json", 8},  {"ladder_N32_M20.json", 8},
                 {"ladder_N60_M20.json", 8},  {"ladder_N16_M50.json", 8},  {"ladder_N32_M50.json", 8},
                 {"ladder_N60_M50.json", 8},  {"ladder_N16_M200.json", 8}, {"ladder_N32_M200.json", 8},
                 {"ladder_N60_M200.json", 8}, {"random_N16_M20.json", 20}, {"random_N32_M50.json", 28}};
    size_t i;
    int dir, loaded = 0;
    char path[4096];
    for (i = 0; i < sizeof cases / sizeof cases[0]; ++i) {
        gameplan_domain* d = NULL;
        gameplan_planner* p = NULL;
        snprintf(path, sizeof path, "%s/goap/%s", data_dir, cases[i].file);
        if (gameplan_domain_load(path, &d) != GAMEPLAN_OK) {
            printf("skipped %s: %s\n", cases[i].file, gameplan_last_error());
            continue;
        }
        ++loaded;
        CHECK_OK(gameplan_planner_create(d, &p));
        for (dir = 0; dir < 2; ++dir) {
            gameplan_plan_options o = gameplan_plan_options_default();
            gameplan_plan_result r;
            o.direction = dir ? GAMEPLAN_FORWARD : GAMEPLAN_BACKWARD;
            CHECK_OK(gameplan_plan_goal(p, NULL, &o, &r));
            CHECK(r.status == GAMEPLAN_STATUS_FOUND && r.cost == cases[i].optimal);
            if (r.cost != cases[i].optimal) fprintf(stderr, "  %s: cost %g, optimal %g\n", cases[i].file, r.cost, cases[i].optimal);
        }
        gameplan_planner_destroy(p);
        gameplan_domain_destroy(d);
    }
    printf("GOAP benchmark domains: %d of %d found under %s/goap\n", loaded, (int)(sizeof cases / sizeof cases[0]), data_dir);
}

/* ---- grids ---- */

/* The four 4-connected neighbours of `c`; returns their count. */
static int square_neighbours(gameplan_point c, gameplan_point out[6]) {
    static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
    int k;
    for (k = 0; k < 4; ++k) out[k].x = c.x + dx[k], out[k].y = c.y + dy[k];
    return 4;
}

/* Unit steps from s to g (-1: unreachable), breadth first over `neighbours`. */
static int ref_bfs_over(const gameplan_map* m, gameplan_point s, gameplan_point g, int (*neighbours)(gameplan_point, gameplan_point[6])) {
    const int w = gameplan_map_width(m), h = gameplan_map_height(m);
    int* dist = malloc((size_t)(w * h) * sizeof *dist);
    int* queue = malloc((size_t)(w * h) * sizeof *queue);
    int head = 0, tail = 0, i, result;
    for (i = 0; i < w * h; ++i) dist[i] = -1;
    if (gameplan_map_passable(m, s)) {
        dist[s.y * w + s.x] = 0;
        queue[tail++] = s.y * w + s.x;
    }
    while (head < tail) {
        const int u = queue[head++];
        gameplan_point c, n[6];
        int k, count;
        c.x = u % w, c.y = u / w;
        count = neighbours(c, n);
        for (k = 0; k < count; ++k) {
            if (!gameplan_map_passable(m, n[k]) || dist[n[k].y * w + n[k].x] >= 0) continue;
            dist[n[k].y * w + n[k].x] = dist[u] + 1;
            queue[tail++] = n[k].y * w + n[k].x;
        }
    }
    result = dist[g.y * w + g.x];
    free(dist);
    free(queue);
    return result;
}

/* Breadth-first distances on a 4-connected unit-cost grid (reference for built maps). */
static int ref_bfs(const gameplan_map* m, gameplan_point s, gameplan_point g) { return ref_bfs_over(m, s, g, square_neighbours); }

/* The six odd-r neighbours of `c` (odd rows sit half a cell right); returns their count. */
static int hex_neighbours(gameplan_point c, gameplan_point out[6]) {
    const int odd = c.y & 1, dx[6] = {1, -1, odd - 1, odd, odd - 1, odd}, dy[6] = {0, 0, -1, -1, 1, 1};
    int k;
    for (k = 0; k < 6; ++k) out[k].x = c.x + dx[k], out[k].y = c.y + dy[k];
    return 6;
}

/* Hex steps from s to g (-1: unreachable), breadth first. */
static int ref_hex_bfs(const gameplan_map* m, gameplan_point s, gameplan_point g) { return ref_bfs_over(m, s, g, hex_neighbours); }

static gameplan_vec2 vec2(double x, double y) {
    gameplan_vec2 v;
    v.x = x, v.y = y;
    return v;
}

#define GRAPH_NODES 40
#define GRAPH_EDGES 100

/* Cheapest cost from s to g over the arcs (-1 when unreachable): Dijkstra by repeated minimum. */
static double ref_graph_dijkstra(const int* from, const int* to, const double* cost, int arcs, int s, int g) {
    double dist[GRAPH_NODES];
    int done[GRAPH_NODES], i, k;
    for (i = 0; i < GRAPH_NODES; ++i) dist[i] = -1.0, done[i] = 0;
    dist[s] = 0.0;
    for (;;) {
        int u = -1;
        for (i = 0; i < GRAPH_NODES; ++i)
            if (!done[i] && dist[i] >= 0.0 && (u < 0 || dist[i] < dist[u])) u = i;
        if (u < 0) return -1.0;
        if (u == g) return dist[u];
        done[u] = 1;
        for (k = 0; k < arcs; ++k)
            if (from[k] == u && (dist[to[k]] < 0.0 || dist[u] + cost[k] < dist[to[k]])) dist[to[k]] = dist[u] + cost[k];
    }
}

/* Graphs built in code (with positions: A* with the distance heuristic) against a reference Dijkstra,
 * whole and resumed; a graph file; budgets and refusals. */
static void test_graphs(const char* dir) {
    int from[2 * GRAPH_EDGES], to[2 * GRAPH_EDGES], trial, found = 0;
    double cost[2 * GRAPH_EDGES];
    gameplan_graph_pathfinder* f = NULL;
    CHECK_OK(gameplan_graph_pathfinder_create(&f));
    for (trial = 0; trial < 6; ++trial) {
        gameplan_graph_builder* b = NULL;
        gameplan_graph* g = NULL;
        gameplan_vec2 pos[GRAPH_NODES];
        int i, arcs = 0, q;
        char id[16];
        CHECK_OK(gameplan_graph_builder_create(&b));
        for (i = 0; i < GRAPH_NODES; ++i) {
            uint32_t index = 0;
            pos[i] = vec2(rnd(1000) / 10.0, rnd(1000) / 10.0);
            snprintf(id, sizeof id, "n%d", i);
            CHECK_OK(gameplan_graph_builder_add_node(b, id, &pos[i], &index));
            CHECK(index == (uint32_t)i);
        }
        for (i = 0; i < GRAPH_EDGES; ++i) {
            const int a = (int)rnd(GRAPH_NODES), c = (int)rnd(GRAPH_NODES), undirected = (int)rnd(2);
            /* at least the straight distance: the heuristic stays admissible */
            const double w = hypot(pos[a].x - pos[c].x, pos[a].y - pos[c].y) * (1.0 + rnd(1000) / 1000.0);
            CHECK_OK(gameplan_graph_builder_add_edge(b, (uint32_t)a, (uint32_t)c, w, undirected));
            from[arcs] = a, to[arcs] = c, cost[arcs++] = w;
            if (undirected) from[arcs] = c, to[arcs] = a, cost[arcs++] = w;
        }
        CHECK(gameplan_graph_builder_add_node(b, "n0", NULL, NULL) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
        CHECK(gameplan_graph_builder_add_edge(b, 0, 1, -1.0, 0) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
        CHECK_OK(gameplan_graph_builder_build(b, &g));
        CHECK(gameplan_graph_node_count(g) == GRAPH_NODES && gameplan_graph_arc_count(g) == (size_t)arcs);
        for (q = 0; q < 25; ++q) {
            const uint32_t s = rnd(GRAPH_NODES), t = rnd(GRAPH_NODES);
            const double ref = ref_graph_dijkstra(from, to, cost, arcs, (int)s, (int)t);
            gameplan_graph_options o = gameplan_graph_options_default();
            gameplan_graph_path_result r;
            gameplan_status st;
            int dijkstra;
            for (dijkstra = 0; dijkstra < 2; ++dijkstra) {
                o.dijkstra = dijkstra;
                CHECK_OK(gameplan_graph_find_path(f, g, s, t, &o, &r));
                if (ref < 0.0) {
                    CHECK(r.status == GAMEPLAN_STATUS_NO_PATH && r.nodes == NULL);
                    continue;
                }
                ++found;
                CHECK(r.status == GAMEPLAN_STATUS_FOUND && fabs(r.cost - ref) <= 1e-9 * (1.0 + ref));
                CHECK(r.node_count >= 1 && r.nodes[0] == s && r.nodes[r.node_count - 1] == t);
                CHECK_OK(gameplan_graph_begin(f, g, s, t, &o, &st));
                while (st == GAMEPLAN_STATUS_IN_PROGRESS) CHECK_OK(gameplan_graph_step(f, 2, &st));
                CHECK_OK(gameplan_graph_finish(f, &r));
                CHECK(r.status == GAMEPLAN_STATUS_FOUND && fabs(r.cost - ref) <= 1e-9 * (1.0 + ref));
            }
        }
        for (q = 0; q < 10; ++q) {  /* nearest of many goals from several sources, and distance fields */
            uint32_t sources[3], goals[3];
            double best = -1.0, field[GRAPH_NODES];
            gameplan_graph_path_result r;
            gameplan_status st;
            int a, c, on_source = 0, on_goal = 0;
            for (a = 0; a < 3; ++a) sources[a] = rnd(GRAPH_NODES), goals[a] = rnd(GRAPH_NODES);
            for (a = 0; a < 3; ++a)
                for (c = 0; c < 3; ++c) {
                    const double d = ref_graph_dijkstra(from, to, cost, arcs, (int)sources[a], (int)goals[c]);
                    if (d >= 0.0 && (best < 0.0 || d < best)) best = d;
                }
            CHECK_OK(gameplan_graph_find_nearest(f, g, sources, 3, goals, 3, NULL, &r));
            if (best < 0.0) {
                CHECK(r.status == GAMEPLAN_STATUS_NO_PATH);
            } else {
                CHECK(r.status == GAMEPLAN_STATUS_FOUND && fabs(r.cost - best) <= 1e-9 * (1.0 + best));
                for (a = 0; a < 3; ++a) on_source |= r.nodes[0] == sources[a], on_goal |= r.nodes[r.node_count - 1] == goals[a];
                CHECK(on_source && on_goal);
            }
            CHECK_OK(gameplan_graph_distance_field(f, g, sources, 2, NULL, field, &st));
            CHECK(st == GAMEPLAN_STATUS_NO_PATH);
            for (i = 0; i < GRAPH_NODES; ++i) {
                const double d0 = ref_graph_dijkstra(from, to, cost, arcs, (int)sources[0], i);
                const double d1 = ref_graph_dijkstra(from, to, cost, arcs, (int)sources[1], i);
                const double ref = d0 < 0.0 ? d1 : d1 < 0.0 ? d0 : (d0 < d1 ? d0 : d1);
                CHECK(ref < 0.0 ? isinf(field[i]) : fabs(field[i] - ref) <= 1e-9 * (1.0 + ref));
            }
        }
        {
            gameplan_graph_path_result r;
            uint32_t outside = GRAPH_NODES;
            double field[GRAPH_NODES];
            CHECK(gameplan_graph_find_path(f, g, 0, GRAPH_NODES, NULL, &r) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
            CHECK(gameplan_graph_find_nearest(f, g, &outside, 1, &outside, 1, NULL, &r) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
            CHECK(gameplan_graph_distance_field(f, g, NULL, 0, NULL, field, NULL) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
            CHECK(strcmp(gameplan_graph_node_id(g, 7), "n7") == 0 && gameplan_graph_node_id(g, GRAPH_NODES) == NULL);
        }
        gameplan_graph_destroy(g);
        gameplan_graph_builder_destroy(b);
    }
    CHECK(found > 100);
    {  /* a file (a CSV edge list), ids and budgets */
        char path[1024];
        gameplan_graph* g = NULL;
        uint32_t a = 0, z = 0;
        gameplan_graph_options o = gameplan_graph_options_default();
        gameplan_graph_path_result r;
        snprintf(path, sizeof path, "%s/examples/graphs/risk.csv", dir);
        CHECK_OK(gameplan_graph_load(path, &g));
        CHECK_OK(gameplan_graph_find_node(g, "Alaska", &a));
        CHECK_OK(gameplan_graph_find_node(g, "Venezuela", &z));
        CHECK(gameplan_graph_find_node(g, "Atlantis", &a) == GAMEPLAN_ERROR_NOT_FOUND);
        CHECK_OK(gameplan_graph_find_path(f, g, a, z, NULL, &r));
        CHECK(r.status == GAMEPLAN_STATUS_FOUND && r.cost > 0 && strcmp(gameplan_graph_node_id(g, r.nodes[0]), "Alaska") == 0);
        o.max_expansions = 1;
        CHECK_OK(gameplan_graph_find_path(f, g, a, z, &o, &r));
        CHECK(r.status == GAMEPLAN_STATUS_BUDGET_EXHAUSTED && r.limit == GAMEPLAN_LIMIT_EXPANSIONS && r.nodes == NULL);
        gameplan_graph_destroy(g);
        snprintf(path, sizeof path, "%s/examples/graphs/no_such_file.csv", dir);
        CHECK(gameplan_graph_load(path, &g) == GAMEPLAN_ERROR_LOAD);
    }
    gameplan_graph_pathfinder_destroy(f);
}

/* GAMEPLAN_HEX against the hex BFS, whole and resumed, on random maps. */
static void test_hex(void) {
    gameplan_map* m = NULL;
    gameplan_pathfinder* f = NULL;
    int trial, found = 0;
    CHECK_OK(gameplan_map_create(24, 16, 1, &m));
    CHECK_OK(gameplan_pathfinder_create(GAMEPLAN_HEX, &f));
    for (trial = 0; trial < 80; ++trial) {
        gameplan_point s, g, c;
        gameplan_path_result r;
        gameplan_status st;
        int ref, k;
        size_t i;
        for (k = 0; k < 40; ++k) {
            c.x = (int32_t)rnd(24);
            c.y = (int32_t)rnd(16);
            CHECK_OK(gameplan_map_set_passable(m, c, rnd(3) != 0));
        }
        s.x = (int32_t)rnd(24), s.y = (int32_t)rnd(16);
        g.x = (int32_t)rnd(24), g.y = (int32_t)rnd(16);
        ref = ref_hex_bfs(m, s, g);
        CHECK_OK(gameplan_find_path(f, m, s, g, NULL, &r));
        if (!gameplan_map_passable(m, s) || !gameplan_map_passable(m, g)) {
            CHECK(r.status == GAMEPLAN_STATUS_INVALID_QUERY);
            continue;
        }
        if (ref < 0) {
            CHECK(r.status == GAMEPLAN_STATUS_NO_PATH && r.cell_count == 0);
            continue;
        }
        ++found;
        CHECK(r.status == GAMEPLAN_STATUS_FOUND && r.cost == (double)ref && r.cell_count == (size_t)ref + 1);
        for (i = 1; i < r.cell_count; ++i) {  /* each step to one of the six neighbours, a free cell */
            gameplan_point n[6];
            int adjacent = 0;
            hex_neighbours(r.cells[i - 1], n);
            for (k = 0; k < 6; ++k) adjacent |= n[k].x == r.cells[i].x && n[k].y == r.cells[i].y;
            CHECK(adjacent && gameplan_map_passable(m, r.cells[i]));
        }
        CHECK_OK(gameplan_pathfinder_begin(f, m, s, g, NULL, &st));
        while (st == GAMEPLAN_STATUS_IN_PROGRESS) CHECK_OK(gameplan_pathfinder_step(f, 3, &st));
        CHECK_OK(gameplan_pathfinder_finish(f, &r));
        CHECK(r.status == GAMEPLAN_STATUS_FOUND && r.cost == (double)ref);
    }
    CHECK(found > 20);
    gameplan_pathfinder_destroy(f);
    gameplan_map_destroy(m);
}

/* ---- islands: the components of a reference flood under each movement rule ---- */

enum { RULE_FOUR, RULE_EIGHT_NO_CUT, RULE_EIGHT_ALWAYS, RULE_HEX };

/* Whether one step a -> b is legal under `rule` (both cells inside; b passable). */
static int island_step(const gameplan_map* m, gameplan_point a, gameplan_point b, int rule) {
    const int dx = b.x - a.x, dy = b.y - a.y;
    if (!gameplan_map_passable(m, b)) return 0;
    if (rule == RULE_HEX) {
        gameplan_point n[6];
        int k, adjacent = 0;
        hex_neighbours(a, n);
        for (k = 0; k < 6; ++k) adjacent |= n[k].x == b.x && n[k].y == b.y;
        return adjacent;
    }
    if (dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0)) return 0;
    if (dx != 0 && dy != 0) {
        gameplan_point s1, s2;
        if (rule == RULE_FOUR) return 0;
        if (rule == RULE_EIGHT_ALWAYS) return 1;
        s1.x = a.x + dx, s1.y = a.y, s2.x = a.x, s2.y = a.y + dy;
        return gameplan_map_passable(m, s1) && gameplan_map_passable(m, s2);
    }
    return 1;
}

/* Labels every cell with its component under `rule` (-1 blocked); returns the number of components and
 * writes each one's cell count to sizes[label]. */
static int ref_islands(const gameplan_map* m, int rule, int* labels, int* sizes) {
    const int w = gameplan_map_width(m), h = gameplan_map_height(m);
    int* queue = malloc((size_t)(w * h) * sizeof *queue);
    int i, count = 0;
    for (i = 0; i < w * h; ++i) labels[i] = -1;
    for (i = 0; i < w * h; ++i) {
        int head = 0, tail = 0;
        gameplan_point c;
        c.x = i % w, c.y = i / w;
        if (!gameplan_map_passable(m, c) || labels[i] >= 0) continue;
        labels[i] = count;
        queue[tail++] = i;
        while (head < tail) {
            const int u = queue[head++];
            gameplan_point a, b;
            int dx, dy;
            a.x = u % w, a.y = u / w;
            for (dy = -1; dy <= 1; ++dy)
                for (dx = -1; dx <= 1; ++dx) {
                    b.x = a.x + dx, b.y = a.y + dy;
                    if (b.x < 0 || b.y < 0 || b.x >= w || b.y >= h || labels[b.y * w + b.x] >= 0) continue;
                    if (!island_step(m, a, b, rule)) continue;
                    labels[b.y * w + b.x] = count;
                    queue[tail++] = b.y * w + b.x;
                }
        }
        sizes[count++] = tail;
    }
    free(queue);
    return count;
}

/* The islands partition the map as the reference does: ids of blocked cells, the count, every cell's
 * island the same as a representative's exactly when the reference says so, and the sizes. */
static int islands_match(const gameplan_map* m, const gameplan_islands* isl, int rule) {
    const int w = gameplan_map_width(m), h = gameplan_map_height(m);
    int* labels = malloc((size_t)(w * h) * sizeof *labels);
    int* sizes = malloc((size_t)(w * h) * sizeof *sizes);
    uint32_t* first = malloc((size_t)(w * h) * sizeof *first); /* the island id of each component */
    const int count = ref_islands(m, rule, labels, sizes);
    int i, ok = (size_t)count == gameplan_islands_count(isl);
    for (i = 0; i < count; ++i) first[i] = GAMEPLAN_NO_ISLAND;
    for (i = 0; i < w * h; ++i) {
        gameplan_point c;
        uint32_t id;
        c.x = i % w, c.y = i / w;
        id = gameplan_islands_id(isl, c);
        if (labels[i] < 0) {
            ok &= id == GAMEPLAN_NO_ISLAND;
            continue;
        }
        if (first[labels[i]] == GAMEPLAN_NO_ISLAND) {
            int k;
            for (k = 0; k < labels[i]; ++k) ok &= first[k] != id; /* another component, another island */
            first[labels[i]] = id;
            ok &= gameplan_islands_size(isl, id) == (size_t)sizes[labels[i]];
        }
        ok &= id == first[labels[i]];
    }
    free(labels);
    free(sizes);
    free(first);
    return ok;
}

static void test_islands(void) {
    static const int rules[4] = {RULE_FOUR, RULE_EIGHT_NO_CUT, RULE_EIGHT_ALWAYS, RULE_HEX};
    gameplan_map* m = NULL;
    gameplan_map* other = NULL;
    int r, trial, unreachable = 0, reachable = 0;
    CHECK_OK(gameplan_map_create(22, 15, 1, &m));
    CHECK_OK(gameplan_map_create(22, 15, 1, &other));
    for (r = 0; r < 4; ++r) {
        const int rule = rules[r];
        gameplan_islands* isl = NULL;
        gameplan_pathfinder* with = NULL;
        gameplan_pathfinder* without = NULL;
        gameplan_path_options o = gameplan_path_options_default();
        int k;
        gameplan_point c;
        o.movement = rule == RULE_FOUR ? 4 : 8;
        o.diagonal = rule == RULE_EIGHT_ALWAYS ? GAMEPLAN_DIAGONAL_ALWAYS : GAMEPLAN_DIAGONAL_NO_CORNER_CUTTING;
        for (c.y = 0; c.y < 15; ++c.y)
            for (c.x = 0; c.x < 22; ++c.x) CHECK_OK(gameplan_map_set_passable(m, c, rnd(100) >= 38));
        if (rule == RULE_HEX) CHECK_OK(gameplan_hex_islands_build(m, &isl));
        else CHECK_OK(gameplan_islands_build(m, &o, &isl));
        CHECK(islands_match(m, isl, rule));
        /* Cells opened and closed through the islands: exact after each change. */
        for (k = 0; k < 120; ++k) {
            c.x = (int32_t)rnd(22), c.y = (int32_t)rnd(15);
            CHECK_OK(gameplan_islands_set_passable(isl, m, c, !gameplan_map_passable(m, c)));
            if (k % 10 == 0) CHECK(islands_match(m, isl, rule));
        }
        CHECK(islands_match(m, isl, rule));
        /* Queries with the precheck: NO_PATH without an expansion exactly when the reference says so,
         * and otherwise the same cost as without it. */
        CHECK_OK(gameplan_pathfinder_create(rule == RULE_HEX ? GAMEPLAN_HEX : GAMEPLAN_ASTAR, &with));
        CHECK_OK(gameplan_pathfinder_create(rule == RULE_HEX ? GAMEPLAN_HEX : GAMEPLAN_ASTAR, &without));
        CHECK_OK(gameplan_pathfinder_set_islands(with, isl));
        for (trial = 0; trial < 60; ++trial) {
            gameplan_point s, g;
            gameplan_path_result a, b;
            do s.x = (int32_t)rnd(22), s.y = (int32_t)rnd(15); while (!gameplan_map_passable(m, s));
            do g.x = (int32_t)rnd(22), g.y = (int32_t)rnd(15); while (!gameplan_map_passable(m, g));
            CHECK_OK(gameplan_find_path(with, m, s, g, &o, &a));
            CHECK_OK(gameplan_find_path(without, m, s, g, &o, &b));
            CHECK(a.status == b.status);
            if (gameplan_islands_connectivity(isl, s, g) == GAMEPLAN_UNREACHABLE) {
                CHECK(a.status == GAMEPLAN_STATUS_NO_PATH && a.expanded == 0);
                ++unreachable;
            } else {
                CHECK(gameplan_islands_connectivity(isl, s, g) == GAMEPLAN_REACHABLE);
                CHECK(a.status == GAMEPLAN_STATUS_FOUND && fabs(a.cost - b.cost) < 1e-9);
                ++reachable;
            }
        }
        /* A cost change leaves them current; a cell changed behind their back makes them unknown until
         * updated, and the pathfinder then searches. */
        do c.x = (int32_t)rnd(22), c.y = (int32_t)rnd(15); while (!gameplan_map_passable(m, c));
        CHECK_OK(gameplan_map_set_cost(m, c, 4));
        CHECK(gameplan_islands_connectivity(isl, c, c) == GAMEPLAN_REACHABLE);
        CHECK_OK(gameplan_map_set_passable(m, c, 0));
        CHECK(gameplan_islands_connectivity(isl, c, c) == GAMEPLAN_REACHABILITY_UNKNOWN);
        CHECK_OK(gameplan_islands_update(isl, m));
        CHECK(gameplan_islands_connectivity(isl, c, c) == GAMEPLAN_UNREACHABLE);
        CHECK(islands_match(m, isl, rule));
        CHECK_OK(gameplan_map_set_cost(m, c, 1));
        /* Misuse. */
        CHECK(gameplan_islands_set_passable(isl, other, c, 1) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
        c.x = 22;
        CHECK(gameplan_islands_set_passable(isl, m, c, 1) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
        CHECK(gameplan_islands_id(isl, c) == GAMEPLAN_NO_ISLAND);
        CHECK(gameplan_islands_size(isl, (uint32_t)gameplan_islands_count(isl) + 1000u) == 0);
        {
            gameplan_pathfinder* wrong = NULL;
            CHECK_OK(gameplan_pathfinder_create(rule == RULE_HEX ? GAMEPLAN_ASTAR : GAMEPLAN_HEX, &wrong));
            CHECK(gameplan_pathfinder_set_islands(wrong, isl) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
            gameplan_pathfinder_destroy(wrong);
        }
        CHECK_OK(gameplan_pathfinder_set_islands(with, NULL));
        gameplan_pathfinder_destroy(with);
        gameplan_pathfinder_destroy(without);
        gameplan_islands_destroy(isl);
    }
    CHECK(unreachable > 20 && reachable > 20);
    /* Islands of a stricter rule never answer for a more permissive query: two cells joined only by a
     * diagonal are apart under 4-neighbour islands, and an 8-neighbour query that may cut corners still
     * finds the step. */
    {
        gameplan_islands* four = NULL;
        gameplan_pathfinder* f = NULL;
        gameplan_path_options o = gameplan_path_options_default();
        gameplan_path_result res;
        gameplan_point a = {0, 0}, b = {1, 1}, c;
        for (c.y = 0; c.y < 15; ++c.y)
            for (c.x = 0; c.x < 22; ++c.x) CHECK_OK(gameplan_map_set_passable(m, c, (c.x == 0 && c.y == 0) || (c.x == 1 && c.y == 1)));
        o.movement = 4;
        CHECK_OK(gameplan_islands_build(m, &o, &four));
        CHECK(gameplan_islands_connectivity(four, a, b) == GAMEPLAN_UNREACHABLE);
        CHECK_OK(gameplan_pathfinder_create(GAMEPLAN_ASTAR, &f));
        CHECK_OK(gameplan_pathfinder_set_islands(f, four));
        o.movement = 8;
        o.diagonal = GAMEPLAN_DIAGONAL_ALWAYS;
        CHECK_OK(gameplan_find_path(f, m, a, b, &o, &res));
        CHECK(res.status == GAMEPLAN_STATUS_FOUND && res.cell_count == 2);
        o.movement = 4;
        CHECK_OK(gameplan_find_path(f, m, a, b, &o, &res));
        CHECK(res.status == GAMEPLAN_STATUS_NO_PATH && res.expanded == 0);
        gameplan_pathfinder_destroy(f);
        gameplan_islands_destroy(four);
    }
    /* The request queue: with islands, a request between islands is answered in the first update with
     * nothing expanded, while the flood without them takes several updates of 10 expansions. */
    {
        gameplan_islands* isl = NULL;
        gameplan_islands* hexes = NULL;
        gameplan_request_queue* q = NULL;
        gameplan_path_handle far, near, plain;
        gameplan_path_result res;
        gameplan_point a = {0, 0}, b = {21, 14}, c = {5, 5}, wall;
        uint32_t completed = 0;
        int updates = 0;
        for (wall.y = 0; wall.y < 15; ++wall.y)
            for (wall.x = 0; wall.x < 22; ++wall.x) CHECK_OK(gameplan_map_set_passable(m, wall, wall.x != 11));
        CHECK_OK(gameplan_islands_build(m, NULL, &isl));
        CHECK_OK(gameplan_hex_islands_build(m, &hexes));
        CHECK_OK(gameplan_request_queue_create(m, 1, &q));
        CHECK(gameplan_request_queue_set_islands(q, hexes) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
        CHECK_OK(gameplan_request_queue_submit(q, a, b, NULL, 0, &plain)); /* before the islands: a flood */
        CHECK_OK(gameplan_request_queue_set_islands(q, isl));
        CHECK_OK(gameplan_request_queue_submit(q, a, b, NULL, 1, &far));  /* higher priority: served first */
        CHECK_OK(gameplan_request_queue_submit(q, a, c, NULL, 1, &near));
        CHECK_OK(gameplan_request_queue_update(q, 10, &completed));
        CHECK(gameplan_request_queue_state(q, far) == GAMEPLAN_REQUEST_DONE);
        CHECK_OK(gameplan_request_queue_take(q, far, &res));
        CHECK(res.status == GAMEPLAN_STATUS_NO_PATH && res.expanded == 0);
        while (gameplan_request_queue_state(q, plain) != GAMEPLAN_REQUEST_DONE && updates < 1000) {
            CHECK_OK(gameplan_request_queue_update(q, 10, &completed));
            ++updates;
        }
        CHECK(updates > 5);
        CHECK_OK(gameplan_request_queue_take(q, plain, &res));
        CHECK(res.status == GAMEPLAN_STATUS_NO_PATH && res.expanded > 100);
        CHECK_OK(gameplan_request_queue_take(q, near, &res));
        CHECK(res.status == GAMEPLAN_STATUS_FOUND && fabs(res.cost - 5.0 * sqrt(2.0)) < 1e-9);
        gameplan_request_queue_destroy(q);
        /* Units: a destination across the wall fails at the first update with islands (16 expansions an
         * update would take many updates to flood the left half without them). */
        {
            gameplan_movement_options mo = gameplan_movement_options_default();
            gameplan_movement* with = NULL;
            gameplan_movement* without = NULL;
            gameplan_destination d;
            gameplan_unit_info info;
            uint32_t u1 = 0, u2 = 0;
            mo.path_budget = 16;
            CHECK_OK(gameplan_movement_create(m, &mo, &with));
            CHECK_OK(gameplan_movement_create(m, &mo, &without));
            CHECK(gameplan_movement_set_islands(with, hexes) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
            CHECK_OK(gameplan_movement_set_islands(with, isl));
            CHECK_OK(gameplan_movement_add_unit(with, a, &u1));
            CHECK_OK(gameplan_movement_add_unit(without, a, &u2));
            d.cell = b, d.centre = b, d.radius = 0;
            CHECK_OK(gameplan_movement_move_to(with, u1, d));
            CHECK_OK(gameplan_movement_move_to(without, u2, d));
            CHECK_OK(gameplan_movement_update(with));
            CHECK_OK(gameplan_movement_update(without));
            CHECK_OK(gameplan_movement_unit_info(with, u1, &info));
            CHECK(info.status == GAMEPLAN_UNIT_FAILED && info.failure == GAMEPLAN_MOVE_NO_PATH);
            CHECK(gameplan_movement_status(without, u2) != GAMEPLAN_UNIT_FAILED);
            gameplan_movement_destroy(with);
            gameplan_movement_destroy(without);
        }
        gameplan_islands_destroy(hexes);
        gameplan_islands_destroy(isl);
    }
    CHECK(gameplan_islands_connectivity(NULL, (gameplan_point){0, 0}, (gameplan_point){0, 0}) == GAMEPLAN_REACHABILITY_UNKNOWN);
    gameplan_map_destroy(other);
    gameplan_map_destroy(m);
}

static void test_built_map(void) {
    gameplan_map* m = NULL;
    gameplan_pathfinder* f = NULL;
    gameplan_path_options o = gameplan_path_options_default();
    int trial;
    CHECK_OK(gameplan_map_create(24, 16, 1, &m));
    CHECK(gameplan_map_width(m) == 24 && gameplan_map_height(m) == 16);
    CHECK_OK(gameplan_pathfinder_create(GAMEPLAN_ASTAR, &f));
    o.movement = 4;
    for (trial = 0; trial < 60; ++trial) {
        gameplan_point s, g, c;
        gameplan_path_result r;
        int ref, k;
        for (k = 0; k < 40; ++k) {
            c.x = (int32_t)rnd(24);
            c.y = (int32_t)rnd(16);
            CHECK_OK(gameplan_map_set_passable(m, c, rnd(2) == 0));
        }
        s.x = (int32_t)rnd(24), s.y = (int32_t)rnd(16);
        g.x = (int32_t)rnd(24), g.y = (int32_t)rnd(16);
        ref = ref_bfs(m, s, g);
        CHECK_OK(gameplan_find_path(f, m, s, g, &o, &r));
        if (!gameplan_map_passable(m, s) || !gameplan_map_passable(m, g)) {
            CHECK(r.status == GAMEPLAN_STATUS_INVALID_QUERY);
        } else if (ref < 0) {
            CHECK(r.status == GAMEPLAN_STATUS_NO_PATH && r.cell_count == 0);
        } else {
            size_t i;
            CHECK(r.status == GAMEPLAN_STATUS_FOUND && r.limit == GAMEPLAN_LIMIT_NONE);
            CHECK(fabs(r.cost - ref) < 1e-9);
            CHECK(r.cell_count == (size_t)ref + 1);
            CHECK(r.cells[0].x == s.x && r.cells[0].y == s.y);
            CHECK(r.cells[r.cell_count - 1].x == g.x && r.cells[r.cell_count - 1].y == g.y);
            for (i = 1; i < r.cell_count; ++i)
                CHECK(abs(r.cells[i].x - r.cells[i - 1].x) + abs(r.cells[i].y - r.cells[i - 1].y) == 1 &&
                      gameplan_map_passable(m, r.cells[i]));
        }
    }
    {  /* An open map and a budget of 3 expansions: the result says which limit ran out. */
        gameplan_point s, g, c;
        gameplan_path_result r;
        for (c.y = 0; c.y < 16; ++c.y)
            for (c.x = 0; c.x < 24; ++c.x) CHECK_OK(gameplan_map_set_passable(m, c, 1));
        s.x = 0, s.y = 0, g.x = 23, g.y = 15;
        o.max_expansions = 3;
        CHECK_OK(gameplan_find_path(f, m, s, g, &o, &r));
        CHECK(r.status == GAMEPLAN_STATUS_BUDGET_EXHAUSTED && r.limit == GAMEPLAN_LIMIT_EXPANSIONS && r.expanded == 3);
        o.max_expansions = 0;
        CHECK_OK(gameplan_find_path(f, m, s, g, &o, &r));
        CHECK(r.status == GAMEPLAN_STATUS_FOUND && r.limit == GAMEPLAN_LIMIT_NONE);
        /* the pathfinder's state for this map (24 x 16 cells) already holds more than 1 KiB */
        o.max_memory_bytes = 1024;
        CHECK_OK(gameplan_find_path(f, m, s, g, &o, &r));
        CHECK(r.status == GAMEPLAN_STATUS_BUDGET_EXHAUSTED && r.limit == GAMEPLAN_LIMIT_MEMORY);
        o.max_memory_bytes = 0;
        /* a nanosecond: over before the first expansion is counted */
        o.time_limit_seconds = 1e-9;
        CHECK_OK(gameplan_find_path(f, m, s, g, &o, &r));
        CHECK(r.status == GAMEPLAN_STATUS_BUDGET_EXHAUSTED && r.limit == GAMEPLAN_LIMIT_TIME);
        o.time_limit_seconds = -1;
        CHECK(gameplan_find_path(f, m, s, g, &o, &r) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
        o.time_limit_seconds = 0;
    }
    {
        gameplan_point out;
        out.x = 30, out.y = 0;
        CHECK(gameplan_map_set_passable(m, out, 0) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
        CHECK(gameplan_map_create(0, 5, 1, &m) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
        o.movement = 5;
        CHECK(gameplan_find_path(f, m, out, out, &o, NULL) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    }
    gameplan_pathfinder_destroy(f);
    gameplan_map_destroy(m);
}

typedef struct Scen {
    gameplan_point start, goal;
    double optimal;
} Scen;

static int read_scenarios(const char* file, Scen* out, int cap) {
    FILE* in = fopen(file, "r");
    char line[512];
    int n = 0;
    if (!in) return -1;
    while (fgets(line, sizeof line, in) && n < cap) {
        int bucket, w, h, sx, sy, gx, gy;
        char map[256];
        double opt;
        if (sscanf(line, "%d %255s %d %d %d %d %d %d %lf", &bucket, map, &w, &h, &sx, &sy, &gx, &gy, &opt) != 9) continue;
        out[n].start.x = sx, out[n].start.y = sy, out[n].goal.x = gx, out[n].goal.y = gy, out[n].optimal = opt;
        ++n;
    }
    fclose(in);
    return n;
}

/* MovingAI scenarios: A*, Dijkstra, JPS, the resumable form and the request queue all give the optimal
 * lengths of the scenario file (printed with 5 decimals). */
static void test_scenarios(const char* dir) {
    Scen scen[256];
    const int n = read_scenarios(source_path(dir, "examples/maps/rooms.map.scen"), scen, 256);
    gameplan_map* m = NULL;
    gameplan_pathfinder* finders[3] = {NULL, NULL, NULL};
    gameplan_request_queue* q = NULL;
    gameplan_path_handle handles[256];
    int i, a, done = 0, frames = 0;
    CHECK(n > 10);
    CHECK_OK(gameplan_map_load(source_path(dir, "examples/maps/rooms.map"), &m));
    CHECK_OK(gameplan_pathfinder_create(GAMEPLAN_ASTAR, &finders[0]));
    CHECK_OK(gameplan_pathfinder_create(GAMEPLAN_DIJKSTRA, &finders[1]));
    CHECK_OK(gameplan_pathfinder_create(GAMEPLAN_JPS, &finders[2]));
    for (i = 0; i < n; ++i) {
        for (a = 0; a < 3; ++a) {
            gameplan_path_result r;
            CHECK_OK(gameplan_find_path(finders[a], m, scen[i].start, scen[i].goal, NULL, &r));
            CHECK(r.status == GAMEPLAN_STATUS_FOUND);
            CHECK(fabs(r.cost - scen[i].optimal) < 1e-4);
        }
        {
            gameplan_status s;
            gameplan_path_result r;
            int slices = 0;
            CHECK_OK(gameplan_pathfinder_begin(finders[0], m, scen[i].start, scen[i].goal, NULL, &s));
            while (s == GAMEPLAN_STATUS_IN_PROGRESS) {
                CHECK_OK(gameplan_pathfinder_step(finders[0], 7, &s));
                ++slices;
            }
            CHECK_OK(gameplan_pathfinder_finish(finders[0], &r));
            CHECK(r.status == GAMEPLAN_STATUS_FOUND && fabs(r.cost - scen[i].optimal) < 1e-4);
            CHECK(slices >= 1);
        }
    }
    CHECK(gameplan_request_queue_create(m, 1025, &q) == GAMEPLAN_ERROR_INVALID_ARGUMENT && q == NULL);
    CHECK(strstr(gameplan_last_error(), "lanes") != NULL);
    CHECK_OK(gameplan_request_queue_create(m, 2, &q));
    for (i = 0; i < n; ++i) CHECK_OK(gameplan_request_queue_submit(q, scen[i].start, scen[i].goal, NULL, i % 3, &handles[i]));
    CHECK(gameplan_request_queue_size(q) == (size_t)n);
    while (done < n && frames < 100000) {
        uint32_t completed = 0;
        CHECK_OK(gameplan_request_queue_update(q, 50, &completed));
        ++frames;
        for (i = 0; i < n; ++i)
            if (handles[i].generation != 0 && gameplan_request_queue_state(q, handles[i]) == GAMEPLAN_REQUEST_DONE) {
                gameplan_path_result r;
                CHECK_OK(gameplan_request_queue_take(q, handles[i], &r));
                CHECK(r.status == GAMEPLAN_STATUS_FOUND && fabs(r.cost - scen[i].optimal) < 1e-4);
                CHECK(r.cell_count >= 1 && r.cells[0].x == scen[i].start.x && r.cells[0].y == scen[i].start.y);
                CHECK(gameplan_request_queue_state(q, handles[i]) == GAMEPLAN_REQUEST_UNKNOWN);
                handles[i].generation = 0;
                ++done;
            }
    }
    CHECK(done == n);
    CHECK(frames > 5); /* a budget of 50 expansions per frame spreads the work */
    CHECK(gameplan_request_queue_size(q) == 0);
    CHECK(gameplan_request_queue_take(q, handles[0], NULL) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    {
        gameplan_path_handle h;
        gameplan_path_result r;
        CHECK_OK(gameplan_request_queue_submit(q, scen[0].start, scen[0].goal, NULL, 0, &h));
        CHECK(gameplan_request_queue_state(q, h) == GAMEPLAN_REQUEST_PENDING);
        CHECK(gameplan_request_queue_take(q, h, &r) == GAMEPLAN_ERROR_NOT_FOUND);
        CHECK_OK(gameplan_request_queue_cancel(q, h));
        CHECK(gameplan_request_queue_cancel(q, h) == GAMEPLAN_ERROR_NOT_FOUND);
    }
    gameplan_request_queue_destroy(q);
    for (a = 0; a < 3; ++a) gameplan_pathfinder_destroy(finders[a]);
    gameplan_map_destroy(m);

    CHECK(gameplan_map_load(source_path(dir, "no/such.map"), &m) == GAMEPLAN_ERROR_LOAD);
    CHECK(strstr(gameplan_last_error(), "such.map") != NULL);
}

/* ---- agents with C behaviours ---- */

typedef struct Log {
    uint32_t started[64];
    int n_started;
    int updates;
    int aborts;
    int fail_next_chop;
} Log;

static gameplan_action_status two_tick_update(const gameplan_action_context* c, void* data) {
    Log* log = (Log*)c->agent_data;
    (void)data;
    ++log->updates;
    if (log->fail_next_chop && strcmp((const char*)data ? (const char*)data : "", "chop") == 0) {
        log->fail_next_chop = 0;
        return GAMEPLAN_ACTION_FAILURE;
    }
    return c->ticks_running >= 1 ? GAMEPLAN_ACTION_SUCCESS : GAMEPLAN_ACTION_RUNNING;
}
static void record_start(const gameplan_action_context* c, void* data) {
    Log* log = (Log*)c->agent_data;
    (void)data;
    if (log->n_started < 64) log->started[log->n_started++] = c->action;
    /* Changing the agent set or ticking from inside a tick is refused, not undefined. */
    CHECK(gameplan_agent_system_remove_agent(c->system, c->agent) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    CHECK(gameplan_agent_system_tick(c->system) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
}
static void record_abort(const gameplan_action_context* c, gameplan_abort_reason reason, void* data) {
    (void)reason;
    (void)data;
    ++((Log*)c->agent_data)->aborts;
}
static double cheap_hands(const gameplan_planning_context* c, void* data) {
    (void)c;
    return *(const double*)data;
}

/* Atoms: has_axe, has_wood (private), wood_stored (shared). get_axe 2, chop 1 (needs axe), gather 5,
 * deliver 1 (wood -> stored). Optimal for "stored": get_axe, chop, deliver (4). */
static void run_agents(size_t threads, const double* hands_cost, uint32_t* expected, int expected_n, int fail_chop) {
    gameplan_domain_builder* b = NULL;
    gameplan_domain* d = NULL;
    gameplan_agent_type_builder* tb = NULL;
    gameplan_agent_type* type = NULL;
    gameplan_agent_system* sys = NULL;
    gameplan_agent_params params;
    gameplan_agent_info info;
    gameplan_agent_id id;
    gameplan_goal goal = {0};
    gameplan_literal lit, pre[1], eff[2];
    uint32_t axe, wood, stored;
    Log log;
    int tick, i, v = -1;
    static const char* names[4] = {"get_axe", "chop", "gather", "deliver"};
    gameplan_behaviour beh[4];

    memset(&log, 0, sizeof log);
    log.fail_next_chop = fail_chop;
    CHECK_OK(gameplan_domain_builder_create(&b));
    CHECK_OK(gameplan_domain_builder_add_atom(b, "has_axe", 0, &axe));
    CHECK_OK(gameplan_domain_builder_add_atom(b, "has_wood", 0, &wood));
    CHECK_OK(gameplan_domain_builder_add_atom(b, "wood_stored", 1, &stored));
    eff[0].atom = axe, eff[0].value = 1;
    CHECK_OK(gameplan_domain_builder_add_action(b, "get_axe", 2, NULL, 0, eff, 1));
    pre[0].atom = axe, pre[0].value = 1;
    eff[0].atom = wood, eff[0].value = 1;
    CHECK_OK(gameplan_domain_builder_add_action(b, "chop", 1, pre, 1, eff, 1));
    CHECK_OK(gameplan_domain_builder_add_action(b, "gather", 5, NULL, 0, eff, 1));
    pre[0].atom = wood, pre[0].value = 1;
    eff[0].atom = stored, eff[0].value = 1;
    eff[1].atom = wood, eff[1].value = 0;
    CHECK_OK(gameplan_domain_builder_add_action(b, "deliver", 1, pre, 1, eff, 2));
    CHECK(gameplan_domain_builder_add_action(b, "deliver", 1, pre, 1, eff, 2) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    CHECK(gameplan_domain_builder_add_action(b, "bad", -1, NULL, 0, eff, 1) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    CHECK_OK(gameplan_domain_builder_build(b, &d));
    gameplan_domain_builder_destroy(b);

    CHECK_OK(gameplan_agent_type_builder_create(d, "woodcutter", &tb));
    for (i = 0; i < 4; ++i) {
        beh[i].update = two_tick_update;
        beh[i].start = record_start;
        beh[i].abort = record_abort;
        beh[i].data = (void*)names[i];
        CHECK_OK(gameplan_agent_type_bind(tb, names[i], &beh[i]));
    }
    CHECK(gameplan_agent_type_bind(tb, "fly", &beh[0]) == GAMEPLAN_ERROR_NOT_FOUND);
    CHECK(gameplan_agent_type_bind(tb, "chop", &beh[0]) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    if (hands_cost) CHECK_OK(gameplan_agent_type_set_cost(tb, "gather", cheap_hands, (void*)hands_cost));
    CHECK(gameplan_agent_type_builder_build(tb, &type) == GAMEPLAN_ERROR_INVALID_ARGUMENT); /* the errors above */
    gameplan_agent_type_builder_destroy(tb);
    /* Again without the mistakes. */
    CHECK_OK(gameplan_agent_type_builder_create(d, "woodcutter", &tb));
    for (i = 0; i < 4; ++i) CHECK_OK(gameplan_agent_type_bind(tb, names[i], &beh[i]));
    if (hands_cost) CHECK_OK(gameplan_agent_type_set_cost(tb, "gather", cheap_hands, (void*)hands_cost));
    CHECK_OK(gameplan_agent_type_builder_build(tb, &type));
    gameplan_agent_type_builder_destroy(tb);

    CHECK_OK(gameplan_agent_system_create(d, threads, &sys));
    lit.atom = stored, lit.value = 1;
    goal.name = "store wood";
    goal.literals = &lit;
    goal.literal_count = 1;
    goal.priority = 1;
    memset(&params, 0, sizeof params);
    params.name = "ann";
    params.type = type;
    params.goals = &goal;
    params.goal_count = 1;
    params.user_data = &log;
    params.direction = GAMEPLAN_BACKWARD;
    CHECK_OK(gameplan_agent_system_add_agent(sys, &params, &id));
    gameplan_agent_type_destroy(type); /* the agent keeps what it needs */
    CHECK(gameplan_agent_system_agent_count(sys) == 1);
    CHECK_OK(gameplan_agent_system_tick(sys));
    CHECK_OK(gameplan_agent_info_get(sys, id, &info));
    CHECK(info.status == GAMEPLAN_AGENT_ACTING && info.current_goal == 0);
    if (!fail_chop) {
        CHECK(info.plan_length == (size_t)expected_n);
        for (i = 0; i < expected_n && (size_t)i < info.plan_length; ++i) CHECK(info.plan[i] == expected[i]);
    }
    for (tick = 0; tick < 40; ++tick) CHECK_OK(gameplan_agent_system_tick(sys));
    CHECK(gameplan_blackboard_get(sys, stored) == 1);
    CHECK_OK(gameplan_agent_info_get(sys, id, &info));
    CHECK(info.status == GAMEPLAN_AGENT_IDLE);
    CHECK_OK(gameplan_agent_get(sys, id, wood, &v));
    CHECK(v == 0);
    if (!fail_chop) {
        CHECK(log.n_started == expected_n);
        for (i = 0; i < expected_n && i < log.n_started; ++i) CHECK(log.started[i] == expected[i]);
        CHECK(log.updates == 2 * expected_n);
        CHECK(info.actions_succeeded == (uint64_t)expected_n && info.actions_failed == 0);
    } else {
        /* get_axe, chop (fails), then a replan from "has an axe": chop, deliver. */
        CHECK(log.n_started == 4);
        CHECK(info.actions_failed == 1 && info.actions_succeeded == 3);
        CHECK(info.replans >= 2);
    }
    /* The world changes: wood_stored false again, the agent replans and stores once more. */
    CHECK_OK(gameplan_blackboard_set(sys, stored, 0));
    CHECK(gameplan_blackboard_set(sys, axe, 0) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    CHECK(gameplan_agent_set(sys, id, stored, 0) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    for (tick = 0; tick < 20; ++tick) CHECK_OK(gameplan_agent_system_tick(sys));
    CHECK(gameplan_blackboard_get(sys, stored) == 1);
    CHECK(gameplan_agent_system_current_tick(sys) == 61);
    CHECK_OK(gameplan_agent_system_remove_agent(sys, id));
    CHECK(gameplan_agent_system_remove_agent(sys, id) == GAMEPLAN_ERROR_NOT_FOUND);
    CHECK(gameplan_agent_info_get(sys, id, &info) == GAMEPLAN_ERROR_NOT_FOUND);
    gameplan_agent_system_destroy(sys);
    gameplan_domain_destroy(d);
}

static void test_agents(void) {
    uint32_t axe_plan[3] = {0, 1, 3};  /* get_axe, chop, deliver: cost 4 */
    uint32_t hand_plan[2] = {2, 3};    /* gather at 0.5 + deliver: cost 1.5 */
    const double cheap = 0.5;
    run_agents(1, NULL, axe_plan, 3, 0);
    run_agents(2, NULL, axe_plan, 3, 0);
    run_agents(1, &cheap, hand_plan, 2, 0);
    run_agents(2, &cheap, hand_plan, 2, 0);
    run_agents(1, NULL, axe_plan, 3, 1);
}

/* ---- numeric variables: a reference Dijkstra over every (location, wood, gold, axe) state ---- */

enum { LOCS = 3, WOOD_MAX = 5, GOLD_MAX = 10, NUM_STATES = LOCS * (WOOD_MAX + 1) * (GOLD_MAX + 1) * 2 };
typedef struct NumState {
    int loc, wood, gold, axe;
} NumState;
static int num_index(NumState s) { return ((s.loc * (WOOD_MAX + 1) + s.wood) * (GOLD_MAX + 1) + s.gold) * 2 + s.axe; }
static NumState num_state(int i) {
    NumState s;
    s.axe = i % 2, i /= 2;
    s.gold = i % (GOLD_MAX + 1), i /= GOLD_MAX + 1;
    s.wood = i % (WOOD_MAX + 1), i /= WOOD_MAX + 1;
    s.loc = i;
    return s;
}
/* Actions (ids in this order): walk a->b for a != b (6, costs walk[a][b]); buy_axe (market, gold >= 2:
 * gold -= 2, axe; cost 1); chop_axe (forest, axe: wood += 2; cost 1); chop_hands (forest: wood += 1;
 * cost 3); sell (market, wood >= 1: wood -= 1, gold += 2; cost 1); work (home: gold += 1; cost 4).
 * Locations: 0 home, 1 forest, 2 market. Effects leaving the bounds make an action inapplicable. */
static int num_apply(int action, const double walk[LOCS][LOCS], NumState s, NumState* out, double* cost) {
    *out = s;
    if (action < 6) {
        const int from = action / 2, k = action % 2, to = k < from ? k : k + 1;
        if (s.loc != from) return 0;
        out->loc = to;
        *cost = walk[from][to];
        return 1;
    }
    *cost = 1;
    switch (action) {
        case 6: if (s.loc != 2 || s.gold < 2 || s.gold - 2 < 0) return 0; out->gold -= 2; out->axe = 1; return 1;
        case 7: if (s.loc != 1 || !s.axe || s.wood + 2 > WOOD_MAX) return 0; out->wood += 2; return 1;
        case 8: if (s.loc != 1 || s.wood + 1 > WOOD_MAX) return 0; out->wood += 1; *cost = 3; return 1;
        case 9: if (s.loc != 2 || s.wood < 1 || s.gold + 2 > GOLD_MAX) return 0; out->wood -= 1; out->gold += 2; return 1;
        case 10: if (s.loc != 0 || s.gold + 1 > GOLD_MAX) return 0; out->gold += 1; *cost = 4; return 1;
        default: return 0;
    }
}
static double num_reference(const double walk[LOCS][LOCS], NumState start, int goal_gold, int goal_loc) {
    double dist[NUM_STATES];
    char done[NUM_STATES];
    int i;
    for (i = 0; i < NUM_STATES; ++i) dist[i] = INFINITY, done[i] = 0;
    dist[num_index(start)] = 0;
    for (;;) {
        int u = -1, a;
        NumState s;
        for (i = 0; i < NUM_STATES; ++i)
            if (!done[i] && dist[i] < INFINITY && (u < 0 || dist[i] < dist[u])) u = i;
        if (u < 0) return INFINITY;
        done[u] = 1;
        s = num_state(u);
        if (s.gold >= goal_gold && (goal_loc < 0 || s.loc == goal_loc)) return dist[u];
        for (a = 0; a < 11; ++a) {
            NumState n;
            double c;
            if (num_apply(a, walk, s, &n, &c) && dist[u] + c < dist[num_index(n)]) dist[num_index(n)] = dist[u] + c;
        }
    }
}

static void test_numeric_domains(void) {
    static const char* loc_names[3] = {"home", "forest", "market"};
    int trial;
    for (trial = 0; trial < 40; ++trial) {
        double walk[LOCS][LOCS];
        gameplan_domain_builder* b = NULL;
        gameplan_domain* d = NULL;
        gameplan_planner* p = NULL;
        uint32_t loc, wood, gold, axe, v;
        int a, i, dir;
        NumState start;
        gameplan_comparison goal[2];
        int32_t values[3];
        uint8_t atoms[1];
        int goal_gold = 1 + (int)rnd(GOLD_MAX), goal_loc = rnd(2) ? (int)rnd(LOCS) : -1;
        double expected;
        char name[32];
        CHECK_OK(gameplan_domain_builder_create(&b));
        CHECK_OK(gameplan_domain_builder_add_atom(b, "axe", 0, &axe));
        CHECK_OK(gameplan_domain_builder_add_enum_variable(b, "loc", loc_names, 3, 0, &loc));
        CHECK_OK(gameplan_domain_builder_add_integer_variable(b, "wood", 0, WOOD_MAX, 0, &wood));
        CHECK_OK(gameplan_domain_builder_add_integer_variable(b, "gold", 0, GOLD_MAX, 0, &gold));
        CHECK(gameplan_domain_builder_add_integer_variable(b, "gold", 0, 3, 0, &v) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
        CHECK(gameplan_domain_builder_add_integer_variable(b, "axe", 0, 3, 0, &v) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
        CHECK(gameplan_domain_builder_add_integer_variable(b, "bad", 4, 3, 0, &v) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
        for (a = 0; a < 6; ++a) {
            const int from = a / 2, k = a % 2, to = k < from ? k : k + 1;
            gameplan_comparison at;
            gameplan_numeric_effect go;
            walk[from][to] = 1 + (double)rnd(4);
            at.variable = loc, at.op = GAMEPLAN_EQ, at.value = from;
            go.variable = loc, go.op = GAMEPLAN_SET, go.value = to;
            snprintf(name, sizeof name, "walk_%s_%s", loc_names[from], loc_names[to]);
            CHECK_OK(gameplan_domain_builder_add_numeric_action(b, name, walk[from][to], NULL, 0, NULL, 0, &at, 1, &go, 1));
        }
        {
            gameplan_comparison c[2];
            gameplan_numeric_effect e[2];
            gameplan_literal l;
            c[0].variable = loc, c[0].op = GAMEPLAN_EQ, c[0].value = 2;
            c[1].variable = gold, c[1].op = GAMEPLAN_GE, c[1].value = 2;
            e[0].variable = gold, e[0].op = GAMEPLAN_SUB, e[0].value = 2;
            l.atom = axe, l.value = 1;
            CHECK_OK(gameplan_domain_builder_add_numeric_action(b, "buy_axe", 1, NULL, 0, &l, 1, c, 2, e, 1));
            c[0].value = 1;
            e[0].variable = wood, e[0].op = GAMEPLAN_ADD, e[0].value = 2;
            CHECK_OK(gameplan_domain_builder_add_numeric_action(b, "chop_axe", 1, &l, 1, NULL, 0, c, 1, e, 1));
            e[0].value = 1;
            CHECK_OK(gameplan_domain_builder_add_numeric_action(b, "chop_hands", 3, NULL, 0, NULL, 0, c, 1, e, 1));
            c[0].value = 2;
            c[1].variable = wood, c[1].op = GAMEPLAN_GE, c[1].value = 1;
            e[0].variable = wood, e[0].op = GAMEPLAN_SUB, e[0].value = 1;
            e[1].variable = gold, e[1].op = GAMEPLAN_ADD, e[1].value = 2;
            CHECK_OK(gameplan_domain_builder_add_numeric_action(b, "sell", 1, NULL, 0, NULL, 0, c, 2, e, 2));
            c[0].value = 0;
            e[0].variable = gold, e[0].op = GAMEPLAN_ADD, e[0].value = 1;
            CHECK_OK(gameplan_domain_builder_add_numeric_action(b, "work", 4, NULL, 0, NULL, 0, c, 1, e, 1));
            /* an ordering on an enumeration, a value it does not have, two effects on one variable */
            c[0].op = GAMEPLAN_LT;
            CHECK(gameplan_domain_builder_add_numeric_action(b, "bad1", 1, NULL, 0, NULL, 0, c, 1, NULL, 0) ==
                  GAMEPLAN_ERROR_INVALID_ARGUMENT);
            c[0].op = GAMEPLAN_EQ, c[0].value = 7;
            CHECK(gameplan_domain_builder_add_numeric_action(b, "bad2", 1, NULL, 0, NULL, 0, c, 1, NULL, 0) ==
                  GAMEPLAN_ERROR_INVALID_ARGUMENT);
            e[1].variable = gold;
            e[0].variable = gold;
            CHECK(gameplan_domain_builder_add_numeric_action(b, "bad3", 1, NULL, 0, NULL, 0, NULL, 0, e, 2) ==
                  GAMEPLAN_ERROR_INVALID_ARGUMENT);
        }
        CHECK_OK(gameplan_domain_builder_build(b, &d));
        gameplan_domain_builder_destroy(b);
        CHECK(gameplan_domain_has_variables(d) == 1);
        CHECK(gameplan_domain_variable_count(d) == 3);
        CHECK(strcmp(gameplan_domain_variable_name(d, wood), "wood") == 0);
        CHECK(gameplan_domain_variable_name(d, 3) == NULL);
        CHECK_OK(gameplan_domain_find_variable(d, "gold", &v));
        CHECK(v == gold);
        CHECK(gameplan_domain_find_variable(d, "silver", &v) == GAMEPLAN_ERROR_NOT_FOUND);
        CHECK(gameplan_domain_variable_kind(d, loc) == GAMEPLAN_VARIABLE_ENUMERATION);
        CHECK(gameplan_domain_variable_kind(d, gold) == GAMEPLAN_VARIABLE_INTEGER);
        CHECK(gameplan_domain_variable_min(d, gold) == 0 && gameplan_domain_variable_max(d, gold) == GOLD_MAX);
        CHECK(gameplan_domain_variable_value_count(d, loc) == 3 && gameplan_domain_variable_value_count(d, gold) == 0);
        CHECK(strcmp(gameplan_domain_variable_value_name(d, loc, 2), "market") == 0);
        {
            int32_t idx = -1;
            CHECK_OK(gameplan_domain_find_variable_value(d, loc, "forest", &idx));
            CHECK(idx == 1);
            CHECK(gameplan_domain_find_variable_value(d, loc, "sea", &idx) == GAMEPLAN_ERROR_NOT_FOUND);
        }
        CHECK(gameplan_domain_start_value(d, loc) == 0 && gameplan_domain_start_value(d, gold) == 0);
        CHECK_OK(gameplan_planner_create(d, &p));
        start.loc = (int)rnd(LOCS), start.wood = (int)rnd(WOOD_MAX + 1), start.gold = (int)rnd(4), start.axe = (int)rnd(2);
        values[loc] = start.loc, values[wood] = start.wood, values[gold] = start.gold;
        atoms[0] = (uint8_t)start.axe;
        goal[0].variable = gold, goal[0].op = GAMEPLAN_GE, goal[0].value = goal_gold;
        goal[1].variable = loc, goal[1].op = GAMEPLAN_EQ, goal[1].value = goal_loc;
        expected = num_reference((const double(*)[LOCS])walk, start, goal_gold, goal_loc);
        for (dir = 0; dir < 2; ++dir) {
            gameplan_plan_options o = gameplan_plan_options_default();
            gameplan_plan_result r;
            o.direction = dir ? GAMEPLAN_FORWARD : GAMEPLAN_BACKWARD;
            CHECK_OK(gameplan_plan_values(p, atoms, values, NULL, 0, goal, goal_loc >= 0 ? 2 : 1, &o, &r));
            if (expected == INFINITY) {
                CHECK(r.status == GAMEPLAN_STATUS_NO_PATH);
                continue;
            }
            CHECK(r.status == GAMEPLAN_STATUS_FOUND);
            CHECK(fabs(r.cost - expected) < 1e-9);
            {   /* replay the plan with the reference semantics */
                NumState s = start, n;
                double total = 0, c;
                for (i = 0; i < (int)r.action_count; ++i) {
                    CHECK(num_apply((int)r.actions[i], (const double(*)[LOCS])walk, s, &n, &c));
                    s = n;
                    total += c;
                }
                CHECK(s.gold >= goal_gold && (goal_loc < 0 || s.loc == goal_loc));
                CHECK(fabs(total - r.cost) < 1e-9);
            }
        }
        {
            gameplan_plan_result r;
            gameplan_comparison bad = goal[0];
            int32_t bad_values[3];
            bad.variable = 9;
            CHECK(gameplan_plan_values(p, NULL, NULL, NULL, 0, &bad, 1, NULL, &r) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
            memcpy(bad_values, values, sizeof values);
            bad_values[gold] = GOLD_MAX + 1;
            CHECK(gameplan_plan_values(p, NULL, bad_values, NULL, 0, goal, 1, NULL, &r) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
        }
        gameplan_planner_destroy(p);
        if (trial == 0) { /* variables on agents and the blackboard */
            gameplan_agent_system* sys = NULL;
            gameplan_agent_type_builder* tb = NULL;
            gameplan_agent_type* type = NULL;
            gameplan_agent_params params = {0};
            gameplan_agent_id id;
            int32_t got = -1;
            CHECK_OK(gameplan_agent_system_create(d, 1, &sys));
            CHECK_OK(gameplan_agent_type_builder_create(d, "trader", &tb));
            for (a = 0; a < 11; ++a) CHECK_OK(gameplan_agent_type_exclude(tb, gameplan_domain_action_name(d, (uint32_t)a)));
            CHECK_OK(gameplan_agent_type_builder_build(tb, &type));
            gameplan_agent_type_builder_destroy(tb);
            params.type = type;
            params.private_values = values;
            params.direction = GAMEPLAN_AUTO; /* agents plan in one direction */
            CHECK(gameplan_agent_system_add_agent(sys, &params, &id) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
            params.direction = GAMEPLAN_FORWARD;
            CHECK_OK(gameplan_agent_system_add_agent(sys, &params, &id));
            CHECK_OK(gameplan_agent_get_value(sys, id, gold, &got));
            CHECK(got == values[gold]);
            CHECK_OK(gameplan_agent_set_value(sys, id, gold, 7));
            CHECK_OK(gameplan_agent_get_value(sys, id, gold, &got));
            CHECK(got == 7);
            CHECK(gameplan_agent_set_value(sys, id, gold, GOLD_MAX + 1) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
            CHECK(gameplan_blackboard_set_value(sys, gold, 1) == GAMEPLAN_ERROR_INVALID_ARGUMENT); /* private */
            CHECK(gameplan_agent_set_value(sys, id, 5, 1) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
            gameplan_agent_type_destroy(type);
            gameplan_agent_system_destroy(sys);
        }
        gameplan_domain_destroy(d);
    }
}

/* ---- HPA*: valid paths, never shorter than the scenario file's optimum, within 15 % of it ---- */

static int step_legal(const gameplan_map* m, gameplan_point a, gameplan_point b, int eight) {
    const int dx = b.x - a.x, dy = b.y - a.y;
    if (!gameplan_map_passable(m, b) || dx < -1 || dx > 1 || dy < -1 || dy > 1 || (dx == 0 && dy == 0)) return 0;
    if (dx != 0 && dy != 0) {
        gameplan_point s1, s2;
        if (!eight) return 0;
        s1.x = a.x + dx, s1.y = a.y, s2.x = a.x, s2.y = a.y + dy;
        return gameplan_map_passable(m, s1) && gameplan_map_passable(m, s2); /* no corner cutting */
    }
    return 1;
}

static void test_hpa(const char* dir) {
    Scen scen[256];
    const int n = read_scenarios(source_path(dir, "examples/maps/rooms.map.scen"), scen, 256);
    gameplan_map* m = NULL;
    gameplan_hierarchy* h = NULL;
    gameplan_hpa_pathfinder* f = NULL;
    int i, k, cluster;
    CHECK_OK(gameplan_map_load(source_path(dir, "examples/maps/rooms.map"), &m));
    CHECK(gameplan_hierarchy_build(m, NULL, 0, &h) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    CHECK_OK(gameplan_hpa_pathfinder_create(&f));
    for (cluster = 4; cluster <= 16; cluster *= 2) {
        CHECK_OK(gameplan_hierarchy_build(m, NULL, cluster, &h));
        CHECK(gameplan_hierarchy_cluster_count(h) == (size_t)(((32 + cluster - 1) / cluster) * ((20 + cluster - 1) / cluster)));
        CHECK(gameplan_hierarchy_node_count(h) > 0);
        for (i = 0; i < n; ++i) {
            gameplan_path_result r;
            double cost = 0;
            CHECK_OK(gameplan_hpa_find_path(f, h, scen[i].start, scen[i].goal, NULL, &r));
            CHECK(r.status == GAMEPLAN_STATUS_FOUND);
            if (r.status != GAMEPLAN_STATUS_FOUND) continue;
            CHECK(r.cells[0].x == scen[i].start.x && r.cells[0].y == scen[i].start.y);
            CHECK(r.cells[r.cell_count - 1].x == scen[i].goal.x && r.cells[r.cell_count - 1].y == scen[i].goal.y);
            for (k = 1; k < (int)r.cell_count; ++k) {
                CHECK(step_legal(m, r.cells[k - 1], r.cells[k], 1));
                cost += (r.cells[k].x != r.cells[k - 1].x && r.cells[k].y != r.cells[k - 1].y) ? sqrt(2.0) : 1.0;
            }
            CHECK(fabs(cost - r.cost) < 1e-6);
            CHECK(r.cost >= scen[i].optimal - 1e-4);
            CHECK(r.cost <= scen[i].optimal * 1.15 + 1e-4); /* measured worst: 10.2 % with 4-cell clusters */
        }
        gameplan_hierarchy_destroy(h);
    }
    /* a wall across the map after a change: update_cell keeps the hierarchy in step with the map */
    CHECK_OK(gameplan_hierarchy_build(m, NULL, 8, &h));
    {
        gameplan_path_result r;
        gameplan_point blocked = scen[0].goal;
        CHECK_OK(gameplan_map_set_passable(m, blocked, 0));
        CHECK_OK(gameplan_hierarchy_update_cell(h, m, blocked));
        CHECK_OK(gameplan_hpa_find_path(f, h, scen[0].start, blocked, NULL, &r));
        CHECK(r.status == GAMEPLAN_STATUS_INVALID_QUERY);
    }
    {  /* the query's budgets: what the query object holds after the queries above passes 1 KiB */
        gameplan_path_result r;
        gameplan_hpa_options o = gameplan_hpa_options_default();
        o.max_memory_bytes = 1024;
        CHECK_OK(gameplan_hpa_find_path(f, h, scen[1].start, scen[1].goal, &o, &r));
        CHECK(r.status == GAMEPLAN_STATUS_BUDGET_EXHAUSTED && r.limit == GAMEPLAN_LIMIT_MEMORY);
        o.max_memory_bytes = 0;
        o.max_expansions = 1;
        CHECK_OK(gameplan_hpa_find_path(f, h, scen[1].start, scen[1].goal, &o, &r));
        CHECK(r.status == GAMEPLAN_STATUS_BUDGET_EXHAUSTED && r.limit == GAMEPLAN_LIMIT_EXPANSIONS);
    }
    gameplan_hierarchy_destroy(h);
    gameplan_hpa_pathfinder_destroy(f);
    gameplan_map_destroy(m);
}

/* ---- crowds: conflict-free solutions, costs and bounds checked here ---- */

static void test_crowd(const char* dir) {
    gameplan_map* m = NULL;
    gameplan_crowd_solver* c = NULL;
    gameplan_point starts[24], goals[24];
    const int w = 32, h = 20;
    int trial;
    CHECK_OK(gameplan_map_load(source_path(dir, "examples/maps/rooms.map"), &m));
    CHECK_OK(gameplan_crowd_solver_create(&c));
    for (trial = 0; trial < 6; ++trial) {
        const int agents = 4 + 4 * trial;
        char used_s[32 * 20], used_g[32 * 20];
        int i, t;
        uint64_t bound = 0, soc = 0;
        gameplan_crowd_result r;
        memset(used_s, 0, sizeof used_s);
        memset(used_g, 0, sizeof used_g);
        for (i = 0; i < agents; ++i) {
            gameplan_point p;
            do p.x = (int32_t)rnd((unsigned)w), p.y = (int32_t)rnd((unsigned)h);
            while (!gameplan_map_passable(m, p) || used_s[p.y * w + p.x]);
            used_s[p.y * w + p.x] = 1, starts[i] = p;
            do p.x = (int32_t)rnd((unsigned)w), p.y = (int32_t)rnd((unsigned)h);
            while (!gameplan_map_passable(m, p) || used_g[p.y * w + p.x] || ref_bfs(m, starts[i], p) < 0);
            used_g[p.y * w + p.x] = 1, goals[i] = p;
            bound += (uint64_t)ref_bfs(m, starts[i], p);
        }
        CHECK_OK(gameplan_crowd_solve(c, m, starts, goals, (size_t)agents, NULL, &r));
        CHECK(r.status == GAMEPLAN_STATUS_FOUND && r.limit == GAMEPLAN_LIMIT_NONE && r.unreachable_agent == UINT32_MAX);
        if (r.status != GAMEPLAN_STATUS_FOUND) continue;
        CHECK(r.agents == (uint32_t)agents);
        CHECK(r.lower_bound == bound);
        for (i = 0; i < agents; ++i) {
            const gameplan_point* first = &r.cells[i];
            const gameplan_point* last = &r.cells[(size_t)r.makespan * r.agents + (size_t)i];
            CHECK(first->x == starts[i].x && first->y == starts[i].y);
            CHECK(last->x == goals[i].x && last->y == goals[i].y);
            /* at the goal from costs[i] on, and not at step costs[i] - 1 unless the cost is 0 */
            for (t = (int)r.costs[i]; t <= (int)r.makespan; ++t)
                CHECK(r.cells[(size_t)t * r.agents + (size_t)i].x == goals[i].x &&
                      r.cells[(size_t)t * r.agents + (size_t)i].y == goals[i].y);
            if (r.costs[i] > 0) {
                const gameplan_point q = r.cells[(size_t)(r.costs[i] - 1) * r.agents + (size_t)i];
                CHECK(q.x != goals[i].x || q.y != goals[i].y);
            }
            soc += r.costs[i];
        }
        CHECK(soc == r.sum_of_costs && r.sum_of_costs >= bound);
        for (t = 1; t <= (int)r.makespan; ++t) {
            int j;
            for (i = 0; i < agents; ++i) {
                const gameplan_point a0 = r.cells[(size_t)(t - 1) * r.agents + (size_t)i];
                const gameplan_point a1 = r.cells[(size_t)t * r.agents + (size_t)i];
                CHECK((a0.x == a1.x && a0.y == a1.y) || step_legal(m, a0, a1, 0)); /* wait or 4-connected step */
                for (j = i + 1; j < agents; ++j) {
                    const gameplan_point b0 = r.cells[(size_t)(t - 1) * r.agents + (size_t)j];
                    const gameplan_point b1 = r.cells[(size_t)t * r.agents + (size_t)j];
                    CHECK(a1.x != b1.x || a1.y != b1.y);                                                  /* vertex */
                    CHECK(!(a1.x == b0.x && a1.y == b0.y && b1.x == a0.x && b1.y == a0.y) || (a0.x == a1.x && a0.y == a1.y)); /* swap */
                }
            }
        }
    }
    {   /* a goal beyond a wall: NO_PATH, naming the agent (the second; the first can reach its goal) */
        gameplan_map* split;
        gameplan_crowd_result r;
        gameplan_point s2[2], g2[2];
        int y;
        CHECK_OK(gameplan_map_create(9, 4, 1, &split));
        for (y = 0; y < 4; ++y) {
            gameplan_point wall;
            wall.x = 4, wall.y = y;
            CHECK_OK(gameplan_map_set_passable(split, wall, 0));
        }
        s2[0].x = 0, s2[0].y = 0, g2[0].x = 3, g2[0].y = 3;
        s2[1].x = 1, s2[1].y = 1, g2[1].x = 7, g2[1].y = 2;
        CHECK_OK(gameplan_crowd_solve(c, split, s2, g2, 2, NULL, &r));
        CHECK(r.status == GAMEPLAN_STATUS_NO_PATH && r.unreachable_agent == 1);
        gameplan_map_destroy(split);
    }
    {   /* invalid instances: a shared start, a blocked goal */
        gameplan_crowd_result r;
        gameplan_point s2[2], g2[2];
        s2[0] = starts[0], s2[1] = starts[0], g2[0] = goals[0], g2[1] = goals[1];
        CHECK_OK(gameplan_crowd_solve(c, m, s2, g2, 2, NULL, &r));
        CHECK(r.status == GAMEPLAN_STATUS_INVALID_QUERY);
        CHECK(r.lower_bound == 0 && r.cells == NULL && r.costs == NULL);
        g2[0].x = 0, g2[0].y = 0, s2[1] = starts[1];
        CHECK(!gameplan_map_passable(m, g2[0]));
        CHECK_OK(gameplan_crowd_solve(c, m, s2, g2, 2, NULL, &r));
        CHECK(r.status == GAMEPLAN_STATUS_INVALID_QUERY);
    }
    {   /* anytime with nothing to end it is refused; with a cap it ends, never above the first solution */
        gameplan_crowd_result r;
        gameplan_crowd_options o = gameplan_crowd_options_default();
        uint64_t first;
        CHECK_OK(gameplan_crowd_solve(c, m, starts, goals, 8, &o, &r));
        CHECK(r.status == GAMEPLAN_STATUS_FOUND);
        first = r.sum_of_costs;
        o.anytime = 1;
        CHECK_OK(gameplan_crowd_solve(c, m, starts, goals, 8, &o, &r));
        CHECK(r.status == GAMEPLAN_STATUS_INVALID_QUERY && r.cells == NULL);
        o.max_expansions = 2000;
        CHECK_OK(gameplan_crowd_solve(c, m, starts, goals, 8, &o, &r));
        CHECK(r.status == GAMEPLAN_STATUS_FOUND && r.sum_of_costs <= first && r.sum_of_costs >= r.lower_bound);
    }
    gameplan_crowd_solver_destroy(c);
    gameplan_map_destroy(m);
}

/* ---- the movement layer: units reach their destinations without ever sharing or swapping cells ---- */

static void test_movement(const char* dir, gameplan_step_resolver resolver) {
    gameplan_map* m = NULL;
    gameplan_movement* mv = NULL;
    gameplan_movement_options o = gameplan_movement_options_default();
    enum { UNITS = 12 };
    uint32_t ids[UNITS];
    gameplan_point dest[UNITS], before[UNITS];
    const int w = 32, h = 20;
    char used[32 * 20], taken[32 * 20], reached[UNITS];
    int i, j, tick, arrived = 0;
    uint32_t id;
    gameplan_movement_stats st;
    CHECK_OK(gameplan_map_load(source_path(dir, "examples/maps/rooms.map"), &m));
    o.resolver = resolver;
    o.movement = resolver == GAMEPLAN_RESOLVER_CROWD ? 4 : 8;
    CHECK_OK(gameplan_movement_create(m, &o, &mv));
    CHECK_OK(gameplan_movement_reserve(mv, UNITS, 256));
    memset(used, 0, sizeof used);
    memset(taken, 0, sizeof taken);
    memset(reached, 0, sizeof reached);
    for (i = 0; i < UNITS; ++i) {
        gameplan_point p, q;
        gameplan_destination d;
        do p.x = (int32_t)rnd((unsigned)w), p.y = (int32_t)rnd((unsigned)h);
        while (!gameplan_map_passable(m, p) || used[p.y * w + p.x]);
        used[p.y * w + p.x] = 1;
        CHECK_OK(gameplan_movement_add_unit(mv, p, &ids[i]));
        do q.x = (int32_t)rnd((unsigned)w), q.y = (int32_t)rnd((unsigned)h);
        while (!gameplan_map_passable(m, q) || taken[q.y * w + q.x] || ref_bfs(m, p, q) < 0);
        taken[q.y * w + q.x] = 1;
        dest[i] = q;
        d.cell = q, d.centre = q, d.radius = 0;
        CHECK_OK(gameplan_movement_move_to(mv, ids[i], d));
    }
    CHECK(gameplan_movement_add_unit(mv, gameplan_movement_position(mv, ids[0]), &id) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    CHECK(gameplan_movement_unit_count(mv) == UNITS);
    CHECK(gameplan_movement_occupant(mv, gameplan_movement_position(mv, ids[3])) == ids[3]);
    for (tick = 0; tick < 400 && arrived < UNITS; ++tick) {
        for (i = 0; i < UNITS; ++i) before[i] = gameplan_movement_position(mv, ids[i]);
        CHECK_OK(gameplan_movement_update(mv));
        arrived = 0;
        for (i = 0; i < UNITS; ++i) {
            const gameplan_point p = gameplan_movement_position(mv, ids[i]);
            CHECK((p.x == before[i].x && p.y == before[i].y) || step_legal(m, before[i], p, o.movement == 8));
            for (j = i + 1; j < UNITS; ++j) {
                const gameplan_point q = gameplan_movement_position(mv, ids[j]);
                CHECK(p.x != q.x || p.y != q.y);
                CHECK(!(p.x == before[j].x && p.y == before[j].y && q.x == before[i].x && q.y == before[i].y));
            }
            if (gameplan_movement_status(mv, ids[i]) == GAMEPLAN_UNIT_ARRIVED) {
                /* arrived units may be pushed aside later; on arrival they stand on their destination */
                if (!reached[i]) CHECK(p.x == dest[i].x && p.y == dest[i].y);
                reached[i] = 1;
                ++arrived;
            }
        }
    }
    CHECK(arrived == UNITS);
    for (i = 0; i < UNITS; ++i) {
        gameplan_unit_info info;
        CHECK_OK(gameplan_movement_unit_info(mv, ids[i], &info));
        CHECK(info.status == GAMEPLAN_UNIT_ARRIVED && info.failure == GAMEPLAN_MOVE_OK);
        CHECK(info.destination.cell.x == dest[i].x && info.destination.cell.y == dest[i].y);
    }
    CHECK_OK(gameplan_movement_get_stats(mv, &st));
    CHECK(st.arrivals == UNITS && st.ticks == (uint64_t)tick && st.steps > 0);
    {   /* a blocked destination fails the walk; an unknown unit is NOT_FOUND */
        gameplan_destination d;
        gameplan_unit_info info;
        d.cell.x = 0, d.cell.y = 0, d.centre = d.cell, d.radius = 0;
        CHECK_OK(gameplan_movement_move_to(mv, ids[0], d));
        CHECK_OK(gameplan_movement_unit_info(mv, ids[0], &info));
        CHECK(info.status == GAMEPLAN_UNIT_FAILED && info.failure == GAMEPLAN_MOVE_INVALID_GOAL);
        CHECK(gameplan_movement_move_to(mv, 999, d) == GAMEPLAN_ERROR_NOT_FOUND);
        CHECK_OK(gameplan_movement_remove_unit(mv, ids[0]));
        CHECK(gameplan_movement_remove_unit(mv, ids[0]) == GAMEPLAN_ERROR_NOT_FOUND);
        CHECK(gameplan_movement_unit_count(mv) == UNITS - 1);
    }
    gameplan_movement_destroy(mv);
    o.path_weight = 0.5;
    CHECK(gameplan_movement_create(m, &o, &mv) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    gameplan_map_destroy(m);
}


/* Navigation meshes: an analytic case, the straight line on an open map, both tiers agreeing between the
 * straight line and the 8-connected optimum on a winding map, the resumable form, budgets and refusals. */
/* ---- map changes: searches that go on through cells opening and closing ---- */

/* A 60 x 60 map with a long wall at x = 30 and a yard walled off at the bottom left. */
static gameplan_map* walled_map(void) {
    gameplan_map* m = NULL;
    gameplan_point c;
    int i;
    CHECK_OK(gameplan_map_create(60, 60, 1, &m));
    for (i = 0; i < 55; ++i) {
        c.x = 30, c.y = i;
        CHECK_OK(gameplan_map_set_passable(m, c, 0));
    }
    for (i = 40; i < 52; ++i) {
        c.x = i - 40, c.y = 48;
        CHECK_OK(gameplan_map_set_passable(m, c, 0));
        c.x = 12, c.y = i;
        CHECK_OK(gameplan_map_set_passable(m, c, 0));
    }
    return m;
}

/* One cell inside the yard opens or closes. */
static void flip_yard_cell(gameplan_map* m) {
    gameplan_point c;
    c.x = (int32_t)rnd(11), c.y = 50 + (int32_t)rnd(10);
    CHECK_OK(gameplan_map_set_passable(m, c, !gameplan_map_passable(m, c)));
}

static void test_restarts(void) {
    gameplan_map* m = walled_map();
    gameplan_request_queue *strict = NULL, *flexible = NULL;
    gameplan_movement* mv = NULL;
    gameplan_movement_options mo = gameplan_movement_options_default();
    gameplan_path_handle hs, hf;
    gameplan_path_result r;
    gameplan_point from, to;
    uint32_t units[3];
    int frame, i, arrived = 0;
    size_t k;
    from.x = 0, from.y = 0, to.x = 59, to.y = 0;
    CHECK_OK(gameplan_request_queue_create(m, 1, &strict));
    CHECK_OK(gameplan_request_queue_create(m, 1, &flexible));
    CHECK(gameplan_request_queue_set_restarts(NULL, 0, 0) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    CHECK_OK(gameplan_request_queue_set_restarts(flexible, 0, 0));
    CHECK_OK(gameplan_request_queue_submit(strict, from, to, NULL, 0, &hs));
    CHECK_OK(gameplan_request_queue_submit(flexible, from, to, NULL, 0, &hf));
    for (frame = 0; frame < 3000 && gameplan_request_queue_state(flexible, hf) != GAMEPLAN_REQUEST_DONE; ++frame) {
        flip_yard_cell(m);
        CHECK_OK(gameplan_request_queue_update(strict, 16, NULL));
        CHECK_OK(gameplan_request_queue_update(flexible, 16, NULL));
    }
    /* Restarted by every change, the strict search never ends; the other ends with a legal path. */
    CHECK(gameplan_request_queue_state(strict, hs) == GAMEPLAN_REQUEST_RUNNING);
    CHECK(gameplan_request_queue_state(flexible, hf) == GAMEPLAN_REQUEST_DONE);
    CHECK_OK(gameplan_request_queue_take(flexible, hf, &r));
    CHECK(r.status == GAMEPLAN_STATUS_FOUND && r.cell_count > 0);
    for (k = 1; k < r.cell_count; ++k) CHECK(step_legal(m, r.cells[k - 1], r.cells[k], 1));
    gameplan_request_queue_destroy(strict);
    gameplan_request_queue_destroy(flexible);

    /* Units behind the wall, at 16 expansions a tick: they arrive when their searches go on through the
       flipping. */
    mo.path_budget = 16;
    CHECK_OK(gameplan_movement_create(m, &mo, &mv));
    CHECK(gameplan_movement_set_restart_on_passability_change(NULL, 0) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    CHECK_OK(gameplan_movement_set_restart_on_passability_change(mv, 0));
    for (i = 0; i < 3; ++i) {
        gameplan_point c;
        gameplan_destination d;
        c.x = 2 + 3 * i, c.y = 2;
        CHECK_OK(gameplan_movement_add_unit(mv, c, &units[i]));
        d.cell.x = 50 + i, d.cell.y = 4, d.centre = d.cell, d.radius = 0;
        CHECK_OK(gameplan_movement_move_to(mv, units[i], d));
    }
    for (frame = 0; frame < 3000 && arrived < 3; ++frame) {
        flip_yard_cell(m);
        CHECK_OK(gameplan_movement_update(mv));
        arrived = 0;
        for (i = 0; i < 3; ++i) {
            CHECK(gameplan_map_passable(m, gameplan_movement_position(mv, units[i])));
            arrived += gameplan_movement_status(mv, units[i]) == GAMEPLAN_UNIT_ARRIVED;
        }
    }
    CHECK(arrived == 3);
    gameplan_movement_destroy(mv);
    gameplan_map_destroy(m);
}

static void test_navmesh(void) {
    gameplan_map *m = NULL, *open = NULL, *snake = NULL;
    gameplan_navmesh *mesh = NULL, *open_mesh = NULL, *snake_mesh = NULL;
    gameplan_navmesh_hierarchy *h = NULL, *snake_h = NULL;
    gameplan_navmesh_pathfinder* f = NULL;
    gameplan_pathfinder* grid = NULL;
    gameplan_navmesh_path_result r;
    gameplan_navmesh_options o = gameplan_navmesh_options_default();
    gameplan_point c;
    gameplan_status st;
    int i, x, y, steps;
    double mesh_cost;
    CHECK_OK(gameplan_navmesh_pathfinder_create(&f));
    /* One blocked cell in 3 x 3: around a side of it, through two of its corners: 1 + sqrt(2). */
    CHECK_OK(gameplan_map_create(3, 3, 1, &m));
    c.x = 1, c.y = 1;
    CHECK_OK(gameplan_map_set_passable(m, c, 0));
    CHECK_OK(gameplan_navmesh_build(m, &mesh));
    CHECK(gameplan_navmesh_polygon_count(mesh) > 0 && gameplan_navmesh_memory_bytes(mesh) > 0);
    CHECK_OK(gameplan_navmesh_hierarchy_build(mesh, 0.0, 0, &h));
    CHECK(gameplan_navmesh_hierarchy_memory_bytes(h) > 0);
    for (i = 0; i < 2; ++i) {
        if (i == 0) CHECK_OK(gameplan_navmesh_find_path(f, mesh, vec2(0.5, 1.5), vec2(2.5, 1.5), NULL, &r));
        else CHECK_OK(gameplan_navmesh_hierarchy_find_path(f, h, vec2(0.5, 1.5), vec2(2.5, 1.5), NULL, &r));
        CHECK(r.status == GAMEPLAN_STATUS_FOUND && fabs(r.cost - (1.0 + sqrt(2.0))) < 1e-12);
        CHECK(r.point_count == 4 && r.points[0].x == 0.5 && r.points[3].x == 2.5 && r.points[1].x == 1.0 && r.points[2].x == 2.0);
        CHECK(r.limit == GAMEPLAN_LIMIT_NONE);
    }
    CHECK_OK(gameplan_navmesh_find_path(f, mesh, vec2(1.5, 1.5), vec2(0.5, 0.5), NULL, &r));
    CHECK(r.status == GAMEPLAN_STATUS_INVALID_QUERY && r.points == NULL && r.point_count == 0);
    CHECK(gameplan_navmesh_find_path(f, mesh, vec2(NAN, 0.5), vec2(0.5, 0.5), NULL, &r) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    /* An open map: the straight line, between any two points. */
    CHECK_OK(gameplan_map_create(8, 6, 1, &open));
    CHECK_OK(gameplan_navmesh_build(open, &open_mesh));
    for (i = 0; i < 50; ++i) {
        const gameplan_vec2 a = vec2(rnd(8000) / 1000.0, rnd(6000) / 1000.0), b = vec2(rnd(8000) / 1000.0, rnd(6000) / 1000.0);
        CHECK_OK(gameplan_navmesh_find_path(f, open_mesh, a, b, NULL, &r));
        CHECK(r.status == GAMEPLAN_STATUS_FOUND && fabs(r.cost - hypot(b.x - a.x, b.y - a.y)) < 1e-12);
        CHECK(r.point_count == ((a.x == b.x && a.y == b.y) ? 1u : 2u));
    }
    /* A serpentine (walls with a gap at alternate ends): both tiers, whole and resumed, give one length
     * between the straight line and the 8-connected optimum of the cell centres. */
    CHECK_OK(gameplan_map_create(20, 21, 1, &snake));
    for (y = 1; y < 21; y += 2)
        for (x = 0; x < 20; ++x) {
            c.x = x, c.y = y;
            CHECK_OK(gameplan_map_set_passable(snake, c, x == (y % 4 == 1 ? 19 : 0)));
        }
    CHECK_OK(gameplan_navmesh_build(snake, &snake_mesh));
    CHECK_OK(gameplan_navmesh_hierarchy_build(snake_mesh, 10.0, 0, &snake_h));
    CHECK_OK(gameplan_pathfinder_create(GAMEPLAN_ASTAR, &grid));
    {
        gameplan_path_result g;
        gameplan_point s, t;
        s.x = 0, s.y = 0, t.x = 0, t.y = 20;
        CHECK_OK(gameplan_find_path(grid, snake, s, t, NULL, &g));
        CHECK(g.status == GAMEPLAN_STATUS_FOUND);
        CHECK_OK(gameplan_navmesh_find_path(f, snake_mesh, vec2(0.5, 0.5), vec2(0.5, 20.5), NULL, &r));
        CHECK(r.status == GAMEPLAN_STATUS_FOUND && r.cost >= 20.0 - 1e-9 && r.cost <= g.cost + 1e-9 && r.point_count > 2);
        mesh_cost = r.cost;
        CHECK_OK(gameplan_navmesh_hierarchy_find_path(f, snake_h, vec2(0.5, 0.5), vec2(0.5, 20.5), NULL, &r));
        CHECK(r.status == GAMEPLAN_STATUS_FOUND && fabs(r.cost - mesh_cost) < 1e-9 * mesh_cost);
        for (i = 0; i < 2; ++i) {
            if (i == 0) CHECK_OK(gameplan_navmesh_begin(f, snake_mesh, vec2(0.5, 0.5), vec2(0.5, 20.5), NULL, &st));
            else CHECK_OK(gameplan_navmesh_hierarchy_begin(f, snake_h, vec2(0.5, 0.5), vec2(0.5, 20.5), NULL, &st));
            for (steps = 0; st == GAMEPLAN_STATUS_IN_PROGRESS && steps < 100000; ++steps) CHECK_OK(gameplan_navmesh_step(f, 1, &st));
            CHECK(st == GAMEPLAN_STATUS_FOUND && steps > 1);
            CHECK_OK(gameplan_navmesh_finish(f, &r));
            CHECK(r.status == GAMEPLAN_STATUS_FOUND && fabs(r.cost - mesh_cost) < 1e-9 * mesh_cost);
        }
        CHECK(gameplan_navmesh_step(f, 0, &st) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
        o.max_expansions = 1;
        CHECK_OK(gameplan_navmesh_find_path(f, snake_mesh, vec2(0.5, 0.5), vec2(0.5, 20.5), &o, &r));
        CHECK(r.status == GAMEPLAN_STATUS_BUDGET_EXHAUSTED && r.limit == GAMEPLAN_LIMIT_EXPANSIONS && r.points == NULL);
        CHECK_OK(gameplan_navmesh_hierarchy_find_path(f, snake_h, vec2(0.5, 0.5), vec2(0.5, 20.5), &o, &r));
        CHECK(r.status == GAMEPLAN_STATUS_BUDGET_EXHAUSTED && r.limit == GAMEPLAN_LIMIT_EXPANSIONS && r.points == NULL);
        o.max_expansions = 0;
        o.time_limit_seconds = -1.0;
        CHECK(gameplan_navmesh_find_path(f, snake_mesh, vec2(0.5, 0.5), vec2(0.5, 20.5), &o, &r) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    }
    /* Refusals: a map with terrain costs; a hierarchy past its memory budget (nothing built). */
    c.x = 0, c.y = 0;
    CHECK_OK(gameplan_map_set_cost(open, c, 3));
    {
        gameplan_navmesh* refused = NULL;
        gameplan_navmesh_hierarchy* too_big = NULL;
        CHECK(gameplan_navmesh_build(open, &refused) == GAMEPLAN_ERROR_INVALID_ARGUMENT && refused == NULL);
        CHECK(strstr(gameplan_last_error(), "terrain costs") != NULL);
        CHECK(gameplan_navmesh_hierarchy_build(snake_mesh, 0.0, 1, &too_big) == GAMEPLAN_ERROR_UNSUPPORTED && too_big == NULL);
    }
    gameplan_pathfinder_destroy(grid);
    gameplan_navmesh_hierarchy_destroy(snake_h);
    gameplan_navmesh_hierarchy_destroy(h);
    gameplan_navmesh_destroy(snake_mesh);
    gameplan_navmesh_destroy(open_mesh);
    gameplan_navmesh_destroy(mesh);
    gameplan_navmesh_pathfinder_destroy(f);
    gameplan_map_destroy(snake);
    gameplan_map_destroy(open);
    gameplan_map_destroy(m);
}

/* ---- calls the tests above leave out, each checked against what it must do ---- */

static int never_usable(const gameplan_planning_context* c, void* data) {
    (void)c;
    ++*(int*)data;
    return 0;
}
static gameplan_action_status keep_running(const gameplan_action_context* c, void* data) {
    (void)c;
    (void)data;
    return GAMEPLAN_ACTION_RUNNING;
}
static int g_abort_reason = -1;
static void note_abort(const gameplan_action_context* c, gameplan_abort_reason reason, void* data) {
    (void)c;
    (void)data;
    g_abort_reason = (int)reason;
}

static void test_remaining_calls(void) {
    /* A domain with a shared and a private variable and two named goals with priorities. */
    const char* text =
        "{\"atoms\": [\"has_axe\", \"has_wood\", \"door_open\"], \"shared\": [\"door_open\"],"
        " \"variables\": {\"stock\": {\"max\": 9, \"shared\": true}, \"hunger\": {\"max\": 5}},"
        " \"actions\": [{\"name\": \"get_axe\", \"cost\": 2, \"effects\": {\"has_axe\": true}},"
        "  {\"name\": \"chop\", \"cost\": 1, \"preconditions\": {\"has_axe\": true}, \"effects\": {\"has_wood\": true}},"
        "  {\"name\": \"gather\", \"cost\": 5, \"effects\": {\"has_wood\": true}},"
        "  {\"name\": \"deliver\", \"cost\": 1, \"preconditions\": {\"has_wood\": true},"
        "   \"effects\": {\"has_wood\": false, \"stock\": [\"+\", 1]}}],"
        " \"start\": {\"stock\": 4, \"door_open\": true},"
        " \"goals\": {\"store\": {\"conditions\": {\"stock\": [\">=\", 5]}, \"priority\": 7.5},"
        "            \"idle\": {\"conditions\": {\"hunger\": 0}, \"priority\": 0.25}}}";
    gameplan_domain* d = NULL;
    gameplan_agent_type_builder* tb = NULL;
    gameplan_agent_type* type = NULL;
    gameplan_agent_system* sys = NULL;
    gameplan_agent_params params;
    gameplan_agent_info info;
    gameplan_agent_id id;
    gameplan_behaviour beh;
    uint32_t stock = 0, hunger = 0, get_axe = 0, gather = 0, deliver = 0, i;
    int32_t value = -1;
    int checks = 0, tick;
    static const char* names[4] = {"get_axe", "chop", "gather", "deliver"};

    CHECK_OK(gameplan_domain_parse(text, strlen(text), "extras.json", &d));
    CHECK(strcmp(gameplan_domain_atom_name(d, 0), "has_axe") == 0);
    CHECK(strcmp(gameplan_domain_atom_name(d, 1), "has_wood") == 0);
    CHECK(gameplan_domain_atom_name(d, 99) == NULL);
    CHECK_OK(gameplan_domain_find_variable(d, "stock", &stock));
    CHECK_OK(gameplan_domain_find_variable(d, "hunger", &hunger));
    CHECK(gameplan_domain_variable_shared(d, stock) == 1);
    CHECK(gameplan_domain_variable_shared(d, hunger) == 0);
    CHECK(gameplan_domain_goal_count(d) == 2);
    for (i = 0; i < 2; ++i) {
        const char* name = gameplan_domain_goal_name(d, i);
        CHECK(name != NULL);
        if (name) CHECK(gameplan_domain_goal_priority(d, i) == (strcmp(name, "store") == 0 ? 7.5 : 0.25));
    }
    CHECK_OK(gameplan_domain_find_action(d, "get_axe", &get_axe));
    CHECK_OK(gameplan_domain_find_action(d, "gather", &gather));
    CHECK_OK(gameplan_domain_find_action(d, "deliver", &deliver));

    /* get_axe is never usable (a procedural check): the plan gathers by hand (6) instead of get_axe,
     * chop, deliver (4). The delivering action then runs until it is aborted from outside. */
    CHECK_OK(gameplan_agent_type_builder_create(d, "woodcutter", &tb));
    beh.update = keep_running;
    beh.start = NULL;
    beh.abort = note_abort;
    beh.data = NULL;
    for (i = 0; i < 4; ++i) CHECK_OK(gameplan_agent_type_bind(tb, names[i], &beh));
    CHECK_OK(gameplan_agent_type_set_check(tb, "get_axe", never_usable, &checks));
    CHECK(gameplan_agent_type_set_check(tb, "fly", never_usable, &checks) == GAMEPLAN_ERROR_NOT_FOUND);
    CHECK(gameplan_agent_type_builder_build(tb, &type) == GAMEPLAN_ERROR_INVALID_ARGUMENT); /* "fly" above */
    gameplan_agent_type_builder_destroy(tb);
    CHECK_OK(gameplan_agent_type_builder_create(d, "woodcutter", &tb));
    for (i = 0; i < 4; ++i) CHECK_OK(gameplan_agent_type_bind(tb, names[i], &beh));
    CHECK_OK(gameplan_agent_type_set_check(tb, "get_axe", never_usable, &checks));
    CHECK_OK(gameplan_agent_type_builder_build(tb, &type));
    gameplan_agent_type_builder_destroy(tb);

    CHECK_OK(gameplan_agent_system_create(d, 1, &sys));
    CHECK_OK(gameplan_blackboard_get_value(sys, stock, &value));
    CHECK(value == 4); /* the file's start */
    CHECK(gameplan_blackboard_get(sys, 2) == 1); /* door_open, shared, true at the start */
    CHECK_OK(gameplan_blackboard_set_value(sys, stock, 3));
    CHECK_OK(gameplan_blackboard_get_value(sys, stock, &value));
    CHECK(value == 3);
    CHECK(gameplan_blackboard_get_value(sys, hunger, &value) == GAMEPLAN_ERROR_INVALID_ARGUMENT); /* private */
    CHECK(gameplan_blackboard_get_value(sys, 77, &value) != GAMEPLAN_OK);
    memset(&params, 0, sizeof params);
    params.name = "ann";
    params.type = type;
    params.use_domain_goals = 1;  /* "store" (7.5) first; "idle" already holds */
    CHECK_OK(gameplan_agent_system_add_agent(sys, &params, &id));
    CHECK_OK(gameplan_agent_system_tick(sys));
    CHECK_OK(gameplan_agent_info_get(sys, id, &info));
    CHECK(info.status == GAMEPLAN_AGENT_ACTING);
    CHECK(checks > 0);
    CHECK(info.plan_length == 4 && info.plan_length > 0 && info.plan[0] == gather);
    for (i = 0; i < info.plan_length; ++i) CHECK(info.plan[i] != get_axe);
    for (tick = 0; tick < 3; ++tick) CHECK_OK(gameplan_agent_system_tick(sys));
    CHECK(g_abort_reason == -1); /* gather keeps running */
    CHECK_OK(gameplan_agent_info_get(sys, id, &info));
    {
        const uint64_t replans = info.replans;
        CHECK_OK(gameplan_agent_abort(sys, id));
        CHECK(g_abort_reason == -1); /* at the next tick */
        CHECK_OK(gameplan_agent_system_tick(sys));
        CHECK(g_abort_reason == (int)GAMEPLAN_ABORT_EXTERNAL);
        CHECK_OK(gameplan_agent_info_get(sys, id, &info));
        CHECK(info.replans == replans + 1);
        CHECK(info.status == GAMEPLAN_AGENT_ACTING && info.plan_length > 0 && info.plan[0] == gather);
    }
    {
        gameplan_agent_id stale = id;
        ++stale.generation;
        CHECK(gameplan_agent_abort(sys, stale) == GAMEPLAN_ERROR_NOT_FOUND);
    }
    (void)deliver;
    gameplan_agent_system_destroy(sys);
    gameplan_agent_type_destroy(type);
    gameplan_domain_destroy(d);

    /* Movement: an anchored unit in a one-cell corridor is never passed (let go, it steps into a niche);
     * stop leaves the other idle
     * where it stands; ids stay below id_bound, which a removal does not lower. */
    {
        gameplan_map* m = NULL;
        gameplan_movement* mv = NULL;
        gameplan_movement_options o = gameplan_movement_options_default();
        gameplan_destination dest;
        gameplan_point p;
        uint32_t blocker = 0, walker = 0;
        int x;
        CHECK_OK(gameplan_map_create(12, 3, 1, &m));
        for (x = 0; x < 12; ++x) {
            p.x = x, p.y = 0;
            CHECK_OK(gameplan_map_set_passable(m, p, 0));
            p.y = 2;
            CHECK_OK(gameplan_map_set_passable(m, p, x == 8)); /* a niche to step aside into */
        }
        CHECK_OK(gameplan_movement_create(m, &o, &mv));
        CHECK(gameplan_movement_id_bound(mv) == 0);
        p.x = 6, p.y = 1;
        CHECK_OK(gameplan_movement_add_unit(mv, p, &blocker));
        CHECK_OK(gameplan_movement_set_anchored(mv, blocker, 1));
        p.x = 0;
        CHECK_OK(gameplan_movement_add_unit(mv, p, &walker));
        CHECK(gameplan_movement_id_bound(mv) == 2);
        dest.cell.x = 11, dest.cell.y = 1, dest.centre = dest.cell, dest.radius = 0;
        CHECK_OK(gameplan_movement_move_to(mv, walker, dest));
        for (tick = 0; tick < 40; ++tick) {
            CHECK_OK(gameplan_movement_update(mv));
            CHECK(gameplan_movement_position(mv, walker).x < 6);
        }
        p = gameplan_movement_position(mv, blocker);
        CHECK(p.x == 6 && p.y == 1);
        CHECK(gameplan_movement_status(mv, walker) != GAMEPLAN_UNIT_ARRIVED);
        /* Let go, the walker passes. */
        CHECK_OK(gameplan_movement_set_anchored(mv, blocker, 0));
        for (tick = 0; tick < 60 && gameplan_movement_status(mv, walker) != GAMEPLAN_UNIT_ARRIVED; ++tick)
            CHECK_OK(gameplan_movement_update(mv));
        CHECK(gameplan_movement_status(mv, walker) == GAMEPLAN_UNIT_ARRIVED);
        /* Stop part way back: idle where it stood, and it stays there. */
        dest.cell.x = 0, dest.centre = dest.cell;
        CHECK_OK(gameplan_movement_move_to(mv, walker, dest));
        for (tick = 0; tick < 4; ++tick) CHECK_OK(gameplan_movement_update(mv));
        CHECK_OK(gameplan_movement_stop(mv, walker));
        CHECK(gameplan_movement_status(mv, walker) == GAMEPLAN_UNIT_IDLE);
        p = gameplan_movement_position(mv, walker);
        CHECK(p.x > 0 && p.x < 11);
        for (tick = 0; tick < 10; ++tick) CHECK_OK(gameplan_movement_update(mv));
        CHECK(gameplan_movement_position(mv, walker).x == p.x);
        CHECK(gameplan_movement_stop(mv, 99) == GAMEPLAN_ERROR_NOT_FOUND);
        CHECK(gameplan_movement_set_anchored(mv, 99, 1) == GAMEPLAN_ERROR_NOT_FOUND);
        CHECK_OK(gameplan_movement_remove_unit(mv, blocker));
        CHECK(gameplan_movement_unit_count(mv) == 1 && gameplan_movement_id_bound(mv) == 2);
        gameplan_movement_destroy(mv);
        gameplan_map_destroy(m);
    }
}

/* Areas, a filter and two weighted layers: every query's cost against a Dijkstra written here (a step
   entering c costs its length x terrain(c) x multiplier(area(c)) + sum of weight x layer(c); forbidden areas
   are blocked, also as the side cells of a diagonal step). */
#define CW 22
#define CH 15
static double g_cost_terrain[CH][CW], g_cost_mult[CH][CW], g_cost_extra[CH][CW];
static int g_cost_open[CH][CW];
static int cost_open(int x, int y) { return x >= 0 && y >= 0 && x < CW && y < CH && g_cost_open[y][x]; }
static double ref_costs_dijkstra(gameplan_point s, gameplan_point g) {
    static double dist[CH][CW];
    static int done[CH][CW];
    int x, y, i;
    for (y = 0; y < CH; ++y)
        for (x = 0; x < CW; ++x) dist[y][x] = -1.0, done[y][x] = 0;
    if (!cost_open(s.x, s.y) || !cost_open(g.x, g.y)) return -1.0;
    dist[s.y][s.x] = 0.0;
    for (i = 0; i < CW * CH; ++i) {
        int bx = -1, by = -1, dx, dy;
        for (y = 0; y < CH; ++y)
            for (x = 0; x < CW; ++x)
                if (!done[y][x] && dist[y][x] >= 0.0 && (bx < 0 || dist[y][x] < dist[by][bx])) bx = x, by = y;
        if (bx < 0) break;
        done[by][bx] = 1;
        if (bx == g.x && by == g.y) return dist[by][bx];
        for (dy = -1; dy <= 1; ++dy)
            for (dx = -1; dx <= 1; ++dx) {
                const int nx = bx + dx, ny = by + dy;
                double len, d;
                if ((dx == 0 && dy == 0) || !cost_open(nx, ny)) continue;
                if (dx != 0 && dy != 0 && !(cost_open(bx + dx, by) && cost_open(bx, by + dy))) continue;
                len = dx != 0 && dy != 0 ? sqrt(2.0) : 1.0;
                d = dist[by][bx] + len * g_cost_terrain[ny][nx] * g_cost_mult[ny][nx] + g_cost_extra[ny][nx];
                if (dist[ny][nx] < 0.0 || d < dist[ny][nx]) dist[ny][nx] = d;
            }
    }
    return -1.0;
}

static void test_costs(void) {
    gameplan_map *m, *other;
    gameplan_areas *areas, *wrong;
    gameplan_area_filter* filter;
    gameplan_layer *penalty, *fear;
    gameplan_pathfinder *astar, *jps, *hex, *plain;
    const double mult[4] = {1.0, 2.5, 0.5, 1.0};
    const double weights[2] = {1.5, 2.0};
    const gameplan_layer* layers[2];
    gameplan_path_result r, q;
    gameplan_point a, b;
    int x, y, trial, found = 0;
    CHECK_OK(gameplan_map_create(CW, CH, 1, &m));
    CHECK_OK(gameplan_areas_create(m, &areas));
    CHECK_OK(gameplan_area_filter_create(&filter));
    CHECK_OK(gameplan_layer_create(m, &penalty));
    CHECK_OK(gameplan_layer_create(m, &fear));
    CHECK_OK(gameplan_area_filter_forbid(filter, 3, 1));
    CHECK_OK(gameplan_area_filter_set_multiplier(filter, 1, mult[1]));
    CHECK_OK(gameplan_area_filter_set_multiplier(filter, 2, mult[2]));
    a.x = 10, a.y = 7;
    CHECK_OK(gameplan_layer_add_event(fear, a, 5.0f, 4));
    for (y = 0; y < CH; ++y)
        for (x = 0; x < CW; ++x) {
            gameplan_point c;
            const unsigned area = rnd(5) < 2 ? 0u : rnd(4);
            const uint32_t terrain = 1u + rnd(3);
            c.x = x, c.y = y;
            g_cost_open[y][x] = rnd(100) >= 15;
            CHECK_OK(gameplan_map_set_passable(m, c, g_cost_open[y][x]));
            CHECK_OK(gameplan_map_set_cost(m, c, terrain));
            CHECK_OK(gameplan_areas_set(areas, c, area));
            CHECK(gameplan_areas_get(areas, c) == area);
            if (rnd(10) < 3) CHECK_OK(gameplan_layer_set(penalty, c, (float)rnd(200) / 100.0f));
            if (area == 3) g_cost_open[y][x] = 0;
            g_cost_terrain[y][x] = terrain;
            g_cost_mult[y][x] = mult[area];
            g_cost_extra[y][x] = weights[0] * gameplan_layer_get(penalty, c) + weights[1] * gameplan_layer_get(fear, c);
        }
    CHECK(gameplan_layer_get(fear, a) == 5.0f);
    layers[0] = penalty, layers[1] = fear;
    CHECK_OK(gameplan_pathfinder_create(GAMEPLAN_ASTAR, &astar));
    CHECK_OK(gameplan_pathfinder_create(GAMEPLAN_ASTAR, &plain));
    CHECK_OK(gameplan_pathfinder_set_costs(astar, areas, filter, layers, weights, 2));
    for (trial = 0; trial < 40; ++trial) {
        double want;
        a.x = (int32_t)rnd(CW), a.y = (int32_t)rnd(CH), b.x = (int32_t)rnd(CW), b.y = (int32_t)rnd(CH);
        want = ref_costs_dijkstra(a, b);
        CHECK_OK(gameplan_find_path(astar, m, a, b, NULL, &r));
        if (want < 0.0) {
            CHECK(r.status != GAMEPLAN_STATUS_FOUND);
            continue;
        }
        ++found;
        CHECK(r.status == GAMEPLAN_STATUS_FOUND && fabs(r.cost - want) <= 1e-9 * (1.0 + want));
        for (x = 0; x < (int)r.cell_count; ++x) CHECK(gameplan_areas_get(areas, r.cells[x]) != 3);
    }
    CHECK(found >= 10);
    {   /* a flow field from two sources and the nearest of three targets, under the same costs */
        static double dist[CH * CW];
        static gameplan_point toward[CH * CW];
        gameplan_point src[2], targets[3];
        gameplan_status st;
        size_t index = 0;
        int i, k, checked = 0;
        for (i = 0; i < 2; ++i)
            do src[i].x = (int32_t)rnd(CW), src[i].y = (int32_t)rnd(CH);
            while (!cost_open(src[i].x, src[i].y));
        CHECK_OK(gameplan_distance_field(astar, m, src, 2, NULL, dist, toward, &st));
        CHECK(st == GAMEPLAN_STATUS_FOUND);
        for (y = 0; y < CH; ++y)
            for (x = 0; x < CW; ++x) {
                gameplan_point c;
                double best = -1.0;
                c.x = x, c.y = y;
                for (k = 0; k < 2; ++k) {
                    const double d = ref_costs_dijkstra(src[k], c);
                    if (d >= 0.0 && (best < 0.0 || d < best)) best = d;
                }
                if (best < 0.0) {
                    CHECK(isinf(dist[y * CW + x]) && toward[y * CW + x].x == -1);
                } else {
                    CHECK(fabs(dist[y * CW + x] - best) <= 1e-9 * (1.0 + best));
                    /* one step toward a source, never up */
                    CHECK(dist[toward[y * CW + x].y * CW + toward[y * CW + x].x] <= dist[y * CW + x]);
                    ++checked;
                }
            }
        CHECK(checked > 100);
        for (trial = 0; trial < 20; ++trial) {
            double want = -1.0;
            a.x = (int32_t)rnd(CW), a.y = (int32_t)rnd(CH);
            if (!cost_open(a.x, a.y)) continue;
            for (k = 0; k < 3; ++k) {
                double d;
                targets[k].x = (int32_t)rnd(CW), targets[k].y = (int32_t)rnd(CH);
                d = ref_costs_dijkstra(a, targets[k]);
                if (d >= 0.0 && (want < 0.0 || d < want)) want = d;
            }
            CHECK_OK(gameplan_find_nearest(astar, m, a, targets, 3, NULL, &index, &r));
            if (want < 0.0) {
                CHECK(r.status == GAMEPLAN_STATUS_NO_PATH && index == SIZE_MAX && r.cells == NULL);
                continue;
            }
            CHECK(r.status == GAMEPLAN_STATUS_FOUND && fabs(r.cost - want) <= 1e-9 * (1.0 + want) && index < 3);
            CHECK(r.cell_count > 0 && r.cells[r.cell_count - 1].x == targets[index].x && r.cells[r.cell_count - 1].y == targets[index].y);
        }
    }
    /* cleared: the plain costs again */
    a.x = 0, a.y = 0, b.x = CW - 1, b.y = CH - 1;
    CHECK_OK(gameplan_map_set_passable(m, a, 1));
    CHECK_OK(gameplan_map_set_passable(m, b, 1));
    CHECK_OK(gameplan_pathfinder_set_costs(astar, NULL, NULL, NULL, NULL, 0));
    CHECK_OK(gameplan_find_path(astar, m, a, b, NULL, &r));
    CHECK_OK(gameplan_find_path(plain, m, a, b, NULL, &q));
    CHECK(r.status == q.status && r.cost == q.cost);
    /* refused: JPS with costs, hex with costs, a bad weight; areas of another map's shape */
    CHECK_OK(gameplan_pathfinder_create(GAMEPLAN_JPS, &jps));
    CHECK_OK(gameplan_pathfinder_create(GAMEPLAN_HEX, &hex));
    CHECK_OK(gameplan_pathfinder_set_costs(jps, areas, filter, NULL, NULL, 0));
    CHECK(gameplan_find_path(jps, m, a, b, NULL, &r) == GAMEPLAN_ERROR_UNSUPPORTED);
    {
        double d[CH * CW];
        CHECK(gameplan_distance_field(jps, m, &a, 1, NULL, d, NULL, NULL) == GAMEPLAN_ERROR_UNSUPPORTED);
        CHECK(gameplan_find_nearest(jps, m, a, &b, 1, NULL, NULL, &r) == GAMEPLAN_ERROR_UNSUPPORTED);
    }
    CHECK(gameplan_pathfinder_set_costs(hex, areas, filter, NULL, NULL, 0) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    {
        const double bad = -1.0;
        CHECK(gameplan_pathfinder_set_costs(astar, NULL, NULL, layers, &bad, 1) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    }
    CHECK(gameplan_areas_set(areas, a, GAMEPLAN_MAX_AREAS) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    CHECK(gameplan_area_filter_set_multiplier(filter, 1, 0.0) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    CHECK(gameplan_layer_set(penalty, a, -1.0f) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    CHECK(gameplan_layer_add_event(fear, a, 1.0f, -1) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    CHECK_OK(gameplan_map_create(CW + 1, CH, 1, &other));
    CHECK_OK(gameplan_areas_create(other, &wrong));
    CHECK_OK(gameplan_pathfinder_set_costs(astar, wrong, filter, NULL, NULL, 0));
    CHECK_OK(gameplan_find_path(astar, m, a, b, NULL, &r));
    CHECK(r.status == GAMEPLAN_STATUS_INVALID_QUERY);
    /* decay and clear */
    b.x = 10, b.y = 7;
    CHECK_OK(gameplan_layer_decay(fear, 0.5f));
    CHECK(gameplan_layer_get(fear, b) == 2.5f);
    gameplan_layer_clear(fear);
    CHECK(gameplan_layer_get(fear, b) == 0.0f);
    gameplan_pathfinder_destroy(astar);
    gameplan_pathfinder_destroy(plain);
    gameplan_pathfinder_destroy(jps);
    gameplan_pathfinder_destroy(hex);
    gameplan_layer_destroy(penalty);
    gameplan_layer_destroy(fear);
    gameplan_area_filter_destroy(filter);
    gameplan_areas_destroy(areas);
    gameplan_areas_destroy(wrong);
    gameplan_map_destroy(other);
    gameplan_map_destroy(m);
}

/* An open 14 x 9 map and a layer of 50 on a band across its middle (column 7, rows 2 to 6): the straight
   way from (1, 4) to (12, 4) crosses it, a detour above or below costs far less. */
static void danger_band(gameplan_map** m, gameplan_layer** danger) {
    int y;
    CHECK_OK(gameplan_map_create(14, 9, 1, m));
    CHECK_OK(gameplan_layer_create(*m, danger));
    for (y = 2; y < 7; ++y) {
        gameplan_point c;
        c.x = 7, c.y = y;
        CHECK_OK(gameplan_layer_set(*danger, c, 50.0f));
    }
}

/* A movement system given a danger layer routes its unit round a band the plain system walks through. */
static void test_movement_layers(void) {
    gameplan_map* m;
    gameplan_layer* danger;
    const double weight = 1.0, bad = -2.0;
    const gameplan_layer* layers[1];
    int pass, t, crossed[2] = {0, 0};
    gameplan_movement* wrong = NULL;
    danger_band(&m, &danger);
    layers[0] = danger;
    for (pass = 0; pass < 2; ++pass) {
        gameplan_movement* system;
        gameplan_point from;
        gameplan_destination to;
        uint32_t unit;
        from.x = 1, from.y = 4;
        to.cell.x = 12, to.cell.y = 4, to.centre = to.cell, to.radius = 0;
        if (pass == 0) CHECK_OK(gameplan_movement_create(m, NULL, &system));
        else CHECK_OK(gameplan_movement_create_with_layers(m, NULL, layers, &weight, 1, &system));
        CHECK_OK(gameplan_movement_add_unit(system, from, &unit));
        CHECK_OK(gameplan_movement_move_to(system, unit, to));
        for (t = 0; t < 40; ++t) {
            gameplan_point p;
            CHECK_OK(gameplan_movement_update(system));
            p = gameplan_movement_position(system, unit);
            if (p.x == 7 && p.y >= 2 && p.y < 7) crossed[pass] = 1;
        }
        CHECK(gameplan_movement_status(system, unit) == GAMEPLAN_UNIT_ARRIVED);
        gameplan_movement_destroy(system);
    }
    CHECK(crossed[0] && !crossed[1]);
    CHECK(gameplan_movement_create_with_layers(m, NULL, layers, &bad, 1, &wrong) == GAMEPLAN_ERROR_INVALID_ARGUMENT && wrong == NULL);
    gameplan_layer_destroy(danger);
    gameplan_map_destroy(m);
}

/* Queued requests carry the costs set when they were submitted: the pathfinder's answers under the same
   costs, and a request queued before the costs were cleared keeps them. */
static void test_queue_costs(void) {
    gameplan_map* m;
    gameplan_layer* danger;
    gameplan_request_queue* q;
    gameplan_pathfinder *wary, *plain;
    const gameplan_layer* layers[1];
    const double weight = 1.0;
    gameplan_point a, b;
    gameplan_path_handle h1, h2;
    gameplan_path_result r, want_wary, want_plain;
    int i;
    danger_band(&m, &danger);
    layers[0] = danger;
    a.x = 1, a.y = 4, b.x = 12, b.y = 4;
    CHECK_OK(gameplan_pathfinder_create(GAMEPLAN_ASTAR, &wary));
    CHECK_OK(gameplan_pathfinder_create(GAMEPLAN_ASTAR, &plain));
    CHECK_OK(gameplan_pathfinder_set_costs(wary, NULL, NULL, layers, &weight, 1));
    CHECK_OK(gameplan_find_path(wary, m, a, b, NULL, &want_wary));
    CHECK_OK(gameplan_find_path(plain, m, a, b, NULL, &want_plain));
    CHECK(want_wary.status == GAMEPLAN_STATUS_FOUND && want_plain.status == GAMEPLAN_STATUS_FOUND && want_plain.cost < want_wary.cost);
    CHECK_OK(gameplan_request_queue_create(m, 1, &q));
    CHECK_OK(gameplan_request_queue_set_costs(q, NULL, NULL, layers, &weight, 1));
    CHECK_OK(gameplan_request_queue_submit(q, a, b, NULL, 0, &h1));
    CHECK_OK(gameplan_request_queue_set_costs(q, NULL, NULL, NULL, NULL, 0)); /* later requests: plain */
    CHECK_OK(gameplan_request_queue_submit(q, a, b, NULL, 0, &h2));
    for (i = 0; i < 100 && gameplan_request_queue_size(q) > 0 &&
                (gameplan_request_queue_state(q, h1) != GAMEPLAN_REQUEST_DONE || gameplan_request_queue_state(q, h2) != GAMEPLAN_REQUEST_DONE);
         ++i)
        CHECK_OK(gameplan_request_queue_update(q, 1000, NULL));
    CHECK_OK(gameplan_request_queue_take(q, h1, &r));
    CHECK(r.status == GAMEPLAN_STATUS_FOUND && fabs(r.cost - want_wary.cost) < 1e-9);
    CHECK_OK(gameplan_request_queue_take(q, h2, &r));
    CHECK(r.status == GAMEPLAN_STATUS_FOUND && fabs(r.cost - want_plain.cost) < 1e-9);
    {
        gameplan_map* other;
        gameplan_layer* wrong;
        const gameplan_layer* wrong_layers[1];
        CHECK_OK(gameplan_map_create(3, 3, 1, &other));
        CHECK_OK(gameplan_layer_create(other, &wrong));
        wrong_layers[0] = wrong;
        CHECK(gameplan_request_queue_set_costs(q, NULL, NULL, wrong_layers, &weight, 1) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
        gameplan_layer_destroy(wrong);
        gameplan_map_destroy(other);
    }
    gameplan_request_queue_destroy(q);
    gameplan_pathfinder_destroy(wary);
    gameplan_pathfinder_destroy(plain);
    gameplan_layer_destroy(danger);
    gameplan_map_destroy(m);
}

/* Units that discover the map as they walk: every walk legal on the true map, never cheaper than the
   optimum with full knowledge (the test's Dijkstra), NO_PATH exactly when the goal is unreachable. */
static void test_fog(void) {
    gameplan_map* m;
    gameplan_explorer* e;
    gameplan_explore_options o = gameplan_explore_options_default();
    int x, y, trial, arrived = 0;
    CHECK(o.sight == 5 && o.movement == 8 && o.unknown_multiplier == 1.0);
    o.sight = 2;
    CHECK_OK(gameplan_map_create(CW, CH, 1, &m));
    for (y = 0; y < CH; ++y)
        for (x = 0; x < CW; ++x) {
            gameplan_point c;
            c.x = x, c.y = y;
            g_cost_open[y][x] = rnd(100) >= 22;
            g_cost_terrain[y][x] = 1.0 + rnd(2);
            g_cost_mult[y][x] = 1.0, g_cost_extra[y][x] = 0.0;
            CHECK_OK(gameplan_map_set_passable(m, c, g_cost_open[y][x]));
            CHECK_OK(gameplan_map_set_cost(m, c, (uint32_t)g_cost_terrain[y][x]));
        }
    CHECK_OK(gameplan_explorer_create(&e));
    for (trial = 0; trial < 25; ++trial) {
        gameplan_team* team;
        gameplan_explore_result r;
        gameplan_point a, b;
        double want, cost = 0.0;
        size_t i;
        do a.x = (int32_t)rnd(CW), a.y = (int32_t)rnd(CH);
        while (!cost_open(a.x, a.y));
        do b.x = (int32_t)rnd(CW), b.y = (int32_t)rnd(CH);
        while (!cost_open(b.x, b.y));
        want = ref_costs_dijkstra(a, b);
        CHECK_OK(gameplan_team_create(m, &team));
        CHECK_OK(gameplan_explore(e, m, team, a, b, &o, &r));
        CHECK(gameplan_team_known_count(team) > 0);
        CHECK(gameplan_team_state(team, a) == GAMEPLAN_CELL_FREE);
        if (want < 0.0) {
            CHECK(r.status == GAMEPLAN_STATUS_NO_PATH);
            gameplan_team_destroy(team);
            continue;
        }
        ++arrived;
        CHECK(r.status == GAMEPLAN_STATUS_FOUND && r.cell_count == r.steps + 1);
        CHECK(r.cells[0].x == a.x && r.cells[0].y == a.y && r.cells[r.cell_count - 1].x == b.x && r.cells[r.cell_count - 1].y == b.y);
        for (i = 1; i < r.cell_count; ++i) {
            const int dx = r.cells[i].x - r.cells[i - 1].x, dy = r.cells[i].y - r.cells[i - 1].y;
            CHECK(abs(dx) <= 1 && abs(dy) <= 1 && (dx || dy) && cost_open(r.cells[i].x, r.cells[i].y));
            CHECK(!(dx && dy) || (cost_open(r.cells[i - 1].x + dx, r.cells[i - 1].y) && cost_open(r.cells[i - 1].x, r.cells[i - 1].y + dy)));
            cost += (dx && dy ? sqrt(2.0) : 1.0) * g_cost_terrain[r.cells[i].y][r.cells[i].x];
        }
        CHECK(fabs(cost - r.travelled) <= 1e-9 * (1.0 + cost) && cost >= want - 1e-9);
        gameplan_team_destroy(team);
    }
    CHECK(arrived >= 10);
    {   /* a team that has seen everything, a unit that keeps to known ground: the optimum, no replan */
        gameplan_team* team;
        gameplan_area_filter* known_only;
        gameplan_explore_result r;
        gameplan_point c, a, b;
        double want;
        c.x = 0, c.y = 0;
        CHECK_OK(gameplan_team_create(m, &team));
        CHECK_OK(gameplan_team_reveal(team, m, c, 1024, NULL));
        CHECK(gameplan_team_known_count(team) == (size_t)(CW * CH));
        CHECK_OK(gameplan_area_filter_create(&known_only));
        CHECK_OK(gameplan_area_filter_forbid(known_only, GAMEPLAN_AREA_UNKNOWN, 1));
        CHECK_OK(gameplan_explorer_set_costs(e, NULL, known_only, NULL, NULL, 0));
        do {
            do a.x = (int32_t)rnd(CW), a.y = (int32_t)rnd(CH);
            while (!cost_open(a.x, a.y));
            do b.x = (int32_t)rnd(CW), b.y = (int32_t)rnd(CH);
            while (!cost_open(b.x, b.y));
            want = ref_costs_dijkstra(a, b);
        } while (want < 0.0);
        CHECK_OK(gameplan_explore(e, m, team, a, b, &o, &r));
        CHECK(r.status == GAMEPLAN_STATUS_FOUND && fabs(r.travelled - want) <= 1e-9 * (1.0 + want) && r.replans == 0);
        /* the same filter with a team that knows nothing: no known way */
        gameplan_team_destroy(team);
        CHECK_OK(gameplan_team_create(m, &team));
        CHECK_OK(gameplan_explore(e, m, team, a, b, &o, &r));
        CHECK(r.status == GAMEPLAN_STATUS_NO_PATH || (r.status == GAMEPLAN_STATUS_FOUND && r.cell_count <= 3));
        CHECK_OK(gameplan_explorer_set_costs(e, NULL, NULL, NULL, NULL, 0));
        gameplan_area_filter_destroy(known_only);
        gameplan_team_destroy(team);
    }
    {   /* reveal by hand; a team of another shape is refused */
        gameplan_team* team;
        gameplan_point c;
        size_t blocked = 0;
        CHECK_OK(gameplan_team_create(m, &team));
        c.x = CW / 2, c.y = CH / 2;
        CHECK_OK(gameplan_team_reveal(team, m, c, 1, &blocked));
        CHECK(gameplan_team_known_count(team) == 9);
        CHECK(gameplan_team_state(team, c) == (cost_open(c.x, c.y) ? GAMEPLAN_CELL_FREE : GAMEPLAN_CELL_BLOCKED));
        CHECK(gameplan_team_reveal(team, m, c, -1, NULL) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
        gameplan_team_destroy(team);
    }
    gameplan_explorer_destroy(e);
    gameplan_map_destroy(m);
}

/* Theta* between the straight line and the grid optimum, whole or in slices; smoothing pulls a zigzag
   straight and refuses an illegal path. */
static void test_theta_and_smoothing(void) {
    gameplan_map* m;
    gameplan_pathfinder *theta, *astar;
    gameplan_path_result t, a;
    gameplan_point s, g, zig[11], out[11];
    size_t n = 0, i;
    double cost = 0.0;
    int trial, found = 0;
    gameplan_status st;
    CHECK_OK(gameplan_map_create(30, 20, 1, &m));
    CHECK_OK(gameplan_pathfinder_create(GAMEPLAN_THETA, &theta));
    CHECK_OK(gameplan_pathfinder_create(GAMEPLAN_ASTAR, &astar));
    s.x = 0, s.y = 0, g.x = 29, g.y = 7;
    CHECK_OK(gameplan_find_path(theta, m, s, g, NULL, &t));
    CHECK(t.status == GAMEPLAN_STATUS_FOUND && t.cell_count == 2 && fabs(t.cost - sqrt(29.0 * 29.0 + 49.0)) < 1e-9);
    for (trial = 0; trial < 90; ++trial) {
        gameplan_point c;
        c.x = (int32_t)rnd(30), c.y = (int32_t)rnd(20);
        CHECK_OK(gameplan_map_set_passable(m, c, 0));
    }
    for (trial = 0; trial < 30; ++trial) {
        do s.x = (int32_t)rnd(30), s.y = (int32_t)rnd(20);
        while (!gameplan_map_passable(m, s));
        do g.x = (int32_t)rnd(30), g.y = (int32_t)rnd(20);
        while (!gameplan_map_passable(m, g));
        CHECK_OK(gameplan_find_path(theta, m, s, g, NULL, &t));
        CHECK_OK(gameplan_find_path(astar, m, s, g, NULL, &a));
        CHECK(t.status == a.status);
        if (a.status != GAMEPLAN_STATUS_FOUND) continue;
        ++found;
        CHECK(t.cost <= a.cost + 1e-9 && t.cost >= sqrt((double)(g.x - s.x) * (g.x - s.x) + (double)(g.y - s.y) * (g.y - s.y)) - 1e-9);
        /* the same in slices of 3 expansions */
        CHECK_OK(gameplan_pathfinder_begin(theta, m, s, g, NULL, &st));
        while (st == GAMEPLAN_STATUS_IN_PROGRESS) CHECK_OK(gameplan_pathfinder_step(theta, 3, &st));
        CHECK_OK(gameplan_pathfinder_finish(theta, &a));
        CHECK(a.status == t.status && fabs(a.cost - t.cost) < 1e-12);
    }
    CHECK(found >= 20);
    gameplan_map_destroy(m);
    CHECK_OK(gameplan_map_create(20, 10, 1, &m));
    for (i = 0; i < 11; ++i) zig[i].x = (int32_t)i, zig[i].y = i % 2 == 0 ? 5 : 4;
    CHECK_OK(gameplan_smooth_path(NULL, m, zig, 11, NULL, out, &n, &cost));
    CHECK(fabs(cost - 10.0) < 1e-9 && n >= 2 && n <= 11 && out[0].x == 0 && out[n - 1].x == 10 && out[n - 1].y == 5);
    for (i = 1; i < n; ++i) CHECK(abs(out[i].x - out[i - 1].x) <= 1 && abs(out[i].y - out[i - 1].y) <= 1);
    zig[1].x = 3; /* a jump of two cells */
    CHECK(gameplan_smooth_path(NULL, m, zig, 11, NULL, out, &n, &cost) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    gameplan_pathfinder_destroy(theta);
    gameplan_pathfinder_destroy(astar);
    gameplan_map_destroy(m);
}

static void test_map_with_areas(const char* dir) {
    gameplan_map* m;
    gameplan_areas* areas;
    int x, y, trees = 0;
    CHECK_OK(gameplan_map_load_with_areas(source_path(dir, "examples/maps/rooms.map"), 0, 1, &m, &areas));
    for (y = 0; y < gameplan_map_height(m); ++y)
        for (x = 0; x < gameplan_map_width(m); ++x) {
            gameplan_point c;
            c.x = x, c.y = y;
            if (gameplan_areas_get(areas, c) == GAMEPLAN_AREA_TREES) {
                ++trees;
                CHECK(gameplan_map_passable(m, c));
            }
        }
    CHECK(trees == 12); /* the T letters of rooms.map */
    gameplan_areas_destroy(areas);
    gameplan_map_destroy(m);
    CHECK(gameplan_map_load_with_areas(source_path(dir, "no/such.map"), 0, 0, &m, &areas) == GAMEPLAN_ERROR_LOAD);
}

/* Waypoint graphs: a pillar room worked out by hand, corners against a brute-force definition on random
 * maps, budgets and refusals, and graph files that load back with the same arcs. */
static int is_free(const char* cells, int w, int h, int x, int y) {
    return x >= 0 && y >= 0 && x < w && y < h && cells[y * w + x] == '.';
}

static void test_waypoints(void) {
    gameplan_map* m = NULL;
    gameplan_graph* g = NULL;
    gameplan_graph* back = NULL;
    gameplan_graph_pathfinder* f = NULL;
    gameplan_graph_path_result r;
    gameplan_waypoint_options o = gameplan_waypoint_options_default();
    gameplan_vec2 at;
    uint32_t a = 0, b = 0;
    int trial;
    const gameplan_point given[2] = {{0, 0}, {4, 0}};
    const gameplan_point pillar = {2, 1};
    CHECK(o.corners == 1 && o.movement == 8 && o.diagonal == GAMEPLAN_DIAGONAL_NO_CORNER_CUTTING && o.max_distance == 0.0);
    CHECK_OK(gameplan_graph_pathfinder_create(&f));
    /* 5 x 3, a pillar at (2,1): corners (1,0) (3,0) (1,2) (3,2), joined along the sides (2 apart); the two
     * diagonals pass through the pillar's centre. */
    CHECK_OK(gameplan_map_create(5, 3, 1, &m));
    CHECK_OK(gameplan_map_set_passable(m, pillar, 0));
    CHECK_OK(gameplan_waypoint_graph_build(m, NULL, 0, NULL, &g));
    CHECK(gameplan_graph_node_count(g) == 4 && gameplan_graph_arc_count(g) == 8);
    CHECK_OK(gameplan_graph_find_node(g, "1,0", &a));
    CHECK_OK(gameplan_graph_find_node(g, "3,2", &b));
    CHECK_OK(gameplan_graph_node_position(g, a, &at));
    CHECK(at.x == 1.5 && at.y == 0.5);
    CHECK(gameplan_graph_node_position(g, 99, &at) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    {
        gameplan_point cell = {-1, -1};
        CHECK_OK(gameplan_graph_node_cell(g, a, &cell));
        CHECK(cell.x == 1 && cell.y == 0);
        CHECK(gameplan_graph_node_cell(g, 99, &cell) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    }
    /* From any cell, without rebuilding: (0,1) to (4,1) around the pillar, sqrt 2 + 2 + sqrt 2. */
    {
        gameplan_waypoint_pathfinder* wf = NULL;
        gameplan_path_result pr;
        gameplan_status st = GAMEPLAN_STATUS_IN_PROGRESS;
        gameplan_graph_options go = gameplan_graph_options_default();
        const gameplan_point left = {0, 1}, right = {4, 1}, top_left = {0, 0}, top_right = {4, 0};
        int slices = 0;
        CHECK_OK(gameplan_waypoint_pathfinder_create(&wf));
        CHECK_OK(gameplan_waypoint_find_path(wf, g, m, left, right, NULL, &pr));
        CHECK(pr.status == GAMEPLAN_STATUS_FOUND && fabs(pr.cost - (2.0 + 2.0 * sqrt(2.0))) < 1e-12 && pr.cell_count == 4);
        CHECK(pr.cells[0].x == 0 && pr.cells[0].y == 1 && pr.cells[3].x == 4 && pr.cells[3].y == 1);
        CHECK(pr.cells[1].x == 1 && pr.cells[2].x == 3 && pr.cells[1].y == pr.cells[2].y);
        CHECK_OK(gameplan_waypoint_find_path(wf, g, m, top_left, top_right, NULL, &pr));
        CHECK(pr.status == GAMEPLAN_STATUS_FOUND && pr.cost == 4.0 && pr.cell_count == 2 && pr.expanded == 0);
        CHECK_OK(gameplan_waypoint_begin(wf, g, m, right, left, NULL, &st));
        while (st == GAMEPLAN_STATUS_IN_PROGRESS) {
            CHECK_OK(gameplan_waypoint_step(wf, 1, &st));
            ++slices;
        }
        CHECK_OK(gameplan_waypoint_finish(wf, &pr));
        CHECK(pr.status == GAMEPLAN_STATUS_FOUND && fabs(pr.cost - (2.0 + 2.0 * sqrt(2.0))) < 1e-12 && slices > 1);
        go.max_expansions = 1;
        CHECK_OK(gameplan_waypoint_find_path(wf, g, m, left, right, &go, &pr));
        CHECK(pr.status == GAMEPLAN_STATUS_BUDGET_EXHAUSTED && pr.limit == GAMEPLAN_LIMIT_EXPANSIONS && pr.cell_count == 0);
        CHECK_OK(gameplan_waypoint_find_path(wf, g, m, pillar, right, NULL, &pr));
        CHECK(pr.status == GAMEPLAN_STATUS_INVALID_QUERY);
        go = gameplan_graph_options_default();
        go.weight = 0.5;
        CHECK(gameplan_waypoint_find_path(wf, g, m, left, right, &go, &pr) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
        CHECK(gameplan_waypoint_step(wf, 0, &st) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
        gameplan_waypoint_pathfinder_destroy(wf);
    }
    CHECK_OK(gameplan_graph_find_path(f, g, a, b, NULL, &r));
    CHECK(r.status == GAMEPLAN_STATUS_FOUND && r.cost == 4.0 && r.node_count == 3);
    /* The files load back with the same arcs: the same path, positions only in JSON. */
    CHECK_OK(gameplan_graph_save(g, "c_api_waypoints.json"));
    CHECK_OK(gameplan_graph_load("c_api_waypoints.json", &back));
    CHECK(gameplan_graph_arc_count(back) == 8 && gameplan_graph_node_count(back) == 4);
    CHECK_OK(gameplan_graph_node_position(back, a, &at));
    CHECK(at.x == 1.5 && at.y == 0.5 && strcmp(gameplan_graph_node_id(back, a), "1,0") == 0);
    gameplan_graph_destroy(back);
    back = NULL;
    CHECK_OK(gameplan_graph_save(g, "c_api_waypoints.csv"));
    CHECK_OK(gameplan_graph_load("c_api_waypoints.csv", &back));
    CHECK(gameplan_graph_arc_count(back) == 8);
    CHECK(gameplan_graph_node_position(back, 0, &at) == GAMEPLAN_ERROR_NOT_FOUND);
    {
        /* A graph read from a file has no cells: no waypoint queries on it. */
        gameplan_point cell;
        gameplan_waypoint_pathfinder* wf = NULL;
        gameplan_path_result pr;
        const gameplan_point left = {0, 1}, right = {4, 1};
        CHECK(gameplan_graph_node_cell(back, 0, &cell) == GAMEPLAN_ERROR_NOT_FOUND);
        CHECK_OK(gameplan_waypoint_pathfinder_create(&wf));
        CHECK_OK(gameplan_waypoint_find_path(wf, back, m, left, right, NULL, &pr));
        CHECK(pr.status == GAMEPLAN_STATUS_INVALID_QUERY);
        gameplan_waypoint_pathfinder_destroy(wf);
    }
    CHECK_OK(gameplan_graph_find_node(back, "1,0", &a));
    CHECK_OK(gameplan_graph_find_node(back, "3,2", &b));
    CHECK_OK(gameplan_graph_find_path(f, back, a, b, NULL, &r));
    CHECK(r.status == GAMEPLAN_STATUS_FOUND && r.cost == 4.0);
    gameplan_graph_destroy(back);
    back = NULL;
    remove("c_api_waypoints.json");
    remove("c_api_waypoints.csv");
    CHECK(gameplan_graph_save(g, "/nonexistent-dir/w.json") == GAMEPLAN_ERROR_LOAD);
    CHECK(strstr(gameplan_last_error(), "/nonexistent-dir/w.json") != NULL);
    gameplan_graph_destroy(g);
    g = NULL;
    /* Given cells only: the top row's ends see each other along it. */
    o.corners = 0;
    CHECK_OK(gameplan_waypoint_graph_build(m, given, 2, &o, &g));
    CHECK(gameplan_graph_node_count(g) == 2 && gameplan_graph_arc_count(g) == 2);
    CHECK(strcmp(gameplan_graph_node_id(g, 0), "0,0") == 0 && strcmp(gameplan_graph_node_id(g, 1), "4,0") == 0);
    gameplan_graph_destroy(g);
    g = NULL;
    /* max_distance 1.9 leaves the corners unjoined; 4 corners make 6 pairs: 6 checks do, 5 do not. */
    o = gameplan_waypoint_options_default();
    o.max_distance = 1.9;
    CHECK_OK(gameplan_waypoint_graph_build(m, NULL, 0, &o, &g));
    CHECK(gameplan_graph_node_count(g) == 4 && gameplan_graph_arc_count(g) == 0);
    gameplan_graph_destroy(g);
    g = NULL;
    o = gameplan_waypoint_options_default();
    o.max_pairs = 6;
    CHECK_OK(gameplan_waypoint_graph_build(m, NULL, 0, &o, &g));
    gameplan_graph_destroy(g);
    g = NULL;
    o.max_pairs = 5;
    CHECK(gameplan_waypoint_graph_build(m, NULL, 0, &o, &g) == GAMEPLAN_ERROR_UNSUPPORTED && g == NULL);
    CHECK(strstr(gameplan_last_error(), "max_pairs") != NULL);
    o = gameplan_waypoint_options_default();
    o.max_memory_bytes = 100;
    CHECK(gameplan_waypoint_graph_build(m, NULL, 0, &o, &g) == GAMEPLAN_ERROR_UNSUPPORTED && g == NULL);
    CHECK(strstr(gameplan_last_error(), "max_memory_bytes") != NULL);
    /* Refusals. */
    CHECK(gameplan_waypoint_graph_build(m, &pillar, 1, NULL, &g) == GAMEPLAN_ERROR_INVALID_ARGUMENT && g == NULL);
    CHECK(strstr(gameplan_last_error(), "given[0] (2, 1) is a blocked cell") != NULL);
    {
        const gameplan_point off = {5, 0};
        CHECK(gameplan_waypoint_graph_build(m, &off, 1, NULL, &g) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
        CHECK(strstr(gameplan_last_error(), "outside the map") != NULL);
    }
    CHECK(gameplan_waypoint_graph_build(m, NULL, 3, NULL, &g) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    o = gameplan_waypoint_options_default();
    o.movement = 6;
    CHECK(gameplan_waypoint_graph_build(m, NULL, 0, &o, &g) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    o = gameplan_waypoint_options_default();
    o.max_distance = -1;
    CHECK(gameplan_waypoint_graph_build(m, NULL, 0, &o, &g) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    CHECK_OK(gameplan_map_set_cost(m, given[0], 3));
    CHECK(gameplan_waypoint_graph_build(m, NULL, 0, NULL, &g) == GAMEPLAN_ERROR_INVALID_ARGUMENT);
    CHECK(strstr(gameplan_last_error(), "terrain costs") != NULL);
    gameplan_map_destroy(m);
    m = NULL;
    /* Random maps: the nodes are exactly the convex corners of the definition, each named "x,y". */
    for (trial = 0; trial < 20; ++trial) {
        enum { W = 17, H = 13 };
        char cells[W * H];
        int x, y, corners = 0;
        CHECK_OK(gameplan_map_create(W, H, 1, &m));
        for (y = 0; y < H; ++y)
            for (x = 0; x < W; ++x) {
                const gameplan_point c = {x, y};
                cells[y * W + x] = rnd(5) == 0 ? '@' : '.';
                if (cells[y * W + x] == '@') CHECK_OK(gameplan_map_set_passable(m, c, 0));
            }
        CHECK_OK(gameplan_waypoint_graph_build(m, NULL, 0, NULL, &g));
        for (y = 0; y < H; ++y)
            for (x = 0; x < W; ++x) {
                int dx, dy, corner = 0;
                char id[32];
                uint32_t node = 0;
                if (!is_free(cells, W, H, x, y)) continue;
                for (dy = -1; dy <= 1; dy += 2)
                    for (dx = -1; dx <= 1; dx += 2)
                        if (x + dx >= 0 && y + dy >= 0 && x + dx < W && y + dy < H && !is_free(cells, W, H, x + dx, y + dy) &&
                            is_free(cells, W, H, x + dx, y) && is_free(cells, W, H, x, y + dy))
                            corner = 1;
                snprintf(id, sizeof id, "%d,%d", x, y);
                CHECK((gameplan_graph_find_node(g, id, &node) == GAMEPLAN_OK) == corner);
                corners += corner;
            }
        CHECK(gameplan_graph_node_count(g) == (size_t)corners);
        {
            /* A query from any cell costs what a search of the graph rebuilt with its two cells as given
             * waypoints costs (the C++ and Python tests compare both with references of their own). */
            gameplan_waypoint_pathfinder* wf = NULL;
            int q;
            CHECK_OK(gameplan_waypoint_pathfinder_create(&wf));
            for (q = 0; q < 5; ++q) {
                gameplan_point ends[2];
                gameplan_path_result pr;
                gameplan_graph* with_ends = NULL;
                int k;
                for (k = 0; k < 2; ++k) {
                    do {
                        ends[k].x = (int32_t)rnd(W);
                        ends[k].y = (int32_t)rnd(H);
                    } while (!is_free(cells, W, H, ends[k].x, ends[k].y));
                }
                CHECK_OK(gameplan_waypoint_find_path(wf, g, m, ends[0], ends[1], NULL, &pr));
                CHECK_OK(gameplan_waypoint_graph_build(m, ends, 2, NULL, &with_ends));
                {
                    gameplan_graph_path_result gr;
                    CHECK_OK(gameplan_graph_find_path(f, with_ends, 0, ends[0].x == ends[1].x && ends[0].y == ends[1].y ? 0 : 1, NULL, &gr));
                    CHECK(gr.status == pr.status);
                    if (gr.status == GAMEPLAN_STATUS_FOUND) CHECK(fabs(gr.cost - pr.cost) < 1e-9);
                }
                gameplan_graph_destroy(with_ends);
            }
            gameplan_waypoint_pathfinder_destroy(wf);
        }
        gameplan_graph_destroy(g);
        g = NULL;
        gameplan_map_destroy(m);
        m = NULL;
    }
    gameplan_graph_pathfinder_destroy(f);
}

int main(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: c_api_test SOURCE_DIR [BENCHMARK_DATA_DIR]\n");
        return 2;
    }
    CHECK(strcmp(gameplan_status_name(GAMEPLAN_STATUS_BUDGET_EXHAUSTED), "budget_exhausted") == 0);
    CHECK(strcmp(gameplan_budget_limit_name(GAMEPLAN_LIMIT_NONE), "none") == 0);
    CHECK(strcmp(gameplan_budget_limit_name(GAMEPLAN_LIMIT_EXPANSIONS), "expansions") == 0);
    CHECK(strcmp(gameplan_budget_limit_name(GAMEPLAN_LIMIT_TIME), "time") == 0);
    CHECK(strcmp(gameplan_budget_limit_name(GAMEPLAN_LIMIT_MEMORY), "memory") == 0);
    CHECK(strlen(gameplan_version()) >= 5);
    test_random_domains();
    test_domain_files(argv[1]);
    test_built_map();
    test_hex();
    test_islands();
    test_graphs(argv[1]);
    test_scenarios(argv[1]);
    test_agents();
    test_remaining_calls();
    test_numeric_domains();
    test_hpa(argv[1]);
    test_navmesh();
    test_restarts();
    test_costs();
    test_map_with_areas(argv[1]);
    test_movement_layers();
    test_queue_costs();
    test_fog();
    test_theta_and_smoothing();
    test_waypoints();
    test_crowd(argv[1]);
    test_movement(argv[1], GAMEPLAN_RESOLVER_BUILTIN);
    test_movement(argv[1], GAMEPLAN_RESOLVER_CROWD);
    if (argc > 2) test_benchmark_domains(argv[2]);
    else printf("skipped the GOAP benchmark domains: no BENCHMARK_DATA_DIR argument\n");
    printf("%d checks, %d failures\n", g_checks, g_failures);
    return g_failures == 0 ? 0 : 1;
}
