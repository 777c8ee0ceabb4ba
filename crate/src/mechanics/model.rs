//! A validated model: the scenario's expressions parsed into one graph, constraints
//! classified, equations of motion derived. Building it reports every problem at
//! once, each at its field (and line and column when the scenario came from text).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::base::{Base, Parameter};
use super::checker::{unknown_name, Checker};
use super::checks::{check_compare, check_initial, check_options, check_parameter_range, check_stability, check_units};
use super::constraint::Constraint;
use super::equations::{EquationsOfMotion, ParticleTerms};
use super::hamel::{choose_dependent, HamelSplit, SplitError};
use super::vakonomic::{VakonomicEquations, VakonomicError};
use crate::expr::{DefinitionError, ExprGraph, ExprId, NameError, SymbolId, SymbolKind};
use crate::message::{phrase, problem, Message, Part};
use crate::scenario::{Problems, Scenario, SourceMap, FORMAT};

/// A validated mechanical system: its [`Base`] (the graph, `T`, `V`, the forces, the
/// constraints, `M q̈ = F`; reached through `Deref`, as `model.constraints`) and what
/// is derived from it for some methods, the view and the scene.
#[derive(Clone, Debug)]
pub struct Model {
    /// What every derivation starts from.
    pub base: Base,
    /// The scenario it was built from.
    pub scenario: Scenario,
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
    pub hamel_choice: Option<crate::message::Message>,
    /// The vakonomic equations (in `vakonomic_graph`, with auxiliary symbols
    /// `mu1…`), or why not.
    pub vakonomic: Result<VakonomicEquations, VakonomicError>,
    /// The base's graph with Hamel's split derived in it (`None` when it was not
    /// derived): the split's expressions live here. Each of Hamel's split and the
    /// vakonomic equations is derived from the base on its own, so that neither
    /// depends on whether the other was derived: a model built for one method
    /// computes its numbers, and prints its equations, exactly as a model built
    /// with everything.
    pub hamel_graph: Option<ExprGraph>,
    /// The base's graph with the vakonomic equations derived in it (`None` when they
    /// were not).
    pub vakonomic_graph: Option<ExprGraph>,
}

impl core::ops::Deref for Model {
    type Target = Base;

    fn deref(&self) -> &Base {
        &self.base
    }
}

impl core::ops::DerefMut for Model {
    fn deref_mut(&mut self) -> &mut Base {
        &mut self.base
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
    /// `[inputs]` as arguments (parameters), their signals ignored: what
    /// `linearize --state-space` (`B = ∂f/∂u`) and `export` (`f(t, y, u, p)`) need.
    /// Else an input with a `signal` is that function of time.
    pub held_inputs: bool,
}

impl Needs {
    /// Everything.
    pub const ALL: Needs = Needs { hamel: true, vakonomic: true, held_inputs: false };
    /// `M q̈ = F` and the constraints only.
    pub const BASE: Needs = Needs { hamel: false, vakonomic: false, held_inputs: false };

    /// What running or printing `methods` needs, with the E-vector when `e_vector`.
    pub fn for_methods(methods: &[crate::scenario::Method], e_vector: bool) -> Needs {
        use crate::scenario::Method;
        Needs {
            hamel: e_vector || methods.iter().any(|m| matches!(m, Method::Hamel | Method::Voronets)),
            vakonomic: methods.contains(&Method::Vakonomic),
            held_inputs: false,
        }
    }

