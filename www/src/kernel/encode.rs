//! A [`Program`] as a WebAssembly module of two functions, the page's counterpart of
//! the command line's Cranelift code (`native/src/codegen.rs`), with the same
//! calling convention:
//!
//! - `prologue(inputs, registers)` runs the hoisted instructions and stores their
//!   values in the register file;
//! - `body(inputs, registers, outputs)` runs the rest, reading those values back,
//!   and stores the outputs.
//!
//! The arguments are addresses in the page's own linear memory, which the module
//! imports (`env.memory`): `inputs` and `outputs` point to arrays of `u32` part
//! addresses, `registers` to the register file. Each register becomes a local
//! (the program is SSA without branches), so memory is touched only to read each
//! input and prologue value once and to write each output once. Arithmetic is the
//! interpreter's IEEE operation (wasm has no fused multiply-add), `powi` and `sign`
//! are written out as `nhlab::math` computes them, and every other function is
//! imported from the page's module (`m.sin`, …: `nhlab::math`'s own code), so the
//! module computes what the interpreter and `nhlab run --native` compute, bit for
//! bit.
//!
//! Why `wasm-encoder` (the Bytecode Alliance's encoder, as used by wasmtime's
//! tools) and not hand-written bytes: section and LEB128 encoding are its job, and
//! it is small and has no dependencies in this configuration.

use std::collections::HashMap;

use nhlab::expr::{Function as Elementary, Instr, Op, Program, Reg};
use wasm_encoder::{
    CodeSection, EntityType, ExportKind, ExportSection, Function, FunctionSection, ImportSection, InstructionSink,
    MemArg, MemoryType, Module, TypeSection, ValType,
};

/// Most locals one function may have (V8's limit is 50,000 per function).
pub const MAX_LOCALS: usize = 40_000;

/// Most parts the inputs or the outputs may come in.
pub const MAX_PARTS: usize = 8;

/// The functions the module imports from `m`, in import order: name and whether it
/// takes two numbers. `sin_cos` is two calls (`nhlab::math::sin_cos` is
/// bit-identical to `sin` and `cos`).
pub const FUNCTIONS: [(&str, bool); 13] = [
    ("sin", false),
    ("cos", false),
    ("tan", false),
    ("asin", false),
    ("acos", false),
    ("atan", false),
    ("sinh", false),
    ("cosh", false),
    ("tanh", false),
    ("exp", false),
    ("ln", false),
    ("powf", true),
    ("atan2", true),
];

fn function_index(name: &str) -> u32 {
    FUNCTIONS.iter().position(|(n, _)| *n == name).expect("a listed function") as u32
}

/// The imported function computing `op`, when `op` is a call.
fn callee(op: Op) -> Option<&'static str> {
    match op {
        Op::Call(Elementary::Abs | Elementary::Sign) => None,
        Op::Call(f) => Some(f.name()),
        Op::Powf => Some("powf"),
        Op::Atan2 => Some("atan2"),
        _ => None,
    }
}

/// Why a program was not turned into a module.
#[derive(Debug, Clone, PartialEq)]
pub struct EncodeError(pub String);

impl std::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The module's bytes for `program`, its inputs and outputs passed in parts of
/// these lengths (each list summing to the program's count, at most [`MAX_PARTS`]).
pub fn module(program: &Program, input_parts: &[usize], output_parts: &[usize]) -> Result<Vec<u8>, EncodeError> {
    let fits = |parts: &[usize], total: usize| parts.len() <= MAX_PARTS && parts.iter().sum::<usize>() == total;
    if !fits(input_parts, program.input_count()) || !fits(output_parts, program.output_count()) {
        return Err(EncodeError(format!(
            "parts {input_parts:?} and {output_parts:?} do not cover {} inputs and {} outputs",
            program.input_count(),
            program.output_count()
        )));
    }
    if program.register_count() > (u32::MAX / 8) as usize {
        return Err(EncodeError("the program has too many registers".into()));
    }
    let layout = Layout { inputs: places(input_parts), outputs: places(output_parts) };
    let (prologue_code, body_code) = program.code().split_at(program.prologue_len());
    let prologue = define(program, &layout, prologue_code, false)?;
    let body = define(program, &layout, body_code, true)?;

    let mut types = TypeSection::new();
    types.ty().function([ValType::F64], [ValType::F64]); // 0: unary
    types.ty().function([ValType::F64, ValType::F64], [ValType::F64]); // 1: binary
    types.ty().function([ValType::I32, ValType::I32], []); // 2: prologue
    types.ty().function([ValType::I32, ValType::I32, ValType::I32], []); // 3: body
    let mut imports = ImportSection::new();
    let memory = MemoryType { minimum: 0, maximum: None, memory64: false, shared: false, page_size_log2: None };
    imports.import("env", "memory", memory);
    for (name, two) in FUNCTIONS {
        imports.import("m", name, EntityType::Function(u32::from(two)));
    }
    let mut functions = FunctionSection::new();
    functions.function(2).function(3);
    let first = FUNCTIONS.len() as u32;
    let mut exports = ExportSection::new();
    exports.export("prologue", ExportKind::Func, first).export("body", ExportKind::Func, first + 1);
    let mut code = CodeSection::new();
    code.function(&prologue).function(&body);
    let mut module = Module::new();
    module.section(&types).section(&imports).section(&functions).section(&exports).section(&code);
    Ok(module.finish())
}

