//! Printing: plain text (parses back to the same expression), LaTeX and MathML Core.
//!
//! A canonical expression is first laid out as a [`Layout`] tree — signs pulled to
//! the front of terms, negative powers moved into a denominator, `x^(1/2)` shown as
//! a square root — and the three renderers only decide spelling and parentheses, so
//! the readable arrangement is decided once.

/// A printer's [`Spelling`]: its type, parentheses and argument separator, with its
/// own `write` as the pieces and the `write_at` that writes call.
macro_rules! spelling {
    ($name:ident, $open:expr, $close:expr, $separator:expr) => {
        /// The spelling of this format.
        pub(super) struct $name;

        impl super::Spelling for $name {
            const OPEN: &'static str = $open;
            const CLOSE: &'static str = $close;
            const SEPARATOR: &'static str = $separator;

            fn write(g: &ExprGraph, l: &Layout, out: &mut String) {
                write(g, l, out);
            }
        }

        fn write_at(g: &ExprGraph, l: &Layout, min: u8, out: &mut String) {
            <$name as super::Spelling>::write_at(g, l, min, out);
        }
    };
}

mod latex;
mod mathml;
mod names;
mod text;

use alloc::boxed::Box;
use alloc::string::String;
use alloc::vec::Vec;

use super::graph::{ExprGraph, ExprId, Function, Node};
use core::ops::Neg;

use super::number::Number;
use super::symbols::{SymbolId, SymbolKind};

/// A name as LaTeX, as it prints inside expressions (`phi_2 → \varphi_{2}`,
/// `mudot1 → \dot{\mu}_{1}`): for labels built from names.
pub fn name_to_latex(name: &str) -> String {
    latex::name_string(name)
}

/// Plain text as LaTeX inside math: `\text{…}` with the special characters escaped.
pub fn text_to_latex(text: &str) -> String {
    alloc::format!("\\text{{{}}}", names::escape_latex(text))
}

/// How an expression is shown, independent of the output language.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Layout {
    /// A non-negative number.
    Number(Number),
    /// A symbol.
    Symbol(SymbolId),
    /// A definition, by name.
    Name(String),
    /// Terms with their signs (`true` = subtracted); the first is never subtracted
    /// unless all are.
    Sum(Vec<(bool, Layout)>),
    /// `-x`.
    Negative(Box<Layout>),
    /// Juxtaposed factors (at least two).
    Product(Vec<Layout>),
    /// Numerator over denominator.
    Fraction(Box<Layout>, Box<Layout>),
    /// Base and exponent.
    Power(Box<Layout>, Box<Layout>),
    /// `sqrt(x)`.
    Sqrt(Box<Layout>),
    /// A function and its arguments (`atan2` has two).
    Call(&'static str, Vec<Layout>),
    /// `|x|`.
    Abs(Box<Layout>),
}

impl Layout {
    /// Binding strength, for parentheses: 1 sum, 2 product / fraction / negative,
    /// 4 power, 5 atom.
    fn precedence(&self) -> u8 {
        match self {
            Layout::Sum(_) => 1,
            Layout::Negative(_) | Layout::Product(_) | Layout::Fraction(..) => 2,
            Layout::Power(..) => 4,
            Layout::Number(Number::Float(x)) if *x != libm::trunc(*x) || x.abs() >= 1e16 => 3,
            _ => 5,
        }
    }
}

impl ExprGraph {
    /// The expression as plain text in the input grammar; it parses back to the same
    /// expression (with accelerations allowed, if it has any).
    pub fn to_text(&self, e: ExprId) -> String {
        <text::Text as Spelling>::render(self, &self.layout(e))
    }

    /// The expression as LaTeX (math mode, without delimiters).
    pub fn to_latex(&self, e: ExprId) -> String {
        <latex::Latex as Spelling>::render(self, &self.layout(e))
    }

    /// The expression as a MathML Core `<math>` element; every name is escaped.
    pub fn to_mathml(&self, e: ExprId) -> String {
        let mut out = String::from("<math xmlns=\"http://www.w3.org/1998/Math/MathML\">");
        out.push_str(&<mathml::MathMl as Spelling>::render(self, &self.layout(e)));
        out.push_str("</math>");
        out
    }

