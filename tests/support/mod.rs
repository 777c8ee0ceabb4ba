//! Helpers shared by the integration tests: a graph with the usual names, a seeded
//! random generator, random expressions with an evaluator of their own (independent
//! of the engine's), and finite differences.

pub mod families;
pub mod hostile;
pub mod mutate;
pub mod random;
pub mod scenarios;
pub mod shapes;

use nhlab::expr::{ExprGraph, ExprId, ParseOptions, SymbolId};

/// Coordinates `x y phi`, parameters `m a k`.
pub fn graph() -> ExprGraph {
    let mut g = ExprGraph::new();
    for q in ["x", "y", "phi"] {
        g.declare_coordinate(q).unwrap();
    }
    for p in ["m", "a", "k"] {
        g.declare_parameter(p).unwrap();
    }
    g
}

/// Parses, allowing accelerations, and panics with the message on error.
pub fn parse(g: &mut ExprGraph, s: &str) -> ExprId {
    g.parse_with(s, ParseOptions { allow_accelerations: true }).unwrap_or_else(|e| panic!("`{s}` does not parse: {e}"))
}

/// Holds a table "input ⇒ expected text": each input, parsed in `g`, prints as
/// expected through `print` (a rewrite and a printer); a failure names the input.
#[track_caller]
pub fn assert_prints(g: &mut ExprGraph, cases: &[(&str, &str)], print: impl Fn(&mut ExprGraph, ExprId) -> String) {
    for &(input, expected) in cases {
        let e = parse(g, input);
        assert_eq!(print(g, e), expected, "{input}");
    }
}

/// Holds a table "input ⇒ expected expression": each input, parsed in `g` and
/// rewritten, is the very node the expected text parses to (the graph shares equal
/// subtrees, so this is equality of the canonical forms).
#[track_caller]
pub fn assert_rewrites(g: &mut ExprGraph, cases: &[(&str, &str)], rewrite: impl Fn(&mut ExprGraph, ExprId) -> ExprId) {
    for &(input, expected) in cases {
        let e = parse(g, input);
        let got = rewrite(g, e);
        let want = parse(g, expected);
        assert_eq!(got, want, "{input} ⇒ {expected}, got {}", g.to_text(got));
    }
}

/// As [`parse`], `None` for a text that divides by a constant 0 (refused: it has no
/// value), as a random tree may.
pub fn parse_valued(g: &mut ExprGraph, s: &str) -> Option<ExprId> {
    match g.parse_with(s, ParseOptions { allow_accelerations: true }) {
        Ok(e) => Some(e),
        Err(e) if e.kind == nhlab::expr::ParseErrorKind::DivisionByZero => None,
        Err(e) => panic!("`{s}` does not parse: {e}"),
    }
}

/// The symbol written `name` (`x`, `x'`, `x''`, `m`, `t`).
pub fn sym(g: &ExprGraph, name: &str) -> SymbolId {
    let primes = name.len() - name.trim_end_matches('\'').len();
    let base = g.lookup_symbol(name.trim_end_matches('\'')).unwrap_or_else(|| panic!("no symbol {name}"));
    if primes == 0 {
        return base;
    }
    let i = (0..g.coordinate_count()).find(|&i| g.coordinate(i)[0] == base).expect("a coordinate");
    g.coordinate(i)[primes]
}

/// A deterministic value for every symbol: distinct, moderate, away from the kinks.
pub fn point(seed: u64) -> impl Fn(SymbolId) -> f64 {
    move |s: SymbolId| {
        let mut r = random::Rng::new(seed ^ (s.index() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        r.range(-1.5, 1.5)
    }
}

/// Derivative of `f` at `x` by Richardson-extrapolated central differences, with the
/// difference between two step sizes as an error estimate.
pub fn finite_difference(f: &dyn Fn(f64) -> f64, x: f64) -> (f64, f64) {
    let h = 1e-3 * (1.0 + x.abs());
    let central = |h: f64| (f(x + h) - f(x - h)) / (2.0 * h);
    let d1 = (4.0 * central(h / 2.0) - central(h)) / 3.0;
    let d2 = (4.0 * central(h / 4.0) - central(h / 2.0)) / 3.0;
    (d2, (d2 - d1).abs())
}

/// Asserts `got` equals `want` within `tolerance` times (1 + the largest |want|).
pub fn assert_close(got: &[f64], want: &[f64], tolerance: f64, what: &str) {
    let scale = 1.0 + want.iter().fold(0.0f64, |s, x| s.max(x.abs()));
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() <= tolerance * scale, "{what}: {got:?} vs {want:?}");
    }
}
