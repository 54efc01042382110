//! Bytes to records to a [`Tally`]: the hot loop.
//!
//! Records are split by `csv_core` (the engine of the `csv` crate) into one reused output
//! buffer of [`MAX_RECORD`] bytes and one reused array of field ends, so a row costs no
//! allocation and no record can grow past the cap: an over-long record is counted as a bad
//! row and the reader skips to the next line. (`csv::Reader` would buffer a record of any
//! size and cannot resume after refusing one, which is why its core is used directly.)

use std::hash::{BuildHasher, Hasher};
use std::io::{self, Read};

use csv_core::{ReadRecordResult, ReaderBuilder};
use foldhash::fast::FixedState;
use regex::bytes::Regex;

use super::columns::ColumnMap;
use super::error::{BadRow, LogError, RowPlace};
use super::route;
use super::tally::{Outcome, Tally};
use super::timestamp::{LastSecond, TimestampFormat};

/// The longest record (and so field or line) read; longer ones are bad rows.
pub const MAX_RECORD: usize = 1 << 20;
/// The most fields a record may have.
pub const MAX_FIELDS: usize = 1024;
/// Size of one read.
const INPUT_BUFFER: usize = 256 * 1024;

/// Hashing of keys and endpoints: fixed seeds, so every piece and every run agrees.
const KEY_SEED: u64 = 0x5eed_1de0_9075_c0de;
const ENDPOINT_SEED: u64 = 0x0e4d_9017_5eed_0001;
/// Hashing of request ids, shared with the reader of the backend's log.
pub const REQUEST_ID_SEED: u64 = 0x0e9e_5715_1d5e_ed01;

/// Upstream statuses that are the proxy's own give-up, not the backend's answer: 408 and
/// 504 (timeouts), 460 and 499 (the client closed: ALB, nginx), 502 (the connection to the
/// backend broke or was cut).
pub const PROXY_GIVE_UPS: [u16; 5] = [408, 460, 499, 502, 504];

/// The hash of a request id, as kept for the join with the backend's log.
pub fn request_id_hash(id: &[u8]) -> u64 {
    let mut h = FixedState::with_seed(REQUEST_ID_SEED).build_hasher();
    h.write(id);
    h.finish()
}

/// A request id field's value, if it holds one (not empty, not `-`).
#[inline]
pub fn request_id(field: &[u8]) -> Option<&[u8]> {
    let id = trim(field);
    (!id.is_empty() && id != b"-").then_some(id)
}

/// The outcome of a timed-out attempt from its upstream status field (`None`: no such
/// column) and the client-facing `status`; `status_gave_up` when that status is itself a
/// give-up status. Missing, empty, `-`, `0`, a proxy give-up status, or the client-facing
/// give-up status echoed (Traefik's `OriginStatus`) is unknown; 2xx succeeded; any other
/// status did not.
#[inline]
pub fn outcome(upstream: Option<&[u8]>, status: u16, status_gave_up: bool) -> Outcome {
    let Some(field) = upstream else {
        return Outcome::Unknown;
    };
    match parse_status(last_value(field)) {
        None | Some(0) => Outcome::Unknown,
        Some(s) if PROXY_GIVE_UPS.contains(&s) || (status_gave_up && s == status) => {
            Outcome::Unknown
        }
        Some(200..=299) => Outcome::Succeeded,
        Some(_) => Outcome::Failed,
    }
}

/// What one file's rows mean and which of them count: columns and compiled filters.
#[derive(Debug, Clone)]
pub struct RowRules {
    pub file: String,
    pub columns: ColumnMap,
    pub delimiter: u8,
    pub timestamps: TimestampFormat,
    /// Mutating methods, upper-case.
    pub methods: Vec<Vec<u8>>,
    /// `timeout[status]`: the status is a client timeout.
    pub timeout: Box<[bool; 1000]>,
    /// Client timeout in the duration column's unit.
    pub client_timeout: Option<f64>,
    pub path: Option<Regex>,
    pub since: Option<i64>,
    pub until: Option<i64>,
    pub window_micros: i64,
    pub strict: bool,
    /// Keep the request ids of timed-out attempts (for `--outcomes`).
    pub keep_request_ids: bool,
}

/// Where a piece starts and stops in its file.
#[derive(Debug, Clone, Copy)]
pub struct Piece {
    /// Line number of the piece's first byte (1 for a file's first line).
    pub first_line: u64,
    /// Byte offset of the piece's first byte in the file (after decompression).
    pub start: u64,
    /// Stop after the record that reaches this offset (the next piece's start).
    pub stop: Option<u64>,
    /// Another piece may come before this one (see [`Tally::without_predecessor`]).
    pub follows: bool,
}

