//! Reading a JSON scenario into the tree TOML's reader makes (`toml::de::DeTable`,
//! every value with its byte range), so that one deserializer,
//! `toml::de::Deserializer`, reads the scenario's types from either format; and
//! where each field is (path → key, value range, kind), as TOML's tree gives it.
//!
//! Written here rather than taken from serde_json: serde_json's deserializer made
//! for the scenario's types was 146 KB of the helper's WebAssembly module (34 KiB
//! of its 529 KiB brotli, 2026-11-28), a second reader of the types TOML's tree is
//! already read into, and it keeps no positions in its values. The syntax errors
//! are serde_json's own words at serde_json's places (the tests hold this reader to
//! serde_json's verdict on broken texts), so [`crate::message::syntax`] says them.
//!
//! What JSON has and TOML's tree has not:
//! - `null`: a member whose value is `null` is left out, read as not given (an
//!   optional field is absent, a field with a default takes it); `null` in a list
//!   is refused at its place.
//! - numbers: an integer is an integer (refused beyond 64 bits, where serde_json
//!   read a float: write `1e20`), `-0` is the float −0, as serde_json reads it, and
//!   a float beyond f64's range is refused ("number out of range"); every number is
//!   converted as TOML's are, correctly rounded: the same digits give the same bits
//!   in both formats.
//!
//! Nesting deeper than [`MAX_DEPTH`] stops the reader and is reported with the path
//! above it, so no key after it goes unchecked.

use alloc::borrow::Cow;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use toml::de::{DeArray, DeTable, DeValue};
use toml::Spanned;

use super::places::{Places, ValueKind};

/// Deepest nesting followed (serde_json's own recursion limit is 128).
pub(crate) const MAX_DEPTH: usize = 128;

/// What reading a JSON text found.
pub(crate) struct Read<'a> {
    /// The value the text holds (`None`: `null`), or the first syntax error: a
    /// serde_json message ([`crate::message::syntax`]) and the byte offset it is at.
    pub(crate) root: Result<Option<Spanned<DeValue<'a>>>, (&'static str, usize)>,
    /// Every field's place, as far as the text is well-formed.
    pub(crate) places: Places,
    /// Keys given twice in one object (path, byte offset of the second key):
    /// serde_json keeps the last silently, where TOML refuses them.
    pub(crate) twice: Vec<(String, usize)>,
    /// Where the nesting went past [`MAX_DEPTH`] (the path above it, the byte
    /// offset), if it did.
    pub(crate) too_deep: Option<(String, usize)>,
    /// The byte offset of the first `null` in a list (one problem, however many:
    /// each would be looked up among all the places).
    pub(crate) null_in_list: Option<usize>,
}

/// Reads `text` as one JSON value.
pub(crate) fn read(text: &str) -> Read<'_> {
    let mut reader = Reader {
        text,
        bytes: text.as_bytes(),
        at: 0,
        places: Places::new(),
        budget: super::places::path_budget(text.len()),
        twice: Vec::new(),
        too_deep: None,
        null_in_list: None,
    };
    let root = reader.value("", None, 0).and_then(|value| match reader.space() {
        Some(_) => Err(reader.peek_error("trailing characters")),
        None => Ok(value),
    });
    let root = root.map_err(|stop| match stop {
        Stop::Syntax(words, at) => (words, at),
        Stop::TooDeep => ("recursion limit exceeded", reader.at),
    });
    Read {
        root,
        places: reader.places,
        twice: reader.twice,
        too_deep: reader.too_deep,
        null_in_list: reader.null_in_list,
    }
}

/// Why reading stopped.
enum Stop {
    /// A syntax error: serde_json's words, the byte offset.
    Syntax(&'static str, usize),
    /// Nesting past [`MAX_DEPTH`] (recorded in `too_deep`).
    TooDeep,
}

/// The path of a value past the index's budget ([`super::places::path_budget`]):
/// not recorded, nor are its children.
const UNINDEXED: &str = "\u{1}(not indexed)";

struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    places: Places,
    /// Bytes of paths the index may still hold.
    budget: usize,
    twice: Vec<(String, usize)>,
    too_deep: Option<(String, usize)>,
    null_in_list: Option<usize>,
}

type Step<T> = Result<T, Stop>;

