//! Vector expressions (`[vectors]`, points given by an expression, contact
//! tangents) and loads, against closed forms worked by hand on the rolling disk;
//! then every bad-input class of the new tables, with its field and line.

use nhlab::expr::Binding;
use nhlab::mechanics::Model;
use nhlab_tests::random::Rng;

use super::bodies::{close, model, problems, state};

const DISK: &str = include_str!("../../scenarios/rolling-disk.toml");

/// The disk with `extra` added before `[initial]`.
fn disk_plus(extra: &str) -> String {
    DISK.replacen("[initial]", &format!("{extra}\n[initial]"), 1)
}

/// The value of the named definition `name` at `(t, q, v)`.
fn named(model: &Model, name: &str, state: &(f64, Vec<f64>, Vec<f64>)) -> f64 {
    let mut g = model.graph.clone();
    let Some(Binding::Definition(d)) = g.lookup(name) else { panic!("`{name}` is not a definition") };
    let e = g.definition_expr(d);
    super::bodies::value_in(&g, model, e, state)
}

/// The disk's lean frame has `L_y = (−sin ψ cos θ, cos ψ cos θ, sin θ)` and
/// `L_z = (sin ψ sin θ, −cos ψ sin θ, cos θ)`; the disk's angular velocity is
/// `ω = ψ̇ N_z + θ̇ H_x + φ̇ L_y` with `H_x = (cos ψ, sin ψ, 0)`; `G − C = r L_z`.
#[test]
fn vector_expressions_give_their_closed_forms() {
    let m = model(&disk_plus(
        r#"[vectors]
arm = "G - C"
same = "[0, 0, r] in lean"
w = "cross(omega(disk), arm)"
length = "norm(arm)"
tilt = "dot(lean.y, N.z)"
u = "unit([1, 2, 2])"
vg = "velocity(G)"
mixed = "2*arm/r - (lean.z + lean.z) + sin(tilt)*N.x"
"#,
    ));
    let r = m.scenario.parameters["r"];
    let mut rng = Rng::new(21);
    for _ in 0..20 {
        let s = state(&mut rng, 5);
        let (_, q, v) = &s;
        let (psi, theta) = (q[2], q[3]);
        let [xd, yd, psid, thetad, phid] = [v[0], v[1], v[2], v[3], v[4]];
        let (sp, cp, st, ct) = (psi.sin(), psi.cos(), theta.sin(), theta.cos());
        let lz = [sp * st, -cp * st, ct];
        let ly = [-sp * ct, cp * ct, st];
        let omega = [psid * 0.0 + thetad * cp + phid * ly[0], thetad * sp + phid * ly[1], psid + phid * ly[2]];
        let arm = lz.map(|x| r * x);
        let w = [
            omega[1] * arm[2] - omega[2] * arm[1],
            omega[2] * arm[0] - omega[0] * arm[2],
            omega[0] * arm[1] - omega[1] * arm[0],
        ];
        // Ġ = (ẋ, ẏ, 0) + r L̇_z, L̇_z by hand.
        let lzd = [cp * st * psid + sp * ct * thetad, sp * st * psid - cp * ct * thetad, -st * thetad];
        let vg = [xd + r * lzd[0], yd + r * lzd[1], r * lzd[2]];
        for (i, axis) in ["x", "y", "z"].iter().enumerate() {
            close(named(&m, &format!("arm_{axis}"), &s), arm[i], "arm");
            close(named(&m, &format!("same_{axis}"), &s), arm[i], "[0, 0, r] in lean");
            close(named(&m, &format!("w_{axis}"), &s), w[i], "cross");
            close(named(&m, &format!("u_{axis}"), &s), [1.0, 2.0, 2.0][i] / 3.0, "unit");
            close(named(&m, &format!("vg_{axis}"), &s), vg[i], "velocity");
            close(named(&m, &format!("mixed_{axis}"), &s), if i == 0 { st.sin() } else { 0.0 }, "sums and products");
        }
        close(named(&m, "length", &s), r, "norm");
        close(named(&m, "tilt", &s), st, "dot");
    }
}

