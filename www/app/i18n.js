// @ts-check
// The page's languages: English and Simplified Chinese. Every string the page shows
// is a message id in the catalogues www/app/i18n/en.json and zh.json (bundled into
// lab.js by esbuild), written with `t(id, {name: value})`, whose `{name}` places the
// catalogue's text gives; index.html names its strings with `data-i18n` (the text)
// and `data-i18n-attrs="title=id;aria-label=id"`. The wasm module has its own copy
// of the catalogues (www/src/i18n.rs) for the texts it makes, told the language by
// `set_language`. tests/browser/i18n.test.mjs fails on a key missing from either.
//
// The language: `lang=` in the address (a share link or an embed may carry it), else
// the reader's choice in the header (kept in this browser), else the browser's
// languages, else English. Typeset equations and scenario texts are never translated.

import en from "./i18n/en.json";
import zh from "./i18n/zh.json";
import galleryZh from "./i18n/gallery.zh.json";

export const LANGUAGES = {
  en: { name: "English", tag: "en", messages: en },
  zh: { name: "简体中文", tag: "zh-CN", messages: zh },
};

const KEY = "nhlab:language";

let current = "en";

/** The language shown: `en` or `zh`. */
export const language = () => current;

/** `lang=…` in the fragment or query, as given, or null. */
function givenLanguage() {
  return new URLSearchParams(location.hash.replace(/^#/, "")).get("lang") ?? new URLSearchParams(location.search).get("lang");
}

/** `lang=…` in the fragment or query, as a language of the page, or null. */
export function linkedLanguage() {
  const given = givenLanguage();
  return given ? supported(given) : null;
}

/** `lang=…` where it names no language of the page (`lang=fr`, `lang=constructor`),
 *  as given, to be said once; null otherwise. */
export function unknownLinkedLanguage() {
  const given = givenLanguage();
  return given && !supported(given) ? given : null;
}

/** `zh`, `zh-CN`, `zh-Hans-SG` … → `zh`; `en-GB` → `en`; others null. Own keys
 *  only: `constructor` or `__proto__` is a property of every object, not a
 *  language (issue 57: `lang=constructor` made every message lookup throw). */
export function supported(tag) {
  const base = String(tag).toLowerCase().split(/[-_]/)[0];
  return Object.hasOwn(LANGUAGES, base) ? base : null;
}

/** The language to open in (see the module's comment). */
export function chooseLanguage() {
  let kept = null;
  try { kept = supported(localStorage.getItem(KEY) ?? ""); } catch { kept = null; }
  return linkedLanguage() ?? kept ?? (navigator.languages ?? [navigator.language]).map(supported).find(Boolean) ?? "en";
}

/** Shows the page in `lang` (its static strings at once; the rest as it is drawn). */
export function setLanguage(lang, { remember = false } = {}) {
  current = Object.hasOwn(LANGUAGES, lang) ? lang : "en";
  document.documentElement.lang = LANGUAGES[current].tag;
  if (remember) try { localStorage.setItem(KEY, current); } catch { /* storage off: the choice lasts this page */ }
  translateStatic(document);
  const menu = /** @type {HTMLSelectElement | null} */ (document.getElementById("language"));
  if (menu) menu.value = current;
}

/** The message `id` in the current language, its `{name}` places filled from `params`.
 *  An id in neither catalogue comes back as itself (the test catches it first). */
export function t(id, params = {}) {
  const own = (table) => (Object.hasOwn(table, id) ? table[id] : undefined);
  const text = own(LANGUAGES[current].messages) ?? own(en);
  if (text === undefined) {
    console.error(`nhlab: no message "${id}"`);
    return id;
  }
  return text.replace(/\{(\w+)\}/g, (whole, name) => (Object.hasOwn(params, name) ? String(params[name]) : whole));
}

/** The `data-i18n` strings of index.html under `root`, in the current language. */
export function translateStatic(root) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const node of root.querySelectorAll("[data-i18n-kbd]")) node.replaceChildren(...withKeys(t(node.dataset.i18n)));
  for (const node of root.querySelectorAll("[data-i18n-attrs]")) {
    for (const pair of node.dataset.i18nAttrs.split(";")) {
      const [attr, id] = pair.split("=");
      node.setAttribute(attr.trim(), t(id.trim()));
    }
  }
}

/** A gallery item's words in the current language, {title, hint, description}, or null
 *  where its file's own words stand (English; the files themselves are never
 *  translated, and an edited item shows what its text says). */
export function galleryWords(name) {
  return galleryWordsIn(current, name);
}

/** A gallery item's words in `lang`, or null (see galleryWords). */
export function galleryWordsIn(lang, name) {
  return lang === "zh" && Object.hasOwn(galleryZh, name) ? galleryZh[name] : null;
}

/** A message's text as nodes, the keys it names («Tab», «Ctrl+]») as `<kbd>`: a key
 *  is a key in every language. */
export function withKeys(text) {
  return text.split(/«([^»]+)»/).map((part, k) => {
    if (k % 2 === 0) return document.createTextNode(part);
    const key = document.createElement("kbd");
    key.textContent = part;
    return key;
  });
}

/** A number for reading (grouping as the language writes it): 12,345 in both. */
export const count = (n) => n.toLocaleString(LANGUAGES[current].tag);

/** A list joined as the language joins it: "a, b" / "a、b". */
export const list = (items) => items.join(t("list.separator"));
