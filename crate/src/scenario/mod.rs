//! The scenario format `nhlab/1` (`docs/contract.md`): one mechanical system
//! with its initial state and how to show it, as TOML, JSON or inside a share URL.
//!
//! This module only reads and writes the format: [`load_toml`] and [`load_json`]
//! give a [`Scenario`] plus a [`SourceMap`] that locates every field in the text, so
//! that later validation (in `mechanics`) can point at line and column. Fields keep
//! the spec's names; every one is optional at this level so that a missing field is
//! reported together with every other problem instead of stopping the parse.

mod choices;
mod expression;
mod fields;
mod inputs;
mod json;
mod load;
mod parameters;
mod places;
mod problem;
mod share;

pub use choices::{method_integrator_runs, IntegratorKind, Method, OnInvalid, Projection, Stabilization};
pub use inputs::{InputSpec, Signal, MAX_SIGNAL_POINTS};
pub use load::{format_of, load, load_json, load_toml, Format, SourceMap};
pub use parameters::{ParameterRange, Parameters};
pub use problem::{Problem, Problems};
pub use share::{
    decode_share, encode_share, encode_share_text, share_text, MAX_INFLATED_BYTES, MAX_PAYLOAD_CHARS, SHARE_LINK_FIELD,
    SHARE_VERSION, SHARE_VERSION_JSON,
};

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

/// Most parameter sets in `[compare]`: each has a colour of its own in the plots
/// (the palette's entries after the methods'), and every set multiplies the runs.
pub const MAX_COMPARE_SETS: usize = 3;

/// The only format version this crate reads and writes.
pub const FORMAT: &str = "nhlab/1";

/// A scenario as written, before validation.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Scenario {
    /// Must be [`FORMAT`].
    pub format: String,
    /// Short plain text.
    pub title: String,
    /// Plain text, never HTML.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Where the system comes from.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    /// One line the page shows under the title: what the reader is looking at and
    /// what to try (nhlab addition). Plain text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hint: Option<String>,
    /// Generalised coordinates, in order.
    pub coordinates: Vec<String>,
    /// Kinetic energy `T(q, q', t)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "expression::option")]
    pub kinetic: Option<String>,
    /// Potential `V(q, t)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "expression::option")]
    pub potential: Option<String>,
    /// Parameter values (sliders in the lab), with the sliders' ranges and units
    /// where the table form gives them.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub parameters: Parameters,
    /// Named inputs (an nhlab addition): like parameters in every expression, a live
    /// control in the page, a signal of time in a run, `B = ∂f/∂u` in `linearize`.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub inputs: BTreeMap<String, InputSpec>,
    /// Units of the coordinates and of `t` (an nhlab addition), for axis labels.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub units: BTreeMap<String, String>,
    /// Named sub-expressions.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    #[serde(deserialize_with = "expression::map")]
    pub definitions: BTreeMap<String, String>,
    /// Generalised non-potential forces by coordinate.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    #[serde(deserialize_with = "expression::map")]
    pub forces: BTreeMap<String, String>,
    /// Particles, possibly of variable mass.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub particles: Vec<Particle>,
    /// Constraints `f(q, q', t) = 0`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub constraints: Vec<ConstraintSpec>,
    /// Frames by name (an nhlab addition; the inertial frame `N` is predefined).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub frames: BTreeMap<String, FrameSpec>,
    /// Points by name (an nhlab addition; the inertial origin `O` is predefined).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub points: BTreeMap<String, PointSpec>,
    /// Named vectors and scalars of vector algebra (an nhlab addition), by name.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    #[serde(deserialize_with = "expression::map")]
    pub vectors: BTreeMap<String, String>,
    /// Rigid bodies (an nhlab addition): they add to `T` (and to `V` under gravity).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bodies: Vec<BodySpec>,
    /// A uniform gravity field acting on the bodies (an nhlab addition).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub gravity: Option<GravitySpec>,
    /// Rolling without slipping (an nhlab addition): each adds two constraints.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub rolling: Vec<RollingSpec>,
    /// Forces at points and torques on bodies (an nhlab addition): they add to `Q`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub loads: Vec<LoadSpec>,
    /// The initial state.
    pub initial: Initial,
    /// Hamel's embedding: which coordinates are dependent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hamel: Option<HamelSpec>,
    /// Vakonomic dynamics: initial multipliers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vakonomic: Option<VakonomicSpec>,
    /// Linear stability (an nhlab addition): the reference motion and the sweep
    /// that `nhlab linearize` and the page's stability panel use by default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stability: Option<StabilitySpec>,
    /// Parameter sets to overlay (an nhlab addition), by name: each set's values
    /// replace the scenario's for a run of its own, drawn beside the scenario's run
    /// (`[compare.heavy]` with `m = 2`). At most [`MAX_COMPARE_SETS`].
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub compare: BTreeMap<String, BTreeMap<String, f64>>,
    /// Defaults for running.
    pub run: RunSpec,
    /// What to plot.
    pub view: ViewSpec,
    /// `[scene]` (nhlab's addition): what the scene view draws besides the bodies'
    /// shapes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub scene: Option<SceneSpec>,
}

