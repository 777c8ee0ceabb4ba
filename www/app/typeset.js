// @ts-check
// MathML fitted to its box: long equations broken into lines before their `+`, `−`
// and `=`, laid out again when the box's width changes.

import { MATHML, MAX_TYPESET_NODES } from "./dom.js";
import { safeMath } from "./mathml.js";
import { t } from "./i18n.js";

/** Each equation box's MathML as the core gave it (laid out again at another width). */
const markupOf = new WeakMap();
/** Equation boxes whose nodes a fit may have moved. */
const fitted = new WeakSet();

/** Puts the core's `markup` in `box`, made safe, kept for later fits.
 *  @param {Element} box @param {string} markup */
export function typeset(box, markup) {
  box.replaceChildren(safeMath(markup));
  markupOf.set(box, markup);
}

export const SIGNS = new Set(["+", "−", "-"]);

export const isSign = (node) => node.localName === "mo" && SIGNS.has(node.textContent.trim());

/** Where a line may break: before a `+`, `−` or `=` of the equation's sums. */
export const isBreak = (node) => isSign(node) || (node.localName === "mo" && node.textContent.trim() === "=");

export const INVISIBLE_TIMES = "\u2062";

export const MAX_FITTED_NODES = MAX_TYPESET_NODES;  // larger equations (typeset on request) scroll instead of being broken into lines (a fit costs about 25 ms per 1,000 nodes)

export function mathmlNode(tag, ...children) {
  const e = document.createElementNS(MATHML, tag);
  e.append(...children);
  return e;
}

export const hasBreak = (row) => [...row.children].some((c) => isBreak(c) || (c.localName === "mrow" && hasBreak(c)));

/** The children of `node` laid in one line, grouping rows with a `+`, `−` or `=`
 *  opened up. Each operator
 *  first gets the form its place in its row gave it (MathML Core's rule: first
 *  prefix, last postfix, else infix), so that opening rows changes no spacing. */
export function atoms(node, out = []) {
  // A row without a break of its own (`sin(ψ)`, a product) stays whole: its
  // parentheses keep stretching to their own content.
  if (node.localName !== "mrow" || !hasBreak(node)) {
    out.push(node);
    return out;
  }
  const kids = [...node.children];
  kids.forEach((k, i) => {
    if (k.localName === "mo" && !k.hasAttribute("form") && kids.length > 1) {
      k.setAttribute("form", i === 0 ? "prefix" : i === kids.length - 1 ? "postfix" : "infix");
    }
  });
  for (const k of kids) atoms(k, out);
  return out;
}

/** A fraction too wide for a line, `N/d`, as `(1/d) N` (`N` in parentheses when it is
 *  a sum), whose `N` can then be broken: the same value, set differently. */
export function openFraction(frac) {
  const [numerator, denominator] = frac.children;
  const sum = numerator.localName === "mrow" && [...numerator.children].slice(1).some(isSign);
  const body = sum ? mathmlNode("mrow", mathmlNode("mo", "("), numerator, mathmlNode("mo", ")")) : numerator;
  frac.replaceWith(mathmlNode("mrow", mathmlNode("mfrac", mathmlNode("mn", "1"), denominator), mathmlNode("mo", INVISIBLE_TIMES), body));
}

/** Whether `node` sits in `parent` through grouping rows only (not in a fraction,
 *  script or root, where a line cannot break). */
export function outermost(node, parent) {
  for (let e = node.parentElement; e && e !== parent; e = e.parentElement) if (e.localName !== "mrow") return false;
  return true;
}

/** The children of `parent` (an equation, or one entry of a column) as lines no
 *  wider than `room`, broken before the `+`, `−` and `=` of its sums (inside
 *  parentheses too), each line filled as far as it allows (measured, not
 *  estimated), continuation lines indented. A fraction wider than a line is first
 *  written as `(1/d) N`. The nodes keep their order, so the expression reads the
 *  same; one indivisible piece wider than the room (a long root or subscript) still
 *  scrolls. Leaves `parent` as it was when one line suffices. */
