//! CSV and TSV records: the SIMD line splitter, with `csv_core` for quoted records.
//!
//! Records are split into reused arrays of field starts and ends, read in place (and, for the
//! quoted records `csv_core` reads, one reused output buffer of [`MAX_RECORD`] bytes), so a
//! row costs no allocation and no record can grow past the cap: an over-long record is
//! counted as a bad row and the reader skips to the next line. (`csv::Reader` would buffer a
//! record of any size and cannot resume after refusing one, which is why its core is used
//! directly.)

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
/// the delimiters, the newline and quotes; a line whose quotes only enclose whole fields (a
/// browser's user agent, `"a, b"` forwarded-for lists) has them taken off by
/// [`quoted_line`]; any other record with a quote goes through `csv_core`, which handles
/// doubled quotes and embedded newlines. Both give the same fields for a quote-free line and
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
    let mut starts = vec![0usize; MAX_FIELDS];
    // The fast path needs a delimiter that is not itself a quote or a line end.
    let fast = !matches!(delimiter, b'"' | b'\n' | b'\r');
    #[cfg(target_arch = "x86_64")]
    let avx2 = std::arch::is_x86_feature_detected!("avx2");
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
            #[cfg(target_arch = "x86_64")]
            if avx2 {
                // SAFETY: the CPU has AVX2 (checked above).
                unsafe { split_line_avx2(avail, delimiter, &mut ends) }
            } else {
                split_line(avail, delimiter, &mut ends)
            }
            #[cfg(not(target_arch = "x86_64"))]
            split_line(avail, delimiter, &mut ends)
        } else {
            (0, None, false)
        };
        if !simple {
            // A quote before the line's end, after `fields` delimiters (unless there were too
            // many of those): the line's quotes may only enclose whole fields.
            // The splitter stopped at the line's first quote; [`quoted_line`] reads it only
            // when it opens a field, right after the last delimiter stored.
            let start = if fields == 0 { 0 } else { ends[fields - 1] + 1 };
            let quoted = if fast
                && fields < ends.len().min(MAX_FIELDS) - 1
                && avail.get(start) == Some(&b'"')
            {
                quoted_line(
                    avail,
                    lines.eof,
                    start,
                    fields,
                    delimiter,
                    &mut starts,
                    &mut ends,
                )
            } else {
                None
            };
            let Some(q) = quoted else {
                quoted_record(&mut lines, &mut core, &mut out, &mut ends, sink)?;
                continue;
            };
            let n = lines.line;
            lines.at += q.consumed;
            lines.line += 1;
            // A line of one empty field (`""`) is a blank line, as `csv_core` reads it.
            if q.fields == 1 && starts[0] == ends[0] {
                continue;
            }
            sink.record_in_place(&avail[..q.len], &starts[..q.fields], &ends[..q.fields], n)?;
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

/// A record as [`in_memory`] gives it: its fields, or the line of a record that was bad.
pub type MemoryRecord = Result<Vec<Vec<u8>>, u64>;

/// `bytes` read as CSV/TSV records in memory, as `records` reads a file (the same fast
/// path, quoted lines and `csv_core`): each record's fields, or the line of one that could
/// not be framed. For the fuzz targets, which call the splitter without a file.
pub fn in_memory(bytes: &[u8], delimiter: u8) -> Vec<MemoryRecord> {
    struct Collect(Vec<MemoryRecord>);
    impl RecordSink for Collect {
        fn record(
            &mut self,
            data: &[u8],
            ends: &[usize],
            gap: usize,
            _line: u64,
        ) -> Result<(), LogError> {
            let fields = (0..ends.len())
                .map(|i| {
                    let start = if i == 0 { 0 } else { ends[i - 1] + gap };
                    data[start..ends[i]].to_vec()
                })
                .collect();
            self.0.push(Ok(fields));
            Ok(())
        }

        fn bad(&mut self, line: u64, _reason: impl FnOnce() -> String) -> Result<(), LogError> {
            self.0.push(Err(line));
            Ok(())
        }
    }
    let piece = Piece {
        first_line: 1,
        start: 0,
        stop: None,
        follows: false,
    };
    let mut sink = Collect(Vec::new());
    let io_error = |source| LogError::Io {
        path: "-".into(),
        source,
    };
    // Reading memory cannot fail, and the sink refuses nothing.
    let _ = records(bytes, delimiter, &piece, None, &mut sink, &io_error);
    sink.0
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
                let delims = _mm_movemask_epi8(_mm_cmpeq_epi8(v, d)) as u16 as u64;
                let newlines = _mm_movemask_epi8(_mm_cmpeq_epi8(v, nl)) as u16 as u64;
                let quotes = _mm_movemask_epi8(_mm_cmpeq_epi8(v, q)) as u16 as u64;
                if let Some(end) = block(delims, newlines, quotes, at, ends, &mut fields, limit) {
                    return end;
                }
                at += 16;
            }
        }
    }
    split_line_bytewise(bytes, delimiter, ends, fields, at)
}

