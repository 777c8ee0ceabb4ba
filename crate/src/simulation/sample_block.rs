//! What a sample records besides its state — `T + V`, the constraint residuals,
//! Hamel's E-vector — computed where the integrator's last stage left the model's
//! program, so that only their own instructions run.
//!
//! With machine code, Lagrange's right-hand side carries them as a tail
//! ([`lagrange_program_with_diagnostics`]): the main program's outputs from `A`
//! on, then a block compiled here that checks, chooses and lays out what a
//! sample's row holds, so the machine code writes the columns straight into the
//! row and a sample tests three numbers. Without it the interpreter runs the same
//! outputs and the same checks are made in Rust.

use alloc::vec::Vec;

use crate::expr::{Arithmetic, Block, CompileError, Program, Value};
use crate::mechanics::{
    as_written, split_is_regular_by_elimination, split_is_regular_rows, split_rows, split_rows_of_numbers,
    split_shortcut, DynamicsError, HamelLayout, Model, NumericModel, OutputLayout, TailLayout,
};

/// Most instructions of the diagnostics [`lagrange_program_with_diagnostics`]
/// adds. Machine code for them costs compile time that a run earns back only over
/// many samples (`docs/benchmarks.md`); past this the samples are interpreted.
pub const MAX_COMPILED_DIAGNOSTICS: usize = 2_500;

/// Lagrange's right-hand side ([`crate::formulations::lagrange_program`])
/// followed by what a sample records, as the last outputs, in the two parts of
/// [`TailLayout::parts`]. A back end runs them only for a sample, from the values
/// its right-hand side left ([`crate::expr::CompiledCode::tail`]). `None` as for
/// Lagrange's program, the diagnostics counted in its length, and when they alone
/// are over [`MAX_COMPILED_DIAGNOSTICS`] instructions.
pub fn lagrange_program_with_diagnostics(model: &Model) -> Result<Option<Program>, CompileError> {
    let layout = OutputLayout { n: model.coordinate_count(), m: model.constraints.len() };
    let holonomic: Vec<bool> = model.constraints.iter().map(|c| c.is_holonomic()).collect();
    let split = model.hamel.as_ref().ok().filter(|_| model.hamel_graph.is_some());
    let split = split.map(|s| Split { dependent: &s.dependent, combined: s.combined, k: s.independent.len() });
    let block = |block: &mut Block, tail: &[Value]| compile(block, tail, layout, &holonomic, split);
    let max = crate::formulations::MAX_COMPILED_INSTRUCTIONS;
    let Some(program) = crate::formulations::lagrange_with_tail(model, max, Some(&block))? else { return Ok(None) };
    // The tail's own instructions (the sample's few after them are not counted):
    // the program's outputs are `q̈`, `λ`, the flag, then the tail.
    let head = layout.n + layout.m + 1;
    let tail_length = program.output_count() - head - TailLayout::SCALARS - columns(layout.m, split);
    let diagnostics = program.instructions_for_first(head + tail_length) - program.instructions_for_first(head);
    if diagnostics > MAX_COMPILED_DIAGNOSTICS {
        return Ok(None);
    }
    Ok(Some(crate::formulations::hoist_lagrange(program, model)))
}

/// A Hamel split as the sample block needs it.
#[derive(Clone, Copy)]
struct Split<'a> {
    dependent: &'a [usize],
    combined: bool,
    /// Independent coordinates.
    k: usize,
}

fn columns(m: usize, split: Option<Split<'_>>) -> usize {
    2 * m + split.map_or(0, |s| s.k)
}

