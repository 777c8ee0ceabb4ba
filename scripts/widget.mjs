// Packs the notebook widget's ES module (python/nhlab/static/lab.mjs) from the built
// page (dist/, `trunk build`) and the widget's WebAssembly module (target/widget/,
// scripts/widget.sh): www/widget/widget.js bundled by esbuild, with the page's files
// and the module in one xz archive inlined as base64 (www/widget/widget.js says why).
// Prints the module's size, raw and brotli, against its budget — the page's and the
// runner's modules together (brotli) + 10 % (issue 61) — and fails over it.
//
//     node scripts/widget.mjs [DIST] [OUT]
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import * as esbuild from "esbuild";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const dist = path.resolve(process.argv[2] ?? path.join(root, "dist"));
const out = path.resolve(process.argv[3] ?? path.join(root, "python/nhlab/static/lab.mjs"));
const built = path.join(root, "target/widget");

const read = (file) => fs.readFileSync(file);
const must = (found, what) => { if (!found) throw new Error(`widget.mjs: ${what}`); return found; };

// ---------- the page, its addresses made placeholders ----------
const html = read(path.join(dist, "index.html")).toString("utf8");
const modules = JSON.parse(must(html.match(/<script type="application\/json" id="nhlab-modules">(.*?)<\/script>/s), "dist/index.html names no modules (scripts/name-modules.mjs)")[1]);
const css = must(html.match(/<link rel="stylesheet" href="\.\/([^"]+\.css)"[^>]*>/), "dist/index.html links no stylesheet")[1];
const pageJs = modules.page.js.replace(/^\.\//, "");
const pageWasm = modules.page.wasm.replace(/^\.\//, "");
let page = html
  .replace(/(<script type="application\/json" id="nhlab-modules">).*?(<\/script>)/s, "$1@@MODULES@@$2")
  .replace(/<link rel="(?:modulepreload|preload)"[^>]*>/g, "")
  .replace(/<script src="\.\/app-[^"]+\.js"[^>]*><\/script>/, '<script type="module" src="@@LAB_JS@@"></script>')
  .replaceAll(`'./${pageJs}'`, "'@@PAGE_JS@@'")
  .replaceAll(`'./${pageWasm}'`, "'@@PAGE_WASM@@'");
const styleSheet = read(path.join(dist, css)).toString("utf8");
must(!/<\/style/i.test(styleSheet), "the stylesheet holds </style");
let inlined = false;
page = page.replace(/<link rel="stylesheet" href="\.\/[^"]+\.css"[^>]*>/g, () => (inlined ? "" : ((inlined = true), `<style>${styleSheet}</style>`)));
for (const mark of ["@@MODULES@@", "@@LAB_JS@@", "@@PAGE_JS@@", "@@PAGE_WASM@@"]) must(page.includes(mark), `the page's ${mark} was not found (has Trunk's output changed?)`);
// Nothing else of the page's folder may be asked for: it is not there. ("Open in the
// full lab", `href="./"`, is made the page's own address by the embed.)
const stray = page.match(/(?:src|href)="\.\/[^"]+"/);
must(!stray, `the page still refers to ${stray?.[0]}`);

// ---------- the archive ----------
const files = {
  "page.html": Buffer.from(page),
  "lab.js": read(path.join(dist, "lab.js")),
  "channel.js": read(path.join(dist, "channel.js")),
  "worker.js": read(path.join(dist, "worker.js")),
  "glue.js": read(path.join(built, "nhlab_widget.js")),
  "module.wasm": read(path.join(built, "nhlab_widget_opt.wasm")),
};
const index = { default: modules.gallery?.default ?? "" };
let offset = 0;
for (const [name, bytes] of Object.entries(files)) { index[name] = [offset, bytes.length]; offset += bytes.length; }
const indexBytes = Buffer.from(JSON.stringify(index));
const header = Buffer.alloc(4);
header.writeUInt32LE(indexBytes.length);
const archive = Buffer.concat([header, indexBytes, ...Object.values(files)]);
// crc32: the decoder (xz-embedded) checks it; the dictionary covers the whole archive.
const xz = execFileSync("xz", ["--format=xz", "--check=crc32", "--lzma2=preset=9e,dict=16MiB", "-c"], { input: archive, maxBuffer: 1 << 28 });

// ---------- the module ----------
const bundled = await esbuild.build({
  entryPoints: [path.join(root, "www/widget/widget.js")],
  bundle: true, format: "esm", platform: "browser", minify: true, write: false, logLevel: "warning",
});
const code = bundled.outputFiles[0].text;
must(code.split("@@NHLAB_ARCHIVE@@").length === 2, "the widget's source names its archive once");
const module = code.replace("@@NHLAB_ARCHIVE@@", () => xz.toString("base64"));
fs.mkdirSync(path.dirname(out), { recursive: true });
fs.writeFileSync(out, module);

// ---------- its size, against the budget ----------
const brotli = (bytes) => zlib.brotliCompressSync(bytes, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }).length;
const budget = Math.floor(1.1 * (brotli(read(path.join(dist, pageWasm))) + brotli(read(path.join(dist, modules.runner.wasm)))));
const size = brotli(Buffer.from(module));
const kib = (n) => `${Math.round(n / 1024).toLocaleString("en")} KiB`;
console.log(`${path.relative(root, out)}: ${kib(module.length)} raw, ${kib(size)} brotli (budget ${kib(budget)}: the page's and the runner's modules, brotli, + 10 %); archive ${kib(archive.length)} unpacked`);
if (size > budget) {
  console.error(`widget.mjs: the widget's module is over its budget by ${kib(size - budget)}`);
  process.exit(1);
}
