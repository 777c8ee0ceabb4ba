//! Differentiation: partial derivatives, directional derivatives along given symbol
//! rates, and the total time derivative along `(q, v, a)`.
//!
//! One recursive routine serves all three: the derivative of a symbol is its "rate"
//! (1 for the variable of a partial derivative; `v_i` for `q_i`, `a_i` for `v_i` and 1
//! for `t` in a time derivative). It memoises per call, so shared subexpressions
//! and definitions are differentiated once.
//!
//! Non-smooth points are handled honestly: `d|u| = sign(u) du` (0 at the kink, the
//! value a central difference gives); `d sqrt(u)` is `du / (2 sqrt(u))`, which is
//! infinite or NaN at `u = 0` and is reported as such by the evaluator; `atan2`'s
//! derivative `(x dy − y dx)/(x² + y²)` is undefined only at the origin.

use alloc::vec::Vec;
use hashbrown::HashMap;

use super::graph::{symbol_bit, ExprGraph, ExprId, Function, Node};
use super::symbols::{SymbolId, SymbolKind};

/// Why a time derivative cannot be taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiffError {
    /// The expression contains a symbol whose rate of change is unknown (an
    /// acceleration: jerks are not modelled; or an auxiliary unknown).
    NoRate {
        /// The symbol's name.
        name: alloc::string::String,
    },
}

impl DiffError {
    /// The same, as a message with an id ([`crate::message::problem::no_rate`]).
    pub fn message(&self) -> crate::message::Message {
        match self {
            DiffError::NoRate { name } => crate::message::problem::no_rate(name),
        }
    }
}

crate::message::words_are_the_message!(DiffError);

impl ExprGraph {
    /// The partial derivative `∂e/∂s`.
    pub fn diff(&mut self, e: ExprId, s: SymbolId) -> ExprId {
        let one = self.one();
        let mut memo = HashMap::new();
        self.derive(e, &|sym| (sym == s).then_some(one), symbol_bit(s), &mut memo)
    }

    /// The partial derivatives `∂e/∂s` of several expressions, sharing the work on
    /// their common subterms (an exported file differentiates every entry of `M`,
    /// `F`, `A`, `b` by each state variable: one pass each, not one per entry).
    pub fn diff_many(&mut self, es: &[ExprId], s: SymbolId) -> Vec<ExprId> {
        let one = self.one();
        let mut memo = HashMap::new();
        es.iter().map(|&e| self.derive(e, &|sym| (sym == s).then_some(one), symbol_bit(s), &mut memo)).collect()
    }

    /// The directional derivative `Σ_s ∂e/∂s · rate(s)`; `rate` returns `None` for
    /// symbols that do not change.
    pub fn derivative_along(&mut self, e: ExprId, rate: &dyn Fn(SymbolId) -> Option<ExprId>) -> ExprId {
        self.derivatives_along(&[e], rate)[0]
    }

    /// The total time derivative `∂e/∂t + Σ v_i ∂e/∂q_i + Σ a_i ∂e/∂v_i`; parameters
    /// are constant. Fails on symbols with no rate (accelerations, auxiliaries): use
    /// [`derivative_along`](Self::derivative_along) with their rates instead.
    pub fn time_derivative(&mut self, e: ExprId) -> Result<ExprId, DiffError> {
        Ok(self.time_derivatives(&[e])?[0])
    }

    /// [`time_derivative`](Self::time_derivative) of several expressions, sharing the
    /// work on their common subterms: the momenta `∂L/∂v_i` of a chain share the
    /// velocities of the bodies beyond link i, and differentiating each afresh made
    /// deriving the chain grow like N³.
    pub fn time_derivatives(&mut self, es: &[ExprId]) -> Result<Vec<ExprId>, DiffError> {
        self.time_derivatives_with(es, true)
    }

    /// The time derivatives of `es` with the accelerations set to zero
    /// (`Σ v_i ∂e/∂q_i + ∂e/∂t`): what is left of `ė` besides its `q̈` terms, in
    /// one pass over their common subterms, without building those terms to take
    /// them away again. Fails like [`time_derivative`](Self::time_derivative).
    pub fn time_derivatives_at_rest(&mut self, es: &[ExprId]) -> Result<Vec<ExprId>, DiffError> {
        self.time_derivatives_with(es, false)
    }

