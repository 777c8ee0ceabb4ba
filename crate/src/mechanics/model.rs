//! A validated model: the scenario's expressions parsed into one graph, constraints
//! classified, equations of motion derived. Building it reports every problem at
//! once, each at its field (and line and column when the scenario came from text).

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::constraint::{Constraint, ConstraintKind};
use super::equations::{EquationsOfMotion, ParticleTerms};
use super::hamel::{choose_dependent, HamelSplit, SplitError};
use super::vakonomic::{VakonomicEquations, VakonomicError};
use crate::expr::{
    nearest, DefinitionError, ExprGraph, ExprId, NameError, ParseError, ParseErrorKind, ParseOptions, SymbolId,
    SymbolKind,
};
use crate::scenario::{did_you_mean, Problem, Problems, Scenario, SourceMap, FORMAT};

/// A parameter with its value.
#[derive(Clone, Debug)]
pub struct Parameter {
    /// Name.
    pub name: String,
    /// Its symbol.
    pub symbol: SymbolId,
    /// Value from the scenario.
    pub value: f64,
}

/// A validated mechanical system.
#[derive(Clone, Debug)]
pub struct Model {
    /// Every expression of the model lives here.
    pub graph: ExprGraph,
    /// The scenario it was built from.
    pub scenario: Scenario,
    /// Parameters, in the scenario's order.
    pub parameters: Vec<Parameter>,
    /// `T`, including the particles' share.
    pub kinetic: ExprId,
    /// `V`.
    pub potential: ExprId,
    /// `Q_i` as given (without particle terms).
    pub forces: Vec<ExprId>,
    /// `Q_i` with the particles' reactive and mass-variation terms `K_i + J_i`.
    pub generalized_forces: Vec<ExprId>,
    /// Variable-mass particles.
    pub particles: Vec<ParticleTerms>,
    /// Constraints, in scenario order.
    pub constraints: Vec<Constraint>,
    /// `M q̈ = F` of the unconstrained system.
    pub equations: EquationsOfMotion,
    /// View expressions: trajectory then series.
    pub view: Vec<ExprId>,
    /// What the scene draws: the bodies' shapes and `[[scene.shapes]]`.
    pub scene: super::scene::SceneModel,
    /// Hamel's embedding and the E-vector for the scenario's (or the chosen) split,
    /// or why there is none.
    pub hamel: Result<HamelSplit, SplitError>,
    /// How the lab chose the split when the scenario left it open (after following
    /// the true motion, `simulation::split_choice`); `None` before that, or when the
    /// scenario gives `[hamel] dependent`.
    pub hamel_choice: Option<String>,
    /// The vakonomic equations (in `graph`, with auxiliary symbols `mu1…`), or why not.
    pub vakonomic: Result<VakonomicEquations, VakonomicError>,
    /// `graph` with Hamel's split derived in it (`None` when it was not derived):
    /// the split's expressions live here. Each of Hamel's split and the vakonomic
    /// equations is derived from `graph` on its own, so that neither depends on
    /// whether the other was derived: a model built for one method computes its
    /// numbers, and prints its equations, exactly as a model built with everything.
    pub hamel_graph: Option<ExprGraph>,
    /// `graph` with the vakonomic equations derived in it (`None` when they were not).
    pub vakonomic_graph: Option<ExprGraph>,
}

/// Collects problems while building, with positions from the source map.
pub(crate) struct Checker<'a> {
    map: &'a SourceMap,
    problems: Vec<Problem>,
    /// Names of the components of points and vectors that failed to build (their
    /// own problem says why): an expression naming one reports nothing more.
    pub(crate) unavailable: alloc::collections::BTreeSet<String>,
    /// What the scenario's points, `[vectors]` and frames are called, with what each
    /// is (`point`, `vector`, `frame`): a scalar expression naming one is told so.
    pub(crate) vectors: alloc::collections::BTreeMap<String, &'static str>,
}

