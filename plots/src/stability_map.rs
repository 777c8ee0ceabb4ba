//! The stability map figure: a grid of two swept quantities, each cell coloured by
//! its largest real part — green where the motion is stable (deeper where it decays
//! faster), red where it is unstable (deeper where it grows faster) — with the
//! boundaries found between cells marked. The command line's `linearize --sweep A=…
//! --sweep B=… --plot` draws it.

use plotters::coord::Shift;
use plotters::prelude::*;

use super::{tick_label, Scale};
use crate::look::HouseAxes;

/// What the map figure shows.
pub struct MapChart<'a> {
    /// The caption (may be empty).
    pub title: &'a str,
    /// The first axis' name and values (across).
    pub x: (&'a str, &'a [f64]),
    /// The second axis' name and values (up).
    pub y: (&'a str, &'a [f64]),
    /// Each point's largest real part, the second axis fastest.
    pub max_real: &'a [f64],
    /// Whether each point is stable.
    pub stable: &'a [bool],
    /// Whether each point is neutrally stable (grey; empty: none is said to be).
    pub neutral: &'a [bool],
    /// The boundaries found, as `(x, y)`.
    pub boundaries: &'a [(f64, f64)],
    /// The legend's words: a boundary, stable, unstable, neutrally stable (the
    /// page's language; the last shown only where a point is); none on a chart too
    /// small for it to leave the cells visible (the caption says the colours).
    pub legend: Option<[&'a str; 4]>,
    /// The point the run uses, ringed (the page's map), if any.
    pub marked: Option<(f64, f64)>,
    /// The point marked by keys, a square (the page's map), if any.
    pub cursor: Option<(f64, f64)>,
    /// Pixels per CSS pixel of type and lines (1 for files; the page's device pixel
    /// ratio).
    pub scale: f64,
}

/// A plotting area's pixels: `(left, right)` and `(top, bottom)`.
pub type PlottingArea = ((i32, i32), (i32, i32));

/// The English legend of the command line's figure.
pub const MAP_LEGEND: [&str; 4] =
    ["boundary", "stable (deeper: decays faster)", "unstable (deeper: grows faster)", "neutrally stable"];

/// Neutrally stable cells: the grey of the sweep's neutral ranges.
const NEUTRAL_CELL: RGBColor = RGBColor(190, 190, 190);

/// The edges of the cells around `values` (midway between neighbours; a lone value
/// gets a unit cell).
fn edges(values: &[f64]) -> Vec<f64> {
    match values {
        [] => Vec::new(),
        [x] => vec![x - 0.5, x + 0.5],
        _ => {
            let n = values.len();
            let mut out = vec![values[0] - 0.5 * (values[1] - values[0])];
            out.extend(values.windows(2).map(|w| 0.5 * (w[0] + w[1])));
            out.push(values[n - 1] + 0.5 * (values[n - 1] - values[n - 2]));
            out
        }
    }
}

/// A cell's colour: green for stable, red for unstable, deeper with `|max_real|`
/// against the largest on its side of zero; light grey where there is none.
fn cell_colour(max_real: f64, stable: bool, largest: (f64, f64)) -> RGBColor {
    // Not computed (a point whose linearisation failed, in the page): light grey.
    if !max_real.is_finite() {
        return RGBColor(221, 221, 221);
    }
    let (base, reach) = if stable { ((46, 160, 67), largest.0) } else { ((207, 34, 46), largest.1) };
    let depth = if reach > 0.0 { (max_real.abs() / reach).clamp(0.0, 1.0).sqrt() } else { 0.0 };
    let t = 0.25 + 0.75 * depth;
    let mix = |c: u8| (255.0 - t * (255.0 - f64::from(c))).round() as u8;
    RGBColor(mix(base.0), mix(base.1), mix(base.2))
}

