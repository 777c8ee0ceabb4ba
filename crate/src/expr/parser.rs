//! Recursive-descent parser for the expression grammar of `scenario.md`:
//!
//! ```text
//! sum     := product (("+" | "-") product)*
//! product := "-" product | unary (("*" | "/") unary)*
//! unary   := "-" unary | power
//! power   := primary ("^" unary)?          (right-associative: a^b^c = a^(b^c))
//! primary := number | name primes? | name "(" sum ("," sum)* ")" | "(" sum ")"
//! ```
//!
//! A leading minus negates the whole product (`-x*y` is `-(x*y)`, the same value as
//! `(-x)*y`), so that `-(u + v)/w` keeps its sum intact instead of distributing the
//! sign into it: printed text then parses back to the very same node.
//!
//! Sums and products are collected whole and built with one n-ary constructor call,
//! so a long sum costs linear time. Nesting is limited so that hostile input cannot
//! exhaust the stack.

use alloc::string::{String, ToString};

use super::error::{ParseError, ParseErrorKind, Span};
use super::error::{
    AN_EXPRESSION, A_NUMBER, END_OF_EXPRESSION, OPERATOR_OR_END, PRIME_NOT_COORDINATE, TOO_MANY_PRIMES,
    UNMATCHED_PARENTHESIS,
};
use super::graph::{ExprGraph, ExprId, Function};
use super::lexer::{tokenize, Cursor, Token, TokenKind};
use super::symbols::{Binding, SymbolKind, FUNCTION_NAMES};
use crate::suggest::nearest;

/// Longest accepted expression, in bytes.
pub const MAX_EXPRESSION_BYTES: usize = 65_536;
/// Deepest accepted nesting of parentheses, signs, powers and calls.
pub const MAX_NESTING: usize = 128;

/// What the parser accepts beyond the model grammar.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParseOptions {
    /// Accept accelerations `x''` (derived equations); a model never may.
    pub allow_accelerations: bool,
}

impl ExprGraph {
    /// Parses a model expression (no accelerations) into the graph.
    pub fn parse(&mut self, source: &str) -> Result<ExprId, ParseError> {
        self.parse_with(source, ParseOptions::default())
    }

    /// Parses an expression with the given options.
    pub fn parse_with(&mut self, source: &str, options: ParseOptions) -> Result<ExprId, ParseError> {
        if source.len() > MAX_EXPRESSION_BYTES {
            return Err(ParseError {
                span: Span::new(0, source.len()),
                kind: ParseErrorKind::TooLong { length: source.len(), limit: MAX_EXPRESSION_BYTES },
            });
        }
        let tokens = tokenize(source)?;
        if tokens.len() == 1 {
            return Err(ParseError { span: Span::new(0, source.len()), kind: ParseErrorKind::Empty });
        }
        let mut p = Parser { graph: self, tokens: Cursor::new(tokens), depth: 0, options };
        let e = p.sum()?;
        p.expect_end()?;
        Ok(e)
    }
}

struct Parser<'g, 's> {
    graph: &'g mut ExprGraph,
    tokens: Cursor<'s>,
    depth: usize,
    options: ParseOptions,
}

