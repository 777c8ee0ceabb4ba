//! The scene's contact-force arrows: each contact's force drawn from its point, scaled
//! to the picture at the start and bent smoothly so that a spike stays in view.

use super::Run;

/// How the contact forces become arrows in a run's scene: `per_force` lengths per
/// unit force, and no arrow longer than `longest`.
#[derive(Clone, Copy, Debug)]
pub struct ArrowScale {
    per_force: f64,
    longest: f64,
}

/// The drawn vector of `force`: `per_force · force` while that is short, bent smoothly
/// to at most `longest` (its direction kept) when a force grows far past the first
/// picture's: a bicycle falling over or an impact spikes the forces, and an arrow
/// many times the picture's size would be all that is seen (issue 60.5).
fn arrow(force: &[f64; 3], scale: ArrowScale) -> [f64; 3] {
    let length = scale.per_force * (force[0] * force[0] + force[1] * force[1] + force[2] * force[2]).sqrt();
    let positive = |x: f64| x > 0.0; // false for NaN too
    if !positive(length) || !positive(scale.longest) {
        return [0.0; 3];
    }
    // x / (1 + x⁴)^¼: within 1 % of x up to x = 0.45, increasing, below 1 for every x.
    let x = length / scale.longest;
    let drawn = scale.longest * x / (1.0 + x.powi(4)).sqrt().sqrt();
    force.map(|f| f * scale.per_force * drawn / length)
}

/// The contact forces of `run` at its shown state as arrows from each contact point
/// (elements `first`, `first + 1`, …), with a head; none where a force is not
/// determined, or for a run without them (vakonomic).
pub(super) fn force_arrows(
    run: &mut Run,
    picture: &nhlab::scene::Picture,
    first: usize,
) -> Vec<(usize, nhlab::scene::Mark)> {
    let (Some(sim), Some((shown, _))) = (run.sim.as_mut(), &run.current) else { return Vec::new() };
    let state = nhlab::simulation::State { t: shown.t, q: shown.q.clone(), v: shown.v.clone(), mu: shown.mu.clone() };
    let Ok(Some((forces, _))) = nhlab::simulation::contact_forces_at(sim.numeric_mut(), run.method, &state) else {
        return Vec::new();
    };
    let length = |f: &[f64; 3]| (f[0] * f[0] + f[1] * f[1] + f[2] * f[2]).sqrt();
    let scale = *run.arrow_scale.get_or_insert_with(|| {
        let points = picture.items.iter().flat_map(|(_, m)| m.points().iter().copied());
        let (lo, hi) = points.fold(([f64::INFINITY; 3], [f64::NEG_INFINITY; 3]), |(lo, hi), p| {
            (core::array::from_fn(|k| lo[k].min(p[k])), core::array::from_fn(|k| hi[k].max(p[k])))
        });
        let size = (0..3).map(|k| hi[k] - lo[k]).filter(|x| x.is_finite()).fold(0.0, f64::max);
        let largest = forces.iter().map(|f| length(&f.force)).filter(|x| x.is_finite()).fold(0.0, f64::max);
        let per_force = if size > 0.0 && largest > 0.0 { 0.25 * size / largest } else { 0.0 };
        ArrowScale { per_force, longest: 0.6 * size }
    });
    forces
        .iter()
        .enumerate()
        .filter(|(_, f)| f.force.iter().chain(&f.point).all(|x| x.is_finite()))
        .filter_map(|(k, f)| {
            let d = arrow(&f.force, scale);
            if length(&d).is_nan() || length(&d) <= 0.0 {
                return None;
            }
            let tip: [f64; 3] = core::array::from_fn(|i| f.point[i] + d[i]);
            // The head: two strokes back from the tip, across the arrow.
            let across = {
                let axis = if d[2].abs() < 0.9 * length(&d) { [0.0, 0.0, 1.0] } else { [1.0, 0.0, 0.0] };
                let c =
                    [d[1] * axis[2] - d[2] * axis[1], d[2] * axis[0] - d[0] * axis[2], d[0] * axis[1] - d[1] * axis[0]];
                let n = length(&c);
                c.map(|x| x / n * 0.08 * length(&d))
            };
            let back: [f64; 3] = core::array::from_fn(|i| tip[i] - 0.2 * d[i]);
            let wing = |sign: f64| -> [f64; 3] { core::array::from_fn(|i| back[i] + sign * across[i]) };
            let points = vec![f.point, tip, wing(1.0), tip, wing(-1.0)];
            Some((first + k, nhlab::scene::Mark::Path { points, closed: false, fill: false }))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_force_arrow_is_proportional_while_short_and_never_longer_than_its_bound() {
        let scale = ArrowScale { per_force: 0.01, longest: 0.6 };
        let norm = |d: [f64; 3]| (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]).sqrt();
        // A force as at the first picture (a quarter of a picture of size 1): within 1 %.
        let first = arrow(&[0.0, 15.0, 20.0], scale);
        assert!((norm(first) - 0.25).abs() < 0.01 * 0.25, "{first:?}");
        // Its direction is kept.
        assert!((first[1] / first[2] - 0.75).abs() < 1e-12 && first[0] == 0.0);
        // A force a thousand times larger (a capsizing bicycle's): bounded, and still longer.
        let spike = arrow(&[0.0, 15e3, 20e3], scale);
        assert!(norm(spike) <= 0.6 && norm(spike) > norm(first), "{spike:?}");
        // Larger forces draw longer arrows all the way up (monotone).
        let lengths: Vec<f64> = (0..60).map(|k| norm(arrow(&[1.2f64.powi(k), 0.0, 0.0], scale))).collect();
        assert!(lengths.windows(2).all(|w| w[1] >= w[0]) && lengths.iter().all(|&l| l <= 0.6));
        // No arrow for no force, or for a scene without a size.
        assert_eq!(arrow(&[0.0; 3], scale), [0.0; 3]);
        assert_eq!(arrow(&[1.0, 0.0, 0.0], ArrowScale { per_force: 0.0, longest: 0.0 }), [0.0; 3]);
    }
}
