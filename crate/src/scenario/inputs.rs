//! `[inputs]` (an nhlab addition): named inputs `u` of the model — a steer torque,
//! a motor torque — usable in forces, loads and every expression like parameters.
//!
//! Each has a value (what the page's control starts at, and what `linearize`
//! linearises about), the control's range, step, unit and label, and optionally a
//! `signal` that drives it in a run: an expression of `t` and the parameters, or a
//! piecewise-linear table of `[t, u]` pairs (held at its end values outside).
//! `linearize --state-space` and `export` take the inputs as arguments instead
//! (`B = ∂f/∂u`, `f(t, y, u, p)`), whatever their signal.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::message::{problem, Message};

use serde::de::{self, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Most breakpoints of one input's table: its expression has a term per breakpoint.
pub const MAX_SIGNAL_POINTS: usize = 1_000;

/// One input as written.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct InputSpec {
    /// Its value when no signal drives it (the control's start; the state-space
    /// reference).
    pub value: f64,
    /// The control's lower end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    /// The control's upper end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    /// The control's step.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub step: Option<f64>,
    /// Plain text shown beside the value (`N m`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// Plain text naming it on the page (`steer torque`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// What drives it in a run, if anything.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signal: Option<Signal>,
}

/// An input's value as a function of time.
#[derive(Clone, Debug, PartialEq)]
pub enum Signal {
    /// An expression of `t` and the parameters.
    Expression(String),
    /// `[t, u]` breakpoints, `t` increasing: linear between them, held outside.
    Table(Vec<[f64; 2]>),
}

impl Signal {
    /// The signal as an expression of `t`: the table as `u₀ + Σ cᵢ (|t − tᵢ| − |t₀ − tᵢ|)`
    /// with `cᵢ` half the change of slope at `tᵢ` (the slopes are 0 outside), which
    /// is the linear interpolation exactly and needs nothing but `abs`. `Err` says
    /// what is wrong with a table, and where: `signal`, or a point (`signal[2]`).
    pub fn expression(&self) -> Result<String, (String, Message)> {
        let points = match self {
            Signal::Expression(text) => return Ok(text.clone()),
            Signal::Table(points) => points,
        };
        check_table(points)?;
        let slope = |k: usize| -> f64 {
            if k == 0 || k >= points.len() {
                return 0.0;
            }
            let ([t0, u0], [t1, u1]) = (points[k - 1], points[k]);
            (u1 - u0) / (t1 - t0)
        };
        let t_first = points[0][0];
        let mut text = format!("({:?})", points[0][1]);
        for (k, &[tk, _]) in points.iter().enumerate() {
            let c = (slope(k + 1) - slope(k)) / 2.0;
            if c != 0.0 {
                text += &format!(" + ({c:?})*(abs(t - ({tk:?})) - ({:?}))", (t_first - tk).abs());
            }
        }
        Ok(text)
    }
}

/// Finite numbers, times strictly increasing, at least one point and at most
/// [`MAX_SIGNAL_POINTS`].
fn check_table(points: &[[f64; 2]]) -> Result<(), (String, Message)> {
    if points.is_empty() {
        return Err(("signal".into(), problem::signal_empty()));
    }
    if points.len() > MAX_SIGNAL_POINTS {
        return Err(("signal".into(), problem::signal_too_long(points.len(), MAX_SIGNAL_POINTS)));
    }
    for (k, p) in points.iter().enumerate() {
        if !p[0].is_finite() || !p[1].is_finite() {
            return Err((format!("signal[{k}]"), problem::signal_not_finite()));
        }
        if k > 0 && p[0] <= points[k - 1][0] {
            let (t, before) = (format!("{:?}", p[0]), format!("{:?}", points[k - 1][0]));
            return Err((format!("signal[{k}]"), problem::signal_times(t, before)));
        }
    }
    // The interpolation's slopes and their changes, in the expression, must be
    // finite too: `[[0, -1e308], [1, 1e308]]` overflows (issue 57: it was read back
    // as an unknown name `inf`).
    let mut previous = 0.0f64;
    for k in 1..=points.len() {
        let slope = match points.get(k) {
            Some(p) => (p[1] - points[k - 1][1]) / (p[0] - points[k - 1][0]),
            None => 0.0,
        };
        if !slope.is_finite() || !((slope - previous) / 2.0).is_finite() {
            // (Only a slope between two points can overflow: `k` is one of them.)
            let at = k.min(points.len() - 1);
            let pair = (format!("{:?}", points[at - 1]), format!("{:?}", points[at]));
            return Err((format!("signal[{at}]"), problem::signal_slope(pair.0, pair.1)));
        }
        previous = slope;
    }
    Ok(())
}

