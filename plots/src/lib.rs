//! # nhlab-plots — the panels of nhlab's figures
//!
//! One panel is a titled chart with labelled axes, a line per method (its colour is
//! the same in every panel and in both front-ends), optional dashed companion lines,
//! optional markers at the current state and an optional legend. Which panels a run
//! has is decided once, for both front ends ([`run_panels`]): the command line
//! composes them into one SVG/PNG figure; the web lab draws each on its own canvas,
//! every frame. Both go through [`draw_panel`], generic over the
//! plotters backend, so the figures look and read the same everywhere.
//!
//! Non-finite values are gaps in a line, never plotted: the caller need not filter.

use plotters::coord::Shift;
use plotters::prelude::*;

mod look;
mod run_panels;
pub mod scene;
mod stability;
mod stability_map;
pub use stability::{
    draw_stability, marginal_ranges, on_axis, stable_ranges, sweep_ranges, StabilityChart, Track, MARGINAL_FILL,
    MODE_COLOURS, STABLE_FILL,
};

pub use look::{colour, css_colour, mark, Series, COLOURS, MARKS, SET_COLOURS};
use look::{draw_mark, mark_places, HouseAxes};
pub use run_panels::{run_panels, PanelKind, RunContents};
pub use stability_map::{draw_stability_map, MapChart, MAP_LEGEND};

/// One line of a panel.
pub struct Line {
    /// Whose line: sets the colour and the mark.
    pub series: Series,
    /// The points, in drawing order.
    pub points: Vec<(f64, f64)>,
    /// The legend entry, if any.
    pub label: Option<String>,
    /// Dashed and thinner: a companion of the method's main line (E's components).
    pub dashed: bool,
}

/// How the vertical axis maps values. Data are given as they are; the panel
/// transforms them and labels the ticks with the values themselves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scale {
    /// Linear.
    Linear,
    /// `log10 |y|`, floored at 10⁻¹⁸ so that an exact zero stays on the chart.
    Log,
    /// `sign(y) log10(1 + |y|)`: linear near zero, logarithmic far from it, so that
    /// signed values spanning decades (an E-vector near a singular split) stay readable.
    /// A panel uses it only when some |y| exceeds [`SYMLOG_FROM`], else a linear axis.
    SymLog,
}

impl Scale {
    /// The drawn coordinate of `y`.
    pub fn apply(self, y: f64) -> f64 {
        match self {
            Scale::Linear => y,
            Scale::Log => log10_abs(y),
            Scale::SymLog => y.signum() * y.abs().ln_1p() / core::f64::consts::LN_10,
        }
    }

    /// The value at drawn coordinate `c`.
    pub fn invert(self, c: f64) -> f64 {
        match self {
            Scale::Linear => c,
            Scale::Log => 10f64.powf(c),
            Scale::SymLog => c.signum() * (10f64.powf(c.abs()) - 1.0),
        }
    }
}

/// A tick's text on an axis drawn over `[lo, hi]` (drawn coordinates): as many
/// decimals as the tick spacing needs, scientific notation for very large or small
/// magnitudes, and the values themselves (not their logarithms) on log axes.
fn tick_label(v: f64, lo: f64, hi: f64, scale: Scale) -> String {
    let width = (hi - lo).abs();
    let magnitude = lo.abs().max(hi.abs());
    // A tick at zero up to rounding prints as 0, never as -0.000.
    let v = if v.abs() < 1e-9 * width.max(f64::MIN_POSITIVE) { 0.0 } else { v };
    match scale {
        Scale::Linear if (1e-3..1e5).contains(&magnitude) && width > 1e-4 * magnitude => {
            let decimals = (-(width / 6.0).log10()).ceil().clamp(0.0, 6.0) as usize;
            let text = format!("{v:.decimals$}");
            // -0.00 after rounding is 0.00.
            if text.trim_start_matches('-').chars().all(|c| c == '0' || c == '.') {
                text.trim_start_matches('-').to_string()
            } else {
                text
            }
        }
        Scale::Linear if v == 0.0 => "0".into(),
        Scale::Linear => format!("{v:.1e}"),
        Scale::Log => {
            // Ticks ~width/6 decades apart differ by a factor 10^(width/6): as many
            // digits as tell them apart (one decade: 3e-14, 2e-14, 2e-14 otherwise).
            let ratio = (width / 6.0 * core::f64::consts::LN_10).max(1e-6);
            let decimals = (-ratio.log10()).ceil().clamp(0.0, 5.0) as usize;
            format!("{:.decimals$e}", scale.invert(v))
        }
        Scale::SymLog => {
            let x = scale.invert(v);
            if x.abs() < 1e-12 {
                "0".into()
            } else if (1e-2..1e3).contains(&x.abs()) {
                format!("{x:.2}")
            } else {
                format!("{x:.0e}")
            }
        }
    }
}

