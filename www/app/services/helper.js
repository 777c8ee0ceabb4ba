// @ts-check
// The helper: a worker for what the playing run does not need — derivations, the
// stability sweep, exports — made at boot and started once the first frame is drawn
// (its module is the largest); a request that overruns its budget replaces it.

import { newWorker } from "./modules.js";

/** @type {any} */
let helper = null;

/** Makes the helper, to start after `after` (the first frame drawn). */
export function makeHelper(/** @type {Promise<void>} */ after) {
  helper = newWorker({ kind: "helper", respawn: true, lazy: true, after });
}

/** Asks the helper (channel.js's `ask`: `{ok, result}` or `{ok: false, error, timeout, cancelled}`).
 *  @param {string} what @param {any} payload @param {any} [options] @returns {Promise<any>} */
export const askHelper = (what, payload, options) => helper.ask(what, payload, options);

/** Ends what the helper is doing (a cancelled export): a fresh one takes its place. */
export const replaceHelper = (/** @type {string} */ why) => helper.replace(why);
