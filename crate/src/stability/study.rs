//! A stability study as a scenario's `[stability]` table (or the command line's
//! flags) describes it: the reference state, the ignorable coordinates and what is
//! swept, resolved against the model once, then linearised at any swept value.
//! The command line and the page both go through it.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{linearize, sweep, Derivatives, Linearization, Reference, Sweep};
use crate::formulations::Method;
use crate::mechanics::{Model, NumericModel};
use crate::message::stability as say;
use crate::message::{Message, Part};
use crate::scenario::{SourceMap, StabilitySpec, SweepSpec};
use crate::simulation::state_given;

/// Most derivative expressions compiled (2n variables × the n² + n + mn + 2m terms):
/// the bicycle needs 1,952; past this a model is too large to linearise.
pub const MAX_DERIVATIVES: usize = 200_000;

/// Why a study cannot be made or run: the key of `[stability]` (or the flag) it
/// concerns, when one, and why. `Display` writes `key: why`, as the command line
/// says it; the page puts `stability.` before the key.
#[derive(Clone, Debug, PartialEq)]
pub struct StudyError {
    /// The key (`method`, `sweep.axis.value`), or `None`.
    pub key: Option<&'static str>,
    /// Why.
    pub why: Message,
}

impl StudyError {
    /// Why, at `key`.
    pub fn at(key: &'static str, why: Message) -> Self {
        StudyError { key: Some(key), why }
    }

    /// Why, at no key.
    pub fn unplaced(why: Message) -> Self {
        StudyError { key: None, why }
    }

    /// Said with the key after `prefix` (`stability.` for a scenario's table).
    pub fn message(&self, prefix: &str) -> Message {
        match self.key {
            Some(key) => say::at_key(format!("{prefix}{key}"), Part(self.why.clone())),
            None => self.why.clone(),
        }
    }
}

impl core::fmt::Display for StudyError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&self.message("").english)
    }
}

/// What is swept.
#[derive(Clone, Debug, PartialEq)]
pub enum Swept {
    /// A parameter, by index in the model's parameters.
    Parameter(usize),
    /// A velocity `x'`, set in the reference state (the others solved from the
    /// constraints).
    Velocity(String),
}

/// A study resolved against a model.
#[derive(Clone, Debug)]
pub struct Study {
    /// The method linearised.
    pub method: Method,
    /// The reference state's settings, in order (`t`, `x`, `x'`).
    pub at: Vec<(String, f64)>,
    /// Ignorable coordinates (indices).
    pub ignorable: Vec<usize>,
    /// The swept quantity's name, what it is, and its values.
    pub sweep: Option<(String, Swept, Vec<f64>)>,
    /// The quantity derived from the swept one that figures show the sweep against
    /// (`sweep.axis`), at each swept value.
    pub axis: Option<super::Axis>,
    /// Warnings met while completing reference states (each once).
    pub warnings: Vec<Message>,
    /// Which ignorable coordinates' speeds may be held (`Reference::hold`).
    pub hold: Option<Vec<usize>>,
    /// The dependent coordinates chosen by the user (`Reference::dependent`).
    pub dependent: Option<Vec<usize>>,
}

impl Study {
    /// The derivatives this study's method needs (Hamel's own for `hamel`).
    pub fn derivatives(&self, model: &Model) -> Result<Derivatives, StudyError> {
        let compile = |e: crate::expr::CompileError| StudyError::unplaced(e.message());
        let d = if self.method == Method::Hamel {
            Derivatives::with_hamel(model)
                .map_err(compile)?
                .ok_or_else(|| StudyError::at("method", say::hamel(Part(say::no_hamel_split()))))?
        } else {
            Derivatives::new(model).map_err(compile)?
        };
        Ok(d)
    }

    /// Resolves `spec` against `model`: messages name the spec's keys
    /// (`ignorable`, `sweep.over`, …); the caller says where they came from.
    pub fn new(model: &Model, spec: &StabilitySpec) -> Result<Self, StudyError> {
        let method = spec.linearised_method().map_err(|e| StudyError::at("method", e))?;
        if method == Method::Hamel {
            if let Err(e) = &model.hamel {
                return Err(StudyError::at("method", say::hamel(Part(e.message()))));
            }
        }
        if method == Method::Euler && !model.constraints_are_linear() {
            return Err(StudyError::at("method", say::euler_nonlinear()));
        }
        let coordinates = &model.scenario.coordinates;
        let mut ignorable = Vec::new();
        for name in &spec.ignorable {
            let i = coordinates
                .iter()
                .position(|c| c == name)
                .ok_or_else(|| StudyError::at("ignorable", crate::message::problem::not_a_coordinate(name)))?;
            ignorable.push(i);
        }
        let (n, m) = (model.coordinate_count(), model.constraints.len());
        let count = 2 * n * (n * n + n + m * n + 2 * m);
        if count > MAX_DERIVATIVES {
            return Err(StudyError::unplaced(say::too_large(n, m, count, MAX_DERIVATIVES)));
        }
        let sweep = match &spec.sweep {
            None => None,
            Some(s) => Some(Self::swept(model, s)?),
        };
        let axis = match (&spec.sweep, &sweep) {
            (Some(SweepSpec { axis: Some(a), .. }), Some((over, _, values))) => {
                let parameters: Vec<(String, f64)> =
                    model.parameters.iter().map(|p| (p.name.clone(), p.value)).collect();
                Some(super::derived_axis(a, over, values, &parameters)?)
            }
            _ => None,
        };
        let at = spec.at.iter().map(|(k, v)| (k.clone(), *v)).collect();
        let dependent = match &spec.dependent {
            None => None,
            Some(names) => Some(
                names
                    .iter()
                    .map(|name| {
                        coordinates
                            .iter()
                            .position(|c| c == name)
                            .ok_or_else(|| StudyError::at("dependent", crate::message::problem::not_a_coordinate(name)))
                    })
                    .collect::<Result<Vec<_>, _>>()?,
            ),
        };
        Ok(Self { method, at, ignorable, sweep, axis, warnings: Vec::new(), hold: None, dependent })
    }

