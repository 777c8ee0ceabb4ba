//! "Did you mean …" for unknown names: the nearest candidates by edit distance.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// Levenshtein distance between two short strings (case-insensitive, by character).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().flat_map(char::to_lowercase).collect();
    let b: Vec<char> = b.chars().flat_map(char::to_lowercase).collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = alloc::vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let subst = prev[j] + usize::from(ca != cb);
            cur[j + 1] = subst.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        core::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// Up to three candidates close to `name`, nearest first (ties by name). A
/// candidate is close when at most a third of its letters (and at least one) differ.
pub fn nearest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    if name.len() > 64 {
        return Vec::new();
    }
    let mut scored: Vec<(usize, &str)> = candidates
        .into_iter()
        .filter(|c| c.len() <= 64)
        .map(|c| (edit_distance(name, c), c))
        .filter(|&(d, c)| d <= (name.len().max(c.len()) / 3).max(1))
        .collect();
    scored.sort();
    scored.dedup();
    scored.into_iter().take(3).map(|(_, c)| c.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(edit_distance("phi", "phi"), 0);
        assert_eq!(edit_distance("ph", "phi"), 1);
        assert_eq!(edit_distance("Phi", "phi"), 0);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn nearest_names_first() {
        let names = ["phi", "psi", "alpha", "x"];
        assert_eq!(nearest("ph", names), ["phi"]);
        assert_eq!(nearest("pci", names), ["phi", "psi"]);
        assert!(nearest("zzzzzz", names).is_empty());
    }
}
