//! The JSON reader (`nhlab::scenario::load_json`, which reads JSON into TOML's tree)
//! against serde_json, which read JSON scenarios before it: the same scenarios from
//! the gallery's texts and from thousands of broken ones, and serde_json's syntax
//! errors in its words at its places.

use nhlab::scenario::{load_json, load_toml, Scenario};
use nhlab_tests::random::Rng;
use nhlab_tests::scenarios::{names, text};

/// Every gallery scenario as JSON, compact and pretty (the pretty form puts the
/// problems on lines of their own), with a byte-order mark on one.
fn gallery_json() -> Vec<(String, String)> {
    let mut out = Vec::new();
    for name in names() {
        let (scenario, _) = load_toml(&text(&name)).unwrap();
        let compact = scenario.to_json().unwrap();
        let value: serde_json::Value = serde_json::from_str(&compact).unwrap();
        out.push((format!("{name} (pretty)"), serde_json::to_string_pretty(&value).unwrap()));
        out.push((name, compact));
    }
    out
}

#[test]
fn every_gallery_scenario_reads_from_json_as_from_toml_and_as_serde_json_read_it() {
    for (name, json) in gallery_json() {
        let from_toml = load_toml(&text(name.trim_end_matches(" (pretty)"))).unwrap().0;
        let (scenario, map) = load_json(&json).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(scenario, from_toml, "{name}");
        assert_eq!(scenario, serde_json::from_str::<Scenario>(&json).unwrap(), "{name}");
        assert!(map.warnings.is_empty(), "{name}: {:?}", map.warnings);
        let bom = format!("\u{feff}{json}");
        assert_eq!(load_json(&bom).unwrap().0, from_toml, "{name} with a byte-order mark");
    }
}

