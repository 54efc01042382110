//! `dupcost estimate`: the model run from flags, once or over a sweep.

use crate::cli::EstimateArgs;
use crate::error::{Error, Result};
use crate::model::Estimate;
use crate::report;
use crate::run::Output;

use super::plot::{self, Plot};
use super::shared;

/// Runs the estimate (or the sweep) and renders it in the chosen format.
pub fn run(args: &EstimateArgs, color: bool) -> Result<Vec<u8>> {
    let run = crate::run::resolve::estimate(args, color)?;
    if run.logs.is_some() {
        // `--observed FILE`: the report of `dupcost logs`, from an engine's result of
        // `dupcost sql`. No file was read as a log: the warnings say where the figures come from.
        let (analysis, derived) = crate::run::measure_logs(&run)?;
        return shared::report(&run, &derived, &[], &analysis.options.methods);
    }
    let (scenario, sources, style) = (run.scenario, &run.sources, &run.style);
    let c = style.currency.as_str();
    let bytes = match &run.sweep {
        None => {
            let estimate = Estimate::new(scenario);
            let charts = match &run.output.plot {
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
            let shown = report::Run::Estimate {
                estimate: &estimate,
                sources,
            };
            render(shown, style, &charts, &run.output)?
        }
        Some(sweep) => {
            let estimates = sweep.run(&scenario);
            let y = run.output.plot_y;
            let charts = match &run.output.plot {
                Some(path) => {
                    let chart = report::svg::sweep_chart(sweep.input, &estimates, y, c);
                    if plot::is_file(path) {
                        plot::write_file(path, &[chart])?;
                        Vec::new()
                    } else {
                        let name = format!("{}-by-{}.svg", figure_name(y), sweep.input.flag());
                        plot::write_dir(path, &[(name.as_str(), Plot::Lines(chart))])?
                    }
                }
                None => Vec::new(),
            };
            let shown = report::Run::Sweep {
                input: sweep.input,
                estimates: &estimates,
                sources,
            };
            render(shown, style, &charts, &run.output)?
        }
    };
    Ok(bytes)
}

/// A run's report in `format`.
fn render(
    shown: report::Run,
    style: &report::Style,
    charts: &[report::markdown::ChartLink],
    output: &Output,
) -> Result<Vec<u8>> {
    let report = report::Report {
        run: shown,
        style,
        charts,
        explain: output.explain,
    };
    report.render(output.format).map_err(Error::Usage)
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
