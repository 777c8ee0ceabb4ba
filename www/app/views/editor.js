// @ts-check
// The scenario text: typing runs it after a pause (and keeps it as a draft), the line
// under it says how the text stands, in the page's language, and its problems are
// marked — in the gutter beside the plain text box, or in the CodeMirror editor
// once it has loaded (main.js loads it; `attachEditor` takes it).

import { $, EDIT_DEBOUNCE_MS, el } from "../dom.js";
import { events } from "../events.js";
import { t } from "../i18n.js";
import { state, store } from "../store.js";
import { keepTyping, typed } from "../actions.js";

/** @type {any} the CodeMirror editor, once loaded */
let editor = null;
/** @type {Set<number>} the lines marked as having problems */
let badLines = new Set();
/** @type {{ line: number, column: number, message: string }[]} the text's problems */
let problems = [];

/** The names the editor marks and completes, from a lab's info. */
const editorNames = (/** @type {any} */ info) => ({
  coordinates: info.coordinates.map((/** @type {any} */ c) => c.name),
  parameters: info.parameters.map((/** @type {any} */ p) => p.name),
  definitions: info.definitions ?? [],
});

/** The editor's words in the page's language: the text's name, and the phrases of
 *  CodeMirror's that its parts say (www/editor/editor.js). */
export function editorWords() {
  /** @type {Record<string, string>} */
  const phrases = { "Completions": "editor.completions", "Selection deleted": "editor.selection-deleted", "Control character": "editor.control-character" };
  return { label: t("side.editor"), phrases: Object.fromEntries(Object.entries(phrases).map(([english, id]) => [english, t(id)])) };
}

/** The CodeMirror editor has loaded: it takes the names and problems it missed. */
export function attachEditor(/** @type {any} */ loaded) {
  editor = loaded;
  if (state().info) editor.setNames(editorNames(state().info));
  if (problems.length) editor.setProblems(problems);
}

export function wireEditor() {
  let timer = /** @type {ReturnType<typeof setTimeout> | undefined} */ (undefined);
  $("editor").addEventListener("scroll", () => { $("gutter").scrollTop = $("editor").scrollTop; });
  $("editor").addEventListener("input", () => {
    renderGutter();
    keepTyping();
    clearTimeout(timer);
    timer = setTimeout(typed, EDIT_DEBOUNCE_MS);
  });
  events.on("text-replaced", () => renderGutter());
  store.subscribe(["status"], ({ status }) => { if (status) renderStatus(status); });
  store.subscribe(["info"], ({ info }) => { if (info) editor?.setNames(editorNames(info)); });
  store.subscribe(["language"], () => editor?.setLanguage(editorWords()));
}

/** Shows the status under the editor. An error's lines `line L, column C: field:
 *  what` (as the module writes them, which the page reads for the places) are shown
 *  in the page's language, and their places marked.
 *  @param {{ message: string, kind: string, place: boolean }} status */
function renderStatus({ message, kind, place }) {
  const s = $("editor-status");
  s.className = `editor-status ${kind}`;
  s.textContent = kind === "error" || kind === "warning" ? message.split("\n").map(placed).join("\n") : message;
  const bad = new Set(kind === "error" ? [...message.matchAll(/line (\d+), column \d+/g)].map((m) => Number(m[1])) : []);
  renderGutter(bad);
  problems = kind === "error"
    ? message.split("\n").map((l) => /line (\d+), column (\d+): (.*)$/.exec(l)).filter((m) => m !== null)
      .map((m) => ({ line: Number(m[1]), column: Number(m[2]), message: m[3] }))
    : [];
  editor?.setProblems(problems);
  if (place) highlightProblem(message);
}

/** `line L, column C: field: what` in the page's language (other lines as they are). */
function placed(/** @type {string} */ line) {
  const m = /^line (\d+), column (\d+): ([^:\s]+): (.*)$/s.exec(line);
  return m ? t("problem.at", { line: m[1], column: m[2], field: m[3], problem: m[4] }) : line;
}

/** Line numbers beside the plain text box, `bad` ones marked; scrolled with the text. */
function renderGutter(bad = badLines) {
  badLines = bad;
  if (editor) return; // the editor numbers and marks its own lines
  const gutter = $("gutter");
  const lines = $("editor").value.split("\n").length;
  if (gutter.childElementCount !== lines || gutter.dataset.bad !== [...bad].join(",")) {
    gutter.replaceChildren(...Array.from({ length: lines }, (_, i) => el("span", { class: bad.has(i + 1) ? "bad" : "", text: String(i + 1) })));
    gutter.dataset.bad = [...bad].join(",");
  }
  gutter.scrollTop = $("editor").scrollTop;
}

/** Moves the editor's caret to the first `line L, column C` of an error message
 *  (unless the reader is typing in it). */
function highlightProblem(/** @type {string} */ message) {
  const m = /line (\d+), column (\d+)/.exec(message);
  const box = $("editor");
  if (!m || document.activeElement === box || editor?.hasFocus()) return;
  const lines = box.value.split("\n");
  const line = Math.min(Number(m[1]), lines.length);
  let offset = 0;
  for (let i = 0; i < line - 1; i++) offset += lines[i].length + 1;
  offset += Math.max(0, Number(m[2]) - 1);
  box.setSelectionRange(offset, offset);
}
