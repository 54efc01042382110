//! `dupcost logs FILE...`: the inputs measured from access logs, then the estimate.

use std::path::PathBuf;

use crate::cli::{Format, LogArgs, LogReadArgs, ScenarioArgs};
use crate::error::{Error, Result};
use crate::inputs::{self, Input};
use crate::logs::{self, Derived, LogAnalysis, Overrides, Source};
use crate::model::Estimate;
use crate::report::{self, Style};

use super::plot::{self, Plot};

/// Reads the logs, derives the scenario, and renders the report.
pub fn run(args: &LogArgs, color: bool) -> Result<Vec<u8>> {
    let (analysis, derived) = measure(&args.files, &args.read, &args.scenario)?;
    let estimate = Estimate::new(derived.scenario);
    let style = Style {
        currency: args.output.currency.clone(),
        color,
    };
    let charts = match &args.plot {
        Some(path) if plot::is_file(path) => {
            plot::write_file(path, &report::svg::per_day_chart(&derived.observed.per_day))?;
            Vec::new()
        }
        Some(dir) => plot::write_dir(dir, &logs_plots(&estimate, &derived, &style.currency))?,
        None => Vec::new(),
    };
    if let Some(path) = &args.save_scenario {
        std::fs::write(path, inputs::to_scenario_json(&derived.scenario))
            .map_err(|e| Error::Usage(format!("--save-scenario {}: {e}", path.display())))?;
    }
    Ok(render(
        args.output.format,
        &estimate,
        &derived,
        (&analysis.files, &analysis.options.methods),
        &style,
        &charts,
    ))
}

/// The report of a measurement in `format`: of `dupcost logs`, and of `dupcost estimate
/// --observed` (which reads the same measurement from an engine's result). The table tells
/// how each of `files` was read, and which `methods` were counted.
pub fn render(
    format: Format,
    estimate: &Estimate,
    derived: &Derived,
    (files, methods): (&[logs::FileInfo], &[String]),
    style: &Style,
    charts: &[report::markdown::ChartLink],
) -> Vec<u8> {
    match format {
        Format::Table => report::logs::table(estimate, derived, files, methods, style),
        Format::Json => report::logs::json(estimate, derived),
        Format::Csv => report::logs::csv(estimate, &derived.observed, &derived.intervals),
        Format::Markdown => report::markdown::logs(estimate, derived, style, charts),
    }
}

/// The charts of a logs report, by file name: the estimate's, then the log's own.
pub fn logs_plots(
    estimate: &Estimate,
    derived: &Derived,
    currency: &str,
) -> Vec<(&'static str, Plot)> {
    let mut plots = super::estimate::estimate_plots(estimate, currency);
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
/// Shared by `dupcost logs` and `dupcost tui --from-logs`.
pub fn measure(
    files: &[PathBuf],
    read: &LogReadArgs,
    scenario: &ScenarioArgs,
) -> Result<(LogAnalysis, Derived)> {
    let base = scenario.resolve().map_err(Error::Usage)?;
    let sources: Vec<Source> = files.iter().cloned().map(Source::from).collect();
    let analysis = logs::analyze(&sources, &read.options()).map_err(usage)?;
    warn_bad_rows(&analysis);
    let sources = scenario.sources().map_err(Error::Usage)?;
    let derived = analysis
        .derive_from(&base, &overrides(&scenario.patch()), &sources)
        .map_err(usage)?;
    for warning in &derived.observed.warnings {
        eprintln!("warning: {warning}");
    }
    derived
        .scenario
        .validate()
        .map_err(|e| Error::Usage(inputs::describe_input_error(&e)))?;
    Ok((analysis, derived))
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

/// An input error exits 2, an internal failure 1.
fn usage(e: logs::LogError) -> Error {
    match e.exit_code() {
        1 => Error::Failure(e.to_string()),
        _ => Error::Usage(e.to_string()),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader thread's panic is dupcost's failure, not the input's: exit code 1; everything
    /// the input or the flags caused is a usage error, exit code 2.
    #[test]
    fn internal_failures_exit_1_input_errors_2() {
        let internal = usage(logs::LogError::Internal("a reader thread panicked".into()));
        assert_eq!(internal.exit_code(), 1);
        assert!(internal.to_string().starts_with("internal error: "));
        let input = usage(logs::LogError::HeaderOnly {
            path: "a.csv".into(),
        });
        assert_eq!(input.exit_code(), 2);
    }
}
