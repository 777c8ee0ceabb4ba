//! `nhlab run FILE --cases CASES.csv`: an ensemble — one run per case, each case a
//! row of parameter values, initial coordinates (`x`) and speeds (`x'`), on every
//! core; one row out per case: its values, how and where its run ended, its final
//! state, and the first time each contact lifted off or slipped.
//!
//! The model is derived and compiled once; a case sets its parameters in a copy of
//! the numeric model and completes its initial state as `eval --at` does (named
//! speeds given, the others solved from the constraints). A case's row is the last
//! sample `nhlab run` writes for the scenario with the case's values, bit for bit,
//! whatever the number of threads (tests/cli's ensemble tests check both).

use nhlab::formulations::Method;
use nhlab::integrators::IntegrationError;
use nhlab::mechanics::{Model, Needs, NumericModel};
use nhlab::simulation::{state_given, Diagnostics, Limits, Settings, Simulation, State, StopReason};

use crate::args::{RunArgs, TableFormat};
use crate::input::{apply_inputs, load_file_with, method};
use crate::output::Stream;
use crate::Failure;

/// Most cases in one command (each a whole run): more is refused before any work.
pub const MAX_CASES: usize = 100_000;

/// Cases a thread takes at a time (a case is a whole run: one at a time balances).
const CHUNK: usize = 1;

/// Samples a run holds before they are let go (only the last state is kept).
const HELD_SAMPLES: usize = 4096;

/// The cases read from their CSV file: the header's names and, per row, a value for
/// each (`None`: an empty cell, the scenario's own).
struct Cases {
    names: Vec<String>,
    rows: Vec<Vec<Option<f64>>>,
}

/// What a case's run came to.
struct Outcome {
    /// `t_end`, or why it ended before (in words).
    ended: String,
    /// The state where it ended (`None`: it could not start).
    state: Option<State>,
    /// Per contact, the first time it lifted off and the first it slipped.
    first: Vec<[Option<f64>; 2]>,
}

pub fn run(args: &RunArgs, cases_path: &str) -> Result<(), Failure> {
    let refuse = |flag: &str| Failure::bad(format!("--cases: {flag} does not apply to an ensemble (one row per case)"));
    if args.plot.is_some() || args.scene.is_some() {
        return Err(refuse("--plot and --scene"));
    }
    if args.sample_at.is_some() {
        return Err(refuse("--sample-at"));
    }
    if args.methods.len() > 1 || args.integrators.len() > 1 {
        return Err(Failure::bad(
            "--cases: an ensemble runs one method under one integrator (one --method, one --integrator)",
        ));
    }
    let l = load_file_with(
        &args.file,
        |s| Needs::for_methods(&[first_method(args, s).unwrap_or(Method::Lagrange)], false),
        |s| apply_inputs(s, &args.inputs),
    )?;
    let s = &l.model.scenario;
    let method = first_method(args, s)?;
    if let Err(why) = nhlab::formulations::applicability(&l.model, method) {
        return Err(Failure::bad(format!("--method {}: cannot run: {why}", method.id())));
    }
    let cases = read_cases(cases_path, &l.model)?;
    let t_end = args.t_end.unwrap_or_else(|| s.run.t_end_or_default());
    let mut settings = Settings::from_scenario(&s.run, method);
    if let Some(id) = args.integrators.first() {
        settings.integrator = super::run::integrator(id)?;
    }
    settings.dt = args.dt.unwrap_or(settings.dt);
    settings.limits = Limits { max_steps: args.max_steps, max_samples: args.max_samples };
    settings.diagnostics = Diagnostics { contacts: true, ..Diagnostics::NONE };
    let numeric = super::run::compiled(
        &l,
        l.numeric.clone(),
        &[method],
        &[settings.integrator],
        Diagnostics::NONE,
        args.interpret,
    );
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads == 0 {
        return Err(Failure::bad("--threads: must be at least 1"));
    }
    let started = std::time::Instant::now();
    let bound = std::time::Duration::from_secs_f64(args.max_seconds.clamp(1e-3, 1e9));
    let contacts: Vec<String> =
        l.model.contacts.as_ref().map_or(Vec::new(), |c| c.contacts.iter().map(|c| c.name.clone()).collect());
    let hamel_dependent = l.model.hamel_dependent_names();
    let outcomes = crate::parallel::spread(
        cases.rows.len(),
        threads,
        CHUNK,
        || (l.model.clone(), numeric.clone()),
        |(model, numeric), k| {
            if started.elapsed() >= bound {
                return Outcome {
                    ended: format!("not run: the command's wall-clock bound of {} s (--max-seconds)", args.max_seconds),
                    state: None,
                    first: Vec::new(),
                };
            }
            run_case(model, numeric, &l.map, &cases, k, settings, t_end, hamel_dependent.as_deref(), &|| {
                started.elapsed() < bound
            })
        },
    );
    write(args, &cases, &l.model, &contacts, &outcomes)
}

