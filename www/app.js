// nhlab web lab: DOM wiring only. Every computation (loading, stepping, plotting,
// deriving, editing the TOML, share payloads, CSV) happens in the wasm module
// (www/src/api.rs); this file turns events into calls and results into text.
//
// Safety: user text (titles, descriptions, names, messages, anything from a shared
// URL) only ever reaches the page through textContent or input values. MathML from
// the core is rebuilt element by element from an allow-list, never assigned as HTML.
//
// Responsiveness: nothing a scenario holds may block the page, because the page
// never derives or steps. The playing scenario lives in a Web Worker (the runner,
// www/worker.js, talked to through www/channel.js), which loads it under a time
// budget, steps it towards the page's clock in short slices and sends back the rows
// it recorded; the page keeps them in a WebDisplay and draws them. A new scenario
// is loaded in a new runner that replaces the old one only once it has loaded; one
// that fails or takes too long is terminated and the old run plays on. Derivations
// and CSV exports run in a second worker (the helper). A trap in a worker replaces
// it; a trap on the page replaces the module instance, and the runner resends.

// channel.js and worker.js are copied as they are (trunk hashes only the page's own
// files): the glue's hashed name versions them, so a cached copy never meets a newer
// module.
const VERSION = new URL(document.querySelector('link[rel="modulepreload"]')?.href ?? "x:/none").pathname.split("/").pop();
const { LabWorker, moduleFiles } = await import(`./channel.js?v=${encodeURIComponent(VERSION)}`);

const MATHML = "http://www.w3.org/1998/Math/MathML";
const MATHML_TAGS = new Set(["math", "mrow", "mi", "mn", "mo", "msub", "msup", "msubsup", "mfrac", "msqrt",
  "mroot", "mover", "munder", "munderover", "mtable", "mtr", "mtd", "mtext", "mspace", "mstyle", "mpadded"]);
const MATHML_ATTRS = new Set(["display", "mathvariant", "stretchy", "accent", "form", "lspace", "rspace", "width"]);
const WORKER_SLICE_MS = 10;          // stepping per request to the runner: the plots follow within a frame or two
const EDIT_DEBOUNCE_MS = 250;
const MAX_TYPESET_ENTRIES = 400;     // a larger matrix is named, not typeset (layout would block the page)
// A longer equation waits for a click to be typeset: building and laying out MathML
// costs about 20 ms per 1,000 elements, and a link may hold a 50,000-element sum.
// The gallery's longest (ball in a cone, vakonomic) has about 6,700.
const MAX_TYPESET_NODES = 12000;
const EQUATIONS_AT_ONCE = 60;        // expanded equations shown per "show more"
const TYPESET_MS_PER_FRAME = 4;      // building equation rows per animation frame (their layout costs a few times more)
// Time budgets of the workers, in ms.
// load: a new scenario; derive: the equations panel; step: one request to the runner
// (a slice of stepping, overrun only by a single step slower than this).
// The browser tests lower them with NHLAB_BUDGET_MS: a number for all, or {what: ms}.
const budget = (what) => {
  const test = window.NHLAB_BUDGET_MS;
  return (typeof test === "object" ? test?.[what] : test) ?? { load: 1500, derive: 6000, step: 2000 }[what];
};

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
  runner: null,     // the LabWorker that holds and steps the running scenario
  spare: null,      // a started LabWorker for the next scenario
  display: null,    // the page's WebDisplay: what the runner sent, drawn on the canvases
  text: "",         // the scenario text the running lab was built from
  info: null,       // the runner's WebLab.info()
  runs: [],         // each run's status in the runner's last update
  finished: false,  // every run has reached t_end or stopped
  caughtUp: false,  // the runs have reached the clock (or stopped)
  target: null,     // the clock of the runner's last answer
  advancing: false, // a request to step is out
  stalled: null,    // why playback stopped (one step too slow), if it did
  jumping: false,   // To end: the clock jumped and the runs are catching up (Play reads Stop)
  playing: true,
  speed: 1,
  clock: 0,
  lastFrame: null,
  dirty: true,
  drewPlaying: false, // the last drawing refreshed only some panels (see frame)
  embed: false,
  /** In embed mode, the controls the embedder chose to show (`&controls=`). */
  embedControls: [],
  galleryName: null,
  galleryOrigin: null, // the gallery item the text came from (marked "edited" once changed)
  unshared: false, // edits since the last Share or export: leaving asks first
  draft: null, // the text offered by "Restore it"
  loadToken: 0,     // the newest load; an older one that finishes late is dropped
  instances: 0,     // wasm instances made after a trap
  perf: { work: [], step: [], draw: [], intervals: [], loads: [] }, // timings (ms), read by the browser benchmark
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
  // The lines named by the problems are marked in the gutter, and in the editor the
  // places themselves, with their messages.
  const bad = new Set(kind === "error" ? [...message.matchAll(/line (\d+), column \d+/g)].map((m) => Number(m[1])) : []);
  renderGutter(bad);
  const problems = kind === "error"
    ? message.split("\n").map((l) => /line (\d+), column (\d+): (.*)$/.exec(l)).filter(Boolean).map((m) => ({ line: Number(m[1]), column: Number(m[2]), message: m[3] }))
    : [];
  state.editor?.setProblems(problems);
}

/** Line numbers beside the editor, `bad` ones marked; scrolled with the text. */
function renderGutter(bad = state.badLines ?? new Set()) {
  state.badLines = bad;
  if (state.editor) return; // the editor numbers and marks its own lines
  const gutter = $("gutter");
  const lines = $("editor").value.split("\n").length;
  if (gutter.childElementCount !== lines || gutter.dataset.bad !== [...bad].join(",")) {
    gutter.replaceChildren(...Array.from({ length: lines }, (_, i) => el("span", { class: bad.has(i + 1) ? "bad" : "", text: String(i + 1) })));
    gutter.dataset.bad = [...bad].join(",");
  }
  gutter.scrollTop = $("editor").scrollTop;
}

// ---------- the workers: the running scenario, derivations and exports ----------
//
// The runner (state.runner) holds the playing scenario and steps it; a new scenario
// is loaded in a new runner, which replaces the old one only once it has loaded, so
// the old run plays on meanwhile and a scenario that fails or takes too long changes
// nothing. The helper derives equations and computes CSV exports.

let helper = null; // a LabWorker({ respawn: true }), made at boot

/** Builds a lab from `text` in a fresh runner, under the load budget (none for the
 *  gallery's own files, `trusted`). On success the runner replaces the running one
 *  (true); on failure (problems, or too slow) the running lab keeps playing and the
 *  reason shows under the editor (false); undefined when a newer load overtook this. */
async function load(text, { trusted = false, fromEditor = false, keepClock = false } = {}) {
  const token = ++state.loadToken;
  const candidate = takeSpare();
  const started = performance.now();
  let size = null;
  const answer = await candidate.ask("open", { text }, {
    budgetMs: trusted ? null : budget("load"),
    onProgress: (p) => { size = p.size; },
  });
  if (token !== state.loadToken) { candidate.kill("superseded"); return undefined; }
  if (!answer.ok) {
    candidate.kill("refused");
    const message = answer.timeout
      ? `This scenario${describeSize(size)} took more than ${budget("load") / 1000} s to load (checking it, deriving its equations of motion and compiling them) and was stopped. Models of this size are for the command line (\`nhlab run\` has no time limit).${state.display ? " The previous run goes on." : ""}`
      : answer.error;
    editorStatus(message, "error");
    highlightProblem(message);
    if (answer.timeout) notice(message);
    return false;
  }
  state.perf.loads.push(performance.now() - started);
  install(candidate, text, answer.result, { fromEditor, keepClock });
  return true;
}

/** " (120 coordinates, 30 constraints)": what a scenario that took too long holds. */
function describeSize(size) {
  if (!size) return "";
  const parts = [["coordinates", "coordinate"], ["constraints", "constraint"], ["definitions", "definition"], ["particles", "particle"]]
    .filter(([k]) => size[k] > 0).map(([k, one]) => `${size[k]} ${size[k] === 1 ? one : k}`);
  return parts.length ? ` (${parts.join(", ")})` : "";
}

/** A started runner for the next load: one is kept ready, so that an edit does not
 *  wait for a worker to start (about 40 ms of the 75 ms an edit took without it). */
