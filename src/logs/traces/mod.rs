//! OpenTelemetry traces read as the model's attempts (docs/MODEL.md "From
//! traces"): a trace sees both ends at once, the client span that timed out and the server
//! span under it that says whether the work ran, so the succeeded share is measured.
//!
//! ```text
//! bytes (gzip already undone) -> otlp / zipkin  (one span at a time: a Collector line by the
//!                                               JSON scanner, anything else by serde_json)
//!       -> assemble  (spans by trace; a trace judged once no span came for HOLD, or at the end)
//!       -> row::Direct (each attempt a row: time, method, path, status, the server's answer,
//!                       intent) -> the same Tally, derivation and report as access logs
//! ```
//!
//! The hook into the reading is [`sniff`] (what the first bytes are) and [`read`] (the file
//! to a tally); `analyze` calls them before a file's format is looked for.

mod assemble;
mod parallel;
mod span;

use std::borrow::Cow;
use std::io::{BufRead, BufReader, Read};

use serde::de::{self, Deserialize, Visitor};

use super::analysis::{FileInfo, LogAnalysis};
use super::detect::Chosen as Columns;
use super::envelope::{Envelope, EnvelopeChoice};
use super::error::LogError;
use super::formats::{CsvHeader, InputFormat};
use super::options::LogOptions;
use super::row::Direct;
use super::source::{self, Opened};
use super::tally::Tally;
use otlp::SpanSink;

pub use span::kept_share;

/// A trace format, as data: its `--input-format` name (its row in the formats' catalog),
/// its words, what its first bytes look like and how one document of it is read. A new trace
/// format is its reader's file here, holding its row (`pub const TRACE`), its name in
/// `trace_formats!` and its catalog row (`formats/catalog.rs`, with `Reading::Trace`).
pub struct TraceEntry {
    pub name: &'static str,
    pub describe: &'static str,
    /// The bytes its documents open with (`{`, `[`): which reader a document goes to.
    opens: &'static [u8],
    /// Its first bytes (from their first non-space, which is `opens`) look like one of its
    /// documents.
    looks: fn(&[u8]) -> bool,
    /// One whole document's spans, into the sink.
    document: Reader,
}

/// One document's reader: its spans into the sink.
type Reader = fn(
    &mut serde_json::Deserializer<serde_json::de::SliceRead<'_>>,
    &mut dyn SpanSink,
) -> serde_json::Result<()>;

/// Declares each trace format's module and lists its `pub const TRACE` in `TRACE_FORMATS`:
/// one name a format, in the order their first bytes are told (and their catalog rows stand).
macro_rules! trace_formats {
    ($($name:ident),+ $(,)?) => {
        $(mod $name;)+

        /// The trace formats, in the order their first bytes are told.
        pub static TRACE_FORMATS: &[TraceEntry] = &[$($name::TRACE),+];
    };
}

trace_formats!(otlp, zipkin, jaeger);

/// How a trace file is encoded: a row of `TRACE_FORMATS` (in JSON, its name).
#[derive(Clone, Copy)]
pub struct TraceFormat(&'static TraceEntry);

impl TraceFormat {
    /// The trace format `--input-format` names, if it names one.
    pub fn named(input: InputFormat) -> Option<TraceFormat> {
        TRACE_FORMATS
            .iter()
            .find(|t| t.name == input.name())
            .map(TraceFormat)
    }

    pub fn name(self) -> &'static str {
        self.0.name
    }

    pub fn describe(self) -> &'static str {
        self.0.describe
    }
}

impl PartialEq for TraceFormat {
    fn eq(&self, other: &Self) -> bool {
        self.0.name == other.0.name
    }
}

impl Eq for TraceFormat {}

impl std::fmt::Debug for TraceFormat {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.name)
    }
}

impl serde::Serialize for TraceFormat {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.0.name)
    }
}

/// How a file of traces is read: its format, whether it was detected, and what wraps its
/// lines (a container runtime's log of a Collector that writes to stdout, ...).
#[derive(Debug, Clone, Copy)]
pub struct Chosen {
    pub format: TraceFormat,
    pub detected: bool,
    pub envelope: Option<Envelope>,
}

