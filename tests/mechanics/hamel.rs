//! Hamel's embedding and the E-vector: against hand derivations from the
//! definitions (never the paper's printed E) and against the relations that must
//! hold between Hamel, the true motion and Gauss's compulsion.

use nhlab::expr::ParseOptions;
use nhlab::formulations::{accelerations, compulsion, e_vector, Method};
use nhlab::mechanics::{Model, NumericModel};
use nhlab::scenario::{ConstraintSpec, Scenario, SourceMap};
use proptest::prelude::*;

fn particle(coords: &[&str], mass: &str, constraint: &str, forces: &[(&str, &str)], dependent: &[&str]) -> Scenario {
    let mut s = Scenario {
        format: "nhlab/1".into(),
        title: "particle".into(),
        coordinates: coords.iter().map(|c| c.to_string()).collect(),
        kinetic: Some(format!(
            "{mass}/2*({})",
            coords.iter().map(|c| format!("{c}'^2")).collect::<Vec<_>>().join(" + ")
        )),
        constraints: vec![ConstraintSpec { name: None, expr: constraint.into() }],
        ..Scenario::default()
    };
    for (q, f) in forces {
        s.forces.insert(q.to_string(), f.to_string());
    }
    for (i, c) in coords.iter().enumerate() {
        s.initial.q.insert(c.to_string(), 0.5 + i as f64 * 0.3);
    }
    s.hamel = Some(nhlab::scenario::HamelSpec { dependent: dependent.iter().map(|d| d.to_string()).collect() });
    s
}

/// The model's symbolic E equals the hand-derived expressions.
fn assert_e(s: &Scenario, expected: &[&str]) {
    let mut model = Model::build(s, &SourceMap::none()).unwrap_or_else(|e| panic!("{e}"));
    let split = model.hamel.clone().unwrap();
    for (k, want) in expected.iter().enumerate() {
        let w = model.hamel_graph.as_mut().unwrap().parse_with(want, ParseOptions::default()).unwrap();
        let w = model.hamel_graph.as_mut().unwrap().expand(w);
        assert_eq!(split.e[k], w, "E[{k}] = {} vs {want}", model.hamel_graph.as_ref().unwrap().to_text(split.e[k]));
    }
}

/// Paper 000 example 3: unit particle on a circle, `xẋ + yẏ = 0`, `q₁ = x`:
/// Hamel fails under a holonomic constraint. By hand: `E = −y³ẏ²/x⁴`.
#[test]
fn example_3_holonomic_with_nonzero_e() {
    assert_e(&particle(&["x", "y"], "1", "x*x' + y*y'", &[], &["x"]), &["-y^3*y'^2/x^4"]);
}

/// Paper 000 examples 4–6: `ẋ − zẏ = 0`, `q₁ = x`. By hand (mass m, `Q_x = −ẏż`):
/// `Ψ = diag(m(1 + z²), m)`, `G = (−2mzẏż, mzẏ²)`, `H = (−mzẏż + zQ_x, 0)`.
#[test]
fn examples_4_to_6_the_same_constraint_on_different_models() {
    // Example 4: unit mass with Q_x = −ẏż: the first component vanishes, the second
    // (Hamel's z'' = zẏ² against the true z'' = 0) does not: no force can cancel it.
    assert_e(&particle(&["x", "y", "z"], "1", "x' - z*y'", &[("x", "-y'*z'")], &["x"]), &["0", "z*y'^2"]);
    // Example 5: mass m with the same force: E_y = (1 − m) z ẏ ż.
    let mut s = particle(&["x", "y", "z"], "m", "x' - z*y'", &[("x", "-y'*z'")], &["x"]);
    s.parameters.insert("m".into(), 2.0);
    assert_e(&s, &["(1 - m)*z*y'*z'", "m*z*y'^2"]);
    // Example 6: unit mass, no force.
    assert_e(&particle(&["x", "y", "z"], "1", "x' - z*y'", &[], &["x"]), &["-z*y'*z'", "z*y'^2"]);
}

