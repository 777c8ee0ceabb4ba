//! A TOML or JSON reader's own words for a syntax error, said by id: the
//! descriptions `toml_parser` (1.1) and `toml` (1.2) write for a malformed TOML
//! text and what they expected there, and `serde_json`'s (1.0) error codes.
//! [`said`] recognises them by their text (the readers have no codes for them);
//! a word a newer reader writes that is not here is said as written, and
//! this module's test fails on it for the syntax errors it makes.

use super::{phrase, Message, Part};

messages! {
    /// What is wrong, then what the reader expected there (a list).
    with_expected(what, expected) "syntax.with-expected" "{what}, expected {expected}"
    /// Two or more things the reader would have taken (`rest` may be a list itself).
    alternatives(first, rest) "syntax.alternatives" "{first}, {rest}"
}

/// The readers' words, each with its id: `(id, English)`.
pub const WORDS: &[(&str, &str)] = &[
    // TOML: what is wrong.
    ("syntax.toml.underscore-may-only-go-between-digits", "`_` may only go between digits"),
    ("syntax.toml.cannot-recurse-further-max-recursion-depth-met", "cannot recurse further; max recursion depth met"),
    ("syntax.toml.carriage-return-must-be-followed-by-newline", "carriage return must be followed by newline"),
    ("syntax.toml.extra-equals", "extra `=`"),
    ("syntax.toml.extra-assignment-between-key-value-pairs", "extra assignment between key-value pairs"),
    ("syntax.toml.extra-comma-in-array", "extra comma in array"),
    ("syntax.toml.extra-comma-in-inline-table", "extra comma in inline table"),
    ("syntax.toml.integers-with-a-radix-cannot-be-signed", "integers with a radix cannot be signed"),
    ("syntax.toml.invalid-basic-string", "invalid basic string"),
    ("syntax.toml.invalid-binary-number", "invalid binary number"),
    ("syntax.toml.invalid-boolean", "invalid boolean"),
    ("syntax.toml.invalid-comment-character", "invalid comment character"),
    ("syntax.toml.invalid-date-time", "invalid date-time"),
    ("syntax.toml.invalid-exponent", "invalid exponent"),
    ("syntax.toml.invalid-float", "invalid float"),
    ("syntax.toml.invalid-fraction", "invalid fraction"),
    ("syntax.toml.invalid-hexadecimal-number", "invalid hexadecimal number"),
    ("syntax.toml.invalid-inline-table-element", "invalid inline table element"),
    ("syntax.toml.invalid-integer-number", "invalid integer number"),
    ("syntax.toml.invalid-key", "invalid key"),
    ("syntax.toml.invalid-key-value-pair", "invalid key-value pair"),
    ("syntax.toml.invalid-literal-string", "invalid literal string"),
    ("syntax.toml.invalid-mantissa", "invalid mantissa"),
    ("syntax.toml.invalid-multi-line-basic-string", "invalid multi-line basic string"),
    ("syntax.toml.invalid-multi-line-literal-string", "invalid multi-line literal string"),
    ("syntax.toml.invalid-octal-number", "invalid octal number"),
    ("syntax.toml.invalid-string", "invalid string"),
    ("syntax.toml.invalid-table", "invalid table"),
    ("syntax.toml.invalid-unquoted-key", "invalid unquoted key"),
    ("syntax.toml.invalid-value", "invalid value"),
    ("syntax.toml.key-with-no-value", "key with no value"),
    ("syntax.toml.keys-cannot-be-multi-line-basic-strings", "keys cannot be multi-line basic strings"),
    ("syntax.toml.keys-cannot-be-multi-line-literal-strings", "keys cannot be multi-line literal strings"),
    ("syntax.toml.missing-array-opening", "missing array opening"),
    ("syntax.toml.missing-assignment-between-key-value-pairs", "missing assignment between key-value pairs"),
    ("syntax.toml.missing-comma-between-array-elements", "missing comma between array elements"),
    ("syntax.toml.missing-comma-between-key-value-pairs", "missing comma between key-value pairs"),
    ("syntax.toml.missing-comment-start", "missing comment start"),
    ("syntax.toml.missing-escaped-value", "missing escaped value"),
    ("syntax.toml.missing-inline-table-opening", "missing inline table opening"),
    ("syntax.toml.missing-key-for-inline-table-element", "missing key for inline table element"),
    ("syntax.toml.missing-opening-quote", "missing opening quote"),
    ("syntax.toml.missing-table-open", "missing table open"),
    ("syntax.toml.missing-value-for-key", "missing value for key"),
    ("syntax.toml.missing-value", "missing value"),
    ("syntax.toml.radix-must-be-lowercase", "radix must be lowercase"),
    ("syntax.toml.redundant-integer-number-prefix", "redundant integer number prefix"),
    ("syntax.toml.redundant-numeric-sign", "redundant numeric sign"),
    ("syntax.toml.string-values-must-be-quoted", "string values must be quoted"),
    ("syntax.toml.too-few-unicode-value-digits", "too few unicode value digits"),
    ("syntax.toml.unclosed-array-table", "unclosed array table"),
    ("syntax.toml.unclosed-array", "unclosed array"),
    ("syntax.toml.unclosed-inline-table", "unclosed inline table"),
    ("syntax.toml.unclosed-table", "unclosed table"),
    ("syntax.toml.unexpected-equals-in-array", "unexpected `=` in array"),
    ("syntax.toml.unexpected-content-between-comment-and-newline", "unexpected content between comment and newline"),
    ("syntax.toml.unexpected-content", "unexpected content"),
    ("syntax.toml.unexpected-key-or-value", "unexpected key or value"),
    ("syntax.toml.unexpected-leading-zero", "unexpected leading zero"),
    ("syntax.toml.unexpected-sign", "unexpected sign"),
    ("syntax.toml.unquoted-keys-cannot-be-empty", "unquoted keys cannot be empty"),
    ("syntax.toml.integer-number-overflowed", "integer number overflowed"),
    ("syntax.toml.floating-point-number-overflowed", "floating-point number overflowed"),
    ("syntax.toml.recursion-limit", "recursion limit"),
    ("syntax.toml.invalid-datetime", "invalid datetime"),
    ("syntax.toml.invalid-date", "invalid date"),
    ("syntax.toml.invalid-time", "invalid time"),
    ("syntax.toml.invalid-offset", "invalid offset"),
    // TOML: what the reader expected.
    ("syntax.expected.basic-string", "basic string"),
    ("syntax.expected.characters", "characters"),
    ("syntax.expected.digits", "digits"),
    ("syntax.expected.key", "key"),
    ("syntax.expected.key-separator", "key separator"),
    ("syntax.expected.key-value-separator", "key-value separator"),
    ("syntax.expected.letters", "letters"),
    ("syntax.expected.literal-string", "literal string"),
    ("syntax.expected.multi-line-basic-string", "multi-line basic string"),
    ("syntax.expected.multi-line-literal-string", "multi-line literal string"),
    ("syntax.expected.non-double-quote-visible-characters", "non-double-quote visible characters"),
    ("syntax.expected.non-single-quote-characters", "non-single-quote characters"),
    ("syntax.expected.non-single-quote-visible-characters", "non-single-quote visible characters"),
    ("syntax.expected.numbers", "numbers"),
    ("syntax.expected.printable-characters", "printable characters"),
    ("syntax.expected.string", "string"),
    ("syntax.expected.unicode-hexadecimal-value", "unicode hexadecimal value"),
    ("syntax.expected.unquoted-string", "unquoted string"),
    ("syntax.expected.value-separator", "value separator"),
    ("syntax.expected.value", "value"),
    ("syntax.expected.newline", "newline"),
    ("syntax.expected.nothing", "nothing"),
    ("syntax.expected.year-or-hour", "year or hour"),
    ("syntax.expected.month", "month"),
    ("syntax.expected.day", "day"),
    ("syntax.expected.hour", "hour"),
    ("syntax.expected.minute", "minute"),
    ("syntax.expected.second", "second"),
    ("syntax.expected.nanosecond", "nanosecond"),
    // JSON: serde_json's error codes.
    ("syntax.json.eof-while-parsing-a-list", "EOF while parsing a list"),
    ("syntax.json.eof-while-parsing-an-object", "EOF while parsing an object"),
    ("syntax.json.eof-while-parsing-a-string", "EOF while parsing a string"),
    ("syntax.json.eof-while-parsing-a-value", "EOF while parsing a value"),
    ("syntax.json.expected-colon", "expected `:`"),
    ("syntax.json.expected-comma-or-bracket", "expected `,` or `]`"),
    ("syntax.json.expected-comma-or-brace", "expected `,` or `}`"),
    ("syntax.json.expected-ident", "expected ident"),
    ("syntax.json.expected-value", "expected value"),
    ("syntax.json.expected-quote", "expected `\"`"),
    ("syntax.json.invalid-escape", "invalid escape"),
    ("syntax.json.invalid-number", "invalid number"),
    ("syntax.json.number-out-of-range", "number out of range"),
    ("syntax.json.invalid-unicode-code-point", "invalid unicode code point"),
    ("syntax.json.control-character", "control character (\\u0000-\\u001F) found while parsing a string"),
    ("syntax.json.key-must-be-a-string", "key must be a string"),
    ("syntax.json.lone-leading-surrogate-in-hex-escape", "lone leading surrogate in hex escape"),
    ("syntax.json.trailing-comma", "trailing comma"),
    ("syntax.json.trailing-characters", "trailing characters"),
    ("syntax.json.unexpected-end-of-hex-escape", "unexpected end of hex escape"),
    ("syntax.json.recursion-limit-exceeded", "recursion limit exceeded"),
];

