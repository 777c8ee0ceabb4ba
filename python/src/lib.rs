//! `nhlab._nhlab`, the native half of the Python package: the command line's
//! commands run in process (`nhlab_cli::run_captured`), so that every number the
//! package gives is the command line's own, and the gallery. The Python half
//! (`python/nhlab/`) turns the commands' CSV and JSON into pandas and NumPy.
//!
//! Each command runs with the GIL released (`Python::detach`): two threads run two
//! models at once. A panic is caught and raised as `RuntimeError`, never as PyO3's
//! `PanicException` (a `BaseException` that `except Exception` would not catch).

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Runs `nhlab ARGS…` in this process with `stdin` as its standard input; returns
/// `(status, stdout, stderr)` as the binary would have given them.
#[pyfunction]
#[pyo3(signature = (args, stdin=None))]
fn run_cli<'py>(
    py: Python<'py>,
    args: Vec<String>,
    stdin: Option<String>,
) -> PyResult<(u8, Bound<'py, PyBytes>, Bound<'py, PyBytes>)> {
    let outcome = py.detach(move || {
        std::panic::catch_unwind(move || nhlab_cli::run_captured(&args, stdin)).map_err(|panic| {
            panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| (*s).to_string()))
                .unwrap_or_else(|| "a panic without a message".into())
        })
    });
    match outcome {
        Ok(c) => Ok((c.status, PyBytes::new(py, &c.stdout), PyBytes::new(py, &c.stderr))),
        Err(why) => Err(PyRuntimeError::new_err(format!("nhlab: internal error (please report it): {why}"))),
    }
}

/// The gallery's names, sorted.
#[pyfunction]
fn gallery_names() -> Vec<&'static str> {
    nhlab_texts::gallery::names().collect()
}

/// The text of gallery item `name`, or `None`.
#[pyfunction]
fn gallery_text(name: &str) -> Option<&'static str> {
    nhlab_texts::gallery::text(name)
}

/// The nhlab version the package was built from.
#[pyfunction]
fn version() -> &'static str {
    env!("CARGO_PKG_VERSION")
}

#[pymodule]
fn _nhlab(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(run_cli, m)?)?;
    m.add_function(wrap_pyfunction!(gallery_names, m)?)?;
    m.add_function(wrap_pyfunction!(gallery_text, m)?)?;
    m.add_function(wrap_pyfunction!(version, m)?)?;
    Ok(())
}
