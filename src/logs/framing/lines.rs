//! Line formats' records: each line cut from the same [`LineBuffer`] as CSV, split by its
//! [`LineFormat`] into one reused [`Fields`], and handed on as a record with gap 0.

use std::io::{self, Read};
use std::sync::Arc;

use super::line_buffer::LineBuffer;
use super::{LineSink, Other};
use crate::logs::detect::non_access;
use crate::logs::envelope::{Envelope, JsonField, Stream};
use crate::logs::error::LogError;
use crate::logs::formats::Fields;
use crate::logs::formats::set::FileFormat;
use crate::logs::limits::MAX_RECORD;
use crate::logs::source::{MovableStop, Piece};

/// How the lines' envelope is read: which one, and whether its time is appended to each
/// line's fields (for a format without a time of its own).
#[derive(Debug, Clone, Copy)]
pub struct Unwrap {
    pub envelope: Envelope,
    pub time_field: bool,
}

/// Reads the lines of `input` (positioned at `piece.start`) through the sink's formats into
/// `sink`; returns the offset where the last line read ended. Each line is tried first with
/// the format of the line before ([`LineSink::line_format`]), then with the file's others
/// ([`LineSink::other_format`]). A line that none reads is a bad row with its reason, unless
/// it is not an access line ([`non_access`], or any line on stderr), which is skipped and
/// counted by kind; reading stops after the line that reaches the piece's stop (and, inside
/// an envelope, after the last part of a line begun before it).
pub fn lines<R: Read, S: LineSink>(
    input: R,
    unwrap: Option<Unwrap>,
    piece: &Piece,
    movable: Option<&MovableStop>,
    sink: &mut S,
    io_error: &dyn Fn(io::Error) -> LogError,
) -> Result<u64, LogError> {
    let mut buffer = LineBuffer::new(input, piece, movable, io_error);
    let Some(mut format) = sink.line_format() else {
        return Err(LogError::Internal(
            "lines framed without a line format (a bug in dupcost: please report it)".into(),
        ));
    };
    let mut fields = Fields::default();
    // A line read in place: its fields' places.
    let (mut starts, mut ends) = (Vec::new(), Vec::new());
    let mut scratch = Vec::new();
    // Parts of a line (CRI `P`, Docker entries without a newline) per stream, and the line
    // number of each first part.
    let mut parts: [Vec<u8>; 2] = Default::default();
    let mut part_line = [0u64; 2];
    loop {
        if buffer.at_stop() && parts.iter().all(Vec::is_empty) {
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
        if line.trim_ascii().is_empty() {
            continue;
        }
        if line_len > MAX_RECORD {
            sink.bad(n, || format!("line longer than {MAX_RECORD} bytes"))?;
            continue;
        }
        let Some(unwrap) = unwrap else {
            if format.format.skip(line) {
                continue;
            }
            if syslog_headed(line) && wrapped(line, &mut format, &mut fields, sink, n, &SYSLOG)? {
                continue;
            }
            // A comment, which a format of space-separated fields (ELB's) would read.
            if line.starts_with(b"# ")
                && let Some(kind) = non_access(line)
            {
                sink.skipped("", kind)?;
                continue;
            }
            fields.clear();
            match format
                .format
                .split_in_place(line, &mut starts, &mut ends, &mut fields)
            {
                Ok(true) => sink.record_in_place(line, &starts, &ends, n)?,
                Ok(false) => sink.record(&fields.data, &fields.ends, 0, n)?,
                Err(reason) => {
                    let misfit = Misfit {
                        line,
                        reason,
                        n,
                        time: None,
                        stream: "",
                        wrapped: true,
                    };
                    misfit.read(&mut format, &mut fields, sink)?;
                }
            }
            continue;
        };
        let envelope = unwrap.envelope;
        let u = match envelope.unwrap(line, &mut scratch) {
            Ok(u) => u,
            Err(reason) => {
                // One line without the file's envelope (written past the shipper, a relay
                // that dropped the prefix) is read as it is.
                bare(line, &mut format, &mut fields, sink, n, || {
                    format!("{}: {reason}", envelope.describe())
                })?;
                continue;
            }
        };
        let at = u.stream.index();
        if u.partial {
            if parts[at].is_empty() {
                part_line[at] = n;
            }
            if parts[at].len() + u.text.len() > MAX_RECORD {
                parts[at].clear();
                sink.bad(part_line[at], || {
                    format!("a line in parts longer than {MAX_RECORD} bytes")
                })?;
            } else {
                parts[at].extend_from_slice(u.text);
            }
            continue;
        }
        let text: &[u8] = if parts[at].is_empty() {
            u.text
        } else {
            parts[at].extend_from_slice(u.text);
            &parts[at]
        };
        let result = read_inner(&mut format, unwrap, &u, text, n, &mut fields, sink);
        parts[at].clear();
        result?;
    }
    sink.ended(buffer.line);
    if buffer.eof {
        for (at, part) in parts.iter().enumerate() {
            if !part.is_empty() {
                let stream = if at == 1 { "stderr" } else { "stdout" };
                sink.bad(part_line[at], || {
                    format!(
                        "{}: a part of a line on {stream} with no last part before the end of the input (cut off?)",
                        envelope_name(unwrap)
                    )
                })?;
            }
        }
    }
    Ok(buffer.pos())
}

fn envelope_name(unwrap: Option<Unwrap>) -> String {
    unwrap.map_or(String::new(), |u| u.envelope.describe())
}

/// One unwrapped line (its parts joined): a record, a bad row, or a line skipped as not an
/// access line.
fn read_inner<S: LineSink>(
    format: &mut Arc<FileFormat>,
    unwrap: Unwrap,
    u: &crate::logs::envelope::Unwrapped<'_>,
    text: &[u8],
    n: u64,
    fields: &mut Fields,
    sink: &mut S,
) -> Result<(), LogError> {
    if text.trim_ascii().is_empty() {
        if matches!(unwrap.envelope, Envelope::Docker | Envelope::Json(_)) {
            let kind = match unwrap.envelope {
                Envelope::Json(JsonField::EventOriginal) => "records without event.original",
                Envelope::Json(JsonField::Message) => "records without a message",
                Envelope::Json(JsonField::Line) => "records without a line",
                _ => "records without a log",
            };
            sink.skipped("", kind)?;
        }
        return Ok(());
    }
    if format.format.skip(text) {
        return Ok(());
    }
    fields.clear();
    match format.format.split(text, fields) {
        Ok(()) => {
            if format.time_field {
                fields.push(u.time.unwrap_or_default());
            }
            sink.record(&fields.data, &fields.ends, 0, n)
        }
        Err(reason) => {
            let stream = if u.stream == Stream::Stderr {
                "stderr "
            } else {
                ""
            };
            let misfit = Misfit {
                line: text,
                reason,
                n,
                time: Some(u.time.unwrap_or_default()),
                stream,
                wrapped: false,
            };
            misfit.read(format, fields, sink)
        }
    }
}

/// A line of an enveloped file that its envelope does not unwrap: a record when a format of
/// the file reads it bare, else skipped when it is not an access line, else a bad row
/// with the envelope's `reason`.
#[cold]
fn bare<S: LineSink>(
    line: &[u8],
    format: &mut Arc<FileFormat>,
    fields: &mut Fields,
    sink: &mut S,
    n: u64,
    reason: impl FnOnce() -> String,
) -> Result<(), LogError> {
    if format.format.skip(line) {
        return Ok(());
    }
    fields.clear();
    if format.format.split(line, fields).is_ok() {
        if format.time_field {
            fields.push(b"");
        }
        return sink.record(&fields.data, &fields.ends, 0, n);
    }
    match sink.other_format(line, fields, false)? {
        Other::Read => {
            if let Some(now) = sink.line_format() {
                *format = now;
            }
            if format.time_field {
                fields.push(b"");
            }
            sink.record(&fields.data, &fields.ends, 0, n)
        }
        Other::Skip => Ok(()),
        Other::Refused { why, index } => {
            sink.refused(index);
            sink.bad(n, || why)
        }
        Other::None(_) => match non_access(line) {
            Some(kind) => sink.skipped("", kind),
            None => sink.bad(n, reason),
        },
    }
}

/// The envelopes a bare file's line that opens with a syslog header is read in.
const SYSLOG: [Envelope; 2] = [Envelope::Syslog5424, Envelope::Syslog3164];

/// Whether a bare file's line opens as syslog writes a line: `<PRI>`, `Mmm dd hh:mm:ss `, or
/// an RFC 3339 time, a host and a `TAG:` (rsyslog's file format). No access line opens so,
/// but a format whose first fields are one word each, then a field that may hold spaces
/// (Apache's `%h %l %u`), would read the header into them: the prefix's month as the client.
/// A byte or two for other lines.
#[inline]
fn syslog_headed(line: &[u8]) -> bool {
    match line.first() {
        Some(b'<') => true,
        Some(b'A'..=b'S') => {
            line.len() > 16
                && line[3] == b' '
                && line[9] == b':'
                && line[12] == b':'
                && line[15] == b' '
        }
        Some(b'0'..=b'9') => {
            // (A classic ELB line opens with such a time too, but has no `TAG: ` after it.)
            line.get(4) == Some(&b'-')
                && line.get(10) == Some(&b'T')
                && memchr::memmem::find(&line[..line.len().min(160)], b": ").is_some()
                && crate::logs::detect::syslog_after_time(line)
        }
        _ => false,
    }
}

/// A bare file's line that none of its formats reads, tried inside each of `envelopes` (a
/// shipper's `{"message": "..."}` among the lines a server wrote itself): read, or skipped
/// as not an access line, when what an envelope unwraps is; `false` when none is.
#[cold]
fn wrapped<S: LineSink>(
    line: &[u8],
    format: &mut Arc<FileFormat>,
    fields: &mut Fields,
    sink: &mut S,
    n: u64,
    envelopes: &[Envelope],
) -> Result<bool, LogError> {
    let mut scratch = Vec::new();
    for &envelope in envelopes {
        let Ok(u) = envelope.unwrap(line, &mut scratch) else {
            continue;
        };
        let text = u.text;
        if u.partial || u.stream == Stream::Stderr || text.trim_ascii().is_empty() {
            continue;
        }
        fields.clear();
        let read = if format.format.split(text, fields).is_ok() {
            true
        } else {
            match sink.other_format(text, fields, false)? {
                Other::Read => {
                    if let Some(now) = sink.line_format() {
                        *format = now;
                    }
                    true
                }
                _ => false,
            }
        };
        if read {
            if format.time_field {
                fields.push(u.time.unwrap_or_default());
            }
            sink.record(&fields.data, &fields.ends, 0, n)?;
            return Ok(true);
        }
        if let Some(kind) = non_access(text) {
            sink.skipped("", kind)?;
            return Ok(true);
        }
    }
    Ok(false)
}

/// A line the format of the line before did not read.
struct Misfit<'l> {
    line: &'l [u8],
    /// Why it did not.
    reason: String,
    n: u64,
    /// Its envelope's time, inside an envelope.
    time: Option<&'l [u8]>,
    /// "stderr " for a line on stderr.
    stream: &'static str,
    /// A line of a bare file: it may be wrapped in an envelope the file's others lack.
    wrapped: bool,
}

