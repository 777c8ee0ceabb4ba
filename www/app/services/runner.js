// @ts-check
// The runner: the worker that holds and steps the playing scenario, and the page's
// WebDisplay that keeps what it sent. A new scenario is loaded in a new runner that
// replaces the old one only once it has loaded, so a scenario that fails or takes too
// long changes nothing. A trap in a worker or on the page is recovered from here.
//
// This service imports no view and writes no state: it publishes what happens
// (`opened`, `refused`, `update`, `stalled`, `extended`, `failed`, `notice`), and the
// actions make it the store's.

import { WORKER_SLICE_MS, budget, errorText, isTrap } from "../dom.js";
import { events } from "../events.js";
import { count, t } from "../i18n.js";
import { perf } from "../perf.js";
import { state } from "../store.js";
import { api, moduleFiles, newWorker, useBindings } from "./modules.js";

/** @type {any} the LabWorker that holds and steps the running scenario */
let runner = null;
/** @type {any} a started LabWorker for the next scenario */
let spare = null;
/** @type {any} the page's WebDisplay: what the runner sent, drawn on the canvases */
let shown = null;
let loadToken = 0;      // the newest load; an older one that finishes late is dropped
let advancing = false;  // a request to step is out
let extending = false;  // a request to go on past t_end is out
let recovering = false; // a fresh instance of the page's module is being made
let instances = 0;      // wasm instances made after a trap

/** The page's WebDisplay (null until a scenario has loaded, and while one recovers). */
export const display = () => shown;

/** Whether a request to step is out. */
export const isAdvancing = () => advancing;

/** The running runner's first recorded step (the equations wait for it), or undefined. */
export const firstStep = () => runner?.firstStep;

/** Which module the playing scenario runs in (the tests). */
export const runnerKind = () => runner?.kind;

/** Traps the runner on purpose (the tests). */
export const trapRunner = () => runner.ask("trap");

/** Starts the first runner, beside the page's own module: it waits for nothing the page does. */
export function startEarly() { spare ??= newWorker(); }

/** Builds a lab from `text` in a fresh runner, under the load budget (none for the
 *  gallery's own files, `trusted`). On success the runner replaces the running one
 *  (true); on failure (problems, or too slow) the running lab keeps playing and the
 *  reason is published (`refused`, false); undefined when a newer load overtook this.
 *  @param {string} text @param {{ trusted?: boolean, fromEditor?: boolean, keepClock?: boolean }} [options] */
export async function load(text, { trusted = false, fromEditor = false, keepClock = false } = {}) {
  const token = ++loadToken;
  const candidate = spare ?? newWorker();
  spare = null;
  const started = performance.now();
  perf.loadPhases = []; // when each part began (the browser tests read it)
  /** @type {any} */
  let progress = null;
  const answer = await candidate.ask("open", { text }, {
    budgetMs: trusted ? null : budget("load"),
    onProgress: (/** @type {any} */ p) => {
      progress = { ...progress, ...p };
      perf.loadPhases.push({ phase: p.phase, ms: performance.now() - started });
    },
  });
  // No word of its own: the runner was still opening the first scenario ahead of
  // the page (www/early.js), which said its parts as it went.
  progress ??= candidate.speculating ?? { phase: "reading", size: null };
  // The next spare starts once this load has answered, not beside it (a started
  // runner saves an edit about 40 ms of its 75).
  setTimeout(() => { spare ??= newWorker(); }, 0);
  if (token !== loadToken) { candidate.kill("superseded"); return undefined; }
  if (!answer.ok) {
    candidate.kill("refused");
    const message = answer.timeout ? tooSlowToLoad(text, progress) : answer.error;
    events.emit("refused", { message, timeout: Boolean(answer.timeout) });
    return false;
  }
  perf.loads.push(performance.now() - started);
  perf.firstLoadedMs ??= performance.now(); // the first scenario is open in its runner
  perf.firstOpenedAhead ??= Boolean(answer.result.ahead); // by the first runner, before the page asked (www/early.js)
  return install(candidate, text, answer.result, { fromEditor, keepClock });
}

/** Why a load was stopped: the part that was running when its time ran out (reading
 *  the text, deriving the model and building its scene, or starting its runs), with
 *  the sizes that part depends on.
 *  @param {string} text @param {{ phase: string, size: any }} progress */
function tooSlowToLoad(text, { phase, size }) {
  const seconds = budget("load") / 1000;
  const previous = shown ? ` ${t("load.previous")}` : "";
  if (phase === "reading") return t("load.too-slow.reading", { characters: count(text.length), seconds }) + previous;
  if (phase === "starting") return t("load.too-slow.starting", { size: describeSize(size), seconds, runs: describeRuns(size) }) + previous;
  const scene = size?.shapes > 0 ? t("load.scene", { shapes: plural(size.shapes, "shape"), points: plural(size.points, "point") }) : "";
  return t("load.too-slow.deriving", { size: describeSize(size), seconds, scene }) + previous;
}

