//! Hamel's embedding and the E-vector (paper 000), and the multiplier-free
//! equations of the true motion in the independent velocities (Voronets; here in
//! Maggi's projected form, which is the same equations).
//!
//! For linear constraints `A v + a₀ = 0` and a split `q = (q₁, q₂)` with `A₁`
//! invertible: `v₁ = X v₂ + β`, `X = −A₁⁻¹A₂`, `β = −A₁⁻¹a₀`, and `N = [X; I]`.
//!
//! - Hamel puts `v₁` into `T` and `Q` and applies Lagrange's equations to `q₂` only:
//!   `T*(q, v₂, t)`, `∂T*/∂v₂ = Ψ v₂ + Φ`, `Ψ q̈₂ = G` with
//!   `G = −(d/dt ∂T*/∂v₂)|_{q̈=0} + ∂T*/∂q₂ − ∂V/∂q₂ + Q₂*`.
//! - The true motion projected on the admissible directions, `Nᵀ(M q̈ − F) = 0` with
//!   `q̈ = N q̈₂ + γ`, `γ = [A₁⁻¹ b; 0]`: `Ψ q̈₂ = H`, `H = Nᵀ(F − M γ)` (`Ψ = NᵀMN`).
//! - `E = G − H`, zero exactly where Hamel's embedding gives the true motion.
//!
//! Everything is symbolic and evaluated on the constraint (`v₁` replaced by `v₁*`).

pub(crate) mod regularity;

use alloc::string::String;
use alloc::vec::Vec;

use super::base::Base;
use crate::expr::{DiffError, ExprGraph, ExprId, SymbolId};
use crate::math::best_split;
use crate::message::{problem, Message};

/// Largest expression (in nodes) that the derivation expands; larger ones stay
/// factored (same values, just less tidy) so that big models derive in
/// milliseconds. The papers' examples are far below it.
const EXPAND_BUDGET: usize = 300;

/// Operands one split's derivation may handle ([`ExprGraph::work`], about 16 ns
/// each): a coupled `A₁` of 100 rows makes its symbolic inverse grow past any use
/// (200 coordinates with 100 chained constraints: 1.3·10⁹, 83 s and 2 GB), while
/// the gallery's largest split, the bicycle's, takes 6·10⁵ and 200 coordinates with
/// 100 sparse constraints 6·10⁷.
const MAX_SPLIT_WORK: u64 = 150_000_000;

/// The work bound of one derivation: the graph's size when it started.
struct NodeBudget(u64);

impl NodeBudget {
    fn check(&self, g: &ExprGraph) -> Result<(), SplitError> {
        self.check_ahead(g, 0)
    }

    /// Refuses before a step whose work is about `ahead` operands would pass the bound
    /// (one time derivative of a large `∂T*/∂v₂` can take most of a minute by itself).
    fn check_ahead(&self, g: &ExprGraph, ahead: u64) -> Result<(), SplitError> {
        let made = g.work().saturating_sub(self.0).saturating_add(ahead);
        if made > MAX_SPLIT_WORK {
            return Err(SplitError::TooLarge(made));
        }
        Ok(())
    }
}

/// The symbolic Hamel/Voronets data of one split.
#[derive(Clone, Debug)]
pub struct HamelSplit {
    /// Whether the split is built on the `r` rows `A₁ᵀ(A v + a₀) = 0` rather than on
    /// the constraints themselves: where some constraints are combinations of the
    /// others (two wheels on one axle: four rows of rank three), `r` being their rank
    /// at the initial state and `A₁` the dependent columns of every row. For
    /// consistent rows these give the same `v₁`, `X`, `β` and `γ` (so the same `E`) as
    /// any independent subset would, and they turn singular only where the dependent
    /// columns do: a subset of the rows can lose rank where the whole does not (the
    /// robot's rows `left x`, `left y`, `right x` at a heading of 90°).
    pub combined: bool,
    /// Indices of the dependent coordinates `q₁`, one per independent constraint.
    pub dependent: Vec<usize>,
    /// Indices of the independent coordinates `q₂`.
    pub independent: Vec<usize>,
    /// `det A₁`, which must stay away from zero.
    pub determinant: ExprId,
    /// `v₁* = X v₂ + β` (r entries).
    pub dependent_velocities: Vec<ExprId>,
    /// `T*(q, v₂, t)`.
    pub embedded_kinetic: ExprId,
    /// `Ψ` (k×k, row-major).
    pub psi: Vec<ExprId>,
    /// `Φ` (k).
    pub phi: Vec<ExprId>,
    /// Hamel's right-hand side `G` (k).
    pub g: Vec<ExprId>,
    /// The true motion's right-hand side `H` (k).
    pub h: Vec<ExprId>,
    /// `E = G − H` (k).
    pub e: Vec<ExprId>,
}

