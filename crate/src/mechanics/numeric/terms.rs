//! What the compiled model gives at a state: the terms of the equations, the
//! Hamel split's and the vakonomic equations', and why they could not be given.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use nalgebra::{DMatrix, DVector};

/// Why the dynamics could not be evaluated at a state.
#[derive(Clone, Debug, PartialEq)]
pub enum DynamicsError {
    /// A value came out NaN or infinite.
    NonFinite {
        /// Which quantity (a phrase of [`crate::message::run`]).
        what: crate::message::Message,
        /// When.
        t: f64,
    },
    /// A matrix that must be invertible is not.
    Singular {
        /// Which matrix.
        what: SingularMatrix,
        /// When.
        t: f64,
        /// What may cause it.
        hint: SingularHint,
    },
    /// Redundant constraints that cannot all be met: no accelerations satisfy them.
    Inconsistent {
        /// The rows (0-based constraint indices) left unmet by the nearest solution.
        rows: Vec<usize>,
        /// When.
        t: f64,
    },
    /// The mass matrix is not positive definite.
    NotPositiveDefinite {
        /// When.
        t: f64,
    },
    /// The method cannot be used for this model (why: a message).
    Unsupported(crate::message::Message),
    /// A step of an implicit integrator did not converge: it is rejected.
    NotConverged {
        /// Where the step started.
        t: f64,
        /// Its size.
        h: f64,
        /// The iterations it took.
        iterations: usize,
    },
    /// A contact lifted off or slipped, and the scenario asked the run to stop
    /// there (`[run] on_invalid = "stop"`): an end by design.
    ContactInvalid {
        /// What happened where, in words.
        message: crate::message::Message,
        /// When.
        t: f64,
    },
}

crate::message::words_are_the_message!(DynamicsError);

impl DynamicsError {
    /// Why, as a message with an id ([`crate::message::run`]); its English is what
    /// `Display` writes.
    pub fn message(&self) -> crate::message::Message {
        use crate::message::{run, Hint, Part};
        let at = |t: &f64| crate::math::Short(*t);
        match self {
            DynamicsError::NonFinite { what, t } => run::not_finite(Part(what.clone()), at(t)),
            DynamicsError::Singular { what, t, hint } => {
                run::singular(Part(what.message()), at(t), Hint(hint.message()))
            }
            DynamicsError::Inconsistent { rows, t } => run::inconsistent(constraint_numbers(rows), at(t)),
            DynamicsError::NotPositiveDefinite { t } => run::not_positive_definite(at(t)),
            DynamicsError::Unsupported(why) => why.clone(),
            DynamicsError::NotConverged { t, h, iterations } => run::not_converged(at(t), at(h), iterations),
            DynamicsError::ContactInvalid { message, .. } => message.clone(),
        }
    }
}

/// A matrix that must be invertible and was not ([`DynamicsError::Singular`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SingularMatrix {
    /// A matrix named by its symbol (`A`, `A₁`, `Ψ`, `A M⁻¹ Aᵀ`): said as written.
    Symbol(&'static str),
    /// The mass matrix.
    Mass,
    /// `A₁` of Hamel's split.
    HamelSplit,
    /// The constraint matrix of Voronets' equations, singular because the
    /// constraints are redundant.
    RedundantA,
    /// The Newton matrix of a structure-preserving step.
    Newton,
    /// `[[M, −Aᵀ], [A, 0]]` of Lagrange's equations.
    LagrangeSaddle,
    /// `[[M, −Rᵀ], [A, 0]]` of the Euler-condition equations.
    EulerSaddle,
    /// `[[M_v, C], [A, 0]]` of the vakonomic equations.
    VakonomicSaddle,
}

impl SingularMatrix {
    /// Its name, as a phrase.
    pub fn message(self) -> crate::message::Message {
        use crate::message::{phrase, run};
        match self {
            SingularMatrix::Symbol(symbol) => phrase::verbatim(symbol),
            SingularMatrix::Mass => run::mass_matrix(),
            SingularMatrix::HamelSplit => run::hamel_split(),
            SingularMatrix::RedundantA => run::redundant_a(),
            SingularMatrix::Newton => run::newton_matrix(),
            SingularMatrix::LagrangeSaddle => run::lagrange_matrix(),
            SingularMatrix::EulerSaddle => run::euler_matrix(),
            SingularMatrix::VakonomicSaddle => run::vakonomic_matrix(),
        }
    }
}

