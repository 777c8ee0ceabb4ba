//! The formulations: one file each, all answering the same question — the
//! accelerations (and multipliers, where the method has them) at a state.
//!
//! | id | file | route |
//! |---|---|---|
//! | `lagrange` | `lagrange.rs` | Routh/Chetaev multipliers: `[[M, −Aᵀ], [A, 0]]` solved by LU |
//! | `udwadia-kalaba` | `udwadia_kalaba.rs` | `a + M^{-1/2}(A M^{-1/2})⁺(b − A a)`, eigen-decomposition and SVD |
//! | `gauss` | `gauss.rs` | least compulsion on the affine set `A q̈ = b`, by its null space |
//! | `euler` | `euler.rs` | Shen's Euler-condition reaction `R = ∫₀¹ ∂f/∂v(q, s v, t) ds` |
//! | `voronets` | `voronets.rs` | the equations in the independent velocities, `NᵀMN q̈₂ = Nᵀ(F − Mγ)` |
//! | `hamel` | `hamel.rs` | Hamel's embedding `Ψ q̈₂ = G`: right only where `E = G − H = 0` |
//! | `vakonomic` | `vakonomic.rs` | `δ∫(L + μᵀf)dt = 0`, `μ` in the state |
//!
//! The routes differ on purpose: their agreement on ideal linear constraints is
//! one of the lab's own checks (mechanics.md, "What must agree").

pub(crate) mod elimination;

pub use crate::math::{RangeSpace, Workspace, MASS_PIVOT, SCHUR_PIVOT};
mod euler;
mod gauss;
mod hamel;
mod lagrange;
mod udwadia_kalaba;
mod vakonomic;
mod voronets;

use nalgebra::{DMatrix, DVector};

use crate::mechanics::{DynamicsError, NumericModel, Terms};

pub use crate::scenario::Method;

/// Whether `method` applies to `model`: `Err` says why not, in the words that
/// `nhlab check`, `derive`, `run`, `eval` and the page all use.
pub fn applicability(model: &crate::mechanics::Model, method: Method) -> Result<(), alloc::string::String> {
    why_not(model, method).map_err(|m| m.english)
}

/// [`applicability`]'s reason as a message with an id, which a page says in its
/// language.
pub fn why_not(model: &crate::mechanics::Model, method: Method) -> Result<(), crate::message::Message> {
    use crate::message::{run, Part};
    match method {
        Method::Voronets => match model.nonlinear_constraints() {
            names if !names.is_empty() => Err(voronets::nonlinear_reason(&names)),
            _ => Ok(()),
        },
        Method::Hamel if model.constraints.is_empty() => Err(run::hamel_no_constraints()),
        // Not derived (`nhlab check`): as far as it can be known without its terms.
        Method::Hamel if model.hamel.as_ref().is_err_and(|e| *e == crate::mechanics::SplitError::NotDerived) => {
            model.split_without_terms().map(|_| ()).map_err(|e| e.message())
        }
        Method::Hamel => model.hamel.as_ref().map(|_| ()).map_err(|e| e.message()),
        // Not derived (`nhlab check`): its derivation fails only where a derivative
        // has no rate, which the model's own equations would have met first.
        Method::Vakonomic => match &model.vakonomic {
            Err(crate::mechanics::VakonomicError::NotDerived) | Ok(_) => Ok(()),
            Err(crate::mechanics::VakonomicError::Diff(e)) => Err(run::vakonomic_not_derived(Part(e.message()))),
        },
        _ => Ok(()),
    }
}

/// Accelerations at a state, with the multipliers where the method has them.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// `q̈`, one per coordinate.
    pub accelerations: DVector<f64>,
    /// `λ` (for `vakonomic`: `μ`), one per constraint.
    pub multipliers: Option<DVector<f64>>,
    /// `μ̇` for `vakonomic`.
    pub multiplier_rates: Option<DVector<f64>>,
}

/// The accelerations of `method` at `(t, q, v)` (for `vakonomic`, with `μ = 0`).
pub fn accelerations(
    method: Method,
    numeric: &mut NumericModel,
    t: f64,
    q: &[f64],
    v: &[f64],
) -> Result<Solution, DynamicsError> {
    accelerations_with_multipliers(method, numeric, t, q, v, &[])
}

