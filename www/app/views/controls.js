// @ts-check
// The panels around the plots: parameters (sliders, Keep for comparison), the
// initial state and the run's settings; each change is an edit of the text.

import { $, appendInFrames, el } from "../dom.js";
import { events } from "../events.js";
import { t } from "../i18n.js";
import { state, store } from "../store.js";
import { edit, setNumber, setStatus } from "../actions.js";
import { api } from "../services/modules.js";

export function wireControls() {
  const render = () => {
    const info = state().info;
    if (!info) return;
    renderParameters(info);
    renderInitial(info);
    renderSettings(info);
  };
  store.subscribe(["info"], render);
  events.on("restore-controls", render); // an edit that could not apply: the running values again
  wireSettings();
}

function numberField(label, value, onChange, attrs = {}) {
  const input = el("input", { type: "number", step: "any", inputmode: "decimal", ...attrs });
  input.value = value === null || value === undefined ? "" : String(value);
  input.addEventListener("change", () => onChange(input.value.trim()));
  return el("label", {}, label, input);
}

/** Rebuilds `box` with `build`, giving the focus back to the control of the same
 *  name: a slider stepped with the arrow keys edits the text, and the panel is built
 *  again from it — without this the keyboard user's focus was lost after one press. */
function keepingFocus(box, build) {
  const active = /** @type {any} */ (document.activeElement);
  let selector = null;
  if (active && box.contains(active)) {
    const name = active.getAttribute("aria-label");
    if (name) selector = `[aria-label="${CSS.escape(name)}"]`;
    else if (active.type === "checkbox") selector = `input[value="${CSS.escape(active.value)}"]`;
  }
  build();
  if (selector) box.querySelector(selector)?.focus();
}

function renderParameters(info) {
  keepingFocus($("parameters"), () => buildParameters(info));
}

function buildParameters(info) {
  const box = $("parameters");
  box.replaceChildren();
  if (!info.parameters.length) box.append(el("p", { class: "hint", text: t("parameters.none") }));
  const ranges = sliderRanges(info);
  const s = state();
  for (const p of info.parameters) {
    // An embed shows the sliders its author chose (`&params=`), all without a choice.
    if (s.embed && s.embedParameters && !s.embedParameters.includes(p.name)) continue;
    const { lo, hi, step } = ranges.get(p.name);
    const slider = el("input", { type: "range", min: String(lo), max: String(hi), step: String(step), "aria-label": t("parameters.slider", { name: p.name }) });
    slider.value = String(p.value);
    const bounds = {};
    if (p.min !== null && p.min !== undefined) bounds.min = String(p.min);
    if (p.max !== null && p.max !== undefined) bounds.max = String(p.max);
    const number = el("input", { type: "number", step: "any", inputmode: "decimal", "aria-label": p.name, ...bounds });
    number.value = String(p.value);
    const set = (v) => {
      const x = Number(v);
      if (v === "" || !Number.isFinite(x)) { setStatus(t("field.finite", { path: `parameters.${p.name}` }), "error"); return; }
      const outside = (p.min !== null && p.min !== undefined && x < p.min) || (p.max !== null && p.max !== undefined && x > p.max);
      if (outside) {
        setStatus(t("parameters.outside", { path: `parameters.${p.name}`, value: x, min: p.min ?? "−∞", max: p.max ?? "∞" }), "error");
        number.value = String(p.value);
        return;
      }
      setNumber(`parameters.${p.name}`, x);
    };
    slider.addEventListener("input", () => { number.value = slider.value; });
    slider.addEventListener("change", () => set(slider.value));
    number.addEventListener("change", () => set(number.value));
    const label = el("span", { class: "label" }, el("span", { class: "name", text: p.name }));
    if (p.unit) label.append(el("span", { class: "unit", text: p.unit, title: t("parameters.unit", { name: p.name }) }));
    box.append(el("div", { class: "param" }, label, slider, number));
  }
  if (info.parameters.length) box.append(compareControls(info));
}

/** "Keep for comparison": the current values become a parameter set of [compare],
 *  whose runs stay overlaid (in a colour of their own) while the sliders move on. */
function compareControls(info) {
  const sets = info.layout.set_labels ?? [];
  const keep = el("button", { type: "button", id: "keep-parameters", text: t("compare.keep"), title: t("compare.keep.title") });
  keep.disabled = sets.length >= 3;
  keep.addEventListener("click", () => {
    edit((text) => api().keep_parameters(text).text);
  });
  const row = el("div", { class: "compare" }, keep);
  if (sets.length) {
    const clear = el("button", { type: "button", id: "clear-comparisons", text: t("compare.clear"), title: t("compare.clear.title") });
    clear.addEventListener("click", () => edit((text) => api().edit_remove(text, "compare")));
    row.append(clear, el("span", { class: "hint", text: t("compare.sets", { sets: sets.join("; ") }) }));
  }
  return row;
}

