//! The page's compiled right-hand side (`nhlab_www::kernel`, a WebAssembly module
//! made from a program) run outside the browser by an independent engine, wasmi,
//! so that `native.rs` can hold it to the same bits as the interpreter and as
//! Cranelift's machine code.
//!
//! The module reads and writes the memory it imports at the addresses it is given,
//! as in the page; here that memory is wasmi's, so each call copies the slices in
//! and the results out (`Layout`).

use std::sync::{Arc, Mutex};

use nhlab::expr::{CompiledCode, CompilesAlone, NativeEvaluator, Program};
use nhlab::mechanics::{Model, NumericModel};
use nhlab_www::kernel::encode::{self, FUNCTIONS, MAX_PARTS};
use wasmi::{Engine, Linker, Memory, MemoryType, Module, Store, TypedFunc};

/// Byte offsets in wasmi's memory: the part-address arrays, then the inputs, the
/// outputs and the registers, each part at its own 8-aligned place.
#[derive(Debug)]
struct Layout {
    input_parts: Vec<usize>,
    output_parts: Vec<usize>,
    inputs_at: Vec<u32>,
    outputs_at: Vec<u32>,
    registers_at: u32,
    registers: usize,
}

const INPUT_TABLE: u32 = 0;
const OUTPUT_TABLE: u32 = 4 * MAX_PARTS as u32;

impl Layout {
    fn new(input_parts: &[usize], output_parts: &[usize], registers: usize) -> Layout {
        let mut at = 8 * MAX_PARTS as u32;
        let mut place = |parts: &[usize]| -> Vec<u32> {
            parts
                .iter()
                .map(|&len| {
                    let here = at;
                    at += 8 * len as u32;
                    here
                })
                .collect()
        };
        let inputs_at = place(input_parts);
        let outputs_at = place(output_parts);
        Layout {
            input_parts: input_parts.to_vec(),
            output_parts: output_parts.to_vec(),
            inputs_at,
            outputs_at,
            registers_at: at,
            registers,
        }
    }

    fn bytes(&self) -> usize {
        self.registers_at as usize + 8 * self.registers
    }
}

#[derive(Debug)]
struct Engine1 {
    store: Store<()>,
    memory: Memory,
    prologue: TypedFunc<(u32, u32), ()>,
    body: TypedFunc<(u32, u32, u32), ()>,
}

/// A kernel module instantiated in wasmi.
#[derive(Debug)]
pub struct WasmiKernel {
    layout: Layout,
    engine: Mutex<Engine1>,
}

fn write_f64s(e: &mut Engine1, at: u32, values: &[f64]) {
    let bytes: Vec<u8> = values.iter().flat_map(|x| x.to_le_bytes()).collect();
    e.memory.write(&mut e.store, at as usize, &bytes).expect("in memory");
}

fn read_f64s(e: &Engine1, at: u32, values: &mut [f64]) {
    let mut bytes = vec![0u8; 8 * values.len()];
    e.memory.read(&e.store, at as usize, &mut bytes).expect("in memory");
    for (x, b) in values.iter_mut().zip(bytes.chunks_exact(8)) {
        *x = f64::from_le_bytes(b.try_into().expect("8 bytes"));
    }
}

impl WasmiKernel {
    fn new(bytes: &[u8], layout: Layout) -> Result<WasmiKernel, String> {
        let engine = Engine::default();
        let module = Module::new(&engine, bytes).map_err(|e| e.to_string())?;
        let mut store = Store::new(&engine, ());
        let pages = layout.bytes().div_ceil(65536) as u32;
        let memory = Memory::new(&mut store, MemoryType::new(pages, None)).map_err(|e| e.to_string())?;
        let mut linker = <Linker<()>>::new(&engine);
        linker.define("env", "memory", memory).map_err(|e| e.to_string())?;
        for (name, two) in FUNCTIONS {
            let unary: Option<fn(f64) -> f64> = match name {
                "sin" => Some(nhlab::math::sin),
                "cos" => Some(nhlab::math::cos),
                "tan" => Some(nhlab::math::tan),
                "asin" => Some(nhlab::math::asin),
                "acos" => Some(nhlab::math::acos),
                "atan" => Some(nhlab::math::atan),
                "sinh" => Some(nhlab::math::sinh),
                "cosh" => Some(nhlab::math::cosh),
                "tanh" => Some(nhlab::math::tanh),
                "exp" => Some(nhlab::math::exp),
                "ln" => Some(nhlab::math::ln),
                _ => None,
            };
            match (unary, name) {
                (Some(f), _) => linker.func_wrap("m", name, move |x: f64| f(x)),
                (None, "powf") => linker.func_wrap("m", name, nhlab::math::powf),
                (None, "atan2") => linker.func_wrap("m", name, nhlab::math::atan2),
                _ => return Err(format!("no host function for {name} (two arguments: {two})")),
            }
            .map_err(|e| e.to_string())?;
        }
        let instance =
            linker.instantiate(&mut store, &module).and_then(|i| i.start(&mut store)).map_err(|e| e.to_string())?;
        let prologue = instance.get_typed_func(&store, "prologue").map_err(|e| e.to_string())?;
        let body = instance.get_typed_func(&store, "body").map_err(|e| e.to_string())?;
        let mut e = Engine1 { store, memory, prologue, body };
        // The part tables never change.
        let table = |at: &[u32]| at.iter().flat_map(|a| a.to_le_bytes()).collect::<Vec<u8>>();
        e.memory.write(&mut e.store, INPUT_TABLE as usize, &table(&layout.inputs_at)).map_err(|e| e.to_string())?;
        e.memory.write(&mut e.store, OUTPUT_TABLE as usize, &table(&layout.outputs_at)).map_err(|e| e.to_string())?;
        Ok(WasmiKernel { layout, engine: Mutex::new(e) })
    }

