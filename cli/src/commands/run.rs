//! `nhlab run FILE [--method M]… [--t-end T] [--sample-at …] [--out …] [--plot …]`.

use nhlab::formulations::Method;
use nhlab::simulation::{Settings, Simulation};

use crate::args::RunArgs;
use crate::input::{load_file, method};
use crate::output::{Cell, Table};
use crate::Failure;

pub fn run(args: &RunArgs) -> Result<(), Failure> {
    let l = load_file(&args.file)?;
    let s = &l.model.scenario;
    let ids: Vec<String> = if args.methods.is_empty() {
        s.run.methods.clone().unwrap_or_else(|| vec!["lagrange".to_string()])
    } else {
        args.methods.clone()
    };
    let methods = ids.iter().map(|id| method(id)).collect::<Result<Vec<Method>, _>>()?;
    let t_end = args.t_end.or(s.run.t_end).unwrap_or(10.0);
    if !(t_end.is_finite() && t_end > l.initial.t) {
        return Err(Failure::bad(format!("--t-end: must be after the initial time {}, found {t_end}", l.initial.t)));
    }
    if let Some(times) = &args.sample_at {
        if times.windows(2).any(|w| w[1] < w[0]) || times.iter().any(|t| !t.is_finite() || *t < l.initial.t) {
            return Err(Failure::bad("--sample-at: times must be finite, ascending and not before the initial time"));
        }
    }
    if let Some(plot) = &args.plot {
        return Err(Failure::bad(format!("--plot {plot}: figures are not available yet in this version")));
    }
    if !(args.out == "-" || args.out.ends_with(".csv") || args.out.ends_with(".json")) {
        return Err(Failure::bad(format!("--out: `{}` must end in .csv or .json (or be -)", args.out)));
    }
    let names = l.model.coordinate_names();
    let mut columns = vec!["method".to_string(), "t".to_string()];
    columns.extend(names.iter().cloned());
    columns.extend(names.iter().map(|q| format!("{q}'")));
    let vakonomic = methods.contains(&Method::Vakonomic);
    let m = l.model.constraints.len();
    if vakonomic {
        columns.extend((1..=m).map(|k| format!("mu{k}")));
    }
    columns.push("energy".into());
    columns.extend(l.model.constraints.iter().map(|c| format!("res_{}", c.name.trim_start_matches('#'))));
    let mut rows = Vec::new();
    let mut integrators = Vec::new();
    for &method in &methods {
        let settings = Settings::from_scenario(&s.run, method);
        integrators.push(settings);
        let mut sim = Simulation::new(l.numeric.clone(), settings, &l.initial)
            .map_err(|e| Failure::Compute(format!("{}: {e}", method.id())))?;
        let result = match &args.sample_at {
            Some(times) => sim.advance_sampling(times),
            None => sim.advance_to(t_end),
        };
        result.map_err(|e| Failure::Compute(format!("{}: {e}", method.id())))?;
        let samples = match &args.sample_at {
            // The start is sampled only when asked for.
            Some(times) if times.first() != Some(&l.initial.t) => &sim.samples()[1..],
            _ => sim.samples(),
        };
        for sample in samples {
            let mut row = vec![Cell::Text(method.id().into()), Cell::Number(sample.t)];
            row.extend(sample.q.iter().chain(&sample.v).map(|&x| Cell::Number(x)));
            if vakonomic {
                row.extend((0..m).map(|_| Cell::Empty));
            }
            row.push(Cell::Number(sample.energy));
            row.extend(sample.residuals.iter().map(|&x| Cell::Number(x)));
            rows.push(row);
        }
    }
    let comment = match (&args.sample_at, integrators.first()) {
        (Some(_), _) => "samples at the requested times (dense output)".to_string(),
        (None, Some(st)) => match st.integrator {
            nhlab::integrators::IntegratorKind::Rk4 => format!("samples on a regular grid: rk4 with dt = {}", st.dt),
            nhlab::integrators::IntegratorKind::Dopri5 => {
                format!("samples at the accepted steps of dopri5 (rtol = {}, atol = {})", st.rtol, st.atol)
            }
        },
        (None, None) => String::new(),
    };
    let table = Table { comment, columns, rows };
    let text = if args.out.ends_with(".json") { table.to_json() } else { table.to_csv() };
    if args.out == "-" {
        print!("{text}");
    } else {
        std::fs::write(&args.out, text).map_err(|e| Failure::bad(format!("--out {}: {e}", args.out)))?;
    }
    Ok(())
}