function takeSpare() {
  const spare = state.spare ?? new LabWorker();
  state.spare = null;
  setTimeout(() => { if (!state.spare) state.spare = new LabWorker(); }, 0);
  return spare;
}

/** Makes `runner`, which has just opened `text`, the running lab. */
function install(runner, text, opened, { fromEditor = false, keepClock = false } = {}) {
  let display;
  try {
    display = new state.api.WebDisplay(opened.info.layout);
  } catch (e) {
    runner.kill("refused");
    if (isTrap(e)) recoverFromTrap(errorText(e));
    else editorStatus(`the lab could not lay out this scenario's plots: ${errorText(e)}`, "error");
    return;
  }
  retire(state.runner);
  state.display?.free();
  state.runner = runner;
  runner.onDeath = (why) => runnerDied(runner, why);
  state.display = display;
  state.text = text;
  state.info = opened.info;
  state.stalled = null;
  state.target = null;
  state.jumping = false;
  applyUpdate(opened);
  if (!fromEditor) $("editor").value = text;
  syncAddress();
  renderGutter(new Set());
  state.editor?.setNames({
    coordinates: state.info.coordinates.map((c) => c.name),
    parameters: state.info.parameters.map((p) => p.name),
    definitions: state.info.definitions ?? [],
  });
  const warnings = state.info.warnings;
  editorStatus(warnings.length ? `loaded, with warnings:\n${warnings.join("\n")}` : "loaded", warnings.length ? "warning" : "ok");
  renderInfo();
  state.clock = state.info.layout.t0;
  state.lastFrame = null;
  if (!keepClock) state.playing = true;
  updatePlayButton();
  state.dirty = true;
  // Which load the page shows: a test (or an embedder) waits for the next one.
  document.body.dataset.loaded = String(state.loadToken);
}

function retire(runner) {
  if (!runner) return;
  runner.onDeath = null;
  runner.kill("replaced");
}

/** Puts a runner's answer (an update) on the display. */
function applyUpdate(u) {
  try {
    u.runs.forEach((run, i) => {
      state.display.apply(i, run.from, u.rows[i], u.current[i]);
      state.display.apply_picture(i, u.pictures[i], run.hidden);
      state.display.set_failed(i, Boolean(run.error) && !run.ended);
    });
    state.display.set_now(u.now);
  } catch (e) {
    if (isTrap(e)) { recoverFromTrap(errorText(e)); return; }
    throw e;
  }
  state.runs = u.runs;
  state.finished = u.finished;
  state.caughtUp = u.caughtUp;
  if (u.stepMs !== undefined && u.steps > 0) state.perf.step.push(u.stepMs);
  const finished = u.finished ? "1" : "0";
  if (document.body.dataset.finished !== finished) document.body.dataset.finished = finished;
  state.dirty = true;
}

/** Asks the runner to step towards the clock, one request at a time; a request
 *  that takes longer than the step budget means one step of the model is too slow
 *  to play: the runner is stopped and playback with it. */
function requestAdvance() {
  const runner = state.runner;
  state.advancing = true;
  const target = state.clock;
  runner.ask("advance", { target, sliceMs: WORKER_SLICE_MS }, { budgetMs: budget("step") }).then((a) => {
    state.advancing = false;
    if (a.timeout) { // the runner was killed, and a fresh one waits for Reset or Play
      const at = state.display.now().toPrecision(6);
      state.stalled = `One step of this scenario took more than ${budget("step") / 1000} s, so playback stopped at t = ${at}. Models of this size are for the command line (\`nhlab run\` has no time limit).`;
      state.playing = false;
      updatePlayButton();
      notice(state.stalled);
      return;
    }
    if (runner !== state.runner) return; // replaced meanwhile
    if (a.ok) { state.target = target; applyUpdate(a.result); }
  });
}

/** A runner that trapped or failed: a fresh one with the same scenario, caught up
 *  to the clock again (the runs are deterministic, so the plots come back as they
 *  were). After a step that took too long, the fresh runner waits for Reset or Play
 *  and the plots keep what they show. A runner replaced on purpose does not come here. */
async function runnerDied(runner, why) {
  if (runner !== state.runner) return;
  const timedOut = why === "timed out";
  if (!timedOut) notice(`The lab's worker hit an internal error (${why}) and was restarted with the same scenario.`);
  await restartRunner({ show: !timedOut });
}

async function restartRunner({ show }) {
  const fresh = new LabWorker();
  state.runner = fresh;
  fresh.onDeath = (why) => runnerDied(fresh, why);
  const answer = await fresh.ask("open", { text: state.text });
  if (fresh !== state.runner) return;
  if (!answer.ok) notice(`The lab's worker could not be restarted (${answer.error}): reload the page.`);
  else if (show) { state.caughtUp = false; applyUpdate(answer.result); }
}

/** Asks the runner to start every run again. */
async function restartRuns() {
  state.clock = state.info.layout.t0;
  state.stalled = null;
  const runner = state.runner;
  const a = await runner.ask("restart");
  if (a.ok && runner === state.runner) applyUpdate(a.result);
}

/** Whether an exception is a trap of the wasm instance (which then cannot be used). */
function isTrap(e) {
  return e instanceof WebAssembly.RuntimeError
    || /recursive use of an object|null pointer passed to rust|unreachable/.test(errorText(e));
}

/** A trap on the page (drawing, editing): a fresh instance of the module, a new
 *  display, and the runner sends everything again. */
