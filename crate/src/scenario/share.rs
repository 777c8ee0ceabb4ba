//! Share URLs: a scenario in the URL fragment, `#s=<payload>`, so nothing reaches a
//! server. The payload is `1.` (the payload version) followed by the compact JSON of
//! the scenario, raw-deflated and base64url-encoded without padding.
//!
//! A payload comes from whoever sent the link: decoding bounds every size (the
//! payload's length and the inflated size, against deflate bombs), reports what is
//! wrong in words, and hands the JSON to the ordinary loader, so a shared scenario
//! is validated exactly like a file.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use base64::Engine;

use super::{load_json, Problem, Problems, Scenario, SourceMap};

/// The payload version this crate writes and reads.
pub const SHARE_VERSION: &str = "1";
/// Longest payload accepted, in characters (browsers keep far longer URLs, but no
/// real scenario comes near this).
pub const MAX_PAYLOAD_CHARS: usize = 64 * 1024;
/// Largest inflated scenario accepted, in bytes.
pub const MAX_INFLATED_BYTES: usize = 1024 * 1024;

const ENGINE: base64::engine::GeneralPurpose = base64::engine::general_purpose::URL_SAFE_NO_PAD;

/// The share payload of a scenario (the part after `#s=`).
pub fn encode_share(scenario: &Scenario) -> Result<String, String> {
    let json = scenario.to_json().map_err(|e| format!("cannot encode the scenario: {e}"))?;
    if json.len() > MAX_INFLATED_BYTES {
        return Err(format!(
            "the scenario is too large to share as a link ({} bytes; the limit is {MAX_INFLATED_BYTES}): export it as .toml instead",
            json.len()
        ));
    }
    let deflated = miniz_oxide::deflate::compress_to_vec(json.as_bytes(), 9);
    let payload = format!("{SHARE_VERSION}.{}", ENGINE.encode(deflated));
    // One limit, checked when the link is made: a link the page would refuse to open
    // is never made.
    if payload.len() > MAX_PAYLOAD_CHARS {
        return Err(format!(
            "the scenario is too large to share as a link ({} characters; the limit is {MAX_PAYLOAD_CHARS}): export it as .toml instead",
            payload.len()
        ));
    }
    Ok(payload)
}

fn refuse(message: String) -> Problems {
    Problems(vec![Problem { field: "(share link)".into(), position: None, message }])
}

/// The scenario in a share payload, or what is wrong with it. Problems inside the
/// scenario are reported as for a JSON file (field paths, no line numbers).
pub fn decode_share(payload: &str) -> Result<(Scenario, SourceMap), Problems> {
    let payload = payload.trim();
    if payload.len() > MAX_PAYLOAD_CHARS {
        return Err(refuse(format!(
            "the link is too long ({} characters; the limit is {MAX_PAYLOAD_CHARS})",
            payload.len()
        )));
    }
    let Some((version, data)) = payload.split_once('.') else {
        return Err(refuse("the link's scenario is not in a format this lab knows (no version mark)".into()));
    };
    if version != SHARE_VERSION {
        return Err(refuse(format!(
            "the link was made by a newer or unknown version of the lab (payload version `{}`)",
            version.chars().take(8).collect::<String>()
        )));
    }
    if let Some((i, c)) = data.char_indices().find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '-' || c == '_')) {
        return Err(refuse(format!(
            "the link is damaged: `{}` at character {} cannot appear in it",
            c.escape_debug(),
            i + version.len() + 2
        )));
    }
    let deflated = ENGINE
        .decode(data)
        .map_err(|_| refuse("the link is damaged or cut short (its data does not decode)".into()))?;
    let json = miniz_oxide::inflate::decompress_to_vec_with_limit(&deflated, MAX_INFLATED_BYTES).map_err(|e| {
        refuse(match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => {
                format!("the link's scenario is larger than {MAX_INFLATED_BYTES} bytes once unpacked")
            }
            _ => "the link is damaged or cut short (its data does not unpack)".into(),
        })
    })?;
    let text = String::from_utf8(json).map_err(|_| refuse("the link's scenario is not text".into()))?;
    load_json(&text)
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
        assert!(decode_share("2.abc").unwrap_err().to_string().contains("unknown version"));
        assert!(decode_share("abc").unwrap_err().to_string().contains("no version mark"));
        assert!(decode_share("1.ab<cd").unwrap_err().to_string().contains("`<` at character 5"));
    }
}
