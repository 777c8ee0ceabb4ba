//! `nhlab eval FILE --method M [--at NAME=VALUE,…]`: one evaluation, one JSON object.

use serde_json::{json, Map, Value};

use nhlab::export::column_name;
use nhlab::formulations::{accelerations_with_multipliers, compulsion, e_vector};
use nhlab::simulation::{state_given, State};

use crate::args::EvalArgs;
use crate::input::{load_file, method};
use crate::output::emit;
use crate::Failure;
use nhlab::mechanics::Needs;

/// `NAME=VALUE,…` as pairs, or a message for `flag`.
pub(crate) fn parse_settings(flag: &str, at: &str) -> Result<Vec<(String, f64)>, Failure> {
    let mut settings = Vec::new();
    for pair in at.split(',').filter(|p| !p.trim().is_empty()) {
        let (name, value) = pair
            .split_once('=')
            .ok_or_else(|| Failure::bad(format!("{flag}: expected NAME=VALUE, found `{}`", pair.trim())))?;
        let (name, value) = (name.trim(), value.trim());
        let x: f64 =
            value.parse().map_err(|_| Failure::bad(format!("{flag}: `{value}` is not a number (for `{name}`)")))?;
        settings.push((name.to_string(), x));
    }
    Ok(settings)
}

/// The state `--at` names: unnamed `t` and coordinates keep their initial values;
/// if any velocity is named, the others are solved from the constraints.
pub(crate) fn state_at(l: &mut crate::input::Loaded, settings: &[(String, f64)]) -> Result<State, Failure> {
    let (state, warnings) = state_given(&mut l.model, &mut l.numeric, &l.map, settings)
        .map_err(|messages| Failure::BadInput(messages.iter().map(|m| format!("--at: {m}")).collect()))?;
    for w in warnings {
        crate::say!("warning: --at: {w}");
    }
    Ok(state)
}

/// Every number of the result, with its key, for the non-finite check.
fn numbers(value: &Value, key: &str, out: &mut Vec<(String, f64)>) {
    match value {
        Value::Number(x) => out.push((key.to_string(), x.as_f64().unwrap_or(f64::NAN))),
        Value::Null => out.push((key.to_string(), f64::NAN)),
        Value::Array(xs) => xs.iter().enumerate().for_each(|(i, x)| numbers(x, &format!("{key}[{i}]"), out)),
        Value::Object(m) => m.iter().for_each(|(k, x)| numbers(x, &format!("{key}.{k}"), out)),
        _ => {}
    }
}

