//! Collecting the problems of a scenario while its model is built: each at its field
//! (and line and column when the scenario came from text), every one reported at
//! once.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::expr::{ExprGraph, ExprId, ParseError, ParseErrorKind, ParseOptions, SymbolKind};
use crate::message::{bodies, phrase, problem, Hint, Message, Part};
use crate::scenario::{Problem, SourceMap};

/// Collects problems while building, with positions from the source map.
pub(crate) struct Checker<'a> {
    map: &'a SourceMap,
    pub(crate) problems: Vec<Problem>,
    /// Names of the components of points and vectors that failed to build (their
    /// own problem says why): an expression naming one reports nothing more.
    pub(crate) unavailable: alloc::collections::BTreeSet<String>,
    /// What the scenario's points, `[vectors]` and frames are called, with what each
    /// is (`point`, `vector`, `frame`): a scalar expression naming one is told so.
    pub(crate) vectors: alloc::collections::BTreeMap<String, &'static str>,
}

impl<'a> Checker<'a> {
    /// A checker with no problems yet, placing them by `map`; `vectors` names the
    /// scenario's points, vectors and frames with what each is.
    pub(crate) fn new(map: &'a SourceMap, vectors: alloc::collections::BTreeMap<String, &'static str>) -> Checker<'a> {
        Checker { map, problems: Vec::new(), unavailable: Default::default(), vectors }
    }

    /// "`name` is not `what`; did you mean …?" at `field`'s value, with the
    /// names nearest to it among `known` (`what`: a [`crate::message::phrase`]).
    pub(crate) fn unknown<'k>(
        &mut self,
        field: &str,
        name: &str,
        what: Message,
        known: impl IntoIterator<Item = &'k str>,
    ) {
        self.said(field, unknown_name(name, what, known));
    }

    /// A problem at `field`'s value, with a message id (see [`crate::message`]).
    pub(crate) fn said(&mut self, field: &str, message: Message) {
        self.problems.push(self.map.said(field, message));
    }

    /// A problem at `field`'s key, with a message id.
    pub(crate) fn said_key(&mut self, field: &str, message: Message) {
        self.problems.push(self.map.said_key(field, message));
    }

    pub(crate) fn parse_error(&mut self, field: &str, e: &ParseError) {
        if matches!(&e.kind, ParseErrorKind::UnknownName { name, .. } if self.unavailable.contains(name)) {
            return;
        }
        let said = match &e.kind {
            ParseErrorKind::UnknownName { name, .. } if self.vectors.contains_key(name) => match self.vectors[name] {
                "frame" => bodies::frame_as_scalar(name),
                "point" => bodies::point_as_scalar(name),
                _ => bodies::vector_as_scalar(name),
            },
            kind => kind.message(),
        };
        self.problems.push(Problem {
            field: field.to_string(),
            position: self.map.inside(field, e.span.start).or_else(|| self.map.value(field)),
            message: said.english.clone(),
            said: Some(said),
        });
    }

    /// Parses an expression; a problem and `None` on error.
    pub(crate) fn expr(&mut self, g: &mut ExprGraph, field: &str, text: &str) -> Option<ExprId> {
        match g.parse_with(text, ParseOptions::default()) {
            Ok(e) => Some(e),
            Err(e) => {
                self.parse_error(field, &e);
                None
            }
        }
    }

    /// Parses an expression that may not contain velocities (potential, positions).
    /// `what` is a [`crate::message::phrase`] ("the potential").
    pub(crate) fn position_expr(
        &mut self,
        g: &mut ExprGraph,
        field: &str,
        text: &str,
        what: Message,
    ) -> Option<ExprId> {
        let e = self.expr(g, field, text)?;
        let velocities: Vec<String> = g
            .free_symbols(e)
            .into_iter()
            .filter(|&s| matches!(g.symbol(s).kind, SymbolKind::Velocity(_)))
            .map(|s| g.display_symbol(s))
            .collect();
        if velocities.is_empty() {
            Some(e)
        } else {
            self.said(field, problem::positions_only(Part(what), velocities.join("`, `")));
            None
        }
    }
}

/// "`name` is not `what`; did you mean …?", with the names nearest to it among `known`
/// (at a key: `c.said_key(field, unknown_name(…))`; at a value: [`Checker::unknown`]).
pub(crate) fn unknown_name<'k>(name: &str, what: Message, known: impl IntoIterator<Item = &'k str>) -> Message {
    problem::not_a(name, Part(what), Hint(phrase::did_you_mean(name, known)))
}
