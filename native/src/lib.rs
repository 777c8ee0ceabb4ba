//! Machine code for nhlab's compiled programs: the command line's and the
//! benchmarks' right-hand sides without the interpreter's dispatch.
//!
//! A [`Program`] is straight-line SSA code over `f64` registers, so each of its
//! instructions becomes one Cranelift value and the whole program one function with
//! no branches (`codegen.rs`). Arithmetic is the same IEEE operation as the
//! interpreter's (no fused multiply-add), `sqrt` and `abs` are exact in both, and
//! every other function calls the core's own `nhlab::math` (`functions.rs`), so the
//! machine code gives the interpreter's values bit for bit (checked by the tests).
//!
//! Why Cranelift and not a C compiler or LLVM: it is a library from crates.io with
//! no system dependency, compiles a gallery model in milliseconds, and its code
//! runs the program without interpretation; the remaining cost against hand-written
//! closed forms is the solve's arithmetic itself. Why this crate and not the core:
//! the core is `no_std`, forbids `unsafe` and builds for wasm; calling generated
//! code needs `unsafe` and a host process. The core reaches the code only through
//! its safe [`CompiledCode`] trait.
//!
//! Lagrange's right-hand side is where it pays: [`use_for_lagrange`] compiles the
//! model's [`nhlab::formulations::lagrange_program`] (terms and the written-out solve) and
//! installs it; the model still falls back to its general route where the native
//! solve's pivots are small. With the diagnostics a sample records as the code's
//! tail ([`nhlab::simulation::lagrange_program_with_diagnostics`]), a sample runs only
//! them, from the values the step's last stage stored, instead of interpreting the
//! whole program.

// One of the workspace's two places allowed `unsafe` (Cargo.toml's lint policy): a
// call into machine code that Cranelift generated, which Rust cannot check.
#![allow(unsafe_code)]

mod codegen;
mod functions;

use std::sync::{Arc, Mutex};

use cranelift_jit::JITModule;
use nhlab::expr::{part_addresses, CompileError, CompiledCode, CompilesAlone, NativeEvaluator, Program};
use nhlab::mechanics::{Model, NumericModel};

