//! # nhlab-www — the web lab
//!
//! The page (`index.html`, `www/app.js`) wires the DOM; this crate does everything
//! else, over the core:
//!
//! - [`lab`]: a scenario and one run per method, stepped towards a display clock
//!   exactly as `nhlab run` steps (plain Rust, tested natively);
//! - [`panels`]: which plots a scenario gets and their decimated lines;
//! - [`edit`]: in-place edits of the scenario's TOML (sliders, fields, menus);
//! - [`gallery`]: every file of `scenarios/`, embedded at build time;
//! - [`kernel`]: Lagrange's right-hand side compiled to a WebAssembly module;
//! - [`stability`]: the stability panel's sweep (the scenario's `[stability]`);
//! - [`api`]: the `#[wasm_bindgen]` surface the page calls.

pub mod api;
pub mod display;
pub mod edit;
pub mod gallery;
pub mod kernel;
pub mod lab;
pub mod panels;
#[cfg(test)]
mod robustness;
pub mod scene;
pub mod stability;

use wasm_bindgen::prelude::*;

/// Runs once when the module loads: a panic (a bug) reaches the console with its
/// message instead of an opaque `unreachable` trap.
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}
