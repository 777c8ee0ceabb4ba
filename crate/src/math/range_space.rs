//! Lagrange's equations `M q̈ = F + Aᵀλ`, `A q̈ = b` by the range-space method, the
//! integrator's fast path:
//!
//! `M = L D Lᵀ`, `Y = L⁻¹Aᵀ`, `z = L⁻¹F`, `S = Yᵀ D⁻¹ Y = A M⁻¹ Aᵀ = K E Kᵀ`,
//! `λ = S⁻¹(b − Yᵀ D⁻¹ z)`, `q̈ = L⁻ᵀ D⁻¹ (z + Y λ)`.
//!
//! Why not the LU of the saddle matrix `[[M, −Aᵀ], [A, 0]]` (`dense.rs`): that
//! factors an `(n+m)²` matrix with pivoting at every call; this factors `M` (`n³/6`)
//! and the small `S` (`m³/6`) without pivoting, which `M`'s and `S`'s positive
//! definiteness makes stable, and it keeps the factors of `M`, `Y` and `S` between
//! calls when `M` and `A` depend on the parameters only (a particle, the
//! turntable). Why not nalgebra's Cholesky: it takes its matrix by value, so a call
//! would allocate, and it cannot keep part of the work.
//!
//! It declines (returns `false`) rather than lose accuracy: when a pivot of `M` is
//! not positive against its diagonal entry (`M` singular or indefinite, as a
//! massless coordinate makes it) or a pivot of `S` is below 10⁻⁴ of its diagonal
//! entry (`S` squares the conditioning of `A M^{-1/2}`). The caller then solves by
//! pivoted LU, which handles those systems and words their errors.

use alloc::vec::Vec;

/// Runs `$body` with `$n` bound to a compile-time constant for the sizes of small
/// models (up to 6), so that its loops unroll and lose their bounds checks (the
/// sleigh's solve, n = 3 and m = 1, spent most of its time on loop overhead);
/// larger sizes run the same body with the size at run time. A macro, not a
/// function taking a closure: the closure would not be inlined into each arm.
macro_rules! with_small {
    ($size:expr, |$n:ident| $body:expr) => {
        with_small!(@arms $size, $n, $body; 0 1 2 3 4 5 6)
    };
    (@arms $size:expr, $n:ident, $body:expr; $($k:literal)*) => {
        match $size {
            $($k => {
                let $n = $k;
                $body
            })*
            $n => $body,
        }
    };
}

/// Smallest pivot of `M`, relative to its diagonal entry, that the method accepts.
pub const MASS_PIVOT: f64 = 1e-12;
/// Smallest pivot of `S`, relative to its diagonal entry, that the method accepts.
pub const SCHUR_PIVOT: f64 = 1e-4;

/// Factors and buffers for one model's sizes, reused from call to call.
#[derive(Clone, Debug, Default)]
pub struct RangeSpace {
    n: usize,
    m: usize,
    /// Unit lower `L`, row-major (only the strict lower part is read).
    l: Vec<f64>,
    /// `D` and `1/D`.
    d: Vec<f64>,
    inv_d: Vec<f64>,
    /// `Y = L⁻¹Aᵀ`, one column per constraint (column-major, `m` columns of `n`).
    y: Vec<f64>,
    /// Unit lower `K` of `S`, row-major `m×m`.
    k: Vec<f64>,
    /// `S` (lower triangle, row-major `m×m`).
    schur: Vec<f64>,
    /// `E` and `1/E`.
    e: Vec<f64>,
    inv_e: Vec<f64>,
    /// Scratch of length `n`.
    z: Vec<f64>,
    /// Whether [`RangeSpace::freeze`] has turned the solve into the map below.
    frozen: bool,
    /// The entries of `[F; b]` that vary, by index, and their values at a call.
    columns: Vec<usize>,
    input: Vec<f64>,
    /// The frozen map `[F; b] ↦ [q̈; λ]`: its columns for the varying entries,
    /// row-major `(n+m)×columns`, and its product with the fixed entries.
    operator: Vec<f64>,
    offset: Vec<f64>,
}

impl RangeSpace {
    /// Factors `M` (`n×n`, row-major, symmetric: the lower triangle is read) and
    /// `S = A M⁻¹ Aᵀ` for `A` (`m×n`, row-major); false when declined.
    pub fn factor(&mut self, n: usize, mass: &[f64], jacobian: &[f64]) -> bool {
        let m = jacobian.len().checked_div(n).unwrap_or(0);
        self.resize(n, m);
        self.frozen = false;
        let (l, d, inv_d) = (&mut self.l, &mut self.d, &mut self.inv_d);
        let mass_ok = with_small!(n, |n| factor_ldl(n, mass, l, d, inv_d, MASS_PIVOT));
        mass_ok && self.factor_schur(jacobian)
    }

