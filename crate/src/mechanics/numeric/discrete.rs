//! What a step of the structure-preserving integrators needs
//! ([`crate::integrators::Rattle`]): the model's terms at a configuration and a
//! velocity, in one program, with the exact derivatives their Newton solve uses.
//!
//! At `(q, v)`: `M` (n×n), `F` (n), the momentum `P = ∂T/∂v` (n), its derivative
//! `K = ∂P/∂q` (n×n), `A` (m×n), the constraints' velocity residuals
//! `r = A v + a(q)` (m), their derivatives `R = ∂r/∂q` (m×n) and the holonomic
//! constraints' `φ(q)` (m; 0 for the others). `∂L/∂q + Q` is `F + K v` (what
//! Lagrange's `F` is made of), so no other term is compiled.
//!
//! The class the schemes apply to is checked here ([`applicability`]), with a
//! message that names the condition that fails.

use alloc::string::String;
use alloc::vec::Vec;

use crate::expr::{Evaluator, ExprId, NativeEvaluator, Program, SymbolId};
use crate::mechanics::{fill_state_inputs, ConstraintKind, Model};
use crate::message::{run, Message};

/// The compiled terms of one model.
#[derive(Clone, Debug)]
pub struct DiscreteTerms {
    evaluator: Evaluator,
    /// The same program as machine code (or a wasm module), where the host compiled it.
    native: Option<NativeEvaluator>,
    parameters: usize,
    inputs: Vec<f64>,
    /// The last outputs, laid out as [`DiscreteLayout`] says.
    pub values: Vec<f64>,
    /// Sizes and where each term sits.
    pub layout: DiscreteLayout,
    /// Which constraints are holonomic (stepped at the position level).
    pub holonomic: Vec<bool>,
}

/// Where each term sits among [`DiscreteTerms::values`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DiscreteLayout {
    /// Coordinates.
    pub n: usize,
    /// Constraints.
    pub m: usize,
}

impl DiscreteLayout {
    /// `M`, row-major.
    pub fn mass(self) -> core::ops::Range<usize> {
        0..self.n * self.n
    }
    /// `F`.
    pub fn forcing(self) -> core::ops::Range<usize> {
        let s = self.n * self.n;
        s..s + self.n
    }
    /// `P = ∂T/∂v`.
    pub fn momentum(self) -> core::ops::Range<usize> {
        let s = self.n * self.n + self.n;
        s..s + self.n
    }
    /// `K = ∂P/∂q`, row-major (`K[i][j] = ∂P_i/∂q_j`).
    pub fn momentum_derivative(self) -> core::ops::Range<usize> {
        let s = self.n * self.n + 2 * self.n;
        s..s + self.n * self.n
    }
    /// `A`, row-major.
    pub fn jacobian(self) -> core::ops::Range<usize> {
        let s = 2 * self.n * self.n + 2 * self.n;
        s..s + self.m * self.n
    }
    /// `r = A v + a(q)`.
    pub fn residuals(self) -> core::ops::Range<usize> {
        let s = 2 * self.n * self.n + 2 * self.n + self.m * self.n;
        s..s + self.m
    }
    /// `R = ∂r/∂q`, row-major.
    pub fn residual_derivative(self) -> core::ops::Range<usize> {
        let s = 2 * self.n * self.n + 2 * self.n + self.m * self.n + self.m;
        s..s + self.m * self.n
    }
    /// `φ(q)` (0 for a constraint that is not holonomic).
    pub fn positions(self) -> core::ops::Range<usize> {
        let s = 2 * self.n * self.n + 2 * self.n + 2 * self.m * self.n + self.m;
        s..s + self.m
    }
    /// Every output.
    pub fn len(self) -> usize {
        self.positions().end
    }
    /// Whether there are none (never: a model has a coordinate).
    pub fn is_empty(self) -> bool {
        self.len() == 0
    }
}

/// Whether the structure-preserving integrators apply to `model`: constraints
/// linear (or affine) in the velocities and not depending on `t`, `T` at most
/// quadratic in the velocities, and `T`, `V` and the forces free of `t`, forces
/// free of the velocities, no variable mass. `Err` says the first condition that
/// fails, in words.
pub fn applicability(model: &Model) -> Result<(), String> {
    why_not(model).map_err(|m| m.english)
}

