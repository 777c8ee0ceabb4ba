//! Linear stability from exact derivatives: the Jacobian against central
//! differences of the accelerations, the rolling disk's `v² > g r / 3`, and the
//! bicycle benchmark of Meijaard, Papadopoulos, Ruina & Schwab (2007): Table 2's
//! eigenvalues and the weave and capsize speeds, from the lab's nonlinear model.

use nalgebra::Complex;
use nhlab::formulations::{accelerations, Method};
use nhlab::mechanics::{Model, NumericModel};
use nhlab::scenario::{load_toml, SourceMap, StabilitySpec, SweepSpec};
use nhlab::stability::{eigenvectors, jacobian, linearize, Derivatives, Reference, Study};
use nhlab_tests::random::Rng;
use nhlab_tests::scenarios::linearisable;

/// The exact Jacobian at `(q, v)` of a compiled model.
type ExactJacobian<'a> = dyn FnMut(&mut NumericModel, &[f64], &[f64]) -> nalgebra::DMatrix<f64> + 'a;

/// `exact(q, v)`, the Jacobian `∂(v, q̈)/∂(q, v)`, agrees with central differences
/// of `method`'s accelerations (h = 1e-5, error ~1e-9) at 3 random states near the
/// initial state of scenario `name` (inside every model's domain: roots, radii).
fn agrees_with_differences(
    name: &str,
    method: Method,
    numeric: &mut NumericModel,
    initial: &nhlab::simulation::State,
    exact: &mut ExactJacobian,
) {
    let n = initial.q.len();
    let mut rng = Rng::new(3);
    for _ in 0..3 {
        let q: Vec<f64> = initial.q.iter().map(|x| x + rng.range(-0.1, 0.1)).collect();
        let v: Vec<f64> = initial.v.iter().map(|x| x + rng.range(-0.2, 0.2)).collect();
        let jacobian = exact(numeric, &q, &v);
        let h = 1e-5;
        for k in 0..2 * n {
            let mut shifted = |s: f64| {
                let (mut q, mut v) = (q.clone(), v.clone());
                if k < n {
                    q[k] += s
                } else {
                    v[k - n] += s
                }
                accelerations(method, numeric, 0.0, &q, &v).unwrap().accelerations
            };
            let column = (shifted(h) - shifted(-h)) / (2.0 * h);
            for i in 0..n {
                let (a, b) = (jacobian[(n + i, k)], column[i]);
                assert!(
                    (a - b).abs() < 1e-6 * (1.0 + b.abs()),
                    "{name} {method:?} ∂q̈{i}/∂x{k}: exact {a}, differences {b}"
                );
            }
        }
    }
}

/// Lagrange's exact Jacobian on every gallery item.
#[test]
fn the_exact_jacobian_agrees_with_central_differences() {
    for name in nhlab_tests::scenarios::names() {
        let (model, mut numeric, initial) = nhlab_tests::scenarios::load(&name);
        // Perturbed states leave redundant constraints, where no accelerations meet
        // them all (the robot's linearisation is tested in `redundant.rs`).
        if nhlab_tests::scenarios::redundant(&model) {
            continue;
        }
        let mut derivatives = Derivatives::new(&model).unwrap();
        let mut exact = |numeric: &mut NumericModel, q: &[f64], v: &[f64]| {
            jacobian(Method::Lagrange, numeric, &mut derivatives, 0.0, q, v).unwrap()
        };
        agrees_with_differences(&name, Method::Lagrange, &mut numeric, &initial, &mut exact);
    }
}

