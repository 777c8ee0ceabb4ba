//! `run --plot`: one figure of a run, SVG or PNG, in two columns of panels — the
//! panels of `nhlab_plots::run_panels`, as the page has them: the trajectory (at
//! equal aspect when it is a path in coordinates, as in the page), one panel per
//! `view.series`, constraint residuals (log scale; dashed the velocity-level residual
//! of holonomic constraints), the contacts' normal forces and needed friction, the
//! energy, the E-vector's norm, and (the figure's own) Gauss's compulsion — one
//! colour per method, with a legend.

use plotters::coord::Shift;
use plotters::prelude::*;

use nhlab::mechanics::CONTACT_COLUMNS;
use nhlab::simulation::SampleRef;
use nhlab_plots::{draw_panel, run_panels, DrawResult, Line, Panel, PanelKind, RunContents, Scale, Series};

use crate::Failure;

/// What to draw for one run: its samples borrowed from the run (no copy).
pub struct Curves<'a> {
    /// Whose: the colour and mark.
    pub series: Series,
    /// The legend entry.
    pub label: String,
    /// The samples written (from the run's first one written on).
    pub samples: Vec<SampleRef<'a>>,
    /// `view` expressions at every sample (trajectory pair first, then series).
    pub view: Vec<Vec<f64>>,
    /// |E| at every sample (NaN where undefined).
    pub e_norm: Vec<f64>,
}

/// Fonts tried for text: `NHLAB_FONT`, then common system fonts.
const FONT_PATHS: [&str; 4] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/System/Library/Fonts/Supplemental/Arial.ttf",
];

pub(crate) fn register_font() -> Result<(), Failure> {
    let candidates = std::env::var("NHLAB_FONT").into_iter().chain(FONT_PATHS.iter().map(|s| s.to_string()));
    for path in candidates {
        if let Ok(bytes) = std::fs::read(&path) {
            let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
            if plotters::style::register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                return Ok(());
            }
        }
    }
    Err(Failure::Compute(
        "a figure needs a TrueType font for its labels: set NHLAB_FONT to a .ttf file or install fonts-dejavu-core"
            .into(),
    ))
}

/// What the figure shows besides the curves.
pub struct Figure<'a> {
    /// The scenario's title.
    pub title: &'a str,
    /// The view's labels: the trajectory pair, then one per series.
    pub labels: &'a [String],
    /// The same with units where `[units]` gives them (`x [m]`).
    pub axis_labels: &'a [String],
    /// The time axis's label.
    pub time_label: &'a str,
    /// Whether the trajectory is a path in coordinates (drawn at equal aspect).
    pub spatial: bool,
    /// Which constraints are holonomic (their velocity-level residual is dashed).
    pub holonomic: &'a [bool],
    /// Whether the true motion conserves the recorded energy (`nhlab::mechanics::energy_changes`).
    pub energy_conserved: bool,
    /// Whether the recorded energy is the energy function `h = T₂ − T₀ + V`
    /// rather than `T + V` (`nhlab::mechanics::energy_form`).
    pub energy_function: bool,
    /// What the runs have to show: which panels the figure has ([`run_panels`]).
    pub contents: RunContents,
    /// Which contacts declare a friction coefficient (its `μ` is dashed beside the
    /// needed friction).
    pub friction: &'a [bool],
}

/// A panel's text and axes.
fn spec<'s>(title: &'s str, x_label: &'s str, y_label: &'s str, y_scale: Scale, legend: bool) -> Panel<'s> {
    Panel {
        title,
        x_label,
        y_label,
        x_range: None,
        y_scale,
        x_scale: Scale::Linear,
        equal_aspect: false,
        legend,
        scale: 1.0,
        shaded: &[],
    }
}

