//! Choosing rows and columns of a matrix: a largest independent set of rows (which
//! constraints are redundant) and the best-conditioned square block of columns
//! (which coordinates a Hamel split makes dependent). Plain linear algebra on
//! numbers, used by the model, the methods and the stability analysis.

/// A largest set of linearly independent rows of `A` (m×n), in order: greedy
/// Gram–Schmidt over the rows, a row counting as dependent where less than `1e-10`
/// of its own norm is left of it once the rows taken are removed (so a row's scale
/// does not matter; a zero row is dependent). Every row where the constraints are
/// independent; fewer where some are redundant (two wheels on one axle give four
/// rows of rank three).
pub fn independent_rows(a: &nalgebra::DMatrix<f64>) -> alloc::vec::Vec<usize> {
    let mut basis: alloc::vec::Vec<nalgebra::RowDVector<f64>> = alloc::vec::Vec::new();
    let mut rows = alloc::vec::Vec::new();
    for (j, row) in a.row_iter().enumerate() {
        let mut rest = row.into_owned();
        // Twice: one pass of Gram–Schmidt loses orthogonality on near-dependent rows.
        for _ in 0..2 {
            for b in &basis {
                let proj = rest.dot(b);
                rest -= b * proj;
            }
        }
        let left = rest.norm();
        if left.is_finite() && left > 1e-10 * row.norm() {
            basis.push(rest / left);
            rows.push(j);
        }
    }
    rows
}

/// The `r` best-conditioned dependent columns of `A` (m×n) and the others, by greedy
/// column pivoting (the pivots of a column-pivoted QR): `O(m²n)`, where trying every
/// `r`-subset would be combinatorial (C(28, 14) = 40 million). Ties go to the later
/// coordinate.
pub fn best_split(a: &nalgebra::DMatrix<f64>) -> (alloc::vec::Vec<usize>, alloc::vec::Vec<usize>) {
    let (m, n) = a.shape();
    let mut work = a.clone();
    let mut dependent = alloc::vec::Vec::with_capacity(m);
    // How many constraints each coordinate's velocity enters: among columns nearly
    // as good, the sparsest is taken, so that A₁ keeps the structure A has (a chain of
    // trailers stays triangular) and its symbolic inverse stays small.
    let nonzeros: alloc::vec::Vec<usize> = (0..n).map(|c| a.column(c).iter().filter(|x| **x != 0.0).count()).collect();
    for _ in 0..m.min(n) {
        // The columns with the most left once the chosen ones' directions are
        // removed, within 10 % of the most; of those the sparsest, then the
        // one with the most left.
        let norms: alloc::vec::Vec<(usize, f64)> =
            (0..n).filter(|c| !dependent.contains(c)).map(|c| (c, work.column(c).norm())).collect();
        let most = norms.iter().map(|x| x.1).fold(0.0, f64::max);
        let Some(&(best, _)) = norms
            .iter()
            .filter(|x| x.1 >= 0.9 * most)
            .min_by(|x, y| nonzeros[x.0].cmp(&nonzeros[y.0]).then(y.1.total_cmp(&x.1)))
        else {
            break;
        };
        dependent.push(best);
        // Modified Gram–Schmidt: remove the chosen column's direction from the rest.
        let col = work.column(best).into_owned();
        let norm2 = col.norm_squared();
        if norm2 > 0.0 {
            for c in 0..n {
                let proj = col.dot(&work.column(c)) / norm2;
                work.column_mut(c).axpy(-proj, &col, 1.0);
            }
        }
    }
    let independent = (0..n).filter(|c| !dependent.contains(c)).collect();
    (dependent, independent)
}
