//! Messages a user reads, with a stable id and named parameters beside their
//! English, so that a page can say them in another language: the web lab looks the
//! id up in its catalogues (`www/app/i18n/*.json`, as `core.<id>`, its `{name}`
//! places filled from the parameters) and falls back to the English, which is also
//! what `Display` writes and the command line prints. The ids are part of the
//! contract: a new wording keeps its id, a new meaning takes a new one.
//!
//! A parameter may itself be a message (a *part*: [`Message::part`]), for a phrase
//! that a language words its own way inside another ("expected **text (in
//! quotes)**, found **the number 3**"): the page says the part first, then fills it
//! in. The phrases are in [`phrase`].
//!
//! The messages given ids so far are those a run of the page ends or marks with
//! (Hamel's split turning singular, a contact lifting off or slipping), the forms of
//! the equations, and a scenario's problems: its expressions' (parse errors,
//! [`crate::expr::ParseErrorKind::message`]), the reading of its text (syntax, types,
//! unknown and missing fields), its checks and its initial state in [`problem`], and
//! those of its rigid bodies (frames, points, vector expressions, bodies, contacts,
//! loads) in [`bodies`], and a share link's in [`share`]; why a run stopped in
//! [`run`].

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
    /// The parameters that are messages themselves, by name (each is also in
    /// `args`, as its English).
    pub parts: Vec<(&'static str, Message)>,
}

impl Message {
    /// The message `id` whose English is `english`, with no parameters yet.
    pub fn new(id: &'static str, english: String) -> Self {
        Self { id, args: Vec::new(), english, parts: Vec::new() }
    }

    /// The message `id` whose English is `template` filled from `args` (the form
    /// of the one-line message tables, [`problem`] and [`phrase`]).
    pub fn filled(id: &'static str, template: &str, args: Vec<(&'static str, Arg)>) -> Self {
        let mut m = Self::new(id, String::new());
        for (name, arg) in args {
            m = match arg {
                Arg::Text(text) => m.arg(name, text),
                Arg::Part(part) => m.part(name, part),
            };
        }
        m.english = m.fill(template);
        m
    }

    /// With parameter `name` written as `value`.
    #[must_use]
    pub fn arg(mut self, name: &'static str, value: impl fmt::Display) -> Self {
        self.args.push((name, value.to_string()));
        self
    }

    /// With parameter `name` the message `part`, which a translation says in its
    /// own language before filling it in (its English is the parameter's text).
    #[must_use]
    pub fn part(mut self, name: &'static str, part: Message) -> Self {
        self.args.push((name, part.english.clone()));
        self.parts.push((name, part));
        self
    }

    /// Whether its id is one of [`ids`] and its parameters are exactly those the id
    /// lists, in that order (what a translation may use), and so are its parts'.
    pub fn well_formed(&self) -> bool {
        ids().any(|(id, names)| {
            id == self.id && names.len() == self.args.len() && names.iter().zip(&self.args).all(|(n, (a, _))| n == a)
        }) && self.parts.iter().all(|(_, p)| p.well_formed())
    }

    /// Said with `say` (a template for an id, or `None` to keep the English): the
    /// parts said first, then the template filled from them and the parameters.
    pub fn say(&self, say: &impl Fn(&'static str) -> Option<String>) -> String {
        let Some(template) = say(self.id) else { return self.english.clone() };
        let parts: Vec<(&str, String)> = self.parts.iter().map(|(name, p)| (*name, p.say(say))).collect();
        fill_with(&template, |name| {
            parts
                .iter()
                .find(|(n, _)| *n == name)
                .or_else(|| self.args.iter().find(|(n, _)| *n == name))
                .map(|(_, v)| v.as_str())
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

/// A parameter of a message table's message: a text, or a message of its own.
pub enum Arg {
    /// A text (a name, a number) that every language writes alike.
    Text(String),
    /// A phrase a language words its own way.
    Part(Message),
}

impl<T: fmt::Display> From<T> for Arg {
    fn from(value: T) -> Self {
        Arg::Text(value.to_string())
    }
}

/// A message as a parameter of another: `Part(m)` in a message table's call.
pub struct Part(pub Message);

impl From<Part> for Arg {
    fn from(part: Part) -> Self {
        Arg::Part(part.0)
    }
}

/// A "did you mean" hint as a parameter: [`phrase::did_you_mean`]'s, or nothing.
pub struct Hint(pub Option<Message>);

impl From<Hint> for Arg {
    fn from(hint: Hint) -> Self {
        hint.0.map_or(Arg::Text(String::new()), Arg::Part)
    }
}

/// One-line message tables: `name(params) "id" "English {param} …"` gives a function
/// `name` returning that message, and `IDS` the ids with their parameters.
macro_rules! messages {
    ($( $(#[doc = $doc:literal])* $name:ident ( $($param:ident),* ) $id:literal $english:literal )*) => {
        $(
            $(#[doc = $doc])*
            // A message's parameters are its named slots, as many as its text has.
            #[allow(clippy::too_many_arguments)]
            pub fn $name($($param: impl Into<$crate::message::Arg>),*) -> $crate::message::Message {
                $crate::message::Message::filled($id, $english, alloc::vec![$((stringify!($param), $param.into())),*])
            }
        )*
        /// Every id of this table, with its parameters' names.
        pub const IDS: &[(&str, &[&str])] = &[$(($id, &[$(stringify!($param)),*])),*];
        /// Every id of this table with its English template (its `{param}` places
        /// unfilled): what a page's English catalogue holds for it.
        pub const ENGLISH: &[(&str, &str)] = &[$(($id, $english)),*];
    };
}

/// `Display` and `Error` for an error whose words are its `message()`: `Display`
/// writes the message's English, so each error's words are written once, in the
/// message tables.
macro_rules! words_are_the_message {
    ($error:ty) => {
        impl core::fmt::Display for $error {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(&self.message().english)
            }
        }

        impl core::error::Error for $error {}
    };
}
pub(crate) use words_are_the_message;

pub mod bodies;
pub mod phrase;
pub mod problem;
pub mod run;
pub mod share;
pub mod stability;
pub mod syntax;

/// Every id a [`Message`] may carry, with its parameters' names: [`IDS`] and those
/// of the message tables. A page's catalogue is checked against this list (a test of
/// the web lab).
pub fn ids() -> impl Iterator<Item = (&'static str, &'static [&'static str])> {
    let tables = IDS.iter().chain(problem::IDS).chain(bodies::IDS).chain(share::IDS).chain(run::IDS);
    let tables = tables.chain(phrase::IDS).chain(stability::IDS).chain(syntax::IDS).copied();
    tables.chain(syntax::WORDS.iter().map(|&(id, _)| (id, &[][..])))
}

/// The ids written out by hand (the runs', the equations' forms, the expressions'
/// problems), with their parameters' names.
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
    ("contact.friction-not-finite.until", &["name", "field", "start", "end"]),
    ("contact.friction-not-finite.to-end", &["name", "field", "start"]),
    ("contact.friction-not-finite.on", &["name", "field", "start"]),
    ("split.constant", &[]),
    ("split.regular", &[]),
    ("split.regular.followed", &["reached"]),
    ("split.moved", &["dependent", "first", "t"]),
    ("split.moved.followed", &["dependent", "first", "t", "reached"]),
    ("split.moved.best", &["dependent", "first", "t"]),
    ("split.singular", &["t"]),
    ("split.combined.one", &["rank", "count", "repeated"]),
    ("split.combined.other", &["rank", "count", "repeated"]),
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
    ("problem.expr.division-by-zero", &[]),
    ("problem.expr.overflow", &[]),
];

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
