#!/usr/bin/env python3
"""Solve every scenario of a set of MovingAI maps on a Dask cluster.

    dask_scen.py MAPDIR SCENDIR [--scheduler ADDRESS] [--maps-per-task N] [--workers N]

Every scenario file under SCENDIR (searched recursively, `*.scen`) is paired with its map: MAPDIR plus the
scenario file's folder relative to SCENDIR plus its name without `.scen` (the MovingAI layout:
`scenarios/dao/arena.map.scen` goes with `maps/dao/arena.map`), or, when there is no such file, the map
named in the scenario lines, in that folder. The benchmark sets come from movingai.com.

The maps are cut into chunks of --maps-per-task (default 1); each chunk is one Dask task, which loads
its maps and solves their scenarios with A* (the `gameplan` module must be importable on every worker:
PYTHONPATH=BUILD/python or an installed module). With --scheduler the tasks go to that cluster;
without, to a LocalCluster of --workers (default 2) worker processes on this machine.

Prints, per scenario file in sorted order, one JSON line: the summary `gameplan scen SCEN --map MAP
--json` prints (its last line), with the same fields and values; only "mean_micros", a measured time,
differs from run to run.
"""
import argparse
import json
import math
import os
import sys
import time


def round_half_away(x, digits):
    """std::round(x * 10^d) / 10^d, as the CLI computes its means."""
    scale = 10.0 ** digits
    v = x * scale
    return (math.floor(v + 0.5) if v >= 0 else -math.floor(-v + 0.5)) / scale


def find_jobs(map_dir, scen_dir):
    """(scenario file, map file) pairs, sorted by scenario file."""
    jobs = []
    for root, _, files in os.walk(scen_dir):
        for name in sorted(files):
            if not name.endswith(".scen"):
                continue
            scen = os.path.join(root, name)
            folder = os.path.join(map_dir, os.path.relpath(root, scen_dir))
            candidate = os.path.normpath(os.path.join(folder, name[: -len(".scen")]))
            if not os.path.isfile(candidate):
                named = None
                with open(scen, encoding="utf-8") as f:
                    for line in f:
                        parts = line.split("\t") if "\t" in line else line.split()
                        if len(parts) >= 9:
                            named = os.path.basename(parts[1].strip())
                            break
                candidate = os.path.normpath(os.path.join(folder, named)) if named else candidate
            if os.path.isfile(candidate):
                jobs.append((scen, candidate))
            else:
                print("dask_scen: no map for %s (looked for %s)" % (scen, candidate), file=sys.stderr)
    return sorted(jobs)


def solve_chunk(chunk):
    """One Dask task: solve every scenario of each (scenario file, map file) in `chunk`."""
    import gameplan  # imported on the worker

    summaries = []
    for scen_file, map_file in chunk:
        grid = gameplan.load_map(map_file)
        scenarios = gameplan.load_scenarios(scen_file)
        gameplan.check_scenarios_fit(scenarios, grid, map_file)
        finder = gameplan.GridPathfinder()
        mismatches = 0
        total_micros = 0.0
        total_expanded = 0
        for s in scenarios:
            t0 = time.perf_counter()
            r = finder.find_path(grid, s.start, s.goal)
            total_micros += (time.perf_counter() - t0) * 1e6
            total_expanded += r.expanded
            if not (r.status == "found" and gameplan.matches_optimal(s, r.cost)):
                mismatches += 1
        n = float(len(scenarios)) if scenarios else 1.0
        summaries.append((scen_file, {
            "summary": True,
            "scenarios": len(scenarios),
            "mismatches": mismatches,
            "mean_micros": round_half_away(total_micros / n, 2),
            "mean_expanded": round_half_away(total_expanded / n, 1),
            "algorithm": "astar",
            "maps": [map_file],
            "threads": 1,
            "status": "completed",
            "completed": len(scenarios),
        }))
    return summaries


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("map_dir", metavar="MAPDIR")
    parser.add_argument("scen_dir", metavar="SCENDIR")
    parser.add_argument("--scheduler", metavar="ADDRESS", help="a Dask scheduler (tcp://host:8786); default: a local cluster")
    parser.add_argument("--workers", type=int, default=2, help="local cluster size when no --scheduler (default 2)")
    parser.add_argument("--maps-per-task", type=int, default=1, help="maps solved by one task (default 1)")
    args = parser.parse_args(argv)
    if args.workers < 1 or args.maps_per_task < 1:
        parser.error("--workers and --maps-per-task must be at least 1")

    jobs = find_jobs(args.map_dir, args.scen_dir)
    if not jobs:
        print("dask_scen: no scenario file with a map under %s and %s" % (args.scen_dir, args.map_dir), file=sys.stderr)
        return 2
    chunks = [jobs[i:i + args.maps_per_task] for i in range(0, len(jobs), args.maps_per_task)]

    from dask.distributed import Client, LocalCluster

    cluster = None
    if args.scheduler:
        client = Client(args.scheduler)
    else:
        cluster = LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                               dashboard_address=None)
        client = Client(cluster)
    try:
        futures = client.map(solve_chunk, chunks, pure=False)
        results = [s for chunk in client.gather(futures) for s in chunk]
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    for _, summary in sorted(results, key=lambda r: r[0]):
        print(json.dumps(summary, separators=(",", ":")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
