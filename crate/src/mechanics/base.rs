//! What every derivation of a model starts from: the scenario's expressions in one
//! graph, `T`, `V`, the generalised forces, the classified constraints and the
//! unconstrained `M q̈ = F`. Hamel's split and the vakonomic equations are derived
//! from a [`Base`] alone, each in its own copy of the graph, so they need nothing of
//! the [`super::Model`] that holds them.

use alloc::string::String;
use alloc::vec::Vec;

use super::constraint::{Constraint, ConstraintKind};
use super::equations::{EquationsOfMotion, ParticleTerms};
use crate::expr::{ExprGraph, ExprId, SymbolId};

/// A parameter with its value.
#[derive(Clone, Debug)]
pub struct Parameter {
    /// Name.
    pub name: String,
    /// Its symbol.
    pub symbol: SymbolId,
    /// Value from the scenario.
    pub value: f64,
}

/// The graph-level terms of a model.
#[derive(Clone, Debug)]
pub struct Base {
    /// Every expression of the model lives here.
    pub graph: ExprGraph,
    /// Coordinate names, in order.
    pub coordinates: Vec<String>,
    /// Parameters, in the scenario's order, then the `[inputs]` taken as arguments.
    pub parameters: Vec<Parameter>,
    /// Where those inputs are among `parameters`, in the scenario's (name) order:
    /// every input when built with `Needs::held_inputs`, else those without a signal.
    pub inputs: Vec<usize>,
    /// `T`, including the particles' and the bodies' share.
    pub kinetic: ExprId,
    /// `V`.
    pub potential: ExprId,
    /// `Q_i` as given (without particle terms).
    pub forces: Vec<ExprId>,
    /// `Q_i` with the particles' reactive and mass-variation terms `K_i + J_i`.
    pub generalized_forces: Vec<ExprId>,
    /// Variable-mass particles.
    pub particles: Vec<ParticleTerms>,
    /// Constraints, in scenario order.
    pub constraints: Vec<Constraint>,
    /// `M q̈ = F` of the unconstrained system.
    pub equations: EquationsOfMotion,
    /// The bodies', gravity's and loads' shares of `T`, `V` and `F` by the fields
    /// that wrote them: where a value that is not finite is blamed.
    pub sources: Vec<super::bodies::Source>,
    /// What the contact forces are found from (`None` without `[[rolling]]`).
    pub contacts: Option<super::bodies::ContactTerms>,
}

impl Base {
    /// Number of coordinates.
    pub fn coordinate_count(&self) -> usize {
        self.graph.coordinate_count()
    }

    /// Coordinate names, in order.
    pub fn coordinate_names(&self) -> &[String] {
        &self.coordinates
    }

    /// The names of the constraints nonlinear in the velocities, in scenario order.
    pub fn nonlinear_constraints(&self) -> Vec<String> {
        self.constraints
            .iter()
            .filter(|c| c.kind == ConstraintKind::NonlinearNonholonomic)
            .map(|c| c.name.clone())
            .collect()
    }

    /// Whether every constraint is linear in the velocities (holonomic ones count:
    /// they are used at velocity level).
    pub fn constraints_are_linear(&self) -> bool {
        self.constraints.iter().all(|c| c.kind != ConstraintKind::NonlinearNonholonomic)
    }

    /// The constraints that Hamel's split and Voronets' equations are built from: a
    /// largest independent set at `reference` (the initial state), in order — all of
    /// them unless some are combinations of the others. Constraints nonlinear in the
    /// velocities are all kept (their rows at rest say nothing of their rank).
    pub fn independent_constraints(&self, reference: &dyn Fn(SymbolId) -> f64) -> Vec<usize> {
        let (m, n) = (self.constraints.len(), self.coordinate_count());
        if !self.constraints_are_linear() {
            return (0..m).collect();
        }
        let a =
            nalgebra::DMatrix::from_fn(m, n, |i, j| self.graph.evaluate(self.constraints[i].jacobian[j], reference));
        crate::math::independent_rows(&a)
    }

    /// The inputs of a program evaluated along a run — `[t, q…, v…, parameters…]`
    /// (the view, the scene); [`fill_state_inputs`](crate::mechanics::fill_state_inputs) puts a state's numbers there.
    pub fn state_inputs(&self) -> Vec<crate::expr::SymbolId> {
        let g = &self.graph;
        let n = self.coordinate_count();
        let mut inputs = alloc::vec![g.time()];
        inputs.extend((0..n).map(|i| g.coordinate(i)[0]));
        inputs.extend((0..n).map(|i| g.coordinate(i)[1]));
        inputs.extend(self.parameters.iter().map(|p| p.symbol));
        inputs
    }
}
