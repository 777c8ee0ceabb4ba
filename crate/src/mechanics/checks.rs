//! The checks of a scenario's fields that need no derivation: the initial state,
//! `[stability]`, `[run]`, the parameters' ranges, `[compare]` and `[units]`.

use alloc::format;
use alloc::string::String;

use super::checker::{unknown_name, Checker};
use super::constraint::Constraint;
use crate::expr::{nearest, ExprGraph};
use crate::message::{phrase, problem, Hint, Message};
use crate::scenario::Scenario;

/// The initial values: every coordinate is given, except those a holonomic
/// constraint involves, which may be omitted to be solved from it
/// (`simulation::initial_state`).
pub(super) fn check_initial(c: &mut Checker<'_>, s: &Scenario, g: &ExprGraph, constraints: &[Constraint]) {
    for (i, q) in s.coordinates.iter().enumerate() {
        let fixed = constraints.iter().any(|k| k.is_holonomic() && k.jacobian.get(i).is_some_and(|&a| !g.is_zero(a)));
        if !s.initial.q.contains_key(q) && !fixed {
            c.said("initial.q", problem::initial_missing(q));
        }
    }
    for (which, values) in [("q", &s.initial.q), ("v", &s.initial.v)] {
        for (name, value) in values {
            let field = format!("initial.{which}.{name}");
            let coordinates = s.coordinates.iter().map(String::as_str);
            named_value(c, &field, (name, *value), phrase::a_coordinate(), coordinates);
        }
    }
    if !s.initial.t.is_finite() {
        c.said("initial.t", problem::not_finite());
    }
}

/// A value given under a name at `field` (`initial.q.x = 1`, `compare.heavy.m = 2`):
/// said where the name is not one of `known` (`what`: what it should name) or the
/// value is not finite. Whether it is neither.
fn named_value<'k>(
    c: &mut Checker<'_>,
    field: &str,
    (name, value): (&str, f64),
    what: Message,
    known: impl Iterator<Item = &'k str> + Clone,
) -> bool {
    if !known.clone().any(|k| k == name) {
        c.said_key(field, unknown_name(name, what, known));
        false
    } else if !value.is_finite() {
        c.said(field, problem::not_finite());
        false
    } else {
        true
    }
}

/// `[stability]`: names that exist, a linearisable method, a finite sweep.
pub(super) fn check_stability(c: &mut Checker<'_>, s: &Scenario) {
    let Some(st) = &s.stability else { return };
    if let Err(e) = st.linearised_method() {
        c.said("stability.method", e);
    }
    let velocity = |name: &str| name.strip_suffix('\'').is_some_and(|q| s.coordinates.iter().any(|c| c == q));
    for (name, x) in &st.at {
        let field = format!("stability.at.{name}");
        if !(name == "t" || s.coordinates.contains(name) || velocity(name)) {
            c.said_key(&field, problem::not_a_state(name));
        } else if !x.is_finite() {
            c.said(&field, problem::not_finite());
        }
    }
    for (i, q) in st.ignorable.iter().enumerate() {
        if !s.coordinates.contains(q) {
            c.said(&format!("stability.ignorable[{i}]"), problem::not_a_coordinate(q));
        }
    }
    for (i, q) in st.dependent.iter().flatten().enumerate() {
        if !s.coordinates.contains(q) {
            c.said(&format!("stability.dependent[{i}]"), problem::not_a_coordinate(q));
        }
    }
    if let Some(d) = &st.dependent {
        let m = s.constraint_count();
        if d.len() != m {
            c.said("stability.dependent", problem::dependent_count(m, d.len()));
        }
    }
    if let Some(sw) = &st.sweep {
        if !(s.parameters.contains_key(&sw.over) || velocity(&sw.over)) {
            c.said("stability.sweep.over", problem::sweep_over(&sw.over));
        }
        if let Err(e) = sw.values() {
            c.said("stability.sweep", e);
        }
    }
    if let Some(map) = &st.map {
        if st.sweep.is_none() {
            c.said("stability.map", problem::map_without_sweep());
        }
        if !(s.parameters.contains_key(&map.over) || velocity(&map.over)) {
            c.said("stability.map.over", problem::sweep_over(&map.over));
        } else if st.sweep.as_ref().is_some_and(|sw| sw.over == map.over) {
            c.said("stability.map.over", problem::map_same_axis(&map.over));
        }
        if let Err(e) = map.values() {
            c.said("stability.map", e);
        }
    }
}

