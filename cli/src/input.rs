//! Reading a scenario file and building everything a command needs, with every
//! problem reported at its place.

use std::io::Read;

use nhlab::formulations::Method;
use nhlab::mechanics::Needs;
use nhlab::prepare::Prepared;
use nhlab::scenario::{load, Format, Scenario};

use nhlab_texts::i18n;

use crate::Failure;

/// A loaded, validated scenario.
pub type Loaded = Prepared;

/// The text of `file` (`-`: standard input) and its format, at most
/// [`nhlab::limits::MAX_SCENARIO_BYTES`] of it.
pub fn read(file: &str) -> Result<(String, Format), Failure> {
    // Read one byte past the limit at most: the loader then refuses the text as too
    // long, and a huge file or an endless pipe never fills memory.
    let limit = nhlab::limits::MAX_SCENARIO_BYTES as u64 + 1;
    let mut text = String::new();
    let most = nhlab::limits::MAX_SCENARIO_BYTES;
    if file == "-" {
        match crate::output::captured_stdin() {
            Some(given) => text = given.chars().take(most + 1).collect(),
            None => {
                std::io::stdin()
                    .take(limit)
                    .read_to_string(&mut text)
                    .map_err(|e| Failure::bad(format!("standard input: {e}")))?;
            }
        }
        if text.len() > most {
            // Only the first bytes were read: their count is not the input's size.
            return Err(Failure::bad(format!("standard input: more than {most} bytes; the lab reads at most {most}")));
        }
    } else {
        let f = std::fs::File::open(file).map_err(|e| Failure::bad(format!("{file}: {e}")))?;
        // The file's own size, where it has one (not a pipe), for the message.
        let size = f.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
        if let Some(size) = size.filter(|&n| n > most as u64) {
            return Err(Failure::bad(format!("{file}: the scenario is {size} bytes; the lab reads at most {most}")));
        }
        f.take(limit).read_to_string(&mut text).map_err(|e| Failure::bad(format!("{file}: {e}")))?;
        if text.len() > most {
            return Err(Failure::bad(format!("{file}: more than {most} bytes; the lab reads at most {most}")));
        }
    }
    let format = if file.ends_with(".json") {
        Format::Json
    } else if file == "-" {
        nhlab::scenario::format_of(&text)
    } else {
        Format::Toml
    };
    Ok((text, format))
}

/// Loads and validates `file`, deriving what `needs` asks of the scenario read
/// (Hamel's split and the vakonomic equations only for the commands that use them).
pub fn load_file(file: &str, needs: impl Fn(&Scenario) -> Needs) -> Result<Loaded, Failure> {
    load_file_with(file, needs, |_| Ok(Vec::new()))
}

/// As [`load_file`], with the scenario changed by `edit` (a flag's override) before
/// it is validated; a problem at a field `edit` set is blamed on the flag
/// (`edit` returns `(field prefix, flag)` pairs).
pub fn load_file_with(
    file: &str,
    needs: impl Fn(&Scenario) -> Needs,
    edit: impl FnOnce(&mut Scenario) -> Result<Vec<(String, String)>, Failure>,
) -> Result<Loaded, Failure> {
    let (text, format) = read(file)?;
    load_text_with(&text, format, file, needs, edit)
}

/// As [`load_file_with`], of `text` read from `file` already ([`read`]).
pub fn load_text_with(
    text: &str,
    format: Format,
    file: &str,
    needs: impl Fn(&Scenario) -> Needs,
    edit: impl FnOnce(&mut Scenario) -> Result<Vec<(String, String)>, Failure>,
) -> Result<Loaded, Failure> {
    let name = source_name(file);
    let mut flagged: Vec<(String, String)> = Vec::new();
    let problems = |p: nhlab::scenario::Problems, flagged: &[(String, String)]| {
        Failure::BadInput(
            p.0.iter()
                .map(|p| {
                    if let Some((_, flag)) = flagged.iter().find(|(field, _)| p.field.starts_with(field.as_str())) {
                        return format!("{flag}: {}", i18n::problem(p));
                    }
                    match p.position {
                        Some((line, col)) => format!("{name}:{line}:{col}: {}: {}", p.field, i18n::problem(p)),
                        None => format!("{name}: {}: {}", p.field, i18n::problem(p)),
                    }
                })
                .collect(),
        )
    };
    let (mut scenario, map) = load(text, format).map_err(|p| problems(p, &[]))?;
    flagged.extend(edit(&mut scenario)?);
    let needs = needs(&scenario);
    let prepared = Prepared::from_scenario_for(&scenario, map, needs).map_err(|p| problems(p, &flagged))?;
    say_warnings(&prepared, file);
    Ok(prepared)
}

