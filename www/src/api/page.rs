//! What runs on the page: [`WebDisplay`], the page's copy of what the runner sent,
//! drawn on its canvases, and the stability panel's drawing.

use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::display::Display;
use crate::layout::Layout;
use crate::panels;
use nhlab::formulations::Method;

/// Most points of lines, outlines and trails drawn in one frame (beyond the first
/// plot): the canvases are rasterised after the frame's script, at a cost that grows
/// with them and that the frame's clock does not see (issue 57: 28 runs of a scene
/// at its limits drew 460,000 a frame, and a click waited seconds). The stale panels
/// are drawn in the next frames.
const FRAME_POINTS: usize = 40_000;

/// The page's copy of the plotted data ([`Display`]), drawn on its canvases.
#[wasm_bindgen]
pub struct WebDisplay {
    display: Display,
    /// Counts the frames drawn while playing: which off-screen panel is refreshed.
    frames: usize,
    /// Per panel: whether what it shows is older than the data (not drawn since).
    stale: Vec<bool>,
    /// Per panel: the draw call that last drew it (the least recent goes first).
    drawn_at: Vec<u64>,
    /// Per panel: whether its last drawing had values that are not finite.
    gaps: Vec<bool>,
    /// Counts the draw calls.
    calls: u64,
    /// The points of lines, outlines and trails the last draw call drew.
    last_points: usize,
    /// How large the plots' type and lines are drawn: 1, or [`PROJECTOR_LOOK`].
    look: f64,
}

/// The projector mode's plots: type and lines this much larger, for a lecture hall.
const PROJECTOR_LOOK: f64 = 1.6;

#[wasm_bindgen]
impl WebDisplay {
    /// An empty display for the `layout` of a worker's `info()`.
    #[wasm_bindgen(constructor)]
    pub fn new(layout: JsValue) -> Result<WebDisplay, JsError> {
        let layout: Layout = serde_wasm_bindgen::from_value(layout).map_err(|e| JsError::new(&e.to_string()))?;
        let panels = layout.panels.len();
        Ok(WebDisplay {
            display: Display::new(layout).map_err(|e| JsError::new(&e))?,
            frames: 0,
            stale: vec![true; panels],
            drawn_at: vec![0; panels],
            gaps: vec![false; panels],
            calls: 0,
            last_points: 0,
            look: 1.0,
        })
    }

    /// The projector mode (large type, thick lines) on or off: every panel is drawn
    /// again.
    pub fn set_projector(&mut self, on: bool) {
        self.look = if on { PROJECTOR_LOOK } else { 1.0 };
        self.stale.iter_mut().for_each(|s| *s = true);
    }

    /// Puts rows the worker sent for run `index` in place (from row `from` on), and
    /// its row at the clock.
    pub fn apply(&mut self, index: usize, from: usize, rows: &[f64], current: &[f64]) -> Result<(), JsError> {
        self.display.apply(index, from, rows, current).map_err(|e| JsError::new(&e))
    }

    /// Puts run `index`'s scene at the clock in place (flat, from the worker), with
    /// the labels of the elements it could not draw.
    pub fn apply_picture(&mut self, index: usize, flat: &[f64], hidden: Vec<String>) -> Result<(), JsError> {
        self.display.apply_picture(index, flat, hidden).map_err(|e| JsError::new(&e))
    }

    /// A drag of `(dx, dy)` CSS pixels on the scene: turns the view in space, moves
    /// it in the plane.
    pub fn scene_drag(&mut self, dx: f64, dy: f64, dpr: f64) {
        let dpr = if dpr.is_finite() { dpr.clamp(1.0, 4.0) } else { 1.0 };
        if dx.is_finite() && dy.is_finite() {
            self.display.scene_view.drag(dx * dpr, dy * dpr);
        }
    }

    /// Zooms the scene by `factor` about CSS pixel `(x, y)`.
    pub fn scene_zoom(&mut self, factor: f64, x: f64, y: f64, dpr: f64) {
        let dpr = if dpr.is_finite() { dpr.clamp(1.0, 4.0) } else { 1.0 };
        if x.is_finite() && y.is_finite() {
            self.display.scene_view.zoom(factor, x * dpr, y * dpr);
        }
    }

