// @ts-check
// The long-run panel: every method under each integrator, integrated far past the
// playback in a worker of its own (so that the page and the playback go on), its
// energy error drawn against t on log scales as it comes in; Cancel ends the
// worker. A new scenario ends a long run that was for the old one.

import { $ } from "../dom.js";
import { events } from "../events.js";
import { t } from "../i18n.js";
import { watchCanvas } from "../canvases.js";
import { state, store } from "../store.js";
import { api, newWorker } from "../services/modules.js";
import { guarded } from "../services/runner.js";

/** @type {any} the worker of a long run under way, ended on Cancel */
let longRun = null;
/** @type {any} what the long run last sent, redrawn when its canvas resizes */
let lastData = null;

/** Wires the panel's controls once; a new scenario resets it. */
export function wireLongRun() {
  $("long-run-start").addEventListener("click", startLongRun);
  $("long-run-cancel").addEventListener("click", () => stopLongRun("cancelled"));
  watchCanvas($("long-run-canvas"));
  // The chart is drawn once its canvas has a size (it starts hidden).
  events.on("canvas-resized", ({ id }) => { if (id === "long-run-canvas") drawLongRun(); });
  store.subscribe(["info"], ({ info }) => { if (info) resetLongRun(info); });
}

/** A scenario was loaded: its end sets the default length; a long run of the old one stops. */
function resetLongRun(/** @type {any} */ info) {
  stopLongRun(null);
  $("long-run-t").value = String(Math.max(1000, 100 * (info.layout.t_end - info.layout.t0)));
  $("long-run-canvas").hidden = true;
  lastData = null;
  $("long-run-text").textContent = "";
  $("long-run-progress").value = 0;
}

function stopLongRun(/** @type {string | null} */ why) {
  const worker = longRun;
  if (!worker) return;
  longRun = null;
  worker.kill(why ?? "a new scenario");
  $("long-run-start").disabled = false;
  $("long-run-cancel").disabled = true;
}

async function startLongRun() {
  const tEnd = Number($("long-run-t").value);
  if (!Number.isFinite(tEnd)) { $("long-run-text").textContent = t("longrun.enter-time"); return; }
  stopLongRun("restarted");
  const worker = newWorker({ kind: "helper" });
  longRun = worker;
  $("long-run-start").disabled = true;
  $("long-run-cancel").disabled = false;
  $("long-run-progress").value = 0;
  $("long-run-text").textContent = t("longrun.running");
  /** @type {any} */
  let last = null;
  const show = (/** @type {any} */ data) => {
    last = data;
    lastData = data;
    $("long-run-progress").value = data.progress;
    $("long-run-canvas").hidden = false;
    drawLongRun();
    $("long-run-text").textContent = summary(data);
  };
  const answer = await worker.ask("longRun", { text: state().text, tEnd }, { onProgress: (/** @type {any} */ data) => { if (longRun === worker) show(data); } });
  if (longRun !== worker && !answer.ok) {
    // Cancelled by the user (or replaced): say where it got to.
    if (answer.error === "cancelled" && last) $("long-run-text").textContent = `${t("longrun.cancelled-at", { percent: Math.round(100 * last.progress) })} ${summary(last)}`;
    else if (answer.error === "cancelled") $("long-run-text").textContent = t("longrun.cancelled");
    return;
  }
  longRun = null;
  worker.kill("done");
  $("long-run-start").disabled = false;
  $("long-run-cancel").disabled = true;
  if (answer.ok) show(answer.result);
  else $("long-run-text").textContent = t("longrun.failed", { why: answer.error });
}

/** The chart of the last data received (nothing until the canvas has a size: the
 *  canvas observer calls this again then). */
function drawLongRun() {
  const data = lastData;
  if (!data || $("long-run-canvas").hidden) return;
  guarded("task.long-run", () => api().draw_long_run("long-run-canvas", data, window.devicePixelRatio || 1));
}

/** Each run's largest error by a tenth of the way and by the end (or where it stopped),
 *  punctuated in the page's language; times plain (1000, not 1.00e+3). */
function summary(data) {
  const span = data.t_end - data.t0;
  const at = data.t0 + span / 10;
  const time = (x, digits) => String(Number(x.toPrecision(digits)));
  const parts = data.runs.map((r) => {
    if (r.error && r.points.length === 0) return t("longrun.run-failed", { label: r.label, error: r.error });
    const largest = (t) => r.points.filter((p) => p[0] <= t).reduce((m, p) => Math.max(m, p[1]), 0);
    const end = r.points.length ? r.points[r.points.length - 1][0] : data.t0;
    const text = t("longrun.run-summary", { label: r.label, early: largest(at).toExponential(2), at: time(at, 3), last: largest(end).toExponential(2), end: time(end, 4) });
    return r.error ? t("longrun.run-stopped", { text, error: r.error }) : text;
  });
  const head = data.finished ? t("longrun.done") : `${Math.round(100 * data.progress)} %`;
  return t("longrun.summary-line", { head, runs: parts.join(t("longrun.run-join")) });
}
