//! The page's side of the lab: what the plots read, and nothing that computes.
//!
//! The [`crate::lab::Lab`] lives in a Web Worker (`www/worker.js`), where deriving
//! and stepping can take as long as they take without blocking the page. The page
//! keeps a [`Display`]: the [`Layout`] the worker sent when it loaded the scenario,
//! and for each run the rows the worker has sent so far (flat typed arrays of
//! [`crate::rows::RowFormat`]), turned into [`Columns`] once as they arrive, plus
//! its row at the display clock. Drawing reads only this, so a frame costs the same
//! whatever the model.

use nhlab::formulations::Method;

use nhlab::scene::{Picture, Projection};

#[cfg(test)]
use crate::lab::Lab;
pub use crate::layout::Layout;
use crate::rows::Columns;
use crate::scene::SceneView;

/// Trail points handed to the scene's painter per trailed element at most.
const MAX_TRAIL_POINTS: usize = 2000;

/// Trail points of all runs and trailed elements together, shared out among them
/// (each keeps [`MIN_TRAIL_POINTS`]): 64 trailed shapes × 28 runs drew 1,792 trails
/// of 600 points, 0.3–0.9 s a frame.
const TRAIL_POINTS_PER_FRAME: usize = 24_000;

/// Trail points per trailed element at least, however many there are.
const MIN_TRAIL_POINTS: usize = 16;

/// One run as the page sees it.
pub struct DisplayRun {
    /// The method.
    pub method: Method,
    /// Its parameter set (0: the scenario's values).
    pub set: usize,
    /// Its integrator's place in the layout's `integrator_labels` (0 without an
    /// overlay).
    pub integrator_index: usize,
    /// Every plotted point received so far.
    pub columns: Columns,
    /// The run's state at the display clock, as a one-row [`Columns`].
    pub current: Option<Columns>,
    /// Its scene at the display clock (empty without one), without the force
    /// arrows when they are switched off.
    pub picture: Picture,
    /// The same with every item the worker sent.
    full_picture: Picture,
    /// Whether it failed (it could not run or stopped on an error; an end by design
    /// is not a failure): the scene draws it as a ghost behind the runs that go on.
    pub failed: bool,
}

/// The page's copy of the plotted data.
pub struct Display {
    /// The scenario's layout.
    pub layout: Layout,
    /// One per run, in the layout's method order.
    pub runs: Vec<DisplayRun>,
    /// The display clock: the time the worker's runs were stepped to.
    pub now: f64,
    /// How the user looks at the scene.
    pub scene_view: SceneView,
    /// Whether the scene draws the contact forces' arrows.
    pub show_forces: bool,
}

