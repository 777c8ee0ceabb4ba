//! Reading scenarios from TOML and JSON, with a map from field paths to places in
//! the text so that every later problem can say where it is.

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec;

use serde::Deserialize;

use super::places::{Places, ValueKind};
use super::{Problem, Problems, Scenario};
use crate::expr::{line_col, Lines};
use crate::message::{phrase, problem, Hint, Message, Part};

/// The text formats a scenario comes in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// TOML, as authors write it.
    Toml,
    /// JSON, as tools exchange it.
    Json,
}

/// Where each field's value starts in the scenario text.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    /// Fields the format does not know, ignored (typos, or additions of a later
    /// `nhlab/1`): one warning each, with the nearest known names.
    pub warnings: alloc::vec::Vec<Problem>,
    text: String,
    lines: Lines,
    /// Field path → (byte offset of the key, byte range of the value, its kind).
    places: Places,
}

impl SourceMap {
    /// A map that locates nothing (a scenario built in code).
    pub fn none() -> Self {
        SourceMap::default()
    }

    /// Line and column of a field's value.
    pub fn value(&self, field: &str) -> Option<(usize, usize)> {
        self.place(field).map(|(_, v, _)| self.lines.line_col(&self.text, v.start))
    }

    /// Line and column of a field's key (for `forces.z`: the `z`), else its value.
    pub fn key(&self, field: &str) -> Option<(usize, usize)> {
        let (key, value, _) = self.place(field)?;
        Some(self.lines.line_col(&self.text, key.unwrap_or(value.start)))
    }

    /// A field's place, or where it is not indexed (past the index's budget) its
    /// nearest indexed ancestor's.
    fn place(&self, field: &str) -> Option<&(Option<usize>, core::ops::Range<usize>, ValueKind)> {
        let mut path = field;
        loop {
            if let Some(place) = self.places.get(path) {
                return Some(place);
            }
            path = &path[..path.rfind(['.', '['])?];
        }
    }

    /// Line and column of byte `offset` within a string field's contents, for
    /// positions inside an expression. Exact unless the string has escapes.
    pub fn inside(&self, field: &str, offset: usize) -> Option<(usize, usize)> {
        let (_, value, _) = self.places.get(field)?;
        let raw = self.text.get(value.clone())?;
        let quote = if raw.starts_with("\"\"\"") || raw.starts_with("'''") {
            3
        } else if raw.starts_with('"') || raw.starts_with('\'') {
            1
        } else {
            0
        };
        Some(self.lines.line_col(&self.text, value.start + quote + offset))
    }

    /// A problem at a field's value.
    pub fn problem(&self, field: &str, message: impl Into<String>) -> Problem {
        Problem { field: field.to_string(), position: self.value(field), message: message.into(), said: None }
    }

    /// A problem at a field's key.
    pub fn key_problem(&self, field: &str, message: impl Into<String>) -> Problem {
        Problem { field: field.to_string(), position: self.key(field), message: message.into(), said: None }
    }

    /// A problem at a field's value, with a message id.
    pub fn said(&self, field: &str, message: Message) -> Problem {
        Problem::said(field, self.value(field), message)
    }

    /// A problem at a field's key, with a message id.
    pub fn said_key(&self, field: &str, message: Message) -> Problem {
        Problem::said(field, self.key(field), message)
    }
}

/// Reads a scenario in the given format.
pub fn load(text: &str, format: Format) -> Result<(Scenario, SourceMap), Problems> {
    let limit = crate::limits::MAX_SCENARIO_BYTES;
    if text.len() > limit {
        return Err(Problems(vec![Problem::said("(file)", None, problem::file_too_large(text.len(), limit))]));
    }
    match format {
        Format::Toml => load_toml(text),
        Format::Json => load_json(text),
    }
}

/// Reads a TOML scenario.
pub fn load_toml(text: &str) -> Result<(Scenario, SourceMap), Problems> {
    let mut map = SourceMap {
        warnings: alloc::vec::Vec::new(),
        text: text.to_string(),
        lines: Lines::new(text),
        places: BTreeMap::new(),
    };
    if let Ok(doc) = toml::de::DeTable::parse(text) {
        let mut budget = super::places::path_budget(text.len());
        index_table(doc.get_ref(), "", &mut map.places, &mut budget);
    }
    // Shapes first: serde would read an array as a table positionally, or report
    // the mismatch at an element instead of the field.
    check_shapes(&map)?;
    let scenario: Scenario = toml::from_str(text).map_err(|e| map.read_error(&e))?;
    let paths: alloc::vec::Vec<String> = map.places.keys().cloned().collect();
    map.warnings = unknown_field_warnings(&map, paths.iter().map(String::as_str));
    Ok((scenario, map))
}

