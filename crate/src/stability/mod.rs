//! Linear stability about an equilibrium or a steady motion, from exact
//! derivatives (`derivatives.rs`) of Lagrange's equations with multipliers.
//!
//! 1. `q̈ = a(q, v)` solves `[[M, −Aᵀ], [A, 0]] [q̈; λ] = [F; b]`; its derivative by
//!    each `x ∈ {q_i, v_i}` solves the same matrix with
//!    `[∂F − ∂M q̈ + ∂Aᵀ λ; ∂b − ∂A q̈]`, so the Jacobian of the first-order system
//!    `J = [[0, I], [∂a/∂q, ∂a/∂v]]` is exact.
//! 2. The motion stays on the constraints, so `J` maps their tangent space into
//!    itself: holonomic `Φ_q δq = 0` and, for every constraint, `∂f/∂q δq + A δv = 0`.
//!    The tangent space is parametrised by the independent coordinates and speeds
//!    (dependent ones chosen by column pivoting, or given), and `J` restricted to it.
//! 3. Ignorable coordinates (position, heading, wheel angles) have zero columns: they
//!    are removed with their rows. An independent speed of an ignorable coordinate
//!    whose row is zero (the bicycle's forward speed, conserved to first order) is
//!    held at its reference value and removed too. What is left has the eigenvalues
//!    of the physical motion, not zeros of bookkeeping.
//!
//! The ideal formulations (`udwadia-kalaba`, `gauss`, `euler` on linear constraints)
//! give the same equations, so the same linearisation. Hamel's embedding
//! (`Ψ q̈₂ = G`, the dependent accelerations from the constraints) is linearised the
//! same way from the derivatives of its own `Ψ` and `G`: where its E-vector's
//! derivatives do not vanish, its eigenvalues are not the true motion's.

mod axis;
mod derivatives;
mod first_order;
mod map;
mod study;
mod sweep;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use nalgebra::{Complex, DMatrix, DVector};

pub use axis::{derived_axis, Axis};
pub use derivatives::{Derivatives, TermDerivatives};
use first_order::Compiled;
pub use map::{
    Grid, MapAxis, MapBoundary, MapPoint, StabilityMap, MAX_AXES, MAX_POINTS, MAX_REFINED_BOUNDARIES,
    MIN_REFINED_PER_ROW,
};
pub use study::{Study, StudyError, Swept, MAX_DERIVATIVES};
pub use sweep::{
    growth, is_neutral, is_stable, refine, sweep, Boundary, Sweep, BOUNDARY_TOLERANCE, MAX_REFINED, NEUTRAL,
};

use crate::formulations::Method;
use crate::mechanics::{Model, NumericModel};
use crate::message::{Message, Part};

/// What to linearise about, and how to reduce.
#[derive(Clone, Debug, Default)]
pub struct Reference {
    /// The time of the state.
    pub t: f64,
    /// Its coordinates (on the constraints).
    pub q: Vec<f64>,
    /// Its velocities (on the constraints).
    pub v: Vec<f64>,
    /// Coordinates that appear in no equation (indices).
    pub ignorable: Vec<usize>,
    /// If given, only these ignorable coordinates' speeds may be held (a sweep
    /// holds the same speeds at every value, so that its rows share one state).
    pub hold: Option<Vec<usize>>,
    /// If given, the coordinates whose speeds (and, for holonomic constraints,
    /// positions) are solved from the constraints: one per constraint. Else they are
    /// chosen by pivoting.
    pub dependent: Option<Vec<usize>>,
}

/// A linearisation: the reduced state, its matrix and eigenvalues.
#[derive(Clone, Debug)]
pub struct Linearization {
    /// The reduced state's components, e.g. `phi`, `delta`, `phi'`, `delta'`.
    pub state: Vec<String>,
    /// `δẋ = J δx + B δu` on the reduced state: `J`, the state-space `A`.
    pub matrix: DMatrix<f64>,
    /// `B = ∂ẋ/∂u` on the reduced state, a column per input (none without `[inputs]`
    /// taken as arguments: `Needs::held_inputs`).
    pub input_matrix: DMatrix<f64>,
    /// The inputs, in `B`'s column order.
    pub inputs: Vec<String>,
    /// The eigenvalues of `matrix`, by real part (then imaginary part).
    pub eigenvalues: Vec<Complex<f64>>,
    /// The coordinates solved from the holonomic constraints (names).
    pub dependent_coordinates: Vec<String>,
    /// The speeds solved from the constraints (names with `'`).
    pub dependent_speeds: Vec<String>,
    /// Independent speeds of ignorable coordinates held at their reference values.
    pub held_speeds: Vec<String>,
    /// Inputs that drive a held speed, with that speed: that part of their effect
    /// is not in `B` (which has no row for the speed). Keep the speed in the state
    /// (`Reference::hold` without it) to see it.
    pub inputs_on_held_speeds: Vec<(String, String)>,
    /// How far the reference is from a steady motion: the largest `|q̈|` of the
    /// coordinates that are not ignorable (0 for a steady motion).
    pub residual: f64,
}

