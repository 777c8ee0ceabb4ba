// @ts-check
// The files a reader takes home: the scenario as TOML, the run as CSV (the command
// line's file, computed apart from the playing run; or, once inputs moved by hand,
// the runs as played), and the equations as code ("Code": C, Python, MATLAB/Octave,
// Rust, made by the core's exporter in the helper, as `nhlab export` writes them).

import { $, download, typedText } from "../dom.js";
import { t } from "../i18n.js";
import { state } from "../store.js";
import { clearInfoNotice, say, shared } from "../actions.js";
import { askHelper, replaceHelper } from "../services/helper.js";
import { slug } from "../services/links.js";
import { csvAsPlayed } from "../services/runner.js";

/** @type {Record<string, string>} */
const TYPES = { c: "text/x-c", python: "text/x-python", matlab: "text/x-matlab", rust: "text/x-rust" };

let exporting = false; // a CSV is being computed (its button cancels it)

export function wireExports() {
  $("export-toml").addEventListener("click", () => {
    shared();
    download(`${slug(state())}.toml`, new Blob([typedText()], { type: "application/toml" }));
  });
  $("export-csv").addEventListener("click", exportCsv);
  for (const button of document.querySelectorAll("#export-code button")) {
    button.addEventListener("click", () => exportCode(/** @type {HTMLElement} */ (button).dataset.language ?? "c"));
  }
}

async function exportCsv() {
  const button = $("export-csv");
  if (exporting) { replaceHelper("export cancelled"); return; }
  const s = state();
  if (s.inputsMoved) {
    // Inputs moved by hand: the run cannot be computed again from the text, so the
    // file holds the samples the runs have recorded so far, as played.
    const answer = await csvAsPlayed();
    if (!answer.ok) { say(t("csv.failed", { why: answer.error })); return; }
    download(`${slug(s)}-as-played.csv`, new Blob([answer.result], { type: "text/csv" }));
    say(t("csv.as-played", { t: s.clock.toFixed(3) }), "info");
    return;
  }
  const label = button.textContent;
  exporting = true;
  button.textContent = t("csv.cancel");
  const answer = await askHelper("csv", { text: s.text }, {
    onProgress: (/** @type {number} */ x) => { button.textContent = t("csv.cancel.progress", { percent: Math.round(100 * x) }); },
  });
  exporting = false;
  button.textContent = label;
  if (answer.ok) download(`${slug(s)}.csv`, new Blob([answer.result], { type: "text/csv" }));
  else if (answer.cancelled) say(t("csv.cancelled"), "info");
  else say(t("csv.failed", { why: answer.error }));
}

async function exportCode(/** @type {string} */ language) {
  $("export-code").open = false;
  const answer = await askHelper("exportCode", { text: state().text, language, name: slug(state()) });
  if (answer.ok) {
    // A note of an earlier export (the CSV's "as played") is not this one's.
    clearInfoNotice();
    download(answer.result.file, new Blob([answer.result.text], { type: TYPES[language] ?? "text/plain" }));
  }
  else if (!answer.cancelled) say(t("code.failed", { why: answer.error }));
}
