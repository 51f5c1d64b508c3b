"""Tests of the gameplan Python module.

plan_file and path_file are compared with the CLI's --json output for the same inputs (GAMEPLAN_CLI);
the classes are compared with references written here (brute-force planning over every state, breadth-
first search on grids) and with the optimal lengths of a MovingAI scenario file.
"""
import heapq
import itertools
import json
import math
import os
import random
import subprocess
from fractions import Fraction

import pytest

import gameplan

SOURCE = os.environ.get("GAMEPLAN_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
CLI = os.environ.get("GAMEPLAN_CLI")
needs_cli = pytest.mark.skipif(not CLI, reason="GAMEPLAN_CLI is not set (the CLI is not built)")

DOMAINS = sorted(
    [os.path.join(SOURCE, "examples", "goap", f) for f in os.listdir(os.path.join(SOURCE, "examples", "goap")) if f.endswith(".json")]
    + [os.path.join(SOURCE, "tests", "io", "data", f) for f in ("guard.csv", "guard_blind.csv")]
)
# The GOAP benchmark domains (GAMEPLAN_BENCHMARK_DATA_DIR/goap) too, when present.
BENCH_GOAP = os.path.join(os.environ.get("GAMEPLAN_BENCHMARK_DATA_DIR", ""), "goap")
if os.path.isdir(BENCH_GOAP):
    DOMAINS += sorted(os.path.join(BENCH_GOAP, f) for f in os.listdir(BENCH_GOAP) if f.endswith(".json"))
ROOMS = os.path.join(SOURCE, "examples", "maps", "rooms.map")
TIMING = {"micros", "setup_micros", "preprocess_ms"}


def run_cli(*args):
    proc = subprocess.run([CLI, *args], capture_output=True, text=True, check=False)
    assert proc.returncode in (0, 1, 2), proc.stderr
    return json.loads(proc.stdout.strip().splitlines()[-1])


def without_timing(d):
    return {k: v for k, v in d.items() if k not in TIMING}


def scenarios(path):
    out = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            parts = line.split()
            if len(parts) == 9:
                out.append(((int(parts[4]), int(parts[5])), (int(parts[6]), int(parts[7])), float(parts[8])))
    return out


# ---- the CLI's --json objects ----

@needs_cli
@pytest.mark.parametrize("domain", DOMAINS, ids=os.path.basename)
def test_plan_file_equals_cli(domain):
    goals = [None] + gameplan.load_domain(domain).goal_names
    for goal, direction in itertools.product(goals, ("backward", "forward")):
        args = ["plan", domain, "--direction", direction, "--json"]
        if goal is not None:
            args += ["--goal", goal]
        expected = run_cli(*args)
        got = gameplan.plan_file(domain, goal=goal, direction=direction)
        assert list(got.keys()) == list(expected.keys())
        assert without_timing(got) == without_timing(expected), (domain, goal, direction)
        assert type(got["cost"]) is type(expected["cost"])


@needs_cli
@pytest.mark.parametrize("domain", [d for d in DOMAINS if os.sep + "examples" + os.sep in d], ids=os.path.basename)
def test_plan_file_auto_direction_equals_cli(domain):
    expected = run_cli("plan", domain, "--direction", "auto", "--json")
    got = gameplan.plan_file(domain, direction="auto")
    assert list(got.keys()) == list(expected.keys())
    assert without_timing(got) == without_timing(expected)
    assert got["direction"] in ("forward", "backward")
    if got["status"] == "found":  # the same optimal cost as a single direction
        assert got["cost"] == gameplan.plan_file(domain, direction="forward")["cost"]


# Every algorithm of `gameplan path`: the exact ones return the scenario file's optimum, HPA* never less,
# the any-angle ones (Theta*, navmesh) never more.
PATH_ALGORITHMS = [("astar", []), ("dijkstra", []), ("jps", []), ("jps-plus", []), ("subgoal", []), ("hpa", []),
                   ("hpa", ["--cluster-size", "8"]), ("theta", []), ("navmesh", []), ("navmesh-ch", [])]


@needs_cli
@pytest.mark.parametrize("algorithm,extra", PATH_ALGORITHMS, ids=lambda v: v if isinstance(v, str) else "-".join(v))
def test_path_file_equals_cli(algorithm, extra):
    scen = scenarios(ROOMS + ".scen")
    for start, goal, optimal in scen[::8]:  # short to long
        expected = run_cli("path", ROOMS, "--from", "%d,%d" % start, "--to", "%d,%d" % goal,
                           "--algorithm", algorithm, *extra, "--json")
        kwargs = {"cluster_size": int(extra[1])} if extra else {}
        got = gameplan.path_file(ROOMS, start, goal, algorithm=algorithm, **kwargs)
        assert list(k for k in got if k not in TIMING) == list(k for k in expected if k not in TIMING)
        assert without_timing(got) == without_timing(expected)
        assert got["status"] == "found"
        if algorithm == "hpa":
            assert got["cost"] >= optimal - 1e-4
        elif algorithm in ("theta", "navmesh", "navmesh-ch"):
            assert got["cost"] <= optimal + 1e-4
        else:
            assert abs(got["cost"] - optimal) < 1e-4


@needs_cli
@pytest.mark.parametrize("algorithm", ["hpa", "theta", "subgoal", "navmesh", "navmesh-ch"])
def test_path_file_blocked_goal_equals_cli(algorithm):
    m = gameplan.load_map(ROOMS)
    blocked = next((x, y) for y in range(m.height) for x in range(m.width) if not m.passable(x, y))
    expected = run_cli("path", ROOMS, "--from", "5,5", "--to", "%d,%d" % blocked, "--algorithm", algorithm, "--json")
    got = gameplan.path_file(ROOMS, (5, 5), blocked, algorithm=algorithm)
    assert without_timing(got) == without_timing(expected)
    assert got["status"] == "invalid_query"


@needs_cli
@pytest.mark.parametrize("algorithm", ["astar", "dijkstra"])
def test_path_file_hex_equals_cli(algorithm):
    m = gameplan.load_map(ROOMS)
    blocked = next((x, y) for y in range(m.height) for x in range(m.width) if not m.passable(x, y))
    cases = [(start, goal) for start, goal, _ in scenarios(ROOMS + ".scen")[::8]] + [((5, 5), blocked)]
    for start, goal in cases:
        expected = run_cli("path", ROOMS, "--from", "%d,%d" % start, "--to", "%d,%d" % goal, "--topology", "hex",
                           "--algorithm", algorithm, "--json")
        got = gameplan.path_file(ROOMS, start, goal, algorithm=algorithm, topology="hex")
        assert list(k for k in got if k not in TIMING) == list(k for k in expected if k not in TIMING)
        assert without_timing(got) == without_timing(expected)
        if goal != blocked:
            assert got["status"] == "found" and got["cost"] == hex_bfs(m, start, goal)
    with pytest.raises(ValueError, match="astar or dijkstra"):
        gameplan.path_file(ROOMS, (1, 1), (2, 2), algorithm="jps", topology="hex")


@needs_cli
def test_path_file_blocked_start_equals_cli():
    m = gameplan.load_map(ROOMS)
    blocked = next((x, y) for y in range(m.height) for x in range(m.width) if not m.passable(x, y))
    expected = run_cli("path", ROOMS, "--from", "%d,%d" % blocked, "--to", "5,5", "--json")
    got = gameplan.path_file(ROOMS, blocked, (5, 5))
    assert without_timing(got) == without_timing(expected)
    assert got["status"] == "invalid_query" and "error" in got


def test_errors_are_python_exceptions(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"actions": [ {"name": "x", "cost": -1} ]}')
    with pytest.raises(gameplan.LoadError, match="bad.json"):
        gameplan.plan_file(str(bad))
    with pytest.raises(ValueError):
        gameplan.plan_file(DOMAINS[0], goal="no such goal")
    with pytest.raises(ValueError):
        gameplan.path_file(ROOMS, (-1, 0), (1, 1))
    with pytest.raises(gameplan.LoadError):
        gameplan.load_map(str(tmp_path / "missing.map"))


# ---- planner ----

def brute_force_cost(n, actions, start, goal):
    """Dijkstra over all 2^n states. actions: (cost, pre{i: v}, eff{i: v})."""
    def holds(state, cond):
        return all(((state >> i) & 1) == v for i, v in cond.items())
    dist = {start: 0.0}
    heap = [(0.0, start)]
    while heap:
        d, s = heapq.heappop(heap)
        if d > dist[s]:
            continue
        if holds(s, goal):
            return d
        for cost, pre, eff in actions:
            if holds(s, pre):
                t = s
                for i, v in eff.items():
                    t = (t | (1 << i)) if v else (t & ~(1 << i))
                if d + cost < dist.get(t, math.inf):
                    dist[t] = d + cost
                    heapq.heappush(heap, (d + cost, t))
    return math.inf


def test_planner_matches_brute_force():
    rng = random.Random(7)
    found = none = 0
    for _ in range(120):
        n = rng.randint(3, 7)
        b = gameplan.DomainBuilder()
        for i in range(n):
            assert b.add_atom("a%d" % i) == i
        actions = []
        for k in range(rng.randint(3, 12)):
            pre = {i: rng.random() < 0.5 for i in rng.sample(range(n), rng.randint(0, 2))}
            eff = {i: rng.random() < 0.6 for i in rng.sample(range(n), rng.randint(1, 2))}
            cost = float(rng.randint(1, 5))
            b.add_action("act%d" % k, cost, {"a%d" % i: v for i, v in pre.items()}, {"a%d" % i: v for i, v in eff.items()})
            actions.append((cost, pre, eff))
        domain = b.build()
        planner = gameplan.Planner(domain)
        start = rng.getrandbits(n)
        goal = {i: rng.random() < 0.5 for i in rng.sample(range(n), rng.randint(1, 3))}
        ref = brute_force_cost(n, actions, start, goal)
        for direction in ("backward", "forward", "auto"):
            r = planner.plan({"a%d" % i: bool((start >> i) & 1) for i in range(n)},
                             {"a%d" % i: v for i, v in goal.items()}, direction=direction)
            if math.isinf(ref):
                assert r.status == "no_plan"
                none += 1
            else:
                assert r.status == "found"
                assert r.cost == pytest.approx(ref)
                assert r.plan == [domain.action_name(a) for a in r.actions]
                assert sum(actions[a][0] for a in r.actions) == pytest.approx(r.cost)
                found += 1
    assert found > 40 and none > 5


def test_domain_file_plan():
    f = gameplan.load_domain(os.path.join(SOURCE, "examples", "goap", "wood_collection.json"))
    r = f.plan()
    # The file's comment: walk_to_forest + 20 x chop_2, cost 39.
    assert r.status == "found" and r.cost == 39 and len(r.plan) == 21
    assert r.plan[0] == "walk_to_forest" and set(r.plan[1:]) == {"chop_2"}
    assert f.domain.has_variables
    capped = f.plan(max_expansions=1)
    assert capped.status == "budget_exhausted" and capped.limit == "expansions"
    assert r.limit == ""
    # Three counters to raise to 1,000 (a billion states): the memory and time budgets stop the search.
    counters = gameplan.load_domain(os.path.join(SOURCE, "tests", "cli", "data", "counters_3x1000.json"))
    small = counters.plan(max_memory=2 << 20, max_expansions=5_000_000)
    assert small.status == "budget_exhausted" and small.limit == "memory"
    late = counters.plan(time_limit=0.05)
    assert late.status == "budget_exhausted" and late.limit == "time"
    planner = gameplan.Planner(counters.domain)
    r2 = planner.plan({}, {"x": 1000, "y": 1000, "z": 1000}, max_memory=2 << 20, max_expansions=5_000_000)
    assert r2.status == "budget_exhausted" and r2.limit == "memory"
    with pytest.raises(ValueError):
        counters.plan(time_limit=-1)


# ---- grids ----

def bfs(m, s, g):
    if not m.passable(*s) or not m.passable(*g):
        return None
    dist = {s: 0}
    queue = [s]
    for cell in queue:
        x, y = cell
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if m.passable(*n) and n not in dist:
                dist[n] = dist[cell] + 1
                queue.append(n)
    return dist.get(g, math.inf)


def test_grid_pathfinder_matches_bfs():
    rng = random.Random(3)
    m = gameplan.GridMap(20, 12)
    finder = gameplan.GridPathfinder()
    for _ in range(80):
        for _ in range(25):
            m.set_passable(rng.randrange(20), rng.randrange(12), rng.random() < 0.5)
        s = (rng.randrange(20), rng.randrange(12))
        g = (rng.randrange(20), rng.randrange(12))
        ref = bfs(m, s, g)
        r = finder.find_path(m, s, g, movement=4)
        if ref is None:
            assert r.status == "invalid_query"
        elif math.isinf(ref):
            assert r.status == "no_path" and r.cells == []
        else:
            assert r.status == "found" and r.cost == ref and len(r.cells) == ref + 1
            assert r.cells[0] == s and r.cells[-1] == g


def test_pathfinders_and_queue_reach_the_scenario_optima():
    m = gameplan.load_map(ROOMS)
    scen = scenarios(ROOMS + ".scen")
    astar, jps = gameplan.GridPathfinder(), gameplan.JpsPathfinder()
    for start, goal, optimal in scen:
        assert astar.find_path(m, start, goal).cost == pytest.approx(optimal, abs=1e-4)
        assert jps.find_path(m, start, goal).cost == pytest.approx(optimal, abs=1e-4)
    q = gameplan.PathRequestQueue(m, lanes=2)
    handles = [q.submit(s, g, priority=i % 3) for i, (s, g, _) in enumerate(scen)]
    assert len(q) == len(scen)
    results, frames = {}, 0
    while len(results) < len(handles) and frames < 100000:
        q.update(50)
        frames += 1
        for i, h in enumerate(handles):
            if i not in results and q.state(h) == "done":
                results[i] = q.take(h)
    assert frames > 5 and len(q) == 0
    for i, (_, _, optimal) in enumerate(scen):
        assert results[i].status == "found" and results[i].cost == pytest.approx(optimal, abs=1e-4)


def test_queue_requests_take_budgets_and_islands():
    m = gameplan.GridMap(40, 30)
    for y in range(30):
        m.set_passable(20, y, False)
    islands = gameplan.Islands(m)
    q = gameplan.PathRequestQueue(m)
    plain = q.submit((0, 0), (39, 29))
    fast = q.submit((0, 0), (39, 29), priority=1, islands=islands)
    capped = q.submit((0, 0), (19, 29), priority=1, max_expansions=3)
    near = q.submit((0, 0), (5, 5), priority=1, islands=islands)
    q.update(10)
    r = q.take(fast)
    assert r.status == "no_path" and r.expanded == 0  # answered by the islands in the first update
    frames = 1
    while q.state(plain) != "done" and frames < 10000:
        q.update(10)
        frames += 1
    r = q.take(plain)
    assert r.status == "no_path" and r.expanded > 500 and frames > 20  # the flood of the left half
    r = q.take(capped)
    assert r.status == "budget_exhausted" and r.limit == "expansions"
    r = q.take(near)
    assert r.status == "found" and r.cost == pytest.approx(5 * math.sqrt(2))


def legal_path_cost(m, cells):
    """The 8-connected cost of `cells` on m as it is now, after asserting every cell open and every step one cell."""
    assert all(m.passable(x, y) for x, y in cells)
    cost = 0.0
    for (ax, ay), (bx, by) in zip(cells, cells[1:]):
        assert max(abs(bx - ax), abs(by - ay)) == 1
        cost += m.cost(bx, by) * (math.sqrt(2) if ax != bx and ay != by else 1.0)
    return cost


def race(loose, strict, change, frames):
    """One request from (0, 0) to (39, 0) in each queue, 5 expansions an update after each change(frame):
    the loose queue's search finishes while the strict one's is still running. Returns the loose result."""
    h, hs = loose.submit((0, 0), (39, 0)), strict.submit((0, 0), (39, 0))
    for frame in range(frames):
        change(frame)
        loose.update(5)
        strict.update(5)
        if loose.state(h) == "done":
            break
    assert loose.state(h) == "done" and strict.state(hs) == "running"
    r = loose.take(h)
    assert r.status == "found"
    return r


def test_queue_goes_on_through_cost_changes_unless_told_to_restart():
    # Costs painted before every update: the search finishes (it would restart forever otherwise), with a
    # path legal on the final map and priced on its final costs.
    m = gameplan.GridMap(40, 40)
    for y in range(35):
        m.set_passable(20, y, False)
    r = race(gameplan.PathRequestQueue(m), gameplan.PathRequestQueue(m, restart_on_cost_change=True),
             lambda frame: m.set_cost(frame % 40, 39, 1 + frame % 3), 2000)
    assert r.cost == pytest.approx(legal_path_cost(m, r.cells), rel=1e-12)
    with pytest.raises(TypeError):
        gameplan.PathRequestQueue(None)


def test_queue_can_go_on_through_cells_opening_and_closing():
    # A cell inside a walled-off yard flips before every update: the default queue restarts the search each
    # time and never finishes; with restart_on_passability_change off it finishes with a legal path.
    m = gameplan.GridMap(40, 40)
    for y in range(35):
        m.set_passable(20, y, False)
    for i in range(8):
        m.set_passable(i, 31, False)
        m.set_passable(8, 32 + i, False)
    r = race(gameplan.PathRequestQueue(m, restart_on_passability_change=False), gameplan.PathRequestQueue(m),
             lambda frame: m.set_passable(frame % 8, 35, frame % 2 == 0), 3000)
    legal_path_cost(m, r.cells)


def test_queue_keeps_the_islands_of_its_requests_alive():
    # The queue's requests point at their Islands: the object must outlive them even when the caller
    # drops it (it was freed under a pending request), and is released once the request is taken.
    import gc
    import weakref
    m = gameplan.GridMap(60, 60)
    for y in range(60):
        m.set_passable(30, y, False)
    q = gameplan.PathRequestQueue(m)
    isl = gameplan.Islands(m)
    alive = weakref.ref(isl)
    h = q.submit((0, 0), (59, 59), islands=isl)
    cancelled = q.submit((0, 0), (10, 10), islands=isl)
    del isl
    gc.collect()
    assert alive() is not None
    assert q.cancel(cancelled)
    gc.collect()
    assert alive() is not None  # still used by the first request
    q.update(10)
    r = q.take(h)
    assert r.status == "no_path" and r.expanded == 0
    gc.collect()
    assert alive() is None


def test_movement_options_reach_the_system():
    m = gameplan.GridMap(30, 30)
    for y in range(25):
        m.set_passable(15, y, False)
    capped = gameplan.MovementSystem(m, search_budget=3)  # far too little for the way round the wall
    u = capped.add_unit((0, 0))
    capped.move_to(u, (29, 0))
    capped.update(3)
    assert capped.status(u) == "failed" and capped.failure(u) == "budget"
    plain = gameplan.MovementSystem(m, lanes=1, smooth=False, claim_cells=0, detour_after=0, path_weight=1.0)
    u = plain.add_unit((0, 0))
    plain.move_to(u, (29, 0))
    plain.update(80)
    assert plain.status(u) == "arrived" and plain.position(u) == (29, 0)
    for bad in ({"lanes": 5000}, {"path_weight": 0.5}, {"claim_penalty": float("nan")}, {"claim_weight": -1.0}):
        with pytest.raises(ValueError):
            gameplan.MovementSystem(m, **bad)


def test_limits_are_refused_clearly():
    m = gameplan.GridMap(8, 8)
    with pytest.raises(ValueError, match="lanes must be at most 1024"):
        gameplan.PathRequestQueue(m, lanes=1025)
    with pytest.raises(ValueError, match="anytime needs"):
        gameplan.CrowdSolver().solve(m, [(0, 0), (7, 7)], [(7, 7), (0, 0)], anytime=True)
    r = gameplan.CrowdSolver().solve(m, [(0, 0), (7, 7)], [(7, 7), (0, 0)], anytime=True, max_expansions=500)
    assert r["status"] == "found" and r["sum_of_costs"] >= r["lower_bound"]
    # Time limits beyond what the clock can count are no limit, never an overflow; NaN and negatives are refused.
    for huge in (1e9, 1e300, float("inf")):
        assert gameplan.GridPathfinder().find_path(m, (0, 0), (7, 7), time_limit=huge).status == "found"
    for bad in (-1.0, float("nan")):
        with pytest.raises(ValueError, match="time_limit"):
            gameplan.GridPathfinder().find_path(m, (0, 0), (7, 7), time_limit=bad)


def test_movement_with_islands_fails_across_the_water_at_once():
    m = gameplan.GridMap(40, 30)
    for y in range(30):
        m.set_passable(20, y, False)
    with_ = gameplan.MovementSystem(m, path_budget=16, islands=gameplan.Islands(m))  # the system keeps them alive
    without = gameplan.MovementSystem(m, path_budget=16)
    a, b = with_.add_unit((1, 1)), without.add_unit((1, 1))
    assert with_.move_to(a, (35, 25)) and without.move_to(b, (35, 25))
    with_.update()
    without.update()
    assert with_.status(a) == "failed" and with_.failure(a) == "no_path"
    assert without.status(b) == "planning"  # still flooding the left half, 16 cells an update


def test_movement_layers_route_units_around_danger():
    m = gameplan.GridMap(14, 9)
    danger = gameplan.InfluenceMap(m)
    for y in range(2, 7):
        danger.set(7, y, 50.0)  # a band across the straight way, open above and below
    walked = {}
    for name, layers in (("plain", None), ("wary", [[danger, 1.0]])):  # (a list as a pair, too)
        system = gameplan.MovementSystem(m, layers=layers)  # the system keeps the layer alive
        unit = system.add_unit((1, 4))
        assert system.move_to(unit, (12, 4))
        cells = set()
        for _ in range(40):
            system.update()
            cells.add(tuple(system.position(unit)))
        assert system.status(unit) == "arrived", name
        walked[name] = cells
    band = {(7, y) for y in range(2, 7)}
    assert walked["plain"] & band  # the straight way crosses the band
    assert not walked["wary"] & band  # the wary unit goes round it
    with pytest.raises(ValueError, match="weight must be finite"):
        gameplan.MovementSystem(m, layers=[(danger, float("nan"))])


def test_pathfinder_budgets_name_the_limit():
    # An open 300 x 300 map: corner to corner takes A* hundreds of expansions and its state far more than 1 KiB.
    m = gameplan.GridMap(300, 300)
    s, g = (0, 0), (299, 299)
    full = gameplan.GridPathfinder().find_path(m, s, g)
    assert full.status == "found" and full.limit == "" and full.expanded > 100
    for kwargs, limit in (({"max_expansions": 5}, "expansions"), ({"max_memory": 1024}, "memory"),
                          ({"time_limit": 1e-9}, "time")):
        r = gameplan.GridPathfinder().find_path(m, s, g, **kwargs)
        assert r.status == "budget_exhausted" and r.limit == limit and r.cells == [], kwargs
    # JPS and HPA* take the same budgets.
    rng = random.Random(9)
    walls = gameplan.GridMap(120, 120)
    for _ in range(3000):
        walls.set_passable(rng.randrange(1, 119), rng.randrange(1, 119), False)
    jps = gameplan.JpsPathfinder()
    assert jps.find_path(walls, (0, 0), (119, 119)).status == "found"
    r = jps.find_path(walls, (0, 0), (119, 119), max_expansions=2)
    assert r.status == "budget_exhausted" and r.limit == "expansions"
    r = gameplan.JpsPathfinder().find_path(walls, (0, 0), (119, 119), max_memory=1024)
    assert r.status == "budget_exhausted" and r.limit == "memory"
    h = gameplan.HierarchicalMap(walls, cluster_size=10)
    hpa = gameplan.HpaPathfinder()
    assert hpa.find_path(h, (0, 0), (119, 119)).limit == ""
    r = hpa.find_path(h, (0, 0), (119, 119), max_expansions=1)
    assert r.status == "budget_exhausted" and r.limit == "expansions"
    with pytest.raises(ValueError):
        gameplan.GridPathfinder().find_path(m, s, g, time_limit=-1)


# ---- agents ----

def woodcutter_domain():
    b = gameplan.DomainBuilder()
    b.add_atom("has_axe")
    b.add_atom("has_wood")
    b.add_atom("wood_stored", shared=True)
    b.add_action("get_axe", 2, {}, {"has_axe": True})
    b.add_action("chop", 1, {"has_axe": True}, {"has_wood": True})
    b.add_action("gather", 5, {}, {"has_wood": True})
    b.add_action("deliver", 1, {"has_wood": True}, {"wood_stored": True, "has_wood": False})
    return b.build()


def woodcutter(threads, cheap_hands=None):
    domain = woodcutter_domain()
    log = []
    tb = gameplan.AgentTypeBuilder(domain, "woodcutter")
    for name in ("get_axe", "chop", "gather", "deliver"):
        tb.bind(name, lambda ctx: "success" if ctx["ticks_running"] >= 1 else "running",
                start=lambda ctx: log.append((ctx["agent_name"], ctx["action"], ctx["user_data"])))
    if cheap_hands is not None:
        tb.set_cost("gather", lambda ctx: cheap_hands)
    agent_type = tb.build()
    system = gameplan.AgentSystem(domain, threads=threads)
    agent = system.add_agent("ann", agent_type, [("store", {"wood_stored": True}, 1.0)], user_data={"id": 7})
    for _ in range(20):
        system.tick()
    return system, agent, log


@pytest.mark.parametrize("threads", [0, 2])
def test_agents_run_python_behaviours(threads):
    system, agent, log = woodcutter(threads)
    assert [a for _, a, _ in log] == ["get_axe", "chop", "deliver"]  # cost 4 < gather + deliver (6)
    assert all(n == "ann" and u == {"id": 7} for n, _, u in log)
    assert system.blackboard_get("wood_stored")
    info = system.agent_info(agent)
    assert info["status"] == "idle" and info["actions_succeeded"] == 3
    # The world changes: the agent (who has an axe now) chops and delivers again.
    system.blackboard_set("wood_stored", False)
    for _ in range(10):
        system.tick()
    assert [a for _, a, _ in log][3:] == ["chop", "deliver"]
    with pytest.raises(ValueError):
        system.blackboard_set("has_axe", True)
    assert system.remove_agent(agent) and not system.remove_agent(agent)

    system, agent, log = woodcutter(threads, cheap_hands=0.5)
    assert [a for _, a, _ in log] == ["gather", "deliver"]


def test_binding_errors():
    b = gameplan.DomainBuilder()
    b.add_atom("x")
    b.add_action("act", 1, {}, {"x": True})
    tb = gameplan.AgentTypeBuilder(b.build(), "t")
    with pytest.raises(ValueError, match="fly"):
        tb.bind("fly", lambda ctx: "success")
    with pytest.raises(ValueError, match="act"):
        tb.build()  # "act" has no behaviour


@pytest.mark.parametrize("threads", [0, 2])
def test_exceptions_in_callbacks_are_raised_by_tick(threads):
    b = gameplan.DomainBuilder()
    b.add_atom("done", shared=True)
    b.add_action("work", 1, {}, {"done": True})
    domain = b.build()

    def boom(ctx):
        raise RuntimeError("behaviour failed on purpose")

    tb = gameplan.AgentTypeBuilder(domain, "t")
    tb.bind("work", boom)
    system = gameplan.AgentSystem(domain, threads=threads)
    agent = system.add_agent("a", tb.build(), [("g", {"done": True}, 1.0)])
    with pytest.raises(RuntimeError, match="on purpose"):
        system.tick()
    assert system.agent_info(agent)["actions_failed"] == 1  # counted as a failure, the runtime went on
    assert not system.blackboard_get("done")

    tb = gameplan.AgentTypeBuilder(domain, "t2")
    tb.bind("work", lambda ctx: "success")
    tb.set_cost("work", lambda ctx: 1 / 0)
    system = gameplan.AgentSystem(domain, threads=threads)
    agent = system.add_agent("a", tb.build(), [("g", {"done": True}, 1.0)])
    with pytest.raises(ZeroDivisionError):
        system.tick()
    assert system.agent_info(agent)["status"] == "idle"  # the only action was disabled: no plan


def test_callbacks_cannot_change_the_agent_set_during_a_tick():
    b = gameplan.DomainBuilder()
    b.add_atom("done", shared=True)
    b.add_action("work", 1, {}, {"done": True})
    domain = b.build()
    holder = {}

    def meddle(ctx):
        holder["system"].remove_agent(ctx["agent"])
        return "success"

    tb = gameplan.AgentTypeBuilder(domain, "t")
    tb.bind("work", meddle)
    system = gameplan.AgentSystem(domain)
    holder["system"] = system
    agent = system.add_agent("a", tb.build(), [("g", {"done": True}, 1.0)])
    with pytest.raises(ValueError, match="during a tick"):
        system.tick()
    assert system.agent_count == 1 and system.agent_info(agent)["actions_failed"] == 1


# ---- variables (numbers and choices) ----

def numeric_reference(walk, start, goal_gold):
    """Dijkstra over every (location, wood, gold) state of the market domain built below."""
    def moves(s):
        loc, wood, gold = s
        for (a, b), c in walk.items():
            if loc == a:
                yield (b, wood, gold), c
        if loc == 1 and wood + 1 <= 4:
            yield (loc, wood + 1, gold), 2          # chop
        if loc == 2 and wood >= 1 and gold + 3 <= 9:
            yield (loc, wood - 1, gold + 3), 1      # sell
        if loc == 0 and gold + 1 <= 9:
            yield (loc, wood, gold + 1), 5          # work
    dist = {start: 0}
    heap = [(0, start)]
    while heap:
        d, s = heapq.heappop(heap)
        if d > dist[s]:
            continue
        if s[2] >= goal_gold:
            return d
        for n, c in moves(s):
            if d + c < dist.get(n, math.inf):
                dist[n] = d + c
                heapq.heappush(heap, (d + c, n))
    return None


def test_planner_with_variables_matches_brute_force():
    rng = random.Random(7)
    places = ["home", "forest", "market"]
    for _ in range(12):
        b = gameplan.DomainBuilder()
        b.add_enum_variable("loc", places)
        b.add_integer_variable("wood", 0, 4)
        b.add_integer_variable("gold", 0, 9)
        walk = {}
        for a in range(3):
            for c in range(3):
                if a != c:
                    walk[(a, c)] = rng.randint(1, 4)
                    b.add_numeric_action("walk_%s_%s" % (places[a], places[c]), walk[(a, c)],
                                         comparisons=[("loc", "==", a)], numeric_effects=[("loc", "=", c)])
        b.add_numeric_action("chop", 2, comparisons=[("loc", "==", 1)], numeric_effects=[("wood", "+", 1)])
        b.add_numeric_action("sell", 1, comparisons=[("loc", "==", 2), ("wood", ">=", 1)],
                             numeric_effects=[("wood", "-", 1), ("gold", "+", 3)])
        b.add_numeric_action("work", 5, comparisons=[("loc", "==", 0)], numeric_effects=[("gold", "+", 1)])
        d = b.build()
        assert d.has_variables and d.variables == ["loc", "wood", "gold"]
        assert d.variable("loc")["values"] == places and d.variable("gold")["max"] == 9
        start = (rng.randrange(3), rng.randint(0, 4), rng.randint(0, 3))
        goal_gold = rng.randint(1, 9)
        expected = numeric_reference(walk, start, goal_gold)
        r = gameplan.Planner(d).plan({"loc": places[start[0]], "wood": start[1], "gold": start[2]},
                                     {"gold": (">=", goal_gold)})
        assert r.status == "found" and expected is not None
        assert r.cost == expected
    with pytest.raises(ValueError):
        gameplan.Planner(d).plan({"gold": 10}, {"gold": (">=", 1)})
    with pytest.raises(ValueError):
        gameplan.Planner(d).plan({}, {"loc": ("<", "market")})


def test_agents_with_variables():
    b = gameplan.DomainBuilder()
    b.add_integer_variable("gold", 0, 5)
    b.add_integer_variable("stock", 0, 9, shared=True)
    b.add_numeric_action("earn", 1, numeric_effects=[("gold", "+", 1)])
    d = b.build()
    tb = gameplan.AgentTypeBuilder(d, "miner")
    tb.bind("earn", lambda ctx: "success")
    system = gameplan.AgentSystem(d)
    agent = system.add_agent("ann", tb.build(), [("rich", {"gold": (">=", 3)}, 1.0)], state={"gold": 1})
    assert system.agent_get_value(agent, "gold") == 1
    for _ in range(6):
        system.tick()
    assert system.agent_get_value(agent, "gold") == 3      # two earns, then the goal holds
    system.agent_set_value(agent, "gold", 0)
    system.blackboard_set_value("stock", 4)
    assert system.blackboard_get_value("stock") == 4
    assert system.agent_get_value(agent, "stock") == 4
    with pytest.raises(ValueError):
        system.agent_set_value(agent, "stock", 1)          # shared: the blackboard's
    with pytest.raises(ValueError):
        system.agent_set_value(agent, "gold", 6)           # outside its bounds


# ---- HPA*, crowds, movement ----

def test_hpa_classes_against_scenarios():
    m = gameplan.load_map(ROOMS)
    h = gameplan.HierarchicalMap(m, cluster_size=8)
    assert h.cluster_count == 4 * 3 and h.node_count > 0
    f = gameplan.HpaPathfinder()
    for start, goal, optimal in scenarios(ROOMS + ".scen"):
        r = f.find_path(h, start, goal)
        assert r.status == "found"
        assert r.cells[0] == start and r.cells[-1] == goal
        assert optimal - 1e-4 <= r.cost <= optimal * 1.15 + 1e-4
        for (x0, y0), (x1, y1) in zip(r.cells, r.cells[1:]):
            assert max(abs(x1 - x0), abs(y1 - y0)) == 1 and m.passable(x1, y1)


def bfs_distance(m, s, g):
    dist = {s: 0}
    todo = [s]
    for x, y in todo:
        for n in ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)):
            if 0 <= n[0] < m.width and 0 <= n[1] < m.height and m.passable(*n) and n not in dist:
                dist[n] = dist[(x, y)] + 1
                todo.append(n)
    return dist.get(g)