/// Why a linearisation could not be made.
#[derive(Clone, Debug, PartialEq)]
pub enum StabilityError {
    /// The equations of motion fail at the reference state (why: a message).
    Dynamics(Message),
    /// A derivative is NaN or infinite there.
    NonFinite,
    /// A coordinate declared ignorable appears in the linear equations.
    NotIgnorable(String, f64),
    /// A coordinate declared ignorable is in a holonomic constraint.
    Constrained(String),
    /// The dependent coordinates given cannot be solved for (why: a phrase).
    Dependent(Message),
    /// A matrix that must be invertible is not (which: a phrase).
    Singular(Message),
    /// The QR iteration for the eigenvalues did not converge within its bound.
    Eigenvalues(usize),
}

impl StabilityError {
    /// Why, as a message with an id ([`crate::message::stability`]); its English is
    /// what `Display` writes.
    pub fn message(&self) -> Message {
        use crate::message::stability as say;
        match self {
            StabilityError::Dynamics(why) => why.clone(),
            StabilityError::NonFinite => say::derivatives_not_finite(),
            StabilityError::NotIgnorable(name, largest) => say::not_ignorable(name, format!("{largest:e}")),
            StabilityError::Constrained(name) => say::constrained(name),
            StabilityError::Dependent(why) => say::dependent(Part(why.clone())),
            StabilityError::Singular(what) => say::singular(Part(what.clone())),
            StabilityError::Eigenvalues(n) => say::eigenvalues(n),
        }
    }
}

crate::message::words_are_the_message!(StabilityError);

/// Relative size below which a column or row counts as zero.
const ZERO: f64 = 1e-9;

