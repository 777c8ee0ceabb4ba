//! Stability maps: the linearisation at every point of a grid of up to
//! [`MAX_AXES`] swept quantities (parameters or held speeds), each point's largest
//! real part and eigenvalues, and the boundaries between neighbouring points of
//! opposite stability, refined by bisection along the axis they cross as a 1-D
//! sweep refines its own ([`refine`]).
//!
//! The core computes points and boundaries one at a time; a front end spreads them
//! over threads or machines (`nhlab_cli::map`), since every point and every boundary
//! is computed from the grid alone and comes out the same wherever it is computed.

use alloc::string::String;
use alloc::vec::Vec;

use nalgebra::Complex;

use super::{is_stable, refine, Linearization, BOUNDARY_TOLERANCE};

/// Most axes of a map.
pub const MAX_AXES: usize = 3;

/// Most points of a map (a 500 × 500 grid): a 200 × 200 bicycle map written as JSON
/// holds about 230 MB at its peak, so this bounds the command line near 1.5 GB.
pub const MAX_POINTS: usize = 250_000;

/// Boundaries refined by bisection (each ~45 linearisations) per value of the first
/// axis: at least [`MIN_REFINED_PER_ROW`], and [`MAX_REFINED_BOUNDARIES`] over the
/// whole map when its first axis is shorter than their ratio. Past it a boundary is
/// given to half a step. Counted per value of the first axis (a row), so that a row
/// decides its own, wherever it is computed (`rows` of a chunk).
pub const MAX_REFINED_BOUNDARIES: usize = 4_000;

/// See [`MAX_REFINED_BOUNDARIES`].
pub const MIN_REFINED_PER_ROW: usize = 16;

/// An axis of a map: the swept quantity's name and its values, increasing.
#[derive(Clone, Debug, PartialEq)]
pub struct MapAxis {
    /// A parameter or a velocity `x'`.
    pub name: String,
    /// Its values.
    pub values: Vec<f64>,
}

/// What a map keeps of a point's linearisation.
#[derive(Clone, Debug, PartialEq)]
pub struct MapPoint {
    /// The largest real part of the eigenvalues.
    pub max_real: f64,
    /// Whether every real part is at most zero within the neutral band
    /// ([`is_stable`]).
    pub stable: bool,
    /// The eigenvalues, by real part (then imaginary part).
    pub eigenvalues: Vec<Complex<f64>>,
    /// The speeds held at their reference values there (the same at every point of
    /// a map; [`StabilityMap::held_everywhere`]).
    pub held_speeds: Vec<String>,
}

impl MapPoint {
    /// The point of `lin`.
    pub fn of(lin: &Linearization) -> MapPoint {
        MapPoint {
            max_real: lin.eigenvalues.iter().map(|e| e.re).fold(f64::NEG_INFINITY, f64::max),
            stable: is_stable(lin),
            eigenvalues: lin.eigenvalues.clone(),
            held_speeds: lin.held_speeds.clone(),
        }
    }
}

/// Where the motion changes stability between two neighbouring points.
#[derive(Clone, Debug, PartialEq)]
pub struct MapBoundary {
    /// The axis it crosses.
    pub axis: usize,
    /// The point before it along that axis (a flat index, see [`Grid::index`]).
    pub from: usize,
    /// The crossed axis' value there (to [`BOUNDARY_TOLERANCE`] of the axis' range,
    /// unless `refined` is false: then the midpoint).
    pub value: f64,
    /// Stable on the far side (larger values), else unstable.
    pub becomes_stable: bool,
    /// Found by bisection; false past its row's share of [`MAX_REFINED_BOUNDARIES`].
    pub refined: bool,
}

/// The grid of a map: its points in order, the last axis fastest.
#[derive(Clone, Debug, PartialEq)]
pub struct Grid {
    /// The axes, in order.
    pub axes: Vec<MapAxis>,
}

impl Grid {
    /// The grid of `axes` (1 to [`MAX_AXES`], each with a value, at most
    /// [`MAX_POINTS`] points in all), or what is wrong.
    pub fn new(axes: Vec<MapAxis>) -> Result<Grid, String> {
        if axes.is_empty() || axes.len() > MAX_AXES {
            return Err(alloc::format!("a map has 1 to {MAX_AXES} axes, not {}", axes.len()));
        }
        let mut points = 1usize;
        for a in &axes {
            if a.values.is_empty() {
                return Err(alloc::format!("`{}` has no values", a.name));
            }
            points = points.saturating_mul(a.values.len());
        }
        if points > MAX_POINTS {
            return Err(alloc::format!("{points} points; a map has at most {MAX_POINTS}"));
        }
        Ok(Grid { axes })
    }

    /// How many points.
    pub fn len(&self) -> usize {
        self.axes.iter().map(|a| a.values.len()).product()
    }

    /// Whether it has no point (never, for a grid made by [`Grid::new`]).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The points along each axis.
    pub fn shape(&self) -> Vec<usize> {
        self.axes.iter().map(|a| a.values.len()).collect()
    }

    /// Point `flat`'s index along each axis.
    pub fn indices(&self, flat: usize) -> Vec<usize> {
        let mut rest = flat;
        let mut out = alloc::vec![0; self.axes.len()];
        for (k, a) in self.axes.iter().enumerate().rev() {
            out[k] = rest % a.values.len();
            rest /= a.values.len();
        }
        out
    }

