//! The pipeline driven: every input opened ([`source`](super::source)), its header mapped
//! ([`formats`](super::formats)), its records read and tallied by one thread or several
//! ([`row`](super::row)), the tallies merged in order, and the backend's log joined
//! ([`outcomes`](super::outcomes)).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use super::analysis::{FileInfo, LogAnalysis, formats_read, no_usable_rows, rules_for};
use super::detect::{self, Chosen};
use super::error::LogError;
use super::framing::json_doc;
use super::options::LogOptions;
use super::outcomes;
use super::row::{self, RowRules, Scanned};
use super::source::{self, LogInput, MovableStop, Piece, ProgressBar};
use super::tally::{BackendAnswers, Tally};

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
        infer: opts.infer,
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
    let opened = source::open(source, detect::SNIFF_LINES, progress.counter())?;
    read_opened(opened, opts, threads, progress, alone, answers)
}

/// Bytes held in memory read as [`analyze`] reads one file of them with `opts` (without
/// `--outcomes`): told from their first lines, then read as one stream (no pieces). For the
/// fuzz targets, which would otherwise write each input to a file and open it again at each
/// reading.
#[doc(hidden)]
pub fn analyze_bytes(bytes: &[u8], opts: &LogOptions) -> Result<LogAnalysis, LogError> {
    let opened = source::open_bytes("input", bytes, detect::SNIFF_LINES)?;
    let progress = ProgressBar::new(false, &[]);
    let (info, tally) = read_opened(opened, opts, opts.threads.max(1), &progress, true, None)?;
    Ok(LogAnalysis {
        tally: tally.finish(),
        files: vec![info],
        options: opts.clone(),
        join: None,
    })
}

/// An opened input read: as traces, or its format told and its records tallied.
fn read_opened(
    mut opened: source::Opened,
    opts: &LogOptions,
    threads: usize,
    progress: &ProgressBar,
    alone: bool,
    answers: Option<&Arc<BackendAnswers>>,
) -> Result<(FileInfo, Tally), LogError> {
    // OpenTelemetry traces (OTLP/JSON, Zipkin): read span by span, not as lines.
    if let Some(chosen) = super::traces::chosen(&opened.prefix, opened.eof, opts) {
        if answers.is_some() || !opts.outcomes.is_empty() {
            return Err(LogError::Option(format!(
                "{}: --outcomes joins an access log to the backend's; traces have the server spans already",
                opened.name
            )));
        }
        return super::traces::read(opened, chosen, opts, !alone, threads, &progress.counter());
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
    let mut rules = rules_for(&opened.name, &chosen, opts, (&opened.prefix, opened.eof))?;
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
            Chosen::Lines { format, .. } => {
                // What it holds instead (records that are no HTTP request, by kind).
                let skipped: Vec<String> = tally
                    .skipped
                    .iter()
                    .map(|((_, kind), n)| format!("{kind}: {n}"))
                    .collect();
                LogError::Option(format!(
                    "{name}: no log lines in it to read as {}{}",
                    format.describe(),
                    if skipped.is_empty() {
                        String::new()
                    } else {
                        format!(
                            ", only lines that are not access lines ({})",
                            skipped.join(", ")
                        )
                    }
                ))
            }
        });
    }
    if let Some(none) = no_usable_rows(&name, &tally) {
        return Err(none);
    }
    let (format, detected, format_notes) = match &chosen {
        Chosen::Csv(_) => (None, false, Vec::new()),
        Chosen::Lines {
            format, detected, ..
        } => {
            let mut notes = format.hints().notes;
            if rules.envelope.is_some_and(|u| u.time_field) {
                notes.push(super::FormatNote::EnvelopeTime);
            }
            (Some(format.describe()), *detected, notes)
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
        format_notes,
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