impl Checker<'_> {
    pub(crate) fn at(&mut self, field: &str, message: impl Into<String>) {
        self.problems.push(self.map.problem(field, message));
    }

    pub(crate) fn at_key(&mut self, field: &str, message: impl Into<String>) {
        self.problems.push(self.map.key_problem(field, message));
    }

    pub(crate) fn parse_error(&mut self, field: &str, e: &ParseError) {
        if matches!(&e.kind, ParseErrorKind::UnknownName { name, .. } if self.unavailable.contains(name)) {
            return;
        }
        let message = match &e.kind {
            ParseErrorKind::UnknownName { name, .. } if self.vectors.contains_key(name) => {
                let what = self.vectors[name];
                let parts = if what == "frame" {
                    format!("its axes are `{name}.x`, `{name}.y`, `{name}.z` in vector expressions")
                } else {
                    format!(
                        "use a component (`{name}_x`, `{name}_y`, `{name}_z`), or name a scalar of it in `[vectors]` \
                         (`h = \"norm({name})\"`)"
                    )
                };
                format!("`{name}` is a {what}, and a number (a scalar) is expected here: {parts}")
            }
            _ => e.to_string(),
        };
        self.problems.push(Problem {
            field: field.to_string(),
            position: self.map.inside(field, e.span.start).or_else(|| self.map.value(field)),
            message,
        });
    }

    /// Parses an expression; a problem and `None` on error.
    pub(crate) fn expr(&mut self, g: &mut ExprGraph, field: &str, text: &str) -> Option<ExprId> {
        match g.parse_with(text, ParseOptions::default()) {
            Ok(e) => Some(e),
            Err(e) => {
                self.parse_error(field, &e);
                None
            }
        }
    }

    /// Parses an expression that may not contain velocities (potential, positions).
    pub(crate) fn position_expr(&mut self, g: &mut ExprGraph, field: &str, text: &str, what: &str) -> Option<ExprId> {
        let e = self.expr(g, field, text)?;
        let velocities: Vec<String> = g
            .free_symbols(e)
            .into_iter()
            .filter(|&s| matches!(g.symbol(s).kind, SymbolKind::Velocity(_)))
            .map(|s| g.display_symbol(s))
            .collect();
        if velocities.is_empty() {
            Some(e)
        } else {
            self.at(
                field,
                format!("{what} may depend on coordinates and t only, not on `{}`", velocities.join("`, `")),
            );
            None
        }
    }
}

/// What to derive beyond `M q̈ = F` and the constraints: Hamel's split (for `hamel`,
/// `voronets`' printed equations and the E-vector) and the vakonomic equations. For
/// large models they are most of the work, so each
/// command and the page ask only for what they show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Needs {
    /// Hamel's split, with `Ψ`, `G`, `H` and the E-vector.
    pub hamel: bool,
    /// The vakonomic equations.
    pub vakonomic: bool,
}

impl Needs {
    /// Everything.
    pub const ALL: Needs = Needs { hamel: true, vakonomic: true };
    /// `M q̈ = F` and the constraints only.
    pub const BASE: Needs = Needs { hamel: false, vakonomic: false };

    /// What running or printing `methods` needs, with the E-vector when `e_vector`.
    pub fn for_methods(methods: &[crate::scenario::Method], e_vector: bool) -> Needs {
        use crate::scenario::Method;
        Needs {
            hamel: e_vector || methods.iter().any(|m| matches!(m, Method::Hamel | Method::Voronets)),
            vakonomic: methods.contains(&Method::Vakonomic),
        }
    }
}

impl Model {
    /// Builds and validates a model with everything derived ([`Needs::ALL`]),
    /// reporting every problem found.
    pub fn build(scenario: &Scenario, map: &SourceMap) -> Result<Model, Problems> {
        Model::build_for(scenario, map, Needs::ALL)
    }

