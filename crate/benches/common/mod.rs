//! Timing shared by the benchmarks.

use std::time::Instant;

/// The fastest of `reps` runs of `f`, in seconds: the least disturbed measurement.
pub fn best(reps: usize, f: &mut dyn FnMut()) -> f64 {
    (0..reps)
        .map(|_| {
            let t0 = Instant::now();
            f();
            t0.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}
