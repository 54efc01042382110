//! The row stage: what one record means, and whether it counts.
//!
//! A record's fields, found by role through the file's [`ColumnMap`], become one row: its
//! time, whether it is a mutating attempt, whether the client gave up on it (a give-up
//! status, the proxy's flags, or a duration past `--client-timeout`), what became of it at the
//! backend, its endpoint (method and route template), its idempotency key and, for
//! `--outcomes`, its request id. The row goes to the piece's [`Tally`]. Field values are parsed
//! by [`values`], [`route`] and [`timestamp`](super::timestamp); methods are matched by [`methods`].

mod methods;
mod mixed;
pub mod route;
pub(super) mod values;

pub use values::PROXY_GIVE_UPS;

use values::client;
pub use values::{parse_status, request_id, request_id_hash};

use std::hash::{BuildHasher, Hasher};
use std::io::{self, Read};
use std::sync::Arc;

use foldhash::fast::FixedState;
use regex::bytes::Regex;

use super::error::{BadRow, LogError, RowPlace, shown};
use super::formats::ColumnMap;
use super::formats::set::{FileFormat, FormatSet, Found};
use super::framing::{self, RecordSink};
use super::source::{MovableStop, Piece};
use super::tally::{BackendAnswers, Fate, FingerprintAttempt, IntentBy, KeyedAttempt, Tally};
use super::timestamp::{LastMinute, TimestampFormat};
use methods::{find_packed, pack};
use values::{Took, outcome, parse_count, parse_duration, trim};

/// Hashing of keys and endpoints: fixed seeds, so every piece and every run agrees.
const KEY_SEED: u64 = 0x5eed_1de0_9075_c0de;
const ENDPOINT_SEED: u64 = 0x0e4d_9017_5eed_0001;
const FINGERPRINT_SEED: u64 = 0xf1e6_e9e1_5eed_0002;

/// How one file's mutating attempts are grouped into intents (`--intents`, resolved for the
/// file's columns).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grouping {
    /// By idempotency key; an attempt without one is an intent of its own.
    Key,
    /// By fingerprint: client, user agent, method, path with query, request length.
    Fingerprint,
    /// Every attempt is an intent.
    None,
}

/// What one file's rows mean and which of them count: columns and compiled filters.
#[derive(Debug, Clone)]
pub struct RowRules {
    pub file: String,
    pub columns: ColumnMap,
    pub delimiter: u8,
    /// The line formats, when the input is not CSV/TSV: the first (whose columns are
    /// `columns`) and any others found as the file goes on.
    pub formats: Option<Arc<FormatSet>>,
    /// The envelope around the format's lines, if any.
    pub envelope: Option<framing::Unwrap>,
    pub timestamps: TimestampFormat,
    /// Mutating methods, upper-case.
    pub methods: Vec<Vec<u8>>,
    /// `timeout[status]`: the status is a client timeout.
    pub timeout: Box<[bool; 1000]>,
    /// Client timeout in the duration column's unit.
    pub client_timeout: Option<f64>,
    /// Client timeout in seconds, for durations that write their unit (`1m30s`).
    pub client_timeout_secs: Option<f64>,
    pub path: Option<Regex>,
    pub since: Option<i64>,
    pub until: Option<i64>,
    pub window_micros: i64,
    pub strict: bool,
    /// Keep the request ids of timed-out attempts (for `--outcomes`).
    pub keep_request_ids: bool,
    /// The backend's answers (`--outcomes`, second reading): each timed-out attempt's outcome
    /// as the backend's log tells it, so intents know which of their attempts executed.
    pub answers: Option<Arc<BackendAnswers>>,
    pub grouping: Grouping,
    /// `--shared-address-rate`.
    pub shared_rate: u8,
    /// The server's own log (`--log-side`): its status is the outcome of every attempt.
    pub server_side: bool,
    pub side: crate::logs::SideRead,
}

/// The tally of a piece and the offset where its last record ended.
#[derive(Debug)]
pub struct Scanned {
    pub tally: Tally,
    pub end: u64,
}

