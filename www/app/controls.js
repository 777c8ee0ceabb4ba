// The panels around the plots: title, parameters (sliders, Keep for comparison),
// the initial state and the run's settings; each change is an edit of the text.

import { $, el } from "./dom.js";
import { applyEdit, editorStatus } from "./editing.js";
import { appendInFrames, renderEquationsChoice } from "./equations.js";
import { renderLegend, renderLegendNote, renderPlots } from "./plots.js";
import { renderInputs } from "./inputs.js";
import { renderStability } from "./stability.js";
import { galleryWords, t } from "./i18n.js";
import { galleryWordsItem } from "./share.js";

export function renderInfo(lab) {
  const info = lab.info;
  // A gallery item, its values changed or not, in the page's language where there is
  // a translation; its own words once they are edited.
  const origin = galleryWordsItem(lab);
  const words = origin ? galleryWords(origin) : null;
  $("title").textContent = words?.title ?? info.title;
  $("description").textContent = words?.description ?? info.description;
  $("hint").textContent = words?.hint ?? info.hint;
  $("hint").hidden = !$("hint").textContent;
  $("source").textContent = info.source ? t("info.source", { source: info.source }) : "";
  document.title = `${$("title").textContent} — nhlab`;
  renderParameters(lab, info);
  renderInputs(lab, info);
  renderInitial(lab, info);
  renderSettings(lab, info);
  renderPlots(lab, info);
  renderLegendNote(info);
  renderEquationsChoice(lab, info);
  renderStability(lab);
  renderLegend(lab);
}

export function numberField(label, value, onChange, attrs = {}) {
  const input = el("input", { type: "number", step: "any", inputmode: "decimal", ...attrs });
  input.value = value === null || value === undefined ? "" : String(value);
  input.addEventListener("change", () => onChange(input.value.trim()));
  return el("label", {}, label, input);
}

/** Rebuilds `box` with `build`, giving the focus back to the control of the same
 *  name: a slider stepped with the arrow keys edits the text, and the panel is built
 *  again from it — without this the keyboard user's focus was lost after one press. */
export function keepingFocus(box, build) {
  const active = document.activeElement;
  let selector = null;
  if (active && box.contains(active)) {
    const name = active.getAttribute("aria-label");
    if (name) selector = `[aria-label="${CSS.escape(name)}"]`;
    else if (active.type === "checkbox") selector = `input[value="${CSS.escape(active.value)}"]`;
  }
  build();
  if (selector) box.querySelector(selector)?.focus();
}

export function renderParameters(lab, info) {
  keepingFocus($("parameters"), () => buildParameters(lab, info));
}

function buildParameters(lab, info) {
  const box = $("parameters");
  box.replaceChildren();
  if (!info.parameters.length) box.append(el("p", { class: "hint", text: t("parameters.none") }));
  const ranges = sliderRanges(lab, info);
  for (const p of info.parameters) {
    // An embed shows the sliders its author chose (`&params=`), all without a choice.
    if (lab.embed && lab.embedParameters && !lab.embedParameters.includes(p.name)) continue;
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
      if (v === "" || !Number.isFinite(x)) { editorStatus(lab, t("field.finite", { path: `parameters.${p.name}` }), "error"); return; }
      const outside = (p.min !== null && p.min !== undefined && x < p.min) || (p.max !== null && p.max !== undefined && x > p.max);
      if (outside) {
        editorStatus(lab, t("parameters.outside", { path: `parameters.${p.name}`, value: x, min: p.min ?? "−∞", max: p.max ?? "∞" }), "error");
        number.value = String(p.value);
        return;
      }
      applyEdit(lab, (t) => lab.api.edit_number(t, `parameters.${p.name}`, x));
    };
    slider.addEventListener("input", () => { number.value = slider.value; });
    slider.addEventListener("change", () => set(slider.value));
    number.addEventListener("change", () => set(number.value));
    const label = el("span", { class: "label" }, el("span", { class: "name", text: p.name }));
    if (p.unit) label.append(el("span", { class: "unit", text: p.unit, title: t("parameters.unit", { name: p.name }) }));
    box.append(el("div", { class: "param" }, label, slider, number));
  }
  if (info.parameters.length) box.append(compareControls(lab, info));
}

/** "Keep for comparison": the current values become a parameter set of [compare],
 *  whose runs stay overlaid (in a colour of their own) while the sliders move on. */