pub fn run(args: &EvalArgs) -> Result<(), Failure> {
    let method = method(&args.method)?;
    // `evec` is part of every answer (cli.md), so Hamel's split is always derived.
    let mut l = load_file(&args.file, |_| Needs::for_methods(&[method], true))?;
    let state = match &args.at {
        Some(at) => state_at(&mut l, &parse_settings("--at", at)?)?,
        None => l.initial.clone(),
    };
    let names = l.model.coordinate_names().to_vec();
    let compute = |e: nhlab::mechanics::DynamicsError| Failure::Compute(e.to_string());
    nhlab::formulations::applicability(&l.model, method)
        .map_err(|why| Failure::Compute(format!("{}: {why}", method.id())))?;
    let solution = accelerations_with_multipliers(method, &mut l.numeric, state.t, &state.q, &state.v, &state.mu)
        .map_err(compute)?;
    let evec = e_vector(&mut l.numeric, state.t, &state.q, &state.v);
    let terms = l.numeric.evaluate(state.t, &state.q, &state.v).map_err(compute)?;
    let z = compulsion(terms, &solution.accelerations, state.t).map_err(compute)?;
    let keyed = |xs: &[f64]| -> Value {
        Value::Object(names.iter().cloned().zip(xs.iter().map(|&x| json!(x))).collect::<Map<_, _>>())
    };
    let mut out = Map::new();
    out.insert("method".into(), json!(method.id()));
    out.insert("t".into(), json!(state.t));
    out.insert("q".into(), keyed(&state.q));
    out.insert("v".into(), keyed(&state.v));
    out.insert("qdd".into(), keyed(solution.accelerations.as_slice()));
    if let Some(lambda) = &solution.multipliers {
        out.insert("multipliers".into(), json!(lambda.as_slice()));
    }
    out.insert("residuals".into(), json!(terms.constraint_residuals()));
    let velocity_residuals: Map<_, _> = l
        .model
        .constraints
        .iter()
        .enumerate()
        .filter(|(_, c)| c.is_holonomic())
        .map(|(j, c)| (column_name(&c.name).to_string(), json!(terms.residuals[j])))
        .collect();
    if !velocity_residuals.is_empty() {
        out.insert("velocity_residuals".into(), Value::Object(velocity_residuals));
    }
    // `T + V`, or the energy function `h` under its own name (`energy_h`).
    out.insert(nhlab::mechanics::energy_form(&l.model).column().into(), json!(terms.energy));
    out.insert("compulsion".into(), json!(z));
    if let Some(rates) = &solution.multiplier_rates {
        out.insert("mu_dot".into(), json!(rates.as_slice()));
    }
    match evec {
        Some(Ok(e)) => {
            let keyed: Map<_, _> =
                e.independent.iter().zip(e.values.iter()).map(|(&i, &x)| (names[i].clone(), json!(x))).collect();
            out.insert("evec".into(), Value::Object(keyed));
        }
        Some(Err(err)) => crate::say!("warning: no E-vector here: {err}"),
        None => {}
    }
    // Contact forces, where the model has contacts: null where not determined.
    let forces = nhlab::simulation::contact_forces_at(&mut l.numeric, method, &state).map_err(compute)?;
    if let Some((forces, contacts)) = forces {
        let number = |x: f64| if x.is_finite() { json!(x) } else { Value::Null };
        let each: Map<_, _> = forces
            .iter()
            .zip(&contacts)
            .map(|(f, c)| {
                let mut entry = Map::new();
                entry.insert("N".into(), number(f.normal));
                entry.insert("Ft".into(), json!([number(f.tangential[0]), number(f.tangential[1])]));
                entry.insert("Ft_magnitude".into(), number(f.friction));
                entry.insert("mu_needed".into(), number(f.mu_needed));
                entry.insert("force".into(), Value::Array(f.force.iter().map(|&x| number(x)).collect()));
                entry.insert("point".into(), Value::Array(f.point.iter().map(|&x| number(x)).collect()));
                if c.friction {
                    entry.insert("friction".into(), number(f.mu));
                }
                entry.insert("found".into(), json!(c.how));
                (c.name.clone(), Value::Object(entry))
            })
            .collect();
        out.insert("contacts".into(), Value::Object(each));
    }
    // The constraints' reaction as a generalised force, M q̈ − F by coordinate, and
    // each constraint's share Aᵀλ where the method has multipliers.
    if method != nhlab::formulations::Method::Vakonomic {
        let terms = l.numeric.evaluate(state.t, &state.q, &state.v).map_err(compute)?;
        let total = &terms.mass * &solution.accelerations - &terms.forcing;
        out.insert("reaction".into(), keyed(total.as_slice()));
    }
    if let (Some(lambda), true) = (&solution.multipliers, method != nhlab::formulations::Method::Vakonomic) {
        let terms = l.numeric.evaluate(state.t, &state.q, &state.v).map_err(compute)?;
        let reactions: Map<_, _> = l
            .model
            .constraints
            .iter()
            .enumerate()
            .map(|(j, c)| {
                let row: Map<_, _> = names
                    .iter()
                    .enumerate()
                    .map(|(i, q)| (q.clone(), json!(terms.jacobian[(j, i)] * lambda[j])))
                    .collect();
                (column_name(&c.name).to_string(), Value::Object(row))
            })
            .collect();
        out.insert("reactions".into(), Value::Object(reactions));
    }
    let out = Value::Object(out);
    // serde_json writes NaN and infinities as null: refuse them instead, naming the
    // first in the order of cause (accelerations before what is computed from them).
    let mut all = Vec::new();
    for key in [
        "qdd",
        "multipliers",
        "mu_dot",
        "residuals",
        "velocity_residuals",
        "energy",
        "energy_h",
        "compulsion",
        "evec",
        "reaction",
        "reactions",
    ] {
        if let Some(value) = out.get(key) {
            numbers(value, key, &mut all);
        }
    }
    if let Some((key, _)) = all.iter().find(|(_, x)| !x.is_finite()) {
        let place = if args.at.is_some() { "the given state" } else { "the initial state" };
        return Err(Failure::Compute(format!("{}: `{}` is not finite at {place}, t = {}", method.id(), key, state.t)));
    }
    emit(&format!("{out}\n"))
}
