//! A [`Program`] as Cranelift functions: `prologue(inputs, registers)` runs the
//! hoisted instructions and stores their values in the register file;
//! `body(inputs, registers, outputs)` runs the rest, reading those values back,
//! and stores the outputs; with a tail, `body` stops before the tail's
//! instructions and also stores the values they read and its fast inputs, and `tail(_,
//! registers, outputs)` runs them, reading every value from the register file (the
//! prologue stores the slow inputs there too), so that a call passes no inputs. Registers become SSA values (the program is SSA
//! and has no branches), so the only memory traffic is each input and stored value
//! read once and each output written once.

use std::collections::HashMap;
use std::sync::Mutex;

use cranelift_codegen::ir::condcodes::FloatCC;
use cranelift_codegen::ir::types::F64;
use cranelift_codegen::ir::{AbiParam, FuncRef, InstBuilder, MemFlagsData, StackSlotData, StackSlotKind, Value};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, FuncId, Linkage, Module};
use nhlab::expr::{Function as Elementary, Instr, Op, Program, Reg};

use crate::{functions, BodyFn, MachineCode, NativeError, PrologueFn};

/// Memory accesses of the generated code: in bounds and aligned (the caller checks
/// the slices' lengths), so they cannot trap.
const ACCESS: MemFlagsData = MemFlagsData::trusted();

fn codegen_error(e: impl std::fmt::Display) -> NativeError {
    NativeError::Codegen(e.to_string())
}

/// Instructions from which a program is compiled with the single-pass register
/// allocator.
const QUICK_ALLOCATION_FROM: usize = 10_000;

/// Compiles `program` for this processor: its outputs in `output_parts`, the last
/// `tail_parts` of which form the tail (none: every output is the body's).
pub(crate) fn compile(
    program: &Program,
    input_parts: &[usize],
    output_parts: &[usize],
    tail_parts: usize,
) -> Result<MachineCode, NativeError> {
    // Offsets are 32-bit in the generated loads and stores.
    if program.register_count() > (i32::MAX / 8) as usize {
        return Err(NativeError::Codegen("the program has too many registers".into()));
    }
    let mut flags = settings::builder();
    // Cranelift's backtracking register allocator is most of the compile time of a
    // long straight-line program (most of a second for the bicycle's derivatives,
    // 15,000 instructions); its single-pass one compiles such a program several times
    // faster, and the code runs about as fast, since every value lives in the
    // register file in memory anyway. Shorter programs (a model's right-hand side,
    // run millions of times) keep the better code.
    let allocator = if program.code().len() >= QUICK_ALLOCATION_FROM { "single_pass" } else { "backtracking" };
    for (name, value) in [
        ("opt_level", "speed"),
        ("use_colocated_libcalls", "false"),
        ("is_pic", "false"),
        ("regalloc_algorithm", allocator),
    ] {
        flags.set(name, value).map_err(codegen_error)?;
    }
    let isa = cranelift_native::builder()
        .map_err(codegen_error)?
        .finish(settings::Flags::new(flags))
        .map_err(codegen_error)?;
    let mut builder = JITBuilder::with_isa(isa, default_libcall_names());
    for (name, address) in functions::table() {
        builder.symbol(name, address);
    }
    let mut module = JITModule::new(builder);
    let imports = declare_imports(&mut module)?;
    let (body_parts, tail_parts) = output_parts.split_at(output_parts.len() - tail_parts);
    let body_outputs: usize = body_parts.iter().sum();
    let (prologue_code, rest) = program.code().split_at(program.prologue_len());
    let (body_code, tail_code) = rest.split_at(program.body_instructions_for_first(body_outputs));
    let inputs = places(input_parts);
    let outputs = program.output_registers();
    let fast = program.input_count() - input_parts.last().copied().unwrap_or(0);
    let mut prologue_spill: Vec<Reg> = prologue_code.iter().flat_map(written).collect();
    if !tail_parts.is_empty() {
        // The slow inputs, for the tail (the body stores the fast ones).
        prologue_spill.extend(fast as Reg..program.input_count() as Reg);
    }
    let prologue = Function {
        name: "prologue",
        writes_outputs: false,
        code: prologue_code,
        inputs: Some(&inputs),
        outputs: Vec::new(),
        spill: prologue_spill,
    };
    let body = Function {
        name: "body",
        writes_outputs: true,
        code: body_code,
        inputs: Some(&inputs),
        outputs: outputs[..body_outputs].iter().copied().zip(places(body_parts)).collect(),
        spill: if tail_parts.is_empty() {
            Vec::new()
        } else {
            // The fast inputs (every part but the last) too, at the front of the
            // file: what `NativeEvaluator::holds` compares a sample's inputs with.
            let mut spill: Vec<Reg> = (0..fast as Reg).collect();
            spill.extend(read_later(body_code, tail_code, &outputs[body_outputs..]));
            spill
        },
    };
    let prologue = define(&mut module, &imports, program, prologue)?;
    let body = define(&mut module, &imports, program, body)?;
    let tail = if tail_parts.is_empty() {
        None
    } else {
        let tail = Function {
            name: "tail",
            writes_outputs: true,
            code: tail_code,
            inputs: None,
            outputs: outputs[body_outputs..].iter().copied().zip(places(tail_parts)).collect(),
            spill: Vec::new(),
        };
        Some(define(&mut module, &imports, program, tail)?)
    };
    module.finalize_definitions().map_err(codegen_error)?;
    // SAFETY: the functions were defined with exactly these signatures (pointer
    // arguments in the platform's C calling convention, no result).
    let (prologue, body, tail) = unsafe {
        (
            std::mem::transmute::<*const u8, PrologueFn>(module.get_finalized_function(prologue)),
            std::mem::transmute::<*const u8, BodyFn>(module.get_finalized_function(body)),
            tail.map(|tail| std::mem::transmute::<*const u8, BodyFn>(module.get_finalized_function(tail))),
        )
    };
    Ok(MachineCode {
        prologue,
        body,
        tail,
        input_parts: input_parts.to_vec(),
        body_parts: body_parts.to_vec(),
        tail_parts: tail_parts.to_vec(),
        registers: program.register_count(),
        module: Mutex::new(Some(module)),
    })
}

