//! The model compiled for numbers: `M`, `F`, `A`, `b`, the constraint residuals and
//! the energy at a state, from one straight-line program, with no allocation per
//! call. Inputs are laid out as `[t, q…, v…, parameters…]`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use nalgebra::{DMatrix, DVector};

use super::model::Model;
use crate::expr::{CompileError, Evaluator, ExprGraph, ExprId, NativeEvaluator, Program, SymbolId};
use crate::formulations::elimination;

/// Why the dynamics could not be evaluated at a state.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum DynamicsError {
    /// A value came out NaN or infinite.
    #[error("{what} is not finite at t = {}", crate::math::Short(*t))]
    NonFinite {
        /// Which quantity.
        what: String,
        /// When.
        t: f64,
    },
    /// A matrix that must be invertible is not.
    #[error("{what} is singular at t = {}{hint}", crate::math::Short(*t))]
    Singular {
        /// Which matrix.
        what: &'static str,
        /// When.
        t: f64,
        /// What may cause it, starting with "; " (or empty).
        hint: &'static str,
    },
    /// Redundant constraints that cannot all be met: no accelerations satisfy them.
    #[error("the constraints {} cannot all be met at t = {} (they are redundant and inconsistent: no accelerations satisfy them)", constraint_numbers(rows), crate::math::Short(*t))]
    Inconsistent {
        /// The rows (0-based constraint indices) left unmet by the nearest solution.
        rows: Vec<usize>,
        /// When.
        t: f64,
    },
    /// The mass matrix is not positive definite.
    #[error("the mass matrix is not positive definite at t = {}: check the kinetic energy and the parameters", crate::math::Short(*t))]
    NotPositiveDefinite {
        /// When.
        t: f64,
    },
    /// The method cannot be used for this model.
    #[error("{0}")]
    Unsupported(String),
}

/// `#1, #3`: constraints by their place in the model (1-based).
fn constraint_numbers(rows: &[usize]) -> String {
    rows.iter().map(|j| format!("#{}", j + 1)).collect::<Vec<_>>().join(", ")
}

/// Numeric values of the model's terms at one state.
#[derive(Clone, Debug)]
pub struct Terms {
    /// `M` (n×n).
    pub mass: DMatrix<f64>,
    /// `F` (n).
    pub forcing: DVector<f64>,
    /// `A = ∂f/∂v` (m×n).
    pub jacobian: DMatrix<f64>,
    /// `b` (m).
    pub bias: DVector<f64>,
    /// `f` (m): velocity-level residuals.
    pub residuals: DVector<f64>,
    /// `φ` (m): position-level residuals of holonomic constraints, 0 for others.
    pub position_residuals: DVector<f64>,
    /// `T + V`.
    pub energy: f64,
    /// Which constraints are holonomic (their residual as written is `φ`).
    pub holonomic: Vec<bool>,
}

impl Terms {
    /// The residual of constraint `j` as written in the scenario: `φ(q, t)` for a
    /// holonomic constraint, `f(q, v, t)` for the others.
    pub fn constraint_residual(&self, j: usize) -> f64 {
        as_written(self.holonomic[j], self.residuals[j], self.position_residuals[j])
    }

    /// Every constraint's residual as written, in scenario order.
    pub fn constraint_residuals(&self) -> Vec<f64> {
        (0..self.residuals.len()).map(|j| self.constraint_residual(j)).collect()
    }
}

/// A constraint's residual as the scenario writes it: `φ` for a holonomic
/// constraint, its velocity-level `f` for the others.
fn as_written(holonomic: bool, velocity: f64, position: f64) -> f64 {
    if holonomic {
        position
    } else {
        velocity
    }
}

/// Numeric values of a Hamel split's terms at one state (evaluated on the
/// constraint: the state's dependent velocities are not used).
#[derive(Clone, Debug)]
pub struct HamelTerms {
    /// Whether the split is built on `A₁ᵀA` (`HamelSplit::combined`).
    pub combined: bool,
    /// Dependent coordinates' indices.
    pub dependent: Vec<usize>,
    /// Independent coordinates' indices.
    pub independent: Vec<usize>,
    /// `det A₁`.
    pub determinant: f64,
    /// `Ψ` (k×k).
    pub psi: DMatrix<f64>,
    /// `G` (k).
    pub g: DVector<f64>,
    /// `H` (k).
    pub h: DVector<f64>,
    /// `E = G − H` (k).
    pub e: DVector<f64>,
    /// Whether `A₁` is far enough from singular here for these terms to mean
    /// anything (`formulations::hamel::split_margin` above its tolerance).
    pub split_regular: bool,
}

/// Numeric values of the vakonomic equations at `(t, q, v, μ)`.
#[derive(Clone, Debug)]
pub struct VakonomicTerms {
    /// `M_v` (n×n).
    pub mass: DMatrix<f64>,
    /// `C = ∂R/∂μ̇` (n×m).
    pub rates: DMatrix<f64>,
    /// `F_v` (n).
    pub forcing: DVector<f64>,
}

#[derive(Clone, Debug)]
struct CompiledVakonomic {
    evaluator: Evaluator,
    inputs: Vec<f64>,
    outputs: Vec<f64>,
    terms: VakonomicTerms,
}

/// Hamel's split, compiled as the last outputs of the main program: its terms
/// share `M`, `F`, `A` and their subexpressions (the sines and cosines of a
/// sleigh's angle), so a sample's E-vector, taken where the integrator's last
/// stage left the registers, computes only what is Hamel's own.
#[derive(Clone, Debug)]
struct CompiledHamel {
    /// Index of `det A₁` among the main program's outputs; `Ψ`, `G`, `H`, `E` follow.
    first: usize,
    outputs: Vec<f64>,
    terms: HamelTerms,
}

/// Most instructions of a program [`NumericModel::lagrange_program`] hands to a
/// compiler: the bicycle's is 5,798 and compiles to machine code in about 0.1 s,
/// roughly in proportion, so this bounds a run's compile time near a second.
pub const MAX_COMPILED_INSTRUCTIONS: usize = 50_000;

