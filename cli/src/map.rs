//! Stability maps on every core: the points of a [`Grid`] and then its boundaries,
//! handed out to threads in chunks (crate::parallel), each thread with its own copy of
//! the model, its numeric form, the derivatives and the study. Every point and boundary is computed
//! from the grid alone, so the map is the same, bit for bit, on any number of
//! threads as [`StabilityMap::compute`] gives on one.

use std::ops::Range;

use nhlab::mechanics::{Model, NumericModel};
use nhlab::scenario::SourceMap;
use nhlab::stability::{Derivatives, Grid, Linearization, MapPoint, StabilityMap, Study, StudyError, Swept};

/// Points (or boundaries) a thread takes at a time: large enough that handing out
/// costs nothing against ~60 µs a linearisation, small enough to balance the threads.
const CHUNK: usize = 16;

/// What every thread starts from: the study and the model it linearises.
pub struct MapInputs<'a> {
    /// The study: method, reference state, ignorable coordinates.
    pub study: &'a Study,
    /// The model.
    pub model: &'a Model,
    /// Its numeric form.
    pub numeric: &'a NumericModel,
    /// The derivatives of its equations.
    pub derivatives: &'a Derivatives,
    /// Where its text came from (for the reference state's messages).
    pub map: &'a SourceMap,
    /// Each axis' quantity (name, what it is), in the grid's order.
    pub swept: &'a [(String, Swept)],
}

/// One thread's copies.
struct Worker<'a> {
    study: Study,
    model: Model,
    numeric: NumericModel,
    derivatives: Derivatives,
    inputs: &'a MapInputs<'a>,
}

impl Worker<'_> {
    fn at(&mut self, values: &[f64]) -> Result<Linearization, StudyError> {
        let point: Vec<(&str, &Swept, f64)> =
            self.inputs.swept.iter().zip(values).map(|((name, swept), &x)| (name.as_str(), swept, x)).collect();
        let saved = self.numeric.parameters.clone();
        let lin =
            self.study.at_point(&mut self.model, &mut self.numeric, &mut self.derivatives, self.inputs.map, &point);
        self.numeric.parameters = saved;
        // Said at each of the point's values, as a sweep says it at its value.
        lin.map_err(|e| {
            let why = point.iter().rev().fold(e.message(""), |why, (name, _, x)| {
                nhlab::message::stability::at_value(name, *x, nhlab::message::Part(why))
            });
            StudyError::unplaced(why)
        })
    }
}

/// The map of `grid` on `threads` threads (at least one): the points of `rows`
/// (values of the first axis; all of them for the whole map) and the boundaries from
/// them. Chunks of rows put together are the whole map, bit for bit: a boundary's
/// bisection and whether it is refined depend on its row alone.
pub fn compute(
    inputs: &MapInputs<'_>,
    grid: Grid,
    threads: usize,
    rows: Range<usize>,
) -> Result<StabilityMap, StudyError> {
    let row_len = grid.row_len();
    let base = rows.start * row_len;
    // The row after the chunk too, for the boundaries into it.
    let end = (rows.end + 1).min(grid.axes[0].values.len()) * row_len;
    let mut points = spread(inputs, end - base, threads, |w, k| w.at(&grid.point(base + k)).map(|l| MapPoint::of(&l)))?;
    let crossings = grid.crossings(rows.clone(), |k| points[k - base].stable);
    let boundaries = spread(inputs, crossings.len(), threads, |w, k| {
        let (crossing, refined) = crossings[k];
        grid.boundary(crossing, refined, &mut |p: &[f64]| w.at(p))
    })?;
    points.truncate(rows.len() * row_len);
    Ok(StabilityMap { grid, rows, points, boundaries })
}

/// `work(worker, k)` for every `k < count` on `threads` threads, in order of `k`;
/// the first error by `k`, if any.
fn spread<T: Send>(
    inputs: &MapInputs<'_>,
    count: usize,
    threads: usize,
    work: impl Fn(&mut Worker<'_>, usize) -> Result<T, StudyError> + Sync,
) -> Result<Vec<T>, StudyError> {
    let worker = || Worker {
        study: inputs.study.clone(),
        model: inputs.model.clone(),
        numeric: inputs.numeric.clone(),
        derivatives: inputs.derivatives.clone(),
        inputs,
    };
    crate::parallel::spread(count, threads, CHUNK, worker, work).into_iter().collect()
}
