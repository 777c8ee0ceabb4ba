// The page's end of a worker (www/worker.js): requests with answers as promises,
// time budgets, and replacement. Nothing here waits on the page's thread: a worker
// that takes too long is terminated, whatever it is doing.

/** What every worker is made from, fetched and compiled once: the worker's program
 *  and the wasm-bindgen glue as blob URLs (so new workers start without the network,
 *  and a cached file never meets a newer module), and the compiled module
 *  (instantiating one is quick). */
let shared = null;

/** The wasm-bindgen glue and the .wasm, as trunk named them in the page. */
export function moduleFiles() {
  return {
    js: document.querySelector('link[rel="modulepreload"]')?.href,
    wasm: document.querySelector('link[rel="preload"][as="fetch"]')?.href,
  };
}

const blob = async (url) => {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return URL.createObjectURL(new Blob([await response.text()], { type: "text/javascript" }));
};

/** The workers' program and the glue as blob URLs, fetched as soon as this file is
 *  imported (before the page's module is ready), both at once. */
const scripts = (() => {
  const { js } = moduleFiles();
  if (!js) return Promise.reject(new Error("the module's files are not named in the page"));
  const worker = new URL(`worker.js${new URL(import.meta.url).search}`, document.baseURI);
  return Promise.all([blob(worker), blob(js)]);
})();
scripts.catch(() => {}); // reported by the first worker that needs them

function workerParts() {
  if (!shared) {
    const { js, wasm } = moduleFiles();
    shared = (async () => {
      if (!js || !wasm) throw new Error("the module's files are not named in the page");
      // The page's own instance's module, compiled once; else (no page instance yet)
      // compiled here: compileStreaming needs the application/wasm type, any static
      // server works through the buffer.
      const module = window.wasmBindings?.compiled_module?.()
        ?? await WebAssembly.compileStreaming(fetch(wasm)).catch(async () => WebAssembly.compile(await (await fetch(wasm)).arrayBuffer()));
      const [worker, glue] = await scripts;
      performance.mark("nhlab:worker-module-compiled"); // the browser benchmark's breakdown
      return { worker, init: { js: glue, module } };
    })();
  }
  return shared;
}

export class LabWorker {
  /** The language of the texts new workers make (`en`, `zh`): set by the page. */
  static language = "en";

  /** With `respawn`, a worker that is killed (timeout, trap) is replaced at once.
   *  With `lazy`, the worker starts at the first request, and not before `after`
   *  has resolved (the page's first frame: the first scenario does not share the
   *  processor with workers it does not need yet). */
  constructor({ respawn = false, lazy = false, after = null } = {}) {
    this.respawn = respawn;
    this.seq = 0;
    this.pending = new Map();
    this.idle = lazy;
    this.after = after;
    if (!lazy) this.start();
  }

  /** A lazy worker's start, at its first request (after `after`). */
  wake() {
    this.idle = false;
    if (!this.after) { this.start(); return; }
    const generation = this.generation;
    this.ready = this.after.then(() => {
      if (this.generation === generation) this.start(); // not started meanwhile (replace)
      return this.ready;
    });
  }

  /** A fresh worker; `ready` resolves once it has instantiated the module (budgets
   *  start then: compiling is not the scenario's fault). */
  start() {
    this.dead = false;
    this.error = null;
    const generation = this.generation = (this.generation ?? 0) + 1;
    let markReady;
    this.ready = new Promise((resolve) => { markReady = resolve; });
    this.markReady = markReady;
    const fail = (why) => { this.error = why; markReady(false); };
    workerParts().then(({ worker, init }) => {
      if (this.dead || generation !== this.generation) return;
      try {
        this.w = new Worker(worker, { type: "module" });
      } catch (e) {
        fail(`this browser cannot run the lab's worker (module workers need Chrome 80, Safari 15 or Firefox 114 or later): ${e.message ?? e}`);
        return;
      }
      this.listen(markReady, fail);
      this.w.postMessage({ init, language: LabWorker.language });
    }, (e) => fail(`the lab's worker could not be fetched: ${e.message ?? e}`));
  }

  listen(markReady, fail) {
    this.w.onmessage = ({ data }) => {
      if (data.ready !== undefined) {
        if (!data.ready) fail(`the lab's worker could not start: ${data.error}`);
        else {
          performance.mark("nhlab:worker-ready");
          markReady(true);
        }
        return;
      }
      const p = this.pending.get(data.id);
      if (!p) return;
      if (data.progress !== undefined) { p.onProgress?.(data.progress); return; }
      this.finish(data.id, data);
      // A trap leaves the instance unusable: this worker is done.
      if (data.trap) this.kill(`its wasm instance trapped (${data.error})`);
    };
    this.w.onerror = (e) => {
      e.preventDefault?.();
      this.kill(`it failed: ${e.message || "an error"}`);
      markReady(false);
    };
  }

  finish(id, answer) {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    clearTimeout(p.timer);
    p.resolve(answer);
  }

  /** Terminates the worker; every open request answers {ok: false, cancelled: true}. */
  kill(why) {
    if (this.dead) return;
    this.dead = true;
    this.error = why;
    this.w?.terminate();
    this.w = null;
    this.markReady?.(false); // requests still waiting for it to start are refused
    for (const id of [...this.pending.keys()]) this.finish(id, { ok: false, error: why, cancelled: true });
    this.onDeath?.(why);
    if (this.respawn) this.start();
  }

  /** Kills this worker and starts a fresh one in its place. */
  replace(why) {
    if (this.idle) return; // not started: nothing to replace
    const { onDeath, respawn } = this;
    Object.assign(this, { onDeath: null, respawn: false });
    this.kill(why);
    Object.assign(this, { onDeath, respawn });
    this.start();
  }

  /** Asks the worker; resolves to {ok: true, result} or {ok: false, error, timeout?,
   *  cancelled?, trap?}. With a budget (ms, from when the worker is ready), a worker
   *  that has not answered in time is killed and the answer says timeout. */
  async ask(op, payload = {}, { budgetMs = null, onProgress = null } = {}) {
    if (this.idle) this.wake();
    const ok = await this.ready;
    if (!ok || this.dead) return { ok: false, error: this.error ?? "the worker has stopped", cancelled: true };
    return new Promise((resolve) => {
      const id = ++this.seq;
      const entry = { resolve, onProgress, timer: null };
      this.pending.set(id, entry);
      if (budgetMs !== null) {
        entry.timer = setTimeout(() => {
          this.finish(id, { ok: false, timeout: true, error: `stopped after ${budgetMs / 1000} s` });
          this.kill("timed out");
        }, budgetMs);
      }
      this.w.postMessage({ id, op, ...payload });
    });
  }
}
