//! `[scene]` checked and built into the model's graph, with positioned messages like
//! every other field.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{Element, Form, Orientation, SceneModel};
use crate::expr::{ExprGraph, ExprId};
use crate::mechanics::Checker;
use crate::message::{phrase, problem, Hint};
use crate::scenario::Projection;
use crate::scenario::{PrimitiveSpec, Scenario};

/// Most primitives in `[[scene.shapes]]`.
pub const MAX_SHAPES: usize = 64;
/// Most points of one primitive.
pub const MAX_POINTS: usize = 256;

const KINDS: [&str; 5] = ["point", "segment", "polyline", "polygon", "circle"];

impl Element {
    /// A body's shape, placed at its centre and turned with its frame.
    pub(crate) fn body(
        label: String,
        form: Form,
        centre: [ExprId; 3],
        axes: [[ExprId; 3]; 3],
        sizes: Vec<ExprId>,
        points: Vec<[ExprId; 3]>,
    ) -> Element {
        Element { label, form, trail: false, origin: centre, orientation: Orientation::Matrix(axes), sizes, points }
    }
}

/// The scene of `s`: the bodies' `drawings`, then `[[scene.shapes]]`, whose `frame`
/// names one of `frames`.
pub(crate) fn build(
    c: &mut Checker<'_>,
    g: &mut ExprGraph,
    s: &Scenario,
    drawings: Vec<Element>,
    frames: &BTreeMap<String, [[ExprId; 3]; 3]>,
) -> SceneModel {
    let mut scene = SceneModel { elements: drawings, projection: Projection::Plane };
    let Some(spec) = &s.scene else {
        if !scene.elements.is_empty() {
            scene.projection = Projection::Space;
        }
        return scene;
    };
    if spec.shapes.len() > MAX_SHAPES {
        c.said("scene.shapes", problem::too_many_shapes(spec.shapes.len(), MAX_SHAPES));
        return scene;
    }
    let mut three_dimensional = !scene.elements.is_empty();
    for (k, p) in spec.shapes.iter().enumerate() {
        let field = format!("scene.shapes[{k}]");
        three_dimensional |= p.at.len() == 3 || p.frame.is_some() || p.points.iter().any(|x| x.len() == 3);
        if let Some(e) = primitive(c, g, &field, p, frames) {
            scene.elements.push(e);
        }
    }
    scene.projection = match spec.projection.as_deref() {
        None if three_dimensional => Projection::Space,
        None => Projection::Plane,
        Some(id) => Projection::from_id(id).unwrap_or_else(|| {
            c.unknown("scene.projection", id, crate::message::phrase::a_projection(), ["plane", "space"]);
            Projection::Plane
        }),
    };
    scene
}

/// Two or three expressions of `q` and `t` (a missing z is 0).
fn components(c: &mut Checker<'_>, g: &mut ExprGraph, field: &str, texts: &[String]) -> Option<[ExprId; 3]> {
    if !(2..=3).contains(&texts.len()) {
        c.said(field, problem::components_two_or_three(texts.len()));
        return None;
    }
    let mut out = [g.zero(); 3];
    let mut ok = true;
    for (i, text) in texts.iter().enumerate() {
        match c.position_expr(g, &format!("{field}[{i}]"), text, crate::message::phrase::a_scene_position()) {
            Some(e) => out[i] = e,
            None => ok = false,
        }
    }
    ok.then_some(out)
}

fn primitive(
    c: &mut Checker<'_>,
    g: &mut ExprGraph,
    field: &str,
    p: &PrimitiveSpec,
    frames: &BTreeMap<String, [[ExprId; 3]; 3]>,
) -> Option<Element> {
    let form = match p.kind.as_str() {
        "point" => Form::Point,
        "segment" => Form::Segment,
        "polyline" => Form::Polyline,
        "polygon" => Form::Polygon,
        "circle" => Form::Circle,
        "" => {
            c.said(field, problem::shape_kind_missing(KINDS.join(", ")));
            return None;
        }
        other => {
            let hint = Hint(phrase::did_you_mean(other, KINDS));
            c.said(&format!("{field}.kind"), problem::not_a_scene_shape(other, KINDS.join(", "), hint));
            return None;
        }
    };
    let mut ok = true;
    let origin = if p.at.is_empty() { Some([g.zero(); 3]) } else { components(c, g, &format!("{field}.at"), &p.at) };
    ok &= origin.is_some();
    let orientation = match (&p.angle, &p.frame) {
        (Some(_), Some(_)) => {
            c.said(&format!("{field}.frame"), problem::angle_and_frame());
            None
        }
        (Some(text), None) => c
            .position_expr(g, &format!("{field}.angle"), text, crate::message::phrase::a_scene_angle())
            .map(Orientation::Angle),
        (None, Some(name)) => match frames.get(name) {
            Some(m) => Some(Orientation::Matrix(*m)),
            None => {
                c.unknown(
                    &format!("{field}.frame"),
                    name,
                    crate::message::phrase::a_frame_with_orientation(),
                    frames.keys().map(String::as_str),
                );
                None
            }
        },
        (None, None) => Some(Orientation::Fixed),
    };
    ok &= orientation.is_some();
    let needed = match form {
        Form::Segment => Some((2, 2)),
        Form::Polyline => Some((2, MAX_POINTS)),
        Form::Polygon => Some((3, MAX_POINTS)),
        _ => None,
    };
    match needed {
        Some((least, most)) if !(least..=most).contains(&p.points.len()) => {
            let wanted = if least == most { format!("{least}") } else { format!("{least} to {most}") };
            c.said(&format!("{field}.points"), problem::shape_points(&p.kind, wanted, p.points.len()));
            ok = false;
        }
        None if !p.points.is_empty() => {
            c.said(&format!("{field}.points"), problem::shape_has_no_points(&p.kind));
            ok = false;
        }
        _ => {}
    }
    let mut points = Vec::new();
    for (i, texts) in p.points.iter().enumerate().take(MAX_POINTS) {
        match components(c, g, &format!("{field}.points[{i}]"), texts) {
            Some(v) => points.push(v),
            None => ok = false,
        }
    }
    let mut sizes = Vec::new();
    match (&p.radius, form) {
        (Some(text), Form::Circle | Form::Point) => {
            match c.position_expr(g, &format!("{field}.radius"), text, crate::message::phrase::a_radius()) {
                Some(e) => sizes.push(e),
                None => ok = false,
            }
        }
        (None, Form::Circle) => {
            c.said(field, problem::circle_radius());
            ok = false;
        }
        (Some(_), _) => {
            c.said(&format!("{field}.radius"), problem::shape_has_no_radius(&p.kind));
            ok = false;
        }
        (None, _) => {}
    }
    let label = p.name.clone().unwrap_or_else(|| String::from(field));
    let trail = p.trail.unwrap_or(false);
    let (origin, orientation) = (origin?, orientation?);
    ok.then_some(Element { label, form, trail, origin, orientation, sizes, points })
}