def free_cells(m, rng, count):
    cells = [(x, y) for y in range(m.height) for x in range(m.width) if m.passable(x, y)]
    return rng.sample(cells, count)


def test_crowd_solver_names_an_agent_that_cannot_reach_its_goal():
    m = gameplan.GridMap(9, 4)
    for y in range(4):
        m.set_passable(4, y, False)
    # agent 0 stays on its side, agent 1 would have to cross the wall
    r = gameplan.CrowdSolver().solve(m, [(0, 0), (1, 1)], [(3, 3), (7, 2)])
    assert r["status"] == "no_path" and r["unreachable_agent"] == 1 and r["paths"] == []


def test_crowd_solver_paths_are_conflict_free():
    m = gameplan.load_map(ROOMS)
    rng = random.Random(3)
    solver = gameplan.CrowdSolver()
    for agents in (5, 15):
        starts, goals = free_cells(m, rng, agents), free_cells(m, rng, agents)
        r = solver.solve(m, starts, goals)
        assert r["status"] == "found" and r["limit"] == "" and r["unreachable_agent"] is None
        # the agents' distance tables alone take more than 1 KiB
        small = gameplan.CrowdSolver().solve(m, starts, goals, max_memory=1024)
        assert small["status"] == "budget_exhausted" and small["limit"] == "memory"
        assert r["lower_bound"] == sum(bfs_distance(m, s, g) for s, g in zip(starts, goals))
        assert r["sum_of_costs"] == sum(r["costs"]) >= r["lower_bound"]
        paths = r["paths"]
        for i, p in enumerate(paths):
            assert p[0] == starts[i] and p[-1] == goals[i] and len(p) == r["makespan"] + 1
            assert all(c == goals[i] for c in p[r["costs"][i]:])
        for t in range(1, r["makespan"] + 1):
            now = [p[t] for p in paths]
            assert len(set(now)) == agents
            for i, p in enumerate(paths):
                (x0, y0), (x1, y1) = p[t - 1], p[t]
                assert abs(x1 - x0) + abs(y1 - y0) <= 1 and m.passable(x1, y1)
                for j in range(i + 1, agents):
                    assert not (paths[j][t - 1] == p[t] and paths[j][t] == p[t - 1] and p[t] != p[t - 1])
    assert solver.solve(m, [starts[0], starts[0]], goals[:2])["status"] == "invalid_query"