/// The format of a scenario's text: JSON when it starts with `{` (after a
/// byte-order mark and white space), else TOML. The rule of the page for what is
/// typed or pasted, of a share link's text and of the command line's standard
/// input.
pub fn format_of(text: &str) -> Format {
    if text.trim_start_matches('\u{feff}').trim_start().starts_with('{') {
        Format::Json
    } else {
        Format::Toml
    }
}

/// Reads a JSON scenario (a leading byte-order mark is skipped, as in TOML) into
/// the tree TOML's reader makes, and deserializes that as a TOML scenario is
/// (`scenario/json.rs` says why and what differs).
pub fn load_json(text: &str) -> Result<(Scenario, SourceMap), Problems> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let super::json::Read { root, places, twice, too_deep, null_in_list } = super::json::read(text);
    if let Some((path, at)) = too_deep {
        // Named by its top-level field: the path inside is hundreds of `[0]`.
        let field = path.split(['.', '[']).next().unwrap_or("").to_string();
        let field = if field.is_empty() { "(file)".into() } else { field };
        let limit = super::json::MAX_DEPTH;
        let message = problem::nested_too_deep(limit);
        return Err(Problems(vec![Problem::said(&field, Some(line_col(text, at)), message)]));
    }
    let map = SourceMap { warnings: alloc::vec::Vec::new(), text: text.to_string(), lines: Lines::new(text), places };
    if !twice.is_empty() {
        let problems = twice
            .into_iter()
            .map(|(path, at)| {
                let (_, key) = super::places::split_last(&path);
                Problem::said(&path, Some(map.lines.line_col(text, at)), problem::key_twice_in_object(key))
            })
            .collect();
        return Err(Problems(problems));
    }
    check_shapes(&map)?;
    let root = root.map_err(|(words, at)| Problems(vec![map.problem_at(Some(at), in_our_words(words, text, None))]))?;
    if let Some(at) = null_in_list {
        return Err(Problems(vec![map.problem_at(Some(at), problem::null_in_list())]));
    }
    let root = match root {
        Some(root) => root,
        None => return Err(Problems(vec![map.problem_at(None, problem::expected_table(phrase::nothing()))])),
    };
    let span = root.span();
    let table = match root.into_inner() {
        toml::de::DeValue::Table(table) => table,
        other => return Err(Problems(vec![map.problem_at(Some(span.start), problem::expected_table(found(&other)))])),
    };
    let root = toml::de::Deserializer::from(toml::Spanned::new(span, table));
    let scenario = Scenario::deserialize(root).map_err(|e| map.read_error(&e))?;
    let mut map = map;
    let paths: alloc::vec::Vec<String> = map.places.keys().cloned().collect();
    map.warnings = unknown_field_warnings(&map, paths.iter().map(String::as_str));
    Ok((scenario, map))
}

/// A version-1 share link's scenario: JSON that the lab wrote with serde_json
/// (`Scenario::to_json`), read back by serde_json. The page turns such links into
/// TOML and reads no other scenario, so this keeps TOML's deserializer out of the
/// page's module (26 KiB brotli). Its problems have a line and column, no field.
pub(crate) fn load_lab_json(text: &str) -> Result<Scenario, Problems> {
    let limit = crate::limits::MAX_SCENARIO_BYTES;
    if text.len() > limit {
        return Err(Problems(vec![Problem::said("(file)", None, problem::file_too_large(text.len(), limit))]));
    }
    serde_json::from_str(text).map_err(|e| {
        // serde_json counts the column in bytes, after the character it means.
        let line_start: usize = text.split_inclusive('\n').take(e.line().saturating_sub(1)).map(str::len).sum();
        let at = (line_start + e.column().saturating_sub(1)).min(text.len());
        let at = (0..=at).rev().find(|&i| text.is_char_boundary(i)).unwrap_or(0);
        let message = e.to_string();
        let message = message.rsplit_once(" at line ").map_or(message.as_str(), |(m, _)| m);
        let message = in_our_words(&shorten(message), text, None);
        Problems(vec![Problem::said("(file)", Some(line_col(text, at)), message)])
    })
}

