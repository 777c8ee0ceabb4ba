//! Lazy derivation (`Needs`): a model built without Hamel's split or the vakonomic
//! equations gives exactly the same equations and numbers for everything else, a
//! model built for one method gives that method's numbers exactly, and what was not
//! derived says so instead of answering. The constraints' own program (what
//! completing a state reads) gives the main program's `A`, `f`, `φ` bit for bit.

use nhlab::derivation::derive;
use nhlab::formulations::{accelerations, applicability, e_vector, Method};
use nhlab::mechanics::{Model, Needs, NumericModel};
use nhlab::scenario::load_toml;
use nhlab_tests::scenarios::{names, text};

fn built(name: &str, needs: Needs) -> (Model, NumericModel) {
    let (scenario, map) = load_toml(&text(name)).expect("loads");
    let model = Model::build_for(&scenario, &map, needs).unwrap_or_else(|e| panic!("{name}: {e}"));
    let numeric = NumericModel::new(&model).expect("compiles");
    (model, numeric)
}

/// States near the initial one (on or off the constraints: only equality matters).
fn states(model: &Model) -> Vec<(f64, Vec<f64>, Vec<f64>)> {
    let n = model.coordinate_count();
    (0..4)
        .map(|k| {
            let s = 0.3 * k as f64;
            let q = (0..n).map(|i| 0.2 + 0.1 * i as f64 + 0.05 * s.sin()).collect();
            let v = (0..n).map(|i| 0.3 - 0.07 * i as f64 + 0.1 * s.cos()).collect();
            (s, q, v)
        })
        .collect()
}

#[test]
fn the_constraints_program_gives_the_main_programs_numbers_bit_for_bit() {
    let bits = |x: &[f64]| x.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
    let mut checked = 0;
    for name in names() {
        let (model, mut numeric) = built(&name, Needs::ALL);
        for (t, q, v) in states(&model) {
            let Ok(whole) = numeric.evaluate(t, &q, &v).cloned() else { continue };
            let alone = numeric.constraint_terms(t, &q, &v).expect("finite where the whole program is");
            assert_eq!(bits(alone.jacobian.as_slice()), bits(whole.jacobian.as_slice()), "{name}: A");
            assert_eq!(bits(alone.residuals.as_slice()), bits(whole.residuals.as_slice()), "{name}: f");
            assert_eq!(
                bits(alone.position_residuals.as_slice()),
                bits(whole.position_residuals.as_slice()),
                "{name}: φ"
            );
            let a = numeric.jacobian_at(t, &q, &v).expect("finite");
            assert_eq!(bits(a.as_slice()), bits(whole.jacobian.as_slice()), "{name}: jacobian_at");
            checked += usize::from(!model.constraints.is_empty());
        }
    }
    assert!(checked > 40, "only {checked} constrained states compared");
}

#[test]
fn the_base_model_gives_the_same_equations_and_numbers_as_the_full_one() {
    for name in names() {
        let (full, mut full_numeric) = built(&name, Needs::ALL);
        let (base, mut base_numeric) = built(&name, Needs::BASE);
        for method in [Method::Lagrange, Method::UdwadiaKalaba, Method::Gauss, Method::Euler] {
            let (a, b) = (derive(&full, method), derive(&base, method));
            match (a, b) {
                (Ok(a), Ok(b)) => {
                    let text =
                        |d: &nhlab::derivation::Derivation| d.equations.iter().map(|e| d.text(e)).collect::<Vec<_>>();
                    assert_eq!(text(&a), text(&b), "{name} {}", method.id());
                }
                (a, b) => assert_eq!(a.is_ok(), b.is_ok(), "{name} {}", method.id()),
            }
            for (t, q, v) in states(&full) {
                let x = accelerations(method, &mut full_numeric, t, &q, &v).map(|s| s.accelerations);
                let y = accelerations(method, &mut base_numeric, t, &q, &v).map(|s| s.accelerations);
                assert_eq!(x, y, "{name} {} at t = {t}: bit for bit", method.id());
            }
        }
        for (t, q, v) in states(&full) {
            let x = full_numeric.evaluate(t, &q, &v).map(|t| (t.mass.clone(), t.forcing.clone(), t.bias.clone()));
            let y = base_numeric.evaluate(t, &q, &v).map(|t| (t.mass.clone(), t.forcing.clone(), t.bias.clone()));
            assert_eq!(x, y, "{name}: M, F, b at t = {t}");
        }
    }
}