/// The accelerations of `method` at `(t, q, v)` with the vakonomic multipliers `μ`
/// (ignored by the other methods).
pub fn accelerations_with_multipliers(
    method: Method,
    numeric: &mut NumericModel,
    t: f64,
    q: &[f64],
    v: &[f64],
    mu: &[f64],
) -> Result<Solution, DynamicsError> {
    match method {
        Method::Lagrange => {
            let mut accelerations = DVector::zeros(numeric.n());
            let multipliers = lagrange::solve_into(numeric, t, q, v, accelerations.as_mut_slice())?;
            Ok(Solution {
                accelerations,
                multipliers: Some(DVector::from_column_slice(multipliers)),
                multiplier_rates: None,
            })
        }
        Method::UdwadiaKalaba => udwadia_kalaba::solve(numeric.evaluate_dynamics(t, q, v)?, t),
        Method::Gauss => gauss::solve(numeric.evaluate_dynamics(t, q, v)?, t),
        Method::Euler => euler::solve(numeric, t, q, v),
        Method::Hamel => hamel::solve(numeric, t, q, v),
        Method::Voronets => voronets::solve(numeric, t, q, v),
        Method::Vakonomic => vakonomic::solve(numeric, t, q, v, mu),
    }
}

/// Lagrange's `q̈` into a slice, returning `λ`, with no allocation: what a
/// simulation under `lagrange` calls at every stage.
pub use lagrange::solve_into as lagrange_into;
pub(crate) use lagrange::{hoist as hoist_lagrange, with_tail as lagrange_with_tail};
pub use lagrange::{lagrange_parts, lagrange_program, lagrange_program_within, MAX_COMPILED_INSTRUCTIONS};

/// Hamel's E-vector at a state: one component per independent coordinate.
#[derive(Clone, Debug, PartialEq)]
pub struct EVector {
    /// Indices of the independent coordinates `q₂`, in the order of `values`.
    pub independent: alloc::vec::Vec<usize>,
    /// `E = G − H`.
    pub values: DVector<f64>,
}

/// The E-vector `G − H` at a state; `None` when the model has no split (nonlinear
/// or no constraints). An error when the split is singular at this state.
pub fn e_vector(numeric: &mut NumericModel, t: f64, q: &[f64], v: &[f64]) -> Option<Result<EVector, DynamicsError>> {
    if let Err(e) = numeric.evaluate_dynamics(t, q, v) {
        return Some(Err(e));
    }
    Some(e_values(numeric, t, q, v)?.map(|h| EVector { independent: h.independent.clone(), values: h.e.clone() }))
}

/// The Hamel terms at a state, once the split is known to be regular there: `E`
/// is `h.e`. The caller has checked `M`, `F`, `A`, `b` there (a simulation's
/// sample, [`e_vector`]), which the terms' values build on.
pub(crate) fn e_values<'a>(
    numeric: &'a mut NumericModel,
    t: f64,
    q: &[f64],
    v: &[f64],
) -> Option<Result<&'a crate::mechanics::HamelTerms, DynamicsError>> {
    let h = match numeric.hamel_terms(t, q, v)? {
        Ok(h) => h,
        Err(e) => return Some(Err(e)),
    };
    if !h.split_regular {
        return Some(Err(DynamicsError::Singular {
            what: crate::mechanics::SingularMatrix::HamelSplit,
            t,
            hint: crate::mechanics::SingularHint::NoEVector,
        }));
    }
    Some(Ok(h))
}

/// Gauss's compulsion `Z = ½(q̈ − a)ᵀ M (q̈ − a)` of accelerations `qdd`, with
/// `a = M⁻¹F` the unconstrained accelerations.
pub fn compulsion(terms: &Terms, qdd: &DVector<f64>, t: f64) -> Result<f64, DynamicsError> {
    let a = unconstrained(terms, t)?;
    let d = qdd - a;
    Ok(0.5 * d.dot(&(&terms.mass * &d)))
}

