//! The force each `[[rolling]]` contact's surface exerts on its body, at a state and
//! its accelerations: a normal component `N` and a tangential (friction) part, exact
//! to round-off, whether the contact condition is written as a constraint or built
//! into the coordinates.
//!
//! The unknowns are the contacts' force vectors `f_k` (on the rolling body at its
//! material contact point, and `−f_k` on the body rolled on) and the multipliers of
//! the written constraints that are not a contact's own (a constraint whose row lies
//! in a contact's `J` — the bicycle's "front wheel on the ground" — is that contact's
//! normal condition, and its force is part of `f_k`). They satisfy
//!
//! - Lagrange's equations: `Σ J_kᵀ f_k + Σ a_jᵀ λ_j = M q̈ − F` (`n` rows), which see
//!   the tangential components but not a normal built into the coordinates;
//! - for each chosen set `S` of bodies, the Newton–Euler balance of `S` under a rigid
//!   virtual motion that lifts it off its contacts: `Σ σ_k f_k` and `Σ σ_k r_k × f_k`
//!   equal `S`'s inertia wrench minus its applied one (`σ_k = ±1` for a contact
//!   between `S` and the rest, 0 inside `S`).
//!
//! A set is valid when nothing but its contacts holds it (no joint, pin or drive to
//! bodies outside it). That is not known from the coordinates, so it is tested: at
//! two states of random admissible velocities, a set whose balance cannot be met
//! together with Lagrange's equations is left out (the bicycle's rear wheel alone:
//! its axle carries a force). The candidates are each contact's body alone, then all
//! bodies that move. Components no valid set determines (a planar model held level
//! by its coordinates, two wheels on one axle sharing a side force) are reported
//! undetermined, never guessed.
//!
//! Solved by least squares on rows scaled to their largest coefficient: where
//! every unknown is determined, the normal equations' Cholesky factor refined once,
//! in buffers reused from sample to sample (no allocation: the system is small, `n +
//! 6` rows by three per contact, and allocating it was most of a small model's
//! solve); otherwise nalgebra's SVD, whose rank decides what is determined.
//!
//! One program computes everything a state needs — the balances, each contact's
//! point, `J`, tangents and `μ`, and `M`, `F`, `A` — so that a sample runs no other
//! program; the command line runs it as machine code
//! ([`ContactForces::set_native`], `nhlab_native::use_for_contacts`).
//!
//! In three files by phase: the types and the program's outputs loaded at a state
//! (here), the balances chosen once (`choose.rs`), the system solved at each state
//! (`solve.rs`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use nalgebra::{DMatrix, DVector};

use crate::expr::{Evaluator, NativeEvaluator, Program};
use crate::mechanics::Model;

mod choose;
mod solve;

use solve::{in_column_space, null_space};

/// One contact's force at a state. Components that the model does not determine,
/// and all of them where the forces do not balance, are NaN.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ContactForce {
    /// The normal component `N`, positive pushing the body off the surface.
    pub normal: f64,
    /// The tangential part along `e₁` (the first tangent, made unit and normal to
    /// `N`) and `e₂ = n × e₁`.
    pub tangential: [f64; 2],
    /// `|F_t|`.
    pub friction: f64,
    /// `|F_t| / N`, the least friction coefficient that keeps the contact rolling
    /// (NaN where `N ≤ 0`).
    pub mu_needed: f64,
    /// The whole force along `N`'s axes.
    pub force: [f64; 3],
    /// The declared friction coefficient here (NaN without one).
    pub mu: f64,
    /// The contact point.
    pub point: [f64; 3],
}

impl ContactForce {
    const UNKNOWN: ContactForce = ContactForce {
        normal: f64::NAN,
        tangential: [f64::NAN; 2],
        friction: f64::NAN,
        mu_needed: f64::NAN,
        force: [f64::NAN; 3],
        point: [f64::NAN; 3],
        mu: f64::NAN,
    };

    /// The columns `nhlab run` writes for a contact, in order.
    pub fn columns(&self) -> [f64; COLUMNS] {
        [self.normal, self.tangential[0], self.tangential[1], self.friction, self.mu_needed, self.mu]
    }