/// One block of [`split_line`] or [`split_line_avx2`], as masks (bit i: the byte at `at + i`):
/// stores the delimiters before the first newline or quote, and returns the line's result when
/// its fast reading ends in this block (a newline, a quote, or too many fields).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn block(
    delims: u64,
    newlines: u64,
    quotes: u64,
    at: usize,
    ends: &mut [usize],
    fields: &mut usize,
    limit: usize,
) -> Option<(usize, Option<usize>, bool)> {
    // The first newline or quote ends the line's fast reading.
    let stops = newlines | quotes;
    let before = if stops == 0 {
        u64::MAX
    } else {
        (1u64 << stops.trailing_zeros()) - 1
    };
    let mut mask = delims & before;
    while mask != 0 {
        if *fields >= limit {
            return Some((*fields, None, false)); // too many fields for the fast path
        }
        ends[*fields] = at + mask.trailing_zeros() as usize;
        *fields += 1;
        mask &= mask - 1;
    }
    if stops == 0 {
        return None;
    }
    let first = stops.trailing_zeros();
    Some(if newlines & (1 << first) != 0 {
        (*fields, Some(at + first as usize), true)
    } else {
        (*fields, None, false)
    })
}

/// [`split_line`] 64 bytes at a time (two 32-byte loads), on CPUs with AVX2: the same masks, a
/// quarter of the blocks, so most lines take two (the last 63 bytes or fewer of `bytes` go 32
/// at a time, then to [`split_line_bytewise`]). A property test holds it equal to
/// [`split_line`].
///
/// # Safety
///
/// The CPU must have AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn split_line_avx2(
    bytes: &[u8],
    delimiter: u8,
    ends: &mut [usize],
) -> (usize, Option<usize>, bool) {
    use std::arch::x86_64::{
        __m256i, _mm256_cmpeq_epi8, _mm256_loadu_si256, _mm256_movemask_epi8, _mm256_set1_epi8,
    };
    let mut fields = 0;
    let mut at = 0;
    let limit = ends.len().min(MAX_FIELDS) - 1;
    let d = _mm256_set1_epi8(delimiter as i8);
    let nl = _mm256_set1_epi8(b'\n' as i8);
    let q = _mm256_set1_epi8(b'"' as i8);
    // The bits of 32 bytes that equal `c`.
    let mask = |v: __m256i, c: __m256i| _mm256_movemask_epi8(_mm256_cmpeq_epi8(v, c)) as u32 as u64;
    while at + 64 <= bytes.len() {
        // SAFETY: the loads read 64 bytes inside `bytes` (`at + 64 <= bytes.len()`), unaligned
        // loads being allowed.
        let (lo, hi) = unsafe {
            (
                _mm256_loadu_si256(bytes.as_ptr().add(at) as *const __m256i),
                _mm256_loadu_si256(bytes.as_ptr().add(at + 32) as *const __m256i),
            )
        };
        let delims = mask(lo, d) | mask(hi, d) << 32;
        let newlines = mask(lo, nl) | mask(hi, nl) << 32;
        let quotes = mask(lo, q) | mask(hi, q) << 32;
        if let Some(end) = block(delims, newlines, quotes, at, ends, &mut fields, limit) {
            return end;
        }
        at += 64;
    }
    while at + 32 <= bytes.len() {
        // SAFETY: the load reads 32 bytes inside `bytes` (`at + 32 <= bytes.len()`),
        // unaligned loads being allowed.
        let v = unsafe { _mm256_loadu_si256(bytes.as_ptr().add(at) as *const __m256i) };
        let (delims, newlines, quotes) = (mask(v, d), mask(v, nl), mask(v, q));
        if let Some(end) = block(delims, newlines, quotes, at, ends, &mut fields, limit) {
            return end;
        }
        at += 32;
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

/// A line read by [`quoted_line`]: field `i` is `line[starts[i]..ends[i]]`, its quotes left
/// out, where `line` is its bytes before the newline.
#[derive(Debug, PartialEq)]
struct QuotedLine {
    fields: usize,
    /// The line's bytes, its newline left out.
    len: usize,
    /// Input bytes of the line, its newline included.
    consumed: usize,
}

/// The line at the start of `bytes` when its quotes only enclose whole fields: each field
/// either has no quote, or starts with one and ends with the next one, right before a
/// delimiter or the line's end. [`split_line`] found the first quote at `quote` and the
/// `fields` delimiters before it (in `ends`). Where each field starts and ends in the line,
/// quotes left out, goes to `starts` and `ends`, so the record is read in place, not copied:
/// the fields are those `csv_core` gives (a property test holds the two equal). `None` for
/// anything else (a doubled quote, a quote inside a field, a newline or `\r` inside quotes,
/// a CRLF line end, a line not wholly in `bytes` before the end of the input, too many fields
/// or more than [`MAX_RECORD`] bytes), which `csv_core` then reads. `eof`: `bytes` runs to
/// the end of the input.
fn quoted_line(
    bytes: &[u8],
    eof: bool,
    quote: usize,
    fields: usize,
    delimiter: u8,
    starts: &mut [usize],
    ends: &mut [usize],
) -> Option<QuotedLine> {
    // The line's end, and any `\r` in it, in one search (there is no newline before the
    // quote: the splitter would have stopped there).
    let (line, consumed) = match memchr::memchr2(b'\n', b'\r', bytes) {
        Some(i) if bytes[i] == b'\n' => (&bytes[..i], i + 1),
        Some(_) => return None,
        None if eof => (bytes, bytes.len()),
        None => return None,
    };
    let field_start = if fields == 0 { 0 } else { ends[fields - 1] + 1 };
    if field_start != quote || quote > line.len() || line.len() > MAX_RECORD {
        return None;
    }
    let limit = ends.len().min(starts.len()).min(MAX_FIELDS) - 1;
    // Up to the first quote, the line is as it was split: each field starts after the
    // delimiter before it.
    for i in 0..fields {
        starts[i] = if i == 0 { 0 } else { ends[i - 1] + 1 };
    }
    // `at` is where the next field starts.
    let (mut at, mut fields) = (quote, fields);
    loop {
        if fields >= limit {
            return None;
        }
        // The field's place, and whether a delimiter follows.
        let (start, end, more) = if line.get(at) == Some(&b'"') {
            let close = at + 1 + memchr::memchr(b'"', &line[at + 1..])?;
            let more = match line.get(close + 1) {
                None => false,
                Some(&b) if b == delimiter => true,
                Some(_) => return None,
            };
            let place = (at + 1, close, more);
            at = close + 2;
            place
        } else {
            match memchr::memchr2(delimiter, b'"', &line[at..]) {
                None => {
                    let place = (at, line.len(), false);
                    at = line.len() + 1;
                    place
                }
                Some(i) if line[at + i] == delimiter => {
                    let place = (at, at + i, true);
                    at += i + 1;
                    place
                }
                Some(_) => return None,
            }
        };
        starts[fields] = start;
        ends[fields] = end;
        fields += 1;
        if !more {
            return Some(QuotedLine {
                fields,
                len: line.len(),
                consumed,
            });
        }
    }
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

    /// What `csv_core` makes of the record at the start of `bytes`: its fields and the input
    /// it consumed (`eof`: nothing follows `bytes`).
    fn csv_core_record(bytes: &[u8], eof: bool) -> Option<(Vec<Vec<u8>>, usize)> {
        let mut core = ReaderBuilder::new().delimiter(b',').build();
        let (mut out, mut ends) = (vec![0u8; 4096], vec![0usize; MAX_FIELDS]);
        let (res, nin, nout, nend) = core.read_record(bytes, &mut out, &mut ends);
        let (res, nend) = match res {
            ReadRecordResult::InputEmpty if eof => {
                let (res, _, _, more_ends) =
                    core.read_record(&[], &mut out[nout..], &mut ends[nend..]);
                (res, nend + more_ends)
            }
            res => (res, nend),
        };
        let fields = (0..nend)
            .map(|i| out[if i == 0 { 0 } else { ends[i - 1] }..ends[i]].to_vec())
            .collect();
        (res == ReadRecordResult::Record).then_some((fields, nin))
    }

    /// The line at the start of `bytes` read as `records` reads a line with a quote: its
    /// fields and the input consumed, or `None` when it goes to `csv_core`.
    fn read_quoted(bytes: &[u8], eof: bool) -> Option<(Vec<Vec<u8>>, usize)> {
        let mut starts = vec![0usize; MAX_FIELDS];
        let mut ends = vec![0usize; MAX_FIELDS];
        let (fields, _, simple) = split_line(bytes, b',', &mut ends);
        let quote = memchr::memchr(b'"', bytes)?;
        if simple || fields >= MAX_FIELDS - 1 {
            return None;
        }
        let q = quoted_line(bytes, eof, quote, fields, b',', &mut starts, &mut ends)?;
        let fields = (0..q.fields)
            .map(|i| bytes[starts[i]..ends[i]].to_vec())
            .collect();
        Some((fields, q.consumed))
    }

    #[test]
    fn quoted_lines() {
        let line = b"2026-11-01T00:00:00Z,POST,\"Mozilla/5.0 (X11, Linux)\",\"\",x\nnext";
        let (fields, consumed) = read_quoted(line, false).expect("quotes enclose fields");
        assert_eq!(consumed, line.len() - 4);
        let want: [&[u8]; 5] = [
            b"2026-11-01T00:00:00Z",
            b"POST",
            b"Mozilla/5.0 (X11, Linux)",
            b"",
            b"x",
        ];
        assert_eq!(fields, want);
        for other in [
            &b"a,\"b\"\"c\",d\n"[..], // a doubled quote
            b"a,b\"c,d\n",            // a quote inside a field
            b"a,\"b\nc\",d\n",        // a newline inside quotes
            b"a,\"b\"c,d\n",          // text after the closing quote
            b"a,\"b\",c\r\n",         // CRLF: csv_core's
            b"a,\"b\",c",             // not the whole line, and more input to come
        ] {
            assert_eq!(read_quoted(other, false), None);
        }
        assert!(read_quoted(b"a,\"b\",c", true).is_some());
    }

    proptest! {
        /// A line read by `quoted_line` gives the fields and consumed bytes `csv_core` gives,
        /// on lines of delimiters, quotes, line ends and text, near every edge of its rules.
        #[test]
        fn quoted_line_agrees_with_csv_core(
            bytes in proptest::collection::vec(
                prop_oneof![
                    4 => Just(b','),
                    3 => Just(b'"'),
                    1 => Just(b'\n'),
                    1 => Just(b'\r'),
                    1 => Just(b' '),
                    6 => Just(b'a'),
                    2 => any::<u8>(),
                ],
                0..80,
            ),
            eof in any::<bool>(),
        ) {
            if let Some(got) = read_quoted(&bytes, eof) {
                prop_assert_eq!(Some(got), csv_core_record(&bytes, eof));
            }
        }

        /// The 16-bytes-at-a-time splitter agrees with the bytewise one on any line, including
        /// quotes, newlines and field counts around the limit; the 32-bytes-at-a-time one
        /// (AVX2, when the CPU has it) agrees with it exactly.
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
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("avx2") {
                let mut wide = vec![0; room];
                // SAFETY: the CPU has AVX2.
                // The same in every case: the quoted path reads the delimiters before a quote.
                let c = unsafe { split_line_avx2(&bytes, b',', &mut wide) };
                prop_assert_eq!(a, c);
                prop_assert_eq!(&fast[..a.0], &wide[..c.0]);
            }
            // A line that is not simple goes to csv_core: its fields count for nothing.
            prop_assert_eq!(a.2, b.2);
            if a.2 {
                prop_assert_eq!(a, b);
                prop_assert_eq!(&fast[..a.0], &slow[..b.0]);
            }
        }
    }
}
