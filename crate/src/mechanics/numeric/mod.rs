//! The model compiled for numbers: `M`, `F`, `A`, `b`, the constraint residuals and
//! the energy at a state, from one straight-line program ([`OutputLayout`]), with
//! no allocation per call; Hamel's terms follow in the same program and the
//! vakonomic equations have one of their own.
//!
//! The compiled model also carries what evaluates it faster: machine code for
//! Lagrange's right-hand side when a back end gave it, and the factors Lagrange's
//! solver keeps between calls. The solver itself is `formulations/lagrange/`, and
//! what a sample reads from the machine code's tail is `simulation/sample_block.rs`;
//! they reach the fields marked `pub(crate)` below.

mod contacts;
mod discrete;
mod layout;
mod terms;

use alloc::string::String;
use alloc::vec::Vec;
use nalgebra::{DMatrix, DVector};

pub use contacts::{
    columns_fail as contact_columns_fail, ContactForce, ContactForces, ContactInfo, State as ContactState, Unbalanced,
    COLUMNS as CONTACT_COLUMNS, COLUMN_PREFIXES as CONTACT_COLUMN_PREFIXES,
};
pub use discrete::{applicability as discrete_applicability, DiscreteLayout, DiscreteTerms};
pub(crate) use layout::{dynamics_outputs, load_inputs, main_outputs};
pub use layout::{HamelLayout, InputLayout, OutputLayout, TailLayout};
pub(crate) use terms::as_written;
pub(crate) use terms::fill_row_major;
pub use terms::{DynamicsError, HamelTerms, SingularHint, SingularMatrix, Terms, VakonomicTerms};

use super::model::Model;
use crate::expr::{CompileError, Evaluator, ExprId, NativeEvaluator};
use crate::math::{RangeSpace, Workspace};

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
pub(crate) struct CompiledHamel {
    /// Index of `det A₁` among the main program's outputs; the rest of
    /// [`HamelLayout`] follows.
    pub(crate) first: usize,
    /// Where the terms are read into.
    pub(crate) outputs: Vec<f64>,
    pub(crate) terms: HamelTerms,
}

/// What Lagrange's solver (`formulations/lagrange/fast.rs`) keeps between calls.
#[derive(Clone, Debug, Default)]
pub(crate) struct LagrangeState {
    /// The range-space factors.
    pub(crate) range_space: RangeSpace,
    /// The multipliers the last call found.
    pub(crate) multipliers: Vec<f64>,
    /// The evaluator's [`Evaluator::slow_changes`] when the kept factors were made.
    pub(crate) factored_for: Option<u64>,
}

/// Machine code for Lagrange's right-hand side and where its tail writes.
#[derive(Clone, Debug, Default)]
pub(crate) struct Native {
    pub(crate) code: Option<NativeEvaluator>,
    /// The tail's first part ([`TailLayout`]): the main program's outputs from
    /// `A` on and the sample's scalars.
    pub(crate) tail: Vec<f64>,
    /// The tail's second part (the sample's columns) where no row took them.
    pub(crate) columns: Vec<f64>,
    /// Room for the outputs of a body run only for the tail.
    pub(crate) scratch: Vec<f64>,
}

/// Machine code for one of the model's programs, with the inputs it last ran
/// for, so that a second call at the same state reads what the first computed.
#[derive(Clone, Debug)]
struct NativeProgram {
    code: NativeEvaluator,
    /// The flat inputs `[t, q, v, parameters]` of the last run (empty: none).
    ran_for: Vec<f64>,
}

impl NativeProgram {
    fn new(code: NativeEvaluator) -> Self {
        NativeProgram { code, ran_for: Vec::new() }
    }

