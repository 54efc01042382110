//! CSV and TSV records: the SIMD line splitter, with `csv_core` for quoted records.
//!
//! Records are split into one reused array of field ends (and, for quoted records, one reused
//! output buffer of [`MAX_RECORD`] bytes), so a row costs no allocation and no record can grow
//! past the cap: an over-long record is counted as a bad row and the reader skips to the next
//! line. (`csv::Reader` would buffer a record of any size and cannot resume after refusing
//! one, which is why its core is used directly.)

use std::io::{self, Read};

use csv_core::{ReadRecordResult, ReaderBuilder};

use super::RecordSink;
use super::line_buffer::LineBuffer;
use crate::logs::error::LogError;
use crate::logs::limits::{MAX_FIELDS, MAX_RECORD};
use crate::logs::source::{MovableStop, Piece};

/// Reads records from `input` (positioned at `piece.start`) into a tally.
///
/// Lines without a quote (nearly all of an access log) are split in one `memchr3` pass over
/// the delimiters, the newline and quotes; a record with a quote goes through `csv_core`, which
/// handles quoting and embedded newlines. Both give the same fields for a quote-free line and
/// stop at the same record boundaries (one difference: a lone `\r` inside an unquoted line is
/// data here, where `csv_core` would end the record).
/// Every record goes to `sink`; returns the offset where the last record read ended. Reading
/// stops after the record that reaches the piece's stop (`movable`'s, when given).
pub fn records<R: Read, S: RecordSink>(
    input: R,
    delimiter: u8,
    piece: &Piece,
    movable: Option<&MovableStop>,
    sink: &mut S,
    io_error: &dyn Fn(io::Error) -> LogError,
) -> Result<u64, LogError> {
    let mut lines = LineBuffer::new(input, piece, movable, io_error);
    let mut core = ReaderBuilder::new().delimiter(delimiter).build();
    let mut out = vec![0u8; MAX_RECORD];
    let mut ends = vec![0usize; MAX_FIELDS];
    // The fast path needs a delimiter that is not itself a quote or a line end.
    let fast = !matches!(delimiter, b'"' | b'\n' | b'\r');
    loop {
        if lines.at_stop() {
            break;
        }
        if lines.at == lines.filled {
            if lines.eof {
                break;
            }
            lines.refill()?;
            continue;
        }
        // One pass finds the delimiters, the end of the line, and any quote.
        let avail = &lines.buf[lines.at..lines.filled];
        let (fields, line_end, simple) = if fast {
            split_line(avail, delimiter, &mut ends)
        } else {
            (0, None, false)
        };
        if !simple {
            quoted_record(&mut lines, &mut core, &mut out, &mut ends, sink)?;
            continue;
        }
        let (line_len, consumed) = match line_end {
            Some(i) => (i, i + 1),
            None if lines.eof => (avail.len(), avail.len()),
            None if avail.len() > MAX_RECORD => {
                let line = lines.line;
                sink.bad(line, || format!("line longer than {MAX_RECORD} bytes"))?;
                lines.skip_line()?;
                continue;
            }
            None => {
                lines.refill()?;
                continue;
            }
        };
        // A CRLF line end; a lone `\r` inside a line is data on this path.
        let line_len = if line_len > 0 && avail[line_len - 1] == b'\r' {
            line_len - 1
        } else {
            line_len
        };
        let line = &avail[..line_len];
        let n = lines.line;
        lines.at += consumed;
        lines.line += 1;
        if line.is_empty() {
            continue;
        }
        if line_len > MAX_RECORD {
            sink.bad(n, || format!("line longer than {MAX_RECORD} bytes"))?;
            continue;
        }
        ends[fields] = line_len;
        sink.record(line, &ends[..=fields], 1, n)?;
    }
    Ok(lines.pos())
}

