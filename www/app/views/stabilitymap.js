// @ts-check
// The stability panel's map: `[stability]`'s `sweep` across and `map` up, computed by
// the helper worker progressively (coarse first, drawn as it comes), shown by the
// panel's Map toggle, clickable (and by keys) to run at a point with both values.

import { $, budget, nearestIndex } from "../dom.js";
import { events } from "../events.js";
import { t } from "../i18n.js";
import { watchCanvas } from "../canvases.js";
import { state, store } from "../store.js";
import { setSwept, showStabilityMap, sweptPath, sweptValue } from "../actions.js";
import { askHelper, replaceHelper } from "../services/helper.js";
import { api } from "../services/modules.js";
import { guarded } from "../services/runner.js";

/** @type {{ key: string, data: any } | null} the map of the running text (data: what has come so far) */
let map = null;
/** The request computing a map, if one is (a newer one or leaving the map replaces the helper). */
let computing = /** @type {object | null} */ (null);
/** The plotting area in CSS pixels: [left, right, top, bottom]. */
let area = [0, 0, 0, 0];
/** @type {[number, number] | null} the cell marked by keys (across, up), if any */
let cursor = null;

/** The text with both mapped values set to 0: equal for texts whose maps are equal
 *  (the map sets those values itself), so a click does not compute it again. */
function mapKey(/** @type {string} */ text, /** @type {any} */ d) {
  try {
    return [d.x, d.y].reduce((t, q) => api().edit_number(t, sweptPath(q), 0), text);
  } catch { return text; }
}

/** A number as the panel says it: ten digits, zero within round-off of the range. */
const say = (/** @type {number} */ x, /** @type {number[]} */ range) => {
  const span = Math.abs(range[range.length - 1] - range[0]) || 1;
  return Math.abs(x) < 1e-9 * span ? "0" : Number(x.toPrecision(6)).toString();
};

/** `v = 5 m/s` (the drawn axis: the derived one across, when the sweep has one). */
const named = (/** @type {any} */ axis, /** @type {number} */ shown) =>
  `${axis.name} = ${say(shown, axis.shown)}${axis.unit ? ` ${axis.unit}` : ""}`;

/** The map's data with the values the running scenario uses now (a click changes
 *  them without computing the map again). */
function withCurrent(/** @type {any} */ d) {
  const info = state().info;
  return { ...d, x: { ...d.x, current: sweptValue(d.x, info) }, y: { ...d.y, current: sweptValue(d.y, info) } };
}

/** Shows the sweep or the map, as the toggle says, and computes the map when shown. */
async function refresh() {
  const s = state(), fig = $("stability"), toggle = $("stability-map-toggle");
  const sweep = s.stability?.data;
  const has = !!sweep?.map;
  toggle.hidden = !has;
  const on = has && s.stabilityMap;
  fig.classList.toggle("show-map", on);
  toggle.setAttribute("aria-pressed", String(on));
  toggle.textContent = t("stability.map.toggle");
  if (has) toggle.title = t("stability.map.toggle-title", { x: sweep.axis?.name ?? sweep.over, y: sweep.map });
  if (!on) {
    // A map nobody sees is not worth the helper's time.
    if (computing) { computing = null; replaceHelper(t("stability.map.stopped")); }
    return;
  }
  const text = s.text;
  const key = mapKey(text, { x: { over: sweep.over, kind: sweep.kind }, y: { over: sweep.map, kind: mapKind(sweep) } });
  if (map && map.key === key) { draw(); return; }
  if (computing) replaceHelper(t("stability.map.stopped"));
  const token = {};
  computing = token;
  map = { key, data: null };
  cursor = null;
  $("stability-map-canvas").getContext("2d").clearRect(0, 0, 1e4, 1e4);
  $("stability-map-note").textContent = t("stability.map.computing", { percent: 0, total: "…" });
  $("stability-map-handling").textContent = "";
  const ask = () => askHelper("stabilityMap", { text }, {
    budgetMs: budget("map"),
    onProgress: (/** @type {any} */ d) => { if (computing === token && map) { map.data = d; draw(); } },
  });
  let answer = await ask();
  if (answer.cancelled && computing === token) answer = await ask();
  if (computing !== token) return;
  computing = null;
  if (answer.ok && map) { map.data = answer.result; draw(); return; }
  const why = answer.timeout ? t("stability.map.too-slow", { seconds: budget("map") / 1000 }) : answer.error;
  $("stability-map-note").textContent = t("stability.map.none", { why });
}

