//! Mutations of scenario texts for the fuzz suites (`tests/fuzz`, and the command
//! line's `cli/tests/fuzz.rs`): byte-level edits, and grammar-aware ones that replace
//! values by values of the right or the wrong kind and delete, duplicate or swap lines.

use crate::random::{Rng, Tree};

const ALPHABET: &[u8] = b" \n\t\"'[]{}=,.:+-*/^()#0123456789eE_xyzqphiabkmnt\\";

/// Random byte-level edits of `text` (kept valid UTF-8 by editing bytes of the
/// ASCII alphabet and cutting at character boundaries).
pub fn mutate_bytes(rng: &mut Rng, text: &str) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for _ in 0..1 + rng.below(6) {
        let at = if bytes.is_empty() { 0 } else { rng.below(bytes.len()) };
        match rng.below(5) {
            0 => bytes.insert(at, ALPHABET[rng.below(ALPHABET.len())]),
            1 if !bytes.is_empty() => {
                bytes.remove(at);
            }
            2 if !bytes.is_empty() => bytes[at] = ALPHABET[rng.below(ALPHABET.len())],
            3 if !bytes.is_empty() => {
                let end = (at + 1 + rng.below(40)).min(bytes.len());
                let span = bytes[at..end].to_vec();
                let to = rng.below(bytes.len());
                bytes.splice(to..to, span);
            }
            _ if !bytes.is_empty() => {
                let end = (at + 1 + rng.below(20)).min(bytes.len());
                bytes.drain(at..end);
            }
            _ => {}
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A random value for a scenario field: often of the right kind, sometimes not.
pub fn random_value(rng: &mut Rng) -> String {
    match rng.below(14) {
        0..=4 => {
            let depth = 1 + rng.below(4);
            format!("\"{}\"", Tree::random(rng, depth).text())
        }
        5 => ["1e308", "-1e308", "1e-320", "0", "-0.0", "nan", "inf", "-inf", "1e300"][rng.below(9)].to_string(),
        6 => format!("{}", rng.range(-100.0, 100.0)),
        7 => {
            let n = rng.below(4);
            format!("[{}]", (0..n).map(|_| random_value(rng)).collect::<Vec<_>>().join(", "))
        }
        8 => format!("{{ x = {} }}", rng.range(-5.0, 5.0)),
        9 => "\"\"".into(),
        10 => {
            let n = rng.below(300);
            format!("\"{}\"", "x*".repeat(n) + "1")
        }
        11 => "true".into(),
        12 => format!("\"{}\"", ["x''", "y'''", "sin(", "1/0", "sqrt(-1)", "atan2(x)", "é", "x ^ ^ 2"][rng.below(8)]),
        _ => format!("{}", rng.below(10)),
    }
}

/// A gallery scenario with grammar-aware edits: values replaced, lines deleted,
/// duplicated or swapped.
pub fn mutate_scenario(rng: &mut Rng, text: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    for _ in 0..1 + rng.below(4) {
        if lines.is_empty() {
            break;
        }
        let at = rng.below(lines.len());
        match rng.below(6) {
            0..=2 => {
                if let Some((key, _)) = lines[at].split_once(" = ") {
                    lines[at] = format!("{key} = {}", random_value(rng));
                }
            }
            3 => {
                lines.remove(at);
            }
            4 => {
                let copy = lines[at].clone();
                let to = rng.below(lines.len());
                lines.insert(to, copy);
            }
            _ => {
                let other = rng.below(lines.len());
                lines.swap(at, other);
            }
        }
    }
    lines.join("\n")
}

/// One or two values of a gallery scenario replaced by values of the same kind: a
/// number by another (extreme ones too), an expression by a random expression. Most
/// such models still load, so the later stages (derive, run) get exercised.
pub fn mutate_values(rng: &mut Rng, text: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    for _ in 0..1 + rng.below(2) {
        let at = rng.below(lines.len());
        let Some((key, value)) = lines[at].split_once(" = ") else { continue };
        let key = key.to_string();
        let value = value.trim();
        let new = if value.starts_with('"') && !key.contains("name") && !key.contains("title") {
            let depth = 1 + rng.below(3);
            format!("\"{}\"", Tree::random(rng, depth).text())
        } else if value.parse::<f64>().is_ok() {
            match rng.below(4) {
                0 => ["1e300", "1e-300", "0", "-1e6", "1e6"][rng.below(5)].to_string(),
                _ => format!("{}", rng.range(-10.0, 10.0)),
            }
        } else {
            continue;
        };
        lines[at] = format!("{key} = {new}");
    }
    lines.join("\n")
}
