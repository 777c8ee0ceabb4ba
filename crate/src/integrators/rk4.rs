#![allow(clippy::needless_range_loop)] // Stages index several parallel arrays at once.
//! Classical fourth-order Runge–Kutta with a fixed step, and its continuous
//! extension of order 3 for output between grid points.
//!
//! The dense output uses only the step's own stages (no extra evaluation):
//! `y(t₀ + θh) = y₀ + h Σ bᵢ(θ) kᵢ` with
//! `b₁ = θ − 3θ²/2 + 2θ³/3`, `b₂ = b₃ = θ² − 2θ³/3`, `b₄ = −θ²/2 + 2θ³/3`
//! (Hairer, Nørsett & Wanner, *Solving ODEs I*, §II.6). At `θ = 1` it is the step
//! itself, at `θ = 0` its derivative is `k₁`, and its local error is `O(h⁴)`, so a
//! sample between grid points is as accurate as the grid to one order less.

use alloc::vec::Vec;

use super::{IntegrationError, System};

/// RK4 with its stage buffers (no allocation per step).
#[derive(Clone, Debug, Default)]
pub struct Rk4 {
    k: [Vec<f64>; 4],
    tmp: Vec<f64>,
    /// The start of the last step, for the dense output.
    y0: Vec<f64>,
    /// `(t₀, h)` of the last step.
    last: Option<(f64, f64)>,
}

impl Rk4 {
    /// Buffers for a system of dimension `dim`.
    pub fn new(dim: usize) -> Self {
        Rk4 {
            k: core::array::from_fn(|_| alloc::vec![0.0; dim]),
            tmp: alloc::vec![0.0; dim],
            y0: alloc::vec![0.0; dim],
            last: None,
        }
    }

    /// Advances `y` from `t` to `t + h`.
    pub fn step<S: System>(
        &mut self,
        sys: &mut S,
        t: f64,
        y: &mut [f64],
        h: f64,
    ) -> Result<(), IntegrationError<S::Error>> {
        self.last = None;
        self.y0.copy_from_slice(y);
        let [k1, k2, k3, k4] = &mut self.k;
        let tmp = &mut self.tmp;
        sys.rhs(t, y, k1).map_err(IntegrationError::System)?;
        for i in 0..y.len() {
            tmp[i] = y[i] + 0.5 * h * k1[i];
        }
        sys.rhs(t + 0.5 * h, tmp, k2).map_err(IntegrationError::System)?;
        for i in 0..y.len() {
            tmp[i] = y[i] + 0.5 * h * k2[i];
        }
        sys.rhs(t + 0.5 * h, tmp, k3).map_err(IntegrationError::System)?;
        for i in 0..y.len() {
            tmp[i] = y[i] + h * k3[i];
        }
        sys.rhs(t + h, tmp, k4).map_err(IntegrationError::System)?;
        for i in 0..y.len() {
            y[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
        }
        if y.iter().any(|x| !x.is_finite()) {
            return Err(IntegrationError::NonFinite { t: t + h });
        }
        self.last = Some((t, h));
        Ok(())
    }

    /// The dense output of the last step at `t` (inside it), written into `out`;
    /// `out` must hold the step's end state, which is returned unchanged at the end
    /// of the step. Returns false when there is no step yet.
    pub fn interpolate(&self, t: f64, out: &mut [f64]) -> bool {
        let Some((t0, h)) = self.last else { return false };
        let theta = if h == 0.0 { 1.0 } else { ((t - t0) / h).clamp(0.0, 1.0) };
        if theta >= 1.0 {
            return true;
        }
        let (t2, t3) = (theta * theta, theta * theta * theta);
        let b1 = theta - 1.5 * t2 + 2.0 / 3.0 * t3;
        let b23 = t2 - 2.0 / 3.0 * t3;
        let b4 = -0.5 * t2 + 2.0 / 3.0 * t3;
        let [k1, k2, k3, k4] = &self.k;
        for i in 0..out.len() {
            out[i] = self.y0[i] + h * (b1 * k1[i] + b23 * (k2[i] + k3[i]) + b4 * k4[i]);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `y' = y`: the continuous extension at θ has error `O(h⁴)` against `e^{θh}`.
    struct Growth;
    impl System for Growth {
        type Error = ();
        fn rhs(&mut self, _t: f64, y: &[f64], dy: &mut [f64]) -> Result<(), ()> {
            dy[0] = y[0];
            Ok(())
        }
    }

    #[test]
    fn dense_output_has_local_error_of_order_four() {
        let error = |h: f64| {
            let mut rk = Rk4::new(1);
            let mut y = [1.0];
            rk.step(&mut Growth, 0.0, &mut y, h).unwrap();
            let mut out = y;
            rk.interpolate(0.37 * h, &mut out);
            (out[0] - libm::exp(0.37 * h)).abs()
        };
        let order = libm::log2(error(0.1) / error(0.05));
        assert!(order > 3.8 && order < 4.3, "observed local order {order}");
    }

    #[test]
    fn dense_output_ends_on_the_step() {
        let mut rk = Rk4::new(1);
        let mut y = [1.0];
        rk.step(&mut Growth, 0.0, &mut y, 0.3).unwrap();
        let mut out = y;
        assert!(rk.interpolate(0.3, &mut out));
        assert_eq!(out, y);
        rk.interpolate(0.0, &mut out);
        assert_eq!(out, [1.0]);
    }
}
