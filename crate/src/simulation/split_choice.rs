//! Choosing Hamel's split along the true motion. Column pivoting picks the dependent
//! coordinates from `A` at the initial state only. A split that is best there may
//! turn singular later along the motion: the rolling disk's automatic split did so at
//! t = 1.37, while `x, y` stays regular to `t_end`. When the scenario leaves the
//! choice to the lab, this module follows the true motion (Lagrange's, at a coarse
//! tolerance and a bounded number of steps) and checks every candidate split along
//! it. It keeps the initial choice if that stays regular, else takes the candidate
//! whose worst regularity along the motion is best.

use alloc::format;
use alloc::vec::Vec;

use nalgebra::DMatrix;

use super::{Settings, Simulation, State};
use crate::expr::SymbolKind;
use crate::formulations::Method;
use crate::integrators::IntegratorKind;
use crate::mechanics::{best_split, Model, NumericModel};
use crate::message::Message;

/// Steps of the coarse true motion at most: the choice never costs more than about
/// this many right-hand sides times the integrator's stages.
const MAX_STEPS: usize = 1000;
/// States along the motion at which the candidates are checked, at most.
const MAX_CHECKS: usize = 400;
/// States at which column pivoting proposes a candidate.
const PROPOSALS: usize = 12;
/// A split counts as regular while `|det A₁| / Π ‖A rows‖` stays above this (a
/// scale-invariant measure in [0, 1]; Hadamard's inequality bounds it by 1).
pub const REGULAR: f64 = 1e-3;

/// The outcome: the dependent coordinates to use and a sentence saying why.
#[derive(Clone, Debug, PartialEq)]
pub struct SplitChoice {
    /// Indices of the dependent coordinates.
    pub dependent: Vec<usize>,
    /// How the split was chosen, for `nhlab check` and the page.
    pub note: Message,
}

/// `det A₁ / Π ‖rows of A‖`: ±1 for orthogonal rows carried by the dependent
/// columns, 0 where `A₁` is singular; its size is unchanged when a constraint is
/// rescaled. Signed, so that a zero passed between two states shows as a change of
/// sign even where no state falls near it.
pub fn regularity(a: &DMatrix<f64>, dependent: &[usize]) -> f64 {
    let rows: f64 = a.row_iter().map(|r| r.norm()).product();
    if rows == 0.0 || !rows.is_finite() {
        return 0.0;
    }
    (a.select_columns(dependent).determinant() / rows).clamp(-1.0, 1.0)
}

/// The worst regularity of split `dependent` along `jacobians` (0 where its
/// determinant changes sign between two states), and the time of it; with
/// `combined`, of its rows `A₁ᵀA` (`HamelSplit::combined`).
fn worst_along(jacobians: &[(f64, DMatrix<f64>)], dependent: &[usize], combined: bool, t0: f64) -> (f64, f64) {
    let mut worst = (f64::INFINITY, t0);
    let mut previous: Option<f64> = None;
    for (t, a) in jacobians {
        let r = if combined {
            regularity(&(a.select_columns(dependent).transpose() * a), dependent)
        } else {
            regularity(a, dependent)
        };
        let size = if previous.is_some_and(|p| p * r < 0.0) { 0.0 } else { r.abs() };
        if size < worst.0 {
            worst = (size, *t);
        }
        previous = Some(r);
    }
    worst
}

/// Chooses the split along the true motion from `initial` to `t_end`, for a model
/// whose scenario leaves the choice to the lab; `None` when it gives the split, or
/// has none.
pub fn choose_along_motion(model: &Model, numeric: &NumericModel, initial: &State, t_end: f64) -> Option<SplitChoice> {
    let s = &model.scenario;
    if s.hamel.as_ref().is_some_and(|h| !h.dependent.is_empty()) {
        return None;
    }
    let split = model.hamel.as_ref().ok()?;
    // det A₁ of parameters alone (rolling contact's `x, y`: 1) is never zero: no
    // motion to follow.
    let g = model.graph_for(Method::Hamel);
    let constant =
        g.free_symbols(split.determinant).iter().all(|&x| matches!(g.symbol(x).kind, SymbolKind::Parameter(_)));
    choose_from(model, numeric, initial, t_end, (split.combined, split.dependent.clone()), constant)
}

/// [`choose_along_motion`] for a split whose terms were not derived (`nhlab check`):
/// the initial state's choice `first`, its `det A₁` known constant where the columns
/// of `A` it takes hold parameters alone.
pub fn choose_along_motion_without_terms(
    model: &Model,
    numeric: &NumericModel,
    initial: &State,
    t_end: f64,
    first: Vec<usize>,
) -> Option<SplitChoice> {
    if model.scenario.hamel.as_ref().is_some_and(|h| !h.dependent.is_empty()) {
        return None;
    }
    let g = &model.graph;
    let combined = model.independent_constraints(&model.initial_reference()).len() < model.constraints.len();
    let constant = model.constraints.iter().all(|c| {
        first.iter().all(|&i| {
            g.free_symbols(c.jacobian[i]).iter().all(|&x| matches!(g.symbol(x).kind, SymbolKind::Parameter(_)))
        })
    });
    choose_from(model, numeric, initial, t_end, (combined, first), constant)
}

