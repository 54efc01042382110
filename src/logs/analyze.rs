//! The pipeline driven: every input opened ([`source`](super::source)), its header mapped
//! ([`formats`](super::formats)), its records read and tallied by one thread or several
//! ([`row`](super::row)), the tallies merged in order, and the backend's log joined
//! ([`outcomes`](super::outcomes)).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use super::detect::{self, Chosen};
use super::error::LogError;
use super::formats::set::{FileFormat, FormatSet, Found};
use super::formats::{ColumnMap, DurationUnit, Fields, FormatHints, LineFormat};
use super::framing::{Unwrap, json_doc};
use super::options::{Intents, LogOptions, LogSide, SideRead};
use super::outcomes;
use super::role::Role;
use super::row::{self, Grouping, RowRules, Scanned};
use super::source::{self, LogInput, MovableStop, Piece, ProgressBar};
use super::tally::{BackendAnswers, Tally};
use super::timestamp::TimestampFormat;

/// How one input was read.
#[derive(Debug, Clone)]
pub struct FileInfo {
    pub name: String,
    pub columns: ColumnMap,
    /// The line format it was read as ("nginx combined"); `None` for CSV/TSV.
    pub format: Option<String>,
    /// The format was detected from its first lines (not named by a flag).
    pub detected: bool,
    /// What the evidence should say about the format's fields (e.g. timestamps read as UTC).
    pub format_note: Option<String>,
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
    /// file, several shapes: issue 22); empty for CSV/TSV.
    pub formats: Vec<FormatRead>,
    /// Its formats took turns line by line (two containers' logs in one), rather than one
    /// after another (a configuration changed mid-file).
    pub interleaved: bool,
    /// What reading its spans found, when it was traces (issue 39).
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

    /// The file, or the lines of it whose format lacks what `has` asks (one file, several
    /// shapes), for a message: "app.log", "app.log (its nginx combined lines)".
    pub fn lacking(&self, has: impl Fn(&ColumnMap) -> bool) -> String {
        if !self.mixed() {
            return self.name.clone();
        }
        let lacking: Vec<&str> = self
            .formats
            .iter()
            .filter(|f| f.lines > 0 && f.columns.as_ref().is_some_and(|c| !has(c)))
            .map(|f| f.name.as_str())
            .collect();
        format!("{} (its {} lines)", self.name, lacking.join(" and "))
    }
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

/// Reads every source, in order, into one [`LogAnalysis`].
pub fn analyze(sources: &[LogInput], opts: &LogOptions) -> Result<LogAnalysis, LogError> {
    if sources.is_empty() {
        return Err(LogError::NoSources);
    }
    let stdin_reads = sources
        .iter()
        .chain(&opts.outcomes)
        .filter(|s| **s == LogInput::Stdin)
        .count();
    if stdin_reads > 1 {
        return Err(LogError::StdinTwice);
    }
    if opts.timestamp_format.is_some() && opts.timestamp_format.as_deref() == Some("") {
        return Err(LogError::Option("--timestamp-format is empty".into()));
    }
    let threads = match opts.threads {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get().min(4)),
        n => n,
    };
    let (mut tally, files) = read_all(sources, opts, threads, None)?;
    // The backend's log: what it said of the timed-out attempts' ids. The proxy log is then
    // read again with those answers, so each intent knows which of its attempts executed;
    // stdin cannot be read twice, and there only the attempts' outcomes are moved.
    let join = if opts.outcomes.is_empty() {
        None
    } else {
        let (answers, mut join) =
            outcomes::answers(&tally, &opts.outcomes, &opts.outcomes_columns)?;
        if sources.contains(&LogInput::Stdin) {
            outcomes::reclassify(&mut tally, &answers);
        } else {
            let answers = Arc::new(answers);
            tally = read_all(sources, opts, threads, Some(&answers))?.0;
            join.per_intent = true;
        }
        Some(join)
    };
    Ok(LogAnalysis {
        tally,
        files,
        options: opts.clone(),
        join,
    })
}