    /// The body's outputs at the flat `inputs` (`n` coordinates) into `outputs`,
    /// unless they are there from the last run; false when the code declined
    /// (wrong shapes).
    fn run(&mut self, inputs: &[f64], n: usize, outputs: &mut [f64]) -> bool {
        if crate::expr::same_bits(&self.ran_for, inputs) {
            return true;
        }
        let (t, rest) = inputs.split_at(1.min(inputs.len()));
        let (q, rest) = rest.split_at(n.min(rest.len()));
        let (v, parameters) = rest.split_at(n.min(rest.len()));
        if self.code.eval(&[t, q, v, parameters], &mut [outputs]) {
            self.ran_for.clear();
            self.ran_for.extend_from_slice(inputs);
            return true;
        }
        self.ran_for.clear();
        false
    }
}

/// The compiled model.
#[derive(Clone, Debug)]
pub struct NumericModel {
    pub(crate) layout: OutputLayout,
    /// The main program ([`OutputLayout`], then Hamel's terms).
    pub(crate) all: Evaluator,
    /// `A`, `f`, `φ` alone ([`NumericModel::constraint_terms`]).
    constraints: Evaluator,
    /// The programs' inputs ([`InputLayout`]), as last loaded.
    pub(crate) inputs: Vec<f64>,
    /// The main program's outputs before Hamel's, as last read.
    pub(crate) outputs: Vec<f64>,
    jacobian_outputs: Vec<f64>,
    /// The constraints' program's outputs, as last read.
    constraint_outputs: Vec<f64>,
    /// Parameter values, in [`Base::parameters`](crate::mechanics::Base::parameters) order; change them freely.
    pub parameters: Vec<f64>,
    /// Baumgarte rates (α, β): when set, `b` is corrected towards `f = 0`, `φ = 0`.
    pub baumgarte: Option<(f64, f64)>,
    pub(crate) terms: Terms,
    pub(crate) hamel: Option<CompiledHamel>,
    vakonomic: Option<CompiledVakonomic>,
    workspace: Workspace,
    pub(crate) lagrange: LagrangeState,
    /// Whether `M` and `A` depend on the parameters only, so that their factors
    /// are kept until the parameters change.
    pub(crate) invariant_mass_and_jacobian: bool,
    /// Names of the constraints nonlinear in the velocities (methods that need
    /// linear ones refuse with them).
    pub(crate) nonlinear_constraints: Vec<String>,
    /// Coordinate and constraint names, for messages.
    names: (Vec<String>, Vec<String>),
    pub(crate) native: Native,
    /// Machine code for the main program's outputs before Hamel's and for the
    /// constraints' program, where a caller compiled them
    /// ([`NumericModel::set_native_terms`]).
    native_terms: Option<NativeProgram>,
    native_constraints: Option<NativeProgram>,
    /// The contact forces' terms, where the model has contacts.
    pub contacts: Option<ContactForces>,
    /// What the structure-preserving integrators step with, compiled when the
    /// scenario asks for one of them (else `None`); `Err` says why they do not
    /// apply to the model.
    pub discrete: Option<Result<DiscreteTerms, crate::message::Message>>,
}

