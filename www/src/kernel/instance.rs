//! A kernel module instantiated in the worker: it imports this module's memory and
//! its `nhlab::math` functions (exported below), and is called with the addresses
//! of Rust's slices.
//!
//! Synchronous compilation (`new WebAssembly.Module`) is allowed here because the
//! lab lives in a worker; V8 compiles a gallery kernel in well under a millisecond
//! with its baseline compiler and optimises it once it is hot.
//!
//! The kernel's two functions are called wasm to wasm: each is put in a slot of
//! this module's function table ([`slots`]) and called through a function pointer
//! to that slot (`call_indirect`), not through an imported JavaScript function. A
//! call through JavaScript crossed into the engine and back twice per right-hand
//! side; the table needs the module crates' `--growable-table`
//! (`www/modules/growable-table.rs`).

use js_sys::{Function, Object, Reflect, Uint8Array, WebAssembly};
use nhlab::expr::{part_addresses, CompiledCode};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::encode::{FUNCTIONS, MAX_PARTS};

macro_rules! exported {
    ($($name:ident => $f:expr, $arity:tt;)*) => {$(
        /// For compiled kernels (see `kernel::instance`): not part of the page's API.
        #[wasm_bindgen]
        #[doc(hidden)]
        pub fn $name $arity -> f64 {
            $f
        }
    )*};
}

exported! {
    nhlab_kernel_sin => nhlab::math::sin(x), (x: f64);
    nhlab_kernel_cos => nhlab::math::cos(x), (x: f64);
    nhlab_kernel_tan => nhlab::math::tan(x), (x: f64);
    nhlab_kernel_asin => nhlab::math::asin(x), (x: f64);
    nhlab_kernel_acos => nhlab::math::acos(x), (x: f64);
    nhlab_kernel_atan => nhlab::math::atan(x), (x: f64);
    nhlab_kernel_sinh => nhlab::math::sinh(x), (x: f64);
    nhlab_kernel_cosh => nhlab::math::cosh(x), (x: f64);
    nhlab_kernel_tanh => nhlab::math::tanh(x), (x: f64);
    nhlab_kernel_exp => nhlab::math::exp(x), (x: f64);
    nhlab_kernel_ln => nhlab::math::ln(x), (x: f64);
    nhlab_kernel_powf => nhlab::math::powf(x, y), (x: f64, y: f64);
    nhlab_kernel_atan2 => nhlab::math::atan2(y, x), (y: f64, x: f64);
}

/// The length of this module's function table (for the browser test that dropped
/// kernels give their slots back): not part of the page's API.
#[wasm_bindgen]
#[doc(hidden)]
pub fn nhlab_kernel_table_length() -> u32 {
    slots::table().length()
}

/// The kernel's prologue: `(inputs, registers)`, the addresses of the parts' table
/// and of the registers (type 2 of [`super::encode::module`]).
type Prologue = extern "C" fn(u32, u32);
/// The kernel's body: `(inputs, registers, outputs)` (type 3).
type Body = extern "C" fn(u32, u32, u32);

/// One instantiated kernel and the shapes it was compiled for.
#[derive(Debug)]
pub struct Kernel {
    prologue: slots::Slot,
    body: slots::Slot,
    input_parts: Vec<usize>,
    output_parts: Vec<usize>,
    registers: usize,
}

// SAFETY: the page's module is built for wasm32-unknown-unknown without threads
// (no atomics), so a `Kernel` can never be reached from another thread; the core
// asks for `Send + Sync` only because the command line's code may be shared.
unsafe impl Send for Kernel {}
// SAFETY: as for `Send`.
unsafe impl Sync for Kernel {}

fn js_error(e: JsValue) -> String {
    e.dyn_ref::<js_sys::Error>().map(|e| String::from(e.message())).unwrap_or_else(|| format!("{e:?}"))
}

impl Kernel {
    /// Instantiates the module `bytes` (from [`super::encode::module`]).
    pub fn new(bytes: &[u8], input_parts: &[usize], output_parts: &[usize], registers: usize) -> Result<Self, String> {
        let module = WebAssembly::Module::new(&Uint8Array::from(bytes)).map_err(js_error)?;
        let ours = wasm_bindgen::exports();
        let env = Object::new();
        Reflect::set(&env, &"memory".into(), &wasm_bindgen::memory()).map_err(js_error)?;
        let m = Object::new();
        for (name, _) in FUNCTIONS {
            let f = Reflect::get(&ours, &format!("nhlab_kernel_{name}").into()).map_err(js_error)?;
            if !f.is_function() {
                return Err(format!("the page's module does not export nhlab_kernel_{name}"));
            }
            Reflect::set(&m, &name.into(), &f).map_err(js_error)?;
        }
        let imports = Object::new();
        Reflect::set(&imports, &"env".into(), &env).map_err(js_error)?;
        Reflect::set(&imports, &"m".into(), &m).map_err(js_error)?;
        let instance = WebAssembly::Instance::new(&module, &imports).map_err(js_error)?;
        let exported = |name: &str| -> Result<Function, String> {
            Reflect::get(&instance.exports(), &name.into()).map_err(js_error)?.dyn_into().map_err(js_error)
        };
        Ok(Kernel {
            prologue: slots::Slot::new(&exported("prologue")?)?,
            body: slots::Slot::new(&exported("body")?)?,
            input_parts: input_parts.to_vec(),
            output_parts: output_parts.to_vec(),
            registers,
        })
    }
}

