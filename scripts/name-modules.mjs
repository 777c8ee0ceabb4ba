// Trunk's post-build step (Trunk.toml). Trunk names the page's module after its
// content but leaves a worker's files as the crate is named (nhlab-runner.js,
// nhlab-runner_bg.wasm), so a browser could keep a cached copy of an older one.
// This names each worker module after its content, and writes the three modules'
// names into the page (a JSON script element, #nhlab-modules) for www/channel.js,
// with www/early.js after it, which starts the first runner at once.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

const staging = process.env.TRUNK_STAGING_DIR;
if (!staging) throw new Error("name-modules.mjs runs as Trunk's post_build hook (TRUNK_STAGING_DIR is not set)");
const at = (file) => path.join(staging, file);

const modules = {};
for (const kind of ["runner", "helper"]) {
  const js = `nhlab-${kind}.js`;
  const wasm = `nhlab-${kind}_bg.wasm`;
  const hash = createHash("sha256").update(fs.readFileSync(at(js))).update(fs.readFileSync(at(wasm))).digest("hex").slice(0, 16);
  const named = { js: `nhlab-${kind}-${hash}.js`, wasm: `nhlab-${kind}-${hash}_bg.wasm` };
  fs.renameSync(at(js), at(named.js));
  fs.renameSync(at(wasm), at(named.wasm));
  modules[kind] = { js: `./${named.js}`, wasm: `./${named.wasm}` };
}

const html = fs.readFileSync(at("index.html"), "utf8");
if (html.includes('id="nhlab-modules"')) throw new Error("index.html already names the modules");
// The page's own, as Trunk linked it (a fresh instance replaces one that trapped).
const linked = (pattern) => {
  const found = html.match(pattern);
  if (!found) throw new Error(`index.html has no ${pattern}`);
  return found[1];
};
modules.page = { js: linked(/<link rel="modulepreload" href="([^"]+)"/), wasm: linked(/<link rel="preload" href="([^"]+_bg\.wasm)"/) };
// Where the first runner (www/early.js) finds the first scenario's text: the gallery's
// files, which index.html copies into scenarios/, and the item the page opens on.
const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const defaultItem = fs.readFileSync(path.join(root, "www/src/gallery.rs"), "utf8").match(/pub const DEFAULT: &str = "([a-z0-9-]+)";/);
if (!defaultItem) throw new Error("www/src/gallery.rs names no DEFAULT item");
if (!fs.existsSync(at(`scenarios/${defaultItem[1]}.toml`))) throw new Error("index.html does not copy scenarios/ into the page's folder");
modules.gallery = { folder: "./scenarios/", default: defaultItem[1], version: modules.page.wasm.split("/").pop() };
// The first runner starts from the first moment, beside the page's own module
// (www/early.js says how). Before the stylesheet, so that nothing holds it back.
const early = fs.readFileSync(path.join(root, "www/early.js"), "utf8");
if (/<\/script/i.test(early)) throw new Error("www/early.js cannot be inlined: it holds </script");
const tags = `<script type="application/json" id="nhlab-modules">${JSON.stringify(modules)}</script><script>${early}</script>`;
if (!html.includes('<meta charset="utf-8">')) throw new Error("index.html has no <meta charset=\"utf-8\">");
fs.writeFileSync(at("index.html"), html.replace('<meta charset="utf-8">', `<meta charset="utf-8">${tags}`));
