//! Frames, points, rigid bodies, gravity and rolling contact (nhlab's additions
//! `[frames]`, `[points]`, `[[bodies]]`, `[gravity]`, `[[rolling]]`), turned into
//! what the rest of the model is made of: a share of `T` and `V`, constraints, and
//! named components (`G_x`, `G_y`, `G_z` for point `G`) usable in any expression.
//!
//! Vectors are kept as their three components along the inertial frame `N`, each an
//! expression of the model's graph; a frame is its rotation matrix (its axes along
//! `N`'s, as columns) and its angular velocity along `N`'s axes:
//!
//! - a frame turned from its parent by `θ₁` about axis `e₁`, then `θ₂` about the
//!   new `e₂`, …: `R = R_parent R₁(θ₁) R₂(θ₂) ⋯` and
//!   `ω = ω_parent + Σ θ̇ₖ (R_parent R₁ ⋯ Rₖ₋₁) eₖ`;
//! - a body adds `½ m v_G·v_G + ½ ω_Bᵀ I ω_B` to `T` (`ω_B = Rᵀω`, `v_G = ṙ_G`),
//!   and under gravity `−m g (d·r_G)/|d|` to `V`;
//! - body `B` rolling on `C` at point `P`: `v_G + ω × (r_P − r_G)` of `B` minus the
//!   same of `C` (zero for the ground) has zero `x` and `y` components along `N`.
//!
//! Written here rather than taken from a crate: the vectors are symbolic, in the
//! lab's own expression graph (no `no_std` symbolic crate exists, see `expr`).

use alloc::collections::BTreeMap;
use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::model::Checker;
use crate::expr::{nearest, ExprGraph, ExprId, Function};
use crate::scenario::{BodySpec, Scenario, ShapeSpec};

/// Components along `N`'s axes.
pub(crate) type Vector = [ExprId; 3];

/// A frame in the model's expressions.
#[derive(Clone, Debug)]
struct Frame {
    /// `rotation[i][j]`: component `i` (along `N`) of the frame's axis `j`; `None`
    /// for a frame given by its angular velocity alone.
    rotation: Option<[[ExprId; 3]; 3]>,
    /// The angular velocity relative to `N`, along `N`'s axes.
    omega: Vector,
}

/// A body as the rest of the model needs it.
#[derive(Clone, Debug)]
struct Body {
    frame: String,
    centre: String,
}

/// What the additions contribute to the model.
#[derive(Clone, Debug, Default)]
pub(crate) struct Contributions {
    /// `T` of the bodies (`None` without bodies).
    pub kinetic: Option<ExprId>,
    /// `V` of the bodies under gravity (`None` without).
    pub potential: Option<ExprId>,
    /// Generated constraints: (name, field of the table that made it, `f`).
    pub constraints: Vec<(String, String, ExprId)>,
}

/// The inertial frame's name.
pub const INERTIAL_FRAME: &str = "N";
/// The inertial origin's name.
pub const ORIGIN: &str = "O";
/// Most frames, points and bodies: far above any textbook system, and a bound on
/// the work a hostile scenario can ask for.
pub const MAX_FRAMES: usize = 64;
/// Most rotations of one frame.
pub const MAX_ROTATIONS: usize = 6;
/// Most rotations over all frames: a chain of rotations grows the expressions of
/// everything below it (24 in one chain derive in under a second; the Whipple
/// bicycle needs 6).
pub const MAX_ROTATIONS_TOTAL: usize = 24;

struct Builder<'g> {
    g: &'g mut ExprGraph,
    frames: BTreeMap<String, Frame>,
    points: BTreeMap<String, Vector>,
    bodies: BTreeMap<String, Body>,
    /// Names the scenario declares: one that failed to build has its own message
    /// already, so what refers to it says nothing more.
    declared: BTreeSet<String>,
}

