//! Compiled code gives the interpreter's numbers: the command line's machine code
//! (`nhlab-native`, Cranelift) and the page's WebAssembly kernel (`nhlab_www::kernel`,
//! run here by wasmi, see `wasm_kernel.rs`). Both are held to the interpreter's bits
//! on programs (random expressions and every operation); Lagrange's right-hand side
//! with its written-out solve agrees with the interpreter's on every gallery
//! scenario (and the two back ends with each other bit for bit, which makes the
//! page's runs `nhlab run --native`'s), follows parameter changes, falls back where
//! the range-space method declines, and runs a simulation to the same state; a
//! stability map's model and constraints give the interpreter's terms.

use nhlab::expr::{Evaluator, Function, NativeEvaluator, Op, Program, SymbolId};
use nhlab::formulations::{lagrange_into, Method};
use nhlab::mechanics::{Model, NumericModel};
use nhlab::scenario::load_toml;
use nhlab::simulation::MAX_COMPILED_DIAGNOSTICS;
use nhlab::simulation::{initial_state, Settings, Simulation};
use nhlab_tests::assert_close;
use nhlab_tests::random::{Rng, Tree, NAMES};
use nhlab_tests::scenarios::{compiled, names, text, MASSLESS_COORDINATE};
use nhlab_tests::{graph, parse, parse_valued, sym};

use super::wasm_kernel;

/// The inputs `[t, x, y, phi, x', y', phi', m, a, k]`: parameters last, as a model's.
fn model_inputs(g: &nhlab::expr::ExprGraph) -> Vec<SymbolId> {
    ["t", "x", "y", "phi", "x'", "y'", "phi'", "m", "a", "k"].iter().map(|n| sym(g, n)).collect()
}

