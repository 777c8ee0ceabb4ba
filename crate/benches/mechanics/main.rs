//! Mechanics benchmarks, each against a baseline measured in the same run:
//!
//! 1. derive time (build + compile) of every scenario under `scenarios/`;
//! 2. right-hand-side evaluations per second, sleigh and turntable ball, `lagrange`
//!    and `udwadia-kalaba`, against hand-written closed-form right-hand sides;
//! 3. integrating the sleigh to t = 100 at rtol 1e-10 with DP5, the engine's RHS
//!    against the hand-written one through the same integrator.
//!
//! 4. the scaling families (common/families.rs): derive time with only what
//!    `--method lagrange` needs and with everything, program sizes, and the RHS per
//!    call against a hand-written one, with log-log slopes over the sizes.
//!
//! 5. linear stability of the Whipple bicycle: the exact Jacobian against central
//!    differences of the accelerations (the baseline), one linearisation, and the
//!    scenario's 1,001-point sweep with its bisected boundaries.
//!
//! `cargo bench -p nhlab --bench mechanics` (`-- --quick` for CI; `-- --only 3c` one
//! section: 3b, 3c, 3d, 4, 4b or 5).

#[path = "../common/mod.rs"]
mod common;
mod contact_forces;
mod exported_code;
/// The scaling families, shared with the tests (nhlab-tests' support library).
#[path = "../../../tests/support/families.rs"]
mod families;
mod processes;
mod scaling;
mod sleigh_runs;
mod stability;
mod structure_preserving;

use std::hint::black_box;

use common::best;
use contact_forces::contact_forces;
use exported_code::exported_code;
use processes::whole_processes;
use scaling::{derive_alone, derive_timed, scaling_families, DERIVE_PEAK};
use sleigh_runs::time_sleigh_runs;
use stability::stability;
use structure_preserving::structure_preserving;

use nhlab::formulations::{accelerations, lagrange_into, Method};
use nhlab::integrators::{Dopri5, System};
use nhlab::mechanics::{Model, Needs, NumericModel};
use nhlab::scenario::load_toml;
use nhlab::simulation::{initial_state, State};

/// Every scenario file under `scenarios/`, sorted by name.
fn scenarios() -> Vec<(String, String)> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios");
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("scenarios/")
        .filter_map(|e| {
            let path = e.ok()?.path();
            (path.extension()? == "toml").then(|| {
                let name = path.file_stem().unwrap_or_default().to_string_lossy().into_owned();
                (name, std::fs::read_to_string(&path).unwrap_or_default())
            })
        })
        .collect();
    out.sort();
    out
}

fn scenario(name: &str) -> String {
    scenarios().into_iter().find(|(n, _)| n == name).map(|(_, t)| t).expect("scenario file")
}

fn load(text: &str) -> (Model, NumericModel, State) {
    let (s, map) = load_toml(text).expect("loads");
    let model = Model::build(&s, &map).expect("valid");
    let mut numeric = NumericModel::new(&model).expect("compiles");
    let state = initial_state(&model, &mut numeric, &map).expect("initial state");
    (model, numeric, state)
}

/// Chaplygin sleigh, Lagrange multipliers, closed form (valid at any state):
/// φ̈ = −m a ω u/(I + m a²), λ = m ω u + m a φ̈, ẍ = a c ω² − λ s/m + a s φ̈,
/// ÿ = a s ω² + λ c/m − a c φ̈, with u = ẋ c + ẏ s.
fn sleigh_by_hand(p: &[f64; 3], q: &[f64], v: &[f64], out: &mut [f64]) {
    let [m, a, inertia] = *p;
    let (s, c) = q[2].sin_cos();
    let w = v[2];
    let u = v[0] * c + v[1] * s;
    let phidd = -m * a * w * u / (inertia + m * a * a);
    let lambda = m * w * u + m * a * phidd;
    out[0] = a * c * w * w - lambda * s / m + a * s * phidd;
    out[1] = a * s * w * w + lambda * c / m - a * c * phidd;
    out[2] = phidd;
}

