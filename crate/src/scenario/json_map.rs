//! Where each field of a JSON text is: path → (byte offset of its key, byte range
//! of its value, what kind of value). serde_json gives positions only for syntax
//! and type errors and keeps none in its values, so this small scanner gives JSON
//! scenarios the field positions TOML's parser gives (`toml::de::DeTable`).
//!
//! It reads as far as the text is well-formed and stops at the first thing it does
//! not understand, so a broken text still maps its beginning. Nesting deeper than
//! [`MAX_DEPTH`] stops it and is reported: what follows would go unmapped, its
//! unknown keys unreported.

use alloc::format;
use alloc::string::String;

use super::places::{Places, ValueKind};

/// Deepest nesting followed (serde_json's own recursion limit is 128).
pub(crate) const MAX_DEPTH: usize = 128;

/// What the scan found: every field's place, the keys given twice in one object
/// (path, byte offset of the second key), and where the nesting went past
/// [`MAX_DEPTH`] (the path above it, the byte offset), if it did.
pub(crate) struct Scan {
    pub(crate) places: Places,
    pub(crate) twice: alloc::vec::Vec<(String, usize)>,
    pub(crate) too_deep: Option<(String, usize)>,
}

/// Every field's place in `text`, as far as it is well-formed JSON, and the keys
/// given twice in one object (serde_json keeps the last silently, where TOML refuses
/// them).
pub(crate) fn places(text: &str) -> Scan {
    let mut scanner =
        Scanner { bytes: text.as_bytes(), at: 0, places: Places::new(), twice: alloc::vec::Vec::new(), too_deep: None };
    scanner.skip_space();
    let _ = scanner.value(String::new(), None, 0);
    Scan { places: scanner.places, twice: scanner.twice, too_deep: scanner.too_deep }
}

struct Scanner<'a> {
    bytes: &'a [u8],
    at: usize,
    places: Places,
    twice: alloc::vec::Vec<(String, usize)>,
    too_deep: Option<(String, usize)>,
}

impl Scanner<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn expect(&mut self, b: u8) -> Option<()> {
        self.skip_space();
        (self.peek() == Some(b)).then(|| self.at += 1)
    }

    /// A string's contents (escapes kept as written: keys are plain names).
    fn string(&mut self) -> Option<String> {
        if self.peek() != Some(b'"') {
            return None;
        }
        let start = self.at + 1;
        self.at += 1;
        loop {
            match self.peek()? {
                b'\\' => self.at += 2,
                b'"' => break,
                _ => self.at += 1,
            }
        }
        let s = core::str::from_utf8(self.bytes.get(start..self.at)?).ok()?.into();
        self.at += 1;
        Some(s)
    }

    /// The value at the cursor, recorded under `path` (the root has an empty path
    /// and is not recorded).
    fn value(&mut self, path: String, key: Option<usize>, depth: usize) -> Option<()> {
        if depth > MAX_DEPTH {
            self.too_deep = Some((path, self.at));
            return None;
        }
        self.skip_space();
        let start = self.at;
        let kind = match self.peek()? {
            b'{' => {
                self.at += 1;
                self.skip_space();
                if self.peek() == Some(b'}') {
                    self.at += 1;
                } else {
                    loop {
                        self.skip_space();
                        let key_at = self.at;
                        let name = self.string()?;
                        self.expect(b':')?;
                        let child = if path.is_empty() { name } else { format!("{path}.{name}") };
                        if self.places.contains_key(&child) {
                            self.twice.push((child.clone(), key_at));
                        }
                        self.value(child, Some(key_at), depth + 1)?;
                        self.skip_space();
                        match self.peek()? {
                            b',' => self.at += 1,
                            b'}' => {
                                self.at += 1;
                                break;
                            }
                            _ => return None,
                        }
                    }
                }
                ValueKind::Table
            }
            b'[' => {
                self.at += 1;
                self.skip_space();
                if self.peek() == Some(b']') {
                    self.at += 1;
                } else {
                    let mut i = 0;
                    loop {
                        self.value(format!("{path}[{i}]"), None, depth + 1)?;
                        i += 1;
                        self.skip_space();
                        match self.peek()? {
                            b',' => self.at += 1,
                            b']' => {
                                self.at += 1;
                                break;
                            }
                            _ => return None,
                        }
                    }
                }
                ValueKind::Array
            }
            b'"' => {
                self.string()?;
                ValueKind::Scalar
            }
            _ => {
                while matches!(self.peek(), Some(b) if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'+' | b'.')) {
                    self.at += 1;
                }
                if self.at == start {
                    return None;
                }
                ValueKind::Scalar
            }
        };
        if !path.is_empty() {
            self.places.insert(path, (key, start..self.at, kind));
        }
        Some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_located_with_their_kind() {
        let text = "{\"title\": \"x\",\n \"run\": {\"methods\": [\"lagrange\", \"gauss\"]}, \"initial\": [1, 2]}";
        let Scan { places: p, twice, too_deep } = places(text);
        assert!(twice.is_empty() && too_deep.is_none());
        assert_eq!(p["title"], (Some(1), 10..13, ValueKind::Scalar));
        assert_eq!(&text[p["run.methods[1]"].1.clone()], "\"gauss\"");
        assert_eq!(p["run"].2, ValueKind::Table);
        assert_eq!(p["initial"].2, ValueKind::Array);
        assert_eq!(p["initial[1]"].2, ValueKind::Scalar);
    }

    #[test]
    fn broken_or_deep_texts_map_what_comes_first() {
        let p = places("{\"title\": \"x\", \"coordinates\": [\"x\", ").places;
        assert!(p.contains_key("title") && p.contains_key("coordinates[0]"));
        let deep = format!("{{\"a\": {}1{}}}", "[".repeat(10_000), "]".repeat(10_000));
        let scan = places(&deep);
        assert!(scan.places.len() < 200, "stops at the depth limit");
        let (path, at) = scan.too_deep.expect("says where");
        assert!(path.starts_with("a[0][0]") && at == 6 + MAX_DEPTH, "{at}");
    }
}