/// A back end: its name and its compiler.
type Backend = (&'static str, fn(&Program, &[usize], &[usize]) -> Result<NativeEvaluator, String>);

fn machine_code(program: &Program, inputs: &[usize], outputs: &[usize]) -> Result<NativeEvaluator, String> {
    nhlab_native::compile(program, inputs, outputs).map_err(|e| e.to_string())
}

const BACKENDS: [Backend; 2] = [("machine code", machine_code), ("wasm kernel", wasm_kernel::compile)];

/// Runs `program` interpreted and by each back end at `points`, asserting the same bits.
fn assert_same_bits(program: &Program, points: &[Vec<f64>], what: &str) {
    for backend in BACKENDS {
        assert_same_bits_by(backend, program, points, &format!("{what} ({})", backend.0));
    }
}

fn assert_same_bits_by((_, compile): Backend, program: &Program, points: &[Vec<f64>], what: &str) {
    let mut interpreted: Evaluator = program.evaluator();
    let count = program.output_count();
    // Outputs in two parts, inputs as a model passes them: t; q and v; parameters.
    let split = count / 2;
    let mut native: NativeEvaluator = compile(program, &[1, 6, 3], &[split, count - split]).expect("compiles");
    for (k, inputs) in points.iter().enumerate() {
        let (mut want, mut got) = (vec![0.0; count], vec![1.0; count]);
        interpreted.eval(inputs, &mut want).expect("shape");
        let (first, second) = got.split_at_mut(split);
        assert!(native.eval(&[&inputs[..1], &inputs[1..7], &inputs[7..]], &mut [first, second]), "{what}: ran");
        for (i, (w, g)) in want.iter().zip(&got).enumerate() {
            let same = w.to_bits() == g.to_bits() || (w.is_nan() && g.is_nan());
            assert!(same, "{what}: output {i} at point {k}: interpreted {w:e}, native {g:e}");
        }
    }
    // Wrong shapes are refused, not run.
    let p = &points[0];
    let (mut first, mut second) = (vec![0.0; split], vec![0.0; count - split]);
    assert!(!native.eval(&[&p[..1], &p[1..6], &p[6..]], &mut [&mut first, &mut second]));
    assert!(!native.eval(&[&p[..1], &p[1..7]], &mut [&mut first, &mut second]));
    assert!(!native.eval(&[&p[..1], &p[1..7], &p[7..]], &mut [&mut first]));
    second.push(0.0);
    assert!(!native.eval(&[&p[..1], &p[1..7], &p[7..]], &mut [&mut first, &mut second]));
    // Parts that do not cover the program are refused when compiling.
    assert!(compile(program, &[1, 6, 2], &[count]).is_err());
    assert!(compile(program, &[1, 6, 3], &[count + 1]).is_err());
}

/// Points whose parameters (the last three inputs) change every other point, so
/// that the prologue runs again and its values are read back.
fn points(seed: u64, count: usize) -> Vec<Vec<f64>> {
    let mut r = Rng::new(seed);
    let mut parameters = [0.0; 3];
    (0..count)
        .map(|k| {
            if k % 2 == 0 {
                parameters = [r.range(0.5, 2.0), r.range(-1.5, 1.5), r.range(-1.5, 1.5)];
            }
            let mut p: Vec<f64> = (0..7).map(|_| r.range(-1.5, 1.5)).collect();
            p.extend(parameters);
            p
        })
        .collect()
}

#[test]
fn random_expressions_give_the_interpreters_bits() {
    let mut r = Rng::new(0x6e61_7469_7665);
    for case in 0..40 {
        let mut g = graph();
        let trees: Vec<Tree> = (0..4).map(|_| Tree::random(&mut r, 5)).collect();
        let outputs: Vec<_> = trees.iter().filter_map(|t| parse_valued(&mut g, &t.text())).collect();
        let inputs = model_inputs(&g);
        let program = g.compile(&outputs, &inputs).expect("compiles").hoist(7);
        assert_same_bits(&program, &points(case, 6), &format!("case {case}: {:?}", trees[0].text()));
    }
    assert_eq!(NAMES.len(), 10, "the trees' names are the inputs above");
}

/// A program with a tail (a model's diagnostics after its right-hand side): the
/// body gives the first outputs, and the tail, run afterwards for the same inputs
/// from the values the body stored, gives the rest, each the interpreter's bits.
/// The tail's expressions reuse the body's (as Hamel's terms reuse `M`'s sines),
/// so that it reads stored values, and read inputs of each kind as they are
/// (`t`, `y'` and the parameter `k`, which machine code's tail reads from the
/// register file where the body and the prologue stored them). For other inputs
/// than the body's last it refuses, and runs again once the body has run there.
#[test]
fn a_tail_gives_the_interpreters_bits_after_its_body() {
    let mut r = Rng::new(0x7461_696c);
    for case in 0..30 {
        let mut g = graph();
        let trees: Vec<String> = (0..4).map(|_| Tree::random(&mut r, 5).text()).collect();
        let texts = [
            trees[0].clone(),
            trees[1].clone(),
            format!("({}) * ({})", trees[0], trees[2]),
            format!("sin({}) + {} + t * y' - k", trees[1], trees[3]),
        ];
        let outputs: Vec<_> = texts.iter().map(|t| parse(&mut g, t)).collect();
        let inputs = model_inputs(&g);
        let program =
            g.compile_with_block_and_tail(&outputs[..2], &inputs, |_, _| Vec::new(), &outputs[2..]).expect("compiles");
        let program = program.hoist(7);
        let mut interpreted = program.evaluator();
        let mut native = nhlab_native::compile_with_tail(&program, &[1, 6, 3], &[2], &[2]).expect("compiles");
        assert!(native.has_tail());
        let points = points(case, 6);
        let parts = |p: &[f64]| [p[..1].to_vec(), p[1..7].to_vec(), p[7..].to_vec()];
        for (k, p) in points.iter().enumerate() {
            let mut want = [0.0; 4];
            interpreted.eval(p, &mut want).expect("shape");
            let [t, qv, parameters] = parts(p);
            let inputs: [&[f64]; 3] = [&t, &qv, &parameters];
            let (mut body, mut tail) = ([1.0; 2], [1.0; 2]);
            if k > 0 {
                // The body last ran at the point before: the tail refuses.
                assert!(!native.eval_tail(&inputs, &mut [&mut tail]), "case {case}, point {k}: stale");
                assert!(!native.tail_holds(&inputs));
            }
            assert!(native.eval(&inputs, &mut [&mut body]), "case {case}: ran");
            assert!(native.holds(&inputs) && !native.tail_holds(&inputs));
            assert!(native.eval_tail(&inputs, &mut [&mut tail]), "case {case}: the tail ran");
            assert!(native.tail_holds(&inputs));
            for (i, (w, got)) in want.iter().zip(body.iter().chain(&tail)).enumerate() {
                let same = w.to_bits() == got.to_bits() || (w.is_nan() && got.is_nan());
                assert!(same, "case {case}: output {i} at point {k}: interpreted {w:e}, native {got:e} ({texts:?})");
            }
            // Wrong shapes are refused by the tail too.
            assert!(!native.eval_tail(&inputs, &mut [&mut body[..1]]));
            // Asked again at the same inputs, the tail runs again, into new outputs
            // (a sample's columns go straight into its row), with the same bits.
            let mut again = [7.0; 2];
            assert!(native.eval_tail(&inputs, &mut [&mut again]), "case {case}: ran again");
            assert!(again.iter().zip(&tail).all(|(a, b)| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan())));
            let elsewhere = [t.clone(), qv.iter().map(|x| x + 1.0).collect(), parameters.clone()];
            let elsewhere: [&[f64]; 3] = [&elsewhere[0], &elsewhere[1], &elsewhere[2]];
            assert!(!native.eval_tail(&elsewhere, &mut [&mut again]), "case {case}: other inputs than the body's");
        }
    }
}

