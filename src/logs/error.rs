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
/// [`LogError::Internal`] (exit code 1). Their words are `report::words`' (`Display for
/// LogError`), so `logs` words nothing.
#[derive(Debug, thiserror::Error)]
pub enum LogError {
    /// The file does not exist.
    NotFound { path: PathBuf },
    /// The path names a directory.
    IsDirectory { path: PathBuf },
    /// Reading failed.
    Io {
        path: String,
        #[source]
        source: io::Error,
    },
    /// The gzip data is corrupt or cut short.
    Gzip {
        path: String,
        #[source]
        source: io::Error,
    },
    /// The file is empty (a CSV/TSV needs a header row).
    Empty { path: String },
    /// A header and no data rows.
    HeaderOnly { path: String },
    /// The header line is longer than `limit` bytes.
    HeaderTooLong { path: String, limit: usize },
    /// No column for a required role; `aliases` looked for, the headers `found`.
    MissingColumn {
        path: String,
        role: Role,
        aliases: String,
        found: String,
    },
    /// `--column ROLE=HEADER` names a header the file does not have.
    UnknownColumn {
        path: String,
        role: Role,
        header: String,
        found: String,
    },
    /// A bad row, with `--strict`.
    StrictBadRow(BadRow),
    /// None of the `rows` could be used; the `first` problem.
    NoUsableRows {
        path: String,
        rows: u64,
        first: BadRow,
    },
    /// `-` given twice.
    StdinTwice,
    /// No input given.
    NoSources,
    /// An option that cannot be used, told whole by the caller.
    Option(String),
    /// Not the input's fault: a bug (exit code 1).
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
///
/// Only the field's first bytes are decoded: 40 characters take at most 160 of them (a
/// character is at most 4 bytes, an invalid byte one), so showing a long line's rest, which
/// a format's refusal may do at every line it tries, costs what its start costs.
pub fn shown(b: &[u8]) -> String {
    const SHOWN: usize = 40;
    let head = &b[..b.len().min(4 * SHOWN)];
    let text = String::from_utf8_lossy(head);
    let mut chars = text.chars();
    let mut s: String = chars
        .by_ref()
        .take(SHOWN)
        .flat_map(escape_control)
        .collect();
    if chars.next().is_some() || head.len() < b.len() {
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

#[cfg(test)]
mod tests {
    use super::shown;

    /// At most 40 characters, with `…` when there were more, wherever the field is cut.
    #[test]
    fn shown_cuts_at_forty_characters() {
        assert_eq!(shown(b"abc"), "abc");
        let forty = "é".repeat(40);
        assert_eq!(shown(forty.as_bytes()), forty);
        assert_eq!(shown("é".repeat(41).as_bytes()), format!("{forty}…"));
        let long = "😀".repeat(10_000);
        assert_eq!(shown(long.as_bytes()), format!("{}…", "😀".repeat(40)));
        assert_eq!(shown(&[0xff; 40]), "\u{fffd}".repeat(40));
        assert_eq!(shown(&[0xff; 41]), format!("{}…", "\u{fffd}".repeat(40)));
        assert_eq!(shown(&[b'a'; 160]), format!("{}…", "a".repeat(40)));
        assert_eq!(shown(b"a\x1bb"), "a\\u{1b}b");
    }
}
