//! The Chinese texts keep to the glossary (`docs/glossary.md`): no string of the
//! catalogue (`www/app/i18n/zh.json`, which holds the core's messages too) and no line
//! of the Chinese docs (`docs/zh/`) uses a word the glossary's column "not" rules
//! out, and every term of the glossary is used somewhere.

use std::path::{Path, PathBuf};

/// One row of the glossary: the English term, its Chinese term, the words not used.
struct Term {
    english: String,
    chinese: String,
    not: Vec<String>,
}

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The table's rows: `| English | 中文 | not | note |`, the words in backticks.
fn glossary(text: &str) -> Vec<Term> {
    text.lines()
        .filter(|line| line.starts_with("| ") && !line.starts_with("| English"))
        .map(|line| {
            let cells: Vec<&str> = line.trim().trim_matches('|').split('|').map(str::trim).collect();
            assert!(cells.len() == 4, "a glossary row has four cells: {line}");
            let not = cells[2].split('`').skip(1).step_by(2).map(str::to_owned).collect();
            Term { english: cells[0].to_owned(), chinese: cells[1].trim_end_matches('…').to_owned(), not }
        })
        .collect()
}

/// Every Chinese text, each with where it is: `zh.json: key` or `docs/zh/file.md:line`.
fn chinese_texts() -> Vec<(String, String)> {
    let catalogue = std::fs::read_to_string(root().join("www/app/i18n/zh.json")).expect("zh.json");
    let catalogue: serde_json::Map<String, serde_json::Value> =
        serde_json::from_str(&catalogue).expect("zh.json is JSON");
    let mut texts: Vec<(String, String)> = catalogue
        .iter()
        .map(|(key, value)| (format!("zh.json: {key}"), value.as_str().unwrap_or_default().to_owned()))
        .collect();
    let mut docs: Vec<PathBuf> =
        std::fs::read_dir(root().join("docs/zh")).expect("docs/zh").map(|e| e.expect("entry").path()).collect();
    docs.sort();
    for doc in docs.iter().filter(|p| p.extension().is_some_and(|e| e == "md")) {
        let name = doc.file_name().unwrap_or_default().to_string_lossy().into_owned();
        for (k, line) in std::fs::read_to_string(doc).expect("a doc").lines().enumerate() {
            texts.push((format!("docs/zh/{name}:{}", k + 1), line.to_owned()));
        }
    }
    texts
}

#[test]
fn the_chinese_texts_keep_to_the_glossary() {
    let terms = glossary(&std::fs::read_to_string(root().join("docs/glossary.md")).expect("docs/glossary.md"));
    assert!(terms.len() >= 20, "the glossary has its terms ({})", terms.len());
    let texts = chinese_texts();
    assert!(texts.len() > 400, "the catalogue and the docs are read ({})", texts.len());
    let mut wrong = Vec::new();
    for term in &terms {
        for word in &term.not {
            for (place, text) in texts.iter().filter(|(_, text)| text.contains(word.as_str())) {
                wrong.push(format!(
                    "{place}: `{word}` where the glossary says {} for {}: {text}",
                    term.chinese, term.english
                ));
            }
        }
        if !texts.iter().any(|(_, text)| text.contains(term.chinese.as_str())) {
            wrong.push(format!("{} ({}) is in the glossary and used nowhere", term.chinese, term.english));
        }
    }
    assert!(wrong.is_empty(), "{} departures from docs/glossary.md:\n{}", wrong.len(), wrong.join("\n"));
}

#[test]
fn the_glossary_reader_finds_rows_and_their_words() {
    let rows = glossary("| English | 中文 | not · 不用 | note |\n|---|---|---|---|\n| scene | 场景图 | `a`, `b c` | x |\n| PNG of | PNG：… | | |\n");
    assert_eq!(rows.len(), 2);
    assert_eq!((rows[0].chinese.as_str(), rows[0].not.clone()), ("场景图", vec!["a".to_owned(), "b c".to_owned()]));
    assert_eq!((rows[1].chinese.as_str(), rows[1].not.len()), ("PNG：", 0));
}
