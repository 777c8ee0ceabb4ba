//! The gallery's files: every scenario under `scenarios/`, sorted by file name
//! (build.rs), so that a new file there appears in every front end without code
//! changes.

mod files {
    include!(concat!(env!("OUT_DIR"), "/gallery.rs"));
}

pub use files::FILES;

/// The TOML text of the item `name` (its file name without `.toml`).
pub fn text(name: &str) -> Option<&'static str> {
    FILES.iter().find(|(n, ..)| *n == name).map(|(_, t, _)| *t)
}

/// Every item's name, sorted.
pub fn names() -> impl Iterator<Item = &'static str> {
    FILES.iter().map(|(n, ..)| *n)
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_scenario_file_is_embedded_once_in_order() {
        let mut on_disk: Vec<String> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../scenarios"))
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".toml"))
            .collect();
        on_disk.sort();
        let names: Vec<String> = super::names().map(|n| format!("{n}.toml")).collect();
        assert_eq!(names, on_disk);
        assert!(super::text("chaplygin-sleigh").is_some_and(|t| t.contains("nhlab/1")));
        assert_eq!(super::text("no-such-item"), None);
    }
}
