//! The scene's geometry against hand-computed cases: poses from bodies and from
//! `[[scene.shapes]]`, the projection, the fit; and bad scene tables reported at
//! their fields.

use std::f64::consts::PI;

use nhlab::mechanics::{Model, NumericModel};
use nhlab::scenario::{load_toml, Problem};
use nhlab::scene::{camera::Bounds, Camera, Fit, Mark, Picture, Projection, ScenePlayer};
use nhlab_tests::scenarios::{build, load};

fn picture_of(model: &Model, numeric: &NumericModel, t: f64, q: &[f64], v: &[f64]) -> Picture {
    let mut player = ScenePlayer::new(model).expect("compiles");
    player.picture(&numeric.parameters, t, q, v)
}

fn paths(p: &Picture) -> Vec<&Vec<[f64; 3]>> {
    p.items
        .iter()
        .filter_map(|(_, m)| match m {
            Mark::Path { points, .. } => Some(points),
            _ => None,
        })
        .collect()
}

fn close(a: [f64; 3], b: [f64; 3], tol: f64) -> bool {
    a.iter().zip(&b).all(|(x, y)| (x - y).abs() < tol)
}

/// The rolling disk, leaned by θ and headed ψ: its rim is a circle of radius r about
/// the centre, in the plane normal to the axle, and touches the ground at the
/// contact point (x, y, 0) — the geometry of rolling, not the code's.
#[test]
fn the_rolling_disk_touches_the_ground_at_its_contact_point() {
    let (model, numeric, _) = load("rolling-disk");
    assert_eq!(model.scene.projection, Projection::Space);
    let r = 0.3;
    let (x, y, psi, theta, phi) = (0.4, -0.2, 0.7, 0.3, 1.1);
    let picture = picture_of(&model, &numeric, 0.0, &[x, y, psi, theta, phi], &[0.0; 5]);
    assert!(picture.hidden.is_empty());
    let rims = paths(&picture);
    let rim = rims.iter().find(|p| p.len() > 2).expect("the rim");
    // Centre: r up the leaned disk's plane from the contact; the heading's x is the
    // direction of rolling, the lean a turn about it.
    let centre = [x - r * theta.sin() * -psi.sin(), y - r * theta.sin() * psi.cos(), r * theta.cos()];
    // The axle: the lean frame's y, (−sin ψ cos θ, cos ψ cos θ, sin θ).
    let axle = [-psi.sin() * theta.cos(), psi.cos() * theta.cos(), theta.sin()];
    for p in rim.iter() {
        let d = [p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]];
        let radius = (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        assert!((radius - r).abs() < 1e-12, "{radius}");
        let along_axle = d[0] * axle[0] + d[1] * axle[1] + d[2] * axle[2];
        assert!(along_axle.abs() < 1e-12, "{along_axle}");
    }
    // The lowest vertex of the 48-gon is within r(1 − cos(π/48)) of the contact.
    let lowest = rim.iter().min_by(|a, b| a[2].total_cmp(&b[2])).unwrap();
    let sag = r * (1.0 - (PI / 48.0).cos());
    assert!(lowest[2] > -1e-12 && lowest[2] <= sag + 1e-12, "{lowest:?}");
    let to_contact = ((lowest[0] - x).powi(2) + (lowest[1] - y).powi(2)).sqrt();
    assert!(to_contact < r * PI / 48.0 + 1e-12, "{to_contact}");
    // The spoke turns with φ: from the centre to the rim along the disk frame's z
    // (the axis after y, cyclically), which the spin turns about the axle.
    let spoke = rims.iter().find(|p| p.len() == 2).expect("the spoke");
    assert!(close(spoke[0], centre, 1e-12));
    let spun = |phi: f64| {
        let p = picture_of(&model, &numeric, 0.0, &[x, y, psi, theta, phi], &[0.0; 5]);
        paths(&p).into_iter().find(|p| p.len() == 2).unwrap()[1]
    };
    let (a, b) = (spun(phi), spun(phi + PI / 2.0));
    let cos = ((0..3).map(|i| (a[i] - centre[i]) * (b[i] - centre[i])).sum::<f64>()) / (r * r);
    assert!(cos.abs() < 1e-12, "a quarter turn of φ turns the spoke by 90°: cos = {cos}");
}

const PENDULUM: &str = include_str!("../fixtures/pendulum.toml");

