// The notebook widget (anywidget's ES module, python/nhlab/widget.py): the lab's page
// in an iframe, as the page's embed shows it, with its traits kept in step both ways
// through the page's host messages (www/app/views/host.js).
//
// Self-contained: scripts/widget.mjs bundles this file with the whole lab — the page
// (its HTML, lab.js, channel.js, worker.js, the stylesheet) and one WebAssembly
// module with the page's, the runner's and the helper's exports (www/modules/widget)
// — packed in one xz archive inlined below as base64. Nothing is fetched: the files
// become blob: addresses of this document, and the iframe's page is one of them
// (a blob document has its creator's origin, so its workers and modules load). One
// module instead of three carries the core once; xz packs it 3 % smaller than
// brotli, and the archive's base64 costs little once a server compresses the module
// (docs/benchmarks.md gives the sizes).
//
// The model's traits: scenario, parameters, inputs, methods, t, playing, language
// (both ways); panel, controls, height (how it shows, from Python); error and title
// (from the lab).

import { XzReadableStream } from "xz-decompress";

/** The archive (scripts/widget.mjs writes it here). */
const ARCHIVE = "@@NHLAB_ARCHIVE@@";

/** While playing, the clock reaches Python at most every this many ms. */
const CLOCK_SYNC_MS = 500;

/** The height of a lab before its page says its own, in CSS pixels. */
const FIRST_HEIGHT = 420;

/** The files' blob: addresses, made once for every lab in this document. */
let unpacked = null;

function files() {
  unpacked ??= (async () => {
    const packed = Uint8Array.from(atob(ARCHIVE), (c) => c.charCodeAt(0));
    const bytes = new Uint8Array(await new Response(new XzReadableStream(new Blob([packed]).stream())).arrayBuffer());
    // The archive: a little-endian u32, the length of the JSON index after it
    // ({name: [offset, length]} into what follows the index), then the files.
    const indexLength = new DataView(bytes.buffer).getUint32(0, true);
    const index = JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + indexLength)));
    const start = 4 + indexLength;
    const file = (name) => bytes.subarray(start + index[name][0], start + index[name][0] + index[name][1]);
    const url = (name, type) => URL.createObjectURL(new Blob([file(name)], { type }));
    const js = "text/javascript";
    const module = { js: url("glue.js", js), wasm: url("module.wasm", "application/wasm") };
    const modules = {
      page: module, runner: module, helper: module,
      worker: url("worker.js", js), channel: url("channel.js", js),
      gallery: { folder: "./scenarios/", default: index["default"] ?? "", version: "widget" },
    };
    const page = new TextDecoder().decode(file("page.html"))
      .replace("@@MODULES@@", () => JSON.stringify(modules).replace(/</g, "\\u003c"))
      .replaceAll("@@PAGE_JS@@", module.js)
      .replaceAll("@@PAGE_WASM@@", module.wasm)
      .replace("@@LAB_JS@@", url("lab.js", js));
    return { page: URL.createObjectURL(new Blob([page], { type: "text/html" })) };
  })();
  return unpacked;
}

/** A share link's payload for `text` (`2.` and its raw deflate in base64url, as the
 *  core writes it), or null when it is too long for a link. */