/// Splits the line at the start of `bytes`: writes the offsets of its delimiters to `ends` and
/// returns how many, the offset of the newline (if in `bytes`), and whether the line is simple
/// (no quote, fewer than [`MAX_FIELDS`] fields). One pass, 16 bytes at a time: per block, one
/// mask each of delimiters, newlines and quotes; the delimiters before the first newline or
/// quote are stored. (As fast as testing each hit's byte, measured; simpler to check against
/// [`split_line_bytewise`].)
#[inline]
fn split_line(bytes: &[u8], delimiter: u8, ends: &mut [usize]) -> (usize, Option<usize>, bool) {
    let mut fields = 0;
    let mut at = 0;
    let limit = ends.len().min(MAX_FIELDS) - 1;
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            __m128i, _mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8,
        };
        // SAFETY: SSE2 is part of the x86_64 baseline; every load reads 16 bytes inside
        // `bytes` (`at + 16 <= bytes.len()`), unaligned loads being allowed.
        #[allow(unused_unsafe)]
        unsafe {
            let d = _mm_set1_epi8(delimiter as i8);
            let nl = _mm_set1_epi8(b'\n' as i8);
            let q = _mm_set1_epi8(b'"' as i8);
            while at + 16 <= bytes.len() {
                let v = _mm_loadu_si128(bytes.as_ptr().add(at) as *const __m128i);
                let delims = _mm_movemask_epi8(_mm_cmpeq_epi8(v, d)) as u32;
                let newlines = _mm_movemask_epi8(_mm_cmpeq_epi8(v, nl)) as u32;
                let quotes = _mm_movemask_epi8(_mm_cmpeq_epi8(v, q)) as u32;
                // The first newline or quote ends the line's fast reading.
                let stops = newlines | quotes;
                let before = if stops == 0 {
                    u32::MAX
                } else {
                    (1 << stops.trailing_zeros()) - 1
                };
                let mut mask = delims & before;
                while mask != 0 {
                    if fields >= limit {
                        return (fields, None, false); // too many fields for the fast path
                    }
                    ends[fields] = at + mask.trailing_zeros() as usize;
                    fields += 1;
                    mask &= mask - 1;
                }
                if stops != 0 {
                    let first = stops.trailing_zeros();
                    return if newlines & (1 << first) != 0 {
                        (fields, Some(at + first as usize), true)
                    } else {
                        (fields, None, false)
                    };
                }
                at += 16;
            }
        }
    }
    split_line_bytewise(bytes, delimiter, ends, fields, at)
}

/// [`split_line`] from offset `at` on, with `fields` delimiters already found: one byte at a
/// time (the tail of the buffer, and other architectures).
fn split_line_bytewise(
    bytes: &[u8],
    delimiter: u8,
    ends: &mut [usize],
    mut fields: usize,
    at: usize,
) -> (usize, Option<usize>, bool) {
    let limit = ends.len().min(MAX_FIELDS) - 1;
    for (i, &b) in bytes.iter().enumerate().skip(at) {
        if b == b'\n' {
            return (fields, Some(i), true);
        } else if b == b'"' || (b == delimiter && fields >= limit) {
            return (fields, None, false);
        } else if b == delimiter {
            ends[fields] = i;
            fields += 1;
        }
    }
    (fields, None, true)
}

/// One record through `csv_core`: quotes, embedded newlines, lone `\r`.
fn quoted_record<R: Read, S: RecordSink>(
    lines: &mut LineBuffer<'_, R>,
    core: &mut csv_core::Reader,
    out: &mut [u8],
    ends: &mut [usize],
    sink: &mut S,
) -> Result<(), LogError> {
    let first_line = lines.line;
    let (mut outlen, mut endlen) = (0, 0);
    core.reset();
    loop {
        let input = &lines.buf[lines.at..lines.filled];
        let (res, nin, nout, nend) =
            core.read_record(input, &mut out[outlen..], &mut ends[endlen..]);
        lines.line += memchr::memchr_iter(b'\n', &input[..nin]).count() as u64;
        lines.at += nin;
        outlen += nout;
        endlen += nend;
        match res {
            ReadRecordResult::InputEmpty => {
                if lines.eof {
                    continue; // an empty input now ends the record
                }
                lines.refill()?;
            }
            ReadRecordResult::OutputFull | ReadRecordResult::OutputEndsFull => {
                let reason = if res == ReadRecordResult::OutputFull {
                    format!("record longer than {MAX_RECORD} bytes")
                } else {
                    format!("more than {MAX_FIELDS} fields")
                };
                sink.bad(first_line, || reason)?;
                return lines.skip_line();
            }
            ReadRecordResult::Record => {
                if endlen == 1 && outlen == 0 {
                    return Ok(()); // a blank line
                }
                return sink.record(&out[..outlen], &ends[..endlen], 0, first_line);
            }
            ReadRecordResult::End => return Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The 16-bytes-at-a-time splitter agrees with the bytewise one on any line, including
        /// quotes, newlines and field counts around the limit.
        #[test]
        fn split_line_agrees_with_bytewise(
            bytes in proptest::collection::vec(
                prop_oneof![
                    6 => Just(b','),
                    1 => Just(b'\n'),
                    1 => Just(b'"'),
                    8 => any::<u8>(),
                ],
                0..300,
            ),
            room in prop_oneof![Just(MAX_FIELDS), 1usize..40],
        ) {
            let (mut fast, mut slow) = (vec![0; room], vec![0; room]);
            let a = split_line(&bytes, b',', &mut fast);
            let b = split_line_bytewise(&bytes, b',', &mut slow, 0, 0);
            // A line that is not simple goes to csv_core: its fields count for nothing.
            prop_assert_eq!(a.2, b.2);
            if a.2 {
                prop_assert_eq!(a, b);
                prop_assert_eq!(&fast[..a.0], &slow[..b.0]);
            }
        }
    }
}
