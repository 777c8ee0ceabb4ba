// @ts-check
// The equations panel: a method's equations derived by the helper worker once the
// panel comes within reach, shown as MathML (a few rows per frame, fitted to the
// box's width), each with its LaTeX to copy.

import { $, EQUATIONS_AT_ONCE, MAX_TYPESET_ENTRIES, MAX_TYPESET_NODES, TYPESET_MS_PER_FRAME, appendInFrames, budget, copyText, el } from "../dom.js";
import { count, t } from "../i18n.js";
import { mathmlElements } from "../mathml.js";
import { state, store } from "../store.js";
import { fitEquation, typeset } from "../typeset.js";
import { askHelper } from "../services/helper.js";
import { api } from "../services/modules.js";
import { firstStep } from "../services/runner.js";

let equationsToken = 0; // the latest rendering of the equations (older ones stop)
let refitToken = 0;     // the latest refit to the box's width
let inReach = false;    // the panel has come within a screen of the view
/** @type {Promise<void> | null} */
let reached = null;

export function wireEquations() {
  store.subscribe(["info"], ({ info }) => { if (info) renderEquationsChoice(info); });
  $("eq-method").addEventListener("change", renderEquations);
  // Long equations are broken to the width of their box: again when it changes, and
  // for the printed page's width.
  let width = 0, refit = 0;
  new ResizeObserver(([entry]) => {
    const w = Math.round(entry.contentRect.width);
    if (w === width) return;
    width = w;
    cancelAnimationFrame(refit);
    refit = requestAnimationFrame(refitEquations);
  }).observe($("eq-body"));
  for (const e of ["beforeprint", "afterprint"]) addEventListener(e, refitEquationsNow);
  matchMedia("print").addEventListener("change", refitEquationsNow);
}

/** A shown equation fitted to its box, when the node is one. */
const fitIn = (/** @type {any} */ node) => {
  const math = node.querySelector?.(".eq-math");
  if (math) fitEquation(math);
};

/** How long the equations wait for a new run's first step. */
const EQUATIONS_WAIT_MS = 1500;

function renderEquationsChoice(/** @type {any} */ info) {
  const select = $("eq-method");
  const previous = select.value;
  select.replaceChildren(...api().methods().map((/** @type {any} */ m) => el("option", { value: m.id, text: `${m.id} — ${t(`method.name.${m.id}`)}` })));
  select.value = info.methods.includes(previous) ? previous : info.methods.includes("hamel") ? "hamel" : info.methods[0];
  renderEquations();
}

/** An equation's label in the page's language: the core names them "equation of x",
 *  "y' (dependent)", "constraint blade", "shared s1" or by a symbol (`T`, `Ψ[x, x]`);
 *  a constraint's name the lab made (`disk rolls on ground: x`) in its words too. */
function equationLabel(/** @type {string} */ label) {
  /** @type {[RegExp, string][]} */
  const forms = [[/^equation of (.+)$/, "eq.label.equation"], [/^(.+) \(dependent\)$/, "eq.label.dependent"],
    [/^constraint (.+)$/, "eq.label.constraint"], [/^shared (.+)$/, "eq.label.shared"]];
  for (const [pattern, id] of forms) {
    const m = pattern.exec(label);
    if (m) return t(id, { name: id === "eq.label.constraint" ? api().display_name(m[1]) : m[1] });
  }
  return label;
}

function equationRow(/** @type {any} */ eq) {
  const copy = el("button", { type: "button", class: "small", text: t("eq.copy"), title: t("eq.copy.title", { label: equationLabel(eq.label) }) });
  copy.addEventListener("click", () => copyText(eq.latex, copy));
  const box = el("div", { class: "eq-math" });
  const show = () => typeset(box, eq.mathml);
  const size = mathmlElements(eq.mathml);
  if (size <= MAX_TYPESET_NODES) {
    show();
  } else {
    const seconds = Math.max(1, Math.round(size / 50000));
    const button = el("button", { type: "button", class: "small", text: t("eq.typeset"),
      title: t("eq.typeset.title", { seconds }) });
    // Not broken into lines afterwards: it is longer than MAX_FITTED_NODES.
    button.addEventListener("click", show);
    box.classList.add("eq-long");
    box.append(el("span", { class: "hint", text: `${t("eq.too-long", { symbols: count(size) })} ` }), button);
  }
  return el("div", { class: "eq" }, el("div", { class: "eq-label", text: equationLabel(eq.label) }), box, copy);
}

