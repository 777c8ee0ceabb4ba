// @ts-check
// The actions: everything that changes the page's state, and the only code that
// writes the store. Views call them (open, play, seek, edit a value, move an input,
// share, choose a language…); the services' events (a scenario opened, rows arrived,
// a step too slow) are made state here too (`wireActions`).

import { errorText, setTypedText, typedText } from "./dom.js";
import { events, redraw } from "./events.js";
import { language, linkedLanguage, setLanguage, t } from "./i18n.js";
import { state, store } from "./store.js";
import { draftToOffer, forgetDraft, keepDraft, keepDraftWhileTyping } from "./services/drafts.js";
import { parseFragment, shareUrl, syncAddress } from "./services/links.js";
import { api, workersSpeak } from "./services/modules.js";
import { display, extend, load, restart, setInput } from "./services/runner.js";

/** @typedef {import("./store.js").State} State */

const { update } = store;

// ---------- what the services say ----------

/** Makes the runner's events the store's state. */
export function wireActions() {
  events.on("opened", ({ text, opened, fromEditor, keepClock, loadToken }) => {
    const info = opened.info;
    if (!fromEditor) { setTypedText(text); events.emit("text-replaced", {}); }
    const warnings = info.warnings;
    update({
      text, info, tEnd: info.t_end, span: info.t_end - info.t0, inputsMoved: false, stalled: null, target: null, jumping: false,
      inputValues: scenarioInputs(info),
      runs: opened.runs, finished: opened.finished, caughtUp: opened.caughtUp, clock: info.layout.t0,
      // No autoplay for those who asked their system for reduced motion: the initial
      // state is shown and Play starts it.
      playing: keepClock ? state().playing : !matchMedia("(prefers-reduced-motion: reduce)").matches,
      status: warnings.length
        ? { message: `${t("status.warnings")}\n${warnings.join("\n")}`, kind: "warning", place: false }
        : { message: t("status.loaded"), kind: "ok", place: false },
      loaded: loadToken,
    });
    syncAddress(state());
    redraw();
    // Which load the page shows: a test (or an embedder) waits for the next one.
    document.body.dataset.loaded = String(loadToken);
  });
  events.on("refused", ({ message, timeout }) => {
    update({ status: { message, kind: "error", place: true }, loadTimedOut: timeout });
    if (timeout) say(message);
  });
  events.on("update", ({ runs, finished, caughtUp, target }) => {
    /** @type {Partial<State>} */
    const patch = { runs, finished, caughtUp };
    if (target !== null) patch.target = target;
    update(patch);
    settleJump();
    redraw();
  });
  events.on("stalled", ({ message }) => update({ stalled: message, playing: false, notice: { message, kind: "error" } }));
  events.on("extended", ({ tEnd }) => setEnd(tEnd));
  events.on("failed", ({ message }) => update({ playing: false, notice: { message, kind: "error" } }));
  events.on("notice", (notice) => say(notice.message, notice.kind));
}

// ---------- the notice and the editor's status line ----------

/** Shows `message` in the page's notice (null hides it). */
export function say(/** @type {string | null} */ message, /** @type {"error" | "info"} */ kind = "error") {
  update({ notice: message ? { message, kind } : null });
}

/** Hides the notice if it is information (an error stays until its cause goes). */
export function clearInfoNotice() {
  if (state().notice?.kind === "info") say(null);
}

/** Says `message` under the editor (`kind` `ok`, `warning` or `error`); `place`
 *  moves the caret to the first place it names. */
export function setStatus(/** @type {string} */ message, /** @type {"ok" | "warning" | "error"} */ kind, place = false) {
  update({ status: { message, kind, place } });
}

// ---------- opening ----------

/** Sets the page's language at boot (nothing is shown before it is chosen). */
export function startLanguage(/** @type {string} */ lang) {
  setLanguage(lang);
  update({ language: language(), linkLanguage: linkedLanguage() });
}

/** Opens gallery item `name`; false (and said) when there is none. */
export function openGallery(/** @type {string} */ name, { message = /** @type {string | null} */ (null) } = {}) {
  let text;
  try { text = api().gallery_text(name); } catch (e) { say(errorText(e)); return false; }
  update({ galleryName: name, galleryOrigin: name, notice: message ? { message, kind: "error" } : null });
  load(text, { trusted: true });
  return true;
}

