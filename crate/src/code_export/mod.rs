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
    /// Their field names in the file's language ([`field_names`]).
    fields: Vec<String>,
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

    /// A parameter's field name in the file's language.
    fn field(&self, name: &str) -> &str {
        let k = self.parameters.iter().position(|(n, _)| n == name).unwrap_or(0);
        &self.fields[k]
    }

    /// The constraints in the solve's order, where they repeat each other.
    fn repeating(&self) -> Option<Vec<&str>> {
        let programs = &self.programs;
        programs.redundant.then(|| programs.order.iter().map(|&j| self.constraints[j].as_str()).collect())
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
        if let Some(order) = self.repeating() {
            lines.push(format!(
                "The constraints repeat each other. At each evaluation, a row that is a combination of those before it \
                 (in the order {}) is left out of the solve, as the lab chooses its rows at each state; every row must \
                 still hold to 1e-6 of its terms. The accelerations are the lab's.",
                order.join("; ")
            ));
        }
        if language != Language::Python {
            let renamed: Vec<String> = self
                .parameters
                .iter()
                .zip(&self.fields)
                .filter(|((name, _), field)| field != &name)
                .map(|((name, _), field)| format!("{name} → {field}"))
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
/// starting with a digit or `_`, never a keyword of the four languages nor a name
/// the file itself uses as a function or a module (`whipple-bicycle` →
/// `whipple_bicycle`, `end` → `model_end`, `jacobian` → `model_jacobian`: a
/// MATLAB file `jacobian.m` would define `jacobian` twice, `zeros.m` would call
/// itself for `zeros`, a Python `math.py` would import itself).
pub fn identifier(text: &str) -> String {
    let mut out: String =
        text.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' }).collect();
    let taken = Language::ALL.into_iter().any(|l| reserved(l, &out))
        || listed(PYTHON_KEYWORDS, &out)
        || listed(FILE_NAMES, &out);
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit() || c == '_') || taken {
        out.insert_str(0, "model_");
    }
    out
}

/// Python's keywords (a module name cannot be one).
const PYTHON_KEYWORDS: &str =
    "and as assert async await break class continue def del elif else except false finally for \
    from global if import in is lambda none nonlocal not or pass raise return true try while \
    with yield";

/// Names a file's own name must not take: the MATLAB file's local functions and
/// the functions its code calls (a function file shadows them inside itself), and
/// the modules the Python file imports.
const FILE_NAMES: &str = "rhs terms jacobian zeros eye struct error numel abs sign sqrt sin cos tan asin acos atan \
    atan2 sinh cosh tanh exp log pow math numpy np";

/// User text for a comment or a string literal, by construction unable to end
/// either or to reorder what a reader sees: one line (no line or paragraph
/// separators), no control or invisible formatting character (NUL, the
/// bidirectional overrides and isolates that gcc's `-Wbidi-chars` and rustc's
/// deny-by-default lint refuse, zero-width characters), and none of the sequences
/// that mean something inside a comment: `*/` and `/*` (C), `??` (C's trigraphs,
/// `??/` a backslash under `-std=c99`), `"""` (a Python docstring), each broken
/// with a space. Each of them becomes a space; the rest is kept as written.
pub(crate) fn one_line(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut before = [' ', ' '];
    for c in text.chars() {
        let c = if invisible(c) { ' ' } else { c };
        // In one pass: a space between the two characters of `*/`, `/*`, `??`, and
        // before the third of `"""`.
        let breaks =
            matches!((before[1], c), ('*', '/') | ('/', '*') | ('?', '?')) || (c == '"' && before == ['"', '"']);
        if breaks {
            out.push(' ');
            before = [' ', ' '];
        }
        out.push(c);
        before = [before[1], c];
    }
    out
}

/// Control characters (Cc), line and paragraph separators (Zl, Zp) and the format
/// characters (Cf) of Unicode that change what is shown without being seen:
/// direction marks, embeddings, overrides and isolates, zero-width characters,
/// the byte-order mark, interlinear annotation controls.
fn invisible(c: char) -> bool {
    c.is_control()
        || matches!(c,
            '\u{00AD}' | '\u{061C}' | '\u{180E}' | '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}' | '\u{FEFF}' | '\u{FFF9}'..='\u{FFFB}')
}

/// Whether `name` is one of the space-separated words of `list`. (The lists are
/// one string each, not slices of strings: a pointer and a length per word cost
/// the page's helper module 3 KiB.)
fn listed(list: &str, name: &str) -> bool {
    list.split(' ').any(|word| word == name)
}

/// Whether `name` cannot be a parameter's field in `language`: a keyword, a
/// reserved identifier, a macro of the standard headers the file includes
/// (`NAN`, `HUGE_VAL`: `p->NAN` would read `p->(__builtin_nanf(""))`), or for C a
/// name with a leading underscore (reserved to the implementation).
fn reserved(language: Language, name: &str) -> bool {
    let list = match language {
        Language::C => C_RESERVED,
        Language::Matlab => MATLAB_KEYWORDS,
        Language::Rust => RUST_KEYWORDS,
        Language::Python => "",
    };
    listed(list, name) || (language == Language::C && name.starts_with('_'))
}

/// C99's keywords, and the object-like macros of `math.h` (C99 and the common
/// extensions: glibc's `M_PI` family, BSD's `MAXFLOAT`).
const C_RESERVED: &str = "auto break case char const continue default do double else enum extern float for goto if \
    inline int long register restrict return short signed sizeof static struct switch typedef \
    union unsigned void volatile while _Bool _Complex _Imaginary NAN INFINITY HUGE_VAL \
    HUGE_VALF HUGE_VALL FP_NAN FP_INFINITE FP_ZERO FP_SUBNORMAL FP_NORMAL FP_FAST_FMA \
    FP_FAST_FMAF FP_FAST_FMAL FP_ILOGB0 FP_ILOGBNAN MATH_ERRNO MATH_ERREXCEPT math_errhandling \
    M_E M_LOG2E M_LOG10E M_LN2 M_LN10 M_PI M_PI_2 M_PI_4 M_1_PI M_2_PI M_2_SQRTPI M_SQRT2 \
    M_SQRT1_2 MAXFLOAT HUGE DOMAIN SING OVERFLOW UNDERFLOW TLOSS PLOSS X_TLOSS NULL errno EDOM \
    ERANGE EILSEQ";

/// MATLAB's and Octave's keywords (`iskeyword`), which a struct field cannot be.
const MATLAB_KEYWORDS: &str =
    "break case catch classdef continue else elseif end for function global if otherwise parfor \
    persistent return spmd switch try while do until unwind_protect unwind_protect_cleanup \
    end_try_catch end_unwind_protect endfor endfunction endif endparfor endswitch endwhile \
    methods properties events enumeration arguments endclassdef endmethods endproperties \
    endevents endenumeration __FILE__ __LINE__";

/// Rust's keywords, strict and reserved (2021 and 2024 editions), which a field
/// cannot be (`r#` would not do for `self`, `Self`, `super`, `crate`).
const RUST_KEYWORDS: &str =
    "as async await break const continue crate dyn else enum extern false fn for if impl in let \
    loop match mod move mut pub ref return self Self static struct super trait true type \
    unsafe use where while abstract become box do final macro override priv typeof unsized \
    virtual yield try gen _";

/// The parameters' field names in `language`, in order: each its own name, or,
/// where that is reserved ([`reserved`]) or one of `own` (the file's own macros),
/// the name with `_` appended until it is neither nor any other parameter's field —
/// injective over the file (`end`, `end_` → `end__`, `end_`).
fn field_names(language: Language, names: &[String], own: &[String]) -> Vec<String> {
    let bad = |name: &str| reserved(language, name) || own.iter().any(|o| o == name);
    let mut taken: Vec<String> = names.iter().filter(|n| !bad(n)).cloned().collect();
    names
        .iter()
        .map(|name| {
            if !bad(name) {
                return name.clone();
            }
            // A C name with a leading underscore gets a letter first (`_Bool` → `p_Bool`).
            let mut field =
                if language == Language::C && name.starts_with('_') { format!("p{name}") } else { name.clone() };
            while bad(&field) || taken.contains(&field) {
                field.push('_');
            }
            taken.push(field.clone());
            field
        })
        .collect()
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
/// constraints independent at `initial` come first in the solve.
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
    let independent = crate::mechanics::independent_rows(&terms.jacobian);
    let programs = programs::build(model, &independent)?;
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
    let name = identifier(name);
    // The C file's own macros, which a field must not be.
    let own: Vec<String> = match language {
        Language::C => ["N", "STATE", "INPUTS", "CONSTRAINTS"].iter().map(|m| format!("{name}_{m}")).collect(),
        _ => Vec::new(),
    };
    let names: Vec<String> = parameters.iter().map(|(n, _)| n.clone()).collect();
    let fields = field_names(language, &names, &own);
    let description = Description {
        title: one_line(&model.scenario.title),
        version: version.to_string(),
        name,
        coordinates: model.coordinate_names().to_vec(),
        constraints: model.constraints.iter().map(|c| one_line(&c.name)).collect(),
        parameters,
        fields,
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
