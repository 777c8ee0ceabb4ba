//! `nhlab linearize --sweep A=… --sweep B=… [--sweep C=…] [--threads N]`: a stability
//! map over the grid of the swept values, on every core (`crate::map`). CSV: one row
//! per point (the last axis fastest): the values, the largest real part, whether
//! stable, then `re`, `im` of each eigenvalue. JSON: the axes, and the largest real
//! parts, stability and eigenvalues nested by axis. Boundaries between neighbouring
//! points of opposite stability are refined by bisection along the axis they cross.

use serde_json::{json, Value};

use nhlab::stability::{Derivatives, Grid, MapAxis, StabilityMap, Study, Swept, MAX_AXES};

use super::linearize::{blame, parse_sweep};
use crate::args::{LinearizeArgs, TableFormat};
use crate::input::Loaded;
use crate::map::{compute, MapInputs};
use crate::output::write_to;
use crate::Failure;

/// The map the flags ask for, written where they say.
pub fn run(args: &LinearizeArgs, l: &mut Loaded, study: &mut Study, derivatives: &Derivatives) -> Result<(), Failure> {
    if args.eigenvectors || args.state_space {
        return Err(Failure::bad("--eigenvectors and --state-space are for one linearisation, not a map"));
    }
    if args.sweep.len() > MAX_AXES {
        return Err(Failure::bad(format!("--sweep: a map has 1 to {MAX_AXES} axes, not {}", args.sweep.len())));
    }
    let mut swept = Vec::new();
    let mut axes = Vec::new();
    for text in &args.sweep {
        let spec = parse_sweep(text)?;
        let (name, what, values) = Study::swept(&l.model, &spec).map_err(|e| Failure::bad(blame(&e, args)))?;
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
    let threads = args.threads.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if threads == 0 {
        return Err(Failure::bad("--threads: at least 1"));
    }
    let mut map = {
        let inputs = MapInputs { study, model: &l.model, numeric: &l.numeric, derivatives, map: &l.map, swept: &swept };
        compute(&inputs, grid.clone(), threads).map_err(|e| Failure::Compute(e.to_string()))?
    };
    // A speed held at some points only is kept at all of them: one state everywhere.
    if let Some(held) = map.held_everywhere() {
        let names = &l.model.scenario.coordinates;
        study.hold =
            Some(study.ignorable.iter().copied().filter(|&i| held.contains(&format!("{}'", names[i]))).collect());
        let inputs = MapInputs { study, model: &l.model, numeric: &l.numeric, derivatives, map: &l.map, swept: &swept };
        map = compute(&inputs, grid, threads).map_err(|e| Failure::Compute(e.to_string()))?;
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
    for (k, p) in map.points.iter().enumerate() {
        let mut cells: Vec<String> = map.grid.point(k).iter().map(|x| format!("{x:?}")).collect();
        cells.push(format!("{:?}", p.max_real));
        cells.push(p.stable.to_string());
        for e in &p.eigenvalues {
            cells.extend([format!("{:?}", e.re), format!("{:?}", e.im)]);
        }
        text += &(cells.join(",") + "\n");
    }
    text
}

/// `values` nested by the grid's axes (the last innermost).
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
    level(&map.grid.shape(), 0, &value)
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
