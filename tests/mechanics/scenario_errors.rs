//! Every bad-input class of scenario.md: a message naming the field, the line and
//! column, what was expected; and all problems at once.

use nhlab::mechanics::{Model, NumericModel};
use nhlab::scenario::{load_json, load_toml, Problem};
use nhlab::simulation::initial_state;

const BASE: &str = include_str!("../fixtures/blade-with-every-table.toml");

/// The problems of a TOML scenario, from loading through the initial state.
fn problems(text: &str) -> Vec<Problem> {
    let (scenario, map) = match load_toml(text) {
        Ok(x) => x,
        Err(p) => return p.0,
    };
    let model = match Model::build(&scenario, &map) {
        Ok(m) => m,
        Err(p) => return p.0,
    };
    let mut numeric = NumericModel::new(&model).unwrap();
    match initial_state(&model, &mut numeric, &map) {
        Ok(_) => vec![],
        Err(p) => p.0,
    }
}

/// `BASE` with one line replaced.
fn with(old: &str, new: &str) -> String {
    assert!(BASE.contains(old), "{old}");
    BASE.replacen(old, new, 1)
}

fn single(text: &str) -> Problem {
    let p = problems(text);
    assert_eq!(p.len(), 1, "{p:?}");
    p.into_iter().next().unwrap()
}

#[test]
fn the_base_scenario_is_valid() {
    assert_eq!(problems(BASE), vec![]);
}

#[test]
fn unknown_name_with_the_nearest_known_names() {
    let p = single(&with("phi'^2/2", "ph'^2/2"));
    assert_eq!(p.field, "kinetic");
    assert_eq!(p.position, Some((4, 32)));
    assert_eq!(p.message, "unknown name `ph`; did you mean `phi` or `pi`?");
    assert_eq!(p.to_string(), "kinetic (line 4, column 32): unknown name `ph`; did you mean `phi` or `pi`?");
}

#[test]
fn syntax_error_in_a_constraint() {
    let p = single(&with("-x'*sin(phi) + y'*cos(phi)", "-x'*sin(phi) + y'*cos(phi"));
    assert_eq!((p.field.as_str(), p.position), ("constraints[0].expr", Some((11, 30))));
    assert_eq!(p.message, "this `(` is never closed");
}

#[test]
fn acceleration_in_a_model() {
    let p = single(&with("phi'^2/2", "phi''^2/2"));
    assert!(p.message.starts_with("accelerations such as `phi''` are not allowed"), "{p}");
}

#[test]
fn cycle_in_definitions() {
    let p = single(&with("[parameters]", "[definitions]\nu = \"w + 1\"\nw = \"2*u\"\n\n[parameters]"));
    assert_eq!(p.field, "definitions");
    assert_eq!(p.message, "definitions refer to each other in a cycle: u → w → u");
}

#[test]
fn constraint_that_does_not_depend_on_the_coordinates() {
    let p = single(&with("-x'*sin(phi) + y'*cos(phi)", "m - 1 + t"));
    assert_eq!(p.field, "constraints[0].expr");
    assert_eq!(p.message, "the constraint depends on neither coordinates nor velocities");
}

#[test]
fn mass_matrix_not_positive_definite() {
    let p = single(&with("phi'^2/2", "0*phi'^2/2"));
    assert_eq!(p.field, "kinetic");
    assert!(p.message.contains("not positive definite at the initial state"), "{p}");
}

#[test]
fn given_velocities_that_violate_a_constraint() {
    let p = single(&with("v = { x = 1, phi = 2 }", "v = { x = 1, y = 0.5, phi = 2 }"));
    assert_eq!(p.field, "initial.v");
    assert_eq!(p.position, Some((15, 5)));
    assert_eq!(p.message, "the initial velocities violate constraint `blade` by 5.000e-1");
}

/// Omitted velocities the constraints leave free take the minimum-norm solution
/// (the spec's knife edge omits `x'` and `y'` and means "at rest").
#[test]
fn omitted_velocities_take_the_minimum_norm_solution() {
    let text = with("v = { x = 1, phi = 2 }", "v = { phi = 2 }");
    assert_eq!(problems(&text), vec![]);
    let (scenario, map) =
        load_toml(&text.replace("q = { x = 0, y = 0, phi = 0 }", "q = { x = 0, y = 0, phi = 0.3 }")).unwrap();
    let model = Model::build(&scenario, &map).unwrap();
    let mut numeric = NumericModel::new(&model).unwrap();
    let state = initial_state(&model, &mut numeric, &map).unwrap();
    assert_eq!(state.v, vec![0.0, 0.0, 2.0]);
    // One given, one solved: y' = x' tan φ.
    let text = text.replace("v = { phi = 2 }", "v = { x = 1, phi = 2 }").replace("phi = 0 }", "phi = 0.3 }");
    let (scenario, map) = load_toml(&text).unwrap();
    let model = Model::build(&scenario, &map).unwrap();
    let state = initial_state(&model, &mut NumericModel::new(&model).unwrap(), &map).unwrap();
    assert!((state.v[1] - 0.3f64.tan()).abs() < 1e-14, "{:?}", state.v);
}

