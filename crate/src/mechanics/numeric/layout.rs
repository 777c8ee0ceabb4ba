//! Where each term sits among a model's compiled inputs and outputs.
//!
//! Every program of a model reads `[t, q…, v…, parameters…]` and the main one
//! writes `[M; F; A; b; f; φ; T + V]` (matrices row-major), then, with a Hamel
//! split, `[det A₁; Ψ; G; H; E]`. The order matters: a method's right-hand side
//! reads only `M`, `F`, `A`, `b`, which come first, so the interpreter stops there
//! and a sample's diagnostics run only the instructions after them.

use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Range;

use crate::expr::{ExprGraph, ExprId, SymbolId};
use crate::mechanics::Model;
use crate::message::{run, Message};

/// The main program's outputs for `n` coordinates and `m` constraints, by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OutputLayout {
    /// Coordinates.
    pub n: usize,
    /// Constraints.
    pub m: usize,
}

impl OutputLayout {
    /// `M` (n×n).
    #[inline]
    pub fn mass(self) -> Range<usize> {
        0..self.n * self.n
    }

    /// `F` (n).
    #[inline]
    pub fn forcing(self) -> Range<usize> {
        let at = self.mass().end;
        at..at + self.n
    }

    /// `A = ∂f/∂v` (m×n).
    #[inline]
    pub fn jacobian(self) -> Range<usize> {
        let at = self.forcing().end;
        at..at + self.m * self.n
    }

    /// `b` (m).
    #[inline]
    pub fn bias(self) -> Range<usize> {
        let at = self.jacobian().end;
        at..at + self.m
    }

    /// `f` (m): the velocity-level residuals.
    #[inline]
    pub fn velocity_residuals(self) -> Range<usize> {
        let at = self.bias().end;
        at..at + self.m
    }

    /// `φ` (m): the position-level residuals, 0 for a constraint that is not holonomic.
    #[inline]
    pub fn position_residuals(self) -> Range<usize> {
        let at = self.velocity_residuals().end;
        at..at + self.m
    }

    /// `T + V`.
    #[inline]
    pub fn energy(self) -> usize {
        self.position_residuals().end
    }

    /// `M`, `F`, `A`, `b`: what a method's right-hand side reads.
    #[inline]
    pub fn dynamics(self) -> Range<usize> {
        0..self.bias().end
    }

    /// `f`, `φ`, `T + V`: what a sample checks is finite.
    #[inline]
    pub fn checked(self) -> Range<usize> {
        self.velocity_residuals().start..self.energy() + 1
    }

    /// How many outputs come before Hamel's (the split's `det A₁` comes next).
    #[inline]
    pub fn len(self) -> usize {
        self.energy() + 1
    }

    /// Whether there are no outputs (never: the energy is always one).
    #[inline]
    pub fn is_empty(self) -> bool {
        false
    }

    /// What output `k` is, by name: `the mass matrix entry (x, y)`, `the force
    /// F[x] (from T, V and the forces)`, `the constraint Jacobian entry (blade, x)`.
    pub fn describe(self, k: usize, coordinates: &[String], constraints: &[String]) -> Message {
        let n = self.n;
        let within = |range: Range<usize>| range.contains(&k).then(|| k - range.start);
        if let Some(i) = within(self.mass()) {
            return run::mass_entry(&coordinates[i / n], &coordinates[i % n]);
        }
        if let Some(i) = within(self.forcing()) {
            return run::force_entry(&coordinates[i]);
        }
        if let Some(i) = within(self.jacobian()) {
            return run::jacobian_entry(&constraints[i / n], &coordinates[i % n]);
        }
        if let Some(j) = within(self.bias()) {
            return run::bias_of(&constraints[j]);
        }
        if let Some(j) = within(self.velocity_residuals()) {
            return run::velocity_residual_of(&constraints[j]);
        }
        if let Some(j) = within(self.position_residuals()) {
            return run::residual_of(&constraints[j]);
        }
        run::energy()
    }
}

