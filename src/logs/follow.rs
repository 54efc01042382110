//! `logs --follow`: a growing log read as it grows, reported on every tick.
//!
//! # The path of the bytes
//!
//! Each input has a reader thread: a file is polled (read to its end, then its path looked
//! at, then a short sleep), stdin is read as it comes. The readers send what they read to
//! one channel; the follower holds the bytes after the last line end until that line is
//! whole, and feeds whole lines to a [`Feeder`]: the same framing and row stage as `logs`,
//! into one running [`Tally`]. Nothing is read twice, so the tally at any tick is the tally
//! `logs` makes of the lines read so far, and [`Tally::snapshot`] counts its open intents
//! without ending it.
//!
//! # Rotation
//!
//! A file is followed by name, as `tail -F` does:
//!
//! - **rename and a new file** (logrotate's default): the path names another file (device
//!   and inode). The old file is read to its end once more, its unfinished last line counted
//!   as a line (as `logs` counts a file's last line), and the new file is read from its start.
//!   A CSV file's header line, repeated at the top of the new file, is skipped.
//! - **copytruncate**: the path's file is shorter than what was read. It is read again from
//!   its start. Lines written between the last read and the truncation are only in the copy
//!   (at most one poll interval of them): the report says the file was truncated.
//!
//! # Polling, not file events
//!
//! The reader sleeps [`FollowOptions::poll`] (250 ms) between looks: an idle follower wakes
//! four times a second for one `stat` and one `read`, and uses no measurable CPU. File events
//! (inotify through the `notify` crate) would save those wake-ups but miss changes on network
//! and some container filesystems, and need the same rename and truncation logic on top;
//! a quarter of a second is well inside a 2 s tick.
//!
//! # `--window`
//!
//! With a window, the running tally is cut into buckets of a twelfth of the window of log
//! time (cut by the row stage, [`Feeder::with_buckets`]: the next bucket follows the last, as
//! the pieces of a file do). A
//! tick merges, in order, the buckets whose last row is within the window of the latest row,
//! so a report covers between the window and a twelfth more, and names the span it covers.
//! Buckets that leave the window are dropped: memory is bounded by the window's intents.
//! Without a window, intents whose retry window has closed are counted and forgotten by the
//! tally itself (see [`super::tally`]), so memory is bounded by about 2.25 retry windows.

use std::collections::VecDeque;
use std::fs::File;
use std::io::{self, Seek, SeekFrom};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, SyncSender};
use std::time::{Duration, Instant};

use super::analysis::{FileInfo, LogAnalysis, formats_read, rules_for};
use super::analyze::choose_options;
use super::detect::{self, Chosen, SNIFF_LINES};
use super::error::LogError;
use super::limits::MAX_RECORD;
use super::options::LogOptions;
use super::row::{Feeder, RowRules};
use super::source::{GZIP_MAGIC, LogInput, Opened, read_retrying};
use super::tally::Tally;

/// How often and over what a follower reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FollowOptions {
    /// A report every this much wall time (`--every`).
    pub every: Duration,
    /// Report on the last this much log time only (`--window`).
    pub window: Option<Duration>,
    /// How long a file's reader sleeps between looks.
    pub poll: Duration,
}

impl Default for FollowOptions {
    fn default() -> Self {
        FollowOptions {
            every: DEFAULT_EVERY,
            window: None,
            poll: Duration::from_millis(250),
        }
    }
}

/// The default `--every`.
pub const DEFAULT_EVERY: Duration = Duration::from_secs(2);

/// Bytes of first lines enough to tell a format, as `logs` reads them.
const SNIFF_BYTES: usize = 64 * 1024;
/// Buckets per window.
const BUCKETS: i64 = 12;
/// Most bytes fed at once (so the buckets that leave a window are dropped while a large file
/// is read).
const FEED_BYTES: usize = 1 << 20;