/// Omitted velocities that cannot meet the constraints: an error naming the constraint.
#[test]
fn omitted_velocities_that_cannot_meet_the_constraints() {
    let text = with("-x'*sin(phi) + y'*cos(phi)", "phi' - 1");
    let p = single(&text);
    assert_eq!(p.field, "initial.v");
    assert_eq!(p.message, "the initial velocities violate constraint `blade` by 1.000e0 after solving for the omitted ones: the constraints are inconsistent or the omitted velocities cannot meet them");
}

#[test]
fn inconsistent_constraints() {
    let text = with("[initial]", "[[constraints]]\nexpr = \"-x'*sin(phi) + y'*cos(phi) - 1\"\n\n[initial]");
    let p = problems(&text);
    assert!(!p.is_empty() && p.iter().all(|p| p.field == "initial.v"), "{p:?}");
    assert!(p[0].message.contains("violate constraint"), "{}", p[0]);
}

#[test]
fn unknown_coordinate_in_forces_and_initial_values() {
    let text = with("[initial]", "[forces]\nphy = \"1\"\n\n[initial]")
        .replace("q = { x = 0, y = 0, phi = 0 }", "q = { x = 0, y = 0, phi = 0, z = 1 }");
    let p = problems(&text);
    assert_eq!(p.len(), 2, "{p:?}");
    assert_eq!(p[0].to_string(), "forces.phy (line 14, column 1): `phy` is not a coordinate; did you mean `phi`?");
    assert_eq!(p[1].field, "initial.q.z");
}

#[test]
fn missing_fields_and_wrong_counts_are_all_reported_at_once() {
    let text = BASE
        .replace("format = \"nhlab/1\"", "format = \"nhlab/2\"")
        .replace("title = \"test\"", "title = \"\"")
        .replace("q = { x = 0, y = 0, phi = 0 }", "q = { x = 0, y = 0 }")
        + "\n[vakonomic]\nmu0 = [0.0, 1.0]\n\n[run]\nmethods = [\"lagrang\"]\nintegrator = \"euler\"\nt_end = -1\n";
    let p = problems(&text);
    let fields: Vec<&str> = p.iter().map(|p| p.field.as_str()).collect();
    assert_eq!(
        fields,
        ["format", "title", "initial.q", "vakonomic.mu0", "run.methods[0]", "run.integrator", "run.t_end"],
        "{p:#?}"
    );
    assert_eq!(p[0].message, "expected `nhlab/1`, found `nhlab/2`");
    assert_eq!(p[2].message, "the initial value of coordinate `phi` is missing");
    assert_eq!(p[3].message, "expected one multiplier per constraint (1), found 2");
    assert_eq!(p[4].message, "unknown method `lagrang`; did you mean `lagrange`?");
}

/// A run that would end before it starts is refused at its end time, or, with the
/// default end, at the initial time (a negative start is fine).
#[test]
fn a_run_ends_after_it_starts() {
    let p = single(&(BASE.replace("[initial]", "[initial]\nt = 3") + "\n[run]\nt_end = 2\n"));
    assert_eq!(p.to_string(), "run.t_end (line 19, column 9): must be after the initial time 3, found 2");
    let p = single(&BASE.replace("[initial]", "[initial]\nt = 10"));
    assert_eq!(p.field, "initial.t");
    assert_eq!(p.message, "must be before the run's end t = 10 (the default when [run] t_end is not given)");
    assert!(problems(&BASE.replace("[initial]", "[initial]\nt = -2")).is_empty());
    assert!(problems(&(BASE.replace("[initial]", "[initial]\nt = 3") + "\n[run]\nt_end = 3.5\n")).is_empty());
}

#[test]
fn velocities_in_a_potential() {
    let p = single(&with("[parameters]", "potential = \"x'*x\"\n\n[parameters]"));
    assert_eq!(p.field, "potential");
    assert_eq!(p.message, "the potential may depend on coordinates and t only, not on `x'`");
}

#[test]
fn file_syntax_and_type_errors() {
    let p = problems("format = \"nhlab/1\"\ntitle = [\n");
    assert_eq!(p.len(), 1);
    assert_eq!(p[0].to_string(), "(file) (line 2, column 10): unclosed array, expected `]`");
    let p = problems("format = \"nhlab/1\"\ncoordinates = \"x\"\n");
    assert_eq!(p[0].message, "expected a list such as [\"x\", \"y\"], found the text \"x\"", "{}", p[0]);
    let e = load_json("{\"format\": \"nhlab/1\", \"coordinates\": [\"x\"],").unwrap_err();
    assert!(e.0[0].message.contains("EOF"), "{e}");
}

