//! Eigenvalues against a swept value: the linearisation at each value, its
//! eigenvalues followed continuously from value to value (tracks), and the values
//! where the motion turns stable or unstable, refined by bisection.
//!
//! Shared by the command line and the page, which differ only in how they make the
//! linearisation at a value (the closure given to [`sweep`]).

use alloc::vec::Vec;

use nalgebra::{Complex, DMatrix};

use super::{modulus, Linearization};

/// A real part counts as positive above this, relative to the largest eigenvalue:
/// the neutral modes of a conservative system are zero only to round-off.
pub const NEUTRAL: f64 = 1e-9;

/// Most boundaries refined by bisection (each ~45 linearisations); past it they are
/// given to the sweep's step.
pub const MAX_REFINED: usize = 64;

/// Relative width to which a boundary is refined (of the swept range).
pub const BOUNDARY_TOLERANCE: f64 = 1e-12;

/// Where the motion changes stability.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Boundary {
    /// The swept value (to [`BOUNDARY_TOLERANCE`] of the range, unless `refined` is false).
    pub value: f64,
    /// Stable above `value` (in the sweep's direction), else unstable.
    pub becomes_stable: bool,
    /// Found by bisection; false past [`MAX_REFINED`] (then to the sweep's step).
    pub refined: bool,
}

/// A sweep's result.
#[derive(Clone, Debug)]
pub struct Sweep {
    /// The swept values, in order.
    pub values: Vec<f64>,
    /// The linearisation at each value, its eigenvalues reordered into tracks:
    /// `rows[k].eigenvalues[i]` continues `rows[k − 1].eigenvalues[i]`.
    pub rows: Vec<Linearization>,
    /// The stability boundaries, in order.
    pub boundaries: Vec<Boundary>,
}

impl Sweep {
    /// Boundary `b`'s value for people, to its accuracy: [`BOUNDARY_TOLERANCE`] of the
    /// range where it was refined, half a step where it was not.
    pub fn boundary_text(&self, b: &Boundary) -> alloc::string::String {
        let (first, last) = (self.values.first().copied().unwrap_or(0.0), self.values.last().copied().unwrap_or(0.0));
        let step = self.values.get(1).map_or(0.0, |x| x - first);
        let accuracy = if b.refined { BOUNDARY_TOLERANCE * (last - first).abs().max(1e-300) } else { step.abs() / 2.0 };
        crate::math::at_accuracy(b.value, accuracy)
    }

    /// Each eigenvalue track's `(re, im)` at every value (NaN where a row has fewer
    /// eigenvalues): what figures draw. A part within the neutral band of its row
    /// ([`NEUTRAL`] of the largest eigenvalue) is drawn as the zero it stands for, so
    /// that an axis never magnifies round-off (`Re λ = ±5e-16` filling a chart).
    pub fn tracks(&self) -> Vec<Vec<(f64, f64)>> {
        let count = self.rows.first().map_or(0, |r| r.eigenvalues.len());
        (0..count)
            .map(|i| {
                self.rows
                    .iter()
                    .map(|r| {
                        let band = NEUTRAL * scale(r);
                        let snap = |x: f64| if x.abs() <= band { 0.0 } else { x };
                        r.eigenvalues.get(i).map_or((f64::NAN, f64::NAN), |e| (snap(e.re), snap(e.im)))
                    })
                    .collect()
            })
            .collect()
    }

    /// Per row, whether the motion there is only *marginally* stable: stable, with an
    /// eigenvalue that is not a structural zero on the imaginary axis (within the
    /// neutral band) — a neutral oscillation, as the upright coin's above its critical
    /// spin. Linear analysis cannot decide such a motion's stability. Structural zeros
    /// (as many as every row has: a family of steady motions, a held or conserved
    /// quantity, as the sleigh's heading) do not make a row marginal.
    pub fn marginal(&self) -> Vec<bool> {
        let zeros = |l: &Linearization| l.eigenvalues.iter().filter(|e| modulus(**e) <= NEUTRAL * scale(l)).count();
        let structural = self.rows.iter().map(zeros).min().unwrap_or(0);
        self.rows
            .iter()
            .map(|l| {
                let band = NEUTRAL * scale(l);
                let neutral = l.eigenvalues.iter().filter(|e| e.re.abs() <= band).count();
                is_stable(l) && neutral > structural
            })
            .collect()
    }
}

/// The largest real part beyond the neutral band, as a signed distance: positive
/// where the motion is unstable.
pub fn growth(lin: &Linearization) -> f64 {
    largest_real_part(lin) - NEUTRAL * scale(lin)
}

