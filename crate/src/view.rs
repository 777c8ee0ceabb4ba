//! What a scenario's `[view]` asks to see, compiled once and evaluated along samples.
//! `nhlab run --plot` and the web lab both draw from it, so they plot the same numbers.
//!
//! Outputs are always laid out as `[trajectory x, trajectory y, series…]`. Without a
//! `[view]` the trajectory is the first two coordinates (or the first against `t`)
//! and the one series is the first coordinate's velocity.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use crate::expr::{CompileError, Evaluator};
use crate::mechanics::{fill_state_inputs, Model};
use crate::simulation::SampleRef;

/// The unit of `t` when `[units]` gives others but not it.
const DEFAULT_TIME_UNIT: &str = "s";

/// The unit of a velocity `name'`: the coordinate's unit over the time unit
/// (`m/s`, `rad/s`), when `[units]` gives the coordinate's.
pub fn velocity_unit(units: &BTreeMap<String, String>, name: &str) -> Option<String> {
    let q = units.get(name)?;
    let t = units.get("t").map_or(DEFAULT_TIME_UNIT, String::as_str);
    Some(if q.is_empty() { format!("1/{t}") } else { format!("{q}/{t}") })
}

/// The unit of a plotted expression that is just a coordinate, a velocity or `t`.
pub fn unit_of(units: &BTreeMap<String, String>, expression: &str) -> Option<String> {
    let e = expression.trim();
    if units.is_empty() {
        return None;
    }
    if e == "t" {
        return Some(units.get("t").map_or(DEFAULT_TIME_UNIT, String::as_str).into());
    }
    match e.strip_suffix('\'') {
        Some(q) => velocity_unit(units, q.trim_end()),
        None => units.get(e).cloned(),
    }
}

/// An axis label with its unit: `x [m]`, or the label alone.
pub fn axis_label(label: &str, unit: Option<&str>) -> String {
    match unit {
        Some(u) if !u.is_empty() => format!("{label} [{}]", pretty_unit(u)),
        _ => label.into(),
    }
}

/// A unit as typed (`kg m^2`, `m*s^-2`) as it reads (`kg m²`, `m·s⁻²`): exponents
/// of digits and minus signs become superscripts, `*` a middle dot.
pub fn pretty_unit(unit: &str) -> String {
    let mut out = String::with_capacity(unit.len());
    let mut chars = unit.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '^' if chars.peek().is_some_and(|d| d.is_ascii_digit() || *d == '-') => {
                while let Some(&d) = chars.peek() {
                    let sup = match d {
                        '-' => '⁻',
                        '0' => '⁰',
                        '1' => '¹',
                        '2' => '²',
                        '3' => '³',
                        '4'..='9' => char::from_u32(0x2070 + (d as u32 - '0' as u32)).unwrap_or(d),
                        _ => break,
                    };
                    out.push(sup);
                    chars.next();
                }
            }
            '*' => out.push('·'),
            _ => out.push(c),
        }
    }
    out
}

/// The compiled view of a model.
pub struct View {
    evaluator: Evaluator,
    /// Labels of the outputs: the trajectory's two axes, then each series.
    pub labels: Vec<String>,
    /// Units of the outputs that are a coordinate, a velocity or `t` (`[units]`).
    pub units: Vec<Option<String>>,
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
        let units = labels.iter().map(|l| unit_of(&model.scenario.units, l)).collect();
        Ok(View { evaluator: program.into_evaluator(), labels, units, out, inputs })
    }

    /// The outputs' axis labels, with units where `[units]` gives them.
    pub fn axis_labels(&self) -> Vec<String> {
        self.labels.iter().zip(&self.units).map(|(l, u)| axis_label(l, u.as_deref())).collect()
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
    pub fn at<'a>(&mut self, parameters: &[f64], s: impl Into<SampleRef<'a>>) -> &[f64] {
        let s = s.into();
        fill_state_inputs(&mut self.inputs, s.t, s.q, s.v, parameters);
        if self.evaluator.eval(&self.inputs, &mut self.out).is_err() {
            self.out.fill(f64::NAN);
        }
        &self.out
    }

    /// The outputs at every sample (owned, or borrowed from a run's [`Samples`](crate::simulation::Samples)).
    pub fn values<'a, S: Into<SampleRef<'a>>>(
        &mut self,
        parameters: &[f64],
        samples: impl IntoIterator<Item = S>,
    ) -> Vec<Vec<f64>> {
        samples.into_iter().map(|s| self.at(parameters, s).to_vec()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn units_read_as_printed() {
        assert_eq!(pretty_unit("kg m^2"), "kg m²");
        assert_eq!(pretty_unit("m*s^-2"), "m·s⁻²");
        assert_eq!(pretty_unit("N m^10"), "N m¹⁰");
        assert_eq!(pretty_unit("a^b"), "a^b");
        assert_eq!(axis_label("x", Some("m/s^2")), "x [m/s²]");
        let units: BTreeMap<String, String> = [("x".into(), "m".into()), ("t".into(), "min".into())].into();
        assert_eq!(unit_of(&units, "x'").as_deref(), Some("m/min"));
        assert_eq!(unit_of(&units, "t").as_deref(), Some("min"));
        assert_eq!(unit_of(&units, "x + 1"), None);
        assert_eq!(unit_of(&BTreeMap::new(), "t"), None);
    }
}
