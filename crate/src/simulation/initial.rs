//! The initial state: given velocities checked against the constraints, omitted
//! ones solved from them.
//!
//! Omitted velocities take the minimum-norm values that satisfy the constraints
//! (Gauss–Newton from zero on `f(q, v, t) = 0`; one step for linear constraints):
//! where the constraints leave a velocity free it stays 0. That is how the spec's
//! own example reads — the knife edge omits `x'` and `y'` against one constraint and
//! means "at rest". It is an error only when the constraints cannot be satisfied,
//! and never silent: the velocities that the constraints did not fix are named in a
//! warning with the values taken ([`initial_state_with_warnings`]).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use nalgebra::{DMatrix, DVector};

use crate::math::short_number;
use crate::mechanics::{Model, NumericModel};
use crate::message::{phrase, problem, Arg, Message, Part};
use crate::scenario::{Problem, Problems, SourceMap};

/// A state of the system.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// Time.
    pub t: f64,
    /// Coordinates.
    pub q: Vec<f64>,
    /// Velocities.
    pub v: Vec<f64>,
    /// Vakonomic multipliers `μ`, one per constraint (`[vakonomic] mu0`, default 0).
    pub mu: Vec<f64>,
}

/// Relative tolerance for given velocities that must satisfy the constraints.
pub const VELOCITY_TOLERANCE: f64 = 1e-9;

/// The scenario's initial state with every velocity, or the problems (warnings
/// dropped: see [`initial_state_with_warnings`]).
pub fn initial_state(model: &Model, numeric: &mut NumericModel, map: &SourceMap) -> Result<State, Problems> {
    initial_state_with_warnings(model, numeric, map).map(|(state, _)| state)
}

/// The scenario's initial state with every velocity, and a warning (at
/// `initial.v`) naming the omitted velocities that the constraints leave free and
/// the minimum-norm values taken for them; or the problems.
pub fn initial_state_with_warnings(
    model: &Model,
    numeric: &mut NumericModel,
    map: &SourceMap,
) -> Result<(State, Vec<Problem>), Problems> {
    state_with_warnings(model, numeric, map, StateOrigin::Initial)
}

/// Where a state to complete comes from: its messages name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateOrigin {
    /// The scenario's `[initial]` table.
    Initial,
    /// A state given on the command line (`eval --at`), written into the
    /// scenario's `[initial]` table.
    Given,
}

