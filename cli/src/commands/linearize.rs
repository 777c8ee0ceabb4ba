//! `nhlab linearize FILE [--method M] [--at STATE] [--ignorable q,…] [--sweep
//! NAME=START:STOP:STEP] [--out FILE] [--format csv|json] [--plot FILE]`:
//! eigenvalues of the motion linearised about a state (`nhlab::stability`), and,
//! over a sweep, the values where the motion turns stable or unstable (bisection to
//! 1e-12 of the range). Flags not given come from the scenario's `[stability]`.

use serde_json::{json, Value};

use nhlab::formulations::Method;
use nhlab::mechanics::Needs;
use nhlab::scenario::{StabilitySpec, SweepSpec};
use nhlab::stability::{eigenvectors, is_stable, modes, Mode, Study, StudyError, Sweep, MAX_REFINED};

use super::prepared_map::{self, PreparedMap};
use crate::args::{LinearizeArgs, TableFormat};
use crate::commands::eval::parse_settings;
use crate::input::{load_text_with, read, say_warnings};
use crate::output::write_to;
use crate::Failure;

/// `NAME=START:STOP:STEP` as a sweep.
pub(crate) fn parse_sweep(text: &str) -> Result<SweepSpec, Failure> {
    let bad = |m: String| Failure::bad(format!("--sweep: {m}"));
    let (name, range) =
        text.split_once('=').ok_or_else(|| bad(format!("expected NAME=START:STOP:STEP, found `{text}`")))?;
    let parts: Vec<f64> = range
        .split(':')
        .map(|x| x.trim().parse::<f64>().map_err(|_| bad(format!("`{x}` is not a number"))))
        .collect::<Result<_, _>>()?;
    let [from, to, step] = parts[..] else { return Err(bad("expected START:STOP:STEP".to_string())) };
    Ok(SweepSpec { over: name.trim().to_string(), from, to, step, axis: None })
}

/// The scenario's `[stability]` with the flags given on top: `--at` after its `at`,
/// the others replacing.
fn merged(table: Option<&StabilitySpec>, args: &LinearizeArgs) -> Result<(StabilitySpec, Vec<(String, f64)>), Failure> {
    let mut spec = table.cloned().unwrap_or_default();
    if let Some(m) = &args.method {
        spec.method = Some(m.clone());
    }
    if let Some(list) = &args.ignorable {
        spec.ignorable = list.split(',').map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect();
    }
    if let Some(list) = &args.dependent {
        spec.dependent = Some(list.split(',').map(str::trim).filter(|s| !s.is_empty()).map(String::from).collect());
    }
    if let [s] = &args.sweep[..] {
        spec.sweep = Some(parse_sweep(s)?);
    } else if args.no_sweep || args.state_space || args.sweep.len() > 1 {
        spec.sweep = None;
    }
    let at = match &args.at {
        Some(at) => parse_settings("--at", at)?,
        None => Vec::new(),
    };
    Ok((spec, at))
}

/// A study's message (`KEY: …`) blamed on the flag that gave the key, else on the
/// scenario's `stability.KEY`.
pub(crate) fn blame(e: &StudyError, args: &LinearizeArgs) -> String {
    let (Some(key), rest) = (e.key, &e.why) else { return e.to_string() };
    let given = match key {
        "method" => args.method.is_some(),
        "ignorable" => args.ignorable.is_some(),
        "dependent" => args.dependent.is_some(),
        "sweep" => !args.sweep.is_empty(),
        _ => false, // only the file has an axis
    };
    if given {
        format!("--{key}: {rest}")
    } else {
        format!("stability.{key}: {rest}")
    }
}

