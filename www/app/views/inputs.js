// @ts-check
// [inputs]: live controls while the system runs. Each input taken as an argument
// is a slider (and a number) whose changes reach the runs from their next step on,
// without restarting them; an input driven by its signal says so instead. The first
// two inputs also follow keys while held: A / D ramp the first towards its lower /
// upper end, S / W the second, the slider showing what is applied; on release it goes
// back to the slider's own value, as a joystick springs back.

import { $, el } from "../dom.js";
import { t } from "../i18n.js";
import { store } from "../store.js";
import { moveInput } from "../actions.js";
import { api } from "../services/modules.js";

/** @type {any[]} each input's slider and what its keys do */
let controls = [];

/** The inputs' controls for the scenario, and again when the runs start again (with
 *  the scenario's values); their keys. */
export function wireInputs() {
  store.subscribe(["info", "restarts"], ({ info }) => { if (info) renderInputs(info); });
  installInputKeys();
}

/** Key pairs (lower end, upper end) of the first two inputs. */
export const INPUT_KEYS = [["a", "d"], ["s", "w"]];

/** Seconds a held key takes to move an input from the middle of its range to an end:
 *  gradual enough to steer by (issue 60.5: at once, a tap of D capsized the bicycle). */
export const KEY_RAMP_SECONDS = 2.5;

/** The longest frame a ramp counts, in ms: a stalled tab does not jump the input. */
const RAMP_FRAME_MS = 100;

function renderInputs(info) {
  const box = $("inputs");
  box.replaceChildren();
  controls = [];
  const inputs = info.inputs ?? [];
  box.hidden = inputs.length === 0;
  if (!inputs.length) return;
  box.append(el("span", { class: "inputs-head", text: t("inputs.head") }));
  let keyed = 0;
  for (const input of inputs) {
    const name = input.label ? `${api().display_name(input.label)} (${input.name})` : input.name;
    const row = el("div", { class: "input-row" });
    const label = el("span", { class: "label" }, el("span", { class: "name", text: name }));
    if (input.unit) label.append(el("span", { class: "unit", text: input.unit }));
    row.append(label);
    if (input.slot === null || input.slot === undefined) {
      row.append(el("span", { class: "hint", text: t("inputs.signal", { signal: input.signal }) }));
      box.append(row);
      continue;
    }
    const span = input.value === 0 ? 1 : Math.abs(input.value);
    const lo = input.min ?? input.value - span, hi = input.max ?? input.value + span;
    const step = input.step ?? (hi - lo) / 200;
    const slider = el("input", { type: "range", min: String(lo), max: String(hi), step: String(step), "aria-label": t("inputs.control", { name }), "data-input": input.name });
    slider.value = String(input.value);
    const shown = el("output", { class: "input-value", "aria-live": "off", text: String(input.value) });
    const control = { input, slider, shown, lo, hi, held: null, rest: input.value, applied: input.value };
    const send = (value) => {
      shown.textContent = String(Number(value.toPrecision(3)));
      moveInput(input.slot, value);
    };
    control.send = send;
    slider.addEventListener("input", () => send(Number(slider.value)));
    row.append(slider, shown);
    if (keyed < INPUT_KEYS.length) {
      const [down, up] = INPUT_KEYS[keyed];
      control.keys = { [down]: lo, [up]: hi };
      row.append(el("kbd", { class: "input-keys", title: t("inputs.keys", { down: down.toUpperCase(), up: up.toUpperCase(), name: input.name }), text: `${down.toUpperCase()} ${up.toUpperCase()}` }));
      slider.setAttribute("aria-keyshortcuts", `${down.toUpperCase()} ${up.toUpperCase()}`);
      keyed += 1;
    }
    controls.push(control);
    box.append(row);
  }
  // An open-ended run (see extendRuns): said where the inputs are.
  if (controls.length) box.append(el("p", { class: "hint inputs-open", text: t("inputs.open-ended") }));
}

/** The keys of the first two inputs, held: installed once. */
function installInputKeys() {
  const typing = (t) => t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement
    || (t instanceof HTMLInputElement && t.type !== "range") || (t instanceof HTMLElement && (t.isContentEditable || t.closest(".cm-editor")));
  const find = (key) => controls.find((c) => c.keys && key in c.keys);
  document.addEventListener("keydown", (e) => {
    if (typing(e.target) || e.ctrlKey || e.metaKey || e.altKey || document.querySelector("dialog[open]")) return;
    const key = e.key.toLowerCase();
    const control = find(key);
    if (!control) return;
    e.preventDefault();
    if (control.held === key) return;
    const ramping = control.held !== null; // the other key of the pair: turn the ramp round
    if (!ramping) control.rest = control.applied = Number(control.slider.value);
    control.held = key;
    if (!ramping) ramp(control);
  });
  const release = (control) => {
    control.held = null;
    control.applied = control.rest;
    control.slider.value = String(control.rest);
    control.send(control.rest);
  };
  document.addEventListener("keyup", (e) => {
    const control = find(e.key.toLowerCase());
    if (control && control.held === e.key.toLowerCase()) release(control);
  });
  // A key released while the page had no focus never says so: let go of them all.
  window.addEventListener("blur", () => { for (const c of controls) if (c.held) release(c); });
}

/** Moves a held input towards its key's end, frame by frame, at half its range per
 *  KEY_RAMP_SECONDS; the slider shows the applied value. Ends when the key is let go. */
function ramp(control) {
  let last = performance.now();
  const tick = (now) => {
    if (control.held === null) return;
    const target = control.keys[control.held];
    const step = (control.hi - control.lo) / 2 / KEY_RAMP_SECONDS * Math.min(now - last, RAMP_FRAME_MS) / 1000;
    last = now;
    const gap = target - control.applied;
    if (gap !== 0) {
      control.applied = Math.abs(gap) <= step ? target : control.applied + Math.sign(gap) * step;
      control.slider.value = String(control.applied);
      control.send(control.applied);
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}
