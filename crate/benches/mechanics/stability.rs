//! Section 5: the bicycle's linear stability.

use super::*;

/// Section 5: the bicycle's linear stability.
pub(super) fn stability(quick: bool) {
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
            black_box(jacobian(Method::Lagrange, &mut numeric, &mut derivatives, 0.0, &q, &v).expect("jacobian"));
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
