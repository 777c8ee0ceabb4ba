//! Points, vectors and gravity (`[points]`, `[vectors]`, `[gravity]`): three components along `N` each, named `P_x`, `P_y`, `P_z`.

use super::*;

impl Builder<'_> {
    /// Points and `[vectors]` entries in an order where what each refers to comes
    /// first; each gets its named components (or, for a scalar, its name).
    pub(super) fn points_and_vectors_in_order(&mut self, c: &mut Checker<'_>, s: &Scenario) {
        for name in s.points.keys() {
            if name.as_str() == ORIGIN {
                c.said_key(&format!("points.{name}"), says::origin_named());
            }
            let from = s.points[name].from.as_deref().unwrap_or(ORIGIN);
            if from != ORIGIN && !s.points.contains_key(from) {
                c.unknown(
                    &format!("points.{name}.from"),
                    from,
                    crate::message::phrase::a_point(),
                    s.points.keys().map(String::as_str).chain([ORIGIN]),
                );
            }
            if s.vectors.contains_key(name) {
                c.said_key(&format!("vectors.{name}"), says::point_already(name));
            }
        }
        let mut pending: Vec<(bool, &String)> = s
            .points
            .keys()
            .filter(|n| n.as_str() != ORIGIN)
            .map(|n| (true, n))
            .chain(s.vectors.keys().filter(|n| !s.points.contains_key(*n)).map(|n| (false, n)))
            .collect();
        // What each waits for, from the last attempt.
        let mut waits: BTreeMap<String, String> = BTreeMap::new();
        loop {
            let before = pending.len();
            pending.retain(|&(is_point, name)| {
                let built = if is_point {
                    self.point(c, name, &s.points[name.as_str()])
                } else {
                    self.vector_entry(c, name, &s.vectors[name.as_str()])
                };
                match built {
                    Built::Waiting(on) => {
                        waits.insert(name.clone(), on);
                        true
                    }
                    Built::Failed => {
                        self.space.declared.insert(format!("failed {name}"));
                        unavailable(c, name);
                        false
                    }
                    Built::Done => false,
                }
            });
            if pending.is_empty() || pending.len() == before {
                break;
            }
        }
        // Left: waiting for something that failed (its message says it), or for
        // each other.
        let failed = |name: &str| {
            self.space.declared.contains(&format!("failed {name}"))
                || (self.space.declared.contains(&format!("frame {name}")) && !self.space.frames.contains_key(name))
        };
        let mut cyclic: Vec<&str> = pending
            .iter()
            .filter(|(_, n)| waits.get(n.as_str()).is_some_and(|on| !failed(on)))
            .map(|(_, n)| n.as_str())
            .collect();
        cyclic.sort_unstable();
        for (_, name) in &pending {
            unavailable(c, name);
        }
        if !cyclic.is_empty() {
            let table = if pending.iter().all(|(p, _)| *p) { "points" } else { "vectors" };
            c.said(table, says::points_cycle(cyclic.join(", ")));
        }
    }

    /// Parses a vector expression; `None` with the problem reported, or the name
    /// it waits for.
    pub(super) fn vector_value(&mut self, c: &mut Checker<'_>, field: &str, text: &str) -> Result<Value, Built> {
        match vector_expr::parse(self.g, &self.space, text) {
            Outcome::Done(v) => Ok(v),
            Outcome::Pending(name) => Err(Built::Waiting(name)),
            Outcome::Failed(e) => {
                c.parse_error(field, &e);
                Err(Built::Failed)
            }
        }
    }

    /// A vector expression that must be a vector.
    /// `what` is a [`phrase`] ("a force").
    pub(super) fn vector_of(
        &mut self,
        c: &mut Checker<'_>,
        field: &str,
        text: &str,
        what: Message,
    ) -> Result<Vector, Built> {
        match self.vector_value(c, field, text)? {
            Value::Vector(v) => Ok(v),
            Value::Scalar(_) => {
                c.said(field, says::vector_expected(Part(what)));
                Err(Built::Failed)
            }
        }
    }

    /// Whether `v` is free of velocities; reported at `field` if not (`what`: a
    /// [`phrase`]).
    pub(super) fn positions_only(&self, c: &mut Checker<'_>, field: &str, v: &[ExprId], what: fn() -> Message) -> bool {
        let mut velocities: Vec<String> = Vec::new();
        for &x in v {
            for s in self.g.free_symbols(x) {
                let name = self.g.display_symbol(s);
                if matches!(self.g.symbol(s).kind, SymbolKind::Velocity(_)) && !velocities.contains(&name) {
                    velocities.push(name);
                }
            }
        }
        if !velocities.is_empty() {
            c.said(field, problem::positions_only(Part(what()), velocities.join("`, `")));
        }
        velocities.is_empty()
    }

    pub(super) fn point(&mut self, c: &mut Checker<'_>, name: &str, spec: &crate::scenario::PointSpec) -> Built {
        let field = format!("points.{name}");
        let from = spec.from.as_deref().unwrap_or(ORIGIN);
        let Some(base) = self.space.points.get(from).copied() else {
            return Built::Waiting(from.into());
        };
        let offset = match &spec.position {
            PositionSpec::Expression(text) => {
                if spec.frame.is_some() {
                    c.said(&format!("{field}.frame"), says::frame_with_expression());
                    return Built::Failed;
                }
                let at = format!("{field}.position");
                match self.vector_of(c, &at, text, phrase::a_points_position()) {
                    Ok(v) if self.positions_only(c, &at, &v, phrase::a_position) => v,
                    Ok(_) => return Built::Failed,
                    Err(b) => return b,
                }
            }
            PositionSpec::Components(texts) => {
                let frame_name = spec.frame.as_deref().unwrap_or(INERTIAL_FRAME);
                let r = match self.space.frames.get(frame_name) {
                    Some(Frame { rotation: Some(r), .. }) => *r,
                    Some(_) => {
                        c.said(&format!("{field}.frame"), says::position_frame_has_no_axes(frame_name));
                        return Built::Failed;
                    }
                    None => {
                        if !self.space.declared.contains(&format!("frame {frame_name}")) {
                            c.unknown(
                                &format!("{field}.frame"),
                                frame_name,
                                crate::message::phrase::a_frame(),
                                self.space.frames.keys().map(String::as_str),
                            );
                        }
                        return Built::Failed;
                    }
                };
                let components = match self.three(c, &format!("{field}.position"), texts, true) {
                    Ok(v) => v,
                    Err(b) => return b,
                };
                rotate(self.g, &r, &components)
            }
        };
        let position = add(self.g, &base, &offset);
        self.name_components(c, &field, name, says::point_component_unnamed, &position);
        self.space.points.insert(name.into(), position);
        Built::Done
    }

    /// A `[vectors]` entry: a vector's components or a scalar, named.
    pub(super) fn vector_entry(&mut self, c: &mut Checker<'_>, name: &str, text: &str) -> Built {
        let field = format!("vectors.{name}");
        match self.vector_value(c, &field, text) {
            Ok(Value::Vector(v)) => {
                self.name_components(c, &field, name, says::vector_component_unnamed, &v);
                self.space.vectors.insert(name.into(), v);
                Built::Done
            }
            Ok(Value::Scalar(x)) => {
                match self.g.declare_definition(name) {
                    Ok(id) => self.g.set_definition_body(id, x),
                    Err(e) => c.said_key(&field, says::scalar_unnamed(name, Part(e.message()))),
                }
                self.space.scalars.insert(name.into());
                Built::Done
            }
            Err(b) => b,
        }
    }

    /// Declares `<name>_x`, `<name>_y`, `<name>_z` as `v`'s components; `unnamed`
    /// says why one cannot be.
    pub(super) fn name_components(
        &mut self,
        c: &mut Checker<'_>,
        field: &str,
        name: &str,
        unnamed: Unnamed,
        v: &Vector,
    ) {
        for (axis, &x) in ["x", "y", "z"].iter().zip(v) {
            let component = format!("{name}_{axis}");
            match self.g.declare_definition(&component) {
                Ok(id) => self.g.set_definition_body(id, x),
                Err(e) => {
                    c.said_key(field, unnamed(component.as_str().into(), name.into(), Part(e.message()).into()));
                }
            }
        }
    }

    /// Three scalar expressions; `positions` forbids velocities.
    pub(super) fn three(
        &mut self,
        c: &mut Checker<'_>,
        field: &str,
        texts: &[String],
        positions: bool,
    ) -> Result<Vector, Built> {
        if texts.len() != 3 {
            c.said(field, says::three_components(texts.len()));
            return Err(Built::Failed);
        }
        let mut out = [self.g.zero(); 3];
        let mut failed = false;
        for (i, text) in texts.iter().enumerate() {
            let at = format!("{field}[{i}]");
            match self.vector_value(c, &at, text)? {
                Value::Scalar(x) if !positions || self.positions_only(c, &at, &[x], phrase::a_position) => out[i] = x,
                Value::Scalar(_) => failed = true,
                Value::Vector(_) => {
                    c.said(&at, says::component_is_scalar());
                    failed = true;
                }
            }
        }
        if failed {
            Err(Built::Failed)
        } else {
            Ok(out)
        }
    }

    /// [`three`](Self::three) where nothing can be waited for: frames come before
    /// points and vectors, and the rest after them (what is still missing then
    /// failed, with its own message).
    pub(super) fn three_now(
        &mut self,
        c: &mut Checker<'_>,
        field: &str,
        texts: &[String],
        positions: bool,
    ) -> Option<Vector> {
        match self.three(c, field, texts, positions) {
            Ok(v) => Some(v),
            Err(Built::Waiting(name)) if !self.space.declared.contains(&format!("failed {name}")) => {
                c.said(field, says::not_built_yet(name));
                None
            }
            Err(_) => None,
        }
    }
    /// The gravity vector `g d/|d|`, along `N`.
    pub(super) fn gravity(&mut self, c: &mut Checker<'_>, spec: &crate::scenario::GravitySpec) -> Option<Vector> {
        let magnitude =
            c.position_expr(self.g, "gravity.magnitude", &spec.magnitude, crate::message::phrase::the_gravity())?;
        self.source("gravity.magnitude".into(), SourceKind::Value, magnitude, false);
        let default = ["0", "0", "-1"].map(String::from).to_vec();
        let d = self.three_now(c, "gravity.direction", spec.direction.as_ref().unwrap_or(&default), true)?;
        if d.iter().all(|&x| self.g.as_number(x).is_some_and(|x| x.is_zero())) {
            c.said("gravity.direction", says::gravity_zero());
            return None;
        }
        let space = &self.space;
        let length = norm(self.g, &d, &|g, e| vector_expr::Scope::sign_at_start(space, g, e));
        let factor = self.g.div(magnitude, length);
        Some(scale(self.g, factor, &d))
    }
}
