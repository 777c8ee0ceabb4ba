// nhlab web lab: DOM wiring only. Every computation (loading, stepping, plotting,
// deriving, editing the TOML, share payloads, CSV) happens in the wasm module
// (www/src/api.rs); this file turns events into calls and results into text.
//
// Safety: user text (titles, descriptions, names, messages, anything from a shared
// URL) only ever reaches the page through textContent or input values. MathML from
// the core is rebuilt element by element from an allow-list, never assigned as HTML.
//
// Responsiveness: nothing a scenario holds may block the page. Every new scenario is
// first loaded in a Web Worker running the same wasm module, under a time budget; a
// worker that does not answer in time is terminated and replaced, and the page keeps
// the run it had. Derivations for the equations panel and CSV exports run in the
// worker too. Playback steps on the page within a time budget per frame. A wasm trap
// on the page replaces the module instance and reloads the last good scenario.

const MATHML = "http://www.w3.org/1998/Math/MathML";
const MATHML_TAGS = new Set(["math", "mrow", "mi", "mn", "mo", "msub", "msup", "msubsup", "mfrac", "msqrt",
  "mroot", "mover", "munder", "munderover", "mtable", "mtr", "mtd", "mtext", "mspace", "mstyle", "mpadded"]);
const MATHML_ATTRS = new Set(["display", "mathvariant", "stretchy", "accent", "form", "lspace", "rspace"]);
const FRAME_BUDGET_MS = 8;          // stepping per frame: a slow model lags instead of freezing the page
const MAX_STEPS_PER_CALL = 4096;     // steps per run between two looks at the frame's clock, at most
const EDIT_DEBOUNCE_MS = 250;
const MAX_TYPESET_ENTRIES = 400;     // a larger matrix is named, not typeset (layout would block the page)
const EQUATIONS_AT_ONCE = 60;        // expanded equations shown per "show more"
// Time budgets of the worker, in ms (the browser tests lower them with NHLAB_BUDGET_MS).
const budget = (what) => window.NHLAB_BUDGET_MS ?? { load: 1500, derive: 6000 }[what];

const $ = (id) => document.getElementById(id);
const el = (tag, props = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "text") e.textContent = v;
    else if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
};

const state = {
  api: null,        // the wasm bindings
  lab: null,        // the running WebLab
  text: "",         // the scenario text the running lab was built from
  info: null,       // lab.info()
  playing: true,
  speed: 1,
  clock: 0,
  lastFrame: null,
  dirty: true,
  embed: false,
  galleryName: null,
  loadToken: 0,     // the newest load; an older one that finishes late is dropped
  msPerStep: 1,     // measured cost of one call-step (ms), to size the next call
  instances: 0,     // wasm instances made after a trap
  perf: { work: [], step: [], draw: [], intervals: [] }, // frame timings (ms), read by the browser benchmark
};
window.nhlabPerf = state.perf;

// ---------- messages ----------

function notice(message, kind = "error") {
  const n = $("notice");
  if (!message) { n.hidden = true; n.textContent = ""; return; }
  n.hidden = false;
  n.className = `notice ${kind}`;
  n.textContent = message;
}

function errorText(e) {
  return e instanceof Error ? e.message : String(e);
}

function editorStatus(message, kind) {
  const s = $("editor-status");
  s.className = `editor-status ${kind}`;
  s.textContent = message;
  // The lines named by the problems are marked in the gutter.
  const bad = new Set(kind === "error" ? [...message.matchAll(/line (\d+), column \d+/g)].map((m) => Number(m[1])) : []);
  renderGutter(bad);
}

/** Line numbers beside the editor, `bad` ones marked; scrolled with the text. */
function renderGutter(bad = state.badLines ?? new Set()) {
  state.badLines = bad;
  const gutter = $("gutter");
  const lines = $("editor").value.split("\n").length;
  if (gutter.childElementCount !== lines || gutter.dataset.bad !== [...bad].join(",")) {
    gutter.replaceChildren(...Array.from({ length: lines }, (_, i) => el("span", { class: bad.has(i + 1) ? "bad" : "", text: String(i + 1) })));
    gutter.dataset.bad = [...bad].join(",");
  }
  gutter.scrollTop = $("editor").scrollTop;
}

// ---------- the worker: loading, deriving and exporting off the page ----------

const worker = { w: null, seq: 0, pending: new Map(), broken: false, ready: null };

/** The wasm module's JS glue and binary, as trunk named them in the page. */
function moduleUrls() {
  return {
    js: document.querySelector('link[rel="modulepreload"]')?.href,
    wasm: document.querySelector('link[rel="preload"][as="fetch"]')?.href,
  };
}

