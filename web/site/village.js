// The village (village.html): `gameplan demo` on a canvas. Each frame runs the simulation's ticks in
// the WebAssembly module and draws the map, the places and the villagers, and (checkbox "wolves and
// danger") the danger the wolves spread as a red heat overlay and the wolf dens, as `gameplan demo`'s
// pictures do (tools/village/src/render.cpp).
"use strict";
(async function () {
  const $ = gp.$;
  const canvas = $("canvas"), ctx = canvas.getContext("2d");
  const off = document.createElement("canvas"), offCtx = off.getContext("2d");
  const KIND = ["#2e7d32", "#5c6bc0", "#e65100"];
  const PLACE = ["#1b5e20", "#8d6e63", "#f9a825", "#fdd835", "#ffb300", "#fff176"];
  // The heat overlay and the dens as in render.cpp: open cells blended towards HEAT, with the weight
  // 0.75 * min(1, danger / HEAT_FULL); a den is a dark red square half a cell wide, drawn on top.
  const HEAT = [230, 20, 20], HEAT_FULL = 8, DEN = "#780000";
  const v = { w: 0, h: 0, cs: 1, running: false, frames: [], last: null, rate: [], anim: 0, bg: null };

  function create() {
    const [w, h] = $("size").value.split("x").map(Number);
    const r = gp.json("gp_village_create", ["number", "number", "number", "number"], [w, h, Number($("agents").value), Number($("seed").value)]);
    if (r.error) { $("status").textContent = r.error; return false; }
    v.w = w; v.h = h; v.cs = Math.max(1, Math.min(Math.floor(820 / w), Math.floor(780 / h)));
    canvas.width = w * v.cs; canvas.height = h * v.cs;
    v.frames = []; v.rate = []; v.last = null;
    return true;
  }
  function draw() {
    const { w, h, cs } = v;
    // Every call may grow the module's memory, which detaches the views: take the views after the calls.
    const wolves = $("wolves").checked;
    const dp = wolves ? Module.ccall("gp_village_danger", "number", [], []) >> 2 : 0;
    const ptr = Module.ccall("gp_village_cells", "number", [], []);
    const cells = Module.HEAPU8.subarray(ptr, ptr + w * h);
    off.width = w; off.height = h;
    const img = offCtx.createImageData(w, h), d = img.data;
    for (let i = 0; i < w * h; i++) {
      const free = cells[i] !== 0;
      d[4 * i] = free ? 214 : 74; d[4 * i + 1] = free ? 228 : 90; d[4 * i + 2] = free ? 190 : 106; d[4 * i + 3] = 255;
    }
    if (wolves) {
      const danger = Module.HEAPF32.subarray(dp, dp + w * h);
      for (let i = 0; i < w * h; i++) {
        if (!(danger[i] > 0) || cells[i] === 0) continue;
        const a = 0.75 * Math.min(1, danger[i] / HEAT_FULL);
        for (let c = 0; c < 3; c++) d[4 * i + c] = Math.round(d[4 * i + c] + (HEAT[c] - d[4 * i + c]) * a);
      }
    }
    offCtx.putImageData(img, 0, 0);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(off, 0, 0, w * cs, h * cs);
    const np = Module.ccall("gp_village_place_count", "number", [], []);
    const pp = Module.ccall("gp_village_places", "number", [], []) >> 2;
    const places = Module.HEAP32.subarray(pp, pp + 4 * np);
    for (let i = 0; i < np; i++) {
      const x = places[4 * i], y = places[4 * i + 1], kind = places[4 * i + 2], up = places[4 * i + 3];
      ctx.fillStyle = kind === 0 && !up ? "#a5c48f" : PLACE[kind];
      if (kind === 0) { ctx.beginPath(); ctx.arc((x + 0.5) * cs, (y + 0.5) * cs, cs * 0.5, 0, 2 * Math.PI); ctx.fill(); }
      else ctx.fillRect(x * cs, y * cs, cs, cs);
    }
    const st = JSON.parse(Module.ccall("gp_village_step", "string", ["number"], [0]));
    const ap = Module.ccall("gp_village_agents", "number", [], []) >> 2;
    const agents = Module.HEAP32.subarray(ap, ap + 4 * st.villagers);
    for (let i = 0; i < st.villagers; i++) {
      const x = agents[4 * i], y = agents[4 * i + 1];
      ctx.fillStyle = KIND[agents[4 * i + 2]];
      if (cs < 4) ctx.fillRect(x * cs - (cs < 3 ? 1 : 0), y * cs - (cs < 3 ? 1 : 0), Math.max(3, cs), Math.max(3, cs));
      else ctx.fillRect(x * cs + 0.5, y * cs + 0.5, cs - 1, cs - 1);
      if (agents[4 * i + 3] === 2 && cs >= 4) { ctx.strokeStyle = "#000"; ctx.lineWidth = 1; ctx.strokeRect(x * cs + 0.5, y * cs + 0.5, cs - 1, cs - 1); }
    }
    if (wolves) {
      const nd = st.dens, denp = Module.ccall("gp_village_dens", "number", [], []) >> 2;
      const dens = Module.HEAP32.subarray(denp, denp + 2 * nd);
      const side = Math.max(1, Math.floor((cs + 1) / 2)), o = Math.floor((cs - side) / 2);
      ctx.fillStyle = DEN;
      for (let i = 0; i < nd; i++) ctx.fillRect(dens[2 * i] * cs + o, dens[2 * i + 1] * cs + o, side, side);
    }
  }
  // One frame: ticks, drawing, and the status line (plans/s and paths/s over the last second).
  function frame(now) {
    const t0 = performance.now();
    const r = JSON.parse(Module.ccall("gp_village_step", "string", ["number"], [Number($("tpf").value)]));
    draw();
    const ms = performance.now() - t0;
    v.frames.push(ms);
    v.rate.push({ t: t0, plans: r.plans, paths: r.paths });
    while (v.rate.length > 2 && t0 - v.rate[0].t > 1000) v.rate.shift();
    const a = v.rate[0], span = (t0 - a.t) / 1000 || 1;
    const fps = v.last ? 1000 / (now - v.last) : 0;
    v.last = now;
    $("status").textContent = `tick ${r.tick}  villagers ${r.villagers}  plans/s ${Math.round((r.plans - a.plans) / span)}  ` +
      `paths/s ${Math.round((r.paths - a.paths) / span)}  frame ${ms.toFixed(2)} ms  (${fps.toFixed(0)} fps)  ` +
      `wood ${r.wood}  ore ${r.ore}  meals ${r.meals}  wolf attacks ${r.wolf_attacks}`;
    return r;
  }
  function loop(now) {
    if (!v.running) return;
    frame(now);
    if (v.target && v.frames.length >= v.target) return finish();
    v.anim = requestAnimationFrame(loop);
  }
  function finish() {
    v.running = false;
    const f = v.frames.slice().sort((x, y) => x - y);
    const mean = f.reduce((s, x) => s + x, 0) / f.length;
    const r = JSON.parse(Module.ccall("gp_village_step", "string", ["number"], [0]));
    const dp = Module.ccall("gp_village_dens", "number", [], []) >> 2;
    const dens = Array.from({ length: r.dens }, (_, i) => [Module.HEAP32[dp + 2 * i], Module.HEAP32[dp + 2 * i + 1]]);
    const hp = Module.ccall("gp_village_danger", "number", [], []) >> 2;
    const danger = Module.HEAPF32.subarray(hp, hp + v.w * v.h);
    gp.result(JSON.stringify({ frames: f.length, villagers: r.villagers, map: $("size").value, tick: r.tick,
      frame_ms_mean: +mean.toFixed(3), frame_ms_p95: +f[Math.floor(f.length * 0.95)].toFixed(3), frame_ms_max: +f[f.length - 1].toFixed(3),
      plans: r.plans, paths: r.paths, wood: r.wood, ore: r.ore, collisions: r.collisions, wolf_attacks: r.wolf_attacks, dens,
      danger_cells: danger.reduce((n, x) => n + (x > 0 ? 1 : 0), 0), checksum: r.checksum }));
  }
  const start = () => { if (!v.running) { v.running = true; v.last = null; v.anim = requestAnimationFrame(loop); } };
  const pause = () => { v.running = false; cancelAnimationFrame(v.anim); };

  await gp.ready;
  const p = gp.params;
  if (p.has("seed")) $("seed").value = p.get("seed");
  if (p.has("agents")) $("agents").value = p.get("agents");
  if (p.has("overlay")) $("wolves").checked = p.get("overlay") !== "0";
  if (p.has("size")) { if (![...$("size").options].some((o) => o.value === p.get("size"))) gp.option($("size"), p.get("size")); $("size").value = p.get("size"); }
  $("start").onclick = start;
  $("pause").onclick = pause;
  $("step").onclick = () => { pause(); frame(performance.now()); };
  $("reset").onclick = () => { pause(); if (create()) draw(); };
  $("wolves").onchange = () => { if (!v.running) draw(); };
  if (!create()) { gp.result(JSON.stringify({ error: $("status").textContent })); return; }
  draw();
  // Automation: ?frames=N runs N frames at once and writes the frame times into <pre id="result">.
  if (p.has("frames")) { v.target = Number(p.get("frames")); start(); }
  else if (p.get("autostart") !== "0") start();
})();