/// [`compulsion`] with a reused solver and scratch: nothing allocated, as a
/// simulation needs at every sample. Where the solver declines `M` (not positive
/// definite to its tolerance), [`compulsion`] decides and words the error.
pub fn compulsion_with(
    terms: &Terms,
    qdd: &[f64],
    t: f64,
    solver: &mut RangeSpace,
    scratch: &mut alloc::vec::Vec<f64>,
) -> Result<f64, DynamicsError> {
    let n = terms.mass.nrows();
    scratch.resize(n, 0.0);
    // M is symmetric: its column-major storage reads as row-major.
    if !(solver.factor(n, terms.mass.as_slice(), &[]) && solver.solve(terms.forcing.as_slice(), &[], scratch, &mut []))
    {
        return compulsion(terms, &DVector::from_column_slice(qdd), t);
    }
    // d = q̈ − M⁻¹F, in place.
    for (d, &x) in scratch.iter_mut().zip(qdd) {
        *d = x - *d;
    }
    let mut z = 0.0;
    for (j, column) in terms.mass.column_iter().enumerate() {
        z += scratch[j] * column.iter().zip(scratch.iter()).fold(0.0, |s, (m, d)| s + m * d);
    }
    Ok(0.5 * z)
}

/// `M⁻¹F` by Cholesky, which also proves `M` positive definite.
pub(crate) fn unconstrained(terms: &Terms, t: f64) -> Result<DVector<f64>, DynamicsError> {
    let chol = terms.mass.clone().cholesky().ok_or(DynamicsError::NotPositiveDefinite { t })?;
    Ok(chol.solve(&terms.forcing))
}

/// Solves the saddle-point system `M q̈ − Bᵀλ = F`, `A q̈ = b` (B = A for Lagrange,
/// B = R for the Euler condition) in a reused workspace.
pub(crate) fn saddle_point(
    terms: &Terms,
    reaction: &DMatrix<f64>,
    workspace: &mut Workspace,
    t: f64,
    what: crate::mechanics::SingularMatrix,
) -> Result<Solution, DynamicsError> {
    let (n, m) = (terms.mass.nrows(), terms.jacobian.nrows());
    workspace.reset(n + m);
    for r in 0..n {
        for c in 0..n {
            workspace.set(r, c, terms.mass[(r, c)]);
        }
        for j in 0..m {
            workspace.set(r, n + j, -reaction[(j, r)]);
            workspace.set(n + j, r, terms.jacobian[(j, r)]);
        }
        workspace.rhs[r] = terms.forcing[r];
    }
    for j in 0..m {
        workspace.rhs[n + j] = terms.bias[j];
    }
    if !workspace.solve() {
        return redundant_saddle_point(terms, reaction, t, what);
    }
    Ok(Solution {
        accelerations: DVector::from_column_slice(&workspace.rhs[..n]),
        multipliers: Some(DVector::from_column_slice(&workspace.rhs[n..])),
        multiplier_rates: None,
    })
}

/// How far (relative to its terms) a redundant row may miss the accelerations of the
/// independent ones. Redundant rows agree exactly only on the constraints: where a
/// combination `cᵀf = 0` holds for every state, `cᵀ(A q̈ − b) = −ċᵀf`, so a run's
/// drift `f` (1e-10 to 1e-4 with the integrator's tolerances) shows here, while rows
/// that truly conflict miss by the size of their terms.
pub(crate) const CONSISTENCY_TOLERANCE: f64 = 1e-6;

/// Singular values of `Bᵀ` below this fraction of the largest count as zero, where
/// the minimum-norm multipliers are taken.
const REDUNDANCY_TOLERANCE: f64 = 1e-10;

