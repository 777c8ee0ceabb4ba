//! # nhlab — solver core
//!
//! The core of nhlab, a lab for constrained and nonholonomic analytical mechanics.
//! It turns what a person types (coordinates, kinetic energy, constraints) into exact
//! symbolic derivatives, readable equations and fast compiled evaluators.
//!
//! Layers, each depending only on the ones before it:
//!
//! 1. [`expr`] — the expression engine: parsing, a hash-consed expression graph kept
//!    in canonical form, differentiation, printing (text, LaTeX, MathML) and
//!    compilation to straight-line code run by a small interpreter.
//! 2. [`scenario`] — the `nhlab/1` format: TOML and JSON, with field positions.
//! 3. [`mechanics`] — a validated model: constraints classified, `M q̈ = F` derived,
//!    everything compiled for numbers.
//! 4. [`formulations`] — the methods, each giving accelerations at a state.
//! 5. [`integrators`] — RK4 and Dormand–Prince 5(4) with dense output.
//! 6. [`simulation`] — stepping a model under a method, with drift control.
//!
//! Beside them, [`derivation`] assembles the equations of a method for display,
//! [`view`] evaluates what a scenario asks to plot, [`scene`] what it draws (the
//! system itself, posed at a state and projected by a camera), and [`export`] writes
//! samples as the CSV and JSON tables of `nhlab run`. The command line and the web lab
//! share all four, so both show and write the same numbers.
//!
//! The crate is `#![no_std]` with `alloc` so that it builds for
//! `wasm32-unknown-unknown`; the default `std` feature only makes the float functions
//! use the platform's implementations instead of `libm`.
#![no_std]
#![warn(missing_docs)]
#![forbid(unsafe_code)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod derivation;
pub mod export;
pub mod expr;
pub mod formulations;
pub mod integrators;
pub mod limits;
pub mod math;
pub mod mechanics;
pub mod prepare;
pub mod scenario;
pub mod scene;
pub mod simulation;
pub mod stability;
pub mod view;