/// `got` equals `want` as a multiset, each within `tolerance`.
fn same_eigenvalues(got: &[Complex<f64>], want: &[(f64, f64)], tolerance: f64, what: &str) {
    assert_eq!(got.len(), want.len(), "{what}: {got:?}");
    let mut used = vec![false; got.len()];
    for &(re, im) in want {
        let k = (0..got.len()).find(|&k| !used[k] && (got[k] - Complex::new(re, im)).norm() < tolerance);
        let k = k.unwrap_or_else(|| panic!("{what}: {re} {im}i not among {got:?}"));
        used[k] = true;
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
    let reference =
        Reference { t: 0.0, q: vec![0.0; 8], v, ignorable: vec![0, 1, 2, 6, 7], hold: None, dependent: None };
    linearize(Method::Lagrange, model, numeric, derivatives, &reference).unwrap()
}

/// Table 2 of the benchmark at 5 m/s (castor, weave pair, capsize) to 1e-10, and
/// the weave and capsize speeds to 1e-10 by bisection on the eigenvalues.
#[test]
fn the_bicycle_reproduces_the_benchmark_eigenvalues_and_speeds() {
    let (model, mut numeric, mut derivatives) = linearisable("whipple-bicycle");
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
    let (model, mut numeric, mut derivatives) = linearisable("rolling-disk");
    let [r, g] = ["r", "g"].map(|p| model.scenario.parameters[p]);
    let mut at = |spin: f64| {
        let reference = Reference {
            t: 0.0,
            q: vec![0.0; 5],
            v: vec![r * spin, 0.0, 0.0, 0.0, spin],
            ignorable: vec![0, 1, 2, 4],
            hold: None,
            dependent: None,
        };
        linearize(Method::Lagrange, &model, &mut numeric, &mut derivatives, &reference).unwrap()
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
    let (model, mut numeric, mut derivatives) = linearisable("rolling-disk");
    let reference = Reference {
        t: 0.0,
        q: vec![0.0, 0.0, 0.0, 0.2, 0.0],
        v: vec![1.8, 0.0, 0.0, 0.0, 6.0],
        ignorable: vec![3],
        hold: None,
        dependent: None,
    };
    let e = linearize(Method::Lagrange, &model, &mut numeric, &mut derivatives, &reference).unwrap_err();
    assert!(e.to_string().contains("`theta` is not ignorable"), "{e}");
}

/// A scenario from its text, with its compiled derivatives and source map.
fn from_text(text: &str) -> (Model, NumericModel, Derivatives, SourceMap) {
    let (scenario, map) = load_toml(text).unwrap();
    let (model, numeric, _) = nhlab_tests::scenarios::build(&scenario, &map);
    let derivatives = Derivatives::new(&model).unwrap();
    (model, numeric, derivatives, map)
}

/// The scenario's own `[stability]` study.
fn study_of(model: &Model) -> Study {
    Study::new(model, model.scenario.stability.as_ref().expect("a [stability] table")).unwrap()
}

/// The pendulum in Cartesian coordinates at the bottom: the rod's holonomic
/// constraint makes `y` dependent, and `x` oscillates at `±i √(g/L)`.
#[test]
fn a_pendulum_linearises_to_its_frequency() {
    let (mut model, mut numeric, mut derivatives) = linearisable("pendulum-cartesian");
    let map = SourceMap::default();
    let [g, l] = ["g", "L"].map(|p| model.scenario.parameters[p]);
    let spec = StabilitySpec {
        at: [("x".to_string(), 0.0), ("y".to_string(), -l), ("x'".to_string(), 0.0)].into_iter().collect(),
        ..StabilitySpec::default()
    };
    let mut study = Study::new(&model, &spec).unwrap();
    let lin = study.at(&mut model, &mut numeric, &mut derivatives, &map, None).unwrap();
    assert_eq!(lin.dependent_coordinates, ["y"]);
    assert_eq!(lin.state, ["x", "x'"]);
    let w = (g / l).sqrt();
    sorted_close(&lin.eigenvalues, &[(0.0, -w), (0.0, w)], 1e-12, "pendulum");
    // At the top it is unstable: ±√(g/L).
    study.at = vec![("x".into(), 0.0), ("y".into(), l), ("x'".into(), 0.0)];
    let top = study.at(&mut model, &mut numeric, &mut derivatives, &map, None).unwrap();
    sorted_close(&top.eigenvalues, &[(-w, 0.0), (w, 0.0)], 1e-12, "inverted pendulum");
}

/// Two masses on springs (the normal modes `ω² = (3 ± √5)/2`) and a damped
/// oscillator (`λ = −c/2m ± i √(k/m − c²/4m²)`), with their eigenvectors.
#[test]
fn springs_and_dampers_have_their_closed_form_eigenvalues() {
    let text = include_str!("../fixtures/two-masses-and-a-damped-oscillator.toml");
    let (mut model, mut numeric, mut derivatives, map) = from_text(text);
    let mut study = Study::new(&model, &StabilitySpec::default()).unwrap();
    let lin = study.at(&mut model, &mut numeric, &mut derivatives, &map, None).unwrap();
    let (w1, w2) = (((3.0 - 5f64.sqrt()) / 2.0).sqrt(), ((3.0 + 5f64.sqrt()) / 2.0).sqrt());
    let (m, k, c): (f64, f64, f64) = (2.0, 8.0, 0.6);
    let (re, im) = (-c / (2.0 * m), (k / m - c * c / (4.0 * m * m)).sqrt());
    let want = [(0.0, -w1), (0.0, w1), (0.0, -w2), (0.0, w2), (re, -im), (re, im)];
    same_eigenvalues(&lin.eigenvalues, &want, 1e-12, "springs");
    // Each eigenvector v satisfies J v = λ v, and is normalised to a largest component of 1.
    for (lambda, v) in lin.eigenvalues.iter().zip(eigenvectors(&lin)) {
        let k = v.len();
        let largest = v.iter().map(|x| x.norm()).fold(0.0, f64::max);
        assert!((largest - 1.0).abs() < 1e-12);
        for r in 0..k {
            let jv: Complex<f64> = (0..k).map(|c| v[c] * lin.matrix[(r, c)]).sum();
            assert!((jv - lambda * v[r]).norm() < 1e-10, "λ = {lambda}: row {r}");
        }
    }
}

/// The Chaplygin sleigh running straight at speed u: turning perturbations die
/// out at `−m a u / (I + m a²)` (the heading is neutral, the speed held); running
/// backwards they grow.
#[test]
fn the_sleigh_running_straight_is_stable_forwards_only() {
    let (mut model, mut numeric, mut derivatives) = linearisable("chaplygin-sleigh");
    let map = SourceMap::default();
    let [m, a, i] = ["m", "a", "I"].map(|p| model.scenario.parameters[p]);
    let spec = StabilitySpec {
        at: [("phi".to_string(), 0.0), ("phi'".to_string(), 0.0)].into_iter().collect(),
        ignorable: vec!["x".into(), "y".into()],
        sweep: Some(SweepSpec { over: "x'".into(), from: -2.0, to: 2.0, step: 0.5, axis: None }),
        ..StabilitySpec::default()
    };
    let mut study = Study::new(&model, &spec).unwrap();
    let sweep = study.run(&mut model, &mut numeric, &mut derivatives, &map).unwrap();
    for (u, lin) in sweep.values.iter().zip(&sweep.rows) {
        assert_eq!(lin.state, ["phi", "phi'"], "u = {u}");
        let mut got: Vec<f64> = lin.eigenvalues.iter().map(|e| e.re).collect();
        let mut want = vec![0.0, -m * a * u / (i + m * a * a)];
        got.sort_by(f64::total_cmp);
        want.sort_by(f64::total_cmp);
        assert!(lin.eigenvalues.iter().all(|e| e.im == 0.0));
        assert!((got[0] - want[0]).abs() < 1e-12 && (got[1] - want[1]).abs() < 1e-12, "u = {u}: {got:?} {want:?}");
    }
    // One boundary, at rest, where it turns stable.
    assert_eq!(sweep.boundaries.len(), 1, "{:?}", sweep.boundaries);
    assert!(sweep.boundaries[0].becomes_stable && sweep.boundaries[0].value.abs() < 1e-9);
}

/// The disk's own `[stability]` table: the sweep over the spin finds `s² = g/(3r)`
/// to round-off (the pair passes through a double zero, where eigenvalues are only
/// √ε-accurate: the boundary comes from the characteristic coefficients), and the
/// tracks are continuous.
#[test]
fn the_disk_sweep_finds_its_boundary_to_round_off() {
    let (mut model, mut numeric, mut derivatives) = linearisable("rolling-disk");
    let map = SourceMap::default();
    let [r, g] = ["r", "g"].map(|p| model.scenario.parameters[p]);
    let mut study = study_of(&model);
    let sweep = study.run(&mut model, &mut numeric, &mut derivatives, &map).unwrap();
    assert_eq!(sweep.values.len(), 1001);
    assert_eq!(sweep.boundaries.len(), 1, "{:?}", sweep.boundaries);
    let b = sweep.boundaries[0];
    assert!(b.becomes_stable && b.refined);
    assert!((b.value - (g / (3.0 * r)).sqrt()).abs() < 1e-10, "{}", b.value);
    for w in sweep.rows.windows(2) {
        for (a, b) in w[0].eigenvalues.iter().zip(&w[1].eigenvalues) {
            assert!((a - b).norm() < 0.5, "a track jumps: {a} → {b}");
        }
    }
}

/// The bicycle's own `[stability]` table: the weave and capsize speeds to 1e-9 from
/// the 1,000-point sweep over the rear wheel's rate.
#[test]
fn the_bicycle_sweep_finds_the_weave_and_capsize_speeds() {
    let (mut model, mut numeric, mut derivatives) = linearisable("whipple-bicycle");
    let map = SourceMap::default();
    let r_r = model.scenario.parameters["rR"];
    let mut study = study_of(&model);
    let sweep = study.run(&mut model, &mut numeric, &mut derivatives, &map).unwrap();
    let speeds: Vec<(f64, bool)> = sweep.boundaries.iter().map(|b| (b.value * r_r, b.becomes_stable)).collect();
    assert_eq!(speeds.len(), 2, "{speeds:?}");
    assert!(speeds[0].1 && (speeds[0].0 - 4.29238253634111).abs() < 1e-9, "weave {speeds:?}");
    assert!(!speeds[1].1 && (speeds[1].0 - 6.02426201538837).abs() < 1e-9, "capsize {speeds:?}");
}

/// Hamel's embedding has its own exact Jacobian (from its `Ψ` and `G`).
#[test]
fn hamels_exact_jacobian_agrees_with_central_differences() {
    for name in ["chaplygin-sleigh", "knife-edge-incline", "ball-on-turntable", "rolling-disk"] {
        let (model, mut numeric, initial) = nhlab_tests::scenarios::load(name);
        let mut derivatives = Derivatives::with_hamel(&model).unwrap().expect("a Hamel split");
        let mut exact = |numeric: &mut NumericModel, q: &[f64], v: &[f64]| {
            jacobian(Method::Hamel, numeric, &mut derivatives, 0.0, q, v).unwrap()
        };
        agrees_with_differences(name, Method::Hamel, &mut numeric, &initial, &mut exact);
    }
}

/// The sleigh running straight at speed u. Truly, turning dies out at
/// `−m a u/(I + m a²)`. Hamel's embedding (with `y` dependent) is Lagrange's
/// equations of `T* = m x'²/(2 cos²φ) + (I + m a²) φ'²/2`, so
/// `(I + m a²) φ̈ = m x'² sin φ / cos³ φ`: a saddle, `±u √(m/(I + m a²))`. Its E-vector
/// vanishes on the straight line but not its derivatives, and the two differ.
#[test]
fn hamels_sleigh_linearises_to_a_saddle_where_the_true_one_is_stable() {
    let (mut model, mut numeric, _) = nhlab_tests::scenarios::load("chaplygin-sleigh");
    let map = SourceMap::default();
    let [m, a, i] = ["m", "a", "I"].map(|p| model.scenario.parameters[p]);
    let u = 1.5;
    let at = |method: &str| StabilitySpec {
        method: Some(method.into()),
        at: [("phi".to_string(), 0.0), ("phi'".to_string(), 0.0), ("x'".to_string(), u)].into_iter().collect(),
        ignorable: vec!["x".into(), "y".into()],
        ..StabilitySpec::default()
    };
    let mut linearised = |method: &str| {
        let mut study = Study::new(&model, &at(method)).unwrap();
        let mut derivatives = study.derivatives(&model).unwrap();
        study.at(&mut model, &mut numeric, &mut derivatives, &map, None).unwrap()
    };
    let truth = linearised("lagrange");
    let hamel = linearised("hamel");
    assert_eq!(truth.state, ["phi", "phi'"]);
    assert_eq!(hamel.state, ["phi", "phi'"]);
    same_eigenvalues(&truth.eigenvalues, &[(0.0, 0.0), (-m * a * u / (i + m * a * a), 0.0)], 1e-12, "true sleigh");
    let s = u * (m / (i + m * a * a)).sqrt();
    same_eigenvalues(&hamel.eigenvalues, &[(-s, 0.0), (s, 0.0)], 1e-12, "Hamel's sleigh");
}

/// The benchmark's published linear equations (Meijaard et al. 2007, eq. 5.4 with
/// their Appendix's values): `M q̈ + v C₁ q̇ + (g K₀ + v² K₂) q = 0` in lean and steer.
/// Their eigenvalues reproduce the paper's Table 2 at 5 m/s and its weave and capsize
/// speeds (checked here first); the lab's nonlinear bicycle, linearised, gives the same
/// eigenvalues at every speed of Table 2, 0 to 10 m/s.
#[test]
fn the_bicycle_matches_the_published_linear_equations_from_0_to_10_m_s() {
    use nalgebra::{Matrix2, Matrix4};
    let m = Matrix2::new(80.81722, 2.31941332208709, 2.31941332208709, 0.29784188199686);
    let c1 = Matrix2::new(0.0, 33.86641391492494, -0.85035641456978, 1.68540397397560);
    let k0 = Matrix2::new(-80.95, -2.59951685249872, -2.59951685249872, -0.80329488458618);
    let k2 = Matrix2::new(0.0, 76.59734589573222, 0.0, 2.65431523794604);
    let published = |v: f64| -> Vec<Complex<f64>> {
        let mi = m.try_inverse().unwrap();
        let (stiffness, damping) = (-mi * (k0 * 9.81 + k2 * (v * v)), -mi * (c1 * v));
        let mut a = Matrix4::zeros();
        a.fixed_view_mut::<2, 2>(0, 2).copy_from(&Matrix2::identity());
        a.fixed_view_mut::<2, 2>(2, 0).copy_from(&stiffness);
        a.fixed_view_mut::<2, 2>(2, 2).copy_from(&damping);
        a.complex_eigenvalues().iter().copied().collect()
    };
    let table_at_5 = [
        (-14.07838969279822, 0.0),
        (-0.77534188219585, -4.46486771378823),
        (-0.77534188219585, 4.46486771378823),
        (-0.32286642900409, 0.0),
    ];
    same_eigenvalues(&published(5.0), &table_at_5, 1e-10, "the published matrices at 5 m/s");
    let largest = |e: &[Complex<f64>], oscillatory: bool| {
        e.iter().filter(|x| (x.im.abs() > 1e-6) == oscillatory).map(|x| x.re).fold(f64::MIN, f64::max)
    };
    assert!(largest(&published(4.29238253634111), true).abs() < 1e-9, "the weave speed");
    assert!(largest(&published(6.02426201538837), false).abs() < 1e-9, "the capsize speed");
    let (model, mut numeric, mut derivatives) = linearisable("whipple-bicycle");
    for v in 0..=10 {
        let v = v as f64;
        let lab = bicycle_at(&model, &mut numeric, &mut derivatives, v);
        let want: Vec<(f64, f64)> = published(v).iter().map(|e| (e.re, e.im)).collect();
        same_eigenvalues(&lab.eigenvalues, &want, 1e-10, &format!("{v} m/s"));
    }
}

/// The user's choice of dependent coordinates is taken: a pendulum whose gravity
/// points along the diagonal hangs at `−L(1, 1)/√2`, where either coordinate can be
/// solved from the rod; both charts give `±i √(g/L)`. Where the chosen one cannot be
/// solved for (`y` with the pendulum along the x axis), that is said plainly.
#[test]
fn the_dependent_coordinates_can_be_chosen() {
    let text = include_str!("../fixtures/diagonal-pendulum.toml");
    let (mut model, mut numeric, mut derivatives, map) = from_text(text);
    let at =
        |x: f64, y: f64| [("x".to_string(), x), ("y".to_string(), y), ("x'".to_string(), 0.0)].into_iter().collect();
    let h = 2f64.sqrt();
    let mut linearised = |dependent: &str, x: f64, y: f64| {
        let spec =
            StabilitySpec { at: at(x, y), dependent: Some(vec![dependent.to_string()]), ..StabilitySpec::default() };
        let mut study = Study::new(&model, &spec).unwrap();
        study.at(&mut model, &mut numeric, &mut derivatives, &map, None)
    };
    let w = (9.81f64 / 2.0).sqrt();
    for (dependent, independent) in [("x", "y"), ("y", "x")] {
        let lin = linearised(dependent, -h, -h).unwrap();
        assert_eq!(lin.dependent_coordinates, [dependent]);
        assert_eq!(lin.state, [independent.to_string(), format!("{independent}'")]);
        same_eigenvalues(&lin.eigenvalues, &[(0.0, -w), (0.0, w)], 1e-12, dependent);
    }
    let e = linearised("y", -2.0, 0.0).unwrap_err();
    assert_eq!(e.to_string(), "the dependent coordinates given: the constraints cannot be solved for them here");
    assert_eq!((e.why.id, e.why.parts[0].1.id), ("stability.dependent", "stability.dependent.unsolvable"));
}

/// The eigenvalues `±i ωⱼ` of `n` identical pendula (`g/l = g`) coupled by springs `k`
/// between neighbours, in a chain (`ωⱼ² = g + 4k sin²(jπ/2n)`) or a ring
/// (`ωⱼ² = g + 4k sin²(jπ/n)`, twice each but one or two): the closed form of
/// `[[0, I], [−K, 0]]` with `K = g I + k L`, `L` the graph Laplacian.
fn pendula_frequencies(n: usize, g: f64, k: f64, ring: bool) -> Vec<(f64, f64)> {
    let mut want = Vec::new();
    for j in 0..n {
        let angle = if ring {
            j as f64 * std::f64::consts::PI / n as f64
        } else {
            j as f64 * std::f64::consts::PI / (2 * n) as f64
        };
        let w = (g + 4.0 * k * angle.sin().powi(2)).sqrt();
        want.extend([(0.0, w), (0.0, -w)]);
    }
    want
}

/// `[[0, I], [−K, 0]]` for the pendula of [`pendula_frequencies`].
fn pendula_matrix(n: usize, g: f64, k: f64, ring: bool) -> nalgebra::DMatrix<f64> {
    let mut a = nalgebra::DMatrix::zeros(2 * n, 2 * n);
    let mut springs: Vec<(usize, usize)> = (1..n).map(|i| (i - 1, i)).collect();
    if ring {
        springs.push((n - 1, 0));
    }
    for i in 0..n {
        a[(i, n + i)] = 1.0;
        a[(n + i, i)] = -g;
    }
    for (i, j) in springs {
        for (p, q, s) in [(i, i, -k), (j, j, -k), (i, j, k), (j, i, k)] {
            a[(n + p, q)] += s;
        }
    }
    a
}

/// Chains and rings of 2–50 pendula, uncoupled too (every frequency repeated `n`
/// times): repeated pairs are ordinary in symmetric systems, and the eigen-solver
/// finds them all, to round-off. (nalgebra's `complex_eigenvalues` gave NaN for
/// nearly equal real pairs and looped for ever on some repeated eigenvalues.)
#[test]
fn chains_and_rings_of_2_to_50_pendula_have_their_closed_form_frequencies() {
    for n in 2..=50 {
        for (k, ring) in [(2.0, false), (2.0, true), (0.0, false), (0.3, true)] {
            let ring = ring && n > 2; // two pendula in a ring are a chain
            let got = nhlab::math::eigenvalues(&pendula_matrix(n, 9.81, k, ring)).unwrap();
            let what = format!("{n} pendula, k = {k}, ring: {ring}");
            same_eigenvalues(&got, &pendula_frequencies(n, 9.81, k, ring), 1e-6, &what);
        }
    }
}

/// Repeated real and complex eigenvalues, and Jordan blocks, in random bases
/// (`S D S⁻¹`): every eigenvalue finite and where it belongs. A 12×12 identity in a
/// random basis never returned from nalgebra's Schur iteration.
#[test]
fn repeated_eigenvalues_in_random_bases_are_found() {
    let mut rng = Rng::new(17);
    for trial in 0..600 {
        let n = 2 + trial % 14;
        let mut d = nalgebra::DMatrix::zeros(n, n);
        let mut want = Vec::new();
        let kind = trial % 4;
        for i in 0..n {
            let value = match kind {
                0 => 1.0,
                1 => (i / 2) as f64,
                2 => (i % 3) as f64,
                _ => 0.0,
            };
            d[(i, i)] = value;
            want.push((value, 0.0));
        }
        if kind == 3 {
            // Rotation blocks ±2i, repeated.
            for i in (0..n - 1).step_by(2) {
                (d[(i, i + 1)], d[(i + 1, i)]) = (-2.0, 2.0);
                (want[i], want[i + 1]) = ((0.0, 2.0), (0.0, -2.0));
            }
        }
        let s = nalgebra::DMatrix::from_fn(n, n, |_, _| rng.range(-1.0, 1.0));
        let Some(inverse) = s.clone().try_inverse() else { continue };
        let condition = s.norm() * inverse.norm();
        if condition > 1e4 {
            continue;
        }
        let got = nhlab::math::eigenvalues(&(&s * &d * &inverse)).unwrap();
        same_eigenvalues(&got, &want, 1e-12 * condition * condition + 1e-9, &format!("trial {trial}, n = {n}"));
    }
}

/// The pendula again as a scenario, through the whole route (`θᵢ`, `V = g(1 − cos θᵢ)
/// + k/2 (θᵢ₊₁ − θᵢ)²`): ten coupled pendula and the 45 at the linearisation's limit.
#[test]
fn coupled_pendula_scenarios_linearise_to_their_frequencies() {
    for (n, ring) in [(10, false), (10, true), (45, true)] {
        let names: Vec<String> = (0..n).map(|i| format!("a{i}")).collect();
        let list = |f: &dyn Fn(&str) -> String, sep: &str| names.iter().map(|x| f(x)).collect::<Vec<_>>().join(sep);
        let mut potential = list(&|x| format!("g*(1 - cos({x}))"), " + ");
        for i in 1..n {
            potential += &format!(" + k/2*(a{i} - a{})^2", i - 1);
        }
        if ring {
            potential += &format!(" + k/2*(a0 - a{})^2", n - 1);
        }
        let text = format!(
            "format = \"nhlab/1\"\ntitle = \"pendula\"\ncoordinates = [{}]\nkinetic = \"({})/2\"\npotential = \"{potential}\"\n\
             [parameters]\ng = 9.81\nk = 2\n[initial]\nq = {{ {} }}\nv = {{ {} }}\n",
            list(&|x| format!("\"{x}\""), ", "),
            list(&|x| format!("{x}'^2"), " + "),
            list(&|x| format!("{x} = 0"), ", "),
            list(&|x| format!("{x} = 0"), ", "),
        );
        let (mut model, mut numeric, mut derivatives, map) = from_text(&text);
        let mut study = Study::new(&model, &StabilitySpec::default()).unwrap();
        let lin = study.at(&mut model, &mut numeric, &mut derivatives, &map, None).unwrap();
        same_eigenvalues(&lin.eigenvalues, &pendula_frequencies(n, 9.81, 2.0, ring), 1e-8, &format!("{n} pendula"));
    }
}

/// Issue 35.13: a sweep too fine to make says how many values it asked for in a
/// short form (`1e300 values`), not as a 301-digit number.
#[test]
fn a_sweep_with_too_many_values_says_how_many_briefly() {
    let sweep = |step: f64| SweepSpec { over: "k".into(), from: 0.0, to: 1.0, step, axis: None }.values();
    assert_eq!(sweep(1e-300).unwrap_err().english, "1e300 values; at most 10000");
    assert_eq!(sweep(1e-5).unwrap_err().english, "100001 values; at most 10000");
    assert_eq!(sweep(0.25).unwrap(), [0.0, 0.25, 0.5, 0.75, 1.0]);
}
