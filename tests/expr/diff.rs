//! Differentiation: exact rules, the time derivative, honest behaviour at kinks.

use nhlab::expr::DiffError;
use nhlab_tests::{assert_rewrites, graph, parse, sym};

/// `∂input/∂var ⇒ expected`, compared as canonical expressions.
fn check(cases: &[(&str, &str, &str)]) {
    let mut g = graph();
    for &(input, var, expected) in cases {
        let e = parse(&mut g, input);
        let d = g.diff(e, sym(&g, var));
        let want = parse(&mut g, expected);
        assert_eq!(d, want, "∂({input})/∂{var} ⇒ {expected}, got {}", g.to_text(d));
    }
}

#[test]
fn elementary_rules() {
    check(&[
        ("x^3", "x", "3*x^2"),
        ("m*x'^2/2", "x'", "m*x'"),
        ("m*x'^2/2", "x", "0"),
        ("1/x", "x", "-1/x^2"),
        ("sin(x)", "x", "cos(x)"),
        ("cos(2*x)", "x", "-2*sin(2*x)"),
        ("tan(x)", "x", "1 + tan(x)^2"),
        ("asin(x)", "x", "1/sqrt(1 - x^2)"),
        ("acos(x)", "x", "-1/sqrt(1 - x^2)"),
        ("atan(x)", "x", "1/(1 + x^2)"),
        ("sinh(x)", "x", "cosh(x)"),
        ("cosh(x)", "x", "sinh(x)"),
        ("tanh(x)", "x", "1 - tanh(x)^2"),
        ("exp(k*x)", "x", "k*exp(k*x)"),
        ("ln(x)", "x", "1/x"),
        ("sqrt(x)", "x", "1/(2*sqrt(x))"),
        ("abs(x)", "x", "sign(x)"),
        ("sign(x)", "x", "0"),
        ("atan2(y, x)", "x", "-y/(x^2 + y^2)"),
        ("atan2(y, x)", "y", "x/(x^2 + y^2)"),
        ("x^y", "y", "x^y*ln(x)"),
        ("x^y", "x", "y*x^(y - 1)"),
        ("x^x", "x", "x^x*(ln(x) + 1)"),
        ("2^x", "x", "2^x*ln(2)"),
        ("pi*x + t", "x", "pi"),
    ]);
}

#[test]
fn product_and_chain_rules() {
    check(&[
        ("x*y*sin(phi)", "phi", "x*y*cos(phi)"),
        ("sin(x*y)", "x", "y*cos(x*y)"),
        ("exp(sin(x))", "x", "cos(x)*exp(sin(x))"),
        ("(x' - a*phi'*sin(phi))^2", "phi'", "-2*a*sin(phi)*(x' - a*phi'*sin(phi))"),
    ]);
}

#[test]
fn time_derivative_follows_the_motion() {
    let mut g = graph();
    let cases = [
        ("x", "x'"),
        ("x'", "x''"),
        ("t^2 + m", "2*t"),
        ("sin(phi)*x'", "phi'*x'*cos(phi) + x''*sin(phi)"),
        ("-x'*sin(phi) + y'*cos(phi)", "-x''*sin(phi) - phi'*x'*cos(phi) + y''*cos(phi) - phi'*y'*sin(phi)"),
    ];
    assert_rewrites(&mut g, &cases, |g, e| g.time_derivative(e).unwrap());
}

#[test]
fn time_derivative_of_an_acceleration_is_refused() {
    let mut g = graph();
    let e = parse(&mut g, "x''*y");
    assert_eq!(g.time_derivative(e), Err(DiffError::NoRate { name: "x''".into() }));
}

#[test]
fn kinks_and_singular_points_are_honest() {
    let mut g = graph();
    let at = |x: f64| move |s: nhlab::expr::SymbolId| if s.index() == 2 { x } else { 0.5 };
    let abs = parse(&mut g, "abs(x)");
    let d_abs = g.diff(abs, sym(&g, "x"));
    assert_eq!(g.evaluate(d_abs, &at(0.0)), 0.0, "d|x| at 0 is the central difference, 0");
    assert_eq!(g.evaluate(d_abs, &at(-2.0)), -1.0);
    let root = parse(&mut g, "sqrt(x)");
    let d_root = g.diff(root, sym(&g, "x"));
    assert!(!g.evaluate(d_root, &at(0.0)).is_finite(), "d sqrt(x) at 0 is not finite and says so");
    let angle = parse(&mut g, "atan2(y, x)");
    let d_angle = g.diff(angle, sym(&g, "x"));
    assert!(g.evaluate(d_angle, &|_| 0.0).is_nan(), "atan2 has no derivative at the origin");
}

#[test]
fn derivatives_of_definitions_go_through_their_bodies() {
    let mut g = graph();
    g.define_all(&[("speed", "x'*cos(phi) + y'*sin(phi)"), ("energy", "m/2*speed^2")]).unwrap();
    let e = parse(&mut g, "energy");
    let d = g.diff(e, sym(&g, "x'"));
    let want = parse(&mut g, "m*speed*cos(phi)");
    assert_eq!(d, want, "got {}", g.to_text(d));
}