    /// Fits the scene again and follows the motion.
    pub fn scene_reset(&mut self) {
        self.display.scene_view.reset();
    }

    /// Marks run `index` as failed (it could not run or stopped on an error) or not:
    /// a failed run is drawn as a ghost behind the runs that go on.
    pub fn set_failed(&mut self, index: usize, failed: bool) {
        if let Some(run) = self.display.runs.get_mut(index) {
            run.failed = failed;
        }
    }

    /// Shows or hides the contact forces' arrows in the scene.
    pub fn set_show_forces(&mut self, show: bool) {
        self.display.set_show_forces(show);
    }

    /// The scene's text alternative: what is drawn, and where, for each method.
    pub fn scene_caption(&self) -> String {
        let labels = self.display.layout.scene.as_ref().map_or(&[][..], |s| s.labels.as_slice());
        crate::scene::caption(labels, &self.display.shown(), self.display.now)
    }

    /// Panel `id`'s text alternative: what its lines span and their values at the
    /// clock ([`crate::describe::summary`]); empty for the scene or an unknown id.
    pub fn plot_summary(&self, id: &str) -> String {
        let info = self.display.layout.panels.iter().find(|p| p.id == id);
        info.map_or_else(String::new, |info| crate::describe::summary(&self.display, info))
    }

    /// Panel `id`'s data as a table of at most `rows` points a line
    /// ([`crate::describe::Table`]).
    pub fn plot_table(&self, id: &str, rows: usize) -> Result<JsValue, JsError> {
        let info = self.display.layout.panels.iter().find(|p| p.id == id);
        let info = info.ok_or_else(|| JsError::new(&format!("no panel {id}")))?;
        serde_wasm_bindgen::to_value(&crate::describe::table(&self.display, info, rows))
            .map_err(|e| JsError::new(&e.to_string()))
    }

    /// The runs' end, when they go on past the scenario's `t_end` (an open-ended run
    /// steered by its inputs): the plots' time axes reach it.
    pub fn set_t_end(&mut self, t_end: f64) {
        if t_end.is_finite() && t_end > self.display.layout.t0 {
            self.display.layout.t_end = t_end;
        }
    }

    /// Sets the display clock (the time the worker's runs reached).
    pub fn set_now(&mut self, t: f64) {
        if t.is_finite() {
            self.display.now = t.clamp(self.display.layout.t0, self.display.layout.t_end);
        }
    }

    /// The display clock.
    pub fn now(&self) -> f64 {
        self.display.now
    }

    /// Draws the panels on their canvases (`id` from `info().panels`), with the
    /// backing store sized to the canvas' CSS size times `dpr`. Missing canvases are
    /// skipped.
    ///
    /// While `playing`, the scene is drawn every frame, the plots in view every other
    /// frame (half of them in each; every third frame where there are more than four
    /// plots), and a canvas marked `data-offscreen` (scrolled
    /// out of view) only in its turn, one such panel per frame: plots cost many times
    /// what the scene does, and drawn all together a model with many panels would
    /// miss frames. A canvas not yet sized for its box is drawn first.
    ///
    /// Whatever the frame, drawing stops once `budget_ms` have passed (after one
    /// panel at least), the least recently drawn panels going first: 28 runs in 36
    /// panels took 0.5–2 s a frame, and the page answered no click meanwhile. The
    /// panels left over are [`WebDisplay::pending`], drawn by
    /// [`WebDisplay::draw_pending`] in the next frames. Returns the ids of the
    /// panels whose last drawing had values that are not finite (left as gaps).
    pub fn draw(&mut self, dpr: f64, playing: bool, budget_ms: f64) -> Result<Vec<String>, JsError> {
        self.stale.iter_mut().for_each(|s| *s = true);
        let turn = self.frames % self.display.layout.panels.len().max(1);
        self.frames = if playing { self.frames.wrapping_add(1) } else { 0 };
        // Up to four plots, half of them a frame; more, a third (each still refreshed
        // 20 times a second): six plots in view cost the bicycle 7.9 ms a frame at p95.
        let stride = if self.display.layout.panels.len() > 5 { 3 } else { 2 };
        self.draw_within(dpr, budget_ms, |k, kind, offscreen| {
            !playing || kind == panels::Kind::Scene || if offscreen { k == turn } else { k % stride == turn % stride }
        })
    }

