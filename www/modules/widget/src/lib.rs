//! The notebook widget's WebAssembly module (python/nhlab/widget): the exports of
//! all three of the page's modules in one (`nhlab_www` with its features `page`,
//! `runner` and `helper`). One module serves the widget's page, its runner and its
//! helper: the widget carries it inside its one ES module, and three modules would
//! carry the core three times.

pub use nhlab_www::api;
