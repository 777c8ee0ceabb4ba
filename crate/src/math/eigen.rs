//! The eigenvalues of a real square matrix: nalgebra's Hessenberg reduction, then a
//! port of LAPACK's `dlahqr` (the double-shift/single-shift QR algorithm with
//! Ahues–Tisseur deflation and exceptional shifts) and its `dlanv2` (the
//! standardised 2×2 block), eigenvalues only.
//!
//! Why not nalgebra's `complex_eigenvalues`: its Schur iteration has no exceptional
//! shifts and no iteration bound, so it loops for ever on matrices with repeated
//! eigenvalues (a 12×12 identity in a random basis never returns), and it reads
//! every 2×2 block as a complex pair, taking the square root of a negative number
//! (NaN) when the block holds two real, nearly equal eigenvalues — the coupled
//! pendula of a symmetric system. `dlahqr` is the routine LAPACK (and so NumPy) uses
//! for these sizes; it gives up only after `30·max(10, n)` iterations per
//! eigenvalue, and says so.

use alloc::vec;
use alloc::vec::Vec;

use nalgebra::{Complex, DMatrix};

use super::{abs, sqrt};

/// The QR iteration did not converge within its bound (LAPACK's `info > 0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NoConvergence;

/// The eigenvalues of the square matrix `a`, complex pairs as `σ + iω, σ − iω`
/// (positive `ω` first), in the order the iteration finds them. Non-finite entries
/// and an iteration that does not converge give `Err`.
pub fn eigenvalues(a: &DMatrix<f64>) -> Result<Vec<Complex<f64>>, NoConvergence> {
    let n = a.nrows();
    assert_eq!(n, a.ncols(), "eigenvalues of a square matrix");
    if n == 0 {
        return Ok(Vec::new());
    }
    if a.iter().any(|x| !x.is_finite()) {
        return Err(NoConvergence);
    }
    let mut h = nalgebra::linalg::Hessenberg::new(a.clone()).unpack_h();
    let (mut wr, mut wi) = (vec![0.0; n], vec![0.0; n]);
    hessenberg_qr(&mut h, &mut wr, &mut wi)?;
    Ok(wr.into_iter().zip(wi).map(|(re, im)| Complex::new(re, im)).collect())
}

const ULP: f64 = f64::EPSILON; // LAPACK's dlamch('P') = eps · base
const SAFE_MIN: f64 = f64::MIN_POSITIVE;
/// Exceptional shifts every `EXCEPTIONAL` iterations without a deflation.
const EXCEPTIONAL: usize = 10;

/// `dlahqr` with `wantt = wantz = false` on the whole of the Hessenberg `h`.
fn hessenberg_qr(h: &mut DMatrix<f64>, wr: &mut [f64], wi: &mut [f64]) -> Result<(), NoConvergence> {
    let n = h.nrows();
    if n == 1 {
        wr[0] = h[(0, 0)];
        return Ok(());
    }
    for j in 0..n.saturating_sub(3) {
        h[(j + 2, j)] = 0.0;
        h[(j + 3, j)] = 0.0;
    }
    if n >= 3 {
        h[(n - 1, n - 3)] = 0.0;
    }
    let small = SAFE_MIN * (n as f64 / ULP);
    let max_iterations = 30 * n.max(10);
    let mut since_deflation = 0;
    // `i` is one past the last row of the active block: rows `l..i` are unreduced.
    let mut i = n;
    while i > 0 {
        let mut l = 0;
        let mut converged = false;
        for _ in 0..=max_iterations {
            l = deflation_point(h, l, i, small);
            if l > 0 {
                h[(l, l - 1)] = 0.0;
            }
            if l + 2 >= i {
                converged = true;
                break;
            }
            since_deflation += 1;
            let (h11, h12, h21, h22) = if since_deflation % (2 * EXCEPTIONAL) == 0 {
                let s = abs(h[(i - 1, i - 2)]) + abs(h[(i - 2, i - 3)]);
                (0.75 * s + h[(i - 1, i - 1)], -0.4375 * s, s, 0.75 * s + h[(i - 1, i - 1)])
            } else if since_deflation % EXCEPTIONAL == 0 {
                let s = abs(h[(l + 1, l)]) + abs(h[(l + 2, l + 1)]);
                (0.75 * s + h[(l, l)], -0.4375 * s, s, 0.75 * s + h[(l, l)])
            } else {
                (h[(i - 2, i - 2)], h[(i - 2, i - 1)], h[(i - 1, i - 2)], h[(i - 1, i - 1)])
            };
            let shifts = shifts(h11, h12, h21, h22);
            let (m, v) = start(h, l, i, shifts);
            sweep(h, l, m, i, v);
        }
        if !converged {
            return Err(NoConvergence);
        }
        if l + 1 == i {
            wr[l] = h[(l, l)];
            wi[l] = 0.0;
        } else {
            let [(r1, i1), (r2, i2)] = standard_2x2(h[(l, l)], h[(l, l + 1)], h[(l + 1, l)], h[(l + 1, l + 1)]);
            (wr[l], wi[l], wr[l + 1], wi[l + 1]) = (r1, i1, r2, i2);
        }
        since_deflation = 0;
        i = l;
    }
    Ok(())
}

