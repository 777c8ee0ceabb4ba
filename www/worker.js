// nhlab's worker: the wasm core off the page's thread. The page (app.js) runs two
// kinds of these:
//   - a runner holds the scenario that plays (a WebLab): it loads it, steps its runs
//     towards the page's clock in short slices and sends back what they recorded, as
//     flat Float64Arrays the page's WebDisplay draws;
//   - a helper derives equations for the equations panel, computes CSV exports and
//     the stability panel's sweep and map.
// Either can be terminated at any moment (too slow, a trap, a newer scenario): the
// page's thread never waits on it, so no scenario can freeze the page.
//
// Each kind runs its own module (www/modules/runner, www/modules/helper), which
// exports only what that kind does: an op the module lacks fails with a message.
//
// Protocol: the first message is {init: {js, module}} (the kind's wasm-bindgen glue's
// URL and its compiled WebAssembly.Module; `module: null, error` if the page could
// not compile it); the answer is {ready: true} or {ready: false, error}. Then each
// request {id, op, ..., locale} (the language of its texts, `en` or `zh`) gets
// {id, ok: true, result} or {id, ok: false, error, trap}; a long one may send
// {id, progress} first.
// The first runner (www/early.js) also gets {prepare: {js}} before init (it imports
// the glue while the page compiles the module) and {speculate: {text, locale}}: the
// scenario the page will open first, which it opens as soon as it can; the page's
// "open" of the same text in the same language takes that lab (its answer says
// `ahead: true`). While it opens it, it says each part as {speculating: progress}.

const MAX_ROWS = 20000;        // rows per run in one update (a resend of a long run comes in pieces)
const MAX_STEPS_PER_CALL = 4096;

let api = null;
let lab = null;                // the runner's WebLab
let cached = { text: null, method: null, lab: null }; // the helper's WebLab, for repeated derivations
let msPerRound = null;         // measured cost of one step of every run, to size calls (null: not yet)
let runs = 1;
let glue = null;               // the glue's import, begun by {prepare}
let speculation = null;        // {text, locale}: the first scenario, to open once the module is ready
let speculated = null;         // {text, locale, lab}: what opening it made, for the page's "open"
let asked = false;             // the page has asked for something: too late to speculate
let broken = null;             // a trap while speculating: every request answers with it

/** What the runs recorded since the last update, ready to post (buffers transferred). */
function update(extra = {}) {
  const u = lab.update(MAX_ROWS);
  const rows = u.runs.map((_, i) => lab.take_rows(i));
  const current = u.runs.map((_, i) => lab.take_current(i));
  const pictures = u.runs.map((_, i) => lab.take_picture(i));
  return { result: { ...u, ...extra, rows, current, pictures }, transfer: [...rows, ...current, ...pictures].map((a) => a.buffer) };
}

/** Steps the runs towards `target` for about `sliceMs`; caughtUp when nothing is left.
 *  Tells the page what it is doing (stepping, then collecting the samples and the
 *  scene's pictures), so that a request stopped for its time blames the right part. */
function advance(id, target, sliceMs) {
  self.postMessage({ id, progress: { phase: "stepping" } });
  const started = performance.now();
  let steps = 0, caughtUp = false;
  for (;;) {
    const left = sliceMs - (performance.now() - started);
    if (left <= 0) break;
    // k steps per run at most; n steps taken over all runs. A run held back by k
    // takes k steps, so n < k means that every run is past the clock or stopped.
    // Until a step has been timed, one: a guess could ask a slow model for thousands
    // (a 200-coordinate model at 5 ms a step was asked for 1,000 and stopped as too slow).
    const k = msPerRound === null ? 1 : Math.max(1, Math.min(MAX_STEPS_PER_CALL, Math.floor(left / msPerRound)));
    const c0 = performance.now();
    const n = lab.advance(target, k);
    if (n > 0) msPerRound = Math.max(1e-4, (performance.now() - c0) / Math.max(1, n / runs));
    steps += n;
    if (n < k) { caughtUp = true; break; }
  }
  const stepMs = performance.now() - started;
  self.postMessage({ id, progress: { phase: "collecting" } });
  return update({ caughtUp, steps, stepMs });
}

function helperLab(text, method) {
  if (cached.text !== text || cached.method !== method) {
    cached.lab?.free();
    cached = { text: null, method: null, lab: null };
    cached = { text, method, lab: api.WebLab.for_equations(text, method) };
  }
  return cached.lab;
}

function csv(id, text) {
  const l = new api.WebLab(text);
  try {
    const [t0, t1] = l.span();
    while (!l.finished()) {
      if (l.advance(t1, 2000) === 0) break;
      self.postMessage({ id, progress: (l.now() - t0) / (t1 - t0) });
    }
    return l.csv();
  } finally {
    l.free();
  }
}

/** For the browser benchmark: Lagrange's right-hand side, compiled (as the runs use
 *  it) and interpreted, in ms a call, each the best of five rounds. A round makes at
 *  least `count` calls and lasts at least 20 ms: a worker's clock is coarse (0.1 ms or
 *  more), and 20,000 calls of a small model's kernel take about 1 ms. */
function benchRhs(text, count) {
  const l = new api.WebLab(text);
  try {
    const perCall = () => {
      let calls = count;
      for (;;) {
        const t0 = performance.now();
        l.bench_rhs("lagrange", calls);
        if (performance.now() - t0 >= 20 || calls >= 1 << 24) break;
        calls *= 2;
      }
      let ms = Infinity;
      for (let r = 0; r < 5; r++) {
        const t0 = performance.now();
        l.bench_rhs("lagrange", calls);
        ms = Math.min(ms, performance.now() - t0);
      }
      return ms / calls;
    };
    const code = l.rhs_code();
    const compiled = perCall();
    l.interpret_rhs();
    return { code, compiled, interpreted: perCall() };
  } finally {
    l.free();
  }
}