/// [`Scale::SymLog`] panels stay linear while every |y| is at most this.
pub const SYMLOG_FROM: f64 = 100.0;

/// A panel's text and layout.
pub struct Panel<'a> {
    /// The caption.
    pub title: &'a str,
    /// The horizontal axis' name.
    pub x_label: &'a str,
    /// The vertical axis' name.
    pub y_label: &'a str,
    /// A fixed horizontal range (a run's `[t₀, t_end]`, so that the axis stays still
    /// while a live run fills it); `None` fits the data.
    pub x_range: Option<(f64, f64)>,
    /// The vertical axis' scale.
    pub y_scale: Scale,
    /// The horizontal axis' ticks: `Log` labels a tick at `x` as `10^x` (the caller
    /// gives `log10` of its values: a long run's time); `Linear` as they are.
    pub x_scale: Scale,
    /// Keep the two axes' scales equal (a trajectory in the plane).
    pub equal_aspect: bool,
    /// Draw a legend of the labelled lines.
    pub legend: bool,
    /// Scale of every length in pixels: the device pixel ratio on a HiDPI canvas.
    pub scale: f64,
    /// Spans of the horizontal axis shaded behind the lines (where a contact of the
    /// model fails: it lifts off or slips).
    pub shaded: &'a [(f64, f64)],
}

/// A filled dot at the current state of one method.
pub struct Marker {
    /// Whose.
    pub series: Series,
    /// Where.
    pub at: (f64, f64),
}

/// The error of a drawing backend, boxed.
pub type DrawResult = Result<(), Box<dyn std::error::Error>>;

/// The finite range of `values`, padded by 5 % (or by a unit around a constant).
pub fn range(values: impl Iterator<Item = f64>) -> (f64, f64) {
    let (lo, hi) =
        values.filter(|v| v.is_finite()).fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    if !lo.is_finite() {
        return (0.0, 1.0);
    }
    let pad = if hi > lo { 0.05 * (hi - lo) } else { 0.5 * lo.abs().max(1.0) };
    (lo - pad, hi + pad)
}

/// At most about `max` points of `points` that keep its look: in each of `max / 2`
/// consecutive buckets, the lowest and the highest point in order, so that spikes
/// survive decimation. The first and last points are kept.
pub fn decimate(points: &[(f64, f64)], max: usize) -> Vec<(f64, f64)> {
    let max = max.max(4);
    if points.len() <= max {
        return points.to_vec();
    }
    let buckets = max / 2 - 1;
    let per = points.len().div_ceil(buckets);
    let mut out = Vec::with_capacity(max + 2);
    out.push(points[0]);
    for chunk in points[1..points.len() - 1].chunks(per) {
        let (mut lo, mut hi) = (0, 0);
        for (k, p) in chunk.iter().enumerate() {
            // A non-finite point must survive: it is a gap.
            if !p.1.is_finite() {
                lo = k;
                hi = k;
                break;
            }
            if p.1 < chunk[lo].1 {
                lo = k;
            }
            if p.1 > chunk[hi].1 {
                hi = k;
            }
        }
        let (a, b) = (lo.min(hi), lo.max(hi));
        out.push(chunk[a]);
        if b != a {
            out.push(chunk[b]);
        }
    }
    out.push(points[points.len() - 1]);
    out
}

