//! A run's samples, kept sample after sample in a few flat buffers: recording one
//! allocates nothing (a `Vec` per sample and field did: with the state alone that
//! was 5 % of a small model's run, and a page holds 100,000 samples a run), and
//! reading one gives slices into the buffers ([`SampleRef`]).

use alloc::vec::Vec;

use super::Sample;

/// How many numbers a sample has of each kind: fixed for a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Widths {
    /// Coordinates (and velocities).
    pub n: usize,
    /// Multipliers `μ` (vakonomic runs; else 0).
    pub mu: usize,
    /// Constraints whose residuals are recorded (0 when they are not asked for).
    pub residuals: usize,
    /// Components of the E-vector (0 when it is not asked for or has no split).
    pub e: usize,
}

impl Widths {
    fn stride(self) -> usize {
        2 * self.n + self.mu + 2 * self.residuals + self.e
    }
}

/// A run's samples, in order.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Samples {
    widths: Widths,
    t: Vec<f64>,
    energy: Vec<f64>,
    compulsion: Vec<f64>,
    /// Per sample: `q`, `v`, `μ`, residuals, velocity residuals, E (NaN when undefined).
    values: Vec<f64>,
    e_defined: Vec<bool>,
}

/// One recorded sample, borrowed from its run's [`Samples`]: the fields of [`Sample`]
/// as slices.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SampleRef<'a> {
    /// Time.
    pub t: f64,
    /// Coordinates.
    pub q: &'a [f64],
    /// Velocities.
    pub v: &'a [f64],
    /// `T + V` (NaN when not asked for).
    pub energy: f64,
    /// `μ` (vakonomic only; empty otherwise).
    pub mu: &'a [f64],
    /// Every constraint's residual as written (empty when not asked for).
    pub residuals: &'a [f64],
    /// Every constraint's velocity-level residual (empty when not asked for).
    pub velocity_residuals: &'a [f64],
    /// Gauss's compulsion (NaN unless asked for).
    pub compulsion: f64,
    /// Hamel's E-vector; `None` when not asked for, without a split, or where it is
    /// singular.
    pub e_vector: Option<&'a [f64]>,
}

impl SampleRef<'_> {
    /// An owned copy.
    pub fn to_sample(&self) -> Sample {
        Sample {
            t: self.t,
            q: self.q.to_vec(),
            v: self.v.to_vec(),
            energy: self.energy,
            mu: self.mu.to_vec(),
            residuals: self.residuals.to_vec(),
            velocity_residuals: self.velocity_residuals.to_vec(),
            compulsion: self.compulsion,
            e_vector: self.e_vector.map(<[f64]>::to_vec),
        }
    }
}

impl<'a> From<&'a Sample> for SampleRef<'a> {
    fn from(s: &'a Sample) -> SampleRef<'a> {
        SampleRef {
            t: s.t,
            q: &s.q,
            v: &s.v,
            energy: s.energy,
            mu: &s.mu,
            residuals: &s.residuals,
            velocity_residuals: &s.velocity_residuals,
            compulsion: s.compulsion,
            e_vector: s.e_vector.as_deref(),
        }
    }
}

/// No samples, of no widths: what a run that could not start shows.
pub static NO_SAMPLES: Samples = Samples {
    widths: Widths { n: 0, mu: 0, residuals: 0, e: 0 },
    t: Vec::new(),
    energy: Vec::new(),
    compulsion: Vec::new(),
    values: Vec::new(),
    e_defined: Vec::new(),
};

/// NaNs to fill a row's columns with before they are measured.
const NAN_ROW: [f64; 32] = [f64::NAN; 32];

/// Samples a run has room for from the start. Grown from empty, each buffer was
/// reallocated about eight times in a short run (the sleigh to t = 100 records 262
/// samples): about 50 of the 580 instructions a sample with the state alone cost.
const FIRST_CAPACITY: usize = 256;

impl Samples {
    /// No samples yet, of the given widths, with room for [`FIRST_CAPACITY`].
    pub fn new(widths: Widths) -> Samples {
        Samples {
            widths,
            t: Vec::with_capacity(FIRST_CAPACITY),
            energy: Vec::with_capacity(FIRST_CAPACITY),
            compulsion: Vec::with_capacity(FIRST_CAPACITY),
            values: Vec::with_capacity(FIRST_CAPACITY * widths.stride()),
            e_defined: Vec::with_capacity(FIRST_CAPACITY),
        }
    }

    /// The widths of each sample.
    pub fn widths(&self) -> Widths {
        self.widths
    }

    /// How many.
    pub fn len(&self) -> usize {
        self.t.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.t.is_empty()
    }

    /// Every sample's time.
    pub fn times(&self) -> &[f64] {
        &self.t
    }