/// The compiled model.
#[derive(Clone, Debug)]
pub struct NumericModel {
    n: usize,
    m: usize,
    all: Evaluator,
    jacobian_only: Evaluator,
    inputs: Vec<f64>,
    outputs: Vec<f64>,
    jacobian_outputs: Vec<f64>,
    /// Parameter values, in [`Model::parameters`] order; change them freely.
    pub parameters: Vec<f64>,
    /// Baumgarte rates (α, β): when set, `b` is corrected towards `f = 0`, `φ = 0`.
    pub baumgarte: Option<(f64, f64)>,
    terms: Terms,
    hamel: Option<CompiledHamel>,
    vakonomic: Option<CompiledVakonomic>,
    workspace: crate::formulations::Workspace,
    /// The fast route for Lagrange's equations, and the multipliers it found.
    range_space: crate::formulations::RangeSpace,
    multipliers: Vec<f64>,
    /// Whether `M` and `A` depend on the parameters only, so that their factors
    /// are kept until the parameters change.
    invariant_mass_and_jacobian: bool,
    /// The evaluator's [`Evaluator::slow_changes`] when the kept factors were made.
    factored_for: Option<u64>,
    /// Names of the constraints nonlinear in the velocities (methods that need
    /// linear ones refuse with them).
    pub(crate) nonlinear_constraints: Vec<String>,
    /// Coordinate and constraint names, for messages.
    names: (Vec<String>, Vec<String>),
    /// Machine code for [`NumericModel::lagrange_program`], when a native back end
    /// gave it.
    native_lagrange: Option<NativeEvaluator>,
    /// What the native code's tail gave ([`NumericModel::native_diagnostics`]):
    /// its first part (the main program's outputs from `A` on and the sample's
    /// scalars), its second (the sample's columns) where no row took them, and
    /// room for the outputs of a body run only for it.
    native_tail: Vec<f64>,
    native_columns: Vec<f64>,
    native_scratch: Vec<f64>,
}

/// Hamel's outputs at a sample (`det A₁`, `Ψ`, `G`, `H`, `E`) and the split's
/// dependent coordinates.
type HamelValues<'a> = (&'a [f64], &'a [usize], bool);

/// The programs' inputs `[t, q, v, parameters]` into `inputs`.
fn load_inputs(inputs: &mut [f64], parameters: &[f64], t: f64, q: &[f64], v: &[f64]) {
    let n = (inputs.len() - 1 - parameters.len()) / 2;
    inputs[0] = t;
    inputs[1..1 + n].copy_from_slice(&q[..n]);
    inputs[1 + n..1 + 2 * n].copy_from_slice(&v[..n]);
    inputs[1 + 2 * n..].copy_from_slice(parameters);
}

/// The main program's outputs at a sample's state, wherever they were computed:
/// in the interpreter's registers, or in the native code's tail (which holds the
/// outputs from `A` on).
struct DiagnosticsSource<'a> {
    all: &'a Evaluator,
    native_tail: Option<&'a [f64]>,
    n: usize,
}

impl DiagnosticsSource<'_> {
    /// Outputs `first..first + out.len()` of the main program into `out`.
    fn read(&self, first: usize, out: &mut [f64]) {
        match self.native_tail {
            Some(tail) => {
                let from = first - self.n * self.n - self.n;
                out.copy_from_slice(&tail[from..from + out.len()]);
            }
            None => self.all.read_outputs(first, out),
        }
    }
}

/// The inputs `[t, q, v, parameters]` of a model's programs, and a copy of `graph`
/// (the model's, or one that extends it) with the outputs `[M; F; A; b; f; φ; T + V]`
/// (row-major).
fn dynamics_outputs(model: &Model, graph: &ExprGraph) -> (ExprGraph, Vec<SymbolId>, Vec<ExprId>) {
    let g = &model.graph;
    let n = model.coordinate_count();
    let mut inputs: Vec<SymbolId> = alloc::vec![g.time()];
    inputs.extend((0..n).map(|i| g.coordinate(i)[0]));
    inputs.extend((0..n).map(|i| g.coordinate(i)[1]));
    inputs.extend(model.parameters.iter().map(|p| p.symbol));
    let mut graph = graph.clone();
    let zero = graph.zero();
    let energy = graph.add2(model.kinetic, model.potential);
    let mut outputs: Vec<ExprId> = model.equations.mass_matrix.clone();
    outputs.extend(&model.equations.forcing);
    outputs.extend(model.constraints.iter().flat_map(|c| c.jacobian.iter().copied()));
    outputs.extend(model.constraints.iter().map(|c| c.bias));
    outputs.extend(model.constraints.iter().map(|c| c.velocity_residual));
    outputs.extend(model.constraints.iter().map(|c| c.position_residual.unwrap_or(zero)));
    outputs.push(energy);
    (graph, inputs, outputs)
}

/// Most instructions of the diagnostics [`NumericModel::lagrange_program_with_diagnostics`]
/// adds. Machine code for them costs compile time that a run earns back only over
/// many samples: the bicycle's 9,190 (its Hamel terms) took its compile from 44 to
/// 236 ms, about 25 µs of interpreting per sample saved, so some 8,000 samples;
/// the ball in a cone's 1,423 cost 7 ms. Past this the samples are interpreted.
pub const MAX_COMPILED_DIAGNOSTICS: usize = 2_500;

/// The main program's outputs (those of [`dynamics_outputs`], then Hamel's terms
/// when the model has a split), in the graph that holds them all.
fn main_outputs(model: &Model) -> (ExprGraph, Vec<SymbolId>, Vec<ExprId>, usize) {
    let split = model.hamel.as_ref().ok().zip(model.hamel_graph.as_ref());
    let (graph, inputs, mut outputs) = dynamics_outputs(model, split.map_or(&model.graph, |(_, g)| g));
    let dynamics = outputs.len();
    if let Some((split, _)) = split {
        outputs.push(split.determinant);
        outputs.extend(split.psi.iter().chain(&split.g).chain(&split.h).chain(&split.e));
    }
    (graph, inputs, outputs, dynamics)
}

