//! Lagrange's fast route (the range-space method, `crate/src/math/range_space.rs`)
//! against an independent solve of the saddle-point system by nalgebra's LU, on
//! every gallery scenario; its kept factors follow parameter changes; and systems
//! it declines (a massless coordinate) still solve by the pivoted LU.

use nalgebra::{DMatrix, DVector};
use nhlab::formulations::{accelerations, lagrange_into, Method};
use nhlab::mechanics::NumericModel;
use nhlab_tests::assert_close;
use nhlab_tests::scenarios::{compiled, names, text, MASSLESS_COORDINATE};

/// `[q̈; λ]` from `[[M, −Aᵀ], [A, 0]] [q̈; λ] = [F; b]` by nalgebra's full LU.
fn by_nalgebra(numeric: &mut NumericModel, t: f64, q: &[f64], v: &[f64]) -> DVector<f64> {
    let terms = numeric.evaluate(t, q, v).expect("evaluates");
    let (n, m) = (terms.mass.nrows(), terms.jacobian.nrows());
    let mut k = DMatrix::zeros(n + m, n + m);
    k.view_mut((0, 0), (n, n)).copy_from(&terms.mass);
    k.view_mut((0, n), (n, m)).copy_from(&(-terms.jacobian.transpose()));
    k.view_mut((n, 0), (m, n)).copy_from(&terms.jacobian);
    let rhs = DVector::from_iterator(n + m, terms.forcing.iter().chain(terms.bias.iter()).copied());
    k.full_piv_lu().solve(&rhs).expect("regular")
}

#[test]
fn agrees_with_an_independent_lu_on_every_gallery_scenario() {
    for name in names() {
        let (model, mut numeric) = compiled(&text(&name));
        // Redundant constraints have no regular saddle matrix to compare with (the
        // robot's solve is tested in `redundant.rs`).
        if nhlab_tests::scenarios::redundant(&model) {
            continue;
        }
        let n = model.coordinate_count();
        for k in 0..6 {
            let s = 0.37 * k as f64;
            let q: Vec<f64> = (0..n).map(|i| 0.3 + 0.2 * i as f64 + 0.4 * s.sin()).collect();
            let v: Vec<f64> = (0..n).map(|i| 0.5 - 0.15 * i as f64 + 0.3 * s.cos()).collect();
            let want = by_nalgebra(&mut numeric, s, &q, &v);
            let mut qdd = vec![0.0; n];
            let lambda = lagrange_into(&mut numeric, s, &q, &v, &mut qdd).expect("solves").to_vec();
            assert_close(&qdd, &want.as_slice()[..n], 1e-11, &format!("{name}: q̈ at state {k}"));
            assert_close(&lambda, &want.as_slice()[n..], 1e-11, &format!("{name}: λ at state {k}"));
            // The allocating call gives the same numbers.
            let solution = accelerations(Method::Lagrange, &mut numeric, s, &q, &v).expect("solves");
            assert_eq!(solution.accelerations.as_slice(), &qdd[..]);
        }
    }
}

/// The turntable's `M` and `A` depend on the parameters only, so its solve is kept
/// as a fixed map: a change of parameters must be seen at the next call.
#[test]
fn kept_factors_follow_parameter_changes() {
    let text = text("ball-on-turntable");
    let (model, mut numeric) = compiled(&text);
    let n = model.coordinate_count();
    let (q, v) = (vec![1.0, 0.5, 0.1, 0.2, 0.3], vec![0.1, 0.7, -0.2, 0.4, 0.9]);
    let mut before = vec![0.0; n];
    lagrange_into(&mut numeric, 0.0, &q, &v, &mut before).expect("solves");
    for (p, value) in model.parameters.iter().zip(numeric.parameters.iter_mut()) {
        if p.name == "R" {
            *value = 0.25;
        }
    }
    let mut after = vec![0.0; n];
    let lambda = lagrange_into(&mut numeric, 0.0, &q, &v, &mut after).expect("solves").to_vec();
    let mut fresh = compiled(&text.replace("R = 0.1", "R = 0.25")).1;
    let want = by_nalgebra(&mut fresh, 0.0, &q, &v);
    assert_close(&after, &want.as_slice()[..n], 1e-11, "q̈ after R changed");
    assert_close(&lambda, &want.as_slice()[n..], 1e-11, "λ after R changed");
    assert!(after.iter().zip(&before).any(|(a, b)| (a - b).abs() > 1e-3), "R matters: {before:?} vs {after:?}");
}

/// A massless coordinate makes `M` singular, which the range-space method declines;
/// the constraint still fixes its motion, and the pivoted LU solves the system.
#[test]
fn a_singular_mass_matrix_falls_back_to_the_pivoted_lu() {
    let (_, mut numeric) = compiled(MASSLESS_COORDINATE);
    let (q, v) = ([0.7, 0.2], [0.3, 0.4]);
    let want = by_nalgebra(&mut numeric, 0.0, &q, &v);
    let mut qdd = [0.0; 2];
    let lambda = lagrange_into(&mut numeric, 0.0, &q, &v, &mut qdd).expect("solves").to_vec();
    assert_close(&qdd, &want.as_slice()[..2], 1e-11, "q̈");
    assert_close(&lambda, &want.as_slice()[2..], 1e-11, "λ");
    // By hand: λ = c (the massless y carries no force but λ), m ẍ = −k x − λ + … with ÿ = ẍ + 1.
    assert!((lambda[0] - 0.5).abs() < 1e-12, "{lambda:?}");
    assert!((qdd[0] - (-3.0 * 0.7 - 0.5) / 2.0).abs() < 1e-12, "{qdd:?}");
}

/// A particle on a 45° rail (`ẋ = ẏ`) under gravity and a spring on `x`: `M` and `A`
/// are fixed, so the solve is kept as a map, with the constant part of `F` (gravity)
/// folded into its offset and only the spring's column multiplied at each call.
/// By hand: `λ = (k x − m g)/2`, `ẍ = ÿ = −(g + k x/m)/2`. Changing `g` and `k`
/// (parameters) must rebuild the map and its offset.
#[test]
fn the_kept_map_folds_fixed_forces_and_follows_them() {
    let text = include_str!("../fixtures/a-particle-on-a-45-rail-with-a-spring.toml");
    let (model, mut numeric) = compiled(text);
    let by_hand = |m: f64, g: f64, k: f64, x: f64| ((-(g + k * x / m) / 2.0), (k * x - m * g) / 2.0);
    let set = |numeric: &mut NumericModel, name: &str, value: f64| {
        for (p, slot) in model.parameters.iter().zip(numeric.parameters.iter_mut()) {
            if p.name == name {
                *slot = value;
            }
        }
    };
    let mut qdd = [0.0; 2];
    for (k, g) in [(3.0, 9.81), (3.0, 1.62), (0.0, 1.62), (0.0, 9.81)] {
        set(&mut numeric, "k", k);
        set(&mut numeric, "g", g);
        for x in [0.7, -1.3, 2.0] {
            let (q, v) = ([x, 0.4], [0.3, 0.3]);
            let lambda = lagrange_into(&mut numeric, 0.0, &q, &v, &mut qdd).expect("solves").to_vec();
            let (a, l) = by_hand(2.0, g, k, x);
            let what = format!("k = {k}, g = {g}, x = {x}");
            assert!((qdd[0] - a).abs() < 1e-12 && (qdd[1] - a).abs() < 1e-12, "{what}: q̈ {qdd:?}, want {a}");
            assert!((lambda[0] - l).abs() < 1e-12, "{what}: λ {lambda:?}, want {l}");
        }
    }
}