/** What a click on the map edits for its second quantity: a parameter, unless it is a
 *  velocity `x'` (the sweep's data names the quantity only). */
const mapKind = (/** @type {any} */ sweep) =>
  (state().info?.parameters ?? []).some((/** @type {any} */ p) => p.name === sweep.map) ? "parameter" : "velocity";

/** The map and its words: the answer at the run's point, the summary, the stable
 *  range along the run's row, and where the keys are. */
function draw() {
  const d0 = map?.data;
  if (!d0 || !state().stabilityMap) return;
  const d = withCurrent(d0);
  const drawn = guarded("task.stability", () =>
    api().draw_stability_map("stability-map-canvas", d, new Int32Array(cursor ?? [-1, -1]), window.devicePixelRatio || 1, state().projector));
  if (drawn) area = Array.from(drawn);
  const ny = d.y.values.length;
  const kinds = ["stability.map.kind.unstable", "stability.map.kind.stable", "stability.map.kind.neutral"];
  const kind = (/** @type {number} */ k) =>
    t(d.stable[k] >= 0 ? kinds[d.stable[k]] : d.done === d.total ? "stability.map.kind.failed" : "stability.map.kind.pending");
  const xShown = (/** @type {number} */ x) => api().on_axis(x, d.x.values, d.x.shown);
  const i0 = nearestIndex(d.x.values, d.x.current), j0 = nearestIndex(d.y.values, d.y.current);
  const runPoint = `${named(d.x, xShown(d.x.current))}, ${named(d.y, d.y.current)}`;
  const at = Number.isFinite(d.x.current) && Number.isFinite(d.y.current) && i0 >= 0 && j0 >= 0
    ? t("stability.map.run-at", { point: runPoint, kind: kind(i0 * ny + j0) }) : "";
  const stableCount = d.stable.filter((/** @type {number} */ s) => s >= 1).length;
  const computed = d.stable.filter((/** @type {number} */ s) => s >= 0).length;
  const summary = t("stability.map.summary", {
    x: d.x.label, x0: say(d.x.shown[0], d.x.shown), x1: say(d.x.shown[d.x.shown.length - 1], d.x.shown),
    y: d.y.label, y0: say(d.y.shown[0], d.y.shown), y1: say(d.y.shown[ny - 1], d.y.shown),
    nx: d.x.values.length, ny, percent: computed ? Math.round(100 * stableCount / computed) : 0,
  });
  // Along the run's row: the runs of stable and of neutrally stable cells.
  /** @type {Record<number, string[]>} */
  const runs = { 1: [], 2: [] };
  if (j0 >= 0) {
    let start = -1;
    for (let i = 0; i <= d.x.values.length; i++) {
      const here = i < d.x.values.length ? d.stable[i * ny + j0] : -1;
      if (start >= 0 && here !== d.stable[start * ny + j0]) {
        runs[d.stable[start * ny + j0]].push(t("stability.range", { from: say(d.x.shown[start], d.x.shown), to: say(d.x.shown[i - 1], d.x.shown) }));
        start = -1;
      }
      if (start < 0 && here >= 1) start = i;
    }
  }
  const rowY = j0 >= 0 ? named(d.y, d.y.values[j0]) : "";
  /** @type {[number, string][]} */
  const said = [[1, "stability.map.row-part.stable"], [2, "stability.map.row-part.neutral"]];
  const parts = said.filter(([k]) => runs[k].length)
    .map(([k, id]) => t(id, { x: d.x.name, ranges: runs[k].join(t("stability.and")) }));
  const row = j0 < 0 ? "" : parts.length
    ? t("stability.map.row", { y: rowY, parts: parts.join(t("stability.map.parts-separator")) })
    : t("stability.map.row-unstable", { y: rowY, x: d.x.name });
  const progress = d.done < d.total ? t("stability.map.computing", { percent: Math.floor(100 * d.done / d.total), total: d.total }) : "";
  const failed = d.failed ? t("stability.map.failed", { count: d.failed, why: d.first_error }) : "";
  $("stability-map-note").textContent = [at, progress, summary, row, failed].filter(Boolean).join(t("sentence.separator"));
  $("stability-map-handling").textContent = t("stability.map.handling");
  const held = d.held.length ? t("stability.held", { held: d.held.join(", ") }) : "";
  $("stability-map-title").textContent = t("stability.map.heading", { x: d.x.label, y: d.y.label, method: d.method, state: d.state.join(", "), held });
  $("stability-map-canvas").setAttribute("aria-label", t("stability.map.label", { summary, row }));
  const marker = $("stability-map-cursor");
  if (cursor) {
    const [i, j] = cursor, k = i * ny + j;
    const re = Number.isFinite(d.max_real[k]) ? t("stability.map.re", { value: Number(d.max_real[k].toPrecision(4)).toString() }) : "";
    marker.textContent = t("stability.map.cursor", { point: `${named(d.x, d.x.shown[i])}, ${named(d.y, d.y.shown[j])}`, kind: kind(k), re });
  } else marker.textContent = "";
}