    /// An equation `lhs = ∫₀¹ integrand ds` as a MathML Core block (`s` the
    /// integration variable).
    pub fn integral_equation_to_mathml(&self, lhs: ExprId, integrand: ExprId, s: SymbolId) -> String {
        let mut out = String::from("<math xmlns=\"http://www.w3.org/1998/Math/MathML\" display=\"block\"><mrow>");
        out.push_str(&<mathml::MathMl as Spelling>::render(self, &self.layout(lhs)));
        out.push_str("<mo>=</mo><msubsup><mo>∫</mo><mn>0</mn><mn>1</mn></msubsup><mrow>");
        out.push_str(&<mathml::MathMl as Spelling>::render(self, &self.layout(integrand)));
        out.push_str("</mrow><mo lspace=\"0.2em\" rspace=\"0\">&#x2009;</mo><mi mathvariant=\"normal\">d</mi>");
        out.push_str(&<mathml::MathMl as Spelling>::render(self, &self.layout(self.symbol_expr(s))));
        out.push_str("</mrow></math>");
        out
    }

    /// An equation `lhs = rhs` as a MathML Core `<math display="block">` element.
    pub fn equation_to_mathml(&self, lhs: ExprId, rhs: ExprId) -> String {
        let mut out = String::from("<math xmlns=\"http://www.w3.org/1998/Math/MathML\" display=\"block\"><mrow>");
        out.push_str(&<mathml::MathMl as Spelling>::render(self, &self.layout(lhs)));
        out.push_str("<mo>=</mo>");
        out.push_str(&<mathml::MathMl as Spelling>::render(self, &self.layout(rhs)));
        out.push_str("</mrow></math>");
        out
    }

    /// A named matrix `name = [entries]` (row-major, `rows × cols`; a column vector
    /// when `cols` is 1) as a MathML Core `<math display="block">` element.
    pub fn matrix_to_mathml(&self, name: &str, rows: usize, cols: usize, entries: &[ExprId]) -> String {
        let mut out = String::from("<math xmlns=\"http://www.w3.org/1998/Math/MathML\" display=\"block\"><mrow>");
        out.push_str(&alloc::format!("<mi>{}</mi><mo>=</mo><mrow><mo>[</mo><mtable>", names::escape_xml(name)));
        for r in 0..rows {
            out.push_str("<mtr>");
            for c in 0..cols {
                out.push_str("<mtd>");
                out.push_str(&<mathml::MathMl as Spelling>::render(self, &self.layout(entries[r * cols + c])));
                out.push_str("</mtd>");
            }
            out.push_str("</mtr>");
        }
        out.push_str("</mtable><mo>]</mo></mrow></mrow></math>");
        out
    }

    /// The same matrix as LaTeX: `name = \begin{bmatrix} … \end{bmatrix}`.
    pub fn matrix_to_latex(&self, name: &str, rows: usize, cols: usize, entries: &[ExprId]) -> String {
        let body: Vec<String> = (0..rows)
            .map(|r| {
                let row: Vec<String> = (0..cols).map(|c| self.to_latex(entries[r * cols + c])).collect();
                row.join(" & ")
            })
            .collect();
        alloc::format!("{name} = \\begin{{bmatrix}} {} \\end{{bmatrix}}", body.join(" \\\\ "))
    }

    pub(crate) fn layout(&self, e: ExprId) -> Layout {
        let (negative, l) = self.signed_layout(e);
        if negative {
            Layout::Negative(Box::new(l))
        } else {
            l
        }
    }

    /// The layout of `|e|` and whether `e` carries a minus sign.
    fn signed_layout(&self, e: ExprId) -> (bool, Layout) {
        match self.node(e) {
            Node::Number(n) => (n.is_negative(), number_layout(n.abs())),
            Node::Mul(factors) => {
                let (coefficient, rest) = match self.node(factors[0]) {
                    Node::Number(c) => (*c, &factors[1..]),
                    _ => (Number::ONE, &factors[..]),
                };
                (coefficient.is_negative(), self.product_layout(coefficient.abs(), rest))
            }
            Node::Pow(..) => (false, self.product_layout(Number::ONE, &[e])),
            Node::Symbol(s) => (false, Layout::Symbol(*s)),
            Node::Definition(d) => (false, Layout::Name(self.definition(*d).name.clone())),
            Node::Add(terms) => (false, self.sum_layout(terms)),
            Node::Call(Function::Abs, u) => (false, Layout::Abs(Box::new(self.layout(*u)))),
            Node::Call(f, u) => (false, Layout::Call(f.name(), alloc::vec![self.layout(*u)])),
            Node::Atan2(y, x) => (false, Layout::Call("atan2", alloc::vec![self.layout(*y), self.layout(*x)])),
        }
    }