/// `log10 |x|`, floored at 10⁻¹⁸ (an exact zero stays on the chart); NaN stays NaN.
pub fn log10_abs(x: f64) -> f64 {
    if x.is_nan() {
        f64::NAN
    } else {
        x.abs().max(1e-18).log10()
    }
}

/// The finite runs of `points`, split at non-finite values.
fn segments(points: &[(f64, f64)]) -> Vec<Vec<(f64, f64)>> {
    let mut out = Vec::new();
    let mut current = Vec::new();
    for &p in points {
        if p.0.is_finite() && p.1.is_finite() {
            current.push(p);
        } else if !current.is_empty() {
            out.push(std::mem::take(&mut current));
        }
    }
    out.push(current);
    out
}

/// Maps a data point to device pixels.
type ToPixel<'a> = &'a dyn Fn(&(f64, f64)) -> (i32, i32);

/// `points` cut into runs that share their end points wherever the line turns back
/// by more than 120° on screen (`pixel` maps data to device pixels): plotters joins
/// the segments of a thick line with unbounded miters, so a sharp V — a dip on a log
/// axis — would otherwise grow a spike far outside the panel.
fn split_at_sharp_turns(points: &[(f64, f64)], pixel: ToPixel) -> Vec<Vec<(f64, f64)>> {
    let screen: Vec<(f64, f64)> = points
        .iter()
        .map(|p| {
            let (x, y) = pixel(p);
            (x as f64, y as f64)
        })
        .collect();
    let mut runs = Vec::new();
    let mut current: Vec<(f64, f64)> = Vec::new();
    let mut incoming: Option<(f64, f64)> = None;
    for (k, &p) in points.iter().enumerate() {
        if k > 0 {
            let d = (screen[k].0 - screen[k - 1].0, screen[k].1 - screen[k - 1].1);
            let length = d.0.hypot(d.1);
            if length > 0.0 {
                let d = (d.0 / length, d.1 / length);
                if let Some(before) = incoming {
                    if before.0 * d.0 + before.1 * d.1 < -0.5 {
                        let corner = current[current.len() - 1];
                        runs.push(core::mem::replace(&mut current, vec![corner]));
                    }
                }
                incoming = Some(d);
            }
        }
        current.push(p);
    }
    runs.push(current);
    runs
}

fn equalise(x: (f64, f64), y: (f64, f64), width: f64, height: f64) -> ((f64, f64), (f64, f64)) {
    let (dx, dy) = (x.1 - x.0, y.1 - y.0);
    let per_pixel = (dx / width.max(1.0)).max(dy / height.max(1.0));
    let grow = |r: (f64, f64), pixels: f64| {
        let half = 0.5 * per_pixel * pixels;
        let mid = 0.5 * (r.0 + r.1);
        (mid - half, mid + half)
    };
    (grow(x, width), grow(y, height))
}

/// The data as drawn on a `scale` axis: y transformed; an exact zero on a log axis
/// put at the smallest nonzero |y| (the bottom of the data) instead of stretching the
/// axis down to 1e-18; gaps (NaN) kept. A symmetric log axis becomes linear while
/// every |y| is at most [`SYMLOG_FROM`]. Returns the scale actually used.
fn to_axis(lines: &[Line], markers: &[Marker], scale: Scale) -> (Vec<Line>, Vec<Marker>, Scale) {
    let ys = || lines.iter().flat_map(|l| l.points.iter().map(|p| p.1.abs())).filter(|y| y.is_finite());
    let scale = match scale {
        Scale::SymLog if ys().fold(0.0, f64::max) <= SYMLOG_FROM => Scale::Linear,
        s => s,
    };
    let floor = match scale {
        Scale::Log => Some(ys().filter(|&y| y > 0.0).fold(f64::INFINITY, f64::min)).filter(|f| f.is_finite()),
        _ => None,
    };
    let at = |p: (f64, f64)| match (p.1, floor) {
        (y, _) if y.is_nan() => p,
        (y, Some(f)) if y.abs() < f => (p.0, scale.apply(f.copysign(y))),
        (y, _) => (p.0, scale.apply(y)),
    };
    let lines = lines
        .iter()
        .map(|l| Line {
            series: l.series,
            points: l.points.iter().map(|&p| at(p)).collect(),
            label: l.label.clone(),
            dashed: l.dashed,
        })
        .collect();
    let markers = markers.iter().map(|m| Marker { series: m.series, at: at(m.at) }).collect();
    (lines, markers, scale)
}