#[test]
fn unknown_fields_are_warnings_with_suggestions() {
    let text =
        with("[parameters]", "kinetc = \"1\"\n\n[vakonomic]\nmu = [0.5]\n\n[parameters]") + "\n[run]\ntend = 3\n";
    let (_, map) = load_toml(&text).unwrap();
    let w: Vec<String> = map.warnings.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        w,
        [
            "kinetc (line 6, column 1): unknown field `kinetc` (ignored); did you mean `kinetic`?",
            "run.tend (line 23, column 1): unknown field `tend` (ignored); did you mean `t_end`?",
            "vakonomic.mu (line 9, column 1): unknown field `mu` (ignored); did you mean `mu0`?",
        ],
        "{w:#?}"
    );
    // The typo'd `mu` leaves `mu0` empty: the count problem, explained by the warning.
    let p = problems(&text);
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(p[0].message, "expected one multiplier per constraint (1), found 0");
    let (_, map) = load_json(r#"{"format": "nhlab/1", "title": "x", "coordinates": ["x"], "colour": "red"}"#).unwrap();
    assert_eq!(map.warnings.len(), 1);
    assert_eq!(map.warnings[0].field, "colour");
    let (_, map) = load_toml(BASE).unwrap();
    assert!(map.warnings.is_empty(), "{:?}", map.warnings);
}

// ---- Issue 9: type errors name their field; arrays are not tables; BOM -------------

#[test]
fn a_type_error_names_its_field_and_quotes_only_an_excerpt() {
    let p = &problems(&BASE.replace("title = \"test\"", "title = 3"))[0];
    assert_eq!((p.field.as_str(), p.position), ("title", Some((2, 9))), "{p}");
    let huge = "y".repeat(70_000);
    let json = format!(
        "{{\"format\": \"nhlab/1\", \"title\": \"t\", \"coordinates\": [\"x\"], \"kinetic\": \"x'^2\",\n \"initial\": {{\"q\": {{\"x\": \"{huge}\"}}}}}}"
    );
    let p = &load_json(&json).unwrap_err().0[0];
    assert_eq!(p.field, "initial.q.x", "{p}");
    assert_eq!(p.position.map(|x| x.0), Some(2));
    assert!(p.message.len() < 200, "{}", p.message);
    assert!(p.message.contains("(70000 characters)"), "{}", p.message);
}

#[test]
fn an_array_where_a_table_belongs_is_refused() {
    let text = BASE.replace("[parameters]", "run = [0.5, [\"gauss\"], \"rk4\"]\n\n[parameters]");
    let p = problems(&text);
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!((p[0].field.as_str(), p[0].message.as_str()), ("run", "expected a table, found an array"));
    assert!(p[0].position.is_some());
    let json = "{\"format\": \"nhlab/1\", \"title\": \"t\", \"coordinates\": [\"x\"], \"kinetic\": \"x'^2\", \"initial\": {\"q\": {\"x\": 0}}, \"view\": [\"x\", \"x'\"]}";
    let p = &load_json(json).unwrap_err().0[0];
    assert_eq!((p.field.as_str(), p.message.as_str()), ("view", "expected a table, found an array"));
}

#[test]
fn json_with_a_byte_order_mark_loads_and_its_problems_have_lines() {
    let (scenario, _) = load_toml(BASE).unwrap();
    let json = format!("\u{feff}{}", scenario.to_json().unwrap());
    assert!(load_json(&json).is_ok());
    // Problems found after loading are positioned in JSON too.
    let pretty = serde_json::to_string_pretty(&serde_json::from_str::<serde_json::Value>(&json[3..]).unwrap())
        .unwrap()
        .replace("phi'^2/2", "psi'^2/2");
    let (scenario, map) = load_json(&pretty).unwrap();
    let p = &Model::build(&scenario, &map).unwrap_err().0[0];
    assert_eq!(p.field, "kinetic");
    let line = pretty.lines().position(|l| l.contains("psi'")).unwrap() + 1;
    assert_eq!(p.position.map(|x| x.0), Some(line), "{p}");
}

