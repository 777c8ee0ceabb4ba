//! Problems with a scenario: each names the field and, when the scenario came from
//! text, the line and column.

use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;

use crate::message::Message;

/// One problem with a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The field, as a path: `constraints[0].expr`, `initial.q.x`, `kinetic`.
    pub field: String,
    /// 1-based line and column in the scenario's text, when known.
    pub position: Option<(usize, usize)>,
    /// What is wrong and, where it helps, what to do.
    pub message: String,
    /// The same with a message id, for a page to say in its language (`message` is its
    /// English), where the problem has one (see [`crate::message`]).
    pub said: Option<Message>,
}

impl Problem {
    /// A problem at `field` (and `position`) with a message id; its `message` is the
    /// English.
    pub fn said(field: &str, position: Option<(usize, usize)>, message: Message) -> Self {
        Problem { field: field.into(), position, message: message.english.clone(), said: Some(message) }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.position {
            Some((line, col)) => write!(f, "{} (line {line}, column {col}): {}", self.field, self.message),
            None => write!(f, "{}: {}", self.field, self.message),
        }
    }
}

/// Every problem found, in the order of the fields.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problems(pub Vec<Problem>);

impl fmt::Display for Problems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl core::error::Error for Problems {}
