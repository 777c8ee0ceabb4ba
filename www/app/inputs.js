// [inputs]: live controls while the system runs. Each input taken as an argument
// is a slider (and a number) whose changes reach the runs from their next step on,
// without restarting them; an input driven by its signal says so instead. The first
// two inputs also follow keys while held: A / D push the first to its lower / upper
// end, S / W the second; on release it goes back to its slider's value.

import { $, el } from "./dom.js";
import { t } from "./i18n.js";

/** Key pairs (lower end, upper end) of the first two inputs. */
export const INPUT_KEYS = [["a", "d"], ["s", "w"]];

export function renderInputs(lab, info) {
  const box = $("inputs");
  box.replaceChildren();
  lab.inputControls = [];
  const inputs = info.inputs ?? [];
  box.hidden = inputs.length === 0;
  if (!inputs.length) return;
  box.append(el("span", { class: "inputs-head", text: t("inputs.head") }));
  let keyed = 0;
  for (const input of inputs) {
    const name = input.label ? `${input.label} (${input.name})` : input.name;
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
    const control = { input, slider, shown, lo, hi, held: null };
    const send = (value) => {
      shown.textContent = String(value);
      lab.inputsMoved = true; // the CSV export then writes the runs as played
      lab.runner?.ask("setInput", { slot: input.slot, value }).catch(() => {});
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
    lab.inputControls.push(control);
    box.append(row);
  }
}

/** The keys of the first two inputs, held: installed once. */
export function installInputKeys(lab) {
  const typing = (t) => t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement
    || (t instanceof HTMLInputElement && t.type !== "range") || (t instanceof HTMLElement && (t.isContentEditable || t.closest(".cm-editor")));
  const find = (key) => (lab.inputControls ?? []).find((c) => c.keys && key in c.keys);
  document.addEventListener("keydown", (e) => {
    if (typing(e.target) || e.ctrlKey || e.metaKey || e.altKey || document.querySelector("dialog[open]")) return;
    const key = e.key.toLowerCase();
    const control = find(key);
    if (!control) return;
    e.preventDefault();
    if (control.held === key) return;
    control.held = key;
    control.send(control.keys[key]);
  });
  document.addEventListener("keyup", (e) => {
    const key = e.key.toLowerCase();
    const control = find(key);
    if (!control || control.held !== key) return;
    control.held = null;
    control.send(Number(control.slider.value));
  });
}