// The worker's program: the same module; a cache of one lab per scenario text.
const WORKER_SOURCE = (js, wasm) => `
import init, * as api from ${JSON.stringify(js)};
const ready = init({ module_or_path: ${JSON.stringify(wasm)} });
ready.then(() => self.postMessage({ ready: true }), (e) => self.postMessage({ ready: false, error: String(e) }));
let cached = { text: null, lab: null };
const lab = (text) => {
  if (cached.text !== text) {
    cached = { text: null, lab: null };
    cached = { text, lab: new api.WebLab(text) };
  }
  return cached.lab;
};
self.onmessage = async ({ data }) => {
  const { id, op } = data;
  try {
    await ready;
    let result = null;
    if (op === "check") {
      const l = lab(data.text);
      const info = l.info();
      l.advance(info.t0 + (info.t_end - info.t0) * 1e-3, 1);   // one step of every run
      for (const m of info.methods) { try { l.derive(m); } catch { /* shown as "No equations: …" */ } }
    } else if (op === "derive") {
      result = lab(data.text).derive(data.method);
    } else if (op === "csv") {
      const l = new api.WebLab(data.text);
      const info = l.info();
      while (!l.finished()) {
        if (l.advance(info.t_end, 2000) === 0) break;
        self.postMessage({ id, progress: (l.now() - info.t0) / (info.t_end - info.t0) });
      }
      result = l.csv();
      l.free();
    } else if (op === "trap") {
      api.self_test_trap();
    }
    self.postMessage({ id, ok: true, result });
  } catch (e) {
    self.postMessage({ id, ok: false, error: e instanceof Error ? e.message : String(e), trap: e instanceof WebAssembly.RuntimeError });
  }
};`;

function startWorker() {
  const { js, wasm } = moduleUrls();
  try {
    if (!js || !wasm) throw new Error("the module's files are not named in the page");
    const url = URL.createObjectURL(new Blob([WORKER_SOURCE(js, wasm)], { type: "text/javascript" }));
    worker.w = new Worker(url, { type: "module" });
  } catch (e) {
    worker.broken = true; // no workers here: load on the page, as before
    return;
  }
  // Budgets start once the worker has compiled its module: compiling is not the
  // scenario's fault, and takes longer on a busy machine.
  let markReady;
  worker.ready = new Promise((resolve) => { markReady = resolve; });
  worker.markReady = markReady;
  worker.w.onmessage = ({ data }) => {
    if (data.ready !== undefined) {
      if (!data.ready) worker.broken = true; // the module would not start there: load on the page
      markReady();
      return;
    }
    const p = worker.pending.get(data.id);
    if (!p) return;
    if (data.progress !== undefined) { p.onProgress?.(data.progress); return; }
    finish(data.id, data);
    // A trap poisons the worker's instance: replace it.
    if (data.trap) restartWorker("the worker's wasm instance trapped");
  };
  worker.w.onerror = (e) => {
    e.preventDefault?.();
    restartWorker(`the worker failed: ${e.message || "an error"}`);
  };
}

function finish(id, answer) {
  const p = worker.pending.get(id);
  if (!p) return;
  worker.pending.delete(id);
  clearTimeout(p.timer);
  p.resolve(answer);
}

/** Terminates the worker (whatever it is doing) and starts a fresh one. */
function restartWorker(why) {
  worker.w?.terminate();
  for (const id of [...worker.pending.keys()]) finish(id, { ok: false, error: why, cancelled: true });
  const wake = worker.markReady;
  startWorker();
  wake?.(); // requests waiting for the old worker to be ready now wait for the new one
}

/** Asks the worker; resolves to {ok, result} or {ok: false, error, timeout?}. With a
 *  budget, a worker that has not answered in time is replaced. */
async function ask(op, payload = {}, { budgetMs = null, onProgress = null } = {}) {
  // Wait until a worker is ready; one replaced meanwhile wakes its waiters (below).
  for (;;) {
    const w = worker.w;
    await worker.ready;
    if (worker.broken) return { ok: true, result: null, skipped: true };
    if (w === worker.w) break;
  }
  return new Promise((resolve) => {
    const id = ++worker.seq;
    const entry = { resolve, onProgress, timer: null };
    worker.pending.set(id, entry);
    if (budgetMs !== null) {
      entry.timer = setTimeout(() => {
        finish(id, { ok: false, timeout: true, error: `stopped after ${budgetMs / 1000} s` });
        restartWorker("timed out");
      }, budgetMs);
    }
    worker.w.postMessage({ id, op, ...payload });
  });
}

