//! The scene panel: each run's picture at the display clock (computed in the runner
//! worker, sent flat), drawn with the core's camera and `nhlab_plots::scene`, with
//! the view the user orbits, pans and zooms, and a text alternative.
//!
//! The view follows the motion until the user moves it: the scale only ever grows
//! smaller (what has been seen stays in view without the picture pumping in and
//! out), and the centre is that of what is shown now. A double-click fits again.

use crate::i18n::tr;
use nhlab::scene::{Bounds, Camera, Fit, Mark, Picture, Projection};

/// Kinds of marks in the flat form.
const OPEN: f64 = 0.0;
const CLOSED: f64 = 1.0;
const FILLED: f64 = 2.0;
const BALL: f64 = 3.0;

/// Most numbers of one picture the page accepts (a bound on a hostile message).
const MAX_NUMBERS: usize = 1 << 20;

/// A picture as one flat array, for the message from the worker: per mark
/// `[element, kind, count, …count points (x, y, z)]`, a ball's one point followed
/// by its radius.
pub fn encode(p: &Picture) -> Vec<f64> {
    let mut out = Vec::new();
    for (element, mark) in &p.items {
        out.push(*element as f64);
        match mark {
            Mark::Path { points, closed, fill } => {
                out.push(match (closed, fill) {
                    (_, true) => FILLED,
                    (true, false) => CLOSED,
                    (false, false) => OPEN,
                });
                out.push(points.len() as f64);
                points.iter().for_each(|q| out.extend_from_slice(q));
            }
            Mark::Ball { centre, radius } => {
                out.extend_from_slice(&[BALL, 1.0]);
                out.extend_from_slice(centre);
                out.push(*radius);
            }
        }
    }
    out
}

/// The picture of [`encode`]; an error, and nothing, for anything malformed.
pub fn decode(flat: &[f64], hidden: Vec<String>) -> Result<Picture, String> {
    if flat.len() > MAX_NUMBERS {
        return Err(format!("a scene of {} numbers is more than the page draws", flat.len()));
    }
    let bad = || "a malformed scene".to_string();
    let mut items = Vec::new();
    let mut k = 0;
    while k < flat.len() {
        let head = flat.get(k..k + 3).ok_or_else(bad)?;
        let (element, kind, count) = (head[0], head[1], head[2]);
        if !(element >= 0.0 && element.fract() == 0.0 && count >= 0.0 && count.fract() == 0.0) {
            return Err(bad());
        }
        // No mark has more points than numbers remain (and no size overflows).
        if count > (flat.len() - k) as f64 {
            return Err(bad());
        }
        let count = count as usize;
        let size = if kind == BALL { 4 } else { 3 * count };
        if kind == BALL && count != 1 {
            return Err(bad());
        }
        let data = flat.get(k + 3..k + 3 + size).ok_or_else(bad)?;
        let points: Vec<[f64; 3]> = data.chunks_exact(3).map(|c| [c[0], c[1], c[2]]).collect();
        let mark = match kind {
            BALL => Mark::Ball { centre: points[0], radius: data[3] },
            OPEN | CLOSED | FILLED => Mark::Path { points, closed: kind != OPEN, fill: kind == FILLED },
            _ => return Err(bad()),
        };
        items.push((element as usize, mark));
        k += 3 + size;
    }
    Ok(Picture { items, hidden })
}

/// How the user looks at the scene.
#[derive(Clone, Debug)]
pub struct SceneView {
    /// The projection and its orbit.
    pub camera: Camera,
    /// The fit in use (`None`: fit at the next drawing).
    fit: Option<Fit>,
    /// Whether the fit follows the motion (until the user pans or zooms).
    follow: bool,
    /// The drawing's size in pixels the fit was made for.
    size: (f64, f64),
}

impl SceneView {
    /// The default view of a projection.
    pub fn new(projection: Projection) -> SceneView {
        SceneView { camera: Camera::new(projection), fit: None, follow: true, size: (0.0, 0.0) }
    }

    /// Fits again and follows the motion (a double-click; a restart).
    pub fn reset(&mut self) {
        self.fit = None;
        self.follow = true;
    }

    /// Orbits by a drag of `(dx, dy)` pixels (space; in the plane a drag pans).
    pub fn drag(&mut self, dx: f64, dy: f64) {
        match self.camera.projection {
            Projection::Space => {
                self.camera.orbit(-dx * 0.01, dy * 0.01);
                // The screen box changes with the view: fit again, keeping the scale.
                if let Some(fit) = &mut self.fit {
                    fit.offset = (f64::NAN, f64::NAN);
                }
            }
            Projection::Plane => {
                if let Some(fit) = &mut self.fit {
                    fit.pan(dx, dy);
                    self.follow = false;
                }
            }
        }
    }