/// The first row `k ≥ lo` of the active block `lo..hi` below a negligible
/// subdiagonal entry `h[k][k−1]` (Ahues & Tisseur's criterion), or `lo`.
fn deflation_point(h: &DMatrix<f64>, lo: usize, hi: usize, small: f64) -> usize {
    let mut k = hi - 1;
    while k > lo {
        let sub = abs(h[(k, k - 1)]);
        if sub <= small {
            break;
        }
        let mut test = abs(h[(k - 1, k - 1)]) + abs(h[(k, k)]);
        if test == 0.0 {
            if k >= 2 {
                test += abs(h[(k - 1, k - 2)]);
            }
            if k + 1 < h.nrows() {
                test += abs(h[(k + 1, k)]);
            }
        }
        if sub <= ULP * test {
            let super_ = abs(h[(k - 1, k)]);
            let (ab, ba) = (sub.max(super_), sub.min(super_));
            let diagonal = abs(h[(k, k)]);
            let difference = abs(h[(k - 1, k - 1)] - h[(k, k)]);
            let (aa, bb) = (diagonal.max(difference), diagonal.min(difference));
            let s = aa + ab;
            if ba * (ab / s) <= small.max(ULP * (bb * (aa / s))) {
                break;
            }
        }
        k -= 1;
    }
    k
}

/// The two shifts `(re₁, im₁, re₂, im₂)` from the trailing 2×2 block: its complex
/// pair, or its real eigenvalue nearer `h22` twice.
fn shifts(h11: f64, h12: f64, h21: f64, h22: f64) -> [f64; 4] {
    let s = abs(h11) + abs(h12) + abs(h21) + abs(h22);
    if s == 0.0 {
        return [0.0; 4];
    }
    let (h11, h12, h21, h22) = (h11 / s, h12 / s, h21 / s, h22 / s);
    let trace = (h11 + h22) / 2.0;
    let det = (h11 - trace) * (h22 - trace) - h12 * h21;
    let root = sqrt(abs(det));
    if det >= 0.0 {
        [trace * s, root * s, trace * s, -root * s]
    } else {
        let (a, b) = (trace + root, trace - root);
        let nearer = if abs(a - h22) <= abs(b - h22) { a } else { b };
        [nearer * s, 0.0, nearer * s, 0.0]
    }
}

/// Where the double-shift sweep starts (two consecutive small subdiagonal entries),
/// and the first column of `(H − s₁)(H − s₂)` there, scaled.
fn start(h: &DMatrix<f64>, l: usize, i: usize, [r1, i1, r2, i2]: [f64; 4]) -> (usize, [f64; 3]) {
    let mut m = i - 3;
    loop {
        let s = abs(h[(m, m)] - r2) + abs(i2) + abs(h[(m + 1, m)]);
        let h21 = h[(m + 1, m)] / s;
        let mut v = [
            h21 * h[(m, m + 1)] + (h[(m, m)] - r1) * ((h[(m, m)] - r2) / s) - i1 * (i2 / s),
            h21 * (h[(m, m)] + h[(m + 1, m + 1)] - r1 - r2),
            h21 * h[(m + 2, m + 1)],
        ];
        let s = abs(v[0]) + abs(v[1]) + abs(v[2]);
        v.iter_mut().for_each(|x| *x /= s);
        if m == l {
            return (m, v);
        }
        let h00 = abs(h[(m, m - 1)]) * (abs(v[1]) + abs(v[2]));
        let h01 = abs(v[0]) * (abs(h[(m - 1, m - 1)]) + abs(h[(m, m)]) + abs(h[(m + 1, m + 1)]));
        if h00 <= ULP * h01 {
            return (m, v);
        }
        m -= 1;
    }
}

