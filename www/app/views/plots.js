// @ts-check
// The plot panels and the scene's canvas: their figures, the scene's pointer and
// keyboard controls and text alternative, the legend, the contact events, the data
// as tables, and each panel's PNG. The frame loop (views/playback.js) draws them;
// this view hears each drawing (`drawn`) and keeps their words current.

import { $, EXPORT_SCALE, download, el } from "../dom.js";
import { events, redraw } from "../events.js";
import { language, t, withKeys } from "../i18n.js";
import { watchCanvas } from "../canvases.js";
import { state, store } from "../store.js";
import { slug } from "../services/links.js";
import { display, guarded } from "../services/runner.js";

let plotTextAt = 0;  // when the plots' summaries were last written
/** @type {number | null} */
let plotTextClock = null; // the clock they were written at
let sceneTextAt = 0; // when the scene's text alternative was last written

export function wirePlots() {
  store.subscribe(["info"], ({ info }) => {
    if (!info) return;
    renderPlots(info);
    renderLegendNote(info);
    plotTextClock = null; // the new panels are described at once
    renderLegend();
  });
  events.on("drawn", ({ now, gaps }) => {
    const s = state();
    for (const p of s.info.layout.panels) {
      const warn = $(`${p.id}-fig`)?.querySelector(".gaps");
      if (warn) warn.hidden = !gaps.includes(p.id);
    }
    renderLegend();
    renderValidity();
    renderSceneText(now);
    renderPlotTexts(now);
  });
  // Printing shows every panel as it is now, and the running scenario's whole text.
  window.addEventListener("beforeprint", () => {
    if (display()) guarded("task.drawing", () => display().draw(window.devicePixelRatio || 1, false, Infinity)); // all of it
    $("print-text").textContent = state().text ?? "";
  });
}

function renderPlots(info) {
  const box = $("plots");
  const panels = info.layout.panels;
  const ids = panels.map((p) => p.id).join(" ");
  const forces = info.layout.scene?.forces ?? 0;
  // The same panels in the same language: their titles and notes only (built again in
  // another language, their switches and handling said in it too).
  if (box.dataset.ids === ids && box.dataset.forces === String(forces) && box.dataset.lang === language()) {
    panels.forEach((p) => {
      const fig = $(`${p.id}-fig`);
      fig.querySelector("h2").textContent = p.title;
      fig.querySelector(".note .note-text").textContent = p.note;
    });
    // A new display draws the forces: the switch says so again.
    const forceSwitch = $("scene-forces");
    if (forceSwitch) forceSwitch.checked = true;
    return;
  }
  box.dataset.forces = String(forces);
  box.dataset.ids = ids;
  box.dataset.lang = language();
  const figures = panels.map((p) => {
    const canvas = el("canvas", { id: p.id, role: "img", "aria-label": p.title, "aria-describedby": `${p.id}-text` });
    watchCanvas(canvas, { inView: true });
    // Each named for its plot: eight buttons all called "PNG" cannot be told apart
    // by a screen reader's list of buttons.
    const png = el("button", { type: "button", class: "small", text: "PNG", title: t("png.title", { title: p.title }), "aria-label": t("png.label", { title: p.title }) });
    png.addEventListener("click", () => downloadPanel(canvas, p.id));
    const head = el("div", { class: "fig-head" }, el("h2", { text: p.title }), png);
    if (p.kind === "Scene" && forces > 0) {
      // The contacts' forces as arrows at their points (scaled to the picture), on or off.
      const forceSwitch = el("input", { type: "checkbox", id: "scene-forces" });
      forceSwitch.checked = true;
      forceSwitch.addEventListener("change", () => { display()?.set_show_forces(forceSwitch.checked); redraw(); });
      const label = el("label", { class: "small scene-forces", title: t("scene.forces.title") }, forceSwitch, el("span", { text: ` ${t("scene.forces")}` }));
      head.insertBefore(label, png);
    }
    const gaps = el("p", { class: "gaps", text: t("plot.gaps") });
    gaps.hidden = true;
    // How to handle it (mouse and keys) after the note: not printed.
    const caption = el("figcaption", { class: "note" }, el("span", { class: "note-text", text: p.note }));
    // On a touch screen the scene is handled by touch: said so, not mouse and keys.
    const handling = p.kind === "Scene" && touchScreen() ? t(info.layout.scene?.projection === "space" ? "scene.touch.turn" : "scene.touch.move") : p.handling;
    if (handling) caption.append(el("span", { class: "handling" }, ...withKeys(`${t("clause.separator")}${handling}`)));
    const fig = el("figure", { id: `${p.id}-fig`, class: p.kind === "Scene" ? "fig scene" : "fig" }, head, canvas, caption, gaps);
    if (p.kind === "ContactNormal") {
      // Where each run's contacts lifted off or slipped, named with their instants.
      const events = el("ul", { id: "contact-events", class: "events", "aria-live": "polite" });
      events.hidden = true;
      fig.append(events);
    }
    if (p.kind !== "Scene") {
      // In words, for those who do not see it: a summary kept current (the canvas'
      // description) and, on request, the data as a table.
      fig.append(el("p", { id: `${p.id}-text`, class: "visually-hidden" }), dataTable(p));
    }
    if (p.kind === "Scene") {
      fig.append(el("p", { class: "zoom-hint", "aria-hidden": "true", hidden: "" }, ...withKeys(t(navigator.platform?.startsWith("Mac") ? "scene.zoom-hint.mac" : "scene.zoom-hint"))));
      wireScene(canvas);
      // The text alternative, kept current a few times a second (not every frame).
      fig.append(el("p", { id: "scene-text", class: "visually-hidden", "aria-live": "off" }));
      const hidden = el("p", { id: "scene-hidden", class: "gaps" });
      hidden.hidden = true;
      fig.append(hidden);
    }
    return fig;
  });
  // The scene goes first, under the title (the system before its plots).
  const scene = figures.filter((f) => f.classList.contains("scene"));
  const plots = figures.filter((f) => !f.classList.contains("scene"));
  // An embed shows one plot beside the scene: the one its link names, else the first.
  const named = plots.find((f) => f.id === `plot-${state().embedPanel}-fig`);
  (named ?? plots[0])?.classList.add("chosen");
  $("scene-slot").replaceChildren(...scene);
  box.replaceChildren(...plots);
}

