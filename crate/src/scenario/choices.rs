//! The choices a scenario's `[run]` names by id — the method, the integrator, the
//! drift control — and `[scene]` its projection, typed once here, where the scenario is read: the model checks
//! the ids against these, and everything after uses the types.

use alloc::string::String;
use alloc::vec::Vec;

use super::{RunSpec, StabilitySpec};

/// The formulations of `docs/mechanics.md`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// Routh's equations with Lagrange multipliers (Chetaev for nonlinear constraints).
    Lagrange,
    /// The Udwadia–Kalaba explicit equation.
    UdwadiaKalaba,
    /// Gauss's principle of least constraint.
    Gauss,
    /// Voronets / Chaplygin equations in the independent velocities.
    Voronets,
    /// Hamel's multiplier-free embedding.
    Hamel,
    /// Routh's equations with Shen's Euler-condition reaction.
    Euler,
    /// Vakonomic dynamics.
    Vakonomic,
}

impl Method {
    /// Every method, in the spec's order.
    pub const ALL: [Method; 7] = [
        Method::Lagrange,
        Method::UdwadiaKalaba,
        Method::Gauss,
        Method::Voronets,
        Method::Hamel,
        Method::Euler,
        Method::Vakonomic,
    ];

    /// The id used in scenarios and on the command line.
    pub fn id(self) -> &'static str {
        match self {
            Method::Lagrange => "lagrange",
            Method::UdwadiaKalaba => "udwadia-kalaba",
            Method::Gauss => "gauss",
            Method::Voronets => "voronets",
            Method::Hamel => "hamel",
            Method::Euler => "euler",
            Method::Vakonomic => "vakonomic",
        }
    }

    /// The method with this id.
    pub fn from_id(id: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|m| m.id() == id)
    }

    /// Whether the method reports multipliers.
    pub fn has_multipliers(self) -> bool {
        matches!(self, Method::Lagrange | Method::Euler | Method::Vakonomic)
    }
}

/// Which integrator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IntegratorKind {
    /// Classical Runge–Kutta, fixed step.
    Rk4,
    /// Dormand–Prince 5(4), adaptive, with dense output.
    Dopri5,
    /// The nonholonomic RATTLE: reversible, second order, fixed step, constraints
    /// met exactly at every step.
    Rattle,
    /// Its symmetric triple-jump composition: reversible, fourth order.
    Rattle4,
}

impl IntegratorKind {
    /// The id used in scenarios.
    pub fn id(self) -> &'static str {
        match self {
            IntegratorKind::Rk4 => "rk4",
            IntegratorKind::Dopri5 => "dopri5",
            IntegratorKind::Rattle => "rattle",
            IntegratorKind::Rattle4 => "rattle4",
        }
    }

    /// Every integrator, in the order the page lists them.
    pub const ALL: [IntegratorKind; 4] =
        [IntegratorKind::Dopri5, IntegratorKind::Rk4, IntegratorKind::Rattle, IntegratorKind::Rattle4];

    /// Whether it is one of the structure-preserving nonholonomic schemes (fixed
    /// step, stepping the Lagrange–d'Alembert equations from their own terms).
    pub fn is_structure_preserving(self) -> bool {
        matches!(self, IntegratorKind::Rattle | IntegratorKind::Rattle4)
    }

    /// Whether it takes a fixed step `dt`.
    pub fn is_fixed_step(self) -> bool {
        self != IntegratorKind::Dopri5
    }

    /// The integrator with this id.
    pub fn from_id(id: &str) -> Option<Self> {
        IntegratorKind::ALL.into_iter().find(|k| k.id() == id)
    }
}

/// Drift control.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stabilization {
    /// None: drift is visible.
    None,
    /// Baumgarte: `b ← b − 2αḟ − β²φ` (holonomic), `b ← b − αf` (velocity level).
    Baumgarte {
        /// Damping rate α.
        alpha: f64,
        /// Stiffness rate β.
        beta: f64,
    },
    /// Project velocities onto `A v + a₀ = 0` (M-metric) and positions onto `φ = 0`
    /// (Gauss–Newton) after each step.
    Projection,
}

impl Stabilization {
    /// From the scenario's id, with default rates α = β = 5 for Baumgarte.
    pub fn from_id(id: &str) -> Option<Self> {
        match id {
            "none" => Some(Stabilization::None),
            "baumgarte" => Some(Stabilization::Baumgarte { alpha: 5.0, beta: 5.0 }),
            "projection" => Some(Stabilization::Projection),
            _ => None,
        }
    }
}