    /// Builds and validates a model, deriving Hamel's split and the vakonomic
    /// equations only as `needs` says (the others are `Err(NotDerived)`).
    pub fn build_for(scenario: &Scenario, map: &SourceMap, needs: Needs) -> Result<Model, Problems> {
        let s = scenario;
        let vectors = (s.points.keys().map(|p| (p.clone(), "point")))
            .chain([
                (String::from(super::bodies::ORIGIN), "point"),
                (String::from(super::bodies::INERTIAL_FRAME), "frame"),
            ])
            .chain(s.vectors.keys().map(|v| (v.clone(), "vector")))
            .chain(s.frames.keys().map(|f| (f.clone(), "frame")))
            .collect();
        let mut c = Checker { map, problems: Vec::new(), unavailable: Default::default(), vectors };
        if s.format != FORMAT {
            let found = if s.format.is_empty() { "nothing".to_string() } else { format!("`{}`", s.format) };
            c.at("format", format!("expected `{FORMAT}`, found {found}"));
        }
        if s.title.trim().is_empty() {
            c.at("title", "a scenario needs a title");
        }
        if s.coordinates.is_empty() {
            c.at("coordinates", "a scenario needs at least one coordinate");
        }
        use crate::limits::{MAX_CONSTRAINTS, MAX_COORDINATES, MAX_DEFINITIONS, MAX_PARTICLES, MAX_SERIES};
        let mut too_large = false;
        for (field, count, limit) in [
            ("coordinates", s.coordinates.len(), MAX_COORDINATES),
            ("constraints", s.constraint_count(), MAX_CONSTRAINTS),
            ("particles", s.particles.len(), MAX_PARTICLES),
            ("definitions", s.definitions.len(), MAX_DEFINITIONS),
            ("view.series", s.view.series.len(), MAX_SERIES),
        ] {
            if count > limit {
                let noun = field.rsplit('.').next().unwrap_or(field);
                c.at(field, format!("{count} {noun}; the lab supports at most {limit}"));
                too_large = true;
            }
        }
        if too_large {
            // Everything below scales with these counts: stop before it.
            return Err(Problems(c.problems));
        }
        let mut g = ExprGraph::new();
        let before_names = c.problems.len();
        for (i, q) in s.coordinates.iter().enumerate() {
            if let Err(e) = g.declare_coordinate(q) {
                c.at(&format!("coordinates[{i}]"), e.to_string());
            }
        }
        let mut parameters = Vec::new();
        for (name, &value) in &s.parameters {
            let field = format!("parameters.{name}");
            match g.declare_parameter(name) {
                Ok(symbol) => parameters.push(Parameter { name: name.clone(), symbol, value }),
                Err(e) => c.at_key(&field, e.to_string()),
            }
            if !value.is_finite() {
                c.at(&field, "the value must be a finite number");
            }
            if let Some(range) = s.parameters.range(name) {
                check_parameter_range(&mut c, &field, value, range);
            }
        }
        check_units(&mut c, s);
        check_compare(&mut c, s);
        let definitions: Vec<(&str, &str)> = s.definitions.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
        if let Err(errors) = g.define_all(&definitions) {
            for e in errors {
                match &e {
                    DefinitionError::Name(NameError::Invalid(n) | NameError::Reserved(n) | NameError::Duplicate(n)) => {
                        c.at_key(&format!("definitions.{n}"), e.to_string())
                    }
                    DefinitionError::Parse { name, error } => c.parse_error(&format!("definitions.{name}"), error),
                    DefinitionError::Cycle(_) | DefinitionError::TooDeep { .. } => c.at("definitions", e.to_string()),
                }
            }
        }
        if c.problems.len() > before_names {
            // Names are broken: every expression would report spurious unknown names.
            return Err(Problems(c.problems));
        }
        let n = g.coordinate_count();
        // Frames, points, bodies and rolling first: their named point components
        // may appear in every expression below.
        let additions = super::bodies::build(&mut c, &mut g, s);

        let mut kinetic = s.kinetic.as_deref().and_then(|t| c.expr(&mut g, "kinetic", t));
        let mut particles = Vec::new();
        for (k, p) in s.particles.iter().enumerate() {
            let field = format!("particles[{k}]");
            let mass = c.expr(&mut g, &format!("{field}.mass"), &p.mass);
            if !(2..=3).contains(&p.position.len()) {
                c.at(&format!("{field}.position"), format!("expected 2 or 3 expressions, found {}", p.position.len()));
            }
            let position: Vec<Option<ExprId>> = p
                .position
                .iter()
                .enumerate()
                .map(|(i, r)| c.position_expr(&mut g, &format!("{field}.position[{i}]"), r, "a position"))
                .collect();
            let ejecta = p.ejecta_velocity.as_ref().map(|u| {
                if u.len() != p.position.len() {
                    c.at(
                        &format!("{field}.ejecta_velocity"),
                        format!("expected {} expressions, like `position`", p.position.len()),
                    );
                }
                u.iter()
                    .enumerate()
                    .map(|(i, e)| c.expr(&mut g, &format!("{field}.ejecta_velocity[{i}]"), e))
                    .collect::<Vec<_>>()
            });
            if let (Some(mass), Some(position)) = (mass, position.into_iter().collect::<Option<Vec<_>>>()) {
                let ejecta_velocity = ejecta.and_then(|u| u.into_iter().collect::<Option<Vec<_>>>());
                particles.push(ParticleTerms { mass, position, ejecta_velocity });
            }
        }
        if s.kinetic.is_none() && s.particles.is_empty() && s.bodies.is_empty() {
            c.at("kinetic", "a scenario needs `kinetic`, `particles` or `bodies` (they add)");
        }
        if let Some(t) = additions.kinetic {
            kinetic = Some(match kinetic {
                Some(k) => g.add2(k, t),
                None => t,
            });
        }
        let potential = match &s.potential {
            Some(v) => c.position_expr(&mut g, "potential", v, "the potential"),
            None => Some(g.zero()),
        };
        let potential = match (potential, additions.potential) {
            (Some(v), Some(w)) => Some(g.add2(v, w)),
            (v, _) => v,
        };
        let mut forces = alloc::vec![g.zero(); n];
        for (name, text) in &s.forces {
            let field = format!("forces.{name}");
            match s.coordinates.iter().position(|q| q == name) {
                Some(i) => forces[i] = c.expr(&mut g, &field, text).unwrap_or(forces[i]),
                None => {
                    let hint = did_you_mean(name, s.coordinates.iter().map(String::as_str));
                    c.at_key(&field, format!("`{name}` is not a coordinate{hint}"));
                }
            }
        }
        for (f, load) in forces.iter_mut().zip(&additions.forces) {
            *f = g.add2(*f, *load);
        }
        let mut constraints = Vec::new();
        for (j, spec) in s.constraints.iter().enumerate() {
            let field = format!("constraints[{j}].expr");
            let Some(e) = c.expr(&mut g, &field, &spec.expr) else { continue };
            match Constraint::derive(&mut g, s.constraint_name(j), e) {
                Some(constraint) => constraints.push(constraint),
                None => c.at(&field, "the constraint depends on neither coordinates nor velocities"),
            }
        }
        for (name, field, f) in additions.constraints {
            // Expanded, so that what cancels does (`x' − r φ' cos ψ`, not the
            // velocity of the centre minus ω × r written out), unless large.
            let f = g.expand_within(f, super::constraint::EXPAND_BUDGET);
            match Constraint::derive(&mut g, name, f) {
                Some(constraint) => constraints.push(constraint),
                None => c.at(&field, "this contact's velocity depends on neither coordinates nor velocities"),
            }
        }
        let mut view = Vec::new();
        for (list, exprs) in [("trajectory", &s.view.trajectory), ("series", &s.view.series)] {
            for (i, text) in exprs.iter().enumerate() {
                if let Some(e) = c.expr(&mut g, &format!("view.{list}[{i}]"), text) {
                    view.push(e);
                }
            }
        }
        let scene = super::scene::build(&mut c, &mut g, s, additions.drawings, &additions.frames);
        if !s.view.trajectory.is_empty() && s.view.trajectory.len() != 2 {
            c.at("view.trajectory", format!("expected two expressions, found {}", s.view.trajectory.len()));
        }
        check_initial(&mut c, s, &g, &constraints);
        check_options(&mut c, s, n);
        check_stability(&mut c, s);

        let (Some(potential), true) = (potential, c.problems.is_empty()) else {
            return Err(Problems(c.problems));
        };
        // Particles: their kinetic energy joins T, their reactive terms join Q.
        let mut all_forces = forces.clone();
        for p in &particles {
            let derived = p.kinetic_energy(&mut g).and_then(|tp| Ok((tp, p.reactive_forces(&mut g)?)));
            match derived {
                Ok((tp, reactive)) => {
                    kinetic = Some(match kinetic {
                        Some(t) => g.add2(t, tp),
                        None => tp,
                    });
                    for (f, k) in all_forces.iter_mut().zip(reactive) {
                        *f = g.add2(*f, k);
                    }
                }
                Err(e) => c.at("particles", e.to_string()),
            }
        }
        let Some(kinetic) = kinetic else { return Err(Problems(c.problems)) };
        let equations = match EquationsOfMotion::derive(&mut g, kinetic, potential, &all_forces) {
            Ok(eq) => eq,
            Err(e) => {
                c.at("kinetic", e.to_string());
                return Err(Problems(c.problems));
            }
        };
        let mut model = Model {
            graph: g,
            scenario: s.clone(),
            parameters,
            kinetic,
            potential,
            forces,
            generalized_forces: all_forces,
            particles,
            constraints,
            equations,
            view,
            scene,
            hamel: Err(SplitError::NotDerived),
            hamel_choice: None,
            vakonomic: Err(VakonomicError::NotDerived),
            hamel_graph: None,
            vakonomic_graph: None,
        };
        if needs.hamel {
            let (split, graph) = model.derive_hamel();
            model.hamel = split;
            model.hamel_graph = graph;
        }
        if needs.vakonomic {
            let mut g = model.graph.clone();
            model.vakonomic = VakonomicEquations::derive(&model, &mut g);
            model.vakonomic_graph = Some(g);
        }
        if let (Err(e), Some(h)) = (&model.hamel, &s.hamel) {
            if !h.dependent.is_empty() && model.constraints_are_linear() && *e != SplitError::NotDerived {
                c.at("hamel.dependent", format!("{e} at the initial state"));
                return Err(Problems(c.problems));
            }
        }
        Ok(model)
    }

