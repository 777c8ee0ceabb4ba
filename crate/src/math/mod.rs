//! Float functions for the core: the same code on every platform.
//!
//! Transcendental functions always come from the `libm` crate, compiled from the same
//! source for x86-64, aarch64 and wasm32, so the command line and the browser compute
//! the same bits: a share link's run, the page's CSV and `nhlab run` agree number for
//! number. (The platform's `sin` differs in the last bit between glibc and wasm's
//! compiler-builtins, and integration amplifies that into visibly different CSVs.)
//! `sqrt` and `abs` are correctly rounded everywhere, so they use the hardware
//! instruction where `std` provides it.
//!
//! Why not `num-traits` or nalgebra's `RealField`: the evaluator only needs these
//! scalar functions, and a thin module keeps the choice of implementation in one
//! visible place.
//!
//! Beside them, the two linear solvers the methods run at every right-hand side,
//! on plain slices and without allocation: a dense LU ([`Workspace`]) and the
//! range-space factors of a saddle-point system ([`RangeSpace`]).

mod dense;
mod eigen;
pub(crate) mod jacobi;
mod range_space;
mod rank;

pub use dense::Workspace;
pub use eigen::{eigenvalues, NoConvergence};
pub use range_space::{RangeSpace, MASS_PIVOT, SCHUR_PIVOT};
pub use rank::{best_split, independent_rows};

