//! The Rust module file: `rhs`, `terms`, `jacobian` over a `Parameters` struct, no
//! crates (`mod model;` beside the caller).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::emit::{body, literal, Syntax};
use super::{Description, Language};

struct Rust;

impl Syntax for Rust {
    fn assign(&self, indent: &str, name: &str, value: &str) -> String {
        format!("{indent}let {name}: f64 = {value};\n")
    }
    fn call(&self, function: &str, a: &str) -> String {
        let method = match function {
            "fabs" => "abs",
            "log" => "ln",
            other => other,
        };
        format!("({a}).{method}()")
    }
    fn powi(&self, a: &str, k: i32) -> String {
        format!("powi({a}, {k})")
    }
    fn powf(&self, a: &str, b: &str) -> String {
        format!("({a}).powf({b})")
    }
    fn atan2(&self, a: &str, b: &str) -> String {
        format!("({a}).atan2({b})")
    }
    fn number(&self, x: f64) -> String {
        let text = format!("{x:?}");
        if text.contains('.') || text.contains('e') {
            text
        } else {
            format!("{text}.0")
        }
    }
    fn non_finite(&self) -> (&'static str, &'static str) {
        ("f64::NAN", "f64::INFINITY")
    }
}

fn quoted(text: &str) -> String {
    format!("{text:?}")
}

