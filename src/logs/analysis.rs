//! What `analyze` gives back (a file's facts, the analysis) and the rules a file's columns
//! make: below both `analyze` and the trace reader, so neither imports the other.

use super::detect::{self, Chosen};
use super::error::LogError;
use super::formats::set::{FileFormat, FormatSet, Found};
use super::formats::{ColumnMap, DurationUnit, Fields, FormatHints, LineFormat};
use super::framing::Unwrap;
use super::options::{Intents, LogOptions, LogSide, SideRead};
use super::outcomes;
use super::role::Role;
use super::row::{Grouping, RowRules};
use super::tally::Tally;
use super::timestamp::TimestampFormat;
use std::sync::Arc;

/// How one input was read.
#[derive(Debug, Clone)]
pub struct FileInfo {
    pub name: String,
    pub columns: ColumnMap,
    /// The line format it was read as ("nginx combined"); `None` for CSV/TSV.
    pub format: Option<String>,
    /// The format was detected from its first lines (not named by a flag).
    pub detected: bool,
    /// What the evidence should say about the format's fields (e.g. timestamps read as UTC),
    /// in order (`report::words::format_notes` words them).
    pub format_notes: Vec<super::FormatNote>,
    pub delimiter: u8,
    pub gzip: bool,
    /// Pieces it was read in (1 unless split across threads).
    pub pieces: usize,
    /// How its attempts were grouped into intents.
    pub grouping: Grouping,
    /// Whose log it was taken to be (`--log-side`), and why.
    pub side: super::SideRead,
    /// What wrapped its lines ("CRI container log"), when something did.
    pub envelope: Option<String>,
    /// The JSON document its records were framed from ("a JSON array, one record per
    /// element"), when it was one.
    pub document: Option<String>,
    /// Lines that are not access lines, skipped: ("stderr " or "", kind, count).
    pub skipped: Vec<(String, String, u64)>,
    /// The line formats its lines were read with, in the order of their first lines (one
    /// file, several shapes); empty for CSV/TSV.
    pub formats: Vec<FormatRead>,
    /// Its formats took turns line by line (two containers' logs in one), rather than one
    /// after another (a configuration changed mid-file).
    pub interleaved: bool,
    /// What reading its spans found, when it was traces.
    pub traces: Option<super::TraceRead>,
}

/// One of a file's line formats, and the lines it read.
#[derive(Debug, Clone)]
pub struct FormatRead {
    pub name: String,
    /// Its columns; `None` when it was refused (its lines are bad rows).
    pub columns: Option<ColumnMap>,
    /// Why its lines could not be counted beside the file's first format's.
    pub refused: Option<String>,
    pub lines: u64,
    pub first_line: u64,
    pub last_line: u64,
}

impl FileInfo {
    /// Every format that read lines of the file has what `has` asks of its columns.
    pub fn all_have(&self, has: impl Fn(&ColumnMap) -> bool) -> bool {
        has(&self.columns)
            && self
                .formats
                .iter()
                .filter(|f| f.lines > 0)
                .all(|f| f.columns.as_ref().is_none_or(&has))
    }

    /// The file was read with more than one format.
    pub fn mixed(&self) -> bool {
        self.formats.iter().filter(|f| f.lines > 0).count() > 1
    }

    /// The file, and the formats of its lines that lack what `has` asks when it had several
    /// (one file, several shapes), for a message (`report::words` says it).
    pub fn lacking(&self, has: impl Fn(&ColumnMap) -> bool) -> Lacking {
        Lacking {
            file: self.name.clone(),
            formats: self.mixed().then(|| {
                self.formats
                    .iter()
                    .filter(|f| f.lines > 0 && f.columns.as_ref().is_some_and(|c| !has(c)))
                    .map(|f| f.name.clone())
                    .collect()
            }),
        }
    }

    /// It was read with a preset detected with fields after it, which are not read.
    pub fn has_unread_fields(&self) -> bool {
        self.format_notes
            .iter()
            .any(|n| matches!(n, super::FormatNote::UnreadFields { .. }))
    }
}

/// A file lacking a role, and which of its formats' lines lack it when it had several.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lacking {
    pub file: String,
    /// The formats whose lines lack it, when the file was read with more than one.
    pub formats: Option<Vec<String>>,
}

/// The result of reading logs: the finished tally and how each input was read.
#[derive(Debug, Clone)]
pub struct LogAnalysis {
    pub tally: Tally,
    pub files: Vec<FileInfo>,
    pub options: LogOptions,
    /// The join with the backend's log, with `--outcomes`.
    pub join: Option<outcomes::Join>,
}

