// The scenario editor: CodeMirror 6 (bundled at build time by esbuild from npm's
// pinned packages, see Trunk.toml), with TOML highlighting, the scenario's names
// marked inside expressions, completion of those names and the expression
// functions, and the current problems as marks in the text and the gutter.
//
// The page keeps talking to the `<textarea id="editor">` it had before: the editor
// takes the textarea's place and lends it its text (`value`), caret
// (`setSelectionRange`) and focus, and the textarea fires `input` when the user
// types. So the rest of the page, and a page whose bundle failed to load (the plain
// textarea stays), work the same way.

import { EditorState, Annotation, Compartment, RangeSetBuilder, StateEffect, StateField } from "@codemirror/state";
import {
  EditorView, keymap, lineNumbers, highlightActiveLine, highlightActiveLineGutter, drawSelection,
  Decoration, ViewPlugin,
} from "@codemirror/view";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { StreamLanguage, syntaxHighlighting, HighlightStyle, bracketMatching } from "@codemirror/language";
import { autocompletion, completionKeymap, closeBrackets, closeBracketsKeymap } from "@codemirror/autocomplete";
import { setDiagnostics, lintGutter } from "@codemirror/lint";
import { toml } from "@codemirror/legacy-modes/mode/toml";
import { tags } from "@lezer/highlight";

/** The expression language's functions (`nhlab::expr`'s), with their arguments. */
const FUNCTIONS = [
  ["sin", "x"], ["cos", "x"], ["tan", "x"], ["asin", "x"], ["acos", "x"], ["atan", "x"], ["atan2", "y, x"],
  ["sinh", "x"], ["cosh", "x"], ["tanh", "x"], ["exp", "x"], ["ln", "x"], ["sqrt", "x"], ["abs", "x"], ["sign", "x"],
];

/** Marks text set by the page, not typed: it fires no `input`. */
const fromPage = Annotation.define();

/** The scenario's names of the last good load: coordinates, parameters, definitions. */
const setNames = StateEffect.define();
const names = StateField.define({
  create: () => ({ coordinates: [], parameters: [], definitions: [] }),
  update: (value, tr) => tr.effects.reduce((v, e) => (e.is(setNames) ? e.value : v), value),
});

/** Colours of the TOML tokens, from the page's CSS variables (light and dark). */
const highlight = HighlightStyle.define([
  { tag: tags.comment, color: "var(--cm-comment)", fontStyle: "italic" },
  { tag: tags.propertyName, color: "var(--cm-key)" },
  { tag: tags.string, color: "var(--cm-string)" },
  { tag: tags.number, color: "var(--cm-number)" },
  { tag: tags.atom, color: "var(--cm-table)", fontWeight: "600" },
  { tag: tags.bool, color: "var(--cm-number)" },
]);

/** Lines of plain text, not expressions: `title = …`, `description`, `source`,
 *  `name`, `format`, `kind`, `unit`. */
const PROSE = /^\s*"?(title|description|source|name|format|kind|unit|integrator|stabilization)"?\s*=/;

/** Where the comment of a line starts (a `#` outside quotes), or `limit` if it does
 *  not start before. */
function commentStart(text, limit) {
  if (!text.includes("#")) return limit;
  let quote = null;
  for (let i = 0; i < limit; i++) {
    const c = text[i];
    if (quote) { if (c === quote) quote = null; } else if (c === '"' || c === "'") quote = c; else if (c === "#") return i;
  }
  return limit;
}

const WORD = /[A-Za-z0-9_]/;

/** Each known name in the text gets a class by its kind (`x`, `x'`, `m`, `u`, `sin`).
 *  Only the visible part of the text is marked (CodeMirror leaves the unseen part of
 *  a long line out of its visible ranges), and each line is read once: the time per
 *  change is linear in what is visible, whatever the length of a line — a 1 MB line
 *  of `x + x + …` took seconds per key when every name re-read its line's start. */
function nameMarks() {
  const kinds = { coordinate: Decoration.mark({ class: "cm-name-coordinate" }), parameter: Decoration.mark({ class: "cm-name-parameter" }), definition: Decoration.mark({ class: "cm-name-definition" }), function: Decoration.mark({ class: "cm-name-function" }) };
  const functions = new Set(FUNCTIONS.map(([f]) => f));
  const build = (view) => {
    const n = view.state.field(names);
    const kindOf = new Map([
      ...n.definitions.map((d) => [d, "definition"]), ...n.parameters.map((p) => [p, "parameter"]), ...n.coordinates.map((q) => [q, "coordinate"]),
    ]);
    const builder = new RangeSetBuilder();
    const doc = view.state.doc;
    const word = /[A-Za-z_][A-Za-z0-9_]*'?/g;
    for (const { from, to } of view.visibleRanges) {
      for (let pos = from; pos <= to;) {
        const line = doc.lineAt(pos);
        const text = line.text;
        pos = line.to + 1;
        // Not in prose (titles, descriptions, names, units) nor in comments.
        if (PROSE.test(text)) continue;
        let start = Math.max(from, line.from) - line.from;
        while (start > 0 && WORD.test(text[start - 1])) start -= 1; // a name cut by the range
        const stop = commentStart(text, Math.min(to, line.to) - line.from);
        word.lastIndex = start;
        for (let m; (m = word.exec(text)) && m.index < stop;) {
          const primed = m[0].endsWith("'");
          const kind = kindOf.get(primed ? m[0].slice(0, -1) : m[0]);
          const mark = kind === "coordinate" || (kind && !primed) ? kinds[kind]
            : !primed && functions.has(m[0]) && text[m.index + m[0].length] === "(" ? kinds.function : null; // only coordinates have velocities
          if (mark) builder.add(line.from + m.index, line.from + m.index + m[0].length, mark);
        }
      }
    }
    return builder.finish();
  };
  return ViewPlugin.fromClass(class {
    constructor(view) { this.marks = build(view); }
    update(u) {
      const renamed = u.transactions.some((tr) => tr.effects.some((e) => e.is(setNames)));
      if (renamed || u.docChanged || u.viewportChanged) this.marks = build(u.view);
    }
  }, { decorations: (v) => v.marks });
}