/// `--method`'s, else the scenario's first method.
fn first_method(args: &RunArgs, s: &nhlab::scenario::Scenario) -> Result<Method, Failure> {
    match args.methods.first() {
        Some(id) => method(id),
        None => method(s.run.method_ids().first().map_or("lagrange", String::as_str)),
    }
}

/// The cases of a CSV file: a header of names (parameters, coordinates, speeds `x'`),
/// then one row of numbers per case (an empty cell keeps the scenario's value).
fn read_cases(path: &str, model: &Model) -> Result<Cases, Failure> {
    let text = read_bounded(path)?;
    let at = |line: usize, column: usize, message: String| Failure::bad(format!("{path}:{line}:{column}: {message}"));
    let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
    let Some((_, header)) = lines.next() else {
        return Err(Failure::bad(format!("--cases {path}: the file is empty")));
    };
    let parameters: Vec<&str> = model.parameters.iter().map(|p| p.name.as_str()).collect();
    let coordinates = &model.scenario.coordinates;
    let mut names: Vec<String> = Vec::new();
    let mut column = 1;
    for name in header.split(',') {
        let name = name.trim().trim_matches('"');
        let known = parameters.contains(&name) || coordinates.iter().any(|c| c == name || format!("{c}'") == name);
        if !known {
            let speeds: Vec<String> = coordinates.iter().map(|c| format!("{c}'")).collect();
            return Err(at(1, column, format!(
                "`{name}` is not a parameter, a coordinate or a speed of this scenario (parameters: {}; coordinates: {}; speeds: {})",
                parameters.join(", "), coordinates.join(", "), speeds.join(", ")
            )));
        }
        if names.iter().any(|n| n == name) {
            return Err(at(1, column, format!("`{name}` is named twice")));
        }
        names.push(name.to_string());
        column += name.len() + 1;
    }
    let mut rows = Vec::new();
    for (k, line) in lines {
        if rows.len() == MAX_CASES {
            return Err(Failure::bad(format!(
                "--cases {path}: more than {MAX_CASES} cases (split them over several commands)"
            )));
        }
        let cells: Vec<&str> = line.split(',').collect();
        if cells.len() != names.len() {
            return Err(at(k + 1, 1, format!("{} values for {} names", cells.len(), names.len())));
        }
        let mut row = Vec::with_capacity(cells.len());
        let mut column = 1;
        for (cell, name) in cells.iter().zip(&names) {
            let trimmed = cell.trim();
            row.push(if trimmed.is_empty() {
                None
            } else {
                match trimmed.parse::<f64>() {
                    Ok(x) if x.is_finite() => Some(x),
                    _ => {
                        return Err(at(
                            k + 1,
                            column,
                            format!("{name}: `{}` is not a finite number", crate::input::excerpt(trimmed, 40)),
                        ))
                    }
                }
            });
            column += cell.len() + 1;
        }
        rows.push(row);
    }
    Ok(Cases { names, rows })
}

/// Most bytes a cases file may have (100,000 rows of a few dozen numbers fit).
const MAX_CASES_BYTES: u64 = 64 * 1024 * 1024;

/// The cases file's text, read no further than [`MAX_CASES_BYTES`].
fn read_bounded(path: &str) -> Result<String, Failure> {
    use std::io::Read;
    let said = |e: std::io::Error| Failure::bad(format!("--cases {path}: {e}"));
    let mut bytes = Vec::new();
    std::fs::File::open(path).map_err(said)?.take(MAX_CASES_BYTES + 1).read_to_end(&mut bytes).map_err(said)?;
    if bytes.len() as u64 > MAX_CASES_BYTES {
        return Err(Failure::bad(format!("--cases {path}: larger than {} MiB", MAX_CASES_BYTES >> 20)));
    }
    String::from_utf8(bytes).map_err(|_| Failure::bad(format!("--cases {path}: not UTF-8 text")))
}

