//! Expression-engine benchmark: the Chaplygin sleigh's mass matrix and forcing,
//! derived symbolically and evaluated by the compiled interpreter, against a
//! hand-written Rust function computing the same numbers in the same run.
//!
//! `cargo bench -p nhlab --bench expr` (add `-- --quick` for the short CI variant,
//! `-- --print` to show the derived equations). Prints `derive_ms`, `compile_ms`,
//! `eval_ns_interpreter`, `eval_ns_handwritten` and `ratio_vs_handwritten`.

mod common;

use std::hint::black_box;

use common::best;

use nhlab::expr::{ExprGraph, ExprId, Program, SymbolId};

const KINETIC: &str = "m/2*((x' - a*phi'*sin(phi))^2 + (y' + a*phi'*cos(phi))^2) + I/2*phi'^2";

/// The sleigh's `M` (row-major 3×3) and `F`, compiled; inputs `x y φ x' y' φ' m a I`.
struct Derived {
    graph: ExprGraph,
    mass: Vec<ExprId>,
    forcing: Vec<ExprId>,
    inputs: Vec<SymbolId>,
}

fn derive() -> Derived {
    let mut g = ExprGraph::new();
    for q in ["x", "y", "phi"] {
        g.declare_coordinate(q).expect("coordinate");
    }
    for p in ["m", "a", "I"] {
        g.declare_parameter(p).expect("parameter");
    }
    let t = g.parse(KINETIC).expect("kinetic energy parses");
    let q: Vec<SymbolId> = (0..3).map(|i| g.coordinate(i)[0]).collect();
    let v: Vec<SymbolId> = (0..3).map(|i| g.coordinate(i)[1]).collect();
    let p: Vec<ExprId> = v.iter().map(|&vi| g.diff(t, vi)).collect();
    let mut mass = Vec::new();
    for &pi in &p {
        for &vj in &v {
            let m = g.diff(pi, vj);
            mass.push(g.expand(m));
        }
    }
    let mut forcing = Vec::new();
    for i in 0..3 {
        let mut terms = vec![g.diff(t, q[i])];
        for j in 0..3 {
            let dp = g.diff(p[i], q[j]);
            let vj = g.symbol_expr(v[j]);
            let term = g.mul2(dp, vj);
            terms.push(g.neg(term));
        }
        let f = g.add(&terms);
        forcing.push(g.expand(f));
    }
    let mut inputs: Vec<SymbolId> = q.iter().chain(&v).copied().collect();
    inputs.extend(["m", "a", "I"].map(|n| g.lookup_symbol(n).expect("parameter")));
    Derived { graph: g, mass, forcing, inputs }
}

fn compile(d: &Derived) -> Program {
    let outputs: Vec<ExprId> = d.mass.iter().chain(&d.forcing).copied().collect();
    d.graph.compile(&outputs, &d.inputs).expect("compiles")
}

/// The same numbers by hand: `M` then `F`.
#[inline(never)]
fn handwritten(s: &[f64; 9], out: &mut [f64; 12]) {
    let [_, _, phi, _, _, w, m, a, inertia] = *s;
    let (sn, cs) = phi.sin_cos();
    let mas = m * a * sn;
    let mac = m * a * cs;
    *out = [m, 0.0, -mas, 0.0, m, mac, -mas, mac, inertia + m * a * a, mac * w * w, mas * w * w, 0.0];
}

fn states(n: usize) -> Vec<[f64; 9]> {
    (0..n)
        .map(|k| {
            let s = k as f64 * 0.37;
            [s.sin(), s.cos(), 0.1 * s, 1.0 + 0.3 * s.cos(), -0.5 * s.sin(), 0.7 + 0.1 * s, 1.3, 0.4, 0.21]
        })
        .collect()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let quick = args.iter().any(|a| a == "--quick");
    let (derive_reps, eval_reps) = if quick { (20, 20) } else { (200, 400) };

    let d = derive();
    if args.iter().any(|a| a == "--print") {
        for (k, &e) in d.mass.iter().enumerate() {
            println!("M[{}][{}] = {}", k / 3, k % 3, d.graph.to_text(e));
        }
        for (k, &e) in d.forcing.iter().enumerate() {
            println!("F[{k}] = {}", d.graph.to_text(e));
        }
    }
    let program = compile(&d);

    // Correctness first: the compiled numbers equal the hand-written ones.
    let xs = states(1000);
    let mut evaluator = program.evaluator();
    let (mut got, mut want) = ([0.0; 12], [0.0; 12]);
    for s in &xs {
        evaluator.eval(s, &mut got).expect("shape");
        handwritten(s, &mut want);
        for k in 0..12 {
            assert!((got[k] - want[k]).abs() <= 1e-12 * (1.0 + want[k].abs()), "output {k}: {} vs {}", got[k], want[k]);
        }
    }

    let derive_s = best(derive_reps, &mut || {
        black_box(derive());
    });
    let compile_s = best(derive_reps, &mut || {
        black_box(compile(&d));
    });
    let mut sink = 0.0;
    let interp_s = best(eval_reps, &mut || {
        for s in &xs {
            evaluator.eval(black_box(s), &mut got).expect("shape");
            sink += got[11] + got[2];
        }
    });
    let hand_s = best(eval_reps, &mut || {
        for s in &xs {
            handwritten(black_box(s), &mut want);
            sink += want[11] + want[2];
        }
    });
    black_box(sink);
    let per = xs.len() as f64;
    println!(
        "sleigh: {} instructions, {} registers, {} graph nodes",
        program.code().len(),
        program.register_count(),
        d.graph.len()
    );
    println!("derive_ms: {:.3}", derive_s * 1e3);
    println!("compile_ms: {:.3}", compile_s * 1e3);
    println!("eval_ns_interpreter: {:.1}", interp_s / per * 1e9);
    println!("eval_ns_handwritten: {:.1}", hand_s / per * 1e9);
    println!("ratio_vs_handwritten: {:.2}", interp_s / hand_s);
}