/// Where each input and output is: (part, index in the part).
struct Layout {
    inputs: Vec<(u32, u32)>,
    outputs: Vec<(u32, u32)>,
}

fn places(parts: &[usize]) -> Vec<(u32, u32)> {
    parts.iter().enumerate().flat_map(|(p, &len)| (0..len).map(move |i| (p as u32, i as u32))).collect()
}

/// An `f64` access at byte `offset` (8-aligned).
fn f64_at(offset: u64) -> MemArg {
    MemArg { offset, align: 3, memory_index: 0 }
}

/// A `u32` access at byte `offset` (4-aligned).
fn u32_at(offset: u64) -> MemArg {
    MemArg { offset, align: 2, memory_index: 0 }
}

/// The arguments' local indices.
const INPUTS: u32 = 0;
const REGISTERS: u32 = 1;
const OUTPUTS: u32 = 2;

/// One function being written: its code, and its locals after the arguments.
struct Writer<'p> {
    program: &'p Program,
    layout: &'p Layout,
    code: Vec<u8>,
    /// Each register's local, once it has a value here.
    values: Vec<Option<u32>>,
    /// The `f64` locals handed out, after the arguments and the `i32` locals.
    f64_locals: u32,
    /// Each input part's address, in an `i32` local once read.
    input_bases: HashMap<u32, u32>,
    i32_locals: u32,
    arguments: u32,
}

/// Locals are numbered: arguments, then [`I32_LOCALS`] `i32`s (part addresses),
/// then the `f64`s.
const I32_LOCALS: u32 = 2 * MAX_PARTS as u32;

