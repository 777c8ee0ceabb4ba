//! The lab's plots: which panels a scenario gets, their lines up to the display clock
//! (decimated, so long runs stay smooth), and drawing them on canvases.
//!
//! A panel is redrawn whole when it is drawn: plotters-canvas has no retained
//! layers, and the axes move as the data grow. What keeps a panel short is the
//! decimation (about one point per device pixel of the panel's width, at most
//! [`MAX_POINTS`] a line and [`MAX_PANEL_POINTS`] a panel); what keeps a frame short
//! is the page's time budget per frame (`WebDisplay::draw`: the panels left over are
//! drawn in the next frames) and that the page only draws when the clock or the
//! canvas size has changed.

use nhlab_plots::{decimate, Line, Marker, Panel, Scale};

use crate::display::{run_label, series, Display, DisplayRun};
pub use crate::layout::{Kind, Layout, PanelInfo, MAX_E_COMPONENTS};
use crate::rows::Columns;

/// Points per line at most, after decimation, however wide the canvas.
pub const MAX_POINTS: usize = 2400;

/// Points of one panel's lines together at most: shared out among its lines, each
/// keeping [`MIN_LINE_POINTS`] (28 runs with their E components drew 28 × 7 lines
/// of a canvas' width each, a second per frame over 36 panels).
pub const MAX_PANEL_POINTS: usize = 20_000;

/// Points per line at least, however many lines share a panel.
pub const MIN_LINE_POINTS: usize = 200;

/// Picks the x and y columns of a line.
type Pick<'a> = &'a dyn Fn(&Columns) -> (&[f64], &[f64]);

/// The points `(x, y)` of `run` up to the clock: the plotted points with `t ≤ now`,
/// then the state at the clock when it lies after them. With `samples_only` (the
/// residual and energy panels, which show the integrator's error, not the
/// interpolant's) only the recorded samples.
fn points(display: &Display, run: &DisplayRun, pick: Pick, samples_only: bool) -> Vec<(f64, f64)> {
    let c = &run.columns;
    let recorded = c.t.partition_point(|&t| t <= display.now);
    let (x, y) = pick(c);
    let pairs = x[..recorded].iter().copied().zip(y[..recorded].iter().copied());
    let mut out: Vec<(f64, f64)> = if samples_only {
        pairs.zip(&c.is_sample).filter(|(_, &s)| s).map(|(p, _)| p).collect()
    } else {
        pairs.collect()
    };
    if samples_only {
        return out;
    }
    if let Some(row) = &run.current {
        if recorded == 0 || row.t[0] > c.t[recorded - 1] {
            let (x, y) = pick(row);
            out.push((x[0], y[0]));
        }
    }
    out
}

fn line(
    display: &Display,
    run: &DisplayRun,
    points: Vec<(f64, f64)>,
    label: bool,
    dashed: bool,
    max_points: usize,
) -> Line {
    Line {
        series: series(run),
        points: decimate(&points, max_points.min(MAX_POINTS)),
        label: label.then(|| run_label(display, run)),
        dashed,
    }
}

