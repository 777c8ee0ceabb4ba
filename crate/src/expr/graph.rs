//! The hash-consed expression graph: every distinct expression exists once, so equal
//! expressions have equal [`ExprId`]s and shared subexpressions are stored (and later
//! evaluated) once.
//!
//! Nodes are only ever created through the canonicalising constructors in
//! `canonical.rs`, so every node in a graph is in canonical form.

use alloc::boxed::Box;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use hashbrown::HashMap;

use super::number::Number;
use super::symbols::{
    is_identifier, Binding, DefinitionId, NameError, Symbol, SymbolId, SymbolKind, FUNCTION_NAMES, RESERVED_NAMES,
};

/// Handle of an expression in an [`ExprGraph`]. Two handles from the same graph are
/// equal iff the expressions are structurally equal in canonical form.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ExprId(pub(crate) u32);

impl ExprId {
    /// The position of this node in its graph.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The elementary functions of one argument. `sqrt` is the power `1/2` and `atan2`
/// has a node of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Function {
    /// Sine.
    Sin,
    /// Cosine.
    Cos,
    /// Tangent.
    Tan,
    /// Arc sine.
    Asin,
    /// Arc cosine.
    Acos,
    /// Arc tangent.
    Atan,
    /// Hyperbolic sine.
    Sinh,
    /// Hyperbolic cosine.
    Cosh,
    /// Hyperbolic tangent.
    Tanh,
    /// Exponential.
    Exp,
    /// Natural logarithm.
    Ln,
    /// Absolute value.
    Abs,
    /// Sign (-1, 0, 1): the derivative of `abs`.
    Sign,
}

impl Function {
    /// All functions, for lookup by name.
    pub const ALL: [Function; 13] = [
        Function::Sin,
        Function::Cos,
        Function::Tan,
        Function::Asin,
        Function::Acos,
        Function::Atan,
        Function::Sinh,
        Function::Cosh,
        Function::Tanh,
        Function::Exp,
        Function::Ln,
        Function::Abs,
        Function::Sign,
    ];

    /// The name used in the grammar.
    pub fn name(self) -> &'static str {
        match self {
            Function::Sin => "sin",
            Function::Cos => "cos",
            Function::Tan => "tan",
            Function::Asin => "asin",
            Function::Acos => "acos",
            Function::Atan => "atan",
            Function::Sinh => "sinh",
            Function::Cosh => "cosh",
            Function::Tanh => "tanh",
            Function::Exp => "exp",
            Function::Ln => "ln",
            Function::Abs => "abs",
            Function::Sign => "sign",
        }
    }

    /// Evaluates the function.
    pub fn apply(self, x: f64) -> f64 {
        use crate::math as m;
        match self {
            Function::Sin => m::sin(x),
            Function::Cos => m::cos(x),
            Function::Tan => m::tan(x),
            Function::Asin => m::asin(x),
            Function::Acos => m::acos(x),
            Function::Atan => m::atan(x),
            Function::Sinh => m::sinh(x),
            Function::Cosh => m::cosh(x),
            Function::Tanh => m::tanh(x),
            Function::Exp => m::exp(x),
            Function::Ln => m::ln(x),
            Function::Abs => m::abs(x),
            Function::Sign => m::sign(x),
        }
    }

    /// Odd functions satisfy `f(-x) = -f(x)`; canonical form pulls the sign out.
    pub fn is_odd(self) -> bool {
        matches!(
            self,
            Function::Sin
                | Function::Tan
                | Function::Asin
                | Function::Atan
                | Function::Sinh
                | Function::Tanh
                | Function::Sign
        )
    }

    /// Even functions satisfy `f(-x) = f(x)`.
    pub fn is_even(self) -> bool {
        matches!(self, Function::Cos | Function::Cosh | Function::Abs)
    }
}

/// One node of the graph.
///
/// Canonical-form invariants (kept by the constructors): `Add` and `Mul` have at
/// least two children, sorted, with at most one number, first; no child of an `Add`
/// is an `Add`, no child of a `Mul` is a `Mul`; a `Pow` exponent is neither 0 nor 1.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Node {
    /// A numeric constant.
    Number(Number),
    /// A symbol.
    Symbol(SymbolId),
    /// A reference to a named definition, kept as a shared subterm.
    Definition(DefinitionId),
    /// A sum.
    Add(Box<[ExprId]>),
    /// A product.
    Mul(Box<[ExprId]>),
    /// `base ^ exponent`; division and `sqrt` are powers.
    Pow(ExprId, ExprId),
    /// An elementary function applied to an argument.
    Call(Function, ExprId),
    /// `atan2(y, x)`.
    Atan2(ExprId, ExprId),
}

