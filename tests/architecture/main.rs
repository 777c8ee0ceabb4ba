//! The project's shape, held by tests: the core's layers (every `crate::` path in
//! `crate/src`, outside comments and test modules, goes from a module to one beneath
//! it in the order of `crate/src/lib.rs`'s doc comment, never sideways or up; a new
//! module must be given its place here, and an upward edge fails with the files that
//! make it), the size of a source file, and that every test fixture is read.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The core's top-level modules, lowest first; modules of one rank may not use
/// each other.
const LAYERS: &[&[&str]] = &[
    // The leaves: float functions and linear algebra, the sizes the lab supports,
    // "did you mean".
    &["math", "limits", "suggest"],
    // The words a user reads, with their ids.
    &["message"],
    &["expr"],
    &["scenario"],
    &["mechanics"],
    &["formulations"],
    &["integrators"],
    &["simulation"],
    // On top: each uses the layers, none another.
    &["prepare", "stability", "derivation", "view", "scene", "export", "code_export"],
];

fn rank(module: &str) -> Option<usize> {
    LAYERS.iter().position(|layer| layer.contains(&module))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The text of a source file that is code: line comments and doc comments out, and
/// everything from a `#[cfg(test)]` module on (test modules close the files here).
fn code(text: &str) -> String {
    let body = match text.find("#[cfg(test)]\nmod ") {
        Some(at) => &text[..at],
        None => text,
    };
    body.lines().map(|line| line.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// The top-level modules a piece of code names through `crate::` (paths and
/// `use crate::{a, b::c}` groups).
fn named_modules(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("crate::") {
        let after = &rest[at + "crate::".len()..];
        if let Some(group) = after.strip_prefix('{') {
            let inner = &group[..group.find('}').unwrap_or(group.len())];
            for item in inner.split(',') {
                let name: String = item.trim().chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                if !name.is_empty() {
                    out.push(name);
                }
            }
        } else {
            let name: String = after.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
            out.push(name);
        }
        rest = after;
    }
    out
}

/// Every edge `from → to` between top-level modules, with the files that make it.
fn edges(src: &Path) -> BTreeMap<(String, String), Vec<String>> {
    let mut files = Vec::new();
    rust_files(src, &mut files);
    let mut out: BTreeMap<(String, String), Vec<String>> = BTreeMap::new();
    for file in files {
        let relative = file.strip_prefix(src).unwrap().to_string_lossy().into_owned();
        if relative == "lib.rs" {
            continue;
        }
        let module = relative.split('/').next().unwrap().trim_end_matches(".rs").to_string();
        for to in named_modules(&code(&std::fs::read_to_string(&file).unwrap())) {
            // `crate::Format` and the like: the root's re-exports, not a module.
            if to != module && to.chars().next().is_some_and(|c| c.is_ascii_lowercase()) {
                out.entry((module.clone(), to)).or_default().push(relative.clone());
            }
        }
    }
    out
}

#[test]
fn every_path_of_the_core_goes_down_its_layers() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../crate/src");
    let edges = edges(&src);
    assert!(edges.len() > 40, "the walk found the core's edges ({})", edges.len());
    let mut wrong = Vec::new();
    for ((from, to), files) in &edges {
        let (Some(a), Some(b)) = (rank(from), rank(to)) else {
            wrong.push(format!("{from} → {to}: give each module its place in LAYERS"));
            continue;
        };
        if b >= a {
            let mut files = files.clone();
            files.dedup();
            wrong.push(format!("{from} → {to} ({})", files.join(", ")));
        }
    }
    assert!(wrong.is_empty(), "paths that do not go down the layers:\n{}", wrong.join("\n"));
    // Every module of lib.rs has a place.
    let lib = std::fs::read_to_string(src.join("lib.rs")).unwrap();
    for line in lib.lines().filter_map(|l| l.strip_prefix("pub mod ")) {
        let module = line.trim_end_matches(';');
        assert!(rank(module).is_some(), "{module} has no place in LAYERS");
    }
}

/// The walk itself, on made-up code: it sees paths and groups, skips comments and
/// test modules.
#[test]
fn the_walk_reads_paths_groups_and_skips_comments_and_tests() {
    let text = "use crate::expr::X;\nuse crate::{math, scenario::Y};\n// crate::simulation\n/// [`crate::view`]\nfn f() { crate::limits::check() }\n#[cfg(test)]\nmod tests { use crate::stability; }\n";
    assert_eq!(named_modules(&code(text)), ["expr", "math", "scenario", "limits"]);
}

/// Every source file of the project (Rust, JavaScript, Python, shell) under this
/// many lines: a file past it holds several concepts (issue 59) and is cut by
/// concept, as `mechanics/bodies/` and `simulation/` are.
const MAX_LINES: usize = 700;

fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy();
        if path.is_dir() {
            // Built, installed or fetched: not the project's own.
            if !name.starts_with('.') && !["target", "node_modules", "dist", "__pycache__"].contains(&name.as_ref()) {
                source_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| ["rs", "js", "mjs", "py", "sh"].contains(&e.to_str().unwrap_or("")))
        {
            out.push(path);
        }
    }
}

#[test]
fn no_source_file_is_longer_than_the_limit() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    source_files(&root, &mut files);
    assert!(files.len() > 200, "the walk found the project's files ({})", files.len());
    let long: Vec<String> = files
        .iter()
        .filter_map(|f| {
            let lines = std::fs::read_to_string(f).ok()?.lines().count();
            (lines > MAX_LINES).then(|| format!("{} ({lines} lines)", f.strip_prefix(&root).unwrap().display()))
        })
        .collect();
    assert!(long.is_empty(), "files over {MAX_LINES} lines:\n{}", long.join("\n"));
}

/// Every scenario the tests load from a fixture file (`tests/fixtures/`,
/// `cli/tests/fixtures/`) is named by some test: a fixture no test reads is dead
/// weight that looks like coverage.
#[test]
fn every_fixture_is_read_by_a_test() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut tests = Vec::new();
    source_files(&root.join("tests"), &mut tests);
    source_files(&root.join("cli/tests"), &mut tests);
    let texts: Vec<String> = tests.iter().filter_map(|f| std::fs::read_to_string(f).ok()).collect();
    let mut fixtures = 0;
    for dir in ["tests/fixtures", "cli/tests/fixtures"] {
        for entry in std::fs::read_dir(root.join(dir)).unwrap() {
            let name = entry.unwrap().file_name().to_string_lossy().into_owned();
            let read = format!("fixtures/{name}\")");
            assert!(texts.iter().any(|t| t.contains(&read)), "{dir}/{name} is read by no test");
            fixtures += 1;
        }
    }
    assert!(fixtures > 10, "the walk found the fixtures ({fixtures})");
}