/// Why a program could not be compiled to machine code.
#[derive(Debug, thiserror::Error)]
pub enum NativeError {
    /// This processor has no Cranelift back end, or Cranelift refused the code.
    #[error("no machine code: {0}")]
    Codegen(String),
    /// The model's program could not be compiled (as the interpreter would say).
    #[error(transparent)]
    Compile(#[from] CompileError),
}

/// Most parts the inputs or the outputs may come in.
pub const MAX_PARTS: usize = 8;

/// `program` compiled to machine code, ready to run through the core, its inputs
/// and outputs passed in parts of these lengths (each list summing to the
/// program's count, at most [`MAX_PARTS`] parts).
pub fn compile(
    program: &Program,
    input_parts: &[usize],
    output_parts: &[usize],
) -> Result<NativeEvaluator, NativeError> {
    compile_with_tail(program, input_parts, output_parts, &[])
}

/// Like [`compile`], with the program's last outputs, in `tail_parts`, computed
/// only on demand ([`NativeEvaluator::eval_tail`]) from what the body left.
pub fn compile_with_tail(
    program: &Program,
    input_parts: &[usize],
    output_parts: &[usize],
    tail_parts: &[usize],
) -> Result<NativeEvaluator, NativeError> {
    let every: Vec<usize> = output_parts.iter().chain(tail_parts).copied().collect();
    let fits = |parts: &[usize], total: usize| parts.len() <= MAX_PARTS && parts.iter().sum::<usize>() == total;
    if !fits(input_parts, program.input_count())
        || !fits(&every, program.output_count())
        || output_parts.len().max(tail_parts.len()) > MAX_PARTS
    {
        return Err(NativeError::Codegen(format!(
            "parts {input_parts:?} and {output_parts:?} + {tail_parts:?} do not cover {} inputs and {} outputs",
            program.input_count(),
            program.output_count()
        )));
    }
    let code = codegen::compile(program, input_parts, &every, tail_parts.len())?;
    Ok(NativeEvaluator::new(program, Arc::new(code)))
}

/// Compiles `model`'s Lagrange right-hand side to machine code and makes `numeric`
/// use it, with the diagnostics a sample records as the code's tail
/// ([`nhlab::simulation::lagrange_program_with_diagnostics`]) unless `diagnostics` is
/// false or they would make the program too long
/// ([`nhlab::simulation::MAX_COMPILED_DIAGNOSTICS`]; the samples are then
/// interpreted). False (and `numeric` unchanged)
/// when the written-out solve would be too large for the model
/// ([`nhlab::formulations::lagrange_program`]).
pub fn use_for_lagrange(model: &Model, numeric: &mut NumericModel, diagnostics: bool) -> Result<bool, NativeError> {
    let (inputs, outputs) = nhlab::formulations::lagrange_parts(numeric);
    if diagnostics && numeric.diagnostics_instructions() <= nhlab::simulation::MAX_COMPILED_DIAGNOSTICS {
        if let Some(program) = nhlab::simulation::lagrange_program_with_diagnostics(model)? {
            let tail = numeric.tail_layout().parts();
            numeric.set_native_lagrange(Some(compile_with_tail(&program, &inputs, &outputs, &tail)?));
            return Ok(true);
        }
    }
    let Some(program) = nhlab::formulations::lagrange_program(model)? else { return Ok(false) };
    numeric.set_native_lagrange(Some(compile(&program, &inputs, &outputs)?));
    Ok(true)
}

/// Compiles `numeric`'s whole model (`M`, `F`, `A`, `b`, `f`, `φ`, `T + V`:
/// [`NumericModel::terms_program`], Hamel's terms after them left as a tail never
/// run) and its constraints' program (`A`, `f`, `φ`) to machine code, and makes
/// [`NumericModel::evaluate`] and [`NumericModel::constraint_terms`] run them: each
/// point of a stability map completes its reference state from the constraints and
/// evaluates the model there.
pub fn use_for_terms(numeric: &mut NumericModel) -> Result<(), NativeError> {
    let inputs = numeric.input_layout().parts();
    let program = numeric.terms_program();
    let main = numeric.layout().len();
    let rest = program.output_count() - main;
    let tail: &[usize] = if rest > 0 { &[rest] } else { &[] };
    let terms = compile_with_tail(program, &inputs, &[main], tail)?;
    let program = numeric.constraints_program();
    let constraints = match program.output_count() {
        0 => None,
        outputs => Some(compile(program, &inputs, &[outputs])?),
    };
    numeric.set_native_terms(Some(terms), constraints);
    Ok(())
}

/// Compiles `part`'s program (one output part: [`CompilesAlone`]) to machine code
/// and makes it run that.
pub fn compile_alone(part: &mut dyn CompilesAlone) -> Result<(), NativeError> {
    let outputs = part.program().output_count();
    let code = compile(part.program(), &part.input_parts(), &[outputs])?;
    part.set_native(Some(code));
    Ok(())
}

/// Compiles the contact forces' program of `numeric` ([`nhlab::mechanics::ContactForces`]:
/// every term a state's forces need, `M`, `F`, `A` among them) to machine code and
/// makes it run that. False (and nothing changed) without contacts.
pub fn use_for_contacts(numeric: &mut NumericModel) -> Result<bool, NativeError> {
    let Some(contacts) = numeric.contacts.as_mut() else { return Ok(false) };
    compile_alone(contacts)?;
    Ok(true)
}

/// Compiles a linearisation's exact derivatives ([`nhlab::stability::Derivatives`]:
/// every term's by every coordinate, velocity and input) to machine code and makes
/// them run that: the points of a stability map spend most of their time there.
pub fn use_for_derivatives(derivatives: &mut nhlab::stability::Derivatives) -> Result<(), NativeError> {
    compile_alone(derivatives)
}

/// Compiles what the structure-preserving integrators step
/// ([`nhlab::mechanics::DiscreteTerms`]) to machine code, where `numeric` has them.
/// False (and nothing changed) when it has none, or they do not apply.
pub fn use_for_structure_preserving(numeric: &mut NumericModel) -> Result<bool, NativeError> {
    let Some(Ok(terms)) = numeric.discrete.as_mut() else { return Ok(false) };
    compile_alone(terms)?;
    Ok(true)
}

/// `prologue(input parts, registers)`.
type PrologueFn = unsafe extern "C" fn(*const *const f64, *mut f64);
/// `body(input parts, registers, output parts)`.
type BodyFn = unsafe extern "C" fn(*const *const f64, *mut f64, *const *mut f64);

/// The two functions of one program and the memory that holds them.
pub struct MachineCode {
    prologue: PrologueFn,
    body: BodyFn,
    tail: Option<BodyFn>,
    input_parts: Vec<usize>,
    body_parts: Vec<usize>,
    tail_parts: Vec<usize>,
    registers: usize,
    /// Owns the code's memory; freed on drop. Behind a mutex only to be `Sync`: it is
    /// never touched between compilation and drop.
    module: Mutex<Option<JITModule>>,
}

impl std::fmt::Debug for MachineCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MachineCode")
            .field("input_parts", &self.input_parts)
            .field("body_parts", &self.body_parts)
            .field("tail_parts", &self.tail_parts)
            .field("registers", &self.registers)
            .finish_non_exhaustive()
    }
}

