// @ts-check
// The host's messages: a page that frames the lab (the notebook widget, a course
// page's own script) sets what plays and hears what plays, by postMessage. Only the
// framing page is heard (a message from any other window is ignored); it can do no
// more than a link to the lab can, so no origin is required of it.
//
//   to the lab    {type: "nhlab:set", scenario?, parameters?, inputs?, methods?, t?,
//                  playing?, language?, visible?}   each field optional; applied in
//                  that order (a scenario first, then values edited into it)
//   from the lab  {type: "nhlab:state", scenario, title, parameters, inputs, methods,
//                  t, t_end, playing, language, loaded, error}   on every change (the
//                  clock alone at most every CLOCK_MS while playing)
//
// docs/lab.md ("The lab in a frame") documents both for hosts.

import { errorText } from "../dom.js";
import { state, store } from "../store.js";
import { chooseLanguage, edit, moveInput, openText, play, say, seek } from "../actions.js";
import { api } from "../services/modules.js";

/** The clock's messages while playing, at most one per this many ms. */
const CLOCK_MS = 200;

export function wireHost() {
  if (window.parent === window) return;
  let queue = Promise.resolve();
  addEventListener("message", (event) => {
    if (event.source !== window.parent || event.data?.type !== "nhlab:set") return;
    const message = event.data;
    // One after another: a scenario's load finishes before the values edited into it.
    queue = queue.then(() => apply(message)).catch((e) => say(errorText(e)));
  });
  let timer = /** @type {any} */ (null);
  let lastPost = 0;
  store.subscribe(["text", "info", "playing", "language", "inputValues", "status", "notice", "loaded", "tEnd"], () => {
    clearTimeout(timer);
    post();
  });
  store.subscribe(["clock"], () => {
    clearTimeout(timer);
    const wait = lastPost + CLOCK_MS - performance.now();
    if (wait <= 0) post();
    else timer = setTimeout(post, wait); // the last clock always arrives
  });
  function post() {
    lastPost = performance.now();
    const message = hostState();
    if (message) window.parent.postMessage(message, "*");
  }
}

/** What plays, for the host (null before the first scenario has loaded). */
function hostState() {
  const s = state();
  if (!s.info) return null;
  return {
    type: "nhlab:state",
    scenario: s.text,
    title: s.info.title ?? "",
    parameters: Object.fromEntries(s.info.parameters.map((/** @type {any} */ p) => [p.name, p.value])),
    inputs: s.inputValues,
    methods: [...s.info.methods],
    t: s.clock,
    t_end: s.tEnd,
    playing: s.playing,
    language: s.language,
    loaded: s.loaded,
    error: s.status?.kind === "error" ? s.status.message : s.notice?.kind === "error" ? s.notice.message : null,
  };
}

/** Whether the host paused the lab by hiding it (it plays again when shown). */
let hiddenWhilePlaying = false;

/** Applies one `nhlab:set`: what is new in it, in order. */
async function apply(/** @type {any} */ m) {
  if (typeof m.scenario === "string" && m.scenario !== state().text) {
    if ((await openText(m.scenario)) === false) return; // its problems are said, and sent back as `error`
  }
  const info = state().info;
  if (!info) return;
  if (m.parameters && typeof m.parameters === "object") {
    const now = new Map(info.parameters.map((/** @type {any} */ p) => [p.name, p.value]));
    const unknown = Object.keys(m.parameters).filter((n) => !now.has(n));
    if (unknown.length) throw new Error(`no parameter ${unknown.map((n) => `\`${n}\``).join(", ")} in this scenario (it has ${[...now.keys()].join(", ") || "none"})`);
    const changed = Object.entries(m.parameters).filter(([n, v]) => Number(v) !== now.get(n));
    if (changed.length) await edit((text) => changed.reduce((t, [n, v]) => api().edit_number(t, `parameters.${n}`, Number(v)), text));
  }
  if (Array.isArray(m.methods) && m.methods.length && m.methods.join() !== state().info.methods.join()) {
    await edit((text) => api().edit_list(text, "run.methods", m.methods.map(String)));
  }
  if (m.inputs && typeof m.inputs === "object") {
    for (const [name, value] of Object.entries(m.inputs)) {
      const input = state().info.inputs?.find((/** @type {any} */ i) => i.name === name);
      if (!input || input.slot === null || input.slot === undefined) throw new Error(`no input \`${name}\` taken as an argument in this scenario`);
      if (Number(value) !== state().inputValues[name]) moveInput(input.slot, Number(value));
    }
  }
  if (typeof m.t === "number" && Number.isFinite(m.t) && Math.abs(m.t - state().clock) > 1e-9) seek(m.t);
  if (typeof m.playing === "boolean" && m.playing !== state().playing) play();
  if ((m.language === "en" || m.language === "zh") && m.language !== state().language) chooseLanguage(m.language, { remember: false });
  if (m.visible === false && state().playing) { hiddenWhilePlaying = true; play(); }
  if (m.visible === true && hiddenWhilePlaying) { hiddenWhilePlaying = false; if (!state().playing) play(); }
}
