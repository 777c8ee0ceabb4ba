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

/// An output written piece by piece (a long table, row by row as its runs go):
/// standard output, where a reader that has gone away ends the writing quietly, or a
/// file, created at once so that an unwritable path is refused before any work.
pub struct Stream {
    out: std::io::BufWriter<Box<dyn Write>>,
    /// `--out PATH` for messages; empty for standard output.
    place: String,
    /// The reader of standard output has gone away: the rest is dropped.
    closed: bool,
}

impl Stream {
    /// Opens `path` (`-`: standard output) for `flag`.
    pub fn open(path: &str, flag: &str) -> Result<Stream, Failure> {
        let (sink, place): (Box<dyn Write>, String) = if path == "-" {
            (Box::new(std::io::stdout()), String::new())
        } else {
            let file = std::fs::File::create(path).map_err(|e| Failure::bad(format!("{flag} {path}: {e}")))?;
            (Box::new(file), format!("{flag} {path}"))
        };
        Ok(Stream { out: std::io::BufWriter::with_capacity(1 << 20, sink), place, closed: false })
    }

    /// Writes `text`.
    pub fn write(&mut self, text: &str) -> Result<(), Failure> {
        if self.closed {
            return Ok(());
        }
        let written = self.out.write_all(text.as_bytes());
        self.check(written)
    }

    /// Writes what is buffered; the end of the output.
    pub fn finish(mut self) -> Result<(), Failure> {
        if self.closed {
            return Ok(());
        }
        let flushed = self.out.flush();
        self.check(flushed)
    }

    fn check(&mut self, result: std::io::Result<()>) -> Result<(), Failure> {
        match result {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == ErrorKind::BrokenPipe && self.place.is_empty() => {
                self.closed = true;
                Ok(())
            }
            Err(e) if self.place.is_empty() => Err(Failure::Compute(format!("writing to standard output: {e}"))),
            Err(e) => Err(Failure::Compute(format!("{}: {e}", self.place))),
        }
    }
}
