//! `nhlab derive FILE --method M [--format text|latex|mathml|json]`: the equations of
//! motion in symbolic form — the matrix form `M q̈ = F + Aᵀλ` with `A q̈ = b`, and the
//! expanded equation of each coordinate.

use serde_json::json;

use nhlab::expr::{ExprGraph, ExprId};
use nhlab::formulations::Method;

use crate::args::{DeriveArgs, DeriveFormat};
use crate::input::{load_file, method};
use crate::Failure;

/// The per-coordinate equations `Σ_j M_ij q̈_j = F_i + Σ_k A_ki λ_k`.
fn expanded(g: &mut ExprGraph, model: &nhlab::mechanics::Model, with_multipliers: bool) -> Vec<(ExprId, ExprId)> {
    let n = model.coordinate_count();
    let lambdas: Vec<ExprId> = (1..=model.constraints.len())
        .map(|k| {
            let mut name = format!("lambda{k}");
            while g.lookup(&name).is_some() {
                name.push('_');
            }
            let s = g.declare_auxiliary(&name).unwrap_or(g.time());
            g.symbol_expr(s)
        })
        .collect();
    (0..n)
        .map(|i| {
            let lhs_terms: Vec<ExprId> = (0..n)
                .map(|j| {
                    let a = g.symbol_expr(g.coordinate(j)[2]);
                    g.mul2(model.equations.mass_matrix[i * n + j], a)
                })
                .collect();
            let lhs = g.add(&lhs_terms);
            let mut rhs_terms = vec![model.equations.forcing[i]];
            if with_multipliers {
                for (k, c) in model.constraints.iter().enumerate() {
                    rhs_terms.push(g.mul2(c.jacobian[i], lambdas[k]));
                }
            }
            (lhs, g.add(&rhs_terms))
        })
        .collect()
}

pub fn run(args: &DeriveArgs) -> Result<(), Failure> {
    let method = method(&args.method)?;
    if matches!(method, Method::Voronets | Method::Hamel | Method::Vakonomic) {
        return Err(Failure::Compute(format!(
            "the method `{}` is not available yet in this version of nhlab",
            method.id()
        )));
    }
    let l = load_file(&args.file)?;
    let model = &l.model;
    let mut g = model.graph.clone();
    let equations = expanded(&mut g, model, method.has_multipliers() || method == Method::Lagrange);
    let constraints: Vec<(ExprId, ExprId)> = model
        .constraints
        .iter()
        .map(|c| {
            let n = model.coordinate_count();
            let terms: Vec<ExprId> = (0..n)
                .map(|i| {
                    let a = g.symbol_expr(g.coordinate(i)[2]);
                    g.mul2(c.jacobian[i], a)
                })
                .collect();
            (g.add(&terms), c.bias)
        })
        .collect();
    let note = match method {
        Method::Lagrange => "Routh's equations with multipliers: M q̈ = F + Aᵀλ, A q̈ = b",
        Method::UdwadiaKalaba => "Udwadia–Kalaba: q̈ = a + M^(-1/2) (A M^(-1/2))⁺ (b − A a), a = M⁻¹F",
        Method::Gauss => "Gauss: q̈ minimises ½(q̈ − a)ᵀ M (q̈ − a) subject to A q̈ = b",
        Method::Euler => "Euler condition: M q̈ = F + Rᵀλ, A q̈ = b, R = ∫₀¹ ∂f/∂v(q, s v, t) ds",
        _ => "",
    };
    let all: Vec<&(ExprId, ExprId)> = equations.iter().chain(&constraints).collect();
    match args.format {
        DeriveFormat::Text => {
            println!("# {}: {note}", method.id());
            for (lhs, rhs) in all {
                println!("{} = {}", g.to_text(*lhs), g.to_text(*rhs));
            }
        }
        DeriveFormat::Latex => {
            println!("% {}: {note}", method.id());
            for (lhs, rhs) in all {
                println!("{} = {} \\\\", g.to_latex(*lhs), g.to_latex(*rhs));
            }
        }
        DeriveFormat::Mathml => {
            for (lhs, rhs) in all {
                println!("{}", g.equation_to_mathml(*lhs, *rhs));
            }
        }
        DeriveFormat::Json => {
            let n = model.coordinate_count();
            let text = |e: &ExprId| g.to_text(*e);
            let matrix = |m: &[ExprId], cols: usize| -> Vec<Vec<String>> {
                m.chunks(cols.max(1)).map(|r| r.iter().map(text).collect()).collect()
            };
            let jac: Vec<ExprId> = model.constraints.iter().flat_map(|c| c.jacobian.clone()).collect();
            let out = json!({
                "method": method.id(),
                "form": note,
                "mass_matrix": matrix(&model.equations.mass_matrix, n),
                "forcing": model.equations.forcing.iter().map(text).collect::<Vec<_>>(),
                "constraint_jacobian": matrix(&jac, n),
                "constraint_bias": model.constraints.iter().map(|c| text(&c.bias)).collect::<Vec<_>>(),
                "equations": equations.iter().map(|(l, r)| format!("{} = {}", text(l), text(r))).collect::<Vec<_>>(),
            });
            println!("{out}");
        }
    }
    Ok(())
}
