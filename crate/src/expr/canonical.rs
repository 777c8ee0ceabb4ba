//! Canonicalising constructors: the only way nodes enter an [`ExprGraph`], so that
//! simplification happens once, as expressions are built.
//!
//! The canonical form (close to SymPy's automatic simplification):
//! - constants folded, exactly for rationals (`m/2*2 → m`, `4^(1/2) → 2`);
//! - sums flattened with like terms collected (`2*x + 3*x → 5*x`), and
//!   `c*X*sin(u)^2 + c*X*cos(u)^2 → c*X`;
//! - products flattened with like factors collected as powers (`x*x → x^2`,
//!   `x/x → 1`), a number times a single sum distributed (`-(x - y) → y - x`);
//! - integer powers of powers and of products multiplied out (`(x^2)^3 → x^6`,
//!   `(x*y)^2 → x^2*y^2`), never non-integer ones (`(x^2)^(1/2)` stays `|x|`'s value);
//! - the sign of a negated argument pulled out of odd and even functions.
//!
//! Every rule keeps the value wherever the original expression is finite; a few
//! (`x/x → 1`, `0*x → 0`) extend it to points where the original was undefined.

use alloc::vec::Vec;
use hashbrown::HashMap;

use super::graph::{ExprGraph, ExprId, Function, Node};
use core::ops::{Add, Mul};

use super::number::{Number, Rational};

impl ExprGraph {
    /// A numeric constant (floats that are small integers become exact).
    pub fn number(&mut self, n: Number) -> ExprId {
        let n = match n {
            Number::Float(f) => Number::from_f64(f).unwrap_or(Number::ZERO),
            exact => exact,
        };
        self.intern(Node::Number(n))
    }

    /// The integer `n`.
    pub fn integer(&mut self, n: i64) -> ExprId {
        self.number(Number::from(n))
    }

    /// The exact rational `p/q` (`q ≠ 0`; a zero denominator gives 0, never a panic).
    pub fn rational(&mut self, p: i64, q: i64) -> ExprId {
        let n = Rational::new(p, q).map(Number::Rational).unwrap_or(Number::ZERO);
        self.number(n)
    }

    /// `0`.
    pub fn zero(&mut self) -> ExprId {
        self.integer(0)
    }

    /// `1`.
    pub fn one(&mut self) -> ExprId {
        self.integer(1)
    }

    /// `a + b`.
    pub fn add2(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.add(&[a, b])
    }

    /// `a - b`.
    pub fn sub(&mut self, a: ExprId, b: ExprId) -> ExprId {
        let nb = self.neg(b);
        self.add(&[a, nb])
    }

    /// `-a`.
    pub fn neg(&mut self, a: ExprId) -> ExprId {
        let m1 = self.integer(-1);
        self.mul(&[m1, a])
    }

    /// `a * b`.
    pub fn mul2(&mut self, a: ExprId, b: ExprId) -> ExprId {
        self.mul(&[a, b])
    }

    /// `a / b`.
    pub fn div(&mut self, a: ExprId, b: ExprId) -> ExprId {
        let m1 = self.integer(-1);
        let inv = self.pow(b, m1);
        self.mul(&[a, inv])
    }

    /// Whether `base ^ exponent` divides by zero: a base that is the constant 0 to
    /// a negative constant power (`1/0` is `0^-1`). The parsers refuse it where the
    /// product would fold it away (`0 * 0^-1` is 0).
    pub fn divides_by_zero(&self, base: ExprId, exponent: ExprId) -> bool {
        self.as_number(base).is_some_and(|b| b.is_zero()) && self.as_number(exponent).is_some_and(|e| e.to_f64() < 0.0)
    }

    /// Whether `e` is a constant folded past the largest double: folding clamps it
    /// there (a constant is always finite), so `1e308*10` would be a silent
    /// 1.8e308. The parsers refuse it where it is written.
    pub fn overflowed(&self, e: ExprId) -> bool {
        self.as_number(e).is_some_and(|n| n.to_f64().abs() == f64::MAX)
    }

    /// `base ^ n` for an integer `n`.
    pub fn powi(&mut self, base: ExprId, n: i64) -> ExprId {
        let e = self.integer(n);
        self.pow(base, e)
    }

    /// `sqrt(x)`, the power `1/2`.
    pub fn sqrt(&mut self, x: ExprId) -> ExprId {
        let half = self.rational(1, 2);
        self.pow(x, half)
    }

