//! The row format between the worker and the page, defined once. The runner writes
//! each recorded sample (and each display point of the dense output) as one flat row
//! of numbers ([`RowFormat::push`]) and sends new rows in one typed array
//! (structured cloning of one buffer, not of thousands of objects); the page turns
//! them into [`Columns`] once, as they arrive, so that a frame reads flat arrays.

/// The numbers of a row: `t`, `is_sample` (1 or 0), the largest residual, the largest
/// velocity residual, the energy, |E|, then the view's outputs, E's components, and
/// each contact's `N`, needed friction and `μ` (NaN where not given).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RowFormat {
    /// The view's outputs per row (its plotted values, then three numbers per
    /// trailed scene element).
    pub outputs: usize,
    /// E's components per row (0 without a Hamel split).
    pub e_components: usize,
    /// Contacts (three numbers each).
    pub contacts: usize,
}

/// Numbers per contact in a row: `N`, `|F_t|/N`, `μ`.
const PER_CONTACT: usize = 3;

/// The fixed scalars at the front of a row, before the view's outputs, in this
/// order: `t`, whether it is a sample (1) or a display point (0), the residual, the
/// velocity-level residual, `T + V` and |E| ([`RowFormat::push`] writes them,
/// [`Columns::extend_from_rows`] reads them back).
const FIXED: usize = 6;

impl RowFormat {
    /// Numbers per row.
    pub fn width(self) -> usize {
        FIXED + self.outputs + self.e_components + PER_CONTACT * self.contacts
    }

    /// Appends the row of sample `s` with the view's outputs `view` there: the
    /// largest residual as written over the constraints (`|φ|` of a holonomic one,
    /// `|f|` of the others), the largest velocity-level residual over the holonomic
    /// ones (`holonomic` says which; 0 without any), `T + V`, and E with its norm
    /// (NaN where the split is singular or absent). `is_sample` is false for a
    /// display point of the dense output, whose residual and energy carry the
    /// interpolant's error.
    pub fn push<'a>(
        self,
        out: &mut Vec<f64>,
        s: impl Into<nhlab::simulation::SampleRef<'a>>,
        view: &[f64],
        is_sample: bool,
        holonomic: &[bool],
    ) {
        let s = s.into();
        let largest = |xs: &mut dyn Iterator<Item = f64>| xs.fold(0.0, |m: f64, r| m.max(r.abs()));
        let residual = largest(&mut s.residuals.iter().copied());
        let velocity = largest(&mut s.velocity_residuals.iter().zip(holonomic).filter(|(_, &h)| h).map(|(&r, _)| r));
        let e_norm = s.e_vector.map_or(f64::NAN, |e| e.iter().map(|x| x * x).sum::<f64>().sqrt());
        out.extend_from_slice(&[s.t, if is_sample { 1.0 } else { 0.0 }, residual, velocity, s.energy, e_norm]);
        out.extend((0..self.outputs).map(|k| view.get(k).copied().unwrap_or(f64::NAN)));
        match s.e_vector {
            Some(e) => out.extend((0..self.e_components).map(|k| e.get(k).copied().unwrap_or(f64::NAN))),
            None => out.extend(core::iter::repeat_n(f64::NAN, self.e_components)),
        }
        // A run without them (vakonomic) has none: NaN.
        let per = nhlab::mechanics::CONTACT_COLUMNS;
        for k in 0..self.contacts {
            match s.contact_forces.get(k * per..(k + 1) * per) {
                Some(c) => out.extend_from_slice(&[c[0], c[4], c[5]]),
                None => out.extend_from_slice(&[f64::NAN; PER_CONTACT]),
            }
        }
    }
}

/// The scalars the plots read, one column each, one entry per row.
#[derive(Clone, Debug, PartialEq)]
pub struct Columns {
    format: RowFormat,
    /// Time.
    pub t: Vec<f64>,
    /// The view outputs, one column per output.
    pub view: Vec<Vec<f64>>,
    /// The largest residual as written over the constraints.
    pub residual: Vec<f64>,
    /// The largest velocity-level residual over the holonomic constraints.
    pub velocity_residual: Vec<f64>,
    /// `T + V`.
    pub energy: Vec<f64>,
    /// |E| (NaN where the split is singular or absent).
    pub e_norm: Vec<f64>,
    /// E's components, one column each.
    pub e: Vec<Vec<f64>>,
    /// Whether the point is a recorded sample (not a display point).
    pub is_sample: Vec<bool>,
    /// Each contact's `N`, needed friction and `μ`, one column each.
    pub contacts: Vec<[Vec<f64>; 3]>,
}