/** Whether the page is used by touch (a phone or a tablet). */
const touchScreen = () => window.matchMedia?.("(pointer: coarse)").matches ?? false;

/** The scene: drag turns the view (space) or moves it (plane), a double-click fits
 *  again; arrow keys turn or move it for keyboard users. The wheel zooms only with
 *  Ctrl or ⌘ held (a trackpad's pinch is that), or once the scene has been clicked:
 *  otherwise it scrolls the page, as maps do, and the scene says how to zoom (issue
 *  60: in an embed the wheel over the scene zoomed it and the course page did not
 *  move). By touch, a vertical swipe scrolls the page, a sideways drag turns or
 *  moves the view, and two fingers pinch to zoom. */
function wireScene(/** @type {any} */ canvas) {
  canvas.tabIndex = 0;
  const dpr = () => window.devicePixelRatio || 1;
  const pointers = new Map(); // pointerId → [x, y]
  let spread = null; // the two fingers' distance
  const distance = () => { const [a, b] = [...pointers.values()]; return Math.hypot(a[0] - b[0], a[1] - b[1]); };
  const zoomAt = (factor, x, y) => {
    const box = canvas.getBoundingClientRect();
    display()?.scene_zoom(factor, x - box.left, y - box.top, dpr());
    redraw();
  };
  canvas.addEventListener("pointerdown", (e) => {
    canvas.dataset.active = "1";
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    canvas.setPointerCapture(e.pointerId);
    spread = pointers.size === 2 ? distance() : null;
  });
  canvas.addEventListener("pointermove", (e) => {
    const last = pointers.get(e.pointerId);
    if (!last || !display()) return;
    pointers.set(e.pointerId, [e.clientX, e.clientY]);
    if (pointers.size === 2 && spread) {
      const now = distance();
      const [a, b] = [...pointers.values()];
      if (now > 0) zoomAt(now / spread, (a[0] + b[0]) / 2, (a[1] + b[1]) / 2);
      spread = now;
      return;
    }
    if (pointers.size !== 1) return;
    display().scene_drag(e.clientX - last[0], e.clientY - last[1], dpr());
    redraw();
  });
  const end = (e) => { pointers.delete(e.pointerId); spread = pointers.size === 2 ? distance() : null; };
  canvas.addEventListener("pointerup", end);
  canvas.addEventListener("pointercancel", end);
  const calm = () => { delete canvas.dataset.active; };
  canvas.addEventListener("pointerleave", (e) => { if (e.pointerType === "mouse") calm(); });
  canvas.addEventListener("blur", calm);
  let hintTimer = 0;
  canvas.addEventListener("wheel", (e) => {
    if (!display()) return;
    if (!(e.ctrlKey || e.metaKey || canvas.dataset.active)) {
      // The page scrolls; the scene says how to zoom it, for a moment.
      const hint = canvas.parentElement?.querySelector(".zoom-hint");
      if (hint) {
        hint.hidden = false;
        clearTimeout(hintTimer);
        hintTimer = setTimeout(() => { hint.hidden = true; }, 1500);
      }
      return;
    }
    e.preventDefault();
    zoomAt(Math.exp(-e.deltaY * 0.0015), e.clientX, e.clientY);
  }, { passive: false });
  canvas.addEventListener("dblclick", () => { display()?.scene_reset(); redraw(); });
  canvas.addEventListener("keydown", (e) => {
    const step = { ArrowLeft: [-20, 0], ArrowRight: [20, 0], ArrowUp: [0, -20], ArrowDown: [0, 20] }[e.key];
    if (!step || !display()) return;
    e.preventDefault();
    e.stopPropagation();
    display().scene_drag(step[0], step[1], 1);
    redraw();
  });
}

