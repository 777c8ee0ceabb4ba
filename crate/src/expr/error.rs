//! Parse errors: each says where (a byte span), what was expected and what was found,
//! and for unknown names which known names are nearest.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::message::Message;

/// A byte range `start..end` in the parsed text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// The span `start..end`.
    pub const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
}

/// The 1-based line and column (in characters) of byte `offset` in `source`; an
/// offset past the end points just after the last character.
pub fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &source[..offset];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

/// Where the lines of a text start, for many [`line_col`] lookups in one text: each is
/// a binary search, and on a line of ASCII a subtraction (a scenario with 10,000 unknown
/// keys took a second re-reading the text from its start for each warning's place).
#[derive(Clone, Debug, Default)]
pub struct Lines {
    /// Byte offset of each line's first byte.
    starts: Vec<usize>,
    /// Whether each line is ASCII (its columns are its bytes).
    ascii: Vec<bool>,
}

impl Lines {
    /// The lines of `source`.
    pub fn new(source: &str) -> Self {
        let mut starts = alloc::vec![0];
        starts.extend(source.match_indices('\n').map(|(i, _)| i + 1));
        let ascii = starts
            .iter()
            .enumerate()
            .map(|(k, &start)| source[start..starts.get(k + 1).copied().unwrap_or(source.len())].is_ascii())
            .collect();
        Lines { starts, ascii }
    }

    /// As [`line_col`] for the `source` these lines were made from.
    pub fn line_col(&self, source: &str, offset: usize) -> (usize, usize) {
        let mut offset = offset.min(source.len());
        while !source.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self.starts.partition_point(|&s| s <= offset).max(1) - 1;
        let start = self.starts.get(line).copied().unwrap_or(0);
        let column = if self.ascii.get(line).copied().unwrap_or(false) {
            offset - start
        } else {
            source[start..offset].chars().count()
        };
        (line + 1, column + 1)
    }
}

/// A parse error: what went wrong and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{kind}")]
pub struct ParseError {
    /// Where, in bytes of the parsed text.
    pub span: Span,
    /// What.
    pub kind: ParseErrorKind,
}

/// The kinds of parse error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// Nothing but whitespace.
    Empty,
    /// More text than an expression may have.
    TooLong {
        /// Length in bytes.
        length: usize,
        /// The limit.
        limit: usize,
    },
    /// Parentheses, powers or signs nested too deeply.
    TooDeep {
        /// The limit.
        limit: usize,
    },
    /// A character that is not part of the grammar.
    UnexpectedCharacter(char),
    /// A malformed number such as `1e`.
    InvalidNumber(String),
    /// A number too large or too small for a double.
    NumberOutOfRange(String),
    /// Something other than what the grammar allows here.
    Expected {
        /// What the grammar allows.
        expected: &'static str,
        /// What the text has (`end of input` at the end).
        found: String,
    },
    /// Two operands with no operator between them, as in `2x`.
    MissingOperator {
        /// The second operand.
        found: String,
    },
    /// A `(` with no matching `)`.
    UnclosedParenthesis,
    /// A name that is not declared.
    UnknownName {
        /// The name.
        name: String,
        /// Declared names that are close, nearest first.
        suggestions: Vec<String>,
    },
    /// A call of something that is not a function.
    UnknownFunction {
        /// The name.
        name: String,
        /// Functions with close names.
        suggestions: Vec<String>,
    },
    /// A declared name used as a function, as in `x(2)`.
    NotAFunction {
        /// The name.
        name: String,
    },
    /// A function name without its parenthesised argument.
    MissingArguments {
        /// The function.
        function: &'static str,
    },
    /// A function called with the wrong number of arguments.
    WrongArity {
        /// The function.
        function: &'static str,
        /// How many it takes.
        expected: usize,
        /// How many were given.
        found: usize,
    },
    /// `x''` where accelerations are not allowed (in a model).
    AccelerationNotAllowed {
        /// The coordinate.
        name: String,
    },
    /// A prime on something that is not a coordinate, or three or more primes.
    InvalidPrime {
        /// The name as written, with its primes.
        name: String,
        /// Why it is invalid.
        reason: &'static str,
    },
    /// A vector expression's own problem (a vector where a scalar belongs, an
    /// unknown frame), as its message ([`crate::message::bodies`]).
    Vector(Message),
    /// A division by something that is the constant 0 (`1/0`, `x/(a - a)`,
    /// `0^-1`): it has no value anywhere, where folding it would hide it.
    DivisionByZero,
    /// A constant beyond the largest double (`1e308*10`, `exp(1000)`), which
    /// folding would clamp to it.
    Overflow,
}

