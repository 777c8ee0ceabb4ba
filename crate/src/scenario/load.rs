//! Reading scenarios from TOML and JSON, with a map from field paths to places in
//! the text so that every later problem can say where it is.

use alloc::borrow::ToOwned;
use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec;

use super::{Problem, Problems, Scenario};
use crate::expr::line_col;

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
    /// Field path → (byte offset of the key, byte range of the value).
    places: BTreeMap<String, (Option<usize>, core::ops::Range<usize>)>,
}

impl SourceMap {
    /// A map that locates nothing (a scenario built in code).
    pub fn none() -> Self {
        SourceMap::default()
    }

    /// Line and column of a field's value.
    pub fn value(&self, field: &str) -> Option<(usize, usize)> {
        self.places.get(field).map(|(_, v)| line_col(&self.text, v.start))
    }

    /// Line and column of a field's key (for `forces.z`: the `z`), else its value.
    pub fn key(&self, field: &str) -> Option<(usize, usize)> {
        let (key, value) = self.places.get(field)?;
        Some(line_col(&self.text, key.unwrap_or(value.start)))
    }

    /// Line and column of byte `offset` within a string field's contents, for
    /// positions inside an expression. Exact unless the string has escapes.
    pub fn inside(&self, field: &str, offset: usize) -> Option<(usize, usize)> {
        let (_, value) = self.places.get(field)?;
        let raw = self.text.get(value.clone())?;
        let quote = if raw.starts_with("\"\"\"") || raw.starts_with("'''") {
            3
        } else if raw.starts_with('"') || raw.starts_with('\'') {
            1
        } else {
            0
        };
        Some(line_col(&self.text, value.start + quote + offset))
    }

    /// A problem at a field's value.
    pub fn problem(&self, field: &str, message: impl Into<String>) -> Problem {
        Problem { field: field.to_string(), position: self.value(field), message: message.into() }
    }

    /// A problem at a field's key.
    pub fn key_problem(&self, field: &str, message: impl Into<String>) -> Problem {
        Problem { field: field.to_string(), position: self.key(field), message: message.into() }
    }
}

/// Reads a scenario in the given format.
pub fn load(text: &str, format: Format) -> Result<(Scenario, SourceMap), Problems> {
    match format {
        Format::Toml => load_toml(text),
        Format::Json => load_json(text),
    }
}

/// Reads a TOML scenario.
pub fn load_toml(text: &str) -> Result<(Scenario, SourceMap), Problems> {
    let scenario: Scenario = toml::from_str(text).map_err(|e| {
        let position = e.span().map(|s| line_col(text, s.start));
        let message = e.message().trim().to_owned();
        Problems(vec![Problem { field: "(file)".into(), position, message }])
    })?;
    let mut map = SourceMap { warnings: alloc::vec::Vec::new(), text: text.to_string(), places: BTreeMap::new() };
    if let Ok(doc) = toml::de::DeTable::parse(text) {
        index_table(doc.get_ref(), "", &mut map.places);
    }
    let paths: alloc::vec::Vec<String> = map.places.keys().cloned().collect();
    map.warnings = unknown_field_warnings(&map, paths.iter().map(String::as_str));
    Ok((scenario, map))
}

/// Reads a JSON scenario. Positions are those serde_json reports for syntax and type
/// errors; later problems name the field only.
pub fn load_json(text: &str) -> Result<(Scenario, SourceMap), Problems> {
    let scenario: Scenario = serde_json::from_str(text).map_err(|e| {
        Problems(vec![Problem {
            field: "(file)".into(),
            position: Some((e.line(), e.column())),
            message: e.to_string(),
        }])
    })?;
    let mut map = SourceMap { warnings: alloc::vec::Vec::new(), text: text.to_string(), places: BTreeMap::new() };
    if let Ok(value) = serde_json::from_str::<serde_json::Value>(text) {
        let mut paths = alloc::vec::Vec::new();
        json_paths(&value, String::new(), &mut paths);
        map.warnings = unknown_field_warnings(&map, paths.iter().map(String::as_str));
    }
    Ok((scenario, map))
}

fn json_paths(value: &serde_json::Value, path: String, out: &mut alloc::vec::Vec<String>) {
    match value {
        serde_json::Value::Object(fields) => {
            for (k, v) in fields {
                let p = if path.is_empty() { k.clone() } else { alloc::format!("{path}.{k}") };
                json_paths(v, p.clone(), out);
                out.push(p);
            }
        }
        serde_json::Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                let p = alloc::format!("{path}[{i}]");
                json_paths(v, p.clone(), out);
                out.push(p);
            }
        }
        _ => {}
    }
}

fn unknown_field_warnings<'a>(map: &SourceMap, paths: impl IntoIterator<Item = &'a str>) -> alloc::vec::Vec<Problem> {
    super::fields::unknown(paths)
        .into_iter()
        .map(|path| {
            let key = path.rsplit(['.', '[']).next().unwrap_or(&path).trim_end_matches(']');
            let hint = crate::expr::nearest(key, super::fields::siblings(&path));
            let message = if hint.is_empty() {
                alloc::format!("unknown field `{key}` (ignored)")
            } else {
                alloc::format!("unknown field `{key}` (ignored); did you mean `{}`?", hint.join("`, `"))
            };
            map.key_problem(&path, message)
        })
        .collect()
}

type Places = BTreeMap<String, (Option<usize>, core::ops::Range<usize>)>;

fn index_table(table: &toml::de::DeTable<'_>, prefix: &str, places: &mut Places) {
    for (key, value) in table.iter() {
        let path =
            if prefix.is_empty() { key.get_ref().to_string() } else { alloc::format!("{prefix}.{}", key.get_ref()) };
        index_value(value, path, Some(key.span().start), places);
    }
}

fn index_value(value: &toml::Spanned<toml::de::DeValue<'_>>, path: String, key: Option<usize>, places: &mut Places) {
    match value.get_ref() {
        toml::de::DeValue::Table(t) => index_table(t, &path, places),
        toml::de::DeValue::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                index_value(item, alloc::format!("{path}[{i}]"), None, places);
            }
        }
        _ => {}
    }
    places.insert(path, (key, value.span()));
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
        assert_eq!(map.value("kinetic"), Some((7, 11)));
        assert_eq!(map.inside("constraints[0].expr", 1), Some((21, 10)), "the `x` after the minus");
        assert_eq!(map.key("parameters.g"), Some((13, 1)));
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
        assert!(e.to_string().contains("invalid type"), "{e}");
        let e = load_json("{\"title\": \"x\",\n \"coordinates\": [1]}").unwrap_err();
        assert_eq!(e.0[0].position.map(|p| p.0), Some(2), "{e}");
    }
}
