//! # nhlab — solver core
//!
//! The core of nhlab, a lab for constrained and nonholonomic analytical mechanics.
//! It turns what a person types (coordinates, kinetic energy, constraints) into exact
//! symbolic derivatives, readable equations and fast compiled evaluators.
//!
//! Layers, each depending only on the ones before it (and on the leaves beneath
//! them all: [`math`], float functions and the linear algebra; [`limits`], the sizes
//! the lab supports; [`suggest`], "did you mean"; and [`message`], the words a user
//! reads, with their ids). `tests/architecture/main.rs` holds every `crate::` path to
//! this order:
//!
//! 1. [`expr`] — the expression engine: parsing, a hash-consed expression graph kept
//!    in canonical form, differentiation, printing (text, LaTeX, MathML) and
//!    compilation to straight-line code run by a small interpreter.
//! 2. [`scenario`] — the `nhlab/1` format: TOML and JSON, with field positions, and
//!    the choices it names by id (methods, integrators, drift control) typed once.
//! 3. [`mechanics`] — a validated model: constraints classified, `M q̈ = F` derived,
//!    what it draws built, everything compiled for numbers.
//! 4. [`formulations`] — the methods, each giving accelerations at a state.
//! 5. [`integrators`] — RK4 and Dormand–Prince 5(4) with dense output.
//! 6. [`simulation`] — stepping a model under a method, with drift control and
//!    what each sample records.
//!
//! On top of them, [`prepare`] goes from text to a compiled model with its initial
//! state, [`stability`] linearises, [`derivation`] assembles the equations of a
//! method for display, [`view`] evaluates what a scenario asks to plot, [`scene`]
//! poses what it draws at a state and projects it by a camera, and [`export`] writes
//! samples as the CSV and JSON tables of `nhlab run`. The command line and the web
//! lab share all of them, so both show and write the same numbers.
//!
//! From scenario text to a run, with the types most work needs re-exported here:
//!
//! ```
//! use nhlab::{Format, Method, Prepared, Settings, Simulation};
//!
//! // A Chaplygin sleigh: a knife edge at (x, y) that cannot slide sideways.
//! let text = r#"
//! format = "nhlab/1"
//! title = "Chaplygin sleigh"
//! coordinates = ["x", "y", "phi"]
//! kinetic = "m/2*((x' - a*phi'*sin(phi))^2 + (y' + a*phi'*cos(phi))^2) + I/2*phi'^2"
//! parameters = { m = 1.0, a = 0.5, I = 0.2 }
//! [[constraints]]
//! name = "edge"
//! expr = "-x'*sin(phi) + y'*cos(phi)"
//! [initial]
//! q = { x = 0, y = 0, phi = 0 }
//! v = { x = 1, phi = 1 }
//! "#;
//! let prepared = Prepared::from_text(text, Format::Toml).expect("a valid scenario");
//! // `y'` was left out: the constraint gave it.
//! assert_eq!(prepared.initial.v.len(), 3);
//! let settings = Settings::from_scenario(&prepared.model.scenario.run, Method::Lagrange);
//! let mut run = Simulation::new(prepared.numeric, settings, &prepared.initial).expect("starts");
//! run.advance_to(5.0).expect("runs");
//! let (first, last) = (run.samples().get(0).unwrap(), run.samples().last().unwrap());
//! // The constraint holds and the energy is kept, to the integrator's tolerance.
//! assert!(last.residuals[0].abs() < 1e-6);
//! assert!((last.energy - first.energy).abs() < 1e-6 * first.energy);
//! ```
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

pub mod code_export;
pub mod derivation;
pub mod export;
pub mod expr;
pub mod formulations;
pub mod integrators;
pub mod limits;
pub mod math;
pub mod mechanics;
pub mod message;
pub mod prepare;
pub mod scenario;
pub mod scene;
pub mod simulation;
pub mod stability;
pub mod suggest;
pub mod view;

pub use formulations::Method;
pub use mechanics::{Model, NumericModel};
pub use prepare::Prepared;
pub use scenario::{format_of, load, Format, Problems, Scenario};
pub use simulation::{Settings, Simulation, State};