    /// The points of lines, outlines and trails the last draw call drew (what the
    /// browser rasterises after the frame: the page's tests bound it).
    pub fn drawn_points(&self) -> usize {
        self.last_points
    }

    /// Whether some panel shows less than the data drawn last: [`WebDisplay::draw`]
    /// ran out of its time.
    pub fn pending(&self) -> bool {
        self.stale.iter().any(|&s| s)
    }

    /// Draws the panels [`WebDisplay::draw`] left over, within `budget_ms` as it.
    pub fn draw_pending(&mut self, dpr: f64, budget_ms: f64) -> Result<Vec<String>, JsError> {
        self.draw_within(dpr, budget_ms, |_, _, _| true)
    }

    /// Draws the stale panels that `due(index, kind, offscreen)` (or that their canvas
    /// is not sized yet), the scene first, then those in view, then those out of it,
    /// each group least recently drawn first, until `budget_ms` have passed.
    fn draw_within(
        &mut self,
        dpr: f64,
        budget_ms: f64,
        due: impl Fn(usize, panels::Kind, bool) -> bool,
    ) -> Result<Vec<String>, JsError> {
        let window = web_sys::window().ok_or_else(|| JsError::new("no window"))?;
        let document = window.document().ok_or_else(|| JsError::new("no document"))?;
        let clock = window.performance();
        let now = || clock.as_ref().map_or(0.0, |p| p.now());
        let deadline = now() + if budget_ms.is_nan() { 0.0 } else { budget_ms.max(0.0) };
        let dpr = if dpr.is_finite() { dpr.clamp(1.0, 4.0) } else { 1.0 };
        self.calls += 1;
        let mut queue = Vec::new();
        for (k, info) in self.display.layout.panels.iter().enumerate() {
            if !self.stale[k] {
                continue;
            }
            let Some(canvas) = document.get_element_by_id(&info.id) else {
                self.stale[k] = false;
                continue;
            };
            let canvas: web_sys::HtmlCanvasElement =
                canvas.dyn_into().map_err(|_| JsError::new(&format!("#{} is not a canvas", info.id)))?;
            let (css_w, css_h) = css_size(&canvas);
            let (w, h) = ((css_w * dpr) as u32, (css_h * dpr) as u32);
            if w < 40 || h < 40 {
                self.stale[k] = false; // hidden or collapsed: drawn when it is shown
                continue;
            }
            let resized = canvas.width() != w || canvas.height() != h;
            let offscreen = canvas.has_attribute("data-offscreen");
            if resized || due(k, info.kind, offscreen) {
                let group = if resized || info.kind == panels::Kind::Scene { 0 } else { 1 + usize::from(offscreen) };
                queue.push((group, self.drawn_at[k], k, canvas, w, h));
            }
        }
        queue.sort_by_key(|&(group, drawn_at, k, ..)| (group, drawn_at, k));
        // Within the time and the points (the browser rasterises the canvases after
        // this returns, at a cost this clock does not see), a plot at least.
        let mut points = 0;
        let mut plots = 0;
        for (_, _, k, canvas, w, h) in queue {
            if plots > 0 && (now() > deadline || points >= FRAME_POINTS) {
                break;
            }
            points += self.draw_panel(k, canvas, w, h, dpr)?;
            plots += usize::from(self.display.layout.panels[k].kind != panels::Kind::Scene);
        }
        self.last_points = points;
        let panels = &self.display.layout.panels;
        Ok(panels.iter().zip(&self.gaps).filter(|(_, &g)| g).map(|(p, _)| p.id.clone()).collect())
    }

