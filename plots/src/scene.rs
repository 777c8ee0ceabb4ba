//! The scene drawn on any plotters backend: each method's picture in its colour (the
//! first solid, the others as translucent ghosts), far marks first, over a light
//! grid (the xy plane's, which in space is the ground), with fading trails.
//!
//! The geometry (poses, projection, fit) is the core's `nhlab::scene`; this module
//! only paints, so the command line's SVG and the page's canvas show one picture.

use plotters::coord::Shift;
use plotters::prelude::*;

use nhlab::scene::{Bounds, Camera, Fit, Mark, Picture, Projection};

use crate::colour;

/// One method's picture at the shown time, and its trails (one path per trailed
/// element, oldest first).
pub struct Ghost<'a> {
    /// Whose picture: sets the colour.
    pub series: crate::Series,
    /// The picture.
    pub picture: &'a Picture,
    /// The trailed points' paths up to now.
    pub trails: &'a [Vec<[f64; 3]>],
}

/// The screen box of pictures and trails under `camera`: what [`Fit::new`] fits.
pub fn bounds<'a>(camera: &Camera, pictures: impl IntoIterator<Item = &'a Picture>, trails: &[[f64; 3]]) -> Bounds {
    let mut b = Bounds::default();
    let mut add = |p: [f64; 3], r: f64| {
        let s = camera.project(p);
        b.include(s[0] - r, s[1] - r);
        b.include(s[0] + r, s[1] + r);
    };
    for picture in pictures {
        for (_, mark) in &picture.items {
            match mark {
                Mark::Path { points, .. } => points.iter().for_each(|&p| add(p, 0.0)),
                Mark::Ball { centre, radius } => add(*centre, *radius),
            }
        }
    }
    trails.iter().for_each(|&p| add(p, 0.0));
    b
}

/// Most points of a trail drawn, and the shades it fades through.
const TRAIL_POINTS: usize = 600;
const TRAIL_BANDS: usize = 12;

/// Most strokes of the trails in a frame: each band is one, and a stroke costs the
/// browser more than its points (64 trails × 28 runs in two bands each made every
/// frame 80–120 ms). Crowded scenes fade their trails in fewer shades, one at least.
const TRAIL_STROKES: usize = 800;

/// At most `max` of `points`, evenly spaced by index, the last one kept.
fn thin(points: &[[f64; 3]], max: usize) -> std::borrow::Cow<'_, [[f64; 3]]> {
    if points.len() <= max {
        return points.into();
    }
    let stride = points.len().div_ceil(max - 1);
    let mut out: Vec<[f64; 3]> = points.iter().step_by(stride).copied().collect();
    if out.last() != points.last() {
        out.extend(points.last());
    }
    out.into()
}

/// Most points of the pictures' outlines drawn in a frame: the first method's are
/// drawn whole (a scene at its limits has 16,384), the ghosts' outlines share the
/// rest, each thinned to [`MIN_GHOST_POINTS`] at least. 28 runs of a scene at its
/// limits drew 458,752 points a frame, and the page answered a click after 5 s
/// (issue 57); a ghost is there to show where another method has the system, which
/// its thinned outline still shows.
const MARK_POINTS: usize = 24_000;
const MIN_GHOST_POINTS: usize = 8;

/// Most strokes wider than a device pixel in a frame: past it the trails and the
/// ghosts' outlines are drawn one device pixel wide. The browser's raster (Skia,
/// without a GPU) strokes a one-pixel line about eight times faster than any wider
/// one (1,800 paths of 16 points: 17 ms against 132 ms at 1.5 or 2 pixels), and 28
/// runs of a scene at its limits stroke 3,584 paths a frame (issue 57). The first
/// method's outlines keep their width: they are the picture.
const WIDE_STROKES: usize = 400;