    /// Whether the ideal contact fails here: it lifts off (`N < 0`: the surface
    /// would have to pull) or needs more friction than it has (NaN comparisons are
    /// false: not determined, or no `μ`). `N = 0` — within round-off of zero beside
    /// the system's forces — is touching without pressing (a body without weight),
    /// not lifting off: it needs no friction either (issue 57).
    pub fn fails(&self) -> [bool; 2] {
        [self.normal < 0.0, self.normal > 0.0 && self.friction > self.mu * self.normal]
    }
}

/// Columns per contact: `N`, `Ft1`, `Ft2`, `Ft`, `mu_needed`, `mu`.
pub const COLUMNS: usize = 6;
/// Their names' prefixes (`N_<contact>`).
pub const COLUMN_PREFIXES: [&str; COLUMNS] = ["N", "Ft1", "Ft2", "Ft", "mu_needed", "mu"];

/// A contact's columns (as [`ContactForce::columns`] lays them out) fail as
/// [`ContactForce::fails`] says: lifted off, or slipping.
pub fn columns_fail(columns: &[f64]) -> bool {
    let (normal, needed, mu) = (columns[0], columns[4], columns[5]);
    normal < 0.0 || (normal > 0.0 && needed > mu)
}

/// A contact as the solver knows it.
#[derive(Clone, Debug)]
pub struct ContactInfo {
    /// Its name (`disk rolls on ground`).
    pub name: String,
    /// The table that declared it (`rolling[0]`).
    pub field: String,
    /// Whether it declares a friction coefficient.
    pub friction: bool,
    /// Whether its normal force and its tangential part are determined.
    pub determined: [bool; 2],
    /// How its force is found, for `nhlab check` and the page.
    pub how: String,
}

/// Why the forces at a state are not given.
#[derive(Clone, Debug, PartialEq)]
pub enum Unbalanced {
    /// The accelerations are not those of ideal contacts (an embedding that is not the
    /// true motion here, a vakonomic run): no forces of the contacts produce them.
    NotIdeal,
    /// A value was not finite.
    NonFinite,
}

/// The compiled terms and what the analysis chose.
#[derive(Clone, Debug)]
pub struct ContactForces {
    evaluator: Evaluator,
    /// The same program as machine code, where the host compiled it.
    native: Option<NativeEvaluator>,
    /// `t`, `q`, `v`, `q̈`, parameters: the parts of `CompilesAlone::input_parts`.
    inputs: Vec<f64>,
    outputs: Vec<f64>,
    n: usize,
    /// Bodies (each with a balance in the outputs).
    bodies: usize,
    /// Each contact's rolling body and the body rolled on.
    ends: Vec<(usize, Option<usize>)>,
    /// The written constraints with a multiplier of their own.
    written: Vec<usize>,
    /// The chosen sets, each as membership by body.
    sets: Vec<Vec<bool>>,
    /// Whether [`ContactForces::choose`] has run.
    chosen: bool,
    /// Whether every unknown is determined there (full column rank): then the
    /// normal equations' Cholesky factor solves it, an SVD's cost saved each sample.
    full_rank: bool,
    /// The least squares' buffers, reused from sample to sample.
    least_squares: solve::LeastSquares,
    /// Which bodies move (a driven one is in no set), and their names.
    moving: Vec<bool>,
    body_names: Vec<String>,
    /// The constraints' names.
    constraint_names: Vec<String>,
    contacts: Vec<ContactInfo>,
    forces: Vec<ContactForce>,
    /// `t` and the state (`q`, `v`) the forces were last found at.
    found: Vec<f64>,
    /// Per contact: its declared friction coefficient was not finite at the last
    /// state (`friction = "sqrt(1 - t)"` past t = 1). Slip is not judged there; the
    /// forces, which do not depend on `μ`, are still found (issue 57).
    friction_not_finite: Vec<bool>,
}

/// Outputs per body (force, moment), and of the loads without a body.
const WRENCH: usize = 6;

/// Relative residual above which rows do not balance: round-off leaves ~1e-13, a
/// missing reaction a part in one.
const BALANCE_TOLERANCE: f64 = 1e-7;

/// A row whose largest coefficient is below this part of the largest row's holds
/// no unknown (its coefficients are round-off).
const ZERO_ROW: f64 = 1e-12;

