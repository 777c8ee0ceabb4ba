//! Tokens of the expression grammar.

use alloc::string::ToString;
use alloc::vec::Vec;

use super::error::{ParseError, ParseErrorKind, Span};
use super::number::{Number, Rational};

/// A token with its span.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Token<'a> {
    pub kind: TokenKind<'a>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) enum TokenKind<'a> {
    Number(Number),
    /// A name and the number of primes written right after it.
    Name(&'a str, usize),
    Plus,
    Minus,
    Star,
    Slash,
    Caret,
    LParen,
    RParen,
    Comma,
    /// `[`, `]` and `.`: vector expressions only (`[0, 0, r] in B`, `B.x`).
    LBracket,
    RBracket,
    Dot,
    End,
}

impl TokenKind<'_> {
    /// Whether this token can start an operand (for the `2x` diagnosis).
    pub fn starts_operand(&self) -> bool {
        matches!(self, TokenKind::Number(_) | TokenKind::Name(..) | TokenKind::LParen)
    }
}

pub(crate) fn tokenize(src: &str) -> Result<Vec<Token<'_>>, ParseError> {
    tokenize_with(src, false)
}

/// Tokens; `vectors` also reads `[`, `]` and a `.` between names (`B.x`), which
/// only vector expressions use.
pub(crate) fn tokenize_with(src: &str, vectors: bool) -> Result<Vec<Token<'_>>, ParseError> {
    let bytes = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        let start = i;
        let single = |kind| Some(kind);
        let kind = match c {
            b' ' | b'\t' | b'\n' | b'\r' => {
                i += 1;
                continue;
            }
            b'+' => single(TokenKind::Plus),
            b'-' => single(TokenKind::Minus),
            b'*' => single(TokenKind::Star),
            b'/' => single(TokenKind::Slash),
            b'^' => single(TokenKind::Caret),
            b'(' => single(TokenKind::LParen),
            b')' => single(TokenKind::RParen),
            b',' => single(TokenKind::Comma),
            b'[' if vectors => single(TokenKind::LBracket),
            b']' if vectors => single(TokenKind::RBracket),
            b'.' if vectors
                && matches!(out.last(), Some(Token { kind: TokenKind::Name(..), .. }))
                && bytes.get(i + 1).is_some_and(u8::is_ascii_alphabetic) =>
            {
                single(TokenKind::Dot)
            }
            _ => None,
        };
        if let Some(kind) = kind {
            i += 1;
            if kind == TokenKind::Star && bytes.get(i) == Some(&b'*') {
                return Err(ParseError {
                    span: Span::new(start, i + 1),
                    kind: ParseErrorKind::UnexpectedCharacter('*'),
                });
            }
            out.push(Token { kind, span: Span::new(start, i) });
        } else if c.is_ascii_digit() || (c == b'.' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)) {
            i = scan_number(bytes, i);
            let text = &src[start..i];
            let n = parse_number(text).map_err(|kind| ParseError { span: Span::new(start, i), kind })?;
            out.push(Token { kind: TokenKind::Number(n), span: Span::new(start, i) });
        } else if c.is_ascii_alphabetic() || c == b'_' {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let name = &src[start..i];
            let mut primes = 0;
            while i < bytes.len() && bytes[i] == b'\'' {
                primes += 1;
                i += 1;
            }
            out.push(Token { kind: TokenKind::Name(name, primes), span: Span::new(start, i) });
        } else {
            let ch = src[start..].chars().next().unwrap_or('\u{fffd}');
            return Err(ParseError {
                span: Span::new(start, start + ch.len_utf8()),
                kind: ParseErrorKind::UnexpectedCharacter(ch),
            });
        }
    }
    out.push(Token { kind: TokenKind::End, span: Span::new(src.len(), src.len()) });
    Ok(out)
}

/// Scans `digits [. digits] [e [+-] digits]`; dots are taken greedily so that
/// `1.2.3` is reported whole, and a letter after a number ends it (`2x` is then a
/// missing operator, which the parser explains).
fn scan_number(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'.') {
        i += 1;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        let mut j = i + 1;
        if j < b.len() && (b[j] == b'+' || b[j] == b'-') {
            j += 1;
        }
        if j < b.len() && b[j].is_ascii_digit() {
            i = j;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
        }
    }
    i
}

/// Literals with at most this many significant digits are exact rationals; longer
/// ones carry more than a double does and are read as doubles. Float constants print
/// with 17 digits, so they read back as the very same double.
pub(crate) const MAX_EXACT_DIGITS: usize = 15;

fn significant_digits(int_part: &str, frac_part: &str) -> usize {
    let all = alloc::format!("{int_part}{frac_part}");
    all.trim_start_matches('0').len()
}