macro_rules! portable {
    ($($(#[$doc:meta])* $name:ident => $libm:ident;)*) => {$(
        $(#[$doc])*
        #[inline]
        pub fn $name(x: f64) -> f64 {
            libm::$libm(x)
        }
    )*};
}

macro_rules! unary {
    ($($(#[$doc:meta])* $name:ident => $std:ident, $libm:ident;)*) => {$(
        $(#[$doc])*
        #[inline]
        pub fn $name(x: f64) -> f64 {
            #[cfg(feature = "std")]
            { f64::$std(x) }
            #[cfg(not(feature = "std"))]
            { libm::$libm(x) }
        }
    )*};
}

portable! {
    /// Sine.
    sin => sin;
    /// Cosine.
    cos => cos;
    /// Tangent.
    tan => tan;
    /// Arc sine (NaN outside [-1, 1]).
    asin => asin;
    /// Arc cosine (NaN outside [-1, 1]).
    acos => acos;
    /// Arc tangent.
    atan => atan;
    /// Hyperbolic sine.
    sinh => sinh;
    /// Hyperbolic cosine.
    cosh => cosh;
    /// Hyperbolic tangent.
    tanh => tanh;
    /// Exponential.
    exp => exp;
    /// Natural logarithm (NaN for negative arguments, -inf at 0).
    ln => log;
}

unary! {
    /// Square root (NaN for negative arguments).
    sqrt => sqrt, sqrt;
    /// Absolute value.
    abs => abs, fabs;
}

/// Sine and cosine of the same angle, in one call (bit-identical to [`sin`] and [`cos`]).
#[inline]
pub fn sin_cos(x: f64) -> (f64, f64) {
    libm::sincos(x)
}

/// Four-quadrant arc tangent of `y / x`.
#[inline]
pub fn atan2(y: f64, x: f64) -> f64 {
    libm::atan2(y, x)
}

/// `x` raised to a real power.
#[inline]
pub fn powf(x: f64, y: f64) -> f64 {
    libm::pow(x, y)
}

/// `x` raised to an integer power by repeated squaring: the same rounding natively
/// and in wasm, and no libm call for the common small powers.
#[inline]
pub fn powi(x: f64, n: i32) -> f64 {
    let mut base = if n < 0 { 1.0 / x } else { x };
    let mut k = n.unsigned_abs();
    let mut acc = 1.0;
    while k > 0 {
        if k & 1 == 1 {
            acc *= base;
        }
        base *= base;
        k >>= 1;
    }
    acc
}

/// The sign of `x`: -1, 0 or 1 (0 at ±0; NaN stays NaN). This is the derivative of
/// `abs`, with the symmetric choice 0 at the kink.
#[inline]
pub fn sign(x: f64) -> f64 {
    if x > 0.0 {
        1.0
    } else if x < 0.0 {
        -1.0
    } else {
        x * 0.0
    }
}

/// A number for messages: as Rust writes it (`2`, `1.1478`), but in exponent form
/// beyond `1e15` or below `1e-4` (`1e300`, not a 301-digit number).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Short(pub f64);

impl core::fmt::Display for Short {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let x = self.0;
        if x == 0.0 || !x.is_finite() || (1e-4..1e15).contains(&x.abs()) {
            write!(f, "{x}")
        } else {
            write!(f, "{x:e}")
        }
    }
}

/// A time for a message: six significant digits (`t = 1.14782`), enough to find the
/// place on a plot's axis, where all seventeen would read as noise.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ShortTime(pub f64);

impl core::fmt::Display for ShortTime {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let rounded: f64 = alloc::format!("{:.5e}", self.0).parse().unwrap_or(self.0);
        Short(rounded).fmt(f)
    }
}

/// `x` for a message: round-off below 1e-12 as 0, else at most 9 significant digits
/// (`0.6`, `-1.25e-7`), never a 30-digit decimal.
pub fn short_number(x: f64) -> alloc::string::String {
    if x.abs() < 1e-12 {
        return alloc::string::String::from("0");
    }
    let s = alloc::format!("{x:.8e}");
    let (mantissa, exponent) = s.split_once('e').unwrap_or((&s, "0"));
    let mantissa = mantissa.trim_end_matches('0').trim_end_matches('.');
    match exponent.parse::<i32>().unwrap_or(0) {
        0 => mantissa.into(),
        e if (-4..9).contains(&e) => {
            let fixed = alloc::format!("{:.*}", (8 - e) as usize, x);
            fixed.trim_end_matches('0').trim_end_matches('.').into()
        }
        e => alloc::format!("{mantissa}e{e}"),
    }
}

/// `x` for people, known to `accuracy` (absolute): the shortest decimal within it
/// (`-9e-10` for `-8.99890437722207e-10` known to 4e-12), written as [`Short`]
/// writes it; `0` where `|x|` is within the accuracy.
pub fn at_accuracy(x: f64, accuracy: f64) -> alloc::string::String {
    if !x.is_finite() || accuracy.is_nan() || accuracy <= 0.0 {
        return alloc::format!("{}", Short(x));
    }
    if x.abs() <= accuracy {
        return alloc::string::String::from("0");
    }
    for digits in 1..17 {
        let text = alloc::format!("{:.*e}", digits - 1, x);
        if let Ok(y) = text.parse::<f64>() {
            if (y - x).abs() <= accuracy {
                return alloc::format!("{}", Short(y));
            }
        }
    }
    alloc::format!("{}", Short(x))
}

#[cfg(test)]
mod message_tests {
    use super::{at_accuracy, short_number, Short};
    use alloc::format;

    #[test]
    fn numbers_in_messages_stay_short() {
        for (x, text) in
            [(2.0, "2"), (1.25, "1.25"), (1e300, "1e300"), (-3e-7, "-3e-7"), (f64::INFINITY, "inf"), (0.0, "0")]
        {
            assert_eq!(format!("{}", Short(x)), text);
        }
    }

    #[test]
    fn times_in_messages_have_six_digits() {
        for (x, text) in [(1.147815161625696, "1.14782"), (1999.99, "1999.99"), (2.0, "2"), (3.2e-7, "3.2e-7")] {
            assert_eq!(format!("{}", super::ShortTime(x)), text);
        }
    }

    #[test]
    fn numbers_known_to_an_accuracy_are_written_to_it() {
        for (x, accuracy, text) in [
            (-8.99890437722207e-10, 4e-12, "-9e-10"),
            (4.290059418, 1e-6, "4.29006"),
            (0.10000000000000009, 1e-9, "0.1"),
            (3e-13, 4e-12, "0"),
            (123456.789, 0.01, "123456.79"),
            (2.0, 1e-12, "2"),
        ] {
            assert_eq!(at_accuracy(x, accuracy), text, "{x} ± {accuracy}");
            if text != "0" {
                assert!((text.parse::<f64>().unwrap() - x).abs() <= accuracy, "{text} is within {accuracy} of {x}");
            }
        }
    }

    #[test]
    fn numbers_in_messages_are_short() {
        for (x, text) in [
            (0.0, "0"),
            (-6.66e-16, "0"),
            (0.6, "0.6"),
            (-2.5, "-2.5"),
            (1.0 / 3.0, "0.333333333"),
            (1.25e-7, "1.25e-7"),
            (3e12, "3e12"),
            (120.0, "120"),
        ] {
            assert_eq!(short_number(x), text, "{x}");
        }
    }
}