/// The sample block, compiled after the diagnostics' tail (whose values are
/// `tail`: `A`, `b`, `f`, `φ`, `T + V`, then with a split `det A₁`, `Ψ`, `G`, `H`,
/// `E`): first `T + V` and three flags: `Σ (x − x)` over `f`, `φ` and `T + V` (0,
/// or NaN where one is not finite), the same over `det A₁` and `E`, and
/// [`crate::mechanics::split_shortcut`] (1 where the split is regular without an
/// elimination); then the columns as a sample's row holds them: the residuals as
/// written (`φ` for a holonomic constraint, `f` otherwise, chosen here once), the
/// velocity residuals, `E`. Checking, choosing and copying in Rust instead cost a
/// small model's sample a good part of its time.
fn compile(
    block: &mut Block,
    tail: &[Value],
    layout: OutputLayout,
    holonomic: &[bool],
    split: Option<Split<'_>>,
) -> Vec<Value> {
    let (n, m) = (layout.n, layout.m);
    let at = |range: core::ops::Range<usize>| &tail[range.start - layout.jacobian().start..][..range.len()];
    let rows = at(layout.jacobian());
    let (velocity, position) = (at(layout.velocity_residuals()), at(layout.position_residuals()));
    let energy = tail[layout.energy() - layout.jacobian().start];
    let hamel = &tail[layout.len() - layout.jacobian().start..];
    let mut columns: Vec<_> = (0..m).map(|j| if holonomic[j] { position[j] } else { velocity[j] }).collect();
    columns.extend(velocity);
    let poison = |block: &mut Block, values: &mut dyn Iterator<Item = Value>| {
        let mut sum = block.constant(0.0);
        for x in values {
            let zero_or_nan = block.sub(x, x);
            sum = block.add(sum, zero_or_nan);
        }
        sum
    };
    let finite = poison(block, &mut velocity.iter().chain(position).chain([&energy]).copied());
    let (e_finite, shortcut) = match split {
        Some(split) => {
            let at = HamelLayout { k: split.k };
            let (determinant, e) = (hamel[HamelLayout::DETERMINANT], &hamel[at.e()]);
            columns.extend(e);
            let e_finite = poison(block, &mut core::iter::once(determinant).chain(e.iter().copied()));
            let rows = split_rows(block, rows, n, split.dependent, split.combined);
            (e_finite, split_shortcut(block, &rows, n, split.dependent.len(), determinant))
        }
        None => (block.constant(0.0), block.constant(0.0)),
    };
    let mut out = alloc::vec![energy, finite, e_finite, shortcut];
    out.extend(columns);
    out
}

/// What a sample records besides its state, at `(t, q, v)`, written in place:
/// `T + V` (returned) and, into `columns` as a sample's row holds them, the
/// constraints' residuals as written and their velocity residuals (`m` each,
/// when `with_residuals`), then the E-vector (the rest of `columns`: the split's
/// length, or empty when it is not asked for). True beside the energy when E is
/// defined there (a Hamel split, regular there, and finite `det A₁` and `E`;
/// otherwise its place holds unspecified numbers). Only these are read and
/// checked: where the integrator's last stage left the program (or its machine
/// code's tail), only their instructions run, and `M`, `F`, `A`, `b` were checked
/// by that stage. An error names the first value that is not finite among the
/// energy and residuals. (Small, to be inlined where a sample is taken: the
/// interpreter's way is a call of its own.)
#[inline]
pub(crate) fn diagnostics(
    numeric: &mut NumericModel,
    t: f64,
    q: &[f64],
    v: &[f64],
    columns: &mut [f64],
    with_residuals: bool,
) -> Result<(f64, bool), DynamicsError> {
    let m = numeric.m();
    let with_residuals = with_residuals && columns.len() >= 2 * m;
    // With every column asked for, the machine code writes them into the row.
    let direct = with_residuals && columns.len() == numeric.native.columns.len();
    let native = numeric.native_diagnostics(t, q, v, direct.then_some(&mut *columns));
    if let Some(sampled) = native.then(|| natively(numeric, t, columns, direct, with_residuals)).flatten() {
        return sampled;
    }
    let (residual_columns, e) = columns.split_at_mut(if with_residuals { 2 * m } else { 0 });
    interpreted(numeric, t, [q, v], residual_columns, e)
}

