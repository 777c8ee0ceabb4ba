//! Compiled right-hand sides for the page: Lagrange's equations of a loaded
//! scenario (the terms and the written-out range-space solve of
//! [`nhlab::formulations::lagrange_program`]) as a WebAssembly module made at load time
//! ([`encode`]) and instantiated in the worker next to the page's own module
//! (`instance`), so that stepping runs it without the interpreter's dispatch.
//!
//! It computes the same bits as the interpreter's program and as `nhlab run
//! --native` (the same operations, the same `nhlab::math` functions), and the core
//! still falls back to its general route wherever the written-out solve's pivots
//! are small, exactly as on the command line.

pub mod encode;
#[cfg(target_arch = "wasm32")]
// The other of the workspace's two places allowed `unsafe` (Cargo.toml's lint
// policy): calls into the WebAssembly functions the kernel generated.
#[allow(unsafe_code)]
mod instance;

use nhlab::expr::{CompilesAlone, NativeEvaluator, Program};
use nhlab::mechanics::{Model, NumericModel};

/// `program` as a WebAssembly module instantiated beside the page's own, its
/// inputs and outputs in these parts; `None` off the web (native tests interpret).
fn module_code(program: &Program, inputs: &[usize], outputs: &[usize]) -> Result<Option<NativeEvaluator>, String> {
    let bytes = encode::module(program, inputs, outputs).map_err(|e| e.to_string())?;
    #[cfg(target_arch = "wasm32")]
    {
        let code = instance::Kernel::new(&bytes, inputs, outputs, program.register_count())?;
        Ok(Some(NativeEvaluator::new(program, std::sync::Arc::new(code))))
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = bytes;
        Ok(None)
    }
}

/// Compiles `model`'s Lagrange right-hand side to a WebAssembly module and makes
/// `numeric` run it. `Ok(false)` (and `numeric` unchanged) when the written-out
/// solve would be too large for the model, or off the web (native tests interpret).
pub fn use_for_lagrange(model: &Model, numeric: &mut NumericModel) -> Result<bool, String> {
    let Some(program) = nhlab::formulations::lagrange_program(model).map_err(|e| e.to_string())? else {
        return Ok(false);
    };
    let (inputs, outputs) = nhlab::formulations::lagrange_parts(numeric);
    let code = module_code(&program, &inputs, &outputs)?;
    let compiled = code.is_some();
    if compiled {
        numeric.set_native_lagrange(code);
    }
    Ok(compiled)
}

/// Compiles `part`'s program (one output part: [`CompilesAlone`]) to a WebAssembly
/// module and makes it run that. `Ok(false)` (and `part` unchanged) off the web.
fn compile_alone(part: &mut dyn CompilesAlone) -> Result<bool, String> {
    let program = part.program();
    let code = module_code(program, &part.input_parts(), &[program.output_count()])?;
    let compiled = code.is_some();
    if compiled {
        part.set_native(code);
    }
    Ok(compiled)
}

/// Compiles the contact forces' program of `numeric` (every term a state's forces
/// need, [`nhlab::mechanics::ContactForces`]) to a WebAssembly module and makes it
/// run that. `Ok(false)` without contacts, or off the web.
pub fn use_for_contacts(numeric: &mut NumericModel) -> Result<bool, String> {
    let Some(contacts) = numeric.contacts.as_mut() else { return Ok(false) };
    compile_alone(contacts)
}

/// Compiles what the structure-preserving integrators step
/// ([`nhlab::mechanics::DiscreteTerms`]) to a WebAssembly module, where `numeric`
/// has them. `Ok(false)` without them, or off the web.
pub fn use_for_structure_preserving(numeric: &mut NumericModel) -> Result<bool, String> {
    let Some(Ok(terms)) = numeric.discrete.as_mut() else { return Ok(false) };
    compile_alone(terms)
}
