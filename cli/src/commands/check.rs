//! `nhlab check FILE`: validate and describe.

use std::fmt::Write;

use nhlab::formulations::{applicability, Method};

use crate::args::FileArgs;
use crate::input::load_file;
use crate::output::emit;
use crate::Failure;
use nhlab::mechanics::{Needs, SplitError};
use nhlab::simulation::split_choice::choose_along_motion_without_terms;

/// `println!` into the report (writing to a `String` cannot fail).
macro_rules! say {
    ($out:expr, $($arg:tt)*) => {{
        let _ = writeln!($out, $($arg)*);
    }};
}

pub fn run(args: &FileArgs) -> Result<(), Failure> {
    // Nothing is derived beyond M q̈ = F and the constraints (Hamel's terms and the
    // vakonomic equations are most of the work for a large model): the split is
    // reported as far as it is known without its terms. A split the scenario gives is
    // derived, so that a singular one is an error here as everywhere.
    let l = load_file(&args.file, |s| Needs {
        held_inputs: false,
        hamel: s.hamel.as_ref().is_some_and(|h| !h.dependent.is_empty()),
        vakonomic: false,
    })?;
    let m = &l.model;
    let s = &m.scenario;
    let mut out = String::new();
    say!(out, "{}", s.title);
    say!(out, "coordinates: {}", s.coordinates.join(", "));
    let plain: Vec<String> = m
        .parameters
        .iter()
        .enumerate()
        .filter(|(k, _)| !m.inputs.contains(k))
        .map(|(_, p)| format!("{} = {}", p.name, p.value))
        .collect();
    if plain.is_empty() {
        say!(out, "parameters: none");
    } else {
        say!(out, "parameters: {}", plain.join(", "));
    }
    if !m.scenario.inputs.is_empty() {
        let inputs: Vec<String> = m
            .scenario
            .inputs
            .iter()
            .map(|(name, input)| match &input.signal {
                Some(nhlab::scenario::Signal::Expression(text)) => format!("{name} = {text} (its signal)"),
                Some(nhlab::scenario::Signal::Table(points)) => {
                    format!("{name} = a table of {} points (its signal)", points.len())
                }
                None => format!("{name} = {}", input.value),
            })
            .collect();
        say!(out, "inputs: {}", inputs.join(", "));
    }
    describe_bodies(&mut out, m);
    if let Some(contacts) = nhlab::simulation::contact_analysis(&l.numeric, &l.initial) {
        for c in contacts {
            let friction = if c.friction { ", with friction" } else { "" };
            say!(out, "forces of {} ({}{friction}): {}", c.name, c.field, c.how);
        }
    }
    say!(out, "constraints: {}", m.constraints.len());
    for c in &m.constraints {
        let timing = if c.rheonomic { "rheonomic" } else { "scleronomic" };
        let expr = m.graph.to_text(c.position_residual.unwrap_or(c.velocity_residual));
        say!(out, "  {}: {expr} = 0  ({}, {timing})", c.name, c.kind.label());
    }
    let names = |ix: &[usize]| ix.iter().map(|&i| s.coordinates[i].as_str()).collect::<Vec<_>>().join(", ");
    let independent = |d: &[usize]| (0..m.coordinate_count()).filter(|i| !d.contains(i)).collect::<Vec<_>>();
    let split = match &m.hamel {
        Ok(h) => Ok((h.dependent.clone(), m.hamel_choice.as_ref().map(|c| c.english.clone()), h.combined)),
        Err(SplitError::NotDerived) => m.split_without_terms().map(|first| {
            let t_end = s.run.t_end_or_default();
            let combined = m.redundancy(&m.initial_reference()).is_some();
            match choose_along_motion_without_terms(m, &l.numeric, &l.initial, t_end, first.clone()) {
                Some(choice) => (choice.dependent, Some(choice.note.english), combined),
                None => (first, None, combined),
            }
        }),
        Err(e) => Err(e.clone()),
    };
    match split {
        Ok((dependent, note, combined)) => {
            let how = if s.hamel.as_ref().is_some_and(|h| !h.dependent.is_empty()) {
                "from [hamel] dependent".to_string()
            } else {
                note.unwrap_or_else(|| "chosen by column pivoting of A at the initial state".into())
            };
            // In English like the rest of this line, as before it became a message.
            let basis = m.split_basis_note(combined).map(|b| format!("; {}", b.english)).unwrap_or_default();
            say!(
                out,
                "Hamel split: dependent {}; independent {}{basis} ({how})",
                names(&dependent),
                names(&independent(&dependent))
            );
        }
        Err(e) if !m.constraints.is_empty() => say!(out, "Hamel split: none ({e})"),
        Err(_) => {}
    }
    let n = m.coordinate_count();
    let rank = {
        let mut numeric = l.numeric.clone();
        let terms =
            numeric.evaluate(l.initial.t, &l.initial.q, &l.initial.v).map_err(|e| Failure::Compute(e.to_string()))?;
        if terms.jacobian.nrows() == 0 {
            0
        } else {
            terms.jacobian.clone().svd(false, false).rank(1e-10 * terms.jacobian.amax().max(f64::MIN_POSITIVE))
        }
    };
    let plural = if rank == 1 { "" } else { "s" };
    say!(
        out,
        "degrees of freedom: {} ({n} coordinates, {rank} independent constraint{plural} at the initial state)",
        n - rank
    );
    if let Some(redundancy) = m.redundancy(&m.initial_reference()) {
        say!(
            out,
            "redundant constraints: {redundancy} — the accelerations are unique; lagrange and euler take the \
             minimum-norm multipliers, the vakonomic equations the minimum-norm multiplier rates; Hamel's split \
             combines the rows (A₁ᵀA)"
        );
    }
    let (usable, refused): (Vec<_>, Vec<_>) =
        Method::ALL.iter().map(|&method| (method, applicability(m, method))).partition(|(_, a)| a.is_ok());
    let ids: Vec<&str> = usable.iter().map(|(method, _)| method.id()).collect();
    say!(out, "methods: {}", ids.join(", "));
    for (method, why) in refused {
        say!(out, "  not {}: {}", method.id(), why.unwrap_err());
    }
    // The structure-preserving integrators' class is the model's, not a method's.
    let redundant = nhlab::simulation::redundant_for_structure_preserving(&mut l.numeric.clone(), &l.initial);
    let applies = match (nhlab::mechanics::discrete_applicability(m), redundant) {
        (Err(why), _) => Err(why.to_string()),
        (Ok(()), Some(why)) => Err(why.english),
        (Ok(()), None) => Ok(()),
    };
    match applies {
        Ok(()) => say!(out, "integrators: dopri5, rk4, rattle, rattle4 (the last two with method lagrange)"),
        Err(why) => {
            say!(out, "integrators: dopri5, rk4");
            say!(out, "  not rattle, rattle4: {why}");
        }
    }
    emit(&out)
}