    fn resize(&mut self, n: usize, m: usize) {
        if (self.n, self.m) == (n, m) && self.z.len() == n {
            return;
        }
        self.n = n;
        self.m = m;
        self.l.resize(n * n, 0.0);
        self.d.resize(n, 0.0);
        self.inv_d.resize(n, 0.0);
        self.y.resize(n * m, 0.0);
        self.k.resize(m * m, 0.0);
        self.schur.resize(m * m, 0.0);
        self.e.resize(m, 0.0);
        self.inv_e.resize(m, 0.0);
        self.z.resize(n, 0.0);
    }

    /// `Y` and the factors of `S = Yᵀ D⁻¹ Y`.
    fn factor_schur(&mut self, jacobian: &[f64]) -> bool {
        let n = self.n;
        with_small!(n, |n| self.y_and_schur(n, jacobian));
        let m = self.m;
        with_small!(m, |m| factor_ldl(m, &self.schur, &mut self.k, &mut self.e, &mut self.inv_e, SCHUR_PIVOT))
    }

    #[inline(always)]
    fn y_and_schur(&mut self, n: usize, jacobian: &[f64]) {
        let m = self.m;
        for (column, row) in self.y.chunks_exact_mut(n.max(1)).zip(jacobian.chunks_exact(n.max(1))) {
            column.copy_from_slice(row);
            forward_unit(n, &self.l, column);
        }
        for j in 0..m {
            let yj = &self.y[j * n..(j + 1) * n];
            for i in 0..=j {
                let yi = &self.y[i * n..(i + 1) * n];
                self.schur[j * m + i] = weighted_dot(yj, yi, &self.inv_d);
            }
        }
    }

    /// Turns the factors into the linear map `[F; b] ↦ [q̈; λ]` itself, for a model
    /// whose `M` and `A` are fixed: then a solve is one matrix-vector product, whose
    /// rows are independent, where the substitutions are chains of dependent
    /// operations that a processor cannot overlap. Kept for `n + m ≤ 64`.
    ///
    /// `inputs` is `[F; b]` now and `varies` says which of its entries change from
    /// call to call: the others (a zero force, constant gravity) are folded into a
    /// constant `offset` here, and their columns dropped, so that a solve multiplies
    /// only by what varies (the turntable: 2 columns of 7).
    pub fn freeze(&mut self, inputs: &[f64], varies: &[bool]) {
        let (n, size) = (self.n, self.n + self.m);
        if size > 64 || inputs.len() != size || varies.len() != size {
            return;
        }
        let mut full = alloc::vec![0.0; size * size];
        let mut input = alloc::vec![0.0; size];
        let mut output = alloc::vec![0.0; size];
        for c in 0..size {
            input.fill(0.0);
            input[c] = 1.0;
            let (f, b) = input.split_at(n);
            let (qdd, lambda) = output.split_at_mut(n);
            self.substitute(f, b, qdd, lambda);
            for (r, &x) in output.iter().enumerate() {
                full[r * size + c] = x;
            }
        }
        self.columns = (0..size).filter(|&c| varies[c]).collect();
        let fixed: Vec<f64> = inputs.iter().zip(varies).map(|(&x, &v)| if v { 0.0 } else { x }).collect();
        self.offset = full.chunks_exact(size).map(|row| dot(row, &fixed)).collect();
        self.operator = full.chunks_exact(size).flat_map(|row| self.columns.iter().map(|&c| row[c])).collect();
        self.input.resize(self.columns.len(), 0.0);
        self.frozen = true;
    }

    /// With the factors of [`RangeSpace::factor`]: `q̈` and `λ` for `F` and `b`.
    /// False when a result is not finite (the caller reports which input was not).
    pub fn solve(&mut self, forcing: &[f64], bias: &[f64], accelerations: &mut [f64], multipliers: &mut [f64]) -> bool {
        let (n, m) = (self.n, self.m);
        if !self.frozen {
            with_small!(n, |n| self.substitute_sized(n, forcing, bias, accelerations, multipliers));
        } else {
            for (slot, &c) in self.input.iter_mut().zip(&self.columns) {
                *slot = if c < n { forcing[c] } else { bias[c - n] };
            }
            let width = self.columns.len();
            let input = &self.input;
            let row = |r: usize| self.offset[r] + dot(&self.operator[r * width..(r + 1) * width], input);
            for (r, x) in accelerations[..n].iter_mut().enumerate() {
                *x = row(r);
            }
            for (r, x) in multipliers[..m].iter_mut().enumerate() {
                *x = row(n + r);
            }
        }
        accelerations[..n].iter().all(|x| x.is_finite()) && multipliers[..m].iter().all(|x| x.is_finite())
    }

