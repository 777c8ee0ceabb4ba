//! Reading a scenario file and building everything a command needs, with every
//! problem reported at its place.

use std::io::Read;

use nhlab::formulations::Method;
use nhlab::mechanics::Needs;
use nhlab::prepare::Prepared;
use nhlab::scenario::{load, Format, Scenario};

use crate::Failure;

/// A loaded, validated scenario.
pub type Loaded = Prepared;

fn read(file: &str) -> Result<(String, Format), Failure> {
    // Read one byte past the limit at most: the loader then refuses the text as too
    // long, and a huge file or an endless pipe never fills memory.
    let limit = nhlab::limits::MAX_SCENARIO_BYTES as u64 + 1;
    let mut text = String::new();
    let most = nhlab::limits::MAX_SCENARIO_BYTES;
    if file == "-" {
        std::io::stdin()
            .take(limit)
            .read_to_string(&mut text)
            .map_err(|e| Failure::bad(format!("standard input: {e}")))?;
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
    let (text, format) = read(file)?;
    let name = if file == "-" { "<stdin>" } else { file };
    let problems = |p: nhlab::scenario::Problems| {
        Failure::BadInput(
            p.0.iter()
                .map(|p| match p.position {
                    Some((line, col)) => format!("{name}:{line}:{col}: {}: {}", p.field, p.message),
                    None => format!("{name}: {}: {}", p.field, p.message),
                })
                .collect(),
        )
    };
    let (scenario, map) = load(&text, format).map_err(problems)?;
    let needs = needs(&scenario);
    let prepared = Prepared::from_scenario_for(&scenario, map, needs).map_err(problems)?;
    // Warnings of loading (unknown fields) and of preparing (free velocities).
    for w in &prepared.map.warnings {
        match w.position {
            Some((line, col)) => eprintln!("warning: {name}:{line}:{col}: {}: {}", w.field, w.message),
            None => eprintln!("warning: {name}: {}: {}", w.field, w.message),
        }
    }
    Ok(prepared)
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
