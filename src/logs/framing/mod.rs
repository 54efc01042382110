//! The framing stage: an input's bytes cut into records of fields.
//!
//! [`line_buffer`] holds the bytes (fill, roll, consume) and knows where the piece stops;
//! [`csv`] cuts CSV and TSV records (the SIMD splitter, `csv_core` for quoted records). Each
//! record goes to a [`RecordSink`], the row stage, as its bytes and the ends of its fields, so
//! the framing knows nothing of what a row means. A line-oriented format (nginx, Apache,
//! HAProxy, ...) is framed by [`lines`]: lines from the same buffer, split by its format.

mod csv;
pub mod json_doc;
mod line_buffer;
mod lines;

pub use csv::records;
pub use lines::{Unwrap, lines};

use super::error::LogError;

/// What the framing hands its records to.
pub trait RecordSink {
    /// One record from line `line`: field `i` is `data[ends[i - 1] + gap..ends[i]]` (`gap`
    /// is 1 when `data` still holds the delimiters, 0 when it holds the fields back to back).
    fn record(
        &mut self,
        data: &[u8],
        ends: &[usize],
        gap: usize,
        line: u64,
    ) -> Result<(), LogError>;

    /// A record at `line` that could not be framed (too long, too many fields); an error
    /// stops the reading (`--strict`).
    fn bad(&mut self, line: u64, reason: impl FnOnce() -> String) -> Result<(), LogError>;

    /// A line that is not an access line (an error log on `stream` "stderr ", start-up
    /// messages): skipped, counted by kind, never a row.
    fn skipped(&mut self, _stream: &'static str, _kind: &'static str) -> Result<(), LogError> {
        Ok(())
    }
}