#[test]
fn every_operation_gives_the_interpreters_bits() {
    let mut g = graph();
    let texts = [
        "sin(x) + cos(y)",
        "sin(phi)*cos(phi)",
        "tan(x)",
        "asin(x/3) + acos(y/3)",
        "atan(x) + atan2(y, x')",
        "sinh(x) + cosh(y) + tanh(phi)",
        "exp(x) + ln(2 + y)",
        "abs(x) + sign(y) + sign(0*x)",
        "sqrt(2 + x^2)",
        "x^5 + y^-3 + phi^2 + x'^7",
        "(2 + x^2)^a",
        "-x/(y - 3) + 1/(2 + phi^2)",
        "m*a + k^2",
        "-x",
    ];
    let outputs: Vec<_> = texts.iter().map(|t| parse(&mut g, t)).collect();
    let program = g.compile(&outputs, &model_inputs(&g)).expect("compiles").hoist(7);
    // The test covers what it says: every operation occurs.
    let ops: Vec<Op> = program.code().iter().map(|i| i.op).collect();
    let fixed = [Op::Add, Op::Sub, Op::Mul, Op::Div, Op::Neg, Op::Recip, Op::Sqrt, Op::Powf, Op::Atan2, Op::SinCos];
    for want in fixed.into_iter().chain(Function::ALL.map(Op::Call)) {
        assert!(ops.contains(&want), "{want:?} is not in the program: {ops:?}");
    }
    // (x^-3 compiles as 1/x^3.)
    for n in [5, 3, 7] {
        assert!(ops.contains(&Op::Powi(n)), "x^{n} is not a Powi: {ops:?}");
    }
    assert!(program.prologue_len() > 0, "m*a + k^2 is hoisted");
    let mut special = points(7, 8);
    // Values at the edges: zeros, NaN and infinities pass through as in the interpreter.
    special[1][1] = 0.0;
    special[2][1] = -0.0;
    special[3][2] = f64::NAN;
    special[4][1] = f64::INFINITY;
    special[5][3] = -1e300;
    // sign(y) at ±0 (y is input 2).
    special[6][2] = 0.0;
    special[7][2] = -0.0;
    assert_same_bits(&program, &special, "every operation");
}

#[test]
fn native_lagrange_agrees_with_the_interpreter_on_every_gallery_scenario() {
    let mut written_out = 0;
    for name in names() {
        let (model, mut numeric) = compiled(&text(&name));
        let mut native = numeric.clone();
        if !nhlab_native::use_for_lagrange(&model, &mut native, true).expect("compiles") {
            continue;
        }
        let mut kernel = numeric.clone();
        assert!(wasm_kernel::use_for_lagrange(&model, &mut kernel).expect("a module"), "{name}: as natively");
        written_out += 1;
        // Random states are off redundant constraints, where no accelerations meet
        // them all (the robot, tested on its constraints in `redundant.rs`).
        if nhlab_tests::scenarios::redundant(&model) {
            continue;
        }
        assert!(native.has_native_lagrange() && !numeric.has_native_lagrange());
        let n = model.coordinate_count();
        for k in 0..6 {
            let s = 0.37 * k as f64;
            let q: Vec<f64> = (0..n).map(|i| 0.3 + 0.2 * i as f64 + 0.4 * s.sin()).collect();
            let v: Vec<f64> = (0..n).map(|i| 0.5 - 0.15 * i as f64 + 0.3 * s.cos()).collect();
            let (mut want, mut got) = (vec![0.0; n], vec![0.0; n]);
            let lambda_want = lagrange_into(&mut numeric, s, &q, &v, &mut want).expect("solves").to_vec();
            let lambda_got = lagrange_into(&mut native, s, &q, &v, &mut got).expect("solves").to_vec();
            assert_close(&got, &want, 1e-12, &format!("{name}: q̈ at state {k}"));
            assert_close(&lambda_got, &lambda_want, 1e-12, &format!("{name}: λ at state {k}"));
            // The page's kernel: machine code's bits exactly.
            let mut page = vec![0.0; n];
            let lambda_page = lagrange_into(&mut kernel, s, &q, &v, &mut page).expect("solves").to_vec();
            let bits = |x: &[f64]| x.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            assert_eq!(bits(&page), bits(&got), "{name}: q̈ at state {k}, wasm kernel against machine code");
            assert_eq!(
                bits(&lambda_page),
                bits(&lambda_got),
                "{name}: λ at state {k}, wasm kernel against machine code"
            );
        }
    }
    // Every gallery model is small enough for the written-out solve today.
    assert_eq!(written_out, names().len(), "scenarios with a native right-hand side");
}