    /// Terms in canonical order, except that the constant goes last and the first
    /// shown term is a positive one when there is one (`x - y`, not `-y + x`).
    ///
    /// Terms with accelerations come first, in the order of their coordinates
    /// (`m*x'' + m*a*φ''`, then the rest): canonical order follows the order in
    /// which nodes were made, which differs with what else was derived, so the side
    /// of an equation a reader scans first is put in an order of its own.
    fn sum_layout(&self, terms: &[ExprId]) -> Layout {
        let mut shown: Vec<(bool, Layout)> = Vec::with_capacity(terms.len());
        let mut constant = None;
        let mut ordered: Vec<ExprId> = terms.to_vec();
        ordered.sort_by_cached_key(|&t| self.first_acceleration(t).map_or((1, 0), |i| (0, i)));
        for &t in &ordered {
            let signed = self.signed_layout(t);
            if self.as_number(t).is_some() {
                constant = Some(signed);
            } else {
                shown.push(signed);
            }
        }
        shown.extend(constant);
        if let Some(k) = shown.iter().position(|(negative, _)| !negative) {
            let first = shown.remove(k);
            shown.insert(0, first);
        }
        Layout::Sum(shown)
    }

    /// The smallest coordinate index among the accelerations `e` contains.
    fn first_acceleration(&self, e: ExprId) -> Option<usize> {
        let mut first = None;
        self.walk(&[e], false, |_, node| {
            if let Node::Symbol(s) = node {
                if let SymbolKind::Acceleration(i) = self.symbol(*s).kind {
                    first = Some(first.map_or(i, |f: usize| f.min(i)));
                }
            }
        });
        first
    }

    /// `coefficient * Π factors` as a fraction when there are negative powers.
    fn product_layout(&self, coefficient: Number, factors: &[ExprId]) -> Layout {
        let mut numerator = Vec::new();
        let mut denominator = Vec::new();
        if let Some(r) = coefficient.as_rational() {
            if r.numer() != 1 {
                numerator.push(Layout::Number(Number::from(r.numer())));
            }
            if r.denom() != 1 {
                denominator.push(Layout::Number(Number::from(r.denom())));
            }
        } else {
            numerator.push(number_layout(coefficient));
        }
        let mut ordered: Vec<ExprId> = factors.to_vec();
        ordered.sort_by_key(|&f| (self.display_rank(f), f));
        for f in ordered {
            match self.node(f) {
                // `0^-2` stays as it is: moved to a denominator as `0^2` it would read
                // back as 0.
                Node::Pow(b, x) if self.is_zero(*b) => {
                    numerator.push(Layout::Power(Box::new(self.layout(*b)), Box::new(self.layout(*x))))
                }
                Node::Pow(b, x) => match self.as_number(*x) {
                    Some(e) if e.is_negative() => denominator.push(self.power_layout(*b, e.neg())),
                    Some(e) => numerator.push(self.power_layout(*b, e)),
                    None => numerator.push(Layout::Power(Box::new(self.layout(*b)), Box::new(self.layout(*x)))),
                },
                _ => numerator.push(self.layout(f)),
            }
        }
        let join = |mut parts: Vec<Layout>| match parts.len() {
            0 => Layout::Number(Number::ONE),
            1 => parts.pop().unwrap_or(Layout::Number(Number::ONE)),
            _ => Layout::Product(parts),
        };
        if denominator.is_empty() {
            join(numerator)
        } else {
            Layout::Fraction(Box::new(join(numerator)), Box::new(join(denominator)))
        }
    }

    /// Where a factor goes in a displayed product: `2*m*a*x'*sin(φ)*(x + y)*x''` —
    /// numbers, parameters, time, definitions, coordinates, velocities, functions,
    /// sums, and accelerations last (`(m0 - c*t)*x''`); a power ranks as its base.
    fn display_rank(&self, f: ExprId) -> u8 {
        match self.node(f) {
            Node::Number(_) => 0,
            Node::Symbol(s) => match self.symbol(*s).kind {
                SymbolKind::Parameter(_) | SymbolKind::Pi => 1,
                SymbolKind::Time => 2,
                SymbolKind::Coordinate(_) => 4,
                SymbolKind::Velocity(_) => 5,
                SymbolKind::Acceleration(_) => 10,
                SymbolKind::Auxiliary(_) => 7,
            },
            Node::Definition(_) => 3,
            Node::Pow(b, _) => self.display_rank(*b),
            Node::Call(..) | Node::Atan2(..) => 8,
            Node::Add(_) | Node::Mul(_) => 9,
        }
    }

