//! The fields `nhlab/1` knows, for warnings about the ones it does not: a typo such
//! as `[vakonomic] mu = […]` would otherwise be ignored without a word. Unknown
//! fields are warnings, not errors, because later versions of `nhlab/1` may add
//! fields (`scenario.md`: additions are fine).

use alloc::string::String;
use alloc::vec::Vec;

/// Field paths with `*` for any key or index.
const KNOWN: [&str; 161] = [
    "format",
    "title",
    "description",
    "source",
    "hint",
    "coordinates",
    "coordinates[*]",
    "kinetic",
    "potential",
    "parameters",
    "parameters.*",
    "parameters.*.value",
    "parameters.*.min",
    "parameters.*.max",
    "parameters.*.step",
    "parameters.*.unit",
    "inputs",
    "inputs.*",
    "inputs.*.value",
    "inputs.*.min",
    "inputs.*.max",
    "inputs.*.step",
    "inputs.*.unit",
    "inputs.*.label",
    "inputs.*.signal",
    "inputs.*.signal[*]",
    "inputs.*.signal[*][*]",
    "units",
    "units.*",
    "compare",
    "compare.*",
    "compare.*.*",
    "definitions",
    "definitions.*",
    "forces",
    "forces.*",
    "particles",
    "particles[*]",
    "particles[*].mass",
    "particles[*].position",
    "particles[*].position[*]",
    "particles[*].ejecta_velocity",
    "particles[*].ejecta_velocity[*]",
    "constraints",
    "constraints[*]",
    "constraints[*].name",
    "constraints[*].expr",
    "initial",
    "initial.t",
    "initial.q",
    "initial.q.*",
    "initial.v",
    "initial.v.*",
    "hamel",
    "hamel.dependent",
    "hamel.dependent[*]",
    "vakonomic",
    "vakonomic.mu0",
    "vakonomic.mu0[*]",
    "stability",
    "stability.method",
    "stability.at",
    "stability.at.*",
    "stability.ignorable",
    "stability.ignorable[*]",
    "stability.dependent",
    "stability.dependent[*]",
    "stability.sweep",
    "stability.sweep.over",
    "stability.sweep.from",
    "stability.sweep.to",
    "stability.sweep.step",
    "stability.sweep.axis",
    "stability.sweep.axis.name",
    "stability.sweep.axis.value",
    "stability.sweep.axis.unit",
    "stability.map",
    "stability.map.over",
    "stability.map.from",
    "stability.map.to",
    "stability.map.step",
    "run",
    "run.*",
    "view",
    "view.*",
    "frames",
    "frames.*",
    "frames.*.parent",
    "frames.*.rotations",
    "frames.*.rotations[*]",
    "frames.*.rotations[*].*",
    "frames.*.angular_velocity",
    "frames.*.angular_velocity[*]",
    "points",
    "points.*",
    "points.*.from",
    "points.*.frame",
    "points.*.position",
    "points.*.position[*]",
    "vectors",
    "vectors.*",
    "loads",
    "loads[*]",
    "loads[*].name",
    "loads[*].body",
    "loads[*].point",
    "loads[*].force",
    "loads[*].torque",
    "bodies",
    "bodies[*]",
    "bodies[*].name",
    "bodies[*].frame",
    "bodies[*].mass",
    "bodies[*].centre",
    "bodies[*].inertia",
    "bodies[*].inertia.xx",
    "bodies[*].inertia.yy",
    "bodies[*].inertia.zz",
    "bodies[*].inertia.xy",
    "bodies[*].inertia.xz",
    "bodies[*].inertia.yz",
    "bodies[*].shape",
    "bodies[*].shape.kind",
    "bodies[*].shape.radius",
    "bodies[*].shape.length",
    "bodies[*].shape.axis",
    "bodies[*].shape.size",
    "bodies[*].shape.size[*]",
    "bodies[*].shape.semi_axes",
    "bodies[*].shape.semi_axes[*]",
    "bodies[*].shape.points",
    "bodies[*].shape.points[*]",
    "bodies[*].shape.points[*][*]",
    "gravity",
    "gravity.magnitude",
    "gravity.direction",
    "gravity.direction[*]",
    "rolling",
    "rolling[*]",
    "rolling[*].name",
    "rolling[*].body",
    "rolling[*].on",
    "rolling[*].contact",
    "rolling[*].tangents",
    "rolling[*].tangents[*]",
    "rolling[*].friction",
    "scene",
    "scene.projection",
    "scene.shapes",
    "scene.shapes[*]",
    "scene.shapes[*].name",
    "scene.shapes[*].kind",
    "scene.shapes[*].at",
    "scene.shapes[*].at[*]",
    "scene.shapes[*].angle",
    "scene.shapes[*].frame",
    "scene.shapes[*].points",
    "scene.shapes[*].points[*]",
    "scene.shapes[*].points[*][*]",
    "scene.shapes[*].radius",
    "scene.shapes[*].trail",
];

