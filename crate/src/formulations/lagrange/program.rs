//! Lagrange's right-hand side as one straight-line program for a native back end:
//! the model's `M`, `F`, `A`, `b` followed by the range-space solve written out
//! for this model's sizes and structural zeros (`formulations/elimination.rs`).
//! Machine code's compile time grows with the program, so a model too large for
//! it is interpreted instead.

use alloc::vec::Vec;

use crate::expr::{Block, CompileError, Program, Value};
use crate::formulations::elimination;
use crate::mechanics::{dynamics_outputs, main_outputs, Model, NumericModel, OutputLayout};

/// Most instructions of a program [`lagrange_program`] hands to a compiler:
/// machine code's compile time grows roughly in proportion, and this bounds a
/// run's compile time near a second (`docs/benchmarks.md`).
pub const MAX_COMPILED_INSTRUCTIONS: usize = 50_000;

/// Lagrange's right-hand side as one program: inputs `[t, q, v, parameters]`,
/// outputs `[q̈; λ; accepted]` (see `formulations/elimination.rs`), with the
/// parameters' part hoisted. `None` when the written-out solve would be too large,
/// or the whole program longer than [`MAX_COMPILED_INSTRUCTIONS`].
pub fn lagrange_program(model: &Model) -> Result<Option<Program>, CompileError> {
    lagrange_program_within(model, MAX_COMPILED_INSTRUCTIONS)
}

/// As [`lagrange_program`], `None` above `max_instructions`.
pub fn lagrange_program_within(model: &Model, max_instructions: usize) -> Result<Option<Program>, CompileError> {
    let program = with_tail(model, max_instructions, None)?;
    Ok(program.map(|p| hoist(p, model)))
}

/// The parts in which [`lagrange_program`]'s inputs and outputs are passed to
/// native code: `([1, n, n, parameters], [n, m, 1])` (`t`, `q`, `v`, parameters;
/// `q̈`, `λ`, the flag).
pub fn lagrange_parts(numeric: &NumericModel) -> ([usize; 4], [usize; 3]) {
    let (n, m) = (numeric.n(), numeric.m());
    (numeric.input_layout().parts(), [n, m, 1])
}

/// What a program's tail computes from the main program's outputs from `A` on.
pub(crate) type Tail<'a> = &'a dyn Fn(&mut Block, &[Value]) -> Vec<Value>;

/// [`lagrange_program`] before hoisting, followed by `tail` (run on the main
/// program's outputs from `A` on, Hamel's included) when one is given; `None`
/// past `max_instructions`.
pub(crate) fn with_tail(
    model: &Model,
    max_instructions: usize,
    tail: Option<Tail<'_>>,
) -> Result<Option<Program>, CompileError> {
    let layout = OutputLayout { n: model.coordinate_count(), m: model.constraints.len() };
    let (graph, inputs, outputs) =
        if tail.is_some() { main_outputs(model) } else { dynamics_outputs(model, &model.graph) };
    let head = &outputs[layout.dynamics()];
    let tail_outputs = if tail.is_some() { &outputs[layout.jacobian().start..] } else { &[] };
    let known: Vec<Option<f64>> = head.iter().map(|&e| graph.as_number(e).map(|x| x.to_f64())).collect();
    if elimination::instruction_estimate(layout.n, layout.m, &known) > elimination::MAX_INSTRUCTIONS {
        return Ok(None);
    }
    let program = graph.compile_with_blocks(
        head,
        &inputs,
        |block, terms| elimination::eliminate(block, layout.n, layout.m, terms),
        tail_outputs,
        |block, values| tail.map_or_else(Vec::new, |tail| tail(block, values)),
    )?;
    Ok((program.code().len() <= max_instructions).then_some(program))
}

/// The program with what reads only the parameters hoisted out of the per-call code.
pub(crate) fn hoist(program: Program, model: &Model) -> Program {
    program.hoist(1 + 2 * model.coordinate_count())
}
