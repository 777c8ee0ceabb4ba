//! The exact first derivatives of Lagrange's terms `M`, `F`, `A`, `b` and of the
//! velocity-level residuals `f`, with respect to every coordinate and velocity:
//! differentiated symbolically from the model's own expressions and compiled into
//! one program, so a linearisation is right to round-off (no finite differences).
//! For Hamel's embedding also those of its `Ψ` and `G` (from the split's own graph).

use alloc::vec::Vec;

use nalgebra::{DMatrix, DVector};

use crate::expr::{CompileError, Evaluator, ExprGraph, ExprId, NativeEvaluator, Program};
use crate::mechanics::{fill_row_major, Model};

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
    /// `∂Ψ` of Hamel's split (k×k; 0×0 unless derived for Hamel).
    pub psi: DMatrix<f64>,
    /// `∂G` of Hamel's split (k; empty unless derived for Hamel).
    pub g: DVector<f64>,
}

/// `∂terms/∂x` for every `x` in `q_0 … q_{n−1}, v_0 … v_{n−1}` and the model's
/// inputs `u` (by `x`, then by term), differentiated in `graph` and compiled with the inputs `t, q, v,
/// parameters`; with the numbers of inputs and outputs.
fn differentiated(
    model: &Model,
    graph: &ExprGraph,
    terms: &[ExprId],
) -> Result<(Evaluator, usize, usize), CompileError> {
    let mut g = graph.clone();
    let n = model.coordinate_count();
    let variables: Vec<_> = (0..n)
        .map(|i| g.coordinate(i)[0])
        .chain((0..n).map(|i| g.coordinate(i)[1]))
        .chain(model.inputs.iter().map(|&k| model.parameters[k].symbol))
        .collect();
    let mut outputs = Vec::with_capacity(terms.len() * variables.len());
    for &x in &variables {
        for &e in terms {
            outputs.push(g.diff(e, x));
        }
    }
    let mut inputs = alloc::vec![g.time()];
    inputs.extend(&variables[..2 * n]);
    inputs.extend(model.parameters.iter().map(|p| p.symbol));
    let evaluator = g.compile(&outputs, &inputs)?.into_evaluator();
    Ok((evaluator, inputs.len(), outputs.len()))
}

/// The compiled derivatives; [`Derivatives::at`] evaluates them at a state.
#[derive(Clone, Debug)]
pub struct Derivatives {
    n: usize,
    m: usize,
    /// The model's inputs taken as arguments (`Base::inputs`).
    p: usize,
    evaluator: Evaluator,
    inputs: Vec<f64>,
    outputs: Vec<f64>,
    /// Hamel's `∂Ψ`, `∂G`: the split's size k, its program and outputs.
    hamel: Option<(usize, Evaluator, Vec<f64>)>,
    /// The program as machine code, where the command line compiled it
    /// (`nhlab_native::use_for_derivatives`): a map's points spend most of their time
    /// here, and the interpreter is several times slower.
    native: Option<NativeEvaluator>,
    /// The derivatives a caller gave back ([`Derivatives::give_back`]), filled in
    /// place at the next point: a map's point would otherwise allocate seven
    /// matrices per variable.
    spare: Vec<TermDerivatives>,
}

impl Derivatives {
    /// Differentiates and compiles (for the Whipple bicycle: 16 variables × 122 terms).
    pub fn new(model: &Model) -> Result<Self, CompileError> {
        let n = model.coordinate_count();
        let m = model.constraints.len();
        let mut terms: Vec<ExprId> = model.equations.mass_matrix.clone();
        terms.extend(&model.equations.forcing);
        terms.extend(model.constraints.iter().flat_map(|c| c.jacobian.iter().copied()));
        terms.extend(model.constraints.iter().map(|c| c.bias));
        terms.extend(model.constraints.iter().map(|c| c.velocity_residual));
        let (evaluator, inputs, outputs) = differentiated(model, &model.graph, &terms)?;
        Ok(Derivatives {
            n,
            m,
            p: model.inputs.len(),
            evaluator,
            inputs: alloc::vec![0.0; inputs],
            outputs: alloc::vec![0.0; outputs],
            hamel: None,
            native: None,
            spare: Vec::new(),
        })
    }

    /// As [`Derivatives::new`], with Hamel's `∂Ψ` and `∂G` when the model has a
    /// split (else `None`).
    pub fn with_hamel(model: &Model) -> Result<Option<Self>, CompileError> {
        let Ok(split) = &model.hamel else { return Ok(None) };
        let mut d = Self::new(model)?;
        let terms: Vec<ExprId> = split.psi.iter().chain(&split.g).copied().collect();
        let (evaluator, _, outputs) =
            differentiated(model, model.hamel_graph.as_ref().unwrap_or(&model.graph), &terms)?;
        d.hamel = Some((split.independent.len(), evaluator, alloc::vec![0.0; outputs]));
        Ok(Some(d))
    }

