//! The gallery: every scenario under `scenarios/`, embedded at build time
//! ([`nhlab_texts::gallery`]), as the page's menu lists it.

use nhlab_texts::gallery::FILES;

/// The item the page opens on: the Chaplygin sleigh, with `lagrange`, `hamel` and
/// `gauss` overlaid. Hamel's embedding is wrong for the sleigh (its E-vector is not
/// zero): its motion leaves the true one at once and stops where its split turns
/// singular, which is the lab's lesson in one picture.
pub const DEFAULT: &str = "chaplygin-sleigh";

/// One gallery item's card.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Entry {
    /// File name without `.toml`: the `#gallery=` name.
    pub name: &'static str,
    /// Title (read by build.rs).
    pub title: &'static str,
    /// The gallery's section: the classics, or the paper whose worked examples it is.
    pub group: &'static str,
}

/// The section of item `name`, from its file name's prefix: `paper000` (Hamel's
/// embedding and the E-vector, Zhao, Zhao & Jiang 2017), `paper001` (variable mass,
/// Ge & Cheng 1982) or `classic`; the page names them (`gallery.group.<id>`).
fn group(name: &str) -> &'static str {
    if name.starts_with("paper000-") {
        "paper000"
    } else if name.starts_with("paper001-") {
        "paper001"
    } else {
        "classic"
    }
}

/// Every item, sorted by name.
pub fn entries() -> Vec<Entry> {
    FILES.iter().map(|&(name, _, title)| Entry { name, title, group: group(name) }).collect()
}

/// The TOML text of the item `name`.
pub fn text(name: &str) -> Option<&'static str> {
    nhlab_texts::gallery::text(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scenario_file_is_in_the_gallery_and_runs() {
        let on_disk = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios"))
            .unwrap()
            .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "toml"))
            .count();
        let entries = entries();
        assert_eq!(entries.len(), on_disk);
        assert!(entries.iter().any(|e| e.name == DEFAULT));
        for e in entries {
            let lab = crate::lab::Lab::new(text(e.name).unwrap());
            assert!(lab.is_ok(), "{}: {:?}", e.name, lab.err());
            assert!(!e.title.is_empty() && e.title != e.name, "{} has a title", e.name);
            // The title build.rs read is the one the scenario loads with.
            let (s, _) = nhlab::scenario::load_toml(text(e.name).unwrap()).unwrap();
            assert_eq!(e.title, s.title, "{}", e.name);
        }
    }

    /// Each item says in one line, under its title, what is on the screen and what
    /// to try (the page's first words about a system).
    #[test]
    fn every_gallery_item_has_a_one_line_hint() {
        for e in entries() {
            let (s, _) = nhlab::scenario::load_toml(text(e.name).unwrap()).unwrap();
            let hint = s.hint.unwrap_or_default();
            assert!((20..=120).contains(&hint.chars().count()) && !hint.contains('\n'), "{}: {hint:?}", e.name);
        }
    }
}