/// The lines and markers of one panel, and its axes; each line decimated to about
/// `max_points` points (the panel's width in device pixels is plenty: the min/max
/// decimation keeps two points per bucket).
pub fn content(display: &Display, kind: Kind, max_points: usize) -> (Vec<Line>, Vec<Marker>, Scale) {
    let mut lines = Vec::new();
    let mut markers = Vec::new();
    let scale = match kind {
        Kind::Residual | Kind::Energy => Scale::Log,
        Kind::EVector => Scale::SymLog,
        _ => Scale::Linear,
    };
    for run in &display.runs {
        let mut add = |pick: Pick, label: bool, dashed: bool| {
            lines.push(line(display, run, points(display, run, pick, false), label, dashed, max_points));
        };
        match kind {
            Kind::Trajectory => {
                add(&|c| (&c.view[0], &c.view[1]), true, false);
                if let Some(row) = &run.current {
                    markers.push(Marker { series: series(run), at: (row.view[0][0], row.view[1][0]) });
                }
            }
            Kind::Series(i) => add(&|c| (&c.t, &c.view[2 + i]), true, false),
            Kind::Residual => {
                let p = points(display, run, &|c| (&c.t, &c.residual), true);
                lines.push(line(display, run, p, true, false, max_points));
                if display.layout.any_holonomic {
                    let p = points(display, run, &|c| (&c.t, &c.velocity_residual), true);
                    lines.push(line(display, run, p, false, true, max_points));
                }
            }
            Kind::Energy => {
                let e0 = run.columns.energy.first().copied().unwrap_or(0.0);
                let drift: Vec<(f64, f64)> =
                    points(display, run, &|c| (&c.t, &c.energy), true).into_iter().map(|(t, e)| (t, e - e0)).collect();
                lines.push(line(display, run, drift, true, false, max_points));
            }
            Kind::EVector => {
                add(&|c| (&c.t, &c.e_norm), true, false);
                for k in largest_components(&run.columns, MAX_E_COMPONENTS) {
                    add(&|c| (&c.t, &c.e[k]), false, true);
                }
            }
            Kind::ContactNormal | Kind::ContactFriction => {
                let friction = kind == Kind::ContactFriction;
                for k in 0..run.columns.contacts.len() {
                    let which = if friction { 1 } else { 0 };
                    add(&|c| (&c.t, &c.contacts[k][which]), k == 0, k > 0);
                    let declared = display.layout.contacts.get(k).is_some_and(|c| c.friction);
                    if friction && declared {
                        // Its μ, dashed and lighter.
                        add(&|c| (&c.t, &c.contacts[k][2]), false, true);
                    }
                }
            }
            // Drawn by `crate::scene`, not as lines; the page has no compulsion panel
            // (its rows do not carry it: `crate::layout::panels`).
            Kind::Scene | Kind::Compulsion => {}
        }
    }
    let total: usize = lines.iter().map(|l| l.points.len()).sum();
    if total > MAX_PANEL_POINTS {
        let per_line = (MAX_PANEL_POINTS / lines.len()).max(MIN_LINE_POINTS);
        for line in lines.iter_mut().filter(|l| l.points.len() > per_line) {
            line.points = decimate(&line.points, per_line);
        }
    }
    (lines, markers, scale)
}

/// The indices of the (at most) `n` components of E largest in magnitude so far, in
/// index order.
fn largest_components(c: &Columns, n: usize) -> Vec<usize> {
    let peak = |k: usize| c.e[k].iter().filter(|x| x.is_finite()).fold(0.0, |m: f64, x| m.max(x.abs()));
    let mut order: Vec<(usize, f64)> = (0..c.e.len()).map(|k| (k, peak(k))).collect();
    if order.len() > n {
        order.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        order.truncate(n);
    }
    let mut chosen: Vec<usize> = order.into_iter().map(|(k, _)| k).collect();
    chosen.sort_unstable();
    chosen
}

/// Whether some point of `lines` is not finite (drawn as a gap): the page says so
/// under the panel rather than leaving a silent hole.
pub fn has_gaps(lines: &[Line]) -> bool {
    lines.iter().any(|l| l.points.iter().any(|p| !(p.0.is_finite() && p.1.is_finite())))
}

/// The panel's text and axes.
pub fn spec<'a>(layout: &'a Layout, info: &'a PanelInfo, y_scale: Scale, dpr: f64) -> Panel<'a> {
    let labels = &layout.view_labels;
    let axes = &layout.axis_labels;
    let t = layout.time_label.as_str();
    let span = Some((layout.t0, layout.t_end));
    let (x_label, y_label, x_range) = match info.kind {
        Kind::Trajectory => (axes[0].as_str(), axes[1].as_str(), None),
        Kind::Series(i) => (t, axes[2 + i].as_str(), span),
        Kind::Residual => (t, crate::i18n::word("axis.residual"), span),
        Kind::Energy => (t, "|ΔE|", span),
        Kind::EVector => (t, "E", span),
        Kind::ContactNormal => (t, "N", span),
        Kind::ContactFriction => (t, "|F_t| / N", span),
        Kind::Scene | Kind::Compulsion => ("", "", None),
    };
    let space = info.kind == Kind::Trajectory && labels[..2].iter().all(|l| layout.coordinates.contains(l));
    Panel {
        title: "",
        x_label,
        y_label,
        x_range,
        y_scale,
        x_scale: Scale::Linear,
        // A path in the plane keeps its shape; a phase portrait fills its panel.
        equal_aspect: space,
        legend: false,
        scale: dpr,
        shaded: &[],
    }
}

