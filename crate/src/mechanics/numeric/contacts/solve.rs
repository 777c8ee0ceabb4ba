//! The second phase, at each state: the balances and Lagrange's equations as one
//! least-squares system on rows scaled to their largest coefficient, solved, and
//! each contact's force read from the solution in its own directions.

use super::*;

impl ContactForces {
    /// The unit normal (from the surface into the body) and the unit tangents
    /// `e₁`, `e₂` of contact `k`, from the last outputs.
    pub(super) fn directions(&self, k: usize) -> [[f64; 3]; 3] {
        let at = &self.outputs[self.contact_offset(k)..];
        let n = self.n;
        let point = [at[0], at[1], at[2]];
        let t1 = [at[3 + 3 * n], at[4 + 3 * n], at[5 + 3 * n]];
        let t2 = [at[6 + 3 * n], at[7 + 3 * n], at[8 + 3 * n]];
        let centre = [at[9 + 3 * n], at[10 + 3 * n], at[11 + 3 * n]];
        let mut normal = unit(cross3(t1, t2));
        let towards = [centre[0] - point[0], centre[1] - point[1], centre[2] - point[2]];
        if dot3(normal, towards) < 0.0 {
            normal = normal.map(|x| -x);
        }
        let along = dot3(t1, normal);
        let e1 = unit([t1[0] - along * normal[0], t1[1] - along * normal[1], t1[2] - along * normal[2]]);
        let e2 = cross3(normal, e1);
        [normal, e1, e2]
    }

    /// Contact `k`'s force from the solution `x`; a normal force within round-off
    /// of zero beside the system's forces (`size`) is zero: a ball without weight
    /// touches without pressing, and its needed friction is not 10¹⁷.
    pub(super) fn force_of(&self, k: usize, x: &[f64], size: f64) -> ContactForce {
        let [normal, e1, e2] = self.directions(k);
        let f = [x[3 * k], x[3 * k + 1], x[3 * k + 2]];
        let at = &self.outputs[self.contact_offset(k)..];
        let [known_normal, known_tangential] = self.contacts[k].determined;
        let n = match dot3(f, normal) {
            _ if !known_normal => f64::NAN,
            n if n.abs() <= ROUND_OFF * size => 0.0,
            n => n,
        };
        let tangential = if known_tangential { [dot3(f, e1), dot3(f, e2)] } else { [f64::NAN; 2] };
        // `libm`, as every float function of the core: the same bits natively and in wasm.
        let friction = libm::hypot(tangential[0], tangential[1]);
        let mu_needed = if n > 0.0 { friction / n } else { f64::NAN };
        let whole = known_normal && known_tangential;
        ContactForce {
            normal: n,
            tangential,
            friction,
            mu_needed,
            force: if whole { f } else { [f64::NAN; 3] },
            point: [at[0], at[1], at[2]],
            mu: if self.contacts[k].friction { self.outputs[self.friction_slot(k)] } else { f64::NAN },
        }
    }

    /// The scaled system as matrices (the analysis' null space and the SVD's path).
    pub(super) fn system(&self, accelerations: &[f64]) -> (DMatrix<f64>, DVector<f64>, Vec<bool>) {
        let mut w = LeastSquares::default();
        let (rows, columns) = self.fill_system(accelerations, &mut w);
        (DMatrix::from_row_slice(rows, columns, &w.a), DVector::from_column_slice(&w.b), w.zero_row)
    }