/** "28 runs (7 methods × 4 parameter sets)": the runs a load starts, and what
 *  multiplies them (`sets` counts the scenario's own values).
 *  @param {{ runs: number, methods: number, sets: number, integrators: number }} size */
function describeRuns({ runs, methods, sets, integrators }) {
  const factors = /** @type {[string, number][]} */ ([["method", methods], ["parameter-set", sets], ["integrator", integrators]])
    .filter(([, n]) => n > 1).map(([one, n]) => plural(n, one));
  return plural(runs, "run") + (factors.length > 1 ? ` (${factors.join(" × ")})` : "");
}

/** "3 shapes": a count and its noun (`count.shape.one` / `count.shape.other`).
 *  @param {number} n @param {string} one */
const plural = (n, one) => t(`count.${one}.${n === 1 ? "one" : "other"}`, { n: count(n) });

/** " (120 coordinates, 30 constraints)": what a scenario that took too long holds. */
function describeSize(/** @type {any} */ size) {
  if (!size) return "";
  const parts = ["coordinate", "constraint", "contact", "definition", "particle"]
    .filter((one) => size[`${one}s`] > 0).map((one) => plural(size[`${one}s`], one));
  return parts.length ? ` (${parts.join(t("list.separator"))})` : "";
}

/** Makes `candidate`, which has just opened `text`, the running lab.
 *  @param {any} candidate @param {string} text @param {any} opened
 *  @param {{ fromEditor: boolean, keepClock: boolean }} how */
function install(candidate, text, opened, { fromEditor, keepClock }) {
  let fresh;
  try {
    fresh = new (api().WebDisplay)(opened.info.layout);
    fresh.set_projector(state().projector);
  } catch (e) {
    candidate.kill("refused");
    if (isTrap(e)) recoverFromTrap(errorText(e));
    else events.emit("refused", { message: t("load.no-layout", { why: errorText(e) }), timeout: false });
    return false;
  }
  retire(runner);
  shown?.free();
  runner = candidate;
  // The helper's equations wait for the new run's first step (see views/equations.js).
  candidate.firstStep = new Promise((resolve) => { candidate.markFirstStep = resolve; });
  candidate.onDeath = (/** @type {string} */ why) => runnerDied(candidate, why);
  shown = fresh;
  if (!applyToDisplay(opened)) return false;
  events.emit("opened", { text, opened, fromEditor, keepClock, loadToken });
  return true;
}

function retire(/** @type {any} */ old) {
  if (!old) return;
  old.onDeath = null;
  old.kill("replaced");
}

/** Puts a runner's answer (an update) on the display; false after a trap. */
function applyToDisplay(/** @type {any} */ u) {
  try {
    u.runs.forEach((/** @type {any} */ run, /** @type {number} */ i) => {
      shown.apply(i, run.from, u.rows[i], u.current[i]);
      shown.apply_picture(i, u.pictures[i], run.hidden);
      shown.set_failed(i, Boolean(run.error) && !run.ended);
    });
    shown.set_now(u.now);
  } catch (e) {
    if (isTrap(e)) { recoverFromTrap(errorText(e)); return false; }
    throw e;
  }
  if (u.stepMs !== undefined && u.steps > 0) perf.step.push(u.stepMs);
  return true;
}

/** Puts an update on the display and publishes it. */
function applyUpdate(/** @type {any} */ u, /** @type {number | null} */ target) {
  if (!applyToDisplay(u)) return;
  events.emit("update", { runs: u.runs, finished: u.finished, caughtUp: u.caughtUp, target });
}

/** How many step budgets a runner's first request has. */
const COLD_STEP_BUDGETS = 3;

/** Asks the runner to step towards the clock, one request at a time; a request
 *  that takes longer than the step budget means one step of the model is too slow
 *  to play: the runner is stopped, and playback with it (`stalled`). */
