// Drafts: the text being edited kept in the tab and the browser, offered back
// after a reload or on the bare address.

import { $ } from "./dom.js";
import { renderGutter } from "./editing.js";
import { load } from "./runner.js";
import { parseFragment } from "./share.js";
import { LANGUAGES, language, t } from "./i18n.js";

export const DRAFT_KEY = "nhlab:draft";

/** Texts longer than this are kept at the end of typing, not at every key. */
const KEEP_AT_ONCE_CHARS = 100000;

/** Saves the editor's text as typed, problems and all: in this tab (kept across
 *  reloads) and as the browser's last draft (for a tab that was closed). */
export function keepDraft(lab) {
  const text = $("editor").value;
  lab.unshared = true;
  if (lab.embed) return; // a reader's slider in course notes is not the author's draft
  const draft = JSON.stringify({ text, title: lab.info?.title ?? "", at: Date.now() });
  for (const store of [() => sessionStorage, () => localStorage]) {
    try { store().setItem(DRAFT_KEY, draft); } catch { /* storage off or full: nothing to keep */ }
  }
}

/** As keepDraft after a key typed: a long text is kept once typing pauses, or when
 *  the page is hidden or left (writing a megabyte to both stores took a third of
 *  each key's time on a 1 MB line). */
export function keepDraftWhileTyping(lab) {
  clearTimeout(lab.draftTimer);
  lab.draftTimer = null;
  if ($("editor").value.length <= KEEP_AT_ONCE_CHARS) { keepDraft(lab); return; }
  lab.draftTimer = setTimeout(() => { lab.draftTimer = null; keepDraft(lab); }, 400);
  if (!lab.draftFlush) {
    lab.draftFlush = () => { if (lab.draftTimer) { clearTimeout(lab.draftTimer); lab.draftTimer = null; keepDraft(lab); } };
    window.addEventListener("pagehide", lab.draftFlush);
    document.addEventListener("visibilitychange", () => { if (document.hidden) lab.draftFlush(); });
  }
}

export function forgetDraft() {
  for (const store of [() => sessionStorage, () => localStorage]) {
    try { store().removeItem(DRAFT_KEY); } catch { /* nothing kept */ }
  }
}

export function readDraft(store) {
  try {
    const d = JSON.parse(store().getItem(DRAFT_KEY) ?? "null");
    return d && typeof d.text === "string" && d.text.length <= 1 << 20 ? d : null;
  } catch { return null; }
}

/** After opening: offers the text this tab was editing when it differs from what
 *  opened (a reload while the text had problems), or, on the bare address, the last
 *  text edited in this browser. */
export function offerDraft(lab, fragment) {
  if (lab.embed) return;
  const tab = readDraft(() => sessionStorage);
  const draft = tab ?? (fragment.replace(/^#/, "") === "" ? readDraft(() => localStorage) : null);
  if (!draft) return;
  // What the address opens (loaded asynchronously, so not yet in the editor).
  const f = parseFragment();
  let opened = null;
  try {
    opened = f.share !== null ? lab.api.share_to_toml(f.share) : lab.api.gallery_text(f.gallery ?? lab.api.gallery_default());
  } catch { opened = null; }
  if (draft.text === opened) return;
  const when = new Date(draft.at).toLocaleString(LANGUAGES[language()].tag);
  const what = draft.title ? t("draft.titled", { title: draft.title }) : t("draft.untitled");
  $("restore-text").textContent = t(tab ? "draft.tab" : "draft.browser", { what, when });
  lab.draft = draft;
  $("restore").hidden = false;
}

export function restoreDraft(lab) {
  $("restore").hidden = true;
  const draft = lab.draft;
  if (!draft) return;
  lab.galleryName = null;
  $("editor").value = draft.text;
  renderGutter(lab);
  keepDraft(lab);
  load(lab, draft.text, { fromEditor: true });
}