/// One report of a follower.
#[derive(Debug, Clone)]
pub struct Tick {
    /// The measurement at this tick: every line so far, or the window's.
    pub analysis: LogAnalysis,
    /// 1 for the first report.
    pub number: u64,
    /// The last report (Ctrl-C, or every input ended).
    pub last: bool,
    /// Rows read since the start (the window's rows are in `analysis`).
    pub rows_read: u64,
    /// Rows read since the previous report.
    pub new_rows: u64,
    /// Rows read per second of wall time since the previous report.
    pub rows_per_second: f64,
    /// `--window`.
    pub window: Option<Duration>,
    /// The latest log time of any row read (µs since the epoch).
    pub last_line_ts: Option<i64>,
    /// Times a followed file was replaced by a new one (rename rotation).
    pub rotations: u64,
    /// Times a followed file was truncated (copytruncate).
    pub truncations: u64,
}

/// What a reader thread sends.
enum Msg {
    Bytes(usize, Vec<u8>),
    /// The file was replaced (`true`) or truncated (`false`): what came before is complete.
    Restart(usize, bool),
    End(usize),
    Failed(LogError),
}

/// Follows `sources` until `stop` is set (Ctrl-C) or every input has ended (stdin closed),
/// calling `on_tick` every `follow.every` with a fresh report, and once more at the end;
/// `on_tick` returns false to stop (its reader went away).
pub fn follow(
    sources: &[LogInput],
    opts: &LogOptions,
    follow: &FollowOptions,
    stop: &Arc<AtomicBool>,
    mut on_tick: impl FnMut(Tick) -> bool,
) -> Result<(), LogError> {
    refuse(sources, opts)?;
    // Bounded: a reader faster than the row stage waits instead of queueing the file in
    // memory (16 blocks of at most 256 KiB each).
    let (tx, rx) = mpsc::sync_channel(16);
    for (i, source) in sources.iter().enumerate() {
        spawn_reader(i, source, tx.clone(), Arc::clone(stop), follow.poll)?;
    }
    drop(tx);
    let mut inputs: Vec<Input> = sources
        .iter()
        .map(|s| Input {
            name: s.name(),
            is_stdin: *s == LogInput::Stdin,
            pending: Vec::new(),
            ended: false,
            header: None,
            skip_header: false,
        })
        .collect();

    // The first lines of every input tell its format.
    let started = Instant::now();
    let mut counts = Counters::default();
    first_lines(&mut inputs, &rx, follow, stop, started, &mut counts)?;
    let (rules, files, starts) = choose_each(&mut inputs, opts)?;
    let mut state = State::new(&rules, &starts, follow, sources.len() == 1);
    for (i, input) in inputs.iter_mut().enumerate() {
        let first = std::mem::take(&mut input.pending);
        let data = first.get(starts[i].0..).unwrap_or_default();
        input.pending = Vec::new();
        state.take(i, input, data)?;
        if input.ended {
            state.flush(i, input)?;
        }
    }
    let mut reports = Reports {
        files,
        rules: &rules,
        opts,
        window: follow.window,
        every: follow.every,
        clock: TickClock {
            number: 0,
            last_at: started,
            last_rows: 0,
            next: Instant::now() + follow.every,
        },
    };
    if !on_tick(reports.next(&mut state, &counts, false)) {
        return Ok(());
    }
    follow_on(
        &mut inputs,
        &rx,
        &mut state,
        &mut reports,
        &mut counts,
        (stop, follow.poll),
        &mut on_tick,
    )
}

/// What `--follow` cannot do: no input, stdin twice, `--outcomes`.
fn refuse(sources: &[LogInput], opts: &LogOptions) -> Result<(), LogError> {
    if sources.is_empty() {
        return Err(LogError::NoSources);
    }
    if sources.iter().filter(|s| **s == LogInput::Stdin).count() > 1 {
        return Err(LogError::StdinTwice);
    }
    if !opts.outcomes.is_empty() {
        return Err(LogError::Option(
            "--outcomes joins a finished backend log: run dupcost logs without --follow".into(),
        ));
    }
    Ok(())
}

