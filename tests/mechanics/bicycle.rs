//! The Whipple bicycle against a derivation of its own, written here: Newton–Euler
//! per body (`m a_G`, `I α + ω × I ω` about each mass centre) projected onto the
//! partial velocities, with the contact forces as multipliers of the contact
//! points' material velocities — d'Alembert's principle, never `T` or Lagrange's
//! equations. Velocities and accelerations come from second-order Taylor jets of
//! the poses along `q(t) = q + q̇ t + q̈ t²/2`, so every derivative is exact; the
//! rotations are plain matrices, independent of the lab's frames.

use nalgebra::{DMatrix, DVector};
use nhlab::formulations::Method;
use nhlab_tests::random::Rng;

/// A quantity along the motion, `c₀ + c₁ t + c₂ t²`, to second order.
#[derive(Clone, Copy, Debug)]
struct Jet([f64; 3]);

impl Jet {
    fn constant(c: f64) -> Jet {
        Jet([c, 0.0, 0.0])
    }
    fn value(self) -> f64 {
        self.0[0]
    }
    /// `d/dt`, one order lower.
    fn rate(self) -> Jet {
        Jet([self.0[1], 2.0 * self.0[2], 0.0])
    }
    fn sin(self) -> Jet {
        let [x0, x1, x2] = self.0;
        Jet([x0.sin(), x0.cos() * x1, x0.cos() * x2 - x0.sin() * x1 * x1 / 2.0])
    }
    fn cos(self) -> Jet {
        let [x0, x1, x2] = self.0;
        Jet([x0.cos(), -x0.sin() * x1, -x0.sin() * x2 - x0.cos() * x1 * x1 / 2.0])
    }
    fn sqrt(self) -> Jet {
        let [x0, x1, x2] = self.0;
        let s0 = x0.sqrt();
        let s1 = x1 / (2.0 * s0);
        Jet([s0, s1, (x2 - s1 * s1) / (2.0 * s0)])
    }
    fn recip(self) -> Jet {
        let [b0, b1, b2] = self.0;
        let q0 = 1.0 / b0;
        let q1 = -q0 * b1 / b0;
        Jet([q0, q1, (-q0 * b2 - q1 * b1) / b0])
    }
}

impl std::ops::Add for Jet {
    type Output = Jet;
    fn add(self, o: Jet) -> Jet {
        Jet([self.0[0] + o.0[0], self.0[1] + o.0[1], self.0[2] + o.0[2]])
    }
}
impl std::ops::Sub for Jet {
    type Output = Jet;
    fn sub(self, o: Jet) -> Jet {
        Jet([self.0[0] - o.0[0], self.0[1] - o.0[1], self.0[2] - o.0[2]])
    }
}
impl std::ops::Mul for Jet {
    type Output = Jet;
    fn mul(self, o: Jet) -> Jet {
        let ([a0, a1, a2], [b0, b1, b2]) = (self.0, o.0);
        Jet([a0 * b0, a0 * b1 + a1 * b0, a0 * b2 + a1 * b1 + a2 * b0])
    }
}

type V = [Jet; 3];
type R = [[Jet; 3]; 3];

