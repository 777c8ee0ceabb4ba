//! How a series looks in every figure: its colour (the method's, or its parameter
//! set's and integrator's) and its mark, drawn along overlaid lines so that they are
//! told apart without colour.

use plotters::coord::Shift;
use plotters::prelude::*;

use nhlab::formulations::Method;

/// matplotlib's tab10 palette, in its own order (blue, orange, green, red, purple,
/// brown, pink, grey, olive, cyan): ten colours that stay distinguishable for most
/// colour-vision deficiencies. The methods and the parameter sets share it out.
const TAB10: [u32; 10] =
    [0x1f77b4, 0xff7f0e, 0x2ca02c, 0xd62728, 0x9467bd, 0x8c564b, 0xe377c2, 0x7f7f7f, 0xbcbd22, 0x17becf];

/// A colour written `0xRRGGBB`, as palettes are published.
pub(crate) const fn rgb(hex: u32) -> RGBColor {
    RGBColor((hex >> 16) as u8, (hex >> 8) as u8, hex as u8)
}

/// The methods' colours, in [`Method::ALL`] order: tab10's blue, red, green,
/// purple, orange, brown and cyan.
pub const COLOURS: [RGBColor; 7] =
    [rgb(TAB10[0]), rgb(TAB10[3]), rgb(TAB10[2]), rgb(TAB10[4]), rgb(TAB10[1]), rgb(TAB10[5]), rgb(TAB10[9])];

/// The parameter sets' colours (`[compare]`): tab10's entries the methods leave
/// (pink, olive, grey), one per set in name order.
pub const SET_COLOURS: [RGBColor; 3] = [rgb(TAB10[6]), rgb(TAB10[8]), rgb(TAB10[7])];

/// The axes every figure shares: tick labels at 12 px and axis titles at 13 px
/// (`px` scales a length by the device pixel ratio), and a grid of two light greys.
pub(crate) trait HouseAxes {
    /// This mesh in the house style.
    fn house_style(&mut self, px: impl Fn(f64) -> i32) -> &mut Self;
}

impl<X, Y, DB> HouseAxes for plotters::chart::MeshStyle<'_, '_, X, Y, DB>
where
    X: plotters::coord::ranged1d::Ranged<ValueType = f64> + plotters::coord::ranged1d::ValueFormatter<f64>,
    Y: plotters::coord::ranged1d::Ranged<ValueType = f64> + plotters::coord::ranged1d::ValueFormatter<f64>,
    DB: DrawingBackend,
{
    fn house_style(&mut self, px: impl Fn(f64) -> i32) -> &mut Self {
        self.label_style(("sans-serif", px(12.0)))
            .axis_desc_style(("sans-serif", px(13.0)))
            .light_line_style(RGBColor(238, 238, 238))
            .bold_line_style(RGBColor(214, 214, 214))
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    /// Each method and each parameter set has a tab10 colour of its own.
    #[test]
    fn the_methods_and_the_sets_share_out_tab10() {
        let used: Vec<RGBColor> = COLOURS.iter().chain(&SET_COLOURS).copied().collect();
        for (i, c) in used.iter().enumerate() {
            assert!(TAB10.iter().any(|&hex| rgb(hex) == *c), "{c:?} is not tab10's");
            assert!(!used[i + 1..].contains(c), "{c:?} twice");
        }
        // matplotlib's first colour, `tab:blue`, as its documentation spells it.
        assert_eq!(css_colour(Method::ALL[0]), "#1f77b4");
    }
}
