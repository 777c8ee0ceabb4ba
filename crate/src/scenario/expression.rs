//! Expression fields read from TOML or JSON: text, or a plain number, which is the
//! expression of that number (`mass = 0`, `direction = [0, 0, 1]`, as `[parameters]`
//! takes numbers). Used through `#[serde(deserialize_with = …)]` on every field that
//! holds an expression; serialised as text, as before.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;

use super::PositionSpec;

/// One expression: text, or a finite number written as text.
pub(crate) struct Text(pub String);

struct TextVisitor;

impl<'de> Visitor<'de> for TextVisitor {
    type Value = Text;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("an expression (text such as \"m*g\") or a number")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Text, E> {
        Ok(Text(v.to_string()))
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Text, E> {
        Ok(Text(v))
    }

    fn visit_i64<E: de::Error>(self, v: i64) -> Result<Text, E> {
        Ok(Text(v.to_string()))
    }

    fn visit_u64<E: de::Error>(self, v: u64) -> Result<Text, E> {
        Ok(Text(v.to_string()))
    }

    fn visit_f64<E: de::Error>(self, v: f64) -> Result<Text, E> {
        if v.is_finite() {
            // `{:?}` is the shortest text that reads back as the same number.
            Ok(Text(format!("{v:?}")))
        } else {
            Err(E::custom(format!("expected an expression or a finite number, found {v}")))
        }
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Text, D::Error> {
        d.deserialize_any(TextVisitor)
    }
}

fn texts(list: Vec<Text>) -> Vec<String> {
    list.into_iter().map(|t| t.0).collect()
}

/// An expression.
pub(crate) fn one<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Text::deserialize(d).map(|t| t.0)
}

/// An optional expression.
pub(crate) fn option<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Option::<Text>::deserialize(d).map(|t| t.map(|t| t.0))
}

/// A list of expressions.
pub(crate) fn list<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    Vec::<Text>::deserialize(d).map(texts)
}

/// An optional list of expressions.
pub(crate) fn option_list<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<String>>, D::Error> {
    Option::<Vec<Text>>::deserialize(d).map(|l| l.map(texts))
}

/// A list of lists of expressions (points).
pub(crate) fn lists<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Vec<String>>, D::Error> {
    Vec::<Vec<Text>>::deserialize(d).map(|l| l.into_iter().map(texts).collect())
}

/// Name → expression.
pub(crate) fn map<'de, D: Deserializer<'de>>(d: D) -> Result<BTreeMap<String, String>, D::Error> {
    BTreeMap::<String, Text>::deserialize(d).map(|m| m.into_iter().map(|(k, t)| (k, t.0)).collect())
}

/// A list of name → expression tables (rotations).
pub(crate) fn maps<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<BTreeMap<String, String>>, D::Error> {
    Vec::<BTreeMap<String, Text>>::deserialize(d)
        .map(|l| l.into_iter().map(|m| m.into_iter().map(|(k, t)| (k, t.0)).collect()).collect())
}

struct PositionVisitor;

impl<'de> Visitor<'de> for PositionVisitor {
    type Value = PositionSpec;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("three components such as [\"x\", \"y\", 0], or a vector expression such as \"C + r*N.z\"")
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<PositionSpec, E> {
        Ok(PositionSpec::Expression(v.to_string()))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<PositionSpec, A::Error> {
        let mut out = Vec::new();
        while let Some(t) = seq.next_element::<Text>()? {
            out.push(t.0);
        }
        Ok(PositionSpec::Components(out))
    }
}

impl<'de> Deserialize<'de> for PositionSpec {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<PositionSpec, D::Error> {
        d.deserialize_any(PositionVisitor)
    }
}