/// Waits until every input has its first lines (enough to tell its format), or has ended.
fn first_lines(
    inputs: &mut [Input],
    rx: &mpsc::Receiver<Msg>,
    follow: &FollowOptions,
    stop: &Arc<AtomicBool>,
    started: Instant,
    counts: &mut Counters,
) -> Result<(), LogError> {
    loop {
        let ready = inputs.iter().all(|i| {
            let lines = memchr::memchr_iter(b'\n', &i.pending).count();
            lines >= SNIFF_LINES
                || i.pending.len() >= SNIFF_BYTES
                || (i.ended && !i.pending.is_empty())
                || (lines > 0 && started.elapsed() >= follow.every)
        });
        if ready {
            break;
        }
        if let Some(input) = inputs.iter().find(|i| i.ended && i.pending.is_empty()) {
            return Err(LogError::Empty {
                path: input.name.clone(),
            });
        }
        if stop.load(Ordering::Relaxed) {
            let waiting = inputs.iter().find(|i| !i.pending.contains(&b'\n'));
            return Err(LogError::Option(format!(
                "{}: stopped before a whole line arrived; nothing to report",
                waiting.map_or("-", |i| i.name.as_str())
            )));
        }
        match rx.recv_timeout(follow.poll) {
            Ok(Msg::Bytes(i, bytes)) => {
                if inputs[i].pending.is_empty() && bytes.starts_with(&GZIP_MAGIC) {
                    return Err(LogError::Option(format!(
                        "{}: --follow reads growing plain-text logs, and this one is gzip: read it with dupcost logs (without --follow)",
                        inputs[i].name
                    )));
                }
                inputs[i].pending.extend_from_slice(&bytes);
            }
            Ok(Msg::Restart(i, rotated)) => {
                counts.restart(rotated);
                let input = &mut inputs[i];
                if !input.pending.is_empty() && !input.pending.ends_with(b"\n") {
                    input.pending.push(b'\n');
                }
            }
            Ok(Msg::End(i)) => inputs[i].ended = true,
            Ok(Msg::Failed(e)) => return Err(e),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                inputs.iter_mut().for_each(|i| i.ended = true);
            }
        }
    }
    Ok(())
}

/// Each input's rules, how it is read, and where its data starts (byte and line).
type Choices = (Vec<RowRules>, Vec<FileInfo>, Vec<(usize, u64)>);

/// Each input's format chosen from its first lines: its rules, how it is read, and where
/// its data starts (byte and line).
fn choose_each(inputs: &mut [Input], opts: &LogOptions) -> Result<Choices, LogError> {
    let mut rules = Vec::new();
    let mut files = Vec::new();
    let mut starts = Vec::new();
    for input in inputs.iter_mut() {
        let whole = match memchr::memrchr(b'\n', &input.pending) {
            Some(at) => at + 1,
            None => input.pending.len(),
        };
        let mut opened = Opened::from_bytes(input.name.clone(), input.pending[..whole].to_vec());
        if let Some(traces) = super::traces::chosen(&opened.prefix, false, opts) {
            return Err(LogError::Option(format!(
                "{}: --follow reads access logs, not traces ({}): read the file without --follow",
                input.name,
                traces.format.describe()
            )));
        }
        let chosen = detect::choose(&mut opened, &choose_options(opts))?;
        let rule = rules_for(&input.name, &chosen, opts, (&opened.prefix, false))?;
        let (data_start, data_line) = match &chosen {
            Chosen::Csv(h) => (h.data_start as usize, h.data_line),
            Chosen::Lines { .. } => (0, 1),
        };
        if let Chosen::Csv(_) = &chosen {
            input.header = Some(input.pending[..data_start].trim_ascii_end().to_vec());
        }
        let (format, detected, format_notes) = match &chosen {
            Chosen::Csv(_) => (None, false, Vec::new()),
            Chosen::Lines {
                format, detected, ..
            } => (Some(format.describe()), *detected, format.hints().notes),
        };
        let envelope = match &chosen {
            Chosen::Lines { envelope, .. } => envelope.map(|e| e.describe()),
            Chosen::Csv(_) => None,
        };
        files.push(FileInfo {
            name: input.name.clone(),
            columns: rule.columns.clone(),
            format,
            detected,
            format_notes,
            delimiter: rule.delimiter,
            gzip: false,
            pieces: 1,
            grouping: rule.grouping,
            side: rule.side.clone(),
            envelope,
            // Followed inputs are lines as they are appended, never a JSON document.
            document: None,
            skipped: Vec::new(),
            formats: Vec::new(),
            interleaved: false,
            traces: None,
        });
        starts.push((data_start, data_line));
        rules.push(rule);
    }
    Ok((rules, files, starts))
}

