"""examples/python/dask_scen.py on a local Dask cluster of 2 workers gives the CLI's per-map summaries
(`gameplan scen SCEN --map MAP --json`, last line), field for field except the measured mean time."""
import json
import os
import shutil
import subprocess
import sys

import pytest

SOURCE = os.environ.get("GAMEPLAN_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))
CLI = os.environ.get("GAMEPLAN_CLI")
SCRIPT = os.path.join(SOURCE, "examples", "python", "dask_scen.py")


@pytest.mark.skipif(not CLI, reason="GAMEPLAN_CLI is not set (the CLI is not built)")
def test_dask_scen_equals_cli(tmp_path):
    pytest.importorskip("distributed", reason="python3-distributed (Dask) is not installed")
    # Two small maps in the MovingAI layout: maps/<set>/X and scenarios/<set>/X.scen, the second one
    # found through the map named in its scenario lines.
    maps, scens = tmp_path / "maps" / "demo", tmp_path / "scenarios" / "demo"
    maps.mkdir(parents=True)
    scens.mkdir(parents=True)
    examples = os.path.join(SOURCE, "examples", "maps")
    for name in ("rooms.map", "terrain.txt"):
        shutil.copy(os.path.join(examples, name), maps / name)
    shutil.copy(os.path.join(examples, "rooms.map.scen"), scens / "rooms.map.scen")
    shutil.copy(os.path.join(examples, "terrain.scen"), scens / "terrain.scen")

    proc = subprocess.run([sys.executable, SCRIPT, str(tmp_path / "maps"), str(tmp_path / "scenarios")],
                          capture_output=True, text=True, timeout=240, check=False)
    assert proc.returncode == 0, proc.stderr
    got = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    assert len(got) == 2

    for summary, (scen, mapfile) in zip(got, [("rooms.map.scen", "rooms.map"), ("terrain.scen", "terrain.txt")]):
        map_path = os.path.normpath(str(maps / mapfile))
        out = subprocess.run([CLI, "scen", str(scens / scen), "--map", map_path, "--json"],
                             capture_output=True, text=True, check=False)
        assert out.returncode in (0, 1), out.stderr
        expected = json.loads(out.stdout.strip().splitlines()[-1])
        assert list(summary.keys()) == list(expected.keys())
        summary.pop("mean_micros")
        expected.pop("mean_micros")
        assert summary == expected
        assert summary["scenarios"] > 10 and summary["mismatches"] == 0