/// Lagrange's right-hand side as one program (see
/// [`NumericModel::lagrange_program`]), with the diagnostics as a tail when
/// `diagnostics` is set.
fn lagrange_program(
    model: &Model,
    max_instructions: usize,
    diagnostics: bool,
) -> Result<Option<Program>, CompileError> {
    let n = model.coordinate_count();
    let m = model.constraints.len();
    let (graph, inputs, outputs) = if diagnostics {
        let (graph, inputs, outputs, _) = main_outputs(model);
        (graph, inputs, outputs)
    } else {
        dynamics_outputs(model, &model.graph)
    };
    let head = &outputs[..n * n + n + m * n + m];
    let tail = if diagnostics { &outputs[n * n + n..] } else { &[] };
    let known: Vec<Option<f64>> = head.iter().map(|&e| graph.as_number(e).map(|x| x.to_f64())).collect();
    if elimination::instruction_estimate(n, m, &known) > elimination::MAX_INSTRUCTIONS {
        return Ok(None);
    }
    let holonomic: Vec<bool> = model.constraints.iter().map(|c| c.is_holonomic()).collect();
    let split = model.hamel.as_ref().ok().filter(|_| model.hamel_graph.is_some());
    let program = graph.compile_with_blocks(
        head,
        &inputs,
        |block, terms| elimination::eliminate(block, n, m, terms),
        tail,
        |block, tail| {
            if diagnostics {
                sample_block(
                    block,
                    tail,
                    n,
                    &holonomic,
                    split.map(|s| (&s.dependent[..], s.combined, s.independent.len())),
                )
            } else {
                Vec::new()
            }
        },
    )?;
    // The tail's own instructions (the sample's few after them are not counted).
    let tail_end = program.instructions_for_first(n + m + 1 + tail.len());
    let diagnostics_length = tail_end - program.instructions_for_first(n + m + 1);
    if program.code().len() > max_instructions || diagnostics_length > MAX_COMPILED_DIAGNOSTICS {
        return Ok(None);
    }
    Ok(Some(program.hoist(1 + 2 * n)))
}

/// How many numbers [`sample_block`] starts with: `T + V`, then three flags.
const SAMPLE_SCALARS: usize = 4;

/// What a sample stores and tests, compiled after the diagnostics' tail (whose
/// values are `tail`: `A`, `b`, `f`, `φ`, `T + V`, then with a Hamel split of `r`
/// dependent coordinates `det A₁`, `Ψ`, `G`, `H`, `E`): first `T + V` and three
/// flags: `Σ (x − x)` over `f`, `φ` and `T + V` (0, or NaN where one is not
/// finite), the same over `det A₁` and `E`, and
/// [`crate::formulations::split_shortcut`] (1 where the split is regular without an
/// elimination); then the columns as a sample's row holds them: the residuals as
/// written (`φ` for a holonomic constraint, `f` otherwise, chosen here once), the
/// velocity residuals, `E`. The machine code writes the columns straight into the
/// row (the tail's second part), and a sample tests three numbers: checking,
/// choosing and judging in Rust cost the sleigh about 150 of its 1,000
/// instructions a sample, and copying the columns into the row about 120 more.
fn sample_block(
    block: &mut crate::expr::Block,
    tail: &[crate::expr::Value],
    n: usize,
    holonomic: &[bool],
    split: Option<(&[usize], bool, usize)>,
) -> Vec<crate::expr::Value> {
    use crate::expr::Arithmetic;
    let m = holonomic.len();
    let (rows, rest) = tail.split_at(m * n);
    let (velocity, rest) = rest[m..].split_at(m);
    let (position, rest) = rest.split_at(m);
    let (energy, hamel) = (rest[0], &rest[1..]);
    let mut columns: Vec<_> = (0..m).map(|j| if holonomic[j] { position[j] } else { velocity[j] }).collect();
    columns.extend(velocity);
    let poison = |block: &mut crate::expr::Block, values: &mut dyn Iterator<Item = crate::expr::Value>| {
        let mut sum = block.constant(0.0);
        for x in values {
            let zero_or_nan = block.sub(x, x);
            sum = block.add(sum, zero_or_nan);
        }
        sum
    };
    let finite = poison(block, &mut velocity.iter().chain(position).chain([&energy]).copied());
    let (e_finite, shortcut) = match split {
        Some((dependent, combined, k)) => {
            let (determinant, e) = (hamel[0], &hamel[1 + k * k + 2 * k..][..k]);
            columns.extend(e);
            let e_finite = poison(block, &mut core::iter::once(determinant).chain(e.iter().copied()));
            let rows = crate::formulations::split_rows(block, rows, n, dependent, combined);
            (e_finite, crate::formulations::split_shortcut(block, &rows, n, dependent.len(), determinant))
        }
        None => (block.constant(0.0), block.constant(0.0)),
    };
    let mut out = alloc::vec![energy, finite, e_finite, shortcut];
    out.extend(columns);
    out
}