fn random_scenario(seed: u64) -> Scenario {
    let mut r = nhlab_tests::random::Rng::new(seed);
    let c = |r: &mut nhlab_tests::random::Rng| format!("{:.3}", r.range(0.2, 1.5));
    let mut s = Scenario {
        format: "nhlab/1".into(),
        title: "random".into(),
        coordinates: vec!["x".into(), "y".into(), "phi".into()],
        kinetic: Some(format!(
            "{}/2*(x'^2 + y'^2) + {}/2*phi'^2 + {}*x'*phi'*cos(phi) + {}*y'^2*sin(x)^2",
            c(&mut r),
            c(&mut r),
            r.range(-0.2, 0.2),
            c(&mut r)
        )),
        potential: Some(format!("{}*x + {}*cos(phi)*y", c(&mut r), c(&mut r))),
        constraints: vec![ConstraintSpec {
            name: None,
            expr: format!("{}*x'*sin(phi) + (2 + cos(x))*y' + {}*phi'*x + {}*sin(t)", c(&mut r), c(&mut r), c(&mut r)),
        }],
        ..Scenario::default()
    };
    for q in ["x", "y", "phi"] {
        s.initial.q.insert(q.into(), 0.1);
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, failure_persistence: None, rng_seed: proptest::test_runner::RngSeed::Fixed(11), ..ProptestConfig::default() })]

    /// `Ψ (q̈₂ᴴ − q̈₂) = E`, the excess compulsion is `½ Eᵀ Ψ⁻¹ E`, and voronets
    /// equals the true motion — on random rheonomic systems, at random states on the
    /// constraint.
    #[test]
    fn hamel_differs_from_the_truth_by_exactly_e(seed in any::<u64>(), state in proptest::collection::vec(-0.5f64..0.5, 6)) {
        let s = random_scenario(seed);
        let model = Model::build(&s, &SourceMap::none()).unwrap();
        let mut numeric = NumericModel::new(&model).unwrap();
        let (t, q) = (state[0], &state[1..4]);
        // Velocities on the constraint: x', φ' given, y' (the dependent one) solved.
        let mut v = vec![state[4], 0.0, state[5]];
        let f0 = numeric.evaluate(t, q, &v).unwrap();
        let (f, a_y) = (f0.residuals[0], f0.jacobian[(0, 1)]);
        v[1] = -f / a_y;
        let truth = accelerations(Method::Lagrange, &mut numeric, t, q, &v).unwrap().accelerations;
        let voronets = accelerations(Method::Voronets, &mut numeric, t, q, &v).unwrap().accelerations;
        prop_assert!((&voronets - &truth).amax() < 1e-9 * (1.0 + truth.amax()), "voronets {voronets} vs {truth}");
        let hamel = accelerations(Method::Hamel, &mut numeric, t, q, &v).unwrap().accelerations;
        let nhlab::formulations::EVector { independent, values: e } = e_vector(&mut numeric, t, q, &v).unwrap().unwrap();
        let h = numeric.hamel_terms(t, q, &v).unwrap().unwrap().clone();
        let diff = nalgebra::DVector::from_iterator(independent.len(), independent.iter().map(|&i| hamel[i] - truth[i]));
        let psi_diff = &h.psi * &diff;
        prop_assert!((&psi_diff - &e).amax() < 1e-8 * (1.0 + e.amax()), "Ψ Δq̈₂ = {psi_diff} vs E = {e}");
        let terms = numeric.evaluate(t, q, &v).unwrap().clone();
        let excess = compulsion(&terms, &hamel, t).unwrap() - compulsion(&terms, &truth, t).unwrap();
        let predicted = 0.5 * e.dot(&h.psi.clone().lu().solve(&e).unwrap());
        prop_assert!((excess - predicted).abs() < 1e-8 * (1.0 + predicted), "ΔZ = {excess} vs ½EᵀΨ⁻¹E = {predicted}");
        // Ψ = NᵀMN with N = [X; I], X = −A₁⁻¹A₂ (y dependent).
        let n_matrix = nalgebra::DMatrix::from_row_slice(3, 2, &[1.0, 0.0, -terms.jacobian[(0, 0)] / a_y, -terms.jacobian[(0, 2)] / a_y, 0.0, 1.0]);
        let psi = n_matrix.transpose() * &terms.mass * &n_matrix;
        prop_assert!((&psi - &h.psi).amax() < 1e-9 * (1.0 + psi.amax()), "Ψ {} vs NᵀMN {psi}", h.psi);
    }
}