    /// The coefficient and the rest of a term: `3*x*y → (3, x*y)`, `x → (1, x)`.
    pub(crate) fn split_coefficient(&mut self, t: ExprId) -> (Number, Option<ExprId>) {
        match self.node(t) {
            Node::Number(n) => (*n, None),
            Node::Mul(children) => match self.node(children[0]) {
                Node::Number(c) => {
                    let c = *c;
                    let rest: Vec<ExprId> = children[1..].to_vec();
                    let rest = if rest.len() == 1 { rest[0] } else { self.intern(Node::Mul(rest.into())) };
                    (c, Some(rest))
                }
                _ => (Number::ONE, Some(t)),
            },
            _ => (Number::ONE, Some(t)),
        }
    }

    /// `c * rest` for a `rest` that is neither a number nor a sum (as split off above).
    fn scaled_term(&mut self, c: Number, rest: ExprId) -> ExprId {
        if c.is_one() {
            return rest;
        }
        let cn = self.number(c);
        let mut children = Vec::with_capacity(4);
        children.push(cn);
        match self.node(rest) {
            Node::Mul(fs) => children.extend_from_slice(fs),
            _ => children.push(rest),
        }
        self.intern(Node::Mul(children.into()))
    }

    /// The sum of `terms`, in canonical form.
    pub fn add(&mut self, terms: &[ExprId]) -> ExprId {
        let mut constant = Number::ZERO;
        let mut collected: Vec<(ExprId, Number)> = Vec::with_capacity(terms.len());
        let mut position: HashMap<ExprId, usize> = HashMap::new();
        let mut flat: Vec<ExprId> = Vec::with_capacity(terms.len());
        for &t in terms {
            match self.node(t) {
                Node::Add(children) => flat.extend_from_slice(children),
                _ => flat.push(t),
            }
        }
        self.work += flat.len() as u64;
        for t in flat {
            match self.split_coefficient(t) {
                (c, None) => constant = constant.add(c),
                (c, Some(rest)) => {
                    accumulate(&mut collected, &mut position, rest, c);
                }
            }
        }
        self.apply_pythagoras(&mut collected, &mut position, &mut constant);

        let mut out: Vec<ExprId> = Vec::with_capacity(collected.len() + 1);
        for (rest, c) in collected {
            if !c.is_zero() {
                out.push(self.scaled_term(c, rest));
            }
        }
        if out.is_empty() {
            return self.number(constant);
        }
        if constant.is_zero() && out.len() == 1 {
            return out[0];
        }
        out.sort_by_key(|&id| self.order_key(id));
        if !constant.is_zero() {
            let cn = self.number(constant);
            out.insert(0, cn);
        }
        self.intern(Node::Add(out.into()))
    }

    /// `c*X*sin(u)^2 + c*X*cos(u)^2 → c*X`, repeated while it applies.
    fn apply_pythagoras(
        &mut self,
        collected: &mut Vec<(ExprId, Number)>,
        position: &mut HashMap<ExprId, usize>,
        constant: &mut Number,
    ) {
        // Partners found once per term: a restart looks them up again.
        let mut partners: HashMap<ExprId, Vec<(Option<ExprId>, ExprId)>> = HashMap::new();
        let mut i = 0;
        while i < collected.len() {
            let (rest, c) = collected[i];
            if c.is_zero() {
                i += 1;
                continue;
            }
            if !partners.contains_key(&rest) {
                let p = self.pythagorean_partners(rest);
                partners.insert(rest, p);
            }
            // Any of the term's sin² factors may be the one whose partner is here:
            // `X sin²θ sin²φ` pairs with `X sin²θ cos²φ` through its second.
            let found = partners[&rest].iter().find_map(|&(cofactor, partner)| match position.get(&partner) {
                Some(&j) if collected[j].1 == c => Some((cofactor, j)),
                _ => None,
            });
            if let Some((cofactor, j)) = found {
                collected[i].1 = Number::ZERO;
                collected[j].1 = Number::ZERO;
                let touched = match cofactor {
                    None => {
                        *constant = constant.add(c);
                        None
                    }
                    Some(x) => {
                        let (c2, rest2) = self.split_coefficient(x);
                        match rest2 {
                            None => {
                                *constant = constant.add(c.mul(c2));
                                None
                            }
                            Some(r) => Some(accumulate(collected, position, r, c.mul(c2))),
                        }
                    }
                };
                // A term before this one whose coefficient changed may pair
                // now: look again from the start; new terms come later.
                i = if touched.is_some_and(|k| k < i) { 0 } else { i + 1 };
                continue;
            }
            i += 1;
        }
    }

