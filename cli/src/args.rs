//! The command line's grammar, as clap reads it.

use clap::{Args, Parser, Subcommand, ValueEnum};

/// nhlab: derive and integrate constrained and nonholonomic mechanics.
#[derive(Parser)]
#[command(name = "nhlab", version, about)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
    /// Language of a scenario's problems and of the notes the core words (why a run
    /// ended, slip and lift-off spans): en (default) or zh. The command line's own
    /// words, the numbers and the files written stay as they are.
    #[arg(long, global = true, value_name = "LANG", value_parser = parse_language)]
    pub language: Option<nhlab_texts::i18n::Language>,
}

/// `en` or `zh` (`zh-CN` and the like too).
fn parse_language(given: &str) -> Result<nhlab_texts::i18n::Language, String> {
    nhlab_texts::i18n::Language::from_id(given).ok_or_else(|| format!("unknown language `{given}` (use en or zh)"))
}

#[derive(Subcommand)]
pub enum Command {
    /// Load and validate a scenario; print its coordinates, parameters and constraints.
    Check(FileArgs),
    /// Print the equations of motion of a method.
    Derive(DeriveArgs),
    /// Evaluate a method once, at the initial state or at `--at`; prints one JSON object.
    Eval(EvalArgs),
    /// Integrate and write samples (CSV or JSON).
    Run(RunArgs),
    /// Linear stability about a state: eigenvalues, optionally against a swept value.
    Linearize(LinearizeArgs),
    /// Write the equations as one self-contained source file: C, Python, MATLAB/Octave or Rust.
    Export(ExportArgs),
}

#[derive(Args)]
pub struct ExportArgs {
    /// Scenario file; `-` reads standard input.
    pub file: String,
    /// Language: c, python, matlab or rust.
    #[arg(long)]
    pub lang: String,
    /// Method id (Lagrange's equations with multipliers are exported).
    #[arg(long, default_value = "lagrange")]
    pub method: String,
    /// Output: a file path or `-`. Its stem names the MATLAB function and the C
    /// functions' prefix (default: the scenario file's stem).
    #[arg(long, default_value = "-")]
    pub out: String,
}

#[derive(Args)]
pub struct FileArgs {
    /// Scenario file (.toml or .json); `-` reads standard input.
    pub file: String,
}

#[derive(Clone, Copy, ValueEnum)]
pub enum DeriveFormat {
    Text,
    Latex,
    Mathml,
    Json,
}

#[derive(Args)]
pub struct DeriveArgs {
    /// Scenario file; `-` reads standard input.
    pub file: String,
    /// Method id.
    #[arg(long)]
    pub method: String,
    /// Output format.
    #[arg(long, value_enum, default_value = "text")]
    pub format: DeriveFormat,
}