/// Reads the records of `input` (positioned at `piece.start`) into a tally.
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
    let mut row = Row::new(rules);
    if !piece.follows {
        row.tally = Tally::new(rules.window_micros)
            .with_shared_rate(rules.shared_rate)
            .without_predecessor();
    }
    let end = frame(input, rules, &piece, movable, &mut row, io_error)?;
    row.flush_run();
    let mut tally = row.tally;
    tally.settle_queued();
    Ok(Scanned { tally, end })
}

/// The one entry from bytes to rows: the framing of the file's format, every record to `row`.
/// `scan` and the [`Feeder`] of `logs --follow` both come through here.
fn frame<R: Read>(
    input: R,
    rules: &RowRules,
    piece: &Piece,
    movable: Option<&MovableStop>,
    row: &mut Row<'_>,
    io_error: &dyn Fn(io::Error) -> LogError,
) -> Result<u64, LogError> {
    match &rules.formats {
        Some(_) => framing::lines(input, rules.envelope, piece, movable, row, io_error),
        None => framing::records(input, rules.delimiter, piece, movable, row, io_error),
    }
}

/// The row stage kept open across reads, for `logs --follow`: whole lines are fed as they
/// arrive, into one running tally, so a followed log is read once and counted as `scan` would
/// count it read whole.
pub struct Feeder<'a> {
    row: Row<'a>,
    /// The line number of the next byte fed.
    line: u64,
}

impl<'a> Feeder<'a> {
    /// A feeder of `rules`' rows; `follows` when another input's tally is merged before it.
    /// Its tallies look at their open intents often ([`Tally::following`]): a follower runs
    /// for days, in the memory they hold.
    pub fn new(rules: &'a RowRules, follows: bool, first_line: u64) -> Feeder<'a> {
        let mut row = Row::new(rules);
        let tally = Tally::new(rules.window_micros)
            .with_shared_rate(rules.shared_rate)
            .following();
        row.tally = if follows {
            tally
        } else {
            tally.without_predecessor()
        };
        Feeder {
            row,
            line: first_line,
        }
    }

    /// Reads `bytes`, whole records (a line end at the end, or the input's last line).
    pub fn feed(&mut self, bytes: &[u8]) -> Result<(), LogError> {
        let piece = Piece {
            first_line: self.line,
            start: 0,
            stop: None,
            follows: true,
        };
        let rules = self.row.rules;
        let err = super::source::io_error(&rules.file, false);
        frame(bytes, rules, &piece, None, &mut self.row, &err)?;
        self.line += memchr::memchr_iter(b'\n', bytes).count() as u64;
        Ok(())
    }

    /// The lines each of the input's line formats read so far (all of them, whatever
    /// `--window` kept).
    pub fn formats_seen(&mut self) -> super::tally::FormatsUsed {
        self.row.flush_run();
        self.row.seen.clone()
    }

    /// The running tally.
    pub fn tally(&mut self) -> &mut Tally {
        self.row.flush_run();
        &mut self.row.tally
    }

    /// Cuts the tally into buckets of `len` µs of log time: a row that is `len` or more after
    /// the current bucket's first row starts a new one, which follows it as a file's pieces
    /// do (`--window`).
    pub fn with_buckets(mut self, len: i64) -> Self {
        self.row.bucket = Some(Bucket {
            len: len.max(1),
            until: i64::MIN,
            closed: Vec::new(),
        });
        self
    }

    /// The buckets closed since the last call, oldest first.
    pub fn closed(&mut self) -> Vec<Tally> {
        self.row
            .bucket
            .as_mut()
            .map(|b| std::mem::take(&mut b.closed))
            .unwrap_or_default()
    }
}

/// The row stage fed by a reader that makes its own records rather than framing bytes
/// (traces: one record per attempt, in the rules' column order), so its rows are counted
/// exactly as a log's are.
pub struct Direct<'a> {
    row: Row<'a>,
}

