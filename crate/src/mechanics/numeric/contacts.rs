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
//! Solved by least squares on rows scaled to their largest coefficient
//! (nalgebra's SVD: the system is small, `n + 6` rows by three per contact, and
//! its rank is what decides what is determined).
//!
//! One program computes everything a state needs — the balances, each contact's
//! point, `J`, tangents and `μ`, and `M`, `F`, `A` — so that a sample runs no other
//! program; the command line runs it as machine code
//! ([`ContactForces::set_native`], `nhlab_native::use_for_contacts`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use nalgebra::{DMatrix, DVector};

use crate::expr::{Evaluator, NativeEvaluator, Program};
use crate::mechanics::Model;

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
    /// `t`, `q`, `v`, `q̈`, parameters (the parts of [`ContactForces::input_parts`]).
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

    /// Chooses the balances to use from `states` (each `(t, q, v, q̈)` of the
    /// true motion at random admissible velocities), links written constraints to
    /// the contacts whose normal condition they are, and says what is determined.
    pub fn choose(&mut self, states: &[State<'_>]) {
        self.chosen = true;
        // Written constraints whose row is in a contact's J are its normal condition.
        let mut evaluated: Vec<Vec<f64>> = Vec::new();
        for s in states {
            if self.load(s).is_err() {
                self.contacts.iter_mut().for_each(|c| c.how = "its terms are not finite at the start".into());
                return;
            }
            evaluated.push(self.outputs.clone());
        }
        let n = self.n;
        let mut linked: Vec<(usize, usize)> = Vec::new();
        for &j in &self.written {
            for k in 0..self.contacts.len() {
                let inside = evaluated.iter().all(|out| {
                    let jac = &out[self.contact_offset(k) + 3..][..3 * n];
                    let row = DVector::from_column_slice(&out[self.dynamics_offset() + n * n + n + j * n..][..n]);
                    let basis = DMatrix::from_fn(n, 3, |i, c| jac[c * n + i]);
                    in_column_space(&basis, &row)
                });
                if inside {
                    linked.push((j, k));
                    break;
                }
            }
        }
        self.written.retain(|j| !linked.iter().any(|(w, _)| w == j));
        // Candidate sets: each contact's body alone, then every body that moves.
        let moving = self.moving.clone();
        let mut candidates: Vec<Vec<bool>> = Vec::new();
        for &(body, on) in &self.ends {
            for b in core::iter::once(body).chain(on) {
                let mut set = alloc::vec![false; self.bodies];
                set[b] = true;
                if moving[b] && !candidates.contains(&set) {
                    candidates.push(set);
                }
            }
        }
        if moving.iter().filter(|&&m| m).count() > 1 {
            candidates.push(moving.clone());
        }
        self.sets.clear();
        for candidate in candidates {
            self.sets.push(candidate);
            let balanced = states.iter().zip(&evaluated).all(|(s, out)| {
                self.outputs.copy_from_slice(out);
                self.solve(s.accelerations).is_ok()
            });
            if !balanced {
                self.sets.pop();
            }
        }
        // What is determined: the null space of the system at the first state.
        self.outputs.copy_from_slice(&evaluated[0]);
        let (matrix, _, _) = self.system(states[0].accelerations);
        let free = null_space(&matrix);
        self.full_rank = free.is_empty();
        for k in 0..self.contacts.len() {
            let directions = self.directions(k);
            let determined =
                |d: &[f64; 3]| free.iter().all(|z| (0..3).map(|c| d[c] * z[3 * k + c]).sum::<f64>().abs() < 1e-6);
            let normal = determined(&directions[0]);
            let tangential = determined(&directions[1]) && determined(&directions[2]);
            let info = &mut self.contacts[k];
            info.determined = [normal, tangential];
            let (body, _) = self.ends[k];
            let balances: Vec<String> = self
                .sets
                .iter()
                .filter(|set| set[body])
                .map(|set| {
                    let names: Vec<&str> =
                        (0..set.len()).filter(|&b| set[b]).map(|b| self.body_names[b].as_str()).collect();
                    if names.len() == 1 {
                        format!("`{}`", names[0])
                    } else {
                        String::from("all moving bodies")
                    }
                })
                .collect();
            let from = if balances.is_empty() {
                String::from("the equations of motion alone")
            } else {
                format!("the equations of motion and the balance of {}", balances.join(" and of "))
            };
            let normal_by = linked
                .iter()
                .find(|(_, c)| *c == k)
                .map(|&(j, _)| format!("; its normal condition is the constraint `{}`", self.constraint_names[j]));
            info.how = match (normal, tangential) {
                (true, true) => format!("from {from}{}", normal_by.unwrap_or_default()),
                (false, true) => format!(
                    "friction from {from}; the normal force is not determined: the bodies are held by more than \
                     their contacts (a joint, pin or support the model builds into its coordinates)"
                ),
                (true, false) => format!(
                    "normal force from {from}; the friction is shared with other contacts in a way the rigid \
                     model does not determine"
                ),
                (false, false) => String::from(
                    "not determined: the bodies are held by more than their contacts (a joint, pin or support \
                     the model builds into its coordinates)",
                ),
            };
        }
    }

    /// The forces at a state with its accelerations and the model's terms there
    /// (`M`, `F`, `A` at `(t, q, v)`).
    pub fn at(&mut self, state: &State<'_>) -> Result<&[ContactForce], Unbalanced> {
        self.found.clear();
        self.found.push(state.t);
        self.found.extend(state.q.iter().chain(state.v).chain(state.parameters));
        let outcome = self.load(state).and_then(|()| self.solve(state.accelerations));
        match outcome {
            Ok((x, size)) => {
                for k in 0..self.contacts.len() {
                    self.forces[k] = self.force_of(k, &x, size);
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

    /// The program every state runs (for a host to compile to machine code).
    pub fn program(&self) -> &Program {
        self.evaluator.program()
    }

    /// The parts its inputs come in: `t`, `q`, `v`, `q̈`, parameters (the last the
    /// slow ones); its outputs are one part.
    pub fn input_parts(&self) -> [usize; 5] {
        let n = self.n;
        [1, n, n, n, self.evaluator.program().input_count() - 1 - 3 * n]
    }

    /// Runs [`ContactForces::program`] as `native` from now on (compiled for
    /// [`ContactForces::input_parts`] and one output part), or interpreted again
    /// with `None`.
    pub fn set_native(&mut self, native: Option<NativeEvaluator>) {
        self.native = native;
    }

    /// Whether the program runs as machine code.
    pub fn has_native(&self) -> bool {
        self.native.is_some()
    }

    /// The unit normal (from the surface into the body) and the unit tangents
    /// `e₁`, `e₂` of contact `k`, from the last outputs.
    fn directions(&self, k: usize) -> [[f64; 3]; 3] {
        let at = &self.outputs[self.contact_offset(k)..];
        let n = self.n;
        let point = [at[0], at[1], at[2]];
        let t1 = [at[3 + 3 * n], at[4 + 3 * n], at[5 + 3 * n]];
        let t2 = [at[6 + 3 * n], at[7 + 3 * n], at[8 + 3 * n]];
        let centre = [at[9 + 3 * n], at[10 + 3 * n], at[11 + 3 * n]];
        let mut normal = unit(cross3(t1, t2));
        let towards = [centre[0] - point[0], centre[1] - point[1], centre[2] - point[2]];
        if dot3(normal, towards) < 0.0 {
            normal = normal.map(|x| -x);
        }
        let along = dot3(t1, normal);
        let e1 = unit([t1[0] - along * normal[0], t1[1] - along * normal[1], t1[2] - along * normal[2]]);
        let e2 = cross3(normal, e1);
        [normal, e1, e2]
    }

    /// Contact `k`'s force from the solution `x`; a normal force within round-off
    /// of zero beside the system's forces (`size`) is zero: a ball without weight
    /// touches without pressing, and its needed friction is not 10¹⁷.
    fn force_of(&self, k: usize, x: &DVector<f64>, size: f64) -> ContactForce {
        let [normal, e1, e2] = self.directions(k);
        let f = [x[3 * k], x[3 * k + 1], x[3 * k + 2]];
        let at = &self.outputs[self.contact_offset(k)..];
        let [known_normal, known_tangential] = self.contacts[k].determined;
        let n = match dot3(f, normal) {
            _ if !known_normal => f64::NAN,
            n if n.abs() <= ROUND_OFF * size => 0.0,
            n => n,
        };
        let tangential = if known_tangential { [dot3(f, e1), dot3(f, e2)] } else { [f64::NAN; 2] };
        // `libm`, as every float function of the core: the same bits natively and in wasm.
        let friction = libm::hypot(tangential[0], tangential[1]);
        let mu_needed = if n > 0.0 { friction / n } else { f64::NAN };
        let whole = known_normal && known_tangential;
        ContactForce {
            normal: n,
            tangential,
            friction,
            mu_needed,
            force: if whole { f } else { [f64::NAN; 3] },
            point: [at[0], at[1], at[2]],
            mu: if self.contacts[k].friction { self.outputs[self.friction_slot(k)] } else { f64::NAN },
        }
    }

    /// The scaled system, its right-hand side, and each row's scale for zero rows.
    fn system(&self, accelerations: &[f64]) -> (DMatrix<f64>, DVector<f64>, Vec<bool>) {
        let (n, k, w) = (self.n, self.contacts.len(), self.written.len());
        let rows = n + WRENCH * self.sets.len();
        let columns = 3 * k + w;
        let mut a = DMatrix::zeros(rows.max(columns), columns);
        let mut b = DVector::zeros(rows.max(columns));
        let mut zero_row = alloc::vec![false; rows.max(columns)];
        let dynamics = &self.outputs[self.dynamics_offset()..];
        let (mass, rest) = dynamics.split_at(n * n);
        let (forcing, jacobian) = rest.split_at(n);
        let inertia: Vec<f64> =
            mass.chunks_exact(n).map(|row| row.iter().zip(accelerations).map(|(m, a)| m * a).sum()).collect();
        for i in 0..n {
            for c in 0..k {
                let jac = &self.outputs[self.contact_offset(c) + 3..];
                for d in 0..3 {
                    a[(i, 3 * c + d)] = jac[d * n + i];
                }
            }
            for (col, &j) in self.written.iter().enumerate() {
                a[(i, 3 * k + col)] = jacobian[j * n + i];
            }
            b[i] = inertia[i] - forcing[i];
        }
        // Rows scaled to their largest coefficient; a row whose coefficients are
        // round-off beside the others' is one no force enters, where Lagrange's
        // equation must hold by itself: to round-off of the system's terms, not of
        // the row's own (upright running makes a row's terms themselves round-off,
        // 1e-20 beside 1e-20, and they must not be judged against each other).
        let largest = (0..n).map(|i| a.row(i).amax()).fold(0.0, f64::max);
        let system = (0..n).map(|i| inertia[i].abs() + forcing[i].abs()).fold(0.0, f64::max);
        for i in 0..n {
            let scale = a.row(i).amax();
            if scale > ZERO_ROW * largest {
                a.row_mut(i).scale_mut(1.0 / scale);
                b[i] /= scale;
            } else {
                zero_row[i] = true;
                a.row_mut(i).fill(0.0);
                b[i] /= system.max(f64::MIN_POSITIVE);
            }
        }
        for (s, set) in self.sets.iter().enumerate() {
            let row = n + WRENCH * s;
            let mut rhs = [0.0; WRENCH];
            let free = &self.outputs[WRENCH * self.bodies..][..WRENCH];
            rhs.iter_mut().zip(free).for_each(|(r, x)| *r += x);
            for (body, _) in set.iter().enumerate().filter(|(_, &inside)| inside) {
                let own = &self.outputs[WRENCH * body..][..WRENCH];
                rhs.iter_mut().zip(own).for_each(|(r, x)| *r += x);
            }
            for (c, &(body, on)) in self.ends.iter().enumerate() {
                let sign = match (set[body], on.is_some_and(|o| set[o])) {
                    (true, false) => 1.0,
                    (false, true) => -1.0,
                    _ => continue,
                };
                let p = &self.outputs[self.contact_offset(c)..][..3];
                for d in 0..3 {
                    a[(row + d, 3 * c + d)] = sign;
                }
                // r × f = [r]× f.
                let skew = [[0.0, -p[2], p[1]], [p[2], 0.0, -p[0]], [-p[1], p[0], 0.0]];
                for (d, line) in skew.iter().enumerate() {
                    for (e, &x) in line.iter().enumerate() {
                        a[(row + 3 + d, 3 * c + e)] = sign * x;
                    }
                }
            }
            let largest = (row..row + WRENCH).map(|r| a.row(r).amax()).fold(0.0, f64::max);
            let size = rhs.iter().fold(0.0f64, |m, x| m.max(x.abs()));
            for d in 0..WRENCH {
                b[row + d] = rhs[d];
                let scale = a.row(row + d).amax();
                if scale > ZERO_ROW * largest {
                    a.row_mut(row + d).scale_mut(1.0 / scale);
                    b[row + d] /= scale;
                } else {
                    zero_row[row + d] = true;
                    a.row_mut(row + d).fill(0.0);
                    b[row + d] /= size.max(f64::MIN_POSITIVE);
                }
            }
        }
        (a, b, zero_row)
    }

    /// The least-norm solution, if the rows balance, with the size of the forces in
    /// the system (the largest right-hand side or unknown).
    fn solve(&self, accelerations: &[f64]) -> Result<(DVector<f64>, f64), Unbalanced> {
        let (a, b, zero_row) = self.system(accelerations);
        if a.ncols() == 0 {
            return Err(Unbalanced::NotIdeal);
        }
        if a.iter().chain(b.iter()).any(|x| !x.is_finite()) {
            return Err(Unbalanced::NonFinite);
        }
        // Full rank (as chosen): the normal equations, refined once against the
        // rows themselves (which restores the digits squaring the condition lost).
        let normal = self.full_rank.then(|| a.tr_mul(&a).cholesky()).flatten();
        let x = match normal {
            Some(factor) => {
                let mut x = factor.solve(&a.tr_mul(&b));
                let correction = factor.solve(&a.tr_mul(&(&b - &a * &x)));
                x += correction;
                x
            }
            None => {
                let svd = a.clone().svd(true, true);
                let largest = svd.singular_values.max();
                svd.solve(&b, RANK_TOLERANCE * largest.max(f64::MIN_POSITIVE)).map_err(|_| Unbalanced::NonFinite)?
            }
        };
        let residual = &a * &x - &b;
        let size = b.iter().zip(&zero_row).filter(|(_, &z)| !z).fold(0.0f64, |m, (x, _)| m.max(x.abs()));
        let size = size.max(x.amax());
        for (i, r) in residual.iter().enumerate() {
            let limit = if zero_row[i] { BALANCE_TOLERANCE } else { BALANCE_TOLERANCE * size.max(f64::MIN_POSITIVE) };
            if !r.is_finite() {
                return Err(Unbalanced::NonFinite);
            }
            if r.abs() > limit {
                return Err(Unbalanced::NotIdeal);
            }
        }
        Ok((x, size))
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

/// Whether `y` is a combination of `basis`'s columns (relative residual 1e-9).
fn in_column_space(basis: &DMatrix<f64>, y: &DVector<f64>) -> bool {
    let size = y.amax();
    if size == 0.0 {
        return false;
    }
    let svd = basis.clone().svd(true, true);
    let largest = svd.singular_values.max();
    let Ok(c) = svd.solve(y, RANK_TOLERANCE * largest.max(f64::MIN_POSITIVE)) else { return false };
    (basis * c - y).amax() <= 1e-9 * size
}

/// An orthonormal basis of `{x : A x = 0}`, from `A`'s SVD (`A` has at least as
/// many rows as columns).
fn null_space(a: &DMatrix<f64>) -> Vec<Vec<f64>> {
    let svd = a.clone().svd(false, true);
    let Some(v_t) = svd.v_t else { return Vec::new() };
    let largest = svd.singular_values.max().max(f64::MIN_POSITIVE);
    (0..svd.singular_values.len())
        .filter(|&i| svd.singular_values[i] <= RANK_TOLERANCE * largest)
        .map(|i| v_t.row(i).iter().copied().collect())
        .collect()
}

fn dot3(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

fn cross3(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

fn unit(a: [f64; 3]) -> [f64; 3] {
    let length = crate::math::sqrt(dot3(a, a));
    a.map(|x| x / length)
}
