// @ts-check
// The wasm modules as the page reaches them: the page's own module (its bindings,
// replaced by a fresh instance after a trap) and channel.js, which makes the workers
// that run the runner's and the helper's modules (www/channel.js: budgets,
// replacement, the modules' addresses).

/** @type {any} */
let bindings = null;
/** @type {any} */
let channel = null;

/** The page's wasm bindings (www/src/api/: WebDisplay, edits, the gallery, drawing). */
export const api = () => bindings;

/** The page's module is ready, or was replaced after a trap. */
export function useBindings(/** @type {any} */ fresh) { bindings = fresh; }

/** channel.js, imported by main.js once the page knows its version. */
export function useChannel(/** @type {any} */ module) { channel = module; }

/** A worker of `kind` (`runner` or `helper`), with `respawn`, `lazy` and `after` as
 *  channel.js's LabWorker takes them. */
export const newWorker = (/** @type {any} */ options = undefined) => new channel.LabWorker(options);

/** The three modules' glue and .wasm addresses. */
export const moduleFiles = () => channel.moduleFiles();

/** The runner's or the helper's module instantiated on the page (the tests). */
export const loadModule = (/** @type {string} */ kind) => channel.loadModule(kind);

/** Tells the workers the language of their texts. */
export function workersSpeak(/** @type {string} */ language, /** @type {(id: string, p?: any) => string} */ say) {
  channel.LabWorker.language = language;
  channel.LabWorker.say = say;
}