    /// For a term `X*sin(u)^2`: the cofactor `X` (None for 1) and `X*cos(u)^2`, for
    /// each of its `sin²` factors.
    fn pythagorean_partners(&mut self, rest: ExprId) -> Vec<(Option<ExprId>, ExprId)> {
        let factors: Vec<ExprId> = match self.node(rest) {
            Node::Mul(fs) => fs.to_vec(),
            _ => alloc::vec![rest],
        };
        let mut out = Vec::new();
        for k in 0..factors.len() {
            let Some(u) = self.is_sin_squared(factors[k]) else { continue };
            let others: Vec<ExprId> = factors.iter().enumerate().filter(|&(i, _)| i != k).map(|(_, &f)| f).collect();
            let cos_u = self.call(Function::Cos, u);
            let cos2 = self.powi(cos_u, 2);
            let cofactor = if others.is_empty() { None } else { Some(self.mul(&others)) };
            // A sum as cofactor would have to be distributed: leave such terms alone.
            if cofactor.is_some_and(|x| matches!(self.node(x), Node::Add(_))) {
                continue;
            }
            let partner = match cofactor {
                None => cos2,
                Some(x) => self.mul2(x, cos2),
            };
            out.push((cofactor, partner));
        }
        out
    }

    fn is_sin_squared(&self, f: ExprId) -> Option<ExprId> {
        match self.node(f) {
            Node::Pow(b, e) if self.as_number(*e) == Some(Number::from(2)) => match self.node(*b) {
                Node::Call(Function::Sin, u) => Some(*u),
                _ => None,
            },
            _ => None,
        }
    }

    /// The product of `factors`, in canonical form.
    pub fn mul(&mut self, factors: &[ExprId]) -> ExprId {
        let mut coeff = Number::ONE;
        let mut bases: Vec<(ExprId, Vec<ExprId>)> = Vec::with_capacity(factors.len());
        let mut position: HashMap<ExprId, usize> = HashMap::new();
        let mut work: Vec<ExprId> = factors.to_vec();
        while let Some(f) = work.pop() {
            self.work += 1;
            let (base, exp) = match self.node(f) {
                Node::Number(n) => {
                    coeff = coeff.mul(*n);
                    continue;
                }
                Node::Mul(children) => {
                    work.extend_from_slice(children);
                    continue;
                }
                Node::Pow(b, e) => (*b, *e),
                _ => (f, self.one()),
            };
            match position.get(&base) {
                Some(&i) => bases[i].1.push(exp),
                None => {
                    position.insert(base, bases.len());
                    bases.push((base, alloc::vec![exp]));
                }
            }
        }
        if coeff.is_zero() {
            return self.zero();
        }
        let mut out: Vec<ExprId> = Vec::with_capacity(bases.len() + 1);
        let mut needs_reflattening = false;
        for (base, exps) in bases {
            let e = if exps.len() == 1 { exps[0] } else { self.add(&exps) };
            let p = self.pow(base, e);
            match self.node(p) {
                Node::Number(n) => coeff = coeff.mul(*n),
                Node::Mul(_) => {
                    needs_reflattening = true;
                    out.push(p)
                }
                _ => out.push(p),
            }
        }
        if needs_reflattening {
            let c = self.number(coeff);
            out.push(c);
            return self.mul(&out);
        }
        if coeff.is_zero() {
            return self.zero();
        }
        match out.len() {
            0 => return self.number(coeff),
            1 if coeff.is_one() => return out[0],
            1 => {
                if let Node::Add(terms) = self.node(out[0]) {
                    let terms = terms.to_vec();
                    let c = self.number(coeff);
                    let scaled: Vec<ExprId> = terms.iter().map(|&t| self.mul2(c, t)).collect();
                    return self.add(&scaled);
                }
            }
            _ => {}
        }
        out.sort_by_key(|&id| self.order_key(id));
        if !coeff.is_one() {
            let c = self.number(coeff);
            out.insert(0, c);
        }
        self.intern(Node::Mul(out.into()))
    }

