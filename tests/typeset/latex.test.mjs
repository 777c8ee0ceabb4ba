// The LaTeX `nhlab derive --format latex` prints compiles: every gallery scenario,
// every method it offers, each line given to KaTeX (npm, pinned in package-lock.json)
// in strict mode (no expansion limit: real LaTeX has none), which throws on an unknown
// command, an unbalanced brace, a missing argument or a double subscript.
// Run: node --test tests/typeset/   (needs the release command line: cargo build --release -p nhlab-cli)
import { test } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import katex from "katex";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const CLI = process.env.NHLAB_CLI ?? path.join(ROOT, "target", "release", "nhlab");
const nhlab = (...args) => execFileSync(CLI, args, { encoding: "utf8", maxBuffer: 64 << 20, stdio: ["ignore", "pipe", "pipe"] });

/** The equations of one derivation: lines ending in `\\`, comments (`% …`) left out. */
const equations = (latex) => latex.split("\n").filter((l) => l && !l.startsWith("%")).map((l) => l.replace(/\s*\\\\$/, ""));

/** KaTeX's verdict on one line: null when it compiles, else its message. */
function compileError(line) {
  try {
    katex.renderToString(line, { throwOnError: true, strict: "error", displayMode: true, maxExpand: Infinity });
    return null;
  } catch (e) {
    return e.message;
  }
}

test("KaTeX finds the checker's faults", () => {
  // The check can fail: these are what a printer slip would produce.
  for (const bad of ["\\dot{\\psi", "\\varphii_{1}", "\\frac{a}", "a \\, \\mathit{b_c = 1", "x_{1}_{2}", "\\text{a_b}"]) {
    assert.notEqual(compileError(bad), null, bad);
  }
  assert.equal(compileError("\\dot{\\mu}_{1} = \\frac{m \\, {\\dot{x}}^{2}}{\\cos^{2}\\left(\\varphi\\right)}"), null);
});

const scenarios = fs.readdirSync(path.join(ROOT, "scenarios")).filter((f) => f.endsWith(".toml")).sort();

test("every gallery scenario's equations compile as LaTeX under every method", () => {
  let lines = 0;
  const faults = [];
  for (const file of scenarios) {
    const scenario = path.join(ROOT, "scenarios", file);
    const methods = nhlab("check", scenario).match(/^methods: (.*)$/m)[1].split(", ");
    assert.ok(methods.length >= 1, file);
    for (const method of methods) {
      for (const line of equations(nhlab("derive", "--method", method, "--format", "latex", scenario))) {
        lines += 1;
        const error = compileError(line);
        if (error) faults.push(`${file} ${method}: ${error}\n    ${line.slice(0, 300)}`);
      }
    }
  }
  assert.deepEqual(faults, [], `${faults.length} lines do not compile:\n${faults.slice(0, 20).join("\n")}`);
  assert.ok(lines > 500, `only ${lines} lines checked`);
});

test("labels, multipliers' rates and several-letter names typeset as mathematics", () => {
  const sleigh = equations(nhlab("derive", "--method", "hamel", "--format", "latex", path.join(ROOT, "scenarios", "chaplygin-sleigh.toml"))).join("\n");
  assert.match(sleigh, /^T\^\{\*\} = /m);
  assert.match(sleigh, /^\\Psi_\{x \\varphi\} = /m);
  assert.match(sleigh, /^E_\{\\varphi\} = /m);
  assert.doesNotMatch(sleigh, /[^\x00-\x7f]/, "no character outside ASCII in the equations");
  const vakonomic = equations(nhlab("derive", "--method", "vakonomic", "--format", "latex", path.join(ROOT, "scenarios", "chaplygin-sleigh.toml"))).join("\n");
  assert.match(vakonomic, /\\dot\{\\mu\}_\{1\}/, "the multiplier's rate mudot1 prints as a dotted mu");
  assert.doesNotMatch(vakonomic, /mudot/);
});
