//! Section 4: the scaling families, derive time and peak memory, program sizes and the RHS per call.

use super::*;

/// The slope of log(y) against log(x) by least squares.
pub(super) fn log_log_slope(points: &[(f64, f64)]) -> f64 {
    let logs: Vec<(f64, f64)> = points.iter().map(|&(x, y)| (x.ln(), y.ln())).collect();
    let n = logs.len() as f64;
    let (mx, my) = (logs.iter().map(|p| p.0).sum::<f64>() / n, logs.iter().map(|p| p.1).sum::<f64>() / n);
    let sxy: f64 = logs.iter().map(|p| (p.0 - mx) * (p.1 - my)).sum();
    let sxx: f64 = logs.iter().map(|p| (p.0 - mx) * (p.0 - mx)).sum();
    sxy / sxx
}

/// Text → validated, compiled model, deriving what `needs` asks; seconds (best of
/// `reps`) and the compiled model.
pub(super) fn derive_timed(text: &str, needs: Needs, reps: usize) -> (f64, NumericModel) {
    let mut numeric = None;
    let t = best(reps, &mut || {
        let (s, map) = load_toml(text).expect("parses");
        let model = Model::build_for(&s, &map, needs).expect("valid");
        numeric = Some(NumericModel::new(&model).expect("compiles"));
    });
    (t, numeric.expect("built"))
}

/// The argument that makes this binary a child that only derives (see [`derive_peak_mb`]).
pub(super) const DERIVE_PEAK: &str = "--derive-peak";

/// The peak resident memory, in MB, of a process that loads the generated family
/// member `kind` (`pendulum` or `trailers`) of size `n` and derives what `--method
/// lagrange` needs (with `everything`, every formulation): this binary run again as a
/// child, so that nothing else the bench did counts, as `/usr/bin/time` would
/// measure `nhlab derive`. `None` where the system does not say (not Linux).
pub(super) fn derive_peak_mb(kind: &str, n: usize, everything: bool) -> Option<f64> {
    let needs = if everything { "everything" } else { "lagrange" };
    let child = std::process::Command::new(std::env::current_exe().ok()?)
        .args([DERIVE_PEAK, kind, &n.to_string(), needs])
        .output()
        .ok()?;
    String::from_utf8(child.stdout).ok()?.trim().parse().ok()
}

/// The child of [`derive_peak_mb`]: derives, then prints its peak resident memory
/// (`VmHWM` of `/proc/self/status`) in MB, or nothing where there is no such file.
pub(super) fn derive_alone(args: &[String]) {
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
pub(super) fn megabytes(peak: Option<f64>) -> String {
    peak.map_or("not measured here".into(), |mb| format!("{mb:.0} MB"))
}

pub(super) fn scaling_families(quick: bool) {
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
