//! "Did you mean …" for unknown names: the nearest candidates by edit distance.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// Edit distance between two short strings, case-insensitive, counting an
/// insertion, deletion, substitution or swap of neighbours as one edit (optimal
/// string alignment: `alpah → alpha` is one edit).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().flat_map(char::to_lowercase).collect();
    let b: Vec<char> = b.chars().flat_map(char::to_lowercase).collect();
    let width = b.len() + 1;
    let mut d = alloc::vec![0usize; (a.len() + 1) * width];
    for i in 0..=a.len() {
        d[i * width] = i;
    }
    for (j, cell) in d.iter_mut().enumerate().take(width) {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best =
                (d[(i - 1) * width + j] + 1).min(d[i * width + j - 1] + 1).min(d[(i - 1) * width + j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(d[(i - 2) * width + j - 2] + 1);
            }
            d[i * width + j] = best;
        }
    }
    d[a.len() * width + b.len()]
}

/// Up to three candidates close to `name`, nearest first (ties by name). A
/// candidate is close when at most a third of the letters of the longer of the two
/// differ, and one edit always counts as close once a name has two letters:
/// `ph → phi`, `xx → x`, `sine → sin`. Two one-letter names are never close (every
/// other one-letter name would be noise).
pub fn nearest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    if name.len() > 64 {
        return Vec::new();
    }
    let mut scored: Vec<(usize, &str)> = candidates
        .into_iter()
        .filter(|c| c.len() <= 64)
        .map(|c| (edit_distance(name, c), c))
        .filter(|&(d, c)| {
            let longer = name.len().max(c.len());
            d <= if longer >= 2 { (longer / 3).max(1) } else { 0 }
        })
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
        assert_eq!(edit_distance("alpah", "alpha"), 1);
        assert_eq!(edit_distance("", "ab"), 2);
    }

    #[test]
    fn nearest_names_first() {
        let names = ["phi", "psi", "alpha", "x"];
        assert_eq!(nearest("ph", names), ["phi"]);
        assert_eq!(nearest("pci", names), ["phi", "psi"]);
        assert!(nearest("zzzzzz", names).is_empty());
        assert!(nearest("g", names).is_empty());
        assert_eq!(nearest("xx", names), ["x"]);
    }
}
