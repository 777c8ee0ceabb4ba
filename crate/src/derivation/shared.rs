//! Printed equations stay proportional to the graph. An expression graph shares
//! subexpressions; printed as text it is a tree, which can be exponentially larger
//! (14 chained definitions `dₖ = dₖ₋₁² + sin dₖ₋₁` printed as hundreds of megabytes of
//! MathML). When an equation or matrix entry would print larger than
//! [`PRINT_BUDGET`] nodes, the subexpressions used more than once are named
//! `w1, w2, …`, listed first as `w1 = …`, and used by name, as definitions are.
//! Beyond [`MAX_PRINTED_NODES`] in all, even so, the derivation is refused.

use alloc::format;
use alloc::vec::Vec;
use hashbrown::HashMap;

use super::{Equation, Matrix};
use crate::expr::{ExprGraph, ExprId};

/// Printed nodes of one expression below which nothing is named: every gallery
/// scenario's equations are far below it and print exactly as derived.
pub const PRINT_BUDGET: usize = 2_000;

/// Printed nodes of all equations and matrices together, after naming, beyond which
/// a derivation is refused (about 10 MB of MathML).
pub const MAX_PRINTED_NODES: usize = 400_000;

/// A shared subexpression is named only when it prints at least this many nodes.
const MIN_NAMED_SIZE: usize = 6;

/// Names shared subexpressions in `equations` and `matrices` when some expression
/// would print larger than [`PRINT_BUDGET`]; the definitions `wₖ = …` are put first.
/// Refuses (with the sizes) when the printed equations would still exceed
/// [`MAX_PRINTED_NODES`].
pub(super) fn name_shared_subexpressions(
    g: &mut ExprGraph,
    equations: &mut Vec<Equation>,
    matrices: &mut [Matrix],
) -> Result<(), crate::message::Message> {
    let roots: Vec<ExprId> = equations
        .iter()
        .flat_map(|e| e.lhs.into_iter().chain([e.rhs]))
        .chain(matrices.iter().flat_map(|m| m.entries.iter().copied()))
        .collect();
    let order = reachable_children_first(g, &roots);
    let size = printed_sizes(g, &order);
    if roots.iter().all(|r| size[r] <= PRINT_BUDGET) {
        return Ok(());
    }
    // Uses of each node: its parents' references, and the roots themselves.
    let mut uses: HashMap<ExprId, usize> = HashMap::new();
    for &e in &order {
        for c in g.children(e) {
            *uses.entry(c).or_default() += 1;
        }
    }
    for &r in &roots {
        *uses.entry(r).or_default() += 1;
    }
    // Children first: a node is named when it is shared and still prints large once
    // the names below it are used.
    let mut named: Vec<ExprId> = Vec::new();
    let mut named_size: HashMap<ExprId, usize> = HashMap::new();
    for &e in &order {
        let own = g.children(e).into_iter().map(|c| named_size[&c]).fold(1usize, usize::saturating_add);
        let shared = uses.get(&e).copied().unwrap_or(0) >= 2;
        if shared && own >= MIN_NAMED_SIZE {
            named.push(e);
            named_size.insert(e, 1);
        } else {
            named_size.insert(e, own);
        }
    }
    let printed: usize = named
        .iter()
        .map(|e| g.children(*e).into_iter().map(|c| named_size[&c]).fold(1usize, usize::saturating_add))
        .chain(roots.iter().map(|r| named_size[r]))
        .fold(0, usize::saturating_add);
    if printed > MAX_PRINTED_NODES {
        return Err(crate::message::run::too_large_to_print(printed, MAX_PRINTED_NODES));
    }
    // Symbols w1, w2, … for the named nodes; rebuild every expression with them.
    let mut replacement: HashMap<ExprId, ExprId> = HashMap::new();
    let mut symbols = Vec::with_capacity(named.len());
    for (k, &e) in named.iter().enumerate() {
        let s = g.declare_fresh_auxiliary(&format!("w{}", k + 1));
        symbols.push(s);
        replacement.insert(e, g.symbol_expr(s));
    }
    let mut memo = HashMap::new();
    let mut definitions = Vec::with_capacity(named.len());
    for (&e, &s) in named.iter().zip(&symbols) {
        // The body uses the names below it, not itself.
        let body = g.replace_below(e, &replacement, &mut memo);
        let name = g.symbol(s).name.clone();
        definitions.push(Equation::new(format!("shared {name}"), Some(g.symbol_expr(s)), body));
    }
    for eq in equations.iter_mut() {
        eq.lhs = eq.lhs.map(|l| g.replace_subexpressions(l, &replacement, &mut memo));
        eq.rhs = g.replace_subexpressions(eq.rhs, &replacement, &mut memo);
    }
    for m in matrices.iter_mut() {
        for x in m.entries.iter_mut() {
            *x = g.replace_subexpressions(*x, &replacement, &mut memo);
        }
    }
    definitions.append(equations);
    *equations = definitions;
    Ok(())
}

/// Every node reachable from `roots`, children before parents (ids grow with
/// construction, so a child's id is below its parent's).
fn reachable_children_first(g: &ExprGraph, roots: &[ExprId]) -> Vec<ExprId> {
    let mut all = Vec::new();
    g.walk(roots, false, |e, _| all.push(e));
    all.sort_unstable();
    all
}

/// How many nodes each expression prints as a tree, saturating (the count doubles
/// with each chained `cross`: `1 + usize::MAX` wrapped to 0 at 58 of them, and the
/// equations printed unnamed, 13 GB).
fn printed_sizes(g: &ExprGraph, order: &[ExprId]) -> HashMap<ExprId, usize> {
    let mut size: HashMap<ExprId, usize> = HashMap::with_capacity(order.len());
    for &e in order {
        let s = g.children(e).into_iter().map(|c| size[&c]).fold(1usize, usize::saturating_add);
        size.insert(e, s);
    }
    size
}
