//! The expression grammar of `scenario.md`, once, for every kind of value:
//!
//! ```text
//! sum     := product (("+" | "-") product)*
//! product := "-" product | unary (("*" | "/") unary)*
//! unary   := "-" unary | power
//! power   := primary ("^" unary)?          (right-associative: a^b^c = a^(b^c))
//! primary := number | "(" sum ")" | operand
//! ```
//!
//! A [`Grammar`] walks the tokens; an [`Algebra`] says what the values are, how they
//! combine, and what an `operand` (a name, a call, and for vectors `[a, b, c]` or
//! `B.x`) means. Scalar expressions (`parser.rs`) and the vector expressions of
//! bodies and frames (`mechanics/bodies/vector_expr.rs`) are the two algebras, so
//! both read signs, precedence, nesting limits and parentheses the same way and
//! say the same words when the text is wrong.
//!
//! A leading minus negates the whole product (`-x*y` is `-(x*y)`, the same value as
//! `(-x)*y`), so that `-(u + v)/w` keeps its sum intact instead of distributing the
//! sign into it: printed text then parses back to the very same node. Nesting is
//! limited so that hostile input cannot exhaust the stack.

use alloc::string::String;
use alloc::vec::Vec;

use super::error::{ParseError, ParseErrorKind, Span};
use super::error::{AN_EXPRESSION, A_NUMBER, END_OF_EXPRESSION, OPERATOR_OR_END, UNMATCHED_PARENTHESIS};
use super::lexer::{Cursor, Token, TokenKind};
use super::number::Number;

/// Deepest accepted nesting of parentheses, signs, powers and calls.
pub const MAX_NESTING: usize = 128;

/// An operator between two operands of a sum or a product.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Operator {
    Add,
    Subtract,
    Multiply,
    Divide,
}

/// What the values of a grammar are and how they combine.
pub(crate) trait Algebra<'s>: Sized {
    /// A parsed value.
    type Value: Copy;
    /// Why a parse stopped: at least a [`ParseError`].
    type Stop: From<ParseError>;
    /// A sum or a product being built, operand by operand.
    type Partial;

    /// A number written in the text.
    fn number(&mut self, n: Number) -> Self::Value;
    /// `-v`.
    fn negate(&mut self, v: Self::Value) -> Self::Value;
    /// Whether `v` is a constant folded past the largest double.
    fn overflowed(&self, v: Self::Value) -> bool;
    /// Whether `v` is the constant zero (a divisor that is refused).
    fn is_zero(&self, v: Self::Value) -> bool;
    /// A sum or a product that starts with `first`.
    fn start(&mut self, first: Self::Value) -> Self::Partial;
    /// Applies `op` with `operand` to `partial`; `span` runs from the first operand
    /// to this one.
    fn combine(
        &mut self,
        partial: &mut Self::Partial,
        op: Operator,
        operand: Self::Value,
        span: Span,
    ) -> Result<(), Self::Stop>;
    /// The value of a sum (`additive`) or a product.
    fn finish(&mut self, partial: Self::Partial, additive: bool) -> Self::Value;
    /// `base ^ exponent`, written over `span`.
    fn power(&mut self, base: Self::Value, exponent: Self::Value, span: Span) -> Result<Self::Value, Self::Stop>;
    /// A primary that is neither a number nor parenthesised: `token` has just been
    /// taken. `None` when such a token cannot start an operand here.
    fn operand(g: &mut Grammar<'s, Self>, token: &Token<'s>) -> Option<Result<Self::Value, Self::Stop>>;
}

/// The walk over a text's tokens, building values of `A`.
pub(crate) struct Grammar<'s, A: Algebra<'s>> {
    /// The values' algebra, with what it builds into.
    pub(crate) algebra: A,
    /// The tokens, with the position reached.
    pub(crate) tokens: Cursor<'s>,
    depth: usize,
}