/// A particle: mass, inertial position, and the absolute velocity of the mass it
/// sheds or gains (default: its own velocity, no reactive force).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Particle {
    /// `m(q, q', t)`.
    #[serde(deserialize_with = "expression::one")]
    pub mass: String,
    /// 2 or 3 expressions in `q, t`.
    #[serde(deserialize_with = "expression::list")]
    pub position: Vec<String>,
    /// Absolute velocity `u` of ejected or gained mass, same length as `position`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "expression::option_list")]
    pub ejecta_velocity: Option<Vec<String>>,
}

/// A constraint `expr = 0`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ConstraintSpec {
    /// Optional name, used in messages and column headers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `f(q, q', t)`.
    #[serde(deserialize_with = "expression::one")]
    pub expr: String,
}

/// `[frames.<name>]`: a frame turned from its parent by elementary rotations about
/// its current axes (`rotations = [{ z = "psi" }, { x = "theta" }]`: yaw, then lean
/// about the new x), or, for a body whose orientation is not tracked (a ball rolling
/// as in the turntable), by its angular velocity alone.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct FrameSpec {
    /// The parent frame (default `N`, the inertial frame).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parent: Option<String>,
    /// Rotations in order, each a one-key table `axis = angle` (`x`, `y` or `z`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[serde(deserialize_with = "expression::maps")]
    pub rotations: Vec<BTreeMap<String, String>>,
    /// Instead of rotations: the angular velocity relative to the parent, along the
    /// parent's axes. Such a frame has no orientation.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "expression::option_list")]
    pub angular_velocity: Option<Vec<String>>,
}

/// `[points.<name>]`: a base point plus a vector, given by components in a frame
/// or as one vector expression.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PointSpec {
    /// The base point (default `O`, the inertial origin).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    /// The frame of the components (default `N`); not with an expression.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame: Option<String>,
    /// The vector from the base point, in `q, t`.
    pub position: PositionSpec,
}

/// A point's position: three components, or a vector expression (read by
/// `expression.rs`, which takes numbers as components).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum PositionSpec {
    /// `["x", "y", "0"]`, along the point's `frame`.
    Components(Vec<String>),
    /// `"C + r*unit(N.z - dot(N.z, W.y)*W.y)"`.
    Expression(String),
}

impl Default for PositionSpec {
    fn default() -> Self {
        PositionSpec::Components(Vec::new())
    }
}

/// `[[loads]]`: a force at a point and/or a torque on a body, as vector expressions
/// (they may depend on velocities and `t`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LoadSpec {
    /// For messages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The body the force acts on at `point` (its material point there), and the
    /// body `torque` acts on. A force without a body acts at the point as it moves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// Where `force` acts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub point: Option<String>,
    /// A vector expression.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "expression::option")]
    pub force: Option<String>,
    /// A vector expression.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "expression::option")]
    pub torque: Option<String>,
}

/// `[[bodies]]`: a rigid body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct BodySpec {
    /// Its name, in messages and generated constraint names.
    pub name: String,
    /// The body-fixed frame.
    pub frame: String,
    /// The mass.
    #[serde(deserialize_with = "expression::one")]
    pub mass: String,
    /// The mass centre (a point).
    pub centre: String,
    /// The inertia tensor about the mass centre, along the body frame's axes.
    pub inertia: InertiaSpec,
    /// A shape for drawing (the scene view).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shape: Option<ShapeSpec>,
}

/// The six components of an inertia tensor; each defaults to 0.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
#[allow(missing_docs)]
pub struct InertiaSpec {
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "expression::option")]
    pub xx: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "expression::option")]
    pub yy: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "expression::option")]
    pub zz: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "expression::option")]
    pub xy: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "expression::option")]
    pub xz: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "expression::option")]
    pub yz: Option<String>,
}