impl Misfit<'_> {
    /// Read by another of the file's formats (which becomes `format`), else skipped as not
    /// an access line, else a bad row. Formats are looked for from the line only for what
    /// may be an access line: not on stderr, not a server's own messages.
    #[cold]
    fn read<S: LineSink>(
        self,
        format: &mut Arc<FileFormat>,
        fields: &mut Fields,
        sink: &mut S,
    ) -> Result<(), LogError> {
        let kind = non_access(self.line);
        let discover = kind.is_none() && self.stream.is_empty();
        if self.wrapped && kind.is_none() {
            // The file's formats first, then inside an envelope, and only then a format
            // found from the line: a wrapped access line is never taken for a new format.
            match sink.other_format(self.line, fields, false)? {
                Other::None(_) | Other::Refused { .. }
                    if wrapped(self.line, format, fields, sink, self.n, &Envelope::ALL)? =>
                {
                    return Ok(());
                }
                Other::None(_) => {}
                other => return self.told(other, kind, format, fields, sink),
            }
        }
        let other = sink.other_format(self.line, fields, discover)?;
        self.told(other, kind, format, fields, sink)
    }

    /// What [`LineSink::other_format`] made of the line, carried out.
    fn told<S: LineSink>(
        self,
        other: Other,
        kind: Option<&'static str>,
        format: &mut Arc<FileFormat>,
        fields: &mut Fields,
        sink: &mut S,
    ) -> Result<(), LogError> {
        match other {
            Other::Read => {
                if let Some(now) = sink.line_format() {
                    *format = now;
                }
                if format.time_field {
                    fields.push(self.time.unwrap_or_default());
                }
                sink.record(&fields.data, &fields.ends, 0, self.n)
            }
            Other::Skip => Ok(()),
            Other::Refused { why, index } => {
                sink.refused(index);
                sink.bad(self.n, || why)
            }
            Other::None(others) => match (kind, self.stream) {
                (Some(kind), stream) => sink.skipped(stream, kind),
                (None, "") if others.is_empty() => sink.bad(self.n, || self.reason),
                (None, "") => sink.bad(self.n, || {
                    format!(
                        "{}: {}; nor is it read by {others}",
                        format.format.describe(),
                        self.reason
                    )
                }),
                (None, stream) => sink.skipped(stream, "not access lines"),
            },
        }
    }
}