/// What may have made a matrix singular ([`DynamicsError::Singular`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SingularHint {
    /// Nothing to add.
    None,
    /// The constraints may be inconsistent.
    MayBeInconsistent,
    /// The constraints are inconsistent.
    Inconsistent,
    /// Hamel's E-vector is not defined for the split at this state.
    NoEVector,
    /// The dependent coordinates cannot be solved for: another split is needed.
    ChooseDependent,
    /// Redundant constraints, or a step too large.
    RedundantOrLargeStep,
    /// Redundant constraints.
    RedundantHere,
}

impl SingularHint {
    /// The hint as a phrase starting "; ", if there is one.
    pub fn message(self) -> Option<crate::message::Message> {
        use crate::message::run;
        Some(match self {
            SingularHint::None => return None,
            SingularHint::MayBeInconsistent => run::may_be_inconsistent(),
            SingularHint::Inconsistent => run::are_inconsistent(),
            SingularHint::NoEVector => run::no_e_vector(),
            SingularHint::ChooseDependent => run::choose_dependent(),
            SingularHint::RedundantOrLargeStep => run::redundant_or_large_step(),
            SingularHint::RedundantHere => run::redundant_here(),
        })
    }
}

/// `#1, #3`: constraints by their place in the model (1-based).
fn constraint_numbers(rows: &[usize]) -> String {
    rows.iter().map(|j| format!("#{}", j + 1)).collect::<Vec<_>>().join(", ")
}

/// Numeric values of the model's terms at one state.
#[derive(Clone, Debug)]
pub struct Terms {
    /// `M` (n×n).
    pub mass: DMatrix<f64>,
    /// `F` (n).
    pub forcing: DVector<f64>,
    /// `A = ∂f/∂v` (m×n).
    pub jacobian: DMatrix<f64>,
    /// `b` (m).
    pub bias: DVector<f64>,
    /// `f` (m): velocity-level residuals.
    pub residuals: DVector<f64>,
    /// `φ` (m): position-level residuals of holonomic constraints, 0 for others.
    pub position_residuals: DVector<f64>,
    /// `T + V`.
    pub energy: f64,
    /// Which constraints are holonomic (their residual as written is `φ`).
    pub holonomic: Vec<bool>,
}

impl Terms {
    /// The residual of constraint `j` as written in the scenario: `φ(q, t)` for a
    /// holonomic constraint, `f(q, v, t)` for the others.
    pub fn constraint_residual(&self, j: usize) -> f64 {
        as_written(self.holonomic[j], self.residuals[j], self.position_residuals[j])
    }

    /// Every constraint's residual as written, in scenario order.
    pub fn constraint_residuals(&self) -> Vec<f64> {
        (0..self.residuals.len()).map(|j| self.constraint_residual(j)).collect()
    }
}

/// A constraint's residual as the scenario writes it: `φ` for a holonomic
/// constraint, its velocity-level `f` for the others.
pub(crate) fn as_written(holonomic: bool, velocity: f64, position: f64) -> f64 {
    if holonomic {
        position
    } else {
        velocity
    }
}

/// Numeric values of a Hamel split's terms at one state (evaluated on the
/// constraint: the state's dependent velocities are not used).
#[derive(Clone, Debug)]
pub struct HamelTerms {
    /// Whether the split is built on `A₁ᵀA` (`HamelSplit::combined`).
    pub combined: bool,
    /// Dependent coordinates' indices.
    pub dependent: Vec<usize>,
    /// Independent coordinates' indices.
    pub independent: Vec<usize>,
    /// `det A₁`.
    pub determinant: f64,
    /// `Ψ` (k×k).
    pub psi: DMatrix<f64>,
    /// `G` (k).
    pub g: DVector<f64>,
    /// `H` (k).
    pub h: DVector<f64>,
    /// `E = G − H` (k).
    pub e: DVector<f64>,
    /// Whether `A₁` is far enough from singular here for these terms to mean
    /// anything (`formulations::hamel::split_margin` above its tolerance).
    pub split_regular: bool,
}

/// Numeric values of the vakonomic equations at `(t, q, v, μ)`.
#[derive(Clone, Debug)]
pub struct VakonomicTerms {
    /// `M_v` (n×n).
    pub mass: DMatrix<f64>,
    /// `C = ∂R/∂μ̇` (n×m).
    pub rates: DMatrix<f64>,
    /// `F_v` (n).
    pub forcing: DVector<f64>,
}

/// Fills a matrix from row-major values (nalgebra stores columns).
pub(crate) fn fill_row_major(matrix: &mut DMatrix<f64>, row_major: &[f64]) {
    let cols = matrix.ncols();
    for (r, row) in row_major.chunks_exact(cols.max(1)).enumerate() {
        for (c, &x) in row.iter().enumerate() {
            matrix[(r, c)] = x;
        }
    }
}