impl<'s, A: Algebra<'s>> Grammar<'s, A> {
    /// Parses the whole of `tokens` (from the lexer: never empty) as one sum.
    pub(crate) fn parse(algebra: A, tokens: Vec<Token<'s>>) -> (A, Result<A::Value, A::Stop>) {
        let mut g = Grammar { algebra, tokens: Cursor::new(tokens), depth: 0 };
        let value = g.sum().and_then(|v| g.expect_end().map(|()| v));
        (g.algebra, value)
    }

    /// A [`ParseError`] as `A`'s stop.
    pub(crate) fn error<T>(&self, span: Span, kind: ParseErrorKind) -> Result<T, A::Stop> {
        Err(ParseError { span, kind }.into())
    }

    /// The span from `start` to the end of the last token taken.
    pub(crate) fn since(&self, start: Span) -> Span {
        Span::new(start.start, self.tokens.last_end().max(start.end))
    }

    /// A token as the messages name it.
    pub(crate) fn token_text(&self, t: &Token<'_>) -> String {
        match &t.kind {
            TokenKind::Number(_) => A_NUMBER.into(),
            TokenKind::Name(n, p) => alloc::format!("`{}{}`", n, "'".repeat(*p)),
            TokenKind::Plus => "`+`".into(),
            TokenKind::Minus => "`-`".into(),
            TokenKind::Star => "`*`".into(),
            TokenKind::Slash => "`/`".into(),
            TokenKind::Caret => "`^`".into(),
            TokenKind::LParen => "`(`".into(),
            TokenKind::RParen => "`)`".into(),
            TokenKind::Comma => "`,`".into(),
            TokenKind::LBracket => "`[`".into(),
            TokenKind::RBracket => "`]`".into(),
            TokenKind::Dot => "`.`".into(),
            TokenKind::End => END_OF_EXPRESSION.into(),
        }
    }

    /// Takes a token of `kind`, or says that `expected` was.
    pub(crate) fn expect(&mut self, kind: TokenKind<'static>, expected: &'static str) -> Result<Span, A::Stop> {
        let t = self.tokens.peek().clone();
        if t.kind == kind {
            self.tokens.bump();
            return Ok(t.span);
        }
        self.error(t.span, ParseErrorKind::Expected { expected, found: self.token_text(&t) })
    }

    fn enter(&mut self) -> Result<(), A::Stop> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            let span = self.tokens.peek().span;
            return self.error(span, ParseErrorKind::TooDeep { limit: MAX_NESTING });
        }
        Ok(())
    }

    fn expect_end(&mut self) -> Result<(), A::Stop> {
        let t = self.tokens.peek().clone();
        match t.kind {
            TokenKind::End => Ok(()),
            ref k if k.starts_operand() || *k == TokenKind::LBracket => {
                self.error(t.span, ParseErrorKind::MissingOperator { found: self.token_text(&t) })
            }
            TokenKind::RParen => self.error(
                t.span,
                ParseErrorKind::Expected { expected: OPERATOR_OR_END, found: UNMATCHED_PARENTHESIS.into() },
            ),
            _ => self.error(t.span, ParseErrorKind::Expected { expected: OPERATOR_OR_END, found: self.token_text(&t) }),
        }
    }

    /// `v`, unless it is a constant folded past the largest double (from `start`).
    pub(crate) fn in_range(&self, v: A::Value, start: Span) -> Result<A::Value, A::Stop> {
        if self.algebra.overflowed(v) {
            return self.error(self.since(start), ParseErrorKind::Overflow);
        }
        Ok(v)
    }

    /// `sum` in the grammar.
    pub(crate) fn sum(&mut self) -> Result<A::Value, A::Stop> {
        self.enter()?;
        let total = self.chain(true)?;
        self.depth -= 1;
        Ok(total)
    }

    fn product(&mut self) -> Result<A::Value, A::Stop> {
        match self.negated(Self::product)? {
            Some(p) => Ok(p),
            None => self.chain(false),
        }
    }

    /// `-` and what `inner` parses after it, negated; `None` without a `-`.
    fn negated(&mut self, inner: fn(&mut Self) -> Result<A::Value, A::Stop>) -> Result<Option<A::Value>, A::Stop> {
        if self.tokens.peek().kind != TokenKind::Minus {
            return Ok(None);
        }
        self.tokens.bump();
        self.enter()?;
        let x = inner(self)?;
        self.depth -= 1;
        Ok(Some(self.algebra.negate(x)))
    }

    /// Products joined by `+` and `-` (`additive`), or unaries by `*` and `/`.
    fn chain(&mut self, additive: bool) -> Result<A::Value, A::Stop> {
        let operand = |g: &mut Self| if additive { g.product() } else { g.unary() };
        let start = self.tokens.peek().span;
        let first = operand(self)?;
        let mut total = self.algebra.start(first);
        loop {
            let op = match (self.tokens.peek().kind.clone(), additive) {
                (TokenKind::Plus, true) => Operator::Add,
                (TokenKind::Minus, true) => Operator::Subtract,
                (TokenKind::Star, false) => Operator::Multiply,
                (TokenKind::Slash, false) => Operator::Divide,
                _ => break,
            };
            self.tokens.bump();
            let at = self.tokens.peek().span;
            let value = operand(self)?;
            if op == Operator::Divide && self.algebra.is_zero(value) {
                return self.error(self.since(at), ParseErrorKind::DivisionByZero);
            }
            let span = self.since(start);
            self.algebra.combine(&mut total, op, value, span)?;
        }
        let total = self.algebra.finish(total, additive);
        self.in_range(total, start)
    }

    fn unary(&mut self) -> Result<A::Value, A::Stop> {
        if let Some(x) = self.negated(Self::unary)? {
            return Ok(x);
        }
        let start = self.tokens.peek().span;
        let base = self.primary()?;
        if self.tokens.peek().kind != TokenKind::Caret {
            return Ok(base);
        }
        self.tokens.bump();
        self.enter()?;
        let exponent = self.unary()?;
        self.depth -= 1;
        let span = self.since(start);
        let power = self.algebra.power(base, exponent, span)?;
        self.in_range(power, start)
    }

    fn primary(&mut self) -> Result<A::Value, A::Stop> {
        let t = self.tokens.bump();
        match t.kind {
            TokenKind::Number(n) => Ok(self.algebra.number(n)),
            TokenKind::LParen => {
                let v = self.sum()?;
                self.close_paren(t.span)?;
                Ok(v)
            }
            _ => match A::operand(self, &t) {
                Some(v) => v,
                None => {
                    self.error(t.span, ParseErrorKind::Expected { expected: AN_EXPRESSION, found: self.token_text(&t) })
                }
            },
        }
    }

    /// The `)` of the `(` at `open`.
    pub(crate) fn close_paren(&mut self, open: Span) -> Result<(), A::Stop> {
        let t = self.tokens.peek().clone();
        match t.kind {
            TokenKind::RParen => {
                self.tokens.bump();
                Ok(())
            }
            TokenKind::End => self.error(open, ParseErrorKind::UnclosedParenthesis),
            ref k if k.starts_operand() => {
                self.error(t.span, ParseErrorKind::MissingOperator { found: self.token_text(&t) })
            }
            _ => self.error(t.span, ParseErrorKind::Expected { expected: "`)`", found: self.token_text(&t) }),
        }
    }

    /// A call's arguments, from its `(` (the next token) to its `)`.
    pub(crate) fn arguments(&mut self) -> Result<Vec<A::Value>, A::Stop> {
        let open = self.tokens.bump().span;
        let mut args = alloc::vec![self.sum()?];
        while self.tokens.peek().kind == TokenKind::Comma {
            self.tokens.bump();
            args.push(self.sum()?);
        }
        self.close_paren(open)?;
        Ok(args)
    }
}