@pytest.mark.parametrize("resolver", ["builtin", "crowd"])
def test_movement_units_arrive_without_collisions(resolver):
    m = gameplan.load_map(ROOMS)
    rng = random.Random(5)
    mv = gameplan.MovementSystem(m, movement=4 if resolver == "crowd" else 8, resolver=resolver)
    starts, goals = free_cells(m, rng, 10), free_cells(m, rng, 10)
    units = [mv.add_unit(s) for s in starts]
    with pytest.raises(ValueError):
        mv.add_unit(starts[0])
    for u, g in zip(units, goals):
        assert mv.move_to(u, g)
    arrived = set()
    for _ in range(300):
        before = mv.positions
        mv.update()
        after = mv.positions
        assert len(set(after.values())) == len(units)
        for u in units:
            (x0, y0), (x1, y1) = before[u], after[u]
            assert max(abs(x1 - x0), abs(y1 - y0)) <= 1 and m.passable(x1, y1)
            if mv.status(u) == "arrived" and u not in arrived:
                assert after[u] == goals[units.index(u)]
                arrived.add(u)
        if len(arrived) == len(units):
            break
    assert len(arrived) == len(units)
    assert mv.stats["arrivals"] == len(units)
    assert not mv.move_to(units[0], (0, 0)) and mv.failure(units[0]) == "invalid_goal"