/// The knife edge's split `y` is singular at φ = π/2: Hamel stops there with a
/// message, the E-vector says it is undefined, voronets re-chooses and goes on.
#[test]
fn a_singular_split_is_reported_not_garbage() {
    let (_, mut numeric, _) = nhlab_tests::scenarios::load("knife-edge-incline");
    let q = [0.0, 0.0, std::f64::consts::FRAC_PI_2];
    let v = [0.0, 1.0, 2.0];
    let err = accelerations(Method::Hamel, &mut numeric, 0.0, &q, &v).unwrap_err().to_string();
    assert!(err.contains("A₁ of Hamel's split is singular") && err.contains("[hamel] dependent"), "{err}");
    let err = e_vector(&mut numeric, 0.0, &q, &v).unwrap().unwrap_err().to_string();
    assert!(err.contains("singular"), "{err}");
    let voronets = accelerations(Method::Voronets, &mut numeric, 0.0, &q, &v).unwrap().accelerations;
    let truth = accelerations(Method::Lagrange, &mut numeric, 0.0, &q, &v).unwrap().accelerations;
    assert!((&voronets - &truth).amax() < 1e-12, "{voronets} vs {truth}");
}

/// Issue 9: choosing the split enumerated every r-subset of the coordinates
/// (C(28, 14) = 40 million, 3.8 GB and an abort). Column pivoting picks a regular
/// split of a 28-coordinate, 14-constraint model at once.
#[test]
fn a_large_model_gets_its_split_by_pivoting_not_enumeration() {
    let n = 28;
    let coordinates: Vec<String> = (1..=n).map(|i| format!("\"q{i}\"")).collect();
    let kinetic: Vec<String> = (1..=n).map(|i| format!("q{i}'^2")).collect();
    let mut text = format!(
        "format = \"nhlab/1\"\ntitle = \"chain\"\ncoordinates = [{}]\nkinetic = \"({})/2\"\n",
        coordinates.join(", "),
        kinetic.join(" + ")
    );
    for k in 0..n / 2 {
        let (a, b) = (2 * k + 1, 2 * k + 2);
        text += &format!("[[constraints]]\nexpr = \"q{a}' - cos(q{b})*q{b}' + 0.1*q{}'\"\n", (b % n) + 1);
    }
    let q: Vec<String> = (1..=n).map(|i| format!("q{i} = {}", 0.1 * i as f64)).collect();
    text += &format!("[initial]\nq = {{ {} }}\n", q.join(", "));
    let (scenario, map) = nhlab::scenario::load_toml(&text).unwrap();
    let model = nhlab::mechanics::Model::build(&scenario, &map).unwrap();
    let split = model.hamel.as_ref().expect("a regular split");
    assert_eq!(split.dependent.len(), n / 2);
    let reference = model.initial_reference();
    let a =
        nalgebra::DMatrix::from_fn(n / 2, n, |i, j| model.graph.evaluate(model.constraints[i].jacobian[j], &reference));
    let det = a.select_columns(&split.dependent).determinant();
    assert!(det.abs() > 0.1, "a well-conditioned A₁: det {det}");
}

