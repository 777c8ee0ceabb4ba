//! Names in expressions: symbols (time, coordinates and their derivatives, parameters,
//! auxiliary unknowns such as multipliers) and definitions.

use alloc::string::String;

/// Index of a symbol in an [`ExprGraph`](super::ExprGraph).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SymbolId(pub(crate) u32);

/// Index of a definition (a named sub-expression) in an [`ExprGraph`](super::ExprGraph).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DefinitionId(pub(crate) u32);

impl SymbolId {
    /// The position of this symbol in its graph's symbol table.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl DefinitionId {
    /// The position of this definition in its graph's definition table.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// What a symbol stands for. Indices count within their kind, in declaration order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    /// The time `t`.
    Time,
    /// The constant π (a symbol so that it prints as `pi`, `\pi`, `π`).
    Pi,
    /// Generalised coordinate `q_i`.
    Coordinate(usize),
    /// Generalised velocity `q_i'`.
    Velocity(usize),
    /// Generalised acceleration `q_i''`: only in derived equations, never in a model.
    Acceleration(usize),
    /// A named parameter (a slider in the lab): constant in time.
    Parameter(usize),
    /// An unknown introduced by a derivation (multipliers and the like).
    Auxiliary(usize),
}

/// A symbol: its name as written (without primes) and its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Symbol {
    /// For velocities and accelerations, the coordinate's name.
    pub name: String,
    /// What the symbol stands for.
    pub kind: SymbolKind,
}

/// What a name refers to when parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    /// A symbol (for a coordinate name: the coordinate itself).
    Symbol(SymbolId),
    /// A definition.
    Definition(DefinitionId),
}

/// Names of the functions of the expression grammar, which cannot name anything else.
pub const FUNCTION_NAMES: [&str; 15] =
    ["sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh", "exp", "ln", "sqrt", "abs", "sign"];

/// Names with a fixed meaning: the constant `pi` and the time `t`.
pub const RESERVED_NAMES: [&str; 2] = ["pi", "t"];

/// Whether `name` is an identifier of the grammar: an ASCII letter or `_`, then
/// letters, digits or `_`.
pub fn is_identifier(name: &str) -> bool {
    let mut chars = name.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// Why a name could not be declared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameError {
    /// Not an identifier of the grammar.
    Invalid(String),
    /// A function name, `pi` or `t`.
    Reserved(String),
    /// Declared twice.
    Duplicate(String),
}

impl NameError {
    /// Why, as a message with an id (`problem.name.*`).
    pub fn message(&self) -> crate::message::Message {
        use crate::message::problem;
        match self {
            NameError::Invalid(name) => problem::invalid_name(name),
            NameError::Reserved(name) => problem::reserved_name(name),
            NameError::Duplicate(name) => problem::name_twice(name),
        }
    }
}

crate::message::words_are_the_message!(NameError);
