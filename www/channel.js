// The page's end of a worker (www/worker.js): requests with answers as promises,
// time budgets, and replacement. Nothing here waits on the page's thread: a worker
// that takes too long is terminated, whatever it is doing.

/** The three modules' wasm-bindgen glue and .wasm, `{page, runner, helper}`, each
 *  `{js, wasm}`, as the build named them in the page (scripts/name-modules.mjs); a
 *  page whose files are not beside it (the notebook widget's, scripts/widget.mjs)
 *  also names `worker` and `channel` there. */
export function moduleFiles() {
  const named = document.getElementById("nhlab-modules");
  return named ? JSON.parse(named.textContent) : {};
}

const blob = async (url) => {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return URL.createObjectURL(new Blob([await response.text()], { type: "text/javascript" }));
};

/** compileStreaming needs the application/wasm type; any static server works
 *  through the buffer. */
const compile = (url) => WebAssembly.compileStreaming(fetch(url))
  .catch(async () => WebAssembly.compile(await (await fetch(url)).arrayBuffer()));

/** The first runner, which the page's head starts before any of the page's scripts
 *  (www/early.js): `{worker, heard, module}`, its Worker, what it said before this
 *  file listened, and the runner's module as the head compiled it. The first runner
 *  the page asks for takes the worker; later runners take the module. */
let early = window.nhlabEarly ?? null;
const earlyModule = early?.module?.catch(() => null) ?? null;

/** What a worker of each kind is made from, fetched and compiled once per kind: the
 *  worker's program and its module's wasm-bindgen glue as blob URLs (so new workers
 *  start without the network, and a cached file never meets a newer module), and
 *  the compiled module (instantiating one is quick). */
const parts = new Map();
const workerUrl = new URL(moduleFiles().worker ?? `worker.js${new URL(import.meta.url).search}`, document.baseURI);
let program = null;

function workerParts(kind) {
  if (!parts.has(kind)) {
    const files = moduleFiles()[kind];
    const made = (async () => {
      if (!files) throw new Error(LabWorker.say("channel.not-named", { kind }));
      program ??= blob(workerUrl);
      const compiled = kind === "runner" && earlyModule ? earlyModule.then((m) => m ?? compile(files.wasm)) : compile(files.wasm);
      const [module, glue, script] = await Promise.all([compiled, blob(files.js), program]);
      performance.mark(`nhlab:${kind}-module-compiled`); // the browser benchmark's breakdown
      return { worker: script, init: { js: glue, module } };
    })();
    made.catch(() => {}); // reported by the first worker that needs it
    parts.set(kind, made);
  }
  return parts.get(kind);
}

/** A module of `kind` instantiated on the page (the browser tests and the benchmark
 *  call what the workers call, without a worker between). */
export async function loadModule(kind) {
  const { init } = await workerParts(kind);
  const api = await import(init.js);
  await api.default({ module_or_path: init.module });
  api.set_language(LabWorker.language);
  return api;
}

export class LabWorker {
  /** The language of the texts workers make (`en`, `zh`), sent with every request:
   *  set by the page. */
  static language = "en";

  /** Says message `id` of the page's catalogue (`channel.*`) with its parameters:
   *  the page sets its translator here as soon as it has imported this file. */
  static say = (id, params = {}) => `${id} ${JSON.stringify(params)}`;

  /** `kind`: `runner` (the scenario that plays) or `helper` (equations, stability
   *  sweeps, exports, the long run): which module the worker runs.
   *  With `respawn`, a worker that is killed (timeout, trap) is replaced at once.
   *  With `lazy`, the worker starts at the first request, and not before `after`
   *  has resolved (the page's first frame: the first scenario does not share the
   *  processor with workers it does not need yet). */
  constructor({ kind = "runner", respawn = false, lazy = false, after = null } = {}) {
    this.kind = kind;
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
    this.timedOut = false;
    const generation = this.generation = (this.generation ?? 0) + 1;
    let markReady;
    this.ready = new Promise((resolve) => { markReady = resolve; });
    this.markReady = markReady;
    const fail = (why) => { this.error = why; markReady(false); };
    if (this.kind === "runner" && early) {
      // The runner the page's head started: listen, and hear what it said meanwhile.
      const { worker, heard } = early;
      early = null;
      this.w = worker;
      this.listen(markReady, fail);
      for (const data of heard) this.w.onmessage({ data });
      return;
    }
    workerParts(this.kind).then(({ worker, init }) => {
      if (this.dead || generation !== this.generation) return;
      try {
        this.w = new Worker(worker, { type: "module" });
      } catch (e) {
        fail(LabWorker.say("channel.old-browser", { why: e.message ?? e }));
        return;
      }
      this.listen(markReady, fail);
      this.w.postMessage({ init });
    }, (e) => fail(LabWorker.say("channel.not-fetched", { why: e.message ?? e })));
  }

  listen(markReady, fail) {
    this.w.onmessage = ({ data }) => {
      if (data.ready !== undefined) {
        if (!data.ready) fail(LabWorker.say("channel.not-started", { why: data.error }));
        else {
          performance.mark("nhlab:worker-ready");
          markReady(true);
        }
        return;
      }
      // The first runner opening the first scenario before the page asks: the
      // part it is in (a load waiting for it blames that part if it runs out of time).
      if (data.speculating !== undefined) { this.speculating = data.speculating; return; }
      const p = this.pending.get(data.id);
      if (!p) return;
      if (data.progress !== undefined) { p.onProgress?.(data.progress); return; }
      this.finish(data.id, data);
      // A trap leaves the instance unusable: this worker is done.
      if (data.trap) this.kill(LabWorker.say("channel.trapped", { why: data.error }));
    };
    this.w.onerror = (e) => {
      e.preventDefault?.();
      this.kill(e.message ? LabWorker.say("channel.failed", { why: e.message }) : LabWorker.say("channel.failed.unknown"));
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
    if (!ok || this.dead) return { ok: false, error: this.error ?? LabWorker.say("channel.stopped"), cancelled: true };
    return new Promise((resolve) => {
      const id = ++this.seq;
      const entry = { resolve, onProgress, timer: null };
      this.pending.set(id, entry);
      if (budgetMs !== null) {
        entry.timer = setTimeout(() => {
          this.finish(id, { ok: false, timeout: true, error: LabWorker.say("channel.stopped-after", { seconds: budgetMs / 1000 }) });
          this.timedOut = true; // (its death is no trap: services/runner.js says so in other words)
          this.kill(LabWorker.say("channel.timed-out"));
        }, budgetMs);
      }
      this.w.postMessage({ id, op, ...payload, locale: LabWorker.language });
    });
  }
}
