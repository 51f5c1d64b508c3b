// The planner playground (planner.html): a domain editor, its goals, the plan and why there is none.
"use strict";
(async function () {
  const $ = gp.$;
  const editor = $("editor");
  let loaded = null, timer = 0;
  const esc = (s) => String(s).replace(/[&<>]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;" })[c]);

  // Caret to line/column (both 1-based, columns in characters).
  function goTo(line, column) {
    const lines = editor.value.split("\n");
    let pos = 0;
    for (let i = 0; i < Math.min(line - 1, lines.length); i++) pos += lines[i].length + 1;
    pos += Math.max(0, column - 1);
    editor.focus();
    editor.setSelectionRange(pos, pos + 1);
    editor.scrollTop = Math.max(0, (line - 5) * 17.4);
  }
  function read() {
    const name = "domain." + $("format").value;
    const r = gp.json("gp_load_domain", ["string", "string"], [name, editor.value]);
    const list = $("errors");
    list.innerHTML = "";
    const goal = $("goal"), keep = goal.value;
    if (r.error) {
      loaded = null;
      for (const e of r.errors || [{ message: r.error }]) {
        const li = document.createElement("li");
        li.textContent = e.line ? `line ${e.line}, column ${e.column}: ${e.message}` : e.message;
        if (e.line) li.onclick = () => goTo(e.line, e.column);
        list.appendChild(li);
      }
      return false;
    }
    loaded = r;
    goal.innerHTML = "";
    for (const g of r.goals) gp.option(goal, g.name, g.priority === null ? g.name : `${g.name} (priority ${g.priority})`);
    goal.value = r.goals.some((g) => g.name === keep) ? keep : r.default ?? "";
    return true;
  }
  function plan() {
    if (!loaded && !read()) { $("answer").innerHTML = ""; return null; }
    const text = gp.text("gp_plan", ["string", "string"], [$("goal").value, $("direction").value]);
    const r = JSON.parse(text);
    const a = $("answer");
    if (r.error) { a.innerHTML = `<p class="error">${esc(r.error)}</p>`; return text; }
    $("f-status").textContent = r.status;
    $("f-cost").textContent = r.cost ?? "-";
    $("f-expanded").textContent = r.expanded;
    $("f-generated").textContent = r.generated;
    $("f-time").textContent = gp.fmt(r.micros);
    if (r.status === "found") {
      a.innerHTML = r.plan.length
        ? `<h2>Plan</h2><ol class="plan">${r.plan.map((s) => `<li>${esc(s)}</li>`).join("")}</ol>`
        : "<p>The goal already holds at the start: nothing to do.</p>";
    } else if (r.status === "no_plan") {
      const items = (xs) => xs.map((x) => `<code>${esc(x)}</code>`).join(", ");
      const un = Object.entries(r.unreachable_goals || {}).map(([k, v]) => `<code>${esc(k)} = ${esc(JSON.stringify(v))}</code>`);
      let h = "<h2>Why there is no plan</h2>";
      h += un.length ? `<p>Unreachable goal conditions: ${un.join(", ")}</p>` : "<p>Every goal item is reachable on its own, but not all of them together.</p>";
      if (r.root_causes?.length) h += `<p>Nothing sets (not true at the start, no action sets them): ${items(r.root_causes)}</p>`;
      for (const c of r.cycles || []) h += `<p>These only need each other: ${items(c)}</p>`;
      a.innerHTML = h;
    } else {
      a.innerHTML = `<p>No answer: ${esc(r.status)}${r.limit ? " (" + esc(r.limit) + " budget)" : ""}</p>`;
    }
    return text;
  }

  await gp.ready;
  const index = await gp.fetchJson("domains/index.json");
  for (const d of index) gp.option($("domain"), d.name, d.file);
  async function loadDomain(name) {
    const entry = index.find((d) => d.name === name);
    if (!entry) throw new Error("no example domain named '" + name + "'");
    $("domain").value = name;
    $("format").value = entry.file.endsWith(".csv") ? "csv" : "json";
    editor.value = await gp.fetchText("domains/" + entry.file);
    loaded = null;
    read();
  }
  $("domain").onchange = async () => { await loadDomain($("domain").value); plan(); };
  $("format").onchange = () => { read(); };
  $("plan").onclick = plan;
  $("goal").onchange = plan;
  $("direction").onchange = plan;
  editor.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(() => { if (read()) plan(); }, 250); });

  // Automation: ?domain=NAME&goal=GOAL[&direction=forward|backward]
  const p = gp.params;
  try {
    await loadDomain(p.get("domain") || (index.find((d) => d.name === "hunger") || index[0]).name);
    if (p.has("goal")) {
      if (!loaded || !loaded.goals.some((g) => g.name === p.get("goal"))) gp.option($("goal"), p.get("goal"));
      $("goal").value = p.get("goal");
    }
    if (p.has("direction")) $("direction").value = p.get("direction");
    const text = plan();
    if (p.has("domain")) gp.result(text);
  } catch (err) {
    gp.result(JSON.stringify({ error: err.message }));
  }
})();