/// Each report: the files as read so far, and the tick's clock.
struct Reports<'a> {
    files: Vec<FileInfo>,
    rules: &'a [RowRules],
    opts: &'a LogOptions,
    window: Option<Duration>,
    every: Duration,
    clock: TickClock,
}

impl Reports<'_> {
    /// The next report, from the running tallies.
    fn next(&mut self, state: &mut State, counts: &Counters, last: bool) -> Tick {
        let tick = &mut self.clock;
        let (tally, rows_read) = state.snapshot();
        let mut files = self.files.clone();
        // The formats each input's lines were read with so far (one file, several shapes).
        for ((file, feeder), rule) in files.iter_mut().zip(&mut state.feeders).zip(self.rules) {
            let seen = feeder.formats_seen();
            file.interleaved = seen.interleaved();
            file.formats = formats_read(rule, seen);
        }
        let now = Instant::now();
        let secs = now.duration_since(tick.last_at).as_secs_f64();
        tick.number += 1;
        let new_rows = rows_read.saturating_sub(tick.last_rows);
        let out = Tick {
            analysis: LogAnalysis {
                tally,
                files,
                options: self.opts.clone(),
                join: None,
            },
            number: tick.number,
            last,
            rows_read,
            new_rows,
            rows_per_second: if secs > 0.0 {
                new_rows as f64 / secs
            } else {
                0.0
            },
            window: self.window,
            last_line_ts: state.latest,
            rotations: counts.rotations,
            truncations: counts.truncations,
        };
        tick.last_at = now;
        tick.last_rows = rows_read;
        tick.next = now + self.every;
        out
    }
}

/// Reads on after the first report until every input has ended, or Ctrl-C, a report every
/// tick and a last one at the end.
fn follow_on(
    inputs: &mut [Input],
    rx: &mpsc::Receiver<Msg>,
    state: &mut State,
    reports: &mut Reports,
    counts: &mut Counters,
    (stop, poll): (&Arc<AtomicBool>, Duration),
    on_tick: &mut impl FnMut(Tick) -> bool,
) -> Result<(), LogError> {
    let mut stopping: Option<Instant> = None;
    loop {
        let all_ended = inputs.iter().all(|i| i.ended);
        // After Ctrl-C, the file readers read once more and end; stdin may never end.
        let drained = inputs.iter().all(|i| i.ended || i.is_stdin);
        if all_ended || (stopping.is_some() && drained) || stopping.is_some_and(timed_out) {
            for (i, input) in inputs.iter_mut().enumerate() {
                state.flush(i, input)?;
            }
            on_tick(reports.next(state, counts, true));
            return Ok(());
        }
        if stopping.is_none() && stop.load(Ordering::Relaxed) {
            stopping = Some(Instant::now());
        }
        let wait = if stopping.is_some() {
            poll
        } else {
            reports
                .clock
                .next
                .saturating_duration_since(Instant::now())
                .min(poll)
        };
        match rx.recv_timeout(wait) {
            Ok(Msg::Bytes(i, bytes)) => {
                let input = &mut inputs[i];
                if input.skip_header {
                    input.pending.extend_from_slice(&bytes);
                    let Some(end) = memchr::memchr(b'\n', &input.pending) else {
                        continue;
                    };
                    input.skip_header = false;
                    let line = input.pending[..end].trim_ascii_end();
                    let skip = input.header.as_deref() == Some(line);
                    let rest = input.pending.split_off(if skip { end + 1 } else { 0 });
                    input.pending.clear();
                    state.take(i, input, &rest)?;
                } else {
                    state.take(i, input, &bytes)?;
                }
            }
            Ok(Msg::Restart(i, rotated)) => {
                counts.restart(rotated);
                let input = &mut inputs[i];
                state.flush(i, input)?;
                input.skip_header = rotated && input.header.is_some();
            }
            Ok(Msg::End(i)) => inputs[i].ended = true,
            Ok(Msg::Failed(e)) => return Err(e),
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                inputs.iter_mut().for_each(|i| i.ended = true);
            }
        }
        if stopping.is_none()
            && Instant::now() >= reports.clock.next
            && !on_tick(reports.next(state, counts, false))
        {
            return Ok(());
        }
    }
}