    /// Zooms by `factor` about pixel `(x, y)` and stops following.
    pub fn zoom(&mut self, factor: f64, x: f64, y: f64) {
        if let (Some(fit), true) = (&mut self.fit, factor.is_finite() && factor > 0.0) {
            let factor = factor.clamp(0.2, 5.0);
            if fit.offset.0.is_finite() {
                fit.zoom(factor, x, y);
            } else {
                fit.scale *= factor; // turned since the last drawing: centred then
            }
            self.follow = false;
        }
    }

    /// The fit for a drawing of `width × height` pixels of what `bounds` holds.
    fn fit_for(&mut self, bounds: &Bounds, width: f64, height: f64) -> Fit {
        let margin = 0.08 * width.min(height);
        let target = Fit::new(bounds, width, height, margin);
        let fit = match self.fit {
            Some(fit) if self.size == (width, height) && !self.follow => {
                // The user's view; turned since, it is centred again at the user's scale.
                if fit.offset.0.is_finite() {
                    fit
                } else {
                    Fit::centred(bounds, fit.scale, width, height)
                }
            }
            // Following: the scale only shrinks; the centre is what is shown now.
            Some(fit) if self.size == (width, height) => {
                Fit::centred(bounds, fit.scale.min(target.scale), width, height)
            }
            _ => target,
        };
        self.fit = Some(fit);
        self.size = (width, height);
        fit
    }
}

/// What one run shows in the scene.
pub struct Shown<'a> {
    /// Whose: the colour.
    pub series: nhlab_plots::Series,
    /// Its name in the caption (`lagrange`, `lagrange · heavy: m = 3`).
    pub label: String,
    /// Its picture at the clock.
    pub picture: &'a Picture,
    /// Its trailed points, sample by sample (oldest first), per trailed element.
    pub trails: Vec<Vec<[f64; 3]>>,
}

