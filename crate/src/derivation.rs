//! The equations of motion of a method as a list of labelled equations, ready to be
//! printed as text, LaTeX or MathML: what `nhlab derive` prints and what the web lab
//! typesets, assembled in one place.
//!
//! - `lagrange`, `gauss`, `udwadia-kalaba`: `Σ_j M_ij q̈_j = F_i + Σ_k A_ki λ_k` per
//!   coordinate (Gauss's minimum and the Udwadia–Kalaba force are this force, with
//!   the multipliers of the minimisation / the pseudo-inverse);
//! - `euler`: `Σ_j M_ij q̈_j = F_i + Σ_k R_ki λ_k` with Shen's reaction `R`, printed
//!   in closed form where it has one, else as `R[c, x] = ∫₀¹ … ds`;
//! - `hamel`: `v₁*`, `T*`, `Ψ`, the equations `Ψ q̈₂ = G`, and `G`, `H`, `E`;
//! - `voronets`: `v₁*` and `Ψ q̈₂ = H`;
//! - `vakonomic`: `M_v q̈ + C μ̇ = F_v`;
//!
//! and for every method the constraints at acceleration level, `A q̈ = b`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

mod shared;

pub use shared::{MAX_PRINTED_NODES, PRINT_BUDGET};

use crate::expr::{ExprGraph, ExprId, SymbolId};
use crate::formulations::{why_not, Method};
use crate::mechanics::{reaction_row, Model, ReactionRow};

/// One labelled equation `lhs = rhs`, or a definition `label = rhs` when `lhs` is
/// `None`.
#[derive(Clone, Debug)]
pub struct Equation {
    /// What it is: `equation of x`, `T*`, `E[phi]`, `constraint blade`.
    pub label: String,
    /// Left-hand side, if an equation.
    pub lhs: Option<ExprId>,
    /// Right-hand side (or the value of a named quantity).
    pub rhs: ExprId,
    /// When set, the value is the integral `∫₀¹ rhs ds` over this symbol (the Euler
    /// reaction where it has no closed form).
    pub integral_over: Option<SymbolId>,
}

impl Equation {
    fn new(label: String, lhs: Option<ExprId>, rhs: ExprId) -> Equation {
        Equation { label, lhs, rhs, integral_over: None }
    }
}

/// A method's equations with the graph that holds them (it has the multiplier
/// symbols `lambda1…` the model's graph does not).
#[derive(Clone, Debug)]
pub struct Derivation {
    /// The graph holding every expression below.
    pub graph: ExprGraph,
    /// The method.
    pub method: Method,
    /// The form of the equations, in words and symbols.
    pub form: &'static str,
    /// Its message id (`form.lagrange`, `form.euler.nonlinear`, …; see [`crate::message`]).
    pub form_id: &'static str,
    /// The equations, in order.
    pub equations: Vec<Equation>,
    /// The same equations' matrices (`M`, `F`, `A`, `b`; `Ψ`, `G`, `H`, `E`; …).
    pub matrices: Vec<Matrix>,
}

/// A named matrix of the matrix form, row-major (a column vector when `cols` is 1).
#[derive(Clone, Debug)]
pub struct Matrix {
    /// Its name as Unicode text (`Ψ`).
    pub name: &'static str,
    /// Its name in LaTeX (`\Psi`).
    pub latex_name: &'static str,
    /// Rows.
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// Entries, row-major.
    pub entries: Vec<ExprId>,
}

fn matrix(name: &'static str, latex_name: &'static str, rows: usize, cols: usize, entries: Vec<ExprId>) -> Matrix {
    Matrix { name, latex_name, rows, cols, entries }
}

/// Why a method has no equations for this model.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{method}: {reason}")]
pub struct DerivationError {
    /// The method's id.
    pub method: &'static str,
    /// Why.
    pub reason: crate::message::Message,
}

impl DerivationError {
    /// Why, as a message with an id; its English is what `Display` writes.
    pub fn message(&self) -> crate::message::Message {
        crate::message::run::no_equations(self.method, crate::message::Part(self.reason.clone()))
    }
}

fn acceleration(g: &ExprGraph, i: usize) -> ExprId {
    g.symbol_expr(g.coordinate(i)[2])
}

