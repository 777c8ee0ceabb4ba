//! Rolling contact (`[[rolling]]`): the contact point's material velocity, relative to the other body, has no tangential components.

use super::*;

impl Builder<'_> {
    /// The velocity of the material point of body `name` at `r` (zero for the ground).
    pub(super) fn material_velocity(&mut self, name: &str, r: &Vector) -> Option<Vector> {
        let body = self.bodies.get(name)?.clone();
        let frame = self.space.frames.get(&body.frame)?.clone();
        let centre = self.space.points.get(&body.centre).copied()?;
        let v = self.velocity(&centre)?;
        let arm = sub(self.g, r, &centre);
        let spin = cross(self.g, &frame.omega, &arm);
        Some(add(self.g, &v, &spin))
    }

    pub(super) fn rolling(
        &mut self,
        c: &mut Checker<'_>,
        j: usize,
        spec: &crate::scenario::RollingSpec,
        out: &mut Vec<(String, String, ExprId)>,
    ) {
        let field = format!("rolling[{j}]");
        let on = spec.on.as_deref().unwrap_or("ground");
        let mut ok = true;
        for (key, name) in [("body", spec.body.as_str()), ("on", on)] {
            if (key == "on" && name == "ground") || self.bodies.contains_key(name) {
                continue;
            }
            ok = false;
            if self.space.declared.contains(&format!("body {name}")) {
                continue;
            }
            let bodies = self.bodies.keys().map(String::as_str).chain([if key == "on" { "ground" } else { "" }]);
            c.unknown(&format!("{field}.{key}"), name, crate::message::phrase::a_body(), bodies);
        }
        if on == spec.body {
            c.said(&format!("{field}.on"), says::rolls_on_itself());
            ok = false;
        }
        let Some(contact) = self.space.points.get(&spec.contact).copied() else {
            if self.space.declared.contains(&format!("point {}", spec.contact)) {
                return;
            }
            let points = self.space.points.keys().map(String::as_str);
            c.unknown(&format!("{field}.contact"), &spec.contact, crate::message::phrase::a_point(), points);
            return;
        };
        if !ok {
            return;
        }
        let tangents = match &spec.tangents {
            None => None,
            Some(texts) if texts.len() != 2 => {
                c.said(&format!("{field}.tangents"), says::two_tangents(texts.len()));
                return;
            }
            Some(texts) => {
                let mut both = Vec::new();
                for (i, text) in texts.iter().enumerate() {
                    let at = format!("{field}.tangents[{i}]");
                    let Ok(t) = self.vector_of(c, &at, text, phrase::a_tangent()) else { return };
                    if !self.positions_only(c, &at, &t, phrase::a_tangent) {
                        return;
                    }
                    // A tangent's label in the constraint's name: its text when
                    // that is a name (`e_r`), else its place.
                    let label = if is_identifier(text.trim()) { text.trim().into() } else { format!("t{}", i + 1) };
                    both.push((label, t));
                }
                Some(both)
            }
        };
        let Some(mut relative) = self.material_velocity(&spec.body, &contact) else { return };
        if on != "ground" {
            let Some(other) = self.material_velocity(on, &contact) else { return };
            relative = sub(self.g, &relative, &other);
        }
        let name = spec.name.clone().unwrap_or_else(|| format!("{} rolls on {on}", spec.body));
        let friction = match &spec.friction {
            None => None,
            Some(text) => {
                let at = format!("{field}.friction");
                let Some(mu) = c.position_expr(self.g, &at, text, crate::message::phrase::a_friction_coefficient())
                else {
                    return;
                };
                if self.g.free_symbols(mu).iter().any(|&s| matches!(self.g.symbol(s).kind, SymbolKind::Coordinate(_))) {
                    c.said(&at, says::friction_on_coordinates());
                    return;
                }
                let value = self.space.value_at_start(self.g, mu);
                if value.is_nan() || value < 0.0 {
                    c.said(&at, says::friction_negative(Short(value)));
                    return;
                }
                Some(mu)
            }
        };
        let (zero, one) = (self.g.zero(), self.g.one());
        let along = match &tangents {
            None => [[one, zero, zero], [zero, one, zero]],
            Some(both) => [both[0].1, both[1].1],
        };
        self.records.2.push(contact_terms::ContactRecord {
            name: name.clone(),
            field: field.clone(),
            body: spec.body.clone(),
            on: (on != "ground").then(|| on.into()),
            point: contact,
            relative,
            tangents: along,
            friction,
        });
        match tangents {
            None => {
                for (axis, &f) in ["x", "y"].iter().zip(&relative) {
                    out.push((format!("{name}: {axis}"), field.clone(), f));
                }
            }
            Some(tangents) => {
                for (label, t) in tangents {
                    let f = dot(self.g, &relative, &t);
                    out.push((format!("{name}: {label}"), field.clone(), f));
                }
            }
        }
    }
}
