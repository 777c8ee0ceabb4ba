//! # nhlab-www — the web lab
//!
//! The page (`index.html`, the modules of `www/app/`) wires the DOM; this crate does
//! everything else, over the core:
//!
//! - [`lab`]: a scenario and one run per method, stepped towards a display clock
//!   exactly as `nhlab run` steps (plain Rust, tested natively); it lives in the
//!   runner worker and records each sample as a flat row of [`rows::RowFormat`];
//! - [`layout`]: what the worker tells the page of a scenario once (labels, panels,
//!   the runs, the rows' shape); [`display`]: the page's copy of the rows, as
//!   [`rows::Columns`], all that drawing reads;
//! - [`panels`]: the plots' decimated lines and axes;
//! - [`edit`]: in-place edits of the scenario's TOML (sliders, fields, menus);
//! - [`gallery`]: every file of `scenarios/`, embedded at build time;
//! - [`kernel`]: Lagrange's right-hand side compiled to a WebAssembly module;
//! - [`stability`]: the stability panel's sweep (the scenario's `[stability]`);
//! - [`i18n`]: the texts made here in the page's language (English, Chinese);
//! - [`api`]: the `#[wasm_bindgen]` surface, in parts by module: the features
//!   `page`, `runner` and `helper` choose which part a module exports, and the
//!   crates of `www/modules/` build the three modules, one feature each.

pub mod api;
pub mod describe;
pub mod display;
pub mod edit;
pub mod gallery;
pub use nhlab_texts::i18n;
pub mod kernel;
pub mod lab;
pub mod layout;
pub mod long_run;
pub mod panels;
#[cfg(test)]
mod robustness;
pub mod rows;
pub mod scene;
pub mod stability;
pub mod stability_map;

use wasm_bindgen::prelude::*;

/// Runs once when the module loads: a panic (a bug) reaches the console with its
/// message instead of an opaque `unreachable` trap.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}