/// The bit of symbol `s` in the masks of [`ExprGraph::mask`].
pub(crate) fn symbol_bit(s: SymbolId) -> u128 {
    1u128 << (s.index() % 128)
}

/// A named sub-expression. The body is set once the definitions of a model are
/// resolved; until then the definition is an opaque name.
#[derive(Clone, Debug)]
pub struct Definition {
    /// The name.
    pub name: String,
    /// The expression it stands for.
    pub body: Option<ExprId>,
}

/// The graph: nodes, symbols, definitions and the name table used by the parser.
#[derive(Clone, Debug)]
pub struct ExprGraph {
    nodes: Vec<Node>,
    /// Per node: which symbols it may depend on, one bit per symbol index modulo
    /// 128 (all bits for a definition, whose body may come later). Differentiation
    /// skips a subtree whose mask misses every symbol with a rate: a partial
    /// derivative of a large model visits only the terms that contain its variable.
    masks: Vec<u128>,
    /// What [`ExprGraph::expand`] has made of each node it has seen.
    pub(crate) expanded: HashMap<ExprId, ExprId>,
    index: HashMap<Node, ExprId>,
    symbols: Vec<Symbol>,
    symbol_exprs: Vec<ExprId>,
    definitions: Vec<Definition>,
    names: HashMap<String, Binding>,
    /// Per coordinate: (position, velocity, acceleration) symbols.
    coordinates: Vec<[SymbolId; 3]>,
    time: SymbolId,
    parameter_count: usize,
    auxiliary_count: usize,
    /// Operands handled by [`intern`](Self::intern) so far, found or new: the work
    /// of building expressions (a product of 100 factors costs 100, not 1), for the
    /// bounds of derivations that can grow without limit. The canonical `add` and
    /// `mul` add the operands they flatten and sort.
    pub(super) work: u64,
}

impl Default for ExprGraph {
    fn default() -> Self {
        Self::new()
    }
}

impl ExprGraph {
    /// An empty graph that knows only the time `t`.
    pub fn new() -> Self {
        let mut g = ExprGraph {
            nodes: Vec::new(),
            masks: Vec::new(),
            expanded: HashMap::new(),
            index: HashMap::new(),
            symbols: Vec::new(),
            symbol_exprs: Vec::new(),
            definitions: Vec::new(),
            names: HashMap::new(),
            coordinates: Vec::new(),
            time: SymbolId(0),
            parameter_count: 0,
            auxiliary_count: 0,
            work: 0,
        };
        g.time = g.push_symbol("t", SymbolKind::Time);
        g.names.insert("t".to_string(), Binding::Symbol(g.time));
        let pi = g.push_symbol("pi", SymbolKind::Pi);
        g.names.insert("pi".to_string(), Binding::Symbol(pi));
        g
    }

    /// Interns a node that is already canonical; the constructors call this.
    pub(crate) fn intern(&mut self, node: Node) -> ExprId {
        self.work += match &node {
            Node::Add(xs) | Node::Mul(xs) => 1 + xs.len() as u64,
            _ => 1,
        };
        if let Some(&id) = self.index.get(&node) {
            return id;
        }
        let id = ExprId(u32::try_from(self.nodes.len()).unwrap_or(u32::MAX));
        let mask = match &node {
            Node::Number(_) => 0,
            Node::Symbol(s) => symbol_bit(*s),
            Node::Definition(_) => u128::MAX,
            Node::Add(xs) | Node::Mul(xs) => xs.iter().fold(0, |m, x| m | self.masks[x.index()]),
            Node::Pow(a, b) | Node::Atan2(a, b) => self.masks[a.index()] | self.masks[b.index()],
            Node::Call(_, u) => self.masks[u.index()],
        };
        self.masks.push(mask);
        self.nodes.push(node.clone());
        self.index.insert(node, id);
        id
    }