    /// The flat index of the point at `indices`.
    pub fn index(&self, indices: &[usize]) -> usize {
        self.axes.iter().zip(indices).fold(0, |flat, (a, &i)| flat * a.values.len() + i)
    }

    /// Point `flat`'s value on each axis.
    pub fn point(&self, flat: usize) -> Vec<f64> {
        self.indices(flat).iter().zip(&self.axes).map(|(&i, a)| a.values[i]).collect()
    }

    /// Points per value of the first axis (a row).
    pub fn row_len(&self) -> usize {
        self.axes[1..].iter().map(|a| a.values.len()).product()
    }

    /// The boundaries a row may refine ([`MAX_REFINED_BOUNDARIES`]).
    pub fn refined_per_row(&self) -> usize {
        (MAX_REFINED_BOUNDARIES / self.axes[0].values.len()).max(MIN_REFINED_PER_ROW)
    }

    /// The pairs of neighbouring points of opposite stability whose first point is in
    /// `rows` (values of the first axis): (axis, the point before, the point after,
    /// whether it is refined), in the order of the points, then of the axes.
    /// `stable(flat)` says whether a point is stable; it is asked of the rows and of
    /// the row after them.
    pub fn crossings(
        &self,
        rows: core::ops::Range<usize>,
        stable: impl Fn(usize) -> bool,
    ) -> Vec<((usize, usize, usize), bool)> {
        let mut out = Vec::new();
        let row_len = self.row_len();
        for row in rows {
            let mut in_row = 0;
            for flat in row * row_len..(row + 1) * row_len {
                let at = self.indices(flat);
                for (axis, a) in self.axes.iter().enumerate() {
                    if at[axis] + 1 < a.values.len() {
                        let mut next = at.clone();
                        next[axis] += 1;
                        let other = self.index(&next);
                        if stable(flat) != stable(other) {
                            out.push(((axis, flat, other), in_row < self.refined_per_row()));
                            in_row += 1;
                        }
                    }
                }
            }
        }
        out
    }

    /// The boundary crossing axis `axis` between points `from` and `to` (neighbours
    /// of opposite stability), by bisection with `at` (the linearisation at a point's
    /// values); the midpoint when not `refined`.
    pub fn boundary<E>(
        &self,
        (axis, from, to): (usize, usize, usize),
        refined: bool,
        at: &mut impl FnMut(&[f64]) -> Result<Linearization, E>,
    ) -> Result<MapBoundary, E> {
        let base = self.point(from);
        let (lo, hi) = (base[axis], self.point(to)[axis]);
        let mut along = |x: f64| {
            let mut p = base.clone();
            p[axis] = x;
            at(&p)
        };
        let (below, above) = (along(lo)?, along(hi)?);
        let value = if refined {
            let values = &self.axes[axis].values;
            let range = (values[values.len() - 1] - values[0]).abs();
            refine((lo, &below), (hi, &above), BOUNDARY_TOLERANCE * range.max(1e-300), &mut along)?
        } else {
            0.5 * (lo + hi)
        };
        Ok(MapBoundary { axis, from, value, becomes_stable: is_stable(&above), refined })
    }
}

/// A stability map, or a chunk of one: the grid, each point of its rows, and the
/// boundaries from them.
#[derive(Clone, Debug, PartialEq)]
pub struct StabilityMap {
    /// The grid.
    pub grid: Grid,
    /// The values of the first axis computed (all of them unless a chunk).
    pub rows: core::ops::Range<usize>,
    /// Each point of those rows, in the grid's order.
    pub points: Vec<MapPoint>,
    /// The boundaries whose first point is in those rows, in the order of
    /// [`Grid::crossings`].
    pub boundaries: Vec<MapBoundary>,
}

impl StabilityMap {
    /// The map of `grid`, one point after another with `at` (the linearisation at a
    /// point's values): the reference a parallel front end must reproduce.
    pub fn compute<E>(grid: Grid, mut at: impl FnMut(&[f64]) -> Result<Linearization, E>) -> Result<StabilityMap, E> {
        let points =
            (0..grid.len()).map(|k| at(&grid.point(k)).map(|l| MapPoint::of(&l))).collect::<Result<Vec<_>, E>>()?;
        let rows = 0..grid.axes[0].values.len();
        let crossings = grid.crossings(rows.clone(), |k| points[k].stable);
        let boundaries =
            crossings.iter().map(|&(c, refined)| grid.boundary(c, refined, &mut at)).collect::<Result<Vec<_>, E>>()?;
        Ok(StabilityMap { grid, rows, points, boundaries })
    }
    /// The speeds held at every point, when the points differ in what they hold (a
    /// speed nothing couples to at some values only): a map computed again holding
    /// just these has one state at every point. `None` when every point holds the
    /// same.
    pub fn held_everywhere(&self) -> Option<Vec<String>> {
        let first = &self.points.first()?.held_speeds;
        if self.points.iter().all(|p| &p.held_speeds == first) {
            return None;
        }
        Some(first.iter().filter(|s| self.points.iter().all(|p| p.held_speeds.contains(s))).cloned().collect())
    }
}
