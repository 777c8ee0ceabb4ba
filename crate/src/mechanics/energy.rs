//! The energy a run records, and whether it is conserved along the true motion,
//! and if not, why: what the page's energy panel and `run --plot`'s say their
//! curve is (a method's error where the energy is conserved; the energy's own
//! change where it is not).
//!
//! The energy is the energy function `h = Σ vᵢ ∂L/∂vᵢ − L = Σ vᵢ ∂T/∂vᵢ − T + V`,
//! which is `T₂ − T₀ + V` when `T = T₂ + T₁ + T₀` splits by degree in the
//! velocities. Where `T` is quadratic in them (`T = T₂`, every mechanical system in
//! fixed axes) `h = T + V`, and the lab records `T + V` as written (the column
//! `energy`); where it is not — a gauge term, rotating axes, gyroscopic couplings —
//! `T + V` is not conserved even by the exact motion, and the lab records `h`
//! instead (the column `energy_h`).
//!
//! Along Lagrange's motion, `dh/dt = Qᵀv + λᵀA v − ∂L/∂t`: zero when no forces
//! act, masses are constant, nothing depends on `t` and every constraint is
//! homogeneous in the velocities (then `A v = k f = 0`: the constraint forces do
//! no work). The homogeneity tests are numeric, at random states: exact identities
//! hold there to round-off, and a symbolic test would depend on how far the
//! simplifier gets.

use alloc::string::String;
use alloc::vec::Vec;

use super::model::Model;
use crate::expr::{ExprGraph, ExprId, SymbolId};

/// Which energy a model's runs record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnergyForm {
    /// `T + V`, `T` being quadratic in the velocities (then it is `h`).
    TotalEnergy,
    /// The energy function `h = Σ vᵢ ∂T/∂vᵢ − T + V = T₂ − T₀ + V`, `T` having
    /// terms of another degree in the velocities.
    EnergyFunction,
}

impl EnergyForm {
    /// The column it is written in: `energy` (`T + V`) or `energy_h`.
    pub fn column(self) -> &'static str {
        match self {
            EnergyForm::TotalEnergy => "energy",
            EnergyForm::EnergyFunction => "energy_h",
        }
    }
}

/// Whether `model`'s runs record `T + V` or the energy function `h`: `T + V`
/// exactly where `T(q, 2v) = 4 T(q, v)` at random states.
pub fn energy_form(model: &Model) -> EnergyForm {
    let states = random_states(model, 3);
    let g = &model.graph;
    let at = |k: usize, scale_v: f64| {
        let (t, q, v) = &states[k];
        g.evaluate(model.kinetic, &|s: SymbolId| value_of(model, s, *t, q, v, scale_v))
    };
    match (0..states.len()).all(|k| relative(at(k, 2.0), 4.0 * at(k, 1.0))) {
        true => EnergyForm::TotalEnergy,
        false => EnergyForm::EnergyFunction,
    }
}

/// The energy `model`'s runs record ([`energy_form`]), built in `graph` (the
/// model's graph or one that extends it).
pub fn energy_expression(model: &Model, graph: &mut ExprGraph) -> ExprId {
    match energy_form(model) {
        EnergyForm::TotalEnergy => graph.add2(model.kinetic, model.potential),
        EnergyForm::EnergyFunction => {
            let mut terms: Vec<ExprId> = (0..model.coordinate_count())
                .map(|i| {
                    let v = graph.coordinate(i)[1];
                    let momentum = graph.diff(model.kinetic, v);
                    let speed = graph.symbol_expr(v);
                    graph.mul2(speed, momentum)
                })
                .collect();
            let kinetic = graph.neg(model.kinetic);
            terms.extend([kinetic, model.potential]);
            graph.add(&terms)
        }
    }
}

/// Where a value is not finite (a random state outside a square root's domain),
/// that state tells nothing either way.
fn relative(a: f64, b: f64) -> bool {
    !(a.is_finite() && b.is_finite()) || (a - b).abs() <= 1e-9 * (a.abs() + b.abs()).max(1e-300)
}

/// Why the recorded energy ([`energy_form`]) may change along the true motion.
/// Its `Display` is the English the command line prints; the page says each in its
/// language from the variant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EnergyChange {
    /// A generalised force is nonzero somewhere.
    ForcesAct,
    /// Particles are shed or taken on (variable mass).
    MassesVary,
    /// `T` or `V` depends on the time.
    EnergyDependsOnTime,
    /// This constraint depends on the time (rheonomic).
    ConstraintDependsOnTime(String),
    /// This constraint is not homogeneous in the velocities (Chetaev's virtual
    /// displacements then do work).
    ConstraintNotHomogeneous(String),
}