/// A force `F = (f, 0, 0)` at the centre `G = C + r L_z` gives
/// `Q = f ∂Ġ_x/∂q̇ = f (1, 0, r cos ψ sin θ, r sin ψ cos θ, 0)`; a torque `τ N_z` on the
/// disk gives `τ ∂ω/∂q̇ · N_z = τ (0, 0, 1, 0, sin θ)`; a force at the contact point
/// of the body (its material point) `F = (0, f, 0)` gives `f ∂(v_G + ω × (C − G))_y/∂q̇
/// = f (0, 1, 0, 0, −r sin ψ)` (the material velocity at `C` is `(ẋ − rφ̇ cos ψ,
/// ẏ − rφ̇ sin ψ, 0)`); and damping `−k ω` sums with the rest.
#[test]
fn loads_give_their_generalised_forces() {
    let text = disk_plus(
        r#"[[loads]]
point = "G"
force = "[f, 0, 0]"

[[loads]]
body = "disk"
torque = "tau*N.z"

[[loads]]
body = "disk"
point = "C"
force = "f*N.y"
"#,
    )
    .replacen("[parameters]\n", "[parameters]\nf = 0.7\ntau = -1.3\n", 1)
    .replacen("[gravity]", "[forces]\nx = \"x'\"\n\n[gravity]", 1);
    let m = model(&text);
    let [r, f, tau] = ["r", "f", "tau"].map(|p| m.scenario.parameters[p]);
    let mut rng = Rng::new(22);
    for _ in 0..20 {
        let s = state(&mut rng, 5);
        let (_, q, v) = &s;
        let (psi, theta) = (q[2], q[3]);
        let expected = [
            f + v[0],
            f,
            f * r * psi.cos() * theta.sin() + tau,
            f * r * psi.sin() * theta.cos(),
            tau * theta.sin() - f * r * psi.sin(),
        ];
        for (i, want) in expected.iter().enumerate() {
            close(super::bodies::value(&m, m.forces[i], &s), *want, &format!("Q_{i}"));
        }
    }
}

/// Tangents other than N's x and y: the disk with tangents turned by 45° about
/// N.z gives the same constraints combined, `(f_x ± f_y)/√2`.
#[test]
fn given_tangents_combine_the_rolling_velocity() {
    let turned =
        DISK.replacen("contact = \"C\"", "contact = \"C\"\ntangents = [\"unit([1, 1, 0])\", \"unit([-1, 1, 0])\"]", 1);
    let (plain, turned) = (model(DISK), model(&turned));
    assert_eq!(turned.constraints[0].name, "disk rolls on ground: t1");
    let mut rng = Rng::new(23);
    for _ in 0..20 {
        let s = state(&mut rng, 5);
        let [fx, fy] = [0, 1].map(|j| super::bodies::value(&plain, plain.constraints[j].velocity_residual, &s));
        let [g1, g2] = [0, 1].map(|j| super::bodies::value(&turned, turned.constraints[j].velocity_residual, &s));
        let h = std::f64::consts::FRAC_1_SQRT_2;
        close(g1, h * (fx + fy), "tangent 1");
        close(g2, h * (fy - fx), "tangent 2");
    }
}

/// Every vector expression that cannot be built is reported at `[vectors] v`,
/// at the part that is wrong, with why.
#[test]
fn every_bad_vector_expression_is_reported_at_its_part() {
    let cases: Vec<(String, &str, &str, &str)> = [
        ("G + C2", "C2", "unknown name `C2`; did you mean `C`"),
        ("G + 1", "G + 1", "cannot add a scalar and a vector"),
        ("G*C", "G*C", "write `dot(u, v)` or `cross(u, v)`"),
        ("leen.x", "leen.x", "`leen` is not a frame; did you mean `lean`"),
        ("lean.w", "lean.w", "a frame's axis is"),
        ("[1, 2] in lean", "[1, 2]", "expected `,` and three components"),
        ("cross(G, 2)", "cross(G, 2)", "`cross` takes vectors"),
        ("sin(G)", "sin(G)", "`sin` takes scalars"),
        ("G^2", "G^2", "only scalars have powers"),
        // The scalar grammar's words for parentheses, from the one grammar.
        ("cross(G, C", "cross(G, C", "this `(` is never closed"),
        ("G + C)", "G + C)", "found an unmatched `)`"),
        ("unti(G)", "unti", "unknown function `unti`; did you mean `unit`"),
        ("velocity(omega(disk))", "velocity", "no velocities"),
    ]
    .into_iter()
    .map(|(expression, at, says)| (disk_plus(&format!("[vectors]\nv = \"{expression}\"\n")), "vectors.v", at, says))
    .collect();
    super::bodies::assert_each_reported(&cases);
}

