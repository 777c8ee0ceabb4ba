//! `nhlab linearize FILE [--method M] [--at STATE] [--ignorable q,…] [--sweep
//! NAME=START:STOP:STEP] [--out FILE] [--format csv|json]`: eigenvalues of the
//! motion linearised about a state (`nhlab::stability`), and, over a sweep, the
//! values where the motion turns stable or unstable (bisection to 1e-12 of the
//! range).

use serde_json::{json, Value};

use nhlab::formulations::Method;
use nhlab::mechanics::Needs;
use nhlab::stability::{linearize, Derivatives, Linearization, Reference};

use crate::args::{LinearizeArgs, TableFormat};
use crate::commands::eval::state_at;
use crate::input::{load_file, method, Loaded};
use crate::output::write_to;
use crate::Failure;

/// Most values a sweep may take: a bound on the work a command line asks for.
const MAX_SWEEP_VALUES: usize = 10_000;

/// Most derivative expressions compiled (2n variables × the n² + n + mn + 2m terms):
/// the bicycle needs 1,952; past this a model is too large to linearise here.
const MAX_DERIVATIVES: usize = 200_000;

/// Most boundaries refined by bisection (each ~45 linearisations); past it they are
/// given to the sweep's step, with a warning.
const MAX_REFINED: usize = 64;

/// A real part counts as positive above this, relative to the largest eigenvalue:
/// the neutral modes of a conservative system are zero only to round-off.
const NEUTRAL: f64 = 1e-9;

/// What is swept: a parameter (by index) or a velocity (`x'`, set as with `--at`).
enum Swept {
    Parameter(usize),
    Velocity(String),
}

fn parse_sweep(l: &Loaded, text: &str) -> Result<(String, Swept, Vec<f64>), Failure> {
    let bad = |m: String| Failure::bad(format!("--sweep: {m}"));
    let (name, range) =
        text.split_once('=').ok_or_else(|| bad(format!("expected NAME=START:STOP:STEP, found `{text}`")))?;
    let name = name.trim();
    let parts: Vec<f64> = range
        .split(':')
        .map(|x| x.trim().parse::<f64>().map_err(|_| bad(format!("`{x}` is not a number"))))
        .collect::<Result<_, _>>()?;
    let [start, stop, step] = parts[..] else { return Err(bad("expected START:STOP:STEP".to_string())) };
    if !(start.is_finite() && stop.is_finite() && step.is_finite()) || step <= 0.0 || stop < start {
        return Err(bad("the range needs START ≤ STOP and STEP > 0, all finite".to_string()));
    }
    let count = ((stop - start) / step + 1e-9).floor() + 1.0;
    if count > MAX_SWEEP_VALUES as f64 {
        return Err(bad(format!("{count} values; at most {MAX_SWEEP_VALUES}")));
    }
    let values = (0..count as usize).map(|k| start + k as f64 * step).collect();
    let swept = if let Some(i) = l.model.parameters.iter().position(|p| p.name == name) {
        Swept::Parameter(i)
    } else if name.strip_suffix('\'').is_some_and(|q| l.model.scenario.coordinates.iter().any(|c| c == q)) {
        Swept::Velocity(name.to_string())
    } else {
        return Err(bad(format!("`{name}` is neither a parameter nor a velocity like x'")));
    };
    Ok((name.to_string(), swept, values))
}

/// The linearisation with `swept` at `value` (and `--at`).
fn at_value(
    l: &mut Loaded,
    derivatives: &mut Derivatives,
    args: &LinearizeArgs,
    ignorable: &[usize],
    sweep: Option<(&Swept, f64)>,
) -> Result<Linearization, Failure> {
    let mut at = args.at.clone().unwrap_or_default();
    match sweep {
        Some((Swept::Parameter(i), x)) => {
            l.numeric.parameters[*i] = x;
            let name = l.model.parameters[*i].name.clone();
            l.model.scenario.parameters.insert(name, x);
        }
        Some((Swept::Velocity(name), x)) => at = format!("{at},{name}={x}"),
        None => {}
    }
    let state = if at.trim().is_empty() { l.initial.clone() } else { state_at(l, &at)? };
    let reference = Reference { t: state.t, q: state.q.clone(), v: state.v.clone(), ignorable: ignorable.to_vec() };
    linearize(&l.model, &mut l.numeric, derivatives, &reference).map_err(|e| Failure::Compute(e.to_string()))
}