/// Draws the map on `root`; returns the plotting area's pixels `[left, right]` and
/// `[top, bottom]` (for turning a click into a point).
pub fn draw_stability_map<B: DrawingBackend>(
    root: &DrawingArea<B, Shift>,
    chart: &MapChart,
) -> Result<PlottingArea, Box<dyn std::error::Error>>
where
    B::ErrorType: 'static,
{
    let (xe, ye) = (edges(chart.x.1), edges(chart.y.1));
    let (Some(&x0), Some(&x1), Some(&y0), Some(&y1)) = (xe.first(), xe.last(), ye.first(), ye.last()) else {
        return Ok(((0, 0), (0, 0)));
    };
    if chart.max_real.len() != chart.x.1.len() * chart.y.1.len() || chart.stable.len() != chart.max_real.len() {
        return Err("a map's values do not fill its grid".into());
    }
    let s = chart.scale.max(0.5);
    let px = |v: f64| (v * s).round() as i32;
    let mut c = ChartBuilder::on(root)
        .caption(chart.title, ("sans-serif", px(16.0)))
        .margin(px(10.0))
        .x_label_area_size(px(40.0))
        .y_label_area_size(px(70.0))
        .build_cartesian_2d(x0..x1, y0..y1)?;
    let x_format = move |v: &f64| tick_label(*v, x0, x1, Scale::Linear);
    let y_format = move |v: &f64| tick_label(*v, y0, y1, Scale::Linear);
    c.configure_mesh()
        .disable_mesh()
        .x_desc(chart.x.0)
        .y_desc(chart.y.0)
        .x_label_formatter(&x_format)
        .y_label_formatter(&y_format)
        .house_style(px)
        .draw()?;
    let largest = chart.max_real.iter().zip(chart.stable).fold((0.0f64, 0.0f64), |(s, u), (&m, &stable)| {
        if !m.is_finite() {
            (s, u)
        } else if stable {
            (s.max(m.abs()), u)
        } else {
            (s, u.max(m.abs()))
        }
    });
    // A rate within round-off of the largest is zero (a conservative system's neutral
    // modes): such cells are the lightest of their colour, not noise in its depth.
    let band = 1e-9 * largest.0.max(largest.1);
    let clean = |m: f64| if m.abs() <= band { 0.0 } else { m };
    let largest = (clean(largest.0), clean(largest.1));
    let ny = chart.y.1.len();
    c.draw_series(chart.max_real.iter().zip(chart.stable).enumerate().map(|(k, (&m, &stable))| {
        let (i, j) = (k / ny, k % ny);
        let colour =
            if chart.neutral.get(k) == Some(&true) { NEUTRAL_CELL } else { cell_colour(clean(m), stable, largest) };
        Rectangle::new([(xe[i], ye[j]), (xe[i + 1], ye[j + 1])], colour.filled())
    }))?;
    let dot = px(2.0).max(1) as u32;
    let [boundary, stable, unstable, neutral] = chart.legend.unwrap_or([""; 4]);
    c.draw_series(chart.boundaries.iter().map(|&p| Circle::new(p, dot, BLACK.filled())))?
        .label(boundary)
        .legend(move |(x, y)| Circle::new((x + 8, y), dot + 1, BLACK.filled()));
    c.draw_series(std::iter::once(Rectangle::new([(0.0, 0.0), (0.0, 0.0)], RGBColor(46, 160, 67).filled())))?
        .label(stable)
        .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 16, y + 5)], RGBColor(46, 160, 67).filled()));
    c.draw_series(std::iter::once(Rectangle::new([(0.0, 0.0), (0.0, 0.0)], RGBColor(207, 34, 46).filled())))?
        .label(unstable)
        .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 16, y + 5)], RGBColor(207, 34, 46).filled()));
    if chart.neutral.contains(&true) {
        c.draw_series(std::iter::once(Rectangle::new([(0.0, 0.0), (0.0, 0.0)], NEUTRAL_CELL.filled())))?
            .label(neutral)
            .legend(|(x, y)| Rectangle::new([(x, y - 5), (x + 16, y + 5)], NEUTRAL_CELL.filled()));
    }
    let ring = px(6.0).max(3) as u32;
    if let Some(p) = chart.marked {
        c.draw_series([Circle::new(p, ring, BLACK.stroke_width(px(2.0).max(1) as u32))])?;
    }
    if let Some((x, y)) = chart.cursor {
        // A square the size of a few cells, in the cell's coordinates.
        let (wx, wy) = (0.01 * (x1 - x0), 0.015 * (y1 - y0));
        let square = [(x - wx, y - wy), (x + wx, y - wy), (x + wx, y + wy), (x - wx, y + wy), (x - wx, y - wy)];
        c.draw_series([PathElement::new(square, RGBColor(0, 0, 128).stroke_width(px(2.0).max(1) as u32))])?;
    }
    if chart.legend.is_some() {
        c.configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .label_font(("sans-serif", px(12.0)))
            .draw()?;
    }
    let (xs, ys) = c.plotting_area().get_pixel_range();
    Ok(((xs.start, xs.end), (ys.start, ys.end)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_centred_on_their_values() {
        assert_eq!(edges(&[0.0, 1.0, 3.0]), [-0.5, 0.5, 2.0, 4.0]);
        assert_eq!(edges(&[2.0]), [1.5, 2.5]);
        // Deeper with the rate, on each side its own scale.
        let (a, b) = (cell_colour(-0.1, true, (1.0, 5.0)), cell_colour(-1.0, true, (1.0, 5.0)));
        assert!(b.1 < a.1 && b.0 < a.0, "{a:?} {b:?}");
        assert!(cell_colour(5.0, false, (1.0, 5.0)) == RGBColor(207, 34, 46));
    }
}
