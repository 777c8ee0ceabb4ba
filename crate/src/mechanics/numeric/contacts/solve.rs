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
    pub(super) fn force_of(&self, k: usize, x: &DVector<f64>, size: f64) -> ContactForce {
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

    /// The scaled system, its right-hand side, and each row's scale for zero rows.
    pub(super) fn system(&self, accelerations: &[f64]) -> (DMatrix<f64>, DVector<f64>, Vec<bool>) {
        let (n, k, w) = (self.n, self.contacts.len(), self.written.len());
        let rows = n + WRENCH * self.sets.len();
        let columns = 3 * k + w;
        let mut a = DMatrix::zeros(rows.max(columns), columns);
        let mut b = DVector::zeros(rows.max(columns));
        let mut zero_row = alloc::vec![false; rows.max(columns)];
        let dynamics = &self.outputs[self.dynamics_offset()..];
        let (mass, rest) = dynamics.split_at(n * n);
        let (forcing, jacobian) = rest.split_at(n);
        let inertia: Vec<f64> =
            mass.chunks_exact(n).map(|row| row.iter().zip(accelerations).map(|(m, a)| m * a).sum()).collect();
        for i in 0..n {
            for c in 0..k {
                let jac = &self.outputs[self.contact_offset(c) + 3..];
                for d in 0..3 {
                    a[(i, 3 * c + d)] = jac[d * n + i];
                }
            }
            for (col, &j) in self.written.iter().enumerate() {
                a[(i, 3 * k + col)] = jacobian[j * n + i];
            }
            b[i] = inertia[i] - forcing[i];
        }
        // Rows scaled to their largest coefficient; a row whose coefficients are
        // round-off beside the others' is one no force enters, where Lagrange's
        // equation must hold by itself: to round-off of the system's terms, not of
        // the row's own (upright running makes a row's terms themselves round-off,
        // 1e-20 beside 1e-20, and they must not be judged against each other).
        let largest = (0..n).map(|i| a.row(i).amax()).fold(0.0, f64::max);
        let system = (0..n).map(|i| inertia[i].abs() + forcing[i].abs()).fold(0.0, f64::max);
        for i in 0..n {
            let scale = a.row(i).amax();
            if scale > ZERO_ROW * largest {
                a.row_mut(i).scale_mut(1.0 / scale);
                b[i] /= scale;
            } else {
                zero_row[i] = true;
                a.row_mut(i).fill(0.0);
                b[i] /= system.max(f64::MIN_POSITIVE);
            }
        }
        for (s, set) in self.sets.iter().enumerate() {
            let row = n + WRENCH * s;
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
                    a[(row + d, 3 * c + d)] = sign;
                }
                // r × f = [r]× f.
                let skew = [[0.0, -p[2], p[1]], [p[2], 0.0, -p[0]], [-p[1], p[0], 0.0]];
                for (d, line) in skew.iter().enumerate() {
                    for (e, &x) in line.iter().enumerate() {
                        a[(row + 3 + d, 3 * c + e)] = sign * x;
                    }
                }
            }
            let largest = (row..row + WRENCH).map(|r| a.row(r).amax()).fold(0.0, f64::max);
            let size = rhs.iter().fold(0.0f64, |m, x| m.max(x.abs()));
            for d in 0..WRENCH {
                b[row + d] = rhs[d];
                let scale = a.row(row + d).amax();
                if scale > ZERO_ROW * largest {
                    a.row_mut(row + d).scale_mut(1.0 / scale);
                    b[row + d] /= scale;
                } else {
                    zero_row[row + d] = true;
                    a.row_mut(row + d).fill(0.0);
                    b[row + d] /= size.max(f64::MIN_POSITIVE);
                }
            }
        }
        (a, b, zero_row)
    }

    /// The least-norm solution, if the rows balance, with the size of the forces in
    /// the system (the largest right-hand side or unknown).
    pub(super) fn solve(&self, accelerations: &[f64]) -> Result<(DVector<f64>, f64), Unbalanced> {
        let (a, b, zero_row) = self.system(accelerations);
        if a.ncols() == 0 {
            return Err(Unbalanced::NotIdeal);
        }
        if a.iter().chain(b.iter()).any(|x| !x.is_finite()) {
            return Err(Unbalanced::NonFinite);
        }
        // Full rank (as chosen): the normal equations, refined once against the
        // rows themselves (which restores the digits squaring the condition lost).
        let normal = self.full_rank.then(|| a.tr_mul(&a).cholesky()).flatten();
        let x = match normal {
            Some(factor) => {
                let mut x = factor.solve(&a.tr_mul(&b));
                let correction = factor.solve(&a.tr_mul(&(&b - &a * &x)));
                x += correction;
                x
            }
            None => {
                let svd = a.clone().svd(true, true);
                let largest = svd.singular_values.max();
                svd.solve(&b, RANK_TOLERANCE * largest.max(f64::MIN_POSITIVE)).map_err(|_| Unbalanced::NonFinite)?
            }
        };
        let residual = &a * &x - &b;
        let size = b.iter().zip(&zero_row).filter(|(_, &z)| !z).fold(0.0f64, |m, (x, _)| m.max(x.abs()));
        let size = size.max(x.amax());
        for (i, r) in residual.iter().enumerate() {
            let limit = if zero_row[i] { BALANCE_TOLERANCE } else { BALANCE_TOLERANCE * size.max(f64::MIN_POSITIVE) };
            if !r.is_finite() {
                return Err(Unbalanced::NonFinite);
            }
            if r.abs() > limit {
                return Err(Unbalanced::NotIdeal);
            }
        }
        Ok((x, size))
    }
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