impl NumericModel {
    /// Compiles the model's terms.
    pub fn new(model: &Model) -> Result<Self, CompileError> {
        let n = model.coordinate_count();
        let m = model.constraints.len();
        // Hamel's split lives in a graph that extends the model's: compiled there, its
        // terms follow the main outputs in one program.
        let split = model.hamel.as_ref().ok().zip(model.hamel_graph.as_ref());
        let (graph, inputs, program_outputs, dynamics) = main_outputs(model);
        let outputs = &program_outputs[..dynamics];
        let jacobian = &outputs[n * n + n..n * n + n + m * n];
        // Inputs from 1 + 2n on are the parameters: what reads only them is hoisted.
        let slow_from = 1 + 2 * n;
        let all = graph.compile(&program_outputs, &inputs)?.hoist(slow_from);
        let jacobian_outputs = n * n + n..n * n + n + m * n;
        let invariant_mass_and_jacobian = (0..n * n).chain(jacobian_outputs).all(|k| all.output_is_invariant(k));
        let all = all.into_evaluator();
        let vakonomic = match &model.vakonomic {
            Ok(eq) => {
                let mut vak_inputs = inputs.clone();
                vak_inputs.extend(&eq.multipliers);
                let mut outs = eq.mass_matrix.clone();
                outs.extend(&eq.rate_matrix);
                outs.extend(&eq.forcing);
                let own = model.vakonomic_graph.as_ref().unwrap_or(&model.graph);
                Some(CompiledVakonomic {
                    evaluator: own.compile(&outs, &vak_inputs)?.into_evaluator(),
                    inputs: alloc::vec![0.0; vak_inputs.len()],
                    outputs: alloc::vec![0.0; outs.len()],
                    terms: VakonomicTerms {
                        mass: DMatrix::zeros(n, n),
                        rates: DMatrix::zeros(n, m),
                        forcing: DVector::zeros(n),
                    },
                })
            }
            Err(_) => None,
        };
        let hamel = split.map(|(split, _)| {
            let k = split.independent.len();
            CompiledHamel {
                first: outputs.len(),
                outputs: alloc::vec![0.0; program_outputs.len() - outputs.len()],
                terms: HamelTerms {
                    combined: split.combined,
                    dependent: split.dependent.clone(),
                    independent: split.independent.clone(),
                    determinant: 0.0,
                    psi: DMatrix::zeros(k, k),
                    g: DVector::zeros(k),
                    h: DVector::zeros(k),
                    e: DVector::zeros(k),
                    split_regular: false,
                },
            }
        });
        let jacobian_only = graph.compile(jacobian, &inputs)?.hoist(slow_from).into_evaluator();
        Ok(NumericModel {
            n,
            m,
            all,
            jacobian_only,
            inputs: alloc::vec![0.0; inputs.len()],
            outputs: alloc::vec![0.0; outputs.len()],
            jacobian_outputs: alloc::vec![0.0; jacobian.len()],
            parameters: model.parameters.iter().map(|p| p.value).collect(),
            baumgarte: None,
            hamel,
            vakonomic,
            workspace: Default::default(),
            range_space: Default::default(),
            multipliers: alloc::vec![0.0; m],
            invariant_mass_and_jacobian,
            factored_for: None,
            nonlinear_constraints: model.nonlinear_constraints(),
            names: (model.coordinate_names().to_vec(), model.constraints.iter().map(|c| c.name.clone()).collect()),
            native_lagrange: None,
            native_tail: Vec::new(),
            native_columns: Vec::new(),
            native_scratch: Vec::new(),
            terms: Terms {
                mass: DMatrix::zeros(n, n),
                forcing: DVector::zeros(n),
                jacobian: DMatrix::zeros(m, n),
                bias: DVector::zeros(m),
                residuals: DVector::zeros(m),
                position_residuals: DVector::zeros(m),
                energy: 0.0,
                holonomic: model.constraints.iter().map(|c| c.is_holonomic()).collect(),
            },
        })
    }

    /// The parts in which [`NumericModel::lagrange_program`]'s inputs and outputs are
    /// passed to native code, for `n` coordinates and `m` constraints:
    /// `([1, n, n, parameters], [n, m, 1])` (`t`, `q`, `v`, parameters; `q̈`, `λ`,
    /// the flag).
    pub fn lagrange_parts(&self) -> ([usize; 4], [usize; 3]) {
        let (n, m) = (self.n, self.m);
        ([1, n, n, self.parameters.len()], [n, m, 1])
    }

    /// Lagrange's right-hand side as one program, for a native back end: inputs
    /// `[t, q, v, parameters]`, outputs `[q̈; λ; accepted]` (see
    /// `formulations/elimination.rs`), with the range-space solve written out for
    /// this model's sizes and structural zeros and the parameters' part hoisted.
    /// `None` when the written-out solve would be too large, or the whole program
    /// longer than [`MAX_COMPILED_INSTRUCTIONS`] (machine code's compile time grows
    /// with it; such a model is interpreted).
    pub fn lagrange_program(model: &Model) -> Result<Option<Program>, CompileError> {
        NumericModel::lagrange_program_within(model, MAX_COMPILED_INSTRUCTIONS)
    }

    /// As [`NumericModel::lagrange_program`], `None` above `max_instructions`.
    pub fn lagrange_program_within(model: &Model, max_instructions: usize) -> Result<Option<Program>, CompileError> {
        lagrange_program(model, max_instructions, false)
    }

    /// [`NumericModel::lagrange_program`] followed by what a sample records, as the
    /// last outputs: the main program's outputs from `A` on (`A`, `b`, the
    /// residuals, `T + V` and, with a Hamel split, `det A₁`, `Ψ`, `G`, `H`, `E`),
    /// then what a sample stores and tests, in the two parts of
    /// [`NumericModel::lagrange_tail_parts`]. A back end runs them only for
    /// a sample, from the values its right-hand side left
    /// ([`crate::expr::CompiledCode::tail`]). `None` as for
    /// [`NumericModel::lagrange_program`], the diagnostics counted in its length,
    /// and when they alone are over [`MAX_COMPILED_DIAGNOSTICS`] instructions.
    pub fn lagrange_program_with_diagnostics(model: &Model) -> Result<Option<Program>, CompileError> {
        lagrange_program(model, MAX_COMPILED_INSTRUCTIONS, true)
    }

    /// How many instructions compute what a sample records after `M`, `F`, `A`, `b`
    /// (energy, residuals, Hamel's terms): the length of the diagnostics that
    /// [`NumericModel::lagrange_program_with_diagnostics`] adds, known without
    /// compiling it.
    pub fn diagnostics_instructions(&self) -> usize {
        let (n, m) = (self.n, self.m);
        let program = self.all.program();
        program.code().len() - program.instructions_for_first(n * n + n + m * n + m)
    }

    /// The parts of the outputs [`NumericModel::lagrange_program_with_diagnostics`]
    /// adds to [`NumericModel::lagrange_program`]'s: the main program's from `A`
    /// on and the sample's scalars (`T + V` and three flags), then the sample's
    /// columns as its row holds them (residuals as written, velocity residuals,
    /// `E`; [`sample_block`]).
    pub fn lagrange_tail_parts(&self) -> [usize; 2] {
        [self.main_tail_len() + SAMPLE_SCALARS, self.sample_columns()]
    }

    /// The main program's outputs from `A` on.
    fn main_tail_len(&self) -> usize {
        self.all.program().output_count() - self.n * self.n - self.n
    }