/// A reader's message in words with ids: a known description, or one followed by
/// `, expected a, b` (each a known word or a literal such as `` `]` ``); else the
/// message as written.
pub fn said(message: &str) -> Message {
    if let Some(known) = word(message) {
        return known;
    }
    if let Some((what, expected)) = message.split_once(", expected ") {
        if let Some(what) = word(what) {
            let items: alloc::vec::Vec<Message> = expected.split(", ").map(item).collect();
            let list = items.into_iter().rev().reduce(|rest, first| alternatives(Part(first), Part(rest)));
            if let Some(list) = list {
                return with_expected(Part(what), Part(list));
            }
        }
    }
    phrase::verbatim(message)
}

/// One word of the table (a template without parameters) whose English is `text`.
fn word(text: &str) -> Option<Message> {
    WORDS.iter().find(|(_, english)| *english == text).map(|(id, english)| Message::new(id, (*english).into()))
}

/// An item of what the reader expected: a word, or a literal said as written.
fn item(text: &str) -> Message {
    word(text).unwrap_or_else(|| phrase::verbatim(text))
}

#[cfg(test)]
mod tests {
    use crate::message::Message;
    use crate::scenario::{load_json, load_toml};
    use alloc::string::String;

    /// Each phrase said as written in `m` (its literals such as `` `]` ``, or a
    /// reader's word the table lacks).
    fn verbatim(m: &Message, out: &mut alloc::vec::Vec<String>) {
        if m.id == "phrase.verbatim" {
            out.push(m.english.clone());
        }
        for (_, part) in &m.parts {
            verbatim(part, out);
        }
    }

