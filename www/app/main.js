// nhlab web lab: DOM wiring only. Every computation (loading, stepping, plotting,
// deriving, editing the TOML, share payloads, CSV) happens in the wasm modules
// (www/src/api/); this file turns events into calls and results into text.
//
// Safety: user text (titles, descriptions, names, messages, anything from a shared
// URL) only ever reaches the page through textContent or input values. MathML from
// the core is rebuilt element by element from an allow-list, never assigned as HTML.
//
// Responsiveness: nothing a scenario holds may block the page, because the page
// never derives or steps. The playing scenario lives in a Web Worker (the runner,
// www/worker.js, talked to through www/channel.js), which loads it under a time
// budget, steps it towards the page's clock in short slices and sends back the rows
// it recorded; the page keeps them in a WebDisplay and draws them. A new scenario
// is loaded in a new runner that replaces the old one only once it has loaded; one
// that fails or takes too long is terminated and the old run plays on. Derivations
// and CSV exports run in a second worker (the helper). A trap in a worker replaces
// it; a trap on the page replaces the module instance, and the runner resends.
//
// The modules, by concern: runner.js (the workers and the running scenario),
// controls.js (parameters, initial state, settings), plots.js (the panels, the
// scene's canvas, the legend), stability.js, equations.js and typeset.js (MathML and
// its line breaking), editing.js (the text's status and edits), share.js (links,
// embeds, the gallery, CSV), drafts.js, help.js, playback.js (the clock and the
// frame), motion.js (the motion in words), projector.js (the lecture hall's mode),
// dom.js (small helpers); this one makes the page's state and starts it.
// The state is one object made here and handed to every function that needs it:
// no module keeps state of its own.

import { wireSettings } from "./controls.js";
import { $, EDIT_DEBOUNCE_MS, copyText, download, el, errorText, notice } from "./dom.js";
import { forgetDraft, keepDraftWhileTyping, offerDraft, restoreDraft } from "./drafts.js";
import { renderGutter } from "./editing.js";
import { refitEquations, refitEquationsNow, renderEquations } from "./equations.js";
import { openHelp } from "./help.js";
import { frame, safely, wirePlayback } from "./playback.js";
import { slug, watchCanvases } from "./plots.js";
import { installInputKeys } from "./inputs.js";
import { wireLongRun } from "./longrun.js";
import { exportCode } from "./code.js";
import { editorNames, load } from "./runner.js";
import { embedSuffix, exportCsv, openFromFragment, openGallery, openShare, parseFragment, renderEmbedSnippet, stopEmbedPreview } from "./share.js";
import { wireStability } from "./stability.js";
import { wireMotion } from "./motion.js";
import { wireProjector } from "./projector.js";
import { LANGUAGES, chooseLanguage, galleryWords, language, linkedLanguage, setLanguage, t, unknownLinkedLanguage } from "./i18n.js";

// channel.js and worker.js are copied as they are (trunk hashes only the page's own
// files): the glue's hashed name versions them, so a cached copy never meets a newer
// module.
const VERSION = new URL(document.querySelector('link[rel="modulepreload"]')?.href ?? "x:/none").pathname.split("/").pop();
// (An address in a variable: the bundler leaves the import to the browser.)
const channel = `./channel.js?v=${encodeURIComponent(VERSION)}`;
const { LabWorker, loadModule, moduleFiles } = await import(channel);
LabWorker.say = t; // the workers' failures in the page's language