impl<'a> Direct<'a> {
    /// A row stage of `rules`' rows; `follows` when another input's tally is merged before it.
    pub fn new(rules: &'a RowRules, follows: bool) -> Direct<'a> {
        let mut row = Row::new(rules);
        if !follows {
            row.tally = Tally::new(rules.window_micros)
                .with_shared_rate(rules.shared_rate)
                .without_predecessor();
        }
        Direct { row }
    }

    /// One record, `line` naming it in a bad row's message.
    pub fn record(&mut self, fields: &super::formats::Fields, line: u64) -> Result<(), LogError> {
        self.row.record(&fields.data, &fields.ends, 0, line)
    }

    /// The tally of the rows.
    pub fn finish(self) -> Tally {
        let mut tally = self.row.tally;
        tally.settle_queued();
        tally
    }
}

/// `logs --follow --window`: the tally cut into buckets of log time.
struct Bucket {
    /// Log time covered by one bucket (µs).
    len: i64,
    /// A row at or after this time starts the next bucket.
    until: i64,
    /// Buckets closed, oldest first.
    closed: Vec<Tally>,
}

impl Bucket {
    /// Closes the current bucket (unless it is still empty) and starts one at `ts`.
    #[cold]
    fn cut(&mut self, tally: &mut Tally, ts: i64, rules: &RowRules) {
        self.until = ts.saturating_add(self.len);
        if tally.rows == 0 {
            return;
        }
        let next = Tally::new(rules.window_micros)
            .with_shared_rate(rules.shared_rate)
            .sweeping_as(tally);
        let mut done = std::mem::replace(tally, next);
        done.settle_queued();
        self.closed.push(done);
    }
}

/// Field `i` of a record whose fields end at `ends`, each followed by `gap` bytes.
#[inline(always)]
fn field_of<'d>(data: &'d [u8], ends: &[usize], gap: usize, i: usize) -> &'d [u8] {
    &data[if i == 0 { 0 } else { ends[i - 1] + gap }..ends[i]]
}

/// The row stage of one piece: the rules, the tally the rows go to, and the state the
/// per-row work keeps.
struct Row<'a> {
    rules: &'a RowRules,
    tally: Tally,
    /// Only with `logs --follow --window`.
    bucket: Option<Bucket>,
    keys: FixedState,
    endpoints: FixedState,
    fingerprints: FixedState,
    fields: usize,
    last_minute: LastMinute,
    /// The methods for [`find_packed`], if none is longer than 8 bytes.
    packed_methods: Option<Vec<(u64, usize)>>,
    /// 1 when the proxy-attempts column counts tries (Envoy: 1 = not retried), 0 when it
    /// counts retries (Traefik's `RetryAttempts`).
    proxy_tries: u64,
    /// `--client-timeout` in the current format's duration unit.
    client_timeout: Option<f64>,
    /// The line formats of the file as this piece knows them (the file's set, by index).
    known: Vec<Found>,
    /// The index of the format that read the last line, and that format when it is not the
    /// file's first (whose columns are the rules').
    current: usize,
    other: Option<Arc<FileFormat>>,
    /// The lines the current format has read since it became current: how many, the first
    /// and the last.
    run: (u64, u64, u64),
    /// Lines for which no format was found: after [`mixed::MAX_MISSES`], none is looked for.
    misses: u32,
    /// The lines each format read, for `--follow`'s evidence (the tally's go with its
    /// buckets).
    seen: super::tally::FormatsUsed,
}

impl<'a> Row<'a> {
    fn new(rules: &'a RowRules) -> Self {
        Row {
            rules,
            tally: Tally::new(rules.window_micros).with_shared_rate(rules.shared_rate),
            bucket: None,
            keys: FixedState::with_seed(KEY_SEED),
            endpoints: FixedState::with_seed(ENDPOINT_SEED),
            fingerprints: FixedState::with_seed(FINGERPRINT_SEED),
            fields: rules.columns.headers.len(),
            last_minute: LastMinute::default(),
            packed_methods: rules
                .methods
                .iter()
                .map(|m| (m.len() <= 8).then(|| (pack(&m.to_ascii_uppercase()), m.len())))
                .collect(),
            proxy_tries: proxy_tries(&rules.columns),
            client_timeout: rules.client_timeout,
            known: Vec::new(),
            current: 0,
            other: None,
            run: (0, 0, 0),
            misses: 0,
            seen: Default::default(),
        }
    }
}

/// API Gateway HTTP API's catch-all route key.
const DEFAULT_ROUTE: &[u8] = b"$default";

