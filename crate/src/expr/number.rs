//! Numeric constants of the expression graph: exact rationals, with an `f64` fallback.
//!
//! Literals such as `0.5` or `1e-3` are exact decimals and become exact rationals, so
//! that `m/2*2` folds to `m` with no rounding. Arithmetic that would overflow `i64`
//! falls back to `f64` (contagious, like a float in ordinary arithmetic). A float
//! constant is always finite: an operation whose float result is not finite is not
//! folded at all (see [`Number::checked_pow`]).

use core::cmp::Ordering;
use core::hash::{Hash, Hasher};

/// An exact rational `num/den` in lowest terms with `den > 0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rational {
    num: i64,
    den: i64,
}

const fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        let r = a % b;
        a = b;
        b = r;
    }
    a
}

impl Rational {
    /// The integer `n`.
    pub const fn integer(n: i64) -> Self {
        Rational { num: n, den: 1 }
    }

    /// `num/den` reduced to lowest terms; `None` when `den` is 0 or the result does
    /// not fit (only `i64::MIN` edge cases).
    pub fn new(num: i64, den: i64) -> Option<Self> {
        Self::from_i128(num as i128, den as i128)
    }

    fn from_i128(num: i128, den: i128) -> Option<Self> {
        if den == 0 {
            return None;
        }
        // Most coefficients are small: reduce in 64 bits (128-bit division is a
        // library call, and this runs for every coefficient the canonicaliser folds).
        if let (Ok(n), Ok(d)) = (i64::try_from(num), i64::try_from(den)) {
            if n != i64::MIN && d != i64::MIN {
                let g = gcd(n.unsigned_abs(), d.unsigned_abs()).max(1) as i64;
                let (n, d) = (n / g, d / g);
                return Some(if d < 0 { Rational { num: -n, den: -d } } else { Rational { num: n, den: d } });
            }
        }
        let g = gcd(num.unsigned_abs() as u64, den.unsigned_abs() as u64).max(1) as i128;
        let (mut n, mut d) = (num / g, den / g);
        if d < 0 {
            n = -n;
            d = -d;
        }
        Some(Rational { num: i64::try_from(n).ok()?, den: i64::try_from(d).ok()? })
    }

    /// The numerator (carries the sign).
    pub const fn numer(self) -> i64 {
        self.num
    }

    /// The denominator, always positive.
    pub const fn denom(self) -> i64 {
        self.den
    }

    /// The nearest `f64`.
    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    fn add(self, o: Self) -> Option<Self> {
        if self.den == 1 && o.den == 1 {
            return self.num.checked_add(o.num).map(Rational::integer);
        }
        let (a, b, c, d) = (self.num as i128, self.den as i128, o.num as i128, o.den as i128);
        Self::from_i128(a.checked_mul(d)?.checked_add(c.checked_mul(b)?)?, b.checked_mul(d)?)
    }

    fn mul(self, o: Self) -> Option<Self> {
        if self.den == 1 && o.den == 1 {
            return self.num.checked_mul(o.num).map(Rational::integer);
        }
        let (a, b, c, d) = (self.num as i128, self.den as i128, o.num as i128, o.den as i128);
        Self::from_i128(a.checked_mul(c)?, b.checked_mul(d)?)
    }

    fn recip(self) -> Option<Self> {
        Self::new(self.den, self.num)
    }

    fn powi(self, n: i64) -> Option<Self> {
        let base = if n < 0 { self.recip()? } else { self };
        let mut k = n.unsigned_abs();
        let (mut acc, mut sq) = (Rational::integer(1), base);
        while k > 0 {
            if k & 1 == 1 {
                acc = acc.mul(sq)?;
            }
            k >>= 1;
            if k > 0 {
                sq = sq.mul(sq)?;
            }
        }
        Some(acc)
    }