/// Whether every eigenvalue's real part is at most zero (within the neutral band).
pub fn is_stable(lin: &Linearization) -> bool {
    growth(lin) <= 0.0
}

/// Whether the motion is stable with an oscillation on the imaginary axis (a real
/// part zero within the neutral band, the frequency outside it): neutrally stable,
/// as the coin's wobble above its critical spin. A stability map's cell decides
/// alone; a sweep also asks that the mode be no structural zero (`marginal`).
pub fn is_neutral(lin: &Linearization) -> bool {
    let band = NEUTRAL * scale(lin);
    is_stable(lin) && lin.eigenvalues.iter().any(|e| e.re.abs() <= band && e.im.abs() > band)
}

fn largest_real_part(lin: &Linearization) -> f64 {
    lin.eigenvalues.iter().map(|e| e.re).fold(f64::MIN, f64::max)
}

fn scale(lin: &Linearization) -> f64 {
    lin.eigenvalues.iter().map(|e| modulus(*e)).fold(1.0, f64::max)
}

/// Linearises at every value of `values` (increasing) with `at`, follows the
/// eigenvalues and refines each change of stability by bisection.
pub fn sweep<E>(values: &[f64], mut at: impl FnMut(f64) -> Result<Linearization, E>) -> Result<Sweep, E> {
    let mut rows: Vec<Linearization> = Vec::with_capacity(values.len());
    let mut boundaries = Vec::new();
    let range = match values {
        [first, .., last] => (last - first).abs(),
        _ => 0.0,
    };
    let tolerance = BOUNDARY_TOLERANCE * range.max(1e-300);
    for (k, &x) in values.iter().enumerate() {
        let mut lin = at(x)?;
        if let Some(previous) = rows.last() {
            if is_stable(previous) != is_stable(&lin) {
                let refined = boundaries.len() < MAX_REFINED;
                let value = if refined {
                    refine((values[k - 1], previous), (x, &lin), tolerance, &mut at)?
                } else {
                    0.5 * (values[k - 1] + x)
                };
                boundaries.push(Boundary { value, becomes_stable: is_stable(&lin), refined });
            }
            follow(&previous.eigenvalues, &mut lin.eigenvalues);
        }
        rows.push(lin);
    }
    Ok(Sweep { values: values.to_vec(), rows, boundaries })
}

/// Where between `lo` and `hi` (a value and its linearisation, of opposite
/// stability) the motion changes stability, to `tolerance`: the root of a quantity
/// whose sign tells the two sides apart (the principal minors' sum for a crossing
/// through zero, else the largest real part or the growth), found by Brent's method
/// — inverse quadratic and secant steps inside a bracket that bisection guarantees to
/// shrink — in about 8 linearisations where bisection took 30 (a stability map's
/// boundaries were half its time). The bracket is kept: the value is within
/// `tolerance` of where the sign changes.
pub fn refine<E>(
    lo: (f64, &Linearization),
    hi: (f64, &Linearization),
    tolerance: f64,
    at: &mut impl FnMut(f64) -> Result<Linearization, E>,
) -> Result<f64, E> {
    let (previous, lin) = (lo.1, hi.1);
    let (pg, g) = (growth(previous), growth(lin));
    let through_zero = zero_crossing(previous, lin);
    // Where the stable side has no neutral mode (every real part clearly negative),
    // the crossing is of the largest real part itself, found without the band's
    // offset; else of the band.
    let stable_side = if g > 0.0 { previous } else { lin };
    let raw = largest_real_part(stable_side) / scale(stable_side) < -10.0 * NEUTRAL;
    // The quantity, signed so that it is positive on `lo`'s side (`None`: no value,
    // and the side is all that is known: ±1).
    let side = |l: &Linearization| -> f64 {
        let (value, like_lo) = match through_zero {
            Some((order, sign_lo)) => match symmetric_sum(&l.matrix, order) {
                Some(v) => (v.abs(), v.signum() == sign_lo),
                None => (1.0, false),
            },
            None if raw => {
                let v = largest_real_part(l);
                (v.abs(), (v > 0.0) == (pg > 0.0))
            }
            None => {
                let v = growth(l);
                (v.abs(), (v > 0.0) == (pg > 0.0))
            }
        };
        let value = if value.is_finite() { value } else { 1.0 };
        if like_lo {
            value
        } else {
            -value
        }
    };
    let (mut a, mut b) = (lo.0, hi.0);
    // Each end's value with its sign fixed by its side: `lo`'s positive, `hi`'s
    // negative (an end whose value is 0 counts as a unit away, to keep the bracket).
    let (mut fa, mut fb) = (side(previous).abs().max(f64::MIN_POSITIVE), -side(lin).abs().max(f64::MIN_POSITIVE));
    let (mut c, mut fc) = (a, fa);
    let (mut d, mut e) = (b - a, b - a);
    loop {
        if fb.signum() == fc.signum() {
            (c, fc) = (a, fa);
            d = b - a;
            e = d;
        }
        if fc.abs() < fb.abs() {
            (a, b, c) = (b, c, b);
            (fa, fb, fc) = (fb, fc, fb);
        }
        let m = 0.5 * (c - b);
        if m.abs() <= 0.5 * tolerance {
            return Ok(b + m);
        }
        if e.abs() >= 0.5 * tolerance && fa.abs() > fb.abs() {
            // Interpolation: secant with two points, inverse quadratic with three.
            let s = fb / fa;
            let (mut p, mut q) = if a == c {
                (2.0 * m * s, 1.0 - s)
            } else {
                let (qa, r) = (fa / fc, fb / fc);
                (s * (2.0 * m * qa * (qa - r) - (b - a) * (r - 1.0)), (qa - 1.0) * (r - 1.0) * (s - 1.0))
            };
            if p > 0.0 {
                q = -q;
            } else {
                p = -p;
            }
            if 2.0 * p < (3.0 * m * q - (0.5 * tolerance * q).abs()).min((e * q).abs()) {
                e = d;
                d = p / q;
            } else {
                (d, e) = (m, m);
            }
        } else {
            (d, e) = (m, m);
        }
        (a, fa) = (b, fb);
        b += if d.abs() > 0.5 * tolerance { d } else { (0.5 * tolerance).copysign(m) };
        fb = side(&at(b)?);
    }
}

