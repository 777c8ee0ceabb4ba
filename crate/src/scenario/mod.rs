//! The scenario format `nhlab/1` (`shared/spec/scenario.md`): one mechanical system
//! with its initial state and how to show it, as TOML, JSON or inside a share URL.
//!
//! This module only reads and writes the format: [`load_toml`] and [`load_json`]
//! give a [`Scenario`] plus a [`SourceMap`] that locates every field in the text, so
//! that later validation (in `mechanics`) can point at line and column. Fields keep
//! the spec's names; every one is optional at this level so that a missing field is
//! reported together with every other problem instead of stopping the parse.

mod fields;
mod json_map;
mod load;
mod problem;
mod share;

pub use load::{load, load_json, load_toml, Format, SourceMap};
pub use problem::{Problem, Problems};
pub use share::{decode_share, encode_share, MAX_INFLATED_BYTES, MAX_PAYLOAD_CHARS, SHARE_VERSION};

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

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
    /// Generalised coordinates, in order.
    pub coordinates: Vec<String>,
    /// Kinetic energy `T(q, q', t)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub kinetic: Option<String>,
    /// Potential `V(q, t)`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub potential: Option<String>,
    /// Parameter values (sliders in the lab).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub parameters: BTreeMap<String, f64>,
    /// Named sub-expressions.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub definitions: BTreeMap<String, String>,
    /// Generalised non-potential forces by coordinate.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub forces: BTreeMap<String, String>,
    /// Particles, possibly of variable mass.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub particles: Vec<Particle>,
    /// Constraints `f(q, q', t) = 0`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub constraints: Vec<ConstraintSpec>,
    /// The initial state.
    pub initial: Initial,
    /// Hamel's embedding: which coordinates are dependent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hamel: Option<HamelSpec>,
    /// Vakonomic dynamics: initial multipliers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vakonomic: Option<VakonomicSpec>,
    /// Defaults for running.
    pub run: RunSpec,
    /// What to plot.
    pub view: ViewSpec,
}

/// A particle: mass, inertial position, and the absolute velocity of the mass it
/// sheds or gains (default: its own velocity, no reactive force).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Particle {
    /// `m(q, q', t)`.
    pub mass: String,
    /// 2 or 3 expressions in `q, t`.
    pub position: Vec<String>,
    /// Absolute velocity `u` of ejected or gained mass, same length as `position`.
    #[serde(skip_serializing_if = "Option::is_none")]
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
    pub expr: String,
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
    /// `rk4` or `dopri5`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub integrator: Option<String>,
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
}

/// `[view]`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ViewSpec {
    /// Two expressions for the phase/space plot.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub trajectory: Vec<String>,
    /// Expressions plotted against `t`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub series: Vec<String>,
}

/// `run.t_end` when the scenario does not give it.
pub const DEFAULT_T_END: f64 = 10.0;

impl RunSpec {
    /// `t_end`, or [`DEFAULT_T_END`].
    pub fn t_end_or_default(&self) -> f64 {
        self.t_end.unwrap_or(DEFAULT_T_END)
    }

    /// The method ids to run, `["lagrange"]` when none are given.
    pub fn method_ids(&self) -> Vec<String> {
        self.methods.clone().unwrap_or_else(|| alloc::vec!["lagrange".into()])
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

    /// The display name of constraint `j`: its name, or `#j+1`.
    pub fn constraint_name(&self, j: usize) -> String {
        match self.constraints.get(j).and_then(|c| c.name.clone()) {
            Some(n) => n,
            None => alloc::format!("#{}", j + 1),
        }
    }
}
