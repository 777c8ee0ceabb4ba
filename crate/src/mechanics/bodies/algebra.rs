//! Symbolic 3-vectors and 3×3 matrices in the model's expression graph: each a
//! fixed array of expressions (components along `N`'s axes unless said otherwise).

use alloc::vec::Vec;

use crate::expr::{ExprGraph, ExprId, Function};

/// Components along `N`'s axes.
pub(crate) type Vector = [ExprId; 3];
/// `m[i][j]`: row `i`, column `j`. A rotation's columns are the turned axes.
pub(crate) type Matrix = [[ExprId; 3]; 3];

/// The rotation by `theta` about axis `a` (0, 1, 2): its columns are the turned axes.
pub(crate) fn elementary(g: &mut ExprGraph, a: usize, theta: ExprId) -> Matrix {
    let (zero, one) = (g.zero(), g.one());
    let c = g.call(Function::Cos, theta);
    let s = g.call(Function::Sin, theta);
    let minus_s = g.neg(s);
    match a {
        0 => [[one, zero, zero], [zero, c, minus_s], [zero, s, c]],
        1 => [[c, zero, s], [zero, one, zero], [minus_s, zero, c]],
        _ => [[c, minus_s, zero], [s, c, zero], [zero, zero, one]],
    }
}

pub(crate) fn identity(g: &mut ExprGraph) -> Matrix {
    let (zero, one) = (g.zero(), g.one());
    [[one, zero, zero], [zero, one, zero], [zero, zero, one]]
}

pub(crate) fn multiply(g: &mut ExprGraph, a: &Matrix, b: &Matrix) -> Matrix {
    let mut out = [[g.zero(); 3]; 3];
    for (i, row) in out.iter_mut().enumerate() {
        for (j, x) in row.iter_mut().enumerate() {
            let terms: Vec<ExprId> = (0..3).map(|k| g.mul2(a[i][k], b[k][j])).collect();
            *x = g.add(&terms);
        }
    }
    out
}

/// `M v` for any 3×3 `M` (a rotation's `R v`: a frame's components along `N`).
pub(crate) fn rotate(g: &mut ExprGraph, m: &Matrix, v: &Vector) -> Vector {
    let mut out = [g.zero(); 3];
    for (o, row) in out.iter_mut().zip(m) {
        *o = dot(g, row, v);
    }
    out
}

/// `Rᵀ v`: a vector along `N` in the frame's components.
pub(crate) fn transpose_rotate(g: &mut ExprGraph, r: &Matrix, v: &Vector) -> Vector {
    let mut out = [g.zero(); 3];
    for (j, o) in out.iter_mut().enumerate() {
        *o = dot(g, &column(r, j), v);
    }
    out
}

/// Column `j` of `m`: a rotation's axis `j` along `N`.
pub(crate) fn column(m: &Matrix, j: usize) -> Vector {
    [m[0][j], m[1][j], m[2][j]]
}

pub(crate) fn dot(g: &mut ExprGraph, a: &Vector, b: &Vector) -> ExprId {
    let terms: Vec<ExprId> = a.iter().zip(b).map(|(&x, &y)| g.mul2(x, y)).collect();
    g.add(&terms)
}

pub(crate) fn cross(g: &mut ExprGraph, a: &Vector, b: &Vector) -> Vector {
    let mut out = [g.zero(); 3];
    for (i, o) in out.iter_mut().enumerate() {
        let (j, k) = ((i + 1) % 3, (i + 2) % 3);
        let p = g.mul2(a[j], b[k]);
        let q = g.mul2(a[k], b[j]);
        *o = g.sub(p, q);
    }
    out
}

pub(crate) fn add(g: &mut ExprGraph, a: &Vector, b: &Vector) -> Vector {
    [g.add2(a[0], b[0]), g.add2(a[1], b[1]), g.add2(a[2], b[2])]
}

pub(crate) fn sub(g: &mut ExprGraph, a: &Vector, b: &Vector) -> Vector {
    [g.sub(a[0], b[0]), g.sub(a[1], b[1]), g.sub(a[2], b[2])]
}

pub(crate) fn scale(g: &mut ExprGraph, k: ExprId, v: &Vector) -> Vector {
    [g.mul2(k, v[0]), g.mul2(k, v[1]), g.mul2(k, v[2])]
}

///
/// Where `v·v` is `cos²u` or `sin²u` in disguise (`|N.z − (N.z·W.y) W.y|` of a leaning
/// wheel is `sqrt(sin²θ cos²θ + sin⁴θ − 2 sin²θ + 1)`), `|v|` is `|cos u|` (`|sin u|`),
/// so that what cancels in the model does. The sign of `cos u` is the one it has at
/// the start (`sign_at_start`): `|v|` vanishes where `cos u` changes sign, so no
/// motion on which `v / |v|` is defined crosses that point, and `|v| = ±cos u` all
/// along it (`|cos u|` where the start is on it, or unknown).
pub(crate) fn norm(g: &mut ExprGraph, v: &Vector, sign_at_start: &dyn Fn(&ExprGraph, ExprId) -> f64) -> ExprId {
    let squared = dot(g, v, v);
    let Some(root) = g.trigonometric_root(squared) else { return g.sqrt(squared) };
    let sign = sign_at_start(g, root);
    if sign > 0.0 {
        root
    } else if sign < 0.0 {
        g.neg(root)
    } else {
        g.call(crate::expr::Function::Abs, root)
    }
}

/// `v / |v|`.
pub(crate) fn unit(g: &mut ExprGraph, v: &Vector, sign_at_start: &dyn Fn(&ExprGraph, ExprId) -> f64) -> Vector {
    let length = norm(g, v, sign_at_start);
    let inverse = g.powi(length, -1);
    scale(g, inverse, v)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The rotation matrices are orthonormal and compose in the order written.
    #[test]
    fn elementary_rotations_turn_the_axes_the_right_way() {
        let mut g = ExprGraph::new();
        let theta = g.parse("pi/2").unwrap();
        let rz = elementary(&mut g, 2, theta);
        // x turned a quarter about z is y: R's first column is (0, 1, 0).
        let column: Vec<f64> = (0..3).map(|i| g.evaluate(rz[i][0], &|_| 0.0)).collect();
        assert!((column[0]).abs() < 1e-15 && (column[1] - 1.0).abs() < 1e-15 && column[2].abs() < 1e-15, "{column:?}");
        let rx = elementary(&mut g, 0, theta);
        let both = multiply(&mut g, &rz, &rx);
        // z after a quarter about z, then a quarter about the new x (which is N's
        // y): a right-handed turn about y takes z to x.
        let z: Vec<f64> = (0..3).map(|i| g.evaluate(both[i][2], &|_| 0.0)).collect();
        assert!((z[0] - 1.0).abs() < 1e-15 && z[1].abs() < 1e-15 && z[2].abs() < 1e-15, "{z:?}");
    }
}
