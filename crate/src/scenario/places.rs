//! Where each field of a scenario's text is: what the TOML and JSON readers record
//! and every positioned message reads.

use alloc::collections::BTreeMap;
use alloc::string::String;

/// What kind of value a field holds, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ValueKind {
    /// A table (TOML) or object (JSON).
    Table,
    /// An array.
    Array,
    /// A string, number or boolean.
    Scalar,
    /// JSON's `null`: the field not given, located all the same.
    Null,
}

/// Field path → (byte offset of the key, byte range of the value, its kind).
pub(crate) type Places = BTreeMap<String, (Option<usize>, core::ops::Range<usize>, ValueKind)>;

/// A child's path: `prefix.key`, the key quoted where it is not a bare key of the
/// paths' grammar (a JSON key `"run.t_end"` at the top is a field of that name,
/// unknown, not `run`'s `t_end`; issue 57).
pub(crate) fn child_path(prefix: &str, key: &str) -> String {
    let bare = !key.is_empty() && !key.contains(['.', '[', ']', '"', '\\']);
    // Quoted by hand: `{:?}` would bring Unicode's printable tables into every module.
    let key = if bare {
        String::from(key)
    } else {
        let mut quoted = String::from("\"");
        for c in key.chars() {
            if matches!(c, '"' | '\\') {
                quoted.push('\\');
            }
            quoted.push(c);
        }
        quoted + "\""
    };
    if prefix.is_empty() {
        key
    } else {
        alloc::format!("{prefix}.{key}")
    }
}

/// A path's parent and its last key, unquoted (`run.t_end` → `run`, `t_end`;
/// `"a.b"` → ``, `a.b`; `coordinates[2]` → `coordinates`, `2`).
pub(crate) fn split_last(path: &str) -> (&str, String) {
    if let Some(inner) = path.strip_suffix('"') {
        // The opening quote: the last `"` not escaped by an odd run of backslashes.
        let bytes = inner.as_bytes();
        let opening = (0..bytes.len())
            .rev()
            .find(|&i| bytes[i] == b'"' && bytes[..i].iter().rev().take_while(|&&b| b == b'\\').count() % 2 == 0);
        if let Some(start) = opening {
            let key = inner[start + 1..].replace("\\\"", "\"").replace("\\\\", "\\");
            return (path[..start].strip_suffix('.').unwrap_or(&path[..start]), key);
        }
    }
    match path.rfind(['.', '[']) {
        Some(at) => (&path[..at], String::from(path[at + 1..].trim_end_matches(']'))),
        None => ("", String::from(path)),
    }
}

/// How many bytes of paths an index may hold for a text of `len` bytes: a long key
/// over a long array made every element's path a copy of it (a 20,000-character key
/// over 200,000 elements, 420 KB of text: 4 GB, and `check` aborted; issue 57). Past
/// it, fields are not indexed, and a problem in one is placed at the nearest
/// ancestor that is.
pub(crate) fn path_budget(len: usize) -> usize {
    (16 * len).max(1 << 20)
}