/// Reads every source into one finished tally (with the backend's `answers`, the second
/// reading of `--outcomes`), and how each was read.
fn read_all(
    sources: &[LogInput],
    opts: &LogOptions,
    threads: usize,
    answers: Option<&Arc<BackendAnswers>>,
) -> Result<(Tally, Vec<FileInfo>), LogError> {
    let progress = ProgressBar::new(opts.progress, sources);
    let mut files = Vec::new();
    let mut tallies = Vec::new();
    // With one input, its first piece has nothing before it to merge with.
    let alone = sources.len() == 1;
    for source in sources {
        let (info, tally) = read_source(source, opts, threads, &progress, alone, answers)?;
        files.push(info);
        tallies.push(tally);
    }
    progress.finish();
    // Rotated files merge oldest first, whatever order they were named in.
    tallies.sort_by_key(|t: &Tally| t.first_ts.unwrap_or(i64::MAX));
    let mut tallies = tallies.into_iter();
    let mut tally = tallies.next().unwrap_or_else(|| Tally::new(0));
    for t in tallies {
        tally.merge(t);
    }
    Ok((tally.finish(), files))
}

/// The rules for the rows of one input, from its header (or line format) and the options.
pub(super) fn rules_for(
    name: &str,
    chosen: &Chosen,
    opts: &LogOptions,
) -> Result<RowRules, LogError> {
    let (columns, delimiter, formats, unwrap) = match chosen {
        Chosen::Csv(header) => {
            let refs: Vec<&[u8]> = header.fields.iter().map(Vec::as_slice).collect();
            let columns = ColumnMap::detect(name, &refs, &opts.columns, opts.duration_unit)?;
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
            let first = maker.columns(Arc::clone(format))?;
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
        timestamps: match &opts.timestamp_format {
            Some(f) => TimestampFormat::Strftime(f.clone()),
            None => TimestampFormat::Auto,
        },
        methods: opts
            .methods
            .iter()
            .map(|m| m.trim().to_ascii_uppercase().into_bytes())
            .collect(),
        timeout,
        client_timeout,
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

/// What `detect::choose` needs of the options (it does not know `LogOptions`).
pub(super) fn choose_options(opts: &LogOptions) -> detect::ChooseOptions<'_> {
    detect::ChooseOptions {
        input_format: opts.input_format,
        envelope: opts.envelope,
        log_format: opts.log_format.as_deref(),
        delimiter: opts.delimiter,
        columns: &opts.columns,
        duration_unit: opts.duration_unit,
        haproxy_captures: &opts.haproxy_captures,
    }
}

/// A line format whose lines depend on the lines before them (IIS): one piece, in order.
fn stateful(chosen: &Chosen) -> bool {
    matches!(chosen, Chosen::Lines { format, .. } if format.stateful())
}

fn read_source(
    source: &LogInput,
    opts: &LogOptions,
    threads: usize,
    progress: &ProgressBar,
    alone: bool,
    answers: Option<&Arc<BackendAnswers>>,
) -> Result<(FileInfo, Tally), LogError> {
    let mut opened = source::open(source, detect::SNIFF_LINES, progress.counter())?;
    // OpenTelemetry traces (OTLP/JSON, Zipkin): read span by span, not as lines.
    if let Some(chosen) = super::traces::chosen(&opened.prefix, opened.eof, opts) {
        if answers.is_some() || !opts.outcomes.is_empty() {
            return Err(LogError::Option(format!(
                "{}: --outcomes joins an access log to the backend's; traces have the server spans already",
                opened.name
            )));
        }
        return super::traces::read(opened, chosen, opts, !alone);
    }
    // A JSON document (an array, {"events": [...]}, pretty-printed objects) is read as one
    // compact line per record.
    let document = json_doc::sniff(&opened.prefix);
    if document.is_some() {
        opened = opened.reframe(
            |stream| Box::new(json_doc::Documents::new(stream)),
            detect::SNIFF_LINES,
        )?;
    }
    let chosen = detect::choose(&mut opened, &choose_options(opts))?;
    let mut rules = rules_for(&opened.name, &chosen, opts)?;
    if let Some(answers) = answers {
        rules.keep_request_ids = false;
        rules.answers = Some(Arc::clone(answers));
    }
    let name = opened.name.clone();
    let (data_start, data_line) = match &chosen {
        Chosen::Csv(h) => (h.data_start, h.data_line),
        Chosen::Lines { .. } => (0, 1),
    };
    // From the first data row to the end: the whole input, or the first of its pieces.
    let first = Piece {
        first_line: data_line,
        start: data_start,
        stop: None,
        follows: !alone,
    };
    let gzip = opened.gzip;
    let (mut tally, pieces) = match opened.plain_file.clone() {
        Some((path, size))
            if threads > 1 && size >= opts.split_bytes.max(1) && !stateful(&chosen) =>
        {
            drop(opened);
            read_in_pieces(
                &path,
                size,
                first,
                threads,
                opts.split_bytes,
                &rules,
                progress,
            )?
        }
        _ => {
            let err = source::io_error(&name, gzip);
            let rest = opened.rest(data_start as usize);
            // A stream (gzip, stdin) is read a block ahead on a second core.
            let tally = if threads > 1 {
                row::scan(source::read_ahead(rest), &rules, first, &err)?.tally
            } else {
                row::scan(rest, &rules, first, &err)?.tally
            };
            (tally, 1)
        }
    };
    if tally.rows == 0 {
        return Err(match &chosen {
            Chosen::Csv(_) => LogError::HeaderOnly { path: name },
            Chosen::Lines { format, .. } => LogError::Option(format!(
                "{name}: no log lines in it to read as {}",
                format.describe()
            )),
        });
    }
    if let Some(none) = no_usable_rows(&name, &tally) {
        return Err(none);
    }
    let (format, detected, format_note) = match &chosen {
        Chosen::Csv(_) => (None, false, None),
        Chosen::Lines {
            format, detected, ..
        } => {
            let mut note = format.hints().note;
            if rules.envelope.is_some_and(|u| u.time_field) {
                let with =
                    "its access lines have no time of their own: each takes its envelope's time";
                note = Some(match note {
                    Some(n) => format!("{n}; {with}"),
                    None => with.to_string(),
                });
            }
            (Some(format.describe()), *detected, note)
        }
    };
    let envelope = match &chosen {
        Chosen::Lines { envelope, .. } => envelope.map(|e| e.describe()),
        Chosen::Csv(_) => None,
    };
    let skipped = tally
        .skipped
        .iter()
        .map(|((stream, kind), n)| (stream.trim().to_string(), kind.to_string(), *n))
        .collect();
    let info = FileInfo {
        name,
        columns: rules.columns.clone(),
        format,
        detected,
        format_note,
        delimiter: rules.delimiter,
        gzip,
        pieces,
        grouping: rules.grouping,
        side: rules.side.clone(),
        envelope,
        document: document.map(|d| d.describe()),
        skipped,
        interleaved: tally.formats.interleaved(),
        formats: formats_read(&rules, std::mem::take(&mut tally.formats)),
        traces: None,
    };
    Ok((info, tally))
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
            let (columns, refused) = match &found {
                Found::Read(f) => (Some(f.columns.clone()), None),
                Found::Refused { why, .. } => (None, Some(why.clone())),
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

/// Reads a plain file in pieces, `threads` at once, and merges their tallies in order.
///
/// The file is cut in one piece per thread, and a thread that finishes its piece while another
/// still has at least `split_bytes` to go takes over the second half of that piece's
/// rest (see [`MovableStop`]). On a shared machine one core is often slower for a while;
/// without this, the others would wait for it at the end (by 0.2 to 0.35 s of 2 s, measured).
/// More pieces from the start would balance too, but each piece costs its boundary state.
///
/// A piece whose start was not a record boundary (a quoted newline) is read again, with all
/// that follows, from where the previous piece really ended.
fn read_in_pieces(
    path: &std::path::Path,
    size: u64,
    first: Piece,
    threads: usize,
    split_bytes: u64,
    rules: &RowRules,
    progress: &ProgressBar,
) -> Result<(Tally, usize), LogError> {
    let name = rules.file.as_str();
    let err = source::io_error(name, false);
    let starts = source::plan_pieces(path, first.start, size, threads).map_err(&err)?;
    // Ranges not yet begun, as (start, stop); the last piece reads to the end of the file.
    let queue: Mutex<Vec<(u64, u64)>> = Mutex::new(
        starts
            .iter()
            .enumerate()
            .rev()
            .map(|(i, &start)| (start, starts.get(i + 1).copied().unwrap_or(u64::MAX)))
            .collect(),
    );
    let running: Mutex<Vec<Arc<MovableStop>>> = Mutex::new(Vec::new());
    let results: Mutex<Vec<(u64, Result<Scanned, LogError>)>> = Mutex::new(Vec::new());
    let failed = AtomicBool::new(false);
    let read_piece = |start: u64, movable: Option<&MovableStop>| {
        use std::io::{Seek, SeekFrom};
        let piece = Piece {
            first_line: if start == first.start {
                first.first_line
            } else {
                1
            },
            start,
            stop: movable.map(|m| m.position().1),
            follows: start != first.start || first.follows,
        };
        let mut file = std::fs::File::open(path).map_err(&err)?;
        file.seek(SeekFrom::Start(piece.start)).map_err(&err)?;
        let counted = source::Counted {
            inner: file,
            on_read: progress.counter(),
        };
        let mut scanned = row::scan_until(counted, rules, piece, movable, &err);
        if piece.start != first.start {
            // Lines were counted from the piece's start: make them the file's.
            let fix = |line: &mut u64, base: u64| *line += base - 1;
            let needs = match &scanned {
                Ok(s) => !s.tally.bad_samples.is_empty(),
                Err(LogError::StrictBadRow(_)) => true,
                Err(_) => false,
            };
            if needs {
                let base = 1 + source::count_lines(path, piece.start).map_err(&err)?;
                match &mut scanned {
                    Ok(s) => s
                        .tally
                        .bad_samples
                        .iter_mut()
                        .for_each(|b| fix(&mut b.place.line, base)),
                    Err(LogError::StrictBadRow(b)) => fix(&mut b.place.line, base),
                    Err(_) => {}
                }
            }
        }
        scanned
    };
    // The second half of the rest of the running piece with the most left, if worth it.
    let steal = || -> Option<(u64, u64)> {
        let victims = guard(&running).clone();
        let (victim, read_to, stop) = victims
            .iter()
            .map(|m| {
                let (read_to, stop) = m.position();
                (m, read_to, stop.min(size))
            })
            .max_by_key(|&(_, read_to, stop)| stop.saturating_sub(read_to))?;
        if stop.saturating_sub(read_to) < split_bytes.max(1) {
            return None;
        }
        let mut file = std::fs::File::open(path).ok()?;
        let guess = read_to + (stop - read_to) / 2;
        let at = source::next_line_start(&mut file, guess, stop).ok()??;
        victim.take_from(at).map(|old_stop| (at, old_stop))
    };
    let worker = || {
        while !failed.load(Ordering::Relaxed) {
            let job = guard(&queue).pop().or_else(steal);
            let Some((start, stop)) = job else { break };
            let movable = Arc::new(MovableStop::new(start, stop));
            guard(&running).push(Arc::clone(&movable));
            let result = read_piece(start, Some(&movable));
            guard(&running).retain(|m| !Arc::ptr_eq(m, &movable));
            if result.is_err() {
                failed.store(true, Ordering::Relaxed);
            }
            guard(&results).push((start, result));
        }
    };
    let panicked = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads).map(|_| scope.spawn(worker)).collect();
        handles.into_iter().any(|h| h.join().is_err())
    });
    if panicked {
        return Err(LogError::Internal(
            "a reader thread panicked (a bug in dupcost: please report it)".into(),
        ));
    }
    let mut results = results.into_inner().unwrap_or_else(|p| p.into_inner());
    results.sort_by_key(|(start, _)| *start);
    let mut tally: Option<Tally> = None;
    let mut expected = first.start;
    let mut used = 0;
    for (start, result) in results {
        if start != expected {
            // The previous piece ran past this one's start (or a piece was left unread after
            // an error): read the rest in one go.
            let rest = read_piece(expected, None)?;
            merge_into(&mut tally, rest.tally);
            used += 1;
            break;
        }
        let scanned = result?;
        expected = scanned.end;
        merge_into(&mut tally, scanned.tally);
        used += 1;
    }
    Ok((
        tally.unwrap_or_else(|| Tally::new(rules.window_micros)),
        used,
    ))
}

/// Locks `m`, whether or not another thread panicked while holding it (the data stays
/// consistent: each critical section here is a single push, pop or read).
fn guard<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

fn merge_into(acc: &mut Option<Tally>, next: Tally) {
    match acc {
        Some(t) => t.merge(next),
        None => *acc = Some(next),
    }
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