    /// The value of every symbol at the scenario's initial positions and time (velocities
    /// 0): where a split's `A₁` is checked.
    pub fn initial_reference(&self) -> impl Fn(SymbolId) -> f64 + 'static {
        let values: Vec<f64> = self
            .graph
            .symbols()
            .map(|(_, sym)| match sym.kind {
                SymbolKind::Time => self.scenario.initial.t,
                SymbolKind::Coordinate(i) => {
                    self.scenario.initial.q.get(&self.scenario.coordinates[i]).copied().unwrap_or(0.0)
                }
                SymbolKind::Parameter(i) => self.parameters[i].value,
                _ => 0.0,
            })
            .collect();
        move |sym: SymbolId| values.get(sym.index()).copied().unwrap_or(0.0)
    }

    /// Hamel's dependent coordinates (`y`, `x, y`), where the split was derived: the
    /// words for where it turns singular.
    pub fn hamel_dependent_names(&self) -> Option<String> {
        let split = self.hamel.as_ref().ok()?;
        Some(split.dependent.iter().map(|&i| self.scenario.coordinates[i].as_str()).collect::<Vec<_>>().join(", "))
    }

    /// Where some constraints are combinations of the others at `reference` (the
    /// initial state): `rank 3 of 4 constraints; `b` repeats the others`, else `None`.
    /// Only constraints linear in the velocities are judged (a nonlinear one's
    /// row at rest says nothing of its rank in motion).
    pub fn redundancy(&self, reference: &dyn Fn(SymbolId) -> f64) -> Option<String> {
        let m = self.constraints.len();
        let rows = self.independent_constraints(reference);
        if rows.len() == m {
            return None;
        }
        let repeated: Vec<String> =
            (0..m).filter(|j| !rows.contains(j)).map(|j| format!("`{}`", self.constraints[j].name)).collect();
        let verb = if repeated.len() == 1 { "is a combination" } else { "are combinations" };
        Some(format!("rank {} of {m} constraints; {} {verb} of the others", rows.len(), repeated.join(", ")))
    }

    /// The constraints that Hamel's split and Voronets' equations are built from: a
    /// largest independent set at `reference` (the initial state), in order — all of
    /// them unless some are combinations of the others. Constraints nonlinear in the
    /// velocities are all kept (their rows at rest say nothing of their rank).
    pub fn independent_constraints(&self, reference: &dyn Fn(SymbolId) -> f64) -> Vec<usize> {
        let (m, n) = (self.constraints.len(), self.coordinate_count());
        if !self.constraints_are_linear() {
            return (0..m).collect();
        }
        let a =
            nalgebra::DMatrix::from_fn(m, n, |i, j| self.graph.evaluate(self.constraints[i].jacobian[j], reference));
        super::hamel::independent_rows(&a)
    }

    /// Where Hamel's split is built on `A₁ᵀA` (`combined`: some constraints are
    /// combinations of the others, [`HamelSplit::combined`]), how: for `check` and
    /// the page's legend; `None` where it takes the constraints as they are.
    pub fn split_basis_note(&self, combined: bool) -> Option<String> {
        if !combined {
            return None;
        }
        let redundancy = self.redundancy(&self.initial_reference())?;
        Some(format!("built on A₁ᵀA, the dependent columns' combinations of every row ({redundancy})"))
    }

    /// Hamel's split as far as it can be known without deriving its terms (`T*`, `Ψ`,
    /// `G`, `H`, `E`, most of the work for a large model): the dependent coordinates
    /// at the initial state, or why there is no split — the checks
    /// [`HamelSplit::derive`] makes first, and a regular `A₁` at the initial state
    /// (`choose_dependent`). What `nhlab check` reports when it derives nothing.
    pub fn split_without_terms(&self) -> Result<Vec<usize>, SplitError> {
        if !self.constraints_are_linear() {
            return Err(SplitError::Nonlinear);
        }
        let reference = self.initial_reference();
        let g = &self.graph;
        let accelerations = self
            .generalized_forces
            .iter()
            .any(|&f| g.free_symbols(f).iter().any(|&s| matches!(g.symbol(s).kind, SymbolKind::Acceleration(_))));
        if accelerations {
            return Err(SplitError::AccelerationDependentForces);
        }
        // The lab's choice is regular at the initial state by construction (a split
        // the scenario gives is checked by deriving it).
        choose_dependent(self, &reference).ok_or_else(|| SplitError::Singular("(any)".into()))
    }

    /// Derives Hamel's split again with the given dependent coordinates (a split
    /// chosen along the motion, `simulation::split_choice`), with `note` saying how
    /// it was chosen. The model's compiled form must be built again after this.
    pub fn rederive_hamel(&mut self, dependent: &[usize], note: String) {
        let reference = self.initial_reference();
        let mut g = self.graph.clone();
        self.hamel = HamelSplit::derive(self, &mut g, dependent, &reference);
        self.hamel_graph = Some(g);
        self.hamel_choice = Some(note);
    }

    /// Hamel's split, derived in a copy of the graph (returned with it).
    fn derive_hamel(&self) -> (Result<HamelSplit, SplitError>, Option<ExprGraph>) {
        if !self.constraints_are_linear() {
            return (Err(SplitError::Nonlinear), None);
        }
        let reference = self.initial_reference();
        let Some(dependent) = choose_dependent(self, &reference) else {
            return (Err(SplitError::Singular("(any)".into())), None);
        };
        let mut g = self.graph.clone();
        let split = HamelSplit::derive(self, &mut g, &dependent, &reference);
        (split, Some(g))
    }

    /// The graph in which `method`'s expressions live: Hamel's split's for `hamel`
    /// and `voronets`, the vakonomic equations' for `vakonomic`, else `graph`.
    pub fn graph_for(&self, method: crate::scenario::Method) -> &ExprGraph {
        use crate::scenario::Method;
        let own = match method {
            Method::Hamel | Method::Voronets => self.hamel_graph.as_ref(),
            Method::Vakonomic => self.vakonomic_graph.as_ref(),
            _ => None,
        };
        own.unwrap_or(&self.graph)
    }

    /// The inputs of a program evaluated along a run — `[t, q…, v…, parameters…]`
    /// (the view, the scene); [`fill_state_inputs`] puts a state's numbers there.
    pub fn state_inputs(&self) -> Vec<crate::expr::SymbolId> {
        let g = &self.graph;
        let n = self.coordinate_count();
        let mut inputs = alloc::vec![g.time()];
        inputs.extend((0..n).map(|i| g.coordinate(i)[0]));
        inputs.extend((0..n).map(|i| g.coordinate(i)[1]));
        inputs.extend(self.parameters.iter().map(|p| p.symbol));
        inputs
    }

    /// Number of coordinates.
    pub fn coordinate_count(&self) -> usize {
        self.graph.coordinate_count()
    }

    /// Coordinate names, in order.
    pub fn coordinate_names(&self) -> &[String] {
        &self.scenario.coordinates
    }

    /// The names of the constraints nonlinear in the velocities, in scenario order.
    pub fn nonlinear_constraints(&self) -> Vec<String> {
        self.constraints
            .iter()
            .filter(|c| c.kind == ConstraintKind::NonlinearNonholonomic)
            .map(|c| c.name.clone())
            .collect()
    }

    /// Whether every constraint is linear in the velocities (holonomic ones count:
    /// they are used at velocity level).
    pub fn constraints_are_linear(&self) -> bool {
        self.constraints.iter().all(|c| c.kind != ConstraintKind::NonlinearNonholonomic)
    }
}