    /// Operands handled in building expressions so far (see the field).
    pub fn work(&self) -> u64 {
        self.work
    }

    /// The node behind a handle.
    pub fn node(&self, id: ExprId) -> &Node {
        &self.nodes[id.index()]
    }

    /// The symbols `id` may depend on, as a mask of [`symbol_bit`]s (a superset:
    /// bits are shared modulo 128, and a definition has every bit).
    pub(crate) fn mask(&self, id: ExprId) -> u128 {
        self.masks[id.index()]
    }

    /// The mask bit of symbol `s` (see [`ExprGraph::mask`]).
    pub(crate) fn symbol_mask(&self, s: SymbolId) -> u128 {
        symbol_bit(s)
    }

    /// How many distinct nodes the graph holds.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the graph holds no nodes.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The number, if the expression is a numeric constant.
    pub fn as_number(&self, id: ExprId) -> Option<Number> {
        match self.node(id) {
            Node::Number(n) => Some(*n),
            _ => None,
        }
    }

    fn push_symbol(&mut self, name: &str, kind: SymbolKind) -> SymbolId {
        let id = SymbolId(self.symbols.len() as u32);
        self.symbols.push(Symbol { name: name.to_string(), kind });
        let e = self.intern(Node::Symbol(id));
        self.symbol_exprs.push(e);
        id
    }

    fn claim_name(&mut self, name: &str) -> Result<(), NameError> {
        if !is_identifier(name) {
            return Err(NameError::Invalid(name.to_string()));
        }
        if FUNCTION_NAMES.contains(&name) || RESERVED_NAMES.contains(&name) {
            return Err(NameError::Reserved(name.to_string()));
        }
        if self.names.contains_key(name) {
            return Err(NameError::Duplicate(name.to_string()));
        }
        Ok(())
    }

    /// Declares a generalised coordinate with its velocity and acceleration; returns
    /// the coordinate's index.
    pub fn declare_coordinate(&mut self, name: &str) -> Result<usize, NameError> {
        self.claim_name(name)?;
        let i = self.coordinates.len();
        let q = self.bind_symbol(name, SymbolKind::Coordinate(i));
        let v = self.push_symbol(name, SymbolKind::Velocity(i));
        let a = self.push_symbol(name, SymbolKind::Acceleration(i));
        self.coordinates.push([q, v, a]);
        Ok(i)
    }

    /// Declares a parameter (constant in time).
    pub fn declare_parameter(&mut self, name: &str) -> Result<SymbolId, NameError> {
        self.claim_name(name)?;
        let kind = SymbolKind::Parameter(self.parameter_count);
        self.parameter_count += 1;
        Ok(self.bind_symbol(name, kind))
    }

    /// Declares an auxiliary unknown of a derivation (a multiplier, say).
    pub fn declare_auxiliary(&mut self, name: &str) -> Result<SymbolId, NameError> {
        self.claim_name(name)?;
        let kind = SymbolKind::Auxiliary(self.auxiliary_count);
        self.auxiliary_count += 1;
        Ok(self.bind_symbol(name, kind))
    }

    /// A new symbol of `kind`, which the text `name` then reads as (claimed already).
    fn bind_symbol(&mut self, name: &str, kind: SymbolKind) -> SymbolId {
        let id = self.push_symbol(name, kind);
        self.names.insert(name.to_string(), Binding::Symbol(id));
        id
    }

    /// Declares an auxiliary unknown named `stem`, or `stem_`, `stem__`, … when the
    /// name is taken: derivations add multipliers without clashing with model names.
    pub fn declare_fresh_auxiliary(&mut self, stem: &str) -> SymbolId {
        let mut name = String::from(stem);
        while self.lookup(&name).is_some() {
            name.push('_');
        }
        self.declare_auxiliary(&name).unwrap_or(self.time)
    }

    /// Declares a definition whose body is set later, so that definitions may refer
    /// to each other in any order; [`define_all`](Self::define_all) is the public way.
    pub(crate) fn declare_definition(&mut self, name: &str) -> Result<DefinitionId, NameError> {
        self.claim_name(name)?;
        let id = DefinitionId(self.definitions.len() as u32);
        self.definitions.push(Definition { name: name.to_string(), body: None });
        self.names.insert(name.to_string(), Binding::Definition(id));
        Ok(id)
    }

