//! Vector expressions, as written in `[vectors]`, a point's `position`, a contact's
//! `tangents` and a load's `force` and `torque`. The scalar grammar of
//! `scenario.md`, with values that are scalars or vectors:
//!
//! ```text
//! sum     := product (("+" | "-") product)*
//! product := "-" product | unary (("*" | "/") unary)*
//! unary   := "-" unary | power
//! power   := primary ("^" unary)?                       (scalars only)
//! primary := number | name primes? | frame "." axis | name "(" sum ("," sum)* ")"
//!          | "(" sum ")" | "[" sum "," sum "," sum "]" ("in" frame)?
//! ```
//!
//! A name is a vector (a `[vectors]` entry or a point: its position from `O`)
//! before it is a scalar (anything an expression may name). `B.x` is frame `B`'s
//! x axis; `[a, b, c] in B` is `a B.x + b B.y + c B.z` (`N` when `in` is left out).
//! Functions: `dot(u, v)`, `cross(u, v)`, `norm(v)`, `unit(v)`, `omega(B)` (frame
//! `B`'s angular velocity relative to `N`), `velocity(v)` (the time derivative
//! along `N`), and every scalar function. `+` and `-` take two of a kind, `*` a
//! scalar on either side, `/` and `^` scalars on the right.
//!
//! The result is expressions of the model's graph: a vector as its three components
//! along `N`. A name that the scenario declares but that is not built yet makes
//! the parse answer [`Outcome::Pending`], so that the caller can build in
//! dependency order.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::algebra::{add, column, cross, dot, norm, rotate, scale, sub, unit, Matrix, Vector};
use crate::expr::error::{A_FRAME, BRACKET_AFTER_THREE_COMPONENTS, COMMA_AND_THREE_COMPONENTS, OMEGA_CLOSES};
use crate::expr::grammar::{Algebra, Grammar, Operator};
use crate::expr::lexer::{tokenize_with, Token, TokenKind};
use crate::expr::{
    nearest, ExprGraph, ExprId, Function, Number, ParseError, ParseErrorKind, Span, SymbolKind, FUNCTION_NAMES,
};
use crate::message::{bodies as says, phrase, problem, Hint, Message, Part};

/// A scalar or a vector (components along `N`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Value {
    Scalar(ExprId),
    Vector(Vector),
}

/// What a name refers to, as far as the scope knows now.
pub(crate) enum Lookup<T> {
    Found(T),
    /// Declared, not built yet.
    Pending,
    Unknown,
}

/// The names a vector expression may use besides the graph's.
pub(crate) trait Scope {
    /// A named vector: a `[vectors]` entry or a point's position.
    fn vector(&self, name: &str) -> Lookup<Vector>;
    /// A frame: its rotation (`None` when it has only an angular velocity) and its
    /// angular velocity along `N`.
    fn frame(&self, name: &str) -> Lookup<(Option<Matrix>, Vector)>;
    /// Every vector and frame name, for suggestions.
    fn names(&self) -> Vec<String>;
    /// The sign of `e` at the scenario's initial state (0 where it is zero or not
    /// finite): fixes the sign of a norm that is a cosine in disguise.
    fn sign_at_start(&self, g: &ExprGraph, e: ExprId) -> f64;
}

/// How a parse ended.
pub(crate) enum Outcome {
    Done(Value),
    /// The expression names this declared vector, point or frame, not built yet.
    Pending(String),
    Failed(ParseError),
}

/// The functions of vectors, for messages and suggestions.
const VECTOR_FUNCTIONS: [&str; 6] = ["dot", "cross", "norm", "unit", "omega", "velocity"];

/// Parses `source` in `scope`.
pub(crate) fn parse(g: &mut ExprGraph, scope: &dyn Scope, source: &str) -> Outcome {
    let tokens = match tokenize_with(source, true) {
        Ok(t) => t,
        Err(e) => return Outcome::Failed(e),
    };
    if tokens.len() == 1 {
        return Outcome::Failed(ParseError { span: Span::new(0, source.len()), kind: ParseErrorKind::Empty });
    }
    match Grammar::parse(Vectors { g, scope, source }, tokens).1 {
        Ok(v) => Outcome::Done(v),
        Err(Stop::Pending(name)) => Outcome::Pending(name),
        Err(Stop::Failed(e)) => Outcome::Failed(e),
    }
}

enum Stop {
    Pending(String),
    Failed(ParseError),
}

