//! A run's samples, kept row after row in chunks of flat buffers: recording one
//! allocates nothing but a new chunk every [`CHUNK_ROWS`] rows (a `Vec` per sample
//! and field would: a page holds many thousands of samples a run, and a small
//! model's step costs little more than the allocations), and reading one gives slices into its row
//! ([`SampleRef`]).

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
    /// The contact forces' columns ([`crate::mechanics::CONTACT_COLUMNS`] per
    /// contact; 0 when they are not asked for or there are no contacts).
    pub contacts: usize,
}

impl Widths {
    fn stride(self) -> usize {
        2 * self.n + self.mu + 2 * self.residuals + self.e + self.contacts
    }
}

/// A run's samples, in order.
#[derive(Clone, Debug, PartialEq)]
pub struct Samples {
    widths: Widths,
    /// Numbers per row: [`HEAD`], then the widths' (kept, not summed at each sample).
    stride: usize,
    len: usize,
    /// Samples recorded before and given up by [`Samples::release`] (written out by a
    /// caller that streams them): they still count towards the run's sample limit.
    released: usize,
    /// Rows of `t`, `T + V`, the compulsion, whether E is defined (1 or 0), `q`,
    /// `v`, `μ`, residuals, velocity residuals, E (NaN when undefined), the contact
    /// forces (NaN where not determined): every
    /// chunk but the last holds [`CHUNK_ROWS`] of them.
    chunks: Vec<Vec<f64>>,
}

impl Default for Samples {
    /// No samples, of no widths, and no room yet.
    fn default() -> Samples {
        NO_SAMPLES.clone()
    }
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
    /// Each contact's [`crate::mechanics::ContactForce::columns`], one after the
    /// other (empty when not asked for; NaN where not determined).
    pub contact_forces: &'a [f64],
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
            contact_forces: self.contact_forces.to_vec(),
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
            contact_forces: &s.contact_forces,
        }
    }
}

/// No samples, of no widths: what a run that could not start shows.
pub static NO_SAMPLES: Samples = Samples {
    widths: Widths { n: 0, mu: 0, residuals: 0, e: 0, contacts: 0 },
    stride: HEAD,
    len: 0,
    released: 0,
    chunks: Vec::new(),
};

/// NaNs to fill a row's columns with before they are measured.
const NAN_ROW: [f64; 32] = [f64::NAN; 32];

/// A row's numbers before its state: `t`, `T + V`, the compulsion, and 1 where the
/// row's E-vector is defined (else 0).
const HEAD: usize = 4;

/// Rows a chunk holds. Rows are stored in chunks of this many, each allocated
/// once at its full size, so that recording a sample never moves the ones before
/// it: grown as one buffer, a run would copy its samples at each doubling and
/// touch new memory (page faults) out of proportion to its work.
const CHUNK_ROWS: usize = 256;

impl Samples {
    /// No samples yet, of the given widths, with room for a chunk of them.
    pub fn new(widths: Widths) -> Samples {
        let stride = HEAD + widths.stride();
        Samples { widths, stride, len: 0, released: 0, chunks: alloc::vec![Vec::with_capacity(CHUNK_ROWS * stride)] }
    }

    /// Gives up the samples held (a caller streaming them has written them): the
    /// memory is freed, and [`recorded`](Self::recorded) still counts them.
    pub fn release(&mut self) {
        self.released += self.len;
        self.len = 0;
        self.chunks = alloc::vec![Vec::with_capacity(CHUNK_ROWS * self.stride)];
    }

    /// Samples recorded in all, the released ones too.
    pub fn recorded(&self) -> usize {
        self.released + self.len
    }

    /// The widths of each sample.
    pub fn widths(&self) -> Widths {
        self.widths
    }