impl Display {
    /// An empty display for `layout`.
    pub fn new(layout: Layout) -> Result<Display, String> {
        if layout.view_labels.len() < 2 {
            return Err("a layout needs the trajectory's two labels".into());
        }
        if layout.panels.is_empty() || layout.t0.partial_cmp(&layout.t_end) != Some(core::cmp::Ordering::Less) {
            return Err("a layout needs panels and t0 < t_end".into());
        }
        let runs = layout
            .methods
            .iter()
            .enumerate()
            .map(|(k, id)| {
                let method = Method::from_id(id).ok_or_else(|| format!("unknown method `{id}`"))?;
                let set = layout.sets.get(k).copied().unwrap_or(0);
                if set > layout.set_labels.len() {
                    return Err(format!("run {k}: no parameter set {set}"));
                }
                let integrator_index = layout.integrators.get(k).copied().unwrap_or(0);
                if integrator_index > 0 && integrator_index >= layout.integrator_labels.len() {
                    return Err(format!("run {k}: no integrator {integrator_index}"));
                }
                Ok(DisplayRun {
                    method,
                    set,
                    integrator_index,
                    columns: Columns::empty(layout.row_format()),
                    current: None,
                    picture: Picture::default(),
                    full_picture: Picture::default(),
                    failed: false,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let now = layout.t0;
        let projection = match layout.scene.as_ref().map(|s| s.projection.as_str()) {
            Some("space") => Projection::Space,
            _ => Projection::Plane,
        };
        Ok(Display { layout, runs, now, scene_view: SceneView::new(projection), show_forces: true })
    }

    /// Puts what the worker sent for run `index` in place: its rows from row `from`
    /// on (earlier rows are kept, later ones replaced) and its row at the clock
    /// (none when `current` is empty). Nothing changes on an error.
    pub fn apply(&mut self, index: usize, from: usize, rows: &[f64], current: &[f64]) -> Result<(), String> {
        let width = self.layout.row_width();
        let run = self.runs.get_mut(index).ok_or_else(|| format!("no run {index}"))?;
        if from > run.columns.len() {
            return Err(format!("rows from {from} would leave a gap after {}", run.columns.len()));
        }
        if !rows.len().is_multiple_of(width) || !(current.is_empty() || current.len() == width) {
            return Err(format!("rows of {width} numbers expected"));
        }
        run.columns.truncate(from);
        run.columns.extend_from_rows(rows)?;
        run.current =
            if current.is_empty() { None } else { Some(Columns::from_rows(self.layout.row_format(), current)?) };
        Ok(())
    }

    /// Puts run `index`'s scene at the clock in place (flat, [`crate::scene::decode`]),
    /// with the labels of the elements it could not draw. Nothing changes on an error.
    pub fn apply_picture(&mut self, index: usize, flat: &[f64], hidden: Vec<String>) -> Result<(), String> {
        let elements = self.layout.scene.as_ref().map_or(0, |s| s.labels.len());
        let picture = crate::scene::decode(flat, hidden)?;
        if picture.items.iter().any(|(e, _)| *e >= elements) {
            return Err("a scene element the layout does not have".into());
        }
        let forces_from = elements - self.layout.scene.as_ref().map_or(0, |s| s.forces);
        let run = self.runs.get_mut(index).ok_or_else(|| format!("no run {index}"))?;
        run.full_picture = picture;
        run.picture = shown_part(&run.full_picture, self.show_forces, forces_from);
        Ok(())
    }

    /// Shows or hides the contact forces' arrows in the scene.
    pub fn set_show_forces(&mut self, show: bool) {
        self.show_forces = show;
        let elements = self.layout.scene.as_ref().map_or(0, |s| s.labels.len());
        let forces_from = elements - self.layout.scene.as_ref().map_or(0, |s| s.forces);
        for run in &mut self.runs {
            run.picture = shown_part(&run.full_picture, show, forces_from);
        }
    }

    /// What the scene panel shows: each run's picture and its trails so far, the
    /// runs that failed last (the first shown is drawn solid, the others as ghosts).
    pub fn shown(&self) -> Vec<crate::scene::Shown<'_>> {
        let trails = self.layout.scene.as_ref().map_or(0, |s| s.trails);
        let first = self.layout.view_labels.len();
        let (going, failed): (Vec<&DisplayRun>, Vec<&DisplayRun>) = self.runs.iter().partition(|r| !r.failed);
        let drawn = self.runs.iter().filter(|r| !r.picture.items.is_empty() || !r.picture.hidden.is_empty()).count();
        let per_trail = (TRAIL_POINTS_PER_FRAME / (drawn * trails).max(1)).clamp(MIN_TRAIL_POINTS, MAX_TRAIL_POINTS);
        going
            .into_iter()
            .chain(failed)
            .filter(|r| !r.picture.items.is_empty() || !r.picture.hidden.is_empty())
            .map(|r| {
                let c = &r.columns;
                // Every few samples of a long run (the painter thins trails further).
                let stride = c.len().div_ceil(per_trail).max(1);
                let mut rows: Vec<usize> =
                    if trails == 0 { Vec::new() } else { (0..c.len()).step_by(stride).collect() };
                if trails > 0 && !c.is_empty() && rows.last() != Some(&(c.len() - 1)) {
                    rows.push(c.len() - 1);
                }
                let trails = (0..trails)
                    .map(|k| {
                        let (x, y, z) =
                            (&c.view[first + 3 * k], &c.view[first + 3 * k + 1], &c.view[first + 3 * k + 2]);
                        rows.iter().map(|&i| [x[i], y[i], z[i]]).collect()
                    })
                    .collect();
                crate::scene::Shown { series: series(r), label: run_label(self, r), picture: &r.picture, trails }
            })
            .collect()
    }

    /// Follows `lab` completely: every run's rows and current row, and its clock. The
    /// native tests draw through this, as the page does through the worker.
    #[cfg(test)]
    pub fn follow(&mut self, lab: &mut Lab) {
        for index in 0..self.runs.len() {
            // A restarted lab has fewer rows than shown: rows_since starts again from 0.
            let (from, rows, current) = lab.rows_since(index, self.runs[index].columns.len(), usize::MAX);
            self.apply(index, from, &rows, &current).expect("rows of the lab's own layout");
            let (flat, hidden) = lab.picture(index);
            self.apply_picture(index, &flat, hidden).expect("the lab's own scene");
            let run = &lab.runs()[index];
            self.runs[index].failed = run.error.is_some() && !run.ended;
        }
        self.now = lab.now();
    }

    /// A display that has followed `lab` (tests).
    #[cfg(test)]
    pub fn of(lab: &mut Lab) -> Display {
        let mut display = Display::new(lab.layout()).expect("a lab's own layout");
        display.follow(lab);
        display
    }
}

/// Whose a run's lines are: its method and parameter set.
pub fn series(run: &DisplayRun) -> nhlab_plots::Series {
    nhlab_plots::Series { method: run.method, set: run.set, integrator: run.integrator_index }
}

/// A run's legend entry: `lagrange`, or `lagrange · heavy: m = 3` for a parameter set.
pub fn run_label(display: &Display, run: &DisplayRun) -> String {
    match run.set.checked_sub(1).and_then(|k| display.layout.set_labels.get(k)) {
        Some(set) => format!("{} · {set}", run.method.id()),
        None => run.method.id().to_string(),
    }
}

/// `picture` without the items from element `forces_from` on (the force arrows)
/// unless `forces` says to show them.
fn shown_part(picture: &Picture, forces: bool, forces_from: usize) -> Picture {
    if forces {
        return picture.clone();
    }
    Picture {
        items: picture.items.iter().filter(|(e, _)| *e < forces_from).cloned().collect(),
        hidden: picture.hidden.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::panels::{content, Kind};

    fn sleigh() -> Lab {
        Lab::new(crate::gallery::text("chaplygin-sleigh").unwrap()).unwrap()
    }

    /// The page's display, fed in small pieces as the worker sends them.
    fn fed_in_pieces(lab: &mut Lab, max_rows: usize) -> Display {
        let mut display = Display::new(lab.layout()).unwrap();
        let mut sent = vec![0; display.runs.len()];
        let mut t = lab.t0;
        while !lab.finished() || sent.iter().zip(lab.runs()).any(|(&s, r)| s < r.row_count()) {
            t += 0.05;
            lab.advance(t, 1000);
            for (i, s) in sent.iter_mut().enumerate() {
                let (from, rows, current) = lab.rows_since(i, *s, max_rows);
                *s = from + rows.len() / display.layout.row_width();
                display.apply(i, from, &rows, &current).unwrap();
            }
            display.now = lab.now();
        }
        display
    }

    /// The knife edge with every method, three `[compare]` sets (28 runs) and 61 more
    /// trailed points.
    fn crowded() -> Lab {
        let mut text = crate::gallery::text("knife-edge-incline")
            .unwrap()
            .replace(
                r#"methods = ["lagrange", "udwadia-kalaba", "gauss"]"#,
                r#"methods = ["lagrange", "udwadia-kalaba", "gauss", "hamel", "voronets", "euler", "vakonomic"]"#,
            )
            .replace("[hamel]", "[compare.a]\nalpha = 0.2\n[compare.b]\nalpha = 0.4\n[compare.c]\nk = 0.7\n\n[hamel]");
        for j in 0..61 {
            text.push_str(&format!(
                "[[scene.shapes]]\nname = \"p{j}\"\nkind = \"point\"\nat = [\"x + {j}\", \"y\"]\ntrail = true\n"
            ));
        }
        Lab::new(&text).unwrap()
    }

    #[test]
    fn crowded_panels_and_trails_keep_to_their_point_bounds_and_their_ends() {
        let mut lab = crowded();
        while !lab.finished() {
            lab.advance(lab.t_end, 100_000);
        }
        let display = Display::of(&mut lab);
        let rows: Vec<usize> = display.runs.iter().map(|r| r.columns.len()).collect();
        assert!(rows.iter().sum::<usize>() > 2 * crate::panels::MAX_PANEL_POINTS, "long runs: {rows:?}");
        assert_eq!(display.runs.len(), 28);
        for p in display.layout.panels.iter().filter(|p| p.kind != Kind::Scene) {
            let (lines, _, _) = content(&display, p.kind, 2000);
            let total: usize = lines.iter().map(|l| l.points.len()).sum();
            let bound = crate::panels::MAX_PANEL_POINTS.max(lines.len() * crate::panels::MIN_LINE_POINTS);
            assert!(total <= bound, "{}: {total} points in {} lines", p.id, lines.len());
            // Each line still ends where its run is.
            for (line, run) in lines.iter().zip(&display.runs).filter(|_| matches!(p.kind, Kind::Series(_))) {
                let last = line.points.last().unwrap();
                assert_eq!(last.0, *run.columns.t.last().unwrap(), "{}", p.id);
            }
        }
        let shown = display.shown();
        let trails: Vec<&Vec<[f64; 3]>> = shown.iter().flat_map(|s| &s.trails).collect();
        assert_eq!(trails.len(), 28 * 62);
        let points: usize = trails.iter().map(|t| t.len()).sum();
        assert!(
            points <= (TRAIL_POINTS_PER_FRAME + trails.len()).max(trails.len() * (MIN_TRAIL_POINTS + 1)),
            "{points}"
        );
        // A thinned trail still ends at its run's last sample.
        let run = &display.runs[0];
        let first = display.layout.view_labels.len();
        assert_eq!(shown[0].trails[0].last().unwrap()[0], *run.columns.view[first].last().unwrap());
    }

    #[test]
    fn a_display_fed_in_pieces_draws_what_the_lab_recorded() {
        let mut lab = sleigh();
        let display = fed_in_pieces(&mut lab, 3);
        let whole = Display::of(&mut lab);
        for (a, b) in display.runs.iter().zip(&whole.runs) {
            assert_eq!(a.columns, b.columns);
            assert_eq!(a.columns.len(), lab.runs().iter().find(|r| r.method == a.method).unwrap().row_count());
        }
        for p in &display.layout.panels {
            let (x, _, _) = content(&display, p.kind, 500);
            let (y, _, _) = content(&whole, p.kind, 500);
            let points = |lines: &[nhlab_plots::Line]| lines.iter().map(|l| l.points.clone()).collect::<Vec<_>>();
            assert_eq!(points(&x), points(&y), "{}", p.id);
        }
    }

    #[test]
    fn a_restarted_lab_is_sent_again_from_its_first_row() {
        let mut lab = sleigh();
        lab.advance(1.0, 10_000);
        let mut display = Display::of(&mut lab);
        let before = display.runs[0].columns.len();
        lab.restart();
        lab.advance(0.2, 10_000);
        let (from, rows, current) = lab.rows_since(0, before, usize::MAX);
        assert_eq!(from, 0, "fewer rows than were sent: from the start");
        display.apply(0, from, &rows, &current).unwrap();
        assert_eq!(display.runs[0].columns.len(), lab.runs()[0].row_count());
        assert!(display.runs[0].columns.t.iter().all(|&t| t <= lab.runs()[0].columns().t.last().copied().unwrap()));
    }

    /// A run that fails is drawn as a ghost: the first run that goes on is solid
    /// (Appell–Hamel's constraint is nonlinear in the velocities, so there is no Hamel
    /// split; Lagrange's run, second in the list, leads).
    #[test]
    fn a_failed_run_is_a_ghost_behind_the_runs_that_go_on() {
        let text = crate::gallery::text("appell-hamel").unwrap();
        let text =
            crate::edit::apply(text, "run.methods", crate::edit::Edit::List(&["hamel".into(), "lagrange".into()]))
                .unwrap();
        let mut lab = Lab::new(&text).unwrap();
        lab.advance(0.5, 10_000);
        let display = Display::of(&mut lab);
        assert!(display.runs[0].failed && !display.runs[1].failed);
        let shown = display.shown();
        assert_eq!(shown[0].label, "lagrange", "the run that goes on is drawn first (solid)");
        assert!(shown.iter().skip(1).all(|s| s.label == "hamel"));
    }

    #[test]
    fn malformed_pieces_are_refused_and_change_nothing() {
        let mut lab = sleigh();
        lab.advance(0.5, 10_000);
        let mut display = Display::of(&mut lab);
        let width = display.layout.row_width();
        let len = display.runs[0].columns.len();
        let (_, rows, current) = lab.rows_since(0, 0, 2);
        assert!(display.apply(0, len + 1, &rows, &current).is_err(), "a gap");
        assert!(display.apply(0, 0, &rows[..width + 1], &current).is_err(), "a partial row");
        assert!(display.apply(0, 0, &rows, &current[1..]).is_err(), "a partial current row");
        assert!(display.apply(7, 0, &rows, &current).is_err(), "no such run");
        assert_eq!(display.runs[0].columns.len(), len);
        let bad = Layout { methods: vec!["nonsense".into()], ..lab.layout() };
        assert!(Display::new(bad).is_err());
    }
}