/// Builds the additions of `s` into `g`, reporting every problem to `c`. Named
/// point components become definitions, so this runs before the expressions that
/// may use them are parsed.
pub(crate) fn build(c: &mut Checker<'_>, g: &mut ExprGraph, s: &Scenario) -> Contributions {
    let zero = g.zero();
    let one = g.one();
    let identity = [[one, zero, zero], [zero, one, zero], [zero, zero, one]];
    let declared = s
        .frames
        .keys()
        .map(|f| format!("frame {f}"))
        .chain(s.points.keys().map(|p| format!("point {p}")))
        .chain(s.bodies.iter().map(|b| format!("body {}", b.name)))
        .collect();
    let mut b = Builder { g, frames: BTreeMap::new(), points: BTreeMap::new(), bodies: BTreeMap::new(), declared };
    b.frames.insert(INERTIAL_FRAME.into(), Frame { rotation: Some(identity), omega: [zero; 3] });
    b.points.insert(ORIGIN.into(), [zero; 3]);
    for (what, count) in [("frames", s.frames.len()), ("points", s.points.len()), ("bodies", s.bodies.len())] {
        if count > MAX_FRAMES {
            c.at(what, format!("{count} {what}; the lab supports at most {MAX_FRAMES}"));
            return Contributions::default();
        }
    }
    let rotations: usize = s.frames.values().map(|f| f.rotations.len()).sum();
    if rotations > MAX_ROTATIONS_TOTAL {
        c.at("frames", format!("{rotations} rotations in all; the lab supports at most {MAX_ROTATIONS_TOTAL}"));
        return Contributions::default();
    }
    b.frames_in_order(c, s);
    b.points_in_order(c, s);
    let mut out = Contributions::default();
    let mut kinetic = Vec::new();
    let mut potential = Vec::new();
    let gravity = s.gravity.as_ref().and_then(|gs| b.gravity(c, gs));
    for (k, spec) in s.bodies.iter().enumerate() {
        if let Some((t, m, centre)) = b.body(c, k, spec) {
            kinetic.push(t);
            if let (Some(direction), Some(r)) = (gravity, b.points.get(&centre).copied()) {
                // −m g (d·r)/|d|, with g folded into `direction` (see `gravity`).
                let height = dot(b.g, &direction, &r);
                let v = b.g.mul2(m, height);
                potential.push(b.g.neg(v));
            }
        }
    }
    if s.gravity.is_some() && s.bodies.is_empty() {
        c.at("gravity", "gravity acts on bodies, and the scenario has none (`particles` take it in `potential`)");
    }
    if !kinetic.is_empty() {
        out.kinetic = Some(b.g.add(&kinetic));
    }
    if !potential.is_empty() {
        out.potential = Some(b.g.add(&potential));
    }
    for (j, r) in s.rolling.iter().enumerate() {
        b.rolling(c, j, r, &mut out.constraints);
    }
    out
}

