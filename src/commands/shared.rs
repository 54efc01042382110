//! What `logs`, `logs --follow`, `tui --logs` and `estimate --observed` share: the scenario
//! and the inputs given by flag, environment or preset resolved as each of them resolves it,
//! a webhook sender's options, the measurement up to the findings, and their report. No command
//! imports another: they meet here.

use std::path::PathBuf;
use std::time::Duration;

use serde::Serialize;

use crate::cli::{Format, LogReadArgs, ScenarioArgs};
use crate::error::{Error, Result};
use crate::findings::{self, DeriveOptions, Findings, Overrides, Warning};
use crate::inputs::{self, Input};
use crate::logs::{self, LogAnalysis, LogInput, Tick};
use crate::model::{Estimate, Scenario};
use crate::report::model::LogsReport;
use crate::report::{self, Report, Run, Style};

use super::plot::{self, Plot};

/// The report of a measurement in `format`: of `dupcost logs`, and of `dupcost estimate
/// --observed` (which reads the same measurement from an engine's result). The table tells
/// how each of `files` was read, and which `methods` were counted.
pub fn render(
    format: Format,
    estimate: &Estimate,
    derived: &Findings,
    (files, methods): (&[logs::FileInfo], &[String]),
    style: &Style,
    charts: &[report::markdown::ChartLink],
) -> Result<Vec<u8>> {
    let logs = LogsReport::new(estimate, derived, style);
    let run = Run::Logs {
        report: &logs,
        files,
        methods,
    };
    let report = Report { run, style, charts };
    report.render(format).map_err(Error::Usage)
}

/// The charts of a logs report, by file name: the estimate's, then the log's own.
pub fn logs_plots(
    estimate: &Estimate,
    derived: &Findings,
    currency: &str,
) -> Vec<(&'static str, Plot)> {
    let mut plots = plot::estimate_plots(estimate, currency);
    let o = &derived.observed;
    if !o.per_day.is_empty() {
        plots.push((
            "timeout-rate-per-day.svg",
            Plot::Lines(report::svg::timeout_rate_per_day(&o.per_day)),
        ));
    }
    if !o.per_endpoint.is_empty() {
        plots.push((
            "cost-per-endpoint.svg",
            Plot::Bars(report::svg::cost_per_endpoint(&o.per_endpoint, currency)),
        ));
    }
    plots
}

/// Reads `files` and derives the scenario: the log's figures where the flags give none.
/// Shared by `dupcost logs` and `dupcost tui --logs`.
pub fn measure(
    files: &[PathBuf],
    read: &LogReadArgs,
    scenario: &ScenarioArgs,
) -> Result<(LogAnalysis, Findings)> {
    let base = scenario.resolve().map_err(Error::Usage)?;
    let sources: Vec<LogInput> = files.iter().cloned().map(LogInput::from).collect();
    let (options, notes) = sender_options(read.options(), scenario, &base);
    let analysis = logs::analyze(&sources, &options)?;
    warn_bad_rows(&analysis);
    let (given, retries_from_preset) = given_inputs(scenario, &base);
    let sources = scenario.sources().map_err(Error::Usage)?;
    let mut derived = findings::derive(&analysis, &read.derive_options(), &base, &given, &sources)?;
    if let Some(name) = retries_from_preset {
        // The one place the preset is named as the source of a log report's input: `sources`
        // can mark it `preset` here.
        derived.given_by_preset(Input::Retries, name);
    }
    derived.observed.warnings.extend(notes);
    for warning in &derived.observed.warnings {
        eprintln!("warning: {warning}");
    }
    derived
        .scenario
        .validate()
        .map_err(|e| Error::Usage(inputs::describe_input_error(&e)))?;
    Ok((analysis, derived))
}

/// The inputs given by flag, environment or preset, which win over the log, and the preset
/// whose published schedule gives the retries (a sender's schedule is its retry budget: the
/// log shows at most a lower bound of it).
pub fn given_inputs(
    scenario: &ScenarioArgs,
    base: &crate::model::Scenario,
) -> (Overrides, Option<&'static str>) {
    let mut given = overrides(&scenario.patch());
    let retries_from_preset = match (given.retries, scenario.preset) {
        (None, Some(preset)) if preset.sets_retries() => {
            given.retries = Some(base.retries);
            Some(preset.name)
        }
        _ => None,
    };
    (given, retries_from_preset)
}

