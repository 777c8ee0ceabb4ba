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

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::algebra::{add, column, cross, dot, norm, rotate, scale, sub, unit, Matrix, Vector};
use crate::expr::error::{A_FRAME, BRACKET_AFTER_THREE_COMPONENTS, COMMA_AND_THREE_COMPONENTS, OMEGA_CLOSES};
use crate::expr::lexer::{tokenize_with, Cursor, Token, TokenKind};
use crate::expr::{
    nearest, ExprGraph, ExprId, Function, ParseError, ParseErrorKind, Span, SymbolKind, FUNCTION_NAMES, MAX_NESTING,
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
    let mut p = Parser { g, scope, source, tokens: Cursor::new(tokens), depth: 0 };
    let value = p.sum().and_then(|v| p.end().map(|()| v));
    match value {
        Ok(v) => Outcome::Done(v),
        Err(Stop::Pending(name)) => Outcome::Pending(name),
        Err(Stop::Failed(e)) => Outcome::Failed(e),
    }
}

enum Stop {
    Pending(String),
    Failed(ParseError),
}

type Parsed = Result<Value, Stop>;

struct Parser<'a, 's> {
    g: &'a mut ExprGraph,
    scope: &'a dyn Scope,
    source: &'s str,
    tokens: Cursor<'s>,
    depth: usize,
}

fn fail<T>(span: Span, message: Message) -> Result<T, Stop> {
    stop(span, ParseErrorKind::Vector(message))
}

fn stop<T>(span: Span, kind: ParseErrorKind) -> Result<T, Stop> {
    Err(Stop::Failed(ParseError { span, kind }))
}