impl Builder<'_> {
    /// Frames in an order where every parent comes first; unknown parents and
    /// cycles reported.
    fn frames_in_order(&mut self, c: &mut Checker<'_>, s: &Scenario) {
        let mut pending: Vec<&String> = s.frames.keys().collect();
        for name in &pending {
            if name.as_str() == INERTIAL_FRAME {
                c.at_key(&format!("frames.{name}"), "`N` is the inertial frame, predefined: choose another name");
            }
        }
        pending.retain(|n| n.as_str() != INERTIAL_FRAME);
        for name in &pending {
            let parent = s.frames[*name].parent.as_deref().unwrap_or(INERTIAL_FRAME);
            if parent != INERTIAL_FRAME && !s.frames.contains_key(parent) {
                let hint = suggestion(parent, s.frames.keys().map(String::as_str).chain([INERTIAL_FRAME]));
                c.at(&format!("frames.{name}.parent"), format!("`{parent}` is not a frame{hint}"));
            }
        }
        let pending = in_base_order(pending, |name| {
            let spec = &s.frames[name];
            let parent = spec.parent.as_deref().unwrap_or(INERTIAL_FRAME);
            if !self.frames.contains_key(parent) {
                return false;
            }
            self.frame(c, name, spec, parent);
            true
        });
        let cyclic: Vec<&str> = pending
            .iter()
            .filter(|n| {
                let parent = s.frames[**n].parent.as_deref().unwrap_or(INERTIAL_FRAME);
                s.frames.contains_key(parent)
            })
            .map(|n| n.as_str())
            .collect();
        if !cyclic.is_empty() {
            c.at("frames", format!("the frames {} are each other's parents: a cycle", cyclic.join(", ")));
        }
    }

    fn frame(&mut self, c: &mut Checker<'_>, name: &str, spec: &crate::scenario::FrameSpec, parent: &str) {
        let field = format!("frames.{name}");
        let Some(parent_frame) = self.frames.get(parent).cloned() else { return };
        if spec.rotations.len() > MAX_ROTATIONS {
            c.at(&format!("{field}.rotations"), format!("{} rotations; at most {MAX_ROTATIONS}", spec.rotations.len()));
            return;
        }
        if let Some(w) = &spec.angular_velocity {
            if !spec.rotations.is_empty() {
                c.at(&field, "give either `rotations` or `angular_velocity`, not both");
                return;
            }
            let Some(w) = self.three(c, &format!("{field}.angular_velocity"), w, false) else { return };
            let Some(r) = parent_frame.rotation else {
                c.at(&format!("{field}.parent"), format!("`{parent}` has no orientation to give `{name}`'s along"));
                return;
            };
            let along_n = rotate(self.g, &r, &w);
            let omega = add(self.g, &parent_frame.omega, &along_n);
            self.frames.insert(name.into(), Frame { rotation: None, omega });
            return;
        }
        let Some(mut rotation) = parent_frame.rotation else {
            c.at(
                &format!("{field}.parent"),
                format!("`{parent}` has no orientation (only an angular velocity): a frame cannot be turned from it"),
            );
            return;
        };
        let mut omega = parent_frame.omega;
        for (k, turn) in spec.rotations.iter().enumerate() {
            let at = format!("{field}.rotations[{k}]");
            let mut entries = turn.iter();
            let (Some((axis, angle)), None) = (entries.next(), entries.next()) else {
                c.at(&at, "a rotation is one `axis = angle` pair, such as { z = \"psi\" }");
                return;
            };
            let Some(a) = ["x", "y", "z"].iter().position(|x| x == axis) else {
                c.at_key(&format!("{at}.{axis}"), format!("the axis is `x`, `y` or `z`, not `{axis}`"));
                return;
            };
            let Some(theta) = c.position_expr(self.g, &format!("{at}.{axis}"), angle, "a rotation angle") else {
                return;
            };
            let Ok(rate) = self.g.time_derivative(theta) else { return };
            let about = rotation.map(|row| row[a]);
            let turning = scale(self.g, rate, &about);
            omega = add(self.g, &omega, &turning);
            let turn = elementary(self.g, a, theta);
            rotation = multiply(self.g, &rotation, &turn);
        }
        self.frames.insert(name.into(), Frame { rotation: Some(rotation), omega });
    }

    /// Points in an order where every base point comes first; each gets its named
    /// components.
    fn points_in_order(&mut self, c: &mut Checker<'_>, s: &Scenario) {
        let mut pending: Vec<&String> = s.points.keys().collect();
        for name in &pending {
            if name.as_str() == ORIGIN {
                c.at_key(&format!("points.{name}"), "`O` is the inertial origin, predefined: choose another name");
            }
            let from = s.points[*name].from.as_deref().unwrap_or(ORIGIN);
            if from != ORIGIN && !s.points.contains_key(from) {
                let hint = suggestion(from, s.points.keys().map(String::as_str).chain([ORIGIN]));
                c.at(&format!("points.{name}.from"), format!("`{from}` is not a point{hint}"));
            }
        }
        pending.retain(|n| n.as_str() != ORIGIN);
        let pending = in_base_order(pending, |name| {
            let from = s.points[name].from.as_deref().unwrap_or(ORIGIN);
            if !self.points.contains_key(from) {
                return false;
            }
            self.point(c, name, &s.points[name], from);
            true
        });
        let cyclic: Vec<&str> = pending
            .iter()
            .filter(|n| s.points.contains_key(s.points[**n].from.as_deref().unwrap_or(ORIGIN)))
            .map(|n| n.as_str())
            .collect();
        if !cyclic.is_empty() {
            c.at("points", format!("the points {} are each other's base points: a cycle", cyclic.join(", ")));
        }
    }

    fn point(&mut self, c: &mut Checker<'_>, name: &str, spec: &crate::scenario::PointSpec, from: &str) {
        let field = format!("points.{name}");
        let frame_name = spec.frame.as_deref().unwrap_or(INERTIAL_FRAME);
        let Some(components) = self.three(c, &format!("{field}.position"), &spec.position, true) else { return };
        let Some(frame) = self.frames.get(frame_name) else {
            if !self.declared.contains(&format!("frame {frame_name}")) {
                let hint = suggestion(frame_name, self.frames.keys().map(String::as_str));
                c.at(&format!("{field}.frame"), format!("`{frame_name}` is not a frame{hint}"));
            }
            return;
        };
        let Some(r) = frame.rotation else {
            c.at(
                &format!("{field}.frame"),
                format!(
                    "`{frame_name}` has no orientation (only an angular velocity): give the position in another frame"
                ),
            );
            return;
        };
        let offset = rotate(self.g, &r, &components);
        let base = self.points[from];
        let position = add(self.g, &base, &offset);
        for (axis, &x) in ["x", "y", "z"].iter().zip(&position) {
            let component = format!("{name}_{axis}");
            match self.g.declare_definition(&component) {
                Ok(id) => self.g.set_definition_body(id, x),
                Err(e) => {
                    c.at_key(&field, format!("the component `{component}` of point `{name}` cannot be named: {e}"));
                }
            }
        }
        self.points.insert(name.into(), position);
    }

    /// Three expressions; `positions` forbids velocities.
    fn three(&mut self, c: &mut Checker<'_>, field: &str, texts: &[String], positions: bool) -> Option<Vector> {
        if texts.len() != 3 {
            c.at(field, format!("expected three components, found {}", texts.len()));
            return None;
        }
        let mut out = [self.g.zero(); 3];
        let mut ok = true;
        for (i, text) in texts.iter().enumerate() {
            let at = format!("{field}[{i}]");
            let e =
                if positions { c.position_expr(self.g, &at, text, "a position") } else { c.expr(self.g, &at, text) };
            match e {
                Some(e) => out[i] = e,
                None => ok = false,
            }
        }
        ok.then_some(out)
    }

    /// The gravity vector `g d/|d|`, along `N`.
    fn gravity(&mut self, c: &mut Checker<'_>, spec: &crate::scenario::GravitySpec) -> Option<Vector> {
        let magnitude = c.position_expr(self.g, "gravity.magnitude", &spec.magnitude, "the gravity")?;
        let default = ["0", "0", "-1"].map(String::from).to_vec();
        let d = self.three(c, "gravity.direction", spec.direction.as_ref().unwrap_or(&default), true)?;
        let length = norm(self.g, &d);
        let factor = self.g.div(magnitude, length);
        Some(scale(self.g, factor, &d))
    }

    /// A body's `T`, mass and centre point.
    fn body(&mut self, c: &mut Checker<'_>, k: usize, spec: &BodySpec) -> Option<(ExprId, ExprId, String)> {
        let field = format!("bodies[{k}]");
        if spec.name.trim().is_empty() {
            c.at(&format!("{field}.name"), "a body needs a name");
        } else if self.bodies.contains_key(&spec.name) {
            c.at(&format!("{field}.name"), format!("a second body named `{}`", spec.name));
        }
        let frame = match self.frames.get(&spec.frame) {
            Some(f) => Some(f.clone()),
            None => {
                if !self.declared.contains(&format!("frame {}", spec.frame)) {
                    let hint = suggestion(&spec.frame, self.frames.keys().map(String::as_str));
                    c.at(&format!("{field}.frame"), format!("`{}` is not a frame{hint}", spec.frame));
                }
                None
            }
        };
        let centre = self.points.get(&spec.centre).copied();
        if centre.is_none() && !self.declared.contains(&format!("point {}", spec.centre)) {
            let hint = suggestion(&spec.centre, self.points.keys().map(String::as_str));
            c.at(&format!("{field}.centre"), format!("`{}` is not a point{hint}", spec.centre));
        }
        let mass = c.position_expr(self.g, &format!("{field}.mass"), &spec.mass, "a mass");
        let i = &spec.inertia;
        let mut tensor = [[self.g.zero(); 3]; 3];
        let mut ok = true;
        for (key, text, (r, col)) in [
            ("xx", &i.xx, (0, 0)),
            ("yy", &i.yy, (1, 1)),
            ("zz", &i.zz, (2, 2)),
            ("xy", &i.xy, (0, 1)),
            ("xz", &i.xz, (0, 2)),
            ("yz", &i.yz, (1, 2)),
        ] {
            let Some(text) = text else { continue };
            match c.position_expr(self.g, &format!("{field}.inertia.{key}"), text, "an inertia") {
                Some(e) => {
                    tensor[r][col] = e;
                    tensor[col][r] = e;
                }
                None => ok = false,
            }
        }
        if let Some(shape) = &spec.shape {
            self.shape(c, &format!("{field}.shape"), shape);
        }
        let (frame, centre, mass) = (frame?, centre?, mass?);
        if !ok {
            return None;
        }
        let omega = match frame.rotation {
            Some(r) => transpose_rotate(self.g, &r, &frame.omega),
            None => {
                let isotropic = tensor[0][0] == tensor[1][1]
                    && tensor[1][1] == tensor[2][2]
                    && [tensor[0][1], tensor[0][2], tensor[1][2]].iter().all(|&x| self.g.is_zero(x));
                if !isotropic {
                    c.at(
                        &format!("{field}.inertia"),
                        format!(
                            "frame `{}` has no orientation (only an angular velocity): its body needs equal \
                             principal moments (xx = yy = zz) and no products of inertia",
                            spec.frame
                        ),
                    );
                    return None;
                }
                frame.omega
            }
        };
        let velocity = self.velocity(&centre)?;
        let half = self.g.rational(1, 2);
        let translation = dot(self.g, &velocity, &velocity);
        let i_omega = rotate(self.g, &tensor, &omega);
        let rotation = dot(self.g, &omega, &i_omega);
        let m_v2 = self.g.mul2(mass, translation);
        let sum = self.g.add2(m_v2, rotation);
        let t = self.g.mul2(half, sum);
        self.bodies.insert(spec.name.clone(), Body { frame: spec.frame.clone(), centre: spec.centre.clone() });
        Some((t, mass, spec.centre.clone()))
    }

    /// `ṙ`, component by component.
    fn velocity(&mut self, r: &Vector) -> Option<Vector> {
        let mut v = [self.g.zero(); 3];
        for (out, &x) in v.iter_mut().zip(r) {
            *out = self.g.time_derivative(x).ok()?;
        }
        Some(v)
    }

    fn shape(&mut self, c: &mut Checker<'_>, field: &str, shape: &ShapeSpec) {
        let needs: &[&str] = match shape.kind.as_str() {
            "disk" => &["radius", "axis"],
            "cylinder" => &["radius", "length", "axis"],
            "sphere" => &["radius"],
            "box" => &["size"],
            "ellipsoid" => &["semi_axes"],
            "segments" => &["points"],
            other => {
                let hint = suggestion(other, ["disk", "cylinder", "sphere", "box", "ellipsoid", "segments"]);
                c.at(&format!("{field}.kind"), format!("`{other}` is not a shape{hint}"));
                return;
            }
        };
        for &key in needs {
            let present = match key {
                "radius" => shape.radius.is_some(),
                "length" => shape.length.is_some(),
                "axis" => shape.axis.is_some(),
                "size" => !shape.size.is_empty(),
                "semi_axes" => !shape.semi_axes.is_empty(),
                _ => !shape.points.is_empty(),
            };
            if !present {
                c.at(field, format!("a {} needs `{key}`", shape.kind));
            }
        }
        for (key, text) in [("radius", &shape.radius), ("length", &shape.length)] {
            if let Some(text) = text {
                c.position_expr(self.g, &format!("{field}.{key}"), text, "a size");
            }
        }
        if let Some(axis) = &shape.axis {
            if !["x", "y", "z"].contains(&axis.as_str()) {
                c.at(&format!("{field}.axis"), format!("the axis is `x`, `y` or `z`, not `{axis}`"));
            }
        }
        for (key, list) in [("size", &shape.size), ("semi_axes", &shape.semi_axes)] {
            if !list.is_empty() {
                self.three(c, &format!("{field}.{key}"), list, true);
            }
        }
        for (i, p) in shape.points.iter().enumerate() {
            self.three(c, &format!("{field}.points[{i}]"), p, true);
        }
    }

    /// The velocity of the material point of body `name` at `r` (zero for the ground).
    fn material_velocity(&mut self, name: &str, r: &Vector) -> Option<Vector> {
        let body = self.bodies.get(name)?.clone();
        let frame = self.frames.get(&body.frame)?.clone();
        let centre = self.points.get(&body.centre).copied()?;
        let v = self.velocity(&centre)?;
        let arm = sub(self.g, r, &centre);
        let spin = cross(self.g, &frame.omega, &arm);
        Some(add(self.g, &v, &spin))
    }

    fn rolling(
        &mut self,
        c: &mut Checker<'_>,
        j: usize,
        spec: &crate::scenario::RollingSpec,
        out: &mut Vec<(String, String, ExprId)>,
    ) {
        let field = format!("rolling[{j}]");
        let on = spec.on.as_deref().unwrap_or("ground");
        let mut ok = true;
        for (key, name) in [("body", spec.body.as_str()), ("on", on)] {
            if (key == "on" && name == "ground") || self.bodies.contains_key(name) {
                continue;
            }
            ok = false;
            if self.declared.contains(&format!("body {name}")) {
                continue;
            }
            let hint = suggestion(
                name,
                self.bodies.keys().map(String::as_str).chain([if key == "on" { "ground" } else { "" }]),
            );
            c.at(&format!("{field}.{key}"), format!("`{name}` is not a body{hint}"));
        }
        if on == spec.body {
            c.at(&format!("{field}.on"), "a body does not roll on itself");
            ok = false;
        }
        let Some(contact) = self.points.get(&spec.contact).copied() else {
            if self.declared.contains(&format!("point {}", spec.contact)) {
                return;
            }
            let hint = suggestion(&spec.contact, self.points.keys().map(String::as_str));
            c.at(&format!("{field}.contact"), format!("`{}` is not a point{hint}", spec.contact));
            return;
        };
        if !ok {
            return;
        }
        let Some(mut relative) = self.material_velocity(&spec.body, &contact) else { return };
        if on != "ground" {
            let Some(other) = self.material_velocity(on, &contact) else { return };
            relative = sub(self.g, &relative, &other);
        }
        let name = spec.name.clone().unwrap_or_else(|| format!("{} rolls on {on}", spec.body));
        for (axis, &f) in ["x", "y"].iter().zip(&relative) {
            out.push((format!("{name}: {axis}"), field.clone(), f));
        }
    }
}