    /// The same, with `[inputs]` taken as arguments (see `held_inputs`).
    pub fn holding_inputs(self) -> Needs {
        Needs { held_inputs: true, ..self }
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
    ///
    /// In steps, each adding its problems: the scenario's size, then its names (a
    /// broken name would make every expression report unknown names, so the build
    /// stops there), the bodies, the expressions of `T`, `V`, the forces, the
    /// constraints and the view, the checks that need no derivation; then, with no
    /// problem found, the particles' terms, `M q̈ = F` and what `needs` asks for.
    pub fn build_for(scenario: &Scenario, map: &SourceMap, needs: Needs) -> Result<Model, Problems> {
        let s = scenario;
        let mut c = Checker::new(map, super::bodies::vector_names(s));
        if !check_header(&mut c, s) {
            // Everything below scales with these counts: stop before it.
            return Err(Problems(c.problems));
        }
        let mut g = ExprGraph::new();
        let before_names = c.problems.len();
        let (parameters, inputs) = declare_names(&mut c, &mut g, s, needs.held_inputs);
        if c.problems.len() > before_names {
            return Err(Problems(c.problems));
        }
        // Frames, points, bodies and rolling first: their named point components
        // may appear in every expression below.
        let additions = super::bodies::build(&mut c, &mut g, s);
        let kinetic = s.kinetic.as_deref().and_then(|t| c.expr(&mut g, "kinetic", t));
        let particles = particle_terms(&mut c, &mut g, s);
        let (kinetic, potential) = energies(&mut c, &mut g, s, kinetic, (additions.kinetic, additions.potential));
        let forces = given_forces(&mut c, &mut g, s, &additions.forces);
        let constraints = constraints(&mut c, &mut g, s, additions.constraints);
        let view = view(&mut c, &mut g, s);
        let scene = super::scene::build(&mut c, &mut g, s, additions.drawings, &additions.frames);
        if !s.view.trajectory.is_empty() && s.view.trajectory.len() != 2 {
            c.said("view.trajectory", problem::trajectory_count(s.view.trajectory.len()));
        }
        check_initial(&mut c, s, &g, &constraints);
        check_options(&mut c, s, g.coordinate_count());
        check_stability(&mut c, s);
        let (Some(potential), true) = (potential, c.problems.is_empty()) else {
            return Err(Problems(c.problems));
        };
        let Some((kinetic, generalized_forces)) = with_particles(&mut c, &mut g, kinetic, &forces, &particles) else {
            return Err(Problems(c.problems));
        };
        let equations = match EquationsOfMotion::derive(&mut g, kinetic, potential, &generalized_forces) {
            Ok(eq) => eq,
            Err(e) => {
                c.said("kinetic", e.message());
                return Err(Problems(c.problems));
            }
        };
        let base = Base {
            graph: g,
            coordinates: s.coordinates.clone(),
            parameters,
            inputs,
            kinetic,
            potential,
            forces,
            generalized_forces,
            particles,
            constraints,
            equations,
            sources: additions.sources,
            contacts: additions.contacts,
        };
        let mut model = Model {
            base,
            scenario: s.clone(),
            view,
            scene,
            hamel: Err(SplitError::NotDerived),
            hamel_choice: None,
            vakonomic: Err(VakonomicError::NotDerived),
            hamel_graph: None,
            vakonomic_graph: None,
        };
        model.derive_needed(needs);
        if let (Err(e), Some(h)) = (&model.hamel, &s.hamel) {
            if !h.dependent.is_empty() && model.constraints_are_linear() && *e != SplitError::NotDerived {
                c.said("hamel.dependent", problem::at_initial_state(Part(e.message())));
                return Err(Problems(c.problems));
            }
        }
        Ok(model)
    }

    /// Derives Hamel's split and the vakonomic equations as `needs` asks, each in a
    /// copy of the base's graph.
    fn derive_needed(&mut self, needs: Needs) {
        if needs.hamel {
            let (split, graph) = self.derive_hamel();
            self.hamel = split;
            self.hamel_graph = graph;
        }
        if needs.vakonomic {
            let mut g = self.graph.clone();
            self.vakonomic = VakonomicEquations::derive(&self.base, &mut g);
            self.vakonomic_graph = Some(g);
        }
    }

    /// The dependent coordinates the scenario's `[hamel] dependent` names (empty when
    /// it leaves them to the lab).
    fn given_dependent(&self) -> &[String] {
        self.scenario.hamel.as_ref().map_or(&[], |h| &h.dependent[..])
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
        let (rank, repeated) = self.redundant_rows(reference)?;
        let verb = if repeated.len() == 1 { "is a combination" } else { "are combinations" };
        Some(format!(
            "rank {rank} of {} constraints; {} {verb} of the others",
            self.constraints.len(),
            repeated.join(", ")
        ))
    }

    /// The rank of the constraints at `reference` and the names (in backticks) of
    /// those that combine the others; `None` where they are independent.
    fn redundant_rows(&self, reference: &dyn Fn(SymbolId) -> f64) -> Option<(usize, Vec<String>)> {
        let m = self.constraints.len();
        let rows = self.independent_constraints(reference);
        if rows.len() == m {
            return None;
        }
        let repeated =
            (0..m).filter(|j| !rows.contains(j)).map(|j| format!("`{}`", self.constraints[j].name)).collect();
        Some((rows.len(), repeated))
    }

    /// Where Hamel's split is built on `A₁ᵀA` (`combined`: some constraints are
    /// combinations of the others, [`HamelSplit::combined`]), how: for `check` and
    /// the page's legend; `None` where it takes the constraints as they are.
    pub fn split_basis_note(&self, combined: bool) -> Option<Message> {
        if !combined {
            return None;
        }
        let (rank, repeated) = self.redundant_rows(&self.initial_reference())?;
        let (id, verb) = if repeated.len() == 1 {
            ("split.combined.one", "is a combination")
        } else {
            ("split.combined.other", "are combinations")
        };
        let (count, repeated) = (self.constraints.len(), repeated.join(", "));
        let english = format!(
            "built on A₁ᵀA, the dependent columns' combinations of every row (rank {rank} of {count} constraints; {repeated} {verb} of the others)"
        );
        Some(Message::new(id, english).arg("rank", rank).arg("count", count).arg("repeated", repeated))
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
        choose_dependent(self, self.given_dependent(), &reference).ok_or_else(|| SplitError::Singular("(any)".into()))
    }

    /// Derives Hamel's split again with the given dependent coordinates (a split
    /// chosen along the motion, `simulation::split_choice`), with `note` saying how
    /// it was chosen. The model's compiled form must be built again after this.
    pub fn rederive_hamel(&mut self, dependent: &[usize], note: crate::message::Message) {
        let reference = self.initial_reference();
        let mut g = self.graph.clone();
        self.hamel = HamelSplit::derive(&self.base, &mut g, dependent, &reference);
        self.hamel_graph = Some(g);
        self.hamel_choice = Some(note);
    }

    /// Hamel's split, derived in a copy of the graph (returned with it).
    fn derive_hamel(&self) -> (Result<HamelSplit, SplitError>, Option<ExprGraph>) {
        if !self.constraints_are_linear() {
            return (Err(SplitError::Nonlinear), None);
        }
        let reference = self.initial_reference();
        let Some(dependent) = choose_dependent(self, self.given_dependent(), &reference) else {
            return (Err(SplitError::Singular("(any)".into())), None);
        };
        let mut g = self.graph.clone();
        let split = HamelSplit::derive(&self.base, &mut g, &dependent, &reference);
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
}

/// The format, a title, at least one coordinate, and sizes within the lab's limits;
/// false when a size is over its limit.
fn check_header(c: &mut Checker<'_>, s: &Scenario) -> bool {
    if s.format != FORMAT {
        let found = if s.format.is_empty() { phrase::nothing() } else { phrase::verbatim(format!("`{}`", s.format)) };
        c.said("format", problem::format(FORMAT, Part(found)));
    }
    if s.title.trim().is_empty() {
        c.said("title", problem::title_missing());
    }
    if s.coordinates.is_empty() {
        c.said("coordinates", problem::coordinates_missing());
    }
    use crate::limits::{MAX_CONSTRAINTS, MAX_COORDINATES, MAX_DEFINITIONS, MAX_INPUTS, MAX_PARTICLES, MAX_SERIES};
    let mut within = true;
    for (field, count, limit) in [
        ("coordinates", s.coordinates.len(), MAX_COORDINATES),
        ("constraints", s.constraint_count(), MAX_CONSTRAINTS),
        ("particles", s.particles.len(), MAX_PARTICLES),
        ("definitions", s.definitions.len(), MAX_DEFINITIONS),
        ("inputs", s.inputs.len(), MAX_INPUTS),
        ("view.series", s.view.series.len(), MAX_SERIES),
    ] {
        if count > limit {
            let noun = field.rsplit('.').next().unwrap_or(field);
            c.said(field, problem::too_many(count, noun, limit));
            within = false;
        }
    }
    within
}

/// The coordinates, the parameters (with their values and ranges), the inputs,
/// `[units]`, `[compare]` and the definitions, declared in `g`: the parameters and,
/// after them, the inputs taken as arguments (all when `held_inputs`, else those
/// without a signal), with those inputs' places among the parameters. An input
/// driven by its signal is a definition of that signal.
fn declare_names(
    c: &mut Checker<'_>,
    g: &mut ExprGraph,
    s: &Scenario,
    held_inputs: bool,
) -> (Vec<Parameter>, Vec<usize>) {
    for (i, q) in s.coordinates.iter().enumerate() {
        if let Err(e) = g.declare_coordinate(q) {
            c.said(&format!("coordinates[{i}]"), e.message());
        }
    }
    let mut parameters = Vec::new();
    for (name, &value) in &s.parameters {
        let field = format!("parameters.{name}");
        match g.declare_parameter(name) {
            Ok(symbol) => parameters.push(Parameter { name: name.clone(), symbol, value }),
            Err(e) => c.said_key(&field, e.message()),
        }
        if !value.is_finite() {
            c.said(&field, problem::not_finite());
        }
        if let Some(range) = s.parameters.range(name) {
            check_parameter_range(c, &field, value, range);
        }
    }
    let mut inputs = Vec::new();
    let mut signals: Vec<(String, String)> = Vec::new();
    for (name, input) in &s.inputs {
        let field = format!("inputs.{name}");
        if s.parameters.contains_key(name) {
            c.said_key(&field, problem::input_is_parameter(name));
            continue;
        }
        if s.definitions.contains_key(name) {
            c.said_key(&field, problem::input_is_definition(name));
            continue;
        }
        if !input.value.is_finite() {
            c.said(&format!("{field}.value"), problem::not_finite());
        }
        let range = crate::scenario::ParameterRange {
            min: input.min,
            max: input.max,
            step: input.step,
            unit: input.unit.clone(),
        };
        check_parameter_range(c, &field, input.value, &range);
        match (&input.signal, held_inputs) {
            (Some(signal), false) => match signal.expression() {
                Ok(text) => signals.push((name.clone(), text)),
                Err((place, message)) => c.said(&format!("{field}.{place}"), message),
            },
            _ => match g.declare_parameter(name) {
                Ok(symbol) => {
                    inputs.push(parameters.len());
                    parameters.push(Parameter { name: name.clone(), symbol, value: input.value });
                }
                Err(e) => c.said_key(&field, e.message()),
            },
        }
    }
    check_units(c, s);
    check_compare(c, s);
    let definitions: Vec<(&str, &str)> = s
        .definitions
        .iter()
        .chain(signals.iter().map(|(k, v)| (k, v)))
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    // Where a definition's problem is: an input's signal, or `[definitions]`.
    let place = |name: &str| {
        if signals.iter().any(|(k, _)| k == name) {
            format!("inputs.{name}.signal")
        } else {
            format!("definitions.{name}")
        }
    };
    if let Err(errors) = g.define_all(&definitions) {
        for e in errors {
            match &e {
                DefinitionError::Name(NameError::Invalid(n) | NameError::Reserved(n) | NameError::Duplicate(n)) => {
                    if signals.iter().any(|(k, _)| k == n) {
                        c.said_key(&format!("inputs.{n}"), e.message())
                    } else {
                        c.said_key(&format!("definitions.{n}"), e.message())
                    }
                }
                DefinitionError::Parse { name, error } => c.parse_error(&place(name), error),
                // A cycle through an input's signal is blamed on the signal.
                DefinitionError::Cycle(names) => match names.iter().find(|n| signals.iter().any(|(k, _)| k == *n)) {
                    Some(name) => c.said(&format!("inputs.{name}.signal"), e.message()),
                    None => c.said("definitions", e.message()),
                },
                DefinitionError::TooDeep { .. } => c.said("definitions", e.message()),
            }
        }
    }
    (parameters, inputs)
}

/// The variable-mass particles: mass, position and ejecta velocity as expressions.
fn particle_terms(c: &mut Checker<'_>, g: &mut ExprGraph, s: &Scenario) -> Vec<ParticleTerms> {
    let mut particles = Vec::new();
    for (k, p) in s.particles.iter().enumerate() {
        let field = format!("particles[{k}]");
        let mass = c.expr(g, &format!("{field}.mass"), &p.mass);
        if !(2..=3).contains(&p.position.len()) {
            c.said(&format!("{field}.position"), problem::two_or_three_expressions(p.position.len()));
        }
        let position: Vec<Option<ExprId>> = p
            .position
            .iter()
            .enumerate()
            .map(|(i, r)| {
                c.position_expr(g, &format!("{field}.position[{i}]"), r, crate::message::phrase::a_position())
            })
            .collect();
        let ejecta = p.ejecta_velocity.as_ref().map(|u| {
            if u.len() != p.position.len() {
                c.said(&format!("{field}.ejecta_velocity"), problem::like_position(p.position.len()));
            }
            u.iter()
                .enumerate()
                .map(|(i, e)| c.expr(g, &format!("{field}.ejecta_velocity[{i}]"), e))
                .collect::<Vec<_>>()
        });
        if let (Some(mass), Some(position)) = (mass, position.into_iter().collect::<Option<Vec<_>>>()) {
            let ejecta_velocity = ejecta.and_then(|u| u.into_iter().collect::<Option<Vec<_>>>());
            particles.push(ParticleTerms { mass, position, ejecta_velocity });
        }
    }
    particles
}

/// `T` as written (`kinetic`) plus the bodies' share (`None` when neither gives
/// one: the particles may still), and `V` as written plus the bodies' (`None` when
/// it does not parse).
fn energies(
    c: &mut Checker<'_>,
    g: &mut ExprGraph,
    s: &Scenario,
    mut kinetic: Option<ExprId>,
    (bodies_kinetic, bodies_potential): (Option<ExprId>, Option<ExprId>),
) -> (Option<ExprId>, Option<ExprId>) {
    if s.kinetic.is_none() && s.particles.is_empty() && s.bodies.is_empty() {
        c.said("kinetic", problem::kinetic_missing());
    }
    if let Some(t) = bodies_kinetic {
        kinetic = Some(match kinetic {
            Some(k) => g.add2(k, t),
            None => t,
        });
    }
    let potential = match &s.potential {
        Some(v) => c.position_expr(g, "potential", v, crate::message::phrase::the_potential()),
        None => Some(g.zero()),
    };
    let potential = match (potential, bodies_potential) {
        (Some(v), Some(w)) => Some(g.add2(v, w)),
        (v, _) => v,
    };
    (kinetic, potential)
}

/// `Q_i` as written, by coordinate, plus the bodies' loads.
fn given_forces(c: &mut Checker<'_>, g: &mut ExprGraph, s: &Scenario, loads: &[ExprId]) -> Vec<ExprId> {
    let mut forces = alloc::vec![g.zero(); g.coordinate_count()];
    for (name, text) in &s.forces {
        let field = format!("forces.{name}");
        match s.coordinates.iter().position(|q| q == name) {
            Some(i) => forces[i] = c.expr(g, &field, text).unwrap_or(forces[i]),
            None => {
                c.said_key(
                    &field,
                    unknown_name(name, phrase::a_coordinate(), s.coordinates.iter().map(String::as_str)),
                );
            }
        }
    }
    for (f, load) in forces.iter_mut().zip(loads) {
        *f = g.add2(*f, *load);
    }
    forces
}

/// The constraints as written, then the rolling contacts', classified.
fn constraints(
    c: &mut Checker<'_>,
    g: &mut ExprGraph,
    s: &Scenario,
    contacts: Vec<(String, String, ExprId)>,
) -> Vec<Constraint> {
    let mut constraints = Vec::new();
    for (j, spec) in s.constraints.iter().enumerate() {
        let field = format!("constraints[{j}].expr");
        let Some(e) = c.expr(g, &field, &spec.expr) else { continue };
        match Constraint::derive(g, s.constraint_name(j), e) {
            Some(constraint) => constraints.push(Constraint { origin: format!("constraints[{j}]"), ..constraint }),
            None => c.said(&field, problem::constraint_constant()),
        }
    }
    // Names key the reactions, the table's columns and the contact forces: each
    // once, refused at its second place (issue 57: `eval` kept one of two, the CSV
    // had two columns of one name).
    let mut named: Vec<(String, String)> = Vec::new();
    let mut refused: Vec<String> = Vec::new();
    let written =
        s.constraints.iter().enumerate().map(|(j, _)| (s.constraint_name(j), format!("constraints[{j}].name")));
    let generated = contacts.iter().map(|(name, field, _)| (name.clone(), format!("{field}.name")));
    for (name, field) in written.chain(generated) {
        match named.iter().find(|(n, _)| *n == name) {
            // A contact's second constraint (`…: y`) is the same mistake, said once.
            Some(_) if refused.contains(&field) => {}
            Some((_, first)) => {
                let first = String::from(first.trim_end_matches(".name"));
                c.said(&field, problem::constraint_name_twice(&name, first));
                refused.push(field);
            }
            None => named.push((name, field)),
        }
    }
    for (name, field, f) in contacts {
        // Expanded, so that what cancels does (`x' − r φ' cos ψ`, not the
        // velocity of the centre minus ω × r written out), unless large.
        let f = g.expand_within(f, super::constraint::EXPAND_BUDGET);
        match Constraint::derive(g, name, f) {
            Some(constraint) => constraints.push(Constraint { origin: field.clone(), ..constraint }),
            None => c.said(&field, problem::contact_constant()),
        }
    }
    constraints
}

/// `[view]`: the trajectory's two expressions, then the series.
fn view(c: &mut Checker<'_>, g: &mut ExprGraph, s: &Scenario) -> Vec<ExprId> {
    let mut view = Vec::new();
    for (list, exprs) in [("trajectory", &s.view.trajectory), ("series", &s.view.series)] {
        for (i, text) in exprs.iter().enumerate() {
            if let Some(e) = c.expr(g, &format!("view.{list}[{i}]"), text) {
                view.push(e);
            }
        }
    }
    view
}

/// `T` and `Q` with the particles' shares: their kinetic energy joins `T`, their
/// reactive and mass-variation terms join `Q`. `None` (a problem added) without a
/// `T` at all.
fn with_particles(
    c: &mut Checker<'_>,
    g: &mut ExprGraph,
    mut kinetic: Option<ExprId>,
    forces: &[ExprId],
    particles: &[ParticleTerms],
) -> Option<(ExprId, Vec<ExprId>)> {
    let mut all_forces = forces.to_vec();
    for p in particles {
        let derived = p.kinetic_energy(g).and_then(|tp| Ok((tp, p.reactive_forces(g)?)));
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
            Err(e) => c.said("particles", e.message()),
        }
    }
    Some((kinetic?, all_forces))
}

impl Model {
    /// The parameter sets of `[compare]` in name order: each set's name and the
    /// model's parameter values (in [`Base::parameters`] order) with its own in place
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

/// Writes `[t, q…, v…, parameters…]` into `inputs`, laid out as [`Base::state_inputs`].
pub fn fill_state_inputs(inputs: &mut [f64], t: f64, q: &[f64], v: &[f64], parameters: &[f64]) {
    let n = q.len();
    inputs[0] = t;
    inputs[1..1 + n].copy_from_slice(q);
    inputs[1 + n..1 + 2 * n].copy_from_slice(v);
    inputs[1 + 2 * n..].copy_from_slice(parameters);
}