/// Ball on a turntable: M = diag(m, m, I, I, I), I = 2mR²/5, A q̈ = b with
/// b = (−Ω ẏ, Ω ẋ): λ_k = b_k/(1/m + R²/I).
fn turntable_by_hand(p: &[f64; 3], _q: &[f64], v: &[f64], out: &mut [f64]) {
    let [m, r, omega] = *p;
    let inertia = 0.4 * m * r * r;
    let k = 1.0 / (1.0 / m + r * r / inertia);
    let (l1, l2) = (-omega * v[1] * k, omega * v[0] * k);
    out[0] = l1 / m;
    out[1] = l2 / m;
    out[2] = r * l2 / inertia;
    out[3] = -r * l1 / inertia;
    out[4] = 0.0;
}

/// The sleigh's M, F, A, b written by hand, solved like the engine does (the
/// baseline that isolates the cost of the compiled terms from the solve).
fn sleigh_terms_by_hand(p: &[f64; 3], q: &[f64], v: &[f64], w: &mut nhlab::formulations::RangeSpace, out: &mut [f64]) {
    let [m, a, inertia] = *p;
    let (s, c) = q[2].sin_cos();
    let om = v[2];
    let mass = [m, 0.0, -m * a * s, 0.0, m, m * a * c, -m * a * s, m * a * c, inertia + m * a * a];
    let force = [m * a * om * om * c, m * a * om * om * s, 0.0];
    let jac = [-s, c, 0.0];
    let bias = [om * (v[0] * c + v[1] * s)];
    let mut lambda = [0.0];
    assert!(w.factor(3, &mass, &jac) && w.solve(&force, &bias, out, &mut lambda));
}

/// A hand-written right-hand side: parameters, q, v → q̈.
type HandRhs = dyn Fn(&[f64; 3], &[f64], &[f64], &mut [f64]);

struct Hand<'a> {
    params: [f64; 3],
    rhs: &'a HandRhs,
    n: usize,
}

impl System for Hand<'_> {
    type Error = ();
    fn rhs(&mut self, _t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), ()> {
        let n = self.n;
        dy[..n].copy_from_slice(&y[n..]);
        (self.rhs)(&self.params, &y[..n], &y[n..], &mut dy[n..]);
        Ok(())
    }
}

struct Engine<'a> {
    numeric: &'a mut NumericModel,
    method: Method,
    n: usize,
}

impl System for Engine<'_> {
    type Error = nhlab::mechanics::DynamicsError;
    fn rhs(&mut self, t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), Self::Error> {
        let n = self.n;
        dy[..n].copy_from_slice(&y[n..]);
        if self.method == Method::Lagrange {
            lagrange_into(self.numeric, t, &y[..n], &y[n..], &mut dy[n..])?;
            return Ok(());
        }
        let s = accelerations(self.method, self.numeric, t, &y[..n], &y[n..])?;
        dy[n..].copy_from_slice(s.accelerations.as_slice());
        Ok(())
    }
}

