//! Constraints: their class from the symbolic form, and their velocity- and
//! acceleration-level forms `f = 0` and `A q̈ = b`.

use alloc::string::String;
use alloc::vec::Vec;

use crate::expr::{ExprGraph, ExprId, SymbolKind};

/// Largest `ḟ` and `b` (in nodes) expanded for printing: past it expansion costs
/// more than it shows: the large ones are a rolling contact's `unit(…)`, which no
/// reader follows term by term.
pub(crate) const EXPAND_BUDGET: usize = 500;

/// How a constraint restricts the motion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConstraintKind {
    /// `φ(q, t) = 0`: no velocities.
    Holonomic,
    /// `a(q, t)·v + a₀(q, t) = 0`.
    LinearNonholonomic,
    /// Nonlinear in the velocities.
    NonlinearNonholonomic,
}

impl ConstraintKind {
    /// The class as the lab shows it.
    pub fn label(self) -> &'static str {
        match self {
            ConstraintKind::Holonomic => "holonomic",
            ConstraintKind::LinearNonholonomic => "linear nonholonomic",
            ConstraintKind::NonlinearNonholonomic => "nonlinear nonholonomic",
        }
    }
}

/// One constraint in all the forms the formulations need.
#[derive(Clone, Debug)]
pub struct Constraint {
    /// Its name, or `#k`.
    pub name: String,
    /// The class.
    pub kind: ConstraintKind,
    /// Whether `t` appears explicitly.
    pub rheonomic: bool,
    /// `φ(q, t)` for a holonomic constraint.
    pub position_residual: Option<ExprId>,
    /// `f(q, v, t)`: the constraint itself, or `dφ/dt` for a holonomic one.
    pub velocity_residual: ExprId,
    /// `∂f/∂v`: the constraint's row of `A`, one entry per coordinate.
    pub jacobian: Vec<ExprId>,
    /// `b = −(∂f/∂q·v + ∂f/∂t)`, so that `A q̈ = b` along the motion.
    pub bias: ExprId,
    /// The table that wrote it: `constraints[0]`, or `rolling[1]` for a contact's.
    pub origin: String,
}

impl Constraint {
    /// Whether it is `φ(q, t) = 0` (its position residual is kept).
    pub fn is_holonomic(&self) -> bool {
        self.position_residual.is_some()
    }

    /// Classifies `expr` and derives its velocity and acceleration forms. `None` when
    /// it depends on neither coordinates nor velocities.
    pub(crate) fn derive(g: &mut ExprGraph, name: String, expr: ExprId) -> Option<Constraint> {
        let symbols = g.free_symbols(expr);
        let kinds: Vec<SymbolKind> = symbols.iter().map(|&s| g.symbol(s).kind).collect();
        if !kinds.iter().any(|k| matches!(k, SymbolKind::Coordinate(_) | SymbolKind::Velocity(_))) {
            return None;
        }
        let rheonomic = kinds.contains(&SymbolKind::Time);
        let holonomic = !kinds.iter().any(|k| matches!(k, SymbolKind::Velocity(_)));
        let n = g.coordinate_count();
        let (position_residual, velocity_residual) = if holonomic {
            let dphi = g.time_derivative(expr).ok()?;
            (Some(expr), g.expand_within(dphi, EXPAND_BUDGET))
        } else {
            (None, expr)
        };
        let velocities: Vec<_> = (0..n).map(|i| g.coordinate(i)[1]).collect();
        let jacobian: Vec<ExprId> = velocities
            .iter()
            .map(|&v| {
                let d = g.diff(velocity_residual, v);
                g.expand_within(d, EXPAND_BUDGET / 4)
            })
            .collect();
        let velocity_bits = velocities.iter().fold(0u128, |m, &v| m | g.symbol_mask(v));
        // A holonomic constraint's ḟ is linear in the velocities by construction.
        let linear = holonomic
            || jacobian.iter().all(|&row| {
                // A row with no velocity in it is constant in them: no derivative needed.
                g.mask(row) & velocity_bits == 0
                    || velocities.iter().all(|&v| {
                        let d = g.diff(row, v);
                        let d = g.expand(d);
                        g.is_zero(d)
                    })
            });
        let kind = match (holonomic, linear) {
            (true, _) => ConstraintKind::Holonomic,
            (false, true) => ConstraintKind::LinearNonholonomic,
            (false, false) => ConstraintKind::NonlinearNonholonomic,
        };
        // ḟ is affine in the accelerations: b = −ḟ at a = 0.
        let fdot0 = g.time_derivatives_at_rest(&[velocity_residual]).ok()?[0];
        let minus = g.neg(fdot0);
        let bias = g.expand_within(minus, EXPAND_BUDGET);
        Some(Constraint {
            name,
            kind,
            rheonomic,
            position_residual,
            velocity_residual,
            jacobian,
            bias,
            origin: String::new(),
        })
    }
}