/// Why a split cannot be derived.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SplitError {
    /// Constraints nonlinear in the velocities have no such split.
    Nonlinear,
    /// As many dependent coordinates as independent constraints are needed.
    Count {
        /// The independent constraints.
        expected: usize,
        /// All constraints, when some depend on the others.
        constraints: Option<usize>,
        /// The dependent coordinates given.
        found: usize,
    },
    /// `A₁` is singular (symbolically, or at the reference state): the dependent
    /// coordinates' names, or `(any)`.
    Singular(String),
    /// The generalised forces contain accelerations (masses that depend on the
    /// velocities): Hamel's embedding is not defined for them.
    AccelerationDependentForces,
    /// A derivative could not be taken.
    Diff(DiffError),
    /// The symbolic derivation outgrew its work bound (the work it had done).
    TooLarge(u64),
    /// Nothing asked for the split when the model was built ([`super::Needs`]).
    NotDerived,
}

impl SplitError {
    /// Why, as a message with an id ([`crate::message::problem`]).
    pub fn message(&self) -> Message {
        match self {
            SplitError::Nonlinear => problem::hamel_nonlinear(),
            SplitError::Count { expected, constraints: None, found } => problem::hamel_count(expected, found),
            SplitError::Count { expected, constraints: Some(m), found } => problem::hamel_count_of(expected, m, found),
            SplitError::Singular(names) => problem::hamel_singular(names),
            SplitError::AccelerationDependentForces => problem::hamel_accelerations(),
            SplitError::Diff(e) => e.message(),
            SplitError::TooLarge(_) => problem::hamel_too_large(MAX_SPLIT_WORK),
            SplitError::NotDerived => problem::hamel_not_derived(),
        }
    }
}

crate::message::words_are_the_message!(SplitError);

impl From<DiffError> for SplitError {
    fn from(e: DiffError) -> Self {
        SplitError::Diff(e)
    }
}

/// `X` of `A X = B` and `det A`; `None` where `A` is singular.
type Solution = (Vec<Vec<ExprId>>, ExprId);

/// Symbolic Gauss–Jordan elimination: solves `A X = B` (A r×r, B r×k) with pivots
/// chosen by their value at a reference point, so the chosen pivot is nonzero there.
fn solve(
    g: &mut ExprGraph,
    mut a: Vec<Vec<ExprId>>,
    mut b: Vec<Vec<ExprId>>,
    value: &dyn Fn(&ExprGraph, ExprId) -> f64,
    budget: &NodeBudget,
) -> Result<Option<Solution>, SplitError> {
    let r = a.len();
    let mut det = g.one();
    for col in 0..r {
        budget.check(g)?;
        // Threshold pivoting with Markowitz's rule: among the rows whose pivot is at
        // least a tenth of the largest at the reference point, the one with the fewest
        // nonzero entries, so that a sparse (say triangular) A₁ is eliminated without
        // fill-in. Taking the largest alone reordered a chain of 35 knife-edge trailers
        // into dense fill-in: 3.6 million instructions instead of a few hundred thousand.
        // Each candidate's |pivot| at the reference point and its row's nonzeros, once.
        let candidates: Vec<(usize, f64, usize)> = (col..r)
            .map(|i| (i, value(g, a[i][col]).abs(), a[i][col..].iter().filter(|&&x| !g.is_zero(x)).count()))
            .collect();
        let largest = candidates.iter().map(|c| c.1).fold(0.0, f64::max);
        if largest < 1e-12 {
            return Ok(None);
        }
        // Of equally sparse rows the largest pivot, as plain partial pivoting would
        // take (a dense A₁ is pivoted exactly as before).
        let Some((pivot, _, _)) = candidates
            .into_iter()
            .filter(|c| c.1 >= 0.1 * largest)
            .min_by(|x, y| x.2.cmp(&y.2).then(y.1.total_cmp(&x.1)))
        else {
            return Ok(None);
        };
        if pivot != col {
            a.swap(pivot, col);
            b.swap(pivot, col);
            det = g.neg(det);
        }
        let p = a[col][col];
        det = g.mul2(det, p);
        let inv = g.powi(p, -1);
        for x in a[col].iter_mut().chain(b[col].iter_mut()) {
            let scaled = g.mul2(*x, inv);
            *x = g.expand_within(scaled, EXPAND_BUDGET);
        }
        for row in 0..r {
            if row == col {
                continue;
            }
            let factor = a[row][col];
            if g.is_zero(factor) {
                continue;
            }
            for c in 0..a[row].len() {
                let t = g.mul2(factor, a[col][c]);
                let d = g.sub(a[row][c], t);
                a[row][c] = g.expand_within(d, EXPAND_BUDGET);
            }
            for c in 0..b[row].len() {
                let t = g.mul2(factor, b[col][c]);
                let d = g.sub(b[row][c], t);
                b[row][c] = g.expand_within(d, EXPAND_BUDGET);
            }
        }
    }
    budget.check(g)?;
    Ok(Some((b, g.expand_within(det, EXPAND_BUDGET))))
}

