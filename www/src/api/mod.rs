//! The wasm boundary: a small `#[wasm_bindgen]` surface over the crate. Every export
//! returns a `Result` whose error is a readable message (with line and column for
//! scenario problems); nothing here unwraps, and the panic hook (lib.rs) turns any
//! bug into a console message instead of a silent trap.
//!
//! The lab is three WebAssembly modules, one per place it runs, so that each loads
//! only what it uses (an embed's first frame waits for two of them, never the third).
//! A module is a cdylib crate of `www/modules/` that turns on one feature of this
//! crate, and with it one part of this surface:
//!
//! - `page` ([`page`], [`text`]): [`page::WebDisplay`], what the page keeps and
//!   draws, the gallery, the Help, share links and edits of the scenario's text;
//! - `runner` ([`runner`] and [`playback`]): [`runner::WebLab`], the scenario that
//!   plays, and what it sends the page;
//! - `helper` ([`runner`] and [`helper`]): every method's equations, stability
//!   sweeps, exports, a run's CSV and the long run.
//!
//! The exports here ([`set_language`], [`self_test_trap`]) are in all three.

#[cfg(feature = "helper")]
pub mod helper;
#[cfg(feature = "page")]
pub mod page;
#[cfg(feature = "runner")]
pub mod playback;
#[cfg(any(feature = "runner", feature = "helper"))]
pub mod runner;
#[cfg(feature = "page")]
pub mod text;

use wasm_bindgen::prelude::*;

use crate::i18n;

#[cfg(any(feature = "runner", feature = "helper", feature = "page"))]
fn to_js<T: serde::Serialize>(value: &T) -> Result<JsValue, JsError> {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).map_err(|e| JsError::new(&e.to_string()))
}

#[cfg(any(feature = "helper", feature = "page"))]
fn method(id: &str) -> Result<nhlab::formulations::Method, JsError> {
    nhlab::formulations::Method::from_id(id).ok_or_else(|| JsError::new(&format!("unknown method `{id}`")))
}

/// Makes the texts this module makes from now on (panel titles and notes, plot
/// descriptions, why a run ended) in `language`: `en` or `zh`.
#[wasm_bindgen]
pub fn set_language(language: &str) -> Result<(), JsError> {
    let chosen = i18n::Language::from_id(language).ok_or_else(|| JsError::new(&format!("no language `{language}`")))?;
    i18n::set(chosen);
    Ok(())
}

/// A name the page shows (a body, a contact, an input's label, a constraint's) in
/// the language of [`set_language`] (see [`i18n::name`]).
#[wasm_bindgen]
pub fn display_name(name: &str) -> String {
    i18n::name(name)
}

/// For the browser tests only: panics on purpose, so that they can prove that a trap
/// — in the worker or on the page — never poisons the page (the instance that
/// trapped is replaced and the last good scenario reloaded).
#[wasm_bindgen]
pub fn self_test_trap() {
    panic!("self-test trap (the browser tests call this on purpose)");
}
