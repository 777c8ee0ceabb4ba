//! The gallery's systems built from bodies, each against numbers worked by hand
//! here (closed forms for `T` and the rolling constraints at random states) and
//! against invariants along a run (energy), and the rattleback against its
//! characteristic asymmetry.

use nhlab::formulations::Method;
use nhlab::mechanics::{Model, NumericModel};
use nhlab::scenario::load_toml;
use nhlab_tests::random::Rng;

use super::bodies::{close, model, state, value};

/// Runs `text` under `method` to `t_end`; the samples' `(t, energy, q, v)`.
fn run(text: &str, method: Method, t_end: f64) -> Vec<(f64, f64, Vec<f64>, Vec<f64>)> {
    let (scenario, map) = load_toml(text).unwrap();
    let model = Model::build(&scenario, &map).unwrap();
    let mut numeric = NumericModel::new(&model).unwrap();
    let state = nhlab::simulation::initial_state(&model, &mut numeric, &map).unwrap();
    let settings = nhlab::simulation::Settings::from_scenario(&model.scenario.run, method);
    let mut sim = nhlab::simulation::Simulation::new(numeric, settings, &state).unwrap();
    sim.advance_to(t_end).unwrap();
    sim.samples().iter().map(|s| (s.t, s.energy, s.q.to_vec(), s.v.to_vec())).collect()
}

fn energy_is_conserved(text: &str, t_end: f64, tolerance: f64) {
    for method in [Method::Lagrange, Method::Voronets] {
        let samples = run(text, method, t_end);
        let e0 = samples[0].1;
        for (t, e, _, _) in &samples {
            assert!((e - e0).abs() < tolerance, "{method:?}: energy {e} at t = {t} (from {e0})");
        }
    }
}

