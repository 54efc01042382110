//! What a run writes out, in one step: the report in its format, the charts of `--plot
//! FILE.svg|DIR` beside it (one chart to a file, or the report's charts to a directory under
//! fixed names that `--format markdown` links to), and the scenario of `--save-scenario`.

use std::net::SocketAddr;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::findings::Findings;
use crate::inputs::{self, Input, Sources};
use crate::logs::FileInfo;
use crate::model::Estimate;
use crate::sweep::Curves;

use super::markdown::ChartLink;
use super::model::LogsReport;
use super::svg::{self, Bars, Chart, SweepFigure};
use super::{Format, Report, Run, Style};

/// Where a run's output goes: the report's format and the files written beside it.
#[derive(Debug, Clone)]
pub struct Output {
    pub format: Format,
    /// `--plot FILE.svg|DIR`.
    pub plot: Option<PathBuf>,
    /// `--plot-y`.
    pub plot_y: SweepFigure,
    /// `--save-scenario FILE`.
    pub save_scenario: Option<PathBuf>,
    /// `--explain`: the table says everything, not the answer first.
    pub explain: bool,
    /// `--follow --metrics ADDR`: each report is published there for `GET /metrics` instead
    /// of written on stdout.
    pub metrics: Option<SocketAddr>,
}

impl Output {
    /// The report draws the estimate's [`Curves`]: a page (`--format html`) or a `--plot`
    /// directory. The run computes them only then.
    pub fn draws_curves(&self) -> bool {
        self.format == Format::Html || self.plot.as_deref().is_some_and(|p| !is_file(p))
    }
}

impl Default for Output {
    fn default() -> Self {
        Output {
            format: Format::Table,
            plot: None,
            plot_y: SweepFigure::Refunds,
            save_scenario: None,
            explain: false,
            metrics: None,
        }
    }
}

/// The report of one estimate, with its charts (of its `curves`).
pub fn write_estimate(
    output: &Output,
    style: &Style,
    estimate: &Estimate,
    curves: Option<&Curves>,
    sources: &Sources,
) -> Result<Vec<u8>> {
    let charts = match &output.plot {
        Some(path) if is_file(path) => {
            return Err(Error::Usage(format!(
                "--plot {}: one SVG file charts a --sweep; name a directory for the estimate's \
                 charts",
                path.display()
            )));
        }
        Some(dir) => write_dir(
            dir,
            &estimate_plots(estimate, drawn(curves)?, &style.currency),
        )?,
        None => Vec::new(),
    };
    let run = Run::Estimate {
        estimate,
        curves,
        sources,
    };
    render(output, style, run, &charts)
}

/// The report of a sweep, one estimate a value of `input`, with its chart of `--plot-y`.
pub fn write_sweep(
    output: &Output,
    style: &Style,
    input: Input,
    estimates: &[Estimate],
    sources: &Sources,
) -> Result<Vec<u8>> {
    let y = output.plot_y;
    let charts = match &output.plot {
        Some(path) => {
            let chart = svg::sweep_chart(input, estimates, y, &style.currency);
            if is_file(path) {
                write_file(path, &[chart])?;
                Vec::new()
            } else {
                let name = format!("{}-by-{}.svg", figure_name(y), input.flag());
                write_dir(path, &[(name.as_str(), Plot::Lines(chart))])?
            }
        }
        None => Vec::new(),
    };
    let run = Run::Sweep {
        input,
        estimates,
        sources,
    };
    render(output, style, run, &charts)
}

/// The report of a measurement, with its charts and its saved scenario: of `dupcost logs`,
/// and of `dupcost estimate --observed`, whose `files` are none (the table's "read FILE"
/// lines would describe the engine's result, not the logs). `estimate` is of the derived
/// scenario, with its `curves`. The table tells how each of `files` was read, and which
/// `methods` were counted.
pub fn write_logs(
    output: &Output,
    style: &Style,
    derived: &Findings,
    estimate: &Estimate,
    curves: Option<&Curves>,
    files: &[FileInfo],
    methods: &[String],
) -> Result<Vec<u8>> {
    let charts = match &output.plot {
        Some(path) if is_file(path) => {
            write_file(path, &svg::per_day_chart(&derived.observed.per_day))?;
            Vec::new()
        }
        Some(dir) => {
            let plots = logs_plots(estimate, drawn(curves)?, derived, &style.currency);
            write_dir(dir, &plots)?
        }
        None => Vec::new(),
    };
    if let Some(path) = &output.save_scenario {
        std::fs::write(path, inputs::to_scenario_json(&derived.scenario))
            .map_err(|e| Error::Usage(format!("--save-scenario {}: {e}", path.display())))?;
    }
    let report = LogsReport::new(estimate, derived, style);
    let run = Run::Logs {
        report: &report,
        curves,
        files,
        methods,
    };
    render(output, style, run, &charts)
}

