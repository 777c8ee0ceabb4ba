//! The two scaling families of the mechanics benchmark (issue 10), generated as
//! scenario text so that they go through the same path as a user's file:
//!
//! - an N-link planar pendulum in absolute angles, unit masses and lengths, no
//!   constraints (its mass matrix is `c_ij cos(θᵢ − θⱼ)`, `c_ij = N − max(i, j)`
//!   0-based, which the hand-written right-hand side uses);
//! - a tractor pulling n knife-edge trailers: `x, y, θ₀…θₙ` (n + 3 coordinates), one
//!   knife edge per body (n + 1 nonholonomic constraints), each trailer hitched at the
//!   rear of the one before.

use nalgebra::{DMatrix, DVector};

/// The N-link pendulum as TOML, as a user writes it: `T = ½ Σₖ (ẋₖ² + ẏₖ²)` with bob
/// k's velocity `(Σᵢ≤ₖ cos θᵢ θ̇ᵢ, Σᵢ≤ₖ sin θᵢ θ̇ᵢ)` written out, `V = −g Σₖ Σᵢ≤ₖ cos θᵢ`.
pub fn pendulum(n: usize) -> String {
    let th = |i: usize| format!("th{}", i + 1);
    let sum = |k: usize, f: &str| (0..=k).map(|i| format!("{f}({})*{}'", th(i), th(i))).collect::<Vec<_>>().join(" + ");
    let kinetic: Vec<String> = (0..n).map(|k| format!("(({})^2 + ({})^2)/2", sum(k, "cos"), sum(k, "sin"))).collect();
    let potential: Vec<String> = (0..n).map(|i| format!("-{}*g*cos({})", n - i, th(i))).collect();
    let coordinates: Vec<String> = (0..n).map(|i| format!("\"{}\"", th(i))).collect();
    let q: Vec<String> = (0..n).map(|i| format!("{} = {}", th(i), 0.3 + 0.01 * i as f64)).collect();
    format!(
        "format = \"nhlab/1\"\ntitle = \"{n}-link pendulum\"\ncoordinates = [{}]\nkinetic = \"{}\"\npotential = \"{}\"\n\
         [parameters]\ng = 9.81\n[initial.q]\n{}\n",
        coordinates.join(", "),
        kinetic.join(" + "),
        potential.join(" "),
        q.join("\n")
    )
}

/// The pendulum's right-hand side written by hand: `M θ̈ = F`, solved by Cholesky.
pub fn pendulum_by_hand(g: f64, q: &[f64], v: &[f64], out: &mut [f64]) {
    let n = q.len();
    let mut m = DMatrix::zeros(n, n);
    let mut f = DVector::zeros(n);
    for i in 0..n {
        let (si, ci) = q[i].sin_cos();
        f[i] = -((n - i) as f64) * g * si;
        for j in 0..n {
            let c = (n - i.max(j)) as f64;
            let (sj, cj) = q[j].sin_cos();
            // cos(θi − θj) and sin(θi − θj) from the angles' own sines and cosines.
            m[(i, j)] = c * (ci * cj + si * sj);
            f[i] -= c * (si * cj - ci * sj) * v[j] * v[j];
        }
    }
    let x = m.cholesky().expect("positive definite").solve(&f);
    out.copy_from_slice(x.as_slice());
}

/// A tractor with `n` knife-edge trailers as TOML.
pub fn trailers(n: usize) -> String {
    // Body k sits at (x, y) − L Σᵢ₌₁..ₖ (cos θᵢ, sin θᵢ); its velocity, written out:
    let vx = |k: usize| -> String {
        let mut s = "x'".to_string();
        for i in 1..=k {
            s += &format!(" + L*sin(th{i})*th{i}'");
        }
        s
    };
    let vy = |k: usize| -> String {
        let mut s = "y'".to_string();
        for i in 1..=k {
            s += &format!(" - L*cos(th{i})*th{i}'");
        }
        s
    };
    let mut kinetic = vec!["m/2*(x'^2 + y'^2) + J/2*th0'^2".to_string()];
    for k in 1..=n {
        kinetic.push(format!("m/2*(({})^2 + ({})^2) + J/2*th{k}'^2", vx(k), vy(k)));
    }
    let mut constraints = vec!["[[constraints]]\nexpr = \"-x'*sin(th0) + y'*cos(th0)\"".to_string()];
    for k in 1..=n {
        constraints.push(format!("[[constraints]]\nexpr = \"-({})*sin(th{k}) + ({})*cos(th{k})\"", vx(k), vy(k)));
    }
    let mut coordinates = vec!["\"x\"".to_string(), "\"y\"".to_string()];
    coordinates.extend((0..=n).map(|k| format!("\"th{k}\"")));
    let q: Vec<String> = (0..=n).map(|k| format!("th{k} = {}", 0.05 * k as f64)).collect();
    format!(
        "format = \"nhlab/1\"\ntitle = \"tractor with {n} trailers\"\ncoordinates = [{}]\nkinetic = \"{}\"\n\
         {}\n[parameters]\nm = 1.0\nJ = 0.1\nL = 1.0\n[initial.q]\nx = 0\ny = 0\n{}\n[initial.v]\nx = 1\nth0 = 0.2\n",
        coordinates.join(", "),
        kinetic.join(" + "),
        constraints.join("\n"),
        q.join("\n")
    )
}
