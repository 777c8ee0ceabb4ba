//! The exact first derivatives of Lagrange's terms `M`, `F`, `A`, `b` and of the
//! velocity-level residuals `f`, with respect to every coordinate and velocity:
//! differentiated symbolically from the model's own expressions and compiled into
//! one program, so a linearisation is right to round-off (no finite differences).

use alloc::vec::Vec;

use nalgebra::{DMatrix, DVector};

use crate::expr::{CompileError, Evaluator, ExprId};
use crate::mechanics::Model;

/// The derivatives of the terms with respect to one variable (`q_i` or `v_i`).
#[derive(Clone, Debug)]
pub struct TermDerivatives {
    /// `∂M` (n×n).
    pub mass: DMatrix<f64>,
    /// `∂F` (n).
    pub forcing: DVector<f64>,
    /// `∂A` (m×n).
    pub jacobian: DMatrix<f64>,
    /// `∂b` (m).
    pub bias: DVector<f64>,
    /// `∂f` (m).
    pub residuals: DVector<f64>,
}

/// The compiled derivatives; [`Derivatives::at`] evaluates them at a state.
#[derive(Clone, Debug)]
pub struct Derivatives {
    n: usize,
    m: usize,
    evaluator: Evaluator,
    inputs: Vec<f64>,
    outputs: Vec<f64>,
}

impl Derivatives {
    /// Differentiates and compiles (for the Whipple bicycle: 16 variables × 122 terms).
    pub fn new(model: &Model) -> Result<Self, CompileError> {
        let mut g = model.graph.clone();
        let n = model.coordinate_count();
        let m = model.constraints.len();
        let mut terms: Vec<ExprId> = model.equations.mass_matrix.clone();
        terms.extend(&model.equations.forcing);
        terms.extend(model.constraints.iter().flat_map(|c| c.jacobian.iter().copied()));
        terms.extend(model.constraints.iter().map(|c| c.bias));
        terms.extend(model.constraints.iter().map(|c| c.velocity_residual));
        let variables: Vec<_> = (0..n).map(|i| g.coordinate(i)[0]).chain((0..n).map(|i| g.coordinate(i)[1])).collect();
        let mut outputs = Vec::with_capacity(terms.len() * variables.len());
        for &x in &variables {
            for &e in &terms {
                outputs.push(g.diff(e, x));
            }
        }
        let mut inputs = alloc::vec![g.time()];
        inputs.extend(&variables);
        inputs.extend(model.parameters.iter().map(|p| p.symbol));
        let evaluator = g.compile(&outputs, &inputs)?.into_evaluator();
        Ok(Derivatives {
            n,
            m,
            evaluator,
            inputs: alloc::vec![0.0; inputs.len()],
            outputs: alloc::vec![0.0; outputs.len()],
        })
    }

    /// The derivatives at `(t, q, v)` with `parameters`: `2n` of them, those by
    /// `q_0 … q_{n−1}` first, then by `v_0 … v_{n−1}`. `None` when a value is not finite.
    pub fn at(&mut self, t: f64, q: &[f64], v: &[f64], parameters: &[f64]) -> Option<Vec<TermDerivatives>> {
        let (n, m) = (self.n, self.m);
        self.inputs[0] = t;
        self.inputs[1..1 + n].copy_from_slice(&q[..n]);
        self.inputs[1 + n..1 + 2 * n].copy_from_slice(&v[..n]);
        self.inputs[1 + 2 * n..].copy_from_slice(parameters);
        self.evaluator.eval(&self.inputs, &mut self.outputs).ok()?;
        if self.outputs.iter().any(|x| !x.is_finite()) {
            return None;
        }
        let per = n * n + n + m * n + 2 * m;
        Some(
            self.outputs
                .chunks_exact(per.max(1))
                .take(2 * n)
                .map(|d| {
                    let (mass, rest) = d.split_at(n * n);
                    let (forcing, rest) = rest.split_at(n);
                    let (jacobian, rest) = rest.split_at(m * n);
                    let (bias, residuals) = rest.split_at(m);
                    TermDerivatives {
                        mass: DMatrix::from_row_slice(n, n, mass),
                        forcing: DVector::from_column_slice(forcing),
                        jacobian: DMatrix::from_row_slice(m, n, jacobian),
                        bias: DVector::from_column_slice(bias),
                        residuals: DVector::from_column_slice(residuals),
                    }
                })
                .collect(),
        )
    }
}
