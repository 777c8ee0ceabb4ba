//! `nhlab run FILE [--method M]… [--t-end T] [--sample-at …] [--out …] [--plot …] [--scene … [--frames …]]`.

use nhlab::export::{csv_line, json_row, step_comment, Columns, RunSamples, SamplesOf, Table};
use nhlab::formulations::Method;
use nhlab::integrators::{IntegrationError, IntegratorKind};
use nhlab::scene::ScenePlayer;
use nhlab::simulation::{Diagnostics, Limits, OnInvalid, Settings, Simulation, StopReason};
use nhlab::view::View;

use crate::args::{RunArgs, TableFormat};
use crate::input::{apply_inputs, known_methods, load_file_with, method, Loaded};
use crate::output::{write_to, Stream};
use crate::times::parse_sample_times;
use crate::Failure;
use nhlab::mechanics::Needs;
use nhlab::scenario::Scenario;

pub fn run(args: &RunArgs) -> Result<(), Failure> {
    if let Some(cases) = &args.cases {
        return super::ensemble::run(args, cases);
    }
    let ids_of = |s: &Scenario| if args.methods.is_empty() { s.run.method_ids() } else { args.methods.clone() };
    // The E_ columns are part of the output whenever they apply (cli.md): Hamel's split
    // is always derived; the vakonomic equations only for that method.
    let columns = parse_columns(&args.columns)?;
    // A figure draws the energy, residuals and E-vector whatever the table holds.
    let computed = if args.plot.is_some() { Diagnostics::ALL } else { columns };
    // Hamel's split is derived for the E-vector only when it is computed.
    let l = load_file_with(
        &args.file,
        |s| Needs::for_methods(&known_methods(&ids_of(s)), computed.e_vector),
        |s| apply_inputs(s, &args.inputs),
    )?;
    let s = &l.model.scenario;
    let ids = ids_of(s);
    let methods = ids.iter().map(|id| method(id)).collect::<Result<Vec<Method>, _>>()?;
    let t_end = args.t_end.unwrap_or_else(|| s.run.t_end_or_default());
    if args.max_steps == 0 || args.max_samples == 0 {
        return Err(Failure::bad("--max-steps and --max-samples: must be at least 1"));
    }
    if !(args.max_seconds > 0.0 && args.max_seconds <= 1e9) {
        return Err(Failure::bad("--max-seconds: must be above 0 and at most 1e9"));
    }
    if !(t_end.is_finite() && t_end > l.initial.t) {
        return Err(Failure::bad(format!("--t-end: must be after the initial time {}, found {t_end}", l.initial.t)));
    }
    let sample_at = match &args.sample_at {
        Some(text) => Some(parse_sample_times(text).map_err(|e| Failure::bad(format!("--sample-at: {e}")))?),
        None => None,
    };
    if let Some(times) = &sample_at {
        if times.windows(2).any(|w| w[1] < w[0]) || times[0] < l.initial.t {
            return Err(Failure::bad(format!(
                "--sample-at: times must be ascending and not before the initial time {}",
                l.initial.t
            )));
        }
        let last = times[times.len() - 1];
        if args.t_end.is_some_and(|t| last > t) {
            return Err(Failure::bad(format!(
                "--sample-at: the last time {last} is past --t-end {t_end}: the run ends at the last sample time"
            )));
        }
    }
    if let Some(plot) = &args.plot {
        if !(plot.ends_with(".svg") || plot.ends_with(".png")) {
            return Err(Failure::bad(format!("--plot: `{plot}` must end in .svg or .png")));
        }
    }
    if let Some(scene) = &args.scene {
        if !(scene.ends_with(".svg") || scene.ends_with(".png")) {
            return Err(Failure::bad(format!("--scene: `{scene}` must end in .svg or .png")));
        }
    }
    let frames = match &args.scene {
        Some(_) => Some(crate::scene::frame_times(args.frames.as_deref(), l.initial.t, t_end)?),
        None => None,
    };
    let format = args.format.unwrap_or(if args.out.ends_with(".json") { TableFormat::Json } else { TableFormat::Csv });
    let integrators: Vec<IntegratorKind> = if args.integrators.is_empty() {
        s.run.integrator_kinds()
    } else {
        let mut kinds = Vec::new();
        for id in &args.integrators {
            let kind = integrator(id)?;
            if !kinds.contains(&kind) {
                kinds.push(kind);
            }
        }
        kinds
    };
    if let Some(dt) = args.dt {
        if !(dt.is_finite() && dt > 0.0) {
            return Err(Failure::bad(format!("--dt: expected a positive number, found {dt}")));
        }
    }
    // Several integrators are an overlay: each run is named by its integrator too.
    let overlay = integrators.len() > 1;
    let numeric = compiled(&l, l.numeric.clone(), &methods, &integrators, computed, args.interpret);
    let mut view = View::new(&l.model).map_err(|e| Failure::bad(format!("view: {e}")))?;
    // Runs that failed (they could not start, or stopped on an error) and runs that
    // ended by design (Hamel's split turning singular): said after the output is
    // written, which holds every run that has samples.
    let mut failures: Vec<String> = Vec::new();
    let mut notes: Vec<String> = Vec::new();
    let hamel_dependent = l.model.hamel_dependent_names();
    let mut runs: Vec<RunOf> = Vec::new();
    let mut all_settings = Vec::new();
    // Every method with the scenario's values, then with each `[compare]` set's.
    let starts: Vec<(usize, Option<&str>, &[f64], &nhlab::simulation::State)> =
        std::iter::once((0, None, l.numeric.parameters.as_slice(), &l.initial))
            .chain(
                l.sets
                    .iter()
                    .enumerate()
                    .map(|(k, set)| (k + 1, Some(set.name.as_str()), set.parameters.as_slice(), &set.initial)),
            )
            .collect();
    // Each set's model, its contacts analysed once for all its methods' runs.
    let set_models: Vec<nhlab::mechanics::NumericModel> = starts
        .iter()
        .map(|&(_, _, parameters, initial)| {
            let mut numeric = numeric.clone();
            numeric.parameters.copy_from_slice(parameters);
            let stops = Settings::from_scenario(&s.run, Method::Lagrange).on_invalid == OnInvalid::Stop;
            if computed.contacts || stops {
                nhlab::simulation::prepare_contacts(&mut numeric, initial);
            }
            numeric
        })
        .collect();
    // The table is written as the runs go, a piece at a time: its columns are known
    // before any run, and a run's samples are freed once written (unless a figure
    // needs them), so a command holds one piece, not every run's samples.
    let table_columns = Columns::new(
        &l.model,
        columns,
        methods.contains(&Method::Vakonomic),
        starts.iter().any(|s| s.1.is_some()),
        overlay,
    );
    let comment = match (&sample_at, methods.first()) {
        (Some(_), _) => "samples at the requested times (dense output)".to_string(),
        (None, Some(&first)) => {
            let settings = Settings::from_scenario(&s.run, first);
            let comments: Vec<String> = integrators
                .iter()
                .map(|&integrator| {
                    step_comment(&Settings { integrator, dt: args.dt.unwrap_or(settings.dt), ..settings })
                })
                .collect();
            comments.join("; ")
        }
        (None, None) => String::new(),
    };
    let mut table = Stream::open(&args.out, "--out")?;
    table.write(&match format {
        TableFormat::Json => table_columns.json_opening(&comment),
        TableFormat::Csv => table_columns.csv_header(),
    })?;
    let mut rows_written = 0usize;
    let mut singular_split_at = None;
    // A figure holds every run's samples: all together at most MAX_HELD_VALUES numbers.
    let mut held_for_figure = 0usize;
    let row_width = table_columns.names.len();
    // One wall-clock bound for the whole command, whatever the scenario asks.
    let (started, bound) = (std::time::Instant::now(), std::time::Duration::from_secs_f64(args.max_seconds));
    let bound_hint = format!(
        " after {} s, the command's wall-clock bound (raise it with --max-seconds)",
        nhlab::math::Short(args.max_seconds)
    );
    let figure_hint = format!(
        " (a figure holds at most {MAX_HELD_VALUES} numbers over all its runs: write the table without --plot, or plot fewer methods or a shorter run)"
    );
    for (method, integrator_index, integrator) in nhlab::scenario::method_integrator_runs(&methods, &integrators) {
        let mut settings = Settings::from_scenario(&s.run, method);
        settings.integrator = integrator;
        settings.dt = args.dt.unwrap_or(settings.dt);
        settings.limits = Limits { max_steps: args.max_steps, max_samples: args.max_samples };
        settings.compulsion = args.plot.is_some();
        settings.diagnostics = computed;
        all_settings.push(settings);
        let under = if overlay { format!(" under {}", integrator.id()) } else { String::new() };
        for (&(set, set_name, parameters, initial), set_model) in starts.iter().zip(&set_models) {
            let numeric = set_model.clone();
            debug_assert_eq!(numeric.parameters, parameters);
            let who = match set_name {
                Some(name) => format!("{}{under} with the set {name}", method.id()),
                None => format!("{}{under}", method.id()),
            };
            if let Err(why) = nhlab::formulations::applicability(&l.model, method) {
                failures.push(format!("{who}: cannot run: {why}"));
                continue;
            }
            let mut run_settings = settings;
            let figure_cap = MAX_HELD_VALUES.saturating_sub(held_for_figure) / row_width.max(1);
            let capped = args.plot.is_some() && figure_cap < args.max_samples;
            if capped {
                run_settings.limits.max_samples = figure_cap.max(1);
            }
            let mut sim = match Simulation::new(numeric, run_settings, initial) {
                Ok(sim) => sim,
                Err(e) => {
                    failures.push(format!("{who}: cannot start: {e}"));
                    continue;
                }
            };
            // The start is sampled only when asked for.
            let from = match &sample_at {
                Some(times) if times.first() != Some(&initial.t) => 1,
                _ => 0,
            };
            let times = sample_at.as_deref().unwrap_or(&[]);
            let mut written = from;
            let result = loop {
                let mut out_of_time = false;
                let result = sim.advance_while(t_end, times, &mut |held| {
                    out_of_time = started.elapsed() >= bound;
                    !out_of_time && held < written + SAMPLES_PER_PIECE
                });
                let samples = SamplesOf::Stored { samples: sim.samples(), from: written };
                let piece = RunSamples { method, set: set_name, integrator: overlay.then(|| integrator.id()), samples };
                let mut text = String::new();
                let singular = table_columns.rows(&piece, |row| {
                    if format == TableFormat::Json {
                        text.push_str(if rows_written == 0 { "" } else { "," });
                        text.push_str(&json_row(&row));
                    } else {
                        text.push_str(&csv_line(&row));
                    }
                    rows_written += 1;
                });
                if let Some(t) = singular {
                    singular_split_at.get_or_insert(t);
                }
                table.write(&text)?;
                if args.plot.is_some() {
                    written = sim.samples().len();
                } else {
                    sim.release_samples();
                    written = 0;
                }
                match result {
                    Err(IntegrationError::Interrupted { .. }) if !out_of_time => continue,
                    result => break result,
                }
            };
            // A method that stops keeps the samples it reached.
            if let Err(e) = result {
                let hint = match e {
                    IntegrationError::Limit { what: "steps", .. } => " (raise it with --max-steps)",
                    IntegrationError::Limit { .. } if capped => &figure_hint,
                    IntegrationError::Limit { .. } => {
                        " (raise it with --max-samples, or thin a long run with --sample-at START:STOP:STEP)"
                    }
                    IntegrationError::Interrupted { .. } => &bound_hint,
                    _ => "",
                };
                match StopReason::of(&e, hamel_dependent.as_deref()) {
                    StopReason::EndedByDesign(message) => {
                        notes.push(format!("{who}: {}", nhlab_texts::i18n::message(&message)))
                    }
                    StopReason::Failed(_) => failures.push(format!("{who}: {e}{hint}")),
                }
            }
            notes.extend(validity_notes(&who, &sim));
            held_for_figure += sim.samples().len() * row_width;
            runs.push(RunOf {
                method,
                set,
                integrator_index,
                set_name: set_name.map(str::to_string),
                parameters: parameters.to_vec(),
                samples: sim.into_samples(),
                from,
            });
        }
    }
    if format == TableFormat::Json {
        table.write("]}\n")?;
    }
    table.finish()?;
    if let Some(t) = singular_split_at {
        crate::say!("warning: Hamel's split is singular from t = {t} on at some samples: their E columns are empty");
    }
    // A CSV file's provenance beside it (`sleigh.csv` → `sleigh.meta.json`): the CSV
    // itself is header and rows only, as CSV readers expect.
    if let (TableFormat::Csv, Some(stem)) = (format, args.out.strip_suffix(".csv")) {
        let header = Table { comment, columns: table_columns.names.clone(), rows: Vec::new(), singular_split_at: None };
        write_to(&format!("{stem}.meta.json"), "--out", &header.provenance_json(&s.title))?;
    }
    if let Some(plot) = &args.plot {
        let curves: Vec<crate::plot::Curves> = runs
            .iter()
            .map(|run| (run, run.samples.iter().skip(run.from).collect::<Vec<_>>()))
            .map(|(run, samples)| crate::plot::Curves {
                series: nhlab_plots::Series { method: run.method, set: run.set, integrator: run.integrator_index },
                label: {
                    let under =
                        if overlay { format!(" · {}", integrators[run.integrator_index].id()) } else { String::new() };
                    match &run.set_name {
                        Some(_) => format!(
                            "{}{under} · {}",
                            run.method.id(),
                            l.sets[run.set - 1].label(&l.model, &l.numeric.parameters)
                        ),
                        None => format!("{}{under}", run.method.id()),
                    }
                },
                view: view.values(&run.parameters, samples.iter().copied()),
                e_norm: samples
                    .iter()
                    .map(|x| x.e_vector.as_ref().map_or(f64::NAN, |e| e.iter().map(|v| v * v).sum::<f64>().sqrt()))
                    .collect(),
                samples,
            })
            .collect();
        let coordinates = l.model.coordinate_names();
        // The contacts as the scenario's own runs found them at their start (analysed once,
        // above): what the model determines of their forces.
        let contacts = set_models[0].contacts.as_ref().map_or(Vec::new(), |c| c.contacts().to_vec());
        let holonomic: Vec<bool> = l.model.constraints.iter().map(|c| c.is_holonomic()).collect();
        let axis_labels = view.axis_labels();
        let time_label = nhlab::view::axis_label("t", nhlab::view::unit_of(&s.units, "t").as_deref());
        let figure = crate::plot::Figure {
            title: &s.title,
            labels: &view.labels,
            axis_labels: &axis_labels,
            time_label: &time_label,
            spatial: view.labels.len() >= 2 && view.labels[..2].iter().all(|x| coordinates.contains(x)),
            holonomic: &holonomic,
            energy_conserved: nhlab::mechanics::energy_changes(&l.model).is_empty(),
            energy_function: nhlab::mechanics::energy_form(&l.model) == nhlab::mechanics::EnergyForm::EnergyFunction,
            contents: figure_contents(&l.model, &view.labels, &contacts, &curves),
            friction: &contacts.iter().map(|c| c.friction).collect::<Vec<_>>(),
        };
        crate::plot::write(plot, &figure, &curves)?;
    }
    if let (Some(path), Some(times)) = (&args.scene, &frames) {
        let mut player = ScenePlayer::new(&l.model).map_err(|e| Failure::bad(format!("scene: {e}")))?;
        let mut settings = all_settings.clone();
        settings.iter_mut().for_each(|st| st.compulsion = false);
        crate::scene::write(path, &s.title, &l.numeric, &l.initial, &settings, &mut player, times)?;
    }
    outcome(&notes, &mut failures, args.strict, runs.is_empty())
}

