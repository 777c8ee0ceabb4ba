//! One module per command.

pub mod check;
pub mod derive;
pub mod ensemble;
pub mod eval;
pub mod export;
pub mod linearize;
pub mod prepared_map;
pub mod run;
pub mod stability_map;