/** A plot's data as a table, made when it is opened (and again on each opening). */
function dataTable(p) {
  const box = el("div", { class: "data-table" });
  const details = el("details", { class: "data" }, el("summary", { text: t("table.summary") }), box);
  details.addEventListener("toggle", () => {
    if (!details.open || !display()) return;
    const table = guarded("task.table", () => display().plot_table(p.id, 21));
    if (!table) return;
    const head = el("tr", {}, ...table.columns.map((c) => el("th", { scope: "col", text: c })));
    const rows = table.rows.map((r) => el("tr", {}, ...r.map((c) => el("td", { text: c }))));
    const caption = el("caption", { text: t("table.caption", { title: p.title, t: display().now().toPrecision(4) }) });
    box.replaceChildren(el("table", {}, caption, el("thead", {}, head), el("tbody", {}, ...rows)));
    box.tabIndex = 0; // it may scroll
    box.setAttribute("role", "region");
    box.setAttribute("aria-label", t("table.label", { title: p.title }));
  });
  return details;
}

/** Each plot's summary in words (its description for screen readers): once a second
 *  while playing, and whenever the clock has moved when paused. */
function renderPlotTexts(/** @type {number} */ now) {
  if (!display()) return;
  const clock = display().now();
  if (clock === plotTextClock || (state().playing && now - plotTextAt < 1000)) return;
  plotTextAt = now;
  plotTextClock = clock;
  for (const p of state().info?.layout?.panels ?? []) {
    const text = $(`${p.id}-text`);
    if (!text) continue;
    const words = display().plot_summary(p.id);
    if (text.textContent !== words) text.textContent = words;
  }
}

/** The scene's caption for screen readers and its note on elements it could not draw. */
function renderSceneText(/** @type {number} */ now) {
  const text = $("scene-text");
  if (!text || !display() || now - sceneTextAt < 500) return;
  sceneTextAt = now;
  text.textContent = display().scene_caption();
  const hidden = [...new Set(state().runs.flatMap((r) => r.hidden ?? []))];
  const note = $("scene-hidden");
  note.hidden = hidden.length === 0;
  note.textContent = hidden.length ? t("scene.hidden", { names: hidden.join(", ") }) : "";
}

