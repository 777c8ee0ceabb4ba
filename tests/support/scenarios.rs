//! Loading the scenarios under `scenarios/` for tests.

use nhlab::mechanics::{Model, NumericModel};
use nhlab::scenario::{load_toml, Scenario, SourceMap};
use nhlab::simulation::{initial_state, State};
use nhlab::stability::Derivatives;

/// The names of every file under `scenarios/` (without `.toml`), sorted.
pub fn names() -> Vec<String> {
    let dir = format!("{}/../scenarios", env!("CARGO_MANIFEST_DIR"));
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("scenarios/")
        .map(|e| e.expect("a directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .map(|p| p.file_stem().unwrap_or_default().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// The text of `scenarios/<name>.toml`.
pub fn text(name: &str) -> String {
    let path = format!("{}/../scenarios/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A scenario file's model, compiled model and initial state.
pub fn load(name: &str) -> (Model, NumericModel, State) {
    let (scenario, map) = load_toml(&text(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    build(&scenario, &map)
}

/// A scenario file's model, compiled model and exact derivatives: what a
/// linearisation takes.
pub fn linearisable(name: &str) -> (Model, NumericModel, Derivatives) {
    let (model, numeric, _) = load(name);
    let derivatives = Derivatives::new(&model).unwrap_or_else(|e| panic!("{name}: {e:?}"));
    (model, numeric, derivatives)
}

/// Whether `model`'s constraints are redundant at its initial state (the
/// differential-drive robot): its accelerations are defined only where the
/// redundant rows agree, on the constraints, so tests at random states leave it out.
pub fn redundant(model: &Model) -> bool {
    model.redundancy(&model.initial_reference()).is_some()
}

/// A scenario text's model, compiled model and initial state.
pub fn build_text(text: &str) -> (Model, NumericModel, State) {
    let (scenario, map) = load_toml(text).unwrap_or_else(|e| panic!("{e}"));
    build(&scenario, &map)
}

/// A scenario's model, compiled model and initial state.
pub fn build(scenario: &Scenario, map: &SourceMap) -> (Model, NumericModel, State) {
    let model = Model::build(scenario, map).unwrap_or_else(|e| panic!("{}: {e}", scenario.title));
    let mut numeric = NumericModel::new(&model).expect("compiles");
    let state = initial_state(&model, &mut numeric, map).unwrap_or_else(|e| panic!("{}: {e}", scenario.title));
    (model, numeric, state)
}

/// A text's model and compiled model.
pub fn compiled(text: &str) -> (Model, NumericModel) {
    let (scenario, map) = load_toml(text).unwrap_or_else(|e| panic!("{e}"));
    let model = Model::build(&scenario, &map).unwrap_or_else(|e| panic!("{}: {e}", scenario.title));
    let numeric = NumericModel::new(&model).expect("compiles");
    (model, numeric)
}

/// A massless coordinate `y` tied to `x` by `y' = x' + t`: `M` is singular, so
/// Lagrange's range-space solve declines and the pivoted LU answers. By hand, at any
/// state: `λ = c`, `m ẍ = −k x − λ`.
pub const MASSLESS_COORDINATE: &str = include_str!("../fixtures/a-massless-coordinate-tied-to-a-spring.toml");