/// What a run does where a contact's assumptions fail (`[run] on_invalid`): it lifts
/// off (`N < 0`) or needs more friction than its `μ`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OnInvalid {
    /// Goes on, the span marked (the default).
    #[default]
    Mark,
    /// Stops at the instant, located by the dense output.
    Stop,
}

impl OnInvalid {
    /// `mark` or `stop`.
    pub fn from_id(id: &str) -> Option<OnInvalid> {
        match id {
            "mark" => Some(OnInvalid::Mark),
            "stop" => Some(OnInvalid::Stop),
            _ => None,
        }
    }
}

/// How the scene is seen.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Projection {
    /// The xy plane, x to the right and y up.
    #[default]
    Plane,
    /// Space, seen along a direction that can be orbited.
    Space,
}

impl Projection {
    /// `plane` or `space`.
    pub fn from_id(id: &str) -> Option<Projection> {
        match id {
            "plane" => Some(Projection::Plane),
            "space" => Some(Projection::Space),
            _ => None,
        }
    }

    /// `plane` or `space`.
    pub fn id(self) -> &'static str {
        match self {
            Projection::Plane => "plane",
            Projection::Space => "space",
        }
    }
}

/// Every method under each integrator, in the order runs are made, tabled and
/// drawn (method by method, integrator by integrator), with the integrator's place
/// in `integrators` (its colour in an overlay).
pub fn method_integrator_runs(
    methods: &[Method],
    integrators: &[IntegratorKind],
) -> Vec<(Method, usize, IntegratorKind)> {
    methods.iter().flat_map(|&m| integrators.iter().enumerate().map(move |(k, &i)| (m, k, i))).collect()
}

impl RunSpec {
    /// The methods to run, `[lagrange]` when none are given; ids that name no
    /// method (which the model's check reports) are left out.
    pub fn chosen_methods(&self) -> Vec<Method> {
        self.method_ids().iter().filter_map(|id| Method::from_id(id)).collect()
    }

    /// The method ids to run, `["lagrange"]` when none are given.
    pub fn method_ids(&self) -> Vec<String> {
        self.methods.clone().unwrap_or_else(|| alloc::vec!["lagrange".into()])
    }

    /// The integrator, Dormand–Prince when none (or an unknown one) is given; the
    /// first of `integrators` when those are given.
    pub fn integrator_kind(&self) -> IntegratorKind {
        self.integrator_kinds()[0]
    }

    /// Every integrator to run each method under: `integrators` (the known ones, in
    /// order, each once), else `integrator`; never empty.
    pub fn integrator_kinds(&self) -> Vec<IntegratorKind> {
        let mut kinds: Vec<IntegratorKind> = Vec::new();
        for id in self.integrators.iter().flatten() {
            if let Some(kind) = IntegratorKind::from_id(id) {
                if !kinds.contains(&kind) {
                    kinds.push(kind);
                }
            }
        }
        if kinds.is_empty() {
            kinds.push(self.integrator.as_deref().and_then(IntegratorKind::from_id).unwrap_or(IntegratorKind::Dopri5));
        }
        kinds
    }

    /// What a run does where a contact lifts off or slips: mark it unless `stop`.
    pub fn on_invalid_kind(&self) -> OnInvalid {
        self.on_invalid.as_deref().and_then(OnInvalid::from_id).unwrap_or_default()
    }

    /// The drift control, none when none (or an unknown one) is given.
    pub fn stabilization_kind(&self) -> Stabilization {
        self.stabilization.as_deref().and_then(Stabilization::from_id).unwrap_or(Stabilization::None)
    }
}

impl StabilitySpec {
    /// The method linearised: `lagrange` when none is given; an error in the words
    /// of the check for one that linearisation does not support.
    pub fn linearised_method(&self) -> Result<Method, crate::message::Message> {
        let Some(id) = &self.method else { return Ok(Method::Lagrange) };
        match Method::from_id(id) {
            Some(m @ (Method::Lagrange | Method::UdwadiaKalaba | Method::Gauss | Method::Euler | Method::Hamel)) => {
                Ok(m)
            }
            _ => Err(crate::message::problem::not_linearisable(id)),
        }
    }
}