/** A fresh task: what follows runs after the page has had its turn (input, a frame). */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Opens what the address names: a share payload, a gallery item, or the default;
 *  in embed mode, with the controls and panel it names. */
export function openFromFragment() {
  const f = parseFragment();
  update({
    embed: f.embed, embedControls: f.embed ? f.controls : [], embedPanel: f.embed ? f.panel : "",
    embedParameters: f.embed ? f.shownParameters : null,
  });
  if (f.share !== null) {
    // In tasks of their own: reading a megabyte-long link, putting it in the editor
    // (the page's first layout with it) and marking its problems were one task of
    // 0.3–0.45 s, on top of the page's start.
    update({ galleryName: null, galleryOrigin: null, notice: null });
    const payload = f.share;
    nextTask().then(() => openShared(payload));
    return;
  }
  if (f.gallery !== null && openGallery(f.gallery)) return;
  openGallery(api().gallery_default(), { message: f.gallery !== null ? t("link.no-item", { name: f.gallery }) : null });
}

/** Opens a share payload: its scenario plays, or, when it has problems, shows in the
 *  editor with them while the default system plays. */
async function openShared(/** @type {string} */ payload) {
  let text;
  try {
    text = api().share_to_toml(payload);
  } catch (e) {
    openGallery(api().gallery_default(), { message: t("link.default-instead", { why: errorText(e) }) });
    return;
  }
  const ok = await load(text);
  if (ok !== false) return;
  // Show the link's scenario and its problems; the default system plays meanwhile.
  const status = state().status?.message ?? "";
  if (!display()) await load(api().gallery_text(api().gallery_default()), { fromEditor: true, trusted: true });
  await nextTask();
  setTypedText(text);
  events.emit("text-replaced", {});
  await nextTask();
  setStatus(status, "error", true);
  say(t(state().loadTimedOut ? "link.too-slow" : "link.problems"));
}

/** A pasted link (the address's fragment changed by the reader, not by the page). */
export function linkPasted() {
  const f = parseFragment();
  const opening = f.share !== null || f.gallery !== null;
  // A pasted link that names another language (what it opens is loaded in it).
  const linked = linkedLanguage();
  if (linked && linked !== language()) {
    update({ linkLanguage: linked });
    chooseLanguage(linked, { remember: false, reload: !opening });
  }
  if (opening) openFromFragment();
}

/** Puts `text` in the editor and runs it (a Help example, a restored draft, the
 *  host's); resolves false when it could not be loaded (said under the editor). */
export function openText(/** @type {string} */ text) {
  update({ galleryName: null });
  setTypedText(text);
  events.emit("text-replaced", {});
  keepTyped();
  return load(text, { fromEditor: true });
}

// ---------- editing ----------

/** The text was typed (after a pause): it is no longer the gallery item's, and runs. */
export function typed() {
  update({ galleryName: null });
  load(typedText(), { fromEditor: true });
}

/** Keeps the text as typed (a key pressed): unshared, and kept as the draft. */
export function keepTyping() {
  update({ unshared: true });
  if (!state().embed) keepDraftWhileTyping(typedText(), state().info?.title ?? "");
}

/** As keepTyping, at once. A reader's slider in course notes is not the author's draft. */
function keepTyped() {
  update({ unshared: true });
  if (!state().embed) keepDraft(typedText(), state().info?.title ?? "");
}

/** Applies one edit (the core's, on the TOML: `fn` takes the text and gives the new
 *  one) to the editor's text and runs it; an edit that cannot apply is said, and the
 *  controls go back to the running values. */
export function edit(/** @type {(text: string) => string} */ fn) {
  let text;
  try {
    text = fn(typedText());
  } catch (e) {
    setStatus(t("edit.not-applied", { why: errorText(e) }), "error");
    events.emit("restore-controls", {});
    return Promise.resolve(false);
  }
  setTypedText(text);
  events.emit("text-replaced", {});
  keepTyped();
  return load(text, { fromEditor: true });
}