/// The largest real part beyond the neutral band, as a signed distance: positive
/// where the motion is unstable.
fn growth(l: &Linearization) -> f64 {
    largest_real_part(l) - NEUTRAL * scale(l)
}

fn largest_real_part(l: &Linearization) -> f64 {
    l.eigenvalues.iter().map(|e| e.re).fold(f64::MIN, f64::max)
}

fn scale(l: &Linearization) -> f64 {
    l.eigenvalues.iter().map(|e| e.norm()).fold(1.0, f64::max)
}

pub fn run(args: &LinearizeArgs) -> Result<(), Failure> {
    let m = method(&args.method)?;
    if !matches!(m, Method::Lagrange | Method::UdwadiaKalaba | Method::Gauss | Method::Euler) {
        return Err(Failure::bad(format!(
            "--method {}: linearize supports lagrange and the ideal formulations that equal it (udwadia-kalaba, gauss, euler)",
            m.id()
        )));
    }
    let mut l = load_file(&args.file, |_| Needs::for_methods(&[Method::Lagrange], false))?;
    if m == Method::Euler && !l.model.constraints_are_linear() {
        return Err(Failure::bad("--method euler: its equations differ from lagrange's on nonlinear constraints, and linearize supports lagrange's"));
    }
    let mut ignorable = Vec::new();
    for name in args.ignorable.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let i = l
            .model
            .scenario
            .coordinates
            .iter()
            .position(|c| c == name)
            .ok_or_else(|| Failure::bad(format!("--ignorable: `{name}` is not a coordinate")))?;
        ignorable.push(i);
    }
    let (n, m_count) = (l.model.coordinate_count(), l.model.constraints.len());
    let count = 2 * n * (n * n + n + m_count * n + 2 * m_count);
    if count > MAX_DERIVATIVES {
        return Err(Failure::bad(format!(
            "{n} coordinates and {m_count} constraints need {count} derivatives; linearize takes at most {MAX_DERIVATIVES} (about 45 coordinates)"
        )));
    }
    let mut derivatives = Derivatives::new(&l.model).map_err(|e| Failure::Compute(e.to_string()))?;
    let sweep = args.sweep.as_deref().map(|s| parse_sweep(&l, s)).transpose()?;
    let mut rows = Vec::new();
    let mut boundaries = Vec::new();
    let mut first: Option<Linearization> = None;
    match &sweep {
        None => {
            let lin = at_value(&mut l, &mut derivatives, args, &ignorable, None)?;
            rows.push((None, lin.clone()));
            first = Some(lin);
        }
        Some((_, swept, values)) => {
            let mut previous: Option<(f64, f64, f64)> = None;
            for &x in values {
                let lin = at_value(&mut l, &mut derivatives, args, &ignorable, Some((swept, x)))?;
                let g = growth(&lin);
                if let Some((px, pg, stable_side)) = previous.take() {
                    if (pg > 0.0) != (g > 0.0) {
                        // Where the stable side has no neutral mode (every real part
                        // clearly negative), the crossing is of the largest real part
                        // itself, found without the band's offset; else of the band.
                        let stable = if g > 0.0 { stable_side } else { largest_real_part(&lin) / scale(&lin) };
                        let raw = stable < -10.0 * NEUTRAL;
                        let sign =
                            |lin: &Linearization| if raw { largest_real_part(lin) > 0.0 } else { growth(lin) > 0.0 };
                        let (mut lo, mut hi) = (px, x);
                        let tolerance = 1e-12 * (values[values.len() - 1] - values[0]).abs().max(1e-300);
                        if boundaries.len() == MAX_REFINED {
                            eprintln!(
                                "warning: more than {MAX_REFINED} boundaries; the rest are given to the sweep's step"
                            );
                        }
                        while hi - lo > tolerance && boundaries.len() < MAX_REFINED {
                            let mid = (lo + hi) / 2.0;
                            let lm = at_value(&mut l, &mut derivatives, args, &ignorable, Some((swept, mid)))?;
                            if sign(&lm) == (pg > 0.0) {
                                lo = mid
                            } else {
                                hi = mid
                            }
                        }
                        let to = if g > 0.0 { "unstable" } else { "stable" };
                        boundaries.push(((lo + hi) / 2.0, to));
                    }
                }
                previous = Some((x, g, largest_real_part(&lin) / scale(&lin)));
                first.get_or_insert_with(|| lin.clone());
                rows.push((Some(x), lin));
            }
        }
    }
    let first = first.expect("at least one value");
    for (x, lin) in &rows {
        if lin.residual > 1e-8 {
            let at = x.map(|x| format!(" at {x}")).unwrap_or_default();
            eprintln!("warning: the reference is not a steady motion{at}: largest |q̈| of the coordinates that are not ignorable is {:e}", lin.residual);
        }
    }
    let name = sweep.as_ref().map(|(n, _, _)| n.clone());
    let format = args.format.unwrap_or(if args.out.ends_with(".csv") { TableFormat::Csv } else { TableFormat::Json });
    let text = match format {
        TableFormat::Json => {
            let rows: Vec<Value> = rows
                .iter()
                .map(|(x, lin)| {
                    let eig: Vec<Value> = lin.eigenvalues.iter().map(|e| json!([e.re, e.im])).collect();
                    let mut row = json!({"eigenvalues": eig, "residual": lin.residual});
                    if let Some(x) = x {
                        row["value"] = json!(x);
                    }
                    if sweep.is_none() {
                        let matrix: Vec<Value> = (0..lin.matrix.nrows())
                            .map(|r| json!(lin.matrix.row(r).iter().collect::<Vec<_>>()))
                            .collect();
                        row["matrix"] = json!(matrix);
                    }
                    row
                })
                .collect();
            let boundaries: Vec<Value> = boundaries.iter().map(|(x, to)| json!({"value": x, "becomes": to})).collect();
            let out = json!({
                "method": m.id(),
                "state": first.state,
                "dependent_coordinates": first.dependent_coordinates,
                "dependent_speeds": first.dependent_speeds,
                "held_speeds": first.held_speeds,
                "sweep": name,
                "rows": rows,
                "boundaries": boundaries,
            });
            let mut text = serde_json::to_string_pretty(&out).map_err(|e| Failure::Compute(e.to_string()))?;
            text.push('\n');
            text
        }
        TableFormat::Csv => {
            let k = first.eigenvalues.len();
            let mut header = vec![name.clone().unwrap_or_else(|| "value".into())];
            for i in 1..=k {
                header.push(format!("re{i}"));
                header.push(format!("im{i}"));
            }
            let mut text = header.join(",") + "\n";
            for (x, lin) in &rows {
                let mut cells = vec![x.map(|x| x.to_string()).unwrap_or_default()];
                for e in &lin.eigenvalues {
                    cells.push(e.re.to_string());
                    cells.push(e.im.to_string());
                }
                text += &(cells.join(",") + "\n");
            }
            for (x, to) in &boundaries {
                eprintln!("boundary: {} = {x} (becomes {to})", name.as_deref().unwrap_or("value"));
            }
            text
        }
    };
    if rows.iter().flat_map(|(_, lin)| &lin.eigenvalues).any(|e| !e.re.is_finite() || !e.im.is_finite()) {
        return Err(Failure::Compute("an eigenvalue is not finite".into()));
    }
    write_to(&args.out, "--out", &text)
}