/** Advances `work` (a WebLongRun or a WebStabilityMap: `advance(count)` returns 0
 *  when done, `data()` what it has) in slices of about 100 ms, `count` adapted to
 *  them, and posts what it has between them at most every `postMs`; returns its data
 *  at the end and frees it. The page stops it by ending this worker. */
function inSlices(id, work, { count, most, postMs, posted = 0 }) {
  try {
    for (;;) {
      const t0 = performance.now();
      if (work.advance(count) === 0) break;
      const took = performance.now() - t0;
      count = Math.max(10, Math.min(most, Math.round(count * (took < 50 ? 2 : took > 200 ? 0.5 : 1))));
      if (performance.now() - posted > postMs) {
        self.postMessage({ id, progress: work.data() });
        posted = performance.now();
      }
    }
    return work.data();
  } finally {
    work.free();
  }
}

/** The page's long run: what it has posted at most four times a second. */
const longRun = (id, text, tEnd) => inSlices(id, new api.WebLongRun(text, tEnd), { count: 100, most: 1_000_000, postMs: 250 });

/** The stability panel's map: what it has posted at most five times a second (the
 *  coarse pass, a sixteenth of the points, comes first). */
const stabilityMap = (id, text) =>
  inSlices(id, new api.WebStabilityMap(text), { count: 50, most: 100_000, postMs: 200, posted: performance.now() });

function handle(id, data) {
  switch (data.op) {
    case "open": {
      let next = taken(data.text);
      const ahead = next !== null;
      if (!ahead) next = openLab(data.text, (progress) => self.postMessage({ id, progress }));
      lab?.free();
      lab = next;
      msPerRound = null;
      const info = lab.info();
      runs = Math.max(1, info.layout.methods.length);
      return update({ info, caughtUp: false, ahead });
    }
    case "advance": return advance(id, data.target, data.sliceMs);
    case "restart": lab.restart(); return update({ caughtUp: false });
    case "extend": return { result: lab.extend(data.tEnd) };
    case "describe": return { result: lab.describe_motion() };
    case "setInput": return { result: lab.set_input(data.slot, data.value) };
    case "csvPlayed": return { result: lab.csv() };
    case "resend": lab.resend(); return update({ caughtUp: false });
    case "derive": return { result: helperLab(data.text, data.method).derive(data.method) };
    case "csv": return { result: csv(id, data.text) };
    case "longRun": return { result: longRun(id, data.text, data.tEnd) };
    case "stability": return { result: api.stability(data.text) };
    case "stabilityMap": return { result: stabilityMap(id, data.text) };
    case "exportCode": return { result: api.export_code(data.text, data.language, data.name) };
    case "trap": api.self_test_trap(); return { result: null };
    case "benchRhs": return { result: benchRhs(data.text, data.count) };
    default: throw new Error(`unknown request ${data.op}`);
  }
}

/** Opens `text`, telling `say` each part as it begins, with the sizes that part
 *  depends on (said by the page if the load takes too long): reading the text,
 *  deriving and compiling the model, starting its runs. */
function openLab(text, say) {
  say({ phase: "reading" });
  const read = new api.ReadScenario(text);
  const size = read.size();
  say({ phase: "deriving", size });
  return api.WebLab.from_read(read, (runs) => say({ phase: "starting", size: { ...size, ...runs } }));
}

/** The lab opened from `text` before the page asked (see `speculate`), if the page's
 *  language is the one it was opened in; null otherwise. Either way it is the last. */
function taken(text) {
  const made = speculated;
  speculated = null;
  if (made?.text === text && made.locale === locale) return made.lab;
  made?.lab.free();
  return null;
}

/** Opens the scenario the page will ask for first, unless the page has asked for
 *  something already. A scenario with problems leaves nothing: the page's own
 *  request reports them. */
function speculate() {
  const { text, locale: wanted } = speculation;
  speculation = null;
  if (asked) return;
  try {
    setLocale(wanted);
    // The page's "open" waits for this: the parts are said to it too.
    const lab = openLab(text, (progress) => self.postMessage({ speculating: progress }));
    speculated = { text, locale: wanted, lab };
  } catch (e) {
    if (e instanceof WebAssembly.RuntimeError) broken = e;
  }
}

let locale = "en"; // the language of the texts it makes (`en`, `zh`)

function setLocale(wanted) {
  if (wanted && wanted !== locale) {
    api.set_language(wanted);
    locale = wanted;
  }
}

let started = false; // the module is instantiated

self.onmessage = async ({ data }) => {
  if (data.prepare) {
    glue ??= import(data.prepare.js);
    return;
  }
  if (data.speculate) {
    if (!asked) speculation = data.speculate;
    if (started && speculation) speculate();
    return;
  }
  if (data.init) {
    try {
      if (!data.init.module) throw new Error(data.init.error);
      api = await (glue ?? import(data.init.js));
      await api.default({ module_or_path: data.init.module });
      started = true;
      self.postMessage({ ready: true });
    } catch (e) {
      self.postMessage({ ready: false, error: String(e) });
      return;
    }
    if (speculation) speculate();
    return;
  }
  asked = true;
  try {
    if (!started) throw new Error("the worker has not started");
    if (broken) throw broken;
    setLocale(data.locale);
    const { result, transfer = [] } = handle(data.id, data);
    self.postMessage({ id: data.id, ok: true, result }, transfer);
  } catch (e) {
    // A trap leaves this instance unusable: the page replaces the worker.
    self.postMessage({ id: data.id, ok: false, error: e instanceof Error ? e.message : String(e), trap: e instanceof WebAssembly.RuntimeError });
  }
};
