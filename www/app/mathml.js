// @ts-check
// MathML from the core made safe: rebuilt element by element from an allow-list,
// never assigned as HTML, so nothing else can get in.

import { MATHML, MATHML_ATTRS, MATHML_TAGS } from "./dom.js";
import { t } from "./i18n.js";

/** A MathML string from the core as nodes, rebuilt from the allow-list.
 *  @param {string} markup @returns {Node} */
export function safeMath(markup) {
  const doc = new DOMParser().parseFromString(markup, "application/xml");
  if (doc.getElementsByTagName("parsererror").length) return document.createTextNode(t("eq.unreadable"));
  /** @param {Node} node @returns {Node | null} */
  const copy = (node) => {
    if (node.nodeType === Node.TEXT_NODE) return document.createTextNode(node.nodeValue ?? "");
    if (!(node instanceof Element) || node.namespaceURI !== MATHML || !MATHML_TAGS.has(node.localName)) return null;
    const out = document.createElementNS(MATHML, node.localName);
    for (const a of node.attributes) if (MATHML_ATTRS.has(a.name)) out.setAttribute(a.name, a.value);
    for (const c of node.childNodes) { const k = copy(c); if (k) out.append(k); }
    return out;
  };
  return copy(doc.documentElement) ?? document.createTextNode("");
}

/** MathML elements in `markup` (its start tags), counted without parsing it.
 *  @param {string} markup */
export const mathmlElements = (markup) => markup.match(/<m[a-z]/g)?.length ?? 0;