/// Case `k`'s run: its parameters set, its state completed, run to `t_end`.
#[allow(clippy::too_many_arguments)]
fn run_case(
    model: &mut Model,
    base: &NumericModel,
    map: &nhlab::scenario::SourceMap,
    cases: &Cases,
    k: usize,
    settings: Settings,
    t_end: f64,
    hamel_dependent: Option<&str>,
    in_time: &dyn Fn() -> bool,
) -> Outcome {
    let mut numeric = base.clone();
    let mut state_settings = Vec::new();
    for (name, value) in cases.names.iter().zip(&cases.rows[k]) {
        let Some(x) = *value else { continue };
        match model.parameters.iter().position(|p| &p.name == name) {
            Some(i) => numeric.parameters[i] = x,
            None => state_settings.push((name.clone(), x)),
        }
    }
    let cannot = |why: String| Outcome { ended: format!("cannot start: {why}"), state: None, first: Vec::new() };
    let initial = match state_given(model, &mut numeric, map, &state_settings) {
        Ok((state, _)) => state,
        Err(messages) => return cannot(messages.iter().map(nhlab_texts::i18n::message).collect::<Vec<_>>().join("; ")),
    };
    if numeric.contacts.is_some() {
        nhlab::simulation::prepare_contacts(&mut numeric, &initial);
    }
    let mut sim = match Simulation::new(numeric, settings, &initial) {
        Ok(sim) => sim,
        Err(e) => return cannot(e.to_string()),
    };
    let result = loop {
        let mut late = false;
        let result = sim.advance_while(t_end, &[], &mut |held| {
            late = !in_time();
            !late && held < HELD_SAMPLES
        });
        sim.release_samples();
        match result {
            Err(IntegrationError::Interrupted { .. }) if !late => continue,
            result => break result,
        }
    };
    let ended = match result {
        Ok(()) => "t_end".to_string(),
        Err(IntegrationError::Interrupted { .. }) => {
            "stopped: the command's wall-clock bound (--max-seconds)".to_string()
        }
        Err(e) => match StopReason::of(&e, hamel_dependent) {
            StopReason::EndedByDesign(message) | StopReason::Failed(message) => nhlab_texts::i18n::message(&message),
        },
    };
    let contacts = sim.contacts().map_or(0, <[_]>::len);
    let mut first = vec![[None, None]; contacts];
    for e in sim.validity_events() {
        let slot = match e.condition {
            nhlab::simulation::Condition::LiftOff => 0,
            nhlab::simulation::Condition::Slip => 1,
            nhlab::simulation::Condition::FrictionNotFinite => continue,
        };
        let at: &mut Option<f64> = &mut first[e.contact][slot];
        *at = Some(at.map_or(e.start, |t: f64| t.min(e.start)));
    }
    Outcome { ended, state: Some(sim.state()), first }
}

/// The table: `case`, the cases' columns, `ended`, `final_t`, the coordinates and
/// speeds where the run ended (`final_x`, `final_x'`), and `lift_off_<contact>`,
/// `slip_<contact>` (the first times).
fn write(
    args: &RunArgs,
    cases: &Cases,
    model: &Model,
    contacts: &[String],
    outcomes: &[Outcome],
) -> Result<(), Failure> {
    let coordinates = &model.scenario.coordinates;
    let mut names: Vec<String> = vec!["case".into()];
    names.extend(cases.names.iter().cloned());
    // The final state's names say so: a case's own `theta` is where it starts.
    names.extend(["ended".to_string(), "final_t".to_string()]);
    names.extend(coordinates.iter().map(|c| format!("final_{c}")));
    names.extend(coordinates.iter().map(|c| format!("final_{c}'")));
    for c in contacts {
        names.extend([format!("lift_off_{c}"), format!("slip_{c}")]);
    }
    let number = |x: Option<f64>| x.map_or(String::new(), |x| format!("{x:?}"));
    let rows: Vec<Vec<(String, bool)>> = outcomes
        .iter()
        .enumerate()
        .map(|(k, o)| {
            let mut row = vec![(k.to_string(), true)];
            row.extend(cases.rows[k].iter().map(|&x| (number(x), true)));
            row.push((o.ended.clone(), false));
            let state = o.state.as_ref();
            row.push((number(state.map(|s| s.t)), true));
            for i in 0..2 * coordinates.len() {
                let x = state.map(|s| if i < coordinates.len() { s.q[i] } else { s.v[i - coordinates.len()] });
                row.push((number(x), true));
            }
            for c in 0..contacts.len() {
                for slot in 0..2 {
                    row.push((number(o.first.get(c).and_then(|f| f[slot])), true));
                }
            }
            row
        })
        .collect();
    let format = args.format.unwrap_or(if args.out.ends_with(".json") { TableFormat::Json } else { TableFormat::Csv });
    let mut out = Stream::open(&args.out, "--out")?;
    match format {
        TableFormat::Csv => {
            let quote = |s: &str| {
                if s.contains([',', '"', '\n']) {
                    format!("\"{}\"", s.replace('"', "\"\""))
                } else {
                    s.to_string()
                }
            };
            out.write(&(names.iter().map(|n| quote(n)).collect::<Vec<_>>().join(",") + "\n"))?;
            for row in &rows {
                out.write(&(row.iter().map(|(v, _)| quote(v)).collect::<Vec<_>>().join(",") + "\n"))?;
            }
        }
        TableFormat::Json => {
            let cell = |(v, numeric): &(String, bool)| match (v.is_empty(), numeric) {
                (true, _) => "null".to_string(),
                (false, true) => v.clone(),
                (false, false) => serde_json::to_string(v).expect("a string serialises"),
            };
            let columns = serde_json::to_string(&names).expect("names serialise");
            let body: Vec<String> =
                rows.iter().map(|r| format!("[{}]", r.iter().map(cell).collect::<Vec<_>>().join(","))).collect();
            out.write(&format!("{{\"columns\":{columns},\"rows\":[{}]}}\n", body.join(",\n")))?;
        }
    }
    out.finish()?;
    Ok(())
}