impl core::fmt::Display for EnergyChange {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            Self::ForcesAct => f.write_str("forces act"),
            Self::MassesVary => f.write_str("masses vary"),
            Self::EnergyDependsOnTime => f.write_str("T or V depends on t"),
            Self::ConstraintDependsOnTime(name) => write!(f, "constraint `{name}` depends on t"),
            Self::ConstraintNotHomogeneous(name) => {
                write!(f, "constraint `{name}` is not homogeneous in the velocities")
            }
        }
    }
}

/// Reasons the recorded energy ([`energy_form`]) may change along the true
/// motion; empty where it is conserved.
pub fn energy_changes(model: &Model) -> Vec<EnergyChange> {
    let g = &model.graph;
    let mut why = Vec::new();
    let time = g.time();
    let depends_on_t = |e: ExprId| g.free_symbols(e).contains(&time);
    let states = random_states(model, 3);
    let at = |e: ExprId, k: usize, scale_v: f64| {
        let (t, q, v) = &states[k];
        g.evaluate(e, &|s: SymbolId| value_of(model, s, *t, q, v, scale_v))
    };
    if model.forces.iter().any(|&f| (0..states.len()).any(|k| at(f, k, 1.0).abs() > 0.0)) {
        why.push(EnergyChange::ForcesAct);
    }
    if !model.particles.is_empty() {
        why.push(EnergyChange::MassesVary);
    }
    if depends_on_t(model.kinetic) || depends_on_t(model.potential) {
        why.push(EnergyChange::EnergyDependsOnTime);
    }
    for c in &model.constraints {
        if c.rheonomic {
            why.push(EnergyChange::ConstraintDependsOnTime(c.name.clone()));
            continue;
        }
        if c.is_holonomic() {
            continue;
        }
        // f(q, 2v) against f(q, v) at each state, evaluated once; homogeneous of degree 1 to 4.
        let pairs: Vec<(f64, f64)> =
            (0..states.len()).map(|k| (at(c.velocity_residual, k, 2.0), at(c.velocity_residual, k, 1.0))).collect();
        let homogeneous = (1..=4)
            .any(|degree: i32| pairs.iter().all(|&(twice, once)| relative(twice, f64::from(1 << degree) * once)));
        if !homogeneous {
            why.push(EnergyChange::ConstraintNotHomogeneous(c.name.clone()));
        }
    }
    why
}

/// The inputs taken as arguments (the page's sliders and keys) that do work when
/// they move: those the forces, the energies or a constraint name. [`energy_changes`]
/// does not see them where they start at 0 and leave every force 0 (the bicycle's
/// steer torque), and the page's energy panel said "conserved, so this is each
/// method's error" while a torque was doing work (issue 60).
pub fn inputs_that_work(model: &Model) -> Vec<String> {
    let g = &model.graph;
    let mut terms: Vec<ExprId> = model.forces.clone();
    terms.extend([model.kinetic, model.potential]);
    terms.extend(model.constraints.iter().map(|c| c.velocity_residual));
    let named: alloc::collections::BTreeSet<SymbolId> = terms.iter().flat_map(|&e| g.free_symbols(e)).collect();
    model
        .base
        .inputs
        .iter()
        .map(|&k| &model.base.parameters[k])
        .filter(|p| named.contains(&p.symbol))
        .map(|p| p.name.clone())
        .collect()
}

/// `(t, q, v)` at pseudo-random values in [-1, 1] (fixed seed: the same answer
/// every time).
fn random_states(model: &Model, count: usize) -> Vec<(f64, Vec<f64>, Vec<f64>)> {
    let n = model.coordinate_count();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (seed >> 11) as f64 / (1u64 << 53) as f64 * 2.0 - 1.0
    };
    (0..count)
        .map(|_| {
            let t = next();
            let q = (0..n).map(|_| next()).collect();
            let v = (0..n).map(|_| next()).collect();
            (t, q, v)
        })
        .collect()
}

/// The value of symbol `s` at the state, velocities scaled by `scale_v`.
fn value_of(model: &Model, s: SymbolId, t: f64, q: &[f64], v: &[f64], scale_v: f64) -> f64 {
    let g = &model.graph;
    if s == g.time() {
        return t;
    }
    for i in 0..q.len() {
        let [qi, vi, _] = g.coordinate(i);
        if s == qi {
            return q[i];
        }
        if s == vi {
            return scale_v * v[i];
        }
    }
    if let Some(p) = model.parameters.iter().find(|p| p.symbol == s) {
        return p.value;
    }
    match g.symbol(s).kind {
        crate::expr::SymbolKind::Pi => core::f64::consts::PI,
        _ => f64::NAN,
    }
}
