//! The plots in words, for people who do not see them: a summary of each panel's
//! lines up to the display clock (what they span, where each is now), kept as the
//! canvas' description, and the data as a table on request. Both are read from the
//! lines the panel draws ([`crate::panels::content`]), so they say what is shown.

use nhlab_plots::Line;
use serde::Serialize;

use crate::display::Display;
use crate::i18n::tr;
use crate::panels::{content, spec, Kind, PanelInfo};

/// Lines described in a summary at most; the rest are counted.
const MAX_DESCRIBED: usize = 8;

/// A number for reading aloud: four significant digits, exponent form outside
/// 0.001 … 100,000.
pub fn number(x: f64) -> String {
    if !x.is_finite() {
        return tr("describe.not-finite", &[]);
    }
    if x == 0.0 {
        return "0".into();
    }
    if !(1e-3..1e5).contains(&x.abs()) {
        return format!("{x:.3e}");
    }
    let digits = (3 - x.abs().log10().floor() as i32).max(0) as usize;
    let text = format!("{x:.digits$}");
    if text.contains('.') {
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        text
    }
}

fn finite(line: &Line) -> impl Iterator<Item = (f64, f64)> + '_ {
    line.points.iter().copied().filter(|p| p.0.is_finite() && p.1.is_finite())
}

fn span(values: impl Iterator<Item = f64>) -> Option<(f64, f64)> {
    values.fold(None, |s, v| Some(s.map_or((v, v), |(a, b): (f64, f64)| (a.min(v), b.max(v)))))
}

/// One sentence per labelled line of the panel `info`: its range and its value at
/// the clock.
pub fn summary(display: &Display, info: &PanelInfo) -> String {
    if info.kind == Kind::Scene {
        return String::new();
    }
    let (lines, _, scale) = content(display, info.kind, 400);
    let axes = spec(&display.layout, info, scale, 1.0);
    let labelled: Vec<&Line> = lines.iter().filter(|l| l.label.is_some()).collect();
    let mut out = format!("{}.", info.title);
    if labelled.is_empty() {
        out.push_str(&format!(" {}", tr("describe.no-data", &[])));
        return out;
    }
    for line in labelled.iter().take(MAX_DESCRIBED) {
        let label = line.label.as_deref().unwrap_or_default();
        let (Some(xs), Some(ys), Some(last)) =
            (span(finite(line).map(|p| p.0)), span(finite(line).map(|p| p.1)), finite(line).last())
        else {
            out.push_str(&format!(" {}", tr("describe.no-finite", &[("label", &label)])));
            continue;
        };
        let (x, y) = (axes.x_label, axes.y_label);
        // A series' sentence reads no range of its time axis: `x0`, `x1` go unused.
        let id = if info.kind == Kind::Trajectory { "describe.trajectory" } else { "describe.series" };
        let said = tr(
            id,
            &[
                ("label", &label),
                ("x", &x),
                ("y", &y),
                ("x0", &number(xs.0)),
                ("x1", &number(xs.1)),
                ("y0", &number(ys.0)),
                ("y1", &number(ys.1)),
                ("xn", &number(last.0)),
                ("yn", &number(last.1)),
            ],
        );
        out.push_str(&format!(" {said}"));
    }
    if labelled.len() > MAX_DESCRIBED {
        out.push_str(&format!(" {}", tr("describe.more", &[("count", &(labelled.len() - MAX_DESCRIBED))])));
    }
    out
}

/// A panel's data as a table: every labelled line's points up to the clock, `rows`
/// of them at most per line, evenly spread and the last one included.
#[derive(Debug, Serialize, PartialEq)]
pub struct Table {
    /// The columns' headings: the line, the horizontal axis, the vertical axis.
    pub columns: [String; 3],
    /// `(line, x, y)` rows, numbers as text (four significant digits).
    pub rows: Vec<[String; 3]>,
}