fn c(x: f64) -> Jet {
    Jet::constant(x)
}
fn add(a: V, b: V) -> V {
    [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
}
fn sub(a: V, b: V) -> V {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn scale(k: Jet, a: V) -> V {
    [k * a[0], k * a[1], k * a[2]]
}
fn dot(a: V, b: V) -> Jet {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: V, b: V) -> V {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}
fn apply(m: &R, v: V) -> V {
    [dot(m[0], v), dot(m[1], v), dot(m[2], v)]
}
fn compose(a: &R, b: &R) -> R {
    let mut out = [[c(0.0); 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            out[i][j] = a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j];
        }
    }
    out
}
fn column(m: &R, j: usize) -> V {
    [m[0][j], m[1][j], m[2][j]]
}
/// Rotation by `t` about axis `k` (0 = x, 1 = y, 2 = z) of the current frame.
fn about(k: usize, t: Jet) -> R {
    let (s, co, zero, one) = (t.sin(), t.cos(), c(0.0), c(1.0));
    match k {
        0 => [[one, zero, zero], [zero, co, c(0.0) - s], [zero, s, co]],
        1 => [[co, zero, s], [zero, one, zero], [c(0.0) - s, zero, co]],
        _ => [[co, c(0.0) - s, zero], [s, co, zero], [zero, zero, one]],
    }
}
/// `ω` from `Ṙ Rᵀ` (skew), as a jet of first order: `ω` and `α = ω̇`.
fn angular_velocity(m: &R) -> V {
    let rate = m.map(|row| row.map(Jet::rate));
    let mut w = [[c(0.0); 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            w[i][j] = rate[i][0] * m[j][0] + rate[i][1] * m[j][1] + rate[i][2] * m[j][2];
        }
    }
    [w[2][1], w[0][2], w[1][0]]
}
fn rate(v: V) -> V {
    v.map(Jet::rate)
}
fn values(v: V) -> [f64; 3] {
    v.map(Jet::value)
}

/// One body: mass, mass centre, orientation and inertia about the centre in its
/// own axes.
struct Body {
    mass: f64,
    centre: V,
    rotation: R,
    inertia: [[f64; 3]; 3],
}

/// What the bicycle's pose gives along `q + q̇ t + q̈ t²/2`: its four bodies and the
/// two contacts as (hub, contact, wheel rotation).
struct Pose {
    bodies: Vec<Body>,
    contacts: Vec<(V, V, R)>,
}

fn pose(p: &dyn Fn(&str) -> f64, q: &[f64], v: &[f64], a: &[f64]) -> Pose {
    let jet: Vec<Jet> = (0..8).map(|i| Jet([q[i], v[i], a[i] / 2.0])).collect();
    let [x, y, psi, phi, theta, delta, rear, front] = [0, 1, 2, 3, 4, 5, 6, 7].map(|i| jet[i]);
    let (w, trail, lambda, r_r, r_f) = (p("w"), p("c"), p("lambda"), p("rR"), p("rF"));
    let lean = compose(&about(2, psi), &about(0, phi));
    let frame = compose(&lean, &about(1, theta));
    let rear_wheel = compose(&frame, &about(1, rear));
    let fork = compose(&compose(&frame, &about(1, c(-lambda))), &about(2, delta));
    let front_wheel = compose(&fork, &about(1, front));
    let handlebar = compose(&fork, &about(1, c(lambda)));
    let point = |m: &R, xs: [f64; 3]| apply(m, xs.map(c));
    let rear_contact = [x, y, c(0.0)];
    let rear_hub = add(rear_contact, point(&lean, [0.0, 0.0, r_r]));
    let frame_centre = add(rear_hub, point(&frame, [p("xB"), 0.0, p("zB") - r_r]));
    let steer = add(rear_hub, point(&frame, [w + trail, 0.0, -r_r]));
    let front_hub = add(steer, point(&handlebar, [-trail, 0.0, r_f]));
    let fork_centre = add(steer, point(&handlebar, [p("xH") - w - trail, 0.0, p("zH")]));
    // Down within the front wheel's plane: the vertical less its part along the axle.
    let axle = column(&fork, 1);
    let up = [c(0.0), c(0.0), c(1.0)];
    let down_in_plane = sub(up, scale(dot(up, axle), axle));
    let length = dot(down_in_plane, down_in_plane).sqrt();
    let front_contact = sub(front_hub, scale(c(r_f) * length.recip(), down_in_plane));
    let diagonal = |xx: f64, yy: f64, zz: f64, xz: f64| [[xx, 0.0, xz], [0.0, yy, 0.0], [xz, 0.0, zz]];
    // The benchmark's products of inertia change sign with z up and y left.
    let bodies = vec![
        Body {
            mass: p("mR"),
            centre: rear_hub,
            rotation: rear_wheel,
            inertia: diagonal(p("IRxx"), p("IRyy"), p("IRxx"), 0.0),
        },
        Body {
            mass: p("mB"),
            centre: frame_centre,
            rotation: frame,
            inertia: diagonal(p("IBxx"), p("IByy"), p("IBzz"), -p("IBxz")),
        },
        Body {
            mass: p("mH"),
            centre: fork_centre,
            rotation: handlebar,
            inertia: diagonal(p("IHxx"), p("IHyy"), p("IHzz"), -p("IHxz")),
        },
        Body {
            mass: p("mF"),
            centre: front_hub,
            rotation: front_wheel,
            inertia: diagonal(p("IFxx"), p("IFyy"), p("IFxx"), 0.0),
        },
    ];
    Pose { bodies, contacts: vec![(rear_hub, rear_contact, rear_wheel), (front_hub, front_contact, front_wheel)] }
}

/// `Σ (m (a_G − g) · v_G,i + (I α + ω × I ω) · ω_i)` for every speed `i`: the
/// inertia and gravity forces projected on the partial velocities, at `q̈ = a`.
fn projected_forces(p: &dyn Fn(&str) -> f64, q: &[f64], v: &[f64], a: &[f64]) -> Vec<f64> {
    let zero = [0.0; 8];
    let at = pose(p, q, v, a);
    let g = p("g");
    let unit = |i: usize| -> [f64; 8] {
        let mut e = [0.0; 8];
        e[i] = 1.0;
        e
    };
    let partials: Vec<Pose> = (0..8).map(|i| pose(p, q, &unit(i), &zero)).collect();
    (0..8)
        .map(|i| {
            let mut sum = 0.0;
            for (k, body) in at.bodies.iter().enumerate() {
                let acceleration = values(rate(rate(body.centre)));
                let partial_velocity = values(rate(partials[i].bodies[k].centre));
                let omega_jet = angular_velocity(&body.rotation);
                let (omega, alpha) = (values(omega_jet), values(rate(omega_jet)));
                let partial_omega = values(angular_velocity(&partials[i].bodies[k].rotation));
                // I in the world's axes: R I Rᵀ.
                let r = body.rotation.map(|row| row.map(Jet::value));
                let mut world = [[0.0; 3]; 3];
                for (m, row) in world.iter_mut().enumerate() {
                    for (n, e) in row.iter_mut().enumerate() {
                        for s in 0..3 {
                            for t in 0..3 {
                                *e += r[m][s] * body.inertia[s][t] * r[n][t];
                            }
                        }
                    }
                }
                let times = |u: [f64; 3]| world.map(|row| row[0] * u[0] + row[1] * u[1] + row[2] * u[2]);
                let (i_alpha, i_omega) = (times(alpha), times(omega));
                let gyro = [
                    omega[1] * i_omega[2] - omega[2] * i_omega[1],
                    omega[2] * i_omega[0] - omega[0] * i_omega[2],
                    omega[0] * i_omega[1] - omega[1] * i_omega[0],
                ];
                for d in 0..3 {
                    let gravity = if d == 2 { -g } else { 0.0 };
                    sum += body.mass * (acceleration[d] - gravity) * partial_velocity[d];
                    sum += (i_alpha[d] + gyro[d]) * partial_omega[d];
                }
            }
            sum
        })
        .collect()
}

/// The contacts' material velocities `v_hub + ω × (P − hub)` (rear x, y; front x,
/// y, z) along the motion, as first-order jets: their values and rates.
fn contact_velocities(p: &dyn Fn(&str) -> f64, q: &[f64], v: &[f64], a: &[f64]) -> Vec<Jet> {
    let at = pose(p, q, v, a);
    let mut out = Vec::new();
    for (k, (hub, contact, wheel)) in at.contacts.iter().enumerate() {
        let material = add(rate(*hub), cross(angular_velocity(wheel), sub(*contact, *hub)));
        out.extend_from_slice(if k == 0 { &material[..2] } else { &material[..] });
    }
    out
}

/// A state on the constraints: the pitch solved from the front contact, and the
/// speeds other than lean, steer and the rear wheel (`v[3]`, `v[5]`, `v[6]`, kept)
/// from the rolling constraints.
fn on_constraints(p: &dyn Fn(&str) -> f64, mut q: Vec<f64>, mut v: Vec<f64>) -> (Vec<f64>, Vec<f64>) {
    let zero = [0.0; 8];
    let mut pitch_rate = [0.0; 8];
    pitch_rate[4] = 1.0;
    for _ in 0..50 {
        let height = pose(p, &q, &pitch_rate, &zero).contacts[1].1[2];
        q[4] -= height.0[0] / height.0[1];
    }
    assert!(pose(p, &q, &zero, &zero).contacts[1].1[2].value().abs() < 1e-14);
    let (free, dependent) = ([3usize, 5, 6], [0usize, 1, 2, 4, 7]);
    let columns = |i: usize| {
        let mut e = [0.0; 8];
        e[i] = 1.0;
        contact_velocities(p, &q, &e, &zero).iter().map(|j| j.value()).collect::<Vec<_>>()
    };
    let a_dep = DMatrix::from_fn(5, 5, |r, k| columns(dependent[k])[r]);
    let rhs = DVector::from_fn(5, |r, _| -free.iter().map(|&i| columns(i)[r] * v[i]).sum::<f64>());
    let solved = a_dep.lu().solve(&rhs).expect("a regular split");
    for (k, &i) in dependent.iter().enumerate() {
        v[i] = solved[k];
    }
    (q, v)
}

/// A random state on the constraints: random lean, steer, heading and wheel
/// angles, lean and steer rates, and a forward rolling rate.
fn random_state(p: &dyn Fn(&str) -> f64, rng: &mut Rng) -> (Vec<f64>, Vec<f64>) {
    let q: Vec<f64> = (0..8).map(|i| if i == 4 { 0.0 } else { rng.range(-0.6, 0.6) }).collect();
    let mut v = vec![0.0; 8];
    v[3] = rng.range(-3.0, 3.0);
    v[5] = rng.range(-3.0, 3.0);
    v[6] = rng.range(5.0, 20.0);
    on_constraints(p, q, v)
}

/// `q̈` from the saddle-point system `[M Aᵀ; A 0] [q̈; −λ] = [F; b]` built from the
/// projected Newton–Euler forces (affine in `q̈`) and the contact constraints.
fn newton_euler_accelerations(p: &dyn Fn(&str) -> f64, q: &[f64], v: &[f64]) -> DVector<f64> {
    let zero = [0.0; 8];
    let unit = |i: usize| {
        let mut e = [0.0; 8];
        e[i] = 1.0;
        e
    };
    let bias = projected_forces(p, q, v, &zero);
    let contact_bias: Vec<f64> = contact_velocities(p, q, v, &zero).iter().map(|j| j.0[1]).collect();
    let m = contact_bias.len();
    let mut system = DMatrix::zeros(8 + m, 8 + m);
    let mut rhs = DVector::zeros(8 + m);
    for j in 0..8 {
        let column = projected_forces(p, q, v, &unit(j));
        let rates = contact_velocities(p, q, v, &unit(j));
        for i in 0..8 {
            system[(i, j)] = column[i] - bias[i];
        }
        for r in 0..m {
            let a_rj = rates[r].0[1] - contact_bias[r];
            system[(8 + r, j)] = a_rj;
            system[(j, 8 + r)] = a_rj;
        }
    }
    for i in 0..8 {
        rhs[i] = -bias[i];
    }
    for r in 0..m {
        rhs[8 + r] = -contact_bias[r];
    }
    let solution = system.lu().solve(&rhs).expect("a regular saddle point");
    solution.rows(0, 8).into_owned()
}

/// At random states on the constraints, every multiplier method's `q̈` equals the
/// Newton–Euler one to 1e-10.
#[test]
fn the_bicycle_accelerates_as_newton_and_euler_say() {
    let (model, mut numeric, _) = nhlab_tests::scenarios::load("whipple-bicycle");
    let parameters = model.scenario.parameters.clone();
    let p = move |name: &str| parameters[name];
    let mut rng = Rng::new(20_070_501);
    for _ in 0..6 {
        let (q, v) = random_state(&p, &mut rng);
        let expected = newton_euler_accelerations(&p, &q, &v);
        assert!(expected.amax() > 0.1, "a state worth checking: {expected}");
        for method in [Method::Lagrange, Method::UdwadiaKalaba, Method::Gauss, Method::Voronets] {
            let got = nhlab::formulations::accelerations(method, &mut numeric, 0.0, &q, &v).unwrap();
            for i in 0..8 {
                let (a, b) = (got.accelerations[i], expected[i]);
                assert!(
                    (a - b).abs() <= 1e-10 * (1.0 + b.abs()),
                    "{method:?} q̈[{i}] = {a}, Newton–Euler {b}; q = {q:?}, v = {v:?}"
                );
            }
        }
    }
}

/// Without forcing, the bicycle keeps its energy along the gallery's run (5 m/s,
/// a small lean that the steering recovers), and the rolling and the front contact
/// hold; the lean does decay, as in the benchmark's self-stable range.
#[test]
fn the_bicycle_keeps_its_energy_and_its_wheels_on_the_ground() {
    let (model, numeric, state) = nhlab_tests::scenarios::load("whipple-bicycle");
    let settings = nhlab::simulation::Settings::from_scenario(&model.scenario.run, Method::Lagrange);
    let mut sim = nhlab::simulation::Simulation::new(numeric, settings, &state).unwrap();
    sim.advance_to(5.0).unwrap();
    let samples = sim.samples();
    let e0 = samples.at(0).energy;
    for s in samples {
        assert!((s.energy - e0).abs() < 1e-9 * e0.abs(), "energy {} at t = {} (from {e0})", s.energy, s.t);
        assert!(s.residuals.iter().all(|f| f.abs() < 1e-8), "residuals {:?} at t = {}", s.residuals, s.t);
    }
    let lean = |t0: f64| samples.iter().filter(|s| s.t >= t0).map(|s| s.q[3].abs()).fold(0.0, f64::max);
    assert!(lean(4.0) < 0.5 * samples.at(0).q[3].abs(), "the lean decays: {} after t = 4", lean(4.0));
}

/// The benchmark's two stability boundaries, from the lab's nonlinear model:
/// linearised about upright straight running at speed `v` by central differences of
/// its accelerations in lean, steer and their rates (the heading, position and
/// wheel angles are ignorable; the pitch and the other speeds follow from the
/// constraints), the weave pair's real part crosses zero at 4.29238253634111 m/s and
/// the capsize eigenvalue at 6.02426201538837 m/s (Meijaard et al. 2007, §6), and at
/// 5 m/s the eigenvalues are Table 2's.
/// Central differences (h = 1e-6) of a model this smooth agree to about 1e-11.
#[test]
fn the_bicycle_is_self_stable_between_the_benchmark_speeds() {
    let (model, mut numeric, _) = nhlab_tests::scenarios::load("whipple-bicycle");
    let parameters = model.scenario.parameters.clone();
    let p = move |name: &str| parameters[name];
    let r_r = p("rR");
    let mut eigenvalues = |speed: f64| {
        let mut f = |z: [f64; 4]| -> [f64; 4] {
            let mut q = vec![0.0; 8];
            let mut v = vec![0.0; 8];
            (q[3], q[5], v[3], v[5], v[6]) = (z[0], z[1], z[2], z[3], speed / r_r);
            let (q, v) = on_constraints(&p, q, v);
            let a = nhlab::formulations::accelerations(Method::Lagrange, &mut numeric, 0.0, &q, &v).unwrap();
            [z[2], z[3], a.accelerations[3], a.accelerations[5]]
        };
        let h = 1e-6;
        let jacobian = nalgebra::Matrix4::from_fn(|i, j| {
            let (mut up, mut down) = ([0.0; 4], [0.0; 4]);
            up[j] = h;
            down[j] = -h;
            (f(up)[i] - f(down)[i]) / (2.0 * h)
        });
        jacobian.complex_eigenvalues()
    };
    let weave = |e: &nalgebra::Vector4<nalgebra::Complex<f64>>| {
        e.iter().filter(|x| x.im.abs() > 1e-3).map(|x| x.re).fold(f64::MIN, f64::max)
    };
    let capsize = |e: &nalgebra::Vector4<nalgebra::Complex<f64>>| {
        e.iter().filter(|x| x.im.abs() <= 1e-3).map(|x| x.re).fold(f64::MIN, f64::max)
    };
    let mut boundary = |lo: f64, hi: f64, part: &dyn Fn(&nalgebra::Vector4<nalgebra::Complex<f64>>) -> f64| {
        let (mut lo, mut hi) = (lo, hi);
        let sign_lo = part(&eigenvalues(lo)) > 0.0;
        assert_ne!(sign_lo, part(&eigenvalues(hi)) > 0.0, "a crossing between {lo} and {hi}");
        for _ in 0..40 {
            let mid = (lo + hi) / 2.0;
            if (part(&eigenvalues(mid)) > 0.0) == sign_lo {
                lo = mid
            } else {
                hi = mid
            }
        }
        (lo + hi) / 2.0
    };
    let weave_speed = boundary(4.0, 4.6, &weave);
    let capsize_speed = boundary(5.7, 6.3, &capsize);
    assert!((weave_speed - 4.29238253634111).abs() < 1e-9, "weave speed {weave_speed}");
    assert!((capsize_speed - 6.02426201538837).abs() < 1e-9, "capsize speed {capsize_speed}");
    // In between, self-stable; at 5 m/s, Table 2's castor, capsize and weave.
    let mut e: Vec<_> = eigenvalues(5.0).iter().copied().collect();
    e.sort_by(|a, b| a.re.total_cmp(&b.re).then(a.im.total_cmp(&b.im)));
    let table = [
        (-14.07838969279822, 0.0),
        (-0.77534188219585, -4.46486771378823),
        (-0.77534188219585, 4.46486771378823),
        (-0.32286642900409, 0.0),
    ];
    for (got, (re, im)) in e.iter().zip(table) {
        assert!((got.re - re).abs() < 1e-8 && (got.im - im).abs() < 1e-8, "at 5 m/s: {got} against {re} {im}i");
    }
}
