//! Samples as the tables of `nhlab run` (`docs/contract.md`): CSV (a header row, then
//! the rows: what `pandas.read_csv` and Python's `csv.DictReader` read with no
//! options), or `{"comment": …, "columns": …, "rows": …}` JSON. What the samples are
//! (`samples at the accepted steps of dopri5 (rtol = …)`) is the table's provenance,
//! written beside a CSV file ([`Table::provenance_json`]) and inside the JSON. The web
//! lab's CSV export uses the same code, so both write the same file for the same run.
//!
//! Columns: `method`, `t`, every coordinate, every velocity (`x'`), `mu1…` when a
//! vakonomic run is among them (empty for the others), `energy` (`T + V`; named
//! `energy_h` where it is the energy function `h = T₂ − T₀ + V` instead, `T`
//! having terms linear in the velocities or free of them), `res_<constraint>`
//! for each constraint (its residual as written: `φ` for a holonomic constraint),
//! `E_<coordinate>` for each independent coordinate of the model's Hamel split
//! (empty where the split is singular), and last `dres_<constraint>` for each
//! holonomic constraint: its velocity-level residual `φ_q v + φ_t`; then for each
//! `[[rolling]]` contact its force — `N_<contact>`, `Ft1_<contact>`, `Ft2_<contact>`,
//! `Ft_<contact>`, `mu_needed_<contact>` (empty where the model does not determine
//! them) and `mu_<contact>`, its friction coefficient (empty without one); with parameter sets (`[compare]`), `set` names each row's set. The `dres_` and `set` columns
//! come after the contract's columns so that those keep their places.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::formulations::Method;
use crate::integrators::IntegratorKind;
use crate::math::Short;
use crate::mechanics::{Model, CONTACT_COLUMN_PREFIXES};
use crate::simulation::{Diagnostics, Sample, SampleRef, Samples, Settings};

/// One cell.
#[derive(Clone, Debug, PartialEq)]
pub enum Cell {
    /// Text (the method).
    Text(String),
    /// A number.
    Number(f64),
    /// Not applicable here.
    Empty,
}

/// A table of samples.
#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    /// What the rows are: the table's provenance (in the JSON form and beside a CSV).
    pub comment: String,
    /// Column names.
    pub columns: Vec<String>,
    /// Rows of cells.
    pub rows: Vec<Vec<Cell>>,
    /// The first time at which some sample had no E-vector although the model has a
    /// split (its split was singular there), for a warning.
    pub singular_split_at: Option<f64>,
}

/// The comment line of a table of runs recorded at every step (`advance_to`/`step`).
pub fn step_comment(settings: &Settings) -> String {
    match settings.integrator {
        IntegratorKind::Rk4 | IntegratorKind::Rattle | IntegratorKind::Rattle4 => {
            format!("samples on a regular grid: {} with dt = {}", settings.integrator.id(), Short(settings.dt))
        }
        IntegratorKind::Dopri5 => format!(
            "samples at the accepted steps of dopri5 (rtol = {}, atol = {})",
            Short(settings.rtol),
            Short(settings.atol)
        ),
    }
}

/// One run's samples for a table.
#[derive(Clone, Copy, Debug)]
pub struct RunSamples<'a> {
    /// Its method.
    pub method: Method,
    /// Its parameter set's name in `[compare]`; `None`: the scenario's own values.
    pub set: Option<&'a str>,
    /// Its integrator's id when the runs overlay integrators (the `integrator`
    /// column); `None` otherwise.
    pub integrator: Option<&'a str>,
    /// Its samples.
    pub samples: SamplesOf<'a>,
}

/// Samples as a run keeps them ([`Samples`], from some sample on) or owned.
#[derive(Clone, Copy, Debug)]
pub enum SamplesOf<'a> {
    /// Owned samples.
    Slice(&'a [Sample]),
    /// A run's samples from `from` on.
    Stored {
        /// The run's samples.
        samples: &'a Samples,
        /// The first one written.
        from: usize,
    },
}

impl<'a> SamplesOf<'a> {
    fn iter(self) -> alloc::boxed::Box<dyn Iterator<Item = SampleRef<'a>> + 'a> {
        match self {
            SamplesOf::Slice(s) => alloc::boxed::Box::new(s.iter().map(SampleRef::from)),
            SamplesOf::Stored { samples, from } => alloc::boxed::Box::new(samples.iter().skip(from)),
        }
    }
}

impl<'a> From<&'a [Sample]> for SamplesOf<'a> {
    fn from(s: &'a [Sample]) -> Self {
        SamplesOf::Slice(s)
    }
}

impl<'a> From<&'a Samples> for SamplesOf<'a> {
    fn from(samples: &'a Samples) -> Self {
        SamplesOf::Stored { samples, from: 0 }
    }
}

