//! What finding the contact forces needs of the bodies, in symbolic form: each
//! contact's point, tangents and the Jacobian of its slip velocity, and each body's
//! Newton–Euler balance — its inertia wrench minus the applied one — about the
//! origin.
//!
//! Why both: a contact force `f` acting on body `B` at its material point `P`
//! enters Lagrange's equations as `J_Pᵀ f` (`J_P = ∂v_rel/∂q̇`). Where the contact
//! condition is built into the coordinates (the rolling disk's centre is `r` above
//! its contact), `n·J_P` is zero, so the normal force does no virtual work on any
//! `δq` and the equations do not see it. A rigid virtual motion of the bodies that
//! lifts them off does: for a set `S` of bodies held by nothing but contacts, the
//! sum over `S` of `m a_G − m g − loads` and of `r_G × (m a_G − m g) + Ḣ_G − load
//! moments` equals the wrench of the contact forces on `S`. The numeric side
//! (`numeric/contacts.rs`) chooses the sets and solves for the forces.

use alloc::string::String;
use alloc::vec::Vec;

use super::algebra::{add, cross, rotate, scale, sub, Matrix, Vector};
use crate::expr::{ExprGraph, ExprId};

/// A force and a moment about the origin, along `N`.
#[derive(Clone, Copy, Debug)]
pub struct Wrench {
    /// The force.
    pub force: Vector,
    /// Its moment about `O`.
    pub moment: Vector,
}

/// One `[[rolling]]` contact.
#[derive(Clone, Debug)]
pub struct ContactTerm {
    /// Its name (`disk rolls on ground`): the generated constraints' prefix.
    pub name: String,
    /// The table that declared it (`rolling[0]`).
    pub field: String,
    /// The rolling body, by its place in [`ContactTerms::bodies`].
    pub body: usize,
    /// The body rolled on (`None`: the ground).
    pub on: Option<usize>,
    /// The contact point from `O`.
    pub point: Vector,
    /// `∂v_rel/∂q̇`, row by component of `N` (`3 × n`, row-major).
    pub jacobian: Vec<ExprId>,
    /// The two tangents (not unit, not necessarily orthogonal).
    pub tangents: [Vector; 2],
    /// The rolling body's mass centre, to orient the normal (from the surface into
    /// the body).
    pub centre: Vector,
    /// The static friction coefficient (parameters and `t`; 0 where none is
    /// declared).
    pub friction: ExprId,
    /// Whether one is declared.
    pub has_friction: bool,
}

/// One body's balance.
#[derive(Clone, Debug)]
pub struct BodyTerm {
    /// Its name.
    pub name: String,
    /// `m a_G − m g − Σ F` and `r_G × (m a_G − m g) + Ḣ_G − Σ (r × F + τ)`:
    /// zero for a body on which nothing but the applied loads act.
    pub balance: Wrench,
    /// Whether its motion depends on no coordinate (a driven turntable): whatever
    /// drives it is a reaction the lab does not know, so it is left out of every
    /// balance.
    pub driven: bool,
}

/// What the contact forces are found from.
#[derive(Clone, Debug)]
pub struct ContactTerms {
    /// The contacts, in the scenario's order.
    pub contacts: Vec<ContactTerm>,
    /// Every body, in the scenario's order.
    pub bodies: Vec<BodyTerm>,
    /// Minus the loads given without a body (counted in every set's balance).
    pub free_loads: Wrench,
}

/// A body as recorded while building: what its balance needs.
#[derive(Clone, Debug)]
pub(super) struct BodyRecord {
    pub name: String,
    pub mass: ExprId,
    pub centre: Vector,
    /// The rotation, or `None` for a body given by its angular velocity (isotropic).
    pub rotation: Option<Matrix>,
    /// The angular velocity along `N`, and along the body's axes (`own`).
    pub omega: Vector,
    pub own: Vector,
    pub inertia: Matrix,
}

