//! Layer 2: the mechanical model. A validated [`Model`] holds the scenario's
//! expressions in one graph, its classified [`Constraint`]s and the derived
//! [`EquationsOfMotion`]; a [`NumericModel`] evaluates all of it at a state.

mod bodies;
mod constraint;
mod energy;
mod equations;
mod euler;
mod hamel;
mod model;
mod numeric;
mod vakonomic;

pub(crate) use bodies::suggestion;
pub use bodies::{INERTIAL_FRAME, MAX_FRAMES, MAX_ROTATIONS, MAX_ROTATIONS_TOTAL, ORIGIN};
pub use constraint::{Constraint, ConstraintKind};
pub use energy::energy_changes;
pub use equations::{EquationsOfMotion, ParticleTerms};
pub use euler::{reaction_row, ReactionRow};
pub use hamel::{best_split, choose_dependent, independent_rows, HamelSplit, SplitError};
pub(crate) use model::Checker;
pub use model::{fill_state_inputs, Model, Needs, Parameter};
pub use numeric::{
    DynamicsError, HamelTerms, NumericModel, Terms, VakonomicTerms, MAX_COMPILED_DIAGNOSTICS, MAX_COMPILED_INSTRUCTIONS,
};
pub use vakonomic::{VakonomicEquations, VakonomicError};
