// @ts-check
// The stability panel: the sweep of `[stability]`, computed by the helper worker,
// drawn by the core, clickable (and by keys) to run at a value.

import { $, EXPORT_SCALE, budget, download, inRanges, nearestIndex } from "../dom.js";
import { events } from "../events.js";
import { t } from "../i18n.js";
import { watchCanvas } from "../canvases.js";
import { state, store } from "../store.js";
import { setNumber, sweepReady, sweptPath, sweptValue } from "../actions.js";
import { askHelper } from "../services/helper.js";
import { embedPanel, slug } from "../services/links.js";
import { api } from "../services/modules.js";
import { guarded } from "../services/runner.js";

/** Where the sweep is drawn: the first and last values' positions in CSS pixels. */
let span = [0, 0];
/** @type {number | null} the value marked by keys (an index of the sweep), if any */
let cursor = null;
/** The swept quantity's value in the running scenario (or the one clicked, until it runs). */
let current = NaN;

/** The text with the swept value set to 0: equal for texts whose sweeps are equal
 *  (the sweep sets that value itself), so a click does not compute it again. */
function sweepKey(/** @type {string} */ text, /** @type {any} */ data) {
  try { return api().edit_number(text, sweptPath(data), 0); } catch { return text; }
}

/** The stability panel: the sweep of the scenario's `[stability]` table, computed by
 *  the helper worker (a bicycle's 1,000 linearisations never hold the page). */
async function renderStability() {
  const s = state();
  const text = s.text, fig = $("stability");
  const old = s.stability;
  // Nothing to sweep, or an embed that shows another panel (it starts no helper).
  const shown = !s.embed || embedPanel(s) === "stability";
  if (!shown || !/stability/.test(text)) { fig.hidden = true; sweepReady(null); return; }
  if (old && old.key === sweepKey(text, old.data)) {
    current = sweptValue(old.data, s.info);
    drawStability();
    return;
  }
  if (old) $("stability-note").textContent = t("stability.computing");
  const ask = () => askHelper("stability", { text }, { budgetMs: budget("derive") });
  let answer = await ask();
  // Another request that overran its budget took the helper down with this one
  // queued behind it: the helper is replaced, so ask once more.
  if (answer.cancelled && text === state().text) answer = await ask();
  if (text !== state().text) return; // superseded
  if (!answer.ok || answer.result === null) {
    sweepReady(null);
    fig.hidden = answer.ok;
    if (!answer.ok) {
      const why = answer.timeout ? t("stability.too-slow", { seconds: budget("derive") / 1000 }) : answer.error;
      $("stability-canvas").getContext("2d").clearRect(0, 0, 1e4, 1e4);
      // Nothing drawn: the heading of the last sweep and how to click it would be stale.
      $("stability-title").textContent = t("stability.title");
      $("stability-handling").textContent = "";
      $("stability-note").textContent = t("stability.none", { why });
    }
    return;
  }
  const data = answer.result;
  current = sweptValue(data, state().info);
  span = [0, 0];
  cursor = null;
  sweepReady({ data, key: sweepKey(text, data) });
  fig.hidden = false;
  drawStability();
}

function drawStability() {
  const s = state().stability;
  if (!s) return;
  const d = s.data;
  const marked = cursor !== null ? d.values[cursor] : current;
  const drawn = guarded("task.stability", () => api().draw_stability("stability-canvas", d, marked, window.devicePixelRatio || 1, state().projector));
  if (drawn) span = drawn;
  // A boundary within the bisection's tolerance of zero is zero.
  const range = Math.abs(d.values[d.values.length - 1] - d.values[0]);
  const fmt = (x) => (Math.abs(x) < 1e-9 * range ? "0" : Number(x.toPrecision(10)).toString());
  // With a derived axis (the bicycle's speed), each value is said on it too.
  const onAxis = (x, k) => {
    if (!d.axis) return "";
    const a = k !== undefined ? d.axis.boundaries[k] : api().on_axis(x, d.values, d.axis.values);
    return `${d.axis.name} = ${fmt(a)}${d.axis.unit ? ` ${d.axis.unit}` : ""}; `;
  };
  const marginal = d.marginal ?? [];
  // A boundary into a range where every real part is zero (the coin above its
  // critical spin): neutrally stable, as the textbooks say, not "stable".
  const intoNeutral = (x) => marginal.some(([a, b]) => Math.abs(a - x) <= 1e-9 * (range || 1) || (x > a && x < b));
  const becomes = (x, stable) => (!stable ? "stability.becomes-unstable" : intoNeutral(x) ? "stability.becomes-neutral" : "stability.becomes-stable");
  const bounds = d.boundaries.map(([x, stable], k) => t(becomes(x, stable), { over: d.over, value: fmt(x), axis: onAxis(x, k) }));
  // Where every real part is zero to round-off: neutral stability.
  const neutral = marginal.length ? ` ${t("stability.marginal-ranges", { ranges: marginal.map(([a, b]) => t("stability.range", { from: fmt(a), to: fmt(b) })).join(t("stability.and")) })}` : "";
  const here = d.values.length ? nearestIndex(d.values, current) : -1;
  const kindAt = (x) => (inRanges(marginal, x) ? "marginal" : inRanges(d.stable, x) ? "stable" : "unstable");
  const said = (x) => (d.axis ? ` (${onAxis(x).replace(/; $/, "")})` : "");
  const at = Number.isFinite(current)
    ? t(here < 0 ? "stability.run-uses" : `stability.run-uses.${kindAt(current)}`, { over: d.over, value: fmt(current), axis: said(current) })
    : "";
  const held = d.held.length ? t("stability.held", { held: d.held.join(", ") }) : "";
  const against = d.axis ? t("stability.against-axis", { name: d.axis.name, unit: d.axis.unit ? ` [${d.axis.unit}]` : "", over: d.over }) : d.over;
  $("stability-title").textContent = t("stability.heading", { against, method: d.method, state: d.state.join(", "), held });
  const hamel = d.hamel.length ? ` ${t("stability.hamel-dashed")}` : d.hamel_note ? ` ${d.hamel_note}.` : "";
  // The answer first (an embed shows the caption's first lines only).
  const found = bounds.length ? t("stability.boundaries", { list: bounds.join("; ") }) : t("stability.no-change");
  $("stability-note").textContent = [at, found, neutral, t("stability.parts"), hamel].map((s) => s.trim()).filter(Boolean).join(t("sentence.separator"));
  $("stability-handling").textContent = t("stability.handling");
  $("stability-canvas").setAttribute("aria-label", t("stability.canvas-label", { over: d.over, from: fmt(d.values[0]), to: fmt(d.values[d.values.length - 1]), bounds: bounds.join("; ") }));
  // Moving the marker by keys: where it is and what the motion is there, read out.
  const marker = $("stability-cursor");
  if (cursor !== null) {
    const x = d.values[cursor];
    marker.textContent = t("stability.cursor", { over: d.over, value: fmt(x), axis: said(x), kind: t(`stability.kind.${kindAt(x)}`), current: fmt(current) });
  } else marker.textContent = "";
}

