// @ts-check
// What happens on the page, said once and heard by whoever listens: the services
// (the runner) publish what they did, the actions turn it into the store's state,
// and the views hear the few things that are not state (a frame drawn, a canvas
// resized). Listeners run at once, in the order they subscribed.

/**
 * The events and what each carries.
 * @typedef {{
 *   opened: { text: string, opened: any, fromEditor: boolean, keepClock: boolean, loadToken: number },
 *   refused: { message: string, timeout: boolean },
 *   update: { runs: any[], finished: boolean, caughtUp: boolean, target: number | null },
 *   stalled: { message: string },
 *   extended: { tEnd: number },
 *   failed: { message: string },
 *   notice: { message: string | null, kind: "error" | "info" },
 *   redraw: {},
 *   drawn: { now: number, gaps: string[] },
 *   "canvas-resized": { id: string },
 *   "text-replaced": {},
 *   "restore-controls": {},
 * }} Events
 */

/** @typedef {keyof Events} EventName */

/** A small emitter: `on` returns a function that stops listening. */
export function createEmitter() {
  /** @type {Map<string, Set<(payload: any) => void>>} */
  const listeners = new Map();
  return {
    /**
     * @template {EventName} K
     * @param {K} name
     * @param {(payload: Events[K]) => void} fn
     */
    on(name, fn) {
      if (!listeners.has(name)) listeners.set(name, new Set());
      listeners.get(name)?.add(fn);
      return () => { listeners.get(name)?.delete(fn); };
    },
    /**
     * @template {EventName} K
     * @param {K} name
     * @param {Events[K]} payload
     */
    emit(name, payload) {
      for (const fn of [...(listeners.get(name) ?? [])]) fn(payload);
    },
  };
}

/** The page's events. */
export const events = createEmitter();

/** Asks for the panels to be drawn again in the next frame (the frame loop listens). */
export const redraw = () => events.emit("redraw", {});
