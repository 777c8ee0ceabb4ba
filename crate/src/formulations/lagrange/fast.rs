//! Lagrange's fast route: the range-space solve (`crate::math::RangeSpace`),
//! straight from the compiled model's outputs or by its machine code, with no
//! [`crate::mechanics::Terms`] filled and nothing allocated. It declines where a
//! pivot is small or a value is not finite; the general route (`super::solve`)
//! then answers and names what went wrong.

use alloc::vec::Vec;

use crate::mechanics::NumericModel;

/// Lagrange's `q̈` into `accelerations`, the multipliers into the model's
/// [`crate::mechanics::NumericModel`] Lagrange state; false when the route
/// declines (or Baumgarte's correction, which reads the residuals, is on).
/// (Inlined into the caller, with the native call: a small model's native
/// right-hand side is a few hundred instructions, and each frame around it
/// counts.)
#[inline]
pub(crate) fn solve(numeric: &mut NumericModel, t: f64, q: &[f64], v: &[f64], accelerations: &mut [f64]) -> bool {
    numeric.baumgarte.is_none()
        && (by_machine_code(numeric, t, q, v, accelerations) || interpreted(numeric, t, q, v, accelerations))
}

/// By the interpreter and the loops of [`crate::math::RangeSpace`]. Where `M` and
/// `A` depend on the parameters only, their factors are kept until the
/// parameters change, and only `F` and `b` are read.
fn interpreted(numeric: &mut NumericModel, t: f64, q: &[f64], v: &[f64], accelerations: &mut [f64]) -> bool {
    numeric.load_inputs(t, q, v);
    let layout = numeric.layout;
    let (forcing_at, bias_at) = (layout.forcing(), layout.bias());
    let dynamics = layout.dynamics();
    let _ = numeric.all.load(&numeric.inputs);
    numeric.all.compute_first(dynamics.end);
    let changes = numeric.all.slow_changes();
    let invariant = numeric.invariant_mass_and_jacobian;
    let state = &mut numeric.lagrange;
    let kept = invariant && state.factored_for == Some(changes);
    if kept {
        numeric.all.read_outputs(forcing_at.start, &mut numeric.outputs[forcing_at.clone()]);
        numeric.all.read_outputs(bias_at.start, &mut numeric.outputs[bias_at.clone()]);
    } else {
        numeric.all.read_outputs(0, &mut numeric.outputs[dynamics]);
    }
    let outputs = &numeric.outputs;
    let (mass, forcing, jacobian, bias) =
        (&outputs[layout.mass()], &outputs[forcing_at.clone()], &outputs[layout.jacobian()], &outputs[bias_at.clone()]);
    if !kept {
        let ok = state.range_space.factor(layout.n, mass, jacobian);
        state.factored_for = (ok && invariant).then_some(changes);
        if !ok {
            return false;
        }
        if state.factored_for.is_some() {
            // [F; b] and which of its entries vary from call to call.
            let inputs: Vec<f64> = forcing.iter().chain(bias).copied().collect();
            let program = numeric.all.program();
            let varies: Vec<bool> = forcing_at.chain(bias_at).map(|k| !program.output_is_invariant(k)).collect();
            state.range_space.freeze(&inputs, &varies);
        }
    }
    state.range_space.solve(forcing, bias, accelerations, &mut state.multipliers)
}

/// By the machine code (`super::program`), straight from and into the callers'
/// slices; false when there is none or it declines: a pivot below the
/// range-space method's tolerance or a value not finite (the program's flag,
/// `formulations/elimination.rs`).
#[inline]
fn by_machine_code(numeric: &mut NumericModel, t: f64, q: &[f64], v: &[f64], accelerations: &mut [f64]) -> bool {
    let (n, m) = (numeric.layout.n, numeric.layout.m);
    let Some(evaluator) = numeric.native.code.as_mut() else { return false };
    let (Some(q), Some(v), Some(accelerations)) = (q.get(..n), v.get(..n), accelerations.get_mut(..n)) else {
        return false;
    };
    let inputs: [&[f64]; 4] = [&[t], q, v, &numeric.parameters];
    let mut flag = [0.0];
    evaluator.eval(&inputs, &mut [accelerations, &mut numeric.lagrange.multipliers[..m], &mut flag]) && flag[0] == 1.0
}