/// The pivoted split is regular whenever some split is, and not far from the best
/// one (largest |det A₁| over every r-subset, enumerated here for small sizes).
#[test]
fn pivoting_picks_a_well_conditioned_split() {
    let mut rng = nhlab_tests::random::Rng::new(42);
    for _ in 0..200 {
        let (m, n) = (3, 6);
        let a = nalgebra::DMatrix::from_fn(m, n, |_, _| rng.range(-1.0, 1.0));
        let (dependent, independent) = nhlab::mechanics::best_split(&a);
        assert_eq!((dependent.len(), independent.len()), (m, n - m));
        let det = |cols: &[usize]| a.select_columns(cols).determinant().abs();
        let mut best = 0.0f64;
        for i in 0..n {
            for j in i + 1..n {
                for k in j + 1..n {
                    best = best.max(det(&[i, j, k]));
                }
            }
        }
        assert!(det(&dependent) >= 0.05 * best, "{} against the best {best}", det(&dependent));
    }
}

/// Issue 10: the split test was a determinant against the product of the rows'
/// norms, which shrinks geometrically along a chain: 24 knife-edge trailers were
/// called singular at t = 0. It is now scale-invariant; Hamel's method runs on the
/// chain and agrees with the E-vector's account of its error (Ψ Δq̈₂ = E).
#[test]
fn a_long_chain_of_trailers_has_a_regular_split() {
    let text = nhlab_tests::families::trailers(24);
    let (scenario, map) = nhlab::scenario::load_toml(&text).expect("loads");
    let (_, mut numeric, state) = nhlab_tests::scenarios::build(&scenario, &map);
    let (t, q, v) = (state.t, &state.q, &state.v);
    let hamel = accelerations(Method::Hamel, &mut numeric, t, q, v).expect("a regular split").accelerations;
    let truth = accelerations(Method::Lagrange, &mut numeric, t, q, v).unwrap().accelerations;
    let nhlab::formulations::EVector { independent, values: e } = e_vector(&mut numeric, t, q, v).unwrap().unwrap();
    let h = numeric.hamel_terms(t, q, v).unwrap().unwrap().clone();
    let diff = nalgebra::DVector::from_iterator(independent.len(), independent.iter().map(|&i| hamel[i] - truth[i]));
    let psi_diff = &h.psi * &diff;
    assert!((&psi_diff - &e).amax() < 1e-8 * (1.0 + e.amax()), "Ψ Δq̈₂ = {psi_diff} vs E = {e}");
}

/// Issue 10: 35 trailers made a Hamel program of 3.6 million instructions (two
/// minutes to derive). The split now keeps the chain's triangular structure (of
/// nearly equal columns the sparsest) and the symbolic elimination pivots by
/// Markowitz's rule within a threshold, so A₁'s inverse has no fill-in.
#[test]
fn a_chain_of_35_trailers_keeps_its_structure_in_hamel_s_split() {
    let text = nhlab_tests::families::trailers(35);
    let (scenario, map) = nhlab::scenario::load_toml(&text).expect("loads");
    let needs = nhlab::mechanics::Needs { hamel: true, vakonomic: false, held_inputs: false };
    let model = nhlab::mechanics::Model::build_for(&scenario, &map, needs).expect("valid");
    let split = model.hamel.as_ref().expect("a regular split");
    let names: Vec<&str> = split.dependent.iter().map(|&i| model.coordinate_names()[i].as_str()).collect();
    let expected: Vec<String> = std::iter::once("y".to_string()).chain((1..=35).map(|k| format!("th{k}"))).collect();
    assert_eq!(names, expected, "the triangular split");
    let numeric = nhlab::mechanics::NumericModel::new(&model).expect("compiles");
    let (_, hamel, _) = numeric.program_sizes();
    assert!(hamel < 400_000, "Hamel's program: {hamel} instructions");
}

