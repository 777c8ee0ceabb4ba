//! `nhlab derive FILE --method M [--format text|latex|mathml|json]`: the equations of
//! motion in symbolic form, as assembled by `nhlab::derivation`.

use serde_json::json;

use nhlab::derivation::derive;
use nhlab::expr::ExprId;

use crate::args::{DeriveArgs, DeriveFormat};
use crate::input::{load_file, method};
use crate::output::emit;
use crate::Failure;
use nhlab::mechanics::Needs;

pub fn run(args: &DeriveArgs) -> Result<(), Failure> {
    let method = method(&args.method)?;
    let l = load_file(&args.file, |_| Needs::for_methods(&[method], false))?;
    let model = &l.model;
    let d = derive(model, method).map_err(|e| Failure::Compute(e.to_string()))?;
    let mut out = String::new();
    match args.format {
        DeriveFormat::Text => {
            out.push_str(&format!("# {}: {}\n", method.id(), d.form));
            for e in &d.equations {
                out.push_str(&format!("{}\n", d.text(e)));
            }
        }
        DeriveFormat::Latex => {
            out.push_str(&format!("% {}: {}\n", method.id(), d.form));
            for e in &d.equations {
                out.push_str(&format!("{} \\\\\n", d.latex(e)));
            }
        }
        DeriveFormat::Mathml => {
            for e in &d.equations {
                out.push_str(&format!("{}\n", d.mathml(e)));
            }
        }
        DeriveFormat::Json => {
            let n = model.coordinate_count();
            // M and F as printed: expanded, like the equations (the model keeps them
            // as derived, for the compiler).
            let mut printed = model.graph.clone();
            let mass: Vec<ExprId> = model.equations.mass_matrix.iter().map(|&e| printed.expand(e)).collect();
            let forcing: Vec<ExprId> = model.equations.forcing.iter().map(|&e| printed.expand(e)).collect();
            let g = &printed;
            let text = |e: &ExprId| g.to_text(*e);
            let matrix = |m: &[ExprId], cols: usize| -> Vec<Vec<String>> {
                m.chunks(cols.max(1)).map(|r| r.iter().map(text).collect()).collect()
            };
            let jac: Vec<ExprId> = model.constraints.iter().flat_map(|c| c.jacobian.clone()).collect();
            let equations: Vec<serde_json::Value> = d
                .equations
                .iter()
                .map(|e| {
                    json!({
                        "label": e.label,
                        "text": d.text(e),
                        "latex": d.latex(e),
                    })
                })
                .collect();
            let json = json!({
                "method": method.id(),
                "form": d.form,
                "mass_matrix": matrix(&mass, n),
                "forcing": forcing.iter().map(text).collect::<Vec<_>>(),
                "constraint_jacobian": matrix(&jac, n),
                "constraint_bias": model.constraints.iter().map(|c| text(&c.bias)).collect::<Vec<_>>(),
                "equations": equations,
            });
            out = format!("{json}\n");
        }
    }
    emit(&out)
}