/// Most principal minors summed for a crossing through zero.
const MAX_MINORS: usize = 5_000;

/// When stability changes because eigenvalues pass through zero (a real one, or a
/// pair turning from ±a to ±ib), the sum of the principal minors of the order that
/// skips the structural zero eigenvalues (held or conserved quantities, present on
/// both sides) changes sign there. Unlike the eigenvalues themselves — only
/// `ε^(1/k)`-accurate near a k-fold zero — it is a polynomial in the matrix, so its
/// sign locates the boundary to round-off. Returns that order and its sign at `a`.
fn zero_crossing(a: &Linearization, b: &Linearization) -> Option<(usize, f64)> {
    let zeros = |l: &Linearization| l.eigenvalues.iter().filter(|e| modulus(**e) < 1e-6 * scale(l)).count();
    let k = a.matrix.nrows();
    let order = k.checked_sub(zeros(a).min(zeros(b)))?;
    let (sa, sb) = (symmetric_sum(&a.matrix, order)?, symmetric_sum(&b.matrix, order)?);
    (sa != 0.0 && sb != 0.0 && sa.signum() != sb.signum()).then_some((order, sa.signum()))
}

/// The sum of the principal minors of `matrix` of size `order` (the elementary
/// symmetric polynomial of its eigenvalues), or `None` past [`MAX_MINORS`] minors.
fn symmetric_sum(matrix: &DMatrix<f64>, order: usize) -> Option<f64> {
    let k = matrix.nrows();
    if order == 0 || order > k || binomial(k, order) > MAX_MINORS {
        return None;
    }
    let mut rows: Vec<usize> = (0..order).collect();
    let mut sum = 0.0;
    loop {
        sum += DMatrix::from_fn(order, order, |r, c| matrix[(rows[r], rows[c])]).determinant();
        // The next subset in lexicographic order.
        let Some(i) = (0..order).rev().find(|&i| rows[i] < k - order + i) else { return Some(sum) };
        rows[i] += 1;
        for j in i + 1..order {
            rows[j] = rows[j - 1] + 1;
        }
    }
}

fn binomial(n: usize, k: usize) -> usize {
    (0..k.min(n - k)).fold(1usize, |acc, i| acc.saturating_mul(n - i) / (i + 1))
}

