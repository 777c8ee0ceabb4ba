//! In-place dense LU with partial pivoting for the saddle-point systems of the
//! multiplier methods.
//!
//! Why not nalgebra's `LU`: it consumes (and so allocates) its matrix on every
//! call, and these systems are solved at every right-hand-side evaluation — the
//! inner loop of every simulation. Here the matrix lives in a workspace that is
//! reused, so a solve allocates nothing.

use alloc::vec::Vec;

/// Reusable buffers for an `size × size` system, row-major.
#[derive(Clone, Debug, Default)]
pub struct Workspace {
    /// The matrix, row-major; overwritten by its LU factors.
    pub matrix: Vec<f64>,
    /// The right-hand side; overwritten by the solution.
    pub rhs: Vec<f64>,
    size: usize,
}

impl Workspace {
    /// Zeroed buffers for a system of the given size.
    pub fn reset(&mut self, size: usize) {
        self.size = size;
        self.matrix.clear();
        self.matrix.resize(size * size, 0.0);
        self.rhs.clear();
        self.rhs.resize(size, 0.0);
    }

    /// Entry `(r, c)` of the matrix.
    pub fn set(&mut self, r: usize, c: usize, x: f64) {
        self.matrix[r * self.size + c] = x;
    }

    /// Solves in place; false when the matrix is singular to working precision.
    ///
    /// Rows are taken as slices (`split_at_mut`, `chunks_exact_mut`) so that the
    /// inner loops carry no bounds checks: this runs at every right-hand side, where
    /// a check per element would be a large part of a small model's run.
    pub fn solve(&mut self) -> bool {
        let n = self.size;
        let a = &mut self.matrix[..n * n];
        let b = &mut self.rhs[..n];
        let scale = a.iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let tiny = 1e-13 * scale.max(f64::MIN_POSITIVE);
        for k in 0..n {
            let (mut p, mut best) = (k, a[k * n + k].abs());
            for r in k + 1..n {
                let x = a[r * n + k].abs();
                if x > best {
                    p = r;
                    best = x;
                }
            }
            if best.is_nan() || best <= tiny {
                return false;
            }
            if p != k {
                let (upper, lower) = a.split_at_mut(p * n);
                upper[k * n..(k + 1) * n].swap_with_slice(&mut lower[..n]);
                b.swap(k, p);
            }
            let (upper, lower) = a.split_at_mut((k + 1) * n);
            let pivot_row = &upper[k * n..];
            let pivot = pivot_row[k];
            let (b_upper, b_lower) = b.split_at_mut(k + 1);
            let bk = b_upper[k];
            for (row, br) in lower.chunks_exact_mut(n).zip(b_lower.iter_mut()) {
                let f = row[k] / pivot;
                if f != 0.0 {
                    for (x, &y) in row[k + 1..].iter_mut().zip(&pivot_row[k + 1..]) {
                        *x -= f * y;
                    }
                    *br -= f * bk;
                }
            }
        }
        for k in (0..n).rev() {
            let row = &a[k * n..(k + 1) * n];
            // Subtracted one term at a time, in this order: the results stay bit for
            // bit what they were.
            let s = row[k + 1..].iter().zip(&b[k + 1..]).fold(b[k], |s, (x, y)| s - x * y);
            b[k] = s / row[k];
        }
        b.iter().all(|x| x.is_finite())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn solves_with_pivoting_and_detects_singularity() {
        let mut w = Workspace::default();
        w.reset(3);
        // Needs a row swap: zero on the first pivot.
        for (r, row) in [[0.0, 2.0, 1.0], [1.0, 1.0, 0.0], [2.0, 0.0, 3.0]].iter().enumerate() {
            for (c, &x) in row.iter().enumerate() {
                w.set(r, c, x);
            }
        }
        w.rhs.copy_from_slice(&[7.0, 3.0, 11.0]);
        assert!(w.solve());
        for (got, want) in w.rhs.iter().zip([1.0, 2.0, 3.0]) {
            assert!((got - want).abs() < 1e-14, "{got} vs {want}");
        }
        w.reset(2);
        w.set(0, 0, 1.0);
        w.set(0, 1, 2.0);
        w.set(1, 0, 2.0);
        w.set(1, 1, 4.0);
        assert!(!w.solve());
    }
}