/// A bucket of `--window`: a twelfth of it.
fn bucket_len(window: Duration) -> i64 {
    i64::try_from(window.as_micros()).unwrap_or(i64::MAX) / BUCKETS
}

/// After Ctrl-C, the readers have a second to read what is left.
fn timed_out(since: Instant) -> bool {
    since.elapsed() >= Duration::from_secs(1)
}

struct Input {
    name: String,
    is_stdin: bool,
    /// Bytes after the last whole line (the whole first lines before the format is known).
    pending: Vec<u8>,
    ended: bool,
    /// A CSV input's header line, skipped when a rotated file starts with it again.
    header: Option<Vec<u8>>,
    /// The next line is the first of a new file.
    skip_header: bool,
}

#[derive(Default)]
struct Counters {
    rotations: u64,
    truncations: u64,
}

impl Counters {
    fn restart(&mut self, rotated: bool) {
        if rotated {
            self.rotations += 1;
        } else {
            self.truncations += 1;
        }
    }
}

struct TickClock {
    number: u64,
    last_at: Instant,
    last_rows: u64,
    next: Instant,
}

/// The running tallies: one feeder per input, and with `--window` the closed buckets.
struct State<'a> {
    feeders: Vec<Feeder<'a>>,
    /// Closed buckets, oldest first.
    buckets: VecDeque<Tally>,
    /// Rows of the buckets that left the window.
    dropped_rows: u64,
    /// `--window` in µs.
    window: Option<i64>,
    /// The latest log time read.
    latest: Option<i64>,
    /// The last snapshot and the rows read when it was taken: an idle tick reuses it instead
    /// of counting the open intents again.
    cache: Option<(u64, Tally)>,
}

impl<'a> State<'a> {
    /// A feeder per input from its rules and first data line; `alone`: one input, so the
    /// lines are not told apart by file.
    fn new(
        rules: &'a [RowRules],
        starts: &[(usize, u64)],
        follow: &FollowOptions,
        alone: bool,
    ) -> State<'a> {
        State {
            feeders: rules
                .iter()
                .zip(starts)
                .map(|(r, &(_, line))| {
                    let feeder = Feeder::new(r, !alone, line);
                    match follow.window {
                        Some(w) => feeder.with_buckets(bucket_len(w)),
                        None => feeder,
                    }
                })
                .collect(),
            buckets: VecDeque::new(),
            dropped_rows: 0,
            window: follow
                .window
                .map(|w| i64::try_from(w.as_micros()).unwrap_or(i64::MAX)),
            latest: None,
            cache: None,
        }
    }
}

