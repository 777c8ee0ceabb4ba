//! From a scenario's text to everything a run needs, every problem at its place.
//! The command line and the web lab both start here.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

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
    /// The parameter sets of `[compare]`, in name order, each with its own initial
    /// state (omitted velocities solved with its values).
    pub sets: Vec<ParameterSet>,
}

/// A parameter set to overlay: a run of the same model with other parameter values.
#[derive(Clone, Debug, PartialEq)]
pub struct ParameterSet {
    /// Its name in `[compare]`.
    pub name: String,
    /// Every parameter's value, in [`Base::parameters`](crate::mechanics::Base::parameters) order.
    pub parameters: Vec<f64>,
    /// The initial state with these values.
    pub initial: State,
}

impl ParameterSet {
    /// `name: m = 2, a = 0.3`: the name and the values that differ from `base`
    /// (the scenario's own), for a legend.
    pub fn label(&self, model: &Model, base: &[f64]) -> String {
        let changed: Vec<String> = model
            .parameters
            .iter()
            .zip(&self.parameters)
            .zip(base)
            .filter(|((_, set), base)| set.to_bits() != base.to_bits())
            .map(|((p, set), _)| format!("{} = {set}", p.name))
            .collect();
        if changed.is_empty() {
            format!("{} (the same values)", self.name)
        } else {
            format!("{}: {}", self.name, changed.join(", "))
        }
    }
}

/// The starts of `[compare]`'s parameter sets; a set whose initial state cannot be
/// completed is a problem at `compare.<name>`.
fn parameter_sets(model: &Model, numeric: &NumericModel, map: &SourceMap) -> Result<Vec<ParameterSet>, Problems> {
    let mut sets = Vec::new();
    let mut problems = Vec::new();
    for (name, parameters) in model.parameter_sets() {
        let mut numeric = numeric.clone();
        numeric.parameters.clone_from(&parameters);
        match initial_state_with_warnings(model, &mut numeric, map) {
            Ok((initial, _)) => sets.push(ParameterSet { name, parameters, initial }),
            Err(Problems(found)) => {
                let field = format!("compare.{name}");
                problems.extend(found.into_iter().map(|p| {
                    let said = p.said.unwrap_or_else(|| crate::message::phrase::verbatim(&p.message));
                    let message = crate::message::problem::with_set(&p.field, crate::message::Part(said));
                    map.said(&field, message)
                }));
            }
        }
    }
    if problems.is_empty() {
        Ok(sets)
    } else {
        Err(Problems(problems))
    }
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
            NumericModel::new(model).map_err(|e| Problems(vec![Problem::said("model", None, e.message())]))
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
        let sets = parameter_sets(&model, &numeric, &map)?;
        Ok(Prepared { model, numeric, initial, map, sets })
    }
}

impl Prepared {
    /// The benchmark kernel shared by the native and the browser benchmarks:
    /// `count` right-hand sides of `method` at states along a small perturbation of
    /// the initial one, called as a run's integrator calls them (Lagrange's into a
    /// slice, without allocating; the other methods' solutions as they come).
    /// Returns the sum of the accelerations, so the work is used.
    pub fn rhs_loop(
        &self,
        method: crate::formulations::Method,
        count: usize,
    ) -> Result<f64, crate::mechanics::DynamicsError> {
        let mut numeric = self.numeric.clone();
        let s = &self.initial;
        let mut q = s.q.clone();
        let mut accelerations = vec![0.0; numeric.n()];
        let mut sum = 0.0;
        for k in 0..count {
            q[0] = s.q[0] + 1e-9 * (k % 1000) as f64;
            if method == crate::formulations::Method::Lagrange {
                crate::formulations::lagrange_into(&mut numeric, s.t, &q, &s.v, &mut accelerations)?;
                sum += accelerations.iter().sum::<f64>();
            } else {
                let r =
                    crate::formulations::accelerations_with_multipliers(method, &mut numeric, s.t, &q, &s.v, &s.mu)?;
                sum += r.accelerations.sum();
            }
        }
        Ok(sum)
    }
}