/// The path of a path field that holds the method too, as an HTTP API's `routeKey` does
/// (`POST /orders/{id}`, `ANY /{proxy+}`): the path after the row's method or `ANY` and a
/// space. Any other field is the path as it is.
#[inline]
fn without_method<'a>(path: &'a [u8], method: &[u8]) -> &'a [u8] {
    if path.first() == Some(&b'/') {
        return path;
    }
    match memchr::memchr(b' ', path) {
        Some(i)
            if path.get(i + 1) == Some(&b'/')
                && (path[..i].eq_ignore_ascii_case(method) || &path[..i] == b"ANY") =>
        {
            &path[i + 1..]
        }
        _ => path,
    }
}

/// The earliest time a request's timestamp may have: 1990-01-01T00:00:00Z, in µs.
const EARLIEST_MICROS: i64 = 631_152_000_000_000;

/// A request whose method and path are `-` but whose protocol is HTTP's (Istio's 400 `DPE`,
/// `"- - HTTP/1.1"`: a request the proxy could not decode): a request, never a TCP record.
#[cold]
fn http_protocol<'d>(columns: &ColumnMap, field: impl Fn(usize) -> &'d [u8]) -> bool {
    columns
        .headers
        .iter()
        .position(|h| h == "protocol" || h == "server_protocol")
        .is_some_and(|i| trim(field(i)).starts_with(b"HTTP/"))
}

/// A Traefik CLF record with no status (`-`), no router (`"-"`) and no server: Traefik
/// matched no router, so the request never reached a backend, however long the client held
/// the connection. It is no give-up (nothing ran that may have succeeded), only a failed
/// attempt.
#[cold]
fn routerless<'d>(columns: &ColumnMap, field: impl Fn(usize) -> &'d [u8]) -> bool {
    let named = |name: &str| columns.headers.iter().position(|h| h == name);
    let dash = |i: usize| matches!(trim(field(i)), b"-" | b"");
    let Some(router) = named("router_name") else {
        return false;
    };
    dash(router) && named("server_url").is_none_or(dash)
}

/// What a record with no HTTP request (`"- - -"`) is, by its format's columns.
fn no_request_kind(columns: &ColumnMap) -> &'static str {
    let has = |name: &str| columns.headers.iter().any(|h| h == name);
    if has("backend_status_code") {
        "classic ELB TCP/SSL listener records (request \"- - -\", no HTTP request)"
    } else if let Some(kind) = columns.flags.and(columns.flags_style.no_request) {
        kind
    } else {
        "connections with no HTTP request (request \"-\")"
    }
}

/// What [`no_request`] records are counted as.
const NO_REQUEST_RECORDS: &str =
    "records with no request (no method, path or status: the server's own log)";

/// A record with no method, no path and no status: a server's own message written among
/// its JSON access lines (Caddy's `"logger":"admin"`, a Go service's `"msg":"check
/// capacity"`), no request at all. Any one of the three makes it a request, and a bad row
/// when its status cannot be read.
#[cold]
fn no_request<'d>(cols: &ColumnMap, field: impl Fn(usize) -> &'d [u8]) -> bool {
    let empty = |i: usize| trim(field(i)).is_empty();
    empty(cols.status) && empty(cols.method) && cols.path.is_none_or(empty)
}

/// 1 when the proxy-attempts column of `columns` counts tries, 0 when it counts retries.
fn proxy_tries(columns: &ColumnMap) -> u64 {
    columns
        .header_of(crate::logs::role::Role::ProxyAttempts)
        .map_or(1, |h| u64::from(!crate::logs::role::retries_in(h)))
}

impl RecordSink for Row<'_> {
    fn skipped(&mut self, stream: &'static str, kind: &'static str) -> Result<(), LogError> {
        *self.tally.skipped.entry((stream, kind)).or_default() += 1;
        Ok(())
    }

    /// A row that could not be used: counted, and an error with `--strict`.
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

    /// One record: what it means, and whether it counts. Compiled as a function of its own
    /// (as [`Row::row_in_place`] is): inlined into the CSV reading's loop, its helpers (the
    /// timestamp, the tally's attempt, the route) are no longer inlined into it, and a CSV
    /// row costs more.
    #[inline(never)]
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
            return self.wrong_count(ends.len(), line);
        }
        self.row(data, line, move |i| field_of(data, ends, gap, i))
    }

    /// [`RecordSink::record`] of a line read in place.
    #[inline]
    fn record_in_place(
        &mut self,
        bytes: &[u8],
        starts: &[usize],
        ends: &[usize],
        line: u64,
    ) -> Result<(), LogError> {
        if ends.len() != self.fields || starts.len() != ends.len() {
            return self.wrong_count(ends.len(), line);
        }
        self.row_in_place(bytes, starts, ends, line)
    }
}

