//! The wasm boundary: a small `#[wasm_bindgen]` surface over the crate. Every export
//! returns a `Result` whose error is a readable message (with line and column for
//! scenario problems); nothing here unwraps, and the panic hook (lib.rs) turns any
//! bug into a console message instead of a silent trap.
//!
//! In three parts, by where they run: [`text`] (the gallery, the Help, share links,
//! edits of the scenario's text: anywhere), [`worker`] ([`worker::WebLab`], the
//! runner's lab, and the helper's derivations, sweeps and exports) and [`page`]
//! ([`page::WebDisplay`], what the page keeps and draws).

pub mod page;
pub mod text;
pub mod worker;

use wasm_bindgen::prelude::*;

use nhlab::formulations::Method;

fn to_js<T: serde::Serialize>(value: &T) -> Result<JsValue, JsError> {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| JsError::new(&e.to_string()))
}

fn method(id: &str) -> Result<Method, JsError> {
    Method::from_id(id).ok_or_else(|| JsError::new(&format!("unknown method `{id}`")))
}

/// This instance's compiled `WebAssembly.Module`: the page hands it to its workers,
/// so the module is compiled once (compiling it again for the workers took ~200 ms
/// of an embed's first frame, on the critical path).
#[wasm_bindgen]
pub fn compiled_module() -> JsValue {
    wasm_bindgen::module()
}

/// For the browser tests only: panics on purpose, so that they can prove that a trap
/// — in the worker or on the page — never poisons the page (the instance that
/// trapped is replaced and the last good scenario reloaded).
#[wasm_bindgen]
pub fn self_test_trap() {
    panic!("self-test trap (the browser tests call this on purpose)");
}