/** Each slider's range, fixed for as long as the same scenario is open (a slider
 *  whose ends moved after each release could not sweep a range): the scenario's
 *  `min`, `max` and `step` where it gives them, else chosen once around the first
 *  value (0 … 2×value for a positive one), and chosen again only when a value typed
 *  in the number field falls outside. */
/** @type {{ key: string | null, ranges: Map<string, any> }} */
let sliders = { key: null, ranges: new Map() };

function sliderRanges(info) {
  const key = JSON.stringify([info.title, info.parameters.map((/** @type {any} */ p) => p.name)]);
  if (sliders.key !== key) sliders = { key, ranges: new Map() };
  const ranges = sliders.ranges;
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
  appendInFrames(box, info.coordinates.map((/** @type {any} */ c) => () => initialRow(c)), () => state().info === info);
}

function initialRow(/** @type {any} */ c) {
  const q = numberField(c.unit ? `${c.name} [${c.unit}]` : c.name, c.q, (v) => {
    const x = Number(v);
    if (v === "" || !Number.isFinite(x)) { setStatus(t("field.finite", { path: `initial.q.${c.name}` }), "error"); return; }
    setNumber(`initial.q.${c.name}`, x);
  });
  const v = numberField(c.velocity_unit ? `${c.name}′ [${c.velocity_unit}]` : `${c.name}′`, c.v_given ? c.v : "", (value) => {
    if (value === "") { edit((text) => api().edit_remove(text, `initial.v.${c.name}`)); return; }
    const x = Number(value);
    if (!Number.isFinite(x)) { setStatus(t("field.finite", { path: `initial.v.${c.name}` }), "error"); return; }
    setNumber(`initial.v.${c.name}`, x);
  }, { placeholder: c.v_given ? "" : t("initial.solved", { value: c.v.toPrecision(4) }) });
  return el("div", { class: "pair" }, q, v);
}

function renderSettings(info) {
  keepingFocus($("methods"), () => buildSettings(info));
}

function buildSettings(info) {
  const box = $("methods");
  box.querySelectorAll("label").forEach((l) => l.remove());
  for (const m of api().methods()) {
    const check = el("input", { type: "checkbox", value: m.id });
    check.checked = info.methods.includes(m.id);
    check.addEventListener("change", () => {
      const chosen = [...box.querySelectorAll("input:checked")].map((i) => i.value);
      if (!chosen.length) { check.checked = true; setStatus(t("methods.keep-one"), "error"); return; }
      edit((text) => api().edit_list(text, "run.methods", chosen));
    });
    const swatch = el("span", { class: "swatch", "aria-hidden": "true" });
    swatch.style.background = m.colour;
    const mark = el("span", { class: "mark", text: m.mark, "aria-hidden": "true" });
    mark.style.color = m.colour;
    // The id (as the scenario, the legend and the command line write it) and, under
    // it, the formulation's name: `euler` alone does not say "Shen's Euler condition".
    const words = el("span", { class: "method-words" }, el("span", { text: m.id }), el("span", { class: "method-name", text: t(`method.name.${m.id}`) }));
    box.append(el("label", { class: "method" }, check, swatch, mark, words));
  }
  const set = (id, value) => { $(id).value = String(value); };
  set("integrator", info.integrator); set("rtol", info.rtol); set("atol", info.atol);
  set("dt", info.dt); set("t_end", info.t_end); set("stabilization", info.stabilization);
  // Fixed-step integrators (RK4 and the structure-preserving schemes) take dt; Dormand–Prince its tolerances.
  const used = info.integrators ?? [info.integrator];
  const adaptive = used.includes("dopri5");
  $("dt").disabled = used.every((i) => i === "dopri5"); $("rtol").disabled = !adaptive; $("atol").disabled = !adaptive;
  // The overlay menu offers the integrators not yet in use.
  for (const option of $("integrator-overlay").options) option.disabled = option.value !== "" && used.includes(option.value);
  $("integrator-overlay").value = "";
}

function wireSettings() {
  // Another integrator overlaid: every method runs under each (`run.integrators`).
  $("integrator-overlay").addEventListener("change", () => {
    const added = $("integrator-overlay").value;
    const info = state().info;
    const used = info?.integrators ?? [info?.integrator ?? "dopri5"];
    if (!added || used.includes(added)) return;
    edit((text) => api().edit_remove(api().edit_list(text, "run.integrators", [...used, added]), "run.integrator"));
  });
  // One integrator chosen replaces an overlay of several (`run.integrators`).
  $("integrator").addEventListener("change", () => edit((text) =>
    api().edit_remove(api().edit_text(text, "run.integrator", $("integrator").value), "run.integrators")));
  $("stabilization").addEventListener("change", () => edit((text) => api().edit_text(text, "run.stabilization", $("stabilization").value)));
  for (const id of ["rtol", "atol", "dt", "t_end"]) {
    $(id).addEventListener("change", () => {
      const x = Number($(id).value);
      if ($(id).value.trim() === "" || !Number.isFinite(x)) { setStatus(t("field.finite", { path: `run.${id}` }), "error"); return; }
      setNumber(`run.${id}`, x);
    });
  }
}