/// A body's shape, in its frame, centred at its mass centre: `disk` (radius, axis),
/// `cylinder` (radius, length, axis), `sphere` (radius), `box` (size: three edge
/// lengths), `ellipsoid` (semi_axes: three), `segments` (points: a polyline).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
#[allow(missing_docs)]
pub struct ShapeSpec {
    pub kind: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "expression::option")]
    pub radius: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "expression::option")]
    pub length: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub axis: Option<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[serde(deserialize_with = "expression::list")]
    pub size: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[serde(deserialize_with = "expression::list")]
    pub semi_axes: Vec<String>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[serde(deserialize_with = "expression::lists")]
    pub points: Vec<Vec<String>>,
}

/// `[gravity]`: uniform, acting on every body's mass centre.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct GravitySpec {
    /// Its magnitude, e.g. `g`.
    #[serde(deserialize_with = "expression::one")]
    pub magnitude: String,
    /// Its direction along `N`'s axes (default `[0, 0, -1]`); need not be a unit vector.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "expression::option_list")]
    pub direction: Option<Vec<String>>,
}

/// `[[rolling]]`: `body` rolls without slipping at point `contact` on the ground
/// or on another body: the material points of both at `contact` have the same
/// velocity along the two `tangents` of the surfaces there (default `N.x` and
/// `N.y`: a horizontal contact). The normal component is the contact condition,
/// which the coordinates keep or a written holonomic constraint imposes.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RollingSpec {
    /// Names the generated constraints `<name>: x` and `<name>: y` (default
    /// `<body> rolls on <on>`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The rolling body.
    pub body: String,
    /// `ground` (default) or the name of the body it rolls on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on: Option<String>,
    /// The contact point.
    pub contact: String,
    /// Two vector expressions spanning the tangent plane at the contact.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "expression::option_list")]
    pub tangents: Option<Vec<String>>,
    /// The static friction coefficient `μ` (optional; a number, or an expression of
    /// the parameters and `t`): the run marks where the friction the rolling needs is
    /// more than `μ N`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "expression::option")]
    pub friction: Option<String>,
}

/// The initial state; omitted velocities are solved from the constraints.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Initial {
    /// Initial time (default 0).
    pub t: f64,
    /// Every coordinate's value.
    pub q: BTreeMap<String, f64>,
    /// Velocities that are given.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub v: BTreeMap<String, f64>,
}

/// `[hamel]`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct HamelSpec {
    /// The embedded (dependent) coordinates `q₁`.
    pub dependent: Vec<String>,
}

/// `[vakonomic]`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct VakonomicSpec {
    /// Initial multipliers, one per constraint.
    pub mu0: Vec<f64>,
}

/// `[stability]`: every key optional.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct StabilitySpec {
    /// The method linearised: `lagrange` (default) or an ideal formulation equal to it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// The reference state: values of `t`, coordinates and velocities (`x'`) that
    /// replace the initial state's, as `nhlab linearize --at` gives them.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub at: BTreeMap<String, f64>,
    /// Coordinates the equations do not depend on (removed).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub ignorable: Vec<String>,
    /// The coordinates whose speeds (and positions, for holonomic constraints) are
    /// solved from the constraints, one per constraint; default: chosen by the lab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dependent: Option<Vec<String>>,
    /// A parameter or a velocity swept over a range.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sweep: Option<SweepSpec>,
    /// A second swept quantity (nhlab addition): with `sweep`, the axes of the
    /// page's stability map (`sweep` across, this up). Its `axis` is not used.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub map: Option<SweepSpec>,
}

/// `[stability.sweep]`: `over` from `from` to `to` by `step`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SweepSpec {
    /// A parameter or a velocity (`x'`).
    pub over: String,
    /// First value.
    pub from: f64,
    /// Last value (included when the step reaches it).
    pub to: f64,
    /// Step.
    pub step: f64,
    /// A quantity derived from the swept one to show the sweep against (nhlab
    /// addition): the bicycle's forward speed `v = rR·rear'`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub axis: Option<AxisSpec>,
}

/// `[stability.sweep] axis`: `name`, `value` (an expression of the parameters and the
/// swept quantity, increasing with it) and `unit`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AxisSpec {
    /// The quantity's name (`v`).
    pub name: String,
    /// Its expression (`rR*rear'`).
    pub value: String,
    /// Its unit (`m/s`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
}

/// Most values a sweep may take: a bound on the work a scenario or a command asks for.
pub const MAX_SWEEP_VALUES: usize = 10_000;