/** The line under the legend: what its `E = (…)` is (set once per scenario, not per frame). */
function renderLegendNote(/** @type {any} */ info) {
  const comps = info.layout.e_components;
  const colours = t(info.layout.set_labels?.length ? "legend.colours.sets" : "legend.colours");
  $("legend-note").textContent = comps.length
    ? [colours, t("legend.e-vector", { components: comps.join(", ") }), info.hamel_split ? t("legend.split", { split: info.hamel_split }) : ""]
      .filter(Boolean).join(t("sentence.separator"))
    : colours;
  $("legend-note").hidden = false;
}

/** Under the contact panel: each span where a run's contact lifted off or slipped,
 *  as far as the clock, with its located instants (redrawn only when it changes). */
function renderValidity() {
  const box = $("contact-events");
  if (!box) return;
  const lines = state().runs.flatMap((r) => (r.validity ?? []).map((text) => `${r.method}${r.integrator ? ` · ${r.integrator}` : ""}${r.set ? ` · ${r.set}` : ""}: ${text}`));
  const key = lines.join("\n");
  if (box.dataset.key === key) return;
  box.dataset.key = key;
  box.hidden = lines.length === 0;
  box.replaceChildren(...lines.map((text) => el("li", { text })));
}

function renderLegend() {
  const box = $("legend");
  const { runs, info } = state();
  if (!info) return;
  const comps = info.layout.e_components;
  box.replaceChildren(...runs.map((r) => {
    const swatch = el("span", { class: "swatch", "aria-hidden": "true" });
    swatch.style.background = r.colour;
    // An expected end (Hamel's split singular, the sample limit) is information, not a failure.
    // The mark drawn along its lines: methods apart without colour.
    const mark = el("span", { class: "mark", text: r.mark, "aria-hidden": "true" });
    mark.style.color = r.colour;
    const item = el("li", { class: r.error ? (r.ended ? "ended" : "failed") : "" }, swatch, mark, el("strong", { text: r.method }));
    // A run of a parameter set of [compare]: its name and the values that differ.
    if (r.set) item.append(el("span", { class: "set", text: ` · ${r.set}` }));
    // An overlay of integrators: which one this run steps with.
    if (r.integrator) item.append(el("span", { class: "set", text: ` · ${r.integrator}` }));
    if (r.e && comps.length) {
      // As the E-vector panel: every component when there are few, else |E| and the
      // largest six.
      const entries = r.e.map((x, i) => [comps[i], x]);
      const shown = entries.length <= 6 ? entries : [...entries].sort((a, b) => Math.abs(b[1]) - Math.abs(a[1])).slice(0, 6);
      const e = shown.map(([name, x]) => `${name} ${x.toExponential(2)}`).join(", ");
      const norm = Math.hypot(...r.e);
      item.append(el("span", { class: "e", text: entries.length <= 6 ? ` E = (${e})` : ` ${t("legend.e-largest", { norm: norm.toExponential(2), count: entries.length, e })}` }));
    }
    // In the cell, cut to its width (the full text is on the line under the legend).
    if (r.error) item.append(el("span", { class: "why", text: ` — ${r.error}`, title: r.error, "aria-hidden": "true" }));
    return item;
  }));
  const ends = runs.filter((r) => r.error).map((r) => `${r.method}${r.set ? ` · ${r.set}` : ""}${r.integrator ? ` · ${r.integrator}` : ""}: ${r.error}`).join(" ");
  const line = $("legend-ends");
  if (line.textContent !== ends) line.textContent = ends;
}


/** A panel as PNG: drawn afresh at twice the size on a canvas of its own, with its
 *  title and a legend (the page's panels name the methods in the legend above them). */
function downloadPanel(/** @type {HTMLCanvasElement} */ canvas, /** @type {string} */ id) {
  const name = `${slug(state())}-${id.replace("plot-", "")}.png`;
  const save = (/** @type {HTMLCanvasElement} */ c) => c.toBlob((blob) => blob && download(name, blob), "image/png");
  if (!display()) { save(canvas); return; }
  const box = canvas.getBoundingClientRect();
  const out = document.createElement("canvas");
  const drawn = guarded("task.exporting", () => { display().draw_export(id, out, box.width, box.height + 40, EXPORT_SCALE); return true; });
  save(drawn ? out : canvas);
}
