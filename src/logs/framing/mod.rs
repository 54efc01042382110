//! The framing stage: an input's bytes cut into records of fields.
//!
//! [`line_buffer`] holds the bytes (fill, roll, consume) and knows where the piece stops;
//! [`csv`] cuts CSV and TSV records (the SIMD splitter, `csv_core` for quoted records). Each
//! record goes to a [`RecordSink`], the row stage, as its bytes and the ends of its fields, so
//! the framing knows nothing of what a row means. A line-oriented format (nginx, Apache,
//! HAProxy, ...) is framed by [`lines`]: lines from the same buffer, split by its format.

mod csv;
pub mod json_doc;
pub mod json_scan;
pub mod json_shape;
mod line_buffer;
mod lines;

pub use csv::{MemoryRecord as CsvRecord, in_memory as csv_records, records};
pub use lines::{Unwrap, lines};

use std::sync::Arc;

use super::error::LogError;
use super::formats::Fields;
use super::formats::set::FileFormat;

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

    /// One record from line `line` whose field `i` is `bytes[starts[i]..ends[i]]` (a JSON
    /// line read in place).
    fn record_in_place(
        &mut self,
        bytes: &[u8],
        starts: &[usize],
        ends: &[usize],
        line: u64,
    ) -> Result<(), LogError> {
        let mut data = Vec::with_capacity(bytes.len());
        let ends: Vec<usize> = starts
            .iter()
            .zip(ends)
            .map(|(&s, &e)| {
                data.extend_from_slice(&bytes[s..e]);
                data.len()
            })
            .collect();
        self.record(&data, &ends, 0, line)
    }

    /// A record at `line` that could not be framed (too long, too many fields); an error
    /// stops the reading (`--strict`).
    fn bad(&mut self, line: u64, reason: impl FnOnce() -> String) -> Result<(), LogError>;

    /// A line that is not an access line (an error log on `stream` "stderr ", start-up
    /// messages): skipped, counted by kind, never a row.
    fn skipped(&mut self, _stream: &'static str, _kind: &'static str) -> Result<(), LogError> {
        Ok(())
    }
}

/// What the line framing asks of the row stage besides records when one
/// file holds several line formats: the format a line is tried with first (the one that read the line before), and
/// the file's other formats for a line it does not read.
pub trait LineSink: RecordSink {
    /// The format the next line is tried with first (`None` for an input that has no line
    /// format: CSV).
    fn line_format(&self) -> Option<Arc<FileFormat>>;

    /// `line`, which [`LineSink::line_format`] did not read, read into `fields` by another
    /// of the file's formats (which is then the one the next line is tried with first); with
    /// `discover`, one found from this line when none of those found so far reads it.
    fn other_format(
        &mut self,
        line: &[u8],
        fields: &mut Fields,
        discover: bool,
    ) -> Result<Other, LogError>;

    /// A line the file's format `index` reads, made a bad row because that format is
    /// refused.
    fn refused(&mut self, _index: usize) {}

    /// The reading ended before line `next_line` (the piece's line numbers).
    fn ended(&mut self, _next_line: u64) {}
}

/// What [`LineSink::other_format`] made of a line.
#[derive(Debug)]
pub enum Other {
    /// Another format read it into the fields.
    Read,
    /// A line another format skips (CloudFront's `#Fields:`).
    Skip,
    /// No format of the file reads it: the names of the others tried ("" when none).
    None(String),
    /// A format found for it (the file's format `index`) cannot be counted beside the
    /// file's first: why.
    Refused { why: String, index: usize },
}