impl<'s> Parser<'_, 's> {
    /// The span from `start` to the end of the last token taken.
    fn since(&self, start: Span) -> Span {
        Span::new(start.start, self.tokens.last_end().max(start.end))
    }

    fn describe(&self, t: &Token<'_>) -> String {
        match t.kind {
            TokenKind::End => "the end of the expression".into(),
            _ => format!("`{}`", &self.source[t.span.start..t.span.end]),
        }
    }

    fn expect(&mut self, kind: TokenKind<'static>, what: &'static str) -> Result<Span, Stop> {
        let t = self.tokens.peek().clone();
        if t.kind == kind {
            self.tokens.bump();
            return Ok(t.span);
        }
        let found = self.describe(&t);
        Err(Stop::Failed(ParseError { span: t.span, kind: ParseErrorKind::Expected { expected: what, found } }))
    }

    fn end(&mut self) -> Result<(), Stop> {
        let t = self.tokens.peek().clone();
        if t.kind.starts_operand() || t.kind == TokenKind::LBracket {
            let found = self.describe(&t);
            return Err(Stop::Failed(ParseError { span: t.span, kind: ParseErrorKind::MissingOperator { found } }));
        }
        self.expect(TokenKind::End, "an operator or the end").map(|_| ())
    }

    fn enter(&mut self) -> Result<(), Stop> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            let span = self.tokens.peek().span;
            return Err(Stop::Failed(ParseError { span, kind: ParseErrorKind::TooDeep { limit: MAX_NESTING } }));
        }
        Ok(())
    }

    fn sum(&mut self) -> Parsed {
        self.enter()?;
        let start = self.tokens.peek().span;
        let mut total = self.product()?;
        loop {
            let negate = match self.tokens.peek().kind {
                TokenKind::Plus => false,
                TokenKind::Minus => true,
                _ => break,
            };
            self.tokens.bump();
            let term = self.product()?;
            total = match (total, term) {
                (Value::Scalar(a), Value::Scalar(b)) => {
                    Value::Scalar(if negate { self.g.sub(a, b) } else { self.g.add2(a, b) })
                }
                (Value::Vector(a), Value::Vector(b)) => {
                    Value::Vector(if negate { sub(self.g, &a, &b) } else { add(self.g, &a, &b) })
                }
                _ => {
                    let mixed = if negate { says::mixed_difference() } else { says::mixed_sum() };
                    return fail(self.since(start), mixed);
                }
            };
        }
        self.depth -= 1;
        self.in_range(total, start)
    }

    /// `v`, unless a component is a constant folded past the largest double.
    fn in_range(&self, v: Value, start: Span) -> Parsed {
        let overflowed = match v {
            Value::Scalar(x) => self.g.overflowed(x),
            Value::Vector(x) => x.iter().any(|&c| self.g.overflowed(c)),
        };
        if overflowed {
            return Err(Stop::Failed(ParseError { span: self.since(start), kind: ParseErrorKind::Overflow }));
        }
        Ok(v)
    }

    fn negate(&mut self, v: Value) -> Value {
        match v {
            Value::Scalar(x) => Value::Scalar(self.g.neg(x)),
            Value::Vector(x) => Value::Vector([self.g.neg(x[0]), self.g.neg(x[1]), self.g.neg(x[2])]),
        }
    }

    fn product(&mut self) -> Parsed {
        if self.tokens.peek().kind == TokenKind::Minus {
            self.tokens.bump();
            self.enter()?;
            let p = self.product()?;
            self.depth -= 1;
            return Ok(self.negate(p));
        }
        let start = self.tokens.peek().span;
        let mut total = self.unary()?;
        loop {
            let divide = match self.tokens.peek().kind {
                TokenKind::Star => false,
                TokenKind::Slash => true,
                _ => break,
            };
            self.tokens.bump();
            let at = self.tokens.peek().span;
            let factor = self.unary()?;
            if divide && matches!(factor, Value::Scalar(k) if self.g.as_number(k).is_some_and(|x| x.is_zero())) {
                return Err(Stop::Failed(ParseError { span: self.since(at), kind: ParseErrorKind::DivisionByZero }));
            }
            total = match (total, factor, divide) {
                (Value::Scalar(a), Value::Scalar(b), false) => Value::Scalar(self.g.mul2(a, b)),
                (Value::Scalar(a), Value::Scalar(b), true) => Value::Scalar(self.g.div(a, b)),
                (Value::Scalar(k), Value::Vector(v), false) | (Value::Vector(v), Value::Scalar(k), false) => {
                    Value::Vector(scale(self.g, k, &v))
                }
                (Value::Vector(v), Value::Scalar(k), true) => {
                    let inverse = self.g.powi(k, -1);
                    Value::Vector(scale(self.g, inverse, &v))
                }
                (_, Value::Vector(_), true) => return fail(self.since(start), says::divide_by_vector()),
                (Value::Vector(_), Value::Vector(_), _) => {
                    return fail(self.since(start), says::vector_product());
                }
            };
        }
        self.in_range(total, start)
    }

    fn unary(&mut self) -> Parsed {
        if self.tokens.peek().kind == TokenKind::Minus {
            self.tokens.bump();
            self.enter()?;
            let x = self.unary()?;
            self.depth -= 1;
            return Ok(self.negate(x));
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
        match (base, exponent) {
            (Value::Scalar(b), Value::Scalar(e)) if self.g.divides_by_zero(b, e) => {
                Err(Stop::Failed(ParseError { span: self.since(start), kind: ParseErrorKind::DivisionByZero }))
            }
            (Value::Scalar(b), Value::Scalar(e)) => {
                let power = Value::Scalar(self.g.pow(b, e));
                self.in_range(power, start)
            }
            _ => fail(self.since(start), says::vector_power()),
        }
    }

    fn primary(&mut self) -> Parsed {
        let t = self.tokens.bump();
        match t.kind {
            TokenKind::Number(n) => Ok(Value::Scalar(self.g.number(n))),
            TokenKind::LParen => {
                let v = self.sum()?;
                self.expect(TokenKind::RParen, "`)`")?;
                Ok(v)
            }
            TokenKind::LBracket => self.components(t.span),
            TokenKind::Name(name, 0) if self.tokens.peek().kind == TokenKind::Dot => self.axis(name, t.span),
            TokenKind::Name(name, 0) if self.tokens.peek().kind == TokenKind::LParen => self.call(name, t.span),
            TokenKind::Name(name, primes) => self.name(name, primes, t.span),
            _ => {
                let found = self.describe(&t);
                Err(Stop::Failed(ParseError {
                    span: t.span,
                    kind: ParseErrorKind::Expected { expected: "an expression", found },
                }))
            }
        }
    }

    /// A component of `[a, b, c]`.
    fn component(&mut self, start: Span) -> Result<ExprId, Stop> {
        match self.sum()? {
            Value::Scalar(x) => Ok(x),
            Value::Vector(_) => fail(self.since(start), says::component_is_scalar()),
        }
    }

    /// `[a, b, c]` or `[a, b, c] in F`.
    fn components(&mut self, open: Span) -> Parsed {
        let mut out = [self.g.zero(); 3];
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
        let _ = open;
        Ok(Value::Vector(rotate(self.g, &rotation, &out)))
    }

    fn frame_name(&mut self) -> Result<(&'s str, Span), Stop> {
        let t = self.tokens.bump();
        match t.kind {
            TokenKind::Name(name, 0) => Ok((name, t.span)),
            _ => {
                let found = self.describe(&t);
                Err(Stop::Failed(ParseError {
                    span: t.span,
                    kind: ParseErrorKind::Expected { expected: A_FRAME, found },
                }))
            }
        }
    }

    /// A frame's (rotation, angular velocity), or why not.
    fn frame(&self, name: &str, span: Span) -> Result<(Option<Matrix>, Vector), Stop> {
        match self.scope.frame(name) {
            Lookup::Found(f) => Ok(f),
            Lookup::Pending => Err(Stop::Pending(name.to_string())),
            Lookup::Unknown => {
                let names = self.scope.names();
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
            match self.scope.vector(name) {
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
        let text = &self.source[span.start..span.end];
        match self.g.parse(text) {
            Ok(e) => Ok(Value::Scalar(e)),
            Err(mut e) => {
                e.span = Span::new(span.start + e.span.start, span.start + e.span.end);
                if let ParseErrorKind::UnknownName { name, suggestions } = &mut e.kind {
                    let known: Vec<String> = self.g.names().map(String::from).chain(self.scope.names()).collect();
                    *suggestions = nearest(name, known.iter().map(String::as_str));
                }
                Err(Stop::Failed(e))
            }
        }
    }

    fn call(&mut self, name: &'s str, span: Span) -> Parsed {
        let open = self.tokens.bump().span;
        if name == "omega" {
            let (frame, at) = self.frame_name()?;
            self.expect(TokenKind::RParen, OMEGA_CLOSES)?;
            let (_, omega) = self.frame(frame, at)?;
            return Ok(Value::Vector(omega));
        }
        let mut args = alloc::vec![self.sum()?];
        while self.tokens.peek().kind == TokenKind::Comma {
            self.tokens.bump();
            args.push(self.sum()?);
        }
        self.expect(TokenKind::RParen, "`)`")?;
        let _ = open;
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
                "dot" => Value::Scalar(dot(self.g, &v[0], &v[1])),
                "cross" => Value::Vector(cross(self.g, &v[0], &v[1])),
                "norm" => Value::Scalar(norm(self.g, &v[0], &|g, e| self.scope.sign_at_start(g, e))),
                "unit" if v[0].iter().all(|&x| self.g.as_number(x).is_some_and(|x| x.is_zero())) => {
                    return fail(full, says::unit_of_zero());
                }
                "unit" => Value::Vector(unit(self.g, &v[0], &|g, e| self.scope.sign_at_start(g, e))),
                _ => Value::Vector(self.velocity(&v[0], full)?),
            });
        }
        let Some(x) = scalars.iter().copied().collect::<Option<Vec<ExprId>>>() else {
            return fail(full, says::takes_scalars(name));
        };
        if name == "atan2" {
            return Ok(Value::Scalar(self.g.atan2(x[0], x[1])));
        }
        if name == "sqrt" {
            return Ok(Value::Scalar(self.g.sqrt(x[0])));
        }
        match Function::ALL.into_iter().find(|f| f.name() == name) {
            Some(f) => {
                let value = Value::Scalar(self.g.call(f, x[0]));
                self.in_range(value, span)
            }
            None => unknown_function(name, span),
        }
    }

    /// `velocity(v)`: the time derivative of a position-like vector.
    fn velocity(&mut self, v: &Vector, span: Span) -> Result<Vector, Stop> {
        let has_velocity = v.iter().any(|&x| {
            self.g
                .free_symbols(x)
                .into_iter()
                .any(|s| matches!(self.g.symbol(s).kind, SymbolKind::Velocity(_) | SymbolKind::Acceleration(_)))
        });
        if has_velocity {
            return fail(span, says::velocity_of_velocities());
        }
        let mut out = [self.g.zero(); 3];
        for (o, &x) in out.iter_mut().zip(v) {
            match self.g.time_derivative(x) {
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