/// The registers an instruction writes.
fn written(ins: &Instr) -> std::ops::Range<Reg> {
    ins.dst..ins.dst + if ins.op == Op::SinCos { 2 } else { 1 }
}

/// The registers `code` writes that `later` reads or that hold `later_outputs`:
/// what the body stores for the tail.
fn read_later(code: &[Instr], later: &[Instr], later_outputs: &[Reg]) -> Vec<Reg> {
    let mut needed: std::collections::HashSet<Reg> = later_outputs.iter().copied().collect();
    for ins in later {
        needed.insert(ins.a);
        if ins.op.is_binary() {
            needed.insert(ins.b);
        }
    }
    code.iter().flat_map(written).filter(|r| needed.contains(r)).collect()
}

/// The math functions, declared once per module.
struct Imports {
    by_name: HashMap<&'static str, FuncId>,
}

fn declare_imports(module: &mut JITModule) -> Result<Imports, NativeError> {
    let pointer = module.target_config().pointer_type();
    let mut by_name = HashMap::new();
    for (name, _) in functions::table() {
        let mut signature = module.make_signature();
        signature.params.push(AbiParam::new(F64));
        if name == functions::SIN_COS {
            signature.params.push(AbiParam::new(pointer));
        } else {
            if matches!(name, "nhlab_powf" | "nhlab_atan2") {
                signature.params.push(AbiParam::new(F64));
            }
            signature.returns.push(AbiParam::new(F64));
        }
        let id = module.declare_function(name, Linkage::Import, &signature).map_err(codegen_error)?;
        by_name.insert(name, id);
    }
    Ok(Imports { by_name })
}

/// Where each input or output is: (part, index in the part).
fn places(parts: &[usize]) -> Vec<(u32, u32)> {
    parts.iter().enumerate().flat_map(|(p, &len)| (0..len).map(move |i| (p as u32, i as u32))).collect()
}

/// One function to write: `name(inputs, registers, outputs)` when it writes
/// outputs, else `name(inputs, registers)` (the prologue).
struct Function<'c> {
    name: &'static str,
    writes_outputs: bool,
    code: &'c [Instr],
    /// Each input's place; `None`: the inputs are in the register file's first
    /// slots.
    inputs: Option<&'c [(u32, u32)]>,
    /// The registers it writes out, each with its place among its output parts.
    outputs: Vec<(Reg, (u32, u32))>,
    /// The registers it stores in the register file for a later function.
    spill: Vec<Reg>,
}