/// The trace format `--input-format` names, or (auto) the one the first bytes show, bare or
/// inside an envelope (`--envelope`, or told from the first lines); `None` for any other
/// input.
pub fn chosen(prefix: &[u8], eof: bool, opts: &LogOptions) -> Option<Chosen> {
    let named = match opts.input_format {
        InputFormat::Auto => None,
        other => Some(TraceFormat::named(other)?),
    };
    let make = |found: Option<TraceFormat>, envelope| {
        named.or(found).map(|format| Chosen {
            format,
            detected: named.is_none(),
            envelope,
        })
    };
    // The whole lines among the first bytes, as the envelope's detection sees them.
    let lines = || {
        let mut lines: Vec<&[u8]> = prefix.split(|&b| b == b'\n').collect();
        if !eof {
            lines.pop();
        }
        lines.retain(|l| !l.trim_ascii().is_empty());
        lines.truncate(super::detect::SNIFF_LINES);
        lines
    };
    let inner_sniff = |inner: &[&[u8]]| inner.iter().find_map(|l| sniff(l));
    match opts.envelope {
        EnvelopeChoice::Named(e) => {
            let inner = super::detect::inner_lines(Some(e), &lines())?;
            let refs: Vec<&[u8]> = inner.iter().map(Vec::as_slice).collect();
            make(inner_sniff(&refs), Some(e))
        }
        EnvelopeChoice::None => make(sniff(prefix), None),
        EnvelopeChoice::Auto => {
            if let Some(found) = sniff(prefix) {
                return make(Some(found), None);
            }
            let lines = lines();
            match super::detect::envelope(&lines, |inner| inner_sniff(inner).is_some()) {
                Some(e) => {
                    let inner = super::detect::inner_lines(Some(e), &lines)?;
                    let refs: Vec<&[u8]> = inner.iter().map(Vec::as_slice).collect();
                    make(inner_sniff(&refs), Some(e))
                }
                None => make(None, None),
            }
        }
    }
}

/// What a file's first bytes say it is, if traces: the first of `TRACE_FORMATS` they look
/// like.
pub fn sniff(prefix: &[u8]) -> Option<TraceFormat> {
    let start = prefix.iter().position(|b| !b.is_ascii_whitespace())?;
    let head = &prefix[start..];
    TRACE_FORMATS
        .iter()
        .find(|t| head.first().is_some_and(|b| t.opens.contains(b)) && (t.looks)(head))
        .map(TraceFormat)
}

/// What reading a trace file found beside its attempts: the evidence of what traces cannot
/// tell.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
pub struct TraceRead {
    pub format: Option<TraceFormat>,
    pub spans: u64,
    pub traces: u64,
    /// CLIENT spans with a mutating method.
    pub attempts: u64,
    /// Intents of those attempts (counted per trace).
    pub intents: u64,
    /// The intents weighted by the inverse of their trace's kept share (head sampling).
    pub adjusted_intents: f64,
    /// Traces with a sampling threshold (`tracestate` `ot=th:`).
    pub with_threshold: u64,
    /// `--sample-rate`, when given.
    pub sample_rate: Option<f64>,
    /// Traces not whole in the file: no root span, or a span whose parent is not in it (cut
    /// at the file's edges, or spans lost).
    pub cut: u64,
    /// SERVER spans whose parent is no traced CLIENT span and that share no CLIENT span's
    /// id: no traced caller (the trace's root, an uninstrumented caller, a cut trace).
    pub server_without_client: u64,
    /// SERVER spans joined to the CLIENT span with their id (Zipkin's shared spans).
    pub shared_joined: u64,
    /// Spans that were parts of another span with their id, reported apart: merged into it.
    pub merged: u64,
    /// Attempts whose own status or whose server's was read as 2xx without one (a Zipkin
    /// HTTP span that finished with no status and no error: Brave writes only other
    /// statuses).
    pub status_implied: u64,
    /// Spans that came after their trace was judged (Zipkin: a file not in time order by
    /// more than the 10 minutes a trace waits): read as a trace of their own.
    pub late: u64,
    /// Timed-out attempts with no server span, in a trace that is whole, to a server traced
    /// elsewhere in the file: they never arrived.
    pub never_reached: u64,
    /// Timed-out attempts with no server span whose server is not traced (or whose trace is
    /// cut): unknown.
    pub server_untraced: u64,
}

