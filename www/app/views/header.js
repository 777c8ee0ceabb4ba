// @ts-check
// The header: the gallery menu (grouped, in the page's language, its item marked
// "edited" once its text is), the language menu, the Code menu and, on a phone, the
// button that folds the header's actions; and the page's own events (a pasted link,
// leaving with edits, a resize).

import { $, el } from "../dom.js";
import { redraw } from "../events.js";
import { galleryWords, t } from "../i18n.js";
import { state, store } from "../store.js";
import { chooseLanguage, linkPasted, openGallery } from "../actions.js";
import { embedSuffix, galleryEdited } from "../services/links.js";
import { api } from "../services/modules.js";

export function wireHeader() {
  const gallery = $("gallery");
  /** @type {Map<string, any>} */
  const groups = new Map();
  for (const g of api().gallery_entries()) {
    if (!groups.has(g.group)) groups.set(g.group, el("optgroup", { label: t(`gallery.group.${g.group}`), "data-group": g.group }));
    const title = galleryWords(g.name)?.title ?? g.title;
    groups.get(g.group).append(el("option", { value: g.name, text: title, "data-title": title, "data-own-title": g.title }));
  }
  // The classics first, then the papers' examples.
  const order = [...groups.keys()].sort((a, b) => (a === "classic" ? -1 : b === "classic" ? 1 : a.localeCompare(b)));
  gallery.replaceChildren(el("option", { value: "", text: t("gallery.own"), disabled: "", "data-i18n": "gallery.own" }), ...order.map((k) => groups.get(k)));
  gallery.addEventListener("change", () => {
    if (!gallery.value) return;
    history.replaceState(null, "", `#gallery=${encodeURIComponent(gallery.value)}${embedSuffix(state())}`);
    openGallery(gallery.value);
  });
  store.subscribe(["language"], () => {
    for (const group of gallery.querySelectorAll("optgroup")) group.label = t(`gallery.group.${group.dataset.group}`);
    for (const option of gallery.querySelectorAll("option[data-own-title]")) option.dataset.title = galleryWords(option.value)?.title ?? option.dataset.ownTitle;
  });
  // The item the text came from, marked once its text is edited.
  store.subscribe(["galleryOrigin", "text", "language"], (s) => {
    gallery.value = s.galleryOrigin ?? "";
    const edited = galleryEdited(s);
    $("edited-mark").hidden = !edited;
    for (const option of gallery.querySelectorAll("option[data-own-title]")) {
      option.textContent = option.dataset.title + (edited && option.value === s.galleryOrigin ? t("gallery.edited") : "");
    }
  });
  $("language").addEventListener("change", () => chooseLanguage($("language").value));
  wireMenus();
  window.addEventListener("hashchange", linkPasted); // our own replaceState never fires it; a pasted link does
  window.addEventListener("resize", redraw);
  window.addEventListener("beforeunload", (e) => {
    // Edits not shared or exported since: the browser asks before leaving.
    if (state().unshared && !state().embed) { e.preventDefault(); e.returnValue = ""; }
  });
}

/** A menu (the Code menu) closes on Escape, giving the focus back to its button, and
 *  on a click outside it, as menus do (issue 60). On a phone the header's actions are
 *  folded behind one button: it opens them, and they fold again on Escape or a click
 *  outside (issue 60.9). */
function wireMenus() {
  const actions = $("actions"), actionsToggle = $("actions-toggle");
  const unfold = (/** @type {boolean} */ open) => {
    actions.classList.toggle("open", open);
    actionsToggle.setAttribute("aria-expanded", String(open));
  };
  actionsToggle.addEventListener("click", () => unfold(!actions.classList.contains("open")));
  document.addEventListener("click", (e) => {
    for (const menu of document.querySelectorAll("details.menu[open]")) if (!menu.contains(/** @type {Node} */ (e.target))) /** @type {HTMLDetailsElement} */ (menu).open = false;
    if (actions.classList.contains("open") && !actions.contains(e.target) && !actionsToggle.contains(e.target)) unfold(false);
  });
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    const menus = document.querySelectorAll("details.menu[open]");
    for (const menu of menus) {
      /** @type {HTMLDetailsElement} */ (menu).open = false;
      menu.querySelector("summary")?.focus();
    }
    if (menus.length === 0 && actions.classList.contains("open") && !document.querySelector("dialog[open]")) {
      unfold(false);
      actionsToggle.focus();
    }
  });
}