fn define(
    module: &mut JITModule,
    imports: &Imports,
    program: &Program,
    function: Function,
) -> Result<FuncId, NativeError> {
    let pointer = module.target_config().pointer_type();
    let arguments = if function.writes_outputs { 3 } else { 2 };
    let mut context = module.make_context();
    for _ in 0..arguments {
        context.func.signature.params.push(AbiParam::new(pointer));
    }
    let mut builder_context = FunctionBuilderContext::new();
    let mut b = FunctionBuilder::new(&mut context.func, &mut builder_context);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    b.seal_block(entry);
    let params = b.block_params(entry).to_vec();
    let mut w = Writer {
        program,
        inputs: function.inputs,
        pointer,
        values: vec![None; program.register_count()],
        parts: HashMap::new(),
        input_parts: params[0],
        registers: params[1],
        callees: HashMap::new(),
        sin_cos_slot: None,
    };
    for ins in function.code {
        w.instruction(&mut b, module, imports, ins)?;
    }
    for &r in &function.spill {
        let value = w.read(&mut b, r);
        b.ins().store(ACCESS, value, w.registers, offset(r));
    }
    if arguments == 3 {
        let outputs = params[2];
        let mut bases: HashMap<u32, Value> = HashMap::new();
        for &(r, (part, index)) in &function.outputs {
            let value = w.read(&mut b, r);
            let at = part_offset(pointer, part);
            let base = *bases.entry(part).or_insert_with(|| b.ins().load(pointer, ACCESS, outputs, at));
            b.ins().store(ACCESS, value, base, offset(index));
        }
    }
    b.ins().return_(&[]);
    b.finalize(module.target_config());
    let id = module.declare_function(function.name, Linkage::Local, &context.func.signature).map_err(codegen_error)?;
    module.define_function(id, &mut context).map_err(codegen_error)?;
    module.clear_context(&mut context);
    Ok(id)
}

/// Byte offset of slot `k` of an `f64` array (checked against `i32` in [`compile`]).
fn offset(k: u32) -> i32 {
    (k as i32) * 8
}

/// Byte offset of part `k`'s address in an array of addresses.
fn part_offset(pointer: cranelift_codegen::ir::Type, k: u32) -> i32 {
    (k * pointer.bytes()) as i32
}

/// The state of one function being written: each register's value once known.
struct Writer<'p> {
    program: &'p Program,
    /// Each input's place (`None`: in the register file).
    inputs: Option<&'p [(u32, u32)]>,
    pointer: cranelift_codegen::ir::Type,
    values: Vec<Option<Value>>,
    /// Each input part's address, once read.
    parts: HashMap<u32, Value>,
    /// The argument holding the input parts' addresses.
    input_parts: Value,
    registers: Value,
    callees: HashMap<&'static str, FuncRef>,
    sin_cos_slot: Option<cranelift_codegen::ir::StackSlot>,
}