/// The state in the scenario's `[initial]` table completed as
/// [`initial_state_with_warnings`] does, its messages naming `origin`.
pub fn state_with_warnings(
    model: &Model,
    numeric: &mut NumericModel,
    map: &SourceMap,
    origin: StateOrigin,
) -> Result<(State, Vec<Problem>), Problems> {
    let (the_state, velocities) = match origin {
        StateOrigin::Initial => (phrase::the_initial_state(), phrase::the_initial_velocities()),
        StateOrigin::Given => (phrase::the_given_state(), phrase::the_given_velocities()),
    };
    let s = &model.scenario;
    let t = s.initial.t;
    let mut q: Vec<f64> = s.coordinates.iter().map(|c| s.initial.q.get(c).copied().unwrap_or(0.0)).collect();
    let mut v: Vec<f64> = s.coordinates.iter().map(|c| s.initial.v.get(c).copied().unwrap_or(0.0)).collect();
    // Positions first: a velocity can only be judged where the coordinates hold. A
    // state given to evaluate (`eval --at`) may be off them: its residuals are what
    // is asked for, and the miss is a warning.
    let solved_positions = match solve_positions(model, numeric, map, t, &mut q, &v, origin) {
        Err(Problems(misses)) if origin == StateOrigin::Given => misses.into_iter().next(),
        other => other?,
    };
    let unknown: Vec<usize> = (0..v.len()).filter(|&i| !s.initial.v.contains_key(&s.coordinates[i])).collect();
    let problem = |message: String| {
        Problems(alloc::vec![Problem {
            field: "initial.v".into(),
            position: map.value("initial.v"),
            message,
            said: None
        }])
    };
    let said = |message: Message| Problems(alloc::vec![Problem::said("initial.v", map.value("initial.v"), message)]);
    // A value that is not finite is blamed on the scenario field that produced it.
    let failed = |e: crate::mechanics::DynamicsError, v: &[f64]| match &e {
        crate::mechanics::DynamicsError::NonFinite { .. } => {
            match super::blame::non_finite_field(
                model,
                map,
                (t, &q, v),
                &phrase::state_with_values(Part(the_state.clone()), describe_state(&s.coordinates, t, &q)),
            ) {
                Some(p) => Problems(alloc::vec![p]),
                None => said(e.message()),
            }
        }
        _ => said(e.message()),
    };
    let eval = |numeric: &mut NumericModel, v: &[f64]| -> Result<(DVector<f64>, DMatrix<f64>), Problems> {
        let terms = numeric.evaluate(t, &q, v).map_err(|e| failed(e, v))?;
        Ok((terms.residuals.clone(), terms.jacobian.clone()))
    };
    // Completing the state reads the constraints alone; the state it ends at is
    // checked whole (`eval`).
    let step = |numeric: &mut NumericModel, v: &[f64]| -> Result<(DVector<f64>, DMatrix<f64>), Problems> {
        let terms = numeric.constraint_terms(t, &q, v).map_err(|e| failed(e, v))?;
        Ok((terms.residuals.clone(), terms.jacobian.clone()))
    };
    let mut newton_start = None;
    if !unknown.is_empty() && model.constraints.is_empty() {
        for &i in &unknown {
            v[i] = 0.0;
        }
    } else if !unknown.is_empty() {
        // Gauss–Newton from zero: for linear constraints one step gives the
        // minimum-norm solution, so velocities the constraints leave free stay 0.
        let start = v.clone();
        gauss_newton(&mut |v: &[f64]| step(numeric, v), &unknown, &mut v, &problem)?;
        // A nonlinear constraint's Jacobian may vanish at zero (ẋ² + ẏ² = 1 with ẏ
        // omitted): then Newton's method again from 1 for every omitted velocity.
        let (f, a) = step(numeric, &v)?;
        if !model.constraints_are_linear() && !meets_constraints(&f, &a, &v) {
            let mut retry = start;
            for &i in &unknown {
                retry[i] = NEWTON_RESTART;
            }
            gauss_newton(&mut |v: &[f64]| step(numeric, v), &unknown, &mut retry, &problem)?;
            let (f, a) = step(numeric, &retry)?;
            if meets_constraints(&f, &a, &retry) {
                v = retry;
                newton_start = Some(NEWTON_RESTART);
            }
        }
    }
    // Every constraint must now hold: given velocities are checked here too.
    let (f, a) = eval(numeric, &v)?;
    let mut problems = Vec::new();
    for j in 0..f.len() {
        if !meets_constraint(&f, &a, &v, j) {
            let (name, by) = (&model.constraints[j].name, format!("{:.3e}", f[j]));
            let message = if unknown.is_empty() {
                problem::velocities_violate(Part(velocities.clone()), name, by)
            } else {
                problem::velocities_violate_solved(Part(velocities.clone()), name, by)
            };
            problems.push(map.said("initial.v", message));
        }
    }
    if !problems.is_empty() {
        return Err(Problems(problems));
    }
    let free = not_fixed(&a, &unknown);
    let newton = newton_start.map(|start| {
        let values: Vec<String> =
            unknown.iter().map(|&i| format!("{}' = {}", s.coordinates[i], short_number(v[i]))).collect();
        problem::velocities_solved(start, values.join(", "))
    });
    let warnings: Vec<Problem> = solved_positions
        .into_iter()
        .chain(
            free_velocities_warning(&s.coordinates, &free, &v)
                .into_iter()
                .chain(newton)
                .map(|message| map.said("initial.v", message)),
        )
        .collect();
    let terms = numeric.evaluate(t, &q, &v).map_err(|e| failed(e, &v))?;
    if let Some(x) = terms.mass.iter().find(|x| **x != 0.0 && x.abs() < f64::MIN_POSITIVE) {
        // A subnormal mass carries almost no precision: its accelerations overflow
        // and the run would report a non-finite state far from the cause.
        let message = problem::mass_subnormal(format!("{x:e}"), Part(the_state));
        return Err(Problems(alloc::vec![map.said("kinetic", message)]));
    }
    if terms.mass.clone().cholesky().is_none() {
        let message = problem::mass_not_positive(Part(the_state), describe_state(&s.coordinates, t, &q));
        return Err(Problems(alloc::vec![map.said("kinetic", message)]));
    }
    let mu = match &s.vakonomic {
        Some(vk) if vk.mu0.len() == model.constraints.len() => vk.mu0.clone(),
        _ => alloc::vec![0.0; model.constraints.len()],
    };
    Ok((State { t, q, v, mu }, warnings))
}

