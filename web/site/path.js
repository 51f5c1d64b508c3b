// The pathfinding playground (index.html). The map lives in the WebAssembly module; this file keeps a
// copy of its cells for drawing and editing, and sends the edited map back as a plain-text grid.
"use strict";
(async function () {
  const $ = gp.$;
  const canvas = $("canvas"), ctx = canvas.getContext("2d");
  const st = { w: 0, h: 0, cells: null, from: [0, 0], to: [0, 0], path: [], expanded: null, shown: 0, cs: 1, anim: 0, name: "" };
  const COST_COLOUR = { 3: [185, 216, 156], 5: [156, 192, 168], 9: [165, 142, 114] };

  // ---- maps -------------------------------------------------------------------------------------
  let index = [];
  function mulberry32(a) {
    return function () {
      a |= 0; a = (a + 0x6d2b79f5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  // A generated map: rooms joined by doors, with scattered blocks and patches of terrain.
  function generate(kind, w, h, seed) {
    const rnd = mulberry32(seed * 2654435761 + w * 7 + h);
    const g = new Uint8Array(w * h).fill(1);
    const set = (x, y, v) => { if (x >= 0 && y >= 0 && x < w && y < h) g[y * w + x] = v; };
    if (kind === "rooms") {
      const room = Math.max(6, Math.round(Math.min(w, h) / 6));
      for (let y = 0; y < h; y += room) for (let x = 0; x < w; x++) set(x, y, 0);
      for (let x = 0; x < w; x += room) for (let y = 0; y < h; y++) set(x, y, 0);
      for (let y = 0; y < h; y += room)
        for (let x = 0; x < w; x += room) {
          set(x + 1 + Math.floor(rnd() * (room - 2)), y, 1);
          set(x, y + 1 + Math.floor(rnd() * (room - 2)), 1);
        }
    } else {
      for (let i = 0; i < w * h * 0.3; i++) set(Math.floor(rnd() * w), Math.floor(rnd() * h), 0);
    }
    for (let p = 0; p < Math.max(2, (w * h) / 600); p++) {  // terrain patches
      const cost = [3, 5, 9][Math.floor(rnd() * 3)], cx = Math.floor(rnd() * w), cy = Math.floor(rnd() * h);
      const r = 2 + Math.floor(rnd() * Math.min(w, h) / 10);
      for (let y = cy - r; y <= cy + r; y++)
        for (let x = cx - r; x <= cx + r; x++)
          if ((x - cx) ** 2 + (y - cy) ** 2 <= r * r && x >= 0 && y >= 0 && x < w && y < h && g[y * w + x] !== 0) g[y * w + x] = cost;
    }
    return gridText(g, w, h);
  }
  function gridText(g, w, h) {
    const rows = [];
    for (let y = 0; y < h; y++) {
      let row = "";
      for (let x = 0; x < w; x++) {
        const c = g[y * w + x];
        row += c === 0 ? "@" : c === 1 ? "." : c <= 9 ? String(c) : ".";
      }
      rows.push(row);
    }
    return rows.join("\n") + "\n";
  }
  function loadText(name, text) {
    const r = gp.json("gp_load_map", ["string", "string"], [name, text]);
    if (r.error) throw new Error(r.error);
    st.w = r.width; st.h = r.height; st.name = name;
    const ptr = Module.ccall("gp_map_cells", "number", [], []);
    st.cells = Module.HEAPU8.slice(ptr, ptr + st.w * st.h);
    st.path = []; st.expanded = null; st.shown = 0;
    st.cs = Math.max(1, Math.floor(Math.min(800 / st.w, 600 / st.h)));
    canvas.width = st.w * st.cs; canvas.height = st.h * st.cs;
    return r;
  }
  const free = (x, y) => x >= 0 && y >= 0 && x < st.w && y < st.h && st.cells[y * st.w + x] !== 0;
  function firstFree(fromEnd) {
    for (let i = 0; i < st.w * st.h; i++) {
      const k = fromEnd ? st.w * st.h - 1 - i : i;
      if (st.cells[k]) return [k % st.w, Math.floor(k / st.w)];
    }
    return [0, 0];
  }
  async function loadSelected() {
    const v = $("map").value, seed = Number($("seed").value) || 0;
    const [w, h] = $("size").value.split("x").map(Number);
    if (v.startsWith("gen:")) loadText(v.slice(4) + "-" + w + "x" + h + "-" + seed, generate(v.slice(4), w, h, seed));
    else await loadShipped(v);
    st.from = firstFree(false); st.to = firstFree(true);
  }
  async function loadShipped(name) {
    const entry = index.find((m) => m.name === name);
    const file = entry ? entry.file : name + ".map";
    loadText(file, await gp.fetchText("maps/" + file));
  }

  // ---- drawing ----------------------------------------------------------------------------------
  const off = document.createElement("canvas"), offCtx = off.getContext("2d");
  // Hex topology (odd-r): odd rows sit half a cell right, so the picture is half a cell wider; a cell is
  // two half-cell pixels of the offscreen image, shifted by one on odd rows.
  const isHex = () => $("topology").value === "hex";
  const centreX = (x, y) => x + 0.5 + (isHex() ? (y & 1) * 0.5 : 0);
  function draw() {
    const { w, h, cs } = st;
    if (!w) return;
    const hex = isHex(), sub = hex ? 2 : 1, ow = hex ? 2 * w + 1 : w;
    const width = Math.round((hex ? w + 0.5 : w) * cs);
    if (canvas.width !== width) canvas.width = width;
    off.width = ow; off.height = h;
    const img = offCtx.createImageData(ow, h), d = img.data;
    const put = (i, rgb) => {
      const x = i % w, y = Math.floor(i / w), first = y * ow + sub * x + (hex ? y & 1 : 0);
      for (let k = 0; k < sub; k++) {
        const j = 4 * (first + k);
        d[j] = rgb[0]; d[j + 1] = rgb[1]; d[j + 2] = rgb[2]; d[j + 3] = 255;
      }
    };
    for (let i = 0; i < w * h; i++) {
      const c = st.cells[i];
      put(i, c === 0 ? [60, 70, 80] : c === 1 ? [250, 250, 246] : COST_COLOUR[c] || [200, 190, 160 - Math.min(c, 60)]);
    }
    if (st.expanded)
      for (let k = 0; k < st.shown; k++) {
        const i = st.expanded[2 * k + 1] * w + st.expanded[2 * k];
        put(i, st.cells[i] === 1 ? [255, 210, 122] : [240, 180, 90]);
      }
    offCtx.putImageData(img, 0, 0);
    ctx.clearRect(0, 0, canvas.width, canvas.height);
    ctx.imageSmoothingEnabled = false;
    ctx.drawImage(off, 0, 0, width, h * cs);
    if (cs >= 6) {
      ctx.strokeStyle = "rgba(0,0,0,0.06)"; ctx.lineWidth = 1; ctx.beginPath();
      if (hex) {  // brick rows: each cell's sides, odd rows half a cell right
        for (let y = 0; y < h; y++) {
          const shift = (y & 1) * 0.5;
          for (let x = 0; x <= w; x++) {
            const px = Math.round((x + shift) * cs) + 0.5;
            ctx.moveTo(px, y * cs); ctx.lineTo(px, (y + 1) * cs);
          }
        }
      } else {
        for (let x = 0; x <= w; x++) { ctx.moveTo(x * cs + 0.5, 0); ctx.lineTo(x * cs + 0.5, h * cs); }
      }
      for (let y = 0; y <= h; y++) { ctx.moveTo(0, y * cs + 0.5); ctx.lineTo(width, y * cs + 0.5); }
      ctx.stroke();
    }
    const done = !st.expanded || st.shown >= st.expanded.length / 2;
    if (done && st.path.length) {
      const navmesh = (st.pathKind || "").startsWith("navmesh");  // navmesh points are positions; others are cells
      const px = (p) => (navmesh ? p[0] : centreX(p[0], p[1])) * cs, py = (p) => (navmesh ? p[1] : p[1] + 0.5) * cs;
      ctx.strokeStyle = "#d33a2c"; ctx.lineWidth = Math.max(2, cs / 3); ctx.lineJoin = "round"; ctx.beginPath();
      st.path.forEach((p, i) => (i ? ctx.lineTo(px(p), py(p)) : ctx.moveTo(px(p), py(p))));
      ctx.stroke();
    }
    const marker = (p, colour) => {
      const r = Math.max(3, cs * 0.45);
      ctx.fillStyle = colour; ctx.strokeStyle = "#fff"; ctx.lineWidth = 1.5;
      ctx.beginPath(); ctx.arc(centreX(p[0], p[1]) * cs, (p[1] + 0.5) * cs, r, 0, 2 * Math.PI); ctx.fill(); ctx.stroke();
    };
    marker(st.from, "#1f9d55");
    marker(st.to, "#cc2222");
  }
  function animate() {
    cancelAnimationFrame(st.anim);
    const speed = Number($("speed").value);
    if (!st.expanded || speed === 0) { st.shown = st.expanded ? st.expanded.length / 2 : 0; draw(); return; }
    const total = st.expanded.length / 2, perFrame = Math.max(1, Math.ceil((speed * total) / 240));
    st.shown = 0;
    const tick = () => {
      st.shown = Math.min(total, st.shown + perFrame);
      draw();
      if (st.shown < total) st.anim = requestAnimationFrame(tick);
    };
    tick();
  }

  // ---- queries ----------------------------------------------------------------------------------
  function query(repeat) {
    const alg = $("algorithm").value;
    const types = ["string", "number", "number", "number", "number", "string", "string", "string", "number", "number", "string", "number"];
    const values = [alg, st.from[0], st.from[1], st.to[0], st.to[1], $("movement").value, $("diagonal").value, $("heuristic").value,
      Number($("weight").value), $("smooth").checked ? 1 : 0, $("topology").value, repeat || 1];
    const text = gp.text("gp_path", types, values);
    const r = JSON.parse(text);
    $("message").textContent = r.error ? r.error : "";
    $("message").className = r.error ? "error" : "hint";
    st.path = r.path || [];
    st.pathKind = alg;
    const n = Module.ccall("gp_expanded_count", "number", [], []);
    const ptr = Module.ccall("gp_expanded", "number", [], []);
    st.expanded = n ? Module.HEAP32.slice(ptr >> 2, (ptr >> 2) + 2 * n) : null;
    $("f-status").textContent = r.error ? "error" : r.status;
    $("f-cost").textContent = r.cost === null || r.cost === undefined ? "-" : Number(r.cost).toFixed(3).replace(/\.?0+$/, "");
    $("f-expanded").textContent = r.expanded ?? "-";
    let micros = r.mean_micros ?? r.micros;
    if (!r.error && (repeat || 1) === 1 && micros < 2000) {
      // Browsers round their clocks to 0.1 ms (more without cross-origin isolation): time a quick
      // search over 32 runs on the same search state instead.
      micros = JSON.parse(gp.text("gp_path", types, values.slice(0, -1).concat([32]))).mean_micros;
    }
    $("f-time").textContent = gp.fmt(micros);
    const setup = (r.setup_micros || 0) + (r.preprocess_ms || 0) * 1000;  // navmesh-ch: the mesh and its hierarchy
    $("f-setup").textContent = setup ? gp.fmt(setup, 0) : "-";
    $("f-cells").textContent = st.path.length || "-";
    return text;
  }
  // Hex rows have six neighbours and no diagonal rule: the square grid's movement controls do not apply.
  const syncControls = () => {
    for (const id of ["movement", "diagonal"]) {
      $(id).disabled = isHex();
      $(id).title = isHex() ? "hex rows: six neighbours, no diagonal rule" : "";
    }
  };
  const run = () => { syncControls(); query(0); animate(); };

  // ---- mouse ------------------------------------------------------------------------------------
  let drag = null, painted = false;
  const cellAt = (e) => {
    const b = canvas.getBoundingClientRect();
    const y = Math.floor(((e.clientY - b.top) * canvas.height) / b.height / st.cs);
    const x = ((e.clientX - b.left) * canvas.width) / b.width / st.cs - (isHex() ? (y & 1) * 0.5 : 0);
    return [Math.floor(x), y];
  };
  const paint = (c) => {
    if (c[0] < 0 || c[1] < 0 || c[0] >= st.w || c[1] >= st.h) return;
    if ((c[0] === st.from[0] && c[1] === st.from[1]) || (c[0] === st.to[0] && c[1] === st.to[1])) return;
    st.cells[c[1] * st.w + c[0]] = Number($("brush").value);
    painted = true; st.expanded = null; st.path = []; draw();
  };
  canvas.addEventListener("mousedown", (e) => {
    const c = cellAt(e);
    drag = c[0] === st.from[0] && c[1] === st.from[1] ? "from" : c[0] === st.to[0] && c[1] === st.to[1] ? "to" : "paint";
    if (drag === "paint") paint(c);
  });
  canvas.addEventListener("mousemove", (e) => {
    if (!drag) return;
    const c = cellAt(e);
    if (drag === "paint") return paint(c);
    if (free(c[0], c[1])) { st[drag] = c; st.expanded = null; st.path = []; draw(); }
  });
  window.addEventListener("mouseup", () => {
    if (!drag) return;
    if (painted) loadText(st.name.replace(/(-edited)?(\.\w+)?$/, "-edited.txt"), gridText(st.cells, st.w, st.h));
    painted = false; drag = null; run();
  });

  // ---- controls ---------------------------------------------------------------------------------
  await gp.ready;
  index = await gp.fetchJson("maps/index.json");
  for (const m of index) gp.option($("map"), m.name, m.file);
  gp.option($("map"), "gen:rooms", "generated: rooms");
  gp.option($("map"), "gen:random", "generated: scattered");
  $("run").onclick = run;
  for (const id of ["algorithm", "movement", "diagonal", "heuristic", "weight", "smooth", "topology"]) $(id).onchange = run;
  for (const id of ["map", "seed", "size"]) $(id).onchange = async () => { await loadSelected(); run(); };
  $("clear").onclick = () => { st.cells = st.cells.map((c) => (c === 0 ? 1 : c)); loadText(st.name, gridText(st.cells, st.w, st.h)); run(); };
  $("file").onchange = async (e) => {
    const f = e.target.files[0];
    if (!f) return;
    try { loadText(f.name, await f.text()); st.from = firstFree(false); st.to = firstFree(true); run(); }
    catch (err) { $("message").textContent = err.message; $("message").className = "error"; }
  };

  // Automation: ?map=NAME&from=X,Y&to=X,Y&algorithm=ALG[&movement&diagonal&heuristic&weight&smooth&topology&repeat=N]
  const p = gp.params;
  try {
    if (p.has("map")) {
      const name = p.get("map");
      if (index.some((m) => m.name === name)) $("map").value = name;
      await loadShipped(name);
      st.from = p.has("from") ? p.get("from").split(",").map(Number) : firstFree(false);
      st.to = p.has("to") ? p.get("to").split(",").map(Number) : firstFree(true);
      for (const k of ["algorithm", "movement", "diagonal", "heuristic", "weight", "topology"]) if (p.has(k)) $(k).value = p.get(k);
      $("smooth").checked = p.get("smooth") === "1";
      if (p.has("replay")) $("speed").value = p.get("replay");
      syncControls();
      const text = query(Number(p.get("repeat") || 1));
      gp.result(text);
      animate();
    } else {
      $("map").value = index.length ? index[0].name : "gen:rooms";
      await loadSelected();
      run();
    }
  } catch (err) {
    gp.result(JSON.stringify({ error: err.message }));
  }
})();
