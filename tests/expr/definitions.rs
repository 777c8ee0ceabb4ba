//! Definitions: any order, shared not substituted, cycles named, all or nothing.

use nhlab::expr::{DefinitionError, ExprGraph, NameError, ParseErrorKind};
use nhlab_tests::{graph, parse, sym};

#[test]
fn definitions_may_refer_to_each_other_in_any_order() {
    let mut g = graph();
    g.define_all(&[("energy", "m/2*speed^2"), ("speed", "x'*cos(phi) + y'*sin(phi)")]).unwrap();
    let e = parse(&mut g, "energy + 1");
    assert_eq!(g.to_text(e), "energy + 1", "printed by name, not expanded");
    let (xv, phi, m) = (sym(&g, "x'"), sym(&g, "phi"), sym(&g, "m"));
    let value = |s| {
        if s == xv {
            3.0
        } else if s == m {
            2.0
        } else if s == phi {
            0.0
        } else {
            0.7
        }
    };
    assert_eq!(g.evaluate(e, &value), 10.0);
}

#[test]
fn nested_definitions_do_not_blow_up() {
    let mut g = graph();
    let mut defs = vec![("d0".to_string(), "x + 1".to_string())];
    for k in 1..=30 {
        defs.push((format!("d{k}"), format!("d{0}*d{0} + d{0}", k - 1)));
    }
    let pairs: Vec<(&str, &str)> = defs.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    g.define_all(&pairs).unwrap();
    let e = parse(&mut g, "d30");
    let before = g.len();
    let d = g.diff(e, sym(&g, "x"));
    assert!(g.len() - before < 2_000, "the derivative of 31 nested definitions stays linear in size");
    // d_k = d_{k-1}(d_{k-1} + 1): at x = -1, d0 = 0 so every d_k = 0 and d' = 1 · Π(2·0 + 1) = 1.
    let x = sym(&g, "x");
    assert_eq!(g.evaluate(d, &|s| if s == x { -1.0 } else { 0.0 }), 1.0);
    let p = g.compile(&[d], &[x]).unwrap();
    assert!(p.code().len() < 1_000);
}

#[test]
fn cycles_are_named() {
    let mut g = graph();
    let errors = g.define_all(&[("u", "v + 1"), ("v", "2*w"), ("w", "u*x"), ("z", "x")]).unwrap_err();
    assert_eq!(errors, vec![DefinitionError::Cycle(vec!["u".into(), "v".into(), "w".into()])]);
    assert_eq!(errors[0].to_string(), "definitions refer to each other in a cycle: u → v → w → u");
    let errors = g.define_all(&[("s", "s + 1")]).unwrap_err();
    assert_eq!(errors[0].to_string(), "definitions refer to each other in a cycle: s → s");
}

#[test]
fn every_problem_is_reported_and_nothing_is_declared() {
    let mut g = graph();
    let errors =
        g.define_all(&[("x", "1"), ("good", "m*2"), ("bad", "2 +"), ("sin", "1"), ("worse", "q")]).unwrap_err();
    assert_eq!(errors.len(), 4, "{errors:?}");
    assert_eq!(errors[0], DefinitionError::Name(NameError::Duplicate("x".into())));
    assert_eq!(errors[1], DefinitionError::Name(NameError::Reserved("sin".into())));
    assert!(
        matches!(&errors[2], DefinitionError::Parse { name, error } if name == "bad" && matches!(error.kind, ParseErrorKind::Expected { .. }))
    );
    assert!(matches!(&errors[3], DefinitionError::Parse { name, .. } if name == "worse"));
    assert!(g.lookup("good").is_none(), "a failed batch declares nothing");
    // And the graph is usable afterwards.
    g.define_all(&[("good", "m*2")]).unwrap();
    let e = parse(&mut g, "good");
    assert_eq!(g.to_text(e), "good");
}

#[test]
fn names_are_validated() {
    let mut g = ExprGraph::new();
    assert_eq!(g.declare_coordinate("2x"), Err(NameError::Invalid("2x".into())));
    assert_eq!(g.declare_coordinate("t"), Err(NameError::Reserved("t".into())));
    assert_eq!(g.declare_parameter("pi"), Err(NameError::Reserved("pi".into())));
    g.declare_coordinate("x").unwrap();
    assert_eq!(g.declare_parameter("x"), Err(NameError::Duplicate("x".into())));
    assert_eq!(g.declare_coordinate("x'"), Err(NameError::Invalid("x'".into())));
}

/// A hostile chain of definitions is refused before any pass could recurse through it.
#[test]
fn absurdly_deep_chains_of_definitions_are_refused() {
    let mut g = graph();
    let defs: Vec<(String, String)> =
        (0..5_000).map(|k| (format!("d{k}"), if k == 0 { "x".into() } else { format!("d{} + 1", k - 1) })).collect();
    let pairs: Vec<(&str, &str)> = defs.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let errors = g.define_all(&pairs).unwrap_err();
    assert_eq!(errors.len(), 1);
    assert!(errors[0].to_string().contains("chain of more than 32 definitions"), "{}", errors[0]);
    assert!(g.lookup("d0").is_none());
}