/// Relative tolerance for initial coordinates that must satisfy the holonomic
/// constraints: `|φ| ≤ tol·(1 + Σ|∂φ/∂qᵢ qᵢ|)`.
pub const POSITION_TOLERANCE: f64 = 1e-9;

/// Checks the coordinates `q` against the holonomic constraints `φ(q, t) = 0`.
/// Where one is violated and coordinates omitted from `initial.q` take part in it,
/// those are solved by Gauss–Newton (from the values they had, 0; the least change
/// where the constraints leave them free) and a warning at `initial.q` names what
/// was solved; otherwise the problem is at `initial.q`, naming the constraint, by how
/// much, and the coordinates it involves.
fn solve_positions(
    model: &Model,
    numeric: &mut NumericModel,
    map: &SourceMap,
    t: f64,
    q: &mut [f64],
    v: &[f64],
    origin: StateOrigin,
) -> Result<Option<Problem>, Problems> {
    let s = &model.scenario;
    let (the_state, coordinates) = match origin {
        StateOrigin::Initial => (phrase::the_initial_state(), phrase::the_initial_coordinates()),
        StateOrigin::Given => (phrase::the_given_state(), phrase::the_given_coordinates()),
    };
    let holonomic: Vec<usize> = (0..model.constraints.len()).filter(|&j| model.constraints[j].is_holonomic()).collect();
    if holonomic.is_empty() {
        return Ok(None);
    }
    let at =
        |message: String| Problem { field: "initial.q".into(), position: map.value("initial.q"), message, said: None };
    // The constraints alone: the completed state is checked whole (`M`, `F`,
    // `T + V` too) after its velocities.
    let mut eval = |q: &[f64]| -> Result<Residuals, Problems> {
        let terms = numeric.constraint_terms(t, q, v).map_err(|e| {
            let said = problem::at_state(Part(the_state.clone()), Part(e.message()));
            Problems(alloc::vec![Problem::said("initial.q", map.value("initial.q"), said)])
        })?;
        let phi = DVector::from_iterator(holonomic.len(), holonomic.iter().map(|&j| terms.position_residuals[j]));
        let rows: Vec<_> = holonomic.iter().map(|&j| terms.jacobian.row(j).into_owned()).collect();
        Ok((phi, DMatrix::from_rows(&rows)))
    };
    let violated = |(phi, a): &Residuals, q: &[f64]| -> Vec<usize> {
        (0..phi.len()).filter(|&k| !within(phi, a, q, k, POSITION_TOLERANCE)).collect()
    };
    let (phi, a) = eval(q)?;
    let bad = violated(&(phi.clone(), a.clone()), q);
    if bad.is_empty() {
        return Ok(None);
    }
    let omitted: Vec<usize> = (0..q.len()).filter(|&i| !s.initial.q.contains_key(&s.coordinates[i])).collect();
    // The coordinates a constraint involves, from its symbolic gradient (a numeric
    // entry may vanish at the state).
    let involved = |k: usize| -> Vec<usize> {
        let row = &model.constraints[holonomic[k]].jacobian;
        (0..row.len()).filter(|&i| !model.graph.is_zero(row[i])).collect()
    };
    let can_solve = bad.iter().all(|&k| involved(k).iter().any(|i| omitted.contains(i)));
    if can_solve {
        let before = q.to_vec();
        let problem = |message: String| Problems(alloc::vec![at(message)]);
        gauss_newton(&mut eval, &omitted, q, &problem)?;
        // φ's gradient may vanish at 0 (x² + y² = L² with y omitted): then again
        // from 1 for every omitted coordinate.
        if !violated(&eval(q)?, q).is_empty() {
            q.copy_from_slice(&before);
            for &i in &omitted {
                q[i] = NEWTON_RESTART;
            }
            gauss_newton(&mut eval, &omitted, q, &problem)?;
        }
        let residuals = eval(q)?;
        if violated(&residuals, q).is_empty() {
            let changed: Vec<String> = omitted
                .iter()
                .filter(|&&i| q[i] != before[i])
                .map(|&i| format!("{} = {}", s.coordinates[i], short_number(q[i])))
                .collect();
            let message = problem::coordinates_solved(format!("{POSITION_TOLERANCE:e}"), changed.join(", "));
            return Ok(Some(map.said("initial.q", message)));
        }
        q.copy_from_slice(&before);
    }
    let problems = bad
        .iter()
        .map(|&k| {
            let names: Vec<&str> = involved(k).iter().map(|&i| s.coordinates[i].as_str()).collect();
            let message = problem::coordinates_violate(
                Part(coordinates.clone()),
                &model.constraints[holonomic[k]].name,
                format!("{:.3e}", phi[k]),
                format!("{POSITION_TOLERANCE:e}"),
                names.join(", "),
            );
            map.said("initial.q", message)
        })
        .collect();
    Err(Problems(problems))
}