impl SourceMap {
    /// A reader's error (TOML's, or JSON's read from TOML's tree) at its place, in
    /// the lab's words.
    fn read_error(&self, e: &toml::de::Error) -> Problems {
        let start = e.span().map(|s| s.start);
        let message = in_our_words(&shorten(e.message().trim()), &self.text, start);
        Problems(vec![self.problem_at(start, message)])
    }

    /// A problem at byte `offset` of the text, named after the innermost field whose
    /// value holds it (`(file)` when none does, as for a syntax error).
    fn problem_at(&self, offset: Option<usize>, message: Message) -> Problem {
        let field = offset.and_then(|at| {
            self.places
                .iter()
                .filter(|(_, (_, value, _))| value.start <= at && at < value.end.max(value.start + 1))
                .max_by_key(|(_, (_, value, _))| value.start)
                .map(|(path, _)| path.clone())
        });
        let position = offset.map(|at| self.lines.line_col(&self.text, at.min(self.text.len())));
        Problem::said(field.as_deref().unwrap_or("(file)"), position, message)
    }
}

/// A parsing library's message in the lab's words: `expected text (in quotes),
/// found the number 3` for serde's `invalid type: integer `3`, expected a string`;
/// a duplicate key named from the text at `at`; `` `x` is missing `` for `missing
/// field`; else the library's own words.
fn in_our_words(message: &str, text: &str, at: Option<usize>) -> Message {
    if let Some(rest) = message.strip_prefix("invalid type: ") {
        if let Some((found, expected)) = rest.split_once(", expected ") {
            return problem::expected(Part(expected_in_words(expected)), Part(found_in_words(found)));
        }
    }
    if message.starts_with("duplicate key") {
        let key: String = at
            .and_then(|at| text.get(at..))
            .map(|rest| {
                rest.trim_start_matches(['"', '\''])
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || matches!(c, '_' | '-' | '\''))
                    .collect()
            })
            .unwrap_or_default();
        return if key.is_empty() { problem::key_twice_unnamed() } else { problem::key_twice(key) };
    }
    let field = message.strip_prefix("missing field `").and_then(|rest| rest.strip_suffix('`'));
    match field {
        Some(field) if !field.contains('`') => problem::missing(field),
        _ => problem::reader(Part(crate::message::syntax::said(message))),
    }
}

/// What serde says it expected, in the lab's words.
fn expected_in_words(expected: &str) -> Message {
    match expected {
        "a string" => phrase::text(),
        "a sequence" => phrase::list_such_as(),
        "f64" | "f32" => phrase::number(),
        "usize" | "u64" | "u32" | "i64" | "i32" => phrase::whole_number(),
        "a boolean" => phrase::true_or_false(),
        "a map" => phrase::table(),
        other if other.starts_with("struct ") => phrase::table(),
        other => phrase::verbatim(other),
    }
}

/// What a JSON text holds instead of an object, in the lab's words.
fn found(value: &toml::de::DeValue<'_>) -> Message {
    use toml::de::DeValue;
    match value {
        DeValue::String(s) => phrase::the_text(alloc::format!("{s:?}")),
        DeValue::Integer(n) => phrase::the_number(n.as_str().to_string()),
        DeValue::Float(n) => phrase::the_number(n.as_str().to_string()),
        DeValue::Boolean(b) => phrase::verbatim(alloc::format!("{b}")),
        _ => phrase::a_list(),
    }
}

/// What serde says it found, in the lab's words.
fn found_in_words(found: &str) -> Message {
    let value = |s: &str| s.trim_matches('`').to_string();
    if let Some(x) = found.strip_prefix("integer ").or_else(|| found.strip_prefix("floating point ")) {
        return phrase::the_number(value(x));
    }
    if let Some(x) = found.strip_prefix("string ") {
        return phrase::the_text(x);
    }
    if let Some(x) = found.strip_prefix("boolean ") {
        return phrase::verbatim(value(x));
    }
    match found {
        "sequence" => phrase::a_list(),
        "map" => phrase::table(),
        "unit value" | "null" => phrase::nothing(),
        other => phrase::verbatim(other),
    }
}

/// A parser's message with every quoted value longer than 40 characters cut to an
/// excerpt: a type error must not echo a 70 KB value.
fn shorten(message: &str) -> String {
    let mut out = String::new();
    let mut parts = message.split('"');
    if let Some(first) = parts.next() {
        out.push_str(first);
    }
    for (i, part) in parts.enumerate() {
        out.push('"');
        let inside = i % 2 == 0;
        if inside && part.chars().count() > 40 {
            out.extend(part.chars().take(32));
            out.push_str(&alloc::format!("… ({} characters)", part.chars().count()));
        } else {
            out.push_str(part);
        }
    }
    out
}

