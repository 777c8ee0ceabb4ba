//! Compiled evaluation: same numbers as direct evaluation, shared work done once.

use nhlab::expr::{CompileError, ExprGraph, ExprId, Function, Op, Program, ShapeError, SymbolId};
use nhlab_tests::{graph, parse, point, sym};

fn inputs(g: &ExprGraph, names: &[&str]) -> Vec<SymbolId> {
    names.iter().map(|n| sym(g, n)).collect()
}

/// The inputs of the larger programs below, in order: the coordinates, their
/// velocities, the parameters, then `t`.
const NAMES: [&str; 10] = ["x", "y", "phi", "x'", "y'", "phi'", "m", "a", "k", "t"];

/// `exprs` parsed in a fresh [`graph`] and compiled over [`NAMES`]: the graph, the
/// outputs, the inputs and the program.
fn compile_all(exprs: &[&str]) -> (ExprGraph, Vec<ExprId>, Vec<SymbolId>, Program) {
    let mut g = graph();
    let ids: Vec<ExprId> = exprs.iter().map(|s| parse(&mut g, s)).collect();
    let syms = inputs(&g, &NAMES);
    let program = g.compile(&ids, &syms).unwrap();
    (g, ids, syms, program)
}

/// The inputs' values at the random point `seed`, every one positive (so that each
/// root and logarithm of the programs is defined).
fn positive_values(syms: &[SymbolId], seed: u64) -> Vec<f64> {
    let value = point(seed);
    syms.iter().map(|&s| value(s).abs() + 0.1).collect()
}

#[test]
fn several_outputs_share_one_program() {
    let mut g = graph();
    let outs = [parse(&mut g, "m*a*sin(phi)"), parse(&mut g, "m*a*cos(phi)"), parse(&mut g, "-m*a*sin(phi)")];
    let p = g.compile(&outs, &inputs(&g, &["phi", "m", "a"])).unwrap();
    // sincos(φ), m*a, two products and one negation.
    let ops: Vec<Op> = p.code().iter().map(|i| i.op).collect();
    assert_eq!(ops.iter().filter(|&&o| o == Op::SinCos).count(), 1, "{ops:?}");
    assert_eq!(p.code().len(), 5, "{ops:?}");
    let mut ev = p.evaluator();
    let mut out = [0.0; 3];
    ev.eval(&[0.3, 2.0, 0.5], &mut out).unwrap();
    let (s, c) = 0.3f64.sin_cos();
    assert_eq!(out, [s, c, -s], "m*a = 1 exactly here");
}

#[test]
fn lone_sine_is_not_fused() {
    let mut g = graph();
    let e = parse(&mut g, "sin(phi) + cos(x)");
    let p = g.compile(&[e], &inputs(&g, &["x", "phi"])).unwrap();
    assert!(p.code().iter().all(|i| i.op != Op::SinCos));
}

#[test]
fn negative_terms_and_powers_become_subtraction_and_division() {
    let mut g = graph();
    let e = parse(&mut g, "x - y/(m*a)");
    let p = g.compile(&[e], &inputs(&g, &["x", "y", "m", "a"])).unwrap();
    let ops: Vec<Op> = p.code().iter().map(|i| i.op).collect();
    assert_eq!(ops, [Op::Mul, Op::Div, Op::Sub]);
}

#[test]
fn definitions_are_computed_once() {
    let mut g = graph();
    g.define_all(&[("d", "sin(x)*exp(y)")]).unwrap();
    let outs = [parse(&mut g, "d"), parse(&mut g, "2*d + d^2")];
    let p = g.compile(&outs, &inputs(&g, &["x", "y"])).unwrap();
    let sines = p.code().iter().filter(|i| i.op == Op::Call(Function::Sin)).count();
    assert_eq!(sines, 1);
}

#[test]
fn compiled_equals_direct_evaluation() {
    let exprs = [
        "m/2*(x'^2 + y'^2) + a*x^3 - k/y",
        "atan2(y, x) + sqrt(1 + x^2) - ln(2 + sin(phi))",
        "x^(1/3) + abs(y)^(5/2) + t*pi + tanh(x*y) + acos(x/3) + asin(y/4) + sinh(a) + cosh(k) + tan(x)",
        "exp(-x'^2)*sign(y - x) + y^-3 + x^y",
    ];
    let (g, ids, syms, p) = compile_all(&exprs);
    let mut ev = p.evaluator();
    for seed in 0..50 {
        let values = positive_values(&syms, seed);
        let mut out = vec![0.0; ids.len()];
        ev.eval(&values, &mut out).unwrap();
        let lookup = |s: SymbolId| values[syms.iter().position(|&x| x == s).unwrap()];
        for (k, &e) in ids.iter().enumerate() {
            let direct = g.evaluate(e, &lookup);
            assert!((out[k] - direct).abs() <= 1e-12 * (1.0 + direct.abs()), "{}: {} vs {direct}", exprs[k], out[k]);
        }
    }
}

