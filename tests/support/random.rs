//! Seeded randomness and random expressions.
//!
//! [`Tree`] is a plain expression tree with its own `f64` evaluation, written without
//! the engine, so that comparing the engine's canonical, differentiated or compiled
//! result against it is an independent check.

/// SplitMix64: small, fast, deterministic.
pub struct Rng(u64);

impl Rng {
    /// A generator from a seed.
    pub fn new(seed: u64) -> Self {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// Uniform in `[lo, hi)`.
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A random expression tree over the names `x y phi x' y' phi' m a k t`.
#[derive(Clone, Debug)]
pub enum Tree {
    /// The fraction `p/q`.
    Num(i64, i64),
    /// The `k`-th name.
    Var(usize),
    /// `a + b`.
    Add(Box<Tree>, Box<Tree>),
    /// `a - b`.
    Sub(Box<Tree>, Box<Tree>),
    /// `a * b`.
    Mul(Box<Tree>, Box<Tree>),
    /// `a / b`.
    Div(Box<Tree>, Box<Tree>),
    /// `a ^ n`.
    Pow(Box<Tree>, i64),
    /// `-a`.
    Neg(Box<Tree>),
    /// A function of one argument, by name.
    Call(&'static str, Box<Tree>),
    /// `atan2(a, b)`.
    Atan2(Box<Tree>, Box<Tree>),
}

/// The names a [`Tree`] may use, in [`Tree::Var`] order.
pub const NAMES: [&str; 10] = ["x", "y", "phi", "x'", "y'", "phi'", "m", "a", "k", "t"];

/// Functions applied directly; `Domain` wraps `ln`, `sqrt`, `asin`, `acos` so that
/// their arguments stay in their domain: `ln(1 + u^2)`, `asin(tanh(u)/2)`.
pub const FUNCTIONS: [&str; 14] =
    ["sin", "cos", "tan", "atan", "sinh", "cosh", "tanh", "exp", "abs", "ln", "sqrt", "asin", "acos", "sign"];

impl Tree {
    /// A random tree of at most `depth` levels.
    pub fn random(r: &mut Rng, depth: usize) -> Tree {
        if depth == 0 || r.below(4) == 0 {
            return if r.below(3) == 0 {
                let d = [1, 1, 2, 3, 4, 10][r.below(6)];
                Tree::Num(r.below(9) as i64 - 4, d)
            } else {
                Tree::Var(r.below(NAMES.len()))
            };
        }
        let sub = |r: &mut Rng| Box::new(Tree::random(r, depth - 1));
        match r.below(10) {
            0 | 1 => Tree::Add(sub(r), sub(r)),
            2 => Tree::Sub(sub(r), sub(r)),
            3 | 4 => Tree::Mul(sub(r), sub(r)),
            5 => Tree::safe_div(*sub(r), *sub(r)),
            6 => Tree::Pow(sub(r), [2, 3, -1, -2, 0, 1][r.below(6)]),
            7 => Tree::Neg(sub(r)),
            8 => Tree::Atan2(sub(r), sub(r)),
            _ => Tree::call_in_domain(FUNCTIONS[r.below(FUNCTIONS.len())], *sub(r)),
        }
    }

    /// `f(arg)` with the argument kept in the domain and away from overflow:
    /// `ln(1 + u^2)`, `asin(tanh(u)/2)`, `exp(atan(u))`.
    pub fn call_in_domain(f: &'static str, arg: Tree) -> Tree {
        let arg = Box::new(arg);
        let arg = match f {
            "ln" | "sqrt" => Box::new(Tree::Add(Box::new(Tree::Num(1, 1)), Box::new(Tree::Pow(arg, 2)))),
            "asin" | "acos" => Box::new(Tree::Div(Box::new(Tree::Call("tanh", arg)), Box::new(Tree::Num(2, 1)))),
            "exp" | "sinh" | "cosh" | "tan" => Box::new(Tree::Call("atan", arg)),
            _ => arg,
        };
        Tree::Call(f, arg)
    }

    /// `a / (2 + b^2)`: a division that never divides by zero.
    pub fn safe_div(a: Tree, b: Tree) -> Tree {
        Tree::Div(Box::new(a), Box::new(Tree::Add(Box::new(Tree::Num(2, 1)), Box::new(Tree::Pow(Box::new(b), 2)))))
    }

    /// The tree in the input grammar, fully parenthesised.
    pub fn text(&self) -> String {
        match self {
            Tree::Num(p, 1) => format!("({p})"),
            Tree::Num(p, q) => format!("({p}/{q})"),
            Tree::Var(i) => NAMES[*i].to_string(),
            Tree::Add(a, b) => format!("({} + {})", a.text(), b.text()),
            Tree::Sub(a, b) => format!("({} - {})", a.text(), b.text()),
            Tree::Mul(a, b) => format!("({} * {})", a.text(), b.text()),
            Tree::Div(a, b) => format!("({} / {})", a.text(), b.text()),
            Tree::Pow(a, n) => format!("({}^({n}))", a.text()),
            Tree::Neg(a) => format!("(-{})", a.text()),
            Tree::Call(f, a) => format!("{f}({})", a.text()),
            Tree::Atan2(a, b) => format!("atan2({}, {})", a.text(), b.text()),
        }
    }

    /// The value at `vars` (in [`NAMES`] order), with Rust's own float functions, and
    /// a magnitude: the value with every operation applied to absolute values, which
    /// bounds the rounding error of any reordering (for tolerances). The magnitude is
    /// infinite where rounding could flip a discontinuous result (`sign` of a value
    /// that is zero to rounding, `atan2` on its branch cut): skip such points.
    pub fn eval(&self, vars: &[f64]) -> (f64, f64) {
        let (v, m) = self.eval_unchecked(vars);
        // A point that passes through infinity (1/(2 + (0^-2)^2) = 0) is unstable.
        (v, if v.is_finite() { m } else { f64::INFINITY })
    }

    fn eval_unchecked(&self, vars: &[f64]) -> (f64, f64) {
        match self {
            Tree::Num(p, q) => {
                let v = *p as f64 / *q as f64;
                (v, v.abs())
            }
            Tree::Var(i) => (vars[*i], vars[*i].abs()),
            Tree::Add(a, b) | Tree::Sub(a, b) => {
                let ((x, mx), (y, my)) = (a.eval(vars), b.eval(vars));
                (if matches!(self, Tree::Add(..)) { x + y } else { x - y }, mx + my)
            }
            Tree::Mul(a, b) => {
                let ((x, mx), (y, my)) = (a.eval(vars), b.eval(vars));
                (x * y, mx * my)
            }
            Tree::Div(a, b) => {
                let ((x, mx), (y, my)) = (a.eval(vars), b.eval(vars));
                (x / y, if my.is_finite() { mx / y.abs() } else { my })
            }
            Tree::Pow(a, n) => {
                let (x, mx) = a.eval(vars);
                // An unstable (infinite) magnitude must stay so through 1/x.
                let m = if mx.is_finite() { mx.powi(*n as i32).max(x.powi(*n as i32).abs()) } else { mx };
                (x.powi(*n as i32), m)
            }
            Tree::Neg(a) => {
                let (x, mx) = a.eval(vars);
                (-x, mx)
            }
            Tree::Atan2(a, b) => {
                let ((y, my), (x, mx)) = (a.eval(vars), b.eval(vars));
                let unstable = (x < 0.0 && y.abs() <= 1e-9 * my.max(1.0)) || x.hypot(y) <= 1e-9 * (mx + my);
                (y.atan2(x), if unstable { f64::INFINITY } else { 4.0 * (1.0 + (mx + my) / x.hypot(y)) })
            }
            Tree::Call(f, a) => {
                let (x, mx) = a.eval(vars);
                let v = match *f {
                    "sin" => x.sin(),
                    "cos" => x.cos(),
                    "tan" => x.tan(),
                    "atan" => x.atan(),
                    "sinh" => x.sinh(),
                    "cosh" => x.cosh(),
                    "tanh" => x.tanh(),
                    "exp" => x.exp(),
                    "abs" if x.abs() <= 1e-9 * mx.max(1.0) => return (x.abs(), f64::INFINITY),
                    "abs" => x.abs(),
                    "ln" => x.ln(),
                    "sqrt" => x.sqrt(),
                    "asin" => x.asin(),
                    "acos" => x.acos(),
                    "sign" if x.abs() <= 1e-9 * mx.max(1.0) => {
                        return (x.signum() * f64::from(u8::from(x != 0.0)), f64::INFINITY)
                    }
                    "sign" => {
                        if x > 0.0 {
                            1.0
                        } else if x < 0.0 {
                            -1.0
                        } else {
                            0.0
                        }
                    }
                    other => panic!("unknown function {other}"),
                };
                // A function's output error is its input error times its slope:
                // bound the slope crudely by the value scale.
                (v, v.abs().max(1.0) * (1.0 + mx))
            }
        }
    }
}

/// A proptest strategy for trees of up to `depth` levels (shrinks towards leaves).
pub fn tree_strategy(depth: u32) -> impl proptest::strategy::Strategy<Value = Tree> {
    use proptest::prelude::*;
    let leaf = prop_oneof![
        (-4i64..5, prop::sample::select(vec![1i64, 2, 3, 4, 10])).prop_map(|(p, q)| Tree::Num(p, q)),
        (0..NAMES.len()).prop_map(Tree::Var),
    ];
    leaf.prop_recursive(depth, 64, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Tree::Add(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Tree::Sub(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Tree::Mul(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Tree::safe_div(a, b)),
            (inner.clone(), prop::sample::select(vec![-2i64, -1, 0, 1, 2, 3]))
                .prop_map(|(a, n)| Tree::Pow(Box::new(a), n)),
            inner.clone().prop_map(|a| Tree::Neg(Box::new(a))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| Tree::Atan2(Box::new(a), Box::new(b))),
            (prop::sample::select(FUNCTIONS.to_vec()), inner).prop_map(|(f, a)| Tree::call_in_domain(f, a)),
        ]
    })
}