impl<'a> Reader<'a> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    /// Skips white space; the byte after it.
    fn space(&mut self) -> Option<u8> {
        while let Some(b' ' | b'\t' | b'\n' | b'\r') = self.peek() {
            self.at += 1;
        }
        self.peek()
    }

    /// An error at the byte last read (serde_json's `error`).
    fn error(&self, words: &'static str) -> Stop {
        Stop::Syntax(words, self.offset(self.at))
    }

    /// An error at the byte looked at (serde_json's `peek_error`).
    fn peek_error(&self, words: &'static str) -> Stop {
        Stop::Syntax(words, self.offset((self.at + 1).min(self.bytes.len())))
    }

    /// The byte that serde_json's position `index` (its line and column, read back
    /// as they were: the column's character, counted from 1) names.
    fn offset(&self, index: usize) -> usize {
        let line_start = self.bytes[..index].iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let at = if index == line_start { index } else { index - 1 };
        (0..=at).rev().find(|&i| self.text.is_char_boundary(i)).unwrap_or(0)
    }

    /// The value at the cursor (`None`: `null`), recorded under `path` (the root has
    /// an empty path and is not recorded).
    fn value(&mut self, path: &str, key: Option<usize>, depth: usize) -> Step<Option<Spanned<DeValue<'a>>>> {
        if depth > MAX_DEPTH {
            self.too_deep = Some((path.into(), self.at));
            return Err(Stop::TooDeep);
        }
        let Some(first) = self.space() else {
            return Err(self.peek_error("EOF while parsing a value"));
        };
        let start = self.at;
        // The place's path is paid for before its children's (the budget bounds them all).
        let indexed = !path.is_empty() && !path.starts_with(UNINDEXED);
        if indexed {
            self.budget = self.budget.saturating_sub(path.len());
        }
        let parsed = match first {
            b'n' => self.word(b"null").map(|()| (None, ValueKind::Null)),
            b't' => self.word(b"true").map(|()| (Some(DeValue::Boolean(true)), ValueKind::Scalar)),
            b'f' => self.word(b"false").map(|()| (Some(DeValue::Boolean(false)), ValueKind::Scalar)),
            b'-' | b'0'..=b'9' => self.number().map(|n| (Some(n), ValueKind::Scalar)),
            b'"' => self.string().map(|s| (Some(DeValue::String(s)), ValueKind::Scalar)),
            b'[' => self.array(path, depth).map(|a| (Some(DeValue::Array(a)), ValueKind::Array)),
            b'{' => self.object(path, depth).map(|t| (Some(DeValue::Table(t)), ValueKind::Table)),
            _ => Err(self.peek_error("expected value")),
        };
        let (value, kind) = match parsed {
            Ok(parsed) => parsed,
            Err(stop) => {
                if !path.is_empty() && !path.starts_with(UNINDEXED) && !matches!(first, b'[' | b'{') && self.at > start
                {
                    // A broken number, string or word is still its field's: the
                    // problem names the field (the range takes in the byte blamed).
                    self.places.insert(path.into(), (key, start..self.at + 1, ValueKind::Scalar));
                }
                return Err(stop);
            }
        };
        // A `null` member is a field not given, located as `Null` (`"view": null` is
        // no table of the wrong kind; issue 57).
        if indexed {
            self.places.insert(path.into(), (key, start..self.at, kind));
        }
        Ok(value.map(|value| Spanned::new(start..self.at, value)))
    }

    /// `null`, `true` or `false`, whose first byte is at the cursor.
    fn word(&mut self, word: &[u8]) -> Step<()> {
        self.at += 1;
        for &expected in &word[1..] {
            let Some(next) = self.peek() else {
                return Err(self.error("EOF while parsing a value"));
            };
            self.at += 1;
            if next != expected {
                return Err(self.error("expected ident"));
            }
        }
        Ok(())
    }

    /// The digits at the cursor; whether there was one.
    fn digits(&mut self) -> bool {
        let start = self.at;
        while let Some(b'0'..=b'9') = self.peek() {
            self.at += 1;
        }
        self.at > start
    }

    /// A number: checked as serde_json reads it, converted as TOML's are.
    fn number(&mut self) -> Step<DeValue<'a>> {
        let start = self.at;
        if self.peek() == Some(b'-') {
            self.at += 1;
        }
        let Some(first) = self.peek() else {
            return Err(self.error("EOF while parsing a value"));
        };
        self.at += 1;
        match first {
            b'0' if matches!(self.peek(), Some(b'0'..=b'9')) => return Err(self.peek_error("invalid number")),
            b'0' => {}
            b'1'..=b'9' => {
                self.digits();
            }
            _ => return Err(self.error("invalid number")),
        }
        let mut integer = true;
        if self.peek() == Some(b'.') {
            integer = false;
            self.at += 1;
            if !self.digits() {
                let words = if self.peek().is_some() { "invalid number" } else { "EOF while parsing a value" };
                return Err(self.peek_error(words));
            }
        }
        if let Some(b'e' | b'E') = self.peek() {
            integer = false;
            self.at += 1;
            if let Some(b'+' | b'-') = self.peek() {
                self.at += 1;
            }
            let Some(next) = self.peek() else {
                return Err(self.error("EOF while parsing a value"));
            };
            self.at += 1;
            if !next.is_ascii_digit() {
                return Err(self.error("invalid number"));
            }
            self.digits();
        }
        let literal = &self.text[start..self.at];
        if literal == "-0" {
            // serde_json reads `-0` as the float −0.
            return Ok(DeValue::parse("-0.0").map_err(|_| self.error("invalid number"))?.into_inner());
        }
        let fits = literal.parse::<i64>().is_ok() || literal.parse::<u64>().is_ok();
        let finite = literal.parse::<f64>().is_ok_and(f64::is_finite);
        if (integer && !fits) || (!integer && !finite) {
            return Err(self.error("number out of range"));
        }
        // A JSON number is a TOML number, written the same way.
        DeValue::parse(literal).map(Spanned::into_inner).map_err(|_| self.error("invalid number"))
    }

    /// A string whose opening quote is at the cursor: its contents, escapes read.
    fn string(&mut self) -> Step<Cow<'a, str>> {
        self.at += 1;
        let start = self.at;
        let mut unescaped: Option<String> = None;
        let mut plain = start;
        loop {
            let Some(byte) = self.peek() else {
                return Err(self.error("EOF while parsing a string"));
            };
            match byte {
                b'"' => {
                    let last = &self.text[plain..self.at];
                    self.at += 1;
                    return Ok(match unescaped {
                        Some(mut s) => {
                            s.push_str(last);
                            s.into()
                        }
                        None => last.into(),
                    });
                }
                b'\\' => {
                    let before = &self.text[plain..self.at];
                    self.at += 1;
                    let c = self.escape()?;
                    let s = unescaped.get_or_insert_with(String::new);
                    s.push_str(before);
                    s.push(c);
                    plain = self.at;
                }
                0..=0x1f => {
                    self.at += 1;
                    return Err(self.error("control character (\\u0000-\\u001F) found while parsing a string"));
                }
                _ => self.at += 1,
            }
        }
    }

    /// The character an escape stands for (the cursor after its backslash).
    fn escape(&mut self) -> Step<char> {
        let Some(byte) = self.peek() else {
            return Err(self.error("EOF while parsing a string"));
        };
        self.at += 1;
        Ok(match byte {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => return self.unicode_escape(),
            _ => return Err(self.error("invalid escape")),
        })
    }

    /// `\uXXXX`, or a surrogate pair of two (the cursor after the `u`).
    fn unicode_escape(&mut self) -> Step<char> {
        let first = self.hex()?;
        if (0xDC00..=0xDFFF).contains(&first) {
            return Err(self.error("lone leading surrogate in hex escape"));
        }
        if !(0xD800..=0xDBFF).contains(&first) {
            return Ok(char::from_u32(first).unwrap_or(char::REPLACEMENT_CHARACTER));
        }
        for expected in [b'\\', b'u'] {
            let Some(byte) = self.peek() else {
                return Err(self.error("EOF while parsing a string"));
            };
            self.at += 1;
            if byte != expected {
                return Err(self.error("unexpected end of hex escape"));
            }
        }
        let second = self.hex()?;
        if !(0xDC00..=0xDFFF).contains(&second) {
            return Err(self.error("lone leading surrogate in hex escape"));
        }
        let code = (((first - 0xD800) << 10) | (second - 0xDC00)) + 0x1_0000;
        Ok(char::from_u32(code).unwrap_or(char::REPLACEMENT_CHARACTER))
    }

    /// Four hexadecimal digits.
    fn hex(&mut self) -> Step<u32> {
        let Some(digits) = self.bytes.get(self.at..self.at + 4) else {
            self.at = self.bytes.len();
            return Err(self.error("EOF while parsing a string"));
        };
        self.at += 4;
        let digits = core::str::from_utf8(digits).ok().filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()));
        digits.and_then(|d| u32::from_str_radix(d, 16).ok()).ok_or_else(|| self.error("invalid escape"))
    }

    /// A list whose `[` is at the cursor.
    fn array(&mut self, path: &str, depth: usize) -> Step<DeArray<'a>> {
        self.at += 1;
        let mut items = DeArray::new();
        let mut index = 0;
        loop {
            match self.space() {
                None => return Err(self.peek_error("EOF while parsing a list")),
                Some(b']') => break,
                Some(_) if index == 0 => {}
                Some(b',') => {
                    self.at += 1;
                    match self.space() {
                        Some(b']') => return Err(self.peek_error("trailing comma")),
                        None => return Err(self.peek_error("EOF while parsing a value")),
                        Some(_) => {}
                    }
                }
                Some(_) => return Err(self.peek_error("expected `,` or `]`")),
            }
            let at = self.at;
            // Each element's path copies the array's: none past the budget.
            let element = if path.starts_with(UNINDEXED) || path.len() + 22 > self.budget {
                String::from(UNINDEXED)
            } else {
                format!("{path}[{index}]")
            };
            match self.value(&element, None, depth + 1)? {
                Some(item) => items.push(item),
                None => _ = self.null_in_list.get_or_insert(at),
            }
            index += 1;
        }
        self.at += 1;
        Ok(items)
    }

    /// An object whose `{` is at the cursor; a member whose value is `null` is left
    /// out.
    fn object(&mut self, path: &str, depth: usize) -> Step<DeTable<'a>> {
        self.at += 1;
        let mut table = DeTable::new();
        let mut first = true;
        loop {
            match self.space() {
                None => return Err(self.peek_error("EOF while parsing an object")),
                Some(b'}') => break,
                Some(b'"') if first => {}
                Some(_) if first => return Err(self.peek_error("key must be a string")),
                Some(b',') => {
                    self.at += 1;
                    match self.space() {
                        Some(b'"') => {}
                        Some(b'}') => return Err(self.peek_error("trailing comma")),
                        None => return Err(self.peek_error("EOF while parsing a value")),
                        Some(_) => return Err(self.peek_error("key must be a string")),
                    }
                }
                Some(_) => return Err(self.peek_error("expected `,` or `}`")),
            }
            first = false;
            let key_at = self.at;
            let name = self.string()?;
            let key_span = key_at..self.at;
            match self.space() {
                Some(b':') => self.at += 1,
                Some(_) => return Err(self.peek_error("expected `:`")),
                None => return Err(self.peek_error("EOF while parsing an object")),
            }
            let child = if path.starts_with(UNINDEXED) || path.len() + name.len() + 3 > self.budget {
                String::from(UNINDEXED)
            } else {
                super::places::child_path(path, &name)
            };
            if self.places.contains_key(&child) {
                self.twice.push((child.clone(), key_at));
            }
            if let Some(value) = self.value(&child, Some(key_at), depth + 1)? {
                table.insert(Spanned::new(key_span, name), value);
            }
        }
        self.at += 1;
        Ok(table)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(text: &str) -> DeValue<'_> {
        read(text).root.unwrap_or_else(|e| panic!("{text}: {e:?}")).expect("not null").into_inner()
    }

    fn error(text: &str) -> (&'static str, usize) {
        match read(text).root {
            Err(e) => e,
            Ok(v) => panic!("{text} read as {v:?}"),
        }
    }

    #[test]
    fn fields_are_located_with_their_kind() {
        let text = "{\"title\": \"x\",\n \"run\": {\"methods\": [\"lagrange\", \"gauss\"]}, \"initial\": [1, 2]}";
        let Read { places: p, twice, too_deep, root, .. } = read(text);
        assert!(twice.is_empty() && too_deep.is_none() && root.is_ok());
        assert_eq!(p["title"], (Some(1), 10..13, ValueKind::Scalar));
        assert_eq!(&text[p["run.methods[1]"].1.clone()], "\"gauss\"");
        assert_eq!(p["run"].2, ValueKind::Table);
        assert_eq!(p["initial"].2, ValueKind::Array);
        assert_eq!(p["initial[1]"].2, ValueKind::Scalar);
        // A key is its contents, escapes read.
        assert!(read("{\"ti\\u0074le\": 1}").places.contains_key("title"));
    }

    #[test]
    fn broken_or_deep_texts_map_what_comes_first() {
        let r = read("{\"title\": \"x\", \"coordinates\": [\"x\", ");
        assert!(r.places.contains_key("title") && r.places.contains_key("coordinates[0]"));
        assert_eq!(r.root.unwrap_err().0, "EOF while parsing a value");
        let deep = format!("{{\"a\": {}1{}}}", "[".repeat(10_000), "]".repeat(10_000));
        let scan = read(&deep);
        assert!(scan.places.len() < 200, "stops at the depth limit");
        let (path, at) = scan.too_deep.expect("says where");
        assert!(path.starts_with("a[0][0]") && at == 6 + MAX_DEPTH, "{at}");
    }

    #[test]
    fn numbers_are_serde_jsons_values_written_as_toml_writes_them() {
        let number = |text: &str| match value(text) {
            DeValue::Integer(n) => n.as_str().parse::<f64>().unwrap(),
            DeValue::Float(f) => f.as_str().parse::<f64>().unwrap(),
            other => panic!("{other:?}"),
        };
        assert!(matches!(value("3"), DeValue::Integer(_)) && matches!(value("-3"), DeValue::Integer(_)));
        assert!(matches!(value("18446744073709551615"), DeValue::Integer(_)), "u64::MAX is an integer");
        assert!(matches!(value("3.0"), DeValue::Float(_)) && matches!(value("1E5"), DeValue::Float(_)));
        assert_eq!(number("1E5"), 1e5);
        assert_eq!(number("-1.5e-3"), -1.5e-3);
        assert_eq!(number("2.5E+2"), 250.0);
        let minus_zero = number("-0");
        assert!(minus_zero == 0.0 && minus_zero.is_sign_negative(), "-0 is the float −0");
        assert!(matches!(value("-0"), DeValue::Float(_)));
        assert_eq!(error("1e400"), ("number out of range", 4));
        let r = read("{\"a\": 1e400, \"b\": 1}");
        assert_eq!(r.places["a"].1, 6..12, "a broken number is still its field's (its last byte blamed)");
        assert_eq!(error("[1, 123456789012345678901234]").0, "number out of range");
        assert_eq!(error("-").0, "EOF while parsing a value");
        assert_eq!(error("01"), ("invalid number", 1));
        assert_eq!(error("1.x"), ("invalid number", 2));
        assert_eq!(error("1e+"), ("EOF while parsing a value", 2));
        assert_eq!(error("[-a]").0, "invalid number");
    }

    #[test]
    fn strings_read_every_escape_and_refuse_broken_ones() {
        let string = |text: &str| match value(text) {
            DeValue::String(s) => s.into_owned(),
            other => panic!("{other:?}"),
        };
        assert_eq!(string(r#""a\"b\\c\/d\b\f\n\r\t""#), "a\"b\\c/d\u{8}\u{c}\n\r\t");
        assert_eq!(string(r#""\u00e9\u4e2d\ud83d\ude00 ψ̇""#), "é中😀 ψ̇");
        assert!(matches!(value(r#""plain""#), DeValue::String(Cow::Borrowed("plain"))), "no copy without escapes");
        assert_eq!(error(r#""\x""#).0, "invalid escape");
        assert_eq!(error(r#""\u12g4""#).0, "invalid escape");
        assert_eq!(error(r#""\ude00""#).0, "lone leading surrogate in hex escape");
        assert_eq!(error(r#""\ud83dx""#).0, "unexpected end of hex escape");
        assert_eq!(error(r#""\ud83d\u0041""#).0, "lone leading surrogate in hex escape");
        assert_eq!(error("\"a\u{1}\"").0, "control character (\\u0000-\\u001F) found while parsing a string");
        assert_eq!(error("\"abc").0, "EOF while parsing a string");
    }

    #[test]
    fn null_members_are_left_out_and_nulls_in_lists_are_found() {
        let r = read("{\"a\": null, \"b\": [1, null]}");
        let DeValue::Table(t) = r.root.unwrap().unwrap().into_inner() else { panic!() };
        assert_eq!(t.len(), 1, "the null member is left out");
        assert!(r.places.contains_key("a"), "but located");
        assert_eq!(r.null_in_list, Some(21));
        assert!(read("null").root.unwrap().is_none());
    }
}
