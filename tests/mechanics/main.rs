//! Integration tests of the mechanics: scenarios, formulations, integrators and
//! simulation, against closed forms, invariants and each other.

mod closed_forms;