    /// How many inputs the derivatives are taken by, after `q` and `v`.
    pub fn input_count(&self) -> usize {
        self.p
    }

    /// Whether Hamel's `∂Ψ`, `∂G` are derived.
    pub fn has_hamel(&self) -> bool {
        self.hamel.is_some()
    }

    /// The derivatives at `(t, q, v)` with `parameters`: `2n + p` of them, those by
    /// `q_0 … q_{n−1}` first, then by `v_0 … v_{n−1}`, then by the `p` inputs. `None`
    /// when a value is not finite.
    pub fn at(&mut self, t: f64, q: &[f64], v: &[f64], parameters: &[f64]) -> Option<Vec<TermDerivatives>> {
        let (n, m) = (self.n, self.m);
        self.inputs[0] = t;
        self.inputs[1..1 + n].copy_from_slice(&q[..n]);
        self.inputs[1 + n..1 + 2 * n].copy_from_slice(&v[..n]);
        self.inputs[1 + 2 * n..].copy_from_slice(parameters);
        match self.native.as_mut() {
            Some(code) => {
                let ran = code.eval(&[&[t], &q[..n], &v[..n], parameters], &mut [&mut self.outputs]);
                if !ran {
                    return None;
                }
            }
            None => self.evaluator.eval(&self.inputs, &mut self.outputs).ok()?,
        }
        if self.outputs.iter().any(|x| !x.is_finite()) {
            return None;
        }
        let hamel_outputs = match &mut self.hamel {
            Some((k, evaluator, outputs)) => {
                evaluator.eval(&self.inputs, outputs).ok()?;
                if outputs.iter().any(|x| !x.is_finite()) {
                    return None;
                }
                Some((*k, &outputs[..]))
            }
            None => None,
        };
        let per = n * n + n + m * n + 2 * m;
        let k = hamel_outputs.map_or(0, |(k, _)| k);
        let mut out = core::mem::take(&mut self.spare);
        out.resize_with(2 * n + self.p, || TermDerivatives::zeros(n, m, k));
        for (index, (d, slot)) in self.outputs.chunks_exact(per.max(1)).zip(out.iter_mut()).enumerate() {
            let (mass, rest) = d.split_at(n * n);
            let (forcing, rest) = rest.split_at(n);
            let (jacobian, rest) = rest.split_at(m * n);
            let (bias, residuals) = rest.split_at(m);
            if slot.mass.shape() != (n, n) || slot.jacobian.shape() != (m, n) || slot.psi.shape() != (k, k) {
                *slot = TermDerivatives::zeros(n, m, k);
            }
            fill_row_major(&mut slot.mass, mass);
            slot.forcing.copy_from_slice(forcing);
            fill_row_major(&mut slot.jacobian, jacobian);
            slot.bias.copy_from_slice(bias);
            slot.residuals.copy_from_slice(residuals);
            if let Some((k, all)) = hamel_outputs {
                let d = &all[index * (k * k + k)..(index + 1) * (k * k + k)];
                fill_row_major(&mut slot.psi, &d[..k * k]);
                slot.g.copy_from_slice(&d[k * k..]);
            }
        }
        Some(out)
    }

    /// Takes back what [`Derivatives::at`] gave, to be filled in place next time.
    pub fn give_back(&mut self, used: Vec<TermDerivatives>) {
        self.spare = used;
    }
}

impl TermDerivatives {
    /// Zeros of the shapes for `n` coordinates, `m` constraints and Hamel's `k`.
    fn zeros(n: usize, m: usize, k: usize) -> Self {
        TermDerivatives {
            mass: DMatrix::zeros(n, n),
            forcing: DVector::zeros(n),
            jacobian: DMatrix::zeros(m, n),
            bias: DVector::zeros(m),
            residuals: DVector::zeros(m),
            psi: DMatrix::zeros(k, k),
            g: DVector::zeros(k),
        }
    }
}

impl crate::expr::CompilesAlone for Derivatives {
    /// The program of the derivatives (Hamel's apart), its inputs `t, q, v,
    /// parameters` in the parts of `input_parts`.
    fn program(&self) -> &Program {
        self.evaluator.program()
    }

    /// The lengths of the program's input parts: `t`, `q`, `v`, the parameters.
    fn input_parts(&self) -> Vec<usize> {
        alloc::vec![1, self.n, self.n, self.evaluator.program().input_count() - 1 - 2 * self.n]
    }

    fn set_native(&mut self, native: Option<NativeEvaluator>) {
        self.native = native;
    }
}