/// The contact forces' program as machine code and as the page's wasm kernel
/// gives the interpreter's forces bit for bit along a run of every gallery item
/// with contacts, under Lagrange's equations and Gauss's (whose accelerations reach
/// the program by another route).
#[test]
fn contact_forces_in_machine_code_and_the_page_kernel_equal_the_interpreters_bit_for_bit() {
    let mut with_contacts = 0;
    for name in names() {
        let (model, numeric) = compiled(&text(&name));
        if numeric.contacts.is_none() || nhlab_tests::scenarios::redundant(&model) {
            continue;
        }
        with_contacts += 1;
        let (mut native, mut kernel) = (numeric.clone(), numeric.clone());
        assert!(nhlab_native::use_for_contacts(&mut native).expect("compiles"), "{name}");
        assert!(wasm_kernel::use_for_contacts(&mut kernel).expect("a module"), "{name}");
        assert!(native.contacts.as_ref().is_some_and(|c| c.has_native()), "{name}");
        let (scenario, map) = load_toml(&text(&name)).expect("loads");
        let mut fresh = NumericModel::new(&model).expect("compiles");
        let initial = initial_state(&model, &mut fresh, &map).expect("an initial state");
        for method in [Method::Lagrange, Method::Gauss] {
            let settings = Settings::from_scenario(&scenario.run, method);
            let columns = |compiled: &NumericModel| {
                let mut sim = Simulation::new(compiled.clone(), settings, &initial).expect("starts");
                sim.advance_to(initial.t + 0.3).expect("runs");
                let rows: Vec<u64> =
                    sim.samples().iter().flat_map(|s| s.contact_forces.iter().map(|x| x.to_bits())).collect();
                rows
            };
            let want = columns(&numeric);
            assert!(!want.is_empty(), "{name} ({method:?}): the forces are recorded");
            assert!(
                want.iter().any(|&x| f64::from_bits(x).is_finite()),
                "{name} ({method:?}): some force is determined"
            );
            assert!(columns(&native) == want, "{name} ({method:?}): machine code against the interpreter");
            assert!(columns(&kernel) == want, "{name} ({method:?}): the page's kernel against the interpreter");
        }
    }
    assert!(with_contacts >= 8, "gallery items with contacts: {with_contacts}");
}

/// A stability map's model and constraints in machine code (`use_for_terms`) give
/// the interpreter's terms bit for bit on every gallery scenario (or the same
/// error), after a parameter changes, and again at a state evaluated before.
#[test]
fn the_model_and_its_constraints_in_machine_code_are_the_interpreters_bits() {
    fn bits(t: &nhlab::mechanics::Terms) -> Vec<u64> {
        let parts = [&t.mass.as_slice(), &t.forcing.as_slice(), &t.jacobian.as_slice(), &t.bias.as_slice()];
        let rest = [&t.residuals.as_slice(), &t.position_residuals.as_slice(), &&[t.energy][..]];
        parts.iter().chain(&rest).flat_map(|x| x.iter().map(|x| x.to_bits())).collect()
    }
    let mut compared = 0;
    for name in names() {
        let (model, mut interpreted) = compiled(&text(&name));
        let mut native = interpreted.clone();
        nhlab_native::use_for_terms(&mut native).expect("compiles");
        let n = model.coordinate_count();
        for k in [0, 1, 2, 3, 1] {
            if k == 2 && !interpreted.parameters.is_empty() {
                interpreted.parameters[0] *= 1.25;
                native.parameters[0] *= 1.25;
            }
            let s = 0.3 * k as f64;
            let q: Vec<f64> = (0..n).map(|i| 0.2 + 0.1 * i as f64 + 0.05 * s.sin()).collect();
            let v: Vec<f64> = (0..n).map(|i| 0.3 - 0.07 * i as f64 + 0.1 * s.cos()).collect();
            let whole = |m: &mut NumericModel| m.evaluate(s, &q, &v).map(bits).map_err(|e| format!("{e:?}"));
            assert_eq!(whole(&mut native), whole(&mut interpreted), "{name}: the model at state {k}");
            let alone = |m: &mut NumericModel| m.constraint_terms(s, &q, &v).map(bits).map_err(|e| format!("{e:?}"));
            assert_eq!(alone(&mut native), alone(&mut interpreted), "{name}: the constraints at state {k}");
            compared += usize::from(whole(&mut interpreted).is_ok());
        }
    }
    assert!(compared > 60, "only {compared} states compared");
}

