//! What `logs`, `logs --follow`, `tui --logs` and `estimate --observed` share: the report of
//! a measurement and a follower's tick. No command imports another: they meet here.

use serde::Serialize;

use crate::error::{Error, Result};
use crate::findings::Findings;
use crate::inputs;
use crate::logs::{self, Tick};
use crate::model::Estimate;
use crate::report::model::LogsReport;
use crate::report::{self, Report, Style};
use crate::run::{Output, Run};

use super::plot::{self, Plot};

/// The report of a measurement in `format`: of `dupcost logs`, and of `dupcost estimate
/// --observed` (which reads the same measurement from an engine's result). The table tells
/// how each of `files` was read, and which `methods` were counted.
pub fn render(
    output: &Output,
    estimate: &Estimate,
    derived: &Findings,
    (files, methods): (&[logs::FileInfo], &[String]),
    style: &Style,
    charts: &[report::markdown::ChartLink],
) -> Result<Vec<u8>> {
    let logs = LogsReport::new(estimate, derived, style);
    let run = report::Run::Logs {
        report: &logs,
        files,
        methods,
    };
    let report = Report {
        run,
        style,
        charts,
        explain: output.explain,
    };
    report.render(output.format).map_err(Error::Usage)
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

/// The report of a measurement, with its charts and its saved scenario: of `dupcost logs`,
/// and of `dupcost estimate --observed`, whose `files` are none (the table's "read FILE"
/// lines would describe the engine's result, not the logs).
pub fn report(
    run: &Run,
    derived: &Findings,
    files: &[logs::FileInfo],
    methods: &[String],
) -> Result<Vec<u8>> {
    let estimate = Estimate::new(derived.scenario);
    let style = &run.style;
    let charts = match &run.output.plot {
        Some(path) if plot::is_file(path) => {
            plot::write_file(path, &report::svg::per_day_chart(&derived.observed.per_day))?;
            Vec::new()
        }
        Some(dir) => plot::write_dir(dir, &logs_plots(&estimate, derived, &style.currency))?,
        None => Vec::new(),
    };
    if let Some(path) = &run.output.save_scenario {
        std::fs::write(path, inputs::to_scenario_json(&derived.scenario))
            .map_err(|e| Error::Usage(format!("--save-scenario {}: {e}", path.display())))?;
    }
    render(
        &run.output,
        &estimate,
        derived,
        (files, methods),
        style,
        &charts,
    )
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
    let (derived, waiting) = match crate::run::measure(analysis, run) {
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