impl TraceRead {
    /// The factor head sampling scales counts by (1 when nothing says traces were dropped).
    pub fn scale(&self) -> f64 {
        if self.intents == 0 {
            1.0
        } else {
            self.adjusted_intents / self.intents as f64
        }
    }

    /// The counts are scaled by a sampling rate the spans or `--sample-rate` gave.
    pub fn sampled(&self) -> bool {
        self.sample_rate.is_some() || self.with_threshold > 0
    }
}

impl LogAnalysis {
    /// Every input was traces: the SERVER spans say which attempts executed.
    pub fn all_traces(&self) -> bool {
        !self.files.is_empty() && self.files.iter().all(|f| f.traces.is_some())
    }

    /// The factor head sampling scales counts by: every input's intents, a trace's weighted by
    /// the inverse of its trace's kept share, over the intents read (1 without sampling).
    pub fn sampling_scale(&self) -> f64 {
        let (adjusted, traced) = self
            .files
            .iter()
            .filter_map(|f| f.traces.as_ref())
            .fold((0.0, 0u64), |(a, n), t| {
                (a + t.adjusted_intents, n + t.intents)
            });
        let all = self.tally.intents();
        if all == 0 || traced == 0 {
            return 1.0;
        }
        (adjusted + all.saturating_sub(traced) as f64) / all as f64
    }
}

/// Any JSON scalar as text (a number, a string, a bool; null is empty): OTLP/JSON writes
/// 64-bit integers as strings and receivers accept numbers too. Borrowed from the input when
/// it can be (a string without escapes, read from a slice).
#[derive(Debug, Default, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Text<'a>(pub Cow<'a, str>);

impl Text<'_> {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: de::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a string or a number")
            }
            fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(v)))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v.to_string())))
            }
            fn visit_string<E: de::Error>(self, v: String) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v)))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v.to_string())))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v.to_string())))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Owned(v.to_string())))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Text<'de>, E> {
                Ok(Text(Cow::Borrowed(if v { "true" } else { "false" })))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Text<'de>, E> {
                Ok(Text::default())
            }
        }
        d.deserialize_any(V)
    }
}

/// The columns of the rows made from attempts, in the order [`assemble`] writes them.
const COLUMNS: [&str; 7] = [
    "timestamp",
    "method",
    "path",
    "status",
    "upstream_status",
    "idempotency_key",
    "duration_ms",
];

/// Room for several of the Collector's lines (a batch of spans a line), each read in place.
const READ_BUFFER: usize = 4 << 20;