/// The exit of a run once everything that ran is written: ends by design are
/// notes (failures with `--strict`), each failure but the last is said here and the
/// last is the error (exit 1).
fn outcome(notes: &[String], failures: &mut Vec<String>, strict: bool, nothing_ran: bool) -> Result<(), Failure> {
    if strict {
        failures.extend(notes.iter().map(|n| format!("{n} (--strict)")));
    } else {
        for note in notes {
            crate::say!("note: {note}");
        }
    }
    let Some(last) = failures.pop() else { return Ok(()) };
    for failure in failures.iter() {
        crate::say!("error: {failure}");
    }
    let written = if nothing_ran { "no method ran" } else { "what ran was written" };
    Err(Failure::Compute(format!("{last} ({written})")))
}

/// One run's results: its method, its parameter set (0: the scenario's values;
/// `k`: the `k`-th of `[compare]`, named) with the values it ran with, its samples.
/// Samples in a piece of a run written out (and freed, without a figure) at once.
const SAMPLES_PER_PIECE: usize = 4096;

/// Numbers a figure's runs may hold together (their samples are kept for drawing).
const MAX_HELD_VALUES: usize = 25_000_000;

struct RunOf {
    method: Method,
    set: usize,
    /// Its integrator's place among the command's.
    integrator_index: usize,
    set_name: Option<String>,
    parameters: Vec<f64>,
    samples: nhlab::simulation::Samples,
    /// The first sample written (1: the start, when not asked for).
    from: usize,
}

