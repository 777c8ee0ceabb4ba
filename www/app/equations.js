// The equations panel: a method's equations derived by the helper worker, shown
// as MathML (a few rows per frame), each with its LaTeX to copy.

import { $, EQUATIONS_AT_ONCE, MATHML, MATHML_ATTRS, MATHML_TAGS, MAX_TYPESET_ENTRIES, MAX_TYPESET_NODES, TYPESET_MS_PER_FRAME, budget, copyText, el } from "./dom.js";
import { fitEquation } from "./typeset.js";
import { count, t } from "./i18n.js";

/** How long the equations wait for a new run's first step. */
const EQUATIONS_WAIT_MS = 1500;

export function renderEquationsChoice(lab, info) {
  const select = $("eq-method");
  const previous = select.value;
  select.replaceChildren(...lab.api.methods().map((m) => el("option", { value: m.id, text: `${m.id} — ${t(`method.name.${m.id}`)}` })));
  select.value = info.methods.includes(previous) ? previous : info.methods.includes("hamel") ? "hamel" : info.methods[0];
  renderEquations(lab);
}

/** A MathML string from the core, rebuilt from the allow-list: nothing else can get in. */
export function safeMath(markup) {
  const doc = new DOMParser().parseFromString(markup, "application/xml");
  if (doc.getElementsByTagName("parsererror").length) return document.createTextNode(t("eq.unreadable"));
  const copy = (node) => {
    if (node.nodeType === Node.TEXT_NODE) return document.createTextNode(node.nodeValue);
    if (node.nodeType !== Node.ELEMENT_NODE || node.namespaceURI !== MATHML || !MATHML_TAGS.has(node.localName)) return null;
    const out = document.createElementNS(MATHML, node.localName);
    for (const a of node.attributes) if (MATHML_ATTRS.has(a.name)) out.setAttribute(a.name, a.value);
    for (const c of node.childNodes) { const k = copy(c); if (k) out.append(k); }
    return out;
  };
  return copy(doc.documentElement) ?? document.createTextNode("");
}

/** An equation's label in the page's language: the core names them "equation of x",
 *  "y' (dependent)", "constraint blade", "shared s1" or by a symbol (`T`, `Ψ[x, x]`);
 *  a constraint's name the lab made (`disk rolls on ground: x`) in its words too. */
export function equationLabel(lab, label) {
  const forms = [[/^equation of (.+)$/, "eq.label.equation"], [/^(.+) \(dependent\)$/, "eq.label.dependent"],
    [/^constraint (.+)$/, "eq.label.constraint"], [/^shared (.+)$/, "eq.label.shared"]];
  for (const [pattern, id] of forms) {
    const m = pattern.exec(label);
    if (m) return t(id, { name: id === "eq.label.constraint" ? lab.api.display_name(m[1]) : m[1] });
  }
  return label;
}

/** MathML elements in `markup` (its start tags), counted without parsing it. */
export const mathmlElements = (markup) => markup.match(/<m[a-z]/g)?.length ?? 0;

export function equationRow(lab, eq) {
  const copy = el("button", { type: "button", class: "small", text: t("eq.copy"), title: t("eq.copy.title", { label: equationLabel(lab, eq.label) }) });
  copy.addEventListener("click", () => copyText(eq.latex, copy));
  const box = el("div", { class: "eq-math" });
  const typeset = () => {
    box.replaceChildren(safeMath(eq.mathml));
    lab.equationMarkup.set(box, eq.mathml);
  };
  const size = mathmlElements(eq.mathml);
  if (size <= MAX_TYPESET_NODES) {
    typeset();
  } else {
    const seconds = Math.max(1, Math.round(size / 50000));
    const show = el("button", { type: "button", class: "small", text: t("eq.typeset"),
      title: t("eq.typeset.title", { seconds }) });
    // Not broken into lines afterwards: it is longer than MAX_FITTED_NODES.
    show.addEventListener("click", typeset);
    box.classList.add("eq-long");
    box.append(el("span", { class: "hint", text: `${t("eq.too-long", { symbols: count(size) })} ` }), show);
  }
  return el("div", { class: "eq" }, el("div", { class: "eq-label", text: equationLabel(lab, eq.label) }), box, copy);
}

/** Lays every shown equation out again when the box's width changed: a few
 *  milliseconds' worth per frame (a large equation's fit is a long task of its
 *  own), the latest change winning. */
export function refitEquations(lab) {
  const boxes = [...document.querySelectorAll("#eq-body .eq-math")];
  const token = lab.refitToken = (lab.refitToken ?? 0) + 1;
  const next = (from) => {
    if (token !== lab.refitToken) return;
    const started = performance.now();
    let k = from;
    while (k < boxes.length && (k === from || performance.now() - started < TYPESET_MS_PER_FRAME)) fitEquation(lab, boxes[k++]);
    if (k < boxes.length) requestAnimationFrame(() => next(k));
  };
  next(0);
}