#[test]
fn a_model_built_for_one_method_gives_its_numbers_exactly() {
    for name in names() {
        let (_, mut full) = built(&name, Needs::ALL);
        for method in [Method::Hamel, Method::Voronets, Method::Vakonomic] {
            let (model, mut lazy) = built(&name, Needs::for_methods(&[method], false));
            assert_eq!(applicability(&model, method).is_ok(), {
                let (m, _) = built(&name, Needs::ALL);
                applicability(&m, method).is_ok()
            });
            for (t, q, v) in states(&model) {
                let x = accelerations(method, &mut full, t, &q, &v).map(|s| s.accelerations);
                let y = accelerations(method, &mut lazy, t, &q, &v).map(|s| s.accelerations);
                assert_eq!(x, y, "{name} {} at t = {t}", method.id());
            }
        }
        // The E-vector with the split derived for it alone.
        let (_, mut with_e) = built(&name, Needs::for_methods(&[Method::Lagrange], true));
        for (t, q, v) in states(&built(&name, Needs::BASE).0) {
            assert_eq!(e_vector(&mut full, t, &q, &v), e_vector(&mut with_e, t, &q, &v), "{name}: E at t = {t}");
        }
    }
}

#[test]
fn what_was_not_derived_says_so() {
    let (model, mut numeric) = built("chaplygin-sleigh", Needs::BASE);
    // Whether a method applies is the model's, derived or not (what `check` says);
    // what was not derived cannot be printed or computed, and says so.
    assert_eq!(applicability(&model, Method::Hamel), Ok(()));
    assert_eq!(applicability(&model, Method::Vakonomic), Ok(()));
    for method in [Method::Hamel, Method::Vakonomic] {
        let why = derive(&model, method).expect_err("not derived").to_string();
        assert!(why.contains("not derived"), "{}: {why}", method.id());
    }
    assert!(accelerations(Method::Hamel, &mut numeric, 0.0, &[0.0; 3], &[1.0, 0.0, 0.5]).is_err());
    assert!(e_vector(&mut numeric, 0.0, &[0.0; 3], &[1.0, 0.0, 0.5]).is_none(), "no E without the split");
    // A [hamel] dependent that is singular is refused when the split is derived, and
    // not looked at when it is not.
    let bad = text("chaplygin-sleigh").replace("dependent = [\"y\"]", "dependent = [\"phi\"]");
    let (scenario, map) = load_toml(&bad).expect("loads");
    let refused = Model::build_for(&scenario, &map, Needs::ALL).expect_err("A₁ = ∂f/∂φ' = 0");
    assert!(refused.to_string().contains("hamel.dependent"), "{refused}");
    assert!(Model::build_for(&scenario, &map, Needs::BASE).is_ok(), "the base model does not use the split");
}

/// A right-hand side evaluates only `M`, `F`, `A`, `b` (the program computes them
/// first); they are the full evaluation's bit for bit, and the diagnostics are left
/// as the last full evaluation put them.
#[test]
fn the_dynamics_alone_are_the_full_evaluation_s() {
    for name in names() {
        let (model, mut numeric) = built(&name, Needs::BASE);
        let states = states(&model);
        let (t0, q0, v0) = &states[0];
        let before = numeric.evaluate(*t0, q0, v0).expect("finite").clone();
        for (t, q, v) in &states[1..] {
            let full = numeric.evaluate(*t, q, v).cloned();
            numeric.evaluate(*t0, q0, v0).expect("finite");
            let dynamics = numeric.evaluate_dynamics(*t, q, v).cloned();
            match (full, dynamics) {
                (Ok(full), Ok(d)) => {
                    assert_eq!(
                        (&full.mass, &full.forcing, &full.jacobian, &full.bias),
                        (&d.mass, &d.forcing, &d.jacobian, &d.bias),
                        "{name}"
                    );
                    assert_eq!(
                        (&d.residuals, d.energy.to_bits()),
                        (&before.residuals, before.energy.to_bits()),
                        "{name}: diagnostics untouched"
                    );
                }
                (Err(_), Err(_)) => {}
                (full, dynamics) => {
                    // Only a non-finite diagnostic (energy, residual) can fail the full one alone.
                    assert!(full.is_err() && dynamics.is_ok(), "{name}: {full:?} vs {dynamics:?}");
                }
            }
        }
    }
}

