//! `nhlab linearize --sweep A=… --sweep B=… [--sweep C=…] [--threads N]`: a stability
//! map over the grid of the swept values, on every core (`crate::map`). CSV: one row
//! per point (the last axis fastest): the values, the largest real part, whether
//! stable, then `re`, `im` of each eigenvalue. JSON: the axes, and the largest real
//! parts, stability and eigenvalues nested by axis. Boundaries between neighbouring
//! points of opposite stability are refined by bisection along the axis they cross.

use serde_json::{json, Value};

use nhlab::stability::{Grid, MapAxis, StabilityMap, Study, Swept, MAX_AXES};

use super::linearize::{blame, parse_sweep};
use super::prepared_map::PreparedMap;
use crate::args::{LinearizeArgs, TableFormat};
use crate::map::{compute, MapInputs};
use crate::output::write_to;
use crate::Failure;

/// Points from which a map's derivatives are compiled to machine code.
const NATIVE_FROM_POINTS: usize = 2_000;

/// The map the flags ask for, of the model `prepared` (compiled to machine code
/// there, once, for a map of [`NATIVE_FROM_POINTS`] or more), written where they say.
pub fn run(args: &LinearizeArgs, prepared: &mut PreparedMap) -> Result<(), Failure> {
    if args.eigenvectors || args.state_space {
        return Err(Failure::bad("--eigenvectors and --state-space are for one linearisation, not a map"));
    }
    if args.sweep.len() > MAX_AXES {
        return Err(Failure::bad(format!("--sweep: a map has 1 to {MAX_AXES} axes, not {}", args.sweep.len())));
    }
    let mut swept = Vec::new();
    let mut axes = Vec::new();
    for text in &args.sweep {
        let (name, values) = axis_values(text)?;
        let what = Study::quantity(&prepared.loaded.model, &name).map_err(|e| Failure::bad(blame(&e, args)))?;
        if swept.iter().any(|(n, _): &(String, Swept)| *n == name) {
            return Err(Failure::bad(format!("--sweep: `{name}` is swept twice")));
        }
        axes.push(MapAxis { name: name.clone(), values });
        swept.push((name, what));
    }
    let grid = Grid::new(axes).map_err(|e| Failure::bad(format!("--sweep: {e}")))?;
    if args.plot.is_some() && grid.axes.len() != 2 {
        return Err(Failure::bad("--plot: a map is drawn over two axes"));
    }
    let rows = match &args.rows {
        None => 0..grid.axes[0].values.len(),
        Some(text) => row_range(text, grid.axes[0].values.len())?,
    };
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads == 0 {
        return Err(Failure::bad("--threads: at least 1"));
    }
    // A map's derivatives, model and constraints as machine code: the same bits as
    // the interpreter's (the native code calls the core's own functions), each
    // point about twice as fast, for a compilation of about 0.1 s (the bicycle's),
    // which a map of a few hundred points does not earn back.
    if rows.len() * grid.row_len() >= NATIVE_FROM_POINTS {
        if !prepared.native {
            prepared.native = true;
            if let Err(e) = nhlab_native::use_for_terms(&mut prepared.loaded.numeric) {
                prepared.notes.push(format!("note: {e}; the model is interpreted"));
            }
            let mut compiled = prepared.derivatives.clone();
            match nhlab_native::use_for_derivatives(&mut compiled) {
                Ok(()) => prepared.derivatives = compiled,
                Err(e) => prepared.notes.push(format!("note: {e}; the derivatives are interpreted")),
            }
        }
        for note in &prepared.notes {
            crate::say!("{note}");
        }
    }
    let PreparedMap { loaded: l, derivatives, .. } = &*prepared;
    let study = &mut prepared.study.clone();
    let mut map = {
        let inputs = MapInputs { study, model: &l.model, numeric: &l.numeric, derivatives, map: &l.map, swept: &swept };
        compute(&inputs, grid.clone(), threads, rows.clone()).map_err(|e| Failure::Compute(e.to_string()))?
    };
    // A speed held at some points only is kept at all of them: one state everywhere.
    if let Some(held) = map.held_everywhere() {
        study.hold_only(&l.model, |speed| held.iter().any(|h| h == speed));
        let inputs = MapInputs { study, model: &l.model, numeric: &l.numeric, derivatives, map: &l.map, swept: &swept };
        map = compute(&inputs, grid, threads, rows).map_err(|e| Failure::Compute(e.to_string()))?;
    }
    if map.points.iter().flat_map(|p| &p.eigenvalues).any(|e| !e.re.is_finite() || !e.im.is_finite()) {
        return Err(Failure::Compute("an eigenvalue is not finite".into()));
    }
    let format = args.format.unwrap_or(if args.out.ends_with(".csv") { TableFormat::Csv } else { TableFormat::Json });
    let text = match format {
        TableFormat::Csv => {
            for b in &map.boundaries {
                crate::say!("boundary: {}", boundary_text(&map, b));
            }
            csv_text(&map)
        }
        TableFormat::Json => json_text(study, &map)?,
    };
    if let Some(plot) = &args.plot {
        let title = format!("{}: stability over {} and {}", l.model.scenario.title, swept[0].0, swept[1].0);
        crate::plot::write_stability_map(plot, &title, &map)?;
    }
    write_to(&args.out, "--out", &text)
}