async function recoverFromTrap(reason) {
  if (state.recovering) return;
  state.recovering = true;
  state.display = null; // the old instance's objects are unusable; never freed
  try {
    const { js, wasm } = moduleFiles();
    const fresh = await import(`${js}?instance=${++state.instances}`);
    await fresh.default({ module_or_path: wasm });
    state.api = fresh;
    state.display = new fresh.WebDisplay(state.info.layout);
    const runner = state.runner;
    const a = await runner.ask("resend");
    if (a.ok && runner === state.runner) applyUpdate(a.result);
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
  if (!m || document.activeElement === editor || state.editor?.hasFocus()) return;
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
  keepDraft();
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
  renderLegendNote(info);
  renderEquationsChoice(info);
  renderStability();
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
  const ranges = sliderRanges(info);
  for (const p of info.parameters) {
    const { lo, hi, step } = ranges.get(p.name);
    const slider = el("input", { type: "range", min: String(lo), max: String(hi), step: String(step), "aria-label": `${p.name} slider` });
    slider.value = String(p.value);
    const bounds = {};
    if (p.min !== null && p.min !== undefined) bounds.min = String(p.min);
    if (p.max !== null && p.max !== undefined) bounds.max = String(p.max);
    const number = el("input", { type: "number", step: "any", inputmode: "decimal", "aria-label": p.name, ...bounds });
    number.value = String(p.value);
    const set = (v) => {
      const x = Number(v);
      if (v === "" || !Number.isFinite(x)) { editorStatus(`parameters.${p.name}: enter a finite number`, "error"); return; }
      const outside = (p.min !== null && p.min !== undefined && x < p.min) || (p.max !== null && p.max !== undefined && x > p.max);
      if (outside) {
        editorStatus(`parameters.${p.name}: ${x} is outside the range the scenario gives (${p.min ?? "−∞"} … ${p.max ?? "∞"}); change min or max in the text to go further`, "error");
        number.value = String(p.value);
        return;
      }
      applyEdit((t) => state.api.edit_number(t, `parameters.${p.name}`, x));
    };
    slider.addEventListener("input", () => { number.value = slider.value; });
    slider.addEventListener("change", () => set(slider.value));
    number.addEventListener("change", () => set(number.value));
    const label = el("span", { class: "label" }, el("span", { class: "name", text: p.name }));
    if (p.unit) label.append(el("span", { class: "unit", text: p.unit, title: `unit of ${p.name}` }));
    box.append(el("div", { class: "param" }, label, slider, number));
  }
  if (info.parameters.length) box.append(compareControls(info));
}

/** "Keep for comparison": the current values become a parameter set of [compare],
 *  whose runs stay overlaid (in a colour of their own) while the sliders move on. */
function compareControls(info) {
  const sets = info.layout.set_labels ?? [];
  const keep = el("button", { type: "button", id: "keep-parameters", text: "Keep for comparison", title: "Overlay a run with these parameter values while you change them ([compare] in the text)" });
  keep.disabled = sets.length >= 3;
  keep.addEventListener("click", () => {
    applyEdit((t) => state.api.keep_parameters(t).text);
  });
  const row = el("div", { class: "compare" }, keep);
  if (sets.length) {
    const clear = el("button", { type: "button", id: "clear-comparisons", text: "Clear comparisons", title: "Remove [compare] from the text" });
    clear.addEventListener("click", () => applyEdit((t) => state.api.edit_remove(t, "compare")));
    row.append(clear, el("span", { class: "hint", text: `compared: ${sets.join("; ")}` }));
  }
  return row;
}

/** Each slider's range, fixed for as long as the same scenario is open (a slider
 *  whose ends moved after each release could not sweep a range): the scenario's
 *  `min`, `max` and `step` where it gives them, else chosen once around the first
 *  value (0 … 2×value for a positive one), and chosen again only when a value typed
 *  in the number field falls outside. */
function sliderRanges(info) {
  const key = JSON.stringify([info.title, info.parameters.map((p) => p.name)]);
  if (state.sliderKey !== key) { state.sliderKey = key; state.sliderRanges = new Map(); }
  const ranges = state.sliderRanges;
  for (const p of info.parameters) {
    const given = (x) => x !== null && x !== undefined;
    const kept = ranges.get(p.name);
    if (kept && p.value >= kept.lo && p.value <= kept.hi && kept.min === p.min && kept.max === p.max && kept.given === p.step) continue;
    const span = p.value === 0 ? 1 : Math.abs(p.value);
    const lo = given(p.min) ? p.min : p.value > 0 ? 0 : p.value - span;
    const hi = given(p.max) ? p.max : p.value + span;
    const step = given(p.step) ? p.step : (hi - lo) / 200;
    ranges.set(p.name, { lo, hi, step, min: p.min, max: p.max, given: p.step });
  }
  return ranges;
}

/** The initial-state form, a few rows per frame: 120 coordinates are 240 fields, and
 *  building and laying them out at once held the page for 100+ ms. */
function renderInitial(info) {
  const box = $("initial");
  box.replaceChildren();
  appendInFrames(box, info.coordinates.map((c) => () => initialRow(c)), info, () => {}, () => state.info === info);
}

function initialRow(c) {
  {
    const q = numberField(c.unit ? `${c.name} [${c.unit}]` : c.name, c.q, (v) => {
      const x = Number(v);
      if (v === "" || !Number.isFinite(x)) { editorStatus(`initial.q.${c.name}: enter a finite number`, "error"); return; }
      applyEdit((t) => state.api.edit_number(t, `initial.q.${c.name}`, x));
    });
    const v = numberField(c.velocity_unit ? `${c.name}′ [${c.velocity_unit}]` : `${c.name}′`, c.v_given ? c.v : "", (value) => {
      if (value === "") { applyEdit((t) => state.api.edit_remove(t, `initial.v.${c.name}`)); return; }
      const x = Number(value);
      if (!Number.isFinite(x)) { editorStatus(`initial.v.${c.name}: enter a finite number`, "error"); return; }
      applyEdit((t) => state.api.edit_number(t, `initial.v.${c.name}`, x));
    }, { placeholder: c.v_given ? "" : `solved: ${c.v.toPrecision(4)}` });
    return el("div", { class: "pair" }, q, v);
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
    const mark = el("span", { class: "mark", text: m.mark, "aria-hidden": "true" });
    mark.style.color = m.colour;
    box.append(el("label", { class: "method" }, check, swatch, mark, m.id));
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

/** Keeps each canvas' CSS size in `data-css-size`, so that drawing never asks the
 *  browser for a layout (reading `clientWidth` every frame forced a reflow of the
 *  whole page, newly typeset equations included: long tasks of 100+ ms). */
const canvasSizes = new ResizeObserver((entries) => {
  for (const e of entries) {
    const box = e.contentBoxSize?.[0];
    const [w, h] = box ? [box.inlineSize, box.blockSize] : [e.contentRect.width, e.contentRect.height];
    e.target.dataset.cssSize = `${w} ${h}`;
    if (e.target.id === "stability-canvas") drawStability();
  }
  state.dirty = true;
});

/** Marks the plot canvases scrolled out of view (`data-offscreen`): while playing,
 *  drawing refreshes those one per frame, not all of them every frame. */
const canvasViews = new IntersectionObserver((entries) => {
  for (const e of entries) e.target.toggleAttribute("data-offscreen", !e.isIntersecting);
  state.dirty = true;
}, { rootMargin: "64px" });
// Printing shows every panel as it is now, and the running scenario's whole text.
window.addEventListener("beforeprint", () => {
  if (state.display) safely("drawing", () => state.display.draw(window.devicePixelRatio || 1, false));
  $("print-text").textContent = state.text ?? "";
});

function renderPlots(info) {
  const box = $("plots");
  const panels = info.layout.panels;
  const ids = panels.map((p) => p.id).join(" ");
  if (box.dataset.ids === ids) {
    panels.forEach((p) => {
      const fig = $(`${p.id}-fig`);
      fig.querySelector("h3").textContent = p.title;
      fig.querySelector(".note").textContent = p.note;
    });
    return;
  }
  box.dataset.ids = ids;
  box.replaceChildren(...panels.map((p) => {
    const canvas = el("canvas", { id: p.id, role: "img", "aria-label": p.title });
    canvasSizes.observe(canvas);
    canvasViews.observe(canvas);
    const png = el("button", { type: "button", class: "small", text: "PNG", title: `Download “${p.title}” as PNG` });
    png.addEventListener("click", () => downloadCanvas(canvas, p.id));
    const head = el("div", { class: "fig-head" }, el("h3", { text: p.title }), png);
    const gaps = el("p", { class: "gaps", text: "Some values here are not finite (undefined or overflowing): they are left out as gaps." });
    gaps.hidden = true;
    const fig = el("figure", { id: `${p.id}-fig`, class: p.kind === "Scene" ? "fig scene" : "fig" }, head, canvas, el("figcaption", { class: "note", text: p.note }), gaps);
    if (p.kind === "Scene") {
      wireScene(canvas);
      // The text alternative, kept current a few times a second (not every frame).
      fig.append(el("p", { id: "scene-text", class: "visually-hidden", "aria-live": "off" }));
      const hidden = el("p", { id: "scene-hidden", class: "gaps" });
      hidden.hidden = true;
      fig.append(hidden);
    }
    return fig;
  }));
}

/** The scene: drag turns the view (space) or moves it (plane), the wheel zooms, a
 *  double-click fits again; arrow keys turn or move it for keyboard users. */
function wireScene(canvas) {
  canvas.tabIndex = 0;
  let last = null;
  const dpr = () => window.devicePixelRatio || 1;
  canvas.addEventListener("pointerdown", (e) => { last = [e.clientX, e.clientY]; canvas.setPointerCapture(e.pointerId); });
  canvas.addEventListener("pointermove", (e) => {
    if (!last || !state.display) return;
    state.display.scene_drag(e.clientX - last[0], e.clientY - last[1], dpr());
    last = [e.clientX, e.clientY];
    state.dirty = true;
  });
  const end = () => { last = null; };
  canvas.addEventListener("pointerup", end);
  canvas.addEventListener("pointercancel", end);
  canvas.addEventListener("wheel", (e) => {
    if (!state.display) return;
    e.preventDefault();
    const box = canvas.getBoundingClientRect();
    state.display.scene_zoom(Math.exp(-e.deltaY * 0.0015), e.clientX - box.left, e.clientY - box.top, dpr());
    state.dirty = true;
  }, { passive: false });
  canvas.addEventListener("dblclick", () => { state.display?.scene_reset(); state.dirty = true; });
  canvas.addEventListener("keydown", (e) => {
    const step = { ArrowLeft: [-20, 0], ArrowRight: [20, 0], ArrowUp: [0, -20], ArrowDown: [0, 20] }[e.key];
    if (!step || !state.display) return;
    e.preventDefault();
    e.stopPropagation();
    state.display.scene_drag(step[0], step[1], 1);
    state.dirty = true;
  });
}

/** The scene's caption for screen readers and its note on elements it could not draw. */
function renderSceneText(now) {
  const text = $("scene-text");
  if (!text || !state.display || now - (renderSceneText.at ?? 0) < 500) return;
  renderSceneText.at = now;
  text.textContent = state.display.scene_caption();
  const hidden = [...new Set(state.runs.flatMap((r) => r.hidden ?? []))];
  const note = $("scene-hidden");
  note.hidden = hidden.length === 0;
  note.textContent = hidden.length ? `Not drawn at this time (a value is not finite there): ${hidden.join(", ")}.` : "";
}

/** The line under the legend: what its `E = (…)` is (set once per scenario, not per frame). */
function renderLegendNote(info) {
  const comps = info.layout.e_components;
  const colours = info.layout.set_labels?.length
    ? "Each method in its colour with the scenario's parameters; each parameter set of [compare] in a colour of its own (the set's name and changed values follow the method); every method with its mark along its lines."
    : "Each method in its colour and with its mark (● ■ ▲ …) along its lines.";
  $("legend-note").textContent = comps.length
    ? `${colours} E = (…) is Hamel's E-vector, G − H, at the clock's state of that run, by independent coordinate (${comps.join(", ")}): zero exactly where Hamel's embedding, which has no multipliers, gives the true motion.${info.hamel_split ? ` Hamel's split: ${info.hamel_split}.` : ""}`
    : colours;
  $("legend-note").hidden = false;
}

function renderLegend() {
  const box = $("legend");
  const runs = state.runs;
  const comps = state.info.layout.e_components;
  box.replaceChildren(...runs.map((r) => {
    const swatch = el("span", { class: "swatch", "aria-hidden": "true" });
    swatch.style.background = r.colour;
    // An expected end (Hamel's split singular, the sample limit) is information, not a failure.
    // The mark drawn along its lines: methods apart without colour.
    const mark = el("span", { class: "mark", text: r.mark, "aria-hidden": "true" });
    mark.style.color = r.colour;
    const item = el("li", { class: r.error ? (r.ended ? "ended" : "failed") : "" }, swatch, mark, el("strong", { text: r.method }));
    // A run of a parameter set of [compare]: its name and the values that differ.
    if (r.set) item.append(el("span", { class: "set", text: ` · ${r.set}` }));
    if (r.e && comps.length) {
      // As the E-vector panel: every component when there are few, else |E| and the
      // largest six.
      const entries = r.e.map((x, i) => [comps[i], x]);
      const shown = entries.length <= 6 ? entries : [...entries].sort((a, b) => Math.abs(b[1]) - Math.abs(a[1])).slice(0, 6);
      const e = shown.map(([name, x]) => `${name} ${x.toExponential(2)}`).join(", ");
      const norm = Math.hypot(...r.e);
      item.append(el("span", { class: "e", text: entries.length <= 6 ? ` E = (${e})` : ` |E| = ${norm.toExponential(2)}; largest of ${entries.length}: ${e}` }));
    }
    if (r.error) item.append(el("span", { class: "why", text: ` — ${r.error}`, title: r.error }));
    return item;
  }));
}

// ---------- stability ----------

/** The swept quantity's path in the scenario text and its value in the running scenario. */
function sweptPath(data) {
  return data.kind === "parameter" ? `parameters.${data.over}` : `initial.v.${data.over.replace(/'$/, "")}`;
}
function sweptValue(data, info) {
  if (data.kind === "parameter") return info.parameters.find((p) => p.name === data.over)?.value ?? NaN;
  return info.coordinates.find((c) => `${c.name}'` === data.over)?.v ?? NaN;
}
/** The text with the swept value set to 0: equal for texts whose sweeps are equal
 *  (the sweep sets that value itself), so a click does not compute it again. */
function sweepKey(text, data) {
  try { return state.api.edit_number(text, sweptPath(data), 0); } catch { return text; }
}

/** The stability panel: the sweep of the scenario's `[stability]` table, computed by
 *  the helper worker (a bicycle's 1,000 linearisations never hold the page). */
async function renderStability() {
  const text = state.text, fig = $("stability");
  const old = state.stability;
  if (!/stability/.test(text)) { fig.hidden = true; state.stability = null; return; }
  if (old && old.key === sweepKey(text, old.data)) {
    old.data.current = sweptValue(old.data, state.info);
    drawStability();
    return;
  }
  if (old) $("stability-note").textContent = "Computing the eigenvalues…";
  const ask = () => helper.ask("stability", { text }, { budgetMs: budget("derive") });
  let answer = await ask();
  // Another request that overran its budget took the helper down with this one
  // queued behind it: the helper is replaced, so ask once more.
  if (answer.cancelled && text === state.text) answer = await ask();
  if (text !== state.text) return; // superseded
  if (!answer.ok || answer.result === null) {
    state.stability = null;
    fig.hidden = answer.ok;
    if (!answer.ok) {
      const why = answer.timeout ? `the sweep took more than ${budget("derive") / 1000} s and was stopped (\`nhlab linearize\` has no time limit)` : answer.error;
      $("stability-canvas").getContext("2d").clearRect(0, 0, 1e4, 1e4);
      $("stability-note").textContent = `No stability analysis: ${why}`;
    }
    return;
  }
  const data = answer.result;
  data.current = sweptValue(data, state.info);
  state.stability = { data, key: sweepKey(text, data), span: [0, 0] };
  fig.hidden = false;
  drawStability();
}

function drawStability() {
  const s = state.stability;
  if (!s) return;
  const d = s.data;
  const span = safely("drawing the stability panel", () => state.api.draw_stability("stability-canvas", d, d.current, window.devicePixelRatio || 1));
  if (span) s.span = span;
  // A boundary within the bisection's tolerance of zero is zero.
  const range = Math.abs(d.values[d.values.length - 1] - d.values[0]);
  const fmt = (x) => (Math.abs(x) < 1e-9 * range ? "0" : Number(x.toPrecision(10)).toString());
  const bounds = d.boundaries.map(([x, stable]) => `${d.over} = ${fmt(x)} (${stable ? "becomes stable" : "becomes unstable"})`);
  const here = d.values.length ? nearestIndex(d.values, d.current) : -1;
  const at = Number.isFinite(d.current) ? ` The run uses ${d.over} = ${fmt(d.current)}${here < 0 ? "" : inRanges(d.stable, d.current) ? ": stable." : ": unstable."}` : "";
  $("stability-title").textContent = `Linear stability against ${d.over} (${d.method}; state ${d.state.join(", ")}${d.held.length ? `; held ${d.held.join(", ")}` : ""})`;
  const hamel = d.hamel.length ? ` Dashed: Hamel's embedding linearised at the same states — where its eigenvalues differ, it does not follow the true motion.` : d.hamel_note ? ` ${d.hamel_note}.` : "";
  $("stability-note").textContent = `Real (top) and imaginary (bottom) parts of the eigenvalues; stable ranges shaded green. ${bounds.length ? `Boundaries: ${bounds.join("; ")}.` : "No change of stability in this range."}${at}${hamel} Click to run at a value.`;
  $("stability-canvas").setAttribute("aria-label", `Eigenvalues against ${d.over} from ${fmt(d.values[0])} to ${fmt(d.values[d.values.length - 1])}. ${bounds.join("; ")}`);
}

const nearestIndex = (xs, x) => xs.reduce((best, v, i) => (Math.abs(v - x) < Math.abs(xs[best] - x) ? i : best), 0);
const inRanges = (ranges, x) => ranges.some(([a, b]) => x >= a && x <= b);

function wireStability() {
  const canvas = $("stability-canvas");
  canvasSizes.observe(canvas);
  canvas.addEventListener("click", (e) => {
    const s = state.stability;
    if (!s) return;
    const [left, right] = s.span;
    const values = s.data.values;
    const x = e.clientX - canvas.getBoundingClientRect().left;
    if (right <= left || x < left - 4 || x > right + 4) return;
    const lo = values[0], hi = values[values.length - 1];
    const raw = lo + (Math.min(Math.max(x, left), right) - left) / (right - left) * (hi - lo);
    // The nearest value of the sweep (its step is the resolution the author chose).
    const value = Number(values[nearestIndex(values, raw)].toPrecision(12));
    s.data.current = value;
    drawStability();
    applyEdit((t) => state.api.edit_number(t, sweptPath(s.data), value));
  });
  $("stability-png").addEventListener("click", () => downloadCanvas(canvas, "stability"));
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

/** Each equation row's MathML as the core gave it, to lay it out again at another width. */
const equationMarkup = new WeakMap();

/** MathML elements in `markup` (its start tags), counted without parsing it. */
const mathmlElements = (markup) => markup.match(/<m[a-z]/g)?.length ?? 0;

function equationRow(eq) {
  const copy = el("button", { type: "button", class: "small", text: "Copy LaTeX", title: `Copy the LaTeX of ${eq.label}` });
  copy.addEventListener("click", () => copyText(eq.latex, copy));
  const box = el("div", { class: "eq-math" });
  const typeset = () => {
    box.replaceChildren(safeMath(eq.mathml));
    equationMarkup.set(box, eq.mathml);
  };
  const size = mathmlElements(eq.mathml);
  if (size <= MAX_TYPESET_NODES) {
    typeset();
  } else {
    const seconds = Math.max(1, Math.round(size / 50000));
    const show = el("button", { type: "button", class: "small", text: "Typeset it",
      title: `About ${seconds} s of layout, during which the page does not answer` });
    // Not broken into lines afterwards: it is longer than MAX_FITTED_NODES.
    show.addEventListener("click", typeset);
    box.classList.add("eq-long");
    box.append(el("span", { class: "hint", text: `Too long to typeset at once (${size.toLocaleString("en")} symbols). ` }), show);
  }
  return el("div", { class: "eq" }, el("div", { class: "eq-label", text: eq.label }), box, copy);
}

const SIGNS = new Set(["+", "−", "-"]);
const isSign = (node) => node.localName === "mo" && SIGNS.has(node.textContent.trim());
/** Where a line may break: before a `+`, `−` or `=` of the equation's sums. */
const isBreak = (node) => isSign(node) || (node.localName === "mo" && node.textContent.trim() === "=");
const INVISIBLE_TIMES = "\u2062";
const MAX_FITTED_NODES = MAX_TYPESET_NODES;  // larger equations (typeset on request) scroll instead of being broken into lines (a fit costs about 25 ms per 1,000 nodes)

function mathmlNode(tag, ...children) {
  const e = document.createElementNS(MATHML, tag);
  e.append(...children);
  return e;
}

const hasBreak = (row) => [...row.children].some((c) => isBreak(c) || (c.localName === "mrow" && hasBreak(c)));

/** The children of `node` laid in one line, grouping rows with a `+`, `−` or `=`
 *  opened up. Each operator
 *  first gets the form its place in its row gave it (MathML Core's rule: first
 *  prefix, last postfix, else infix), so that opening rows changes no spacing. */
function atoms(node, out = []) {
  // A row without a break of its own (`sin(ψ)`, a product) stays whole: its
  // parentheses keep stretching to their own content.
  if (node.localName !== "mrow" || !hasBreak(node)) {
    out.push(node);
    return out;
  }
  const kids = [...node.children];
  kids.forEach((k, i) => {
    if (k.localName === "mo" && !k.hasAttribute("form") && kids.length > 1) {
      k.setAttribute("form", i === 0 ? "prefix" : i === kids.length - 1 ? "postfix" : "infix");
    }
  });
  for (const k of kids) atoms(k, out);
  return out;
}

/** A fraction too wide for a line, `N/d`, as `(1/d) N` (`N` in parentheses when it is
 *  a sum), whose `N` can then be broken: the same value, set differently. */
function openFraction(frac) {
  const [numerator, denominator] = frac.children;
  const sum = numerator.localName === "mrow" && [...numerator.children].slice(1).some(isSign);
  const body = sum ? mathmlNode("mrow", mathmlNode("mo", "("), numerator, mathmlNode("mo", ")")) : numerator;
  frac.replaceWith(mathmlNode("mrow", mathmlNode("mfrac", mathmlNode("mn", "1"), denominator), mathmlNode("mo", INVISIBLE_TIMES), body));
}

/** Whether `node` sits in `parent` through grouping rows only (not in a fraction,
 *  script or root, where a line cannot break). */
function outermost(node, parent) {
  for (let e = node.parentElement; e && e !== parent; e = e.parentElement) if (e.localName !== "mrow") return false;
  return true;
}

/** The children of `parent` (an equation, or one entry of a column) as lines no
 *  wider than `room`, broken before the `+`, `−` and `=` of its sums (inside
 *  parentheses too), each line filled as far as it allows (measured, not
 *  estimated), continuation lines indented. A fraction wider than a line is first
 *  written as `(1/d) N`. The nodes keep their order, so the expression reads the
 *  same; one indivisible piece wider than the room (a long root or subscript) still
 *  scrolls. Leaves `parent` as it was when one line suffices. */
function breakLines(parent, room) {
  // Fractions wider than a line, outermost first, a few rounds (each layout is one pass).
  for (let round = 0; round < 4; round++) {
    const wide = [...parent.querySelectorAll("mfrac")].filter((f) => f.getBoundingClientRect().width > room && outermost(f, parent));
    if (wide.length === 0) break;
    wide.forEach(openFraction);
  }
  const top = mathmlNode("mrow", ...parent.children);
  parent.append(top);
  const list = atoms(top);
  const widths = new Map(list.map((a) => [a, a.getBoundingClientRect().width]));
  // Pieces from one break to the next, laid greedily: a line takes pieces while they fit.
  const pieces = [];
  for (const a of list) {
    if (pieces.length === 0 || isBreak(a)) pieces.push([a]);
    else pieces.at(-1).push(a);
  }
  const lines = [[]];
  let used = 0;
  for (const piece of pieces) {
    const w = piece.reduce((sum, a) => sum + widths.get(a), 0);
    if (lines.at(-1).length > 0 && used + w > room) {
      lines.push([]);
      used = 0;
    }
    lines.at(-1).push(...piece);
    used += w;
  }
  if (lines.length < 2) return;
  const table = mathmlNode("mtable");
  table.setAttribute("class", "eq-lines");
  lines.forEach((line, i) => {
    const indent = mathmlNode("mspace");
    indent.setAttribute("width", "2em");
    table.append(mathmlNode("mtr", mathmlNode("mtd", mathmlNode("mrow", ...(i > 0 ? [indent] : []), ...line))));
  });
  parent.replaceChildren(table);
}

/** An equation wider than its box, set as lines ([`breakLines`]); in a matrix, each
 *  entry of a column vector (`F`, `b`) too wide for the box. Other matrices are left
 *  as they are (they scroll). */
function fitEquation(box) {
  const markup = equationMarkup.get(box);
  if (markup === undefined || !box.isConnected) return;
  // Laid out before (another width): from the core's markup again.
  if (fitEquation.touched.has(box)) box.replaceChildren(safeMath(markup));
  // A very large equation is left to scroll: measuring and rebuilding its tens of
  // thousands of nodes would hold the page for a second.
  if (box.getElementsByTagName("*").length > MAX_FITTED_NODES) return;
  fitEquation.touched.add(box);
  const row = box.closest(".eq");
  const saved = row.style.contentVisibility;
  row.style.contentVisibility = "visible"; // measure even when scrolled out of view
  try {
    const math = box.firstElementChild;
    const room = 0.97 * (box.clientWidth - 4) - 32; // 32 px: the continuation lines' indent
    if (!math || math.localName !== "math" || room <= 100 || math.getBoundingClientRect().width <= room + 32) return;
    const matrix = math.querySelector("mtable");
    if (!matrix) {
      breakLines(math, room);
      return;
    }
    const cells = [...matrix.children].map((r) => [...r.children]);
    if (!cells.every((r) => r.length === 1)) return;
    // The entries start after `F = [` and leave room for the closing bracket.
    const left = matrix.getBoundingClientRect().left - math.getBoundingClientRect().left + 40;
    for (const [cell] of cells) {
      if (cell.getBoundingClientRect().width > room - left) breakLines(cell, room - left);
    }
  } finally {
    row.style.contentVisibility = saved;
  }
}

fitEquation.touched = new WeakSet(); // boxes whose nodes a fit may have moved

/** Lays every shown equation out again when the box's width changed: a few
 *  milliseconds' worth per frame (a large equation's fit is a long task of its
 *  own), the latest change winning. */
function refitEquations() {
  const boxes = [...document.querySelectorAll("#eq-body .eq-math")];
  const token = refitEquations.token = (refitEquations.token ?? 0) + 1;
  const next = (from) => {
    if (token !== refitEquations.token) return;
    const started = performance.now();
    let k = from;
    while (k < boxes.length && (k === from || performance.now() - started < TYPESET_MS_PER_FRAME)) fitEquation(boxes[k++]);
    if (k < boxes.length) requestAnimationFrame(() => next(k));
  };
  next(0);
}

/** The same at once: printing lays the page out before any frame comes. */
function refitEquationsNow() {
  refitEquations.token = (refitEquations.token ?? 0) + 1;
  for (const box of document.querySelectorAll("#eq-body .eq-math")) fitEquation(box);
}

async function renderEquations() {
  const body = $("eq-body");
  const method = $("eq-method").value, text = state.text;
  body.replaceChildren(el("p", { class: "hint", text: "Deriving…" }));
  const answer = await helper.ask("derive", { text, method }, { budgetMs: budget("derive") });
  if (text !== state.text || method !== $("eq-method").value) return; // superseded
  const d = answer.ok ? answer.result
    : { error: answer.timeout ? `deriving them took more than ${budget("derive") / 1000} s and was stopped` : answer.error };
  if (d.error !== undefined) {
    $("eq-form").textContent = "";
    body.replaceChildren(el("p", { class: "hint", text: `No equations: ${d.error}` }));
    return;
  }
  $("eq-form").textContent = d.form;
  // Typesetting is the page's own work: a 150×150 matrix is 22,500 MathML cells and
  // half a second of layout. Large matrices are named, not typeset; long lists of
  // equations come 60 at a time, and rows are added a few per frame, so that
  // laying them out never holds the page (60 large equations take 50 ms at once).
  const token = renderEquations.token = (renderEquations.token ?? 0) + 1;
  const matrices = el("div", { class: "eq-list" });
  const list = el("div", { class: "eq-list" });
  const rows = d.matrices.map((m) => () => (m.rows * m.cols > MAX_TYPESET_ENTRIES
    ? el("div", { class: "eq" }, el("div", { class: "eq-label", text: m.label }),
      el("p", { class: "hint", text: `${m.rows}×${m.cols}: too large to typeset here; its entries are in the expanded equations below (and in \`nhlab derive\`).` }))
    : equationRow(m)));
  const showFrom = (start) => {
    list.querySelector(".more")?.remove();
    const batch = d.equations.slice(start, start + EQUATIONS_AT_ONCE).map((e) => () => equationRow(e));
    const rest = d.equations.length - start - EQUATIONS_AT_ONCE;
    appendInFrames(list, batch, token, () => {
      if (rest <= 0) return;
      const more = el("button", { type: "button", class: "small more", text: `Show ${Math.min(rest, EQUATIONS_AT_ONCE)} more of ${rest}` });
      more.addEventListener("click", () => showFrom(start + EQUATIONS_AT_ONCE));
      list.append(more);
    });
  };
  body.replaceChildren(el("h3", { text: "Matrix form" }), matrices, el("h3", { text: "Expanded" }), list);
  appendInFrames(matrices, rows, token, () => showFrom(0));
}

/** Appends the rows `makers` build to `parent`, as many per animation frame as fit
 *  in TYPESET_MS_PER_FRAME (at least one), then calls `done`; stops when a newer
 *  rendering (token) has begun. */
/** Appends the elements `makers` make to `parent`, a few milliseconds' worth per
 *  frame, while `current()` (default: the equations' render is the latest) holds. */
function appendInFrames(parent, makers, token, done, current = () => token === renderEquations.token) {
  const next = (from) => {
    if (!current()) return;
    const started = performance.now();
    let k = from;
    while (k < makers.length && (k === from || performance.now() - started < TYPESET_MS_PER_FRAME)) {
      const node = makers[k++]();
      parent.append(node);
      const math = node.querySelector?.(".eq-math");
      if (math) fitEquation(math);
    }
    if (k < makers.length) requestAnimationFrame(() => next(k));
    else done();
  };
  next(0);
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

/** PNG scale of exported panels: print quality whatever the screen's pixel ratio. */
const EXPORT_SCALE = 2;

function downloadCanvas(canvas, id) {
  const name = `${slug()}-${id.replace("plot-", "")}.png`;
  const save = (c) => c.toBlob((blob) => blob && download(name, blob), "image/png");
  if (id === "stability") {
    // The sweep drawn afresh at twice the size, with its title (the page shows the
    // title above the canvas).
    const s = state.stability, box = canvas.getBoundingClientRect(), out = document.createElement("canvas");
    const drawn = s && safely("exporting", () => {
      state.api.draw_stability_export(out, s.data, s.data.current, $("stability-title").textContent, box.width, box.height + 40, EXPORT_SCALE);
      return true;
    });
    save(drawn ? out : canvas);
    return;
  }
  if (!state.display) { save(canvas); return; }
  // Drawn afresh at twice the size on a canvas of its own, with its title and a
  // legend (the page's panels name the methods in the legend above them instead).
  const box = canvas.getBoundingClientRect();
  const out = document.createElement("canvas");
  const drawn = safely("exporting", () => { state.display.draw_export(id, out, box.width, box.height + 40, EXPORT_SCALE); return true; });
  save(drawn ? out : canvas);
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
  const share = state.info.share;
  if (share.Err !== undefined) throw new Error(share.Err);
  url.hash = `s=${share.Ok}`;
  return url.href;
}

function openShare() {
  let link;
  try { link = shareUrl(); } catch (e) { notice(errorText(e)); return; }
  state.unshared = false;
  history.replaceState(null, "", link);
  $("share-link").value = link;
  state.shareLink = link;
  renderEmbedSnippet();
  copyText(link);
  $("share-dialog").showModal();
  $("share-link").select();
}

// ---------- help: the project's own documents, rendered at build time ----------

/** Opens the Help dialog on `page` (`first-system`, `reference` or `lab`), scrolled to
 *  heading `anchor` if given. */
function openHelp(page = "first-system", anchor = null) {
  const body = $("help-body");
  if (body.dataset.page !== page) {
    let html;
    try { html = state.api.help_html(page); } catch (e) { notice(errorText(e)); return; }
    body.innerHTML = html; // the project's own documents, rendered when the page was built
    body.dataset.page = page;
    decorateHelp(body);
  }
  for (const tab of document.querySelectorAll(".help-tabs [role=tab]")) tab.setAttribute("aria-selected", String(tab.dataset.page === page));
  if (!$("help-dialog").open) $("help-dialog").showModal();
  const target = anchor ? body.querySelector(`[id="${CSS.escape(anchor)}"]`) : null;
  if (target) target.scrollIntoView(); else body.scrollTop = 0;
}

/** Links inside the help stay inside it; every whole scenario gets a button that
 *  opens it in the editor. */
function decorateHelp(body) {
  for (const a of body.querySelectorAll("a[href]")) {
    const href = a.getAttribute("href");
    const inner = /^(?:(?:\.\.?\/)?(?:docs\/)?(reference|first-system|lab)\.md(?=#|$))?(?:#(.+))?$/.exec(href);
    const elsewhere = /^(?:\.\.?\/)?(?:docs\/)?[\w-]+\.md(?:#.*)?$/.test(href);
    if (inner && href !== "") {
      a.addEventListener("click", (e) => { e.preventDefault(); openHelp(inner[1] ?? body.dataset.page, inner[2] ?? null); });
    } else if (elsewhere) {
      // Another of the repository's documents (architecture, benchmarks…): not part
      // of the page, so named rather than linked to an address that does not exist.
      const name = el("span", { class: "doc-name", text: a.textContent });
      name.title = `docs/${href.replace(/^(?:\.\.?\/)?(?:docs\/)?/, "").replace(/#.*$/, "")} in the repository`;
      a.replaceWith(name);
    } else {
      a.target = "_blank";
      a.rel = "noopener";
    }
  }
  for (const code of body.querySelectorAll("pre > code.language-toml")) {
    const text = code.textContent;
    if (!/^format = "nhlab\/1"/m.test(text)) continue;
    const button = el("button", { type: "button", class: "small open-example", text: "Open in the editor" });
    button.addEventListener("click", () => {
      $("help-dialog").close();
      state.galleryName = null;
      $("editor").value = text;
      renderGutter();
      keepDraft();
      load(text, { fromEditor: true });
    });
    code.parentElement.after(button);
  }
}

/** The controls an embedder may show besides the plots, the scene and playback
 *  (`#…&embed&controls=parameters,methods`). */
const EMBED_CONTROLS = ["parameters", "initial", "methods", "stability", "equations"];

/** The iframe for course notes: as wide as the notes' column up to 720 px and in the
 *  proportion of 720 × 560 (never shorter than 460 px, where the plots still fit),
 *  showing the controls ticked in the dialog. */
function renderEmbedSnippet() {
  const chosen = [...$("embed-controls").querySelectorAll("input:checked")].map((i) => i.value);
  const embed = new URL(state.shareLink);
  embed.hash += `&embed${chosen.length ? `&controls=${chosen.join(",")}` : ""}`;
  const title = state.info.title.replace(/[<>&"]/g, "");
  $("embed-snippet").value = `<iframe src="${embed.href}" title="${title} — nhlab" loading="lazy" style="display:block;width:100%;max-width:720px;aspect-ratio:720/560;min-height:460px;border:1px solid #ccc;box-sizing:border-box"></iframe>`;
}

async function exportCsv() {
  // The whole run, computed in the worker apart from the playing one, so the file is
  // the command line's whatever the playback position; the button cancels it.
  const button = $("export-csv");
  if (state.exporting) { helper.replace("export cancelled"); return; }
  const label = button.textContent;
  state.exporting = true;
  button.textContent = "Cancel export";
  const answer = await helper.ask("csv", { text: state.text }, {
    onProgress: (x) => { button.textContent = `Cancel export (${Math.round(100 * x)} %)`; },
  });
  state.exporting = false;
  button.textContent = label;
  if (answer.ok) download(`${slug()}.csv`, new Blob([answer.result], { type: "text/csv" }));
  else if (answer.cancelled) notice("CSV export cancelled.", "info");
  else notice(`CSV export failed: ${answer.error}`);
}

// ---------- the fragment: #s=…, #gallery=…, &embed ----------

/** Keeps the address bar a link to what plays: `#gallery=` while that item's text
 *  is unchanged, else the running text's share link (its comments and layout
 *  included), so that a reload or a copied address opens what is on the screen. */
function syncAddress() {
  let original = null;
  if (state.galleryOrigin) try { original = state.api.gallery_text(state.galleryOrigin); } catch { original = null; }
  const edited = original !== null && state.text !== original;
  const embed = embedSuffix();
  let hash = null;
  if (original !== null && !edited) hash = `#gallery=${encodeURIComponent(state.galleryOrigin)}`;
  else if (state.info.share.Ok !== undefined) hash = `#s=${state.info.share.Ok}`;
  if (hash !== null) history.replaceState(null, "", hash + embed);
  $("edited-mark").hidden = !edited;
  const option = [...$("gallery").options].find((o) => o.value === state.galleryOrigin);
  if (option) option.textContent = option.dataset.title + (edited ? " (edited)" : "");
}

const DRAFT_KEY = "nhlab:draft";

/** Saves the editor's text as typed, problems and all: in this tab (kept across
 *  reloads) and as the browser's last draft (for a tab that was closed). */
function keepDraft() {
  const text = $("editor").value;
  state.unshared = true;
  if (state.embed) return; // a reader's slider in course notes is not the author's draft
  const draft = JSON.stringify({ text, title: state.info?.title ?? "", at: Date.now() });
  for (const store of [() => sessionStorage, () => localStorage]) {
    try { store().setItem(DRAFT_KEY, draft); } catch { /* storage off or full: nothing to keep */ }
  }
}

function forgetDraft() {
  for (const store of [() => sessionStorage, () => localStorage]) {
    try { store().removeItem(DRAFT_KEY); } catch { /* nothing kept */ }
  }
}

function readDraft(store) {
  try {
    const d = JSON.parse(store().getItem(DRAFT_KEY) ?? "null");
    return d && typeof d.text === "string" && d.text.length <= 1 << 20 ? d : null;
  } catch { return null; }
}

/** After opening: offers the text this tab was editing when it differs from what
 *  opened (a reload while the text had problems), or, on the bare address, the last
 *  text edited in this browser. */
function offerDraft(fragment) {
  if (state.embed) return;
  const tab = readDraft(() => sessionStorage);
  const draft = tab ?? (fragment.replace(/^#/, "") === "" ? readDraft(() => localStorage) : null);
  if (!draft) return;
  // What the address opens (loaded asynchronously, so not yet in the editor).
  const f = parseFragment();
  let opened = null;
  try {
    opened = f.share !== null ? state.api.share_to_toml(f.share) : state.api.gallery_text(f.gallery ?? state.api.gallery_default());
  } catch { opened = null; }
  if (draft.text === opened) return;
  const when = new Date(draft.at).toLocaleString();
  $("restore-text").textContent = `${tab ? "This tab was editing" : "You were editing"} ${draft.title ? `“${draft.title}”` : "a scenario"} (${when}), different from what opened now.`;
  state.draft = draft;
  $("restore").hidden = false;
}

function restoreDraft() {
  $("restore").hidden = true;
  const draft = state.draft;
  if (!draft) return;
  state.galleryName = null;
  $("editor").value = draft.text;
  renderGutter();
  keepDraft();
  load(draft.text, { fromEditor: true });
}

/** What the address keeps after the scenario in embed mode. */
function embedSuffix() {
  if (!state.embed) return "";
  return `&embed${state.embedControls.length ? `&controls=${state.embedControls.join(",")}` : ""}`;
}

function parseFragment() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const query = new URLSearchParams(location.search);
  const controls = (params.get("controls") ?? query.get("controls") ?? "").split(",").filter((c) => EMBED_CONTROLS.includes(c));
  return { share: params.get("s"), gallery: params.get("gallery"), embed: params.has("embed") || query.has("embed"), controls };
}

function openGallery(name, { message } = {}) {
  let text;
  try { text = state.api.gallery_text(name); } catch (e) { notice(errorText(e)); return false; }
  state.galleryName = name;
  state.galleryOrigin = name;
  $("gallery").value = name;
  if (message) notice(message); else notice(null);
  load(text, { trusted: true });
  return true;
}

function openFromFragment() {
  const f = parseFragment();
  state.embed = f.embed;
  state.embedControls = f.embed ? f.controls : [];
  document.body.classList.toggle("embed", f.embed);
  for (const c of EMBED_CONTROLS) document.body.classList.toggle(`show-${c}`, state.embedControls.includes(c));
  document.body.classList.toggle("with-controls", state.embedControls.some((c) => ["parameters", "initial", "methods"].includes(c)));
  const full = new URL(location.href);
  full.search = "";
  full.hash = full.hash.replace(/&?embed\b/, "").replace(/&?controls=[^&]*/, "");
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
    state.galleryOrigin = null;
    $("gallery").value = "";
    notice(null);
    load(text).then(async (ok) => {
      if (ok !== false) return;
      // Show the link's scenario and its problems; the default system plays meanwhile.
      const status = $("editor-status").textContent;
      if (!state.display) await load(state.api.gallery_text(state.api.gallery_default()), { fromEditor: true, trusted: true });
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
  b.textContent = state.playing ? "Pause" : catchingUp() ? "Stop" : "Play";
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

/** Whether the runs are still catching up with a clock that is not moving (To end,
 *  Step): the Play button then stops them where they are. */
function catchingUp() {
  if (state.jumping && state.caughtUp && state.target === state.clock) state.jumping = false;
  return state.jumping && !state.playing && !!state.display && !state.stalled;
}

/** How far the runs have got: the display clock, or the slowest run still going when
 *  they are behind it; when every run has stopped (an error, the sample limit), the
 *  furthest any of them got: the clock never claims a time no run reached. */
function reached() {
  const going = state.runs.filter((r) => !r.error).map((r) => r.t);
  if (going.length || !state.runs.length) return Math.min(state.display.now(), ...going);
  return Math.min(state.display.now(), Math.max(...state.runs.map((r) => r.t)));
}

function frame(now) {
  const started = performance.now();
  if (state.lastFrame !== null) state.perf.intervals.push(now - state.lastFrame);
  const wall = state.lastFrame === null ? 0 : Math.min((now - state.lastFrame) / 1000, 0.1);
  state.lastFrame = now;
  if (state.display && state.playing) {
    state.clock = Math.min(state.clock + state.speed * wall, state.info.t_end);
    state.dirty = true;
  }
  // The runner steps towards the clock in slices while the page draws what it has
  // sent: one request at a time, a new one as soon as the last is answered.
  const behind = state.target !== state.clock || !state.caughtUp;
  if (state.display && state.runner && !state.advancing && !state.stalled && behind) requestAdvance();
  if (state.display && state.playing && state.clock >= state.info.t_end && state.finished && state.caughtUp) {
    state.playing = false;
    updatePlayButton();
  }
  const waiting = catchingUp();
  if (waiting !== state.wasCatchingUp) { state.wasCatchingUp = waiting; updatePlayButton(); }
  // Frames drawn while playing refresh some panels only: the first frame after
  // draws them all.
  if (state.display && !state.playing && state.drewPlaying) state.dirty = true;
  if (state.display && state.dirty) {
    state.dirty = false;
    state.drewPlaying = state.playing;
    const t0 = performance.now();
    const gaps = safely("drawing", () => state.display.draw(window.devicePixelRatio || 1, state.playing)) ?? [];
    state.perf.draw.push(performance.now() - t0);
    if (!state.display) { requestAnimationFrame(frame); return; } // replaced after a trap
    for (const p of state.info.layout.panels) {
      const warn = $(`${p.id}-fig`)?.querySelector(".gaps");
      if (warn) warn.hidden = !gaps.includes(p.id);
    }
    const shown = reached();
    const progress = waiting && state.clock > state.info.t0
      ? ` (catching up: ${Math.floor(100 * (shown - state.info.t0) / (state.clock - state.info.t0))} %)` : "";
    $("clock").textContent = `t = ${shown.toFixed(3)} / ${state.info.t_end}${progress}`;
    renderLegend();
    renderSceneText(now);
    state.perf.work.push(performance.now() - started);
    for (const k of ["work", "step", "draw", "loads"]) if (state.perf[k].length > 5000) state.perf[k].splice(0, 1000);
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
    if (!state.display) return;
    if (catchingUp()) { state.clock = reached(); state.jumping = false; updatePlayButton(); return; } // stop here
    if (!state.playing && (state.clock >= state.info.t_end || state.stalled)) restartRuns();
    state.playing = !state.playing;
    state.lastFrame = null;
    updatePlayButton();
  });
  $("step").addEventListener("click", () => {
    state.playing = false; updatePlayButton();
    moveClock(state.clock + (state.info.t_end - state.info.t0) / 200);
  });
  $("reset").addEventListener("click", () => { if (state.display) restartRuns(); });
  $("to-end").addEventListener("click", () => {
    state.playing = false;
    moveClock(state.info.t_end);
    state.jumping = true; // until the runs get there: Play reads Stop
    updatePlayButton();
  });
  $("speed").addEventListener("change", () => { state.speed = Number($("speed").value); });
  document.addEventListener("keydown", (e) => {
    const t = e.target;
    if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement) return;
    if (t instanceof HTMLElement && (t.isContentEditable || t.closest(".cm-editor"))) return; // typing in the editor
    if (e.ctrlKey || e.metaKey || e.altKey || document.querySelector("dialog[open]")) return;
    if (e.key === "?" && !state.embed) { e.preventDefault(); openHelp($("help-body").dataset.page ?? "first-system"); return; }
    const keys = { " ": "play", ArrowRight: "step", r: "reset", R: "reset", e: "to-end", E: "to-end" };
    if (keys[e.key] && !(t instanceof HTMLButtonElement && e.key === " ")) {
      e.preventDefault();
      $(keys[e.key]).click();
    }
  });
}

// ---------- start ----------

function wire() {
  // Long equations are broken to the width of their box: again when it changes, and
  // for the printed page's width.
  let equationsWidth = 0, refit = 0;
  new ResizeObserver(([entry]) => {
    const w = Math.round(entry.contentRect.width);
    if (w === equationsWidth) return;
    equationsWidth = w;
    cancelAnimationFrame(refit);
    refit = requestAnimationFrame(refitEquations);
  }).observe($("eq-body"));
  for (const e of ["beforeprint", "afterprint"]) addEventListener(e, refitEquationsNow);
  matchMedia("print").addEventListener("change", refitEquationsNow);
  const gallery = $("gallery");
  const groups = new Map();
  for (const g of state.api.gallery_entries()) {
    if (!groups.has(g.group)) groups.set(g.group, el("optgroup", { label: g.group }));
    groups.get(g.group).append(el("option", { value: g.name, text: g.title, "data-title": g.title }));
  }
  const classics = [...groups.keys()].sort((a, b) => (a.startsWith("Classic") ? -1 : b.startsWith("Classic") ? 1 : a.localeCompare(b)));
  gallery.replaceChildren(el("option", { value: "", text: "(your own scenario)", disabled: "" }), ...classics.map((k) => groups.get(k)));
  gallery.addEventListener("change", () => {
    if (!gallery.value) return;
    history.replaceState(null, "", `#gallery=${encodeURIComponent(gallery.value)}${embedSuffix()}`);
    openGallery(gallery.value);
  });
  let timer = null;
  $("editor").addEventListener("scroll", () => { $("gutter").scrollTop = $("editor").scrollTop; });
  $("editor").addEventListener("input", () => {
    renderGutter();
    keepDraft();
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
  $("embed-controls").addEventListener("change", renderEmbedSnippet);
  $("help-open").addEventListener("click", () => openHelp($("help-body").dataset.page ?? "first-system"));
  $("close-help").addEventListener("click", () => $("help-dialog").close());
  for (const tab of document.querySelectorAll(".help-tabs [role=tab]")) tab.addEventListener("click", () => openHelp(tab.dataset.page));
  $("export-toml").addEventListener("click", () => { state.unshared = false; });
  $("export-toml").addEventListener("click", () => download(`${slug()}.toml`, new Blob([$("editor").value], { type: "application/toml" })));
  $("export-csv").addEventListener("click", exportCsv);
  window.addEventListener("hashchange", () => {
    const f = parseFragment();
    // Our own replaceState never fires this; a pasted link does.
    if (f.share !== null || f.gallery !== null) openFromFragment();
  });
  window.addEventListener("resize", () => { state.dirty = true; });
  window.addEventListener("beforeunload", (e) => {
    // Edits not shared or exported since: the browser asks before leaving.
    if (state.unshared && !state.embed) { e.preventDefault(); e.returnValue = ""; }
  });
  $("restore-draft").addEventListener("click", restoreDraft);
  $("discard-draft").addEventListener("click", () => { $("restore").hidden = true; forgetDraft(); });
  wireSettings();
  wirePlayback();
  wireStability();
}

function boot(api) {
  if (state.api) return;
  state.api = api;
  helper = new LabWorker({ respawn: true });
  // For the browser tests: a deliberate trap on the page or in the runner.
  window.nhlabTest = {
    trapPage: () => safely("self-test", () => state.api.self_test_trap()),
    stabilitySpan: () => state.stability?.span ?? null,
    trapWorker: () => state.runner.ask("trap"),
    load: (text) => load(text, { fromEditor: true }),   // the benchmark times an edit's whole path
    info: () => state.info,                              // what the runner's WebLab.info() said
    benchRhs: (text, count) => helper.ask("benchRhs", { text, count }), // compiled against interpreted, in a worker
  };
  try {
    wire();
    const fragment = location.hash;
    openFromFragment();
    offerDraft(fragment);
  } catch (e) {
    notice(`The lab could not start: ${errorText(e)}`);
  }
  requestAnimationFrame(frame);
}

// The editor (CodeMirror, bundled at build time) takes the textarea's place as soon
// as it has loaded; without it the plain textarea works as before.
import("./editor.js")
  .then(({ createEditor }) => {
    state.editor = createEditor($("editor"));
    state.perf.editorReadyMs = performance.now(); // the benchmark's "editor ready"
  })
  .catch((e) => console.warn(`the editor did not load; the plain text box stays: ${errorText(e)}`));

if (window.wasmBindings) boot(window.wasmBindings);
else addEventListener("TrunkApplicationStarted", () => boot(window.wasmBindings));