/// The rows a split is built on, symbolic: `A` (n entries a row), `a₀` and `b`.
struct SplitRows {
    jacobian: Vec<Vec<ExprId>>,
    a0: Vec<ExprId>,
    bias: Vec<ExprId>,
}

impl SplitRows {
    /// The constraints' own rows, or with `combined` the rows of `A₁ᵀ` times them
    /// ([`HamelSplit::combined`]).
    fn of(model: &Base, g: &mut ExprGraph, dependent: &[usize], a0: &[ExprId], combined: bool) -> Self {
        let constraints = &model.constraints;
        if !combined {
            return SplitRows {
                jacobian: constraints.iter().map(|c| c.jacobian.clone()).collect(),
                a0: a0.to_vec(),
                bias: constraints.iter().map(|c| c.bias).collect(),
            };
        }
        let n = model.coordinate_count();
        let mut rows = SplitRows { jacobian: Vec::new(), a0: Vec::new(), bias: Vec::new() };
        for &d in dependent {
            let weighted = |g: &mut ExprGraph, entry: &dyn Fn(usize) -> ExprId| {
                let terms: Vec<ExprId> =
                    constraints.iter().enumerate().map(|(j, c)| g.mul2(c.jacobian[d], entry(j))).collect();
                let sum = g.add(&terms);
                g.expand_within(sum, EXPAND_BUDGET)
            };
            rows.jacobian.push((0..n).map(|i| weighted(g, &|j| constraints[j].jacobian[i])).collect());
            rows.a0.push(weighted(g, &|j| a0[j]));
            rows.bias.push(weighted(g, &|j| constraints[j].bias));
        }
        rows
    }
}

