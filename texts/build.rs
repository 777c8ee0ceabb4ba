//! Embeds every scenario under `../scenarios/` (sorted by file name, titles read
//! here so that a gallery menu costs no parse) and compiles the page's catalogues
//! (`../www/app/i18n/*.json`) into sorted tables.

use std::fmt::Write;
use std::path::Path;

fn main() {
    // Read when the script runs, not baked in when it is compiled: a target folder
    // shared by two checkouts reuses the compiled script.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let out_dir = std::env::var("OUT_DIR").expect("cargo sets OUT_DIR");
    write_gallery(&manifest, &out_dir);
    write_messages(&manifest, &out_dir);
}

/// `gallery.rs`: `FILES`, every scenario file as (name, TOML text, title).
fn write_gallery(manifest: &str, out_dir: &str) {
    let dir = Path::new(manifest).join("../scenarios");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("the scenarios folder")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".toml"))
        .collect();
    names.sort();
    let mut out = String::from(
        "/// Every scenario file: (name, TOML text, title).\npub static FILES: &[(&str, &str, &str)] = &[\n",
    );
    for n in &names {
        let path = dir.join(n);
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(&path).expect("a scenario file");
        let table: toml::Table = text.parse().unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let title = table.get("title").and_then(|t| t.as_str()).unwrap_or_else(|| n.trim_end_matches(".toml"));
        let name = n.trim_end_matches(".toml");
        writeln!(out, "    ({name:?}, include_str!({:?}), {title:?}),", path.display().to_string()).unwrap();
    }
    out.push_str("];\n");
    std::fs::write(Path::new(out_dir).join("gallery.rs"), out).expect("the gallery's index");
}

/// `messages.rs`: the catalogues' keys under `rs.` (texts made in Rust) and `core.`
/// (the core's message ids), sorted, one table a language.
///
/// For WebAssembly the English table leaves out the `core.` keys: an English core
/// message is the core's own text (`Message::english`, which `i18n::message` returns
/// and the native tests hold equal to en.json's), so each module would carry it twice
/// (39 KB raw).
fn write_messages(manifest: &str, out_dir: &str) {
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").is_ok_and(|arch| arch == "wasm32");
    let mut out = String::new();
    for (language, table) in [("en", "EN"), ("zh", "ZH")] {
        let keep = |id: &str| id.starts_with("rs.") || (id.starts_with("core.") && !(wasm && language == "en"));
        let path = Path::new(manifest).join(format!("../www/app/i18n/{language}.json"));
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(&path).expect("the page's catalogues");
        let all: std::collections::BTreeMap<String, String> =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        writeln!(out, "/// The `{language}` catalogue's `rs.` and `core.` messages, sorted by id.").unwrap();
        writeln!(out, "pub static {table}: &[(&str, &str)] = &[").unwrap();
        for (id, text) in all.iter().filter(|(id, _)| keep(id)) {
            writeln!(out, "    ({id:?}, {text:?}),").unwrap();
        }
        out.push_str("];\n");
    }
    // The word list for names (see `i18n::name`), sorted by its English.
    let path = Path::new(manifest).join("../www/app/i18n/words.zh.json");
    println!("cargo:rerun-if-changed={}", path.display());
    let text = std::fs::read_to_string(&path).expect("the word list");
    let words: std::collections::BTreeMap<String, String> =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    out.push_str("/// The names the page shows in Chinese (`words.zh.json`), sorted.\npub static WORDS_ZH: &[(&str, &str)] = &[\n");
    for (english, chinese) in &words {
        writeln!(out, "    ({english:?}, {chinese:?}),").unwrap();
    }
    out.push_str("];\n");
    std::fs::write(Path::new(out_dir).join("messages.rs"), out).expect("the message tables");
}