// ---------- loading a scenario ----------

/** Builds a lab from `text`: first in the worker under the load budget (unless it is
 *  one of the gallery's own files, `trusted`), then on the page. On success it replaces the running lab (true); on failure (problems, or too
 *  slow) the running lab keeps playing and the reason shows under the editor (false);
 *  undefined when a newer load overtook this one. */
async function load(text, options = {}) {
  const token = ++state.loadToken;
  if (!worker.broken && !options.trusted) {
    const check = await ask("check", { text }, { budgetMs: budget("load") });
    if (token !== state.loadToken) return undefined; // a newer load has started
    if (!check.ok) {
      const message = check.timeout
        ? `This scenario took more than ${budget("load") / 1000} s to load (deriving its equations and taking a first step) and was stopped.${state.lab ? " The previous run goes on." : ""}`
        : check.error;
      editorStatus(message, "error");
      highlightProblem(message);
      if (check.timeout) notice(message);
      return false;
    }
  }
  return loadNow(text, options);
}

function loadNow(text, { fromEditor = false, keepClock = false } = {}) {
  let lab;
  try {
    lab = new state.api.WebLab(text);
  } catch (e) {
    if (isTrap(e)) { recoverFromTrap(errorText(e)); return false; }
    editorStatus(errorText(e), "error");
    highlightProblem(errorText(e));
    return false;
  }
  if (state.lab) state.lab.free();
  state.lab = lab;
  state.text = text;
  state.info = lab.info();
  if (!fromEditor) $("editor").value = text;
  renderGutter(new Set());
  const warnings = state.info.warnings;
  editorStatus(warnings.length ? `loaded, with warnings:\n${warnings.join("\n")}` : "loaded", warnings.length ? "warning" : "ok");
  renderInfo();
  state.clock = state.info.t0;
  state.lastFrame = null;
  if (!keepClock) state.playing = true;
  updatePlayButton();
  state.dirty = true;
  return true;
}

/** Whether an exception is a trap of the wasm instance (which then cannot be used). */
function isTrap(e) {
  return e instanceof WebAssembly.RuntimeError
    || /recursive use of an object|null pointer passed to rust|unreachable/.test(errorText(e));
}

/** A trap on the page: a fresh instance of the module, and the last good scenario. */
async function recoverFromTrap(reason) {
  if (state.recovering) return;
  state.recovering = true;
  state.lab = null; // the old instance's objects are unusable; never freed
  try {
    const { js, wasm } = moduleUrls();
    const fresh = await import(`${js}?instance=${++state.instances}`);
    await fresh.default({ module_or_path: wasm });
    state.api = fresh;
    const text = state.text || fresh.gallery_text(fresh.gallery_default());
    loadNow(text, { fromEditor: true });
    notice(`The lab hit an internal error (${reason}) and was restarted with the last scenario that worked.`);
  } catch (e) {
    notice(`The lab hit an internal error (${reason}) and could not restart: reload the page.`);
  } finally {
    state.recovering = false;
  }
}

/** Moves the editor's caret to the first `line L, column C` of an error message. */
function highlightProblem(message) {
  const m = /line (\d+), column (\d+)/.exec(message);
  const editor = $("editor");
  if (!m || document.activeElement === editor) return;
  const lines = editor.value.split("\n");
  const line = Math.min(Number(m[1]), lines.length);
  let offset = 0;
  for (let i = 0; i < line - 1; i++) offset += lines[i].length + 1;
  offset += Math.max(0, Number(m[2]) - 1);
  editor.setSelectionRange(offset, offset);
}

/** Applies one edit (wasm, toml_edit) to the editor's text and reloads. */
function applyEdit(fn) {
  let text;
  try {
    text = fn($("editor").value);
  } catch (e) {
    editorStatus(`${errorText(e)} — fix the text first; the change was not applied`, "error");
    renderInfo(); // put the controls back to the running values
    return;
  }
  $("editor").value = text;
  load(text, { fromEditor: true });
}

// ---------- the panels around the plots ----------

function renderInfo() {
  const info = state.info;
  $("title").textContent = info.title;
  $("description").textContent = info.description;
  $("source").textContent = info.source ? `Source: ${info.source}` : "";
  document.title = `${info.title} — nhlab`;
  renderParameters(info);
  renderInitial(info);
  renderSettings(info);
  renderPlots(info);
  renderEquationsChoice(info);
  renderLegend();
}

