//! Bad input: one test per error class, each checking the message and the place.

use nhlab::expr::{line_col, ExprGraph, ParseError, ParseErrorKind, Span, MAX_EXPRESSION_BYTES, MAX_NESTING};
use nhlab_tests::graph;

fn error(input: &str) -> ParseError {
    let mut g = graph();
    g.parse(input).expect_err(input)
}

/// `input ⇒ (message, byte span)`.
fn check(cases: &[(&str, &str, (usize, usize))]) {
    for &(input, message, (start, end)) in cases {
        let e = error(input);
        assert_eq!(e.to_string(), message, "{input}");
        assert_eq!(e.span, Span::new(start, end), "{input}: {message}");
    }
}

#[test]
fn syntax_errors_say_what_was_expected_and_found() {
    check(&[
        ("x +", "expected an expression, found the end of the expression", (3, 3)),
        ("x + * y", "expected an expression, found `*`", (4, 5)),
        ("(x + y", "this `(` is never closed", (0, 1)),
        ("x + y)", "expected an operator or the end, found an unmatched `)`", (5, 6)),
        ("sin(x, y", "this `(` is never closed", (3, 4)),
        ("x ** 2", "unexpected `*`: write `^` for a power", (2, 4)),
        ("x # y", "unexpected character `#`", (2, 3)),
        ("x × y", "unexpected character `×`", (2, 4)),
        ("1.2.3", "`1.2.3` is not a valid number", (0, 5)),
        ("1e999", "the number `1e999` is out of range for a double", (0, 5)),
    ]);
}

#[test]
fn implicit_products_are_explained() {
    check(&[
        ("2x", "expected an operator before `x`: write `2*x` for a product, not `2x`", (1, 2)),
        ("(x + 1)(x - 1)", "expected an operator before `(`: write `2*x` for a product, not `2x`", (7, 8)),
        ("x(2)", "`x` is not a function: write `x*(…)` for a product", (0, 1)),
    ]);
}

#[test]
fn unknown_names_suggest_the_nearest() {
    check(&[
        ("ph + 1", "unknown name `ph`; did you mean `phi` or `pi`?", (0, 2)),
        ("m*g", "unknown name `g`", (2, 3)),
        ("sine(x)", "unknown function `sine`; did you mean `sin` or `sinh`?", (0, 4)),
        ("foo(x)", "unknown function `foo`", (0, 3)),
        ("sin x", "`sin` needs its argument in parentheses, as in `sin(x)`", (0, 3)),
        ("atan2(x)", "`atan2` takes 2 arguments, found 1", (0, 8)),
        ("cos(x, y)", "`cos` takes 1 argument, found 2", (0, 9)),
    ]);
}

#[test]
fn unknown_name_lists_nearest_candidates_in_order() {
    let e = error("alpah");
    assert_eq!(e.kind, ParseErrorKind::UnknownName { name: "alpah".into(), suggestions: vec![] });
    let mut g = ExprGraph::new();
    g.declare_parameter("alpha").unwrap();
    g.declare_parameter("alpha2").unwrap();
    let e = g.parse("alpah*2").unwrap_err();
    assert_eq!(e.to_string(), "unknown name `alpah`; did you mean `alpha` or `alpha2`?");
}

#[test]
fn accelerations_and_primes_are_checked() {
    check(&[
        (
            "m*x''",
            "accelerations such as `x''` are not allowed in a model: use coordinates and velocities (`x'`)",
            (2, 5),
        ),
        ("x'''", "`x'''`: at most two primes (an acceleration)", (0, 4)),
        ("m'", "`m'`: only coordinates have velocities (a prime)", (0, 2)),
        ("t'", "`t'`: only coordinates have velocities (a prime)", (0, 2)),
        ("x + 'y", "unexpected character `\\'`", (4, 5)),
    ]);
}

#[test]
fn empty_input() {
    check(&[("", "the expression is empty", (0, 0)), ("  \n\t", "the expression is empty", (0, 4))]);
}

#[test]
fn absurd_input_is_refused_without_exhausting_anything() {
    let long = "x + ".repeat(MAX_EXPRESSION_BYTES / 4) + "x";
    assert!(matches!(error(&long).kind, ParseErrorKind::TooLong { .. }));
    let deep_parens = "(".repeat(10_000) + "x" + &")".repeat(10_000);
    assert_eq!(error(&deep_parens).kind, ParseErrorKind::TooDeep { limit: MAX_NESTING });
    let deep_signs = "-".repeat(10_000) + "x";
    assert_eq!(error(&deep_signs).kind, ParseErrorKind::TooDeep { limit: MAX_NESTING });
    let tower = "x^".repeat(10_000) + "x";
    assert_eq!(error(&tower).kind, ParseErrorKind::TooDeep { limit: MAX_NESTING });
    let calls = "sin(".repeat(10_000) + "x" + &")".repeat(10_000);
    assert_eq!(error(&calls).kind, ParseErrorKind::TooDeep { limit: MAX_NESTING });
    // Long but legal input parses in linear time.
    let mut g = graph();
    let sum = "x*y + ".repeat(5_000) + "1";
    let e = g.parse(&sum).unwrap();
    assert_eq!(g.to_text(e), "5000*x*y + 1");
}

#[test]
fn positions_convert_to_lines_and_columns() {
    let src = "m/2*(x'^2\n  + y'^2) + ph";
    let e = error(src);
    assert_eq!(line_col(src, e.span.start), (2, 13));
    assert_eq!(line_col("αβ + q", 4), (1, 3), "columns count characters, not bytes");
    assert_eq!(line_col("αβ + q", 3), (1, 2), "inside a character: its start");
    assert_eq!(line_col("x", 99), (1, 2));
}
