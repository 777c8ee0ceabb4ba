//! `nhlab run FILE [--method M]… [--t-end T] [--sample-at …] [--out …] [--plot …]`.

use nhlab::export::{samples_table, step_comment};
use nhlab::formulations::Method;
use nhlab::simulation::{Settings, Simulation};
use nhlab::view::View;

use crate::args::RunArgs;
use crate::input::{load_file, method};
use crate::Failure;

pub fn run(args: &RunArgs) -> Result<(), Failure> {
    let l = load_file(&args.file)?;
    let s = &l.model.scenario;
    let ids: Vec<String> = if args.methods.is_empty() { s.run.method_ids() } else { args.methods.clone() };
    let methods = ids.iter().map(|id| method(id)).collect::<Result<Vec<Method>, _>>()?;
    let t_end = args.t_end.unwrap_or_else(|| s.run.t_end_or_default());
    if !(t_end.is_finite() && t_end > l.initial.t) {
        return Err(Failure::bad(format!("--t-end: must be after the initial time {}, found {t_end}", l.initial.t)));
    }
    if let Some(times) = &args.sample_at {
        if times.windows(2).any(|w| w[1] < w[0]) || times.iter().any(|t| !t.is_finite() || *t < l.initial.t) {
            return Err(Failure::bad("--sample-at: times must be finite, ascending and not before the initial time"));
        }
    }
    if let Some(plot) = &args.plot {
        if !(plot.ends_with(".svg") || plot.ends_with(".png")) {
            return Err(Failure::bad(format!("--plot: `{plot}` must end in .svg or .png")));
        }
    }
    if !(args.out == "-" || args.out.ends_with(".csv") || args.out.ends_with(".json")) {
        return Err(Failure::bad(format!("--out: `{}` must end in .csv or .json (or be -)", args.out)));
    }
    let mut view = View::new(&l.model).map_err(|e| Failure::bad(format!("view: {e}")))?;
    let mut failure: Option<String> = None;
    let mut runs: Vec<(Method, Vec<nhlab::simulation::Sample>)> = Vec::new();
    let mut first_settings = None;
    for &method in &methods {
        let settings = Settings::from_scenario(&s.run, method);
        first_settings.get_or_insert(settings);
        let mut sim = Simulation::new(l.numeric.clone(), settings, &l.initial)
            .map_err(|e| Failure::Compute(format!("{}: {e}", method.id())))?;
        let result = match &args.sample_at {
            Some(times) => sim.advance_sampling(times),
            None => sim.advance_to(t_end),
        };
        // A method that fails keeps the samples it reached; the error is reported
        // after the output is written (exit status 1).
        if let Err(e) = result {
            failure.get_or_insert(format!("{}: {e}", method.id()));
        }
        let samples = match &args.sample_at {
            // The start is sampled only when asked for.
            Some(times) if times.first() != Some(&l.initial.t) => &sim.samples()[1..],
            _ => sim.samples(),
        };
        runs.push((method, samples.to_vec()));
    }
    let comment = match (&args.sample_at, first_settings) {
        (Some(_), _) => "samples at the requested times (dense output)".to_string(),
        (None, Some(st)) => step_comment(&st),
        (None, None) => String::new(),
    };
    if let Some(plot) = &args.plot {
        let curves: Vec<crate::plot::Curves> = runs
            .iter()
            .map(|(method, samples)| crate::plot::Curves {
                method: *method,
                view: view.values(&l.numeric.parameters, samples),
                e_norm: samples
                    .iter()
                    .map(|x| x.e_vector.as_ref().map_or(f64::NAN, |e| e.iter().map(|v| v * v).sum::<f64>().sqrt()))
                    .collect(),
                samples: samples.clone(),
            })
            .collect();
        crate::plot::write(plot, &s.title, &view.labels, &curves)?;
    }
    let borrowed: Vec<(Method, &[nhlab::simulation::Sample])> = runs.iter().map(|(m, x)| (*m, x.as_slice())).collect();
    let table = samples_table(&l.model, &borrowed, comment);
    if let Some(t) = table.singular_split_at {
        eprintln!("warning: Hamel's split is singular from t = {t} on at some samples: their E columns are empty");
    }
    let text = if args.out.ends_with(".json") { table.to_json() } else { table.to_csv() };
    if args.out == "-" {
        print!("{text}");
    } else {
        std::fs::write(&args.out, text).map_err(|e| Failure::bad(format!("--out {}: {e}", args.out)))?;
    }
    match failure {
        Some(message) => Err(Failure::Compute(format!("{message} (the samples before it were written)"))),
        None => Ok(()),
    }
}
