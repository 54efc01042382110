//! Everything that can go wrong while reading logs, each naming its culprit, and how a
//! log's bytes are shown in a message. A leaf: every stage reports through it.

use std::io;
use std::path::PathBuf;

use super::role::Role;

/// Where a row came from: the file (or `-` for stdin) and its 1-based line.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct RowPlace {
    pub file: String,
    pub line: u64,
}

impl std::fmt::Display for RowPlace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// A row that could not be used, with why.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct BadRow {
    pub place: RowPlace,
    pub reason: String,
}

impl std::fmt::Display for BadRow {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.place, self.reason)
    }
}

/// Errors of the log reader. Every one is an input error (exit code 2 in the CLI), except
/// [`LogError::Internal`] (exit code 1).
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    #[error("{path}: no such file")]
    NotFound { path: PathBuf },
    #[error("{path}: is a directory, not a log file")]
    IsDirectory { path: PathBuf },
    #[error("{path}: cannot read: {source}")]
    Io {
        path: String,
        #[source]
        source: io::Error,
    },
    #[error("{path}: corrupt or truncated gzip data: {source}")]
    Gzip {
        path: String,
        #[source]
        source: io::Error,
    },
    #[error("{path}: the file is empty: expected a header row naming the columns")]
    Empty { path: String },
    #[error("{path}: the header has no data rows after it")]
    HeaderOnly { path: String },
    #[error(
        "{path}: the header line is longer than {limit} bytes: is this a log with a header row?"
    )]
    HeaderTooLong { path: String, limit: usize },
    #[error(
        "{path}: no {role} column (looked for {aliases}); headers found: {found}; map one with --column {role}=HEADER"
    )]
    MissingColumn {
        path: String,
        role: Role,
        aliases: String,
        found: String,
    },
    #[error("{path}: --column {role}={header}: no such header; headers found: {found}")]
    UnknownColumn {
        path: String,
        role: Role,
        header: String,
        found: String,
    },
    #[error("{0} (--strict makes bad rows fatal)")]
    StrictBadRow(BadRow),
    #[error("{path}: none of the {rows} rows could be used (first problem: {first})")]
    NoUsableRows {
        path: String,
        rows: u64,
        first: BadRow,
    },
    #[error("stdin ('-') can be read only once")]
    StdinTwice,
    #[error("no log files given")]
    NoSources,
    #[error("{0}")]
    Option(String),
    /// Not the input's fault: a bug (exit code 1).
    #[error("internal error: {0}")]
    Internal(String),
}

impl LogError {
    /// The process exit code: 1 for an internal failure, 2 for everything the input or the
    /// command line caused.
    pub fn exit_code(&self) -> u8 {
        match self {
            LogError::Internal(_) => 1,
            _ => 2,
        }
    }
}

/// A field as shown in a message: lossy UTF-8, at most 40 characters, control characters
/// escaped (`\u{1b}`) so a log cannot drive the reader's terminal.
pub fn shown(b: &[u8]) -> String {
    let text = String::from_utf8_lossy(b);
    let mut s: String = text.chars().take(40).flat_map(escape_control).collect();
    if text.chars().count() > 40 {
        s.push('…');
    }
    s
}

/// A character as printed in a message: itself, or escaped when it is a control character.
pub fn escape_control(c: char) -> impl Iterator<Item = char> {
    let escaped = c.is_control().then(|| c.escape_default());
    let plain = (!c.is_control()).then_some(c);
    escaped.into_iter().flatten().chain(plain)
}