/// What a figure of these runs shows (`nhlab_plots::run_panels`): the page's panels
/// of a run, the contact forces where the runs recorded them, and the compulsion.
fn figure_contents(
    model: &nhlab::mechanics::Model,
    labels: &[String],
    contacts: &[nhlab::mechanics::ContactInfo],
    curves: &[crate::plot::Curves<'_>],
) -> nhlab_plots::RunContents {
    let recorded = curves.iter().any(|c| c.samples.first().is_some_and(|s| !s.contact_forces.is_empty()));
    nhlab_plots::RunContents {
        scene: false,
        series: labels.len().saturating_sub(2),
        constraints: !model.constraints.is_empty(),
        normal_forces: recorded && contacts.iter().any(|c| c.determined[0]),
        friction: recorded && contacts.iter().any(|c| c.determined == [true, true]),
        e_vector: model.hamel.as_ref().is_ok_and(|h| !h.independent.is_empty()),
        compulsion: true,
    }
}

/// `--integrator`'s id as an integrator.
pub(super) fn integrator(id: &str) -> Result<IntegratorKind, Failure> {
    IntegratorKind::from_id(id).ok_or_else(|| {
        let ids = IntegratorKind::ALL.map(|k| k.id());
        Failure::bad(format!("--integrator: unknown integrator `{id}`: use one of {}", ids.join(", ")))
    })
}

/// `numeric` with its terms as machine code where they can be (unless `interpret`):
/// the structure-preserving integrators' terms, Lagrange's right-hand side (with the
/// samples' columns of `computed` when any is), the contact forces' terms; what cannot
/// be compiled is interpreted, and said.
pub(super) fn compiled(
    l: &Loaded,
    mut numeric: nhlab::mechanics::NumericModel,
    methods: &[Method],
    integrators: &[IntegratorKind],
    computed: Diagnostics,
    interpret: bool,
) -> nhlab::mechanics::NumericModel {
    if integrators.iter().any(|k| k.is_structure_preserving()) {
        numeric.prepare_structure_preserving(&l.model);
        if !interpret {
            if let Err(e) = nhlab_native::use_for_structure_preserving(&mut numeric) {
                crate::say!("note: {e}; the structure-preserving integrators' terms are interpreted");
            }
        }
    }
    // Machine code unless asked not to: the page computes the same bits (its wasm
    // kernel), so its CSV export equals this run's. The samples' columns are its
    // tail when any is computed.
    if !interpret && methods.contains(&Method::Lagrange) {
        let diagnostics = computed.energy || computed.residuals || computed.e_vector;
        match nhlab_native::use_for_lagrange(&l.model, &mut numeric, diagnostics) {
            Ok(true) => {}
            Ok(false) => crate::say!(
                "note: this model's right-hand side is too large to compile (a written-out solve over 4,000 or a \
                 program over 50,000 instructions); it is interpreted"
            ),
            Err(e) => crate::say!("note: {e}; the right-hand side is interpreted"),
        }
    }
    // The contact forces' terms (every method's, from its accelerations) likewise.
    if !interpret {
        if let Err(e) = nhlab_native::use_for_contacts(&mut numeric) {
            crate::say!("note: {e}; the contact forces' terms are interpreted");
        }
    }
    numeric
}

/// The spans where a run's contacts lifted off or slipped, in words (one note each).
fn validity_notes(who: &str, sim: &Simulation) -> Vec<String> {
    let Some(contacts) = sim.contacts() else { return Vec::new() };
    sim.validity_events()
        .iter()
        .map(|e| {
            let said = nhlab::simulation::describe_validity_message(e, &contacts[e.contact], f64::INFINITY);
            format!("{who}: {}", nhlab_texts::i18n::message(&said))
        })
        .collect()
}

/// `--columns`: `all`, `state`, or a list of `energy`, `residuals`, `e`, `contacts`.
fn parse_columns(list: &str) -> Result<Diagnostics, Failure> {
    let mut wanted = Diagnostics::NONE;
    for item in list.split(',').map(str::trim) {
        match item {
            "all" => wanted = Diagnostics::ALL,
            "state" => {}
            "energy" => wanted.energy = true,
            "residuals" => wanted.residuals = true,
            "e" => wanted.e_vector = true,
            "contacts" => wanted.contacts = true,
            other => {
                return Err(Failure::bad(format!(
                    "--columns: unknown column group `{other}` (use all, state, energy, residuals, e, contacts)"
                )))
            }
        }
    }
    Ok(wanted)
}
