//! Plain text in the input grammar.

use alloc::string::String;

use super::{float_text, Layout, Spelling};
use crate::expr::graph::ExprGraph;
use crate::expr::number::Number;

spelling!(Text, "(", ")", ", ");

fn write(g: &ExprGraph, l: &Layout, out: &mut String) {
    match l {
        Layout::Number(Number::Float(x)) => out.push_str(&float_text(*x)),
        Layout::Number(n) => out.push_str(&alloc::format!("{}", n.as_integer().unwrap_or(0))),
        Layout::Symbol(s) => out.push_str(&g.display_symbol(*s)),
        Layout::Name(n) => out.push_str(n),
        Layout::Sum(terms) => Text::sum(g, terms, out),
        Layout::Negative(x) => Text::negative(g, x, out),
        Layout::Product(factors) => {
            for (i, f) in factors.iter().enumerate() {
                if i > 0 {
                    out.push('*');
                }
                write_at(g, f, 3, out);
            }
        }
        Layout::Fraction(n, d) => {
            write_at(g, n, 2, out);
            out.push('/');
            match &**d {
                // `2*(x + 1)` would parse as `2*x + 2` (a number times a lone sum is
                // distributed), so `1/(2*(x + 1))` is written `1/2/(x + 1)`.
                Layout::Product(fs)
                    if fs.len() == 2 && matches!(fs[0], Layout::Number(_)) && matches!(fs[1], Layout::Sum(_)) =>
                {
                    write_at(g, &fs[0], 4, out);
                    out.push('/');
                    write_at(g, &fs[1], 4, out);
                }
                d => write_at(g, d, 4, out),
            }
        }
        Layout::Power(b, e) => {
            write_at(g, b, 5, out);
            out.push('^');
            // Right-associative: `x^y^2` needs no parentheses.
            write_at(g, e, 4, out);
        }
        Layout::Sqrt(x) => call(g, "sqrt", core::slice::from_ref(&**x), out),
        Layout::Call(name, args) => call(g, name, args, out),
        Layout::Abs(x) => call(g, "abs", core::slice::from_ref(&**x), out),
    }
}

fn call(g: &ExprGraph, name: &str, args: &[Layout], out: &mut String) {
    out.push_str(name);
    Text::arguments(g, args, out);
}
