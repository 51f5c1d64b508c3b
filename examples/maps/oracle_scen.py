#!/usr/bin/env python3
# Regenerates the example scenario files from their maps with an independent Python Dijkstra:
#   python3 examples/maps/oracle_scen.py examples/maps/rooms.map rooms.map 40 7 > examples/maps/rooms.map.scen
#   python3 examples/maps/oracle_scen.py examples/maps/terrain.txt terrain.txt 30 3 > examples/maps/terrain.scen
# Independent oracle (Python): Dijkstra under the MovingAI rule (8-connected, no corner cutting,
# cardinal 1, diagonal sqrt(2), times the entered cell's terrain cost).
import heapq, math, random, sys

def read_grid(path):
    lines = open(path).read().split("\n")
    if lines[0].startswith("type"):
        h = int(lines[1].split()[1]); w = int(lines[2].split()[1])
        rows = lines[4:4 + h]
    else:
        rows = [l for l in lines if l and not l.startswith(";")]
    cost = []
    for r in rows:
        row = []
        for c in r:
            if c in ".GS": row.append(1)
            elif c.isdigit(): row.append(int(c))
            else: row.append(0)
        cost.append(row)
    return cost

def dijkstra(cost, s):
    h, w = len(cost), len(cost[0])
    free = lambda x, y: 0 <= x < w and 0 <= y < h and cost[y][x] > 0
    dist = {s: 0.0}
    pq = [(0.0, s)]
    while pq:
        d, (x, y) = heapq.heappop(pq)
        if d > dist[(x, y)]: continue
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                if dx == 0 and dy == 0: continue
                nx, ny = x + dx, y + dy
                if not free(nx, ny): continue
                if dx and dy and not (free(x + dx, y) and free(x, y + dy)): continue
                nd = d + cost[ny][nx] * (math.sqrt(2) if dx and dy else 1)
                if nd < dist.get((nx, ny), math.inf):
                    dist[(nx, ny)] = nd
                    heapq.heappush(pq, (nd, (nx, ny)))
    return dist

if __name__ == "__main__":
    path, mapname, count, seed = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    cost = read_grid(path)
    h, w = len(cost), len(cost[0])
    cells = [(x, y) for y in range(h) for x in range(w) if cost[y][x] > 0]
    rng = random.Random(seed)
    out = ["version 1"]
    n = 0
    while n < count:
        s, t = rng.choice(cells), rng.choice(cells)
        d = dijkstra(cost, s).get(t)
        if d is None: continue
        out.append("%d\t%s\t%d\t%d\t%d\t%d\t%d\t%d\t%.5f" % (int(d // 4), mapname, w, h, s[0], s[1], t[0], t[1], d))
        n += 1
    print("\n".join(out))