/// Linearises `model` (compiled as `numeric`, its derivatives as `derivatives`)
/// about `reference`, under `method`: Hamel's embedding (its derivatives from
/// [`Derivatives::with_hamel`]) or Lagrange's equations (which the ideal
/// formulations equal).
pub fn linearize(
    method: Method,
    model: &Model,
    numeric: &mut NumericModel,
    derivatives: &mut Derivatives,
    reference: &Reference,
) -> Result<Linearization, StabilityError> {
    let n = model.coordinate_count();
    let names = model.coordinate_names();
    let (t, q, v) = (reference.t, &reference.q[..n], &reference.v[..n]);
    let (terms, qdd, d, with_inputs) =
        Compiled { numeric, derivatives: &mut *derivatives }.first_order(method, t, q, v)?;
    let full = with_inputs.columns(0, 2 * n).into_owned();
    let by_inputs = with_inputs.columns(2 * n, with_inputs.ncols() - 2 * n).into_owned();
    // Redundant constraints: the tangent space is that of an independent subset.
    let kept = crate::mechanics::independent_rows(&terms.jacobian);
    let m = kept.len();

    // 1. (`Compiled::first_order`) J = ∂(v, q̈)/∂(q, v). 2. The tangent space of the
    // constraints, by independent components.
    let holonomic: Vec<usize> = kept.iter().copied().filter(|&j| terms.holonomic[j]).collect();
    let positions = DMatrix::from_fn(holonomic.len(), n, |r, c| terms.jacobian[(holonomic[r], c)]);
    for &i in &reference.ignorable {
        if positions.column(i).amax() > ZERO * (1.0 + positions.amax()) {
            return Err(StabilityError::Constrained(names[i].clone()));
        }
    }
    let allowed = reference.dependent.as_deref();
    if let Some(chosen) = allowed {
        if chosen.len() != m {
            return Err(StabilityError::Dependent(crate::message::stability::dependent_count(chosen.len(), m)));
        }
    }
    let dependent_q = pivot_columns(&positions, &reference.ignorable, false, &[], allowed)?;
    // Holonomic rows first, their dependent speed that of their dependent coordinate.
    let order: Vec<usize> =
        holonomic.iter().copied().chain(kept.iter().copied().filter(|&j| !terms.holonomic[j])).collect();
    let speeds = DMatrix::from_fn(m, n, |r, c| terms.jacobian[(order[r], c)]);
    let dependent_v = pivot_columns(&speeds, &reference.ignorable, true, &dependent_q, allowed)?;
    let residual_by_q = DMatrix::from_fn(m, n, |r, c| d[c].residuals[order[r]]);
    derivatives.give_back(d);
    let basis = tangent_basis(&positions, &dependent_q, &speeds, &residual_by_q, &dependent_v)?;
    let independent: Vec<usize> = (0..2 * n)
        .filter(|&k| if k < n { !dependent_q.contains(&k) } else { !dependent_v.contains(&(k - n)) })
        .collect();
    // `J` projected on the tangent space, in the independent rows only.
    let mut reduced = DMatrix::from_fn(independent.len(), independent.len(), |r, c| {
        (0..full.ncols()).map(|k| full[(independent[r], k)] * basis[(k, c)]).sum::<f64>()
    });
    // B: the inputs change no position or speed directly, only accelerations, so
    // their columns restrict to the independent rows as J's do.
    let mut input_matrix =
        DMatrix::from_fn(independent.len(), by_inputs.ncols(), |r, c| by_inputs[(independent[r], c)]);
    let mut state: Vec<String> =
        independent.iter().map(|&k| if k < n { names[k].clone() } else { format!("{}'", names[k - n]) }).collect();

    // 3. Ignorable positions (zero columns) and held speeds (zero rows) removed.
    // With them first, J = [[J_ii, J_ir], [0, J_rr]]: the rest must not depend on
    // them (J_ri = 0), and their own block is nilpotent (their rates are speeds).
    let scale = 1.0 + reduced.amax();
    let mut remove: Vec<usize> =
        reference.ignorable.iter().filter_map(|&i| independent.iter().position(|&k| k == i)).collect();
    for &r in &remove {
        let column = (0..reduced.nrows()).filter(|x| !remove.contains(x)).map(|x| reduced[(x, r)].abs());
        let largest = column.fold(0.0, f64::max);
        if largest > ZERO * scale {
            return Err(StabilityError::NotIgnorable(state[r].clone(), largest));
        }
    }
    let mut held_speeds = Vec::new();
    let mut inputs_on_held_speeds = Vec::new();
    let input_scale = 1.0 + input_matrix.amax();
    for &i in &reference.ignorable {
        if reference.hold.as_ref().is_some_and(|hold| !hold.contains(&i)) {
            continue;
        }
        if let Some(r) = independent.iter().position(|&k| k == n + i) {
            let others = (0..reduced.ncols()).filter(|c| !remove.contains(c) && *c != r);
            if others.map(|c| reduced[(r, c)].abs()).fold(0.0, f64::max) <= ZERO * scale {
                remove.push(r);
                let speed = format!("{}'", names[i]);
                for (c, &k) in model.inputs.iter().enumerate() {
                    if input_matrix[(r, c)].abs() > ZERO * input_scale {
                        inputs_on_held_speeds.push((model.parameters[k].name.clone(), speed.clone()));
                    }
                }
                held_speeds.push(speed);
            }
        }
    }
    remove.sort_unstable();
    for &r in remove.iter().rev() {
        reduced = reduced.remove_row(r).remove_column(r);
        input_matrix = input_matrix.remove_row(r);
        state.remove(r);
    }
    if reduced.iter().chain(input_matrix.iter()).any(|x| !x.is_finite()) {
        return Err(StabilityError::NonFinite);
    }
    let mut eigenvalues =
        crate::math::eigenvalues(&reduced).map_err(|_| StabilityError::Eigenvalues(reduced.nrows()))?;
    eigenvalues.sort_by(|a, b| a.re.total_cmp(&b.re).then(a.im.total_cmp(&b.im)));
    let residual = (0..n).filter(|i| !reference.ignorable.contains(i)).map(|i| qdd[i].abs()).fold(0.0, f64::max);
    Ok(Linearization {
        state,
        matrix: reduced,
        input_matrix,
        inputs: model.inputs.iter().map(|&k| model.parameters[k].name.clone()).collect(),
        eigenvalues,
        dependent_coordinates: dependent_q.iter().map(|&i| names[i].clone()).collect(),
        dependent_speeds: dependent_v.iter().map(|&i| format!("{}'", names[i])).collect(),
        held_speeds,
        inputs_on_held_speeds,
        residual,
    })
}