/// Where Newton's method starts again for omitted velocities when starting from zero
/// does not meet nonlinear constraints.
const NEWTON_RESTART: f64 = 1.0;

/// `f` and `∂f/∂v` at a state.
type Residuals = (DVector<f64>, DMatrix<f64>);

/// Gauss–Newton on `f(v) = 0` over the velocities `unknown` (at most 50 steps; the
/// least-norm step where the Jacobian is rank-deficient).
fn gauss_newton(
    eval: &mut dyn FnMut(&[f64]) -> Result<Residuals, Problems>,
    unknown: &[usize],
    v: &mut [f64],
    problem: &dyn Fn(String) -> Problems,
) -> Result<(), Problems> {
    for _ in 0..50 {
        let (f, a) = eval(v)?;
        if f.norm() <= 1e-14 * (1.0 + DVector::from_column_slice(v).norm()) {
            break;
        }
        let au = DMatrix::from_columns(&unknown.iter().map(|&i| a.column(i).into_owned()).collect::<Vec<_>>());
        let tol = 1e-12 * au.amax().max(f64::MIN_POSITIVE);
        let step = au.svd(true, true).solve(&f, tol).map_err(|e| problem(String::from(e)))?;
        for (k, &i) in unknown.iter().enumerate() {
            v[i] -= step[k];
        }
    }
    Ok(())
}

/// Whether constraint `j` holds at `v` within [`VELOCITY_TOLERANCE`], relative to
/// the size of its terms.
fn meets_constraint(f: &DVector<f64>, a: &DMatrix<f64>, v: &[f64], j: usize) -> bool {
    within(f, a, v, j, VELOCITY_TOLERANCE)
}

/// Whether `|f_j| ≤ tolerance·(1 + Σ|a_ji x_i|)`.
fn within(f: &DVector<f64>, a: &DMatrix<f64>, x: &[f64], j: usize, tolerance: f64) -> bool {
    let scale: f64 = 1.0 + a.row(j).iter().zip(x).map(|(a, x)| (a * x).abs()).sum::<f64>();
    !f[j].is_nan() && f[j].abs() <= tolerance * scale
}

fn meets_constraints(f: &DVector<f64>, a: &DMatrix<f64>, v: &[f64]) -> bool {
    (0..f.len()).all(|j| meets_constraint(f, a, v, j))
}

/// `t = 0, x = 1, y = 0.5`: a state's time and coordinates, for messages.
fn describe_state(coordinates: &[String], t: f64, q: &[f64]) -> String {
    let mut parts = alloc::vec![format!("t = {}", crate::math::Short(t))];
    parts.extend(coordinates.iter().zip(q).map(|(c, x)| format!("{c} = {x}")));
    parts.join(", ")
}

/// The omitted velocities (indices into the coordinates) that the constraints with
/// Jacobian `a` (m×n, at the solution) do not fix: those whose unit direction is
/// not in the row space of `A`'s omitted columns, i.e. whose diagonal entry of the
/// projector `A_u⁺ A_u` is below 1.
fn not_fixed(a: &DMatrix<f64>, unknown: &[usize]) -> Vec<usize> {
    if unknown.is_empty() {
        return Vec::new();
    }
    if a.nrows() == 0 {
        return unknown.to_vec();
    }
    let au = DMatrix::from_columns(&unknown.iter().map(|&i| a.column(i).into_owned()).collect::<Vec<_>>());
    let tol = 1e-10 * au.amax().max(f64::MIN_POSITIVE);
    let svd = au.svd(false, true);
    let Some(vt) = svd.v_t else { return unknown.to_vec() };
    // Rows of Vᵀ with nonzero singular values span the row space: P_ii = Σ_r vt[r,i]².
    let rank_rows: Vec<usize> = (0..svd.singular_values.len()).filter(|&r| svd.singular_values[r] > tol).collect();
    unknown
        .iter()
        .enumerate()
        .filter(|&(k, _)| rank_rows.iter().map(|&r| vt[(r, k)] * vt[(r, k)]).sum::<f64>() < 1.0 - 1e-9)
        .map(|(_, &i)| i)
        .collect()
}

