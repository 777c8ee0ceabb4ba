//! The bicycle's stability map over its rear wheel's rate and its trail
//! (`nhlab linearize --sweep rear'=… --sweep c=…`), on one thread and on every core,
//! against its baseline measured in the same run: one linearisation at a time, as
//! many as the map has points. Prints seconds, points per second, and the ratios
//! `ratio_vs_single` (the map on one thread against the points' linearisations
//! alone: the boundaries' bisection and the bookkeeping on top) and
//! `speedup_threads` (one thread against all). `-- --quick`: 60 × 60 instead of
//! 200 × 200. Never asserts on time.

use std::hint::black_box;
use std::time::Instant;

use nhlab::mechanics::{Model, NumericModel};
use nhlab::scenario::load_toml;
use nhlab::stability::{Derivatives, Grid, MapAxis, Study, Swept};
use nhlab_cli::map::{compute, MapInputs};

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let n = if quick { 60 } else { 200 };
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios/whipple-bicycle.toml");
    let text = std::fs::read_to_string(path).expect("the bicycle");
    let (scenario, map) = load_toml(&text).expect("loads");
    let mut model = Model::build(&scenario, &map).expect("valid");
    let mut numeric = NumericModel::new(&model).expect("compiles");
    let mut derivatives = Derivatives::new(&model).expect("derivatives");
    // As the command line runs them: machine code (the derivatives and the model).
    let start = Instant::now();
    nhlab_native::use_for_derivatives(&mut derivatives).expect("compiles");
    nhlab_native::use_for_terms(&mut numeric).expect("compiles");
    let compile_s = start.elapsed().as_secs_f64();
    let spec = model.scenario.stability.clone().expect("a [stability] table");
    let mut study = Study::new(&model, &spec).expect("study");
    let c = model.parameters.iter().position(|p| p.name == "c").expect("a trail");
    let swept = [("rear'".to_string(), Swept::Velocity("rear'".into())), ("c".to_string(), Swept::Parameter(c))];
    let axis = |name: &str, from: f64, to: f64| MapAxis {
        name: name.into(),
        values: (0..n).map(|k| from + (to - from) * k as f64 / (n - 1) as f64).collect(),
    };
    let grid = Grid::new(vec![axis("rear'", 0.0, 33.3), axis("c", 0.0, 0.2)]).expect("a grid");
    let threads = std::thread::available_parallelism().map_or(1, |t| t.get());
    println!("== stability map, Whipple bicycle: {n} x {n} points over rear' and c; {threads} cores");

    let start = Instant::now();
    let saved = numeric.parameters.clone();
    for k in 0..grid.len() {
        let p = grid.point(k);
        let point = [(swept[0].0.as_str(), &swept[0].1, p[0]), (swept[1].0.as_str(), &swept[1].1, p[1])];
        black_box(study.at_point(&mut model, &mut numeric, &mut derivatives, &map, &point).expect("linearises"));
        numeric.parameters.clone_from(&saved);
    }
    let single_s = start.elapsed().as_secs_f64();

    let inputs = MapInputs {
        study: &study,
        model: &model,
        numeric: &numeric,
        derivatives: &derivatives,
        map: &map,
        swept: &swept,
    };
    let timed = |threads: usize| {
        let start = Instant::now();
        let m = compute(&inputs, grid.clone(), threads, 0..n).expect("a map");
        (start.elapsed().as_secs_f64(), m)
    };
    let (one_s, one) = timed(1);
    let (all_s, all) = timed(threads);
    assert!(one == all, "the map differs between one thread and {threads}");
    let points = grid.len() as f64;
    println!(
        "single linearisations: {single_s:.3} s ({:.1} us each); map on 1 thread: {one_s:.3} s ({:.0} points/s, {} boundaries); on {threads}: {all_s:.3} s ({:.0} points/s)",
        single_s / points * 1e6,
        points / one_s,
        one.boundaries.len(),
        points / all_s
    );
    println!("machine code for the map (derivatives and model, once): {compile_s:.3} s");
    println!("ratio_vs_single: {:.2}", one_s / single_s);
    println!("speedup_threads: {:.2}", one_s / all_s);
}
