//! Lagrange's equations as residuals, split into mass matrix and forcing.
//!
//! `R_i = d/dt ∂L/∂v_i − ∂L/∂q_i − Q_i` with `L = T − V` is affine in the
//! accelerations, so `M = ∂R/∂a` and `F = −R|_{a=0}` give `M q̈ = F` whatever the
//! model: masses that depend on velocities move their `q̈` terms into `M` by
//! themselves. Variable-mass particles add their reactive and mass-variation terms
//! `K + J` (paper 001) to `Q`.

use alloc::vec::Vec;

use crate::expr::{DiffError, ExprGraph, ExprId, SymbolId};

/// `M q̈ = F` in symbolic form.
#[derive(Clone, Debug)]
pub struct EquationsOfMotion {
    /// `M = ∂²T/∂v²` (row-major, n×n), possibly depending on `q`, `v`, `t`.
    pub mass_matrix: Vec<ExprId>,
    /// `F = Q − ∂V/∂q + ∂T/∂q − (∂²T/∂v∂q)·v − ∂²T/∂v∂t` (with `K + J`).
    pub forcing: Vec<ExprId>,
}

/// A variable-mass particle, already parsed.
#[derive(Clone, Debug)]
pub struct ParticleTerms {
    /// `m(q, v, t)`.
    pub mass: ExprId,
    /// `r(q, t)`.
    pub position: Vec<ExprId>,
    /// `u`, the absolute velocity of shed or gained mass (`None`: `u = ṙ`).
    pub ejecta_velocity: Option<Vec<ExprId>>,
}

impl ParticleTerms {
    /// `ṙ`, component by component.
    pub fn velocity(&self, g: &mut ExprGraph) -> Result<Vec<ExprId>, DiffError> {
        self.position.iter().map(|&r| g.time_derivative(r)).collect()
    }

    /// `½ m |ṙ|²`.
    pub fn kinetic_energy(&self, g: &mut ExprGraph) -> Result<ExprId, DiffError> {
        let speed2 = self.speed_squared(g)?;
        let half = g.rational(1, 2);
        Ok(g.mul(&[half, self.mass, speed2]))
    }

    fn speed_squared(&self, g: &mut ExprGraph) -> Result<ExprId, DiffError> {
        let rdot = self.velocity(g)?;
        let squares: Vec<ExprId> = rdot.iter().map(|&c| g.powi(c, 2)).collect();
        Ok(g.add(&squares))
    }

    /// `K_i + J_i` for every coordinate: `K_i = ṁ u·∂r/∂q_i`,
    /// `J_i = ½[d/dt(|ṙ|² ∂m/∂v_i) − |ṙ|² ∂m/∂q_i]`.
    pub fn reactive_forces(&self, g: &mut ExprGraph) -> Result<Vec<ExprId>, DiffError> {
        let rdot = self.velocity(g)?;
        let u = self.ejecta_velocity.clone().unwrap_or_else(|| rdot.clone());
        let mdot = g.time_derivative(self.mass)?;
        let speed2 = self.speed_squared(g)?;
        let half = g.rational(1, 2);
        let mut out = Vec::new();
        for i in 0..g.coordinate_count() {
            let [q, v, _] = g.coordinate(i);
            let mut dot = Vec::new();
            for (c, &r) in self.position.iter().enumerate() {
                let dr = g.diff(r, q);
                dot.push(g.mul2(u[c], dr));
            }
            let u_dr = g.add(&dot);
            let k = g.mul2(mdot, u_dr);
            let dm_dv = g.diff(self.mass, v);
            let carried = g.mul2(speed2, dm_dv);
            let carried_dot = g.time_derivative(carried)?;
            let dm_dq = g.diff(self.mass, q);
            let lost = g.mul2(speed2, dm_dq);
            let j_inner = g.sub(carried_dot, lost);
            let j = g.mul2(half, j_inner);
            out.push(g.add2(k, j));
        }
        Ok(out)
    }
}

impl EquationsOfMotion {
    /// Derives `M` and `F` from `L = T − V` and the generalised forces `Q`.
    ///
    /// With momenta `p_i = ∂L/∂v_i`, `ṗ_i = Σ_j ∂p_i/∂v_j q̈_j + ṗ_i|_{q̈=0}`, so
    /// `M_ij = ∂p_i/∂v_j − ∂Q_i/∂q̈_j` and `F_i = Q_i|_{q̈=0} + ∂L/∂q_i − ṗ_i|_{q̈=0}`:
    /// the same as differentiating the residuals `R_i` by `q̈_j` and setting `q̈ = 0`
    /// in them, without building the residuals' acceleration terms to take them away
    /// again. The momenta's rates share one pass over their common subterms.
    /// Nothing is expanded: the derivatives keep the structure of `T` (shared sums,
    /// products of sums), which compiles to less code in less time; printers expand
    /// (derivation.rs).
    pub fn derive(g: &mut ExprGraph, kinetic: ExprId, potential: ExprId, forces: &[ExprId]) -> Result<Self, DiffError> {
        let n = g.coordinate_count();
        let lagrangian = g.sub(kinetic, potential);
        let momenta: Vec<ExprId> = (0..n).map(|i| g.diff(lagrangian, g.coordinate(i)[1])).collect();
        // Accelerations in L (or auxiliaries) have no rate: an error, as for ṗ.
        let rates_at_rest = g.time_derivatives_at_rest(&momenta)?;
        let accelerations: Vec<SymbolId> = (0..n).map(|i| g.coordinate(i)[2]).collect();
        let zero = g.zero();
        // ∂p_i/∂v_j = ∂²L/∂v_i∂v_j is symmetric: the lower triangle is derived and
        // mirrored (half the work, and M exactly symmetric).
        let mut hessian = alloc::vec![zero; n * n];
        for i in 0..n {
            for j in 0..=i {
                let m = g.diff(momenta[i], g.coordinate(j)[1]);
                hessian[i * n + j] = m;
                hessian[j * n + i] = m;
            }
        }
        let mut mass_matrix = Vec::with_capacity(n * n);
        let mut forcing = Vec::with_capacity(n);
        for (i, &force) in forces.iter().enumerate().take(n) {
            // Variable-mass particles' forces carry accelerations (K + J).
            let force_has_accelerations = g.may_have_accelerations(force);
            for (j, &a) in accelerations.iter().enumerate() {
                let m = hessian[i * n + j];
                mass_matrix.push(if force_has_accelerations {
                    let dq = g.diff(force, a);
                    g.sub(m, dq)
                } else {
                    m
                });
            }
            let force_at_rest = if force_has_accelerations {
                g.substitute(force, &|s| accelerations.contains(&s).then_some(zero))
            } else {
                force
            };
            let dl_dq = g.diff(lagrangian, g.coordinate(i)[0]);
            let gain = g.add2(force_at_rest, dl_dq);
            forcing.push(g.sub(gain, rates_at_rest[i]));
        }
        Ok(EquationsOfMotion { mass_matrix, forcing })
    }
}