type V3 = [f64; 3];
fn cross(a: V3, b: V3) -> V3 {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}
fn dot(a: V3, b: V3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn comb(terms: &[(f64, V3)]) -> V3 {
    let mut out = [0.0; 3];
    for (k, v) in terms {
        for i in 0..3 {
            out[i] += k * v[i];
        }
    }
    out
}

const CONE: &str = include_str!("../../scenarios/ball-in-cone.toml");

/// The contact `P = r e_r`, `e_r = (sin α cos χ, sin α sin χ, cos α)`,
/// `e_χ = (−sin χ, cos χ, 0)`, the inward normal `n = e_r × e_χ =
/// (−cos α cos χ, −cos α sin χ, sin α)`, `G = P + a n`, so `v_G = ṙ e_r +
/// χ̇ (r sin α − a cos α) e_χ`. The ball's z-x-z Euler angles give `ω = ψ̇ N_z +
/// θ̇ (cos ψ, sin ψ, 0) + φ̇ (sin ψ sin θ, −cos ψ sin θ, cos θ)`.
/// `T = m|v_G|²/2 + m k²|ω|²/2`, `V = m g G_z`, and the constraints are
/// `(v_G − a ω × n)·e_r` and `·e_χ`.
#[test]
fn the_ball_in_the_cone_gives_its_closed_forms_and_keeps_its_energy() {
    let m = model(CONE);
    let [mass, a, k, alpha, g] = ["m", "a", "k", "alpha", "g"].map(|p| m.scenario.parameters[p]);
    let mut rng = Rng::new(31);
    for _ in 0..25 {
        let s = state(&mut rng, 5);
        let (_, q, v) = &s;
        let [r, chi, psi, theta, _] = [q[0], q[1], q[2], q[3], q[4]];
        let [rd, chid, psid, thetad, phid] = [v[0], v[1], v[2], v[3], v[4]];
        let (sa, ca) = (alpha.sin(), alpha.cos());
        let e_r = [sa * chi.cos(), sa * chi.sin(), ca];
        let e_chi = [-chi.sin(), chi.cos(), 0.0];
        let n = [-ca * chi.cos(), -ca * chi.sin(), sa];
        let vg = comb(&[(rd, e_r), (chid * (r * sa - a * ca), e_chi)]);
        let omega = comb(&[
            (psid, [0.0, 0.0, 1.0]),
            (thetad, [psi.cos(), psi.sin(), 0.0]),
            (phid, [psi.sin() * theta.sin(), -psi.cos() * theta.sin(), theta.cos()]),
        ]);
        let t = mass * dot(vg, vg) / 2.0 + mass * k * k * dot(omega, omega) / 2.0;
        close(value(&m, m.kinetic, &s), t, "T");
        let gz = r * ca + a * sa;
        close(value(&m, m.potential, &s), mass * g * gz, "V");
        let slip = comb(&[(1.0, vg), (-a, cross(omega, n))]);
        close(value(&m, m.constraints[0].velocity_residual, &s), dot(slip, e_r), "rolling along e_r");
        close(value(&m, m.constraints[1].velocity_residual, &s), dot(slip, e_chi), "rolling along e_chi");
    }
    energy_is_conserved(CONE, 6.0, 1e-8);
}

const CYLINDERS: &str = include_str!("../../scenarios/cylinder-on-two-cylinders.toml");

/// The upper axis `d = (cos θ, sin θ, 0)` crosses lower axis `i` (direction `e_i`,
/// through the origin) in plan at `(x, y) + s_i d`, `s_i = −((x, y) × e_i)/(d × e_i)`;
/// the contact `P_i` is there at height `r`. The upper cylinder's material
/// velocity at `P_i` is `v_G + ω × (P_i − G) = v_G + (θ̇ s_i + R φ̇)(N_z × d)`; the
/// lower one's is `φ̇_i e_i × P_i`. `T = M(ẋ² + ẏ²)/2 + Aθ̇²/2 + Cφ̇²/2 + J₁φ̇₁²/2 +
/// J₂φ̇₂²/2`.
#[test]
fn the_cylinder_on_two_cylinders_gives_its_closed_forms_and_keeps_its_energy() {
    let m = model(CYLINDERS);
    let [mm, rr, a, c, r, j1, j2, alpha] =
        ["M", "R", "A", "C", "r", "J1", "J2", "alpha"].map(|p| m.scenario.parameters[p]);
    let mut rng = Rng::new(32);
    for _ in 0..25 {
        let s = state(&mut rng, 6);
        let (_, q, v) = &s;
        let [x, y, theta] = [q[0], q[1], q[2]];
        let [xd, yd, thetad, phid, phi1d, phi2d] = [v[0], v[1], v[2], v[3], v[4], v[5]];
        let t = mm * (xd * xd + yd * yd) / 2.0
            + (a * thetad * thetad + c * phid * phid + j1 * phi1d * phi1d + j2 * phi2d * phi2d) / 2.0;
        close(value(&m, m.kinetic, &s), t, "T");
        let d = [theta.cos(), theta.sin(), 0.0];
        let zd = cross([0.0, 0.0, 1.0], d);
        for (i, (e, rate)) in [([1.0, 0.0, 0.0], phi1d), ([alpha.cos(), alpha.sin(), 0.0], phi2d)].iter().enumerate() {
            let cross2 = |u: V3, w: V3| u[0] * w[1] - u[1] * w[0];
            let si = -cross2([x, y, 0.0], *e) / cross2(d, *e);
            let p = [x + si * d[0], y + si * d[1], r];
            let upper = comb(&[(1.0, [xd, yd, 0.0]), (thetad * si + rr * phid, zd)]);
            let lower = comb(&[(*rate, cross(*e, p))]);
            for axis in 0..2 {
                let f = value(&m, m.constraints[2 * i + axis].velocity_residual, &s);
                close(f, upper[axis] - lower[axis], &format!("contact {}, axis {axis}", i + 1));
            }
        }
    }
    energy_is_conserved(CYLINDERS, 5.0, 1e-8);
}

const RATTLEBACK: &str = include_str!("../../scenarios/rattleback.toml");

/// The contact point lies on the ellipsoid, with the ellipsoid's normal there
/// vertical, at random orientations: `(p/a)² + (q/b)² + (s/c)² = 1` for the
/// contact's body components from the ellipsoid's centre, and the gradient
/// `(p/a², q/b², s/c²)` along the downward vertical. Then the asymmetry: spun at
/// `ψ̇ = 5` the spin reverses within 4 s; spun at `ψ̇ = −5` it keeps its sense for
/// 10 s; energy is conserved throughout.
#[test]
fn the_rattleback_touches_the_ground_where_its_normal_is_vertical_and_reverses_one_way() {
    let m = model(RATTLEBACK);
    let [a, b, c, h] = ["a", "b", "c", "h"].map(|p| m.scenario.parameters[p]);
    let mut rng = Rng::new(33);
    for _ in 0..25 {
        let s = state(&mut rng, 5);
        let q = &s.1;
        let (psi, theta, phi) = (q[2], q[3], q[4]);
        // Body axes along N: R = Rz(ψ) Rx(θ) Ry(φ).
        let rz = |x: f64| [[x.cos(), -x.sin(), 0.0], [x.sin(), x.cos(), 0.0], [0.0, 0.0, 1.0]];
        let rx = |x: f64| [[1.0, 0.0, 0.0], [0.0, x.cos(), -x.sin()], [0.0, x.sin(), x.cos()]];
        let ry = |x: f64| [[x.cos(), 0.0, x.sin()], [0.0, 1.0, 0.0], [-x.sin(), 0.0, x.cos()]];
        let mul = |p: [[f64; 3]; 3], q: [[f64; 3]; 3]| {
            let mut o = [[0.0; 3]; 3];
            for i in 0..3 {
                for j in 0..3 {
                    o[i][j] = (0..3).map(|k| p[i][k] * q[k][j]).sum();
                }
            }
            o
        };
        let rot = mul(mul(rz(psi), rx(theta)), ry(phi));
        let named = |name: &str| {
            let mut g = m.graph.clone();
            let Some(nhlab::expr::Binding::Definition(d)) = g.lookup(name) else { panic!("{name}") };
            let e = g.definition_expr(d);
            let mut tmp = m.clone();
            tmp.graph = g;
            value(&tmp, e, &s)
        };
        let p_n = [named("P_x") - named("G_x"), named("P_y") - named("G_y"), named("P_z") - named("G_z")];
        close(named("P_z"), 0.0, "the contact is on the ground");
        // From the ellipsoid's centre (h above G along body z), in body components.
        let body: V3 = std::array::from_fn(|j| (0..3).map(|i| rot[i][j] * p_n[i]).sum::<f64>());
        let from_centre = [body[0], body[1], body[2] - h];
        let on = (from_centre[0] / a).powi(2) + (from_centre[1] / b).powi(2) + (from_centre[2] / c).powi(2);
        close(on, 1.0, "on the ellipsoid");
        let grad = [from_centre[0] / (a * a), from_centre[1] / (b * b), from_centre[2] / (c * c)];
        let down: V3 = std::array::from_fn(|j| -rot[2][j]);
        let along = cross(grad, down);
        assert!(along.iter().all(|x| x.abs() < 1e-9 * dot(grad, grad).sqrt()), "normal {grad:?} vs {down:?}");
        assert!(dot(grad, down) > 0.0, "the outward normal points down");
    }
    let spin = |samples: &[(f64, f64, Vec<f64>, Vec<f64>)]| samples.iter().map(|s| (s.0, s.3[2])).collect::<Vec<_>>();
    let forward = run(RATTLEBACK, Method::Lagrange, 4.0);
    let reversed = spin(&forward).iter().find(|(_, w)| *w < -1.0).map(|(t, _)| *t);
    assert!(reversed.is_some_and(|t| t < 4.0), "spun at ψ' = 5 the spin should reverse within 4 s");
    let backward_text = RATTLEBACK.replacen("v = { psi = 5,", "v = { psi = -5,", 1);
    let backward = run(&backward_text, Method::Lagrange, 10.0);
    assert!(spin(&backward).iter().all(|(_, w)| *w < -0.5), "spun at ψ' = −5 the spin keeps its sense for 10 s");
    for samples in [&forward, &backward] {
        let e0 = samples[0].1;
        assert!(samples.iter().all(|s| (s.1 - e0).abs() < 1e-8), "energy is conserved");
    }
}

/// Every gallery system built from bodies has ideal linear rolling constraints, so
/// every formulation that applies gives the same `q̈` on the constraints: at the
/// start and at states along a Lagrange run. (Hamel's embedding is exact only where
/// its E-vector vanishes and the vakonomic equations are another model: neither is
/// expected to agree.)
#[test]
fn every_formulation_agrees_on_the_generated_rolling_constraints() {
    let mut checked = 0;
    for name in nhlab_tests::scenarios::names() {
        let (model, numeric, state) = nhlab_tests::scenarios::load(&name);
        if model.scenario.bodies.is_empty() || model.constraints.is_empty() {
            continue;
        }
        checked += 1;
        let settings = nhlab::simulation::Settings::from_scenario(&model.scenario.run, Method::Lagrange);
        let mut sim = nhlab::simulation::Simulation::new(numeric.clone(), settings, &state).unwrap();
        let end = model.scenario.run.t_end.unwrap_or(1.0).min(1.0);
        sim.advance_sampling(&[end / 3.0, end]).unwrap();
        let mut numeric = numeric;
        for s in sim.samples() {
            let reference = nhlab::formulations::accelerations(Method::Lagrange, &mut numeric, s.t, s.q, s.v).unwrap();
            let scale = 1.0 + reference.accelerations.amax();
            for method in [Method::UdwadiaKalaba, Method::Gauss, Method::Euler, Method::Voronets] {
                let Ok(got) = nhlab::formulations::accelerations(method, &mut numeric, s.t, s.q, s.v) else {
                    assert_eq!(method, Method::Voronets, "{name}: {method:?} applies to linear constraints");
                    continue;
                };
                let gap = (&got.accelerations - &reference.accelerations).amax();
                assert!(gap <= 1e-9 * scale, "{name} {method:?} at t = {}: differs from lagrange by {gap:e}", s.t);
            }
        }
    }
    assert!(checked >= 7, "{checked} systems from bodies with rolling");
}