export function compareControls(lab, info) {
  const sets = info.layout.set_labels ?? [];
  const keep = el("button", { type: "button", id: "keep-parameters", text: t("compare.keep"), title: t("compare.keep.title") });
  keep.disabled = sets.length >= 3;
  keep.addEventListener("click", () => {
    applyEdit(lab, (t) => lab.api.keep_parameters(t).text);
  });
  const row = el("div", { class: "compare" }, keep);
  if (sets.length) {
    const clear = el("button", { type: "button", id: "clear-comparisons", text: t("compare.clear"), title: t("compare.clear.title") });
    clear.addEventListener("click", () => applyEdit(lab, (t) => lab.api.edit_remove(t, "compare")));
    row.append(clear, el("span", { class: "hint", text: t("compare.sets", { sets: sets.join("; ") }) }));
  }
  return row;
}

/** Each slider's range, fixed for as long as the same scenario is open (a slider
 *  whose ends moved after each release could not sweep a range): the scenario's
 *  `min`, `max` and `step` where it gives them, else chosen once around the first
 *  value (0 … 2×value for a positive one), and chosen again only when a value typed
 *  in the number field falls outside. */
export function sliderRanges(lab, info) {
  const key = JSON.stringify([info.title, info.parameters.map((p) => p.name)]);
  if (lab.sliderKey !== key) { lab.sliderKey = key; lab.sliderRanges = new Map(); }
  const ranges = lab.sliderRanges;
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
export function renderInitial(lab, info) {
  const box = $("initial");
  box.replaceChildren();
  appendInFrames(lab, box, info.coordinates.map((c) => () => initialRow(lab, c)), info, () => {}, () => lab.info === info);
}

export function initialRow(lab, c) {
  {
    const q = numberField(c.unit ? `${c.name} [${c.unit}]` : c.name, c.q, (v) => {
      const x = Number(v);
      if (v === "" || !Number.isFinite(x)) { editorStatus(lab, t("field.finite", { path: `initial.q.${c.name}` }), "error"); return; }
      applyEdit(lab, (t) => lab.api.edit_number(t, `initial.q.${c.name}`, x));
    });
    const v = numberField(c.velocity_unit ? `${c.name}′ [${c.velocity_unit}]` : `${c.name}′`, c.v_given ? c.v : "", (value) => {
      if (value === "") { applyEdit(lab, (t) => lab.api.edit_remove(t, `initial.v.${c.name}`)); return; }
      const x = Number(value);
      if (!Number.isFinite(x)) { editorStatus(lab, t("field.finite", { path: `initial.v.${c.name}` }), "error"); return; }
      applyEdit(lab, (t) => lab.api.edit_number(t, `initial.v.${c.name}`, x));
    }, { placeholder: c.v_given ? "" : t("initial.solved", { value: c.v.toPrecision(4) }) });
    return el("div", { class: "pair" }, q, v);
  }
}

export function renderSettings(lab, info) {
  keepingFocus($("methods"), () => buildSettings(lab, info));
}

function buildSettings(lab, info) {
  const box = $("methods");
  box.querySelectorAll("label").forEach((l) => l.remove());
  for (const m of lab.api.methods()) {
    const check = el("input", { type: "checkbox", value: m.id });
    check.checked = info.methods.includes(m.id);
    check.addEventListener("change", () => {
      const chosen = [...box.querySelectorAll("input:checked")].map((i) => i.value);
      if (!chosen.length) { check.checked = true; editorStatus(lab, t("methods.keep-one"), "error"); return; }
      applyEdit(lab, (t) => lab.api.edit_list(t, "run.methods", chosen));
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

export function wireSettings(lab) {
  // Another integrator overlaid: every method runs under each (`run.integrators`).
  $("integrator-overlay").addEventListener("change", () => {
    const added = $("integrator-overlay").value;
    const used = lab.info?.integrators ?? [lab.info?.integrator ?? "dopri5"];
    if (!added || used.includes(added)) return;
    applyEdit(lab, (t) => lab.api.edit_remove(lab.api.edit_list(t, "run.integrators", [...used, added]), "run.integrator"));
  });
  // One integrator chosen replaces an overlay of several (`run.integrators`).
  $("integrator").addEventListener("change", () => applyEdit(lab, (t) =>
    lab.api.edit_remove(lab.api.edit_text(t, "run.integrator", $("integrator").value), "run.integrators")));
  $("stabilization").addEventListener("change", () => applyEdit(lab, (t) => lab.api.edit_text(t, "run.stabilization", $("stabilization").value)));
  for (const id of ["rtol", "atol", "dt", "t_end"]) {
    $(id).addEventListener("change", () => {
      const x = Number($(id).value);
      if ($(id).value.trim() === "" || !Number.isFinite(x)) { editorStatus(lab, t("field.finite", { path: `run.${id}` }), "error"); return; }
      applyEdit(lab, (t) => lab.api.edit_number(t, `run.${id}`, x));
    });
  }
}