impl LogAnalysis {
    /// Days the log covers (timestamp span), or `None` without timestamps or rows.
    pub fn days_covered(&self) -> Option<f64> {
        if !self.has_timestamps() {
            return None;
        }
        let (first, last) = (self.tally.first_ts?, self.tally.last_ts?);
        Some((last - first) as f64 / super::timestamp::MICROS_PER_DAY as f64)
    }

    /// The key column looks per-attempt (a request id under another name): every key was
    /// seen once, yet attempts timed out, so clients that retried would have shown it.
    pub fn keys_look_per_attempt(&self) -> bool {
        let t = &self.tally;
        t.keyed.intents > 0 && t.keyed.max_attempts <= 1 && t.counts.timed_out > 0
    }

    /// How the attempts were grouped: by key where any input has a key column (and
    /// `--intents` allows it), else by fingerprint, else none.
    pub fn intent_grouping(&self) -> &'static str {
        let any = |g: Grouping| self.files.iter().any(|f| f.grouping == g);
        if any(Grouping::Key) {
            "key"
        } else if any(Grouping::Fingerprint) {
            "fingerprint"
        } else {
            "none"
        }
    }

    /// Every input has a timestamp column.
    pub fn has_timestamps(&self) -> bool {
        self.files
            .iter()
            .all(|f| f.all_have(|c| c.timestamp.is_some()))
    }

    /// The outcomes of timed-out attempts can be told: every input has an upstream status
    /// column, or the backend's log was joined.
    pub fn has_outcomes(&self) -> bool {
        self.join.is_some()
            || self.files.iter().all(|f| {
                f.all_have(|c| c.upstream_status.is_some()) || f.side.side == LogSide::Server
            })
    }

    /// Every input is a server's own log (`--log-side`, or detected): its statuses are the
    /// outcomes, and a 2xx executed.
    pub fn is_server_log(&self) -> bool {
        !self.files.is_empty() && self.files.iter().all(|f| f.side.side == LogSide::Server)
    }

    /// Every input has an upstream status column.
    pub fn has_upstream(&self) -> bool {
        self.files
            .iter()
            .all(|f| f.all_have(|c| c.upstream_status.is_some()))
    }

    /// Some intents were grouped by idempotency key.
    pub fn has_keys(&self) -> bool {
        self.tally.keyed.intents > 0
    }
}
/// How the options read timestamps: `--timestamp-format`, or the built-in layouts.
fn timestamps(opts: &LogOptions) -> TimestampFormat {
    match &opts.timestamp_format {
        Some(f) => TimestampFormat::Strftime(f.clone()),
        None => TimestampFormat::Auto,
    }
}