/// Reads the spans of `source` (a file or stdin, gzip undone) in `format` into a tally; with
/// `threads` above 1, documents one a line are parsed by that many threads ([`parallel`]). A
/// large plain file is read in place, through a memory map, its bytes counted by `on_read`
/// (a stream's are counted as they are read).
pub fn read(
    opened: Opened,
    chosen: Chosen,
    opts: &LogOptions,
    follows: bool,
    threads: usize,
    on_read: &(dyn Fn(u64) + Sync),
) -> Result<(FileInfo, Tally), LogError> {
    let Chosen {
        format,
        detected,
        envelope,
    } = chosen;
    let name = opened.name.clone();
    let gzip = opened.gzip;
    let rules = trace_rules(&name, opts)?;
    let mut rows = Direct::new(&rules, follows);
    let assembly = assemble::Rules {
        methods: opts
            .methods
            .iter()
            .map(|m| m.trim().to_ascii_uppercase())
            .collect(),
        client_timeout: opts
            .client_timeout
            .map(|d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX)),
        sample_rate: opts.sample_rate,
        remember_judged: format.name() == "zipkin",
    };
    let err = source::io_error(&name, gzip);
    let shared = parallel::Threads {
        workers: threads,
        chunk: parallel::CHUNK,
    };
    // A large plain file of documents is read in place (a map is no gain on a small one, and
    // an envelope's lines are unwrapped into a buffer anyway); a file that cannot be mapped
    // is read.
    let mapped = match &opened.plain_file {
        Some((path, size)) if envelope.is_none() && *size >= source::MAP_AT_LEAST => {
            source::Mapped::open(path, &name).ok()
        }
        _ => None,
    };
    // The bytes read before this (the first lines) were counted as they were read.
    let already = opened.prefix.len() as u64;
    let counted = std::sync::atomic::AtomicU64::new(0);
    let on_read = |n: u64| {
        let before = counted.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
        on_read(n.min((before + n).saturating_sub(already)));
    };
    keep_freed_memory();
    // With several threads, traces are judged on one of their own as the spans are read.
    let mut read = assemble::assemble(assembly, &mut rows, threads > 1, |asm| {
        match (envelope, &mapped) {
            (Some(envelope), _) => {
                let mut input = BufReader::with_capacity(READ_BUFFER, opened.rest(0));
                enveloped(&mut input, envelope, asm, &name, format, &err)
            }
            (None, Some(mapped)) if threads > 1 => {
                parallel::mapped(mapped, shared, asm, &name, format, &err, &on_read)
            }
            (None, Some(mapped)) => {
                let mut input = source::MappedReader::new(mapped, 0, on_read);
                documents(&mut input, asm, &name, format, &err, 1)
            }
            (None, None) if threads > 1 => {
                parallel::streamed(opened.rest(0), shared, asm, &name, format, &err)
            }
            (None, None) => {
                let mut input = BufReader::with_capacity(READ_BUFFER, opened.rest(0));
                documents(&mut input, asm, &name, format, &err, 1)
            }
        }
    })?;
    read.format = Some(format);
    read.sample_rate = opts.sample_rate;
    let tally = rows.finish();
    if read.spans == 0 {
        return Err(LogError::Option(format!(
            "{name}: no spans in it to read as {}",
            format.describe()
        )));
    }
    if tally.rows == 0 {
        let spans = match read.spans {
            1 => "1 span".to_string(),
            n => format!("{n} spans"),
        };
        return Err(LogError::Option(format!(
            "{name}: {spans} and no CLIENT span with a mutating method ({}) among them: no attempts to count",
            opts.methods.join(", ")
        )));
    }
    if let Some(none) = super::analysis::no_usable_rows(&name, &tally) {
        return Err(none);
    }
    let info = FileInfo {
        name,
        columns: rules.columns.clone(),
        format: Some(format.describe().to_string()),
        detected,
        format_notes: Vec::new(),
        delimiter: b',',
        gzip,
        pieces: 1,
        grouping: rules.grouping,
        side: rules.side.clone(),
        envelope: envelope.map(Envelope::describe),
        document: None,
        skipped: Vec::new(),
        formats: Vec::new(),
        interleaved: false,
        traces: Some(read),
    };
    Ok((info, tally))
}

/// Has the allocator keep freed memory for the next allocations rather than hand it back to
/// the system at once (glibc hands back what is free at the top of its heap beyond 128 KiB):
/// the reading's threads free and take spans' vectors in bursts, and every page handed back
/// is faulted in again, a cost of system time. What is kept is reused, so memory stays flat.
/// Setting these also fixes glibc's threshold for mapping an allocation apart at 128 KiB (it
/// no longer rises as large blocks are freed): a large one is its own mapping, given back
/// whole when freed, as the intent table's growth expects.
fn keep_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: `mallopt` sets two of glibc's allocator's parameters, under its own lock.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, 64 << 20);
        libc::mallopt(libc::M_TOP_PAD, 16 << 20);
    }
}

/// The rules the rows of spans are read with: the columns are ours (a --column naming the
/// log's own fields has nothing to map); a give-up status as the options say, and the two
/// of ours; the client's timeout judged on the span, with the span's own clock.
fn trace_rules(name: &str, opts: &LogOptions) -> Result<super::row::RowRules, LogError> {
    let header = CsvHeader {
        fields: COLUMNS.iter().map(|c| c.as_bytes().to_vec()).collect(),
        delimiter: b',',
        data_start: 0,
        data_line: 1,
    };
    // The rows' columns are ours: a --column naming the log's own fields has nothing to map.
    let mut own = opts.clone();
    own.columns.clear();
    own.duration_unit = None;
    let mut rules = super::analysis::rules_for(name, &Columns::Csv(header), &own, (&[], true))?;
    // The attempts' statuses: a give-up status as the options say, and the two of ours.
    rules.timeout[0] = true;
    rules.timeout[1] = false;
    // The client's timeout is judged on the span, with the span's own clock.
    rules.client_timeout = None;
    rules.side = super::SideRead {
        side: super::LogSide::Proxy,
        why: "traces: CLIENT spans are the attempts, the SERVER spans under them the outcomes"
            .to_string(),
    };
    rules.server_side = false;
    Ok(rules)
}