    /// The exact `q`-th root of a non-negative rational, when there is one.
    fn exact_root(self, q: u32) -> Option<Self> {
        if self.num < 0 || q == 0 {
            return None;
        }
        let n = integer_root(self.num as u64, q)?;
        let d = integer_root(self.den as u64, q)?;
        Self::new(n as i64, d as i64)
    }
}

fn integer_root(x: u64, q: u32) -> Option<u64> {
    let guess = libm::round(libm::pow(x as f64, 1.0 / q as f64)) as u64;
    (guess.saturating_sub(1)..=guess + 1).find(|r| r.checked_pow(q) == Some(x))
}

/// A numeric constant: exact when possible.
#[derive(Clone, Copy, Debug)]
pub enum Number {
    /// An exact rational.
    Rational(Rational),
    /// A finite float, from a literal that is not an exact short decimal or from an
    /// operation that overflowed the rationals.
    Float(f64),
}

impl PartialEq for Number {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (Number::Rational(a), Number::Rational(b)) => a == b,
            (Number::Float(a), Number::Float(b)) => a.to_bits() == b.to_bits(),
            _ => false,
        }
    }
}
impl Eq for Number {}

impl Hash for Number {
    fn hash<H: Hasher>(&self, state: &mut H) {
        match self {
            Number::Rational(r) => {
                0u8.hash(state);
                r.hash(state)
            }
            Number::Float(f) => {
                1u8.hash(state);
                f.to_bits().hash(state)
            }
        }
    }
}

impl From<i64> for Number {
    fn from(n: i64) -> Self {
        Number::Rational(Rational::integer(n))
    }
}

impl Number {
    /// Zero.
    pub const ZERO: Number = Number::Rational(Rational::integer(0));
    /// One.
    pub const ONE: Number = Number::Rational(Rational::integer(1));
    /// Minus one.
    pub const MINUS_ONE: Number = Number::Rational(Rational::integer(-1));
    /// One half (the exponent of a square root).
    pub const HALF: Number = Number::Rational(Rational { num: 1, den: 2 });

    /// A float constant, as an exact rational when the float is an integer that fits.
    /// `None` for non-finite values.
    pub fn from_f64(x: f64) -> Option<Number> {
        if !x.is_finite() {
            return None;
        }
        if x == libm::trunc(x) && x.abs() < 9.0e15 {
            return Some(Number::from(x as i64));
        }
        Some(Number::Float(x))
    }

    /// The nearest `f64`.
    pub fn to_f64(self) -> f64 {
        match self {
            Number::Rational(r) => r.to_f64(),
            Number::Float(f) => f,
        }
    }

    /// Whether this is exactly zero.
    pub fn is_zero(self) -> bool {
        self.to_f64() == 0.0
    }

    /// Whether this is exactly one.
    pub fn is_one(self) -> bool {
        self == Number::ONE
    }

    /// Whether this is negative.
    pub fn is_negative(self) -> bool {
        self.to_f64() < 0.0
    }

    /// The integer value, when this is an exact integer.
    pub fn as_integer(self) -> Option<i64> {
        match self {
            Number::Rational(r) if r.den == 1 => Some(r.num),
            _ => None,
        }
    }

    /// The exact rational, if any.
    pub fn as_rational(self) -> Option<Rational> {
        match self {
            Number::Rational(r) => Some(r),
            Number::Float(_) => None,
        }
    }

    fn float_op(self, other: Number, op: impl Fn(f64, f64) -> f64) -> Number {
        // Finite inputs give finite sums and products except on overflow, which is
        // clamped rather than left infinite: a constant is always finite.
        let r = op(self.to_f64(), other.to_f64());
        Number::Float(if r.is_finite() { r } else { f64::MAX.copysign(r) })
    }

