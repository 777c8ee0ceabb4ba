//! The page's work on text: the gallery, the Help, share links, and edits of the
//! scenario's TOML that keep the rest. In the page's module (feature `page`).

use wasm_bindgen::prelude::*;

use nhlab::formulations::Method;
use nhlab::scenario::{encode_share_text, share_text, Problem, Problems, SHARE_LINK_FIELD};

use super::to_js;
use crate::edit::{self, Edit};
use crate::{gallery, i18n};

/// The gallery's cards: `[{name, title, description, source, group}]`, `group` an id
/// (`classic`, `paper000`, …) the page names in its language.
#[wasm_bindgen]
pub fn gallery_entries() -> Result<JsValue, JsError> {
    to_js(&gallery::entries())
}

/// The TOML text of gallery item `name`.
#[wasm_bindgen]
pub fn gallery_text(name: &str) -> Result<String, JsError> {
    gallery::text(name).map(str::to_string).ok_or_else(|| JsError::new(&format!("no gallery item `{name}`")))
}

/// Whether `text` says of itself what gallery item `name` says (its title,
/// description and hint), so that the item's translation still stands for it,
/// whatever values were changed.
#[wasm_bindgen]
pub fn gallery_words_stand(text: &str, name: &str) -> bool {
    gallery::text(name).is_some_and(|own| edit::same_words(text, own))
}

/// The page's Help as HTML, rendered at build time from the project's own documents:
/// `reference` (docs/reference.md, the format and the command line),
/// `first-system` (docs/first-system.md, the guided example) or `lab`
/// (docs/lab.md, the page and the command line feature by feature).
/// In `language` `zh` the Chinese documents (docs/zh/), whose reference introduces
/// the English one, shown after it.
#[wasm_bindgen]
pub fn help_html(name: &str, language: &str) -> Result<String, JsError> {
    let english = match name {
        "reference" => include_str!(concat!(env!("OUT_DIR"), "/reference.html")),
        "first-system" => include_str!(concat!(env!("OUT_DIR"), "/first-system.html")),
        "lab" => include_str!(concat!(env!("OUT_DIR"), "/lab.html")),
        _ => return Err(JsError::new(&format!("no help page `{name}`"))),
    };
    if i18n::Language::from_id(language) != Some(i18n::Language::Zh) {
        return Ok(english.into());
    }
    Ok(match name {
        "reference" => format!(
            "{}<hr><div lang=\"en\">{english}</div>",
            include_str!(concat!(env!("OUT_DIR"), "/zh-reference.html"))
        ),
        "first-system" => include_str!(concat!(env!("OUT_DIR"), "/zh-first-system.html")).into(),
        _ => include_str!(concat!(env!("OUT_DIR"), "/zh-lab.html")).into(),
    })
}

/// The gallery item the page opens on.
#[wasm_bindgen]
pub fn gallery_default() -> String {
    gallery::DEFAULT.to_string()
}

/// The share payload (`#s=`) of the scenario's text as written; the error says why
/// it cannot be a link (too long).
#[wasm_bindgen]
pub fn share_payload(text: &str) -> Result<String, JsError> {
    encode_share_text(text).map_err(|e| JsError::new(&i18n::message(&e)))
}

/// The scenario of a share payload (`#s=<payload>`) as text for the editor: the
/// author's text as written, or (a link of the first version) the scenario as TOML.
#[wasm_bindgen]
pub fn share_to_toml(payload: &str) -> Result<String, JsError> {
    share_text(payload).map_err(|p| JsError::new(&i18n::tr("share.invalid", &[("why", &said(&p))])))
}

/// A link's problems in the page's language, one a line: the link's own as they are,
/// those of the scenario inside it after their field.
fn said(problems: &Problems) -> String {
    let line = |p: &Problem| {
        let message = i18n::problem(p);
        if p.field == SHARE_LINK_FIELD {
            message
        } else {
            format!("{}: {message}", p.field)
        }
    };
    problems.0.iter().map(line).collect::<Vec<_>>().join("\n")
}

/// Sets a number at a dotted path of the TOML text (`parameters.m`), keeping the rest.
#[wasm_bindgen]
pub fn edit_number(text: &str, path: &str, value: f64) -> Result<String, JsError> {
    edit::apply(text, path, Edit::Number(value)).map_err(|e| JsError::new(&e))
}

/// Sets a string at a dotted path (`run.integrator`).
#[wasm_bindgen]
pub fn edit_text(text: &str, path: &str, value: &str) -> Result<String, JsError> {
    edit::apply(text, path, Edit::Text(value)).map_err(|e| JsError::new(&e))
}

/// Sets a list of strings at a dotted path (`run.methods`).
#[wasm_bindgen]
pub fn edit_list(text: &str, path: &str, values: Vec<String>) -> Result<String, JsError> {
    edit::apply(text, path, Edit::List(&values)).map_err(|e| JsError::new(&e))
}

/// Adds a parameter set to `[compare]` with the text's parameter values now:
/// `{text, name}`.
#[wasm_bindgen]
pub fn keep_parameters(text: &str) -> Result<JsValue, JsError> {
    let (text, name) = edit::keep_parameters(text).map_err(|e| JsError::new(&e))?;
    #[derive(serde::Serialize)]
    struct Kept {
        text: String,
        name: String,
    }
    to_js(&Kept { text, name })
}

/// Removes the key at a dotted path (`initial.v.x`: solved from the constraints).
#[wasm_bindgen]
pub fn edit_remove(text: &str, path: &str) -> Result<String, JsError> {
    edit::apply(text, path, Edit::Remove).map_err(|e| JsError::new(&e))
}

/// Every method: `[{id, colour, mark}]`, in the order of `Method::ALL`.
#[wasm_bindgen]
pub fn methods() -> Result<JsValue, JsError> {
    #[derive(serde::Serialize)]
    struct M {
        id: &'static str,
        colour: String,
        mark: char,
    }
    let all =
        Method::ALL.iter().map(|&m| M { id: m.id(), colour: nhlab_plots::css_colour(m), mark: nhlab_plots::mark(m) });
    to_js(&all.collect::<Vec<_>>())
}