fn list(names: &[String]) -> String {
    let mut out = String::new();
    for (i, n) in names.iter().enumerate() {
        if i > 0 {
            out.push_str(if i + 1 == names.len() { " or " } else { ", " });
        }
        out.push('`');
        out.push_str(n);
        out.push('`');
    }
    out
}

impl ParseErrorKind {
    /// What went wrong, as a message with an id (`problem.expr.*`) that a page can say
    /// in its language; its English is what [`core::fmt::Display`] writes.
    pub fn message(&self) -> Message {
        use ParseErrorKind::*;
        let m = |id, english: String| Message::new(id, english);
        match self {
            Empty => m("problem.expr.empty", "the expression is empty".into()),
            TooLong { length, limit } => m(
                "problem.expr.too-long",
                format!("the expression is too long ({length} bytes; the limit is {limit})"),
            )
            .arg("length", length)
            .arg("limit", limit),
            TooDeep { limit } => m(
                "problem.expr.too-deep",
                format!("the expression is nested too deeply (more than {limit} levels)"),
            )
            .arg("limit", limit),
            UnexpectedCharacter('*') => m("problem.expr.star-star", "unexpected `*`: write `^` for a power".into()),
            UnexpectedCharacter(c) => {
                let c = c.escape_debug();
                m("problem.expr.unexpected-character", format!("unexpected character `{c}`")).arg("character", c)
            }
            InvalidNumber(s) => {
                m("problem.expr.invalid-number", format!("`{s}` is not a valid number")).arg("number", s)
            }
            NumberOutOfRange(s) => m(
                "problem.expr.number-out-of-range",
                format!("the number `{s}` is out of range for a double"),
            )
            .arg("number", s),
            Expected { expected, found } => m("problem.expr.expected", format!("expected {expected}, found {found}"))
                .part("expected", said(expected))
                .part("found", said(found)),
            MissingOperator { found } => m(
                "problem.expr.missing-operator",
                format!("expected an operator before {found}: write `2*x` for a product, not `2x`"),
            )
            .part("found", said(found)),
            UnclosedParenthesis => m("problem.expr.unclosed-parenthesis", "this `(` is never closed".into()),
            UnknownName { name, suggestions } => suggested(
                [
                    "problem.expr.unknown-name",
                    "problem.expr.unknown-name.one",
                    "problem.expr.unknown-name.two",
                    "problem.expr.unknown-name.three",
                ],
                format!("unknown name `{name}`"),
                name,
                suggestions,
            ),
            UnknownFunction { name, suggestions } => suggested(
                [
                    "problem.expr.unknown-function",
                    "problem.expr.unknown-function.one",
                    "problem.expr.unknown-function.two",
                    "problem.expr.unknown-function.three",
                ],
                format!("unknown function `{name}`"),
                name,
                suggestions,
            ),
            NotAFunction { name } => m(
                "problem.expr.not-a-function",
                format!("`{name}` is not a function: write `{name}*(…)` for a product"),
            )
            .arg("name", name),
            MissingArguments { function } => m(
                "problem.expr.missing-arguments",
                format!("`{function}` needs its argument in parentheses, as in `{function}(x)`"),
            )
            .arg("function", function),
            WrongArity { function, expected, found } => {
                let (id, s) = if *expected == 1 {
                    ("problem.expr.wrong-arity.one", "")
                } else {
                    ("problem.expr.wrong-arity.other", "s")
                };
                m(id, format!("`{function}` takes {expected} argument{s}, found {found}"))
                    .arg("function", function)
                    .arg("expected", expected)
                    .arg("found", found)
            }
            AccelerationNotAllowed { name } => m(
                "problem.expr.acceleration",
                format!(
                    "accelerations such as `{name}''` are not allowed in a model: use coordinates and velocities (`{name}'`)"
                ),
            )
            .arg("name", name),
            InvalidPrime { name, reason } => {
                m("problem.expr.invalid-prime", format!("`{name}`: {reason}")).arg("name", name).part("reason", said(reason))
            }
            Vector(message) => message.clone(),
            DivisionByZero => {
                m("problem.expr.division-by-zero", "division by zero: the divisor is the constant 0".into())
            }
            Overflow => m(
                "problem.expr.overflow",
                "the constant overflows: its value is beyond the largest double (1.8e308)".into(),
            ),
        }
    }
}