    /// How many columns a sample with every column has: residuals as written,
    /// velocity residuals, `E`.
    fn sample_columns(&self) -> usize {
        2 * self.m + self.e_components().unwrap_or(0)
    }

    /// Uses `native` (machine code for [`NumericModel::lagrange_program`], compiled
    /// for the parts of [`NumericModel::lagrange_parts`]) for
    /// Lagrange's right-hand side from now on; `None` goes back to the interpreter.
    /// Where its pivots are small or a value is not finite, the general route
    /// answers, as it does for the interpreter's solve.
    /// With a tail (compiled from
    /// [`NumericModel::lagrange_program_with_diagnostics`] with the tail in the
    /// parts of [`NumericModel::lagrange_tail_parts`]), a sample's energy, residuals
    /// and Hamel's terms come from it too.
    pub fn set_native_lagrange(&mut self, native: Option<NativeEvaluator>) {
        self.native_lagrange = native;
        let tail = self.native_lagrange.as_ref().is_some_and(NativeEvaluator::has_tail);
        let [head, columns] = if tail { self.lagrange_tail_parts() } else { [0, 0] };
        self.native_tail = alloc::vec![0.0; head];
        self.native_columns = alloc::vec![0.0; columns];
        self.native_scratch = alloc::vec![0.0; self.n + self.m + 1];
    }

    /// The machine code Lagrange's right-hand side runs, if any.
    pub fn native_lagrange(&self) -> Option<&NativeEvaluator> {
        self.native_lagrange.as_ref()
    }

    /// Whether Lagrange's right-hand side runs machine code.
    pub fn has_native_lagrange(&self) -> bool {
        self.native_lagrange.is_some()
    }

    /// How many instructions compute `M` and `F` alone (the start of the main
    /// program): what compares with other tools' code for the equations of motion.
    pub fn mass_and_forcing_instructions(&self) -> usize {
        self.all.program().instructions_for_first(self.n * self.n + self.n)
    }

    /// The compiled programs' sizes in instructions: `(M, F, A, b, residuals and
    /// energy; Hamel's split; the vakonomic equations)`, 0 for a part not derived.
    pub fn program_sizes(&self) -> (usize, usize, usize) {
        let program = self.all.program();
        let main = self.hamel.as_ref().map_or(program.code().len(), |h| program.instructions_for_first(h.first));
        (main, program.code().len() - main, self.vakonomic.as_ref().map_or(0, |v| v.evaluator.program().code().len()))
    }

    /// Number of coordinates.
    pub fn n(&self) -> usize {
        self.n
    }

    /// Number of constraints.
    pub fn m(&self) -> usize {
        self.m
    }

    fn load_inputs(&mut self, t: f64, q: &[f64], v: &[f64]) {
        load_inputs(&mut self.inputs, &self.parameters, t, q, v);
    }

    /// All terms at `(t, q, v)`; an error names the first value that is not finite.
    pub fn evaluate(&mut self, t: f64, q: &[f64], v: &[f64]) -> Result<&Terms, DynamicsError> {
        self.load_inputs(t, q, v);
        self.compute_main_outputs(0..self.outputs.len());
        let (n, m) = (self.n, self.m);
        self.fill_dynamics(self.outputs.len(), t)?;
        let o = &self.outputs;
        let tm = &mut self.terms;
        let k = n * n + n + m * n;
        tm.residuals.copy_from_slice(&o[k + m..k + 2 * m]);
        tm.position_residuals.copy_from_slice(&o[k + 2 * m..k + 3 * m]);
        tm.energy = o[k + 3 * m];
        if let Some((alpha, beta)) = self.baumgarte {
            for j in 0..m {
                let correction = if tm.holonomic[j] {
                    2.0 * alpha * tm.residuals[j] + beta * beta * tm.position_residuals[j]
                } else {
                    alpha * tm.residuals[j]
                };
                tm.bias[j] -= correction;
            }
        }
        Ok(&self.terms)
    }

    /// What a sample records besides its state, at `(t, q, v)`, written in place:
    /// `T + V` (returned) and, into `columns` as a sample's row holds them, the
    /// constraints' residuals as written and their velocity residuals (`m` each,
    /// when `with_residuals`), then the E-vector (the rest of `columns`: the
    /// split's length, or empty when it is not asked for). True beside the energy
    /// when E is defined there (a Hamel split, regular there, and finite `det A₁`
    /// and `E`; otherwise its place holds unspecified numbers). Only these are
    /// read and checked: where the integrator's last stage left the program (or
    /// its machine code's tail), only their instructions run, and `M`, `F`, `A`,
    /// `b` were checked by that stage. An error names the first value that is not
    /// finite among the energy and residuals. (Small, to be inlined where a
    /// sample is taken: the interpreter's way is a call of its own.)
    #[inline]
    pub(crate) fn diagnostics(
        &mut self,
        t: f64,
        q: &[f64],
        v: &[f64],
        columns: &mut [f64],
        with_residuals: bool,
    ) -> Result<(f64, bool), DynamicsError> {
        let with_residuals = with_residuals && columns.len() >= 2 * self.m;
        // With every column asked for, the machine code writes them into the row.
        let direct = with_residuals && columns.len() == self.native_columns.len();
        let native = self.native_diagnostics(t, q, v, direct.then_some(&mut *columns));
        if let Some(sampled) = native.then(|| self.sampled_natively(t, columns, direct, with_residuals)).flatten() {
            return sampled;
        }
        let (residual_columns, e) = columns.split_at_mut(if with_residuals { 2 * self.m } else { 0 });
        self.interpreted_diagnostics(t, [q, v], residual_columns, e)
    }

