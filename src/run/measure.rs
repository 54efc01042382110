//! The one measurement pipeline: what was read, and the resolved run, to the findings.
//!
//! `logs`, `tui --logs` and `estimate --observed` read once ([`read`]) and measure once;
//! `--follow` measures each tick's reading. Each gets the same derivation, the same notes
//! of the resolution, the same validation: [`measure`] is their one home.

use crate::error::{Error, Result};
use crate::findings::{self, Findings, Warning};
use crate::inputs::{self, Input};
use crate::logs::{self, LogAnalysis};

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
