//! The stability panel's data: the scenario's `[stability]` sweep (the core's
//! [`Study`]), flattened for the page — one array per eigenvalue track's real and
//! imaginary parts, the stable ranges and the boundaries — and its drawing (the
//! command line's `linearize --plot` figure, on a canvas).

use serde::{Deserialize, Serialize};

use crate::i18n::tr;
use nhlab::formulations::Method;
use nhlab::mechanics::Needs;
use nhlab::prepare::Prepared;
use nhlab::stability::{Study, StudyError, Swept};
use nhlab_plots::{marginal_ranges, sweep_ranges, Track};

/// A sweep as the page draws it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct StabilityData {
    /// The swept quantity (`phi'`, `g`).
    pub over: String,
    /// `parameter` or `velocity`: what a click edits.
    pub kind: String,
    /// The value the scenario runs with (the parameter, or the initial velocity).
    pub current: f64,
    /// The swept values.
    pub values: Vec<f64>,
    /// Per track, the eigenvalue `(re, im)` at every value.
    pub tracks: Vec<Track>,
    /// The stable ranges of the swept value.
    pub stable: Vec<(f64, f64)>,
    /// The parts of `stable` where the motion is only marginally stable (a neutral
    /// mode: neutral stability, which a linear analysis cannot settle).
    pub marginal: Vec<(f64, f64)>,
    /// The boundaries: value and whether the motion becomes stable there.
    pub boundaries: Vec<(f64, bool)>,
    /// The reduced state's components.
    pub state: Vec<String>,
    /// Speeds held at their values.
    pub held: Vec<String>,
    /// The method linearised.
    pub method: String,
    /// Hamel's embedding linearised over the same values, per track, when the run
    /// compares it with the true motion; else empty.
    pub hamel: Vec<Track>,
    /// Why Hamel's tracks are missing although the run has `hamel` (e.g. a singular
    /// split at some value), else empty.
    pub hamel_note: String,
    /// The quantity derived from the swept one to show the sweep against
    /// (`sweep.axis`), if the table gives one.
    pub axis: Option<AxisData>,
    /// The quantity `[stability] map` sweeps up the panel's map, if it declares one
    /// (the map itself is computed when asked: [`crate::stability_map`]).
    pub map: Option<String>,
}

/// A derived axis as the page draws and writes it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct AxisData {
    /// `v (m/s)`.
    pub label: String,
    /// `v`.
    pub name: String,
    /// `m/s`, or empty.
    pub unit: String,
    /// At each swept value.
    pub values: Vec<f64>,
    /// At each boundary.
    pub boundaries: Vec<f64>,
}

impl StabilityData {
    /// Swept value `x` on the axis the panel draws (the derived one, if any).
    pub fn shown(&self, x: f64) -> f64 {
        match &self.axis {
            Some(a) => nhlab_plots::on_axis(x, &self.values, &a.values),
            None => x,
        }
    }
}