# ---- hex grids, graphs and navigation meshes ----

def hex_bfs(m, s, g):
    """Hex steps from s to g on m read as an odd-r hex map (None when unreachable)."""
    def neighbours(x, y):
        odd = y & 1
        for dx, dy in ((1, 0), (-1, 0), (odd - 1, -1), (odd, -1), (odd - 1, 1), (odd, 1)):
            yield x + dx, y + dy
    dist = {s: 0}
    frontier = [s]
    while frontier:
        nxt = []
        for c in frontier:
            if c == g:
                return dist[c]
            for n in neighbours(*c):
                if 0 <= n[0] < m.width and 0 <= n[1] < m.height and m.passable(*n) and n not in dist:
                    dist[n] = dist[c] + 1
                    nxt.append(n)
        frontier = nxt
    return None


def random_grid(rng, w, h, density):
    m = gameplan.GridMap(w, h)
    for y in range(h):
        for x in range(w):
            if rng.random() < density:
                m.set_passable(x, y, False)
    return m


def free_cell(rng, m):
    while True:
        c = (rng.randrange(m.width), rng.randrange(m.height))
        if m.passable(*c):
            return c


def test_hex_pathfinder_matches_hex_bfs():
    rng = random.Random(12)
    finder = gameplan.HexPathfinder()
    found = 0
    for _ in range(6):
        m = random_grid(rng, 24, 18, 0.25)
        for _ in range(15):
            s, g = free_cell(rng, m), free_cell(rng, m)
            ref = hex_bfs(m, s, g)
            for heuristic in ("auto", "zero"):
                r = finder.find_path(m, s, g, heuristic=heuristic)
                if ref is None:
                    assert r.status == "no_path"
                    continue
                found += 1
                assert r.status == "found" and r.cost == ref
                assert r.cells[0] == s and r.cells[-1] == g and len(r.cells) == ref + 1
                for (ax, ay), (bx, by) in zip(r.cells, r.cells[1:]):
                    assert (bx, by) in {(ax + dx, ay + dy) for dx, dy in
                                        ((1, 0), (-1, 0), ((ay & 1) - 1, -1), (ay & 1, -1), ((ay & 1) - 1, 1), (ay & 1, 1))}
                    assert m.passable(bx, by)
    assert found > 50


def components(m, steps):
    """Reference islands: {cell: component index} by a flood over `steps(x, y)` (the legal moves)."""
    label = {}
    for y in range(m.height):
        for x in range(m.width):
            if not m.passable(x, y) or (x, y) in label:
                continue
            k = len(set(label.values()))
            label[(x, y)] = k
            todo = [(x, y)]
            for c in todo:
                for n in steps(*c):
                    if 0 <= n[0] < m.width and 0 <= n[1] < m.height and m.passable(*n) and n not in label:
                        label[n] = k
                        todo.append(n)
    return label


def square_steps(m, movement, cut_corners):
    def steps(x, y):
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if (dx, dy) == (0, 0) or (movement == 4 and dx and dy):
                    continue
                if dx and dy and not cut_corners and not (m.passable(x + dx, y) and m.passable(x, y + dy)):
                    continue
                yield x + dx, y + dy
    return steps


def hex_steps(x, y):
    odd = y & 1
    for dx, dy in ((1, 0), (-1, 0), (odd - 1, -1), (odd, -1), (odd - 1, 1), (odd, 1)):
        yield x + dx, y + dy


def assert_same_partition(m, islands, label):
    ids = {}
    for y in range(m.height):
        for x in range(m.width):
            i = islands.island(x, y)
            if (x, y) not in label:
                assert i is None
                continue
            assert ids.setdefault(label[(x, y)], i) == i
    assert len(set(ids.values())) == len(ids) == islands.count
    for k, i in ids.items():
        assert islands.size(i) == sum(1 for v in label.values() if v == k)


def test_islands_match_reference_components_and_updates():
    rng = random.Random(21)
    for movement, diagonal, cut in ((4, "never", False), (8, "no-corner-cutting", False), (8, "always", True)):
        m = random_grid(rng, 20, 14, 0.4)
        islands = gameplan.Islands(m, movement=movement, diagonal=diagonal)
        assert_same_partition(m, islands, components(m, square_steps(m, movement, cut)))
        for _ in range(60):
            x, y = rng.randrange(20), rng.randrange(14)
            islands.set_passable(x, y, not m.passable(x, y))
            label = components(m, square_steps(m, movement, cut))
            assert_same_partition(m, islands, label)
        a, b = free_cell(rng, m), free_cell(rng, m)
        assert islands.connectivity(a, b) == ("reachable" if label[a] == label[b] else "unreachable")
        m.set_cost(a[0], a[1], 5)  # costs leave the islands current
        assert islands.current and islands.connectivity(a, a) == "reachable"
        m.set_passable(a[0], a[1], False)  # behind their back
        assert not islands.current and islands.connectivity(a, b) == "unknown"
        islands.update()
        assert islands.current and islands.island(*a) is None
        assert_same_partition(m, islands, components(m, square_steps(m, movement, cut)))
    lazy = gameplan.Islands(random_grid(rng, 20, 14, 0.3), lazy=True)
    for _ in range(40):
        x, y = rng.randrange(20), rng.randrange(14)
        lazy.set_passable(x, y, not lazy.map.passable(x, y))
    lazy.refresh()
    assert_same_partition(lazy.map, lazy, components(lazy.map, square_steps(lazy.map, 8, False)))
    with pytest.raises(IndexError):
        lazy.set_passable(20, 0, True)


def test_hex_islands_match_reference_components():
    rng = random.Random(22)
    m = random_grid(rng, 20, 14, 0.4)
    islands = gameplan.HexIslands(m)
    assert_same_partition(m, islands, components(m, hex_steps))
    for _ in range(30):
        x, y = rng.randrange(20), rng.randrange(14)
        islands.set_passable(x, y, not m.passable(x, y))
    assert_same_partition(m, islands, components(m, hex_steps))
    m.set_passable(0, 0, not m.passable(0, 0))
    assert islands.connectivity((0, 0), (1, 0)) == "unknown"
    islands.update()
    assert_same_partition(m, islands, components(m, hex_steps))


def test_islands_precheck_answers_without_searching():
    rng = random.Random(23)
    grid, hexes = gameplan.GridPathfinder(), gameplan.HexPathfinder()
    unreachable = reachable = 0
    for _ in range(4):
        m = random_grid(rng, 24, 18, 0.42)
        square, hexed = gameplan.Islands(m), gameplan.HexIslands(m)
        for _ in range(30):
            s, g = free_cell(rng, m), free_cell(rng, m)
            for finder, islands in ((grid, square), (hexes, hexed)):
                with_ = finder.find_path(m, s, g, islands=islands)
                plain = finder.find_path(m, s, g)
                assert with_.status == plain.status and with_.cost == plain.cost
                if islands.connectivity(s, g) == "unreachable":
                    assert with_.status == "no_path" and with_.expanded == 0
                    unreachable += 1
                else:
                    assert with_.status == "found"
                    reachable += 1
    assert unreachable > 20 and reachable > 20
    # JPS takes them too; islands of a stricter rule never answer a more permissive query.
    m = gameplan.GridMap(3, 3, False)
    m.set_passable(0, 0, True)
    m.set_passable(1, 1, True)
    four = gameplan.Islands(m, movement=4, diagonal="never")
    assert four.connectivity((0, 0), (1, 1)) == "unreachable"
    r = grid.find_path(m, (0, 0), (1, 1), movement=8, diagonal="always", islands=four)
    assert r.status == "found" and r.cells == [(0, 0), (1, 1)]
    r = grid.find_path(m, (0, 0), (1, 1), movement=4, islands=four)
    assert r.status == "no_path" and r.expanded == 0
    eight = gameplan.Islands(m)
    r = gameplan.JpsPathfinder().find_path(m, (0, 0), (1, 1), islands=eight)
    assert r.status == "no_path" and r.expanded == 0