/// The whole file.
pub(super) fn write(d: &Description) -> String {
    let (n, p) = (d.n(), d.inputs.len());
    let m_all = d.constraints.len();
    let mut out = String::new();
    for line in d.header_lines(Language::Rust) {
        out += &format!("//! {line}\n").replace("//! \n", "//!\n");
    }
    out += &format!(
        "//!
//! Usage: save as `model.rs` beside `main.rs` (`rustc main.rs`, no crates):
//!
//! ```ignore
//! mod model;
//! fn main() {{
//!     let p = model::Parameters::default();
//!     let mut y = vec![0.0; model::STATE.len()]; // a state on the constraints
//!     let h = 1e-3;
//!     for s in 0..1000 {{
//!         let k1 = model::rhs(s as f64 * h, &y, &model::DEFAULT_INPUTS, &p).expect(\"solve\");
//!         for (x, d) in y.iter_mut().zip(&k1) {{ *x += h * d; }} // Euler, for brevity
//!     }}
//!     println!(\"{{:?}}\", y);
//! }}
//! ```
#![allow(dead_code, unused_parens, unused_variables, unused_mut, non_snake_case, clippy::all)]

/// The state's components: coordinates, then their rates.
pub const STATE: [&str; {}] = [{}];
/// The inputs, in `u`'s order.
pub const INPUTS: [&str; {p}] = [{}];
/// The scenario's input values.
pub const DEFAULT_INPUTS: [f64; {p}] = [{}];
/// The constraints, in `A`'s row order.
pub const CONSTRAINTS: [&str; {m_all}] = [{}];

/// The parameters; `Default` gives the scenario's values.
#[derive(Clone, Debug, PartialEq)]
pub struct Parameters {{
{}}}

impl Default for Parameters {{
    fn default() -> Self {{
        Parameters {{
{}        }}
    }}
}}

/// The solve of `[[M, -Aᵀ], [A, 0]]` found a pivot below the lab's tolerance or a
/// value that is not finite at this state.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveError;

impl std::fmt::Display for SolveError {{
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {{
        f.write_str(\"the solve of [[M, -A^T], [A, 0]] found a pivot below the lab's tolerance or a value that is not finite\")
    }}
}}

impl std::error::Error for SolveError {{}}

/// `M`, `F`, `A`, `b`, the residuals `f` and `φ` (row-major matrices), `T + V`.
#[derive(Clone, Debug, PartialEq)]
pub struct Terms {{
    pub mass: Vec<f64>,
    pub forcing: Vec<f64>,
    pub jacobian: Vec<f64>,
    pub bias: Vec<f64>,
    pub velocity_residuals: Vec<f64>,
    pub position_residuals: Vec<f64>,
    pub energy: f64,
}}

fn powi(x: f64, n: i32) -> f64 {{
    let mut base = if n < 0 {{ 1.0 / x }} else {{ x }};
    let mut k = n.unsigned_abs();
    let mut acc = 1.0;
    while k > 0 {{
        if k & 1 == 1 {{
            acc *= base;
        }}
        base *= base;
        k >>= 1;
    }}
    acc
}}

fn sign(x: f64) -> f64 {{
    if x > 0.0 {{
        1.0
    }} else if x < 0.0 {{
        -1.0
    }} else {{
        x * 0.0
    }}
}}

",
        2 * n,
        d.state_names().iter().map(|s| quoted(s)).collect::<Vec<_>>().join(", "),
        d.inputs.iter().map(|(k, _)| quoted(k)).collect::<Vec<_>>().join(", "),
        d.inputs.iter().map(|(_, v)| literal(&Rust, *v)).collect::<Vec<_>>().join(", "),
        d.constraints.iter().map(|s| quoted(s)).collect::<Vec<_>>().join(", "),
        d.parameters.iter().map(|(k, _)| format!("    pub {}: f64,\n", d.field(k))).collect::<String>(),
        d.parameters
            .iter()
            .map(|(k, v)| format!("            {}: {},\n", d.field(k), literal(&Rust, *v)))
            .collect::<String>(),
    );
    let inputs =
        d.input_texts("t", &|k| format!("y[{k}]"), &|pname| format!("p.{}", d.field(pname)), &|j| format!("u[{j}]"));
    let declare = |r: &str| String::from(r);
    let signature = "t: f64, y: &[f64], u: &[f64], p: &Parameters";
    // rhs
    let (code, outs) = body(&Rust, &d.programs.rhs, &inputs, "    ", &declare);
    out += &format!(
        "/// `y' = f(t, y, u, p) = [q'; q'']`.\npub fn rhs({signature}) -> Result<Vec<f64>, SolveError> {{\n{code}"
    );
    out += &format!("    if {} != 1.0 {{\n        return Err(SolveError);\n    }}\n", outs[outs.len() - 1]);
    out += &format!("    let mut dy = y[{n}..{}].to_vec();\n", 2 * n);
    out += &format!("    dy.extend_from_slice(&[{}]);\n    Ok(dy)\n}}\n\n", outs[..n].join(", "));
    // terms
    let (code, outs) = body(&Rust, &d.programs.terms, &inputs, "    ", &declare);
    out += &format!("/// The terms at a state, every constraint.\npub fn terms({signature}) -> Terms {{\n{code}");
    let mut k = 0;
    let mut take = |count: usize| {
        let part = outs[k..k + count].join(", ");
        k += count;
        part
    };
    let fields = [
        ("mass", n * n),
        ("forcing", n),
        ("jacobian", m_all * n),
        ("bias", m_all),
        ("velocity_residuals", m_all),
        ("position_residuals", m_all),
    ];
    out += "    Terms {\n";
    for (field, count) in fields {
        out += &format!("        {field}: vec![{}],\n", take(count));
    }
    out += &format!("        energy: {},\n    }}\n}}\n\n", take(1));
    // jacobian
    let (code, outs) = body(&Rust, &d.programs.jacobian, &inputs, "    ", &declare);
    out += &format!(
        "/// `(∂f/∂y, ∂f/∂u)`, row-major ({0}×{0} and {0}×{p}), exact.\npub fn jacobian({signature}) -> Result<(Vec<f64>, Vec<f64>), SolveError> {{\n{code}",
        2 * n
    );
    out += &format!("    if {} != 1.0 {{\n        return Err(SolveError);\n    }}\n", outs[outs.len() - 1]);
    out += &format!(
        "    let mut dfdy = vec![0.0; {}];\n    for i in 0..{n} {{\n        dfdy[i * {} + {n} + i] = 1.0;\n    }}\n    let mut dfdu = vec![0.0; {}];\n",
        4 * n * n,
        2 * n,
        2 * n * p
    );
    let width = 2 * n + p;
    for i in 0..n {
        out += &format!(
            "    dfdy[{}..{}].copy_from_slice(&[{}]);\n",
            (n + i) * 2 * n,
            (n + i + 1) * 2 * n,
            outs[i * width..i * width + 2 * n].join(", ")
        );
        if p > 0 {
            out += &format!(
                "    dfdu[{}..{}].copy_from_slice(&[{}]);\n",
                (n + i) * p,
                (n + i + 1) * p,
                outs[i * width + 2 * n..(i + 1) * width].join(", ")
            );
        }
    }
    out += "    Ok((dfdy, dfdu))\n}\n";
    out
}