/** The page's state: one object, handed to whatever reads or changes it. */
const lab = {
  api: null,        // the wasm bindings
  runner: null,     // the LabWorker that holds and steps the running scenario
  spare: null,      // a started LabWorker for the next scenario
  display: null,    // the page's WebDisplay: what the runner sent, drawn on the canvases
  text: "",         // the scenario text the running lab was built from
  info: null,       // the runner's WebLab.info()
  runs: [],         // each run's status in the runner's last update
  finished: false,  // every run has reached t_end or stopped
  caughtUp: false,  // the runs have reached the clock (or stopped)
  target: null,     // the clock of the runner's last answer
  advancing: false, // a request to step is out
  stalled: null,    // why playback stopped (one step too slow), if it did
  jumping: false,   // To end: the clock jumped and the runs are catching up (Play reads Stop)
  playing: true,
  speed: 1,
  clock: 0,
  lastFrame: null,
  dirty: true,
  drewPlaying: false, // the last drawing refreshed only some panels (see frame)
  drawPending: false, // panels the last drawing left for the next frames (its time ran out)
  embed: false,
  /** In embed mode, the controls the embedder chose to show (`&controls=`). */
  embedControls: [],
  galleryName: null,
  galleryOrigin: null, // the gallery item the text came from (marked "edited" once changed)
  unshared: false, // edits since the last Share or export: leaving asks first
  draft: null, // the text offered by "Restore it"
  problems: [], // the text's problems, [{line, column, message}], as the editor marks them
  status: null, // what the line under the editor says, {message, kind}, as given (editing.js)
  loadToken: 0,     // the newest load; an older one that finishes late is dropped
  instances: 0,     // wasm instances made after a trap
  perf: { work: [], step: [], draw: [], intervals: [], loads: [], loadPhases: [], drawnPoints: [] }, // timings (ms), read by the browser benchmark
  LabWorker,        // channel.js: a worker with budgets and replacement
  moduleFiles,      // channel.js: the three modules' glue and .wasm addresses
  loadModule,       // channel.js: the runner's or the helper's module on the page (tests)
  helper: null,     // a LabWorker({ kind: "helper" }) for derivations and exports, made at boot
  longRun: null,    // the LabWorker of a long run under way (longrun.js), ended on Cancel
  longRunData: null, // what the long run last sent, redrawn when its canvas resizes
  editor: null,     // the CodeMirror editor, once loaded
  canvasSizes: null, canvasViews: null, // plots.js watchCanvases
  stability: null,  // the stability panel's sweep and where it is drawn
  sliderKey: null, sliderRanges: null, // each slider's range, for as long as the scenario is open
  equationMarkup: new WeakMap(), // each equation row's MathML as the core gave it (laid out again at another width)
  fitted: new WeakSet(), // equation boxes whose nodes a fit may have moved
  equationsToken: 0, refitToken: 0, // the latest equations' rendering and refit (older ones stop)
  sceneTextAt: 0,   // when the scene's text alternative was last written
};
window.nhlabPerf = lab.perf;

