//! Which field of a scenario produced a value that is not finite at a state: the
//! compiled model only knows that, say, `F[x]` overflowed, but the author needs to
//! hear "potential: not finite at the initial state". The scenario's own expressions
//! are evaluated there, definitions first (the likeliest cause), then `potential`,
//! `kinetic`, `forces`, particles' masses and constraints, then their derivatives
//! (an expression can be finite where its derivative overflows).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::expr::{Binding, ExprId, SymbolKind};
use crate::mechanics::{Model, SourceKind};
use crate::message::{problem, Message, Part};
use crate::scenario::{Problem, SourceMap};

/// The field whose expression is not finite at `(t, q, v)`, with a message that
/// names `state` (`the initial state (t = 0, x = 1)`); `None` when every expression
/// is finite.
pub(super) fn non_finite_field(
    model: &Model,
    map: &SourceMap,
    (t, q, v): (f64, &[f64], &[f64]),
    state: &Message,
) -> Option<Problem> {
    let mut g = model.graph.clone();
    let value = |s: crate::expr::SymbolId| match g_kind(model, s) {
        SymbolKind::Time => t,
        SymbolKind::Pi => core::f64::consts::PI,
        SymbolKind::Coordinate(i) => q[i],
        SymbolKind::Velocity(i) => v[i],
        SymbolKind::Parameter(i) => model.parameters[i].value,
        _ => 0.0,
    };
    let s = &model.scenario;
    let plain = |field: String, e: ExprId| (field, SourceKind::Value, e);
    let mut candidates: Vec<(String, SourceKind, ExprId)> = Vec::new();
    for name in s.definitions.keys() {
        if let Some(Binding::Definition(d)) = g.lookup(name) {
            if let Some(body) = g.definition(d).body {
                candidates.push(plain(format!("definitions.{name}"), body));
            }
        }
    }
    // The bodies', gravity's and loads' shares, at the fields that wrote them: `T`,
    // `V` and `F` hold them, and none of those is in the file of a body scenario.
    candidates.extend(model.sources.iter().map(|src| (src.field.clone(), src.what, src.expr)));
    candidates.push(plain("potential".into(), model.potential));
    candidates.push(plain("kinetic".into(), model.kinetic));
    for (i, name) in s.coordinates.iter().enumerate() {
        if s.forces.contains_key(name) {
            candidates.push(plain(format!("forces.{name}"), model.forces[i]));
        }
    }
    for (k, p) in model.particles.iter().enumerate() {
        candidates.push(plain(format!("particles[{k}].mass"), p.mass));
    }
    for (j, c) in model.constraints.iter().enumerate() {
        candidates.push(plain(format!("constraints[{j}].expr"), c.position_residual.unwrap_or(c.velocity_residual)));
    }
    // A value past the largest double is clamped by the exact arithmetic of folded
    // constants (where the compiled model overflows to infinity): not finite either.
    let finite = |x: f64| x.is_finite() && x.abs() < f64::MAX;
    for (field, is, e) in &candidates {
        if !finite(g.evaluate(*e, &value)) {
            let at = Part(state.clone());
            let said = match is {
                SourceKind::Value => problem::not_finite_at(at),
                SourceKind::Kinetic => problem::kinetic_not_finite_at(at),
                SourceKind::Gravity => problem::gravity_not_finite_at(at),
            };
            return Some(map.said(field, said));
        }
    }
    // Finite values with overflowing derivatives: ∂V/∂q, ∂T/∂q, ∂T/∂v, the bodies'
    // shares first.
    let energies = model.sources.iter().filter(|src| src.energy).map(|src| (src.field.clone(), src.what, src.expr));
    let energies: Vec<(String, SourceKind, ExprId)> =
        energies.chain([plain("potential".into(), model.potential), plain("kinetic".into(), model.kinetic)]).collect();
    for (field, is, e) in energies {
        for i in 0..model.coordinate_count() {
            for (by, symbol) in [("", g.coordinate(i)[0]), ("'", g.coordinate(i)[1])] {
                let d = g.diff(e, symbol);
                if !finite(g.evaluate(d, &value)) {
                    let (name, at) = (format!("{}{by}", s.coordinates[i]), Part(state.clone()));
                    let said = match is {
                        SourceKind::Value => problem::derivative_not_finite_at(name, at),
                        SourceKind::Kinetic => problem::kinetic_derivative_not_finite_at(name, at),
                        SourceKind::Gravity => problem::gravity_derivative_not_finite_at(name, at),
                    };
                    return Some(map.said(&field, said));
                }
            }
        }
    }
    None
}

fn g_kind(model: &Model, s: crate::expr::SymbolId) -> SymbolKind {
    model.graph.symbol(s).kind
}
