//! What a body looks like (`shape`): the marks the scene draws of it.

use super::*;

impl Builder<'_> {
    /// Checks a body's shape; its form, sizes and local points when all is well.
    pub(super) fn shape(&mut self, c: &mut Checker<'_>, field: &str, shape: &ShapeSpec) -> Option<Shape> {
        let needs: &[&str] = match shape.kind.as_str() {
            "disk" => &["radius", "axis"],
            "cylinder" => &["radius", "length", "axis"],
            "sphere" => &["radius"],
            "box" => &["size"],
            "ellipsoid" => &["semi_axes"],
            "segments" => &["points"],
            other => {
                const KINDS: [&str; 6] = ["disk", "cylinder", "sphere", "box", "ellipsoid", "segments"];
                let said = match phrase::did_you_mean(other, KINDS) {
                    Some(hint) => says::not_a_shape(other, Part(hint)),
                    None => says::not_a_shape_list(other, KINDS.join(", ")),
                };
                c.said(&format!("{field}.kind"), said);
                return None;
            }
        };
        let mut ok = true;
        for &key in needs {
            let present = match key {
                "radius" => shape.radius.is_some(),
                "length" => shape.length.is_some(),
                "axis" => shape.axis.is_some(),
                "size" => !shape.size.is_empty(),
                "semi_axes" => !shape.semi_axes.is_empty(),
                _ => !shape.points.is_empty(),
            };
            if !present {
                c.said(field, says::shape_needs(&shape.kind, key));
                ok = false;
            }
        }
        let mut sizes = Vec::new();
        for (key, text) in [("radius", &shape.radius), ("length", &shape.length)] {
            if let Some(text) = text {
                match c.position_expr(self.g, &format!("{field}.{key}"), text, crate::message::phrase::a_size()) {
                    Some(e) => sizes.push(e),
                    None => ok = false,
                }
            }
        }
        let mut axis = 0;
        if let Some(name) = &shape.axis {
            match ["x", "y", "z"].iter().position(|a| a == name) {
                Some(k) => axis = k,
                None => {
                    c.said(&format!("{field}.axis"), says::not_an_axis(name));
                    ok = false;
                }
            }
        }
        for (key, list) in [("size", &shape.size), ("semi_axes", &shape.semi_axes)] {
            if !list.is_empty() {
                match self.three_now(c, &format!("{field}.{key}"), list, true) {
                    Some(v) => sizes.extend(v),
                    None => ok = false,
                }
            }
        }
        let mut points = Vec::new();
        for (i, p) in shape.points.iter().enumerate() {
            match self.three_now(c, &format!("{field}.points[{i}]"), p, true) {
                Some(v) => points.push(v),
                None => ok = false,
            }
        }
        let form = match shape.kind.as_str() {
            "disk" => Form::Disk { axis },
            "cylinder" => Form::Cylinder { axis },
            "sphere" => Form::Sphere,
            "box" => Form::Cuboid,
            "ellipsoid" => Form::Ellipsoid,
            _ => Form::Polyline,
        };
        ok.then_some(Shape { form, sizes, points })
    }
}