/// `Σ_j row_j q̈_{columns_j}`.
fn times_accelerations(g: &mut ExprGraph, row: &[ExprId], columns: &[usize]) -> ExprId {
    let terms: Vec<ExprId> = row
        .iter()
        .zip(columns)
        .map(|(&m, &j)| {
            let a = acceleration(g, j);
            g.mul2(m, a)
        })
        .collect();
    g.add(&terms)
}

/// Largest entry of `M` or `F` (in nodes) printed expanded.
const PRINT_EXPAND_BUDGET: usize = 3_000;

/// How the printed expressions are shaped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// As derived: expanded sums (what the tests of the size figures compare with).
    Derived,
    /// For reading (the default): common factors out, `tan` ([`ExprGraph::tidy`]).
    ForReading,
}

/// The equations of `method` for `model`, in the form for reading.
pub fn derive(model: &Model, method: Method) -> Result<Derivation, DerivationError> {
    derive_in(model, method, Form::ForReading)
}

/// The equations of `method` for `model`, in the given form.
pub fn derive_in(model: &Model, method: Method, form_of_expressions: Form) -> Result<Derivation, DerivationError> {
    let mut g = model.graph_for(method).clone();
    // The model keeps M and F as derived (compact, for the compiler); the reader gets
    // them expanded, where terms that cancel have cancelled, unless they are so large
    // that expanding would multiply them past printing (the Whipple bicycle's).
    let mass: Vec<ExprId> =
        model.equations.mass_matrix.iter().map(|&e| g.expand_within(e, PRINT_EXPAND_BUDGET)).collect();
    let forcing: Vec<ExprId> =
        model.equations.forcing.iter().map(|&e| g.expand_within(e, PRINT_EXPAND_BUDGET)).collect();
    let names = model.coordinate_names();
    let n = model.coordinate_count();
    let all: Vec<usize> = (0..n).collect();
    let mut equations = Vec::new();
    let mut matrices = Vec::new();
    let fail = |reason: crate::message::Message| DerivationError { method: method.id(), reason };
    why_not(model, method).map_err(fail)?;
    // What the lab built from bodies and loads, shown before what it derived from it.
    let s = &model.scenario;
    if !s.bodies.is_empty() || !s.loads.is_empty() {
        let kinetic = g.expand_for_reading(model.kinetic, PRINT_EXPAND_BUDGET);
        equations.push(Equation::new("T".into(), None, kinetic));
        let potential = g.expand_within(model.potential, PRINT_EXPAND_BUDGET);
        equations.push(Equation::new("V".into(), None, potential));
        for (name, &q) in names.iter().zip(&model.forces) {
            if !g.is_zero(q) {
                let q = g.expand_within(q, PRINT_EXPAND_BUDGET);
                equations.push(Equation::new(format!("Q[{name}]"), None, q));
            }
        }
    }
    let (form_id, form) = match method {
        Method::Lagrange => ("form.lagrange", "Routh's equations with multipliers: M q̈ = F + Aᵀλ, A q̈ = b"),
        Method::Euler if model.constraints_are_linear() => (
            "form.euler",
            "Euler condition: M q̈ = F + Rᵀλ, A q̈ = b; for constraints linear in the velocities R = A",
        ),
        Method::Euler => (
            "form.euler.nonlinear",
            "Euler condition: M q̈ = F + Rᵀλ, A q̈ = b, with R = ∫₀¹ ∂f/∂v(q, s·v, t) ds = Σ_l (1/l) ∂g_l/∂v",
        ),
        Method::UdwadiaKalaba => (
            "form.udwadia-kalaba",
            "Udwadia–Kalaba: q̈ = a + M^(-1/2) (A M^(-1/2))⁺ (b − A a), a = M⁻¹F; that is M q̈ = F + Aᵀλ, A q̈ = b with λ = (A M⁻¹ Aᵀ)⁺ (b − A a)",
        ),
        Method::Gauss => (
            "form.gauss",
            "Gauss: q̈ minimises ½(q̈ − a)ᵀ M (q̈ − a) subject to A q̈ = b, a = M⁻¹F; at the minimum M q̈ = F + Aᵀλ with λ its multipliers",
        ),
        Method::Hamel => {
            ("form.hamel", "Hamel's embedding: Ψ q̈₂ = G; E = G − H vanishes exactly where it gives the true motion")
        }
        Method::Voronets => {
            ("form.voronets", "Voronets: the true motion in the independent velocities, Ψ q̈₂ = H = Nᵀ(F − Mγ)")
        }
        Method::Vakonomic => ("form.vakonomic", "vakonomic: d/dt[∂L/∂v + Aᵀμ] − ∂L/∂q − (∂f/∂q)ᵀμ = Q, f = 0"),
    };
    // Without constraints nothing is dependent: Voronets' equations are Lagrange's
    // (Ψ = M, H = F), as its numeric solve takes them.
    let shape = if method == Method::Voronets && model.constraints.is_empty() { Method::Lagrange } else { method };
    match shape {
        Method::Lagrange | Method::Euler | Method::UdwadiaKalaba | Method::Gauss => {
            let lambdas: Vec<ExprId> = (1..=model.constraints.len())
                .map(|k| {
                    let s = g.declare_fresh_auxiliary(&format!("lambda{k}"));
                    g.symbol_expr(s)
                })
                .collect();
            // The reaction's rows: A, or Shen's R for the Euler condition.
            let mut reaction: Vec<Vec<ExprId>> = model.constraints.iter().map(|c| c.jacobian.clone()).collect();
            if method == Method::Euler && !model.constraints_are_linear() {
                for (j, c) in model.constraints.iter().enumerate() {
                    match reaction_row(&mut g, c) {
                        ReactionRow::Closed(row) => reaction[j] = row,
                        ReactionRow::Integral { s, entries } => {
                            // An entry without a closed form is named R<j>_<coordinate>
                            // and defined by its integral.
                            for (i, entry) in entries.into_iter().enumerate() {
                                let integrand = match entry {
                                    Ok(closed) => {
                                        reaction[j][i] = closed;
                                        continue;
                                    }
                                    Err(integrand) => integrand,
                                };
                                let symbol = g.declare_fresh_auxiliary(&format!("R{}_{}", j + 1, names[i]));
                                reaction[j][i] = g.symbol_expr(symbol);
                                equations.push(Equation {
                                    label: format!("R[{}, {}]", c.name, names[i]),
                                    lhs: Some(reaction[j][i]),
                                    rhs: integrand,
                                    integral_over: Some(s),
                                });
                            }
                        }
                    }
                }
            }
            matrices.push(matrix("M", "M", n, n, mass.clone()));
            matrices.push(matrix("F", "F", n, 1, forcing.clone()));
            if method == Method::Euler && !model.constraints_are_linear() {
                let entries = reaction.iter().flatten().copied().collect();
                matrices.push(matrix("R", "R", model.constraints.len(), n, entries));
            }
            for (i, name) in names.iter().enumerate() {
                let lhs = times_accelerations(&mut g, &mass[i * n..(i + 1) * n], &all);
                let mut rhs = alloc::vec![forcing[i]];
                for (row, &l) in reaction.iter().zip(&lambdas) {
                    rhs.push(g.mul2(row[i], l));
                }
                let rhs = g.add(&rhs);
                equations.push(Equation::new(format!("equation of {name}"), Some(lhs), rhs));
            }
        }
        Method::Hamel | Method::Voronets => {
            let h = model.hamel.as_ref().map_err(|e| fail(e.message()))?;
            let k = h.independent.len();
            for (j, &d) in h.dependent.iter().enumerate() {
                let v = g.symbol_expr(g.coordinate(d)[1]);
                equations.push(Equation::new(format!("{}' (dependent)", names[d]), Some(v), h.dependent_velocities[j]));
            }
            if method == Method::Hamel {
                equations.push(Equation::new("T*".into(), None, h.embedded_kinetic));
                for s in 0..k {
                    for c in 0..k {
                        let label = format!("Ψ[{}, {}]", names[h.independent[s]], names[h.independent[c]]);
                        equations.push(Equation::new(label, None, h.psi[s * k + c]));
                    }
                }
            }
            matrices.push(matrix("Ψ", "\\Psi", k, k, h.psi.clone()));
            if method == Method::Hamel {
                matrices.push(matrix("G", "G", k, 1, h.g.clone()));
            }
            matrices.push(matrix("H", "H", k, 1, h.h.clone()));
            if method == Method::Hamel {
                matrices.push(matrix("E", "E", k, 1, h.e.clone()));
            }
            let rhs = if method == Method::Hamel { &h.g } else { &h.h };
            for (s, &i) in h.independent.iter().enumerate() {
                let lhs = times_accelerations(&mut g, &h.psi[s * k..(s + 1) * k], &h.independent);
                equations.push(Equation::new(format!("equation of {}", names[i]), Some(lhs), rhs[s]));
            }
            if method == Method::Hamel {
                for (s, &i) in h.independent.iter().enumerate() {
                    for (what, values) in [("G", &h.g), ("H", &h.h), ("E", &h.e)] {
                        equations.push(Equation::new(format!("{what}[{}]", names[i]), None, values[s]));
                    }
                }
            }
        }
        Method::Vakonomic => {
            let vk = model.vakonomic.as_ref().map_err(|e| fail(e.message()))?;
            let m = model.constraints.len();
            matrices.push(matrix("M_v", "M_v", n, n, vk.mass_matrix.clone()));
            if m > 0 {
                matrices.push(matrix("C", "C", n, m, vk.rate_matrix.clone()));
            }
            matrices.push(matrix("F_v", "F_v", n, 1, vk.forcing.clone()));
            for (i, name) in names.iter().enumerate() {
                let mut terms = alloc::vec![times_accelerations(&mut g, &vk.mass_matrix[i * n..(i + 1) * n], &all)];
                for j in 0..m {
                    let rate = g.symbol_expr(vk.multiplier_rates[j]);
                    terms.push(g.mul2(vk.rate_matrix[i * m + j], rate));
                }
                let lhs = g.add(&terms);
                equations.push(Equation::new(format!("equation of {name}"), Some(lhs), vk.forcing[i]));
            }
        }
    }
    for c in &model.constraints {
        let lhs = times_accelerations(&mut g, &c.jacobian, &all);
        equations.push(Equation::new(format!("constraint {}", c.name), Some(lhs), c.bias));
    }
    let m = model.constraints.len();
    if m > 0 {
        let a = model.constraints.iter().flat_map(|c| c.jacobian.iter().copied()).collect();
        matrices.push(matrix("A", "A", m, n, a));
        matrices.push(matrix("b", "b", m, 1, model.constraints.iter().map(|c| c.bias).collect()));
    }
    if form_of_expressions == Form::Derived {
        shared::name_shared_subexpressions(&mut g, &mut equations, &mut matrices).map_err(fail)?;
        return Ok(Derivation { graph: g, method, form, form_id, equations, matrices });
    }
    let as_derived = (g.clone(), equations.clone(), matrices.clone());
    tidy_for_reading(&mut g, &mut equations, &mut matrices);
    shared::name_shared_subexpressions(&mut g, &mut equations, &mut matrices).map_err(fail)?;
    let reading = Derivation { graph: g, method, form, form_id, equations, matrices };
    // Where shared parts are named, factoring can share less (a term divided by
    // different factors in different sums is no longer one node): the form that
    // prints shorter is kept.
    if !reading.equations.iter().any(|e| e.label.starts_with("shared ")) {
        return Ok(reading);
    }
    let (mut g, mut equations, mut matrices) = as_derived;
    shared::name_shared_subexpressions(&mut g, &mut equations, &mut matrices).map_err(fail)?;
    let derived = Derivation { graph: g, method, form, form_id, equations, matrices };
    Ok(if derived.printed_length() < reading.printed_length() { derived } else { reading })
}

