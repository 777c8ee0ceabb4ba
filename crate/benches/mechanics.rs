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
//! `cargo bench -p nhlab --bench mechanics` (`-- --quick` for CI).

mod common;
/// The scaling families, shared with the tests (nhlab-tests' support library).
#[path = "../../tests/support/families.rs"]
mod families;

use std::hint::black_box;

use common::best;

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

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(at) = args.iter().position(|a| a == DERIVE_PEAK) {
        derive_alone(&args[at + 1..]);
        return;
    }
    let quick = args.iter().any(|a| a == "--quick");
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
        let hand_s = best(reps, &mut || {
            for k in 0..evals {
                let (q, v) = &states[k % states.len()];
                hand(&params, black_box(q), black_box(v), &mut out);
                black_box(&out);
            }
        });
        if name == "sleigh" {
            let mut w = nhlab::formulations::RangeSpace::default();
            let terms_s = best(reps, &mut || {
                for k in 0..evals {
                    let (q, v) = &states[k % states.len()];
                    sleigh_terms_by_hand(&params, black_box(q), black_box(v), &mut w, &mut out);
                    black_box(&out);
                }
            });
            let engine_s = best(reps, &mut || {
                for k in 0..evals {
                    let (q, v) = &states[k % states.len()];
                    let lambda = lagrange_into(&mut numeric, 0.0, black_box(q), black_box(v), &mut out);
                    black_box(lambda.expect("solves"));
                }
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
        let native_s = best(reps, &mut || {
            for k in 0..evals {
                let (q, v) = &states[k % states.len()];
                let lambda = lagrange_into(&mut native, 0.0, black_box(q), black_box(v), &mut out);
                black_box(lambda.expect("solves"));
            }
        });
        println!(
            "rhs {name} lagrange, native code: {:.0}/s, ratio_vs_handwritten: {:.1}",
            evals as f64 / native_s,
            native_s / hand_s
        );
        for method in [Method::Lagrange, Method::UdwadiaKalaba] {
            // Lagrange through the allocation-free call the integrator makes.
            let engine_s = best(reps, &mut || {
                for k in 0..evals {
                    let (q, v) = &states[k % states.len()];
                    if method == Method::Lagrange {
                        let lambda = lagrange_into(&mut numeric, 0.0, black_box(q), black_box(v), &mut out);
                        black_box(lambda.expect("solves"));
                    } else {
                        black_box(
                            accelerations(method, &mut numeric, 0.0, black_box(q), black_box(v)).expect("solves"),
                        );
                    }
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

/// Section 3b: the contact forces' cost per sample (goal: at most 1.2× a run
/// without them): a run recording every column, with and without the contact
/// forces (and the lift-off and slip checks that come with them), in machine code
/// as `nhlab run` steps, and interpreted as the page does.
fn contact_forces(quick: bool) {
    use nhlab::simulation::{Diagnostics, Settings, Simulation};
    println!("== 3b. contact forces and their checks per sample, against the same run without them (goal <= 1.2)");
    let (batch, reps) = if quick { (3, 5) } else { (10, 11) };
    for name in ["rolling-disk", "rattleback", "whipple-bicycle"] {
        let (model, numeric, state) = load(&scenario(name));
        let mut native = numeric.clone();
        assert!(nhlab_native::use_for_lagrange(&model, &mut native, true).expect("compiles"), "{name}");
        assert!(nhlab_native::use_for_contacts(&mut native).expect("compiles"), "{name}");
        for (route, numeric) in [("native code", &native), ("interpreted", &numeric)] {
            let with = Settings { compulsion: false, ..Settings::from_scenario(&model.scenario.run, Method::Lagrange) };
            let without = Settings { diagnostics: Diagnostics { contacts: false, ..Diagnostics::ALL }, ..with };
            let (mut times, mut samples) = ([f64::INFINITY; 2], 0);
            for _ in 0..reps {
                for (k, settings) in [with, without].into_iter().enumerate() {
                    let mut fresh: Vec<Simulation> = (0..batch)
                        .map(|_| Simulation::new(numeric.clone(), settings, &state).expect("starts"))
                        .collect();
                    times[k] = times[k].min(best(1, &mut || {
                        for sim in fresh.iter_mut() {
                            sim.advance_to(2.0).expect("runs");
                            samples = sim.samples().len();
                        }
                    }));
                }
            }
            println!(
                "contact forces {name} to t = 2 ({route}, {samples} samples): {:.1} us per sample with them, \
                 ratio_vs_without: {:.2}",
                times[0] / (batch * samples) as f64 * 1e6,
                times[0] / times[1]
            );
        }
    }
}

/// A run of `name` under `integrator` (step `dt`, or the scenario's tolerances) to
/// `t_end`, recording the energy alone: its seconds (the best of `reps`), steps,
/// and largest energy error.
fn timed_run(name: &str, integrator: &str, dt: f64, t_end: f64, native: bool, reps: usize) -> (f64, usize, f64) {
    use nhlab::simulation::{Diagnostics, Limits, Settings, Simulation};
    let text = scenario(name);
    let (mut s, map) = load_toml(&text).expect("loads");
    (s.run.integrator, s.run.integrators) = (Some(integrator.into()), None);
    s.run.dt = Some(dt);
    let model = Model::build(&s, &map).expect("valid");
    let mut numeric = NumericModel::new(&model).expect("compiles");
    let state = initial_state(&model, &mut numeric, &map).expect("initial state");
    if native {
        nhlab_native::use_for_lagrange(&model, &mut numeric, true).expect("compiles");
        nhlab_native::use_for_structure_preserving(&mut numeric).expect("compiles");
    }
    let settings = Settings {
        compulsion: false,
        diagnostics: Diagnostics { energy: true, ..Diagnostics::NONE },
        limits: Limits { max_steps: 10_000_000, max_samples: 10_000_000 },
        ..Settings::from_scenario(&s.run, Method::Lagrange)
    };
    let (mut steps, mut drift) = (0, 0.0);
    let seconds = best(reps, &mut || {
        let mut sim = Simulation::new(numeric.clone(), settings, &state).expect("starts");
        sim.advance_to(t_end).expect("runs");
        steps = sim.samples().len() - 1;
        let e0 = sim.samples().get(0).expect("a start").energy;
        drift = sim.samples().iter().map(|x| (x.energy - e0).abs()).fold(0.0, f64::max);
    });
    (seconds, steps, drift)
}

/// Section 3d: `nhlab export`. Export time per gallery item (text to file: parse,
/// derive, compile the programs, write C), against the TOML parse alone; then the
/// exported C's right-hand side on the benchmark bicycle, compiled with
/// `cc -O2`, per call against the lab's own machine code in this process, with its
/// arithmetic counted from the file (the goal: ≤ 1.5 µs a call; PyDy's generated
/// Cython published 8.3 µs).
fn exported_code(quick: bool) {
    use nhlab::code_export::{export, Language};
    println!("== 3d. code export: time per gallery item (goal: bicycle < 100 ms), and the exported C right-hand side");
    let reps = if quick { 3 } else { 10 };
    let sleigh = scenario("chaplygin-sleigh");
    let baseline = best(reps, &mut || {
        black_box(load_toml(black_box(&sleigh)).expect("parses"));
    });
    let build = |text: &str| {
        let (s, map) = load_toml(text).expect("loads");
        let model = Model::build_for(&s, &map, Needs::BASE.holding_inputs()).expect("valid");
        let mut numeric = NumericModel::new(&model).expect("compiles");
        let state = initial_state(&model, &mut numeric, &map).expect("initial state");
        (model, numeric, state)
    };
    for (name, text) in scenarios() {
        let mut bytes = 0;
        let t = best(reps, &mut || {
            let (model, mut numeric, state) = build(&text);
            let file = export(&model, &mut numeric, &state, Language::C, "model", "bench").expect("exports");
            bytes = file.len();
            black_box(file);
        });
        println!(
            "export_ms {name}: {:.1} ({} KiB of C; x{:.0} the TOML parse alone)",
            t * 1e3,
            bytes / 1024,
            t / baseline
        );
    }
    // The bicycle's exported right-hand side, timed by a C program of its own.
    let text = scenario("whipple-bicycle");
    let (model, mut numeric, state) = build(&text);
    let file = export(&model, &mut numeric, &state, Language::C, "bicycle", "bench").expect("exports");
    let rhs = file.split("int bicycle_rhs(").last().and_then(|s| s.split("\n}\n").next()).unwrap_or("");
    let lines: Vec<&str> = rhs.lines().filter(|l| l.trim_start().starts_with("const double")).collect();
    let count = |pattern: &str| lines.iter().filter(|l| l.contains(pattern)).count();
    let (adds, muls, divs) = (count(" + ") + count(" - "), count("*"), count("/"));
    let calls = lines.len() - adds - muls - divs;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-export");
    std::fs::create_dir_all(&dir).expect("a directory");
    std::fs::write(dir.join("bicycle.c"), &file).expect("writes");
    let n = state.q.len();
    let calls_per_rep = if quick { 200_000 } else { 2_000_000 };
    let y: Vec<String> = state.q.iter().chain(&state.v).map(|x| format!("{x:e}")).collect();
    let main = format!(
        r#"#define _POSIX_C_SOURCE 199309L
#include "bicycle.c"
#include <stdio.h>
#include <time.h>
int main(void) {{
    bicycle_parameters p = bicycle_default_parameters();
    double y0[{s}] = {{ {y} }}, y[{s}], u[3] = {{0}}, dy[{s}], sink = 0.0, best = 1e30;
    for (int rep = 0; rep < 7; rep++) {{
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        for (long k = 0; k < {calls}; k++) {{
            for (int i = 0; i < {s}; i++) y[i] = y0[i] + 1e-3 * (double)(k % 64) * (i % 3);
            if (bicycle_rhs(0.0, y, u, &p, dy)) return 1;
            sink += dy[{n}];
        }}
        clock_gettime(CLOCK_MONOTONIC, &b);
        double ns = ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / {calls};
        if (ns < best) best = ns;
    }}
    printf("%.1f %g\n", best, sink);
    return 0;
}}
"#,
        s = 2 * n,
        y = y.join(", "),
        calls = calls_per_rep,
    );
    std::fs::write(dir.join("main.c"), main).expect("writes");
    let compiled = std::process::Command::new("cc")
        .args(["-std=c99", "-O2", "-o"])
        .arg(dir.join("rhs"))
        .arg(dir.join("main.c"))
        .arg("-lm")
        .status();
    let c_ns = match compiled {
        Ok(status) if status.success() => std::process::Command::new(dir.join("rhs")).output().ok().and_then(|o| {
            String::from_utf8_lossy(&o.stdout).split_whitespace().next().and_then(|x| x.parse::<f64>().ok())
        }),
        _ => None,
    };
    // The lab's machine code on the same states.
    let mut native = numeric.clone();
    assert!(nhlab_native::use_for_lagrange(&model, &mut native, true).expect("compiles"));
    let states: Vec<Vec<f64>> = (0..64)
        .map(|k| {
            let mut y: Vec<f64> = state.q.iter().chain(&state.v).copied().collect();
            for (i, x) in y.iter_mut().enumerate() {
                *x += 1e-3 * k as f64 * (i % 3) as f64;
            }
            y
        })
        .collect();
    let mut out = vec![0.0; n];
    let evals = calls_per_rep / 10;
    let native_s = best(reps, &mut || {
        for k in 0..evals {
            let y = &states[k % states.len()];
            black_box(
                lagrange_into(&mut native, 0.0, black_box(&y[..n]), black_box(&y[n..]), &mut out).expect("solves"),
            );
        }
    });
    let native_ns = native_s / evals as f64 * 1e9;
    match c_ns {
        Some(c_ns) => println!(
            "exported C rhs, bicycle: {c_ns:.0} ns a call (goal <= 1500; PyDy's Cython 8300), lab machine code {native_ns:.0} ns, \
             ratio_exported_vs_machine_code: {:.2}; arithmetic by hand-count: {} operations ({adds} add/sub, {muls} mul, {divs} div, \
             {calls} calls), {:.2} ns per operation",
            c_ns / native_ns,
            lines.len(),
            c_ns / lines.len() as f64
        ),
        None => println!("exported C rhs, bicycle: could not compile or run it with cc (lab machine code {native_ns:.0} ns)"),
    }
}

/// Section 3c: the structure-preserving integrators. The cost of a step against
/// Dormand–Prince's accepted step, each in machine code as `nhlab run` steps it,
/// and the energy error each reaches over T = 1,000 (quick: 200) for about the
/// same work as RK4.
fn structure_preserving(quick: bool) {
    println!("== 3c. structure-preserving integrators: cost per step, and the energy error at equal work");
    let reps = if quick { 2 } else { 5 };
    for (name, dt) in [("chaplygin-sleigh", 0.01), ("rolling-disk", 0.01), ("whipple-bicycle", 0.005)] {
        let t_end = 2.0;
        let (dp_s, dp_steps, _) = timed_run(name, "dopri5", dt, t_end, true, reps);
        let (r_s, r_steps, _) = timed_run(name, "rattle", dt, t_end, true, reps);
        let (r4_s, r4_steps, _) = timed_run(name, "rattle4", dt, t_end, true, reps);
        let per = |s: f64, n: usize| s / n as f64 * 1e6;
        println!(
            "{name} to t = {t_end}: dopri5 {:.1} us per accepted step ({dp_steps} steps, machine code); rattle {:.1} us \
             per step of {dt}, ratio_vs_dopri5_step: {:.1}; rattle4 {:.1} us, ratio_vs_dopri5_step: {:.1}",
            per(dp_s, dp_steps),
            per(r_s, r_steps),
            per(r_s, r_steps) / per(dp_s, dp_steps),
            per(r4_s, r4_steps),
            per(r4_s, r4_steps) / per(dp_s, dp_steps),
        );
    }
    let t_end = if quick { 200.0 } else { 1000.0 };
    for (name, dt) in [("contact-oscillator", 0.1), ("chaplygin-sleigh", 0.1)] {
        let (r_s, _, r_drift) = timed_run(name, "rattle", dt, t_end, true, 1);
        // RK4 at the step that costs what RATTLE's run did.
        let (probe_s, probe_steps, _) = timed_run(name, "rk4", dt, t_end, true, 1);
        let rk4_dt = dt * (probe_s / probe_steps as f64) * (t_end / dt) / r_s;
        let (k_s, _, k_drift) = timed_run(name, "rk4", rk4_dt, t_end, true, 1);
        println!(
            "{name} to t = {t_end}: rattle dt = {dt} {:.2} s, energy error {r_drift:.2e}; rk4 at equal work (dt = {rk4_dt:.3}) \
             {:.2} s, energy error {k_drift:.2e}, ratio_rk4_vs_rattle_error: {:.1e}",
            r_s,
            k_s,
            k_drift / r_drift
        );
    }
}

/// Section 3's timings for one compiled model: the bare integrator loop, and the
/// same integration through `Simulation` (what `nhlab run` does without `--plot`),
/// each accepted step also recording a sample with every column (energy,
/// residuals, the E-vector; no compulsion), without the E-vector, or with the
/// state alone (`--columns state`). One run takes a fraction of a millisecond:
/// each repetition times a batch of runs, and the loops take turns, so that a
/// disturbance of these shared machines hits them alike; the fastest repetition
/// of each counts.
struct SleighRuns {
    bare_s: f64,
    every_column_s: f64,
    without_e_s: f64,
    state_s: f64,
    steps: usize,
    samples: usize,
    end: Vec<f64>,
}

fn time_sleigh_runs(
    model: &Model,
    numeric: &NumericModel,
    state: &State,
    y0: &[f64],
    batch: usize,
    reps: usize,
) -> SleighRuns {
    use nhlab::simulation::{Diagnostics, Settings, Simulation};
    let every_column = Settings {
        method: Method::Lagrange,
        integrator: nhlab::integrators::IntegratorKind::Dopri5,
        rtol: 1e-10,
        atol: 1e-12,
        compulsion: false,
        ..Settings::from_scenario(&model.scenario.run, Method::Lagrange)
    };
    let without_e = Settings { diagnostics: Diagnostics { e_vector: false, ..Diagnostics::ALL }, ..every_column };
    let state_only = Settings { diagnostics: Diagnostics::NONE, ..every_column };
    let mut out = SleighRuns {
        bare_s: f64::INFINITY,
        every_column_s: f64::INFINITY,
        without_e_s: f64::INFINITY,
        state_s: f64::INFINITY,
        steps: 0,
        samples: 0,
        end: y0.to_vec(),
    };
    let mut bare_numeric = numeric.clone();
    for _ in 0..reps {
        out.bare_s = out.bare_s.min(best(1, &mut || {
            for _ in 0..batch {
                let mut dp = Dopri5::new(6, 1e-10, 1e-12);
                let (mut t, mut y) = (0.0, y0.to_vec());
                let mut sys = Engine { numeric: &mut bare_numeric, method: Method::Lagrange, n: 3 };
                out.steps = 0;
                while t < 100.0 {
                    dp.step(&mut sys, &mut t, &mut y, 100.0).expect("integrates");
                    out.steps += 1;
                }
                out.end = y;
            }
        }));
        // Simulations made beforehand and dropped afterwards: the bare loop does not
        // copy the model, or free it, either (a drop cost about 0.5 % of a run).
        for (settings, time) in
            [(every_column, &mut out.every_column_s), (without_e, &mut out.without_e_s), (state_only, &mut out.state_s)]
        {
            let mut fresh: Vec<Simulation> =
                (0..batch).map(|_| Simulation::new(numeric.clone(), settings, state).expect("starts")).collect();
            let mut done: Vec<Simulation> = Vec::with_capacity(batch);
            *time = time.min(best(1, &mut || {
                for mut sim in fresh.drain(..) {
                    sim.advance_to(100.0).expect("runs");
                    out.samples = sim.samples().len();
                    done.push(sim);
                }
            }));
            drop(done);
        }
    }
    out
}

/// Section 5: the bicycle's linear stability.
fn stability(quick: bool) {
    use nhlab::stability::{jacobian, Derivatives, Study};
    println!("== 5. linear stability, Whipple bicycle");
    let text = scenario("whipple-bicycle");
    let (s, map) = load_toml(&text).expect("loads");
    let mut model = Model::build(&s, &map).expect("valid");
    let mut numeric = NumericModel::new(&model).expect("compiles");
    let state = initial_state(&model, &mut numeric, &map).expect("initial state");
    let build_s = best(if quick { 2 } else { 5 }, &mut || {
        black_box(Derivatives::new(&model).expect("derivatives"));
    });
    let mut derivatives = Derivatives::new(&model).expect("derivatives");
    let (q, v) = (state.q.clone(), state.v.clone());
    let reps = if quick { 200 } else { 2000 };
    let exact_s = best(5, &mut || {
        for _ in 0..reps {
            black_box(jacobian(&mut numeric, &mut derivatives, 0.0, &q, &v).expect("jacobian"));
        }
    }) / reps as f64;
    let n = q.len();
    let differences_s = best(5, &mut || {
        for _ in 0..reps {
            for k in 0..2 * n {
                for sign in [1.0, -1.0] {
                    let (mut q, mut v) = (q.clone(), v.clone());
                    if k < n {
                        q[k] += sign * 1e-5
                    } else {
                        v[k - n] += sign * 1e-5
                    }
                    black_box(accelerations(Method::Lagrange, &mut numeric, 0.0, &q, &v).expect("rhs"));
                }
            }
        }
    }) / reps as f64;
    println!(
        "jacobian (16x16): exact {:.1} us, central differences {:.1} us, ratio_vs_differences: {:.2}; derivative program compiled in {:.1} ms",
        exact_s * 1e6,
        differences_s * 1e6,
        exact_s / differences_s,
        build_s * 1e3
    );
    let spec = model.scenario.stability.clone().expect("a [stability] table");
    let mut study = Study::new(&model, &spec).expect("study");
    let one_s = best(5, &mut || {
        for _ in 0..reps / 10 {
            black_box(study.at(&mut model, &mut numeric, &mut derivatives, &map, Some(16.0)).expect("linearises"));
        }
    }) / (reps / 10) as f64;
    let mut rows = 0;
    let sweep_s = best(if quick { 2 } else { 5 }, &mut || {
        let sweep = study.run(&mut model, &mut numeric, &mut derivatives, &map).expect("sweep");
        rows = sweep.rows.len();
    });
    println!(
        "one linearisation (reference state completed, reduced, eigenvalues): {:.1} us; sweep of {rows} values with 2 boundaries: {:.1} ms, ratio_vs_one: {:.0} (goal: < 1 s in the page)",
        one_s * 1e6,
        sweep_s * 1e3,
        sweep_s / one_s
    );
}

/// What a user waits for at the command line: whole `nhlab` processes on the largest
/// members of the two families (best of three), against the in-process derive for
/// `lagrange` measured here (the baseline). Goals: every command ≤ 0.3 s where it
/// prints no E-vector, ≤ 0.6 s where it does (`eval`, and `run` with its default
/// columns). Needs the release command line (`cargo build --release -p nhlab-cli`,
/// as the test command builds it before the benchmarks).
fn whole_processes(quick: bool) {
    println!("== 4b. whole processes of the command line (best of 3)");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let cli = root.join("target/release/nhlab");
    if !cli.exists() {
        println!("skipped: no {} (cargo build --release -p nhlab-cli)", cli.display());
        return;
    }
    let dir = std::env::temp_dir().join(format!("nhlab-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    let (pendulum, trailers) = if quick { (8, 8) } else { (32, 35) };
    let lagrange = Needs::for_methods(&[Method::Lagrange], false);
    for (name, text) in [
        (format!("pendulum N={pendulum}"), families::pendulum(pendulum)),
        (format!("trailers n={trailers}"), families::trailers(trailers)),
    ] {
        let file = dir.join("model.toml");
        std::fs::write(&file, &text).expect("writes");
        let (baseline, _) = derive_timed(&text, lagrange, 3);
        let file = file.to_str().expect("a path");
        let commands: [(&str, &[&str], f64); 5] = [
            ("check", &["check", file], 0.3),
            ("derive --method lagrange", &["derive", file, "--method", "lagrange"], 0.3),
            ("eval --method lagrange (prints E)", &["eval", file, "--method", "lagrange"], 0.6),
            (
                "run --t-end 0.01 (E in its columns)",
                &["run", file, "--method", "lagrange", "--t-end", "0.01", "--out", "/dev/null"],
                0.6,
            ),
            (
                "run --t-end 0.01 --columns state",
                &["run", file, "--method", "lagrange", "--t-end", "0.01", "--out", "/dev/null", "--columns", "state"],
                0.3,
            ),
        ];
        for (what, args, goal) in commands {
            let seconds = best(3, &mut || {
                let status = std::process::Command::new(&cli)
                    .args(args)
                    .stdout(std::process::Stdio::null())
                    .stderr(std::process::Stdio::null())
                    .status()
                    .expect("nhlab runs");
                assert!(status.success(), "{name}: nhlab {what} failed");
            });
            println!(
                "{name}: nhlab {what}: {:.3} s, {:.1}x the in-process derive ({:.1} ms); goal <= {goal} s",
                seconds,
                seconds / baseline,
                baseline * 1e3
            );
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}

/// The slope of log(y) against log(x) by least squares.
fn log_log_slope(points: &[(f64, f64)]) -> f64 {
    let logs: Vec<(f64, f64)> = points.iter().map(|&(x, y)| (x.ln(), y.ln())).collect();
    let n = logs.len() as f64;
    let (mx, my) = (logs.iter().map(|p| p.0).sum::<f64>() / n, logs.iter().map(|p| p.1).sum::<f64>() / n);
    let sxy: f64 = logs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = logs.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
    sxy / sxx
}

/// Text → validated, compiled model, deriving what `needs` asks; seconds (best of
/// `reps`) and the compiled model.
fn derive_timed(text: &str, needs: Needs, reps: usize) -> (f64, NumericModel) {
    let mut numeric = None;
    let t = best(reps, &mut || {
        let (s, map) = load_toml(text).expect("parses");
        let model = Model::build_for(&s, &map, needs).expect("valid");
        numeric = Some(NumericModel::new(&model).expect("compiles"));
    });
    (t, numeric.expect("built"))
}

/// The argument that makes this binary a child that only derives (see [`derive_peak_mb`]).
const DERIVE_PEAK: &str = "--derive-peak";

/// The peak resident memory, in MB, of a process that loads the generated family
/// member `kind` (`pendulum` or `trailers`) of size `n` and derives what `--method
/// lagrange` needs (with `everything`, every formulation): this binary run again as a
/// child, so that nothing else the bench did counts, as `/usr/bin/time` would
/// measure `nhlab derive`. `None` where the system does not say (not Linux).
fn derive_peak_mb(kind: &str, n: usize, everything: bool) -> Option<f64> {
    let needs = if everything { "everything" } else { "lagrange" };
    let child = std::process::Command::new(std::env::current_exe().ok()?)
        .args([DERIVE_PEAK, kind, &n.to_string(), needs])
        .output()
        .ok()?;
    String::from_utf8(child.stdout).ok()?.trim().parse().ok()
}

/// The child of [`derive_peak_mb`]: derives, then prints its peak resident memory
/// (`VmHWM` of `/proc/self/status`) in MB, or nothing where there is no such file.
fn derive_alone(args: &[String]) {
    let [kind, n, needs] = args else { return };
    let n: usize = n.parse().expect("a size");
    let text = if kind == "pendulum" { families::pendulum(n) } else { families::trailers(n) };
    let needs = if needs == "everything" { Needs::ALL } else { Needs::for_methods(&[Method::Lagrange], false) };
    let (s, map) = load_toml(&text).expect("parses");
    let model = Model::build_for(&s, &map, needs).expect("valid");
    black_box(NumericModel::new(&model).expect("compiles"));
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let peak_kb =
        status.lines().find_map(|l| l.strip_prefix("VmHWM:")?.trim().strip_suffix("kB")?.trim().parse::<f64>().ok());
    if let Some(kb) = peak_kb {
        println!("{}", kb / 1024.0);
    }
}

/// A peak from [`derive_peak_mb`] for printing.
fn megabytes(peak: Option<f64>) -> String {
    peak.map_or("not measured here".into(), |mb| format!("{mb:.0} MB"))
}

fn scaling_families(quick: bool) {
    println!("== 4. scaling families: derive (text -> compiled), program size, RHS against hand-written");
    let lagrange = Needs::for_methods(&[Method::Lagrange], false);
    let sizes: &[usize] = if quick { &[2, 4, 8] } else { &[2, 4, 8, 16, 24, 32] };
    let mut derive_points = Vec::new();
    for &n in sizes {
        let text = families::pendulum(n);
        let reps = 5; // at most about 0.2 s a size; fewer left the slope to the noise
        let (t, mut numeric) = derive_timed(&text, lagrange, reps);
        let (s, map) = load_toml(&text).expect("parses");
        let model = Model::build(&s, &map).expect("valid");
        let state = initial_state(&model, &mut numeric, &map).expect("initial state");
        let q: Vec<f64> = state.q.iter().enumerate().map(|(i, x)| x + 0.02 * i as f64).collect();
        let v: Vec<f64> = (0..n).map(|i| 0.1 * (i as f64 - 1.0)).collect();
        let mut out = vec![0.0; n];
        families::pendulum_by_hand(9.81, &q, &v, &mut out);
        let engine = accelerations(Method::Lagrange, &mut numeric, 0.0, &q, &v).expect("solves").accelerations;
        let gap = engine.iter().zip(&out).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        assert!(gap < 1e-9 * (1.0 + out.iter().map(|x| x.abs()).fold(0.0, f64::max)), "pendulum {n}: {gap}");
        // States that differ from call to call (the evaluator skips a repeated one).
        let states: Vec<(Vec<f64>, Vec<f64>)> = (0..16)
            .map(|k| {
                let s = 0.01 * k as f64;
                (q.iter().map(|x| x + s).collect(), v.iter().map(|x| x - s).collect())
            })
            .collect();
        let evals = (200_000 / (n * n)).max(64);
        let hand_s = best(5, &mut || {
            for k in 0..evals {
                let (q, v) = &states[k % states.len()];
                families::pendulum_by_hand(9.81, black_box(q), black_box(v), &mut out);
            }
        });
        let engine_s = best(5, &mut || {
            for k in 0..evals {
                let (q, v) = &states[k % states.len()];
                black_box(lagrange_into(&mut numeric, 0.0, black_box(q), black_box(v), &mut out).expect("solves"));
            }
        });
        // Machine code (what `nhlab run` and the page use), when the written-out
        // solve is small enough for the model.
        let mut native = numeric.clone();
        let native_s = if nhlab_native::use_for_lagrange(&model, &mut native, true).expect("compiles") {
            let mut check = vec![0.0; n];
            lagrange_into(&mut native, 0.0, &q, &v, &mut check).expect("solves");
            let gap = check.iter().zip(&engine).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
            assert!(gap < 1e-9 * (1.0 + engine.iter().map(|x| x.abs()).fold(0.0, f64::max)), "pendulum {n}: {gap}");
            Some(best(5, &mut || {
                for k in 0..evals {
                    let (q, v) = &states[k % states.len()];
                    black_box(lagrange_into(&mut native, 0.0, black_box(q), black_box(v), &mut out).expect("solves"));
                }
            }))
        } else {
            None
        };
        let native = match native_s {
            Some(s) => format!("native code {:.1}", s / hand_s),
            None => "native code: too large to write out".into(),
        };
        derive_points.push((n as f64, t));
        println!(
            "pendulum N={n}: derive_ms {:.2}, program {} instructions ({} for M and F), rhs_us {:.2}, ratio_vs_handwritten: {:.1} ({native})",
            t * 1e3,
            numeric.program_sizes().0,
            numeric.mass_and_forcing_instructions(),
            engine_s / evals as f64 * 1e6,
            engine_s / hand_s
        );
    }
    let big: Vec<(f64, f64)> = derive_points.iter().copied().filter(|p| p.0 >= 8.0).collect();
    if big.len() >= 2 {
        println!("pendulum derive log-log slope (N >= 8): {:.2} (goal <= 2.2)", log_log_slope(&big));
    }
    let sizes: &[usize] = if quick { &[2, 4, 8] } else { &[2, 4, 8, 16, 24, 35] };
    let (mut lazy_points, mut full_points) = (Vec::new(), Vec::new());
    for &n in sizes {
        let text = families::trailers(n);
        // The best of three for `lagrange` at every size (one a size from 16 on
        // gave n = 16 13 ms in one run and 22 ms in the next, and slopes 2.0-2.3);
        // everything, about a second at n = 35, the best of two from 16 on.
        let (lazy, numeric) = derive_timed(&text, lagrange, 3);
        let (full, full_numeric) = derive_timed(&text, Needs::ALL, if n >= 16 { 2 } else { 3 });
        let (main, _, _) = numeric.program_sizes();
        let (_, hamel, vakonomic) = full_numeric.program_sizes();
        lazy_points.push((n as f64, lazy));
        full_points.push((n as f64, full));
        println!(
            "trailers N={n}: derive_ms for lagrange {:.1}, with everything {:.1} ({:.0} % Hamel and vakonomic); \
             programs: main {main}, Hamel {hamel}, vakonomic {vakonomic} instructions; \
             peak memory of a process deriving for lagrange {}, with everything {}",
            lazy * 1e3,
            full * 1e3,
            100.0 * (1.0 - lazy / full),
            megabytes(derive_peak_mb("trailers", n, false)),
            megabytes(derive_peak_mb("trailers", n, true))
        );
    }
    let slope =
        |points: &[(f64, f64)]| log_log_slope(&points.iter().copied().filter(|p| p.0 >= 4.0).collect::<Vec<_>>());
    println!(
        "trailers derive log-log slope (N >= 4): {:.2} for lagrange, {:.2} with everything",
        slope(&lazy_points),
        slope(&full_points)
    );
}