    /// What `sweep` sweeps, resolved against `model`, with its values: a parameter or
    /// a velocity `x'` (an error at key `sweep` otherwise).
    pub fn swept(model: &Model, sweep: &SweepSpec) -> Result<(String, Swept, Vec<f64>), StudyError> {
        let values = sweep.values().map_err(|e| StudyError::at("sweep", e))?;
        Ok((sweep.over.clone(), Self::quantity(model, &sweep.over)?, values))
    }

    /// What `over` names: a parameter or a velocity `x'` (an error at key `sweep`
    /// otherwise).
    pub fn quantity(model: &Model, over: &str) -> Result<Swept, StudyError> {
        if let Some(i) = model.parameters.iter().position(|p| p.name == over) {
            Ok(Swept::Parameter(i))
        } else if over.strip_suffix('\'').is_some_and(|q| model.scenario.coordinates.iter().any(|c| c == q)) {
            Ok(Swept::Velocity(over.into()))
        } else {
            Err(StudyError::at("sweep", say::not_sweepable(over)))
        }
    }

    /// The linearisation at the reference state, with the swept quantity at `x`
    /// (when there is a sweep and `x` is given). A swept parameter is left at `x`
    /// in `numeric`.
    pub fn at(
        &mut self,
        model: &mut Model,
        numeric: &mut NumericModel,
        derivatives: &mut Derivatives,
        map: &SourceMap,
        x: Option<f64>,
    ) -> Result<Linearization, StudyError> {
        match (self.sweep.clone(), x) {
            (Some((name, swept, _)), Some(x)) => self.at_point(model, numeric, derivatives, map, &[(&name, &swept, x)]),
            _ => self.at_point(model, numeric, derivatives, map, &[]),
        }
    }

    /// The linearisation with each of `point`'s quantities (name, what it is) at its
    /// value: a point of a stability map. Swept parameters are left at their values
    /// in `numeric`.
    pub fn at_point(
        &mut self,
        model: &mut Model,
        numeric: &mut NumericModel,
        derivatives: &mut Derivatives,
        map: &SourceMap,
        point: &[(&str, &Swept, f64)],
    ) -> Result<Linearization, StudyError> {
        let mut settings = self.at.clone();
        for &(name, swept, x) in point {
            match swept {
                Swept::Parameter(i) => numeric.parameters[*i] = x,
                Swept::Velocity(_) => settings.push((name.into(), x)),
            }
        }
        let (state, warnings) = state_given(model, numeric, map, &settings).map_err(|reasons| {
            let both = |rest: Message, first: Message| say::both(Part(first), Part(rest));
            StudyError::unplaced(
                reasons.into_iter().rev().reduce(both).unwrap_or_else(|| crate::message::phrase::verbatim("")),
            )
        })?;
        for w in warnings {
            if !self.warnings.contains(&w) {
                self.warnings.push(w);
            }
        }
        let reference = Reference {
            t: state.t,
            q: state.q,
            v: state.v,
            ignorable: self.ignorable.clone(),
            hold: self.hold.clone(),
            dependent: self.dependent.clone(),
        };
        linearize(self.method, model, numeric, derivatives, &reference).map_err(|e| StudyError::unplaced(e.message()))
    }

    /// The sweep (or the single linearisation as a one-row sweep without values).
    /// A swept parameter is restored in `numeric` afterwards.
    pub fn run(
        &mut self,
        model: &mut Model,
        numeric: &mut NumericModel,
        derivatives: &mut Derivatives,
        map: &SourceMap,
    ) -> Result<Sweep, StudyError> {
        let Some((name, _, values)) = self.sweep.clone() else {
            let lin = self.at(model, numeric, derivatives, map, None)?;
            return Ok(Sweep { values: Vec::new(), rows: alloc::vec![lin], boundaries: Vec::new() });
        };
        let saved = numeric.parameters.clone();
        let mut result = self.sweep_once(model, numeric, derivatives, map, &name, &values);
        // A speed held at some values only (the disk's yaw rate at zero spin, where
        // nothing couples to it) is kept at all of them: one state for every row.
        if let Ok(s) = &result {
            let held = |row: &Linearization| row.held_speeds.clone();
            if s.rows.iter().any(|row| held(row) != held(&s.rows[0])) {
                self.hold_only(model, |speed| s.rows.iter().all(|row| row.held_speeds.iter().any(|h| h == speed)));
                result = self.sweep_once(model, numeric, derivatives, map, &name, &values);
            }
        }
        numeric.parameters = saved;
        result
    }

    /// Holds only the ignorable coordinates' speeds (`x'`) that `held` accepts: the
    /// speeds held at every value of a sweep or point of a map, so that all of them
    /// share one state.
    pub fn hold_only(&mut self, model: &Model, held: impl Fn(&str) -> bool) {
        let names = &model.scenario.coordinates;
        self.hold = Some(self.ignorable.iter().copied().filter(|&i| held(&format!("{}'", names[i]))).collect());
    }

    fn sweep_once(
        &mut self,
        model: &mut Model,
        numeric: &mut NumericModel,
        derivatives: &mut Derivatives,
        map: &SourceMap,
        name: &str,
        values: &[f64],
    ) -> Result<Sweep, StudyError> {
        sweep(values, |x| {
            self.at(model, numeric, derivatives, map, Some(x))
                .map_err(|e| StudyError::unplaced(say::at_value(name, x, Part(e.message("")))))
        })
    }
}
