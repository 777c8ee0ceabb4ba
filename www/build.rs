//! Embeds every scenario under `../scenarios/` into the lab's gallery, sorted by
//! file name, so that a new file there appears in the page without code changes.

use std::fmt::Write;
use std::path::Path;

fn main() {
    // Read when the script runs, not baked in when it is compiled: a target folder
    // shared by two checkouts reuses the compiled script.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let dir = Path::new(&manifest).join("../scenarios");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("the scenarios folder")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    names.sort();
    let mut out = String::from("/// Every scenario file: (name, TOML text).\npub static FILES: &[(&str, &str)] = &[\n");
    for n in &names {
        let path = dir.join(n);
        println!("cargo:rerun-if-changed={}", path.display());
        writeln!(out, "    ({:?}, include_str!({:?})),", n.trim_end_matches(".toml"), path.display().to_string())
            .unwrap();
    }
    out.push_str("];\n");
    let target = Path::new(&std::env::var("OUT_DIR").unwrap()).join("gallery.rs");
    std::fs::write(target, out).unwrap();
}