/// The structure-preserving integrators' terms as machine code and as the page's
/// wasm kernel step every gallery item in their class to the interpreter's bits.
#[test]
fn structure_preserving_terms_in_machine_code_and_the_page_kernel_step_the_interpreters_bits() {
    let mut in_class = 0;
    for name in names() {
        let (mut scenario, map) = load_toml(&text(&name)).expect("loads");
        (scenario.run.integrator, scenario.run.integrators) = (Some("rattle".into()), None);
        scenario.run.dt = Some(0.002);
        let model = Model::build(&scenario, &map).expect("valid");
        let mut numeric = NumericModel::new(&model).expect("compiles");
        // Redundant constraints (the robot's) leave the step's Newton matrix singular.
        if !matches!(numeric.discrete, Some(Ok(_))) || nhlab_tests::scenarios::redundant(&model) {
            continue;
        }
        in_class += 1;
        let initial = initial_state(&model, &mut numeric, &map).expect("an initial state");
        let (mut native, mut kernel) = (numeric.clone(), numeric.clone());
        assert!(nhlab_native::use_for_structure_preserving(&mut native).expect("compiles"), "{name}");
        assert!(wasm_kernel::use_for_structure_preserving(&mut kernel).expect("a module"), "{name}");
        let settings = Settings::from_scenario(&scenario.run, Method::Lagrange);
        let end = |compiled: &NumericModel| {
            let mut sim = Simulation::new(compiled.clone(), settings, &initial).expect("starts");
            sim.advance_to(initial.t + 0.02).expect("runs");
            let s = sim.state();
            s.q.iter().chain(&s.v).map(|x| x.to_bits()).collect::<Vec<u64>>()
        };
        let want = end(&numeric);
        assert!(end(&native) == want, "{name}: machine code against the interpreter");
        assert!(end(&kernel) == want, "{name}: the page's kernel against the interpreter");
    }
    assert!(in_class >= 15, "gallery items in the class: {in_class}");
}

/// The turntable's `M` and `A` are fixed, so their factors are in the prologue:
/// a change of a parameter must reach the next call.
#[test]
fn parameter_changes_reach_the_machine_code() {
    let (model, mut numeric) = compiled(&text("ball-on-turntable"));
    assert!(nhlab_native::use_for_lagrange(&model, &mut numeric, true).expect("compiles"));
    let omega = model.parameters.iter().position(|p| p.name == "Omega").expect("Omega");
    let mass = model.parameters.iter().position(|p| p.name == "m").expect("m");
    let (q, v) = ([0.1, 0.2, 0.0, 0.0, 0.0], [0.3, -0.4, 0.1, 0.2, 0.5]);
    let mut qdd = [0.0; 5];
    for (w, m) in [(1.0, 1.0), (2.5, 1.0), (2.5, 3.0)] {
        numeric.parameters[omega] = w;
        numeric.parameters[mass] = m;
        lagrange_into(&mut numeric, 0.0, &q, &v, &mut qdd).expect("solves");
        // The closed form (benchmark's `turntable_by_hand`): ẍ = −(2/7) Ω ẏ, ÿ = (2/7) Ω ẋ.
        assert!((qdd[0] + 2.0 / 7.0 * w * v[1]).abs() < 1e-12, "Ω = {w}: {qdd:?}");
        assert!((qdd[1] - 2.0 / 7.0 * w * v[0]).abs() < 1e-12, "Ω = {w}: {qdd:?}");
    }
}

/// A massless coordinate makes a pivot of `M` zero: the native solve declines and
/// the general route answers, as for the interpreter.
#[test]
fn a_singular_mass_matrix_still_falls_back() {
    let (model, mut numeric) = compiled(MASSLESS_COORDINATE);
    assert!(nhlab_native::use_for_lagrange(&model, &mut numeric, true).expect("compiles"));
    let mut qdd = [0.0; 2];
    let lambda = lagrange_into(&mut numeric, 0.0, &[0.7, 0.2], &[0.3, 0.4], &mut qdd).expect("solves").to_vec();
    // By hand: λ = c, m ẍ = −k x − λ.
    assert!((lambda[0] - 0.5).abs() < 1e-12, "{lambda:?}");
    assert!((qdd[0] - (-3.0 * 0.7 - 0.5) / 2.0).abs() < 1e-12, "{qdd:?}");
}

/// A result that is not finite (the force `k/x²` at `x = 0`) makes the native
/// solve decline through its flag: the general route names the culprit, as it
/// does for the interpreter, instead of infinite accelerations passing as a result.
#[test]
fn a_result_that_is_not_finite_falls_back_and_is_named() {
    let text = MASSLESS_COORDINATE.replace("m/2*x'^2", "m/2*(x'^2 + y'^2)").replace("k/2*x^2", "k/x");
    let (model, mut interpreted) = compiled(&text);
    let mut native = interpreted.clone();
    assert!(nhlab_native::use_for_lagrange(&model, &mut native, true).expect("compiles"));
    let mut qdd = [0.0; 2];
    let mut error = |numeric: &mut NumericModel| {
        lagrange_into(numeric, 0.0, &[0.0, 0.2], &[0.3, 0.4], &mut qdd).expect_err("not finite").to_string()
    };
    let (want, got) = (error(&mut interpreted), error(&mut native));
    assert_eq!(got, want);
    assert!(got.contains("F[x]"), "{got}");
    // Elsewhere the machine code answers: m ẍ = k/x² − λ, m ÿ = λ − c and
    // ÿ = ẍ + 1 (the constraint's rate), so ẍ = (k/x² − c − m)/(2m).
    lagrange_into(&mut native, 0.0, &[0.5, 0.2], &[0.3, 0.4], &mut qdd).expect("solves");
    let want = (3.0 / 0.25 - 0.5 - 2.0) / 4.0;
    assert!((qdd[0] - want).abs() < 1e-12 && (qdd[1] - want - 1.0).abs() < 1e-12, "{qdd:?}");
}

