//! How a series looks in every figure: its colour (the method's, or its parameter
//! set's and integrator's) and its mark, drawn along overlaid lines so that they are
//! told apart without colour.

use plotters::coord::Shift;
use plotters::prelude::*;

use nhlab::formulations::Method;

/// The methods' colours (matplotlib's tab10, which stays distinguishable for most
/// colour-vision deficiencies), in [`Method::ALL`] order.
pub const COLOURS: [RGBColor; 7] = [
    RGBColor(31, 119, 180),
    RGBColor(214, 39, 40),
    RGBColor(44, 160, 44),
    RGBColor(148, 103, 189),
    RGBColor(255, 127, 14),
    RGBColor(140, 86, 75),
    RGBColor(23, 190, 207),
];

/// The parameter sets' colours (`[compare]`): tab10's entries the methods leave,
/// one per set in name order.
pub const SET_COLOURS: [RGBColor; 3] = [RGBColor(227, 119, 194), RGBColor(188, 189, 34), RGBColor(127, 127, 127)];

/// Whose line or picture: a method's run with the scenario's parameters (`set` 0)
/// or with the `set`-th parameter set of `[compare]` (from 1), under the first
/// integrator (`integrator` 0) or the `integrator`-th of an overlay.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Series {
    /// The method.
    pub method: Method,
    /// 0: the scenario's own values; `k`: the `k`-th set of `[compare]`.
    pub set: usize,
    /// 0: the first (or only) integrator; `k`: the `k`-th after it.
    pub integrator: usize,
}

impl From<Method> for Series {
    fn from(method: Method) -> Series {
        Series { method, set: 0, integrator: 0 }
    }
}

/// The colour of a series, the same in every figure: a method's own colour with the
/// scenario's values under the first integrator, otherwise the colour of its set
/// and integrator together (the method's mark tells methods of one set apart).
pub fn colour(series: impl Into<Series>) -> RGBColor {
    let Series { method, set, integrator } = series.into();
    match (set + integrator).checked_sub(1) {
        Some(k) => SET_COLOURS[k % SET_COLOURS.len()],
        None => COLOURS[Method::ALL.iter().position(|&m| m == method).unwrap_or(0) % COLOURS.len()],
    }
}

/// The methods' marks, in [`Method::ALL`] order: drawn along each method's line when
/// several are overlaid, so that they can be told apart without colour (in print in
/// grey, or by a reader who does not see the palette). The glyphs are the legends'.
pub const MARKS: [char; 7] = ['●', '■', '▲', '◆', '▼', '+', '×'];

/// The mark of a series' method, as a glyph for legends drawn outside a canvas.
pub fn mark(series: impl Into<Series>) -> char {
    let method = series.into().method;
    MARKS[Method::ALL.iter().position(|&m| m == method).unwrap_or(0) % MARKS.len()]
}

/// Marks drawn along each overlaid line.
pub(crate) const MARKS_PER_LINE: usize = 5;

/// Draws `glyph` of [`MARKS`] centred at pixel `(x, y)` of `area`, `r` pixels in radius.
pub(crate) fn draw_mark<DB: DrawingBackend>(
    area: &DrawingArea<DB, Shift>,
    (x, y): (i32, i32),
    glyph: char,
    r: i32,
    colour: RGBColor,
    stroke: u32,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>> {
    let fill = colour.filled();
    let line = colour.stroke_width(stroke);
    let h = (r * 87) / 100;
    let at = |dx: i32, dy: i32| (x + dx, y + dy);
    match glyph {
        '■' => area.draw(&Rectangle::new([at(-r * 8 / 10, -r * 8 / 10), at(r * 8 / 10, r * 8 / 10)], fill)),
        '▲' => area.draw(&Polygon::new(vec![at(0, -r), at(h, r / 2 + 1), at(-h, r / 2 + 1)], fill)),
        '▼' => area.draw(&Polygon::new(vec![at(0, r), at(h, -r / 2 - 1), at(-h, -r / 2 - 1)], fill)),
        '◆' => area.draw(&Polygon::new(vec![at(0, -r), at(r, 0), at(0, r), at(-r, 0)], fill)),
        '+' => {
            area.draw(&PathElement::new(vec![at(-r, 0), at(r, 0)], line))?;
            area.draw(&PathElement::new(vec![at(0, -r), at(0, r)], line))
        }
        '×' => {
            area.draw(&PathElement::new(vec![at(-r, -r), at(r, r)], line))?;
            area.draw(&PathElement::new(vec![at(-r, r), at(r, -r)], line))
        }
        _ => area.draw(&Circle::new(at(0, 0), r, fill)),
    }
}

/// Where the marks of the `rank`-th of `count` overlaid lines go, given the line's
/// points in pixels: [`MARKS_PER_LINE`] places evenly spaced along its drawn length
/// (not by sample: adaptive steps crowd where the motion is fast), each line's
/// shifted by a fraction of the spacing so that lines drawn on top of each other
/// still show every method's marks.
pub(crate) fn mark_places(pixels: &[(i32, i32)], rank: usize, count: usize) -> Vec<(i32, i32)> {
    let mut along = Vec::with_capacity(pixels.len());
    let mut total = 0.0;
    for (k, p) in pixels.iter().enumerate() {
        if k > 0 {
            let q = pixels[k - 1];
            total += f64::from(p.0 - q.0).hypot(f64::from(p.1 - q.1));
        }
        along.push(total);
    }
    if total <= 0.0 {
        return Vec::new();
    }
    let phase = (rank as f64 + 0.5) / count.max(1) as f64;
    (0..MARKS_PER_LINE)
        .map(|k| {
            let target = (k as f64 + phase) / MARKS_PER_LINE as f64 * total;
            pixels[along.partition_point(|&d| d < target).min(pixels.len() - 1)]
        })
        .collect()
}

/// The colour of a series as CSS `#rrggbb`, for legends drawn outside a canvas.
pub fn css_colour(series: impl Into<Series>) -> String {
    let RGBColor(r, g, b) = colour(series);
    format!("#{r:02x}{g:02x}{b:02x}")
}
