//! The functions machine code calls, by name: the core's own `nhlab::math`, so
//! that native and interpreted programs compute the same bits (the interpreter
//! calls exactly these).

use nhlab::expr::{Function, Op};
use nhlab::math;

type Unary = extern "C" fn(f64) -> f64;
type Binary = extern "C" fn(f64, f64) -> f64;

/// The functions machine code calls for [`Function`]s, each with its symbol (`abs`
/// and `sign` are instructions: they have none).
macro_rules! unary {
    ($($function:ident => $name:ident, $f:path;)*) => {
        $(
            extern "C" fn $name(x: f64) -> f64 {
                $f(x)
            }
        )*

        /// The symbol and code of a called function of one argument.
        fn unary(f: Function) -> Option<(&'static str, Unary)> {
            match f {
                $(Function::$function => Some((stringify!($name), $name as Unary)),)*
                Function::Abs | Function::Sign => None,
            }
        }
    };
}

unary! {
    Sin => nhlab_sin, math::sin;
    Cos => nhlab_cos, math::cos;
    Tan => nhlab_tan, math::tan;
    Asin => nhlab_asin, math::asin;
    Acos => nhlab_acos, math::acos;
    Atan => nhlab_atan, math::atan;
    Sinh => nhlab_sinh, math::sinh;
    Cosh => nhlab_cosh, math::cosh;
    Tanh => nhlab_tanh, math::tanh;
    Exp => nhlab_exp, math::exp;
    Ln => nhlab_ln, math::ln;
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
    match op {
        Op::Call(f) => unary(f).map(|(name, _)| (name, false)),
        Op::Powf => Some(("nhlab_powf", true)),
        Op::Atan2 => Some(("nhlab_atan2", true)),
        _ => None,
    }
}

/// The symbol of [`nhlab_sin_cos`].
pub(crate) const SIN_COS: &str = "nhlab_sin_cos";

/// Every symbol with its address, for the JIT's symbol table.
pub(crate) fn table() -> Vec<(&'static str, *const u8)> {
    let called = Function::ALL.into_iter().filter_map(unary);
    let mut table: Vec<(&'static str, *const u8)> = called.map(|(s, f)| (s, f as *const u8)).collect();
    let binary: [(&str, Binary); 2] = [("nhlab_powf", nhlab_powf), ("nhlab_atan2", nhlab_atan2)];
    let sin_cos: unsafe extern "C" fn(f64, *mut f64) = nhlab_sin_cos;
    table.extend(binary.iter().map(|&(s, f)| (s, f as *const u8)));
    table.push((SIN_COS, sin_cos as *const u8));
    table
}