impl Writer<'_> {
    fn sink(&mut self) -> InstructionSink<'_> {
        InstructionSink::new(&mut self.code)
    }

    fn new_f64(&mut self) -> u32 {
        self.f64_locals += 1;
        self.arguments + I32_LOCALS + self.f64_locals - 1
    }

    fn new_i32(&mut self) -> u32 {
        self.i32_locals += 1;
        self.arguments + self.i32_locals - 1
    }

    /// Pushes register `r`'s value: a local, a constant, or an input or prologue
    /// value read once into a new local.
    fn push(&mut self, r: Reg) {
        if let Some(local) = self.values[r as usize] {
            self.sink().local_get(local);
            return;
        }
        let inputs = self.program.input_count() as Reg;
        let constants = self.program.constants();
        if r >= inputs && ((r - inputs) as usize) < constants.len() {
            let c = constants[(r - inputs) as usize];
            self.sink().f64_const(c.into());
            return;
        }
        if r < inputs {
            let (part, index) = self.layout.inputs[r as usize];
            let base = match self.input_bases.get(&part) {
                Some(&b) => b,
                None => {
                    let b = self.new_i32();
                    self.sink().local_get(INPUTS).i32_load(u32_at(4 * u64::from(part))).local_set(b);
                    self.input_bases.insert(part, b);
                    b
                }
            };
            self.sink().local_get(base).f64_load(f64_at(8 * u64::from(index)));
        } else {
            self.sink().local_get(REGISTERS).f64_load(f64_at(8 * u64::from(r)));
        }
        let local = self.new_f64();
        self.sink().local_tee(local);
        self.values[r as usize] = Some(local);
    }

    /// Writes `ins`, leaving its result(s) in new locals.
    fn instruction(&mut self, ins: &Instr) {
        let dst = self.new_f64();
        match ins.op {
            Op::Add | Op::Sub | Op::Mul | Op::Div => {
                self.push(ins.a);
                self.push(ins.b);
                let mut s = self.sink();
                match ins.op {
                    Op::Add => s.f64_add(),
                    Op::Sub => s.f64_sub(),
                    Op::Mul => s.f64_mul(),
                    _ => s.f64_div(),
                };
            }
            Op::Neg => {
                self.push(ins.a);
                self.sink().f64_neg();
            }
            Op::Recip => {
                self.sink().f64_const(1.0.into());
                self.push(ins.a);
                self.sink().f64_div();
            }
            Op::Sqrt => {
                self.push(ins.a);
                self.sink().f64_sqrt();
            }
            Op::Call(Elementary::Abs) => {
                self.push(ins.a);
                self.sink().f64_abs();
            }
            Op::Call(Elementary::Sign) => self.sign(ins.a),
            Op::Powi(n) => self.powi(ins.a, n),
            Op::SinCos => {
                self.push(ins.a);
                self.sink().call(function_index("sin"));
                let cosine = self.new_f64();
                self.push(ins.a);
                self.sink().call(function_index("cos")).local_set(cosine);
                self.values[ins.dst as usize + 1] = Some(cosine);
            }
            op => {
                // Every other operation is a call (the match in `callee` is total
                // over the rest of `Op`).
                let name = callee(op).expect("a function call");
                self.push(ins.a);
                if op.is_binary() {
                    self.push(ins.b);
                }
                self.sink().call(function_index(name));
            }
        }
        self.sink().local_set(dst);
        self.values[ins.dst as usize] = Some(dst);
    }

    /// `nhlab::math::sign`: 1 above zero, −1 below, `x·0` otherwise (±0 keeps its
    /// sign, NaN stays NaN).
    fn sign(&mut self, x: Reg) {
        self.sink().f64_const(1.0.into()).f64_const((-1.0).into());
        self.push(x);
        self.sink().f64_const(0.0.into()).f64_mul();
        self.push(x);
        self.sink().f64_const(0.0.into()).f64_lt().select();
        self.push(x);
        self.sink().f64_const(0.0.into()).f64_gt().select();
    }

    /// `x^n` by the repeated squaring of `nhlab::math::powi`, unrolled for the
    /// known `n`: the same products in the same order (its first product, by 1, is
    /// exact and left out, as is its last squaring, which nothing reads).
    fn powi(&mut self, x: Reg, n: i32) {
        let base = self.new_f64();
        if n < 0 {
            self.sink().f64_const(1.0.into());
            self.push(x);
            self.sink().f64_div().local_set(base);
        } else {
            self.push(x);
            self.sink().local_set(base);
        }
        let acc = self.new_f64();
        let mut started = false;
        let mut k = n.unsigned_abs();
        while k > 0 {
            if k & 1 == 1 {
                if started {
                    self.sink().local_get(acc).local_get(base).f64_mul().local_set(acc);
                } else {
                    self.sink().local_get(base).local_set(acc);
                    started = true;
                }
            }
            k >>= 1;
            if k > 0 {
                self.sink().local_get(base).local_get(base).f64_mul().local_set(base);
            }
        }
        if started {
            self.sink().local_get(acc);
        } else {
            self.sink().f64_const(1.0.into());
        }
    }
}

/// One of the two functions: `code` (the prologue's or the body's instructions).
fn define(program: &Program, layout: &Layout, code: &[Instr], is_body: bool) -> Result<Function, EncodeError> {
    let arguments = if is_body { 3 } else { 2 };
    let mut w = Writer {
        program,
        layout,
        code: Vec::new(),
        values: vec![None; program.register_count()],
        f64_locals: 0,
        input_bases: HashMap::new(),
        i32_locals: 0,
        arguments,
    };
    for ins in code {
        w.instruction(ins);
        if !is_body {
            // The prologue stores each result in the register file as well: the body reads it.
            let results = if ins.op == Op::SinCos { 2 } else { 1 };
            for r in ins.dst..ins.dst + results {
                let local = w.values[r as usize].expect("just written");
                w.sink().local_get(REGISTERS).local_get(local).f64_store(f64_at(8 * u64::from(r)));
            }
        }
        if w.f64_locals as usize > MAX_LOCALS {
            return Err(EncodeError(format!("the program needs more than {MAX_LOCALS} locals")));
        }
    }
    if is_body {
        let mut output_bases: HashMap<u32, u32> = HashMap::new();
        for (&r, &(part, index)) in program.output_registers().iter().zip(&layout.outputs) {
            let base = match output_bases.get(&part) {
                Some(&b) => b,
                None => {
                    let b = w.new_i32();
                    w.sink().local_get(OUTPUTS).i32_load(u32_at(4 * u64::from(part))).local_set(b);
                    output_bases.insert(part, b);
                    b
                }
            };
            w.sink().local_get(base);
            w.push(r);
            w.sink().f64_store(f64_at(8 * u64::from(index)));
        }
    }
    w.sink().end();
    let mut f = Function::new([(I32_LOCALS, ValType::I32), (w.f64_locals, ValType::F64)]);
    f.raw(w.code);
    Ok(f)
}
