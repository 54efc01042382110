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
    plot::check(args.plot.as_deref())?;
    if args.follow.follow {
        return super::follow::run(args, color);
    }
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
        Format::Html => report::html::logs(estimate, derived, style),
    }
}

/// The charts of a logs report, by file name: the estimate's, then the log's own.
pub fn logs_plots(
    estimate: &Estimate,
    derived: &Derived,
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
/// Shared by `dupcost logs` and `dupcost tui --from-logs`.
pub fn measure(
    files: &[PathBuf],
    read: &LogReadArgs,
    scenario: &ScenarioArgs,
) -> Result<(LogAnalysis, Derived)> {
    let base = scenario.resolve().map_err(Error::Usage)?;
    let sources: Vec<Source> = files.iter().cloned().map(Source::from).collect();
    let (options, notes) = sender_options(read.options(), scenario, &base);
    let analysis = logs::analyze(&sources, &options).map_err(usage)?;
    warn_bad_rows(&analysis);
    let (given, retries_from_preset) = given_inputs(scenario, &base);
    let sources = scenario.sources().map_err(Error::Usage)?;
    let mut derived = analysis
        .derive_from(&base, &given, &sources)
        .map_err(usage)?;
    if let Some(name) = retries_from_preset {
        // The one place the preset is named as the source of a log report's input (issue 24's
        // `sources` can mark it `preset` here).
        for m in derived.measured.iter_mut().filter(|m| m.input == "retries") {
            m.evidence = m
                .evidence
                .replacen("from --retries", &format!("from --preset {name}"), 1);
        }
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
pub(super) fn given_inputs(
    scenario: &ScenarioArgs,
    base: &crate::model::Scenario,
) -> (logs::Overrides, Option<&'static str>) {
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
pub(super) fn sender_options(
    mut options: logs::LogOptions,
    scenario: &ScenarioArgs,
    base: &crate::model::Scenario,
) -> (logs::LogOptions, Vec<String>) {
    let mut notes = Vec::new();
    if let (None, Some(preset)) = (options.client_timeout, scenario.preset) {
        if let Some(secs) = preset.attempt_timeout() {
            options.client_timeout = Some(std::time::Duration::from_secs_f64(secs));
            notes.push(format!(
                "client timeout {secs}s from --preset {} (the sender's per-attempt timeout; \
                 --client-timeout to change)",
                preset.name
            ));
        }
    }
    if base.schedule_seconds.is_some() && options.retry_window == logs::DEFAULT_RETRY_WINDOW {
        let horizon = base.schedule().horizon(base.retries);
        if horizon > options.retry_window.as_secs_f64() {
            options.retry_window = std::time::Duration::from_secs_f64(horizon.ceil());
            notes.push(format!(
                "retry window widened to the schedule's retry horizon, {} (--retry-window to \
                 change)",
                crate::units::Seconds(horizon).rounded()
            ));
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
