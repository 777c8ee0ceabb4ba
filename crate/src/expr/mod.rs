//! The expression engine: the first layer of the core.
//!
//! ```
//! use nhlab::expr::ExprGraph;
//!
//! let mut g = ExprGraph::new();
//! g.declare_coordinate("x").unwrap();
//! g.declare_parameter("m").unwrap();
//! let t = g.parse("m/2*x'^2").unwrap();
//! let v = g.coordinate(0)[1];
//! let p = g.diff(t, v);                 // ∂T/∂x' = m*x'
//! assert_eq!(g.to_text(p), "m*x'");
//! let mass = g.diff(p, v);
//! assert_eq!(g.to_latex(mass), "m");
//!
//! let program = g.compile(&[p], &[v, g.lookup_symbol("m").unwrap()]).unwrap();
//! let mut eval = program.evaluator();
//! let mut out = [0.0];
//! eval.eval(&[3.0, 2.0], &mut out).unwrap();
//! assert_eq!(out[0], 6.0);
//! ```
//!
//! - [`ExprGraph`]: the hash-consed graph; every expression in it is in canonical
//!   form (simplification happens in the constructors: `canonical.rs`).
//! - Parsing (`parser.rs`, `lexer.rs`): [`ExprGraph::parse`], errors in [`ParseError`].
//! - Definitions (`definitions.rs`): [`ExprGraph::define_all`].
//! - Differentiation (`diff.rs`): [`ExprGraph::diff`], [`ExprGraph::time_derivative`].
//! - Printing (`print/`): [`ExprGraph::to_text`], [`ExprGraph::to_latex`],
//!   [`ExprGraph::to_mathml`].
//! - Compilation (`compile/`): [`ExprGraph::compile`] to a [`Program`], run by an
//!   [`Evaluator`].

mod canonical;
mod compile;
mod definitions;
mod diff;
pub(crate) mod error;
mod eval;
mod expand;
pub(crate) mod grammar;
mod graph;
pub(crate) mod lexer;
mod number;
mod parser;
mod print;
mod substitute;
mod symbols;
mod tidy;

pub use crate::suggest::nearest;
pub(crate) use compile::same_bits;
pub use compile::{
    part_addresses, Arithmetic, Block, CompileError, CompiledCode, CompilesAlone, Evaluator, Instr, NativeEvaluator,
    Numbers, Op, Program, Reg, ShapeError, Value,
};
pub use definitions::{DefinitionError, MAX_DEFINITION_DEPTH};
pub use diff::DiffError;
pub use error::{line_col, Lines, ParseError, ParseErrorKind, Span};
pub use expand::{MAX_EXPANDED_POWER, MAX_EXPANDED_TERMS};
pub use graph::{Definition, ExprGraph, ExprId, Function, Node};
pub use number::{Number, Rational};
pub use parser::{ParseOptions, MAX_EXPRESSION_BYTES, MAX_NESTING};
pub use print::{name_to_latex, text_to_latex};
pub use symbols::{
    is_identifier, Binding, DefinitionId, NameError, Symbol, SymbolId, SymbolKind, FUNCTION_NAMES, RESERVED_NAMES,
};
pub(crate) use tidy::TidyMemo;
