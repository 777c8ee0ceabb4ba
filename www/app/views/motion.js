// @ts-check
// The motion in words, for those who cannot see the scene (issue 60): Describe (or
// M) asks the runner what the system is doing at the clock, and its sentence goes in
// a polite live region under the playback bar, in the page's language (the runner's
// www/src/lab/motion.rs makes it: each coordinate and which way it moves, each
// contact holding, slipping or lifting off, the energy).

import { $ } from "../dom.js";
import { store } from "../store.js";
import { describeMotion } from "../services/runner.js";

export function wireMotion() {
  $("describe-motion").addEventListener("click", sayMotion);
  store.subscribe(["info"], forgetMotion);
}

/** Says the motion of the running scenario at the clock. */
async function sayMotion() {
  const answer = await describeMotion();
  if (!answer) return; // another scenario since
  const out = $("motion-text");
  out.hidden = false;
  out.textContent = answer.ok ? answer.result : answer.error;
}

/** A new scenario: what was said of the last one goes. */
function forgetMotion() {
  const out = $("motion-text");
  out.textContent = "";
  out.hidden = true;
}