/// See [`Table`].
pub fn table(display: &Display, info: &PanelInfo, rows: usize) -> Table {
    let (lines, _, scale) = content(display, info.kind, usize::MAX);
    let axes = spec(&display.layout, info, scale, 1.0);
    let mut out = Vec::new();
    for line in lines.iter().filter(|l| l.label.is_some()) {
        let label = line.label.clone().unwrap_or_default();
        let n = line.points.len();
        let wanted = rows.clamp(2, 1000);
        let picks: Vec<usize> = if n <= wanted {
            (0..n).collect()
        } else {
            let mut k: Vec<usize> = (0..wanted).map(|i| i * (n - 1) / (wanted - 1)).collect();
            k.dedup();
            k
        };
        for k in picks {
            let (x, y) = line.points[k];
            out.push([label.clone(), number(x), number(y)]);
        }
    }
    Table { columns: ["line".into(), axes.x_label.into(), axes.y_label.into()], rows: out }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::Lab;

    #[test]
    fn numbers_read_with_four_significant_digits() {
        assert_eq!(number(0.0), "0");
        assert_eq!(number(1.0), "1");
        assert_eq!(number(-2.5), "-2.5");
        assert_eq!(number(4.56789), "4.568");
        assert_eq!(number(1234.5678), "1235");
        assert_eq!(number(0.012345), "0.01235");
        assert_eq!(number(1.5e-7), "1.500e-7");
        assert_eq!(number(f64::NAN), "not finite");
    }

    /// A unit mass falling from rest under a unit force, run to t = 2: the summary
    /// and the table say what the closed form gives, `x = t²/2`.
    #[test]
    fn the_words_and_the_table_follow_the_lines() {
        let text = [
            r#"format = "nhlab/1""#,
            r#"title = "fall""#,
            r#"coordinates = ["x", "y"]"#,
            r#"kinetic = "(x'^2 + y'^2)/2""#,
            r#"potential = "-x""#,
            "[initial]",
            "q = { x = 0, y = 0 }",
            "v = { x = 0, y = 1 }",
            "[run]",
            "t_end = 2",
            r#"methods = ["lagrange"]"#,
            "[view]",
            r#"trajectory = ["x", "y"]"#,
            r#"series = ["x"]"#,
        ]
        .join("\n");
        let mut lab = Lab::new(&text).unwrap();
        while !lab.finished() {
            lab.advance(2.0, 10_000);
        }
        let mut display = Display::of(&mut lab);
        display.now = 2.0;
        let x = |t: f64| t * t / 2.0;
        let series = display.layout.panels.iter().find(|p| p.kind == Kind::Series(0)).unwrap().clone();
        let words = summary(&display, &series);
        assert!(words.starts_with(&format!("{}.", series.title)), "{words}");
        assert!(words.contains("lagrange: x from 0 to 2; at t = 2, 2."), "{words}");
        let t = table(&display, &series, 11);
        assert_eq!(t.columns, ["line".to_string(), "t".into(), "x".into()]);
        assert_eq!(t.rows.len(), 11, "{:?}", t.rows);
        assert_eq!(t.rows.last().unwrap()[1..], ["2".to_string(), "2".into()]);
        for row in &t.rows {
            let (at, value): (f64, f64) = (row[1].parse().unwrap(), row[2].parse().unwrap());
            assert!((value - x(at)).abs() <= 1e-3 * x(at).max(1e-3), "{row:?} against {}", x(at));
        }
        // The trajectory: y = t, x = t²/2 at the clock.
        let path = display.layout.panels.iter().find(|p| p.kind == Kind::Trajectory).unwrap().clone();
        let words = summary(&display, &path);
        assert!(words.contains("lagrange: x from 0 to 2, y from 0 to 2; now at x = 2, y = 2."), "{words}");
        // The scene has no lines to tell.
        let scene = PanelInfo { kind: Kind::Scene, ..path };
        assert_eq!(summary(&display, &scene), "");
    }
}
