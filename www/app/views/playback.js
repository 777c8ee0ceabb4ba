// @ts-check
// Playback: the buttons and keys that move the clock, and the frame loop that moves
// it (actions.tick), asks the runner to catch up, and draws what it sent — with a
// time budget per frame: panels it leaves over are drawn in the next frames, least
// recently drawn first.

import { $, DRAW_MS_PER_FRAME } from "../dom.js";
import { events } from "../events.js";
import { t } from "../i18n.js";
import { perf, trim } from "../perf.js";
import { state, store } from "../store.js";
import { catchingUp, play, reached, reset, setSpeed, step, tick, toEnd } from "../actions.js";
import { advance, display, guarded, isAdvancing } from "../services/runner.js";

/** @type {number | null} the last frame's time */
let lastFrame = null;
let dirty = true;         // something changed since the last drawing
let drewPlaying = false;  // the last drawing refreshed only some panels (see frame)
let drawPending = false;  // panels the last drawing left for the next frames (its time ran out)
let wasCatchingUp = false;
/** @type {(() => void) | null} called once, after the first drawing */
let onFirstDrawn = null;

function renderPlayButton() {
  const s = state();
  const b = $("play");
  b.textContent = t(s.playing ? "transport.pause" : catchingUp(s) ? "transport.stop" : "transport.play");
  b.setAttribute("aria-pressed", String(s.playing));
}

/** Starts the frame loop; `firstDrawn` is called after the first drawing. */
export function startFrames(/** @type {() => void} */ firstDrawn) {
  onFirstDrawn = firstDrawn;
  requestAnimationFrame(frame);
}

function frame(/** @type {number} */ now) {
  const started = performance.now();
  if (lastFrame !== null) perf.intervals.push(now - lastFrame);
  const wall = lastFrame === null ? 0 : Math.min((now - lastFrame) / 1000, 0.1);
  lastFrame = now;
  if (state().playing) dirty = true;
  tick(wall);
  const s = state();
  // The runner steps towards the clock in slices while the page draws what it has
  // sent: one request at a time, a new one as soon as the last is answered.
  const behind = s.target !== s.clock || !s.caughtUp;
  if (display() && !isAdvancing() && !s.stalled && behind) advance();
  const waiting = catchingUp(s);
  if (waiting !== wasCatchingUp) { wasCatchingUp = waiting; renderPlayButton(); }
  // Frames drawn while playing refresh some panels only: the first frame after
  // draws them all.
  if (display() && !s.playing && drewPlaying) dirty = true;
  if (display() && (dirty || drawPending)) draw(now, s, waiting, started);
  trim(perf.intervals);
  requestAnimationFrame(frame);
}

/** Draws the panels (all, or those the last frame left) and the clock's line. */
function draw(/** @type {number} */ now, /** @type {import("../store.js").State} */ s, /** @type {boolean} */ waiting, /** @type {number} */ started) {
  const fresh = dirty;
  dirty = false;
  if (fresh) drewPlaying = s.playing;
  const t0 = performance.now();
  const dpr = window.devicePixelRatio || 1;
  const gaps = guarded("task.drawing", () => (fresh
    ? display().draw(dpr, s.playing, DRAW_MS_PER_FRAME)
    : display().draw_pending(dpr, DRAW_MS_PER_FRAME))) ?? [];
  perf.draw.push(performance.now() - t0);
  perf.drawnPoints.push(display()?.drawn_points() ?? 0);
  if (!display()) return; // replaced after a trap
  drawPending = display().pending();
  const drawn = drawPending ? "0" : "1"; // every panel shows the latest data (tests wait on it)
  if (document.body.dataset.drawn !== drawn) document.body.dataset.drawn = drawn;
  const shown = reached(s);
  const t0Run = s.info.t0;
  const progress = waiting && s.clock > t0Run
    ? t("transport.catching-up", { percent: Math.floor(100 * (shown - t0Run) / (s.clock - t0Run)) }) : "";
  $("clock").textContent = `t = ${shown.toFixed(3)} / ${s.tEnd}${progress}`;
  events.emit("drawn", { now, gaps });
  perf.work.push(performance.now() - started);
  for (const series of [perf.work, perf.step, perf.draw, perf.loads]) trim(series);
  if (!document.body.dataset.ready) {
    document.body.dataset.ready = "1";
    perf.firstPlotMs = performance.now();
    onFirstDrawn?.();
  }
}

export function wirePlayback() {
  events.on("redraw", () => { dirty = true; });
  store.subscribe(["playing", "jumping", "stalled", "loaded"], renderPlayButton);
  // Playing again: the clock moves from now, not from when it stopped.
  store.subscribe(["playing"], () => { lastFrame = null; });
  store.subscribe(["finished"], ({ finished }) => {
    const value = finished ? "1" : "0";
    if (document.body.dataset.finished !== value) document.body.dataset.finished = value;
  });
  $("play").addEventListener("click", play);
  $("step").addEventListener("click", step);
  $("reset").addEventListener("click", reset);
  $("to-end").addEventListener("click", toEnd);
  $("speed").addEventListener("change", () => setSpeed(Number($("speed").value)));
  document.addEventListener("keydown", (e) => {
    const target = e.target;
    if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
    if (target instanceof HTMLElement && (target.isContentEditable || target.closest(".cm-editor"))) return; // typing in the editor
    if (e.ctrlKey || e.metaKey || e.altKey || document.querySelector("dialog[open]")) return;
    if (e.key === "?" && !state().embed) { e.preventDefault(); $("help-open").click(); return; }
    /** @type {Record<string, string>} */
    const keys = { " ": "play", ArrowRight: "step", r: "reset", R: "reset", e: "to-end", E: "to-end", m: "describe-motion", M: "describe-motion" };
    if (keys[e.key] && !(target instanceof HTMLButtonElement && e.key === " ")) {
      e.preventDefault();
      $(keys[e.key]).click();
    }
  });
}