/// The saddle-point system where its matrix is singular because constraints are
/// redundant (two wheels on one axle: four rows of rank three). The accelerations
/// are still unique, the multipliers are not. The accelerations come from an
/// independent subset `S` of the rows (`mechanics::independent_rows`, blind to a
/// row's scale), which must then meet every row, else the constraints are
/// inconsistent and refused naming the rows in conflict. The reaction `B_Sᵀλ_S` is
/// unique; the multipliers returned are the minimum-norm ones that give it,
/// `λ = (Bᵀ)⁺ B_Sᵀλ_S` (Jacobi's pseudo-inverse: the same bits on every target).
fn redundant_saddle_point(
    terms: &Terms,
    reaction: &DMatrix<f64>,
    t: f64,
    what: crate::mechanics::SingularMatrix,
) -> Result<Solution, DynamicsError> {
    let (n, m) = (terms.mass.nrows(), terms.jacobian.nrows());
    let singular = DynamicsError::Singular { what, t, hint: crate::mechanics::SingularHint::MayBeInconsistent };
    let rows = crate::mechanics::independent_rows(&terms.jacobian);
    if rows.len() == m {
        return Err(singular);
    }
    let (a, b) = (terms.jacobian.select_rows(&rows), reaction.select_rows(&rows));
    let r = rows.len();
    let mut saddle = DMatrix::zeros(n + r, n + r);
    saddle.view_mut((0, 0), (n, n)).copy_from(&terms.mass);
    saddle.view_mut((0, n), (n, r)).copy_from(&(-b.transpose()));
    saddle.view_mut((n, 0), (r, n)).copy_from(&a);
    let mut rhs = DVector::zeros(n + r);
    rhs.rows_mut(0, n).copy_from(&terms.forcing);
    rhs.rows_mut(n, r).copy_from(&terms.bias.select_rows(&rows));
    let x = saddle.lu().solve(&rhs).filter(|x| x.iter().all(|v| v.is_finite())).ok_or(singular.clone())?;
    let (qdd, lambda_kept) = (x.rows(0, n).into_owned(), x.rows(n, r).into_owned());
    every_row_met(&terms.jacobian, &terms.bias, &rows, &qdd, t)?;
    let force = b.transpose() * lambda_kept;
    let pinv = crate::math::jacobi::pseudo_inverse(&reaction.transpose(), REDUNDANCY_TOLERANCE).ok_or(singular)?;
    Ok(Solution { accelerations: qdd, multipliers: Some(pinv * force), multiplier_rates: None })
}

/// Whether the accelerations `qdd` of the independent rows `kept` meet every row of
/// `A q̈ = b` (to [`CONSISTENCY_TOLERANCE`] of each row's terms); else the rows in
/// conflict ([`in_conflict`]).
pub(super) fn every_row_met(
    jacobian: &DMatrix<f64>,
    bias: &DVector<f64>,
    kept: &[usize],
    qdd: &DVector<f64>,
    t: f64,
) -> Result<(), DynamicsError> {
    let unmet: alloc::vec::Vec<usize> = (0..jacobian.nrows())
        .filter(|&j| {
            let size: f64 = jacobian.row(j).iter().zip(qdd.iter()).map(|(a, x)| (a * x).abs()).sum();
            let miss = jacobian.row(j).dot(&qdd.transpose()) - bias[j];
            miss.is_nan() || miss.abs() > CONSISTENCY_TOLERANCE * (1.0 + size + bias[j].abs())
        })
        .collect();
    if unmet.is_empty() {
        Ok(())
    } else {
        Err(DynamicsError::Inconsistent { rows: in_conflict(jacobian, kept, &unmet), t })
    }
}

/// The rows unmet and the independent rows `kept` that each unmet row is a
/// combination of: together, the constraints that ask for different accelerations.
fn in_conflict(jacobian: &DMatrix<f64>, kept: &[usize], unmet: &[usize]) -> alloc::vec::Vec<usize> {
    let mut out: alloc::vec::Vec<usize> = unmet.to_vec();
    if kept.is_empty() {
        return out;
    }
    let basis = jacobian.select_rows(kept).transpose();
    if let Some(pinv) = crate::math::jacobi::pseudo_inverse(&basis, REDUNDANCY_TOLERANCE) {
        for &j in unmet {
            let coefficients = &pinv * jacobian.row(j).transpose();
            let largest = coefficients.amax();
            out.extend(
                kept.iter().zip(coefficients.iter()).filter(|(_, c)| c.abs() > 1e-10 * largest).map(|(&k, _)| k),
            );
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}