impl State<'_> {
    /// Feeds the whole lines of `pending` + `bytes`; keeps what follows the last line end.
    fn take(&mut self, i: usize, input: &mut Input, bytes: &[u8]) -> Result<(), LogError> {
        let Some(last) = memchr::memrchr(b'\n', bytes) else {
            input.pending.extend_from_slice(bytes);
            // A line that never ends is held no longer than the longest record: it is fed
            // (a bad row, as `logs` counts an over-long line) and the rest of it too.
            if input.pending.len() > MAX_RECORD {
                return self.flush(i, input);
            }
            return Ok(());
        };
        let (whole, rest) = bytes.split_at(last + 1);
        if input.pending.is_empty() {
            self.feed(i, whole)?;
        } else {
            let mut joined = std::mem::take(&mut input.pending);
            joined.extend_from_slice(whole);
            self.feed(i, &joined)?;
        }
        input.pending.extend_from_slice(rest);
        Ok(())
    }

    /// Feeds what is pending as a whole line: its file ended (rotated, truncated, closed).
    fn flush(&mut self, i: usize, input: &mut Input) -> Result<(), LogError> {
        if input.pending.is_empty() {
            return Ok(());
        }
        let mut line = std::mem::take(&mut input.pending);
        line.push(b'\n');
        self.feed(i, &line)
    }

    /// Feeds whole lines to input `i`'s feeder, cutting buckets with `--window`.
    fn feed(&mut self, i: usize, mut bytes: &[u8]) -> Result<(), LogError> {
        while !bytes.is_empty() {
            let cut = if bytes.len() <= FEED_BYTES {
                bytes.len()
            } else {
                memchr::memchr(b'\n', &bytes[FEED_BYTES..])
                    .map_or(bytes.len(), |j| FEED_BYTES + j + 1)
            };
            let (now, rest) = bytes.split_at(cut);
            bytes = rest;
            let feeder = &mut self.feeders[i];
            feeder.feed(now)?;
            let tally = feeder.tally();
            self.latest = match (self.latest, tally.last_ts) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            };
            let Some(window) = self.window else { continue };
            self.buckets.extend(feeder.closed());
            let cutoff = self.latest.unwrap_or(i64::MIN).saturating_sub(window);
            while self
                .buckets
                .front()
                .is_some_and(|b| b.last_ts.is_some_and(|l| l < cutoff))
            {
                if let Some(old) = self.buckets.pop_front() {
                    self.dropped_rows += old.rows;
                }
            }
        }
        Ok(())
    }

    /// The finished tally of the window (or of everything), and the rows read in all.
    fn snapshot(&mut self) -> (Tally, u64) {
        let current: u64 = self.feeders.iter_mut().map(|f| f.tally().rows).sum();
        let bucketed: u64 = self.buckets.iter().map(|b| b.rows).sum();
        let rows_read = self.dropped_rows + bucketed + current;
        if let Some((rows, tally)) = &self.cache
            && *rows == rows_read
        {
            return (tally.clone(), rows_read);
        }
        let tally = self.merged();
        self.cache = Some((rows_read, tally.clone()));
        (tally, rows_read)
    }

    /// The finished tally of the window (or of everything).
    fn merged(&mut self) -> Tally {
        if self.feeders.len() == 1 && self.buckets.is_empty() {
            return self.feeders[0].tally().snapshot();
        }
        let mut parts: Vec<Tally> = self.buckets.iter().cloned().collect();
        for f in &mut self.feeders {
            let t = f.tally();
            t.settle_queued();
            parts.push(t.clone());
        }
        // Inputs merge oldest first, as `logs` merges rotated files; buckets are in order.
        parts.sort_by_key(|t| t.first_ts.unwrap_or(i64::MAX));
        let mut parts = parts.into_iter();
        let mut tally = parts.next().unwrap_or_else(|| Tally::new(0));
        for t in parts {
            tally.merge(t);
        }
        tally.finish()
    }
}

/// Starts the thread that reads `source` and sends what it reads.
fn spawn_reader(
    i: usize,
    source: &LogInput,
    tx: SyncSender<Msg>,
    stop: Arc<AtomicBool>,
    poll: Duration,
) -> Result<(), LogError> {
    match source {
        LogInput::Stdin => {
            std::thread::spawn(move || read_stdin(i, &tx));
        }
        LogInput::Path(path) => {
            let file = open(path)?;
            let path = path.clone();
            std::thread::spawn(move || {
                if let Err(e) = poll_file(i, &path, file, &tx, &stop, poll) {
                    let _ = tx.send(Msg::Failed(e));
                }
            });
        }
    }
    Ok(())
}