    /// How many.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Every sample's time, in order.
    pub fn times(&self) -> impl ExactSizeIterator<Item = f64> + '_ {
        (0..self.len).map(|k| self.row(k)[0])
    }

    /// Sample `k`, if there is one.
    pub fn get(&self, k: usize) -> Option<SampleRef<'_>> {
        (k < self.len()).then(|| self.at(k))
    }

    /// Row `k` (panics past the end).
    fn row(&self, k: usize) -> &[f64] {
        let at = (k % CHUNK_ROWS) * self.stride;
        &self.chunks[k / CHUNK_ROWS][at..at + self.stride]
    }

    /// Sample `k`; panics past the end (as indexing a slice does).
    pub fn at(&self, k: usize) -> SampleRef<'_> {
        assert!(k < self.len, "sample {k} of {} samples", self.len);
        let w = self.widths;
        let (head, row) = self.row(k).split_at(HEAD);
        let &[t, energy, compulsion, e_defined] = head else { unreachable!("a head of {HEAD}") };
        let (q, row) = row.split_at(w.n);
        let (v, row) = row.split_at(w.n);
        let (mu, row) = row.split_at(w.mu);
        let (residuals, row) = row.split_at(w.residuals);
        let (velocity_residuals, row) = row.split_at(w.residuals);
        let (e, contact_forces) = row.split_at(w.e);
        SampleRef {
            t,
            q,
            v,
            energy,
            mu,
            residuals,
            velocity_residuals,
            compulsion,
            e_vector: (w.e > 0 && e_defined == 1.0).then_some(e),
            contact_forces,
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
        let recorded: Result<(), core::convert::Infallible> = self.push_parts(s.t, &[s.q, s.v, s.mu], |mut row| {
            let (residuals, velocity_residuals, row_e, contacts) = row.split();
            residuals.copy_from_slice(s.residuals);
            if contacts.len() == s.contact_forces.len() {
                contacts.copy_from_slice(s.contact_forces);
            }
            velocity_residuals.copy_from_slice(s.velocity_residuals);
            let e_defined = match s.e_vector {
                Some(e) if e.len() == row_e.len() => {
                    row_e.copy_from_slice(e);
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
    /// measured into buffers of its own and copied field by field, a small model's
    /// sample would cost more than its measuring.)
    pub(crate) fn push_with<E>(
        &mut self,
        t: f64,
        state: &[f64],
        fill: impl FnOnce(Measures<'_>) -> Result<Scalars, E>,
    ) -> Result<(), E> {
        debug_assert_eq!(state.len(), 2 * self.widths.n + self.widths.mu, "a state of other widths");
        self.push_parts(t, &[state], fill)
    }

    /// Appends the sample at `t` of `state` with nothing measured: what a run with
    /// the state alone records, without [`Samples::push_with`]'s measuring closure.
    pub(crate) fn push_state(&mut self, t: f64, state: &[f64]) {
        let recorded: Result<(), core::convert::Infallible> = self.push_parts(t, &[state], |_| Ok(Scalars::NONE));
        let Ok(()) = recorded;
    }

    /// [`Samples::push_with`] with the state in `parts`.
    fn push_parts<E>(
        &mut self,
        t: f64,
        parts: &[&[f64]],
        fill: impl FnOnce(Measures<'_>) -> Result<Scalars, E>,
    ) -> Result<(), E> {
        let (w, stride) = (self.widths, self.stride);
        // Full by its rows, not its capacity: a clone's chunks have only the
        // capacity they fill.
        if self.chunks.last().is_none_or(|c| c.len() >= CHUNK_ROWS * stride) {
            self.chunks.push(Vec::with_capacity(CHUNK_ROWS * stride));
        }
        let Some(chunk) = self.chunks.last_mut() else { unreachable!("a chunk was just made") };
        let start = chunk.len();
        chunk.extend_from_slice(&[t, f64::NAN, f64::NAN, 0.0]);
        for part in parts {
            chunk.extend_from_slice(part);
        }
        // NaN until written, copied from a constant row (a `resize` fills it one
        // value at a time).
        let mut missing = (start + stride).saturating_sub(chunk.len());
        while missing > 0 {
            let k = missing.min(NAN_ROW.len());
            chunk.extend_from_slice(&NAN_ROW[..k]);
            missing -= k;
        }
        let row = &mut chunk[start..start + stride];
        let (head, columns) = row.split_at_mut(HEAD + 2 * w.n + w.mu);
        match fill(Measures { columns, residuals: w.residuals, contacts: w.contacts }) {
            Ok(scalars) => {
                let e_defined = scalars.e_defined && w.e > 0;
                head[1..HEAD].copy_from_slice(&[scalars.energy, scalars.compulsion, if e_defined { 1.0 } else { 0.0 }]);
                if !e_defined {
                    row[stride - w.contacts - w.e..stride - w.contacts].fill(f64::NAN);
                }
                self.len += 1;
                Ok(())
            }
            Err(error) => {
                chunk.truncate(start);
                Err(error)
            }
        }
    }
}

/// Where a sample's measured columns go ([`Samples::push_with`]): the row's
/// columns after the state, in one slice as the row holds them (so that machine
/// code can write them in place): the residuals and the velocity residuals
/// (`residuals` each), then the E-vector's place (empty when it is not
/// recorded), then the contact forces' (the last `contacts`).
pub(crate) struct Measures<'a> {
    pub columns: &'a mut [f64],
    /// How many constraints' residuals are recorded (0 when they are not).
    pub residuals: usize,
    /// How many contact-force columns are recorded (0 when they are not).
    pub contacts: usize,
}

impl Measures<'_> {
    /// The residuals, the velocity residuals, the E-vector's place and the
    /// contact forces'.
    pub fn split(&mut self) -> (&mut [f64], &mut [f64], &mut [f64], &mut [f64]) {
        let (residuals, rest) = self.columns.split_at_mut(self.residuals);
        let (velocity_residuals, rest) = rest.split_at_mut(self.residuals);
        let (e, contacts) = rest.split_at_mut(rest.len() - self.contacts);
        (residuals, velocity_residuals, e, contacts)
    }

    /// The columns before the contact forces', and the contact forces'.
    pub fn without_contacts(&mut self) -> (&mut [f64], &mut [f64]) {
        let at = self.columns.len() - self.contacts;
        self.columns.split_at_mut(at)
    }
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

impl Scalars {
    /// Nothing measured.
    pub const NONE: Scalars = Scalars { energy: f64::NAN, compulsion: f64::NAN, e_defined: false };
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
            contact_forces: Vec::new(),
        }
    }

    #[test]
    fn samples_read_back_as_they_were_recorded() {
        let written = [sample(0.0, Some(alloc::vec![1.0])), sample(0.5, None), sample(1.0, Some(alloc::vec![-2.0]))];
        let mut samples = Samples::new(Widths { n: 2, mu: 0, residuals: 1, e: 1, contacts: 0 });
        for s in &written {
            samples.push(s.into());
        }
        assert_eq!(samples.len(), 3);
        assert_eq!(samples.times().collect::<Vec<_>>(), [0.0, 0.5, 1.0]);
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
        let mut narrow = Samples::new(Widths { n: 2, mu: 0, residuals: 1, e: 0, contacts: 0 });
        narrow.push((&written[0]).into());
        assert_eq!(narrow.at(0).e_vector, None);
        assert!(NO_SAMPLES.is_empty() && NO_SAMPLES.last().is_none());
    }

    /// Rows past a chunk read back as written, and a sample that fails as a chunk
    /// fills leaves no trace; every chunk but the last is full.
    #[test]
    fn samples_across_chunks_read_back_as_written() {
        let mut samples = Samples::new(Widths { n: 1, mu: 1, residuals: 0, e: 0, contacts: 0 });
        let count = 2 * CHUNK_ROWS + 7;
        for k in 0..count {
            let x = k as f64;
            if k == CHUNK_ROWS {
                let failed: Result<(), &str> = samples.push_with(-1.0, &[1.0, 2.0, 3.0], |_| Err("not finite"));
                assert_eq!((failed, samples.len()), (Err("not finite"), CHUNK_ROWS));
            }
            let scalars = Scalars { energy: 3.0 * x, compulsion: x * x, e_defined: true };
            let recorded: Result<(), &str> = samples.push_with(x, &[x, -x, 0.5 * x], |_| Ok(scalars));
            assert_eq!(recorded, Ok(()));
        }
        assert_eq!((samples.len(), samples.chunks.len()), (count, 3));
        assert!(samples.chunks[..2].iter().all(|c| c.len() == CHUNK_ROWS * samples.stride));
        assert_eq!(samples.times().collect::<Vec<_>>(), (0..count).map(|k| k as f64).collect::<Vec<_>>());
        for (k, s) in samples.iter().enumerate() {
            let x = k as f64;
            assert_eq!((s.t, s.q, s.v, s.mu), (x, &[x][..], &[-x][..], &[0.5 * x][..]), "sample {k}");
            assert_eq!((s.energy, s.compulsion, s.e_vector), (3.0 * x, x * x, None), "no E-vector's column");
        }
        assert_eq!(samples.last().map(|s| s.t), Some((count - 1) as f64));
        // A copy taken inside a chunk (whose buffers have only the room they
        // fill) goes on filling that chunk.
        let mut copy = samples.clone();
        let recorded: Result<(), &str> = copy.push_with(-5.0, &[1.0, 2.0, 3.0], |_| Ok(Scalars::NONE));
        assert_eq!((recorded, copy.len(), copy.chunks.len()), (Ok(()), count + 1, 3));
        assert_eq!((copy.at(count).t, copy.at(count).mu), (-5.0, &[3.0][..]));
        assert!(copy.iter().take(count).zip(samples.iter()).all(|(a, b)| a.t == b.t && a.q == b.q));
    }

    /// A sample whose measuring fails is not recorded, and leaves no trace in the
    /// buffers: the next sample reads back whole. An E-vector written but not
    /// defined is stored as NaN.
    #[test]
    fn a_failed_sample_leaves_the_store_as_it_was() {
        let mut samples = Samples::new(Widths { n: 1, mu: 0, residuals: 1, e: 2, contacts: 0 });
        let failed: Result<(), &str> = samples.push_with(0.0, &[1.0, 2.0], |mut row| {
            row.split().0[0] = 5.0;
            Err("not finite")
        });
        assert_eq!((failed, samples.len(), samples.chunks[0].len()), (Err("not finite"), 0, 0));
        let recorded: Result<(), &str> = samples.push_with(0.5, &[3.0, 4.0], |mut row| {
            let (residuals, velocity_residuals, e, _) = row.split();
            residuals[0] = 1e-9;
            velocity_residuals[0] = 2e-9;
            e.copy_from_slice(&[7.0, 8.0]);
            Ok(Scalars { energy: 6.0, compulsion: f64::NAN, e_defined: false })
        });
        assert_eq!(recorded, Ok(()));
        let s = samples.at(0);
        assert_eq!(
            (s.t, s.q, s.v, s.energy, s.residuals, s.velocity_residuals),
            (0.5, &[3.0][..], &[4.0][..], 6.0, &[1e-9][..], &[2e-9][..])
        );
        assert_eq!(s.e_vector, None);
        assert!(samples.row(0)[HEAD + 4..].iter().all(|x| x.is_nan()), "an undefined E-vector is stored as NaN");
    }
}