/// Issue 9: sizes beyond the stated limits are refused before anything is derived
/// (5,000 coordinates took 9 s and 1.4 GB; 50,000 aborted allocating 10 GB).
#[test]
fn models_beyond_the_size_limits_are_refused_at_once() {
    let n = 50_000;
    let names: Vec<String> = (0..n).map(|i| format!("\"q{i}\"")).collect();
    let text = format!(
        "format = \"nhlab/1\"\ntitle = \"huge\"\ncoordinates = [{}]\nkinetic = \"q0'^2\"\n[initial]\nq = {{ q0 = 0 }}\n",
        names.join(", ")
    );
    // The work is bounded by the refusal itself (nothing derived: the problem says
    // so below). The clock is a backstop for a hang only, far above the few
    // milliseconds this takes, so that a busy machine cannot fail it.
    let started = std::time::Instant::now();
    let p = problems(&text);
    assert!(started.elapsed().as_secs_f64() < 60.0, "refused, not derived: {:?}", started.elapsed());
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(p[0].field, "coordinates");
    assert_eq!(p[0].message, "50000 coordinates; the lab supports at most 200");
    assert_eq!(p[0].position, Some((3, 15)));
    let long = format!("{BASE}# {}\n", "x".repeat(nhlab::limits::MAX_SCENARIO_BYTES));
    let e = nhlab::scenario::load(&long, nhlab::scenario::Format::Toml).unwrap_err();
    assert!(e.0[0].message.starts_with("the scenario is 1048"), "{}", e.0[0].message);
}

/// Issue 9: an overflow in the potential was reported as "initial.v: forcing entry 1
/// is not finite". The field that produced it is named, with the state.
#[test]
fn a_value_that_is_not_finite_is_blamed_on_its_field() {
    let with_potential = |v: &str| BASE.replace("[parameters]", &format!("potential = \"{v}\"\n\n[parameters]"));
    let p = &problems(&with_potential("exp(1000*(x + 1))"))[0];
    assert_eq!(p.field, "potential", "{p}");
    assert_eq!(p.message, "not finite at the initial state (t = 0, x = 0, y = 0, phi = 0)");
    assert_eq!(p.position, Some((6, 13)), "the potential line, before [parameters]");
    let p = &problems(&with_potential("exp(709*(x + 1))"))[0];
    assert_eq!(
        (p.field.as_str(), p.message.as_str()),
        ("potential", "its derivative by x is not finite at the initial state (t = 0, x = 0, y = 0, phi = 0)")
    );
    let text = BASE
        .replace("[parameters]", "[definitions]\nbig = \"exp(800 + x)\"\n\n[parameters]")
        .replace("phi'^2/2", "big*phi'^2/2");
    let p = &problems(&text)[0];
    assert_eq!(p.field, "definitions.big", "{p}");
}

/// Issue 9: a mass of 2e-320 was reported as "the energy is not finite" later on.
#[test]
fn a_subnormal_mass_is_refused_with_the_cause() {
    let p = &problems(&BASE.replace("m = 1.0", "m = 2e-320"))[0];
    assert_eq!(p.field, "kinetic");
    assert!(p.message.starts_with("the mass matrix has an entry of 2e-320 at the initial state"), "{p}");
}