/// The rules for the rows of one input, from its header (or line format) and the options.
///
/// `first` is the input's first bytes (`eof`: all of it), where a duration whose unit nothing
/// says has it inferred from its values when they leave one reading (`detect::unit`).
pub(super) fn rules_for(
    name: &str,
    chosen: &Chosen,
    opts: &LogOptions,
    (first_bytes, eof): (&[u8], bool),
) -> Result<RowRules, LogError> {
    let (columns, delimiter, formats, unwrap) = match chosen {
        Chosen::Csv(header) => {
            let refs: Vec<&[u8]> = header.fields.iter().map(Vec::as_slice).collect();
            let mut columns = ColumnMap::detect(name, &refs, &opts.columns, opts.duration_unit)?;
            detect::unit::settle(&mut columns, &timestamps(opts), opts.infer, |i| {
                detect::unit::csv_values(header, first_bytes, eof, i)
            });
            (columns, header.delimiter, None, None)
        }
        Chosen::Lines {
            format,
            envelope,
            detected,
            also,
        } => {
            let maker = FormatMaker {
                name: name.to_string(),
                overrides: opts.columns.clone(),
                duration_unit: opts.duration_unit,
                envelope_time: envelope.is_some_and(|e| e.has_time()),
                needs: Vec::new(),
                timestamp: None,
            };
            let mut first = maker.columns(Arc::clone(format))?;
            detect::unit::settle(&mut first.columns, &timestamps(opts), opts.infer, |i| {
                detect::unit::line_values(format.as_ref(), *envelope, first_bytes, eof, i)
            });
            let unwrap = envelope.map(|envelope| Unwrap {
                envelope,
                time_field: first.time_field,
            });
            let columns = first.columns.clone();
            let set = if *detected {
                let maker = FormatMaker {
                    needs: [
                        (
                            opts.client_timeout.is_some(),
                            Role::Duration,
                            "--client-timeout",
                        ),
                        (opts.path.is_some(), Role::Path, "--path"),
                        (!opts.outcomes.is_empty(), Role::RequestId, "--outcomes"),
                    ]
                    .into_iter()
                    .filter(|(needed, ..)| *needed)
                    .map(|(_, role, flag)| (role, flag))
                    .collect(),
                    timestamp: Some((columns.timestamp.is_some(), format.describe())),
                    ..maker
                };
                let paths = opts.columns.iter().map(|(_, n)| n.clone()).collect();
                FormatSet::detected(
                    first,
                    also.clone(),
                    Box::new(move |f| maker.other(f)),
                    detect::discover(paths),
                )
            } else {
                FormatSet::one(first)
            };
            (columns, b' ', Some(Arc::new(set)), unwrap)
        }
    };
    if opts.client_timeout.is_some() && columns.duration.is_none() {
        return Err(columns.missing(name, Role::Duration));
    }
    if opts.path.is_some() && columns.path.is_none() {
        return Err(columns.missing(name, Role::Path));
    }
    if !opts.outcomes.is_empty() && columns.request_id.is_none() {
        return Err(LogError::Option(format!(
            "{name}: --outcomes joins by request id, and this log has none (looked for {}); headers found: {}; map one with --column request_id=HEADER",
            Role::RequestId.aliases().join(", "),
            columns.headers.join(", ")
        )));
    }
    let fingerprintable = columns.client_addr.is_some() || columns.forwarded_for.is_some();
    // Without a clock, "shortly after a timeout" means nothing: no fingerprints.
    let timed = columns.timestamp.is_some();
    let grouping = match opts.intents {
        Intents::Key if columns.idempotency_key.is_some() => Grouping::Key,
        Intents::Auto if columns.idempotency_key.is_some() => Grouping::Key,
        Intents::Auto | Intents::Fingerprint if fingerprintable && timed => Grouping::Fingerprint,
        Intents::Fingerprint if fingerprintable => {
            return Err(LogError::Option(format!(
                "{name}: --intents fingerprint needs timestamps (a retry is a request sent again within --retry-window), and this log has none (looked for {}); headers found: {}; map one with --column timestamp=HEADER",
                Role::Timestamp.aliases().join(", "),
                columns.headers.join(", ")
            )));
        }
        Intents::Fingerprint => {
            return Err(LogError::Option(format!(
                "{name}: --intents fingerprint needs the client's address, and this log has none (looked for {}, {}); headers found: {}; map one with --column client_addr=HEADER",
                Role::ClientAddr.aliases().join(", "),
                Role::ForwardedFor.aliases().join(", "),
                columns.headers.join(", ")
            )));
        }
        Intents::Key | Intents::Auto => Grouping::None,
    };
    let mut timeout = Box::new([false; 1000]);
    for &s in &opts.timeout_statuses {
        if let Some(slot) = timeout.get_mut(usize::from(s)) {
            *slot = true;
        }
    }
    let client_timeout = opts
        .client_timeout
        .map(|d| d.as_nanos() as f64 / columns.duration_unit.nanos());
    let side = side_of(&columns, opts.log_side);
    Ok(RowRules {
        file: name.to_string(),
        delimiter,
        formats,
        envelope: unwrap,
        timestamps: timestamps(opts),
        methods: opts
            .methods
            .iter()
            .map(|m| m.trim().to_ascii_uppercase().into_bytes())
            .collect(),
        timeout,
        client_timeout,
        client_timeout_secs: opts.client_timeout.map(|d| d.as_secs_f64()),
        path: opts.path.clone(),
        since: opts.since,
        until: opts.until,
        window_micros: i64::try_from(opts.retry_window.as_micros()).unwrap_or(i64::MAX),
        strict: opts.strict,
        keep_request_ids: !opts.outcomes.is_empty(),
        answers: None,
        grouping,
        shared_rate: opts.shared_address_rate,
        server_side: side.side == LogSide::Server,
        side,
        columns,
    })
}

/// Whose log a file is: the flag's word, or detected (no upstream status column, and the key
/// column a webhook event id), or assumed a proxy's.
fn side_of(columns: &ColumnMap, flag: LogSide) -> SideRead {
    let (side, why) = match flag {
        LogSide::Server => (LogSide::Server, "--log-side server".to_string()),
        LogSide::Proxy => (LogSide::Proxy, "--log-side proxy".to_string()),
        LogSide::Auto => match (
            columns.header_of(Role::UpstreamStatus),
            columns.header_of(Role::IdempotencyKey),
        ) {
            (Some(upstream), _) => (
                LogSide::Proxy,
                format!("detected: it has an upstream status column ({upstream})"),
            ),
            (None, Some(key)) if super::role::is_event_id(key) => (
                LogSide::Server,
                format!(
                    "detected: no upstream status column, and its key column {key} is a webhook \
                     event id (--log-side proxy says otherwise)"
                ),
            ),
            (None, _) => (
                LogSide::Proxy,
                "assumed: no upstream status column and no event-id column (--log-side server \
                 if the server that does the work wrote it)"
                    .to_string(),
            ),
        },
    };
    SideRead { side, why }
}
/// Every row of an input was bad: the error naming the first.
pub(super) fn no_usable_rows(name: &str, tally: &Tally) -> Option<LogError> {
    if tally.rows != tally.bad_rows {
        return None;
    }
    let first = tally.bad_samples.first().cloned()?;
    Some(LogError::NoUsableRows {
        path: name.to_string(),
        rows: tally.rows,
        first,
    })
}