/// The smallest `run.rtol` accepted: a few hundred units of double-precision round-off.
pub const MIN_RTOL: f64 = 1e-14;

pub(super) fn check_options(c: &mut Checker<'_>, s: &Scenario, _n: usize) {
    if let Some(h) = &s.hamel {
        for (i, q) in h.dependent.iter().enumerate() {
            if !s.coordinates.contains(q) {
                c.said(&format!("hamel.dependent[{i}]"), problem::not_a_coordinate(q));
            }
        }
        // One per independent constraint: as many as there are constraints unless
        // some are redundant, which the split checks once the rows are known.
        let m = s.constraint_count();
        if h.dependent.len() > m {
            c.said("hamel.dependent", problem::dependent_count(m, h.dependent.len()));
        }
    }
    if let Some(v) = &s.vakonomic {
        let m = s.constraint_count();
        if v.mu0.len() != m {
            c.said("vakonomic.mu0", problem::multiplier_count(m, v.mu0.len()));
        }
        for (j, x) in v.mu0.iter().enumerate() {
            if !x.is_finite() {
                c.said(&format!("vakonomic.mu0[{j}]"), problem::expected_finite(x));
            }
        }
    }
    let r = &s.run;
    if let Some(methods) = &r.methods {
        for (i, m) in methods.iter().enumerate() {
            if crate::scenario::Method::from_id(m).is_none() {
                let ids = crate::scenario::Method::ALL.map(|m| m.id());
                let field = format!("run.methods[{i}]");
                match nearest_one(m, &ids) {
                    Hint(None) => c.said(&field, problem::unknown_method_list(m, ids.join(", "))),
                    hint => c.said(&field, problem::unknown_method(m, hint)),
                }
            }
        }
    }
    if let Some(i) = &r.integrator {
        if crate::scenario::IntegratorKind::from_id(i).is_none() {
            let ids = crate::scenario::IntegratorKind::ALL.map(|k| k.id());
            let hint = nearest_one(i, &ids);
            c.said("run.integrator", problem::unknown_integrator(i, ids.join(", "), hint));
        }
    }
    if let Some(list) = &r.integrators {
        if r.integrator.is_some() {
            c.said("run.integrators", problem::integrator_twice());
        }
        if list.is_empty() {
            c.said("run.integrators", problem::integrators_empty());
        }
        let ids = crate::scenario::IntegratorKind::ALL.map(|k| k.id());
        for (k, i) in list.iter().enumerate() {
            if crate::scenario::IntegratorKind::from_id(i).is_none() {
                let hint = nearest_one(i, &ids);
                c.said(&format!("run.integrators[{k}]"), problem::unknown_integrator(i, ids.join(", "), hint));
            }
        }
    }
    if let Some(st) = &r.stabilization {
        if crate::scenario::Stabilization::from_id(st).is_none() {
            c.said("run.stabilization", problem::unknown_stabilization(st));
        }
    }
    if let Some(choice) = &r.on_invalid {
        if crate::scenario::OnInvalid::from_id(choice).is_none() {
            c.said("run.on_invalid", problem::unknown_on_invalid(choice, nearest_one(choice, &["mark", "stop"])));
        }
    }
    for (field, value) in [("run.t_end", r.t_end), ("run.rtol", r.rtol), ("run.atol", r.atol), ("run.dt", r.dt)] {
        if let Some(x) = value {
            if !(x.is_finite() && x > 0.0) {
                c.said(field, problem::not_positive(x));
            }
        }
    }
    let t0 = s.initial.t;
    match r.t_end {
        Some(t_end) if t0.is_finite() && t_end.is_finite() && t_end > 0.0 && t_end <= t0 => {
            c.said("run.t_end", problem::end_before_start(crate::math::Short(t0), crate::math::Short(t_end)));
        }
        None if t0.is_finite() && crate::scenario::DEFAULT_T_END <= t0 => {
            c.said("initial.t", problem::start_after_default_end(crate::math::Short(crate::scenario::DEFAULT_T_END)));
        }
        _ => {}
    }
    if let Some(rtol) = r.rtol.filter(|x| x.is_finite() && *x > 0.0) {
        if rtol < MIN_RTOL {
            c.said("run.rtol", problem::rtol_too_small(format!("{MIN_RTOL:e}"), format!("{rtol:e}")));
        }
    }
}