/// `--keep-speed a,b,…`: the ignorable coordinates whose speeds stay in the state;
/// the study holds the others.
fn kept_speeds(l: &crate::input::Loaded, study: &Study, list: &str) -> Result<Vec<usize>, Failure> {
    let names = &l.model.scenario.coordinates;
    let mut kept = Vec::new();
    for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let bare = name.strip_suffix('\'').unwrap_or(name);
        match names.iter().position(|c| c == bare) {
            Some(i) if study.ignorable.contains(&i) => kept.push(i),
            Some(_) => {
                return Err(Failure::bad(format!(
                    "--keep-speed: `{bare}` is not ignorable here, so its speed is in the state already"
                )))
            }
            None => return Err(Failure::bad(format!("--keep-speed: `{bare}` is not a coordinate of this scenario"))),
        }
    }
    Ok(study.ignorable.iter().copied().filter(|i| !kept.contains(i)).collect())
}

/// A map (two or three `--sweep`, or `--map`: the scenario's own axes) of the
/// prepared model.
fn map(args: &LinearizeArgs, prepared: &mut PreparedMap) -> Result<(), Failure> {
    if !args.map {
        return super::stability_map::run(args, prepared);
    }
    let table = prepared.loaded.model.scenario.stability.as_ref();
    let (Some(across), Some(up)) = (table.and_then(|t| t.sweep.as_ref()), table.and_then(|t| t.map.as_ref())) else {
        return Err(Failure::bad("--map: the scenario's [stability] table declares no map (it needs sweep and map)"));
    };
    let axis = |s: &nhlab::scenario::SweepSpec| format!("{}={:?}:{:?}:{:?}", s.over, s.from, s.to, s.step);
    let mut args = args.clone();
    args.sweep = vec![axis(across), axis(up)];
    super::stability_map::run(&args, prepared)
}

/// Whether `m` (or a part of it) says a state named by its values cannot be set:
/// a mistake in `--at`.
fn names_a_bad_state(m: &nhlab::message::Message) -> bool {
    m.id.starts_with("state.") || m.parts.iter().any(|(_, part)| names_a_bad_state(part))
}