/** Runs the scenario at cell (i, j): both values set in one edit, one restart. */
function runAt(/** @type {number} */ i, /** @type {number} */ j) {
  const d = map?.data;
  if (!d) return;
  cursor = null;
  const value = (/** @type {number} */ x) => Number(x.toPrecision(12));
  setSwept([{ ...d.x, value: value(d.x.values[i]) }, { ...d.y, value: value(d.y.values[j]) }]);
  draw();
}

/** The cell nearest to a position along one axis: `fraction` of the way from the first
 *  cell's outer edge to the last's (the chart spans the cells' edges). */
function cellAt(/** @type {number[]} */ shown, /** @type {number} */ fraction) {
  const n = shown.length;
  const half = n > 1 ? [0.5 * (shown[1] - shown[0]), 0.5 * (shown[n - 1] - shown[n - 2])] : [0.5, 0.5];
  const lo = shown[0] - half[0], hi = shown[n - 1] + half[1];
  return nearestIndex(shown, lo + Math.min(Math.max(fraction, 0), 1) * (hi - lo));
}

/** The map's keys: ← → across and ↓ ↑ up one cell (Shift: ten), Page Up / Page Down
 *  up ten, Home and End to the first and last column, Enter runs at the marked
 *  cell, Escape returns to the run's point. */
function onMapKey(/** @type {KeyboardEvent} */ e) {
  const d = map?.data;
  if (!d) return;
  const [nx, ny] = [d.x.values.length, d.y.values.length];
  const here = cursor ?? [Math.max(0, nearestIndex(d.x.values, sweptValue(d.x, state().info))), Math.max(0, nearestIndex(d.y.values, sweptValue(d.y, state().info)))];
  const step = e.shiftKey ? 10 : 1;
  /** @type {Record<string, [number, number]>} */
  const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowDown: [0, -step], ArrowUp: [0, step], PageDown: [0, -10], PageUp: [0, 10] };
  /** @type {[number, number] | null} */
  let next = null;
  if (e.key in moves) next = [here[0] + moves[e.key][0], here[1] + moves[e.key][1]];
  else if (e.key === "Home") next = [0, here[1]];
  else if (e.key === "End") next = [nx - 1, here[1]];
  else if (e.key === "Enter" || e.key === " ") { e.preventDefault(); e.stopPropagation(); runAt(here[0], here[1]); return; }
  else if (e.key === "Escape" && cursor) { cursor = null; draw(); e.stopPropagation(); return; }
  if (!next) return;
  e.preventDefault();
  e.stopPropagation();
  cursor = [Math.min(nx - 1, Math.max(0, next[0])), Math.min(ny - 1, Math.max(0, next[1]))];
  draw();
}

export function wireStabilityMap() {
  const canvas = $("stability-map-canvas");
  watchCanvas(canvas);
  store.subscribe(["stability", "stabilityMap"], () => { refresh(); });
  store.subscribe(["info", "projector", "language"], draw);
  events.on("canvas-resized", ({ id }) => { if (id === "stability-map-canvas") draw(); });
  $("stability-map-toggle").addEventListener("click", () => showStabilityMap(!state().stabilityMap));
  canvas.addEventListener("keydown", onMapKey);
  canvas.addEventListener("blur", () => { if (cursor) { cursor = null; draw(); } });
  canvas.addEventListener("click", (/** @type {MouseEvent} */ e) => {
    const d = map?.data;
    const [left, right, top, bottom] = area;
    if (!d || right <= left || bottom <= top) return;
    const box = canvas.getBoundingClientRect();
    const x = e.clientX - box.left, y = e.clientY - box.top;
    if (x < left - 4 || x > right + 4 || y < top - 4 || y > bottom + 4) return;
    runAt(cellAt(d.x.shown, (x - left) / (right - left)), cellAt(d.y.shown, (bottom - y) / (bottom - top)));
  });
}

/** The plotting area the map is drawn over, and the map so far (the tests). */
export const stabilityMapArea = () => (map?.data ? { area, data: map.data } : null);