def dijkstra_ids(edges, undirected, s, g):
    adjacent = {}
    for a, b, c in edges:
        adjacent.setdefault(a, []).append((b, c))
        if undirected:
            adjacent.setdefault(b, []).append((a, c))
    dist, heap = {s: 0.0}, [(0.0, s)]
    while heap:
        d, u = heapq.heappop(heap)
        if u == g:
            return d
        if d > dist[u]:
            continue
        for v, c in adjacent.get(u, []):
            if d + c < dist.get(v, math.inf):
                dist[v] = d + c
                heapq.heappush(heap, (d + c, v))
    return None


def test_graph_pathfinder_matches_dijkstra():
    rng = random.Random(5)
    finder = gameplan.GraphPathfinder()
    found = 0
    for trial in range(8):
        n = 40
        pos = {f"n{i}": (rng.uniform(0, 100), rng.uniform(0, 100)) for i in range(n)}
        edges = []
        for _ in range(90):
            a, b = rng.sample(sorted(pos), 2)
            # at least the straight distance: the positions' heuristic stays admissible
            edges.append((a, b, math.dist(pos[a], pos[b]) * rng.uniform(1.0, 2.0)))
        undirected = trial % 2 == 0
        graph = gameplan.graph_from_edges(edges, undirected=undirected, positions=pos)
        assert graph.node_count == n and graph.has_positions
        assert graph.arc_count == len(edges) * (2 if undirected else 1)
        for _ in range(20):
            s, g = rng.sample(sorted(pos), 2)
            ref = dijkstra_ids(edges, undirected, s, g)
            for algorithm in ("astar", "dijkstra"):
                r = finder.find_path(graph, s, g, algorithm=algorithm)
                if ref is None:
                    assert r.status == "no_path"
                    continue
                found += 1
                assert r.status == "found" and r.cost == pytest.approx(ref, rel=1e-12)
                assert r.nodes[0] == s and r.nodes[-1] == g
        for _ in range(5):  # nearest of many goals from several sources; distance fields
            sources, goals = rng.sample(sorted(pos), 3), rng.sample(sorted(pos), 3)
            refs = [d for d in (dijkstra_ids(edges, undirected, a, b) for a in sources for b in goals) if d is not None]
            r = finder.find_nearest(graph, sources, goals)
            if not refs:
                assert r.status == "no_path"
            else:
                assert r.status == "found" and r.cost == pytest.approx(min(refs), rel=1e-12)
                assert r.nodes[0] in sources and r.nodes[-1] in goals
            field = finder.distance_field(graph, sources[:2])
            assert set(field) == set(pos)
            for node in pos:
                ds = [d for d in (dijkstra_ids(edges, undirected, a, node) for a in sources[:2]) if d is not None]
                assert field[node] == (pytest.approx(min(ds), rel=1e-12) if ds else math.inf)
    assert found > 100
    with pytest.raises(KeyError):
        finder.find_path(graph, "n0", "nowhere")
    with pytest.raises(ValueError, match="at least one"):
        finder.find_nearest(graph, [], ["n0"])
    with pytest.raises(ValueError, match="cost"):
        gameplan.graph_from_edges([("a", "b", -1.0)])


def test_load_graph_and_budget(tmp_path):
    csv = tmp_path / "line.csv"
    csv.write_text("from,to,cost\n" + "".join(f"v{i},v{i + 1},1.5\n" for i in range(30)))
    graph = gameplan.load_graph(str(csv))
    assert graph.node_count == 31 and graph.node_id(graph.find("v7")) == "v7" and graph.find("x") is None
    finder = gameplan.GraphPathfinder()
    r = finder.find_path(graph, "v0", "v30")
    assert r.status == "found" and r.cost == pytest.approx(45.0) and len(r.nodes) == 31
    r = finder.find_path(graph, "v0", "v30", max_expansions=3)
    assert r.status == "budget_exhausted" and r.limit == "expansions" and r.nodes == []
    assert finder.find_path(graph, "v30", "v0").status == "no_path"  # edges of a CSV list are directed
    bad = tmp_path / "bad.csv"
    bad.write_text("from,to,cost\na,b,nan\n")
    with pytest.raises(Exception, match="bad.csv:2"):
        gameplan.load_graph(str(bad))


def grid_optimum(m, s, g):
    """8-connected, no corner cutting: the grid searches' rules (a reference Dijkstra)."""
    dist, heap = {s: 0.0}, [(0.0, s)]
    while heap:
        d, (x, y) = heapq.heappop(heap)
        if (x, y) == g:
            return d
        if d > dist[(x, y)]:
            continue
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                nx, ny = x + dx, y + dy
                if (dx, dy) == (0, 0) or not (0 <= nx < m.width and 0 <= ny < m.height) or not m.passable(nx, ny):
                    continue
                if dx and dy and not (m.passable(x + dx, y) and m.passable(x, y + dy)):
                    continue
                nd = d + (math.sqrt(2) if dx and dy else 1.0)
                if nd < dist.get((nx, ny), math.inf):
                    dist[(nx, ny)] = nd
                    heapq.heappush(heap, (nd, (nx, ny)))
    return None


def test_navmesh_paths():
    # One blocked cell in a 3 x 3 map: from the left cell's centre to the right one's, around a side of the
    # block through two of its corners: 1 + sqrt(2).
    m = gameplan.GridMap(3, 3)
    m.set_passable(1, 1, False)
    mesh = gameplan.Navmesh(m)
    hierarchy = gameplan.NavmeshHierarchy(mesh)
    assert mesh.polygon_count > 0 and mesh.memory_bytes > 0 and hierarchy.node_count == 4
    for r in (gameplan.NavmeshPathfinder().find_path(mesh, (0.5, 1.5), (2.5, 1.5)),
              gameplan.NavmeshHierarchyPathfinder().find_path(hierarchy, (0.5, 1.5), (2.5, 1.5))):
        assert r.status == "found" and r.cost == pytest.approx(1 + math.sqrt(2), rel=1e-12)
        assert r.points[0] == (0.5, 1.5) and r.points[-1] == (2.5, 1.5)
        assert r.points[1:3] in ([(1.0, 1.0), (2.0, 1.0)], [(1.0, 2.0), (2.0, 2.0)])
    bad = gameplan.NavmeshPathfinder().find_path(mesh, (1.5, 1.5), (0.5, 0.5))
    assert bad.status == "invalid_query" and math.isinf(bad.cost) and bad.points == []

    # Random maps: both tiers agree, never shorter than the straight line nor longer than the 8-connected
    # optimum between the same cell centres (itself an any-angle path); on an open map, the straight line.
    rng = random.Random(9)
    finder, fast = gameplan.NavmeshPathfinder(), gameplan.NavmeshHierarchyPathfinder()
    found = 0
    for density in (0.0, 0.15, 0.3):
        m = random_grid(rng, 30, 20, density)
        mesh = gameplan.Navmesh(m)
        hierarchy = gameplan.NavmeshHierarchy(mesh)
        for _ in range(25):
            s, g = free_cell(rng, m), free_cell(rng, m)
            a, b = (s[0] + 0.5, s[1] + 0.5), (g[0] + 0.5, g[1] + 0.5)
            r, q = finder.find_path(mesh, a, b), fast.find_path(hierarchy, a, b)
            optimum = grid_optimum(m, s, g)
            if optimum is None:
                assert r.status == q.status == "no_path" and math.isinf(r.cost) and math.isinf(q.cost)
                continue
            found += 1
            assert r.status == q.status == "found"
            assert q.cost == pytest.approx(r.cost, rel=1e-9)
            assert math.dist(a, b) - 1e-9 <= r.cost <= optimum + 1e-9
            assert sum(math.dist(p, n) for p, n in zip(r.points, r.points[1:])) == pytest.approx(r.cost, rel=1e-12)
            if density == 0.0:
                assert r.cost == pytest.approx(math.dist(a, b), rel=1e-12) and len(r.points) == (1 if a == b else 2)
    assert found > 50

    # Budgets, and the limit that ran out.
    serpentine = gameplan.GridMap(20, 21)  # walls with a gap at alternate ends: the way down winds
    for y in range(1, 21, 2):
        for x in range(20):
            serpentine.set_passable(x, y, x == (19 if y % 4 == 1 else 0))
    mesh = gameplan.Navmesh(serpentine)
    hierarchy = gameplan.NavmeshHierarchy(mesh)
    for search, world in ((finder, mesh), (fast, hierarchy)):
        r = search.find_path(world, (0.5, 0.5), (0.5, 20.5), max_expansions=1)
        assert r.status == "budget_exhausted" and r.limit == "expansions" and r.points == []
        assert search.find_path(world, (0.5, 0.5), (0.5, 20.5)).status == "found"
    terrain = gameplan.GridMap(4, 4)
    terrain.set_cost(1, 1, 3)
    with pytest.raises(ValueError, match="terrain costs"):
        gameplan.Navmesh(terrain)


# ---- calls the tests above leave out, each checked against what it must return ----

def test_domain_accessors():
    b = gameplan.DomainBuilder()
    b.add_atom("has_axe")
    b.add_atom("door_open", shared=True)
    b.add_integer_variable("stock", 0, 9, True)
    b.add_integer_variable("hunger", 0, 5, False)
    b.add_action("get_axe", 2.5, {}, {"has_axe": True})
    b.add_action("open", 1, {"has_axe": True}, {"door_open": True})
    d = b.build()
    assert d.atom_count == 2 and d.atoms == ["has_axe", "door_open"]
    assert [d.atom_name(i) for i in range(d.atom_count)] == d.atoms
    with pytest.raises(IndexError):
        d.atom_name(2)
    assert d.action_count == 2 and d.find_action("open") == 1 and d.find_action("fly") is None
    assert d.find_atom("door_open") == 1 and d.find_atom("nope") is None
    assert d.action_cost("get_axe") == 2.5 and d.action_cost("open") == 1
    with pytest.raises(KeyError):
        d.action_cost("fly")
    assert d.is_shared("door_open") and not d.is_shared("has_axe")
    assert d.is_shared("stock") and not d.is_shared("hunger")
    r = gameplan.Planner(d).plan({}, {"door_open": True})
    assert r.plan == ["get_axe", "open"] and r.actions == [0, 1] and r.generated >= r.expanded >= 1


def test_agent_private_atoms_checks_and_exclusions():
    system, agent, log = woodcutter(0)
    assert system.current_tick == 20
    assert system.agent_get(agent, "has_axe") and not system.agent_get(agent, "has_wood")
    system.agent_set(agent, "has_axe", False)
    assert not system.agent_get(agent, "has_axe")
    with pytest.raises(ValueError):
        system.agent_set(agent, "wood_stored", True)  # shared: on the blackboard
    system.tick()
    assert system.current_tick == 21
    # A check that refuses get_axe, and an exclusion of it, both leave gather + deliver.
    for how in ("check", "exclude"):
        domain = woodcutter_domain()
        started, asked = [], []
        tb = gameplan.AgentTypeBuilder(domain, "woodcutter")
        for name in ("chop", "gather", "deliver") + (("get_axe",) if how == "check" else ()):
            tb.bind(name, lambda ctx: "success", start=lambda ctx: started.append(ctx["action"]))
        if how == "check":
            tb.set_check("get_axe", lambda ctx: asked.append(ctx["action"]) or False)
        else:
            tb.exclude("get_axe")
        system = gameplan.AgentSystem(domain)
        system.add_agent("ann", tb.build(), [("store", {"wood_stored": True}, 1.0)])
        for _ in range(10):
            system.tick()
        assert started == ["gather", "deliver"], how
        assert system.blackboard_get("wood_stored")
        assert (asked != []) == (how == "check")