    /// The scaled system into `w` (row-major, padded with zero rows to at least as
    /// many rows as columns), each row's scale decided, and its size `(rows,
    /// columns)`.
    fn fill_system(&self, accelerations: &[f64], w: &mut LeastSquares) -> (usize, usize) {
        let (n, k, written) = (self.n, self.contacts.len(), self.written.len());
        let rows = n + WRENCH * self.sets.len();
        let columns = 3 * k + written;
        let padded = rows.max(columns);
        w.a.clear();
        w.a.resize(padded * columns, 0.0);
        w.b.clear();
        w.b.resize(padded, 0.0);
        w.zero_row.clear();
        w.zero_row.resize(padded, false);
        let dynamics = &self.outputs[self.dynamics_offset()..];
        let (mass, rest) = dynamics.split_at(n * n);
        let (forcing, jacobian) = rest.split_at(n);
        w.inertia.clear();
        w.inertia.extend(
            mass.chunks_exact(n.max(1))
                .take(n)
                .map(|row| row.iter().zip(accelerations).map(|(m, a)| m * a).sum::<f64>()),
        );
        let a = &mut w.a;
        for i in 0..n {
            let row = &mut a[i * columns..(i + 1) * columns];
            for c in 0..k {
                let jac = &self.outputs[self.contact_offset(c) + 3..];
                for d in 0..3 {
                    row[3 * c + d] = jac[d * n + i];
                }
            }
            for (col, &j) in self.written.iter().enumerate() {
                row[3 * k + col] = jacobian[j * n + i];
            }
            w.b[i] = w.inertia[i] - forcing[i];
        }
        // Rows scaled to their largest coefficient; a row whose coefficients are
        // round-off beside the others' is one no force enters, where Lagrange's
        // equation must hold by itself: to round-off of the system's terms, not of
        // the row's own (upright running makes a row's terms themselves round-off,
        // 1e-20 beside 1e-20, and they must not be judged against each other).
        let row_max =
            |a: &[f64], r: usize| a[r * columns..(r + 1) * columns].iter().fold(0.0f64, |m, x| m.max(x.abs()));
        let largest = (0..n).map(|i| row_max(a, i)).fold(0.0, f64::max);
        let system = (0..n).map(|i| w.inertia[i].abs() + forcing[i].abs()).fold(0.0, f64::max);
        for i in 0..n {
            w.zero_row[i] = scale_row(a, columns, i, largest, system, &mut w.b[i]);
        }
        for (s, set) in self.sets.iter().enumerate() {
            let first = n + WRENCH * s;
            let mut rhs = [0.0; WRENCH];
            let free = &self.outputs[WRENCH * self.bodies..][..WRENCH];
            rhs.iter_mut().zip(free).for_each(|(r, x)| *r += x);
            for (body, _) in set.iter().enumerate().filter(|(_, &inside)| inside) {
                let own = &self.outputs[WRENCH * body..][..WRENCH];
                rhs.iter_mut().zip(own).for_each(|(r, x)| *r += x);
            }
            for (c, &(body, on)) in self.ends.iter().enumerate() {
                let sign = match (set[body], on.is_some_and(|o| set[o])) {
                    (true, false) => 1.0,
                    (false, true) => -1.0,
                    _ => continue,
                };
                let p = &self.outputs[self.contact_offset(c)..][..3];
                for d in 0..3 {
                    a[(first + d) * columns + 3 * c + d] = sign;
                }
                // r × f = [r]× f.
                let skew = [[0.0, -p[2], p[1]], [p[2], 0.0, -p[0]], [-p[1], p[0], 0.0]];
                for (d, line) in skew.iter().enumerate() {
                    for (e, &x) in line.iter().enumerate() {
                        a[(first + 3 + d) * columns + 3 * c + e] = sign * x;
                    }
                }
            }
            let largest = (first..first + WRENCH).map(|r| row_max(a, r)).fold(0.0, f64::max);
            let size = rhs.iter().fold(0.0f64, |m, x| m.max(x.abs()));
            for (d, &right) in rhs.iter().enumerate() {
                let r = first + d;
                w.b[r] = right;
                w.zero_row[r] = scale_row(a, columns, r, largest, size, &mut w.b[r]);
            }
        }
        (padded, columns)
    }

    /// The least-norm solution, if the rows balance, into `self.solution`, with the
    /// size of the forces in the system (the largest right-hand side or unknown).
    ///
    /// Where every unknown is determined (as chosen), the normal equations'
    /// Cholesky factor, refined once against the rows themselves (which restores
    /// the digits squaring the condition lost), in the reused [`LeastSquares`]
    /// buffers: a sample allocates nothing. Otherwise nalgebra's SVD.
    pub(super) fn solve(&mut self, accelerations: &[f64]) -> Result<f64, Unbalanced> {
        let mut w = core::mem::take(&mut self.least_squares);
        let outcome = self.solve_in(accelerations, &mut w);
        self.least_squares = w;
        outcome
    }