/// The tally of a piece and the offset where its last record ended.
#[derive(Debug)]
pub struct Scanned {
    pub tally: Tally,
    pub end: u64,
}

/// A progress sink: told how many input bytes were consumed.
pub trait Progress: Sync {
    fn advance(&self, bytes: u64);
}

impl Progress for () {
    fn advance(&self, _: u64) {}
}

/// The end of a piece being read, which another thread may move earlier to take the rest of
/// the piece over (work stealing). The scanner tells how far it has read at each read and
/// takes the end then; it reads nothing past what it has told before asking again, so an end
/// moved past that is never crossed (unless a record already begun runs over it, which the
/// merge detects as for any piece).
#[derive(Debug)]
pub struct MovableStop {
    /// (offset read up to, offset to stop at)
    state: std::sync::Mutex<(u64, u64)>,
}

impl MovableStop {
    pub fn new(start: u64, stop: u64) -> Self {
        MovableStop {
            state: std::sync::Mutex::new((start, stop)),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, (u64, u64)> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// How far the scanner has read, and where it will stop.
    pub fn position(&self) -> (u64, u64) {
        *self.lock()
    }

    /// The scanner has read up to `read_to`: where must it stop?
    fn reached(&self, read_to: u64) -> u64 {
        let mut state = self.lock();
        state.0 = state.0.max(read_to);
        state.1
    }

    /// Moves the stop back to `at`, if the scanner has not read that far yet and `at` is
    /// before the stop; returns the old stop, the end of the range now left to the caller.
    pub fn take_from(&self, at: u64) -> Option<u64> {
        let mut state = self.lock();
        let (read_to, stop) = *state;
        if read_to < at && at < stop {
            state.1 = at;
            Some(stop)
        } else {
            None
        }
    }
}

/// Reads records from `input` (positioned at `piece.start`) into a tally.
///
/// Lines without a quote (nearly all of an access log) are split in one `memchr3` pass over
/// the delimiters, the newline and quotes; a record with a quote goes through `csv_core`, which
/// handles quoting and embedded newlines. Both give the same fields for a quote-free line and
/// stop at the same record boundaries (one difference: a lone `\r` inside an unquoted line is
/// data here, where `csv_core` would end the record).
pub fn scan<R: Read>(
    input: R,
    rules: &RowRules,
    piece: Piece,
    io_error: &dyn Fn(io::Error) -> LogError,
) -> Result<Scanned, LogError> {
    scan_until(input, rules, piece, None, io_error)
}

/// [`scan`], stopping at `movable`'s stop when given (instead of `piece.stop`).
pub fn scan_until<R: Read>(
    input: R,
    rules: &RowRules,
    piece: Piece,
    movable: Option<&MovableStop>,
    io_error: &dyn Fn(io::Error) -> LogError,
) -> Result<Scanned, LogError> {
    let mut s = Scanner {
        stop: piece.stop,
        movable,
        input,
        io_error,
        buf: vec![0u8; MAX_RECORD + INPUT_BUFFER],
        at: 0,
        filled: 0,
        eof: false,
        base: piece.start,
        line: piece.first_line,
        core: ReaderBuilder::new().delimiter(rules.delimiter).build(),
        out: vec![0u8; MAX_RECORD],
        ends: vec![0usize; MAX_FIELDS],
        row: RowCtx::new(rules),
    };
    if !piece.follows {
        s.row.tally = Tally::new(rules.window_micros).without_predecessor();
    }
    let delimiter = rules.delimiter;
    // The fast path needs a delimiter that is not itself a quote or a line end.
    let fast = !matches!(delimiter, b'"' | b'\n' | b'\r');
    loop {
        if s.stop.is_some_and(|stop| s.pos() >= stop) {
            break;
        }
        if s.at == s.filled {
            if s.eof {
                break;
            }
            s.refill()?;
            continue;
        }
        // One pass finds the delimiters, the end of the line, and any quote.
        let avail = &s.buf[s.at..s.filled];
        let (fields, line_end, simple) = if fast {
            split_line(avail, delimiter, &mut s.ends)
        } else {
            (0, None, false)
        };
        if !simple {
            s.slow_record()?;
            continue;
        }
        let (line_len, consumed) = match line_end {
            Some(i) => (i, i + 1),
            None if s.eof => (avail.len(), avail.len()),
            None if avail.len() > MAX_RECORD => {
                let line = s.line;
                s.row
                    .bad(line, || format!("line longer than {MAX_RECORD} bytes"))?;
                s.skip_line()?;
                continue;
            }
            None => {
                s.refill()?;
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
        let n = s.line;
        s.at += consumed;
        s.line += 1;
        if line.is_empty() {
            continue;
        }
        if line_len > MAX_RECORD {
            s.row
                .bad(n, || format!("line longer than {MAX_RECORD} bytes"))?;
            continue;
        }
        s.ends[fields] = line_len;
        s.row.record(line, &s.ends[..=fields], 1, n)?;
    }
    let end = s.pos();
    let mut tally = s.row.tally;
    tally.settle_queued();
    Ok(Scanned { tally, end })
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

/// Reads into `buf`, retrying on interruption.
fn read_some<R: Read>(input: &mut R, buf: &mut [u8]) -> io::Result<usize> {
    loop {
        match input.read(buf) {
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            other => return other,
        }
    }
}

struct Scanner<'a, 'r, R> {
    input: R,
    /// Stop after the record that reaches this offset.
    stop: Option<u64>,
    movable: Option<&'a MovableStop>,
    io_error: &'a dyn Fn(io::Error) -> LogError,
    /// Input bytes; `buf[at..filled]` is not yet consumed.
    buf: Vec<u8>,
    at: usize,
    filled: usize,
    eof: bool,
    /// File offset of `buf[0]`.
    base: u64,
    /// Line number of `buf[at]`.
    line: u64,
    core: csv_core::Reader,
    out: Vec<u8>,
    ends: Vec<usize>,
    row: RowCtx<'r>,
}

impl<R: Read> Scanner<'_, '_, R> {
    fn pos(&self) -> u64 {
        self.base + self.at as u64
    }

    /// Moves the unconsumed bytes to the front and reads more after them.
    fn refill(&mut self) -> Result<(), LogError> {
        if self.at > 0 {
            self.buf.copy_within(self.at..self.filled, 0);
            self.filled -= self.at;
            self.base += self.at as u64;
            self.at = 0;
        }
        let n = read_some(&mut self.input, &mut self.buf[self.filled..]).map_err(self.io_error)?;
        self.filled += n;
        self.eof = n == 0;
        if let Some(movable) = self.movable {
            self.stop = Some(movable.reached(self.base + self.filled as u64));
        }
        Ok(())
    }

    /// Consumes input up to and including the next newline.
    fn skip_line(&mut self) -> Result<(), LogError> {
        loop {
            if let Some(i) = memchr::memchr(b'\n', &self.buf[self.at..self.filled]) {
                self.at += i + 1;
                self.line += 1;
                return Ok(());
            }
            self.at = self.filled;
            if self.eof {
                return Ok(());
            }
            self.refill()?;
        }
    }

    /// One record through `csv_core`: quotes, embedded newlines, lone `\r`.
    fn slow_record(&mut self) -> Result<(), LogError> {
        let first_line = self.line;
        let (mut outlen, mut endlen) = (0, 0);
        self.core.reset();
        loop {
            let input = &self.buf[self.at..self.filled];
            let (res, nin, nout, nend) =
                self.core
                    .read_record(input, &mut self.out[outlen..], &mut self.ends[endlen..]);
            self.line += memchr::memchr_iter(b'\n', &input[..nin]).count() as u64;
            self.at += nin;
            outlen += nout;
            endlen += nend;
            match res {
                ReadRecordResult::InputEmpty => {
                    if self.eof {
                        continue; // an empty input now ends the record
                    }
                    self.refill()?;
                }
                ReadRecordResult::OutputFull | ReadRecordResult::OutputEndsFull => {
                    let reason = if res == ReadRecordResult::OutputFull {
                        format!("record longer than {MAX_RECORD} bytes")
                    } else {
                        format!("more than {MAX_FIELDS} fields")
                    };
                    self.row.bad(first_line, || reason)?;
                    return self.skip_line();
                }
                ReadRecordResult::Record => {
                    if endlen == 1 && outlen == 0 {
                        return Ok(()); // a blank line
                    }
                    return self.row.record(
                        &self.out[..outlen],
                        &self.ends[..endlen],
                        0,
                        first_line,
                    );
                }
                ReadRecordResult::End => return Ok(()),
            }
        }
    }
}

/// The per-row work, with the state it needs.
struct RowCtx<'a> {
    rules: &'a RowRules,
    tally: Tally,
    keys: FixedState,
    endpoints: FixedState,
    fields: usize,
    last_second: LastSecond,
    /// The methods for [`find_packed`], if none is longer than 8 bytes.
    packed_methods: Option<Vec<(u64, usize)>>,
}

/// Up to 8 bytes in the low bytes of a little-endian u64.
fn pack(bytes: &[u8]) -> u64 {
    let mut word = [0u8; 8];
    word[..bytes.len()].copy_from_slice(bytes);
    u64::from_le_bytes(word)
}

/// Each ASCII lower-case letter of a packed word made upper-case, 8 at once (the other bytes
/// are left alone).
fn upper_case(x: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    let low7 = x & (0x7f * ONES);
    let from_a = low7 + (0x80 - u64::from(b'a')) * ONES; // high bit set from `a` on
    let past_z = low7 + (0x80 - u64::from(b'z') - 1) * ONES; // high bit set past `z`
    let lower = from_a & !past_z & !x & (0x80 * ONES);
    x - (lower >> 2)
}

/// The index of `method` (a slice of `data`) among `packed` methods, ignoring ASCII case; `None`
/// when the 8 bytes from its start are not all inside `data` (then ask the slow way). The
/// method is read as one word: a row's second field compared in a few instructions, where a
/// byte-by-byte case-insensitive compare was 2% of the time of `dupcost logs`.
#[inline]
fn find_packed(packed: &[(u64, usize)], data: &[u8], method: &[u8]) -> Option<Option<usize>> {
    let start = (method.as_ptr() as usize).wrapping_sub(data.as_ptr() as usize);
    let window = data.get(start..start.checked_add(8)?)?;
    if method.len() > 8 {
        return Some(None); // longer than every method
    }
    let keep = u64::MAX
        .checked_shr(64 - 8 * method.len() as u32)
        .unwrap_or(0);
    let word = upper_case(u64::from_le_bytes(window.try_into().ok()?) & keep);
    Some(
        packed
            .iter()
            .position(|&(m, len)| m == word && len == method.len()),
    )
}

impl<'a> RowCtx<'a> {
    fn new(rules: &'a RowRules) -> Self {
        RowCtx {
            rules,
            tally: Tally::new(rules.window_micros),
            keys: FixedState::with_seed(KEY_SEED),
            endpoints: FixedState::with_seed(ENDPOINT_SEED),
            fields: rules.columns.headers.len(),
            last_second: LastSecond::default(),
            packed_methods: rules
                .methods
                .iter()
                .map(|m| (m.len() <= 8).then(|| (pack(&m.to_ascii_uppercase()), m.len())))
                .collect(),
        }
    }

    fn bad(&mut self, line: u64, reason: impl FnOnce() -> String) -> Result<(), LogError> {
        let file = &self.rules.file;
        let make = || BadRow {
            place: RowPlace {
                file: file.clone(),
                line,
            },
            reason: reason(),
        };
        if self.rules.strict {
            return Err(LogError::StrictBadRow(make()));
        }
        self.tally.bad(make);
        Ok(())
    }

    #[inline]
    /// One record: field `i` is `data[ends[i - 1] + gap..ends[i]]` (`gap` is 1 when `data`
    /// still holds the delimiters, 0 when it holds the fields back to back).
    fn record(
        &mut self,
        data: &[u8],
        ends: &[usize],
        gap: usize,
        line: u64,
    ) -> Result<(), LogError> {
        if ends.len() != self.fields {
            // A blank line is no row at all.
            if ends.len() == 1 && data.is_empty() {
                return Ok(());
            }
            let (want, got) = (self.fields, ends.len());
            return self.bad(line, || format!("expected {want} fields, found {got}"));
        }
        let field = |i: usize| &data[if i == 0 { 0 } else { ends[i - 1] + gap }..ends[i]];
        let rules = self.rules;
        let cols = &rules.columns;
        let ts = match cols.timestamp {
            Some(i) => match rules
                .timestamps
                .parse_after(field(i), &mut self.last_second)
            {
                Some(ts) => ts,
                None => {
                    let text = field(i);
                    let fix = match rules.timestamps {
                        TimestampFormat::Auto => "give its layout with --timestamp-format",
                        TimestampFormat::Strftime(_) => "it does not match --timestamp-format",
                    };
                    return self.bad(line, || {
                        format!("unparseable timestamp '{}' ({fix})", shown(text))
                    });
                }
            },
            None => 0,
        };
        let Some(status) = parse_status(field(cols.status)).or_else(|| {
            // HAProxy logs -1 when no response was sent (the client or server went away).
            (trim(field(cols.status)) == b"-1").then_some(0)
        }) else {
            let text = field(cols.status);
            return self.bad(line, || format!("unparseable status '{}'", shown(text)));
        };
        if rules.since.is_some_and(|s| ts < s) || rules.until.is_some_and(|u| ts >= u) {
            self.tally.rows += 1;
            self.tally.out_of_range += 1;
            return Ok(());
        }
        self.tally.row_at(ts);
        let method = trim(field(cols.method));
        let packed = self.packed_methods.as_deref();
        let Some(method_index) = packed
            .and_then(|packed| find_packed(packed, data, method))
            .unwrap_or_else(|| {
                rules
                    .methods
                    .iter()
                    .position(|m| m.eq_ignore_ascii_case(method))
            })
        else {
            return Ok(());
        };
        let raw_path = cols.path.map_or(&b""[..], |i| trim(field(i)));
        if let Some(re) = &rules.path {
            if !re.is_match(route::path_only(raw_path)) {
                self.tally.path_filtered += 1;
                return Ok(());
            }
        }
        let mut h = self.endpoints.build_hasher();
        h.write_usize(method_index);
        route::route_key(raw_path, &mut route::Hashed(&mut h));
        let endpoint = h.finish();
        let names = || {
            (
                String::from_utf8_lossy(&rules.methods[method_index]).into_owned(),
                if cols.path.is_some() {
                    route::route_template(raw_path)
                } else {
                    "(all)".to_string()
                },
            )
        };
        let status_gave_up = rules.timeout[usize::from(status)];
        let mut timed_out = status_gave_up;
        if let (false, Some(i)) = (timed_out, cols.flags) {
            timed_out = cols.flags_style.gave_up(field(i));
        }
        if let (false, Some(limit), Some(i)) = (timed_out, rules.client_timeout, cols.duration) {
            timed_out = parse_duration(field(i)).is_some_and(|d| d >= limit);
        }
        let outcome = if timed_out {
            outcome(cols.upstream_status.map(field), status, status_gave_up)
        } else {
            Outcome::Failed
        };
        if timed_out && rules.keep_request_ids {
            let id = cols
                .request_id
                .and_then(|i| request_id(field(i)))
                .map(request_id_hash);
            self.tally.timed_out_id(id, ts, endpoint, outcome);
        }
        if let Some(i) = cols.bytes.filter(|_| (200..300).contains(&status)) {
            if let Some(bytes) = std::str::from_utf8(trim(field(i)))
                .ok()
                .and_then(|t| t.parse::<u64>().ok())
            {
                self.tally.response_bytes.record(bytes);
            }
        }
        let key = cols.idempotency_key.and_then(|i| {
            let k = trim(field(i));
            (!k.is_empty() && k != b"-").then(|| {
                let mut h = self.keys.build_hasher();
                h.write(k);
                h.write_u64(endpoint);
                h.finish()
            })
        });
        self.tally
            .attempt(ts, (endpoint, names), key, timed_out, outcome);
        Ok(())
    }
}

/// A field as shown in a message: lossy UTF-8, at most 40 characters, control characters
/// escaped (`\u{1b}`) so a log cannot drive the reader's terminal.
fn shown(b: &[u8]) -> String {
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

#[inline]
pub fn trim(b: &[u8]) -> &[u8] {
    b.trim_ascii()
}

/// An HTTP status: one to three digits.
#[inline]
pub fn parse_status(b: &[u8]) -> Option<u16> {
    let b = trim(b);
    if b.is_empty() || b.len() > 3 {
        return None;
    }
    super::timestamp::decimal(b).map(|v| v as u16)
}

/// The last of nginx's multi-value fields: `502, 200` and `504 : 200` are 200.
#[inline]
pub fn last_value(b: &[u8]) -> &[u8] {
    match memchr::memrchr2(b',', b':', b) {
        Some(i) => &b[i + 1..],
        None => b,
    }
}

/// A duration: a number, or nginx's `0.5, 0.25` (summed); `-` and garbage are `None`.
pub fn parse_duration(b: &[u8]) -> Option<f64> {
    let mut total = 0.0;
    for part in b.split(|&c| c == b',' || c == b':') {
        let text = std::str::from_utf8(trim(part)).ok()?;
        let v: f64 = text.parse().ok()?;
        if !v.is_finite() {
            return None;
        }
        total += v;
    }
    Some(total)
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

    /// A stop moves back only to a place after what the scanner has read and before the
    /// stop, and the scanner is told the new stop when it next reads.
    #[test]
    fn a_stop_moves_back_only_ahead_of_the_reading() {
        let stop = MovableStop::new(0, 100);
        assert_eq!(
            stop.take_from(50),
            Some(100),
            "the range 50..100 is the taker's"
        );
        assert_eq!(stop.position(), (0, 50));
        assert_eq!(stop.reached(60), 50, "the scanner now stops at 50");
        assert_eq!(stop.take_from(55), None, "already read");
        assert_eq!(stop.take_from(60), None, "already read");
        assert_eq!(stop.take_from(70), None, "past the stop");
        assert_eq!(stop.reached(40), 50, "what was read never shrinks");
        assert_eq!(stop.position(), (60, 50));
    }

    proptest! {
        /// The packed method match agrees with a case-insensitive compare, for methods in any
        /// case, near misses (a byte more, a byte less, a byte changed; `@` and `` ` `` sit just
        /// before `A` and `a`), and any bytes, at any place in a row.
        #[test]
        fn packed_methods_match_like_bytes(
            pick in 0usize..7,
            cases in proptest::collection::vec(any::<bool>(), 8),
            tweak in 0u8..5,
            byte in prop_oneof![Just(b'@'), Just(b'`'), Just(b'T'), Just(0), Just(b'P' | 0xa0), any::<u8>()],
            noise in proptest::collection::vec(any::<u8>(), 0..11),
            before in 0usize..3,
            after in 0usize..10,
        ) {
            let methods: Vec<Vec<u8>> = ["POST", "PUT", "PATCH", "DELETE", "POSTPOST"]
                .map(|m| m.as_bytes().to_vec())
                .into();
            let packed: Vec<(u64, usize)> = methods.iter().map(|m| (pack(m), m.len())).collect();
            let mut method = match pick {
                0..5 => methods[pick].clone(),
                5 => b"P@TCH".to_vec(),
                _ => noise,
            };
            for (b, &lower) in method.iter_mut().zip(&cases) {
                if lower {
                    *b = b.to_ascii_lowercase();
                }
            }
            match tweak {
                0 => method.push(byte),
                1 => { method.pop(); }
                2 => if let Some(b) = method.first_mut() { *b = byte },
                _ => {}
            }
            let mut data = vec![b','; before];
            data.extend_from_slice(&method);
            data.extend(std::iter::repeat_n(b',', after));
            let field = &data[before..before + method.len()];
            let slow = methods.iter().position(|m| m.eq_ignore_ascii_case(field));
            match find_packed(&packed, &data, field) {
                Some(fast) => prop_assert_eq!(fast, slow, "{:?}", String::from_utf8_lossy(field)),
                None => prop_assert!(before + 8 > data.len()),
            }
        }
    }

    #[test]
    fn statuses() {
        assert_eq!(parse_status(b" 504 "), Some(504));
        assert_eq!(parse_status(b"-"), None);
        assert_eq!(parse_status(b"5040"), None);
        assert_eq!(parse_status(last_value(b"502, 200")), Some(200));
        assert_eq!(parse_status(last_value(b"504 : 200")), Some(200));
        assert_eq!(parse_duration(b"0.5, 0.25"), Some(0.75));
        assert_eq!(parse_duration(b"-"), None);
        assert_eq!(parse_duration(b"inf"), None);
    }

    #[test]
    fn outcomes_of_timed_out_attempts() {
        use Outcome::*;
        let o = |f: &[u8], status| outcome(Some(f), status, true);
        assert_eq!(outcome(None, 504, true), Unknown, "no upstream column");
        for unknown in [
            &b""[..],
            b"-",
            b"0",
            b"408",
            b"460",
            b"499",
            b"502",
            b"504",
            b"504 : 502",
        ] {
            assert_eq!(
                o(unknown, 499),
                Unknown,
                "{}",
                String::from_utf8_lossy(unknown)
            );
        }
        assert_eq!(o(b"503", 503), Unknown, "the client-facing give-up echoed");
        assert_eq!(outcome(Some(b"503"), 503, false), Failed);
        assert_eq!(o(b"503", 504), Failed);
        assert_eq!(o(b"201", 499), Succeeded);
        assert_eq!(o(b"502, 200", 504), Succeeded);
        assert_eq!(o(b"200", 0), Succeeded);
    }
}
