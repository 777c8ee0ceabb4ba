//! A model's equations as one self-contained source file in C, Python (NumPy),
//! MATLAB/Octave or Rust (`nhlab export`, the page's "Export code"): the first-order
//! right-hand side `f(t, y, u, p)` of Lagrange's equations, the terms `M`, `F`, `A`,
//! `b`, the residuals and the energy, and the exact Jacobians `∂f/∂y`, `∂f/∂u`,
//! written from the same straight-line programs the lab compiles to machine code
//! (shared subexpressions once, the solve written out for the model's sizes and
//! structural zeros, the same pivot check), so the numbers are the lab's.
//!
//! Written by hand rather than through a code-generation crate: the input is the
//! lab's own register program, and each language needs only its spelling of an
//! assignment, a call and a literal (`emit.rs`); the rest is each file's frame.

mod c;
mod emit;
mod matlab;
mod programs;
mod python;
mod rust;

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

pub use programs::MAX_EXPORT_INSTRUCTIONS;

use crate::formulations::Method;
use crate::mechanics::{Model, NumericModel};
use crate::simulation::State;

/// A language an exported file is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    /// C99, no library but `math.h`.
    C,
    /// Python 3 with NumPy.
    Python,
    /// MATLAB or GNU Octave: one function file.
    Matlab,
    /// Rust, no crates: a module file.
    Rust,
}

impl Language {
    /// Every language, in the order the help lists them.
    pub const ALL: [Language; 4] = [Language::C, Language::Python, Language::Matlab, Language::Rust];

    /// The id used by `--lang` (`c`, `python`, `matlab`, `rust`).
    pub fn id(self) -> &'static str {
        match self {
            Language::C => "c",
            Language::Python => "python",
            Language::Matlab => "matlab",
            Language::Rust => "rust",
        }
    }

    /// The language with this id.
    pub fn from_id(id: &str) -> Option<Language> {
        Language::ALL.into_iter().find(|l| l.id() == id)
    }

    /// The file name extension (`c`, `py`, `m`, `rs`).
    pub fn extension(self) -> &'static str {
        match self {
            Language::C => "c",
            Language::Python => "py",
            Language::Matlab => "m",
            Language::Rust => "rs",
        }
    }
}

/// What the writers read: the model's names and values and the programs.
pub(crate) struct Description {
    title: String,
    version: String,
    /// The file's identifier: the MATLAB function, the C prefix.
    name: String,
    coordinates: Vec<String>,
    constraints: Vec<String>,
    /// The parameters that are not inputs, with their values.
    parameters: Vec<(String, f64)>,
    /// The inputs with their values.
    inputs: Vec<(String, f64)>,
    /// For each parameter slot of the programs: a parameter (`false`, index into
    /// `parameters`) or an input (`true`, index into `inputs`).
    slots: Vec<(bool, usize)>,
    programs: programs::Programs,
}

impl Description {
    fn n(&self) -> usize {
        self.coordinates.len()
    }

    /// `x, y, phi, x', y', phi'`.
    fn state_names(&self) -> Vec<String> {
        self.coordinates.iter().cloned().chain(self.coordinates.iter().map(|c| format!("{c}'"))).collect()
    }

    /// The constraints left out of the solve (redundant at the reference state).
    fn dropped(&self) -> Vec<&str> {
        (0..self.constraints.len())
            .filter(|j| !self.programs.kept.contains(j))
            .map(|j| self.constraints[j].as_str())
            .collect()
    }

    /// The program inputs `[t, q, v, parameters]` as the language reads them:
    /// `y(k)` by `index(k)`, a parameter by `parameter(name)`, an input by `input(j)`.
    fn input_texts(
        &self,
        time: &str,
        state: &dyn Fn(usize) -> String,
        parameter: &dyn Fn(&str) -> String,
        input: &dyn Fn(usize) -> String,
    ) -> Vec<String> {
        let n = self.n();
        let mut texts = alloc::vec![time.to_string()];
        texts.extend((0..2 * n).map(state));
        for &(is_input, k) in &self.slots {
            texts.push(if is_input { input(k) } else { parameter(&self.parameters[k].0) });
        }
        texts
    }

    /// The header's common lines (each language comments them).
    fn header_lines(&self, language: Language) -> Vec<String> {
        let mut lines = alloc::vec![
            format!("{} — equations of motion exported by nhlab {}", self.title, self.version),
            String::new(),
            "Lagrange's equations with multipliers, as the first-order system y' = f(t, y, u, p):".into(),
            format!("y = [q; q'] ({} entries), u the inputs, p the parameters.", 2 * self.n()),
            format!("State order: {}", self.state_names().join(", ")),
            format!(
                "Inputs u: {}",
                if self.inputs.is_empty() {
                    "none".to_string()
                } else {
                    self.inputs.iter().map(|(k, v)| format!("{k} (default {v:?})")).collect::<Vec<_>>().join(", ")
                }
            ),
            format!(
                "Constraints: {}",
                if self.constraints.is_empty() { "none".to_string() } else { self.constraints.join("; ") }
            ),
        ];
        let dropped = self.dropped();
        if !dropped.is_empty() {
            lines.push(format!(
                "Left out of the solve as combinations of the others at the initial state: {}",
                dropped.join("; ")
            ));
        }
        if language != Language::Python {
            let renamed: Vec<String> = self
                .parameters
                .iter()
                .filter_map(|(name, _)| {
                    let field = field_name(language, name);
                    (field != *name).then(|| format!("{name} → {field}"))
                })
                .collect();
            if !renamed.is_empty() {
                lines.push(format!("Parameters renamed for the language: {}", renamed.join(", ")));
            }
        }
        lines.push(
            "Nothing here depends on nhlab. The solve reports a pivot below the lab's tolerance or a value that is not finite as an error."
                .into(),
        );
        lines
    }
}