pub fn run(args: &LinearizeArgs) -> Result<(), Failure> {
    if args.sweep.len() < 2 && !args.map && (args.rows.is_some() || args.threads.is_some()) {
        return Err(Failure::bad("--rows and --threads are for a map (two or three --sweep, or --map)"));
    }
    if let Some(plot) = &args.plot {
        if !(plot.ends_with(".svg") || plot.ends_with(".png")) {
            return Err(Failure::bad(format!("--plot: `{plot}` must end in .svg or .png")));
        }
    }
    let (text, format) = read(&args.file)?;
    let is_map = args.map || args.sweep.len() > 1;
    // A later chunk of the same map (`--rows`) in this process starts from the model
    // its first chunk prepared.
    let key = is_map.then(|| prepared_map::key(&text, format, args));
    if let Some(mut kept) = key.as_deref().and_then(prepared_map::take) {
        say_warnings(&kept.loaded, &args.file);
        let result = map(args, &mut kept);
        prepared_map::keep(key.unwrap_or_default(), kept);
        return result;
    }
    // Hamel's split is derived only when it is the method linearised.
    let needs = |s: &nhlab::scenario::Scenario| {
        let id = args.method.clone().or_else(|| s.stability.as_ref().and_then(|t| t.method.clone()));
        let hamel = id.as_deref() == Some("hamel");
        let needs = Needs::for_methods(&[if hamel { Method::Hamel } else { Method::Lagrange }], false);
        if args.state_space {
            needs.holding_inputs()
        } else {
            needs
        }
    };
    let mut l = load_text_with(&text, format, &args.file, needs, |_| Ok(Vec::new()))?;
    let (spec, extra_at) = merged(l.model.scenario.stability.as_ref(), args)?;
    let mut study = Study::new(&l.model, &spec).map_err(|e| Failure::bad(blame(&e, args)))?;
    study.at.extend(extra_at);
    if let Some(list) = &args.keep_speed {
        study.hold = Some(kept_speeds(&l, &study, list)?);
    }
    let mut derivatives = study.derivatives(&l.model).map_err(|e| Failure::bad(blame(&e, args)))?;
    if let Some(key) = key {
        prepared_map::count_preparation();
        let mut prepared = PreparedMap { loaded: l, study, derivatives, native: false, notes: Vec::new() };
        let result = map(args, &mut prepared);
        prepared_map::keep(key, prepared);
        return result;
    }
    let result = study.run(&mut l.model, &mut l.numeric, &mut derivatives, &l.map);
    let sweep = result.map_err(|e| {
        if names_a_bad_state(&e.why) {
            Failure::bad(format!("--at: {e}"))
        } else {
            Failure::Compute(e.to_string())
        }
    })?;
    for w in &study.warnings {
        crate::say!("warning: the reference state: {w}");
    }
    if args.state_space {
        for (input, speed) in &sweep.rows[0].inputs_on_held_speeds {
            let bare = speed.trim_end_matches('\'');
            crate::say!(
                "warning: input `{input}` drives the speed `{speed}`, which is held at its reference value and is not \
                 in the state, so B leaves that part of its effect out; --keep-speed {bare} keeps it in the state"
            );
        }
    }
    if sweep.boundaries.len() > MAX_REFINED {
        crate::say!("warning: more than {MAX_REFINED} boundaries; the rest are given to the sweep's step");
    }
    for (k, lin) in sweep.rows.iter().enumerate() {
        if lin.residual > 1e-8 {
            let at = sweep.values.get(k).map(|x| format!(" at {x}")).unwrap_or_default();
            crate::say!("warning: the reference is not a steady motion{at}: largest |q̈| of the coordinates that are not ignorable is {:e}", lin.residual);
        }
    }
    if sweep.rows.iter().flat_map(|lin| &lin.eigenvalues).any(|e| !e.re.is_finite() || !e.im.is_finite()) {
        return Err(Failure::Compute("an eigenvalue is not finite".into()));
    }
    let name = study.sweep.as_ref().map(|(n, _, _)| n.clone());
    let format = args.format.unwrap_or(if args.out.ends_with(".csv") { TableFormat::Csv } else { TableFormat::Json });
    if args.state_space && matches!(format, TableFormat::Csv) {
        return Err(Failure::bad("--state-space: the matrices are written as JSON (--format json)"));
    }
    let text = match format {
        TableFormat::Json => json_text(
            &study,
            &l.model.scenario.coordinates,
            &sweep,
            name.as_deref(),
            args.eigenvectors,
            args.state_space,
        )?,
        TableFormat::Csv => {
            if args.eigenvectors {
                return Err(Failure::bad("--eigenvectors: only in JSON (--format json)"));
            }
            for b in &sweep.boundaries {
                let to = if b.becomes_stable { "stable" } else { "unstable" };
                crate::say!(
                    "boundary: {} = {} (becomes {to})",
                    name.as_deref().unwrap_or("value"),
                    sweep.boundary_text(b)
                );
            }
            csv_text(&sweep, name.as_deref())
        }
    };
    if let Some(plot) = &args.plot {
        if sweep.values.is_empty() {
            return Err(Failure::bad("--plot: a figure needs a sweep (--sweep or stability.sweep)"));
        }
        let title = format!("{}: eigenvalues against {}", l.model.scenario.title, name.as_deref().unwrap_or(""));
        crate::plot::write_stability(plot, &title, name.as_deref().unwrap_or(""), &sweep, study.axis.as_ref())?;
    }
    write_to(&args.out, "--out", &text)
}