/// Draws the runs' pictures on `area`, fitting the view as it goes; the points drawn.
pub fn draw<B: plotters::prelude::DrawingBackend>(
    area: &plotters::prelude::DrawingArea<B, plotters::coord::Shift>,
    view: &mut SceneView,
    shown: &[Shown<'_>],
    dpr: f64,
) -> Result<usize, String> {
    let (w, h) = area.dim_in_pixel();
    let trail_points: Vec<[f64; 3]> = shown.iter().flat_map(|s| s.trails.iter().flatten().copied()).collect();
    let bounds = nhlab_plots::scene::bounds(&view.camera, shown.iter().map(|s| s.picture), &trail_points);
    let fit = view.fit_for(&bounds, w as f64, h as f64);
    let ghosts: Vec<nhlab_plots::scene::Ghost> = shown
        .iter()
        .map(|s| nhlab_plots::scene::Ghost { series: s.series, picture: s.picture, trails: &s.trails })
        .collect();
    nhlab_plots::scene::draw_scene(area, &view.camera, &fit, &ghosts, dpr).map_err(|e| e.to_string())
}

/// The text alternative: what is drawn, and where each element is for each method.
pub fn caption(labels: &[String], shown: &[Shown<'_>], t: f64) -> String {
    let separator = tr("list.separator", &[]);
    let labels: Vec<String> = labels.iter().map(|l| crate::i18n::name(l)).collect();
    let mut out = tr("scene.caption", &[("t", &format!("{t:.2}")), ("labels", &labels.join(&separator))]);
    for s in shown {
        let mut places = Vec::new();
        for (k, label) in labels.iter().enumerate() {
            // Where the element is: the centre of its points.
            let points: Vec<[f64; 3]> =
                s.picture.items.iter().filter(|(e, _)| *e == k).flat_map(|(_, m)| m.points().to_vec()).collect();
            if points.is_empty() {
                continue;
            }
            let centre = |i: usize| points.iter().map(|p| p[i]).sum::<f64>() / points.len() as f64;
            let at = format!("({:.2}, {:.2}, {:.2})", centre(0), centre(1), centre(2));
            places.push(tr("scene.place", &[("label", label), ("at", &at)]));
        }
        let hidden = if s.picture.hidden.is_empty() {
            String::new()
        } else {
            let hidden: Vec<String> = s.picture.hidden.iter().map(|h| crate::i18n::name(h)).collect();
            tr("scene.hidden", &[("names", &hidden.join(&separator))])
        };
        let places = places.join(&tr("clause.separator", &[]));
        out.push_str(&tr("scene.run", &[("method", &s.label), ("places", &places), ("hidden", &hidden)]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use nhlab::formulations::Method;

    fn picture() -> Picture {
        Picture {
            items: vec![
                (0, Mark::Path { points: vec![[0.0, 0.0, 0.0], [1.0, 2.0, 3.0]], closed: false, fill: false }),
                (1, Mark::Path { points: vec![[0.0; 3], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], closed: true, fill: true }),
                (2, Mark::Ball { centre: [4.0, 5.0, 6.0], radius: 0.5 }),
                (2, Mark::Path { points: vec![[1.0; 3], [2.0; 3], [3.0; 3]], closed: true, fill: false }),
            ],
            hidden: vec![],
        }
    }

    #[test]
    fn pictures_cross_from_the_worker_unchanged() {
        let p = picture();
        assert_eq!(decode(&encode(&p), vec![]).unwrap(), p);
        assert_eq!(decode(&[], vec!["x".into()]).unwrap().hidden, vec!["x".to_string()]);
    }

    #[test]
    fn malformed_pictures_are_refused() {
        let flat = encode(&picture());
        assert!(decode(&flat[..flat.len() - 1], vec![]).is_err(), "cut short");
        let mut kind = flat.clone();
        kind[1] = 9.0;
        assert!(decode(&kind, vec![]).is_err(), "an unknown kind");
        let mut count = flat.clone();
        count[2] = 1e300;
        assert!(decode(&count, vec![]).is_err(), "an absurd count");
        let mut element = flat;
        element[0] = -1.0;
        assert!(decode(&element, vec![]).is_err(), "a negative element");
        assert!(decode(&vec![0.0; MAX_NUMBERS + 1], vec![]).is_err());
    }

    #[test]
    fn the_view_follows_the_motion_and_only_zooms_out() {
        let mut view = SceneView::new(Projection::Plane);
        let mut b = Bounds::default();
        b.include(0.0, 0.0);
        b.include(1.0, 1.0);
        let first = view.fit_for(&b, 200.0, 200.0);
        // The system moves away and grows: the view follows it and zooms out.
        let mut moved = Bounds::default();
        moved.include(10.0, 0.0);
        moved.include(12.0, 2.0);
        let second = view.fit_for(&moved, 200.0, 200.0);
        assert!(second.scale < first.scale);
        assert_eq!(second.pixel(11.0, 1.0), (100.0, 100.0), "centred on what is shown");
        // It shrinks again: the scale stays.
        let third = view.fit_for(&b, 200.0, 200.0);
        assert_eq!(third.scale, second.scale);
        // A zoom stops following; a reset follows again.
        view.zoom(2.0, 100.0, 100.0);
        let zoomed = view.fit_for(&moved, 200.0, 200.0);
        assert_eq!(zoomed.scale, 2.0 * third.scale);
        view.reset();
        assert_eq!(view.fit_for(&b, 200.0, 200.0), first);
    }

    #[test]
    fn orbiting_turns_space_and_pans_the_plane() {
        let mut space = SceneView::new(Projection::Space);
        let before = space.camera;
        space.drag(30.0, 10.0);
        assert_ne!(space.camera, before);
        let mut plane = SceneView::new(Projection::Plane);
        let mut b = Bounds::default();
        b.include(0.0, 0.0);
        b.include(1.0, 1.0);
        let fit = plane.fit_for(&b, 100.0, 100.0);
        plane.drag(5.0, -5.0);
        let panned = plane.fit_for(&b, 100.0, 100.0);
        assert_eq!(panned.pixel(0.0, 0.0), (fit.pixel(0.0, 0.0).0 + 5.0, fit.pixel(0.0, 0.0).1 - 5.0));
        assert_eq!(plane.camera, Camera::new(Projection::Plane), "the plane does not orbit");
    }

    #[test]
    fn the_caption_says_what_is_where() {
        let p = Picture { hidden: vec!["c".into()], ..picture() };
        let shown = [Shown { series: Method::Lagrange.into(), label: "lagrange".into(), picture: &p, trails: vec![] }];
        let text = caption(&["a".into(), "b".into(), "c".into()], &shown, 1.5);
        assert!(text.starts_with("The system at t = 1.50: a, b, c."), "{text}");
        // Each element at the centre of its points (c: its ball's centre with its ring's three).
        assert!(
            text.contains("lagrange: a at (0.50, 1.00, 1.50); b at (0.33, 0.33, 0.00); c at (2.50, 2.75, 3.00)"),
            "{text}"
        );
        assert!(text.contains("not drawn here (a value is not finite): c"), "{text}");
    }
}
