//! A scenario's problems (besides its expressions', [`crate::expr::ParseErrorKind`]):
//! reading its text, and the checks of its fields. Each English is the checker's
//! wording, which the command line prints.

messages! {
    // Compiling the model (internal: a scenario that passed the checks should not meet these).
    /// An expression using a symbol that is not an input.
    compile_unbound(name) "problem.compile.unbound" "`{name}` is used but is not an input of the compiled function"
    /// A definition without a body.
    compile_undefined(name) "problem.compile.undefined" "the definition `{name}` has no body"

    // Reading the text.
    /// A text over the size limit.
    file_too_large(bytes, limit) "problem.file-too-large" "the scenario is {bytes} bytes; the lab reads at most {limit}"
    /// JSON nested past the reader's depth limit.
    nested_too_deep(limit) "problem.nested-too-deep"
        "values nested more than {limit} levels deep: a scenario's values are a few levels at most"
    /// A JSON object's key given twice.
    key_twice_in_object(key) "problem.key-twice.object" "`{key}` is given twice: a key may appear once in an object"
    /// `null` as an item of a JSON list.
    null_in_list() "problem.null-in-list" "a list cannot hold `null`: give a value, or leave the item out"
    /// A TOML table's key given twice.
    key_twice(key) "problem.key-twice" "`{key}` is given twice: a key may appear once in a table"
    /// A TOML table's key given twice, the key unknown.
    key_twice_unnamed() "problem.key-twice.unnamed" "a key is given twice: a key may appear once in a table"
    /// A value of the wrong type (`expected` and `found` are [`super::phrase`]s).
    expected(expected, found) "problem.expected" "expected {expected}, found {found}"
    /// A required field absent.
    missing(field) "problem.missing" "`{field}` is missing"
    /// The TOML or JSON reader's own words (a syntax error).
    reader(detail) "problem.reader" "{detail}"
    /// A value that must be a table is not (`found`: a phrase).
    expected_table(found) "problem.expected-table" "expected a table, found {found}"
    /// A key the format does not know (ignored), with a hint.
    unknown_field(key, hint) "problem.unknown-field" "unknown field `{key}` (ignored){hint}"
    /// A table the format does not know (ignored), with a hint.
    unknown_table(key, hint) "problem.unknown-table" "unknown table `{key}` (ignored){hint}"
    /// `friction` outside a `[[rolling]]` contact.
    friction_field() "problem.unknown-field.friction"
        "unknown field `friction` (ignored): a friction coefficient belongs to a `[[rolling]]` contact, which has a point and a normal to hold it by"
    /// `[friction]` outside a `[[rolling]]` contact.
    friction_table() "problem.unknown-table.friction"
        "unknown table `friction` (ignored): a friction coefficient belongs to a `[[rolling]]` contact, which has a point and a normal to hold it by"

    // Names.
    /// `name` is not `what` (a phrase), with a hint.
    not_a(name, what, hint) "problem.not-a" "`{name}` is not {what}{hint}"
    /// `name`, given where a coordinate is wanted, is not one.
    not_a_coordinate(name) "problem.not-a-coordinate" "`{name}` is not a coordinate"
    /// A name that is not an identifier.
    invalid_name(name) "problem.name.invalid"
        "`{name}` is not a valid name: use a letter or `_`, then letters, digits or `_`"
    /// A function's name, `pi` or `t` declared.
    reserved_name(name) "problem.name.reserved" "`{name}` is reserved (a function, `pi` or `t`) and cannot be used as a name"
    /// A name declared twice.
    name_twice(name) "problem.name.twice" "`{name}` is declared twice"
    /// A constraint's or contact's name given twice (`first`: where it was first).
    constraint_name_twice(name, first) "problem.name.constraint-twice"
        "`{name}` names another constraint already ({first}): names key the reactions, the contact forces and the table's columns, so each must differ"
    /// Definitions that refer to each other in a cycle (`a → b → a`).
    definitions_cycle(cycle) "problem.definitions.cycle" "definitions refer to each other in a cycle: {cycle}"
    /// A chain of definitions past the depth limit.
    definitions_too_deep(name, limit) "problem.definitions.too-deep"
        "`{name}` sits at the end of a chain of more than {limit} definitions referring to each other"
    /// An input named as a parameter.
    input_is_parameter(name) "problem.input-is-parameter"
        "`{name}` is already a parameter: an input needs a name of its own"
    /// An input named as a definition.
    input_is_definition(name) "problem.input-is-definition"
        "`{name}` is already a definition: an input needs a name of its own"

    // The header and sizes.
    /// Another format than `nhlab/1` (`found` in backticks, or a phrase).
    format(expected, found) "problem.format" "expected `{expected}`, found {found}"
    /// No title.
    title_missing() "problem.title-missing" "a scenario needs a title"
    /// No coordinates.
    coordinates_missing() "problem.coordinates-missing" "a scenario needs at least one coordinate"
    /// More of `noun` (a field's name) than the lab takes.
    too_many(count, noun, limit) "problem.too-many" "{count} {noun}; the lab supports at most {limit}"
    /// No kinetic energy from any source.
    kinetic_missing() "problem.kinetic-missing" "a scenario needs `kinetic`, `particles` or `bodies` (they add)"
    /// A constraint that constrains nothing.
    constraint_constant() "problem.constraint-constant" "the constraint depends on neither coordinates nor velocities"
    /// A contact whose velocity constrains nothing.
    contact_constant() "problem.contact-constant"
        "this contact's velocity depends on neither coordinates nor velocities"
    /// An expression (`what`: a phrase) that may not depend on velocities does.
    positions_only(what, velocities) "problem.positions-only"
        "{what} may depend on coordinates and t only, not on `{velocities}`"
    /// `[view] trajectory` not two expressions.
    trajectory_count(found) "problem.trajectory-count" "expected two expressions, found {found}"

    // Values.
    /// No initial value for coordinate `name` (and no holonomic constraint to solve it from).
    initial_missing(name) "problem.initial-missing" "the initial value of coordinate `{name}` is missing"
    /// A value that must be a finite number is not.
    not_finite() "problem.not-finite" "the value must be a finite number"
    /// A value that must be positive (and finite) is `value`.
    not_positive(value) "problem.not-positive" "expected a positive number, found {value}"
    /// The run's end not after its start.
    end_before_start(t0, t_end) "problem.t-end.before-start" "must be after the initial time {t0}, found {t_end}"
    /// The initial time not before the default end (no `[run] t_end`).
    start_after_default_end(t_end) "problem.initial-t.after-default-end"
        "must be before the run's end t = {t_end} (the default when [run] t_end is not given)"
    /// A value that must be finite is `value`.
    expected_finite(value) "problem.expected-finite" "expected a finite number, found {value}"
    /// A range's bound or step that is not finite.
    bound_not_finite() "problem.range.not-finite" "must be a finite number"
    /// A range whose maximum is not above its minimum.
    max_not_above_min(max, min) "problem.range.max" "max = {max} must be greater than min = {min}"
    /// A step longer than its range.
    step_too_long(step, min, max) "problem.range.step-too-long" "step = {step} is longer than the range {min} … {max}"
    /// A step of zero or less.
    step_not_positive() "problem.range.step" "the step must be positive"
    /// A value outside its range `bounds` (`min … max`).
    outside_range(value, bounds) "problem.range.outside" "the value {value} is outside its range {bounds}"
    /// A unit's text too long or over lines.
    unit_too_long(limit) "problem.unit" "a unit is at most {limit} characters of one line"

    // [compare]
    /// More parameter sets than colours.
    too_many_sets(limit, found) "problem.compare.too-many"
        "at most {limit} parameter sets (each is drawn in a colour of its own), found {found}"
    /// A set's name too long, empty, over lines or with a `.`.
    set_name(limit) "problem.compare.name" "a set's name is 1 to {limit} characters of one line, without `.`"
    /// A set's initial state that cannot be completed (`problem`: what is wrong).
    with_set(field, problem) "problem.compare.with-set" "with this set's values, {field}: {problem}"
    /// A set with no values.
    set_empty() "problem.compare.empty" "give at least one parameter's value (`m = 2`)"
    /// A set's value outside its parameter's range.
    set_value_outside(value, parameter, bounds) "problem.compare.outside"
        "{value} is outside the range of `{parameter}`, {bounds}"

    // [run]
    /// An unknown method, with a hint.
    unknown_method(name, hint) "problem.run.method" "unknown method `{name}`{hint}"
    /// An unknown method, none near: the list.
    unknown_method_list(name, list) "problem.run.method.list" "unknown method `{name}` (one of {list})"
    /// An unknown integrator, with the list and a hint.
    unknown_integrator(name, list, hint) "problem.run.integrator"
        "unknown integrator `{name}`: use one of {list}{hint}"
    /// Both `integrator` and `integrators`.
    integrator_twice() "problem.run.integrator-twice" "give `integrator` or `integrators`, not both"
    /// `integrators = []`.
    integrators_empty() "problem.run.integrators-empty" "expected at least one integrator"
    /// An unknown stabilization.
    unknown_stabilization(name) "problem.run.stabilization"
        "unknown stabilization `{name}`: use `none`, `baumgarte` or `projection`"
    /// An unknown `on_invalid`, with a hint.
    unknown_on_invalid(name, hint) "problem.run.on-invalid" "unknown choice `{name}`: use `mark` or `stop`{hint}"
    /// A relative tolerance below what doubles can meet.
    rtol_too_small(min, found) "problem.run.rtol"
        "expected at least {min}, found {found}: no double-precision step can meet a smaller relative tolerance"

    // [stability], [hamel], [vakonomic]
    /// A name in `[stability.at]` that is not part of a state.
    not_a_state(name) "problem.stability.at" "`{name}` is not t, a coordinate or a velocity like x'"
    /// The wrong number of dependent coordinates.
    dependent_count(m, found) "problem.dependent-count"
        "expected one dependent coordinate per constraint ({m}), found {found}"
    /// A sweep over something that is neither a parameter nor a velocity.
    sweep_over(name) "problem.stability.sweep-over" "`{name}` is neither a parameter nor a velocity like x'"
    /// A map's second axis without a first.
    map_without_sweep() "problem.stability.map-without-sweep"
        "a map's first axis is `sweep`: give `sweep` too"
    /// A map over one quantity twice.
    map_same_axis(name) "problem.stability.map-same-axis" "`{name}` is already swept by `sweep`"
    /// A linearisation asked of a method that has none.
    not_linearisable(id) "problem.stability.method"
        "`{id}`: linearisation supports lagrange, the ideal formulations that equal it (udwadia-kalaba, gauss, euler) and hamel"
    /// A sweep's range out of order, or not finite.
    sweep_range() "problem.stability.sweep-range"
        "the range needs a first value ≤ the last and a positive step, all finite"
    /// A sweep of too many values.
    sweep_too_long(count, limit) "problem.stability.sweep-too-long" "{count} values; at most {limit}"
    /// Hamel's split of constraints nonlinear in the velocities.
    hamel_nonlinear() "hamel.nonlinear" "Hamel's embedding and the E-vector need constraints linear in the velocities"
    /// The wrong number of dependent coordinates for Hamel's split.
    hamel_count(expected, found) "hamel.count"
        "expected one dependent coordinate per independent constraint ({expected}), found {found}"
    /// The same, some constraints depending on the others.
    hamel_count_of(expected, constraints, found) "hamel.count.of"
        "expected one dependent coordinate per independent constraint ({expected} of {constraints}), found {found}"
    /// Hamel's `A₁` singular.
    hamel_singular(names) "hamel.singular" "the dependent coordinates {names} cannot be solved for: A₁ is singular"
    /// Hamel's split with masses that depend on the velocities.
    hamel_accelerations() "hamel.accelerations"
        "Hamel's embedding is not defined when masses depend on the velocities (the forces then contain accelerations)"
    /// Hamel's split past its work bound.
    hamel_too_large(limit) "hamel.too-large"
        "Hamel's split is too large to derive symbolically for this model: it passed its bound of {limit} operands (the symbolic A₁⁻¹ of a large, coupled A₁ grows without bound); the other methods are unaffected"
    /// Hamel's split not asked for.
    hamel_not_derived() "hamel.not-derived"
        "not derived: the model was built without Hamel's split (build it with `Needs` that include it)"
    /// A problem (a message) met at a state (a phrase) while its positions are solved.
    at_state(state, problem) "problem.at-state" "at {state}: {problem}"
    /// A problem (a message) of the split at the initial state.
    at_initial_state(problem) "problem.hamel.at-start" "{problem} at the initial state"
    /// The wrong number of vakonomic multipliers.
    multiplier_count(m, found) "problem.vakonomic.mu0" "expected one multiplier per constraint ({m}), found {found}"

    // The initial state
    /// Velocities (a phrase) that miss a constraint by `by`.
    velocities_violate(velocities, name, by) "problem.initial.velocities"
        "{velocities} violate constraint `{name}` by {by}"
    /// The same, after the omitted velocities were solved for.
    velocities_violate_solved(velocities, name, by) "problem.initial.velocities.solved"
        "{velocities} violate constraint `{name}` by {by} after solving for the omitted ones: the constraints are inconsistent or the omitted velocities cannot meet them"
    /// Coordinates (a phrase) that miss a holonomic constraint.
    coordinates_violate(coordinates, name, by, tolerance, names) "problem.initial.coordinates"
        "{coordinates} violate the holonomic constraint `{name}` by {by} (tolerance {tolerance}, relative to its terms): give values of {names} that meet it, or omit one of them from `initial.q` to have it solved by Newton's method"
    /// Omitted coordinates solved (a warning).
    coordinates_solved(tolerance, values) "problem.initial.coordinates-solved"
        "solved the omitted coordinates from the holonomic constraints by Newton's method (to a residual below {tolerance} of their terms): {values}; other solutions may exist — give them to choose"
    /// Omitted velocities solved from nonlinear constraints (a warning).
    velocities_solved(start, values) "problem.initial.velocities-solved"
        "the omitted velocities were solved from the nonlinear constraints by Newton's method from {start}: {values}; other solutions may exist — give them to choose"
    /// One velocity the constraints leave free (a warning).
    free_velocity(names, values) "problem.initial.free.one"
        "{names} is not fixed by the constraints; took the minimum-norm value {values} — give it to choose another"
    /// Velocities the constraints leave free (a warning).
    free_velocities(names, values) "problem.initial.free.other"
        "{names} are not fixed by the constraints; took the minimum-norm values {values} — give them to choose others"
    /// A mass matrix entry too small to compute with.
    mass_subnormal(value, state) "problem.initial.mass-subnormal"
        "the mass matrix has an entry of {value} at {state}, below the smallest normal double (2.2e-308): rescale the units"
    /// A mass matrix that is not positive definite.
    mass_not_positive(state, values) "problem.initial.mass-not-positive"
        "the mass matrix ∂²T/∂v² is not positive definite at {state} ({values})"

    // [inputs], [[particles]]
    /// A signal table without points.
    signal_empty() "problem.signal.empty" "the table needs at least one [t, u] pair"
    /// A signal table of too many points.
    signal_too_long(count, limit) "problem.signal.too-long" "the table has {count} points; at most {limit}"
    /// A signal point that is not two finite numbers.
    signal_not_finite() "problem.signal.not-finite" "[t, u] must be finite numbers"
    /// A table whose slope between two points overflows.
    signal_slope(before, at) "problem.signal.slope"
        "the slope from {before} to {at} is too large to compute (it overflows): give values of a smaller size"
    /// A signal's times not increasing.
    signal_times(t, before) "problem.signal.times" "the times must increase (t = {t} after t = {before})"
    /// A particle's position of other than two or three expressions.
    two_or_three_expressions(found) "problem.particles.position" "expected 2 or 3 expressions, found {found}"
    /// An ejecta velocity of another length than the position.
    like_position(count) "problem.particles.ejecta" "expected {count} expressions, like `position`"
    /// A time derivative of a symbol with no rate of change.
    no_rate(name) "problem.no-rate"
        "cannot take the time derivative of `{name}`: its rate of change is not a symbol of the model"

    // Values not finite at a state (`state`: a phrase)
    /// A field's value.
    not_finite_at(state) "problem.not-finite-at" "not finite at {state}"
    /// A body's kinetic energy.
    kinetic_not_finite_at(state) "problem.not-finite-at.kinetic" "its kinetic energy is not finite at {state}"
    /// A body's potential energy under gravity.
    gravity_not_finite_at(state) "problem.not-finite-at.gravity"
        "its potential energy under gravity is not finite at {state}"
    /// A field's derivative by a coordinate or velocity `by`.
    derivative_not_finite_at(by, state) "problem.derivative-not-finite-at"
        "its derivative by {by} is not finite at {state}"
    /// A body's kinetic energy's derivative.
    kinetic_derivative_not_finite_at(by, state) "problem.derivative-not-finite-at.kinetic"
        "its kinetic energy's derivative by {by} is not finite at {state}"
    /// A body's potential energy's derivative.
    gravity_derivative_not_finite_at(by, state) "problem.derivative-not-finite-at.gravity"
        "its potential energy under gravity's derivative by {by} is not finite at {state}"

    // [scene]
    /// More shapes than the scene draws.
    too_many_shapes(count, limit) "problem.scene.too-many" "{count} shapes; the lab draws at most {limit}"
    /// A scene point of other than two or three components.
    components_two_or_three(found) "problem.scene.components" "expected two or three components, found {found}"
    /// A shape without `kind`.
    shape_kind_missing(kinds) "problem.scene.kind-missing" "a shape needs a `kind`: {kinds}"
    /// An unknown shape kind, with the kinds and a hint.
    not_a_scene_shape(name, kinds, hint) "problem.scene.kind" "`{name}` is not a scene shape ({kinds}){hint}"
    /// Both `angle` and `frame`.
    angle_and_frame() "problem.scene.angle-and-frame" "give `angle` or `frame`, not both"
    /// The wrong number of points for a shape.
    shape_points(kind, wanted, found) "problem.scene.points" "a {kind} takes {wanted} points, found {found}"
    /// Points given to a shape placed by `at`.
    shape_has_no_points(kind) "problem.scene.no-points" "a {kind} has no `points` (it is placed by `at`)"
    /// A circle without a radius.
    circle_radius() "problem.scene.radius-missing" "a circle needs a `radius`"
    /// A radius given to a shape that has none.
    shape_has_no_radius(kind) "problem.scene.no-radius" "a {kind} has no radius (circles and points have one)"
}
