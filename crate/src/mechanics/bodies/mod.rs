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
//!
//! This file holds the types and [`build`], which runs the builder through the
//! scenario's tables in order; the builder's methods are one concept a file:
//! `frames.rs`, `points.rs` (points, vectors, gravity), `body.rs`, `shape.rs`,
//! `rolling.rs`, `loads.rs`; the vector algebra is `algebra.rs`, the vector
//! expressions' grammar `vector_expr.rs`, the contact forces' terms
//! `contact_terms.rs`.

use alloc::collections::BTreeMap;
use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

mod algebra;
mod body;
mod contact_terms;
mod frames;
mod loads;
mod points;
mod rolling;
mod shape;
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

/// What a `Source`'s expression is, for a message about it.
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