function wire(lab) {
  // Long equations are broken to the width of their box: again when it changes, and
  // for the printed page's width.
  let equationsWidth = 0, refit = 0;
  new ResizeObserver(([entry]) => {
    const w = Math.round(entry.contentRect.width);
    if (w === equationsWidth) return;
    equationsWidth = w;
    cancelAnimationFrame(refit);
    refit = requestAnimationFrame((...a) => refitEquations(lab, ...a));
  }).observe($("eq-body"));
  for (const e of ["beforeprint", "afterprint"]) addEventListener(e, (...a) => refitEquationsNow(lab, ...a));
  matchMedia("print").addEventListener("change", (...a) => refitEquationsNow(lab, ...a));
  const gallery = $("gallery");
  const groups = new Map();
  for (const g of lab.api.gallery_entries()) {
    if (!groups.has(g.group)) groups.set(g.group, el("optgroup", { label: t(`gallery.group.${g.group}`), "data-group": g.group }));
    const title = galleryWords(g.name)?.title ?? g.title;
    groups.get(g.group).append(el("option", { value: g.name, text: title, "data-title": title, "data-own-title": g.title }));
  }
  // The classics first, then the papers' examples.
  const order = [...groups.keys()].sort((a, b) => (a === "classic" ? -1 : b === "classic" ? 1 : a.localeCompare(b)));
  gallery.replaceChildren(el("option", { value: "", text: t("gallery.own"), disabled: "", "data-i18n": "gallery.own" }), ...order.map((k) => groups.get(k)));
  $("language").addEventListener("change", () => switchLanguage(lab, $("language").value));
  gallery.addEventListener("change", () => {
    if (!gallery.value) return;
    history.replaceState(null, "", `#gallery=${encodeURIComponent(gallery.value)}${embedSuffix(lab)}`);
    openGallery(lab, gallery.value);
  });
  let timer = null;
  $("editor").addEventListener("scroll", () => { $("gutter").scrollTop = $("editor").scrollTop; });
  $("editor").addEventListener("input", () => {
    renderGutter(lab);
    keepDraftWhileTyping(lab);
    clearTimeout(timer);
    timer = setTimeout(() => {
      lab.galleryName = null;
      load(lab, $("editor").value, { fromEditor: true });
    }, EDIT_DEBOUNCE_MS);
  });
  $("eq-method").addEventListener("change", (...a) => renderEquations(lab, ...a));
  $("share").addEventListener("click", () => openShare(lab, { copy: true }));
  // A menu (the Code menu) closes on Escape, giving the focus back to its button, and
  // on a click outside it, as menus do (issue 60).
  // On a phone the header's actions are folded behind one button: it opens them, and
  // they fold again on Escape or a click outside (issue 60.9).
  const actions = $("actions"), actionsToggle = $("actions-toggle");
  const unfold = (open) => {
    actions.classList.toggle("open", open);
    actionsToggle.setAttribute("aria-expanded", String(open));
  };
  actionsToggle.addEventListener("click", () => unfold(!actions.classList.contains("open")));
  document.addEventListener("click", (e) => {
    for (const menu of document.querySelectorAll("details.menu[open]")) if (!menu.contains(e.target)) menu.open = false;
    if (actions.classList.contains("open") && !actions.contains(e.target) && !actionsToggle.contains(e.target)) unfold(false);
  });
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    const menus = document.querySelectorAll("details.menu[open]");
    for (const menu of menus) {
      menu.open = false;
      menu.querySelector("summary")?.focus();
    }
    if (menus.length === 0 && actions.classList.contains("open") && !document.querySelector("dialog[open]")) {
      unfold(false);
      actionsToggle.focus();
    }
  });
  $("embed-open").addEventListener("click", () => openShare(lab, { copy: false }));
  $("close-share").addEventListener("click", () => $("share-dialog").close());
  // The preview is a lab of its own: it stops when the dialog closes.
  $("share-dialog").addEventListener("close", stopEmbedPreview);
  $("copy-snippet").addEventListener("click", (e) => copyText($("embed-snippet").value, e.currentTarget));
  $("embed-controls").addEventListener("change", (...a) => renderEmbedSnippet(lab, ...a));
  $("embed-panel").addEventListener("change", () => renderEmbedSnippet(lab));
  $("embed-language").addEventListener("change", () => renderEmbedSnippet(lab));
  $("embed-parameters").addEventListener("change", () => renderEmbedSnippet(lab));
  $("embed-height").addEventListener("input", () => renderEmbedSnippet(lab));
  $("help-open").addEventListener("click", () => openHelp(lab, $("help-body").dataset.page ?? "first-system"));
  $("close-help").addEventListener("click", () => $("help-dialog").close());
  for (const tab of document.querySelectorAll(".help-tabs [role=tab]")) tab.addEventListener("click", () => openHelp(lab, tab.dataset.page));
  $("export-toml").addEventListener("click", () => { lab.unshared = false; });
  $("export-toml").addEventListener("click", () => download(`${slug(lab)}.toml`, new Blob([$("editor").value], { type: "application/toml" })));
  $("export-csv").addEventListener("click", (...a) => exportCsv(lab, ...a));
  for (const button of document.querySelectorAll("#export-code button")) {
    button.addEventListener("click", () => exportCode(lab, button.dataset.language));
  }
  window.addEventListener("hashchange", () => {
    const f = parseFragment();
    // Our own replaceState never fires this; a pasted link does.
    const opening = f.share !== null || f.gallery !== null;
    // A pasted link that names another language (what it opens is loaded in it).
    const linked = linkedLanguage();
    if (linked && linked !== language()) {
      lab.linkLanguage = linked;
      switchLanguage(lab, linked, { remember: false, reload: !opening });
    }
    if (opening) openFromFragment(lab);
  });
  window.addEventListener("resize", () => { lab.dirty = true; });
  window.addEventListener("beforeunload", (e) => {
    // Edits not shared or exported since: the browser asks before leaving.
    if (lab.unshared && !lab.embed) { e.preventDefault(); e.returnValue = ""; }
  });
  $("restore-draft").addEventListener("click", (...a) => restoreDraft(lab, ...a));
  $("discard-draft").addEventListener("click", () => { $("restore").hidden = true; forgetDraft(); });
  wireSettings(lab);
  wirePlayback(lab);
  installInputKeys(lab);
  wireStability(lab);
  wireMotion(lab);
  wireProjector(lab);
}

/** The reader chose another language: the page's strings at once, and the running
 *  scenario loaded again (its panels' titles and notes are made as it loads; its runs
 *  start again). Every request tells the workers the language of their texts. */
/** The editor's words in the page's language: the text's name, and the phrases of
 *  CodeMirror's that its parts say (www/editor/editor.js). */
function editorWords() {
  const phrases = { "Completions": "editor.completions", "Selection deleted": "editor.selection-deleted", "Control character": "editor.control-character" };
  return { label: t("side.editor"), phrases: Object.fromEntries(Object.entries(phrases).map(([english, id]) => [english, t(id)])) };
}