/// A broken copy of `json`: a byte deleted, doubled or replaced by one that JSON
/// gives meaning to, or the text cut short.
fn mutate(r: &mut Rng, json: &str) -> String {
    const BYTES: &[u8] = b"{}[]\":,\\ 0123456789-+.eEntfu/x\n\x01";
    let mut bytes = json.as_bytes().to_vec();
    for _ in 0..1 + r.below(2) {
        let at = r.below(bytes.len());
        match r.below(4) {
            0 => {
                bytes.remove(at);
            }
            1 => bytes.insert(at, bytes[at]),
            2 => bytes[at] = BYTES[r.below(BYTES.len())],
            _ => bytes.truncate(at),
        }
        if bytes.is_empty() {
            break;
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// serde_json's (line, column) as the lab says positions: serde_json counts the
/// column in bytes (0 before the line's first), the lab in characters from 1.
fn serde_position(text: &str, e: &serde_json::Error) -> (usize, usize) {
    let line = text.split_inclusive('\n').nth(e.line() - 1).unwrap_or("");
    let bytes = e.column().saturating_sub(1).min(line.len());
    let before = (0..=bytes).rev().find(|&i| line.is_char_boundary(i)).unwrap_or(0);
    (e.line(), line[..before].chars().count() + 1)
}

#[test]
fn broken_texts_are_refused_as_serde_json_refused_them_with_its_words_at_its_places() {
    let corpus = gallery_json();
    let mut r = Rng::new(39);
    let (mut same_scenario, mut same_syntax_error, mut both_refused) = (0, 0, 0);
    for i in 0..6000 {
        let (name, json) = &corpus[i % corpus.len()];
        let broken = mutate(&mut r, json);
        let ours = load_json(&broken);
        // The verdict on the syntax: serde_json reading any JSON value.
        if let Err(e) = serde_json::from_str::<serde_json::Value>(&broken) {
            let words = e.to_string();
            let words = words.rsplit_once(" at line ").map_or(words.as_str(), |(w, _)| w).to_string();
            let problems = ours.as_ref().err().unwrap_or_else(|| panic!("{name}: accepted {broken:?} ({words})"));
            let first = &problems.0[0];
            // A problem found before the syntax (a key given twice, an array where a
            // table belongs) is said first, as before.
            if first.said.as_ref().is_some_and(|m| m.id == "problem.reader") {
                assert_eq!(first.message, words, "{name}: {broken:?}");
                assert_eq!(first.position, Some(serde_position(&broken, &e)), "{name}: {words} in {broken:?}");
                same_syntax_error += 1;
            }
            continue;
        }
        match (ours, serde_json::from_str::<Scenario>(&broken)) {
            (Ok((a, _)), Ok(b)) => {
                assert_eq!(a, b, "{name}: {broken:?}");
                same_scenario += 1;
            }
            (Err(_), Err(_)) => both_refused += 1,
            (Err(p), Ok(_)) => {
                // Refused where serde_json was silent: a key given twice (it kept the
                // last), an integer beyond 64 bits (it read a float).
                let said = p.0[0].said.as_ref().map(|m| m.id);
                let why = p.0[0].message.as_str();
                let twice = said == Some("problem.key-twice.object");
                assert!(twice || why == "number out of range", "{name}: {p} for {broken:?}");
            }
            (Ok(_), Err(e)) => {
                // Accepted where serde_json refused: `null` for a field with a default.
                assert!(broken.contains("null"), "{name}: {e} for {broken:?}");
            }
        }
    }
    // The corpus reaches each kind of outcome many times.
    assert!(
        same_syntax_error > 3000 && same_scenario > 2000 && both_refused > 5,
        "{same_syntax_error} {same_scenario} {both_refused}"
    );
}

#[test]
fn null_is_a_field_not_given_and_refused_in_a_list() {
    let base =
        r#"{"format": "nhlab/1", "title": "t", "coordinates": ["x"], "kinetic": "x'^2/2", "initial": {"q": {"x": 0}}"#;
    let given = load_json(&format!("{base}}}")).unwrap().0;
    let with_null = load_json(&format!("{base}, \"potential\": null, \"notes\": null}}")).unwrap().0;
    assert_eq!(with_null, given, "an optional field given as null is absent");
    let p = load_json(&format!("{base}, \"run\": {{\"methods\": [\"lagrange\", null]}}}}")).unwrap_err().0;
    assert_eq!(p[0].message, "a list cannot hold `null`: give a value, or leave the item out");
    assert_eq!(p[0].field, "run.methods[1]");
    // A list of many nulls is one problem, found in one pass (each problem looks up
    // its field among all the places: one per null took quadratic time).
    let nulls = vec!["null"; 150_000].join(",");
    let p = load_json(&format!("{base}, \"notes\": [1, {nulls}]}}")).unwrap_err().0;
    assert_eq!((p.len(), p[0].field.as_str()), (1, "notes[1]"));
    let c = |expr: &str| format!("{base}, \"constraints\": [{{\"name\": \"c\"{expr}}}]}}");
    let null = load_json(&c(", \"expr\": null")).unwrap().0;
    assert_eq!(null, load_json(&c("")).unwrap().0, "a field of a table in a list, given as null, is not given");
    let no_title = load_json(&format!("{base}, \"title\": null}}").replace("\"title\": \"t\", ", "")).unwrap().0;
    assert_eq!(no_title.title, "", "a field with a default takes it");
    // Issue 57: a table given as null was "expected a table, found a single value".
    for table in ["view", "parameters", "run", "stability", "definitions"] {
        let null = load_json(&format!("{base}, \"{table}\": null}}")).unwrap_or_else(|p| panic!("{table}: {p:?}")).0;
        assert_eq!(null, given, "{table}: null is the table not given");
    }
    let v =
        load_json(&format!("{}}}", base.replace("{\"q\": {\"x\": 0}}", "{\"q\": {\"x\": 0}, \"v\": null}"))).unwrap().0;
    assert_eq!(v, given, "initial.v: null");
}

#[test]
fn type_errors_point_at_the_value_itself() {
    let json = "{\"format\": \"nhlab/1\",\n \"title\": \"t\",\n \"coordinates\": [\"x\"],\n \"kinetic\": \"x'^2/2\",\n \"initial\": {\"q\": {\"x\": true}}}";
    let p = &load_json(json).unwrap_err().0[0];
    assert_eq!((p.field.as_str(), p.position), ("initial.q.x", Some((5, 25))), "{p}");
    assert_eq!(p.message, "expected a number, found true");
    let p = &load_json(&json.replace("true", "1e999")).unwrap_err().0[0];
    assert_eq!((p.field.as_str(), p.message.as_str()), ("initial.q.x", "number out of range"), "{p}");
    let p = &load_json(&json.replace("\"t\"", "\"t\\x\"")).unwrap_err().0[0];
    assert_eq!((p.field.as_str(), p.message.as_str()), ("title", "invalid escape"), "{p}");
    let p = &load_json("[1, 2]").unwrap_err().0[0];
    assert_eq!(p.message, "expected a table, found a list");
}