/// The parts' addresses in linear memory, when every part has its compiled length.
fn addresses(parts: &[usize], slices: impl ExactSizeIterator<Item = (usize, u32)>) -> Option<[u32; MAX_PARTS]> {
    let mut out = [0; MAX_PARTS];
    part_addresses(parts, slices, &mut out).then_some(out)
}

/// A pointer's address in this module's linear memory (32-bit on wasm32).
fn address<T>(p: *const T) -> u32 {
    p as usize as u32
}

impl CompiledCode for Kernel {
    fn prologue(&self, inputs: &[&[f64]], registers: &mut [f64]) -> bool {
        let Some(inputs) = addresses(&self.input_parts, inputs.iter().map(|p| (p.len(), address(p.as_ptr())))) else {
            return false;
        };
        if registers.len() != self.registers {
            return false;
        }
        // The kernel reads part k of the inputs below `input_parts[k]` and writes
        // `registers` below `self.registers` (checked above); it keeps nothing.
        // SAFETY: the slot holds the kernel's `prologue`, of type `Prologue`.
        let prologue: Prologue = unsafe { self.prologue.function() };
        prologue(address(inputs.as_ptr()), address(registers.as_mut_ptr()));
        true
    }

    fn body(&self, inputs: &[&[f64]], registers: &mut [f64], outputs: &mut [&mut [f64]]) -> bool {
        let Some(inputs) = addresses(&self.input_parts, inputs.iter().map(|p| (p.len(), address(p.as_ptr())))) else {
            return false;
        };
        let outputs = outputs.iter_mut().map(|p| (p.len(), address(p.as_mut_ptr())));
        let Some(outputs) = addresses(&self.output_parts, outputs) else { return false };
        if registers.len() != self.registers {
            return false;
        }
        // As for the prologue, with part k of the outputs (from `&mut` slices, so
        // aliasing nothing else) written below `output_parts[k]`.
        // SAFETY: the slot holds the kernel's `body`, of type `Body`.
        let body: Body = unsafe { self.body.function() };
        body(address(inputs.as_ptr()), address(registers.as_mut_ptr()), address(outputs.as_ptr()));
        true
    }
}

/// Slots of this module's function table holding other instances' functions.
mod slots {
    use std::cell::RefCell;

    use js_sys::{Function, WebAssembly};
    use wasm_bindgen::{JsCast, JsValue};

    use super::js_error;

    thread_local! {
        /// Slots emptied by dropped kernels, used again before the table grows.
        static FREE: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
    }

    pub fn table() -> WebAssembly::Table {
        wasm_bindgen::function_table().unchecked_into()
    }

    /// A table slot holding one function; emptied (and the instance let go) on drop.
    #[derive(Debug)]
    pub struct Slot(u32);

    impl Slot {
        pub fn new(function: &Function) -> Result<Slot, String> {
            let table = table();
            let index = match FREE.with_borrow_mut(Vec::pop) {
                Some(index) => index,
                None => table.grow(1).map_err(js_error)?,
            };
            // Index 0 is the null function pointer, never a slot handed out here.
            if index == 0 {
                return Err("the function table gave slot 0".into());
            }
            if let Err(e) = table.set(index, function) {
                FREE.with_borrow_mut(|free| free.push(index));
                return Err(js_error(e));
            }
            Ok(Slot(index))
        }

        /// The slot as a function pointer (a table index on wasm32).
        ///
        /// # Safety
        /// `F` must be an `extern "C" fn` pointer type whose wasm signature is the
        /// stored function's (a mismatch traps at the call, as `call_indirect` checks).
        pub unsafe fn function<F: Copy>(&self) -> F {
            const { assert!(size_of::<F>() == size_of::<usize>()) };
            // SAFETY: on wasm32 a function pointer is its index in the table, and the
            // index is non-zero (checked in `new`).
            unsafe { std::mem::transmute_copy(&(self.0 as usize)) }
        }
    }

    impl Drop for Slot {
        fn drop(&mut self) {
            if table().set_raw(self.0, &JsValue::NULL).is_ok() {
                FREE.with_borrow_mut(|free| free.push(self.0));
            }
        }
    }
}