/// A scenario name as an identifier: lower case, `_` for anything else, never
/// starting with a digit or `_`, never a keyword of the four languages
/// (`whipple-bicycle` → `whipple_bicycle`, `end` → `model_end`).
pub fn identifier(text: &str) -> String {
    let mut out: String =
        text.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
    let keyword =
        Language::ALL.into_iter().any(|l| field_name(l, &out) != out) || PYTHON_KEYWORDS.contains(&out.as_str());
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit() || c == '_') || keyword {
        out.insert_str(0, "model_");
    }
    out
}

/// Python's keywords (a module name cannot be one).
const PYTHON_KEYWORDS: &[&str] = &[
    "and", "as", "assert", "async", "await", "break", "class", "continue", "def", "del", "elif", "else", "except",
    "false", "finally", "for", "from", "global", "if", "import", "in", "is", "lambda", "none", "nonlocal", "not", "or",
    "pass", "raise", "return", "true", "try", "while", "with", "yield",
];

/// User text for a comment or a string literal: one line, and never closing a C
/// comment or a Python docstring (`*/` and `"""` broken with a space).
fn one_line(text: &str) -> String {
    let flat: String = text.chars().map(|c| if c.is_control() { ' ' } else { c }).collect();
    flat.replace("*/", "* /").replace("\"\"\"", "\"\" \"")
}

/// A parameter's field name in `language`: its own, with `_` appended where that is
/// a keyword of the language.
fn field_name(language: Language, name: &str) -> String {
    const C: &[&str] = &[
        "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
        "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed",
        "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while",
    ];
    const MATLAB: &[&str] = &[
        "break",
        "case",
        "catch",
        "classdef",
        "continue",
        "else",
        "elseif",
        "end",
        "for",
        "function",
        "global",
        "if",
        "otherwise",
        "parfor",
        "persistent",
        "return",
        "spmd",
        "switch",
        "try",
        "while",
    ];
    const RUST: &[&str] = &[
        "as", "async", "await", "break", "const", "continue", "crate", "dyn", "else", "enum", "extern", "false", "fn",
        "for", "if", "impl", "in", "let", "loop", "match", "mod", "move", "mut", "pub", "ref", "return", "self",
        "static", "struct", "super", "trait", "true", "type", "unsafe", "use", "where", "while", "abstract", "become",
        "box", "do", "final", "macro", "override", "priv", "typeof", "unsized", "virtual", "yield", "try", "gen",
    ];
    let keywords = match language {
        Language::C => C,
        Language::Matlab => MATLAB,
        Language::Rust => RUST,
        Language::Python => &[],
    };
    if keywords.contains(&name) {
        format!("{name}_")
    } else {
        name.to_string()
    }
}

/// Why a model cannot be exported, in English (the command line's).
pub fn applicability(model: &Model, method: Method) -> Result<(), String> {
    why_not(model, method).map_err(|m| m.english)
}

/// Why a model cannot be exported, as a message with an id.
pub fn why_not(model: &Model, method: Method) -> Result<(), crate::message::Message> {
    use crate::message::run;
    match method {
        Method::Lagrange => {}
        Method::UdwadiaKalaba | Method::Gauss | Method::Euler => return Err(run::export_same_as_lagrange(method.id())),
        Method::Hamel | Method::Voronets | Method::Vakonomic => return Err(run::export_not_yet(method.id())),
    }
    crate::formulations::why_not(model, Method::Lagrange)
}

/// The file for `model` in `language`. `name` becomes the file's identifier (the
/// MATLAB function's name, the C functions' prefix): the file's stem. The
/// constraints in the solve are chosen at `initial` (an independent subset).
pub fn export(
    model: &Model,
    numeric: &mut NumericModel,
    initial: &State,
    language: Language,
    name: &str,
    version: &str,
) -> Result<String, crate::message::Message> {
    why_not(model, Method::Lagrange)?;
    let terms = numeric.evaluate(initial.t, &initial.q, &initial.v).map_err(|e| e.message())?;
    let kept = crate::mechanics::independent_rows(&terms.jacobian);
    let programs = programs::build(model, &kept)?;
    let inputs: Vec<usize> = model.inputs.clone();
    let mut slots = Vec::new();
    let mut parameters = Vec::new();
    for (k, p) in model.parameters.iter().enumerate() {
        match inputs.iter().position(|&i| i == k) {
            Some(j) => slots.push((true, j)),
            None => {
                slots.push((false, parameters.len()));
                parameters.push((p.name.clone(), p.value));
            }
        }
    }
    let description = Description {
        title: one_line(&model.scenario.title),
        version: version.to_string(),
        name: identifier(name),
        coordinates: model.coordinate_names().to_vec(),
        constraints: model.constraints.iter().map(|c| one_line(&c.name)).collect(),
        parameters,
        inputs: inputs.iter().map(|&k| (model.parameters[k].name.clone(), model.parameters[k].value)).collect(),
        slots,
        programs,
    };
    Ok(match language {
        Language::C => c::write(&description),
        Language::Python => python::write(&description),
        Language::Matlab => matlab::write(&description),
        Language::Rust => rust::write(&description),
    })
}
