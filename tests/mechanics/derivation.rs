//! The equations every method derives for every scenario: the text parses back to
//! the same expressions, the MathML is well-formed, and a method that cannot apply
//! says why (and only where it cannot).

use nhlab::derivation::derive;
use nhlab::expr::{ParseErrorKind, ParseOptions};
use nhlab::formulations::Method;
use nhlab::simulation::{Settings, Simulation};

use nhlab_tests::scenarios::names as scenario_names;

#[test]
fn every_scenario_derives_under_every_method_that_applies() {
    for name in scenario_names() {
        let (model, _, _) = nhlab_tests::scenarios::load(&name);
        for method in Method::ALL {
            let d = match derive(&model, method) {
                Ok(d) => d,
                Err(e) => {
                    // Only a method the lab says does not apply may fail, with that reason.
                    let expected = nhlab::formulations::applicability(&model, method)
                        .is_err_and(|why| e.to_string().contains(why.as_str()));
                    // The Whipple bicycle's multiplier forms print ~430,000 terms even
                    // with shared parts named, past the printing bound: refused with
                    // that reason (its Hamel, Voronets and vakonomic forms print).
                    let too_large = name == "whipple-bicycle"
                        && !matches!(method, Method::Hamel | Method::Voronets | Method::Vakonomic)
                        && e.to_string().contains("too large to print");
                    assert!(expected || too_large, "{name} {}: {e}", method.id());
                    continue;
                }
            };
            assert!(!d.equations.is_empty());
            let mut g = d.graph.clone();
            for e in &d.equations {
                for x in e.lhs.iter().chain([&e.rhs]) {
                    let text = g.to_text(*x);
                    let back = g.parse_with(&text, ParseOptions { allow_accelerations: true });
                    // The bicycle's Hamel form has shared parts longer than the parser
                    // takes from a user (64 KiB): those are refused for that reason only.
                    if name == "whipple-bicycle" && text.len() > nhlab::expr::MAX_EXPRESSION_BYTES {
                        assert!(matches!(back, Err(ref p) if matches!(p.kind, ParseErrorKind::TooLong { .. })));
                        continue;
                    }
                    assert_eq!(back, Ok(*x), "{name} {} {}: {text}", method.id(), e.label);
                }
                roxmltree::Document::parse(&d.mathml(e)).unwrap_or_else(|err| panic!("{name} {}: {err}", method.id()));
            }
        }
    }
}

#[test]
fn the_export_table_has_the_spec_columns_and_one_row_per_sample() {
    let (model, numeric, state) = nhlab_tests::scenarios::load("chaplygin-sleigh");
    let mut runs = Vec::new();
    for method in [Method::Lagrange, Method::Vakonomic] {
        let mut sim =
            Simulation::new(numeric.clone(), Settings::from_scenario(&model.scenario.run, method), &state).unwrap();
        sim.advance_sampling(&[0.5, 1.0]).unwrap();
        runs.push((method, sim.samples().to_vec()));
    }
    let borrowed: Vec<_> = runs.iter().map(|(m, s)| (*m, s.as_slice())).collect();
    let table = nhlab::export::samples_table(&model, &borrowed, "test".into());
    assert_eq!(table.columns.join(","), "method,t,x,y,phi,x',y',phi',mu1,energy,res_edge,E_x,E_phi");
    assert_eq!(table.rows.len(), 6);
    assert!(table.rows.iter().all(|r| r.len() == table.columns.len()));
    let csv = table.to_csv();
    assert_eq!(csv.lines().count(), 1 + 6);
    assert!(csv.starts_with("method,t,x,"), "the header is the first line");
    let json: serde_json::Value = serde_json::from_str(&table.to_json()).unwrap();
    assert_eq!(json["rows"][0][8], serde_json::Value::Null, "lagrange rows leave mu empty");
}

/// The matrix form says the same as the expanded equations: row i of `M q̈` is the
/// left side of equation i, `E = G − H`, and `A q̈ = b` row by row; checked at
/// random points by evaluation. Its MathML is well-formed and its LaTeX has the shape.
#[test]
fn the_matrix_form_agrees_with_the_expanded_equations() {
    for name in scenario_names() {
        let (model, _, _) = nhlab_tests::scenarios::load(&name);
        let n = model.coordinate_count();
        for method in Method::ALL {
            let Ok(d) = derive(&model, method) else { continue };
            let g = &d.graph;
            let random = nhlab_tests::point(7);
            // Shared parts named `w1 = …` (large models) take their defined values.
            let mut shared = std::collections::HashMap::new();
            for e in d.equations.iter().filter(|e| e.label.starts_with("shared ")) {
                let Some(nhlab::expr::Node::Symbol(w)) = e.lhs.map(|l| g.node(l).clone()) else {
                    panic!("{}", e.label)
                };
                let v = g.evaluate(e.rhs, &|s| shared.get(&s).copied().unwrap_or_else(|| random(s)));
                shared.insert(w, v);
            }
            let value = |s| shared.get(&s).copied().unwrap_or_else(|| random(s));
            let at = |e| g.evaluate(e, &value);
            let find = |label: &str| d.matrices.iter().find(|m| m.name == label);
            for m in &d.matrices {
                assert_eq!(m.entries.len(), m.rows * m.cols, "{name} {} {}", method.id(), m.name);
                roxmltree::Document::parse(&d.matrix_mathml(m)).unwrap_or_else(|e| panic!("{name} {}: {e}", m.name));
                let latex = d.matrix_latex(m);
                assert_eq!(latex.matches(" & ").count(), m.rows * (m.cols - 1), "{name} {}: {latex}", m.name);
                assert_eq!(latex.matches(" \\\\ ").count(), m.rows - 1, "{name} {}: {latex}", m.name);
            }
            let accelerations: Vec<f64> = (0..n).map(|i| value(g.coordinate(i)[2])).collect();
            let motion: Vec<_> = d.equations.iter().filter(|e| e.label.starts_with("equation of ")).collect();
            if let Some(mass) = find("M") {
                for (i, equation) in motion.iter().take(n).enumerate() {
                    let lhs = equation.lhs.expect("an equation");
                    let row: f64 = (0..n).map(|j| at(mass.entries[i * n + j]) * accelerations[j]).sum();
                    let expected = at(lhs);
                    assert!(
                        (row - expected).abs() <= 1e-9 * (1.0 + expected.abs()),
                        "{name} {} row {i}: {row} vs {expected} ({})",
                        method.id(),
                        equation.label
                    );
                }
            }
            if let (Some(e), Some(gm), Some(h)) = (find("E"), find("G"), find("H")) {
                for k in 0..e.rows {
                    let (ev, gv, hv) = (at(e.entries[k]), at(gm.entries[k]), at(h.entries[k]));
                    assert!((ev - (gv - hv)).abs() <= 1e-9 * (1.0 + ev.abs()), "{name}: E = G − H, row {k}");
                }
            }
            if let (Some(a), Some(b)) = (find("A"), find("b")) {
                let constraints: Vec<_> = d.equations.iter().filter(|e| e.label.starts_with("constraint ")).collect();
                assert_eq!(constraints.len(), a.rows);
                for (r, c) in constraints.iter().enumerate() {
                    let row: f64 = (0..n).map(|j| at(a.entries[r * n + j]) * accelerations[j]).sum();
                    let lhs = at(c.lhs.expect("an equation"));
                    assert!((row - lhs).abs() <= 1e-9 * (1.0 + lhs.abs()), "{name}: A row {r}");
                    assert_eq!(b.entries[r], c.rhs);
                }
            }
        }
    }
}
