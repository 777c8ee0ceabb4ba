// The first runner, started from the page's head before any of the page's scripts
// (scripts/name-modules.mjs writes this file into index.html, after the modules'
// names, #nhlab-modules). A classic script that throws nothing: whatever fails here
// leaves www/channel.js to start runners as it does for every later one.
//
// Three things run side by side from the first moment, because on a two-core laptop
// each waited for the one before (an embed's first frame was ~500 ms):
//   - the worker starts (100–190 ms before its program runs);
//   - the page fetches and compiles the runner's module, and hands it to the worker;
//   - the page fetches the first scenario's text: the gallery item the address names
//     (`#gallery=`, the build copies scenarios/ beside the page), the text of a share
//     link (`#s=2.…`, inflated here), or the default item. The worker opens it as
//     soon as its module is ready, before the page asks; the page's request to open
//     the same text in the same language takes what it made (www/worker.js), any
//     other request discards it.
// channel.js adopts the worker (window.nhlabEarly) as the page's first runner.
(() => {
  try {
    const modules = JSON.parse(document.getElementById("nhlab-modules").textContent);
    const at = (address) => new URL(address, document.baseURI).href;
    const version = encodeURIComponent(modules.page.js.split("/").pop());
    const worker = new Worker(at(modules.worker ?? `./worker.js?v=${version}`), { type: "module" });
    const early = { worker, heard: [] };
    worker.onmessage = ({ data }) => early.heard.push(data);
    worker.onerror = (e) => { e.preventDefault(); early.heard.push({ ready: false, error: e.message || "its program did not load" }); };
    const js = at(modules.runner.js);
    const wasm = at(modules.runner.wasm);
    worker.postMessage({ prepare: { js } });
    // compileStreaming needs the application/wasm type; any static server works
    // through the buffer.
    early.module = WebAssembly.compileStreaming(fetch(wasm))
      .catch(async () => WebAssembly.compile(await (await fetch(wasm)).arrayBuffer()));
    early.module.then(
      (module) => worker.postMessage({ init: { js, module } }),
      (e) => worker.postMessage({ init: { js, module: null, error: String(e) } }));
    window.nhlabEarly = early;
    firstText(modules.gallery).then((text) => {
      if (text !== null) worker.postMessage({ speculate: { text, locale: language() } });
    }, () => {});
  } catch {
    // channel.js starts the first runner.
  }

  /** The text the page will open first, as www/app/actions.js (openFromFragment) chooses it, or null. */
  async function firstText(gallery) {
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    const shared = params.get("s")?.trim();
    if (shared !== undefined) return shared.startsWith("2.") ? inflate(shared.slice(2)) : null;
    const name = params.get("gallery") ?? gallery.default;
    if (!/^[a-z0-9-]{1,80}$/.test(name)) return null;
    const response = await fetch(new URL(`${gallery.folder}${name}.toml?v=${gallery.version}`, document.baseURI));
    return response.ok ? response.text() : null;
  }

  /** A share link's text: base64url, raw deflate, at most 1 MB (as the core reads it). */
  async function inflate(data) {
    if (data.length > 64 * 1024 || !/^[A-Za-z0-9_-]*$/.test(data)) return null;
    const bytes = Uint8Array.from(atob(data.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
    const reader = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw")).getReader();
    const parts = [];
    let size = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.length;
      if (size > 1024 * 1024) { reader.cancel(); return null; }
      parts.push(value);
    }
    return new TextDecoder("utf-8", { fatal: true }).decode(await new Blob(parts).arrayBuffer());
  }

  /** The page's language, as www/app/i18n.js chooses it: `en` or `zh`. */
  function language() {
    const supported = (tag) => {
      const base = String(tag ?? "").toLowerCase().split(/[-_]/)[0];
      return base === "en" || base === "zh" ? base : null;
    };
    const linked = new URLSearchParams(location.hash.replace(/^#/, "")).get("lang") ?? new URLSearchParams(location.search).get("lang");
    if (supported(linked)) return supported(linked);
    let kept = null;
    try { kept = supported(localStorage.getItem("nhlab:language")); } catch { kept = null; }
    return kept ?? (navigator.languages ?? [navigator.language]).map(supported).find(Boolean) ?? "en";
  }
})();
