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
use crate::mechanics::Model;
use crate::scenario::{Problem, SourceMap};

/// The field whose expression is not finite at `(t, q, v)`, with a message that
/// names `what` (`the initial state`); `None` when every expression is finite.
pub(super) fn non_finite_field(
    model: &Model,
    map: &SourceMap,
    (t, q, v): (f64, &[f64], &[f64]),
    what: &str,
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
    let mut candidates: Vec<(String, ExprId)> = Vec::new();
    for name in s.definitions.keys() {
        if let Some(Binding::Definition(d)) = g.lookup(name) {
            if let Some(body) = g.definition(d).body {
                candidates.push((format!("definitions.{name}"), body));
            }
        }
    }
    candidates.push(("potential".into(), model.potential));
    candidates.push(("kinetic".into(), model.kinetic));
    for (i, name) in s.coordinates.iter().enumerate() {
        if s.forces.contains_key(name) {
            candidates.push((format!("forces.{name}"), model.forces[i]));
        }
    }
    for (k, p) in model.particles.iter().enumerate() {
        candidates.push((format!("particles[{k}].mass"), p.mass));
    }
    for (j, c) in model.constraints.iter().enumerate() {
        candidates.push((format!("constraints[{j}].expr"), c.position_residual.unwrap_or(c.velocity_residual)));
    }
    for (field, e) in &candidates {
        if !g.evaluate(*e, &value).is_finite() {
            return Some(map.problem(field, format!("not finite at {what}")));
        }
    }
    // Finite values with overflowing derivatives: ∂V/∂q, ∂T/∂q, ∂T/∂v.
    for (field, e) in [("potential", model.potential), ("kinetic", model.kinetic)] {
        for i in 0..model.coordinate_count() {
            for (by, symbol) in [("", g.coordinate(i)[0]), ("'", g.coordinate(i)[1])] {
                let d = g.diff(e, symbol);
                if !g.evaluate(d, &value).is_finite() {
                    let name = &s.coordinates[i];
                    return Some(map.problem(field, format!("its derivative by {name}{by} is not finite at {what}")));
                }
            }
        }
    }
    None
}

fn g_kind(model: &Model, s: crate::expr::SymbolId) -> SymbolKind {
    model.graph.symbol(s).kind
}