/// Writes the figure to `path` (`.svg` or `.png`).
pub fn write(path: &str, figure: &Figure, curves: &[Curves<'_>]) -> Result<(), Failure> {
    let rows = run_panels(&figure.contents).len().div_ceil(2) as u32;
    let size = (1200, 60 + 350 * rows);
    // Both backends measure text with the registered font.
    register_font()?;
    let result = if path.ends_with(".svg") {
        draw(SVGBackend::new(path, size).into_drawing_area(), figure, curves)
    } else if path.ends_with(".png") {
        draw(BitMapBackend::new(path, size).into_drawing_area(), figure, curves)
    } else {
        return Err(Failure::bad(format!("--plot: `{path}` must end in .svg or .png")));
    };
    result.map_err(|e| Failure::Compute(format!("--plot {path}: {e}")))
}

fn draw<B: DrawingBackend>(root: DrawingArea<B, Shift>, figure: &Figure, curves: &[Curves<'_>]) -> DrawResult
where
    B::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let root = root.titled(figure.title, ("sans-serif", 26))?;
    let kinds = run_panels(&figure.contents);
    let panels = root.split_evenly((kinds.len().div_ceil(2), 2));
    let curve_lines = |f: &dyn Fn(&Curves, usize) -> (f64, f64), label: bool, dashed: bool| -> Vec<Line> {
        curves
            .iter()
            .map(|c| Line {
                series: c.series,
                points: (0..c.samples.len()).map(|k| f(c, k)).collect(),
                label: label.then(|| c.label.clone()),
                dashed,
            })
            .collect()
    };
    let lines = |f: &dyn Fn(&Curves, usize) -> (f64, f64)| curve_lines(f, true, false);
    let t = figure.time_label;
    let (xl, yl) = match figure.axis_labels {
        [a, b, ..] => (a.as_str(), b.as_str()),
        _ => ("", ""),
    };
    // A contact's force column `k` (NaN where the run did not record it).
    let force = |s: &SampleRef<'_>, contact: usize, k: usize| {
        s.contact_forces.get(contact * CONTACT_COLUMNS + k).copied().unwrap_or(f64::NAN)
    };
    let contacts = figure.friction.len();
    let last = kinds.len() - 1;
    for (kind, (k, area)) in kinds.iter().zip(panels.iter().enumerate()) {
        let legend = k == last;
        match *kind {
            // The trajectory: the first two view expressions against each other.
            PanelKind::Trajectory => {
                let trajectory = lines(&|c, k| (c.view[k][0], c.view[k][1]));
                let spec = Panel { equal_aspect: figure.spatial, ..spec("trajectory", xl, yl, Scale::Linear, legend) };
                draw_panel(area, &spec, &trajectory, &[])?;
            }
            // Each series against t.
            PanelKind::Series(i) => {
                let title = format!("{} against t", figure.labels[2 + i]);
                let series = lines(&|c, k| (c.samples[k].t, c.view[k].get(2 + i).copied().unwrap_or(f64::NAN)));
                draw_panel(area, &spec(&title, t, &figure.axis_labels[2 + i], Scale::Linear, legend), &series, &[])?;
            }
            // Largest constraint residual as written, log scale; dashed the velocity
            // level of holonomic constraints.
            PanelKind::Residual => {
                let largest = |xs: &mut dyn Iterator<Item = f64>| xs.fold(0.0f64, |m, r| m.max(r.abs()));
                let mut residual =
                    lines(&|c, k| (c.samples[k].t, largest(&mut c.samples[k].residuals.iter().copied())));
                if figure.holonomic.iter().any(|&h| h) {
                    residual.extend(curve_lines(
                        &|c, k| {
                            let s = &c.samples[k];
                            let mut holonomic =
                                s.velocity_residuals.iter().zip(figure.holonomic).filter(|(_, &h)| h).map(|(&r, _)| r);
                            (s.t, largest(&mut holonomic))
                        },
                        false,
                        true,
                    ));
                }
                let spec = spec("constraint residuals", t, "max |residual|", Scale::Log, legend);
                draw_panel(area, &spec, &residual, &[])?;
            }
            // Each contact's normal force; the second and later dashed.
            PanelKind::ContactNormal => {
                let mut normal = Vec::new();
                for contact in 0..contacts {
                    normal.extend(curve_lines(
                        &|c, k| (c.samples[k].t, force(&c.samples[k], contact, 0)),
                        contact == 0,
                        contact > 0,
                    ));
                }
                draw_panel(area, &spec("contact normal forces", t, "N", Scale::Linear, legend), &normal, &[])?;
            }
            // Each contact's needed friction |F_t|/N, and its μ dashed where it declares one.
            PanelKind::ContactFriction => {
                let mut needed = Vec::new();
                for (contact, &declared) in figure.friction.iter().enumerate() {
                    needed.extend(curve_lines(
                        &|c, k| (c.samples[k].t, force(&c.samples[k], contact, 4)),
                        contact == 0,
                        contact > 0,
                    ));
                    if declared {
                        needed.extend(curve_lines(
                            &|c, k| (c.samples[k].t, force(&c.samples[k], contact, 5)),
                            false,
                            true,
                        ));
                    }
                }
                draw_panel(
                    area,
                    &spec("friction needed (μ dashed)", t, "|F_t| / N", Scale::Linear, legend),
                    &needed,
                    &[],
                )?;
            }
            // Energy from the start, log scale: a drift where the true motion conserves
            // it (methods that conserve it sit decades below those that do not), else
            // its change.
            PanelKind::Energy => {
                let drift = lines(&|c, k| (c.samples[k].t, c.samples[k].energy - c.samples[0].energy));
                let title = match (figure.energy_conserved, figure.energy_function) {
                    (true, false) => "energy drift",
                    (false, false) => "energy change (need not be conserved here)",
                    (true, true) => "energy drift (h = T₂ − T₀ + V, conserved here)",
                    (false, true) => "change of h = T₂ − T₀ + V (need not be conserved here)",
                };
                let axis = if figure.energy_function { "|h − h(0)|" } else { "|T + V − (T + V)(0)|" };
                draw_panel(area, &spec(title, t, axis, Scale::Log, legend), &drift, &[])?;
            }
            // |E| along each method's trajectory, log scale (it spans decades near a
            // singular split).
            PanelKind::EVector => {
                let e = lines(&|c, k| (c.samples[k].t, c.e_norm[k]));
                draw_panel(area, &spec("Hamel's E-vector", t, "|E|", Scale::Log, legend), &e, &[])?;
            }
            // Gauss's compulsion of each method's accelerations, log scale.
            PanelKind::Compulsion => {
                let z = lines(&|c, k| (c.samples[k].t, c.samples[k].compulsion));
                draw_panel(area, &spec("Gauss's compulsion", t, "Z", Scale::Log, legend), &z, &[])?;
            }
            // A figure has no scene (`nhlab run --scene` draws it).
            PanelKind::Scene => {}
        }
    }
    root.present()?;
    Ok(())
}

/// `linearize --plot`: the eigenvalues against the swept value (`nhlab_plots`'
/// stability figure), SVG or PNG.
/// Against the derived `axis` when the scenario gives one (`sweep.axis`).
pub fn write_stability(
    path: &str,
    title: &str,
    x_label: &str,
    sweep: &nhlab::stability::Sweep,
    axis: Option<&nhlab::stability::Axis>,
) -> Result<(), Failure> {
    let tracks = sweep.tracks();
    let mut ranges = nhlab_plots::sweep_ranges(sweep);
    let mut marginal = nhlab_plots::marginal_ranges(sweep);
    let (values, label) = match axis {
        Some(a) => {
            let map = |x: f64| nhlab_plots::on_axis(x, &sweep.values, &a.values);
            for r in ranges.iter_mut().chain(marginal.iter_mut()) {
                *r = (map(r.0), map(r.1));
            }
            (a.values.clone(), a.label())
        }
        None => (sweep.values.clone(), x_label.to_string()),
    };
    let chart = nhlab_plots::StabilityChart {
        title,
        x_label: &label,
        values: &values,
        tracks: &tracks,
        stable: &ranges,
        marginal: &marginal,
        marginal_note: true,
        current: None,
        companion: None,
        scale: 1.0,
    };
    save(path, (1000, 720), &StabilityFigure::Eigenvalues(&chart))
}

/// A stability figure to save.
enum StabilityFigure<'a, 'b> {
    /// Eigenvalues against a sweep.
    Eigenvalues(&'a nhlab_plots::StabilityChart<'b>),
    /// A map over two axes.
    Map(&'a nhlab_plots::MapChart<'b>),
}

/// `figure` at `size` to `path` (`.svg`, else PNG).
fn save(path: &str, size: (u32, u32), figure: &StabilityFigure) -> Result<(), Failure> {
    register_font()?;
    let result = if path.ends_with(".svg") {
        draw_on(SVGBackend::new(path, size).into_drawing_area(), figure)
    } else {
        draw_on(BitMapBackend::new(path, size).into_drawing_area(), figure)
    };
    result.map_err(|e| Failure::Compute(format!("--plot {path}: {e}")))
}

fn draw_on<B: DrawingBackend>(root: DrawingArea<B, Shift>, figure: &StabilityFigure) -> DrawResult
where
    B::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    match figure {
        StabilityFigure::Eigenvalues(chart) => {
            nhlab_plots::draw_stability(&root, chart)?;
        }
        StabilityFigure::Map(chart) => {
            nhlab_plots::draw_stability_map(&root, chart)?;
        }
    }
    root.present()?;
    Ok(())
}