/// Whether the trails and ghosts' outlines of `ghosts` are drawn one device pixel wide.
fn crowded(ghosts: &[Ghost<'_>]) -> bool {
    let trails: usize = ghosts.iter().map(|g| g.trails.len()).sum();
    let ghost_paths: usize = ghosts
        .iter()
        .skip(1)
        .map(|g| g.picture.items.iter().filter(|(_, m)| matches!(m, Mark::Path { .. })).count())
        .sum();
    trails + ghost_paths > WIDE_STROKES
}

/// How many points each ghost's outline keeps: all where the pictures fit in
/// [`MARK_POINTS`].
fn ghost_outline_points(ghosts: &[Ghost<'_>]) -> usize {
    let outline = |g: &Ghost<'_>| -> (usize, usize) {
        g.picture.items.iter().fold((0, 0), |(paths, points), (_, mark)| match mark {
            Mark::Path { points: p, .. } => (paths + 1, points + p.len()),
            Mark::Ball { .. } => (paths, points),
        })
    };
    let (_, first) = ghosts.first().map_or((0, 0), outline);
    let (paths, points) = ghosts.iter().skip(1).map(outline).fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    if first + points <= MARK_POINTS {
        return usize::MAX;
    }
    (MARK_POINTS.saturating_sub(first) / paths.max(1)).max(MIN_GHOST_POINTS)
}

/// How strongly the `k`-th method is drawn: the first solid, the others ghosts.
fn opacity(k: usize) -> f64 {
    if k == 0 {
        1.0
    } else {
        0.45
    }
}

/// Painter's order of two marks `(depth, method)`: the farther first; depths equal
/// to 1e-9 count as equal, and then the first method's mark comes last (on top).
/// Formulations that agree put their marks at depths that differ in the last bits
/// only, and a ghost painted over the solid mark greyed it out.
fn painted_before(a: (f64, usize), b: (f64, usize)) -> core::cmp::Ordering {
    let level = |depth: f64| if depth.is_finite() { (depth * 1e9).round() as i64 } else { i64::MAX };
    level(a.0).cmp(&level(b.0)).then(b.1.cmp(&a.1))
}

/// Draws `ghosts` (first method first) onto `area` with `camera` and `fit`.
/// `dpr` scales line widths and dots (device pixels per CSS pixel). Returns how many
/// points of trails and outlines it drew (what the browser's raster costs: the page
/// budgets its frames by it).
pub fn draw_scene<B: DrawingBackend>(
    area: &DrawingArea<B, Shift>,
    camera: &Camera,
    fit: &Fit,
    ghosts: &[Ghost<'_>],
    dpr: f64,
) -> Result<usize, DrawingAreaErrorKind<B::ErrorType>> {
    let mut drawn = 0;
    let (w, h) = area.dim_in_pixel();
    let view = Viewport { width: w as f64, height: h as f64 };
    let px = |x: f64, y: f64| fit.pixel(x, y);
    let width = |w: f64| ((w * dpr).round() as u32).max(1);
    let hairlines = crowded(ghosts);
    let thin_width = |w: f64| if hairlines { 1 } else { width(w) };
    grid(area, camera, fit, dpr)?;
    // Trails under everything, fading towards their start: at most TRAIL_POINTS
    // points, drawn as up to TRAIL_BANDS polylines of one shade each (segment by
    // segment, a long trail would cost more than the rest of the frame), within
    // TRAIL_STROKES strokes over all trails.
    let trails: usize = ghosts.iter().map(|g| g.trails.len()).sum();
    let bands = (TRAIL_STROKES / trails.max(1)).clamp(1, TRAIL_BANDS);
    for (k, ghost) in ghosts.iter().enumerate() {
        let c = colour(ghost.series);
        for trail in ghost.trails {
            let points = thin(trail, TRAIL_POINTS);
            let n = points.len();
            drawn += n;
            if n < 2 {
                continue;
            }
            // Bands of 8 points at least: each is a stroke of its own, and a thinned
            // trail of a crowded scene needs few shades.
            let per_band = n.div_ceil(bands).max(8);
            for (b, start) in (0..n - 1).step_by(per_band).enumerate() {
                let band = &points[start..(start + per_band + 1).min(n)];
                let age = (b + 1) as f64 / n.div_ceil(per_band) as f64;
                let style = c.mix(opacity(k) * 0.6 * age).stroke_width(thin_width(1.5));
                let pixels: Vec<(f64, f64)> = band
                    .iter()
                    .map(|&p| {
                        let s = camera.project(p);
                        px(s[0], s[1])
                    })
                    .collect();
                for run in view.clip_path(&pixels) {
                    area.draw(&PathElement::new(run, style))?;
                }
            }
        }
    }
    // Every mark of every picture, farthest first (painter's order by mean depth).
    let mut marks: Vec<(f64, usize, &Mark)> = Vec::new();
    for (k, ghost) in ghosts.iter().enumerate() {
        for (_, mark) in &ghost.picture.items {
            let pts = mark.points();
            let depth = pts.iter().map(|&p| camera.project(p)[2]).sum::<f64>() / pts.len().max(1) as f64;
            marks.push((depth, k, mark));
        }
    }
    marks.sort_by(|a, b| painted_before((a.0, a.1), (b.0, b.1)));
    let ghost_points = ghost_outline_points(ghosts);
    for (_, k, mark) in marks {
        let c = colour(ghosts[k].series);
        let alpha = opacity(k);
        match mark {
            Mark::Path { points, closed, fill } => {
                let kept = if k == 0 { points.len() } else { ghost_points };
                let thinned = thin(points, kept.max(2));
                drawn += thinned.len();
                let mut p: Vec<(f64, f64)> = thinned
                    .iter()
                    .map(|&w| {
                        let s = camera.project(w);
                        px(s[0], s[1])
                    })
                    .collect();
                if *fill && p.len() >= 3 {
                    let inside = view.clip_polygon(&p);
                    if inside.len() >= 3 {
                        area.draw(&Polygon::new(inside, c.mix(alpha * 0.22).filled()))?;
                    }
                }
                if *closed {
                    if let Some(&first) = p.first() {
                        p.push(first);
                    }
                }
                let style = c.mix(alpha).stroke_width(if k == 0 { width(1.6) } else { thin_width(1.6) });
                for run in view.clip_path(&p) {
                    area.draw(&PathElement::new(run, style))?;
                }
            }
            Mark::Ball { centre, radius } => {
                let s = camera.project(*centre);
                let r = if *radius > 0.0 { (radius * fit.scale).max(2.0) } else { 5.0 * dpr };
                let r = r.min(1e5) as i32;
                let (u, v) = px(s[0], s[1]);
                if !(u.is_finite() && v.is_finite() && view.near(u, v, r as f64)) {
                    continue;
                }
                let at = (u.round() as i32, v.round() as i32);
                if *radius > 0.0 {
                    area.draw(&Circle::new(at, r, c.mix(alpha * 0.22).filled()))?;
                    area.draw(&Circle::new(at, r, c.mix(alpha).stroke_width(width(1.6))))?;
                } else {
                    area.draw(&Circle::new(at, r, c.mix(alpha).filled()))?;
                }
            }
        }
    }
    Ok(drawn)
}

/// A light grid of round spacing over what is shown: the xy plane seen from above,
/// or the ground (z = 0) in space.
fn grid<B: DrawingBackend>(
    area: &DrawingArea<B, Shift>,
    camera: &Camera,
    fit: &Fit,
    dpr: f64,
) -> Result<(), DrawingAreaErrorKind<B::ErrorType>> {
    let (w, h) = area.dim_in_pixel();
    // The world extent the viewport shows (on the screen plane), generously.
    let half = (w.max(h) as f64 / fit.scale).max(1e-9);
    let centre = ((w as f64 / 2.0 - fit.offset.0) / fit.scale, (fit.offset.1 - h as f64 / 2.0) / fit.scale);
    let step = nice_step(half / 6.0);
    let (cx, cy) = camera.ground_under(centre.0, centre.1);
    let span = if camera.projection == Projection::Space { 2.0 * half } else { half };
    let lines = (span / step).ceil().min(200.0) as i64;
    let style = RGBColor(228, 230, 235).stroke_width(((dpr).round() as u32).max(1));
    let to = |x: f64, y: f64| {
        let s = camera.project([x, y, 0.0]);
        fit.pixel(s[0], s[1])
    };
    let view = Viewport { width: w as f64, height: h as f64 };
    let (x0, y0) = ((cx / step).round() * step, (cy / step).round() * step);
    for i in -lines..=lines {
        let x = x0 + i as f64 * step;
        let y = y0 + i as f64 * step;
        for (a, b) in [(to(x, y0 - span), to(x, y0 + span)), (to(x0 - span, y), to(x0 + span, y))] {
            if let Some(segment) = view.clip(a, b) {
                area.draw(&PathElement::new(segment.to_vec(), style))?;
            }
        }
    }
    Ok(())
}

/// The drawing area in pixels, for clipping: plotters moves each point of a shape
/// that lies outside into the area, which bends lines that cross its edge.
#[derive(Clone, Copy, Debug)]
struct Viewport {
    width: f64,
    height: f64,
}

impl Viewport {
    fn pixel((x, y): (f64, f64)) -> (i32, i32) {
        (x.round() as i32, y.round() as i32)
    }

    /// Whether a circle of radius `r` at `(x, y)` touches the area.
    fn near(&self, x: f64, y: f64, r: f64) -> bool {
        x + r >= 0.0 && y + r >= 0.0 && x - r <= self.width && y - r <= self.height
    }

    /// The part of segment `ab` inside the area (Liang–Barsky); `None` outside.
    fn clip(&self, a: (f64, f64), b: (f64, f64)) -> Option<[(i32, i32); 2]> {
        if !(a.0.is_finite() && a.1.is_finite() && b.0.is_finite() && b.1.is_finite()) {
            return None;
        }
        let (dx, dy) = (b.0 - a.0, b.1 - a.1);
        let (mut t0, mut t1) = (0.0f64, 1.0f64);
        for (p, q) in [(-dx, a.0), (dx, self.width - a.0), (-dy, a.1), (dy, self.height - a.1)] {
            if p == 0.0 {
                if q < 0.0 {
                    return None;
                }
            } else {
                let r = q / p;
                if p < 0.0 {
                    t0 = t0.max(r);
                } else {
                    t1 = t1.min(r);
                }
            }
        }
        (t0 <= t1).then(|| [Self::pixel((a.0 + t0 * dx, a.1 + t0 * dy)), Self::pixel((a.0 + t1 * dx, a.1 + t1 * dy))])
    }

    /// A polyline's runs inside the area.
    fn clip_path(&self, points: &[(f64, f64)]) -> Vec<Vec<(i32, i32)>> {
        let mut runs: Vec<Vec<(i32, i32)>> = Vec::new();
        let mut open = false;
        for pair in points.windows(2) {
            match self.clip(pair[0], pair[1]) {
                Some([a, b]) => {
                    match runs.last_mut() {
                        Some(run) if open && run.last() == Some(&a) => run.push(b),
                        _ => runs.push(vec![a, b]),
                    }
                    // The run goes on only if the segment ended inside, unclipped.
                    open = Self::pixel(pair[1]) == b;
                }
                None => open = false,
            }
        }
        runs
    }

    /// A polygon cut to the area (Sutherland–Hodgman, one edge at a time).
    fn clip_polygon(&self, points: &[(f64, f64)]) -> Vec<(i32, i32)> {
        if points.iter().any(|p| !(p.0.is_finite() && p.1.is_finite())) {
            return Vec::new();
        }
        let (w, h) = (self.width, self.height);
        // How far inside edge `k` (left, right, top, bottom) a point is.
        let inside = |p: (f64, f64), k: usize| match k {
            0 => p.0,
            1 => w - p.0,
            2 => p.1,
            _ => h - p.1,
        };
        let mut poly: Vec<(f64, f64)> = points.to_vec();
        for edge in 0..4 {
            let d = |p: (f64, f64)| inside(p, edge);
            let mut out = Vec::with_capacity(poly.len() + 4);
            for k in 0..poly.len() {
                let (a, b) = (poly[k], poly[(k + 1) % poly.len()]);
                let (da, db) = (d(a), d(b));
                if da >= 0.0 {
                    out.push(a);
                }
                if (da >= 0.0) != (db >= 0.0) {
                    let t = da / (da - db);
                    out.push((a.0 + t * (b.0 - a.0), a.1 + t * (b.1 - a.1)));
                }
            }
            poly = out;
            if poly.is_empty() {
                break;
            }
        }
        poly.into_iter().map(Self::pixel).collect()
    }
}

/// 1, 2 or 5 times a power of ten, at least `x`.
pub fn nice_step(x: f64) -> f64 {
    if !(x.is_finite() && x > 0.0) {
        return 1.0;
    }
    let power = 10f64.powf(x.log10().floor());
    [1.0, 2.0, 5.0, 10.0].into_iter().map(|m| m * power).find(|&s| s >= x).unwrap_or(10.0 * power)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn segments_are_cut_at_the_edges_of_the_area() {
        let v = Viewport { width: 100.0, height: 50.0 };
        assert_eq!(v.clip((-50.0, 25.0), (150.0, 25.0)), Some([(0, 25), (100, 25)]));
        assert_eq!(v.clip((10.0, 10.0), (20.0, 20.0)), Some([(10, 10), (20, 20)]));
        assert_eq!(v.clip((-10.0, -10.0), (-20.0, 80.0)), None);
        assert_eq!(v.clip((f64::NAN, 0.0), (1.0, 1.0)), None);
        // A path leaving and coming back is two runs.
        let runs = v.clip_path(&[(10.0, 10.0), (200.0, 10.0), (200.0, 40.0), (10.0, 40.0)]);
        assert_eq!(runs, vec![vec![(10, 10), (100, 10)], vec![(100, 40), (10, 40)]]);
    }

    #[test]
    fn polygons_are_cut_to_the_area() {
        let v = Viewport { width: 100.0, height: 100.0 };
        let square = [(50.0, 50.0), (150.0, 50.0), (150.0, 150.0), (50.0, 150.0)];
        let mut cut = v.clip_polygon(&square);
        cut.sort();
        assert_eq!(cut, vec![(50, 50), (50, 100), (100, 50), (100, 100)]);
        assert!(v.clip_polygon(&[(200.0, 200.0), (300.0, 200.0), (250.0, 300.0)]).is_empty());
    }

    #[test]
    fn long_trails_are_thinned_to_their_shape() {
        let long: Vec<[f64; 3]> = (0..30_000).map(|i| [i as f64, 0.0, 0.0]).collect();
        let thinned = thin(&long, 600);
        assert!(thinned.len() <= 601, "{}", thinned.len());
        assert_eq!(thinned.first(), long.first());
        assert_eq!(thinned.last(), long.last(), "it ends where the point is");
        assert_eq!(thin(&long[..10], 600), long[..10].to_vec());
    }

    /// 28 runs of a scene at its limits (64 outlines of 256 points): the first run's
    /// outlines whole, the ghosts' sharing what is left of the budget (8 points at
    /// least); a scene that fits is drawn whole.
    #[test]
    fn ghosts_share_the_outlines_budget_and_the_first_run_is_whole() {
        let outline = Mark::Path { points: vec![[0.0; 3]; 256], closed: true, fill: false };
        let picture = Picture { items: (0..64).map(|e| (e, outline.clone())).collect(), hidden: Vec::new() };
        let series = crate::Series { method: nhlab::formulations::Method::Lagrange, set: 0, integrator: 0 };
        let ghosts: Vec<Ghost<'_>> = (0..28).map(|_| Ghost { series, picture: &picture, trails: &[] }).collect();
        let kept = ghost_outline_points(&ghosts);
        assert_eq!(kept, MIN_GHOST_POINTS, "(24,000 − 16,384) / (27 × 64) = 4, at least 8");
        let drawn = 64 * 256 + 27 * 64 * thin(&[[0.0; 3]; 256], kept).len();
        assert!(drawn < 2 * MARK_POINTS, "{drawn} points, against 458,752 whole");
        assert_eq!(ghost_outline_points(&ghosts[..2]), 119, "two runs: (24,000 − 16,384) / 64 each");
        assert_eq!(ghost_outline_points(&ghosts[..1]), usize::MAX, "one run fits");
    }

    /// The strokes' widths in an SVG of `ghosts`: (one device pixel, wider).
    fn widths(ghosts: &[Ghost<'_>]) -> (usize, usize) {
        let mut svg = String::new();
        {
            let area = SVGBackend::with_string(&mut svg, (400, 300)).into_drawing_area();
            let camera = Camera::new(Projection::Plane);
            let mut b = Bounds::default();
            b.include(-1.0, -1.0);
            b.include(1.0, 1.0);
            draw_scene(&area, &camera, &Fit::new(&b, 400.0, 300.0, 10.0), ghosts, 1.0).unwrap();
        }
        let lines = svg.lines().filter(|l| l.contains("<polyline"));
        let (hair, wide): (Vec<&str>, Vec<&str>) = lines.partition(|l| l.contains("stroke-width=\"1\""));
        (hair.len(), wide.len())
    }

    /// A crowded scene (28 runs of 64 outlines with trails) draws its trails and the
    /// ghosts' outlines one device pixel wide, the first run's outlines at their
    /// width; a scene of three runs keeps every width.
    #[test]
    fn a_crowded_scene_draws_its_ghosts_and_trails_as_hairlines() {
        let ring: Vec<[f64; 3]> = (0..16).map(|k| [(k as f64).cos() * 0.5, (k as f64).sin() * 0.5, 0.0]).collect();
        let outline = Mark::Path { points: ring.clone(), closed: false, fill: false };
        let picture = Picture { items: (0..64).map(|e| (e, outline.clone())).collect(), hidden: Vec::new() };
        let trails = vec![ring; 64];
        let series = crate::Series { method: nhlab::formulations::Method::Lagrange, set: 0, integrator: 0 };
        let ghosts: Vec<Ghost<'_>> = (0..28).map(|_| Ghost { series, picture: &picture, trails: &trails }).collect();
        assert!(crowded(&ghosts) && !crowded(&ghosts[..3]));
        let (hair, wide) = widths(&ghosts);
        // The grid is one pixel too; the first run's 64 outlines are the wide strokes.
        assert_eq!(wide, 64, "{hair} one-pixel strokes");
        assert!(hair >= 28 * 64 + 27 * 64, "{hair}");
        let few: Vec<Ghost<'_>> = (0..3).map(|_| Ghost { series, picture: &picture, trails: &trails[..2] }).collect();
        let (_, wide) = widths(&few);
        assert!(wide >= 3 * 64 + 3 * 2, "every outline and trail at its width: {wide}");
    }

    /// Marks of agreeing methods at depths a rounding apart: the solid one (method
    /// 0) is painted last whichever is nearer by those bits; marks truly apart keep
    /// the painter's order.
    #[test]
    fn the_solid_mark_is_painted_over_a_ghost_at_the_same_depth() {
        let mut marks = [(0.5 - 1e-16, 0), (0.5 + 1e-16, 1), (0.5, 2), (0.2, 0), (0.9, 1)];
        marks.sort_by(|a, b| painted_before(*a, *b));
        assert_eq!(marks.iter().map(|m| m.1).collect::<Vec<_>>(), [0, 2, 1, 0, 1]);
        assert_eq!(marks[3].0, 0.5 - 1e-16);
    }

    #[test]
    fn grid_steps_are_round() {
        assert_eq!(nice_step(0.3), 0.5);
        assert_eq!(nice_step(1.0), 1.0);
        assert_eq!(nice_step(1.2), 2.0);
        assert_eq!(nice_step(7.0), 10.0);
        assert_eq!(nice_step(0.0), 1.0);
    }
}
