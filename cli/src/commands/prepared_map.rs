//! The last map's prepared model, kept for the next chunk of the same map in this
//! process. A map computed in chunks of rows (`--rows`: the Python package on a Dask
//! worker runs one chunk after another in one process) would otherwise read, derive,
//! differentiate and compile its model again for every chunk: about 0.3 s of the
//! bicycle's, as much as 4,000 of its points. Kept only while the scenario's text
//! and every flag that shapes the preparation are the same (the key); a chunk's
//! points never depend on what an earlier chunk computed, since the map reads the
//! kept model and study through shared references and each thread works on copies.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use nhlab::scenario::Format;
use nhlab::stability::{Derivatives, Study};

use crate::args::LinearizeArgs;
use crate::input::Loaded;

/// A map's model with everything computed before its first point.
pub struct PreparedMap {
    /// The scenario, derived for the map's method.
    pub loaded: Loaded,
    /// The study before any point (a map that holds a speed at every point changes
    /// its own copy).
    pub study: Study,
    /// The derivatives of the equations: machine code once `native` is set.
    pub derivatives: Derivatives,
    /// Whether the model and its derivatives were compiled to machine code (or
    /// tried to be: `notes` says why not).
    pub native: bool,
    /// What compiling said, said again with every chunk that uses it.
    pub notes: Vec<String>,
}

/// The last prepared map and its key. Taken out while a map computes, so that two
/// threads (the Python package's) never share one; the last one put back stays.
static LAST: Mutex<Option<(String, PreparedMap)>> = Mutex::new(None);
static PREPARED: AtomicUsize = AtomicUsize::new(0);

/// What a preparation depends on: the text, its format, and every flag but those
/// that choose the part of the map and where it goes (`--rows`, `--threads`,
/// `--out`, `--format`, `--plot`).
pub fn key(text: &str, format: Format, args: &LinearizeArgs) -> String {
    let flags = (
        &args.file,
        &args.method,
        &args.at,
        &args.ignorable,
        &args.dependent,
        &args.sweep,
        args.no_sweep,
        args.map,
        args.eigenvectors,
        args.state_space,
        &args.keep_speed,
    );
    format!("{format:?} {flags:?} {:?} {text}", nhlab_texts::i18n::current())
}

/// The kept map prepared under `key`, taken out of the store.
pub fn take(key: &str) -> Option<PreparedMap> {
    let mut last = LAST.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    match last.take() {
        Some((k, map)) if k == key => Some(map),
        other => {
            *last = other;
            None
        }
    }
}

/// Keeps `map` for the next chunk (replacing what was kept).
pub fn keep(key: String, map: PreparedMap) {
    *LAST.lock().unwrap_or_else(|poisoned| poisoned.into_inner()) = Some((key, map));
}

/// Counts a preparation made from the text.
pub fn count_preparation() {
    PREPARED.fetch_add(1, Ordering::Relaxed);
}

/// How many maps this process has prepared from their text (the tests: a later
/// chunk of the same map prepares nothing).
pub fn preparations() -> usize {
    PREPARED.load(Ordering::Relaxed)
}
