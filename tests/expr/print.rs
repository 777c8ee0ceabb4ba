//! Printing: text, LaTeX and MathML.

use nhlab::expr::ExprGraph;
use nhlab_tests::{assert_prints, graph, parse};

#[test]
fn text_reads_like_input() {
    let mut g = graph();
    let cases = [
        ("m/2*(x'^2 + y'^2)", "m*(x'^2 + y'^2)/2"),
        ("-x*sin(phi) + y", "y - x*sin(phi)"),
        ("x^(3/2) + x^(-1/2)", "x^(3/2) + 1/sqrt(x)"),
        ("(-2)^x", "(-2)^x"),
        ("-x^2", "-x^2"),
        ("1/(x*y)", "1/(x*y)"),
        ("1/(2*x + 4)", "1/(2*x + 4)"),
        ("1/2/(x + 2)", "1/2/(x + 2)"),
        ("atan2(y, x) - 1/2", "atan2(y, x) - 1/2"),
        ("x^y^2", "x^y^2"),
        ("(x^y)^k", "(x^y)^k"),
        ("x''*m", "m*x''"),
        ("2*pi*t", "2*pi*t"),
        ("1e300*x", "1.0000000000000001e300*x"),
    ];
    assert_prints(&mut g, &cases, |g, e| g.to_text(e));
}

#[test]
fn latex_uses_mechanics_notation() {
    let mut g = ExprGraph::new();
    for q in ["x", "phi", "theta_2", "q1"] {
        g.declare_coordinate(q).unwrap();
    }
    for p in ["m", "I", "alpha", "mass"] {
        g.declare_parameter(p).unwrap();
    }
    let cases = [
        ("m/2*x'^2", "\\frac{m \\, {\\dot{x}}^{2}}{2}"),
        ("I*phi''", "I \\, \\ddot{\\varphi}"),
        ("sin(phi)^2", "\\sin^{2}\\left(\\varphi\\right)"),
        ("sqrt(x^2 + 1)", "\\sqrt{{x}^{2} + 1}"),
        ("theta_2' + q1", "\\dot{\\theta}_{2} + q_{1}"),
        ("mass*alpha", "\\alpha \\, \\mathit{mass}"),
        ("abs(x) - atan(x)", "\\left|x\\right| - \\arctan\\left(x\\right)"),
        ("x/(2*m) - 1/2", "\\frac{x}{2 \\, m} - \\frac{1}{2}"),
        ("2.5e-7*x", "\\frac{x}{4000000}"),
    ];
    assert_prints(&mut g, &cases, |g, e| g.to_latex(e));
}

#[test]
fn mathml_has_dots_greek_and_fractions() {
    let mut g = graph();
    let e = parse(&mut g, "m*phi'^2/2");
    let m = g.to_mathml(e);
    assert!(m.starts_with("<math xmlns=\"http://www.w3.org/1998/Math/MathML\">"), "{m}");
    assert!(m.contains("<mover accent=\"true\"><mi>φ</mi><mo>\u{2d9}</mo></mover>"), "{m}");
    assert!(m.contains("<mfrac>"), "{m}");
    let doc = roxmltree::Document::parse(&m).expect("well-formed XML");
    assert_eq!(doc.root_element().tag_name().name(), "math");
}

#[test]
fn equations_print_as_block_mathml() {
    let mut g = graph();
    let lhs = parse(&mut g, "m*x''");
    let rhs = parse(&mut g, "-k*x");
    let m = g.equation_to_mathml(lhs, rhs);
    assert!(m.contains("display=\"block\"") && m.contains("<mo>=</mo>"));
    roxmltree::Document::parse(&m).expect("well-formed XML");
}

#[test]
fn every_name_is_escaped() {
    // Names are identifiers by construction; escaping is the second line of defence
    // and the functions that do it are exercised here through the public path.
    let mut g = ExprGraph::new();
    g.declare_coordinate("lt_amp").unwrap();
    let e = g.parse("lt_amp").unwrap();
    let m = g.to_mathml(e);
    roxmltree::Document::parse(&m).expect("well-formed XML");
    assert!(!m.contains("<script"));
}

#[test]
fn rates_named_with_dot_and_several_letter_names_typeset() {
    let mut g = ExprGraph::new();
    g.declare_coordinate("x").unwrap();
    for p in ["Ia", "m", "mudot1", "xdot"] {
        g.declare_parameter(p).unwrap();
    }
    // A trailing `dot` is a dot over the stem, in LaTeX and MathML.
    let e = parse(&mut g, "mudot1 + xdot");
    assert_eq!(g.to_latex(e), "\\dot{\\mu}_{1} + \\dot{x}");
    let m = g.to_mathml(e);
    assert!(m.contains("<mover accent=\"true\"><mi>μ</mi><mo>\u{2d9}</mo></mover>"), "{m}");
    // A several-letter name is set off by a thin space; single letters are not.
    let e = parse(&mut g, "Ia*sin(x)");
    let wide = g.to_mathml(e);
    assert!(wide.contains("<mspace width=\"0.1667em\"></mspace>"), "{wide}");
    let e = parse(&mut g, "m*x");
    let narrow = g.to_mathml(e);
    assert!(!narrow.contains("mspace"), "{narrow}");
    roxmltree::Document::parse(&wide).expect("well-formed XML");
    // Names as labels use the same rules; text is escaped inside \text{}.
    assert_eq!(nhlab::expr::name_to_latex("theta_2"), "\\theta_{2}");
    assert_eq!(nhlab::expr::text_to_latex("no_slip"), "\\text{no\\_slip}");
}
