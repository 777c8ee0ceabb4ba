//! The C99 file: `NAME_rhs`, `NAME_terms`, `NAME_jacobian` over a parameter struct,
//! only `math.h`, clean under `-std=c99 -Wall -Wextra -Werror`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::emit::{body, literal, Syntax};
use super::{Description, Language};

/// C's spelling; the helpers carry the file's prefix (two exported models may
/// share a program).
struct C<'a>(&'a str);

impl Syntax for C<'_> {
    fn assign(&self, indent: &str, name: &str, value: &str) -> String {
        format!("{indent}const double {name} = {value};\n")
    }
    fn powi(&self, a: &str, k: i32) -> String {
        format!("{}_powi({a}, {k})", self.0)
    }
    fn sign(&self, a: &str) -> String {
        format!("{}_sign({a})", self.0)
    }
    fn number(&self, x: f64) -> String {
        let text = format!("{x:?}");
        // `1e21` is not a C double literal without a point.
        if text.contains('.') || text.contains("inf") || text.contains("NaN") {
            text
        } else {
            text.replacen('e', ".0e", 1)
        }
    }
    fn non_finite(&self) -> (&'static str, &'static str) {
        ("NAN", "INFINITY")
    }
}

/// The whole file.
pub(super) fn write(d: &Description) -> String {
    let name = &d.name;
    let (n, p) = (d.n(), d.inputs.len());
    let m_all = d.constraints.len();
    let mut out = String::from("/*\n");
    for line in d.header_lines(Language::C) {
        out += &format!(" * {line}\n").replace(" * \n", " *\n");
    }
    out += &format!(
        " *
 * API (arrays row-major; return 0, or 1 where the solve failed: see {name}_error):
 *   int {name}_rhs(double t, const double *y, const double *u, const {name}_parameters *p, double *dy);
 *   int {name}_terms(t, y, u, p, M, F, A, b, f, phi, energy);   M n*n, A m*n, f and phi m, energy 1
 *   int {name}_jacobian(t, y, u, p, dfdy, dfdu);                dfdy (2n)*(2n), dfdu (2n)*(inputs)
 *
 * Usage: a fixed-step RK4 run of one second (cc -std=c99 -O2 main.c -lm):
 *   #include \"{name}.c\"
 *   #include <stdio.h>
 *   int main(void) {{
 *       {name}_parameters p = {name}_default_parameters();
 *       double y[{name}_STATE] = {{0}}, u[{name}_INPUTS + 1] = {{0}}, k[4][{name}_STATE], z[{name}_STATE];
 *       double h = 1e-3;   (set y to a state on the constraints first)
 *       for (int s = 0; s < 1000; s++) {{
 *           for (int j = 0; j < 4; j++) {{
 *               for (int i = 0; i < {name}_STATE; i++) z[i] = y[i] + (j == 0 ? 0 : (j == 3 ? h : h / 2)) * (j ? k[j - 1][i] : 0);
 *               if ({name}_rhs(s * h + (j == 0 ? 0 : (j == 3 ? h : h / 2)), z, u, &p, k[j])) {{ puts({name}_error(1)); return 1; }}
 *           }}
 *           for (int i = 0; i < {name}_STATE; i++) y[i] += h / 6 * (k[0][i] + 2 * k[1][i] + 2 * k[2][i] + k[3][i]);
 *       }}
 *       printf(\"%.17g\\n\", y[0]);
 *       return 0;
 *   }}
 */
#include <math.h>

#define {name}_N {n}
#define {name}_STATE {}
#define {name}_INPUTS {p}
#define {name}_CONSTRAINTS {m_all}

",
        2 * n
    );
    // The parameter struct (C99 has no empty struct).
    out += "typedef struct {\n";
    for (pname, value) in &d.parameters {
        out += &format!("    double {}; /* default {value:?} */\n", d.field(pname));
    }
    if d.parameters.is_empty() {
        out += "    double unused_; /* the model has no parameters */\n";
    }
    out += &format!("}} {name}_parameters;\n\n");
    out += &format!("/* The scenario's values. */\n{name}_parameters {name}_default_parameters(void)\n{{\n");
    let values: Vec<String> = d.parameters.iter().map(|(_, v)| literal(&C(name), *v)).collect();
    out += &format!(
        "    {name}_parameters p = {{ {} }};\n    return p;\n}}\n\n",
        if values.is_empty() { "0.0".into() } else { values.join(", ") }
    );
    out += &format!("/* The scenario's input values, into u ({name}_INPUTS entries). */\nvoid {name}_default_inputs(double *u)\n{{\n    (void)u;\n");
    for (j, (iname, v)) in d.inputs.iter().enumerate() {
        out += &format!("    u[{j}] = {}; /* {iname} */\n", literal(&C(name), *v));
    }
    out += "}\n\n";
    out += &format!(
        "/* What a status means. */
const char *{name}_error(int status)
{{
    return status == 0 ? \"ok\"
        : \"the solve of [[M, -A^T], [A, 0]] found a pivot below the lab's tolerance or a value that is not finite at this state\";
}}

/* x^n by repeated squaring (as the lab computes it). */
double {name}_powi(double x, int n)
{{
    double base = n < 0 ? 1.0 / x : x, acc = 1.0;
    unsigned k = n < 0 ? (unsigned)(-(long)n) : (unsigned)n;
    while (k > 0) {{
        if (k & 1u) acc *= base;
        base *= base;
        k >>= 1;
    }}
    return acc;
}}

/* 1, -1, or x*0 (0 or NaN). */
double {name}_sign(double x)
{{
    return x > 0.0 ? 1.0 : x < 0.0 ? -1.0 : x * 0.0;
}}

"
    );
    let inputs =
        d.input_texts("t", &|k| format!("y[{k}]"), &|pname| format!("p->{}", d.field(pname)), &|j| format!("u[{j}]"));
    let declare = |r: &str| String::from(r);
    let signature = format!("double t, const double *y, const double *u, const {name}_parameters *p");
    // rhs
    let (code, outs) = body(&C(name), &d.programs.rhs, &inputs, "    ", &declare);
    out += &format!(
        "/* y' = f(t, y, u, p): dy = [q'; q''] ({name}_STATE entries). */\nint {name}_rhs({signature}, double *dy)\n{{\n    (void)t; (void)y; (void)u; (void)p;\n{code}"
    );
    for i in 0..n {
        out += &format!("    dy[{i}] = y[{}];\n", n + i);
    }
    for (i, o) in outs[..n].iter().enumerate() {
        out += &format!("    dy[{}] = {o};\n", n + i);
    }
    let flag = &outs[outs.len() - 1];
    out += &format!("    return {flag} == 1.0 ? 0 : 1;\n}}\n\n");
    // terms
    let (code, outs) = body(&C(name), &d.programs.terms, &inputs, "    ", &declare);
    out += &format!(
        "/* M (n*n), F (n), A (m*n), b, f (velocity residuals), phi (position residuals, 0 for\n * a constraint that is not holonomic), each m, and T + V; every constraint. */\nint {name}_terms({signature}, double *M, double *F, double *A, double *b, double *f, double *phi, double *energy)\n{{\n    (void)t; (void)y; (void)u; (void)p; (void)A; (void)b; (void)f; (void)phi;\n{code}"
    );
    let mut k = 0;
    for (array, count) in [("M", n * n), ("F", n), ("A", m_all * n), ("b", m_all), ("f", m_all), ("phi", m_all)] {
        for i in 0..count {
            out += &format!("    {array}[{i}] = {};\n", outs[k]);
            k += 1;
        }
    }
    out += &format!("    energy[0] = {};\n    return 0;\n}}\n\n", outs[k]);
    // jacobian
    let (code, outs) = body(&C(name), &d.programs.jacobian, &inputs, "    ", &declare);
    out += &format!(
        "/* df/dy ((2n)*(2n), row-major) and df/du ((2n)*{name}_INPUTS): exact. */\nint {name}_jacobian({signature}, double *dfdy, double *dfdu)\n{{\n    (void)t; (void)y; (void)u; (void)p; (void)dfdu;\n{code}"
    );
    out += &format!(
        "    for (int i = 0; i < {}; i++) dfdy[i] = 0.0;\n    for (int i = 0; i < {}; i++) dfdy[i * {} + {n} + i] = 1.0;\n",
        4 * n * n,
        n,
        2 * n
    );
    if p > 0 {
        out += &format!("    for (int i = 0; i < {}; i++) dfdu[i] = 0.0;\n", 2 * n * p);
    }
    let width = 2 * n + p;
    for i in 0..n {
        for c in 0..2 * n {
            out += &format!("    dfdy[{}] = {};\n", (n + i) * 2 * n + c, outs[i * width + c]);
        }
        for j in 0..p {
            out += &format!("    dfdu[{}] = {};\n", (n + i) * p + j, outs[i * width + 2 * n + j]);
        }
    }
    let flag = &outs[outs.len() - 1];
    out += &format!("    return {flag} == 1.0 ? 0 : 1;\n}}\n");
    out
}