impl<'s> Parser<'_, 's> {
    fn error(&self, span: Span, kind: ParseErrorKind) -> ParseError {
        ParseError { span, kind }
    }

    fn token_text(&self, t: &Token<'_>) -> String {
        match &t.kind {
            TokenKind::Number(_) => A_NUMBER.to_string(),
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

    fn enter(&mut self) -> Result<(), ParseError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            let span = self.tokens.peek().span;
            return Err(self.error(span, ParseErrorKind::TooDeep { limit: MAX_NESTING }));
        }
        Ok(())
    }

    fn expect_end(&mut self) -> Result<(), ParseError> {
        let t = self.tokens.peek().clone();
        match t.kind {
            TokenKind::End => Ok(()),
            ref k if k.starts_operand() => {
                Err(self.error(t.span, ParseErrorKind::MissingOperator { found: self.token_text(&t) }))
            }
            TokenKind::RParen => Err(self.error(
                t.span,
                ParseErrorKind::Expected { expected: OPERATOR_OR_END, found: UNMATCHED_PARENTHESIS.into() },
            )),
            _ => {
                Err(self
                    .error(t.span, ParseErrorKind::Expected { expected: OPERATOR_OR_END, found: self.token_text(&t) }))
            }
        }
    }

    /// `e`, unless it is a constant folded past the largest double (from `start`).
    fn in_range(&self, e: ExprId, start: usize) -> Result<ExprId, ParseError> {
        if self.graph.overflowed(e) {
            return Err(self.error(Span::new(start, self.tokens.last_end()), ParseErrorKind::Overflow));
        }
        Ok(e)
    }

    fn sum(&mut self) -> Result<ExprId, ParseError> {
        self.enter()?;
        let start = self.tokens.peek().span.start;
        let mut terms = alloc::vec![self.product()?];
        loop {
            let negate = match self.tokens.peek().kind {
                TokenKind::Plus => false,
                TokenKind::Minus => true,
                _ => break,
            };
            self.tokens.bump();
            let t = self.product()?;
            terms.push(if negate { self.graph.neg(t) } else { t });
        }
        self.depth -= 1;
        let e = if terms.len() == 1 { terms[0] } else { self.graph.add(&terms) };
        self.in_range(e, start)
    }

    fn product(&mut self) -> Result<ExprId, ParseError> {
        if self.tokens.peek().kind == TokenKind::Minus {
            self.tokens.bump();
            self.enter()?;
            let p = self.product()?;
            self.depth -= 1;
            return Ok(self.graph.neg(p));
        }
        let start = self.tokens.peek().span.start;
        let mut factors = alloc::vec![self.unary()?];
        loop {
            let divide = match self.tokens.peek().kind {
                TokenKind::Star => false,
                TokenKind::Slash => true,
                _ => break,
            };
            self.tokens.bump();
            let at = self.tokens.peek().span;
            let f = self.unary()?;
            if divide && self.graph.as_number(f).is_some_and(|x| x.is_zero()) {
                return Err(self.error(Span::new(at.start, self.tokens.last_end()), ParseErrorKind::DivisionByZero));
            }
            factors.push(if divide { self.graph.powi(f, -1) } else { f });
        }
        let e = if factors.len() == 1 { factors[0] } else { self.graph.mul(&factors) };
        self.in_range(e, start)
    }

    fn unary(&mut self) -> Result<ExprId, ParseError> {
        if self.tokens.peek().kind == TokenKind::Minus {
            self.tokens.bump();
            self.enter()?;
            let x = self.unary()?;
            self.depth -= 1;
            return Ok(self.graph.neg(x));
        }
        self.power()
    }

    fn power(&mut self) -> Result<ExprId, ParseError> {
        let at = self.tokens.peek().span;
        let base = self.primary()?;
        if self.tokens.peek().kind != TokenKind::Caret {
            return Ok(base);
        }
        self.tokens.bump();
        self.enter()?;
        let exponent = self.unary()?;
        self.depth -= 1;
        if self.graph.divides_by_zero(base, exponent) {
            return Err(self.error(Span::new(at.start, self.tokens.last_end()), ParseErrorKind::DivisionByZero));
        }
        let e = self.graph.pow(base, exponent);
        self.in_range(e, at.start)
    }

    fn primary(&mut self) -> Result<ExprId, ParseError> {
        let t = self.tokens.bump();
        match t.kind {
            TokenKind::Number(n) => Ok(self.graph.number(n)),
            TokenKind::LParen => {
                let e = self.sum()?;
                self.close_paren(t.span)?;
                Ok(e)
            }
            TokenKind::Name(name, primes) => {
                if self.tokens.peek().kind == TokenKind::LParen && primes == 0 {
                    self.call(name, t.span)
                } else {
                    self.name(name, primes, t.span)
                }
            }
            _ => {
                Err(self
                    .error(t.span, ParseErrorKind::Expected { expected: AN_EXPRESSION, found: self.token_text(&t) }))
            }
        }
    }

    fn close_paren(&mut self, open: Span) -> Result<(), ParseError> {
        let t = self.tokens.peek().clone();
        match t.kind {
            TokenKind::RParen => {
                self.tokens.bump();
                Ok(())
            }
            TokenKind::End => Err(self.error(open, ParseErrorKind::UnclosedParenthesis)),
            ref k if k.starts_operand() => {
                Err(self.error(t.span, ParseErrorKind::MissingOperator { found: self.token_text(&t) }))
            }
            _ => Err(self.error(t.span, ParseErrorKind::Expected { expected: "`)`", found: self.token_text(&t) })),
        }
    }

    fn call(&mut self, name: &str, span: Span) -> Result<ExprId, ParseError> {
        let open = self.tokens.bump().span;
        let mut args = alloc::vec![self.sum()?];
        while self.tokens.peek().kind == TokenKind::Comma {
            self.tokens.bump();
            args.push(self.sum()?);
        }
        self.close_paren(open)?;
        let full = Span::new(span.start, self.tokens.last_end());
        let arity = |function: &'static str, expected: usize| {
            if args.len() == expected {
                Ok(())
            } else {
                Err(ParseError {
                    span: full,
                    kind: ParseErrorKind::WrongArity { function, expected, found: args.len() },
                })
            }
        };
        if name == "atan2" {
            arity("atan2", 2)?;
            return Ok(self.graph.atan2(args[0], args[1]));
        }
        if name == "sqrt" {
            arity("sqrt", 1)?;
            return Ok(self.graph.sqrt(args[0]));
        }
        if let Some(f) = Function::ALL.into_iter().find(|f| f.name() == name) {
            arity(f.name(), 1)?;
            let e = self.graph.call(f, args[0]);
            return self.in_range(e, span.start);
        }
        if self.graph.lookup(name).is_some() {
            return Err(self.error(span, ParseErrorKind::NotAFunction { name: name.to_string() }));
        }
        Err(self.error(
            span,
            ParseErrorKind::UnknownFunction { name: name.to_string(), suggestions: nearest(name, FUNCTION_NAMES) },
        ))
    }

    /// `x'` for `xdot` or `x_dot` (`x''` for `xddot`) where `x` is a coordinate: the
    /// rates other tools write, which nhlab writes with primes.
    fn dot_notation(&self, name: &str) -> Option<String> {
        let (stem, primes) = [("_ddot", 2), ("ddot", 2), ("_dot", 1), ("dot", 1)]
            .iter()
            .find_map(|&(suffix, primes)| name.strip_suffix(suffix).map(|stem| (stem, primes)))?;
        match self.graph.lookup(stem)? {
            Binding::Symbol(s) if matches!(self.graph.symbol(s).kind, crate::expr::SymbolKind::Coordinate(_)) => {
                Some(alloc::format!("{stem}{}", "'".repeat(primes)))
            }
            _ => None,
        }
    }

    fn name(&mut self, name: &str, primes: usize, span: Span) -> Result<ExprId, ParseError> {
        if let Some(&function) = FUNCTION_NAMES.iter().find(|&&f| f == name) {
            return Err(self.error(span, ParseErrorKind::MissingArguments { function }));
        }
        let written = || alloc::format!("{}{}", name, "'".repeat(primes));
        let binding = match self.graph.lookup(name) {
            Some(b) => b,
            None => {
                let mut suggestions = nearest(name, self.graph.names());
                if let Some(rate) = self.dot_notation(name) {
                    suggestions.insert(0, rate);
                    suggestions.truncate(3);
                }
                return Err(self.error(span, ParseErrorKind::UnknownName { name: name.to_string(), suggestions }));
            }
        };
        if primes == 0 {
            return Ok(match binding {
                Binding::Symbol(s) => self.graph.symbol_expr(s),
                Binding::Definition(d) => self.graph.definition_expr(d),
            });
        }
        let coordinate = match binding {
            Binding::Symbol(s) => match self.graph.symbol(s).kind {
                SymbolKind::Coordinate(i) => Some(i),
                _ => None,
            },
            Binding::Definition(_) => None,
        };
        let Some(i) = coordinate else {
            return Err(
                self.error(span, ParseErrorKind::InvalidPrime { name: written(), reason: PRIME_NOT_COORDINATE })
            );
        };
        match primes {
            1 => Ok(self.graph.symbol_expr(self.graph.coordinate(i)[1])),
            2 if self.options.allow_accelerations => Ok(self.graph.symbol_expr(self.graph.coordinate(i)[2])),
            2 => Err(self.error(span, ParseErrorKind::AccelerationNotAllowed { name: name.to_string() })),
            _ => Err(self.error(span, ParseErrorKind::InvalidPrime { name: written(), reason: TOO_MANY_PRIMES })),
        }
    }
}
