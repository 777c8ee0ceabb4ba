#![allow(clippy::needless_range_loop)] // Stages index several parallel arrays at once.
//! Dormand–Prince 5(4): adaptive steps with the standard error norm and controller
//! (Hairer, Nørsett & Wanner, *Solving ODEs I*, §II.4), first-same-as-last, and
//! 4th-order dense output inside each accepted step.

use alloc::vec::Vec;

use super::tableau::DORMAND_PRINCE_54 as T;
use super::{IntegrationError, System};

/// Smallest step relative to `|t|` before the integrator gives up.
const MIN_RELATIVE_STEP: f64 = 1e-14;

/// An accepted step: from `t0` to `t0 + h`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StepReport {
    /// Start of the step.
    pub t0: f64,
    /// Its length.
    pub h: f64,
    /// Rejected attempts before it.
    pub rejected: usize,
}

/// The integrator's state between steps.
#[derive(Clone, Debug)]
pub struct Dopri5 {
    /// Relative tolerance.
    pub rtol: f64,
    /// Absolute tolerance.
    pub atol: f64,
    /// Largest step allowed.
    pub max_step: f64,
    h: f64,
    k: [Vec<f64>; 7],
    stage: Vec<f64>,
    y_new: Vec<f64>,
    /// `y0, y1 − y0, …`: Hairer's `rcont` for the dense output of the last step.
    dense: [Vec<f64>; 5],
    last: Option<StepReport>,
    fsal_valid: bool,
}

impl Dopri5 {
    /// An integrator for a system of dimension `dim`.
    pub fn new(dim: usize, rtol: f64, atol: f64) -> Self {
        let buf = || alloc::vec![0.0; dim];
        Dopri5 {
            rtol,
            atol,
            max_step: f64::INFINITY,
            h: 0.0,
            k: core::array::from_fn(|_| buf()),
            stage: buf(),
            y_new: buf(),
            dense: core::array::from_fn(|_| buf()),
            last: None,
            fsal_valid: false,
        }
    }

    /// Sets the next step size (the first one too, instead of the automatic choice).
    pub fn set_step(&mut self, h: f64) {
        self.h = h;
    }

    /// Forget the derivative carried over from the last step (after the state was
    /// changed from outside, e.g. projected back onto the constraints).
    pub fn restart(&mut self) {
        self.fsal_valid = false;
    }

    fn error_norm(&self, y: &[f64]) -> f64 {
        let mut sum = 0.0;
        for i in 0..y.len() {
            let err: f64 = (0..7).map(|s| T.e[s] * self.k[s][i]).sum::<f64>() * self.h;
            let scale = self.atol + self.rtol * y[i].abs().max(self.y_new[i].abs());
            sum += (err / scale) * (err / scale);
        }
        libm::sqrt(sum / y.len().max(1) as f64)
    }

    /// The first step size (Hairer's `hinit`).
    fn initial_step<S: System>(&mut self, sys: &mut S, t: f64, y: &[f64]) -> Result<f64, IntegrationError<S::Error>> {
        let norm = |v: &[f64], y: &[f64], s: &Self| -> f64 {
            let sum: f64 = v.iter().zip(y).map(|(x, yi)| crate::math::powi(x / (s.atol + s.rtol * yi.abs()), 2)).sum();
            libm::sqrt(sum / v.len().max(1) as f64)
        };
        let d0 = norm(y, y, self);
        let d1 = norm(&self.k[0], y, self);
        let h0 = if d0 < 1e-5 || d1 < 1e-5 { 1e-6 } else { 0.01 * d0 / d1 };
        let h0 = h0.min(self.max_step);
        for i in 0..y.len() {
            self.stage[i] = y[i] + h0 * self.k[0][i];
        }
        sys.rhs(t + h0, &self.stage, &mut self.k[1]).map_err(IntegrationError::System)?;
        let diff: Vec<f64> = self.k[1].iter().zip(&self.k[0]).map(|(a, b)| a - b).collect();
        let d2 = norm(&diff, y, self) / h0;
        let h1 = if d1.max(d2) <= 1e-15 { (h0 * 1e-3).max(1e-6) } else { libm::pow(0.01 / d1.max(d2), 0.2) };
        Ok((100.0 * h0).min(h1).min(self.max_step))
    }

