// @ts-check
// The page's canvases, watched: each one's CSS size is kept in `data-css-size`, so
// that drawing never asks the browser for a layout (reading `clientWidth` every frame
// forces a reflow of the whole page, newly typeset equations included), and those
// scrolled out of view are marked `data-offscreen`: while playing, drawing refreshes
// those one per frame, not all of them every frame. A canvas that changed size is
// announced (`canvas-resized`), for the charts drawn once rather than every frame.

import { events, redraw } from "./events.js";

/** @type {ResizeObserver | null} */
let sizes = null;
/** @type {IntersectionObserver | null} */
let views = null;

/** Watches `canvas`'s size and whether it is in view. */
export function watchCanvas(/** @type {HTMLCanvasElement} */ canvas, { inView = false } = {}) {
  sizes ??= new ResizeObserver((entries) => {
    for (const e of entries) {
      const box = e.contentBoxSize?.[0];
      const [w, h] = box ? [box.inlineSize, box.blockSize] : [e.contentRect.width, e.contentRect.height];
      /** @type {HTMLElement} */ (e.target).dataset.cssSize = `${w} ${h}`;
      events.emit("canvas-resized", { id: e.target.id });
    }
    redraw();
  });
  sizes.observe(canvas);
  if (!inView) return;
  views ??= new IntersectionObserver((entries) => {
    for (const e of entries) e.target.toggleAttribute("data-offscreen", !e.isIntersecting);
    redraw();
  }, { rootMargin: "64px" });
  views.observe(canvas);
}