/// Builds `names` in an order where each one's base (a parent frame, a base point)
/// comes first: `build` returns false while the base is not built yet. What is left
/// refers to a missing base or lies on a cycle.
fn in_base_order<'a>(mut pending: Vec<&'a String>, mut build: impl FnMut(&'a str) -> bool) -> Vec<&'a String> {
    loop {
        let before = pending.len();
        pending.retain(|name| !build(name.as_str()));
        if pending.is_empty() || pending.len() == before {
            return pending;
        }
    }
}

/// ` (did you mean `a`?)` or nothing.
fn suggestion<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    let hint = nearest(name, known.into_iter().filter(|k| !k.is_empty()));
    if hint.is_empty() {
        String::new()
    } else {
        format!("; did you mean `{}`?", hint.join("`, `"))
    }
}

/// The rotation by `theta` about axis `a` (0, 1, 2): its columns are the turned axes.
fn elementary(g: &mut ExprGraph, a: usize, theta: ExprId) -> [[ExprId; 3]; 3] {
    let (zero, one) = (g.zero(), g.one());
    let c = g.call(Function::Cos, theta);
    let s = g.call(Function::Sin, theta);
    let minus_s = g.neg(s);
    match a {
        0 => [[one, zero, zero], [zero, c, minus_s], [zero, s, c]],
        1 => [[c, zero, s], [zero, one, zero], [minus_s, zero, c]],
        _ => [[c, minus_s, zero], [s, c, zero], [zero, zero, one]],
    }
}

