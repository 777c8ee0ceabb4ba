//! A program's instructions as source lines: one assignment per instruction
//! (`r12 = r3*r7`), inputs read from the caller's arrays and parameter record,
//! constants written in place as the shortest text that reads back as the same
//! double. Operands are always names or literals, so no precedence is at stake;
//! a negative literal is parenthesised.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::expr::{Function, Op, Program};

/// How a language spells the pieces; where a method has a body, it is C's
/// spelling (`math.h`), which a language keeps unless it says otherwise.
pub(super) trait Syntax {
    /// `name = value` as a full line with `indent`.
    fn assign(&self, indent: &str, name: &str, value: &str) -> String;
    /// A one-argument function (`sin`, `sqrt`, `log`, …) by its C name.
    fn call(&self, function: &str, a: &str) -> String {
        format!("{}({a})", if function == "fabs" { self.abs() } else { function })
    }
    /// The name of `|x|` (C's `fabs`; `abs` in MATLAB and Python).
    fn abs(&self) -> &'static str {
        "fabs"
    }
    /// `a^k` for an integer `k`.
    fn powi(&self, a: &str, k: i32) -> String;
    /// `a^b`.
    fn powf(&self, a: &str, b: &str) -> String {
        format!("pow({a}, {b})")
    }
    /// `atan2(a, b)`.
    fn atan2(&self, a: &str, b: &str) -> String {
        format!("atan2({a}, {b})")
    }
    /// `sign(a)`: 1, −1, or `a·0` (0 or NaN), as the lab's interpreter (MATLAB's
    /// own `sign`, a helper of the file's own elsewhere).
    fn sign(&self, a: &str) -> String {
        format!("sign({a})")
    }
    /// A finite number's literal.
    fn number(&self, x: f64) -> String {
        format!("{x:?}")
    }
    /// The literals of NaN and +∞.
    fn non_finite(&self) -> (&'static str, &'static str);
}

/// A literal for `x`: the shortest text that reads back as `x`, negative ones in
/// parentheses.
pub(super) fn literal(syntax: &dyn Syntax, x: f64) -> String {
    let (nan, infinity) = syntax.non_finite();
    if x.is_nan() {
        return nan.into();
    }
    if x.is_infinite() {
        return if x > 0.0 { infinity.into() } else { format!("(-{infinity})") };
    }
    let text = syntax.number(x);
    if x < 0.0 || (x == 0.0 && x.is_sign_negative()) {
        format!("({text})")
    } else {
        text
    }
}

/// The body of `program`: its instructions as assignments to `prefix` + register
/// (`r12`), after `inputs[k]`, the text that reads input `k`. Returns the lines and
/// the text of every output.
pub(super) fn body(
    syntax: &dyn Syntax,
    program: &Program,
    inputs: &[String],
    indent: &str,
    declare: &dyn Fn(&str) -> String,
) -> (String, Vec<String>) {
    let n_in = program.input_count();
    let constants = program.constants();
    let operand = |r: u32| -> String {
        let r = r as usize;
        if r < n_in {
            inputs[r].clone()
        } else if r < n_in + constants.len() {
            literal(syntax, constants[r - n_in])
        } else {
            format!("r{r}")
        }
    };
    let (live, needed) = live_instructions(program);
    let mut text = String::new();
    for (ins, _) in program.code().iter().zip(&live).filter(|(_, &l)| l) {
        let (a, b) = (operand(ins.a), operand(ins.b));
        let dst = declare(&format!("r{}", ins.dst));
        let value = match ins.op {
            Op::Add => format!("{a} + {b}"),
            Op::Sub => format!("{a} - {b}"),
            Op::Mul => format!("{a}*{b}"),
            Op::Div => format!("{a}/{b}"),
            Op::Neg => format!("-{a}"),
            Op::Recip => format!("{}/{a}", syntax.number(1.0)),
            Op::Powi(k) => syntax.powi(&a, k),
            Op::Powf => syntax.powf(&a, &b),
            Op::Atan2 => syntax.atan2(&a, &b),
            Op::Call(Function::Sign) => syntax.sign(&a),
            Op::SinCos => {
                // Each half only where read.
                if needed[ins.dst as usize] {
                    text += &syntax.assign(indent, &dst, &syntax.call("sin", &a));
                }
                if needed[ins.dst as usize + 1] {
                    let cos = declare(&format!("r{}", ins.dst + 1));
                    text += &syntax.assign(indent, &cos, &syntax.call("cos", &a));
                }
                continue;
            }
            Op::Sqrt => syntax.call("sqrt", &a),
            // C's names, which each language's `call` translates.
            Op::Call(Function::Ln) => syntax.call("log", &a),
            Op::Call(Function::Abs) => syntax.call("fabs", &a),
            Op::Call(f) => syntax.call(f.name(), &a),
        };
        text += &syntax.assign(indent, &dst, &value);
    }
    let outputs = program.output_registers().iter().map(|&r| operand(r)).collect();
    (text, outputs)
}

/// Which instructions an output needs (the solve's block may compute a value no
/// output reads; compilers warn of an unused variable, and `-Werror` fails).
fn live_instructions(program: &Program) -> (Vec<bool>, Vec<bool>) {
    let mut needed = alloc::vec![false; program.register_count()];
    for &r in program.output_registers() {
        needed[r as usize] = true;
    }
    let code = program.code();
    let mut live = alloc::vec![false; code.len()];
    for (k, ins) in code.iter().enumerate().rev() {
        let dst = ins.dst as usize;
        let writes = needed[dst] || (ins.op == Op::SinCos && needed[dst + 1]);
        if writes {
            live[k] = true;
            needed[ins.a as usize] = true;
            if ins.op.is_binary() {
                needed[ins.b as usize] = true;
            }
        }
    }
    (live, needed)
}