impl Serialize for Signal {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Signal::Expression(text) => serializer.serialize_str(text),
            Signal::Table(points) => points.serialize(serializer),
        }
    }
}

impl<'de> Deserialize<'de> for Signal {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Either;
        impl<'de> Visitor<'de> for Either {
            type Value = Signal;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str(
                    "an expression of t such as \"0.5*sin(2*t)\", or a table of [t, u] pairs such as [[0, 0], [1, 2]]",
                )
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Signal, E> {
                Ok(Signal::Expression(text.into()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Signal, A::Error> {
                let mut points = Vec::new();
                while let Some(pair) = seq.next_element::<[f64; 2]>()? {
                    if points.len() == MAX_SIGNAL_POINTS {
                        return Err(de::Error::custom(format!(
                            "a signal's table has at most {MAX_SIGNAL_POINTS} points"
                        )));
                    }
                    points.push(pair);
                }
                Ok(Signal::Table(points))
            }
        }
        deserializer.deserialize_any(Either)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::expr::ExprGraph;

    /// The table's expression, evaluated, against linear interpolation written out.
    #[test]
    fn a_table_is_its_linear_interpolation() {
        let points = alloc::vec![[0.0, 1.0], [1.0, 3.0], [2.5, -1.0], [4.0, -1.0]];
        let text = Signal::Table(points.clone()).expression().unwrap();
        let mut g = ExprGraph::new();
        let e = g.parse(&text).unwrap();
        let interpolate = |t: f64| -> f64 {
            if t <= points[0][0] {
                return points[0][1];
            }
            for w in points.windows(2) {
                let ([t0, u0], [t1, u1]) = (w[0], w[1]);
                if t <= t1 {
                    return u0 + (u1 - u0) * (t - t0) / (t1 - t0);
                }
            }
            points[points.len() - 1][1]
        };
        for k in -20..=60 {
            let t = k as f64 * 0.1 - 0.3;
            let time = g.time();
            let value = g.evaluate(e, &|s| if s == time { t } else { f64::NAN });
            assert!((value - interpolate(t)).abs() < 1e-12, "t = {t}: {value} against {}", interpolate(t));
        }
    }

    #[test]
    fn bad_tables_are_named() {
        let (place, e) = Signal::Table(Vec::new()).expression().unwrap_err();
        assert!(place == "signal" && e.english.contains("at least one"), "{e}");
        let (place, e) = Signal::Table(alloc::vec![[0.0, 0.0], [0.0, 1.0]]).expression().unwrap_err();
        assert!(place == "signal[1]" && e.english.starts_with("the times must increase"), "{e}");
        let (place, e) = Signal::Table(alloc::vec![[0.0, f64::NAN]]).expression().unwrap_err();
        assert!(place == "signal[0]" && e.english.contains("finite"), "{e}");
        // Issue 57: finite values whose slope overflows were read back as `inf`.
        let (place, e) = Signal::Table(alloc::vec![[0.0, -1e308], [1.0, 1e308]]).expression().unwrap_err();
        assert_eq!(place, "signal[1]");
        assert!(e.english.starts_with("the slope from [0.0, -1e308] to [1.0, 1e308] is too large"), "{e}");
        let (place, _) = Signal::Table(alloc::vec![[0.0, 0.0], [1.0, 1e308], [2.0, -1e308]]).expression().unwrap_err();
        assert_eq!(place, "signal[2]", "a change of slope that overflows");
    }
}