/// [`diagnostics`] by the interpreter at `(t, q, v)`, into the residuals' columns
/// (both kinds, or empty) and the E-vector's.
#[inline(never)]
fn interpreted(
    numeric: &mut NumericModel,
    t: f64,
    [q, v]: [&[f64]; 2],
    residual_columns: &mut [f64],
    e: &mut [f64],
) -> Result<(f64, bool), DynamicsError> {
    let layout = numeric.layout;
    let (n, m) = (layout.n, layout.m);
    // The outputs read start at `A`, right after `M` and `F`.
    let read = layout.jacobian().start..layout.len();
    numeric.load_inputs(t, q, v);
    let _ = numeric.all.load(&numeric.inputs);
    // With the E-vector asked for: Hamel's outputs and the split's dependent
    // coordinates.
    let hamel = numeric.hamel.as_mut().filter(|h| !e.is_empty() && e.len() == h.terms.independent.len());
    numeric.all.compute_first(hamel.as_ref().map_or(read.end, |h| h.first + h.outputs.len()));
    numeric.all.read_outputs(read.start, &mut numeric.outputs[read.clone()]);
    let hamel = hamel.map(|h| {
        numeric.all.read_outputs(h.first, &mut h.outputs);
        (&h.outputs[..], &h.terms.dependent[..], h.terms.combined)
    });
    let outputs = &numeric.outputs;
    let checked = &outputs[layout.checked()];
    if !checked.iter().all(|x| x.is_finite()) {
        return Err(numeric.non_finite_diagnostic(checked, t));
    }
    let (velocity, position) = (&outputs[layout.velocity_residuals()], &outputs[layout.position_residuals()]);
    if residual_columns.len() == 2 * m {
        let (residuals, velocity_residuals) = residual_columns.split_at_mut(m);
        let holonomic = &numeric.terms.holonomic[..m];
        for j in 0..m {
            residuals[j] = as_written(holonomic[j], velocity[j], position[j]);
            velocity_residuals[j] = velocity[j];
        }
    }
    let energy = outputs[layout.energy()];
    let Some((values, dependent, combined)) = hamel else { return Ok((energy, false)) };
    let at = HamelLayout { k: e.len() };
    let (determinant, found) = (values[HamelLayout::DETERMINANT], &values[at.e()]);
    let defined = determinant.is_finite()
        && found.iter().all(|x| x.is_finite())
        && split_is_regular_rows(
            &split_rows_of_numbers(&outputs[layout.jacobian()], n, dependent, combined),
            n,
            dependent,
            determinant,
        );
    if defined {
        e.copy_from_slice(found);
    }
    Ok((energy, defined))
}

/// [`diagnostics`] from what the machine code's tail left: the main program's
/// outputs from `A` on and the sample's scalars in the tail's first part, whose
/// flags are tested, and its columns ([`compile`]) in `columns` already when
/// `direct`, else in the second part, copied from there as asked for. `None`
/// (the interpreter answers) where the first part is too short to hold the
/// scalars, which a tail never leaves.
#[inline]
fn natively(
    numeric: &NumericModel,
    t: f64,
    columns: &mut [f64],
    direct: bool,
    with_residuals: bool,
) -> Option<Result<(f64, bool), DynamicsError>> {
    let layout = numeric.layout;
    let (n, m) = (layout.n, layout.m);
    let (main, &[energy, finite, e_finite, shortcut]) = numeric.native.tail.split_last_chunk()?;
    // `main` holds the outputs from `A` on.
    let from = |k: usize| k - layout.jacobian().start;
    if finite != 0.0 {
        // NaN: one of `f`, `φ`, `T + V` is not finite.
        let checked = main.get(from(layout.checked().start)..).unwrap_or_default();
        return Some(Err(numeric.non_finite_diagnostic(checked, t)));
    }
    let e_at = if with_residuals { 2 * m } else { 0 };
    if !direct {
        let (residuals, e) = numeric.native.columns.split_at(2 * m);
        columns[..e_at].copy_from_slice(&residuals[..e_at]);
        if columns.len() - e_at == e.len() {
            columns[e_at..].copy_from_slice(e);
        }
    }
    let k = columns.len() - e_at;
    let Some(h) = numeric.hamel.as_ref().filter(|h| k > 0 && k == h.terms.independent.len()) else {
        return Some(Ok((energy, false)));
    };
    let rows = main.get(..layout.jacobian().len())?;
    let defined = e_finite == 0.0
        && (shortcut == 1.0
            || split_is_regular_by_elimination(
                &split_rows_of_numbers(rows, n, &h.terms.dependent, h.terms.combined),
                n,
                &h.terms.dependent,
            ));
    Some(Ok((energy, defined)))
}
