//! `dupcost estimate`: the model run from flags, once or over a sweep.

use crate::cli::{EstimateArgs, Format};
use crate::error::{Error, Result};
use crate::model::Estimate;
use crate::report::markdown::ChartLink;
use crate::report::{self, Report, Run, Style};

use crate::findings::{self, DeriveOptions, Warning};

use super::plot::{self, Plot};
use super::shared;

/// Runs the estimate (or the sweep) and renders it in the chosen format.
pub fn run(args: &EstimateArgs, color: bool) -> Result<Vec<u8>> {
    plot::check(args.plot.as_deref())?;
    if let Some(path) = &args.observed {
        return observed(path, args, color);
    }
    let (scenario, mut sources) = args.scenario.resolve_with_sources().map_err(Error::Usage)?;
    if let Some(sweep) = &args.sweep {
        sources.set(sweep.input, crate::inputs::Origin::Sweep);
    }
    let style = Style {
        currency: args.output.currency(&args.scenario),
        color,
        preset: args.scenario.preset_trace(),
        // Without logs, the report marks each input given or assumed by where it came from.
        sources: Some(sources),
    };
    let c = style.currency.as_str();
    let bytes = match &args.sweep {
        None => {
            let estimate = Estimate::new(scenario);
            let charts = match &args.plot {
                Some(path) if plot::is_file(path) => {
                    return Err(Error::Usage(format!(
                        "--plot {}: one SVG file charts a --sweep; name a directory for the \
                         estimate's charts",
                        path.display()
                    )));
                }
                Some(dir) => plot::write_dir(dir, &plot::estimate_plots(&estimate, c))?,
                None => Vec::new(),
            };
            let run = Run::Estimate {
                estimate: &estimate,
                sources: &sources,
            };
            render(run, &style, &charts, args.output.format)?
        }
        Some(sweep) => {
            let estimates = sweep.run(&scenario);
            let charts = match &args.plot {
                Some(path) => {
                    let chart = report::svg::sweep_chart(sweep.input, &estimates, args.plot_y, c);
                    if plot::is_file(path) {
                        plot::write_file(path, &[chart])?;
                        Vec::new()
                    } else {
                        let name =
                            format!("{}-by-{}.svg", figure_name(args.plot_y), sweep.input.flag());
                        plot::write_dir(path, &[(name.as_str(), Plot::Lines(chart))])?
                    }
                }
                None => Vec::new(),
            };
            let run = Run::Sweep {
                input: sweep.input,
                estimates: &estimates,
                sources: &sources,
            };
            render(run, &style, &charts, args.output.format)?
        }
    };
    Ok(bytes)
}

/// A run's report in `format`.
fn render(run: Run, style: &Style, charts: &[ChartLink], format: Format) -> Result<Vec<u8>> {
    let report = Report { run, style, charts };
    report.render(format).map_err(Error::Usage)
}

/// `--observed FILE`: the report of `dupcost logs`, from an engine's result of `dupcost sql`.
fn observed(path: &std::path::Path, args: &EstimateArgs, color: bool) -> Result<Vec<u8>> {
    let base = args.scenario.resolve().map_err(Error::Usage)?;
    let options = crate::logs::LogOptions::default();
    let analysis = crate::sql::read_observed_path(path, &options).map_err(Error::Usage)?;
    let given = shared::overrides(&args.scenario.patch());
    let derive = DeriveOptions {
        max_unknown: args.max_unknown,
        min_span: args.min_span,
        require_measured: false,
    };
    let sources = args.scenario.sources().map_err(Error::Usage)?;
    let mut derived = findings::derive(&analysis, &derive, &base, &given, &sources)?;
    // The query orders each key's attempts by time: it cannot see a clock that ran backwards
    // in the files, which `dupcost logs` warns about.
    derived.observed.warnings.push(Warning::MeasuredBySql {
        result: analysis
            .files
            .first()
            .map_or("-".to_string(), |f| f.name.clone()),
    });
    // Fingerprinted attempts at the same timestamp (a file note of the result).
    if let Some(note) = analysis
        .files
        .first()
        .and_then(|f| crate::report::words::format_notes(&f.format_notes))
    {
        derived.observed.warnings.push(Warning::Reader(note));
    }
    for warning in &derived.observed.warnings {
        eprintln!("warning: {warning}");
    }
    derived
        .scenario
        .validate()
        .map_err(|e| Error::Usage(crate::inputs::describe_input_error(&e)))?;
    let estimate = Estimate::new(derived.scenario);
    let style = Style {
        currency: args.output.currency(&args.scenario),
        color,
        preset: args.scenario.preset_trace(),
        sources: None,
    };
    let charts = match &args.plot {
        Some(path) if plot::is_file(path) => {
            plot::write_file(path, &report::svg::per_day_chart(&derived.observed.per_day))?;
            Vec::new()
        }
        Some(dir) => plot::write_dir(
            dir,
            &shared::logs_plots(&estimate, &derived, &style.currency),
        )?,
        None => Vec::new(),
    };
    // No file was read as a log: the table's "read FILE" lines would describe the result's
    // CSV, not the logs; the warning above says where the figures come from.
    shared::render(
        args.output.format,
        &estimate,
        &derived,
        (&[], &analysis.options.methods),
        &style,
        &charts,
    )
}

/// `--plot-y`'s value as a file name part.
fn figure_name(figure: report::svg::SweepFigure) -> &'static str {
    use report::svg::SweepFigure;
    match figure {
        SweepFigure::Duplicates => "duplicates",
        SweepFigure::Refunds => "refunds",
        SweepFigure::Unanswered => "unanswered",
        SweepFigure::ExtraAttempts => "extra-attempts",
        SweepFigure::KeyStore => "key-store",
        SweepFigure::KeyedDuplicates => "keyed-duplicates",
    }
}