/// One mode of a linearisation: a real eigenvalue, or a complex-conjugate pair.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Mode {
    /// `e^{λt}`: growing for `rate > 0`, decaying for `rate < 0`.
    Real {
        /// λ.
        rate: f64,
    },
    /// `e^{σt} cos(ωt)` from the pair `σ ± iω`.
    Oscillatory {
        /// σ, the real part.
        rate: f64,
        /// ω > 0 (rad per unit time).
        frequency: f64,
        /// The damping ratio `−σ/|λ|`: 1 critically damped, 0 undamped, negative growing.
        damping: f64,
    },
}

/// The eigenvalues grouped into modes: each real eigenvalue (|Im| below 1e-9 of the
/// largest eigenvalue) alone, each pair `σ ± iω` once (by its positive ω), in the
/// eigenvalues' order.
pub fn modes(lin: &Linearization) -> Vec<Mode> {
    let scale = lin.eigenvalues.iter().map(|e| modulus(*e)).fold(1.0, f64::max);
    lin.eigenvalues
        .iter()
        .filter_map(|e| {
            if e.im.abs() <= 1e-9 * scale {
                Some(Mode::Real { rate: e.re })
            } else if e.im > 0.0 {
                Some(Mode::Oscillatory { rate: e.re, frequency: e.im, damping: -e.re / modulus(*e) })
            } else {
                None
            }
        })
        .collect()
}

/// `|z|` without `std` (nalgebra's `norm` needs it).
pub(crate) fn modulus(z: Complex<f64>) -> f64 {
    libm::hypot(z.re, z.im)
}

/// The eigenvector of `lin.matrix` for each of its eigenvalues (in their order),
/// scaled so that its largest component is 1: the right singular vector of
/// `J − λI` for its smallest singular value (exact for a simple eigenvalue; one
/// vector of the eigenspace for a repeated one).
pub fn eigenvectors(lin: &Linearization) -> Vec<Vec<Complex<f64>>> {
    let k = lin.matrix.nrows();
    lin.eigenvalues
        .iter()
        .map(|&lambda| {
            let shifted = DMatrix::from_fn(k, k, |r, c| {
                Complex::new(lin.matrix[(r, c)], 0.0) - if r == c { lambda } else { Complex::new(0.0, 0.0) }
            });
            let svd = shifted.svd(false, true);
            let Some(v_t) = svd.v_t else { return alloc::vec![Complex::new(f64::NAN, 0.0); k] };
            let smallest = (0..k).min_by(|&a, &b| svd.singular_values[a].total_cmp(&svd.singular_values[b]));
            let Some(row) = smallest else { return Vec::new() };
            let vector: Vec<Complex<f64>> = (0..k).map(|c| v_t[(row, c)].conj()).collect();
            let largest = vector
                .iter()
                .copied()
                .max_by(|a, b| modulus(*a).total_cmp(&modulus(*b)))
                .unwrap_or(Complex::new(1.0, 0.0));
            vector.iter().map(|x| x / largest).collect()
        })
        .collect()
}

/// The exact Jacobian `∂(v, q̈)/∂(q, v)` (2n×2n) of `method`'s equations at
/// `(t, q, v)`, the first-order system's linear part before any reduction: Hamel's
/// embedding (derivatives from [`Derivatives::with_hamel`]) or Lagrange's equations
/// (which the ideal formulations equal).
pub fn jacobian(
    method: Method,
    numeric: &mut NumericModel,
    derivatives: &mut Derivatives,
    t: f64,
    q: &[f64],
    v: &[f64],
) -> Result<DMatrix<f64>, StabilityError> {
    let with_inputs = Compiled { numeric, derivatives }.first_order(method, t, q, v)?.3;
    Ok(with_inputs.columns(0, 2 * q.len()).into_owned())
}

