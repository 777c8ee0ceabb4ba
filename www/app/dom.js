// @ts-check
// Small helpers every module uses: elements by id and made from a description,
// errors as text, the time budgets, rows added a few per frame, downloads and the
// clipboard, and the scenario text as typed.

import { t } from "./i18n.js";

export const MATHML = "http://www.w3.org/1998/Math/MathML";

export const MATHML_TAGS = new Set(["math", "mrow", "mi", "mn", "mo", "msub", "msup", "msubsup", "mfrac", "msqrt",
  "mroot", "mover", "munder", "munderover", "mtable", "mtr", "mtd", "mtext", "mspace", "mstyle", "mpadded"]);

export const MATHML_ATTRS = new Set(["display", "mathvariant", "stretchy", "accent", "form", "lspace", "rspace", "width"]);

export const WORKER_SLICE_MS = 10;          // stepping per request to the runner: the plots follow within a frame or two

export const EDIT_DEBOUNCE_MS = 250;

export const MAX_TYPESET_ENTRIES = 400;     // a larger matrix is named, not typeset (layout would block the page)

// A longer equation waits for a click to be typeset: building and laying out MathML
// costs about 20 ms per 1,000 elements, and a link may hold a 50,000-element sum.
// The gallery's longest (ball in a cone, vakonomic) has about 6,700.
export const MAX_TYPESET_NODES = 12000;

export const EQUATIONS_AT_ONCE = 60;        // expanded equations shown per "show more"

export const TYPESET_MS_PER_FRAME = 4;      // building equation rows per animation frame (their layout costs a few times more)

export const DRAW_MS_PER_FRAME = 12;        // drawing panels per animation frame; the rest in the next frames (WebDisplay.draw)

export const EXPORT_SCALE = 2;             // PNG scale of exported panels: print quality whatever the screen's pixel ratio

// Time budgets of the workers, in ms.
// load: a new scenario; derive: the equations panel; step: one request to the runner
// (a slice of stepping, overrun only by a single step slower than this); map: the
// stability panel's whole map (about 10,000 linearisations; drawn as it comes).
// The browser tests lower them with NHLAB_BUDGET_MS: a number for all, or {what: ms}.
/** @param {"load" | "derive" | "step" | "map"} what */
export const budget = (what) => {
  const test = /** @type {any} */ (window).NHLAB_BUDGET_MS;
  return (typeof test === "object" ? test?.[what] : test) ?? { load: 1500, derive: 6000, step: 2000, map: 60000 }[what];
};

/** The element `id` of index.html (or made by a view). Untyped: each is known by its id.
 *  @type {(id: string) => any} */
export const $ = (id) => document.getElementById(id);

/** An element made from a description: `text`, `class`, `on…` listeners, attributes.
 *  @type {(tag: string, props?: Record<string, any>, ...children: (Node | string)[]) => any} */
export const el = (tag, props = {}, ...children) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "text") e.textContent = v;
    else if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c);
  return e;
};

/** @param {unknown} e */
export function errorText(e) {
  return e instanceof Error ? e.message : String(e);
}

/** Whether an exception is a trap of the wasm instance (which then cannot be used). */
/** @param {unknown} e */
export function isTrap(e) {
  return e instanceof WebAssembly.RuntimeError
    || /recursive use of an object|null pointer passed to rust|unreachable/.test(errorText(e));
}

/** @type {(xs: number[], x: number) => number} */
export const nearestIndex = (xs, x) => xs.reduce((best, v, i) => (Math.abs(v - x) < Math.abs(xs[best] - x) ? i : best), 0);

/** @type {(ranges: number[][], x: number) => boolean} */
export const inRanges = (ranges, x) => ranges.some(([a, b]) => x >= a && x <= b);

/** @param {string} name @param {Blob} blob */
export function download(name, blob) {
  const a = el("a", { href: URL.createObjectURL(blob), download: name });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

/** Copies `text`; the button (if given) says whether it worked, for a moment.
 *  @param {string} text @param {HTMLElement} [button] */
export async function copyText(text, button) {
  let ok = false;
  try { await navigator.clipboard.writeText(text); ok = true; } catch { ok = false; }
  if (!ok) {
    // The Clipboard API needs a secure context (https or localhost); a page served
    // over plain http from a course server falls back to a selected textarea.
    const area = el("textarea", { readonly: "", "aria-hidden": "true", class: "offscreen" });
    area.value = text;
    document.body.append(area);
    area.select();
    try { ok = document.execCommand("copy"); } catch { ok = false; }
    area.remove();
  }
  if (button) {
    const label = button.textContent;
    button.textContent = t(ok ? "copy.done" : "copy.failed");
    setTimeout(() => { button.textContent = label; }, 1200);
  }
  return ok;
}

/** Appends the elements `makers` make to `parent`, as many per animation frame as fit
 *  in TYPESET_MS_PER_FRAME (at least one), calling `each` on each, while `current()`
 *  holds (a newer rendering stops an older one); then calls `done`.
 *  @param {Element} parent @param {(() => any)[]} makers @param {() => boolean} current
 *  @param {() => void} [done] @param {(node: any) => void} [each] */
export function appendInFrames(parent, makers, current, done = () => {}, each = () => {}) {
  /** @param {number} from */
  const next = (from) => {
    if (!current()) return;
    const started = performance.now();
    let k = from;
    while (k < makers.length && (k === from || performance.now() - started < TYPESET_MS_PER_FRAME)) {
      const node = makers[k++]();
      parent.append(node);
      each(node);
    }
    if (k < makers.length) requestAnimationFrame(() => next(k));
    else done();
  };
  next(0);
}

/** The scenario text as typed: the `<textarea id="editor">`, which the CodeMirror
 *  editor takes the place of and lends its text (www/editor/editor.js). */
export const typedText = () => /** @type {string} */ ($("editor").value);

/** Puts `text` in the editor (it does not fire `input`: nothing is loaded by it). */
export function setTypedText(/** @type {string} */ text) {
  $("editor").value = text;
}