#[test]
fn primitives_are_placed_by_their_expressions() {
    let (s, map) = load_toml(PENDULUM).unwrap();
    let (model, numeric, _) = build(&s, &map);
    assert_eq!(model.scene.projection, Projection::Plane);
    let th: f64 = 0.5;
    let picture = picture_of(&model, &numeric, 0.0, &[th], &[0.0]);
    let (l, bob) = (2.0, [2.0 * th.sin(), -2.0 * th.cos(), 0.0]);
    assert_eq!(picture.items.len(), 3);
    match &picture.items[0].1 {
        Mark::Path { points, closed: false, fill: false } => {
            assert!(close(points[0], [0.0; 3], 1e-15) && close(points[1], bob, 1e-15));
            assert!((points[1][0].hypot(points[1][1]) - l).abs() < 1e-15);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(picture.items[1].1, Mark::Ball { centre: bob, radius: 0.1 });
    // The triangle: turned by θ about z, then moved to (1, 1).
    match &picture.items[2].1 {
        Mark::Path { points, closed: true, fill: true } => {
            assert!(close(points[0], [1.0 + th.cos(), 1.0 + th.sin(), 0.0], 1e-15));
            assert!(close(points[1], [1.0 - th.sin(), 1.0 + th.cos(), 0.0], 1e-15));
            assert!(close(points[2], [1.0, 1.0, 0.0], 1e-15));
        }
        other => panic!("{other:?}"),
    }
    let mut player = ScenePlayer::new(&model).unwrap();
    assert_eq!(player.trail_points(&numeric.parameters, 0.0, &[th], &[0.0]), vec![bob]);
}

#[test]
fn an_element_that_cannot_be_evaluated_is_hidden_and_named() {
    let text = PENDULUM.replace(r#"radius = "0.1""#, r#"radius = "sqrt(theta - 1)""#);
    let (s, map) = load_toml(&text).unwrap();
    let (model, numeric, _) = build(&s, &map);
    let picture = picture_of(&model, &numeric, 0.0, &[0.5], &[0.0]);
    assert_eq!(picture.hidden, vec!["bob".to_string()]);
    assert_eq!(picture.items.len(), 2, "the others are drawn");
    assert!(picture_of(&model, &numeric, 0.0, &[1.5], &[0.0]).hidden.is_empty());
}

#[test]
fn the_camera_projects_as_computed_by_hand() {
    let plane = Camera::new(Projection::Plane);
    assert_eq!(plane.project([1.0, 2.0, 3.0]), [1.0, 2.0, 3.0]);
    // From azimuth −90°, level: x to the right, z up, y away from the viewer.
    let mut c = Camera { projection: Projection::Space, yaw: -PI / 2.0, elevation: 0.0 };
    assert!(close(c.project([1.0, 0.0, 0.0]), [1.0, 0.0, 0.0], 1e-15));
    assert!(close(c.project([0.0, 0.0, 1.0]), [0.0, 1.0, 0.0], 1e-15));
    assert!(close(c.project([0.0, 1.0, 0.0]), [0.0, 0.0, -1.0], 1e-15));
    // From 30° up: the vertical shortens to cos 30°, depth grows towards the viewer.
    c.elevation = PI / 6.0;
    assert!(close(c.project([0.0, 0.0, 1.0]), [0.0, (PI / 6.0).cos(), 0.5], 1e-15));
    // Orbiting changes the view; the plane does not orbit; elevation stops short of 90°.
    let before = c.project([1.0, 1.0, 0.0]);
    c.orbit(0.3, 0.0);
    assert!(!close(before, c.project([1.0, 1.0, 0.0]), 1e-3));
    c.orbit(0.0, 10.0);
    assert!(c.elevation < PI / 2.0);
    let mut p = plane;
    p.orbit(1.0, 1.0);
    assert_eq!(p, plane);
    // The ground under a screen point projects back onto it.
    let c = Camera::new(Projection::Space);
    let (gx, gy) = c.ground_under(0.7, -0.4);
    let back = c.project([gx, gy, 0.0]);
    assert!((back[0] - 0.7).abs() < 1e-12 && (back[1] + 0.4).abs() < 1e-12);
}

#[test]
fn the_fit_keeps_equal_scales_and_the_margins() {
    let mut b = Bounds::default();
    b.include(-1.0, 0.0);
    b.include(3.0, 1.0);
    b.include(f64::NAN, 5.0); // ignored
    let fit = Fit::new(&b, 400.0, 300.0, 20.0);
    // Width 4 into 360 pixels: 90 per unit (height 1 would allow 260).
    assert_eq!(fit.scale, 90.0);
    assert_eq!(fit.pixel(-1.0, 0.5), (20.0, 150.0));
    assert_eq!(fit.pixel(3.0, 0.5), (380.0, 150.0));
    // y up on the screen is up in the world.
    assert!(fit.pixel(0.0, 1.0).1 < fit.pixel(0.0, 0.0).1);
    // One point: a unit box around it, not an infinite zoom.
    let mut one = Bounds::default();
    one.include(2.0, 2.0);
    let f = Fit::new(&one, 100.0, 100.0, 0.0);
    assert!(f.scale.is_finite() && f.pixel(2.0, 2.0) == (50.0, 50.0));
    // Zooming about a pixel keeps it in place; panning moves everything.
    let mut z = fit;
    z.zoom(2.0, 100.0, 100.0);
    let world = ((100.0 - fit.offset.0) / fit.scale, (fit.offset.1 - 100.0) / fit.scale);
    let (u, v) = z.pixel(world.0, world.1);
    assert!((u - 100.0).abs() < 1e-12 && (v - 100.0).abs() < 1e-12);
    z.pan(5.0, -3.0);
    let (u2, v2) = z.pixel(world.0, world.1);
    assert!((u2 - 105.0).abs() < 1e-12 && (v2 - 97.0).abs() < 1e-12);
    // Centred at a given scale: the box's centre at the viewport's.
    let c = Fit::centred(&b, 10.0, 200.0, 100.0);
    assert_eq!(c.pixel(1.0, 0.5), (100.0, 50.0));
}

/// Every gallery scenario draws something at its initial state, and every
/// element is finite there.
#[test]
fn every_gallery_scenario_has_a_scene() {
    for name in nhlab_tests::scenarios::names() {
        let (model, numeric, state) = load(&name);
        let picture = picture_of(&model, &numeric, state.t, &state.q, &state.v);
        assert!(!picture.items.is_empty(), "{name} draws nothing");
        assert!(picture.hidden.is_empty(), "{name}: hidden {:?}", picture.hidden);
    }
}

fn problems(text: &str) -> Vec<Problem> {
    let (s, map) = match load_toml(text) {
        Ok(x) => x,
        Err(p) => return p.0,
    };
    match Model::build(&s, &map) {
        Ok(_) => vec![],
        Err(p) => p.0,
    }
}

#[test]
fn bad_scene_tables_are_reported_at_their_fields() {
    let cases: [(&str, &str, &str, &str); 7] = [
        (r#"kind = "segment""#, r#"kind = "segmnt""#, "scene.shapes[0].kind", "did you mean `segment`"),
        (r#"radius = "0.1""#, r#"radius = "0.1*theta'""#, "scene.shapes[1].radius", "not on `theta'`"),
        (
            r#"points = [["0", "0"], ["l*sin(theta)", "-l*cos(theta)"]]"#,
            r#"points = [["0", "0"]]"#,
            "scene.shapes[0].points",
            "takes 2 points, found 1",
        ),
        (r#"angle = "theta""#, r#"frame = "body""#, "scene.shapes[2].frame", "not a frame"),
        (r#"at = ["1", "1"]"#, r#"at = ["1"]"#, "scene.shapes[2].at", "two or three components"),
        (r#"at = ["1", "1"]"#, r#"at = ["1", "w"]"#, "scene.shapes[2].at[1]", "unknown name `w`"),
        (r#"trail = true"#, "trail = true\npoints = [[\"0\", \"0\"]]", "scene.shapes[1].points", "has no `points`"),
    ];
    for (old, new, field, message) in cases {
        assert!(PENDULUM.contains(old), "{old}");
        let p = problems(&PENDULUM.replacen(old, new, 1));
        assert_eq!(p.len(), 1, "{new}: {p:?}");
        assert_eq!(p[0].field, field, "{new}: {p:?}");
        assert!(p[0].message.contains(message), "{new}: {}", p[0].message);
        assert!(p[0].position.is_some(), "{new}: a line and column");
    }
    let p = problems(&PENDULUM.replacen("[[scene.shapes]]", "[scene]\nprojection = \"spaec\"\n\n[[scene.shapes]]", 1));
    assert!(p.iter().any(|p| p.field == "scene.projection" && p.message.contains("did you mean `space`")), "{p:?}");
}

/// A body whose frame is given by its angular velocity (no orientation) is drawn:
/// the turntable ball, from bodies, shows a ball of radius R at its centre (it drew
/// only the table before, and nothing at all without the table's shape). Another
/// shape on such a body is refused at its field, saying why.
#[test]
fn a_ball_given_by_its_angular_velocity_is_drawn() {
    let text =
        std::fs::read_to_string(format!("{}/../scenarios/ball-on-turntable-bodies.toml", env!("CARGO_MANIFEST_DIR")))
            .unwrap();
    for text in [text.clone(), text.replace("shape = { kind = \"disk\", radius = \"2\", axis = \"z\" }\n", "")] {
        let (scenario, map) = load_toml(&text).unwrap();
        let (model, numeric, state) = build(&scenario, &map);
        let labels: Vec<&str> = model.scene.elements.iter().map(|e| e.label.as_str()).collect();
        assert!(labels.contains(&"body ball"), "{labels:?}");
        let picture = picture_of(&model, &numeric, state.t, &state.q, &state.v);
        let r = model.scenario.parameters["R"];
        let ball = picture.items.iter().find_map(|(_, m)| match m {
            Mark::Ball { centre, radius } => Some((*centre, *radius)),
            _ => None,
        });
        let (centre, radius) = ball.expect("the ball is drawn");
        assert!(close(centre, [state.q[0], state.q[1], r], 1e-12) && (radius - r).abs() < 1e-12, "{centre:?} {radius}");
    }
    let disk = text.replace(
        "shape = { kind = \"sphere\", radius = \"R\" }",
        "shape = { kind = \"disk\", radius = \"R\", axis = \"z\" }",
    );
    let p = problems(&disk);
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(p[0].field, "bodies[0].shape.kind");
    assert!(p[0].message.contains("is drawn as a `sphere` only"), "{}", p[0].message);
}