#[derive(Args)]
pub struct EvalArgs {
    /// Scenario file; `-` reads standard input.
    pub file: String,
    /// Method id.
    #[arg(long)]
    pub method: String,
    /// The state: `NAME=VALUE,…` with `t`, coordinates and velocities (`x'`).
    #[arg(long)]
    pub at: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TableFormat {
    Csv,
    Json,
}

#[derive(Args)]
pub struct RunArgs {
    /// Scenario file; `-` reads standard input.
    pub file: String,
    /// `NAME=SIGNAL`: drive input NAME by an expression of `t` (`0.5*sin(2*t)`) or by
    /// `@FILE.csv`, `t,u` rows read as a piecewise-linear table (repeat for several);
    /// replaces the scenario's `signal`.
    #[arg(long = "input", allow_hyphen_values = true)]
    pub inputs: Vec<String>,
    /// Method ids (repeat for several); default: the scenario's `run.methods`.
    #[arg(long = "method")]
    pub methods: Vec<String>,
    /// End time; default: the scenario's `run.t_end`.
    #[arg(long)]
    pub t_end: Option<f64>,
    /// Integrator ids (repeat for several: every method runs under each, and the
    /// table gains an `integrator` column); default: the scenario's
    /// `run.integrators` or `run.integrator`.
    #[arg(long = "integrator")]
    pub integrators: Vec<String>,
    /// The step of the fixed-step integrators (`rk4`, `rattle`, `rattle4`);
    /// default: the scenario's `run.dt`.
    #[arg(long)]
    pub dt: Option<f64>,
    /// Sample exactly at these times, from dense output: a comma-separated list of
    /// times and ranges `START:STOP:STEP` (STOP included), e.g. `0:10:0.01,12.5`.
    #[arg(long, allow_hyphen_values = true)]
    pub sample_at: Option<String>,
    /// Output: a file path (any writable path, `/dev/null` too) or `-` (standard output).
    #[arg(long, default_value = "-")]
    pub out: String,
    /// Table format; default: from `--out`'s extension (`.json` gives JSON), else CSV.
    #[arg(long, value_enum)]
    pub format: Option<TableFormat>,
    /// Most steps per method; a run that reaches it stops with a message, its samples written.
    #[arg(long, default_value_t = nhlab::simulation::Limits::DEFAULT_STEPS)]
    pub max_steps: u64,
    /// Most samples per method (the first included); as for --max-steps.
    #[arg(long, default_value_t = nhlab::simulation::Limits::DEFAULT_SAMPLES)]
    pub max_samples: usize,
    /// Wall-clock seconds for all the command's runs together; the run in progress
    /// stops with a message, every sample so far written.
    #[arg(long, default_value_t = 600.0)]
    pub max_seconds: f64,
    /// Figure: `FILE.svg` or `FILE.png`.
    #[arg(long)]
    pub plot: Option<String>,
    /// The scene at chosen times, a strip of frames: `FILE.svg` or `FILE.png`.
    #[arg(long)]
    pub scene: Option<String>,
    /// Times of the scene's frames: `T1,T2,…` or `START:STOP:STEP` (default: five,
    /// from the start to the end).
    #[arg(long, requires = "scene")]
    pub frames: Option<String>,
    /// The table's columns besides the state (`method`, `t`, coordinates,
    /// velocities, `mu…`): a comma-separated list of `energy`, `residuals` (`res_…`
    /// and `dres_…`), `e` (the E-vector), or `all` (the default) or `state` (none).
    /// A run computes only what it writes (and what `--plot` draws).
    #[arg(long, default_value = "all")]
    pub columns: String,
    /// Lagrange's right-hand side as machine code (Cranelift), as the page computes
    /// it: the default (the flag is kept for scripts that pass it).
    #[arg(long, conflicts_with = "interpret")]
    pub native: bool,
    /// Interpret Lagrange's right-hand side instead of compiling it: agrees with the
    /// default to rounding, not bit for bit (slower; for comparisons).
    #[arg(long)]
    pub interpret: bool,
    /// Exit 1 also when a method ends early by design (Hamel's split turning
    /// singular), which is otherwise a note.
    #[arg(long)]
    pub strict: bool,
    /// An ensemble: one run per row of this CSV file, whose header names parameters,
    /// coordinates (initial values) and speeds (`x'`; those not named are solved from
    /// the constraints); writes one row per case — its values, `ended`, the final
    /// time and state (`final_t`, `final_x`, `final_x'`), and the first time each contact lifted off or slipped.
    #[arg(long)]
    pub cases: Option<String>,
    /// Threads an ensemble runs on (default: every core). Its rows are the same on
    /// any number.
    #[arg(long, requires = "cases")]
    pub threads: Option<usize>,
}

#[derive(Args, Clone)]
pub struct LinearizeArgs {
    /// Scenario file; `-` reads standard input.
    pub file: String,
    /// Method id: `lagrange` or an ideal formulation equal to it (default: the
    /// scenario's `stability.method`, else `lagrange`).
    #[arg(long)]
    pub method: Option<String>,
    /// The reference state, as for `eval`: `NAME=VALUE,…`, after the scenario's
    /// `stability.at` (default: the initial state).
    #[arg(long)]
    pub at: Option<String>,
    /// Coordinates the equations do not depend on, comma-separated (removed;
    /// default: the scenario's `stability.ignorable`).
    #[arg(long)]
    pub ignorable: Option<String>,
    /// The coordinates solved from the constraints, one per constraint,
    /// comma-separated (default: the scenario's `stability.dependent`, else chosen).
    #[arg(long)]
    pub dependent: Option<String>,
    /// `NAME=START:STOP:STEP`: a parameter or a velocity (`x'`) swept over the range
    /// (default: the scenario's `stability.sweep`). Given two or three times: a
    /// stability map over the grid of their values (the last fastest).
    #[arg(long, allow_hyphen_values = true)]
    pub sweep: Vec<String>,
    /// Threads a stability map is computed on (default: every core). The map is the
    /// same on any number.
    #[arg(long)]
    pub threads: Option<usize>,
    /// `I:J`: only the values I to J−1 of a map's first axis (counting from 0), and
    /// the boundaries from them: chunks that put together are the whole map, bit for
    /// bit (for spreading a map over machines, as Python's `client=` does).
    #[arg(long)]
    pub rows: Option<String>,
    /// No sweep, even if the scenario declares one.
    #[arg(long, conflicts_with = "sweep")]
    pub no_sweep: bool,
    /// The scenario's stability map: `stability.sweep` and `stability.map` as its two
    /// axes, at every one of their values (the page's map takes up to 100 of each).
    #[arg(long, conflicts_with_all = ["sweep", "no_sweep"])]
    pub map: bool,
    /// Also give each eigenvalue's eigenvector (JSON only).
    #[arg(long)]
    pub eigenvectors: bool,
    /// The matrices of `ẋ = A x + B u` about the reference (JSON): `A` on the
    /// reduced state, `B` a column per `[inputs]` entry (taken at its `value`,
    /// its signal ignored). No sweep.
    #[arg(long, conflicts_with_all = ["sweep", "plot"])]
    pub state_space: bool,
    /// Keeps these ignorable coordinates' speeds in the state, comma-separated
    /// (`phi` or `phi'`), where they would be held at their reference value (a
    /// speed nothing couples to, such as the disk's spin): so that `B` has a row
    /// for an input that drives them.
    #[arg(long)]
    pub keep_speed: Option<String>,
    /// Output: a file path or `-`.
    #[arg(long, default_value = "-")]
    pub out: String,
    /// Table format; default: from `--out`'s extension (`.csv` gives CSV), else JSON.
    #[arg(long, value_enum)]
    pub format: Option<TableFormat>,
    /// A figure of the eigenvalues against the swept value (`.svg` or `.png`).
    #[arg(long)]
    pub plot: Option<String>,
}