/// Every printed expression in its form for reading ([`ExprGraph::tidy`]: common
/// factors out of sums, `tan`), which keeps its value. In an equation the terms with
/// unknowns (accelerations, multipliers) stay one by one, so that `M q̈ = F + Aᵀλ`
/// still reads as rows of `M` times `q̈` and `F` plus `A`'s column times `λ`; the
/// known part is tidied as one sum.
fn tidy_for_reading(g: &mut ExprGraph, equations: &mut [Equation], matrices: &mut [Matrix]) {
    let mut memo = crate::expr::TidyMemo::default();
    for e in equations.iter_mut() {
        e.lhs = e.lhs.map(|x| tidy_side(g, x, &mut memo));
        e.rhs = tidy_side(g, e.rhs, &mut memo);
    }
    for m in matrices.iter_mut() {
        for x in &mut m.entries {
            *x = g.tidy_memo(*x, &mut memo);
        }
    }
}

fn tidy_side(g: &mut ExprGraph, side: ExprId, memo: &mut crate::expr::TidyMemo) -> ExprId {
    use crate::expr::{Node, SymbolKind};
    let Node::Add(terms) = g.node(side) else { return g.tidy_memo(side, memo) };
    let terms = terms.to_vec();
    let has_unknown = |g: &ExprGraph, t: ExprId| {
        g.free_symbols(t)
            .iter()
            .any(|&s| matches!(g.symbol(s).kind, SymbolKind::Acceleration(_) | SymbolKind::Auxiliary(_)))
    };
    let (with, known): (Vec<ExprId>, Vec<ExprId>) = terms.iter().partition(|&&t| has_unknown(g, t));
    let known = g.add(&known);
    let mut out = alloc::vec![g.tidy_memo(known, memo)];
    out.extend(with.iter().map(|&t| g.tidy_memo(t, memo)));
    g.add(&out)
}