/// One implicit double-shift QR sweep over rows and columns `l..i` from row `m`,
/// chasing the bulge with 3×3 (and a last 2×2) Householder reflectors.
fn sweep(h: &mut DMatrix<f64>, l: usize, m: usize, i: usize, mut v: [f64; 3]) {
    for k in m..i - 1 {
        let nr = 3.min(i - k);
        if k > m {
            for (r, x) in v.iter_mut().enumerate().take(nr) {
                *x = h[(k + r, k - 1)];
            }
        }
        let tau = reflector(&mut v[..nr]);
        if k > m {
            h[(k, k - 1)] = v[0];
            h[(k + 1, k - 1)] = 0.0;
            if k + 2 < i {
                h[(k + 2, k - 1)] = 0.0;
            }
        } else if m > l {
            // LAPACK: not `-h`, which goes wrong when v₂ and v₃ underflow.
            h[(k, k - 1)] *= 1.0 - tau;
        }
        let (v2, t2) = (v[1], tau * v[1]);
        let (v3, t3) = if nr == 3 { (v[2], tau * v[2]) } else { (0.0, 0.0) };
        for j in k..i {
            let third = if nr == 3 { v3 * h[(k + 2, j)] } else { 0.0 };
            let sum = h[(k, j)] + v2 * h[(k + 1, j)] + third;
            h[(k, j)] -= sum * tau;
            h[(k + 1, j)] -= sum * t2;
            if nr == 3 {
                h[(k + 2, j)] -= sum * t3;
            }
        }
        for j in l..i.min(k + 4) {
            let third = if nr == 3 { v3 * h[(j, k + 2)] } else { 0.0 };
            let sum = h[(j, k)] + v2 * h[(j, k + 1)] + third;
            h[(j, k)] -= sum * tau;
            h[(j, k + 1)] -= sum * t2;
            if nr == 3 {
                h[(j, k + 2)] -= sum * t3;
            }
        }
    }
}

/// LAPACK's `dlarfg`: the reflector `I − τ (1, v)(1, v)ᵀ` that maps `x` to `(β, 0…)`;
/// `x` is overwritten by `(β, v)` and `τ` returned.
fn reflector(x: &mut [f64]) -> f64 {
    let alpha = x[0];
    let tail = sqrt(x[1..].iter().map(|t| t * t).sum::<f64>());
    if tail == 0.0 {
        return 0.0;
    }
    let norm = hypot(alpha, tail);
    let beta = if alpha >= 0.0 { -norm } else { norm };
    let tau = (beta - alpha) / beta;
    let scale = 1.0 / (alpha - beta);
    x[1..].iter_mut().for_each(|t| *t *= scale);
    x[0] = beta;
    tau
}

/// `sqrt(a² + b²)` without overflow (LAPACK's `dlapy2`).
fn hypot(a: f64, b: f64) -> f64 {
    let (big, little) = (abs(a).max(abs(b)), abs(a).min(abs(b)));
    if big == 0.0 {
        0.0
    } else {
        big * sqrt(1.0 + (little / big) * (little / big))
    }
}

/// `copysign`: `|a|` with the sign of `b` (Fortran's `SIGN`).
fn with_sign(a: f64, b: f64) -> f64 {
    if b.is_sign_negative() {
        -abs(a)
    } else {
        abs(a)
    }
}