#[test]
fn a_run_with_machine_code_reaches_the_same_state() {
    let (scenario, map) = load_toml(&text("chaplygin-sleigh")).expect("loads");
    let model = Model::build(&scenario, &map).expect("valid");
    let mut numeric = NumericModel::new(&model).expect("compiles");
    let initial = initial_state(&model, &mut numeric, &map).expect("initial state");
    let settings = Settings::from_scenario(&scenario.run, Method::Lagrange);
    let mut native = numeric.clone();
    assert!(nhlab_native::use_for_lagrange(&model, &mut native, true).expect("compiles"));
    let mut by_interpreter = Simulation::new(numeric, settings, &initial).expect("starts");
    let mut by_machine_code = Simulation::new(native, settings, &initial).expect("starts");
    by_interpreter.advance_to(10.0).expect("runs");
    by_machine_code.advance_to(10.0).expect("runs");
    let (a, b) = (by_interpreter.state(), by_machine_code.state());
    assert_eq!(by_interpreter.samples().len(), by_machine_code.samples().len(), "the same steps");
    for (x, y) in a.q.iter().chain(&a.v).zip(b.q.iter().chain(&b.v)) {
        assert!((x - y).abs() < 1e-9 * (1.0 + x.abs()), "{a:?} vs {b:?}");
    }
}

/// With machine code whose tail computes the diagnostics, each sample's energy,
/// residuals and E-vector come from that tail: where the last stage left its
/// values (a step's end) or after running its body there (a time between steps,
/// from the dense output). Each is, bit for bit, what the interpreter gives at the
/// sample's state, for every gallery scenario, and the last sample's did come from
/// the tail, except where the diagnostics are too long to compile (the bicycle's
/// Hamel terms), which stay interpreted.
#[test]
fn samples_with_machine_code_are_the_interpreters_diagnostics() {
    let (mut checked, mut with_tail) = (0, 0);
    for name in names() {
        let Some(runs) = native_samples_match(&name, &text(&name)) else { continue };
        checked += runs.checked;
        with_tail += usize::from(runs.has_tail);
    }
    assert!(checked >= 2 * names().len() - 4, "{checked} runs checked");
    assert!(with_tail + 3 >= names().len(), "{with_tail} of {} with a tail", names().len());
}

/// The sleigh heading almost across its split (φ = 1.5707, 10⁻⁴ from π/2, sliding
/// along y without turning): `A₁ = cos φ` is small against the row, so the
/// compiled shortcut of the split's regularity test (`formulations::split_shortcut`,
/// `cos²φ` against 10⁻⁶) declines at every sample and the elimination decides, as
/// the interpreter's test does: the split is regular (its margin is `|cos φ|`, far
/// above 10⁻⁸), so every sample has its E-vector, each the interpreter's.
#[test]
fn a_split_the_shortcut_cannot_judge_is_judged_by_elimination() {
    let across = text("chaplygin-sleigh")
        .replace("q = { x = 0, y = 0, phi = 0 }", "q = { x = 0, y = 0, phi = 1.5707 }")
        .replace("v = { x = 1, phi = 1 }", "v = { y = 1, phi = 0 }");
    assert!(across.contains("1.5707") && across.contains("y = 1"), "the initial state was changed");
    let runs = native_samples_match("sleigh across its split", &across).expect("starts");
    assert!(runs.has_tail && runs.checked == 2);
    assert!(runs.with_e > 20 && runs.with_e == runs.samples, "{} of {} samples with E", runs.with_e, runs.samples);
}