/// One of the parser's phrases (what it expected or found, why a prime is wrong) as a
/// [`crate::message::phrase`]; a token (in backticks) as it is.
fn said(phrase: &str) -> Message {
    use crate::message::phrase as p;
    match phrase {
        OPERATOR_OR_END => p::operator_or_end(),
        AN_EXPRESSION => p::an_expression(),
        A_NUMBER => p::number(),
        END_OF_EXPRESSION => p::end_of_expression(),
        UNMATCHED_PARENTHESIS => p::unmatched_parenthesis(),
        PRIME_NOT_COORDINATE => p::prime_not_coordinate(),
        TOO_MANY_PRIMES => p::too_many_primes(),
        A_FRAME => p::a_frame(),
        COMMA_AND_THREE_COMPONENTS => p::comma_and_three_components(),
        BRACKET_AFTER_THREE_COMPONENTS => p::bracket_after_three_components(),
        OMEGA_CLOSES => p::omega_closes(),
        token => p::verbatim(token),
    }
}

// The parser's phrases, which [`said`] knows by these names.
pub(crate) const OPERATOR_OR_END: &str = "an operator or the end";
pub(crate) const AN_EXPRESSION: &str = "an expression";
pub(crate) const A_NUMBER: &str = "a number";
pub(crate) const END_OF_EXPRESSION: &str = "the end of the expression";
pub(crate) const UNMATCHED_PARENTHESIS: &str = "an unmatched `)`";
pub(crate) const PRIME_NOT_COORDINATE: &str = "only coordinates have velocities (a prime)";
pub(crate) const TOO_MANY_PRIMES: &str = "at most two primes (an acceleration)";
// The vector parser's.
pub(crate) const A_FRAME: &str = "a frame";
pub(crate) const COMMA_AND_THREE_COMPONENTS: &str = "`,` and three components";
pub(crate) const BRACKET_AFTER_THREE_COMPONENTS: &str = "`]` after three components";
pub(crate) const OMEGA_CLOSES: &str = "`)`: `omega` takes one frame";

/// `english` (about `name`), then "; did you mean …?" with `suggestions` if there are
/// any: id `ids[k]` for k suggestions, each a parameter (`a`, `b`, `c`), so that a
/// language joins them with its own "or". [`crate::expr::nearest`] gives at most three.
fn suggested(ids: [&'static str; 4], english: String, name: &str, suggestions: &[String]) -> Message {
    let shown = &suggestions[..suggestions.len().min(3)];
    let english = if shown.is_empty() { english } else { format!("{english}; did you mean {}?", list(shown)) };
    let mut m = Message::new(ids[shown.len()], english).arg("name", name);
    for (place, s) in ["a", "b", "c"].into_iter().zip(shown) {
        m = m.arg(place, s);
    }
    m
}

crate::message::words_are_the_message!(ParseErrorKind);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_place_every_offset_as_line_col_does() {
        for text in ["", "a", "\n", "ab\ncd\n", "x = 1\nθ = \"φ\" # ü\n\n[t]\nk = 'é'", "€\n\n€€\n"] {
            let lines = Lines::new(text);
            for offset in 0..=text.len() + 2 {
                assert_eq!(lines.line_col(text, offset), line_col(text, offset), "{text:?} at {offset}");
            }
        }
    }
}