    /// [`NumericModel::diagnostics`] by the interpreter at `(t, q, v)`, into the
    /// residuals' columns (both kinds, or empty) and the E-vector's.
    #[inline(never)]
    fn interpreted_diagnostics(
        &mut self,
        t: f64,
        [q, v]: [&[f64]; 2],
        residual_columns: &mut [f64],
        e: &mut [f64],
    ) -> Result<(f64, bool), DynamicsError> {
        let (n, m) = (self.n, self.m);
        // The outputs read start at `A`, right after `M` and `F`.
        let from = n * n + n;
        let count = self.outputs.len();
        self.load_inputs(t, q, v);
        let _ = self.all.load(&self.inputs);
        // With the E-vector asked for: Hamel's outputs and the split's dependent
        // coordinates.
        let hamel = self.hamel.as_mut().filter(|h| !e.is_empty() && e.len() == h.terms.independent.len());
        self.all.compute_first(hamel.as_ref().map_or(count, |h| h.first + h.outputs.len()));
        self.all.read_outputs(from, &mut self.outputs[from..count]);
        let hamel: Option<HamelValues<'_>> = hamel.map(|h| {
            self.all.read_outputs(h.first, &mut h.outputs);
            (&h.outputs[..], &h.terms.dependent[..], h.terms.combined)
        });
        let main = &self.outputs[from..count];
        // Velocity residuals, position residuals, `T + V`, after `A` and `b`.
        let checked = &main[m * n + m..];
        if !checked.iter().all(|x| x.is_finite()) {
            return Err(self.non_finite_diagnostic(checked, t));
        }
        let (velocity, rest) = checked.split_at(m);
        let (position, energy) = rest.split_at(m);
        if residual_columns.len() == 2 * m {
            let (residuals, velocity_residuals) = residual_columns.split_at_mut(m);
            let holonomic = &self.terms.holonomic[..m];
            for j in 0..m {
                residuals[j] = as_written(holonomic[j], velocity[j], position[j]);
                velocity_residuals[j] = velocity[j];
            }
        }
        let energy = energy[0];
        let Some((values, dependent, combined)) = hamel else { return Ok((energy, false)) };
        // Hamel's outputs: `det A₁`, then `Ψ` (k×k), `G`, `H`, `E` (k each).
        let k = e.len();
        let (determinant, found) = (values[0], &values[1 + k * k + 2 * k..][..k]);
        let defined = determinant.is_finite()
            && found.iter().all(|x| x.is_finite())
            && crate::formulations::split_is_regular_rows(
                &crate::formulations::split_rows_of_numbers(&main[..m * n], n, dependent, combined),
                n,
                dependent,
                determinant,
            );
        if defined {
            e.copy_from_slice(found);
        }
        Ok((energy, defined))
    }

    /// [`NumericModel::diagnostics`] from what the machine code's tail left: the
    /// main program's outputs from `A` on and the sample's scalars in
    /// `native_tail`, whose flags are tested, and its columns ([`sample_block`])
    /// in `columns` already when `direct`, else in `native_columns`, copied from
    /// there as asked for. `None` (the interpreter answers) where `native_tail`
    /// is too short to hold the scalars, which a tail never leaves.
    #[inline]
    fn sampled_natively(
        &self,
        t: f64,
        columns: &mut [f64],
        direct: bool,
        with_residuals: bool,
    ) -> Option<Result<(f64, bool), DynamicsError>> {
        let (n, m) = (self.n, self.m);
        let (main, &[energy, finite, e_finite, shortcut]) = self.native_tail.split_last_chunk()?;
        if finite != 0.0 {
            // NaN: one of `f`, `φ`, `T + V` is not finite.
            return Some(Err(self.non_finite_diagnostic(main.get(m * n + m..).unwrap_or_default(), t)));
        }
        let e_at = if with_residuals { 2 * m } else { 0 };
        if !direct {
            let (residuals, e) = self.native_columns.split_at(2 * m);
            columns[..e_at].copy_from_slice(&residuals[..e_at]);
            if columns.len() - e_at == e.len() {
                columns[e_at..].copy_from_slice(e);
            }
        }
        let k = columns.len() - e_at;
        let Some(h) = self.hamel.as_ref().filter(|h| k > 0 && k == h.terms.independent.len()) else {
            return Some(Ok((energy, false)));
        };
        let rows = main.get(..m * n)?;
        let defined = e_finite == 0.0
            && (shortcut == 1.0
                || crate::formulations::split_is_regular_by_elimination(
                    &crate::formulations::split_rows_of_numbers(rows, n, &h.terms.dependent, h.terms.combined),
                    n,
                    &h.terms.dependent,
                ));
        Some(Ok((energy, defined)))
    }

    /// The error for a sample whose `checked` values (`f`, `φ`, `T + V`) are not
    /// all finite, naming the first that is not.
    #[cold]
    fn non_finite_diagnostic(&self, checked: &[f64], t: f64) -> DynamicsError {
        let (n, m) = (self.n, self.m);
        let k = checked.iter().position(|x| !x.is_finite()).unwrap_or(0);
        let what = describe_output(n * n + n + m * n + m + k, &self.names.0, &self.names.1);
        DynamicsError::NonFinite { what, t }
    }

    /// Runs the native code's tail at `(t, q, v)`, its first part into
    /// `native_tail` and its second (the sample's columns) into `columns`, or
    /// `native_columns` when none are given (its body first, unless it last ran
    /// there: the integrator's last stage). False when there is no such code, or
    /// when the interpreter's registers hold this state instead (another method's
    /// last stage), so that its own tail is cheaper. The inputs are loaded for the
    /// interpreter only on that way (at a sample after a step, loading them cost
    /// 90 of its instructions).
    fn native_diagnostics(&mut self, t: f64, q: &[f64], v: &[f64], columns: Option<&mut [f64]>) -> bool {
        let (n, m) = (self.n, self.m);
        let Some(evaluator) = self.native_lagrange.as_mut().filter(|e| e.has_tail()) else { return false };
        let inputs: [&[f64]; 4] = [&[t], &q[..n], &v[..n], &self.parameters];
        let columns = columns.unwrap_or(&mut self.native_columns);
        if evaluator.eval_tail(&inputs, &mut [&mut self.native_tail, &mut *columns]) {
            return true;
        }
        load_inputs(&mut self.inputs, &self.parameters, t, q, v);
        if self.all.holds(&self.inputs) {
            return false;
        }
        let (accelerations, rest) = self.native_scratch.split_at_mut(n);
        let (multipliers, flag) = rest.split_at_mut(m);
        evaluator.eval(&inputs, &mut [accelerations, multipliers, flag])
            && evaluator.eval_tail(&inputs, &mut [&mut self.native_tail, columns])
    }

    /// Runs the main program at the loaded inputs as far as the outputs `wanted`
    /// need (what it has run for these inputs already is skipped) and reads those.
    fn compute_main_outputs(&mut self, wanted: core::ops::Range<usize>) {
        // The inputs' shape is the program's own.
        let _ = self.all.load(&self.inputs);
        self.all.compute_first(wanted.end);
        self.all.read_outputs(wanted.start, &mut self.outputs[wanted]);
    }

    /// The vakonomic equations' terms at `(t, q, v, μ)`; `None` when they could not
    /// be derived.
    pub fn vakonomic_terms(
        &mut self,
        t: f64,
        q: &[f64],
        v: &[f64],
        mu: &[f64],
    ) -> Option<Result<&VakonomicTerms, DynamicsError>> {
        self.load_inputs(t, q, v);
        let (n, m) = (self.n, self.m);
        let vk = self.vakonomic.as_mut()?;
        let base = self.inputs.len();
        vk.inputs[..base].copy_from_slice(&self.inputs);
        for (slot, k) in vk.inputs[base..].iter_mut().zip(0..m) {
            *slot = mu.get(k).copied().unwrap_or(0.0);
        }
        let _ = vk.evaluator.eval(&vk.inputs, &mut vk.outputs);
        if vk.outputs.iter().any(|x| !x.is_finite()) {
            return Some(Err(DynamicsError::NonFinite { what: "a term of the vakonomic equations".into(), t }));
        }
        fill_row_major(&mut vk.terms.mass, &vk.outputs[..n * n]);
        fill_row_major(&mut vk.terms.rates, &vk.outputs[n * n..n * n + n * m]);
        vk.terms.forcing.copy_from_slice(&vk.outputs[n * n + n * m..]);
        Some(Ok(&vk.terms))
    }

    /// The number of the E-vector's components (independent coordinates of the
    /// model's Hamel split); `None` without a split.
    pub fn e_components(&self) -> Option<usize> {
        self.hamel.as_ref().map(|h| h.terms.independent.len())
    }

    /// The Hamel split's terms at `(t, q, v)`; `None` when the model has no split
    /// (constraints nonlinear in the velocities, or none at all).
    pub fn hamel_terms(&mut self, t: f64, q: &[f64], v: &[f64]) -> Option<Result<&HamelTerms, DynamicsError>> {
        self.hamel.as_ref()?;
        self.load_inputs(t, q, v);
        let native = self.native_diagnostics(t, q, v, None);
        let h = self.hamel.as_mut()?;
        if !native {
            // The main program computes them after its own outputs: where it has run
            // for this state already (the integrator's last stage), only Hamel's part
            // runs.
            let _ = self.all.load(&self.inputs);
            self.all.compute_first(h.first + h.outputs.len());
        }
        let source = DiagnosticsSource { all: &self.all, native_tail: native.then_some(&self.native_tail), n: self.n };
        source.read(h.first, &mut h.outputs);
        source.read(self.n * self.n + self.n, &mut self.jacobian_outputs);
        let k = h.terms.independent.len();
        let o = &h.outputs;
        if let Some(i) = o.iter().position(|x| !x.is_finite()) {
            let what =
                if i == 0 { "det A₁ of the Hamel split" } else { "a term of Hamel's embedding (Ψ, G, H or E)" };
            return Some(Err(DynamicsError::NonFinite { what: what.into(), t }));
        }
        h.terms.determinant = o[0];
        fill_row_major(&mut h.terms.psi, &o[1..1 + k * k]);
        let mut at = 1 + k * k;
        for target in [&mut h.terms.g, &mut h.terms.h, &mut h.terms.e] {
            target.copy_from_slice(&o[at..at + k]);
            at += k;
        }
        h.terms.split_regular = crate::formulations::split_is_regular_rows(
            &crate::formulations::split_rows_of_numbers(
                &self.jacobian_outputs,
                self.n,
                &h.terms.dependent,
                h.terms.combined,
            ),
            self.n,
            &h.terms.dependent,
            h.terms.determinant,
        );
        Some(Ok(&h.terms))
    }

    /// `M`, `F`, `A` and `b` at `(t, q, v)`, the rest of [`Terms`] (residuals,
    /// energy) left as it was: all that a method's right-hand side reads. The program
    /// computes them first, so the diagnostics compiled after them (half the program
    /// of a small system) are skipped. With Baumgarte's correction, which reads the
    /// residuals, everything is evaluated.
    pub fn evaluate_dynamics(&mut self, t: f64, q: &[f64], v: &[f64]) -> Result<&Terms, DynamicsError> {
        if self.baumgarte.is_some() {
            return self.evaluate(t, q, v);
        }
        self.load_inputs(t, q, v);
        let (n, m) = (self.n, self.m);
        let count = n * n + n + m * n + m;
        self.compute_main_outputs(0..count);
        self.fill_dynamics(count, t)?;
        Ok(&self.terms)
    }

    /// Checks the first `checked` outputs are finite (naming the first that is not)
    /// and puts `M`, `F`, `A` and `b` from the outputs into the terms.
    fn fill_dynamics(&mut self, checked: usize, t: f64) -> Result<(), DynamicsError> {
        let (n, m) = (self.n, self.m);
        if let Some(k) = self.outputs[..checked].iter().position(|x| !x.is_finite()) {
            return Err(DynamicsError::NonFinite { what: describe_output(k, &self.names.0, &self.names.1), t });
        }
        let (o, tm) = (&self.outputs, &mut self.terms);
        fill_row_major(&mut tm.mass, &o[..n * n]);
        tm.forcing.copy_from_slice(&o[n * n..n * n + n]);
        fill_row_major(&mut tm.jacobian, &o[n * n + n..n * n + n + m * n]);
        tm.bias.copy_from_slice(&o[n * n + n + m * n..n * n + n + m * n + m]);
        Ok(())
    }

    /// [`NumericModel::evaluate_dynamics`] together with a reusable solver workspace.
    pub(crate) fn evaluate_with_workspace(
        &mut self,
        t: f64,
        q: &[f64],
        v: &[f64],
    ) -> Result<(&Terms, &mut crate::formulations::Workspace), DynamicsError> {
        self.evaluate_dynamics(t, q, v)?;
        Ok((&self.terms, &mut self.workspace))
    }

    /// Lagrange's `q̈` into `accelerations` by the range-space method, straight from
    /// the program's outputs (no [`Terms`] filled, nothing allocated); the
    /// multipliers are then [`NumericModel::multipliers`]. False when the method
    /// declines or a value is not finite: the caller takes the general route, which
    /// handles such systems and names what was not finite.
    /// (Inlined into the caller, with the native call: a small model's native
    /// right-hand side is a few hundred instructions, and each frame around it
    /// counts.)
    #[inline]
    pub(crate) fn lagrange_range_space(&mut self, t: f64, q: &[f64], v: &[f64], accelerations: &mut [f64]) -> bool {
        self.baumgarte.is_none()
            && (self.native_lagrange_solve(t, q, v, accelerations)
                || self.interpreted_range_space(t, q, v, accelerations))
    }

    /// [`NumericModel::lagrange_range_space`] by the interpreter and the loops of
    /// [`crate::formulations::RangeSpace`].
    fn interpreted_range_space(&mut self, t: f64, q: &[f64], v: &[f64], accelerations: &mut [f64]) -> bool {
        self.load_inputs(t, q, v);
        let (n, m) = (self.n, self.m);
        let first_bias = n * n + n + m * n;
        let count = first_bias + m;
        let _ = self.all.load(&self.inputs);
        self.all.compute_first(count);
        let changes = self.all.slow_changes();
        let kept = self.invariant_mass_and_jacobian && self.factored_for == Some(changes);
        // With kept factors only F and b are read; otherwise M and A too.
        if kept {
            self.all.read_outputs(n * n, &mut self.outputs[n * n..n * n + n]);
            self.all.read_outputs(first_bias, &mut self.outputs[first_bias..count]);
        } else {
            self.all.read_outputs(0, &mut self.outputs[..count]);
        }
        let (mass, rest) = self.outputs.split_at(n * n);
        let (forcing, rest) = rest.split_at(n);
        let (jacobian, bias) = rest.split_at(m * n);
        if !kept {
            let ok = self.range_space.factor(n, mass, jacobian);
            self.factored_for = (ok && self.invariant_mass_and_jacobian).then_some(changes);
            if !ok {
                return false;
            }
            if self.factored_for.is_some() {
                // [F; b] and which of its entries vary from call to call.
                let inputs: Vec<f64> = forcing.iter().chain(&bias[..m]).copied().collect();
                let program = self.all.program();
                let varies: Vec<bool> = (n * n..n * n + n)
                    .chain(first_bias..first_bias + m)
                    .map(|k| !program.output_is_invariant(k))
                    .collect();
                self.range_space.freeze(&inputs, &varies);
            }
        }
        self.range_space.solve(forcing, &bias[..m], accelerations, &mut self.multipliers)
    }

    /// Lagrange's `q̈` by the native code, straight from and into the callers'
    /// slices; false when there is none or it declines: a pivot below the
    /// range-space method's tolerance or a value not finite (the program's flag,
    /// `formulations/elimination.rs`).
    #[inline]
    fn native_lagrange_solve(&mut self, t: f64, q: &[f64], v: &[f64], accelerations: &mut [f64]) -> bool {
        let (n, m) = (self.n, self.m);
        let Some(evaluator) = self.native_lagrange.as_mut() else { return false };
        let (Some(q), Some(v), Some(accelerations)) = (q.get(..n), v.get(..n), accelerations.get_mut(..n)) else {
            return false;
        };
        let inputs: [&[f64]; 4] = [&[t], q, v, &self.parameters];
        let mut flag = [0.0];
        evaluator.eval(&inputs, &mut [accelerations, &mut self.multipliers[..m], &mut flag]) && flag[0] == 1.0
    }

    /// The multipliers found by the last call of Lagrange's method.
    pub(crate) fn multipliers_mut(&mut self) -> &mut [f64] {
        &mut self.multipliers
    }

    /// `A = ∂f/∂v` alone at `(t, q, v)` (m×n): the Euler condition evaluates it
    /// along `s·v`.
    pub fn jacobian_at(&mut self, t: f64, q: &[f64], v: &[f64]) -> Result<DMatrix<f64>, DynamicsError> {
        self.load_inputs(t, q, v);
        let _ = self.jacobian_only.eval(&self.inputs, &mut self.jacobian_outputs);
        if self.jacobian_outputs.iter().any(|x| !x.is_finite()) {
            return Err(DynamicsError::NonFinite { what: "the constraint Jacobian ∂f/∂v".into(), t });
        }
        Ok(DMatrix::from_row_slice(self.m, self.n, &self.jacobian_outputs))
    }
}

