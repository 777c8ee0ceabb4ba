// @ts-check
// Drafts: the text being edited kept in the tab and the browser, to be offered back
// after a reload or on the bare address.

export const DRAFT_KEY = "nhlab:draft";

/** Texts longer than this are kept at the end of typing, not at every key. */
const KEEP_AT_ONCE_CHARS = 100000;

/** @typedef {{ text: string, title: string, at: number }} Draft */

const stores = [() => sessionStorage, () => localStorage];

/** Saves `text`, problems and all: in this tab (kept across reloads) and as the
 *  browser's last draft (for a tab that was closed). */
export function keepDraft(/** @type {string} */ text, /** @type {string} */ title) {
  const draft = JSON.stringify({ text, title, at: Date.now() });
  for (const store of stores) {
    try { store().setItem(DRAFT_KEY, draft); } catch { /* storage off or full: nothing to keep */ }
  }
}

/** @type {ReturnType<typeof setTimeout> | null} */
let timer = null;
/** @type {(() => void) | null} */
let pending = null;
let flushOnLeave = false;

/** As keepDraft after a key typed: a long text is kept once typing pauses, or when
 *  the page is hidden or left (writing a megabyte to both stores took a third of
 *  each key's time on a 1 MB line). */
export function keepDraftWhileTyping(/** @type {string} */ text, /** @type {string} */ title) {
  if (timer) clearTimeout(timer);
  timer = null;
  // A long text kept later is older than this one: leaving must not write it over this.
  if (text.length <= KEEP_AT_ONCE_CHARS) { pending = null; keepDraft(text, title); return; }
  const flush = () => { if (timer) clearTimeout(timer); timer = null; pending = null; keepDraft(text, title); };
  if (!flushOnLeave) {
    flushOnLeave = true;
    window.addEventListener("pagehide", () => pending?.());
    document.addEventListener("visibilitychange", () => { if (document.hidden) pending?.(); });
  }
  pending = flush;
  timer = setTimeout(flush, 400);
}

export function forgetDraft() {
  for (const store of stores) {
    try { store().removeItem(DRAFT_KEY); } catch { /* nothing kept */ }
  }
}

/** The draft kept in `store`, or null. @returns {Draft | null} */
export function readDraft(/** @type {() => Storage} */ store) {
  try {
    const d = JSON.parse(store().getItem(DRAFT_KEY) ?? "null");
    return d && typeof d.text === "string" && d.text.length <= 1 << 20 ? d : null;
  } catch { return null; }
}

/** The draft to offer after opening, and whether it is this tab's: the text this
 *  tab was editing when it differs from what opened (a reload while the text had
 *  problems), or, on the bare address, the last text edited in this browser.
 *  @param {string} fragment the address's fragment at boot @param {string | null} opened
 *  @returns {{ draft: Draft, tab: boolean } | null} */
export function draftToOffer(fragment, opened) {
  const tab = readDraft(() => sessionStorage);
  const draft = tab ?? (fragment.replace(/^#/, "") === "" ? readDraft(() => localStorage) : null);
  if (!draft || draft.text === opened) return null;
  return { draft, tab: tab !== null };
}
