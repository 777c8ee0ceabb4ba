// "Code": the equations as one self-contained source file (C, Python, MATLAB/Octave,
// Rust), made in the helper worker by the core's exporter, so the file is the one
// `nhlab export` writes for the same text (`--out NAME.EXT`, NAME the file's stem).

import { $, clearInfoNotice, download, notice } from "./dom.js";
import { slug } from "./plots.js";
import { t } from "./i18n.js";

const TYPES = { c: "text/x-c", python: "text/x-python", matlab: "text/x-matlab", rust: "text/x-rust" };

export async function exportCode(lab, language) {
  $("export-code").open = false;
  const answer = await lab.helper.ask("exportCode", { text: lab.text, language, name: slug(lab) });
  if (answer.ok) {
    // A note of an earlier export (the CSV's "as played") is not this one's.
    clearInfoNotice();
    download(answer.result.file, new Blob([answer.result.text], { type: TYPES[language] ?? "text/plain" }));
  }
  else if (!answer.cancelled) notice(t("code.failed", { why: answer.error }));
}
