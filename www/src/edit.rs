//! Edits of the editor's TOML in place: the sliders, fields and menus change one
//! value each and leave every comment, order and blank line as the author wrote them
//! (toml_edit), so the text stays the single source of truth of the page.

use toml_edit::{DocumentMut, InlineTable, Item, Table, TableLike, Value};

/// What to put at a path.
pub enum Edit<'a> {
    /// A number.
    Number(f64),
    /// A string.
    Text(&'a str),
    /// An array of strings.
    List(&'a [String]),
    /// Nothing: the key is removed (an omitted velocity is solved from the constraints).
    Remove,
}

/// Whether two scenario texts say the same of themselves: their `title`,
/// `description` and `hint`, which a gallery item's translation replaces (issue 60:
/// one slider moved turned a Chinese page's title, hint and description English,
/// though only a value had changed). False where either is not TOML.
pub fn same_words(a: &str, b: &str) -> bool {
    let words = |text: &str| -> Option<[Option<String>; 3]> {
        let doc: DocumentMut = text.parse().ok()?;
        Some(["title", "description", "hint"].map(|k| doc.get(k).and_then(Item::as_str).map(str::to_string)))
    };
    matches!((words(a), words(b)), (Some(x), Some(y)) if x == y)
}

/// Applies `edit` at the dotted `path` (`parameters.m`, `initial.v.phi`, `run.methods`)
/// and returns the new text. Fails only when the text is not TOML.
pub fn apply(text: &str, path: &str, edit: Edit) -> Result<String, String> {
    if matches!(edit, Edit::Number(x) if !x.is_finite()) {
        return Err(format!("{path}: a number must be finite"));
    }
    let mut doc: DocumentMut =
        text.parse().map_err(|e: toml_edit::TomlError| format!("the scenario text is not valid TOML: {e}"))?;
    let keys: Vec<&str> = path.split('.').collect();
    let (last, parents) = keys.split_last().ok_or("an empty path")?;
    let mut table: &mut dyn TableLike = doc.as_table_mut();
    let mut inline = false;
    for (depth, key) in parents.iter().enumerate() {
        if table.get(key).and_then(Item::as_table_like).is_none() {
            if matches!(edit, Edit::Remove) {
                return Ok(doc.to_string());
            }
            // New top-level tables get a header; deeper ones stay inline (`q = { … }`).
            let fresh = if depth == 0 { Item::Table(Table::new()) } else { Item::Value(InlineTable::new().into()) };
            table.insert(key, fresh);
        }
        let item = table.get_mut(key).ok_or("not a table")?;
        inline = item.is_value();
        table = item.as_table_like_mut().ok_or("not a table")?;
    }
    // A parameter written as a table (`g = { value = 9.81, min = 0, … }`): a number
    // goes to its `value`, the range and unit stay.
    if let (Edit::Number(x), Some(entry)) = (&edit, table.get_mut(last).and_then(Item::as_table_like_mut)) {
        let mut value: Value = (*x).into();
        if let Some(old) = entry.get("value").and_then(Item::as_value) {
            *value.decor_mut() = old.decor().clone();
        }
        entry.insert("value", Item::Value(value));
        return Ok(doc.to_string());
    }
    let mut value: Value = match edit {
        Edit::Number(x) => x.into(),
        Edit::Text(s) => s.into(),
        Edit::List(items) => items.iter().map(String::as_str).collect::<toml_edit::Array>().into(),
        Edit::Remove => {
            table.remove(last);
            return Ok(doc.to_string());
        }
    };
    // Keep the old value's surrounding spaces and trailing comment.
    if let Some(old) = table.get(last).and_then(Item::as_value) {
        *value.decor_mut() = old.decor().clone();
    }
    table.insert(last, Item::Value(value));
    if inline {
        table.fmt(); // `{ a = 1, b = 2 }` spacing after an insertion
    }
    Ok(doc.to_string())
}

/// Adds to `[compare]` a parameter set holding every parameter's value as the text
/// gives it now, named `set k` (the first free `k`): the run with these values stays
/// overlaid while the sliders move on. Returns the new text and the set's name.
pub fn keep_parameters(text: &str) -> Result<(String, String), String> {
    let mut doc: DocumentMut =
        text.parse().map_err(|e: toml_edit::TomlError| format!("the scenario text is not valid TOML: {e}"))?;
    let number = |v: &Value| v.as_float().or_else(|| v.as_integer().map(|i| i as f64));
    let values: Vec<(String, f64)> = doc
        .get("parameters")
        .and_then(Item::as_table_like)
        .map(|t| {
            t.iter()
                .filter_map(|(key, item)| {
                    let value = match item.as_value() {
                        Some(v) if !v.is_inline_table() => number(v),
                        _ => item.as_table_like()?.get("value")?.as_value().and_then(number),
                    };
                    Some((key.to_string(), value?))
                })
                .collect()
        })
        .unwrap_or_default();
    if values.is_empty() {
        return Err("the scenario has no parameters to compare".into());
    }
    if doc.get("compare").is_some_and(|c| c.as_table_like().is_none()) {
        return Err("`compare` is not a table".into());
    }
    let compare = doc.entry("compare").or_insert_with(|| {
        let mut t = Table::new();
        t.set_implicit(true);
        Item::Table(t)
    });
    let compare = compare.as_table_like_mut().ok_or("`compare` is not a table")?;
    let limit = nhlab::scenario::MAX_COMPARE_SETS;
    if compare.len() >= limit {
        return Err(format!("at most {limit} parameter sets: remove one from [compare] first"));
    }
    let name = (1..).map(|k| format!("set {k}")).find(|n| !compare.contains_key(n)).unwrap_or_default();
    let mut set = Table::new();
    for (key, value) in values {
        set.insert(&key, Item::Value(value.into()));
    }
    compare.insert(&name, Item::Table(set));
    Ok((doc.to_string(), name))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = "# a comment\ntitle = \"t\"\n\n[parameters]\nm = 1.0   # mass\n\n[initial]\nq = { x = 0, phi = 0 }\nv = { phi = 2 }\n";

    #[test]
    fn numbers_change_in_place_keeping_comments() {
        let out = apply(TEXT, "parameters.m", Edit::Number(2.5)).unwrap();
        assert!(out.contains("m = 2.5   # mass"), "{out}");
        assert!(out.starts_with("# a comment\n"));
        let out = apply(&out, "initial.q.x", Edit::Number(-1.0)).unwrap();
        assert!(out.contains("q = { x = -1.0, phi = 0 }"), "{out}");
    }

    #[test]
    fn missing_tables_and_keys_are_created() {
        let out = apply(TEXT, "initial.v.x", Edit::Number(1.0)).unwrap();
        assert!(out.contains("v = { phi = 2, x = 1.0 }"), "{out}");
        let out = apply(TEXT, "run.methods", Edit::List(&["lagrange".into(), "hamel".into()])).unwrap();
        assert!(out.contains("[run]\nmethods = [\"lagrange\", \"hamel\"]"), "{out}");
        let out = apply(&out, "run.integrator", Edit::Text("rk4")).unwrap();
        assert!(out.contains("integrator = \"rk4\""), "{out}");
    }

    #[test]
    fn a_parameter_table_keeps_its_range_and_unit() {
        let text = "[parameters]\ng = { value = 9.81, min = 0, max = 20, unit = \"m/s^2\" } # gravity\n";
        let out = apply(text, "parameters.g", Edit::Number(3.5)).unwrap();
        assert_eq!(out, "[parameters]\ng = { value = 3.5, min = 0, max = 20, unit = \"m/s^2\" } # gravity\n");
        let text = "[parameters.g]\nvalue = 9.81 # here\nmax = 20\n";
        let out = apply(text, "parameters.g", Edit::Number(1.0)).unwrap();
        assert_eq!(out, "[parameters.g]\nvalue = 1.0 # here\nmax = 20\n");
    }

    #[test]
    fn removing_solves_a_velocity_again() {
        let out = apply(TEXT, "initial.v.phi", Edit::Remove).unwrap();
        assert!(out.contains("v = {"), "{out}");
        assert!(!out.contains("phi = 2"), "{out}");
        assert_eq!(apply(TEXT, "nothing.here", Edit::Remove).unwrap(), TEXT);
    }

    #[test]
    fn kept_parameters_become_a_set_that_runs_beside_the_scenario() {
        let text = crate::gallery::text("chaplygin-sleigh").unwrap();
        let (kept, name) = keep_parameters(text).unwrap();
        assert_eq!(name, "set 1");
        assert!(kept.starts_with(text.trim_end()), "the author's text is kept as written");
        // The sliders move on: the set keeps the old values.
        let moved = apply(&kept, "parameters.m", Edit::Number(2.0)).unwrap();
        let lab = crate::lab::Lab::new(&moved).unwrap();
        let per_method = lab.scenario().run.method_ids().len();
        assert_eq!(lab.runs().len(), 2 * per_method, "each method with the scenario's values and with the set's");
        assert_eq!(lab.set_labels(), ["set 1: m = 1"]);
        let (again, second) = keep_parameters(&moved).unwrap();
        assert_eq!(second, "set 2");
        let (three, _) = keep_parameters(&again).unwrap();
        let refused = keep_parameters(&three).unwrap_err();
        assert!(refused.contains("at most 3"), "{refused}");
        assert!(keep_parameters("title = \"no parameters\"\n").unwrap_err().contains("no parameters"));
        // An inline `compare = { … }` takes the new set inline.
        let inline = format!("compare = {{ heavy = {{ m = 2 }} }}\n{text}");
        let (kept, name) = keep_parameters(&inline).unwrap();
        assert_eq!(name, "set 1");
        assert_eq!(crate::lab::Lab::new(&kept).unwrap().set_labels().len(), 2);
        let cleared = apply(&again, "compare", Edit::Remove).unwrap();
        assert_eq!(crate::lab::Lab::new(&cleared).unwrap().runs().len(), per_method);
    }

    #[test]
    fn the_words_are_the_same_whatever_values_change() {
        let text = crate::gallery::text("rolling-disk").unwrap();
        let slid = apply(text, "parameters.g", Edit::Number(9.7)).unwrap();
        assert!(same_words(text, &slid));
        for key in ["title", "description", "hint"] {
            let renamed = apply(text, key, Edit::Text("my own words")).unwrap();
            assert!(!same_words(text, &renamed), "{key}");
        }
        assert!(!same_words(text, "{\"format\": \"nhlab/1\"}"), "JSON is not compared");
    }

    #[test]
    fn bad_text_and_bad_numbers_are_refused() {
        assert!(apply("title = ", "parameters.m", Edit::Number(1.0)).unwrap_err().contains("not valid TOML"));
        assert!(apply(TEXT, "parameters.m", Edit::Number(f64::NAN)).is_err());
    }

    #[test]
    fn every_edit_loads_as_the_same_scenario_with_the_new_value() {
        let text = crate::gallery::text("chaplygin-sleigh").unwrap();
        let out = apply(text, "parameters.a", Edit::Number(0.75)).unwrap();
        let lab = crate::lab::Lab::new(&out).unwrap();
        assert_eq!(lab.scenario().parameters["a"], 0.75);
        let mut expected = crate::lab::Lab::new(text).unwrap().scenario().clone();
        expected.parameters.insert("a".into(), 0.75);
        assert_eq!(lab.scenario(), &expected);
    }
}