/// The choice from the initial state's split `first`, on `A₁ᵀA` with `combined`
/// (`constant`: its `det A₁` never changes, so there is no motion to follow).
fn choose_from(
    model: &Model,
    numeric: &NumericModel,
    initial: &State,
    t_end: f64,
    (combined, first): (bool, Vec<usize>),
    constant: bool,
) -> Option<SplitChoice> {
    let s = &model.scenario;
    let names = |d: &[usize]| d.iter().map(|&i| s.coordinates[i].as_str()).collect::<Vec<_>>().join(", ");
    if constant {
        let note = Message::new(
            "split.constant",
            "chosen by column pivoting of A at the initial state; det A₁ is constant, so it is regular everywhere"
                .into(),
        );
        return Some(SplitChoice { dependent: first, note });
    }
    let states = true_motion(numeric, initial, t_end);
    let mut numeric = numeric.clone();
    let jacobians: Vec<(f64, DMatrix<f64>)> =
        states.iter().filter_map(|x| numeric.jacobian_at(x.t, &x.q, &x.v).ok().map(|a| (x.t, a))).collect();
    let reached = states.last().map_or(initial.t, |x| x.t);
    let followed = (reached < t_end).then_some(crate::math::ShortTime(reached));
    let horizon = match followed {
        Some(at) => format!("t = {at} (as far as it was followed)"),
        None => "t_end".into(),
    };
    // The ids of the notes that name the horizon: to t_end, or as far as followed.
    let to = |id_end: &'static str, id_followed: &'static str, m: Message| match followed {
        Some(at) => Message { id: id_followed, ..m }.arg("reached", at),
        None => Message { id: id_end, ..m },
    };
    let worst = |d: &[usize]| worst_along(&jacobians, d, combined, initial.t);
    let (kept, kept_at) = worst(&first);
    if kept >= REGULAR || jacobians.is_empty() {
        let english =
            format!("chosen by column pivoting of A at the initial state; regular along the true motion to {horizon}");
        let note = to("split.regular", "split.regular.followed", Message::new("", english));
        return Some(SplitChoice { dependent: first, note });
    }
    let mut candidates: Vec<Vec<usize>> = Vec::new();
    let stride = (jacobians.len() / PROPOSALS).max(1);
    for (_, a) in jacobians.iter().step_by(stride) {
        let (mut d, _) = best_split(a);
        d.sort_unstable();
        if d.len() == first.len() && !candidates.contains(&d) && d != first {
            candidates.push(d);
        }
    }
    let best = candidates.into_iter().map(|d| (worst(&d).0, d)).max_by(|x, y| x.0.total_cmp(&y.0));
    let at = crate::math::ShortTime(kept_at);
    match best {
        Some((value, d)) if value > kept => {
            let regular = if value >= REGULAR {
                format!("stays regular to {horizon}")
            } else {
                "is the most regular of those tried, though not regular throughout".into()
            };
            let english = format!(
                "dependent {} chosen along the true motion: the initial state's choice (dependent {}) turns singular near t = {at}; this one {regular}",
                names(&d),
                names(&first)
            );
            let note = Message::new("split.moved.best", english).arg("dependent", names(&d)).arg("first", names(&first)).arg("t", at);
            let note = if value >= REGULAR { to("split.moved", "split.moved.followed", note) } else { note };
            Some(SplitChoice { dependent: d, note })
        }
        _ => Some(SplitChoice {
            dependent: first,
            note: Message::new(
                "split.singular",
                format!("chosen by column pivoting of A at the initial state; it turns singular near t = {at}, and no split tried does better along the true motion"),
            )
            .arg("t", at),
        }),
    }
}

/// The true motion at a coarse tolerance: at most [`MAX_CHECKS`] states, spread
/// over the steps taken (an error or the step limit ends it early).
fn true_motion(numeric: &NumericModel, initial: &State, t_end: f64) -> Vec<super::Sample> {
    let mut settings = Settings::from_scenario(&Default::default(), Method::Lagrange);
    settings.integrator = IntegratorKind::Dopri5;
    (settings.rtol, settings.atol) = (1e-6, 1e-8);
    settings.limits.max_steps = MAX_STEPS as u64;
    settings.compulsion = false;
    settings.diagnostics = super::Diagnostics::NONE; // the states alone are read
    let Ok(mut sim) = Simulation::new(numeric.clone(), settings, initial) else { return Vec::new() };
    while let Ok(true) = sim.step(t_end) {}
    let samples = sim.samples();
    let stride = samples.len().div_ceil(MAX_CHECKS).max(1);
    let mut out: Vec<super::Sample> = samples.iter().step_by(stride).map(|s| s.to_sample()).collect();
    if let Some(last) = samples.last() {
        if out.last().map(|x| x.t) != Some(last.t) {
            out.push(last.to_sample());
        }
    }
    out
}