/// The inputs `[t, q, v, parameters]` of a model's programs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InputLayout {
    /// Coordinates.
    pub n: usize,
    /// Parameters.
    pub parameters: usize,
}

impl InputLayout {
    /// How many inputs.
    #[inline]
    pub fn len(self) -> usize {
        1 + 2 * self.n + self.parameters
    }

    /// Whether there are none (never: time is one).
    #[inline]
    pub fn is_empty(self) -> bool {
        false
    }

    /// Where the parameters start: what reads only inputs from here on is hoisted
    /// out of the per-call code.
    #[inline]
    pub fn parameters_from(self) -> usize {
        1 + 2 * self.n
    }

    /// The parts in which a native back end passes them: `[t, q, v, parameters]`.
    #[inline]
    pub fn parts(self) -> [usize; 4] {
        [1, self.n, self.n, self.parameters]
    }
}

/// `[t, q, v, parameters]` into `inputs` (whose length says how many parameters).
#[inline]
pub(crate) fn load_inputs(inputs: &mut [f64], parameters: &[f64], t: f64, q: &[f64], v: &[f64]) {
    let n = (inputs.len() - 1 - parameters.len()) / 2;
    inputs[0] = t;
    inputs[1..1 + n].copy_from_slice(&q[..n]);
    inputs[1 + n..1 + 2 * n].copy_from_slice(&v[..n]);
    inputs[1 + 2 * n..].copy_from_slice(parameters);
}

/// The inputs of a model's programs, and a copy of `graph` (the model's, or one that
/// extends it) with the outputs of [`OutputLayout`] (before Hamel's).
pub(crate) fn dynamics_outputs(model: &Model, graph: &ExprGraph) -> (ExprGraph, Vec<SymbolId>, Vec<ExprId>) {
    let g = &model.graph;
    let n = model.coordinate_count();
    let mut inputs: Vec<SymbolId> = alloc::vec![g.time()];
    inputs.extend((0..n).map(|i| g.coordinate(i)[0]));
    inputs.extend((0..n).map(|i| g.coordinate(i)[1]));
    inputs.extend(model.parameters.iter().map(|p| p.symbol));
    let mut graph = graph.clone();
    let zero = graph.zero();
    let energy = crate::mechanics::energy::energy_expression(model, &mut graph);
    let mut outputs: Vec<ExprId> = model.equations.mass_matrix.clone();
    outputs.extend(&model.equations.forcing);
    outputs.extend(model.constraints.iter().flat_map(|c| c.jacobian.iter().copied()));
    outputs.extend(model.constraints.iter().map(|c| c.bias));
    outputs.extend(model.constraints.iter().map(|c| c.velocity_residual));
    outputs.extend(model.constraints.iter().map(|c| c.position_residual.unwrap_or(zero)));
    outputs.push(energy);
    (graph, inputs, outputs)
}

/// The main program's outputs (those of [`dynamics_outputs`], then Hamel's terms
/// `det A₁`, `Ψ`, `G`, `H`, `E` when the model has a split), in the graph that
/// holds them all.
pub(crate) fn main_outputs(model: &Model) -> (ExprGraph, Vec<SymbolId>, Vec<ExprId>) {
    let split = model.hamel.as_ref().ok().zip(model.hamel_graph.as_ref());
    let (graph, inputs, mut outputs) = dynamics_outputs(model, split.map_or(&model.graph, |(_, g)| g));
    if let Some((split, _)) = split {
        outputs.push(split.determinant);
        outputs.extend(split.psi.iter().chain(&split.g).chain(&split.h).chain(&split.e));
    }
    (graph, inputs, outputs)
}

/// Where Hamel's terms sit in their own block of outputs, for `k` independent
/// coordinates: `det A₁`, then `Ψ` (k×k), `G`, `H`, `E` (k each).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HamelLayout {
    /// Independent coordinates.
    pub k: usize,
}

