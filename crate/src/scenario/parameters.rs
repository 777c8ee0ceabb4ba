//! `[parameters]`: name → number, or (an nhlab addition) name → table giving the
//! slider's range, step and unit as well: `g = { value = 9.81, min = 0, max = 20,
//! unit = "m/s^2" }`. Both forms may be mixed in one table.
//!
//! The values stay a plain `name → f64` map (what the model, the tests and the
//! stability sweep read, through `Deref`); the slider facts sit beside them in
//! [`Parameters::ranges`], so the table form adds to the format without changing the
//! meaning of the plain one.

use alloc::collections::BTreeMap;
use alloc::string::String;
use core::fmt;
use core::ops::{Deref, DerefMut};

use serde::de::{self, IgnoredAny, MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The scenario's parameters: values by name, and for those written as tables, their
/// slider range, step and unit.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Parameters {
    values: BTreeMap<String, f64>,
    /// Range, step and unit of the parameters written as tables.
    pub ranges: BTreeMap<String, ParameterRange>,
}

/// A parameter's slider range, step and unit, each optional.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ParameterRange {
    /// The slider's lower end.
    pub min: Option<f64>,
    /// The slider's upper end.
    pub max: Option<f64>,
    /// The slider's step.
    pub step: Option<f64>,
    /// Plain text shown beside the value (`m/s^2`).
    pub unit: Option<String>,
}

impl ParameterRange {
    fn is_empty(&self) -> bool {
        *self == ParameterRange::default()
    }

    /// The range as text (`0.1 … 4`, `−∞ … 20`) when `value` lies outside it.
    pub fn excludes(&self, value: f64) -> Option<String> {
        if self.min.is_some_and(|lo| value < lo) || self.max.is_some_and(|hi| value > hi) {
            let lo = self.min.map_or("−∞".into(), |x| alloc::format!("{x}"));
            let hi = self.max.map_or("∞".into(), |x| alloc::format!("{x}"));
            Some(alloc::format!("{lo} … {hi}"))
        } else {
            None
        }
    }
}

impl Parameters {
    /// The range, step and unit of parameter `name`, when its table gives any.
    pub fn range(&self, name: &str) -> Option<&ParameterRange> {
        self.ranges.get(name)
    }
}

impl Deref for Parameters {
    type Target = BTreeMap<String, f64>;
    fn deref(&self) -> &Self::Target {
        &self.values
    }
}

impl DerefMut for Parameters {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.values
    }
}

impl<'a> IntoIterator for &'a Parameters {
    type Item = (&'a String, &'a f64);
    type IntoIter = alloc::collections::btree_map::Iter<'a, String, f64>;
    fn into_iter(self) -> Self::IntoIter {
        self.values.iter()
    }
}

impl FromIterator<(String, f64)> for Parameters {
    fn from_iter<I: IntoIterator<Item = (String, f64)>>(iter: I) -> Self {
        Parameters { values: iter.into_iter().collect(), ranges: BTreeMap::new() }
    }
}

impl Serialize for Parameters {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.values.len()))?;
        for (name, value) in &self.values {
            match self.ranges.get(name).filter(|r| !r.is_empty()) {
                None => map.serialize_entry(name, value)?,
                Some(range) => map.serialize_entry(name, &Table { value: *value, range })?,
            }
        }
        map.end()
    }
}

/// The table form, for writing.
struct Table<'a> {
    value: f64,
    range: &'a ParameterRange,
}

impl Serialize for Table<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let r = self.range;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("value", &self.value)?;
        for (key, bound) in [("min", r.min), ("max", r.max), ("step", r.step)] {
            if let Some(x) = bound {
                map.serialize_entry(key, &x)?;
            }
        }
        if let Some(unit) = &r.unit {
            map.serialize_entry("unit", unit)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for Parameters {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> Visitor<'de> for Entries {
            type Value = Parameters;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a table of parameters")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Parameters, A::Error> {
                let mut out = Parameters::default();
                while let Some(name) = map.next_key::<String>()? {
                    let Entry { value, range } = map.next_value()?;
                    if !range.is_empty() {
                        out.ranges.insert(name.clone(), range);
                    }
                    out.values.insert(name, value);
                }
                Ok(out)
            }
        }
        deserializer.deserialize_map(Entries)
    }
}