/// The stability map over its two axes, to `path` (`.svg` or `.png`).
pub fn write_stability_map(path: &str, title: &str, map: &nhlab::stability::StabilityMap) -> Result<(), Failure> {
    if !(path.ends_with(".svg") || path.ends_with(".png")) {
        return Err(Failure::bad(format!("--plot: `{path}` must end in .svg or .png")));
    }
    let axes = &map.grid.axes;
    let max_real: Vec<f64> = map.points.iter().map(|p| p.max_real).collect();
    let stable: Vec<bool> = map.points.iter().map(|p| p.stable).collect();
    let boundaries: Vec<(f64, f64)> = map
        .boundaries
        .iter()
        .map(|b| {
            let mut at = map.grid.point(b.from);
            at[b.axis] = b.value;
            (at[0], at[1])
        })
        .collect();
    let chart = nhlab_plots::MapChart {
        title,
        x: (&axes[0].name, &axes[0].values),
        y: (&axes[1].name, &axes[1].values),
        max_real: &max_real,
        stable: &stable,
        neutral: &[],
        boundaries: &boundaries,
        legend: Some(nhlab_plots::MAP_LEGEND),
        marked: None,
        cursor: None,
        scale: 1.0,
    };
    save(path, (900, 720), &StabilityFigure::Map(&chart))
}