/// Documents inside an envelope: each line unwrapped (its parts joined), each whole text
/// one document.
fn enveloped(
    input: &mut impl BufRead,
    envelope: Envelope,
    asm: &mut assemble::Assembler<'_, '_>,
    name: &str,
    format: TraceFormat,
    err: &dyn Fn(std::io::Error) -> LogError,
) -> Result<(), LogError> {
    let mut line = 1u64;
    let mut doc = Vec::new();
    let mut parts: [Vec<u8>; 2] = Default::default();
    let mut scratch = Vec::new();
    let mut spans = Collect::default();
    loop {
        doc.clear();
        if input.read_until(b'\n', &mut doc).map_err(err)? == 0 {
            break;
        }
        let physical = doc.strip_suffix(b"\n").unwrap_or(&doc);
        let physical = physical.strip_suffix(b"\r").unwrap_or(physical);
        let Ok(u) = envelope.unwrap(physical, &mut scratch) else {
            line += 1;
            continue;
        };
        let part = &mut parts[u.stream.index()];
        part.extend_from_slice(u.text);
        if !u.partial {
            let text = std::mem::take(part);
            // What else the stream holds (the Collector's own log lines) is no document.
            if u.stream != super::envelope::Stream::Stderr
                && matches!(text.trim_ascii_start().first(), Some(b'{' | b'['))
            {
                one_document(text.trim_ascii(), &mut spans, asm, name, format, line)
                    .map_err(DocError::into_error)?;
            }
        }
        line += 1;
    }
    Ok(())
}

/// Documents one after another (whitespace between them): an object a line (the
/// Collector's files) or pretty-printed, OTLP's; an array, Zipkin's.
fn documents(
    input: &mut impl BufRead,
    asm: &mut assemble::Assembler<'_, '_>,
    name: &str,
    format: TraceFormat,
    err: &dyn Fn(std::io::Error) -> LogError,
    mut line: u64,
) -> Result<(), LogError> {
    let mut doc = Vec::new();
    let mut spans = Collect::default();
    loop {
        // Whitespace between documents (one a line in the Collector's files).
        let first = loop {
            let buf = input.fill_buf().map_err(err)?;
            let Some(&b) = buf.first() else { break None };
            if b.is_ascii_whitespace() {
                let n = buf.iter().take_while(|b| b.is_ascii_whitespace()).count();
                line += buf[..n].iter().filter(|&&b| b == b'\n').count() as u64;
                input.consume(n);
            } else {
                break Some(b);
            }
        };
        let Some(first) = first else { break };
        if first == b'{' {
            // One document a line (the Collector's files): the line is parsed from memory,
            // its strings borrowed; its spans go on once it is whole. A line whole in the
            // reader's buffer is read there, without a copy.
            let buf = input.fill_buf().map_err(err)?;
            if let Some(n) = memchr::memchr(b'\n', buf) {
                match one_document(&buf[..=n], &mut spans, asm, name, format, line) {
                    Ok(()) => {
                        input.consume(n + 1);
                        line += 1;
                        continue;
                    }
                    // Pretty-printed: read from the stream, below.
                    Err(DocError::Incomplete(_)) => {}
                    Err(e) => return Err(e.into_error()),
                }
            }
            doc.clear();
            input.read_until(b'\n', &mut doc).map_err(err)?;
            match one_document(&doc, &mut spans, asm, name, format, line) {
                Ok(()) => {
                    line += u64::from(doc.last() == Some(&b'\n'));
                    continue;
                }
                // A document that goes on past its line (pretty-printed): read from the stream.
                Err(DocError::Incomplete(_)) if doc.last() == Some(&b'\n') => {}
                Err(e) => return Err(e.into_error()),
            }
            let mut de = serde_json::Deserializer::from_reader(
                std::io::Cursor::new(&doc).chain(&mut *input),
            );
            let read = match format.name() {
                "zipkin" => zipkin::document(&mut de, asm),
                "jaeger" => jaeger::document(&mut de, asm),
                _ => otlp::document(&mut de, asm),
            };
            if let Err(e) = read {
                if let Some(failed) = asm.failed.take() {
                    return Err(failed);
                }
                return Err(not_traces(name, format, line, &e));
            }
            continue;
        }
        let mut de = serde_json::Deserializer::from_reader(&mut *input);
        let done = match first {
            b'[' if format.name() == "jaeger" => jaeger::document(&mut de, asm),
            b'[' => zipkin::document(&mut de, asm),
            _ => {
                return Err(LogError::Option(format!(
                    "{name}:{line}: expected a JSON document of {} (an object or an array), found '{}'",
                    format.describe(),
                    char::from(first).escape_default()
                )));
            }
        };
        if let Err(e) = done {
            if let Some(failed) = asm.failed.take() {
                return Err(failed);
            }
            return Err(not_traces(name, format, line, &e));
        }
    }
    Ok(())
}