    /// Sample `k`, if there is one.
    pub fn get(&self, k: usize) -> Option<SampleRef<'_>> {
        (k < self.len()).then(|| self.at(k))
    }

    /// Sample `k`; panics past the end (as indexing a slice does).
    pub fn at(&self, k: usize) -> SampleRef<'_> {
        let w = self.widths;
        let row = &self.values[k * w.stride()..(k + 1) * w.stride()];
        let (q, row) = row.split_at(w.n);
        let (v, row) = row.split_at(w.n);
        let (mu, row) = row.split_at(w.mu);
        let (residuals, row) = row.split_at(w.residuals);
        let (velocity_residuals, e) = row.split_at(w.residuals);
        SampleRef {
            t: self.t[k],
            q,
            v,
            energy: self.energy[k],
            mu,
            residuals,
            velocity_residuals,
            compulsion: self.compulsion[k],
            e_vector: (w.e > 0 && self.e_defined[k]).then_some(e),
        }
    }

    /// The first sample.
    pub fn first(&self) -> Option<SampleRef<'_>> {
        self.get(0)
    }

    /// The last sample.
    pub fn last(&self) -> Option<SampleRef<'_>> {
        self.len().checked_sub(1).map(|k| self.at(k))
    }

    /// The samples in order.
    pub fn iter(&self) -> Iter<'_> {
        Iter { samples: self, range: 0..self.len() }
    }

    /// Owned copies of the samples from `from` on.
    pub fn to_vec_from(&self, from: usize) -> Vec<Sample> {
        self.iter().skip(from).map(|s| s.to_sample()).collect()
    }

    /// Owned copies of every sample.
    pub fn to_vec(&self) -> Vec<Sample> {
        self.to_vec_from(0)
    }

    /// Appends a sample whose slices have this store's widths (a missing E-vector
    /// is stored as NaN and read back as `None`).
    pub fn push(&mut self, s: SampleRef<'_>) {
        let start = self.values.len();
        for part in [s.q, s.v, s.mu] {
            self.values.extend_from_slice(part);
        }
        let recorded: Result<(), core::convert::Infallible> = self.finish_row(s.t, start, |row| {
            row.residuals.copy_from_slice(s.residuals);
            row.velocity_residuals.copy_from_slice(s.velocity_residuals);
            let e_defined = match s.e_vector {
                Some(e) if e.len() == row.e.len() => {
                    row.e.copy_from_slice(e);
                    true
                }
                _ => false,
            };
            Ok(Scalars { energy: s.energy, compulsion: s.compulsion, e_defined })
        });
        let Ok(()) = recorded;
    }

    /// Appends the sample at `t` of `state` (`q`, `v` and `μ` in a row, as an
    /// integrator holds them) whose other columns `fill` writes in place (NaN
    /// until written; this store's widths), returning its scalars. Nothing is
    /// appended when `fill` fails. (A run writes each sample's numbers here once:
    /// measured into buffers of its own and copied field by field, a sample of
    /// the sleigh's run with the state alone cost about 100 instructions more.)
    pub(crate) fn push_with<E>(
        &mut self,
        t: f64,
        state: &[f64],
        fill: impl FnOnce(Measures<'_>) -> Result<Scalars, E>,
    ) -> Result<(), E> {
        debug_assert_eq!(state.len(), 2 * self.widths.n + self.widths.mu, "a state of other widths");
        let start = self.values.len();
        self.values.extend_from_slice(state);
        self.finish_row(t, start, fill)
    }

    /// [`Samples::push_with`] once the state is in the row that starts at `start`.
    fn finish_row<E>(
        &mut self,
        t: f64,
        start: usize,
        fill: impl FnOnce(Measures<'_>) -> Result<Scalars, E>,
    ) -> Result<(), E> {
        let w = self.widths;
        // NaN until written, copied from a constant row: a `resize` filled it in a
        // loop of about 55 instructions a sample of four values.
        let mut missing = (start + w.stride()).saturating_sub(self.values.len());
        while missing > 0 {
            let k = missing.min(NAN_ROW.len());
            self.values.extend_from_slice(&NAN_ROW[..k]);
            missing -= k;
        }
        let measured = &mut self.values[start + 2 * w.n + w.mu..];
        let (residuals, measured) = measured.split_at_mut(w.residuals);
        let (velocity_residuals, e) = measured.split_at_mut(w.residuals);
        match fill(Measures { residuals, velocity_residuals, e }) {
            Ok(scalars) => {
                let e_defined = scalars.e_defined && w.e > 0;
                if !e_defined {
                    self.values[start + w.stride() - w.e..].fill(f64::NAN);
                }
                self.t.push(t);
                self.energy.push(scalars.energy);
                self.compulsion.push(scalars.compulsion);
                self.e_defined.push(e_defined);
                Ok(())
            }
            Err(error) => {
                self.values.truncate(start);
                Err(error)
            }
        }
    }
}

/// Where a sample's measured columns go ([`Samples::push_with`]): slices of the
/// store's widths, empty for a column not recorded.
pub(crate) struct Measures<'a> {
    pub residuals: &'a mut [f64],
    pub velocity_residuals: &'a mut [f64],
    /// The E-vector's place.
    pub e: &'a mut [f64],
}

