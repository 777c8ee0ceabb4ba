// @ts-check
// The projector mode, for a lecture hall: large type, thick lines, high contrast
// (body.projector in style.css; the plots' type and lines through
// WebDisplay.set_projector, the stability chart's through draw_stability). The
// header's Projector button turns it on and off; `&projector` in a link or an embed
// opens the page in it.

import { $ } from "../dom.js";
import { redraw } from "../events.js";
import { state, store } from "../store.js";
import { setProjector } from "../actions.js";
import { display } from "../services/runner.js";

export function wireProjector() {
  const render = (/** @type {import("../store.js").State} */ { projector }) => {
    document.body.classList.toggle("projector", projector);
    $("projector").setAttribute("aria-pressed", String(projector));
    display()?.set_projector(projector);
    redraw();
  };
  store.subscribe(["projector"], render);
  setProjector(new URLSearchParams(location.hash.replace(/^#/, "")).has("projector"));
  render(state());
  $("projector").addEventListener("click", () => setProjector(!state().projector));
}