/// One document through each span reader, for the `span_reader` fuzz target and its
/// replayed regressions: the spans OTLP/JSON's scanner reads (`None` where it declines), those
/// its serde reader reads (or serde's error), and those Zipkin's and Jaeger's readers read
/// (or their errors), each span as its `Debug` text.
#[doc(hidden)]
pub fn span_readers(text: &str) -> SpanReadings {
    let debug = |spans: Collect| spans.0.iter().map(|s| format!("{s:?}")).collect();
    let mut scanned = Collect(Vec::new());
    let scan = otlp::scan_document(text, &mut scanned)
        .ok()
        .map(|()| debug(scanned));
    let with = |reader: Reader| {
        let mut spans = Collect(Vec::new());
        let mut de = serde_json::Deserializer::from_slice(text.as_bytes());
        reader(&mut de, &mut spans)
            .and_then(|()| de.end())
            .map(|()| debug(spans))
            .map_err(|e| e.to_string())
    };
    SpanReadings {
        scan,
        serde: with(TRACE_FORMATS[0].document),
        zipkin: with(TRACE_FORMATS[1].document),
        jaeger: with(TRACE_FORMATS[2].document),
    }
}

/// What [`span_readers`] found.
#[doc(hidden)]
#[derive(Debug)]
pub struct SpanReadings {
    pub scan: Option<Vec<String>>,
    pub serde: Result<Vec<String>, String>,
    pub zipkin: Result<Vec<String>, String>,
    pub jaeger: Result<Vec<String>, String>,
}

/// Why a document held in memory was not read.
enum DocError {
    /// It ends past the bytes given (a pretty-printed document's first line).
    Incomplete(LogError),
    Failed(LogError),
}

impl DocError {
    fn into_error(self) -> LogError {
        match self {
            DocError::Incomplete(e) | DocError::Failed(e) => e,
        }
    }
}

/// One whole document in memory (a line of the Collector's files, or the text of an
/// envelope's line), parsed with its strings borrowed; its spans go on once it is read whole.
fn one_document(
    text: &[u8],
    spans: &mut Collect,
    asm: &mut assemble::Assembler<'_, '_>,
    name: &str,
    format: TraceFormat,
    line: u64,
) -> Result<(), DocError> {
    spans.0.clear();
    parse_document(text, spans, name, format, line)?;
    feed(spans.0.drain(..), asm).map_err(DocError::Failed)
}

/// Spans, in order, to the assembly; an error of the row stage (`--strict`) as it was.
fn feed(
    spans: impl Iterator<Item = span::Span>,
    asm: &mut assemble::Assembler<'_, '_>,
) -> Result<(), LogError> {
    for span in spans {
        if let Err(e) = asm.span(span) {
            return Err(asm.failed.take().unwrap_or(LogError::Option(e)));
        }
    }
    Ok(())
}

