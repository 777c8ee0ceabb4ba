// @ts-check
// Links: what the address says (`#s=…`, `#gallery=…`, `&embed`, `&controls=`,
// `&panel=`, `&params=`, `&lang=`) and what it should say for the running text, the
// share link, and a gallery item's standing (unchanged, or changed in its values only).

import { api } from "./modules.js";

/** @typedef {import("../store.js").State} State */

/** The controls an embedder may show besides the scene, its panel and playback
 *  (`#…&embed&controls=parameters,methods`). `stability` is the older way of asking
 *  for `&panel=stability`. */
export const EMBED_CONTROLS = ["parameters", "initial", "methods", "stability", "equations"];

/** The address's fragment (or query), read. */
export function parseFragment() {
  const params = new URLSearchParams(location.hash.replace(/^#/, ""));
  const query = new URLSearchParams(location.search);
  const controls = (params.get("controls") ?? query.get("controls") ?? "").split(",").filter((c) => EMBED_CONTROLS.includes(c));
  // A panel's id: letters, digits and dashes (anything else is ignored).
  const panel = (params.get("panel") ?? query.get("panel") ?? "").replace(/[^a-z0-9-]/gi, "");
  // The parameters an embed's sliders show (`&params=m,r`): names only; none given, all.
  const named = params.get("params") ?? query.get("params");
  const shownParameters = named === null ? null : named.split(",").filter((n) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(n));
  return { share: params.get("s"), gallery: params.get("gallery"), embed: params.has("embed") || query.has("embed"), controls, panel, shownParameters };
}

/** The panel an embed shows beside the scene (`&panel=`): a plot's id (`trajectory`,
 *  `energy`, …), `stability` or `none`; empty for the first plot. */
export function embedPanel(/** @type {State} */ s) {
  return s.embedPanel || (s.embedControls.includes("stability") ? "stability" : "");
}

/** What the address keeps after the scenario: the language a link named, and in
 *  embed mode what the embed shows. */
export function embedSuffix(/** @type {State} */ s) {
  const lang = s.linkLanguage ? `&lang=${s.linkLanguage}` : "";
  if (!s.embed) return lang;
  const shown = s.embedParameters ? `&params=${s.embedParameters.join(",")}` : "";
  return `${lang}&embed${s.embedControls.length ? `&controls=${s.embedControls.join(",")}` : ""}${shown}${s.embedPanel ? `&panel=${encodeURIComponent(s.embedPanel)}` : ""}`;
}

/** The text of gallery item `name`, or null when there is none. */
function galleryText(/** @type {string} */ name) {
  try { return /** @type {string} */ (api().gallery_text(name)); } catch { return null; }
}

/** The name of the gallery item playing, when its text is unchanged; else null. */
export function unchangedGalleryItem(/** @type {State} */ s) {
  return s.galleryOrigin && galleryText(s.galleryOrigin) === s.text ? s.galleryOrigin : null;
}

/** The gallery item whose translated title, hint and description stand for the text:
 *  its own, with any values changed (a slider moved), but not its words; or null. */
export function galleryWordsItem(/** @type {State} */ s) {
  if (!s.galleryOrigin) return null;
  try { return api().gallery_words_stand(s.text, s.galleryOrigin) ? s.galleryOrigin : null; } catch { return null; }
}

/** Whether the running text is a gallery item's, changed. */
export function galleryEdited(/** @type {State} */ s) {
  const original = s.galleryOrigin ? galleryText(s.galleryOrigin) : null;
  return original !== null && s.text !== original;
}

/** The share link of the running text: `#gallery=` for a gallery item as it is, else
 *  `#s=` with the text (throws why it cannot: too long). */
export function shareUrl(/** @type {State} */ s) {
  const url = new URL(location.href);
  url.search = "";
  const lang = s.linkLanguage ? `&lang=${s.linkLanguage}` : "";
  const name = unchangedGalleryItem(s);
  url.hash = name !== null ? `gallery=${encodeURIComponent(name)}${lang}` : `s=${api().share_payload(s.text)}${lang}`;
  return url.href;
}

/** Keeps the address bar a link to what plays: `#gallery=` while that item's text
 *  is unchanged, else the running text's share link (its comments and layout
 *  included), so that a reload or a copied address opens what is on the screen. */
export function syncAddress(/** @type {State} */ s) {
  let hash = null;
  const name = unchangedGalleryItem(s);
  if (name !== null) hash = `#gallery=${encodeURIComponent(name)}`;
  else {
    try { hash = `#s=${api().share_payload(s.text)}`; } catch { hash = null; } // too long to be a link
  }
  if (hash !== null) history.replaceState(null, "", hash + embedSuffix(s));
}

/** The name exported files take: the gallery item's, else the title's, as a slug. */
export function slug(/** @type {State} */ s) {
  return (s.galleryName || s.info?.title || "").toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "scenario";
}