/** Sets a number at `path` of the text (`parameters.m`, `initial.q.x`, `run.dt`). */
export const setNumber = (/** @type {string} */ path, /** @type {number} */ value) => edit((text) => api().edit_number(text, path, value));

/** Where a swept quantity (`[stability] sweep` or `map`) is in the text: the
 *  parameter, or the initial velocity of `x'`. */
export const sweptPath = (/** @type {{ over: string, kind: string }} */ q) =>
  q.kind === "parameter" ? `parameters.${q.over}` : `initial.v.${q.over.replace(/'$/, "")}`;

/** A swept quantity's value in the running scenario (`info`: the runner's WebLab.info()). */
export function sweptValue(/** @type {{ over: string, kind: string }} */ q, /** @type {any} */ info) {
  if (!info) return NaN;
  if (q.kind === "parameter") return info.parameters.find((/** @type {any} */ p) => p.name === q.over)?.value ?? NaN;
  return info.coordinates.find((/** @type {any} */ c) => `${c.name}'` === q.over)?.v ?? NaN;
}

/** Sets several swept quantities at once (a click on the stability map): one edit,
 *  one restart. @param {{ over: string, kind: string, value: number }[]} points */
export const setSwept = (points) =>
  edit((text) => points.reduce((t, p) => api().edit_number(t, sweptPath(p), p.value), text));

/** Shows the stability panel's map (or its sweep). */
export const showStabilityMap = (/** @type {boolean} */ on) => update({ stabilityMap: on });

/** Offers the draft kept from before (see services/drafts.js), if there is one. */
export function offerDraft(/** @type {string} */ fragment) {
  if (state().embed) return;
  const f = parseFragment();
  let opened = null;
  try {
    opened = f.share !== null ? api().share_to_toml(f.share) : api().gallery_text(f.gallery ?? api().gallery_default());
  } catch { opened = null; }
  const offer = draftToOffer(fragment, opened);
  if (offer) update({ draft: { ...offer.draft, tab: offer.tab } });
}

export function restoreDraft() {
  const draft = state().draft;
  update({ draft: null });
  if (draft) openText(draft.text);
}

export function discardDraft() {
  update({ draft: null });
  forgetDraft();
}

/** The text was shared or exported: leaving no longer asks. */
export const shared = () => update({ unshared: false });

/** The share link of the running text, put in the address (throws why it cannot). */
export function share() {
  const link = shareUrl(state());
  update({ unshared: false, shareLink: link });
  history.replaceState(null, "", link);
  return link;
}

// ---------- playback ----------

/** Whether the runs are still catching up with a clock that is not moving (To end,
 *  Step): the Play button then stops them where they are. */
export const catchingUp = (/** @type {State} */ s) => s.jumping && !s.playing && !!display() && !s.stalled;

/** How far the runs have got: the display clock, or the slowest run still going when
 *  they are behind it; when every run has stopped (an error, the sample limit), the
 *  furthest any of them got: the clock never claims a time no run reached. */
export function reached(/** @type {State} */ s) {
  const now = display()?.now() ?? s.clock;
  const going = s.runs.filter((r) => !r.error).map((r) => r.t);
  if (going.length || !s.runs.length) return Math.min(now, ...going);
  return Math.min(now, Math.max(...s.runs.map((r) => r.t)));
}

/** To end: the jump is over once the runs have caught up with the clock. */
function settleJump() {
  const s = state();
  if (s.jumping && s.caughtUp && s.target === s.clock) update({ jumping: false });
}

/** Moves the clock to `to`, within the runs' span. */
function moveClock(/** @type {number} */ to) {
  const s = state();
  update({ clock: Math.min(Math.max(to, s.info.t0), s.tEnd) });
  redraw();
}

/** The runs' end on the page: the clock's limit and the plots' time axes. */
function setEnd(/** @type {number} */ tEnd) {
  update({ tEnd });
  display()?.set_t_end(tEnd);
  redraw();
}

/** A frame's worth of playing: the clock moves by `wall` seconds at the chosen
 *  speed; at the end, the runs stop, or go on while an input steers them. */