def test_scenario_functions_match_the_file():
    path = ROOMS + ".scen"
    loaded = gameplan.load_scenarios(path)
    with open(path, encoding="utf-8") as f:
        rows = [(n + 1, line.split()) for n, line in enumerate(f) if len(line.split()) == 9]
    assert len(loaded) == len(rows) > 0
    for s, (line, row) in zip(loaded, rows):
        assert s.bucket == int(row[0]) and s.map == row[1] and s.line == line
        assert s.start == (int(row[4]), int(row[5])) and s.goal == (int(row[6]), int(row[7]))
        assert s.optimal == float(row[8])
        unit = 10.0 ** -len(row[8].split(".")[1]) if "." in row[8] else 1.0  # one unit in the last printed digit
        assert s.tolerance == pytest.approx(unit)
        assert gameplan.matches_optimal(s, s.optimal + 0.5 * unit) and not gameplan.matches_optimal(s, s.optimal + 2 * unit)
    m = gameplan.load_map(ROOMS)
    gameplan.check_scenarios_fit(loaded, m, "rooms.map")
    with pytest.raises(Exception, match="small"):
        gameplan.check_scenarios_fit(loaded, gameplan.GridMap(8, 8), "small.map")


def test_changes_reported_to_islands_and_hierarchies():
    m = gameplan.GridMap(30, 20)
    isl = gameplan.Islands(m)
    h = gameplan.HierarchicalMap(m, cluster_size=8)
    f = gameplan.HpaPathfinder()
    assert isl.count == 1
    for y in range(20):  # a wall through the map, reported cell by cell
        m.set_passable(15, y, False)
        isl.cell_changed(15, y)
        h.update_cell(15, y)
    assert isl.count == 2 and isl.island(0, 0) != isl.island(29, 0) and isl.island(15, 0) is None
    assert f.find_path(h, (0, 0), (29, 0)).status == "no_path"
    m.set_passable(15, 10, True)  # a door
    isl.cell_changed(15, 10)
    h.update_cell(15, 10)
    assert isl.count == 1
    r = f.find_path(h, (0, 0), (29, 0))
    assert r.status == "found" and (15, 10) in r.cells
    with pytest.raises(IndexError):
        isl.cell_changed(30, 0)


@needs_cli
def test_navmesh_sizes_equal_cli():
    mesh = gameplan.Navmesh(gameplan.load_map(ROOMS))
    cli = run_cli("navmesh", ROOMS, "--json")
    assert mesh.polygon_count == cli["polygons"] and mesh.vertex_count == cli["vertices"]
    hierarchy = gameplan.NavmeshHierarchy(mesh)
    assert hierarchy.build_ms >= 0 and hierarchy.node_count > 0


def test_movement_units_anchor_route_and_leave():
    m = gameplan.GridMap(12, 3)
    for x in range(12):
        m.set_passable(x, 0, False)
        m.set_passable(x, 2, x == 8)  # a niche at (8, 2)
    mv = gameplan.MovementSystem(m)
    blocker, walker = mv.add_unit((6, 1)), mv.add_unit((0, 1))
    assert mv.unit_count == 2
    assert mv.set_anchored(blocker, True) and not mv.set_anchored(99, True)
    assert mv.move_to(walker, (11, 1))
    mv.update(3)
    route = mv.route(walker)
    assert route and route[-1] == (11, 1)
    assert all(max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1 for a, b in zip([mv.position(walker)] + route, route))
    for _ in range(40):
        mv.update()
        assert mv.position(walker)[0] < 6
    assert mv.position(blocker) == (6, 1)
    assert mv.remove_unit(blocker) and not mv.remove_unit(blocker)
    assert mv.unit_count == 1
    mv.update(30)
    assert mv.status(walker) == "arrived" and mv.position(walker) == (11, 1) and mv.route(walker) == []


def reference_filtered_cost(m, areas, filt, layers, start, goal):
    """Dijkstra written here: 8-connected, no corner cutting; a step entering c costs its length x
    terrain(c) x the filter's multiplier of area(c) + the weighted layers at c; forbidden areas are blocked."""
    def enterable(x, y):
        if not (0 <= x < m.width and 0 <= y < m.height) or not m.passable(x, y):
            return False
        return not filt.forbidden(areas.at(x, y))

    def cost(x, y, length):
        return length * m.cost(x, y) * filt.multiplier(areas.at(x, y)) + sum(w * layer.at(x, y) for layer, w in layers)

    if not enterable(*start) or not enterable(*goal):
        return None
    best = {start: 0.0}
    heap = [(0.0, start)]
    while heap:
        d, (x, y) = heapq.heappop(heap)
        if (x, y) == goal:
            return d
        if d > best[(x, y)]:
            continue
        for dx, dy in itertools.product((-1, 0, 1), repeat=2):
            if (dx, dy) == (0, 0) or not enterable(x + dx, y + dy):
                continue
            if dx and dy and not (enterable(x + dx, y) and enterable(x, y + dy)):
                continue
            nd = d + cost(x + dx, y + dy, math.sqrt(2) if dx and dy else 1.0)
            if nd < best.get((x + dx, y + dy), math.inf):
                best[(x + dx, y + dy)] = nd
                heapq.heappush(heap, (nd, (x + dx, y + dy)))
    return None


def random_costed_map(rng, width, height, blocked, area_choices):
    """A map with random blocked cells (this share), terrain costs 1 to 3 and areas drawn from area_choices."""
    m = gameplan.GridMap(width, height)
    areas = gameplan.AreaMap(m)
    for y in range(height):
        for x in range(width):
            if rng.random() < blocked:
                m.set_passable(x, y, False)
            m.set_cost(x, y, rng.randint(1, 3))
            areas.set(x, y, rng.choice(area_choices))
    return m, areas


def test_find_path_with_areas_filter_and_layers_matches_a_reference():
    rng = random.Random(11)
    m, areas = random_costed_map(rng, 22, 15, 0.15, (0, 0, 1, 2, 3))
    penalty = gameplan.PenaltyLayer(m)
    influence = gameplan.InfluenceMap(m)
    for y in range(15):
        for x in range(22):
            if rng.random() < 0.3:
                penalty.set(x, y, rng.uniform(0.0, 2.0))
    assert influence.add_event((10, 7), 5.0, 4) > 0
    filt = gameplan.AreaFilter()
    filt.forbid(3)
    filt.set_multiplier(1, 2.5)
    filt.set_multiplier(2, 0.5)  # cheaper than ground: the heuristic must scale down
    layers = [(penalty, 1.5), (influence, 2.0)]
    finder = gameplan.GridPathfinder()
    cells = [(x, y) for y in range(15) for x in range(22)]
    found = 0
    for _ in range(40):
        start, goal = rng.choice(cells), rng.choice(cells)
        r = finder.find_path(m, start, goal, areas=areas, filter=filt, layers=layers)
        want = reference_filtered_cost(m, areas, filt, layers, start, goal)
        if want is None:
            assert r.status in ("no_path", "invalid_query"), (start, goal, r.status)
            continue
        found += 1
        assert r.status == "found" and r.cost == pytest.approx(want, rel=1e-9, abs=1e-9), (start, goal)
        assert all(not filt.forbidden(areas.at(x, y)) for x, y in r.cells)
    assert found >= 10
    # the same query without the extras costs what the plain map says, and differs
    plain = finder.find_path(m, (0, 0), (21, 14))
    assert plain.status != "found" or plain.cost == pytest.approx(
        reference_filtered_cost(m, gameplan.AreaMap(m), gameplan.AreaFilter(), [], (0, 0), (21, 14)) or 0.0)


def test_queue_requests_carry_areas_filter_and_layers():
    import gc
    m, areas = gameplan.load_map_and_areas(ROOMS, trees_passable=True)
    q = gameplan.PathRequestQueue(m)
    finder = gameplan.GridPathfinder()
    start, goal = (2, 2), (29, 17)

    def request(**extras):
        h = q.submit(start, goal, **extras)
        gc.collect()  # the queue keeps what the request points at alive
        while q.state(h) != "done":
            q.update(1000)
        return q.take(h)

    middle = finder.find_path(m, start, goal).cells[10]  # a cell on the plain way

    def costs():  # made afresh for each request: only the queue holds them
        filt = gameplan.AreaFilter()
        filt.set_multiplier(gameplan.AREA_TREES, 3.0)
        fear = gameplan.InfluenceMap(m)
        fear.add_event(middle, 5.0, 5)
        return {"areas": areas, "filter": filt, "layers": [(fear, 2.0)]}

    queued = request(**costs())
    kwargs = costs()
    direct = finder.find_path(m, start, goal, **kwargs)
    plain = request()
    assert queued.status == direct.status == plain.status == "found"
    assert queued.cost == pytest.approx(direct.cost) and queued.cells == direct.cells
    assert plain.cost == pytest.approx(finder.find_path(m, start, goal).cost) and plain.cost < queued.cost
    with pytest.raises(ValueError, match="areas: sized for a 9 x 6 map, not the queue's 32 x 20 one"):
        q.submit(start, goal, areas=gameplan.AreaMap(gameplan.GridMap(9, 6)))


def test_area_and_layer_arguments_are_checked():
    m = gameplan.GridMap(8, 6)
    other = gameplan.GridMap(9, 6)
    finder = gameplan.GridPathfinder()
    with pytest.raises(ValueError, match="areas: sized for a 9 x 6 map, not this 8 x 6 one"):
        finder.find_path(m, (0, 0), (7, 5), areas=gameplan.AreaMap(other), filter=gameplan.AreaFilter())
    with pytest.raises(ValueError, match="layers: a layer sized for a 9 x 6 map"):
        finder.find_path(m, (0, 0), (7, 5), layers=[(gameplan.PenaltyLayer(other), 1.0)])
    with pytest.raises(ValueError, match="weight must be finite and >= 0"):
        finder.find_path(m, (0, 0), (7, 5), layers=[(gameplan.PenaltyLayer(m), -1.0)])
    with pytest.raises(TypeError, match=r"layers: each item must be a \(PenaltyLayer or InfluenceMap, weight\) pair"):
        finder.find_path(m, (0, 0), (7, 5), layers=[(m, 1.0)])
    with pytest.raises(ValueError, match=r"area must be in \[0, 63\]"):
        gameplan.AreaMap(m).set(1, 1, gameplan.MAX_AREAS)
    with pytest.raises(IndexError):
        gameplan.AreaMap(m).at(8, 0)
    with pytest.raises(ValueError, match="multiplier"):
        gameplan.AreaFilter().set_multiplier(1, 0.0)
    with pytest.raises(ValueError):
        gameplan.PenaltyLayer(m).set(0, 0, -1.0)
    with pytest.raises(ValueError):
        gameplan.InfluenceMap(m).add_event((1, 1), 1.0, -2)


