//! Phrases said inside other messages (their parts, [`super::Message::part`]): what
//! a reader expected or found, the kind of name that was not found, the "did you
//! mean" hint.

use super::Message;

messages! {
    /// A text that every language writes as it is (a name in backticks, a parser's
    /// own words).
    verbatim(text) "phrase.verbatim" "{text}"
    /// Expected: a TOML/JSON string.
    text() "phrase.text" "text (in quotes)"
    /// Expected: an array of names.
    list_such_as() "phrase.list-such-as" "a list such as [\"x\", \"y\"]"
    /// Expected or found: a number.
    number() "phrase.number" "a number"
    /// Expected: an integer.
    whole_number() "phrase.whole-number" "a whole number"
    /// Expected: a boolean.
    true_or_false() "phrase.true-or-false" "true or false"
    /// Expected or found: a table.
    table() "phrase.table" "a table"
    /// Found: the number `value`.
    the_number(value) "phrase.the-number" "the number {value}"
    /// Found: the string `value` (quoted as written).
    the_text(value) "phrase.the-text" "the text {value}"
    /// Found: an array.
    a_list() "phrase.a-list" "a list"
    /// Found: an array (where a table was expected).
    an_array() "phrase.an-array" "an array"
    /// Found: a scalar (where a table was expected).
    a_single_value() "phrase.a-single-value" "a single value"
    /// Found: null or unit.
    nothing() "phrase.nothing" "nothing"
    /// Expected in an expression, after a complete term.
    operator_or_end() "phrase.operator-or-end" "an operator or the end"
    /// Expected in an expression: a term.
    an_expression() "phrase.an-expression" "an expression"
    /// Found in an expression: its end.
    end_of_expression() "phrase.end-of-expression" "the end of the expression"
    /// Found in an expression: a `)` with no `(`.
    unmatched_parenthesis() "phrase.unmatched-parenthesis" "an unmatched `)`"
    /// Why a prime is wrong: the name is not a coordinate.
    prime_not_coordinate() "phrase.prime-not-coordinate" "only coordinates have velocities (a prime)"
    /// Why a prime is wrong: three or more.
    too_many_primes() "phrase.too-many-primes" "at most two primes (an acceleration)"
    /// What an unknown name is not: a coordinate.
    a_coordinate() "phrase.a-coordinate" "a coordinate"
    /// What an unknown name is not: a coordinate or `t`.
    a_coordinate_or_t() "phrase.a-coordinate-or-t" "a coordinate or `t`"
    /// What an unknown name is not: a parameter.
    a_parameter() "phrase.a-parameter" "a parameter"
    /// What an unknown name is not: a projection.
    a_projection() "phrase.a-projection" "a projection (`plane` or `space`)"
    /// What an unknown name is not: a frame with an orientation.
    a_frame_with_orientation() "phrase.a-frame-with-orientation" "a frame with an orientation"
    /// What an unknown name is not: a frame.
    a_frame() "phrase.a-frame" "a frame"
    /// What an unknown name is not: a point.
    a_point() "phrase.a-point" "a point"
    /// What an unknown name is not: a body.
    a_body() "phrase.a-body" "a body"
    /// What may not depend on velocities: a scene position.
    a_scene_position() "phrase.a-scene-position" "a scene position"
    /// … a scene angle.
    a_scene_angle() "phrase.a-scene-angle" "a scene angle"
    /// … a radius.
    a_radius() "phrase.a-radius" "a radius"
    /// … a particle's position.
    a_position() "phrase.a-position" "a position"
    /// … the potential.
    the_potential() "phrase.the-potential" "the potential"
    /// … a rotation angle.
    a_rotation_angle() "phrase.a-rotation-angle" "a rotation angle"
    /// … gravity's magnitude.
    the_gravity() "phrase.the-gravity" "the gravity"
    /// … a mass.
    a_mass() "phrase.a-mass" "a mass"
    /// … a moment or product of inertia.
    an_inertia() "phrase.an-inertia" "an inertia"
    /// … a shape's size.
    a_size() "phrase.a-size" "a size"
    /// … a friction coefficient.
    a_friction_coefficient() "phrase.a-friction-coefficient" "a friction coefficient"
    /// … a tangent of a rolling contact.
    a_tangent() "phrase.a-tangent" "a tangent"
    /// What must be a vector: a point's position.
    a_points_position() "phrase.a-points-position" "a point's position"
    /// … a force.
    a_force() "phrase.a-force" "a force"
    /// … a torque.
    a_torque() "phrase.a-torque" "a torque"
    /// Expected in a vector expression: the rest of `[a, b, c]`.
    comma_and_three_components() "phrase.comma-and-three-components" "`,` and three components"
    /// Expected in a vector expression: the end of `[a, b, c]`.
    bracket_after_three_components() "phrase.bracket-after-three-components" "`]` after three components"
    /// Expected in a vector expression: the end of `omega(F)`.
    omega_closes() "phrase.omega-closes" "`)`: `omega` takes one frame"
    /// The state a run starts from.
    the_initial_state() "phrase.the-initial-state" "the initial state"
    /// A state given to evaluate (`nhlab eval --at`).
    the_given_state() "phrase.the-given-state" "the given state"
    /// The velocities a run starts with.
    the_initial_velocities() "phrase.the-initial-velocities" "the initial velocities"
    /// Velocities given to evaluate.
    the_given_velocities() "phrase.the-given-velocities" "the given velocities"
    /// The coordinates a run starts with.
    the_initial_coordinates() "phrase.the-initial-coordinates" "the initial coordinates"
    /// Coordinates given to evaluate.
    the_given_coordinates() "phrase.the-given-coordinates" "the given coordinates"
    /// A state (a phrase) with its values (`t = 0, x = 1`).
    state_with_values(state, values) "phrase.state-with-values" "{state} ({values})"
    /// The first of a long list (`list`, already joined), and how many in all.
    some_of(list, count) "phrase.some-of" "{list}, … ({count} in all)"
    /// Every value listed is 0.
    all_zero() "phrase.all-zero" "all 0"
    /// The names nearest to a misspelt one (one).
    did_you_mean_one(a) "phrase.did-you-mean.one" "; did you mean `{a}`?"
    /// The names nearest to a misspelt one (two).
    did_you_mean_two(a, b) "phrase.did-you-mean.two" "; did you mean `{a}`, `{b}`?"
    /// The names nearest to a misspelt one (three).
    did_you_mean_three(a, b, c) "phrase.did-you-mean.three" "; did you mean `{a}`, `{b}`, `{c}`?"
}

/// "; did you mean …?" with the names nearest to `name` among `candidates` (at most
/// three), or `None` when none is near.
pub fn did_you_mean<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<Message> {
    let near = crate::suggest::nearest(name, candidates.into_iter().filter(|k| !k.is_empty()));
    hint(&near)
}

/// "; did you mean …?" with `names` (the first three), or `None` when there are none.
pub fn hint<S: AsRef<str>>(names: &[S]) -> Option<Message> {
    match names {
        [] => None,
        [a] => Some(did_you_mean_one(a.as_ref())),
        [a, b] => Some(did_you_mean_two(a.as_ref(), b.as_ref())),
        [a, b, c, ..] => Some(did_you_mean_three(a.as_ref(), b.as_ref(), c.as_ref())),
    }
}