    /// The solve by substitution with the factors.
    fn substitute(&mut self, forcing: &[f64], bias: &[f64], accelerations: &mut [f64], multipliers: &mut [f64]) {
        self.substitute_sized(self.n, forcing, bias, accelerations, multipliers);
    }

    /// [`RangeSpace::substitute`] with `n` given, so that `with_small!` can make it a
    /// constant.
    #[inline(always)]
    fn substitute_sized(
        &mut self,
        n: usize,
        forcing: &[f64],
        bias: &[f64],
        accelerations: &mut [f64],
        multipliers: &mut [f64],
    ) {
        let m = self.m;
        let z = &mut self.z;
        z.copy_from_slice(&forcing[..n]);
        forward_unit(n, &self.l, z);
        // λ = S⁻¹ (b − Yᵀ D⁻¹ z).
        for (j, lambda) in multipliers[..m].iter_mut().enumerate() {
            *lambda = bias[j] - weighted_dot(&self.y[j * n..(j + 1) * n], z, &self.inv_d);
        }
        forward_unit(m, &self.k, &mut multipliers[..m]);
        for (x, d) in multipliers[..m].iter_mut().zip(&self.inv_e) {
            *x *= d;
        }
        backward_unit(m, &self.k, &mut multipliers[..m]);
        // q̈ = L⁻ᵀ D⁻¹ (z + Y λ).
        let out = &mut accelerations[..n];
        out.copy_from_slice(z);
        for (j, &lambda) in multipliers[..m].iter().enumerate() {
            for (o, &y) in out.iter_mut().zip(&self.y[j * n..(j + 1) * n]) {
                *o += y * lambda;
            }
        }
        for (x, d) in out.iter_mut().zip(&self.inv_d) {
            *x *= d;
        }
        backward_unit(n, &self.l, out);
    }
}

/// `Σ a_i b_i`, in four independent partial sums (the rows of a small map are
/// latency-bound otherwise).
fn dot(a: &[f64], b: &[f64]) -> f64 {
    let mut partial = [0.0f64; 4];
    let (a4, b4) = (a.chunks_exact(4), b.chunks_exact(4));
    let tail = a4.remainder().iter().zip(b4.remainder()).fold(0.0, |s, (x, y)| s + x * y);
    for (x, y) in a4.zip(b4) {
        for k in 0..4 {
            partial[k] += x[k] * y[k];
        }
    }
    (partial[0] + partial[1]) + (partial[2] + partial[3]) + tail
}

/// `Σ a_i b_i w_i`.
#[inline(always)]
fn weighted_dot(a: &[f64], b: &[f64], w: &[f64]) -> f64 {
    a.iter().zip(b).zip(w).fold(0.0, |s, ((x, y), w)| s + x * y * w)
}

/// `A = L D Lᵀ` for a symmetric `n×n` `a` (row-major, lower triangle read) into a
/// unit lower `l`, `d` and `inv_d = 1/D`; false when a pivot is not above
/// `tolerance` times its diagonal entry (or is NaN).
#[inline(always)]
fn factor_ldl(n: usize, a: &[f64], l: &mut [f64], d: &mut [f64], inv_d: &mut [f64], tolerance: f64) -> bool {
    for i in 0..n {
        let (done, row_and_rest) = l.split_at_mut(i * n);
        let row = &mut row_and_rest[..n];
        for j in 0..i {
            let lj = &done[j * n..j * n + j];
            // Σ_k<j L[i,k] D[k] L[j,k]
            let s = row[..j].iter().zip(lj).zip(&d[..j]).fold(a[i * n + j], |s, ((x, y), dk)| s - x * dk * y);
            row[j] = s * inv_d[j];
        }
        let diagonal = a[i * n + i];
        let pivot = row[..i].iter().zip(&d[..i]).fold(diagonal, |s, (x, dk)| s - x * x * dk);
        // NaN compares false: a NaN pivot is declined too.
        let accepted = pivot.is_finite() && pivot > tolerance * diagonal.abs();
        if !accepted {
            return false;
        }
        d[i] = pivot;
        inv_d[i] = 1.0 / pivot;
    }
    true
}

/// `x ← L⁻¹ x` for unit lower `L` (row-major `n×n`).
#[inline(always)]
fn forward_unit(n: usize, l: &[f64], x: &mut [f64]) {
    for i in 1..n {
        let s = l[i * n..i * n + i].iter().zip(&x[..i]).fold(x[i], |s, (a, b)| s - a * b);
        x[i] = s;
    }
}