/// `run`'s report in the output's format.
fn render(output: &Output, style: &Style, run: Run, charts: &[ChartLink]) -> Result<Vec<u8>> {
    let report = Report {
        run,
        style,
        charts,
        explain: output.explain,
    };
    report.render(output.format).map_err(Error::Usage)
}

/// One chart of a `--plot` directory.
enum Plot {
    Lines(Chart),
    Bars(Bars),
}

impl Plot {
    fn title(&self) -> &str {
        match self {
            Plot::Lines(chart) => &chart.title,
            Plot::Bars(bars) => &bars.title,
        }
    }

    fn render(&self) -> Result<String> {
        match self {
            Plot::Lines(chart) => svg::render(std::slice::from_ref(chart)),
            Plot::Bars(bars) => svg::render_bars(bars),
        }
        .map_err(Error::Failure)
    }
}

/// The curves a `--plot` directory draws: computed by the run whenever
/// [`Output::draws_curves`].
fn drawn(curves: Option<&Curves>) -> Result<&Curves> {
    curves.ok_or_else(|| Error::Failure("the estimate's curves were not computed".into()))
}

/// The charts of one estimate, by file name.
fn estimate_plots(
    estimate: &Estimate,
    curves: &Curves,
    currency: &str,
) -> Vec<(&'static str, Plot)> {
    vec![
        (
            "duplicates-by-retries.svg",
            Plot::Lines(svg::duplicates_by_retries(estimate, curves)),
        ),
        (
            "refunds-by-timeout-rate.svg",
            Plot::Lines(svg::refunds_by_timeout_rate(estimate, curves, currency)),
        ),
    ]
}

/// The charts of a logs report, by file name: the estimate's, then the log's own.
fn logs_plots(
    estimate: &Estimate,
    curves: &Curves,
    derived: &Findings,
    currency: &str,
) -> Vec<(&'static str, Plot)> {
    let mut plots = estimate_plots(estimate, curves, currency);
    let o = &derived.observed;
    if !o.per_day.is_empty() {
        plots.push((
            "timeout-rate-per-day.svg",
            Plot::Lines(svg::timeout_rate_per_day(&o.per_day)),
        ));
    }
    if !o.per_endpoint.is_empty() {
        plots.push((
            "cost-per-endpoint.svg",
            Plot::Bars(svg::cost_per_endpoint(&o.per_endpoint, currency)),
        ));
    }
    plots
}

/// Whether `--plot` names one SVG file (it ends in `.svg`) rather than a directory.
fn is_file(path: &Path) -> bool {
    path.extension()
        .is_some_and(|ext| ext.eq_ignore_ascii_case("svg"))
}

/// Writes charts stacked into one SVG file.
fn write_file(path: &Path, charts: &[Chart]) -> Result<()> {
    let svg = svg::render(charts).map_err(Error::Failure)?;
    std::fs::write(path, svg).map_err(|e| Error::Usage(format!("--plot {}: {e}", path.display())))
}

/// Writes each `(file name, chart)` into `dir` (created if missing) and returns the links
/// a markdown report puts to them: the directory as given, then the name.
fn write_dir(dir: &Path, plots: &[(&str, Plot)]) -> Result<Vec<ChartLink>> {
    let shown = dir.display();
    std::fs::create_dir_all(dir).map_err(|e| Error::Usage(format!("--plot {shown}: {e}")))?;
    let mut links = Vec::new();
    for (name, plot) in plots {
        let path = dir.join(name);
        std::fs::write(&path, plot.render()?)
            .map_err(|e| Error::Usage(format!("--plot {}: {e}", path.display())))?;
        let base = shown.to_string();
        links.push(ChartLink {
            title: plot.title().to_string(),
            href: format!("{}/{name}", base.trim_end_matches(['/', '\\'])),
        });
    }
    Ok(links)
}

/// `--plot-y`'s value as a file name part.
fn figure_name(figure: SweepFigure) -> &'static str {
    match figure {
        SweepFigure::Duplicates => "duplicates",
        SweepFigure::Refunds => "refunds",
        SweepFigure::Unanswered => "unanswered",
        SweepFigure::ExtraAttempts => "extra-attempts",
        SweepFigure::KeyStore => "key-store",
        SweepFigure::KeyedDuplicates => "keyed-duplicates",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The curves are computed for the outputs that chart an estimate, and only for those.
    #[test]
    fn the_curves_are_drawn_by_a_page_or_a_plot_directory() {
        let with = |format: Format, plot: Option<&str>| Output {
            format,
            plot: plot.map(PathBuf::from),
            ..Output::default()
        };
        assert!(with(Format::Html, None).draws_curves());
        assert!(with(Format::Table, Some("charts")).draws_curves());
        assert!(with(Format::Markdown, Some("out/")).draws_curves());
        assert!(!with(Format::Table, None).draws_curves());
        assert!(!with(Format::Json, Some("sweep.SVG")).draws_curves());
        assert!(!with(Format::Markdown, None).draws_curves());
    }
}
