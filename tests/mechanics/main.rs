//! Integration tests of the mechanics: scenarios, formulations, integrators and
//! simulation, against closed forms, invariants and each other.

mod agreement;
mod bicycle;
mod bodies;
mod body_gallery;
mod closed_forms;
mod code_export;
mod contact_forces;
mod derivation;
mod drift;
mod energy_label;
mod fast_lagrange;
mod first_system;
mod hamel;
mod inputs;
mod integrators;
mod json_reader;
mod lazy;
mod native;
mod papers;
mod printed_equations;
mod redundant;
mod rotating_bodies;
mod sampling;
mod scenario_errors;
mod scene;
mod share;
mod stability;
mod stability_map;
mod structure_preserving;
mod vakonomic;
mod vectors;
mod wasm_kernel;
