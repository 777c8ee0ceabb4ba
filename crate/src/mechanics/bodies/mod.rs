//! Frames, points, vectors, rigid bodies, gravity, loads and rolling contact
//! (nhlab's additions `[frames]`, `[points]`, `[vectors]`, `[[bodies]]`,
//! `[gravity]`, `[[loads]]`, `[[rolling]]`), turned into what the rest of the model
//! is made of: a share of `T`, `V` and `Q`, constraints, and named components
//! (`G_x`, `G_y`, `G_z` for point `G`) usable in any expression.
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
//!   same of `C` (zero for the ground) has zero components along the two tangents
//!   (default `N`'s x and y). `P` may move over the bodies (a rattleback's contact):
//!   what rolls is the material point there, not `ṙ_P`;
//! - a force `F` at point `P` of body `B` and a torque `τ` on `B` add
//!   `F·∂v_P/∂q̇_i + τ·∂ω_B/∂q̇_i` to `Q_i`.
//!
//! Written here rather than taken from a crate: the vectors are symbolic, in the
//! lab's own expression graph (no `no_std` symbolic crate exists, see `expr`).

use alloc::collections::BTreeMap;
use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

mod algebra;
mod contact_terms;
mod vector_expr;

pub use contact_terms::{BodyTerm, ContactTerm, ContactTerms, Wrench};

use super::checker::Checker;
use super::scene::{Element, Form};
use crate::expr::{is_identifier, ExprGraph, ExprId, SymbolKind};
use crate::math::Short;
use crate::message::{bodies as says, phrase, problem, Arg, Message, Part};
use crate::scenario::{BodySpec, LoadSpec, PositionSpec, Scenario, ShapeSpec};
use algebra::{
    add, cross, dot, elementary, identity, multiply, norm, rotate, scale, sub, transpose_rotate, Matrix, Vector,
};
use vector_expr::{Lookup, Outcome, Value};

/// A message that a point's or vector's component cannot be named (component,
/// name, reason).
type Unnamed = fn(Arg, Arg, Arg) -> Message;

/// A frame in the model's expressions.
#[derive(Clone, Debug)]
struct Frame {
    /// `rotation[i][j]`: component `i` (along `N`) of the frame's axis `j`; `None`
    /// for a frame given by its angular velocity alone.
    rotation: Option<Matrix>,
    /// The angular velocity relative to `N`, along `N`'s axes.
    omega: Vector,
    /// The same along the frame's own axes, built rotation by rotation
    /// (`ω' = Eᵀω + θ̇ eₐ`) for a frame with an orientation: for Euler angles this is
    /// `[θ̇ cos φ + ψ̇ sin θ sin φ, …]`, free of the first angle, where `Rᵀω` holds it
    /// until `sin²ψ + cos²ψ` is collapsed — which an expression kept factored (a
    /// body's forces) never is, so the printed equations kept an angle that drops
    /// out of the physics (Suslov's problem's `ψ`).
    own: Vector,
}

/// A body as the rest of the model needs it.
#[derive(Clone, Debug)]
struct Body {
    frame: String,
    centre: String,
}

/// An expression the bodies' tables made, with the field that wrote it: a value that
/// is not finite at a state is blamed there (`loads[0].torque`, `bodies[0].mass`), not
/// on `T`, `V` or `F`, of which it is a share and none of which is in the file.
#[derive(Clone, Debug)]
pub struct Source {
    /// The field (`bodies[0].mass`).
    pub field: String,
    /// What the expression is: the field's own value, or a share of it.
    pub what: SourceKind,
    /// The expression.
    pub expr: ExprId,
    /// Whether it is an energy, whose derivatives by the coordinates and velocities
    /// enter the equations too.
    pub energy: bool,
}

/// What a [`Source`]'s expression is, for a message about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SourceKind {
    /// The field's own value (a mass, a force).
    Value,
    /// A body's kinetic energy.
    Kinetic,
    /// A body's potential energy under gravity.
    Gravity,
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
    /// `Q_i` of the loads, by coordinate (empty without loads).
    pub forces: Vec<ExprId>,
    /// The bodies with a shape, for the scene.
    pub drawings: Vec<Element>,
    /// Every frame with an orientation: its rotation matrix (for `[[scene.shapes]]`).
    pub frames: BTreeMap<String, Matrix>,
    /// The expressions above by the fields that wrote them.
    pub sources: Vec<Source>,
    /// What the contact forces are found from (`None` without `[[rolling]]`).
    pub contacts: Option<ContactTerms>,
}

/// A body's shape, checked: its form, sizes and points in the body's frame.
struct Shape {
    form: Form,
    sizes: Vec<ExprId>,
    points: Vec<Vector>,
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

/// What vector expressions can name, as built so far.
#[derive(Default)]
struct Space {
    frames: BTreeMap<String, Frame>,
    points: BTreeMap<String, Vector>,
    /// `[vectors]` entries that are vectors.
    vectors: BTreeMap<String, Vector>,
    /// `[vectors]` entries that are scalars (definitions of the graph by now).
    scalars: BTreeSet<String>,
    /// Names the scenario declares (`frame A`, `point P`, `vector v`): one that is
    /// not built yet is waited for, and one that failed to build has its own
    /// message already, so what refers to it says nothing more.
    declared: BTreeSet<String>,
    /// The scenario's initial `t`, coordinates (0 where omitted) and parameters, by
    /// name, for [`vector_expr::Scope::sign_at_start`].
    start: BTreeMap<String, f64>,
}

impl Space {
    /// `e` at the scenario's start (NaN where it needs a velocity).
    fn value_at_start(&self, g: &ExprGraph, e: ExprId) -> f64 {
        g.evaluate(e, &|s| {
            let symbol = g.symbol(s);
            match symbol.kind {
                SymbolKind::Time => self.start.get("t").copied().unwrap_or(0.0),
                SymbolKind::Coordinate(_) | SymbolKind::Parameter(_) => {
                    self.start.get(&symbol.name).copied().unwrap_or(0.0)
                }
                _ => f64::NAN,
            }
        })
    }
}

impl vector_expr::Scope for Space {
    fn sign_at_start(&self, g: &ExprGraph, e: ExprId) -> f64 {
        let value = self.value_at_start(g, e);
        if value.is_finite() && value.abs() > 1e-12 {
            value.signum()
        } else {
            0.0
        }
    }

