// Shared by the three pages: loads the WebAssembly module (gameplan.js) and calls into it.
// gameplan.js (emscripten) reads the global `Module`; it must be loaded after this file.
"use strict";
const gp = {};
gp.ready = new Promise((resolve) => {
  window.Module = { onRuntimeInitialized: resolve, print: (t) => console.log(t), printErr: (t) => console.warn(t) };
});
// Calls an exported C function returning a JSON text and parses it.
gp.json = (name, types, args) => JSON.parse(Module.ccall(name, "string", types, args));
// The same, unparsed (the result element shows the module's text exactly as written).
gp.text = (name, types, args) => Module.ccall(name, "string", types, args);
gp.params = new URLSearchParams(location.search);
gp.fetchText = async (url) => {
  const r = await fetch(url);
  if (!r.ok) throw new Error(url + ": " + r.status + " " + r.statusText);
  return r.text();
};
gp.fetchJson = async (url) => JSON.parse(await gp.fetchText(url));
gp.$ = (id) => document.getElementById(id);
// Writes the automation result (the CLI's --json object) into <pre id="result">.
gp.result = (text) => {
  const el = gp.$("result");
  el.textContent = text;
  el.dataset.done = "1";
};
gp.option = (select, value, label) => {
  const o = document.createElement("option");
  o.value = value;
  o.textContent = label ?? value;
  select.appendChild(o);
  return o;
};
gp.fmt = (x, digits = 1) => (x === null || x === undefined ? "-" : Number(x).toFixed(digits));