/// The warning for velocities that were not fixed: ``x', y' are not fixed by the
/// constraints; took the minimum-norm values x' = 0, y' = 0 — give them to choose
/// others``; `None` when there are none.
pub fn free_velocities_warning(coordinates: &[String], free: &[usize], v: &[f64]) -> Option<Message> {
    if free.is_empty() {
        return None;
    }
    // A few named, and how many in all: 200 free velocities of a large model made a
    // warning of 200 names and 200 values.
    const LISTED: usize = 6;
    let listed = if free.len() > LISTED + 2 { &free[..LISTED] } else { free };
    let more = |items: Vec<String>| {
        let text = items.join(", ");
        if listed.len() < free.len() {
            Arg::Part(phrase::some_of(text, free.len()))
        } else {
            Arg::from(text)
        }
    };
    let names = more(listed.iter().map(|&i| format!("{}'", coordinates[i])).collect());
    let values = if listed.len() < free.len() && free.iter().all(|&i| v[i] == 0.0) {
        Arg::Part(phrase::all_zero())
    } else {
        more(listed.iter().map(|&i| format!("{}' = {}", coordinates[i], short_number(v[i]))).collect())
    };
    Some(if free.len() == 1 { problem::free_velocity(names, values) } else { problem::free_velocities(names, values) })
}

/// The state that `settings` name (`t`, a coordinate `x`, a velocity `x'`, a
/// vakonomic multiplier `mu1`), completed as the initial state is: unnamed `t` and
/// coordinates keep the scenario's initial values; if any velocity is named, the
/// others are solved from the constraints, else they keep their initial values.
/// The model is left as it was. Errors and warnings are messages without a place
/// (the caller knows where the settings came from).
pub fn state_given(
    model: &mut Model,
    numeric: &mut NumericModel,
    map: &SourceMap,
    settings: &[(String, f64)],
) -> Result<(State, Vec<Message>), Vec<Message>> {
    use crate::message::stability as say;
    let mut initial = model.scenario.initial.clone();
    let mut vakonomic = model.scenario.vakonomic.clone();
    let (coordinates, m) = (&model.scenario.coordinates, model.scenario.constraint_count());
    let mut velocities_named = false;
    for (name, x) in settings {
        let (name, x) = (name.as_str(), *x);
        if !x.is_finite() {
            return Err(alloc::vec![say::state_not_finite(name)]);
        }
        if name == "t" {
            initial.t = x;
        } else if let Some(j) = name.strip_prefix("mu").and_then(|k| k.parse::<usize>().ok()) {
            if j == 0 || j > m {
                return Err(alloc::vec![say::state_multiplier(name, m)]);
            }
            let vk = vakonomic.get_or_insert_with(Default::default);
            vk.mu0.resize(m, 0.0);
            vk.mu0[j - 1] = x;
        } else if let Some(q) = name.strip_suffix('\'') {
            if !coordinates.iter().any(|c| c == q) {
                return Err(alloc::vec![say::state_not_velocity(name)]);
            }
            if !velocities_named {
                initial.v.clear();
                velocities_named = true;
            }
            initial.v.insert(q.into(), x);
        } else if coordinates.iter().any(|c| c == name) {
            initial.q.insert(name.into(), x);
        } else {
            return Err(alloc::vec![say::state_unknown(name)]);
        }
    }
    let saved_initial = core::mem::replace(&mut model.scenario.initial, initial);
    let saved_vakonomic = core::mem::replace(&mut model.scenario.vakonomic, vakonomic);
    let result = state_with_warnings(model, numeric, map, StateOrigin::Given);
    model.scenario.initial = saved_initial;
    model.scenario.vakonomic = saved_vakonomic;
    let said = |p: Problem| p.said.unwrap_or_else(|| crate::message::phrase::verbatim(p.message));
    result
        .map(|(state, warnings)| (state, warnings.into_iter().map(said).collect()))
        .map_err(|p| p.0.into_iter().map(said).collect())
}