    fn vector(&self, name: &str) -> Lookup<Vector> {
        if let Some(v) = self.points.get(name).or_else(|| self.vectors.get(name)) {
            Lookup::Found(*v)
        } else if self.scalars.contains(name) {
            Lookup::Unknown
        } else if self.declared.contains(&format!("point {name}")) || self.declared.contains(&format!("vector {name}"))
        {
            Lookup::Pending
        } else {
            Lookup::Unknown
        }
    }

    fn frame(&self, name: &str) -> Lookup<(Option<Matrix>, Vector)> {
        match self.frames.get(name) {
            Some(f) => Lookup::Found((f.rotation, f.omega)),
            None if self.declared.contains(&format!("frame {name}")) => Lookup::Pending,
            None => Lookup::Unknown,
        }
    }

    fn names(&self) -> Vec<String> {
        self.frames.keys().chain(self.points.keys()).chain(self.vectors.keys()).cloned().collect()
    }
}

/// How building a point or vector went.
enum Built {
    Done,
    /// It names this declared point, vector or frame, not built yet.
    Waiting(String),
    /// Reported.
    Failed,
}

struct Builder<'g> {
    g: &'g mut ExprGraph,
    space: Space,
    bodies: BTreeMap<String, Body>,
    drawings: Vec<Element>,
    /// `Q_i` of the loads and of the pseudo-coordinates' terms, by coordinate
    /// (empty while there are none).
    forces: Vec<ExprId>,
    /// What the tables made, by field ([`Source`]).
    sources: Vec<Source>,
    /// The bodies, loads and contacts as the contact forces need them.
    records: (Vec<contact_terms::BodyRecord>, Vec<contact_terms::LoadRecord>, Vec<contact_terms::ContactRecord>),
}

/// What the scenario's points, `[vectors]` and frames are called (the origin and the
/// inertial frame too), with what each is: `point`, `vector` or `frame`.
pub(crate) fn vector_names(s: &Scenario) -> BTreeMap<String, &'static str> {
    (s.points.keys().map(|p| (p.clone(), "point")))
        .chain([(String::from(ORIGIN), "point"), (String::from(INERTIAL_FRAME), "frame")])
        .chain(s.vectors.keys().map(|v| (v.clone(), "vector")))
        .chain(s.frames.keys().map(|f| (f.clone(), "frame")))
        .collect()
}

/// Builds the additions of `s` into `g`, reporting every problem to `c`. Named
/// point components become definitions, so this runs before the expressions that
/// may use them are parsed.
pub(crate) fn build(c: &mut Checker<'_>, g: &mut ExprGraph, s: &Scenario) -> Contributions {
    let zero = g.zero();
    let declared = s
        .frames
        .keys()
        .map(|f| format!("frame {f}"))
        .chain(s.points.keys().map(|p| format!("point {p}")))
        .chain(s.vectors.keys().map(|v| format!("vector {v}")))
        .chain(s.bodies.iter().map(|b| format!("body {}", b.name)))
        .collect();
    let rotation = Some(identity(g));
    let mut start: BTreeMap<String, f64> =
        s.coordinates.iter().map(|q| (q.clone(), s.initial.q.get(q).copied().unwrap_or(0.0))).collect();
    start.extend(s.parameters.iter().map(|(name, &value)| (name.clone(), value)));
    start.insert("t".into(), s.initial.t);
    let mut b = Builder {
        g,
        space: Space { declared, start, ..Space::default() },
        bodies: BTreeMap::new(),
        drawings: Vec::new(),
        forces: Vec::new(),
        sources: Vec::new(),
        records: Default::default(),
    };
    b.space.frames.insert(INERTIAL_FRAME.into(), Frame { rotation, omega: [zero; 3], own: [zero; 3] });
    b.space.points.insert(ORIGIN.into(), [zero; 3]);
    for (what, count) in [
        ("frames", s.frames.len()),
        ("points", s.points.len()),
        ("vectors", s.vectors.len()),
        ("bodies", s.bodies.len()),
    ] {
        if count > MAX_FRAMES {
            c.said(what, problem::too_many(count, what, MAX_FRAMES));
            return Contributions::default();
        }
    }
    // Too many loads or contacts: those are refused, and the bodies still built, so
    // their names (`G_z`) are not reported unknown as well.
    let too_many_loads = s.loads.len() > MAX_FRAMES;
    if too_many_loads {
        c.said("loads", problem::too_many(s.loads.len(), "loads", MAX_FRAMES));
    }
    let too_many_contacts = s.rolling.len() > MAX_FRAMES;
    if too_many_contacts {
        c.said("rolling", says::too_many_contacts(s.rolling.len(), MAX_FRAMES));
    }
    let rotations: usize = s.frames.values().map(|f| f.rotations.len()).sum();
    if rotations > MAX_ROTATIONS_TOTAL {
        c.said("frames", says::rotations_in_all(rotations, MAX_ROTATIONS_TOTAL));
        return Contributions::default();
    }
    b.frames_in_order(c, s);
    b.points_and_vectors_in_order(c, s);
    let mut out = Contributions::default();
    let mut kinetic = Vec::new();
    let mut potential = Vec::new();
    let gravity = s.gravity.as_ref().and_then(|gs| b.gravity(c, gs));
    for (k, spec) in s.bodies.iter().enumerate() {
        if let Some((t, m, centre)) = b.body(c, k, spec) {
            kinetic.push(t);
            let field = format!("bodies[{k}]");
            b.source(field.clone(), SourceKind::Kinetic, t, true);
            if let (Some(direction), Some(r)) = (gravity, b.space.points.get(&centre).copied()) {
                // −m g (d·r)/|d|, with g folded into `direction` (see `gravity`).
                let height = dot(b.g, &direction, &r);
                let v = b.g.mul2(m, height);
                let v = b.g.neg(v);
                potential.push(v);
                b.source(field, SourceKind::Gravity, v, true);
            }
        }
    }
    if s.gravity.is_some() && s.bodies.is_empty() {
        c.said("gravity", says::gravity_without_bodies());
    }
    if !kinetic.is_empty() {
        out.kinetic = Some(b.g.add(&kinetic));
    }
    if !potential.is_empty() {
        out.potential = Some(b.g.add(&potential));
    }
    for (j, r) in s.rolling.iter().enumerate().filter(|_| !too_many_contacts) {
        // A contact declared twice adds only redundant rows (64 copies made every step
        // a 128-row least-squares solve): refused at the copy.
        let surface = |r: &crate::scenario::RollingSpec| {
            (r.body.clone(), r.on.clone().unwrap_or_else(|| "ground".into()), r.contact.clone(), r.tangents.clone())
        };
        if let Some(k) = s.rolling[..j].iter().position(|earlier| surface(earlier) == surface(r)) {
            let (body, on, contact, _) = surface(r);
            c.said(&format!("rolling[{j}]"), says::contact_twice(k, body, on, contact));
            continue;
        }
        b.rolling(c, j, r, &mut out.constraints);
    }
    for (k, load) in s.loads.iter().enumerate().filter(|_| !too_many_loads) {
        b.load(c, k, load);
    }
    if !b.records.2.is_empty() {
        let (bodies, loads, contacts) = core::mem::take(&mut b.records);
        out.contacts = contact_terms::derive(b.g, &bodies, &loads, &contacts, gravity);
    }
    out.forces = core::mem::take(&mut b.forces);
    out.sources = core::mem::take(&mut b.sources);
    out.drawings = core::mem::take(&mut b.drawings);
    out.frames = b.space.frames.iter().filter_map(|(name, f)| Some((name.clone(), f.rotation?))).collect();
    out
}

