//! The three straight-line programs an exported file is written from, over the
//! inputs `[t, q, v, parameters]` (the model's parameters, then its inputs):
//!
//! - `rhs`: `M`, `F`, `A`, `b` and Lagrange's solve written out for this model's
//!   sizes and structural zeros (`formulations/elimination.rs`, the machine code's
//!   own), giving `[q̈; λ; flag]`;
//! - `terms`: `[M; F; A; b; f; φ; T + V]` of every constraint;
//! - `jacobian`: `∂q̈/∂(q, v, u)` (n × (2n + p), row-major) and a flag: the
//!   derivative of the solve, `[[M, −Aᵀ], [A, 0]] [∂q̈; ∂λ] = [∂F − ∂M q̈ + ∂Aᵀλ;
//!   ∂b − ∂A q̈]`, written out with the same factors (value numbering shares them),
//!   the terms' derivatives symbolic.
//!
//! Constraints that repeat each other (two wheels on one axle: four rows of rank
//! three) are all in the solve, the independent rows at the reference state first:
//! at each evaluation a row that is a combination of those before it there is left
//! out, arithmetically ([`elimination::Rows::MayRepeat`]), and every row must hold.
//! A choice fixed at the reference state failed where those rows lose rank (issue
//! 57: the robot turning on the spot, at a heading of 90°), while the lab, which
//! chooses at each state, went on.

use alloc::vec::Vec;

use crate::expr::{Arithmetic, Block, ExprId, Program, Value};
use crate::formulations::elimination::{self, Rows};
use crate::mechanics::{dynamics_outputs, Model};

/// Most instructions of the three programs together: the exported file has a line
/// for each, and a compiler's time grows with it.
pub const MAX_EXPORT_INSTRUCTIONS: usize = 400_000;

/// Most instructions of the solve written out (four times what machine code
/// takes: a C compiler handles more than Cranelift's time budget allows).
pub const MAX_SOLVE_INSTRUCTIONS: usize = 4 * elimination::MAX_INSTRUCTIONS;

/// Most derivatives of the solve's terms the exported Jacobian is built from: every
/// entry of `M`, `F`, `A`, `b` by every `q`, `v` and input, `(n² + n + m n + m)(2n +
/// p)`. The work and memory grow with it (issue 57: 200 coordinates and 199
/// constraints, 24 million of them, took 71 s and 0.9 GB before the file was
/// refused as too long): 100 coordinates with 50 constraints, 3 million, export in
/// about 2.5 s.
pub const MAX_DERIVATIVE_TERMS: usize = 4_000_000;

/// What an exported file computes.
pub struct Programs {
    /// `[q̈; λ; flag]`.
    pub rhs: Program,
    /// `[M; F; A; b; f; φ; T + V]`, every constraint.
    pub terms: Program,
    /// `[∂q̈/∂(q, v, u) row-major; flag]`.
    pub jacobian: Program,
    /// The constraints in the solve's order: all of them, the independent ones at
    /// the reference state first.
    pub order: Vec<usize>,
    /// Whether they repeat each other there (the solve then leaves rows out at
    /// each evaluation).
    pub redundant: bool,
}