/// Fields that must be tables, and table items of the arrays of tables: serde would
/// read an array there positionally (`run = [0.5, ["gauss"], "rk4"]`).
const TABLES: [&str; 20] = [
    "parameters",
    "compare",
    "definitions",
    "forces",
    "initial",
    "initial.q",
    "initial.v",
    "hamel",
    "vakonomic",
    "run",
    "view",
    "frames",
    "points",
    "gravity",
    "stability",
    "stability.at",
    "stability.sweep",
    "stability.map",
    "scene",
    "units",
];

/// Refuses a non-table where `nhlab/1` expects a table.
fn check_shapes(map: &SourceMap) -> Result<(), Problems> {
    let items = map.places.keys().filter(|p| {
        ["constraints[", "particles[", "bodies[", "rolling[", "scene.shapes["].iter().any(|a| {
            p.strip_prefix(a).is_some_and(|rest| rest.ends_with(']') && !rest[..rest.len() - 1].contains(['.', ']']))
        }) || p.strip_prefix("compare.").is_some_and(|name| !name.contains('.'))
    });
    let problems: alloc::vec::Vec<Problem> = TABLES
        .iter()
        .map(|t| String::from(*t))
        .chain(items.cloned())
        .filter_map(|path| {
            let kind = map.places.get(&path)?.2;
            let found = match kind {
                ValueKind::Table | ValueKind::Null => return None,
                ValueKind::Array => phrase::an_array(),
                ValueKind::Scalar => phrase::a_single_value(),
            };
            Some(map.said(&path, problem::expected_table(Part(found))))
        })
        .collect();
    if problems.is_empty() {
        Ok(())
    } else {
        Err(Problems(problems))
    }
}

fn unknown_field_warnings<'a>(map: &SourceMap, paths: impl IntoIterator<Item = &'a str>) -> alloc::vec::Vec<Problem> {
    // The known names beside a field, once per table (10,000 unknown keys of one table
    // looked them up 10,000 times).
    let mut siblings: BTreeMap<String, alloc::vec::Vec<&'static str>> = BTreeMap::new();
    super::fields::unknown(paths)
        .into_iter()
        .map(|path| {
            let (parent, key) = super::places::split_last(&path);
            let key = key.as_str();
            let known =
                siblings.entry(parent.to_string()).or_insert_with(|| super::fields::siblings(&path)).iter().copied();
            let table = matches!(map.places.get(&path), Some((_, _, ValueKind::Table)));
            // `friction`: the one field users carry over from where it belongs.
            let message = match (key == "friction" && !path.starts_with("rolling["), table) {
                (true, false) => problem::friction_field(),
                (true, true) => problem::friction_table(),
                (false, false) => problem::unknown_field(key, Hint(phrase::did_you_mean(key, known))),
                (false, true) => problem::unknown_table(key, Hint(phrase::did_you_mean(key, known))),
            };
            map.said_key(&path, message)
        })
        .collect()
}

/// Indexes `table`'s fields under `prefix`, within `budget` bytes of paths
/// ([`super::places::path_budget`]).
fn index_table(table: &toml::de::DeTable<'_>, prefix: &str, places: &mut Places, budget: &mut usize) {
    for (key, value) in table.iter() {
        if prefix.len() + key.get_ref().len() + 3 > *budget {
            return;
        }
        let path = super::places::child_path(prefix, key.get_ref());
        index_value(value, path, Some(key.span().start), places, budget);
    }
}

fn index_value(
    value: &toml::Spanned<toml::de::DeValue<'_>>,
    path: String,
    key: Option<usize>,
    places: &mut Places,
    budget: &mut usize,
) {
    *budget = budget.saturating_sub(path.len());
    let kind = match value.get_ref() {
        toml::de::DeValue::Table(t) => {
            index_table(t, &path, places, budget);
            ValueKind::Table
        }
        toml::de::DeValue::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                // Each element's path copies the array's: stop where the budget ends.
                if path.len() + 22 > *budget {
                    break;
                }
                index_value(item, alloc::format!("{path}[{i}]"), None, places, budget);
            }
            ValueKind::Array
        }
        _ => ValueKind::Scalar,
    };
    places.insert(path, (key, value.span(), kind));
}