def test_load_map_and_areas_reads_the_terrain_letters():
    m, areas = gameplan.load_map_and_areas(ROOMS, trees_passable=True)
    trees = [(x, y) for y in range(m.height) for x in range(m.width) if areas.at(x, y) == gameplan.AREA_TREES]
    with open(ROOMS) as f:
        grid = f.read().split("map\n", 1)[1].split()
    assert trees == [(x, y) for y, row in enumerate(grid) for x, c in enumerate(row) if c == "T"]
    assert all(m.passable(x, y) for x, y in trees)
    blocked, _ = gameplan.load_map_and_areas(ROOMS)
    assert not any(blocked.passable(x, y) for x, y in trees)
    # a unit that may not enter trees walks around them: the filtered path avoids every T cell
    filt = gameplan.AreaFilter()
    filt.forbid(gameplan.AREA_TREES)
    finder = gameplan.GridPathfinder()
    x, y = trees[0]
    r = finder.find_path(m, (x - 1, y), (x + 3, y), areas=areas, filter=filt)
    assert r.status == "found" and not set(r.cells) & set(trees)
    assert finder.find_path(m, (x - 1, y), (x + 3, y)).cost < r.cost


def test_distance_field_and_nearest_targets_match_a_reference():
    rng = random.Random(21)
    m, areas = random_costed_map(rng, 20, 14, 0.18, (0, 0, 0, 1, 3))
    filt = gameplan.AreaFilter()
    filt.forbid(3)
    filt.set_multiplier(1, 2.0)
    fear = gameplan.InfluenceMap(m)
    fear.add_event((10, 7), 4.0, 3)
    layers = [(fear, 1.5)]
    usable = [(x, y) for y in range(14) for x in range(20) if m.passable(x, y) and areas.at(x, y) != 3]
    sources = rng.sample(usable, 3)
    field = gameplan.DistanceField()
    assert field.compute(m, sources, areas=areas, filter=filt, layers=layers) == "found"
    for cell in rng.sample(usable, 40):
        costs = [reference_filtered_cost(m, areas, filt, layers, s, cell) for s in sources]
        reachable = [c for c in costs if c is not None]
        if not reachable:
            assert field.distance(*cell) == math.inf and field.toward_source(*cell) is None
            continue
        assert field.distance(*cell) == pytest.approx(min(reachable), rel=1e-9, abs=1e-9), cell
        assert costs[field.nearest_source(*cell)] == pytest.approx(min(reachable), rel=1e-9, abs=1e-9)
        # the flow field leads to a source, each step one cell, costs falling all the way
        at, steps = cell, 0
        while field.toward_source(*at) is not None:
            nxt = field.toward_source(*at)
            assert max(abs(nxt[0] - at[0]), abs(nxt[1] - at[1])) == 1 and field.distance(*nxt) < field.distance(*at)
            at, steps = nxt, steps + 1
            assert steps < 20 * 14
        assert at in sources and field.distance(*at) == 0.0
    # the nearest of several targets, in one search: the reference's cheapest
    finder = gameplan.NearestTargets()
    for _ in range(20):
        start = rng.choice(usable)
        targets = rng.sample(usable, 4) + [(0, -1)]  # one off the map: skipped
        r = finder.find(m, start, targets, areas=areas, filter=filt, layers=layers)
        costs = [reference_filtered_cost(m, areas, filt, layers, start, t) if t in usable else None for t in targets]
        reachable = [c for c in costs if c is not None]
        if not reachable:
            assert r["status"] == "no_path" and r["index"] is None
            continue
        assert r["status"] == "found" and r["cost"] == pytest.approx(min(reachable), rel=1e-9, abs=1e-9)
        assert costs[r["index"]] == pytest.approx(r["cost"]) and r["cells"][0] == start and r["cells"][-1] == targets[r["index"]]
    with pytest.raises(ValueError, match="compute the field first"):
        gameplan.DistanceField().distance(0, 0)


def test_explorer_walks_a_map_it_discovers():
    rng = random.Random(5)
    m = gameplan.GridMap(24, 16)
    for y in range(16):
        for x in range(24):
            if rng.random() < 0.22:
                m.set_passable(x, y, False)
            m.set_cost(x, y, rng.randint(1, 2))
    plain, no_filter = gameplan.AreaMap(m), gameplan.AreaFilter()
    free = [(x, y) for y in range(16) for x in range(24) if m.passable(x, y)]
    explorer, arrived, proved = gameplan.Explorer(), 0, 0
    for _ in range(25):
        start, goal = rng.choice(free), rng.choice(free)
        team = gameplan.TeamKnowledge(m)
        r = explorer.explore(m, team, start, goal, sight=2)
        optimum = reference_filtered_cost(m, plain, no_filter, [], start, goal)
        if optimum is None:
            assert r["status"] == "no_path"
            proved += 1
            continue
        arrived += 1
        assert r["status"] == "found" and r["path"][0] == start and r["path"][-1] == goal
        cost = 0.0
        for (ax, ay), (bx, by) in zip(r["path"], r["path"][1:]):
            dx, dy = bx - ax, by - ay
            assert max(abs(dx), abs(dy)) == 1 and m.passable(bx, by)
            assert not (dx and dy) or (m.passable(ax + dx, ay) and m.passable(ax, ay + dy))  # no corner cutting
            cost += (math.sqrt(2) if dx and dy else 1.0) * m.cost(bx, by)
        assert r["travelled"] == pytest.approx(cost) and cost >= optimum - 1e-9
        assert r["steps"] == len(r["path"]) - 1
        # the team saw what the unit saw, as it is
        for x in range(start[0] - 2, start[0] + 3):
            for y in range(start[1] - 2, start[1] + 3):
                if 0 <= x < 24 and 0 <= y < 16:
                    assert team.state(x, y) == ("free" if m.passable(x, y) else "blocked")
        assert team.state(-1, 0) == "unknown" and team.known_count > 0
    assert arrived >= 10 and proved + arrived == 25
    # a team that already knows the way: a second unit walks it without replanning more
    team = gameplan.TeamKnowledge(m)
    start, goal = free[0], free[-1]
    first = explorer.explore(m, team, start, goal, sight=2)
    again = explorer.explore(m, team, start, goal, sight=2)
    assert again["status"] == first["status"] and again["replans"] <= first["replans"]
    with pytest.raises(ValueError, match="radius"):
        team.reveal(m, (0, 0), -1)
    assert explorer.explore(m, gameplan.TeamKnowledge(gameplan.GridMap(3, 3)), start, goal)["status"] == "invalid_query"
    stopped = explorer.explore(m, gameplan.TeamKnowledge(m), start, goal, max_steps=1)
    assert stopped["status"] == "budget_exhausted" and stopped["limit"] == "steps" and stopped["steps"] == 1
    capped = explorer.explore(m, gameplan.TeamKnowledge(m), start, goal, max_expansions=1)
    assert capped["status"] == "budget_exhausted" and capped["limit"] == "expansions"


def step_cost(m, a, b):
    dx, dy = b[0] - a[0], b[1] - a[1]
    return (math.sqrt(2) if dx and dy else 1.0) * m.cost(*b)


def legal_steps(m, cells):
    for a, b in zip(cells, cells[1:]):
        dx, dy = b[0] - a[0], b[1] - a[1]
        if max(abs(dx), abs(dy)) != 1 or not m.passable(*b):
            return False
        if dx and dy and not (m.passable(a[0] + dx, a[1]) and m.passable(a[0], a[1] + dy)):
            return False
    return True


def test_theta_star_lies_between_the_straight_line_and_the_grid_optimum():
    rng = random.Random(8)
    m = gameplan.GridMap(30, 20)
    for _ in range(90):
        m.set_passable(rng.randrange(30), rng.randrange(20), False)
    free = [(x, y) for y in range(20) for x in range(30) if m.passable(x, y)]
    theta, astar, found = gameplan.ThetaStarPathfinder(), gameplan.GridPathfinder(), 0
    for _ in range(30):
        s, g = rng.choice(free), rng.choice(free)
        t, a = theta.find_path(m, s, g), astar.find_path(m, s, g)
        assert t.status == a.status
        if a.status != "found":
            continue
        found += 1
        assert t.cells[0] == s and t.cells[-1] == g
        links = sum(math.dist(p, q) for p, q in zip(t.cells, t.cells[1:]))
        assert t.cost == pytest.approx(links) and math.dist(s, g) - 1e-9 <= t.cost <= a.cost + 1e-9
        for p, q in zip(t.cells, t.cells[1:]):  # each link stays in free cells (sampled finely along it)
            n = int(math.dist(p, q) * 64) + 1
            for i in range(n + 1):
                x, y = p[0] + 0.5 + (q[0] - p[0]) * i / n, p[1] + 0.5 + (q[1] - p[1]) * i / n
                assert m.passable(int(x), int(y)) or abs(x - round(x)) < 1e-9 or abs(y - round(y)) < 1e-9, (p, q)
    assert found >= 20
    # in the open, one straight link (a grid path would take 29 steps and cost 31.9)
    open_map = gameplan.GridMap(30, 20)
    t = theta.find_path(open_map, (0, 0), (29, 7))
    assert t.cells == [(0, 0), (29, 7)] and t.cost == pytest.approx(math.hypot(29, 7))


def test_smooth_path_pulls_a_legal_path_taut_and_keeps_it_legal():
    m = gameplan.GridMap(20, 10)
    zigzag = [(x, 5 if x % 2 == 0 else 4) for x in range(11)]
    r = gameplan.smooth_path(m, zigzag)
    assert r.cells[0] == zigzag[0] and r.cells[-1] == zigzag[-1] and legal_steps(m, r.cells)
    assert r.cost == pytest.approx(10.0) and r.cost < sum(step_cost(m, a, b) for a, b in zip(zigzag, zigzag[1:]))
    rng = random.Random(4)
    walls = gameplan.GridMap(24, 16)
    for _ in range(60):
        walls.set_passable(rng.randrange(24), rng.randrange(16), False)
    for y in range(16):
        for x in range(24):
            walls.set_cost(x, y, rng.randint(1, 2))
    for _ in range(20):  # random legal walks: never dearer after smoothing, still legal, same ends
        at = (rng.randrange(24), rng.randrange(16))
        while not walls.passable(*at):
            at = (rng.randrange(24), rng.randrange(16))
        walk = [at]
        for _ in range(40):
            nxt = (at[0] + rng.choice((-1, 0, 1)), at[1] + rng.choice((-1, 0, 1)))
            if nxt != at and 0 <= nxt[0] < 24 and 0 <= nxt[1] < 16 and legal_steps(walls, [at, nxt]):
                walk.append(nxt)
                at = nxt
        r = gameplan.smooth_path(walls, walk)
        assert r.cells[0] == walk[0] and r.cells[-1] == walk[-1] and legal_steps(walls, r.cells)
        assert r.cost == pytest.approx(sum(step_cost(walls, a, b) for a, b in zip(r.cells, r.cells[1:])))
        assert r.cost <= sum(step_cost(walls, a, b) for a, b in zip(walk, walk[1:])) + 1e-9
    with pytest.raises(ValueError, match="is not a legal move"):
        gameplan.smooth_path(m, [(0, 0), (2, 0)])


# ---- waypoint graphs ----

def reference_convex_corners(m):
    """Free cells with a blocked diagonal neighbour whose two cells beside that diagonal are free."""
    out = set()
    for y in range(m.height):
        for x in range(m.width):
            if not m.passable(x, y):
                continue
            for dx in (-1, 1):
                for dy in (-1, 1):
                    nx, ny = x + dx, y + dy
                    if 0 <= nx < m.width and 0 <= ny < m.height and not m.passable(nx, ny) \
                            and m.passable(nx, y) and m.passable(x, ny):
                        out.add((x, y))
    return out