    /// The time derivatives of `es`, with the accelerations' terms or (`accelerations`
    /// false) without them: each symbol's rate is the next of its chain (`q → v → q̈`),
    /// `t`'s is 1, and with `accelerations` false only the coordinates move.
    fn time_derivatives_with(&mut self, es: &[ExprId], accelerations: bool) -> Result<Vec<ExprId>, DiffError> {
        self.check_rates(es)?;
        let one = self.one();
        let time = self.time();
        let rates: Vec<Option<ExprId>> = self
            .symbols()
            .map(|(id, sym)| {
                let next = match sym.kind {
                    _ if accelerations => self.time_derivative_of(id),
                    SymbolKind::Coordinate(i) => Some(self.coordinate(i)[1]),
                    _ => None,
                };
                match next {
                    Some(next) => Some(self.symbol_expr(next)),
                    None => (id == time).then_some(one),
                }
            })
            .collect();
        Ok(self.derivatives_along(es, &|s| rates[s.index()]))
    }

    /// [`derivative_along`](Self::derivative_along) of several expressions, sharing
    /// the work on their common subterms.
    pub fn derivatives_along(&mut self, es: &[ExprId], rate: &dyn Fn(SymbolId) -> Option<ExprId>) -> Vec<ExprId> {
        let active = self.symbols().filter(|&(id, _)| rate(id).is_some()).fold(0, |m, (id, _)| m | symbol_bit(id));
        let mut memo = HashMap::new();
        es.iter().map(|&e| self.derive(e, rate, active, &mut memo)).collect()
    }

    /// Fails on the first symbol with no rate of change (an acceleration or an
    /// auxiliary) among those `es` depend on.
    pub fn check_rates(&self, es: &[ExprId]) -> Result<(), DiffError> {
        let without_rate = self
            .symbols()
            .filter(|(_, sym)| matches!(sym.kind, SymbolKind::Acceleration(_) | SymbolKind::Auxiliary(_)))
            .fold(0, |m, (id, _)| m | symbol_bit(id));
        for &e in es {
            let suspects = if self.mask(e) & without_rate == 0 { Vec::new() } else { self.free_symbols(e) };
            for s in suspects {
                if matches!(self.symbol(s).kind, SymbolKind::Acceleration(_) | SymbolKind::Auxiliary(_)) {
                    return Err(DiffError::NoRate { name: self.display_symbol(s) });
                }
            }
        }
        Ok(())
    }

    /// Whether `e` may depend on an acceleration (a cheap test, true when unsure).
    pub fn may_have_accelerations(&self, e: ExprId) -> bool {
        let accelerations = self
            .symbols()
            .filter(|(_, sym)| matches!(sym.kind, SymbolKind::Acceleration(_)))
            .fold(0, |m, (id, _)| m | symbol_bit(id));
        self.mask(e) & accelerations != 0
    }

    fn derive(
        &mut self,
        e: ExprId,
        rate: &dyn Fn(SymbolId) -> Option<ExprId>,
        active: u128,
        memo: &mut HashMap<ExprId, ExprId>,
    ) -> ExprId {
        if self.mask(e) & active == 0 {
            return self.zero();
        }
        if let Some(&d) = memo.get(&e) {
            return d;
        }
        // Sums and products are read child by child rather than cloned: cloning
        // their child lists at every visit was a fifth of deriving a long chain.
        let node = match self.node(e) {
            Node::Add(terms) => Err((true, terms.len())),
            Node::Mul(factors) => Err((false, factors.len())),
            other => Ok(other.clone()),
        };
        let node = match node {
            Ok(node) => node,
            Err((is_sum, len)) => {
                let terms = if is_sum {
                    // Zeros dropped here: a partial derivative of a long sum is mostly
                    // zeros (terms without the variable), and the sum's constructor
                    // would sort and merge them all.
                    let mut ds: Vec<ExprId> = Vec::new();
                    for k in 0..len {
                        let d = self.derive(self.child(e, k), rate, active, memo);
                        if !self.is_zero(d) {
                            ds.push(d);
                        }
                    }
                    ds
                } else {
                    // One buffer for every term of the product rule (a copy per term
                    // was a good part of deriving a large model).
                    let factors: Vec<ExprId> = (0..len).map(|k| self.child(e, k)).collect();
                    let mut product = factors.clone();
                    let mut terms = Vec::new();
                    for i in 0..len {
                        let di = self.derive(factors[i], rate, active, memo);
                        if self.is_zero(di) {
                            continue;
                        }
                        product[i] = di;
                        terms.push(self.mul(&product));
                        product[i] = factors[i];
                    }
                    terms
                };
                let d = match terms.len() {
                    0 => self.zero(),
                    1 => terms[0],
                    _ => self.add(&terms),
                };
                memo.insert(e, d);
                return d;
            }
        };
        let d = match node {
            Node::Number(_) => self.zero(),
            Node::Symbol(s) => rate(s).unwrap_or_else(|| self.zero()),
            Node::Definition(id) => match self.definition(id).body {
                Some(body) => self.derive(body, rate, active, memo),
                None => self.zero(),
            },
            Node::Add(_) | Node::Mul(_) => unreachable!("handled above"),
            Node::Pow(b, x) => self.derive_pow(e, b, x, rate, active, memo),
            Node::Call(f, u) => {
                let du = self.derive(u, rate, active, memo);
                if self.is_zero(du) {
                    du
                } else {
                    let outer = self.derivative_of_function(f, u, e);
                    self.mul2(outer, du)
                }
            }
            Node::Atan2(y, x) => {
                let dy = self.derive(y, rate, active, memo);
                let dx = self.derive(x, rate, active, memo);
                let x_dy = self.mul2(x, dy);
                let y_dx = self.mul2(y, dx);
                let num = self.sub(x_dy, y_dx);
                let x2 = self.powi(x, 2);
                let y2 = self.powi(y, 2);
                let den = self.add2(x2, y2);
                self.div(num, den)
            }
        };
        memo.insert(e, d);
        d
    }

