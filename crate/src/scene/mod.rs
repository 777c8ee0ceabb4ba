//! The scene — the system drawn as it moves (beside the layers, like `view`). What a scenario draws is built
//! with the model ([`SceneModel`], `mechanics/scene/`: the bodies' shapes and
//! `[[scene.shapes]]`); here it is compiled
//! once into one program over `[t, q, v, parameters]` ([`ScenePlayer`]), and
//! evaluated at any state into world-space marks ([`geometry`]) that a camera
//! projects onto a screen ([`camera`]). The page's scene panel and `nhlab run
//! --scene` both draw from it, so they show the same picture.
//!
//! Each element's program outputs are its pose and sizes only (origin, orientation,
//! radius…); the curves (circles as polygons, a box's faces) are made here in plain
//! arithmetic, so a disk costs 13 outputs, not 150.

pub mod camera;
pub mod geometry;

use alloc::vec;
use alloc::vec::Vec;

use crate::expr::{CompileError, Evaluator};
use crate::mechanics::scene::Orientation;
pub use crate::mechanics::scene::{Element, Form, SceneModel};
use crate::mechanics::{fill_state_inputs, Model};

pub use camera::{Bounds, Camera, Fit, Projection};
pub use geometry::{Mark, Picture};

/// Where each element's numbers are in the program's outputs.
#[derive(Clone, Copy, Debug)]
struct Slots {
    origin: usize,
    orientation: usize,
    sizes: usize,
    points: usize,
}

/// The scene compiled: evaluates every element's pose and sizes at a state.
pub struct ScenePlayer {
    evaluator: Evaluator,
    elements: Vec<Element>,
    slots: Vec<Slots>,
    projection: Projection,
    inputs: Vec<f64>,
    out: Vec<f64>,
}

impl ScenePlayer {
    /// Compiles the model's scene over `[t, q…, v…, parameters…]` (as [`crate::view::View`]).
    pub fn new(model: &Model) -> Result<ScenePlayer, CompileError> {
        let inputs = model.state_inputs();
        let mut exprs = Vec::new();
        let mut slots = Vec::new();
        for e in &model.scene.elements {
            let origin = exprs.len();
            exprs.extend(e.origin);
            let orientation = exprs.len();
            match e.orientation {
                Orientation::Fixed => {}
                Orientation::Angle(a) => exprs.push(a),
                Orientation::Matrix(m) => exprs.extend(m.iter().flatten()),
            }
            let sizes = exprs.len();
            exprs.extend(&e.sizes);
            let points = exprs.len();
            exprs.extend(e.points.iter().flatten());
            slots.push(Slots { origin, orientation, sizes, points });
        }
        let program = model.graph.compile(&exprs, &inputs)?;
        Ok(ScenePlayer {
            inputs: vec![0.0; program.input_count()],
            out: vec![0.0; program.output_count()],
            evaluator: program.into_evaluator(),
            elements: model.scene.elements.clone(),
            slots,
            projection: model.scene.projection,
        })
    }

    /// The elements drawn.
    pub fn elements(&self) -> &[Element] {
        &self.elements
    }

    /// `plane` or `space`.
    pub fn projection(&self) -> Projection {
        self.projection
    }

    /// Evaluates the program at a state; false where it cannot be evaluated at all.
    fn evaluate(&mut self, parameters: &[f64], t: f64, q: &[f64], v: &[f64]) -> bool {
        fill_state_inputs(&mut self.inputs, t, q, v, parameters);
        if self.evaluator.eval(&self.inputs, &mut self.out).is_err() {
            self.out.fill(f64::NAN);
            return false;
        }
        true
    }

    /// The picture at a state: every element's marks in world coordinates; an element
    /// with a non-finite number is left out and named in [`Picture::hidden`].
    pub fn picture(&mut self, parameters: &[f64], t: f64, q: &[f64], v: &[f64]) -> Picture {
        self.evaluate(parameters, t, q, v);
        let mut picture = Picture::default();
        for (k, (e, s)) in self.elements.iter().zip(&self.slots).enumerate() {
            let pose = self.pose(e, s);
            match pose.and_then(|p| geometry::marks(e.form, &p)) {
                Some(marks) => picture.items.extend(marks.into_iter().map(|m| (k, m))),
                None => picture.hidden.push(e.label.clone()),
            }
        }
        picture
    }

    /// The world position of each trailed element's origin at a state (NaN where it
    /// cannot be evaluated), in element order.
    pub fn trail_points(&mut self, parameters: &[f64], t: f64, q: &[f64], v: &[f64]) -> Vec<[f64; 3]> {
        self.evaluate(parameters, t, q, v);
        self.elements
            .iter()
            .zip(&self.slots)
            .filter(|(e, _)| e.trail)
            .map(|(_, s)| [self.out[s.origin], self.out[s.origin + 1], self.out[s.origin + 2]])
            .collect()
    }

    /// An element's pose and sizes from the outputs; `None` if one is not finite.
    fn pose(&self, e: &Element, s: &Slots) -> Option<geometry::Pose> {
        let o = &self.out;
        let origin = [o[s.origin], o[s.origin + 1], o[s.origin + 2]];
        let axes = match e.orientation {
            Orientation::Fixed => geometry::IDENTITY,
            Orientation::Angle(_) => {
                let (sin, cos) = libm::sincos(o[s.orientation]);
                [[cos, -sin, 0.0], [sin, cos, 0.0], [0.0, 0.0, 1.0]]
            }
            Orientation::Matrix(_) => {
                let m = &o[s.orientation..s.orientation + 9];
                [[m[0], m[1], m[2]], [m[3], m[4], m[5]], [m[6], m[7], m[8]]]
            }
        };
        let sizes = o[s.sizes..s.sizes + e.sizes.len()].to_vec();
        let points = o[s.points..s.points + 3 * e.points.len()].chunks_exact(3).map(|p| [p[0], p[1], p[2]]).collect();
        let pose = geometry::Pose { origin, axes, sizes, points };
        pose.is_finite().then_some(pose)
    }
}
