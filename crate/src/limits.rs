//! The sizes the lab supports, checked before anything is derived, so that no
//! scenario — typed, from a file, or from a stranger's link — can make a derivation
//! run for minutes or exhaust memory. Each is far above what the gallery needs and
//! documented in `docs/reference.md`; beyond it a scenario is refused with a message
//! at the field.
//!
//! They are set where a model at the limit still derives in about a second natively
//! (`docs/benchmarks.md` has the measurements), while the cost grows faster than the
//! size past them.

/// Most bytes of scenario text (TOML or JSON) read.
pub const MAX_SCENARIO_BYTES: usize = 1024 * 1024;

/// Most generalised coordinates.
pub const MAX_COORDINATES: usize = 200;

/// Most constraints.
pub const MAX_CONSTRAINTS: usize = 200;

/// Most variable-mass particles.
pub const MAX_PARTICLES: usize = 200;

/// Most definitions (chains of definitions are also limited in depth: 32).
pub const MAX_DEFINITIONS: usize = 1000;

/// Most `[inputs]`: each is a live control on the page and a column of `B`.
pub const MAX_INPUTS: usize = 32;

/// Most `view.series`.
pub const MAX_SERIES: usize = 32;