fn json_text(
    study: &Study,
    coordinates: &[String],
    sweep: &Sweep,
    name: Option<&str>,
    with_vectors: bool,
    state_space: bool,
) -> Result<String, Failure> {
    let first = &sweep.rows[0];
    let marginal = sweep.marginal();
    let rows: Vec<Value> = sweep
        .rows
        .iter()
        .enumerate()
        .map(|(k, lin)| {
            let eig: Vec<Value> = lin.eigenvalues.iter().map(|e| json!([e.re, e.im])).collect();
            let mut row = json!({"eigenvalues": eig, "residual": lin.residual, "stable": is_stable(lin), "marginal": marginal[k]});
            if let Some(x) = sweep.values.get(k) {
                row["value"] = json!(x);
            }
            if with_vectors {
                let vectors: Vec<Value> = eigenvectors(lin)
                    .iter()
                    .map(|v| json!(v.iter().map(|c| json!([c.re, c.im])).collect::<Vec<_>>()))
                    .collect();
                row["eigenvectors"] = json!(vectors);
            }
            if sweep.values.is_empty() {
                let modes: Vec<Value> = modes(lin)
                    .iter()
                    .map(|m| match *m {
                        Mode::Real { rate } => json!({"kind": "real", "rate": rate}),
                        Mode::Oscillatory { rate, frequency, damping } => {
                            json!({"kind": "oscillatory", "rate": rate, "frequency": frequency, "damping": damping})
                        }
                    })
                    .collect();
                row["modes"] = json!(modes);
                let matrix: Vec<Value> =
                    (0..lin.matrix.nrows()).map(|r| json!(lin.matrix.row(r).iter().collect::<Vec<_>>())).collect();
                row["matrix"] = json!(matrix);
            }
            row
        })
        .collect();
    let boundaries: Vec<Value> = sweep
        .boundaries
        .iter()
        .map(|b| json!({"value": b.value, "becomes": if b.becomes_stable { "stable" } else { "unstable" }, "refined": b.refined}))
        .collect();
    let at: serde_json::Map<String, Value> = study.at.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
    let out = json!({
        "method": study.method.id(),
        "at": at,
        "ignorable": study.ignorable.iter().map(|&i| &coordinates[i]).collect::<Vec<_>>(),
        "state": first.state,
        "dependent_coordinates": first.dependent_coordinates,
        "dependent_speeds": first.dependent_speeds,
        "held_speeds": first.held_speeds,
        "inputs_on_held_speeds": first.inputs_on_held_speeds.iter()
            .map(|(input, speed)| json!({"input": input, "speed": speed})).collect::<Vec<_>>(),
        "sweep": name,
        "rows": rows,
        "boundaries": boundaries,
    });
    let mut out = out;
    if let Some(a) = &study.axis {
        // The derived quantity at each row's value, and at each boundary.
        let at = |x: f64| nhlab_plots::on_axis(x, &sweep.values, &a.values);
        out["axis"] = json!({"name": a.name, "unit": a.unit, "values": a.values,
            "boundaries": sweep.boundaries.iter().map(|b| at(b.value)).collect::<Vec<_>>()});
    }
    if state_space {
        let rows = |m: &nalgebra::DMatrix<f64>| -> Vec<Value> {
            (0..m.nrows()).map(|r| json!(m.row(r).iter().collect::<Vec<_>>())).collect()
        };
        out["inputs"] = json!(first.inputs);
        out["A"] = json!(rows(&first.matrix));
        out["B"] = json!(rows(&first.input_matrix));
    }
    let mut text = serde_json::to_string_pretty(&out).map_err(|e| Failure::Compute(e.to_string()))?;
    text.push('\n');
    Ok(text)
}

/// One row per value: the value, then `re`, `im` of each eigenvalue track.
fn csv_text(sweep: &Sweep, name: Option<&str>) -> String {
    let k = sweep.rows[0].eigenvalues.len();
    let mut header = vec![name.unwrap_or("value").to_string()];
    for i in 1..=k {
        header.push(format!("re{i}"));
        header.push(format!("im{i}"));
    }
    let mut text = header.join(",") + "\n";
    for (k, lin) in sweep.rows.iter().enumerate() {
        // Numbers as `run`'s table writes them: the shortest text that reads back
        // as the same number, in exponent form where that is shorter.
        let mut cells = vec![sweep.values.get(k).map(|x| format!("{x:?}")).unwrap_or_default()];
        for e in &lin.eigenvalues {
            cells.push(format!("{:?}", e.re));
            cells.push(format!("{:?}", e.im));
        }
        text += &(cells.join(",") + "\n");
    }
    text
}