/// A map's `--sweep`: `NAME=START:STOP:STEP`, or `NAME=V1,V2,…` (finite, increasing:
/// the values Python's `stability_map` passes, each written to read back to its bits).
fn axis_values(text: &str) -> Result<(String, Vec<f64>), Failure> {
    let Some((name, list)) = text.split_once('=').filter(|(_, list)| list.contains(',')) else {
        let spec = parse_sweep(text)?;
        let values = spec.values().map_err(|e| Failure::bad(format!("--sweep: {e}")))?;
        return Ok((spec.over, values));
    };
    let bad = |m: String| Failure::bad(format!("--sweep: {m}"));
    let values: Vec<f64> = list
        .split(',')
        .map(|x| {
            x.trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| bad(format!("`{x}` is not a finite number")))
        })
        .collect::<Result<_, _>>()?;
    if values.windows(2).any(|w| w[1] <= w[0]) {
        return Err(bad(format!("the values of `{}` must increase", name.trim())));
    }
    Ok((name.trim().to_string(), values))
}

/// `--rows I:J` within a first axis of `n` values.
fn row_range(text: &str, n: usize) -> Result<std::ops::Range<usize>, Failure> {
    let bad =
        || Failure::bad(format!("--rows: expected I:J with 0 ≤ I < J ≤ {n} (the first axis' values), found `{text}`"));
    let (i, j) = text.split_once(':').ok_or_else(bad)?;
    let (i, j) = (i.trim().parse::<usize>().map_err(|_| bad())?, j.trim().parse::<usize>().map_err(|_| bad())?);
    if i >= j || j > n {
        return Err(bad());
    }
    Ok(i..j)
}

/// `rear' = 14.31 at c = 0.08 (becomes stable)`.
fn boundary_text(map: &StabilityMap, b: &nhlab::stability::MapBoundary) -> String {
    let axes = &map.grid.axes;
    let at = map.grid.point(b.from);
    let others: Vec<String> =
        (0..axes.len()).filter(|&k| k != b.axis).map(|k| format!("{} = {:?}", axes[k].name, at[k])).collect();
    let to = if b.becomes_stable { "stable" } else { "unstable" };
    format!("{} = {:?} at {} (becomes {to})", axes[b.axis].name, b.value, others.join(", "))
}

/// One row per point: the values, `max_real`, `stable`, then `re`, `im` of each
/// eigenvalue (numbers as `run` writes them: the shortest text that reads back).
fn csv_text(map: &StabilityMap) -> String {
    let count = map.points.iter().map(|p| p.eigenvalues.len()).max().unwrap_or(0);
    let mut header: Vec<String> = map.grid.axes.iter().map(|a| a.name.clone()).collect();
    header.extend(["max_real".into(), "stable".into()]);
    for i in 1..=count {
        header.extend([format!("re{i}"), format!("im{i}")]);
    }
    let mut text = header.join(",") + "\n";
    let base = map.rows.start * map.grid.row_len();
    for (k, p) in map.points.iter().enumerate() {
        let mut cells: Vec<String> = map.grid.point(base + k).iter().map(|x| format!("{x:?}")).collect();
        cells.push(format!("{:?}", p.max_real));
        cells.push(p.stable.to_string());
        for e in &p.eigenvalues {
            cells.extend([format!("{:?}", e.re), format!("{:?}", e.im)]);
        }
        text += &(cells.join(",") + "\n");
    }
    text
}

/// `values` nested by the grid's axes (the last innermost; the first only over the
/// rows computed).
fn nested(map: &StabilityMap, value: impl Fn(usize) -> Value) -> Value {
    fn level(shape: &[usize], offset: usize, value: &dyn Fn(usize) -> Value) -> Value {
        match shape {
            [] => value(offset),
            [n, rest @ ..] => {
                let stride: usize = rest.iter().product();
                Value::Array((0..*n).map(|i| level(rest, offset + i * stride, value)).collect())
            }
        }
    }
    let mut shape = map.grid.shape();
    shape[0] = map.rows.len();
    level(&shape, 0, &value)
}

fn json_text(study: &Study, map: &StabilityMap) -> Result<String, Failure> {
    let axes: Vec<Value> = map.grid.axes.iter().map(|a| json!({"name": a.name, "values": a.values})).collect();
    let boundaries: Vec<Value> = map
        .boundaries
        .iter()
        .map(|b| {
            let mut at: serde_json::Map<String, Value> =
                map.grid.axes.iter().zip(map.grid.point(b.from)).map(|(a, x)| (a.name.clone(), json!(x))).collect();
            at.insert(map.grid.axes[b.axis].name.clone(), json!(b.value));
            json!({"axis": map.grid.axes[b.axis].name, "at": at,
                "becomes": if b.becomes_stable { "stable" } else { "unstable" }, "refined": b.refined})
        })
        .collect();
    let at: serde_json::Map<String, Value> = study.at.iter().map(|(k, v)| (k.clone(), json!(v))).collect();
    let out = json!({
        "method": study.method.id(),
        "at": at,
        "axes": axes,
        "rows": [map.rows.start, map.rows.end],
        "max_real": nested(map, |k| json!(map.points[k].max_real)),
        "stable": nested(map, |k| json!(map.points[k].stable)),
        "eigenvalues": nested(map, |k| json!(map.points[k].eigenvalues.iter().map(|e| [e.re, e.im]).collect::<Vec<_>>())),
        "held_speeds": map.points.first().map(|p| p.held_speeds.clone()).unwrap_or_default(),
        "boundaries": boundaries,
    });
    let mut text = serde_json::to_string_pretty(&out).map_err(|e| Failure::Compute(e.to_string()))?;
    text.push('\n');
    Ok(text)
}
