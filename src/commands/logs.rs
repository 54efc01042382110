//! `dupcost logs FILE...`: the inputs measured from access logs, then the estimate.

use std::path::PathBuf;

use crate::cli::{Format, LogArgs, LogReadArgs, ScenarioArgs};
use crate::error::{Error, Result};
use crate::inputs::{self, Input};
use crate::logs::{self, Derived, LogAnalysis, Overrides, Source};
use crate::model::Estimate;
use crate::report::{self, Style};

/// Reads the logs, derives the scenario, and renders the report.
pub fn run(args: &LogArgs, color: bool) -> Result<Vec<u8>> {
    let (analysis, derived) = measure(&args.files, &args.read, &args.scenario)?;
    let estimate = Estimate::new(derived.scenario);
    if let Some(path) = &args.plot {
        let charts = report::svg::per_day_chart(&derived.observed.per_day);
        super::estimate::write_plot(path, &charts)?;
    }
    let style = Style {
        currency: args.output.currency.clone(),
        color,
    };
    Ok(match args.output.format {
        Format::Table => report::logs::table(&estimate, &derived, &analysis.files, &style),
        Format::Json => report::logs::json(&estimate, &derived.observed),
        Format::Csv => report::logs::csv(&estimate, &derived.observed),
    })
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
    let derived = analysis
        .derive(&base, &overrides(&scenario.patch()))
        .map_err(usage)?;
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

fn usage(e: logs::LogError) -> Error {
    Error::Usage(e.to_string())
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