    /// Draws panel `k` on its canvas, sized `w × h` device pixels; the points drawn.
    fn draw_panel(
        &mut self,
        k: usize,
        canvas: web_sys::HtmlCanvasElement,
        w: u32,
        h: u32,
        dpr: f64,
    ) -> Result<usize, JsError> {
        let info = &self.display.layout.panels[k];
        if canvas.width() != w || canvas.height() != h {
            canvas.set_width(w);
            canvas.set_height(h);
        }
        let backend = CanvasBackend::with_canvas_object(canvas)
            .ok_or_else(|| JsError::new(&format!("#{}: no 2D context", info.id)))?;
        let area = backend.into_drawing_area();
        area.fill(&WHITE).map_err(|e| JsError::new(&e.to_string()))?;
        let points;
        if info.kind == panels::Kind::Scene {
            let mut view = self.display.scene_view.clone();
            points = crate::scene::draw(&area, &mut view, &self.display.shown(), dpr * self.look)
                .map_err(|e| JsError::new(&format!("{}: {e}", info.id)))?;
            self.display.scene_view = view;
        } else {
            let (lines, markers, scale) = panels::content(&self.display, info.kind, w as usize);
            self.gaps[k] = panels::has_gaps(&lines);
            let spec = panels::spec(&self.display.layout, info, scale, dpr * self.look);
            let shaded = panels::shaded(&self.display, info.kind);
            let spec = nhlab_plots::Panel { shaded: &shaded, ..spec };
            nhlab_plots::draw_panel(&area, &spec, &lines, &markers)
                .map_err(|e| JsError::new(&format!("{}: {e}", info.id)))?;
            points = lines.iter().map(|l| l.points.len()).sum();
        }
        area.present().map_err(|e| JsError::new(&e.to_string()))?;
        self.stale[k] = false;
        self.drawn_at[k] = self.calls;
        Ok(points)
    }
}

#[wasm_bindgen]
impl WebDisplay {
    /// Draws panel `id` for a PNG file on `canvas` (one not in the page): its box of
    /// `css_w × css_h` at `scale` pixels per CSS pixel (2 for print-quality figures),
    /// with the panel's title over it and, for plots, a legend naming each method,
    /// so that the file explains itself away from the page.
    pub fn draw_export(
        &mut self,
        id: &str,
        canvas: web_sys::HtmlCanvasElement,
        css_w: f64,
        css_h: f64,
        scale: f64,
    ) -> Result<(), JsError> {
        let info = self.display.layout.panels.iter().find(|p| p.id == id).cloned();
        let info = info.ok_or_else(|| JsError::new(&format!("no panel {id}")))?;
        let scale = if scale.is_finite() { scale.clamp(1.0, 4.0) } else { 2.0 };
        let fit = |x: f64| if x.is_finite() { x.clamp(120.0, 2000.0) } else { 400.0 };
        let (w, h) = ((fit(css_w) * scale) as u32, (fit(css_h) * scale) as u32);
        canvas.set_width(w);
        canvas.set_height(h);
        let backend = CanvasBackend::with_canvas_object(canvas).ok_or_else(|| JsError::new("no 2D context"))?;
        let area = backend.into_drawing_area();
        area.fill(&WHITE).map_err(|e| JsError::new(&e.to_string()))?;
        if info.kind == panels::Kind::Scene {
            let mut view = self.display.scene_view.clone();
            crate::scene::draw(&area, &mut view, &self.display.shown(), scale)
                .map_err(|e| JsError::new(&format!("{id}: {e}")))?;
        } else {
            let (lines, markers, y_scale) = panels::content(&self.display, info.kind, w as usize);
            let spec = panels::spec(&self.display.layout, &info, y_scale, scale);
            let shaded = panels::shaded(&self.display, info.kind);
            let spec = nhlab_plots::Panel { title: &info.title, legend: true, shaded: &shaded, ..spec };
            nhlab_plots::draw_panel(&area, &spec, &lines, &markers).map_err(|e| JsError::new(&format!("{id}: {e}")))?;
        }
        area.present().map_err(|e| JsError::new(&e.to_string()))
    }
}

