//! An element's marks in world coordinates, from its pose: circles as polygons of
//! [`CIRCLE_SIDES`] sides, a box as its six faces, and a mark on every round thing
//! (a spoke, a meridian) so that its rotation shows.

use alloc::vec;
use alloc::vec::Vec;
use core::f64::consts::TAU;

use super::Form;

/// Sides of the polygon that stands for a circle: smooth at the sizes a scene is
/// drawn (a 300-pixel wheel's sides are 20 pixels long).
pub const CIRCLE_SIDES: usize = 48;

/// The identity orientation.
pub const IDENTITY: [[f64; 3]; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

/// An element's evaluated pose and sizes.
#[derive(Clone, Debug, PartialEq)]
pub struct Pose {
    /// The local frame's origin.
    pub origin: [f64; 3],
    /// `axes[i][j]`: component `i` (world) of local axis `j`.
    pub axes: [[f64; 3]; 3],
    /// Radius, length, edges or semi-axes, by form.
    pub sizes: Vec<f64>,
    /// Vertices in the local frame.
    pub points: Vec<[f64; 3]>,
}

impl Pose {
    /// Whether every number is finite.
    pub fn is_finite(&self) -> bool {
        self.origin.iter().chain(self.axes.iter().flatten()).chain(&self.sizes).all(|x| x.is_finite())
            && self.points.iter().flatten().all(|x| x.is_finite())
    }

    /// A local point in world coordinates.
    pub fn world(&self, p: [f64; 3]) -> [f64; 3] {
        let a = &self.axes;
        core::array::from_fn(|i| self.origin[i] + a[i][0] * p[0] + a[i][1] * p[1] + a[i][2] * p[2])
    }
}

/// One thing drawn, in world coordinates.
#[derive(Clone, Debug, PartialEq)]
pub enum Mark {
    /// A polyline through `points`, back to the first when `closed`, filled when `fill`.
    Path {
        /// Its vertices.
        points: Vec<[f64; 3]>,
        /// Back to the first.
        closed: bool,
        /// Filled (translucent) inside.
        fill: bool,
    },
    /// A ball: a sphere's outline (a circle on any projection), or a dot of a fixed
    /// screen size when `radius` is 0.
    Ball {
        /// Its centre.
        centre: [f64; 3],
        /// Its radius in world units (0: a dot).
        radius: f64,
    },
}

impl Mark {
    /// Every point the mark passes through (a ball: its centre).
    pub fn points(&self) -> &[[f64; 3]] {
        match self {
            Mark::Path { points, .. } => points,
            Mark::Ball { centre, .. } => core::slice::from_ref(centre),
        }
    }
}

/// A scene at one state: marks tagged with their element's index, and the labels
/// of the elements that could not be drawn there (a non-finite number).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Picture {
    /// `(element, mark)`.
    pub items: Vec<(usize, Mark)>,
    /// Elements left out at this state.
    pub hidden: Vec<alloc::string::String>,
}

/// `n + 1` points of the ellipse `origin + a cos θ u + b sin θ w` (the last the first).
fn ellipse(pose: &Pose, centre: [f64; 3], (u, a): (usize, f64), (w, b): (usize, f64)) -> Vec<[f64; 3]> {
    (0..CIRCLE_SIDES)
        .map(|k| {
            let (s, c) = libm::sincos(TAU * k as f64 / CIRCLE_SIDES as f64);
            let mut p = centre;
            p[u] += a * c;
            p[w] += b * s;
            pose.world(p)
        })
        .collect()
}

/// The two axes other than `axis`, in cyclic order (x → y, z; y → z, x; z → x, y).
fn across(axis: usize) -> (usize, usize) {
    ((axis + 1) % 3, (axis + 2) % 3)
}

fn path(points: Vec<[f64; 3]>, closed: bool, fill: bool) -> Mark {
    Mark::Path { points, closed, fill }
}

/// An element's marks; `None` when its sizes do not fit its form.
pub fn marks(form: Form, pose: &Pose) -> Option<Vec<Mark>> {
    let size = |k: usize| pose.sizes.get(k).copied();
    let local = |p: &[f64; 3]| pose.world(*p);
    Some(match form {
        Form::Point => vec![Mark::Ball { centre: pose.origin, radius: size(0).unwrap_or(0.0).abs() }],
        Form::Segment | Form::Polyline => vec![path(pose.points.iter().map(local).collect(), false, false)],
        Form::Polygon => vec![path(pose.points.iter().map(local).collect(), true, true)],
        Form::Circle => {
            let r = size(0)?;
            vec![path(ellipse(pose, [0.0; 3], (0, r), (1, r)), true, true)]
        }
        Form::Disk { axis } => {
            let r = size(0)?;
            let (u, w) = across(axis);
            let mut rim = [0.0; 3];
            rim[u] = r;
            vec![
                path(ellipse(pose, [0.0; 3], (u, r), (w, r)), true, true),
                path(vec![pose.origin, local(&rim)], false, false),
            ]
        }
        Form::Cylinder { axis } => {
            let (r, length) = (size(0)?, size(1)?);
            let (u, w) = across(axis);
            let mut out = Vec::new();
            for end in [-0.5, 0.5] {
                let mut centre = [0.0; 3];
                centre[axis] = end * length;
                out.push(path(ellipse(pose, centre, (u, r), (w, r)), true, true));
                let mut rim = centre;
                rim[u] += r;
                out.push(path(vec![local(&centre), local(&rim)], false, false));
            }
            for k in 0..4 {
                let (s, c) = libm::sincos(TAU * k as f64 / 4.0);
                let (mut a, mut b) = ([0.0; 3], [0.0; 3]);
                a[axis] = -0.5 * length;
                b[axis] = 0.5 * length;
                for p in [&mut a, &mut b] {
                    p[u] = r * c;
                    p[w] = r * s;
                }
                out.push(path(vec![local(&a), local(&b)], false, false));
            }
            out
        }
        Form::Sphere => {
            let r = size(0)?;
            vec![
                Mark::Ball { centre: pose.origin, radius: r.abs() },
                path(ellipse(pose, [0.0; 3], (0, r), (1, r)), true, false),
                path(ellipse(pose, [0.0; 3], (2, r), (0, r)), true, false),
            ]
        }
        Form::Ball => vec![Mark::Ball { centre: pose.origin, radius: size(0)?.abs() }],
        Form::Ellipsoid => {
            let (a, b, c) = (size(0)?, size(1)?, size(2)?);
            vec![
                path(ellipse(pose, [0.0; 3], (0, a), (1, b)), true, true),
                path(ellipse(pose, [0.0; 3], (1, b), (2, c)), true, false),
                path(ellipse(pose, [0.0; 3], (2, c), (0, a)), true, false),
            ]
        }
        Form::Cuboid => {
            let h = [size(0)? / 2.0, size(1)? / 2.0, size(2)? / 2.0];
            let mut faces = Vec::new();
            for axis in 0..3 {
                let (u, w) = across(axis);
                for side in [-1.0, 1.0] {
                    let corner = |su: f64, sw: f64| {
                        let mut p = [0.0; 3];
                        p[axis] = side * h[axis];
                        p[u] = su * h[u];
                        p[w] = sw * h[w];
                        local(&p)
                    };
                    faces.push(path(
                        vec![corner(-1.0, -1.0), corner(1.0, -1.0), corner(1.0, 1.0), corner(-1.0, 1.0)],
                        true,
                        true,
                    ));
                }
            }
            faces
        }
    })
}