impl SweepSpec {
    /// The swept values, or why there are none.
    pub fn values(&self) -> Result<Vec<f64>, crate::message::Message> {
        use crate::message::problem;
        let (start, stop, step) = (self.from, self.to, self.step);
        if !(start.is_finite() && stop.is_finite() && step.is_finite()) || step <= 0.0 || stop < start {
            return Err(problem::sweep_range());
        }
        let count = libm::floor((stop - start) / step + 1e-9) + 1.0;
        if count > MAX_SWEEP_VALUES as f64 {
            // A step of 1e-300 gives `1e300 values`, not a 301-digit count.
            return Err(problem::sweep_too_long(crate::math::short_number(count), MAX_SWEEP_VALUES));
        }
        // Each `start + k·step` as the shortest decimal within 1e-9 of a step
        // (`0.1`, not `0.10000000000000009`): the values people asked for.
        let snap = |x: f64| crate::math::at_accuracy(x, 1e-9 * step).parse().unwrap_or(x);
        Ok((0..count as usize).map(|k| snap(start + k as f64 * step)).collect())
    }
}

/// `[run]`: every key optional.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RunSpec {
    /// End time.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub t_end: Option<f64>,
    /// Method ids.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub methods: Option<Vec<String>>,
    /// `dopri5`, `rk4`, `rattle` or `rattle4`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub integrator: Option<String>,
    /// Several integrators, every method run under each (an overlay, as methods
    /// are); instead of `integrator`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub integrators: Option<Vec<String>>,
    /// Relative tolerance (dopri5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rtol: Option<f64>,
    /// Absolute tolerance (dopri5).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub atol: Option<f64>,
    /// Step (rk4).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dt: Option<f64>,
    /// `none`, `baumgarte` or `projection`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stabilization: Option<String>,
    /// What a run does where a contact lifts off or slips: `mark` (default) or `stop`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub on_invalid: Option<String>,
}

/// `[view]`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ViewSpec {
    /// Two expressions for the phase/space plot.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[serde(deserialize_with = "expression::list")]
    pub trajectory: Vec<String>,
    /// Expressions plotted against `t`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[serde(deserialize_with = "expression::list")]
    pub series: Vec<String>,
}

/// `[scene]`: how the system is drawn (the page's scene panel, `nhlab run --scene`).
/// Bodies with a `shape` are drawn without it; this adds primitives placed by
/// expressions, for scenarios written without bodies, and fixed surfaces.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SceneSpec {
    /// `plane` (x to the right, y up) or `space` (3D, orbited); default `space` with
    /// bodies or a primitive with three components, else `plane`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub projection: Option<String>,
    /// The primitives.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub shapes: Vec<PrimitiveSpec>,
}

/// `[[scene.shapes]]`: a `point`, `segment`, `polyline`, `polygon` or `circle`, given
/// in a local frame placed at `at` and turned by `angle` about z (or oriented like
/// frame `frame`). Every number is an expression of the coordinates, `t` and the
/// parameters.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct PrimitiveSpec {
    /// Named in the scene's caption and messages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// `point`, `segment`, `polyline`, `polygon` or `circle`.
    pub kind: String,
    /// The local frame's origin: two or three components (default the origin).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[serde(deserialize_with = "expression::list")]
    pub at: Vec<String>,
    /// The local frame's turn about z (default 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "expression::option")]
    pub angle: Option<String>,
    /// A frame whose orientation the local frame takes (instead of `angle`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame: Option<String>,
    /// Vertices in the local frame (two or three components each).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[serde(deserialize_with = "expression::lists")]
    pub points: Vec<Vec<String>>,
    /// A circle's radius, or a point's (drawn as a dot).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[serde(deserialize_with = "expression::option")]
    pub radius: Option<String>,
    /// A point's path is drawn behind it, fading.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trail: Option<bool>,
}

/// `run.t_end` when the scenario does not give it.
pub const DEFAULT_T_END: f64 = 10.0;

impl RunSpec {
    /// `t_end`, or [`DEFAULT_T_END`].
    pub fn t_end_or_default(&self) -> f64 {
        self.t_end.unwrap_or(DEFAULT_T_END)
    }
}

impl Scenario {
    /// The scenario as TOML text.
    pub fn to_toml(&self) -> Result<String, toml::ser::Error> {
        toml::to_string(self)
    }

    /// The scenario as compact JSON.
    pub fn to_json(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string(self)
    }

    /// How many constraints the model has: those written and two per `[[rolling]]`.
    pub fn constraint_count(&self) -> usize {
        self.constraints.len() + 2 * self.rolling.len()
    }

    /// The display name of constraint `j`: its name, or `#j+1`.
    pub fn constraint_name(&self, j: usize) -> String {
        match self.constraints.get(j).and_then(|c| c.name.clone()) {
            Some(n) => n,
            None => alloc::format!("#{}", j + 1),
        }
    }
}