/// More series than this in a panel and all but its first two are drawn one device
/// pixel wide: a browser without a GPU strokes such a line about eight times faster
/// than a wider one, and 28 runs drew 26 lines 4 px wide in every panel (issue 57:
/// clicks waited 110–150 ms during Play). The first two keep their widths, so that
/// the lines over them still show them as coloured edges.
const CROWDED_LINES: usize = 8;

/// A series' line width in CSS pixels, by its rank among `count` series (0 first,
/// drawn first and widest, so that each line drawn over it leaves it an edge);
/// `None`: one device pixel.
fn line_width(rank: usize, count: usize) -> Option<f64> {
    if count > CROWDED_LINES && rank >= 2 {
        return None;
    }
    Some(1.6 + 1.1 * (count.saturating_sub(1 + rank)).min(2) as f64)
}

/// Draws one panel on `area`.
pub fn draw_panel<B: DrawingBackend>(
    area: &DrawingArea<B, Shift>,
    panel: &Panel,
    lines: &[Line],
    markers: &[Marker],
) -> DrawResult
where
    B::ErrorType: 'static,
{
    let (lines, markers, y_scale) = to_axis(lines, markers, panel.y_scale);
    let (lines, markers) = (&lines[..], &markers[..]);
    let s = panel.scale.max(0.5);
    let px = |v: f64| (v * s).round() as i32;
    let pxu = |v: f64| (v * s).round().max(1.0) as u32;
    let mut xr = panel.x_range.unwrap_or_else(|| {
        range(lines.iter().flat_map(|l| l.points.iter().map(|p| p.0)).chain(markers.iter().map(|m| m.at.0)))
    });
    let mut yr = range(lines.iter().flat_map(|l| l.points.iter().map(|p| p.1)).chain(markers.iter().map(|m| m.at.1)));
    let (x_area, y_area) = (px(34.0), px(66.0));
    if panel.equal_aspect {
        let (w, h) = area.dim_in_pixel();
        let plot_w = w as f64 - y_area as f64 - px(24.0) as f64;
        let caption = if panel.title.is_empty() { 0.0 } else { px(24.0) as f64 };
        let plot_h = h as f64 - x_area as f64 - px(20.0) as f64 - caption;
        (xr, yr) = equalise(xr, yr, plot_w, plot_h);
    }
    let mut builder = ChartBuilder::on(area);
    if !panel.title.is_empty() {
        builder.caption(panel.title, ("sans-serif", px(16.0)));
    }
    let mut chart = builder
        .margin(px(10.0))
        .x_label_area_size(x_area)
        .y_label_area_size(y_area)
        .build_cartesian_2d(xr.0..xr.1, yr.0..yr.1)?;
    let y_format = move |v: &f64| tick_label(*v, yr.0, yr.1, y_scale);
    let x_scale = panel.x_scale;
    let x_format = move |v: &f64| tick_label(*v, xr.0, xr.1, x_scale);
    chart
        .configure_mesh()
        .x_desc(panel.x_label)
        .y_desc(panel.y_label)
        .x_labels(6)
        .y_labels(6)
        .y_label_formatter(&y_format)
        .x_label_formatter(&x_format)
        .x_max_light_lines(4)
        .y_max_light_lines(4)
        .house_style(px)
        .draw()?;
    // Behind the lines: the spans where the model's contacts fail.
    let shade = RGBColor(244, 190, 190).mix(0.45).filled();
    chart.draw_series(panel.shaded.iter().filter(|s| s.0.is_finite() && s.1.is_finite()).map(|&(a, b)| {
        // A span of one sample is drawn a pixel wide.
        let (a, b) = (a.max(xr.0), b.min(xr.1).max(a.max(xr.0) + (xr.1 - xr.0) * 2e-3));
        Rectangle::new([(a, yr.0), (b, yr.1)], shade)
    }))?;
    // Methods that agree draw on top of each other: the first is widest, so that every
    // overlaid line stays visible as a coloured edge.
    let mut order: Vec<Series> = Vec::new();
    for l in lines {
        if !order.contains(&l.series) {
            order.push(l.series);
        }
    }
    let width = |m: Series| {
        let rank = order.iter().position(|&o| o == m).unwrap_or(0);
        line_width(rank, order.len()).map_or(1, pxu)
    };
    for line in lines {
        let colour = colour(line.series);
        let runs: Vec<Vec<(f64, f64)>> = segments(&line.points)
            .into_iter()
            .flat_map(|s| if line.dashed { vec![s] } else { split_at_sharp_turns(&s, &|p| chart.backend_coord(p)) })
            .collect();
        for (k, s) in runs.into_iter().enumerate() {
            let series = if line.dashed {
                chart.draw_series(DashedLineSeries::new(s, pxu(5.0), pxu(4.0), colour.stroke_width(pxu(1.2))))?
            } else {
                chart.draw_series(LineSeries::new(s, colour.stroke_width(width(line.series))))?
            };
            if let (0, Some(label)) = (k, &line.label) {
                let (w, dashed) = (pxu(3.0), line.dashed);
                let len = px(18.0);
                // The mark drawn along the line heads its entry.
                let label =
                    if order.len() > 1 && !dashed { format!("{} {label}", mark(line.series)) } else { label.clone() };
                series.label(label).legend(move |(x, y)| {
                    let style = if dashed { colour.mix(0.6).stroke_width(w / 2 + 1) } else { colour.stroke_width(w) };
                    PathElement::new(vec![(x, y), (x + len, y)], style)
                });
            }
        }
    }
    // Each method's marks along its main line, when several methods are overlaid.
    if order.len() > 1 {
        let area = chart.plotting_area().strip_coord_spec();
        let (x0, y0) = area.get_base_pixel();
        for line in lines.iter().filter(|l| !l.dashed) {
            let rank = order.iter().position(|&o| o == line.series).unwrap_or(0);
            let pixels: Vec<(i32, i32)> = line
                .points
                .iter()
                .filter(|p| p.0.is_finite() && p.1.is_finite())
                .map(|p| chart.backend_coord(p))
                .collect();
            for (x, y) in mark_places(&pixels, rank, order.len()) {
                draw_mark(&area, (x - x0, y - y0), mark(line.series), px(4.0), colour(line.series), pxu(1.6))?;
            }
        }
    }
    for m in markers {
        if m.at.0.is_finite() && m.at.1.is_finite() {
            let c = colour(m.series);
            chart.draw_series(std::iter::once(Circle::new(m.at, pxu(5.0), c.filled())))?;
            chart.draw_series(std::iter::once(Circle::new(m.at, pxu(5.0), WHITE.stroke_width(pxu(1.0)))))?;
        }
    }
    if panel.legend && lines.iter().any(|l| l.label.is_some()) {
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(RGBColor(180, 180, 180))
            .label_font(("sans-serif", px(12.0)))
            // Room for the 18 px swatch and a gap before the text, at any scale.
            .legend_area_size(px(24.0))
            .margin(px(6.0))
            .draw()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::look::MARKS_PER_LINE;
    use super::*;
    use nhlab::formulations::Method;

    #[test]
    fn marks_spread_evenly_along_the_drawn_length_and_each_line_has_its_own() {
        // A line with half its samples in its first tenth: the marks still spread.
        let mut pixels: Vec<(i32, i32)> = (0..100).map(|i| (i, 0)).collect();
        pixels.extend((1..=90).map(|k| (100 + 10 * k, 0)));
        let xs = |rank| mark_places(&pixels, rank, 3).iter().map(|p| p.0).collect::<Vec<_>>();
        let first = xs(0);
        assert_eq!(first.len(), MARKS_PER_LINE);
        for w in first.windows(2) {
            assert!((190..=210).contains(&(w[1] - w[0])), "{first:?}");
        }
        // Three overlaid lines: no two put a mark at the same place.
        let all: Vec<i32> = (0..3).flat_map(xs).collect();
        let mut distinct = all.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), all.len(), "{all:?}");
        assert!(mark_places(&[(5, 5)], 0, 2).is_empty());
        assert_eq!(MARKS.len(), Method::ALL.len());
    }

    #[test]
    fn crowded_panels_draw_all_but_two_lines_one_pixel_wide() {
        let tenths = |w: Option<f64>| w.map(|w| (w * 10.0).round() as i32);
        // Few series: the first widest, each over the last a coloured edge.
        assert_eq!(tenths(line_width(0, 1)), Some(16));
        assert_eq!((0..3).map(|r| tenths(line_width(r, 3))).collect::<Vec<_>>(), [Some(38), Some(27), Some(16)]);
        assert_eq!(tenths(line_width(7, 8)), Some(16));
        // 28 runs: two wide lines, 26 hairlines (26 lines 4 px wide before).
        let widths: Vec<_> = (0..28).map(|r| tenths(line_width(r, 28))).collect();
        assert_eq!(widths[..2], [Some(38), Some(38)]);
        assert!(widths[2..].iter().all(Option::is_none));
    }

    #[test]
    fn decimation_keeps_extremes_and_ends() {
        let points: Vec<(f64, f64)> =
            (0..10_000).map(|k| (k as f64, if k == 4321 { 100.0 } else { (k as f64 * 0.01).sin() })).collect();
        let d = decimate(&points, 400);
        assert!(d.len() <= 402, "{}", d.len());
        assert_eq!(d.first(), points.first());
        assert_eq!(d.last(), points.last());
        assert!(d.contains(&(4321.0, 100.0)), "the spike survives");
        assert!(d.windows(2).all(|w| w[0].0 < w[1].0), "order is kept");
        let lo = d.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
        assert!(lo < -0.999, "the minimum survives: {lo}");
    }

    #[test]
    fn axes_keep_gaps_and_put_zeros_at_the_bottom_of_a_log_axis() {
        let line =
            |points: Vec<(f64, f64)>| Line { series: Method::Lagrange.into(), points, label: None, dashed: false };
        let data = [line(vec![(0.0, 0.0), (1.0, 1e-12), (2.0, f64::NAN), (3.0, 1e-9)])];
        let (out, _, scale) = to_axis(&data, &[], Scale::Log);
        assert_eq!(scale, Scale::Log);
        let y: Vec<f64> = out[0].points.iter().map(|p| p.1).collect();
        assert_eq!(y[0], -12.0, "the zero sits at the smallest nonzero value");
        assert_eq!(y[1], -12.0);
        assert!(y[2].is_nan(), "the gap stays");
        assert!((y[3] + 9.0).abs() < 1e-12);
        // Symmetric log only past 100.
        let small = [line(vec![(0.0, -50.0), (1.0, 3.0)])];
        assert_eq!(to_axis(&small, &[], Scale::SymLog).2, Scale::Linear);
        assert_eq!(to_axis(&small, &[], Scale::SymLog).0[0].points, small[0].points);
        let large = [line(vec![(0.0, -5e8), (1.0, f64::NAN)])];
        let (out, _, scale) = to_axis(&large, &[], Scale::SymLog);
        assert_eq!(scale, Scale::SymLog);
        assert!(out[0].points[1].1.is_nan());
    }

    #[test]
    fn decimation_keeps_gaps() {
        let mut points: Vec<(f64, f64)> = (0..5000).map(|k| (k as f64, 1.0)).collect();
        points[2500].1 = f64::NAN;
        let d = decimate(&points, 100);
        assert!(d.iter().any(|p| p.1.is_nan()));
        assert_eq!(segments(&d).len(), 2);
    }

    #[test]
    fn a_thick_line_is_cut_where_it_turns_back() {
        // A V on screen (down then up steeply) is cut at its tip; a gentle bend is not.
        let pixel = |p: &(f64, f64)| ((p.0 * 10.0) as i32, (p.1 * 10.0) as i32);
        let v = [(0.0, 0.0), (0.1, 10.0), (0.2, 0.0), (0.3, -10.0)];
        let runs = split_at_sharp_turns(&v, &pixel);
        assert_eq!(runs, vec![vec![(0.0, 0.0), (0.1, 10.0)], vec![(0.1, 10.0), (0.2, 0.0), (0.3, -10.0)]]);
        let gentle = [(0.0, 0.0), (1.0, 1.0), (2.0, 1.5), (3.0, 1.0)];
        assert_eq!(split_at_sharp_turns(&gentle, &pixel), vec![gentle.to_vec()]);
    }

    #[test]
    fn range_is_padded_and_finite() {
        assert_eq!(range([f64::NAN, f64::INFINITY].into_iter()), (0.0, 1.0));
        let (lo, hi) = range([1.0, 3.0, f64::NAN].into_iter());
        assert!((lo - 0.9).abs() < 1e-12 && (hi - 3.1).abs() < 1e-12);
        let (lo, hi) = range([2.0].into_iter());
        assert!(lo < 2.0 && hi > 2.0);
    }

    #[test]
    fn scales_invert() {
        // A log axis over one decade or less: every tick's label is distinct.
        for (lo, hi) in [(-14.0, -13.0), (-13.7, -13.5), (-3.0, 0.5), (-12.0, 0.0)] {
            let ticks: Vec<f64> = (0..=6).map(|k| lo + (hi - lo) * k as f64 / 6.0).collect();
            let labels: Vec<String> = ticks.iter().map(|&v| tick_label(v, lo, hi, Scale::Log)).collect();
            let mut distinct = labels.clone();
            distinct.dedup();
            assert_eq!(distinct.len(), labels.len(), "{labels:?}");
            // and each says the value it stands for, to its digits
            for (t, l) in ticks.iter().zip(&labels) {
                let back: f64 = l.parse().unwrap();
                assert!((back.log10() - t).abs() < 0.5 * (hi - lo) / 6.0, "{l} for 10^{t}");
            }
        }
        assert_eq!(tick_label(-13.0, -20.0, 0.0, Scale::Log), "1e-13", "many decades: one digit");
        for scale in [Scale::Linear, Scale::Log, Scale::SymLog] {
            for y in [1e-9, 0.3, 1.0, 42.0, 7e8] {
                let back = scale.invert(scale.apply(y));
                assert!((back - y).abs() <= 1e-12 * y.max(1.0), "{scale:?} {y} {back}");
            }
        }
        assert_eq!(Scale::SymLog.apply(-99.0), -2.0);
        assert_eq!(Scale::Log.apply(0.0), -18.0);
        assert_eq!(tick_label(-6.0, -18.0, 0.0, Scale::Log), "1e-6");
        // Decimals follow the spacing of the ticks.
        assert_eq!(tick_label(8.0, -1.0, 9.0, Scale::Linear), "8");
        assert_eq!(tick_label(0.5, 0.0, 2.0, Scale::Linear), "0.5");
        assert_eq!(tick_label(-0.05, -0.1, 0.1, Scale::Linear), "-0.05");
        assert_eq!(tick_label(-1e-17, -0.1, 0.1, Scale::Linear), "0.00");
        assert_eq!(tick_label(-0.0002, -0.1, 0.1, Scale::Linear), "0.00");
        // Tiny spans (an energy drift of 1e-14) are scientific.
        assert_eq!(tick_label(-1.5e-14, -3e-14, 2e-14, Scale::Linear), "-1.5e-14");
        assert_eq!(tick_label(0.0, -3e-14, 2e-14, Scale::Linear), "0");
    }

    #[test]
    fn equal_aspect_gives_equal_units_per_pixel() {
        let (x, y) = equalise((0.0, 10.0), (0.0, 1.0), 400.0, 200.0);
        let (ux, uy) = ((x.1 - x.0) / 400.0, (y.1 - y.0) / 200.0);
        assert!((ux - uy).abs() < 1e-12);
        assert!(x.0 <= 0.0 && x.1 >= 10.0 && y.0 <= 0.0 && y.1 >= 1.0, "the data still fit");
    }
}
