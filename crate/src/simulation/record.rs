//! What each sample records: the state, and measured beside it the energy, the
//! residuals, the compulsion, Hamel's E-vector and the contact forces.

use super::*;

/// One recorded point of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Time.
    pub t: f64,
    /// Coordinates.
    pub q: Vec<f64>,
    /// Velocities.
    pub v: Vec<f64>,
    /// `T + V`.
    pub energy: f64,
    /// `μ` (vakonomic only; empty otherwise).
    pub mu: Vec<f64>,
    /// Every constraint's residual as written: `φ(q, t)` for a holonomic one,
    /// `f(q, v, t)` for the others.
    pub residuals: Vec<f64>,
    /// Every constraint's velocity-level residual `f` (`φ_q v + φ_t` for a
    /// holonomic one; the same as [`Sample::residuals`] for the others).
    pub velocity_residuals: Vec<f64>,
    /// Gauss's compulsion of the method's accelerations (NaN unless
    /// [`Settings::compulsion`] asked for it).
    pub compulsion: f64,
    /// Hamel's E-vector at this state (one per independent coordinate of the
    /// model's split); `None` without a split or where it is singular.
    pub e_vector: Option<Vec<f64>>,
    /// Each contact's [`crate::mechanics::ContactForce::columns`] in turn (empty
    /// without contacts or when not asked for; NaN where not determined).
    pub contact_forces: Vec<f64>,
}

/// Solver and scratch for the samples' compulsion, reused from sample to sample.
#[derive(Default)]
pub(super) struct CompulsionWork {
    solver: formulations::RangeSpace,
    scratch: Vec<f64>,
}

/// Records the sample at `(t, y)`, within the sample limit, measured straight into
/// its row of `samples`; nothing is allocated but the samples' own growth. (A free
/// function over the simulation's fields, so that a sample at the current state
/// borrows it in place.)
pub(super) fn record(
    samples: &mut Samples,
    numeric: &mut NumericModel,
    settings: &Settings,
    compulsion: &mut CompulsionWork,
    t: f64,
    y: &[f64],
    known: Option<&[f64]>,
) -> Result<(), SimulationError> {
    let limit = settings.limits.max_samples;
    if samples.recorded() >= limit {
        return Err(IntegrationError::Limit { t, what: "samples", limit: limit as u64 });
    }
    if settings.diagnostics == Diagnostics::NONE && !settings.compulsion {
        samples.push_state(t, y);
        return Ok(());
    }
    samples
        .push_with(t, y, |row| measure(numeric, settings, compulsion, t, y, known, row))
        .map_err(IntegrationError::System)
}

/// Measures the sample at `(t, y)` besides its state: the scalars, and the
/// residuals and E-vector into `row`. `known` is the derivative of `y` there when
/// the integrator has it already (its last stage), which saves the compulsion a
/// solve.
pub(super) fn measure(
    numeric: &mut NumericModel,
    settings: &Settings,
    work: &mut CompulsionWork,
    t: f64,
    y: &[f64],
    known: Option<&[f64]>,
    mut row: Measures<'_>,
) -> Result<Scalars, DynamicsError> {
    let n = numeric.n();
    let (q, v, mu) = (&y[..n], &y[n..2 * n], &y[2 * n..]);
    let wanted = settings.diagnostics;
    let (mut energy, mut compulsion) = (f64::NAN, f64::NAN);
    if settings.compulsion {
        // Only the compulsion needs the accelerations: solved here when the
        // integrator has not given them.
        let solved = match known {
            None => formulations::accelerations_with_multipliers(settings.method, numeric, t, q, v, mu)?.accelerations,
            Some(_) => DVector::zeros(0),
        };
        let terms = numeric.evaluate(t, q, v)?;
        let accelerations = known.map_or(solved.as_slice(), |dy| &dy[n..2 * n]);
        compulsion = formulations::compulsion_with(terms, accelerations, t, &mut work.solver, &mut work.scratch)?;
    }
    let mut e_defined = false;
    let with_residuals = row.residuals > 0;
    let (columns, contact_columns) = row.without_contacts();
    // First: the diagnostics below read where the last right-hand side left the
    // machine code (its tail), which finding the accelerations here would move.
    if !contact_columns.is_empty() && validity::forces_at(numeric, settings.method, t, y, known)? {
        if let Some(contacts) = &numeric.contacts {
            for (out, force) in contact_columns.chunks_mut(crate::mechanics::CONTACT_COLUMNS).zip(contacts.forces()) {
                out.copy_from_slice(&force.columns());
            }
        }
    }
    if wanted.energy || wanted.residuals || wanted.e_vector {
        // One pass of the program gives them all (the E-vector's terms follow
        // them); the columns not recorded are left out.
        let (value, defined) = sample_block::diagnostics(numeric, t, q, v, columns, with_residuals)?;
        e_defined = defined;
        if wanted.energy {
            energy = value;
        }
    }
    Ok(Scalars { energy, compulsion, e_defined })
}