impl HamelSplit {
    /// Derives the split with the given dependent coordinates; `reference` gives the
    /// value of each symbol at a state where `A₁` must be invertible.
    pub fn derive(
        model: &Base,
        g: &mut ExprGraph,
        dependent: &[usize],
        reference: &dyn Fn(SymbolId) -> f64,
    ) -> Result<Self, SplitError> {
        if !model.constraints_are_linear() {
            return Err(SplitError::Nonlinear);
        }
        let has_accelerations = model.generalized_forces.iter().any(|&f| {
            g.free_symbols(f).iter().any(|&s| matches!(g.symbol(s).kind, crate::expr::SymbolKind::Acceleration(_)))
        });
        if has_accelerations {
            return Err(SplitError::AccelerationDependentForces);
        }
        let budget = NodeBudget(g.work());
        let n = model.coordinate_count();
        let rank = model.independent_constraints(reference).len();
        let m = model.constraints.len();
        let combined = rank < m;
        let r = rank;
        let independent: Vec<usize> = (0..n).filter(|i| !dependent.contains(i)).collect();
        let names = || dependent.iter().map(|&i| model.coordinates[i].clone()).collect::<Vec<_>>().join(", ");
        if dependent.len() != r {
            return Err(SplitError::Count { expected: r, constraints: combined.then_some(m), found: dependent.len() });
        }
        let velocity = |g: &ExprGraph, i: usize| g.coordinate(i)[1];
        let all_velocities: Vec<SymbolId> = (0..n).map(|i| velocity(g, i)).collect();
        // A v + a₀: a₀ = f at v = 0.
        let zero = g.zero();
        let a0: Vec<ExprId> = model
            .constraints
            .iter()
            .map(|c| {
                let f0 = g.substitute(c.velocity_residual, &|s| all_velocities.contains(&s).then_some(zero));
                g.expand_within(f0, EXPAND_BUDGET)
            })
            .collect();
        let rows = SplitRows::of(model, g, dependent, &a0, combined);
        let a1: Vec<Vec<ExprId>> =
            rows.jacobian.iter().map(|row| dependent.iter().map(|&i| row[i]).collect()).collect();
        // Right-hand sides: −A₂ (for X) and −a₀ (for β), solved together.
        let rhs: Vec<Vec<ExprId>> = rows
            .jacobian
            .iter()
            .zip(&rows.a0)
            .map(|(row, &a0j)| {
                let mut out: Vec<ExprId> = independent.iter().map(|&i| g.neg(row[i])).collect();
                out.push(g.neg(a0j));
                out
            })
            .collect();
        let value = |g: &ExprGraph, e: ExprId| g.evaluate(e, reference);
        let (solution, determinant) =
            solve(g, a1, rhs, &value, &budget)?.ok_or_else(|| SplitError::Singular(names()))?;
        let k = independent.len();
        let v2: Vec<ExprId> = independent.iter().map(|&i| g.symbol_expr(velocity(g, i))).collect();
        let dependent_velocities: Vec<ExprId> = solution
            .iter()
            .map(|row| {
                let mut terms: Vec<ExprId> = (0..k).map(|s| g.mul2(row[s], v2[s])).collect();
                terms.push(row[k]);
                let sum = g.add(&terms);
                g.expand_within(sum, EXPAND_BUDGET)
            })
            .collect();
        let dep_syms: Vec<SymbolId> = dependent.iter().map(|&i| velocity(g, i)).collect();
        let on_constraint = |g: &mut ExprGraph, e: ExprId| {
            let s = g.substitute(e, &|s| dep_syms.iter().position(|&d| d == s).map(|j| dependent_velocities[j]));
            g.expand_within(s, EXPAND_BUDGET)
        };
        let embedded_kinetic = on_constraint(g, model.kinetic);
        let v2_syms: Vec<SymbolId> = independent.iter().map(|&i| velocity(g, i)).collect();
        let accelerations: Vec<SymbolId> = (0..n).map(|i| g.coordinate(i)[2]).collect();
        let mut psi = Vec::with_capacity(k * k);
        let mut phi = Vec::with_capacity(k);
        let mut gs = Vec::with_capacity(k);
        for (s, &i) in independent.iter().enumerate() {
            budget.check(g)?;
            let p = g.diff(embedded_kinetic, v2_syms[s]);
            let p = g.expand_within(p, EXPAND_BUDGET);
            let mut psi_v = Vec::new();
            for &vt in &v2_syms {
                let d = g.diff(p, vt);
                let d = g.expand_within(d, EXPAND_BUDGET);
                psi.push(d);
                let term = g.mul2(d, g.symbol_expr(vt));
                psi_v.push(term);
            }
            let psi_v = g.add(&psi_v);
            let rest = g.sub(p, psi_v);
            phi.push(g.expand_within(rest, EXPAND_BUDGET));
            // G = −(dp/dt)|_{q̈=0} + ∂T*/∂q₂ − ∂V/∂q₂ + Q₂*, all on the constraint.
            // d/dt visits `p` once per coordinate with a rate, and the product rule
            // turns a product of k factors into k products of k.
            let mut operands = 0u64;
            g.walk(&[p], false, |_, node| {
                operands += match node {
                    crate::expr::Node::Add(xs) => 1 + xs.len() as u64,
                    crate::expr::Node::Mul(xs) => 1 + (xs.len() * xs.len()) as u64,
                    _ => 1,
                }
            });
            budget.check_ahead(g, operands.saturating_mul(n as u64))?;
            let pdot = g.time_derivative(p)?;
            budget.check(g)?;
            let pdot = g.substitute(pdot, &|s| accelerations.contains(&s).then_some(zero));
            let pdot = on_constraint(g, pdot);
            let q2 = g.coordinate(i)[0];
            let dt_dq = g.diff(embedded_kinetic, q2);
            let dv_dq = g.diff(model.potential, q2);
            let force = on_constraint(g, model.generalized_forces[i]);
            let sum = g.add(&[dt_dq, force]);
            let sum = g.sub(sum, dv_dq);
            let gi = g.sub(sum, pdot);
            gs.push(g.expand_within(gi, EXPAND_BUDGET));
        }
        // H = Nᵀ(F − M γ), γ = [A₁⁻¹ b; 0]: A₁⁻¹ b from the same elimination.
        let b_rhs: Vec<Vec<ExprId>> = rows.bias.iter().map(|&b| alloc::vec![b]).collect();
        let a1_again: Vec<Vec<ExprId>> =
            rows.jacobian.iter().map(|row| dependent.iter().map(|&i| row[i]).collect()).collect();
        let (a1_inv_b, _) = solve(g, a1_again, b_rhs, &value, &budget)?.ok_or_else(|| SplitError::Singular(names()))?;
        let mut gamma = alloc::vec![zero; n];
        for (j, &i) in dependent.iter().enumerate() {
            gamma[i] = a1_inv_b[j][0];
        }
        let m = &model.equations.mass_matrix;
        let f = &model.equations.forcing;
        let residual: Vec<ExprId> = (0..n)
            .map(|row| {
                let terms: Vec<ExprId> = (0..n).map(|c| g.mul2(m[row * n + c], gamma[c])).collect();
                let m_gamma = g.add(&terms);
                g.sub(f[row], m_gamma)
            })
            .collect();
        // N's column s: X[:, s] in the dependent rows, 1 at independent coordinate s.
        let mut h = Vec::with_capacity(k);
        for (s, &i) in independent.iter().enumerate() {
            budget.check(g)?;
            let mut terms = alloc::vec![residual[i]];
            for (j, &d) in dependent.iter().enumerate() {
                terms.push(g.mul2(solution[j][s], residual[d]));
            }
            let hs = g.add(&terms);
            h.push(on_constraint(g, hs));
        }
        let e = (0..k)
            .map(|s| {
                let d = g.sub(gs[s], h[s]);
                g.expand_within(d, EXPAND_BUDGET)
            })
            .collect();
        budget.check(g)?;
        Ok(HamelSplit {
            combined,
            dependent: dependent.to_vec(),
            independent,
            determinant,
            dependent_velocities,
            embedded_kinetic,
            psi,
            phi,
            g: gs,
            h,
            e,
        })
    }
}

/// The dependent coordinates: `given` (the scenario's `[hamel] dependent`) when it
/// names some, else the `r`
/// coordinates that column pivoting of `A` (its independent rows) at the initial
/// state picks ([`best_split`]), provided `A₁` is regular there.
pub fn choose_dependent(model: &Base, given: &[String], reference: &dyn Fn(SymbolId) -> f64) -> Option<Vec<usize>> {
    if !given.is_empty() {
        return given.iter().map(|q| model.coordinates.iter().position(|c| c == q)).collect();
    }
    let n = model.coordinate_count();
    let rows = model.independent_constraints(reference);
    let r = rows.len();
    if r == 0 || r > n {
        return None;
    }
    let a = nalgebra::DMatrix::from_fn(r, n, |i, j| {
        model.graph.evaluate(model.constraints[rows[i]].jacobian[j], reference)
    });
    let (mut dependent, _) = best_split(&a);
    dependent.sort_unstable();
    let det = a.select_columns(&dependent).determinant().abs();
    (dependent.len() == r && det > 1e-12).then_some(dependent)
}
