// The projector mode, for a lecture hall: large type, thick lines, high contrast
// (body.projector in style.css; the plots' type and lines through
// WebDisplay.set_projector, the stability chart's through draw_stability). The
// header's Projector button turns it on and off; `&projector` in a link or an embed
// opens the page in it.

import { $ } from "./dom.js";
import { drawStability } from "./stability.js";

export function wireProjector(lab) {
  setProjector(lab, new URLSearchParams(location.hash.replace(/^#/, "")).has("projector"));
  $("projector").addEventListener("click", () => setProjector(lab, !lab.projector));
}

/** The mode on or off, on the page and on the display's plots. */
export function setProjector(lab, on) {
  lab.projector = on;
  document.body.classList.toggle("projector", on);
  $("projector").setAttribute("aria-pressed", String(on));
  lab.display?.set_projector(on);
  drawStability(lab);
  lab.dirty = true;
}