/// A load as recorded: a force at a point, a torque, and the body they act on.
#[derive(Clone, Debug)]
pub(super) struct LoadRecord {
    pub body: Option<String>,
    pub force: Option<(Vector, Vector)>,
    pub torque: Option<Vector>,
}

/// A contact as recorded.
#[derive(Clone, Debug)]
pub(super) struct ContactRecord {
    pub name: String,
    pub field: String,
    pub body: String,
    pub on: Option<String>,
    pub point: Vector,
    pub relative: Vector,
    pub tangents: [Vector; 2],
    pub friction: Option<ExprId>,
}

/// Builds the terms; `None` when a derivative cannot be taken (reported elsewhere).
pub(super) fn derive(
    g: &mut ExprGraph,
    bodies: &[BodyRecord],
    loads: &[LoadRecord],
    contacts: &[ContactRecord],
    gravity: Option<Vector>,
) -> Option<ContactTerms> {
    let n = g.coordinate_count();
    let zero = g.zero();
    let mut terms = Vec::new();
    for b in bodies {
        let velocity = time_derivative(g, &b.centre)?;
        let acceleration = time_derivative(g, &velocity)?;
        let mut force = scale(g, b.mass, &acceleration);
        if let Some(gravity) = gravity {
            let weight = scale(g, b.mass, &gravity);
            force = sub(g, &force, &weight);
        }
        let momentum = match b.rotation {
            Some(r) => {
                let own = rotate(g, &b.inertia, &b.own);
                rotate(g, &r, &own)
            }
            None => scale(g, b.inertia[0][0], &b.omega),
        };
        let spin = time_derivative(g, &momentum)?;
        let arm = cross(g, &b.centre, &force);
        let mut balance = Wrench { force, moment: add(g, &arm, &spin) };
        for load in loads.iter().filter(|l| l.body.as_deref() == Some(b.name.as_str())) {
            subtract_load(g, &mut balance, load);
        }
        let mut symbols = b.centre.iter().chain(b.omega.iter()).flat_map(|&x| g.free_symbols(x));
        let driven = !symbols.any(|s| {
            use crate::expr::SymbolKind;
            matches!(g.symbol(s).kind, SymbolKind::Coordinate(_) | SymbolKind::Velocity(_))
        });
        terms.push(BodyTerm { name: b.name.clone(), balance, driven });
    }
    let mut free_loads = Wrench { force: [zero; 3], moment: [zero; 3] };
    for load in loads.iter().filter(|l| l.body.is_none()) {
        subtract_load(g, &mut free_loads, load);
    }
    let index = |name: &str| bodies.iter().position(|b| b.name == name);
    let mut out = Vec::new();
    for c in contacts {
        let body = index(&c.body)?;
        let mut jacobian = Vec::with_capacity(3 * n);
        for &component in &c.relative {
            for i in 0..n {
                let v = g.coordinate(i)[1];
                jacobian.push(g.diff(component, v));
            }
        }
        out.push(ContactTerm {
            name: c.name.clone(),
            field: c.field.clone(),
            body,
            on: c.on.as_deref().and_then(index),
            point: c.point,
            jacobian,
            tangents: c.tangents,
            centre: bodies[body].centre,
            friction: c.friction.unwrap_or(zero),
            has_friction: c.friction.is_some(),
        });
    }
    Some(ContactTerms { contacts: out, bodies: terms, free_loads })
}

/// Takes a load's force and moment off a balance.
fn subtract_load(g: &mut ExprGraph, w: &mut Wrench, load: &LoadRecord) {
    if let Some((point, force)) = &load.force {
        w.force = sub(g, &w.force, force);
        let moment = cross(g, point, force);
        w.moment = sub(g, &w.moment, &moment);
    }
    if let Some(torque) = &load.torque {
        w.moment = sub(g, &w.moment, torque);
    }
}

fn time_derivative(g: &mut ExprGraph, v: &Vector) -> Option<Vector> {
    let mut out = [g.zero(); 3];
    for (o, &x) in out.iter_mut().zip(v) {
        *o = g.time_derivative(x).ok()?;
    }
    Some(out)
}
