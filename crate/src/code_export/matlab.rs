//! The MATLAB/Octave function file `NAME.m`: calling `NAME()` returns a struct with
//! the names, the default parameters and inputs, and handles to `rhs`, `terms` and
//! `jacobian` (local functions of the file), so one file holds everything.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::emit::{body, literal, Syntax};
use super::{Description, Language};

struct Matlab;

impl Syntax for Matlab {
    fn assign(&self, indent: &str, name: &str, value: &str) -> String {
        format!("{indent}{name} = {value};\n")
    }
    fn abs(&self) -> &'static str {
        "abs"
    }
    fn powi(&self, a: &str, k: i32) -> String {
        format!("{a}^({k})")
    }
    fn powf(&self, a: &str, b: &str) -> String {
        format!("{a}^{b}")
    }
    fn non_finite(&self) -> (&'static str, &'static str) {
        ("NaN", "Inf")
    }
}

fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// The whole file.
pub(super) fn write(d: &Description) -> String {
    let name = &d.name;
    let (n, p) = (d.n(), d.inputs.len());
    let m_all = d.constraints.len();
    let mut out = format!("function model = {name}()\n");
    for line in d.header_lines(Language::Matlab) {
        out += &format!("% {line}\n").replace("% \n", "%\n");
    }
    out += &format!(
        "%
% Returns a struct: state, inputs, constraints (names), parameters (a struct of the
% scenario's values), u (the default inputs), and handles rhs(t, y, u, p),
% terms(t, y, u, p) (a struct of M, F, A, b, f, phi, energy) and
% jacobian(t, y, u, p) (df/dy, df/du); each reports a failed solve with error().
%
% Usage (MATLAB or GNU Octave):
%   m = {name}();
%   y0 = zeros(numel(m.state), 1);   % a state on the constraints
%   opts = odeset('RelTol', 1e-10, 'AbsTol', 1e-12);
%   [t, y] = ode45(@(t, y) m.rhs(t, y, m.u, m.parameters), [0 5], y0, opts);
%   plot(t, y(:, 1));
"
    );
    let cell = |names: Vec<String>| names.iter().map(|s| quoted(s)).collect::<Vec<_>>().join(", ");
    out += &format!("  model.state = {{{}}};\n", cell(d.state_names()));
    out += &format!("  model.inputs = {{{}}};\n", cell(d.inputs.iter().map(|(k, _)| k.clone()).collect()));
    out += &format!("  model.constraints = {{{}}};\n", cell(d.constraints.clone()));
    out += "  p = struct();\n";
    for (pname, v) in &d.parameters {
        out += &format!("  p.{} = {};\n", d.field(pname), literal(&Matlab, *v));
    }
    out += "  model.parameters = p;\n";
    out += &format!(
        "  model.u = [{}];\n",
        d.inputs.iter().map(|(_, v)| literal(&Matlab, *v)).collect::<Vec<_>>().join("; ")
    );
    out += "  model.rhs = @rhs;\n  model.terms = @terms;\n  model.jacobian = @jacobian;\nend\n\n";
    let inputs = d.input_texts("t", &|k| format!("y({})", k + 1), &|pname| format!("p.{}", d.field(pname)), &|j| {
        format!("u({})", j + 1)
    });
    let declare = |r: &str| String::from(r);
    let failed = format!(
        "    error('{name}:solve', 'at t = %g: the solve of [[M, -A''], [A, 0]] found a pivot below the lab''s tolerance or a value that is not finite', t);\n"
    );
    // rhs
    let (code, outs) = body(&Matlab, &d.programs.rhs, &inputs, "  ", &declare);
    out += &format!("function dy = rhs(t, y, u, p)\n% y' = f(t, y, u, p) = [q'; q''].\n{code}");
    out += &format!("  if ~({} == 1)\n{failed}  end\n", outs[outs.len() - 1]);
    out += &format!("  dy = zeros({}, 1);\n  dy(1:{n}) = y({}:{});\n", 2 * n, n + 1, 2 * n);
    for (i, o) in outs[..n].iter().enumerate() {
        out += &format!("  dy({}) = {o};\n", n + i + 1);
    }
    out += "end\n\n";
    // terms
    let (code, outs) = body(&Matlab, &d.programs.terms, &inputs, "  ", &declare);
    out += &format!(
        "function out = terms(t, y, u, p)\n% M, F, A, b, f and phi (velocity and position residuals), T + V.\n{code}"
    );
    let mut k = 0;
    for (field, rows, cols) in
        [("M", n, n), ("F", n, 1), ("A", m_all, n), ("b", m_all, 1), ("f", m_all, 1), ("phi", m_all, 1)]
    {
        out += &format!("  out.{field} = zeros({rows}, {cols});\n");
        for r in 0..rows {
            for c in 0..cols {
                out += &format!("  out.{field}({}, {}) = {};\n", r + 1, c + 1, outs[k]);
                k += 1;
            }
        }
    }
    out += &format!("  out.energy = {};\nend\n\n", outs[k]);
    // jacobian
    let (code, outs) = body(&Matlab, &d.programs.jacobian, &inputs, "  ", &declare);
    out += &format!("function [dfdy, dfdu] = jacobian(t, y, u, p)\n% df/dy and df/du, exact.\n{code}");
    out += &format!("  if ~({} == 1)\n{failed}  end\n", outs[outs.len() - 1]);
    out += &format!(
        "  dfdy = zeros({0}, {0});\n  dfdy(1:{n}, {1}:{0}) = eye({n});\n  dfdu = zeros({0}, {p});\n",
        2 * n,
        n + 1
    );
    let width = 2 * n + p;
    for i in 0..n {
        let row: Vec<&str> = outs[i * width..i * width + 2 * n].iter().map(String::as_str).collect();
        out += &format!("  dfdy({}, :) = [{}];\n", n + i + 1, row.join(", "));
        if p > 0 {
            let row: Vec<&str> = outs[i * width + 2 * n..(i + 1) * width].iter().map(String::as_str).collect();
            out += &format!("  dfdu({}, :) = [{}];\n", n + i + 1, row.join(", "));
        }
    }
    out += "end\n";
    out
}
