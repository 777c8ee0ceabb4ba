// The workers: the runner holds and steps the playing scenario; a new scenario is
// loaded in a new runner that replaces the old one only once it has loaded, so a
// scenario that fails or takes too long changes nothing. A trap in a worker or on
// the page is recovered from here.

import { renderInfo } from "./controls.js";
import { $, WORKER_SLICE_MS, budget, errorText, isTrap, notice } from "./dom.js";
import { editorStatus, highlightProblem, renderGutter } from "./editing.js";
import { renderInputs } from "./inputs.js";
import { resetLongRun } from "./longrun.js";
import { forgetMotion } from "./motion.js";
import { updatePlayButton } from "./playback.js";
import { syncAddress } from "./share.js";
import { count, language, t } from "./i18n.js";

/** Builds a lab from `text` in a fresh runner, under the load budget (none for the
 *  gallery's own files, `trusted`). On success the runner replaces the running one
 *  (true); on failure (problems, or too slow) the running lab keeps playing and the
 *  reason shows under the editor (false); undefined when a newer load overtook this. */
export async function load(lab, text, { trusted = false, fromEditor = false, keepClock = false } = {}) {
  const token = ++lab.loadToken;
  const candidate = takeSpare(lab);
  const started = performance.now();
  lab.perf.loadPhases = []; // when each part began (the browser tests read it)
  let progress = null;
  const answer = await candidate.ask("open", { text }, {
    budgetMs: trusted ? null : budget("load"),
    onProgress: (p) => {
      progress = { ...progress, ...p };
      lab.perf.loadPhases.push({ phase: p.phase, ms: performance.now() - started });
    },
  });
  // No word of its own: the runner was still opening the first scenario ahead of
  // the page (www/early.js), which said its parts as it went.
  progress ??= candidate.speculating ?? { phase: "reading", size: null };
  setTimeout(() => keepSpare(lab), 0);
  if (token !== lab.loadToken) { candidate.kill("superseded"); return undefined; }
  if (!answer.ok) {
    candidate.kill("refused");
    const message = answer.timeout ? tooSlowToLoad(lab, text, progress) : answer.error;
    lab.loadTimedOut = Boolean(answer.timeout);
    editorStatus(lab, message, "error");
    highlightProblem(lab, message);
    if (answer.timeout) notice(message);
    return false;
  }
  lab.perf.loads.push(performance.now() - started);
  lab.perf.firstLoadedMs ??= performance.now(); // the first scenario is open in its runner
  lab.perf.firstOpenedAhead ??= Boolean(answer.result.ahead); // by the first runner, before the page asked (www/early.js)
  install(lab, candidate, text, answer.result, { fromEditor, keepClock });
  return true;
}

/** Why a load was stopped: the part that was running when its time ran out (reading
 *  the text, deriving the model and building its scene, or starting its runs), with
 *  the sizes that part depends on. */
function tooSlowToLoad(lab, text, { phase, size }) {
  const seconds = budget("load") / 1000;
  const previous = lab.display ? ` ${t("load.previous")}` : "";
  if (phase === "reading") return t("load.too-slow.reading", { characters: count(text.length), seconds }) + previous;
  if (phase === "starting") return t("load.too-slow.starting", { size: describeSize(size), seconds, runs: describeRuns(size) }) + previous;
  const scene = size?.shapes > 0 ? t("load.scene", { shapes: plural(size.shapes, "shape"), points: plural(size.points, "point") }) : "";
  return t("load.too-slow.deriving", { size: describeSize(size), seconds, scene }) + previous;
}

/** "28 runs (7 methods × 4 parameter sets)": the runs a load starts, and what
 *  multiplies them (`sets` counts the scenario's own values). */
function describeRuns({ runs, methods, sets, integrators }) {
  const factors = [["method", methods], ["parameter-set", sets], ["integrator", integrators]]
    .filter(([, n]) => n > 1).map(([one, n]) => plural(n, one));
  return plural(runs, "run") + (factors.length > 1 ? ` (${factors.join(" × ")})` : "");
}

/** "3 shapes": a count and its noun (`count.shape.one` / `count.shape.other`). */
const plural = (n, one) => t(`count.${one}.${n === 1 ? "one" : "other"}`, { n: count(n) });

/** " (120 coordinates, 30 constraints)": what a scenario that took too long holds. */
export function describeSize(size) {
  if (!size) return "";
  const parts = ["coordinate", "constraint", "contact", "definition", "particle"]
    .filter((one) => size[`${one}s`] > 0).map((one) => plural(size[`${one}s`], one));
  return parts.length ? ` (${parts.join(t("list.separator"))})` : "";
}