    fn solve_in(&self, accelerations: &[f64], w: &mut LeastSquares) -> Result<f64, Unbalanced> {
        let (rows, columns) = self.fill_system(accelerations, w);
        if columns == 0 {
            return Err(Unbalanced::NotIdeal);
        }
        if w.a.iter().chain(&w.b).any(|x| !x.is_finite()) {
            return Err(Unbalanced::NonFinite);
        }
        if !(self.full_rank && w.normal_equations(rows, columns)) {
            let a = DMatrix::from_row_slice(rows, columns, &w.a);
            let svd = a.svd(true, true);
            let largest = svd.singular_values.max();
            let x = svd
                .solve(&DVector::from_column_slice(&w.b), RANK_TOLERANCE * largest.max(f64::MIN_POSITIVE))
                .map_err(|_| Unbalanced::NonFinite)?;
            w.x.clear();
            w.x.extend(x.iter());
        }
        let size = w.b.iter().zip(&w.zero_row).filter(|(_, &z)| !z).fold(0.0f64, |m, (x, _)| m.max(x.abs()));
        let size = size.max(w.x.iter().fold(0.0f64, |m, x| m.max(x.abs())));
        for i in 0..rows {
            let r = dot(&w.a[i * columns..(i + 1) * columns], &w.x) - w.b[i];
            let limit = if w.zero_row[i] { BALANCE_TOLERANCE } else { BALANCE_TOLERANCE * size.max(f64::MIN_POSITIVE) };
            if !r.is_finite() {
                return Err(Unbalanced::NonFinite);
            }
            if r.abs() > limit {
                return Err(Unbalanced::NotIdeal);
            }
        }
        Ok(size)
    }
}

/// The least squares' buffers, kept from sample to sample: the scaled system
/// (row-major), the normal equations and their Cholesky factor, the solution.
#[derive(Clone, Debug, Default)]
pub(super) struct LeastSquares {
    a: Vec<f64>,
    b: Vec<f64>,
    zero_row: Vec<bool>,
    inertia: Vec<f64>,
    /// `AᵀA`, overwritten by its Cholesky factor `L` (lower, row-major).
    factor: Vec<f64>,
    /// The solution.
    pub(super) x: Vec<f64>,
    /// `Aᵀ r` for the refinement, and `r`.
    correction: Vec<f64>,
    residual: Vec<f64>,
}

impl LeastSquares {
    /// `x` from `AᵀA x = Aᵀb` by Cholesky, refined once with the residual `b − A x`;
    /// false where `AᵀA` is not positive definite to working precision.
    fn normal_equations(&mut self, rows: usize, columns: usize) -> bool {
        let (a, c) = (&self.a, columns);
        self.factor.clear();
        self.factor.resize(c * c, 0.0);
        for r in 0..rows {
            let row = &a[r * c..(r + 1) * c];
            for i in 0..c {
                if row[i] != 0.0 {
                    for j in 0..=i {
                        self.factor[i * c + j] += row[i] * row[j];
                    }
                }
            }
        }
        if !cholesky_in_place(&mut self.factor, c) {
            return false;
        }
        // x = (AᵀA)⁻¹ Aᵀ b, then x += (AᵀA)⁻¹ Aᵀ (b − A x).
        transposed_times(a, &self.b, c, &mut self.x);
        cholesky_solve(&self.factor, c, &mut self.x);
        self.residual.clear();
        self.residual.extend((0..rows).map(|r| self.b[r] - dot(&a[r * c..(r + 1) * c], &self.x)));
        transposed_times(a, &self.residual, c, &mut self.correction);
        cholesky_solve(&self.factor, c, &mut self.correction);
        for (x, d) in self.x.iter_mut().zip(&self.correction) {
            *x += d;
        }
        self.x.iter().all(|x| x.is_finite())
    }
}