/// The sample's block at the end of the diagnostics' program: `T + V` and flags
/// that are 0 (the split's shortcut 1), then the columns as a row holds them (the
/// residual as written, the velocity residual, `E`); the flags are 0 where every value is finite and NaN exactly where one is not: an
/// infinite velocity poisons the first (the energy), an infinite `x` (which only
/// `E`'s terms do not read) leaves it. Run by the interpreter, whose bits the
/// machine code gives (the tests above).
#[test]
fn the_sample_block_flags_what_is_not_finite() {
    let (model, mut numeric) = compiled(&text("chaplygin-sleigh"));
    let program = nhlab::simulation::lagrange_program_with_diagnostics(&model).expect("compiles").expect("small");
    let mut evaluator = program.evaluator();
    let parameters = numeric.parameters.clone();
    let mut sample = |q: [f64; 3], v: [f64; 3]| {
        let inputs: Vec<f64> = [0.0].iter().chain(&q).chain(&v).chain(&parameters).copied().collect();
        let mut out = vec![0.0; program.output_count()];
        evaluator.eval(&inputs, &mut out).expect("shape");
        // T + V, three flags, residual, velocity residual, E (2).
        out[out.len() - 8..].to_vec()
    };
    let (q, v) = ([0.1, -0.2, 0.3], [0.4, 0.5, -0.6]);
    let got = sample(q, v);
    let terms = numeric.evaluate(0.0, &q, &v).expect("finite").clone();
    let e = nhlab::formulations::e_vector(&mut numeric, 0.0, &q, &v).expect("a split").expect("regular");
    assert_eq!(got[..4], [terms.energy, 0.0, 0.0, 1.0], "cos²φ = 0.91 clears the shortcut");
    assert_eq!(got[4..6], [terms.residuals[0], terms.residuals[0]]);
    assert_eq!(got[6..], *e.values.as_slice());
    let fast = sample(q, [f64::INFINITY, 0.5, -0.6]);
    assert!(fast[0].is_infinite() && fast[1].is_nan(), "{fast:?}");
    let far = sample([f64::INFINITY, -0.2, 0.3], v);
    assert!(far[1] == 0.0 && far[2] == 0.0, "x enters neither the energy nor E: {far:?}");
    let turned = sample([0.1, -0.2, f64::NAN], v);
    assert!(turned[1].is_nan() && turned[2].is_nan() && turned[3].is_nan(), "{turned:?}");
}

/// Every choice of columns (`--columns`), with machine code and without: a row
/// holds exactly the columns asked for, each with the bits the same run gives
/// with every column (machine code writes every column straight into the row, and
/// a choice through a buffer; `native_samples_match` checks the full rows against
/// the interpreter). The sleigh's two velocity-level columns and its two
/// components of `E` have the same width, so a row of one kind could pass for the
/// other; the turntable has rows of other widths, the pendulum a holonomic
/// constraint (its residual as written is `φ`), and the rocket no constraint and
/// no split (no columns but the energy).
#[test]
fn every_choice_of_columns_gives_the_full_runs_numbers() {
    use nhlab::simulation::Diagnostics;
    for name in ["chaplygin-sleigh", "ball-on-turntable", "pendulum-cartesian", "rocket-meshchersky"] {
        let (scenario, map) = load_toml(&text(name)).expect("loads");
        let model = Model::build(&scenario, &map).expect("valid");
        let mut numeric = NumericModel::new(&model).expect("compiles");
        let initial = initial_state(&model, &mut numeric, &map).expect("an initial state");
        let mut native = numeric.clone();
        assert!(nhlab_native::use_for_lagrange(&model, &mut native, true).expect("compiles"), "{name}");
        assert!(native.native_lagrange().is_some_and(NativeEvaluator::has_tail), "{name}: the samples' tail");
        for (route, compiled) in [("interpreted", &numeric), ("machine code", &native)] {
            let run = |diagnostics: Diagnostics| {
                let settings = Settings {
                    compulsion: false,
                    diagnostics,
                    ..Settings::from_scenario(&scenario.run, Method::Lagrange)
                };
                let mut sim = Simulation::new(compiled.clone(), settings, &initial).expect("starts");
                sim.advance_to(initial.t + 0.5).expect("runs");
                sim.samples().to_vec()
            };
            let full = run(Diagnostics::ALL);
            // The columns compared below are there to compare: a residual for each
            // constraint, and `E` where the model has a split.
            let (m, split) = (numeric.m(), numeric.e_components().is_some());
            assert!(full.len() > 5, "{name}: {} samples", full.len());
            assert!(full.iter().all(|s| s.residuals.len() == m && s.velocity_residuals.len() == m), "{name}");
            assert_eq!(full.iter().any(|s| s.e_vector.is_some()), split, "{name}");
            for choice in 0..8 {
                let wanted = Diagnostics {
                    energy: choice & 1 != 0,
                    residuals: choice & 2 != 0,
                    e_vector: choice & 4 != 0,
                    contacts: false,
                };
                let at = format!("{name} ({route}, {wanted:?})");
                let chosen = run(wanted);
                assert_eq!(chosen.len(), full.len(), "{at}");
                for (got, all) in chosen.iter().zip(&full) {
                    let bits = |x: &[f64]| x.iter().map(|v| v.to_bits()).collect::<Vec<_>>();
                    let state = |s: &nhlab::simulation::Sample| (s.t.to_bits(), bits(&s.q), bits(&s.v));
                    assert_eq!(state(got), state(all), "{at}: the state");
                    let energy = if wanted.energy { all.energy.to_bits() } else { f64::NAN.to_bits() };
                    assert_eq!(got.energy.to_bits(), energy, "{at}: energy at t = {}", got.t);
                    let (residuals, velocity) = if wanted.residuals {
                        (bits(&all.residuals), bits(&all.velocity_residuals))
                    } else {
                        (Vec::new(), Vec::new())
                    };
                    assert_eq!((bits(&got.residuals), bits(&got.velocity_residuals)), (residuals, velocity), "{at}");
                    let e = all.e_vector.as_deref().filter(|_| wanted.e_vector).map(bits);
                    assert_eq!(got.e_vector.as_deref().map(bits), e, "{at}: E at t = {}", got.t);
                }
            }
        }
    }
}

