//! What a model draws, built with it: the bodies' shapes and `[[scene.shapes]]`,
//! as expressions in the model's graph ([`build`]). The scene's player
//! (`crate::scene`) compiles and poses them at a state.

mod build;

pub(crate) use build::build;

use alloc::string::String;
use alloc::vec::Vec;

use crate::expr::ExprId;
use crate::scenario::Projection;

/// What an element is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// A dot (a ball of `sizes[0]` when given).
    Point,
    /// A segment through two points.
    Segment,
    /// An open polyline.
    Polyline,
    /// A closed, filled polygon.
    Polygon,
    /// A filled circle of radius `sizes[0]` in the local xy plane.
    Circle,
    /// A body's thin disk of radius `sizes[0]` normal to local `axis`, with a spoke.
    Disk {
        /// 0, 1, 2 for x, y, z.
        axis: usize,
    },
    /// A body's cylinder: radius `sizes[0]`, length `sizes[1]`, along local `axis`.
    Cylinder {
        /// 0, 1, 2 for x, y, z.
        axis: usize,
    },
    /// A body's sphere of radius `sizes[0]`, with an equator and a meridian.
    Sphere,
    /// A sphere whose orientation is not tracked (its frame is given by its angular
    /// velocity): the outline alone, which needs no orientation.
    Ball,
    /// A body's box with edges `sizes[0..3]`.
    Cuboid,
    /// A body's ellipsoid with semi-axes `sizes[0..3]`.
    Ellipsoid,
}

/// The orientation of an element's local frame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Orientation {
    /// Not turned.
    Fixed,
    /// Turned by an angle about z.
    Angle(ExprId),
    /// A frame's rotation matrix (`m[i][j]`: component `i` along `N` of axis `j`).
    Matrix([[ExprId; 3]; 3]),
}

/// One element of the scene, symbolically.
#[derive(Clone, Debug)]
pub struct Element {
    /// What the caption calls it (`body wheel`, the primitive's name or
    /// `scene.shapes[2]`).
    pub label: String,
    /// What it is.
    pub form: Form,
    /// Whether the path of its origin is drawn behind it.
    pub trail: bool,
    pub(crate) origin: [ExprId; 3],
    pub(crate) orientation: Orientation,
    pub(crate) sizes: Vec<ExprId>,
    pub(crate) points: Vec<[ExprId; 3]>,
}

/// What a model draws.
#[derive(Clone, Debug, Default)]
pub struct SceneModel {
    /// The elements, bodies first, then `[[scene.shapes]]` in order.
    pub elements: Vec<Element>,
    /// `plane` or `space`.
    pub projection: Projection,
}

impl SceneModel {
    /// Whether there is nothing to draw.
    pub fn is_empty(&self) -> bool {
        self.elements.is_empty()
    }
}