/// Of columns nearly as good (within 10 %), the split takes the sparsest: a dense
/// column barely larger than a chain's diagonal does not spoil its structure.
#[test]
fn the_split_prefers_the_sparser_of_nearly_equal_columns() {
    // Columns 0..3 a bidiagonal chain, column 3 dense and 5 % larger than the largest.
    let d = 0.68;
    let a = nalgebra::DMatrix::from_row_slice(3, 4, &[1.0, 0.0, 0.0, d, 0.5, 1.0, 0.0, d, 0.0, 0.5, 1.0, d]);
    let (dependent, independent) = nhlab::mechanics::best_split(&a);
    let mut sorted = dependent.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, [0, 1, 2], "{dependent:?}");
    assert_eq!(independent, [3]);
    // A clearly larger dense column still wins.
    let b = nalgebra::DMatrix::from_row_slice(3, 4, &[1.0, 0.0, 0.0, 3.0, 0.5, 1.0, 0.0, 3.0, 0.0, 0.5, 1.0, 3.0]);
    assert!(nhlab::mechanics::best_split(&b).0.contains(&3));
}

/// A blade-like constraint `cos θ·x' + y'/2 = 0` with θ turning evenly (θ' = 1):
/// pivoting at θ = 0 picks `x` (|cos 0| = 1 > 1/2), which is singular at θ = π/2;
/// `y` is regular throughout. The lab follows the true motion and takes `y`.
const TURNING: &str = include_str!("../fixtures/turning-blade.toml");

#[test]
fn an_automatic_split_stays_regular_along_the_true_motion() {
    use nhlab::prepare::Prepared;
    use nhlab::scenario::Format;
    use nhlab::simulation::{split_choice, Settings, Simulation};
    let p = Prepared::from_text(TURNING, Format::Toml).unwrap();
    let names = |d: &[usize]| d.iter().map(|&i| p.model.scenario.coordinates[i].clone()).collect::<Vec<_>>();
    let split = p.model.hamel.as_ref().unwrap();
    assert_eq!(names(&split.dependent), ["y"]);
    let message = p.model.hamel_choice.as_ref().unwrap();
    assert!(message.well_formed(), "{message:?}");
    assert_eq!((message.id, message.args[0].1.as_str(), message.args[1].1.as_str()), ("split.moved", "y", "x"));
    let note = message.english.as_str();
    assert!(note.contains("dependent y chosen along the true motion") && note.contains("(dependent x)"), "{note}");
    // "near t = …": where |cos θ| / sqrt(cos²θ + 1/4) first falls below the threshold,
    // θ = t, a little before π/2; the coarse motion's states are at most ~0.1 apart.
    let t: f64 = note.split("near t = ").nth(1).unwrap().split(';').next().unwrap().parse().unwrap();
    let r = split_choice::REGULAR;
    let from = (r / 2.0 / (1.0 - r * r).sqrt()).acos();
    assert!(t > from - 0.15 && t < std::f64::consts::FRAC_PI_2 + 0.15, "singular near t = {t}, expected ≈ {from}");
    // Hamel's run reaches t_end with it; with `x` it ends early (where its own motion,
    // which is not the true one, turns θ to π/2).
    let run = |p: &Prepared| {
        let settings = Settings::from_scenario(&p.model.scenario.run, nhlab::formulations::Method::Hamel);
        let mut sim = Simulation::new(p.numeric.clone(), settings, &p.initial).unwrap();
        let result = (|| loop {
            if !sim.step(4.0)? {
                return Ok::<(), nhlab::simulation::SimulationError>(());
            }
        })();
        (result, sim.time())
    };
    let (result, t) = run(&p);
    assert!(result.is_ok() && t == 4.0, "{result:?} at {t}");
    let given =
        Prepared::from_text(&TURNING.replace("[run]", "[hamel]\ndependent = [\"x\"]\n[run]"), Format::Toml).unwrap();
    assert!(given.model.hamel_choice.is_none(), "the scenario's own split is not second-guessed");
    let (result, t) = run(&given);
    assert!(result.is_err() && t < 4.0, "{result:?} at {t}");
    // The measure is scale-invariant: a constraint written ten times larger changes nothing.
    let scaled =
        Prepared::from_text(&TURNING.replace("cos(th)*x' + y'/2", "10*cos(th)*x' + 5*y'"), Format::Toml).unwrap();
    assert_eq!(scaled.model.hamel.as_ref().unwrap().dependent, split.dependent);
}

