//! MathML Core, for the browser. Every piece of text is escaped: names and numbers
//! may come from an untrusted shared scenario.

use alloc::string::String;

use super::names::{escape_xml, is_multi_letter, split_dots, split_subscript, unicode_stem};
use super::{typeset_symbol, Layout, Spelling};
use crate::expr::graph::ExprGraph;
use crate::expr::number::Number;

spelling!(MathMl, "<mrow><mo>(</mo>", "<mo>)</mo></mrow>", "<mo>,</mo>");

fn tag(out: &mut String, tag: &str, text: &str) {
    out.push_str(&alloc::format!("<{tag}>{}</{tag}>", escape_xml(text)));
}

/// `<mi>` with a subscript and an accent dot for velocities (˙) and accelerations (¨).
fn name(name: &str, dots: usize, out: &mut String) {
    let (stem, sub) = split_subscript(name);
    let (stem, named_dots) = split_dots(stem);
    let dots = (dots + named_dots).min(2);
    let mut core = String::new();
    tag(&mut core, "mi", &unicode_stem(stem));
    if dots > 0 {
        let accent = if dots == 1 { "\u{02D9}" } else { "\u{00A8}" };
        core = alloc::format!("<mover accent=\"true\">{core}<mo>{accent}</mo></mover>");
    }
    if sub.is_empty() {
        out.push_str(&core);
    } else {
        out.push_str("<msub>");
        out.push_str(&core);
        let t = if sub.bytes().all(|b| b.is_ascii_digit()) { "mn" } else { "mi" };
        tag(out, t, &unicode_stem(sub));
        out.push_str("</msub>");
    }
}

/// Whether a factor starts or ends with a several-letter word: a name like `Ia`, or a
/// function (`sin`), alone or raised to a power.
fn wide(g: &ExprGraph, l: &Layout) -> bool {
    match l {
        Layout::Symbol(s) => is_multi_letter(split_subscript(&g.symbol(*s).name).0),
        Layout::Name(n) => is_multi_letter(split_subscript(n).0),
        Layout::Power(b, _) => wide(g, b),
        Layout::Call(..) => true,
        _ => false,
    }
}

fn number(n: &Number, out: &mut String) {
    match n {
        Number::Float(x) => {
            let text = alloc::format!("{x:e}");
            match text.split_once('e') {
                Some((m, "0")) => tag(out, "mn", m),
                Some((m, e)) => {
                    out.push_str("<mrow>");
                    tag(out, "mn", m);
                    out.push_str("<mo>×</mo><msup><mn>10</mn>");
                    tag(out, "mn", &e.replace('-', "−"));
                    out.push_str("</msup></mrow>");
                }
                None => tag(out, "mn", &text),
            }
        }
        n => tag(out, "mn", &alloc::format!("{}", n.as_integer().unwrap_or(0))),
    }
}

fn write(g: &ExprGraph, l: &Layout, out: &mut String) {
    match l {
        Layout::Number(n) => number(n, out),
        Layout::Symbol(s) => match typeset_symbol(g, *s) {
            Some((symbol, d)) => name(symbol, d, out),
            None => tag(out, "mi", "π"),
        },
        Layout::Name(n) => name(n, 0, out),
        Layout::Sum(terms) => {
            out.push_str("<mrow>");
            for (i, (negative, t)) in terms.iter().enumerate() {
                if *negative {
                    out.push_str("<mo>−</mo>");
                } else if i > 0 {
                    out.push_str("<mo>+</mo>");
                }
                write_at(g, t, 2, out);
            }
            out.push_str("</mrow>");
        }
        Layout::Negative(x) => {
            out.push_str("<mrow><mo>−</mo>");
            write_at(g, x, 2, out);
            out.push_str("</mrow>");
        }
        Layout::Product(factors) => {
            out.push_str("<mrow>");
            for (i, f) in factors.iter().enumerate() {
                if i > 0 {
                    out.push_str(if matches!(f, Layout::Number(_)) { "<mo>·</mo>" } else { "<mo>\u{2062}</mo>" });
                    // A thin space where a several-letter name meets its neighbour.
                    if wide(g, &factors[i - 1]) || wide(g, f) {
                        out.push_str("<mspace width=\"0.1667em\"></mspace>");
                    }
                }
                write_at(g, f, 3, out);
            }
            out.push_str("</mrow>");
        }
        Layout::Fraction(n, d) => {
            out.push_str("<mfrac>");
            write(g, n, out);
            write(g, d, out);
            out.push_str("</mfrac>");
        }
        Layout::Power(b, e) => {
            out.push_str("<msup>");
            write_at(g, b, 5, out);
            write(g, e, out);
            out.push_str("</msup>");
        }
        Layout::Sqrt(x) => MathMl::wrapped(g, "<msqrt>", x, "</msqrt>", out),
        Layout::Call(f, args) => {
            out.push_str("<mrow>");
            let shown = match *f {
                "asin" => "arcsin",
                "acos" => "arccos",
                "atan" => "arctan",
                "sign" => "sgn",
                f => f,
            };
            tag(out, "mi", shown);
            out.push_str("<mo>\u{2061}</mo>");
            MathMl::arguments(g, args, out);
            out.push_str("</mrow>");
        }
        Layout::Abs(x) => MathMl::wrapped(g, "<mrow><mo>|</mo>", x, "<mo>|</mo></mrow>", out),
    }
}