/// The programs of `model`, with `independent` the constraints that are independent
/// at the reference state. `Err` names why not: a solve too large to write out, or
/// too many instructions.
pub fn build(model: &Model, independent: &[usize]) -> Result<Programs, crate::message::Message> {
    let n = model.coordinate_count();
    let m_all = model.constraints.len();
    let (mut graph, inputs, outputs) = dynamics_outputs(model, &model.graph);
    let terms_program = graph.compile(&outputs, &inputs).map_err(|e| e.message())?;
    let redundant = independent.len() < m_all;
    let mut order = independent.to_vec();
    order.extend((0..m_all).filter(|j| !independent.contains(j)));
    let rows = if redundant { Rows::MayRepeat { check: true } } else { Rows::Independent };
    let kept = &order;
    // M, F, then A's and b's rows in the solve's order.
    let m = kept.len();
    let a_at = n * n + n;
    let b_at = a_at + m_all * n;
    let mut head: Vec<ExprId> = outputs[..a_at].to_vec();
    for &j in kept {
        head.extend_from_slice(&outputs[a_at + j * n..a_at + (j + 1) * n]);
    }
    head.extend(kept.iter().map(|&j| outputs[b_at + j]));
    let known: Vec<Option<f64>> = head.iter().map(|&e| graph.as_number(e).map(|x| x.to_f64())).collect();
    let estimate = elimination::instruction_estimate(n, m, &known);
    if estimate > MAX_SOLVE_INSTRUCTIONS {
        return Err(crate::message::run::export_solve_too_large(n, m, estimate, MAX_SOLVE_INSTRUCTIONS));
    }
    let derivative_terms = head.len().saturating_mul(2 * n + model.inputs.len());
    if derivative_terms > MAX_DERIVATIVE_TERMS {
        return Err(crate::message::run::export_derivatives_too_many(n, m, derivative_terms, MAX_DERIVATIVE_TERMS));
    }
    let rhs = graph
        .compile_with_block(&head, &inputs, |block, terms| elimination::eliminate_with(block, n, m, terms, rows))
        .map_err(|e| e.message())?;
    // The derivatives of the head by each q, v and input.
    let variables: Vec<_> = (0..n)
        .map(|i| graph.coordinate(i)[0])
        .chain((0..n).map(|i| graph.coordinate(i)[1]))
        .chain(model.inputs.iter().map(|&k| model.parameters[k].symbol))
        .collect();
    let mut everything = head.clone();
    for &x in &variables {
        let derivatives = graph.diff_many(&head, x);
        everything.extend(derivatives);
    }
    let per = head.len();
    let jacobian = graph
        .compile_with_block(&everything, &inputs, |block, values| derivative_solve(block, n, m, per, values, rows))
        .map_err(|e| e.message())?;
    let total = rhs.code().len() + terms_program.code().len() + jacobian.code().len();
    if total > MAX_EXPORT_INSTRUCTIONS {
        return Err(crate::message::run::export_code_too_large(total, MAX_EXPORT_INSTRUCTIONS));
    }
    Ok(Programs { rhs, terms: terms_program, jacobian, order, redundant })
}

/// From `values = [head; ∂head/∂x₀; ∂head/∂x₁; …]` (`head = [M; F; A; b]`, `per`
/// values each): `∂q̈/∂x` for every `x` as an n × (variables) row-major matrix, then
/// the product of every solve's flag. With rows that may repeat, each derivative's
/// solve leaves out the rows the value's solve left out (the same matrix), and its
/// right-hand side need not meet the rows left out (it is the derivative of the
/// kept rows' motion).
fn derivative_solve(block: &mut Block, n: usize, m: usize, per: usize, values: &[Value], rows: Rows) -> Vec<Value> {
    let head = &values[..per];
    let solved = elimination::eliminate_with(block, n, m, head, rows);
    let derivative_rows = match rows {
        Rows::MayRepeat { .. } => Rows::MayRepeat { check: false },
        independent => independent,
    };
    let (qdd, rest) = solved.split_at(n);
    let (lambda, flag) = rest.split_at(m);
    let mut flag = flag[0];
    let (mass, rest) = head.split_at(n * n);
    let (_, rest) = rest.split_at(n);
    let (jacobian, _) = rest.split_at(m * n);
    let mut columns: Vec<Vec<Value>> = Vec::new();
    for d in values[per..].chunks_exact(per.max(1)) {
        let (d_mass, rest) = d.split_at(n * n);
        let (d_forcing, rest) = rest.split_at(n);
        let (d_jacobian, d_bias) = rest.split_at(m * n);
        // ∂F − ∂M q̈ + ∂Aᵀλ.
        let mut terms: Vec<Value> = mass.to_vec();
        for i in 0..n {
            let mut x = d_forcing[i];
            for k in 0..n {
                let p = block.mul(d_mass[i * n + k], qdd[k]);
                x = block.sub(x, p);
            }
            for j in 0..m {
                let p = block.mul(d_jacobian[j * n + i], lambda[j]);
                x = block.add(x, p);
            }
            terms.push(x);
        }
        terms.extend_from_slice(jacobian);
        // ∂b − ∂A q̈.
        for j in 0..m {
            let mut x = d_bias[j];
            for k in 0..n {
                let p = block.mul(d_jacobian[j * n + k], qdd[k]);
                x = block.sub(x, p);
            }
            terms.push(x);
        }
        let column = elimination::eliminate_with(block, n, m, &terms, derivative_rows);
        flag = block.mul(flag, column[n + m]);
        columns.push(column[..n].to_vec());
    }
    let mut out = Vec::with_capacity(n * columns.len() + 1);
    for i in 0..n {
        out.extend(columns.iter().map(|c| c[i]));
    }
    out.push(flag);
    out
}
