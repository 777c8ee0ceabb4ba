// Playback: the display clock, the buttons and keys that move it, and the frame
// that asks the runner to catch up and draws what it sent.

import { $, DRAW_MS_PER_FRAME, errorText, isTrap, notice } from "./dom.js";
import { openHelp } from "./help.js";
import { renderLegend, renderPlotTexts, renderSceneText, renderValidity } from "./plots.js";
import { extendRuns, recoverFromTrap, requestAdvance, restartRuns } from "./runner.js";
import { t } from "./i18n.js";

export function updatePlayButton(lab) {
  const b = $("play");
  b.textContent = t(lab.playing ? "transport.pause" : catchingUp(lab) ? "transport.stop" : "transport.play");
  b.setAttribute("aria-pressed", String(lab.playing));
}

export function safely(lab, what, fn) {
  try { return fn(); } catch (e) {
    if (isTrap(e)) { recoverFromTrap(lab, `${t(what)}: ${errorText(e)}`); return undefined; }
    lab.playing = false;
    updatePlayButton(lab);
    notice(`${t(what)}: ${errorText(e)}`);
    return undefined;
  }
}

export function moveClock(lab, t) {
  lab.clock = Math.min(Math.max(t, lab.info.t0), lab.info.t_end);
  lab.dirty = true;
}

/** Whether the runs are still catching up with a clock that is not moving (To end,
 *  Step): the Play button then stops them where they are. */
export function catchingUp(lab) {
  if (lab.jumping && lab.caughtUp && lab.target === lab.clock) lab.jumping = false;
  return lab.jumping && !lab.playing && !!lab.display && !lab.stalled;
}

/** How far the runs have got: the display clock, or the slowest run still going when
 *  they are behind it; when every run has stopped (an error, the sample limit), the
 *  furthest any of them got: the clock never claims a time no run reached. */
export function reached(lab) {
  const going = lab.runs.filter((r) => !r.error).map((r) => r.t);
  if (going.length || !lab.runs.length) return Math.min(lab.display.now(), ...going);
  return Math.min(lab.display.now(), Math.max(...lab.runs.map((r) => r.t)));
}

