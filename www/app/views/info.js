// @ts-check
// The scenario's title, hint, description and source above the scene: a gallery
// item's, values changed or not, in the page's language where there is a
// translation; its own words once they are edited.

import { $ } from "../dom.js";
import { galleryWords, t } from "../i18n.js";
import { store } from "../store.js";
import { galleryWordsItem } from "../services/links.js";

export function wireInfo() {
  store.subscribe(["info", "text", "language"], (s) => {
    const info = s.info;
    if (!info) return;
    const origin = galleryWordsItem(s);
    const words = origin ? galleryWords(origin) : null;
    $("title").textContent = words?.title ?? info.title;
    $("description").textContent = words?.description ?? info.description;
    $("hint").textContent = words?.hint ?? info.hint;
    $("hint").hidden = !$("hint").textContent;
    $("source").textContent = info.source ? t("info.source", { source: info.source }) : "";
    document.title = `${$("title").textContent} — nhlab`;
  });
}
