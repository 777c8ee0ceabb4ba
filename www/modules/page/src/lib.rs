//! The page's WebAssembly module: what the page keeps and draws, the gallery, the Help,
//! share links and edits of the scenario's text (`nhlab_www` with its feature `page`;
//! Trunk builds it from index.html).
//!
//! The exports are `nhlab_www::api`'s: linking the crate is all this crate does.

pub use nhlab_www::api;
