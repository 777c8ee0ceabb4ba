//! The functions machine code calls, by name: the core's own `nhlab::math`, so
//! that native and interpreted programs compute the same bits (the interpreter
//! calls exactly these).

use nhlab::expr::Op;
use nhlab::math;

macro_rules! unary {
    ($($name:ident => $f:path;)*) => {$(
        extern "C" fn $name(x: f64) -> f64 {
            $f(x)
        }
    )*};
}

unary! {
    nhlab_sin => math::sin;
    nhlab_cos => math::cos;
    nhlab_tan => math::tan;
    nhlab_asin => math::asin;
    nhlab_acos => math::acos;
    nhlab_atan => math::atan;
    nhlab_sinh => math::sinh;
    nhlab_cosh => math::cosh;
    nhlab_tanh => math::tanh;
    nhlab_exp => math::exp;
    nhlab_ln => math::ln;
}

extern "C" fn nhlab_powf(x: f64, y: f64) -> f64 {
    math::powf(x, y)
}

extern "C" fn nhlab_atan2(y: f64, x: f64) -> f64 {
    math::atan2(y, x)
}

/// Sine and cosine into `out[0]` and `out[1]`.
///
/// # Safety
/// `out` points to two writable `f64` (a stack slot of the generated code).
unsafe extern "C" fn nhlab_sin_cos(x: f64, out: *mut f64) {
    let (s, c) = math::sin_cos(x);
    // SAFETY: the caller's contract.
    unsafe {
        *out = s;
        *out.add(1) = c;
    }
}

/// How an operation is called: its symbol and whether it takes two numbers.
pub(crate) fn symbol(op: Op) -> Option<(&'static str, bool)> {
    Some(match op {
        Op::Sin => ("nhlab_sin", false),
        Op::Cos => ("nhlab_cos", false),
        Op::Tan => ("nhlab_tan", false),
        Op::Asin => ("nhlab_asin", false),
        Op::Acos => ("nhlab_acos", false),
        Op::Atan => ("nhlab_atan", false),
        Op::Sinh => ("nhlab_sinh", false),
        Op::Cosh => ("nhlab_cosh", false),
        Op::Tanh => ("nhlab_tanh", false),
        Op::Exp => ("nhlab_exp", false),
        Op::Ln => ("nhlab_ln", false),
        Op::Powf => ("nhlab_powf", true),
        Op::Atan2 => ("nhlab_atan2", true),
        _ => return None,
    })
}

/// The symbol of [`nhlab_sin_cos`].
pub(crate) const SIN_COS: &str = "nhlab_sin_cos";

/// Every symbol with its address, for the JIT's symbol table.
pub(crate) fn table() -> Vec<(&'static str, *const u8)> {
    type Unary = extern "C" fn(f64) -> f64;
    type Binary = extern "C" fn(f64, f64) -> f64;
    let unary: [(&str, Unary); 11] = [
        ("nhlab_sin", nhlab_sin),
        ("nhlab_cos", nhlab_cos),
        ("nhlab_tan", nhlab_tan),
        ("nhlab_asin", nhlab_asin),
        ("nhlab_acos", nhlab_acos),
        ("nhlab_atan", nhlab_atan),
        ("nhlab_sinh", nhlab_sinh),
        ("nhlab_cosh", nhlab_cosh),
        ("nhlab_tanh", nhlab_tanh),
        ("nhlab_exp", nhlab_exp),
        ("nhlab_ln", nhlab_ln),
    ];
    let binary: [(&str, Binary); 2] = [("nhlab_powf", nhlab_powf), ("nhlab_atan2", nhlab_atan2)];
    let sin_cos: unsafe extern "C" fn(f64, *mut f64) = nhlab_sin_cos;
    let mut table: Vec<(&'static str, *const u8)> = unary.iter().map(|&(s, f)| (s, f as *const u8)).collect();
    table.extend(binary.iter().map(|&(s, f)| (s, f as *const u8)));
    table.push((SIN_COS, sin_cos as *const u8));
    table
}