export function breakLines(parent, room) {
  // Fractions wider than a line, outermost first, a few rounds (each layout is one pass).
  for (let round = 0; round < 4; round++) {
    const wide = [...parent.querySelectorAll("mfrac")].filter((f) => f.getBoundingClientRect().width > room && outermost(f, parent));
    if (wide.length === 0) break;
    wide.forEach(openFraction);
  }
  const top = mathmlNode("mrow", ...parent.children);
  parent.append(top);
  const list = atoms(top);
  const widths = new Map(list.map((a) => [a, a.getBoundingClientRect().width]));
  // Pieces from one break to the next, laid greedily: a line takes pieces while they fit.
  const pieces = [];
  for (const a of list) {
    if (pieces.length === 0 || isBreak(a)) pieces.push([a]);
    else pieces.at(-1).push(a);
  }
  const lines = [[]];
  let used = 0;
  for (const piece of pieces) {
    const w = piece.reduce((sum, a) => sum + widths.get(a), 0);
    if (lines.at(-1).length > 0 && used + w > room) {
      lines.push([]);
      used = 0;
    }
    lines.at(-1).push(...piece);
    used += w;
  }
  if (lines.length < 2) return;
  const table = mathmlNode("mtable");
  table.setAttribute("class", "eq-lines");
  lines.forEach((line, i) => {
    const indent = mathmlNode("mspace");
    indent.setAttribute("width", "2em");
    table.append(mathmlNode("mtr", mathmlNode("mtd", mathmlNode("mrow", ...(i > 0 ? [indent] : []), ...line))));
  });
  parent.replaceChildren(table);
}

/** An equation still wider than its box (a wide matrix) scrolls sideways: it says
 *  so with shadows at its sides, and takes the focus so that the arrow keys scroll it
 *  (a region only a mouse could scroll is lost to keyboard users). */
export function markScrolling(box) {
  const scrolls = box.scrollWidth > box.clientWidth + 1;
  box.classList.toggle("scrolls", scrolls);
  if (scrolls) {
    box.tabIndex = 0;
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", t("eq.scrolls", { label: box.closest(".eq")?.querySelector(".eq-label")?.textContent ?? t("eq.equation") }));
  } else {
    box.removeAttribute("tabindex");
    box.removeAttribute("role");
    box.removeAttribute("aria-label");
  }
}

/** An equation wider than its box, set as lines ([`breakLines`]); in a matrix, each
 *  entry of a column vector (`F`, `b`) too wide for the box. Other matrices are left
 *  as they are (they scroll). */
export function fitEquation(/** @type {any} */ box) {
  const markup = markupOf.get(box);
  if (markup === undefined || !box.isConnected) return;
  // Laid out before (another width): from the core's markup again.
  if (fitted.has(box)) box.replaceChildren(safeMath(markup));
  // A very large equation is left to scroll: measuring and rebuilding its tens of
  // thousands of nodes would hold the page for a second.
  if (box.getElementsByTagName("*").length > MAX_FITTED_NODES) { markScrolling(box); return; }
  fitted.add(box);
  const row = box.closest(".eq");
  const saved = row.style.contentVisibility;
  row.style.contentVisibility = "visible"; // measure even when scrolled out of view
  try {
    const math = box.firstElementChild;
    const room = 0.97 * (box.clientWidth - 4) - 32; // 32 px: the continuation lines' indent
    if (!math || math.localName !== "math" || room <= 100 || math.getBoundingClientRect().width <= room + 32) return;
    const matrix = math.querySelector("mtable");
    if (!matrix) {
      breakLines(math, room);
      return;
    }
    const cells = [...matrix.children].map((r) => [...r.children]);
    if (!cells.every((r) => r.length === 1)) return;
    // The entries start after `F = [` and leave room for the closing bracket.
    const left = matrix.getBoundingClientRect().left - math.getBoundingClientRect().left + 40;
    for (const [cell] of cells) {
      if (cell.getBoundingClientRect().width > room - left) breakLines(cell, room - left);
    }
  } finally {
    markScrolling(box);
    row.style.contentVisibility = saved;
  }
}
