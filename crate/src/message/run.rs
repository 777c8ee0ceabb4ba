//! Why a run stopped ([`crate::simulation::failure`]): the integrator's reasons and
//! the dynamics' (a singular matrix, a value that is not finite), and the phrases
//! that name what failed. Each English is what the command line prints.

messages! {
    // The integrator's.
    /// The adaptive step too small to make progress.
    step_collapsed(h, t) "run.step-collapsed"
        "the step size collapsed to {h} at t = {t}: the system is too stiff or singular there"
    /// A fixed step that does not change the time.
    no_progress(dt, t) "run.no-progress" "the step dt = {dt} does not advance the time at t = {t}: choose a larger dt"
    /// Steps that advance the time by a negligible part of the run.
    stalled(t, steps, advanced) "run.stalled"
        "the integrator stalled at t = {t}: {steps} steps advanced the time by only {advanced}; the system is stiff or singular here (a constraint's Jacobian may vanish)"
    /// A steady pace too slow to reach the end.
    too_long(end, steps, advanced, t, needed) "run.too-long"
        "the run cannot reach t = {end}: its last {steps} steps advanced the time by {advanced} (to t = {t}), so it would need about {needed} steps; choose a shorter end time"
    /// The bound on steps reached.
    step_limit(t, limit) "run.limit.steps" "the run stopped at t = {t}: it reached its limit of {limit} steps"
    /// The bound on samples reached.
    sample_limit(t, limit) "run.limit.samples" "the run stopped at t = {t}: it reached its limit of {limit} samples"
    /// The caller's own bound.
    interrupted(t) "run.interrupted" "the run stopped at t = {t}: it was interrupted"
    /// The state not finite.
    state_not_finite(t) "run.state-not-finite" "the state is not finite at t = {t}"
    /// A fixed step too small for the run to reach its end within its limit.
    step_too_small(dt, t_end, needed, limit) "run.step-too-small"
        "the step dt = {dt} is too small: the run to t = {t_end} would take about {needed} steps, and its limit is {limit}; choose a larger dt"
    /// A structure-preserving step past its stability limit.
    unstable(dt, growth, steps, from, t, omega, limit, suggested) "run.unstable"
        "the structure-preserving step dt = {dt} is past its stability limit: the kinetic energy grew {growth}-fold in {steps} steps from t = {from} to t = {t}; the scheme is stable for dt·ω < 2, and the stiffest motion here has ω ≈ {omega}, so dt must be below {limit}; dt ≤ {suggested} resolves it (an energy error near 1 %)"

    // The dynamics'.
    /// A value (`what`: a phrase) not finite.
    not_finite(what, t) "run.not-finite" "{what} is not finite at t = {t}"
    /// A matrix (`what`: a phrase) singular, with a hint (a phrase starting "; ", or nothing).
    singular(what, t, hint) "run.singular" "{what} is singular at t = {t}{hint}"
    /// Redundant constraints that cannot all be met.
    inconsistent(constraints, t) "run.inconsistent"
        "the constraints {constraints} cannot all be met at t = {t} (they are redundant and inconsistent: no accelerations satisfy them)"
    /// A mass matrix not positive definite.
    not_positive_definite(t) "run.not-positive-definite"
        "the mass matrix is not positive definite at t = {t}: check the kinetic energy and the parameters"
    /// An implicit step that did not converge.
    not_converged(t, dt, iterations) "run.not-converged"
        "the structure-preserving step from t = {t} (dt = {dt}) did not converge in {iterations} Newton iterations: choose a smaller dt"

    // Why a method does not apply to a model.
    /// Voronets' equations with one constraint nonlinear in the velocities.
    voronets_nonlinear_one(list) "method.voronets.nonlinear.one"
        "Voronets' equations eliminate the dependent velocities, which needs constraints linear in the velocities, and `{list}` is not (lagrange gives Chetaev's motion, euler Shen's)"
    /// … with several.
    voronets_nonlinear_other(list) "method.voronets.nonlinear.other"
        "Voronets' equations eliminate the dependent velocities, which needs constraints linear in the velocities, and `{list}` are not (lagrange gives Chetaev's motion, euler Shen's)"
    /// Hamel's embedding without constraints.
    hamel_no_constraints() "method.hamel.no-constraints"
        "Hamel's embedding has nothing to embed: the scenario has no constraints (hamel would be lagrange)"
    /// The vakonomic equations not derived (`reason`: a message).
    vakonomic_not_derived(reason) "method.vakonomic.not-derived" "the vakonomic equations could not be derived: {reason}"

    /// A method whose equations could not be derived (`reason`: a message).
    no_equations(method, reason) "method.no-equations" "{method}: {reason}"
    /// Equations too large to print.
    too_large_to_print(printed, limit) "method.too-large-to-print"
        "the equations are too large to print: {printed} printed terms even with their shared parts named (the limit is {limit}); simplify the model or its definitions"
    /// The vakonomic equations not asked for when the model was built.
    vakonomic_not_built() "method.vakonomic.not-built"
        "not derived: the model was built without them (build it with `Needs` that include the vakonomic method)"
    /// Hamel's embedding without the terms of a regular split.
    hamel_needs_regular_split() "method.hamel.needs-regular-split"
        "Hamel's embedding needs constraints linear in the velocities and a regular split"
    /// The vakonomic equations not derived for the model at hand.
    vakonomic_not_derived_here() "method.vakonomic.not-derived-here"
        "the vakonomic equations could not be derived for this model"

    // Why a model's code cannot be exported.
    /// A method whose equations equal Lagrange's.
    export_same_as_lagrange(method) "export.same-as-lagrange"
        "{method} gives the same equations as Lagrange's on ideal constraints: export --method lagrange"
    /// A method whose equations are not exported.
    export_not_yet(method) "export.not-yet" "{method}'s equations are not exported yet (only Lagrange's, with multipliers, are)"
    /// A written-out solve too long.
    export_solve_too_large(n, m, estimate, limit) "export.solve-too-large"
        "the solve written out for {n} coordinates and {m} constraints would be {estimate} instructions; at most {limit} are exported"
    /// The Jacobian's derivatives too many to build.
    export_derivatives_too_many(n, m, count, limit) "export.derivatives-too-many"
        "the Jacobian for {n} coordinates and {m} constraints differentiates {count} terms of M, F, A and b; at most {limit} are exported (the file's size and its time grow with them)"
    /// Code too long.
    export_code_too_large(total, limit) "export.code-too-large"
        "the model's code would have {total} instructions; at most {limit} are exported"

    // Why a structure-preserving integrator does not apply.
    /// To another method than lagrange.
    sp_lagrange_only(integrator, method) "run.sp.lagrange-only"
        "the integrator `{integrator}` steps Lagrange–d'Alembert's equations (method `lagrange`), not `{method}`'s"
    /// To this model (`reason`: a message).
    sp_not_this_model(integrator, reason) "run.sp.not-this-model"
        "the integrator `{integrator}` does not apply to this model: {reason}"
    /// Its terms not compiled.
    sp_needs_terms(integrator) "run.sp.needs-terms"
        "the integrator `{integrator}` needs its terms, compiled when the scenario's [run] names it"
    /// A constraint nonlinear in the velocities.
    sp_nonlinear_constraint(name, field) "run.sp.nonlinear-constraint"
        "the constraint `{name}` ({field}) is nonlinear in the velocities"
    /// A constraint that depends on the time.
    sp_rheonomic_constraint(name, field) "run.sp.rheonomic-constraint"
        "the constraint `{name}` ({field}) depends on the time t (rheonomic)"
    /// A variable-mass particle.
    sp_variable_mass() "run.sp.variable-mass" "the model has a variable-mass particle"
    /// Redundant constraints at the start.
    sp_redundant(rank, count) "run.sp.redundant"
        "the constraints are redundant at the start (rank {rank} of {count}): the scheme's multipliers are not unique and its Newton matrix is singular; dopri5 and rk4 run it"
    /// A mass matrix that depends on the velocities.
    sp_mass_depends_on_velocities() "run.sp.mass-velocities"
        "the kinetic energy is not quadratic in the velocities (its mass matrix depends on them)"
    /// An energy that depends on the time.
    sp_energy_depends_on_time() "run.sp.energy-time" "the kinetic or potential energy depends on the time t"
    /// A force that depends on the velocities.
    sp_force_depends_on_velocities(coordinate) "run.sp.force-velocities"
        "the force on `{coordinate}` depends on the velocities (the schemes take forces of the configuration only)"
    /// A force that depends on the time.
    sp_force_depends_on_time(coordinate) "run.sp.force-time" "the force on `{coordinate}` depends on the time t"
    /// Equations of motion that depend on the time.
    sp_equations_depend_on_time() "run.sp.equations-time" "the equations of motion depend on the time t"

    // What was not finite.
    /// An entry of the mass matrix.
    mass_entry(row, column) "run.what.mass-entry" "the mass matrix entry ({row}, {column})"
    /// A generalised force.
    force_entry(coordinate) "run.what.force" "the force F[{coordinate}] (from T, V and the forces)"
    /// An entry of the constraint Jacobian.
    jacobian_entry(constraint, coordinate) "run.what.jacobian-entry"
        "the constraint Jacobian entry ({constraint}, {coordinate})"
    /// A constraint's bias.
    bias_of(constraint) "run.what.bias" "the bias b of constraint `{constraint}`"
    /// A constraint's velocity-level residual.
    velocity_residual_of(constraint) "run.what.velocity-residual" "the velocity-level residual of constraint `{constraint}`"
    /// A constraint's residual.
    residual_of(constraint) "run.what.residual" "the residual φ of constraint `{constraint}`"
    /// The energy.
    energy() "run.what.energy" "the energy T + V"
    /// The constraint Jacobian of nonlinear constraints.
    velocity_jacobian() "run.what.velocity-jacobian" "the constraint Jacobian ∂f/∂v"
    /// A term of the vakonomic equations.
    vakonomic_term() "run.what.vakonomic-term" "a term of the vakonomic equations"
    /// The determinant of Hamel's split.
    hamel_determinant() "run.what.hamel-determinant" "det A₁ of the Hamel split"
    /// A term of Hamel's embedding.
    hamel_term() "run.what.hamel-term" "a term of Hamel's embedding (Ψ, G, H or E)"
    /// A term of the structure-preserving step.
    step_term() "run.what.step-term" "a term of the structure-preserving step"
    /// The structure-preserving step.
    step() "run.what.step" "the structure-preserving step"

    // Which matrix was singular, and what may cause it.
    /// Hamel's A₁.
    hamel_split() "run.what.hamel-split" "A₁ of Hamel's split"
    /// The mass matrix.
    mass_matrix() "run.what.mass-matrix" "the mass matrix"
    /// The constraint matrix of Voronets' equations.
    redundant_a() "run.what.redundant-a" "A (the constraints are redundant)"
    /// The Newton matrix of the structure-preserving step.
    newton_matrix() "run.what.newton-matrix" "the structure-preserving step's Newton matrix"
    /// The saddle-point matrix of Lagrange's equations.
    lagrange_matrix() "run.what.lagrange-matrix" "the matrix [[M, −Aᵀ], [A, 0]] of Lagrange's equations"
    /// … of the Euler-condition equations.
    euler_matrix() "run.what.euler-matrix" "the matrix [[M, −Rᵀ], [A, 0]] of the Euler-condition equations"
    /// … of the vakonomic equations.
    vakonomic_matrix() "run.what.vakonomic-matrix" "the matrix [[M_v, C], [A, 0]] of the vakonomic equations"
    /// The constraints may be inconsistent.
    may_be_inconsistent() "run.hint.may-be-inconsistent" "; the constraints may be inconsistent"
    /// The constraints are inconsistent.
    are_inconsistent() "run.hint.inconsistent" "; the constraints are inconsistent"
    /// The E-vector undefined.
    no_e_vector() "run.hint.no-e-vector" "; the E-vector is not defined for this split here"
    /// Another split needed.
    choose_dependent() "run.hint.choose-dependent"
        "; the dependent coordinates cannot be solved for here: choose others in [hamel] dependent"
    /// Redundant constraints or a large step.
    redundant_or_large_step() "run.hint.redundant-or-large-step" "; the constraints may be redundant, or the step too large"
    /// Redundant constraints.
    redundant_here() "run.hint.redundant-here" "; the constraints are redundant here"
}