/// Vectors that name each other or a point, and points, loads and tangents that
/// cannot be built, are reported at their field.
#[test]
fn every_bad_point_load_or_tangent_is_reported_at_its_field() {
    let cases: Vec<(String, &str, &str, &str)> = vec![
        (disk_plus("[vectors]\nv = \"w\"\nw = \"v + G\"\n"), "vectors", "[vectors]", "refer to each other: a cycle"),
        (disk_plus("[vectors]\nG = \"C\"\n"), "vectors.G", "G = \"C\"", "`G` is a point already"),
        (
            DISK.replacen("frame = \"lean\"\nposition = [\"0\", \"0\", \"r\"]", "position = \"lean.z*theta'\"", 1),
            "points.G.position",
            "lean.z*theta'",
            "not on `theta'`",
        ),
        (
            DISK.replacen("position = [\"0\", \"0\", \"r\"]", "position = \"r*lean.z\"", 1),
            "points.G.frame",
            "frame = \"lean\"",
            "in an expression write `[a, b, c] in F`",
        ),
        (
            DISK.replacen("position = [\"0\", \"0\", \"r\"]", "position = [\"0\", \"0\", \"lean.z\"]", 1),
            "points.G.position[2]",
            "lean.z",
            "a component is a scalar",
        ),
        (disk_plus("[[loads]]\nbody = \"disk\"\n"), "loads[0]", "[[loads]]", "a load needs a `force`"),
        (disk_plus("[[loads]]\nforce = \"N.x\"\n"), "loads[0].force", "force = ", "needs the `point` it acts at"),
        (disk_plus("[[loads]]\ntorque = \"N.x\"\n"), "loads[0].torque", "torque = ", "needs the `body` it acts on"),
        (
            disk_plus("[[loads]]\nbody = \"disc\"\ntorque = \"N.x\"\n"),
            "loads[0].body",
            "disc",
            "`disc` is not a body; did you mean `disk`?",
        ),
        (disk_plus("[[loads]]\npoint = \"Q\"\nforce = \"N.x\"\n"), "loads[0].point", "\"Q\"", "`Q` is not a point"),
        (disk_plus("[[loads]]\npoint = \"G\"\nforce = \"1\"\n"), "loads[0].force", "force = ", "a force is a vector"),
        (
            DISK.replacen("contact = \"C\"", "contact = \"C\"\ntangents = [\"N.x\"]", 1),
            "rolling[0].tangents",
            "tangents",
            "expected two tangents, found 1",
        ),
        (
            DISK.replacen("contact = \"C\"", "contact = \"C\"\ntangents = [\"N.x\", \"N.y*psi'\"]", 1),
            "rolling[0].tangents[1]",
            "tangents",
            "a tangent may depend on coordinates and t only",
        ),
    ];
    super::bodies::assert_each_reported(&cases);
}

/// A point or vector that fails is reported once: expressions naming its
/// components (`v_x`, `v`) do not add "unknown name" problems of their own.
#[test]
fn a_failed_vector_is_blamed_once() {
    let text = disk_plus("[vectors]\nv = \"unti(G)\"\n\n[[constraints]]\nname = \"extra\"\nexpr = \"v_x - x\"\n");
    let found = problems(&text);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "vectors.v");
    // A name that is unknown for its own reason is still reported.
    let text = disk_plus("[vectors]\nv = \"unti(G)\"\n\n[[constraints]]\nname = \"extra\"\nexpr = \"vv_x - x\"\n");
    let found = problems(&text);
    assert_eq!(found.len(), 2, "{found:?}");
}