/// The sweep the scenario `text` declares, or `None` when it declares none.
/// Errors are messages for the panel's caption.
pub fn sweep_of(text: &str) -> Result<Option<StabilityData>, String> {
    let format = nhlab::scenario::format_of(text);
    // Hamel's split is derived when it is linearised: as the table's method, or
    // beside it when the run compares Hamel's embedding with the true motion.
    let needs = |s: &nhlab::scenario::Scenario| {
        let hamel = s.stability.as_ref().and_then(|t| t.method.as_deref()) == Some("hamel")
            || s.run.chosen_methods().contains(&Method::Hamel);
        Needs::for_methods(&[if hamel { Method::Hamel } else { Method::Lagrange }], false)
    };
    let mut p =
        Prepared::from_text_for(text, format, needs).map_err(|p| crate::lab::said_briefly(&crate::lab::problems(p)))?;
    let Some(spec) = p.model.scenario.stability.clone().filter(|s| s.sweep.is_some()) else { return Ok(None) };
    // The table's keys are said as the scenario's fields (`stability.method`).
    let said = |e: StudyError| crate::i18n::message(&e.message("stability."));
    let mut study = Study::new(&p.model, &spec).map_err(said)?;
    let current = match &study.sweep {
        Some((_, Swept::Parameter(i), _)) => p.numeric.parameters[*i],
        Some((name, Swept::Velocity(_), _)) => {
            let q = name.trim_end_matches('\'');
            let i = p.model.scenario.coordinates.iter().position(|c| c == q).unwrap_or(0);
            p.initial.v.get(i).copied().unwrap_or(f64::NAN)
        }
        None => f64::NAN,
    };
    let kind = match &study.sweep {
        Some((_, Swept::Parameter(_), _)) => "parameter",
        _ => "velocity",
    };
    let mut derivatives = study.derivatives(&p.model).map_err(said)?;
    let sweep = study.run(&mut p.model, &mut p.numeric, &mut derivatives, &p.map).map_err(said)?;
    let tracks = sweep.tracks();
    if tracks.iter().flatten().any(|(re, im)| !re.is_finite() || !im.is_finite()) {
        return Err(crate::i18n::message(&nhlab::message::stability::eigenvalue_not_finite()));
    }
    let (mut hamel, mut hamel_note) = (Vec::new(), String::new());
    let compare = study.method != Method::Hamel && p.model.scenario.run.chosen_methods().contains(&Method::Hamel);
    if compare && p.model.hamel.is_ok() {
        let hamel_spec = nhlab::scenario::StabilitySpec { method: Some("hamel".into()), ..spec.clone() };
        let swept = Study::new(&p.model, &hamel_spec).and_then(|mut h| {
            let mut d = h.derivatives(&p.model)?;
            h.run(&mut p.model, &mut p.numeric, &mut d, &p.map)
        });
        match swept {
            Ok(h) if h.rows.len() == sweep.rows.len() => hamel = h.tracks(),
            Ok(_) => hamel_note = tr("stability.hamel-length", &[]),
            Err(e) => hamel_note = tr("stability.hamel-failed", &[("why", &said(e))]),
        }
    }
    let first = &sweep.rows[0];
    let axis = study.axis.as_ref().map(|a| AxisData {
        label: a.label(),
        name: a.name.clone(),
        unit: a.unit.clone().unwrap_or_default(),
        values: a.values.clone(),
        boundaries: sweep.boundaries.iter().map(|b| nhlab_plots::on_axis(b.value, &sweep.values, &a.values)).collect(),
    });
    Ok(Some(StabilityData {
        axis,
        map: spec.map.as_ref().map(|m| m.over.clone()),
        over: spec.sweep.map(|s| s.over).unwrap_or_default(),
        kind: kind.into(),
        current,
        stable: sweep_ranges(&sweep),
        marginal: marginal_ranges(&sweep),
        boundaries: sweep.boundaries.iter().map(|b| (b.value, b.becomes_stable)).collect(),
        values: sweep.values,
        tracks,
        state: first.state.clone(),
        held: first.held_speeds.clone(),
        method: study.method.id().into(),
        hamel,
        hamel_note,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The disk's gallery table: one boundary at `s² = g/(3r)`, unstable below and
    /// stable above, and the spin the run uses.
    #[test]
    fn the_disk_panel_has_its_boundary_and_current_spin() {
        let d = sweep_of(crate::gallery::text("rolling-disk").unwrap()).unwrap().unwrap();
        assert_eq!((d.over.as_str(), d.kind.as_str(), d.current), ("phi'", "velocity", 6.0));
        assert_eq!(d.values.len(), 1001);
        assert!(!d.tracks.is_empty() && d.tracks.iter().all(|t| t.len() == 1001));
        let critical = (9.81f64 / 0.9).sqrt();
        assert_eq!(d.boundaries.len(), 1);
        assert!((d.boundaries[0].0 - critical).abs() < 1e-10 && d.boundaries[0].1);
        assert_eq!(d.stable, vec![(d.boundaries[0].0, 10.0)]);
        // Above it the coin's wobble is a neutral oscillation (Re λ = 0 to
        // round-off): marginal, drawn as exactly zero.
        assert_eq!(d.marginal, d.stable);
        let k = d.values.iter().position(|&s| (s - 6.0).abs() < 1e-9).unwrap();
        assert!(d.tracks.iter().all(|t| t[k].0 == 0.0), "{:?}", d.tracks.iter().map(|t| t[k]).collect::<Vec<_>>());
        assert!(d.tracks.iter().any(|t| t[k].1 > 1.0));
    }

    /// Why a sweep cannot be drawn is said in the page's language, with the key of
    /// `[stability]` it concerns: a coordinate that is not ignorable, an axis that
    /// does not increase, a swept name that is neither a parameter nor a velocity.
    #[test]
    fn a_sweep_s_refusal_is_said_in_chinese() {
        use crate::i18n::{set, Language};
        let disk = crate::gallery::text("rolling-disk").unwrap();
        let cases = [
            (
                disk.replace(
                    r#"ignorable = ["x", "y", "psi", "phi"]"#,
                    r#"ignorable = ["x", "y", "psi", "phi", "theta"]"#,
                ),
                "在 phi' = 0 处：`theta` 不是可忽略坐标：方程依赖于它",
                "at phi' = 0: `theta` is not ignorable: the equations depend on it",
            ),
            (
                disk.replace("step = 0.01 }", r#"step = 0.01, axis = { name = "w", value = "-phi'" } }"#),
                "stability.sweep.axis.value：必须随 phi' 递增（在 phi' = 0.01 处不递增）；递减的量请取其相反数",
                "stability.sweep.axis.value: must increase with phi' (it does not at phi' = 0.01)",
            ),
        ];
        for (text, chinese, english) in cases {
            assert_ne!(text, disk);
            let e = sweep_of(&text).expect_err("refused");
            assert!(e.starts_with(english), "{e}");
            set(Language::Zh);
            let said = sweep_of(&text).expect_err("refused");
            set(Language::En);
            assert!(said.starts_with(chinese), "{said}");
        }
    }

    /// The sleigh runs Hamel's embedding beside the truth: its tracks come too, a
    /// saddle `±u √(m/(I + m a²))` where the true motion has `−m a u/(I + m a²)`.
    #[test]
    fn the_sleigh_panel_has_hamels_tracks() {
        let d = sweep_of(crate::gallery::text("chaplygin-sleigh").unwrap()).unwrap().unwrap();
        assert_eq!(d.hamel_note, "");
        assert_eq!(d.hamel.len(), 2);
        let k = d.values.iter().position(|&u| (u - 1.0).abs() < 1e-9).unwrap();
        let mut hamel: Vec<f64> = d.hamel.iter().map(|t| t[k].0).collect();
        hamel.sort_by(f64::total_cmp);
        let s = (1.0f64 / 0.45).sqrt();
        assert!((hamel[0] + s).abs() < 1e-12 && (hamel[1] - s).abs() < 1e-12, "{hamel:?}");
        let truth: f64 = d.tracks.iter().map(|t| t[k].0).fold(0.0, f64::min);
        assert!((truth + 0.5 / 0.45).abs() < 1e-12, "{truth}");
        // The heading's zero eigenvalue is structural (every row has it): the sleigh
        // running forwards is stable, not marginal; at rest is the crossing itself.
        assert!(d.marginal.is_empty(), "{:?}", d.marginal);
    }

    /// The bicycle's panel is drawn against its forward speed: the boundaries there
    /// are the benchmark's weave and capsize speeds.
    #[test]
    fn the_bicycle_panel_is_against_its_forward_speed() {
        let d = sweep_of(crate::gallery::text("whipple-bicycle").unwrap()).unwrap().unwrap();
        let axis = d.axis.as_ref().unwrap();
        assert_eq!((axis.label.as_str(), axis.values.len()), ("v (m/s)", d.values.len()));
        assert!((axis.boundaries[0] - 4.292382536).abs() < 1e-8 && (axis.boundaries[1] - 6.024262015).abs() < 1e-8);
        assert!((d.shown(d.current) - 5.0).abs() < 1e-12, "the run's 5 m/s");
        assert!(d.marginal.is_empty());
    }

    /// Without a sweep there is no panel; a broken table is a message.
    #[test]
    fn no_sweep_no_panel_and_errors_are_messages() {
        assert_eq!(sweep_of(crate::gallery::text("knife-edge-incline").unwrap()), Ok(None));
        let broken = crate::gallery::text("rolling-disk").unwrap().replace("from = 0, to = 10", "from = 10, to = 0");
        let e = sweep_of(&broken).unwrap_err();
        assert!(e.contains("stability.sweep"), "{e}");
    }
}
