// The page's JavaScript (www/app/) as docs/architecture.md draws it: modules in
// layers — the leaves (dom, i18n, store, events, …), services/, actions.js, views/,
// main.js — each importing only from the layers before it, no view importing another,
// no import circle, the store written by the actions alone, and every module
// type-checked (tsc --checkJs, www/app/tsconfig.json).

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { test } from "node:test";

const root = resolve(import.meta.dirname, "../..");
const app = join(root, "www/app");

/** Every module of the page, by its path under www/app/. */
function modules() {
  const found = [];
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith(".js")) found.push(relative(app, path));
    }
  };
  walk(app);
  return found.sort();
}

/** The modules `file` imports (static imports, bare or not, and re-exports of relative paths). */
export function importsOf(source, file) {
  const out = [];
  for (const m of source.matchAll(/^\s*(?:(?:import|export)\s[^;]*?from\s+|import\s+)["'](\.[^"']+)["']/gms)) {
    if (m[1].endsWith(".json")) continue;
    out.push(relative(app, resolve(app, dirname(file), m[1])));
  }
  return out;
}

/** The first import circle of `graph` (file → its imports), as a path, or null. */
export function findCircle(graph) {
  const state = new Map(); // 1: on the path, 2: done
  const path = [];
  const visit = (node) => {
    state.set(node, 1);
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 1) return [...path.slice(path.indexOf(next)), next];
      if (!state.has(next)) { const found = visit(next); if (found) return found; }
    }
    path.pop();
    state.set(node, 2);
    return null;
  };
  for (const node of graph.keys()) if (!state.has(node)) { const found = visit(node); if (found) return found; }
  return null;
}

/** The layer of a module: 0 the leaves, 1 services, 2 actions, 3 views, 4 main. */
export function layerOf(file) {
  if (file === "main.js") return 4;
  if (file.startsWith("views/")) return 3;
  if (file === "actions.js") return 2;
  if (file.startsWith("services/")) return 1;
  return 0;
}

const graph = new Map(modules().map((file) => [file, importsOf(readFileSync(join(app, file), "utf8"), file)]));

test("the circle finder finds a circle, and none where there is none", () => {
  assert.deepEqual(findCircle(new Map([["a", ["b"]], ["b", ["c"]], ["c", ["a"]]])), ["a", "b", "c", "a"]);
  assert.equal(findCircle(new Map([["a", ["b", "c"]], ["b", ["c"]], ["c", []]])), null);
  assert.deepEqual(importsOf('import { x } from "../store.js";\nexport { y } from "./z.js";\nimport en from "./i18n/en.json";\nimport "../perf.js";', "views/v.js"), ["store.js", "views/z.js", "perf.js"]);
});

test("the page's modules form no import circle", () => {
  assert.ok(graph.size >= 20, `found ${graph.size} modules under www/app`);
  const circle = findCircle(graph);
  assert.equal(circle, null, `an import circle: ${circle?.join(" → ")}`);
});

test("each module imports only from the layers before it, and no view imports another", () => {
  const upward = [];
  for (const [file, imports] of graph) {
    for (const target of imports) {
      assert.ok(graph.has(target), `${file} imports ${target}, which is not a module of www/app`);
      const [from, to] = [layerOf(file), layerOf(target)];
      const sameAllowed = from === to && (from === 0 || from === 1); // leaves and services may use their own kind
      if (to > from || (to === from && !sameAllowed)) upward.push(`${file} → ${target}`);
    }
  }
  assert.deepEqual(upward, [], `imports against the layers (leaves ← services ← actions ← views ← main):\n${upward.join("\n")}`);
});

test("only the actions write the store", () => {
  const writers = [];
  for (const file of graph.keys()) {
    if (file === "actions.js" || file === "store.js") continue;
    const source = readFileSync(join(app, file), "utf8");
    if (/\bstore\.update\b|\{\s*update\s*\}\s*=\s*store|\.update\(\{/.test(source)) writers.push(file);
  }
  assert.deepEqual(writers, [], `modules other than actions.js that write the store: ${writers.join(", ")}`);
});

test("every module of the page is type-checked, and tsc --checkJs finds nothing", () => {
  const unchecked = [...graph.keys()].filter((file) => !readFileSync(join(app, file), "utf8").startsWith("// @ts-check"));
  assert.deepEqual(unchecked, [], "modules without `// @ts-check` (editors check them too)");
  const tsc = join(root, "node_modules/typescript/bin/tsc");
  try {
    execFileSync(process.execPath, [tsc, "-p", join(app, "tsconfig.json")], { cwd: root, encoding: "utf8", stdio: "pipe" });
  } catch (e) {
    assert.fail(`tsc --checkJs found problems:\n${e.stdout}${e.stderr}`);
  }
});