/// The reference's worked example (`docs/reference.md`, the first TOML block) loads,
/// and gives the warning the reference quotes for the velocities it omits.
#[test]
fn the_references_example_loads_with_the_warning_it_documents() {
    let doc = std::fs::read_to_string(format!("{}/../docs/reference.md", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let start = doc.find("```toml\n").expect("a TOML example") + "```toml\n".len();
    let example = &doc[start..start + doc[start..].find("```").unwrap()];
    let prepared = nhlab::prepare::Prepared::from_text(example, nhlab::scenario::Format::Toml).unwrap();
    assert_eq!(prepared.initial.v, vec![0.0, 0.0, 2.0]);
    let warnings: Vec<&str> = prepared.map.warnings.iter().map(|w| w.message.as_str()).collect();
    let documented =
        "x' is not fixed by the constraints; took the minimum-norm value x' = 0 — give it to choose another";
    assert_eq!(warnings, [documented]);
    assert!(doc.contains(&format!("initial.v: {documented}")), "the reference quotes the warning as the lab gives it");
}

/// A misspelt table name (`[definition]`) is what makes the names in it unknown:
/// when the file fails, the problems the command line and the page show start with
/// the unknown table and its "did you mean", at its line.
#[test]
fn a_misspelt_table_is_named_before_the_errors_it_causes() {
    let text = nhlab_tests::scenarios::text("chaplygin-sleigh").replace("[definitions]", "[definition]");
    let line = text.lines().position(|l| l == "[definition]").unwrap() + 1;
    let err = match nhlab::prepare::Prepared::from_text(&text, nhlab::scenario::Format::Toml) {
        Err(e) => e,
        Ok(_) => panic!("the sleigh without its definitions cannot build"),
    };
    let first = err.0[0].to_string();
    assert_eq!(
        first,
        format!(
            "definition (line {line}, column 2): unknown table `definition` (ignored); did you mean `definitions`?"
        )
    );
    assert!(err.0[1..].iter().any(|p| p.message == "unknown name `u`"), "{err}");
}

#[test]
fn parameter_ranges_and_units_are_checked_at_their_place() {
    let cases = [
        ("m = { value = 5, min = 0, max = 2 }", "parameters.m.value", (7, 15), "outside its range 0 … 2"),
        ("m = { value = 1, min = 2, max = 0 }", "parameters.m.max", (7, 33), "must be greater than min = 2"),
        ("m = { value = 1, min = 0, max = 2, step = 3 }", "parameters.m.step", (7, 43), "longer than the range"),
        ("m = { value = 1, step = -1 }", "parameters.m.step", (7, 25), "must be positive"),
        ("m = { value = 1, unit = \"a very long unit text indeed\" }", "parameters.m.unit", (7, 25), "at most 24"),
    ];
    for (line, field, place, words) in cases {
        let p = single(&with("m = 1.0", line));
        assert_eq!(p.field, field, "{line}: {p:?}");
        assert_eq!(p.position, Some(place), "{line}: {p:?}");
        assert!(p.message.contains(words), "{line}: {p:?}");
    }
    let p = single(&with("m = 1.0", "m = 1.0\n[units]\nx = \"m\"\nphii = \"rad\""));
    assert_eq!((p.field.as_str(), p.position), ("units.phii", Some((10, 1))), "{p:?}");
    assert!(p.message.contains("did you mean `phi`"), "{p:?}");
    // Well-formed ones load, and the values are the plain map's.
    let text = with(
        "m = 1.0",
        "m = { value = 1.5, min = 0, max = 2, step = 0.5, unit = \"kg\" }\n[units]\nx = \"m\"\nt = \"s\"",
    );
    assert_eq!(problems(&text), vec![]);
    let (s, _) = load_toml(&text).unwrap();
    assert_eq!(s.parameters["m"], 1.5);
}

/// The reference's `[compare]` example, added to the sleigh, gives the two sets it
/// describes, in name order, each labelled with the values it changes.
#[test]
fn the_references_compare_example_gives_its_sets() {
    let doc = std::fs::read_to_string(format!("{}/../docs/reference.md", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let at = doc.find("[compare.heavy]").expect("the reference's [compare] example");
    let tables = &doc[at..at + doc[at..].find("```").unwrap()];
    let text = format!("{}\n{tables}", nhlab_tests::scenarios::text("chaplygin-sleigh"));
    let p = nhlab::prepare::Prepared::from_text(&text, nhlab::scenario::Format::Toml).unwrap();
    let labels: Vec<String> = p.sets.iter().map(|s| s.label(&p.model, &p.numeric.parameters)).collect();
    assert_eq!(labels, ["backwards centre: a = -0.5", "heavy: m = 3"]);
}

const PENDULUM: &str = include_str!("../../scenarios/pendulum-cartesian.toml");

/// Coordinates off a holonomic constraint are refused at `initial.q`, naming the
/// constraint and its coordinates, even where every velocity could be solved (the
/// position error was accepted silently before, or blamed on `initial.v`).
#[test]
fn initial_coordinates_off_a_holonomic_constraint_are_refused_at_initial_q() {
    for v in ["v = { x = 0 }", "v = { x = 0, y = 0 }"] {
        let text =
            PENDULUM.replace("q = { x = 0.6, y = -0.8 }", "q = { x = 0.6, y = -0.7999 }").replace("v = { x = 0 }", v);
        let p = problems(&text);
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].field, "initial.q", "{}", p[0]);
        assert!(p[0].position.is_some(), "{}", p[0]);
        assert!(
            p[0].message.starts_with("the initial coordinates violate the holonomic constraint `rod` by -1.600e-4")
                && p[0].message.contains("give values of x, y that meet it"),
            "{}",
            p[0].message
        );
    }
}

/// A coordinate a holonomic constraint fixes may be omitted: it is solved by
/// Newton's method, and a warning at `initial.q` says what was taken.
#[test]
fn an_omitted_coordinate_is_solved_from_the_holonomic_constraints() {
    let text = PENDULUM.replace("q = { x = 0.6, y = -0.8 }", "q = { x = 0.6 }");
    let (scenario, map) = load_toml(&text).unwrap();
    let model = Model::build(&scenario, &map).unwrap();
    let mut numeric = NumericModel::new(&model).unwrap();
    let (state, warnings) = nhlab::simulation::initial_state_with_warnings(&model, &mut numeric, &map).unwrap();
    assert!((state.q[0] - 0.6).abs() == 0.0 && (state.q[1].abs() - 0.8).abs() < 1e-12, "{:?}", state.q);
    assert_eq!(warnings[0].field, "initial.q");
    assert!(warnings[0].message.contains("y = 0.8"), "{}", warnings[0].message);
    // A coordinate no holonomic constraint involves is still required.
    let p = problems(&BASE.replace("q = { x = 0, y = 0, phi = 0 }", "q = { x = 0, y = 0 }"));
    assert_eq!(p[0].message, "the initial value of coordinate `phi` is missing");
}

/// The benchmark bicycle steered by 0.3 rad: its pitch, omitted, is solved so that
/// the front wheel touches the ground (to 1e-12 m); given rounded to six decimals,
/// the front wheel is off the ground and the position is refused, not accepted.
#[test]
fn the_bicycles_pitch_is_solved_or_its_rounding_refused() {
    let bicycle = include_str!("../../scenarios/whipple-bicycle.toml");
    let full = "q = { x = 0, y = 0, psi = 0, phi = 0.05, theta = 0, delta = 0, rear = 0, front = 0 }";
    assert!(bicycle.contains(full));
    let omitted = bicycle.replace(full, "q = { x = 0, y = 0, psi = 0, phi = 0.05, delta = 0.3, rear = 0, front = 0 }");
    let (scenario, map) = load_toml(&omitted).unwrap();
    let model = Model::build(&scenario, &map).unwrap();
    let mut numeric = NumericModel::new(&model).unwrap();
    let (state, warnings) = nhlab::simulation::initial_state_with_warnings(&model, &mut numeric, &map).unwrap();
    let theta = state.q[4];
    assert!(theta.abs() > 1e-5, "pitch {theta}");
    let terms = numeric.evaluate(state.t, &state.q, &state.v).unwrap();
    let front = model.constraints.iter().position(|c| c.name == "front wheel on the ground").unwrap();
    assert!(terms.position_residuals[front].abs() < 1e-12, "{}", terms.position_residuals[front]);
    assert!(warnings.iter().any(|w| w.field == "initial.q" && w.message.contains("theta = ")), "{warnings:?}");
    let rounded = (theta * 1e6).round() / 1e6;
    let given = omitted.replace("delta = 0.3", &format!("theta = {rounded}, delta = 0.3"));
    let p = problems(&given);
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(p[0].field, "initial.q");
    assert!(p[0].message.contains("`front wheel on the ground`"), "{}", p[0].message);
}

/// Numbers wherever an expression is taken (they were refused with "invalid type:
/// integer `0`, expected a string"): the same model as with the numbers written as
/// text.
#[test]
fn numbers_are_taken_wherever_an_expression_is() {
    let quoted = include_str!("../fixtures/a-ball-dropped.toml");
    let plain = quoted
        .replace("{ z = \"0\" }", "{ z = 0 }")
        .replace("[\"0\", \"0\", \"-e\"]", "[0, 0, \"-e\"]")
        .replace("mass = \"2\"", "mass = 2")
        .replace("{ xx = \"0.1\", yy = \"0.1\", zz = \"0.1\" }", "{ xx = 0.1, yy = 0.1, zz = 0.1 }")
        .replace("radius = \"0.5\"", "radius = 0.5")
        .replace("magnitude = \"9.81\"", "magnitude = 9.81")
        .replace("[\"0\", \"0\", \"-1\"]", "[0, 0, -1]");
    assert_ne!(plain, quoted);
    assert!(problems(&plain).is_empty(), "{:?}", problems(&plain));
    let (a, b) = (load_toml(quoted).unwrap().0, load_toml(&plain).unwrap().0);
    assert_eq!(a.bodies, b.bodies);
    assert_eq!(a.points, b.points);
    assert_eq!(a.gravity, b.gravity);
    assert_eq!(a.frames, b.frames);
    // JSON too, and a number that is not finite is refused at its place.
    let json = r#"{"format": "nhlab/1", "title": "t", "coordinates": ["x"], "kinetic": "x'^2/2", "potential": 3, "initial": {"q": {"x": 0}}}"#;
    assert_eq!(load_json(json).unwrap().0.potential.as_deref(), Some("3"));
    let p = problems(&quoted.replace("mass = \"2\"", "mass = nan"));
    assert_eq!(p[0].field, "bodies[0].mass", "{p:?}");
    assert!(p[0].message.contains("a finite number"), "{}", p[0].message);
}

/// The parsing libraries' words never reach a user: each case gets a message in
/// the lab's words, at its place, with the choices or the nearest name.
#[test]
fn parsing_problems_are_told_in_the_labs_words() {
    let base = "format = \"nhlab/1\"\ntitle = \"t\"\ncoordinates = [\"x\", \"y\"]\nkinetic = \"x'^2/2 + y'^2/2\"\n\n[initial]\nq = { x = 0, y = 0 }\n";
    let cases: [(String, &str, &str); 7] = [
        (base.replace("x'^2/2 + y'^2/2", "xdot^2/2 + y'^2/2"), "kinetic", "unknown name `xdot`; did you mean `x'`?"),
        (base.replace("title = \"t\"", "title = 3"), "title", "expected text (in quotes), found the number 3"),
        (
            base.replace("coordinates = [\"x\", \"y\"]", "coordinates = \"x\""),
            "coordinates",
            "expected a list such as [\"x\", \"y\"], found the text \"x\"",
        ),
        (base.replace("q = { x = 0, y = 0 }", "q = { x = \"zero\", y = 0 }"), "initial.q.x", "expected a number, found the text \"zero\""),
        (base.to_string() + "\n[parameters]\nm = 1\nm = 2\n", "(file)", "`m` is given twice: a key may appear once in a table"),
        (
            base.to_string() + "\n[frames.B]\nrotations = [{ z = \"x\" }]\n\n[points.G]\nposition = true\n",
            "points.G.position",
            "expected three components such as [\"x\", \"y\", 0], or a vector expression such as \"C + r*N.z\", found true",
        ),
        (
            base.to_string()
                + "\n[frames.B]\nrotations = [{ z = \"x\" }]\n\n[points.G]\nposition = [\"x\", \"y\", 0]\n\n[[bodies]]\nname = \"b\"\nframe = \"B\"\nmass = \"G\"\ncentre = \"G\"\nshape = { kind = \"ball\", radius = 1 }\n",
            "bodies[0].mass",
            "`G` is a point, and a number (a scalar) is expected here: use a component (`G_x`, `G_y`, `G_z`), or name a scalar of it in `[vectors]` (`h = \"norm(G)\"`)",
        ),
    ];
    for (text, field, message) in cases {
        let p = problems(&text);
        assert!(!p.is_empty(), "{text}");
        assert_eq!((p[0].field.as_str(), p[0].message.as_str()), (field, message), "{text}");
        assert!(p[0].position.is_some(), "{}", p[0]);
        for q in &p {
            for words in ["invalid type", "untagged", "did not match any variant", "expected a string", "f64"] {
                assert!(!q.message.contains(words), "{q}");
            }
        }
    }
    let body = base.to_string()
        + "\n[frames.B]\nrotations = [{ z = \"x\" }]\n\n[points.G]\nposition = [\"x\", \"y\", 0]\n\n[[bodies]]\nname = \"b\"\nframe = \"B\"\nmass = 1\ncentre = \"G\"\nshape = { kind = \"ball\", radius = 1 }\n";
    let p = problems(&body);
    assert_eq!(p[0].field, "bodies[0].shape.kind");
    assert_eq!(p[0].message, "`ball` is not a shape (one of disk, cylinder, sphere, box, ellipsoid, segments)");
    let json = r#"{"format": "nhlab/1", "title": "t", "coordinates": ["x"], "kinetic": "x'^2/2", "initial": {"q": {"x": 0, "x": 1}}}"#;
    let p = load_json(json).unwrap_err().0;
    assert_eq!(
        (p[0].field.as_str(), p[0].message.as_str()),
        ("initial.q.x", "`x` is given twice: a key may appear once in an object")
    );
}

/// JSON nested past the bound is refused at its place (it let a later misspelt key go
/// unreported: `potentail` was dropped and the system ran without its potential).
#[test]
fn json_nested_past_the_bound_is_refused_where_it_goes_too_deep() {
    let deep = |levels: usize| "[".repeat(levels) + &"]".repeat(levels);
    for levels in [100, 127, 128, 129, 200, 5000] {
        let json = format!(
            "{{\"format\": \"nhlab/1\", \"title\": \"t\", \"coordinates\": [\"x\"], \"kinetic\": \"x'^2/2\",\n\
             \"notes\": {},\n\"potentail\": \"x^2\", \"initial\": {{\"q\": {{\"x\": 0}}, \"v\": {{\"x\": 1}}}}}}",
            deep(levels)
        );
        match load_json(&json) {
            Ok((_, map)) => {
                let warned: Vec<&str> = map.warnings.iter().map(|w| w.field.as_str()).collect();
                assert!(warned.contains(&"potentail"), "{levels}: {warned:?}");
                assert!(warned.contains(&"notes"), "{levels}: {warned:?}");
            }
            Err(p) => {
                let first = &p.0[0];
                assert!(first.message.contains("nested"), "{levels}: {first:?}");
                assert_eq!(first.position.map(|(line, _)| line), Some(2), "{levels}: {first:?}");
            }
        }
    }
}

/// Division by a constant 0 has no value anywhere: it is refused at its field (it
/// folded to 0, `0/0` too, and the run failed later as "too stiff"); so are the
/// zero vector's `unit` and a zero gravity direction, which have no direction.
#[test]
fn division_by_zero_and_directionless_vectors_are_refused_at_their_field() {
    let base = "format = \"nhlab/1\"\ntitle = \"t\"\ncoordinates = [\"x\", \"y\"]\nkinetic = \"x'^2/2 + y'^2/2\"\n\n[parameters]\na = 2\n\n[initial]\nq = { x = 0, y = 0 }\n";
    for (kinetic, place) in [
        ("x'^2/0", "x'^2/0"),
        ("x'^2/(a - a) + y'^2", "(a - a)"),
        ("0/0 + x'^2", "0/0"),
        ("0^-1 * x'^2 + y'^2", "0^-1"),
        ("x'^2/2 + y'^2/(2*(a - 2)^2 - (a - 2)^2 - (a - 2)^2)", "(2*(a - 2)^2 - (a - 2)^2 - (a - 2)^2)"),
    ] {
        let text = base.replace("x'^2/2 + y'^2/2", kinetic);
        let p = problems(&text);
        assert_eq!(p.len(), 1, "{kinetic}: {p:?}");
        assert_eq!(
            (p[0].field.as_str(), p[0].message.as_str()),
            ("kinetic", "division by zero: the divisor is the constant 0"),
            "{kinetic}"
        );
        // The position points at the divisor as written.
        let (line, column) = p[0].position.expect("positioned");
        let at = text.lines().nth(line - 1).unwrap();
        assert!(at[column - 1..].starts_with(place) || at[..].contains(place), "{kinetic}: {at} at {column}");
    }
    // A divisor that is zero only somewhere is no error: `1/x` at x = 0 is the run's to report.
    assert!(problems(&base.replace("x'^2/2 + y'^2/2", "x'^2/2 + y'^2/2 + 0*(1/(a + 1))")).is_empty());
    let bodies = base.to_string()
        + "\n[frames.B]\nrotations = [{ z = \"x\" }]\n\n[points.G]\nposition = [\"x\", \"y\", 0]\n\n[[bodies]]\nname = \"b\"\nframe = \"B\"\nmass = 1\ncentre = \"G\"\ninertia = { xx = 1, yy = 1, zz = \"INERTIA\" }\n";
    let p = problems(&bodies.replace("INERTIA", "0/0"));
    assert_eq!(
        (p[0].field.as_str(), p[0].message.as_str()),
        ("bodies[0].inertia.zz", "division by zero: the divisor is the constant 0")
    );
    let gravity = bodies.replace("\"INERTIA\"", "1") + "\n[gravity]\nmagnitude = 9.81\ndirection = [0, 0, \"0*a\"]\n";
    let p = problems(&gravity);
    assert_eq!(p[0].field, "gravity.direction", "{p:?}");
    assert!(p[0].message.contains("no direction"), "{p:?}");
    let unit = bodies.replace("\"INERTIA\"", "1") + "\n[vectors]\nu = \"unit(0*N.x)\"\n";
    let p = problems(&unit);
    assert_eq!(p[0].field, "vectors.u", "{p:?}");
    assert!(p[0].message.contains("`unit` of the zero vector"), "{p:?}");
}

/// Issue 57: two constraints with one name were accepted (`eval`'s `reactions` kept
/// one of them, the CSV had two columns of one name), and two contacts likewise.
/// The second is refused where it is written.
#[test]
fn a_constraint_or_contact_name_given_twice_is_refused_at_the_second() {
    let text = nhlab_tests::scenarios::text("chaplygin-sleigh")
        .replace("[initial]", "[[constraints]]\nname = \"edge\"\nexpr = \"x' - y'\"\n\n[initial]");
    let p = problems(&text);
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(p[0].field, "constraints[1].name");
    assert!(p[0].message.contains("`edge` names another constraint already (constraints[0])"), "{}", p[0].message);
    // At the added constraint's `name`, the line before its `expr`.
    let expr_line = text.lines().position(|l| l == "expr = \"x' - y'\"").unwrap();
    assert_eq!(p[0].position.map(|x| x.0), Some(expr_line), "{p:?}");

    let disk = nhlab_tests::scenarios::text("rolling-disk");
    // Two contacts (at two points) under one name.
    let twice = disk.replace(
        "[[rolling]]\nbody = \"disk\"\ncontact = \"C\"",
        "[[rolling]]\nname = \"wheel\"\nbody = \"disk\"\ncontact = \"C\"\n\n[[rolling]]\nname = \"wheel\"\nbody = \"disk\"\ncontact = \"G\"",
    );
    assert_ne!(twice, disk);
    let p = problems(&twice);
    assert_eq!(p.len(), 1, "said once for the contact's constraints: {p:?}");
    assert_eq!(p[0].field, "rolling[1].name", "{p:?}");
    assert!(p[0].message.contains("names another constraint already (rolling[0])"), "{}", p[0].message);
}
