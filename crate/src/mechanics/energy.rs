//! Whether `T + V` is conserved along the true motion, and if not, why: what the
//! page's energy panel and `run --plot`'s say their curve is (a method's error where
//! the energy is conserved; the energy's own change where it is not).
//!
//! Along Lagrange's motion, `d(T + V)/dt = Qᵀv + λᵀA v − ∂L/∂t + (T₁, T₀ terms)`:
//! zero when no forces act, masses are constant, nothing depends on `t`, `T` is
//! quadratic in the velocities and every constraint is homogeneous in them (then
//! `A v = k f = 0`: the constraint forces do no work). The homogeneity tests are
//! numeric, at random states: exact identities hold there to round-off, and a
//! symbolic test would depend on how far the simplifier gets.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::model::Model;
use crate::expr::{ExprId, SymbolId};

/// Reasons `T + V` may change along the true motion; empty where it is conserved.
pub fn energy_changes(model: &Model) -> Vec<String> {
    let g = &model.graph;
    let mut why = Vec::new();
    let time = g.time();
    let depends_on_t = |e: ExprId| g.free_symbols(e).contains(&time);
    let states = random_states(model, 3);
    let at = |e: ExprId, k: usize, scale_v: f64| {
        let (t, q, v) = &states[k];
        g.evaluate(e, &|s: SymbolId| value_of(model, s, *t, q, v, scale_v))
    };
    // Where a value is not finite (a random state outside a square root's domain),
    // that state tells nothing either way.
    let relative =
        |a: f64, b: f64| !(a.is_finite() && b.is_finite()) || (a - b).abs() <= 1e-9 * (a.abs() + b.abs()).max(1e-300);
    if model.forces.iter().any(|&f| (0..states.len()).any(|k| at(f, k, 1.0).abs() > 0.0)) {
        why.push("forces act".into());
    }
    if !model.particles.is_empty() {
        why.push("masses vary".into());
    }
    if depends_on_t(model.kinetic) || depends_on_t(model.potential) {
        why.push("T or V depends on t".into());
    }
    if !(0..states.len()).all(|k| relative(at(model.kinetic, k, 2.0), 4.0 * at(model.kinetic, k, 1.0))) {
        why.push("T is not quadratic in the velocities".into());
    }
    for c in &model.constraints {
        if c.rheonomic {
            why.push(format!("constraint `{}` depends on t", c.name));
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
            why.push(format!("constraint `{}` is not homogeneous in the velocities", c.name));
        }
    }
    why
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