/// A canvas' CSS size from `data-css-size`, kept by the page's ResizeObserver: read
/// without a layout. A canvas not observed yet (just created) counts as empty and is
/// drawn once the observer has measured it (it marks the page for drawing):
/// measuring it here would force a layout of the whole page, which a long
/// initial-state form makes slow.
fn css_size(canvas: &web_sys::HtmlCanvasElement) -> (f64, f64) {
    let observed = canvas.get_attribute("data-css-size").and_then(|s| {
        let mut it = s.split(' ').map(str::parse::<f64>);
        match (it.next(), it.next()) {
            (Some(Ok(w)), Some(Ok(h))) if w.is_finite() && h.is_finite() => Some((w, h)),
            _ => None,
        }
    });
    observed.unwrap_or((0.0, 0.0))
}

/// Draws a sweep (from [`crate::stability`]) on canvas `id`, the backing store sized to its
/// CSS size times `dpr`, with the value the run uses at `current`, its type and lines
/// 1.6 times larger in the projector mode. Returns the horizontal
/// positions of the first and last swept values in CSS pixels `[left, right]`, so
/// that a click can be turned into a value.
#[wasm_bindgen]
pub fn draw_stability(id: &str, data: JsValue, current: f64, dpr: f64, projector: bool) -> Result<Vec<f64>, JsError> {
    let canvas = canvas_by_id(id)?;
    let dpr = if dpr.is_finite() { dpr.clamp(1.0, 4.0) } else { 1.0 };
    let (css_w, css_h) = css_size(&canvas);
    if css_w * dpr < 40.0 || css_h * dpr < 40.0 {
        return Ok(vec![0.0, 0.0]);
    }
    let look = if projector { PROJECTOR_LOOK } else { 1.0 };
    paint_stability(canvas, data, current, "", CanvasBox { css_w, css_h, scale: dpr, look })
}

/// Draws a sweep for a PNG file on `canvas` (one not in the page): a box of
/// `css_w × css_h` at `scale` pixels per CSS pixel (2 for print-quality figures),
/// with `title` over it, like the plots' exports.
#[wasm_bindgen]
pub fn draw_stability_export(
    canvas: web_sys::HtmlCanvasElement,
    data: JsValue,
    current: f64,
    title: &str,
    css_w: f64,
    css_h: f64,
    scale: f64,
) -> Result<(), JsError> {
    let scale = if scale.is_finite() { scale.clamp(1.0, 4.0) } else { 2.0 };
    let fit = |x: f64| if x.is_finite() { x.clamp(120.0, 2000.0) } else { 400.0 };
    let size = CanvasBox { css_w: fit(css_w), css_h: fit(css_h), scale, look: 1.0 };
    paint_stability(canvas, data, current, title, size).map(|_| ())
}

