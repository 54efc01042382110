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
/// The one mapping of a log reader's error to the command line's: an internal failure exits
/// 1, everything the input or the flags caused exits 2.
impl From<crate::logs::LogError> for Error {
    fn from(error: crate::logs::LogError) -> Self {
        match error.exit_code() {
            1 => Error::Failure(error.to_string()),
            _ => Error::Usage(error.to_string()),
        }
    }
}

/// A figure the logs cannot give is the input's doing: exit 2, worded by `report::words`.
impl From<crate::findings::Refusal> for Error {
    fn from(refusal: crate::findings::Refusal) -> Self {
        Error::Usage(refusal.to_string())
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logs::LogError;

    /// A reader thread's panic is dupcost's failure, not the input's: exit code 1; everything
    /// the input or the flags caused is a usage error, exit code 2.
    #[test]
    fn internal_failures_exit_1_input_errors_2() {
        let internal = Error::from(LogError::Internal("a reader thread panicked".into()));
        assert_eq!(internal.exit_code(), 1);
        assert!(internal.to_string().starts_with("internal error: "));
        let input = Error::from(LogError::HeaderOnly {
            path: "a.csv".into(),
        });
        assert_eq!(input.exit_code(), 2);
    }
}