function switchLanguage(lab, lang, { remember = true, reload = true } = {}) {
  setLanguage(lang, { remember });
  lab.stability = null; // its notes are made in the helper, in the language it had
  lab.api.set_language(language());
  lab.LabWorker.language = language();
  for (const group of $("gallery").querySelectorAll("optgroup")) group.label = t(`gallery.group.${group.dataset.group}`);
  for (const option of $("gallery").querySelectorAll("option[data-own-title]")) {
    option.dataset.title = galleryWords(option.value)?.title ?? option.dataset.ownTitle;
    option.textContent = option.dataset.title;
  }
  // A link that named its language names the new one.
  if (lab.linkLanguage) lab.linkLanguage = language();
  if (lab.text && reload) {
    // The run again in the new language; then a text typed with problems (the run
    // plays the last good one), so that its problems are said in it too.
    const typed = $("editor").value;
    const problems = lab.status?.kind === "error" && typed !== lab.text;
    load(lab, lab.text, { trusted: true, fromEditor: true }).then(() => { if (problems && $("editor").value === typed) load(lab, typed, { fromEditor: true }); });
  }
  lab.editor?.setLanguage(editorWords());
  if ($("help-dialog").open) openHelp(lab, $("help-body").dataset.page ?? "first-system");
}

function boot(lab, api) {
  if (lab.api) return;
  lab.api = api;
  lab.perf.bootMs = performance.now(); // the page's module is ready (the benchmark's breakdown)
  api.set_language(language());
  // The helper (equations, stability sweeps, exports) starts once the first frame is drawn.
  lab.firstDrawn = new Promise((resolve) => { lab.markFirstDrawn = resolve; });
  lab.helper = new lab.LabWorker({ kind: "helper", respawn: true, lazy: true, after: lab.firstDrawn });
  // Its module is fetched and compiled when something asks: the equations once they
  // come within a screen of the view (equations.js), the stability panel, an export.
  watchCanvases(lab);
  wireLongRun(lab);
  // For the browser tests: a deliberate trap on the page or in the runner.
  window.nhlabTest = {
    trapPage: () => safely(lab, "task.self-test", () => lab.api.self_test_trap()),
    stabilitySpan: () => lab.stability?.span ?? null,
    trapWorker: () => lab.runner.ask("trap"),
    load: (text) => load(lab, text, { fromEditor: true }),   // the benchmark times an edit's whole path
    info: () => lab.info,                              // what the runner's WebLab.info() said
    text: () => lab.text,                              // the text the running lab was built from
    runnerKind: () => lab.runner?.kind,                // which module the playing scenario runs in
    helpHtml: (page, lang) => lab.api.help_html(page, lang), // the Help's pages, for their links
    runs: () => lab.lastRuns,                          // each run's last update: t, q at the clock, …
    benchRhs: (text, count) => lab.helper.ask("benchRhs", { text, count }), // compiled against interpreted, in a worker
    module: (kind) => lab.loadModule(kind),           // the runner's or the helper's module, on the page
  };
  try {
    wire(lab);
    const fragment = location.hash;
    openFromFragment(lab);
    offerDraft(lab, fragment);
    // A link's language the lab does not have: the reader's own (or English), said once.
    const unknown = unknownLinkedLanguage();
    if (unknown !== null) notice(t("language.unknown", { lang: unknown.slice(0, 40), language: LANGUAGES[language()].name }), "info");
  } catch (e) {
    notice(t("error.start", { why: errorText(e) }));
  }
  requestAnimationFrame((...a) => frame(lab, ...a));
}

// The language first: nothing is shown before it is chosen.
setLanguage(chooseLanguage());
lab.linkLanguage = linkedLanguage();
// The runner for the first scenario starts now, beside the page's own module: it has
// its own module, so it waits for nothing the page does.
LabWorker.language = language();
lab.spare = new LabWorker();
$("title").textContent = t("stage.loading"); // until the scenario's title

// The editor (CodeMirror, bundled at build time) takes the textarea's place as soon
// as it has loaded; without it the plain textarea works as before. An embed shows no
// editor, so it never loads it (a course page may hold several embeds).
if (!parseFragment().embed) {
  import("./editor.js")
    .then(({ createEditor }) => {
      lab.editor = createEditor($("editor"), editorWords());
      // A scenario that opened, or failed to, before the editor had loaded: its names
      // and its problems.
      if (lab.info) lab.editor.setNames(editorNames(lab.info));
      if (lab.problems?.length) lab.editor.setProblems(lab.problems);
      lab.perf.editorReadyMs = performance.now(); // the benchmark's "editor ready"
    })
    .catch((e) => console.warn(`the editor did not load; the plain text box stays: ${errorText(e)}`));
}

if (window.wasmBindings) boot(lab, window.wasmBindings);
else addEventListener("TrunkApplicationStarted", () => boot(lab, window.wasmBindings));