    /// `base ^ exponent`, in canonical form.
    pub fn pow(&mut self, base: ExprId, exponent: ExprId) -> ExprId {
        let Some(e) = self.as_number(exponent) else {
            if self.as_number(base) == Some(Number::ONE) {
                return base;
            }
            return self.intern(Node::Pow(base, exponent));
        };
        if e.is_zero() {
            return self.one();
        }
        if e.is_one() {
            return base;
        }
        let integer_exponent = e.as_integer().is_some();
        match self.node(base).clone() {
            Node::Number(b) => {
                if let Some(r) = b.checked_pow(e) {
                    return self.number(r);
                }
                if b.is_one() {
                    return base;
                }
            }
            Node::Pow(inner, f) if integer_exponent => {
                let fe = self.mul2(f, exponent);
                return self.pow(inner, fe);
            }
            Node::Mul(children) if integer_exponent => {
                let powered: Vec<ExprId> = children.iter().map(|&c| self.pow(c, exponent)).collect();
                return self.mul(&powered);
            }
            Node::Call(Function::Abs, u) if e.as_integer().is_some_and(|n| n % 2 == 0) => {
                return self.pow(u, exponent);
            }
            _ => {}
        }
        self.intern(Node::Pow(base, exponent))
    }

    /// Whether the expression is a negative number or has a negative coefficient.
    pub(crate) fn has_negative_sign(&self, x: ExprId) -> bool {
        match self.node(x) {
            Node::Number(n) => n.is_negative(),
            Node::Mul(children) => matches!(self.node(children[0]), Node::Number(n) if n.is_negative()),
            _ => false,
        }
    }

    /// `f(x)`, in canonical form.
    pub fn call(&mut self, f: Function, x: ExprId) -> ExprId {
        if let Some(n) = self.as_number(x) {
            if let Some(v) = exact_value(f, n) {
                return self.number(v);
            }
        }
        if self.has_negative_sign(x) && (f.is_odd() || f.is_even()) {
            let nx = self.neg(x);
            let fx = self.call(f, nx);
            return if f.is_odd() { self.neg(fx) } else { fx };
        }
        match (f, self.node(x)) {
            (Function::Ln, Node::Call(Function::Exp, u)) => return *u,
            (Function::Abs, Node::Call(Function::Abs, _)) => return x,
            _ => {}
        }
        self.intern(Node::Call(f, x))
    }

    /// `atan2(y, x)`.
    pub fn atan2(&mut self, y: ExprId, x: ExprId) -> ExprId {
        if let (Some(yn), Some(xn)) = (self.as_number(y), self.as_number(x)) {
            if yn.is_zero() && xn.to_f64() > 0.0 {
                return self.zero();
            }
        }
        self.intern(Node::Atan2(y, x))
    }
}

/// Adds `c·rest` to the collected terms; the index it went to.
fn accumulate(
    collected: &mut Vec<(ExprId, Number)>,
    position: &mut HashMap<ExprId, usize>,
    rest: ExprId,
    c: Number,
) -> usize {
    match position.get(&rest) {
        Some(&i) => {
            collected[i].1 = collected[i].1.add(c);
            i
        }
        None => {
            position.insert(rest, collected.len());
            collected.push((rest, c));
            collected.len() - 1
        }
    }
}

/// The value of `f(n)` when it is exact (`sin 0 = 0`, `ln 1 = 0`), or finite for a
/// float argument; `None` leaves the call symbolic (`sin(1/2)`).
fn exact_value(f: Function, n: Number) -> Option<Number> {
    if let Number::Float(x) = n {
        return Number::from_f64(f.apply(x));
    }
    match f {
        Function::Abs => return Some(n.abs()),
        Function::Sign => {
            return Some(Number::from(if n.is_zero() {
                0
            } else if n.is_negative() {
                -1
            } else {
                1
            }))
        }
        _ => {}
    }
    if n.is_zero() {
        return match f {
            Function::Cos | Function::Cosh | Function::Exp => Some(Number::ONE),
            Function::Sin | Function::Tan | Function::Asin | Function::Atan | Function::Sinh | Function::Tanh => {
                Some(Number::ZERO)
            }
            _ => None,
        };
    }
    if n.is_one() && f == Function::Ln {
        return Some(Number::ZERO);
    }
    None
}