/// [`applicability`]'s reason as a message with an id, which a page says in its
/// language.
pub fn why_not(model: &Model) -> Result<(), Message> {
    let g = &model.graph;
    let n = model.coordinate_count();
    let velocities: Vec<SymbolId> = (0..n).map(|i| g.coordinate(i)[1]).collect();
    let time = g.time();
    let uses = |e: ExprId, symbols: &[SymbolId]| g.free_symbols(e).iter().any(|s| symbols.contains(s));
    if let Some(c) = model.constraints.iter().find(|c| c.kind == ConstraintKind::NonlinearNonholonomic) {
        return Err(run::sp_nonlinear_constraint(&c.name, &c.origin));
    }
    if let Some(c) = model.constraints.iter().find(|c| c.rheonomic) {
        return Err(run::sp_rheonomic_constraint(&c.name, &c.origin));
    }
    if !model.particles.is_empty() {
        return Err(run::sp_variable_mass());
    }
    if model.equations.mass_matrix.iter().any(|&e| uses(e, &velocities)) {
        return Err(run::sp_mass_depends_on_velocities());
    }
    if uses(model.kinetic, &[time]) || uses(model.potential, &[time]) {
        return Err(run::sp_energy_depends_on_time());
    }
    if let Some(i) = model.generalized_forces.iter().position(|&e| uses(e, &velocities)) {
        return Err(run::sp_force_depends_on_velocities(&model.coordinates[i]));
    }
    if let Some(i) = model.generalized_forces.iter().position(|&e| uses(e, &[time])) {
        return Err(run::sp_force_depends_on_time(&model.coordinates[i]));
    }
    if model.equations.forcing.iter().any(|&e| uses(e, &[time])) {
        return Err(run::sp_equations_depend_on_time());
    }
    Ok(())
}

impl DiscreteTerms {
    /// Compiles the terms of `model`, or says why the schemes do not apply to it.
    pub fn new(model: &Model) -> Result<DiscreteTerms, Message> {
        why_not(model)?;
        let mut g = model.graph.clone();
        let n = model.coordinate_count();
        let m = model.constraints.len();
        let positions: Vec<SymbolId> = (0..n).map(|i| g.coordinate(i)[0]).collect();
        let velocities: Vec<SymbolId> = (0..n).map(|i| g.coordinate(i)[1]).collect();
        let momentum: Vec<ExprId> = velocities.iter().map(|&v| g.diff(model.kinetic, v)).collect();
        let mut outputs = model.equations.mass_matrix.clone();
        outputs.extend(&model.equations.forcing);
        outputs.extend(&momentum);
        for &p in &momentum {
            for &q in &positions {
                let d = g.diff(p, q);
                outputs.push(d);
            }
        }
        outputs.extend(model.constraints.iter().flat_map(|c| c.jacobian.iter().copied()));
        outputs.extend(model.constraints.iter().map(|c| c.velocity_residual));
        for c in &model.constraints {
            for &q in &positions {
                let d = g.diff(c.velocity_residual, q);
                outputs.push(d);
            }
        }
        let zero = g.zero();
        outputs.extend(model.constraints.iter().map(|c| c.position_residual.unwrap_or(zero)));
        let inputs = model.state_inputs();
        let program = g.compile(&outputs, &inputs).map_err(crate::message::phrase::verbatim)?.hoist(1 + 2 * n);
        let layout = DiscreteLayout { n, m };
        debug_assert_eq!(layout.len(), outputs.len());
        Ok(DiscreteTerms {
            evaluator: program.into_evaluator(),
            native: None,
            parameters: model.parameters.len(),
            inputs: alloc::vec![0.0; inputs.len()],
            values: alloc::vec![0.0; layout.len()],
            layout,
            holonomic: model.constraints.iter().map(|c| c.is_holonomic()).collect(),
        })
    }

    /// Evaluates every term at `(q, v)` with `parameters` into
    /// [`DiscreteTerms::values`]; false where a value is not finite.
    pub fn evaluate(&mut self, q: &[f64], v: &[f64], parameters: &[f64]) -> bool {
        let ran = match self.native.as_mut() {
            Some(code) => code.eval(&[&[0.0], q, v, parameters], &mut [&mut self.values]),
            None => {
                fill_state_inputs(&mut self.inputs, 0.0, q, v, parameters);
                self.evaluator.eval(&self.inputs, &mut self.values).is_ok()
            }
        };
        ran && self.values.iter().all(|x| x.is_finite())
    }

    /// Whether the program runs as compiled code.
    pub fn has_native(&self) -> bool {
        self.native.is_some()
    }
}

impl crate::expr::CompilesAlone for DiscreteTerms {
    /// The program each evaluation runs (for a host to compile).
    fn program(&self) -> &Program {
        self.evaluator.program()
    }

    /// The parts its inputs come in: `t`, `q`, `v`, parameters (the slow ones);
    /// its outputs are one part.
    fn input_parts(&self) -> Vec<usize> {
        alloc::vec![1, self.layout.n, self.layout.n, self.parameters]
    }

    fn set_native(&mut self, native: Option<NativeEvaluator>) {
        self.native = native;
    }
}
