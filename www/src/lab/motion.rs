//! The motion in words, for those who cannot see the scene (issue 60): what the
//! system is doing at the clock, said once on request (a key and a button on the
//! page, into a polite live region) in the page's language. Read from the first
//! run's state at the clock: each coordinate's value and which way it moves (angles
//! in degrees), each contact holding, slipping or lifting off, and the energy.
//!
//! It names what any scenario has (coordinates, contacts), not what a particular
//! system means by them: "theta 12°, falling at 35°/s" rather than "the coin leans
//! left", which would need words the scenario does not give.

use super::Lab;
use crate::describe::number;
use crate::i18n::{name, tr};

/// Coordinates described at most; the rest are counted.
const MAX_COORDINATES: usize = 6;

/// A rate below this fraction of its coordinate's scale (`1 + |q|` per second) is
/// said to be steady.
const STEADY: f64 = 1e-6;

impl Lab {
    /// What the first run is doing at the display clock, in a few clauses; a short
    /// sentence saying there is no state yet before its first step.
    pub fn describe_motion(&self) -> String {
        let Some((run, (sample, _))) = self.runs.iter().find_map(|r| Some((r, r.current.as_ref()?))) else {
            return tr("motion.none", &[]);
        };
        let model = &self.prepared().model;
        let units = &model.scenario.units;
        let names = model.coordinate_names();
        let mut clauses = Vec::new();
        for (i, coordinate) in names.iter().enumerate().take(MAX_COORDINATES) {
            let (q, v) = (sample.q[i], sample.v[i]);
            let unit = units.get(coordinate).map(|u| nhlab::view::pretty_unit(u));
            clauses.push(coordinate_clause(coordinate, q, v, unit.as_deref()));
        }
        if names.len() > MAX_COORDINATES {
            clauses.push(tr("motion.more", &[("count", &(names.len() - MAX_COORDINATES))]));
        }
        let per = nhlab::mechanics::CONTACT_COLUMNS;
        for (k, contact) in self.contact_names().iter().enumerate() {
            let Some(c) = sample.contact_forces.get(k * per..(k + 1) * per) else { continue };
            let (normal, needed, mu) = (c[0], c[4], c[5]);
            let contact = name(contact);
            let args: [(&str, &dyn core::fmt::Display); 4] =
                [("name", &contact), ("n", &number(normal)), ("needed", &number(needed)), ("mu", &number(mu))];
            clauses.push(if !normal.is_finite() {
                tr("motion.contact.unknown", &args)
            } else if normal < 0.0 {
                tr("motion.contact.lifts-off", &args)
            } else if normal > 0.0 && needed > mu {
                tr("motion.contact.slips", &args)
            } else {
                tr("motion.contact.holds", &args)
            });
        }
        clauses.push(tr("motion.energy", &[("energy", &number(sample.energy))]));
        let head = tr("motion.head", &[("method", &run.method.id()), ("t", &number(sample.t))]);
        let failed = run.error.as_ref().map(|_| tr("motion.stopped", &[])).unwrap_or_default();
        format!("{head}{}{}{failed}", clauses.join(&tr("clause.separator", &[])), tr("motion.end", &[]))
    }
}

/// Names that are angles where a scenario gives no unit: the Greek letters
/// mechanics writes angles with (the gallery's coin, bicycle and sleigh give none).
const ANGLE_NAMES: [&str; 9] = ["theta", "phi", "psi", "delta", "alpha", "beta", "gamma", "chi", "varphi"];

/// "theta = 12°, falling at 35°/s": an angle (unit `rad`, or no unit and a Greek
/// name, `phi` or `phi1`) in degrees, any other value in its own unit, and which way
/// it moves.
fn coordinate_clause(coordinate: &str, q: f64, v: f64, unit: Option<&str>) -> String {
    let stem = coordinate.trim_end_matches(|c: char| c.is_ascii_digit() || c == '_');
    let angle = unit == Some("rad") || (unit.is_none() && ANGLE_NAMES.contains(&stem));
    let (q_shown, v_shown) = if angle { (q.to_degrees(), v.to_degrees()) } else { (q, v) };
    let with = |x: f64, unit: &str| match unit {
        "" => number(x),
        "°" | "°/s" => format!("{}{unit}", number(x)),
        _ => format!("{} {unit}", number(x)),
    };
    let (value_unit, rate_unit) = match (angle, unit) {
        (true, _) => ("°".to_string(), "°/s".to_string()),
        (false, Some(u)) => (u.to_string(), format!("{u}/s")),
        (false, None) => (String::new(), String::new()),
    };
    let value = with(q_shown, &value_unit);
    let rate = with(v_shown.abs(), &rate_unit);
    let args: [(&str, &dyn core::fmt::Display); 3] = [("name", &coordinate), ("value", &value), ("rate", &rate)];
    if !v.is_finite() || !q.is_finite() {
        tr("motion.coordinate.not-finite", &args)
    } else if v.abs() <= STEADY * (1.0 + q.abs()) {
        tr("motion.coordinate.steady", &args)
    } else if v > 0.0 {
        tr("motion.coordinate.rising", &args)
    } else {
        tr("motion.coordinate.falling", &args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lab(name: &str) -> Lab {
        Lab::new(crate::gallery::text(name).expect("in the gallery")).unwrap()
    }

    #[test]
    fn an_angle_is_said_in_degrees_and_a_length_in_its_unit_with_its_direction() {
        assert_eq!(coordinate_clause("theta", 0.2094395102, -0.5, Some("rad")), "theta = 12°, falling at 28.65°/s");
        assert_eq!(coordinate_clause("x", 1.25, 0.8, Some("m")), "x = 1.25 m, rising at 0.8 m/s");
        assert_eq!(coordinate_clause("s", 3.0, 0.0, None), "s = 3, steady");
        assert_eq!(coordinate_clause("s", f64::NAN, 1.0, None), "s is not finite");
        assert_eq!(coordinate_clause("phi1", -core::f64::consts::PI, 0.0, None), "phi1 = -180°, steady");
        assert_eq!(coordinate_clause("phi", 1.0, 0.0, Some("m")), "phi = 1 m, steady", "its unit first");
    }

    /// The rolling disk at its start: its coordinates as the run holds them (read
    /// back from the state, not from the description's code), its contact pressing
    /// with N = m g (it starts upright, rolling straight), and its energy.
    #[test]
    fn the_rolling_disk_is_described_from_its_state_at_the_clock() {
        let mut lab = lab("rolling-disk");
        lab.advance(lab.t0, 10);
        let said = lab.describe_motion();
        let (sample, _) = lab.runs()[0].current.as_ref().unwrap();
        assert!(said.starts_with(&format!("{} at t = 0: ", lab.runs()[0].method.id())), "{said}");
        let names = lab.prepared().model.coordinate_names();
        assert!(said.contains(&format!("{} = {}", names[0], number(sample.q[0]))), "{said}");
        assert!(said.contains("contact “disk rolls on ground” holds, pressing with N = "), "{said}");
        assert!(said.contains(&format!("energy {}", number(sample.energy))), "{said}");
        assert!(said.ends_with('.'), "{said}");
    }

    #[test]
    fn a_slipping_coin_is_said_to_slip() {
        let mut lab = lab("coin-slipping");
        // The first slipping span starts near t = 0.69.
        lab.advance(0.9, 100_000);
        let said = lab.describe_motion();
        assert!(said.contains("contact “disk rolls on ground” slips: it needs μ ≥ "), "{said}");
    }
}