/// "; did you mean `a`?" with the one name of `ids` nearest to `name`, if any is near.
fn nearest_one(name: &str, ids: &[&str]) -> Hint {
    Hint(nearest(name, ids.iter().copied()).first().map(phrase::did_you_mean_one))
}

/// Longest unit text accepted: units are labels, not prose.
const MAX_UNIT_CHARS: usize = 24;

/// A parameter's slider range: finite bounds in order, the value inside them, a
/// positive step no longer than the range, a short unit.
pub(super) fn check_parameter_range(c: &mut Checker, field: &str, value: f64, range: &crate::scenario::ParameterRange) {
    for (key, x) in [("min", range.min), ("max", range.max), ("step", range.step)] {
        if x.is_some_and(|x| !x.is_finite()) {
            c.said(&format!("{field}.{key}"), problem::bound_not_finite());
            return;
        }
    }
    if let (Some(lo), Some(hi)) = (range.min, range.max) {
        if lo >= hi {
            c.said(&format!("{field}.max"), problem::max_not_above_min(hi, lo));
            return;
        }
        if let Some(step) = range.step.filter(|&h| h > hi - lo) {
            c.said(&format!("{field}.step"), problem::step_too_long(step, lo, hi));
        }
    }
    if range.step.is_some_and(|h| h <= 0.0) {
        c.said(&format!("{field}.step"), problem::step_not_positive());
    }
    if let Some(bounds) = range.excludes(value) {
        c.said(&format!("{field}.value"), problem::outside_range(value, bounds));
    }
    if let Some(unit) = &range.unit {
        check_unit(c, &format!("{field}.unit"), unit);
    }
}

/// Longest name of a parameter set: it labels a legend entry and a CSV cell.
const MAX_SET_NAME_CHARS: usize = 24;

/// `[compare]`: at most [`crate::scenario::MAX_COMPARE_SETS`] short-named sets of
/// parameters that exist, each value finite and inside its parameter's range.
pub(super) fn check_compare(c: &mut Checker, s: &Scenario) {
    let limit = crate::scenario::MAX_COMPARE_SETS;
    if s.compare.len() > limit {
        c.said("compare", problem::too_many_sets(limit, s.compare.len()));
    }
    for (name, values) in &s.compare {
        let field = format!("compare.{name}");
        if name.trim().is_empty()
            || name.chars().count() > MAX_SET_NAME_CHARS
            || name.chars().any(|ch| ch.is_control() || ch == '.')
        {
            c.said_key(&field, problem::set_name(MAX_SET_NAME_CHARS));
        }
        if values.is_empty() {
            c.said(&field, problem::set_empty());
        }
        for (parameter, &value) in values {
            let at = format!("{field}.{parameter}");
            let parameters = s.parameters.keys().map(String::as_str);
            if !named_value(c, &at, (parameter, value), phrase::a_parameter(), parameters) {
                continue;
            }
            if let Some(range) = s.parameters.range(parameter) {
                if let Some(bounds) = range.excludes(value) {
                    c.said(&at, problem::set_value_outside(value, parameter, bounds));
                }
            }
        }
    }
}

/// `[units]`: keys are coordinates or `t`, values short plain text.
pub(super) fn check_units(c: &mut Checker, s: &Scenario) {
    for (name, unit) in &s.units {
        let field = format!("units.{name}");
        if name != "t" && !s.coordinates.contains(name) {
            let candidates = s.coordinates.iter().map(String::as_str).chain(["t"]);
            c.said_key(&field, unknown_name(name, phrase::a_coordinate_or_t(), candidates));
        }
        check_unit(c, &field, unit);
    }
}

pub(super) fn check_unit(c: &mut Checker, field: &str, unit: &str) {
    if unit.chars().count() > MAX_UNIT_CHARS || unit.chars().any(char::is_control) {
        c.said(field, problem::unit_too_long(MAX_UNIT_CHARS));
    }
}