impl From<ParseError> for Stop {
    fn from(e: ParseError) -> Stop {
        Stop::Failed(e)
    }
}

type Parsed = Result<Value, Stop>;

/// Scalars and vectors of the graph, with the scope's names, as the grammar's values.
struct Vectors<'a, 's> {
    g: &'a mut ExprGraph,
    scope: &'a dyn Scope,
    source: &'s str,
}

/// The grammar over [`Vectors`].
type Parser<'a, 's> = Grammar<'s, Vectors<'a, 's>>;

fn fail<T>(span: Span, message: Message) -> Result<T, Stop> {
    stop(span, ParseErrorKind::Vector(message))
}

fn stop<T>(span: Span, kind: ParseErrorKind) -> Result<T, Stop> {
    Err(Stop::Failed(ParseError { span, kind }))
}

impl<'s> Algebra<'s> for Vectors<'_, 's> {
    type Value = Value;
    type Stop = Stop;
    /// Sums and products are built an operand at a time.
    type Partial = Value;

    fn number(&mut self, n: Number) -> Value {
        Value::Scalar(self.g.number(n))
    }

    fn negate(&mut self, v: Value) -> Value {
        match v {
            Value::Scalar(x) => Value::Scalar(self.g.neg(x)),
            Value::Vector(x) => Value::Vector([self.g.neg(x[0]), self.g.neg(x[1]), self.g.neg(x[2])]),
        }
    }

    fn overflowed(&self, v: Value) -> bool {
        match v {
            Value::Scalar(x) => self.g.overflowed(x),
            Value::Vector(x) => x.iter().any(|&c| self.g.overflowed(c)),
        }
    }

    fn is_zero(&self, v: Value) -> bool {
        matches!(v, Value::Scalar(k) if self.g.as_number(k).is_some_and(|x| x.is_zero()))
    }

    fn start(&mut self, first: Value) -> Value {
        first
    }

    fn combine(&mut self, total: &mut Value, op: Operator, operand: Value, span: Span) -> Result<(), Stop> {
        let g = &mut *self.g;
        *total = match (*total, operand, op) {
            (Value::Scalar(a), Value::Scalar(b), Operator::Add) => Value::Scalar(g.add2(a, b)),
            (Value::Scalar(a), Value::Scalar(b), Operator::Subtract) => Value::Scalar(g.sub(a, b)),
            (Value::Vector(a), Value::Vector(b), Operator::Add) => Value::Vector(add(g, &a, &b)),
            (Value::Vector(a), Value::Vector(b), Operator::Subtract) => Value::Vector(sub(g, &a, &b)),
            (_, _, Operator::Add) => return fail(span, says::mixed_sum()),
            (_, _, Operator::Subtract) => return fail(span, says::mixed_difference()),
            (Value::Scalar(a), Value::Scalar(b), Operator::Multiply) => Value::Scalar(g.mul2(a, b)),
            (Value::Scalar(a), Value::Scalar(b), Operator::Divide) => Value::Scalar(g.div(a, b)),
            (Value::Scalar(k), Value::Vector(v), Operator::Multiply)
            | (Value::Vector(v), Value::Scalar(k), Operator::Multiply) => Value::Vector(scale(g, k, &v)),
            (Value::Vector(v), Value::Scalar(k), Operator::Divide) => {
                let inverse = g.powi(k, -1);
                Value::Vector(scale(g, inverse, &v))
            }
            (_, Value::Vector(_), Operator::Divide) => return fail(span, says::divide_by_vector()),
            (Value::Vector(_), Value::Vector(_), _) => return fail(span, says::vector_product()),
        };
        Ok(())
    }

    fn finish(&mut self, total: Value, _: bool) -> Value {
        total
    }

    fn power(&mut self, base: Value, exponent: Value, span: Span) -> Parsed {
        match (base, exponent) {
            (Value::Scalar(b), Value::Scalar(e)) if self.g.divides_by_zero(b, e) => {
                stop(span, ParseErrorKind::DivisionByZero)
            }
            (Value::Scalar(b), Value::Scalar(e)) => Ok(Value::Scalar(self.g.pow(b, e))),
            _ => fail(span, says::vector_power()),
        }
    }

    fn operand(p: &mut Parser<'_, 's>, t: &Token<'s>) -> Option<Parsed> {
        let next = p.tokens.peek().kind.clone();
        Some(match t.kind {
            TokenKind::LBracket => p.components(),
            TokenKind::Name(name, 0) if next == TokenKind::Dot => p.axis(name, t.span),
            TokenKind::Name(name, 0) if next == TokenKind::LParen => p.call(name, t.span),
            TokenKind::Name(name, primes) => p.name(name, primes, t.span),
            _ => return None,
        })
    }
}