/// The parts' addresses into `out`, when every part has its compiled length.
fn addresses<T>(
    parts: &[usize],
    slices: impl ExactSizeIterator<Item = (usize, *const T)>,
    out: &mut [*const T; MAX_PARTS],
) -> bool {
    part_addresses(parts, slices, out)
}

impl CompiledCode for MachineCode {
    fn prologue(&self, inputs: &[&[f64]], registers: &mut [f64]) -> bool {
        let mut input_addresses = [std::ptr::null(); MAX_PARTS];
        if !addresses(&self.input_parts, inputs.iter().map(|p| (p.len(), p.as_ptr())), &mut input_addresses)
            || registers.len() != self.registers
        {
            return false;
        }
        // SAFETY: the code reads part k of the inputs at offsets below
        // `input_parts[k]` and writes `registers` below `self.registers` (offsets
        // fixed when compiling from the same program), and those lengths are checked
        // above; it keeps no pointer.
        unsafe { (self.prologue)(input_addresses.as_ptr(), registers.as_mut_ptr()) };
        true
    }

    fn body(&self, inputs: &[&[f64]], registers: &mut [f64], outputs: &mut [&mut [f64]]) -> bool {
        self.run(self.body, &self.body_parts, inputs, registers, outputs)
    }

    /// The tail reads its inputs from `registers`, where the prologue and the body
    /// stored them: building their addresses again would be a large part of what
    /// this call costs a small model's sample.
    fn tail(&self, registers: &mut [f64], outputs: &mut [&mut [f64]]) -> bool {
        let Some(tail) = self.tail else { return false };
        let mut output_addresses = [std::ptr::null(); MAX_PARTS];
        let outputs = outputs.iter_mut().map(|p| (p.len(), p.as_mut_ptr().cast_const()));
        if !addresses(&self.tail_parts, outputs, &mut output_addresses) || registers.len() != self.registers {
            return false;
        }
        // SAFETY: the tail reads `registers` below `self.registers` and writes
        // part k of the outputs below `tail_parts[k]`, both checked above; it
        // reads no inputs (a null array is passed). The caller runs it after a
        // body for the same inputs (`NativeEvaluator::eval_tail`); were it not so,
        // it would read stale numbers, never outside the file.
        unsafe { tail(std::ptr::null(), registers.as_mut_ptr(), output_addresses.as_ptr().cast()) };
        true
    }

    fn has_tail(&self) -> bool {
        self.tail.is_some()
    }
}

impl MachineCode {
    /// Runs the body or the tail, whose outputs come in `parts`.
    fn run(
        &self,
        function: BodyFn,
        parts: &[usize],
        inputs: &[&[f64]],
        registers: &mut [f64],
        outputs: &mut [&mut [f64]],
    ) -> bool {
        let (mut input_addresses, mut output_addresses) =
            ([std::ptr::null(); MAX_PARTS], [std::ptr::null(); MAX_PARTS]);
        let outputs = outputs.iter_mut().map(|p| (p.len(), p.as_mut_ptr().cast_const()));
        if !addresses(&self.input_parts, inputs.iter().map(|p| (p.len(), p.as_ptr())), &mut input_addresses)
            || !addresses(parts, outputs, &mut output_addresses)
            || registers.len() != self.registers
        {
            return false;
        }
        // SAFETY: as for the prologue, with part k of the outputs written below
        // `parts[k]` (the addresses come from `&mut` slices, so the writes alias
        // nothing else). The tail reads registers the body stored, and the caller
        // runs it after a body for the same inputs (`NativeEvaluator::eval_tail`);
        // were it not so, it would read stale numbers, never outside the file.
        unsafe { function(input_addresses.as_ptr(), registers.as_mut_ptr(), output_addresses.as_ptr().cast()) };
        true
    }
}

impl Drop for MachineCode {
    fn drop(&mut self) {
        let module = self.module.get_mut().ok().and_then(Option::take);
        if let Some(module) = module {
            // SAFETY: the function pointers live only in `self`, which is being
            // dropped, so nothing can call them after this.
            unsafe { module.free_memory() };
        }
    }
}
