//! The Python module: `rhs`, `terms`, `jacobian` over a parameter dict, scalar
//! arithmetic with `math` (faster than NumPy on scalars), NumPy arrays returned.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::emit::{body, literal, Syntax};
use super::{Description, Language};

struct Python;

impl Syntax for Python {
    fn assign(&self, indent: &str, name: &str, value: &str) -> String {
        format!("{indent}{name} = {value}\n")
    }
    fn abs(&self) -> &'static str {
        "abs"
    }
    fn powi(&self, a: &str, k: i32) -> String {
        format!("{a}**{}", if k < 0 { format!("({k})") } else { format!("{k}") })
    }
    fn sign(&self, a: &str) -> String {
        format!("_sign({a})")
    }
    fn non_finite(&self) -> (&'static str, &'static str) {
        ("math.nan", "math.inf")
    }
}

/// Python string literal (JSON's escapes are Python's for these names).
fn quoted(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out += "\\\"",
            '\\' => out += "\\\\",
            '\n' => out += "\\n",
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The math functions each body binds locally.
const LOCALS: &str = "    sin, cos, tan, asin, acos, atan, atan2 = math.sin, math.cos, math.tan, math.asin, math.acos, math.atan, math.atan2\n    sinh, cosh, tanh, exp, log, sqrt, pow = math.sinh, math.cosh, math.tanh, math.exp, math.log, math.sqrt, math.pow\n";

/// The whole file.
pub(super) fn write(d: &Description) -> String {
    let (n, p) = (d.n(), d.inputs.len());
    let m_all = d.constraints.len();
    let mut out = String::from("\"\"\"");
    for line in d.header_lines(Language::Python) {
        out += &line.replace('\\', "\\\\");
        out += "\n";
    }
    out += &format!(
        "
API (NumPy arrays; SolveError where the solve fails):
    rhs(t, y, u=DEFAULT_INPUTS, p=PARAMETERS) -> y' ({} entries)
    terms(t, y, u, p) -> dict with M, F, A, b, f, phi, energy
    jacobian(t, y, u, p) -> (df/dy, df/du)

Usage (SciPy):
    import numpy as np
    from scipy.integrate import solve_ivp
    import {name} as model
    y0 = np.zeros(len(model.STATE))  # a state on the constraints
    sol = solve_ivp(lambda t, y: model.rhs(t, y), (0.0, 5.0), y0,
                    method=\"DOP853\", rtol=1e-10, atol=1e-12,
                    jac=lambda t, y: model.jacobian(t, y)[0])
    print(sol.y[:, -1])
\"\"\"

import math

import numpy as np

STATE = [{}]
INPUTS = [{}]
DEFAULT_INPUTS = np.array([{}], dtype=float)
PARAMETERS = {{{}}}
CONSTRAINTS = [{}]


class SolveError(ArithmeticError):
    \"\"\"The solve of [[M, -A^T], [A, 0]] found a pivot below the lab's tolerance
    or a value that is not finite at this state.\"\"\"


def _sign(x):
    return 1.0 if x > 0.0 else -1.0 if x < 0.0 else x * 0.0


def _floats(a):
    return a.tolist() if hasattr(a, \"tolist\") else [float(x) for x in a]

",
        2 * n,
        d.state_names().iter().map(|s| quoted(s)).collect::<Vec<_>>().join(", "),
        d.inputs.iter().map(|(k, _)| quoted(k)).collect::<Vec<_>>().join(", "),
        d.inputs.iter().map(|(_, v)| literal(&Python, *v)).collect::<Vec<_>>().join(", "),
        d.parameters
            .iter()
            .map(|(k, v)| format!("{}: {}", quoted(k), literal(&Python, *v)))
            .collect::<Vec<_>>()
            .join(", "),
        d.constraints.iter().map(|s| quoted(s)).collect::<Vec<_>>().join(", "),
        name = d.name,
    );
    let inputs =
        d.input_texts("t", &|k| format!("y[{k}]"), &|pname| format!("p[{}]", quoted(pname)), &|j| format!("u[{j}]"));
    let declare = |r: &str| String::from(r);
    let prologue = "    y = _floats(y)\n    u = _floats(u)\n";
    // rhs
    let (code, outs) = body(&Python, &d.programs.rhs, &inputs, "    ", &declare);
    out += &format!(
        "\ndef rhs(t, y, u=DEFAULT_INPUTS, p=PARAMETERS):\n    \"\"\"y' = f(t, y, u, p) = [q'; q''].\"\"\"\n{prologue}{LOCALS}{code}"
    );
    out += &format!(
        "    if not {} == 1.0:\n        raise SolveError(\"at t = %r: %s\" % (t, SolveError.__doc__))\n",
        outs[outs.len() - 1]
    );
    let qdd: Vec<&str> = outs[..n].iter().map(String::as_str).collect();
    out += &format!("    return np.array(y[{n}:] + [{}])\n\n", qdd.join(", "));
    // terms
    let (code, outs) = body(&Python, &d.programs.terms, &inputs, "    ", &declare);
    out += &format!(
        "\ndef terms(t, y, u=DEFAULT_INPUTS, p=PARAMETERS):\n    \"\"\"M (n x n), F, A (m x n), b, f and phi (velocity and position residuals), T + V.\"\"\"\n{prologue}{LOCALS}{code}"
    );
    let mut k = 0;
    let mut take = |count: usize| {
        let part = outs[k..k + count].join(", ");
        k += count;
        part
    };
    let mass = take(n * n);
    let forcing = take(n);
    let jac = take(m_all * n);
    let bias = take(m_all);
    let vel = take(m_all);
    let pos = take(m_all);
    let energy = take(1);
    out += &format!(
        "    return {{\n        \"M\": np.array([{mass}]).reshape({n}, {n}),\n        \"F\": np.array([{forcing}], dtype=float),\n        \"A\": np.array([{jac}], dtype=float).reshape({m_all}, {n}),\n        \"b\": np.array([{bias}], dtype=float),\n        \"f\": np.array([{vel}], dtype=float),\n        \"phi\": np.array([{pos}], dtype=float),\n        \"energy\": {energy},\n    }}\n\n"
    );
    // jacobian
    let (code, outs) = body(&Python, &d.programs.jacobian, &inputs, "    ", &declare);
    out += &format!(
        "\ndef jacobian(t, y, u=DEFAULT_INPUTS, p=PARAMETERS):\n    \"\"\"df/dy ({0} x {0}) and df/du ({0} x {p}), exact.\"\"\"\n{prologue}{LOCALS}{code}",
        2 * n
    );
    out += &format!(
        "    if not {} == 1.0:\n        raise SolveError(\"at t = %r: %s\" % (t, SolveError.__doc__))\n",
        outs[outs.len() - 1]
    );
    let width = 2 * n + p;
    out += &format!(
        "    dfdy = np.zeros(({0}, {0}))\n    dfdy[:{n}, {n}:] = np.eye({n})\n    dfdu = np.zeros(({0}, {p}))\n",
        2 * n
    );
    for i in 0..n {
        let row: Vec<&str> = outs[i * width..i * width + 2 * n].iter().map(String::as_str).collect();
        out += &format!("    dfdy[{}] = [{}]\n", n + i, row.join(", "));
        if p > 0 {
            let row: Vec<&str> = outs[i * width + 2 * n..(i + 1) * width].iter().map(String::as_str).collect();
            out += &format!("    dfdu[{}] = [{}]\n", n + i, row.join(", "));
        }
    }
    out += "    return dfdy, dfdu\n";
    out
}