/// What [`native_samples_match`] checked.
struct NativeRuns {
    has_tail: bool,
    /// Runs (to a time, and at times from the dense output).
    checked: usize,
    samples: usize,
    /// Samples whose E-vector is defined.
    with_e: usize,
}

/// Runs the scenario `text` with machine code, to a time and at times between
/// steps, and asserts that every sample's diagnostics are the interpreter's bits;
/// `None` when it has no initial state.
fn native_samples_match(name: &str, text: &str) -> Option<NativeRuns> {
    let (scenario, map) = load_toml(text).expect("loads");
    let model = Model::build(&scenario, &map).expect("valid");
    let mut numeric = NumericModel::new(&model).expect("compiles");
    let initial = initial_state(&model, &mut numeric, &map).ok()?;
    let mut native = numeric.clone();
    assert!(nhlab_native::use_for_lagrange(&model, &mut native, true).expect("compiles"), "{name}");
    // Diagnostics too long to compile stay interpreted (the bicycle's).
    let has_tail = native.native_lagrange().is_some_and(NativeEvaluator::has_tail);
    assert_eq!(has_tail, numeric.diagnostics_instructions() <= MAX_COMPILED_DIAGNOSTICS, "{name}");
    let mut runs = NativeRuns { has_tail, checked: 0, samples: 0, with_e: 0 };
    let mut settings = Settings::from_scenario(&scenario.run, Method::Lagrange);
    settings.compulsion = false;
    let end = initial.t + 0.5;
    for dense in [false, true] {
        let mut sim = Simulation::new(native.clone(), settings, &initial).expect("starts");
        if dense {
            let times: Vec<f64> = (1..=20).map(|k| initial.t + 0.025 * k as f64).collect();
            sim.advance_sampling(&times).expect("runs");
        } else {
            sim.advance_to(end).expect("runs");
        }
        let last = sim.samples().last().expect("samples").to_sample();
        let n = last.q.len();
        let tail_ran = sim.numeric_mut().native_lagrange().expect("machine code").tail_holds(&[
            &[last.t],
            &last.q,
            &last.v,
            &numeric.parameters,
        ]);
        assert_eq!(tail_ran, has_tail, "{name}: the last sample came from the tail");
        for s in sim.samples().iter().map(|s| s.to_sample()) {
            let at = format!("{name} (dense output: {dense}) at t = {}", s.t);
            let terms = numeric.evaluate(s.t, &s.q, &s.v).expect("evaluates").clone();
            assert_eq!(s.energy.to_bits(), terms.energy.to_bits(), "{at}: energy");
            assert_eq!(s.residuals, terms.constraint_residuals(), "{at}: residuals");
            assert_eq!(s.velocity_residuals, terms.residuals.as_slice(), "{at}");
            let e = nhlab::formulations::e_vector(&mut numeric, s.t, &s.q, &s.v).and_then(Result::ok);
            assert_eq!(s.e_vector, e.map(|e| e.values.as_slice().to_vec()), "{at}: E");
            assert_eq!(s.q.len(), n);
            runs.samples += 1;
            runs.with_e += usize::from(s.e_vector.is_some());
        }
        runs.checked += 1;
    }
    Some(runs)
}

/// A program longer than the bound is not handed to a compiler (a run then
/// interprets): the bound applies to the whole program, terms included, not only
/// to the written-out solve.
#[test]
fn a_program_over_the_bound_is_not_compiled() {
    let (model, _) = compiled(&text("chaplygin-sleigh"));
    let whole = nhlab::formulations::lagrange_program(&model).expect("compiles").expect("small enough");
    let length = whole.code().len();
    assert!(length < nhlab::formulations::MAX_COMPILED_INSTRUCTIONS);
    let within = |max| nhlab::formulations::lagrange_program_within(&model, max).expect("compiles");
    assert!(within(length).is_some(), "exactly at the bound");
    assert!(within(length - 1).is_none(), "one over the bound");
}
