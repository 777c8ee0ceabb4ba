//! Share URLs: a scenario in the URL fragment, `#s=<payload>`, so nothing reaches a
//! server. The payload is a version mark, a dot, and the raw-deflated data in
//! base64url without padding:
//!
//! - `2.`: the scenario's text as its author wrote it (TOML, or JSON when it starts
//!   with `{`), comments, order and number spellings included: the opened page shows
//!   exactly what was shared. What the page writes.
//! - `1.`: the scenario as compact JSON (what the page wrote before; still read, and
//!   shown in the editor as TOML).
//!
//! A payload comes from whoever sent the link: decoding bounds every size (the
//! payload's length and the inflated size, against deflate bombs), reports what is
//! wrong in words, and hands the text to the ordinary loader, so a shared scenario
//! is validated exactly like a file.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use base64::Engine;

use super::{load, Format, Problem, Problems, Scenario, SourceMap};
use crate::message::{share as says, Message};

/// The payload version the page writes: the author's text.
pub const SHARE_VERSION: &str = "2";
/// The earlier version, the scenario as JSON: still read.
pub const SHARE_VERSION_JSON: &str = "1";
/// Longest payload accepted, in characters (browsers keep far longer URLs, but no
/// real scenario comes near this).
pub const MAX_PAYLOAD_CHARS: usize = 64 * 1024;
/// Largest inflated scenario accepted, in bytes.
pub const MAX_INFLATED_BYTES: usize = 1024 * 1024;

const ENGINE: base64::engine::GeneralPurpose = base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// The share payload (the part after `#s=`) of a scenario's text as written: the
/// version-2 form, which the page makes.
pub fn encode_share_text(text: &str) -> Result<String, Message> {
    pack(SHARE_VERSION, text)
}

/// The share payload of a scenario in its canonical JSON form (version 1): for a
/// scenario that has no text of its own.
pub fn encode_share(scenario: &Scenario) -> Result<String, Message> {
    let json = scenario.to_json().map_err(says::cannot_encode)?;
    pack(SHARE_VERSION_JSON, &json)
}

fn pack(version: &str, text: &str) -> Result<String, Message> {
    if text.len() > MAX_INFLATED_BYTES {
        return Err(says::too_large_bytes(text.len(), MAX_INFLATED_BYTES));
    }
    let deflated = miniz_oxide::deflate::compress_to_vec(text.as_bytes(), 9);
    let payload = format!("{version}.{}", ENGINE.encode(deflated));
    // One limit, checked when the link is made: a link the page would refuse to open
    // is never made.
    if payload.len() > MAX_PAYLOAD_CHARS {
        return Err(says::too_large_characters(payload.len(), MAX_PAYLOAD_CHARS));
    }
    Ok(payload)
}

/// The field a link's own problems are placed at.
pub const SHARE_LINK_FIELD: &str = "(share link)";

fn refuse(message: Message) -> Problems {
    Problems(vec![Problem::said(SHARE_LINK_FIELD, None, message)])
}

/// What a payload holds: the author's text (version 2) or the scenario's JSON
/// (version 1).
enum Unpacked {
    Text(String),
    Json(String),
}

fn unpack(payload: &str) -> Result<Unpacked, Problems> {
    let payload = payload.trim();
    if payload.len() > MAX_PAYLOAD_CHARS {
        return Err(refuse(says::link_too_long(payload.len(), MAX_PAYLOAD_CHARS)));
    }
    let Some((version, data)) = payload.split_once('.') else {
        return Err(refuse(says::no_version()));
    };
    if version != SHARE_VERSION && version != SHARE_VERSION_JSON {
        return Err(refuse(says::unknown_version(version.chars().take(8).collect::<String>())));
    }
    if let Some((i, c)) = data.char_indices().find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '-' || c == '_')) {
        return Err(refuse(says::bad_character(c.escape_debug(), i + version.len() + 2)));
    }
    let deflated = ENGINE.decode(data).map_err(|_| refuse(says::does_not_decode()))?;
    let bytes = miniz_oxide::inflate::decompress_to_vec_with_limit(&deflated, MAX_INFLATED_BYTES).map_err(|e| {
        refuse(match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => says::unpacks_too_large(MAX_INFLATED_BYTES),
            _ => says::does_not_unpack(),
        })
    })?;
    let text = String::from_utf8(bytes).map_err(|_| refuse(says::not_text()))?;
    Ok(if version == SHARE_VERSION { Unpacked::Text(text) } else { Unpacked::Json(text) })
}

/// The scenario in a share payload, or what is wrong with it. Problems inside the
/// scenario are reported as for a file (a version-1 link's as for JSON: field paths,
/// no line numbers).
pub fn decode_share(payload: &str) -> Result<(Scenario, SourceMap), Problems> {
    match unpack(payload)? {
        Unpacked::Text(text) => load(&text, super::format_of(&text)),
        Unpacked::Json(json) => load(&json, Format::Json),
    }
}

/// The text to put in the editor for a share payload: the author's text itself
/// (version 2; not checked here, the editor's load reports its problems with their
/// lines), or a version-1 scenario written out as TOML.
pub fn share_text(payload: &str) -> Result<String, Problems> {
    match unpack(payload)? {
        Unpacked::Text(text) => Ok(text),
        Unpacked::Json(json) => {
            let scenario = super::load::load_lab_json(&json)?;
            scenario.to_toml().map_err(|e| refuse(says::cannot_show(e)))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn round_trip_and_refusals() {
        let mut s = Scenario { format: "nhlab/1".into(), title: "t".into(), ..Scenario::default() };
        s.coordinates.push("x".into());
        let payload = encode_share(&s).unwrap();
        assert!(payload.starts_with("1."));
        assert_eq!(decode_share(&payload).unwrap().0, s);
        assert!(decode_share("3.abc").unwrap_err().to_string().contains("unknown version"));
        assert!(decode_share("abc").unwrap_err().to_string().contains("no version mark"));
        // The author's text comes back byte for byte.
        let text = "# a comment\nformat = \"nhlab/1\"\ntitle = \"t\"  # kept\ncoordinates = [\"x\"]\n";
        let payload = encode_share_text(text).unwrap();
        assert!(payload.starts_with("2."));
        assert_eq!(share_text(&payload).unwrap(), text);
        assert_eq!(decode_share(&payload).unwrap().0, s);
        assert!(decode_share("1.ab<cd").unwrap_err().to_string().contains("`<` at character 5"));
    }
}
