//! Section 3b: the contact forces' cost per sample.

use super::*;

/// Section 3b: the contact forces' cost per sample (goal: at most 1.2× a run
/// without them): a run recording every column, with and without the contact
/// forces (and the lift-off and slip checks that come with them), in machine code
/// as `nhlab run` steps, and interpreted as the page does.
pub(super) fn contact_forces(quick: bool) {
    use nhlab::simulation::{Diagnostics, Settings, Simulation};
    println!("== 3b. contact forces and their checks per sample, against the same run without them (goal <= 1.2)");
    let (batch, reps) = if quick { (3, 5) } else { (10, 11) };
    for name in ["rolling-disk", "rattleback", "whipple-bicycle"] {
        let (model, numeric, state) = load(&scenario(name));
        let mut native = numeric.clone();
        assert!(nhlab_native::use_for_lagrange(&model, &mut native, true).expect("compiles"), "{name}");
        assert!(nhlab_native::use_for_contacts(&mut native).expect("compiles"), "{name}");
        for (route, numeric) in [("native code", &native), ("interpreted", &numeric)] {
            let with = Settings { compulsion: false, ..Settings::from_scenario(&model.scenario.run, Method::Lagrange) };
            let without = Settings { diagnostics: Diagnostics { contacts: false, ..Diagnostics::ALL }, ..with };
            let (mut times, mut samples) = ([f64::INFINITY; 2], 0);
            for _ in 0..reps {
                for (k, settings) in [with, without].into_iter().enumerate() {
                    let mut fresh: Vec<Simulation> = (0..batch)
                        .map(|_| Simulation::new(numeric.clone(), settings, &state).expect("starts"))
                        .collect();
                    times[k] = times[k].min(best(1, &mut || {
                        for sim in fresh.iter_mut() {
                            sim.advance_to(2.0).expect("runs");
                            samples = sim.samples().len();
                        }
                    }));
                }
            }
            println!(
                "contact forces {name} to t = 2 ({route}, {samples} samples): {:.1} us per sample with them, \
                 ratio_vs_without: {:.2}",
                times[0] / (batch * samples) as f64 * 1e6,
                times[0] / times[1]
            );
        }
    }
}