fn open(path: &PathBuf) -> Result<File, LogError> {
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        io::ErrorKind::NotFound => LogError::NotFound { path: path.clone() },
        _ => LogError::Io {
            path: path.display().to_string(),
            source: e,
        },
    })?;
    if meta.is_dir() {
        return Err(LogError::IsDirectory { path: path.clone() });
    }
    File::open(path).map_err(|e| LogError::Io {
        path: path.display().to_string(),
        source: e,
    })
}

fn read_stdin(i: usize, tx: &SyncSender<Msg>) {
    let mut stdin = io::stdin().lock();
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        match read_retrying(&mut stdin, &mut buf) {
            Ok(0) => break,
            Ok(n) => {
                if tx.send(Msg::Bytes(i, buf[..n].to_vec())).is_err() {
                    return;
                }
            }
            Err(source) => {
                let _ = tx.send(Msg::Failed(LogError::Io {
                    path: "-".into(),
                    source,
                }));
                return;
            }
        }
    }
    let _ = tx.send(Msg::End(i));
}

/// The identity of a file behind a path: a rename rotation changes it.
#[cfg(unix)]
fn identity(meta: &std::fs::Metadata) -> (u64, u64) {
    use std::os::unix::fs::MetadataExt;
    (meta.dev(), meta.ino())
}

#[cfg(not(unix))]
fn identity(_: &std::fs::Metadata) -> (u64, u64) {
    (0, 0)
}

/// Reads `path` to its end, looks at what the path names now, sleeps `poll`, and again, until
/// `stop`: then reads to the end once more and ends.
fn poll_file(
    i: usize,
    path: &PathBuf,
    mut file: File,
    tx: &SyncSender<Msg>,
    stop: &AtomicBool,
    poll: Duration,
) -> Result<(), LogError> {
    let name = path.display().to_string();
    let err = |source| LogError::Io {
        path: name.clone(),
        source,
    };
    let mut id = identity(&file.metadata().map_err(err)?);
    let mut pos = 0u64;
    let mut buf = vec![0u8; 256 * 1024];
    let mut drain = |file: &mut File, pos: &mut u64| -> Result<bool, LogError> {
        loop {
            let n = read_retrying(file, &mut buf).map_err(err)?;
            if n == 0 {
                return Ok(true);
            }
            *pos += n as u64;
            if tx.send(Msg::Bytes(i, buf[..n].to_vec())).is_err() {
                return Ok(false);
            }
        }
    };
    loop {
        let stopping = stop.load(Ordering::Relaxed);
        if !drain(&mut file, &mut pos)? {
            return Ok(());
        }
        if stopping {
            let _ = tx.send(Msg::End(i));
            return Ok(());
        }
        match std::fs::metadata(path) {
            Ok(meta) if identity(&meta) != id => {
                // Renamed away and replaced: what the writer put in the old file last, then
                // the new file from its start.
                if !drain(&mut file, &mut pos)? {
                    return Ok(());
                }
                let Ok(next) = File::open(path) else {
                    std::thread::sleep(poll);
                    continue;
                };
                file = next;
                id = identity(&file.metadata().map_err(err)?);
                pos = 0;
                if tx.send(Msg::Restart(i, true)).is_err() {
                    return Ok(());
                }
                continue;
            }
            Ok(meta) if meta.len() < pos => {
                file.seek(SeekFrom::Start(0)).map_err(err)?;
                pos = 0;
                if tx.send(Msg::Restart(i, false)).is_err() {
                    return Ok(());
                }
                continue;
            }
            // Unchanged, or renamed away and not yet replaced: keep reading the old file.
            _ => {}
        }
        std::thread::sleep(poll);
    }
}