export function advance() {
  const asked = runner;
  advancing = true;
  const target = state().clock;
  let phase = "stepping";
  // A runner's first step also compiles the code it runs (the engine compiles each
  // function at its first call): until it has recorded one, three budgets' time.
  const budgetMs = budget("step") * (asked.stepped ? 1 : COLD_STEP_BUDGETS);
  asked.ask("advance", { target, sliceMs: WORKER_SLICE_MS }, { budgetMs, onProgress: (/** @type {any} */ p) => { phase = p.phase; } }).then((/** @type {any} */ a) => {
    advancing = false;
    // Warm once a step is recorded (an adaptive integrator's first tries may be
    // rejected: a request can answer without one).
    if (a.ok && a.result.runs.some((/** @type {any} */ r) => r.samples > 1)) { asked.stepped = true; asked.markFirstStep?.(); }
    if (a.timeout) { // the runner was killed, and a fresh one waits for Reset or Play
      const at = shown.now().toPrecision(6);
      const shapes = state().info?.layout?.scene?.labels?.length;
      const seconds = budgetMs / 1000;
      const message = phase === "collecting"
        ? t("step.too-slow.collecting", { pictures: shapes ? t("step.pictures", { shapes: plural(shapes, "shape") }) : "", seconds, t: at })
        : t("step.too-slow", { seconds, t: at });
      events.emit("stalled", { message });
      return;
    }
    if (asked !== runner) return; // replaced meanwhile
    if (a.ok) applyUpdate(a.result, target);
  });
}

/** A runner that trapped or failed: a fresh one with the same scenario, caught up
 *  to the clock again (the runs are deterministic, so the plots come back as they
 *  were). After a step that took too long, the fresh runner waits for Reset or Play
 *  and the plots keep what they show. A runner replaced on purpose does not come here. */
async function runnerDied(/** @type {any} */ dead, /** @type {string} */ why) {
  if (dead !== runner) return;
  const timedOut = dead.timedOut;
  if (!timedOut) events.emit("notice", { message: t("trap.worker", { why }), kind: "error" });
  const fresh = newWorker({ kind: "runner" });
  runner = fresh;
  fresh.onDeath = (/** @type {string} */ w) => runnerDied(fresh, w);
  const answer = await fresh.ask("open", { text: state().text });
  if (fresh !== runner) return;
  if (!answer.ok) events.emit("notice", { message: t("trap.worker-failed", { why: answer.error }), kind: "error" });
  else if (!timedOut) applyUpdate(answer.result, null);
}

/** Starts every run again (to the scenario's t_end); true once the runner has. */
export async function restart() {
  const asked = runner;
  const a = await asked.ask("restart");
  if (asked !== runner) return false;
  if (a.ok) applyUpdate(a.result, null);
  return true;
}

/** Lets the runs go on to `tEnd` (an open-ended run; see actions.js); published as `extended`. */
export async function extend(/** @type {number} */ tEnd) {
  if (extending) return;
  extending = true;
  const asked = runner;
  try {
    const a = await asked.ask("extend", { tEnd });
    if (a.ok && asked === runner) events.emit("extended", { tEnd: a.result });
  } finally {
    extending = false;
  }
}

/** Sets input `slot` of every run from its next step on. */
export function setInput(/** @type {number} */ slot, /** @type {number} */ value) {
  runner?.ask("setInput", { slot, value }).catch(() => {});
}

/** The runner's sentence on the motion at the clock (`{ok, result}`), or null once
 *  another scenario has replaced the one asked. */
export async function describeMotion() {
  const asked = runner;
  if (!asked) return null;
  const answer = await asked.ask("describe");
  return asked === runner ? answer : null;
}

/** The samples the runs have recorded so far, as CSV (`{ok, result}`). */
export const csvAsPlayed = () => runner.ask("csvPlayed");

/** Runs `fn` (a call into the page's module) for `what` (a message id); a trap
 *  replaces the module, any other failure stops playback and is said (`failed`).
 *  @template T @param {string} what @param {() => T} fn @returns {T | undefined} */
export function guarded(what, fn) {
  try { return fn(); } catch (e) {
    if (isTrap(e)) { recoverFromTrap(`${t(what)}: ${errorText(e)}`); return undefined; }
    events.emit("failed", { message: `${t(what)}: ${errorText(e)}` });
    return undefined;
  }
}

/** A trap on the page (drawing, editing): a fresh instance of the module, a new
 *  display, and the runner sends everything again. */
export async function recoverFromTrap(/** @type {string} */ reason) {
  if (recovering) return;
  recovering = true;
  shown = null; // the old instance's objects are unusable; never freed
  try {
    const { js, wasm } = moduleFiles().page;
    const fresh = await import(`${js}?instance=${++instances}`);
    await fresh.default({ module_or_path: wasm });
    fresh.set_language(state().language);
    useBindings(fresh);
    shown = new fresh.WebDisplay(state().info.layout);
    shown.set_projector(state().projector);
    const asked = runner;
    const a = await asked.ask("resend");
    if (a.ok && asked === runner) applyUpdate(a.result, null);
    events.emit("notice", { message: t("trap.page", { why: reason }), kind: "error" });
  } catch (e) {
    events.emit("notice", { message: t("trap.page-failed", { why: reason }), kind: "error" });
  } finally {
    recovering = false;
  }
}