impl NumericModel {
    /// Compiles the model's terms.
    pub fn new(model: &Model) -> Result<Self, CompileError> {
        let n = model.coordinate_count();
        let m = model.constraints.len();
        let layout = OutputLayout { n, m };
        // Hamel's split lives in a graph that extends the model's: compiled there, its
        // terms follow the main outputs in one program.
        let (graph, inputs, program_outputs) = main_outputs(model);
        let jacobian = &program_outputs[layout.jacobian()];
        let constraint_outputs: Vec<ExprId> = program_outputs[layout.jacobian()]
            .iter()
            .chain(&program_outputs[layout.velocity_residuals()])
            .chain(&program_outputs[layout.position_residuals()])
            .copied()
            .collect();
        let slow_from = InputLayout { n, parameters: model.parameters.len() }.parameters_from();
        let all = graph.compile(&program_outputs, &inputs)?.hoist(slow_from);
        let invariant_mass_and_jacobian = layout.mass().chain(layout.jacobian()).all(|k| all.output_is_invariant(k));
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
        let split = model.hamel.as_ref().ok().filter(|_| model.hamel_graph.is_some());
        let hamel = split.map(|split| {
            let k = split.independent.len();
            CompiledHamel {
                first: layout.len(),
                outputs: alloc::vec![0.0; HamelLayout { k }.len()],
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
        let constraints = graph.compile(&constraint_outputs, &inputs)?.hoist(slow_from).into_evaluator();
        Ok(NumericModel {
            layout,
            all,
            constraints,
            inputs: alloc::vec![0.0; inputs.len()],
            outputs: alloc::vec![0.0; layout.len()],
            jacobian_outputs: alloc::vec![0.0; jacobian.len()],
            constraint_outputs: alloc::vec![0.0; constraint_outputs.len()],
            parameters: model.parameters.iter().map(|p| p.value).collect(),
            baumgarte: None,
            hamel,
            vakonomic,
            workspace: Default::default(),
            lagrange: LagrangeState { multipliers: alloc::vec![0.0; m], ..Default::default() },
            invariant_mass_and_jacobian,
            nonlinear_constraints: model.nonlinear_constraints(),
            names: (model.coordinate_names().to_vec(), model.constraints.iter().map(|c| c.name.clone()).collect()),
            native: Native::default(),
            native_terms: None,
            native_constraints: None,
            contacts: ContactForces::new(model),
            discrete: model
                .scenario
                .run
                .integrator_kinds()
                .iter()
                .any(|k| k.is_structure_preserving())
                .then(|| DiscreteTerms::new(model)),
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

    /// Compiles what the structure-preserving integrators step (or why they do not
    /// apply), for a caller that chooses one the scenario does not name (the
    /// command line's `--integrator`); nothing when it is there already.
    pub fn prepare_structure_preserving(&mut self, model: &Model) {
        if self.discrete.is_none() {
            self.discrete = Some(DiscreteTerms::new(model));
        }
    }

    /// Where each term sits among the main program's outputs.
    pub fn layout(&self) -> OutputLayout {
        self.layout
    }

    /// Where each part of a sample sits in the machine code's tail.
    pub fn tail_layout(&self) -> TailLayout {
        TailLayout {
            main_outputs: self.all.program().output_count(),
            before_jacobian: self.layout.jacobian().start,
            m: self.layout.m,
            k: self.e_components().unwrap_or(0),
        }
    }

    /// The parts in which the programs' inputs are passed to native code.
    pub fn input_layout(&self) -> InputLayout {
        InputLayout { n: self.layout.n, parameters: self.parameters.len() }
    }

    /// How many instructions compute what a sample records after `M`, `F`, `A`, `b`
    /// (energy, residuals, Hamel's terms): the length of the diagnostics a sample's
    /// machine code adds, known without compiling it.
    pub fn diagnostics_instructions(&self) -> usize {
        let program = self.all.program();
        program.code().len() - program.instructions_for_first(self.layout.dynamics().end)
    }

    /// Uses `native` (machine code for Lagrange's right-hand side,
    /// `formulations::lagrange_program`, compiled for the parts of
    /// `formulations::lagrange_parts`) from now on; `None` goes back to the
    /// interpreter. Where its pivots are small or a value is not finite, the
    /// general route answers, as it does for the interpreter's solve. With a tail
    /// (`simulation::lagrange_program_with_diagnostics`, compiled with the tail in
    /// the parts of [`TailLayout::parts`]), a sample's energy, residuals and
    /// Hamel's terms come from it too.
    pub fn set_native_lagrange(&mut self, native: Option<NativeEvaluator>) {
        let tail = native.as_ref().is_some_and(NativeEvaluator::has_tail);
        let [head, columns] = if tail { self.tail_layout().parts() } else { [0, 0] };
        self.native = Native {
            code: native,
            tail: alloc::vec![0.0; head],
            columns: alloc::vec![0.0; columns],
            scratch: alloc::vec![0.0; self.layout.n + self.layout.m + 1],
        };
    }

    /// The main program (`M`, `F`, `A`, `b`, `f`, `φ`, `T + V`, then Hamel's terms),
    /// for machine code ([`NumericModel::set_native_terms`]).
    pub fn terms_program(&self) -> &crate::expr::Program {
        self.all.program()
    }

    /// The constraints' program (`A`, `f`, `φ`: [`NumericModel::constraint_terms`]),
    /// for machine code ([`NumericModel::set_native_terms`]).
    pub fn constraints_program(&self) -> &crate::expr::Program {
        self.constraints.program()
    }

    /// Uses machine code for [`NumericModel::evaluate`] and
    /// [`NumericModel::evaluate_dynamics`] (`terms`) and for
    /// [`NumericModel::constraint_terms`] (`constraints`) from now on, each
    /// compiled with its inputs in the parts of [`InputLayout::parts`]:
    /// [`NumericModel::terms_program`] with its outputs in the parts
    /// `[OutputLayout::len, the rest]`, the rest (Hamel's terms) a tail that is
    /// never run, and [`NumericModel::constraints_program`] with one part. What a
    /// stability map's points evaluate (a run's right-hand side has its own code,
    /// [`NumericModel::set_native_lagrange`]). `None` interprets again.
    pub fn set_native_terms(&mut self, terms: Option<NativeEvaluator>, constraints: Option<NativeEvaluator>) {
        self.native_terms = terms.map(NativeProgram::new);
        self.native_constraints = constraints.map(NativeProgram::new);
    }

    /// The machine code Lagrange's right-hand side runs, if any.
    pub fn native_lagrange(&self) -> Option<&NativeEvaluator> {
        self.native.code.as_ref()
    }

    /// Whether Lagrange's right-hand side runs machine code.
    pub fn has_native_lagrange(&self) -> bool {
        self.native.code.is_some()
    }

    /// How many instructions compute `M` and `F` alone (the start of the main
    /// program): what compares with other tools' code for the equations of motion.
    pub fn mass_and_forcing_instructions(&self) -> usize {
        self.all.program().instructions_for_first(self.layout.forcing().end)
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
        self.layout.n
    }

    /// Number of constraints.
    pub fn m(&self) -> usize {
        self.layout.m
    }

    /// Loads `[t, q, v, parameters]` into the inputs (not yet into an evaluator).
    pub(crate) fn load_inputs(&mut self, t: f64, q: &[f64], v: &[f64]) {
        load_inputs(&mut self.inputs, &self.parameters, t, q, v);
    }

    /// All terms at `(t, q, v)`; an error names the first value that is not finite.
    pub fn evaluate(&mut self, t: f64, q: &[f64], v: &[f64]) -> Result<&Terms, DynamicsError> {
        let layout = self.layout;
        self.load_inputs(t, q, v);
        self.compute_main_outputs(0..layout.len());
        self.fill_dynamics(layout.len(), t)?;
        let o = &self.outputs;
        let tm = &mut self.terms;
        tm.residuals.copy_from_slice(&o[layout.velocity_residuals()]);
        tm.position_residuals.copy_from_slice(&o[layout.position_residuals()]);
        tm.energy = o[layout.energy()];
        if let Some((alpha, beta)) = self.baumgarte {
            for j in 0..layout.m {
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

    /// The error for `checked` values (`f`, `φ`, `T + V`, as a sample checks them)
    /// not all finite, naming the first that is not.
    #[cold]
    pub(crate) fn non_finite_diagnostic(&self, checked: &[f64], t: f64) -> DynamicsError {
        let k = checked.iter().position(|x| !x.is_finite()).unwrap_or(0);
        let what = self.layout.describe(self.layout.checked().start + k, &self.names.0, &self.names.1);
        DynamicsError::NonFinite { what, t }
    }

    /// Runs the native code's tail at `(t, q, v)`, its first part into
    /// `native.tail` and its second (the sample's columns) into `columns`, or
    /// `native.columns` when none are given (its body first, unless it last ran
    /// there: the integrator's last stage). False when there is no such code, or
    /// when the interpreter's registers hold this state instead (another method's
    /// last stage), so that its own tail is cheaper. The inputs are loaded for the
    /// interpreter only on that way (at a sample after a step, loading them is a
    /// good part of its cost).
    pub(crate) fn native_diagnostics(&mut self, t: f64, q: &[f64], v: &[f64], columns: Option<&mut [f64]>) -> bool {
        let (n, m) = (self.layout.n, self.layout.m);
        let Some(evaluator) = self.native.code.as_mut().filter(|e| e.has_tail()) else { return false };
        let inputs: [&[f64]; 4] = [&[t], &q[..n], &v[..n], &self.parameters];
        let columns = columns.unwrap_or(&mut self.native.columns);
        if evaluator.eval_tail(&inputs, &mut [&mut self.native.tail, &mut *columns]) {
            return true;
        }
        load_inputs(&mut self.inputs, &self.parameters, t, q, v);
        if self.all.holds(&self.inputs) {
            return false;
        }
        let (accelerations, rest) = self.native.scratch.split_at_mut(n);
        let (multipliers, flag) = rest.split_at_mut(m);
        evaluator.eval(&inputs, &mut [accelerations, multipliers, flag])
            && evaluator.eval_tail(&inputs, &mut [&mut self.native.tail, columns])
    }

    /// Runs the main program at the loaded inputs as far as the outputs `wanted`
    /// need (what it has run for these inputs already is skipped) and reads those;
    /// with [`NumericModel::set_native_terms`], its machine code gives them all.
    pub(crate) fn compute_main_outputs(&mut self, wanted: core::ops::Range<usize>) {
        if self.native_terms.as_mut().is_some_and(|code| code.run(&self.inputs, self.layout.n, &mut self.outputs)) {
            return;
        }
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
        let (n, m) = (self.layout.n, self.layout.m);
        let vk = self.vakonomic.as_mut()?;
        let base = self.inputs.len();
        vk.inputs[..base].copy_from_slice(&self.inputs);
        for (slot, k) in vk.inputs[base..].iter_mut().zip(0..m) {
            *slot = mu.get(k).copied().unwrap_or(0.0);
        }
        let _ = vk.evaluator.eval(&vk.inputs, &mut vk.outputs);
        if vk.outputs.iter().any(|x| !x.is_finite()) {
            return Some(Err(DynamicsError::NonFinite { what: crate::message::run::vakonomic_term(), t }));
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
        let jacobian = self.layout.jacobian();
        if native {
            // The tail's first part holds the main program's outputs from `A` on.
            let from = |first: usize| first - jacobian.start;
            let count = h.outputs.len();
            h.outputs.copy_from_slice(&self.native.tail[from(h.first)..][..count]);
            self.jacobian_outputs.copy_from_slice(&self.native.tail[..jacobian.len()]);
        } else {
            // The main program computes them after its own outputs: where it has run
            // for this state already (the integrator's last stage), only Hamel's part
            // runs.
            let _ = self.all.load(&self.inputs);
            self.all.compute_first(h.first + h.outputs.len());
            self.all.read_outputs(h.first, &mut h.outputs);
            self.all.read_outputs(jacobian.start, &mut self.jacobian_outputs);
        }
        let at = HamelLayout { k: h.terms.independent.len() };
        let o = &h.outputs;
        if let Some(i) = o.iter().position(|x| !x.is_finite()) {
            let what = if i == HamelLayout::DETERMINANT {
                crate::message::run::hamel_determinant()
            } else {
                crate::message::run::hamel_term()
            };
            return Some(Err(DynamicsError::NonFinite { what, t }));
        }
        h.terms.determinant = o[HamelLayout::DETERMINANT];
        fill_row_major(&mut h.terms.psi, &o[at.psi()]);
        h.terms.g.copy_from_slice(&o[at.g()]);
        h.terms.h.copy_from_slice(&o[at.h()]);
        h.terms.e.copy_from_slice(&o[at.e()]);
        let n = self.layout.n;
        h.terms.split_regular = super::split_is_regular_rows(
            &super::split_rows_of_numbers(&self.jacobian_outputs, n, &h.terms.dependent, h.terms.combined),
            n,
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
        let dynamics = self.layout.dynamics();
        self.compute_main_outputs(dynamics.clone());
        self.fill_dynamics(dynamics.end, t)?;
        Ok(&self.terms)
    }

    /// Checks the first `checked` outputs are finite (naming the first that is not)
    /// and puts `M`, `F`, `A` and `b` from the outputs into the terms.
    fn fill_dynamics(&mut self, checked: usize, t: f64) -> Result<(), DynamicsError> {
        let layout = self.layout;
        if let Some(k) = self.outputs[..checked].iter().position(|x| !x.is_finite()) {
            return Err(DynamicsError::NonFinite { what: layout.describe(k, &self.names.0, &self.names.1), t });
        }
        let (o, tm) = (&self.outputs, &mut self.terms);
        fill_row_major(&mut tm.mass, &o[layout.mass()]);
        tm.forcing.copy_from_slice(&o[layout.forcing()]);
        fill_row_major(&mut tm.jacobian, &o[layout.jacobian()]);
        tm.bias.copy_from_slice(&o[layout.bias()]);
        Ok(())
    }

    /// [`NumericModel::evaluate_dynamics`] together with a reusable solver workspace.
    pub(crate) fn evaluate_with_workspace(
        &mut self,
        t: f64,
        q: &[f64],
        v: &[f64],
    ) -> Result<(&Terms, &mut Workspace), DynamicsError> {
        self.evaluate_dynamics(t, q, v)?;
        Ok((&self.terms, &mut self.workspace))
    }

    /// `A = ∂f/∂v` alone at `(t, q, v)` (m×n): the Euler condition evaluates it
    /// along `s·v`.
    pub fn jacobian_at(&mut self, t: f64, q: &[f64], v: &[f64]) -> Result<DMatrix<f64>, DynamicsError> {
        self.load_inputs(t, q, v);
        let a = &mut self.constraint_outputs[..self.layout.m * self.layout.n];
        // The inputs' shape is the program's own.
        let _ = self.constraints.eval_first(&self.inputs, a);
        if a.iter().any(|x| !x.is_finite()) {
            return Err(DynamicsError::NonFinite { what: crate::message::run::velocity_jacobian(), t });
        }
        Ok(DMatrix::from_row_slice(self.layout.m, self.layout.n, a))
    }

    /// `A`, `f` and `φ` at `(t, q, v)`, the rest of [`Terms`] left as it was: what
    /// completing a state from the constraints (Gauss–Newton on the positions and
    /// the velocities) reads at each step, from a program of the constraints alone
    /// (the same values, bit for bit, as [`NumericModel::evaluate`]'s, without `M`
    /// and `F`, most of a rigid body's program). An error names the first value
    /// that is not finite.
    pub fn constraint_terms(&mut self, t: f64, q: &[f64], v: &[f64]) -> Result<&Terms, DynamicsError> {
        let layout = self.layout;
        self.load_inputs(t, q, v);
        let native = self.native_constraints.as_mut();
        if !native.is_some_and(|code| code.run(&self.inputs, layout.n, &mut self.constraint_outputs)) {
            // The inputs' shape is the program's own.
            let _ = self.constraints.eval(&self.inputs, &mut self.constraint_outputs);
        }
        let (a, rest) = self.constraint_outputs.split_at(layout.m * layout.n);
        let (f, phi) = rest.split_at(layout.m);
        if let Some(k) = self.constraint_outputs.iter().position(|x| !x.is_finite()) {
            // Where the same value sits among the main program's outputs.
            let main = if k < a.len() {
                layout.jacobian().start + k
            } else if k < a.len() + f.len() {
                layout.velocity_residuals().start + k - a.len()
            } else {
                layout.position_residuals().start + k - a.len() - f.len()
            };
            return Err(DynamicsError::NonFinite { what: layout.describe(main, &self.names.0, &self.names.1), t });
        }
        let tm = &mut self.terms;
        fill_row_major(&mut tm.jacobian, a);
        tm.residuals.copy_from_slice(f);
        tm.position_residuals.copy_from_slice(phi);
        Ok(&self.terms)
    }
}