/// The line formats of a file and the lines each read; empty for CSV/TSV.
pub(super) fn formats_read(rules: &RowRules, used: super::tally::FormatsUsed) -> Vec<FormatRead> {
    let Some(set) = &rules.formats else {
        return Vec::new();
    };
    let mut read: Vec<FormatRead> = set
        .all()
        .into_iter()
        .enumerate()
        .map(|(i, found)| {
            let u = used.used.get(i).copied().unwrap_or_default();
            // A refused format is said only where it made bad rows: one that a line's
            // envelope read past (a shipper's JSON around a line of the file's format) is not.
            let (columns, refused) = match &found {
                Found::Read(f) => (Some(f.columns.clone()), None),
                Found::Refused { why, .. } => (None, (u.refused > 0).then(|| why.clone())),
            };
            FormatRead {
                name: found.name(),
                columns,
                refused,
                lines: u.lines,
                first_line: u.first_line,
                last_line: u.last_line,
            }
        })
        // Formats found among the first lines that read none are left out.
        .filter(|f| f.lines > 0 || f.refused.is_some())
        .collect();
    // In the order of their first lines (pieces on several threads may find them in another
    // order); refused formats, which read none, last.
    read.sort_by_key(|f| (f.lines == 0, f.first_line));
    read
}

/// A line format whose lines take their envelope's time, as one more field at the end
/// (`envelope_time`, the timestamp unless `--column timestamp=...` says otherwise).
#[derive(Debug)]
struct WithEnvelopeTime<'a>(&'a dyn LineFormat);

/// The name of the field the envelope's time is read from.
const ENVELOPE_TIME: &str = "envelope_time";

impl LineFormat for WithEnvelopeTime<'_> {
    fn describe(&self) -> String {
        self.0.describe()
    }
    fn names(&self) -> Vec<String> {
        let mut names = self.0.names();
        names.push(ENVELOPE_TIME.into());
        names
    }
    fn hints(&self) -> FormatHints {
        let mut hints = self.0.hints();
        hints.columns.push((Role::Timestamp, ENVELOPE_TIME.into()));
        hints
    }
    fn split(&self, line: &[u8], out: &mut Fields) -> Result<(), String> {
        self.0.split(line, out)?;
        out.push(b"");
        Ok(())
    }
}

/// Makes the columns of a file's line formats: its first, and (one file, several shapes) the
/// others found as it goes on, which must have what the options and the first format's
/// figures need of them.
struct FormatMaker {
    name: String,
    overrides: Vec<(Role, String)>,
    duration_unit: Option<DurationUnit>,
    /// The envelope gives each line a time.
    envelope_time: bool,
    /// Roles another format must have, and the flag that needs each.
    needs: Vec<(Role, &'static str)>,
    /// The first format has a timestamp, and its name.
    timestamp: Option<(bool, String)>,
}

impl FormatMaker {
    /// `format`'s columns by its names (a line without a time of its own takes its
    /// envelope's).
    fn columns(&self, format: Arc<dyn LineFormat>) -> Result<FileFormat, LogError> {
        let at = |f: &dyn LineFormat| {
            ColumnMap::for_format(&self.name, f, &self.overrides, self.duration_unit)
        };
        let columns = at(format.as_ref())?;
        let time_field = self.envelope_time && columns.timestamp.is_none();
        let columns = if time_field {
            at(&WithEnvelopeTime(format.as_ref()))?
        } else {
            columns
        };
        Ok(FileFormat {
            format,
            columns,
            time_field,
        })
    }

    /// Another format of the file, or why its lines cannot be counted beside the first's.
    fn other(&self, format: Arc<dyn LineFormat>) -> Result<FileFormat, String> {
        let made = self.columns(format).map_err(|e| e.to_string())?;
        let has_time = made.columns.timestamp.is_some();
        if let Some((first_has, first)) = &self.timestamp
            && has_time != *first_has
        {
            return Err(if has_time {
                format!("it has timestamps and {first}, the file's first format, has none")
            } else {
                format!(
                    "it has no timestamp and {first}, the file's first format, has: its rows would have no day"
                )
            });
        }
        for (role, flag) in &self.needs {
            if made.columns.header_of(*role).is_none() {
                return Err(format!("it has no {role}, which {flag} needs"));
            }
        }
        Ok(made)
    }
}
