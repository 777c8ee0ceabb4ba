//! Writing results: standard output, where a closed pipe (`nhlab run … | head`) is a
//! normal end and stops quietly, and output files, where any writable path will do
//! (`/dev/null` too). Other write errors are failures with a message (exit 1).

use std::cell::RefCell;
use std::io::{ErrorKind, Write};

use crate::Failure;

/// A command run in process ([`crate::run_captured`]): its exit status and what it
/// wrote to standard output and to standard error.
#[derive(Clone, Debug, Default)]
pub struct Captured {
    /// The exit status the binary would have had (0, 1 or 2).
    pub status: u8,
    /// What it wrote to standard output: the table, the JSON, the report.
    pub stdout: Vec<u8>,
    /// What it wrote to standard error: notes, warnings and `error: …` lines.
    pub stderr: Vec<u8>,
}

/// This thread's capture: standard input's text, and the outputs so far.
struct Capture {
    stdin: Option<String>,
    stdout: Vec<u8>,
    stderr: Vec<u8>,
}

thread_local! {
    static CAPTURE: RefCell<Option<Capture>> = const { RefCell::new(None) };
}

/// Runs `command` with standard input, output and error captured in this thread.
pub(crate) fn capturing(stdin: Option<String>, command: impl FnOnce() -> u8) -> Captured {
    let previous = CAPTURE.with(|c| c.replace(Some(Capture { stdin, stdout: Vec::new(), stderr: Vec::new() })));
    let status = command();
    let taken = CAPTURE.with(|c| c.replace(previous)).expect("the capture set above");
    Captured { status, stdout: taken.stdout, stderr: taken.stderr }
}

/// Appends to the capture's standard output or error; false when none is set.
fn captured(bytes: &[u8], error: bool) -> bool {
    CAPTURE.with(|c| match c.borrow_mut().as_mut() {
        Some(capture) => {
            if error { &mut capture.stderr } else { &mut capture.stdout }.extend_from_slice(bytes);
            true
        }
        None => false,
    })
}

/// The captured standard input, taken (it is read once); `None` when not captured.
pub(crate) fn captured_stdin() -> Option<String> {
    CAPTURE.with(|c| c.borrow_mut().as_mut().map(|capture| capture.stdin.take().unwrap_or_default()))
}

/// Writes a line to standard error (or the capture): a note, a warning or an error.
pub(crate) fn say_line(line: &str) {
    say_raw(&format!("{line}\n"));
}

/// Writes `text` as it is to standard error (or the capture).
pub(crate) fn say_raw(text: &str) {
    if !captured(text.as_bytes(), true) {
        eprint!("{text}");
    }
}

/// `eprintln!` through the capture.
#[macro_export]
#[doc(hidden)]
macro_rules! say {
    ($($arg:tt)*) => { $crate::output::say_line(&format!($($arg)*)) };
}

/// Standard output, or the capture when one is set.
struct StandardOutput;

impl Write for StandardOutput {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        if captured(bytes, false) {
            return Ok(bytes.len());
        }
        std::io::stdout().write(bytes)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        std::io::stdout().flush()
    }
}

/// Writes `text` to standard output. A reader that has gone away is not an error.
pub fn emit(text: &str) -> Result<(), Failure> {
    if captured(text.as_bytes(), false) {
        return Ok(());
    }
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
            (Box::new(StandardOutput), String::new())
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
