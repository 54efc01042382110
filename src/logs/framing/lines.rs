//! Line formats' records: each line cut from the same [`LineBuffer`] as CSV, split by its
//! [`LineFormat`] into one reused [`Fields`], and handed on as a record with gap 0.

use std::io::{self, Read};

use super::RecordSink;
use super::line_buffer::LineBuffer;
use crate::logs::error::LogError;
use crate::logs::formats::{Fields, LineFormat};
use crate::logs::limits::MAX_RECORD;
use crate::logs::source::{MovableStop, Piece};

/// Reads the lines of `input` (positioned at `piece.start`) through `format` into `sink`;
/// returns the offset where the last line read ended. A line that `format` cannot split is a
/// bad row with its reason; reading stops after the line that reaches the piece's stop.
pub fn lines<R: Read, S: RecordSink>(
    input: R,
    format: &dyn LineFormat,
    piece: &Piece,
    movable: Option<&MovableStop>,
    sink: &mut S,
    io_error: &dyn Fn(io::Error) -> LogError,
) -> Result<u64, LogError> {
    let mut buffer = LineBuffer::new(input, piece, movable, io_error);
    let mut fields = Fields::default();
    loop {
        if buffer.at_stop() {
            break;
        }
        if buffer.at == buffer.filled {
            if buffer.eof {
                break;
            }
            buffer.refill()?;
            continue;
        }
        let avail = &buffer.buf[buffer.at..buffer.filled];
        let (line_len, consumed) = match memchr::memchr(b'\n', avail) {
            Some(i) => (i, i + 1),
            None if buffer.eof => (avail.len(), avail.len()),
            None if avail.len() > MAX_RECORD => {
                let n = buffer.line;
                sink.bad(n, || format!("line longer than {MAX_RECORD} bytes"))?;
                buffer.skip_line()?;
                continue;
            }
            None => {
                buffer.refill()?;
                continue;
            }
        };
        let line = &avail[..line_len];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        let n = buffer.line;
        buffer.at += consumed;
        buffer.line += 1;
        if line.trim_ascii().is_empty() || format.skip(line) {
            continue;
        }
        if line_len > MAX_RECORD {
            sink.bad(n, || format!("line longer than {MAX_RECORD} bytes"))?;
            continue;
        }
        fields.clear();
        match format.split(line, &mut fields) {
            Ok(()) => sink.record(&fields.data, &fields.ends, 0, n)?,
            Err(reason) => sink.bad(n, || reason)?,
        }
    }
    Ok(buffer.pos())
}