/// The initial values: every coordinate is given, except those a holonomic
/// constraint involves, which may be omitted to be solved from it
/// (`simulation::initial_state`).
fn check_initial(c: &mut Checker<'_>, s: &Scenario, g: &ExprGraph, constraints: &[Constraint]) {
    for (i, q) in s.coordinates.iter().enumerate() {
        let fixed = constraints.iter().any(|k| k.is_holonomic() && k.jacobian.get(i).is_some_and(|&a| !g.is_zero(a)));
        if !s.initial.q.contains_key(q) && !fixed {
            c.at("initial.q", format!("the initial value of coordinate `{q}` is missing"));
        }
    }
    for (which, values) in [("q", &s.initial.q), ("v", &s.initial.v)] {
        for (name, value) in values {
            let field = format!("initial.{which}.{name}");
            if !s.coordinates.contains(name) {
                let hint = did_you_mean(name, s.coordinates.iter().map(String::as_str));
                c.at_key(&field, format!("`{name}` is not a coordinate{hint}"));
            } else if !value.is_finite() {
                c.at(&field, "the value must be a finite number");
            }
        }
    }
    if !s.initial.t.is_finite() {
        c.at("initial.t", "the value must be a finite number");
    }
}

/// `[stability]`: names that exist, a linearisable method, a finite sweep.
fn check_stability(c: &mut Checker<'_>, s: &Scenario) {
    let Some(st) = &s.stability else { return };
    if let Some(m) = &st.method {
        use crate::scenario::Method;
        let supported = [Method::Lagrange, Method::UdwadiaKalaba, Method::Gauss, Method::Euler, Method::Hamel];
        if !Method::from_id(m).is_some_and(|m| supported.contains(&m)) {
            c.at("stability.method", format!("`{m}`: linearisation supports lagrange, the ideal formulations that equal it (udwadia-kalaba, gauss, euler) and hamel"));
        }
    }
    let velocity = |name: &str| name.strip_suffix('\'').is_some_and(|q| s.coordinates.iter().any(|c| c == q));
    for (name, x) in &st.at {
        let field = format!("stability.at.{name}");
        if !(name == "t" || s.coordinates.contains(name) || velocity(name)) {
            c.at_key(&field, format!("`{name}` is not t, a coordinate or a velocity like x'"));
        } else if !x.is_finite() {
            c.at(&field, "the value must be a finite number");
        }
    }
    for (i, q) in st.ignorable.iter().enumerate() {
        if !s.coordinates.contains(q) {
            c.at(&format!("stability.ignorable[{i}]"), format!("`{q}` is not a coordinate"));
        }
    }
    for (i, q) in st.dependent.iter().flatten().enumerate() {
        if !s.coordinates.contains(q) {
            c.at(&format!("stability.dependent[{i}]"), format!("`{q}` is not a coordinate"));
        }
    }
    if let Some(d) = &st.dependent {
        let m = s.constraint_count();
        if d.len() != m {
            c.at(
                "stability.dependent",
                format!("expected one dependent coordinate per constraint ({m}), found {}", d.len()),
            );
        }
    }
    if let Some(sw) = &st.sweep {
        if !(s.parameters.contains_key(&sw.over) || velocity(&sw.over)) {
            c.at("stability.sweep.over", format!("`{}` is neither a parameter nor a velocity like x'", sw.over));
        }
        if let Err(e) = sw.values() {
            c.at("stability.sweep", e);
        }
    }
}

