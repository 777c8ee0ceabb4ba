//! Where each field of a scenario's text is: what the TOML and JSON readers record
//! and every positioned message reads.

use alloc::collections::BTreeMap;
use alloc::string::String;

/// What kind of value a field holds, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ValueKind {
    /// A table (TOML) or object (JSON).
    Table,
    /// An array.
    Array,
    /// A string, number or boolean.
    Scalar,
}

/// Field path → (byte offset of the key, byte range of the value, its kind).
pub(crate) type Places = BTreeMap<String, (Option<usize>, core::ops::Range<usize>, ValueKind)>;