impl<'s> Parser<'_, 's> {
    /// A component of `[a, b, c]`.
    fn component(&mut self, start: Span) -> Result<ExprId, Stop> {
        match self.sum()? {
            Value::Scalar(x) => Ok(x),
            Value::Vector(_) => fail(self.since(start), says::component_is_scalar()),
        }
    }

    /// `[a, b, c]` or `[a, b, c] in F`.
    fn components(&mut self) -> Parsed {
        let mut out = [self.algebra.g.zero(); 3];
        for (i, slot) in out.iter_mut().enumerate() {
            let start = self.tokens.peek().span;
            *slot = self.component(start)?;
            if i < 2 {
                self.expect(TokenKind::Comma, COMMA_AND_THREE_COMPONENTS)?;
            }
        }
        self.expect(TokenKind::RBracket, BRACKET_AFTER_THREE_COMPONENTS)?;
        if self.tokens.peek().kind != TokenKind::Name("in", 0) {
            return Ok(Value::Vector(out));
        }
        self.tokens.bump();
        let (frame, span) = self.frame_name()?;
        let Some(rotation) = self.rotation(frame, span)? else { unreachable!("rotation answers or stops") };
        Ok(Value::Vector(rotate(self.algebra.g, &rotation, &out)))
    }

    fn frame_name(&mut self) -> Result<(&'s str, Span), Stop> {
        let t = self.tokens.bump();
        match t.kind {
            TokenKind::Name(name, 0) => Ok((name, t.span)),
            _ => {
                let found = self.token_text(&t);
                Err(Stop::Failed(ParseError {
                    span: t.span,
                    kind: ParseErrorKind::Expected { expected: A_FRAME, found },
                }))
            }
        }
    }

    /// A frame's (rotation, angular velocity), or why not.
    fn frame(&self, name: &str, span: Span) -> Result<(Option<Matrix>, Vector), Stop> {
        match self.algebra.scope.frame(name) {
            Lookup::Found(f) => Ok(f),
            Lookup::Pending => Err(Stop::Pending(name.to_string())),
            Lookup::Unknown => {
                let names = self.algebra.scope.names();
                let hint = phrase::did_you_mean(name, names.iter().map(String::as_str));
                fail(span, problem::not_a(name, Part(phrase::a_frame()), Hint(hint)))
            }
        }
    }

    fn rotation(&self, name: &str, span: Span) -> Result<Option<Matrix>, Stop> {
        match self.frame(name, span)?.0 {
            Some(r) => Ok(Some(r)),
            None => fail(span, says::frame_has_no_axes(name)),
        }
    }

    /// `F.x`, `F.y`, `F.z`.
    fn axis(&mut self, frame: &str, span: Span) -> Parsed {
        self.tokens.bump();
        let t = self.tokens.bump();
        let axis = match t.kind {
            TokenKind::Name(a @ ("x" | "y" | "z"), 0) => a,
            _ => return fail(self.since(span), says::frame_axis(frame)),
        };
        let Some(r) = self.rotation(frame, span)? else { unreachable!("rotation answers or stops") };
        let j = ["x", "y", "z"].iter().position(|&a| a == axis).unwrap_or(0);
        Ok(Value::Vector(column(&r, j)))
    }

    fn name(&mut self, name: &str, primes: usize, span: Span) -> Parsed {
        if primes == 0 {
            match self.algebra.scope.vector(name) {
                Lookup::Found(v) => return Ok(Value::Vector(v)),
                Lookup::Pending => return Err(Stop::Pending(name.to_string())),
                Lookup::Unknown => {}
            }
            if VECTOR_FUNCTIONS.contains(&name) {
                return fail(span, says::vector_function_parentheses(name));
            }
        }
        // A scalar name: the scalar parser knows coordinates, velocities,
        // parameters, definitions, `t` and `pi`, and explains what is wrong.
        let text = &self.algebra.source[span.start..span.end];
        match self.algebra.g.parse(text) {
            Ok(e) => Ok(Value::Scalar(e)),
            Err(mut e) => {
                e.span = Span::new(span.start + e.span.start, span.start + e.span.end);
                if let ParseErrorKind::UnknownName { name, suggestions } = &mut e.kind {
                    let known: Vec<String> =
                        self.algebra.g.names().map(String::from).chain(self.algebra.scope.names()).collect();
                    *suggestions = nearest(name, known.iter().map(String::as_str));
                }
                Err(Stop::Failed(e))
            }
        }
    }

    fn call(&mut self, name: &'s str, span: Span) -> Parsed {
        if name == "omega" {
            self.tokens.bump();
            let (frame, at) = self.frame_name()?;
            self.expect(TokenKind::RParen, OMEGA_CLOSES)?;
            let (_, omega) = self.frame(frame, at)?;
            return Ok(Value::Vector(omega));
        }
        let args = self.arguments()?;
        let full = self.since(span);
        let known = name == "atan2" || name == "sqrt" || Function::ALL.into_iter().any(|f| f.name() == name);
        if !known && !VECTOR_FUNCTIONS.contains(&name) {
            return unknown_function(name, span);
        }
        let expected = match name {
            "dot" | "cross" | "atan2" => 2,
            _ => 1,
        };
        if args.len() != expected {
            let function =
                FUNCTION_NAMES.iter().chain(&VECTOR_FUNCTIONS).chain(&["atan2", "sqrt"]).find(|f| **f == name);
            let function = function.copied().unwrap_or("function");
            return stop(full, ParseErrorKind::WrongArity { function, expected, found: args.len() });
        }
        let vectors: Vec<Option<Vector>> =
            args.iter().map(|a| if let Value::Vector(v) = a { Some(*v) } else { None }).collect();
        let scalars: Vec<Option<ExprId>> =
            args.iter().map(|a| if let Value::Scalar(x) = a { Some(*x) } else { None }).collect();
        if VECTOR_FUNCTIONS.contains(&name) {
            let Some(v) = vectors.iter().copied().collect::<Option<Vec<Vector>>>() else {
                return fail(full, says::takes_vectors(name));
            };
            return Ok(match name {
                "dot" => Value::Scalar(dot(self.algebra.g, &v[0], &v[1])),
                "cross" => Value::Vector(cross(self.algebra.g, &v[0], &v[1])),
                "norm" => Value::Scalar(norm(self.algebra.g, &v[0], &|g, e| self.algebra.scope.sign_at_start(g, e))),
                "unit" if v[0].iter().all(|&x| self.algebra.g.as_number(x).is_some_and(|x| x.is_zero())) => {
                    return fail(full, says::unit_of_zero());
                }
                "unit" => Value::Vector(unit(self.algebra.g, &v[0], &|g, e| self.algebra.scope.sign_at_start(g, e))),
                _ => Value::Vector(self.velocity(&v[0], full)?),
            });
        }
        let Some(x) = scalars.iter().copied().collect::<Option<Vec<ExprId>>>() else {
            return fail(full, says::takes_scalars(name));
        };
        if name == "atan2" {
            return Ok(Value::Scalar(self.algebra.g.atan2(x[0], x[1])));
        }
        if name == "sqrt" {
            return Ok(Value::Scalar(self.algebra.g.sqrt(x[0])));
        }
        match Function::ALL.into_iter().find(|f| f.name() == name) {
            Some(f) => {
                let value = Value::Scalar(self.algebra.g.call(f, x[0]));
                self.in_range(value, span)
            }
            None => unknown_function(name, span),
        }
    }

    /// `velocity(v)`: the time derivative of a position-like vector.
    fn velocity(&mut self, v: &Vector, span: Span) -> Result<Vector, Stop> {
        let has_velocity =
            v.iter().any(|&x| {
                self.algebra.g.free_symbols(x).into_iter().any(|s| {
                    matches!(self.algebra.g.symbol(s).kind, SymbolKind::Velocity(_) | SymbolKind::Acceleration(_))
                })
            });
        if has_velocity {
            return fail(span, says::velocity_of_velocities());
        }
        let mut out = [self.algebra.g.zero(); 3];
        for (o, &x) in out.iter_mut().zip(v) {
            match self.algebra.g.time_derivative(x) {
                Ok(d) => *o = d,
                Err(e) => return fail(span, e.message()),
            }
        }
        Ok(out)
    }
}

/// "unknown function `unti`; did you mean `unit`?" at the function's name.
fn unknown_function(name: &str, span: Span) -> Parsed {
    let known = FUNCTION_NAMES.iter().chain(VECTOR_FUNCTIONS.iter()).copied();
    stop(span, ParseErrorKind::UnknownFunction { name: name.into(), suggestions: nearest(name, known) })
}
