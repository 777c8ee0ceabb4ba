//! The lab's plots: which panels a scenario gets, their lines up to the display clock
//! (decimated, so long runs stay smooth), and drawing them on canvases.
//!
//! Every panel is redrawn whole on each frame: plotters-canvas has no retained
//! layers, and the axes move as the data grow. What keeps a frame short is the
//! decimation (at most [`MAX_POINTS`] points per line) and that the page only draws
//! when the clock or the canvas size has changed.

use nhlab::simulation::Sample;
use nhlab_plots::{decimate, Line, Marker, Panel, Scale};

use crate::lab::{Lab, Run};

/// Points per line at most, after decimation: about two per pixel column of a wide panel.
pub const MAX_POINTS: usize = 1200;

/// What a panel shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `view.trajectory`, the current positions marked.
    Trajectory,
    /// `view.series[i]` against t.
    Series(usize),
    /// The largest constraint residual, log scale.
    Residual,
    /// `T + V` minus its initial value.
    Energy,
    /// Hamel's E-vector: its norm (solid) and components (dashed).
    EVector,
}

/// A panel of the page: the canvas id the page creates, and what it shows.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PanelInfo {
    /// The canvas element's id.
    pub id: String,
    /// Its heading.
    pub title: String,
    /// One sentence under the heading: how to read it.
    pub note: String,
    #[serde(skip)]
    /// What it shows.
    pub kind: Kind,
}

/// The panels of the lab's scenario, in page order.
pub fn panels(lab: &Lab) -> Vec<PanelInfo> {
    let labels = lab.view_labels();
    let mut out = vec![PanelInfo {
        id: "plot-trajectory".into(),
        title: format!("trajectory: {} against {}", labels[1], labels[0]),
        note: "dots mark each method's current state".into(),
        kind: Kind::Trajectory,
    }];
    for (i, label) in labels[2..].iter().enumerate() {
        out.push(PanelInfo {
            id: format!("plot-series-{i}"),
            title: format!("{label} against t"),
            note: String::new(),
            kind: Kind::Series(i),
        });
    }
    if !lab.prepared().model.constraints.is_empty() {
        out.push(PanelInfo {
            id: "plot-residual".into(),
            title: "constraint residual".into(),
            note: "largest |f| over the constraints (log scale): drift from the constraint surface".into(),
            kind: Kind::Residual,
        });
    }
    out.push(PanelInfo {
        id: "plot-energy".into(),
        title: "energy drift".into(),
        note: "T + V minus its initial value".into(),
        kind: Kind::Energy,
    });
    if lab.hamel_unavailable().is_none() && !lab.e_components().is_empty() {
        out.push(PanelInfo {
            id: "plot-e".into(),
            title: format!("Hamel's E-vector ({})", lab.e_components().join(", ")),
            note: "solid |E|, dashed components (symmetric log scale); E = 0 exactly where Hamel's embedding gives the true motion".into(),
            kind: Kind::EVector,
        });
    }
    out
}

/// The recorded samples of `run` up to the clock, then the state at the clock.
fn shown<'a>(lab: &Lab, run: &'a Run) -> impl Iterator<Item = (&'a Sample, &'a [f64])> + 'a {
    let now = lab.now();
    let samples = run.samples();
    let recorded = samples.partition_point(|s| s.t <= now);
    samples[..recorded].iter().zip(run.view.iter().map(Vec::as_slice)).chain(
        run.current.iter().filter(move |c| c.0.t > samples[recorded.max(1) - 1].t).map(|(s, v)| (s, v.as_slice())),
    )
}

fn line(run: &Run, points: Vec<(f64, f64)>, label: bool, dashed: bool) -> Line {
    Line {
        method: run.method,
        points: decimate(&points, MAX_POINTS),
        label: label.then(|| run.method.id().to_string()),
        dashed,
    }
}

