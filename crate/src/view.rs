//! What a scenario's `[view]` asks to see, compiled once and evaluated along samples.
//! `nhlab run --plot` and the web lab both draw from it, so they plot the same numbers.
//!
//! Outputs are always laid out as `[trajectory x, trajectory y, series…]`. Without a
//! `[view]` the trajectory is the first two coordinates (or the first against `t`)
//! and the one series is the first coordinate's velocity.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use crate::expr::{CompileError, Evaluator};
use crate::mechanics::{fill_state_inputs, Model};
use crate::simulation::Sample;

/// The compiled view of a model.
pub struct View {
    evaluator: Evaluator,
    /// Labels of the outputs: the trajectory's two axes, then each series.
    pub labels: Vec<String>,
    out: Vec<f64>,
    inputs: Vec<f64>,
}

impl View {
    /// Compiles the view expressions over `[t, q…, v…, parameters…]`.
    pub fn new(model: &Model) -> Result<View, CompileError> {
        let g = &model.graph;
        let n = model.coordinate_count();
        let inputs = model.state_inputs();
        let spec = &model.scenario.view;
        let (exprs, labels) = if model.view.is_empty() {
            let q = |i: usize| g.symbol_expr(g.coordinate(i.min(n - 1))[0]);
            let names = model.coordinate_names();
            let (second, second_expr) =
                if n > 1 { (names[1].clone(), q(1)) } else { ("t".into(), g.symbol_expr(g.time())) };
            (
                vec![q(0), second_expr, g.symbol_expr(g.coordinate(0)[1])],
                vec![names[0].clone(), second, format!("{}'", names[0])],
            )
        } else {
            let mut labels: Vec<String> =
                if spec.trajectory.len() == 2 { spec.trajectory.clone() } else { vec!["t".into(), "t".into()] };
            labels.extend(spec.series.iter().cloned());
            let mut exprs = model.view.clone();
            if spec.trajectory.len() != 2 {
                exprs.splice(0..0, [g.symbol_expr(g.time()), g.symbol_expr(g.time())]);
            }
            (exprs, labels)
        };
        let program = g.compile(&exprs, &inputs)?;
        let out = vec![0.0; program.output_count()];
        let inputs = vec![0.0; program.input_count()];
        Ok(View { evaluator: program.into_evaluator(), labels, out, inputs })
    }

    /// The number of outputs (2 + the number of series).
    pub fn len(&self) -> usize {
        self.out.len()
    }

    /// Whether there are no outputs (never: the trajectory is always there).
    pub fn is_empty(&self) -> bool {
        self.out.is_empty()
    }

    /// The outputs at one sample (NaN where an expression is undefined).
    pub fn at(&mut self, parameters: &[f64], s: &Sample) -> &[f64] {
        fill_state_inputs(&mut self.inputs, s.t, &s.q, &s.v, parameters);
        if self.evaluator.eval(&self.inputs, &mut self.out).is_err() {
            self.out.fill(f64::NAN);
        }
        &self.out
    }

    /// The outputs at every sample.
    pub fn values(&mut self, parameters: &[f64], samples: &[Sample]) -> Vec<Vec<f64>> {
        samples.iter().map(|s| self.at(parameters, s).to_vec()).collect()
    }
}