/// An exact rational for short decimals (`0.25`, `1e-3`), else the nearest double.
fn parse_number(text: &str) -> Result<Number, ParseErrorKind> {
    let invalid = || ParseErrorKind::InvalidNumber(text.to_string());
    let (mantissa, exponent) = match text.find(['e', 'E']) {
        Some(k) => (&text[..k], Some(&text[k + 1..])),
        None => (text, None),
    };
    let (int_part, frac_part) = match mantissa.find('.') {
        Some(k) => (&mantissa[..k], &mantissa[k + 1..]),
        None => (mantissa, ""),
    };
    let all_digits = |s: &str| s.bytes().all(|c| c.is_ascii_digit());
    if !all_digits(int_part) || !all_digits(frac_part) || int_part.len() + frac_part.len() == 0 {
        return Err(invalid());
    }
    let exp: i64 = match exponent {
        None => 0,
        Some(e) => {
            let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
            if digits.is_empty() || !all_digits(digits) {
                return Err(invalid());
            }
            if digits.len() > 6 {
                return Err(ParseErrorKind::NumberOutOfRange(text.to_string()));
            }
            e.parse().map_err(|_| invalid())?
        }
    };
    if significant_digits(int_part, frac_part) <= MAX_EXACT_DIGITS {
        if let Some(r) = exact_decimal(int_part, frac_part, exp) {
            return Ok(Number::Rational(r));
        }
    }
    let x: f64 = text.parse().map_err(|_| invalid())?;
    let nonzero_digits = int_part.bytes().chain(frac_part.bytes()).any(|c| c != b'0');
    if !x.is_finite() || (x == 0.0 && nonzero_digits) {
        return Err(ParseErrorKind::NumberOutOfRange(text.to_string()));
    }
    Ok(Number::Float(x))
}

fn exact_decimal(int_part: &str, frac_part: &str, exp: i64) -> Option<Rational> {
    let digits = alloc::format!("{int_part}{frac_part}");
    let digits = digits.trim_start_matches('0');
    let m: i64 = if digits.is_empty() { 0 } else { digits.parse().ok()? };
    let scale = exp.checked_sub(frac_part.len() as i64)?;
    let ten_to = |k: i64| 10i64.checked_pow(u32::try_from(k).ok()?);
    if scale >= 0 {
        Some(Rational::integer(m.checked_mul(ten_to(scale)?)?))
    } else {
        Rational::new(m, ten_to(-scale)?)
    }
}

/// A position in a token list, shared by the scalar and the vector parser. The
/// list ends with [`TokenKind::End`], which `bump` never moves past.
pub(crate) struct Cursor<'s> {
    tokens: Vec<Token<'s>>,
    pos: usize,
}

impl<'s> Cursor<'s> {
    pub(crate) fn new(tokens: Vec<Token<'s>>) -> Self {
        Cursor { tokens, pos: 0 }
    }

    /// The next token, not taken.
    pub(crate) fn peek(&self) -> &Token<'s> {
        &self.tokens[self.pos]
    }

    /// Takes the next token.
    pub(crate) fn bump(&mut self) -> Token<'s> {
        let t = self.tokens[self.pos].clone();
        if self.pos + 1 < self.tokens.len() {
            self.pos += 1;
        }
        t
    }

    /// Where the last token taken ends.
    pub(crate) fn last_end(&self) -> usize {
        self.tokens[self.pos.saturating_sub(1)].span.end
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn num(s: &str) -> Number {
        parse_number(s).unwrap()
    }

    #[test]
    fn decimals_are_exact() {
        assert_eq!(num("0.25"), Number::Rational(Rational::new(1, 4).unwrap()));
        assert_eq!(num("1e-3"), Number::Rational(Rational::new(1, 1000).unwrap()));
        assert_eq!(num("2.5E2"), Number::from(250));
        assert_eq!(num(".5"), Number::Rational(Rational::new(1, 2).unwrap()));
        assert_eq!(num("7."), Number::from(7));
    }

    #[test]
    fn long_or_huge_numbers_are_floats_or_errors() {
        assert!(matches!(num("3.14159265358979323846264"), Number::Float(_)));
        assert!(matches!(num("0.1000000000000000"), Number::Float(_)), "16 digits: a double");
        assert_eq!(num("0.100000000000000"), Number::Rational(Rational::new(1, 10).unwrap()), "15 digits: exact");
        assert_eq!(num("0.000000000000000001"), Number::Rational(Rational::new(1, 1_000_000_000_000_000_000).unwrap()));
        assert!(matches!(num("1e-21"), Number::Float(_)), "10^21 does not fit an i64 denominator");
        assert!(matches!(num("1e300"), Number::Float(_)));
        assert!(matches!(parse_number("1e400"), Err(ParseErrorKind::NumberOutOfRange(_))));
        assert!(matches!(parse_number("1e-400"), Err(ParseErrorKind::NumberOutOfRange(_))));
        assert!(matches!(parse_number("1e"), Err(ParseErrorKind::InvalidNumber(_))));
        assert!(matches!(parse_number("1.2.3"), Err(ParseErrorKind::InvalidNumber(_))));
        assert!(matches!(parse_number("2x"), Err(ParseErrorKind::InvalidNumber(_))));
    }
}