/// Fills a matrix from row-major values (nalgebra stores columns).
fn fill_row_major(matrix: &mut DMatrix<f64>, row_major: &[f64]) {
    let cols = matrix.ncols();
    for (r, row) in row_major.chunks_exact(cols.max(1)).enumerate() {
        for (c, &x) in row.iter().enumerate() {
            matrix[(r, c)] = x;
        }
    }
}

/// What output `k` of the main program is, by name: `the mass matrix entry (x, y)`,
/// `the force F[x] (from T, V and the forces)`, `the constraint Jacobian entry (blade, x)`.
fn describe_output(k: usize, coordinates: &[String], constraints: &[String]) -> String {
    let (n, m) = (coordinates.len(), constraints.len());
    let mut k = k;
    if k < n * n {
        return format!("the mass matrix entry ({}, {})", coordinates[k / n], coordinates[k % n]);
    }
    k -= n * n;
    if k < n {
        return format!("the force F[{}] (from T, V and the forces)", coordinates[k]);
    }
    k -= n;
    if k < m * n {
        return format!("the constraint Jacobian entry ({}, {})", constraints[k / n], coordinates[k % n]);
    }
    k -= m * n;
    let what = ["the bias b", "the velocity-level residual", "the residual φ"];
    if k < 3 * m {
        return format!("{} of constraint `{}`", what[k / m], constraints[k % m]);
    }
    "the energy T + V".into()
}
