#!/usr/bin/env python3
"""Tests the WebAssembly pages (build-web/site) in headless Chromium against the native CLI.

Serves the site with `python3 -m http.server` on localhost, drives Debian's headless Chromium through
chromedriver (the W3C WebDriver protocol over HTTP, spoken here with urllib: no Python package
needed), and for every shipped example map x every algorithm of `gameplan path`, and every example
domain x goal of `gameplan plan`, loads the page's automation URL and compares the JSON it writes into
<pre id="result"> with the CLI's `--json` output key by key (timings excluded); and the village page after
120 frames (one tick each) with `gameplan demo --ticks 120 --json` (counts and state checksum), its wolf
dens with the dens of the CLI's picture (`--png-every`), and its canvas with the danger, map, places and
villagers of the CLI's save file at the same tick (the heat overlay and the dens drawn, and gone when the
"wolves and danger" box is unchecked). Inputs the CLI refuses (exit 2) must be refused by the page with
the same message. Saves a screenshot of each page (and of the path page on hexes).

Usage: run_web_tests.py --site build-web/site --cli build/bin/gameplan --repo . --out build-web
       [--perf]   also time a 512 x 512 A* query (browser vs native) and the village's frame time
Exit status 0 when every comparison holds.
"""
import argparse
import base64
import json
import os
import random
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
import zlib

ALGORITHMS = ["astar", "dijkstra", "jps", "jps-plus", "hpa", "theta", "subgoal", "navmesh", "navmesh-ch"]
HEX_ALGORITHMS = ["astar", "dijkstra", "jps"]  # (the CLI refuses jps on hexes: so must the page)
TIMING_KEYS = {"micros", "setup_micros", "preprocess_ms", "mean_micros", "repeat"}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port, seconds=20):
    end = time.time() + seconds
    while time.time() < end:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on port {port} after {seconds} s")


class WebDriver:
    """The few W3C WebDriver commands the tests use."""

    def __init__(self, driver_port, user_data_dir):
        self.base = f"http://127.0.0.1:{driver_port}"
        args = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--disable-dev-shm-usage", f"--user-data-dir={user_data_dir}", "--window-size=1280,860"]
        caps = {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "binary": shutil.which("chromium") or "/usr/bin/chromium", "args": args}}}}
        self.session = self._call("POST", "/session", caps)["sessionId"]

    def _call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=120) as r:
                return json.loads(r.read().decode())["value"]
        except urllib.error.HTTPError as e:
            raise RuntimeError(f"webdriver {method} {path}: {e.read().decode()[:500]}") from None

    def get(self, url):
        self._call("POST", f"/session/{self.session}/url", {"url": url})

    def script(self, code):
        return self._call("POST", f"/session/{self.session}/execute/sync", {"script": code, "args": []})

    def result(self, seconds=60):
        """Waits for the page to write <pre id="result"> and returns its text."""
        end = time.time() + seconds
        while time.time() < end:
            text = self.script("const e = document.getElementById('result');"
                               "return e && e.dataset.done ? e.textContent : null;")
            if text is not None:
                return text
            time.sleep(0.05)
        raise RuntimeError("the page wrote no result in time")

    def screenshot(self, path):
        png = base64.b64decode(self._call("GET", f"/session/{self.session}/screenshot"))
        with open(path, "wb") as f:
            f.write(png)

    def quit(self):
        try:
            self._call("DELETE", f"/session/{self.session}")
        except Exception:
            pass


def read_grid(path):
    """Passable cells of a MovingAI map or a plain-text grid, as (width, height, rows)."""
    lines = open(path, encoding="utf-8").read().splitlines()
    if lines and lines[0].startswith("type"):
        start = next(i for i, l in enumerate(lines) if l.strip() == "map") + 1
        rows = lines[start:]
        free = set(".GS")  # MovingAI: '.', 'G' and 'S' are passable
    else:
        rows = [l for l in lines if l and not l.startswith(";")]
        free = set(".123456789")
    rows = [r for r in rows if r]
    return len(rows[0]), len(rows), [[c in free for c in r] for r in rows]