impl Derivation {
    /// The length of all equations printed as text.
    fn printed_length(&self) -> usize {
        self.equations.iter().map(|e| self.text(e).len()).sum()
    }

    /// One equation as plain text: `lhs = rhs`, or `label = rhs` for a named quantity.
    pub fn text(&self, e: &Equation) -> String {
        let integral = |rhs: String, d: String| format!("∫₀¹ ({rhs}) d{d}");
        self.equation(e, |x| self.graph.to_text(x), integral, |label| String::from(label))
    }

    /// One equation as LaTeX.
    pub fn latex(&self, e: &Equation) -> String {
        let integral = |rhs: String, d: String| format!("\\int_0^1 {rhs} \\,\\mathrm{{d}}{d}");
        self.equation(e, |x| self.graph.to_latex(x), integral, |label| self.label_latex(label))
    }

    /// `lhs = rhs` in one printer's spelling: `print` writes an expression,
    /// `integral(rhs, d)` the right side integrated over `[0, 1]` in `d` (a variable
    /// mass's sum over its parts), `label` a named quantity's name where there is no
    /// left side to print.
    fn equation(
        &self,
        e: &Equation,
        print: impl Fn(ExprId) -> String,
        integral: impl Fn(String, String) -> String,
        label: impl Fn(&str) -> String,
    ) -> String {
        let mut rhs = print(e.rhs);
        if let Some(s) = e.integral_over {
            rhs = integral(rhs, print(self.graph.symbol_expr(s)));
        }
        let lhs = match e.lhs {
            Some(lhs) => print(lhs),
            None => label(&e.label),
        };
        format!("{lhs} = {rhs}")
    }