    fn derive_pow(
        &mut self,
        e: ExprId,
        b: ExprId,
        x: ExprId,
        rate: &dyn Fn(SymbolId) -> Option<ExprId>,
        active: u128,
        memo: &mut HashMap<ExprId, ExprId>,
    ) -> ExprId {
        let db = self.derive(b, rate, active, memo);
        let dx = self.derive(x, rate, active, memo);
        match (self.is_zero(db), self.is_zero(dx)) {
            (true, true) => db,
            // Power rule: x b^(x-1) db.
            (false, true) => {
                let m1 = self.integer(-1);
                let xm1 = self.add2(x, m1);
                let p = self.pow(b, xm1);
                self.mul(&[x, p, db])
            }
            // Exponential rule: b^x ln(b) dx.
            (true, false) => {
                let ln_b = self.call(Function::Ln, b);
                self.mul(&[e, ln_b, dx])
            }
            // General: b^x (dx ln b + x db / b).
            (false, false) => {
                let ln_b = self.call(Function::Ln, b);
                let t1 = self.mul2(dx, ln_b);
                let m1 = self.integer(-1);
                let inv_b = self.pow(b, m1);
                let t2 = self.mul(&[x, db, inv_b]);
                let s = self.add2(t1, t2);
                self.mul2(e, s)
            }
        }
    }

    /// `f'(u)`, given `fu = f(u)` for the functions whose derivative reuses it.
    fn derivative_of_function(&mut self, f: Function, u: ExprId, fu: ExprId) -> ExprId {
        let one = self.one();
        match f {
            Function::Sin => self.call(Function::Cos, u),
            Function::Cos => {
                let s = self.call(Function::Sin, u);
                self.neg(s)
            }
            Function::Tan => {
                let t2 = self.powi(fu, 2);
                self.add2(one, t2)
            }
            Function::Asin | Function::Acos => {
                let u2 = self.powi(u, 2);
                let r = self.sub(one, u2);
                let m_half = self.rational(-1, 2);
                let d = self.pow(r, m_half);
                if f == Function::Asin {
                    d
                } else {
                    self.neg(d)
                }
            }
            Function::Atan => {
                let u2 = self.powi(u, 2);
                let r = self.add2(one, u2);
                self.powi(r, -1)
            }
            Function::Sinh => self.call(Function::Cosh, u),
            Function::Cosh => self.call(Function::Sinh, u),
            Function::Tanh => {
                let t2 = self.powi(fu, 2);
                self.sub(one, t2)
            }
            Function::Exp => fu,
            Function::Ln => self.powi(u, -1),
            Function::Abs => self.call(Function::Sign, u),
            Function::Sign => self.zero(),
        }
    }

    /// Child `k` of a sum or product (`e` itself otherwise).
    fn child(&self, e: ExprId, k: usize) -> ExprId {
        match self.node(e) {
            Node::Add(xs) | Node::Mul(xs) => xs[k],
            _ => e,
        }
    }

    /// Whether the expression is the constant 0.
    pub fn is_zero(&self, e: ExprId) -> bool {
        self.as_number(e).is_some_and(|n| n.is_zero())
    }

    /// The symbols an expression depends on (through definitions too), sorted.
    pub fn free_symbols(&self, e: ExprId) -> Vec<SymbolId> {
        let mut out = Vec::new();
        self.walk(&[e], true, |_, node| {
            if let Node::Symbol(s) = node {
                out.push(*s)
            }
        });
        out.sort();
        out
    }

    /// A symbol as written: `x`, `x'` or `x''`.
    pub fn display_symbol(&self, s: SymbolId) -> alloc::string::String {
        let sym = self.symbol(s);
        let primes = match sym.kind {
            SymbolKind::Velocity(_) => "'",
            SymbolKind::Acceleration(_) => "''",
            _ => "",
        };
        alloc::format!("{}{}", sym.name, primes)
    }
}