impl Writer<'_> {
    /// Register `r`'s value: computed here, or an input, a constant or a value of
    /// the prologue, read once.
    fn read(&mut self, b: &mut FunctionBuilder, r: Reg) -> Value {
        if let Some(v) = self.values[r as usize] {
            return v;
        }
        let inputs = self.program.input_count() as Reg;
        let constants = self.program.constants();
        let v = if let Some(places) = self.inputs.filter(|_| r < inputs) {
            let (part, index) = places[r as usize];
            let (pointer, parts) = (self.pointer, self.input_parts);
            let at = part_offset(pointer, part);
            let base = *self.parts.entry(part).or_insert_with(|| b.ins().load(pointer, ACCESS, parts, at));
            b.ins().load(F64, ACCESS, base, offset(index))
        } else if r >= inputs && ((r - inputs) as usize) < constants.len() {
            b.ins().f64const(constants[(r - inputs) as usize])
        } else {
            b.ins().load(F64, ACCESS, self.registers, offset(r))
        };
        self.values[r as usize] = Some(v);
        v
    }

    fn callee(
        &mut self,
        b: &mut FunctionBuilder,
        module: &mut JITModule,
        imports: &Imports,
        name: &'static str,
    ) -> Result<FuncRef, NativeError> {
        if let Some(&f) = self.callees.get(name) {
            return Ok(f);
        }
        let id = *imports.by_name.get(name).ok_or_else(|| NativeError::Codegen(format!("no function {name}")))?;
        let f = module.declare_func_in_func(id, b.func);
        self.callees.insert(name, f);
        Ok(f)
    }

    fn instruction(
        &mut self,
        b: &mut FunctionBuilder,
        module: &mut JITModule,
        imports: &Imports,
        ins: &Instr,
    ) -> Result<(), NativeError> {
        let a = self.read(b, ins.a);
        let binary = |w: &mut Self, b: &mut FunctionBuilder| w.read(b, ins.b);
        let value = match ins.op {
            arithmetic @ (Op::Add | Op::Sub | Op::Mul | Op::Div) => {
                let y = binary(self, b);
                match arithmetic {
                    Op::Add => b.ins().fadd(a, y),
                    Op::Sub => b.ins().fsub(a, y),
                    Op::Mul => b.ins().fmul(a, y),
                    _ => b.ins().fdiv(a, y),
                }
            }
            Op::Neg => b.ins().fneg(a),
            Op::Recip => {
                let one = b.ins().f64const(1.0);
                b.ins().fdiv(one, a)
            }
            Op::Sqrt => b.ins().sqrt(a),
            Op::Call(Elementary::Abs) => b.ins().fabs(a),
            Op::Call(Elementary::Sign) => sign(b, a),
            Op::Powi(n) => powi(b, a, n),
            Op::SinCos => {
                let slot = *self.sin_cos_slot.get_or_insert_with(|| {
                    b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 16, 3))
                });
                let pointer = module.target_config().pointer_type();
                let address = b.ins().stack_addr(pointer, slot, 0);
                let f = self.callee(b, module, imports, functions::SIN_COS)?;
                b.ins().call(f, &[a, address]);
                let sine = b.ins().load(F64, ACCESS, address, 0);
                let cosine = b.ins().load(F64, ACCESS, address, 8);
                self.values[ins.dst as usize + 1] = Some(cosine);
                sine
            }
            op => {
                let (name, two) =
                    functions::symbol(op).ok_or_else(|| NativeError::Codegen(format!("no code for {op:?}")))?;
                let f = self.callee(b, module, imports, name)?;
                let call = if two {
                    let y = binary(self, b);
                    b.ins().call(f, &[a, y])
                } else {
                    b.ins().call(f, &[a])
                };
                b.inst_results(call)[0]
            }
        };
        self.values[ins.dst as usize] = Some(value);
        Ok(())
    }
}

/// `x^n` by the repeated squaring of `nhlab::math::powi`, unrolled for the known
/// `n`: the same products in the same order (its first product, by 1, is exact and
/// left out, as is its last squaring, which nothing reads).
fn powi(b: &mut FunctionBuilder, x: Value, n: i32) -> Value {
    let mut base = if n < 0 {
        let one = b.ins().f64const(1.0);
        b.ins().fdiv(one, x)
    } else {
        x
    };
    let mut k = n.unsigned_abs();
    let mut acc: Option<Value> = None;
    while k > 0 {
        if k & 1 == 1 {
            acc = Some(match acc {
                None => base,
                Some(a) => b.ins().fmul(a, base),
            });
        }
        k >>= 1;
        if k > 0 {
            base = b.ins().fmul(base, base);
        }
    }
    acc.unwrap_or_else(|| b.ins().f64const(1.0))
}

/// `nhlab::math::sign` without a call: 1 above zero, −1 below, `x·0` otherwise (±0
/// keeps its sign, NaN stays NaN).
fn sign(b: &mut FunctionBuilder, x: Value) -> Value {
    let zero = b.ins().f64const(0.0);
    let one = b.ins().f64const(1.0);
    let minus_one = b.ins().f64const(-1.0);
    let above = b.ins().fcmp(FloatCC::GreaterThan, x, zero);
    let below = b.ins().fcmp(FloatCC::LessThan, x, zero);
    let otherwise = b.ins().fmul(x, zero);
    let not_above = b.ins().select(below, minus_one, otherwise);
    b.ins().select(above, one, not_above)
}
