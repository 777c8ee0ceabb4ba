// The stability panel: the sweep of `[stability]`, computed by the helper worker,
// drawn by the core, clickable to run at a value.

import { $, budget, inRanges, nearestIndex } from "./dom.js";
import { applyEdit } from "./editing.js";
import { safely } from "./playback.js";
import { downloadCanvas } from "./plots.js";

/** The swept quantity's path in the scenario text and its value in the running scenario. */
export function sweptPath(data) {
  return data.kind === "parameter" ? `parameters.${data.over}` : `initial.v.${data.over.replace(/'$/, "")}`;
}

export function sweptValue(data, info) {
  if (data.kind === "parameter") return info.parameters.find((p) => p.name === data.over)?.value ?? NaN;
  return info.coordinates.find((c) => `${c.name}'` === data.over)?.v ?? NaN;
}

/** The text with the swept value set to 0: equal for texts whose sweeps are equal
 *  (the sweep sets that value itself), so a click does not compute it again. */
export function sweepKey(lab, text, data) {
  try { return lab.api.edit_number(text, sweptPath(data), 0); } catch { return text; }
}

/** The stability panel: the sweep of the scenario's `[stability]` table, computed by
 *  the lab.helper worker (a bicycle's 1,000 linearisations never hold the page). */
export async function renderStability(lab) {
  const text = lab.text, fig = $("stability");
  const old = lab.stability;
  if (!/stability/.test(text)) { fig.hidden = true; lab.stability = null; return; }
  if (old && old.key === sweepKey(lab, text, old.data)) {
    old.data.current = sweptValue(old.data, lab.info);
    drawStability(lab);
    return;
  }
  if (old) $("stability-note").textContent = "Computing the eigenvalues…";
  const ask = () => lab.helper.ask("stability", { text }, { budgetMs: budget("derive") });
  let answer = await ask();
  // Another request that overran its budget took the lab.helper down with this one
  // queued behind it: the lab.helper is replaced, so ask once more.
  if (answer.cancelled && text === lab.text) answer = await ask();
  if (text !== lab.text) return; // superseded
  if (!answer.ok || answer.result === null) {
    lab.stability = null;
    fig.hidden = answer.ok;
    if (!answer.ok) {
      const why = answer.timeout ? `the sweep took more than ${budget("derive") / 1000} s and was stopped (\`nhlab linearize\` has no time limit)` : answer.error;
      $("stability-canvas").getContext("2d").clearRect(0, 0, 1e4, 1e4);
      $("stability-note").textContent = `No stability analysis: ${why}`;
    }
    return;
  }
  const data = answer.result;
  data.current = sweptValue(data, lab.info);
  lab.stability = { data, key: sweepKey(lab, text, data), span: [0, 0] };
  fig.hidden = false;
  drawStability(lab);
}

export function drawStability(lab) {
  const s = lab.stability;
  if (!s) return;
  const d = s.data;
  const span = safely(lab, "drawing the stability panel", () => lab.api.draw_stability("stability-canvas", d, d.current, window.devicePixelRatio || 1));
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

export function wireStability(lab) {
  const canvas = $("stability-canvas");
  lab.canvasSizes.observe(canvas);
  canvas.addEventListener("click", (e) => {
    const s = lab.stability;
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
    drawStability(lab);
    applyEdit(lab, (t) => lab.api.edit_number(t, sweptPath(s.data), value));
  });
  $("stability-png").addEventListener("click", () => downloadCanvas(lab, canvas, "stability"));
}

// ---------- equations ----------