    /// Takes one accepted step from `(t, y)` towards `t_stop` (never past it);
    /// updates `t` and `y` and returns the step taken.
    pub fn step<S: System>(
        &mut self,
        sys: &mut S,
        t: &mut f64,
        y: &mut [f64],
        t_stop: f64,
    ) -> Result<StepReport, IntegrationError<S::Error>> {
        let n = y.len();
        if !self.fsal_valid {
            sys.rhs(*t, y, &mut self.k[0]).map_err(IntegrationError::System)?;
            if self.h == 0.0 {
                self.h = self.initial_step(sys, *t, y)?;
            }
            self.fsal_valid = true;
        }
        let mut rejected = 0;
        loop {
            let remaining = t_stop - *t;
            let mut h = self.h.min(self.max_step).min(remaining);
            if h < MIN_RELATIVE_STEP * t.abs().max(1.0) {
                if remaining <= MIN_RELATIVE_STEP * t.abs().max(1.0) {
                    h = remaining;
                } else {
                    return Err(IntegrationError::StepSizeCollapse { t: *t, h });
                }
            }
            self.h = h;
            for s in 1..7 {
                for i in 0..n {
                    let acc: f64 = (0..s).map(|j| T.a[s][j] * self.k[j][i]).sum();
                    self.stage[i] = y[i] + h * acc;
                }
                let (before, after) = self.k.split_at_mut(s);
                let _ = before;
                sys.rhs(*t + T.c[s] * h, &self.stage, &mut after[0]).map_err(IntegrationError::System)?;
            }
            // Stage 7 was evaluated at y + h Σ b k = the new solution (FSAL).
            self.y_new.copy_from_slice(&self.stage);
            let err = self.error_norm(y);
            // err^(-1/5) as exp(-ln(err)/5): half the time of `pow` (a tenth of a
            // small model's step), and as deterministic (the same `libm` code in
            // wasm and natively).
            let factor = if err == 0.0 { 5.0 } else { (0.9 * libm::exp(-0.2 * libm::log(err))).clamp(0.2, 5.0) };
            if err <= 1.0 && err.is_finite() {
                let t0 = *t;
                for i in 0..n {
                    let dy = self.y_new[i] - y[i];
                    let bspl = h * self.k[0][i] - dy;
                    self.dense[0][i] = y[i];
                    self.dense[1][i] = dy;
                    self.dense[2][i] = bspl;
                    self.dense[3][i] = dy - h * self.k[6][i] - bspl;
                    self.dense[4][i] = h * (0..7).map(|s| T.d[s] * self.k[s][i]).sum::<f64>();
                }
                y.copy_from_slice(&self.y_new);
                *t = if h == remaining { t_stop } else { t0 + h };
                let (first, last) = self.k.split_at_mut(6);
                first[0].copy_from_slice(&last[0]);
                self.h = h * if rejected > 0 { factor.min(1.0) } else { factor };
                if y.iter().any(|x| !x.is_finite()) {
                    return Err(IntegrationError::NonFinite { t: *t });
                }
                let report = StepReport { t0, h, rejected };
                self.last = Some(report);
                return Ok(report);
            }
            rejected += 1;
            self.h = h * factor.min(1.0);
            if !err.is_finite() {
                self.h = h * 0.2;
            }
        }
    }

    /// The derivative at the end of the last accepted step, when the step ended at
    /// `t` exactly: its last stage, evaluated there (first same as last), which the
    /// next step reuses and a caller can reuse too. `None` after [`Dopri5::restart`]
    /// or when the step was clamped to a `t` other than where its stage was taken.
    pub fn derivative_at_end(&self, t: f64) -> Option<&[f64]> {
        let step = self.last?;
        (self.fsal_valid && step.t0 + step.h == t).then_some(self.k[0].as_slice())
    }

    /// The dense output of the last accepted step at time `t` (inside that step),
    /// written into `out`. Returns false when there is no step yet.
    pub fn interpolate(&self, t: f64, out: &mut [f64]) -> bool {
        let Some(step) = self.last else { return false };
        let s = if step.h == 0.0 { 1.0 } else { (t - step.t0) / step.h };
        let s1 = 1.0 - s;
        for (i, o) in out.iter_mut().enumerate() {
            let d = &self.dense;
            *o = d[0][i] + s * (d[1][i] + s1 * (d[2][i] + s * (d[3][i] + s1 * d[4][i])));
        }
        true
    }
}
