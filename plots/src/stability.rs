//! The stability figure: the real parts (top) and imaginary parts (bottom) of the
//! eigenvalues against the swept value, one colour per eigenvalue track, the stable
//! ranges shaded green, the current value marked, and optionally another
//! formulation's eigenvalues dashed (Hamel's embedding beside the true motion). The command
//! line's `linearize --plot` and the page's stability panel both draw it.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{range, tick_label, Scale, COLOURS};

/// One eigenvalue's `(re, im)` at every swept value.
pub type Track = Vec<(f64, f64)>;

/// What the stability figure shows.
pub struct StabilityChart<'a> {
    /// The caption (may be empty).
    pub title: &'a str,
    /// The swept quantity's name.
    pub x_label: &'a str,
    /// The swept values.
    pub values: &'a [f64],
    /// Per track, its eigenvalue `(re, im)` at every value.
    pub tracks: &'a [Track],
    /// The stable ranges of the swept value.
    pub stable: &'a [(f64, f64)],
    /// The value the running scenario has, marked by a vertical line.
    pub current: Option<f64>,
    /// Another formulation's tracks (Hamel's embedding), drawn dashed in its
    /// method's colour over the same values.
    pub companion: Option<(nhlab::formulations::Method, &'a [Track])>,
    /// Scale of every length in pixels (the device pixel ratio).
    pub scale: f64,
}

/// The shading of stable ranges.
pub const STABLE_FILL: RGBColor = RGBColor(44, 160, 44);

/// The fraction of the drawing area's height taken by the real parts' chart.
const REAL_SHARE: f64 = 0.55;

/// Draws the figure on `area`. Returns where the first and the last swept value are
/// drawn (horizontal backend pixels), so that a click can be mapped to a value.
pub fn draw_stability<B: DrawingBackend>(
    area: &DrawingArea<B, Shift>,
    chart: &StabilityChart,
) -> Result<(i32, i32), Box<dyn std::error::Error>>
where
    B::ErrorType: 'static,
{
    let s = chart.scale.max(0.5);
    let px = |v: f64| (v * s).round() as i32;
    let area = if chart.title.is_empty() { area.clone() } else { area.titled(chart.title, ("sans-serif", px(16.0)))? };
    let (_, height) = area.dim_in_pixel();
    let (top, bottom) = area.split_vertically((height as f64 * REAL_SHARE) as u32);
    let xr = range(chart.values.iter().copied());
    let companion = chart.companion.map_or(&[][..], |(_, t)| t);
    let points = || chart.tracks.iter().chain(companion).flatten();
    let all_re = points().map(|p| p.0).chain(std::iter::once(0.0));
    let all_im = points().map(|p| p.1).chain(std::iter::once(0.0));
    let span = half(&top, chart, "Re λ", xr, range(all_re), |p| p.0, true)?;
    half(&bottom, chart, "Im λ", xr, range(all_im), |p| p.1, false)?;
    Ok(span)
}