/// A normal force below this part of the system's forces is zero.
const ROUND_OFF: f64 = 1e-11;

/// Singular values below this part of the largest are zero: what decides whether a
/// component is determined.
const RANK_TOLERANCE: f64 = 1e-9;

impl ContactForces {
    /// Compiles the contact terms of `model`; `None` without contacts. The sets are
    /// chosen later ([`ContactForces::choose`]), from states with their accelerations.
    pub fn new(model: &Model) -> Option<ContactForces> {
        let terms = model.contacts.as_ref()?;
        if terms.contacts.is_empty() {
            return None;
        }
        let g = &model.graph;
        let n = model.coordinate_count();
        let mut outputs = Vec::new();
        for b in &terms.bodies {
            outputs.extend(b.balance.force);
            outputs.extend(b.balance.moment);
        }
        outputs.extend(terms.free_loads.force);
        outputs.extend(terms.free_loads.moment);
        for c in &terms.contacts {
            outputs.extend(c.point);
            outputs.extend(&c.jacobian);
            outputs.extend(c.tangents[0]);
            outputs.extend(c.tangents[1]);
            outputs.extend(c.centre);
            outputs.push(c.friction);
        }
        // Then `M` (row-major), `F` and `A`, as the model's own program has them.
        outputs.extend(&model.equations.mass_matrix);
        outputs.extend(&model.equations.forcing);
        outputs.extend(model.constraints.iter().flat_map(|c| c.jacobian.iter().copied()));
        let mut inputs = alloc::vec![g.time()];
        for slot in 0..3 {
            inputs.extend((0..n).map(|i| g.coordinate(i)[slot]));
        }
        inputs.extend(model.parameters.iter().map(|p| p.symbol));
        let program = g.compile(&outputs, &inputs).ok()?.hoist(1 + 3 * n);
        let written = (0..model.constraints.len())
            .filter(|&j| !terms.contacts.iter().any(|c| c.field == model.constraints[j].origin))
            .collect();
        Some(ContactForces {
            inputs: alloc::vec![0.0; program.input_count()],
            outputs: alloc::vec![0.0; program.output_count()],
            evaluator: program.into_evaluator(),
            native: None,
            n,
            bodies: terms.bodies.len(),
            ends: terms.contacts.iter().map(|c| (c.body, c.on)).collect(),
            written,
            sets: Vec::new(),
            chosen: false,
            full_rank: false,
            least_squares: solve::LeastSquares::default(),
            moving: terms.bodies.iter().map(|b| !b.driven).collect(),
            body_names: terms.bodies.iter().map(|b| b.name.clone()).collect(),
            constraint_names: model.constraints.iter().map(|c| c.name.clone()).collect(),
            contacts: terms
                .contacts
                .iter()
                .map(|c| ContactInfo {
                    name: c.name.clone(),
                    field: c.field.clone(),
                    friction: c.has_friction,
                    determined: [false; 2],
                    how: String::new(),
                })
                .collect(),
            forces: alloc::vec![ContactForce::UNKNOWN; terms.contacts.len()],
            found: Vec::new(),
            friction_not_finite: alloc::vec![false; terms.contacts.len()],
        })
    }

    /// Whether [`ContactForces::choose`] has run (each run of a compiled model's
    /// copies chooses once).
    pub fn is_chosen(&self) -> bool {
        self.chosen
    }

    /// The contacts, with what [`ContactForces::choose`] found of them.
    pub fn contacts(&self) -> &[ContactInfo] {
        &self.contacts
    }

    /// Whether the last [`ContactForces::at`] was at `t`, the state `y` (`q`, `v`
    /// first) and these parameters.
    pub fn found_at(&self, t: f64, y: &[f64], parameters: &[f64]) -> bool {
        let n = self.n;
        y.len() >= 2 * n
            && self.found.len() == 1 + 2 * n + parameters.len()
            && self.found[0] == t
            && self.found[1..=2 * n] == y[..2 * n]
            && self.found[1 + 2 * n..] == *parameters
    }

    /// The forces of the last [`ContactForces::at`].
    pub fn forces(&self) -> &[ContactForce] {
        &self.forces
    }