export function frame(lab, now) {
  const started = performance.now();
  if (lab.lastFrame !== null) lab.perf.intervals.push(now - lab.lastFrame);
  const wall = lab.lastFrame === null ? 0 : Math.min((now - lab.lastFrame) / 1000, 0.1);
  lab.lastFrame = now;
  if (lab.display && lab.playing) {
    lab.clock = Math.min(lab.clock + lab.speed * wall, lab.info.t_end);
    lab.dirty = true;
  }
  // The runner steps towards the clock in slices while the page draws what it has
  // sent: one request at a time, a new one as soon as the last is answered.
  const behind = lab.target !== lab.clock || !lab.caughtUp;
  if (lab.display && lab.runner && !lab.advancing && !lab.stalled && behind) requestAdvance(lab);
  // Steered by its inputs, a run goes on while it plays (see extendRuns).
  const openEnded = lab.inputsMoved && lab.runs.some((r) => !r.error);
  if (lab.display && lab.playing && openEnded && lab.clock >= lab.info.t_end) extendRuns(lab);
  if (lab.display && lab.playing && !openEnded && lab.clock >= lab.info.t_end && lab.finished && lab.caughtUp) {
    lab.playing = false;
    updatePlayButton(lab);
  }
  const waiting = catchingUp(lab);
  if (waiting !== lab.wasCatchingUp) { lab.wasCatchingUp = waiting; updatePlayButton(lab); }
  // Frames drawn while playing refresh some panels only: the first frame after
  // draws them all.
  if (lab.display && !lab.playing && lab.drewPlaying) lab.dirty = true;
  // Drawing has a time budget per frame: panels it leaves over are drawn in the
  // next frames, least recently drawn first.
  if (lab.display && (lab.dirty || lab.drawPending)) {
    const fresh = lab.dirty;
    lab.dirty = false;
    if (fresh) lab.drewPlaying = lab.playing;
    const t0 = performance.now();
    const dpr = window.devicePixelRatio || 1;
    const gaps = safely(lab, "task.drawing", () => (fresh
      ? lab.display.draw(dpr, lab.playing, DRAW_MS_PER_FRAME)
      : lab.display.draw_pending(dpr, DRAW_MS_PER_FRAME))) ?? [];
    lab.perf.draw.push(performance.now() - t0);
    lab.perf.drawnPoints.push(lab.display?.drawn_points() ?? 0);
    if (!lab.display) { requestAnimationFrame((...a) => frame(lab, ...a)); return; } // replaced after a trap
    lab.drawPending = lab.display.pending();
    const drawn = lab.drawPending ? "0" : "1"; // every panel shows the latest data (tests wait on it)
    if (document.body.dataset.drawn !== drawn) document.body.dataset.drawn = drawn;
    for (const p of lab.info.layout.panels) {
      const warn = $(`${p.id}-fig`)?.querySelector(".gaps");
      if (warn) warn.hidden = !gaps.includes(p.id);
    }
    const shown = reached(lab);
    const progress = waiting && lab.clock > lab.info.t0
      ? t("transport.catching-up", { percent: Math.floor(100 * (shown - lab.info.t0) / (lab.clock - lab.info.t0)) }) : "";
    $("clock").textContent = `t = ${shown.toFixed(3)} / ${lab.info.t_end}${progress}`;
    renderLegend(lab);
    renderValidity(lab);
    renderSceneText(lab, now);
    renderPlotTexts(lab, now);
    lab.perf.work.push(performance.now() - started);
    for (const k of ["work", "step", "draw", "loads"]) if (lab.perf[k].length > 5000) lab.perf[k].splice(0, 1000);
    if (!document.body.dataset.ready) {
      document.body.dataset.ready = "1";
      lab.perf.firstPlotMs = performance.now();
      lab.markFirstDrawn?.();
    }
  }
  if (lab.perf.intervals.length > 5000) lab.perf.intervals.splice(0, 1000);
  requestAnimationFrame((...a) => frame(lab, ...a));
}

export function wirePlayback(lab) {
  $("play").addEventListener("click", () => {
    if (!lab.display) return;
    if (catchingUp(lab)) { lab.clock = reached(lab); lab.jumping = false; updatePlayButton(lab); return; } // stop here
    if (!lab.playing && (lab.clock >= lab.info.t_end || lab.stalled)) restartRuns(lab);
    lab.playing = !lab.playing;
    lab.lastFrame = null;
    updatePlayButton(lab);
  });
  $("step").addEventListener("click", () => {
    lab.playing = false; updatePlayButton(lab);
    moveClock(lab, lab.clock + (lab.info.t_end - lab.info.t0) / 200);
  });
  $("reset").addEventListener("click", () => { if (lab.display) restartRuns(lab); });
  $("to-end").addEventListener("click", () => {
    lab.playing = false;
    moveClock(lab, lab.info.t_end);
    lab.jumping = true; // until the runs get there: Play reads Stop
    updatePlayButton(lab);
  });
  $("speed").addEventListener("change", () => { lab.speed = Number($("speed").value); });
  document.addEventListener("keydown", (e) => {
    const t = e.target;
    if (t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement) return;
    if (t instanceof HTMLElement && (t.isContentEditable || t.closest(".cm-editor"))) return; // typing in the editor
    if (e.ctrlKey || e.metaKey || e.altKey || document.querySelector("dialog[open]")) return;
    if (e.key === "?" && !lab.embed) { e.preventDefault(); openHelp(lab, $("help-body").dataset.page ?? "first-system"); return; }
    const keys = { " ": "play", ArrowRight: "step", r: "reset", R: "reset", e: "to-end", E: "to-end", m: "describe-motion", M: "describe-motion" };
    if (keys[e.key] && !(t instanceof HTMLButtonElement && e.key === " ")) {
      e.preventDefault();
      $(keys[e.key]).click();
    }
  });
}

// ---------- start ----------
