//! `run --scene FILE.svg|FILE.png [--frames T1,T2,…]`: a strip of the scene at chosen
//! times, for printed notes — every method's picture in its colour (the first solid,
//! the others as ghosts), each frame at the same scale, trails up to the frame.

use plotters::coord::Shift;
use plotters::prelude::*;

use nhlab::formulations::Method;
use nhlab::mechanics::NumericModel;
use nhlab::scene::{Camera, Fit, Picture, ScenePlayer};
use nhlab::simulation::{Settings, Simulation, State};
use nhlab_plots::scene::{bounds, draw_scene, Ghost};
use nhlab_plots::DrawResult;

use crate::Failure;

/// Most frames in one strip.
pub const MAX_FRAMES: usize = 24;
/// Frames per row of the strip.
const PER_ROW: usize = 4;
/// Points of each trail before the last frame.
const TRAIL_POINTS: usize = 400;
/// Side of one frame, pixels.
const SIDE: u32 = 360;

/// The frame times: `--frames` as given, or five from the start to the end.
pub fn frame_times(text: Option<&str>, t0: f64, t_end: f64) -> Result<Vec<f64>, Failure> {
    let times = match text {
        Some(text) => crate::times::parse_sample_times(text).map_err(|e| Failure::bad(format!("--frames: {e}")))?,
        None => (0..5).map(|k| t0 + (t_end - t0) * k as f64 / 4.0).collect(),
    };
    if times.len() > MAX_FRAMES {
        return Err(Failure::bad(format!("--frames: {} frames; a strip holds at most {MAX_FRAMES}", times.len())));
    }
    if times.windows(2).any(|w| w[1] <= w[0]) || times[0] < t0 || times[times.len() - 1] > t_end {
        return Err(Failure::bad(format!(
            "--frames: times must be increasing, from the initial time {t0} to the end {t_end}"
        )));
    }
    Ok(times)
}

/// One method's frames: its picture at each frame time it reached, and its trails.
struct Frames {
    method: Method,
    /// `None` past where the run stopped.
    pictures: Vec<Option<Picture>>,
    /// Per frame, per trailed element: the path up to that frame.
    trails: Vec<Vec<Vec<[f64; 3]>>>,
}

/// Runs each method to the last frame, sampling at the frames and along the trails.
fn frames_of(
    numeric: &NumericModel,
    initial: &State,
    settings: &[Settings],
    player: &mut ScenePlayer,
    times: &[f64],
) -> Vec<Frames> {
    let t0 = initial.t;
    let last = times[times.len() - 1];
    let mut grid: Vec<f64> = (0..=TRAIL_POINTS).map(|k| t0 + (last - t0) * k as f64 / TRAIL_POINTS as f64).collect();
    grid.extend(times);
    grid.sort_by(f64::total_cmp);
    grid.dedup();
    let parameters = numeric.parameters.clone();
    settings
        .iter()
        .map(|&settings| {
            let mut samples = Vec::new();
            if let Ok(mut sim) = Simulation::new(numeric.clone(), settings, initial) {
                // A run that stops early keeps what it reached.
                let _ = sim.advance_sampling(&grid[1..]);
                samples = sim.samples().to_vec();
            }
            let trail_at: Vec<(f64, Vec<[f64; 3]>)> =
                samples.iter().map(|s| (s.t, player.trail_points(&parameters, s.t, &s.q, &s.v))).collect();
            let mut pictures = Vec::new();
            let mut trails = Vec::new();
            for &t in times {
                let sample = samples.iter().find(|s| s.t == t);
                pictures.push(sample.map(|s| player.picture(&parameters, s.t, &s.q, &s.v)));
                let upto: Vec<&Vec<[f64; 3]>> = trail_at.iter().filter(|(ts, _)| *ts <= t).map(|(_, p)| p).collect();
                let count = upto.first().map_or(0, |p| p.len());
                trails.push((0..count).map(|k| upto.iter().map(|p| p[k]).collect()).collect());
            }
            Frames { method: settings.method, pictures, trails }
        })
        .collect()
}

/// Writes the strip to `path`.
pub fn write(
    path: &str,
    title: &str,
    numeric: &NumericModel,
    initial: &State,
    settings: &[Settings],
    player: &mut ScenePlayer,
    times: &[f64],
) -> Result<(), Failure> {
    if player.elements().is_empty() {
        return Err(Failure::bad(
            "--scene: this scenario draws nothing: give its bodies a `shape` or add `[[scene.shapes]]` \
             (see the format reference)",
        ));
    }
    let frames = frames_of(numeric, initial, settings, player, times);
    for line in hidden_notes(&frames, times) {
        crate::say!("warning: --scene: {line}");
    }
    let camera = Camera::new(player.projection());
    let columns = times.len().min(PER_ROW);
    let rows = times.len().div_ceil(PER_ROW);
    let size = (columns as u32 * SIDE, 50 + rows as u32 * (SIDE + 24) + 30);
    crate::plot::register_font()?;
    let result = if path.ends_with(".svg") {
        draw(SVGBackend::new(path, size).into_drawing_area(), title, &camera, &frames, times)
    } else if path.ends_with(".png") {
        draw(BitMapBackend::new(path, size).into_drawing_area(), title, &camera, &frames, times)
    } else {
        return Err(Failure::bad(format!("--scene: `{path}` must end in .svg or .png")));
    };
    result.map_err(|e| Failure::Compute(format!("--scene {path}: {e}")))
}