    /// The forces at a state with its accelerations and the model's terms there
    /// (`M`, `F`, `A` at `(t, q, v)`).
    pub fn at(&mut self, state: &State<'_>) -> Result<&[ContactForce], Unbalanced> {
        self.found.clear();
        self.found.push(state.t);
        self.found.extend(state.q.iter().chain(state.v).chain(state.parameters));
        let outcome = self.load(state).and_then(|()| self.solve(state.accelerations));
        match outcome {
            Ok(size) => {
                for k in 0..self.contacts.len() {
                    self.forces[k] = self.force_of(k, &self.least_squares.x, size);
                }
                Ok(&self.forces)
            }
            Err(e) => {
                self.forces.fill(ContactForce::UNKNOWN);
                Err(e)
            }
        }
    }

    fn load(&mut self, s: &State<'_>) -> Result<(), Unbalanced> {
        let n = self.n;
        let ran = match self.native.as_mut() {
            Some(code) => code.eval(&[&[s.t], s.q, s.v, s.accelerations, s.parameters], &mut [&mut self.outputs]),
            None => {
                self.inputs[0] = s.t;
                for (slot, part) in [s.q, s.v, s.accelerations].into_iter().enumerate() {
                    self.inputs[1 + slot * n..][..n].copy_from_slice(part);
                }
                self.inputs[1 + 3 * n..].copy_from_slice(s.parameters);
                self.evaluator.eval(&self.inputs, &mut self.outputs).is_ok()
            }
        };
        self.friction_not_finite.fill(false);
        if !ran {
            return Err(Unbalanced::NonFinite);
        }
        if self.outputs.iter().all(|x| x.is_finite()) {
            return Ok(());
        }
        // A declared friction coefficient is no term of the balances: where it alone
        // is not finite the forces are found, and slip is not judged.
        for k in 0..self.contacts.len() {
            let slot = self.friction_slot(k);
            self.friction_not_finite[k] = self.contacts[k].friction && !self.outputs[slot].is_finite();
        }
        let friction_slots: Vec<usize> = (0..self.contacts.len()).map(|k| self.friction_slot(k)).collect();
        let others_finite = self.outputs.iter().enumerate().all(|(i, x)| x.is_finite() || friction_slots.contains(&i));
        if others_finite {
            Ok(())
        } else {
            Err(Unbalanced::NonFinite)
        }
    }

    /// Where contact `k`'s friction coefficient is in the outputs.
    fn friction_slot(&self, k: usize) -> usize {
        self.contact_offset(k) + 12 + 3 * self.n
    }

    /// Per contact, whether its declared friction coefficient was not finite at the
    /// last state the forces were sought at.
    pub fn friction_not_finite(&self) -> &[bool] {
        &self.friction_not_finite
    }

    fn contact_offset(&self, k: usize) -> usize {
        WRENCH * (self.bodies + 1) + k * (13 + 3 * self.n)
    }

    /// Where `M`, then `F`, then `A` start in the outputs.
    fn dynamics_offset(&self) -> usize {
        self.contact_offset(self.contacts.len())
    }

    /// Whether the program runs as machine code.
    pub fn has_native(&self) -> bool {
        self.native.is_some()
    }
}

/// A state with what the forces need there.
pub struct State<'a> {
    /// Time.
    pub t: f64,
    /// Coordinates.
    pub q: &'a [f64],
    /// Velocities.
    pub v: &'a [f64],
    /// Accelerations of the motion.
    pub accelerations: &'a [f64],
    /// Parameter values.
    pub parameters: &'a [f64],
}

impl crate::expr::CompilesAlone for ContactForces {
    /// The program every state runs (for a host to compile to machine code).
    fn program(&self) -> &Program {
        self.evaluator.program()
    }

    /// The parts its inputs come in: `t`, `q`, `v`, `q̈`, parameters (the last the
    /// slow ones); its outputs are one part.
    fn input_parts(&self) -> Vec<usize> {
        let n = self.n;
        alloc::vec![1, n, n, n, self.evaluator.program().input_count() - 1 - 3 * n]
    }

    fn set_native(&mut self, native: Option<NativeEvaluator>) {
        self.native = native;
    }
}
