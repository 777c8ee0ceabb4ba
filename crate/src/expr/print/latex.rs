//! LaTeX: `\dot{x}`, `\varphi`, `\frac`, `\sin^{2}\left(\varphi\right)`.

use alloc::string::String;

use super::names::{escape_latex, latex_stem, split_dots, split_subscript};
use super::{typeset_symbol, Layout, Spelling};
use crate::expr::graph::ExprGraph;
use crate::expr::number::Number;

spelling!(Latex, "\\left(", "\\right)", ", ");

/// A name as it prints with no dots of its own (see [`name`]).
pub(super) fn name_string(n: &str) -> String {
    let mut out = String::new();
    name(n, 0, &mut out);
    out
}

/// A name with a subscript and, for velocities and accelerations, dots.
fn name(name: &str, dots: usize, out: &mut String) {
    let (stem, sub) = split_subscript(name);
    let (stem, named_dots) = split_dots(stem);
    let dots = (dots + named_dots).min(2);
    let mut s = latex_stem(stem);
    if dots > 0 {
        s = alloc::format!("\\{}{{{}}}", if dots == 1 { "dot" } else { "ddot" }, s);
    }
    out.push_str(&s);
    if !sub.is_empty() {
        out.push_str(&alloc::format!("_{{{}}}", escape_latex(sub)));
    }
}

fn number(n: &Number, out: &mut String) {
    match n {
        Number::Float(x) => {
            let text = alloc::format!("{x:e}");
            match text.split_once('e') {
                Some((m, "0")) => out.push_str(m),
                Some((m, e)) => out.push_str(&alloc::format!("{m} \\times 10^{{{e}}}")),
                None => out.push_str(&text),
            }
        }
        n => out.push_str(&alloc::format!("{}", n.as_integer().unwrap_or(0))),
    }
}

fn function(name: &str) -> &'static str {
    match name {
        "sin" => "\\sin",
        "cos" => "\\cos",
        "tan" => "\\tan",
        "asin" => "\\arcsin",
        "acos" => "\\arccos",
        "atan" => "\\arctan",
        "sinh" => "\\sinh",
        "cosh" => "\\cosh",
        "tanh" => "\\tanh",
        "exp" => "\\exp",
        "ln" => "\\ln",
        "sign" => "\\operatorname{sgn}",
        _ => "\\operatorname{atan2}",
    }
}

fn write(g: &ExprGraph, l: &Layout, out: &mut String) {
    match l {
        Layout::Number(n) => number(n, out),
        Layout::Symbol(s) => match typeset_symbol(g, *s) {
            Some((symbol, d)) => name(symbol, d, out),
            None => out.push_str("\\pi"),
        },
        Layout::Name(n) => name(n, 0, out),
        Layout::Sum(terms) => Latex::sum(g, terms, out),
        Layout::Negative(x) => Latex::negative(g, x, out),
        Layout::Product(factors) => {
            for (i, f) in factors.iter().enumerate() {
                if i > 0 {
                    out.push_str(if matches!(f, Layout::Number(_)) { " \\cdot " } else { " \\, " });
                }
                write_at(g, f, 3, out);
            }
        }
        Layout::Fraction(n, d) => {
            out.push_str("\\frac{");
            write(g, n, out);
            out.push_str("}{");
            write(g, d, out);
            out.push('}');
        }
        Layout::Power(b, e) => {
            // sin²(φ) as mechanics texts print it.
            if let (Layout::Call(f, args), Layout::Number(n)) = (&**b, &**e) {
                if matches!(*f, "sin" | "cos" | "tan" | "sinh" | "cosh" | "tanh")
                    && args.len() == 1
                    && n.as_integer().is_some()
                {
                    out.push_str(function(f));
                    out.push_str("^{");
                    number(n, out);
                    out.push_str("}\\left(");
                    write(g, &args[0], out);
                    out.push_str("\\right)");
                    return;
                }
            }
            out.push('{');
            write_at(g, b, 5, out);
            out.push_str("}^{");
            write(g, e, out);
            out.push('}');
        }
        Layout::Sqrt(x) => Latex::wrapped(g, "\\sqrt{", x, "}", out),
        Layout::Call(f, args) => {
            out.push_str(function(f));
            Latex::arguments(g, args, out);
        }
        Layout::Abs(x) => Latex::wrapped(g, "\\left|", x, "\\right|", out),
    }
}