/// One whole document's spans after those already in `spans`; on an error, `spans` is left
/// as it was. What the worker threads of [`parallel`] do to each line.
fn parse_document(
    text: &[u8],
    spans: &mut Collect,
    name: &str,
    format: TraceFormat,
    line: u64,
) -> Result<(), DocError> {
    let before = spans.0.len();
    // OTLP/JSON (a Collector's line): scanned in place; what the scanner declines, and every
    // other format, is read with serde.
    let opens = text.iter().find(|b| !b.is_ascii_whitespace());
    let own = opens.is_some_and(|b| format.0.opens.contains(b));
    let scanned = opens == Some(&b'{')
        && (!own || format.name() == "otlp")
        && simdutf8::basic::from_utf8(text)
            .is_ok_and(|text| otlp::scan_document(text, spans).is_ok());
    if !scanned {
        spans.0.truncate(before);
    }
    let parsed = if scanned {
        Ok(())
    } else {
        let mut de = serde_json::Deserializer::from_slice(text);
        // The file's format's reader where it opens so (a Zipkin span a line), else by its
        // first byte, as it opens: the first row's reader for anything else.
        let reader = if own {
            format.0
        } else {
            TRACE_FORMATS
                .iter()
                .find(|t| opens.is_some_and(|b| t.opens.contains(b)))
                .unwrap_or(&TRACE_FORMATS[0])
        };
        (reader.document)(&mut de, spans).and_then(|()| de.end())
    };
    parsed.map_err(|e| {
        spans.0.truncate(before);
        if e.is_eof() {
            DocError::Incomplete(not_traces(name, format, line, &e))
        } else {
            DocError::Failed(not_traces(name, format, line, &e))
        }
    })
}

/// Spans gathered from one document before they go on (kept from document to document).
#[derive(Default)]
struct Collect(Vec<span::Span>);

impl SpanSink for Collect {
    fn span(&mut self, span: span::Span) -> Result<(), String> {
        self.0.push(span);
        Ok(())
    }
}

/// A document that is not what it should be, placed: the file, its line and column (the
/// document's first line, `line`, plus the parser's place within it).
fn not_traces(name: &str, format: TraceFormat, line: u64, e: &serde_json::Error) -> LogError {
    if e.is_io() {
        return LogError::Io {
            path: name.to_string(),
            source: std::io::Error::other(without_position(&e.to_string()).to_string()),
        };
    }
    LogError::Option(format!(
        "{name}:{}:{}: not {}: {}",
        line + e.line() as u64 - 1,
        e.column(),
        format.describe(),
        without_position(&e.to_string())
    ))
}

/// serde_json's message without its own " at line L column C" (the place is said first).
fn without_position(message: &str) -> &str {
    match message.rfind(" at line ") {
        Some(i) => &message[..i],
        None => message,
    }
}

#[cfg(test)]
mod tests {
    use super::super::formats::catalog::{CATALOG, Reading};
    use super::*;

    /// A trace format is one row here and one catalog row: each has the other.
    #[test]
    fn trace_formats_are_the_catalogs_trace_rows() {
        let traces: Vec<&str> = TRACE_FORMATS.iter().map(|t| t.name).collect();
        let rows: Vec<&str> = CATALOG
            .iter()
            .filter(|e| matches!(e.reading, Reading::Trace { .. }))
            .map(|e| e.name)
            .collect();
        assert_eq!(traces, rows);
        for name in traces {
            let input: InputFormat = name.parse().unwrap();
            assert_eq!(TraceFormat::named(input).map(TraceFormat::name), Some(name));
        }
        assert!(TraceFormat::named(InputFormat::Nginx).is_none());
    }

    #[test]
    fn first_bytes_tell_the_format() {
        let otlp = br#"  {"resourceSpans":[{"scopeSpans":[]}]}"#;
        let zipkin = br#"[{"traceId":"a","id":"b"}]"#;
        assert_eq!(sniff(otlp).map(TraceFormat::name), Some("otlp"));
        assert_eq!(sniff(zipkin).map(TraceFormat::name), Some("zipkin"));
        assert!(sniff(br#"{"method":"POST"}"#).is_none());
        // One ResourceSpans a line, compact or pretty-printed; a JSON access log that merely
        // has a `resource` key is none.
        for bare in [
            &br#"{"resource":{"attributes":[]},"scopeSpans":[{"spans":[]}]}"#[..],
            b"{\n  \"resource\": {},\n  \"instrumentationLibrarySpans\": []\n}",
        ] {
            assert_eq!(sniff(bare).map(TraceFormat::name), Some("otlp"));
        }
        assert!(sniff(br#"{"resource":"/v1/pay","method":"POST","status":201}"#).is_none());
        assert_eq!(
            serde_json::to_string(&sniff(zipkin)).unwrap(),
            r#""zipkin""#
        );
    }
}