/// Reorders `next` so that each of its eigenvalues continues the nearest of
/// `previous` (greedy over all pairs, closest first): with a step small against the
/// eigenvalues' spacing this is the continuous continuation.
fn follow(previous: &[Complex<f64>], next: &mut [Complex<f64>]) {
    let n = previous.len().min(next.len());
    let mut pairs: Vec<(f64, usize, usize)> = Vec::with_capacity(n * n);
    for (i, p) in previous.iter().enumerate().take(n) {
        for (j, x) in next.iter().enumerate().take(n) {
            pairs.push((modulus(p - x), i, j));
        }
    }
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0));
    let (mut taken_i, mut taken_j) = (alloc::vec![false; n], alloc::vec![false; n]);
    let mut order = alloc::vec![usize::MAX; n];
    for (_, i, j) in pairs {
        if !taken_i[i] && !taken_j[j] {
            (taken_i[i], taken_j[j], order[i]) = (true, true, j);
        }
    }
    let reordered: Vec<Complex<f64>> = order.iter().map(|&j| next[j]).collect();
    next[..n].copy_from_slice(&reordered);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_sums_are_the_characteristic_coefficients() {
        let m = DMatrix::from_row_slice(3, 3, &[1.0, 2.0, 0.0, 3.0, 4.0, 1.0, 0.0, 5.0, 6.0]);
        assert_eq!(symmetric_sum(&m, 1), Some(11.0)); // the trace
        assert_eq!(symmetric_sum(&m, 2), Some((4.0 - 6.0) + 6.0 + (24.0 - 5.0))); // 2×2 minors
        assert!((symmetric_sum(&m, 3).unwrap() - m.determinant()).abs() < 1e-12);
        assert_eq!(binomial(20, 10), 184_756);
        assert_eq!(symmetric_sum(&DMatrix::zeros(20, 20), 10), None);
    }

    /// A linearisation of `matrix` alone (what the sweep's logic reads).
    fn of(matrix: DMatrix<f64>) -> Linearization {
        let mut eigenvalues = crate::math::eigenvalues(&matrix).unwrap();
        eigenvalues.sort_by(|a, b| a.re.total_cmp(&b.re).then(a.im.total_cmp(&b.im)));
        Linearization {
            state: Vec::new(),
            input_matrix: DMatrix::zeros(matrix.nrows(), 0),
            matrix,
            inputs: Vec::new(),
            eigenvalues,
            dependent_coordinates: Vec::new(),
            dependent_speeds: Vec::new(),
            held_speeds: Vec::new(),
            inputs_on_held_speeds: Vec::new(),
            residual: 0.0,
        }
    }

    /// An oscillator `ẍ = −k x` beside a heading that nothing restores (a structural
    /// zero, as the sleigh's), with a damping `c`: for `c = 0` the oscillation is
    /// neutral, its real parts round-off — drawn as zero, and marginal; for `c > 0` it
    /// is stable; the structural zero alone never makes a row marginal.
    #[test]
    fn round_off_plots_as_zero_and_neutral_rows_are_marginal() {
        let at = |c: f64| -> Result<Linearization, ()> {
            // A rotation of the oscillator's coordinates: its eigenvalues' real parts
            // come out as round-off, not exact zeros.
            let (s, co) = (0.3f64.sin(), 0.3f64.cos());
            let r = DMatrix::from_row_slice(2, 2, &[co, -s, s, co]);
            let block = &r * DMatrix::from_row_slice(2, 2, &[0.0, 1.0, -7.3, -c]) * r.transpose();
            let mut m = DMatrix::zeros(3, 3);
            m.view_mut((0, 0), (2, 2)).copy_from(&block);
            Ok(of(m))
        };
        let s = sweep(&[-1.0, -0.5, 0.0, 0.5, 1.0], at).unwrap();
        assert_eq!(s.marginal(), [false, false, true, false, false]);
        // Unstable for negative damping, stable from zero on (the neutral row counts
        // as stable: the band).
        assert!(matches!(s.boundaries[..], [Boundary { becomes_stable: true, .. }]), "{:?}", s.boundaries);
        let neutral = &s.rows[2];
        assert!(
            neutral.eigenvalues.iter().any(|e| e.re != 0.0 && e.re.abs() < 1e-14),
            "round-off is there: {:?}",
            neutral.eigenvalues
        );
        let tracks = s.tracks();
        assert!(tracks.iter().all(|t| t[2].0 == 0.0), "{tracks:?}");
        // A real part outside the band is kept as it is.
        assert!(tracks.iter().any(|t| (t[4].0 + 0.5).abs() < 1e-14), "{tracks:?}");
        // Only the structural zero: not marginal.
        let heading = sweep(&[1.0, 2.0], at).unwrap();
        assert_eq!(heading.marginal(), [false, false]);
    }

    #[test]
    fn follow_keeps_crossing_tracks_apart() {
        let previous = [Complex::new(-1.0, 0.0), Complex::new(1.0, 0.0)];
        let mut next = [Complex::new(0.9, 0.0), Complex::new(-0.9, 0.0)];
        follow(&previous, &mut next);
        assert_eq!(next, [Complex::new(-0.9, 0.0), Complex::new(0.9, 0.0)]);
    }
}