/** A started runner for the next load: one is kept ready, so that an edit does not
 *  wait for a worker to start (about 40 ms of the 75 ms an edit took without it).
 *  The next one is started once this load has answered (see `load`), not beside it. */
export function takeSpare(lab) {
  const spare = lab.spare ?? new lab.LabWorker();
  lab.spare = null;
  return spare;
}

/** Starts the spare runner for the next load, if there is none. */
function keepSpare(lab) {
  if (!lab.spare) lab.spare = new lab.LabWorker();
}

/** The names the editor marks and completes, from a lab's info. */
export const editorNames = (info) => ({
  coordinates: info.coordinates.map((c) => c.name),
  parameters: info.parameters.map((p) => p.name),
  definitions: info.definitions ?? [],
});

/** Makes `runner`, which has just opened `text`, the running lab. */
export function install(lab, runner, text, opened, { fromEditor = false, keepClock = false } = {}) {
  let display;
  try {
    display = new lab.api.WebDisplay(opened.info.layout);
    display.set_projector(!!lab.projector);
  } catch (e) {
    runner.kill("refused");
    if (isTrap(e)) recoverFromTrap(lab, errorText(e));
    else editorStatus(lab, t("load.no-layout", { why: errorText(e) }), "error");
    return;
  }
  retire(lab.runner);
  lab.display?.free();
  lab.runner = runner;
  // The helper's equations wait for the new run's first step (see equations.js).
  runner.firstStep = new Promise((resolve) => { runner.markFirstStep = resolve; });
  runner.onDeath = (why) => runnerDied(lab, runner, why);
  lab.display = display;
  lab.plotTextClock = null; // the new panels are described at once
  lab.text = text;
  forgetMotion();
  lab.info = opened.info;
  lab.span = opened.info.t_end - opened.info.t0;
  lab.inputsMoved = false;
  lab.stalled = null;
  lab.target = null;
  lab.jumping = false;
  applyUpdate(lab, opened);
  if (!fromEditor) $("editor").value = text;
  syncAddress(lab);
  renderGutter(lab, new Set());
  lab.editor?.setNames(editorNames(lab.info));
  const warnings = lab.info.warnings;
  editorStatus(lab, warnings.length ? `${t("status.warnings")}\n${warnings.join("\n")}` : t("status.loaded"), warnings.length ? "warning" : "ok");
  renderInfo(lab);
  resetLongRun(lab, lab.info);
  lab.clock = lab.info.layout.t0;
  lab.lastFrame = null;
  // No autoplay for those who asked their system for reduced motion: the initial
  // state is shown and Play starts it.
  if (!keepClock) lab.playing = !matchMedia("(prefers-reduced-motion: reduce)").matches;
  updatePlayButton(lab);
  lab.dirty = true;
  // Which load the page shows: a test (or an embedder) waits for the next one.
  document.body.dataset.loaded = String(lab.loadToken);
}

export function retire(runner) {
  if (!runner) return;
  runner.onDeath = null;
  runner.kill("replaced");
}

/** Puts a runner's answer (an update) on the display. */
export function applyUpdate(lab, u) {
  lab.lastRuns = u.runs;
  try {
    u.runs.forEach((run, i) => {
      lab.display.apply(i, run.from, u.rows[i], u.current[i]);
      lab.display.apply_picture(i, u.pictures[i], run.hidden);
      lab.display.set_failed(i, Boolean(run.error) && !run.ended);
    });
    lab.display.set_now(u.now);
  } catch (e) {
    if (isTrap(e)) { recoverFromTrap(lab, errorText(e)); return; }
    throw e;
  }
  lab.runs = u.runs;
  lab.finished = u.finished;
  lab.caughtUp = u.caughtUp;
  if (u.stepMs !== undefined && u.steps > 0) lab.perf.step.push(u.stepMs);
  const finished = u.finished ? "1" : "0";
  if (document.body.dataset.finished !== finished) document.body.dataset.finished = finished;
  lab.dirty = true;
}

/** How many step budgets a runner's first request has. */
const COLD_STEP_BUDGETS = 3;

/** Asks the runner to step towards the clock, one request at a time; a request
 *  that takes longer than the step budget means one step of the model is too slow
 *  to play: the runner is stopped and playback with it. */
