//! A rigid body (`[[bodies]]`): its share of `T` and `V`, its inertia checked physical.

use super::*;

impl Builder<'_> {
    /// A body's `T`, mass and centre point.
    pub(super) fn body(&mut self, c: &mut Checker<'_>, k: usize, spec: &BodySpec) -> Option<(ExprId, ExprId, String)> {
        let field = format!("bodies[{k}]");
        if spec.name.trim().is_empty() {
            c.said(&format!("{field}.name"), says::body_name_missing());
        } else if self.bodies.contains_key(&spec.name) {
            c.said(&format!("{field}.name"), says::body_twice(&spec.name));
        }
        let frame = match self.space.frames.get(&spec.frame) {
            Some(f) => Some(f.clone()),
            // No `frame` key: said at the body's table, where the key belongs.
            None if spec.frame.trim().is_empty() => {
                c.said(&field, says::body_frame_missing());
                None
            }
            None => {
                if !self.space.declared.contains(&format!("frame {}", spec.frame)) {
                    let frames = self.space.frames.keys().map(String::as_str);
                    c.unknown(&format!("{field}.frame"), &spec.frame, crate::message::phrase::a_frame(), frames);
                }
                None
            }
        };
        let centre = self.space.points.get(&spec.centre).copied();
        if centre.is_none() && !self.space.declared.contains(&format!("point {}", spec.centre)) {
            let points = self.space.points.keys().map(String::as_str);
            c.unknown(&format!("{field}.centre"), &spec.centre, crate::message::phrase::a_point(), points);
        }
        let mass = c.position_expr(self.g, &format!("{field}.mass"), &spec.mass, crate::message::phrase::a_mass());
        if let Some(m) = mass {
            self.source(format!("{field}.mass"), SourceKind::Value, m, false);
        }
        let i = &spec.inertia;
        let mut tensor = [[self.g.zero(); 3]; 3];
        let mut ok = true;
        for (key, text, (r, col)) in [
            ("xx", &i.xx, (0, 0)),
            ("yy", &i.yy, (1, 1)),
            ("zz", &i.zz, (2, 2)),
            ("xy", &i.xy, (0, 1)),
            ("xz", &i.xz, (0, 2)),
            ("yz", &i.yz, (1, 2)),
        ] {
            let Some(text) = text else { continue };
            match c.position_expr(self.g, &format!("{field}.inertia.{key}"), text, crate::message::phrase::an_inertia())
            {
                Some(e) => {
                    tensor[r][col] = e;
                    tensor[col][r] = e;
                    self.source(format!("{field}.inertia.{key}"), SourceKind::Value, e, false);
                }
                None => ok = false,
            }
        }
        let shape = spec.shape.as_ref().and_then(|shape| self.shape(c, &format!("{field}.shape"), shape));
        let (frame, centre, mass) = (frame?, centre?, mass?);
        if !ok || !self.physical(c, &field, mass, &tensor) {
            return None;
        }
        let omega = match frame.rotation {
            Some(_) => frame.own,
            None => {
                let isotropic = tensor[0][0] == tensor[1][1]
                    && tensor[1][1] == tensor[2][2]
                    && [tensor[0][1], tensor[0][2], tensor[1][2]].iter().all(|&x| self.g.is_zero(x));
                if !isotropic {
                    c.said(&format!("{field}.inertia"), says::body_not_isotropic(&spec.frame));
                    return None;
                }
                self.pseudo_coordinate_terms(tensor[0][0], &frame.omega);
                frame.omega
            }
        };
        let velocity = self.velocity(&centre)?;
        let half = self.g.rational(1, 2);
        let translation = dot(self.g, &velocity, &velocity);
        let i_omega = rotate(self.g, &tensor, &omega);
        let rotation = dot(self.g, &omega, &i_omega);
        let m_v2 = self.g.mul2(mass, translation);
        let sum = self.g.add2(m_v2, rotation);
        let t = self.g.mul2(half, sum);
        if let Some(shape) = shape {
            let label = format!("body {}", spec.name);
            match (frame.rotation, shape.form) {
                (Some(axes), form) => {
                    self.drawings.push(Element::body(label, form, centre, axes, shape.sizes, shape.points));
                }
                // No orientation to draw a turning picture with: a sphere is drawn by
                // its outline, which needs none.
                (None, Form::Sphere) => {
                    let axes = identity(self.g);
                    self.drawings.push(Element::body(label, Form::Ball, centre, axes, shape.sizes, shape.points));
                }
                (None, _) => c.said(&format!("{field}.shape.kind"), says::body_drawn_as_sphere(&spec.frame)),
            }
        }
        self.bodies.insert(spec.name.clone(), Body { frame: spec.frame.clone(), centre: spec.centre.clone() });
        self.records.0.push(contact_terms::BodyRecord {
            name: spec.name.clone(),
            mass,
            centre,
            rotation: frame.rotation,
            omega: frame.omega,
            own: frame.own,
            inertia: tensor,
        });
        Some((t, mass, spec.centre.clone()))
    }

    /// Adds `term` to `Q_i` (the generalised forces start at zero when first added to).
    pub(super) fn source(&mut self, field: String, what: SourceKind, expr: ExprId, energy: bool) {
        self.sources.push(Source { field, what, expr, energy });
    }

    pub(super) fn add_force(&mut self, i: usize, term: ExprId) {
        if self.forces.is_empty() {
            self.forces = alloc::vec![self.g.zero(); self.g.coordinate_count()];
        }
        self.forces[i] = self.g.add2(self.forces[i], term);
    }

    /// The terms that make Lagrange's equations true for a body whose frame is given
    /// by its angular velocity `ω` (affine in the velocities), with inertia `I` about
    /// every axis (so its angular momentum is `L = I ω`).
    ///
    /// The rates in `ω` need not be rates of true coordinates (`θx'` along a turning
    /// parent's axes is not the rate of any angle). For a coordinate `qₖ` Lagrange's
    /// operator on `½ I ω·ω` is `L̇·eₖ + L·Dₖ` with `eₖ = ∂ω/∂q̇ₖ` (the virtual
    /// rotation of `δqₖ`) and `Dₖ = d/dt eₖ − ∂ω/∂qₖ`, while the motion needs
    /// `L̇·eₖ = τ·eₖ`. For true coordinates `Dₖ = ω × eₖ`, and `L·(ω × eₖ) = 0`
    /// since `L ∥ ω`; for the rates of pseudo-coordinates it is not (along a parent
    /// turning at `ω_p`, `Dₖ = ω_p × eₖ`: the gyroscopic term of Hamel's and
    /// Boltzmann's equations). So `L·Dₖ` joins `Q_k`; it is zero, and nothing is
    /// added, where `ω` is along `N` with constant coefficients (the usual ball).
    pub(super) fn pseudo_coordinate_terms(&mut self, inertia: ExprId, omega: &Vector) {
        let momentum = scale(self.g, inertia, omega);
        for k in 0..self.g.coordinate_count() {
            let [q, v, _] = self.g.coordinate(k);
            let mut d = [self.g.zero(); 3];
            for (out, &w) in d.iter_mut().zip(omega) {
                let e = self.g.diff(w, v);
                let Ok(rate) = self.g.time_derivative(e) else { return };
                let along_q = self.g.diff(w, q);
                *out = self.g.sub(rate, along_q);
            }
            if d.iter().all(|&x| self.g.is_zero(x)) {
                continue;
            }
            let term = dot(self.g, &momentum, &d);
            let term = self.g.expand_within(term, super::super::constraint::EXPAND_BUDGET);
            self.add_force(k, term);
        }
    }

    /// Whether a body's mass and inertia can be right at the start — a mass and
    /// principal moments that are not negative (0 is allowed: a massless turntable, a
    /// planar body with only `zz`) — else said at `mass` or `inertia` (a negative
    /// moment made the mass matrix indefinite, and the message blamed `kinetic`,
    /// which the file did not have).
    pub(super) fn physical(
        &mut self,
        c: &mut Checker<'_>,
        field: &str,
        mass: ExprId,
        tensor: &[[ExprId; 3]; 3],
    ) -> bool {
        let m = self.space.value_at_start(self.g, mass);
        if m.is_finite() && m < 0.0 {
            c.said(&format!("{field}.mass"), says::mass_negative(Short(m)));
            return false;
        }
        let values = nalgebra::DMatrix::from_fn(3, 3, |r, k| self.space.value_at_start(self.g, tensor[r][k]));
        if values.iter().any(|x| !x.is_finite()) {
            return true;
        }
        let (moments, _) = crate::math::jacobi::symmetric_eigen(&values);
        let scale = moments.iter().fold(0.0f64, |a, x| a.max(x.abs()));
        if moments.iter().any(|&x| x < -1e-12 * scale) {
            let mut sorted: Vec<f64> = moments.iter().copied().collect();
            sorted.sort_by(f64::total_cmp);
            let listed: Vec<String> = sorted.iter().map(|&x| crate::math::short_number(x)).collect();
            c.said(&format!("{field}.inertia"), says::inertia_negative(listed.join(", ")));
            return false;
        }
        true
    }

    /// `ṙ`, component by component.
    pub(super) fn velocity(&mut self, r: &Vector) -> Option<Vector> {
        let mut v = [self.g.zero(); 3];
        for (out, &x) in v.iter_mut().zip(r) {
            *out = self.g.time_derivative(x).ok()?;
        }
        Some(v)
    }
}