/// A sample's numbers besides its time and row.
pub(crate) struct Scalars {
    /// `T + V` (NaN when not asked for).
    pub energy: f64,
    /// Gauss's compulsion (NaN unless asked for).
    pub compulsion: f64,
    /// Whether the row's E-vector was written (it is stored as NaN otherwise).
    pub e_defined: bool,
}

/// The samples of a [`Samples`] in order.
#[derive(Clone, Debug)]
pub struct Iter<'a> {
    samples: &'a Samples,
    range: core::ops::Range<usize>,
}

impl<'a> Iterator for Iter<'a> {
    type Item = SampleRef<'a>;
    fn next(&mut self) -> Option<SampleRef<'a>> {
        self.range.next().map(|k| self.samples.at(k))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.range.size_hint()
    }
    fn nth(&mut self, n: usize) -> Option<SampleRef<'a>> {
        self.range.nth(n).map(|k| self.samples.at(k))
    }
}

impl DoubleEndedIterator for Iter<'_> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.range.next_back().map(|k| self.samples.at(k))
    }
}

impl ExactSizeIterator for Iter<'_> {}

impl<'a> IntoIterator for &'a Samples {
    type Item = SampleRef<'a>;
    type IntoIter = Iter<'a>;
    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(t: f64, e: Option<Vec<f64>>) -> Sample {
        Sample {
            t,
            q: alloc::vec![t, 2.0 * t],
            v: alloc::vec![-t, 0.5],
            energy: 3.0 * t,
            mu: Vec::new(),
            residuals: alloc::vec![1e-12 * t],
            velocity_residuals: alloc::vec![2e-12 * t],
            compulsion: f64::NAN,
            e_vector: e,
        }
    }

    #[test]
    fn samples_read_back_as_they_were_recorded() {
        let written = [sample(0.0, Some(alloc::vec![1.0])), sample(0.5, None), sample(1.0, Some(alloc::vec![-2.0]))];
        let mut samples = Samples::new(Widths { n: 2, mu: 0, residuals: 1, e: 1 });
        for s in &written {
            samples.push(s.into());
        }
        assert_eq!(samples.len(), 3);
        assert_eq!(samples.times(), [0.0, 0.5, 1.0]);
        for (read, written) in samples.iter().zip(&written) {
            let owned = read.to_sample();
            assert_eq!(
                (owned.t, &owned.q, &owned.v, owned.energy),
                (written.t, &written.q, &written.v, written.energy)
            );
            assert_eq!(
                (&owned.residuals, &owned.velocity_residuals),
                (&written.residuals, &written.velocity_residuals)
            );
            assert_eq!(owned.e_vector, written.e_vector, "an undefined E-vector stays undefined");
            assert!(owned.compulsion.is_nan());
        }
        assert_eq!(samples.iter().rev().map(|s| s.t).collect::<Vec<_>>(), [1.0, 0.5, 0.0]);
        assert_eq!(samples.last().map(|s| s.t), Some(1.0));
        assert!(samples.get(3).is_none());
        assert_eq!(samples.to_vec_from(2).len(), 1);
        // Without the E-vector's column a defined one is not kept.
        let mut narrow = Samples::new(Widths { n: 2, mu: 0, residuals: 1, e: 0 });
        narrow.push((&written[0]).into());
        assert_eq!(narrow.at(0).e_vector, None);
        assert!(NO_SAMPLES.is_empty() && NO_SAMPLES.last().is_none());
    }

    /// A sample whose measuring fails is not recorded, and leaves no trace in the
    /// buffers: the next sample reads back whole. An E-vector written but not
    /// defined is stored as NaN.
    #[test]
    fn a_failed_sample_leaves_the_store_as_it_was() {
        let mut samples = Samples::new(Widths { n: 1, mu: 0, residuals: 1, e: 2 });
        let failed: Result<(), &str> = samples.push_with(0.0, &[1.0, 2.0], |row| {
            row.residuals[0] = 5.0;
            Err("not finite")
        });
        assert_eq!((failed, samples.len(), samples.values.len()), (Err("not finite"), 0, 0));
        let recorded: Result<(), &str> = samples.push_with(0.5, &[3.0, 4.0], |row| {
            row.residuals[0] = 1e-9;
            row.velocity_residuals[0] = 2e-9;
            row.e.copy_from_slice(&[7.0, 8.0]);
            Ok(Scalars { energy: 6.0, compulsion: f64::NAN, e_defined: false })
        });
        assert_eq!(recorded, Ok(()));
        let s = samples.at(0);
        assert_eq!(
            (s.t, s.q, s.v, s.energy, s.residuals, s.velocity_residuals),
            (0.5, &[3.0][..], &[4.0][..], 6.0, &[1e-9][..], &[2e-9][..])
        );
        assert_eq!(s.e_vector, None);
        assert!(samples.values[4..].iter().all(|x| x.is_nan()), "an undefined E-vector is stored as NaN");
    }
}