/// `x ← L⁻ᵀ x` for unit lower `L` (row-major `n×n`).
#[inline(always)]
fn backward_unit(n: usize, l: &[f64], x: &mut [f64]) {
    for i in (0..n).rev() {
        let xi = x[i];
        for (xk, &lik) in x[..i].iter_mut().zip(&l[i * n..i * n + i]) {
            *xk -= lik * xi;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Solves the saddle-point system by the LU of `dense.rs`, the independent route.
    fn by_lu(n: usize, mass: &[f64], f: &[f64], a: &[f64], b: &[f64]) -> Vec<f64> {
        let m = b.len();
        let mut w = super::super::Workspace::default();
        w.reset(n + m);
        for r in 0..n {
            for c in 0..n {
                w.set(r, c, mass[r * n + c]);
            }
            for j in 0..m {
                w.set(r, n + j, -a[j * n + r]);
                w.set(n + j, r, a[j * n + r]);
            }
            w.rhs[r] = f[r];
        }
        w.rhs[n..].copy_from_slice(b);
        assert!(w.solve());
        w.rhs.clone()
    }

    #[test]
    fn agrees_with_pivoted_lu_and_keeps_its_factors() {
        // A symmetric positive definite M with fill, two constraints.
        let n = 4;
        let mass = [4.0, 1.0, 0.5, 0.0, 1.0, 3.0, 0.2, 0.1, 0.5, 0.2, 2.0, 0.3, 0.0, 0.1, 0.3, 1.5];
        let a = [1.0, -2.0, 0.0, 0.5, 0.0, 1.0, 1.0, -1.0];
        let mut rs = RangeSpace::default();
        assert!(rs.factor(n, &mass, &a));
        for (f, b) in [([1.0, -1.0, 2.0, 0.5], [0.3, -0.7]), ([0.0, 2.0, -3.0, 1.0], [1.0, 0.0])] {
            let (mut qdd, mut lambda) = ([0.0; 4], [0.0; 2]);
            assert!(rs.solve(&f, &b, &mut qdd, &mut lambda));
            let want = by_lu(n, &mass, &f, &a, &b);
            for (got, want) in qdd.iter().chain(&lambda).zip(&want) {
                assert!((got - want).abs() < 1e-13, "{got} vs {want}");
            }
            // The frozen map gives the same numbers.
            // The frozen map gives the same numbers, with every entry of [F; b]
            // varying and with some of them fixed (folded into its offset).
            let inputs: Vec<f64> = f.iter().chain(&b).copied().collect();
            for varies in [[true; 6], [false, true, true, false, false, true], [false; 6]] {
                let mut frozen = rs.clone();
                frozen.freeze(&inputs, &varies);
                let (mut qdd2, mut lambda2) = ([0.0; 4], [0.0; 2]);
                assert!(frozen.solve(&f, &b, &mut qdd2, &mut lambda2));
                for (got, want) in qdd2.iter().chain(&lambda2).zip(&want) {
                    assert!((got - want).abs() < 1e-13, "frozen {varies:?}: {got} vs {want}");
                }
            }
        }
    }

    #[test]
    fn unconstrained_is_m_inverse_f() {
        let mass = [2.0, 1.0, 1.0, 2.0];
        let mut rs = RangeSpace::default();
        assert!(rs.factor(2, &mass, &[]));
        let mut qdd = [0.0; 2];
        assert!(rs.solve(&[3.0, 3.0], &[], &mut qdd, &mut []));
        assert!((qdd[0] - 1.0).abs() < 1e-15 && (qdd[1] - 1.0).abs() < 1e-15, "{qdd:?}");
    }

    #[test]
    fn declines_singular_indefinite_and_ill_conditioned_systems() {
        let mut rs = RangeSpace::default();
        // A massless coordinate: M singular.
        assert!(!rs.factor(2, &[1.0, 0.0, 0.0, 0.0], &[]));
        // Indefinite M.
        assert!(!rs.factor(2, &[1.0, 2.0, 2.0, 1.0], &[]));
        // NaN in M.
        assert!(!rs.factor(2, &[f64::NAN, 0.0, 0.0, 1.0], &[]));
        // Redundant constraints: S singular.
        assert!(!rs.factor(2, &[1.0, 0.0, 0.0, 1.0], &[1.0, 1.0, 2.0, 2.0]));
        // Nearly parallel constraints: S's second pivot 10⁻⁶ of its diagonal.
        assert!(!rs.factor(2, &[1.0, 0.0, 0.0, 1.0], &[1.0, 0.0, 1.0, 1e-3]));
        // A non-finite force gives a result that is reported, not used.
        assert!(rs.factor(2, &[1.0, 0.0, 0.0, 1.0], &[]));
        assert!(!rs.solve(&[f64::INFINITY, 0.0], &[], &mut [0.0; 2], &mut []));
    }
}