fn multiply(g: &mut ExprGraph, a: &[[ExprId; 3]; 3], b: &[[ExprId; 3]; 3]) -> [[ExprId; 3]; 3] {
    let mut out = [[g.zero(); 3]; 3];
    for (i, row) in out.iter_mut().enumerate() {
        for (j, x) in row.iter_mut().enumerate() {
            let terms: Vec<ExprId> = (0..3).map(|k| g.mul2(a[i][k], b[k][j])).collect();
            *x = g.add(&terms);
        }
    }
    out
}

/// `M v` for any 3×3 `M` (a rotation's `R v`: a frame's components along `N`).
fn rotate(g: &mut ExprGraph, m: &[[ExprId; 3]; 3], v: &Vector) -> Vector {
    let mut out = [g.zero(); 3];
    for (o, row) in out.iter_mut().zip(m) {
        *o = dot(g, row, v);
    }
    out
}

/// `Rᵀ v`: a vector along `N` in the frame's components.
fn transpose_rotate(g: &mut ExprGraph, r: &[[ExprId; 3]; 3], v: &Vector) -> Vector {
    let mut out = [g.zero(); 3];
    for (j, o) in out.iter_mut().enumerate() {
        let column = [r[0][j], r[1][j], r[2][j]];
        *o = dot(g, &column, v);
    }
    out
}