/// The lines and markers of one panel, and its axes.
pub fn content(lab: &Lab, kind: Kind) -> (Vec<Line>, Vec<Marker>, Scale) {
    let mut lines = Vec::new();
    let mut markers = Vec::new();
    let mut scale = Scale::Linear;
    for run in lab.runs() {
        let points = |f: &dyn Fn(&Sample, &[f64]) -> f64| -> Vec<(f64, f64)> {
            shown(lab, run).map(|(s, v)| (s.t, f(s, v))).collect()
        };
        match kind {
            Kind::Trajectory => {
                let p: Vec<(f64, f64)> = shown(lab, run).map(|(_, v)| (v[0], v[1])).collect();
                if let Some((_, v)) = &run.current {
                    markers.push(Marker { method: run.method, at: (v[0], v[1]) });
                }
                lines.push(line(run, p, true, false));
            }
            Kind::Series(i) => lines.push(line(run, points(&|_, v| v[2 + i]), true, false)),
            Kind::Residual => {
                scale = Scale::Log;
                lines.push(line(
                    run,
                    points(&|s, _| s.residuals.iter().fold(0.0, |m: f64, r| m.max(r.abs()))),
                    true,
                    false,
                ));
            }
            Kind::Energy => {
                let e0 = run.samples().first().map_or(0.0, |s| s.energy);
                lines.push(line(run, points(&|s, _| s.energy - e0), true, false));
            }
            Kind::EVector => {
                scale = Scale::SymLog;
                let e = |s: &Sample, k: Option<usize>| match (&s.e_vector, k) {
                    (None, _) => f64::NAN,
                    (Some(e), None) => e.iter().map(|x| x * x).sum::<f64>().sqrt(),
                    (Some(e), Some(k)) => e[k],
                };
                lines.push(line(run, points(&|s, _| e(s, None)), true, false));
                for k in 0..lab.e_components().len() {
                    lines.push(line(run, points(&|s, _| e(s, Some(k))), false, true));
                }
            }
        }
    }
    (lines, markers, scale)
}

/// The panel's text and axes.
pub fn spec<'a>(lab: &'a Lab, info: &'a PanelInfo, y_scale: Scale, dpr: f64) -> Panel<'a> {
    let labels = lab.view_labels();
    let (x_label, y_label, x_range) = match info.kind {
        Kind::Trajectory => (labels[0].as_str(), labels[1].as_str(), None),
        Kind::Series(i) => ("t", labels[2 + i].as_str(), Some((lab.t0, lab.t_end))),
        Kind::Residual => ("t", "max |f|", Some((lab.t0, lab.t_end))),
        Kind::Energy => ("t", "ΔE", Some((lab.t0, lab.t_end))),
        Kind::EVector => ("t", "E", Some((lab.t0, lab.t_end))),
    };
    let coordinates = lab.prepared().model.coordinate_names();
    let space = info.kind == Kind::Trajectory && labels[..2].iter().all(|l| coordinates.contains(l));
    Panel {
        title: "",
        x_label,
        y_label,
        x_range,
        y_scale,
        // A path in the plane keeps its shape; a phase portrait fills its panel.
        equal_aspect: space,
        legend: false,
        scale: dpr,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sleigh_gets_every_panel_and_lines_stop_at_the_clock() {
        let mut lab = Lab::new(crate::gallery::text("chaplygin-sleigh").unwrap()).unwrap();
        let kinds: Vec<Kind> = panels(&lab).iter().map(|p| p.kind).collect();
        assert_eq!(
            kinds,
            [Kind::Trajectory, Kind::Series(0), Kind::Series(1), Kind::Residual, Kind::Energy, Kind::EVector]
        );
        lab.advance(0.7, 10_000);
        for kind in kinds {
            let (lines, markers, _) = content(&lab, kind);
            assert!(!lines.is_empty());
            if kind != Kind::Trajectory {
                for l in &lines {
                    let last = l.points.last().unwrap().0;
                    assert!((last - 0.7).abs() < 1e-12, "{kind:?} ends at the clock: {last}");
                }
            } else {
                assert_eq!(markers.len(), 3);
            }
        }
    }

    #[test]
    fn the_e_vector_is_zero_where_hamel_is_right() {
        // Paper 000, example 1 with the force of theorem 2: E ≡ 0.
        let mut lab = Lab::new(crate::gallery::text("paper000-ex1-sphere").unwrap()).unwrap();
        lab.advance(lab.t0 + 1.0, 10_000);
        let (lines, _, scale) = content(&lab, Kind::EVector);
        assert_eq!(scale, Scale::SymLog);
        for l in lines {
            assert!(
                l.points.iter().all(|p| p.1.abs() < 1e-9),
                "{:?}",
                l.points.iter().map(|p| p.1).fold(0.0, f64::max)
            );
        }
    }
}
