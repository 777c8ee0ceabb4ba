//! Linear stability from exact derivatives: the Jacobian against central
//! differences of the accelerations, the rolling disk's `v² > g r / 3`, and the
//! bicycle benchmark of Meijaard, Papadopoulos, Ruina & Schwab (2007): Table 2's
//! eigenvalues and the weave and capsize speeds, from the lab's nonlinear model.

use nalgebra::Complex;
use nhlab::formulations::{accelerations, Method};
use nhlab::mechanics::{Model, NumericModel};
use nhlab::stability::{jacobian, linearize, Derivatives, Reference};
use nhlab_tests::random::Rng;

fn compiled(name: &str) -> (Model, NumericModel, Derivatives) {
    let (model, numeric, _) = nhlab_tests::scenarios::load(name);
    let derivatives = Derivatives::new(&model).unwrap();
    (model, numeric, derivatives)
}

/// The exact `∂q̈/∂(q, v)` agrees with central differences of the accelerations
/// (h = 1e-5, error ~1e-9) at random states of systems with rolling bodies.
#[test]
fn the_exact_jacobian_agrees_with_central_differences() {
    for name in ["rolling-disk", "rattleback", "whipple-bicycle", "chaplygin-sleigh", "ball-in-cone"] {
        let (model, mut numeric, mut derivatives) = compiled(name);
        let n = model.coordinate_count();
        let mut rng = Rng::new(3);
        for _ in 0..3 {
            let q: Vec<f64> = (0..n).map(|_| rng.range(-0.5, 0.5)).collect();
            let v: Vec<f64> = (0..n).map(|_| rng.range(-1.0, 1.0)).collect();
            let exact = jacobian(&mut numeric, &mut derivatives, 0.0, &q, &v).unwrap();
            let h = 1e-5;
            for k in 0..2 * n {
                let mut shifted = |s: f64| {
                    let (mut q, mut v) = (q.clone(), v.clone());
                    if k < n {
                        q[k] += s
                    } else {
                        v[k - n] += s
                    }
                    accelerations(Method::Lagrange, &mut numeric, 0.0, &q, &v).unwrap().accelerations
                };
                let column = (shifted(h) - shifted(-h)) / (2.0 * h);
                for i in 0..n {
                    let (a, b) = (exact[(n + i, k)], column[i]);
                    assert!((a - b).abs() < 1e-6 * (1.0 + b.abs()), "{name} ∂q̈{i}/∂x{k}: exact {a}, differences {b}");
                }
            }
        }
    }
}

fn sorted_close(got: &[Complex<f64>], want: &[(f64, f64)], tolerance: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: {got:?}");
    for (g, (re, im)) in got.iter().zip(want) {
        assert!((g.re - re).abs() < tolerance && (g.im - im).abs() < tolerance, "{what}: {g} against {re} {im}i");
    }
}

/// The bicycle upright at speed `v`: lean, steer and their rates remain (position,
/// heading and wheel angles ignorable; the pitch dependent; the forward speed held).
fn bicycle_at(
    model: &Model,
    numeric: &mut NumericModel,
    derivatives: &mut Derivatives,
    speed: f64,
) -> nhlab::stability::Linearization {
    let r_r = model.scenario.parameters["rR"];
    let mut v = vec![0.0; 8];
    v[0] = speed;
    v[6] = speed / r_r;
    let rf = model.scenario.parameters["rF"];
    v[7] = speed / rf;
    let reference = Reference { t: 0.0, q: vec![0.0; 8], v, ignorable: vec![0, 1, 2, 6, 7] };
    linearize(model, numeric, derivatives, &reference).unwrap()
}

