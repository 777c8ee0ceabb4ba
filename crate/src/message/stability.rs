//! Why a stability study cannot be made or run ([`crate::stability::Study`],
//! [`crate::stability::StabilityError`]), and why a state named by its values
//! cannot be set ([`crate::simulation::state_given`]). Each English is what the
//! command line prints.

messages! {
    // Where.
    /// A key of `[stability]` (or a flag), then why.
    at_key(key, why) "stability.at-key" "{key}: {why}"
    /// Two reasons, one after the other (`rest` may be a list itself).
    both(first, rest) "stability.both" "{first}; {rest}"
    /// One value of a sweep, then why.
    at_value(name, value, why) "stability.at-value" "at {name} = {value}: {why}"

    // The study.
    /// Hamel's embedding linearised without a split.
    hamel(why) "stability.hamel" "hamel: {why}"
    /// The model has no Hamel split.
    no_hamel_split() "stability.no-hamel-split" "the model has no Hamel split"
    /// The Euler condition on nonlinear constraints.
    euler_nonlinear() "stability.euler-nonlinear"
        "euler: its equations differ from lagrange's on nonlinear constraints, and linearisation supports lagrange's"
    /// Too many derivatives to compile.
    too_large(n, m, count, limit) "stability.too-large"
        "{n} coordinates and {m} constraints need {count} derivatives; linearisation takes at most {limit} (about 45 coordinates)"
    /// A swept name that is neither a parameter nor a velocity.
    not_sweepable(over) "stability.not-sweepable" "`{over}` is neither a parameter nor a velocity like x'"
    /// A derived axis without a name.
    axis_unnamed() "stability.axis.unnamed" "give the derived quantity a name (e.g. `v`)"
    /// A derived axis on a symbol it may not use.
    axis_symbol(name, over) "stability.axis.symbol"
        "`{name}` is neither a parameter nor the swept `{over}` (the axis is a function of those)"
    /// A derived axis not finite at a swept value.
    axis_not_finite(over, value) "stability.axis.not-finite" "not finite at {over} = {value}"
    /// A derived axis that does not increase.
    axis_not_increasing(over, value) "stability.axis.not-increasing"
        "must increase with {over} (it does not at {over} = {value}); for a decreasing quantity use its negative"

    // The linearisation.
    /// The derivatives not finite.
    derivatives_not_finite() "stability.derivatives-not-finite" "the derivatives are not finite at the reference state"
    /// An ignorable coordinate the equations depend on.
    not_ignorable(name, largest) "stability.not-ignorable"
        "`{name}` is not ignorable: the equations depend on it (largest ∂/∂{name}: {largest})"
    /// An ignorable coordinate a holonomic constraint fixes.
    constrained(name) "stability.constrained" "`{name}` is not ignorable: a holonomic constraint fixes it"
    /// The dependent coordinates given (`why`: a phrase).
    dependent(why) "stability.dependent" "the dependent coordinates given: {why}"
    /// As many dependent coordinates as constraints needed.
    dependent_count(given, m) "stability.dependent.count" "{given} dependent coordinates given for {m} constraints"
    /// The constraints not solvable for the dependent coordinates given.
    dependent_unsolvable() "stability.dependent.unsolvable" "the constraints cannot be solved for them here"
    /// A singular matrix (`what`: a phrase).
    singular(what) "stability.singular" "the constraints are singular at the reference state: {what}"
    /// The eigenvalues' iteration gave up.
    eigenvalues(n) "stability.eigenvalues"
        "the eigenvalues of the {n}×{n} linear system did not converge (LAPACK's QR iteration gave up)"
    /// An eigenvalue not finite.
    eigenvalue_not_finite() "stability.eigenvalue-not-finite" "an eigenvalue is not finite"

    // Which matrix was singular.
    /// Ψ of Hamel's split.
    hamel_psi() "stability.what.hamel-psi" "Ψ of Hamel's split"
    /// A₁ of Hamel's split.
    hamel_a1() "stability.what.hamel-a1" "A₁ of Hamel's split"
    /// Lagrange's saddle-point matrix.
    saddle() "stability.what.saddle" "the matrix [[M, −Aᵀ], [A, 0]]"
    /// A holonomic constraint's speed.
    holonomic_speed() "stability.what.holonomic-speed" "a holonomic constraint's speed"
    /// Redundant constraints.
    redundant() "stability.what.redundant" "the constraints are dependent (remove a redundant one)"
    /// The dependent columns.
    dependent_columns() "stability.what.dependent-columns" "the dependent columns"

    // A state named by its values.
    /// A value not finite.
    state_not_finite(name) "state.not-finite" "`{name}` must be finite"
    /// A multiplier beyond the constraints.
    state_multiplier(name, m) "state.multiplier" "`{name}`: there are {m} constraints"
    /// A velocity of something that is not a coordinate.
    state_not_velocity(name) "state.not-velocity" "`{name}` is not the velocity of a coordinate"
    /// A name that is none of those.
    state_unknown(name) "state.unknown" "unknown name `{name}` (use t, a coordinate or a velocity like x')"
}