function numberField(label, value, onChange, attrs = {}) {
  const input = el("input", { type: "number", step: "any", inputmode: "decimal", ...attrs });
  input.value = value === null || value === undefined ? "" : String(value);
  input.addEventListener("change", () => onChange(input.value.trim()));
  return el("label", {}, label, input);
}

function renderParameters(info) {
  const box = $("parameters");
  box.replaceChildren();
  if (!info.parameters.length) box.append(el("p", { class: "hint", text: "This scenario has no parameters." }));
  for (const p of info.parameters) {
    const span = p.value === 0 ? 1 : Math.abs(p.value);
    const lo = p.value > 0 ? 0 : p.value - span, hi = p.value + span;
    const slider = el("input", { type: "range", min: String(lo), max: String(hi), step: String((hi - lo) / 200), "aria-label": `${p.name} slider` });
    slider.value = String(p.value);
    const number = el("input", { type: "number", step: "any", inputmode: "decimal", "aria-label": p.name });
    number.value = String(p.value);
    const set = (v) => {
      const x = Number(v);
      if (v === "" || !Number.isFinite(x)) { editorStatus(`parameters.${p.name}: enter a finite number`, "error"); return; }
      applyEdit((t) => state.api.edit_number(t, `parameters.${p.name}`, x));
    };
    slider.addEventListener("input", () => { number.value = slider.value; });
    slider.addEventListener("change", () => set(slider.value));
    number.addEventListener("change", () => set(number.value));
    box.append(el("div", { class: "param" }, el("span", { class: "name", text: p.name }), slider, number));
  }
}

function renderInitial(info) {
  const box = $("initial");
  box.replaceChildren();
  for (const c of info.coordinates) {
    const q = numberField(c.name, c.q, (v) => {
      const x = Number(v);
      if (v === "" || !Number.isFinite(x)) { editorStatus(`initial.q.${c.name}: enter a finite number`, "error"); return; }
      applyEdit((t) => state.api.edit_number(t, `initial.q.${c.name}`, x));
    });
    const v = numberField(`${c.name}′`, c.v_given ? c.v : "", (value) => {
      if (value === "") { applyEdit((t) => state.api.edit_remove(t, `initial.v.${c.name}`)); return; }
      const x = Number(value);
      if (!Number.isFinite(x)) { editorStatus(`initial.v.${c.name}: enter a finite number`, "error"); return; }
      applyEdit((t) => state.api.edit_number(t, `initial.v.${c.name}`, x));
    }, { placeholder: c.v_given ? "" : `solved: ${c.v.toPrecision(4)}` });
    box.append(el("div", { class: "pair" }, q, v));
  }
}

function renderSettings(info) {
  const box = $("methods");
  box.querySelectorAll("label").forEach((l) => l.remove());
  for (const m of state.api.methods()) {
    const check = el("input", { type: "checkbox", value: m.id });
    check.checked = info.methods.includes(m.id);
    check.addEventListener("change", () => {
      const chosen = [...box.querySelectorAll("input:checked")].map((i) => i.value);
      if (!chosen.length) { check.checked = true; editorStatus("keep at least one method", "error"); return; }
      applyEdit((t) => state.api.edit_list(t, "run.methods", chosen));
    });
    const swatch = el("span", { class: "swatch", "aria-hidden": "true" });
    swatch.style.background = m.colour;
    box.append(el("label", { class: "method" }, check, swatch, m.id));
  }
  const set = (id, value) => { $(id).value = String(value); };
  set("integrator", info.integrator); set("rtol", info.rtol); set("atol", info.atol);
  set("dt", info.dt); set("t_end", info.t_end); set("stabilization", info.stabilization);
  const rk4 = info.integrator === "rk4";
  $("dt").disabled = !rk4; $("rtol").disabled = rk4; $("atol").disabled = rk4;
}

function wireSettings() {
  for (const id of ["integrator", "stabilization"]) {
    $(id).addEventListener("change", () => applyEdit((t) => state.api.edit_text(t, `run.${id}`, $(id).value)));
  }
  for (const id of ["rtol", "atol", "dt", "t_end"]) {
    $(id).addEventListener("change", () => {
      const x = Number($(id).value);
      if ($(id).value.trim() === "" || !Number.isFinite(x)) { editorStatus(`run.${id}: enter a finite number`, "error"); return; }
      applyEdit((t) => state.api.edit_number(t, `run.${id}`, x));
    });
  }
}

