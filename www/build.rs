//! Renders the page's Help from the project's own documents (`../docs/`), so that
//! the help in the page is the reference itself, never a copy that drifts. (The
//! gallery and the message catalogues are compiled in by `nhlab-texts`.)

use std::path::Path;

fn main() {
    // Read when the script runs, not baked in when it is compiled: a target folder
    // shared by two checkouts reuses the compiled script.
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let out_dir = std::env::var("OUT_DIR").unwrap();
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