/// The smallest `run.rtol` accepted: a few hundred units of double-precision round-off.
pub const MIN_RTOL: f64 = 1e-14;

fn check_options(c: &mut Checker<'_>, s: &Scenario, _n: usize) {
    if let Some(h) = &s.hamel {
        for (i, q) in h.dependent.iter().enumerate() {
            if !s.coordinates.contains(q) {
                c.at(&format!("hamel.dependent[{i}]"), format!("`{q}` is not a coordinate"));
            }
        }
        // One per independent constraint: as many as there are constraints unless
        // some are redundant, which the split checks once the rows are known.
        let m = s.constraint_count();
        if h.dependent.len() > m {
            c.at(
                "hamel.dependent",
                format!("expected one dependent coordinate per constraint ({m}), found {}", h.dependent.len()),
            );
        }
    }
    if let Some(v) = &s.vakonomic {
        let m = s.constraint_count();
        if v.mu0.len() != m {
            c.at("vakonomic.mu0", format!("expected one multiplier per constraint ({m}), found {}", v.mu0.len()));
        }
        for (j, x) in v.mu0.iter().enumerate() {
            if !x.is_finite() {
                c.at(&format!("vakonomic.mu0[{j}]"), format!("expected a finite number, found {x}"));
            }
        }
    }
    let r = &s.run;
    if let Some(methods) = &r.methods {
        for (i, m) in methods.iter().enumerate() {
            if crate::scenario::Method::from_id(m).is_none() {
                let ids = crate::scenario::Method::ALL.map(|m| m.id());
                let hint = nearest(m, ids);
                let hint = if hint.is_empty() {
                    format!(" (one of {})", ids.join(", "))
                } else {
                    format!("; did you mean `{}`?", hint[0])
                };
                c.at(&format!("run.methods[{i}]"), format!("unknown method `{m}`{hint}"));
            }
        }
    }
    if let Some(i) = &r.integrator {
        if crate::scenario::IntegratorKind::from_id(i).is_none() {
            c.at("run.integrator", format!("unknown integrator `{i}`: use `rk4` or `dopri5`"));
        }
    }
    if let Some(st) = &r.stabilization {
        if crate::scenario::Stabilization::from_id(st).is_none() {
            c.at("run.stabilization", format!("unknown stabilization `{st}`: use `none`, `baumgarte` or `projection`"));
        }
    }
    for (field, value) in [("run.t_end", r.t_end), ("run.rtol", r.rtol), ("run.atol", r.atol), ("run.dt", r.dt)] {
        if let Some(x) = value {
            if !(x.is_finite() && x > 0.0) {
                c.at(field, format!("expected a positive number, found {x}"));
            }
        }
    }
    if let Some(rtol) = r.rtol.filter(|x| x.is_finite() && *x > 0.0) {
        if rtol < MIN_RTOL {
            c.at(
                "run.rtol",
                format!("expected at least {MIN_RTOL:e}, found {rtol:e}: no double-precision step can meet a smaller relative tolerance"),
            );
        }
    }
}

