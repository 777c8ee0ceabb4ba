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

/// Named quantities and equations of the split methods and of vakonomic dynamics.
fn special(
    g: &mut ExprGraph,
    model: &nhlab::mechanics::Model,
    method: Method,
) -> Result<Vec<(String, ExprId, ExprId)>, Failure> {
    let names = model.coordinate_names();
    let mut out = Vec::new();
    let zero = g.zero();
    match method {
        Method::Hamel | Method::Voronets => {
            let h = model.hamel.as_ref().map_err(|e| Failure::Compute(format!("{}: {e}", method.id())))?;
            let k = h.independent.len();
            for (j, &d) in h.dependent.iter().enumerate() {
                let v = g.symbol_expr(g.coordinate(d)[1]);
                out.push((format!("{}' (dependent velocity)", names[d]), v, h.dependent_velocities[j]));
            }
            if method == Method::Hamel {
                out.push(("T*".into(), zero, h.embedded_kinetic));
                for s in 0..k {
                    for c in 0..k {
                        out.push((
                            format!("Ψ[{}, {}]", names[h.independent[s]], names[h.independent[c]]),
                            zero,
                            h.psi[s * k + c],
                        ));
                    }
                }
            }
            let rhs = if method == Method::Hamel { &h.g } else { &h.h };
            for (s, &i) in h.independent.iter().enumerate() {
                let terms: Vec<ExprId> = (0..k)
                    .map(|c| {
                        let a = g.symbol_expr(g.coordinate(h.independent[c])[2]);
                        g.mul2(h.psi[s * k + c], a)
                    })
                    .collect();
                let lhs = g.add(&terms);
                out.push((format!("equation of {}", names[i]), lhs, rhs[s]));
            }
            if method == Method::Hamel {
                for (s, &i) in h.independent.iter().enumerate() {
                    out.push((format!("G[{}]", names[i]), zero, h.g[s]));
                    out.push((format!("H[{}]", names[i]), zero, h.h[s]));
                    out.push((format!("E[{}]", names[i]), zero, h.e[s]));
                }
            }
        }
        Method::Vakonomic => {
            let vk = model.vakonomic.as_ref().map_err(|e| Failure::Compute(format!("vakonomic: {e}")))?;
            let (n, m) = (model.coordinate_count(), model.constraints.len());
            for (i, name) in names.iter().enumerate().take(n) {
                let mut terms: Vec<ExprId> = (0..n)
                    .map(|c| {
                        let a = g.symbol_expr(g.coordinate(c)[2]);
                        g.mul2(vk.mass_matrix[i * n + c], a)
                    })
                    .collect();
                for j in 0..m {
                    let rate = g.symbol_expr(vk.multiplier_rates[j]);
                    terms.push(g.mul2(vk.rate_matrix[i * m + j], rate));
                }
                let lhs = g.add(&terms);
                out.push((format!("equation of {name}"), lhs, vk.forcing[i]));
            }
        }
        _ => {}
    }
    Ok(out)
}

pub fn run(args: &DeriveArgs) -> Result<(), Failure> {
    let method = method(&args.method)?;
    let l = load_file(&args.file)?;
    let model = &l.model;
    let mut g = model.graph.clone();
    if matches!(method, Method::Voronets | Method::Hamel | Method::Vakonomic) {
        let items = special(&mut g, model, method)?;
        let constraints = constraint_rows(&mut g, model);
        return print_named(&g, method, &items, &constraints, args.format);
    }
    let equations = expanded(&mut g, model, method.has_multipliers() || method == Method::Lagrange);
    let constraints = constraint_rows(&mut g, model);
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

/// `A q̈ = b`, row by row.
fn constraint_rows(g: &mut ExprGraph, model: &nhlab::mechanics::Model) -> Vec<(ExprId, ExprId)> {
    let n = model.coordinate_count();
    model
        .constraints
        .iter()
        .map(|c| {
            let terms: Vec<ExprId> = (0..n)
                .map(|i| {
                    let a = g.symbol_expr(g.coordinate(i)[2]);
                    g.mul2(c.jacobian[i], a)
                })
                .collect();
            (g.add(&terms), c.bias)
        })
        .collect()
}

/// Prints named items (`label: lhs = rhs`, or `label = rhs` when lhs is 0).
fn print_named(
    g: &ExprGraph,
    method: Method,
    items: &[(String, ExprId, ExprId)],
    constraints: &[(ExprId, ExprId)],
    format: DeriveFormat,
) -> Result<(), Failure> {
    let form = match method {
        Method::Hamel => "Hamel's embedding: Ψ q̈₂ = G, with E = G − H (zero iff Hamel gives the true motion)",
        Method::Voronets => "Voronets: the true motion in the independent velocities, Ψ q̈₂ = H = Nᵀ(F − Mγ)",
        _ => "vakonomic: d/dt[∂L/∂v + Aᵀμ] − ∂L/∂q − (∂f/∂q)ᵀμ = Q, f = 0",
    };
    let side = |lhs: ExprId, render: &dyn Fn(ExprId) -> String| {
        if g.is_zero(lhs) {
            String::new()
        } else {
            format!("{} = ", render(lhs))
        }
    };
    match format {
        DeriveFormat::Text | DeriveFormat::Latex => {
            let latex = matches!(format, DeriveFormat::Latex);
            let render = |e: ExprId| if latex { g.to_latex(e) } else { g.to_text(e) };
            println!("{} {}: {form}", if latex { "%" } else { "#" }, method.id());
            for (label, lhs, rhs) in items {
                println!("{label}: {}{}", side(*lhs, &render), render(*rhs));
            }
            for (lhs, rhs) in constraints {
                println!("constraint: {} = {}", render(*lhs), render(*rhs));
            }
        }
        DeriveFormat::Mathml => {
            for (_, lhs, rhs) in items {
                println!("{}", if g.is_zero(*lhs) { g.to_mathml(*rhs) } else { g.equation_to_mathml(*lhs, *rhs) });
            }
        }
        DeriveFormat::Json => {
            let list: Vec<serde_json::Value> = items
                .iter()
                .map(|(label, lhs, rhs)| json!({"name": label, "lhs": if g.is_zero(*lhs) { serde_json::Value::Null } else { json!(g.to_text(*lhs)) }, "rhs": g.to_text(*rhs)}))
                .collect();
            println!("{}", json!({"method": method.id(), "form": form, "items": list}));
        }
    }
    Ok(())
}