impl Row<'_> {
    /// A record of `got` fields where the format has another number: a bad row.
    #[cold]
    fn wrong_count(&mut self, got: usize, line: u64) -> Result<(), LogError> {
        let want = self.fields;
        self.bad(line, || format!("expected {want} fields, found {got}"))
    }

    /// [`Row::row`] of a line read in place, compiled apart from the CSV reading's.
    #[inline(never)]
    fn row_in_place(
        &mut self,
        bytes: &[u8],
        starts: &[usize],
        ends: &[usize],
        line: u64,
    ) -> Result<(), LogError> {
        self.row(bytes, line, move |i| &bytes[starts[i]..ends[i]])
    }

    /// The row of a record whose fields are in `data`, field `i` being `field(i)`: what it
    /// means, and whether it counts.
    #[inline(always)]
    fn row<'d>(
        &mut self,
        data: &'d [u8],
        line: u64,
        field: impl Fn(usize) -> &'d [u8] + Copy,
    ) -> Result<(), LogError> {
        if self.run.0 == 0 {
            self.run.1 = line;
        }
        self.run.0 += 1;
        self.run.2 = line;
        let rules = self.rules;
        let cols = match &self.other {
            Some(other) => &other.columns,
            None => &rules.columns,
        };
        if trim(field(cols.method)) == b"-"
            && cols
                .path
                .is_none_or(|i| matches!(trim(field(i)), b"-" | b""))
            && !http_protocol(cols, field)
        {
            // A connection with no HTTP request (`"- - -"`): a TCP listener's or proxy's.
            return self.skipped("", no_request_kind(cols));
        }
        let ts = match cols.timestamp {
            Some(i) => match rules
                .timestamps
                .parse_after(field(i), &mut self.last_minute)
            {
                Some(ts) => ts,
                None => {
                    let text = field(i);
                    if no_request(cols, field) {
                        return self.skipped("", NO_REQUEST_RECORDS);
                    }
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
        if cols.timestamp.is_some() && ts < EARLIEST_MICROS {
            // An epoch-zero time (a version field read as the time, a clock never set)
            // would set the span and scale every figure a day: never a request's time.
            let text = field(cols.timestamp.unwrap_or_default());
            return self.bad(line, || {
                format!(
                    "timestamp '{}' is before 1990, no request's time",
                    shown(text)
                )
            });
        }
        let mut never_reached = false;
        let Some(status) = parse_status(field(cols.status)).or_else(|| {
            match trim(field(cols.status)) {
                b"-" if routerless(cols, field) => {
                    never_reached = true;
                    Some(0)
                }
                // HAProxy logs -1, Traefik's CLF `-`, when no response was sent.
                b"-1" | b"-" => Some(0),
                // Protobuf JSON (Google Cloud's LogEntry) omits a zero: no status is 0.
                b"" if cols.flags_style.empty_status_is_zero => Some(0),
                _ => None,
            }
        }) else {
            let text = field(cols.status);
            if no_request(cols, field) {
                return self.skipped("", NO_REQUEST_RECORDS);
            }
            return self.bad(line, || format!("unparseable status '{}'", shown(text)));
        };
        if rules.since.is_some_and(|s| ts < s) || rules.until.is_some_and(|u| ts >= u) {
            self.tally.rows += 1;
            self.tally.out_of_range += 1;
            return Ok(());
        }
        if let Some(bucket) = &mut self.bucket
            && ts >= bucket.until
        {
            bucket.cut(&mut self.tally, ts, rules);
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
        let raw_path = cols
            .path
            .map_or(&b""[..], |i| without_method(trim(field(i)), method));
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
        // Its counts are read at the end of the row: fetched now, while the rest is parsed.
        self.tally.prefetch_endpoint(endpoint);
        let names = || {
            (
                String::from_utf8_lossy(&rules.methods[method_index]).into_owned(),
                if raw_path == DEFAULT_ROUTE {
                    // An HTTP API's catch-all route: its name, not a path.
                    "$default".to_string()
                } else if cols.path.is_some() {
                    route::route_template(raw_path)
                } else {
                    "(all)".to_string()
                },
            )
        };
        let status_gave_up = rules.timeout[usize::from(status)] && !never_reached;
        let mut timed_out = status_gave_up;
        if let (false, Some(i)) = (timed_out, cols.flags) {
            timed_out = cols.flags_style.gave_up(field(i));
        }
        if let (false, Some(limit), Some(i)) = (timed_out, self.client_timeout, cols.duration) {
            timed_out = match parse_duration(field(i)) {
                Some(Took::InUnit(d)) => d >= limit,
                // A value that writes its unit: compared in seconds, whatever the field's unit.
                Some(Took::Seconds(s)) => rules.client_timeout_secs.is_some_and(|l| s >= l),
                None => false,
            };
        }
        let mut outcome = if timed_out {
            // The server's own log: its status is what the work did.
            let upstream = match cols.upstream_status {
                None if rules.server_side => Some(cols.status),
                column => column,
            };
            outcome(upstream.map(field), status, status_gave_up)
        } else {
            Fate::Failed
        };
        let mut from_backend = false;
        if timed_out && (rules.keep_request_ids || rules.answers.is_some()) {
            let id = cols
                .request_id
                .and_then(|i| request_id(field(i)))
                .map(request_id_hash);
            if rules.keep_request_ids {
                self.tally.timed_out_id(id, ts, endpoint, outcome);
            }
            if let (Some(answers), Some(id)) = (&rules.answers, id) {
                if let Some(told) = answers.outcome(id, ts) {
                    from_backend = told == Fate::Succeeded && outcome != Fate::Succeeded;
                    outcome = told;
                }
            }
        }
        // Known to have executed: answered 2xx, or timed out with a backend 2xx.
        let executed = if timed_out {
            outcome == Fate::Succeeded
        } else {
            (200..300).contains(&status)
        };
        if let Some(i) = cols.proxy_attempts {
            // `-` or empty: the proxy did not say (no upstream was tried).
            if let Some(n) = values::proxy_tries(trim(field(i))) {
                let retries = n.saturating_sub(self.proxy_tries);
                self.tally.proxy_retries.record(retries);
                self.tally
                    .proxy_retries_by_endpoint
                    .entry(endpoint)
                    .or_default()
                    .record(retries);
            }
        }
        if let Some(i) = cols.bytes.filter(|_| (200..300).contains(&status)) {
            if let Some(bytes) = parse_count(trim(field(i))) {
                self.tally.response_bytes.record(bytes);
            }
        }
        let by = match rules.grouping {
            Grouping::Key => cols.idempotency_key.map_or(IntentBy::Own, |i| {
                let k = trim(field(i));
                if k.is_empty() || k == b"-" {
                    return IntentBy::Own;
                }
                let mut h = self.keys.build_hasher();
                h.write(k);
                h.write_u64(endpoint);
                let facts = FingerprintAttempt::new(ts, status, timed_out, executed, from_backend)
                    .facts
                    & KeyedAttempt::FACTS;
                IntentBy::Key(h.finish(), KeyedAttempt { executed, facts })
            }),
            Grouping::Fingerprint => {
                let client = client(cols.forwarded_for.map(field), cols.client_addr.map(field));
                client.map_or(IntentBy::Own, |client| {
                    // Each part ends in a byte no text field holds, so parts cannot run together.
                    let mut h = self.fingerprints.build_hasher();
                    h.write(client);
                    h.write_u8(0xff);
                    if let Some(i) = cols.user_agent {
                        h.write(trim(field(i)));
                        h.write_u8(0xff);
                    }
                    h.write_usize(method_index);
                    h.write(raw_path);
                    h.write_u8(0xff);
                    if let Some(i) = cols.request_length {
                        h.write(trim(field(i)));
                    }
                    IntentBy::Fingerprint(
                        h.finish(),
                        FingerprintAttempt::new(ts, status, timed_out, executed, from_backend),
                    )
                })
            }
            Grouping::None => IntentBy::Own,
        };
        self.tally
            .attempt(ts, (endpoint, names), by, timed_out, outcome);
        Ok(())
    }
}