/// The table of several runs of one model with the scenario's own parameters, in
/// the given order.
pub fn samples_table(model: &Model, runs: &[(Method, &[Sample])], comment: String) -> Table {
    let runs: Vec<RunSamples> = runs
        .iter()
        .map(|&(method, samples)| RunSamples { method, set: None, integrator: None, samples: samples.into() })
        .collect();
    samples_table_for(model, &runs, comment, Diagnostics::ALL)
}

/// As [`samples_table`], with only the diagnostic columns of `columns` (the samples
/// must have been computed with at least those): `energy`, the residuals
/// (`res_…`, `dres_…`), the E-vector (`E_…`). The state's columns are always there.
///
/// When a run has a parameter set, a last column `set` names it (empty for the
/// scenario's own values).
pub fn samples_table_for(model: &Model, runs: &[RunSamples], comment: String, columns: Diagnostics) -> Table {
    let vakonomic = runs.iter().any(|r| r.method == Method::Vakonomic);
    let with_sets = runs.iter().any(|r| r.set.is_some());
    let with_integrators = runs.iter().any(|r| r.integrator.is_some());
    let layout = Columns::new(model, columns, vakonomic, with_sets, with_integrators);
    let mut rows = Vec::new();
    let mut singular_split_at = None;
    for run in runs {
        if let Some(t) = layout.rows(run, |row| rows.push(row)) {
            singular_split_at.get_or_insert(t);
        }
    }
    Table { comment, columns: layout.names, rows, singular_split_at }
}

/// The columns of a table of runs, known before any run is made, so that a long
/// table can be written row by row as its runs finish ([`Columns::rows`],
/// [`csv_line`], [`json_row`]) instead of being held whole.
#[derive(Clone, Debug, PartialEq)]
pub struct Columns {
    /// Column names.
    pub names: Vec<String>,
    wanted: Diagnostics,
    constraints: usize,
    vakonomic: bool,
    e_columns: usize,
    holonomic: Vec<usize>,
    /// Contact-force columns (0 when not asked for or without contacts).
    contact_columns: usize,
    with_sets: bool,
    with_integrators: bool,
}

impl Columns {
    /// The columns for runs of `model` with the diagnostics `wanted`; `vakonomic`:
    /// some run is vakonomic (its `mu` columns); `with_sets`: some run has a `[compare]`
    /// set (the `set` column); `with_integrators`: the runs overlay integrators (the
    /// `integrator` column, last).
    pub fn new(model: &Model, wanted: Diagnostics, vakonomic: bool, with_sets: bool, with_integrators: bool) -> Self {
        let names_q = model.coordinate_names();
        let m = model.constraints.len();
        let mut names: Vec<String> = alloc::vec!["method".into(), "t".into()];
        names.extend(names_q.iter().cloned());
        names.extend(names_q.iter().map(|q| format!("{q}'")));
        if vakonomic {
            names.extend((1..=m).map(|k| format!("mu{k}")));
        }
        if wanted.energy {
            names.push(crate::mechanics::energy_form(model).column().into());
        }
        if wanted.residuals {
            names.extend(model.constraints.iter().map(|c| format!("res_{}", column_name(&c.name))));
        }
        let e_columns: Vec<usize> = match (&model.hamel, wanted.e_vector) {
            (Ok(h), true) => h.independent.clone(),
            _ => Vec::new(),
        };
        names.extend(e_columns.iter().map(|&i| format!("E_{}", names_q[i])));
        let holonomic: Vec<usize> = match wanted.residuals {
            true => (0..m).filter(|&j| model.constraints[j].is_holonomic()).collect(),
            false => Vec::new(),
        };
        names.extend(holonomic.iter().map(|&j| format!("dres_{}", column_name(&model.constraints[j].name))));
        let contacts = model.contacts.as_ref().filter(|_| wanted.contacts).map_or(&[][..], |c| &c.contacts[..]);
        for contact in contacts {
            names.extend(CONTACT_COLUMN_PREFIXES.iter().map(|prefix| format!("{prefix}_{}", contact.name)));
        }
        let contact_columns = contacts.len() * CONTACT_COLUMN_PREFIXES.len();
        if with_sets {
            names.push("set".into());
        }
        if with_integrators {
            names.push("integrator".into());
        }
        Columns {
            names,
            wanted,
            constraints: m,
            vakonomic,
            e_columns: e_columns.len(),
            holonomic,
            contact_columns,
            with_sets,
            with_integrators,
        }
    }