/** The same at once: printing lays the page out before any frame comes. */
export function refitEquationsNow(lab) {
  lab.refitToken = (lab.refitToken ?? 0) + 1;
  for (const box of document.querySelectorAll("#eq-body .eq-math")) fitEquation(lab, box);
}

/** Resolves once the equations are within a screen of the viewport: the full page
 *  derives them only then, so that the helper's module (the largest) is fetched when
 *  something asks for it (issue 60). An embed that shows them derives them at once. */
function equationsInReach(lab) {
  if (lab.embed) lab.equationsInReach = true;
  if (lab.equationsInReach) return Promise.resolve();
  lab.equationsReached ??= new Promise((resolve) => {
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      observer.disconnect();
      lab.equationsInReach = true;
      resolve();
    }, { rootMargin: "100% 0px" });
    observer.observe($("eq-body"));
  });
  return lab.equationsReached;
}

export async function renderEquations(lab) {
  // An embed without its equations never shows them: no helper is started for them
  // (its module is the largest, and a course page may hold several embeds).
  if (lab.embed && !lab.embedControls.includes("equations")) return;
  const body = $("eq-body");
  const method = $("eq-method").value, text = lab.text;
  if (!lab.equationsInReach) {
    body.replaceChildren(el("p", { class: "hint", text: t("eq.when-in-view") }));
    await equationsInReach(lab);
    if (text !== lab.text || method !== $("eq-method").value) return; // superseded
  }
  body.replaceChildren(el("p", { class: "hint", text: t("eq.deriving") }));
  // A new run's first step before the equations (at most 1.5 s): on two cores a large
  // model's derivation beside it made that step miss its time budget.
  await Promise.race([lab.runner?.firstStep, new Promise((resolve) => setTimeout(resolve, EQUATIONS_WAIT_MS))]);
  if (text !== lab.text || method !== $("eq-method").value) return; // superseded
  const answer = await lab.helper.ask("derive", { text, method }, { budgetMs: budget("derive") });
  if (text !== lab.text || method !== $("eq-method").value) return; // superseded
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
  const token = lab.equationsToken = (lab.equationsToken ?? 0) + 1;
  const matrices = el("div", { class: "eq-list" });
  const list = el("div", { class: "eq-list" });
  const rows = d.matrices.map((m) => () => (m.rows * m.cols > MAX_TYPESET_ENTRIES
    ? el("div", { class: "eq" }, el("div", { class: "eq-label", text: m.label }),
      el("p", { class: "hint", text: t("eq.matrix-too-large", { rows: m.rows, cols: m.cols }) }))
    : equationRow(lab, m)));
  const showFrom = (start) => {
    list.querySelector(".more")?.remove();
    const batch = d.equations.slice(start, start + EQUATIONS_AT_ONCE).map((e) => () => equationRow(lab, e));
    const rest = d.equations.length - start - EQUATIONS_AT_ONCE;
    appendInFrames(lab, list, batch, token, () => {
      if (rest <= 0) return;
      const more = el("button", { type: "button", class: "small more", text: t("eq.more", { shown: Math.min(rest, EQUATIONS_AT_ONCE), rest }) });
      more.addEventListener("click", () => showFrom(start + EQUATIONS_AT_ONCE));
      list.append(more);
    });
  };
  body.replaceChildren(el("h3", { text: t("eq.matrix-form") }), matrices, el("h3", { text: t("eq.expanded") }), list);
  appendInFrames(lab, matrices, rows, token, () => showFrom(0));
}

/** Appends the rows `makers` build to `parent`, as many per animation frame as fit
 *  in TYPESET_MS_PER_FRAME (at least one), then calls `done`; stops when a newer
 *  rendering (token) has begun. */
/** Appends the elements `makers` make to `parent`, a few milliseconds' worth per
 *  frame, while `current()` (default: the equations' render is the latest) holds. */
export function appendInFrames(lab, parent, makers, token, done, current = () => token === lab.equationsToken) {
  const next = (from) => {
    if (!current()) return;
    const started = performance.now();
    let k = from;
    while (k < makers.length && (k === from || performance.now() - started < TYPESET_MS_PER_FRAME)) {
      const node = makers[k++]();
      parent.append(node);
      const math = node.querySelector?.(".eq-math");
      if (math) fitEquation(lab, math);
    }
    if (k < makers.length) requestAnimationFrame(() => next(k));
    else done();
  };
  next(0);
}

// ---------- files, links, clipboard ----------