    /// Malformed texts of every kind the readers tell apart: each syntax error is
    /// said in words with ids; only literals (`` `]` ``) stay as written. A newer
    /// reader's new wording fails here rather than reaching the page in English.
    #[test]
    fn the_readers_syntax_errors_are_words_with_ids() {
        let toml = [
            "a = ",
            "a = \"x",
            "a = [1, 2",
            "[run",
            "a b = 1",
            "x = tru",
            "a = {b = 1",
            "a = 1__0",
            "a = [1 2]",
            "a = [1,,2]",
            "a = +0xF",
            "a = 012",
            "a = 1979-05-27T",
            "a = 1e",
            "a = 1.",
            "a = \"\\q\"",
            "[[a]",
            "a = 1 b",
            "a == 1",
            "= 1",
            "[run]\nt_end = 99999999999999999999",
            "a = 0XFF",
            "a = 'x",
            "a = \"\"\"x",
            "a = \"\\u12\"",
            "a.\"\"\"b\"\"\" = 1",
            "a = [1 = 2]",
            "a = 1\r",
        ];
        let json = [
            "{\"format\": \"nhlab/1\",",
            "{\"format\" \"x\"}",
            "{\"format\": \"x\",}",
            "{\"a\": [1, 2}",
            "{\"a\": tru}",
            "{\"a\": \"x\\q\"}",
            "{\"a\": 1} x",
            "{a: 1}",
            "{\"a\": 01}",
            "{\"a\": [1, 2",
            "{\"a\": \"x",
            "{\"run\": {\"t_end\": 1e999}}",
            "{\"title\": \"\\ud800\"}",
            "{\"a\": \"x\u{1}\"}",
            "{\"a\": {\"b\": 1",
        ];
        let problems = toml.iter().map(|t| load_toml(t)).chain(json.iter().map(|t| load_json(t)));
        let mut unsaid = alloc::vec::Vec::new();
        for (result, text) in problems.zip(toml.iter().chain(&json)) {
            let Err(p) = result else {
                unsaid.push(alloc::format!("{text:?} was read"));
                continue;
            };
            let p = p.0;
            assert_eq!(p.len(), 1, "{text:?}: {p:?}");
            let m = p[0].said.as_ref().expect("an id");
            assert!(m.well_formed(), "{m:?}");
            let mut as_written = alloc::vec::Vec::new();
            verbatim(m, &mut as_written);
            if !as_written.iter().all(|w| w.starts_with('`') && w.ends_with('`')) {
                unsaid.push(alloc::format!("{text:?}: {}", m.english));
            }
        }
        assert!(unsaid.is_empty(), "said as written: {unsaid:#?}");
    }
}
