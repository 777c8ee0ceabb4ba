//! The hook for machine code compiled from a [`Program`] outside the core (the
//! `nhlab-native` crate compiles it with Cranelift for the command line), so that
//! the core stays `no_std`, free of `unsafe` and small in wasm. The core calls such
//! code through [`NativeEvaluator`], which runs the prologue only when a slow input
//! changed, as [`super::Evaluator`] does.

use alloc::sync::Arc;
use alloc::vec::Vec;

use super::Program;

/// A [`Program`] compiled to machine code, giving the interpreter's values. Its
/// inputs and outputs come in parts (a model's `t`, `q`, `v` and parameters; its
/// `q̈`, `λ` and a flag), each a slice of the length fixed when compiling, so that
/// a caller passes its own buffers and nothing is copied.
pub trait CompiledCode: Send + Sync + core::fmt::Debug {
    /// Runs the prologue (the instructions that read only constants and slow
    /// inputs), leaving its values in `registers` (the program's register file).
    /// False, and nothing run, when a slice has the wrong length.
    fn prologue(&self, inputs: &[&[f64]], registers: &mut [f64]) -> bool;
    /// Runs the rest: `outputs` from `inputs` and the prologue's values in
    /// `registers`. False, and nothing run, when a slice has the wrong length.
    fn body(&self, inputs: &[&[f64]], registers: &mut [f64], outputs: &mut [&mut [f64]]) -> bool;
}

/// Runs [`CompiledCode`] with its own registers, remembering the slow inputs (the
/// last input part).
#[derive(Clone, Debug)]
pub struct NativeEvaluator {
    code: Arc<dyn CompiledCode>,
    registers: Vec<f64>,
    /// The slow inputs the prologue last ran for, if `primed`.
    slow: Vec<f64>,
    primed: bool,
}

impl NativeEvaluator {
    /// An evaluator of `code`, compiled from `program`.
    pub fn new(program: &Program, code: Arc<dyn CompiledCode>) -> Self {
        NativeEvaluator { code, registers: alloc::vec![0.0; program.registers], slow: Vec::new(), primed: false }
    }

    /// Evaluates every output at `inputs`, in the parts the code was compiled for
    /// (the last part holds the slow inputs of [`Program::hoist`]); false when the
    /// shapes are wrong.
    pub fn eval(&mut self, inputs: &[&[f64]], outputs: &mut [&mut [f64]]) -> bool {
        let slow = inputs.last().copied().unwrap_or_default();
        let same = self.primed
            && self.slow.len() == slow.len()
            && self.slow.iter().zip(slow).all(|(x, y)| x.to_bits() == y.to_bits());
        if !same {
            self.primed = self.code.prologue(inputs, &mut self.registers);
            if !self.primed {
                return false;
            }
            self.slow.clear();
            self.slow.extend_from_slice(slow);
        }
        self.code.body(inputs, &mut self.registers, outputs)
    }
}

/// Each part's address (a pointer, or an offset in wasm's memory), when the slices
/// have exactly the lengths `parts` the code was compiled for, at most `N` of them:
/// the check every back end makes before running its code. Slots past the parts
/// hold `empty`.
pub fn part_addresses<A: Copy, const N: usize>(
    parts: &[usize],
    slices: impl ExactSizeIterator<Item = (usize, A)>,
    empty: A,
) -> Option<[A; N]> {
    if slices.len() != parts.len() || parts.len() > N {
        return None;
    }
    let mut out = [empty; N];
    for ((slot, (len, address)), &want) in out.iter_mut().zip(slices).zip(parts) {
        if len != want {
            return None;
        }
        *slot = address;
    }
    Some(out)
}