/// Table 2 of the benchmark at 5 m/s (castor, weave pair, capsize) to 1e-10, and
/// the weave and capsize speeds to 1e-10 by bisection on the eigenvalues.
#[test]
fn the_bicycle_reproduces_the_benchmark_eigenvalues_and_speeds() {
    let (model, mut numeric, mut derivatives) = compiled("whipple-bicycle");
    let l = bicycle_at(&model, &mut numeric, &mut derivatives, 5.0);
    assert_eq!(l.state, ["phi", "delta", "phi'", "delta'"], "{l:?}");
    assert_eq!(l.held_speeds, ["rear'"]);
    assert!(l.residual < 1e-12, "upright straight running is steady: {}", l.residual);
    sorted_close(
        &l.eigenvalues,
        &[
            (-14.07838969279822, 0.0),
            (-0.77534188219585, -4.46486771378823),
            (-0.77534188219585, 4.46486771378823),
            (-0.32286642900409, 0.0),
        ],
        1e-10,
        "5 m/s",
    );
    let mut crossing = |lo: f64, hi: f64, oscillatory: bool| {
        let mut part = |speed: f64| {
            let l = bicycle_at(&model, &mut numeric, &mut derivatives, speed);
            l.eigenvalues.iter().filter(|e| (e.im.abs() > 1e-3) == oscillatory).map(|e| e.re).fold(f64::MIN, f64::max)
        };
        let (mut lo, mut hi) = (lo, hi);
        let up = part(lo) > 0.0;
        assert_ne!(up, part(hi) > 0.0);
        for _ in 0..45 {
            let mid = (lo + hi) / 2.0;
            if (part(mid) > 0.0) == up {
                lo = mid
            } else {
                hi = mid
            }
        }
        (lo + hi) / 2.0
    };
    let weave = crossing(4.0, 4.6, true);
    let capsize = crossing(5.7, 6.3, false);
    assert!((weave - 4.29238253634111).abs() < 1e-10, "weave speed {weave}");
    assert!((capsize - 6.02426201538837).abs() < 1e-10, "capsize speed {capsize}");
}

/// The upright rolling disk at spin s: lean, lean rate and yaw rate remain (the
/// spin is held); eigenvalues 0 and ±√D, D = tr(J²)/2, and D changes sign exactly
/// at `(r s)² = g r / 3`.
#[test]
fn the_upright_disk_linearises_to_its_textbook_boundary() {
    let (model, mut numeric, mut derivatives) = compiled("rolling-disk");
    let [r, g] = ["r", "g"].map(|p| model.scenario.parameters[p]);
    let mut at = |spin: f64| {
        let reference =
            Reference { t: 0.0, q: vec![0.0; 5], v: vec![r * spin, 0.0, 0.0, 0.0, spin], ignorable: vec![0, 1, 2, 4] };
        linearize(&model, &mut numeric, &mut derivatives, &reference).unwrap()
    };
    let critical = (g / (3.0 * r)).sqrt();
    let l = at(critical);
    assert_eq!(l.state, ["theta", "psi'", "theta'"], "{l:?}");
    assert_eq!(l.held_speeds, ["phi'"]);
    let d = |l: &nhlab::stability::Linearization| (&l.matrix * &l.matrix).trace() / 2.0;
    assert!(d(&l).abs() < 1e-10, "D = {} at the critical spin", d(&l));
    assert!(d(&at(1.01 * critical)) < 0.0 && d(&at(0.99 * critical)) > 0.0);
    let fast = at(2.0 * critical);
    assert!(fast.eigenvalues.iter().all(|e| e.re.abs() < 1e-10), "neutral: {:?}", fast.eigenvalues);
    // The closed form: λ² = (4g/r − 12u²)/5 at spin u.
    for u in [0.0, 1.0, 2.5, 4.0, 9.0] {
        let l = at(u);
        let square = (4.0 * g / r - 12.0 * u * u) / 5.0;
        let want: Vec<(f64, f64)> = if square >= 0.0 {
            vec![(-square.sqrt(), 0.0), (square.sqrt(), 0.0)]
        } else {
            vec![(0.0, -(-square).sqrt()), (0.0, (-square).sqrt())]
        };
        // The zero of the neighbouring steady turns, unless the yaw rate is held
        // (without spin nothing couples to it).
        let zeros = l.eigenvalues.iter().filter(|e| e.norm() < 1e-9).count();
        assert_eq!(zeros, if u == 0.0 { 0 } else { 1 }, "u = {u}: {:?} {:?}", l.eigenvalues, l.held_speeds);
        let mut got: Vec<_> = l.eigenvalues.iter().copied().filter(|e| e.norm() >= 1e-9).collect();
        got.sort_by(|a, b| (a.re + a.im).total_cmp(&(b.re + b.im)));
        sorted_close(&got, &want, 1e-9, &format!("u = {u}"));
    }
}

/// A coordinate that the equations depend on is refused as ignorable, by name.
#[test]
fn a_coordinate_that_matters_is_not_ignorable() {
    let (model, mut numeric, mut derivatives) = compiled("rolling-disk");
    let reference =
        Reference { t: 0.0, q: vec![0.0, 0.0, 0.0, 0.2, 0.0], v: vec![1.8, 0.0, 0.0, 0.0, 6.0], ignorable: vec![3] };
    let e = linearize(&model, &mut numeric, &mut derivatives, &reference).unwrap_err();
    assert!(e.to_string().contains("`theta` is not ignorable"), "{e}");
}