    /// Gives `emit` each row of `run`, in order; returns the first time at which a
    /// sample had no E-vector although the model has a split (its split was singular
    /// there), for a warning.
    pub fn rows(&self, run: &RunSamples, mut emit: impl FnMut(Vec<Cell>)) -> Option<f64> {
        let &RunSamples { method, set, integrator, samples } = run;
        let mut singular_split_at = None;
        for s in samples.iter() {
            let mut row = Vec::with_capacity(self.names.len());
            row.extend([Cell::Text(method.id().into()), Cell::Number(s.t)]);
            row.extend(s.q.iter().chain(s.v).map(|&x| Cell::Number(x)));
            if self.vakonomic {
                if method == Method::Vakonomic {
                    row.extend(s.mu.iter().map(|&x| Cell::Number(x)));
                } else {
                    row.extend((0..self.constraints).map(|_| Cell::Empty));
                }
            }
            if self.wanted.energy {
                row.push(Cell::Number(s.energy));
            }
            if self.wanted.residuals {
                row.extend(s.residuals.iter().map(|&x| Cell::Number(x)));
            }
            match s.e_vector {
                Some(e) if self.wanted.e_vector => row.extend(e.iter().map(|&x| Cell::Number(x))),
                Some(_) => {}
                None if self.e_columns > 0 => {
                    singular_split_at.get_or_insert(s.t);
                    row.extend((0..self.e_columns).map(|_| Cell::Empty));
                }
                None => {}
            }
            row.extend(self.holonomic.iter().map(|&j| Cell::Number(s.velocity_residuals[j])));
            if s.contact_forces.len() == self.contact_columns {
                // Not determined (or not balanced): empty, as an undefined E is.
                row.extend(s.contact_forces.iter().map(|&x| if x.is_finite() { Cell::Number(x) } else { Cell::Empty }));
            } else {
                row.extend((0..self.contact_columns).map(|_| Cell::Empty));
            }
            if self.with_sets {
                row.push(set.map_or(Cell::Empty, |name| Cell::Text(name.into())));
            }
            if self.with_integrators {
                row.push(integrator.map_or(Cell::Empty, |id| Cell::Text(id.into())));
            }
            emit(row);
        }
        singular_split_at
    }

    /// The CSV header line, with its newline.
    pub fn csv_header(&self) -> String {
        let header: Vec<String> = self.names.iter().map(|c| csv_field(c)).collect();
        format!("{}\n", header.join(","))
    }

    /// The JSON table's text before its first row (`{"columns":…,"comment":…,"rows":[`),
    /// as [`Table::to_json`] writes it.
    pub fn json_opening(&self, comment: &str) -> String {
        format!(
            "{{\"columns\":{},\"comment\":{},\"rows\":[",
            serde_json::Value::from(self.names.clone()),
            serde_json::Value::from(comment)
        )
    }
}

/// One CSV row, with its newline; numbers in Rust's shortest round-trip form.
pub fn csv_line(row: &[Cell]) -> String {
    let cells: Vec<String> = row
        .iter()
        .map(|c| match c {
            Cell::Text(s) => csv_field(s),
            Cell::Number(x) => format!("{x:?}"),
            Cell::Empty => String::new(),
        })
        .collect();
    let mut line = cells.join(",");
    line.push('\n');
    line
}

/// One row of the JSON table (`null` for an empty cell), as [`Table::to_json`] writes it.
pub fn json_row(row: &[Cell]) -> String {
    use serde_json::Value;
    let cells: Vec<Value> = row
        .iter()
        .map(|c| match c {
            Cell::Text(s) => Value::from(s.as_str()),
            Cell::Number(x) => Value::from(*x),
            Cell::Empty => Value::Null,
        })
        .collect();
    Value::Array(cells).to_string()
}

/// A constraint's name as a column suffix: `#2` (an unnamed constraint) gives `2`.
pub fn column_name(constraint: &str) -> &str {
    constraint.trim_start_matches('#')
}

/// Quotes a CSV field when it holds a comma, quote or newline.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

impl Table {
    /// CSV: the header row, then the rows; numbers in Rust's shortest round-trip form.
    pub fn to_csv(&self) -> String {
        let header: Vec<String> = self.columns.iter().map(|c| csv_field(c)).collect();
        let mut out = format!("{}\n", header.join(","));
        for row in &self.rows {
            out.push_str(&csv_line(row));
        }
        out
    }

    /// What a CSV file's readers need besides its rows, as JSON for the file beside
    /// it: `{"scenario": title, "samples": what the rows are, "columns": […],
    /// "nhlab": version}`.
    pub fn provenance_json(&self, title: &str) -> String {
        let value = serde_json::json!({
            "scenario": title,
            "samples": self.comment,
            "columns": self.columns,
            "nhlab": env!("CARGO_PKG_VERSION"),
        });
        value.to_string() + "\n"
    }

    /// `{"comment": …, "columns": […], "rows": [[…]]}` with null for empty cells.
    pub fn to_json(&self) -> String {
        use serde_json::{json, Value};
        let rows: Vec<Vec<Value>> = self
            .rows
            .iter()
            .map(|r| {
                r.iter()
                    .map(|c| match c {
                        Cell::Text(s) => json!(s),
                        Cell::Number(x) => json!(x),
                        Cell::Empty => Value::Null,
                    })
                    .collect()
            })
            .collect();
        json!({"comment": self.comment, "columns": self.columns, "rows": rows}).to_string()
    }
}
