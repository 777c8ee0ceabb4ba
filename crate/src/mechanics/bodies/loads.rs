//! Forces and torques (`[[loads]]`): their shares of `Q`.

use super::*;

impl Builder<'_> {
    /// A load's share of `Q`: `F·∂v_P/∂q̇_i + τ·∂ω_B/∂q̇_i`.
    pub(super) fn load(&mut self, c: &mut Checker<'_>, k: usize, spec: &LoadSpec) {
        let field = format!("loads[{k}]");
        if spec.force.is_none() && spec.torque.is_none() {
            c.said(&field, says::load_empty());
            return;
        }
        let body = match &spec.body {
            Some(name) if self.bodies.contains_key(name) => Some(self.bodies[name].clone()),
            Some(name) => {
                if !self.space.declared.contains(&format!("body {name}")) {
                    c.unknown(
                        &format!("{field}.body"),
                        name,
                        crate::message::phrase::a_body(),
                        self.bodies.keys().map(String::as_str),
                    );
                }
                return;
            }
            None => None,
        };
        let mut work: Vec<(Vector, Vector)> = Vec::new();
        let mut record = contact_terms::LoadRecord { body: spec.body.clone(), force: None, torque: None };
        if let Some(text) = &spec.force {
            let Some(point) = &spec.point else {
                c.said(&format!("{field}.force"), says::force_needs_point());
                return;
            };
            let Some(r) = self.space.points.get(point).copied() else {
                if !self.space.declared.contains(&format!("point {point}")) {
                    c.unknown(
                        &format!("{field}.point"),
                        point,
                        crate::message::phrase::a_point(),
                        self.space.points.keys().map(String::as_str),
                    );
                }
                return;
            };
            let Ok(force) = self.vector_of(c, &format!("{field}.force"), text, phrase::a_force()) else { return };
            force.iter().for_each(|&x| self.source(format!("{field}.force"), SourceKind::Value, x, false));
            let velocity = match &spec.body {
                Some(name) => self.material_velocity(name, &r),
                None => self.velocity(&r),
            };
            let Some(velocity) = velocity else { return };
            record.force = Some((r, force));
            work.push((force, velocity));
        } else if spec.point.is_some() {
            c.said(&format!("{field}.point"), says::point_without_force());
            return;
        }
        if let Some(text) = &spec.torque {
            let Some(body) = body else {
                c.said(&format!("{field}.torque"), says::torque_needs_body());
                return;
            };
            let Ok(torque) = self.vector_of(c, &format!("{field}.torque"), text, phrase::a_torque()) else { return };
            torque.iter().for_each(|&x| self.source(format!("{field}.torque"), SourceKind::Value, x, false));
            let Some(frame) = self.space.frames.get(&body.frame) else { return };
            record.torque = Some(torque);
            work.push((torque, frame.omega));
        }
        self.records.1.push(record);
        for (load, rate) in work {
            for i in 0..self.g.coordinate_count() {
                let v = self.g.coordinate(i)[1];
                let partial: Vector = rate.map(|x| self.g.diff(x, v));
                let share = dot(self.g, &load, &partial);
                self.add_force(i, share);
            }
        }
    }
}
