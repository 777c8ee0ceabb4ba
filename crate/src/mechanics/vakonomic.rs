//! Vakonomic dynamics (paper 002 §5, paper 003 eq 9, paper 004): Hamilton's
//! principle with the constraints in the Lagrangian, `δ∫(L + μᵀf)dt = 0`:
//!
//! `d/dt[∂L/∂v + (∂f/∂v)ᵀμ] − ∂L/∂q − (∂f/∂q)ᵀμ = Q`, `f = 0`,
//!
//! with `μ(t)` part of the state. Built as residuals in the accelerations and the
//! multiplier rates: `R = M_v q̈ + C μ̇ − F_v` (`C = Aᵀ`; `M_v = M + Σμ_j ∂²f_j/∂v²`).

use alloc::format;
use alloc::vec::Vec;

use super::base::Base;
use super::constraint::EXPAND_BUDGET;
use crate::expr::{DiffError, ExprGraph, ExprId, SymbolId};

/// Why the vakonomic equations are not available.
#[derive(Clone, Debug, PartialEq)]
pub enum VakonomicError {
    /// A derivative could not be taken.
    Diff(DiffError),
    /// Nothing asked for them when the model was built ([`super::Needs`]).
    NotDerived,
}

impl From<DiffError> for VakonomicError {
    fn from(e: DiffError) -> Self {
        VakonomicError::Diff(e)
    }
}

crate::message::words_are_the_message!(VakonomicError);

impl VakonomicError {
    /// Why, as a message with an id; its English is what `Display` writes.
    pub fn message(&self) -> crate::message::Message {
        match self {
            VakonomicError::Diff(e) => e.message(),
            VakonomicError::NotDerived => crate::message::run::vakonomic_not_built(),
        }
    }
}

/// The vakonomic equations in symbolic form.
#[derive(Clone, Debug)]
pub struct VakonomicEquations {
    /// `μ_j` symbols (auxiliaries of the graph that holds these equations).
    pub multipliers: Vec<SymbolId>,
    /// `μ̇_j` symbols.
    pub multiplier_rates: Vec<SymbolId>,
    /// `M_v = ∂R/∂q̈` (n×n, row-major).
    pub mass_matrix: Vec<ExprId>,
    /// `C = ∂R/∂μ̇` (n×m, row-major).
    pub rate_matrix: Vec<ExprId>,
    /// `F_v = −R` at `q̈ = 0`, `μ̇ = 0`.
    pub forcing: Vec<ExprId>,
    /// The residuals `R_i`.
    pub residuals: Vec<ExprId>,
}

impl VakonomicEquations {
    /// Derives the equations in `g` (a clone of the model's graph).
    pub fn derive(model: &Base, g: &mut ExprGraph) -> Result<Self, VakonomicError> {
        let n = model.coordinate_count();
        let m = model.constraints.len();
        let multipliers: Vec<SymbolId> = (1..=m).map(|j| g.declare_fresh_auxiliary(&format!("mu{j}"))).collect();
        let multiplier_rates: Vec<SymbolId> =
            (1..=m).map(|j| g.declare_fresh_auxiliary(&format!("mudot{j}"))).collect();
        let lagrangian = g.sub(model.kinetic, model.potential);
        // Rates for d/dt: q → v, v → a, t → 1, μ → μ̇.
        let one = g.one();
        let time = g.time();
        let mut rates: Vec<Option<ExprId>> = alloc::vec![None; g.symbols().count()];
        rates[time.index()] = Some(one);
        for i in 0..n {
            let [q, v, a] = g.coordinate(i);
            rates[q.index()] = Some(g.symbol_expr(v));
            rates[v.index()] = Some(g.symbol_expr(a));
        }
        for (mu, rate) in multipliers.iter().zip(&multiplier_rates) {
            rates[mu.index()] = Some(g.symbol_expr(*rate));
        }
        let mut residuals = Vec::with_capacity(n);
        for i in 0..n {
            let [q, v, _] = g.coordinate(i);
            let mut momentum = alloc::vec![g.diff(lagrangian, v)];
            let mut pull = alloc::vec![g.diff(lagrangian, q)];
            for (j, c) in model.constraints.iter().enumerate() {
                let mu = g.symbol_expr(multipliers[j]);
                momentum.push(g.mul2(c.jacobian[i], mu));
                let df_dq = g.diff(c.velocity_residual, q);
                pull.push(g.mul2(df_dq, mu));
            }
            let momentum = g.add(&momentum);
            for s in g.free_symbols(momentum) {
                if matches!(g.symbol(s).kind, crate::expr::SymbolKind::Acceleration(_)) {
                    return Err(DiffError::NoRate { name: g.display_symbol(s) }.into());
                }
            }
            let momentum_dot = g.derivative_along(momentum, &|s| rates.get(s.index()).copied().flatten());
            let pull = g.add(&pull);
            let r = g.sub(momentum_dot, pull);
            residuals.push(g.sub(r, model.generalized_forces[i]));
        }
        let zero = g.zero();
        let accelerations: Vec<SymbolId> = (0..n).map(|i| g.coordinate(i)[2]).collect();
        let mut mass_matrix = Vec::with_capacity(n * n);
        let mut rate_matrix = Vec::with_capacity(n * m);
        let mut forcing = Vec::with_capacity(n);
        for &r in &residuals {
            for &a in &accelerations {
                let d = g.diff(r, a);
                mass_matrix.push(g.expand_within(d, EXPAND_BUDGET));
            }
            for &mu_dot in &multiplier_rates {
                let d = g.diff(r, mu_dot);
                rate_matrix.push(g.expand_within(d, EXPAND_BUDGET));
            }
            let r0 =
                g.substitute(r, &|s| (accelerations.contains(&s) || multiplier_rates.contains(&s)).then_some(zero));
            let f = g.neg(r0);
            forcing.push(g.expand_within(f, EXPAND_BUDGET));
        }
        Ok(VakonomicEquations { multipliers, multiplier_rates, mass_matrix, rate_matrix, forcing, residuals })
    }
}
