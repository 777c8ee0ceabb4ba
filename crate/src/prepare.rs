//! From a scenario's text to everything a run needs, every problem at its place.
//! The command line and the web lab both start here.

use alloc::format;
use alloc::vec;

use crate::mechanics::{Model, Needs, NumericModel};
use crate::scenario::{load, Format, Problem, Problems, Scenario, SourceMap};
use crate::simulation::{initial_state_with_warnings, State};

/// A loaded, validated, compiled scenario with its initial state.
#[derive(Clone)]
pub struct Prepared {
    /// The model (it holds the scenario).
    pub model: Model,
    /// Its compiled form.
    pub numeric: NumericModel,
    /// The initial state, omitted velocities solved.
    pub initial: State,
    /// Field positions in the text, and warnings (unknown fields, velocities the
    /// constraints leave free).
    pub map: SourceMap,
}

impl Prepared {
    /// Loads, validates and compiles `text`, with everything derived.
    pub fn from_text(text: &str, format: Format) -> Result<Prepared, Problems> {
        Prepared::from_text_for(text, format, |_| Needs::ALL)
    }

    /// Loads, validates and compiles `text`, deriving what `needs` asks of the
    /// scenario read (e.g. the methods of its `run.methods`).
    pub fn from_text_for(text: &str, format: Format, needs: impl Fn(&Scenario) -> Needs) -> Result<Prepared, Problems> {
        let (scenario, map) = load(text, format)?;
        let needs = needs(&scenario);
        Prepared::from_scenario_for(&scenario, map, needs)
    }

    /// Validates and compiles a scenario already read (`map` gives positions), with
    /// everything derived.
    pub fn from_scenario(scenario: &Scenario, map: SourceMap) -> Result<Prepared, Problems> {
        Prepared::from_scenario_for(scenario, map, Needs::ALL)
    }

    /// Validates and compiles a scenario already read, deriving what `needs` asks.
    ///
    /// When it fails, the problems are preceded by the fields the file has and the
    /// format does not (warnings on success): a misspelt `[definition]` is the cause
    /// of the `unknown name` that follows, and says so with its "did you mean".
    pub fn from_scenario_for(scenario: &Scenario, mut map: SourceMap, needs: Needs) -> Result<Prepared, Problems> {
        let with_unknown_fields = |mut problems: Problems| {
            let mut all = map.warnings.clone();
            all.append(&mut problems.0);
            Problems(all)
        };
        let mut model = Model::build_for(scenario, &map, needs).map_err(with_unknown_fields)?;
        let compile = |model: &Model| {
            NumericModel::new(model)
                .map_err(|e| Problems(vec![Problem { field: "model".into(), position: None, message: format!("{e}") }]))
        };
        let mut numeric = compile(&model)?;
        let (initial, warnings) =
            initial_state_with_warnings(&model, &mut numeric, &map).map_err(with_unknown_fields)?;
        map.warnings.extend(warnings);
        // A split the lab chose at the initial state is checked along the true motion,
        // and replaced by one that stays regular there when it turns singular.
        let t_end = scenario.run.t_end_or_default();
        if let Some(choice) = crate::simulation::split_choice::choose_along_motion(&model, &numeric, &initial, t_end) {
            let same = model.hamel.as_ref().is_ok_and(|h| h.dependent == choice.dependent);
            if same {
                model.hamel_choice = Some(choice.note);
            } else {
                model.rederive_hamel(&choice.dependent, choice.note);
                numeric = compile(&model)?;
            }
        }
        Ok(Prepared { model, numeric, initial, map })
    }
}

impl Prepared {
    /// The benchmark kernel shared by the native and the browser benchmarks:
    /// `count` right-hand sides of `method` at states along a small perturbation of
    /// the initial one. Returns the sum of the accelerations, so the work is used.
    pub fn rhs_loop(
        &self,
        method: crate::formulations::Method,
        count: usize,
    ) -> Result<f64, crate::mechanics::DynamicsError> {
        let mut numeric = self.numeric.clone();
        let s = &self.initial;
        let mut q = s.q.clone();
        let mut sum = 0.0;
        for k in 0..count {
            q[0] = s.q[0] + 1e-9 * (k % 1000) as f64;
            let r = crate::formulations::accelerations_with_multipliers(method, &mut numeric, s.t, &q, &s.v, &s.mu)?;
            sum += r.accelerations.sum();
        }
        Ok(sum)
    }
}
