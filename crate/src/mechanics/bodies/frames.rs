//! Frames: each turned from its parent (`[frames]`), its rotation and angular velocity.

use super::*;

impl Builder<'_> {
    /// Frames in an order where every parent comes first; unknown parents and
    /// cycles reported.
    pub(super) fn frames_in_order(&mut self, c: &mut Checker<'_>, s: &Scenario) {
        let mut pending: Vec<&String> = s.frames.keys().collect();
        for name in &pending {
            if name.as_str() == INERTIAL_FRAME {
                c.said_key(&format!("frames.{name}"), says::inertial_frame_named());
            }
        }
        pending.retain(|n| n.as_str() != INERTIAL_FRAME);
        for name in &pending {
            let parent = s.frames[*name].parent.as_deref().unwrap_or(INERTIAL_FRAME);
            if parent != INERTIAL_FRAME && !s.frames.contains_key(parent) {
                c.unknown(
                    &format!("frames.{name}.parent"),
                    parent,
                    crate::message::phrase::a_frame(),
                    s.frames.keys().map(String::as_str).chain([INERTIAL_FRAME]),
                );
            }
        }
        let pending = in_base_order(pending, |name| {
            let spec = &s.frames[name];
            let parent = spec.parent.as_deref().unwrap_or(INERTIAL_FRAME);
            if !self.space.frames.contains_key(parent) {
                return false;
            }
            self.frame(c, name, spec, parent);
            true
        });
        let cyclic: Vec<&str> = pending
            .iter()
            .filter(|n| {
                let parent = s.frames[**n].parent.as_deref().unwrap_or(INERTIAL_FRAME);
                s.frames.contains_key(parent)
            })
            .map(|n| n.as_str())
            .collect();
        if !cyclic.is_empty() {
            c.said("frames", says::frames_cycle(cyclic.join(", ")));
        }
    }

    pub(super) fn frame(&mut self, c: &mut Checker<'_>, name: &str, spec: &crate::scenario::FrameSpec, parent: &str) {
        let field = format!("frames.{name}");
        let Some(parent_frame) = self.space.frames.get(parent).cloned() else { return };
        if spec.rotations.len() > MAX_ROTATIONS {
            c.said(&format!("{field}.rotations"), says::too_many_rotations(spec.rotations.len(), MAX_ROTATIONS));
            return;
        }
        if let Some(w) = &spec.angular_velocity {
            if !spec.rotations.is_empty() {
                c.said(&field, says::rotations_and_angular_velocity());
                return;
            }
            let Some(w) = self.three_now(c, &format!("{field}.angular_velocity"), w, false) else { return };
            let Some(r) = parent_frame.rotation else {
                c.said(&format!("{field}.parent"), says::parent_has_no_axes(parent, name));
                return;
            };
            let along_n = rotate(self.g, &r, &w);
            let omega = add(self.g, &parent_frame.omega, &along_n);
            // No orientation: no own axes (`own` is never read for such a frame).
            self.space.frames.insert(name.into(), Frame { rotation: None, omega, own: omega });
            return;
        }
        let Some(mut rotation) = parent_frame.rotation else {
            c.said(&format!("{field}.parent"), says::parent_cannot_turn(parent));
            return;
        };
        let mut omega = parent_frame.omega;
        let mut own = parent_frame.own;
        for (k, turn) in spec.rotations.iter().enumerate() {
            let at = format!("{field}.rotations[{k}]");
            let mut entries = turn.iter();
            let (Some((axis, angle)), None) = (entries.next(), entries.next()) else {
                c.said(&at, says::rotation_pair());
                return;
            };
            let Some(a) = ["x", "y", "z"].iter().position(|x| x == axis) else {
                c.said_key(&format!("{at}.{axis}"), says::not_an_axis(axis));
                return;
            };
            let Some(theta) =
                c.position_expr(self.g, &format!("{at}.{axis}"), angle, crate::message::phrase::a_rotation_angle())
            else {
                return;
            };
            let Ok(rate) = self.g.time_derivative(theta) else { return };
            let about = rotation.map(|row| row[a]);
            let turning = scale(self.g, rate, &about);
            omega = add(self.g, &omega, &turning);
            let turn = elementary(self.g, a, theta);
            rotation = multiply(self.g, &rotation, &turn);
            own = transpose_rotate(self.g, &turn, &own);
            own[a] = self.g.add2(own[a], rate);
        }
        self.space.frames.insert(name.into(), Frame { rotation: Some(rotation), omega, own });
    }
}