export function requestAdvance(lab) {
  const runner = lab.runner;
  lab.advancing = true;
  const target = lab.clock;
  let phase = "stepping";
  // A runner's first step also compiles the code it runs (the engine compiles each
  // function at its first call): until it has recorded one, three budgets' time.
  const budgetMs = budget("step") * (runner.stepped ? 1 : COLD_STEP_BUDGETS);
  runner.ask("advance", { target, sliceMs: WORKER_SLICE_MS }, { budgetMs, onProgress: (p) => { phase = p.phase; } }).then((a) => {
    lab.advancing = false;
    // Warm once a step is recorded (an adaptive integrator's first tries may be
    // rejected: a request can answer without one).
    if (a.ok && a.result.runs.some((r) => r.samples > 1)) { runner.stepped = true; runner.markFirstStep?.(); }
    if (a.timeout) { // the runner was killed, and a fresh one waits for Reset or Play
      const at = lab.display.now().toPrecision(6);
      const shapes = lab.info?.layout?.scene?.labels?.length;
      const seconds = budgetMs / 1000;
      lab.stalled = phase === "collecting"
        ? t("step.too-slow.collecting", { pictures: shapes ? t("step.pictures", { shapes: plural(shapes, "shape") }) : "", seconds, t: at })
        : t("step.too-slow", { seconds, t: at });
      lab.playing = false;
      updatePlayButton(lab);
      notice(lab.stalled);
      return;
    }
    if (runner !== lab.runner) return; // replaced meanwhile
    if (a.ok) { lab.target = target; applyUpdate(lab, a.result); }
  });
}

/** A runner that trapped or failed: a fresh one with the same scenario, caught up
 *  to the clock again (the runs are deterministic, so the plots come back as they
 *  were). After a step that took too long, the fresh runner waits for Reset or Play
 *  and the plots keep what they show. A runner replaced on purpose does not come here. */
export async function runnerDied(lab, runner, why) {
  if (runner !== lab.runner) return;
  const timedOut = runner.timedOut;
  if (!timedOut) notice(t("trap.worker", { why }));
  await restartRunner(lab, { show: !timedOut });
}

export async function restartRunner(lab, { show }) {
  const fresh = new lab.LabWorker({ kind: "runner" });
  lab.runner = fresh;
  fresh.onDeath = (why) => runnerDied(lab, fresh, why);
  const answer = await fresh.ask("open", { text: lab.text });
  if (fresh !== lab.runner) return;
  if (!answer.ok) notice(t("trap.worker-failed", { why: answer.error }));
  else if (show) { lab.caughtUp = false; applyUpdate(lab, answer.result); }
}

/** Asks the runner to start every run again (to the scenario's t_end). */
export async function restartRuns(lab) {
  lab.clock = lab.info.layout.t0;
  lab.stalled = null;
  const runner = lab.runner;
  const a = await runner.ask("restart");
  if (a.ok && runner === lab.runner) { setEnd(lab, lab.info.t0 + lab.span); applyUpdate(lab, a.result); }
  // The runs start again with the scenario's input values: so do the controls.
  if (runner === lab.runner) { lab.inputsMoved = false; renderInputs(lab, lab.info); }
}

/** An open-ended run: once an input has moved, the runs go on past t_end while they
 *  play, a span of the scenario's at a time, so that a cart-pole can be balanced by
 *  hand for as long as one likes (issue 60). The page's sample limit bounds each run. */
export async function extendRuns(lab) {
  if (lab.extending) return;
  lab.extending = true;
  const runner = lab.runner;
  try {
    const a = await runner.ask("extend", { tEnd: lab.info.t_end + lab.span });
    if (a.ok && runner === lab.runner) setEnd(lab, a.result);
  } finally {
    lab.extending = false;
  }
}

/** The runs' end on the page: the clock's limit and the plots' time axes. */
function setEnd(lab, tEnd) {
  lab.info.t_end = lab.info.layout.t_end = tEnd;
  lab.display?.set_t_end(tEnd);
  lab.dirty = true;
}

/** A trap on the page (drawing, editing): a fresh instance of the module, a new
 *  display, and the runner sends everything again. */
export async function recoverFromTrap(lab, reason) {
  if (lab.recovering) return;
  lab.recovering = true;
  lab.display = null; // the old instance's objects are unusable; never freed
  try {
    const { js, wasm } = lab.moduleFiles().page;
    const fresh = await import(`${js}?instance=${++lab.instances}`);
    await fresh.default({ module_or_path: wasm });
    fresh.set_language(language());
    lab.api = fresh;
    lab.display = new fresh.WebDisplay(lab.info.layout);
    lab.display.set_projector(!!lab.projector);
    const runner = lab.runner;
    const a = await runner.ask("resend");
    if (a.ok && runner === lab.runner) applyUpdate(lab, a.result);
    notice(t("trap.page", { why: reason }));
  } catch (e) {
    notice(t("trap.page-failed", { why: reason }));
  } finally {
    lab.recovering = false;
  }
}
