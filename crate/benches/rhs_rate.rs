//! Native right-hand-side rate of the sleigh, the baseline of the browser benchmark
//! (`tests/browser/bench.mjs` runs the same kernel, `Prepared::rhs_loop`, in wasm and
//! divides). Prints one JSON object: evaluations per second per method. Lagrange's
//! runs as machine code, as `nhlab run` runs it (the page runs its wasm kernel);
//! the other methods are interpreted on both sides.
//!
//! `cargo bench -p nhlab --bench rhs_rate`

mod common;

use nhlab::formulations::Method;
use nhlab::prepare::Prepared;
use nhlab::scenario::Format;

const COUNT: usize = 20_000;

fn main() {
    let text = include_str!("../../scenarios/chaplygin-sleigh.toml");
    let mut prepared = Prepared::from_text(text, Format::Toml).expect("the sleigh loads");
    assert!(nhlab_native::use_for_lagrange(&prepared.model, &mut prepared.numeric, true).expect("compiles"));
    let mut out = Vec::new();
    for method in [Method::Lagrange, Method::Hamel, Method::Gauss] {
        let mut sum = 0.0;
        let seconds = common::best(7, &mut || {
            sum += prepared.rhs_loop(method, COUNT).expect("the sleigh's right-hand side");
        });
        assert!(sum.is_finite());
        out.push(format!("\"{}\": {:.0}", method.id(), COUNT as f64 / seconds));
    }
    println!("{{{}}}", out.join(", "));
}
