//! Named sub-expressions that may refer to each other in any order.
//!
//! A definition is kept as a shared subterm: expressions refer to it by a
//! [`Node::Definition`] node, printed by name, and the compiled evaluator computes its
//! body once. Nothing is substituted, so nested definitions cannot blow up.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use super::error::ParseError;
use super::graph::{ExprGraph, ExprId, Node};
use super::symbols::{DefinitionId, NameError};

/// A problem with one of a batch of definitions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DefinitionError {
    /// The name cannot be declared.
    Name(NameError),
    /// The body does not parse.
    Parse {
        /// The definition.
        name: String,
        /// The parse error, positioned in the body's text.
        error: ParseError,
    },
    /// Definitions that refer to each other in a cycle, listed along the cycle.
    Cycle(Vec<String>),
    /// A chain of definitions deeper than [`MAX_DEFINITION_DEPTH`] (every pass over an
    /// expression recurses through definitions: a hostile scenario must not exhaust
    /// the stack).
    TooDeep {
        /// The definition at the deep end.
        name: String,
    },
}

/// Longest chain of definitions referring to definitions.
pub const MAX_DEFINITION_DEPTH: usize = 32;

impl DefinitionError {
    /// What went wrong, as a message with an id: the parse error's own for a body
    /// that does not parse (said without the definition's name, which its place gives).
    pub fn message(&self) -> crate::message::Message {
        use crate::message::problem;
        match self {
            DefinitionError::Name(e) => e.message(),
            DefinitionError::Parse { error, .. } => error.kind.message(),
            DefinitionError::TooDeep { name } => problem::definitions_too_deep(name, MAX_DEFINITION_DEPTH),
            DefinitionError::Cycle(names) => {
                let mut cycle = String::new();
                for n in names {
                    cycle.push_str(n);
                    cycle.push_str(" → ");
                }
                cycle.push_str(names.first().map_or("", String::as_str));
                problem::definitions_cycle(cycle)
            }
        }
    }
}

impl fmt::Display for DefinitionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DefinitionError::Parse { name, error } => write!(f, "in the definition of `{name}`: {error}"),
            other => f.write_str(&other.message().english),
        }
    }
}

impl ExprGraph {
    /// Declares the definitions `(name, body)` and parses their bodies; bodies may
    /// refer to any of the definitions, in any order, but not in a cycle.
    ///
    /// All or nothing: on error every problem found is returned and none of the
    /// names stays declared.
    pub fn define_all(&mut self, definitions: &[(&str, &str)]) -> Result<Vec<DefinitionId>, Vec<DefinitionError>> {
        let first = self.definition_count();
        let mut errors = Vec::new();
        let mut ids = Vec::new();
        for (name, _) in definitions {
            match self.declare_definition(name) {
                Ok(id) => ids.push(Some(id)),
                Err(e) => {
                    errors.push(DefinitionError::Name(e));
                    ids.push(None)
                }
            }
        }
        let mut bodies = Vec::with_capacity(definitions.len());
        for ((name, text), id) in definitions.iter().zip(&ids) {
            match self.parse(text) {
                Ok(body) => bodies.push(id.map(|id| (id, body))),
                Err(error) => errors.push(DefinitionError::Parse { name: name.to_string(), error }),
            }
        }
        if errors.is_empty() {
            let resolved: Vec<(DefinitionId, ExprId)> = bodies.into_iter().flatten().collect();
            errors.extend(self.find_cycles(first, &resolved).into_iter().map(DefinitionError::Cycle));
            if errors.is_empty() {
                errors.extend(self.too_deep(first, &resolved).map(|name| DefinitionError::TooDeep { name }));
            }
            if errors.is_empty() {
                for &(id, body) in &resolved {
                    self.set_definition_body(id, body);
                }
                return Ok(resolved.into_iter().map(|(id, _)| id).collect());
            }
        }
        self.forget_definitions_from(first);
        Err(errors)
    }

    /// Definitions referred to directly (not through other definitions) by `e`.
    fn direct_definitions(&self, e: ExprId) -> Vec<DefinitionId> {
        let mut out = Vec::new();
        self.walk(&[e], false, |_, node| {
            if let Node::Definition(d) = node {
                out.push(*d)
            }
        });
        out
    }

    /// For each new definition, the new definitions its body refers to directly (by
    /// position in `resolved`).
    fn dependency_edges(&self, first: usize, resolved: &[(DefinitionId, ExprId)]) -> Vec<Vec<usize>> {
        let n = resolved.len();
        let local = |d: DefinitionId| d.index().checked_sub(first).filter(|&i| i < n);
        resolved
            .iter()
            .map(|&(_, body)| self.direct_definitions(body).into_iter().filter_map(local).collect())
            .collect()
    }

    /// The first definition whose chain of references is deeper than the limit (the
    /// definitions are known to be acyclic here).
    fn too_deep(&self, first: usize, resolved: &[(DefinitionId, ExprId)]) -> Option<String> {
        let n = resolved.len();
        let edges = self.dependency_edges(first, resolved);
        // Depths by repeated relaxation, stopping as soon as one exceeds the limit:
        // at most limit + 1 rounds, never recursion.
        let mut depth = alloc::vec![1usize; n];
        for _ in 0..=MAX_DEFINITION_DEPTH {
            let mut changed = false;
            for i in 0..n {
                let d = 1 + edges[i].iter().map(|&j| depth[j]).max().unwrap_or(0);
                if d > depth[i] {
                    depth[i] = d;
                    changed = true;
                }
                if depth[i] > MAX_DEFINITION_DEPTH {
                    return Some(self.definition(resolved[i].0).name.clone());
                }
            }
            if !changed {
                break;
            }
        }
        None
    }

    /// Each cycle among the new definitions, once, as the list of names along it.
    fn find_cycles(&self, first: usize, resolved: &[(DefinitionId, ExprId)]) -> Vec<Vec<String>> {
        let n = resolved.len();
        let edges = self.dependency_edges(first, resolved);
        // Iterative depth-first search with colours: 0 new, 1 on the path, 2 done.
        let mut colour = alloc::vec![0u8; n];
        let mut cycles = Vec::new();
        for root in 0..n {
            if colour[root] != 0 {
                continue;
            }
            let mut path: Vec<(usize, usize)> = alloc::vec![(root, 0)];
            colour[root] = 1;
            while let Some(&mut (node, ref mut next)) = path.last_mut() {
                if let Some(&child) = edges[node].get(*next) {
                    *next += 1;
                    match colour[child] {
                        0 => {
                            colour[child] = 1;
                            path.push((child, 0));
                        }
                        1 => {
                            let start = path.iter().position(|&(p, _)| p == child).unwrap_or(0);
                            let names = path[start..]
                                .iter()
                                .map(|&(p, _)| self.definition(resolved[p].0).name.clone())
                                .collect();
                            cycles.push(names);
                        }
                        _ => {}
                    }
                } else {
                    colour[node] = 2;
                    path.pop();
                }
            }
        }
        cycles
    }
}