impl HamelLayout {
    /// `det A₁`.
    pub const DETERMINANT: usize = 0;

    /// `Ψ` (k×k).
    #[inline]
    pub fn psi(self) -> Range<usize> {
        1..1 + self.k * self.k
    }

    /// `G` (k).
    #[inline]
    pub fn g(self) -> Range<usize> {
        let at = self.psi().end;
        at..at + self.k
    }

    /// `H` (k).
    #[inline]
    pub fn h(self) -> Range<usize> {
        let at = self.g().end;
        at..at + self.k
    }

    /// `E = G − H` (k).
    #[inline]
    pub fn e(self) -> Range<usize> {
        let at = self.h().end;
        at..at + self.k
    }

    /// How many outputs.
    #[inline]
    pub fn len(self) -> usize {
        self.e().end
    }

    /// Whether there are none (never: the determinant is one).
    #[inline]
    pub fn is_empty(self) -> bool {
        false
    }
}

/// What the machine code's tail gives a sample, in two output parts
/// (`simulation/sample_block.rs` compiles it and reads it): first the main
/// program's outputs from `A` on (`A`, `b`, `f`, `φ`, `T + V`, then Hamel's
/// terms) and the sample's scalars (`T + V` and three flags), then the sample's
/// columns as its row holds them (residuals as written, velocity residuals, `E`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TailLayout {
    /// The main program's outputs, Hamel's included.
    pub main_outputs: usize,
    /// The main program's outputs before `A` (`M` and `F`).
    pub before_jacobian: usize,
    /// Constraints.
    pub m: usize,
    /// The E-vector's components (0 without a split).
    pub k: usize,
}

impl TailLayout {
    /// How many scalars follow the main outputs: `T + V`, then flags for `f`, `φ`,
    /// `T + V` finite, `det A₁` and `E` finite, and the split's shortcut.
    pub const SCALARS: usize = 4;

    /// The two parts' lengths.
    #[inline]
    pub fn parts(self) -> [usize; 2] {
        [self.main_outputs - self.before_jacobian + Self::SCALARS, self.columns()]
    }

    /// A sample's columns with every column asked for: residuals as written,
    /// velocity residuals, `E`.
    #[inline]
    pub fn columns(self) -> usize {
        2 * self.m + self.k
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_ranges_follow_one_another_without_gaps() {
        let o = OutputLayout { n: 3, m: 2 };
        let ranges = [o.mass(), o.forcing(), o.jacobian(), o.bias(), o.velocity_residuals(), o.position_residuals()];
        for pair in ranges.windows(2) {
            assert_eq!(pair[0].end, pair[1].start);
        }
        assert_eq!((o.energy(), o.len()), (9 + 3 + 6 + 2 + 2 + 2, 25));
        assert_eq!(o.checked(), 20..25);
        let h = HamelLayout { k: 2 };
        assert_eq!((h.psi(), h.g(), h.h(), h.e(), h.len()), (1..5, 5..7, 7..9, 9..11, 11));
    }

    #[test]
    fn every_output_is_named() {
        let o = OutputLayout { n: 2, m: 1 };
        let names = |v: &[&str]| v.iter().map(|s| String::from(*s)).collect::<Vec<_>>();
        let (q, c) = (names(&["x", "y"]), names(&["blade"]));
        assert_eq!(o.describe(1, &q, &c).english, "the mass matrix entry (x, y)");
        assert_eq!(o.describe(5, &q, &c).english, "the force F[y] (from T, V and the forces)");
        assert_eq!(o.describe(7, &q, &c).english, "the constraint Jacobian entry (blade, y)");
        assert_eq!(o.describe(8, &q, &c).english, "the bias b of constraint `blade`");
        assert_eq!(o.describe(9, &q, &c).english, "the velocity-level residual of constraint `blade`");
        assert_eq!(o.describe(10, &q, &c).english, "the residual φ of constraint `blade`");
        assert_eq!(o.describe(11, &q, &c).english, "the energy T + V");
    }
}