impl Columns {
    /// Empty columns for rows of `format`.
    pub fn empty(format: RowFormat) -> Columns {
        Columns {
            format,
            t: Vec::new(),
            view: vec![Vec::new(); format.outputs],
            residual: Vec::new(),
            velocity_residual: Vec::new(),
            energy: Vec::new(),
            e_norm: Vec::new(),
            e: vec![Vec::new(); format.e_components],
            is_sample: Vec::new(),
            contacts: vec![Default::default(); format.contacts],
        }
    }

    /// The columns of flat `rows`.
    pub fn from_rows(format: RowFormat, rows: &[f64]) -> Result<Columns, String> {
        let mut c = Columns::empty(format);
        c.extend_from_rows(rows)?;
        Ok(c)
    }

    /// The number of rows.
    pub fn len(&self) -> usize {
        self.t.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.t.is_empty()
    }

    /// Keeps the first `len` rows.
    pub fn truncate(&mut self, len: usize) {
        for c in [&mut self.t, &mut self.residual, &mut self.velocity_residual, &mut self.energy, &mut self.e_norm] {
            c.truncate(len);
        }
        self.is_sample.truncate(len);
        self.view.iter_mut().chain(self.e.iter_mut()).for_each(|c| c.truncate(len));
        self.contacts.iter_mut().flat_map(|c| c.iter_mut()).for_each(|c| c.truncate(len));
    }

    /// Whether contact `k` fails at row `i`: it lifts off (`N ≤ 0`) or needs more
    /// friction than its `μ` (NaN, not given, fails nothing).
    pub fn contact_fails(&self, k: usize, i: usize) -> bool {
        let [normal, needed, mu] = &self.contacts[k];
        normal[i] <= 0.0 || (normal[i] > 0.0 && needed[i] > mu[i])
    }

    /// The time spans where some contact fails, from the recorded samples up to
    /// `now` (merged; each from the first failing sample to the last).
    pub fn failing_spans(&self, now: f64) -> Vec<(f64, f64)> {
        let mut spans: Vec<(f64, f64)> = Vec::new();
        let mut open: Option<(f64, f64)> = None;
        for i in 0..self.len() {
            if !self.is_sample[i] || self.t[i] > now {
                continue;
            }
            let fails = (0..self.contacts.len()).any(|k| self.contact_fails(k, i));
            match (&mut open, fails) {
                (Some(span), true) => span.1 = self.t[i],
                (None, true) => open = Some((self.t[i], self.t[i])),
                (Some(_), false) => spans.extend(open.take()),
                (None, false) => {}
            }
        }
        spans.extend(open);
        spans
    }

    /// Appends flat rows as [`RowFormat::push`] writes them.
    pub fn extend_from_rows(&mut self, rows: &[f64]) -> Result<(), String> {
        let width = self.format.width();
        if !rows.len().is_multiple_of(width) {
            return Err(format!("{} numbers are not whole rows of {width}", rows.len()));
        }
        for row in rows.chunks_exact(width) {
            // A row is never shorter than its fixed scalars (`width` counts them).
            let Some((&[t, is_sample, residual, velocity_residual, energy, e_norm], rest)) = row.split_first_chunk()
            else {
                continue;
            };
            self.t.push(t);
            self.is_sample.push(is_sample != 0.0);
            self.residual.push(residual);
            self.velocity_residual.push(velocity_residual);
            self.energy.push(energy);
            self.e_norm.push(e_norm);
            let (view, rest) = rest.split_at(self.format.outputs);
            let (e, contacts) = rest.split_at(self.format.e_components);
            self.view.iter_mut().zip(view).for_each(|(c, &x)| c.push(x));
            self.e.iter_mut().zip(e).for_each(|(c, &x)| c.push(x));
            for (columns, values) in self.contacts.iter_mut().zip(contacts.chunks_exact(PER_CONTACT)) {
                columns.iter_mut().zip(values).for_each(|(c, &x)| c.push(x));
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_row_goes_into_columns_and_back_out_as_it_was_written() {
        let format = RowFormat { outputs: 2, e_components: 3, contacts: 0 };
        let mut row = vec![0.5, 1.0, 1e-9, 0.0, 2.5, 5.0, 10.0, 20.0, 3.0, 4.0, 0.0];
        let mut c = Columns::from_rows(format, &row).unwrap();
        assert_eq!((c.len(), c.t[0], c.is_sample[0], c.energy[0], c.e_norm[0]), (1, 0.5, true, 2.5, 5.0));
        assert_eq!((c.view[1][0], c.e[2][0]), (20.0, 0.0));
        row[1] = 0.0; // a display point
        c.extend_from_rows(&row).unwrap();
        assert_eq!(c.is_sample, [true, false]);
        assert!(c.extend_from_rows(&row[1..]).is_err(), "not whole rows");
        c.truncate(1);
        assert_eq!(c.len(), 1);
    }
}
