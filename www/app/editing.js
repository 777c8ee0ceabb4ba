// The scenario text's status line and gutter, and edits made by the controls
// (applied to the text by the core, then loaded like typing).

import { renderInfo } from "./controls.js";
import { $, el, errorText } from "./dom.js";
import { keepDraft } from "./drafts.js";
import { load } from "./runner.js";
import { t } from "./i18n.js";

/** Shows `message` under the editor: `kind` `ok`, `warning` or `error`. An error's
 *  lines `line L, column C: field: what` (as the module writes them, which the page
 *  reads for the places) are shown in the page's language. */
export function editorStatus(lab, message, kind) {
  const s = $("editor-status");
  s.className = `editor-status ${kind}`;
  lab.status = { message, kind };
  s.textContent = kind === "error" || kind === "warning" ? message.split("\n").map(placed).join("\n") : message;
  // The lines named by the problems are marked in the gutter, and in the editor the
  // places themselves, with their messages.
  const bad = new Set(kind === "error" ? [...message.matchAll(/line (\d+), column \d+/g)].map((m) => Number(m[1])) : []);
  renderGutter(lab, bad);
  const problems = kind === "error"
    ? message.split("\n").map((l) => /line (\d+), column (\d+): (.*)$/.exec(l)).filter(Boolean).map((m) => ({ line: Number(m[1]), column: Number(m[2]), message: m[3] }))
    : [];
  lab.problems = problems; // (for an editor that loads later)
  lab.editor?.setProblems(problems);
}

/** `line L, column C: field: what` in the page's language (other lines as they are). */
function placed(line) {
  const m = /^line (\d+), column (\d+): ([^:\s]+): (.*)$/s.exec(line);
  return m ? t("problem.at", { line: m[1], column: m[2], field: m[3], problem: m[4] }) : line;
}

/** Line numbers beside the editor, `bad` ones marked; scrolled with the text. */
export function renderGutter(lab, bad = lab.badLines ?? new Set()) {
  lab.badLines = bad;
  if (lab.editor) return; // the editor numbers and marks its own lines
  const gutter = $("gutter");
  const lines = $("editor").value.split("\n").length;
  if (gutter.childElementCount !== lines || gutter.dataset.bad !== [...bad].join(",")) {
    gutter.replaceChildren(...Array.from({ length: lines }, (_, i) => el("span", { class: bad.has(i + 1) ? "bad" : "", text: String(i + 1) })));
    gutter.dataset.bad = [...bad].join(",");
  }
  gutter.scrollTop = $("editor").scrollTop;
}

// ---------- the workers: the running scenario, derivations and exports ----------
//
// The runner (lab.runner) holds the playing scenario and steps it; a new scenario
// is loaded in a new runner, which replaces the old one only once it has loaded, so
// the old run plays on meanwhile and a scenario that fails or takes too long changes
// nothing. The lab.helper derives equations and computes CSV exports.

/** Moves the editor's caret to the first `line L, column C` of an error message. */
export function highlightProblem(lab, message) {
  const m = /line (\d+), column (\d+)/.exec(message);
  const editor = $("editor");
  if (!m || document.activeElement === editor || lab.editor?.hasFocus()) return;
  const lines = editor.value.split("\n");
  const line = Math.min(Number(m[1]), lines.length);
  let offset = 0;
  for (let i = 0; i < line - 1; i++) offset += lines[i].length + 1;
  offset += Math.max(0, Number(m[2]) - 1);
  editor.setSelectionRange(offset, offset);
}

/** Applies one edit (wasm, toml_edit) to the editor's text and reloads. */
export function applyEdit(lab, fn) {
  let text;
  try {
    text = fn($("editor").value);
  } catch (e) {
    editorStatus(lab, t("edit.not-applied", { why: errorText(e) }), "error");
    renderInfo(lab); // put the controls back to the running values
    return;
  }
  $("editor").value = text;
  keepDraft(lab);
  load(lab, text, { fromEditor: true });
}

// ---------- the panels around the plots ----------