impl Builder<'_> {
    /// Frames in an order where every parent comes first; unknown parents and
    /// cycles reported.
    fn frames_in_order(&mut self, c: &mut Checker<'_>, s: &Scenario) {
        let mut pending: Vec<&String> = s.frames.keys().collect();
        for name in &pending {
            if name.as_str() == INERTIAL_FRAME {
                c.said_key(&format!("frames.{name}"), says::inertial_frame_named());
            }
        }
        pending.retain(|n| n.as_str() != INERTIAL_FRAME);
        for name in &pending {
            let parent = s.frames[*name].parent.as_deref().unwrap_or(INERTIAL_FRAME);
            if parent != INERTIAL_FRAME && !s.frames.contains_key(parent) {
                c.unknown(
                    &format!("frames.{name}.parent"),
                    parent,
                    crate::message::phrase::a_frame(),
                    s.frames.keys().map(String::as_str).chain([INERTIAL_FRAME]),
                );
            }
        }
        let pending = in_base_order(pending, |name| {
            let spec = &s.frames[name];
            let parent = spec.parent.as_deref().unwrap_or(INERTIAL_FRAME);
            if !self.space.frames.contains_key(parent) {
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
            c.said("frames", says::frames_cycle(cyclic.join(", ")));
        }
    }

    fn frame(&mut self, c: &mut Checker<'_>, name: &str, spec: &crate::scenario::FrameSpec, parent: &str) {
        let field = format!("frames.{name}");
        let Some(parent_frame) = self.space.frames.get(parent).cloned() else { return };
        if spec.rotations.len() > MAX_ROTATIONS {
            c.said(&format!("{field}.rotations"), says::too_many_rotations(spec.rotations.len(), MAX_ROTATIONS));
            return;
        }
        if let Some(w) = &spec.angular_velocity {
            if !spec.rotations.is_empty() {
                c.said(&field, says::rotations_and_angular_velocity());
                return;
            }
            let Some(w) = self.three_now(c, &format!("{field}.angular_velocity"), w, false) else { return };
            let Some(r) = parent_frame.rotation else {
                c.said(&format!("{field}.parent"), says::parent_has_no_axes(parent, name));
                return;
            };
            let along_n = rotate(self.g, &r, &w);
            let omega = add(self.g, &parent_frame.omega, &along_n);
            // No orientation: no own axes (`own` is never read for such a frame).
            self.space.frames.insert(name.into(), Frame { rotation: None, omega, own: omega });
            return;
        }
        let Some(mut rotation) = parent_frame.rotation else {
            c.said(&format!("{field}.parent"), says::parent_cannot_turn(parent));
            return;
        };
        let mut omega = parent_frame.omega;
        let mut own = parent_frame.own;
        for (k, turn) in spec.rotations.iter().enumerate() {
            let at = format!("{field}.rotations[{k}]");
            let mut entries = turn.iter();
            let (Some((axis, angle)), None) = (entries.next(), entries.next()) else {
                c.said(&at, says::rotation_pair());
                return;
            };
            let Some(a) = ["x", "y", "z"].iter().position(|x| x == axis) else {
                c.said_key(&format!("{at}.{axis}"), says::not_an_axis(axis));
                return;
            };
            let Some(theta) =
                c.position_expr(self.g, &format!("{at}.{axis}"), angle, crate::message::phrase::a_rotation_angle())
            else {
                return;
            };
            let Ok(rate) = self.g.time_derivative(theta) else { return };
            let about = rotation.map(|row| row[a]);
            let turning = scale(self.g, rate, &about);
            omega = add(self.g, &omega, &turning);
            let turn = elementary(self.g, a, theta);
            rotation = multiply(self.g, &rotation, &turn);
            own = transpose_rotate(self.g, &turn, &own);
            own[a] = self.g.add2(own[a], rate);
        }
        self.space.frames.insert(name.into(), Frame { rotation: Some(rotation), omega, own });
    }

    /// Points and `[vectors]` entries in an order where what each refers to comes
    /// first; each gets its named components (or, for a scalar, its name).
    fn points_and_vectors_in_order(&mut self, c: &mut Checker<'_>, s: &Scenario) {
        for name in s.points.keys() {
            if name.as_str() == ORIGIN {
                c.said_key(&format!("points.{name}"), says::origin_named());
            }
            let from = s.points[name].from.as_deref().unwrap_or(ORIGIN);
            if from != ORIGIN && !s.points.contains_key(from) {
                c.unknown(
                    &format!("points.{name}.from"),
                    from,
                    crate::message::phrase::a_point(),
                    s.points.keys().map(String::as_str).chain([ORIGIN]),
                );
            }
            if s.vectors.contains_key(name) {
                c.said_key(&format!("vectors.{name}"), says::point_already(name));
            }
        }
        let mut pending: Vec<(bool, &String)> = s
            .points
            .keys()
            .filter(|n| n.as_str() != ORIGIN)
            .map(|n| (true, n))
            .chain(s.vectors.keys().filter(|n| !s.points.contains_key(*n)).map(|n| (false, n)))
            .collect();
        // What each waits for, from the last attempt.
        let mut waits: BTreeMap<String, String> = BTreeMap::new();
        loop {
            let before = pending.len();
            pending.retain(|&(is_point, name)| {
                let built = if is_point {
                    self.point(c, name, &s.points[name.as_str()])
                } else {
                    self.vector_entry(c, name, &s.vectors[name.as_str()])
                };
                match built {
                    Built::Waiting(on) => {
                        waits.insert(name.clone(), on);
                        true
                    }
                    Built::Failed => {
                        self.space.declared.insert(format!("failed {name}"));
                        unavailable(c, name);
                        false
                    }
                    Built::Done => false,
                }
            });
            if pending.is_empty() || pending.len() == before {
                break;
            }
        }
        // Left: waiting for something that failed (its message says it), or for
        // each other.
        let failed = |name: &str| {
            self.space.declared.contains(&format!("failed {name}"))
                || (self.space.declared.contains(&format!("frame {name}")) && !self.space.frames.contains_key(name))
        };
        let mut cyclic: Vec<&str> = pending
            .iter()
            .filter(|(_, n)| waits.get(n.as_str()).is_some_and(|on| !failed(on)))
            .map(|(_, n)| n.as_str())
            .collect();
        cyclic.sort_unstable();
        for (_, name) in &pending {
            unavailable(c, name);
        }
        if !cyclic.is_empty() {
            let table = if pending.iter().all(|(p, _)| *p) { "points" } else { "vectors" };
            c.said(table, says::points_cycle(cyclic.join(", ")));
        }
    }

    /// Parses a vector expression; `None` with the problem reported, or the name
    /// it waits for.
    fn vector_value(&mut self, c: &mut Checker<'_>, field: &str, text: &str) -> Result<Value, Built> {
        match vector_expr::parse(self.g, &self.space, text) {
            Outcome::Done(v) => Ok(v),
            Outcome::Pending(name) => Err(Built::Waiting(name)),
            Outcome::Failed(e) => {
                c.parse_error(field, &e);
                Err(Built::Failed)
            }
        }
    }

    /// A vector expression that must be a vector.
    /// `what` is a [`phrase`] ("a force").
    fn vector_of(&mut self, c: &mut Checker<'_>, field: &str, text: &str, what: Message) -> Result<Vector, Built> {
        match self.vector_value(c, field, text)? {
            Value::Vector(v) => Ok(v),
            Value::Scalar(_) => {
                c.said(field, says::vector_expected(Part(what)));
                Err(Built::Failed)
            }
        }
    }

    /// Whether `v` is free of velocities; reported at `field` if not (`what`: a
    /// [`phrase`]).
    fn positions_only(&self, c: &mut Checker<'_>, field: &str, v: &[ExprId], what: fn() -> Message) -> bool {
        let mut velocities: Vec<String> = Vec::new();
        for &x in v {
            for s in self.g.free_symbols(x) {
                let name = self.g.display_symbol(s);
                if matches!(self.g.symbol(s).kind, SymbolKind::Velocity(_)) && !velocities.contains(&name) {
                    velocities.push(name);
                }
            }
        }
        if !velocities.is_empty() {
            c.said(field, problem::positions_only(Part(what()), velocities.join("`, `")));
        }
        velocities.is_empty()
    }

    fn point(&mut self, c: &mut Checker<'_>, name: &str, spec: &crate::scenario::PointSpec) -> Built {
        let field = format!("points.{name}");
        let from = spec.from.as_deref().unwrap_or(ORIGIN);
        let Some(base) = self.space.points.get(from).copied() else {
            return Built::Waiting(from.into());
        };
        let offset = match &spec.position {
            PositionSpec::Expression(text) => {
                if spec.frame.is_some() {
                    c.said(&format!("{field}.frame"), says::frame_with_expression());
                    return Built::Failed;
                }
                let at = format!("{field}.position");
                match self.vector_of(c, &at, text, phrase::a_points_position()) {
                    Ok(v) if self.positions_only(c, &at, &v, phrase::a_position) => v,
                    Ok(_) => return Built::Failed,
                    Err(b) => return b,
                }
            }
            PositionSpec::Components(texts) => {
                let frame_name = spec.frame.as_deref().unwrap_or(INERTIAL_FRAME);
                let r = match self.space.frames.get(frame_name) {
                    Some(Frame { rotation: Some(r), .. }) => *r,
                    Some(_) => {
                        c.said(&format!("{field}.frame"), says::position_frame_has_no_axes(frame_name));
                        return Built::Failed;
                    }
                    None => {
                        if !self.space.declared.contains(&format!("frame {frame_name}")) {
                            c.unknown(
                                &format!("{field}.frame"),
                                frame_name,
                                crate::message::phrase::a_frame(),
                                self.space.frames.keys().map(String::as_str),
                            );
                        }
                        return Built::Failed;
                    }
                };
                let components = match self.three(c, &format!("{field}.position"), texts, true) {
                    Ok(v) => v,
                    Err(b) => return b,
                };
                rotate(self.g, &r, &components)
            }
        };
        let position = add(self.g, &base, &offset);
        self.name_components(c, &field, name, says::point_component_unnamed, &position);
        self.space.points.insert(name.into(), position);
        Built::Done
    }

    /// A `[vectors]` entry: a vector's components or a scalar, named.
    fn vector_entry(&mut self, c: &mut Checker<'_>, name: &str, text: &str) -> Built {
        let field = format!("vectors.{name}");
        match self.vector_value(c, &field, text) {
            Ok(Value::Vector(v)) => {
                self.name_components(c, &field, name, says::vector_component_unnamed, &v);
                self.space.vectors.insert(name.into(), v);
                Built::Done
            }
            Ok(Value::Scalar(x)) => {
                match self.g.declare_definition(name) {
                    Ok(id) => self.g.set_definition_body(id, x),
                    Err(e) => c.said_key(&field, says::scalar_unnamed(name, Part(e.message()))),
                }
                self.space.scalars.insert(name.into());
                Built::Done
            }
            Err(b) => b,
        }
    }

    /// Declares `<name>_x`, `<name>_y`, `<name>_z` as `v`'s components; `unnamed`
    /// says why one cannot be.
    fn name_components(&mut self, c: &mut Checker<'_>, field: &str, name: &str, unnamed: Unnamed, v: &Vector) {
        for (axis, &x) in ["x", "y", "z"].iter().zip(v) {
            let component = format!("{name}_{axis}");
            match self.g.declare_definition(&component) {
                Ok(id) => self.g.set_definition_body(id, x),
                Err(e) => {
                    c.said_key(field, unnamed(component.as_str().into(), name.into(), Part(e.message()).into()));
                }
            }
        }
    }

    /// Three scalar expressions; `positions` forbids velocities.
    fn three(&mut self, c: &mut Checker<'_>, field: &str, texts: &[String], positions: bool) -> Result<Vector, Built> {
        if texts.len() != 3 {
            c.said(field, says::three_components(texts.len()));
            return Err(Built::Failed);
        }
        let mut out = [self.g.zero(); 3];
        let mut failed = false;
        for (i, text) in texts.iter().enumerate() {
            let at = format!("{field}[{i}]");
            match self.vector_value(c, &at, text)? {
                Value::Scalar(x) if !positions || self.positions_only(c, &at, &[x], phrase::a_position) => out[i] = x,
                Value::Scalar(_) => failed = true,
                Value::Vector(_) => {
                    c.said(&at, says::component_is_scalar());
                    failed = true;
                }
            }
        }
        if failed {
            Err(Built::Failed)
        } else {
            Ok(out)
        }
    }

    /// [`three`](Self::three) where nothing can be waited for: frames come before
    /// points and vectors, and the rest after them (what is still missing then
    /// failed, with its own message).
    fn three_now(&mut self, c: &mut Checker<'_>, field: &str, texts: &[String], positions: bool) -> Option<Vector> {
        match self.three(c, field, texts, positions) {
            Ok(v) => Some(v),
            Err(Built::Waiting(name)) if !self.space.declared.contains(&format!("failed {name}")) => {
                c.said(field, says::not_built_yet(name));
                None
            }
            Err(_) => None,
        }
    }
    /// The gravity vector `g d/|d|`, along `N`.
    fn gravity(&mut self, c: &mut Checker<'_>, spec: &crate::scenario::GravitySpec) -> Option<Vector> {
        let magnitude =
            c.position_expr(self.g, "gravity.magnitude", &spec.magnitude, crate::message::phrase::the_gravity())?;
        self.source("gravity.magnitude".into(), SourceKind::Value, magnitude, false);
        let default = ["0", "0", "-1"].map(String::from).to_vec();
        let d = self.three_now(c, "gravity.direction", spec.direction.as_ref().unwrap_or(&default), true)?;
        if d.iter().all(|&x| self.g.as_number(x).is_some_and(|x| x.is_zero())) {
            c.said("gravity.direction", says::gravity_zero());
            return None;
        }
        let space = &self.space;
        let length = norm(self.g, &d, &|g, e| vector_expr::Scope::sign_at_start(space, g, e));
        let factor = self.g.div(magnitude, length);
        Some(scale(self.g, factor, &d))
    }

    /// A body's `T`, mass and centre point.
    fn body(&mut self, c: &mut Checker<'_>, k: usize, spec: &BodySpec) -> Option<(ExprId, ExprId, String)> {
        let field = format!("bodies[{k}]");
        if spec.name.trim().is_empty() {
            c.said(&format!("{field}.name"), says::body_name_missing());
        } else if self.bodies.contains_key(&spec.name) {
            c.said(&format!("{field}.name"), says::body_twice(&spec.name));
        }
        let frame = match self.space.frames.get(&spec.frame) {
            Some(f) => Some(f.clone()),
            // No `frame` key: said at the body's table, where the key belongs.
            None if spec.frame.trim().is_empty() => {
                c.said(&field, says::body_frame_missing());
                None
            }
            None => {
                if !self.space.declared.contains(&format!("frame {}", spec.frame)) {
                    let frames = self.space.frames.keys().map(String::as_str);
                    c.unknown(&format!("{field}.frame"), &spec.frame, crate::message::phrase::a_frame(), frames);
                }
                None
            }
        };
        let centre = self.space.points.get(&spec.centre).copied();
        if centre.is_none() && !self.space.declared.contains(&format!("point {}", spec.centre)) {
            let points = self.space.points.keys().map(String::as_str);
            c.unknown(&format!("{field}.centre"), &spec.centre, crate::message::phrase::a_point(), points);
        }
        let mass = c.position_expr(self.g, &format!("{field}.mass"), &spec.mass, crate::message::phrase::a_mass());
        if let Some(m) = mass {
            self.source(format!("{field}.mass"), SourceKind::Value, m, false);
        }
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
            match c.position_expr(self.g, &format!("{field}.inertia.{key}"), text, crate::message::phrase::an_inertia())
            {
                Some(e) => {
                    tensor[r][col] = e;
                    tensor[col][r] = e;
                    self.source(format!("{field}.inertia.{key}"), SourceKind::Value, e, false);
                }
                None => ok = false,
            }
        }
        let shape = spec.shape.as_ref().and_then(|shape| self.shape(c, &format!("{field}.shape"), shape));
        let (frame, centre, mass) = (frame?, centre?, mass?);
        if !ok || !self.physical(c, &field, mass, &tensor) {
            return None;
        }
        let omega = match frame.rotation {
            Some(_) => frame.own,
            None => {
                let isotropic = tensor[0][0] == tensor[1][1]
                    && tensor[1][1] == tensor[2][2]
                    && [tensor[0][1], tensor[0][2], tensor[1][2]].iter().all(|&x| self.g.is_zero(x));
                if !isotropic {
                    c.said(&format!("{field}.inertia"), says::body_not_isotropic(&spec.frame));
                    return None;
                }
                self.pseudo_coordinate_terms(tensor[0][0], &frame.omega);
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
        if let Some(shape) = shape {
            let label = format!("body {}", spec.name);
            match (frame.rotation, shape.form) {
                (Some(axes), form) => {
                    self.drawings.push(Element::body(label, form, centre, axes, shape.sizes, shape.points));
                }
                // No orientation to draw a turning picture with: a sphere is drawn by
                // its outline, which needs none.
                (None, Form::Sphere) => {
                    let axes = identity(self.g);
                    self.drawings.push(Element::body(label, Form::Ball, centre, axes, shape.sizes, shape.points));
                }
                (None, _) => c.said(&format!("{field}.shape.kind"), says::body_drawn_as_sphere(&spec.frame)),
            }
        }
        self.bodies.insert(spec.name.clone(), Body { frame: spec.frame.clone(), centre: spec.centre.clone() });
        self.records.0.push(contact_terms::BodyRecord {
            name: spec.name.clone(),
            mass,
            centre,
            rotation: frame.rotation,
            omega: frame.omega,
            own: frame.own,
            inertia: tensor,
        });
        Some((t, mass, spec.centre.clone()))
    }

    /// Adds `term` to `Q_i` (the generalised forces start at zero when first added to).
    fn source(&mut self, field: String, what: SourceKind, expr: ExprId, energy: bool) {
        self.sources.push(Source { field, what, expr, energy });
    }

    fn add_force(&mut self, i: usize, term: ExprId) {
        if self.forces.is_empty() {
            self.forces = alloc::vec![self.g.zero(); self.g.coordinate_count()];
        }
        self.forces[i] = self.g.add2(self.forces[i], term);
    }

    /// The terms that make Lagrange's equations true for a body whose frame is given
    /// by its angular velocity `ω` (affine in the velocities), with inertia `I` about
    /// every axis (so its angular momentum is `L = I ω`).
    ///
    /// The rates in `ω` need not be rates of true coordinates (`θx'` along a turning
    /// parent's axes is not the rate of any angle). For a coordinate `qₖ` Lagrange's
    /// operator on `½ I ω·ω` is `L̇·eₖ + L·Dₖ` with `eₖ = ∂ω/∂q̇ₖ` (the virtual
    /// rotation of `δqₖ`) and `Dₖ = d/dt eₖ − ∂ω/∂qₖ`, while the motion needs
    /// `L̇·eₖ = τ·eₖ`. For true coordinates `Dₖ = ω × eₖ`, and `L·(ω × eₖ) = 0`
    /// since `L ∥ ω`; for the rates of pseudo-coordinates it is not (along a parent
    /// turning at `ω_p`, `Dₖ = ω_p × eₖ`: the gyroscopic term of Hamel's and
    /// Boltzmann's equations). So `L·Dₖ` joins `Q_k`; it is zero, and nothing is
    /// added, where `ω` is along `N` with constant coefficients (the usual ball).
    fn pseudo_coordinate_terms(&mut self, inertia: ExprId, omega: &Vector) {
        let momentum = scale(self.g, inertia, omega);
        for k in 0..self.g.coordinate_count() {
            let [q, v, _] = self.g.coordinate(k);
            let mut d = [self.g.zero(); 3];
            for (out, &w) in d.iter_mut().zip(omega) {
                let e = self.g.diff(w, v);
                let Ok(rate) = self.g.time_derivative(e) else { return };
                let along_q = self.g.diff(w, q);
                *out = self.g.sub(rate, along_q);
            }
            if d.iter().all(|&x| self.g.is_zero(x)) {
                continue;
            }
            let term = dot(self.g, &momentum, &d);
            let term = self.g.expand_within(term, super::constraint::EXPAND_BUDGET);
            self.add_force(k, term);
        }
    }

    /// Whether a body's mass and inertia can be right at the start — a mass and
    /// principal moments that are not negative (0 is allowed: a massless turntable, a
    /// planar body with only `zz`) — else said at `mass` or `inertia` (a negative
    /// moment made the mass matrix indefinite, and the message blamed `kinetic`,
    /// which the file did not have).
    fn physical(&mut self, c: &mut Checker<'_>, field: &str, mass: ExprId, tensor: &[[ExprId; 3]; 3]) -> bool {
        let m = self.space.value_at_start(self.g, mass);
        if m.is_finite() && m < 0.0 {
            c.said(&format!("{field}.mass"), says::mass_negative(Short(m)));
            return false;
        }
        let values = nalgebra::DMatrix::from_fn(3, 3, |r, k| self.space.value_at_start(self.g, tensor[r][k]));
        if values.iter().any(|x| !x.is_finite()) {
            return true;
        }
        let (moments, _) = crate::formulations::jacobi::symmetric_eigen(&values);
        let scale = moments.iter().fold(0.0f64, |a, x| a.max(x.abs()));
        if moments.iter().any(|&x| x < -1e-12 * scale) {
            let mut sorted: Vec<f64> = moments.iter().copied().collect();
            sorted.sort_by(f64::total_cmp);
            let listed: Vec<String> = sorted.iter().map(|&x| crate::math::short_number(x)).collect();
            c.said(&format!("{field}.inertia"), says::inertia_negative(listed.join(", ")));
            return false;
        }
        true
    }

    /// `ṙ`, component by component.
    fn velocity(&mut self, r: &Vector) -> Option<Vector> {
        let mut v = [self.g.zero(); 3];
        for (out, &x) in v.iter_mut().zip(r) {
            *out = self.g.time_derivative(x).ok()?;
        }
        Some(v)
    }

    /// Checks a body's shape; its form, sizes and local points when all is well.
    fn shape(&mut self, c: &mut Checker<'_>, field: &str, shape: &ShapeSpec) -> Option<Shape> {
        let needs: &[&str] = match shape.kind.as_str() {
            "disk" => &["radius", "axis"],
            "cylinder" => &["radius", "length", "axis"],
            "sphere" => &["radius"],
            "box" => &["size"],
            "ellipsoid" => &["semi_axes"],
            "segments" => &["points"],
            other => {
                const KINDS: [&str; 6] = ["disk", "cylinder", "sphere", "box", "ellipsoid", "segments"];
                let said = match phrase::did_you_mean(other, KINDS) {
                    Some(hint) => says::not_a_shape(other, Part(hint)),
                    None => says::not_a_shape_list(other, KINDS.join(", ")),
                };
                c.said(&format!("{field}.kind"), said);
                return None;
            }
        };
        let mut ok = true;
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
                c.said(field, says::shape_needs(&shape.kind, key));
                ok = false;
            }
        }
        let mut sizes = Vec::new();
        for (key, text) in [("radius", &shape.radius), ("length", &shape.length)] {
            if let Some(text) = text {
                match c.position_expr(self.g, &format!("{field}.{key}"), text, crate::message::phrase::a_size()) {
                    Some(e) => sizes.push(e),
                    None => ok = false,
                }
            }
        }
        let mut axis = 0;
        if let Some(name) = &shape.axis {
            match ["x", "y", "z"].iter().position(|a| a == name) {
                Some(k) => axis = k,
                None => {
                    c.said(&format!("{field}.axis"), says::not_an_axis(name));
                    ok = false;
                }
            }
        }
        for (key, list) in [("size", &shape.size), ("semi_axes", &shape.semi_axes)] {
            if !list.is_empty() {
                match self.three_now(c, &format!("{field}.{key}"), list, true) {
                    Some(v) => sizes.extend(v),
                    None => ok = false,
                }
            }
        }
        let mut points = Vec::new();
        for (i, p) in shape.points.iter().enumerate() {
            match self.three_now(c, &format!("{field}.points[{i}]"), p, true) {
                Some(v) => points.push(v),
                None => ok = false,
            }
        }
        let form = match shape.kind.as_str() {
            "disk" => Form::Disk { axis },
            "cylinder" => Form::Cylinder { axis },
            "sphere" => Form::Sphere,
            "box" => Form::Cuboid,
            "ellipsoid" => Form::Ellipsoid,
            _ => Form::Polyline,
        };
        ok.then_some(Shape { form, sizes, points })
    }

    /// The velocity of the material point of body `name` at `r` (zero for the ground).
    fn material_velocity(&mut self, name: &str, r: &Vector) -> Option<Vector> {
        let body = self.bodies.get(name)?.clone();
        let frame = self.space.frames.get(&body.frame)?.clone();
        let centre = self.space.points.get(&body.centre).copied()?;
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
            if self.space.declared.contains(&format!("body {name}")) {
                continue;
            }
            let bodies = self.bodies.keys().map(String::as_str).chain([if key == "on" { "ground" } else { "" }]);
            c.unknown(&format!("{field}.{key}"), name, crate::message::phrase::a_body(), bodies);
        }
        if on == spec.body {
            c.said(&format!("{field}.on"), says::rolls_on_itself());
            ok = false;
        }
        let Some(contact) = self.space.points.get(&spec.contact).copied() else {
            if self.space.declared.contains(&format!("point {}", spec.contact)) {
                return;
            }
            let points = self.space.points.keys().map(String::as_str);
            c.unknown(&format!("{field}.contact"), &spec.contact, crate::message::phrase::a_point(), points);
            return;
        };
        if !ok {
            return;
        }
        let tangents = match &spec.tangents {
            None => None,
            Some(texts) if texts.len() != 2 => {
                c.said(&format!("{field}.tangents"), says::two_tangents(texts.len()));
                return;
            }
            Some(texts) => {
                let mut both = Vec::new();
                for (i, text) in texts.iter().enumerate() {
                    let at = format!("{field}.tangents[{i}]");
                    let Ok(t) = self.vector_of(c, &at, text, phrase::a_tangent()) else { return };
                    if !self.positions_only(c, &at, &t, phrase::a_tangent) {
                        return;
                    }
                    // A tangent's label in the constraint's name: its text when
                    // that is a name (`e_r`), else its place.
                    let label = if is_identifier(text.trim()) { text.trim().into() } else { format!("t{}", i + 1) };
                    both.push((label, t));
                }
                Some(both)
            }
        };
        let Some(mut relative) = self.material_velocity(&spec.body, &contact) else { return };
        if on != "ground" {
            let Some(other) = self.material_velocity(on, &contact) else { return };
            relative = sub(self.g, &relative, &other);
        }
        let name = spec.name.clone().unwrap_or_else(|| format!("{} rolls on {on}", spec.body));
        let friction = match &spec.friction {
            None => None,
            Some(text) => {
                let at = format!("{field}.friction");
                let Some(mu) = c.position_expr(self.g, &at, text, crate::message::phrase::a_friction_coefficient())
                else {
                    return;
                };
                if self.g.free_symbols(mu).iter().any(|&s| matches!(self.g.symbol(s).kind, SymbolKind::Coordinate(_))) {
                    c.said(&at, says::friction_on_coordinates());
                    return;
                }
                let value = self.space.value_at_start(self.g, mu);
                if value.is_nan() || value < 0.0 {
                    c.said(&at, says::friction_negative(Short(value)));
                    return;
                }
                Some(mu)
            }
        };
        let (zero, one) = (self.g.zero(), self.g.one());
        let along = match &tangents {
            None => [[one, zero, zero], [zero, one, zero]],
            Some(both) => [both[0].1, both[1].1],
        };
        self.records.2.push(contact_terms::ContactRecord {
            name: name.clone(),
            field: field.clone(),
            body: spec.body.clone(),
            on: (on != "ground").then(|| on.into()),
            point: contact,
            relative,
            tangents: along,
            friction,
        });
        match tangents {
            None => {
                for (axis, &f) in ["x", "y"].iter().zip(&relative) {
                    out.push((format!("{name}: {axis}"), field.clone(), f));
                }
            }
            Some(tangents) => {
                for (label, t) in tangents {
                    let f = dot(self.g, &relative, &t);
                    out.push((format!("{name}: {label}"), field.clone(), f));
                }
            }
        }
    }

    /// A load's share of `Q`: `F·∂v_P/∂q̇_i + τ·∂ω_B/∂q̇_i`.
    fn load(&mut self, c: &mut Checker<'_>, k: usize, spec: &LoadSpec) {
        let field = format!("loads[{k}]");
        if spec.force.is_none() && spec.torque.is_none() {
            c.said(&field, says::load_empty());
            return;
        }
        let body = match &spec.body {
            Some(name) if self.bodies.contains_key(name) => Some(self.bodies[name].clone()),
            Some(name) => {
                if !self.space.declared.contains(&format!("body {name}")) {
                    c.unknown(
                        &format!("{field}.body"),
                        name,
                        crate::message::phrase::a_body(),
                        self.bodies.keys().map(String::as_str),
                    );
                }
                return;
            }
            None => None,
        };
        let mut work: Vec<(Vector, Vector)> = Vec::new();
        let mut record = contact_terms::LoadRecord { body: spec.body.clone(), force: None, torque: None };
        if let Some(text) = &spec.force {
            let Some(point) = &spec.point else {
                c.said(&format!("{field}.force"), says::force_needs_point());
                return;
            };
            let Some(r) = self.space.points.get(point).copied() else {
                if !self.space.declared.contains(&format!("point {point}")) {
                    c.unknown(
                        &format!("{field}.point"),
                        point,
                        crate::message::phrase::a_point(),
                        self.space.points.keys().map(String::as_str),
                    );
                }
                return;
            };
            let Ok(force) = self.vector_of(c, &format!("{field}.force"), text, phrase::a_force()) else { return };
            force.iter().for_each(|&x| self.source(format!("{field}.force"), SourceKind::Value, x, false));
            let velocity = match &spec.body {
                Some(name) => self.material_velocity(name, &r),
                None => self.velocity(&r),
            };
            let Some(velocity) = velocity else { return };
            record.force = Some((r, force));
            work.push((force, velocity));
        } else if spec.point.is_some() {
            c.said(&format!("{field}.point"), says::point_without_force());
            return;
        }
        if let Some(text) = &spec.torque {
            let Some(body) = body else {
                c.said(&format!("{field}.torque"), says::torque_needs_body());
                return;
            };
            let Ok(torque) = self.vector_of(c, &format!("{field}.torque"), text, phrase::a_torque()) else { return };
            torque.iter().for_each(|&x| self.source(format!("{field}.torque"), SourceKind::Value, x, false));
            let Some(frame) = self.space.frames.get(&body.frame) else { return };
            record.torque = Some(torque);
            work.push((torque, frame.omega));
        }
        self.records.1.push(record);
        for (load, rate) in work {
            for i in 0..self.g.coordinate_count() {
                let v = self.g.coordinate(i)[1];
                let partial: Vector = rate.map(|x| self.g.diff(x, v));
                let share = dot(self.g, &load, &partial);
                self.add_force(i, share);
            }
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

/// The names a point or vector `name` would have given expressions, for a build
/// that failed: expressions naming them are not blamed twice.
fn unavailable(c: &mut Checker<'_>, name: &str) {
    c.unavailable.insert(String::from(name));
    for axis in ["x", "y", "z"] {
        c.unavailable.insert(format!("{name}_{axis}"));
    }
}
