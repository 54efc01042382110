//! The one measurement pipeline: what was read, and the resolved run, to the findings.
//!
//! `logs`, `tui --logs` and `estimate --observed` read once ([`read`]) and measure once;
//! `--follow`, of `logs` and of `tui` (on a thread of its own: [`follow_on_thread`]),
//! measures each tick's reading ([`measure_tick`]). Each
//! gets the same derivation, the same notes of the resolution, the same validation:
//! [`measure`] is their one home. [`model`] is the estimate a report writes, with the curves
//! its charts draw.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::time::Duration;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::findings::{self, Findings, Warning};
use crate::inputs::{self, Input};
use crate::logs::{self, LogAnalysis, Tick};
use crate::model::{Estimate, Scenario};
use crate::sweep::Curves;

use super::{LogSource, Logs, Run};

/// Reads what `logs` names: the access logs, their bad rows warned of on stderr, or an
/// engine's result of `dupcost sql`.
pub fn read(logs: &Logs) -> Result<LogAnalysis> {
    match &logs.source {
        LogSource::Files(inputs) => {
            let analysis = logs::analyze(inputs, &logs.options)?;
            warn_bad_rows(&analysis);
            Ok(analysis)
        }
        LogSource::SqlResult(path) => {
            crate::sql::read_observed_path(path, &logs.options).map_err(Error::Usage)
        }
    }
}

/// The findings of `analysis` under `run`: the log's figures where no flag, variable or preset
/// gives them, the resolution's notes and the reading's caveats among the warnings, and the
/// scenario validated. With `--window`, requests a day are scaled from the window.
pub fn measure(analysis: &LogAnalysis, run: &Run) -> Result<Findings> {
    let logs = run.logs.as_ref();
    let mut derive = logs.map(|l| l.derive).unwrap_or_default();
    let window = logs.and_then(|l| l.follow).and_then(|f| f.window);
    if let Some(window) = window {
        // The window is the span asked for: scale requests a day from it.
        derive.min_span = derive.min_span.min(window);
    }
    let mut derived = findings::derive(analysis, &derive, &run.scenario, &run.given, &run.sources)?;
    if let Some(name) = run.retries_from_preset {
        // The one place the preset is named as the source of a measured report's input.
        derived.given_by_preset(Input::Retries, name);
    }
    let w = &mut derived.observed.warnings;
    match logs.map(|l| &l.source) {
        Some(LogSource::SqlResult(_)) => {
            // The query orders each key's attempts by time: it cannot see a clock that ran
            // backwards in the files, which reading the logs warns about.
            let result = analysis.files.first();
            w.push(Warning::MeasuredBySql {
                result: result.map_or("-".to_string(), |f| f.name.clone()),
            });
            // Fingerprinted attempts at the same timestamp (a file note of the result).
            if let Some(note) =
                result.and_then(|f| crate::report::words::format_notes(&f.format_notes))
            {
                w.push(Warning::Reader(note));
            }
        }
        Some(LogSource::Files(_)) | None => {}
    }
    w.extend(logs.map_or(&[][..], |l| &l.notes).iter().cloned());
    if let Some(window) = window {
        let t = &analysis.tally;
        let span = t
            .first_ts
            .zip(t.last_ts)
            .filter(|_| analysis.has_timestamps());
        if let Some((first, last)) = span {
            w.push(Warning::Window {
                window,
                span: (last - first) as f64 / 1e6,
                first: derived.observed.first_timestamp.clone(),
                last: derived.observed.last_timestamp.clone(),
            });
        }
    }
    derived
        .scenario
        .validate()
        .map_err(|e| Error::Usage(inputs::describe_input_error(&e)))?;
    Ok(derived)
}

/// What `follow` adds to a JSON report: where the follower is.
#[derive(Debug, Clone, Serialize)]
pub struct FollowState {
    /// 1 for the first report.
    pub report: u64,
    /// The last report (Ctrl-C, or stdin ended).
    pub last: bool,
    /// Rows read since the start (those of the window are `observed.rows`).
    pub rows_read: u64,
    /// Rows read since the previous report.
    pub new_rows: u64,
    /// Rows read per second of wall time since the previous report.
    pub rows_per_second: f64,
    pub every_seconds: f64,
    /// `--window`, when given.
    pub window_seconds: Option<f64>,
    /// The log time the report covers (last minus first timestamp).
    pub span_seconds: Option<f64>,
    /// The latest timestamp read.
    pub last_line_time: Option<String>,
    /// A followed file was renamed away and replaced.
    pub rotations: u64,
    /// A followed file was truncated in place (copytruncate).
    pub truncations: u64,
    /// Why there is no estimate yet (no mutating request yet, a span too short to scale to
    /// a day): the report then has only this object.
    pub waiting: Option<String>,
}

/// One tick measured: the state, and the derivation when the log can give one.
pub struct Measured {
    pub state: FollowState,
    pub derived: Option<Findings>,
}

