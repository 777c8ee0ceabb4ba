//! `run --plot`: one figure of a run, SVG or PNG, six panels — trajectory, time
//! series, constraint residuals (log scale), energy, the E-vector's norm and Gauss's
//! compulsion — one colour per method, with a legend.

use plotters::coord::Shift;
use plotters::prelude::*;

use nhlab::formulations::Method;
use nhlab::simulation::Sample;
use nhlab_plots::{draw_panel, DrawResult, Line, Panel, Scale};

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

fn draw<B: DrawingBackend>(root: DrawingArea<B, Shift>, title: &str, labels: &[String], curves: &[Curves]) -> DrawResult
where
    B::ErrorType: 'static,
{
    root.fill(&WHITE)?;
    let root = root.titled(title, ("sans-serif", 26))?;
    let panels = root.split_evenly((3, 2));
    let lines = |f: &dyn Fn(&Curves, usize) -> (f64, f64)| -> Vec<Line> {
        curves
            .iter()
            .map(|c| Line {
                method: c.method,
                points: (0..c.samples.len()).map(|k| f(c, k)).collect(),
                label: Some(c.method.id().to_string()),
                dashed: false,
            })
            .collect()
    };
    let spec = |title, x_label, y_label, y_scale, legend| Panel {
        title,
        x_label,
        y_label,
        x_range: None,
        y_scale,
        equal_aspect: false,
        legend,
        scale: 1.0,
    };
    let (xl, yl) = match labels {
        [a, b, ..] => (a.as_str(), b.as_str()),
        _ => ("", ""),
    };
    // 1. Trajectory: the first two view expressions against each other.
    let trajectory = lines(&|c, k| (c.view[k][0], c.view[k][1]));
    draw_panel(&panels[0], &spec("trajectory", xl, yl, Scale::Linear, false), &trajectory, &[])?;
    // 2. The first series against t.
    let first = labels.get(2).cloned().unwrap_or_default();
    let title = format!("{first} against t");
    let series = lines(&|c, k| (c.samples[k].t, c.view[k].get(2).copied().unwrap_or(f64::NAN)));
    draw_panel(&panels[1], &spec(&title, "t", &first, Scale::Linear, false), &series, &[])?;
    // 3. Largest constraint residual, log scale.
    let residual = lines(&|c, k| {
        let s = &c.samples[k];
        (s.t, s.residuals.iter().fold(0.0f64, |m, r| m.max(r.abs())))
    });
    draw_panel(&panels[2], &spec("constraint residual", "t", "max |f|", Scale::Log, false), &residual, &[])?;
    // 4. Energy drift from the start, log scale (methods that conserve it sit decades below those that do not).
    let drift = lines(&|c, k| (c.samples[k].t, c.samples[k].energy - c.samples[0].energy));
    draw_panel(&panels[3], &spec("energy drift", "t", "|T + V − (T + V)(0)|", Scale::Log, false), &drift, &[])?;
    // 5. |E| along each method's trajectory, log scale (it spans decades near a singular split).
    let e = lines(&|c, k| (c.samples[k].t, c.e_norm[k]));
    draw_panel(&panels[4], &spec("Hamel's E-vector", "t", "|E|", Scale::Log, false), &e, &[])?;
    // 6. Gauss's compulsion of each method's accelerations, log scale.
    let z = lines(&|c, k| (c.samples[k].t, c.samples[k].compulsion));
    draw_panel(&panels[5], &spec("Gauss's compulsion", "t", "Z", Scale::Log, true), &z, &[])?;
    root.present()?;
    Ok(())
}
