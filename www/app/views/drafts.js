// @ts-check
// The bar that offers a draft back: this tab's text after a reload, or on the bare
// address the last text edited in this browser.

import { $ } from "../dom.js";
import { LANGUAGES, language, t } from "../i18n.js";
import { store } from "../store.js";
import { discardDraft, restoreDraft } from "../actions.js";

export function wireDrafts() {
  store.subscribe(["draft"], ({ draft }) => {
    $("restore").hidden = !draft;
    if (!draft) return;
    const when = new Date(draft.at).toLocaleString(LANGUAGES[/** @type {"en" | "zh"} */ (language())].tag);
    const what = draft.title ? t("draft.titled", { title: draft.title }) : t("draft.untitled");
    $("restore-text").textContent = t(draft.tab ? "draft.tab" : "draft.browser", { what, when });
  });
  $("restore-draft").addEventListener("click", restoreDraft);
  $("discard-draft").addEventListener("click", discardDraft);
}