    /// A quantity's label as LaTeX that compiles: `T^{*}`, `\Psi_{x \varphi}`,
    /// `R_{\text{blade}, x}`, `G_{\varphi}`; coordinates typeset as in the equations,
    /// other names (constraints') as text.
    fn label_latex(&self, label: &str) -> String {
        use crate::expr::{name_to_latex, text_to_latex};
        let g = &self.graph;
        let is_coordinate = |a: &str| (0..g.coordinate_count()).any(|i| g.symbol(g.coordinate(i)[0]).name == a);
        let head = |h: &str| match h {
            "Ψ" => String::from("\\Psi"),
            "T*" => String::from("T^{*}"),
            h if h.len() == 1 && h.chars().all(|c| c.is_ascii_alphabetic()) => String::from(h),
            h => text_to_latex(h),
        };
        match label.strip_suffix(']').and_then(|l| l.split_once('[')) {
            Some((h, args)) => {
                let args: Vec<String> = args
                    .split(", ")
                    .map(|a| if is_coordinate(a) { name_to_latex(a) } else { text_to_latex(a) })
                    .collect();
                let separator =
                    if args.len() == 2 && args.iter().all(|a| !a.starts_with("\\text")) { " " } else { ", " };
                format!("{}_{{{}}}", head(h), args.join(separator))
            }
            None => head(label),
        }
    }

    /// A matrix of the matrix form as a MathML Core block.
    pub fn matrix_mathml(&self, m: &Matrix) -> String {
        self.graph.matrix_to_mathml(m.name, m.rows, m.cols, &m.entries)
    }

    /// A matrix of the matrix form as LaTeX.
    pub fn matrix_latex(&self, m: &Matrix) -> String {
        self.graph.matrix_to_latex(m.latex_name, m.rows, m.cols, &m.entries)
    }

    /// One equation as a MathML Core block (a named quantity shows its value).
    pub fn mathml(&self, e: &Equation) -> String {
        match (e.lhs, e.integral_over) {
            (Some(lhs), Some(s)) => self.graph.integral_equation_to_mathml(lhs, e.rhs, s),
            (Some(lhs), None) => self.graph.equation_to_mathml(lhs, e.rhs),
            (None, _) => self.graph.to_mathml(e.rhs),
        }
    }
}