/// Draws the stability map (from [`crate::stability_map`]) on canvas `id`, as
/// [`draw_stability`] draws a sweep: the run's point ringed, the point `cursor` (cell
/// indices across and up; negative for none) marked by keys. Returns the plotting
/// area in CSS pixels `[left, right, top, bottom]`, for turning a click into a point.
#[wasm_bindgen]
pub fn draw_stability_map(
    id: &str,
    data: JsValue,
    cursor: &[i32],
    dpr: f64,
    projector: bool,
) -> Result<Vec<f64>, JsError> {
    let canvas = canvas_by_id(id)?;
    let dpr = if dpr.is_finite() { dpr.clamp(1.0, 4.0) } else { 1.0 };
    let (css_w, css_h) = css_size(&canvas);
    if css_w * dpr < 40.0 || css_h * dpr < 40.0 {
        return Ok(vec![0.0; 4]);
    }
    let data: crate::stability_map::MapData =
        serde_wasm_bindgen::from_value(data).map_err(|e| JsError::new(&e.to_string()))?;
    size_backing_store(&canvas, css_w, css_h, dpr);
    let (max_real, stable, neutral) = data.filled();
    let boundaries = data.boundaries();
    let (x, y) = (&data.x, &data.y);
    let marked_x = nhlab_plots::on_axis(x.current, &x.values, &x.shown);
    let marked = (marked_x.is_finite() && y.current.is_finite()).then_some((marked_x, y.current));
    let cursor = match cursor {
        [i, j] if *i >= 0 && *j >= 0 => x.shown.get(*i as usize).zip(y.shown.get(*j as usize)).map(|(a, b)| (*a, *b)),
        _ => None,
    };
    use crate::i18n::tr;
    let legend = ["stability.map-boundary", "stability.map-stable", "stability.map-unstable", "stability.map-neutral"]
        .map(|id| tr(id, &[]));
    let chart = nhlab_plots::MapChart {
        title: "",
        x: (&x.label, &x.shown),
        y: (&y.label, &y.shown),
        max_real: &max_real,
        stable: &stable,
        neutral: &neutral,
        boundaries: &boundaries,
        // In a small embed the legend would cover the map: the caption says the colours.
        legend: (css_h >= 300.0).then(|| [&*legend[0], &*legend[1], &*legend[2], &*legend[3]]),
        marked,
        cursor,
        scale: dpr * if projector { PROJECTOR_LOOK } else { 1.0 },
    };
    let backend =
        CanvasBackend::with_canvas_object(canvas).ok_or_else(|| JsError::new("the stability canvas: no 2D context"))?;
    let area = backend.into_drawing_area();
    area.fill(&WHITE).map_err(|e| JsError::new(&e.to_string()))?;
    let ((left, right), (top, bottom)) =
        nhlab_plots::draw_stability_map(&area, &chart).map_err(|e| JsError::new(&e.to_string()))?;
    area.present().map_err(|e| JsError::new(&e.to_string()))?;
    Ok([left, right, top, bottom].iter().map(|&p| f64::from(p) / dpr).collect())
}

/// Sizes `canvas`' backing store to `css_w × css_h` times `scale` (left alone when it
/// is: setting it clears the canvas).
fn size_backing_store(canvas: &web_sys::HtmlCanvasElement, css_w: f64, css_h: f64, scale: f64) {
    let (w, h) = ((css_w * scale) as u32, (css_h * scale) as u32);
    if canvas.width() != w || canvas.height() != h {
        canvas.set_width(w);
        canvas.set_height(h);
    }
}

/// The page's canvas `#id`.
fn canvas_by_id(id: &str) -> Result<web_sys::HtmlCanvasElement, JsError> {
    let document = web_sys::window().and_then(|w| w.document()).ok_or_else(|| JsError::new("no document"))?;
    document
        .get_element_by_id(id)
        .ok_or_else(|| JsError::new(&format!("no #{id}")))?
        .dyn_into()
        .map_err(|_| JsError::new(&format!("#{id} is not a canvas")))
}

/// A canvas' box in CSS pixels, its backing store's pixels per CSS pixel, and how
/// much larger its type and lines are drawn (the projector mode's).
struct CanvasBox {
    css_w: f64,
    css_h: f64,
    scale: f64,
    look: f64,
}

/// Swept value `x` on the stability panel's derived axis (`axis[k]` at `values[k]`,
/// linear between, held at the ends): the panel's words say the marked value on the
/// axis the chart draws, by the chart's own rule.
#[wasm_bindgen]
pub fn on_axis(x: f64, values: &[f64], axis: &[f64]) -> f64 {
    nhlab_plots::on_axis(x, values, axis)
}