def ends(path):
    """The page's default start and goal: the first and the last passable cell in row order."""
    w, h, rows = read_grid(path)
    cells = [(x, y) for y in range(h) for x in range(w) if rows[y][x]]
    return cells[0], cells[-1]


def run_cli(cli, args):
    p = subprocess.run([cli] + args, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout.strip(), p.stderr.strip()


def compare(label, page_text, code, out, err, failures):
    """Page JSON vs CLI output. Returns True when they agree."""
    try:
        page = json.loads(page_text)
    except json.JSONDecodeError:
        failures.append(f"{label}: the page wrote no JSON: {page_text[:200]}")
        return False
    if code == 2:  # the CLI refused the input: the page must refuse it with the same message
        message = err.removeprefix("gameplan: ").splitlines()[0] if err else ""
        if page.get("error") != message:
            failures.append(f"{label}: CLI refused with '{message}', page said {page_text[:200]}")
            return False
        return True
    try:
        cli = json.loads(out)
    except json.JSONDecodeError:
        failures.append(f"{label}: the CLI printed no JSON (exit {code}): {out[:200]} {err[:200]}")
        return False
    keys = (set(cli) | set(page)) - TIMING_KEYS
    bad = [k for k in sorted(keys) if cli.get(k, "<missing>") != page.get(k, "<missing>")]
    if bad:
        failures.append(f"{label}: keys differ: " + ", ".join(
            f"{k}: CLI {json.dumps(cli.get(k, '<missing>'))[:120]} page {json.dumps(page.get(k, '<missing>'))[:120]}" for k in bad))
        return False
    return True


def read_png_rgb(path):
    """(width, height, pixels) of an 8-bit RGB PNG without interlacing (what `gameplan demo --png-every`
    writes); pixels is a bytes object of width * height * 3."""
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(f"{path}: not a PNG")
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if (depth, colour, interlace) != (8, 2, 0):
                raise ValueError(f"{path}: not 8-bit RGB without interlacing")
        elif kind == b"IDAT":
            idat += body
    raw, stride, bpp = zlib.decompress(idat), width * 3, 3
    out, prev = bytearray(), bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif f == 3:
            for i in range(stride):
                line[i] = (line[i] + ((line[i - bpp] if i >= bpp else 0) + prev[i]) // 2) & 255
        elif f == 4:
            for i in range(stride):
                a, b, c = (line[i - bpp], prev[i], prev[i - bpp]) if i >= bpp else (0, prev[i], 0)
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        out += line
        prev = line
    return width, height, bytes(out)


def village_canvas_checks(driver, cells_w, cells_h, save, dens, failures):
    """The village page's canvas against the CLI's save file of the same tick: with the "wolves and
    danger" box checked, every open cell without a place or a villager is the ground colour blended
    towards the heat colour by 0.75 * min(1, danger / 8) (docs/demo.md: strongest at 8 and above),
    every blocked one the wall colour, and each den's centre the den colour; unchecked, no heat and no
    den is drawn. Returns the number of cells the heat overlay tints."""
    ground, wall, heat, den = (214, 228, 190), (74, 90, 106), (230, 20, 20), (120, 0, 0)
    rows = save["maps"][0]["rows"]
    tables = {t["name"]: t for t in save["tables"]}

    def table(name):
        t = tables[name]
        return [dict(zip(t["columns"], r)) for r in t["rows"]]
    danger = {(r["x"], r["y"]): struct.unpack("<f", struct.pack("<I", r["bits"]))[0] for r in table("danger")}
    covered = {(r["x"], r["y"]) for r in table("places")} | {(r["x"], r["y"]) for r in table("villagers")}
    check = [(x, y) for y in range(cells_h) for x in range(cells_w) if (x, y) not in covered]
    points = json.dumps([[x, y] for x, y in check])
    centres = json.dumps(dens)
    read = ("const c = document.getElementById('canvas'), cs = c.width / %d;"
            "const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;"
            "const px = (x, y) => { const i = 4 * (y * c.width + x); return [d[i], d[i + 1], d[i + 2]]; };"
            "return [%s.map(([x, y]) => px(x * cs, y * cs)), %s.map(([x, y]) => px(x * cs + Math.floor(cs / 2), y * cs + Math.floor(cs / 2)))];"
            % (cells_w, points, centres))
    tinted = 0
    for overlay in (True, False):
        corners, den_pixels = driver.script(read)
        bad = []
        for (x, y), got in zip(check, corners):
            want = wall
            if rows[y][x] == ".":
                a = 0.75 * min(1.0, danger.get((x, y), 0.0) / 8.0) if overlay else 0.0
                want = tuple(g + (h - g) * a for g, h in zip(ground, heat))
                tinted += overlay and a > 0
            if any(abs(g - w) > 1 for g, w in zip(got, want)):
                bad.append(f"({x},{y}) {got} not {tuple(round(w) for w in want)}")
        dens_drawn = sum(tuple(p) == den for p in den_pixels)
        label = "checked" if overlay else "unchecked"
        if bad:
            failures.append(f"canvas, wolves and danger {label}: {len(bad)} of {len(check)} cells differ from the "
                            f"CLI's save: " + ", ".join(bad[:5]))
        if dens_drawn != (len(dens) if overlay else 0):
            failures.append(f"canvas, wolves and danger {label}: {dens_drawn} of {len(dens)} dens drawn")
        if overlay:  # uncheck the box: the page redraws without the overlay
            driver.script("document.getElementById('wolves').click(); return 0;")
    return tinted


def bench_map(path, size=512, seed=7, density=0.2):
    """A size x size MovingAI map with `density` of its cells blocked at random, 4 x 4 corners kept free."""
    rnd = random.Random(seed)
    rows = []
    for y in range(size):
        rows.append("".join("@" if rnd.random() < density and max(x, y) > 3 and min(x, y) < size - 4 else "."
                            for x in range(size)))
    with open(path, "w", encoding="ascii") as f:
        f.write(f"type octile\nheight {size}\nwidth {size}\nmap\n" + "\n".join(rows) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--site", required=True)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--repo", required=True)
    ap.add_argument("--out", required=True, help="folder for screenshots/ (and the timing map)")
    ap.add_argument("--perf", action="store_true")
    a = ap.parse_args()
    site, repo = os.path.abspath(a.site), os.path.abspath(a.repo)
    shots = os.path.join(os.path.abspath(a.out), "screenshots")
    os.makedirs(shots, exist_ok=True)

    port, driver_port = free_port(), free_port()
    procs = []
    tmp = tempfile.mkdtemp(prefix="gameplan-web-")
    failures, checked = [], 0
    driver = None
    try:
        procs.append(subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1",
                                       "--directory", site], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        procs.append(subprocess.Popen([shutil.which("chromedriver") or "/usr/bin/chromedriver", f"--port={driver_port}"],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        wait_port(port)
        wait_port(driver_port)
        driver = WebDriver(driver_port, os.path.join(tmp, "profile"))
        base = f"http://127.0.0.1:{port}/"

        # Paths: every shipped map x every algorithm, default start and goal of the page.
        maps = json.load(open(os.path.join(site, "maps", "index.json")))
        for m in maps:
            file = os.path.join(repo, "examples", "maps", m["file"])
            (fx, fy), (tx, ty) = ends(file)
            for alg in ALGORITHMS:
                url = base + "index.html?" + urllib.parse.urlencode(
                    {"map": m["name"], "from": f"{fx},{fy}", "to": f"{tx},{ty}", "algorithm": alg, "replay": 0})
                driver.get(url)
                page = driver.result()
                code, out, err = run_cli(a.cli, ["path", file, "--from", f"{fx},{fy}", "--to", f"{tx},{ty}",
                                                 "--algorithm", alg, "--json"])
                ok = compare(f"map {m['name']} --algorithm {alg}", page, code, out, err, failures)
                checked += 1
                print(f"{'ok  ' if ok else 'FAIL'} path {m['name']} {alg}: " + (f"cost {json.loads(page).get('cost')}" if ok and code != 2 else "refused" if ok else ""))
            # The hex reading of the same map (and an algorithm the CLI refuses on hexes).
            for alg in HEX_ALGORITHMS:
                url = base + "index.html?" + urllib.parse.urlencode(
                    {"map": m["name"], "from": f"{fx},{fy}", "to": f"{tx},{ty}", "algorithm": alg, "topology": "hex", "replay": 0})
                driver.get(url)
                page = driver.result()
                code, out, err = run_cli(a.cli, ["path", file, "--from", f"{fx},{fy}", "--to", f"{tx},{ty}",
                                                 "--topology", "hex", "--algorithm", alg, "--json"])
                ok = compare(f"map {m['name']} --topology hex --algorithm {alg}", page, code, out, err, failures)
                checked += 1
                print(f"{'ok  ' if ok else 'FAIL'} path {m['name']} hex {alg}: " + (f"cost {json.loads(page).get('cost')}" if ok and code != 2 else "refused" if ok else ""))

        # Plans: every example domain x every goal (the default one and each named goal).
        domains = json.load(open(os.path.join(site, "domains", "index.json")))
        for d in domains:
            file = os.path.join(repo, "examples", "goap", d["file"])
            goals = []
            if d["file"].endswith(".json"):
                doc = json.load(open(file, encoding="utf-8"))
                if "goal" in doc:
                    goals.append("goal")
                goals += list(doc.get("goals", {}))
            for goal in goals:
                driver.get(base + "planner.html?" + urllib.parse.urlencode({"domain": d["name"], "goal": goal}))
                page = driver.result()
                args = ["plan", file, "--json"] + ([] if goal == "goal" and "goal" not in doc.get("goals", {}) else ["--goal", goal])
                code, out, err = run_cli(a.cli, args)
                ok = compare(f"domain {d['name']} goal {goal}", page, code, out, err, failures)
                checked += 1
                print(f"{'ok  ' if ok else 'FAIL'} plan {d['name']} {goal}: " + (f"{json.loads(page).get('status')}, cost {json.loads(page).get('cost')}" if ok else ""))

        # Screenshots of the three pages.
        first = maps[0]
        (fx, fy), (tx, ty) = ends(os.path.join(repo, "examples", "maps", first["file"]))
        driver.get(base + "index.html?" + urllib.parse.urlencode(
            {"map": first["name"], "from": f"{fx},{fy}", "to": f"{tx},{ty}", "algorithm": "astar", "replay": 0}))
        driver.result()
        driver.screenshot(os.path.join(shots, "web-path.png"))
        driver.get(base + "index.html?" + urllib.parse.urlencode(
            {"map": first["name"], "from": f"{fx},{fy}", "to": f"{tx},{ty}", "algorithm": "astar", "topology": "hex", "replay": 0}))
        driver.result()
        driver.screenshot(os.path.join(shots, "web-path-hex.png"))
        driver.get(base + "planner.html?domain=guard_numbers&goal=goal")
        driver.result()
        driver.screenshot(os.path.join(shots, "web-planner.png"))
        # The village: one tick per frame, so after 120 frames it must be `gameplan demo` after 120 ticks
        # (a village whose wolves attacked by then, so that there is danger to draw).
        driver.get(base + "village.html?agents=120&size=160x100&seed=7&frames=120")
        village = json.loads(driver.result(300))
        driver.screenshot(os.path.join(shots, "web-village.png"))
        shots_dir, save_file = os.path.join(tmp, "demo-png"), os.path.join(tmp, "village.save")
        code, out, err = run_cli(a.cli, ["demo", "--size", "160x100", "--agents", "120", "--seed", "7", "--ticks", "120",
                                         "--threads", "1", "--json", "--png-every", "120", "--png-dir", shots_dir,
                                         "--save", save_file])
        demo = json.loads(out)
        bad = [k for k in ("plans", "paths", "wood", "ore", "collisions", "wolf_attacks", "checksum") if village.get(k) != demo.get(k)]
        checked += 1
        if bad:
            failures.append("village after 120 ticks: " + ", ".join(f"{k}: CLI {demo.get(k)} page {village.get(k)}" for k in bad))
        print(f"{'FAIL' if bad else 'ok  '} village 120 villagers, 120 ticks: checksum {village.get('checksum')}, "
              f"{village.get('wolf_attacks')} wolf attacks")
        # The wolves: the page's dens are the dens (dark red) of the CLI's picture of tick 0, and its canvas
        # shows them and the danger of the CLI's save at tick 120.
        pw, ph, pixels = read_png_rgb(os.path.join(shots_dir, "village_000000.png"))
        scale = pw // 160
        den_colour = bytes((120, 0, 0))
        cli_dens = sorted({(p % pw // scale, p // pw // scale) for p in range(pw * ph) if pixels[3 * p:3 * p + 3] == den_colour})
        page_dens = sorted(tuple(d) for d in village.get("dens", []))
        save = json.load(open(save_file, encoding="utf-8"))
        danger_rows = next(len(t["rows"]) for t in save["tables"] if t["name"] == "danger")
        wolves = []  # the failures of this check
        if not cli_dens or page_dens != cli_dens:
            wolves.append(f"dens: CLI picture {cli_dens}, page {page_dens}")
        json_dens = sorted(tuple(d) for d in demo.get("dens", []))
        if json_dens != cli_dens:
            wolves.append(f"dens: CLI picture {cli_dens}, CLI --json {json_dens}")
        if demo["wolf_attacks"] == 0 or village.get("danger_cells") != danger_rows:
            wolves.append(f"danger: {demo['wolf_attacks']} attacks, {danger_rows} cells in the CLI's save, "
                          f"page {village.get('danger_cells')}")
        tinted = village_canvas_checks(driver, 160, 100, save, [list(d) for d in cli_dens], wolves)
        checked += 1
        if wolves:
            failures.append("village wolves: " + "; ".join(wolves))
        print(f"{'FAIL' if wolves else 'ok  '} village wolves: {len(page_dens)} dens, "
              f"{village.get('danger_cells')} cells of danger ({tinted} open ones tinted, checked on the canvas)")
        print(f"screenshots in {shots}")

        if a.perf:
            bench = os.path.join(site, "maps", "bench512.map")
            bench_map(bench)
            q = ["--from", "0,0", "--to", "511,511"]
            repeat = 20
            driver.get(base + "index.html?" + urllib.parse.urlencode(
                {"map": "bench512", "from": "0,0", "to": "511,511", "algorithm": "astar", "replay": 0, "repeat": repeat}))
            page = json.loads(driver.result())
            code, out, err = run_cli(a.cli, ["path", bench] + q + ["--json"])
            native = json.loads(out)
            if page.get("cost") != native.get("cost"):
                failures.append(f"bench512: page cost {page.get('cost')} != CLI cost {native.get('cost')}")
            # Native mean over the same number of queries on one search state: `gameplan scen` with the
            # query repeated (its optimum from the CLI's own answer).
            scen = os.path.join(tmp, "bench512.scen")
            with open(scen, "w") as f:
                f.write("version 1\n" + "".join(f"0\tbench512.map\t512\t512\t0\t0\t511\t511\t{native['cost']:.8f}\n" for _ in range(repeat)))
            code, out, err = run_cli(a.cli, ["scen", scen, "--map", bench, "--json"])
            summary = json.loads(out.splitlines()[-1])
            native_mean = summary["mean_micros"]
            ratio = page["mean_micros"] / native_mean if native_mean else float("nan")
            print(f"perf: 512x512 A* ({page['expanded']} expanded): browser mean {page['mean_micros']} us over {repeat}, "
                  f"native mean {native_mean} us over {repeat}: {ratio:.2f}x")
            os.remove(bench)
            driver.get(base + "village.html?agents=200&size=256x256&seed=1&frames=300")
            v = json.loads(driver.result(300))
            print(f"perf: village 200 villagers on 256x256, {v['frames']} frames: frame mean {v['frame_ms_mean']} ms, "
                  f"p95 {v['frame_ms_p95']} ms, max {v['frame_ms_max']} ms (33.3 ms = 30 fps)")
            driver.screenshot(os.path.join(shots, "web-village-256.png"))
    finally:
        if driver:
            driver.quit()
        for p in procs:
            p.terminate()
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(tmp, ignore_errors=True)
    for f in failures:
        print("FAIL " + f)
    print(f"{checked - len([f for f in failures if not f.startswith('bench')])} of {checked} page results equal the CLI's")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