#[cfg(test)]
mod tests {
    use crate::integrators::IntegrationError;
    use crate::mechanics::{DynamicsError, SingularHint, SingularMatrix};
    use alloc::string::ToString;

    /// Every reason a run stops is said by an id with only the id's own parameters
    /// (its English, which is what `Display` writes, is held to en.json's text by
    /// nhlab-texts' tests).
    #[test]
    fn every_failure_is_said_by_a_well_formed_id() {
        let d = |e: DynamicsError| IntegrationError::System(e);
        let failures = [
            IntegrationError::StepSizeCollapse { t: 1.5, h: 1e-14 },
            IntegrationError::NoProgress { t: 2.0, dt: 1e-300 },
            IntegrationError::Stalled { t: 3.0, steps: 1000, advanced: 1e-9 },
            IntegrationError::TooLong { t: 1.0, t_end: 1e300, steps: 1000, advanced: 10.0, needed: 1e299 },
            IntegrationError::Limit { t: 4.0, what: "steps", limit: 100 },
            IntegrationError::Limit { t: 4.0, what: "samples", limit: 200 },
            IntegrationError::Interrupted { t: 5.0 },
            IntegrationError::NonFinite { t: 6.0 },
            IntegrationError::StepTooSmall { dt: 1e-300, t_end: 10.0, needed: 1e301, limit: 20_000_000 },
            IntegrationError::Unstable {
                dt: 1.5,
                instability: crate::integrators::Instability {
                    t: 7.5,
                    from: 3.0,
                    growth: 3.3e9,
                    steps: 3,
                    omega: 2.31,
                    limit: 0.86,
                    suggested: 0.08,
                },
            },
            d(DynamicsError::NonFinite { what: super::mass_entry("x", "y"), t: 0.25 }),
            d(DynamicsError::NonFinite { what: super::energy(), t: 0.25 }),
            d(DynamicsError::Singular { what: SingularMatrix::HamelSplit, t: 1.0, hint: SingularHint::NoEVector }),
            d(DynamicsError::Singular {
                what: SingularMatrix::Symbol("A M⁻¹ Aᵀ"), t: 1.0, hint: SingularHint::None
            }),
            d(DynamicsError::Singular { what: SingularMatrix::Mass, t: 1.0, hint: SingularHint::RedundantHere }),
            d(DynamicsError::Singular {
                what: SingularMatrix::LagrangeSaddle,
                t: 1.0,
                hint: SingularHint::MayBeInconsistent,
            }),
            d(DynamicsError::Singular { what: SingularMatrix::EulerSaddle, t: 1.0, hint: SingularHint::None }),
            d(DynamicsError::Singular { what: SingularMatrix::VakonomicSaddle, t: 1.0, hint: SingularHint::None }),
            d(DynamicsError::Singular {
                what: SingularMatrix::RedundantA,
                t: 1.0,
                hint: SingularHint::ChooseDependent,
            }),
            d(DynamicsError::Singular {
                what: SingularMatrix::Newton,
                t: 1.0,
                hint: SingularHint::RedundantOrLargeStep,
            }),
            d(DynamicsError::Singular { what: SingularMatrix::Symbol("A"), t: 1.0, hint: SingularHint::Inconsistent }),
            d(DynamicsError::Inconsistent { rows: alloc::vec![0, 2], t: 1.0 }),
            d(DynamicsError::NotPositiveDefinite { t: 1.0 }),
            d(DynamicsError::NotConverged { t: 1.0, h: 0.01, iterations: 50 }),
            d(DynamicsError::Unsupported(crate::message::phrase::verbatim("the reason"))),
        ];
        for e in &failures {
            let m = crate::simulation::failure(e);
            assert!(m.well_formed(), "{m:?}");
        }
        // A matrix's symbol is said as written; a known name and hint by their phrases.
        let mass = |e: &&IntegrationError<DynamicsError>| {
            matches!(e, IntegrationError::System(DynamicsError::Singular { what: SingularMatrix::Mass, .. }))
        };
        let m = crate::simulation::failure(failures.iter().find(mass).expect("the mass matrix's failure"));
        assert_eq!(
            m.parts.iter().map(|(_, p)| p.id).collect::<alloc::vec::Vec<_>>(),
            ["run.what.mass-matrix", "run.hint.redundant-here"]
        );
    }