/// One parameter as written: a number, or a table with `value` and the slider facts.
struct Entry {
    value: f64,
    range: ParameterRange,
}

impl<'de> Deserialize<'de> for Entry {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Either;
        impl<'de> Visitor<'de> for Either {
            type Value = Entry;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number, or a table such as { value = 9.81, min = 0, max = 20, unit = \"m/s^2\" }")
            }
            fn visit_f64<E: de::Error>(self, value: f64) -> Result<Entry, E> {
                Ok(Entry { value, range: ParameterRange::default() })
            }
            fn visit_i64<E: de::Error>(self, value: i64) -> Result<Entry, E> {
                self.visit_f64(value as f64)
            }
            fn visit_u64<E: de::Error>(self, value: u64) -> Result<Entry, E> {
                self.visit_f64(value as f64)
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Entry, A::Error> {
                let mut value = None;
                let mut range = ParameterRange::default();
                while let Some(key) = map.next_key::<String>()? {
                    match key.as_str() {
                        "value" => value = Some(map.next_value::<f64>()?),
                        "min" => range.min = Some(map.next_value::<f64>()?),
                        "max" => range.max = Some(map.next_value::<f64>()?),
                        "step" => range.step = Some(map.next_value::<f64>()?),
                        "unit" => range.unit = Some(map.next_value::<String>()?),
                        // Unknown keys are warned about by name (`fields.rs`), as elsewhere.
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                let value = value.ok_or_else(|| de::Error::missing_field("value"))?;
                Ok(Entry { value, range })
            }
        }
        deserializer.deserialize_any(Either)
    }
}

#[cfg(test)]
mod tests {
    use crate::scenario::load_toml;

    fn scenario(parameters: &str) -> crate::scenario::Scenario {
        let text = alloc::format!(
            "format = \"nhlab/1\"\ntitle = \"t\"\ncoordinates = [\"x\"]\nkinetic = \"x'^2/2\"\n[parameters]\n{parameters}\n[initial]\nq = {{ x = 0 }}\n"
        );
        load_toml(&text).map(|(s, _)| s).unwrap_or_else(|e| panic!("{e:?}"))
    }

    #[test]
    fn both_forms_give_values() {
        let s = scenario(
            "a = 2\ng = { value = 9.81, min = 0, max = 20, step = 0.01, unit = \"m/s^2\" }\nm = { value = 1 }",
        );
        assert_eq!((s.parameters["a"], s.parameters["g"], s.parameters["m"]), (2.0, 9.81, 1.0));
        let g = s.parameters.range("g").unwrap();
        assert_eq!((g.min, g.max, g.step, g.unit.as_deref()), (Some(0.0), Some(20.0), Some(0.01), Some("m/s^2")));
        assert!(s.parameters.range("a").is_none() && s.parameters.range("m").is_none());
    }

    #[test]
    fn json_round_trip_keeps_the_table_form_only_where_written() {
        let s = scenario("a = 2\ng = { value = 9.81, max = 20, unit = \"m/s^2\" }");
        let json = serde_json::to_string(&s.parameters).unwrap();
        assert_eq!(json, r#"{"a":2.0,"g":{"value":9.81,"max":20.0,"unit":"m/s^2"}}"#);
        let back: super::Parameters = serde_json::from_str(&json).unwrap();
        assert_eq!(back, s.parameters);
    }

    #[test]
    fn a_table_without_value_or_with_a_bad_value_is_refused_at_its_place() {
        for (text, words) in [
            ("g = { min = 0 }", "`value` is missing"),
            ("g = { value = \"x\" }", "expected a number, found the text \"x\""),
        ] {
            let full = alloc::format!(
                "format = \"nhlab/1\"\ntitle = \"t\"\ncoordinates = [\"x\"]\nkinetic = \"x'^2/2\"\n[parameters]\n{text}\n"
            );
            let e = load_toml(&full).unwrap_err();
            let p = &e.0[0];
            assert!(p.message.contains(words), "{p:?}");
            assert_eq!(p.position.map(|(line, _)| line), Some(6), "{p:?}");
        }
    }
}
