//! A scenario's text read for the page, its problems positioned, and its code
//! exported.

use super::*;

/// A problem with the scenario text, positioned.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct TextProblem {
    /// The field path.
    pub field: String,
    /// 1-based line, when known.
    pub line: Option<usize>,
    /// 1-based column, when known.
    pub column: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl TextProblem {
    /// The core's problem, said in the page's language where it has a message id
    /// (its English otherwise).
    pub(super) fn from_problem(p: &Problem) -> TextProblem {
        TextProblem {
            field: p.field.clone(),
            line: p.position.map(|p| p.0),
            column: p.position.map(|p| p.1),
            message: crate::i18n::problem(p),
        }
    }

    /// `line 3, column 7: constraints[0].expr: …`.
    pub fn describe(&self) -> String {
        match (self.line, self.column) {
            (Some(l), Some(c)) => format!("line {l}, column {c}: {}: {}", self.field, self.message),
            _ => format!("{}: {}", self.field, self.message),
        }
    }
}

/// Every problem on one line, `field: message; …`, in the page's language: for a
/// caption (the long run's, the stability panel's) beside the editor's own list.
pub(crate) fn said_briefly(problems: &[TextProblem]) -> String {
    problems.iter().map(|p| format!("{}: {}", p.field, p.message)).collect::<Vec<_>>().join("; ")
}

/// Every problem, one per line.
pub fn describe_all(problems: &[TextProblem]) -> String {
    problems.iter().map(TextProblem::describe).collect::<Vec<_>>().join("\n")
}

pub(crate) fn problems(p: Problems) -> Vec<TextProblem> {
    p.0.iter().map(TextProblem::from_problem).collect()
}

/// Reads a scenario's text (TOML, or JSON when it starts with `{`), deriving nothing.
pub fn read(text: &str) -> Result<(Scenario, SourceMap), Vec<TextProblem>> {
    use nhlab::scenario::{format_of, load};
    load(text, format_of(text)).map_err(problems)
}

/// `nhlab export`'s file for a scenario's text: `(file name, text)`, the file named
/// `name` (made an identifier) with the language's extension. The same bytes as
/// `nhlab export FILE --lang L --out NAME.EXT`.
pub fn export_code(text: &str, language: &str, name: &str) -> Result<(String, String), String> {
    use nhlab::code_export::{export, identifier, Language};
    let language = Language::from_id(language).ok_or_else(|| format!("unknown language `{language}`"))?;
    let (scenario, map) = read(text).map_err(|p| describe_all(&p))?;
    let mut p = Prepared::from_scenario_for(&scenario, map, nhlab::mechanics::Needs::BASE.holding_inputs())
        .map_err(|e| describe_all(&problems(e)))?;
    let name = identifier(name);
    let version = env!("CARGO_PKG_VERSION");
    let code =
        export(&p.model, &mut p.numeric, &p.initial, language, &name, version).map_err(|e| crate::i18n::message(&e))?;
    Ok((format!("{name}.{}", language.extension()), code))
}