/** Lays every shown equation out again when the box's width changed: a few
 *  milliseconds' worth per frame (a large equation's fit is a long task of its
 *  own), the latest change winning. */
function refitEquations() {
  const boxes = [...document.querySelectorAll("#eq-body .eq-math")];
  const token = ++refitToken;
  const next = (/** @type {number} */ from) => {
    if (token !== refitToken) return;
    const started = performance.now();
    let k = from;
    while (k < boxes.length && (k === from || performance.now() - started < TYPESET_MS_PER_FRAME)) fitEquation(boxes[k++]);
    if (k < boxes.length) requestAnimationFrame(() => next(k));
  };
  next(0);
}

/** The same at once: printing lays the page out before any frame comes. */
function refitEquationsNow() {
  refitToken += 1;
  for (const box of document.querySelectorAll("#eq-body .eq-math")) fitEquation(box);
}

/** Resolves once the equations are within a screen of the viewport: the full page
 *  derives them only then, so that the helper's module (the largest) is fetched when
 *  something asks for it (issue 60). An embed that shows them derives them at once. */
function equationsInReach() {
  if (state().embed) inReach = true;
  if (inReach) return Promise.resolve();
  reached ??= new Promise((resolve) => {
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      observer.disconnect();
      inReach = true;
      resolve();
    }, { rootMargin: "100% 0px" });
    observer.observe($("eq-body"));
  });
  return reached;
}

async function renderEquations() {
  // An embed without its equations never shows them: no helper is started for them
  // (its module is the largest, and a course page may hold several embeds).
  if (state().embed && !state().embedControls.includes("equations")) return;
  const body = $("eq-body");
  const method = $("eq-method").value, text = state().text;
  const superseded = () => text !== state().text || method !== $("eq-method").value;
  if (!inReach) {
    body.replaceChildren(el("p", { class: "hint", text: t("eq.when-in-view") }));
    await equationsInReach();
    if (superseded()) return;
  }
  body.replaceChildren(el("p", { class: "hint", text: t("eq.deriving") }));
  // A new run's first step before the equations (at most 1.5 s): on two cores a large
  // model's derivation beside it made that step miss its time budget.
  await Promise.race([firstStep(), new Promise((resolve) => setTimeout(resolve, EQUATIONS_WAIT_MS))]);
  if (superseded()) return;
  const answer = await askHelper("derive", { text, method }, { budgetMs: budget("derive") });
  if (superseded()) return;
  const d = answer.ok ? answer.result
    : { error: answer.timeout ? t("eq.too-slow", { seconds: budget("derive") / 1000 }) : answer.error };
  if (d.error !== undefined) {
    $("eq-form").textContent = "";
    body.replaceChildren(el("p", { class: "hint", text: t("eq.none", { why: d.error }) }));
    return;
  }
  $("eq-form").textContent = d.form;
  // Typesetting is the page's own work: a 150×150 matrix is 22,500 MathML cells and
  // half a second of layout. Large matrices are named, not typeset; long lists of
  // equations come 60 at a time, and rows are added a few per frame, so that
  // laying them out never holds the page (60 large equations take 50 ms at once).
  const token = ++equationsToken;
  const current = () => token === equationsToken;
  const matrices = el("div", { class: "eq-list" });
  const list = el("div", { class: "eq-list" });
  const rows = d.matrices.map((/** @type {any} */ m) => () => (m.rows * m.cols > MAX_TYPESET_ENTRIES
    ? el("div", { class: "eq" }, el("div", { class: "eq-label", text: m.label }),
      el("p", { class: "hint", text: t("eq.matrix-too-large", { rows: m.rows, cols: m.cols }) }))
    : equationRow(m)));
  const showFrom = (/** @type {number} */ start) => {
    list.querySelector(".more")?.remove();
    const batch = d.equations.slice(start, start + EQUATIONS_AT_ONCE).map((/** @type {any} */ e) => () => equationRow(e));
    const rest = d.equations.length - start - EQUATIONS_AT_ONCE;
    appendInFrames(list, batch, current, () => {
      if (rest <= 0) return;
      const more = el("button", { type: "button", class: "small more", text: t("eq.more", { shown: Math.min(rest, EQUATIONS_AT_ONCE), rest }) });
      more.addEventListener("click", () => showFrom(start + EQUATIONS_AT_ONCE));
      list.append(more);
    }, fitIn);
  };
  body.replaceChildren(el("h3", { text: t("eq.matrix-form") }), matrices, el("h3", { text: t("eq.expanded") }), list);
  appendInFrames(matrices, rows, current, () => showFrom(0), fitIn);
}