fn dot(g: &mut ExprGraph, a: &Vector, b: &Vector) -> ExprId {
    let terms: Vec<ExprId> = a.iter().zip(b).map(|(&x, &y)| g.mul2(x, y)).collect();
    g.add(&terms)
}

fn cross(g: &mut ExprGraph, a: &Vector, b: &Vector) -> Vector {
    let mut out = [g.zero(); 3];
    for (i, o) in out.iter_mut().enumerate() {
        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
        let p = g.mul2(a[j], b[k]);
        let q = g.mul2(a[k], b[j]);
        *o = g.sub(p, q);
    }
    out
}

fn add(g: &mut ExprGraph, a: &Vector, b: &Vector) -> Vector {
    [g.add2(a[0], b[0]), g.add2(a[1], b[1]), g.add2(a[2], b[2])]
}

fn sub(g: &mut ExprGraph, a: &Vector, b: &Vector) -> Vector {
    [g.sub(a[0], b[0]), g.sub(a[1], b[1]), g.sub(a[2], b[2])]
}

fn scale(g: &mut ExprGraph, k: ExprId, v: &Vector) -> Vector {
    [g.mul2(k, v[0]), g.mul2(k, v[1]), g.mul2(k, v[2])]
}

fn norm(g: &mut ExprGraph, v: &Vector) -> ExprId {
    let squared = dot(g, v, v);
    g.sqrt(squared)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rotation matrices are orthonormal and compose in the order written.
    #[test]
    fn elementary_rotations_turn_the_axes_the_right_way() {
        let mut g = ExprGraph::new();
        let theta = g.parse("pi/2").unwrap();
        let rz = elementary(&mut g, 2, theta);
        // x turned a quarter about z is y: R's first column is (0, 1, 0).
        let column: Vec<f64> = (0..3).map(|i| g.evaluate(rz[i][0], &|_| 0.0)).collect();
        assert!((column[0]).abs() < 1e-15 && (column[1] - 1.0).abs() < 1e-15 && column[2].abs() < 1e-15, "{column:?}");
        let rx = elementary(&mut g, 0, theta);
        let both = multiply(&mut g, &rz, &rx);
        // z after a quarter about z, then a quarter about the new x (which is N's
        // y): a right-handed turn about y takes z to x.
        let z: Vec<f64> = (0..3).map(|i| g.evaluate(both[i][2], &|_| 0.0)).collect();
        assert!((z[0] - 1.0).abs() < 1e-15 && z[1].abs() < 1e-15 && z[2].abs() < 1e-15, "{z:?}");
    }
}
