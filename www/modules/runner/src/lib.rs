//! The runner worker's WebAssembly module: the scenario that plays and its runs
//! (`nhlab_www` with its feature `runner`; Trunk builds it from index.html).
//!
//! The exports are `nhlab_www::api`'s: linking the crate is all this crate does.

pub use nhlab_www::api;
