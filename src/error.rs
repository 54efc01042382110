//! The error every command returns, and the exit code it maps to.

use std::io;

/// What went wrong, sorted by whose doing it was.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A bad flag, file or input: exit code 2.
    #[error("{0}")]
    Usage(String),
    /// Anything else (a terminal that would not start, a write that failed): exit code 1.
    #[error("{0}")]
    Failure(String),
}

impl Error {
    /// The process exit code: 2 for usage and input errors, 1 for other failures.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::Usage(_) => 2,
            Error::Failure(_) => 1,
        }
    }
}

impl From<io::Error> for Error {
    fn from(error: io::Error) -> Self {
        Error::Failure(error.to_string())
    }
}

/// A result of a command.
pub type Result<T, E = Error> = std::result::Result<T, E>;