/// Hamel's terms are compiled after the main outputs, in one program with them:
/// they equal the terms compiled on their own from the split's graph, to rounding
/// (the shared subexpressions are the same operations).
#[test]
fn hamel_s_terms_in_the_main_program_are_the_split_s_own() {
    let mut compared = 0;
    for name in names() {
        let (model, mut numeric) = built(&name, Needs::for_methods(&[Method::Lagrange], true));
        let (Ok(split), Some(graph)) = (&model.hamel, &model.hamel_graph) else { continue };
        let mut outputs = vec![split.determinant];
        outputs.extend(split.psi.iter().chain(&split.g).chain(&split.h).chain(&split.e));
        let n = model.coordinate_count();
        let mut inputs = vec![graph.time()];
        inputs.extend((0..n).map(|i| graph.coordinate(i)[0]));
        inputs.extend((0..n).map(|i| graph.coordinate(i)[1]));
        inputs.extend(model.parameters.iter().map(|p| p.symbol));
        let mut own = graph.compile(&outputs, &inputs).expect("compiles").into_evaluator();
        let mut values = vec![0.0; outputs.len()];
        for (t, q, v) in states(&model) {
            let x: Vec<f64> = [t].iter().chain(&q).chain(&v).chain(&numeric.parameters).copied().collect();
            own.eval(&x, &mut values).expect("shapes");
            let Some(Ok(h)) = numeric.hamel_terms(t, &q, &v) else { continue };
            let fused: Vec<f64> = [h.determinant]
                .iter()
                .chain(h.psi.transpose().iter())
                .chain(&h.g)
                .chain(&h.h)
                .chain(&h.e)
                .copied()
                .collect();
            for (k, (a, b)) in fused.iter().zip(&values).enumerate() {
                assert!((a - b).abs() <= 1e-13 * b.abs().max(1.0), "{name} output {k} at t = {t}: {a} vs {b}");
            }
            compared += 1;
        }
    }
    assert!(compared > 20, "{compared} states compared");
}

/// `nhlab check` derives neither Hamel's terms nor the vakonomic equations (for the
/// tractor with 35 trailers they were 1 s of its 1.15 s): what it says of the split
/// and of every method must be what the full derivation says, on every gallery item.
#[test]
fn what_check_says_without_deriving_is_what_the_derivation_says() {
    use nhlab::mechanics::SplitError;
    use nhlab::scenario::Format;
    use nhlab::simulation::split_choice::choose_along_motion_without_terms;
    for name in nhlab_tests::scenarios::names() {
        let text = nhlab_tests::scenarios::text(&name);
        let full = nhlab::prepare::Prepared::from_text_for(&text, Format::Toml, |_| Needs::ALL).unwrap();
        let light = nhlab::prepare::Prepared::from_text_for(&text, Format::Toml, |_| Needs::BASE).unwrap();
        for method in Method::ALL {
            assert_eq!(
                applicability(&light.model, method),
                applicability(&full.model, method),
                "{name}: {}",
                method.id()
            );
        }
        let gives_split = light.model.scenario.hamel.as_ref().is_some_and(|h| !h.dependent.is_empty());
        if gives_split || light.model.constraints.is_empty() {
            continue;
        }
        assert_eq!(light.model.hamel.as_ref().err(), Some(&SplitError::NotDerived));
        match (&full.model.hamel, light.model.split_without_terms()) {
            (Ok(split), Ok(first)) => {
                let t_end = light.model.scenario.run.t_end_or_default();
                let choice =
                    choose_along_motion_without_terms(&light.model, &light.numeric, &light.initial, t_end, first);
                assert_eq!(choice.map(|c| c.dependent).as_ref(), Some(&split.dependent), "{name}");
            }
            (Err(a), Err(b)) => assert_eq!(a.to_string(), b.to_string(), "{name}"),
            (a, b) => panic!("{name}: derived {a:?}, without terms {b:?}"),
        }
    }
}
