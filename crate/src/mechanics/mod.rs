//! Layer 3: the mechanical model. A validated [`Model`] holds the scenario's
//! expressions in one graph, its classified [`Constraint`]s and the derived
//! [`EquationsOfMotion`]; a [`NumericModel`] evaluates all of it at a state.

mod base;
mod bodies;
mod checker;
mod checks;
mod constraint;
pub mod energy;
mod equations;
mod euler;
mod hamel;
mod model;
mod numeric;
pub(crate) mod scene;
mod vakonomic;

pub use crate::math::{best_split, independent_rows};
pub use base::{Base, Parameter};
pub use bodies::{
    BodyTerm, ContactTerm, ContactTerms, SourceKind, Wrench, INERTIAL_FRAME, MAX_FRAMES, MAX_ROTATIONS,
    MAX_ROTATIONS_TOTAL, ORIGIN,
};
pub(crate) use checker::Checker;
pub use constraint::{Constraint, ConstraintKind};
pub use energy::{energy_changes, energy_form, inputs_that_work, EnergyChange, EnergyForm};
pub use equations::{EquationsOfMotion, ParticleTerms};
pub use euler::{reaction_row, ReactionRow};
pub(crate) use hamel::regularity::{
    split_is_regular_by_elimination, split_is_regular_rows, split_rows, split_rows_of_numbers, split_shortcut,
};
pub use hamel::{choose_dependent, HamelSplit, SplitError};
pub use model::{fill_state_inputs, Model, Needs};
pub(crate) use numeric::{as_written, dynamics_outputs, fill_row_major, main_outputs};
pub use numeric::{
    contact_columns_fail, discrete_applicability, ContactForce, ContactForces, ContactInfo, ContactState,
    DiscreteLayout, DiscreteTerms, DynamicsError, HamelLayout, HamelTerms, InputLayout, NumericModel, OutputLayout,
    SingularHint, SingularMatrix, TailLayout, Terms, Unbalanced, VakonomicTerms, CONTACT_COLUMNS,
    CONTACT_COLUMN_PREFIXES,
};
pub use vakonomic::{VakonomicEquations, VakonomicError};