/** Runs the scenario at the swept value `values[k]`. */
function runAt(/** @type {number} */ k) {
  const s = state().stability;
  if (!s) return;
  const value = Number(s.data.values[k].toPrecision(12));
  current = value;
  cursor = null;
  drawStability();
  setNumber(sweptPath(s.data), value);
}

/** The keys of the stability panel: ← → move the marker one swept value (with Shift,
 *  or Page Up / Page Down, a tenth of the range), Home and End to the ends, and Enter
 *  runs at the value marked (as a click does); Escape returns to the run's value. */
function stabilityKey(/** @type {KeyboardEvent} */ e) {
  const s = state().stability;
  if (!s) return;
  const n = s.data.values.length;
  const here = cursor ?? nearestIndex(s.data.values, current);
  const big = Math.max(1, Math.round(n / 10));
  /** @type {Record<string, number>} */
  const moves = { ArrowLeft: e.shiftKey ? -big : -1, ArrowRight: e.shiftKey ? big : 1, ArrowDown: -1, ArrowUp: 1, PageDown: -big, PageUp: big };
  let next = null;
  if (e.key in moves) next = Math.min(n - 1, Math.max(0, here + moves[e.key]));
  else if (e.key === "Home") next = 0;
  else if (e.key === "End") next = n - 1;
  else if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); runAt(here); return; }
  else if (e.key === "Escape" && cursor !== null) { cursor = null; drawStability(); e.stopPropagation(); return; }
  if (next === null) return;
  e.preventDefault();
  e.stopPropagation();
  cursor = next;
  drawStability();
}

export function wireStability() {
  const canvas = $("stability-canvas");
  watchCanvas(canvas);
  store.subscribe(["info"], () => { renderStability(); });
  store.subscribe(["projector"], drawStability);
  events.on("canvas-resized", ({ id }) => { if (id === "stability-canvas") drawStability(); });
  canvas.addEventListener("keydown", stabilityKey);
  canvas.addEventListener("blur", () => { if (cursor !== null) { cursor = null; drawStability(); } });
  canvas.addEventListener("click", (/** @type {MouseEvent} */ e) => {
    const s = state().stability;
    if (!s) return;
    const [left, right] = span;
    // The axis drawn: the derived quantity's values when the table gives one.
    const values = s.data.axis?.values ?? s.data.values;
    const x = e.clientX - canvas.getBoundingClientRect().left;
    if (right <= left || x < left - 4 || x > right + 4) return;
    const lo = values[0], hi = values[values.length - 1];
    const raw = lo + (Math.min(Math.max(x, left), right) - left) / (right - left) * (hi - lo);
    // The nearest value of the sweep (its step is the resolution the author chose).
    runAt(nearestIndex(values, raw));
  });
  $("stability-png").addEventListener("click", () => downloadSweep(canvas));
}

/** The sweep as PNG, drawn afresh at twice the size with its title (the page shows
 *  the title above the canvas). */
function downloadSweep(/** @type {HTMLCanvasElement} */ canvas) {
  // The map as shown, when the panel shows it.
  if (state().stabilityMap && !$("stability-map-canvas").closest("[hidden]") && $("stability").classList.contains("show-map")) {
    $("stability-map-canvas").toBlob((/** @type {Blob | null} */ blob) => blob && download(`${slug(state())}-stability-map.png`, blob), "image/png");
    return;
  }
  const name = `${slug(state())}-stability.png`;
  const s = state().stability, box = canvas.getBoundingClientRect(), out = document.createElement("canvas");
  const drawn = s && guarded("task.exporting", () => {
    api().draw_stability_export(out, s.data, current, $("stability-title").textContent, box.width, box.height + 40, EXPORT_SCALE);
    return true;
  });
  (drawn ? out : canvas).toBlob((blob) => blob && download(name, blob), "image/png");
}

/** The span the sweep is drawn over (the tests). */
export const stabilitySpan = () => (state().stability ? span : null);