/// One dependent column per row of `rows` by Gaussian elimination with column
/// pivoting: among the `ignorable` columns first when `prefer` (the speeds of the
/// position, heading and wheels are what the rolling fixes), else among the others
/// first, and only among `allowed` when the user chose; a pivot below 1e-9 of the
/// row's size means the rows are dependent.
fn pivot_columns(
    rows: &DMatrix<f64>,
    ignorable: &[usize],
    prefer: bool,
    preset: &[usize],
    allowed: Option<&[usize]>,
) -> Result<Vec<usize>, StabilityError> {
    let mut a = rows.clone();
    let mut chosen: Vec<usize> = Vec::new();
    for r in 0..a.nrows() {
        let size = a.row(r).amax();
        if let Some(&column) = preset.get(r) {
            if a[(r, column)].abs() <= 1e-9 * (1.0 + size) {
                return Err(StabilityError::Singular(crate::message::stability::holonomic_speed()));
            }
            eliminate(&mut a, r, column);
            chosen.push(column);
            continue;
        }
        let pick = |wanted: bool, chosen: &[usize]| {
            (0..a.ncols())
                .filter(|c| !chosen.contains(c) && ignorable.contains(c) == wanted)
                .filter(|c| allowed.is_none_or(|set| set.contains(c)))
                .max_by(|&x, &y| a[(r, x)].abs().total_cmp(&a[(r, y)].abs()))
                .filter(|&c| a[(r, c)].abs() > 1e-6 * size)
        };
        let column = pick(prefer, &chosen)
            .or_else(|| pick(!prefer, &chosen))
            .filter(|&c| a[(r, c)].abs() > 1e-9 * (1.0 + size))
            .ok_or(if allowed.is_some() {
                StabilityError::Dependent(crate::message::stability::dependent_unsolvable())
            } else {
                StabilityError::Singular(crate::message::stability::redundant())
            })?;
        eliminate(&mut a, r, column);
        chosen.push(column);
    }
    Ok(chosen)
}

/// Clears `column` below row `r`.
fn eliminate(a: &mut DMatrix<f64>, r: usize, column: usize) {
    for below in r + 1..a.nrows() {
        let factor = a[(below, column)] / a[(r, column)];
        for c in 0..a.ncols() {
            a[(below, c)] -= factor * a[(r, c)];
        }
    }
}

/// Columns: the tangent vectors `(δq, δv)` that set one independent component to
/// 1 and the rest to 0, the dependent ones solved from `Φ_q δq = 0` and
/// `∂f/∂q δq + A δv = 0`.
fn tangent_basis(
    positions: &DMatrix<f64>,
    dependent_q: &[usize],
    speeds: &DMatrix<f64>,
    residual_by_q: &DMatrix<f64>,
    dependent_v: &[usize],
) -> Result<DMatrix<f64>, StabilityError> {
    let n = speeds.ncols();
    // Each square block is factored once, for every column of the basis.
    let factored = |rows: &DMatrix<f64>, dependent: &[usize]| {
        DMatrix::from_fn(dependent.len(), dependent.len(), |r, c| rows[(r, dependent[c])]).lu()
    };
    let (by_positions, by_speeds) = (factored(positions, dependent_q), factored(speeds, dependent_v));
    let solve_for = |lu: &nalgebra::LU<f64, nalgebra::Dyn, nalgebra::Dyn>, rhs: DVector<f64>| {
        lu.solve(&rhs).ok_or(StabilityError::Singular(crate::message::stability::dependent_columns()))
    };
    let independent: Vec<usize> = (0..2 * n)
        .filter(|&k| if k < n { !dependent_q.contains(&k) } else { !dependent_v.contains(&(k - n)) })
        .collect();
    let mut basis = DMatrix::zeros(2 * n, independent.len());
    for (col, &k) in independent.iter().enumerate() {
        let mut x = DVector::zeros(2 * n);
        x[k] = 1.0;
        if k < n && !dependent_q.is_empty() {
            let dq = solve_for(&by_positions, -positions.column(k))?;
            for (j, &i) in dependent_q.iter().enumerate() {
                x[i] = dq[j];
            }
        }
        if !dependent_v.is_empty() {
            let dq = x.rows(0, n).into_owned();
            let mut rhs = -(residual_by_q * dq);
            if k >= n {
                rhs -= speeds.column(k - n);
            }
            let dv = solve_for(&by_speeds, rhs)?;
            for (j, &i) in dependent_v.iter().enumerate() {
                x[n + i] = dv[j];
            }
        }
        basis.set_column(col, &x);
    }
    Ok(basis)
}