async function payload(text) {
  const deflated = new Uint8Array(await new Response(new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer());
  let binary = "";
  for (let i = 0; i < deflated.length; i += 0x8000) binary += String.fromCharCode(...deflated.subarray(i, i + 0x8000));
  const encoded = `2.${btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")}`;
  return encoded.length <= 64 * 1024 ? encoded : null;
}

/** The page's fragment for the model: its scenario and how the embed shows. */
async function fragment(model) {
  const shown = new URLSearchParams();
  const text = model.get("scenario") ?? "";
  const link = text ? await payload(text) : null;
  const parts = [link ? `s=${link}` : null, "embed"];
  const controls = model.get("controls") ?? [];
  if (controls.length) shown.set("controls", controls.join(","));
  if (model.get("panel")) shown.set("panel", model.get("panel"));
  if (model.get("language")) shown.set("lang", model.get("language"));
  return { hash: [...parts.filter(Boolean), shown.toString()].filter(Boolean).join("&"), sendText: text && !link };
}

/** What the page says of a value and what the model holds are the same. */
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

async function render({ model, el }) {
  const frame = document.createElement("iframe");
  frame.title = "nhlab";
  frame.className = "nhlab-lab";
  frame.style.cssText = `display:block;width:100%;border:0;height:${model.get("height") || FIRST_HEIGHT}px`;
  el.append(frame);
  const { page } = await files();
  const { hash, sendText } = await fragment(model);
  const send = (message) => frame.contentWindow?.postMessage({ type: "nhlab:set", ...message }, "*");
  let heard = null;        // the page's last state
  let clockSynced = 0;
  const onMessage = (event) => {
    if (event.source !== frame.contentWindow) return;
    const m = event.data;
    if (m?.type === "nhlab:height" && !model.get("height")) frame.style.height = `${m.height}px`;
    if (m?.type !== "nhlab:state") return;
    const first = heard === null;
    heard = m;
    // What the page could not hear before it listened: a text too long for its
    // address, and a lab already out of view.
    if (first && sendText) send({ scenario: model.get("scenario") });
    if (first && !inView) send({ visible: false });
    // Values the model was given beside its text (set in Python before the lab
    // showed, or saved with a page) win over the text's.
    if (first) {
      const given = {};
      for (const key of ["parameters", "inputs", "methods"]) {
        const value = model.get(key);
        const empty = value === undefined || value === null || (Array.isArray(value) ? !value.length : !Object.keys(value).length);
        if (!empty && !same(value, key === "methods" ? m.methods : Object.fromEntries(Object.keys(value).map((k) => [k, m[key]?.[k]])))) given[key] = value;
      }
      if (Object.keys(given).length) { send(given); return; }
    }
    const changed = {};
    for (const key of ["scenario", "parameters", "inputs", "methods", "playing", "language", "title", "error", "loaded"]) {
      const value = key === "error" ? m.error ?? "" : m[key];
      if (value !== undefined && !same(value, model.get(key))) changed[key] = value;
    }
    const now = performance.now();
    if (m.t !== model.get("t") && (!m.playing || now - clockSynced >= CLOCK_SYNC_MS || Object.keys(changed).length)) {
      changed.t = m.t;
      clockSynced = now;
    }
    if (!Object.keys(changed).length) return;
    for (const [key, value] of Object.entries(changed)) model.set(key, value);
    model.save_changes();
  };
  window.addEventListener("message", onMessage);
  // From Python: what differs from what the page said last.
  const forward = (key) => () => {
    const value = model.get(key);
    if (heard && same(value, heard[key])) return;
    send({ [key]: value });
  };
  const keys = ["scenario", "parameters", "inputs", "methods", "t", "playing", "language"];
  const handlers = keys.map((key) => [`change:${key}`, forward(key)]);
  for (const [name, fn] of handlers) model.on(name, fn);
  const onHeight = () => { if (model.get("height")) frame.style.height = `${model.get("height")}px`; };
  model.on("change:height", onHeight);
  // A lab out of view pauses (its runner idles), and plays on when back in view.
  let inView = true;
  const seen = new IntersectionObserver((entries) => {
    inView = entries.at(-1).isIntersecting;
    send({ visible: inView });
  });
  seen.observe(frame);
  frame.src = `${page}#${hash}`;
  return () => {
    window.removeEventListener("message", onMessage);
    for (const [name, fn] of handlers) model.off(name, fn);
    model.off("change:height", onHeight);
    seen.disconnect();
    frame.remove(); // its page, workers and modules go with it
  };
}

export default { render };