#[cfg(test)]
mod tests {
    use super::*;

    const KNIFE: &str = include_str!("../../../scenarios/knife-edge-incline.toml");

    #[test]
    fn the_spec_example_loads_and_every_field_is_located() {
        let (s, map) = load_toml(KNIFE).unwrap();
        assert_eq!(s.coordinates, ["x", "y", "phi"]);
        assert_eq!(s.parameters["g"], 9.81);
        assert_eq!(s.initial.v["phi"], 2.0);
        assert_eq!(s.constraints[0].name.as_deref(), Some("blade"));
        assert_eq!(map.value("kinetic"), Some((8, 11)));
        assert_eq!(map.inside("constraints[0].expr", 1), Some((22, 10)), "the `x` after the minus");
        assert_eq!(map.key("parameters.g"), Some((14, 1)));
    }

    /// Issue 57: a 20,000-character key over a 200,000-element array (420 KB of
    /// TOML) made the index store every element's full path, 4 GB, and `check`
    /// aborted. The index now holds at most [`super::super::places::path_budget`]
    /// bytes of paths, a problem past it placed at the nearest indexed ancestor; the
    /// same as JSON.
    #[test]
    fn a_long_key_over_a_long_array_is_indexed_within_the_texts_size() {
        let key = "k".repeat(20_000);
        let items = vec!["1"; 200_000].join(", ");
        for (text, format) in [
            (alloc::format!("{KNIFE}\n[notes]\n{key} = [{items}]\n"), Format::Toml),
            (
                alloc::format!(
                    "{{\"format\": \"nhlab/1\", \"title\": \"t\", \"coordinates\": [\"x\"], \"kinetic\": \"x'^2\", \"{key}\": [{items}]}}"
                ),
                Format::Json,
            ),
        ] {
            assert!(text.len() < crate::limits::MAX_SCENARIO_BYTES, "inside the documented limit");
            let map = match load(&text, format) {
                Ok((_, map)) => map,
                Err(p) => panic!("{:?}", p.0.first()),
            };
            let held: usize = map.places.keys().map(String::len).sum();
            assert!(held <= super::super::places::path_budget(text.len()), "{held} bytes of paths");
            // The unknown field is still said, at its key.
            assert!(map.warnings.iter().any(|w| w.message.starts_with("unknown") && w.position.is_some()), "{:?}", map.warnings);
        }
    }

    /// Issue 57: a JSON key `"run.t_end"` beside `run` was taken for `run`'s `t_end`
    /// (reported as given twice), and a TOML `"run.t_end" = 5` was silently ignored:
    /// a key that is no bare key is a field of its own name, unknown.
    #[test]
    fn a_key_holding_a_dot_is_a_field_of_its_own() {
        let json = r#"{"format": "nhlab/1", "title": "t", "coordinates": ["x"], "kinetic": "x'^2", "run": {"t_end": 2}, "run.t_end": 5}"#;
        let toml = alloc::format!("\"run.t_end\" = 5\n{KNIFE}");
        for (text, format) in [(json, Format::Json), (toml.as_str(), Format::Toml)] {
            let (_, map) = load(text, format).unwrap_or_else(|p| panic!("{:?}", p.0));
            let w = &map.warnings;
            assert_eq!(w.len(), 1, "{w:?}");
            assert_eq!(w[0].field, "\"run.t_end\"");
            assert!(w[0].message.starts_with("unknown field `run.t_end`"), "{}", w[0].message);
            assert!(w[0].position.is_some());
        }
    }

    #[test]
    fn json_round_trip_is_exact() {
        let (s, _) = load_toml(KNIFE).unwrap();
        let (again, _) = load_json(&s.to_json().unwrap()).unwrap();
        assert_eq!(again, s);
        let (again, _) = load_toml(&s.to_toml().unwrap()).unwrap();
        assert_eq!(again, s);
    }

    #[test]
    fn syntax_and_type_errors_are_positioned() {
        let e = load_toml("format = \"nhlab/1\"\ntitle = 3\n").unwrap_err();
        assert_eq!(e.0[0].position, Some((2, 9)), "{e}");
        assert!(e.to_string().contains("expected text (in quotes), found the number 3"), "{e}");
        let e = load_json("{\"title\": \"x\",\n \"coordinates\": [1]}").unwrap_err();
        assert_eq!(e.0[0].position.map(|p| p.0), Some(2), "{e}");
    }
}
