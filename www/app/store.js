// @ts-check
// The page's state in one place. Every field is declared here (the typedef is checked
// by `tsc --checkJs` in the test command: a field written that is not declared is an
// error). Only the actions (actions.js) write it, through `update`; the views read it
// with `get` and hear its changes with `subscribe`; the services read it.
//
// What is not here is not the page's state: each service's own handles (the runner's
// workers and display, services/runner.js), each view's own bookkeeping (timers,
// tokens of the latest rendering), and the timings (perf.js).

/**
 * What a run's last update says of it (the runner's `runs[i]`).
 * @typedef {{ method: string, t: number, error?: string, ended?: boolean, colour: string, mark: string,
 *   set?: string, integrator?: string, e?: number[], validity?: string[], hidden?: string[], samples: number }} Run
 */

/**
 * The stability panel's sweep, as the helper computed it for the running text.
 * @typedef {{ data: any, key: string }} Sweep
 */

/**
 * The page's state.
 * @typedef {object} State
 * @property {string} text the scenario text the running lab was built from
 * @property {any} info the runner's WebLab.info() (its t_end follows an open-ended run)
 * @property {number} loaded which load the page shows (a test or an embedder waits for the next)
 * @property {number} span the scenario's own t_end − t0: an open-ended run goes on by this much
 * @property {Run[]} runs each run's status in the runner's last update
 * @property {boolean} finished every run has reached t_end or stopped
 * @property {boolean} caughtUp the runs have reached the clock (or stopped)
 * @property {number | null} target the clock of the runner's last answer
 * @property {string | null} stalled why playback stopped (one step too slow), if it did
 * @property {number} restarts how many times the runs started again (Reset, Play at the end)
 * @property {boolean} inputsMoved an input moved by hand: the runs are open-ended, the CSV as played
 * @property {boolean} playing
 * @property {boolean} jumping To end: the clock jumped and the runs are catching up (Play reads Stop)
 * @property {number} speed
 * @property {number} clock
 * @property {number} tEnd the runs' end: the scenario's t_end, later once an open-ended run goes on
 * @property {boolean} embed
 * @property {string[]} embedControls in embed mode, the controls the embedder chose (`&controls=`)
 * @property {string} embedPanel in embed mode, the panel beside the scene (`&panel=`)
 * @property {string[] | null} embedParameters in embed mode, the sliders shown (`&params=`; null: all)
 * @property {string | null} linkLanguage the language a link named (kept in the address)
 * @property {string} language the page's language
 * @property {string | null} galleryName the gallery item opened (its slug names exported files)
 * @property {string | null} galleryOrigin the gallery item the text came from (marked "edited" once changed)
 * @property {boolean} unshared edits since the last Share or export: leaving asks first
 * @property {{ message: string, kind: "ok" | "warning" | "error", place: boolean } | null} status what the line
 *   under the editor says (`place`: the caret goes to the first place it names)
 * @property {boolean} loadTimedOut the last refused load ran out of time
 * @property {{ message: string, kind: "error" | "info" } | null} notice the page's notice
 * @property {{ text: string, title: string, at: number, tab: boolean } | null} draft the text "Restore it"
 *   offers (`tab`: this tab's, else the browser's last)
 * @property {Sweep | null} stability the stability panel's sweep, once computed
 * @property {boolean} stabilityMap the stability panel shows its map (`[stability] map`), not the sweep
 * @property {boolean} projector the lecture hall's mode
 * @property {string | null} shareLink the link the Share dialog last made
 * @property {Record<string, number>} inputValues each input's value now (a slider moved, a key held, the host's)
 */

/** @typedef {keyof State} Key */

/** @param {State} initial */
export function createStore(initial) {
  let state = initial;
  /** @type {Set<{ keys: Key[], fn: (state: State, changed: Key[]) => void }>} */
  const listeners = new Set();
  return {
    /** The current state (do not write it: `update` does). */
    get: () => state,
    /** Sets the fields of `patch`; the listeners of those that changed hear it. */
    update(/** @type {Partial<State>} */ patch) {
      const changed = /** @type {Key[]} */ (Object.keys(patch)).filter((k) => !Object.is(state[k], patch[k]));
      if (!changed.length) return;
      state = { ...state, ...patch };
      for (const l of [...listeners]) if (l.keys.some((k) => changed.includes(k))) l.fn(state, changed);
    },
    /** Calls `fn` whenever one of `keys` changes; returns a function that stops it. */
    subscribe(/** @type {Key[]} */ keys, /** @type {(state: State, changed: Key[]) => void} */ fn) {
      const entry = { keys, fn };
      listeners.add(entry);
      return () => { listeners.delete(entry); };
    },
  };
}

/** The page's store. */
export const store = createStore({
  text: "", info: null, loaded: 0, span: 0, runs: [], finished: false, caughtUp: false, target: null,
  stalled: null, restarts: 0, inputsMoved: false, playing: true, jumping: false, speed: 1, clock: 0, tEnd: 0,
  embed: false, embedControls: [], embedPanel: "", embedParameters: null, linkLanguage: null, language: "en",
  galleryName: null, galleryOrigin: null, unshared: false, status: null, loadTimedOut: false, notice: null,
  draft: null, stability: null, stabilityMap: false, projector: false, shareLink: null, inputValues: {},
});

/** The current state. */
export const state = () => store.get();