function renderPlots(info) {
  const box = $("plots");
  const ids = info.panels.map((p) => p.id).join(" ");
  if (box.dataset.ids === ids) {
    info.panels.forEach((p) => {
      const fig = $(`${p.id}-fig`);
      fig.querySelector("h3").textContent = p.title;
      fig.querySelector(".note").textContent = p.note;
    });
    return;
  }
  box.dataset.ids = ids;
  box.replaceChildren(...info.panels.map((p) => {
    const canvas = el("canvas", { id: p.id, role: "img", "aria-label": p.title });
    const png = el("button", { type: "button", class: "small", text: "PNG", title: `Download “${p.title}” as PNG` });
    png.addEventListener("click", () => downloadCanvas(canvas, p.id));
    const head = el("div", { class: "fig-head" }, el("h3", { text: p.title }), png);
    const gaps = el("p", { class: "gaps", text: "Some values here are not finite (undefined or overflowing): they are left out as gaps." });
    gaps.hidden = true;
    return el("figure", { id: `${p.id}-fig`, class: "fig" }, head, canvas, el("figcaption", { class: "note", text: p.note }), gaps);
  }));
}

function renderLegend() {
  const box = $("legend");
  const runs = state.lab.runs();
  const comps = state.info.e_components;
  box.replaceChildren(...runs.map((r) => {
    const swatch = el("span", { class: "swatch", "aria-hidden": "true" });
    swatch.style.background = r.colour;
    const item = el("li", { class: r.error ? "failed" : "" }, swatch, el("strong", { text: r.method }));
    if (r.e && comps.length) {
      const e = r.e.map((x, i) => `${comps[i]} ${x.toExponential(2)}`).join(", ");
      item.append(el("span", { class: "e", text: ` E = (${e})` }));
    }
    if (r.error) item.append(el("span", { class: "why", text: ` — ${r.error}` }));
    return item;
  }));
}

// ---------- equations ----------

function renderEquationsChoice(info) {
  const select = $("eq-method");
  const previous = select.value;
  select.replaceChildren(...state.api.methods().map((m) => el("option", { value: m.id, text: m.id })));
  select.value = info.methods.includes(previous) ? previous : info.methods.includes("hamel") ? "hamel" : info.methods[0];
  renderEquations();
}

/** A MathML string from the core, rebuilt from the allow-list: nothing else can get in. */
function safeMath(markup) {
  const doc = new DOMParser().parseFromString(markup, "application/xml");
  if (doc.getElementsByTagName("parsererror").length) return document.createTextNode("(equation could not be shown)");
  const copy = (node) => {
    if (node.nodeType === Node.TEXT_NODE) return document.createTextNode(node.nodeValue);
    if (node.nodeType !== Node.ELEMENT_NODE || node.namespaceURI !== MATHML || !MATHML_TAGS.has(node.localName)) return null;
    const out = document.createElementNS(MATHML, node.localName);
    for (const a of node.attributes) if (MATHML_ATTRS.has(a.name)) out.setAttribute(a.name, a.value);
    for (const c of node.childNodes) { const k = copy(c); if (k) out.append(k); }
    return out;
  };
  return copy(doc.documentElement) ?? document.createTextNode("");
}

function equationRow(eq) {
  const copy = el("button", { type: "button", class: "small", text: "Copy LaTeX", title: `Copy the LaTeX of ${eq.label}` });
  copy.addEventListener("click", () => copyText(eq.latex, copy));
  return el("div", { class: "eq" }, el("div", { class: "eq-label", text: eq.label }), el("div", { class: "eq-math" }, safeMath(eq.mathml)), copy);
}

async function renderEquations() {
  const body = $("eq-body");
  const method = $("eq-method").value, text = state.text;
  let d;
  if (worker.broken) {
    try { d = state.lab.derive(method); } catch (e) { d = { error: errorText(e) }; }
  } else {
    body.replaceChildren(el("p", { class: "hint", text: "Deriving…" }));
    const answer = await ask("derive", { text, method }, { budgetMs: budget("derive") });
    if (text !== state.text || method !== $("eq-method").value) return; // superseded
    d = answer.ok ? answer.result
      : { error: answer.timeout ? `deriving them took more than ${budget("derive") / 1000} s and was stopped` : answer.error };
  }
  if (d.error !== undefined) {
    $("eq-form").textContent = "";
    body.replaceChildren(el("p", { class: "hint", text: `No equations: ${d.error}` }));
    return;
  }
  $("eq-form").textContent = d.form;
  // Typesetting is the page's own work: a 150×150 matrix is 22,500 MathML cells and
  // half a second of layout. Large matrices are named, not typeset; long lists of
  // equations come 60 at a time.
  const matrices = d.matrices.map((m) => (m.rows * m.cols > MAX_TYPESET_ENTRIES
    ? el("div", { class: "eq" }, el("div", { class: "eq-label", text: m.label }),
      el("p", { class: "hint", text: `${m.rows}×${m.cols}: too large to typeset here; its entries are in the expanded equations below (and in \`nhlab derive\`).` }))
    : equationRow(m)));
  const list = el("div", { class: "eq-list" });
  const showFrom = (start) => {
    list.querySelector(".more")?.remove();
    list.append(...d.equations.slice(start, start + EQUATIONS_AT_ONCE).map(equationRow));
    const rest = d.equations.length - start - EQUATIONS_AT_ONCE;
    if (rest > 0) {
      const more = el("button", { type: "button", class: "small more", text: `Show ${Math.min(rest, EQUATIONS_AT_ONCE)} more of ${rest}` });
      more.addEventListener("click", () => showFrom(start + EQUATIONS_AT_ONCE));
      list.append(more);
    }
  };
  showFrom(0);
  body.replaceChildren(el("h3", { text: "Matrix form" }), el("div", { class: "eq-list" }, ...matrices), el("h3", { text: "Expanded" }), list);
}

