//! Writing results: standard output, where a closed pipe (`nhlab run … | head`) is a
//! normal end and stops quietly, and output files, where any writable path will do
//! (`/dev/null` too). Other write errors are failures with a message (exit 1).

use std::io::{ErrorKind, Write};

use crate::Failure;

/// Writes `text` to standard output. A reader that has gone away is not an error.
pub fn emit(text: &str) -> Result<(), Failure> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(Failure::Compute(format!("writing to standard output: {e}"))),
    }
}

/// Writes `text` to `path`, or to standard output when `path` is `-`.
pub fn write_to(path: &str, flag: &str, text: &str) -> Result<(), Failure> {
    if path == "-" {
        return emit(text);
    }
    let mut file = std::fs::File::create(path).map_err(|e| Failure::bad(format!("{flag} {path}: {e}")))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.flush())
        .map_err(|e| Failure::Compute(format!("{flag} {path}: {e}")))
}
