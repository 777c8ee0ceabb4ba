//! Names as typeset: Greek letters, subscripts, dots for time derivatives.

use alloc::string::String;

/// Greek letter names with their LaTeX command and Unicode letter. `phi` is the
/// curly `\varphi`, as mechanics texts write it; `epsilon` is `\varepsilon`.
const GREEK: [(&str, &str, char); 40] = [
    ("alpha", "\\alpha", 'α'),
    ("beta", "\\beta", 'β'),
    ("gamma", "\\gamma", 'γ'),
    ("delta", "\\delta", 'δ'),
    ("epsilon", "\\varepsilon", 'ε'),
    ("zeta", "\\zeta", 'ζ'),
    ("eta", "\\eta", 'η'),
    ("theta", "\\theta", 'θ'),
    ("iota", "\\iota", 'ι'),
    ("kappa", "\\kappa", 'κ'),
    ("lambda", "\\lambda", 'λ'),
    ("mu", "\\mu", 'μ'),
    ("nu", "\\nu", 'ν'),
    ("xi", "\\xi", 'ξ'),
    ("pi", "\\pi", 'π'),
    ("rho", "\\rho", 'ρ'),
    ("sigma", "\\sigma", 'σ'),
    ("tau", "\\tau", 'τ'),
    ("upsilon", "\\upsilon", 'υ'),
    ("phi", "\\varphi", 'φ'),
    ("chi", "\\chi", 'χ'),
    ("psi", "\\psi", 'ψ'),
    ("omega", "\\omega", 'ω'),
    ("Gamma", "\\Gamma", 'Γ'),
    ("Delta", "\\Delta", 'Δ'),
    ("Theta", "\\Theta", 'Θ'),
    ("Lambda", "\\Lambda", 'Λ'),
    ("Xi", "\\Xi", 'Ξ'),
    ("Pi", "\\Pi", 'Π'),
    ("Sigma", "\\Sigma", 'Σ'),
    ("Upsilon", "\\Upsilon", 'Υ'),
    ("Phi", "\\Phi", 'Φ'),
    ("Psi", "\\Psi", 'Ψ'),
    ("Omega", "\\Omega", 'Ω'),
    ("vartheta", "\\vartheta", 'ϑ'),
    ("varphi", "\\varphi", 'φ'),
    ("varrho", "\\varrho", 'ϱ'),
    ("varsigma", "\\varsigma", 'ς'),
    ("varepsilon", "\\varepsilon", 'ε'),
    ("varpi", "\\varpi", 'ϖ'),
];

/// A name split into its stem and subscript: `theta_2 → (theta, 2)`,
/// `x1 → (x, 1)`, `alpha → (alpha, "")`.
pub(super) fn split_subscript(name: &str) -> (&str, &str) {
    if let Some(k) = name.find('_').filter(|&k| k > 0 && k + 1 < name.len()) {
        return (&name[..k], &name[k + 1..]);
    }
    let stem_len = name.trim_end_matches(|c: char| c.is_ascii_digit()).len();
    if stem_len > 0 && stem_len < name.len() {
        (&name[..stem_len], &name[stem_len..])
    } else {
        (name, "")
    }
}

/// A name's stem without a trailing `dot` and the dots that stands for: `mudot →
/// (mu, 1)`, `thetadotdot → (theta, 2)`. The vakonomic multipliers' rates are
/// `mudot1…`, and authors name rates that way (`xdot`); they print as `μ̇₁`, `ẋ`.
pub(super) fn split_dots(stem: &str) -> (&str, usize) {
    let mut stem = stem;
    let mut dots = 0;
    while dots < 2 {
        match stem.strip_suffix("dot") {
            Some(rest) if !rest.is_empty() => {
                stem = rest;
                dots += 1;
            }
            _ => break,
        }
    }
    (stem, dots)
}

/// Whether a stem prints as several letters (`Ia`, `mass`), not one letter or a
/// Greek one: such names need space around them in a product, where `Ia sin θ` would
/// otherwise read `Iasin θ`.
pub(super) fn is_multi_letter(stem: &str) -> bool {
    let (stem, _) = split_dots(stem);
    stem.chars().count() > 1 && !GREEK.iter().any(|(n, _, _)| *n == stem)
}

/// The LaTeX for a stem: a Greek command, a single letter, or `\mathit{…}`.
pub(super) fn latex_stem(stem: &str) -> String {
    if let Some((_, cmd, _)) = GREEK.iter().find(|(n, _, _)| *n == stem) {
        return String::from(*cmd);
    }
    let escaped = escape_latex(stem);
    if stem.chars().count() == 1 {
        escaped
    } else {
        alloc::format!("\\mathit{{{escaped}}}")
    }
}

/// The Unicode spelling of a stem for MathML: a Greek letter or the name itself.
pub(super) fn unicode_stem(stem: &str) -> String {
    match GREEK.iter().find(|(n, _, _)| *n == stem) {
        Some((_, _, c)) => String::from(*c),
        None => String::from(stem),
    }
}

/// Escapes LaTeX's special characters (names are identifiers, but be safe).
pub(super) fn escape_latex(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\backslash{}"),
            '_' | '{' | '}' | '$' | '%' | '#' | '&' => {
                out.push('\\');
                out.push(c);
            }
            '^' => out.push_str("\\hat{}"),
            '~' => out.push_str("\\sim{}"),
            c if c.is_ascii_alphanumeric() || c == ' ' || c == '.' || c == '-' => out.push(c),
            _ => out.push('?'),
        }
    }
    out
}

/// Escapes text for XML content and attribute values.
pub(super) fn escape_xml(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subscripts() {
        assert_eq!(split_subscript("theta_2"), ("theta", "2"));
        assert_eq!(split_subscript("x12"), ("x", "12"));
        assert_eq!(split_subscript("phi"), ("phi", ""));
        assert_eq!(split_subscript("_a"), ("_a", ""));
    }

    #[test]
    fn dots_and_widths() {
        assert_eq!(split_dots("mudot"), ("mu", 1));
        assert_eq!(split_dots("xdotdot"), ("x", 2));
        assert_eq!(split_dots("dot"), ("dot", 0));
        assert_eq!(split_dots("robot"), ("robot", 0));
        assert!(
            is_multi_letter("Ia") && !is_multi_letter("theta") && !is_multi_letter("x") && !is_multi_letter("mudot")
        );
    }

    #[test]
    fn stems() {
        assert_eq!(latex_stem("phi"), "\\varphi");
        assert_eq!(latex_stem("x"), "x");
        assert_eq!(latex_stem("ab"), "\\mathit{ab}");
        assert_eq!(unicode_stem("omega"), "ω");
        assert_eq!(escape_xml("<a&'\">"), "&lt;a&amp;&#39;&quot;&gt;");
    }
}