    /// So are the two ways compiling a model can fail (internal limits the page
    /// shows under the editor), with the names they are about.
    #[test]
    fn compile_errors_are_said_by_well_formed_ids() {
        use crate::expr::CompileError;
        for e in [CompileError::UnboundSymbol("x".into()), CompileError::UndefinedDefinition("d".into())] {
            let m = e.message();
            assert!(m.id.starts_with("problem.compile.") && m.well_formed(), "{m:?}");
        }
        assert_eq!(
            CompileError::UnboundSymbol("x".into()).to_string(),
            "`x` is used but is not an input of the compiled function"
        );
        assert_eq!(CompileError::UndefinedDefinition("d".into()).to_string(), "the definition `d` has no body");
    }

    /// And why a method has no equations to show.
    #[test]
    fn derivation_errors_say_what_display_writes() {
        use crate::derivation::DerivationError;
        let reasons = [
            super::too_large_to_print(200_001, 200_000),
            super::vakonomic_not_built(),
            crate::mechanics::VakonomicError::NotDerived.message(),
        ];
        for reason in reasons {
            let e = DerivationError { method: "vakonomic", reason };
            assert_eq!(e.message().english, e.to_string());
            assert!(e.message().well_formed(), "{:?}", e.message());
        }
        assert_eq!(
            crate::mechanics::VakonomicError::NotDerived.to_string(),
            "not derived: the model was built without them (build it with `Needs` that include the vakonomic method)"
        );
    }
}