/// `out = Aᵀ y` for a row-major `A` of `columns` columns.
fn transposed_times(a: &[f64], y: &[f64], columns: usize, out: &mut Vec<f64>) {
    out.clear();
    out.resize(columns, 0.0);
    for (row, &yr) in a.chunks_exact(columns).zip(y) {
        for (o, x) in out.iter_mut().zip(row) {
            *o += x * yr;
        }
    }
}

/// The lower Cholesky factor of the symmetric `size × size` matrix whose lower
/// triangle `m` holds (row-major), in place; false unless positive definite.
fn cholesky_in_place(m: &mut [f64], size: usize) -> bool {
    for j in 0..size {
        let mut d = m[j * size + j];
        for k in 0..j {
            d -= m[j * size + k] * m[j * size + k];
        }
        if d.is_nan() || d <= 0.0 || !d.is_finite() {
            return false;
        }
        let d = crate::math::sqrt(d);
        m[j * size + j] = d;
        for i in j + 1..size {
            let mut x = m[i * size + j];
            for k in 0..j {
                x -= m[i * size + k] * m[j * size + k];
            }
            m[i * size + j] = x / d;
        }
    }
    true
}

/// Solves `L Lᵀ x = b` in place (`x` holds `b`).
fn cholesky_solve(l: &[f64], size: usize, x: &mut [f64]) {
    for i in 0..size {
        let s: f64 = (0..i).map(|k| l[i * size + k] * x[k]).sum();
        x[i] = (x[i] - s) / l[i * size + i];
    }
    for i in (0..size).rev() {
        let s: f64 = (i + 1..size).map(|k| l[k * size + i] * x[k]).sum();
        x[i] = (x[i] - s) / l[i * size + i];
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Whether `y` is a combination of `basis`'s columns (relative residual 1e-9).
pub(super) fn in_column_space(basis: &DMatrix<f64>, y: &DVector<f64>) -> bool {
    let size = y.amax();
    if size == 0.0 {
        return false;
    }
    let svd = basis.clone().svd(true, true);
    let largest = svd.singular_values.max();
    let Ok(c) = svd.solve(y, RANK_TOLERANCE * largest.max(f64::MIN_POSITIVE)) else { return false };
    (basis * c - y).amax() <= 1e-9 * size
}

/// An orthonormal basis of `{x : A x = 0}`, from `A`'s SVD (`A` has at least as
/// many rows as columns).
pub(super) fn null_space(a: &DMatrix<f64>) -> Vec<Vec<f64>> {
    let svd = a.clone().svd(false, true);
    let Some(v_t) = svd.v_t else { return Vec::new() };
    let largest = svd.singular_values.max().max(f64::MIN_POSITIVE);
    (0..svd.singular_values.len())
        .filter(|&i| svd.singular_values[i] <= RANK_TOLERANCE * largest)
        .map(|i| v_t.row(i).iter().copied().collect())
        .collect()
}

fn dot3(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross3(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

fn unit(a: [f64; 3]) -> [f64; 3] {
    let length = crate::math::sqrt(dot3(a, a));
    a.map(|x| x / length)
}

/// Scales row `r` of `a` (`columns` wide) and its right side `b` by the row's
/// largest coefficient, unless that is round-off beside `largest` (the rows'
/// largest): then the row is emptied and `b` measured against `size` (the
/// terms' own size) instead. Returns whether the row was emptied.
fn scale_row(a: &mut [f64], columns: usize, r: usize, largest: f64, size: f64, b: &mut f64) -> bool {
    let row = &mut a[r * columns..(r + 1) * columns];
    let scale = row.iter().fold(0.0f64, |m, x| m.max(x.abs()));
    if scale > ZERO_ROW * largest {
        row.iter_mut().for_each(|x| *x *= 1.0 / scale);
        *b /= scale;
        false
    } else {
        row.fill(0.0);
        *b /= size.max(f64::MIN_POSITIVE);
        true
    }
}