/// The stability chart on `canvas`, its backing store `css_w × css_h` times `scale`;
/// returns the swept values' horizontal span in CSS pixels.
fn paint_stability(
    canvas: web_sys::HtmlCanvasElement,
    data: JsValue,
    current: f64,
    title: &str,
    CanvasBox { css_w, css_h, scale, look }: CanvasBox,
) -> Result<Vec<f64>, JsError> {
    let data: crate::stability::StabilityData =
        serde_wasm_bindgen::from_value(data).map_err(|e| JsError::new(&e.to_string()))?;
    size_backing_store(&canvas, css_w, css_h, scale);
    // Against the derived axis when the table gives one (ranges and the marker mapped).
    let on = |ranges: &[(f64, f64)]| -> Vec<(f64, f64)> {
        ranges.iter().map(|r| (data.shown(r.0), data.shown(r.1))).collect()
    };
    let (stable, marginal) = (on(&data.stable), on(&data.marginal));
    let (values, x_label) = match &data.axis {
        Some(a) => (&a.values, a.label.as_str()),
        None => (&data.values, data.over.as_str()),
    };
    let chart = nhlab_plots::StabilityChart {
        title,
        x_label,
        values,
        tracks: &data.tracks,
        stable: &stable,
        marginal: &marginal,
        marginal_note: !title.is_empty(),
        current: Some(data.shown(current)),
        companion: (!data.hamel.is_empty()).then_some((Method::Hamel, &data.hamel[..])),
        scale: scale * look,
    };
    let backend =
        CanvasBackend::with_canvas_object(canvas).ok_or_else(|| JsError::new("the stability canvas: no 2D context"))?;
    let area = backend.into_drawing_area();
    area.fill(&WHITE).map_err(|e| JsError::new(&e.to_string()))?;
    let (left, right) = nhlab_plots::draw_stability(&area, &chart).map_err(|e| JsError::new(&e.to_string()))?;
    area.present().map_err(|e| JsError::new(&e.to_string()))?;
    Ok(vec![left as f64 / scale, right as f64 / scale])
}

#[derive(serde::Deserialize)]
struct LongRunLine {
    label: String,
    method: String,
    set: usize,
    integrator: usize,
    points: Vec<[f64; 2]>,
}

#[derive(serde::Deserialize)]
struct LongRunData {
    t0: f64,
    runs: Vec<LongRunLine>,
}

/// Draws a long run's energy errors (the helper's `WebLongRun::data`) on the canvas
/// `#id` at `dpr` device pixels per CSS pixel: `|ΔE|` against `t − t₀`, both on
/// log scales, a line per run in its colour, with a legend.
#[wasm_bindgen]
pub fn draw_long_run(id: &str, data: JsValue, dpr: f64) -> Result<(), JsError> {
    let data: LongRunData = serde_wasm_bindgen::from_value(data).map_err(|e| JsError::new(&e.to_string()))?;
    let canvas = canvas_by_id(id)?;
    let dpr = if dpr.is_finite() { dpr.clamp(1.0, 4.0) } else { 1.0 };
    let (css_w, css_h) = css_size(&canvas);
    if css_w * dpr < 40.0 || css_h * dpr < 40.0 {
        return Ok(());
    }
    canvas.set_width((css_w * dpr) as u32);
    canvas.set_height((css_h * dpr) as u32);
    let mut lines = Vec::new();
    for run in &data.runs {
        let method = super::method(&run.method)?;
        let points: Vec<(f64, f64)> = run
            .points
            .iter()
            .filter(|p| p[0] > data.t0 && p[1].is_finite())
            .map(|p| ((p[0] - data.t0).log10(), p[1]))
            .collect();
        let series = nhlab_plots::Series { method, set: run.set, integrator: run.integrator };
        lines.push(nhlab_plots::Line { series, points, label: Some(run.label.clone()), dashed: false });
    }
    let backend = CanvasBackend::with_canvas_object(canvas).ok_or_else(|| JsError::new("no 2D context"))?;
    let area = backend.into_drawing_area();
    area.fill(&WHITE).map_err(|e| JsError::new(&e.to_string()))?;
    let panel = nhlab_plots::Panel {
        title: "",
        x_label: "t − t₀ (log scale)",
        y_label: "|T + V − (T + V)(t₀)| (log scale)",
        x_range: None,
        y_scale: nhlab_plots::Scale::Log,
        x_scale: nhlab_plots::Scale::Log,
        equal_aspect: false,
        legend: true,
        scale: dpr,
        shaded: &[],
    };
    nhlab_plots::draw_panel(&area, &panel, &lines, &[]).map_err(|e| JsError::new(&e.to_string()))?;
    area.present().map_err(|e| JsError::new(&e.to_string()))
}