/// [`best`] of `evals` calls of `call`, cycling through `states`, each state
/// passed through `black_box`.
fn best_over_states(
    reps: usize,
    evals: usize,
    states: &[(Vec<f64>, Vec<f64>)],
    mut call: impl FnMut(&[f64], &[f64]),
) -> f64 {
    best(reps, &mut || {
        for k in 0..evals {
            let (q, v) = &states[k % states.len()];
            call(black_box(q), black_box(v));
        }
    })
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == DERIVE_PEAK) {
        derive_alone(&args[at + 1..]);
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
    // `--only 3b|3c|…`: one section (its figures are against baselines it measures).
    if let Some(at) = args.iter().position(|a| a == "--only") {
        type Section = (&'static str, fn(bool));
        let sections: [Section; 6] = [
            ("3b", contact_forces),
            ("3c", structure_preserving),
            ("3d", exported_code),
            ("4", scaling_families),
            ("4b", whole_processes),
            ("5", stability),
        ];
        let wanted = args.get(at + 1).map(String::as_str).unwrap_or("");
        match sections.iter().find(|(name, _)| *name == wanted) {
            Some((_, section)) => section(quick),
            None => eprintln!("--only: one of {}", sections.map(|(name, _)| name).join(", ")),
        }
        return;
    }
    let reps = if quick { 5 } else { 30 };

    // Everything is derived here (every formulation, as `nhlab check` does);
    // issue 10's goal is about what one method needs, printed after the list.
    println!("== 1. derive time (build + compile), everything derived; then `--method lagrange` alone (goal: bicycle < 50 ms)");
    let sleigh_text = scenario("chaplygin-sleigh");
    let turntable_text = scenario("ball-on-turntable");
    let sleigh = sleigh_text.as_str();
    let baseline = best(reps, &mut || {
        black_box(load_toml(black_box(sleigh)).expect("parses"));
    });
    let mut slowest = 0.0f64;
    for (name, text) in scenarios() {
        let t = best(reps, &mut || {
            black_box(load(black_box(&text)));
        });
        slowest = slowest.max(t);
        println!("derive_ms {name}: {:.3} (x{:.0} the TOML parse alone)", t * 1e3, t / baseline);
    }

    println!("derive_ms slowest: {:.3}", slowest * 1e3);
    // What `--method lagrange` derives (goal for the bicycle: < 50 ms).
    for name in ["whipple-bicycle", "rattleback", "ball-in-cone", "cylinder-on-two-cylinders"] {
        let text = scenario(name);
        let t = best(reps, &mut || {
            let (s, map) = load_toml(black_box(&text)).expect("parses");
            let model = Model::build_for(&s, &map, Needs::for_methods(&[Method::Lagrange], false)).expect("valid");
            black_box(NumericModel::new(&model).expect("compiles"));
        });
        println!("derive_ms {name}, lagrange only: {:.3} (x{:.0} the TOML parse alone)", t * 1e3, t / baseline);
    }
    println!("== 2. right-hand side evaluations, against hand-written closed forms (goal <= 3x)");
    let cases: [(&str, &str, [&str; 3], &HandRhs); 2] = [
        ("sleigh", sleigh, ["m", "a", "I"], &sleigh_by_hand),
        ("turntable", turntable_text.as_str(), ["m", "R", "Omega"], &turntable_by_hand),
    ];
    let evals = if quick { 2_000 } else { 20_000 };
    for (name, text, pnames, hand) in cases {
        let (model, mut numeric, state) = load(text);
        let params = pnames.map(|p| model.scenario.parameters[p]);
        let n = state.q.len();
        let states: Vec<(Vec<f64>, Vec<f64>)> = (0..64)
            .map(|k| {
                let s = k as f64 * 0.1;
                (
                    state.q.iter().map(|x| x + 0.3 * s.sin()).collect(),
                    state.v.iter().map(|x| x + 0.2 * s.cos()).collect(),
                )
            })
            .collect();
        let mut out = vec![0.0; n];
        // The hand-written forms agree with the engine (a check, not only a timing).
        for (q, v) in &states {
            hand(&params, q, v, &mut out);
            let engine = accelerations(Method::Lagrange, &mut numeric, 0.0, q, v).expect("solves").accelerations;
            let diff = engine.iter().zip(&out).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
            assert!(diff < 1e-10, "{name}: hand-written and engine differ by {diff}");
        }
        let hand_s = best_over_states(reps, evals, &states, |q, v| {
            hand(&params, q, v, &mut out);
            black_box(&out);
        });
        if name == "sleigh" {
            let mut w = nhlab::formulations::RangeSpace::default();
            let terms_s = best_over_states(reps, evals, &states, |q, v| {
                sleigh_terms_by_hand(&params, q, v, &mut w, &mut out);
                black_box(&out);
            });
            let engine_s = best_over_states(reps, evals, &states, |q, v| {
                let lambda = lagrange_into(&mut numeric, 0.0, q, v, &mut out);
                black_box(lambda.expect("solves"));
            });
            println!(
                "rhs sleigh lagrange vs hand-written M, F, A, b + the same solver: ratio_vs_handwritten_terms: {:.1}",
                engine_s / terms_s
            );
        }
        // Machine code for the same right-hand side (nhlab-native), checked first.
        let mut native = numeric.clone();
        assert!(nhlab_native::use_for_lagrange(&model, &mut native, true).expect("compiles"), "{name}: written out");
        for (q, v) in &states {
            hand(&params, q, v, &mut out);
            let mut fast = vec![0.0; n];
            lagrange_into(&mut native, 0.0, q, v, &mut fast).expect("solves");
            let diff = fast.iter().zip(&out).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
            assert!(diff < 1e-10, "{name}: hand-written and native differ by {diff}");
        }
        let native_s = best_over_states(reps, evals, &states, |q, v| {
            let lambda = lagrange_into(&mut native, 0.0, q, v, &mut out);
            black_box(lambda.expect("solves"));
        });
        println!(
            "rhs {name} lagrange, native code: {:.0}/s, ratio_vs_handwritten: {:.1}",
            evals as f64 / native_s,
            native_s / hand_s
        );
        for method in [Method::Lagrange, Method::UdwadiaKalaba] {
            // Lagrange through the allocation-free call the integrator makes.
            let engine_s = best_over_states(reps, evals, &states, |q, v| {
                if method == Method::Lagrange {
                    let lambda = lagrange_into(&mut numeric, 0.0, q, v, &mut out);
                    black_box(lambda.expect("solves"));
                } else {
                    black_box(accelerations(method, &mut numeric, 0.0, q, v).expect("solves"));
                }
            });
            println!(
                "rhs {name} {}: {:.0}/s engine, {:.0}/s hand-written, ratio_vs_handwritten: {:.1}",
                method.id(),
                evals as f64 / engine_s,
                evals as f64 / hand_s,
                engine_s / hand_s
            );
        }
    }

    // The bicycle has no hand-written RHS: its rate against the sleigh's engine RHS.
    let rate = |text: &str| {
        let (_, mut numeric, state) = load(text);
        let n = state.q.len();
        let mut out = vec![0.0; n];
        let evals = 20_000;
        // Two states in turn: an evaluator called again with the same state
        // remembers its results.
        let mut other = state.q.clone();
        other[n / 2] += 1e-3;
        let qs = [state.q.clone(), other];
        let s = best(reps, &mut || {
            for k in 0..evals {
                black_box(lagrange_into(&mut numeric, 0.0, black_box(&qs[k % 2]), black_box(&state.v), &mut out))
                    .expect("solves");
            }
        });
        evals as f64 / s
    };
    let (bicycle, sleigh_rate) = (rate(&scenario("whipple-bicycle")), rate(sleigh));
    println!(
        "rhs whipple-bicycle lagrange: {bicycle:.0}/s engine, sleigh {sleigh_rate:.0}/s, ratio_vs_sleigh: {:.1}",
        sleigh_rate / bicycle
    );

    println!("== 3. sleigh to t = 100, dopri5 rtol 1e-10");
    let (model, numeric, state) = load(sleigh);
    let params = ["m", "a", "I"].map(|p| model.scenario.parameters[p]);
    let y0: Vec<f64> = state.q.iter().chain(&state.v).copied().collect();
    // `nhlab run` steps Lagrange's equations in machine code, and its samples run
    // the code's tail of diagnostics; the page's runner and every other method
    // interpret them. Both are timed.
    let mut native = numeric.clone();
    assert!(nhlab_native::use_for_lagrange(&model, &mut native, true).expect("compiles"));
    let (batch, reps) = if quick { (20, 7) } else { (50, 15) };
    let mut hand_s = f64::INFINITY;
    let mut end_hand = y0.clone();
    for _ in 0..reps {
        hand_s = hand_s.min(best(1, &mut || {
            for _ in 0..batch {
                let mut dp = Dopri5::new(6, 1e-10, 1e-12);
                let (mut t, mut y) = (0.0, y0.clone());
                let mut sys = Hand { params, rhs: &sleigh_by_hand, n: 3 };
                while t < 100.0 {
                    dp.step(&mut sys, &mut t, &mut y, 100.0).expect("integrates");
                }
                end_hand = y;
            }
        }));
    }
    for (route, numeric) in [("interpreted", &numeric), ("native code", &native)] {
        let run = time_sleigh_runs(&model, numeric, &state, &y0, batch, reps);
        println!(
            "sleigh t=100 through Simulation ({route}; run's loop, {} samples): {:.1} us, ratio_vs_bare_loop: {:.2} \
             with every column (energy, residuals, E each sample), {:.2} without E, {:.2} with the state alone \
             (--columns state; goal <= 1.1)",
            run.samples,
            run.every_column_s / batch as f64 * 1e6,
            run.every_column_s / run.bare_s,
            run.without_e_s / run.bare_s,
            run.state_s / run.bare_s
        );
        let gap = run.end.iter().zip(&end_hand).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        println!(
            "sleigh t=100 ({route}): {} steps, {:.1} us engine, {:.1} us hand-written, ratio_vs_handwritten: {:.1}, end states differ by {gap:.1e}",
            run.steps,
            run.bare_s / batch as f64 * 1e6,
            hand_s / batch as f64 * 1e6,
            run.bare_s / hand_s
        );
    }

    contact_forces(quick);
    structure_preserving(quick);
    exported_code(quick);
    scaling_families(quick);
    whole_processes(quick);
    stability(quick);
}