impl Model {
    /// The parameter sets of `[compare]` in name order: each set's name and the
    /// model's parameter values (in [`Model::parameters`] order) with its own in place
    /// of the scenario's.
    pub fn parameter_sets(&self) -> Vec<(String, Vec<f64>)> {
        self.scenario
            .compare
            .iter()
            .map(|(name, values)| {
                let set = self.parameters.iter().map(|p| values.get(&p.name).copied().unwrap_or(p.value)).collect();
                (name.clone(), set)
            })
            .collect()
    }
}

/// Writes `[t, q…, v…, parameters…]` into `inputs`, laid out as [`Model::state_inputs`].
pub fn fill_state_inputs(inputs: &mut [f64], t: f64, q: &[f64], v: &[f64], parameters: &[f64]) {
    let n = q.len();
    inputs[0] = t;
    inputs[1..1 + n].copy_from_slice(q);
    inputs[1 + n..1 + 2 * n].copy_from_slice(v);
    inputs[1 + 2 * n..].copy_from_slice(parameters);
}

/// Longest unit text accepted: units are labels, not prose.
const MAX_UNIT_CHARS: usize = 24;

/// A parameter's slider range: finite bounds in order, the value inside them, a
/// positive step no longer than the range, a short unit.
fn check_parameter_range(c: &mut Checker, field: &str, value: f64, range: &crate::scenario::ParameterRange) {
    for (key, x) in [("min", range.min), ("max", range.max), ("step", range.step)] {
        if x.is_some_and(|x| !x.is_finite()) {
            c.at(&format!("{field}.{key}"), "must be a finite number");
            return;
        }
    }
    if let (Some(lo), Some(hi)) = (range.min, range.max) {
        if lo >= hi {
            c.at(&format!("{field}.max"), format!("max = {hi} must be greater than min = {lo}"));
            return;
        }
        if let Some(step) = range.step.filter(|&h| h > hi - lo) {
            c.at(&format!("{field}.step"), format!("step = {step} is longer than the range {lo} … {hi}"));
        }
    }
    if range.step.is_some_and(|h| h <= 0.0) {
        c.at(&format!("{field}.step"), "the step must be positive");
    }
    if let Some(bounds) = range.excludes(value) {
        c.at(&format!("{field}.value"), format!("the value {value} is outside its range {bounds}"));
    }
    if let Some(unit) = &range.unit {
        check_unit(c, &format!("{field}.unit"), unit);
    }
}

