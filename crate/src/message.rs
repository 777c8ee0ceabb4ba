//! Messages a user reads, with a stable id and named parameters beside their
//! English, so that a page can say them in another language: the web lab looks the
//! id up in its catalogues (`www/app/i18n/*.json`, as `core.<id>`, its `{name}`
//! places filled from the parameters) and falls back to the English, which is also
//! what `Display` writes and the command line prints. The ids are part of the
//! contract: a new wording keeps its id, a new meaning takes a new one.
//!
//! The messages given ids so far are those a run of the page ends or marks with
//! (Hamel's split turning singular, a contact lifting off or slipping), the forms of
//! the equations, and a scenario's problems with its expressions (parse errors, the
//! commonest problems of a text being typed: [`crate::expr::ParseErrorKind::message`])
//! and a few of its checks ([`problem`]); the scenario's other problems are English
//! only.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

/// A message: its id, its parameters (already written as text) and its English.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Message {
    /// Stable id, e.g. `run.hamel-ends`.
    pub id: &'static str,
    /// The parameters by name, as the English writes them.
    pub args: Vec<(&'static str, String)>,
    /// The English text.
    pub english: String,
}

impl Message {
    /// The message `id` whose English is `english`, with no parameters yet.
    pub fn new(id: &'static str, english: String) -> Self {
        Self { id, args: Vec::new(), english }
    }

    /// With parameter `name` written as `value`.
    #[must_use]
    pub fn arg(mut self, name: &'static str, value: impl fmt::Display) -> Self {
        self.args.push((name, value.to_string()));
        self
    }

    /// Whether its id is one of [`IDS`] and its parameters are exactly those the id
    /// lists, in that order (what a translation may use).
    pub fn well_formed(&self) -> bool {
        IDS.iter().any(|(id, names)| {
            *id == self.id && names.len() == self.args.len() && names.iter().zip(&self.args).all(|(n, (a, _))| n == a)
        })
    }

    /// `template` with each `{name}` replaced by the parameter of that name (a name
    /// it does not have is left as it is): how a translation is filled.
    pub fn fill(&self, template: &str) -> String {
        fill_with(template, |name| self.args.iter().find(|(n, _)| *n == name).map(|(_, v)| v.as_str()))
    }
}

/// `template` with each `{name}` for which `value` gives a text replaced by it; the
/// rest (other names, a lone brace) left as written.
pub fn fill_with<'a>(template: &str, value: impl Fn(&str) -> Option<&'a str>) -> String {
    let mut out = String::with_capacity(template.len() + 32);
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        match after.find('}').and_then(|close| value(&after[..close]).map(|v| (v, close))) {
            Some((text, close)) => {
                out.push_str(text);
                rest = &after[close + 1..];
            }
            None => {
                out.push('{');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.english)
    }
}

/// Every id a [`Message`] may carry, with its parameters' names: a page's catalogue
/// is checked against this list (a test of the web lab).
pub const IDS: &[(&str, &[&str])] = &[
    ("run.hamel-ends", &["t", "dependent"]),
    ("run.hamel-ends.unnamed", &["t"]),
    ("contact.lifts-off.stop", &["name", "field", "t"]),
    ("contact.slips.stop", &["name", "field", "t", "needed", "mu"]),
    ("contact.lifts-off.until", &["name", "field", "start", "end"]),
    ("contact.lifts-off.to-end", &["name", "field", "start"]),
    ("contact.lifts-off.on", &["name", "field", "start"]),
    ("contact.slips.until", &["name", "field", "start", "end"]),
    ("contact.slips.to-end", &["name", "field", "start"]),
    ("contact.slips.on", &["name", "field", "start"]),
    ("split.constant", &[]),
    ("split.regular", &[]),
    ("split.regular.followed", &["reached"]),
    ("split.moved", &["dependent", "first", "t"]),
    ("split.moved.followed", &["dependent", "first", "t", "reached"]),
    ("split.moved.best", &["dependent", "first", "t"]),
    ("split.singular", &["t"]),
    ("form.lagrange", &[]),
    ("form.euler", &[]),
    ("form.euler.nonlinear", &[]),
    ("form.udwadia-kalaba", &[]),
    ("form.gauss", &[]),
    ("form.hamel", &[]),
    ("form.voronets", &[]),
    ("form.vakonomic", &[]),
    ("problem.expr.empty", &[]),
    ("problem.expr.too-long", &["length", "limit"]),
    ("problem.expr.too-deep", &["limit"]),
    ("problem.expr.star-star", &[]),
    ("problem.expr.unexpected-character", &["character"]),
    ("problem.expr.invalid-number", &["number"]),
    ("problem.expr.number-out-of-range", &["number"]),
    ("problem.expr.expected", &["expected", "found"]),
    ("problem.expr.missing-operator", &["found"]),
    ("problem.expr.unclosed-parenthesis", &[]),
    ("problem.expr.unknown-name", &["name"]),
    ("problem.expr.unknown-name.one", &["name", "a"]),
    ("problem.expr.unknown-name.two", &["name", "a", "b"]),
    ("problem.expr.unknown-name.three", &["name", "a", "b", "c"]),
    ("problem.expr.unknown-function", &["name"]),
    ("problem.expr.unknown-function.one", &["name", "a"]),
    ("problem.expr.unknown-function.two", &["name", "a", "b"]),
    ("problem.expr.unknown-function.three", &["name", "a", "b", "c"]),
    ("problem.expr.not-a-function", &["name"]),
    ("problem.expr.missing-arguments", &["function"]),
    ("problem.expr.wrong-arity.one", &["function", "expected", "found"]),
    ("problem.expr.wrong-arity.other", &["function", "expected", "found"]),
    ("problem.expr.acceleration", &["name"]),
    ("problem.expr.invalid-prime", &["name", "reason"]),
    ("problem.expr.vector", &["message"]),
    ("problem.expr.division-by-zero", &[]),
    ("problem.expr.overflow", &[]),
    ("problem.initial-missing", &["name"]),
    ("problem.not-finite", &[]),
    ("problem.not-a-coordinate", &["name"]),
    ("problem.not-positive", &["value"]),
];

/// A scenario's problems that have ids besides its expressions' (the commonest of
/// checking a text being typed); each function's English is the checker's wording.
pub mod problem {
    use super::Message;
    use alloc::format;

    /// No initial value for coordinate `name` (and no holonomic constraint to solve it from).
    pub fn initial_missing(name: &str) -> Message {
        Message::new("problem.initial-missing", format!("the initial value of coordinate `{name}` is missing"))
            .arg("name", name)
    }

    /// A value that must be a finite number is not.
    pub fn not_finite() -> Message {
        Message::new("problem.not-finite", "the value must be a finite number".into())
    }

    /// `name`, given where a coordinate is wanted, is not one.
    pub fn not_a_coordinate(name: &str) -> Message {
        Message::new("problem.not-a-coordinate", format!("`{name}` is not a coordinate")).arg("name", name)
    }

    /// A value that must be positive (and finite) is `value`.
    pub fn not_positive(value: f64) -> Message {
        Message::new("problem.not-positive", format!("expected a positive number, found {value}")).arg("value", value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fill_replaces_named_places_and_keeps_the_rest() {
        let m = Message::new("x", "x".into()).arg("t", 1.5).arg("name", "a{b}");
        assert_eq!(m.fill("在 t = {t} 时 {name} {other} {"), "在 t = 1.5 时 a{b} {other} {");
        assert_eq!(m.to_string(), "x");
    }
}