#[test]
fn a_split_regular_all_along_is_kept_and_said_so() {
    use nhlab::prepare::Prepared;
    use nhlab::scenario::Format;
    for (constraint, id, ending) in [
        // det A₁ = 2 + cos θ varies but never falls below 1: checked along the motion and kept.
        ("(2 + cos(th))*x' + y'", "split.regular", "regular along the true motion to t_end"),
        // det A₁ = 2 is constant: no run is needed to know it is regular everywhere.
        ("2*x' + cos(th)*y'", "split.constant", "det A₁ is constant, so it is regular everywhere"),
    ] {
        let text = TURNING.replace("cos(th)*x' + y'/2", constraint);
        let p = Prepared::from_text(&text, Format::Toml).unwrap();
        assert_eq!(p.model.hamel.as_ref().unwrap().dependent, [0]);
        let message = p.model.hamel_choice.as_ref().unwrap();
        assert!(message.well_formed() && message.id == id, "{message:?}");
        let note = message.english.as_str();
        assert!(note.ends_with(ending), "{note}");
    }
}

/// Issue 35.3: 200 coordinates with 100 chained constraints `aₖ' = sin(aₖ₊₁₀₀) aₖ₊₁'`
/// make the symbolic A₁⁻¹ products of up to 100 sines, and Hamel's E-vector from them
/// took 83 s and 2 GB (and aborted at 3.9 GB on the model) before the first
/// step. The derivation has a work bound: past it the split is refused with the
/// reason, the model still builds, and the other methods run.
#[test]
fn a_split_too_large_to_derive_is_refused_within_its_work_bound() {
    let n = 200;
    let names: Vec<String> = (0..n).map(|i| format!("a{i}")).collect();
    let list = |f: &dyn Fn(&str) -> String, sep: &str| names.iter().map(|x| f(x)).collect::<Vec<_>>().join(sep);
    let mut text = format!(
        "format = \"nhlab/1\"\ntitle = \"chained\"\ncoordinates = [{}]\nkinetic = \"({})/2\"\npotential = \"({})/2\"\n",
        list(&|x| format!("\"{x}\""), ", "),
        list(&|x| format!("{x}'^2"), " + "),
        list(&|x| format!("{x}^2"), " + "),
    );
    for k in 0..100 {
        text += &format!("[[constraints]]\nexpr = \"a{k}' - sin(a{})*a{}'\"\n", k + 100, k + 1);
    }
    text += &format!(
        "[initial]\nq = {{ {} }}\nv = {{ {} }}\n",
        list(&|x| format!("{x} = 0.1"), ", "),
        list(&|x| format!("{x} = 0"), ", ")
    );
    let (scenario, map) = nhlab::scenario::load_toml(&text).unwrap();
    let model = Model::build(&scenario, &map).unwrap();
    let why = model.hamel.as_ref().map(|_| ()).unwrap_err().to_string();
    assert!(why.starts_with("Hamel's split is too large to derive symbolically for this model"), "{why}");
    let mut numeric = NumericModel::new(&model).unwrap();
    let q: Vec<f64> = vec![0.1; n];
    let v: Vec<f64> = vec![0.0; n];
    let lagrange = accelerations(Method::Lagrange, &mut numeric, 0.0, &q, &v).unwrap();
    assert!(lagrange.accelerations.iter().all(|a| a.is_finite()));
}
