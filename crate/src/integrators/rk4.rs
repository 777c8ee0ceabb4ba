#![allow(clippy::needless_range_loop)] // Stages index several parallel arrays at once.
//! Classical fourth-order Runge–Kutta with a fixed step.

use alloc::vec::Vec;

use super::{IntegrationError, System};

/// RK4 with its stage buffers (no allocation per step).
#[derive(Clone, Debug, Default)]
pub struct Rk4 {
    k: [Vec<f64>; 4],
    tmp: Vec<f64>,
}

impl Rk4 {
    /// Buffers for a system of dimension `dim`.
    pub fn new(dim: usize) -> Self {
        Rk4 { k: core::array::from_fn(|_| alloc::vec![0.0; dim]), tmp: alloc::vec![0.0; dim] }
    }

    /// Advances `y` from `t` to `t + h`.
    pub fn step<S: System>(
        &mut self,
        sys: &mut S,
        t: f64,
        y: &mut [f64],
        h: f64,
    ) -> Result<(), IntegrationError<S::Error>> {
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
        Ok(())
    }
}
