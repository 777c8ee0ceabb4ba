//! The stability figure: the real parts (top) and imaginary parts (bottom) of the
//! eigenvalues against the swept value, one colour per eigenvalue track, the stable
//! ranges shaded green (grey where only marginal), the current value marked, and optionally another
//! formulation's eigenvalues dashed (Hamel's embedding beside the true motion). The command
//! line's `linearize --plot` and the page's stability panel both draw it.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{range, tick_label, Scale};
use crate::look::{rgb, HouseAxes};

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
    /// The parts of them where the motion is only marginally stable (a neutral mode
    /// on the imaginary axis): shaded grey, not green, and named on the chart.
    pub marginal: &'a [(f64, f64)],
    /// Whether the figure names the grey shading itself (files and exports; the
    /// page's panel says it in its caption, where it cannot cover a curve).
    pub marginal_note: bool,
    /// The value the running scenario has, marked by a vertical line.
    pub current: Option<f64>,
    /// Another formulation's tracks (Hamel's embedding), drawn dashed in its
    /// method's colour over the same values.
    pub companion: Option<(nhlab::formulations::Method, &'a [Track])>,
    /// Scale of every length in pixels (the device pixel ratio).
    pub scale: f64,
}

/// The shading of stable ranges (tab10's green).
pub const STABLE_FILL: RGBColor = rgb(0x2ca02c);

/// The shading of marginally stable ranges.
pub const MARGINAL_FILL: RGBColor = RGBColor(120, 120, 120);

