//! Properties on random expressions, checked against [`Tree`](nhlab_tests::random::Tree)'s own evaluation
//! (written without the engine) and against finite differences.

use nhlab::expr::{ExprGraph, ExprId, ParseOptions, SymbolId};
use nhlab_tests::random::{tree_strategy, NAMES};
use nhlab_tests::{finite_difference, graph, sym};
use proptest::prelude::*;

/// 400 cases a property, from a fixed seed so that CI is repeatable; set
/// `NHLAB_PROPTEST_SEED=<n>` to explore other seeds (a failure prints its input).
fn config() -> ProptestConfig {
    let seed = std::env::var("NHLAB_PROPTEST_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0x006e_686c_6162);
    ProptestConfig {
        cases: 400,
        failure_persistence: None,
        rng_seed: proptest::test_runner::RngSeed::Fixed(seed),
        ..ProptestConfig::default()
    }
}

fn point() -> impl Strategy<Value = Vec<f64>> {
    proptest::collection::vec(-2.0f64..2.0, NAMES.len())
}

/// The graph, the text's expression in it, and the symbols of [`NAMES`]; `None` for
/// a text that divides by a constant 0, which the parser refuses (it has no value).
fn build(text: &str) -> Option<(ExprGraph, ExprId, Vec<SymbolId>)> {
    let mut g = graph();
    let e = parsed(&mut g, text)?;
    let syms = NAMES.iter().map(|n| sym(&g, n)).collect();
    Some((g, e, syms))
}

/// `text` parsed, `None` where it divides by a constant 0; any other error fails.
fn parsed(g: &mut ExprGraph, text: &str) -> Option<ExprId> {
    match g.parse(text) {
        Ok(e) => Some(e),
        Err(err) if err.kind == nhlab::expr::ParseErrorKind::DivisionByZero => None,
        Err(err) => panic!("{text}: {err}"),
    }
}

fn values<'a>(syms: &'a [SymbolId], vars: &'a [f64]) -> impl Fn(SymbolId) -> f64 + 'a {
    move |s| syms.iter().position(|&x| x == s).map_or(0.0, |i| vars[i])
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

proptest! {
    #![proptest_config(config())]

    /// Canonical construction keeps the value wherever the input is finite.
    #[test]
    fn simplification_preserves_value(tree in tree_strategy(5), vars in point()) {
        let (want, magnitude) = tree.eval(&vars);
        prop_assume!(want.is_finite() && magnitude < 1e8);
        let Some((g, e, syms)) = build(&tree.text()) else { return Ok(()) };
        let got = g.evaluate(e, &values(&syms, &vars));
        prop_assert!(close(got, want, 1e-9 * (1.0 + magnitude)), "{} = {want}, canonical {} = {got}", tree.text(), g.to_text(e));
    }

    /// The form for reading (common factors out, `tan`) keeps the value, of the
    /// canonical form and of its expansion, and never prints longer than either.
    #[test]
    fn the_form_for_reading_preserves_value(tree in tree_strategy(5), vars in point()) {
        let (want, magnitude) = tree.eval(&vars);
        prop_assume!(want.is_finite() && magnitude < 1e8);
        let Some((mut g, e, syms)) = build(&tree.text()) else { return Ok(()) };
        let expanded = g.expand(e);
        for x in [e, expanded] {
            let t = g.tidy(x);
            let got = g.evaluate(t, &values(&syms, &vars));
            prop_assert!(close(got, want, 1e-9 * (1.0 + magnitude)), "{} = {want}, tidied {} = {got}", tree.text(), g.to_text(t));
        }
    }

    /// Sums built to have a common factor: `c·(t₁ + t₂ + t₃)` expanded, then tidied,
    /// keeps the value and is shorter than the expanded sum when it changed.
    #[test]
    fn common_factors_come_out_keeping_the_value(
        c in tree_strategy(2), t1 in tree_strategy(2), t2 in tree_strategy(2), t3 in tree_strategy(2), vars in point(),
    ) {
        let text = format!("({})*({}) + ({})*({}) - ({})*({})", c.text(), t1.text(), t2.text(), c.text(), c.text(), t3.text());
        let Some((mut g, e, syms)) = build(&text) else { return Ok(()) };
        let want = g.evaluate(e, &values(&syms, &vars));
        prop_assume!(want.is_finite() && want.abs() < 1e8);
        let expanded = g.expand(e);
        let t = g.tidy(expanded);
        let got = g.evaluate(t, &values(&syms, &vars));
        prop_assert!(close(got, want, 1e-9 * (1.0 + want.abs())), "{text}: tidied {} = {got}, want {want}", g.to_text(t));
        prop_assert!(g.to_text(t).len() <= g.to_text(expanded).len(), "{} longer than {}", g.to_text(t), g.to_text(expanded));
    }

    /// Terms sharing a sum as a factor, `X·A + X·B − C`, with `X`, `A`, `B`, `C`
    /// random: the form for reading (which collects and multiplies out such terms)
    /// keeps the value and prints no longer than the canonical form.
    #[test]
    fn collecting_and_distributing_keep_the_value(
        x in tree_strategy(2), a in tree_strategy(2), b in tree_strategy(2), c in tree_strategy(2), vars in point(),
    ) {
        let text = format!("(({}) + k)*({}) + (({}) + k)*({}) - ({})", x.text(), a.text(), x.text(), b.text(), c.text());
        let Some((mut g, e, syms)) = build(&text) else { return Ok(()) };
        let want = g.evaluate(e, &values(&syms, &vars));
        prop_assume!(want.is_finite() && want.abs() < 1e8);
        let t = g.tidy(e);
        let got = g.evaluate(t, &values(&syms, &vars));
        prop_assert!(close(got, want, 1e-9 * (1.0 + want.abs())), "{text}: tidied {} = {got}, want {want}", g.to_text(t));
        prop_assert!(g.to_text(t).len() <= g.to_text(e).len(), "{} longer than {}", g.to_text(t), g.to_text(e));
    }

    /// ∂e/∂v agrees with central differences of the tree's own evaluation.
    #[test]
    fn derivative_matches_finite_differences(tree in tree_strategy(4), vars in point(), var in 0..NAMES.len()) {
        let (value, magnitude) = tree.eval(&vars);
        prop_assume!(value.is_finite() && magnitude < 1e6);
        let f = |x: f64| { let mut v = vars.clone(); v[var] = x; tree.eval(&v).0 };
        let (fd, err) = finite_difference(&f, vars[var]);
        prop_assume!(fd.is_finite() && err <= 1e-6 * (1.0 + fd.abs()));
        let Some((mut g, e, syms)) = build(&tree.text()) else { return Ok(()) };
        let d = g.diff(e, syms[var]);
        let got = g.evaluate(d, &values(&syms, &vars));
        prop_assert!(close(got, fd, 1e-5 * (1.0 + fd.abs()) + 100.0 * err),
            "∂({})/∂{} = {} = {got}, finite differences {fd} ± {err}", tree.text(), NAMES[var], g.to_text(d));
    }

    /// d/dt along q(s) = q + v s + a s²/2 agrees with differences in s.
    #[test]
    fn time_derivative_matches_finite_differences(tree in tree_strategy(4), vars in point(), acc in proptest::collection::vec(-2.0f64..2.0, 3)) {
        let (value, magnitude) = tree.eval(&vars);
        prop_assume!(value.is_finite() && magnitude < 1e6);
        // NAMES: x y phi | x' y' phi' | m a k | t
        let along = |s: f64| {
            let mut v = vars.clone();
            for i in 0..3 {
                v[i] = vars[i] + vars[i + 3] * s + acc[i] * s * s / 2.0;
                v[i + 3] = vars[i + 3] + acc[i] * s;
            }
            v[9] = vars[9] + s;
            tree.eval(&v).0
        };
        let (fd, err) = finite_difference(&along, 0.0);
        prop_assume!(fd.is_finite() && err <= 1e-6 * (1.0 + fd.abs()));
        let Some((mut g, e, syms)) = build(&tree.text()) else { return Ok(()) };
        let d = g.time_derivative(e).unwrap();
        let accel: Vec<SymbolId> = ["x''", "y''", "phi''"].iter().map(|n| sym(&g, n)).collect();
        let got = g.evaluate(d, &|s| accel.iter().position(|&a| a == s).map_or_else(|| values(&syms, &vars)(s), |i| acc[i]));
        prop_assert!(close(got, fd, 1e-5 * (1.0 + fd.abs()) + 100.0 * err), "d/dt {} = {got}, differences {fd}", tree.text());
    }

    /// Text parses back to the very same node, for expressions and their derivatives.
    #[test]
    fn text_round_trips(tree in tree_strategy(5), var in 0..NAMES.len()) {
        let Some((mut g, e, syms)) = build(&tree.text()) else { return Ok(()) };
        let d = g.diff(e, syms[var]);
        for x in [e, d] {
            let text = g.to_text(x);
            let again = g.parse_with(&text, ParseOptions { allow_accelerations: true });
            prop_assert_eq!(again, Ok(x), "{} printed as {}", tree.text(), text);
        }
    }

    /// LaTeX has balanced groups; MathML is well-formed XML using MathML Core elements only.
    #[test]
    fn latex_and_mathml_are_well_formed(tree in tree_strategy(5), var in 0..NAMES.len()) {
        let Some((mut g, e, syms)) = build(&tree.text()) else { return Ok(()) };
        let d = g.diff(e, syms[var]);
        for x in [e, d] {
            let latex = g.to_latex(x);
            let mut depth = 0i64;
            for c in latex.replace("\\{", "").replace("\\}", "").chars() {
                depth += match c { '{' => 1, '}' => -1, _ => 0 };
                prop_assert!(depth >= 0, "{}", latex);
            }
            prop_assert_eq!(depth, 0, "{}", latex);
            prop_assert_eq!(latex.matches("\\left").count(), latex.matches("\\right").count(), "{}", latex);
            let mathml = g.to_mathml(x);
            let doc = roxmltree::Document::parse(&mathml).map_err(|err| TestCaseError::fail(format!("{err}: {mathml}")))?;
            for node in doc.descendants().filter(|n| n.is_element()) {
                let name = node.tag_name().name();
                prop_assert!(["math", "mrow", "mi", "mn", "mo", "mfrac", "msup", "msub", "msqrt", "mover", "mspace"].contains(&name), "<{}> in {}", name, mathml);
            }
        }
    }

    /// The compiled program computes what direct evaluation computes.
    #[test]
    fn compiled_matches_direct_evaluation(tree in tree_strategy(5), vars in point(), var in 0..NAMES.len()) {
        let Some((mut g, e, syms)) = build(&tree.text()) else { return Ok(()) };
        let d = g.diff(e, syms[var]);
        let program = g.compile(&[e, d], &syms).unwrap();
        let mut out = [0.0; 2];
        program.evaluator().eval(&vars, &mut out).unwrap();
        let (_, magnitude) = tree.eval(&vars);
        prop_assume!(magnitude < 1e8);
        for (k, x) in [e, d].into_iter().enumerate() {
            let direct = g.evaluate(x, &values(&syms, &vars));
            prop_assert!(direct.is_nan() == out[k].is_nan(), "{}: compiled {} vs direct {}", g.to_text(x), out[k], direct);
            if direct.is_finite() {
                prop_assert!(close(out[k], direct, 1e-9 * (1.0 + direct.abs() + magnitude)), "{}: compiled {} vs direct {}", g.to_text(x), out[k], direct);
            }
        }
    }
}
