//! Section 3d: `nhlab export`, and the exported code's speed.

use super::*;

/// Section 3d: `nhlab export`. Export time per gallery item (text to file: parse,
/// derive, compile the programs, write C), against the TOML parse alone; then the
/// exported C's right-hand side on the benchmark bicycle, compiled with
/// `cc -O2`, per call against the lab's own machine code in this process, with its
/// arithmetic counted from the file (the goal: ≤ 1.5 µs a call; PyDy's generated
/// Cython published 8.3 µs).
pub(super) fn exported_code(quick: bool) {
    use nhlab::code_export::{export, Language};
    println!("== 3d. code export: time per gallery item (goal: bicycle < 100 ms), and the exported C right-hand side");
    let reps = if quick { 3 } else { 10 };
    let sleigh = scenario("chaplygin-sleigh");
    let baseline = best(reps, &mut || {
        black_box(load_toml(black_box(&sleigh)).expect("parses"));
    });
    let build = |text: &str| {
        let (s, map) = load_toml(text).expect("loads");
        let model = Model::build_for(&s, &map, Needs::BASE.holding_inputs()).expect("valid");
        let mut numeric = NumericModel::new(&model).expect("compiles");
        let state = initial_state(&model, &mut numeric, &map).expect("initial state");
        (model, numeric, state)
    };
    for (name, text) in scenarios() {
        let mut bytes = 0;
        let t = best(reps, &mut || {
            let (model, mut numeric, state) = build(&text);
            let file = export(&model, &mut numeric, &state, Language::C, "model", "bench").expect("exports");
            bytes = file.len();
            black_box(file);
        });
        println!(
            "export_ms {name}: {:.1} ({} KiB of C; x{:.0} the TOML parse alone)",
            t * 1e3,
            bytes / 1024,
            t / baseline
        );
    }
    // The bicycle's exported right-hand side, timed by a C program of its own.
    let text = scenario("whipple-bicycle");
    let (model, mut numeric, state) = build(&text);
    let file = export(&model, &mut numeric, &state, Language::C, "bicycle", "bench").expect("exports");
    let rhs = file.split("int bicycle_rhs(").last().and_then(|s| s.split("\n}\n").next()).unwrap_or("");
    let lines: Vec<&str> = rhs.lines().filter(|l| l.trim_start().starts_with("const double")).collect();
    let count = |pattern: &str| lines.iter().filter(|l| l.contains(pattern)).count();
    let (adds, muls, divs) = (count(" + ") + count(" - "), count("*"), count("/"));
    let calls = lines.len() - adds - muls - divs;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/bench-export");
    std::fs::create_dir_all(&dir).expect("a directory");
    std::fs::write(dir.join("bicycle.c"), &file).expect("writes");
    let n = state.q.len();
    let calls_per_rep = if quick { 200_000 } else { 2_000_000 };
    let y: Vec<String> = state.q.iter().chain(&state.v).map(|x| format!("{x:e}")).collect();
    let main = format!(
        r#"#define _POSIX_C_SOURCE 199309L
#include "bicycle.c"
#include <stdio.h>
#include <time.h>
int main(void) {{
    bicycle_parameters p = bicycle_default_parameters();
    double y0[{s}] = {{ {y} }}, y[{s}], u[3] = {{0}}, dy[{s}], sink = 0.0, best = 1e30;
    for (int rep = 0; rep < 7; rep++) {{
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        for (long k = 0; k < {calls}; k++) {{
            for (int i = 0; i < {s}; i++) y[i] = y0[i] + 1e-3 * (double)(k % 64) * (i % 3);
            if (bicycle_rhs(0.0, y, u, &p, dy)) return 1;
            sink += dy[{n}];
        }}
        clock_gettime(CLOCK_MONOTONIC, &b);
        double ns = ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / {calls};
        if (ns < best) best = ns;
    }}
    printf("%.1f %g\n", best, sink);
    return 0;
}}
"#,
        s = 2 * n,
        y = y.join(", "),
        calls = calls_per_rep,
    );
    std::fs::write(dir.join("main.c"), main).expect("writes");
    let compiled = std::process::Command::new("cc")
        .args(["-std=c99", "-O2", "-o"])
        .arg(dir.join("rhs"))
        .arg(dir.join("main.c"))
        .arg("-lm")
        .status();
    let c_ns = match compiled {
        Ok(status) if status.success() => std::process::Command::new(dir.join("rhs")).output().ok().and_then(|o| {
            String::from_utf8_lossy(&o.stdout).split_whitespace().next().and_then(|x| x.parse::<f64>().ok())
        }),
        _ => None,
    };
    // The lab's machine code on the same states.
    let mut native = numeric.clone();
    assert!(nhlab_native::use_for_lagrange(&model, &mut native, true).expect("compiles"));
    let states: Vec<Vec<f64>> = (0..64)
        .map(|k| {
            let mut y: Vec<f64> = state.q.iter().chain(&state.v).copied().collect();
            for (i, x) in y.iter_mut().enumerate() {
                *x += 1e-3 * k as f64 * (i % 3) as f64;
            }
            y
        })
        .collect();
    let mut out = vec![0.0; n];
    let evals = calls_per_rep / 10;
    let native_s = best(reps, &mut || {
        for k in 0..evals {
            let y = &states[k % states.len()];
            black_box(
                lagrange_into(&mut native, 0.0, black_box(&y[..n]), black_box(&y[n..]), &mut out).expect("solves"),
            );
        }
    });
    let native_ns = native_s / evals as f64 * 1e9;
    match c_ns {
        Some(c_ns) => println!(
            "exported C rhs, bicycle: {c_ns:.0} ns a call (goal <= 1500; PyDy's Cython 8300), lab machine code {native_ns:.0} ns, \
             ratio_exported_vs_machine_code: {:.2}; arithmetic by hand-count: {} operations ({adds} add/sub, {muls} mul, {divs} div, \
             {calls} calls), {:.2} ns per operation",
            c_ns / native_ns,
            lines.len(),
            c_ns / lines.len() as f64
        ),
        None => println!("exported C rhs, bicycle: could not compile or run it with cc (lab machine code {native_ns:.0} ns)"),
    }
}
