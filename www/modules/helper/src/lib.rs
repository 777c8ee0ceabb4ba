//! The helper worker's WebAssembly module: every method's equations, stability sweeps,
//! code export and the long run (`nhlab_www` with its feature `helper`; Trunk builds it
//! from index.html).
//!
//! The exports are `nhlab_www::api`'s: linking the crate is all this crate does.

pub use nhlab_www::api;
