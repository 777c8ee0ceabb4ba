//! `run --plot`: one figure of a run, SVG or PNG, six panels — trajectory, time
//! series, constraint residuals (log scale), energy, the E-vector's norm and Gauss's
//! compulsion — one colour per method, with a legend.

use plotters::coord::Shift;
use plotters::prelude::*;

use nhlab::formulations::Method;
use nhlab::mechanics::NumericModel;
use nhlab::simulation::Sample;

use crate::Failure;

/// What to draw for one method.
pub struct Curves {
    pub method: Method,
    pub samples: Vec<Sample>,
    /// `view` expressions at every sample (trajectory pair first, then series).
    pub view: Vec<Vec<f64>>,
    /// |E| at every sample (NaN where undefined).
    pub e_norm: Vec<f64>,
}

const COLOURS: [RGBColor; 7] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(140, 86, 75),
    RGBColor(23, 190, 207),
];

/// Fonts tried for text: `NHLAB_FONT`, then common system fonts.
const FONT_PATHS: [&str; 4] = [
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/System/Library/Fonts/Supplemental/Arial.ttf",
];

fn register_font() -> Result<(), Failure> {
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

/// Evaluates the scenario's view expressions along the samples.
pub fn view_values(numeric: &mut NumericModel, program: &nhlab::expr::Program, samples: &[Sample]) -> Vec<Vec<f64>> {
    let mut ev = program.evaluator();
    let mut out = vec![0.0; program.output_count()];
    samples
        .iter()
        .map(|s| {
            let mut inputs = vec![s.t];
            inputs.extend(&s.q);
            inputs.extend(&s.v);
            inputs.extend(&numeric.parameters);
            match ev.eval(&inputs, &mut out) {
                Ok(()) => out.clone(),
                Err(_) => vec![f64::NAN; out.len()],
            }
        })
        .collect()
}

/// Writes the figure to `path` (`.svg` or `.png`).
pub fn write(path: &str, title: &str, labels: &[String], curves: &[Curves]) -> Result<(), Failure> {
    let size = (1200, 1100);
    // Both backends measure text with the registered font.
    register_font()?;
    let result = if path.ends_with(".svg") {
        draw(SVGBackend::new(path, size).into_drawing_area(), title, labels, curves)
    } else if path.ends_with(".png") {
        draw(BitMapBackend::new(path, size).into_drawing_area(), title, labels, curves)
    } else {
        return Err(Failure::bad(format!("--plot: `{path}` must end in .svg or .png")));
    };
    result.map_err(|e| Failure::Compute(format!("--plot {path}: {e}")))
}

type DrawResult = Result<(), Box<dyn std::error::Error>>;

fn draw<B: DrawingBackend>(root: DrawingArea<B, Shift>, title: &str, labels: &[String], curves: &[Curves]) -> DrawResult
where
    B::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let root = root.titled(title, ("sans-serif", 26))?;
    let panels = root.split_evenly((3, 2));
    let series = |f: &dyn Fn(&Curves, usize) -> f64| -> Vec<Vec<(f64, f64)>> {
        curves.iter().map(|c| (0..c.samples.len()).map(|k| (c.samples[k].t, f(c, k))).collect()).collect()
    };
    // 1. Trajectory: the first two view expressions against each other.
    let trajectory: Vec<Vec<(f64, f64)>> =
        curves.iter().map(|c| c.view.iter().filter(|v| v.len() >= 2).map(|v| (v[0], v[1])).collect()).collect();
    let (xl, yl) = match labels {
        [a, b, ..] => (a.as_str(), b.as_str()),
        _ => ("", ""),
    };
    panel(&panels[0], "trajectory", xl, yl, &trajectory, curves, false)?;
    // 2. The remaining view expressions (the first series) against t.
    let first_series = labels.get(2).cloned().unwrap_or_default();
    panel(
        &panels[1],
        &format!("{first_series} against t"),
        "t",
        &first_series,
        &series(&|c, k| c.view[k].get(2).copied().unwrap_or(f64::NAN)),
        curves,
        false,
    )?;
    // 3. Largest constraint residual, log scale.
    let residual = series(&|c, k| c.samples[k].residuals.iter().fold(0.0f64, |m, r| m.max(r.abs())).max(1e-18).log10());
    panel(&panels[2], "constraint residual", "t", "log10 max |f|", &residual, curves, false)?;
    // 4. Energy drift from the start.
    let drift = series(&|c, k| c.samples[k].energy - c.samples[0].energy);
    panel(&panels[3], "energy drift", "t", "T + V − (T + V)(0)", &drift, curves, false)?;
    // 5. |E| along each method's trajectory, log scale (it spans decades near a singular split).
    let log = |x: f64| if x.is_finite() { x.abs().max(1e-18).log10() } else { f64::NAN };
    panel(&panels[4], "Hamel's E-vector", "t", "log10 |E|", &series(&|c, k| log(c.e_norm[k])), curves, false)?;
    // 6. Gauss's compulsion of each method's accelerations, log scale.
    panel(
        &panels[5],
        "Gauss's compulsion",
        "t",
        "log10 Z",
        &series(&|c, k| log(c.samples[k].compulsion)),
        curves,
        true,
    )?;
    root.present()?;
    Ok(())
}

fn range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) =
        values.filter(|v| v.is_finite()).fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let pad = if hi > lo { 0.05 * (hi - lo) } else { 0.5 * lo.abs().max(1.0) };
    (lo - pad, hi + pad)
}

fn panel<B: DrawingBackend>(
    area: &DrawingArea<B, Shift>,
    title: &str,
    x_label: &str,
    y_label: &str,
    data: &[Vec<(f64, f64)>],
    curves: &[Curves],
    legend: bool,
) -> DrawResult
where
    B::ErrorType: 'static,
{
    let xr = range(data.iter().flatten().map(|p| p.0));
    let yr = range(data.iter().flatten().map(|p| p.1));
    let mut chart = ChartBuilder::on(area)
        .caption(title, ("sans-serif", 18))
        .margin(12)
        .x_label_area_size(36)
        .y_label_area_size(64)
        .build_cartesian_2d(xr.0..xr.1, yr.0..yr.1)?;
    let span = (yr.1 - yr.0).abs().max(yr.0.abs()).max(yr.1.abs());
    let scientific = !(1e-2..1e4).contains(&span);
    let y_format = move |v: &f64| if scientific { format!("{v:.1e}") } else { format!("{v:.3}") };
    chart
        .configure_mesh()
        .x_desc(x_label)
        .y_desc(y_label)
        .y_label_formatter(&y_format)
        .label_style(("sans-serif", 13))
        .draw()?;
    for (c, points) in curves.iter().zip(data) {
        let colour = COLOURS[Method::ALL.iter().position(|&m| m == c.method).unwrap_or(0) % COLOURS.len()];
        // Non-finite values are gaps, never plotted.
        let mut segment: Vec<(f64, f64)> = Vec::new();
        let mut segments = Vec::new();
        for &p in points {
            if p.0.is_finite() && p.1.is_finite() {
                segment.push(p);
            } else if !segment.is_empty() {
                segments.push(std::mem::take(&mut segment));
            }
        }
        segments.push(segment);
        for (k, s) in segments.into_iter().enumerate() {
            let series = chart.draw_series(LineSeries::new(s, colour.stroke_width(2)))?;
            if k == 0 {
                series
                    .label(c.method.id())
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(3)));
            }
        }
    }
    if legend {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .label_font(("sans-serif", 14))
            .draw()?;
    }
    Ok(())
}