// ---------- files, links, clipboard ----------

function download(name, blob) {
  const a = el("a", { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

function slug() {
  return (state.galleryName || state.info.title).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "scenario";
}

function downloadCanvas(canvas, id) {
  canvas.toBlob((blob) => blob && download(`${slug()}-${id.replace("plot-", "")}.png`, blob), "image/png");
}

async function copyText(text, button) {
  let ok = false;
  try { await navigator.clipboard.writeText(text); ok = true; } catch { ok = false; }
  if (!ok) {
    // The Clipboard API needs a secure context (https or localhost); a page served
    // over plain http from a course server falls back to a selected textarea.
    const area = el("textarea", { readonly: "", "aria-hidden": "true", class: "offscreen" });
    area.value = text;
    document.body.append(area);
    area.select();
    try { ok = document.execCommand("copy"); } catch { ok = false; }
    area.remove();
  }
  if (button) {
    const label = button.textContent;
    button.textContent = ok ? "Copied" : "Copy failed";
    setTimeout(() => { button.textContent = label; }, 1200);
  }
  return ok;
}

function shareUrl() {
  const url = new URL(location.href);
  url.search = "";
  url.hash = `s=${state.lab.share_payload()}`;
  return url.href;
}

function openShare() {
  let link;
  try { link = shareUrl(); } catch (e) { notice(errorText(e)); return; }
  history.replaceState(null, "", link);
  $("share-link").value = link;
  const embed = new URL(link);
  embed.hash += "&embed";
  $("embed-snippet").value = `<iframe src="${embed.href}" width="720" height="560" style="border:1px solid #ccc" title="${state.info.title.replace(/[<>&"]/g, "")} — nhlab" loading="lazy"></iframe>`;
  copyText(link);
  $("share-dialog").showModal();
  $("share-link").select();
}

async function exportCsv() {
  // The whole run, computed in the worker apart from the playing one, so the file is
  // the command line's whatever the playback position; the button cancels it.
  const button = $("export-csv");
  if (state.exporting) { restartWorker("export cancelled"); return; }
  if (worker.broken) {
    let lab;
    try {
      lab = new state.api.WebLab(state.text);
      lab.advance(state.info.t_end, 100000000);
      download(`${slug()}.csv`, new Blob([lab.csv()], { type: "text/csv" }));
    } catch (e) {
      notice(`CSV export failed: ${errorText(e)}`);
    } finally {
      if (lab) lab.free();
    }
    return;
  }
  const label = button.textContent;
  state.exporting = true;
  button.textContent = "Cancel export";
  const answer = await ask("csv", { text: state.text }, {
    onProgress: (x) => { button.textContent = `Cancel export (${Math.round(100 * x)} %)`; },
  });
  state.exporting = false;
  button.textContent = label;
  if (answer.ok) download(`${slug()}.csv`, new Blob([answer.result], { type: "text/csv" }));
  else if (answer.cancelled) notice("CSV export cancelled.", "info");
  else notice(`CSV export failed: ${answer.error}`);
}

// ---------- the fragment: #s=…, #gallery=…, &embed ----------

function parseFragment() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const query = new URLSearchParams(location.search);
  return { share: params.get("s"), gallery: params.get("gallery"), embed: params.has("embed") || query.has("embed") };
}

function openGallery(name, { message } = {}) {
  let text;
  try { text = state.api.gallery_text(name); } catch (e) { notice(errorText(e)); return false; }
  state.galleryName = name;
  $("gallery").value = name;
  if (message) notice(message); else notice(null);
  load(text, { trusted: true });
  return true;
}

function openFromFragment() {
  const f = parseFragment();
  state.embed = f.embed;
  document.body.classList.toggle("embed", f.embed);
  const full = new URL(location.href);
  full.search = "";
  full.hash = full.hash.replace(/&?embed\b/, "");
  $("open-full").href = full.href;
  if (f.share !== null) {
    let text;
    try {
      text = state.api.share_to_toml(f.share);
    } catch (e) {
      openGallery(state.api.gallery_default(), { message: `${errorText(e)} Showing the default system instead.` });
      return;
    }
    state.galleryName = null;
    $("gallery").value = "";
    notice(null);
    load(text).then(async (ok) => {
      if (ok !== false) return;
      // Show the link's scenario and its problems; the default system plays meanwhile.
      const status = $("editor-status").textContent;
      if (!state.lab) await load(state.api.gallery_text(state.api.gallery_default()), { fromEditor: true, trusted: true });
      $("editor").value = text;
      editorStatus(status, "error");
      highlightProblem(status);
      notice(/took more than/.test(status)
        ? "This share link's scenario took too long to load and was stopped (see under the editor). The default system plays meanwhile."
        : "This share link's scenario has problems: they are shown under the editor, where you can fix them. The default system plays meanwhile.");
    });
    return;
  }
  if (f.gallery !== null) {
    if (!openGallery(f.gallery)) {
      openGallery(state.api.gallery_default(), { message: `There is no gallery item “${f.gallery}”. Showing the default system instead.` });
    }
    return;
  }
  openGallery(state.api.gallery_default());
}

// ---------- playback ----------

function updatePlayButton() {
  const b = $("play");
  b.textContent = state.playing ? "Pause" : "Play";
  b.setAttribute("aria-pressed", String(state.playing));
}

function safely(what, fn) {
  try { return fn(); } catch (e) {
    if (isTrap(e)) { recoverFromTrap(`${what}: ${errorText(e)}`); return undefined; }
    state.playing = false;
    updatePlayButton();
    notice(`${what}: ${errorText(e)}`);
    return undefined;
  }
}

function moveClock(t) {
  state.clock = Math.min(Math.max(t, state.info.t0), state.info.t_end);
  state.dirty = true;
}

function frame(now) {
  const started = performance.now();
  if (state.lastFrame !== null) state.perf.intervals.push(now - state.lastFrame);
  const wall = state.lastFrame === null ? 0 : Math.min((now - state.lastFrame) / 1000, 0.1);
  state.lastFrame = now;
  if (state.lab && state.playing) {
    state.clock = Math.min(state.clock + state.speed * wall, state.info.t_end);
    state.dirty = true;
  }
  if (state.lab) {
    // Runs catch up with the clock within a time budget per frame, so a long jump
    // (To end, a fast speed, a stiff or large system) never freezes the page.
    // Each call asks for as many steps per run as the time left allows, from the
    // measured cost of a step (one step of a large model can take milliseconds).
    const t0 = performance.now();
    let steps = 0;
    while (state.lab) {
      const left = FRAME_BUDGET_MS - (performance.now() - t0);
      if (left <= 0) break;
      const k = Math.max(1, Math.min(MAX_STEPS_PER_CALL, Math.floor(left / state.msPerStep)));
      const c0 = performance.now();
      const n = safely("stepping", () => state.lab.advance(state.clock, k)) ?? 0;
      if (n > 0) state.msPerStep = Math.max(1e-4, (performance.now() - c0) / k);
      steps += n;
      if (n === 0) break;
    }
    if (steps > 0) state.perf.step.push(performance.now() - t0);
    if (steps > 0) state.dirty = true;
    if (!state.lab) { requestAnimationFrame(frame); return; } // replaced after a trap
    const finished = state.lab.finished() ? "1" : "0";
    if (document.body.dataset.finished !== finished) document.body.dataset.finished = finished;
    if (state.playing && state.clock >= state.info.t_end && state.lab.finished()) { state.playing = false; updatePlayButton(); }
  }
  if (state.lab && state.dirty) {
    state.dirty = false;
    const t0 = performance.now();
    const gaps = safely("drawing", () => state.lab.draw(window.devicePixelRatio || 1)) ?? [];
    state.perf.draw.push(performance.now() - t0);
    for (const p of state.info.panels) {
      const warn = $(`${p.id}-fig`)?.querySelector(".gaps");
      if (warn) warn.hidden = !gaps.includes(p.id);
    }
    $("clock").textContent = `t = ${state.lab.now().toFixed(3)} / ${state.info.t_end}`;
    renderLegend();
    state.perf.work.push(performance.now() - started);
    for (const k of ["work", "step", "draw"]) if (state.perf[k].length > 5000) state.perf[k].splice(0, 1000);
    if (!document.body.dataset.ready) {
      document.body.dataset.ready = "1";
      state.perf.firstPlotMs = performance.now();
    }
  }
  if (state.perf.intervals.length > 5000) state.perf.intervals.splice(0, 1000);
  requestAnimationFrame(frame);
}

function wirePlayback() {
  $("play").addEventListener("click", () => {
    if (!state.playing && state.clock >= state.info.t_end) { state.lab.restart(); state.clock = state.info.t0; }
    state.playing = !state.playing;
    state.lastFrame = null;
    updatePlayButton();
  });
  $("step").addEventListener("click", () => {
    state.playing = false; updatePlayButton();
    moveClock(state.clock + (state.info.t_end - state.info.t0) / 200);
  });
  $("reset").addEventListener("click", () => {
    state.lab.restart(); state.clock = state.info.t0; state.dirty = true;
  });
  $("to-end").addEventListener("click", () => {
    state.playing = false; updatePlayButton();
    moveClock(state.info.t_end);
  });
  $("speed").addEventListener("change", () => { state.speed = Number($("speed").value); });
  document.addEventListener("keydown", (e) => {
    const t = e.target;
    if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement) return;
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const keys = { " ": "play", ArrowRight: "step", r: "reset", R: "reset", e: "to-end", E: "to-end" };
    if (keys[e.key] && !(t instanceof HTMLButtonElement && e.key === " ")) {
      e.preventDefault();
      $(keys[e.key]).click();
    }
  });
}

// ---------- start ----------

function wire() {
  const gallery = $("gallery");
  const groups = new Map();
  for (const g of state.api.gallery_entries()) {
    if (!groups.has(g.group)) groups.set(g.group, el("optgroup", { label: g.group }));
    groups.get(g.group).append(el("option", { value: g.name, text: g.title }));
  }
  const classics = [...groups.keys()].sort((a, b) => (a.startsWith("Classic") ? -1 : b.startsWith("Classic") ? 1 : a.localeCompare(b)));
  gallery.replaceChildren(el("option", { value: "", text: "(your own scenario)", disabled: "" }), ...classics.map((k) => groups.get(k)));
  gallery.addEventListener("change", () => {
    if (!gallery.value) return;
    history.replaceState(null, "", `#gallery=${encodeURIComponent(gallery.value)}${state.embed ? "&embed" : ""}`);
    openGallery(gallery.value);
  });
  let timer = null;
  $("editor").addEventListener("scroll", () => { $("gutter").scrollTop = $("editor").scrollTop; });
  $("editor").addEventListener("input", () => {
    renderGutter();
    clearTimeout(timer);
    timer = setTimeout(() => {
      state.galleryName = null;
      load($("editor").value, { fromEditor: true });
    }, EDIT_DEBOUNCE_MS);
  });
  $("eq-method").addEventListener("change", renderEquations);
  $("share").addEventListener("click", openShare);
  $("embed-open").addEventListener("click", openShare);
  $("close-share").addEventListener("click", () => $("share-dialog").close());
  $("copy-snippet").addEventListener("click", (e) => copyText($("embed-snippet").value, e.currentTarget));
  $("export-toml").addEventListener("click", () => download(`${slug()}.toml`, new Blob([$("editor").value], { type: "application/toml" })));
  $("export-csv").addEventListener("click", exportCsv);
  window.addEventListener("hashchange", () => {
    const f = parseFragment();
    // Our own replaceState never fires this; a pasted link does.
    if (f.share !== null || f.gallery !== null) openFromFragment();
  });
  window.addEventListener("resize", () => { state.dirty = true; });
  wireSettings();
  wirePlayback();
}

function boot(api) {
  if (state.api) return;
  state.api = api;
  startWorker();
  // For the browser tests: a deliberate trap on the page or in the worker.
  window.nhlabTest = {
    trapPage: () => safely("self-test", () => state.api.self_test_trap()),
    trapWorker: () => ask("trap"),
    load: (text) => load(text, { fromEditor: true }),   // the benchmark times an edit's whole path
  };
  try {
    wire();
    openFromFragment();
  } catch (e) {
    notice(`The lab could not start: ${errorText(e)}`);
  }
  requestAnimationFrame(frame);
}

if (window.wasmBindings) boot(window.wasmBindings);
else addEventListener("TrunkApplicationStarted", () => boot(window.wasmBindings));
