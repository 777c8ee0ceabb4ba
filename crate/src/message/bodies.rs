//! A scenario's problems with its rigid bodies: `[frames]`, `[points]`, `[vectors]`
//! and their vector expressions, `[gravity]`, `[[bodies]]`, `[[rolling]]` and
//! `[[loads]]`. Each English is the checker's wording, which the command line prints.

messages! {
    // [frames]
    /// More rotations, over all frames, than the lab takes.
    rotations_in_all(count, limit) "problem.frames.rotations-in-all"
        "{count} rotations in all; the lab supports at most {limit}"
    /// More rotations in one frame than the lab takes.
    too_many_rotations(count, limit) "problem.frames.rotations" "{count} rotations; at most {limit}"
    /// A frame named `N`.
    inertial_frame_named() "problem.frames.inertial"
        "`N` is the inertial frame, predefined: choose another name"
    /// Frames that are each other's parents (`names`: a list).
    frames_cycle(names) "problem.frames.cycle" "the frames {names} are each other's parents: a cycle"
    /// Both `rotations` and `angular_velocity`.
    rotations_and_angular_velocity() "problem.frames.both"
        "give either `rotations` or `angular_velocity`, not both"
    /// An angular velocity given along a parent that has no axes.
    parent_has_no_axes(parent, name) "problem.frames.parent-axes"
        "`{parent}` has no orientation to give `{name}`'s along"
    /// Rotations from a parent that has no axes.
    parent_cannot_turn(parent) "problem.frames.parent-turn"
        "`{parent}` has no orientation (only an angular velocity): a frame cannot be turned from it"
    /// A rotation that is not one `axis = angle` pair.
    rotation_pair() "problem.frames.rotation-pair"
        "a rotation is one `axis = angle` pair, such as { z = \"psi\" }"
    /// An axis other than `x`, `y`, `z`.
    not_an_axis(axis) "problem.axis" "the axis is `x`, `y` or `z`, not `{axis}`"

    // [points] and [vectors]
    /// A point named `O`.
    origin_named() "problem.points.origin" "`O` is the inertial origin, predefined: choose another name"
    /// A `[vectors]` entry named as a point.
    point_already(name) "problem.vectors.point-already" "`{name}` is a point already: choose another name"
    /// Points and vectors that refer to each other (`names`: a list).
    points_cycle(names) "problem.points.cycle" "the points and vectors {names} refer to each other: a cycle"
    /// A scalar where a vector belongs (`what`: a phrase).
    vector_expected(what) "problem.vector-expected"
        "{what} is a vector, and this is a scalar (write `[a, b, c]` for components)"
    /// `frame` beside a position written as an expression.
    frame_with_expression() "problem.points.frame"
        "`frame` goes with three components; in an expression write `[a, b, c] in F`"
    /// A position's components in a frame that has no axes.
    position_frame_has_no_axes(frame) "problem.points.frame-axes"
        "`{frame}` has no orientation (only an angular velocity): give the position in another frame"
    /// A `[vectors]` scalar whose name cannot be declared (`reason`: a message).
    scalar_unnamed(name, reason) "problem.vectors.scalar-name" "the scalar `{name}` cannot be named: {reason}"
    /// A point's component whose name cannot be declared.
    point_component_unnamed(component, name, reason) "problem.points.component-name"
        "the component `{component}` of point `{name}` cannot be named: {reason}"
    /// A vector's component whose name cannot be declared.
    vector_component_unnamed(component, name, reason) "problem.vectors.component-name"
        "the component `{component}` of vector `{name}` cannot be named: {reason}"
    /// Not three components.
    three_components(found) "problem.three-components" "expected three components, found {found}"
    /// A vector where a component belongs.
    component_is_scalar() "problem.component-is-scalar" "a component is a scalar, and this is a vector"
    /// A point or vector named where only frames are built.
    not_built_yet(name) "problem.not-built-yet"
        "`{name}` is not built yet here: frames come before points and vectors"

    // [gravity]
    /// Gravity without bodies.
    gravity_without_bodies() "problem.gravity.no-bodies"
        "gravity acts on bodies, and the scenario has none (`particles` take it in `potential`)"
    /// Gravity along the zero vector.
    gravity_zero() "problem.gravity.zero"
        "the zero vector has no direction: give the way gravity pulls, as `[0, 0, -1]`"

    // [[bodies]]
    /// A body without a name.
    body_name_missing() "problem.bodies.name-missing" "a body needs a name"
    /// Two bodies of one name.
    body_twice(name) "problem.bodies.twice" "a second body named `{name}`"
    /// A body without a frame.
    body_frame_missing() "problem.bodies.frame-missing"
        "a body needs a `frame`: its body-fixed frame, from `[frames]`"
    /// A body on a frame without axes that is not isotropic.
    body_not_isotropic(frame) "problem.bodies.isotropic"
        "frame `{frame}` has no orientation (only an angular velocity): its body needs equal principal moments (xx = yy = zz) and no products of inertia"
    /// A body on a frame without axes drawn as other than a sphere.
    body_drawn_as_sphere(frame) "problem.bodies.sphere-only"
        "frame `{frame}` has no orientation (only an angular velocity), so its body is drawn as a `sphere` only"
    /// A negative mass at the start.
    mass_negative(mass) "problem.bodies.mass-negative" "the mass is {mass} at the start: it cannot be negative"
    /// A negative principal moment at the start (`moments`: a list).
    inertia_negative(moments) "problem.bodies.inertia-negative"
        "not a rigid body's inertia at the start: principal moments {moments} (none may be negative)"
    /// An unknown shape, with a hint.
    not_a_shape(kind, hint) "problem.shape.kind" "`{kind}` is not a shape{hint}"
    /// An unknown shape, none near: the list.
    not_a_shape_list(kind, kinds) "problem.shape.kind.list" "`{kind}` is not a shape (one of {kinds})"
    /// A shape without a key it needs (`kind` as written: `disk`).
    shape_needs(kind, key) "problem.shape.needs" "a {kind} needs `{key}`"

    // [[rolling]]
    /// More contacts than the lab takes.
    too_many_contacts(count, limit) "problem.rolling.too-many"
        "{count} rolling contacts; the lab supports at most {limit}"
    /// A contact declared twice.
    contact_twice(earlier, body, on, contact) "problem.rolling.twice"
        "the same contact as rolling[{earlier}] (`{body}` on `{on}` at `{contact}`): declare each contact once"
    /// A body rolling on itself.
    rolls_on_itself() "problem.rolling.itself" "a body does not roll on itself"
    /// Not two tangents.
    two_tangents(found) "problem.rolling.tangents" "expected two tangents, found {found}"
    /// A friction coefficient that depends on coordinates.
    friction_on_coordinates() "problem.rolling.friction-coordinates"
        "a friction coefficient may depend on the parameters and t only"
    /// A negative (or NaN) friction coefficient at the start.
    friction_negative(value) "problem.rolling.friction-negative"
        "the friction coefficient is {value} at the start: it must be a number of at least 0"

    // [[loads]]
    /// A load with neither force nor torque.
    load_empty() "problem.loads.empty"
        "a load needs a `force` (at a `point`) or a `torque` (on a `body`), or both"
    /// A force without its point.
    force_needs_point() "problem.loads.force-point" "a force needs the `point` it acts at"
    /// A point without a force.
    point_without_force() "problem.loads.point-alone" "a `point` goes with a `force`"
    /// A torque without its body.
    torque_needs_body() "problem.loads.torque-body" "a torque needs the `body` it acts on"

    // Vector expressions
    /// A scalar plus a vector.
    mixed_sum() "problem.vector.add" "cannot add a scalar and a vector"
    /// A scalar minus a vector, or the other way.
    mixed_difference() "problem.vector.subtract" "cannot subtract a scalar and a vector"
    /// A division by a vector.
    divide_by_vector() "problem.vector.divide" "cannot divide by a vector"
    /// A product of two vectors.
    vector_product() "problem.vector.product" "a product of two vectors: write `dot(u, v)` or `cross(u, v)`"
    /// A vector's power.
    vector_power() "problem.vector.power" "only scalars have powers: write `dot(v, v)` for a vector's square"
    /// The axes of a frame that has none.
    frame_has_no_axes(name) "problem.vector.no-axes"
        "`{name}` has no orientation (only an angular velocity): it has no axes"
    /// An axis other than `F.x`, `F.y`, `F.z`.
    frame_axis(frame) "problem.vector.axis" "a frame's axis is `{frame}.x`, `{frame}.y` or `{frame}.z`"
    /// A vector function's name without parentheses.
    vector_function_parentheses(name) "problem.vector.parentheses"
        "`{name}` needs its arguments in parentheses, as in `{name}(…)`"
    /// A scalar given to a vector function.
    takes_vectors(name) "problem.vector.takes-vectors" "`{name}` takes vectors; an argument here is a scalar"
    /// A vector given to a scalar function.
    takes_scalars(name) "problem.vector.takes-scalars" "`{name}` takes scalars; an argument here is a vector"
    /// `unit` of the zero vector.
    unit_of_zero() "problem.vector.unit-zero" "`unit` of the zero vector: it has no direction"
    /// `velocity` of something with velocities.
    velocity_of_velocities() "problem.vector.velocity"
        "`velocity` takes a vector of coordinates and t (no velocities)"
    /// A frame named where a scalar belongs.
    frame_as_scalar(name) "problem.vector.frame-as-scalar"
        "`{name}` is a frame, and a number (a scalar) is expected here: its axes are `{name}.x`, `{name}.y`, `{name}.z` in vector expressions"
    /// A point named where a scalar belongs.
    point_as_scalar(name) "problem.vector.point-as-scalar"
        "`{name}` is a point, and a number (a scalar) is expected here: use a component (`{name}_x`, `{name}_y`, `{name}_z`), or name a scalar of it in `[vectors]` (`h = \"norm({name})\"`)"
    /// A vector named where a scalar belongs.
    vector_as_scalar(name) "problem.vector.vector-as-scalar"
        "`{name}` is a vector, and a number (a scalar) is expected here: use a component (`{name}_x`, `{name}_y`, `{name}_z`), or name a scalar of it in `[vectors]` (`h = \"norm({name})\"`)"
}