    /// `b^e` for a positive number `e`.
    fn power_layout(&self, b: ExprId, e: Number) -> Layout {
        let base = self.layout(b);
        if e.is_one() {
            base
        } else if e == Number::HALF {
            Layout::Sqrt(Box::new(base))
        } else {
            Layout::Power(Box::new(base), Box::new(number_layout(e)))
        }
    }
}

/// The frame of the walk the three printers share: a rendering into a fresh string,
/// a part fenced in parentheses where it binds less tightly than its place asks, and
/// a list of arguments. Each printer spells the pieces ([`Spelling::write`]).
pub(super) trait Spelling {
    /// An opening parenthesis.
    const OPEN: &'static str;
    /// A closing parenthesis.
    const CLOSE: &'static str;
    /// Between two arguments of a function.
    const SEPARATOR: &'static str;

    /// Writes `l`.
    fn write(g: &ExprGraph, l: &Layout, out: &mut String);

    /// `l` as a string.
    fn render(g: &ExprGraph, l: &Layout) -> String {
        let mut out = String::new();
        Self::write(g, l, &mut out);
        out
    }

    /// Writes `l`, in parentheses when it binds less tightly than `min`.
    fn write_at(g: &ExprGraph, l: &Layout, min: u8, out: &mut String) {
        if l.precedence() < min {
            Self::fenced(g, l, out);
        } else {
            Self::write(g, l, out);
        }
    }

    /// Writes `l` between `open` and `close` (`\\sqrt{…}`, `<msqrt>…</msqrt>`).
    fn wrapped(g: &ExprGraph, open: &str, l: &Layout, close: &str, out: &mut String) {
        out.push_str(open);
        Self::write(g, l, out);
        out.push_str(close);
    }

    /// Writes a sum's terms, each after its sign ([`sign_before`]), as text and LaTeX
    /// write them.
    fn sum(g: &ExprGraph, terms: &[(bool, Layout)], out: &mut String) {
        for (i, (negative, t)) in terms.iter().enumerate() {
            out.push_str(sign_before(i, *negative));
            Self::write_at(g, t, 2, out);
        }
    }

    /// Writes `-x`, as text and LaTeX write it.
    fn negative(g: &ExprGraph, x: &Layout, out: &mut String) {
        out.push('-');
        Self::write_at(g, x, 2, out);
    }

    /// Writes `l` in parentheses.
    fn fenced(g: &ExprGraph, l: &Layout, out: &mut String) {
        out.push_str(Self::OPEN);
        Self::write(g, l, out);
        out.push_str(Self::CLOSE);
    }

    /// Writes `args` in parentheses, separated.
    fn arguments(g: &ExprGraph, args: &[Layout], out: &mut String) {
        out.push_str(Self::OPEN);
        for (i, a) in args.iter().enumerate() {
            if i > 0 {
                out.push_str(Self::SEPARATOR);
            }
            Self::write(g, a, out);
        }
        out.push_str(Self::CLOSE);
    }
}

/// A symbol as the typeset printers spell it: its name and how many dots it takes
/// ([`dots`]), or `None` for π.
fn typeset_symbol(g: &ExprGraph, s: SymbolId) -> Option<(&str, usize)> {
    let sym = g.symbol(s);
    dots(&sym.kind).map(|d| (sym.name.as_str(), d))
}

/// How many dots a symbol's name takes when typeset (`ẋ` for a velocity, `ẍ` for an
/// acceleration); `None` for π, which has a sign of its own.
pub(crate) fn dots(kind: &SymbolKind) -> Option<usize> {
    match kind {
        SymbolKind::Pi => None,
        SymbolKind::Velocity(_) => Some(1),
        SymbolKind::Acceleration(_) => Some(2),
        _ => Some(0),
    }
}

/// What goes before term `i` of a sum in text and LaTeX: `-` before a negative first
/// term, ` - ` or ` + ` between terms.
pub(crate) fn sign_before(i: usize, negative: bool) -> &'static str {
    match (i, negative) {
        (0, true) => "-",
        (0, false) => "",
        (_, true) => " - ",
        (_, false) => " + ",
    }
}

/// A non-negative number: a fraction for a non-integer rational.
fn number_layout(n: Number) -> Layout {
    match n.as_rational() {
        Some(r) if r.denom() != 1 => Layout::Fraction(
            Box::new(Layout::Number(Number::from(r.numer()))),
            Box::new(Layout::Number(Number::from(r.denom()))),
        ),
        _ => Layout::Number(n),
    }
}

/// A float constant with 17 significant digits: it reads back as the same double
/// (the parser takes literals of more than 15 digits as doubles, not rationals).
pub(crate) fn float_text(x: f64) -> String {
    alloc::format!("{x:.16e}")
}
