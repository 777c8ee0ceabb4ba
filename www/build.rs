//! Embeds every scenario under `../scenarios/` into the lab's gallery, sorted by
//! file name, so that a new file there appears in the page without code changes;
//! and renders the page's Help from the project's own documents (`../docs/`), so that
//! the help in the page is the reference itself, never a copy that drifts.

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
    // Titles read here, so that the page's gallery menu costs no scenario parse at
    // start (loading all thirty was on the way to an embed's first frame).
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
    let out_dir = std::env::var("OUT_DIR").unwrap();
    std::fs::write(Path::new(&out_dir).join("gallery.rs"), out).unwrap();
    for name in ["reference", "first-system", "lab"] {
        // English in docs/, Chinese in docs/zh/ (its reference is an introduction to
        // the English one, which the page shows after it).
        for (folder, prefix) in [("", ""), ("zh/", "zh-")] {
            let path = Path::new(&manifest).join(format!("../docs/{folder}{name}.md"));
            println!("cargo:rerun-if-changed={}", path.display());
            let markdown = std::fs::read_to_string(&path).expect("the docs folder");
            std::fs::write(Path::new(&out_dir).join(format!("{prefix}{name}.html")), to_html(&markdown)).unwrap();
        }
    }
    write_messages(&manifest, &out_dir);
}

/// The page's catalogues (www/app/i18n/*.json) as sorted tables for the texts the
/// module makes: the keys under `rs.` (its own) and `core.` (the core's message ids).
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
        let path = Path::new(manifest).join(format!("app/i18n/{language}.json"));
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
    std::fs::write(Path::new(out_dir).join("messages.rs"), out).unwrap();
}

/// Markdown to HTML (tables included), each heading with the id GitHub gives it, so
/// that the documents' own `#links` work inside the page's Help as on the forge.
fn to_html(markdown: &str) -> String {
    use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};
    let events: Vec<Event> = Parser::new_ext(markdown, Options::ENABLE_TABLES).collect();
    let mut out = Vec::with_capacity(events.len());
    let mut i = 0;
    while i < events.len() {
        if let Event::Start(Tag::Heading { level, id: None, classes, attrs }) = &events[i] {
            let mut text = String::new();
            for e in &events[i + 1..] {
                match e {
                    Event::End(TagEnd::Heading(_)) => break,
                    Event::Text(t) | Event::Code(t) => text.push_str(t),
                    _ => {}
                }
            }
            out.push(Event::Start(Tag::Heading {
                level: *level,
                id: Some(CowStr::from(slug(&text))),
                classes: classes.clone(),
                attrs: attrs.clone(),
            }));
        } else if events[i] == Event::SoftBreak && joins_cjk(&events, i) {
            // A line break inside Chinese text is no space (it would be one in HTML).
        } else {
            out.push(events[i].clone());
        }
        i += 1;
    }
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, out.into_iter());
    html
}

/// Whether the soft break at `i` falls next to Chinese text (either side).
fn joins_cjk(events: &[pulldown_cmark::Event], i: usize) -> bool {
    use pulldown_cmark::Event;
    let cjk = |c: char| ('\u{2E80}'..='\u{9FFF}').contains(&c) || ('\u{FF00}'..='\u{FFEF}').contains(&c);
    let before = i.checked_sub(1).and_then(|k| match &events[k] {
        Event::Text(t) | Event::Code(t) => t.chars().last(),
        _ => None,
    });
    let after = events.get(i + 1).and_then(|e| match e {
        Event::Text(t) | Event::Code(t) => t.chars().next(),
        _ => None,
    });
    before.is_some_and(cjk) || after.is_some_and(cjk)
}

/// GitHub's heading anchor: lower case, spaces to hyphens, other punctuation dropped.
fn slug(text: &str) -> String {
    text.trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
            _ => None,
        })
        .collect()
}