/// The modes' colours: dark tones apart from every method's and parameter set's
/// colour (tab10, [`super::COLOURS`] and [`super::SET_COLOURS`]), so that an
/// eigenvalue track is never read as a method's line (CIE76 ΔE ≥ 30 to each, and
/// between themselves; tested).
pub const MODE_COLOURS: [RGBColor; 6] =
    [rgb(0x000000), rgb(0x000080), rgb(0x005a32), rgb(0x780078), rgb(0x6e5a00), rgb(0xc80064)];

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
        .house_style(px)
        .draw()?;
    for (ranges, fill) in
        [(&without(chart.stable, chart.marginal), STABLE_FILL), (&chart.marginal.to_vec(), MARGINAL_FILL)]
    {
        for &(a, b) in ranges {
            let (a, b) = (a.max(xr.0), b.min(xr.1));
            if b > a {
                c.draw_series(std::iter::once(Rectangle::new([(a, yr.0), (b, yr.1)], fill.mix(0.13).filled())))?;
            }
        }
    }
    if zero_line && chart.marginal_note && !chart.marginal.is_empty() {
        // Said on the figure itself, for the command line's file and the PNG.
        let style = ("sans-serif", px(12.0)).into_font().color(&RGBColor(60, 60, 60));
        c.plotting_area().draw(&Text::new(
            "grey: neutrally stable (Re λ = 0: oscillations neither grow nor decay)",
            (xr.0 + 0.01 * (xr.1 - xr.0), yr.1 - 0.03 * (yr.1 - yr.0)),
            style.pos(plotters::style::text_anchor::Pos::new(
                plotters::style::text_anchor::HPos::Left,
                plotters::style::text_anchor::VPos::Top,
            )),
        ))?;
    }
    if zero_line {
        c.draw_series(LineSeries::new([(xr.0, 0.0), (xr.1, 0.0)], BLACK.mix(0.5).stroke_width(pxu(1.0))))?;
    }
    for (k, track) in chart.tracks.iter().enumerate() {
        let colour = MODE_COLOURS[k % MODE_COLOURS.len()];
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

/// `x`, a swept value, on a derived axis: `axis[k]` is the derived quantity at
/// `values[k]` (both increasing); linear between them, clamped at the ends.
pub fn on_axis(x: f64, values: &[f64], axis: &[f64]) -> f64 {
    let n = values.len().min(axis.len());
    if n == 0 || !x.is_finite() {
        return x;
    }
    let k = values[..n].partition_point(|&v| v < x);
    if k == 0 {
        return axis[0];
    }
    if k >= n {
        return axis[n - 1];
    }
    let (x0, x1) = (values[k - 1], values[k]);
    let f = if x1 > x0 { (x - x0) / (x1 - x0) } else { 0.0 };
    axis[k - 1] + f * (axis[k] - axis[k - 1])
}

/// `ranges` with `holes` taken out (both sorted, disjoint).
fn without(ranges: &[(f64, f64)], holes: &[(f64, f64)]) -> Vec<(f64, f64)> {
    let mut out = Vec::new();
    for &(a, b) in ranges {
        let mut start = a;
        for &(ha, hb) in holes.iter().filter(|(ha, hb)| *hb > a && *ha < b) {
            if ha > start {
                out.push((start, ha));
            }
            start = start.max(hb);
        }
        if b > start {
            out.push((start, b));
        }
    }
    out
}

/// The marginally stable ranges of a sweep: each run of marginal rows
/// ([`nhlab::stability::Sweep::marginal`]), reaching out to the boundary between it
/// and its neighbours (or half way to them).
pub fn marginal_ranges(sweep: &nhlab::stability::Sweep) -> Vec<(f64, f64)> {
    let marginal = sweep.marginal();
    let v = &sweep.values;
    let edge = |lo: f64, hi: f64| {
        sweep.boundaries.iter().map(|b| b.value).find(|x| (lo..=hi).contains(x)).unwrap_or(0.5 * (lo + hi))
    };
    let mut out = Vec::new();
    let mut k = 0;
    while k < marginal.len().min(v.len()) {
        if !marginal[k] {
            k += 1;
            continue;
        }
        let first = k;
        while k + 1 < marginal.len().min(v.len()) && marginal[k + 1] {
            k += 1;
        }
        let a = if first == 0 { v[0] } else { edge(v[first - 1], v[first]) };
        let b = if k + 1 == v.len() { v[k] } else { edge(v[k], v[k + 1]) };
        // One row on a boundary is the crossing itself (the sleigh at rest), not a range.
        let step = v.get(1).map_or(0.0, |x| (x - v[0]).abs());
        let crossing = first == k && sweep.boundaries.iter().any(|b| (b.value - v[k]).abs() <= 0.5 * step);
        if !crossing {
            out.push((a, b));
        }
        k += 1;
    }
    out
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
    fn swept_values_map_onto_a_derived_axis() {
        let (values, axis) = ([0.0, 1.0, 2.0], [0.0, 0.3, 0.6]);
        assert_eq!(on_axis(1.0, &values, &axis), 0.3);
        assert!((on_axis(1.5, &values, &axis) - 0.45).abs() < 1e-15);
        assert_eq!((on_axis(-1.0, &values, &axis), on_axis(9.0, &values, &axis)), (0.0, 0.6));
    }

    #[test]
    fn marginal_parts_come_out_of_the_stable_ranges() {
        assert_eq!(without(&[(0.0, 10.0)], &[(3.0, 5.0)]), vec![(0.0, 3.0), (5.0, 10.0)]);
        assert_eq!(without(&[(0.0, 10.0)], &[(0.0, 10.0)]), vec![]);
        assert_eq!(without(&[(0.0, 1.0), (2.0, 3.0)], &[(0.5, 2.5)]), vec![(0.0, 0.5), (2.5, 3.0)]);
        assert_eq!(without(&[(0.0, 1.0)], &[]), vec![(0.0, 1.0)]);
    }

    /// CIE76 ΔE between two sRGB colours.
    fn delta_e(a: RGBColor, b: RGBColor) -> f64 {
        fn lab(c: RGBColor) -> [f64; 3] {
            let lin = |u: u8| {
                let u = u as f64 / 255.0;
                if u <= 0.04045 {
                    u / 12.92
                } else {
                    ((u + 0.055) / 1.055).powf(2.4)
                }
            };
            let (r, g, b) = (lin(c.0), lin(c.1), lin(c.2));
            let x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047;
            let y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
            let z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883;
            let f = |t: f64| if t > 0.008856 { t.cbrt() } else { 7.787 * t + 16.0 / 116.0 };
            [116.0 * f(y) - 16.0, 500.0 * (f(x) - f(y)), 200.0 * (f(y) - f(z))]
        }
        let (p, q) = (lab(a), lab(b));
        ((p[0] - q[0]).powi(2) + (p[1] - q[1]).powi(2) + (p[2] - q[2]).powi(2)).sqrt()
    }

    #[test]
    fn mode_colours_are_apart_from_the_methods_and_from_each_other() {
        let others: Vec<RGBColor> = crate::COLOURS.iter().chain(&crate::SET_COLOURS).copied().collect();
        for (i, &m) in MODE_COLOURS.iter().enumerate() {
            for &o in &others {
                assert!(delta_e(m, o) >= 30.0, "mode {i} {m:?} against {o:?}: {}", delta_e(m, o));
            }
            for &n in &MODE_COLOURS[i + 1..] {
                assert!(delta_e(m, n) >= 30.0, "{m:?} against {n:?}");
            }
        }
        assert!(delta_e(RGBColor(0, 0, 0), RGBColor(255, 255, 255)) > 99.0); // the formula
    }

    #[test]
    fn stable_ranges_run_between_boundaries() {
        let values = [0.0, 1.0, 2.0, 3.0, 4.0];
        let stable = [false, false, true, true, false];
        assert_eq!(stable_ranges(&values, &stable, &[(1.5, true), (3.5, false)]), vec![(1.5, 3.5)]);
        assert_eq!(stable_ranges(&values, &[true; 5], &[]), vec![(0.0, 4.0)]);
        assert_eq!(stable_ranges(&values, &[false; 5], &[]), vec![]);
    }
}