    /// Copies the inputs and registers in, when their shapes are the compiled ones.
    fn load(&self, e: &mut Engine1, inputs: &[&[f64]], registers: &[f64]) -> bool {
        let l = &self.layout;
        let fits = inputs.len() == l.input_parts.len()
            && inputs.iter().zip(&l.input_parts).all(|(p, &n)| p.len() == n)
            && registers.len() == l.registers;
        if fits {
            for (part, &at) in inputs.iter().zip(&l.inputs_at) {
                write_f64s(e, at, part);
            }
            write_f64s(e, l.registers_at, registers);
        }
        fits
    }
}

impl CompiledCode for WasmiKernel {
    fn prologue(&self, inputs: &[&[f64]], registers: &mut [f64]) -> bool {
        let mut e = self.engine.lock().expect("not poisoned");
        if !self.load(&mut e, inputs, registers) {
            return false;
        }
        let Engine1 { store, prologue, .. } = &mut *e;
        prologue.call(store, (INPUT_TABLE, self.layout.registers_at)).expect("runs");
        read_f64s(&e, self.layout.registers_at, registers);
        true
    }

    fn body(&self, inputs: &[&[f64]], registers: &mut [f64], outputs: &mut [&mut [f64]]) -> bool {
        let l = &self.layout;
        if outputs.len() != l.output_parts.len() || outputs.iter().zip(&l.output_parts).any(|(p, &n)| p.len() != n) {
            return false;
        }
        let mut e = self.engine.lock().expect("not poisoned");
        if !self.load(&mut e, inputs, registers) {
            return false;
        }
        let Engine1 { store, body, .. } = &mut *e;
        body.call(store, (INPUT_TABLE, l.registers_at, OUTPUT_TABLE)).expect("runs");
        for (part, &at) in outputs.iter_mut().zip(&l.outputs_at) {
            read_f64s(&e, at, part);
        }
        true
    }
}

/// `program` as the page's WebAssembly kernel, run by wasmi.
pub fn compile(program: &Program, input_parts: &[usize], output_parts: &[usize]) -> Result<NativeEvaluator, String> {
    let bytes = encode::module(program, input_parts, output_parts).map_err(|e| e.to_string())?;
    let layout = Layout::new(input_parts, output_parts, program.register_count());
    Ok(NativeEvaluator::new(program, Arc::new(WasmiKernel::new(&bytes, layout)?)))
}

/// As `nhlab_native::use_for_lagrange`, with the page's kernel: false when the
/// written-out solve is too large.
pub fn use_for_lagrange(model: &Model, numeric: &mut NumericModel) -> Result<bool, String> {
    let Some(program) = nhlab::formulations::lagrange_program(model).map_err(|e| e.to_string())? else {
        return Ok(false);
    };
    let (inputs, outputs) = nhlab::formulations::lagrange_parts(numeric);
    numeric.set_native_lagrange(Some(compile(&program, &inputs, &outputs)?));
    Ok(true)
}

/// As `nhlab_native::compile_alone`, with the page's kernel.
fn compile_alone(part: &mut dyn CompilesAlone) -> Result<(), String> {
    let program = part.program().clone();
    part.set_native(Some(compile(&program, &part.input_parts(), &[program.output_count()])?));
    Ok(())
}

/// As `nhlab_native::use_for_contacts`, with the page's kernel: false without
/// contacts.
pub fn use_for_contacts(numeric: &mut NumericModel) -> Result<bool, String> {
    let Some(contacts) = numeric.contacts.as_mut() else { return Ok(false) };
    compile_alone(contacts)?;
    Ok(true)
}

/// As `nhlab_native::use_for_structure_preserving`, with the page's kernel.
pub fn use_for_structure_preserving(numeric: &mut NumericModel) -> Result<bool, String> {
    let Some(Ok(terms)) = numeric.discrete.as_mut() else { return Ok(false) };
    compile_alone(terms)?;
    Ok(true)
}