/// Frames, points, vectors, bodies, gravity, contacts (with the constraints each
/// generates) and loads, when the scenario has them.
fn describe_bodies(out: &mut String, m: &nhlab::mechanics::Model) {
    let s = &m.scenario;
    if !s.frames.is_empty() {
        let frames: Vec<String> = s
            .frames
            .iter()
            .map(|(name, f)| {
                let parent = f.parent.as_deref().unwrap_or("N");
                let turns: Vec<String> =
                    f.rotations.iter().flat_map(|r| r.iter().map(|(axis, angle)| format!("{axis} {angle}"))).collect();
                match &f.angular_velocity {
                    Some(w) => format!("{name} (turning at [{}] from {parent})", w.join(", ")),
                    None => format!("{name} ({parent}, then {})", turns.join(", then ")),
                }
            })
            .collect();
        say!(out, "frames: {}", frames.join("; "));
    }
    if !s.points.is_empty() {
        say!(out, "points: {}", s.points.keys().cloned().collect::<Vec<_>>().join(", "));
    }
    if !s.vectors.is_empty() {
        say!(out, "vectors: {}", s.vectors.keys().cloned().collect::<Vec<_>>().join(", "));
    }
    for b in &s.bodies {
        let shape = b.shape.as_ref().map(|sh| format!(", shape {}", sh.kind)).unwrap_or_default();
        say!(out, "body {}: frame {}, mass {}, centre {}{shape}", b.name, b.frame, b.mass, b.centre);
    }
    if let Some(g) = &s.gravity {
        let direction = g.direction.as_ref().map_or("0, 0, -1".to_string(), |d| d.join(", "));
        say!(out, "gravity: {} along [{direction}] in N", g.magnitude);
    }
    for (j, r) in s.rolling.iter().enumerate() {
        let on = r.on.as_deref().unwrap_or("ground");
        // By the table that made them: two contacts may share a name.
        let origin = format!("rolling[{j}]");
        let generated: Vec<&str> =
            m.constraints.iter().filter(|c| c.origin == origin).map(|c| c.name.as_str()).collect();
        say!(out, "contact: {} rolls on {on} at {}; generates {}", r.body, r.contact, generated.join(", "));
    }
    for (k, l) in s.loads.iter().enumerate() {
        let name = l.name.clone().unwrap_or_else(|| format!("loads[{k}]"));
        let mut parts = Vec::new();
        if let Some(f) = &l.force {
            parts.push(format!("force {f} at {}", l.point.as_deref().unwrap_or("?")));
        }
        if let Some(t) = &l.torque {
            parts.push(format!("torque {t}"));
        }
        let on = l.body.as_ref().map(|b| format!(" on {b}")).unwrap_or_default();
        say!(out, "load {name}{on}: {}", parts.join(", "));
    }
}