/** Completes the scenario's names and the functions from the word before the caret. */
function complete(context) {
  const word = context.matchBefore(/[A-Za-z_][A-Za-z0-9_]*/);
  if (!word || (word.from === word.to && !context.explicit)) return null;
  const n = context.state.field(names);
  const options = [
    ...n.coordinates.flatMap((q) => [{ label: q, type: "variable", detail: "coordinate" }, { label: `${q}'`, type: "variable", detail: "velocity" }]),
    ...n.parameters.map((p) => ({ label: p, type: "constant", detail: "parameter" })),
    ...n.definitions.map((d) => ({ label: d, type: "variable", detail: "definition" })),
    ...FUNCTIONS.map(([f, args]) => ({ label: f, type: "function", detail: `(${args})`, apply: `${f}(` })),
    { label: "t", type: "variable", detail: "time" },
  ];
  return { from: word.from, options, validFor: /^[A-Za-z0-9_]*'?$/ };
}

/** The editor's own words in the page's language: CodeMirror's phrases (what a screen
 *  reader hears: "Completions", "Selection deleted") and the text's accessible name. */
const words = new Compartment();
const wordsOf = ({ phrases = {}, label = "Scenario TOML" } = {}) =>
  [EditorState.phrases.of(phrases), EditorView.contentAttributes.of({ "aria-label": label })];

/** Replaces `textarea` by an editor that lends it its text, caret and focus;
 *  `language`: `{phrases, label}`, the editor's words (see `setLanguage`). */
export function createEditor(textarea, language = {}) {
  const native = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value");
  const parent = document.createElement("div");
  parent.id = "editor-view";
  parent.className = "editor-view";
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: textarea.value,
      extensions: [
        lineNumbers(), highlightActiveLineGutter(), lintGutter(), history(), drawSelection(), highlightActiveLine(),
        bracketMatching(), closeBrackets(), autocompletion({ override: [complete], icons: false }),
        StreamLanguage.define(toml), syntaxHighlighting(highlight), names, nameMarks(),
        // Tab is not taken: it leaves the text, as everywhere else on the page (issue
        // 60: each Tab indented, a trap for the keyboard); Mod-] and Mod-[ indent
        // (defaultKeymap), as the line under the editor says.
        keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap]),
        EditorView.contentAttributes.of({ tabindex: "0", "aria-describedby": "editor-keys editor-status", spellcheck: "false", autocapitalize: "off", autocorrect: "off" }),
        words.of(wordsOf({ label: textarea.getAttribute("aria-label") ?? undefined, ...language })),
        EditorView.updateListener.of((u) => {
          if (!u.docChanged) return;
          // The textarea's own value follows too: scripts in other worlds (extensions,
          // test drivers) read the element, not this page's accessors.
          native.set.call(textarea, u.state.doc.toString());
          if (!u.transactions.some((tr) => tr.annotation(fromPage))) textarea.dispatchEvent(new Event("input"));
        }),
      ],
    }),
  });
  textarea.after(parent);
  textarea.hidden = true;
  // The textarea's own value is no longer read or shown: its accessors go to the editor.
  Object.defineProperty(textarea, "value", {
    configurable: true,
    get: () => view.state.doc.toString(),
    set: (text) => {
      const now = view.state.doc.toString();
      if (text === now) return;
      view.dispatch({ changes: { from: 0, to: now.length, insert: text }, annotations: fromPage.of(true) });
    },
  });
  textarea.setSelectionRange = (from, to) => {
    const end = view.state.doc.length;
    view.dispatch({ selection: { anchor: Math.min(from, end), head: Math.min(to, end) }, scrollIntoView: true });
  };
  textarea.focus = () => view.focus();
  return {
    view,
    /** Whether the user is in the editor (the page then leaves the caret alone). */
    hasFocus: () => view.hasFocus,
    /** The editor's words in another language: `{phrases, label}`. */
    setLanguage: (language) => view.dispatch({ effects: words.reconfigure(wordsOf(language)) }),
    /** The names to mark and complete: `{coordinates, parameters, definitions}`. */
    setNames: (value) => view.dispatch({ effects: setNames.of(value) }),
    /** The current problems, `[{line, column, message}]` (1-based), marked in place. */
    setProblems: (problems) => {
      const doc = view.state.doc;
      const diagnostics = problems
        .filter((p) => p.line >= 1 && p.line <= doc.lines)
        .map((p) => {
          const line = doc.line(p.line);
          const from = Math.min(line.from + Math.max(0, (p.column ?? 1) - 1), line.to);
          // The name at the place (`w'`), else one character.
          const rest = doc.sliceString(from, line.to);
          const length = Math.max(1, /^[A-Za-z0-9_]*'?/.exec(rest)[0].length);
          return { from, to: Math.min(from + length, line.to), severity: "error", message: p.message };
        });
      view.dispatch(setDiagnostics(view.state, diagnostics));
    },
  };
}