/// `eval_first(k)` runs only the instructions of the first k outputs, which share
/// subexpressions (and a fused sin/cos) with the later ones: its values are the full
/// evaluation's, bit for bit, and it runs fewer instructions.
#[test]
fn the_first_outputs_alone_equal_the_whole_evaluation() {
    let exprs = [
        "m*cos(phi)*x'",
        "sin(phi)^2 + x*y",
        "m/2*(x'^2 + y'^2) + a*x^3 - k/y + cos(phi)*exp(x)",
        "atan2(y, x) + sqrt(1 + x^2) - ln(2 + sin(phi))",
    ];
    let (_, ids, syms, p) = compile_all(&exprs);
    let mut ev = p.evaluator();
    for seed in 0..20 {
        let values = positive_values(&syms, seed);
        let mut whole = vec![0.0; ids.len()];
        ev.eval(&values, &mut whole).unwrap();
        for k in 0..=ids.len() {
            let mut first = vec![f64::NAN; k];
            p.evaluator().eval_first(&values, &mut first).unwrap();
            assert_eq!(
                first.iter().map(|x| x.to_bits()).collect::<Vec<_>>(),
                whole[..k].iter().map(|x| x.to_bits()).collect::<Vec<_>>()
            );
        }
    }
    assert!(ev.eval_first(&[0.0; 10], &mut [0.0; 5]).is_err(), "more outputs than the program has");
}

/// Hoisting what reads only the slow inputs (here `m, a, k, t`, the last four)
/// changes no value, bit for bit, whether the slow inputs stay or change between
/// calls; outputs that read only them are reported invariant; and a call repeated
/// with the same inputs, or `eval_first` followed by `eval`, gives what a fresh
/// evaluator gives.
#[test]
fn hoisting_and_remembered_inputs_change_no_value() {
    let exprs = [
        "m*a^2 + k",
        "m*cos(phi)*x' + m*a^2",
        "sin(a)^2 + cos(a)*x*y",
        "m/2*(x'^2 + y'^2) + a*x^3 - k/y + cos(phi)*exp(x)",
        "sqrt(m*k) + t",
    ];
    let (_, ids, syms, plain) = compile_all(&exprs);
    let hoisted = plain.clone().hoist(6);
    assert!(hoisted.prologue_len() >= 4, "m*a^2, sin(a), cos(a), sqrt(m*k) at least: {}", hoisted.prologue_len());
    assert_eq!(hoisted.code().len(), plain.code().len());
    let invariant: Vec<bool> = (0..ids.len()).map(|k| hoisted.output_is_invariant(k)).collect();
    assert_eq!(invariant, [true, false, false, false, true]);
    assert!((0..ids.len()).all(|k| !plain.output_is_invariant(k)));
    let mut ev = hoisted.evaluator();
    let bits = |xs: &[f64]| xs.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    for seed in 0..30 {
        let mut values = positive_values(&syms, seed / 3);
        // Every third call changes only the fast inputs.
        values[0] += seed as f64 * 0.01;
        let mut want = vec![0.0; ids.len()];
        plain.evaluator().eval(&values, &mut want).unwrap();
        let mut first = vec![0.0; 2];
        ev.eval_first(&values, &mut first).unwrap();
        assert_eq!(bits(&first), bits(&want[..2]), "seed {seed}: eval_first");
        let mut got = vec![0.0; ids.len()];
        ev.eval(&values, &mut got).unwrap();
        assert_eq!(bits(&got), bits(&want), "seed {seed}: eval after eval_first");
        ev.eval(&values, &mut got).unwrap();
        assert_eq!(bits(&got), bits(&want), "seed {seed}: repeated");
        // Loading, computing and reading outputs one at a time (what Lagrange's fast
        // solve does) gives the same bits.
        let mut parts = hoisted.evaluator();
        parts.load(&values).unwrap();
        parts.compute_first(ids.len());
        for (k, w) in want.iter().enumerate() {
            let mut one = [0.0];
            parts.read_outputs(k, &mut one);
            assert_eq!(one[0].to_bits(), w.to_bits(), "seed {seed}: output {k} read alone");
        }
    }
    // Ten changes of the slow inputs over thirty calls.
    assert_eq!(ev.slow_changes(), 10);
}

#[test]
fn unbound_symbols_and_bad_shapes_are_errors() {
    let mut g = graph();
    let e = parse(&mut g, "x + m");
    let err = g.compile(&[e], &inputs(&g, &["x"])).unwrap_err();
    assert_eq!(err, CompileError::UnboundSymbol("m".into()));
    assert_eq!(err.to_string(), "`m` is used but is not an input of the compiled function");
    let p = g.compile(&[e], &inputs(&g, &["x", "m"])).unwrap();
    let mut ev = p.evaluator();
    let err = ev.eval(&[1.0], &mut [0.0]).unwrap_err();
    assert_eq!(err, ShapeError { expected_inputs: 2, expected_outputs: 1, inputs: 1, outputs: 1 });
    let err = ev.load(&[1.0, 2.0, 3.0]).unwrap_err();
    assert_eq!(err, ShapeError { expected_inputs: 2, expected_outputs: 1, inputs: 3, outputs: 1 });
}

#[test]
fn non_finite_values_pass_through_for_the_caller_to_see() {
    let mut g = graph();
    let e = parse(&mut g, "1/x + sqrt(y)");
    let p = g.compile(&[e], &inputs(&g, &["x", "y"])).unwrap();
    let mut out = [0.0];
    p.evaluator().eval(&[0.0, 1.0], &mut out).unwrap();
    assert_eq!(out[0], f64::INFINITY);
    p.evaluator().eval(&[1.0, -1.0], &mut out).unwrap();
    assert!(out[0].is_nan());
}