fn draw<B: DrawingBackend>(
    root: DrawingArea<B, Shift>,
    title: &str,
    camera: &Camera,
    frames: &[Frames],
    times: &[f64],
) -> DrawResult
where
    B::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let root = root.titled(title, ("sans-serif", 24))?;
    let (width, height) = root.dim_in_pixel();
    let (body, legend) = root.split_vertically(height - 30);
    // One scale for every frame (that of the largest), each frame centred on what it
    // shows: the camera follows the system, and the ground's grid shows it moving.
    let framed: Vec<_> =
        (0..times.len()).map(|k| bounds(camera, frames.iter().filter_map(|f| f.pictures[k].as_ref()), &[])).collect();
    let side = SIDE as f64;
    let scale = framed
        .iter()
        .filter(|b| !b.is_empty())
        .map(|b| Fit::new(b, side, side - 24.0, 36.0).scale / 1.5)
        .fold(f64::INFINITY, f64::min);
    let scale = if scale.is_finite() { scale } else { Fit::new(&framed[0], side, side, 36.0).scale };
    let cells = body.split_evenly((times.len().div_ceil(PER_ROW), PER_ROW.min(times.len())));
    for (k, (cell, &t)) in cells.iter().zip(times).enumerate() {
        let (label, panel) = cell.split_vertically(24);
        label.draw_text(&format!("t = {t}"), &("sans-serif", 16).into_font().color(&BLACK), (8, 4))?;
        let ghosts: Vec<Ghost> = frames
            .iter()
            .filter_map(|f| {
                f.pictures[k].as_ref().map(|picture| Ghost { series: f.method.into(), picture, trails: &f.trails[k] })
            })
            .collect();
        let (w, h) = panel.dim_in_pixel();
        let fit = Fit::centred(&framed[k], scale, w as f64, h as f64);
        draw_scene(&panel, camera, &fit, &ghosts, 1.0)?;
        panel.draw(&Rectangle::new([(0, 0), (w as i32 - 1, h as i32 - 1)], RGBColor(210, 212, 218)))?;
        let missing: Vec<&str> = frames.iter().filter(|f| f.pictures[k].is_none()).map(|f| f.method.id()).collect();
        if !missing.is_empty() {
            let note = format!("{} stopped before this time", missing.join(", "));
            panel.draw_text(&note, &("sans-serif", 13).into_font().color(&RGBColor(90, 90, 90)), (8, h as i32 - 20))?;
        }
    }
    let mut x = 12;
    for (k, f) in frames.iter().enumerate() {
        let c = nhlab_plots::colour(f.method);
        let style = if k == 0 { c.filled() } else { c.mix(0.45).filled() };
        legend.draw(&Rectangle::new([(x, 8), (x + 14, 22)], style))?;
        let text = if k == 0 { f.method.id().to_string() } else { format!("{} (ghost)", f.method.id()) };
        legend.draw_text(&text, &("sans-serif", 15).into_font().color(&BLACK), (x + 20, 7))?;
        x += 40 + 9 * text.len() as i32;
    }
    let _ = width;
    // Written here, so that a file that cannot be written is an error (dropping the
    // backend would write it and ignore the failure).
    root.present()?;
    Ok(())
}

/// What each frame leaves out, as the page says it: `not drawn at t = 1 (a value is
/// not finite there): bob (lagrange), rod (lagrange, gauss)`; one line per frame that
/// leaves something out.
fn hidden_notes(frames: &[Frames], times: &[f64]) -> Vec<String> {
    let mut lines = Vec::new();
    for (k, &t) in times.iter().enumerate() {
        let mut by_label: Vec<(String, Vec<&str>)> = Vec::new();
        for f in frames {
            let Some(picture) = &f.pictures[k] else { continue };
            for label in &picture.hidden {
                match by_label.iter_mut().find(|(l, _)| l == label) {
                    Some((_, methods)) => methods.push(f.method.id()),
                    None => by_label.push((label.clone(), vec![f.method.id()])),
                }
            }
        }
        if !by_label.is_empty() {
            let named: Vec<String> =
                by_label.iter().map(|(label, methods)| format!("{label} ({})", methods.join(", "))).collect();
            lines.push(format!("not drawn at t = {t} (a value is not finite there): {}", named.join(", ")));
        }
    }
    lines
}
