//! Hostile text for the exporters (issue 57): what a title, a constraint's name or
//! a parameter's name can hold that a generated source file must survive, for the
//! compiled test (`tests/mechanics/code_export.rs`) and the fuzz suite's stage.

use crate::random::Rng;

/// Hostile text (issue 57): quotes of every length, backslashes, comment ends
/// and starts of every language, trigraphs, line and paragraph separators, NUL,
/// bidirectional overrides and isolates, zero-width characters.
pub const HOSTILE: &[&str] = &[
    "\"",
    "\"\"",
    "\"\"\"",
    "\"\"\"\"",
    "\"\"\"\"\"",
    "\"\"\"\"\"\"\"",
    "'",
    "'''",
    "\\",
    "\\\\",
    "\\\"",
    "end\\",
    "*/",
    "/*",
    "/*/",
    "*/*",
    "//",
    "%}",
    "%{",
    "#{",
    "#}",
    "...",
    "??/",
    "??=",
    "???/",
    "? ?",
    "\u{2028}",
    "\u{2029}",
    "\r",
    "\n",
    "\0",
    "\u{202E}",
    "\u{2066}",
    "\u{200F}",
    "\u{FEFF}",
    "\u{200B}",
    "${x}",
    "{}",
    "%s",
    "\"\"\"\"\";import os;os.system(\"echo INJECTED\");\"\"\"\"\"",
    "*/ int injected = 1; /*",
    "\nend\nfunction injected()\n",
    "\"; pub fn injected() {} const X: &str = \"",
];

/// A TOML basic string holding `text` exactly.
pub fn toml_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out += "\\\"",
            '\\' => out += "\\\\",
            c if c.is_control() => out += &format!("\\u{:04X}", c as u32),
            c => out.push(c),
        }
    }
    out + "\""
}

/// Parameter names each language reserves, and pairs a careless renaming merges
/// (`end`, `end_`): every one a parameter of the model, used in its equations
/// with its own value, so that a collision changes the numbers.
pub const RESERVED_NAMES: &[&str] = &[
    "end",
    "end_",
    "int",
    "int_",
    "type",
    "type_",
    "Self",
    "self",
    "_Bool",
    "_Bool_",
    "NAN",
    "HUGE_VAL",
    "INFINITY",
    "M_PI",
    "_",
    "__FILE__",
    "function",
    "while",
    "match",
    "double",
    "struct",
    "crate",
    "unwind_protect",
    "hostile0_STATE",
    "hostile0_INPUTS",
    "p_Bool",
];

/// A two-coordinate model whose title and constraint name are `title` and `name`,
/// with a parameter for each of `names`, each entering the potential with a
/// coefficient of its own.
pub fn hostile_scenario(title: &str, name: &str, names: &[&str]) -> String {
    let potential: Vec<String> = names.iter().enumerate().map(|(k, p)| format!("{p}*x^{}", 1 + k % 3)).collect();
    let parameters: Vec<String> =
        names.iter().enumerate().map(|(k, p)| format!("{p} = {}", 1.0 + k as f64 / 8.0)).collect();
    format!(
        "format = \"nhlab/1\"\ntitle = {}\ncoordinates = [\"x\", \"y\"]\nkinetic = \"x'^2/2 + y'^2\"\npotential = \"{} + y^2\"\n\n[parameters]\n{}\n\n[[constraints]]\nname = {}\nexpr = \"x' - (1 + y^2)*y'\"\n\n[initial]\nq = {{ x = 0.3, y = 0.2 }}\nv = {{ y = 0.4 }}\n",
        toml_string(title),
        potential.join(" + "),
        parameters.join("\n"),
        toml_string(name),
    )
}

/// A random hostile scenario: a title and a constraint name of up to eight pieces
/// of [`HOSTILE`] and random text, and a random set of [`RESERVED_NAMES`].
pub fn hostile_export_scenario(rng: &mut Rng) -> String {
    let text = |rng: &mut Rng| -> String {
        (0..1 + rng.below(8))
            .map(|_| match rng.below(4) {
                0 => char::from_u32(rng.below(0x3000) as u32).map(String::from).unwrap_or_default(),
                _ => HOSTILE[rng.below(HOSTILE.len())].to_string(),
            })
            .collect()
    };
    let (title, name) = (text(rng), text(rng));
    let mut names: Vec<&str> = RESERVED_NAMES.iter().copied().filter(|_| rng.below(3) == 0).collect();
    names.push("k");
    hostile_scenario(&title, &name, &names)
}