/// Keys allowed under `run` and `view` (kept apart from `KNOWN` for suggestions).
const RUN_KEYS: [&str; 9] =
    ["t_end", "methods", "integrator", "integrators", "rtol", "atol", "dt", "stabilization", "on_invalid"];
const VIEW_KEYS: [&str; 2] = ["trajectory", "series"];

/// `a[3].b` → `a[*].b`.
fn pattern(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    let mut in_index = false;
    for c in path.chars() {
        match c {
            '[' => {
                in_index = true;
                out.push_str("[*");
            }
            ']' => {
                in_index = false;
                out.push(']');
            }
            _ if in_index => {}
            c => out.push(c),
        }
    }
    out
}

/// Segment by segment; a `*` segment is any one key (`parameters.*` matches
/// `parameters.m` but not `parameters.m.x`; `frames.*.parent` matches
/// `frames.lean.parent`).
fn matches(known: &str, path: &str) -> bool {
    let mut k = known.split('.');
    let mut p = path.split('.');
    loop {
        match (k.next(), p.next()) {
            (None, None) => return true,
            (Some("*"), Some(key)) if !key.contains('[') => {}
            (Some(a), Some(b)) if a == b => {}
            _ => return false,
        }
    }
}

/// Whether a field path (`run.t_end`, `constraints[0].expr`) is one `nhlab/1` knows.
pub(crate) fn is_known(path: &str) -> bool {
    let p = pattern(path);
    // `run` and `view` admit their own keys, and the list items under them.
    for (table, keys) in [("run.", &RUN_KEYS[..]), ("view.", &VIEW_KEYS[..])] {
        if let Some(rest) = p.strip_prefix(table) {
            let (key, below) = rest.split_at(rest.find(['.', '[']).unwrap_or(rest.len()));
            return keys.contains(&key) && (below.is_empty() || below == "[*]");
        }
    }
    KNOWN.iter().any(|k| matches(k, &p))
}

/// The known names at the same level as `path`'s last key, for suggestions.
pub(crate) fn siblings(path: &str) -> Vec<&'static str> {
    let p = pattern(path);
    let (parent, _) = p.rsplit_once('.').unwrap_or(("", p.as_str()));
    let parent = String::from(parent);
    if parent == "run" {
        return RUN_KEYS.to_vec();
    }
    if parent == "view" {
        return VIEW_KEYS.to_vec();
    }
    KNOWN
        .iter()
        .filter_map(|k| {
            let (kp, last) = k.rsplit_once('.').unwrap_or(("", k));
            (matches(kp, &parent) && last != "*" && !last.contains('[')).then_some(last)
        })
        .collect()
}

/// Unknown fields among `paths`, topmost only (a whole unknown table is one warning).
pub(crate) fn unknown<'a>(paths: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut all: Vec<&str> = paths.into_iter().collect();
    all.sort();
    // A parent sorts before its children: looked up by each of a path's prefixes.
    let mut unknown_tables = alloc::collections::BTreeSet::new();
    for path in all {
        let under_unknown = path.match_indices(['.', '[']).any(|(i, _)| unknown_tables.contains(&path[..i]));
        if under_unknown || is_known(path) {
            continue;
        }
        unknown_tables.insert(path);
        out.push(String::from(path));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_and_unknown_paths() {
        for p in [
            "kinetic",
            "constraints[2].expr",
            "parameters.m",
            "initial.q.phi",
            "run.t_end",
            "view.series[1]",
            "run.methods[0]",
        ] {
            assert!(is_known(p), "{p}");
        }
        for p in ["kinetc", "constraints[0].exp", "run.tend", "vakonomic.mu", "parameters.m.x", "view.colour"] {
            assert!(!is_known(p), "{p}");
        }
        assert_eq!(unknown(["vakonomic.mu", "vakonomic.mu[0]", "vakonomic.mu[1]", "title"]), ["vakonomic.mu"]);
        assert!(siblings("vakonomic.mu").contains(&"mu0"));
        assert!(siblings("run.tend").contains(&"t_end"));
        assert!(siblings("kinetc").contains(&"kinetic"));
    }
}
