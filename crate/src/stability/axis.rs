//! A sweep shown against a quantity derived from the swept one (`[stability.sweep]
//! axis`): the bicycle is swept over its rear wheel's rate `rear'`, and read against
//! its forward speed `v = rR·rear'` in m/s. The derived values must increase with the
//! swept ones, so that the figure's axis, its boundaries and a click on it all map
//! one to one.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::StudyError;
use crate::expr::{ExprGraph, SymbolKind};
use crate::message::stability as say;
use crate::scenario::AxisSpec;

/// The derived quantity at every swept value.
#[derive(Clone, Debug, PartialEq)]
pub struct Axis {
    /// Its name (`v`).
    pub name: String,
    /// Its unit, if given (`m/s`).
    pub unit: Option<String>,
    /// Its value at each swept value, increasing.
    pub values: Vec<f64>,
}

impl Axis {
    /// The axis' label: `v (m/s)`.
    pub fn label(&self) -> String {
        match &self.unit {
            Some(u) => format!("{} ({u})", self.name),
            None => self.name.clone(),
        }
    }
}

/// The derived quantity `spec.value` at each of `values` of the swept quantity
/// `over` (a parameter, or a velocity `x'`), with the parameters at `parameters`
/// (name, value). Errors name the key in the `[stability]` table
/// (`sweep.axis.name`, `sweep.axis.value`).
pub fn derived_axis(
    spec: &AxisSpec,
    over: &str,
    values: &[f64],
    parameters: &[(String, f64)],
) -> Result<Axis, StudyError> {
    if spec.name.trim().is_empty() {
        return Err(StudyError::at("sweep.axis.name", say::axis_unnamed()));
    }
    let value = |why| StudyError::at("sweep.axis.value", why);
    let mut graph = ExprGraph::new();
    let mut declared = Vec::new();
    for (name, _) in parameters {
        graph.declare_parameter(name).map_err(|e| value(e.message()))?;
        declared.push(name.clone());
    }
    let swept_coordinate = over.strip_suffix('\'');
    if let Some(q) = swept_coordinate {
        graph.declare_coordinate(q).map_err(|e| value(e.message()))?;
    }
    let e = graph.parse(&spec.value).map_err(|err| value(err.kind.message()))?;
    for s in graph.free_symbols(e) {
        let symbol = graph.symbol(s);
        let fine = match symbol.kind {
            SymbolKind::Parameter(_) | SymbolKind::Pi => true,
            SymbolKind::Velocity(_) => swept_coordinate == Some(symbol.name.as_str()),
            _ => false,
        };
        if !fine {
            let written = if symbol.kind == SymbolKind::Time { "t".to_string() } else { symbol.name.clone() };
            return Err(value(say::axis_symbol(written, over)));
        }
    }
    let mut out = Vec::with_capacity(values.len());
    for &x in values {
        let y = graph.evaluate(e, &|s| {
            let symbol = graph.symbol(s);
            match symbol.kind {
                SymbolKind::Velocity(_) => x,
                SymbolKind::Parameter(k) if declared[k] == over => x,
                SymbolKind::Parameter(k) => parameters[k].1,
                _ => f64::NAN,
            }
        });
        if !y.is_finite() {
            return Err(value(say::axis_not_finite(over, x)));
        }
        if out.last().is_some_and(|&last: &f64| y <= last) {
            return Err(value(say::axis_not_increasing(over, x)));
        }
        out.push(y);
    }
    Ok(Axis { name: spec.name.trim().to_string(), unit: spec.unit.clone(), values: out })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(value: &str) -> AxisSpec {
        AxisSpec { name: "v".into(), value: value.into(), unit: Some("m/s".into()) }
    }

    #[test]
    fn a_derived_axis_is_evaluated_at_each_swept_value() {
        let p = [("rR".to_string(), 0.3), ("g".to_string(), 9.81)];
        let a = derived_axis(&spec("rR*rear'"), "rear'", &[0.0, 10.0, 20.0], &p).unwrap();
        assert_eq!(a.values, [0.0, 3.0, 6.0]);
        assert_eq!(a.label(), "v (m/s)");
        // Over a parameter: the swept parameter takes the swept value.
        let a = derived_axis(&spec("sqrt(g/rR)"), "g", &[1.2, 4.8], &p).unwrap();
        assert!((a.values[0] - 2.0).abs() < 1e-15 && (a.values[1] - 4.0).abs() < 1e-15);
    }

    #[test]
    fn a_derived_axis_that_cannot_be_drawn_is_refused() {
        let p = [("rR".to_string(), 0.3)];
        let e = derived_axis(&spec("-rR*rear'"), "rear'", &[0.0, 1.0], &p).unwrap_err().to_string();
        assert!(e.contains("must increase with rear'"), "{e}");
        let e = derived_axis(&spec("rR*rear"), "rear'", &[0.0, 1.0], &p).unwrap_err().to_string();
        assert!(e.contains("`rear` is neither a parameter nor the swept `rear'`"), "{e}");
        let e = derived_axis(&spec("rR*t"), "rear'", &[0.0, 1.0], &p).unwrap_err().to_string();
        assert!(e.contains("`t` is neither"), "{e}");
        let e = derived_axis(&spec("rR*("), "rear'", &[0.0, 1.0], &p).unwrap_err().to_string();
        assert!(e.starts_with("sweep.axis.value: "), "{e}");
        let e = derived_axis(&spec("1/rear'"), "rear'", &[0.0, 1.0], &p).unwrap_err().to_string();
        assert!(e.contains("not finite at rear' = 0"), "{e}");
    }
}