def clip_segment(p, q, lo, hi):
    """The parameter interval [t0, t1] of the segment p -> q inside the closed box lo..hi (exact with
    Fractions), or None."""
    t0, t1 = Fraction(0), Fraction(1)
    for axis in (0, 1):
        d = q[axis] - p[axis]
        if d == 0:
            if p[axis] < lo[axis] or p[axis] > hi[axis]:
                return None
            continue
        a, b = (lo[axis] - p[axis]) / d, (hi[axis] - p[axis]) / d
        if a > b:
            a, b = b, a
        t0, t1 = max(t0, a), min(t1, b)
        if t0 > t1:
            return None
    return t0, t1


def segment_enters_cell(p, q, x, y):
    """True if the segment passes through the open inside of the unit square of cell (x, y): the middle of
    the chord it cuts from the closed square lies strictly inside (a chord on the boundary does not)."""
    chord = clip_segment(p, q, (x, y), (x + 1, y + 1))
    if chord is None:
        return False
    t = (chord[0] + chord[1]) / 2
    mx, my = p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t
    return x < mx < x + 1 and y < my < y + 1


def segment_clear_of_cell(p, q, x, y, margin=Fraction(1, 100)):
    """True if the segment stays more than `margin` (in each axis) away from the square of cell (x, y)."""
    return clip_segment(p, q, (x - margin, y - margin), (x + 1 + margin, y + 1 + margin)) is None


def test_waypoint_graph_matches_the_corners_and_the_lines_of_sight():
    rng = random.Random(12)
    checked_edges = checked_clear = 0
    for trial in range(6):
        m = random_grid(rng, rng.randrange(8, 16), rng.randrange(8, 16), 0.2)
        given = [free_cell(rng, m) for _ in range(3)]
        given.append(given[0])  # a repeat is merged
        max_distance = 6.5 if trial % 3 == 0 else None
        wg = gameplan.build_waypoint_graph(m, given, max_distance=max_distance)
        graph, cells = wg.graph, wg.cells
        unique_given = list(dict.fromkeys(given))
        assert cells[:len(unique_given)] == unique_given
        assert set(cells) == set(unique_given) | reference_convex_corners(m)
        assert len(cells) == len(set(cells)) == graph.node_count
        blocked = [(x, y) for y in range(m.height) for x in range(m.width) if not m.passable(x, y)]
        edges = {}
        for n, (x, y) in enumerate(cells):
            assert graph.node_id(n) == f"{x},{y}" and graph.position(n) == (x + 0.5, y + 0.5)
            for to, cost in graph.arcs(n):
                edges[(n, to)] = cost
        for i in range(len(cells)):
            for j in range(len(cells)):
                if i == j:
                    continue
                a, b = cells[i], cells[j]
                p = (Fraction(2 * a[0] + 1, 2), Fraction(2 * a[1] + 1, 2))
                q = (Fraction(2 * b[0] + 1, 2), Fraction(2 * b[1] + 1, 2))
                length = math.dist(a, b)
                in_range = max_distance is None or length <= max_distance
                if (i, j) in edges:
                    checked_edges += 1
                    assert (j, i) in edges and in_range
                    assert edges[(i, j)] == pytest.approx(length, rel=1e-15)
                    assert not any(segment_enters_cell(p, q, x, y) for x, y in blocked), (a, b)
                elif in_range and all(segment_clear_of_cell(p, q, x, y) for x, y in blocked):
                    pytest.fail(f"{a} and {b} see each other with room to spare, but are not joined")
                else:
                    checked_clear += 1
    assert checked_edges > 500 and checked_clear > 500


def test_waypoint_graph_files_load_back_with_the_same_arcs(tmp_path):
    rng = random.Random(13)
    m = random_grid(rng, 16, 12, 0.2)
    wg = gameplan.build_waypoint_graph(m, [free_cell(rng, m), free_cell(rng, m)])
    graph, cells = wg.graph, wg.cells
    del wg  # the graph keeps what it needs alive
    doc = json.loads(graph.to_json())
    assert [n["id"] for n in doc["nodes"]] == [f"{x},{y}" for x, y in cells]
    assert all(e.get("undirected") for e in doc["edges"]) and len(doc["edges"]) * 2 == graph.arc_count

    def arcs_by_id(g):
        return sorted((g.node_id(n), g.node_id(to), cost) for n in range(g.node_count) for to, cost in g.arcs(n))

    for name in ("w.json", "w.csv", "w.CSV"):
        graph.save(str(tmp_path / name))
        back = gameplan.load_graph(str(tmp_path / name))
        assert arcs_by_id(back) == arcs_by_id(graph)  # costs to the bit
        assert back.has_positions == name.endswith(".json")
    back = gameplan.load_graph(str(tmp_path / "w.json"))
    finder = gameplan.GraphPathfinder()
    for _ in range(20):
        s, g = rng.sample([f"{x},{y}" for x, y in cells], 2)
        a, b = finder.find_path(graph, s, g), finder.find_path(back, s, g)
        assert a.status == b.status and a.cost == b.cost
    assert gameplan.graph_from_edges([("a", "b", 1.5)]).to_csv() == "from,to,cost,undirected\na,b,1.5,false\n"


def test_waypoint_graph_arguments_and_budgets_are_checked():
    m = gameplan.GridMap(5, 3)
    m.set_passable(2, 1, False)
    wg = gameplan.build_waypoint_graph(m)
    assert sorted(wg.cells) == [(1, 0), (1, 2), (3, 0), (3, 2)] and wg.graph.arc_count == 8 and wg.node_count == 4
    assert wg.node_at((1, 0)) is not None and wg.node_at((0, 0)) is None
    wg = gameplan.build_waypoint_graph(m, [(0, 0), (4, 0)], corners=False)
    assert wg.cells == [(0, 0), (4, 0)] and wg.graph.arcs(0) == [(1, 4.0)]
    with pytest.raises(ValueError, match=r"\(2, 1\) is a blocked cell"):
        gameplan.build_waypoint_graph(m, [(2, 1)])
    with pytest.raises(ValueError, match=r"\(5, 0\) is outside the 5 x 3 map"):
        gameplan.build_waypoint_graph(m, [(5, 0)])
    with pytest.raises(ValueError, match="max_distance must be a number > 0"):
        gameplan.build_waypoint_graph(m, max_distance=0)
    # 4 corners, 6 pairs: 6 checks are enough, 5 are not
    assert gameplan.build_waypoint_graph(m, max_pairs=6).graph.arc_count == 8
    with pytest.raises(ValueError, match="max_pairs budget"):
        gameplan.build_waypoint_graph(m, max_pairs=5)
    with pytest.raises(ValueError, match="max_memory budget"):
        gameplan.build_waypoint_graph(m, max_memory=100)
    m.set_cost(0, 0, 3)
    with pytest.raises(ValueError, match="terrain costs"):
        gameplan.build_waypoint_graph(m)


def reference_waypoint_cost(m, cells, start, goal, max_distance):
    """Dijkstra over {start, goal} + the waypoints, joined where waypoint_sees and in range; None without a
    path."""
    nodes = [start, goal] + [c for c in cells if c not in (start, goal)]
    dist, heap = {0: 0.0}, [(0.0, 0)]
    done = set()
    while heap:
        d, u = heapq.heappop(heap)
        if u in done:
            continue
        if u == 1:
            return d
        done.add(u)
        for w in range(len(nodes)):
            if w in done:
                continue
            length = math.dist(nodes[u], nodes[w])
            if max_distance is not None and length > max_distance:
                continue
            if not waypoint_sees(m, nodes[u], nodes[w]):
                continue
            if d + length < dist.get(w, math.inf):
                dist[w] = d + length
                heapq.heappush(heap, (d + length, w))
    return None


def waypoint_sees(m, a, b):
    """The documented line-of-sight rule (8-connected, no corner cutting), exactly, in Fractions: the
    segment between the cell centres enters the inside of no blocked cell, and where it passes through a
    grid vertex, the two cells it only touches there are both free."""
    p = (Fraction(2 * a[0] + 1, 2), Fraction(2 * a[1] + 1, 2))
    q = (Fraction(2 * b[0] + 1, 2), Fraction(2 * b[1] + 1, 2))
    dx, dy = q[0] - p[0], q[1] - p[1]
    for y in range(min(a[1], b[1]), max(a[1], b[1]) + 1):
        for x in range(min(a[0], b[0]), max(a[0], b[0]) + 1):
            if not m.passable(x, y) and segment_enters_cell(p, q, x, y):
                return False
    if dx == 0 or dy == 0:
        return True  # between centres: never through a grid vertex
    for vy in range(min(a[1], b[1]) + 1, max(a[1], b[1]) + 1):
        t = (vy - p[1]) / dy
        vx = p[0] + dx * t
        if vx.denominator != 1:
            continue
        vx = int(vx)
        touched = ((vx, vy - 1), (vx - 1, vy)) if dx * dy > 0 else ((vx - 1, vy - 1), (vx, vy))
        if not all(m.passable(*c) for c in touched):
            return False
    return True


def test_waypoint_pathfinder_matches_a_reference_from_any_cell():
    rng = random.Random(14)
    finder = gameplan.WaypointPathfinder()
    compared = 0
    for trial in range(40):
        m = random_grid(rng, rng.randrange(6, 12), rng.randrange(6, 12), 0.15)
        max_distance = 5.0 if trial % 3 == 0 else None
        wg = gameplan.build_waypoint_graph(m, max_distance=max_distance)
        for _ in range(6):
            s, g = free_cell(rng, m), free_cell(rng, m)
            want = reference_waypoint_cost(m, wg.cells, s, g, max_distance)
            r = finder.find_path(wg, m, s, g, algorithm="astar" if compared % 2 else "dijkstra")
            if want is None:
                assert r.status == "no_path" and r.cells == []
            else:
                assert r.status == "found" and r.cost == pytest.approx(want, rel=1e-12)
                assert r.cells[0] == s and r.cells[-1] == g
                assert all(c in set(wg.cells) for c in r.cells[1:-1])
                assert sum(math.dist(a, b) for a, b in zip(r.cells, r.cells[1:])) == pytest.approx(r.cost, rel=1e-12)
            compared += 1
    assert compared == 240


def test_waypoint_pathfinder_budgets_and_refusals():
    m = gameplan.GridMap(5, 3)
    m.set_passable(2, 1, False)
    wg = gameplan.build_waypoint_graph(m)
    finder = gameplan.WaypointPathfinder()
    r = finder.find_path(wg, m, (0, 1), (4, 1))
    assert r.status == "found" and r.cost == pytest.approx(2 + 2 * math.sqrt(2)) and len(r.cells) == 4
    assert finder.start_links == 2 and finder.goal_links == 2
    assert finder.find_path(wg, m, (0, 0), (4, 0)).cells == [(0, 0), (4, 0)]
    r = finder.find_path(wg, m, (0, 1), (4, 1), max_expansions=1)
    assert r.status == "budget_exhausted" and r.limit == "expansions"
    assert finder.find_path(wg, m, (2, 1), (4, 1)).status == "invalid_query"
    other = gameplan.GridMap(5, 3)
    other.set_passable(1, 0, False)
    assert finder.find_path(wg, other, (0, 1), (4, 1)).status == "invalid_query"
    with pytest.raises(ValueError, match="algorithm must be"):
        finder.find_path(wg, m, (0, 1), (4, 1), algorithm="bfs")
    with pytest.raises(TypeError):
        finder.find_path(None, m, (0, 1), (4, 1))