/// The time spans to shade in a panel against `t`: where the first run's contacts
/// fail (lift off or slip) up to the clock; none in the trajectory and the scene.
pub fn shaded(display: &Display, kind: Kind) -> Vec<(f64, f64)> {
    match (kind, display.runs.first()) {
        (Kind::Trajectory | Kind::Scene, _) | (_, None) => Vec::new(),
        (_, Some(run)) if run.columns.contacts.is_empty() => Vec::new(),
        (_, Some(run)) => run.columns.failing_spans(display.now),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lab::Lab;
    use crate::layout::panels;

    #[test]
    fn the_energy_panel_says_whether_the_true_motion_conserves_energy() {
        let energy = |name: &str| {
            let lab = Lab::new(crate::gallery::text(name).unwrap()).unwrap();
            panels(&lab.layout()).into_iter().find(|p| p.kind == Kind::Energy).unwrap()
        };
        let sleigh = energy("chaplygin-sleigh");
        assert_eq!(sleigh.title, "energy drift");
        assert!(sleigh.note.contains("conserves T + V here"), "{}", sleigh.note);
        let table = energy("ball-on-turntable");
        assert_eq!(table.title, "energy change");
        assert!(table.note.contains("constraint `roll_x` is not homogeneous in the velocities"), "{}", table.note);
        // The bicycle at rest conserves T + V, but its torques do work once a slider
        // or a key moves them (issue 60: "conserved" while a torque worked).
        let bicycle = energy("whipple-bicycle");
        assert_eq!(bicycle.title, "energy change");
        assert!(
            bicycle.note.contains("need not be conserved here (the inputs T_delta, T_phi do work when they move)"),
            "{}",
            bicycle.note
        );
    }

    #[test]
    fn the_sleigh_gets_every_panel_and_lines_stop_at_the_clock() {
        let mut lab = Lab::new(crate::gallery::text("chaplygin-sleigh").unwrap()).unwrap();
        let kinds: Vec<Kind> = panels(&lab.layout()).iter().map(|p| p.kind).collect();
        assert_eq!(
            kinds,
            [
                Kind::Scene,
                Kind::Trajectory,
                Kind::Series(0),
                Kind::Series(1),
                Kind::Residual,
                Kind::Energy,
                Kind::EVector
            ]
        );
        lab.advance(0.7, 10_000);
        let display = Display::of(&mut lab);
        // The scene: each run's sleigh at the clock, and the edge's path so far.
        let shown = display.shown();
        assert_eq!(shown.len(), 3);
        for (s, run) in shown.iter().zip(lab.runs()) {
            assert_eq!(s.picture.items.len(), 3, "the sleigh, its edge and the edge's point");
            let (now, _) = run.current.as_ref().unwrap();
            assert_eq!(
                s.picture.items[2].1,
                nhlab::scene::Mark::Ball { centre: [now.q[0], now.q[1], 0.0], radius: 0.0 }
            );
            assert_eq!(s.trails.len(), 1);
            assert_eq!(s.trails[0].len(), run.row_count());
        }
        for kind in kinds.into_iter().filter(|&k| k != Kind::Scene) {
            let (lines, markers, _) = content(&display, kind, 1000);
            assert!(!lines.is_empty());
            match kind {
                Kind::Trajectory => assert_eq!(markers.len(), 3),
                // The diagnostics show recorded samples only: the last one up to the clock.
                Kind::Residual | Kind::Energy => {
                    for (l, run) in lines.iter().zip(lab.runs()) {
                        let last = l.points.last().unwrap().0;
                        let expected = run.samples().iter().map(|s| s.t).filter(|&t| t <= 0.7).fold(0.0, f64::max);
                        assert_eq!(last, expected, "{kind:?} {}", run.method.id());
                    }
                }
                _ => {
                    for l in &lines {
                        let last = l.points.last().unwrap().0;
                        assert!((last - 0.7).abs() < 1e-12, "{kind:?} ends at the clock: {last}");
                    }
                }
            }
        }
    }

    /// A coin that starts to slip at t = 0.6853 (the CLI's test locates it): its
    /// contact panels draw N and the needed friction with μ, and every plot against
    /// `t` shades the span from the first slipping sample on.
    #[test]
    fn contact_panels_draw_the_forces_and_every_plot_shades_where_the_coin_slips() {
        let mut lab = Lab::new(crate::gallery::text("coin-slipping").unwrap()).unwrap();
        let layout = lab.layout();
        let kinds: Vec<Kind> = panels(&layout).iter().map(|p| p.kind).collect();
        assert!(kinds.contains(&Kind::ContactNormal) && kinds.contains(&Kind::ContactFriction), "{kinds:?}");
        lab.advance(1.0, 100_000);
        let display = Display::of(&mut lab);
        let (normal, _, _) = content(&display, Kind::ContactNormal, 1000);
        assert_eq!(normal.len(), 1, "one run, one contact");
        // Upright at the start: N is the weight less what the fall takes, 9.79.
        assert!((normal[0].points[0].1 - 9.79).abs() < 0.01, "{:?}", normal[0].points[0]);
        let (friction, _, _) = content(&display, Kind::ContactFriction, 1000);
        assert_eq!(friction.len(), 2, "the needed friction, and μ dashed");
        assert!(friction[1].dashed && friction[1].points.iter().all(|p| p.1 == 0.4));
        let spans = shaded(&display, Kind::Series(0));
        assert_eq!(spans.len(), 1, "{spans:?}");
        assert!(spans[0].0 >= 0.6853 && spans[0].0 < 0.72 && spans[0].1 <= 1.0, "{spans:?}");
        assert_eq!(shaded(&display, Kind::Trajectory), []);
        // The span in words, its start to nine digits, still open at the clock; and
        // closed once the clock passes its end (the command line's own words).
        let notes = lab.runs()[0].validity_notes(lab.now());
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(
            notes[0].starts_with("`disk rolls on ground` (rolling[0]) slips (|F_t| > μ N) from t = 0.6853"),
            "{notes:?}"
        );
        assert!(notes[0].contains(" on: ") && !notes[0].contains("until"), "{notes:?}");
        let start: f64 = notes[0].split("from t = ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
        assert!(start.to_string().len() >= 10 && (start - spans[0].0).abs() < 0.02, "{start} against {spans:?}");
        lab.advance(2.0, 100_000);
        let notes = lab.runs()[0].validity_notes(lab.now());
        assert!(notes[0].contains(" until t = 1.129"), "{notes:?}");
        assert!(lab.runs()[0].validity_notes(0.5).is_empty(), "nothing before the clock reaches it");
        // A scenario without contacts has neither the panels nor shading.
        let mut sleigh = Lab::new(crate::gallery::text("chaplygin-sleigh").unwrap()).unwrap();
        sleigh.advance(1.0, 10_000);
        assert!(shaded(&Display::of(&mut sleigh), Kind::Energy).is_empty());
    }

    /// The scene draws each contact's force as an arrow from the contact point along
    /// the force (the incline's closed form: `N` along the normal, `(2/7) m g sin α`
    /// up the slope), and the switch hides it.
    #[test]
    fn the_scene_draws_the_contact_force_as_an_arrow_that_can_be_hidden() {
        let mut lab = Lab::new(crate::gallery::text("ball-on-incline").unwrap()).unwrap();
        let layout = lab.layout();
        let scene = layout.scene.as_ref().unwrap();
        assert_eq!((scene.forces, scene.labels.last().map(String::as_str)), (1, Some("force of ball on incline")));
        lab.advance(0.5, 10_000);
        let mut display = Display::of(&mut lab);
        let arrow = scene.labels.len() - 1;
        let shown = display.shown();
        let Some((_, nhlab::scene::Mark::Path { points, .. })) =
            shown[0].picture.items.iter().find(|(e, _)| *e == arrow)
        else {
            panic!("an arrow: {:?}", shown[0].picture.items)
        };
        let alpha: f64 = 0.5;
        let (normal, friction) = (9.81 * alpha.cos(), 2.0 / 7.0 * 9.81 * alpha.sin());
        let force = [normal * alpha.sin() - friction * alpha.cos(), 0.0, normal * alpha.cos() + friction * alpha.sin()];
        let d: Vec<f64> = (0..3).map(|k| points[1][k] - points[0][k]).collect();
        let scale = d[2] / force[2];
        assert!(scale > 0.0 && (d[0] - scale * force[0]).abs() < 1e-9 && d[1].abs() < 1e-9, "{d:?} against {force:?}");
        // From the contact point, which rolls down the slope.
        let s = lab.runs()[0].current.as_ref().unwrap().0.q[0];
        assert!((points[0][0] - s * alpha.cos()).abs() < 1e-9 && (points[0][2] + s * alpha.sin()).abs() < 1e-9);
        display.set_show_forces(false);
        assert!(display.shown()[0].picture.items.iter().all(|(e, _)| *e != arrow));
        display.set_show_forces(true);
        assert!(display.shown()[0].picture.items.iter().any(|(e, _)| *e == arrow));
    }

    #[test]
    fn undefined_values_are_gaps_that_are_reported() {
        let text = crate::gallery::text("chaplygin-sleigh")
            .unwrap()
            .replace("series = [\"u\", \"phi'\"]", "series = [\"sqrt(phi - 0.3)\"]");
        let mut lab = Lab::new(&text).unwrap();
        lab.advance(2.0, 10_000);
        let display = Display::of(&mut lab);
        let (lines, _, _) = content(&display, Kind::Series(0), 1000);
        assert!(has_gaps(&lines), "sqrt of a negative number before φ reaches 0.3");
        assert!(lines[0].points.iter().any(|p| p.1.is_finite()), "and values after");
        let (lines, _, _) = content(&display, Kind::Energy, 1000);
        assert!(!has_gaps(&lines));
    }

    #[test]
    fn the_e_vector_is_zero_where_hamel_is_right() {
        // Paper 000, example 1 with the force of theorem 2: E ≡ 0.
        let mut lab = Lab::new(crate::gallery::text("paper000-ex1-sphere").unwrap()).unwrap();
        lab.advance(lab.t0 + 1.0, 10_000);
        let (lines, _, scale) = content(&Display::of(&mut lab), Kind::EVector, 1000);
        assert_eq!(scale, Scale::SymLog);
        for l in lines {
            assert!(
                l.points.iter().all(|p| p.1.abs() < 1e-9),
                "{:?}",
                l.points.iter().map(|p| p.1).fold(0.0, f64::max)
            );
        }
    }

    #[test]
    fn at_most_six_components_of_e_are_drawn_the_largest() {
        let format = crate::rows::RowFormat { outputs: 2, e_components: 9, contacts: 0 };
        let mut c = Columns::empty(format);
        let mut row = vec![0.0; format.width()];
        row[1] = 1.0;
        for (k, x) in [0.1, -9.0, 3.0, f64::NAN, 0.0, 5.0, -0.5, 7.0, 1.0].iter().enumerate() {
            row[6 + 2 + k] = *x;
        }
        c.extend_from_rows(&row).unwrap();
        assert_eq!(largest_components(&c, MAX_E_COMPONENTS), [1, 2, 5, 6, 7, 8]);
        assert_eq!(largest_components(&c, 20), (0..9).collect::<Vec<_>>());
    }
}