/// What a webhook sender's schedule says about reading its receiver's log: without
/// `--client-timeout`, a `--preset`'s attempt timeout is the client timeout; with a published
/// schedule (`--schedule` or a preset's) longer than the default retry window, the window
/// widens to the schedule's horizon, so that a day-two redelivery is still the same event.
/// Returns the options and what was changed, for the evidence.
pub fn sender_options(
    mut options: logs::LogOptions,
    scenario: &ScenarioArgs,
    base: &crate::model::Scenario,
) -> (logs::LogOptions, Vec<Warning>) {
    let mut notes = Vec::new();
    if let (None, Some(preset)) = (options.client_timeout, scenario.preset) {
        if let Some(secs) = preset.attempt_timeout() {
            options.client_timeout = Some(std::time::Duration::from_secs_f64(secs));
            notes.push(Warning::ClientTimeoutFromPreset {
                env: scenario.from_env.preset,
                secs,
                preset: preset.name,
            });
        }
    }
    if base.schedule_seconds.is_some() && options.retry_window == logs::DEFAULT_RETRY_WINDOW {
        let horizon = base.schedule().horizon(base.retries);
        if horizon > options.retry_window.as_secs_f64() {
            options.retry_window = std::time::Duration::from_secs_f64(horizon.ceil());
            notes.push(Warning::RetryWindowWidened { horizon });
        }
    }
    (options, notes)
}

/// The derived inputs given by flag (or environment): they win over the log.
pub fn overrides(patch: &inputs::ScenarioPatch) -> Overrides {
    Overrides {
        requests_per_day: patch.get(Input::RequestsPerDay),
        timeout_rate: patch.get(Input::TimeoutRate),
        succeeded_share: patch.get(Input::SucceededShare),
        retries: patch.get(Input::Retries).map(|r| r as u32),
        body_bytes: patch.get(Input::BodyBytes).map(|b| b as u64),
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

/// What a follower measures with, resolved as `logs` resolves it: the scenario, the inputs
/// given by flag, environment or preset, where each input came from, and the read options (a
/// webhook sender's preset applied, its notes said once on stderr). Shared by `logs --follow`
/// and `tui --logs FILE --follow`.
pub struct Setup {
    pub base: Scenario,
    pub given: Overrides,
    pub sources: inputs::Sources,
    pub options: logs::LogOptions,
    pub derive: DeriveOptions,
}

impl Setup {
    pub fn new(scenario: &ScenarioArgs, read: &LogReadArgs) -> Result<Setup> {
        let base = scenario.resolve().map_err(Error::Usage)?;
        let (given, _) = given_inputs(scenario, &base);
        let (options, notes) = sender_options(read.options(), scenario, &base);
        for note in &notes {
            eprintln!("warning: {note}");
        }
        Ok(Setup {
            base,
            given,
            sources: scenario.sources().map_err(Error::Usage)?,
            options: logs::LogOptions {
                progress: false,
                ..options
            },
            derive: read.derive_options(),
        })
    }
}

/// The tick's measurement, with the inputs of `setup`.
pub fn measure_tick(tick: &Tick, every: Duration, setup: &Setup) -> Measured {
    let Setup {
        base,
        given,
        sources,
        ..
    } = setup;
    let analysis = &tick.analysis;
    let mut derive = setup.derive;
    if let Some(window) = tick.window {
        // The window is the span asked for: scale requests a day from it.
        derive.min_span = derive.min_span.min(window);
    }
    let t = &analysis.tally;
    let span = t
        .first_ts
        .zip(t.last_ts)
        .filter(|_| analysis.has_timestamps())
        .map(|(a, b)| (b - a) as f64 / 1e6);
    let result = findings::derive(analysis, &derive, base, given, sources)
        .map_err(|e| e.to_string())
        .and_then(|d| {
            d.scenario
                .validate()
                .map_err(|e| inputs::describe_input_error(&e))?;
            Ok(d)
        });
    let (derived, waiting) = match result {
        Ok(mut d) => {
            if let (Some(window), Some(span)) = (tick.window, span) {
                let warning = Warning::Window {
                    window,
                    span,
                    first: d.observed.first_timestamp.clone(),
                    last: d.observed.last_timestamp.clone(),
                };
                d.observed.warnings.push(warning);
            }
            (Some(d), None)
        }
        Err(e) => (None, Some(e)),
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