/// One of the two charts: `part` of every eigenvalue against the swept value.
#[allow(clippy::too_many_arguments)]
fn half<B: DrawingBackend>(
    area: &DrawingArea<B, Shift>,
    chart: &StabilityChart,
    y_label: &str,
    xr: (f64, f64),
    yr: (f64, f64),
    part: impl Fn(&(f64, f64)) -> f64,
    zero_line: bool,
) -> Result<(i32, i32), Box<dyn std::error::Error>>
where
    B::ErrorType: 'static,
{
    let s = chart.scale.max(0.5);
    let px = |v: f64| (v * s).round() as i32;
    let pxu = |v: f64| (v * s).round().max(1.0) as u32;
    let mut c = ChartBuilder::on(area)
        .margin(px(8.0))
        .x_label_area_size(px(30.0))
        .y_label_area_size(px(66.0))
        .build_cartesian_2d(xr.0..xr.1, yr.0..yr.1)?;
    let x_format = move |v: &f64| tick_label(*v, xr.0, xr.1, Scale::Linear);
    let y_format = move |v: &f64| tick_label(*v, yr.0, yr.1, Scale::Linear);
    c.configure_mesh()
        .x_desc(chart.x_label)
        .y_desc(y_label)
        .x_labels(6)
        .y_labels(5)
        .x_label_formatter(&x_format)
        .y_label_formatter(&y_format)
        .label_style(("sans-serif", px(12.0)))
        .axis_desc_style(("sans-serif", px(13.0)))
        .light_line_style(RGBColor(238, 238, 238))
        .bold_line_style(RGBColor(214, 214, 214))
        .draw()?;
    for &(a, b) in chart.stable {
        let (a, b) = (a.max(xr.0), b.min(xr.1));
        if b > a {
            c.draw_series(std::iter::once(Rectangle::new([(a, yr.0), (b, yr.1)], STABLE_FILL.mix(0.13).filled())))?;
        }
    }
    if zero_line {
        c.draw_series(LineSeries::new([(xr.0, 0.0), (xr.1, 0.0)], BLACK.mix(0.5).stroke_width(pxu(1.0))))?;
    }
    for (k, track) in chart.tracks.iter().enumerate() {
        let colour = COLOURS[k % COLOURS.len()];
        let mut run: Vec<(f64, f64)> = Vec::new();
        for (x, p) in chart.values.iter().zip(track) {
            let y = part(p);
            if x.is_finite() && y.is_finite() {
                run.push((*x, y));
            } else if !run.is_empty() {
                c.draw_series(LineSeries::new(std::mem::take(&mut run), colour.stroke_width(pxu(2.0))))?;
            }
        }
        c.draw_series(LineSeries::new(run, colour.stroke_width(pxu(2.0))))?;
    }
    if let Some((method, tracks)) = chart.companion {
        let colour = super::colour(method);
        for track in tracks {
            let points = chart.values.iter().zip(track).map(|(x, p)| (*x, part(p)));
            for run in super::segments(&points.collect::<Vec<_>>()) {
                if run.len() > 1 {
                    c.draw_series(DashedLineSeries::new(run, pxu(6.0), pxu(4.0), colour.stroke_width(pxu(1.5))))?;
                }
            }
        }
    }
    if let Some(x) = chart.current.filter(|x| x.is_finite() && (xr.0..=xr.1).contains(x)) {
        c.draw_series(DashedLineSeries::new(
            [(x, yr.0), (x, yr.1)],
            pxu(6.0),
            pxu(4.0),
            RGBColor(60, 60, 60).stroke_width(pxu(1.5)),
        ))?;
    }
    let (first, last) = (chart.values.first().copied().unwrap_or(xr.0), chart.values.last().copied().unwrap_or(xr.1));
    Ok((c.backend_coord(&(first, yr.0)).0, c.backend_coord(&(last, yr.0)).0))
}

/// The stable ranges of a sweep (see [`stable_ranges`]).
pub fn sweep_ranges(sweep: &nhlab::stability::Sweep) -> Vec<(f64, f64)> {
    let stable: Vec<bool> = sweep.rows.iter().map(nhlab::stability::is_stable).collect();
    let boundaries: Vec<(f64, bool)> = sweep.boundaries.iter().map(|b| (b.value, b.becomes_stable)).collect();
    stable_ranges(&sweep.values, &stable, &boundaries)
}

/// The stable ranges: maximal runs of stable values, extended to the boundaries
/// between them (`boundaries` as (value, becomes stable)).
pub fn stable_ranges(values: &[f64], stable: &[bool], boundaries: &[(f64, bool)]) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    let (Some(&first), Some(&last)) = (values.first(), values.last()) else { return out };
    let mut start = if stable.first() == Some(&true) { Some(first) } else { None };
    for &(x, becomes_stable) in boundaries {
        match (becomes_stable, start) {
            (true, None) => start = Some(x),
            (false, Some(a)) => {
                out.push((a, x));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(a) = start {
        out.push((a, last));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stable_ranges_run_between_boundaries() {
        let values = [0.0, 1.0, 2.0, 3.0, 4.0];
        let stable = [false, false, true, true, false];
        assert_eq!(stable_ranges(&values, &stable, &[(1.5, true), (3.5, false)]), vec![(1.5, 3.5)]);
        assert_eq!(stable_ranges(&values, &[true; 5], &[]), vec![(0.0, 4.0)]);
        assert_eq!(stable_ranges(&values, &[false; 5], &[]), vec![]);
    }
}