    /// `exact` of two rationals, or `float` of the two as doubles where either is a
    /// double or the exact result overflows.
    fn combine(
        self,
        other: Number,
        exact: impl Fn(Rational, Rational) -> Option<Rational>,
        float: impl Fn(f64, f64) -> f64,
    ) -> Number {
        match (self, other) {
            (Number::Rational(a), Number::Rational(b)) => match exact(a, b) {
                Some(r) => Number::Rational(r),
                None => self.float_op(other, float),
            },
            _ => self.float_op(other, float),
        }
    }

    /// The absolute value.
    pub fn abs(self) -> Number {
        if self.is_negative() {
            -self
        } else {
            self
        }
    }

    /// `self ^ exponent` when it is a finite real number that can be stated exactly
    /// (or, for float operands, finitely); `None` leaves the power unevaluated —
    /// `2^(1/2)` stays symbolic, `0^-1` is never folded to infinity.
    pub fn checked_pow(self, exponent: Number) -> Option<Number> {
        if let (Number::Rational(b), Number::Rational(e)) = (self, exponent) {
            if b.num == 0 && e.num < 0 {
                return None;
            }
            if e.den == 1 {
                return b.powi(e.num).map(Number::Rational).or_else(|| finite_pow(self, exponent));
            }
            let root = b.exact_root(u32::try_from(e.den).ok()?)?;
            return root.powi(e.num).map(Number::Rational);
        }
        finite_pow(self, exponent)
    }
}

fn finite_pow(b: Number, e: Number) -> Option<Number> {
    let r = crate::math::powf(b.to_f64(), e.to_f64());
    if r.is_finite() && (matches!(b, Number::Float(_)) || matches!(e, Number::Float(_)) || e.as_integer().is_some()) {
        Some(Number::Float(r))
    } else {
        None
    }
}

impl core::ops::Add for Number {
    type Output = Number;

    /// The sum (exact for rationals unless it overflows).
    fn add(self, other: Number) -> Number {
        self.combine(other, Rational::add, |x, y| x + y)
    }
}

impl core::ops::Mul for Number {
    type Output = Number;

    /// The product (exact for rationals unless it overflows).
    fn mul(self, other: Number) -> Number {
        self.combine(other, Rational::mul, |x, y| x * y)
    }
}

impl core::ops::Neg for Number {
    type Output = Number;

    fn neg(self) -> Number {
        self * Number::MINUS_ONE
    }
}

impl PartialOrd for Number {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        self.to_f64().partial_cmp(&other.to_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(n: i64, d: i64) -> Number {
        Number::Rational(Rational::new(n, d).unwrap())
    }

    #[test]
    fn rationals_reduce_and_keep_the_sign_in_the_numerator() {
        assert_eq!(Rational::new(6, -4).unwrap(), Rational::new(-3, 2).unwrap());
        assert_eq!(Rational::new(1, 0), None);
    }

    #[test]
    fn arithmetic_is_exact() {
        assert_eq!(q(1, 3) + q(1, 6), q(1, 2));
        assert_eq!(q(2, 3) * q(3, 4), q(1, 2));
        assert_eq!(q(2, 3).checked_pow(Number::from(-2)), Some(q(9, 4)));
        assert_eq!(q(4, 9).checked_pow(q(1, 2)), Some(q(2, 3)));
        assert_eq!(q(8, 27).checked_pow(q(-2, 3)), Some(q(9, 4)));
        assert_eq!(Number::from(2).checked_pow(q(1, 2)), None);
        assert_eq!(Number::from(-4).checked_pow(q(1, 2)), None);
        assert_eq!(Number::ZERO.checked_pow(Number::from(-1)), None);
    }

    #[test]
    fn overflow_falls_back_to_a_finite_float() {
        let big = Number::from(i64::MAX / 2);
        let p = big * big;
        assert!(matches!(p, Number::Float(x) if (x - 2.127e37).abs() < 1e35));
        assert_eq!(Number::from(10).checked_pow(Number::from(400)), None);
        assert!(matches!(Number::from(10).checked_pow(Number::from(30)), Some(Number::Float(_))));
    }
}
