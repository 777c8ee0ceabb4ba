// @ts-check
// nhlab web lab: the page's start. Every computation (loading, stepping, plotting,
// deriving, editing the TOML, share payloads, CSV) happens in the wasm modules
// (www/src/api/); the page's JavaScript turns events into calls and results into text.
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
// The modules, in layers (each imports only from the layers before it; the test
// command fails on an import circle or an upward import, tests/page/structure.test.mjs):
//   dom.js, i18n.js, store.js, events.js, perf.js, canvases.js, mathml.js, typeset.js
//       helpers, the page's state (store.js: every field declared) and its events;
//   services/   the wasm modules and workers (modules.js), the running scenario
//       (runner.js), the helper (helper.js), links (links.js), drafts (drafts.js):
//       they publish what happens and import no view;
//   actions.js  everything that changes the state: the only writer of the store;
//   views/      one part of the page each: they read the store, hear its changes and
//       call actions; no view imports another;
//   main.js     this file: starts the page and wires the views, in order.

import { $, errorText } from "./dom.js";
import { LANGUAGES, chooseLanguage, language, t, unknownLinkedLanguage } from "./i18n.js";
import { perf } from "./perf.js";
import { state } from "./store.js";
import { offerDraft, openFromFragment, say, startLanguage, wireActions } from "./actions.js";
import { askHelper, makeHelper } from "./services/helper.js";
import { loadModule, useBindings, useChannel, workersSpeak } from "./services/modules.js";
import { guarded, load, runnerKind, startEarly, trapRunner } from "./services/runner.js";
import { wireControls } from "./views/controls.js";
import { wireDrafts } from "./views/drafts.js";
import { attachEditor, editorWords, wireEditor } from "./views/editor.js";
import { wireEmbed } from "./views/embed.js";
import { wireEquations } from "./views/equations.js";
import { wireExports } from "./views/exports.js";
import { wireHeader } from "./views/header.js";
import { wireHelp } from "./views/help.js";
import { wireHost } from "./views/host.js";
import { wireInfo } from "./views/info.js";
import { wireInputs } from "./views/inputs.js";
import { wireLongRun } from "./views/longrun.js";
import { wireMotion } from "./views/motion.js";
import { wireNotice } from "./views/notice.js";
import { startFrames, wirePlayback } from "./views/playback.js";
import { wirePlots } from "./views/plots.js";
import { wireProjector } from "./views/projector.js";
import { wireShare } from "./views/share.js";
import { stabilitySpan, wireStability } from "./views/stability.js";
import { stabilityMapArea, wireStabilityMap } from "./views/stabilitymap.js";

// channel.js and worker.js are copied as they are (trunk hashes only the page's own
// files): the glue's hashed name versions them, so a cached copy never meets a newer
// module.
const VERSION = new URL(document.querySelector('link[rel="modulepreload"]')?.getAttribute("href") ?? "x:/none", location.href).pathname.split("/").pop() ?? "";
// (An address in a variable: the bundler leaves the import to the browser.) The
// notebook widget's page names its own (scripts/widget.mjs).
const named = JSON.parse(document.getElementById("nhlab-modules")?.textContent ?? "{}").channel;
const channel = named ?? `./channel.js?v=${encodeURIComponent(VERSION)}`;
useChannel(await import(channel));

// The language first: nothing is shown before it is chosen.
startLanguage(chooseLanguage());
workersSpeak(language(), t); // the workers' failures in the page's language
// The runner for the first scenario starts now, beside the page's own module: it has
// its own module, so it waits for nothing the page does.
startEarly();
$("title").textContent = t("stage.loading"); // until the scenario's title

// The editor (CodeMirror, bundled at build time) takes the textarea's place as soon
// as it has loaded; without it the plain textarea works as before. An embed shows no
// editor, so it never loads it (a course page may hold several embeds).
if (!new URLSearchParams(location.hash.replace(/^#/, "")).has("embed") && !new URLSearchParams(location.search).has("embed")) {
  // @ts-ignore: built beside lab.js by Trunk.toml's hook (www/editor/editor.js)
  import("./editor.js")
    .then(({ createEditor }) => {
      attachEditor(createEditor($("editor"), editorWords()));
      perf.editorReadyMs = performance.now(); // the benchmark's "editor ready"
    })
    .catch((e) => console.warn(`the editor did not load; the plain text box stays: ${errorText(e)}`));
}

let booted = false;

/** The page's module is ready: the views are wired, and what the address names opens. */
function boot(/** @type {any} */ api) {
  if (booted) return;
  booted = true;
  useBindings(api);
  perf.bootMs = performance.now(); // the page's module is ready (the benchmark's breakdown)
  api.set_language(language());
  // The helper (equations, stability sweeps, exports) starts once the first frame is
  // drawn; its module is fetched and compiled when something asks: the equations once
  // they come within a screen of the view, the stability panel, an export.
  /** @type {() => void} */
  let firstDrawn = () => {};
  makeHelper(new Promise((resolve) => { firstDrawn = () => resolve(undefined); }));
  // For the browser tests: a deliberate trap on the page or in the runner, and what
  // the page holds.
  /** @type {any} */ (window).nhlabTest = {
    trapPage: () => guarded("task.self-test", () => api.self_test_trap()),
    stabilitySpan,
    stabilityMapArea,
    trapWorker: trapRunner,
    load: (/** @type {string} */ text) => load(text, { fromEditor: true }), // the benchmark times an edit's whole path
    info: () => state().info && { ...state().info, t_end: state().tEnd }, // the runner's WebLab.info(), with the runs' end now
    text: () => state().text,                                   // the text the running lab was built from
    runnerKind,                                                 // which module the playing scenario runs in
    helpHtml: (/** @type {string} */ page, /** @type {string} */ lang) => api.help_html(page, lang), // the Help's pages, for their links
    runs: () => state().runs,                                   // each run's last update: t, q at the clock, …
    benchRhs: (/** @type {string} */ text, /** @type {number} */ count) => askHelper("benchRhs", { text, count }), // compiled against interpreted, in a worker
    module: loadModule,                                         // the runner's or the helper's module, on the page
  };
  try {
    wireActions();
    for (const wire of [wireNotice, wireHeader, wireEmbed, wireInfo, wireEditor, wireControls, wireInputs, wirePlots,
      wireEquations, wireStability, wireStabilityMap, wireLongRun, wireMotion, wirePlayback, wireShare, wireHelp, wireExports, wireDrafts, wireProjector, wireHost]) wire();
    const fragment = location.hash;
    openFromFragment();
    offerDraft(fragment);
    // A link's language the lab does not have: the reader's own (or English), said once.
    const unknown = unknownLinkedLanguage();
    if (unknown !== null) say(t("language.unknown", { lang: unknown.slice(0, 40), language: LANGUAGES[/** @type {"en" | "zh"} */ (language())].name }), "info");
  } catch (e) {
    say(t("error.start", { why: errorText(e) }));
  }
  startFrames(firstDrawn);
}

const page = /** @type {any} */ (window);
if (page.wasmBindings) boot(page.wasmBindings);
else addEventListener("TrunkApplicationStarted", () => boot(page.wasmBindings));
