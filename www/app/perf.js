// @ts-check
// Timings of the page (ms), read by the browser benchmark and tests as
// `window.nhlabPerf`: instruments, not state (nothing on the page reads them).

/**
 * @typedef {{
 *   work: number[], step: number[], draw: number[], intervals: number[], loads: number[],
 *   loadPhases: { phase: string, ms: number }[], drawnPoints: number[],
 *   bootMs?: number, firstLoadedMs?: number, firstOpenedAhead?: boolean, firstPlotMs?: number,
 *   editorReadyMs?: number,
 * }} Perf
 */

/** @type {Perf} */
export const perf = { work: [], step: [], draw: [], intervals: [], loads: [], loadPhases: [], drawnPoints: [] };

/** Keeps a series from growing without end (a page left playing for hours). */
export function trim(/** @type {number[]} */ series) {
  if (series.length > 5000) series.splice(0, 1000);
}

/** @type {any} */ (window).nhlabPerf = perf;