/// LAPACK's `dlanv2`: the eigenvalues of `[[a, b], [c, d]]` from its standardised
/// Schur form — real ones from an upper triangle, a complex pair from equal diagonal
/// entries — so two nearly equal real eigenvalues are never read as a pair.
fn standard_2x2(mut a: f64, mut b: f64, mut c: f64, mut d: f64) -> [(f64, f64); 2] {
    const MULTIPLE: f64 = 4.0;
    if c == 0.0 {
    } else if b == 0.0 {
        core::mem::swap(&mut a, &mut d);
        b = -c;
        c = 0.0;
    } else if a - d == 0.0 && with_sign(1.0, b) != with_sign(1.0, c) {
    } else {
        let temp = a - d;
        let mut p = 0.5 * temp;
        let bcmax = abs(b).max(abs(c));
        let bcmis = abs(b).min(abs(c)) * with_sign(1.0, b) * with_sign(1.0, c);
        let scale = abs(p).max(bcmax);
        let z = (p / scale) * p + (bcmax / scale) * bcmis;
        if z >= MULTIPLE * ULP {
            // Real eigenvalues.
            let z = p + with_sign(sqrt(scale) * sqrt(z), p);
            a = d + z;
            d -= (bcmax / z) * bcmis;
            b -= c;
            c = 0.0;
        } else {
            // A complex pair or nearly equal reals: make the diagonal entries equal.
            let (mut sigma, mut temp) = (b + c, temp);
            let (small, large) = scaling_pair();
            for _ in 0..=20 {
                let scale = abs(temp).max(abs(sigma));
                if scale >= large {
                    sigma *= small;
                    temp *= small;
                } else if scale <= small {
                    sigma *= large;
                    temp *= large;
                } else {
                    break;
                }
            }
            p = 0.5 * temp;
            let tau = hypot(sigma, temp);
            let cs = sqrt(0.5 * (1.0 + abs(sigma) / tau));
            let sn = -(p / (tau * cs)) * with_sign(1.0, sigma);
            let (aa, bb, cc, dd) = (a * cs + b * sn, -a * sn + b * cs, c * cs + d * sn, -c * sn + d * cs);
            b = bb * cs + dd * sn;
            c = -aa * sn + cc * cs;
            let mean = 0.5 * ((aa * cs + cc * sn) + (-bb * sn + dd * cs));
            a = mean;
            d = mean;
            if c != 0.0 {
                if b != 0.0 {
                    if with_sign(1.0, b) == with_sign(1.0, c) {
                        // Real eigenvalues: reduce to upper triangular form.
                        let p = with_sign(sqrt(abs(b)) * sqrt(abs(c)), c);
                        a = mean + p;
                        d = mean - p;
                        b -= c;
                        c = 0.0;
                    }
                } else {
                    b = -c;
                    c = 0.0;
                }
            }
        }
    }
    if c == 0.0 {
        [(a, 0.0), (d, 0.0)]
    } else {
        let im = sqrt(abs(b)) * sqrt(abs(c));
        [(a, im), (d, -im)]
    }
}

/// LAPACK's `safmn2` and `safmx2`: powers of two that rescale a 2×2 block into range.
fn scaling_pair() -> (f64, f64) {
    // base^(⌊log_base(safmin / eps) / 2⌋) with base 2: 2^⌊(−1022 + 52) / 2⌋ = 2^−485.
    let small = super::powi(2.0, -485);
    (small, 1.0 / small)
}

#[cfg(test)]
mod tests {
    use super::{eigenvalues, standard_2x2};
    use nalgebra::DMatrix;

    #[test]
    fn a_block_with_two_equal_real_eigenvalues_is_read_as_reals() {
        // [[1, 1], [1e-20, 1]]: eigenvalues 1 ± 1e-10, both real.
        let [(a, ai), (d, di)] = standard_2x2(1.0, 1.0, 1e-20, 1.0);
        assert!(ai == 0.0 && di == 0.0, "{a} {ai} {d} {di}");
        assert!((a - 1.0).abs() < 1e-9 && (d - 1.0).abs() < 1e-9);
        // A rotation block stays a complex pair.
        let [(a, ai), (_, di)] = standard_2x2(0.0, -2.0, 2.0, 0.0);
        assert!(a == 0.0 && (ai - 2.0).abs() < 1e-15 && di == -ai, "{a} {ai} {di}");
    }

    #[test]
    fn the_identity_and_the_empty_matrix() {
        let e = eigenvalues(&DMatrix::identity(12, 12)).unwrap();
        assert!(e.iter().all(|z| *z == nalgebra::Complex::new(1.0, 0.0)), "{e:?}");
        assert!(eigenvalues(&DMatrix::zeros(0, 0)).unwrap().is_empty());
        assert!(eigenvalues(&DMatrix::from_element(2, 2, f64::NAN)).is_err());
    }
}
