//! Scalar expressions: the [`Algebra`] of the expression graph's nodes, for the
//! grammar in `grammar.rs`, with the names and calls scalar expressions know.
//!
//! Sums and products are collected whole and built with one n-ary constructor call,
//! so a long sum costs linear time.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::error::{ParseError, ParseErrorKind, Span};
use super::error::{PRIME_NOT_COORDINATE, TOO_MANY_PRIMES};
use super::grammar::{Algebra, Grammar, Operator};
use super::graph::{ExprGraph, ExprId, Function};
use super::lexer::{tokenize, Token, TokenKind};
use super::number::Number;
use super::symbols::{Binding, SymbolKind, FUNCTION_NAMES};
use crate::suggest::nearest;

pub use super::grammar::MAX_NESTING;

/// Longest accepted expression, in bytes.
pub const MAX_EXPRESSION_BYTES: usize = 65_536;

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
        Grammar::parse(Scalars { graph: self, options }, tokens).1
    }
}

/// The graph's scalar nodes as the grammar's values.
struct Scalars<'g> {
    graph: &'g mut ExprGraph,
    options: ParseOptions,
}

impl<'s> Algebra<'s> for Scalars<'_> {
    type Value = ExprId;
    type Stop = ParseError;
    /// The operands so far (subtracted ones negated, divisors inverted).
    type Partial = Vec<ExprId>;

    fn number(&mut self, n: Number) -> ExprId {
        self.graph.number(n)
    }

    fn negate(&mut self, v: ExprId) -> ExprId {
        self.graph.neg(v)
    }

    fn overflowed(&self, v: ExprId) -> bool {
        self.graph.overflowed(v)
    }

    fn is_zero(&self, v: ExprId) -> bool {
        self.graph.as_number(v).is_some_and(|x| x.is_zero())
    }

    fn start(&mut self, first: ExprId) -> Vec<ExprId> {
        alloc::vec![first]
    }

    fn combine(&mut self, partial: &mut Vec<ExprId>, op: Operator, x: ExprId, _: Span) -> Result<(), ParseError> {
        partial.push(match op {
            Operator::Add | Operator::Multiply => x,
            Operator::Subtract => self.graph.neg(x),
            Operator::Divide => self.graph.powi(x, -1),
        });
        Ok(())
    }

    fn finish(&mut self, partial: Vec<ExprId>, additive: bool) -> ExprId {
        match partial[..] {
            [one] => one,
            _ if additive => self.graph.add(&partial),
            _ => self.graph.mul(&partial),
        }
    }

    fn power(&mut self, base: ExprId, exponent: ExprId, span: Span) -> Result<ExprId, ParseError> {
        if self.graph.divides_by_zero(base, exponent) {
            return Err(ParseError { span, kind: ParseErrorKind::DivisionByZero });
        }
        Ok(self.graph.pow(base, exponent))
    }

    fn operand(g: &mut Grammar<'s, Self>, t: &Token<'s>) -> Option<Result<ExprId, ParseError>> {
        let TokenKind::Name(name, primes) = t.kind else { return None };
        Some(if g.tokens.peek().kind == TokenKind::LParen && primes == 0 {
            call(g, name, t.span)
        } else {
            g.algebra.name(name, primes, t.span)
        })
    }
}

/// `name(arguments)`.
fn call(g: &mut Grammar<'_, Scalars<'_>>, name: &str, span: Span) -> Result<ExprId, ParseError> {
    let args = g.arguments()?;
    let full = g.since(span);
    let arity = |function: &'static str, expected: usize| {
        if args.len() == expected {
            Ok(())
        } else {
            Err(ParseError { span: full, kind: ParseErrorKind::WrongArity { function, expected, found: args.len() } })
        }
    };
    let graph = &mut *g.algebra.graph;
    if name == "atan2" {
        arity("atan2", 2)?;
        return Ok(graph.atan2(args[0], args[1]));
    }
    if name == "sqrt" {
        arity("sqrt", 1)?;
        return Ok(graph.sqrt(args[0]));
    }
    if let Some(f) = Function::ALL.into_iter().find(|f| f.name() == name) {
        arity(f.name(), 1)?;
        let e = graph.call(f, args[0]);
        return g.in_range(e, span);
    }
    if graph.lookup(name).is_some() {
        return Err(ParseError { span, kind: ParseErrorKind::NotAFunction { name: name.to_string() } });
    }
    let suggestions = nearest(name, FUNCTION_NAMES);
    Err(ParseError { span, kind: ParseErrorKind::UnknownFunction { name: name.to_string(), suggestions } })
}

impl Scalars<'_> {
    fn error(&self, span: Span, kind: ParseErrorKind) -> ParseError {
        ParseError { span, kind }
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