/// The tick's measurement under `run`: the one pipeline's, or why there is none yet.
pub fn measure_tick(tick: &Tick, run: &Run) -> Measured {
    let analysis = &tick.analysis;
    let t = &analysis.tally;
    let span = t
        .first_ts
        .zip(t.last_ts)
        .filter(|_| analysis.has_timestamps())
        .map(|(a, b)| (b - a) as f64 / 1e6);
    let every = run
        .logs
        .as_ref()
        .and_then(|l| l.follow)
        .map_or(logs::DEFAULT_EVERY, |f| f.every);
    let (derived, waiting) = match measure(analysis, run) {
        Ok(d) => (Some(d), None),
        Err(e) => (None, Some(e.to_string())),
    };
    Measured {
        state: FollowState {
            report: tick.number,
            last: tick.last,
            rows_read: tick.rows_read,
            new_rows: tick.new_rows,
            rows_per_second: tick.rows_per_second,
            every_seconds: every.as_secs_f64(),
            window_seconds: tick.window.map(|w| w.as_secs_f64()),
            span_seconds: span,
            last_line_time: tick.last_line_ts.map(logs::to_rfc3339),
            rotations: tick.rotations,
            truncations: tick.truncations,
            waiting,
        },
        derived,
    }
}

/// The logs `run` names, read and measured, the warnings said on stderr: `logs`, `tui
/// --logs` and `estimate --observed`.
pub fn measure_logs(run: &Run) -> Result<(LogAnalysis, Findings)> {
    let logs = run
        .logs
        .as_ref()
        .ok_or_else(|| Error::Usage("no logs to measure: give a log FILE".to_string()))?;
    let analysis = read(logs)?;
    let derived = measure(&analysis, run)?;
    warn(&derived);
    Ok((analysis, derived))
}

/// `--follow` on a thread of its own, for a reader that must not block on it (the explorer):
/// each tick that brought rows (and the first) measured under `run`, made a `T` by `each` and
/// sent on the channel returned. The resolution's notes are said on stderr first; the first
/// `T` (or the logs' error) is waited for, so it comes before a terminal is touched. Setting
/// `stop` ends the thread, as does dropping the receiver.
pub fn follow_on_thread<T: Send + 'static>(
    run: &Run,
    stop: &Arc<AtomicBool>,
    mut each: impl FnMut(Measured) -> T + Send + 'static,
) -> Result<(T, mpsc::Receiver<T>)> {
    let Some(Logs {
        source: LogSource::Files(sources),
        options,
        notes,
        follow: Some(follow),
        ..
    }) = run.logs.clone()
    else {
        return Err(Error::Usage(
            "--follow follows the logs of --logs FILE: give the log to follow".into(),
        ));
    };
    for note in &notes {
        eprintln!("warning: {note}");
    }
    let (tx, rx) = mpsc::channel::<T>();
    let (err_tx, err_rx) = mpsc::channel::<logs::LogError>();
    {
        let (run, stop) = (run.clone(), Arc::clone(stop));
        std::thread::spawn(move || {
            let mut rows_came = true;
            let result = logs::follow(&sources, &options, &follow, &stop, |tick| {
                // Nothing new since a tick that also brought nothing: nothing to send.
                let now = tick.new_rows > 0 || tick.number == 1;
                if !now && !rows_came {
                    return true;
                }
                rows_came = now;
                tx.send(each(measure_tick(&tick, &run))).is_ok()
            });
            if let Err(e) = result {
                let _ = err_tx.send(e);
            }
        });
    }
    let first = loop {
        if let Ok(e) = err_rx.try_recv() {
            return Err(e.into());
        }
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(first) => break first,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                if let Ok(e) = err_rx.try_recv() {
                    return Err(Error::Usage(e.to_string()));
                }
                return Err(Error::Failure("the log follower stopped".into()));
            }
        }
    };
    Ok((first, rx))
}

/// The estimate of `scenario`, with its curves when `run`'s output draws them: what the
/// report of an estimate or a measurement writes.
pub fn model(run: &Run, scenario: Scenario) -> (Estimate, Option<Curves>) {
    let estimate = Estimate::new(scenario);
    let curves = run.output.draws_curves().then(|| Curves::of(&estimate));
    (estimate, curves)
}

/// The findings' warnings on stderr, one line each.
pub fn warn(derived: &Findings) {
    for warning in &derived.observed.warnings {
        eprintln!("warning: {warning}");
    }
}

/// The first bad rows, with file and line, and how many there were: on stderr.
fn warn_bad_rows(analysis: &LogAnalysis) {
    let t = &analysis.tally;
    for bad in &t.bad_samples {
        eprintln!("warning: skipped bad row {bad}");
    }
    if t.bad_rows > t.bad_samples.len() as u64 {
        eprintln!(
            "warning: {} bad rows skipped in all (the first {} shown; --strict stops at the first)",
            t.bad_rows,
            t.bad_samples.len()
        );
    }
}