/// Longest name of a parameter set: it labels a legend entry and a CSV cell.
const MAX_SET_NAME_CHARS: usize = 24;

/// `[compare]`: at most [`crate::scenario::MAX_COMPARE_SETS`] short-named sets of
/// parameters that exist, each value finite and inside its parameter's range.
fn check_compare(c: &mut Checker, s: &Scenario) {
    let limit = crate::scenario::MAX_COMPARE_SETS;
    if s.compare.len() > limit {
        c.at(
            "compare",
            format!("at most {limit} parameter sets (each is drawn in a colour of its own), found {}", s.compare.len()),
        );
    }
    for (name, values) in &s.compare {
        let field = format!("compare.{name}");
        if name.trim().is_empty()
            || name.chars().count() > MAX_SET_NAME_CHARS
            || name.chars().any(|ch| ch.is_control() || ch == '.')
        {
            c.at_key(&field, format!("a set's name is 1 to {MAX_SET_NAME_CHARS} characters of one line, without `.`"));
        }
        if values.is_empty() {
            c.at(&field, "give at least one parameter's value (`m = 2`)");
        }
        for (parameter, &value) in values {
            let at = format!("{field}.{parameter}");
            if !s.parameters.contains_key(parameter) {
                let hint = did_you_mean(parameter, s.parameters.keys().map(String::as_str));
                c.at_key(&at, format!("`{parameter}` is not a parameter{hint}"));
            } else if !value.is_finite() {
                c.at(&at, "the value must be a finite number");
            } else if let Some(range) = s.parameters.range(parameter) {
                if let Some(bounds) = range.excludes(value) {
                    c.at(&at, format!("{value} is outside the range of `{parameter}`, {bounds}"));
                }
            }
        }
    }
}

/// `[units]`: keys are coordinates or `t`, values short plain text.
fn check_units(c: &mut Checker, s: &Scenario) {
    for (name, unit) in &s.units {
        let field = format!("units.{name}");
        if name != "t" && !s.coordinates.contains(name) {
            let candidates = s.coordinates.iter().map(String::as_str).chain(["t"]);
            let hint = did_you_mean(name, candidates);
            c.at_key(&field, format!("`{name}` is not a coordinate or `t`{hint}"));
        }
        check_unit(c, &field, unit);
    }
}

fn check_unit(c: &mut Checker, field: &str, unit: &str) {
    if unit.chars().count() > MAX_UNIT_CHARS || unit.chars().any(char::is_control) {
        c.at(field, format!("a unit is at most {MAX_UNIT_CHARS} characters of one line"));
    }
}