/// How messages name `file`.
fn source_name(file: &str) -> &str {
    if file == "-" {
        "<stdin>"
    } else {
        file
    }
}

/// Says the warnings of loading (unknown fields) and of preparing (free velocities).
pub fn say_warnings(prepared: &Loaded, file: &str) {
    let name = source_name(file);
    for w in &prepared.map.warnings {
        match w.position {
            Some((line, col)) => crate::say!("warning: {name}:{line}:{col}: {}: {}", w.field, i18n::problem(w)),
            None => crate::say!("warning: {name}: {}: {}", w.field, i18n::problem(w)),
        }
    }
}

/// `--input NAME=SIGNAL` flags applied to the scenario's `[inputs]`: `SIGNAL` an
/// expression of `t` (`0.5*sin(2*t)`), or `@FILE`, a CSV file of `t,u` rows (a header
/// row allowed) read as a piecewise-linear table. Returns the fields set, with the
/// flag that set each, for [`load_file_with`].
pub fn apply_inputs(scenario: &mut Scenario, flags: &[String]) -> Result<Vec<(String, String)>, Failure> {
    use nhlab::scenario::Signal;
    let mut set = Vec::new();
    for flag in flags {
        let bad = |m: String| Failure::bad(format!("--input {}: {m}", excerpt(flag, 200)));
        let (name, signal) =
            flag.split_once('=').ok_or_else(|| bad("expected NAME=EXPRESSION or NAME=@FILE.csv".into()))?;
        let name = name.trim();
        let names: Vec<String> = scenario.inputs.keys().cloned().collect();
        let Some(input) = scenario.inputs.get_mut(name) else {
            return Err(bad(if names.is_empty() {
                "the scenario has no [inputs]".into()
            } else {
                format!("`{name}` is not an input (the scenario's: {})", names.join(", "))
            }));
        };
        input.signal = Some(match signal.trim().strip_prefix('@') {
            Some(path) => {
                let text = std::fs::read_to_string(path).map_err(|e| bad(format!("{path}: {e}")))?;
                let mut points = Vec::new();
                for (k, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
                    let cells: Vec<&str> = line.split(',').map(str::trim).collect();
                    match cells[..] {
                        [t, u] => match (t.parse::<f64>(), u.parse::<f64>()) {
                            (Ok(t), Ok(u)) if t.is_finite() && u.is_finite() => points.push([t, u]),
                            (Err(_), _) | (_, Err(_)) if k == 0 => {} // a header row
                            _ => {
                                return Err(bad(format!(
                                    "{path}, line {}: expected two finite numbers `t,u`, found `{}`",
                                    k + 1,
                                    excerpt(line, 40)
                                )))
                            }
                        },
                        _ => {
                            return Err(bad(format!(
                                "{path}, line {}: expected two cells `t,u`, found `{}`",
                                k + 1,
                                excerpt(line, 40)
                            )))
                        }
                    }
                    if points.len() > nhlab::scenario::MAX_SIGNAL_POINTS {
                        return Err(bad(format!("{path}: more than {} rows", nhlab::scenario::MAX_SIGNAL_POINTS)));
                    }
                }
                Signal::Table(points)
            }
            None => Signal::Expression(signal.trim().to_string()),
        });
        set.push((format!("inputs.{name}"), format!("--input {name}")));
    }
    Ok(set)
}

/// User text quoted in a message: at most `limit` characters, control characters and
/// invisible formatting ones escaped (`\u{1b}`), the length said where it is cut
/// (issue 57: a 20 MB row was echoed whole, terminal escapes raw).
pub fn excerpt(text: &str, limit: usize) -> String {
    let count = text.chars().count();
    let mut out: String = text
        .chars()
        .take(limit)
        .flat_map(|c| {
            let hidden = c.is_control() || matches!(c, '\u{200B}'..='\u{200F}' | '\u{2028}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{FEFF}');
            if hidden { c.escape_unicode().collect::<Vec<_>>() } else { vec![c] }
        })
        .collect();
    if count > limit {
        out += &format!("… ({count} characters)");
    }
    out
}

/// The methods named by `ids` that exist (unknown ids are refused later, by
/// [`method`]).
pub fn known_methods(ids: &[String]) -> Vec<Method> {
    ids.iter().filter_map(|id| Method::from_id(id)).collect()
}

/// The method with this id, or a bad-input failure listing the ids.
pub fn method(id: &str) -> Result<Method, Failure> {
    Method::from_id(id).ok_or_else(|| {
        let ids: Vec<&str> = Method::ALL.iter().map(|m| m.id()).collect();
        Failure::bad(format!("--method: unknown method `{id}` (one of {})", ids.join(", ")))
    })
}