export function tick(/** @type {number} */ wall) {
  let s = state();
  if (!display()) return;
  if (s.playing) update({ clock: Math.min(s.clock + s.speed * wall, s.tEnd) });
  settleJump();
  s = state();
  // Steered by its inputs, a run goes on while it plays: a span of the scenario's at
  // a time, so that a cart-pole can be balanced by hand for as long as one likes
  // (issue 60). The page's sample limit bounds each run.
  const openEnded = s.inputsMoved && s.runs.some((r) => !r.error);
  if (s.playing && s.clock >= s.tEnd) {
    if (openEnded) extend(s.tEnd + s.span);
    else if (s.finished && s.caughtUp) update({ playing: false });
  }
}

/** Play / Pause; while the runs catch up with a jump, Stop (where they are). */
export function play() {
  const s = state();
  if (!display()) return;
  if (catchingUp(s)) { update({ clock: reached(s), jumping: false }); return; }
  if (!s.playing && (s.clock >= s.tEnd || s.stalled)) reset();
  update({ playing: !s.playing });
}

/** One step of the clock (a two-hundredth of the span), paused. */
export function step() {
  update({ playing: false });
  const s = state();
  moveClock(s.clock + (s.tEnd - s.info.t0) / 200);
}

/** To end: the clock jumps there; until the runs get there, Play reads Stop. */
export function toEnd() {
  update({ playing: false });
  moveClock(state().tEnd);
  update({ jumping: true });
}

export const setSpeed = (/** @type {number} */ speed) => update({ speed });

/** Starts every run again (to the scenario's t_end), with the scenario's input values. */
export async function reset() {
  const s = state();
  if (!display()) return;
  // A step too slow was said in the notice: it goes with its cause.
  const notice = s.stalled !== null && s.notice?.message === s.stalled ? null : s.notice;
  update({ clock: s.info.layout.t0, stalled: null, notice });
  if (!(await restart())) return;
  setEnd(s.info.t0 + s.span);
  update({ inputsMoved: false, restarts: state().restarts + 1, inputValues: scenarioInputs(s.info) });
}

/** The values the scenario gives its inputs taken as arguments (name → value). */
const scenarioInputs = (/** @type {any} */ info) =>
  Object.fromEntries((info?.inputs ?? []).filter((/** @type {any} */ i) => i.slot !== null && i.slot !== undefined).map((/** @type {any} */ i) => [i.name, i.value]));

/** Input `slot` moved by hand: it reaches the runs from their next step on. */
export function moveInput(/** @type {number} */ slot, /** @type {number} */ value) {
  const name = state().info?.inputs?.find((/** @type {any} */ i) => i.slot === slot)?.name;
  // The runs are open-ended, and the CSV export writes them as played.
  update({ inputsMoved: true, inputValues: name ? { ...state().inputValues, [name]: value } : state().inputValues });
  setInput(slot, value);
}

/** The clock to `to` (paused): the runs catch up with it, as To end does. */
export function seek(/** @type {number} */ to) {
  update({ playing: false });
  moveClock(to);
  update({ jumping: true });
}

// ---------- the page ----------

/** The reader chose another language: the page's strings at once, and the running
 *  scenario loaded again (its panels' titles and notes are made as it loads; its runs
 *  start again), then a text typed with problems (the run plays the last good one),
 *  so that its problems are said in it too. */
export function chooseLanguage(/** @type {string} */ lang, { remember = true, reload = true } = {}) {
  setLanguage(lang, { remember });
  api().set_language(language());
  workersSpeak(language(), t);
  const s = state();
  // The sweep's notes are made in the helper, in the language it had.
  update({ language: language(), stability: null, linkLanguage: s.linkLanguage ? language() : null });
  if (s.text && reload) {
    const typedNow = typedText();
    const problems = s.status?.kind === "error" && typedNow !== s.text;
    load(s.text, { trusted: true, fromEditor: true }).then(() => { if (problems && typedText() === typedNow) load(typedNow, { fromEditor: true }); });
  }
}

export const setProjector = (/** @type {boolean} */ on) => update({ projector: on });

/** The stability panel's sweep for the running text (null: none). */
export const sweepReady = (/** @type {import("./store.js").Sweep | null} */ sweep) => update({ stability: sweep });