    /// Sets the body of a declared definition; acyclicity is the caller's duty.
    pub(crate) fn set_definition_body(&mut self, id: DefinitionId, body: ExprId) {
        self.definitions[id.index()].body = Some(body);
    }

    /// How many definitions are declared.
    pub fn definition_count(&self) -> usize {
        self.definitions.len()
    }

    /// Undeclares the definitions from index `first` on (a failed batch). Nodes that
    /// referred to them are unreachable from any returned expression.
    pub(crate) fn forget_definitions_from(&mut self, first: usize) {
        for d in self.definitions.drain(first..) {
            self.names.remove(&d.name);
        }
    }

    /// The definition behind an id.
    pub fn definition(&self, id: DefinitionId) -> &Definition {
        &self.definitions[id.index()]
    }

    /// The expression that refers to a definition by name.
    pub fn definition_expr(&mut self, id: DefinitionId) -> ExprId {
        self.intern(Node::Definition(id))
    }

    /// The symbol behind an id.
    pub fn symbol(&self, id: SymbolId) -> &Symbol {
        &self.symbols[id.index()]
    }

    /// All symbols, in declaration order.
    pub fn symbols(&self) -> impl Iterator<Item = (SymbolId, &Symbol)> {
        self.symbols.iter().enumerate().map(|(i, s)| (SymbolId(i as u32), s))
    }

    /// The expression that is just this symbol.
    pub fn symbol_expr(&self, id: SymbolId) -> ExprId {
        self.symbol_exprs[id.index()]
    }

    /// The time symbol `t`.
    pub fn time(&self) -> SymbolId {
        self.time
    }

    /// How many coordinates are declared.
    pub fn coordinate_count(&self) -> usize {
        self.coordinates.len()
    }

    /// The symbols of coordinate `i`: position `q_i`, velocity and acceleration.
    pub fn coordinate(&self, i: usize) -> [SymbolId; 3] {
        self.coordinates[i]
    }

    /// What a name refers to.
    pub fn lookup(&self, name: &str) -> Option<Binding> {
        self.names.get(name).copied()
    }

    /// The symbol a name refers to, if it names a symbol.
    pub fn lookup_symbol(&self, name: &str) -> Option<SymbolId> {
        match self.lookup(name)? {
            Binding::Symbol(s) => Some(s),
            Binding::Definition(_) => None,
        }
    }

    /// Every declared name (for suggestions), in no particular order.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.names.keys().map(String::as_str)
    }

    /// The symbol whose time derivative is `id`'s successor: `q → q'`, `q' → q''`.
    pub(crate) fn time_derivative_of(&self, id: SymbolId) -> Option<SymbolId> {
        match self.symbol(id).kind {
            SymbolKind::Coordinate(i) => Some(self.coordinates[i][1]),
            SymbolKind::Velocity(i) => Some(self.coordinates[i][2]),
            _ => None,
        }
    }

    /// Visits every node reachable from `roots` once, depth first; with
    /// `into_definitions` the bodies of definitions are visited too.
    pub fn walk(&self, roots: &[ExprId], into_definitions: bool, mut visit: impl FnMut(ExprId, &Node)) {
        let mut seen = hashbrown::HashSet::new();
        let mut stack = roots.to_vec();
        while let Some(x) = stack.pop() {
            if !seen.insert(x) {
                continue;
            }
            let node = self.node(x);
            visit(x, node);
            match node {
                Node::Number(_) | Node::Symbol(_) => {}
                Node::Definition(d) if into_definitions => stack.extend(self.definition(*d).body),
                Node::Definition(_) => {}
                Node::Add(cs) | Node::Mul(cs) => stack.extend_from_slice(cs),
                Node::Pow(a, b) | Node::Atan2(a, b) => stack.extend([*a, *b]),
                Node::Call(_, a) => stack.push(*a),
            }
        }
    }

    /// Sort key of canonical children: numbers first, then by creation order, which is
    /// declaration order for symbols (so `x` comes before `y` when declared so).
    pub(crate) fn order_key(&self, id: ExprId) -> (u8, u32) {
        match self.node(id) {
            Node::Number(_) => (0, id.0),
            _ => (1, id.0),
        }
    }
}
